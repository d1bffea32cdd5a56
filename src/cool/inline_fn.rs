//! `InlineFn`: a call-once closure kept in place when it is small, so that
//! building a formula node does not allocate. A predicate rebuilds its
//! formula on every run, and most of the closures capture a handle or two:
//! boxing each one cost more than evaluating it.
//!
//! With `arena::shared`, the crate's only unsafe code: a closure is written
//! into a word buffer and read back out exactly once, by `call` or by
//! `drop`.
#![allow(unsafe_code)]

use std::marker::PhantomData;
use std::mem::{self, ManuallyDrop, MaybeUninit};
use std::ptr;

/// Words of closure state kept in place; a larger closure is boxed, and
/// the box (one word) is what is kept in place.
const WORDS: usize = 3;

type Buffer = [MaybeUninit<usize>; WORDS];

/// How to call or drop the closure in a buffer: each reads it out (moving
/// it), so exactly one of them is called, once.
struct VTable<R> {
    call: unsafe fn(*mut Buffer) -> R,
    drop: unsafe fn(*mut Buffer),
}

/// A `FnOnce() -> R + 'a`, kept in place when it fits.
pub(crate) struct InlineFn<'a, R> {
    buffer: Buffer,
    vtable: &'a VTable<R>,
    /// Owns a closure of lifetime `'a`, neither `Send` nor `Sync` in
    /// general.
    _owns: PhantomData<Box<dyn FnOnce() -> R + 'a>>,
}

/// Whether a value of type `T` fits in a buffer.
const fn fits<T>() -> bool {
    mem::size_of::<T>() <= mem::size_of::<Buffer>()
        && mem::align_of::<T>() <= mem::align_of::<Buffer>()
}

/// The vtable of a closure kept in the buffer as a value of type `C`
/// (the closure itself, or its box).
struct Table<C, R>(PhantomData<(C, R)>);

impl<C: FnOnce() -> R, R> Table<C, R> {
    const VTABLE: VTable<R> = VTable {
        // SAFETY (both): the buffer holds a `C` written by `InlineFn::new`
        // and not yet read out; the buffer is not used again.
        call: |b| unsafe { ptr::read(b.cast::<C>())() },
        drop: |b| unsafe { ptr::drop_in_place(b.cast::<C>()) },
    };
}

impl<'a, R> InlineFn<'a, R> {
    pub(crate) fn new<F: FnOnce() -> R + 'a>(f: F) -> Self {
        if fits::<F>() {
            Self::in_place(f)
        } else {
            Self::in_place(Box::new(f))
        }
    }

    /// Keeps `c` in the buffer; `c` fits (checked).
    fn in_place<C: FnOnce() -> R + 'a>(c: C) -> Self {
        assert!(fits::<C>());
        let mut buffer: Buffer = [MaybeUninit::uninit(); WORDS];
        // SAFETY: `fits` checked the size and the alignment.
        unsafe { ptr::write(buffer.as_mut_ptr().cast::<C>(), c) };
        InlineFn {
            buffer,
            vtable: &Table::<C, R>::VTABLE,
            _owns: PhantomData,
        }
    }

    /// Calls the closure (consuming it).
    pub(crate) fn call(self) -> R {
        let mut this = ManuallyDrop::new(self);
        // SAFETY: the closure is read out once; `this` is never dropped.
        unsafe { (this.vtable.call)(&mut this.buffer) }
    }
}

impl<R> Drop for InlineFn<'_, R> {
    fn drop(&mut self) {
        // SAFETY: the closure is still in the buffer (`call` consumes
        // without dropping).
        unsafe { (self.vtable.drop)(&mut self.buffer) }
    }
}

//! The storage of formula nodes, so that building a formula allocates
//! (nearly) nothing: a predicate rebuilds its formula on every run, and
//! with a box per closure and per conjunction the allocator cost more than
//! the evaluation.
//!
//! - `InlineFn`: a call-once closure kept in place when it is small (most
//!   capture a handle or two).
//! - `PairBox`: a conjunction's two operands, in a block taken from this
//!   thread's cache of freed blocks.
//!
//! With `arena::shared`, the crate's only unsafe code: a closure is written
//! into a word buffer and read back out exactly once, by a call or by
//! `drop`; a lazy node or an atom is computed where it lies, its closure
//! read out of the node and the result written over it
//! (`Cool::compute_lazy`, `Cool::compute_atom`; a panic leaves the node
//! `Taken`); a block holds a pair from `PairBox::new` to its drop.
#![allow(unsafe_code)]

use super::{Cool, Negated, Node};
use std::cell::Cell;
use std::marker::PhantomData;
use std::mem::{self, MaybeUninit};
use std::ops::{Deref, DerefMut};
use std::ptr::{self, NonNull};

/// Words of closure state kept in place; a larger closure is boxed, and
/// the box (one word) is what is kept in place. Five hold a closure over an
/// environment and two handles (Typecheck's); 2 and 3 words were slower
/// there (more boxes) and no faster on Imperative (smaller nodes to copy).
const WORDS: usize = 5;

type Buffer = [MaybeUninit<usize>; WORDS];

/// How to call or drop the closure in a buffer: each reads it out (moving
/// it), so exactly one of them is called, once.
struct VTable<R> {
    call: unsafe fn(*mut Buffer) -> R,
    /// Calls the closure and writes its result to `out`, which may overlap
    /// the buffer (the closure is read out of it first): a lazy node's
    /// formula is written over the node itself, with no copy between.
    call_into: unsafe fn(*mut Buffer, *mut R),
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
        call_into: |b, out| unsafe {
            let c = ptr::read(b.cast::<C>());
            out.write(c())
        },
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
}

impl<'a> Cool<'a> {
    /// Replaces a lazy node by the formula its closure computes, and says
    /// whether the node was negated. The closure is read out of the node
    /// and its formula written over the node, with no copy of either in
    /// between; if the closure panics, the node is marked taken (it owns
    /// nothing any more).
    #[inline(always)]
    pub(super) fn compute_lazy(&mut self) -> Negated {
        let node: *mut Cool<'a> = self;
        // SAFETY: `node` is `self`; everything below goes through it.
        let Node::Lazy(f, neg) = (unsafe { &mut (*node).0 }) else {
            unreachable!("not a lazy node")
        };
        let neg = *neg;
        let (vtable, buffer, taken_on_unwind) = f.read_out(node);
        // SAFETY: `buffer` holds a closure of this vtable, not read out;
        // `call_into` reads it out before it writes the formula over the
        // node, which is then neither dropped nor read as the lazy node
        // again (a panic leaves it `Taken`).
        unsafe { (vtable.call_into)(buffer, node) };
        mem::forget(taken_on_unwind);
        neg
    }

    /// Replaces an atom by its value, computed once (and negated if the
    /// atom is), the closure read out of the node where it lies.
    #[inline(always)]
    pub(super) fn compute_atom(&mut self) -> bool {
        let node: *mut Cool<'a> = self;
        // SAFETY: `node` is `self`; everything below goes through it.
        let Node::Atom(f, neg) = (unsafe { &mut (*node).0 }) else {
            unreachable!("not an atom")
        };
        let neg = *neg;
        let (vtable, buffer, taken_on_unwind) = f.read_out(node);
        // SAFETY: as in `compute_lazy`; the node is overwritten below
        // without a drop, its closure read out by `call`.
        let v = unsafe { (vtable.call)(buffer) } != neg;
        mem::forget(taken_on_unwind);
        // SAFETY: the node owns nothing any more.
        unsafe { ptr::write(node, Cool(Node::Bool(v))) };
        v
    }
}

impl<'a, R> InlineFn<'a, R> {
    /// What computing the node that holds this closure needs: the
    /// closure's vtable and buffer, and the guard that marks the node
    /// `Taken` should the closure panic (forgotten once the result is
    /// written over the node).
    #[inline(always)]
    fn read_out(&mut self, node: *mut Cool<'a>) -> (&'a VTable<R>, *mut Buffer, TakenOnUnwind<'a>) {
        (self.vtable, &mut self.buffer, TakenOnUnwind(node))
    }
}

/// Marks a node whose closure has been read out `Taken` if the closure
/// panics, so that the node is not dropped as the closure's owner.
struct TakenOnUnwind<'a>(*mut Cool<'a>);

impl Drop for TakenOnUnwind<'_> {
    fn drop(&mut self) {
        // SAFETY: the node's closure was read out (and is being dropped by
        // the unwinding); `Taken` owns nothing.
        unsafe { ptr::write(self.0, Cool(Node::Taken)) };
    }
}

impl<R> Drop for InlineFn<'_, R> {
    fn drop(&mut self) {
        // SAFETY: the closure is still in the buffer (`call` consumes
        // without dropping).
        unsafe { (self.vtable.drop)(&mut self.buffer) }
    }
}

/// A block that can hold a pair of operands of any lifetime (lifetimes do
/// not change layouts).
type Block = MaybeUninit<[Cool<'static>; 2]>;

/// At most this many freed blocks are kept per thread (a formula of a few
/// hundred conjunctions reuses all of its blocks in the next run).
const CACHE: usize = 1024;

/// A thread's freed blocks, linked through their first word: taking and
/// giving one back is a few loads and stores (a `RefCell<Vec<Box>>` cost a
/// sixth of the instructions of building and dropping a pair).
struct FreeBlocks {
    head: Cell<Option<NonNull<Block>>>,
    len: Cell<usize>,
}

/// What a block on the free list holds in its first word.
type Link = Option<NonNull<Block>>;

impl FreeBlocks {
    #[inline(always)]
    fn take(&self) -> Option<NonNull<Block>> {
        let head = self.head.get()?;
        // SAFETY: a block on the list holds the link to the next one in
        // its first word (written by `give`); a block is large and aligned
        // enough for a link.
        let next = unsafe { head.cast::<Link>().read() };
        self.head.set(next);
        self.len.set(self.len.get() - 1);
        Some(head)
    }

    /// Keeps `block`, allocated as a `Box<Block>` and holding nothing;
    /// gives it back when the list is full.
    fn give(&self, block: NonNull<Block>) -> Option<NonNull<Block>> {
        if self.len.get() >= CACHE {
            return Some(block);
        }
        // SAFETY: the block is unused memory of a block's size and
        // alignment, which hold a link.
        unsafe { block.cast::<Link>().write(self.head.get()) };
        self.head.set(Some(block));
        self.len.set(self.len.get() + 1);
        None
    }
}

/// What [`FreeBlocks::len`] says once the thread's blocks were released
/// at its exit: more than the cache holds, so a block given back later (by
/// another thread-local's destructor) is freed at once.
const RELEASED: usize = usize::MAX;

/// Frees the thread's cached blocks when the thread exits. Kept apart from
/// [`FREE_BLOCKS`] so that the free list, which owns no destructor, is a
/// plain thread-local: with one, every take and give would check whether
/// it was registered or destroyed. It is touched, and so registered, when
/// the thread allocates a block, which every block on its list was.
struct ReleaseAtExit(Cell<bool>);

impl Drop for ReleaseAtExit {
    fn drop(&mut self) {
        FREE_BLOCKS.with(|free| {
            while let Some(block) = free.take() {
                // SAFETY: every block on the list was allocated as a
                // `Box<Block>` and is owned by the list alone.
                drop(unsafe { Box::from_raw(block.as_ptr()) });
            }
            free.len.set(RELEASED);
        });
    }
}

const _: () = assert!(
    mem::size_of::<Block>() >= mem::size_of::<Link>()
        && mem::align_of::<Block>() >= mem::align_of::<Link>()
);

thread_local! {
    static FREE_BLOCKS: FreeBlocks = const {
        FreeBlocks {
            head: Cell::new(None),
            len: Cell::new(0),
        }
    };
    static RELEASE_AT_EXIT: ReleaseAtExit = const { ReleaseAtExit(Cell::new(false)) };
}

/// A conjunction's operands, owned like a `Box<[Cool; 2]>`.
pub(crate) struct PairBox<'a> {
    pair: NonNull<[Cool<'a>; 2]>,
    _owns: PhantomData<[Cool<'a>; 2]>,
}

impl<'a> PairBox<'a> {
    #[inline(always)]
    pub(crate) fn new(pair: [Cool<'a>; 2]) -> Self {
        let block = FREE_BLOCKS.with(FreeBlocks::take).unwrap_or_else(new_block);
        let at = block.cast::<[Cool<'a>; 2]>();
        // SAFETY: the block is allocated for a pair of this layout and
        // holds nothing.
        unsafe { at.as_ptr().write(pair) };
        PairBox {
            pair: at,
            _owns: PhantomData,
        }
    }
}

/// A block allocated when this thread has none to reuse.
#[cold]
#[inline(never)]
fn new_block() -> NonNull<Block> {
    if RELEASE_AT_EXIT
        .try_with(|release| release.0.set(true))
        .is_err()
    {
        // The thread is exiting and its cache was (or can no longer be)
        // released: the block is freed when it is given back.
        FREE_BLOCKS.with(|free| free.len.set(RELEASED));
    }
    NonNull::from(Box::leak(Box::new(MaybeUninit::uninit())))
}

impl<'a> Deref for PairBox<'a> {
    type Target = [Cool<'a>; 2];
    fn deref(&self) -> &[Cool<'a>; 2] {
        // SAFETY: the block holds the pair until the drop.
        unsafe { self.pair.as_ref() }
    }
}

impl DerefMut for PairBox<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        // SAFETY: as for `deref`, borrowed uniquely through `self`.
        unsafe { self.pair.as_mut() }
    }
}

impl Drop for PairBox<'_> {
    fn drop(&mut self) {
        drop_pair(self.pair, 0);
    }
}

/// A drop of nested pairs checks the stack once per this many levels (a
/// formula is as deep as the input it follows, or as a long
/// `Cool::all`), and goes on on a fresh segment when it runs low.
const DROP_LEVELS_PER_CHECK: u32 = 32;

/// Drops the pair in `pair`, `depth` pairs below the first one dropped,
/// and gives its block back. Its operands are dropped where they lie: a
/// conjunction on the left one level deeper (rather than by its own drop,
/// which would count from 0 again), one on the right in the same loop (a
/// chain nested to the right, `Cool::all`'s, takes no stack). A drop that
/// panics leaks the rest of the pair and the block.
fn drop_pair(mut pair: NonNull<[Cool<'_>; 2]>, depth: u32) {
    loop {
        // SAFETY: the block holds the pair until here; each operand is
        // dropped once, in place, and the block is then empty again,
        // allocated as a `Box<Block>`.
        let [left, right] = unsafe { &mut *pair.as_ptr() };
        match &left.0 {
            Node::And(inner, _) | Node::Seq(inner, _) => {
                let inner = inner.pair;
                if (depth + 1) % DROP_LEVELS_PER_CHECK == 0 {
                    super::with_stack_room(|| drop_pair(inner, depth + 1));
                } else {
                    drop_pair(inner, depth + 1);
                }
            }
            // SAFETY: as above.
            Node::Atom(..) | Node::Lazy(..) => unsafe { ptr::drop_in_place(left) },
            Node::Bool(_) | Node::Taken => {}
        }
        let next = match &right.0 {
            Node::And(inner, _) | Node::Seq(inner, _) => Some(inner.pair),
            Node::Atom(..) | Node::Lazy(..) => {
                // SAFETY: as above.
                unsafe { ptr::drop_in_place(right) };
                None
            }
            Node::Bool(_) | Node::Taken => None,
        };
        let block = pair.cast::<Block>();
        let unkept = FREE_BLOCKS.with(|free| free.give(block));
        if let Some(block) = unkept {
            // SAFETY: as above; nothing else refers to the block.
            drop(unsafe { Box::from_raw(block.as_ptr()) });
        }
        match next {
            Some(inner) => pair = inner,
            None => return,
        }
    }
}

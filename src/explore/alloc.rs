//! The allocation budget of an exploration: the counting global allocator
//! a user declares with [`crate::counting_allocator!`] in a test binary
//! counts the bytes each call holds on its own thread (through [`charge`]
//! and [`refund`]) and parks a call that goes over its budget.
//!
//! A global allocator must not unwind, and refusing an allocation aborts
//! the process, so the over-budget call is neither failed nor refused: its
//! thread raises a flag the exploration's supervisor watches and sleeps
//! forever inside the allocation. It then holds at most the budget (plus
//! the one allocation that crossed it, never made), and the supervisor
//! reports the call and goes on with a fresh worker thread, as for a call
//! past its time budget.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

thread_local! {
    /// The bytes the thread's current call may hold (`u64::MAX`: no call
    /// is budgeted).
    static LIMIT: Cell<u64> = const { Cell::new(u64::MAX) };
    /// Bytes allocated minus bytes freed on this thread since the call was
    /// armed (frees of memory the call did not allocate make it negative).
    static HELD: Cell<i64> = const { Cell::new(0) };
    /// Raised when the armed call goes over its budget.
    static FLAG: Cell<Option<&'static AtomicBool>> = const { Cell::new(None) };
}

/// Whether a counting allocator has served an allocation in this process.
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// Whether the counting allocator of [`crate::counting_allocator!`] is the
/// global allocator of this process (it has served an allocation).
pub fn counting_allocator_installed() -> bool {
    INSTALLED.load(Ordering::Relaxed)
}

/// Counts `bytes` more held by this thread; parks it when they cross the
/// armed budget. Called by the allocator of [`crate::counting_allocator!`]
/// before each allocation.
#[doc(hidden)]
#[inline]
pub fn charge(bytes: usize) {
    // A load first: a store on every allocation would bounce the line
    // between the threads of a parallel test binary.
    if !INSTALLED.load(Ordering::Relaxed) {
        INSTALLED.store(true, Ordering::Relaxed);
    }
    let limit = LIMIT.with(Cell::get);
    if limit == u64::MAX {
        return;
    }
    let held = HELD.with(|h| {
        let now = h
            .get()
            .saturating_add(i64::try_from(bytes).unwrap_or(i64::MAX));
        h.set(now);
        now
    });
    if u64::try_from(held).is_ok_and(|held| held > limit) {
        park_over_budget();
    }
}

/// Counts `bytes` freed by this thread. Called by the allocator of
/// [`crate::counting_allocator!`] after each deallocation.
#[doc(hidden)]
#[inline]
pub fn refund(bytes: usize) {
    if LIMIT.with(Cell::get) != u64::MAX {
        HELD.with(|h| {
            h.set(
                h.get()
                    .saturating_sub(i64::try_from(bytes).unwrap_or(i64::MAX)),
            )
        });
    }
}

/// The over-budget thread: disarmed first (so that nothing it does from
/// here is counted), flagged, then asleep for good. Sleeping allocates
/// nothing.
#[cold]
#[inline(never)]
fn park_over_budget() -> ! {
    LIMIT.with(|l| l.set(u64::MAX));
    if let Some(flag) = FLAG.with(Cell::get) {
        flag.store(true, Ordering::Release);
    }
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

/// Declares a global allocator (the system allocator, counted) for the
/// allocation budget of explorations
/// ([`crate::explore::Explorer::alloc_budget`]). Put it once, at module
/// level, in the test binary or example that explores:
///
/// ```ignore
/// neatcheck::counting_allocator!();
/// ```
///
/// neatcheck itself holds no `unsafe` code outside its two audited
/// modules: implementing `GlobalAlloc` needs an `unsafe impl`, so the macro
/// expands it in the calling crate, where it only forwards every call to
/// `std::alloc::System` unchanged and counts around it with safe functions
/// of neatcheck. Outside budgeted calls the count costs one thread-local
/// read per allocation. A call over its budget is parked: its thread sleeps
/// forever inside the allocation (a global allocator may neither unwind nor
/// fail without aborting the process), and the exploration reports it and
/// goes on without it.
#[macro_export]
macro_rules! counting_allocator {
    () => {
        const _: () = {
            struct NeatcheckCountingAlloc;

            // SAFETY: every method forwards to the system allocator with
            // the caller's arguments unchanged; the counting around it
            // never touches the memory.
            unsafe impl ::std::alloc::GlobalAlloc for NeatcheckCountingAlloc {
                unsafe fn alloc(&self, layout: ::std::alloc::Layout) -> *mut u8 {
                    $crate::explore::alloc::charge(layout.size());
                    unsafe { ::std::alloc::GlobalAlloc::alloc(&::std::alloc::System, layout) }
                }
                unsafe fn alloc_zeroed(&self, layout: ::std::alloc::Layout) -> *mut u8 {
                    $crate::explore::alloc::charge(layout.size());
                    unsafe {
                        ::std::alloc::GlobalAlloc::alloc_zeroed(&::std::alloc::System, layout)
                    }
                }
                unsafe fn dealloc(&self, ptr: *mut u8, layout: ::std::alloc::Layout) {
                    $crate::explore::alloc::refund(layout.size());
                    unsafe {
                        ::std::alloc::GlobalAlloc::dealloc(&::std::alloc::System, ptr, layout)
                    }
                }
                unsafe fn realloc(
                    &self,
                    ptr: *mut u8,
                    layout: ::std::alloc::Layout,
                    new_size: usize,
                ) -> *mut u8 {
                    if new_size >= layout.size() {
                        $crate::explore::alloc::charge(new_size - layout.size());
                    } else {
                        $crate::explore::alloc::refund(layout.size() - new_size);
                    }
                    unsafe {
                        ::std::alloc::GlobalAlloc::realloc(
                            &::std::alloc::System,
                            ptr,
                            layout,
                            new_size,
                        )
                    }
                }
            }

            #[global_allocator]
            static NEATCHECK_COUNTING_ALLOC: NeatcheckCountingAlloc = NeatcheckCountingAlloc;
        };
    };
}

/// Arms the allocation budget of one call on this thread: from now until
/// the guard drops, the thread may hold `limit` more bytes; crossing it
/// raises `flag` and parks the thread.
pub(crate) struct Armed {
    _not_send: std::marker::PhantomData<*const ()>,
}

impl Armed {
    pub(crate) fn new(limit: u64, flag: &'static AtomicBool) -> Armed {
        FLAG.with(|f| f.set(Some(flag)));
        HELD.with(|h| h.set(0));
        LIMIT.with(|l| l.set(limit));
        Armed {
            _not_send: std::marker::PhantomData,
        }
    }
}

impl Drop for Armed {
    fn drop(&mut self) {
        LIMIT.with(|l| l.set(u64::MAX));
    }
}

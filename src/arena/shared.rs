//! The crate's only unsafe code, behind two small types: the read log a run
//! appends to through a shared context ([`ReadLog`]), and the arena a worker
//! publishes to the watchdog thread ([`PublishedArena`]).
#![allow(unsafe_code)]

use super::{Choice, Node};
use std::cell::UnsafeCell;
use std::ptr;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

/// The positions a run read, in order: appended to through `&self` while
/// the predicate holds the run's (shared) context, read and truncated by
/// the engine through `&mut self` between runs.
///
/// Soundness: the log is neither `Sync` nor `Send`'s concern (an
/// `UnsafeCell` makes it `!Sync`, so only one thread ever touches it), and
/// no method taking `&self` returns a reference into the vector or calls
/// out while it holds one, so inside each of them the access is exclusive.
#[derive(Debug)]
pub(crate) struct ReadLog {
    reads: UnsafeCell<Vec<u32>>,
}

impl ReadLog {
    /// An empty log with room for `n` reads.
    pub(crate) fn with_capacity(n: usize) -> ReadLog {
        ReadLog {
            reads: UnsafeCell::new(Vec::with_capacity(n)),
        }
    }

    /// The reads, between runs.
    #[inline]
    pub(crate) fn get_mut(&mut self) -> &mut Vec<u32> {
        self.reads.get_mut()
    }

    /// Number of reads recorded.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        // SAFETY: exclusive for the duration of the call (see the type).
        unsafe { (*self.reads.get()).len() }
    }

    /// Makes room for `n` more reads, so that a run reading each of `n`
    /// nodes at most once stays on [`ReadLog::record_if`]'s fast path.
    pub(crate) fn reserve(&self, n: usize) {
        // SAFETY: exclusive for the duration of the call (see the type).
        unsafe { (*self.reads.get()).reserve(n) }
    }

    /// Appends `node` if `record`. Branch-free on `record`: whether a read
    /// is new depends on the data and is badly predicted, so the index is
    /// always written (one past the end) and the length advanced by 0 or 1.
    #[inline(always)]
    pub(crate) fn record_if(&self, node: u32, record: bool) {
        // SAFETY: exclusive for the duration of the call (see the type).
        let reads = unsafe { &mut *self.reads.get() };
        let len = reads.len();
        if len < reads.capacity() {
            // SAFETY: `len < capacity`, so the slot is inside the
            // allocation; the length then covers only initialised slots.
            unsafe {
                *reads.as_mut_ptr().add(len) = node;
                reads.set_len(len + record as usize);
            }
        } else {
            // The engine reserves one slot per node before each run, and a
            // run records a node at most once: never taken there.
            Self::grow_and_record(reads, node, record);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow_and_record(reads: &mut Vec<u32>, node: u32, record: bool) {
        if record {
            reads.push(node);
        }
    }
}

/// The arena of the run in progress as a worker publishes it for the
/// watchdog thread: its address and length.
#[derive(Debug)]
pub(crate) struct PublishedArena {
    nodes: AtomicPtr<Node>,
    len: AtomicUsize,
}

impl PublishedArena {
    /// Nothing published.
    pub(crate) fn empty() -> PublishedArena {
        PublishedArena {
            nodes: AtomicPtr::new(ptr::null_mut()),
            len: AtomicUsize::new(0),
        }
    }

    /// Publishes `nodes` (relaxed: the slot's release store that follows
    /// orders it).
    #[inline]
    pub(crate) fn publish(&self, nodes: &[Node]) {
        self.nodes
            .store(nodes.as_ptr().cast_mut(), Ordering::Relaxed);
        self.len.store(nodes.len(), Ordering::Relaxed);
    }

    /// Copies the choices of the published arena (not the marks, which the
    /// running predicate may be writing).
    ///
    /// # Safety
    /// The caller must have acquired a state the worker released after
    /// [`PublishedArena::publish`], and the worker must stay, until this
    /// returns, inside the run it published: its arena is then allocated
    /// and its choices are frozen (during a run the predicate holds only a
    /// shared slice of the arena, through which only the `Cell` marks can
    /// change, and the engine mutates, grows or frees its arena only
    /// between runs).
    pub(crate) unsafe fn copy_choices(&self) -> Vec<Choice> {
        let base = self.nodes.load(Ordering::Relaxed);
        let len = self.len.load(Ordering::Relaxed);
        (0..len)
            .map(|i| {
                // SAFETY: `base[..len]` is alive and its choices frozen
                // (the caller's contract); the choice is plain data nobody
                // writes, so reading it from this thread is no data race. No
                // reference to a node (and so none to its changing mark) is
                // created: the field is read through a raw place.
                unsafe { ptr::addr_of!((*base.add(i)).choice).read() }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::ProdId;

    #[test]
    fn the_log_records_only_what_is_new_even_without_room() {
        let mut log = ReadLog::with_capacity(0);
        log.record_if(5, true);
        log.record_if(6, false);
        log.reserve(4);
        log.record_if(7, false);
        log.record_if(8, true);
        for i in 0..10 {
            log.record_if(i, i % 3 == 0);
        }
        assert_eq!(log.len(), 6);
        assert_eq!(*log.get_mut(), vec![5, 8, 0, 3, 6, 9]);
    }

    #[test]
    fn a_published_arena_copies_its_choices() {
        let arena = PublishedArena::empty();
        // SAFETY: nothing published: a null pointer and no node to read.
        assert!(unsafe { arena.copy_choices() }.is_empty());
        let nodes = [
            Node::new(Choice::alternative(ProdId::new(1), 1, 0), 0),
            Node::new(Choice::leaf(ProdId::new(2), u64::MAX), 9),
        ];
        arena.publish(&nodes);
        // SAFETY: `nodes` is alive and unchanged until the copy returns.
        let copy = unsafe { arena.copy_choices() };
        assert_eq!(copy, vec![nodes[0].choice(), nodes[1].choice()]);
    }
}

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
/// Soundness: the `UnsafeCell` makes the log `!Sync`, so only one thread
/// touches it at a time, and no method taking `&self` returns a reference
/// into the vector or calls out while it holds one, so inside each of them
/// the access is exclusive. The one unchecked operation,
/// [`ReadLog::record_if`], needs room its caller vouches for.
#[derive(Debug)]
pub(crate) struct ReadLog {
    reads: UnsafeCell<Vec<u32>>,
}

impl ReadLog {
    /// An empty log with room for `n` reads (at least one).
    pub(crate) fn with_capacity(n: usize) -> ReadLog {
        ReadLog {
            reads: UnsafeCell::new(Vec::with_capacity(n.max(1))),
        }
    }

    /// The reads, between runs.
    #[inline]
    pub(crate) fn as_mut_slice(&mut self) -> &mut [u32] {
        self.reads.get_mut()
    }

    /// Keeps the first `len` reads.
    #[inline]
    pub(crate) fn truncate(&mut self, len: usize) {
        self.reads.get_mut().truncate(len);
    }

    /// Appends `reads`, between runs.
    pub(crate) fn extend_from_slice(&mut self, reads: &[u32]) {
        self.reads.get_mut().extend_from_slice(reads);
    }

    /// Number of reads recorded.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        // SAFETY: exclusive for the duration of the call (see the type).
        unsafe { (*self.reads.get()).len() }
    }

    /// The read at index `i`, if recorded.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> Option<u32> {
        // SAFETY: exclusive for the duration of the call (see the type).
        unsafe { (&(*self.reads.get())).get(i).copied() }
    }

    /// Makes room for `n` more reads, so that a run reading each of `n`
    /// nodes at most once stays on [`ReadLog::record_if`]'s fast path.
    #[inline]
    pub(crate) fn reserve(&self, n: usize) {
        // SAFETY: exclusive for the duration of the call (see the type).
        unsafe { (*self.reads.get()).reserve(n) }
    }

    /// Appends `node` if `record`. Branch-free: whether a read is new
    /// depends on the data and is badly predicted, so the index is always
    /// written (one past the end) and the length advanced by 0 or 1.
    ///
    /// Unchecked because this is the innermost operation of every read of
    /// every run: a check of the room (a clamp or a branch) made the
    /// derived views too large to inline and cost 25% of the instructions
    /// of the Lambda benchmark.
    ///
    /// # Safety
    /// There must be room: fewer reads than the capacity. The engine
    /// reserves one slot per arena node plus one ([`ReadLog::reserve`])
    /// before each run, and a run records each node at most once (its mark
    /// is raised to the run's stamp when recorded).
    #[inline(always)]
    pub(crate) unsafe fn record_if(&self, node: u32, record: bool) {
        // SAFETY: exclusive for the duration of the call (see the type).
        let reads = unsafe { &mut *self.reads.get() };
        let len = reads.len();
        debug_assert!(len < reads.capacity(), "no room reserved for a read");
        // SAFETY: `len < capacity` (the caller's contract), so the slot is
        // inside the allocation; the new length covers only initialised
        // slots (`len` was just written).
        unsafe {
            *reads.as_mut_ptr().add(len) = node;
            reads.set_len(len + record as usize);
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
    fn the_log_records_only_what_is_new() {
        let mut log = ReadLog::with_capacity(0);
        log.reserve(14);
        let record = |node, record| {
            assert!(log.len() < 14);
            // SAFETY: room for 14 reads, and there are fewer.
            unsafe { log.record_if(node, record) }
        };
        record(5, true);
        record(6, false);
        record(7, false);
        record(8, true);
        for i in 0..10 {
            record(i, i % 3 == 0);
        }
        assert_eq!(log.len(), 6);
        assert_eq!(log.as_mut_slice(), [5, 8, 0, 3, 6, 9]);
        log.truncate(2);
        assert_eq!(log.as_mut_slice(), [5, 8]);
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

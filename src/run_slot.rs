//! The run slot: how an engine announces each predicate run to a watchdog
//! thread, and how that thread takes an overrunning run over. The protocol
//! (one atomic state word per slot) is described in `crate::watchdog`; this
//! module is the part the engine needs, below the search layer, while the
//! watchdog thread and its reports sit above it.

use crate::arena::{Choice, Node, PublishedArena};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Phase bits of a slot's state: no run in progress.
pub(crate) const IDLE: u64 = 0;
/// A run is in progress.
pub(crate) const RUNNING: u64 = 1;
/// The watchdog has taken over a run that overran the limit.
pub(crate) const INSPECTING: u64 = 2;
/// The phase bits of a state word (the generation is above them).
pub(crate) const PHASE: u64 = 3;

/// What one worker publishes for the watchdog; shared between the two.
#[derive(Debug)]
pub(crate) struct SlotShared {
    /// Generation and phase (see the module documentation).
    pub(crate) state: AtomicU64,
    /// The arena of the run in progress, valid while it is running.
    pub(crate) arena: PublishedArena,
    /// The size of the value under the run in progress.
    pub(crate) size: AtomicU64,
    /// The number of alternatives of the worker's grammar, to catch a
    /// report that would rebuild the value with another grammar.
    pub(crate) prods: AtomicUsize,
    /// The crash of the run in progress, written by the fatal-signal
    /// handler on the worker's thread (`crate::crash`); 0 while none.
    pub(crate) crash: AtomicU64,
    /// Someone watches this slot for crashes: the handler parks a crashed
    /// run here instead of letting the process die.
    pub(crate) crash_watched: AtomicBool,
}

/// One worker engine's end of the watchdog: the engine announces each
/// predicate run through it. Owned by a single engine.
#[derive(Debug)]
pub(crate) struct RunSlot {
    /// Shared with the watchdog thread.
    pub(crate) shared: Arc<SlotShared>,
    /// The generation of the last run entered. Only this end writes the
    /// state's generation, so it is kept here rather than read back.
    pub(crate) gen: std::cell::Cell<u64>,
}

impl RunSlot {
    /// The end of the slot the watchdog thread samples.
    pub(crate) fn shared(&self) -> Arc<SlotShared> {
        self.shared.clone()
    }

    /// A slot that no watchdog watches (its announcements go nowhere).
    pub(crate) fn unwatched() -> Self {
        RunSlot {
            shared: Arc::new(SlotShared {
                state: AtomicU64::new(IDLE),
                arena: PublishedArena::empty(),
                size: AtomicU64::new(0),
                prods: AtomicUsize::new(0),
                crash: AtomicU64::new(0),
                crash_watched: AtomicBool::new(false),
            }),
            gen: std::cell::Cell::new(0),
        }
    }

    /// Records the number of alternatives of the grammar whose arenas this
    /// slot will publish (checked when a report rebuilds a value).
    pub(crate) fn set_grammar_len(&self, prods: usize) {
        self.shared.prods.store(prods, Ordering::Relaxed);
    }

    /// Announces a predicate run over `nodes` (a value of `size`).
    ///
    /// The arena must stay allocated, and every node's choice unchanged,
    /// until the matching [`RunSlot::leave`] returns: the watchdog may read
    /// them from another thread in between.
    #[inline]
    pub(crate) fn enter(&self, nodes: &[Node], size: u64) {
        let gen = self.gen.get().wrapping_add(1);
        self.gen.set(gen);
        let s = &*self.shared;
        s.arena.publish(nodes);
        s.size.store(size, Ordering::Relaxed);
        // Release: a watchdog that acquires this state sees the arena
        // published above (and the nodes written before the run).
        s.state.store(gen << 2 | RUNNING, Ordering::Release);
        // After the run is announced: a crash from here on finds it running.
        crate::crash::entering(s);
    }

    /// Announces the end of the run entered last. Returns only once the
    /// watchdog is not reading the arena.
    #[inline]
    pub(crate) fn leave(&self) {
        crate::crash::leaving();
        let running = self.gen.get() << 2 | RUNNING;
        // Acquire on success: the engine's writes to the arena after this
        // can not move before it, i.e. into the window in which the
        // watchdog could still take the run over.
        if self
            .shared
            .state
            .compare_exchange(
                running,
                running & !PHASE,
                Ordering::Acquire,
                Ordering::Acquire,
            )
            .is_err()
        {
            self.wait_released();
        }
    }

    /// The watchdog took this run over: wait until it lets go (in a check
    /// it never does, as it ends the process).
    #[cold]
    #[inline(never)]
    fn wait_released(&self) {
        // Acquire pairs with the watchdog's release of the run, so its reads
        // of the arena happen before the engine writes it again.
        while self.shared.state.load(Ordering::Acquire) & PHASE == INSPECTING {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

/// A run that overran the limit, as the fire callback sees it.
#[derive(Clone, Debug)]
pub(crate) struct Fired {
    /// The choices of the run's arena (node 0 is the root of the value);
    /// the marks are left out: the looping predicate may still be writing
    /// them.
    pub nodes: Vec<Choice>,
    /// The size of the value.
    pub size: u64,
    /// How long the run had been seen running (a lower bound of its time).
    pub elapsed: Duration,
    /// The per-run limit.
    pub limit: Duration,
    /// The number of alternatives of the grammar the worker searched.
    pub prods: usize,
    /// What killed the run, when it crashed rather than overran.
    pub crash: Option<crate::crash::Crash>,
}

/// Takes run `state` of a slot over and copies its value's structure;
/// `None` if the run ended meanwhile. On success the slot stays inspecting:
/// the caller must release it (or end the process).
pub(crate) fn take_over(
    slot: &SlotShared,
    state: u64,
    elapsed: Duration,
    limit: Duration,
) -> Option<Fired> {
    // Acquire pairs with the worker's release in `enter`: the arena address
    // and length it published for this run are visible below.
    slot.state
        .compare_exchange(
            state,
            state & !PHASE | INSPECTING,
            Ordering::Acquire,
            Ordering::Relaxed,
        )
        .ok()?;
    #[allow(unsafe_code)]
    // SAFETY: the worker published its arena for this very run (generation
    // in `state`) before its release store that our acquire read. It is
    // still inside that run, and stays there until released: its `leave`
    // fails while the state is INSPECTING, and an engine only mutates,
    // grows or frees its arena after `leave` returns.
    let nodes = unsafe { slot.arena.copy_choices() };
    Some(Fired {
        nodes,
        size: slot.size.load(Ordering::Relaxed),
        elapsed,
        limit,
        prods: slot.prods.load(Ordering::Relaxed),
        crash: crate::crash::Crash::decode(slot.crash.load(Ordering::Acquire)),
    })
}

//! One worker of a parallel search: it takes units from the ledger,
//! restarts its engine at a unit by replaying the unit's path, explores it,
//! gives the end of what it has left to idle workers, and keeps the lower
//! bounds of positions an exact run budget needs.

use super::progress::{Ledger, Path, Unit};
use super::{Hit, Report, Stop, StopKind, Task};
use crate::engine::{Budget, RunResult, Searcher, Tally};
use crate::Enumerable;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Instant;

/// What makes a worker stop at a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum StopAt {
    /// Panics only (a whole search).
    Panic,
    /// Any failing run (a counterexample search).
    Failure,
}

impl StopAt {
    /// Whether run outcome `r` stops the worker that made it.
    fn stops(self, r: &RunResult) -> bool {
        matches!(
            (r, self),
            (RunResult::Panicked(_), _) | (RunResult::False(_), StopAt::Failure)
        )
    }
}

/// What the workers change together, behind one lock.
#[derive(Debug)]
struct Board {
    /// The units.
    ledger: Ledger,
    /// The path of the earliest stop (failure or cut) found: no node from
    /// there on can change the result.
    best: Option<Path>,
}

/// What the workers share.
#[derive(Debug)]
pub(super) struct Shared {
    board: Mutex<Board>,
    /// Wakes idle workers: a unit given away, the last unit in flight
    /// ended, the deadline passed.
    wake: Condvar,
    /// Bumped when `Board::best` changes (read on every run).
    best_changes: AtomicU64,
    /// Workers waiting for a unit.
    idle: AtomicUsize,
    /// Units waiting for a worker (`Ledger::waiting`, readable without
    /// the lock).
    waiting: AtomicUsize,
    /// The deadline has passed: every worker stops.
    out_of_time: AtomicBool,
    /// A worker panicked (not the predicate: neatcheck's own errors):
    /// every worker stops, and the caller re-raises the panic.
    aborted: AtomicBool,
}

impl Shared {
    /// The whole tree waiting, nothing found yet.
    pub(super) fn new() -> Self {
        Shared {
            board: Mutex::new(Board {
                ledger: Ledger::new(),
                best: None,
            }),
            wake: Condvar::new(),
            best_changes: AtomicU64::new(0),
            idle: AtomicUsize::new(0),
            waiting: AtomicUsize::new(1),
            out_of_time: AtomicBool::new(false),
            aborted: AtomicBool::new(false),
        }
    }

    fn board(&self) -> MutexGuard<'_, Board> {
        // A worker that panicked holding the lock left the board
        // consistent: every change is a single call.
        self.board.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Makes every worker stop (a worker panicked).
    pub(super) fn abort(&self) {
        self.aborted.store(true, Ordering::Relaxed);
        let _board = self.board();
        self.wake.notify_all();
    }

    /// Whether the workers must stop now.
    fn halted(&self) -> bool {
        self.out_of_time.load(Ordering::Relaxed) || self.aborted.load(Ordering::Relaxed)
    }

    /// Once the workers are done: the ledger, and whether the deadline
    /// passed.
    pub(super) fn into_outcome(self) -> (Ledger, bool) {
        let board = self.board.into_inner().unwrap_or_else(|p| p.into_inner());
        (board.ledger, self.out_of_time.into_inner())
    }
}

/// How many runs a worker makes between looks at the clock and reports of
/// its runs to the ledger (both cost more than a small run).
const CHECK_EVERY: u64 = 64;

/// What every worker of one bound shares.
#[derive(Debug)]
pub(super) struct Job<'a, T> {
    /// What the workers run.
    pub(super) task: &'a Task<'a, T, Hit<T>>,
    /// Which runs are failures.
    pub(super) stop_at: StopAt,
    /// The largest size searched.
    pub(super) bound: usize,
    /// The limits of the whole search (not of one worker).
    pub(super) budget: Budget,
    /// Runs a worker makes in a unit before it gives part of it away, at
    /// any depth; `None`: [`super::RUNS_PER_REPLAY`] per run replayed.
    pub(super) donate_after: Option<u64>,
    /// What the workers coordinate through.
    pub(super) shared: &'a Shared,
}

/// The unit a worker is exploring.
#[derive(Debug)]
struct Current<Tl> {
    /// Its key (the path of its first node).
    key: Path,
    /// The end of its range of children (`Unit::to`).
    to: u32,
    /// Runs made in it so far.
    runs: u64,
    /// Their tally.
    tally: Tl,
    /// A lower bound of the runs before it in sequential order (exact once
    /// every earlier unit is complete); only kept under a run budget.
    start_at_least: u64,
}

/// What one call of [`Worker::tick`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tick {
    /// It ran the predicate this many times (replays included; 0 when it
    /// only moved between units).
    Ran(u64),
    /// No unit is waiting, but some are explored (one may be given away).
    Idle,
    /// Nothing is left that can change the result.
    Done,
}

/// Counts of one worker's scheduling (for the simulation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Effort {
    /// Runs of nodes (each node of the search is run by one worker).
    pub(super) runs: u64,
    /// Runs replayed to restart at a unit.
    pub(super) replays: u64,
    /// Units taken.
    pub(super) units: u64,
    /// Units reached from the root (the others by going back up the
    /// worker's own branch).
    pub(super) restarts: u64,
    /// Units given away.
    pub(super) given: u64,
}

/// One worker: its own searcher, the unit it explores and what it has
/// done.
#[derive(Debug)]
pub(super) struct Worker<'a, T, Tl> {
    job: &'a Job<'a, T>,
    searcher: Searcher<T>,
    report: Report<T, Tl>,
    current: Option<Current<Tl>>,
    /// The earliest stop known, as of `best_seen` changes.
    best: Option<Path>,
    best_seen: u64,
    /// Scratch for paths.
    path: Path,
    /// Runs since the last look at the clock and report to the ledger.
    since_check: u64,
    /// Whether this worker counts in `Shared::idle`.
    idle: bool,
    /// It found a cut in the unit it explores: once out of it, it stops
    /// if others still explore units (they take the units left before the
    /// cut), which bounds the runs made past the budget.
    cut: bool,
    /// It stopped after a cut.
    retired: bool,
    pub(super) effort: Effort,
}

impl<'a, T: Enumerable, Tl: Tally> Worker<'a, T, Tl> {
    /// A worker with its own searcher.
    pub(super) fn new(job: &'a Job<'a, T>) -> Self {
        let mut searcher = Searcher::<T>::from_grammar(job.task.source.grammar(), job.bound)
            .sharded(job.task.shard);
        if let Some(new_slot) = job.task.watchdog {
            searcher.watch(new_slot());
        }
        Worker {
            job,
            searcher,
            report: Report::new(),
            current: None,
            best: None,
            best_seen: 0,
            path: vec![],
            since_check: 0,
            idle: false,
            cut: false,
            retired: false,
            effort: Effort::default(),
        }
    }

    /// Works until nothing is left that can change the result, waiting
    /// while idle.
    pub(super) fn work(mut self) -> Report<T, Tl> {
        while self.tick(true) != Tick::Done {}
        self.into_report()
    }

    /// What the worker did (after [`Worker::tick`] said `Done`).
    pub(super) fn into_report(self) -> Report<T, Tl> {
        debug_assert!(self.current.is_none());
        self.report
    }

    /// One step: takes a unit if it has none (waiting for one when
    /// `blocking`), then runs one node of it.
    pub(super) fn tick(&mut self, blocking: bool) -> Tick {
        let shared = self.job.shared;
        if shared.halted() || self.retired {
            self.leave_unit(false);
            return Tick::Done;
        }
        let mut ran = 0;
        if self.current.is_none() {
            match self.take(blocking) {
                Tick::Ran(_) => {}
                other => return other,
            }
            ran = self.enter();
            if self.current.is_none() {
                return Tick::Ran(ran);
            }
        }
        if !self.searcher.advance() {
            self.leave_unit(true);
            return Tick::Ran(ran);
        }
        let depth = self.searcher.pending_depth();
        if self.after_best(depth) || !self.may_run(depth) {
            self.leave_unit(false);
            return Tick::Ran(ran);
        }
        self.run_node(depth);
        if self.current.is_some() {
            self.maybe_give_away();
        }
        Tick::Ran(ran + 1)
    }

    /// Takes the waiting unit before the earliest stop that is cheapest to
    /// reach from where this worker is (`Ran(0)`), or says the worker is
    /// idle or done.
    fn take(&mut self, blocking: bool) -> Tick {
        let shared = self.job.shared;
        let mut board = shared.board();
        loop {
            if shared.halted() {
                return self.not_idle(Tick::Done);
            }
            let Board { ledger, best } = &mut *board;
            // The unit that costs this worker the fewest replays.
            let searcher = &self.searcher;
            let replays = |u: &Unit| match &u.parent {
                None => 0,
                Some(parent) => searcher.replays_to(parent, u.from),
            };
            if let Some((key, unit)) = ledger.take_cheapest(best.as_ref(), replays) {
                shared.waiting.store(ledger.waiting(), Ordering::Relaxed);
                let start_at_least = match self.job.budget.max_runs {
                    // Its first node's ancestors come before it.
                    Some(_) => {
                        let ancestors = (0..key.len())
                            .filter(|&depth| searcher.counts_node(&key[..depth]))
                            .count();
                        let min_unit_runs = u64::from(!self.sharded());
                        ledger
                            .runs_before_at_least(&key, min_unit_runs)
                            .max(ancestors as u64)
                    }
                    None => 0,
                };
                self.current = Some(Current {
                    key,
                    to: unit.to,
                    runs: 0,
                    tally: Tl::default(),
                    start_at_least,
                });
                return self.not_idle(Tick::Ran(0));
            }
            if ledger.taken() == 0 {
                // Nothing in flight can give work away any more.
                shared.wake.notify_all();
                return self.not_idle(Tick::Done);
            }
            if !self.idle {
                self.idle = true;
                shared.idle.fetch_add(1, Ordering::Relaxed);
            }
            if !blocking {
                return Tick::Idle;
            }
            board = shared.wake.wait(board).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Whether the workers run one shard of the search (sharding hook): a
    /// unit may then hold none of their runs, and a node on a unit's path
    /// may be another shard's.
    fn sharded(&self) -> bool {
        self.job.task.shard.is_some_and(|s| !s.is_whole())
    }

    /// Leaves the idle count, if in it; returns `t`.
    fn not_idle(&mut self, t: Tick) -> Tick {
        if self.idle {
            self.idle = false;
            self.job.shared.idle.fetch_sub(1, Ordering::Relaxed);
        }
        t
    }

    /// Moves the searcher to the unit just taken: back up its current
    /// branch to the deepest node on the way that it can go on from, or to
    /// the root, then down the unit's path, running the nodes on the way
    /// again (which also rebuilds the schedules of strategies); returns
    /// the runs replayed. A unit given away whose first node is known to be
    /// past the run budget is cut at once.
    fn enter(&mut self) -> u64 {
        let cur = self.current.as_ref().expect("a unit taken");
        // Units given away have a node; the whole tree may have none.
        // Sharding hook: another shard's first node is no run of this one.
        if !cur.key.is_empty() && self.searcher.counts_node(&cur.key) && self.past_budget() {
            let key = cur.key.clone();
            self.stop(key, StopKind::Cut);
            self.leave_unit(false);
            return 0;
        }
        self.effort.units += 1;
        self.since_check = 0;
        let Some((first, parent)) = cur.key.split_last() else {
            self.searcher.restart();
            return 0;
        };
        let (parent, first, to) = (parent.to_vec(), *first, cur.to);
        let mut replays = 0;
        let kept = match self.searcher.rewind_towards(&parent, first) {
            Some(depth) => depth,
            None => {
                self.effort.restarts += 1;
                self.searcher.restart();
                assert!(self.searcher.advance(), "the root exists");
                self.replay_pending();
                replays += 1;
                0
            }
        };
        for (depth, &child) in parent.iter().enumerate().skip(kept) {
            self.move_to_child(depth + 1, child);
            self.replay_pending();
            replays += 1;
        }
        self.searcher.confine_to_last(to);
        // The unit's first node is left pending: the next `advance` keeps it.
        self.move_to_child(parent.len() + 1, first);
        self.effort.replays += replays;
        replays
    }

    /// Runs the pending node again to restart below it, uncounted: what
    /// the run left in thread-local state (a check's labels) is dropped,
    /// as after another shard's node.
    fn replay_pending(&mut self) {
        let r = (self.job.task.step)(&mut self.searcher).expect("a pending node runs");
        let cur = self.current.as_mut().expect("a unit taken");
        cur.tally.skip(&r);
    }

    /// Moves to child `child` (at `depth`) of the deepest node with
    /// children on the branch, skipping the children before it, checking
    /// that the replayed runs read what the first ones did.
    fn move_to_child(&mut self, depth: usize, child: u32) {
        loop {
            let next = self.searcher.next_child();
            // Sharding hook: whichever shard owns the node; it is dealt
            // when it is run or, for the unit's first node, advanced from.
            let moved = self.searcher.advance_in_tree();
            assert!(
                next.is_some_and(|n| n <= child) && moved && self.searcher.pending_depth() == depth,
                "neatcheck: a parallel search needs a predicate that reads the same \
                 positions every time it runs on the same input (a replayed run read \
                 others)"
            );
            if next == Some(child) {
                return;
            }
            self.searcher.skip_subtree();
        }
    }

    /// Whether the pending node (at `depth`) is at or after the earliest
    /// stop known: then so is the rest of the unit.
    fn after_best(&mut self, depth: usize) -> bool {
        let changes = self.job.shared.best_changes.load(Ordering::Relaxed);
        if changes != self.best_seen {
            self.best_seen = changes;
            self.best = self.job.shared.board().best.clone();
        }
        let Some(best) = &self.best else {
            return false;
        };
        let cur = self.current.as_ref().expect("inside a unit");
        if cur.key >= *best {
            return true;
        }
        self.searcher.path_at(depth, &mut self.path);
        self.path >= *best
    }

    /// Whether the pending node (at `depth`) may still change the result:
    /// the deadline has not passed and it is not known to be past the run
    /// budget (that is a cut, recorded).
    fn may_run(&mut self, depth: usize) -> bool {
        if self.since_check >= CHECK_EVERY {
            self.since_check = 0;
            if self.deadline_passed() {
                return false;
            }
            self.learn_progress();
        }
        // Sharding hook: a replay is no run of this search, so no cut.
        if self.past_budget() && !self.searcher.replaying() {
            self.searcher.path_at(depth, &mut self.path);
            let key = self.path.clone();
            self.stop(key, StopKind::Cut);
            return false;
        }
        true
    }

    /// Whether the deadline has passed; tells the other workers if so.
    fn deadline_passed(&self) -> bool {
        let passed = self
            .job
            .budget
            .deadline
            .is_some_and(|d| Instant::now() >= d);
        if passed {
            let shared = self.job.shared;
            shared.out_of_time.store(true, Ordering::Relaxed);
            let _board = shared.board();
            shared.wake.notify_all();
        }
        passed
    }

    /// Reports this unit's runs and raises the lower bound of its start
    /// with the others' (only a run budget needs them).
    fn learn_progress(&mut self) {
        if self.job.budget.max_runs.is_none() {
            return;
        }
        let min_unit_runs = u64::from(!self.sharded());
        let cur = self.current.as_mut().expect("inside a unit");
        let mut board = self.job.shared.board();
        board.ledger.report(&cur.key, cur.runs);
        cur.start_at_least = cur
            .start_at_least
            .max(board.ledger.runs_before_at_least(&cur.key, min_unit_runs));
    }

    /// Whether the pending node's (or the unit's first node's, before it
    /// is entered) position in sequential order is known to be past the
    /// run budget.
    fn past_budget(&self) -> bool {
        let Some(max_runs) = self.job.budget.max_runs else {
            return false;
        };
        let cur = self.current.as_ref().expect("inside a unit");
        cur.start_at_least + cur.runs + 1 > max_runs
    }

    /// Runs the pending node (at `depth`) and counts it; a run that stops
    /// the worker is recorded and ends the unit.
    fn run_node(&mut self, depth: usize) {
        let r = (self.job.task.step)(&mut self.searcher).expect("a pending node runs");
        self.since_check += 1;
        self.effort.runs += 1;
        let cur = self.current.as_mut().expect("inside a unit");
        if self.searcher.replaying() {
            // Sharding hook: another shard's node above the cut, run only
            // to reach this shard's part.
            cur.tally.skip(&r);
            return;
        }
        cur.runs += 1;
        cur.tally.add(&r);
        if !self.job.stop_at.stops(&r) {
            return;
        }
        // The node's path, before `describe` may move the searcher.
        self.searcher.path_at(depth, &mut self.path);
        let key = self.path.clone();
        let found = (self.job.task.describe)(&mut self.searcher, r);
        self.stop(key, StopKind::Hit(found));
        self.leave_unit(false);
    }

    /// Gives the last part of what this unit has left to the idle workers,
    /// when there are more of them than units waiting.
    fn maybe_give_away(&mut self) {
        let shared = self.job.shared;
        if shared.idle.load(Ordering::Relaxed) <= shared.waiting.load(Ordering::Relaxed) {
            return;
        }
        let cur = self.current.as_ref().expect("inside a unit");
        let max_depth = match self.job.donate_after {
            Some(runs) if cur.runs >= runs => usize::MAX,
            Some(_) => return,
            // The part's taker replays its parent's depth plus one runs.
            None => match (cur.runs / super::RUNS_PER_REPLAY).checked_sub(1) {
                Some(depth) => usize::try_from(depth).unwrap_or(usize::MAX),
                None => return,
            },
        };
        let Some((parent, from, to)) = self.searcher.give_away_shallowest(max_depth) else {
            return;
        };
        self.effort.given += 1;
        let mut board = shared.board();
        board.ledger.add(Unit {
            parent: Some(parent),
            from,
            to,
        });
        shared
            .waiting
            .store(board.ledger.waiting(), Ordering::Relaxed);
        shared.wake.notify_one();
    }

    /// Ends the unit being explored, if any: explored fully (`complete`)
    /// or left unfinished.
    fn leave_unit(&mut self, complete: bool) {
        let Some(done) = self.current.take() else {
            return;
        };
        let shared = self.job.shared;
        let mut board = shared.board();
        if complete {
            self.report.unit_runs += done.runs;
            self.report.units.merge(done.tally);
            board.ledger.complete(&done.key, done.runs);
        } else {
            self.report.partial_runs += done.runs;
            board.ledger.drop_unit(&done.key, done.runs);
        }
        if board.ledger.taken() == 0 {
            shared.wake.notify_all();
        }
        if std::mem::take(&mut self.cut) {
            self.retired = board.ledger.taken() > 0;
        }
    }

    /// Records why the worker stops at the node with path `key`, and tells
    /// the others that nothing from there on is needed.
    fn stop(&mut self, key: Path, kind: StopKind<T>) {
        let cur = self.current.as_ref().expect("inside a unit");
        let shared = self.job.shared;
        {
            let mut board = shared.board();
            if board.best.as_ref().is_none_or(|b| key < *b) {
                board.best = Some(key.clone());
                shared.best_changes.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.cut |= matches!(kind, StopKind::Cut);
        // Each stop of a worker is before the ones it made earlier: it runs
        // only nodes before the earliest stop known.
        self.report.stop = Some(Stop {
            key,
            unit: cur.key.clone(),
            runs_in_part: cur.runs,
            kind,
        });
    }
}

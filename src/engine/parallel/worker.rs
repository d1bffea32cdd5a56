//! One worker of a parallel search: it walks the top of the search tree,
//! numbers the units at the cut, explores those it holds tickets for, and
//! keeps the lower bounds of positions an exact run budget needs.

use super::progress::Progress;
use super::{Hit, Report, Stop, StopKind, Task};
use crate::engine::{Budget, RunResult, Searcher, Tally};
use crate::Enumerable;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
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

/// What the workers share.
#[derive(Debug)]
pub(super) struct Shared {
    /// The next unit to hand out.
    next_ticket: AtomicU64,
    /// The key of the earliest stop (failure or cut) found (`u64::MAX`:
    /// none): no node from there on can change the result.
    best: AtomicU64,
    /// The deadline has passed: every worker stops.
    out_of_time: AtomicBool,
    /// The units completed so far.
    progress: Mutex<Progress>,
}

impl Shared {
    /// Nothing claimed, found or completed yet.
    pub(super) fn new() -> Self {
        Shared {
            next_ticket: AtomicU64::new(0),
            best: AtomicU64::new(u64::MAX),
            out_of_time: AtomicBool::new(false),
            progress: Mutex::default(),
        }
    }

    /// Claims the next unit to explore.
    fn claim_ticket(&self) -> u64 {
        self.next_ticket.fetch_add(1, Ordering::Relaxed)
    }

    /// Whether a stop at or before key `key` is known: nothing from there
    /// on can change the result.
    fn stopped_by(&self, key: u64) -> bool {
        self.best.load(Ordering::Relaxed) <= key
    }

    /// Once the workers are done: the units they completed, and whether
    /// the deadline passed.
    pub(super) fn into_outcome(self) -> (Progress, bool) {
        let progress = self.progress.into_inner().expect("no worker panics");
        (progress, self.out_of_time.into_inner())
    }

    /// The units completed so far.
    fn progress(&self) -> std::sync::MutexGuard<'_, Progress> {
        self.progress.lock().expect("no worker panics")
    }
}

/// The key of a top node met when `seen` units have been met: before unit
/// `seen`.
fn top_key(seen: u64) -> u64 {
    2 * seen
}

/// The key of a node inside unit `unit`.
fn unit_key(unit: u64) -> u64 {
    2 * unit + 1
}

/// The units wholly before the node with key `key` (a top node before
/// unit `u`, or a node inside it, has `u`).
pub(super) fn units_before(key: u64) -> u64 {
    key / 2
}

/// How many runs a worker makes between looks at the clock and at the
/// other workers' progress (both cost more than a small run).
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
    /// The depth of the units.
    pub(super) split_depth: usize,
    /// What the workers coordinate through.
    pub(super) shared: &'a Shared,
}

/// The unit a worker is exploring.
#[derive(Debug)]
struct Unit<Tl> {
    /// Its number.
    unit: u64,
    /// Runs made in it so far.
    runs: u64,
    /// Their tally.
    tally: Tl,
    /// The top runs before it.
    top_before: u64,
    /// A lower bound of the runs before it in sequential order (exact once
    /// every earlier unit is complete).
    start_at_least: u64,
}

/// One worker: its own searcher, where it is in the numbering of the units
/// and what it has done.
#[derive(Debug)]
pub(super) struct Worker<'a, T, Tl> {
    job: &'a Job<'a, T>,
    searcher: Searcher<T>,
    report: Report<T, Tl>,
    /// The unit this worker explores next (or is exploring).
    ticket: u64,
    /// Units met so far.
    seen: u64,
    /// The unit being explored.
    current: Option<Unit<Tl>>,
    /// A lower bound of the runs of units `0..seen`.
    units_at_least: u64,
    /// Runs since the last look at the clock and at the others' progress.
    since_check: u64,
}

impl<'a, T: Enumerable, Tl: Tally> Worker<'a, T, Tl> {
    /// A worker with its own searcher, holding its first ticket.
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
            ticket: job.shared.claim_ticket(),
            seen: 0,
            current: None,
            units_at_least: 0,
            since_check: 0,
        }
    }

    /// Walks the top of the tree, explores the units it holds tickets for,
    /// stops at the first failure, cut, or stop known to come before
    /// everything it could still do.
    pub(super) fn work(mut self) -> Report<T, Tl> {
        while let Some(key) = self.next_node() {
            if !self.may_run(key) || !self.run_node(key) {
                break;
            }
        }
        // A unit left unfinished does not count.
        if let Some(u) = self.current {
            self.report.partial_runs += u.runs;
        }
        self.report
    }

    /// Moves to the next node this worker runs, skipping the units of
    /// others, and returns its key (its place in sequential order); `None`
    /// at the end of the search or past the deadline.
    fn next_node(&mut self) -> Option<u64> {
        loop {
            if self.job.shared.out_of_time.load(Ordering::Relaxed) {
                return None;
            }
            if !self.searcher.advance() {
                self.report.top_whole = true;
                // The search ended after the unit being explored.
                if let Some(done) = self.current.take() {
                    self.complete(done);
                }
                return None;
            }
            let depth = self.searcher.pending_depth();
            if depth <= self.job.split_depth {
                self.leave_unit();
            }
            match depth.cmp(&self.job.split_depth) {
                std::cmp::Ordering::Less => return Some(top_key(self.seen)),
                std::cmp::Ordering::Equal => {
                    if let Some(key) = self.number_unit() {
                        return Some(key);
                    }
                }
                std::cmp::Ordering::Greater => {
                    let unit = self.current.as_ref().expect("inside a unit").unit;
                    return Some(unit_key(unit));
                }
            }
        }
    }

    /// At a node at or above the cut: the unit being explored (if any) is
    /// complete, and the worker claims its next ticket.
    fn leave_unit(&mut self) {
        if let Some(done) = self.current.take() {
            self.units_at_least += done.runs - 1;
            self.complete(done);
            self.ticket = self.job.shared.claim_ticket();
        }
    }

    /// Numbers the node at the cut the worker is on. Its own unit (the
    /// ticket's) is entered and its key returned; any other is skipped.
    fn number_unit(&mut self) -> Option<u64> {
        let unit = self.seen;
        self.seen += 1;
        let start_at_least = self.report.top_runs + self.units_at_least;
        // Every unit has a run: its root.
        self.units_at_least += 1;
        if unit != self.ticket {
            self.searcher.skip_subtree();
            return None;
        }
        self.current = Some(Unit {
            unit,
            runs: 0,
            tally: Tl::default(),
            top_before: self.report.top_runs,
            start_at_least,
        });
        // A new unit learns where the others are before it starts.
        self.since_check = CHECK_EVERY;
        Some(unit_key(unit))
    }

    /// Whether the pending node (key `key`) may still change the result:
    /// no earlier stop is known, the deadline has not passed, and it is
    /// not known to be past the run budget (that is a cut, recorded).
    fn may_run(&mut self, key: u64) -> bool {
        if self.job.shared.stopped_by(key) {
            return false;
        }
        if self.since_check >= CHECK_EVERY {
            self.since_check = 0;
            if self.deadline_passed() {
                return false;
            }
            self.learn_progress();
        }
        // Sharding hook: a replay is no run of this search, so no cut.
        if self.past_budget() && !self.searcher.replaying() {
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
            self.job.shared.out_of_time.store(true, Ordering::Relaxed);
        }
        passed
    }

    /// Raises the lower bounds of positions with the runs of the units the
    /// other workers completed (only a run budget needs them).
    fn learn_progress(&mut self) {
        if self.job.budget.max_runs.is_none() {
            return;
        }
        let progress = self.job.shared.progress();
        self.units_at_least = self
            .units_at_least
            .max(progress.runs_before_at_least(self.seen));
        if let Some(u) = &mut self.current {
            let before = u.top_before + progress.runs_before_at_least(u.unit);
            u.start_at_least = u.start_at_least.max(before);
        }
    }

    /// Whether the pending node's position in sequential order is known
    /// to be past the run budget.
    fn past_budget(&self) -> bool {
        let Some(max_runs) = self.job.budget.max_runs else {
            return false;
        };
        let at_least = match &self.current {
            Some(u) => u.start_at_least + u.runs + 1,
            None => self.report.top_runs + self.units_at_least + 1,
        };
        at_least > max_runs
    }

    /// Runs the pending node (key `key`) and counts it; false when its run
    /// stops the worker (the failure is recorded).
    fn run_node(&mut self, key: u64) -> bool {
        let r = (self.job.task.step)(&mut self.searcher).expect("a pending node runs");
        self.since_check += 1;
        if self.searcher.replaying() {
            // Sharding hook: another shard's node above the cut (a top
            // node here), run only to reach this shard's part.
            self.report.top.skip(&r);
            return true;
        }
        match &mut self.current {
            Some(u) => {
                u.runs += 1;
                u.tally.add(&r);
            }
            None => {
                self.report.top_runs += 1;
                self.report.top.add(&r);
            }
        }
        if !self.job.stop_at.stops(&r) {
            return true;
        }
        let found = (self.job.task.describe)(&mut self.searcher, r);
        self.stop(key, StopKind::Hit(found));
        false
    }

    /// Records a unit explored fully.
    fn complete(&mut self, done: Unit<Tl>) {
        self.report.unit_runs += done.runs;
        self.report.units.merge(done.tally);
        self.job.shared.progress().complete(done.unit, done.runs);
    }

    /// Records why the worker stops at the node with key `key`, and tells
    /// the others that nothing from there on is needed.
    fn stop(&mut self, key: u64, kind: StopKind<T>) {
        let (runs_in_part, top_before) = match &self.current {
            Some(u) => (u.runs, u.top_before),
            None => (self.report.top_runs, 0),
        };
        self.job.shared.best.fetch_min(key, Ordering::Relaxed);
        self.report.stop = Some(Stop {
            key,
            runs_in_part,
            top_before,
            kind,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::{top_key, unit_key, units_before};

    #[test]
    fn keys_follow_the_sequential_order_and_name_their_unit() {
        for u in 0..5 {
            // Top nodes met before unit u, then unit u, then the top after.
            assert!(top_key(u) < unit_key(u) && unit_key(u) < top_key(u + 1));
            assert_eq!(units_before(top_key(u)), u);
            assert_eq!(units_before(unit_key(u)), u);
        }
    }
}

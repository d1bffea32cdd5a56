//! Parallel search: one search spread over several threads, with the same
//! runs, the same counts and the same first counterexample as the
//! sequential search.
//!
//! The search tree is cut at a fixed depth (`split_depth`). Every worker
//! walks the top of the tree (the nodes above the cut) in the same
//! deterministic order, running those nodes itself (they are few), and
//! numbers the nodes at the cut `0, 1, 2, ...` as it meets them. Those
//! nodes are the units of work: a worker takes a ticket from a shared
//! counter, explores the subtree of the unit with that number, skips every
//! other unit, and takes a new ticket when it is done. Tickets are handed
//! out in increasing order, so a worker never needs a unit it has already
//! passed, and each unit is explored by exactly one worker. No values or
//! paths move between threads: each worker has its own engine; they share
//! the ticket counter, the key of the earliest failure, a budget flag and
//! (in counterexample searches) the runs of the completed units.
//!
//! Determinism: a failure is keyed by its place in the sequential order
//! (top nodes before the unit they precede, units by number). Workers stop
//! when a failure earlier than anything they could still find is known, and
//! the earliest failure wins, so the counterexample and the reported run
//! count are those of the sequential search.

use super::{
    counterexample_here, BoundResult, Budget, Classes, Counterexample, Outcome, RunResult, Searcher,
};
use crate::cool::{Cool, Strategy};
use crate::lazy::Lazy;
use crate::Enumerable;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// How to spread a search over threads.
///
/// ```
/// use neatcheck::search::Parallel;
/// use neatcheck::Lazy;
///
/// // Sorted lists of naturals up to size 12, on two threads.
/// let sorted = |xs: Lazy<Vec<u8>>| {
///     let v: Vec<u8> = xs.iter().map(|x| x.get()).collect();
///     v.windows(2).all(|w| w[0] <= w[1])
/// };
/// let par = Parallel::new(2).classes(sorted, 12);
/// let seq = neatcheck::search::classes(sorted, 12);
/// assert_eq!(par, seq);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parallel {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Depth of the search-tree nodes that are the units of work. Nodes
    /// above it are run by every worker (counted once); deeper cuts balance
    /// better and repeat more.
    pub split_depth: usize,
}

impl Default for Parallel {
    /// As many threads as the machine offers.
    fn default() -> Self {
        Parallel::new(std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
}

/// The depth at which the benchmarks balance best on two threads (measured
/// on Lambda, RedBlack and RegExp at depths 2 to 16: 113, 7347 and 1075
/// units at bounds 23, 41 and 17; the top every worker runs is 115, 2843
/// and 1014 runs, well under 0.1% of the search). Shallower cuts leave a
/// worker alone with the last big unit; deeper ones repeat more of the top.
const DEFAULT_SPLIT_DEPTH: usize = 8;

/// What makes a worker stop at a run.
#[derive(Clone, Copy, PartialEq, Eq)]
enum StopAt {
    /// Panics only (a whole search).
    Panic,
    /// Any failing run (a counterexample search).
    Failure,
}

/// What the workers share.
struct Shared {
    next_ticket: AtomicU64,
    /// The key of the earliest failure found (`u64::MAX`: none).
    best: AtomicU64,
    out_of_budget: AtomicBool,
    /// Runs made by all workers, added in batches (for `Budget::max_runs`).
    runs: AtomicU64,
    progress: Mutex<Progress>,
}

/// A failure found by a worker.
struct Found<T> {
    key: u64,
    /// Runs before it in sequential order that its worker knows of: the
    /// top runs up to it (a top failure) or inside its unit up to it.
    runs_in_part: u64,
    /// For a failure inside a unit: the top runs before that unit.
    top_before: u64,
    found: FoundKind<T>,
}

enum FoundKind<T> {
    Counterexample(Counterexample<T>),
    /// A panic in a whole search: the message to re-raise.
    Panic(String),
}

/// What one worker did.
struct Report<T> {
    /// Runs of the top of the tree (the same in every worker that walked
    /// all of it).
    top_runs: u64,
    top_satisfied: u64,
    /// Runs and satisfied runs of the units this worker explored fully.
    unit_runs: u64,
    unit_satisfied: u64,
    found: Option<Found<T>>,
}

/// Which units are complete, and their runs (counterexample searches
/// only: the run count of the first counterexample needs the runs of every
/// unit before it). Units complete roughly in order, so everything below the
/// first incomplete unit is one sum, and only the few completed above it
/// are kept one by one: memory does not grow with the number of units.
#[derive(Default)]
struct Progress {
    /// Units `0..complete_below` are complete ...
    complete_below: u64,
    /// ... with this many runs.
    runs_below: u64,
    /// Complete units above the first incomplete one: unit -> runs.
    above: BTreeMap<u64, u64>,
}

impl Progress {
    fn complete(&mut self, unit: u64, runs: u64) {
        if unit != self.complete_below {
            self.above.insert(unit, runs);
            return;
        }
        self.complete_below += 1;
        self.runs_below += runs;
        while let Some(r) = self.above.remove(&self.complete_below) {
            self.complete_below += 1;
            self.runs_below += r;
        }
    }

    /// The runs of units `0..unit`, if they are all complete.
    fn runs_before(&self, unit: u64) -> Option<u64> {
        if unit <= self.complete_below {
            // Only reached for the unit of the earliest failure, which is
            // never complete, or a top node before it: `unit` is at most
            // the first incomplete unit.
            return (unit == self.complete_below).then_some(self.runs_below);
        }
        let mut runs = self.runs_below;
        for u in self.complete_below..unit {
            runs += self.above.get(&u)?;
        }
        Some(runs)
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

impl Parallel {
    /// `threads` workers (at least one), units at the default depth.
    pub fn new(threads: usize) -> Self {
        Parallel {
            threads: threads.max(1),
            split_depth: DEFAULT_SPLIT_DEPTH,
        }
    }

    /// The same with units at another depth (at least 1).
    pub fn with_split_depth(self, split_depth: usize) -> Self {
        Parallel {
            split_depth: split_depth.max(1),
            ..self
        }
    }

    /// [`super::classes`] on `threads` threads: the same runs and classes.
    ///
    /// # Panics
    /// If the predicate panics: the message names the input (the first
    /// panicking input in sequential order).
    pub fn classes<T, O, P>(&self, pred: P, bound: usize) -> Classes
    where
        T: Enumerable + Send,
        O: Outcome,
        P: Fn(Lazy<'_, T>) -> O + Sync,
    {
        self.classes_within(pred, bound, Budget::unlimited())
            .expect("an unlimited budget")
    }

    /// [`Parallel::classes`] within a budget: `None` if it ran out first.
    ///
    /// # Panics
    /// As [`Parallel::classes`].
    pub fn classes_within<T, O, P>(&self, pred: P, bound: usize, budget: Budget) -> Option<Classes>
    where
        T: Enumerable + Send,
        O: Outcome,
        P: Fn(Lazy<'_, T>) -> O + Sync,
    {
        let step = |s: &mut Searcher<T>| s.step(&pred);
        self.whole(&step, bound, budget)
    }

    /// [`super::classes_cool`] on `threads` threads.
    ///
    /// # Panics
    /// As [`Parallel::classes`].
    pub fn classes_cool<T, F>(&self, pred: F, bound: usize, strategy: Strategy) -> Classes
    where
        T: Enumerable + Send,
        F: for<'a> Fn(Lazy<'a, T>) -> Cool<'a> + Sync,
    {
        self.classes_cool_within(pred, bound, strategy, Budget::unlimited())
            .expect("an unlimited budget")
    }

    /// [`Parallel::classes_cool`] within a budget: `None` if it ran out
    /// first.
    ///
    /// # Panics
    /// As [`Parallel::classes`].
    pub fn classes_cool_within<T, F>(
        &self,
        pred: F,
        bound: usize,
        strategy: Strategy,
        budget: Budget,
    ) -> Option<Classes>
    where
        T: Enumerable + Send,
        F: for<'a> Fn(Lazy<'a, T>) -> Cool<'a> + Sync,
    {
        let step = |s: &mut Searcher<T>| s.step_cool(strategy, &pred);
        self.whole(&step, bound, budget)
    }

    /// [`super::ctrex_within`] on `threads` threads: the same counterexample
    /// and run count as the sequential search when one is found within the
    /// budget. `Budget::max_runs` is approximate here (workers add their
    /// runs in batches of 64). When the budget runs out after a
    /// counterexample was found but before every earlier part of the search
    /// was, that counterexample is returned (still of size `<= bound`, but
    /// perhaps not the first in sequential order), with the runs made.
    pub fn ctrex_within<T, O, P>(&self, prop: &P, bound: usize, budget: Budget) -> BoundResult<T>
    where
        T: Enumerable + Send,
        O: Outcome,
        P: Fn(Lazy<'_, T>) -> O + Sync,
    {
        let step = |s: &mut Searcher<T>| s.step(prop);
        let describe = |s: &mut Searcher<T>, r: RunResult| counterexample_here(s, prop, r);
        let (reports, shared) = self.drive(&step, &describe, StopAt::Failure, bound, budget);
        let total: u64 = reports.first().map_or(0, |r| r.top_runs)
            + reports.iter().map(|r| r.unit_runs).sum::<u64>();
        let complete = !shared.out_of_budget.load(Ordering::Relaxed);
        let first = earliest(reports, &shared.progress.lock().expect("no worker panics"));
        match first {
            Some((found, runs_before)) => match found.found {
                FoundKind::Counterexample(mut c) => {
                    c.runs = match runs_before {
                        Some(before) => before + found.runs_in_part,
                        None => shared.runs.load(Ordering::Relaxed),
                    };
                    BoundResult::Failed(c)
                }
                FoundKind::Panic(m) => panic!("{m}"),
            },
            None if complete => BoundResult::Passed(total),
            None => BoundResult::OutOfBudget(shared.runs.load(Ordering::Relaxed)),
        }
    }

    /// [`super::ctrex`] on `threads` threads: the first counterexample of
    /// size `<= bound` in sequential order, or the number of runs.
    pub fn ctrex<T, O, P>(&self, prop: P, bound: usize) -> Result<u64, Counterexample<T>>
    where
        T: Enumerable + Send,
        O: Outcome,
        P: Fn(Lazy<'_, T>) -> O + Sync,
    {
        match self.ctrex_within(&prop, bound, Budget::unlimited()) {
            BoundResult::Passed(runs) | BoundResult::OutOfBudget(runs) => Ok(runs),
            BoundResult::Failed(c) => Err(c),
        }
    }

    /// [`super::test_for`] on `threads` threads: iterative deepening within a
    /// time budget, printing one line per bound; the counterexample is the
    /// one the sequential search finds.
    ///
    /// ```
    /// use neatcheck::search::Parallel;
    /// use neatcheck::Lazy;
    /// use std::time::Duration;
    ///
    /// // "Every list of naturals sums to less than 5" is false.
    /// let prop = |xs: Lazy<Vec<u8>>| xs.iter().map(|x| x.get() as u32).sum::<u32>() < 5;
    /// let c = Parallel::new(2).test_for(prop, Duration::from_secs(10)).unwrap();
    /// assert_eq!(c.value, vec![5]);
    /// ```
    pub fn test_for<T, O, P>(
        &self,
        prop: P,
        budget: std::time::Duration,
    ) -> Option<Counterexample<T>>
    where
        T: Enumerable + Send + std::fmt::Debug,
        O: Outcome,
        P: Fn(Lazy<'_, T>) -> O + Sync,
    {
        super::deepen_on(&prop, self.threads, budget)
    }

    /// A whole search: counts, or re-raises the first panic.
    fn whole<T: Enumerable + Send>(
        &self,
        step: &(dyn Fn(&mut Searcher<T>) -> Option<RunResult> + Sync),
        bound: usize,
        budget: Budget,
    ) -> Option<Classes> {
        let describe = |s: &mut Searcher<T>, r: RunResult| -> FoundKind<T> {
            let RunResult::Panicked(m) = r else {
                unreachable!("whole searches stop at panics only")
            };
            let tree = s.engine.current_tree();
            let shown = crate::report::show_tree(&s.engine.grammar, &tree);
            FoundKind::Panic(format!(
                "neatcheck: the predicate panicked on input {shown}: {m}"
            ))
        };
        let (reports, shared) = self.drive_kind(step, &describe, StopAt::Panic, bound, budget);
        let mut classes = Classes {
            runs: reports.first().map_or(0, |r| r.top_runs),
            satisfying: reports.first().map_or(0, |r| r.top_satisfied),
        };
        for r in &reports {
            classes.runs += r.unit_runs;
            classes.satisfying += r.unit_satisfied;
        }
        if let Some((found, _)) = earliest(reports, &Progress::default()) {
            if let FoundKind::Panic(m) = found.found {
                panic!("{m}");
            }
        }
        (!shared.out_of_budget.load(Ordering::Relaxed)).then_some(classes)
    }

    /// Runs the workers for a counterexample search.
    #[allow(clippy::type_complexity)]
    fn drive<T: Enumerable + Send>(
        &self,
        step: &(dyn Fn(&mut Searcher<T>) -> Option<RunResult> + Sync),
        describe: &(dyn Fn(&mut Searcher<T>, RunResult) -> Counterexample<T> + Sync),
        stop_at: StopAt,
        bound: usize,
        budget: Budget,
    ) -> (Vec<Report<T>>, Shared) {
        // A panic is a counterexample in a counterexample search.
        let describe =
            |s: &mut Searcher<T>, r: RunResult| FoundKind::Counterexample(describe(s, r));
        self.drive_kind(step, &describe, stop_at, bound, budget)
    }

    /// Runs `threads` workers to the end and collects their reports.
    #[allow(clippy::type_complexity)]
    fn drive_kind<T: Enumerable + Send>(
        &self,
        step: &(dyn Fn(&mut Searcher<T>) -> Option<RunResult> + Sync),
        describe: &(dyn Fn(&mut Searcher<T>, RunResult) -> FoundKind<T> + Sync),
        stop_at: StopAt,
        bound: usize,
        budget: Budget,
    ) -> (Vec<Report<T>>, Shared) {
        let shared = Shared {
            next_ticket: AtomicU64::new(0),
            best: AtomicU64::new(u64::MAX),
            out_of_budget: AtomicBool::new(false),
            runs: AtomicU64::new(0),
            progress: Mutex::default(),
        };
        let reports = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..self.threads)
                .map(|_| {
                    let shared = &shared;
                    scope.spawn(move || {
                        worker(
                            step,
                            describe,
                            stop_at,
                            bound,
                            budget,
                            self.split_depth,
                            shared,
                        )
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| match w.join() {
                    Ok(r) => r,
                    Err(p) => std::panic::resume_unwind(p),
                })
                .collect::<Vec<_>>()
        });
        (reports, shared)
    }
}

/// The earliest failure of all workers, with the runs made before it in
/// sequential order (`None` when some earlier unit was not finished).
fn earliest<T>(reports: Vec<Report<T>>, progress: &Progress) -> Option<(Found<T>, Option<u64>)> {
    let found = reports
        .into_iter()
        .filter_map(|r| r.found)
        .min_by_key(|f| f.key)?;
    // Inside unit `key / 2`, or a top node before unit `key / 2`.
    let before = progress
        .runs_before(found.key / 2)
        .map(|units| units + found.top_before);
    Some((found, before))
}

/// One worker: walks the top of the tree, explores the units it holds
/// tickets for.
#[allow(clippy::too_many_arguments)]
fn worker<T: Enumerable>(
    step: &(dyn Fn(&mut Searcher<T>) -> Option<RunResult> + Sync),
    describe: &(dyn Fn(&mut Searcher<T>, RunResult) -> FoundKind<T> + Sync),
    stop_at: StopAt,
    bound: usize,
    budget: Budget,
    split_depth: usize,
    shared: &Shared,
) -> Report<T> {
    let mut s = Searcher::<T>::new(bound);
    let mut report = Report {
        top_runs: 0,
        top_satisfied: 0,
        unit_runs: 0,
        unit_satisfied: 0,
        found: None,
    };
    let take_ticket = || shared.next_ticket.fetch_add(1, Ordering::Relaxed);
    let mut ticket = take_ticket();
    // Units met so far; the unit being explored.
    let mut seen: u64 = 0;
    let mut current: Option<Unit> = None;
    let complete = |report: &mut Report<T>, done: Unit| {
        report.unit_runs += done.runs;
        report.unit_satisfied += done.satisfied;
        if stop_at == StopAt::Failure {
            let mut progress = shared.progress.lock().expect("no worker panics");
            progress.complete(done.unit, done.runs);
        }
    };
    let mut unbatched_runs: u64 = 0;
    let mut exhausted = false;
    loop {
        if !s.engine.advance() {
            exhausted = true;
            break;
        }
        let depth = s.engine.depth();
        if depth <= split_depth {
            // Leaving the unit being explored (if any): it is complete.
            if let Some(done) = current.take() {
                complete(&mut report, done);
                ticket = take_ticket();
            }
        }
        let key = if depth == split_depth {
            let unit = seen;
            seen += 1;
            if unit != ticket {
                s.engine.skip();
                continue;
            }
            current = Some(Unit {
                unit,
                runs: 0,
                satisfied: 0,
                top_before: report.top_runs,
            });
            unit_key(unit)
        } else if depth < split_depth {
            top_key(seen)
        } else {
            unit_key(current.as_ref().expect("inside a unit").unit)
        };
        // An earlier failure is known: nothing here can come first.
        if shared.best.load(Ordering::Relaxed) <= key {
            break;
        }
        unbatched_runs += 1;
        if unbatched_runs == 64 {
            let runs = shared.runs.fetch_add(64, Ordering::Relaxed) + 64;
            unbatched_runs = 0;
            let over_runs = budget.max_runs.is_some_and(|m| runs >= m);
            let over_time = budget.deadline.is_some_and(|d| Instant::now() >= d);
            if over_runs || over_time {
                shared.out_of_budget.store(true, Ordering::Relaxed);
            }
        }
        if shared.out_of_budget.load(Ordering::Relaxed) {
            break;
        }
        let r = step(&mut s).expect("a pending node runs");
        let satisfied = u64::from(r.is_true());
        match &mut current {
            Some(u) if depth >= split_depth => {
                u.runs += 1;
                u.satisfied += satisfied;
            }
            _ => {
                report.top_runs += 1;
                report.top_satisfied += satisfied;
            }
        }
        let stops = matches!(
            (&r, stop_at),
            (RunResult::Panicked(_), _) | (RunResult::False(_), StopAt::Failure)
        );
        if stops {
            let (runs_in_part, top_before) = match &current {
                Some(u) if depth >= split_depth => (u.runs, u.top_before),
                _ => (report.top_runs, 0),
            };
            shared.best.fetch_min(key, Ordering::Relaxed);
            report.found = Some(Found {
                key,
                runs_in_part,
                top_before,
                found: describe(&mut s, r),
            });
            current = None;
            break;
        }
    }
    shared.runs.fetch_add(unbatched_runs, Ordering::Relaxed);
    // A unit is complete only when the search ended after it (not when the
    // worker stopped inside it).
    if let (true, Some(done)) = (exhausted, current) {
        complete(&mut report, done);
    }
    report
}

/// The unit a worker is exploring.
struct Unit {
    unit: u64,
    runs: u64,
    satisfied: u64,
    /// The top runs before it.
    top_before: u64,
}

#[cfg(test)]
mod tests {
    use super::Progress;

    #[test]
    fn progress_sums_the_units_before_one_whatever_the_order_they_end_in() {
        let mut p = Progress::default();
        // Units 1, 3 and 4 end before 0 and 2.
        p.complete(1, 10);
        p.complete(3, 1000);
        p.complete(4, 10000);
        assert_eq!(p.runs_before(0), Some(0));
        assert_eq!(p.runs_before(2), None, "unit 0 is not complete");
        p.complete(0, 1);
        assert_eq!((p.complete_below, p.runs_below), (2, 11));
        assert_eq!(p.runs_before(2), Some(11));
        assert_eq!(p.runs_before(3), None, "unit 2 is not complete");
        assert_eq!(p.above.len(), 2);
        p.complete(2, 100);
        assert_eq!((p.complete_below, p.runs_below), (5, 11111));
        assert!(p.above.is_empty(), "everything merged into the sum");
        assert_eq!(p.runs_before(5), Some(11111));
        p.complete(7, 7);
        assert_eq!(p.runs_before(7), None);
        p.complete(5, 5);
        p.complete(6, 6);
        assert_eq!(p.runs_before(8), Some(11111 + 5 + 6 + 7));
    }

    #[test]
    fn progress_counts_units_above_the_first_incomplete_one() {
        let mut p = Progress::default();
        p.complete(0, 1);
        p.complete(2, 100);
        p.complete(3, 1000);
        // Unit 1 in progress: nothing from 4 on is known yet.
        assert_eq!(p.runs_before(1), Some(1));
        assert_eq!(p.runs_before(4), None);
        p.complete(1, 10);
        assert_eq!(p.runs_before(4), Some(1111));
    }
}

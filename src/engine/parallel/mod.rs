//! Parallel search: one search spread over several threads, with the same
//! runs, the same counts and the same first counterexample as the
//! sequential search.
//!
//! Work is split where and when a worker runs out of it. A *unit* is an
//! interval of the sequential (DFS pre-)order: at first the whole tree,
//! held by one worker. A worker that finds more workers idle than units
//! waiting gives away the children not yet produced of the shallowest
//! frame of its DFS stack that has any: the last part of what it has left,
//! and the largest subtrees it holds. The new unit is named by its *path*
//! (which child, in search order, at each depth); an idle worker takes the
//! first waiting unit in sequential order and restarts its own engine there
//! by replaying the path: it runs the unit's ancestors again, uncounted, so
//! the arena, the locks and the schedules of the conjunction strategies are
//! exactly those of the sequential search at that node. No values move
//! between threads; the workers share the ledger of units
//! (`progress::Ledger`), the path of the earliest stop, a deadline flag
//! and two counters (idle workers, waiting units) read on every run.
//!
//! Determinism: a node's place in sequential order is the lexicographic
//! order of its path, and units partition that order. Workers run only
//! nodes before the earliest stop (failure or cut) known, and the earliest
//! one wins, so the counterexample is the sequential one; its run count is
//! the runs of the units before its unit (all complete by then) plus its
//! index in its unit.
//!
//! Run budgets are exact the same way. A worker knows a lower bound of its
//! unit's start (the runs of complete units before it, the runs the others
//! report of units in flight before it, at least one per unit not yet
//! explored) and never runs a node whose position is known to be past the
//! budget `R`; reaching such a node that exists is a *cut*, keyed like a
//! failure there, and proves that the bound has more than `R` runs. The
//! earliest failure or cut decides: a failure at position `<= R` is the
//! sequential counterexample, anything else is out of budget after `R`
//! runs; with neither, every unit completed and the bound passed if its
//! runs are `<= R`.
//!
//! The same workers can be stepped round-robin on one thread
//! ([`Parallel::simulate`]): a deterministic schedule of `n` virtual
//! workers, one run per time step, which measures the load balance `n`
//! cores would have and exercises splitting in tests.

mod progress;
mod simulate;
#[cfg(test)]
mod split_tests;
mod worker;

use super::{
    BoundResult, Budget, Classes, Counterexample, GrammarSource, Outcome, RunResult, Searcher,
    Tally,
};
#[cfg(test)]
use crate::cool::{Cool, Strategy};
use crate::handle::Lazy;
use crate::run_slot::RunSlot;
use crate::Enumerable;
use progress::{Ledger, Path};
#[cfg(test)]
pub(crate) use simulate::with_simulation;
pub use simulate::{Balance, WorkerBalance};
use std::cell::Cell;
use worker::{Job, Shared, StopAt, Worker};

/// How to spread a search over threads: what `Config::threads` runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Parallel {
    /// Worker threads (at least 1).
    pub(crate) threads: usize,
    /// No longer used: work is split where and when a worker runs out of
    /// it, at any depth. Kept so that code setting it still compiles.
    pub(crate) split_depth: usize,
}

impl Default for Parallel {
    /// As many threads as the machine offers.
    fn default() -> Self {
        Parallel::new(std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
}

/// The former default of [`Parallel::split_depth`] (unused).
const DEFAULT_SPLIT_DEPTH: usize = 8;

/// A worker gives part of its unit away only after making this many runs
/// in the unit per run its taker will replay (the depth of the part's
/// parent, plus one): a unit that has shown itself large enough to pay for
/// the replay. Small units are not split, so replays stay a small share of
/// the work.
const RUNS_PER_REPLAY: u64 = 2;

thread_local! {
    /// A fixed donation threshold for the searches this thread starts,
    /// instead of [`RUNS_PER_REPLAY`] (tests force tiny ones to exercise
    /// splitting).
    static DONATE_AFTER: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Runs `f` with parallel searches started on this thread giving work away
/// after `runs` runs in a unit, at any depth (0: whenever a worker is
/// idle).
#[cfg(test)]
pub(crate) fn with_donations_after<R>(runs: u64, f: impl FnOnce() -> R) -> R {
    let old = DONATE_AFTER.with(|d| d.replace(Some(runs)));
    let r = f();
    DONATE_AFTER.with(|d| d.set(old));
    r
}

/// The runs that returned true (for [`Classes::satisfying`]).
#[derive(Default, Debug)]
struct Satisfied(u64);

impl Tally for Satisfied {
    fn add(&mut self, r: &RunResult) {
        self.0 += u64::from(r.is_true());
    }
    fn merge(&mut self, other: Self) {
        self.0 += other.0;
    }
}

/// Why a worker stopped at a node, other than the end of the search or
/// the deadline.
#[derive(Debug)]
struct Stop<T> {
    /// The node's path (its place in sequential order).
    key: Path,
    /// The key of the node's unit.
    unit: Path,
    /// Runs of the node's unit before it (and including it, for a failure).
    runs_in_part: u64,
    /// What stopped it.
    kind: StopKind<T>,
}

/// What stopped a worker.
#[derive(Debug)]
enum StopKind<T> {
    /// A failing run (included in `runs_in_part`).
    Hit(Hit<T>),
    /// The budget: the node (not run, not in `runs_in_part`) exists and its
    /// position is past `max_runs`.
    Cut,
}

/// A failing run, described.
#[derive(Debug)]
enum Hit<T> {
    /// A failure in a counterexample search (a panic included).
    Counterexample(Counterexample<T>),
    /// A panic in a whole search: the message to re-raise.
    Panic(String),
}

/// What one worker did.
#[derive(Debug)]
struct Report<T, Tl> {
    /// Runs of the units this worker explored fully.
    unit_runs: u64,
    /// Their tally.
    units: Tl,
    /// Runs in units it left unfinished.
    partial_runs: u64,
    /// The earliest stop it found, if any.
    stop: Option<Stop<T>>,
}

impl<T, Tl: Tally> Report<T, Tl> {
    /// Nothing done yet.
    fn new() -> Self {
        Report {
            unit_runs: 0,
            units: Tl::default(),
            partial_runs: 0,
            stop: None,
        }
    }
}

/// The result of a bound, before it is dressed as a counterexample search
/// or a whole search.
#[derive(Debug)]
enum Ending<T> {
    /// Every run made, none failed; the runs.
    Passed(u64),
    /// The first failure in sequential order and its position (only the
    /// runs made, when a deadline cut the search before it was known).
    Hit(Hit<T>, u64),
    /// The budget ran out after this many runs.
    OutOfBudget(u64),
}

impl Parallel {
    /// `threads` workers (at least one).
    pub(crate) fn new(threads: usize) -> Self {
        Parallel {
            threads: threads.max(1),
            split_depth: DEFAULT_SPLIT_DEPTH,
        }
    }

    /// The same with another (unused) [`Parallel::split_depth`].
    #[cfg(test)]
    pub(crate) fn with_split_depth(self, split_depth: usize) -> Self {
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
    pub(crate) fn classes<T, O, P>(&self, pred: P, bound: usize) -> Classes
    where
        T: Enumerable + Send,
        O: Outcome,
        P: Fn(Lazy<'_, T>) -> O + Sync,
    {
        self.classes_within(pred, bound, Budget::unlimited())
            .expect("an unlimited budget")
    }

    /// [`Parallel::classes`] within a budget: `None` if it ran out first.
    /// With `max_runs` only, `Some` exactly when the bound has at most
    /// `max_runs` runs.
    ///
    /// # Panics
    /// As [`Parallel::classes`] (with `max_runs`, for a panic among the
    /// first `max_runs` runs only).
    pub(crate) fn classes_within<T, O, P>(
        &self,
        pred: P,
        bound: usize,
        budget: Budget,
    ) -> Option<Classes>
    where
        T: Enumerable + Send,
        O: Outcome,
        P: Fn(Lazy<'_, T>) -> O + Sync,
    {
        let step = |s: &mut Searcher<T>| s.step(&pred);
        let c = self.whole(&step, bound, budget, &GrammarSource::Canonical, None);
        c.complete.then_some(c)
    }

    /// [`super::classes_cool`] on `threads` threads.
    ///
    /// # Panics
    /// As [`Parallel::classes`].
    #[cfg(test)]
    pub(crate) fn classes_cool<T, F>(&self, pred: F, bound: usize, strategy: Strategy) -> Classes
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
    /// As [`Parallel::classes_within`].
    #[cfg(test)]
    pub(crate) fn classes_cool_within<T, F>(
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
        let c = self.whole(&step, bound, budget, &GrammarSource::Canonical, None);
        c.complete.then_some(c)
    }

    /// [`super::ctrex_within`] on `threads` threads. Without a deadline the
    /// result is exactly the sequential one (variant, counterexample, run
    /// counts), `Budget::max_runs` included, whatever the threads and their
    /// timing. A deadline cuts wherever the workers are: a counterexample
    /// found before it is returned even when an earlier part of the search
    /// was not finished (it is still of size `<= bound`, but perhaps not the
    /// first in sequential order, and its run count is the runs made).
    #[cfg(test)]
    pub(crate) fn ctrex_within<T, O, P>(
        &self,
        prop: &P,
        bound: usize,
        budget: Budget,
    ) -> BoundResult<T>
    where
        T: Enumerable + Send,
        O: Outcome,
        P: Fn(Lazy<'_, T>) -> O + Sync,
    {
        self.ctrex_within_tally::<T, (), O, P>(prop, bound, budget)
            .0
    }

    /// [`Parallel::ctrex_within`] with a tally of the runs. When the bound
    /// passes, the tally counts each of its runs once. Otherwise it counts
    /// what happened to complete: the units explored fully, which may
    /// include runs after the counterexample or past the budget and miss
    /// some before.
    #[cfg(test)]
    pub(crate) fn ctrex_within_tally<T, Tl, O, P>(
        &self,
        prop: &P,
        bound: usize,
        budget: Budget,
    ) -> (BoundResult<T>, Tl)
    where
        T: Enumerable + Send,
        Tl: Tally,
        O: Outcome,
        P: Fn(Lazy<'_, T>) -> O + Sync,
    {
        let step = |s: &mut Searcher<T>| s.step(prop);
        // A panic is a counterexample in a counterexample search.
        let describe = |s: &mut Searcher<T>, r: RunResult| {
            let pattern = s.pattern(|x| {
                let _ = prop(x);
            });
            s.counterexample(&pattern, r)
        };
        let task = Task {
            step: &step,
            describe: &describe,
            watchdog: None,
            source: &GrammarSource::Canonical,
            shard: None,
        };
        self.bound_for_check(&task, bound, budget)
    }

    /// One bound of a check's exhaustive phase: [`Parallel::ctrex_within`]
    /// over the check's own steps, failure records, grammar and watchdog.
    pub(crate) fn bound_for_check<T: Enumerable + Send, Tl: Tally>(
        &self,
        task: &Task<'_, T, Counterexample<T>>,
        bound: usize,
        budget: Budget,
    ) -> (BoundResult<T>, Tl) {
        let describe =
            |s: &mut Searcher<T>, r: RunResult| Hit::Counterexample((task.describe)(s, r));
        let task = Task {
            step: task.step,
            describe: &describe,
            watchdog: task.watchdog,
            source: task.source,
            shard: task.shard,
        };
        let (verdict, tally) = self.drive(&task, StopAt::Failure, bound, budget);
        let result = match verdict {
            Ending::Passed(runs) => BoundResult::Passed(runs),
            Ending::Hit(Hit::Counterexample(mut c), runs) => {
                c.runs = runs;
                BoundResult::Failed(c)
            }
            Ending::Hit(Hit::Panic(m), _) => panic!("{m}"),
            Ending::OutOfBudget(runs) => BoundResult::OutOfBudget(runs),
        };
        (result, tally)
    }

    /// A whole search of `source` (or of one shard of it): counts, or
    /// re-raises the first panic; `complete` is false if the budget ran
    /// out first.
    pub(crate) fn whole<T: Enumerable + Send>(
        &self,
        step: &(dyn Fn(&mut Searcher<T>) -> Option<RunResult> + Sync),
        bound: usize,
        budget: Budget,
        source: &GrammarSource<T>,
        shard: Option<crate::record::Shard>,
    ) -> Classes {
        let describe = |s: &mut Searcher<T>, r: RunResult| -> Hit<T> {
            let RunResult::Panicked(m) = r else {
                unreachable!("whole searches stop at panics only")
            };
            Hit::Panic(s.panic_on_input(&m))
        };
        let task = Task {
            step,
            describe: &describe,
            watchdog: None,
            source,
            shard,
        };
        let (verdict, satisfied): (_, Satisfied) = self.drive(&task, StopAt::Panic, bound, budget);
        match verdict {
            Ending::Passed(runs) => Classes::new(runs, satisfied.0, true),
            Ending::Hit(Hit::Panic(m), _) => panic!("{m}"),
            Ending::Hit(Hit::Counterexample(_), _) => {
                unreachable!("whole searches describe panics only")
            }
            Ending::OutOfBudget(runs) => Classes::new(runs, satisfied.0, false),
        }
    }

    /// Runs `threads` workers to the end and decides the bound from their
    /// reports.
    fn drive<T: Enumerable + Send, Tl: Tally>(
        &self,
        task: &Task<'_, T, Hit<T>>,
        stop_at: StopAt,
        bound: usize,
        budget: Budget,
    ) -> (Ending<T>, Tl) {
        let shared = Shared::new();
        let job = Job {
            task,
            stop_at,
            bound,
            budget,
            donate_after: DONATE_AFTER.with(Cell::get),
            shared: &shared,
        };
        let reports = if simulate::simulated() {
            simulate::run_simulated(&job, self.threads)
        } else {
            self.run_workers(&job)
        };
        let (ledger, out_of_time) = shared.into_outcome();
        decide(reports, &ledger, out_of_time, budget.max_runs)
    }

    /// Runs `threads` workers on `job` and collects their reports (a
    /// worker's panic stops the others and goes on in the caller).
    fn run_workers<T: Enumerable + Send, Tl: Tally>(&self, job: &Job<'_, T>) -> Vec<Report<T, Tl>> {
        // Workers compile their own grammars: under the caller's sizes.
        let integers = crate::describe::integer_sizes();
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..self.threads)
                .map(|_| {
                    scope.spawn(move || {
                        let work = || {
                            crate::describe::with_integer_sizes(integers, || {
                                Worker::new(job).work()
                            })
                        };
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
                            .inspect_err(|_| job.shared.abort())
                    })
                })
                .collect();
            let results: Vec<_> = workers
                .into_iter()
                .map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect();
            results
                .into_iter()
                .map(|r| r.unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        })
    }
}

/// The verdict of a bound from the workers' reports, and the tally of the
/// runs counted.
fn decide<T, Tl: Tally>(
    mut reports: Vec<Report<T, Tl>>,
    ledger: &Ledger,
    out_of_time: bool,
    max_runs: Option<u64>,
) -> (Ending<T>, Tl) {
    // Runs made (for verdicts cut by the deadline).
    let made: u64 = reports.iter().map(|r| r.unit_runs + r.partial_runs).sum();
    let made = max_runs.map_or(made, |m| made.min(m));
    // A failure comes before a cut at the same node: a cut is never before
    // a failure its worker ran, and a failure after the cut is past the
    // budget, which its position shows.
    let earliest = reports
        .iter_mut()
        .filter_map(|r| r.stop.take())
        .min_by(|a, b| {
            (&a.key, matches!(a.kind, StopKind::Cut))
                .cmp(&(&b.key, matches!(b.kind, StopKind::Cut)))
        });
    let mut tally = Tl::default();
    let mut total = 0;
    for r in reports {
        total += r.unit_runs;
        tally.merge(r.units);
    }
    let within = |runs: u64| max_runs.is_none_or(|m| runs <= m);
    let verdict = match earliest {
        Some(stop) => verdict_at_stop(stop, ledger, made, max_runs),
        None if out_of_time => Ending::OutOfBudget(made),
        None if within(total) => Ending::Passed(total),
        None => Ending::OutOfBudget(max_runs.expect("only a budget is exceeded")),
    };
    (verdict, tally)
}

/// The verdict when the earliest stop is `stop`; `made` is the runs made
/// (within the budget).
fn verdict_at_stop<T>(
    stop: Stop<T>,
    ledger: &Ledger,
    made: u64,
    max_runs: Option<u64>,
) -> Ending<T> {
    let within = |runs: u64| max_runs.is_none_or(|m| runs <= m);
    match (ledger.runs_before(&stop.unit), stop.kind) {
        // Everything before the stop was run: exact.
        (Some(before), StopKind::Hit(f)) => {
            let at = before + stop.runs_in_part;
            if within(at) {
                Ending::Hit(f, at)
            } else {
                Ending::OutOfBudget(max_runs.expect("only a budget is exceeded"))
            }
        }
        (Some(_), StopKind::Cut) => Ending::OutOfBudget(max_runs.expect("only a run budget cuts")),
        // Some earlier unit was not finished: only the deadline stops
        // workers before that.
        (None, StopKind::Hit(f)) => Ending::Hit(f, made),
        (None, StopKind::Cut) => Ending::OutOfBudget(made),
    }
}

/// What a parallel search runs on every worker: the property's steps, the
/// description of a failing run, where each worker gets its grammar, and
/// the watchdog its searcher reports to.
pub(crate) struct Task<'a, T, H> {
    /// Runs the next node (the predicate, and the engine after it).
    pub(crate) step: &'a (dyn Fn(&mut Searcher<T>) -> Option<RunResult> + Sync),
    /// Describes a failing run while the searcher is still on it.
    pub(crate) describe: &'a (dyn Fn(&mut Searcher<T>, RunResult) -> H + Sync),
    /// A new run slot of the per-run watchdog for each worker's searcher
    /// (`None`: unwatched).
    pub(crate) watchdog: Option<&'a (dyn Fn() -> RunSlot + Sync)>,
    /// Where each worker gets its grammar.
    pub(crate) source: &'a GrammarSource<T>,
    /// Sharding hook: the one shard of the search every worker's searcher
    /// runs (`None`: all of it). A node's shard is a function of its path,
    /// so units are given away anywhere; a worker counts only its shard's
    /// runs (`worker::Worker::run_node`).
    pub(crate) shard: Option<crate::record::Shard>,
}

impl<T, H> std::fmt::Debug for Task<'_, T, H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Task")
            .field("watched", &self.watchdog.is_some())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::{Parallel, Tally};
    use crate::handle::Lazy;
    use crate::search::{self, BoundResult, Budget, RunResult, Searcher};
    use std::cell::Cell;
    use std::sync::atomic::{AtomicU64, Ordering};

    thread_local! {
        /// The length of the list the predicate saw last, as a check leaves
        /// labels in thread-local state for its tally.
        static LAST_LEN: Cell<u64> = const { Cell::new(0) };
    }

    /// Runs, trues, falses, and the lengths the runs left behind.
    #[derive(Default, Debug, PartialEq, Eq)]
    struct Counts {
        runs: u64,
        trues: u64,
        falses: u64,
        lengths: u64,
    }

    impl Tally for Counts {
        fn add(&mut self, r: &RunResult) {
            self.runs += 1;
            match r {
                RunResult::True => self.trues += 1,
                _ => self.falses += 1,
            }
            self.lengths += LAST_LEN.with(Cell::get);
        }
        fn merge(&mut self, other: Self) {
            self.runs += other.runs;
            self.trues += other.trues;
            self.falses += other.falses;
            self.lengths += other.lengths;
        }
    }

    /// Fewer than three trues; records how far it read.
    fn few_trues(xs: Lazy<'_, Vec<bool>>) -> bool {
        let mut len = 0;
        let mut trues = 0;
        for b in xs.iter() {
            len += 1;
            trues += u64::from(b.get());
            if trues == 3 {
                break;
            }
        }
        LAST_LEN.with(|l| l.set(len));
        trues < 3
    }

    #[test]
    fn a_tally_counts_every_run_of_a_passing_bound_once() {
        let always = |xs: Lazy<'_, Vec<bool>>| {
            few_trues(xs);
            true
        };
        // The same tally made by hand, in sequential order.
        let mut expected = Counts::default();
        let mut s = Searcher::<Vec<bool>>::new(12);
        while let Some(r) = s.step(always) {
            expected.add(&r);
        }
        assert!(expected.lengths > expected.runs, "the lengths are counted");
        for threads in 1..=4 {
            for depth in [1, 2, 3, 8] {
                let par = Parallel::new(threads).with_split_depth(depth);
                let (result, counts): (_, Counts) =
                    par.ctrex_within_tally(&always, 12, Budget::unlimited());
                assert!(matches!(result, BoundResult::Passed(r) if r == expected.runs));
                assert_eq!(counts, expected, "{par:?}");
            }
        }
    }

    #[test]
    fn classes_are_a_tally_of_satisfied_runs() {
        let expected = search::classes(few_trues, 12);
        assert!(expected.satisfying > 0 && expected.satisfying < expected.runs);
        for threads in 1..=3 {
            let par = Parallel::new(threads).with_split_depth(2);
            assert_eq!(par.classes(few_trues, 12), expected);
        }
    }

    #[test]
    fn no_worker_makes_more_runs_than_the_budget() {
        let calls = AtomicU64::new(0);
        let counted = |xs: Lazy<'_, Vec<bool>>| {
            calls.fetch_add(1, Ordering::Relaxed);
            xs.iter().filter(|b| b.get()).count() < 1000
        };
        for max_runs in [0, 1, 5, 100, 1000] {
            for threads in 1..=4 {
                for depth in [1, 2, 8] {
                    calls.store(0, Ordering::Relaxed);
                    let budget = Budget {
                        deadline: None,
                        max_runs: Some(max_runs),
                    };
                    let par = Parallel::new(threads).with_split_depth(depth);
                    let result = par.ctrex_within(&counted, 30, budget);
                    assert!(matches!(result, BoundResult::OutOfBudget(r) if r == max_runs));
                    let made = calls.load(Ordering::Relaxed);
                    assert!(made <= threads as u64 * max_runs, "{made} runs, {par:?}");
                }
            }
        }
    }
}

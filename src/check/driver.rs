//! The one driver: replay, regression file, random probe, exhaustive phase
//! by iterative deepening (one thread or several), random phase with
//! shrinking, and the health checks. Every check and `search::test_for` run
//! through here.
//!
//! Budgets are counted in runs, so the verdict and the counterexample are
//! the same on any machine under any load; the only wall-clock limit is the
//! one a user asks for (`Config::time`), and the summary says when it cut.

use super::labels;
use super::portfolio::{bound_with_depth_order, DepthFound, DepthOrder};
use super::random::{self, RandomCases};
use super::settings::Settings;
use crate::engine::GrammarSource;
use crate::engine::{
    bound_in_searcher, BoundResult, Budget, ClockEvery, RunResult, Searcher, Tally as _,
};
use crate::grammar::{Grammar, Tree};
use crate::internal::quiet::{self, Quiet};
use crate::record::{Counterexample, Found, Stop, Summary};
use crate::report::Pattern;
use crate::watchdog::Watchdog;
use crate::Enumerable;
use num_bigint::BigUint;
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::time::Instant;

/// What the driver runs: the property as steps of a searcher.
pub(crate) struct Subject<'a, T> {
    /// Runs the property on the searcher's next node.
    pub step: &'a dyn Fn(&mut Searcher<T>) -> Option<RunResult>,
    /// Runs it again on the node run last, tracing every read (reports).
    pub trace: &'a dyn Fn(&mut Searcher<T>) -> Pattern,
    /// Runs it once on a given value, recording every position read, in
    /// order (the random phase: a discarded case rules out its class).
    pub traced: &'a Traced<'a, T>,
    /// The per-run watchdog every searcher of the check reports to.
    pub watchdog: Option<&'a Watchdog>,
    /// The space searched.
    pub source: &'a GrammarSource<T>,
    /// The exhaustive phase's bounds on several threads (`None`: the
    /// property may only run on the calling thread).
    pub threads: Option<&'a dyn OnThreads<T>>,
}

/// A bound of the exhaustive phase on several threads. Made only where
/// the property is `Sync` and the input `Send` (`Config::threads`), so
/// that the driver itself asks for neither.
pub(crate) trait OnThreads<T> {
    /// Exhausts `bound` on `settings.threads` threads within `budget`,
    /// with the same result and run count as on one.
    fn exhaust(
        &self,
        settings: &Settings,
        subject: &Subject<'_, T>,
        bound: usize,
        budget: Budget,
    ) -> (BoundResult<T>, RunCounts);
}

impl<T: Enumerable> Subject<'_, T> {
    /// A searcher of `T` up to `bound`, watched.
    pub(crate) fn searcher(&self, bound: usize) -> Searcher<T> {
        let mut s = Searcher::<T>::from_grammar(self.source.grammar(), bound);
        if let Some(dog) = self.watchdog {
            s.watch(dog.slot());
        }
        s
    }
}

/// A run of the property on a given value that records its reads
/// (`Searcher::run_recorded`).
pub(crate) type Traced<'a, T> = dyn Fn(&mut Searcher<T>, &Tree) -> (RunResult, Vec<u32>) + 'a;

/// Where a check comes from: for the regression file and the replay line.
#[derive(Clone, Debug, Default)]
pub(crate) struct Origin {
    /// The full test name (the test thread's name).
    pub test: Option<String>,
    /// The source file of the property (`#[track_caller]`).
    pub file: Option<&'static str>,
}

/// What the driver tells an observer after each bound (`test_for` prints it).
pub(crate) enum BoundEvent<'a> {
    Passed {
        bound: usize,
        runs: u64,
    },
    Failed {
        bound: usize,
        runs: u64,
        pattern: &'a str,
    },
    Cut {
        bound: usize,
        runs: u64,
    },
    /// The portfolio's depth order found a counterexample first; the size
    /// order goes on to prove which one is smallest.
    DepthFound {
        depth: usize,
        runs: u64,
        size: u64,
        pattern: &'a str,
    },
}

/// Per-run statistics of a stretch of the search.
#[derive(Default, Clone, Debug)]
pub(crate) struct RunCounts {
    pub runs: u64,
    pub discarded: u64,
    pub labels: BTreeMap<String, u64>,
    /// The largest share (in percent) any run asked of each label.
    pub required: BTreeMap<String, f64>,
}

impl RunCounts {
    /// Adds these counts of random or edge cases to the summary: they
    /// count toward the label table beside the last exhausted size.
    fn add_cases_to(self, summary: &mut Summary) {
        summary.discarded += self.discarded;
        summary.labelled_runs += self.runs - self.discarded;
        for (k, v) in self.labels {
            *summary.labels.entry(k).or_default() += v;
        }
        require(&mut summary.coverage, self.required);
    }
}

/// Adds the shares asked in `from` to `into`, keeping the largest per
/// label (a NaN, which fails the check, is kept over any number).
fn require(into: &mut BTreeMap<String, f64>, from: impl IntoIterator<Item = (String, f64)>) {
    for (label, percent) in from {
        let share = into.entry(label).or_insert(percent);
        if percent.is_nan() || *share < percent {
            *share = percent;
        }
    }
}

impl crate::engine::Tally for RunCounts {
    /// Counts a run just made on this thread (and takes its labels).
    fn add(&mut self, r: &RunResult) {
        self.runs += 1;
        let run = labels::take();
        // A requirement holds whether or not its run's precondition did.
        require(&mut self.required, run.required);
        if matches!(r, RunResult::Discarded) {
            self.discarded += 1;
            return;
        }
        let run_labels = run.labels;
        for (i, l) in run_labels.iter().enumerate() {
            // Each label once per run, however often the run attached it.
            if !run_labels[..i].contains(l) {
                *self.labels.entry(l.clone()).or_default() += 1;
            }
        }
    }

    /// A replay of another shard's run: its labels are that shard's.
    fn skip(&mut self, _: &RunResult) {
        let _ = labels::take();
    }

    fn merge(&mut self, other: RunCounts) {
        self.runs += other.runs;
        self.discarded += other.discarded;
        for (k, v) in other.labels {
            *self.labels.entry(k).or_default() += v;
        }
        require(&mut self.required, other.required);
    }
}

/// The failure record of the run just made by `s`, traced again by
/// `trace` (the subject's, or a worker thread's own).
pub(crate) fn failure_record<T: 'static>(
    s: &mut Searcher<T>,
    trace: &dyn Fn(&mut Searcher<T>) -> Pattern,
    r: RunResult,
    runs: u64,
) -> Counterexample<T> {
    let location = matches!(r, RunResult::Panicked(_))
        .then(quiet::last_location)
        .flatten();
    let pattern = trace(s);
    let mut c = s.counterexample(&pattern, r);
    c.panic_location = location;
    c.runs = runs;
    c
}

/// A problem with the argument type itself, before any run.
fn type_problem(g: &Grammar) -> Option<String> {
    if g.is_inhabited() {
        return None;
    }
    let empty = g.uninhabited_parts();
    Some(format!(
        "the input type `{}` has no values{}: the property can never run. A derived enum \
         needs a variant that is not `#[enumerable(skip)]` and does not contain the type \
         itself; a hand-written space needs a base case outside `pay`.",
        g.root_name(),
        if empty.is_empty() {
            String::new()
        } else {
            format!(" (uninhabited: {})", empty.join(", "))
        }
    ))
}

/// Runs one input (a replay key or a saved regression) with no budget.
fn run_tree<T: Enumerable>(
    subject: &Subject<'_, T>,
    tree: &Tree,
) -> (RunResult, Option<Counterexample<T>>) {
    let mut s = subject.searcher(0);
    s.load(tree);
    let r = (subject.step)(&mut s).expect("a loaded value runs");
    let _ = labels::take();
    if r.is_failure() {
        let c = failure_record(&mut s, subject.trace, r.clone(), 1);
        (r, Some(c))
    } else {
        (r, None)
    }
}

/// Runs a counterexample's input again before it is reported: `None` if it
/// fails again, otherwise what the second run did. A property that reads
/// global state, the clock or randomness can fail once and pass on the
/// same input; its report must not call that input minimal, nor promise
/// that the replay line fails.
fn rerun<T: Enumerable>(subject: &Subject<'_, T>, c: &Counterexample<T>) -> Option<String> {
    let tree = crate::replay::tree_of_key(&subject.source.grammar(), &c.key).ok()?;
    // The verdict only: a second counterexample value would be dropped
    // here, and a deep one's own drop can overflow the stack.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut s = subject.searcher(0);
        s.load(&tree);
        let r = (subject.step)(&mut s).expect("a loaded value runs");
        let _ = labels::take();
        r
    }));
    match result {
        Ok(r) if r.is_failure() => None,
        Ok(RunResult::Discarded) => Some("discarded it (its precondition was false)".into()),
        Ok(_) => Some("passed".into()),
        // Only neatcheck's own code can panic out of a run: not the
        // property's verdict either way.
        Err(_) => None,
    }
}

/// The whole check. `Err` carries the counterexample with its summary;
/// problems that make a pass meaningless are in `Summary::problems`, and so
/// is an internal error of neatcheck (with `Stop::Internal`): a run that
/// failed because of neatcheck itself is never a counterexample.
pub(crate) fn drive<T: Enumerable + Debug>(
    config: &Settings,
    subject: &Subject<'_, T>,
    origin: &Origin,
    observe: &mut dyn FnMut(BoundEvent<'_>),
) -> Result<Summary, Box<Counterexample<T>>> {
    let start = Instant::now();
    // The whole check (grammar, searchers, random cases, shrinking, keys)
    // under the check's integer sizes.
    let _integers = config.integers.map(crate::describe::ModeScope::enter);
    let g = subject.source.grammar();
    // A bad replay key is the user's error: reported before panics are
    // silenced for the runs.
    let replay = config.replay.as_ref().map(|key| {
        crate::replay::tree_of_key(&g, key)
            .unwrap_or_else(|e| panic!("neatcheck: NEATCHECK_REPLAY={key}: {e}"))
    });
    let mut summary = Summary {
        worst_case: "0".into(),
        shard: config.shard,
        drawn: g.generators(),
        ..Summary::default()
    };
    // Outside the catch below: a panic that leaves the phases is reported
    // by the summary, not printed again by the quiet region's end.
    let _quiet = Quiet::new();
    let phases = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        drive_phases(
            config,
            subject,
            origin,
            observe,
            &g,
            replay,
            start,
            &mut summary,
        )
    }));
    let elapsed = start.elapsed();
    match phases {
        Ok(Ok(())) => Ok(summary),
        Ok(Err(mut c)) => {
            c.not_reproduced = rerun(subject, &c);
            c.summary = Summary { elapsed, ..summary };
            Err(c)
        }
        // Every panic that leaves the phases is neatcheck's own: the
        // property's are caught run by run. Most name their input (see
        // `internal::handling`); the rest say where they happened.
        Err(payload) => {
            let message = match crate::internal::message_of(&*payload) {
                Some(m) => m.to_string(),
                None => crate::internal::internal_message(&*payload, "checking the property"),
            };
            summary.stopped = Stop::Internal;
            summary.problems = vec![message];
            summary.elapsed = elapsed;
            Ok(summary)
        }
    }
}

/// The phases of [`drive`]: `Err` carries the counterexample (its summary
/// is filled in by `drive`).
#[allow(clippy::too_many_arguments)]
fn drive_phases<T: Enumerable + Debug>(
    config: &Settings,
    subject: &Subject<'_, T>,
    origin: &Origin,
    observe: &mut dyn FnMut(BoundEvent<'_>),
    g: &std::rc::Rc<Grammar>,
    replay: Option<Tree>,
    start: Instant,
    summary: &mut Summary,
) -> Result<(), Box<Counterexample<T>>> {
    let deadline = config.time.map(|t| start + t);
    let _labels = labels::Scope::new();
    if let Some(p) = type_problem(g) {
        summary.problems.push(p);
        return Ok(());
    }

    if let Some(tree) = replay {
        summary.replayed = 1;
        summary.stopped = Stop::Replay;
        let (_, failure) = run_tree(subject, &tree);
        if let Some(mut c) = failure {
            c.found = Found::Replay { from_file: false };
            return Err(Box::new(c));
        }
        summary.elapsed = start.elapsed();
        return Ok(());
    }

    let saved = super::regressions::saved_keys(config, origin);
    for key in &saved {
        // A key of another version of the type no longer decodes: skip it.
        let Ok(tree) = crate::replay::tree_of_key(g, key) else {
            continue;
        };
        summary.replayed += 1;
        if let (_, Some(mut c)) = run_tree(subject, &tree) {
            c.found = Found::Replay { from_file: true };
            return Err(Box::new(c));
        }
    }

    let min_size = g.min_size().expect("inhabited") as usize;
    let type_max = crate::index::max_size_in(g);
    let last_bound = type_max.map_or(config.max_size, |m| m.min(config.max_size));
    let last_random = type_max.map_or(config.sample_max_size, |m| m.min(config.sample_max_size));
    let last_sample = last_random.min(UNIFORM_SIZE_CAP);
    let whole_type = type_max.is_some_and(|m| m <= config.max_size);
    // The exhaustive phase will run every value of the type within its
    // budget (iterative deepening runs the small sizes again at each
    // bound): no random or edge case can then find more. A `u64` is a
    // whole type but not a coverable one.
    let covered = whole_type
        && type_max.is_some_and(|m| {
            // At most every value up to each bound, bound after bound. A
            // type whose sizes go past `COVERABLE_SIZE` (a linear `i64`'s
            // go to 2^63) is never covered: counting it would take the
            // time the phases are for.
            if m > COVERABLE_SIZE {
                return false;
            }
            let budget = BigUint::from(config.runs);
            let mut counts = crate::feat::Counts::of(g);
            let mut up_to = BigUint::ZERO;
            let mut runs = BigUint::ZERO;
            for size in 0..=m {
                up_to += counts.count(size);
                runs += &up_to;
                if runs > budget {
                    return false;
                }
            }
            true
        });

    let phase = Phase {
        config,
        subject,
        grammar: g,
        deadline,
    };
    // The exhaustive phase: bounds 0, 1, 2, ... so the first failure is a
    // smallest one.
    // A shard is one part of the size order; the depth order is not
    // partitioned, so a sharded check leaves it to the unsharded runs.
    let portfolio = config.portfolio && config.shard.is_none_or(|s| s.is_whole());
    let mut depth_order = portfolio.then(|| DepthOrder::new(last_bound));

    // A short random probe early, over all sizes: a bug past the sizes the
    // exhaustive phase will reach is then met at once, not after the whole
    // exhaustive budget. What it finds is shrunk and the sizes up to it are
    // searched exhaustively, so a smaller counterexample that the exhaustive
    // phase would have found is still the one reported. The exhaustive
    // phase's first bounds come before it (whole bounds, until
    // `EARLY_RUNS_PER_PROBE_CASE` runs per probe case are spent): a bug
    // they meet is reported without waiting for the probe's large cases,
    // and a passing check makes the same runs in the same bounds.
    let probe = (config.samples / 4).min(PROBE_CASES);
    let probing = probe > 0 && !covered && min_size <= last_sample;
    let early = if probing {
        probe.saturating_mul(EARLY_RUNS_PER_PROBE_CASE)
    } else {
        u64::MAX
    };
    let runs_before = summary.runs;
    // What the exhaustive phase has left of its budget.
    let budget_left = |summary: &Summary| config.runs - (summary.runs - runs_before);
    let mut ended = phase.exhaust(
        0,
        last_bound,
        config.runs,
        Skipping::Allowed,
        summary,
        observe,
        depth_order.as_mut(),
        early,
    )?;
    if probing {
        let cases = RandomCases::new(g, config.seed ^ PROBE_SEED, min_size, last_sample, probe)
            .long_up_to(last_random);
        // The sizes below its counterexample get what the exhaustive phase
        // has left of its budget.
        if let Some(c) = phase.random(cases, budget_left(summary), summary, observe) {
            return Err(c);
        }
    }

    // The edge sweep: the smallest inputs with their atoms at edge values.
    // Its cases are the smallest there are, so it may take a few times the
    // random phase's count (a `u64` alone has about 400 edge values).
    if !covered {
        let plan = super::edges::sweep(g, config.samples.saturating_mul(EDGE_CASES_PER_SAMPLE));
        if let Some(c) = phase.sweep(&plan, budget_left(summary), summary, observe) {
            return Err(c);
        }
    }

    // The rest of the exhaustive phase, from the bound after the last one
    // passed, with the rest of the budget.
    if ended == Ended::Paused {
        let from = summary.exhausted.map_or(0, |e| e + 1);
        ended = phase.exhaust(
            from,
            last_bound,
            budget_left(summary),
            Skipping::Allowed,
            summary,
            observe,
            depth_order.as_mut(),
            u64::MAX,
        )?;
    }
    debug_assert_eq!(ended, Ended::Finished);
    if summary.stopped == Stop::MaxSize && whole_type {
        summary.stopped = Stop::AllValues;
    }
    // The size order ended without a counterexample (out of budget, or
    // past its last size): the depth order's, shrunk, is the report.
    if let Some(mut d) = depth_order {
        d.top_up(subject);
        d.announce_once(config.verbose, observe);
        summary.depth_runs = d.runs;
        summary.depth_exhausted = d.exhausted;
        if let Some(found) = d.found.take() {
            return Err(phase.depth_failure(found, summary, observe));
        }
    }

    // The random phase, past the sizes the exhaustive phase reached.
    let first = summary
        .exhausted
        .map_or(0, |e| e.saturating_add(1))
        .max(min_size);
    let rest = config.samples - probe;
    if rest > 0 && summary.stopped != Stop::AllValues && first <= last_sample {
        let cases =
            RandomCases::new(g, config.seed, first, last_sample, rest).long_up_to(last_random);
        if let Some(c) = phase.random(cases, config.runs, summary, observe) {
            return Err(c);
        }
    }

    health(config, min_size, summary);
    summary.elapsed = start.elapsed();
    Ok(())
}

/// One bound of the exhaustive phase, on the configured threads: the same
/// runs, verdict and counterexample whatever their number. The tally's run
/// count is exact in every case.
fn exhaust_bound<T: Enumerable>(
    config: &Settings,
    subject: &Subject<'_, T>,
    bound: usize,
    budget: u64,
    deadline: Option<Instant>,
    depth_order: Option<&mut DepthOrder<T>>,
    observe: &mut dyn FnMut(BoundEvent<'_>),
) -> (BoundResult<T>, RunCounts) {
    if let (Some(depth_order), true) = (depth_order, config.threads <= 1) {
        let on_found = &mut |d: &mut DepthOrder<T>| d.announce_once(config.verbose, observe);
        return bound_with_depth_order(subject, depth_order, bound, budget, deadline, on_found);
    }
    let budget = Budget {
        deadline,
        max_runs: Some(budget),
    };
    if config.threads <= 1 {
        let mut tally = RunCounts::default();
        let result = bound_in_searcher(
            &mut subject.searcher(bound).sharded(config.shard),
            &mut |s| (subject.step)(s),
            &mut |s, r| {
                let runs = s.stats().runs;
                failure_record(s, subject.trace, r, runs)
            },
            budget,
            ClockEvery::Run,
            &mut tally,
        );
        return (result, tally);
    }
    let threads = subject
        .threads
        .expect("several threads only where the property may run on them");
    let (result, mut tally) = threads.exhaust(config, subject, bound, budget);
    // The other counts of a bound that did not pass are those of the units
    // that completed.
    match &result {
        BoundResult::Passed(_) => {}
        BoundResult::Failed(c) => tally.runs = c.runs,
        BoundResult::OutOfBudget(runs) => tally.runs = *runs,
    }
    (result, tally)
}

/// The largest size a uniform random case is drawn at, whatever the
/// configuration asks: sampling a size uniformly needs the counts of every
/// size up to it, which take cubic time (0.15 s at 1 000 for a binary tree,
/// about 2.5 minutes at 10 000) and linear memory. Long cases reach past it
/// (see `random::Atoms::Long`); the coverage line gives the sizes drawn.
const UNIFORM_SIZE_CAP: usize = 200;

/// The most inputs of a bound that the exhaustive phase skips to (see
/// `Phase::exhaust`): the bounds below it are then not run. A failing
/// property may take that many runs there before a failure that an earlier
/// bound would have met in a few; bounded, so a check with a huge run
/// budget (the deep profile's million) does not first search a bound of a
/// million inputs.
const SKIPPING_INPUTS: u64 = 2_000;

/// The largest size of a finite type the driver counts to see whether the
/// exhaustive phase covers it (see `drive`).
const COVERABLE_SIZE: usize = 10_000;

/// Edge sweep cases per random case of the configuration.
const EDGE_CASES_PER_SAMPLE: u64 = 5;

/// Random cases of the probe before the exhaustive phase: a quarter of the
/// random cases, at most this many.
const PROBE_CASES: u64 = 1000;
/// Runs of the exhaustive phase before the probe, per probe case (whole
/// bounds: the bound that passes this count finishes first). A probe case
/// is a large input, dearer than a run of the small bounds; with the deep
/// profile's 1 000 cases the first 8 000 runs come first, and they meet
/// the depth order's early wins (`first_ctrex`: a set insertion that
/// breaks from four keys, 5 476 runs with the portfolio) before the
/// probe's 60 ms.
const EARLY_RUNS_PER_PROBE_CASE: u64 = 8;
/// Mixed into the seed of the probe, so its cases are not the first ones of
/// the random phase.
const PROBE_SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// Announces bound `bound`'s counterexample and hands it on as the report.
fn failed<T>(
    bound: usize,
    c: Counterexample<T>,
    observe: &mut dyn FnMut(BoundEvent<'_>),
) -> Box<Counterexample<T>> {
    observe(BoundEvent::Failed {
        bound,
        runs: c.runs,
        pattern: &c.pattern,
    });
    Box::new(c)
}

/// Whether the exhaustive phase may skip the bounds below one sure to
/// finish (see `Phase::exhaust`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Skipping {
    Allowed,
    Never,
}

/// How a call of [`Phase::exhaust`] ended without a counterexample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ended {
    /// Past its last bound, out of budget or out of time.
    Finished,
    /// After a bound, at the runs it was asked to pause after.
    Paused,
}

/// What the phases of one check share.
struct Phase<'a, 's, T> {
    config: &'a Settings,
    subject: &'a Subject<'s, T>,
    grammar: &'a Grammar,
    deadline: Option<Instant>,
}

impl<T: Enumerable> Phase<'_, '_, T> {
    /// Exhausts bounds `from..=to` within `budget` runs, recording each in
    /// the summary; a failure is a smallest one above the bounds exhausted
    /// before `from`.
    ///
    /// Iterative deepening runs every input of a bound again at each later
    /// bound. Where a later bound is sure to finish within the runs left
    /// (it has no more inputs than that, as a run covers at least one, and
    /// no time limit may cut it), the bounds before it are skipped: for
    /// numbers, whose runs are one per value, that halves the runs per size
    /// reached. A failure there is searched for again bound by bound from
    /// the first one skipped (see [`Phase::smallest_from`]), so the report
    /// is the one iterative deepening gives.
    ///
    /// Once a bound passes with `pause_after` runs or more made in this
    /// call, the call returns [`Ended::Paused`] (the bounds from the next
    /// one on are still to search, with the rest of the budget).
    #[allow(clippy::too_many_arguments)]
    fn exhaust(
        &self,
        from: usize,
        to: usize,
        budget: u64,
        skipping: Skipping,
        summary: &mut Summary,
        observe: &mut dyn FnMut(BoundEvent<'_>),
        mut depth_order: Option<&mut DepthOrder<T>>,
        pause_after: u64,
    ) -> Result<Ended, Box<Counterexample<T>>> {
        let mut used = 0;
        summary.stopped = Stop::MaxSize;
        let mut next = from;
        while next <= to {
            let left = budget.saturating_sub(used);
            // Under a time limit no bound is sure to finish.
            let bound = match (skipping, self.deadline) {
                (Skipping::Allowed, None) => self.sure_to_finish(next, to, left),
                _ => next,
            };
            let skipped = next..bound;
            next = bound + 1;
            let (end, tally) = exhaust_bound(
                self.config,
                self.subject,
                bound,
                left,
                self.deadline,
                depth_order.as_deref_mut(),
                observe,
            );
            if let Some(d) = depth_order.as_deref_mut() {
                // Several threads: the depth order's slices between bounds.
                if self.config.threads > 1 && !matches!(end, BoundResult::Failed(_)) {
                    d.credit(self.subject, tally.runs);
                }
                summary.depth_runs = d.runs;
                summary.depth_exhausted = d.exhausted;
                d.announce_once(self.config.verbose, observe);
            }
            used += tally.runs;
            summary.runs += tally.runs;
            summary.discarded += tally.discarded;
            match end {
                BoundResult::Passed(_) => {
                    self.passed(bound, tally, summary, observe);
                    // Only a property that changed its mind passes the
                    // depth order's counterexample's size.
                    if depth_order
                        .as_ref()
                        .and_then(|d| d.found.as_ref())
                        .is_some_and(|f| f.counterexample.size <= bound as u64)
                    {
                        return Ok(Ended::Finished);
                    }
                    if used >= pause_after && bound < to {
                        return Ok(Ended::Paused);
                    }
                }
                BoundResult::Failed(c) if !skipped.is_empty() => {
                    return Err(self.smallest_from(skipped.start, c, summary, observe));
                }
                BoundResult::Failed(c) => return Err(failed(bound, c, observe)),
                BoundResult::OutOfBudget(runs) => {
                    observe(BoundEvent::Cut { bound, runs });
                    // Cut exactly at the run budget, or earlier by the clock.
                    summary.stopped = if runs >= left {
                        Stop::Runs(bound)
                    } else {
                        Stop::Time(bound)
                    };
                    return Ok(Ended::Finished);
                }
            }
        }
        Ok(Ended::Finished)
    }

    /// Records bound `bound` as passed, with its runs.
    fn passed(
        &self,
        bound: usize,
        tally: RunCounts,
        summary: &mut Summary,
        observe: &mut dyn FnMut(BoundEvent<'_>),
    ) {
        observe(BoundEvent::Passed {
            bound,
            runs: tally.runs,
        });
        summary.exhausted = Some(bound);
        summary.worst_case = self.grammar.count_up_to(bound).to_string();
        summary.runs_last_bound = tally.runs;
        summary.labelled_runs = tally.runs - tally.discarded;
        summary.labels = tally.labels;
        require(&mut summary.coverage, tally.required);
    }

    /// The largest bound from `next` to `to` whose inputs number at most
    /// `left` and [`SKIPPING_INPUTS`], or `next` (see [`Phase::exhaust`]).
    fn sure_to_finish(&self, next: usize, to: usize, left: u64) -> usize {
        let left = BigUint::from(left.min(SKIPPING_INPUTS));
        let mut counts = crate::feat::Counts::of(self.grammar);
        let mut inputs = counts.count_up_to(next);
        let mut bound = next;
        while bound < to && inputs <= left {
            inputs += counts.count(bound + 1);
            if inputs > left {
                break;
            }
            bound += 1;
        }
        bound
    }

    /// The report of iterative deepening from bound `first`, given a
    /// failure `found` at a later bound: the bounds from `first` on are
    /// searched in order, without a run budget (they hold no more inputs
    /// than the one that failed), and the first failure is the report.
    fn smallest_from(
        &self,
        first: usize,
        found: Counterexample<T>,
        summary: &mut Summary,
        observe: &mut dyn FnMut(BoundEvent<'_>),
    ) -> Box<Counterexample<T>> {
        for bound in first..=found.size as usize {
            let (end, tally) = exhaust_bound(
                self.config,
                self.subject,
                bound,
                u64::MAX,
                self.deadline,
                None,
                observe,
            );
            summary.runs += tally.runs;
            summary.discarded += tally.discarded;
            match end {
                BoundResult::Passed(_) => self.passed(bound, tally, summary, observe),
                BoundResult::Failed(c) => return failed(bound, c, observe),
                // Out of time: the failure found stands.
                BoundResult::OutOfBudget(_) => break,
            }
        }
        Box::new(found)
    }

    /// Runs random cases; a failure is shrunk and confirmed.
    fn random(
        &self,
        mut cases: RandomCases<'_>,
        confirm_budget: u64,
        summary: &mut Summary,
        observe: &mut dyn FnMut(BoundEvent<'_>),
    ) -> Option<Box<Counterexample<T>>> {
        let mut s = self.subject.searcher(0);
        let mut tally = RunCounts::default();
        // A sharded check runs every `n`-th case: the shards draw the same
        // cases and share them out like the exhaustive phase's nodes.
        let (mine, shards) = self
            .config
            .shard
            .map_or((0, 1), |s| (s.index() as u64 - 1, s.count() as u64));
        // A case whose precondition is false rules out its class and is
        // drawn again (not in a shard: the shards share the cases out by
        // their order, which redraws would make depend on the shard).
        let prune = shards == 1;
        let mut redraws_left = cases.cases().saturating_mul(REDRAWS_PER_CASE_ON_AVERAGE);
        let mut drawn = 0u64;
        let g = self.grammar;
        let input = |doing: &str, tree: &Tree| {
            format!(
                "{doing} the random case {} (replay key {})",
                crate::report::show_tree(g, tree),
                crate::replay::key_of(g, tree)
            )
        };
        'cases: while let Some(mut case) =
            crate::internal::handling(|| "drawing a random case".to_string(), || cases.next_case())
        {
            drawn += 1;
            if (drawn - 1) % shards != mine {
                continue;
            }
            let mut redraws = 0;
            loop {
                if self.deadline.is_some_and(|d| Instant::now() >= d) {
                    summary.random_cut_by_time = true;
                    break 'cases;
                }
                let (r, reads) = (self.subject.traced)(&mut s, &case.tree);
                tally.add(&r);
                summary.random += 1;
                summary.random_edges += u64::from(matches!(
                    case.atoms,
                    random::Atoms::Edges | random::Atoms::Uniform
                ));
                summary.random_long += u64::from(case.atoms == random::Atoms::Long);
                // The size run, not the size drawn at: moved atoms and long
                // cases change it, and the report must cover what ran.
                let size = case.size;
                summary.random_sizes = Some(
                    summary
                        .random_sizes
                        .map_or((size, size), |(lo, hi)| (lo.min(size), hi.max(size))),
                );
                if r.is_failure() {
                    summary.discarded += tally.discarded;
                    let c = failure_record(&mut s, self.subject.trace, r, summary.random);
                    let sampled_size = c.size;
                    let runs = summary.random;
                    let found = move |shrink_attempts, shrink_steps, passed_up_to| Found::Random {
                        sampled_size,
                        shrink_attempts,
                        shrink_steps,
                        passed_up_to,
                    };
                    return Some(self.shrink_and_confirm(
                        c,
                        &case.tree,
                        runs,
                        &found,
                        confirm_budget,
                        summary,
                        observe,
                    ));
                }
                if !prune || r != RunResult::Discarded {
                    break;
                }
                // Out of redraws: ruling the class out (the dearest step of
                // a discarded case) would serve only a later case of the
                // same size, and sizes grow.
                if redraws == MAX_REDRAWS_PER_CASE || redraws_left == 0 {
                    break;
                }
                let ruled_out = crate::internal::handling(
                    || input("ruling out the class of", &case.tree),
                    || cases.discard(&case.tree, &reads),
                );
                summary.random_pruned += u64::from(ruled_out);
                let again = crate::internal::handling(
                    || input("drawing again in place of", &case.tree),
                    || cases.redraw(&case),
                );
                let Some(again) = again else {
                    break;
                };
                case = again;
                redraws += 1;
                redraws_left -= 1;
            }
        }
        tally.add_cases_to(summary);
        None
    }

    /// Runs the edge sweep's inputs (every `n`-th in a shard of `n`); a
    /// failure is shrunk and confirmed.
    fn sweep(
        &self,
        plan: &super::edges::SweepPlan,
        confirm_budget: u64,
        summary: &mut Summary,
        observe: &mut dyn FnMut(BoundEvent<'_>),
    ) -> Option<Box<Counterexample<T>>> {
        let (mine, shards) = self
            .config
            .shard
            .map_or((0, 1), |s| (s.index() - 1, s.count()));
        let mut s = self.subject.searcher(0);
        let mut tally = RunCounts::default();
        // Each base loaded once; its inputs set a leaf or two of it.
        let mut kept = vec![];
        for (i, input) in plan.inputs().iter().enumerate().skip(mine).step_by(shards) {
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            if kept.len() <= input.base {
                kept.resize_with(input.base + 1, || None);
            }
            let base = kept[input.base].get_or_insert_with(|| s.load_and_keep(plan.base(input)));
            s.load_kept(base, input.leaves(plan));
            let r = (self.subject.step)(&mut s).expect("a loaded value runs");
            tally.add(&r);
            summary.edge_cases += 1;
            if r.is_failure() {
                summary.discarded += tally.discarded;
                let c = failure_record(&mut s, self.subject.trace, r, i as u64 + 1);
                let tree = &plan.tree(self.grammar, input);
                let (case, sampled_size) = (i as u64 + 1, c.size);
                let found = move |shrink_attempts, shrink_steps, passed_up_to| Found::EdgeSweep {
                    case,
                    sampled_size,
                    shrink_attempts,
                    shrink_steps,
                    passed_up_to,
                };
                return Some(self.shrink_and_confirm(
                    c,
                    tree,
                    case,
                    &found,
                    confirm_budget,
                    summary,
                    observe,
                ));
            }
        }
        tally.add_cases_to(summary);
        None
    }

    /// The report of a counterexample of the depth order that the size order
    /// did not reach: shrunk and confirmed as a random failure is.
    fn depth_failure(
        &self,
        found: DepthFound<T>,
        summary: &mut Summary,
        observe: &mut dyn FnMut(BoundEvent<'_>),
    ) -> Box<Counterexample<T>> {
        let DepthFound {
            counterexample,
            tree,
            depth,
        } = found;
        let found_size = counterexample.size;
        let runs = summary.depth_runs;
        let found = move |shrink_attempts, shrink_steps, passed_up_to| Found::Depth {
            depth,
            found_size,
            shrink_attempts,
            shrink_steps,
            passed_up_to,
        };
        // The size order has spent its runs on the sizes below the found
        // one already: the confirmation gets what is left of the budget,
        // not a fresh one, so the report comes within the check's budget
        // (and says at which size the budget ran out).
        let left = self.config.runs.saturating_sub(summary.runs);
        self.shrink_and_confirm(counterexample, &tree, runs, &found, left, summary, observe)
    }

    /// Shrinks a failure of the random phase or of the depth order through
    /// the space, then searches the sizes from those exhausted up to the
    /// shrunk value's (with `budget` runs) to find the smallest
    /// counterexample, or to say how far below the shrunk one every input
    /// passed. `found` says how it was found, from the shrinker's attempts
    /// and steps and the largest size passed; `runs` are the runs or cases
    /// that found it.
    #[allow(clippy::too_many_arguments)]
    fn shrink_and_confirm(
        &self,
        first: Counterexample<T>,
        tree: &Tree,
        runs: u64,
        found: &dyn Fn(u64, u64, Option<usize>) -> Found,
        budget: u64,
        summary: &mut Summary,
        observe: &mut dyn FnMut(BoundEvent<'_>),
    ) -> Box<Counterexample<T>> {
        let (subject, deadline) = (self.subject, self.deadline);
        let panicked = first.panicked;
        let mut s = subject.searcher(0);
        let mut fails = |t: &Tree| {
            // Past the time ceiling no candidate is accepted: shrinking ends.
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return false;
            }
            s.load(t);
            let r = (subject.step)(&mut s).expect("a loaded value runs");
            let _ = labels::take();
            // A shrink keeps the kind of failure: a panic stays a panic.
            r.is_failure() && matches!(r, RunResult::Panicked(_)) == panicked
        };
        let shrunk = crate::internal::handling(
            || {
                format!(
                    "shrinking the counterexample {}",
                    crate::report::show_tree(self.grammar, tree)
                )
            },
            || crate::shrink::shrink(self.grammar, tree, &mut fails, SHRINK_ATTEMPTS),
        );
        debug_assert_eq!(shrunk.size, self.grammar.tree_size(&shrunk.tree));
        let (_, c) = run_tree(subject, &shrunk.tree);
        let mut c = Box::new(match c {
            Some(c) => {
                first.discard();
                c
            }
            None => first,
        });
        c.runs = runs;
        // Up to the shrunk size itself: the exhaustive search then reports
        // the first counterexample of the smallest failing size in search
        // order, the same one it reports when it finds the bug on its own.
        let from = summary.exhausted.map_or(0, |e| e.saturating_add(1));
        // With no budget left (the size order spent it) the sizes from
        // `from` on stay unproven, and the report says so.
        if budget > 0 && from <= c.size as usize {
            let to = c.size as usize;
            let before = summary.runs;
            // Bound by bound: a failure at `to` is known, so a skip to it
            // would fail and search the bounds below it anyway.
            let confirmed = self.exhaust(
                from,
                to,
                budget,
                Skipping::Never,
                summary,
                observe,
                None,
                u64::MAX,
            );
            summary.confirm_runs += summary.runs - before;
            if let Err(canonical) = confirmed {
                c.discard();
                return canonical;
            }
        }
        c.found = found(shrunk.attempts, shrunk.steps, summary.exhausted);
        c
    }
}

/// Redraws of the random phase after a false precondition: at most this
/// many for one case, and this many per case on average over the phase, so
/// a precondition that is almost never true costs at most twice the runs of
/// a random phase without redraws (20 000 by default). Recording a class
/// costs tens of microseconds at large sizes (counts past 128 bits): 20
/// redraws per case made a default check of a sorted-insert property take
/// 9 s instead of under 1 (`check_cost`).
const MAX_REDRAWS_PER_CASE: u32 = 50;
const REDRAWS_PER_CASE_ON_AVERAGE: u64 = 1;

/// Candidates the shrinker may try.
const SHRINK_ATTEMPTS: u64 = 10_000;

/// Fewer relevant runs than one in this many (over at least
/// `PRECONDITION_MIN_RUNS` runs) mean the precondition almost never holds.
const PRECONDITION_RATIO: u64 = 1000;
const PRECONDITION_MIN_RUNS: u64 = 1000;

/// The health checks: a pass must mean something.
/// The coverage requirements (`cover`) a passing check's label table does
/// not meet. A shard counts only its part of the runs, which may hold more
/// or less of a label than the whole search, and a replay only one input:
/// neither is held to the shares.
fn coverage(summary: &mut Summary) {
    if summary.part().is_some() || summary.stopped == Stop::Replay {
        return;
    }
    for (label, &required) in &summary.coverage {
        if !(0.0..=100.0).contains(&required) {
            summary.problems.push(format!(
                "`cover({required}, .., {label:?})`: {required} is not a percentage (0 to 100)"
            ));
            continue;
        }
        let n = summary.labels.get(label).copied().unwrap_or(0);
        let share = if summary.labelled_runs == 0 {
            0.0
        } else {
            100.0 * n as f64 / summary.labelled_runs as f64
        };
        if share < required {
            summary.problems.push(format!(
                "coverage: `{label}` holds in {share:.1}% of the runs counted ({n} of {}), \
                 below the {required}% its `cover` requires. Make such inputs more likely (a \
                 space, a weaker precondition, a larger size bound) or lower the requirement.",
                summary.labelled_runs
            ));
        }
    }
}

fn health(config: &Settings, min_size: usize, summary: &mut Summary) {
    let total = summary.runs + summary.random + summary.edge_cases;
    let relevant = total - summary.discarded;
    let why_short = match summary.stopped {
        Stop::Time(b) => format!(
            "the time limit ({:?}, NEATCHECK_TIME / Config::time) cut the search at size {b}",
            config.time.unwrap_or_default()
        ),
        Stop::Runs(b) => format!(
            "the run budget ({} runs, NEATCHECK_RUNS / Config::runs) ran out at size {b}",
            config.runs
        ),
        _ => String::new(),
    };
    if min_size > config.max_size {
        summary.problems.push(format!(
            "the smallest input has size {min_size}, above the size bound {}: the exhaustive \
             phase tested nothing. Raise NEATCHECK_SIZE / Config::max_size to at least \
             {min_size}.",
            config.max_size
        ));
    } else if summary.exhausted.is_none_or(|e| e < min_size)
        // Random and edge cases past the budget still tested the property
        // (twelve booleans: 4 096 inputs of the smallest size).
        && summary.random + summary.edge_cases == 0
    {
        summary.problems.push(format!(
            "the exhaustive phase did not complete even the smallest inputs (size \
             {min_size}): {why_short}. Raise the budget, or make the property cheaper."
        ));
    }
    // A size bound at the smallest inputs and no random phase: a green
    // that tested almost nothing (`max_size(0)` over a number: one run).
    if summary.random + summary.edge_cases == 0
        && summary.stopped == Stop::MaxSize
        && summary.exhausted == Some(min_size)
        && config.max_size == min_size
    {
        summary.problems.push(format!(
            "only the smallest inputs were tested (size {min_size}, {} runs): the size bound \
             ({}, NEATCHECK_SIZE / Config::max_size) stops the exhaustive phase there, and no \
             random case ran. Raise the size bound, or turn the random phase on \
             (NEATCHECK_SAMPLES / Config::samples).",
            summary.runs, config.max_size
        ));
    }
    coverage(summary);
    // One shard of a search that ran to its end may hold none of its runs,
    // or only discarded ones: the union of the shards is what was tested.
    let idle_shard = relevant == 0
        && summary.part().is_some()
        && matches!(summary.stopped, Stop::MaxSize | Stop::AllValues);
    if idle_shard {
        return;
    }
    if total == 0 {
        summary.problems.push(format!(
            "the property was never run{}",
            if why_short.is_empty() {
                String::new()
            } else {
                format!(": {why_short}")
            }
        ));
    } else if relevant == 0 {
        summary.problems.push(format!(
            "no input met the precondition: {total} runs, all discarded. The property was \
             never really tested; weaken the precondition, or read less before deciding it \
             (a lazy precondition prunes the search)."
        ));
    } else if total >= PRECONDITION_MIN_RUNS && relevant * PRECONDITION_RATIO < total {
        summary.problems.push(format!(
            "the precondition almost never holds: {relevant} of {total} runs met it. The \
             property was barely tested; weaken the precondition or generate valid inputs \
             directly (a space of valid values, or a lazy precondition that fails early)."
        ));
    }
}

#[cfg(test)]
mod shard_tests {
    //! Sharded checks against the unsharded check: the exhaustive runs,
    //! labels and random cases split exactly, on one thread or several,
    //! and each shard reports its own first counterexample as such.

    use crate::check::{label, Config, Found, Summary, Threads};
    use crate::handle::Lazy;

    /// Reads the list up to its first element above 2 and labels the run
    /// by it; passes.
    fn labelled(xs: Lazy<'_, Vec<u8>>) -> bool {
        let big = xs.iter().map(|x| x.get()).find(|&x| x > 2);
        label(format!("first big {big:?}"));
        true
    }

    /// The summaries of shards `1..=count`.
    fn shard_summaries(
        config: &Config<crate::check::OwnSpaces, Threads>,
        count: usize,
    ) -> Vec<Summary> {
        (1..=count)
            .map(|i| {
                (config.clone().shard(i, count))
                    .try_check(labelled)
                    .expect("passes")
            })
            .collect()
    }

    #[test]
    fn sharded_checks_split_runs_labels_and_random_cases_exactly() {
        // Every size to 9 exhausted, then random cases of sizes 10 to 30.
        let config = Config::default().max_size(9).samples(300, 30);
        let whole = config.try_check(labelled).expect("passes");
        assert!(whole.random > 200 && whole.labels.len() > 3, "{whole}");
        for threads in [1, 2] {
            for count in 1..=4 {
                let config = config.clone().threads(threads);
                let parts = shard_summaries(&config, count);
                let sum = |f: &dyn Fn(&Summary) -> u64| parts.iter().map(f).sum::<u64>();
                assert_eq!(
                    sum(&|s| s.runs),
                    whole.runs,
                    "{count} shards, {threads} threads"
                );
                assert_eq!(sum(&|s| s.runs_last_bound), whole.runs_last_bound);
                assert_eq!(sum(&|s| s.random), whole.random);
                assert_eq!(sum(&|s| s.labelled_runs), whole.labelled_runs);
                for (label, n) in &whole.labels {
                    let got = sum(&|s| s.labels.get(label).copied().unwrap_or(0));
                    assert_eq!(got, *n, "label {label}");
                }
                for (i, part) in parts.iter().enumerate() {
                    assert_eq!(part.exhausted, Some(9));
                    assert!(part.problems.is_empty(), "{:?}", part.problems);
                    let line = part.to_string();
                    assert_eq!(
                        line.starts_with(&format!("shard {}/{count}", i + 1)),
                        count > 1,
                        "{line}"
                    );
                    assert_eq!(line.contains("with the other shards'"), count > 1);
                }
            }
        }
    }

    #[test]
    fn a_shard_reports_the_first_counterexample_of_its_part() {
        // Fails on lists of three or more elements that are not sorted.
        let prop = |xs: Lazy<'_, Vec<u8>>| {
            let v: Vec<u8> = xs.iter().map(|x| x.get()).collect();
            v.len() < 3 || v.windows(2).all(|w| w[0] <= w[1])
        };
        let config = Config::default().samples(0, 0);
        let whole = config.try_check(prop).expect_err("fails");
        assert!(whole.is_minimal());
        for threads in [1, 2] {
            for count in 2..=4 {
                let config = config.clone().threads(threads);
                let found: Vec<_> = (1..=count)
                    .map(|i| {
                        (config.clone().shard(i, count))
                            .try_check(prop)
                            .expect_err("fails")
                    })
                    .collect();
                // No shard fails below the whole check's size, and the
                // whole check's counterexample is one shard's.
                assert!(found.iter().all(|c| c.size >= whole.size));
                assert!(found.iter().any(|c| c.value == whole.value));
                for (i, c) in found.iter().enumerate() {
                    assert!(!c.is_minimal());
                    let report = c.report();
                    let said = format!("smallest within shard {}/{count}", i + 1);
                    assert!(report.contains(&said), "{report}");
                    assert!(report.contains(&format!("coverage: shard {}/{count}", i + 1)));
                }
                // Each shard's counterexample is the same on any number of
                // threads.
                let one: Vec<_> = (1..=count)
                    .map(|i| {
                        let config = config.clone().threads(1).shard(i, count);
                        config.try_check(prop).expect_err("fails")
                    })
                    .collect();
                for (a, b) in found.iter().zip(&one) {
                    assert_eq!((&a.value, a.runs, a.size), (&b.value, b.runs, b.size));
                }
            }
        }
    }

    #[test]
    fn a_shards_counterexample_replays_and_random_ones_are_shrunk() {
        // Long lists lie past the exhaustive sizes: the random phase finds
        // them, and shrinking takes them down to twelve zeros.
        let prop = |xs: Vec<u8>| xs.len() < 12;
        let config = Config::default().max_size(8).samples(400, 40);
        let mut failed = 0;
        for i in 1..=3 {
            let config = config.clone().shard(i, 3);
            let Err(c) = config.try_check(prop) else {
                continue;
            };
            failed += 1;
            assert_eq!(c.value, vec![0; 12]);
            assert!(!c.is_minimal());
            let report = c.report();
            let ours = format!("shard {i}/3");
            assert!(report.contains(&ours), "{report}");
            // Its key replays it, in this shard as anywhere.
            let replaying = config.clone().replay(c.key.clone());
            let replayed = replaying.try_check(prop).expect_err("fails");
            assert_eq!(replayed.value, c.value);
            assert!(matches!(replayed.found, Found::Replay { from_file: false }));
        }
        assert!(failed > 0, "some shard meets a long list");
    }

    #[test]
    fn a_shard_with_no_runs_of_a_small_search_passes() {
        // `bool` has two values: shards 3 and 4 of 4 have no run.
        let config = Config::default();
        let summaries: Vec<_> = (1..=4)
            .map(|i| {
                (config.clone().shard(i, 4))
                    .try_check(|b: bool| u8::from(b) < 2)
                    .expect("passes")
            })
            .collect();
        let runs: Vec<u64> = summaries.iter().map(|s| s.runs).collect();
        assert_eq!(runs.iter().sum::<u64>(), 2);
        assert!(runs.contains(&0));
        assert!(summaries.iter().all(|s| s.problems.is_empty()));
    }
}

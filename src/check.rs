//! Counterexample search inside `cargo test`: properties, configuration
//! (in code and by environment variables), failure reports and labels.
//!
//! A property is a closure over lazy handles (`|xs: Lazy<Vec<u8>>| ...`) or
//! over plain values (`|x: u8, xs: Vec<u8>| ...`). [`check`] searches by
//! iterative deepening, so the counterexample it reports is one of the
//! smallest, and the same property and configuration always report the same
//! counterexample.

use crate::cool::{Cool, Strategy};
use crate::lazy::Lazy;
use crate::search::{Budget, Outcome, RunResult, Searcher};
use crate::Enumerable;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::{self, Debug, Write};
use std::time::{Duration, Instant};

/// How a check searches. Every field can be set in code and overridden by
/// an environment variable (so CI can search harder without code changes):
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `NEATCHECK_SIZE` | largest size bound to exhaust | 100 |
/// | `NEATCHECK_TIME` | time budget (`500ms`, `2s`, `1.5` = seconds) | 200 ms |
/// | `NEATCHECK_RUNS` | maximum number of predicate runs | unlimited |
/// | `NEATCHECK_VERBOSE` | `1`: print a summary line for passing checks | `0` |
/// | `NEATCHECK_REPLAY` | search only this size bound (re-run a reported case) | unset |
/// | `NEATCHECK_STRATEGY` | conjunction strategy for `Cool` properties | `OF` |
/// | `NEATCHECK_SAMPLES` | uniform samples per size beyond the exhausted sizes | 0 (off) |
/// | `NEATCHECK_SAMPLE_SIZE` | largest size sampled | 40 |
/// | `NEATCHECK_SEED` | seed of the sampling | fixed |
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Largest size bound searched.
    pub max_size: usize,
    /// Stop deepening when this much time has passed.
    pub time: Duration,
    /// Stop after this many runs in total.
    pub max_runs: Option<u64>,
    /// Print a summary line on success.
    pub verbose: bool,
    /// Search only this bound (set by `NEATCHECK_REPLAY`).
    pub replay: Option<usize>,
    /// Strategy for properties returning [`Cool`].
    pub strategy: Strategy,
    /// Beyond exhaustive: uniform samples to test at each size above the
    /// largest exhausted one (0: off).
    pub samples: usize,
    /// Beyond exhaustive: the largest size sampled.
    pub sample_max_size: usize,
    /// Seed of the sampling (fixed by default: checks stay deterministic).
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_size: 100,
            time: Duration::from_millis(200),
            max_runs: None,
            verbose: false,
            replay: None,
            strategy: Strategy::OF,
            samples: 0,
            sample_max_size: 40,
            seed: 0x5eed,
        }
    }
}

/// Parses a duration: `500ms`, `2s`, `1.5` (seconds), `1m`.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, unit) = match s.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, "s"),
    };
    let value: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("not a duration: {s:?} (examples: 500ms, 2s, 1.5)"))?;
    if !(value >= 0.0 && value.is_finite()) {
        return Err(format!("not a duration: {s:?}"));
    }
    let secs = match unit {
        "ms" => value / 1000.0,
        "s" => value,
        "m" | "min" => value * 60.0,
        _ => return Err(format!("unknown unit in {s:?} (ms, s, m)")),
    };
    Ok(Duration::from_secs_f64(secs))
}

impl Config {
    /// The defaults overridden by the `NEATCHECK_*` environment variables.
    ///
    /// # Panics
    /// With a clear message if a variable is set to something unreadable.
    pub fn from_env() -> Self {
        Config::default().with_env()
    }

    /// This configuration overridden by the `NEATCHECK_*` variables.
    pub fn with_env(mut self) -> Self {
        fn var(name: &str) -> Option<String> {
            std::env::var(name).ok().filter(|v| !v.trim().is_empty())
        }
        fn bad(name: &str, v: &str, why: &str) -> ! {
            panic!("neatcheck: {name}={v:?} is not valid: {why}")
        }
        if let Some(v) = var("NEATCHECK_SIZE") {
            self.max_size = v.trim().parse().unwrap_or_else(|_| {
                bad("NEATCHECK_SIZE", &v, "expected a size (a natural number)")
            });
            // An explicit size is exhausted whatever the default time budget.
            if var("NEATCHECK_TIME").is_none() {
                self.time = Duration::from_secs(24 * 3600);
            }
        }
        if let Some(v) = var("NEATCHECK_TIME") {
            self.time = parse_duration(&v).unwrap_or_else(|e| bad("NEATCHECK_TIME", &v, &e));
        }
        if let Some(v) = var("NEATCHECK_RUNS") {
            self.max_runs = Some(
                v.trim()
                    .parse()
                    .unwrap_or_else(|_| bad("NEATCHECK_RUNS", &v, "expected a number of runs")),
            );
        }
        if let Some(v) = var("NEATCHECK_VERBOSE") {
            self.verbose = !matches!(v.trim(), "0" | "false" | "no");
        }
        if let Some(v) = var("NEATCHECK_REPLAY") {
            self.replay = Some(
                v.trim()
                    .parse()
                    .unwrap_or_else(|_| bad("NEATCHECK_REPLAY", &v, "expected a size")),
            );
        }
        if let Some(v) = var("NEATCHECK_SAMPLES") {
            self.samples = v
                .trim()
                .parse()
                .unwrap_or_else(|_| bad("NEATCHECK_SAMPLES", &v, "expected a number of samples"));
        }
        if let Some(v) = var("NEATCHECK_SAMPLE_SIZE") {
            self.sample_max_size = v
                .trim()
                .parse()
                .unwrap_or_else(|_| bad("NEATCHECK_SAMPLE_SIZE", &v, "expected a size"));
        }
        if let Some(v) = var("NEATCHECK_SEED") {
            self.seed = v
                .trim()
                .parse()
                .unwrap_or_else(|_| bad("NEATCHECK_SEED", &v, "expected a number"));
        }
        if let Some(v) = var("NEATCHECK_STRATEGY") {
            self.strategy = v
                .parse()
                .unwrap_or_else(|e: String| bad("NEATCHECK_STRATEGY", &v, &e));
        }
        self
    }

    /// Sets the largest size bound.
    pub fn max_size(mut self, n: usize) -> Self {
        self.max_size = n;
        self
    }

    /// Sets the time budget.
    pub fn time(mut self, t: Duration) -> Self {
        self.time = t;
        self
    }

    /// Sets the maximum number of runs.
    pub fn max_runs(mut self, n: u64) -> Self {
        self.max_runs = Some(n);
        self
    }

    /// Prints a summary line for passing checks.
    pub fn verbose(mut self, v: bool) -> Self {
        self.verbose = v;
        self
    }

    /// Beyond exhaustive: after the time budget, tests `samples` uniform
    /// random values of each size above the largest exhausted one, up to
    /// `max_size`.
    pub fn sample_beyond(mut self, samples: usize, max_size: usize) -> Self {
        self.samples = samples;
        self.sample_max_size = max_size;
        self
    }

    /// Sets the conjunction strategy for [`Cool`] properties.
    pub fn strategy(mut self, s: Strategy) -> Self {
        self.strategy = s;
        self
    }
}

/// The result of a property run, with preconditions: see [`implies`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The property held.
    Pass,
    /// The property failed, with a description.
    Fail(String),
    /// The precondition did not hold: the run neither passes nor fails.
    Discard,
}

impl Outcome for Verdict {
    fn holds(&self) -> bool {
        !matches!(self, Verdict::Fail(_))
    }
    fn failure(&self) -> Option<String> {
        match self {
            Verdict::Fail(s) if !s.is_empty() => Some(s.clone()),
            _ => None,
        }
    }
    fn discarded(&self) -> bool {
        matches!(self, Verdict::Discard)
    }
}

/// Converts property results to a [`Verdict`].
pub trait IntoVerdict {
    /// The verdict.
    fn into_verdict(self) -> Verdict;
}

impl IntoVerdict for bool {
    fn into_verdict(self) -> Verdict {
        if self {
            Verdict::Pass
        } else {
            Verdict::Fail(String::new())
        }
    }
}

impl IntoVerdict for () {
    fn into_verdict(self) -> Verdict {
        Verdict::Pass
    }
}

impl IntoVerdict for Verdict {
    fn into_verdict(self) -> Verdict {
        self
    }
}

impl<E: Debug> IntoVerdict for Result<(), E> {
    fn into_verdict(self) -> Verdict {
        match self {
            Ok(()) => Verdict::Pass,
            Err(e) => Verdict::Fail(format!("returned Err({e:?})")),
        }
    }
}

/// A lazy precondition: `prop` runs only when `pre` holds, so a
/// precondition that reads little prunes the search. Runs where it does not
/// hold are counted apart in the report.
///
/// ```
/// use neatcheck::{implies, Lazy};
/// neatcheck::check(|xs: Lazy<Vec<bool>>| {
///     implies(!xs.is_empty(), || xs.first().is_some())
/// });
/// ```
pub fn implies<R: IntoVerdict>(pre: bool, prop: impl FnOnce() -> R) -> Verdict {
    if pre {
        prop().into_verdict()
    } else {
        Verdict::Discard
    }
}

thread_local! {
    static LABELS: RefCell<Option<Vec<String>>> = const { RefCell::new(None) };
}

/// Attaches a label to the current run (like QuickCheck's `classify`):
/// the report lists, per label, the percentage of runs (in which the
/// precondition held) that carried it. Does nothing outside a check.
pub fn label(name: impl Into<String>) {
    LABELS.with(|l| {
        if let Some(v) = l.borrow_mut().as_mut() {
            v.push(name.into());
        }
    });
}

/// Labels the current run with a value (like QuickCheck's `collect`).
pub fn collect<V: Debug>(value: V) {
    label(format!("{value:?}"))
}

/// A property over `T`, written as a closure over lazy handles or over
/// plain values (the marker `M` tells the forms apart).
pub trait Property<T, M> {
    /// Runs the property on a lazy input.
    fn run_lazy(&self, x: Lazy<'_, T>) -> Verdict;
}

/// Marker: a closure over one lazy handle.
pub struct LazyArg;
/// Marker: a closure over plain values.
pub struct PlainArgs;
/// Marker: a closure over lazy handles of several arguments.
pub struct LazyArgs;
/// Marker: a closure over a plain reference.
pub struct PlainRef;
/// Marker: a closure over one plain value.
pub struct PlainArg;

impl<T: Enumerable, R: IntoVerdict, F: Fn(T) -> R> Property<T, PlainArg> for F {
    fn run_lazy(&self, x: Lazy<'_, T>) -> Verdict {
        self(x.force()).into_verdict()
    }
}

impl<T: Enumerable, R: IntoVerdict, F: Fn(Lazy<'_, T>) -> R> Property<T, LazyArg> for F {
    fn run_lazy(&self, x: Lazy<'_, T>) -> Verdict {
        self(x).into_verdict()
    }
}

impl<T: Enumerable, R: IntoVerdict, F: Fn(&T) -> R> Property<T, PlainRef> for F {
    fn run_lazy(&self, x: Lazy<'_, T>) -> Verdict {
        self(&x.force()).into_verdict()
    }
}

macro_rules! plain_and_lazy_args {
    ($($name:ident : $idx:tt),+) => {
        impl<$($name: Enumerable,)+ R: IntoVerdict, F: Fn($($name),+) -> R>
            Property<($($name,)+), PlainArgs> for F
        {
            fn run_lazy(&self, x: Lazy<'_, ($($name,)+)>) -> Verdict {
                let v = x.force();
                self($(v.$idx),+).into_verdict()
            }
        }
        impl<$($name: Enumerable,)+ R: IntoVerdict, F: Fn($(Lazy<'_, $name>),+) -> R>
            Property<($($name,)+), LazyArgs> for F
        {
            fn run_lazy(&self, x: Lazy<'_, ($($name,)+)>) -> Verdict {
                let v = x.view();
                self($(v.$idx),+).into_verdict()
            }
        }
    };
}
plain_and_lazy_args!(A: 0, B: 1);
plain_and_lazy_args!(A: 0, B: 1, C: 2);
plain_and_lazy_args!(A: 0, B: 1, C: 2, D: 3);
plain_and_lazy_args!(A: 0, B: 1, C: 2, D: 3, E: 4);

/// What a check did, for reports and tests.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// The largest size bound searched completely.
    pub exhausted: Option<usize>,
    /// Predicate runs in total, over all bounds searched.
    pub runs: u64,
    /// Runs at the largest bound exhausted (compare with `worst_case`).
    pub runs_last_bound: u64,
    /// Runs in which the precondition held.
    pub relevant: u64,
    /// Number of values of size `<= exhausted` (the runs a non-lazy
    /// search would have needed).
    pub worst_case: String,
    /// Label counts over the relevant runs.
    pub labels: BTreeMap<String, u64>,
    /// Time spent.
    pub elapsed: Duration,
    /// Why the search stopped.
    pub stopped: Stop,
    /// Sizes tested by uniform samples after the exhausted ones: (size,
    /// number of samples).
    pub sampled: Vec<(usize, usize)>,
}

/// Why a passing check stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Every size up to the configured maximum was searched.
    MaxSize,
    /// The time budget ran out.
    Time,
    /// The run budget ran out.
    Runs,
    /// Only the replayed size was searched.
    Replay,
}

/// A failed check: the minimal counterexample and how it was found.
#[derive(Debug, Clone)]
pub struct Failure<T> {
    /// The counterexample (unread positions at their minimal values).
    pub value: T,
    /// Its printed form with unread positions as `_`.
    pub pattern: String,
    /// Its size.
    pub size: usize,
    /// Runs at its size, up to and including the failing one.
    pub runs_at_size: u64,
    /// Summary of the sizes exhausted before it.
    pub before: Summary,
    /// The panic message, if the property panicked.
    pub panic: Option<String>,
    /// The failure description (`Err` value), if any.
    pub reason: Option<String>,
    /// Whether it was found by uniform sampling beyond the exhausted sizes
    /// (then it need not be minimal).
    pub sampled: bool,
}

impl<T: Debug> Failure<T> {
    /// The failure report printed by [`check`].
    pub fn report(&self, test_name: &str) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "neatcheck: property failed");
        let _ = writeln!(s, "  counterexample (size {}): {:?}", self.size, self.value);
        if self.pattern != format!("{:?}", self.value) {
            let _ = writeln!(s, "  as read by the property:  {}", self.pattern);
            if self.pattern.contains('_') || self.pattern.contains("..") {
                let _ = writeln!(
                    s,
                    "    (`_` and `..` mark parts the property never read: any value there fails too)"
                );
            }
        }
        if let Some(p) = &self.panic {
            let _ = writeln!(s, "  the property panicked: {p}");
        } else if let Some(r) = &self.reason {
            let _ = writeln!(s, "  the property {r}");
        } else {
            let _ = writeln!(s, "  the property returned false");
        }
        match self.before.exhausted {
            Some(e) => {
                let _ = writeln!(
                    s,
                    "  sizes 0..={e} passed first: {} values covered by {} runs at bound {e} \
                     ({} runs over all bounds); then {} runs at size {}",
                    self.before.worst_case,
                    self.before.runs_last_bound,
                    self.before.runs,
                    self.runs_at_size,
                    self.size
                );
            }
            None => {
                let _ = writeln!(
                    s,
                    "  found after {} runs at size {}",
                    self.runs_at_size, self.size
                );
            }
        }
        if self.sampled {
            let _ = writeln!(
                s,
                "  found by uniform sampling at size {} (sizes above the exhausted ones are \
                 only sampled, so a smaller counterexample may exist)",
                self.size
            );
            let _ = writeln!(
                s,
                "  re-run: NEATCHECK_SAMPLES=<the same> NEATCHECK_SEED=<the same> cargo test {test_name}"
            );
            return s;
        }
        let _ = writeln!(
            s,
            "  re-run just this case: NEATCHECK_REPLAY={} cargo test {}",
            self.size, test_name
        );
        s
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.exhausted {
            Some(e) => write!(f, "sizes 0..={e} exhausted")?,
            None => write!(f, "no size exhausted")?,
        }
        write!(
            f,
            ": {} runs at the last bound (worst case {}), {} runs in all, \
             {} with the precondition holding, {:.3}s",
            self.runs_last_bound,
            self.worst_case,
            self.runs,
            self.relevant,
            self.elapsed.as_secs_f64()
        )?;
        if !self.sampled.is_empty() {
            let (lo, hi) = (self.sampled[0].0, self.sampled[self.sampled.len() - 1].0);
            write!(
                f,
                "; sizes {lo}..={hi} sampled ({} values each)",
                self.sampled[0].1
            )?;
        }
        if !self.labels.is_empty() && self.relevant > 0 {
            for (label, n) in &self.labels {
                write!(
                    f,
                    "\n  {:6.2}% {}",
                    100.0 * *n as f64 / self.relevant as f64,
                    label
                )?;
            }
        }
        Ok(())
    }
}

/// Runs a search over `T` by iterative deepening with `step` as the way to
/// run one node. Returns the summary, or a failure.
fn deepen<T: Enumerable>(
    config: &Config,
    mut step: impl FnMut(&mut Searcher<T>) -> Option<(RunResult, bool)>,
    mut replay_prop: impl FnMut(&mut Searcher<T>) -> crate::report::Pattern,
) -> Result<Summary, Box<Failure<T>>> {
    let start = Instant::now();
    let deadline = start + config.time;
    let grammar = crate::grammar::grammar_of::<T>();
    let mut summary = Summary {
        exhausted: None,
        runs: 0,
        runs_last_bound: 0,
        relevant: 0,
        worst_case: "0".into(),
        labels: BTreeMap::new(),
        elapsed: Duration::ZERO,
        stopped: Stop::MaxSize,
        sampled: vec![],
    };
    let bounds: Vec<usize> = match config.replay {
        Some(b) => vec![b],
        None => (0..=config.max_size).collect(),
    };
    LABELS.with(|l| *l.borrow_mut() = Some(vec![]));
    struct ClearLabels;
    impl Drop for ClearLabels {
        fn drop(&mut self) {
            LABELS.with(|l| *l.borrow_mut() = None);
        }
    }
    let _clear = ClearLabels;
    let budget = Budget {
        deadline: Some(deadline),
        max_runs: config.max_runs,
    };
    for bound in bounds {
        let mut s = Searcher::<T>::new(bound);
        let mut labels_here: BTreeMap<String, u64> = BTreeMap::new();
        let mut relevant_here = 0;
        loop {
            let out_of_runs = budget
                .max_runs
                .is_some_and(|m| summary.runs + s.stats().runs >= m);
            let out_of_time = s.stats().runs % 64 == 0 && Instant::now() >= deadline;
            if out_of_runs || out_of_time {
                summary.stopped = if out_of_runs { Stop::Runs } else { Stop::Time };
                summary.runs += s.stats().runs;
                summary.relevant += relevant_here;
                sample_beyond(config, &mut summary, &mut step, &mut replay_prop)?;
                summary.elapsed = start.elapsed();
                return Ok(summary);
            }
            LABELS.with(|l| {
                if let Some(v) = l.borrow_mut().as_mut() {
                    v.clear();
                }
            });
            let Some((r, discarded)) = step(&mut s) else {
                break;
            };
            let labels: Vec<String> = LABELS.with(|l| {
                l.borrow_mut()
                    .as_mut()
                    .map(std::mem::take)
                    .unwrap_or_default()
            });
            match r {
                RunResult::True => {
                    if !discarded {
                        relevant_here += 1;
                        let mut seen: Vec<&String> = vec![];
                        for l in &labels {
                            if !seen.contains(&l) {
                                seen.push(l);
                                *labels_here.entry(l.clone()).or_default() += 1;
                            }
                        }
                    }
                }
                RunResult::False(_) | RunResult::Panicked(_) => {
                    let (panic, reason) = match r {
                        RunResult::Panicked(msg) => (Some(msg), None),
                        RunResult::False(reason) => (None, reason),
                        RunResult::True => unreachable!(),
                    };
                    let pattern = replay_prop(&mut s);
                    return Err(Box::new(Failure {
                        value: s.value(),
                        pattern: s.show(&pattern),
                        size: s.size() as usize,
                        runs_at_size: s.stats().runs,
                        before: Summary {
                            elapsed: start.elapsed(),
                            ..summary
                        },
                        panic,
                        reason,
                        sampled: false,
                    }));
                }
            }
        }
        summary.runs += s.stats().runs;
        summary.relevant += relevant_here;
        for (k, v) in labels_here {
            *summary.labels.entry(k).or_default() += v;
        }
        summary.exhausted = Some(bound);
        summary.runs_last_bound = s.stats().runs;
        summary.worst_case = grammar.count_up_to(bound).to_string();
        if config.replay.is_some() {
            summary.stopped = Stop::Replay;
        }
    }
    if config.replay.is_none() {
        sample_beyond(config, &mut summary, &mut step, &mut replay_prop)?;
    }
    summary.elapsed = start.elapsed();
    Ok(summary)
}

/// The "beyond exhaustive" phase: uniform samples of each size above the
/// largest exhausted one (reproducible from the configured seed).
fn sample_beyond<T: Enumerable>(
    config: &Config,
    summary: &mut Summary,
    step: &mut impl FnMut(&mut Searcher<T>) -> Option<(RunResult, bool)>,
    replay_prop: &mut impl FnMut(&mut Searcher<T>) -> crate::report::Pattern,
) -> Result<(), Box<Failure<T>>> {
    if config.samples == 0 {
        return Ok(());
    }
    let indexer = crate::index::Indexer::<T>::new();
    let first = summary.exhausted.map_or(0, |e| e + 1);
    for size in first..=config.sample_max_size {
        // One stream per size: the samples of a size do not depend on where
        // the time budget stopped the exhaustive phase.
        let mut rng = crate::index::seeded_rng(
            config.seed ^ (size as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        );
        let mut tested = 0;
        for _ in 0..config.samples {
            let Some(tree) = indexer.sample_tree(size, &mut rng) else {
                break;
            };
            let mut s = Searcher::<T>::new(size);
            s.load(&tree);
            let Some((r, discarded)) = step(&mut s) else {
                break;
            };
            summary.runs += 1;
            tested += 1;
            if !discarded && r.is_true() {
                summary.relevant += 1;
            }
            let (panic, reason) = match r {
                RunResult::True => continue,
                RunResult::False(reason) => (None, reason),
                RunResult::Panicked(m) => (Some(m), None),
            };
            let pattern = replay_prop(&mut s);
            return Err(Box::new(Failure {
                value: s.value(),
                pattern: s.show(&pattern),
                size,
                runs_at_size: tested as u64,
                before: summary.clone(),
                panic,
                reason,
                sampled: true,
            }));
        }
        if tested > 0 {
            summary.sampled.push((size, tested));
        }
    }
    Ok(())
}

/// Runs a property and returns its summary or its failure, without
/// panicking (for embedding and for testing neatcheck itself).
pub fn run_check<T: Enumerable, M>(
    config: &Config,
    prop: impl Property<T, M>,
) -> Result<Summary, Box<Failure<T>>> {
    let discarded = std::cell::Cell::new(false);
    deepen::<T>(
        config,
        |s| {
            let r = s.step(|x| {
                let v = prop.run_lazy(x);
                discarded.set(v.discarded());
                v
            })?;
            let d = discarded.replace(false);
            Some((r, d))
        },
        |s| {
            s.pattern(|x| {
                let _ = prop.run_lazy(x);
            })
        },
    )
}

/// [`run_check`] for a property returning a [`Cool`] formula (evaluated
/// with the configured conjunction strategy).
pub fn run_check_cool<T: Enumerable, F>(
    config: &Config,
    prop: F,
) -> Result<Summary, Box<Failure<T>>>
where
    F: for<'a> Fn(Lazy<'a, T>) -> Cool<'a>,
{
    deepen::<T>(
        config,
        |s| s.step_cool(config.strategy, &prop).map(|r| (r, false)),
        |s| {
            s.pattern(|x| {
                let _ = prop(x).eval();
            })
        },
    )
}

fn test_name() -> String {
    std::thread::current()
        .name()
        .filter(|n| *n != "main")
        .map(|n| n.rsplit("::").next().unwrap_or(n).to_string())
        .unwrap_or_else(|| "<test name>".to_string())
}

fn finish<T: Debug>(config: &Config, r: Result<Summary, Box<Failure<T>>>) -> Summary {
    match r {
        Ok(summary) => {
            if summary.relevant == 0 && summary.runs > 0 {
                panic!(
                    "neatcheck: no input met the precondition: {} runs, all discarded ({}). \
                     The property was never really tested; weaken the precondition or raise \
                     NEATCHECK_SIZE / NEATCHECK_TIME.",
                    summary.runs,
                    match summary.exhausted {
                        Some(e) => format!("sizes 0..={e} exhausted"),
                        None => "no size exhausted".to_string(),
                    }
                );
            }
            if config.verbose {
                eprintln!("neatcheck: {} passed: {summary}", test_name());
            }
            summary
        }
        Err(f) => panic!("{}", f.report(&test_name())),
    }
}

/// Checks a property with the default configuration (overridden by the
/// `NEATCHECK_*` environment variables); panics with a report naming the
/// smallest counterexample if it fails.
///
/// ```
/// use neatcheck::Lazy;
/// // Lazy: the property reads only what it needs.
/// neatcheck::check(|xs: Lazy<Vec<bool>>| xs.len() < 1000);
/// // Plain values, several arguments.
/// neatcheck::check(|x: u8, y: u8| x.max(y) >= x);
/// ```
pub fn check<T: Enumerable + Debug, M>(prop: impl Property<T, M>) -> Summary {
    check_with(Config::from_env(), prop)
}

/// [`check`] with a configuration (environment variables still override it).
pub fn check_with<T: Enumerable + Debug, M>(config: Config, prop: impl Property<T, M>) -> Summary {
    let config = config.with_env();
    finish(&config, run_check(&config, prop))
}

/// [`check`] for a property returning a [`Cool`] formula.
pub fn check_cool<T: Enumerable + Debug, F>(prop: F) -> Summary
where
    F: for<'a> Fn(Lazy<'a, T>) -> Cool<'a>,
{
    let config = Config::from_env();
    finish(&config, run_check_cool(&config, prop))
}

/// Existential check: passes if some value within the configured bounds
/// satisfies `pred`, panics otherwise. Returns the smallest witness.
pub fn exists<T: Enumerable + Debug, M>(pred: impl Property<T, M>) -> T {
    let config = Config::from_env();
    let negated = |x: Lazy<'_, T>| -> Verdict {
        match pred.run_lazy(x) {
            Verdict::Pass => Verdict::Fail("satisfied".into()),
            _ => Verdict::Pass,
        }
    };
    match run_check::<T, LazyArg>(&config, negated) {
        Err(f) => f.value,
        Ok(summary) => panic!(
            "neatcheck: no value satisfies the predicate ({}, {} runs)",
            match summary.exhausted {
                Some(e) => format!("sizes 0..={e} searched"),
                None => "no size exhausted".to_string(),
            },
            summary.runs
        ),
    }
}

/// Declares property tests:
///
/// ```
/// use neatcheck::neatcheck;
/// neatcheck! {
///     /// Reversing twice is the identity.
///     fn reverse_twice(xs: Vec<u8>) -> bool {
///         let mut ys = xs.clone();
///         ys.reverse();
///         ys.reverse();
///         ys == xs
///     }
/// }
/// # reverse_twice();
/// ```
///
/// Each function becomes a test (add `#[test]` as in any test) whose body
/// runs [`check`] over its arguments; arguments may be plain values or
/// `Lazy` handles.
#[macro_export]
macro_rules! neatcheck {
    ($($(#[$attr:meta])* $vis:vis fn $name:ident($($arg:ident : $ty:ty),+ $(,)?) $(-> $ret:ty)? $body:block)*) => {
        $(
            $(#[$attr])*
            $vis fn $name() {
                $crate::check::check(|$($arg: $ty),+| $(-> $ret)? { $body });
            }
        )*
    };
}

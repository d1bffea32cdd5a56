//! Counterexample search inside `cargo test`: properties, configuration
//! (in code and by environment variables), the failure report and labels.
//!
//! A property is a closure over lazy handles (`|xs: Lazy<Vec<u8>>| ...`) or
//! over plain values (`|x: u8, xs: Vec<u8>| ...`). [`check`] runs it in
//! phases, all counted in runs so that the verdict never depends on the
//! machine or its load:
//!
//! 1. inputs saved by earlier failures of the same test (the regression
//!    file, `neatcheck-regressions/` beside the crate);
//! 2. a **random probe** of 1 000 cases of all sizes (see 4), so that a bug
//!    far past the small sizes is met before the whole exhaustive budget is
//!    spent;
//! 3. the **exhaustive phase**: every input of size 0, 1, 2, ... by lazy
//!    search, until the size bound or the run budget; a counterexample found
//!    here is a smallest one. Beside it a depth-bounded search (the
//!    portfolio, [`Config::portfolio`]) meets long but shallow
//!    counterexamples early; what it finds is reported when the size order's
//!    budget does not reach a counterexample, shrunk, saying whether it is
//!    proven smallest;
//! 4. the **random phase**: uniform inputs of growing sizes past the
//!    exhausted ones, a third of them with atoms moved to edge values
//!    (0, ±1, powers of two and their neighbours, MIN, MAX), a third with
//!    atoms drawn uniformly from their whole type. A case whose
//!    precondition ([`implies`]) is false rules out, for the later cases of
//!    its size, every input that agrees with it on the positions it read,
//!    and is drawn again ([`crate::constrained`]): cases are then uniform
//!    among the inputs that meet the precondition, found in a few draws
//!    where rejection would need millions. A failure found here (or
//!    by the probe) is shrunk through the type's description, then the sizes
//!    up to the shrunk one are searched exhaustively, so the report is the
//!    smallest counterexample in search order whenever the budget reaches
//!    it, and otherwise says how far below every input passed;
//! 5. **health checks**: a check that ran nothing, found no input meeting its
//!    precondition, or could not even finish the smallest inputs fails with
//!    a message saying what to change.
//!
//! With `NEATCHECK_SHARD=i/n` ([`Config::shard`]) a check runs shard `i` of
//! `n` of phases 2 to 4, for a CI matrix of `n` jobs: the shards' runs are
//! exactly the unsharded check's, each in one shard, and a shard reports the
//! first counterexample of its own part (`docs/spec.md#shards`).
//!
//! A failing check prints one report: the counterexample, what the property
//! read of it, how it failed, how far the search went, and a replay line
//! (`NEATCHECK_REPLAY=<key> cargo test ... -- --exact <test>`) that re-runs
//! exactly that input. With `NEATCHECK_VERBOSE=1` a passing check prints its
//! coverage line and label table (run `cargo test -- --nocapture` to see
//! it).

pub(crate) mod config;
pub(crate) mod deepen;
mod driver;
pub(crate) mod edges;
#[cfg(test)]
mod given_tests;
pub(crate) mod labels;
mod portfolio;
pub(crate) mod random;
#[cfg(test)]
mod redraw_tests;
mod regressions;

pub use crate::engine::{Outcome, RunResult};
pub use crate::outcome::{Counterexample, Found, Shard, Stop, Summary};
pub use config::{parse_duration, Config, Profile};
pub use labels::{collect, label};

use crate::cool::Cool;
use crate::describe::Space;
use crate::engine::{GrammarSource, Searcher};
use crate::grammar::Tree;
use crate::handle::Lazy;
use crate::Enumerable;
use driver::{drive, BoundEvent, Origin, Subject};
use std::fmt::{Debug, Write};
use std::panic::Location;

/// A lazy precondition: `prop` runs only when `pre` holds, so a
/// precondition that reads little prunes the search. Runs where it does not
/// hold are discarded: counted apart, never failures.
///
/// ```
/// use neatcheck::{implies, Lazy};
/// neatcheck::check(|xs: Lazy<Vec<bool>>| {
///     implies(!xs.is_empty(), || xs.first().is_some())
/// });
/// ```
pub fn implies<R: Outcome>(pre: bool, prop: impl FnOnce() -> R) -> RunResult {
    if pre {
        prop().into_result()
    } else {
        RunResult::Discarded
    }
}

/// A property over `T`, written as a closure over lazy handles or over
/// plain values (the marker `M` tells the forms apart).
///
/// Most implementations do not require `T: Enumerable` to be selected (the
/// method does): a closure over lazy handles, a reference or several plain
/// values of a type without a space is reported as that type lacking
/// `Enumerable`, not as a closure lacking `Property`. A closure over one
/// plain value or several lazy handles gets this trait's own message, which
/// says what a property takes and returns.
///
/// ```compile_fail
/// struct NotEnumerable(u8);
/// // error: this closure is not a property neatcheck can run ... every
/// // argument type needs a space ...
/// neatcheck::check(|x: NotEnumerable| x.0 < 3);
/// ```
///
/// ```compile_fail
/// struct NotEnumerable(u8);
/// // error: `NotEnumerable` is not `Enumerable` ...
/// neatcheck::check(|x: neatcheck::Lazy<NotEnumerable>| true);
/// ```
///
/// ```compile_fail
/// struct NotEnumerable(u8);
/// // error: `NotEnumerable` is not `Enumerable` ... required for
/// // `(u8, NotEnumerable)` to implement `Enumerable`
/// neatcheck::check(|x: u8, y: NotEnumerable| x < 3);
/// ```
///
/// ```compile_fail
/// // error: this closure is not a property neatcheck can run (it returns
/// // an `Option`, not an outcome)
/// neatcheck::check(|x: u8| Some(x < 3));
/// ```
#[diagnostic::on_unimplemented(
    message = "this closure is not a property neatcheck can run",
    label = "not a property",
    note = "a property takes plain values (`|x: T, y: U|`), one reference (`|x: &T|`) or lazy \
            handles (`|x: Lazy<T>, y: Lazy<U>|`) of `Enumerable` types, and returns `bool`, \
            `()`, `Result<(), E>` or `RunResult`",
    note = "every argument type needs a space: `#[derive(Enumerable)]`, or \
            `impl Enumerable` with `neatcheck::space`",
    note = "for `&str` or `&[T]`, take `String` or `Vec<T>` and borrow it: `|s: String| f(&s)`"
)]
pub trait Property<T, M> {
    /// Runs the property on a lazy input.
    fn run_lazy(&self, x: Lazy<'_, T>) -> RunResult
    where
        T: Enumerable;
}

/// Marker: a closure over one lazy handle.
#[derive(Debug)]
pub struct LazyArg;
/// Marker: a closure over plain values.
#[derive(Debug)]
pub struct PlainArgs;
/// Marker: a closure over lazy handles of several arguments.
#[derive(Debug)]
pub struct LazyArgs;
/// Marker: a closure over a plain reference.
#[derive(Debug)]
pub struct PlainRef;
/// Marker: a closure over one plain value.
#[derive(Debug)]
pub struct PlainArg;

// The one-argument plain form keeps `T: Enumerable` in its header: with a
// weaker bound a closure over `&U` would match it (as `T = &U`) as well as
// the reference form. The multi-argument plain forms bound their arguments
// by `Send` instead (which every checked input is, and a `Lazy` handle is
// not): a closure over a type without a space then selects them and is
// reported as that type lacking `Enumerable`.
impl<T: Enumerable, R: Outcome, F: Fn(T) -> R> Property<T, PlainArg> for F {
    fn run_lazy(&self, x: Lazy<'_, T>) -> RunResult
    where
        T: Enumerable,
    {
        self(x.force()).into_result()
    }
}

impl<T, R: Outcome, F: Fn(Lazy<'_, T>) -> R> Property<T, LazyArg> for F {
    fn run_lazy(&self, x: Lazy<'_, T>) -> RunResult
    where
        T: Enumerable,
    {
        self(x).into_result()
    }
}

impl<T, R: Outcome, F: Fn(&T) -> R> Property<T, PlainRef> for F {
    fn run_lazy(&self, x: Lazy<'_, T>) -> RunResult
    where
        T: Enumerable,
    {
        self(&x.force()).into_result()
    }
}

macro_rules! plain_and_lazy_args {
    ($($name:ident : $idx:tt),+) => {
        impl<$($name: Send,)+ R: Outcome, F: Fn($($name),+) -> R>
            Property<($($name,)+), PlainArgs> for F
        {
            fn run_lazy(&self, x: Lazy<'_, ($($name,)+)>) -> RunResult
            where
                ($($name,)+): Enumerable,
            {
                let v = x.force();
                self($(v.$idx),+).into_result()
            }
        }
        impl<$($name: Enumerable,)+ R: Outcome, F: Fn($(Lazy<'_, $name>),+) -> R>
            Property<($($name,)+), LazyArgs> for F
        {
            fn run_lazy(&self, x: Lazy<'_, ($($name,)+)>) -> RunResult {
                // The arguments' tuple node, read without the check that it
                // holds the tuple type's own space: `check_in` gives a
                // tuple of other spaces, one position per argument all the
                // same.
                let first = x.read_node().first_field();
                self($(x.field_at::<$name>(first, $idx)),+).into_result()
            }
        }
    };
}
plain_and_lazy_args!(A: 0, B: 1);
plain_and_lazy_args!(A: 0, B: 1, C: 2);
plain_and_lazy_args!(A: 0, B: 1, C: 2, D: 3);
plain_and_lazy_args!(A: 0, B: 1, C: 2, D: 3, E: 4);
// Names skip `F` and `R`, the macro's closure and result parameters.
plain_and_lazy_args!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5);
plain_and_lazy_args!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6);
plain_and_lazy_args!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6, I: 7);
plain_and_lazy_args!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6, I: 7, J: 8);
plain_and_lazy_args!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6, I: 7, J: 8, K: 9);
plain_and_lazy_args!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6, I: 7, J: 8, K: 9, L: 10);
plain_and_lazy_args!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6, I: 7, J: 8, K: 9, L: 10, M: 11);

/// Runs a property and returns its summary or its counterexample, without
/// panicking and without the regression file (for embedding neatcheck and
/// for testing it). Problems that would fail a [`check`] are listed in
/// [`Summary::problems`]; so is an internal error of neatcheck (an
/// inconsistent space description), with [`Summary::stopped`] at
/// [`Stop::Internal`]: it is never returned as a counterexample.
pub fn run_check<T: Enumerable + Debug + Send, M>(
    config: &Config,
    prop: impl Property<T, M> + Sync,
) -> Result<Summary, Box<Counterexample<T>>> {
    run_property(config, &prop, &Origin::default(), &GrammarSource::Canonical)
}

/// [`run_check`] for a property returning a [`Cool`] formula (evaluated
/// with the configured conjunction strategy).
pub fn run_check_cool<T: Enumerable + Debug + Send, F>(
    config: &Config,
    prop: F,
) -> Result<Summary, Box<Counterexample<T>>>
where
    F: for<'a> Fn(Lazy<'a, T>) -> Cool<'a> + Sync,
{
    run_cool(config, &prop, &Origin::default(), &GrammarSource::Canonical)
}

fn run_property<T: Enumerable + Debug + Send, M>(
    config: &Config,
    prop: &(impl Property<T, M> + Sync),
    origin: &Origin,
    source: &GrammarSource<T>,
) -> Result<Summary, Box<Counterexample<T>>> {
    let step = |s: &mut Searcher<T>| s.step(|x| prop.run_lazy(x));
    let trace = |s: &mut Searcher<T>| {
        s.pattern(|x| {
            let _ = prop.run_lazy(x);
        })
    };
    let traced = |s: &mut Searcher<T>, t: &Tree| s.run_recorded(t, |x| prop.run_lazy(x));
    run_watched(config, origin, &step, &trace, &traced, source)
}

fn run_cool<T: Enumerable + Debug + Send, F>(
    config: &Config,
    prop: &F,
    origin: &Origin,
    source: &GrammarSource<T>,
) -> Result<Summary, Box<Counterexample<T>>>
where
    F: for<'a> Fn(Lazy<'a, T>) -> Cool<'a> + Sync,
{
    let strategy = config.strategy;
    let step = |s: &mut Searcher<T>| s.step_cool(strategy, prop);
    let trace = |s: &mut Searcher<T>| {
        s.pattern(|x| {
            let _ = prop(x).eval();
        })
    };
    let traced = |s: &mut Searcher<T>, t: &Tree| s.run_recorded(t, |x| prop(x).eval());
    run_watched(config, origin, &step, &trace, &traced, source)
}

/// The driver with the check's watchdog.
fn run_watched<T: Enumerable + Debug + Send>(
    config: &Config,
    origin: &Origin,
    step: &(dyn Fn(&mut Searcher<T>) -> Option<RunResult> + Sync),
    trace: &(dyn Fn(&mut Searcher<T>) -> crate::report::Pattern + Sync),
    traced: &driver::Traced<'_, T>,
    source: &GrammarSource<T>,
) -> Result<Summary, Box<Counterexample<T>>> {
    // Reports print complete values of unnamed alternatives through `Debug`.
    crate::describe::show_with_debug::<T>();
    // The watchdog rebuilds a hung input under the mode it starts in.
    let _integers = config.integers.map(crate::describe::ModeScope::enter);
    let watchdog = start_watchdog::<T>(config, origin, source);
    let subject = Subject {
        step,
        trace,
        traced,
        watchdog: watchdog.as_ref(),
        source,
    };
    drive(config, &subject, origin, &mut |_| {})
}

/// Iterative deepening for `search::test_for`: the driver with a time
/// budget, printing one line per bound.
pub(crate) fn deepen_for<T: Enumerable + Debug + Send>(
    step: &(dyn Fn(&mut Searcher<T>) -> Option<RunResult> + Sync),
    trace: &(dyn Fn(&mut Searcher<T>) -> crate::report::Pattern + Sync),
    traced: &driver::Traced<'_, T>,
    threads: usize,
    budget: std::time::Duration,
) -> Option<Counterexample<T>> {
    let config = Config {
        max_size: usize::MAX,
        runs: u64::MAX,
        samples: 0,
        threads,
        time: Some(budget),
        run_timeout: None,
        regressions: false,
        ..Config::default()
    };
    let g = crate::types::grammar_of::<T>();
    let mut print = |e: BoundEvent<'_>| match e {
        BoundEvent::Passed { bound, runs } => println!(
            "size {bound}: {runs} runs (worst case {})",
            g.count_up_to(bound)
        ),
        BoundEvent::Failed {
            bound,
            runs,
            pattern,
        } => println!("size {bound}: counterexample after {runs} runs: {pattern}"),
        BoundEvent::Cut { bound, runs } => println!("size {bound}: out of time after {runs} runs"),
        BoundEvent::DepthFound {
            depth,
            runs,
            size,
            pattern,
        } => println!(
            "depth {depth}: counterexample of size {size} after {runs} runs: {pattern} \
             (searching smaller sizes)"
        ),
    };
    let subject = Subject {
        step,
        trace,
        traced,
        watchdog: None,
        source: &GrammarSource::Canonical,
    };
    drive(&config, &subject, &Origin::default(), &mut print)
        .err()
        .map(|c| *c)
}

/// The per-run watchdog of a check: it reports a run past the per-run
/// limit (if there is one) and a run that crashed the process (always,
/// where signals allow: `crate::crash`).
fn start_watchdog<T: Enumerable + Debug>(
    config: &Config,
    origin: &Origin,
    source: &GrammarSource<T>,
) -> Option<crate::watchdog::Watchdog> {
    let limit = config.run_timeout;
    let header = match (origin.test.as_deref(), origin.file) {
        (Some(t), Some(f)) => format!("property `{t}` in {f}"),
        (Some(t), None) => format!("property `{t}`"),
        (None, Some(f)) => format!("property in {f}"),
        (None, None) => "property (run outside a test)".to_string(),
    };
    Some(crate::watchdog::start_for::<T>(
        limit,
        header,
        source.clone(),
    ))
}

/// The origin of a check called from a test.
fn origin_here(location: &'static Location<'static>) -> Origin {
    Origin {
        test: std::thread::current()
            .name()
            .filter(|n| *n != "main")
            .map(str::to_string),
        file: Some(location.file()),
    }
}

/// `cargo test` arguments that select exactly this test.
fn cargo_test_args(origin: &Origin) -> String {
    let target = match origin.file {
        Some(f) if f.starts_with("tests/") || f.contains("/tests/") => {
            // `tests/foo.rs` is target `foo`; every file under `tests/foo/`
            // belongs to target `foo` (a test binary with modules).
            let rest = &f[f.rfind("tests/").map_or(0, |i| i + "tests/".len())..];
            let target = match rest.split_once('/') {
                Some((dir, _)) => dir,
                None => rest.strip_suffix(".rs").unwrap_or(rest),
            };
            format!(" --test {target}")
        }
        Some(f) if f.starts_with("src/") || f.contains("/src/") => " --lib".to_string(),
        _ => String::new(),
    };
    match &origin.test {
        Some(t) => format!("{target} -- --exact {t}"),
        None => target,
    }
}

/// The failure report of a check.
fn report<T: Debug>(
    c: &Counterexample<T>,
    origin: &Origin,
    location: Option<&Location<'_>>,
) -> String {
    let mut s = String::new();
    match location {
        Some(at) => writeln!(s, "neatcheck: property failed ({at})"),
        None => writeln!(s, "neatcheck: property failed"),
    }
    .expect("writing to a string");
    let debug = if c.too_deep_for_debug() {
        let _ = writeln!(
            s,
            "  counterexample (size {}, nested {} deep): {}",
            c.size, c.depth, c.shown
        );
        let _ = writeln!(
            s,
            "    (printed by neatcheck, not with `Debug`: a value nested more than {} deep \
             could overflow the stack)",
            Counterexample::<T>::DEBUG_DEPTH
        );
        c.shown.clone()
    } else {
        // A `Debug` that panics or writes megabytes leaves the constructor
        // form and the replay line below intact.
        let debug = crate::report::debug_for_report(&c.value);
        let _ = writeln!(s, "  counterexample (size {}): {debug}", c.size);
        debug
    };
    if c.pattern != debug {
        let _ = writeln!(s, "  as read by the property:  {}", c.pattern);
        if c.pattern.contains('_') || c.pattern.contains("..") {
            let _ = writeln!(
                s,
                "    (`_` and `..` mark parts the property never read: any value there fails too)"
            );
        }
    }
    match (&c.reason, c.panicked, &c.panic_location) {
        (Some(m), true, Some(at)) => {
            let _ = writeln!(s, "  the property panicked at {at}: {m}");
        }
        (Some(m), true, None) => {
            let _ = writeln!(s, "  the property panicked: {m}");
        }
        (Some(r), false, _) => {
            let _ = writeln!(s, "  the property {r}");
        }
        _ => {
            let _ = writeln!(s, "  the property returned false");
        }
    }
    if let Some(second) = &c.not_reproduced {
        let _ = writeln!(
            s,
            "  NOT REPRODUCIBLE: run again on the same input, the property {second}; it depends \
             on more than its input (global state, the clock, randomness), so this input is \
             not a minimal counterexample and its replay line may pass"
        );
    }
    match &c.found {
        _ if c.not_reproduced.is_some() => {}
        Found::Exhaustive if c.summary.part().is_some() => {
            let _ = writeln!(
                s,
                "  smallest within shard {} (NEATCHECK_SHARD / Config::shard): every smaller \
                 input of this shard passed (found after {} of its runs at size {}); another \
                 shard may hold an earlier counterexample of this size or a smaller one",
                c.summary.shard.expect("a shard"),
                c.runs,
                c.size
            );
        }
        Found::Exhaustive => {
            let _ = writeln!(
                s,
                "  minimal: every smaller input passed (found after {} runs at size {})",
                c.runs, c.size
            );
        }
        Found::Random {
            sampled_size,
            shrink_attempts,
            shrink_steps,
            passed_up_to,
        }
        | Found::EdgeSweep {
            sampled_size,
            shrink_attempts,
            shrink_steps,
            passed_up_to,
            ..
        } => {
            let phase = if matches!(c.found, Found::Random { .. }) {
                "the random phase"
            } else {
                "the edge sweep"
            };
            let _ = write!(
                s,
                "  found by {phase} (case {}, size {sampled_size}), shrunk to size {} in \
                 {shrink_steps} steps ({shrink_attempts} candidates tried); ",
                c.runs, c.size
            );
            let _ = match passed_up_to {
                Some(p) if c.summary.part().is_some() => writeln!(
                    s,
                    "every input of shard {} of size <= {p} passed; another shard may hold a \
                     smaller counterexample",
                    c.summary.shard.expect("a shard")
                ),
                Some(p) if *p as u64 + 1 >= c.size => {
                    writeln!(s, "minimal: every smaller input passed")
                }
                Some(p) => writeln!(
                    s,
                    "every input of size <= {p} passed, so a smaller counterexample may exist \
                     (sizes {}..={})",
                    p + 1,
                    c.size - 1
                ),
                None => writeln!(s, "smaller inputs were not all tested"),
            };
        }
        Found::Depth {
            depth,
            found_size,
            shrink_attempts,
            shrink_steps,
            passed_up_to,
        } => {
            let _ = write!(
                s,
                "  found by the depth-bounded search (depth {depth}, size {found_size}, after {} \
                 runs), shrunk to size {} in {shrink_steps} steps ({shrink_attempts} candidates \
                 tried); ",
                c.runs, c.size
            );
            let _ = match passed_up_to {
                Some(p) if *p as u64 + 1 >= c.size => {
                    writeln!(s, "size-minimal: proven (every smaller input passed)")
                }
                Some(p) => writeln!(
                    s,
                    "size-minimal: not proven (the budget ran out at size {}: sizes {}..={} \
                     were not all tested)",
                    p + 1,
                    p + 1,
                    c.size - 1
                ),
                None => writeln!(
                    s,
                    "size-minimal: not proven (the budget ran out before any size was complete)"
                ),
            };
        }
        Found::Replay { from_file: true } => {
            let _ = writeln!(
                s,
                "  replayed from the regression file (a failure saved by an earlier run)"
            );
        }
        Found::Replay { from_file: false } => {
            let _ = writeln!(s, "  replayed from NEATCHECK_REPLAY");
        }
    }
    let _ = writeln!(s, "  coverage: {}", c.summary);
    if !c.key.is_empty() {
        let _ = writeln!(
            s,
            "  replay: NEATCHECK_REPLAY={} cargo test{}",
            c.key,
            cargo_test_args(origin)
        );
    }
    s
}

impl<T: Debug> Counterexample<T> {
    /// The failure report [`check`] prints (without the test's name and
    /// location, which only `check` knows).
    pub fn report(&self) -> String {
        report(self, &Origin::default(), None)
    }
}

#[track_caller]
fn finish<T: Debug>(
    config: &Config,
    origin: &Origin,
    location: &'static Location<'static>,
    result: Result<Summary, Box<Counterexample<T>>>,
) -> Summary {
    finish_with(config, origin, location, result, &|_| String::new())
}

/// [`finish`], with `more` appended to a failure report (what a caller on
/// top of `check` knows of the counterexample: a state machine's steps).
#[track_caller]
fn finish_with<T: Debug>(
    config: &Config,
    origin: &Origin,
    location: &'static Location<'static>,
    result: Result<Summary, Box<Counterexample<T>>>,
    more: &dyn Fn(&Counterexample<T>) -> String,
) -> Summary {
    match result {
        Ok(summary) => {
            if summary.stopped == Stop::Internal {
                // Not a counterexample, and not a problem of the check's
                // configuration: neatcheck itself failed.
                let mut s = format!("{}\n", summary.problems.join("\n"));
                let _ = writeln!(s, "  in the check at {location}");
                let _ = writeln!(s, "  coverage: {summary}");
                panic!("{s}");
            }
            if !summary.problems.is_empty() {
                let mut s = format!("neatcheck: the check is not meaningful ({location})\n");
                for p in &summary.problems {
                    let _ = writeln!(s, "  - {p}");
                }
                let _ = writeln!(s, "  coverage: {summary}");
                panic!("{s}");
            }
            if config.verbose {
                eprintln!(
                    "neatcheck: {} passed in {:.3}s: {summary}",
                    origin.test.as_deref().unwrap_or("property"),
                    summary.elapsed.as_secs_f64()
                );
            }
            summary
        }
        Err(c) => {
            let mut text = report(&c, origin, Some(location));
            text.push_str(&more(&c));
            if !matches!(c.found, Found::Replay { .. }) {
                if let Some(path) = regressions::save(config, origin, &c.key, &c.shown) {
                    let _ = writeln!(
                        text,
                        "  saved in {}: it runs first next time",
                        path.display()
                    );
                }
            }
            c.discard();
            panic!("{text}")
        }
    }
}

/// Checks a property with the default configuration (overridden by the
/// `NEATCHECK_*` environment variables); panics with a report naming the
/// smallest counterexample if it fails, or saying why a pass would mean
/// nothing (no runs, no values, a precondition that never holds).
///
/// ```
/// use neatcheck::Lazy;
/// // Lazy: the property reads only what it needs.
/// neatcheck::check(|xs: Lazy<Vec<bool>>| xs.len() < 1000);
/// // Plain values, several arguments.
/// neatcheck::check(|x: u8, y: u8| x.max(y) >= x);
/// ```
#[track_caller]
pub fn check<T: Enumerable + Debug + Send, M>(prop: impl Property<T, M> + Sync) -> Summary {
    check_with(Config::default(), prop)
}

/// [`check`] with a configuration (environment variables still override it).
#[track_caller]
pub fn check_with<T: Enumerable + Debug + Send, M>(
    config: Config,
    prop: impl Property<T, M> + Sync,
) -> Summary {
    check_from(config, &prop, &GrammarSource::Canonical, Location::caller())
}

/// The body of [`check_with`] and [`check_in_with`]: the property over the
/// source's space, with the environment, the regression file and the report
/// of the caller at `location`.
fn check_from<T: Enumerable + Debug + Send, M>(
    config: Config,
    prop: &(impl Property<T, M> + Sync),
    source: &GrammarSource<T>,
    location: &'static Location<'static>,
) -> Summary {
    let config = config.with_env();
    let origin = origin_here(location);
    let result = run_property(&config, prop, &origin, source);
    finish(&config, &origin, location, result)
}

/// [`check_with`] for a layer above `check` (a state machine): the
/// configuration with the environment, `problems` adding to a pass's health
/// checks, and `more` to a failure's report.
#[track_caller]
pub(crate) fn check_extended<T: Enumerable + Debug + Send, M>(
    config: Config,
    prop: &(impl Property<T, M> + Sync),
    problems: &dyn Fn(&Summary) -> Vec<String>,
    more: &dyn Fn(&Counterexample<T>) -> String,
) -> Summary {
    let location = Location::caller();
    let config = config.with_env();
    let origin = origin_here(location);
    let result = run_property(&config, prop, &origin, &GrammarSource::Canonical).map(|mut s| {
        if s.stopped != Stop::Internal {
            s.problems.extend(problems(&s));
        }
        s
    });
    finish_with(&config, &origin, location, result, more)
}

/// [`check`] over the values of given spaces instead of the arguments'
/// own: a custom generator per argument, with no newtype. `spaces` makes a
/// [`Space`] of the input, or a tuple of spaces, one per argument (each
/// argument is then one position of its own space). It is called once per
/// thread the check uses, so it must not capture thread-bound data.
///
/// Arguments stay lazily readable (`get`, `force`, and `view` where the
/// space has the type's own structure) and counterexamples print as values.
///
/// ```
/// use neatcheck::{space, Lazy};
/// // Keys from a small range, lists of any bytes.
/// neatcheck::check_in(
///     || (space::range(-3, 3, |k| k), space::of::<Vec<u8>>()),
///     |k: Lazy<i64>, xs: Lazy<Vec<u8>>| (-3..=3).contains(&k.get()) || xs.len() > 100,
/// );
/// ```
#[track_caller]
pub fn check_in<T, S, M>(
    spaces: impl Fn() -> S + Send + Sync + 'static,
    prop: impl Property<T, M> + Sync,
) -> Summary
where
    T: Enumerable + Debug + Send,
    S: Spaces<T>,
{
    check_in_with(Config::default(), spaces, prop)
}

/// [`check_in`] with a configuration (environment variables still override
/// it).
#[track_caller]
pub fn check_in_with<T, S, M>(
    config: Config,
    spaces: impl Fn() -> S + Send + Sync + 'static,
    prop: impl Property<T, M> + Sync,
) -> Summary
where
    T: Enumerable + Debug + Send,
    S: Spaces<T>,
{
    let source = GrammarSource::given(move || spaces().into_space());
    check_from(config, &prop, &source, Location::caller())
}

/// [`run_check`] over given spaces (see [`check_in`]).
pub fn run_check_in<T, S, M>(
    config: &Config,
    spaces: impl Fn() -> S + Send + Sync + 'static,
    prop: impl Property<T, M> + Sync,
) -> Result<Summary, Box<Counterexample<T>>>
where
    T: Enumerable + Debug + Send,
    S: Spaces<T>,
{
    let source = GrammarSource::given(move || spaces().into_space());
    run_property(config, &prop, &Origin::default(), &source)
}

/// The input spaces of [`check_in`]: a [`Space`] of the whole input, or a
/// tuple of spaces, one per argument of the property.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not describe the arguments of a property",
    note = "give a `Space<T>` of the input, or a tuple of spaces, one per argument: \
            `|| (space::range(0, 9, |x| x), space::of::<Vec<u8>>())`"
)]
pub trait Spaces<T> {
    /// The space of the whole input.
    fn into_space(self) -> Space<T>;
}

impl<T> Spaces<T> for Space<T> {
    fn into_space(self) -> Space<T> {
        self
    }
}

macro_rules! spaces_tuple {
    ($($name:ident : $idx:tt),+) => {
        impl<$($name: 'static),+> Spaces<($($name,)+)> for ($(Space<$name>,)+) {
            fn into_space(self) -> Space<($($name,)+)> {
                crate::describe::label(
                    crate::describe::Shape::Tuple,
                    crate::describe::product_with(
                        vec![$(crate::describe::field_with(self.$idx)),+],
                        |f| ($(f.take::<$name>(),)+),
                    ),
                )
            }
        }
    };
}
spaces_tuple!(A: 0, B: 1);
spaces_tuple!(A: 0, B: 1, C: 2);
spaces_tuple!(A: 0, B: 1, C: 2, D: 3);
spaces_tuple!(A: 0, B: 1, C: 2, D: 3, E: 4);
spaces_tuple!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5);
spaces_tuple!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6);
spaces_tuple!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6, I: 7);
spaces_tuple!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6, I: 7, J: 8);
spaces_tuple!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6, I: 7, J: 8, K: 9);
spaces_tuple!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6, I: 7, J: 8, K: 9, L: 10);
spaces_tuple!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6, I: 7, J: 8, K: 9, L: 10, M: 11);

/// [`check`] for a property returning a [`Cool`] formula.
#[track_caller]
pub fn check_cool<T: Enumerable + Debug + Send, F>(prop: F) -> Summary
where
    F: for<'a> Fn(Lazy<'a, T>) -> Cool<'a> + Sync,
{
    check_cool_with(Config::default(), prop)
}

/// [`check_cool`] with a configuration (environment variables still
/// override it).
#[track_caller]
pub fn check_cool_with<T: Enumerable + Debug + Send, F>(config: Config, prop: F) -> Summary
where
    F: for<'a> Fn(Lazy<'a, T>) -> Cool<'a> + Sync,
{
    let location = Location::caller();
    let config = config.with_env();
    let origin = origin_here(location);
    let result = run_cool(&config, &prop, &origin, &GrammarSource::Canonical);
    finish(&config, &origin, location, result)
}

/// Existential check: passes if some value within the configured budget
/// satisfies `pred`, panics otherwise. Returns the smallest witness found
/// by the exhaustive phase (or a shrunk one from the random phase).
/// `NEATCHECK_SHARD` does not apply: every job searches the whole space.
#[track_caller]
pub fn exists<T: Enumerable + Debug + Send, M>(pred: impl Property<T, M> + Sync) -> T {
    // A witness is in one shard only: no shard alone could say there is
    // none, so an existential check searches whole under NEATCHECK_SHARD.
    let config = Config {
        shard: None,
        ..Config::from_env()
    };
    let negated = |x: Lazy<'_, T>| match pred.run_lazy(x) {
        RunResult::True => RunResult::False(Some("satisfied".into())),
        _ => RunResult::True,
    };
    match run_check::<T, LazyArg>(&config, negated) {
        Err(c) => c.value,
        Ok(summary) if summary.stopped == Stop::Internal => panic!("{}", summary.problems[0]),
        Ok(summary) => panic!("neatcheck: no value satisfies the predicate ({summary})"),
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

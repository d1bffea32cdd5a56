//! Exploration with no property (IRULAN): calls the functions of an API on
//! every input up to a size, by lazy search, and reports the inputs that
//! make them panic, grouped by where the panic comes from. Owns the
//! builder ([`Explorer`], [`crate::explore!`]), the report
//! ([`Exploration`]), the per-call budgets of time and allocation
//! ([`crate::counting_allocator!`]) and the reproduction helpers
//! ([`call_at`], [`call_sequence_at`]).
//!
//! Programs are full of implicit tests: `unwrap`s, index bounds, arithmetic
//! overflow, assertions, `unreachable!`. An exploration needs no property:
//! a call fails when it panics.
//!
//! A function of one or two arguments that borrows them (`&str`, `&[T]`,
//! `&T`) is explored as it is, named directly: the search enumerates the
//! owned forms (`String`, `Vec<T>`, `T`) and each call borrows them, so its
//! reproducing test calls it by name too. A higher-order function's
//! argument `&dyn Fn(&A) -> B` ranges over [`Fun<A, B>`](crate::Fun), the
//! functions of case distinctions and constants, printed as a `match`.
//!
//! Each function's inputs are explored size by size up to the largest size
//! ([`Explorer::max_size`]), then, as in a check, a depth-bounded search,
//! an edge sweep and random cases call larger inputs
//! ([`Explorer::random_cases`]): a site found there is not proven to have
//! the smallest input.
//!
//! ```
//! use neatcheck::explore::PanicKind;
//!
//! fn middle(xs: Vec<u8>) -> u8 {
//!     xs[xs.len() / 2]
//! }
//! fn halve(a: i8, b: i8) -> i8 {
//!     a / b
//! }
//!
//! let report = neatcheck::explore!(middle, halve).max_size(12).run();
//! let kinds: Vec<PanicKind> = report.sites.iter().map(|s| s.kind).collect();
//! assert_eq!(
//!     kinds,
//!     [PanicKind::Index, PanicKind::DivisionByZero, PanicKind::Overflow]
//! );
//! assert_eq!(report.sites[0].smallest.input, "middle([])");
//! assert_eq!(report.sites[1].smallest.input, "halve(0, 0)");
//! assert_eq!(report.sites[2].smallest.input, "halve(-128, -1)");
//! ```
//!
//! # What is reported
//!
//! Failures are grouped by the panic's location (`file:line:column`, from
//! the panic hook) and its [`PanicKind`] (read from the message). Each
//! [`Site`] has the smallest input found, how many calls reached it (one
//! per class of inputs the lazy search told apart), and a ready-to-paste
//! `#[test]` that calls the function on that input again ([`call_at`]).
//! The search deepens by size, so the smallest input of a site is a
//! smallest one of all the inputs of every explored function
//! ([`Smallest::minimal`] says when a call over budget leaves that open).
//!
//! # Budgets
//!
//! * **Runs**: each function is called on at most
//!   [`Explorer::max_runs`] new inputs (default 100 000); sizes are tried
//!   in increasing order, so the sizes below the one it stopped in are
//!   exhausted.
//! * **Time** per call (default 10 s, as a check's per-run limit;
//!   [`Explorer::time_budget`]): a call that has not returned by then is
//!   reported as an [`Overrun`], never as a panic site, and the exploration
//!   goes on. The report says that a time limit was applied. A result
//!   depends on time only through this budget, which the user sets.
//! * **Allocation** per call (opt-in, [`Explorer::alloc_budget`]): the
//!   bytes a call holds on its thread, counted by the allocator of
//!   [`crate::counting_allocator!`], which the test binary must declare.
//!
//! Rust can not stop a thread: a call over budget is left where it is (a
//! looping call spins on; an allocating one sleeps inside the allocator,
//! holding at most its budget), its worker thread is abandoned, and a fresh
//! worker goes on after it, skipping every input the stuck call stood for.
//! At most [`Explorer::max_abandoned`] threads are abandoned (default 8);
//! past that the exploration stops and says so.
//!
//! A call that kills the process (a stack overflow, `abort()`, an
//! allocation that failed, a memory fault) is reported as a failure site of
//! kind [`PanicKind::StackOverflow`] or [`PanicKind::Crash`], with its input
//! and replay key, like a panic; its thread is abandoned the same way, and
//! the exploration goes on with the next function (the rest of the crashing
//! one is skipped, as each crash holds a thread and its stack for good).
//! Fatal signals are caught on Linux, Android and macOS only.
//!
//! # Stateful APIs
//!
//! [`Explorer::sequence`] explores a value built by a constructor and then
//! changed by a list of operations (an `Enumerable` type of the user's,
//! usually an enum with one variant per method), enumerated by size. The
//! list is read lazily, one operation per call of the step: a sequence
//! that panics at its second operation stands for every sequence that
//! begins the same way.

pub mod alloc;
mod kind;
mod run;
mod target;

pub use kind::{Location, PanicKind};
pub use target::{forms, Callable};

use crate::engine::{RunResult, Searcher};
use crate::handle::Lazy;
use crate::types::Enumerable;
use run::{Event, Overran, Sink};
use std::collections::HashMap;
use std::fmt::{self, Debug, Write as _};
use std::sync::Arc;
use std::time::Duration;
use target::{Shape, Target, Typed};

/// The default per-call time budget (as a check's default per-run limit).
pub const DEFAULT_TIME_BUDGET: Duration = Duration::from_secs(10);
const DEFAULT_MAX_SIZE: usize = 10;
const DEFAULT_MAX_RUNS: u64 = 100_000;
const DEFAULT_MAX_ABANDONED: usize = 8;

/// The limits of an exploration (shared with its worker threads).
#[derive(Clone, Debug)]
pub(crate) struct Settings {
    pub(crate) max_size: usize,
    /// Random cases past the exhausted sizes (as a check's random phase),
    /// after the edge sweep of up to five times as many inputs.
    pub(crate) samples: u64,
    pub(crate) max_runs: Option<u64>,
    pub(crate) time: Option<Duration>,
    pub(crate) alloc: Option<u64>,
    pub(crate) max_abandoned: usize,
}

/// An exploration being set up: the functions to call and the limits.
/// [`Explorer::run`] explores them and returns the report;
/// [`Explorer::check`] panics with it when a call panicked (for
/// `cargo test`).
pub struct Explorer {
    targets: Vec<Box<dyn Target>>,
    settings: Settings,
}

impl Debug for Explorer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.targets.iter().map(|t| t.name()).collect();
        f.debug_struct("Explorer")
            .field("targets", &names)
            .field("settings", &self.settings)
            .finish()
    }
}

impl Default for Explorer {
    fn default() -> Self {
        Explorer::new()
    }
}

impl Explorer {
    /// An exploration of nothing yet, with the default limits.
    pub fn new() -> Self {
        Explorer {
            targets: vec![],
            settings: Settings {
                max_size: DEFAULT_MAX_SIZE,
                samples: crate::check::settings::DEFAULT_SAMPLES,
                max_runs: Some(DEFAULT_MAX_RUNS),
                time: Some(DEFAULT_TIME_BUDGET),
                alloc: None,
                max_abandoned: DEFAULT_MAX_ABANDONED,
            },
        }
    }

    /// Adds a function, called `name` in reports and in the reproducing
    /// tests, which pass `name` to [`call_at`] as written: a path to the
    /// function, or the source of a closure that captures nothing (what
    /// [`crate::explore!`] gives), makes them ready to paste. See
    /// [`Callable`] for the forms it may take.
    pub fn function<T: Enumerable + Debug, M>(
        mut self,
        name: &str,
        f: impl Callable<T, M>,
    ) -> Self {
        let arity = arity_of::<M>();
        let shown = callee(name);
        self.targets.push(Box::new(Typed {
            name: name.to_string(),
            shape: Shape::Function,
            show: Box::new(move |x: &T| {
                // A `Debug` that panics or writes megabytes leaves the site
                // and its key intact.
                let args = crate::report::debug_for_report(x);
                if arity > 1 {
                    format!("{shown}{args}")
                } else {
                    format!("{shown}({args})")
                }
            }),
            stand_in: |x: Lazy<'_, T>, _| drop(x.force()),
            f: move |x: Lazy<'_, T>| f.call_lazy(x),
        }));
        self
    }

    /// Adds a stateful API: a value built by `constructor` (named
    /// `constructor_name`) from its arguments, then `step` (named
    /// `step_name`) applied to it with each operation of a list in turn.
    /// Constructor arguments and lists are enumerated by size; the list is
    /// read one operation at a time. A panic of the constructor or of any
    /// step is a failure.
    pub fn sequence<C, S, Op, R>(
        mut self,
        constructor_name: &str,
        constructor: impl Fn(C) -> S + Send + Sync + 'static,
        step_name: &str,
        step: impl Fn(&mut S, Op) -> R + Send + Sync + 'static,
    ) -> Self
    where
        C: Enumerable + Debug,
        Op: Enumerable + Debug,
    {
        let (ctor, stepper) = (constructor_name.to_string(), step_name.to_string());
        self.targets.push(Box::new(Typed {
            name: format!("{ctor} then {stepper}"),
            shape: Shape::Sequence {
                constructor: ctor.clone(),
                step: stepper,
            },
            show: Box::new(move |x: &(C, Vec<Op>)| {
                format!(
                    "{ctor}({}) then {}",
                    crate::report::debug_for_report(&x.0),
                    crate::report::debug_for_report(&x.1)
                )
            }),
            stand_in: stand_in_sequence::<C, Op>,
            f: move |x: Lazy<'_, (C, Vec<Op>)>| run_sequence(x, &constructor, &step),
        }));
        self
    }

    /// Explores inputs up to this size (default 10).
    pub fn max_size(mut self, size: usize) -> Self {
        self.settings.max_size = size;
        self
    }

    /// Sets how many random cases each function gets once its sizes up to
    /// the largest are explored (default 150, as a check's; 0 turns the
    /// phase off). They come after a depth-bounded search of up to twice
    /// as many calls (a check's portfolio order: long inputs of small
    /// parts, such as a list counting up to five) and an edge sweep of up
    /// to five times as many inputs (numbers and characters set to their
    /// types' edge values); all report only inputs larger than the sizes
    /// explored: a panic at `2^42` or `i64::MIN` is met without exploring
    /// that far. All are in a fixed order (the random cases from a fixed
    /// seed), so an exploration is the same every time.
    pub fn random_cases(mut self, cases: u64) -> Self {
        self.settings.samples = cases;
        self
    }

    /// Calls each function on at most this many new inputs (`None`: no
    /// limit; default 100 000).
    pub fn max_runs(mut self, runs: Option<u64>) -> Self {
        self.settings.max_runs = runs;
        self
    }

    /// The time a call may take before it is reported as an [`Overrun`]
    /// and left behind (`None`: no limit, a looping call then hangs the
    /// exploration; default [`DEFAULT_TIME_BUDGET`]).
    pub fn time_budget(mut self, budget: Option<Duration>) -> Self {
        self.settings.time = budget;
        self
    }

    /// The bytes a call may hold on its thread before it is reported as
    /// an [`Overrun`] and left behind (`None`, the default: no limit).
    /// Needs [`crate::counting_allocator!`] in the binary; without it the
    /// report lists a problem and nothing is counted.
    pub fn alloc_budget(mut self, bytes: Option<u64>) -> Self {
        self.settings.alloc = bytes;
        self
    }

    /// How many worker threads, each stuck in a call over budget, may be
    /// abandoned before the exploration stops (default 8).
    pub fn max_abandoned(mut self, threads: usize) -> Self {
        self.settings.max_abandoned = threads;
        self
    }

    /// Explores every function in the order they were added.
    pub fn run(self) -> Exploration {
        let mut report = Collector {
            names: self.targets.iter().map(|t| t.name().to_string()).collect(),
            shapes: self.targets.iter().map(|t| t.shape().clone()).collect(),
            index: HashMap::new(),
            out: Exploration {
                sites: vec![],
                overruns: vec![],
                targets: self
                    .targets
                    .iter()
                    .map(|t| TargetSummary {
                        name: t.name().to_string(),
                        runs: 0,
                        sizes_done: None,
                        complete: false,
                    })
                    .collect(),
                problems: vec![],
                time_budget: self.settings.time,
                alloc_budget: self.settings.alloc,
            },
        };
        let mut settings = self.settings.clone();
        if settings.alloc.is_some() && !alloc::counting_allocator_installed() {
            report.problem(
                "neatcheck: an allocation budget was set but the counting allocator is not \
                 installed (add `neatcheck::counting_allocator!();` to the test binary): \
                 allocations are not limited"
                    .to_string(),
            );
            settings.alloc = None;
            report.out.alloc_budget = None;
        }
        let targets = Arc::new(self.targets);
        run::explore(&targets, &settings, &mut report);
        let mut out = report.out;
        for s in &mut out.sites {
            let below = out
                .overruns
                .iter()
                .filter(|o| o.target == s.smallest.target)
                .map(|o| o.size)
                .min();
            s.smallest.minimal &= below.is_none_or(|b| s.smallest.size <= b);
        }
        out
    }

    /// Explores and panics with the report if a call panicked, went over
    /// a budget, or the exploration had a problem (for `cargo test`).
    pub fn check(self) -> Exploration {
        let report = self.run();
        if !report.is_clean() {
            panic!("{}", report.details());
        }
        report
    }
}

fn arity_of<M>() -> usize {
    use std::any::type_name;
    // The marker names the form; the arity only matters for printing.
    let marker = type_name::<M>();
    if marker.ends_with("PlainArgs")
        || marker.ends_with("LazyArgs")
        || marker.contains("BorrowedArgs<")
    {
        2
    } else {
        1
    }
}

fn run_sequence<C: Enumerable, S, Op: Enumerable, R>(
    x: Lazy<'_, (C, Vec<Op>)>,
    constructor: &impl Fn(C) -> S,
    step: &impl Fn(&mut S, Op) -> R,
) {
    let first = x.read_node().first_field();
    let c: Lazy<'_, C> = x.field_at(first, 0);
    let ops: Lazy<'_, Vec<Op>> = x.field_at(first, 1);
    let mut value = constructor(c.force());
    for (k, op) in (1..).zip(ops.iter()) {
        let op = op.force();
        run::at_step(k);
        drop(step(&mut value, op));
    }
}

/// What a sequence stuck in step `k` read: the constructor's arguments and
/// the operations up to the `k`-th (step 0 is the constructor).
fn stand_in_sequence<C: Enumerable, Op: Enumerable>(x: Lazy<'_, (C, Vec<Op>)>, k: u64) {
    let first = x.read_node().first_field();
    drop(x.field_at::<C>(first, 0).force());
    let ops: Lazy<'_, Vec<Op>> = x.field_at(first, 1);
    for op in ops.iter().take(usize::try_from(k).unwrap_or(usize::MAX)) {
        drop(op.force());
    }
}

/// Calls `f` on the input named by a replay key (from a [`Site`]'s
/// reproducing test): a panic of `f` is raised again, with the input.
///
/// # Panics
/// When `f` panics, or when the key does not name an input of `T`.
pub fn call_at<T: Enumerable + Debug, M>(key: &str, f: impl Callable<T, M>) {
    replay_at::<T>(key, &|x| f.call_lazy(x));
}

/// [`call_at`] for a stateful API explored by [`Explorer::sequence`].
///
/// # Panics
/// When the constructor or a step panics, or when the key does not name
/// an input.
pub fn call_sequence_at<C, S, Op, R>(
    key: &str,
    constructor: impl Fn(C) -> S,
    step: impl Fn(&mut S, Op) -> R,
) where
    C: Enumerable + Debug,
    Op: Enumerable + Debug,
{
    replay_at::<(C, Vec<Op>)>(key, &|x| run_sequence(x, &constructor, &step));
}

fn replay_at<T: Enumerable + Debug>(key: &str, f: &dyn Fn(Lazy<'_, T>)) {
    let g = crate::types::grammar_of::<T>();
    let tree = crate::replay::tree_of_key(&g, key).unwrap_or_else(|why| {
        panic!(
            "neatcheck: {key:?} names no input of `{}`: {why}",
            std::any::type_name::<T>()
        )
    });
    let (size, _) = crate::index::rank_in(&g, &tree);
    let mut s = Searcher::<T>::from_grammar(g, size);
    s.load(&tree);
    if let Some(RunResult::Panicked(message)) = s.step(f) {
        // The panic hook has printed the panic where it happened; the test
        // fails with the same message (so `should_panic(expected)` works),
        // without a second report from here.
        std::panic::resume_unwind(Box::new(message));
    }
}

/// The report of an exploration.
#[derive(Clone, Debug)]
pub struct Exploration {
    /// The places calls panicked, in the order they were first reached.
    pub sites: Vec<Site>,
    /// The calls that went over a time or allocation budget.
    pub overruns: Vec<Overrun>,
    /// What was explored of each function.
    pub targets: Vec<TargetSummary>,
    /// What stopped the exploration or part of it (empty when it ran as
    /// asked).
    pub problems: Vec<String>,
    /// The per-call time budget applied, if any.
    pub time_budget: Option<Duration>,
    /// The per-call allocation budget applied, if any.
    pub alloc_budget: Option<u64>,
}

impl Exploration {
    /// No call panicked or went over budget, and nothing stopped the
    /// exploration.
    pub fn is_clean(&self) -> bool {
        self.sites.is_empty() && self.overruns.is_empty() && self.problems.is_empty()
    }

    /// The site of a location and kind, if any call reached it.
    pub fn site(&self, file_suffix: &str, line: u32) -> Option<&Site> {
        self.sites
            .iter()
            .find(|s| s.location.file.ends_with(file_suffix) && s.location.line == line)
    }

    /// The full report: every site with its message and reproducing test,
    /// the overruns, what was explored and the budgets that applied.
    pub fn details(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "neatcheck: exploration found {} panic site(s), {} call(s) over budget",
            self.sites.len(),
            self.overruns.len()
        );
        for site in &self.sites {
            let _ = writeln!(s, "\n{site}");
            let _ = writeln!(s, "  at {}: {}", site.location, site.message);
            let _ = writeln!(
                s,
                "  smallest input (size {}{}), replay key {}",
                site.smallest.size,
                if site.smallest.minimal {
                    ", minimal"
                } else {
                    ", smaller inputs were left behind by calls over budget"
                },
                site.smallest.key
            );
            let _ = writeln!(s, "  reproduce with:\n{}", site.test);
        }
        for o in &self.overruns {
            let _ = writeln!(s, "\n{o}");
        }
        let _ = writeln!(s);
        for t in &self.targets {
            let sizes = match t.sizes_done {
                Some(d) => format!("every input up to size {d}"),
                None => "no size completely".to_string(),
            };
            let _ = writeln!(
                s,
                "explored {}: {} calls, {sizes}{}",
                t.name,
                t.runs,
                if t.complete { "" } else { " (stopped early)" }
            );
        }
        let _ = writeln!(
            s,
            "budgets per call: time {}, allocation {}",
            self.time_budget
                .map_or("unlimited".to_string(), |t| format!("{t:?}")),
            self.alloc_budget
                .map_or("unlimited".to_string(), |b| format!("{b} bytes"))
        );
        for p in &self.problems {
            let _ = writeln!(s, "problem: {p}");
        }
        s
    }
}

impl fmt::Display for Exploration {
    /// One line per site, then one per overrun and per problem.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in &self.sites {
            writeln!(f, "{s}")?;
        }
        for o in &self.overruns {
            writeln!(f, "{o}")?;
        }
        for p in &self.problems {
            writeln!(f, "problem: {p}")?;
        }
        Ok(())
    }
}

/// One place calls panicked at, with one kind of panic.
#[derive(Clone, Debug)]
pub struct Site {
    /// Where the panic happened.
    pub location: Location,
    /// What kind of failure it was.
    pub kind: PanicKind,
    /// The panic message of the smallest input.
    pub message: String,
    /// How many calls panicked there (one per class of inputs the search
    /// told apart).
    pub runs: u64,
    /// The smallest input that reached it.
    pub smallest: Smallest,
    /// A `#[test]` that calls the function on the smallest input again.
    pub test: String,
}

impl fmt::Display for Site {
    /// `site <file>:<line> kind <kind> runs <n> smallest <input>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "site {}:{} kind {} runs {} smallest {}",
            self.location.file, self.location.line, self.kind, self.runs, self.smallest.input
        )
    }
}

/// The smallest input found for a site.
#[derive(Clone, Debug)]
pub struct Smallest {
    /// Which function it was given to (an index into
    /// [`Exploration::targets`]).
    pub target: usize,
    /// The call, as `name(arguments)`.
    pub input: String,
    /// Its size.
    pub size: u64,
    /// Its replay key (for [`call_at`]).
    pub key: String,
    /// Whether every smaller input of every function explored was called:
    /// false when it was found by the edge sweep or a random case (past
    /// the sizes explored), or when a call over budget of a smaller size
    /// left the inputs it stood for behind.
    pub minimal: bool,
}

/// A call that went over its budget.
#[derive(Clone, Debug)]
pub struct Overrun {
    /// Which function (an index into [`Exploration::targets`]).
    pub target: usize,
    /// The call, as `name(arguments)` (or a note when it could not be
    /// rebuilt).
    pub input: String,
    /// Its size.
    pub size: u64,
    /// Its replay key, if it could be rebuilt.
    pub key: Option<String>,
    /// Which budget it went over.
    pub budget: BudgetKind,
}

impl fmt::Display for Overrun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.budget {
            BudgetKind::Time(t) => write!(
                f,
                "overrun time: {} did not return within {t:?} (the per-call time budget); left \
                 running",
                self.input
            ),
            BudgetKind::Alloc(b) => write!(
                f,
                "overrun alloc: {} held more than {b} bytes (the per-call allocation budget); \
                 parked",
                self.input
            ),
        }
    }
}

/// The budget an [`Overrun`] went over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BudgetKind {
    /// The per-call time budget.
    Time(Duration),
    /// The per-call allocation budget, in bytes.
    Alloc(u64),
}

/// What was explored of one function.
#[derive(Clone, Debug)]
pub struct TargetSummary {
    /// Its name.
    pub name: String,
    /// How many inputs it was called on (one per class the search told
    /// apart; calls made again to reach larger sizes are not counted).
    pub runs: u64,
    /// The largest size all of whose inputs were called (or skipped as
    /// stood for by a call over budget).
    pub sizes_done: Option<usize>,
    /// Whether every size up to the largest asked was done within the run
    /// budget.
    pub complete: bool,
}

/// Builds the report from the workers' events.
struct Collector {
    names: Vec<String>,
    shapes: Vec<Shape>,
    index: HashMap<(Location, PanicKind), usize>,
    out: Exploration,
}

impl Sink for Collector {
    fn event(&mut self, e: Event) {
        match e {
            Event::Failed {
                target,
                message,
                location,
                input,
                size,
                key,
                by_size,
            } => {
                let location = location
                    .as_deref()
                    .and_then(Location::parse)
                    .unwrap_or_else(Location::unknown);
                let kind = PanicKind::classify(&message);
                let found = (location.clone(), kind);
                if let Some(&i) = self.index.get(&found) {
                    let site = &mut self.out.sites[i];
                    site.runs += 1;
                    // Sizes only grow within a function; another function
                    // may reach the site with a smaller input.
                    if size < site.smallest.size {
                        let test = self.test(target, &location, kind, &message, &input, size, &key);
                        let site = &mut self.out.sites[i];
                        site.smallest = smallest(target, input, size, key, by_size);
                        site.message = message;
                        site.test = test;
                    }
                    return;
                }
                let test = self.test(target, &location, kind, &message, &input, size, &key);
                self.index.insert(found, self.out.sites.len());
                self.out.sites.push(Site {
                    location,
                    kind,
                    message,
                    runs: 1,
                    smallest: smallest(target, input, size, key, by_size),
                    test,
                });
            }
            Event::Internal { target, message } => self.problem(format!(
                "exploring {}: {message} (the rest of this function was not explored)",
                self.names[target]
            )),
            Event::Crashed { target } => self.problem(format!(
                "exploring {}: a call crashed the process (see its site); the rest of this \
                 function was not explored, since each crash holds a thread and its stack for \
                 good",
                self.names[target]
            )),
            Event::BoundDone {
                target,
                bound,
                runs,
            } => {
                let t = &mut self.out.targets[target];
                t.runs = runs;
                t.sizes_done = Some(bound);
            }
            Event::TargetDone {
                target,
                runs,
                complete,
            } => {
                let t = &mut self.out.targets[target];
                t.runs = runs;
                t.complete = complete;
            }
        }
    }

    fn overran(&mut self, o: &Overran, described: Option<(String, String)>) {
        let (input, key) = match described {
            Some((input, key)) => (input, Some(key)),
            None => (
                format!(
                    "{} on an input that could not be rebuilt",
                    self.names[o.target]
                ),
                None,
            ),
        };
        let budget = match (o.alloc, self.out.alloc_budget, self.out.time_budget) {
            (true, Some(b), _) => BudgetKind::Alloc(b),
            (_, _, Some(t)) => BudgetKind::Time(t),
            (_, Some(b), None) => BudgetKind::Alloc(b),
            (_, None, None) => BudgetKind::Time(Duration::ZERO),
        };
        self.out.overruns.push(Overrun {
            target: o.target,
            input,
            size: o.size,
            key,
            budget,
        });
    }

    fn problem(&mut self, p: String) {
        self.out.problems.push(p);
    }
}

fn smallest(target: usize, input: String, size: u64, key: String, by_size: bool) -> Smallest {
    Smallest {
        target,
        input,
        size,
        key,
        minimal: by_size,
    }
}

impl Collector {
    /// The reproducing `#[test]` of a site's smallest input.
    #[allow(clippy::too_many_arguments)]
    fn test(
        &self,
        target: usize,
        location: &Location,
        kind: PanicKind,
        message: &str,
        input: &str,
        size: u64,
        key: &str,
    ) -> String {
        let name = &self.names[target];
        let file = location
            .file
            .rsplit('/')
            .next()
            .unwrap_or("")
            .trim_end_matches(".rs");
        let subject = match &self.shapes[target] {
            Shape::Function => name.as_str(),
            Shape::Sequence { constructor, .. } => constructor.as_str(),
        };
        let ident = identifier(&match kind {
            // A crash has no source location to name the test by.
            PanicKind::StackOverflow | PanicKind::Crash => format!("{subject}_{kind}"),
            _ => format!("{subject}_panics_{file}_{}", location.line),
        });
        let first_line = message.lines().next().unwrap_or("");
        let call = match &self.shapes[target] {
            Shape::Function => format!("neatcheck::explore::call_at({key:?}, {name});"),
            Shape::Sequence { constructor, step } => {
                format!("neatcheck::explore::call_sequence_at({key:?}, {constructor}, {step});")
            }
        };
        format!(
            "#[test]\nfn {ident}() {{\n    // {kind} at {location}: {first_line}\n    \
             // input (size {size}): {input}\n    {call}\n}}\n"
        )
    }
}

/// A Rust identifier made of `s`: lowercase letters, digits and `_`.
fn identifier(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let out = out.trim_matches('_').to_string();
    if out.starts_with(|c: char| c.is_ascii_digit()) || out.is_empty() {
        format!("f_{out}")
    } else {
        out
    }
}

/// Explores the functions given, each called by its source text in reports
/// and reproducing tests: `explore!(parse, Ring::push)` is
/// `Explorer::new().function("parse", parse).function("Ring::push", Ring::push)`.
/// A closure that captures nothing may stand for a function of another
/// form (`explore!(|s: String, n: u8| wrap(&s, n.into()))`): its
/// reproducing test calls the same closure, so it compiles too.
/// Set limits on the [`Explorer`] it returns, then `run` or `check` it.
#[macro_export]
macro_rules! explore {
    ($($f:expr),+ $(,)?) => {
        $crate::explore::Explorer::new()$(.function(stringify!($f), $f))+
    };
}

/// Whether `name` is a path (`parse`, `Ring::push`): it is called as
/// written; anything else (a closure's source) in parentheses.
fn is_path(name: &str) -> bool {
    !name.is_empty()
        && name
            .split("::")
            .all(|part| !part.is_empty() && part.chars().all(|c| c.is_alphanumeric() || c == '_'))
}

/// `name` as the callee of a call: a path as is, other text in
/// parentheses.
fn callee(name: &str) -> String {
    if is_path(name) {
        name.to_string()
    } else {
        format!("({name})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A counter whose second step never returns when it is `true`, and
    /// whose third step panics when it is `false`.
    fn counter_step(count: &mut u8, op: bool) {
        if op && *count == 1 {
            loop {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        if !op && *count == 2 {
            panic!("third false");
        }
        *count += 1;
    }

    #[test]
    fn a_sequence_stuck_in_a_step_stands_for_every_continuation() {
        let report = Explorer::new()
            .sequence("start", |(): ()| 0u8, "counter_step", counter_step)
            .max_size(8)
            .random_cases(0)
            .time_budget(Some(Duration::from_millis(300)))
            .run();
        assert!(report.problems.is_empty(), "{}", report.details());
        // Stuck at step 2 after either first step: the stand-in reads the
        // two operations, so no longer list beginning the same way is
        // called again.
        let stuck: Vec<&str> = report.overruns.iter().map(|o| o.input.as_str()).collect();
        assert_eq!(
            stuck,
            [
                "start(()) then [false, true]",
                "start(()) then [true, true]"
            ]
        );
        assert_eq!(report.sites.len(), 1, "{}", report.details());
        let site = &report.sites[0];
        assert_eq!(site.smallest.input, "start(()) then [false, false, false]");
        // The third `false` after the two non-stuck beginnings; the list's
        // rest is never read.
        assert_eq!(site.runs, 2);
        // The stuck calls are smaller and their outcome unknown.
        assert!(!site.smallest.minimal);
        assert!(report.targets[0].complete);
    }

    #[test]
    fn an_allocation_budget_without_the_counting_allocator_is_a_problem() {
        // This test binary has no counting allocator.
        let report = Explorer::new()
            .function("len", |xs: Vec<u8>| xs.len())
            .max_size(3)
            .alloc_budget(Some(1024))
            .run();
        assert_eq!(report.problems.len(), 1);
        assert!(report.problems[0].contains("counting_allocator!"));
        assert_eq!(report.alloc_budget, None);
        // The exploration itself ran.
        assert!(report.targets[0].complete);
    }

    mod api {
        pub(super) fn first(xs: Vec<u8>) -> u8 {
            xs[0]
        }
    }

    #[test]
    fn the_macro_names_functions_by_their_path() {
        let report = crate::explore!(api::first).max_size(2).run();
        assert_eq!(report.targets[0].name, "api::first");
        assert_eq!(report.sites[0].smallest.input, "api::first([])");
        assert_eq!(report.sites[0].kind, PanicKind::Index);
        assert!(report.sites[0]
            .test
            .starts_with("#[test]\nfn api_first_panics_mod_"));
    }

    #[test]
    fn identifiers_are_made_of_safe_characters() {
        assert_eq!(
            identifier("ring::Ring::new_panics_x_3"),
            "ring_ring_new_panics_x_3"
        );
        assert_eq!(identifier("9lives"), "f_9lives");
        assert_eq!(identifier("::"), "f_");
    }
}

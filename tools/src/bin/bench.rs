//! Runs one benchmark of `docs/benchmarks/` with a time budget, bound by
//! bound from 0, and prints what the reference tables list.
//!
//! ```text
//! cargo run --release -p neatcheck-tools --bin bench -- <benchmark> <all|ctrex> <seconds> [strategy] [--threads N] [--split-depth D] [--max-bound B]
//! ```
//!
//! Output, one line per bound whose search ended within the budget:
//!
//! ```text
//! <bound>\t<runs at that bound>\t<cumulative seconds>
//! ```
//!
//! then `exhausted <bound>` (the largest bound searched completely, `none`
//! if there is none), in `ctrex` mode `counterexample <size> <seconds>
//! <value>` when one was found (the search stops at the first one; its bound
//! has a line, with the runs up to and including the failing one), and last
//! `rss_mb <n>`, the peak resident set size in MiB. The bound running when
//! the budget ends is interrupted and not printed.
//!
//! `all` searches the predicate to completion at each bound; `ctrex`
//! searches for a value that falsifies it (iterative deepening: the first
//! counterexample is size-minimal). The strategy names the conjunction
//! strategy: the boolean benchmarks (`lambda`, `redblack`, `regexp`)
//! support `D` only (the default); the formula benchmarks (`imperative`,
//! `typecheck`) take any of `D O F OS OF OSF` (default `OF`) and `all` mode
//! only, since they enumerate satisfying values rather than test a property.
//!
//! `--threads N` spreads each bound's search over N threads
//! ([`neatcheck::Config::threads`]); the runs and the counterexample are
//! the same as with one thread (the default). `--split-depth D` is accepted
//! and ignored (work is split on demand). `--max-bound
//! B` stops after bound B (a fixed workload, for instruction counts).

use neatcheck_tools::benchmarks;

use neatcheck::check::{OwnSpaces, Threads};
use neatcheck::cool::{Cool, Strategy};
use neatcheck::search::{BoundResult, Budget, RunResult, Searcher};
use neatcheck::{Config, Enumerable, Lazy};
use std::fmt::Debug;
use std::process::exit;
use std::time::{Duration, Instant};

/// The benchmarks this program knows.
const BENCHMARKS: &[&str] = &["lambda", "redblack", "regexp", "imperative", "typecheck"];

/// The benchmarks whose predicate is a formula (all mode, six strategies).
const FORMULA_BENCHMARKS: &[&str] = &["imperative", "typecheck"];

/// What to search for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Every class, to completion, at each bound.
    All,
    /// The first counterexample, by iterative deepening.
    Ctrex,
}

/// The time budget of a run.
struct Clock {
    start: Instant,
    deadline: Instant,
    /// How many threads search each bound.
    threads: usize,
    /// The last bound to search (for fixed workloads, e.g. under callgrind).
    max_bound: usize,
}

impl Clock {
    fn seconds(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// The budget of one bound's search: what is left until the deadline.
    fn budget(&self) -> Budget {
        Budget::until(self.deadline)
    }

    /// One bound's search on `threads` threads, with what is left until
    /// the deadline as its time limit.
    fn parallel(&self, bound: usize) -> Config<OwnSpaces, Threads> {
        Config::default()
            .max_size(bound)
            .time(self.deadline.saturating_duration_since(Instant::now()))
            .threads(self.threads)
    }
}

fn usage(msg: &str) -> ! {
    eprintln!("{msg}");
    eprintln!(
        "usage: bench <benchmark> <all|ctrex> <seconds> [strategy] [--threads N] [--split-depth D] [--max-bound B]\n  benchmark: {}\n  strategy:  D, O, F, OS, OF, OSF (default D; OF for {})",
        BENCHMARKS.join(", "),
        FORMULA_BENCHMARKS.join(", ")
    );
    exit(2)
}

/// Removes `name <n>` from the arguments and returns `n` (at least `min`),
/// or `None` if the option is absent.
fn take_option(args: &mut Vec<String>, name: &str, min: usize, what: &str) -> Option<usize> {
    let i = args.iter().position(|a| a == name)?;
    let n = args.get(i + 1).and_then(|n| n.parse::<usize>().ok());
    args.drain(i..(i + 2).min(args.len()));
    match n {
        Some(n) if n >= min => Some(n),
        _ => usage(&format!("{name} takes {what} (at least {min})")),
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let threads = take_option(&mut args, "--threads", 1, "a number of threads");
    // Accepted and ignored: work is split on demand.
    let _split_depth = take_option(&mut args, "--split-depth", 1, "a depth");
    let max_bound = take_option(&mut args, "--max-bound", 0, "a bound");
    let threads = threads.unwrap_or(1);
    let max_bound = max_bound.unwrap_or(usize::MAX);
    if !(3..=4).contains(&args.len()) {
        usage("expected 3 or 4 arguments");
    }
    let bench = args[0].as_str();
    if !BENCHMARKS.contains(&bench) {
        usage(&format!("unknown benchmark `{bench}`"));
    }
    let mode = match args[1].as_str() {
        "all" => Mode::All,
        "ctrex" => Mode::Ctrex,
        m => usage(&format!("unknown mode `{m}`")),
    };
    let seconds: f64 = match args[2].parse() {
        Ok(s) if s > 0.0 && f64::is_finite(s) => s,
        _ => usage(&format!("bad number of seconds `{}`", args[2])),
    };
    let formula = FORMULA_BENCHMARKS.contains(&bench);
    let strategy = match args.get(3) {
        None if formula => Strategy::OF,
        None => Strategy::D,
        Some(s) => s.parse::<Strategy>().unwrap_or_else(|e| usage(&e)),
    };
    if formula && mode == Mode::Ctrex {
        usage(&format!(
            "benchmark `{bench}` enumerates the values satisfying a formula: only `all` mode is meaningful for it"
        ));
    }

    let start = Instant::now();
    let clock = Clock {
        start,
        deadline: start + Duration::from_secs_f64(seconds),
        threads,
        max_bound,
    };
    use benchmarks::{imperative, lambda, redblack, regexp, typecheck};
    match (bench, strategy) {
        ("lambda", Strategy::D) => run_bool(lambda::prop, mode, &clock),
        ("redblack", Strategy::D) => run_bool(redblack::prop, mode, &clock),
        ("regexp", Strategy::D) => run_bool(regexp::prop, mode, &clock),
        ("imperative", s) => run_cool(imperative::prop, s, &clock),
        ("typecheck", s) => run_cool(typecheck::prop, s, &clock),
        (b, s) => usage(&format!(
            "benchmark `{b}` has a boolean predicate: strategy {s} is not available (use D)"
        )),
    }
    println!("rss_mb {}", peak_rss_mb());
}

/// Searches a boolean predicate bound by bound until the budget is spent.
fn run_bool<T: Enumerable + Debug + Send>(
    prop: impl Fn(Lazy<'_, T>) -> bool + Sync,
    mode: Mode,
    clock: &Clock,
) {
    let mut exhausted: Option<usize> = None;
    let mut found = None;
    let budget = clock.budget();
    let threads = clock.threads;
    for bound in 0..=clock.max_bound {
        let mut searcher = Searcher::<T>::new(bound);
        let runs = match mode {
            Mode::All if threads > 1 => match clock.parallel(bound).classes(&prop) {
                c if c.complete => c.runs,
                _ => break,
            },
            Mode::All => match whole_within(&mut searcher, |s| s.step(&prop), clock.deadline) {
                Some(runs) => runs,
                None => break,
            },
            Mode::Ctrex => {
                let result = if threads > 1 {
                    clock.parallel(bound).ctrex(&prop)
                } else {
                    searcher.ctrex(&prop, budget)
                };
                match result {
                    BoundResult::Passed(runs) => runs,
                    BoundResult::Failed(c) => {
                        let secs = clock.seconds();
                        println!("{bound}\t{}\t{secs:.3}", c.runs);
                        found = Some((c.size, secs, c.value));
                        break;
                    }
                    // Out of budget: the bound was not searched completely.
                    _ => break,
                }
            }
        };
        println!("{bound}\t{runs}\t{:.3}", clock.seconds());
        exhausted = Some(bound);
    }
    print_exhausted(exhausted);
    if let Some((size, secs, value)) = found {
        println!("counterexample {size} {secs:.3} {value:?}");
    }
}

/// Searches a formula predicate under a conjunction strategy, bound by
/// bound, to completion at each bound, until the budget is spent.
fn run_cool<T: Enumerable + Send>(
    prop: impl for<'a> Fn(Lazy<'a, T>) -> Cool<'a> + Sync,
    strategy: Strategy,
    clock: &Clock,
) {
    let mut exhausted: Option<usize> = None;
    for bound in 0..=clock.max_bound {
        let runs = if clock.threads > 1 {
            let c = clock.parallel(bound).strategy(strategy).classes(&prop);
            c.complete.then_some(c.runs)
        } else {
            let mut searcher = Searcher::<T>::new(bound);
            whole_within(
                &mut searcher,
                |s| s.step_cool(strategy, &prop),
                clock.deadline,
            )
        };
        let Some(runs) = runs else { break };
        println!("{bound}\t{runs}\t{:.3}", clock.seconds());
        exhausted = Some(bound);
    }
    print_exhausted(exhausted);
}

/// The `exhausted` line: the largest bound searched completely.
fn print_exhausted(exhausted: Option<usize>) {
    match exhausted {
        Some(b) => println!("exhausted {b}"),
        None => println!("exhausted none"),
    }
}

/// Runs a whole bound with `step` (a boolean or a formula predicate); the
/// runs, or `None` if the deadline passed first.
fn whole_within<T: 'static>(
    searcher: &mut Searcher<T>,
    mut step: impl FnMut(&mut Searcher<T>) -> Option<RunResult>,
    deadline: Instant,
) -> Option<u64> {
    let mut runs = 0u64;
    loop {
        if runs % 64 == 0 && Instant::now() >= deadline {
            return None;
        }
        match step(searcher) {
            None => return Some(runs),
            Some(RunResult::Panicked(m)) => panic!("the predicate panicked: {m}"),
            Some(_) => runs += 1,
        }
    }
}

/// Peak resident set size (`VmHWM`) in MiB, rounded up; 0 if unknown.
fn peak_rss_mb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb.div_ceil(1024))
}

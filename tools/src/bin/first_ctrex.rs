//! Time to the first counterexample, the check driver with and without the
//! portfolio (`Config::portfolio`: a depth-bounded search interleaved with
//! the size-bounded one), on the counterexample benchmarks of
//! `docs/benchmarks/` and on properties whose counterexample is long but
//! shallow.
//!
//! ```text
//! cargo run --release -p neatcheck-tools --bin first_ctrex -- [name ...]
//! ```
//!
//! One line per property and order: the property runs and the seconds of
//! thread CPU time until the first failing run (whichever order made it),
//! then until the check's report, the reported counterexample's size, how
//! it was found (`size`: by the size order, minimal; `depth`: by the depth
//! order, shrunk) and whether it is proven size-minimal. The random phase
//! is off, so that only the exhaustive orders are measured; the run budget
//! is unlimited.

use neatcheck::check::{Config, Found};
use neatcheck::{Enumerable, Lazy};
use neatcheck_tools::benchmarks::{lambda, redblack, regexp, timing::cpu_now};
use std::collections::BTreeSet;
use std::fmt::Debug;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

/// What one check measured.
struct Row {
    first_runs: u64,
    first_secs: f64,
    final_runs: u64,
    final_secs: f64,
    size: u64,
    how: &'static str,
    minimal: bool,
}

/// Runs the check of `prop` with the portfolio on or off, timing the first
/// failing run and the report.
fn measure<T: Enumerable + Debug + Send>(
    prop: &(impl Fn(Lazy<'_, T>) -> bool + Sync),
    portfolio: bool,
) -> Row {
    let calls = AtomicU64::new(0);
    let first: OnceLock<(u64, Duration)> = OnceLock::new();
    let start = cpu_now();
    let counted = |x: Lazy<'_, T>| {
        let n = calls.fetch_add(1, Ordering::Relaxed) + 1;
        let holds = prop(x);
        if !holds {
            first.get_or_init(|| (n, cpu_now() - start));
        }
        holds
    };
    let config = Config::default()
        .samples(0, 0)
        .runs(u64::MAX)
        .max_size(usize::MAX)
        .regressions(false)
        .run_timeout(None)
        .portfolio(portfolio);
    let c = config
        .try_check(counted)
        .expect_err("every property here fails");
    let final_secs = (cpu_now() - start).as_secs_f64();
    let (first_runs, first_time) = *first.get().expect("a run failed");
    Row {
        first_runs,
        first_secs: first_time.as_secs_f64(),
        final_runs: c.summary.runs + c.summary.depth_runs,
        final_secs,
        size: c.size,
        how: match c.found {
            Found::Exhaustive => "size",
            Found::Depth { .. } => "depth",
            Found::Random { .. } => "random",
            Found::Replay { .. } => "replay",
            Found::EdgeSweep { .. } => "edges",
            _ => "other",
        },
        minimal: c.is_minimal(),
    }
}

fn all_distinct<X: PartialEq>(xs: &[X]) -> bool {
    (1..xs.len()).all(|i| !xs[..i].contains(&xs[i]))
}

/// "No list of six distinct numbers" (lazy: the length first).
fn six_distinct(xs: Lazy<'_, Vec<u8>>) -> bool {
    if xs.len() < 6 {
        return true;
    }
    let v: Vec<u8> = xs.iter().map(|x| x.get()).collect();
    !all_distinct(&v)
}

/// "A tokenizer breaks on five distinct characters" (eager, as a property
/// over a plain `String` is).
fn five_chars(s: Lazy<'_, String>) -> bool {
    let s = s.force();
    s.chars().collect::<BTreeSet<_>>().len() < 5
}

/// "No list of seven nonzero numbers" (lazy).
fn seven_nonzero(xs: Lazy<'_, Vec<u8>>) -> bool {
    xs.iter().take(7).count() < 7 || xs.iter().any(|x| x.get() == 0)
}

fn main() {
    let only: Vec<String> = std::env::args().skip(1).collect();
    println!(
        "{:<14} {:<9} {:>10} {:>9} {:>10} {:>9} {:>5} {:<6} minimal",
        "property", "order", "runs1st", "s1st", "runsFinal", "sFinal", "size", "how"
    );
    let row = |name: &str, f: &dyn Fn(bool) -> Row| {
        if !only.is_empty() && !only.iter().any(|o| o == name) {
            return;
        }
        for portfolio in [false, true] {
            let r = f(portfolio);
            println!(
                "{:<14} {:<9} {:>10} {:>9.3} {:>10} {:>9.3} {:>5} {:<6} {}",
                name,
                if portfolio { "portfolio" } else { "size" },
                r.first_runs,
                r.first_secs,
                r.final_runs,
                r.final_secs,
                r.size,
                r.how,
                if r.minimal { "proven" } else { "not proven" },
            );
        }
    };
    row("lambda", &|p| measure(&lambda::prop, p));
    row("redblack", &|p| measure(&redblack::prop, p));
    row("regexp", &|p| measure(&regexp::prop, p));
    row("six-distinct", &|p| measure(&six_distinct, p));
    row("five-chars", &|p| measure(&five_chars, p));
    row("seven-nonzero", &|p| measure(&seven_nonzero, p));
}

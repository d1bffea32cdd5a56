//! Measures what a default check costs: the wall time of
//! `Config::default().try_check(prop)` on typical
//! passing properties (the examples' properties with their bugs fixed,
//! simple plain properties, and the shared benchmarks' predicates wrapped
//! to pass), to choose the default budgets (`DEFAULT_RUNS`,
//! `DEFAULT_SAMPLES`, `DEFAULT_SAMPLE_MAX_SIZE` in `src/check/config.rs`)
//! so that a typical property finishes in about a second on one core.
//!
//! ```text
//! cargo run --release -p neatcheck-tools --bin check_cost -- [--runs N] [--samples M] [--sample-size S] [--only NAME]
//! ```
//!
//! Each property is checked twice on one thread: once with the random phase
//! off (`samples(0, 0)`), which times the exhaustive phase alone, and once
//! with the configured random phase; the random phase's time is the
//! difference. One line per property:
//!
//! ```text
//! name  verdict  exhausted  stopped  runs  random  exh_s  rand_s  total_s  runs/s
//! ```
//!
//! `exhausted` is the largest size searched completely, `stopped` why the
//! exhaustive phase ended (`runs@B`: the run budget ran out inside size
//! `B`; `max`: the size bound; `all`: every value of a finite type),
//! `runs/s` the exhaustive runs and random cases per second of the whole
//! check. The last line gives the median and the largest total time.
//! The environment (`NEATCHECK_*`) is not read: only the options count.

use neatcheck_tools::benchmarks;
// The examples' types and invariants; their buggy functions are replaced
// below by correct ones, so that the checks pass and run their whole budget.
use neatcheck_tools::user_examples::{bst, simplifier, sorted_insert};

use benchmarks::{imperative, lambda, nat::Nat, redblack, regexp};
use bst::{is_bst, is_bst_plain, Tree};
use neatcheck::check::{Config, Property, Stop};
use neatcheck::{implies, Enumerable, Lazy};
use simplifier::{eval, Expr};
use sorted_insert::is_sorted;
use std::fmt::Debug;
use std::process::exit;
use std::time::Instant;

/// One measured property.
struct Row {
    name: &'static str,
    verdict: String,
    exhausted: String,
    stopped: String,
    runs: u64,
    random: u64,
    exhaustive_s: f64,
    total_s: f64,
}

/// Checks `prop` with the random phase off, then with `config`, and
/// returns the measurements.
fn measure<T, M, P>(name: &'static str, config: &Config, prop: P) -> Row
where
    T: Enumerable + Debug + Send,
    P: Property<T, M> + Sync + Copy,
{
    let exhaustive_only = config.clone().samples(0, 0);
    let start = Instant::now();
    let exhaustive = exhaustive_only.try_check(prop);
    let exhaustive_s = start.elapsed().as_secs_f64();
    drop(exhaustive);

    let start = Instant::now();
    let result = config.try_check(prop);
    let total_s = start.elapsed().as_secs_f64();
    let (verdict, summary) = match result {
        Ok(s) if s.problems.is_empty() => ("pass".to_string(), s),
        Ok(s) => (format!("pass, {} problem(s)", s.problems.len()), s),
        Err(c) => (format!("fail at size {}", c.size), c.summary),
    };
    Row {
        name,
        verdict,
        exhausted: summary
            .exhausted
            .map_or_else(|| "none".to_string(), |e| e.to_string()),
        stopped: match summary.stopped {
            Stop::Runs(b) => format!("runs@{b}"),
            Stop::Time(b) => format!("time@{b}"),
            Stop::MaxSize => "max".to_string(),
            Stop::AllValues => "all".to_string(),
            Stop::Replay => "replay".to_string(),
            Stop::Internal => "internal error".to_string(),
            other => format!("{other:?}"),
        },
        runs: summary.runs,
        random: summary.random,
        exhaustive_s,
        total_s,
    }
}

// --- The examples' properties, with their bugs fixed ----------------------

/// A correct sorted insertion (examples/sorted_insert.rs without its bug).
fn sorted_insert(x: u8, xs: &[u8]) -> Vec<u8> {
    let at = xs.partition_point(|&y| y < x);
    let mut out = Vec::with_capacity(xs.len() + 1);
    out.extend_from_slice(&xs[..at]);
    out.push(x);
    out.extend_from_slice(&xs[at..]);
    out
}

/// A correct insertion into a search tree.
fn bst_insert(t: Tree, x: u8) -> Tree {
    match t {
        Tree::Leaf => Tree::Node(Box::new(Tree::Leaf), x, Box::new(Tree::Leaf)),
        Tree::Node(l, k, r) if x < k => Tree::Node(Box::new(bst_insert(*l, x)), k, r),
        Tree::Node(l, k, r) if x > k => Tree::Node(l, k, Box::new(bst_insert(*r, x))),
        t => t,
    }
}

/// A correct simplifier: removes `0 + e`, `e + 0`, `1 * e`, `e * 1` and
/// turns `0 * e`, `e * 0` into `0`.
fn simplify(e: &Expr) -> Expr {
    use Expr::*;
    match e {
        Add(a, b) => match (simplify(a), simplify(b)) {
            (Lit(0), e) | (e, Lit(0)) => e,
            (a, b) => Add(Box::new(a), Box::new(b)),
        },
        Mul(a, b) => match (simplify(a), simplify(b)) {
            (Lit(1), e) | (e, Lit(1)) => e,
            (Lit(0), _) | (_, Lit(0)) => Lit(0),
            (a, b) => Mul(Box::new(a), Box::new(b)),
        },
        e => e.clone(),
    }
}

// --- Options and the table -------------------------------------------------

/// The budgets a check runs with: `Config::default()`'s unless the
/// command line sets them (a `Config` has no getters, so the numbers are
/// kept here to print them).
struct Budgets {
    runs: u64,
    samples: u64,
    sample_max_size: usize,
    max_size: usize,
}

impl Default for Budgets {
    /// `Config::default()`'s documented budgets.
    fn default() -> Self {
        Budgets {
            runs: 2_000,
            samples: 150,
            sample_max_size: 1_000,
            max_size: 100,
        }
    }
}

/// The configuration from the command line (defaults otherwise), its
/// budgets, and an optional filter on the property names.
fn options() -> (Config, Budgets, Option<String>) {
    let mut config = Config::default();
    let mut budgets = Budgets::default();
    let mut only = None;
    let mut args = std::env::args().skip(1);
    let usage = || -> ! {
        eprintln!("usage: check_cost [--runs N] [--samples M] [--sample-size S] [--only NAME]");
        exit(2)
    };
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        let number = |v: String| -> u64 { v.replace('_', "").parse().unwrap_or_else(|_| usage()) };
        match a.as_str() {
            "--runs" => {
                budgets.runs = number(value());
                config = config.runs(budgets.runs);
            }
            "--samples" => {
                budgets.samples = number(value());
                config = config.samples(budgets.samples, budgets.sample_max_size);
            }
            "--sample-size" => {
                budgets.sample_max_size = number(value()) as usize;
                config = config.samples(budgets.samples, budgets.sample_max_size);
            }
            "--only" => only = Some(value()),
            _ => usage(),
        }
    }
    // No regression file: a bench must not read or write beside the crate.
    (config.regressions(false), budgets, only)
}

fn main() {
    let (config, budgets, only) = options();
    println!(
        "check cost: runs {}, samples {}, sample_max_size {}, max_size {}, 1 thread",
        budgets.runs, budgets.samples, budgets.sample_max_size, budgets.max_size
    );
    println!(
        "{:<28} {:<16} {:>5} {:>9} {:>8} {:>7} {:>7} {:>7} {:>8} {:>10}",
        "property",
        "verdict",
        "exh",
        "stopped",
        "runs",
        "random",
        "exh_s",
        "rand_s",
        "total_s",
        "runs/s"
    );
    let wanted = |name: &str| only.as_ref().is_none_or(|o| name.contains(o.as_str()));
    let mut totals = Vec::new();
    let mut row = |name: &'static str, measure: &dyn Fn(&'static str, &Config) -> Row| {
        if !wanted(name) {
            return;
        }
        let r = measure(name, &config);
        let rate = (r.runs + r.random) as f64 / r.total_s.max(1e-9);
        println!(
            "{:<28} {:<16} {:>5} {:>9} {:>8} {:>7} {:>7.3} {:>7.3} {:>8.3} {:>10.0}",
            r.name,
            r.verdict,
            r.exhausted,
            r.stopped,
            r.runs,
            r.random,
            r.exhaustive_s,
            (r.total_s - r.exhaustive_s).max(0.0),
            r.total_s,
            rate
        );
        totals.push(r.total_s);
    };

    // The examples' properties, passing.
    row("sorted_insert (fixed)", &|n, c| {
        measure(n, c, |x: Lazy<u8>, xs: Lazy<Vec<u8>>| {
            implies(is_sorted(xs), || {
                let (x, xs) = (x.get(), xs.force());
                let ys = sorted_insert(x, &xs);
                ys.len() == xs.len() + 1 && ys.windows(2).all(|w| w[0] <= w[1])
            })
        })
    });
    row("bst insert (fixed)", &|n, c| {
        measure(n, c, |t: Lazy<Tree>, x: Lazy<u8>| {
            implies(is_bst(t, None, None), || {
                is_bst_plain(&bst_insert(t.force(), x.get()), None, None)
            })
        })
    });
    row("simplifier (fixed)", &|n, c| {
        measure(n, c, |e: Expr| {
            let s = simplify(&e);
            (-3..=3).all(|x| eval(&e, x) == eval(&s, x))
        })
    });

    // Simple plain properties.
    row("reverse twice", &|n, c| {
        measure(n, c, |xs: Vec<u8>| {
            let mut ys = xs.clone();
            ys.reverse();
            ys.reverse();
            ys == xs
        })
    });
    row("wrapping_add commutes", &|n, c| {
        measure(n, c, |x: u32, y: u32| {
            x.wrapping_add(y) == y.wrapping_add(x)
        })
    });
    // (`s.len() == s.chars().count()` was a passing row while `char` was
    // ASCII; over Unicode it fails at once, on "\u{80}".)
    row("string reverse twice", &|n, c| {
        measure(n, c, |s: String| {
            let r: String = s.chars().rev().collect();
            r.chars().rev().collect::<String>() == s
        })
    });
    row("string chars <= len", &|n, c| {
        measure(n, c, |s: String| s.chars().count() <= s.len())
    });

    // The shared benchmarks' predicates, wrapped to pass.
    row("lambda well_typed", &|n, c| {
        measure(n, c, |p: Lazy<lambda::Expr>| {
            let _ = lambda::well_typed(p);
            true
        })
    });
    row("redblack invariant", &|n, c| {
        measure(n, c, |t: Lazy<redblack::Tree>| {
            let _ = redblack::invariant_in(&redblack::Input, t);
            true
        })
    });
    row("regexp prop (wrapped)", &|n, c| {
        measure(n, c, |i: Lazy<regexp::Input>| {
            let _ = regexp::prop(i);
            true
        })
    });
    row("imperative no_unused", &|n, c| {
        measure(n, c, |s: Lazy<imperative::Stmt>| {
            let _ = imperative::no_unused(s);
            true
        })
    });

    // The benchmarks' real properties: their counterexamples are at sizes
    // 17 (lambda), 31 (redblack) and 19 (regexp).
    row("lambda prop", &|n, c| measure(n, c, lambda::prop));
    row("redblack prop", &|n, c| {
        measure(n, c, |i: Lazy<(Nat, redblack::Tree)>| redblack::prop(i))
    });
    row("regexp prop", &|n, c| {
        measure(n, c, |i: Lazy<regexp::Input>| regexp::prop(i))
    });

    if totals.is_empty() {
        println!("no property matched");
        return;
    }
    totals.sort_by(f64::total_cmp);
    let mid = totals.len() / 2;
    let median = if totals.len() % 2 == 1 {
        totals[mid]
    } else {
        (totals[mid - 1] + totals[mid]) / 2.0
    };
    println!(
        "total time over {} properties: median {:.3} s, max {:.3} s",
        totals.len(),
        median,
        totals[totals.len() - 1]
    );
}

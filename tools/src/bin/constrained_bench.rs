//! Times uniform sampling under a predicate (`neatcheck::constrained`)
//! against the figures of Paper III (Claessen, Duregård, Pałka): 2000
//! well-typed Lambda terms per size, sizes growing until a time budget is
//! spent (the paper: size 23 with the uniform sampler and 28 with bounded
//! backtracking, within 300 s and 4 GiB), and 2000 strictly increasing byte
//! lists and red-black trees at sizes 20, 40 and 80, with generate-and-filter
//! (FEAT samples kept when the predicate holds) as the baseline.
//!
//! ```text
//! cargo run --release -p neatcheck-tools --bin constrained_bench -- [lambda_seconds] [row_seconds] [rows]
//! ```
//!
//! `lambda_seconds` (default 300, the paper's) is the budget of each Lambda
//! series, `row_seconds` (default the same) that of each fixed-size row;
//! `rows` runs the fixed-size rows only, and a fourth argument only that
//! workload's (`increasing`, `redblack` or `bst_i64`: search trees with
//! `i64` keys, the ETNA workloads' shape, where a redraw of the check's
//! random phase costs what a uniform run here does). `us/run` is the time
//! per run of the predicate: a draw, the run and (uniform, backtracking)
//! the refinement of the pruned space, against a plain draw and a plain
//! predicate for `filter`. Every series runs in a child process of its own, so the
//! peak memory printed (`VmHWM`) is that series' alone.

use neatcheck::constrained::{Method, SampleError, Sampler};
use neatcheck::index::{seeded_rng, Indexer};
use neatcheck::Lazy;
use neatcheck_tools::benchmarks::lambda::{well_typed, Expr};
use neatcheck_tools::benchmarks::redblack::{invariant_in, invariant_plain, Input, Tree};
use neatcheck_tools::search_trees::{ordered_whole, Bst};
use std::process::Command;
use std::time::{Duration, Instant};

const SAMPLES: u64 = 2000;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--one") {
        let budget = Duration::from_secs_f64(args[4].parse().expect("seconds"));
        one(&args[1], &args[2], &args[3], budget);
        return;
    }
    let seconds = args.first().map_or("300", String::as_str);
    let row_seconds = args.get(1).map_or(seconds, String::as_str);
    println!(
        "{:<10} {:<12} {:>4} {:>7} {:>9} {:>9} {:>10} {:>10} {:>10} {:>8}",
        "workload",
        "method",
        "size",
        "samples",
        "seconds",
        "peak MiB",
        "runs",
        "rejected",
        "nodes",
        "us/run"
    );
    // `rows`: the fixed-size rows only.
    let rows_only = args.get(2).is_some_and(|a| a == "rows");
    let only = args.get(3);
    for method in ["uniform", "backtrack10k", "backtrack"] {
        if !rows_only {
            spawn("lambda", method, "grow", seconds);
        }
    }
    for workload in ["increasing", "redblack", "bst_i64"] {
        if only.is_some_and(|w| w != workload) {
            continue;
        }
        for size in ["20", "40", "80"] {
            for method in ["uniform", "backtrack10k", "backtrack", "filter"] {
                spawn(workload, method, size, row_seconds);
            }
        }
    }
}

fn spawn(workload: &str, method: &str, size: &str, seconds: &str) {
    let me = std::env::current_exe().expect("the bench binary");
    let status = Command::new(me)
        .args(["--one", workload, method, size, seconds])
        .status()
        .expect("a child process");
    assert!(status.success(), "{workload} {method} {size} failed");
}

/// Runs one series and prints its rows.
fn one(workload: &str, method: &str, size: &str, budget: Duration) {
    let method_of = |m: &str| match m {
        "uniform" => Some(Method::Uniform),
        "backtrack10k" => Some(Method::Backtrack { skip: 10_000 }),
        "backtrack" => Some(Method::BacktrackUnbounded),
        "filter" => None,
        other => panic!("unknown method {other}"),
    };
    let sizes: Vec<usize> = match size {
        "grow" => (1..).take(1000).collect(),
        n => vec![n.parse().expect("a size")],
    };
    let start = Instant::now();
    for size in sizes {
        let left = budget.saturating_sub(start.elapsed());
        if left.is_zero() {
            return;
        }
        let row = match (workload, method_of(method)) {
            ("lambda", Some(m)) => sampled(
                Sampler::new(|e: Lazy<'_, Expr>| well_typed(e)).method(m),
                size,
                left,
            ),
            ("increasing", Some(m)) => sampled(Sampler::new(increasing).method(m), size, left),
            ("increasing", None) => filtered(
                |xs: &Vec<u8>| xs.windows(2).all(|w| w[0] < w[1]),
                size,
                left,
            ),
            ("redblack", Some(m)) => sampled(
                Sampler::new(|t: Lazy<'_, Tree>| invariant_in(&Input, t)).method(m),
                size,
                left,
            ),
            ("redblack", None) => filtered(invariant_plain, size, left),
            ("bst_i64", Some(m)) => sampled(
                Sampler::new(|t: Lazy<'_, Bst>| ordered_whole(t, None, None)).method(m),
                size,
                left,
            ),
            ("bst_i64", None) => filtered(|t: &Bst| ordered_plain(t, None, None), size, left),
            _ => panic!("unknown workload {workload}"),
        };
        let Row {
            samples,
            seconds,
            runs,
            rejected,
            nodes,
            cut: row_cut,
        } = row;
        println!(
            "{workload:<10} {method:<12} {size:>4} {samples:>7} {seconds:>9.2} {:>9.1} {runs:>10} \
             {rejected:>10} {nodes:>10} {:>8.2}",
            peak_mib(),
            seconds * 1e6 / runs.max(1) as f64
        );
        if samples < SAMPLES && row_cut {
            // The budget cut this size: larger ones are out of reach.
            return;
        }
    }
}

fn increasing(xs: Lazy<'_, Vec<u8>>) -> bool {
    let mut last = None;
    for x in xs.iter().map(|x| x.get()) {
        if last.is_some_and(|l| l >= x) {
            return false;
        }
        last = Some(x);
    }
    true
}

fn ordered_plain(t: &Bst, lo: Option<i64>, hi: Option<i64>) -> bool {
    match t {
        Bst::Leaf => true,
        Bst::Node(l, k, r) => {
            lo.is_none_or(|lo| lo < *k)
                && hi.is_none_or(|hi| *k < hi)
                && ordered_plain(l, lo, Some(*k))
                && ordered_plain(r, Some(*k), hi)
        }
    }
}

struct Row {
    samples: u64,
    seconds: f64,
    runs: u64,
    rejected: u64,
    nodes: usize,
    /// Whether the budget ended the row (else it has all its samples, or
    /// the size has no satisfying value).
    cut: bool,
}

fn sampled<T: 'static, P: Fn(Lazy<'_, T>) -> bool>(
    mut sampler: Sampler<T, P>,
    size: usize,
    budget: Duration,
) -> Row {
    let mut rng = seeded_rng(2026);
    let start = Instant::now();
    let mut samples = 0;
    let mut cut = false;
    while samples < SAMPLES {
        if start.elapsed() >= budget {
            cut = true;
            break;
        }
        match sampler.sample_tree_in(size..=size, &mut rng) {
            Ok(Some(_)) => samples += 1,
            Ok(None) => break,
            // A draw past its run budget (1 000 000): the size is out of
            // this method's reach.
            Err(SampleError::OutOfRuns { .. }) => {
                cut = true;
                break;
            }
            Err(e) => panic!("{e}"),
        }
    }
    let stats = sampler.stats();
    Row {
        cut,
        samples,
        seconds: start.elapsed().as_secs_f64(),
        runs: stats.runs,
        rejected: stats.rejected,
        nodes: stats.nodes,
    }
}

/// Generate-and-filter: uniform values of the size, kept when they satisfy.
fn filtered<T: neatcheck::Enumerable>(
    pred: impl Fn(&T) -> bool,
    size: usize,
    budget: Duration,
) -> Row {
    let indexer = Indexer::<T>::new();
    let mut rng = seeded_rng(2026);
    let start = Instant::now();
    let (mut samples, mut runs) = (0, 0u64);
    let mut cut = false;
    while samples < SAMPLES {
        if start.elapsed() >= budget {
            cut = true;
            break;
        }
        let Some(v) = indexer.sample(size, &mut rng) else {
            break;
        };
        runs += 1;
        samples += u64::from(pred(&v));
    }
    Row {
        cut,
        samples,
        seconds: start.elapsed().as_secs_f64(),
        runs,
        rejected: runs - samples,
        nodes: 0,
    }
}

/// The process's peak resident memory so far, in MiB (Linux; 0 elsewhere).
fn peak_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

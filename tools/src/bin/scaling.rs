//! The scaling table of parallel search: wall time and speedup on real
//! threads, and the load balance of more workers than the machine has,
//! simulated ([`neatcheck::Config::simulate`]: the same workers,
//! stepped round-robin on one thread, one time step per run).
//!
//! ```text
//! cargo run --release -p neatcheck-tools --bin scaling -- <lambda|redblack|regexp|bst> <bound> [--threads 1,2] [--simulate 4,8,16]
//! ```
//!
//! `bst` is "inserting a `u8` key into an ordered binary search tree keeps
//! it ordered", with a bug planted where no tree within the bounds reaches
//! it (a key of 255 inserted at depth 8), so every bound is searched
//! exhaustively. Output: one line per thread count (`threads N wall_s
//! speedup`, against one sequential searcher; `Config::threads(1)` runs the
//! sequential search itself, not one parallel worker) and per simulated count
//! (`simulated N makespan speedup imbalance replays idle units`, where
//! speedup is runs over makespan, imbalance the busiest worker's steps over
//! the mean, replays and idle shares of all workers' steps).
//!
//! Measured on a 2-core machine shared with four other builds (load
//! average 8), so real threads show no speedup there (2 threads: 0.8x to
//! 1.1x wall, the same CPU time as one); no 16-core machine was at hand.
//! Simulated (speedup = runs / makespan; replays and idle as shares of all
//! workers' steps):
//!
//! ```text
//! benchmark   bound  runs       4 workers   8 workers   16 workers  replays/idle at 16
//! lambda      22     1857799    4.00        7.97        15.89       0.5% / 0.2%
//! redblack    40     1557980    4.00        7.99        15.94       0.3% / 0.1%
//! regexp      16     483259     3.99        7.93        15.60       1.5% / 1.0%
//! bst (u8)    22     6485748    3.97        7.79        13.86       5.8% / 7.5%
//! ```

use neatcheck::search::{self, Balance};
use neatcheck::{Config, Enumerable, Lazy};
use neatcheck_tools::benchmarks::{lambda, redblack, regexp};
use neatcheck_tools::user_examples::bst::{is_bst, Tree, TreeView};
use std::process::exit;
use std::time::Instant;

/// The keys of `t` in order, with `k` inserted where a binary search tree
/// insertion puts it; the planted bug puts 255 on the wrong side at depth
/// 8.
fn insert_in_order(t: Lazy<'_, Tree>, k: u8, depth: usize, out: &mut Vec<u8>) {
    match t.view() {
        TreeView::Leaf => out.push(k),
        TreeView::Node(l, x, r) => {
            let x = x.get();
            let left = k < x || (k == 255 && depth == 8);
            if left {
                insert_in_order(l, k, depth + 1, out);
            } else {
                in_order(l, out);
            }
            out.push(x);
            if k > x && !left {
                insert_in_order(r, k, depth + 1, out);
            } else {
                in_order(r, out);
            }
        }
    }
}

fn in_order(t: Lazy<'_, Tree>, out: &mut Vec<u8>) {
    if let TreeView::Node(l, x, r) = t.view() {
        in_order(l, out);
        out.push(x.get());
        in_order(r, out);
    }
}

/// An ordered tree stays ordered (and keeps its keys) after an insertion.
fn bst_prop(input: Lazy<'_, (u8, Tree)>) -> bool {
    let (k, t) = input.view();
    if !is_bst(t, None, None) {
        return true;
    }
    let mut keys = vec![];
    insert_in_order(t, k.get(), 0, &mut keys);
    keys.windows(2).all(|w| w[0] <= w[1])
}

fn usage(msg: &str) -> ! {
    eprintln!("{msg}");
    eprintln!(
        "usage: scaling <lambda|redblack|regexp|bst> <bound> [--threads 1,2] [--simulate 4,8,16]"
    );
    exit(2)
}

/// Removes `name <a,b,c>` from the arguments and returns the counts.
fn take_list(args: &mut Vec<String>, name: &str, default: &[usize]) -> Vec<usize> {
    neatcheck_tools::args::take_counts(args, name, default).unwrap_or_else(|e| usage(&e))
}

/// Prints the table for one predicate at one bound.
fn table<T: Enumerable + Send>(
    prop: impl Fn(Lazy<'_, T>) -> bool + Sync,
    bound: usize,
    threads: &[usize],
    simulated: &[usize],
) {
    let start = Instant::now();
    let seq = search::classes(&prop, bound);
    let seq_s = start.elapsed().as_secs_f64();
    println!("runs {}\nsequential {seq_s:.3}", seq.runs);
    for &n in threads {
        let start = Instant::now();
        let par = Config::default().max_size(bound).threads(n).classes(&prop);
        let wall = start.elapsed().as_secs_f64();
        assert_eq!(par, seq, "parallel search gives the sequential classes");
        println!("threads {n} {wall:.3} {:.2}", seq_s / wall);
    }
    for &n in simulated {
        let b: Balance = Config::default().max_size(bound).threads(n).simulate(&prop);
        assert_eq!(
            b.classes, seq,
            "simulated search gives the sequential classes"
        );
        let steps: u64 = b.workers.iter().map(|w| w.runs + w.replays + w.idle).sum();
        let replays: u64 = b.workers.iter().map(|w| w.replays).sum();
        let idle: u64 = b.workers.iter().map(|w| w.idle).sum();
        let units: u64 = b.workers.iter().map(|w| w.units).sum();
        let share = |x: u64| 100.0 * x as f64 / steps.max(1) as f64;
        println!(
            "simulated {n} {} {:.2} {:.3} {:.1}% {:.1}% {units}",
            b.makespan,
            b.speedup(),
            b.imbalance(),
            share(replays),
            share(idle),
        );
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let threads = take_list(&mut args, "--threads", &[1, 2]);
    let simulated = take_list(&mut args, "--simulate", &[4, 8, 16]);
    if args.len() != 2 {
        usage("expected a benchmark and a bound");
    }
    let bound: usize = args[1]
        .parse()
        .unwrap_or_else(|_| usage(&format!("bad bound `{}`", args[1])));
    match args[0].as_str() {
        "lambda" => table(lambda::prop, bound, &threads, &simulated),
        "redblack" => table(redblack::prop, bound, &threads, &simulated),
        "regexp" => table(regexp::prop, bound, &threads, &simulated),
        "bst" => table(bst_prop, bound, &threads, &simulated),
        b => usage(&format!("unknown benchmark `{b}`")),
    }
}

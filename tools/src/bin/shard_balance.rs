//! How evenly the shards of a search share its work, by shard depth: the
//! measurement behind the default of `Config::shard_depth`.
//!
//! ```text
//! cargo run --release -p neatcheck-tools --bin shard_balance -- <benchmark> <bound> [--depths 4,8,12] [--shards 2,4,8,16]
//! ```
//!
//! For each shard depth and shard count it runs every shard of one bound
//! of a benchmark's search and prints, counted in predicate calls (a
//! shard's own runs plus its replays of the other shards' nodes above the
//! cut), not in time, so the table is the same on any machine:
//!
//! ```text
//! depth  shards  replayed  largest  ideal  speedup
//! ```
//!
//! `replayed` is the nodes above the cut that every shard runs for the
//! others, `largest` the calls of the busiest shard, `ideal` the whole
//! search's runs over the shard count, and `speedup` the whole search's
//! runs over the busiest shard's calls (the shard count would be perfect).

use neatcheck::search;
use neatcheck::{Config, Enumerable, Lazy};
use neatcheck_tools::benchmarks::{lambda, redblack, regexp};
use std::process::exit;
use std::sync::atomic::{AtomicU64, Ordering};

fn usage(msg: &str) -> ! {
    eprintln!("{msg}");
    eprintln!(
        "usage: shard_balance <lambda|redblack|regexp> <bound> [--depths 4,8,12] [--shards 2,4,8,16]"
    );
    exit(2)
}

/// Removes `name <a,b,c>` from the arguments and returns the counts.
fn take_list(args: &mut Vec<String>, name: &str, default: &[usize]) -> Vec<usize> {
    neatcheck_tools::args::take_counts(args, name, default).unwrap_or_else(|e| usage(&e))
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let depths = take_list(&mut args, "--depths", &[4, 6, 8, 10, 12, 16, 20]);
    let counts = take_list(&mut args, "--shards", &[2, 4, 8, 16]);
    if args.len() != 2 {
        usage("expected a benchmark and a bound");
    }
    let bound: usize = args[1]
        .parse()
        .unwrap_or_else(|_| usage("the bound is a natural number"));
    match args[0].as_str() {
        "lambda" => table(lambda::prop, bound, &depths, &counts),
        "redblack" => table(redblack::prop, bound, &depths, &counts),
        "regexp" => table(regexp::prop, bound, &depths, &counts),
        b => usage(&format!("unknown benchmark `{b}`")),
    }
}

/// Prints the table of one bound of a benchmark.
fn table<T: Enumerable>(
    prop: impl Fn(Lazy<'_, T>) -> bool,
    bound: usize,
    depths: &[usize],
    counts: &[usize],
) {
    let calls = AtomicU64::new(0);
    let counted = |x: Lazy<'_, T>| {
        calls.fetch_add(1, Ordering::Relaxed);
        prop(x)
    };
    let whole = search::classes(counted, bound).runs;
    println!("# bound {bound}: {whole} runs");
    println!("depth\tshards\treplayed\tlargest\tideal\tspeedup");
    for &depth in depths {
        for &count in counts {
            let mut largest = 0;
            let mut replayed = 0;
            let mut owned = 0;
            for i in 1..=count {
                calls.store(0, Ordering::Relaxed);
                let runs = Config::default()
                    .max_size(bound)
                    .shard(i, count)
                    .shard_depth(depth)
                    .classes(counted)
                    .runs;
                let made = calls.load(Ordering::Relaxed);
                largest = largest.max(made);
                replayed = made - runs;
                owned += runs;
            }
            assert_eq!(owned, whole, "the shards' runs are the whole search's");
            // Every shard runs the whole top: its replays plus its own top
            // runs; the last shard's replays stand for all.
            println!(
                "{depth}\t{count}\t{replayed}\t{largest}\t{}\t{:.2}",
                whole / count as u64,
                whole as f64 / largest as f64
            );
        }
    }
}

//! Uniform random values that satisfy a lazy predicate
//! (`neatcheck::constrained`): well-typed terms of the Lambda benchmark's
//! language, with its type checker as the predicate; red-black trees; and
//! strictly increasing `Vec<u8>`, whose bytes compare lazily (bit by bit).
//!
//! ```text
//! cargo run --release --example sample_sat                 # Lambda, 300 s
//! cargo run --release --example sample_sat -- lambda 60    # Lambda, 60 s
//! cargo run --release --example sample_sat -- redblack 60  # red-black trees
//! cargo run --release --example sample_sat -- increasing 60  # sorted bytes
//! ```
//!
//! Draws 2000 values per size with the exact (uniform) sampler, sizes
//! growing until the time is spent, and prints one line per finished size:
//! `size <n> samples <k> seconds <t> distinct <d>`. The time budget is this
//! example's point (how far uniform sampling reaches); neatcheck's checks
//! never depend on time.

use neatcheck::constrained::Sampler;
use neatcheck::index::seeded_rng;
use neatcheck::Lazy;
use neatcheck_tools::benchmarks::lambda::{well_typed, Expr};
use neatcheck_tools::benchmarks::redblack::{invariant_in, Input, Tree};
use std::collections::HashSet;
use std::time::{Duration, Instant};

const SAMPLES: usize = 2000;

fn main() {
    let mut args = std::env::args().skip(1);
    let what = args.next().unwrap_or_else(|| "lambda".to_string());
    let seconds: f64 = args.next().map_or(300.0, |s| {
        s.parse()
            .unwrap_or_else(|_| panic!("the time budget is a number of seconds, not `{s}`"))
    });
    let budget = Duration::from_secs_f64(seconds);
    match what.as_str() {
        "lambda" => sizes(Sampler::new(|e: Lazy<'_, Expr>| well_typed(e)), budget),
        "redblack" => sizes(
            Sampler::new(|t: Lazy<'_, Tree>| invariant_in(&Input, t)),
            budget,
        ),
        "increasing" => sizes(
            Sampler::new(|xs: Lazy<'_, Vec<u8>>| strictly_increasing(xs)),
            budget,
        ),
        other => panic!("unknown workload `{other}`: lambda, redblack or increasing"),
    }
}

/// Whether the bytes increase strictly, each pair compared lazily.
fn strictly_increasing(xs: Lazy<'_, Vec<u8>>) -> bool {
    let mut previous: Option<Lazy<'_, u8>> = None;
    for x in xs.iter() {
        if previous.is_some_and(|p| p >= x) {
            return false;
        }
        previous = Some(x);
    }
    true
}

/// Draws `SAMPLES` values at sizes 1, 2, ... until `budget` is spent.
fn sizes<T: 'static, P>(mut sampler: Sampler<T, P>, budget: Duration)
where
    P: Fn(Lazy<'_, T>) -> bool,
{
    let start = Instant::now();
    let mut rng = seeded_rng(2026);
    for size in 1.. {
        let began = Instant::now();
        let mut distinct = HashSet::new();
        let mut samples = 0;
        while samples < SAMPLES {
            if start.elapsed() >= budget {
                return;
            }
            match sampler.sample_tree_in(size..=size, &mut rng) {
                Ok(Some(tree)) => {
                    distinct.insert(tree);
                    samples += 1;
                }
                // No satisfying value of this size.
                Ok(None) => break,
                Err(e) => panic!("{e}"),
            }
        }
        println!(
            "size {size} samples {samples} seconds {:.2} distinct {}",
            began.elapsed().as_secs_f64(),
            distinct.len()
        );
    }
}

//! Times the set, map and multiset families: counting a size and building
//! evenly spaced values of it (what the random phase of a check does), per
//! size. `cargo run --release -p neatcheck-tools --bin collections_bench -- [max_size]`.
//!
//! Each row runs on a fresh thread, so that the families' cached tables
//! (per thread, like every registered space) start empty.

use neatcheck::index;
use neatcheck::Enumerable;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap};
use std::time::Instant;

/// Seconds to count sizes `0..=size` and build 20 spaced values of `size`.
fn time<T: Enumerable>(size: usize) -> f64 {
    std::thread::spawn(move || {
        let start = Instant::now();
        for n in 0..=size {
            let _ = index::cardinality::<T>(n);
        }
        let values = index::spaced::<T>(size, 20);
        assert!(!values.is_empty());
        start.elapsed().as_secs_f64()
    })
    .join()
    .expect("the timed thread")
}

fn main() {
    let max: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("max_size: a natural number"))
        .unwrap_or(60);
    println!(
        "{:>5} {:>14} {:>14} {:>14} {:>14}",
        "size", "BTreeSet<u8>", "BinaryHeap<u8>", "BTreeMap<u8,u8>", "HashMap<u8,bool>"
    );
    for size in [10, 20, 30, 40, 60, 100, 200] {
        if size > max {
            break;
        }
        println!(
            "{size:>5} {:>13.4}s {:>13.4}s {:>14.4}s {:>15.4}s",
            time::<BTreeSet<u8>>(size),
            time::<BinaryHeap<u8>>(size),
            time::<BTreeMap<u8, u8>>(size),
            time::<HashMap<u8, bool>>(size),
        );
    }
}

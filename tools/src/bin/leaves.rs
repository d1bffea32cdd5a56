//! Times predicates over many small leaves (characters, bytes, 32-bit
//! integers, the `u8` keys of a search tree): searches where most children
//! move a leaf to its next value, so the engine's leaf step dominates.
//!
//! ```text
//! cargo run --release -p neatcheck-tools --bin leaves -- [name...] [--scale K]
//! ```
//!
//! Each benchmark searches every class up to a fixed bound (a fixed
//! workload, for instruction counts) and prints one row: its name, the
//! bound, the runs, the satisfying classes, seconds and runs per second.
//! `--scale K` adds `K` to every bound (negative to shorten). Names pick
//! benchmarks (default: all).

use neatcheck::search::{classes, Classes};
use neatcheck::Lazy;
use neatcheck_tools::user_examples::bst::{is_bst, Tree, TreeView};
use std::time::Instant;

/// The keys of a tree read lazily, in order (an ordered tree's are sorted).
fn count_keys(t: Lazy<'_, Tree>) -> usize {
    match t.view() {
        TreeView::Leaf => 0,
        TreeView::Node(l, _, r) => 1 + count_keys(l) + count_keys(r),
    }
}

/// "No string of distinct lowercase letters whose codes sum past 600."
fn distinct_letters(s: Lazy<'_, String>) -> bool {
    let mut seen = 0u32;
    let mut sum = 0u32;
    for c in s.chars() {
        if !c.is_ascii_lowercase() {
            return true;
        }
        let bit = 1 << (c as u32 - 'a' as u32);
        if seen & bit != 0 {
            return true;
        }
        seen |= bit;
        sum += c as u32;
    }
    sum <= 600
}

/// "No list of characters that reads as a palindrome of digits."
fn digit_palindrome(s: Lazy<'_, Vec<char>>) -> bool {
    let mut cs = vec![];
    for c in s.iter() {
        let c = c.get();
        if !c.is_ascii_digit() {
            return true;
        }
        cs.push(c);
    }
    cs.len() < 3 || !cs.iter().eq(cs.iter().rev())
}

/// "No strictly increasing list of bytes summing to 100."
fn increasing_bytes(xs: Lazy<'_, Vec<u8>>) -> bool {
    let mut last: Option<u8> = None;
    let mut sum = 0u32;
    for x in xs.iter() {
        let x = x.get();
        if last.is_some_and(|l| x <= l) {
            return true;
        }
        last = Some(x);
        sum += u32::from(x);
    }
    sum != 100
}

/// "No sorted list of `i32`s whose neighbours differ by at most 3 and
/// which spans more than 20."
fn close_ints(xs: Lazy<'_, Vec<i32>>) -> bool {
    let mut first: Option<i64> = None;
    let mut last: Option<i64> = None;
    for x in xs.iter() {
        let x = i64::from(x.get());
        if last.is_some_and(|l| x < l || x - l > 3) {
            return true;
        }
        first.get_or_insert(x);
        last = Some(x);
    }
    match (first, last) {
        (Some(f), Some(l)) => l - f <= 20,
        _ => true,
    }
}

/// "No ordered tree over `u8` keys with more than four keys."
fn small_bst(t: Lazy<'_, Tree>) -> bool {
    !is_bst(t, None, None) || count_keys(t) <= 4
}

/// One benchmark: its name, its bound and its search.
struct Bench {
    name: &'static str,
    bound: usize,
    run: fn(usize) -> Classes,
}

const BENCHES: &[Bench] = &[
    Bench {
        name: "distinct_letters",
        bound: 27,
        run: |b| classes(distinct_letters, b),
    },
    Bench {
        name: "digit_palindrome",
        bound: 28,
        run: |b| classes(digit_palindrome, b),
    },
    Bench {
        name: "increasing_bytes",
        bound: 23,
        run: |b| classes(increasing_bytes, b),
    },
    Bench {
        name: "close_ints",
        bound: 20,
        run: |b| classes(close_ints, b),
    },
    Bench {
        name: "bst_u8",
        bound: 23,
        run: |b| classes(small_bst, b),
    },
];

fn main() {
    let mut names = vec![];
    let mut scale: i64 = 0;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--scale" {
            scale = args
                .next()
                .and_then(|k| k.parse().ok())
                .expect("--scale K: an integer");
        } else if BENCHES.iter().any(|b| b.name == a) {
            names.push(a);
        } else {
            eprintln!(
                "unknown benchmark {a:?}; known: {:?}",
                BENCHES.iter().map(|b| b.name).collect::<Vec<_>>()
            );
            std::process::exit(2);
        }
    }
    println!(
        "{:<18} {:>5} {:>12} {:>10} {:>9} {:>12}",
        "benchmark", "bound", "runs", "satisfying", "seconds", "runs/s"
    );
    for b in BENCHES {
        if !names.is_empty() && !names.iter().any(|n| n == b.name) {
            continue;
        }
        let bound = usize::try_from(b.bound as i64 + scale).unwrap_or(0);
        let start = Instant::now();
        let c = (b.run)(bound);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{:<18} {:>5} {:>12} {:>10} {:>9.3} {:>12.0}",
            b.name,
            bound,
            c.runs,
            c.satisfying,
            secs,
            c.runs as f64 / secs.max(1e-9)
        );
    }
}

//! Finds the smallest input on which a sorted-list insertion loses an
//! element: `cargo run --release --example sorted_insert`.
//!
//! The property is written with a lazy precondition: `is_sorted` reads the
//! list one element at a time, so unsorted lists are rejected after reading
//! only their first descent, and the search never expands them further.

use neatcheck::check::Config;
use neatcheck::{implies, Lazy};

/// Inserts `x` into a sorted list. Bug: an element equal to `x` is dropped.
fn insert(x: u8, xs: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(xs.len() + 1);
    let mut placed = false;
    for &y in xs {
        if !placed && x <= y {
            if x != y {
                out.push(x);
            }
            placed = true;
        }
        out.push(y);
    }
    if !placed {
        out.push(x);
    }
    out
}

/// Whether a lazy list is sorted, reading it one element at a time.
pub fn is_sorted(xs: Lazy<'_, Vec<u8>>) -> bool {
    let mut prev = None;
    for x in xs.iter() {
        let x = x.get();
        if prev.is_some_and(|p| p > x) {
            return false;
        }
        prev = Some(x);
    }
    true
}

/// Runs the check and returns what `main` prints.
pub fn run() -> String {
    let result = Config::from_env().try_check(|x: Lazy<u8>, xs: Lazy<Vec<u8>>| {
        implies(is_sorted(xs), || {
            let (x, xs) = (x.get(), xs.force());
            let ys = insert(x, &xs);
            ys.len() == xs.len() + 1 && ys.windows(2).all(|w| w[0] <= w[1])
        })
    });
    match result {
        Ok(summary) => format!("no counterexample: {summary}\n"),
        Err(failure) => failure.report(),
    }
}

fn main() {
    print!("{}", run());
}

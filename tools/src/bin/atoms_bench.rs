//! Lazy atoms (integers and characters whose bits the search refines only
//! when a comparison reads them) against whole reads, on the workloads of
//! issue 27: the party trick, `implies(is_sorted)` over `Vec<u8>`, search
//! trees with `i64` keys, and the cost of one read.
//!
//! ```text
//! cargo run --release -p neatcheck-tools --bin atoms_bench
//! ```
//!
//! Each table row is one exhaustive search (every class up to the bound):
//! its runs and seconds, the same predicate written with whole reads
//! (`get()`, one class per value, as every read was before lazy atoms) and
//! with lazy comparisons. Run counts are exact and machine-independent.

use neatcheck::lazy::ListView;
use neatcheck::search::{classes, BoundResult, Budget, Classes, Searcher};
use neatcheck::space::AsciiChar;
use neatcheck::{Enumerable, Lazy};
use neatcheck_tools::search_trees::{ordered_whole, Bst, BstView};
use std::time::Instant;

const SECRET: &str = "you can never find this";

fn timed(f: impl FnOnce() -> Classes) -> (Classes, f64) {
    let start = Instant::now();
    let c = f();
    (c, start.elapsed().as_secs_f64())
}

/// Runs of one size bound of the party trick.
fn party_runs<T: Enumerable>(bound: usize, prop: impl Fn(Lazy<'_, T>) -> bool) -> u64 {
    let mut s = Searcher::<T>::new(bound);
    match s.ctrex(&prop, Budget::unlimited()) {
        BoundResult::OutOfBudget(_) => unreachable!("unlimited"),
        // Passed: its runs; Failed: the runs up to the counterexample.
        result => result.runs(),
    }
}

fn ascii_is(s: Lazy<'_, Vec<AsciiChar>>) -> bool {
    let mut cell = s;
    for expected in SECRET.chars() {
        match cell.view() {
            ListView::Nil => return false,
            ListView::Cons(c, rest) => {
                if c.get().0 != expected {
                    return false;
                }
                cell = rest;
            }
        }
    }
    cell.is_empty()
}

fn party() {
    println!("## Party trick: runs per size bound\n");
    println!("| bound | original NEAT (ASCII, whole reads) | Unicode `String`, lazy |");
    println!("|---|---|---|");
    for bound in [20, 60, 100, 140, 170, 180, 181] {
        let ascii = party_runs(bound, |s: Lazy<Vec<AsciiChar>>| !ascii_is(s));
        let unicode = party_runs(bound, |s: Lazy<String>| !s.eq_str(SECRET));
        println!("| {bound} | {ascii} | {unicode} |");
    }
    println!();
}

/// Sorted by whole reads.
fn sorted_whole(xs: Lazy<'_, Vec<u8>>) -> bool {
    let mut previous: Option<u8> = None;
    for x in xs.iter() {
        let x = x.get();
        if previous.is_some_and(|p| p > x) {
            return false;
        }
        previous = Some(x);
    }
    true
}

/// Sorted by lazy comparisons.
fn sorted_lazy(xs: Lazy<'_, Vec<u8>>) -> bool {
    let mut previous: Option<Lazy<'_, u8>> = None;
    for x in xs.iter() {
        if previous.is_some_and(|p| p > x) {
            return false;
        }
        previous = Some(x);
    }
    true
}

/// The property under the precondition: inserting into a sorted list keeps
/// it sorted (reads the whole list when sorted).
fn insert_keeps_sorted(v: Vec<u8>) -> bool {
    let mut w = v.clone();
    let at = w.partition_point(|&y| y <= 7);
    w.insert(at, 7);
    w.windows(2).all(|p| p[0] <= p[1])
}

/// One table: a property that holds, searched to exhaustion at each bound
/// with its precondition written by whole reads and by lazy comparisons.
fn whole_vs_lazy<T: Enumerable>(
    title: &str,
    bounds: &[usize],
    whole: impl Fn(Lazy<'_, T>) -> bool,
    lazy: impl Fn(Lazy<'_, T>) -> bool,
) {
    println!("## {title}\n");
    println!("| bound | runs, whole | seconds | runs, lazy | seconds | ratio of runs |");
    println!("|---|---|---|---|---|---|");
    for &bound in bounds {
        let (w, tw) = timed(|| classes(&whole, bound));
        let (l, tl) = timed(|| classes(&lazy, bound));
        assert_eq!(w.satisfying, w.runs, "the property holds");
        assert_eq!(l.satisfying, l.runs, "the property holds");
        println!(
            "| {bound} | {} | {tw:.3} | {} | {tl:.3} | {:.1}x |",
            w.runs,
            l.runs,
            w.runs as f64 / l.runs as f64
        );
    }
    println!();
}

fn sorted_lists() {
    whole_vs_lazy(
        "`implies(is_sorted(xs), insert keeps xs sorted)` over `Vec<u8>`",
        &[10, 14, 18, 22],
        |xs: Lazy<Vec<u8>>| !sorted_whole(xs) || insert_keeps_sorted(xs.force()),
        |xs: Lazy<Vec<u8>>| !sorted_lazy(xs) || insert_keeps_sorted(xs.force()),
    );
}

/// Whether a lazy tree is a search tree (as `ordered_whole`), by lazy
/// comparisons of the keys with each other.
fn bst_lazy<'a>(t: Lazy<'a, Bst>, lo: Option<Lazy<'a, i64>>, hi: Option<Lazy<'a, i64>>) -> bool {
    match t.view() {
        BstView::Leaf => true,
        BstView::Node(l, k, r) => {
            lo.is_none_or(|lo| lo < k)
                && hi.is_none_or(|hi| k < hi)
                && bst_lazy(l, lo, Some(k))
                && bst_lazy(r, Some(k), hi)
        }
    }
}

fn keys(t: &Bst, out: &mut Vec<i64>) {
    if let Bst::Node(l, k, r) = t {
        keys(l, out);
        out.push(*k);
        keys(r, out);
    }
}

/// The property under the precondition: the keys of a search tree are
/// sorted.
fn keys_sorted(t: &Bst) -> bool {
    let mut ks = vec![];
    keys(t, &mut ks);
    ks.windows(2).all(|w| w[0] < w[1])
}

fn search_trees() {
    whole_vs_lazy(
        "`implies(is_bst(t), keys sorted)` over trees with `i64` keys",
        &[6, 8, 10, 12],
        |t: Lazy<Bst>| !ordered_whole(t, None, None) || keys_sorted(&t.force()),
        |t: Lazy<Bst>| !bst_lazy(t, None, None) || keys_sorted(&t.force()),
    );
}

fn read_cost() {
    println!("## The cost of a read: every element of `Vec<i64>` against 12345\n");
    println!("| bound | read | runs | seconds | ns per run |");
    println!("|---|---|---|---|---|");
    for bound in [12, 16] {
        let (whole, tw) = timed(|| {
            classes(
                |xs: Lazy<Vec<i64>>| xs.iter().all(|x| x.get() != 12345),
                bound,
            )
        });
        let (lazy, tl) =
            timed(|| classes(|xs: Lazy<Vec<i64>>| xs.iter().all(|x| x != 12345), bound));
        for (name, c, t) in [("`get()`", whole, tw), ("`x != c`", lazy, tl)] {
            println!(
                "| {bound} | {name} | {} | {t:.3} | {:.0} |",
                c.runs,
                t * 1e9 / c.runs as f64
            );
        }
    }
    println!();
}

fn main() {
    let only: Vec<String> = std::env::args().skip(1).collect();
    let want = |name: &str| only.is_empty() || only.iter().any(|o| o == name);
    if want("party") {
        party();
    }
    if want("sorted") {
        sorted_lists();
    }
    if want("bst") {
        search_trees();
    }
    if want("read") {
        read_cost();
    }
}

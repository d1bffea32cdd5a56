//! Hand-written spaces read through the public API (timed; the user example
//! of a hand-written space is `examples/handwritten.rs`): the cost of a lazy
//! search over a hand-written type whose `LazyView` uses
//! `Lazy::alternative`, against its derived equivalent (the derived view)
//! and against reading the hand-written type with `force()` (the public path
//! before `alternative`).
//!
//! ```text
//! cargo run --release -p neatcheck-tools --bin handwritten [-- --repeats N]
//! ```
//!
//! Two workloads: sorted lists of integers (`Vec<Int>`, `Int` a union of two
//! number families; `force()` reads an element whole, as the view does) and
//! binary search trees (a hand-written recursive type, which `force()` could
//! only read whole: no `force()` row; instead a derived tree whose key has
//! its own space, whose reads are checked and go through the generic
//! materialiser). Each search runs to completion at a fixed bound; the variants of a workload make the same runs (checked). A
//! timing is the thread CPU time of one whole search (the machines are
//! shared), the best of N repeats (default 7), the variants interleaved so
//! that load on the machine hits them alike. Prints a markdown table: ns
//! per run, and each variant's time over the derived one's.

use neatcheck::lazy::LazyView;
use neatcheck::search::{self, Classes};
use neatcheck::space::{self, Space};
use neatcheck::{Enumerable, Lazy};
use std::hint::black_box;
use std::time::Duration;

use neatcheck_tools::benchmarks::timing;

/// Integers as a union of two number families, described by hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Int {
    Pos(u8),
    Neg(u8),
}

impl Enumerable for Int {
    fn describe() -> Space<Self> {
        space::pay(space::union(vec![
            space::ctor("Pos", space::map(space::of::<u8>(), Int::Pos)),
            space::ctor("Neg", space::map(space::of::<u8>(), Int::Neg)),
        ]))
    }
}

enum IntView<'a> {
    Pos(Lazy<'a, u8>),
    Neg(Lazy<'a, u8>),
}

impl LazyView for Int {
    type View<'a> = IntView<'a>;
    #[inline]
    fn view(lazy: Lazy<'_, Self>) -> IntView<'_> {
        let alt = lazy.alternative();
        match alt.index() {
            0 => IntView::Pos(alt.field(0)),
            _ => IntView::Neg(alt.field(0)),
        }
    }
}

/// The derived equivalent of `Int`.
#[derive(Enumerable, Clone, Copy, Debug, PartialEq, Eq)]
enum DInt {
    Pos(u8),
    Neg(u8),
}

/// Binary trees with `u8` keys, described by hand.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Bst {
    Leaf,
    Node(Box<Bst>, u8, Box<Bst>),
}

impl Enumerable for Bst {
    fn describe() -> Space<Self> {
        space::pay(space::union(vec![
            space::pure(Bst::Leaf),
            space::map(
                space::product3(space::of::<Bst>(), space::of::<u8>(), space::of::<Bst>()),
                |(l, x, r)| Bst::Node(Box::new(l), x, Box::new(r)),
            ),
        ]))
    }
}

enum BstView<'a> {
    Leaf,
    Node(Lazy<'a, Bst>, Lazy<'a, u8>, Lazy<'a, Bst>),
}

impl LazyView for Bst {
    type View<'a> = BstView<'a>;
    #[inline]
    fn view(lazy: Lazy<'_, Self>) -> BstView<'_> {
        let alt = lazy.alternative();
        match alt.index() {
            0 => BstView::Leaf,
            _ => BstView::Node(alt.field(0), alt.field(1), alt.field(2)),
        }
    }
}

/// The derived equivalent of `Bst`.
#[derive(Enumerable, Clone, Debug, PartialEq, Eq)]
enum DBst {
    Leaf,
    Node(Box<DBst>, u8, Box<DBst>),
}

/// `DBst` with its key given its own space (the same values and sizes as
/// `u8`'s, but not `u8`'s space): reads of the key are checked.
#[derive(Enumerable, Clone, Debug, PartialEq, Eq)]
enum WBst {
    Leaf,
    Node(
        Box<WBst>,
        #[enumerable(with = space::nat_bits(8, |x| x as u8))] u8,
        Box<WBst>,
    ),
}

fn bst_with(t: Lazy<'_, WBst>, lo: u8, hi: u8) -> bool {
    match t.view() {
        WBstView::Leaf => true,
        WBstView::Node(l, x, r) => {
            let x = x.get();
            lo <= x && x < hi && bst_with(l, lo, x) && bst_with(r, x + 1, hi)
        }
    }
}

fn int_value(x: Int) -> i32 {
    match x {
        Int::Pos(n) => i32::from(n),
        Int::Neg(n) => -i32::from(n) - 1,
    }
}

fn sorted_hand(xs: Lazy<'_, Vec<Int>>) -> bool {
    let mut prev = i32::MIN;
    for x in xs.iter() {
        let v = match x.view() {
            IntView::Pos(n) => i32::from(n.get()),
            IntView::Neg(n) => -i32::from(n.get()) - 1,
        };
        if v < prev {
            return false;
        }
        prev = v;
    }
    true
}

fn sorted_derived(xs: Lazy<'_, Vec<DInt>>) -> bool {
    let mut prev = i32::MIN;
    for x in xs.iter() {
        let v = match x.view() {
            DIntView::Pos(n) => i32::from(n.get()),
            DIntView::Neg(n) => -i32::from(n.get()) - 1,
        };
        if v < prev {
            return false;
        }
        prev = v;
    }
    true
}

fn sorted_forced(xs: Lazy<'_, Vec<Int>>) -> bool {
    let mut prev = i32::MIN;
    for x in xs.iter() {
        let v = int_value(x.force());
        if v < prev {
            return false;
        }
        prev = v;
    }
    true
}

fn bst_hand(t: Lazy<'_, Bst>, lo: u8, hi: u8) -> bool {
    match t.view() {
        BstView::Leaf => true,
        BstView::Node(l, x, r) => {
            let x = x.get();
            lo <= x && x < hi && bst_hand(l, lo, x) && bst_hand(r, x + 1, hi)
        }
    }
}

fn bst_derived(t: Lazy<'_, DBst>, lo: u8, hi: u8) -> bool {
    match t.view() {
        DBstView::Leaf => true,
        DBstView::Node(l, x, r) => {
            let x = x.get();
            lo <= x && x < hi && bst_derived(l, lo, x) && bst_derived(r, x + 1, hi)
        }
    }
}

const LIST_BOUND: usize = 18;
const BST_BOUND: usize = 20;

fn time(f: &dyn Fn() -> Classes) -> (Duration, Classes) {
    let start = timing::cpu_now();
    let c = black_box(f());
    (timing::cpu_now() - start, c)
}

/// A whole search, returning its counts.
type Search = Box<dyn Fn() -> Classes>;

struct Row {
    name: &'static str,
    variants: Vec<(&'static str, Search)>,
}

fn main() {
    let mut repeats = 7;
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--repeats") {
        repeats = args[i + 1].parse().expect("--repeats N");
    }
    let rows = vec![
        Row {
            name: "sorted Vec<Int>",
            variants: vec![
                (
                    "derived view",
                    Box::new(|| search::classes(sorted_derived, LIST_BOUND)),
                ),
                (
                    "hand-written, alternative()",
                    Box::new(|| search::classes(sorted_hand, LIST_BOUND)),
                ),
                (
                    "hand-written, force()",
                    Box::new(|| search::classes(sorted_forced, LIST_BOUND)),
                ),
            ],
        },
        Row {
            name: "BST invariant",
            variants: vec![
                (
                    "derived view",
                    Box::new(|| search::classes(|t| bst_derived(t, 0, u8::MAX), BST_BOUND)),
                ),
                (
                    "hand-written, alternative()",
                    Box::new(|| search::classes(|t| bst_hand(t, 0, u8::MAX), BST_BOUND)),
                ),
                (
                    "derived, key `with` its own space",
                    Box::new(|| search::classes(|t| bst_with(t, 0, u8::MAX), BST_BOUND)),
                ),
            ],
        },
    ];
    println!("| workload | reading | runs | ns/run | time / derived |");
    println!("|---|---|---:|---:|---:|");
    for row in &rows {
        let mut best = vec![Duration::MAX; row.variants.len()];
        let mut runs = vec![0u64; row.variants.len()];
        for _ in 0..repeats {
            for (i, (_, f)) in row.variants.iter().enumerate() {
                let (d, c) = time(&**f);
                best[i] = best[i].min(d);
                runs[i] = c.runs;
            }
        }
        for (i, (name, _)) in row.variants.iter().enumerate() {
            println!(
                "| {} | {} | {} | {:.1} | {:.2} |",
                row.name,
                name,
                runs[i],
                best[i].as_nanos() as f64 / runs[i] as f64,
                best[i].as_secs_f64() / best[0].as_secs_f64()
            );
        }
    }
    let runs_agree = rows.iter().all(|row| {
        let all: Vec<u64> = row.variants.iter().map(|(_, f)| f().runs).collect();
        all.windows(2).all(|w| w[0] == w[1])
    });
    println!();
    println!("every variant of a workload makes the same runs: {runs_agree}");
}

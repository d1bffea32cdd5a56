//! Overhead benchmark (issues #3 and #6): the cost of one instrumented
//! predicate run in a lazy search against the same predicate run on a plain
//! Rust value built beforehand. Owns the plain versions of the conformance
//! predicates it compares (`bst`, `tree_sum`, `ordered_le`, `parity`), the
//! read-only "shadow" predicates, and the RedBlack invariant written
//! directly on `Lazy<Tree>` (to separate the benchmark's `BTree` wrapper
//! from the engine's costs).
//!
//! ```text
//! cargo run --release -p neatcheck-tools --bin overhead [-- --repeats N]
//! cargo run --profile profiling -p neatcheck-tools --bin overhead -- profile <predicate> <seconds>
//! ```
//!
//! The second form only repeats one predicate's lazy search (for `perf`).
//!
//! Per predicate, at a fixed bound:
//!
//! - (i) *instrumented*: a full search with the lazy predicate, time divided
//!   by the runs: the cost of one run including the engine (advance to the
//!   node, the run with its recorded reads, commit);
//! - *predicate*: the part of (i) spent in the predicate: a second search
//!   runs the predicate three times per node (the later runs read the same
//!   positions and record nothing new, so the search is the same), and half
//!   the difference of the two searches is one run of the predicate with its
//!   instrumented reads but without the engine; (i) minus it is the engine's
//!   share: moving to the node, starting the run, recording the new reads,
//!   committing;
//! - (ii) *plain*: the plain predicate on the values of those same runs,
//!   materialised beforehand (`Searcher::value`), a small chunk of values at
//!   a time so that they are in cache (as a generator's fresh value would
//!   be); the streamed column runs over all of them once;
//! - (iii) *shadow*: where one can be written, a full search with a
//!   predicate that reads exactly the same positions in the same order but
//!   computes nothing (the engine-only cost of a run).
//!
//! Every timing is the best of 3 batches (`--repeats N`: of N), each batch
//! repeating its work for at least 150 ms of the thread's CPU time (on
//! Linux; wall-clock time elsewhere), so that waiting for a busy core does
//! not count. The program prints markdown tables.

use neatcheck_tools::benchmarks;

use benchmarks::conformance::{self, TreeView};
use benchmarks::nat::{cmp_nat, le_nat_plain, Nat, NatView};
use benchmarks::redblack::{ColourView, Tree as RbTree, TreeView as RbTreeView};
use benchmarks::{lambda, redblack};
use neatcheck::search::{BoundResult, Budget, RunResult, Searcher};
use neatcheck::{Enumerable, Lazy};
use std::cmp::Ordering;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Batches per timing by default; the best one is reported.
const DEFAULT_REPEATS: usize = 3;

/// Batches per timing (`--repeats N`, default [`DEFAULT_REPEATS`]).
static REPEATS: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(DEFAULT_REPEATS);

/// Batches per timing.
fn repeats() -> usize {
    REPEATS.load(std::sync::atomic::Ordering::Relaxed)
}
/// Minimum duration of one batch.
const MIN_BATCH: Duration = Duration::from_millis(150);
/// The "within 3x of the plain run" target.
const TARGET: f64 = 3.0;

// Bounds: each search makes 20 000 to 45 000 runs.
const RB_BOUND: usize = 28;
const WT_BOUND: usize = 16;
const BST_BOUND: usize = 37;
const TREE_SUM_BOUND: usize = 21;
const ORDERED_BOUND: usize = 41;
const PARITY_BOUND: usize = 29;
const RB_PROP_BOUND: usize = 30;
const LAMBDA_PROP_BOUND: usize = 17;

// ---------------------------------------------------------------------------
// Plain versions of the conformance predicates (same algorithms, same order)

/// `a < b` on plain Peano naturals.
fn lt_nat_plain(mut a: &Nat, mut b: &Nat) -> bool {
    loop {
        match (a, b) {
            (Nat::Z, b) => return matches!(b, Nat::S(_)),
            (Nat::S(_), Nat::Z) => return false,
            (Nat::S(a1), Nat::S(b1)) => {
                a = a1;
                b = b1;
            }
        }
    }
}

fn within_plain(lo: Option<&Nat>, hi: Option<&Nat>, t: &conformance::Tree) -> bool {
    match t {
        conformance::Tree::Leaf => true,
        conformance::Tree::Node(l, x, r) => {
            let above = match lo {
                None => true,
                Some(a) => lt_nat_plain(a, x),
            };
            let below = || match hi {
                None => true,
                Some(b) => lt_nat_plain(x, b),
            };
            above && below() && within_plain(lo, Some(x), l) && within_plain(Some(x), hi, r)
        }
    }
}

/// [`conformance::bst`] on a plain tree.
fn bst_plain(t: &conformance::Tree) -> bool {
    within_plain(None, None, t)
}

fn even_n_plain(mut e: bool, mut n: &Nat) -> bool {
    while let Nat::S(m) = n {
        e = !e;
        n = m;
    }
    e
}

fn even_t_plain(e: bool, t: &conformance::Tree) -> bool {
    match t {
        conformance::Tree::Leaf => e,
        conformance::Tree::Node(l, x, r) => {
            let e1 = even_t_plain(e, l);
            let e2 = even_n_plain(e1, x);
            even_t_plain(e2, r)
        }
    }
}

/// [`conformance::tree_sum`] on a plain tree.
fn tree_sum_plain(t: &conformance::Tree) -> bool {
    even_t_plain(true, t)
}

/// [`conformance::ordered_le`] on a plain list.
fn ordered_le_plain(xs: &[Nat]) -> bool {
    xs.windows(2).all(|w| le_nat_plain(&w[0], &w[1]))
}

/// [`conformance::parity`] on a plain list.
fn parity_plain(xs: &[bool]) -> bool {
    let mut acc = true;
    for &b in xs {
        if b {
            acc = !acc;
        }
    }
    acc
}

// ---------------------------------------------------------------------------
// Lazy wrappers and shadows (same reads, no work)

/// The RedBlack invariant on an input tree.
fn rb_invariant(t: Lazy<'_, redblack::Tree>) -> bool {
    redblack::invariant(&redblack::BTree::In(t))
}

/// `leNat` of the RedBlack specification: through `cmpNat`, reads `b`
/// even when `a` is `Z`.
fn rb_le(a: Lazy<'_, Nat>, b: Lazy<'_, Nat>) -> bool {
    cmp_nat(a, b) != Ordering::Greater
}

fn rb_within(lo: Option<Lazy<'_, Nat>>, hi: Option<Lazy<'_, Nat>>, t: Lazy<'_, RbTree>) -> bool {
    match t.view() {
        RbTreeView::E => true,
        RbTreeView::T(_, a, x, b) => {
            let above = match lo {
                None => true,
                Some(m) => rb_le(m, x),
            };
            let below = || match hi {
                None => true,
                Some(m) => rb_le(x, m),
            };
            above && below() && rb_within(lo, Some(x), a) && rb_within(Some(x), hi, b)
        }
    }
}

fn rb_is_red(c: Lazy<'_, redblack::Colour>) -> bool {
    matches!(c.view(), ColourView::R)
}

fn rb_bh(t: Lazy<'_, RbTree>) -> Option<u32> {
    match t.view() {
        RbTreeView::E => Some(0),
        RbTreeView::T(c, a, _, b) => {
            let n = rb_bh(a)?;
            let m = rb_bh(b)?;
            (n == m).then(|| if rb_is_red(c) { n } else { n + 1 })
        }
    }
}

fn rb_black_root(t: Lazy<'_, RbTree>) -> bool {
    match t.view() {
        RbTreeView::E => true,
        RbTreeView::T(c, _, _, _) => !rb_is_red(c),
    }
}

fn rb_red_ok(t: Lazy<'_, RbTree>) -> bool {
    match t.view() {
        RbTreeView::E => true,
        RbTreeView::T(c, a, _, b) => {
            (!rb_is_red(c) || (rb_black_root(a) && rb_black_root(b)))
                && rb_red_ok(a)
                && rb_red_ok(b)
        }
    }
}

/// The RedBlack invariant written directly on `Lazy<Tree>`, without the
/// benchmark's `BTree` wrapper (which also serves trees built by
/// `insert`): the same reads in the same order, less predicate code.
fn rb_invariant_direct(t: Lazy<'_, RbTree>) -> bool {
    rb_within(None, None, t) && rb_bh(t).is_some() && rb_red_ok(t)
}

/// Reads what [`conformance::parity`] reads (every cell, then its element),
/// in the same order, and computes nothing.
fn parity_shadow(xs: Lazy<'_, Vec<bool>>) -> bool {
    for b in xs.iter() {
        black_box(b.get());
    }
    true
}

fn walk_nat(mut n: Lazy<'_, Nat>) {
    while let NatView::S(m) = n.view() {
        n = m;
    }
}

/// Reads what [`conformance::tree_sum`] reads (in order: node, left subtree,
/// label, right subtree) and computes nothing.
fn tree_sum_shadow(t: Lazy<'_, conformance::Tree>) -> bool {
    if let TreeView::Node(l, x, r) = t.view() {
        tree_sum_shadow(l);
        walk_nat(x);
        tree_sum_shadow(r);
    }
    true
}

// ---------------------------------------------------------------------------
// Measurement

/// One row of the overhead table.
struct Row {
    name: &'static str,
    ty: &'static str,
    bound: usize,
    runs: u64,
    satisfied: u64,
    /// (i) ns per instrumented run, engine included.
    lazy_ns: f64,
    /// ns per run spent in the lazy predicate (instrumented reads included,
    /// recording excluded).
    inside_ns: f64,
    /// (ii) ns per plain run, values in cache.
    plain_ns: f64,
    /// ns per plain run, streaming over all values.
    streamed_ns: f64,
    /// (iii) ns per run of the shadow search.
    shadow_ns: Option<f64>,
}

/// Best of [`repeats()`] batches: `batch` returns (elapsed, units of work);
/// the result is ns per unit.
fn best_of(mut batch: impl FnMut() -> (Duration, u64)) -> f64 {
    (0..repeats())
        .map(|_| {
            let (d, n) = batch();
            d.as_nanos() as f64 / n as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// Runs one full search; returns (runs, satisfied).
fn search_once<T: Enumerable>(bound: usize, pred: &impl Fn(Lazy<'_, T>) -> bool) -> (u64, u64) {
    let mut s = Searcher::<T>::new(bound);
    let (mut runs, mut satisfied) = (0, 0);
    while let Some(r) = s.step(pred) {
        runs += 1;
        match r {
            RunResult::True => satisfied += 1,
            RunResult::Panicked(m) => panic!("the predicate panicked: {m}"),
            // False or discarded: not satisfied.
            _ => {}
        }
    }
    (runs, satisfied)
}

use benchmarks::timing::cpu_now;

/// ns per run of full searches at `bound`, repeated for one batch.
fn search_batch<T: Enumerable>(bound: usize, pred: &impl Fn(Lazy<'_, T>) -> bool) -> f64 {
    let start = cpu_now();
    let mut total = 0;
    while (cpu_now() - start) < MIN_BATCH {
        total += search_once(bound, pred).0;
    }
    (cpu_now() - start).as_nanos() as f64 / total as f64
}

/// ns per run of full searches at `bound` (best of 3 batches).
fn time_search<T: Enumerable>(bound: usize, pred: &impl Fn(Lazy<'_, T>) -> bool) -> f64 {
    (0..repeats())
        .map(|_| search_batch(bound, pred))
        .fold(f64::INFINITY, f64::min)
}

/// The values of the runs of a full search, materialised.
fn collect_values<T: Enumerable>(bound: usize, pred: &impl Fn(Lazy<'_, T>) -> bool) -> Vec<T> {
    let mut s = Searcher::<T>::new(bound);
    let mut values = Vec::new();
    while s.step(pred).is_some() {
        values.push(s.value());
    }
    values
}

/// Values per chunk of the hot plain timing (their data fits in L2).
const CHUNK: usize = 128;
/// Passes over each chunk in the hot plain timing.
const PASSES: u64 = 8;

/// Plain runs over `values`: ns per run with the values in cache (each
/// chunk of [`CHUNK`] values run [`PASSES`] times in a row, as a plain
/// generator would run a value it has just built) and streaming once over
/// all of them (values mostly out of cache), best of 3 batches each; and
/// how many values satisfy the predicate.
fn time_plain<T>(values: &[T], plain: &impl Fn(&T) -> bool) -> (f64, f64, u64) {
    let satisfied = values.iter().filter(|v| plain(v)).count() as u64;
    let hot = best_of(|| {
        let start = cpu_now();
        let mut total = 0;
        let mut count = 0u64;
        while (cpu_now() - start) < MIN_BATCH {
            for chunk in values.chunks(CHUNK) {
                for _ in 0..PASSES {
                    for v in chunk {
                        count += plain(black_box(v)) as u64;
                    }
                }
                total += chunk.len() as u64 * PASSES;
            }
        }
        black_box(count);
        ((cpu_now() - start), total)
    });
    let streamed = best_of(|| {
        let start = cpu_now();
        let mut total = 0;
        let mut count = 0u64;
        while (cpu_now() - start) < MIN_BATCH {
            for v in values {
                count += plain(black_box(v)) as u64;
            }
            total += values.len() as u64;
        }
        black_box(count);
        ((cpu_now() - start), total)
    });
    (hot, streamed, satisfied)
}

/// Measures one predicate: lazy search, the predicate's share, plain runs on the
/// same values, and the optional shadow search.
fn measure<T: Enumerable>(
    name: &'static str,
    ty: &'static str,
    bound: usize,
    lazy: impl Fn(Lazy<'_, T>) -> bool,
    plain: impl Fn(&T) -> bool,
    shadow: Option<fn(Lazy<'_, T>) -> bool>,
) -> Row {
    let (runs, satisfied) = search_once(bound, &lazy);
    let values = collect_values(bound, &lazy);
    assert_eq!(values.len() as u64, runs);
    let (plain_ns, streamed_ns, plain_satisfied) = time_plain(&values, &plain);
    // One run per class, on the class's value: the plain predicate must
    // agree with the lazy one on every run.
    assert_eq!(
        plain_satisfied, satisfied,
        "{name}: plain and lazy disagree"
    );
    // The predicate run three times per node: the later runs read the same
    // positions (the value has not changed) and record nothing new, so the
    // search is the same, and half the difference is one more run of the
    // predicate with its instrumented reads, without the engine. The two
    // searches alternate, best of 3 each.
    let thrice = |x: Lazy<'_, T>| {
        black_box(lazy(x));
        black_box(lazy(x));
        lazy(x)
    };
    assert_eq!(search_once(bound, &thrice), (runs, satisfied));
    let (mut lazy_ns, mut thrice_ns) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..repeats() {
        lazy_ns = lazy_ns.min(search_batch(bound, &lazy));
        thrice_ns = thrice_ns.min(search_batch(bound, &thrice));
    }
    let inside_ns = (thrice_ns - lazy_ns) / 2.0;
    let shadow_ns = shadow.map(|sh| {
        let (shadow_runs, _) = search_once(bound, &sh);
        assert_eq!(shadow_runs, runs, "{name}: the shadow reads differently");
        time_search(bound, &sh)
    });
    Row {
        name,
        ty,
        bound,
        runs,
        satisfied,
        lazy_ns,
        inside_ns,
        plain_ns,
        streamed_ns,
        shadow_ns,
    }
}

/// The party trick (`examples/party.rs`): counterexample search for
/// `s != "you can never find this"` at bounds 0..=181. Returns (runs,
/// ns per run), best of 3.
fn party() -> (u64, f64) {
    const SECRET: &str = "you can never find this";
    const LAST: usize = 181;
    let prop = |s: Lazy<'_, String>| !s.eq_str(SECRET);
    let mut runs = 0;
    let ns = best_of(|| {
        let start = cpu_now();
        runs = 0;
        for bound in 0..=LAST {
            let mut s = Searcher::<String>::new(bound);
            match s.ctrex(&prop, Budget::unlimited()) {
                BoundResult::Passed(r) => runs += r,
                BoundResult::Failed(c) => {
                    assert_eq!(bound, LAST, "found before the last bound");
                    assert_eq!(c.value, SECRET);
                    runs += c.runs;
                }
                // Out of budget: impossible without a budget.
                _ => unreachable!("an unlimited search passes or fails"),
            }
        }
        ((cpu_now() - start), runs)
    });
    (runs, ns)
}

fn fmt_ns(ns: f64) -> String {
    if ns >= 100.0 {
        format!("{ns:.0}")
    } else {
        format!("{ns:.1}")
    }
}

fn runs_per_sec(ns: f64) -> String {
    format!("{:.2} M", 1e3 / ns)
}

fn usage() -> ! {
    eprintln!("usage: overhead [--repeats N] | overhead profile <predicate> <seconds>");
    std::process::exit(2)
}

/// Repeats the lazy search of one predicate for `seconds` (for profilers).
fn spin<T: Enumerable>(bound: usize, pred: impl Fn(Lazy<'_, T>) -> bool, seconds: f64) {
    let start = Instant::now();
    let mut runs = 0;
    while start.elapsed().as_secs_f64() < seconds {
        runs += search_once(bound, &pred).0;
    }
    println!("{runs} runs in {:.2} s", start.elapsed().as_secs_f64());
}

/// `overhead profile <name> <seconds>`: only the lazy search of one row.
fn profile(name: &str, seconds: f64) {
    match name {
        "redblack" => spin(RB_BOUND, rb_invariant, seconds),
        "redblack_direct" => spin(RB_BOUND, rb_invariant_direct, seconds),
        "well_typed" => spin(WT_BOUND, lambda::well_typed, seconds),
        "bst" => spin(BST_BOUND, conformance::bst, seconds),
        "tree_sum" => spin(TREE_SUM_BOUND, conformance::tree_sum, seconds),
        "tree_sum_shadow" => spin(TREE_SUM_BOUND, tree_sum_shadow, seconds),
        "ordered_le" => spin(ORDERED_BOUND, conformance::ordered_le, seconds),
        "parity" => spin(PARITY_BOUND, conformance::parity, seconds),
        "redblack_prop" => spin(RB_PROP_BOUND, redblack::prop, seconds),
        "lambda_prop" => spin(LAMBDA_PROP_BOUND, lambda::prop, seconds),
        _ => {
            eprintln!(
                "unknown predicate `{name}`: redblack, redblack_direct, well_typed, bst, tree_sum, \
                 tree_sum_shadow, ordered_le, parity, redblack_prop, lambda_prop"
            );
            std::process::exit(2)
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => {}
        [flag, n] if flag == "--repeats" => match n.parse::<usize>() {
            Ok(n) if n > 0 => REPEATS.store(n, std::sync::atomic::Ordering::Relaxed),
            _ => usage(),
        },
        [mode, name, seconds] if mode == "profile" => match seconds.parse() {
            Ok(seconds) => return profile(name, seconds),
            Err(_) => usage(),
        },
        _ => usage(),
    }
    // The direct invariant must make the same search as the benchmark's.
    assert_eq!(
        search_once(RB_BOUND, &rb_invariant),
        search_once(RB_BOUND, &rb_invariant_direct)
    );
    let rows = vec![
        measure(
            "RedBlack `invariant`",
            "redblack::Tree",
            RB_BOUND,
            rb_invariant,
            redblack::invariant_plain,
            None,
        ),
        measure(
            "RedBlack `invariant` on `Lazy<Tree>` directly (no `BTree` wrapper)",
            "redblack::Tree",
            RB_BOUND,
            rb_invariant_direct,
            redblack::invariant_plain,
            None,
        ),
        measure(
            "Lambda `well_typed`",
            "lambda::Expr",
            WT_BOUND,
            lambda::well_typed,
            lambda::well_typed_plain,
            None,
        ),
        measure(
            "conformance `bst`",
            "conformance::Tree",
            BST_BOUND,
            conformance::bst,
            bst_plain,
            None,
        ),
        measure(
            "conformance `tree_sum`",
            "conformance::Tree",
            TREE_SUM_BOUND,
            conformance::tree_sum,
            tree_sum_plain,
            Some(tree_sum_shadow),
        ),
        measure(
            "conformance `ordered_le`",
            "Vec<Nat>",
            ORDERED_BOUND,
            conformance::ordered_le,
            |v: &Vec<Nat>| ordered_le_plain(v),
            None,
        ),
        measure(
            "conformance `parity`",
            "Vec<bool>",
            PARITY_BOUND,
            conformance::parity,
            |v: &Vec<bool>| parity_plain(v),
            Some(parity_shadow),
        ),
    ];

    println!("## Instrumented run vs plain run\n");
    println!(
        "Every time is the best of {} batches of at least {} ms of thread CPU time (the machine is shared). (i) is a full \
         lazy search divided by its runs; \"predicate\" is the part of it spent in the \
         predicate (instrumented reads included): half the difference between a search \
         that runs the predicate three times per node (the later runs read the same \
         positions and record nothing) and (i); \"engine\" is the rest; (ii) runs \
         the plain predicate on the values of the same runs, built beforehand, \
         {CHUNK} values at a time {PASSES} times over (in cache; \"streamed\" is one \
         pass over all of them); (iii) is a search with a predicate that reads the \
         same positions in the same order and computes nothing.\n",
        repeats(),
        MIN_BATCH.as_millis()
    );
    println!(
        "| predicate | input | bound | runs | (i) instrumented ns/run \
         | predicate ns/run | engine ns/run | (ii) plain ns/run | plain streamed ns/run \
         | (i)/(ii) | predicate/(ii) | (iii) shadow ns/run | within {TARGET:.0}x of plain |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|");
    for r in &rows {
        let ratio = r.lazy_ns / r.plain_ns;
        let mark = if ratio <= TARGET { "yes" } else { "**no**" };
        println!(
            "| {} | `{}` | {} | {} | {} | {} | {} | {} | {} | {:.1}x | {:.1}x | {} | {} |",
            r.name,
            r.ty,
            r.bound,
            r.runs,
            fmt_ns(r.lazy_ns),
            fmt_ns(r.inside_ns),
            fmt_ns(r.lazy_ns - r.inside_ns),
            fmt_ns(r.plain_ns),
            fmt_ns(r.streamed_ns),
            ratio,
            r.inside_ns / r.plain_ns,
            r.shadow_ns.map_or("n/a".to_string(), fmt_ns),
            mark,
        );
    }

    println!(
        "\n(iii) n/a: `bst` and `ordered_le` are nothing but their reads (every \
         comparison of Peano naturals is reads), so a read-only version is the predicate \
         itself; the RedBlack and Lambda checkers cannot be stripped of their logic \
         without changing what they read. The engine column is the engine-only cost \
         for every row."
    );

    println!("\n## Predicate runs per second\n");
    println!("| search | bounds | runs | satisfied | ns/run | runs/s |");
    println!("|---|---:|---:|---:|---:|---:|");
    let (party_runs, party_ns) = party();
    println!(
        "| party trick: `!s.eq_str(\"you can never find this\")`, counterexample search per bound \
         | 0..=181 | {party_runs} | - | {} | {} |",
        fmt_ns(party_ns),
        runs_per_sec(party_ns)
    );
    for r in &rows {
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            r.name,
            r.bound,
            r.runs,
            r.satisfied,
            fmt_ns(r.lazy_ns),
            runs_per_sec(r.lazy_ns)
        );
    }
    property_row("RedBlack `prop`", RB_PROP_BOUND, redblack::prop);
    property_row("Lambda `prop`", LAMBDA_PROP_BOUND, lambda::prop);
}

/// Prints the runs-per-second row of a whole benchmark property.
fn property_row<T: Enumerable>(name: &str, bound: usize, prop: impl Fn(Lazy<'_, T>) -> bool) {
    let (runs, satisfied) = search_once(bound, &prop);
    let ns = time_search(bound, &prop);
    println!(
        "| {name} | {bound} | {runs} | {satisfied} | {} | {} |",
        fmt_ns(ns),
        runs_per_sec(ns)
    );
}

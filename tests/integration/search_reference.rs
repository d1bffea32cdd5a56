//! The search engine against the reference enumeration (issue #3): for fixed
//! and randomly generated predicates, every value up to the bound falls in
//! exactly one run's class, each run's result is the predicate's result on
//! every value of its class, eager predicates run once per value, `classes`,
//! `search`, `sat` and `ctrex` agree, and iterative deepening finds
//! size-minimal counterexamples. Also the conformance numbers, panics, bound
//! 0, very deep values, and a check's skip to a bound sure to finish
//! against bound-by-bound iterative deepening.

use crate::common;

use common::{check_against_reference, record_runs, BTree, BTreeView, Nat, NatView, Summary};
use neatcheck::count::count_up_to;
use neatcheck::lazy::ListView;
use neatcheck::search::{self, RunResult, Searcher};
use neatcheck::values::{tree_value, trees_of};
use neatcheck::{Enumerable, Lazy};
use num_bigint::BigUint;
use proptest::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::fmt::Debug;

// ---------------------------------------------------------------------------
// A counting allocator: live bytes allocated by the current thread.
// ---------------------------------------------------------------------------

struct Counting;

thread_local! {
    static LIVE: Cell<i64> = const { Cell::new(0) };
}

fn track(delta: i64) {
    let _ = LIVE.try_with(|c| c.set(c.get() + delta));
}

// SAFETY: every call is forwarded to the system allocator unchanged; the
// bookkeeping touches only a const-initialised thread-local `Cell` (no
// allocation, no destructor).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            track(layout.size() as i64);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            track(layout.size() as i64);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        track(-(layout.size() as i64));
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            track(new_size as i64 - layout.size() as i64);
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn live_bytes() -> i64 {
    LIVE.with(|c| c.get())
}

/// Runs `f` on a thread with a 2 MiB stack (the default of spawned threads).
fn on_small_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    on_stack(2 << 20, f)
}

/// Runs `f` on a thread with a stack of `bytes`.
fn on_stack<R: Send + 'static>(bytes: usize, f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new()
        .stack_size(bytes)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap_or_else(|p| std::panic::resume_unwind(p))
}

// ---------------------------------------------------------------------------
// Fixed predicates, each written lazily and on plain values.
// ---------------------------------------------------------------------------

fn all_true(xs: Lazy<'_, Vec<bool>>) -> bool {
    xs.iter().all(|b| b.get())
}

fn any_true(xs: Lazy<'_, Vec<bool>>) -> bool {
    xs.iter().any(|b| b.get())
}

#[allow(clippy::ptr_arg)] // used where a `Fn(&Vec<bool>) -> bool` is expected
fn parity_plain(v: &Vec<bool>) -> bool {
    v.iter().filter(|&&b| b).count() % 2 == 0
}

fn no_adjacent_trues(xs: Lazy<'_, Vec<bool>>) -> bool {
    let mut prev = false;
    for b in xs.iter() {
        let b = b.get();
        if prev && b {
            return false;
        }
        prev = b;
    }
    true
}

fn first_equals_last(xs: Lazy<'_, Vec<bool>>) -> bool {
    let Some(first) = xs.first() else {
        return true;
    };
    let first = first.get();
    let mut last = None;
    for b in xs.iter() {
        last = Some(b);
    }
    last.map(|b| b.get()) == Some(first)
}

/// Reads the second element before the first.
fn second_then_first(xs: Lazy<'_, Vec<bool>>) -> bool {
    match xs.nth(1) {
        None => false,
        Some(second) => {
            let s = second.get();
            let f = xs.first().unwrap().get();
            s && !f
        }
    }
}

#[test]
fn vec_bool_predicates() {
    let b = 11;
    let s =
        check_against_reference::<Vec<bool>, _, _>(b, all_true, |v| v.iter().all(|&x| x), false);
    assert_eq!((s.runs, s.trues), (11, 6));
    let s =
        check_against_reference::<Vec<bool>, _, _>(b, any_true, |v| v.iter().any(|&x| x), false);
    assert_eq!((s.runs, s.trues), (11, 5));
    let s = check_against_reference::<Vec<bool>, _, _>(
        b,
        |xs| parity_plain(&xs.force()),
        parity_plain,
        true,
    );
    assert_eq!((s.runs, s.trues), (63, 32));
    check_against_reference::<Vec<bool>, _, _>(
        b,
        no_adjacent_trues,
        |v| !v.windows(2).any(|w| w[0] && w[1]),
        false,
    );
    let s = check_against_reference::<Vec<bool>, _, _>(
        b,
        |xs| xs.len() % 2 == 0,
        |v| v.len() % 2 == 0,
        false,
    );
    // Only the cells are read: one class per length.
    assert_eq!(s.runs, 6);
    check_against_reference::<Vec<bool>, _, _>(
        b,
        first_equals_last,
        |v| v.first() == v.last(),
        false,
    );
    check_against_reference::<Vec<bool>, _, _>(
        b,
        second_then_first,
        |v| v.len() >= 2 && v[1] && !v[0],
        false,
    );
    check_against_reference::<Vec<bool>, _, _>(
        b,
        |xs| xs.eq_slice(&[true, false]),
        |v| v == &[true, false],
        false,
    );
    check_against_reference::<Vec<bool>, _, _>(
        b,
        |xs| xs.nth(2).is_some_and(|x| x.get()),
        |v| v.get(2) == Some(&true),
        false,
    );
    // Constant predicates read nothing: one run.
    let s = check_against_reference::<Vec<bool>, _, _>(b, |_| true, |_| true, false);
    assert_eq!((s.runs, s.trues), (1, 1));
    let s = check_against_reference::<Vec<bool>, _, _>(b, |_| false, |_| false, false);
    assert_eq!((s.runs, s.min_false), (1, Some(1)));
}

#[test]
fn nested_list_predicates() {
    // All inner lists non-empty, reading inner cells only.
    check_against_reference::<Vec<Vec<bool>>, _, _>(
        10,
        |xss| xss.iter().all(|xs| !xs.is_empty()),
        |v| v.iter().all(|xs| !xs.is_empty()),
        false,
    );
    check_against_reference::<Vec<Vec<bool>>, _, _>(
        9,
        |xss| {
            let v = xss.force();
            v.concat().len() < 3
        },
        |v| v.concat().len() < 3,
        true,
    );
    check_against_reference::<Vec<Option<bool>>, _, _>(
        9,
        |xs| xs.iter().all(|x| x.view().is_none_or(|b| !b.get())),
        |v| v.iter().all(|x| *x != Some(true)),
        false,
    );
}

#[test]
fn leaf_predicates() {
    let s = check_against_reference::<u8, _, _>(9, |x| x.get() < 37, |&x| x < 37, true);
    assert_eq!((s.runs, s.trues), (256, 37));
    let s = check_against_reference::<i8, _, _>(9, |x| x.get() % 3 != 0, |&x| x % 3 != 0, true);
    assert_eq!(s.runs, 256);
    check_against_reference::<char, _, _>(
        8,
        |c| c.get().is_ascii_digit(),
        |c| c.is_ascii_digit(),
        true,
    );
    check_against_reference::<u16, _, _>(9, |x| x.get() != 300, |&x| x != 300, true);
    check_against_reference::<(u8, u8), _, _>(
        7,
        |p| {
            let (a, b) = p.view();
            a.get() <= b.get()
        },
        |&(a, b)| a <= b,
        true,
    );
    // Short-circuit on a leaf: the second component is read only if the
    // first is zero.
    let s = check_against_reference::<(u8, u8), _, _>(
        7,
        |p| {
            let (a, b) = p.view();
            a.get() != 0 || b.get() < 5
        },
        |&(a, b)| a != 0 || b < 5,
        false,
    );
    // a in 1..=127 (sizes 1..=7): 127 classes; a = 0: 128 values of b.
    assert_eq!(s.runs, 127 + 128);
}

#[test]
fn option_result_string_predicates() {
    check_against_reference::<Option<u8>, _, _>(
        9,
        |o| o.view().is_none_or(|x| x.get() > 5),
        |o| o.is_none_or(|x| x > 5),
        false,
    );
    check_against_reference::<Result<bool, u8>, _, _>(
        9,
        |r| match r.view() {
            Ok(b) => b.get(),
            Err(x) => x.get() % 2 == 0,
        },
        |r| match r {
            Ok(b) => *b,
            Err(x) => x % 2 == 0,
        },
        true,
    );
    check_against_reference::<String, _, _>(
        9,
        |s| s.chars().all(|c| c < '\u{2}'),
        |s| s.chars().all(|c| c < '\u{2}'),
        false,
    );
    check_against_reference::<String, _, _>(8, |s| s.len() != 2, |s| s.chars().count() != 2, false);
    check_against_reference::<(bool, Vec<u8>), _, _>(
        8,
        |p| {
            let (flag, xs) = p.view();
            flag.get() || xs.is_empty()
        },
        |(flag, xs)| *flag || xs.is_empty(),
        false,
    );
    check_against_reference::<[bool; 3], _, _>(
        5,
        |a| {
            let [x, y, z] = a.view();
            x.get() ^ y.get() ^ z.get()
        },
        |a| a[0] ^ a[1] ^ a[2],
        true,
    );
}

fn btree_search(t: Lazy<'_, BTree>) -> bool {
    // Every label on the leftmost path is true.
    let mut cur = t;
    loop {
        match cur.view() {
            BTreeView::Leaf => return true,
            BTreeView::Node(l, b, _) => {
                if !b.get() {
                    return false;
                }
                cur = l;
            }
        }
    }
}

fn btree_search_plain(t: &BTree) -> bool {
    let mut cur = t;
    loop {
        match cur {
            BTree::Leaf => return true,
            BTree::Node(l, b, _) => {
                if !b {
                    return false;
                }
                cur = l;
            }
        }
    }
}

fn btree_nodes(t: &BTree) -> usize {
    match t {
        BTree::Leaf => 0,
        BTree::Node(l, _, r) => 1 + btree_nodes(l) + btree_nodes(r),
    }
}

#[test]
fn derived_tree_predicates() {
    check_against_reference::<BTree, _, _>(13, btree_search, btree_search_plain, false);
    check_against_reference::<BTree, _, _>(
        13,
        |t| btree_nodes(&t.force()) != 3,
        |t| btree_nodes(t) != 3,
        true,
    );
    check_against_reference::<BTree, _, _>(
        13,
        |t| match t.view() {
            BTreeView::Leaf => true,
            BTreeView::Node(l, _, r) => {
                matches!(r.view(), BTreeView::Leaf) || matches!(l.view(), BTreeView::Leaf)
            }
        },
        |t| match t {
            BTree::Leaf => true,
            BTree::Node(l, _, r) => **r == BTree::Leaf || **l == BTree::Leaf,
        },
        false,
    );
    check_against_reference::<common::Forest, _, _>(
        10,
        |f| {
            let mut cur = f;
            while let common::ForestView::Cons(t, rest) = cur.view() {
                if let common::Tree2View::Leaf(b) = t.view() {
                    if b.get() {
                        return false;
                    }
                }
                cur = rest;
            }
            true
        },
        |f| {
            let mut cur = f;
            while let common::Forest::Cons(t, rest) = cur {
                if **t == common::Tree2::Leaf(true) {
                    return false;
                }
                cur = rest;
            }
            true
        },
        false,
    );
    check_against_reference::<Option<Box<BTree>>, _, _>(
        10,
        |o| o.view().is_some_and(|t| btree_search(t.unbox())),
        |o| o.as_ref().is_some_and(|t| btree_search_plain(t)),
        false,
    );
}

// ---------------------------------------------------------------------------
// The conformance set (docs/benchmarks/conformance.md), our own copy.
// ---------------------------------------------------------------------------

/// `Tree = Leaf | Node(Tree, Nat, Tree)`.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
enum CTree {
    Leaf,
    Node(Box<CTree>, Nat, Box<CTree>),
}

type LNat<'a> = Lazy<'a, Nat>;

fn le_nat(mut a: LNat<'_>, mut b: LNat<'_>) -> bool {
    loop {
        match a.view() {
            NatView::Z => return true,
            NatView::S(a1) => match b.view() {
                NatView::Z => return false,
                NatView::S(b1) => {
                    a = a1;
                    b = b1;
                }
            },
        }
    }
}

fn lt_nat(mut a: LNat<'_>, mut b: LNat<'_>) -> bool {
    loop {
        match a.view() {
            NatView::Z => return matches!(b.view(), NatView::S(_)),
            NatView::S(a1) => match b.view() {
                NatView::Z => return false,
                NatView::S(b1) => {
                    a = a1;
                    b = b1;
                }
            },
        }
    }
}

fn ordered(xs: Lazy<'_, Vec<Nat>>, cmp: fn(LNat<'_>, LNat<'_>) -> bool) -> bool {
    match xs.view() {
        ListView::Nil => true,
        ListView::Cons(x, rest) => match rest.view() {
            ListView::Nil => true,
            ListView::Cons(y, _) => cmp(x, y) && ordered(rest, cmp),
        },
    }
}

fn ordered_le(xs: Lazy<'_, Vec<Nat>>) -> bool {
    ordered(xs, le_nat)
}

fn ordered_lt(xs: Lazy<'_, Vec<Nat>>) -> bool {
    ordered(xs, lt_nat)
}

fn ordered_plain(v: &[Nat], strict: bool) -> bool {
    v.windows(2).all(|w| {
        let (a, b) = (w[0].to_u64(), w[1].to_u64());
        if strict {
            a < b
        } else {
            a <= b
        }
    })
}

fn parity(xs: Lazy<'_, Vec<bool>>) -> bool {
    let mut acc = true;
    for b in xs.iter() {
        if b.get() {
            acc = !acc;
        }
    }
    acc
}

fn within(lo: Option<LNat<'_>>, hi: Option<LNat<'_>>, t: Lazy<'_, CTree>) -> bool {
    match t.view() {
        CTreeView::Leaf => true,
        CTreeView::Node(l, x, r) => {
            lo.is_none_or(|a| lt_nat(a, x))
                && hi.is_none_or(|b| lt_nat(x, b))
                && within(lo, Some(x), l)
                && within(Some(x), hi, r)
        }
    }
}

fn bst(t: Lazy<'_, CTree>) -> bool {
    within(None, None, t)
}

fn bst_plain(t: &CTree) -> bool {
    fn go(t: &CTree, lo: Option<u64>, hi: Option<u64>) -> bool {
        match t {
            CTree::Leaf => true,
            CTree::Node(l, x, r) => {
                let x = x.to_u64();
                lo.is_none_or(|a| a < x)
                    && hi.is_none_or(|b| x < b)
                    && go(l, lo, Some(x))
                    && go(r, Some(x), hi)
            }
        }
    }
    go(t, None, None)
}

fn even_t(e: bool, t: Lazy<'_, CTree>) -> bool {
    match t.view() {
        CTreeView::Leaf => e,
        CTreeView::Node(l, x, r) => {
            let mut e = even_t(e, l);
            let mut n = x;
            while let NatView::S(m) = n.view() {
                e = !e;
                n = m;
            }
            even_t(e, r)
        }
    }
}

fn tree_sum(t: Lazy<'_, CTree>) -> bool {
    even_t(true, t)
}

fn tree_sum_plain(t: &CTree) -> bool {
    fn sum(t: &CTree) -> u64 {
        match t {
            CTree::Leaf => 0,
            CTree::Node(l, x, r) => sum(l) + x.to_u64() + sum(r),
        }
    }
    sum(t) % 2 == 0
}

fn or3(x: Lazy<'_, (bool, bool, bool)>) -> bool {
    let (a, b, c) = x.view();
    c.get() || (b.get() || a.get())
}

/// `tests/hits` per bound 0..=12 from conformance.md.
const ORDERED_LE: [(u64, u64); 13] = [
    (0, 0),
    (1, 1),
    (1, 1),
    (2, 2),
    (2, 2),
    (3, 3),
    (4, 3),
    (6, 5),
    (8, 5),
    (12, 8),
    (16, 9),
    (23, 13),
    (31, 15),
];
const ORDERED_LT: [(u64, u64); 13] = [
    (0, 0),
    (1, 1),
    (1, 1),
    (2, 2),
    (2, 2),
    (3, 2),
    (5, 3),
    (6, 3),
    (9, 4),
    (11, 4),
    (16, 6),
    (19, 6),
    (26, 8),
];
const AND: [(u64, u64); 13] = [
    (0, 0),
    (1, 1),
    (1, 1),
    (3, 2),
    (3, 2),
    (5, 3),
    (5, 3),
    (7, 4),
    (7, 4),
    (9, 5),
    (9, 5),
    (11, 6),
    (11, 6),
];
const OR: [(u64, u64); 13] = [
    (0, 0),
    (1, 0),
    (1, 0),
    (3, 1),
    (3, 1),
    (5, 2),
    (5, 2),
    (7, 3),
    (7, 3),
    (9, 4),
    (9, 4),
    (11, 5),
    (11, 5),
];
const PARITY: [(u64, u64); 13] = [
    (0, 0),
    (1, 1),
    (1, 1),
    (3, 2),
    (3, 2),
    (7, 4),
    (7, 4),
    (15, 8),
    (15, 8),
    (31, 16),
    (31, 16),
    (63, 32),
    (63, 32),
];
const BST: [(u64, u64); 13] = [
    (0, 0),
    (1, 1),
    (1, 1),
    (1, 1),
    (2, 2),
    (2, 2),
    (2, 2),
    (4, 2),
    (8, 4),
    (10, 4),
    (14, 6),
    (21, 6),
    (30, 8),
];
const TREE_SUM: [(u64, u64); 13] = [
    (0, 0),
    (1, 1),
    (1, 1),
    (1, 1),
    (2, 2),
    (3, 2),
    (4, 3),
    (7, 5),
    (12, 6),
    (19, 12),
    (33, 18),
    (59, 28),
    (102, 59),
];
const WORST_LIST_NAT: [u64; 13] = [0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144];
const WORST_LIST_BOOL: [u64; 13] = [0, 1, 1, 3, 3, 7, 7, 15, 15, 31, 31, 63, 63];
const WORST_TREE: [u64; 13] = [0, 1, 1, 1, 2, 3, 4, 7, 12, 19, 33, 59, 102];

fn table_row<T: Enumerable>(name: &str, table: &[(u64, u64)], pred: impl Fn(Lazy<'_, T>) -> bool) {
    for (bound, &(tests, hits)) in table.iter().enumerate() {
        let c = search::classes(&pred, bound);
        assert_eq!(
            (c.runs, c.satisfying),
            (tests, hits),
            "{name} at bound {bound}"
        );
    }
}

#[test]
fn conformance_ordered_le() {
    table_row::<Vec<Nat>>("ordered-le", &ORDERED_LE, ordered_le);
    for (bound, &worst) in WORST_LIST_NAT.iter().enumerate() {
        assert_eq!(count_up_to::<Vec<Nat>>(bound), BigUint::from(worst));
    }
    for bound in [0, 3, 7, 12] {
        let s = check_against_reference::<Vec<Nat>, _, _>(
            bound,
            ordered_le,
            |v| ordered_plain(v, false),
            false,
        );
        assert_eq!((s.runs, s.trues), ORDERED_LE[bound]);
    }
}

#[test]
fn conformance_other_columns() {
    table_row::<Vec<Nat>>("ordered-lt", &ORDERED_LT, ordered_lt);
    table_row::<Vec<bool>>("and", &AND, all_true);
    table_row::<Vec<bool>>("or", &OR, any_true);
    table_row::<Vec<bool>>("parity", &PARITY, parity);
    table_row::<CTree>("bst", &BST, bst);
    table_row::<CTree>("tree-sum", &TREE_SUM, tree_sum);
    for bound in 0..=12 {
        let expected = if bound >= 3 { (4, 3) } else { (0, 0) };
        let c = search::classes(or3, bound);
        assert_eq!((c.runs, c.satisfying), expected, "or3 at bound {bound}");
        assert_eq!(
            count_up_to::<Vec<bool>>(bound),
            BigUint::from(WORST_LIST_BOOL[bound])
        );
        assert_eq!(
            count_up_to::<CTree>(bound),
            BigUint::from(WORST_TREE[bound])
        );
    }
    check_against_reference::<Vec<Nat>, _, _>(12, ordered_lt, |v| ordered_plain(v, true), false);
    check_against_reference::<Vec<bool>, _, _>(12, parity, parity_plain, true);
    let s = check_against_reference::<CTree, _, _>(12, bst, bst_plain, false);
    assert_eq!((s.runs, s.trues), BST[12]);
    let s = check_against_reference::<CTree, _, _>(12, tree_sum, tree_sum_plain, true);
    assert_eq!((s.runs, s.trues), TREE_SUM[12]);
}

#[test]
fn or3_hand_example() {
    // docs/spec.md / docs/benchmarks/conformance.md: the root (F, F, F) reads c, b, a and is
    // false; then a is swapped first: (T, F, F), then b: (F, T, F), then c:
    // (F, F, T). Four runs, three true.
    let runs = record_runs::<(bool, bool, bool), bool, _>(3, or3);
    let values: Vec<(bool, bool, bool)> = runs.iter().map(|r| tree_value(&r.tree)).collect();
    assert_eq!(
        values,
        vec![
            (false, false, false),
            (true, false, false),
            (false, true, false),
            (false, false, true)
        ]
    );
    let results: Vec<bool> = runs.iter().map(|r| r.result.is_true()).collect();
    assert_eq!(results, vec![false, true, true, true]);
    // Holes: none, none, a, a and b.
    let holes: Vec<usize> = runs.iter().map(|r| r.pattern.holes()).collect();
    assert_eq!(holes, vec![0, 0, 1, 2]);
    let s = check_against_reference::<(bool, bool, bool), _, _>(
        3,
        or3,
        |&(a, b, c)| c || b || a,
        false,
    );
    assert_eq!(
        s,
        Summary {
            runs: 4,
            trues: 3,
            values: 8,
            true_values: 7,
            min_false: Some(3)
        }
    );
    // The counterexample is (F, F, F), found by the first run.
    let c = search::ctrex(or3, 3).unwrap_err();
    assert_eq!(c.value, (false, false, false));
    assert_eq!(c.runs, 1);
}

// ---------------------------------------------------------------------------
// Random predicates: small ASTs evaluated lazily through views and on plain
// values, with the same evaluation order.
// ---------------------------------------------------------------------------

#[derive(Debug, Clone)]
enum Ast<A> {
    Const(bool),
    Atom(A),
    Not(Box<Ast<A>>),
    And(Box<Ast<A>>, Box<Ast<A>>),
    Or(Box<Ast<A>>, Box<Ast<A>>),
    If(Box<Ast<A>>, Box<Ast<A>>, Box<Ast<A>>),
}

/// Strict in the order written; `and`/`or`/`if` short-circuit.
fn eval<A>(ast: &Ast<A>, atom: &dyn Fn(&A) -> bool) -> bool {
    match ast {
        Ast::Const(b) => *b,
        Ast::Atom(a) => atom(a),
        Ast::Not(x) => !eval(x, atom),
        Ast::And(a, b) => eval(a, atom) && eval(b, atom),
        Ast::Or(a, b) => eval(a, atom) || eval(b, atom),
        Ast::If(c, t, e) => {
            if eval(c, atom) {
                eval(t, atom)
            } else {
                eval(e, atom)
            }
        }
    }
}

fn ast<A: Debug + Clone + 'static>(
    atom: impl Strategy<Value = A> + 'static,
) -> impl Strategy<Value = Ast<A>> {
    let leaf = prop_oneof![
        1 => any::<bool>().prop_map(Ast::Const),
        5 => atom.prop_map(Ast::Atom),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            inner.clone().prop_map(|x| Ast::Not(Box::new(x))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Ast::And(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Ast::Or(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone(), inner).prop_map(|(c, t, e)| Ast::If(
                Box::new(c),
                Box::new(t),
                Box::new(e)
            )),
        ]
    })
}

/// Atoms over `Vec<bool>`.
#[derive(Debug, Clone)]
enum VAtom {
    /// Element i exists and is true.
    Elem(usize),
    /// Element i exists and is false.
    ElemFalse(usize),
    Empty,
    /// At least k elements (reads cells only).
    LenGe(usize),
    /// The last element is true (reads every cell, one element).
    LastTrue,
    /// An even number of trues (reads everything).
    Parity,
}

fn vatom() -> impl Strategy<Value = VAtom> {
    prop_oneof![
        (0usize..4).prop_map(VAtom::Elem),
        (0usize..4).prop_map(VAtom::ElemFalse),
        Just(VAtom::Empty),
        (0usize..5).prop_map(VAtom::LenGe),
        Just(VAtom::LastTrue),
        Just(VAtom::Parity),
    ]
}

fn vatom_lazy(a: &VAtom, xs: Lazy<'_, Vec<bool>>) -> bool {
    match a {
        VAtom::Elem(i) => xs.nth(*i).is_some_and(|b| b.get()),
        VAtom::ElemFalse(i) => xs.nth(*i).is_some_and(|b| !b.get()),
        VAtom::Empty => xs.is_empty(),
        VAtom::LenGe(k) => xs.iter().take(*k).count() == *k,
        VAtom::LastTrue => xs.iter().last().is_some_and(|b| b.get()),
        VAtom::Parity => parity(xs),
    }
}

fn vatom_plain(a: &VAtom, v: &[bool]) -> bool {
    match a {
        VAtom::Elem(i) => v.get(*i) == Some(&true),
        VAtom::ElemFalse(i) => v.get(*i) == Some(&false),
        VAtom::Empty => v.is_empty(),
        VAtom::LenGe(k) => v.len() >= *k,
        VAtom::LastTrue => v.last() == Some(&true),
        VAtom::Parity => v.iter().filter(|&&b| b).count() % 2 == 0,
    }
}

/// Atoms over `(bool, Vec<u8>)`.
#[derive(Debug, Clone)]
enum PAtom {
    Flag,
    ElemEq(usize, u8),
    ElemLt(usize, u8),
    Empty,
    LenGe(usize),
    SumLt(u32),
}

fn patom() -> impl Strategy<Value = PAtom> {
    prop_oneof![
        Just(PAtom::Flag),
        (0usize..3, 0u8..5).prop_map(|(i, v)| PAtom::ElemEq(i, v)),
        (0usize..3, 0u8..5).prop_map(|(i, v)| PAtom::ElemLt(i, v)),
        Just(PAtom::Empty),
        (0usize..4).prop_map(PAtom::LenGe),
        (0u32..8).prop_map(PAtom::SumLt),
    ]
}

fn patom_lazy(a: &PAtom, p: Lazy<'_, (bool, Vec<u8>)>) -> bool {
    let (flag, xs) = p.view();
    match a {
        PAtom::Flag => flag.get(),
        PAtom::ElemEq(i, v) => xs.nth(*i).is_some_and(|x| x.get() == *v),
        PAtom::ElemLt(i, v) => xs.nth(*i).is_some_and(|x| x.get() < *v),
        PAtom::Empty => xs.is_empty(),
        PAtom::LenGe(k) => xs.iter().take(*k).count() == *k,
        PAtom::SumLt(k) => xs.iter().map(|x| x.get() as u32).sum::<u32>() < *k,
    }
}

fn patom_plain(a: &PAtom, p: &(bool, Vec<u8>)) -> bool {
    let (flag, xs) = p;
    match a {
        PAtom::Flag => *flag,
        PAtom::ElemEq(i, v) => xs.get(*i) == Some(v),
        PAtom::ElemLt(i, v) => xs.get(*i).is_some_and(|x| x < v),
        PAtom::Empty => xs.is_empty(),
        PAtom::LenGe(k) => xs.len() >= *k,
        PAtom::SumLt(k) => xs.iter().map(|&x| x as u32).sum::<u32>() < *k,
    }
}

/// Atoms over `BTree`; a path goes left (false) or right (true).
#[derive(Debug, Clone)]
enum TAtom {
    /// The subtree at the path exists and is a leaf.
    IsLeaf(Vec<bool>),
    /// The node at the path exists and its label is true.
    Label(Vec<bool>),
    /// At least k nodes (reads everything, left to right).
    NodesGe(usize),
}

fn tatom() -> impl Strategy<Value = TAtom> {
    prop_oneof![
        prop::collection::vec(any::<bool>(), 0..3).prop_map(TAtom::IsLeaf),
        prop::collection::vec(any::<bool>(), 0..3).prop_map(TAtom::Label),
        (0usize..4).prop_map(TAtom::NodesGe),
    ]
}

fn follow<'a>(t: Lazy<'a, BTree>, path: &[bool]) -> Option<Lazy<'a, BTree>> {
    let mut cur = t;
    for &right in path {
        match cur.view() {
            BTreeView::Leaf => return None,
            BTreeView::Node(l, _, r) => cur = if right { r } else { l },
        }
    }
    Some(cur)
}

fn follow_plain<'a>(t: &'a BTree, path: &[bool]) -> Option<&'a BTree> {
    let mut cur = t;
    for &right in path {
        match cur {
            BTree::Leaf => return None,
            BTree::Node(l, _, r) => cur = if right { r } else { l },
        }
    }
    Some(cur)
}

fn count_nodes(t: Lazy<'_, BTree>) -> usize {
    match t.view() {
        BTreeView::Leaf => 0,
        BTreeView::Node(l, _, r) => 1 + count_nodes(l) + count_nodes(r),
    }
}

fn tatom_lazy(a: &TAtom, t: Lazy<'_, BTree>) -> bool {
    match a {
        TAtom::IsLeaf(p) => follow(t, p).is_some_and(|s| matches!(s.view(), BTreeView::Leaf)),
        TAtom::Label(p) => follow(t, p).is_some_and(|s| match s.view() {
            BTreeView::Leaf => false,
            BTreeView::Node(_, b, _) => b.get(),
        }),
        TAtom::NodesGe(k) => count_nodes(t) >= *k,
    }
}

fn tatom_plain(a: &TAtom, t: &BTree) -> bool {
    match a {
        TAtom::IsLeaf(p) => follow_plain(t, p).is_some_and(|s| *s == BTree::Leaf),
        TAtom::Label(p) => follow_plain(t, p).is_some_and(|s| matches!(s, BTree::Node(_, true, _))),
        TAtom::NodesGe(k) => btree_nodes(t) >= *k,
    }
}

/// Atoms over `(i8, Vec<u8>)` that compare lazily (bit by bit from the
/// most significant) or read whole.
#[derive(Debug, Clone)]
enum CAtom {
    /// `x` compared with a constant.
    X(i8, std::cmp::Ordering),
    /// `x` in `lo..=hi`.
    XIn(i8, i8),
    /// `x`, read whole, above a constant.
    XWhole(i8),
    /// Element `i` exists and is below `v`.
    ElemLt(usize, u8),
    /// Element `i` exists and equals `v`.
    ElemEq(usize, u8),
    /// Elements `i` and `i + 1` exist and the first is at most the second.
    PairLe(usize),
    /// Elements `i` and `i + 1` exist and are equal.
    PairEq(usize),
    /// The elements increase strictly.
    Increasing,
}

fn catom() -> impl Strategy<Value = CAtom> {
    let ord = prop_oneof![
        Just(std::cmp::Ordering::Less),
        Just(std::cmp::Ordering::Equal),
        Just(std::cmp::Ordering::Greater)
    ];
    prop_oneof![
        (any::<i8>(), ord).prop_map(|(c, o)| CAtom::X(c, o)),
        (-20i8..20, 0i8..40).prop_map(|(lo, w)| CAtom::XIn(lo, lo.saturating_add(w))),
        (-10i8..10).prop_map(CAtom::XWhole),
        (0usize..3, 0u8..20).prop_map(|(i, v)| CAtom::ElemLt(i, v)),
        (0usize..3, 0u8..8).prop_map(|(i, v)| CAtom::ElemEq(i, v)),
        (0usize..2).prop_map(CAtom::PairLe),
        (0usize..2).prop_map(CAtom::PairEq),
        Just(CAtom::Increasing),
    ]
}

fn catom_lazy(a: &CAtom, p: Lazy<'_, (i8, Vec<u8>)>) -> bool {
    let (x, xs) = p.view();
    let pair = |i: usize| xs.nth(i).zip(xs.nth(i + 1));
    match a {
        CAtom::X(c, o) => x.compare(*c) == *o,
        CAtom::XIn(lo, hi) => x.in_range(*lo..=*hi),
        CAtom::XWhole(c) => x.get() > *c,
        CAtom::ElemLt(i, v) => xs.nth(*i).is_some_and(|e| e < *v),
        CAtom::ElemEq(i, v) => xs.nth(*i).is_some_and(|e| e == *v),
        CAtom::PairLe(i) => pair(*i).is_some_and(|(a, b)| a <= b),
        CAtom::PairEq(i) => pair(*i).is_some_and(|(a, b)| a == b),
        CAtom::Increasing => {
            let mut prev: Option<Lazy<'_, u8>> = None;
            for e in xs.iter() {
                if prev.is_some_and(|p| p >= e) {
                    return false;
                }
                prev = Some(e);
            }
            true
        }
    }
}

fn catom_plain(a: &CAtom, p: &(i8, Vec<u8>)) -> bool {
    let (x, xs) = p;
    let pair = |i: usize| xs.get(i).zip(xs.get(i + 1));
    match a {
        CAtom::X(c, o) => x.cmp(c) == *o,
        CAtom::XIn(lo, hi) => (lo..=hi).contains(&x),
        CAtom::XWhole(c) => x > c,
        CAtom::ElemLt(i, v) => xs.get(*i).is_some_and(|e| e < v),
        CAtom::ElemEq(i, v) => xs.get(*i) == Some(v),
        CAtom::PairLe(i) => pair(*i).is_some_and(|(a, b)| a <= b),
        CAtom::PairEq(i) => pair(*i).is_some_and(|(a, b)| a == b),
        CAtom::Increasing => xs.windows(2).all(|w| w[0] < w[1]),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_predicates_on_bool_lists(p in ast(vatom()), bound in 6usize..=10) {
        check_against_reference::<Vec<bool>, _, _>(
            bound,
            |xs| eval(&p, &|a| vatom_lazy(a, xs)),
            |v| eval(&p, &|a| vatom_plain(a, v)),
            false,
        );
    }

    #[test]
    fn random_predicates_on_pairs(p in ast(patom()), bound in 6usize..=8) {
        check_against_reference::<(bool, Vec<u8>), _, _>(
            bound,
            |x| eval(&p, &|a| patom_lazy(a, x)),
            |v| eval(&p, &|a| patom_plain(a, v)),
            false,
        );
    }

    #[test]
    fn random_predicates_with_lazy_comparisons(p in ast(catom()), bound in 4usize..=8) {
        check_against_reference::<(i8, Vec<u8>), _, _>(
            bound,
            |x| eval(&p, &|a| catom_lazy(a, x)),
            |v| eval(&p, &|a| catom_plain(a, v)),
            false,
        );
    }

    #[test]
    fn random_predicates_on_trees(p in ast(tatom()), bound in 6usize..=13) {
        check_against_reference::<BTree, _, _>(
            bound,
            |t| eval(&p, &|a| tatom_lazy(a, t)),
            |v| eval(&p, &|a| tatom_plain(a, v)),
            false,
        );
    }
}

// ---------------------------------------------------------------------------
// Robustness.
// ---------------------------------------------------------------------------

/// Panics on lists with two trues; true otherwise.
fn boom(xs: Lazy<'_, Vec<bool>>) -> bool {
    let mut n = 0;
    for b in xs.iter() {
        if b.get() {
            n += 1;
            if n == 2 {
                panic!("boom: two trues");
            }
        }
    }
    true
}

/// [`boom`] returning false instead of panicking (same reads).
fn quiet(xs: Lazy<'_, Vec<bool>>) -> bool {
    let mut n = 0;
    for b in xs.iter() {
        if b.get() {
            n += 1;
            if n == 2 {
                return false;
            }
        }
    }
    true
}

#[test]
fn a_panicking_predicate_does_not_stop_the_search() {
    let bound = 11;
    let loud = record_runs::<Vec<bool>, bool, _>(bound, boom);
    let calm = record_runs::<Vec<bool>, bool, _>(bound, quiet);
    assert_eq!(loud.len(), calm.len());
    let mut panics = 0;
    for (i, (l, c)) in loud.iter().zip(&calm).enumerate() {
        assert_eq!(l.tree, c.tree, "run {i}");
        assert_eq!(l.pattern, c.pattern, "run {i}");
        match (&l.result, &c.result) {
            (RunResult::Panicked(m), RunResult::False(None)) => {
                assert!(m.contains("boom: two trues"), "message: {m}");
                panics += 1;
            }
            (a, b) => assert_eq!(a, b, "run {i}"),
        }
    }
    assert!(panics > 0);
    // The non-panicking version is right, so the panicking one is too.
    let s = check_against_reference::<Vec<bool>, _, _>(
        bound,
        quiet,
        |v| v.iter().filter(|&&b| b).count() < 2,
        false,
    );
    let classes = search::classes(quiet, bound);
    assert_eq!(classes.runs, loud.len() as u64);
    assert_eq!(s.runs, loud.len() as u64);
    assert_eq!(
        classes.satisfying,
        loud.iter().filter(|r| r.result.is_true()).count() as u64
    );
    // Stats count the panics.
    let mut searcher = Searcher::<Vec<bool>>::new(bound);
    while searcher.step(boom).is_some() {}
    let stats = searcher.stats();
    assert_eq!(stats.panicked, panics);
    assert_eq!(stats.runs, loud.len() as u64);
    assert_eq!(stats.satisfied, classes.satisfying);
}

#[test]
fn ctrex_reports_a_panic_as_a_counterexample() {
    let c = search::ctrex(boom, 11).unwrap_err();
    assert!(c.panicked);
    assert!(
        c.reason
            .as_deref()
            .is_some_and(|r| r.contains("boom: two trues")),
        "reason: {:?}",
        c.reason
    );
    assert_eq!(c.value.iter().filter(|&&b| b).count(), 2);
    // Iterative deepening: the smallest is [true, true] at size 5.
    assert!(search::ctrex(boom, 4).is_ok());
    let c = search::ctrex(boom, 5).unwrap_err();
    assert_eq!(c.value, vec![true, true]);
    assert_eq!(c.size, 5);
    assert!(c.panicked);
    // The whole-search drivers re-panic, naming the input.
    let msg = match std::panic::catch_unwind(|| search::classes(boom, 5)) {
        Ok(_) => panic!("classes must report the panic"),
        Err(p) => p
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_else(|| p.downcast_ref::<&str>().unwrap().to_string()),
    };
    assert!(msg.contains("boom: two trues"), "{msg}");
    assert!(msg.contains("true, true"), "{msg}");
}

#[test]
fn err_outcomes_are_failures_with_a_reason() {
    let prop = |xs: Lazy<'_, Vec<bool>>| -> Result<(), String> {
        if xs.len() >= 2 {
            Err(format!("too long: {}", xs.len()))
        } else {
            Ok(())
        }
    };
    let c = search::ctrex(prop, 9).unwrap_err();
    assert!(!c.panicked);
    assert_eq!(c.value.len(), 2);
    assert!(
        c.reason
            .as_deref()
            .is_some_and(|r| r.contains("too long: 2")),
        "{:?}",
        c.reason
    );
    let runs = record_runs::<Vec<bool>, _, _>(9, prop);
    assert!(runs
        .iter()
        .any(|r| matches!(&r.result, RunResult::False(Some(m)) if m.contains("too long"))));
}

#[test]
fn bound_zero() {
    // Minimum size > 0: no run at all.
    fn nothing<T: Enumerable + Debug>() {
        let mut s = Searcher::<T>::new(0);
        assert!(s.step(|_: Lazy<'_, T>| true).is_none());
        assert!(s.step(|_: Lazy<'_, T>| true).is_none());
        assert_eq!(s.stats().runs, 0);
        assert_eq!(search::classes(|_: Lazy<'_, T>| true, 0).runs, 0);
        assert!(!search::sat(|_: Lazy<'_, T>| true, 0));
        assert_eq!(search::search(|_: Lazy<'_, T>| true, 0).count(), 0);
        assert_eq!(search::ctrex(|_: Lazy<'_, T>| false, 0).unwrap(), 0);
        assert!(trees_of::<T>(0).is_empty());
    }
    nothing::<Vec<bool>>();
    nothing::<bool>();
    nothing::<BTree>();
    nothing::<Nat>();
    nothing::<(u8, bool)>();
    nothing::<Option<u8>>();
    // Minimum size 0: exactly one run.
    let s = check_against_reference::<u8, _, _>(0, |x| x.get() == 0, |&x| x == 0, true);
    assert_eq!((s.runs, s.trues), (1, 1));
    let s = check_against_reference::<(), _, _>(0, |_| false, |_| false, false);
    assert_eq!((s.runs, s.min_false), (1, Some(0)));
    let s = check_against_reference::<(u8, (), char), _, _>(
        0,
        |x| x.force().0 == 0,
        |x| x.0 == 0,
        true,
    );
    assert_eq!(s.runs, 1);
    let c = search::ctrex(|x: Lazy<'_, u8>| x.get() != 0, 0).unwrap_err();
    assert_eq!((c.value, c.size, c.runs), (0, 0, 1));
}

#[test]
fn a_huge_bound_stays_on_a_small_stack_with_flat_memory() {
    let (runs, at_10k, at_20k, max_size) = on_small_stack(|| {
        let mut s = Searcher::<Vec<bool>>::new(10_000);
        let mut at_10k = 0;
        let mut steps = 0;
        while steps < 20_000 {
            let r = s
                .step(|xs: Lazy<'_, Vec<bool>>| xs.force().len() < 1_000_000)
                .expect("the search is not over");
            assert_eq!(r, RunResult::True);
            steps += 1;
            if steps == 10_000 {
                at_10k = live_bytes();
            }
        }
        let at_20k = live_bytes();
        let stats = s.stats();
        s.stop();
        assert!(
            s.step(|_: Lazy<'_, Vec<bool>>| true).is_none(),
            "stop ends the search"
        );
        (stats.runs, at_10k, at_20k, stats.max_size)
    });
    assert_eq!(runs, 20_000);
    // The search dives to the longest list first (size 2 * 4999 + 1).
    assert_eq!(max_size, 9_999);
    let growth = at_20k - at_10k;
    println!("live bytes: {at_10k} after 10k runs, {at_20k} after 20k runs");
    assert!(
        growth < 1 << 20,
        "memory grew by {growth} bytes between 10k and 20k runs (live {at_10k} -> {at_20k})"
    );
    assert!(at_20k < 64 << 20, "{at_20k} bytes live after 20k runs");
}

/// `ctrex` that gives up (failing the test) after 10 000 runs, so that a
/// wrong engine cannot make the test run for ever.
fn ctrex_budgeted<T: Enumerable>(
    prop: impl Fn(Lazy<'_, T>) -> bool,
    bound: usize,
) -> search::Counterexample<T> {
    match neatcheck::Config::default()
        .max_size(bound)
        .runs(10_000)
        .ctrex(prop)
    {
        search::BoundResult::Failed(c) => c,
        search::BoundResult::Passed(runs) => panic!("no counterexample after {runs} runs"),
        search::BoundResult::OutOfBudget(runs) => panic!("no counterexample after {runs} runs"),
    }
}

#[test]
fn thousands_of_nodes_can_be_forced_and_printed() {
    on_small_stack(|| {
        // Depth first, the last-read cell first: the search dives to the
        // list of 5000 falses in 5001 runs.
        let c = ctrex_budgeted(|xs: Lazy<'_, Vec<bool>>| xs.force().len() < 5000, 10_001);
        assert_eq!(c.value, vec![false; 5000]);
        assert_eq!(c.size, 10_001);
        assert_eq!(c.runs, 5001);
        assert_eq!(
            c.pattern.matches("false").count(),
            5000,
            "{}",
            &c.pattern[..100]
        );
        assert_eq!(c.shown.matches("false").count(), 5000);
        let debug = format!("{c:?}");
        assert!(debug.len() > 5000 * 5);

        // Stepping by hand: the value, its tree and its pattern.
        let mut s = Searcher::<Vec<bool>>::new(10_001);
        let pred = |xs: Lazy<'_, Vec<bool>>| xs.iter().all(|b| !b.get());
        for _ in 0..5001 {
            s.step(pred).unwrap();
        }
        let v = s.value();
        assert_eq!(v, vec![false; 5000]);
        let pattern = s.pattern(pred);
        assert!(pattern.matches(&s.tree()));
        assert_eq!(pattern.holes(), 0);
        let shown = s.show(&pattern);
        assert_eq!(shown.matches("false").count(), 5000);
        assert_eq!(format!("{v:?}").len(), shown.len());

        // A derived recursive value 5000 deep, read through views.
        let depth = |n: Lazy<'_, Nat>| {
            let mut k = 0u64;
            let mut cur = n;
            while let NatView::S(m) = cur.view() {
                k += 1;
                cur = m;
            }
            k
        };
        let c = ctrex_budgeted(|n: Lazy<'_, Nat>| depth(n) < 5000, 5001);
        assert_eq!(c.size, 5001);
        assert_eq!(c.value.to_u64(), 5000);
        assert!(c.pattern.starts_with("S(S(S("), "{}", &c.pattern[..40]);
        dismantle(c.value);
    });
}

#[test]
fn a_deep_derived_value_can_be_forced() {
    // 64 bytes of stack per level: no recursive build or drop survives it.
    // (Each run forces the whole value: the test is quadratic in the depth.)
    on_stack(128 << 10, || {
        let mut s = Searcher::<Nat>::new(2001);
        let forced = Cell::new(0u64);
        for _ in 0..2001 {
            s.step(|n: Lazy<'_, Nat>| {
                let v = n.force();
                forced.set(v.to_u64());
                dismantle(v);
                true
            })
            .unwrap();
        }
        assert_eq!(forced.get(), 2000);
        let v = s.value();
        assert_eq!(v.to_u64(), 2000);
        dismantle(v);
    });
}

/// Drops a deep natural without recursion.
fn dismantle(n: Nat) {
    let mut cur = n;
    while let Nat::S(m) = cur {
        cur = *m;
    }
}

// ---------------------------------------------------------------------------
// More shapes of spaces: unbounded leaves, zero-size elements, hand-written
// spaces (recursive through `pay`, or searched with `Searcher::with_space`).
// ---------------------------------------------------------------------------

/// Hand-written naturals: `pay(Z | S(n))`, one per size >= 1.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct HandNat(u32);

impl Enumerable for HandNat {
    fn describe() -> neatcheck::Space<Self> {
        use neatcheck::space;
        space::pay(space::union(vec![
            space::pure(HandNat(0)),
            space::map(space::of::<HandNat>(), |n| HandNat(n.0 + 1)),
        ]))
    }
}

#[test]
fn unbounded_leaves_and_zero_size_elements() {
    use num_bigint::{BigInt, BigUint};
    let s = check_against_reference::<BigUint, _, _>(
        7,
        |x| x.force() % 3u32 != BigUint::from(0u32),
        |x| x % 3u32 != BigUint::from(0u32),
        true,
    );
    assert_eq!(s.runs, 128);
    let s = check_against_reference::<BigInt, _, _>(
        6,
        |x| x.force() > BigInt::from(-5),
        |x| *x > BigInt::from(-5),
        true,
    );
    assert_eq!(s.runs, 127);
    check_against_reference::<Vec<()>, _, _>(9, |xs| xs.len() != 4, |v| v.len() != 4, false);
    check_against_reference::<Option<()>, _, _>(3, |o| o.view().is_some(), |o| o.is_some(), false);
    check_against_reference::<[u8; 2], _, _>(
        7,
        |a| {
            let [x, y] = a.view();
            x.get() > y.get()
        },
        |a| a[0] > a[1],
        true,
    );
    check_against_reference::<(Nat, u8), _, _>(
        8,
        |p| {
            let (n, x) = p.view();
            matches!(n.view(), NatView::Z) || x.get() % 2 == 1
        },
        |(n, x)| *n == Nat::Z || x % 2 == 1,
        false,
    );
    let s = check_against_reference::<HandNat, _, _>(
        12,
        |n| n.force().0 % 4 != 3,
        |n| n.0 % 4 != 3,
        true,
    );
    assert_eq!((s.runs, s.min_false), (12, Some(4)));
}

/// Searches a hand-written space with a predicate that forces its input,
/// and compares with `values_in` (as multisets: a space may list a value
/// twice, through different branches).
fn check_hand_space<T>(space: &neatcheck::Space<T>, bound: usize, plain: impl Fn(&T) -> bool)
where
    T: Debug + Clone + Ord + 'static,
{
    use neatcheck::index::Indexer;
    use neatcheck::values::{trees_in, values_in};
    let mut s = Searcher::with_space(space, bound);
    let mut run_values = vec![];
    while let Some(r) = s.step(|x: Lazy<'_, T>| plain(&x.force_generic())) {
        let v = s.value();
        assert_eq!(r.is_true(), plain(&v), "run on {v:?}");
        assert!(s.size() <= bound as u64);
        run_values.push(v);
    }
    let mut reference = vec![];
    let ix = Indexer::for_space(space);
    for n in 0..=bound {
        let vs = values_in(space, n);
        assert_eq!(vs.len(), trees_in(ix.grammar(), n).len(), "size {n}");
        assert_eq!(BigUint::from(vs.len()), ix.cardinality(n), "size {n}");
        reference.extend(vs);
    }
    run_values.sort();
    reference.sort();
    assert_eq!(run_values, reference);
}

#[test]
fn hand_written_spaces() {
    use neatcheck::space;
    // A union with an overlap, an empty branch, a product with a leaf.
    let s1: neatcheck::Space<(bool, u8)> = space::union(vec![
        space::map(space::pay(space::pure(0u8)), |x| (false, x)),
        space::empty(),
        space::product(space::of::<bool>(), space::nat_bits(3, |x| x as u8)),
    ]);
    check_hand_space(&s1, 6, |&(b, x)| b || x > 2);
    // one_of, range and product3.
    let s2 = space::product3(
        space::one_of(vec!['a', 'b', 'c']),
        space::range(-2, 2, |x| x as i8),
        space::pay(space::of::<Option<bool>>()),
    );
    check_hand_space(&s2, 7, |&(c, x, o)| c != 'b' && (x >= 0 || o.is_some()));
    // A datatype built by hand, recursive through the registered HandNat.
    let s3 = space::map(
        space::product(space::of::<HandNat>(), space::of::<Vec<bool>>()),
        |(n, v)| (n.0, v),
    );
    check_hand_space(&s3, 8, |(n, v)| v.len() as u32 <= *n);
}

// ---------------------------------------------------------------------------
// The check's exhaustive phase: skipping to a bound sure to finish.
// ---------------------------------------------------------------------------

/// A check's exhaustive phase may go at once to a bound whose inputs all
/// fit in the runs left, skipping the bounds below it. Under a time limit
/// it never skips, so the two configurations below differ only in that.
/// Whatever iterative deepening bound by bound finds within the budget,
/// the skipping search reports identically (value, size, runs at its
/// bound, how found); where it passes, the skipping search covers at least
/// as many sizes (its runs saved go to later sizes).
fn skipping_reports_what_deepening_does<T>(runs: u64, prop: impl Fn(Lazy<'_, T>) -> bool + Sync)
where
    T: Enumerable + Debug + PartialEq + Send + 'static,
{
    use neatcheck::check::Config;
    let skipping = Config::default()
        .samples(0, 0)
        .runs(runs)
        .regressions(false);
    let deepening = skipping.clone().time(std::time::Duration::from_secs(3600));
    let skip = skipping.try_check(|x: Lazy<'_, T>| prop(x));
    let deep = deepening.try_check(|x: Lazy<'_, T>| prop(x));
    match (skip, deep) {
        (Err(s), Err(d)) => {
            assert_eq!(s.value, d.value);
            assert_eq!((s.size, s.runs), (d.size, d.runs));
            assert_eq!(format!("{:?}", s.found), format!("{:?}", d.found));
            assert!(s.is_minimal() && d.is_minimal());
        }
        (Ok(s), Ok(d)) => assert!(s.exhausted >= d.exhausted, "{s} / {d}"),
        // The runs the skip saved reached a failure past the sizes
        // iterative deepening completed.
        (Err(s), Ok(d)) => assert!(d.exhausted.is_none_or(|e| s.size > e as u64), "{s:?} / {d}"),
        (Ok(s), Err(d)) => panic!("skipping passed ({s}) where deepening found {d:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn skipping_bounds_on_bool_lists(p in ast(vatom()), runs in 1u64..3000) {
        skipping_reports_what_deepening_does::<Vec<bool>>(runs, |xs| eval(&p, &|a| vatom_lazy(a, xs)));
    }

    #[test]
    fn skipping_bounds_on_pairs(p in ast(patom()), runs in 1u64..3000) {
        skipping_reports_what_deepening_does::<(bool, Vec<u8>)>(runs, |x| eval(&p, &|a| patom_lazy(a, x)));
    }

    #[test]
    fn skipping_bounds_on_trees(p in ast(tatom()), runs in 1u64..3000) {
        skipping_reports_what_deepening_does::<BTree>(runs, |t| eval(&p, &|a| tatom_lazy(a, t)));
    }
}

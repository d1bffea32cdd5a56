//! Benchmark 1 (`docs/benchmarks/conformance.md`): ten tiny predicates, each isolating one
//! mechanism of the engine.

use super::nat::{eq_nat, le_nat, lt_nat, LNat, Nat, NatView};
use neatcheck::lazy::ListView;
use neatcheck::{Enumerable, Lazy};

/// `Tree = Leaf | Node(Tree, Nat, Tree)`.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq)]
pub enum Tree {
    /// The empty tree.
    Leaf,
    /// Left subtree, label, right subtree.
    Node(Box<Tree>, Nat, Box<Tree>),
}

fn ordered_by(xs: Lazy<'_, Vec<Nat>>, cmp: fn(LNat<'_>, LNat<'_>) -> bool) -> bool {
    let mut xs = xs;
    loop {
        match xs.view() {
            ListView::Nil => return true,
            ListView::Cons(x, rest) => match rest.view() {
                ListView::Nil => return true,
                ListView::Cons(y, _) => {
                    if !cmp(x, y) {
                        return false;
                    }
                    xs = rest;
                }
            },
        }
    }
}

/// Non-strictly ascending.
pub fn ordered_le(xs: Lazy<'_, Vec<Nat>>) -> bool {
    ordered_by(xs, le_nat)
}

/// Strictly ascending.
pub fn ordered_lt(xs: Lazy<'_, Vec<Nat>>) -> bool {
    ordered_by(xs, lt_nat)
}

/// All elements true (b read first).
pub fn and(xs: Lazy<'_, Vec<bool>>) -> bool {
    xs.iter().all(|b| b.get())
}

/// Some element true.
pub fn or(xs: Lazy<'_, Vec<bool>>) -> bool {
    xs.iter().any(|b| b.get())
}

fn within(lo: Option<LNat<'_>>, hi: Option<LNat<'_>>, t: Lazy<'_, Tree>) -> bool {
    match t.view() {
        TreeView::Leaf => true,
        TreeView::Node(l, x, r) => {
            let above = match lo {
                None => true,
                Some(a) => lt_nat(a, x),
            };
            above
                && match hi {
                    None => true,
                    Some(b) => lt_nat(x, b),
                }
                && within(lo, Some(x), l)
                && within(Some(x), hi, r)
        }
    }
}

/// The binary-search-tree invariant.
pub fn bst(t: Lazy<'_, Tree>) -> bool {
    within(None, None, t)
}

/// `c or (b or a)`.
pub fn or3(x: Lazy<'_, (bool, bool, bool)>) -> bool {
    let (a, b, c) = x.view();
    c.get() || (b.get() || a.get())
}

/// Even number of trues (fully eager).
pub fn parity(xs: Lazy<'_, Vec<bool>>) -> bool {
    let mut acc = true;
    for b in xs.iter() {
        if b.get() {
            acc = !acc;
        }
    }
    acc
}

fn even_n(mut e: bool, mut n: LNat<'_>) -> bool {
    while let NatView::S(m) = n.view() {
        e = !e;
        n = m;
    }
    e
}

fn even_t(e: bool, t: Lazy<'_, Tree>) -> bool {
    match t.view() {
        TreeView::Leaf => e,
        TreeView::Node(l, x, r) => {
            let e1 = even_t(e, l);
            let e2 = even_n(e1, x);
            even_t(e2, r)
        }
    }
}

/// The sum of labels is even (in-order; fully eager).
pub fn tree_sum(t: Lazy<'_, Tree>) -> bool {
    even_t(true, t)
}

fn not_in(x: LNat<'_>, ys: Lazy<'_, Vec<Nat>>) -> bool {
    ys.iter().all(|y| !eq_nat(x, y))
}

/// No element occurs twice.
pub fn no_dup(xs: Lazy<'_, Vec<Nat>>) -> bool {
    let mut xs = xs;
    loop {
        match xs.view() {
            ListView::Nil => return true,
            ListView::Cons(x, rest) => {
                if !not_in(x, rest) {
                    return false;
                }
                xs = rest;
            }
        }
    }
}

/// `And(Atom(and(xs)), Atom(or(xs)))`: a parallel conjunction.
pub fn and_or(xs: Lazy<'_, Vec<bool>>) -> neatcheck::cool::Cool<'_> {
    use neatcheck::cool::Cool;
    Cool::atom(move || and(xs)) & Cool::atom(move || or(xs))
}

/// `And(Atom(orderedLE(xs)), Atom(noDup(xs)))`.
pub fn ordered_nodup(xs: Lazy<'_, Vec<Nat>>) -> neatcheck::cool::Cool<'_> {
    use neatcheck::cool::Cool;
    Cool::atom(move || ordered_le(xs)) & Cool::atom(move || no_dup(xs))
}

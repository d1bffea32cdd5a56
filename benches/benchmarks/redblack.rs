//! Benchmark 3 (redblack.md): Okasaki red-black trees over Peano naturals,
//! insertion with the injected bug in case 3 of `balance`, and the tree
//! invariant (lazy, on input and built trees, and plain). Owns the types
//! `Colour` and `Tree` and the property.

use super::nat::{cmp_nat, LNat, Nat};
use neatcheck::{Enumerable, Lazy};
use std::cmp::Ordering;
use std::rc::Rc;

/// `Colour = R | B`.
#[derive(Enumerable, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colour {
    /// Red.
    R,
    /// Black.
    B,
}

/// `Tree = E | T(Colour, Tree, Nat, Tree)`: colour, left, label, right.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq)]
pub enum Tree {
    /// The empty tree.
    E,
    /// A node: colour, left subtree, label, right subtree.
    T(Colour, Box<Tree>, Nat, Box<Tree>),
}

/// The colour of a tree node: an input position or a built constant.
#[derive(Clone, Copy, Debug)]
pub enum Col<'a> {
    /// An input colour (read when inspected).
    In(Lazy<'a, Colour>),
    /// A built `R`.
    R,
    /// A built `B`.
    B,
}

impl Col<'_> {
    /// `isRed(c)`: reads an input colour.
    pub fn is_red(self) -> bool {
        match self {
            Col::In(c) => matches!(c.view(), ColourView::R),
            Col::R => true,
            Col::B => false,
        }
    }
}

/// A tree that is an input sub-term, or a node built by the predicate whose
/// fields may be input sub-terms.
#[derive(Clone, Debug)]
pub enum BTree<'a> {
    /// An input sub-term (read when inspected).
    In(Lazy<'a, Tree>),
    /// A built `E`.
    E,
    /// A built node.
    T(Rc<BNode<'a>>),
}

/// A built node of a [`BTree`].
#[derive(Clone, Debug)]
pub struct BNode<'a> {
    /// Colour.
    pub c: Col<'a>,
    /// Left subtree.
    pub l: BTree<'a>,
    /// Label (labels are always input naturals).
    pub v: LNat<'a>,
    /// Right subtree.
    pub r: BTree<'a>,
}

impl<'a> BTree<'a> {
    /// `case t of`: `None` for `E`. Reads an input tree's constructor; free
    /// for a built one.
    pub fn view(&self) -> Option<(Col<'a>, BTree<'a>, LNat<'a>, BTree<'a>)> {
        match self {
            BTree::In(t) => match t.view() {
                TreeView::E => None,
                TreeView::T(c, l, v, r) => Some((Col::In(c), BTree::In(l), v, BTree::In(r))),
            },
            BTree::E => None,
            BTree::T(n) => Some((n.c, n.l.clone(), n.v, n.r.clone())),
        }
    }

    fn node(c: Col<'a>, l: BTree<'a>, v: LNat<'a>, r: BTree<'a>) -> Self {
        BTree::T(Rc::new(BNode { c, l, v, r }))
    }

    /// `T(k, p, q, s) where isRed(k)`: reads the constructor, then (for `T`)
    /// the colour.
    fn red_node(&self) -> Option<(BTree<'a>, LNat<'a>, BTree<'a>)> {
        match self.view() {
            Some((c, l, v, r)) if c.is_red() => Some((l, v, r)),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------
// Insertion (the code under test)

/// `insert(x, t)`.
pub fn insert<'a>(x: LNat<'a>, t: Lazy<'a, Tree>) -> BTree<'a> {
    match ins(x, t).view() {
        Some((_, a, y, b)) => BTree::node(Col::B, a, y, b),
        None => BTree::E,
    }
}

fn ins<'a>(x: LNat<'a>, t: Lazy<'a, Tree>) -> BTree<'a> {
    match t.view() {
        TreeView::E => BTree::node(Col::R, BTree::E, x, BTree::E),
        TreeView::T(c, a, y, b) => match cmp_nat(x, y) {
            Ordering::Less => balance(Col::In(c), ins(x, a), y, BTree::In(b)),
            Ordering::Greater => balance(Col::In(c), BTree::In(a), y, ins(x, b)),
            Ordering::Equal => BTree::node(Col::In(c), BTree::In(a), y, BTree::In(b)),
        },
    }
}

/// `balance(col, l, v, r)` with the BUGGY case 3.
fn balance<'a>(col: Col<'a>, l: BTree<'a>, v: LNat<'a>, r: BTree<'a>) -> BTree<'a> {
    if col.is_red() {
        return BTree::node(Col::R, l, v, r);
    }
    // leftCases
    if let Some((lc, ll, lv, lr)) = l.view() {
        if lc.is_red() {
            // case 1
            if let Some((a, x, b)) = ll.red_node() {
                return BTree::node(
                    Col::R,
                    BTree::node(Col::B, a, x, b),
                    lv,
                    BTree::node(Col::B, lr, v, r),
                );
            }
            // case 2
            if let Some((b, y, c)) = lr.red_node() {
                return BTree::node(
                    Col::R,
                    BTree::node(Col::B, ll, lv, b),
                    y,
                    BTree::node(Col::B, c, v, r),
                );
            }
        }
    }
    // rightCases
    let Some((rc, rl, rv, rr)) = r.view() else {
        return BTree::node(Col::B, l, v, r);
    };
    if !rc.is_red() {
        return BTree::node(Col::B, l, v, r);
    }
    // case 3 (BUGGY: b and c swapped)
    if let Some((b, y, c)) = rl.red_node() {
        return BTree::node(
            Col::R,
            BTree::node(Col::B, l, v, c),
            y,
            BTree::node(Col::B, b, rv, rr),
        );
    }
    // case 4
    if let Some((c, z, d)) = rr.red_node() {
        return BTree::node(
            Col::R,
            BTree::node(Col::B, l, v, rl),
            rv,
            BTree::node(Col::B, c, z, d),
        );
    }
    BTree::node(Col::B, l, v, r)
}

// ---------------------------------------------------------------------------
// Invariants (lazy)

/// `leNat(a, b)` through `cmpNat`: reads b even when a is `Z`.
fn le_nat(a: LNat<'_>, b: LNat<'_>) -> bool {
    cmp_nat(a, b) != Ordering::Greater
}

/// `above(lo, x)`: the bound is read first.
fn above<'a>(lo: Option<LNat<'a>>, x: LNat<'a>) -> bool {
    match lo {
        None => true,
        Some(m) => le_nat(m, x),
    }
}

/// `below(hi, x)`: the label is read first.
fn below<'a>(hi: Option<LNat<'a>>, x: LNat<'a>) -> bool {
    match hi {
        None => true,
        Some(m) => le_nat(x, m),
    }
}

/// `within(lo, hi, t)`: the node's own bounds before its subtrees.
fn within<'a>(lo: Option<LNat<'a>>, hi: Option<LNat<'a>>, t: &BTree<'a>) -> bool {
    match t.view() {
        None => true,
        Some((_, a, x, b)) => {
            above(lo, x) && below(hi, x) && within(lo, Some(x), &a) && within(Some(x), hi, &b)
        }
    }
}

/// `ordered(t)`.
pub fn ordered(t: &BTree<'_>) -> bool {
    within(None, None, t)
}

/// `bh(t)`: left subtree, then right subtree, then the colour (only if the
/// heights agree).
fn bh(t: &BTree<'_>) -> Option<u32> {
    match t.view() {
        None => Some(0),
        Some((c, a, _, b)) => {
            let n = bh(&a)?;
            let m = bh(&b)?;
            if n == m {
                Some(if c.is_red() { n } else { n + 1 })
            } else {
                None
            }
        }
    }
}

/// `blackOK(t)`.
pub fn black_ok(t: &BTree<'_>) -> bool {
    bh(t).is_some()
}

fn black_root(t: &BTree<'_>) -> bool {
    match t.view() {
        None => true,
        Some((c, _, _, _)) => !c.is_red(),
    }
}

/// `redOK(t)`.
pub fn red_ok(t: &BTree<'_>) -> bool {
    match t.view() {
        None => true,
        Some((c, a, _, b)) => {
            (if c.is_red() {
                black_root(&a) && black_root(&b)
            } else {
                true
            }) && red_ok(&a)
                && red_ok(&b)
        }
    }
}

/// `invariant(t) = ordered(t) and blackOK(t) and redOK(t)`.
pub fn invariant(t: &BTree<'_>) -> bool {
    ordered(t) && black_ok(t) && red_ok(t)
}

/// The property: `invariant(t) ==> invariant(insert(x, t))`.
pub fn prop(input: Lazy<'_, (Nat, Tree)>) -> bool {
    let (x, t) = input.view();
    if !invariant(&BTree::In(t)) {
        return true;
    }
    invariant(&insert(x, t))
}

// ---------------------------------------------------------------------------
// Invariant on plain values

fn within_plain(lo: Option<&Nat>, hi: Option<&Nat>, t: &Tree) -> bool {
    match t {
        Tree::E => true,
        Tree::T(_, a, x, b) => {
            lo.is_none_or(|m| nat_le(m, x))
                && hi.is_none_or(|m| nat_le(x, m))
                && within_plain(lo, Some(x), a)
                && within_plain(Some(x), hi, b)
        }
    }
}

fn nat_le(a: &Nat, b: &Nat) -> bool {
    let (mut a, mut b) = (a, b);
    loop {
        match (a, b) {
            (Nat::Z, _) => return true,
            (Nat::S(_), Nat::Z) => return false,
            (Nat::S(a1), Nat::S(b1)) => {
                a = a1;
                b = b1;
            }
        }
    }
}

fn bh_plain(t: &Tree) -> Option<u32> {
    match t {
        Tree::E => Some(0),
        Tree::T(c, a, _, b) => {
            let n = bh_plain(a)?;
            let m = bh_plain(b)?;
            (n == m).then_some(if *c == Colour::R { n } else { n + 1 })
        }
    }
}

fn red_ok_plain(t: &Tree) -> bool {
    let black_root = |t: &Tree| !matches!(t, Tree::T(Colour::R, ..));
    match t {
        Tree::E => true,
        Tree::T(c, a, _, b) => {
            (*c == Colour::B || (black_root(a) && black_root(b)))
                && red_ok_plain(a)
                && red_ok_plain(b)
        }
    }
}

/// [`invariant`] on a plain value.
pub fn invariant_plain(t: &Tree) -> bool {
    within_plain(None, None, t) && bh_plain(t).is_some() && red_ok_plain(t)
}

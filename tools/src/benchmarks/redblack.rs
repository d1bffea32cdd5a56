//! Benchmark 3 (`docs/benchmarks/redblack.md`): Okasaki red-black trees over Peano naturals,
//! insertion with the injected bug in case 3 of `balance`, and the tree
//! invariant (lazy, on input and built trees, and plain). Owns the types
//! `Colour` and `Tree`, the per-run arena of the nodes insertion builds
//! (`Nodes`) and the property.

use super::nat::{cmp_nat, le_nat_plain, LNat, Nat};
use super::recycle;
use neatcheck::{Enumerable, Lazy};
use std::cell::Cell;
use std::cmp::Ordering;

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
    #[inline(always)]
    pub fn is_red(self) -> bool {
        match self {
            Col::In(c) => matches!(c.view(), ColourView::R),
            Col::R => true,
            Col::B => false,
        }
    }
}

/// A tree that is an input sub-term, or one built by the predicate: `E`,
/// or a node in the run's [`Nodes`] (whose fields may be input sub-terms).
/// A handle: `Copy`, nothing to free.
#[derive(Clone, Copy, Debug)]
pub enum BTree<'a> {
    /// An input sub-term (read when inspected).
    In(Lazy<'a, Tree>),
    /// A built `E`.
    E,
    /// A built node.
    T(NodeId),
}

/// The index of a built node in its run's [`Nodes`]. Only insertion makes
/// them (the field is private), so a handle always has its arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeId(u32);

/// One node: built, or the fields of an input node, with subtrees `T`
/// (handles of a [`Forest`]).
#[derive(Clone, Copy, Debug)]
pub struct BNode<'a, T = BTree<'a>> {
    /// Colour.
    pub c: Col<'a>,
    /// Left subtree.
    pub l: T,
    /// Label (labels are always input naturals).
    pub v: LNat<'a>,
    /// Right subtree.
    pub r: T,
}

/// Trees the invariants can inspect. The invariants are written once over
/// this, so that they read the same positions in the same order whatever
/// the representation, and each use compiles to code for its own: input
/// trees ([`Input`], checked on every run) are plain `Lazy<Tree>` handles,
/// only the trees built by insertion ([`Nodes`]) need [`BTree`].
pub trait Forest<'a> {
    /// A tree handle.
    type Tree: Copy;
    /// `case t of`: `None` for `E`. Reads an input tree's constructor; free
    /// for a built one.
    fn view(&self, t: Self::Tree) -> Option<BNode<'a, Self::Tree>>;
}

/// The input's trees.
#[derive(Debug)]
pub struct Input;

impl<'a> Forest<'a> for Input {
    type Tree = Lazy<'a, Tree>;

    #[inline(always)]
    fn view(&self, t: Lazy<'a, Tree>) -> Option<BNode<'a, Lazy<'a, Tree>>> {
        match t.view() {
            TreeView::E => None,
            TreeView::T(c, l, v, r) => Some(BNode {
                c: Col::In(c),
                l,
                v,
                r,
            }),
        }
    }
}

/// The nodes built by insertion during one run, addressed by [`NodeId`]
/// rather than allocated one by one (`Rc`), which dominated the run time.
/// Nodes hold handles into the run's input, so an arena lives no longer
/// than its run; between runs its emptied vector waits in a thread-local
/// slot (see [`Nodes::with`]).
#[derive(Debug, Default)]
pub struct Nodes<'a> {
    nodes: Vec<BNode<'a>>,
}

thread_local! {
    /// This thread's spare arena, always empty: `'static` only names a
    /// lifetime for the type, no handle is ever stored under it.
    static SPARE: Cell<Nodes<'static>> = const { Cell::new(Nodes { nodes: Vec::new() }) };
}

impl<'a> Nodes<'a> {
    /// Runs `f` on this thread's spare arena, then keeps its vector,
    /// emptied, for the thread's next run, so that a run allocates nothing
    /// once the vector is large enough. Taking it needs no conversion (a
    /// `Nodes<'static>` is a `Nodes<'a>`: handles are covariant in their
    /// lifetime); putting it back does ([`recycle`]).
    pub fn with<R>(f: impl FnOnce(&mut Nodes<'a>) -> R) -> R {
        SPARE.with(|spare| {
            let mut nodes: Nodes<'a> = spare.take();
            let result = f(&mut nodes);
            spare.set(Nodes {
                nodes: recycle(nodes.nodes),
            });
            result
        })
    }

    /// Builds `T(c, l, v, r)`.
    fn node(&mut self, c: Col<'a>, l: BTree<'a>, v: LNat<'a>, r: BTree<'a>) -> BTree<'a> {
        let i = u32::try_from(self.nodes.len()).expect("fewer than 2^32 nodes in one run");
        self.nodes.push(BNode { c, l, v, r });
        BTree::T(NodeId(i))
    }

    /// `T(k, p, q, s) where isRed(k)`: reads the constructor, then (for `T`)
    /// the colour.
    fn red_node(&self, t: BTree<'a>) -> Option<(BTree<'a>, LNat<'a>, BTree<'a>)> {
        match self.view(t) {
            Some(n) if n.c.is_red() => Some((n.l, n.v, n.r)),
            _ => None,
        }
    }
}

impl<'a> Forest<'a> for Nodes<'a> {
    type Tree = BTree<'a>;

    /// Inlined, like [`Input`]'s: the node is then taken apart in registers
    /// instead of being written out and read back (every step of the
    /// invariants and of `balance` starts with a view).
    #[inline(always)]
    fn view(&self, t: BTree<'a>) -> Option<BNode<'a>> {
        match t {
            BTree::In(t) => Input.view(t).map(|n| BNode {
                c: n.c,
                l: BTree::In(n.l),
                v: n.v,
                r: BTree::In(n.r),
            }),
            BTree::E => None,
            BTree::T(NodeId(i)) => Some(self.nodes[i as usize]),
        }
    }
}

// ---------------------------------------------------------------------------
// Insertion (the code under test)

/// `insert(x, t)`: the new tree, built in `nodes`.
pub fn insert<'a>(nodes: &mut Nodes<'a>, x: LNat<'a>, t: Lazy<'a, Tree>) -> BTree<'a> {
    let s = ins(nodes, x, t);
    match nodes.view(s) {
        Some(n) => nodes.node(Col::B, n.l, n.v, n.r),
        None => BTree::E,
    }
}

fn ins<'a>(nodes: &mut Nodes<'a>, x: LNat<'a>, t: Lazy<'a, Tree>) -> BTree<'a> {
    match t.view() {
        TreeView::E => nodes.node(Col::R, BTree::E, x, BTree::E),
        TreeView::T(c, a, y, b) => match cmp_nat(x, y) {
            Ordering::Less => {
                let a1 = ins(nodes, x, a);
                balance(nodes, Col::In(c), a1, y, BTree::In(b))
            }
            Ordering::Greater => {
                let b1 = ins(nodes, x, b);
                balance(nodes, Col::In(c), BTree::In(a), y, b1)
            }
            Ordering::Equal => nodes.node(Col::In(c), BTree::In(a), y, BTree::In(b)),
        },
    }
}

/// `balance(col, l, v, r)` with the BUGGY case 3.
fn balance<'a>(
    nodes: &mut Nodes<'a>,
    col: Col<'a>,
    l: BTree<'a>,
    v: LNat<'a>,
    r: BTree<'a>,
) -> BTree<'a> {
    if col.is_red() {
        return nodes.node(Col::R, l, v, r);
    }
    // leftCases
    if let Some(left) = nodes.view(l) {
        if left.c.is_red() {
            let (ll, lv, lr) = (left.l, left.v, left.r);
            // case 1
            if let Some((a, x, b)) = nodes.red_node(ll) {
                let new_l = nodes.node(Col::B, a, x, b);
                let new_r = nodes.node(Col::B, lr, v, r);
                return nodes.node(Col::R, new_l, lv, new_r);
            }
            // case 2
            if let Some((b, y, c)) = nodes.red_node(lr) {
                let new_l = nodes.node(Col::B, ll, lv, b);
                let new_r = nodes.node(Col::B, c, v, r);
                return nodes.node(Col::R, new_l, y, new_r);
            }
        }
    }
    // rightCases
    let Some(right) = nodes.view(r) else {
        return nodes.node(Col::B, l, v, r);
    };
    if !right.c.is_red() {
        return nodes.node(Col::B, l, v, r);
    }
    let (rl, rv, rr) = (right.l, right.v, right.r);
    // case 3 (BUGGY: b and c swapped)
    if let Some((b, y, c)) = nodes.red_node(rl) {
        let new_l = nodes.node(Col::B, l, v, c);
        let new_r = nodes.node(Col::B, b, rv, rr);
        return nodes.node(Col::R, new_l, y, new_r);
    }
    // case 4
    if let Some((c, z, d)) = nodes.red_node(rr) {
        let new_l = nodes.node(Col::B, l, v, rl);
        let new_r = nodes.node(Col::B, c, z, d);
        return nodes.node(Col::R, new_l, rv, new_r);
    }
    nodes.node(Col::B, l, v, r)
}

// ---------------------------------------------------------------------------
// Invariants (lazy), on any `Forest`

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
fn within<'a, F: Forest<'a>>(
    f: &F,
    lo: Option<LNat<'a>>,
    hi: Option<LNat<'a>>,
    t: F::Tree,
) -> bool {
    match f.view(t) {
        None => true,
        Some(n) => {
            let x = n.v;
            above(lo, x)
                && below(hi, x)
                && within(f, lo, Some(x), n.l)
                && within(f, Some(x), hi, n.r)
        }
    }
}

/// `ordered(t)`.
fn ordered<'a, F: Forest<'a>>(f: &F, t: F::Tree) -> bool {
    within(f, None, None, t)
}

/// `bh(t)`: left subtree, then right subtree, then the colour (only if the
/// heights agree).
fn bh<'a, F: Forest<'a>>(f: &F, t: F::Tree) -> Option<u32> {
    match f.view(t) {
        None => Some(0),
        Some(n) => {
            let hl = bh(f, n.l)?;
            let hr = bh(f, n.r)?;
            if hl == hr {
                Some(if n.c.is_red() { hl } else { hl + 1 })
            } else {
                None
            }
        }
    }
}

/// `blackOK(t)`.
fn black_ok<'a, F: Forest<'a>>(f: &F, t: F::Tree) -> bool {
    bh(f, t).is_some()
}

/// `blackRoot(t)`.
fn black_root<'a, F: Forest<'a>>(f: &F, t: F::Tree) -> bool {
    match f.view(t) {
        None => true,
        Some(n) => !n.c.is_red(),
    }
}

/// `redOK(t)`.
fn red_ok<'a, F: Forest<'a>>(f: &F, t: F::Tree) -> bool {
    match f.view(t) {
        None => true,
        Some(n) => {
            (if n.c.is_red() {
                black_root(f, n.l) && black_root(f, n.r)
            } else {
                true
            }) && red_ok(f, n.l)
                && red_ok(f, n.r)
        }
    }
}

/// `invariant(t) = ordered(t) and blackOK(t) and redOK(t)`, for a tree of
/// `f`.
pub fn invariant_in<'a, F: Forest<'a>>(f: &F, t: F::Tree) -> bool {
    ordered(f, t) && black_ok(f, t) && red_ok(f, t)
}

/// `invariant(t)` of an input tree, or of `E`. (A built node can only be
/// checked with the arena it was built in: [`invariant_in`].)
pub fn invariant(t: &BTree<'_>) -> bool {
    match *t {
        BTree::In(t) => invariant_in(&Input, t),
        t => invariant_in(&Nodes::default(), t),
    }
}

/// The property: `invariant(t) ==> invariant(insert(x, t))`.
pub fn prop(input: Lazy<'_, (Nat, Tree)>) -> bool {
    let (x, t) = input.view();
    if !invariant_in(&Input, t) {
        return true;
    }
    Nodes::with(|nodes| {
        let t1 = insert(nodes, x, t);
        invariant_in(nodes, t1)
    })
}

// ---------------------------------------------------------------------------
// Invariant on plain values

fn within_plain(lo: Option<&Nat>, hi: Option<&Nat>, t: &Tree) -> bool {
    match t {
        Tree::E => true,
        Tree::T(_, a, x, b) => {
            lo.is_none_or(|m| le_nat_plain(m, x))
                && hi.is_none_or(|m| le_nat_plain(x, m))
                && within_plain(lo, Some(x), a)
                && within_plain(Some(x), hi, b)
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

//! A tree-property mutant suite: binary search trees with the properties
//! and the eight bugs of Hughes' "How to Specify It", and red-black trees
//! with insertion and balance bugs in the style of ETNA. Every (property,
//! mutant) pair that some configuration falsifies is a task; each task runs
//! through `Config::try_check` under four configurations:
//!
//! - integer sizes by bit length or linear (`Config::integer_sizes`);
//! - keys and values as derived newtypes (`struct Key(i64)` costs 1 + the
//!   number, `struct Val(bool)` 2) or free ones (a hand-written space
//!   `space::map(space::of::<i64>(), Key)`: the number's size alone).
//!
//! `cargo run --release -p neatcheck-tools --bin tree_suite [runs]` prints, per task and
//! configuration, the runs to the first counterexample (`-`: none within the
//! budget or 10 s), then a summary. The tree tasks run the exhaustive phase
//! only (no random phase), with a run budget (default 200 000) and a 10 s
//! ceiling; a few properties about magnitudes alone then run with the
//! random phase on, where the two integer sizes differ the other way.

use neatcheck::check::Outcome as PropOutcome;
use neatcheck::check::{Config, RunResult};
use neatcheck::space::{self, IntegerSizes, Space};
use neatcheck::{implies, Enumerable, Lazy};
use std::fmt::Debug;
use std::time::{Duration, Instant};

// ---------------------------------------------------------------- keys ----

/// What the trees need of keys and values, whatever their cost.
trait KeyLike: Enumerable + Ord + Clone + Debug + Send {}
impl<T: Enumerable + Ord + Clone + Debug + Send> KeyLike for T {}

/// A derived key: one constructor around an `i64`.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct DKey(i64);
/// A derived value: one constructor around a `bool`.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct DVal(bool);

/// A free key: the `i64`'s own space.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct FKey(i64);
impl Enumerable for FKey {
    fn describe() -> Space<Self> {
        space::map(space::of::<i64>(), FKey)
    }
}
/// A free value: the `bool`'s own space.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct FVal(bool);
impl Enumerable for FVal {
    fn describe() -> Space<Self> {
        space::map(space::of::<bool>(), FVal)
    }
}

// ----------------------------------------------------------------- BST ----

#[derive(Enumerable, Debug, Clone, PartialEq)]
enum Bst<K, V> {
    Leaf,
    Node(Box<Bst<K, V>>, K, V, Box<Bst<K, V>>),
}

use Bst::{Leaf, Node};

fn node<K, V>(l: Bst<K, V>, k: K, v: V, r: Bst<K, V>) -> Bst<K, V> {
    Node(Box::new(l), k, v, Box::new(r))
}

/// The search-tree invariant read lazily (strict bounds).
fn valid_lazy<K: KeyLike, V: KeyLike>(
    t: Lazy<'_, Bst<K, V>>,
    lo: Option<&K>,
    hi: Option<&K>,
) -> bool {
    match t.view() {
        BstView::Leaf => true,
        BstView::Node(l, k, _, r) => {
            let k = k.force();
            lo.is_none_or(|lo| *lo < k)
                && hi.is_none_or(|hi| k < *hi)
                && valid_lazy(l, lo, Some(&k))
                && valid_lazy(r, Some(&k), hi)
        }
    }
}

fn valid<K: Ord, V>(t: &Bst<K, V>) -> bool {
    fn go<K: Ord, V>(t: &Bst<K, V>, lo: Option<&K>, hi: Option<&K>) -> bool {
        match t {
            Leaf => true,
            Node(l, k, _, r) => {
                lo.is_none_or(|lo| lo < k)
                    && hi.is_none_or(|hi| k < hi)
                    && go(l, lo, Some(k))
                    && go(r, Some(k), hi)
            }
        }
    }
    go(t, None, None)
}

fn to_list<K: Clone, V: Clone>(t: &Bst<K, V>) -> Vec<(K, V)> {
    let mut out = vec![];
    let mut stack = vec![];
    let mut cur = t;
    loop {
        while let Node(l, k, v, _) = cur {
            stack.push((k, v, cur));
            cur = l;
        }
        let Some((k, v, n)) = stack.pop() else { break };
        out.push((k.clone(), v.clone()));
        let Node(_, _, _, r) = n else { unreachable!() };
        cur = r;
    }
    out
}

fn find<'t, K: Ord, V>(t: &'t Bst<K, V>, k: &K) -> Option<&'t V> {
    match t {
        Leaf => None,
        Node(l, k2, v, r) => match k.cmp(k2) {
            std::cmp::Ordering::Less => find(l, k),
            std::cmp::Ordering::Greater => find(r, k),
            std::cmp::Ordering::Equal => Some(v),
        },
    }
}

/// The mutants of "How to Specify It" (and the correct code, `None`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum BstBug {
    /// Insert discards the tree.
    Insert1,
    /// Insert keeps the old value of a present key.
    Insert2,
    /// Insert of a larger key replaces the node (loses it and the left).
    Insert3,
    /// Delete forgets to rebuild the node when going left.
    Delete1,
    /// Delete goes the wrong way.
    Delete2,
    /// Union glues the second tree in below the first one's root.
    Union1,
    /// Union loses the root of the first tree.
    Union2,
    /// Union prefers the second tree's values.
    Union3,
}

const BST_BUGS: [BstBug; 8] = [
    BstBug::Insert1,
    BstBug::Insert2,
    BstBug::Insert3,
    BstBug::Delete1,
    BstBug::Delete2,
    BstBug::Union1,
    BstBug::Union2,
    BstBug::Union3,
];

fn insert<K: Ord, V>(bug: Option<BstBug>, k: K, v: V, t: Bst<K, V>) -> Bst<K, V> {
    if bug == Some(BstBug::Insert1) {
        return node(Leaf, k, v, Leaf);
    }
    match t {
        Leaf => node(Leaf, k, v, Leaf),
        Node(l, k2, v2, r) => match k.cmp(&k2) {
            std::cmp::Ordering::Less => Node(Box::new(insert(bug, k, v, *l)), k2, v2, r),
            std::cmp::Ordering::Greater if bug == Some(BstBug::Insert3) => node(Leaf, k, v, *r),
            std::cmp::Ordering::Greater => Node(l, k2, v2, Box::new(insert(bug, k, v, *r))),
            std::cmp::Ordering::Equal if bug == Some(BstBug::Insert2) => Node(l, k2, v2, r),
            std::cmp::Ordering::Equal => Node(l, k, v, r),
        },
    }
}

/// Joins two trees whose keys are ordered (all of `l` below all of `r`).
fn join<K, V>(l: Bst<K, V>, r: Bst<K, V>) -> Bst<K, V> {
    match (l, r) {
        (Leaf, r) => r,
        (l, Leaf) => l,
        (Node(l1, k1, v1, r1), r) => Node(l1, k1, v1, Box::new(join(*r1, r))),
    }
}

fn delete<K: Ord, V>(bug: Option<BstBug>, k: &K, t: Bst<K, V>) -> Bst<K, V> {
    match t {
        Leaf => Leaf,
        Node(l, k2, v2, r) => {
            let ord = if bug == Some(BstBug::Delete2) {
                k2.cmp(k)
            } else {
                k.cmp(&k2)
            };
            match ord {
                std::cmp::Ordering::Less if bug == Some(BstBug::Delete1) => delete(bug, k, *l),
                std::cmp::Ordering::Less => Node(Box::new(delete(bug, k, *l)), k2, v2, r),
                std::cmp::Ordering::Greater => Node(l, k2, v2, Box::new(delete(bug, k, *r))),
                std::cmp::Ordering::Equal => join(*l, *r),
            }
        }
    }
}

/// Union, the first tree's values winning: its entries inserted into the
/// second.
fn union<K: Ord + Clone, V: Clone>(bug: Option<BstBug>, a: Bst<K, V>, b: Bst<K, V>) -> Bst<K, V> {
    match (bug, a) {
        (Some(BstBug::Union1), Node(l, k, v, r)) => {
            let right = union(bug, *r, b);
            Node(l, k, v, Box::new(right))
        }
        (Some(BstBug::Union2), Node(l, _, _, r)) => union(bug, *l, union(bug, *r, b)),
        (Some(BstBug::Union3), a) => to_list(&b)
            .into_iter()
            .fold(a, |acc, (k, v)| insert(None, k, v, acc)),
        (_, a) => to_list(&a)
            .into_iter()
            .fold(b, |acc, (k, v)| insert(bug, k, v, acc)),
    }
}

/// The model: a sorted association list with `insert`, `delete`, `union`.
fn model_insert<K: Ord + Clone, V: Clone>(k: K, v: V, mut m: Vec<(K, V)>) -> Vec<(K, V)> {
    m.retain(|(k2, _)| *k2 != k);
    let at = m.partition_point(|(k2, _)| *k2 < k);
    m.insert(at, (k, v));
    m
}

fn model_union<K: Ord + Clone, V: Clone>(a: Vec<(K, V)>, b: Vec<(K, V)>) -> Vec<(K, V)> {
    let mut out = b;
    for (k, v) in a {
        out = model_insert(k, v, out);
    }
    out
}

type BstIn<K, V> = (Bst<K, V>, Bst<K, V>, K, V, K, V);

/// A property over the suite's one input shape: two trees, two keys and
/// two values (unread parts cost no runs).
type BstProp<K, V> = fn(Option<BstBug>, Lazy<'_, BstIn<K, V>>) -> RunResult;

fn bst_props<K: KeyLike, V: KeyLike>() -> Vec<(&'static str, BstProp<K, V>)> {
    vec![
        ("InsertValid", |bug, x| {
            let (t, _, k, v, _, _) = x.view();
            implies(valid_lazy(t, None, None), || {
                valid(&insert(bug, k.force(), v.force(), t.force()))
            })
        }),
        ("DeleteValid", |bug, x| {
            let (t, _, k, _, _, _) = x.view();
            implies(valid_lazy(t, None, None), || {
                valid(&delete(bug, &k.force(), t.force()))
            })
        }),
        ("UnionValid", |bug, x| {
            let (t, u, _, _, _, _) = x.view();
            implies(
                valid_lazy(t, None, None) && valid_lazy(u, None, None),
                || valid(&union(bug, t.force(), u.force())),
            )
        }),
        ("InsertPost", |bug, x| {
            let (t, _, k, v, k2, _) = x.view();
            implies(valid_lazy(t, None, None), || {
                let (t, k, v, k2) = (t.force(), k.force(), v.force(), k2.force());
                let expect = if k == k2 {
                    Some(v.clone())
                } else {
                    find(&t, &k2).cloned()
                };
                find(&insert(bug, k, v, t), &k2).cloned() == expect
            })
        }),
        ("DeletePost", |bug, x| {
            let (t, _, k, _, k2, _) = x.view();
            implies(valid_lazy(t, None, None), || {
                let (t, k, k2) = (t.force(), k.force(), k2.force());
                let expect = if k == k2 {
                    None
                } else {
                    find(&t, &k2).cloned()
                };
                find(&delete(bug, &k, t), &k2).cloned() == expect
            })
        }),
        ("UnionPost", |bug, x| {
            let (t, u, k, _, _, _) = x.view();
            implies(
                valid_lazy(t, None, None) && valid_lazy(u, None, None),
                || {
                    let (t, u, k) = (t.force(), u.force(), k.force());
                    let expect = find(&t, &k).or(find(&u, &k)).cloned();
                    find(&union(bug, t.clone(), u.clone()), &k).cloned() == expect
                },
            )
        }),
        ("InsertModel", |bug, x| {
            let (t, _, k, v, _, _) = x.view();
            implies(valid_lazy(t, None, None), || {
                let (t, k, v) = (t.force(), k.force(), v.force());
                to_list(&insert(bug, k.clone(), v.clone(), t.clone()))
                    == model_insert(k, v, to_list(&t))
            })
        }),
        ("DeleteModel", |bug, x| {
            let (t, _, k, _, _, _) = x.view();
            implies(valid_lazy(t, None, None), || {
                let (t, k) = (t.force(), k.force());
                let mut m = to_list(&t);
                m.retain(|(k2, _)| *k2 != k);
                to_list(&delete(bug, &k, t)) == m
            })
        }),
        ("UnionModel", |bug, x| {
            let (t, u, _, _, _, _) = x.view();
            implies(
                valid_lazy(t, None, None) && valid_lazy(u, None, None),
                || {
                    let (t, u) = (t.force(), u.force());
                    to_list(&union(bug, t.clone(), u.clone()))
                        == model_union(to_list(&t), to_list(&u))
                },
            )
        }),
        ("InsertInsert", |bug, x| {
            // Metamorphic: the second insert of a key wins, others commute.
            let (t, _, k, v, k2, v2) = x.view();
            implies(valid_lazy(t, None, None), || {
                let (t, k, v, k2, v2) = (t.force(), k.force(), v.force(), k2.force(), v2.force());
                let lhs = insert(
                    bug,
                    k.clone(),
                    v.clone(),
                    insert(bug, k2.clone(), v2.clone(), t.clone()),
                );
                let rhs = if k == k2 {
                    insert(bug, k, v, t)
                } else {
                    insert(bug, k2, v2, insert(bug, k, v, t))
                };
                to_list(&lhs) == to_list(&rhs)
            })
        }),
        ("DeleteInsert", |bug, x| {
            // Metamorphic: deleting after inserting the same key.
            let (t, _, k, v, k2, _) = x.view();
            implies(valid_lazy(t, None, None), || {
                let (t, k, v, k2) = (t.force(), k.force(), v.force(), k2.force());
                let lhs = delete(bug, &k2, insert(bug, k.clone(), v.clone(), t.clone()));
                let rhs = if k == k2 {
                    delete(bug, &k2, t)
                } else {
                    insert(bug, k, v, delete(bug, &k2, t))
                };
                to_list(&lhs) == to_list(&rhs)
            })
        }),
    ]
}

// ---------------------------------------------------------- red-black ----

#[derive(Enumerable, Debug, Clone, Copy, PartialEq)]
enum Color {
    R,
    B,
}

#[derive(Enumerable, Debug, Clone, PartialEq)]
enum Rb<K, V> {
    E,
    T(Color, Box<Rb<K, V>>, K, V, Box<Rb<K, V>>),
}

use Color::{B, R};
use Rb::{E, T};

fn t<K, V>(c: Color, l: Rb<K, V>, k: K, v: V, r: Rb<K, V>) -> Rb<K, V> {
    T(c, Box::new(l), k, v, Box::new(r))
}

/// ETNA-style red-black tree mutants.
#[derive(Clone, Copy, Debug, PartialEq)]
enum RbBug {
    /// New nodes are black.
    InsertBlack,
    /// The root is not blackened.
    NoBlacken,
    /// An equal key keeps the old value.
    KeepValue,
    /// Balance misses the left-left case.
    MissLL,
    /// Balance misses the right-right case.
    MissRR,
    /// Balance's left-right case puts the keys out of order.
    SwapLR,
}

const RB_BUGS: [RbBug; 6] = [
    RbBug::InsertBlack,
    RbBug::NoBlacken,
    RbBug::KeepValue,
    RbBug::MissLL,
    RbBug::MissRR,
    RbBug::SwapLR,
];

/// Okasaki's balance, with the mutants.
fn balance<K, V>(bug: Option<RbBug>, c: Color, l: Rb<K, V>, k: K, v: V, r: Rb<K, V>) -> Rb<K, V> {
    if c == B {
        // Left-left.
        if bug != Some(RbBug::MissLL) {
            if let T(R, ll, lk, lv, lr) = &l {
                if matches!(**ll, T(R, ..)) {
                    let T(R, ll, lk, lv, lr) = l else {
                        unreachable!()
                    };
                    let T(R, a, xk, xv, b) = *ll else {
                        unreachable!()
                    };
                    return t(R, t(B, *a, xk, xv, *b), lk, lv, t(B, *lr, k, v, r));
                }
                let _ = (lk, lv, lr);
            }
        }
        // Left-right.
        if let T(R, _, _, _, lr) = &l {
            if matches!(**lr, T(R, ..)) {
                let T(R, a, xk, xv, lr) = l else {
                    unreachable!()
                };
                let T(R, b, yk, yv, c2) = *lr else {
                    unreachable!()
                };
                return if bug == Some(RbBug::SwapLR) {
                    t(R, t(B, *a, yk, yv, *b), xk, xv, t(B, *c2, k, v, r))
                } else {
                    t(R, t(B, *a, xk, xv, *b), yk, yv, t(B, *c2, k, v, r))
                };
            }
        }
        // Right-left.
        if let T(R, rl, _, _, _) = &r {
            if matches!(**rl, T(R, ..)) {
                let T(R, rl, zk, zv, d) = r else {
                    unreachable!()
                };
                let T(R, b, yk, yv, c2) = *rl else {
                    unreachable!()
                };
                return t(R, t(B, l, k, v, *b), yk, yv, t(B, *c2, zk, zv, *d));
            }
        }
        // Right-right.
        if bug != Some(RbBug::MissRR) {
            if let T(R, _, _, _, rr) = &r {
                if matches!(**rr, T(R, ..)) {
                    let T(R, b, yk, yv, rr) = r else {
                        unreachable!()
                    };
                    let T(R, c2, zk, zv, d) = *rr else {
                        unreachable!()
                    };
                    return t(R, t(B, l, k, v, *b), yk, yv, t(B, *c2, zk, zv, *d));
                }
            }
        }
    }
    t(c, l, k, v, r)
}

fn rb_insert<K: Ord, V>(bug: Option<RbBug>, k: K, v: V, tree: Rb<K, V>) -> Rb<K, V> {
    fn ins<K: Ord, V>(bug: Option<RbBug>, k: K, v: V, tree: Rb<K, V>) -> Rb<K, V> {
        match tree {
            E => {
                let c = if bug == Some(RbBug::InsertBlack) {
                    B
                } else {
                    R
                };
                t(c, E, k, v, E)
            }
            T(c, l, k2, v2, r) => match k.cmp(&k2) {
                std::cmp::Ordering::Less => balance(bug, c, ins(bug, k, v, *l), k2, v2, *r),
                std::cmp::Ordering::Greater => balance(bug, c, *l, k2, v2, ins(bug, k, v, *r)),
                std::cmp::Ordering::Equal if bug == Some(RbBug::KeepValue) => T(c, l, k2, v2, r),
                std::cmp::Ordering::Equal => T(c, l, k, v, r),
            },
        }
    }
    match ins(bug, k, v, tree) {
        T(_, l, k, v, r) if bug != Some(RbBug::NoBlacken) => T(B, l, k, v, r),
        other => other,
    }
}

/// Black height if `t` is a red-black tree whose keys lie strictly between
/// the bounds (red nodes have black children; the root may be red, so that
/// subtrees are valid too); read lazily.
fn rb_lazy<K: KeyLike, V: KeyLike>(
    t: Lazy<'_, Rb<K, V>>,
    lo: Option<&K>,
    hi: Option<&K>,
    parent_red: bool,
) -> Option<u32> {
    match t.view() {
        RbView::E => Some(1),
        RbView::T(c, l, k, _, r) => {
            let red = c.force() == R;
            if red && parent_red {
                return None;
            }
            let k = k.force();
            if lo.is_some_and(|lo| *lo >= k) || hi.is_some_and(|hi| k >= *hi) {
                return None;
            }
            let hl = rb_lazy(l, lo, Some(&k), red)?;
            let hr = rb_lazy(r, Some(&k), hi, red)?;
            (hl == hr).then_some(hl + u32::from(!red))
        }
    }
}

fn rb_plain<K: Ord, V>(
    t: &Rb<K, V>,
    lo: Option<&K>,
    hi: Option<&K>,
    parent_red: bool,
) -> Option<u32> {
    match t {
        E => Some(1),
        T(c, l, k, _, r) => {
            let red = *c == R;
            if (red && parent_red) || lo.is_some_and(|lo| lo >= k) || hi.is_some_and(|hi| k >= hi) {
                return None;
            }
            let hl = rb_plain(l, lo, Some(k), red)?;
            let hr = rb_plain(r, Some(k), hi, red)?;
            (hl == hr).then_some(hl + u32::from(!red))
        }
    }
}

/// The full invariant of a red-black tree: ordered, balanced, black root.
fn rb_valid<K: Ord, V>(t: &Rb<K, V>) -> bool {
    !matches!(t, T(R, ..)) && rb_plain(t, None, None, false).is_some()
}

fn rb_precondition<K: KeyLike, V: KeyLike>(t: Lazy<'_, Rb<K, V>>) -> bool {
    match t.view() {
        RbView::E => true,
        RbView::T(c, ..) => c.force() == B && rb_lazy(t, None, None, false).is_some(),
    }
}

fn rb_list<K: Clone, V: Clone>(t: &Rb<K, V>, out: &mut Vec<(K, V)>) {
    if let T(_, l, k, v, r) = t {
        rb_list(l, out);
        out.push((k.clone(), v.clone()));
        rb_list(r, out);
    }
}

fn rb_to_list<K: Clone, V: Clone>(t: &Rb<K, V>) -> Vec<(K, V)> {
    let mut out = vec![];
    rb_list(t, &mut out);
    out
}

fn rb_find<'t, K: Ord, V>(t: &'t Rb<K, V>, k: &K) -> Option<&'t V> {
    match t {
        E => None,
        T(_, l, k2, v, r) => match k.cmp(k2) {
            std::cmp::Ordering::Less => rb_find(l, k),
            std::cmp::Ordering::Greater => rb_find(r, k),
            std::cmp::Ordering::Equal => Some(v),
        },
    }
}

type RbIn<K, V> = (Rb<K, V>, K, V, K, V);
type RbProp<K, V> = fn(Option<RbBug>, Lazy<'_, RbIn<K, V>>) -> RunResult;

fn rb_props<K: KeyLike, V: KeyLike>() -> Vec<(&'static str, RbProp<K, V>)> {
    vec![
        ("RbInsertValid", |bug, x| {
            let (t, k, v, _, _) = x.view();
            implies(rb_precondition(t), || {
                rb_valid(&rb_insert(bug, k.force(), v.force(), t.force()))
            })
        }),
        ("RbInsertPost", |bug, x| {
            let (t, k, v, k2, _) = x.view();
            implies(rb_precondition(t), || {
                let (t, k, v, k2) = (t.force(), k.force(), v.force(), k2.force());
                let expect = if k == k2 {
                    Some(v.clone())
                } else {
                    rb_find(&t, &k2).cloned()
                };
                rb_find(&rb_insert(bug, k, v, t), &k2).cloned() == expect
            })
        }),
        ("RbInsertModel", |bug, x| {
            let (t, k, v, _, _) = x.view();
            implies(rb_precondition(t), || {
                let (t, k, v) = (t.force(), k.force(), v.force());
                rb_to_list(&rb_insert(bug, k.clone(), v.clone(), t.clone()))
                    == model_insert(k, v, rb_to_list(&t))
            })
        }),
        ("RbInsertInsert", |bug, x| {
            let (t, k, v, k2, v2) = x.view();
            implies(rb_precondition(t), || {
                let (t, k, v, k2, v2) = (t.force(), k.force(), v.force(), k2.force(), v2.force());
                let lhs = rb_insert(
                    bug,
                    k.clone(),
                    v.clone(),
                    rb_insert(bug, k2.clone(), v2.clone(), t.clone()),
                );
                let rhs = if k == k2 {
                    rb_insert(bug, k, v, t)
                } else {
                    rb_insert(bug, k2, v2, rb_insert(bug, k, v, t))
                };
                rb_to_list(&lhs) == rb_to_list(&rhs)
            })
        }),
    ]
}

// --------------------------------------------------------------- suite ----

/// The outcome of one task under one configuration.
#[derive(Clone, Copy)]
struct Outcome {
    /// Runs to the first counterexample, if found within the budget.
    runs: Option<u64>,
    /// Found within 10 s (and within the budget).
    in_time: bool,
    /// Its size.
    size: u64,
    secs: f64,
}

fn run_one<T: Enumerable + Debug + Send, O: PropOutcome>(
    config: &Config,
    prop: impl Fn(Lazy<'_, T>) -> O + Sync,
) -> Outcome {
    let start = Instant::now();
    let r = config.try_check(prop);
    let secs = start.elapsed().as_secs_f64();
    match r {
        Ok(_) => Outcome {
            runs: None,
            in_time: false,
            size: 0,
            secs,
        },
        Err(c) => Outcome {
            runs: Some(c.summary.runs + c.summary.random),
            in_time: secs <= 10.0,
            size: c.size,
            secs,
        },
    }
}

/// One magnitude task under a configuration.
type Task = fn(&Config) -> Outcome;

const CONFIGS: [(&str, IntegerSizes, bool); 4] = [
    ("bits/derived", IntegerSizes::BitLength, false),
    ("bits/free", IntegerSizes::BitLength, true),
    ("linear/derived", IntegerSizes::Linear, false),
    ("linear/free", IntegerSizes::Linear, true),
];

fn bst_task<K: KeyLike, V: KeyLike>(config: &Config, p: BstProp<K, V>, bug: BstBug) -> Outcome {
    run_one(config, move |x: Lazy<'_, BstIn<K, V>>| p(Some(bug), x))
}

fn rb_task<K: KeyLike, V: KeyLike>(config: &Config, p: RbProp<K, V>, bug: RbBug) -> Outcome {
    run_one(config, move |x: Lazy<'_, RbIn<K, V>>| p(Some(bug), x))
}

fn median(mut v: Vec<u64>) -> String {
    if v.is_empty() {
        return "-".into();
    }
    v.sort_unstable();
    v[v.len() / 2].to_string()
}

fn main() {
    let budget: u64 = std::env::args()
        .nth(1)
        .map(|a| a.replace('_', "").parse().expect("a run budget"))
        .unwrap_or(200_000);
    let base = Config::default()
        .runs(budget)
        .samples(0, 0)
        .regressions(false)
        .run_timeout(None)
        .time(Duration::from_secs(10));
    let configs: Vec<Config> = CONFIGS
        .iter()
        .map(|(_, m, _)| base.clone().integer_sizes(*m))
        .collect();

    // Rows: (task name, outcome per configuration).
    let mut rows: Vec<(String, Vec<Outcome>)> = vec![];
    let wall = Instant::now();

    // Sanity: the correct code passes every property (smaller budget).
    let sane = base.clone().runs(budget.min(50_000));
    for (name, p) in bst_props::<FKey, FVal>() {
        let r = sane.try_check(|x: Lazy<'_, BstIn<FKey, FVal>>| p(None, x));
        assert!(
            r.is_ok(),
            "correct BST fails {name}: {}",
            r.unwrap_err().report()
        );
    }
    for (name, p) in rb_props::<FKey, FVal>() {
        let r = sane.try_check(|x: Lazy<'_, RbIn<FKey, FVal>>| p(None, x));
        assert!(
            r.is_ok(),
            "correct RB tree fails {name}: {}",
            r.unwrap_err().report()
        );
    }

    let derived_bst = bst_props::<DKey, DVal>();
    let free_bst = bst_props::<FKey, FVal>();
    for (i, (name, _)) in free_bst.iter().enumerate() {
        for bug in BST_BUGS {
            let outs = CONFIGS
                .iter()
                .zip(&configs)
                .map(|((_, _, free), c)| {
                    if *free {
                        bst_task(c, free_bst[i].1, bug)
                    } else {
                        bst_task(c, derived_bst[i].1, bug)
                    }
                })
                .collect();
            rows.push((format!("{name}/{bug:?}"), outs));
        }
    }
    let derived_rb = rb_props::<DKey, DVal>();
    let free_rb = rb_props::<FKey, FVal>();
    for (i, (name, _)) in free_rb.iter().enumerate() {
        for bug in RB_BUGS {
            let outs = CONFIGS
                .iter()
                .zip(&configs)
                .map(|((_, _, free), c)| {
                    if *free {
                        rb_task(c, free_rb[i].1, bug)
                    } else {
                        rb_task(c, derived_rb[i].1, bug)
                    }
                })
                .collect();
            rows.push((format!("{name}/{bug:?}"), outs));
        }
    }

    // A task: some configuration falsified the pair.
    let tasks: Vec<&(String, Vec<Outcome>)> = rows
        .iter()
        .filter(|(_, o)| o.iter().any(|o| o.runs.is_some()))
        .collect();
    println!("tree suite: run budget {budget} per check, 10 s ceiling, exhaustive phase only");
    print!("{:<28}", "task (runs, size)");
    for (n, _, _) in CONFIGS {
        print!(" {n:>20}");
    }
    println!();
    for (name, outs) in &tasks {
        print!("{name:<28}");
        for o in outs {
            let cell = match o.runs {
                Some(r) => format!("{r} ({})", o.size),
                None => "-".into(),
            };
            print!(" {cell:>20}");
        }
        println!();
    }
    let not_tasks: Vec<&str> = rows
        .iter()
        .filter(|(_, o)| o.iter().all(|o| o.runs.is_none()))
        .map(|(n, _)| n.as_str())
        .collect();
    println!(
        "\n{} pairs no configuration falsified (the mutant is right for that property, or \
         out of reach): {}",
        not_tasks.len(),
        not_tasks.join(", ")
    );
    println!("\n{} tasks", tasks.len());
    println!(
        "{:<16} {:>9} {:>9} {:>9} {:>8} {:>12} {:>9}",
        "configuration", "<=1k", "<=10k", "<=budget", "in 10 s", "median runs", "seconds"
    );
    for (c, (n, _, _)) in CONFIGS.iter().enumerate() {
        // A run budget only cuts the search, so a task found after r runs is
        // found by every budget of at least r runs, and by none below.
        let within = |b: u64| {
            let n = tasks
                .iter()
                .filter(|(_, o)| o[c].runs.is_some_and(|r| r <= b))
                .count();
            if b <= budget {
                n.to_string()
            } else {
                "-".to_string()
            }
        };
        let in_time = tasks.iter().filter(|(_, o)| o[c].in_time).count();
        let secs: f64 = tasks.iter().map(|(_, o)| o[c].secs).sum();
        // Median runs to failure over the tasks every configuration solved,
        // so the medians compare like with like.
        let common = median(
            tasks
                .iter()
                .filter(|(_, o)| o.iter().all(|o| o.runs.is_some()))
                .map(|(_, o)| o[c].runs.unwrap())
                .collect(),
        );
        println!(
            "{n:<16} {:>9} {:>9} {:>9} {in_time:>8} {common:>12} {secs:>9.1}",
            within(1_000),
            within(10_000),
            within(budget),
        );
    }
    println!(
        "(solved within 1k, 10k and {budget} runs; median runs over the tasks all four \
         solved; seconds spent on the tasks)"
    );

    // The other side: properties about magnitudes alone, where the bit
    // length reaches large numbers in a few sizes and linear sizes cannot.
    // With the random phase on (its defaults): edge values are how a check
    // meets MIN, MAX and powers of two.
    println!(
        "\nmagnitude properties, random phase on (runs + random cases to the first \
         counterexample, size):"
    );
    println!("{:<34} {:>16} {:>16}", "property", "bits", "linear");
    let with_random: Vec<Config> = [&configs[0], &configs[2]]
        .iter()
        .map(|c| (*c).clone().samples(10_000, 200))
        .collect();
    let numeric: Vec<(&str, Task)> = vec![
        ("x < 1000 (i64)", |c| {
            run_one(c, |x: Lazy<'_, i64>| x.get() < 1000)
        }),
        ("2x does not overflow (i32)", |c| {
            run_one(c, |x: Lazy<'_, i32>| x.get().checked_mul(2).is_some())
        }),
        ("a + b does not overflow (i16, i16)", |c| {
            run_one(c, |x: Lazy<'_, (i16, i16)>| {
                let (a, b) = x.view();
                a.get().checked_add(b.get()).is_some()
            })
        }),
        ("sum of a list < 100 (Vec<u8>)", |c| {
            run_one(c, |x: Lazy<'_, Vec<u8>>| {
                x.iter().map(|v| u32::from(v.get())).sum::<u32>() < 100
            })
        }),
    ];
    for (name, f) in numeric {
        let cells: Vec<String> = with_random
            .iter()
            .map(|c| match f(c) {
                Outcome {
                    runs: Some(r),
                    size,
                    ..
                } => format!("{r} ({size})"),
                _ => "-".into(),
            })
            .collect();
        println!("{name:<34} {:>16} {:>16}", cells[0], cells[1]);
    }
    println!("\nwhole run {:.0} s", wall.elapsed().as_secs_f64());
}

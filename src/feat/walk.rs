//! Grammar-level indexing: the walk from (sort, size, index) to a value,
//! the size bound of a grammar and locating a global index in its size.

use super::Counts;
use crate::arena::{build, Opened, Unfold};
use crate::describe::Value;
use crate::grammar::{Grammar, ProdId, SortId, SortKind, Tree};
use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use std::rc::Rc;

/// What the walk builds the value into, bottom-up: each leaf, then each
/// node once its fields are built (post-order, fields left to right).
pub(crate) trait Sink {
    /// What each position becomes.
    type Out;
    /// A leaf value: `offset` among the values of `size` of the sort.
    fn leaf(&mut self, g: &Grammar, sort: SortId, size: usize, offset: BigUint) -> Self::Out;
    /// An alternative, from its fields' outputs.
    fn node(&mut self, g: &Grammar, prod: ProdId, fields: Vec<Self::Out>) -> Self::Out;
}

/// Builds a [`Tree`].
#[derive(Debug)]
pub(crate) struct TreeSink;

impl Sink for TreeSink {
    type Out = Rc<Tree>;

    fn leaf(&mut self, g: &Grammar, sort: SortId, size: usize, offset: BigUint) -> Rc<Tree> {
        let family = g.leaf_family(sort);
        let start: BigUint = (0..size).map(|s| family.count(s)).sum();
        let global = (start + offset).to_u64().unwrap_or_else(|| {
            panic!(
                "neatcheck: a leaf of `{}` at size {size} has a global index beyond 64 bits, \
                 which a `Tree` cannot hold; index plain values instead of trees",
                family.name()
            )
        });
        Rc::new(Tree::Leaf(sort, global))
    }

    fn node(&mut self, _g: &Grammar, prod: ProdId, fields: Vec<Rc<Tree>>) -> Rc<Tree> {
        Rc::new(Tree::Node(prod, fields))
    }
}

/// Builds a plain (type-erased) value of the walked sort (the root
/// conversion is the caller's); leaves are materialised from their big
/// offset directly, so unbounded families (`BigUint`) work at any size.
#[derive(Debug)]
struct ValueSink;

impl Sink for ValueSink {
    type Out = Value;

    fn leaf(&mut self, g: &Grammar, sort: SortId, size: usize, offset: BigUint) -> Value {
        g.leaf_family(sort).value(size, &offset)
    }

    fn node(&mut self, g: &Grammar, prod: ProdId, fields: Vec<Value>) -> Value {
        g.prods[prod.index()].build.run(&mut fields.into_iter())
    }
}

impl Grammar {
    /// The tree number `i` (from 0) among the trees of `sort` of exactly
    /// `size`, in the reference order of [`crate::values::trees_in`].
    ///
    /// # Panics
    /// If `i` is not below the number of such trees.
    pub(crate) fn index_tree(&self, sort: SortId, size: usize, i: &BigUint) -> Tree {
        let count = Counts::of(self).sort_count(sort, size);
        assert!(
            *i < count,
            "neatcheck: index {i} is out of range: `{}` has {count} values of size {size}",
            self.sorts[sort.index()].name
        );
        let tree = walk(self, sort, size, i.clone(), &mut TreeSink);
        Rc::try_unwrap(tree).unwrap_or_else(|t| (*t).clone())
    }
}

/// The root value number `i` (which must exist) of exactly `size`, root
/// conversion applied: what typed indexing and the set and map families'
/// element unranking both build.
pub(crate) fn root_value_at(g: &Grammar, size: usize, i: BigUint) -> Value {
    g.convert_root(walk(g, g.root, size, i, &mut ValueSink))
}

/// Walks from the value number `i` of `sort` at `size` (which must exist)
/// down to its leaves, iteratively, feeding `sink` in post-order.
///
/// Alternatives are taken in declaration order; the fields of a product are
/// decided slot by slot: the size of slot `j` is the first size whose block
/// (`count(slot j, size) * ways for the slots after j`) holds the remaining
/// index, and inside the block the index splits into the slot's own index
/// (quotient) and the rest's (remainder): the right-nested product order.
pub(crate) fn walk<S: Sink>(
    g: &Grammar,
    sort: SortId,
    size: usize,
    i: BigUint,
    sink: &mut S,
) -> S::Out {
    walk_counted(Counts::of(g), sort, size, i, sink)
}

/// [`walk`] by given counts: the grammar's own, or its skeletons' (leaves
/// at their first smallest value, [`super::Leaves::Smallest`]).
pub(crate) fn walk_counted<'g, S: Sink>(
    counts: Counts<'g>,
    sort: SortId,
    size: usize,
    i: BigUint,
    sink: &mut S,
) -> S::Out {
    let mut walker = Walker {
        g: counts.grammar(),
        counts,
        sink,
        rest_min: vec![],
    };
    build(&mut walker, (sort, size, i))
}

/// The index walk as a bottom-up build: a position is (sort, size, index).
struct Walker<'g, 's, S> {
    g: &'g Grammar,
    counts: Counts<'g>,
    sink: &'s mut S,
    /// Scratch: minimal total size of the slots after each one.
    rest_min: Vec<u64>,
}

impl<S: Sink> Unfold for Walker<'_, '_, S> {
    type Pos = (SortId, usize, BigUint);
    type Label = ProdId;
    type Out = S::Out;

    fn open(
        &mut self,
        (sort, size, mut i): (SortId, usize, BigUint),
        fields: &mut Vec<(SortId, usize, BigUint)>,
    ) -> Option<Opened<ProdId, S::Out>> {
        let g = self.g;
        let decl = match &g.sorts[sort.index()].kind {
            SortKind::Leaf { .. } => return Some(Opened::Done(self.sink.leaf(g, sort, size, i))),
            SortKind::Algebraic { decl, .. } => decl,
        };
        // Which alternative.
        let mut chosen = None;
        for &p in decl {
            let cost = g.prods[p.index()].cost as usize;
            if size < cost {
                continue;
            }
            let ways = self.counts.suffix_count(p, 0, size - cost);
            if i < ways {
                chosen = Some((p, size - cost));
                break;
            }
            i -= ways;
        }
        let (prod, mut m) = chosen.expect("neatcheck: index walk out of range (count mismatch)");
        let slots = &g.prods[prod.index()].slots;
        let k = slots.len();
        if k == 0 {
            return Some(Opened::Node(prod));
        }
        let rest_min = &mut self.rest_min;
        rest_min.clear();
        rest_min.resize(k, 0);
        for j in (0..k - 1).rev() {
            rest_min[j] = rest_min[j + 1].saturating_add(g.sorts[slots[j + 1].index()].min_size);
        }
        for (j, &s) in slots.iter().enumerate() {
            if j + 1 == k {
                fields.push((s, m, std::mem::take(&mut i)));
                break;
            }
            let lo = g.sorts[s.index()].min_size.min(m as u64) as usize;
            let hi = (m as u64).saturating_sub(self.rest_min[j]) as usize;
            let mut placed = false;
            for z in lo..=hi {
                let own = self.counts.sort_count(s, z);
                if own.is_zero() {
                    continue;
                }
                let rest = self.counts.suffix_count(prod, j + 1, m - z);
                if rest.is_zero() {
                    continue;
                }
                let block = &own * &rest;
                if i < block {
                    let q = &i / &rest;
                    i -= &q * &rest;
                    fields.push((s, z, q));
                    m -= z;
                    placed = true;
                    break;
                }
                i -= block;
            }
            assert!(
                placed,
                "neatcheck: index walk out of range in a product (count mismatch)"
            );
        }
        Some(Opened::Node(prod))
    }

    fn close(&mut self, prod: ProdId, fields: Vec<S::Out>) -> S::Out {
        self.sink.node(self.g, prod, fields)
    }
}

/// The largest size of a value of the root, or `None` when sizes are
/// unbounded (a recursive cycle or an unbounded leaf family is reachable).
/// An uninhabited root gives `Some(0)` (and has no values at all).
pub(crate) fn max_size(g: &Grammar) -> Option<usize> {
    if !g.is_inhabited() {
        return Some(0);
    }
    let n = g.sorts.len();
    let mut state = vec![0u8; n];
    let mut max = vec![0usize; n];
    let children = |s: SortId| -> Vec<SortId> {
        match &g.sorts[s.index()].kind {
            SortKind::Leaf { .. } => vec![],
            SortKind::Algebraic { decl, .. } => decl
                .iter()
                .flat_map(|&p| g.prods[p.index()].slots.iter().copied())
                .collect(),
        }
    };
    let root = g.root;
    let mut stack: Vec<(SortId, Vec<SortId>, usize)> = vec![(root, children(root), 0)];
    state[root.index()] = 1;
    while let Some((sort, kids, next)) = stack.last_mut() {
        if *next < kids.len() {
            let to = kids[*next];
            *next += 1;
            match state[to.index()] {
                0 => {
                    state[to.index()] = 1;
                    let c = children(to);
                    stack.push((to, c, 0));
                }
                1 => return None,
                _ => {}
            }
            continue;
        }
        let sort = *sort;
        let m = match &g.sorts[sort.index()].kind {
            SortKind::Leaf { family, .. } => {
                let last = family.last_size()?;
                (0..=last)
                    .rev()
                    .find(|&s| !family.count(s).is_zero())
                    .unwrap_or(0)
            }
            SortKind::Algebraic { decl, .. } => decl
                .iter()
                .map(|&p| {
                    let prod = &g.prods[p.index()];
                    prod.slots
                        .iter()
                        .fold(prod.cost as usize, |a, &s| a.saturating_add(max[s.index()]))
                })
                .max()
                .unwrap_or(0),
        };
        max[sort.index()] = m;
        state[sort.index()] = 2;
        stack.pop();
    }
    Some(max[root.index()])
}

/// Finds the size of the value with global index `i` (all sizes, smallest
/// first) and its offset within that size, given the grammar's size bound
/// ([`max_size`]); `None` when `i` is at or beyond the number of values of
/// sizes up to the bound.
pub(crate) fn locate_bounded(
    g: &Grammar,
    i: &BigUint,
    bound: Option<usize>,
) -> Option<(usize, BigUint)> {
    if !g.is_inhabited() {
        return None;
    }
    let mut rest = i.clone();
    let mut size = 0usize;
    loop {
        if bound.is_some_and(|b| size > b) {
            return None;
        }
        let c = g.count(size);
        if rest < c {
            return Some((size, rest));
        }
        rest -= c;
        size += 1;
    }
}

/// The total number of values of a finite grammar (`None` if infinite).
pub(crate) fn total(g: &Grammar, bound: Option<usize>) -> Option<BigUint> {
    let b = bound?;
    if !g.is_inhabited() {
        return Some(BigUint::zero());
    }
    Some(g.count_up_to(b))
}

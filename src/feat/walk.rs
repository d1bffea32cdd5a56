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
    /// A leaf value or a lazy atom: `offset` among the values of `size` of
    /// the sort.
    fn leaf(&mut self, g: &Grammar, sort: SortId, size: usize, offset: Ix) -> Self::Out;
    /// An alternative, from its fields' outputs.
    fn node(&mut self, g: &Grammar, prod: ProdId, fields: Vec<Self::Out>) -> Self::Out;
}

/// An index of the walk: in 128 bits while it fits (every value of a
/// small size, every skeleton), so the walk takes no big-number arithmetic
/// (and no allocation) there; past them a big number.
#[derive(Clone, Debug)]
pub(crate) enum Ix {
    Small(u128),
    Big(BigUint),
}

impl Ix {
    fn new(i: BigUint) -> Ix {
        match i.to_u128() {
            Some(n) => Ix::Small(n),
            None => Ix::Big(i),
        }
    }

    fn to_u64(&self) -> Option<u64> {
        match self {
            Ix::Small(n) => u64::try_from(*n).ok(),
            Ix::Big(b) => b.to_u64(),
        }
    }

    fn into_big(self) -> BigUint {
        match self {
            Ix::Small(n) => BigUint::from(n),
            Ix::Big(b) => b,
        }
    }
}

/// Builds a [`Tree`].
#[derive(Debug)]
pub(crate) struct TreeSink;

impl Sink for TreeSink {
    type Out = Rc<Tree>;

    fn leaf(&mut self, g: &Grammar, sort: SortId, size: usize, offset: Ix) -> Rc<Tree> {
        if let Some(family) = g.atom_family(sort) {
            let start = family.size_start(size).expect("a size with values");
            let offset = offset.to_u64().expect("an atom's offset fits 64 bits");
            return Rc::new(g.atomic_tree(sort, (start + u128::from(offset)) as u64));
        }
        let fast = g
            .leaf_start(sort, size)
            .zip(offset.to_u64())
            .and_then(|(start, offset)| start.checked_add(offset));
        let offset = offset.into_big();
        if let Some(global) = fast {
            return Rc::new(Tree::Leaf(sort, global));
        }
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

    fn leaf(&mut self, g: &Grammar, sort: SortId, size: usize, offset: Ix) -> Value {
        let family = g.atomic_family(sort).expect("an atomic sort");
        family.value(size, &offset.into_big())
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

/// The tree at index `i` (which must exist) of `sort` at `size`, walked by
/// the given counts.
pub(crate) fn tree_at(counts: Counts<'_>, sort: SortId, size: usize, i: Ix) -> Tree {
    let g = counts.grammar();
    if g.atomic_family(sort).is_some() {
        // A leaf or an atom is its own walk (no builder to set up).
        let leaf = TreeSink.leaf(g, sort, size, i);
        return Rc::try_unwrap(leaf).unwrap_or_else(|t| (*t).clone());
    }
    let mut walker = Walker {
        g: counts.grammar(),
        counts,
        sink: &mut TreeSink,
        rest_min: vec![],
    };
    let tree = build(&mut walker, (sort, size, i));
    Rc::try_unwrap(tree).unwrap_or_else(|t| (*t).clone())
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
/// at their first smallest value, [`super::CountMode::Skeletons`]).
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
    build(&mut walker, (sort, size, Ix::new(i)))
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
    type Pos = (SortId, usize, Ix);
    type Label = ProdId;
    type Out = S::Out;

    fn open(
        &mut self,
        (sort, size, i): (SortId, usize, Ix),
        fields: &mut Vec<(SortId, usize, Ix)>,
    ) -> Option<Opened<ProdId, S::Out>> {
        let g = self.g;
        // A lazy atom is walked as its family: its bits are the offset's.
        if g.atomic_family(sort).is_some() {
            return Some(Opened::Done(self.sink.leaf(g, sort, size, i)));
        }
        let prod = match i {
            Ix::Small(i) => self.open_small(sort, size, i, fields),
            Ix::Big(i) => self.open_big(sort, size, i, fields),
        };
        Some(Opened::Node(prod))
    }

    fn close(&mut self, prod: ProdId, fields: std::vec::Drain<'_, S::Out>) -> S::Out {
        self.sink.node(self.g, prod, fields.collect())
    }
}

impl<S: Sink> Walker<'_, '_, S> {
    /// The minimal total size of the slots after each slot of `prod`.
    fn fill_rest_min(&mut self, prod: ProdId) {
        let g = self.g;
        let slots = &g.prods[prod.index()].slots;
        let k = slots.len();
        self.rest_min.clear();
        self.rest_min.resize(k, 0);
        for j in (0..k.saturating_sub(1)).rev() {
            self.rest_min[j] =
                self.rest_min[j + 1].saturating_add(g.sorts[slots[j + 1].index()].min_size);
        }
    }

    /// One step of the walk in 128 bits. A count past 128 bits is more
    /// than any 128-bit index, so its block always holds the index.
    fn open_small(
        &mut self,
        sort: SortId,
        size: usize,
        mut i: u128,
        fields: &mut Vec<(SortId, usize, Ix)>,
    ) -> ProdId {
        let g = self.g;
        let SortKind::Algebraic { decl, .. } = &g.sorts[sort.index()].kind else {
            unreachable!("leaves are opened by the sink")
        };
        let mut chosen = None;
        for &p in decl {
            let cost = g.prods[p.index()].cost as usize;
            if size < cost {
                continue;
            }
            // Weighted counts hold each value of `p` `weight` times: the
            // index among them, divided by the weight, is one of `p`'s.
            let weight = self.counts.weight(p);
            let ways = self.counts.suffix_count_small(p, 0, size - cost);
            match ways.and_then(|w| w.checked_mul(u128::from(weight))) {
                Some(ways) if i >= ways => i -= ways,
                _ => {
                    chosen = Some((p, size - cost));
                    i /= u128::from(weight);
                    break;
                }
            }
        }
        let (prod, mut m) = chosen.expect("neatcheck: index walk out of range (count mismatch)");
        let k = g.prods[prod.index()].slots.len();
        if k == 0 {
            return prod;
        }
        self.fill_rest_min(prod);
        for j in 0..k {
            let s = g.prods[prod.index()].slots[j];
            if j + 1 == k {
                fields.push((s, m, Ix::Small(i)));
                break;
            }
            let lo = g.sorts[s.index()].min_size.min(m as u64) as usize;
            let hi = (m as u64).saturating_sub(self.rest_min[j]) as usize;
            let mut placed = false;
            for z in lo..=hi {
                let own = self.counts.sort_count_small(s, z);
                if own == Some(0) {
                    continue;
                }
                let rest = self.counts.suffix_count_small(prod, j + 1, m - z);
                if rest == Some(0) {
                    continue;
                }
                let block = own.zip(rest).and_then(|(o, r)| o.checked_mul(r));
                if block.is_none_or(|b| i < b) {
                    // `rest` fits: a rest past 128 bits with a nonzero own
                    // count would make the index of the rest big.
                    let (q, r) = match rest {
                        Some(rest) => (i / rest, i % rest),
                        None => (0, i),
                    };
                    fields.push((s, z, Ix::Small(q)));
                    i = r;
                    m -= z;
                    placed = true;
                    break;
                }
                i -= block.expect("a block past the index holds it");
            }
            assert!(
                placed,
                "neatcheck: index walk out of range in a product (count mismatch)"
            );
        }
        prod
    }

    /// One step of the walk with a big index.
    fn open_big(
        &mut self,
        sort: SortId,
        size: usize,
        mut i: BigUint,
        fields: &mut Vec<(SortId, usize, Ix)>,
    ) -> ProdId {
        let g = self.g;
        let SortKind::Algebraic { decl, .. } = &g.sorts[sort.index()].kind else {
            unreachable!("leaves are opened by the sink")
        };
        // Which alternative.
        let mut chosen = None;
        for &p in decl {
            let cost = g.prods[p.index()].cost as usize;
            if size < cost {
                continue;
            }
            let weight = self.counts.weight(p);
            let ways = self.counts.suffix_count(p, 0, size - cost) * weight;
            if i < ways {
                chosen = Some((p, size - cost));
                if weight != 1 {
                    i /= weight;
                }
                break;
            }
            i -= ways;
        }
        let (prod, mut m) = chosen.expect("neatcheck: index walk out of range (count mismatch)");
        let k = g.prods[prod.index()].slots.len();
        if k == 0 {
            return prod;
        }
        self.fill_rest_min(prod);
        for j in 0..k {
            let s = g.prods[prod.index()].slots[j];
            if j + 1 == k {
                fields.push((s, m, Ix::new(std::mem::take(&mut i))));
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
                    fields.push((s, z, Ix::new(q)));
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
        prod
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
            // A lazy atom's bits have size 0: its blocks' costs are its sizes.
            SortKind::Algebraic { .. } if g.sorts[s.index()].atom.is_some() => vec![],
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

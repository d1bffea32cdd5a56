//! FEAT at the grammar level: exact cardinalities per size (`num_bigint::BigUint`), computed bottom-up
//! over a compiled grammar: no recursion, linear memory per product.
//!
//! `count(n)` of a sort is the number of its values of exactly size `n`;
//! `count_up_to(n)` sums sizes `0..=n` and is the worst-case number of
//! predicate runs of a search with bound `n`.
//!
//! The memo tables are this module's, not the grammar's (a grammar is
//! immutable once compiled): a per-thread cache keyed by the grammar's
//! identity (`Grammar::id`) holds them, and a `Counts` handle takes a
//! grammar's tables out of it for as long as it counts (a leaf family may
//! count another grammar meanwhile) and puts them back when dropped.

pub(crate) mod rank;
pub(crate) mod walk;
#[cfg(test)]
mod weight_tests;

use crate::grammar::{Grammar, ProdId, SortId, SortKind};
use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use std::cell::RefCell;
use std::collections::HashMap;

/// What a count table counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) enum CountMode {
    /// Every value once: the grammar's own counts.
    #[default]
    All,
    /// Only values whose leaves are each their family's first value of its
    /// smallest size: the counts of *skeletons*, so that a size is spent on
    /// structure alone (the random phase's long collections).
    Skeletons,
    /// Every value as many times as the product of the weights of the
    /// alternatives on its path (`space::weighted`): a uniform index below
    /// these counts is a weighted draw (the random phase's).
    Weighted,
    /// Skeletons, each as many times as the product of its weights (the
    /// long cases of a weighted space).
    WeightedSkeletons,
}

impl CountMode {
    /// Whether leaves count only their first smallest value.
    fn skeletons(self) -> bool {
        matches!(self, CountMode::Skeletons | CountMode::WeightedSkeletons)
    }

    /// Whether values count as many times as their weights.
    fn weighted(self) -> bool {
        matches!(self, CountMode::Weighted | CountMode::WeightedSkeletons)
    }

    /// The counts random values of `g` are drawn by: weighted when `g` has
    /// weights (`space::weighted`); of skeletons for `skeletons`.
    pub(crate) fn for_draws(g: &Grammar, skeletons: bool) -> CountMode {
        match (skeletons, g.weighted) {
            (false, false) => CountMode::All,
            (false, true) => CountMode::Weighted,
            (true, false) => CountMode::Skeletons,
            (true, true) => CountMode::WeightedSkeletons,
        }
    }
}

/// Memo tables of a grammar's counts, extended on demand.
#[derive(Default, Debug)]
struct CountTables {
    /// Sizes `0..upto` are computed.
    upto: usize,
    sorts: Vec<Vec<BigUint>>,
    /// Sizes with a non-zero count, per sort (to skip zeros in products).
    nonzero: Vec<Vec<usize>>,
    /// Per prod, per slot index `j`: `suffix[j][m]` = number of ways the
    /// slots `j..` together have size `m`.
    suffix: Vec<Vec<Vec<BigUint>>>,
    /// Sorts in an order where same-size dependencies come first.
    order: Vec<SortId>,
    /// Products of counts added so far (a deterministic measure of the
    /// work the tables took, for callers that bound it).
    work: u64,
}

/// How many grammars' tables a thread keeps: past it the least recently
/// used ones are dropped (and recomputed if that grammar counts again).
const CACHED_GRAMMARS: usize = 64;

/// The tables of the grammars counted on this thread, with when each was
/// last used.
#[derive(Default)]
struct Cache {
    tables: HashMap<(u64, CountMode), (u64, CountTables), crate::word_hash::WordHash>,
    clock: u64,
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

/// A grammar's counts: its memo tables, out of the thread's cache while the
/// handle lives. Hold one across many queries (an index walk) to look the
/// tables up once.
pub(crate) struct Counts<'g> {
    g: &'g Grammar,
    t: CountTables,
    mode: CountMode,
}

impl std::fmt::Debug for Counts<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Counts({:?}, sizes 0..{})", self.g, self.t.upto)
    }
}

impl Drop for Counts<'_> {
    fn drop(&mut self) {
        let t = std::mem::take(&mut self.t);
        let id = (self.g.id, self.mode);
        // `try_with`: a handle dropped while the thread's locals are torn
        // down just loses its tables.
        let _ = CACHE.try_with(|c| {
            let mut c = c.borrow_mut();
            c.clock += 1;
            let now = c.clock;
            c.tables.insert(id, (now, t));
            if c.tables.len() > CACHED_GRAMMARS {
                let oldest = c.tables.iter().min_by_key(|(_, (used, _))| *used);
                if let Some(&oldest) = oldest.map(|(id, _)| id) {
                    c.tables.remove(&oldest);
                }
            }
        });
    }
}

impl<'g> Counts<'g> {
    /// The counts of `g`, with the tables this thread computed before.
    pub(crate) fn of(g: &'g Grammar) -> Counts<'g> {
        Counts::counting(g, CountMode::All)
    }

    /// The counts a random draw from `g` walks: weighted when `g` has
    /// weights (`space::weighted`), else the grammar's own.
    pub(crate) fn for_draws(g: &'g Grammar) -> Counts<'g> {
        Counts::counting(g, CountMode::for_draws(g, false))
    }

    /// The counts of `g` counted as `mode` says.
    pub(crate) fn counting(g: &'g Grammar, mode: CountMode) -> Counts<'g> {
        let t = CACHE
            .with(|c| c.borrow_mut().tables.remove(&(g.id, mode)))
            .map(|(_, t)| t)
            .unwrap_or_default();
        Counts { g, t, mode }
    }

    /// Counts of `g` from empty tables: [`Counts::work`] then measures
    /// this handle's own work, whatever this thread counted before.
    pub(crate) fn uncached(g: &'g Grammar, mode: CountMode) -> Counts<'g> {
        Counts {
            g,
            t: CountTables::default(),
            mode,
        }
    }

    /// How many times these counts count each value of `prod` beyond its
    /// fields' own counts: its weight when counting weighted, else 1. A walk
    /// that chose `prod` divides its index by it.
    pub(crate) fn weight(&self, prod: ProdId) -> u32 {
        if self.mode.weighted() {
            self.g.prods[prod.index()].weight
        } else {
            1
        }
    }

    /// The grammar counted.
    pub(crate) fn grammar(&self) -> &'g Grammar {
        self.g
    }

    /// Products of counts computed for these tables so far.
    pub(crate) fn work(&self) -> u64 {
        self.t.work
    }

    fn same_size_order(&self) -> Vec<SortId> {
        // A sort depends on a slot at the same size only through a zero-weight
        // edge; those are acyclic (checked at compile time). Post-order DFS.
        let g = self.g;
        let n = g.sorts.len();
        let mut deps: Vec<Vec<SortId>> = vec![vec![]; n];
        for p in &g.prods {
            if p.leaf || p.cost > 0 {
                continue;
            }
            for (j, &s) in p.slots.iter().enumerate() {
                let others: u64 = p
                    .slots
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != j)
                    .map(|(_, &o)| g.sorts[o.index()].min_size)
                    .fold(0u64, |a, b| a.saturating_add(b));
                if others == 0 {
                    deps[p.sort.index()].push(s);
                }
            }
        }
        let mut order = vec![];
        let mut state = vec![0u8; n];
        for start in 0..n {
            if state[start] != 0 {
                continue;
            }
            let mut stack = vec![(start, 0usize)];
            state[start] = 1;
            while let Some((node, next)) = stack.last_mut() {
                if *next < deps[*node].len() {
                    let to = deps[*node][*next].index();
                    *next += 1;
                    if state[to] == 0 {
                        state[to] = 1;
                        stack.push((to, 0));
                    }
                } else {
                    order.push(SortId::new(*node));
                    state[*node] = 2;
                    stack.pop();
                }
            }
        }
        order
    }

    /// Makes sure counts of sizes `0..=n` are known.
    fn extend_counts(&mut self, n: usize) {
        if self.t.upto > n {
            return;
        }
        let g = self.g;
        if self.t.sorts.is_empty() {
            let order = self.same_size_order();
            let t = &mut self.t;
            t.sorts = vec![vec![]; g.sorts.len()];
            t.nonzero = vec![vec![]; g.sorts.len()];
            // A lazy atom's block needs no product tables (see `suffix`).
            t.suffix = g
                .prods
                .iter()
                .map(|p| match p.atom {
                    Some(_) => vec![],
                    None => vec![vec![]; p.slots.len()],
                })
                .collect();
            t.order = order;
        }
        let t = &mut self.t;
        let order = t.order.clone();
        for size in t.upto..=n {
            for &s in &order {
                let c = match &g.sorts[s.index()].kind {
                    SortKind::Leaf { family, .. } => match self.mode.skeletons() {
                        false => family.count(size),
                        true => BigUint::from(u8::from(size as u64 == g.sorts[s.index()].min_size)),
                    },
                    SortKind::Algebraic { .. } if g.sorts[s.index()].atom.is_some() => {
                        match self.mode.skeletons() {
                            // A lazy atom counts as its family: the sum of
                            // its blocks' `2^free`, no product tables.
                            false => {
                                let family = g.sorts[s.index()].atom.as_ref().expect("an atom");
                                crate::describe::LeafFamily::count(&**family, size)
                            }
                            // A leaf of the skeleton: its first value.
                            true => {
                                BigUint::from(u8::from(size as u64 == g.sorts[s.index()].min_size))
                            }
                        }
                    }
                    SortKind::Algebraic { decl, .. } => {
                        let mut total = BigUint::zero();
                        for &p in decl {
                            let prod = &g.prods[p.index()];
                            let cost = prod.cost as usize;
                            if size < cost {
                                continue;
                            }
                            let m = size - cost;
                            let ways = alt_count(t, g, p, m);
                            match prod.weight {
                                w if w != 1 && self.mode.weighted() => total += ways * w,
                                _ => total += ways,
                            }
                        }
                        total
                    }
                };
                if !c.is_zero() {
                    t.nonzero[s.index()].push(size);
                }
                t.sorts[s.index()].push(c);
            }
            t.upto = size + 1;
        }
    }

    /// The number of values of the root of exactly `size`.
    pub(crate) fn count(&mut self, size: usize) -> BigUint {
        self.sort_count(self.g.root, size)
    }

    /// The number of values of the root of size `0..=size`.
    pub(crate) fn count_up_to(&mut self, size: usize) -> BigUint {
        self.extend_counts(size);
        self.t.sorts[self.g.root.index()][..=size].iter().sum()
    }

    /// Count of a sort at a size (sizes up to `size` get computed).
    pub(crate) fn sort_count(&mut self, sort: SortId, size: usize) -> BigUint {
        self.extend_counts(size);
        self.t.sorts[sort.index()][size].clone()
    }

    /// [`Counts::sort_count`] in 128 bits: `None` when it does not fit
    /// (read in place, without a copy of the big number).
    pub(crate) fn sort_count_small(&mut self, sort: SortId, size: usize) -> Option<u128> {
        self.extend_counts(size);
        self.t.sorts[sort.index()][size].to_u128()
    }

    /// [`Counts::suffix_count`] in 128 bits: `None` when it does not fit;
    /// cached entries are read in place.
    pub(crate) fn suffix_count_small(&mut self, prod: ProdId, j: usize, m: usize) -> Option<u128> {
        let k = self.g.prods[prod.index()].slots.len();
        if self.g.prods[prod.index()].atom.is_some() {
            return Some(block_ways(k, j, m));
        }
        if j < k {
            if let Some(v) = self.t.suffix[prod.index()][j].get(m) {
                return v.to_u128();
            }
        }
        self.suffix_count(prod, j, m).to_u128()
    }

    /// Number of ways the slots `j..` of `prod` have total size `m`.
    pub(crate) fn suffix_count(&mut self, prod: ProdId, j: usize, m: usize) -> BigUint {
        let k = self.g.prods[prod.index()].slots.len();
        if j == k {
            return if m == 0 {
                BigUint::from(1u32)
            } else {
                BigUint::zero()
            };
        }
        self.extend_counts(m);
        suffix(&mut self.t, self.g, prod, j, m)
    }
}

impl Grammar {
    /// The number of values of exactly `size`.
    pub fn count(&self, size: usize) -> BigUint {
        Counts::of(self).count(size)
    }

    /// The number of values of size `0..=size`.
    pub fn count_up_to(&self, size: usize) -> BigUint {
        Counts::of(self).count_up_to(size)
    }
}

/// Ways for the free bits `j..k` of a lazy atom's block to have total size
/// `m`: every pattern, all of size 0 (no product tables). At most 63 bits,
/// so it fits 128 bits.
fn block_ways(k: usize, j: usize, m: usize) -> u128 {
    if m == 0 {
        1u128 << (k - j.min(k))
    } else {
        0
    }
}

/// Ways for the slots of `prod` to have total size `m`; needs counts of
/// sizes `< m` (and `m` for zero-weight slots, ordered before).
fn alt_count(t: &mut CountTables, g: &Grammar, prod: ProdId, m: usize) -> BigUint {
    if g.prods[prod.index()].slots.is_empty() {
        return if m == 0 {
            BigUint::from(1u32)
        } else {
            BigUint::zero()
        };
    }
    suffix(t, g, prod, 0, m)
}

fn suffix(t: &mut CountTables, g: &Grammar, prod: ProdId, j: usize, m: usize) -> BigUint {
    let slots = &g.prods[prod.index()].slots;
    let k = slots.len();
    if g.prods[prod.index()].atom.is_some() {
        return BigUint::from(block_ways(k, j, m));
    }
    if j == k {
        return if m == 0 {
            BigUint::from(1u32)
        } else {
            BigUint::zero()
        };
    }
    let cached = t.suffix[prod.index()][j].len();
    if m < cached {
        return t.suffix[prod.index()][j][m].clone();
    }
    // Entries below `limit` only use counts that are already final, so they
    // can be cached; a larger one (a zero-cost product at the current size)
    // is computed without caching.
    let limit = slots[j..]
        .iter()
        .map(|&s| t.sorts[s.index()].len())
        .min()
        .unwrap_or(0);
    if m < limit {
        for idx in cached..=m {
            let v = suffix_entry(t, g, prod, j, idx);
            t.suffix[prod.index()][j].push(v);
        }
        t.suffix[prod.index()][j][m].clone()
    } else {
        suffix_entry(t, g, prod, j, m)
    }
}

fn suffix_entry(t: &mut CountTables, g: &Grammar, prod: ProdId, j: usize, idx: usize) -> BigUint {
    let slots = &g.prods[prod.index()].slots;
    let s = slots[j].index();
    if j + 1 == slots.len() {
        // The last slot alone: its own count (the convolution with the
        // empty suffix would make long lists quadratic to count).
        return t.sorts[s].get(idx).cloned().unwrap_or_default();
    }
    let mut total = BigUint::zero();
    let mut z = 0;
    while z < t.nonzero[s].len() {
        let i = t.nonzero[s][z];
        z += 1;
        if i > idx {
            break;
        }
        let r = suffix(t, g, prod, j + 1, idx - i);
        t.work += 1;
        if !r.is_zero() {
            total += &t.sorts[s][i] * r;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::compile_space;
    use crate::space;

    fn cached(g: &Grammar) -> Option<usize> {
        CACHE.with(|c| {
            c.borrow()
                .tables
                .get(&(g.id, CountMode::All))
                .map(|(_, t)| t.upto)
        })
    }

    fn reference(n: usize) -> BigUint {
        BigUint::from(crate::values::values_of::<Vec<bool>>(n).len())
    }

    #[test]
    fn tables_live_in_the_cache_and_come_back() {
        let g = compile_space(&space::of::<Vec<bool>>());
        assert_eq!(cached(&g), None);
        assert_eq!(g.count(3), reference(3));
        assert_eq!(cached(&g), Some(4), "sizes 0..=3 are kept");
        {
            let mut counts = Counts::of(&g);
            assert_eq!(cached(&g), None, "a handle holds the tables");
            assert_eq!(counts.count(5), reference(5));
        }
        assert_eq!(cached(&g), Some(6));
    }

    #[test]
    fn evicted_tables_are_recomputed_the_same() {
        let first = compile_space(&space::of::<Vec<bool>>());
        let before = first.count_up_to(12);
        // Enough other grammars to push the first one out.
        let others: Vec<_> = (0..CACHED_GRAMMARS + 2)
            .map(|_| compile_space(&space::of::<Vec<bool>>()))
            .collect();
        for g in &others {
            assert_eq!(g.count(4), reference(4));
        }
        assert_eq!(cached(&first), None, "the least recently used went first");
        assert!(others
            .iter()
            .rev()
            .take(CACHED_GRAMMARS)
            .all(|g| cached(g).is_some()));
        assert_eq!(first.count_up_to(12), before);
        let total: usize = (0..=12)
            .map(|n| crate::values::values_of::<Vec<bool>>(n).len())
            .sum();
        assert_eq!(before, BigUint::from(total));
    }
}

//! Random access (FEAT): the value at any index of any size, uniform
//! sampling and striped enumeration over the same compiled spaces.
//!
//! This module owns indexing over compiled grammars (the FEAT algorithm of
//! Duregård, Jansson and Wang, 2012, on top of the memoised counts of
//! [`crate::count`]) and its inverse, ranking ([`Indexer::rank`]:
//! a tree back to its size and index), uniform random values from a seeded
//! generator, evenly spaced samples, striped enumeration for parallel
//! workers and (with the `proptest` feature) a
//! [`proptest`](https://docs.rs/proptest) strategy.
//!
//! # Order
//!
//! Index `i` of size `n` is the `i`-th value (from 0) of
//! [`crate::values::values_of`]`(n)`: alternatives in declaration order,
//! products by the size of their first field, then its value, then the rest
//! (right-nested). "Over all sizes" ([`value_at`]) concatenates the sizes,
//! smallest first.
//!
//! # Cost
//!
//! Indexing walks the value once, top-down and iteratively (values of many
//! thousands of constructors are fine), choosing each product's field sizes
//! by subtracting exact counts: polynomial in the size. The counts are
//! memoised per grammar (per type and thread for canonical spaces), so the
//! first call at a large size pays for them and later calls reuse them.
//!
//! ```
//! use neatcheck::index;
//! use num_bigint::BigUint;
//!
//! // Lists of booleans of size 5 (two elements): 4 of them.
//! assert_eq!(index::cardinality::<Vec<bool>>(5), BigUint::from(4u32));
//! assert_eq!(index::index::<Vec<bool>>(5, &BigUint::from(1u32)), vec![false, true]);
//! // Over all sizes: [], [false], [true], [false, false], ...
//! assert_eq!(index::value_at::<Vec<bool>>(&BigUint::from(2u32)), vec![true]);
//! assert_eq!(index::size_of_index::<Vec<bool>>(&BigUint::from(3u32)), 5);
//!
//! // Reproducible uniform values of a size.
//! let mut rng = index::seeded_rng(7);
//! let v = index::sample::<Vec<bool>>(21, &mut rng).unwrap();
//! assert_eq!(v.len(), 10);
//! ```

mod sample;

#[cfg(feature = "proptest")]
pub mod proptest_bridge;

pub(crate) use sample::{spaced_indices, uniform_below, uniform_below_small, StripeIndices};

use crate::describe::Space;
use crate::feat::walk::{locate_bounded, max_size, root_value_at, total, Ix};
use crate::grammar::{compile_space, downcast, Grammar, Tree};
use crate::types::grammar_of;
use crate::Enumerable;
use num_bigint::BigUint;
use num_traits::Zero;
use rand::{Rng, SeedableRng};
use std::cell::OnceCell;
use std::fmt;
use std::marker::PhantomData;
use std::rc::Rc;

/// The generator of [`seeded_rng`]: ChaCha with 8 rounds, whose output for a
/// given seed is fixed (portable and stable across releases).
pub type SeedRng = rand::rngs::ChaCha8Rng;

/// A generator seeded from a number, for reproducible sampling.
pub fn seeded_rng(seed: u64) -> SeedRng {
    SeedRng::seed_from_u64(seed)
}

// ---------------------------------------------------------------------------
// Grammar level: trees.

/// The number of values of a grammar's root of exactly `size`.
pub(crate) fn cardinality_in(g: &Grammar, size: usize) -> BigUint {
    g.count(size)
}

/// The largest size of a value of the grammar, or `None` when sizes are
/// unbounded. An uninhabited grammar gives `Some(0)`.
pub(crate) fn max_size_in(g: &Grammar) -> Option<usize> {
    max_size(g)
}

/// The tree number `i` of the root of exactly `size`, in the reference order
/// (it agrees with [`crate::values::trees_in`]`(g, size)[i]`); `None` when
/// `i` is not below [`cardinality_in`]`(g, size)`.
///
/// # Panics
/// If a leaf's global index does not fit in 64 bits (`BigUint` values
/// beyond 64 bits cannot be [`Tree`]s; index values instead).
pub(crate) fn tree_in(g: &Grammar, size: usize, i: &BigUint) -> Option<Tree> {
    if *i >= g.count(size) {
        return None;
    }
    Some(g.index_tree(g.root, size, i))
}

/// The size of a tree of the grammar's root and its index among the trees
/// of that size: the inverse of [`tree_in`], so that
/// `tree_in(g, size, &i)` gives back `tree`. Takes time polynomial in the
/// size and works iteratively, so trees of any depth are fine.
///
/// Useful to store a value compactly (size and index) or to find where a
/// value found by another backend (the search, the reference enumeration)
/// sits in the FEAT order.
///
/// # Panics
/// If `tree` is not a tree of the grammar's root (an alternative of another
/// sort or grammar, a wrong number of fields, a leaf index out of its
/// family).
pub(crate) fn rank_in(g: &Grammar, tree: &Tree) -> (usize, BigUint) {
    crate::feat::rank::rank(g, g.root, tree)
}

/// A uniformly random tree of exactly `size`, or `None` if there is none.
pub(crate) fn sample_tree_in<R: Rng + ?Sized>(
    g: &Grammar,
    size: usize,
    rng: &mut R,
) -> Option<Tree> {
    sample_tree_counted(crate::feat::Counts::of(g), size, rng)
}

/// [`sample_tree_in`] by a handle on the grammar's counts (a caller that
/// looked at counts first keeps its handle: taking one is a cache lookup).
pub(crate) fn sample_tree_counted<R: Rng + ?Sized>(
    mut counts: crate::feat::Counts<'_>,
    size: usize,
    rng: &mut R,
) -> Option<Tree> {
    let g = counts.grammar();
    // One handle on the counts for the count and the walk; in 128 bits
    // while the count fits (the same draws as the big-number path).
    let index = match counts.sort_count_small(g.root, size) {
        Some(0) => return None,
        Some(card) => Ix::Small(uniform_below_small(card, rng)),
        None => Ix::Big(uniform_below(&counts.sort_count(g.root, size), rng)),
    };
    Some(crate::feat::walk::tree_at(counts, g.root, size, index))
}

/// A uniformly random tree among all those of size `0..=max_size`, or `None`
/// if there is none.
pub(crate) fn sample_tree_up_to_in<R: Rng + ?Sized>(
    g: &Grammar,
    max_size: usize,
    rng: &mut R,
) -> Option<Tree> {
    if !g.is_inhabited() {
        return None;
    }
    let all = g.count_up_to(max_size);
    if all.is_zero() {
        return None;
    }
    let i = uniform_below(&all, rng);
    let (size, off) = locate_bounded(g, &i, Some(max_size))?;
    Some(g.index_tree(g.root, size, &off))
}

/// `k` trees of `size` spread evenly over its values: indices
/// `round(j * card / k)` for `j = 0..k`, in increasing order, each index
/// once (fewer than `k` trees when there are fewer than `k` values).
pub(crate) fn spaced_trees_in(g: &Grammar, size: usize, k: usize) -> Vec<Tree> {
    spaced_indices(&g.count(size), k)
        .iter()
        .map(|i| g.index_tree(g.root, size, i))
        .collect()
}

/// Every `workers`-th tree of `size`, starting at index `worker`: the
/// stripes of workers `0..workers` are disjoint and together hold every tree
/// of the size once.
///
/// # Panics
/// If `workers` is zero or `worker >= workers`.
pub(crate) fn stripe_trees_in(
    g: &Grammar,
    size: usize,
    worker: usize,
    workers: usize,
) -> TreeStripe<'_> {
    TreeStripe {
        grammar: g,
        size,
        indices: StripeIndices::new(g.count(size), worker, workers),
    }
}

/// The trees of one stripe (see [`Indexer::stripe_trees`]).
pub struct TreeStripe<'g> {
    grammar: &'g Grammar,
    size: usize,
    indices: StripeIndices,
}

impl Iterator for TreeStripe<'_> {
    type Item = Tree;

    fn next(&mut self) -> Option<Tree> {
        let i = self.indices.next()?;
        Some(self.grammar.index_tree(self.grammar.root, self.size, &i))
    }
}

impl fmt::Debug for TreeStripe<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TreeStripe")
            .field("size", &self.size)
            .field("indices", &self.indices)
            .finish()
    }
}

// ---------------------------------------------------------------------------
// Typed: values of a space.

/// Random access to the values of a space (a compiled grammar with its value
/// type). Cheap to clone; counts are shared by the clones and memoised.
///
/// [`Indexer::new`] indexes the canonical space of an [`Enumerable`] type
/// (the free functions of this module use it); [`Indexer::for_space`] any
/// hand-written space.
pub struct Indexer<T> {
    grammar: Rc<Grammar>,
    bound: Rc<OnceCell<Option<usize>>>,
    _t: PhantomData<fn() -> T>,
}

impl<T> Clone for Indexer<T> {
    fn clone(&self) -> Self {
        Indexer {
            grammar: self.grammar.clone(),
            bound: self.bound.clone(),
            _t: PhantomData,
        }
    }
}

impl<T> fmt::Debug for Indexer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Indexer<{}>({:?})",
            std::any::type_name::<T>(),
            self.grammar
        )
    }
}

impl<T: Enumerable> Indexer<T> {
    /// Indexes `T`'s canonical space (compiled once per type and thread).
    pub fn new() -> Self {
        Indexer::from_grammar(grammar_of::<T>())
    }
}

impl<T: Enumerable> Default for Indexer<T> {
    fn default() -> Self {
        Indexer::new()
    }
}

impl<T: 'static> Indexer<T> {
    /// Indexes a hand-written space (compiled now).
    pub fn for_space(space: &Space<T>) -> Self {
        Indexer::from_grammar(compile_space(space))
    }

    fn from_grammar(grammar: Rc<Grammar>) -> Self {
        Indexer {
            grammar,
            bound: Rc::new(OnceCell::new()),
            _t: PhantomData,
        }
    }

    /// The compiled grammar (for the tree-level functions of this module).
    pub fn grammar(&self) -> &Grammar {
        &self.grammar
    }

    fn bound(&self) -> Option<usize> {
        *self.bound.get_or_init(|| max_size(&self.grammar))
    }

    fn build(&self, size: usize, i: BigUint) -> T {
        downcast(root_value_at(&self.grammar, size, i), "indexing")
    }

    /// The number of values of exactly `size`.
    pub fn cardinality(&self, size: usize) -> BigUint {
        self.grammar.count(size)
    }

    /// The number of values of size `0..=size`.
    pub fn cardinality_up_to(&self, size: usize) -> BigUint {
        self.grammar.count_up_to(size)
    }

    /// The largest size of a value, or `None` when sizes are unbounded.
    pub fn max_size(&self) -> Option<usize> {
        self.bound()
    }

    /// The number of values over all sizes, or `None` when infinite.
    pub fn total(&self) -> Option<BigUint> {
        total(&self.grammar, self.bound())
    }

    /// The value number `i` of exactly `size`, or `None` when `i` is not
    /// below [`Indexer::cardinality`]`(size)`.
    pub fn try_index(&self, size: usize, i: &BigUint) -> Option<T> {
        if *i >= self.grammar.count(size) {
            return None;
        }
        Some(self.build(size, i.clone()))
    }

    /// The value number `i` of exactly `size` (reference order).
    ///
    /// # Panics
    /// If `i` is not below [`Indexer::cardinality`]`(size)`.
    pub fn index(&self, size: usize, i: &BigUint) -> T {
        self.try_index(size, i).unwrap_or_else(|| {
            panic!(
                "neatcheck: index {i} is out of range: `{}` has {} values of size {size}",
                std::any::type_name::<T>(),
                self.grammar.count(size)
            )
        })
    }

    /// Decodes a fuzzer's bytes into a value of size at most `max_size`, so
    /// that a cargo-fuzz, libFuzzer or bolero target can draw any
    /// `Enumerable` input: the first bytes pick the size (among the sizes
    /// up to `max_size` that have values: one byte, or two when there are
    /// more than 256), the rest, read as a big-endian number, the index
    /// among that size's values (modulo their count). Missing bytes read as
    /// zeros, so short inputs decode to small values, and every value of
    /// size `<= max_size` is the decoding of some input, which a
    /// coverage-guided fuzzer can reach. `None` only when no value has size
    /// `<= max_size`.
    ///
    /// ```
    /// use neatcheck::index::Indexer;
    /// let lists = Indexer::<Vec<bool>>::new();
    /// // The sizes with values are 1 (`[]`), 3, 5, 7 and 9.
    /// assert_eq!(lists.decode(&[], 10), Some(vec![]));
    /// // The third of them (size 5: the four lists of two), index 5 mod 4.
    /// assert_eq!(lists.decode(&[2, 5], 10), Some(vec![false, true]));
    /// ```
    pub fn decode(&self, bytes: &[u8], max_size: usize) -> Option<T> {
        let sizes: Vec<usize> = (0..=max_size)
            .filter(|&n| self.grammar.count(n) > BigUint::ZERO)
            .collect();
        let size_bytes = if sizes.len() > 256 { 2 } else { 1 };
        let (head, rest) = bytes.split_at(bytes.len().min(size_bytes));
        let pick = head.iter().fold(0usize, |n, &b| n * 256 + usize::from(b));
        let size = *sizes.get(pick % sizes.len().max(1))?;
        let index = BigUint::from_bytes_be(rest) % self.grammar.count(size);
        Some(self.build(size, index))
    }

    /// The value number `i` over all sizes (smallest sizes first), or `None`
    /// beyond the last value of a finite type.
    pub fn try_value_at(&self, i: &BigUint) -> Option<T> {
        let (size, off) = locate_bounded(&self.grammar, i, self.bound())?;
        Some(self.build(size, off))
    }

    /// The value number `i` over all sizes (smallest sizes first).
    ///
    /// # Panics
    /// If the type is finite and `i` is not below [`Indexer::total`].
    pub fn value_at(&self, i: &BigUint) -> T {
        self.try_value_at(i).unwrap_or_else(|| self.beyond_total(i))
    }

    fn beyond_total(&self, i: &BigUint) -> ! {
        let total = self.total().unwrap_or_default();
        panic!(
            "neatcheck: index {i} is beyond the last value: `{}` has {total} values in all",
            std::any::type_name::<T>()
        )
    }

    /// The size of the value number `i` over all sizes, without building it,
    /// or `None` beyond the last value of a finite type.
    pub fn try_size_of_index(&self, i: &BigUint) -> Option<usize> {
        locate_bounded(&self.grammar, i, self.bound()).map(|(size, _)| size)
    }

    /// The size of the value number `i` over all sizes, without building it.
    ///
    /// # Panics
    /// If the type is finite and `i` is not below [`Indexer::total`].
    pub fn size_of_index(&self, i: &BigUint) -> usize {
        self.try_size_of_index(i)
            .unwrap_or_else(|| self.beyond_total(i))
    }

    /// A uniformly random value of exactly `size`, or `None` if there is none.
    pub fn sample<R: Rng + ?Sized>(&self, size: usize, rng: &mut R) -> Option<T> {
        let card = self.grammar.count(size);
        if card.is_zero() {
            return None;
        }
        let i = uniform_below(&card, rng);
        Some(self.build(size, i))
    }

    /// A uniformly random value among all those of size `0..=max_size`, or
    /// `None` if there is none.
    pub fn sample_up_to<R: Rng + ?Sized>(&self, max_size: usize, rng: &mut R) -> Option<T> {
        if !self.grammar.is_inhabited() {
            return None;
        }
        let all = self.grammar.count_up_to(max_size);
        if all.is_zero() {
            return None;
        }
        let i = uniform_below(&all, rng);
        let (size, off) = locate_bounded(&self.grammar, &i, Some(max_size))?;
        Some(self.build(size, off))
    }

    /// `k` values of `size` spread evenly over its values: indices
    /// `round(j * card / k)` for `j = 0..k`, increasing, each index once.
    pub fn spaced(&self, size: usize, k: usize) -> Vec<T> {
        spaced_indices(&self.grammar.count(size), k)
            .into_iter()
            .map(|i| self.build(size, i))
            .collect()
    }

    /// Every `workers`-th value of `size`, starting at index `worker`: the
    /// stripes of `0..workers` partition the values of that size.
    ///
    /// # Panics
    /// If `workers` is zero or `worker >= workers`.
    pub fn stripe(&self, size: usize, worker: usize, workers: usize) -> Stripe<T> {
        Stripe {
            indexer: self.clone(),
            size,
            indices: StripeIndices::new(self.grammar.count(size), worker, workers),
        }
    }

    /// The tree number `i` of exactly `size`, in the reference order;
    /// `None` when `i` is not below [`Indexer::cardinality`].
    pub fn tree(&self, size: usize, i: &BigUint) -> Option<Tree> {
        tree_in(&self.grammar, size, i)
    }

    /// The tree number `i` over all sizes (smallest sizes first); `None`
    /// beyond the last value of a finite space.
    pub fn tree_at(&self, i: &BigUint) -> Option<Tree> {
        let (size, off) = locate_bounded(&self.grammar, i, self.bound())?;
        Some(self.grammar.index_tree(self.grammar.root, size, &off))
    }

    /// A uniformly random tree of exactly `size`, or `None` if there is
    /// none.
    pub fn sample_tree<R: Rng + ?Sized>(&self, size: usize, rng: &mut R) -> Option<Tree> {
        sample_tree_in(&self.grammar, size, rng)
    }

    /// A uniformly random tree of size `0..=max_size` (each tree equally
    /// likely), or `None` if there is none.
    pub fn sample_tree_up_to<R: Rng + ?Sized>(&self, max_size: usize, rng: &mut R) -> Option<Tree> {
        sample_tree_up_to_in(&self.grammar, max_size, rng)
    }

    /// `k` evenly spaced trees of `size` (all of them if there are fewer).
    pub fn spaced_trees(&self, size: usize, k: usize) -> Vec<Tree> {
        spaced_trees_in(&self.grammar, size, k)
    }

    /// One stripe of the trees of `size` (see [`Indexer::stripe`]).
    pub fn stripe_trees(&self, size: usize, worker: usize, workers: usize) -> TreeStripe<'_> {
        stripe_trees_in(&self.grammar, size, worker, workers)
    }

    /// The size of a tree of this space and its index among the values of
    /// that size, in time polynomial in the size and without recursion:
    /// `self.tree(size, &i)` gives back
    /// `value_tree`, and `self.index(size, &i)` its value.
    ///
    /// # Panics
    /// If `value_tree` is not a tree of this space.
    pub fn rank(&self, value_tree: &Tree) -> (usize, BigUint) {
        rank_in(&self.grammar, value_tree)
    }

    /// Materialises a tree of this grammar.
    pub fn value_of_tree(&self, tree: &Tree) -> T {
        downcast(self.grammar.build_root(tree), "a tree")
    }
}

/// The values of one stripe (see [`Indexer::stripe`] and [`stripe`]).
pub struct Stripe<T> {
    indexer: Indexer<T>,
    size: usize,
    indices: StripeIndices,
}

impl<T: 'static> Iterator for Stripe<T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        let i = self.indices.next()?;
        Some(self.indexer.build(self.size, i))
    }
}

impl<T> fmt::Debug for Stripe<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Stripe")
            .field("indexer", &self.indexer)
            .field("size", &self.size)
            .field("indices", &self.indices)
            .finish()
    }
}

// ---------------------------------------------------------------------------
// Typed: canonical spaces.

/// The number of values of `T` of exactly `size`.
pub fn cardinality<T: Enumerable>(size: usize) -> BigUint {
    Indexer::<T>::new().cardinality(size)
}

/// The value number `i` of `T` of exactly `size` (the `i`-th value of
/// [`crate::values::values_of`]`::<T>(size)`).
///
/// # Panics
/// If `i` is not below [`cardinality`]`::<T>(size)`.
pub fn index<T: Enumerable>(size: usize, i: &BigUint) -> T {
    Indexer::<T>::new().index(size, i)
}

/// The value number `i` of `T` over all sizes, smallest sizes first.
///
/// # Panics
/// If `T` is finite and has at most `i` values.
pub fn value_at<T: Enumerable>(i: &BigUint) -> T {
    Indexer::<T>::new().value_at(i)
}

/// The size of the value number `i` of `T` over all sizes, without building
/// the value.
///
/// # Panics
/// If `T` is finite and has at most `i` values.
pub fn size_of_index<T: Enumerable>(i: &BigUint) -> usize {
    Indexer::<T>::new().size_of_index(i)
}

/// Decodes a fuzzer's bytes into a value of `T` of size at most
/// `max_size` (see [`Indexer::decode`]).
pub fn decode<T: Enumerable>(bytes: &[u8], max_size: usize) -> Option<T> {
    Indexer::<T>::new().decode(bytes, max_size)
}

/// A uniformly random value of `T` of exactly `size`, or `None` if there is
/// none.
pub fn sample<T: Enumerable>(size: usize, rng: &mut (impl Rng + ?Sized)) -> Option<T> {
    Indexer::<T>::new().sample(size, rng)
}

/// A uniformly random value of `T` among those of size `0..=max_size`, or
/// `None` if there is none.
pub fn sample_up_to<T: Enumerable>(max_size: usize, rng: &mut (impl Rng + ?Sized)) -> Option<T> {
    Indexer::<T>::new().sample_up_to(max_size, rng)
}

/// `k` values of `T` of `size` at indices `round(j * card / k)`, `j = 0..k`:
/// increasing indices, each once (all values when there are fewer than `k`).
pub fn spaced<T: Enumerable>(size: usize, k: usize) -> Vec<T> {
    Indexer::<T>::new().spaced(size, k)
}

/// Every `workers`-th value of `T` of `size`, starting at index `worker`:
/// the stripes of workers `0..workers` are disjoint and together complete.
///
/// # Panics
/// If `workers` is zero or `worker >= workers`.
pub fn stripe<T: Enumerable>(size: usize, worker: usize, workers: usize) -> Stripe<T> {
    Indexer::<T>::new().stripe(size, worker, workers)
}

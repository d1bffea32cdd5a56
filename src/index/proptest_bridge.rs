//! A [`proptest`] strategy over any neatcheck space (feature `proptest`).
//!
//! [`neatcheck_strategy`] draws a size uniformly from the sizes of a range
//! that have values, then a uniform value of that size, using the proptest
//! runner's generator (so runs are reproducible with proptest's seeds and
//! persisted failures). Failing values shrink toward smaller indices in the
//! order of [`crate::index::value_at`] (smaller sizes first), by binary
//! search, never below the smallest size of the range.
//!
//! ```
//! use neatcheck::index::proptest_bridge::neatcheck_strategy;
//! use proptest::prelude::*;
//!
//! proptest! {
//!     // (`#[test]` in a test file.)
//!     fn reverse_twice(v in neatcheck_strategy::<Vec<u8>>(0..=40)) {
//!         let mut w = v.clone();
//!         w.reverse();
//!         w.reverse();
//!         prop_assert_eq!(v, w);
//!     }
//! }
//! # fn main() { reverse_twice(); }
//! ```

use super::{uniform_below, Indexer};
use crate::describe::Space;
use crate::Enumerable;
use num_bigint::BigUint;
use num_traits::{One, Zero};
use proptest::strategy::{NewTree, Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use std::fmt;
use std::ops::RangeInclusive;

/// The strategy of [`neatcheck_strategy`]: uniform sizes (among those with
/// values), then uniform values of the size.
pub struct NeatcheckStrategy<T> {
    indexer: Indexer<T>,
    range: RangeInclusive<usize>,
    /// The sizes of the range that have values, ascending.
    sizes: Vec<usize>,
}

impl<T> Clone for NeatcheckStrategy<T> {
    fn clone(&self) -> Self {
        NeatcheckStrategy {
            indexer: self.indexer.clone(),
            range: self.range.clone(),
            sizes: self.sizes.clone(),
        }
    }
}

impl<T> fmt::Debug for NeatcheckStrategy<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NeatcheckStrategy")
            .field("indexer", &self.indexer)
            .field("range", &self.range)
            .field("inhabited_sizes", &self.sizes.len())
            .finish()
    }
}

/// A strategy for the values of `T` with sizes in `sizes`: each case draws a
/// size uniformly among the sizes of the range that have values, then a
/// uniformly random value of that size.
///
/// Counts up to the end of the range are computed when the strategy is
/// built. A range without any value makes every test case fail with a
/// message saying so.
pub fn neatcheck_strategy<T: Enumerable + fmt::Debug + Clone>(
    sizes: RangeInclusive<usize>,
) -> NeatcheckStrategy<T> {
    NeatcheckStrategy::new(Indexer::new(), sizes)
}

impl<T: fmt::Debug + Clone + 'static> NeatcheckStrategy<T> {
    /// The strategy over the values of an indexer (for hand-written spaces).
    pub fn new(indexer: Indexer<T>, sizes: RangeInclusive<usize>) -> Self {
        let inhabited = if sizes.is_empty() || !indexer.grammar().is_inhabited() {
            vec![]
        } else {
            let end = match indexer.max_size() {
                Some(m) => m.min(*sizes.end()),
                None => *sizes.end(),
            };
            (*sizes.start()..=end)
                .filter(|&s| !indexer.cardinality(s).is_zero())
                .collect()
        };
        NeatcheckStrategy {
            indexer,
            range: sizes,
            sizes: inhabited,
        }
    }

    /// The strategy over the values of a hand-written space.
    pub fn for_space(space: &Space<T>, sizes: RangeInclusive<usize>) -> Self {
        NeatcheckStrategy::new(Indexer::for_space(space), sizes)
    }

    /// Global index (over all sizes) of the first value of `size`.
    fn first_of(&self, size: usize) -> BigUint {
        if size == 0 {
            BigUint::zero()
        } else {
            self.indexer.cardinality_up_to(size - 1)
        }
    }
}

impl<T: fmt::Debug + Clone + 'static> Strategy for NeatcheckStrategy<T> {
    type Tree = IndexValueTree<T>;
    type Value = T;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        let Some(&smallest) = self.sizes.first() else {
            return Err(format!(
                "neatcheck: `{}` has no values of size {:?}",
                std::any::type_name::<T>(),
                self.range
            )
            .into());
        };
        let rng = runner.rng();
        let pick = uniform_below(&BigUint::from(self.sizes.len()), rng);
        let size = self.sizes[usize::try_from(&pick).expect("a size position fits in usize")];
        let offset = uniform_below(&self.indexer.cardinality(size), rng);
        let value = self.indexer.index(size, &offset);
        let global = self.first_of(size) + offset;
        Ok(IndexValueTree {
            indexer: self.indexer.clone(),
            lo: self.first_of(smallest),
            curr: global.clone(),
            hi: global,
            value,
        })
    }
}

/// The value tree of [`NeatcheckStrategy`]: a global index that shrinks by
/// binary search toward the first value of the smallest size of the range.
pub struct IndexValueTree<T> {
    indexer: Indexer<T>,
    lo: BigUint,
    curr: BigUint,
    hi: BigUint,
    value: T,
}

impl<T: fmt::Debug> fmt::Debug for IndexValueTree<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IndexValueTree")
            .field("lo", &self.lo)
            .field("curr", &self.curr)
            .field("hi", &self.hi)
            .field("value", &self.value)
            .finish()
    }
}

impl<T: fmt::Debug + Clone + 'static> IndexValueTree<T> {
    /// The index of the current value over all sizes.
    pub fn index(&self) -> &BigUint {
        &self.curr
    }

    fn reposition(&mut self) -> bool {
        let mid = &self.lo + (&self.hi - &self.lo) / 2u32;
        if mid == self.curr {
            return false;
        }
        self.value = self.indexer.value_at(&mid);
        self.curr = mid;
        true
    }
}

impl<T: fmt::Debug + Clone + 'static> ValueTree for IndexValueTree<T> {
    type Value = T;

    fn current(&self) -> T {
        self.value.clone()
    }

    fn simplify(&mut self) -> bool {
        if self.hi <= self.lo {
            return false;
        }
        self.hi = self.curr.clone();
        self.reposition()
    }

    fn complicate(&mut self) -> bool {
        if self.hi <= self.lo || self.curr >= self.hi {
            return false;
        }
        self.lo = &self.curr + BigUint::one();
        self.reposition()
    }
}

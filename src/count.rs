//! Exact cardinalities of a type's values per size: the typed entry points
//! of the grammar-level counting of `crate::feat`.
//!
//! `count_of(n)` is the number of values of exactly size `n`;
//! `count_up_to(n)` sums sizes `0..=n` and is the worst-case number of
//! predicate runs of a search with bound `n`.

use crate::types::grammar_of;
use crate::Enumerable;
use num_bigint::BigUint;

/// The number of values of `T` of exactly `size`.
pub fn count_of<T: Enumerable>(size: usize) -> BigUint {
    grammar_of::<T>().count(size)
}

/// The number of values of `T` of size `0..=size`.
pub fn count_up_to<T: Enumerable>(size: usize) -> BigUint {
    grammar_of::<T>().count_up_to(size)
}

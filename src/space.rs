//! Spaces: sized-functor descriptions of sets of values, ordered by size.
//!
//! This module owns the description layer: [`Space<T>`], its combinators
//! (`empty`, `pure`, `pay`, `union`, `product`, `map` and the conveniences
//! built from them), the leaf families of atomic values, the integer size
//! conventions and the per-thread registry that builds each type's space
//! once (keyed by `TypeId`, given the type's `describe`). Descriptions are
//! untyped trees (`Raw`) behind a typed handle; every backend (counting, the
//! reference enumeration, the lazy search, indexing) reads the same tree,
//! usually after [`crate::grammar`] has compiled it.
//!
//! Integers have two size conventions ([`IntegerSizes`]): by bit length (the
//! default; 0 costs 0, size `k` holds the magnitudes of `k` bits, positives
//! then negatives) and linear (`n` costs `|n|`: 0; 1, −1; 2, −2; ...). The
//! canonical space of the primitive integer types follows the thread's mode
//! ([`with_integer_sizes`], or a check's `Config::integer_sizes`); the
//! spaces [`linear`] and [`bit_length`] and the wrapper [`Linear`] fix one
//! convention whatever the mode.

// The public paths of the description layer and of the type layer's
// combinators: a facade (ARCHITECTURE.md, "API boundary").
pub use crate::describe::*;
pub use crate::types::{
    bind, bit_length, field, linear, of, transparent, AsciiChar, Enumerable, Integer, Linear,
};

//! Lazy values: the value under search as an arena of choice nodes, and the
//! instrumented handles ([`Lazy`]) through which predicates read it.
//!
//! Every node is one position: an alternative of its sort (or a leaf index),
//! a mark and the index of its first field (fields are contiguous). A mark
//! below the current run's stamp means "open and not yet read in this run";
//! reading such a node stamps it and appends it to the run's read list, so
//! the engine learns which positions were demanded and in which order.
//! Locked positions are never recorded.

// The handle and the type layer's reading API: a facade.
pub use crate::handle::Lazy;
pub use crate::types::{Alternative, Atom, LazyIter, LazyOrd, LazyView, ListView, RangeView};

//! Lazy search: `sat`, `search`, `ctrex`, `classes`, the iterative-deepening
//! drivers `test`/`test_for`, and the stepping [`Searcher`] for embedding.
//!
//! Every function here runs the predicate once per equivalence class of its
//! laziness (`docs/spec.md#search`): values that agree on every position a
//! run read are never run twice.

// The search layer and the check driver's `test`/`test_for`: a facade.
pub use crate::check::deepen::{test, test_for};
pub use crate::engine::*;
pub use crate::report::Pattern;

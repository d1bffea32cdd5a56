//! Lazy search: the shortcuts `sat`, `search`, `ctrex`, `classes` and the
//! iterative-deepening drivers `test`/`test_for` (each one
//! [`crate::Config`] operation with the bound as an argument), and the
//! stepping [`Searcher`] for embedding.
//!
//! Every function here runs the predicate once per equivalence class of its
//! laziness (`docs/spec.md#search`): values that agree on every position a
//! run read are never run twice. A [`crate::Config`] runs the same searches
//! with a budget, on threads, over one shard, over given spaces or with a
//! conjunction strategy.

// The search layer and the shortcuts over `Config`: a facade.
pub use crate::check::shortcuts::{classes, ctrex, sat, search, test, test_for};
pub use crate::check::Satisfying;
pub use crate::engine::{
    Balance, BoundResult, Budget, Classes, Counterexample, Outcome, RunResult, Searcher, Shard,
    Stats, WorkerBalance,
};
pub use crate::report::Pattern;

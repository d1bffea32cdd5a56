//! Developer tools of neatcheck (not published): the programs that the
//! benchmarks, measurements and conformance tests share.
//!
//! - [`args`]: command-line pieces the tools share;
//! - [`benchmarks`]: the language-neutral benchmark programs of
//!   `docs/benchmarks/` (lambda, redblack, regexp, imperative, typecheck,
//!   the conformance predicates) and the thread CPU clock of the
//!   measurements;
//! - [`green`]: realistic properties with planted bugs and their fixes,
//!   for what a check costs and finds against proptest
//!   (`versus_proptest`);
//! - [`search_trees`]: the `i64`-keyed search tree two benchmarks share;
//! - [`interpreter`]: a tiny functional language over datatypes declared at
//!   run time, evaluated through `neatcheck::dynamic`;
//! - [`user_examples`]: the types and invariants of the user examples whose
//!   checks `check_cost` times.
//!
//! The tools are this crate's binaries (`cargo run --release -p
//! neatcheck-tools --bin <tool>`), the criterion micro-benchmarks its bench
//! `engine`, and the tests of the programs this library's unit tests
//! (`program_tests`: unit tests, not an integration test, so `cargo test`
//! does not build the sixteen tools to run them).

pub mod args;
pub mod benchmarks;
pub mod green;
pub mod interpreter;
pub mod machines;
pub mod search_trees;
pub mod user_examples;

#[cfg(test)]
mod program_tests;

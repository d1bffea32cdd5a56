//! The tests of the benchmark programs and the run-time-types interpreter,
//! one binary: the programs against the reference implementation's
//! numbers, sequentially and in parallel, the conjunction strategies, and
//! the interpreter against derived Rust types.

mod benchmarks;
mod explore_budgets;
mod interpreter;
mod parallel;
mod strategies;

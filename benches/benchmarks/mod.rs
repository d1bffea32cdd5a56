//! The benchmark programs of `shared/benchmarks/`, implemented exactly as
//! specified (types, constructor order, evaluation order, injected bugs).
//! Shared by the `conformance` and `bench` examples and by the tests.
#![allow(dead_code)]

pub mod conformance;
pub mod imperative;
pub mod lambda;
pub mod nat;
pub mod redblack;
pub mod regexp;
pub mod timing;
pub mod typecheck;

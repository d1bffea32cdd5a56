//! The benchmark programs of `docs/benchmarks/`, implemented exactly as
//! specified (types, constructor order, evaluation order, injected bugs).
//! Shared by the tools' binaries, the engine micro-benchmarks and the
//! tests of this crate; `timing` is the clock the measurements read.

pub mod conformance;
pub mod countdown;
pub mod imperative;
pub mod lambda;
pub mod nat;
pub mod redblack;
pub mod regexp;
pub mod small_programs;
pub mod timing;
pub mod turner_arena;
pub mod typecheck;

/// Empties `v` and hands its allocation over as a vector of `U`, for
/// per-run arenas kept in a thread-local slot between runs. `T` and `U` are
/// always one node type at two lifetimes (a run's and `'static`, a lifetime
/// for the type only: no handle is ever stored under it): std then collects
/// in place, because the layouts agree, and the capacity is kept. That is
/// an optimisation of std, not a guarantee; without it the vector would
/// only be allocated again when it grows.
pub fn recycle<T, U>(mut v: Vec<T>) -> Vec<U> {
    v.clear();
    v.into_iter()
        .map(|_| unreachable!("the vector was emptied"))
        .collect()
}

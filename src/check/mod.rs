//! Running properties: the parameter object [`Config`] with its
//! operations (checks inside `cargo test`, searches, stepping), the
//! [`Property`] forms, the environment variables, the failure report and
//! labels.
//!
//! A property is a closure over lazy handles (`|xs: Lazy<Vec<u8>>| ...`) or
//! over plain values (`|x: u8, xs: Vec<u8>| ...`), or a function returning
//! a [`crate::cool::Cool`] formula. [`check`] (that is,
//! `Config::default().check`) runs it in phases, all counted in runs so
//! that the verdict never depends on the machine or its load:
//!
//! 1. inputs saved by earlier failures of the same test (the regression
//!    file, `neatcheck-regressions/` beside the crate);
//! 2. the **exhaustive phase**: every input of size 0, 1, 2, ... by lazy
//!    search, until the size bound or the run budget; a counterexample found
//!    here is a smallest one. After its first bounds (eight runs per probe
//!    case) it pauses for
//! 3. a **random probe** of up to 1 000 cases of all sizes (see 4), so that
//!    a bug far past the small sizes is met before the whole exhaustive
//!    budget is spent, and the edge sweep; then it goes on from the next
//!    bound with the rest of its budget. Beside it a depth-bounded search (the
//!    portfolio, [`Config::portfolio`]) meets long but shallow
//!    counterexamples early; what it finds is reported when the size order's
//!    budget does not reach a counterexample, shrunk, saying whether it is
//!    proven smallest;
//! 4. the **random phase**: uniform inputs of growing sizes past the
//!    exhausted ones, a third of them with atoms moved to edge values
//!    (0, ±1, powers of two and their neighbours, MIN, MAX), a third with
//!    atoms drawn uniformly from their whole type. A case whose
//!    precondition ([`implies`]) is false rules out, for the later cases of
//!    its size, every input that agrees with it on the positions it read,
//!    and is drawn again ([`crate::constrained`]): cases are then uniform
//!    among the inputs that meet the precondition, found in a few draws
//!    where rejection would need millions. A failure found here (or
//!    by the probe) is shrunk through the type's description, then the sizes
//!    up to the shrunk one are searched exhaustively, so the report is the
//!    smallest counterexample in search order whenever the budget reaches
//!    it, and otherwise says how far below every input passed;
//! 5. **health checks**: a check that ran nothing, found no input meeting its
//!    precondition, could not even finish the smallest inputs, or missed a
//!    coverage requirement ([`cover`]) fails with a message saying what to
//!    change.
//!
//! With `NEATCHECK_SHARD=i/n` ([`Config::shard`]) a check runs shard `i` of
//! `n` of phases 2 to 4, for a CI matrix of `n` jobs: the shards' runs are
//! exactly the unsharded check's, each in one shard, and a shard reports the
//! first counterexample of its own part (`docs/spec.md#shards`).
//!
//! A failing check prints one report: the counterexample, what the property
//! read of it, how it failed, how far the search went, and a replay line
//! (`NEATCHECK_REPLAY=<key> cargo test ... -- --exact <test>`) that re-runs
//! exactly that input. A passing check that used labels prints their
//! shares on one line; with `NEATCHECK_VERBOSE=1` it prints its coverage
//! line and label table (run `cargo test -- --nocapture` to see it), and
//! with `NEATCHECK_JSON=<file>` every check appends a JSON line there.

pub(crate) mod config;
mod driver;
pub(crate) mod edges;
#[cfg(test)]
mod given_tests;
pub(crate) mod labels;
mod operations;
mod portfolio;
mod property;
pub(crate) mod random;
#[cfg(test)]
mod redraw_tests;
mod regressions;
pub(crate) mod settings;
pub(crate) mod shortcuts;
mod verdict;

pub use crate::engine::{Outcome, RunResult};
pub use crate::record::{Counterexample, Found, Shard, Stop, Summary};
pub use config::{Config, GivenSpaces, OneThread, OwnSpaces, Threads};
pub use labels::{collect, cover, label};
pub use operations::{InputSpaces, Satisfying, ThreadsFor};
pub use property::{
    implies, Formula, LazyArg, LazyArgs, PlainArg, PlainArgs, PlainRef, Property, Spaces,
};
pub use settings::Profile;

use crate::Enumerable;
use std::fmt::Debug;

/// Checks a property with the default configuration (overridden by the
/// `NEATCHECK_*` environment variables): [`Config::check`] of
/// `Config::default()`. Panics with a report naming the smallest
/// counterexample if it fails, or saying why a pass would mean nothing (no
/// runs, no values, a precondition that never holds).
///
/// ```
/// use neatcheck::Lazy;
/// // Lazy: the property reads only what it needs.
/// neatcheck::check(|xs: Lazy<Vec<bool>>| xs.len() < 1000);
/// // Plain values, several arguments.
/// neatcheck::check(|x: u8, y: u8| x.max(y) >= x);
/// ```
#[track_caller]
pub fn check<T: Enumerable + Debug, M>(prop: impl Property<T, M>) -> Summary {
    Config::default().check(prop)
}

/// Declares property tests:
///
/// ```
/// use neatcheck::neatcheck;
/// neatcheck! {
///     /// Reversing twice is the identity.
///     fn reverse_twice(xs: Vec<u8>) -> bool {
///         let mut ys = xs.clone();
///         ys.reverse();
///         ys.reverse();
///         ys == xs
///     }
/// }
/// # reverse_twice();
/// ```
///
/// Each function becomes a test (add `#[test]` as in any test) whose body
/// runs [`check`] over its arguments; arguments may be plain values or
/// `Lazy` handles.
#[macro_export]
macro_rules! neatcheck {
    ($($(#[$attr:meta])* $vis:vis fn $name:ident($($arg:ident : $ty:ty),+ $(,)?) $(-> $ret:ty)? $body:block)*) => {
        $(
            $(#[$attr])*
            $vis fn $name() {
                $crate::check::check(|$($arg: $ty),+| $(-> $ret)? { $body });
            }
        )*
    };
}

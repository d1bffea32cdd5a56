//! # neatcheck
//!
//! Lazy exhaustive property-based testing. neatcheck finds the **smallest**
//! input that breaks a property by enumerating every value up to a size
//! bound, but it runs the property only once per class of inputs that the
//! property cannot tell apart: the property reads its input through
//! instrumented handles, and the search refines only the positions that were
//! read (the NEAT algorithm, a successor of Lazy SmallCheck).
//!
//! ## A first property
//!
//! ```
//! use neatcheck::{implies, Config, Lazy};
//!
//! // A sorted insert with a bug: it drops an element equal to `x`.
//! fn insert(x: u8, xs: &[u8]) -> Vec<u8> {
//!     let mut out: Vec<u8> = xs.iter().copied().filter(|&y| y != x).collect();
//!     let at = out.partition_point(|&y| y < x);
//!     out.insert(at, x);
//!     out
//! }
//!
//! fn is_sorted(xs: Lazy<'_, Vec<u8>>) -> bool {
//!     let mut prev = None;
//!     // Reads one list cell and one element at a time.
//!     for x in xs.iter().map(|x| x.get()) {
//!         if prev.is_some_and(|p| p > x) {
//!             return false;
//!         }
//!         prev = Some(x);
//!     }
//!     true
//! }
//!
//! let failure = Config::default().try_check(|x: Lazy<u8>, xs: Lazy<Vec<u8>>| {
//!     // The lazy precondition prunes: unsorted lists are abandoned at their
//!     // first descent, whatever follows it.
//!     implies(is_sorted(xs), || insert(x.get(), &xs.force()).len() == xs.len() + 1)
//! })
//! .unwrap_err();
//! assert_eq!(failure.value, (0, vec![0]));
//! // Found by the exhaustive phase: every smaller input passed.
//! assert!(failure.is_minimal());
//! // The key re-runs exactly this input: NEATCHECK_REPLAY=<key>.
//! assert!(failure.key.starts_with("v1.2."));
//! ```
//!
//! Every way to run a property is an operation of one value, [`Config`]:
//! it carries the size bound, the budgets, the threads, the shard, the
//! conjunction strategy and the input's spaces, and `check`, `try_check`
//! (above: the same check, returning its result), `exists`, `sat`,
//! `satisfying`, `classes`, `ctrex`, `deepen` and `searcher` run a property
//! over them (the table on [`Config`]). A property is a closure over plain
//! values or lazy handles, or a function returning a [`cool::Cool`]
//! formula; on one thread it may capture a `RefCell` or take an `Rc`. Data
//! a run builds for itself (an environment, a term) can live in the run's
//! arena ([`Lazy::arena`]): a pointer bump to take, freed at once when the
//! run ends.
//!
//! In a test, write `neatcheck::check(|x: u8, xs: Vec<u8>| ...)` (plain
//! values) or `neatcheck::check(|xs: Lazy<Vec<u8>>| ...)` (lazy handles),
//! short for `Config::default().check(...)`:
//! it panics with a report naming the smallest counterexample, how far the
//! search went and how to re-run exactly that input. The [`neatcheck!`] macro
//! declares such tests. A check is deterministic: its budgets are counted in
//! runs, never in time (see [`mod@check`] for its phases and [`check::Config`]
//! for the `NEATCHECK_*` environment variables).
//!
//! Integers and characters compare lazily: `x < y`, `x == 5` and
//! [`Lazy::compare`] on handles read a number's size and sign, then its bits
//! from the most significant one only until the answer is known, and the
//! search refines only the bits that were read. A precondition written with
//! them rules out whole ranges of numbers per run ([`Lazy::get`] reads the
//! whole value, one class per value):
//!
//! ```
//! use neatcheck::{search::classes, Lazy};
//!
//! fn is_sorted(xs: Lazy<'_, Vec<u8>>) -> bool {
//!     let mut prev: Option<Lazy<'_, u8>> = None;
//!     for x in xs.iter() {
//!         if prev.is_some_and(|p| p > x) {
//!             return false;
//!         }
//!         prev = Some(x);
//!     }
//!     true
//! }
//!
//! let lazy = classes(|xs: Lazy<Vec<u8>>| is_sorted(xs), 14).runs;
//! let whole = classes(|xs: Lazy<Vec<u8>>| xs.force().is_sorted(), 14).runs;
//! assert!(lazy * 10 < whole, "{lazy} classes against {whole} values");
//! ```
//!
//! Bugs past the sizes the exhaustive phase reaches are found by the random
//! phase, then shrunk:
//!
//! ```
//! use neatcheck::check::{Config, Found};
//!
//! let failure = Config::default().try_check(|x: u64| x < 1 << 40).unwrap_err();
//! assert_eq!(failure.value, 1 << 40);
//! assert!(matches!(failure.found, Found::Random { .. }));
//! ```
//!
//! A check that could not mean anything fails instead of passing:
//!
//! ```
//! use neatcheck::check::Config;
//! use neatcheck::{implies, Lazy};
//!
//! let summary = Config::default().max_size(6).samples(0, 0).try_check(|xs: Lazy<Vec<u8>>| {
//!     implies(xs.len() > 10, || true)
//! })
//! .unwrap();
//! assert!(summary.problems[0].contains("no input met the precondition"));
//! ```
//!
//! ## Your own types
//!
//! `#[derive(Enumerable)]` describes a type's values by size (every
//! constructor costs 1) and generates a *view* type for lazy reading:
//!
//! ```
//! use neatcheck::{Enumerable, Lazy};
//!
//! #[derive(Enumerable, Debug, Clone, PartialEq)]
//! enum Exp {
//!     Var(u8),
//!     App(Box<Exp>, Box<Exp>),
//!     Lam(Box<Exp>),
//! }
//!
//! // `ExpView` has the same constructors, with `Lazy` fields (boxes removed).
//! fn closed(e: Lazy<'_, Exp>, depth: u8) -> bool {
//!     match e.view() {
//!         ExpView::Var(v) => v.get() < depth,
//!         ExpView::App(f, x) => closed(f, depth) && closed(x, depth),
//!         ExpView::Lam(b) => closed(b, depth.saturating_add(1)),
//!     }
//! }
//!
//! // All closed terms of size <= 7, one per class of the predicate:
//! let terms: Vec<Exp> = neatcheck::search::search(|e: Lazy<Exp>| closed(e, 0), 7).collect();
//! assert!(terms.contains(&Exp::Lam(Box::new(Exp::Var(0)))));
//! // Counting: how many terms of each size exist.
//! // Size 3: Var(2), Var(3), App(Var(0), Var(0)), Lam(Var(1)), Lam(Lam(Var(0))).
//! assert_eq!(neatcheck::count::count_of::<Exp>(3), 5u32.into());
//! ```
//!
//! `#[enumerable(skip)]` leaves a variant out; `#[enumerable(with = expr)]`
//! gives a field its own space (for instance
//! `#[enumerable(with = space::range(0, 3, |n| n as u8))]`; the older string
//! form `with = "expr"` is accepted too). Such a field's view is a `Lazy`
//! handle of its type like any other: `get()` and `force()` read the field's
//! own values, and `view()` works where the space is the type's own (a
//! position of another structure is refused with a clear panic, never
//! misread: reads through such a field are checked, while the rest of the
//! value is read on trust as usual).
//!
//! A space can also be given per argument of a property, with no newtype,
//! through [`Config::spaces`].
//!
//! `#[enumerable(transparent)]` on a struct with exactly one field makes the
//! struct the very position of its field: `struct Key(i64)` has the values
//! and sizes of `i64`, and its view `KeyView(Lazy<i64>)` reads nothing. It
//! is opt-in, not the default for one-field structs: a constructor costs 1
//! in the size-based convention of NEAT (and of the run counts of the
//! benchmark specifications, `docs/benchmarks/`), so a plain one-field
//! struct keeps its cost.
//!
//! ```compile_fail
//! # use neatcheck::Enumerable;
//! // error: #[enumerable(transparent)] needs a struct with exactly one field
//! #[derive(Enumerable)]
//! #[enumerable(transparent)]
//! struct Point(u8, u8);
//! ```
//!
//! A hand-written `Enumerable` reads as fast as a derived one through
//! [`Lazy::alternative`]: implement [`lazy::LazyView`] with it (see
//! [`lazy::Alternative`]), and name its alternatives for reports with
//! [`space::ctor`].
//!
//! ## Spaces
//!
//! Underneath, a type's values are described by a [`Space`], a *sized
//! functor* built from [`space::empty`], [`space::pure`] (size 0),
//! [`space::pay`] (size + 1), [`space::union`], [`space::product`] and
//! [`space::map`]; recursion goes through [`space::of`], and every recursive
//! cycle must pass through `pay`. The same description drives
//! [`count`] (exact counts per size), [`values`] (the reference enumeration),
//! the lazy [`search`] and [`index`] (random access). [`space::pattern`]
//! builds the strings of a regular-expression subset from the same
//! combinators.
//!
//! ```
//! use neatcheck::space::{self, Space};
//! use neatcheck::Enumerable;
//!
//! #[derive(Clone, Debug, PartialEq)]
//! struct Even(u32);
//!
//! impl Enumerable for Even {
//!     fn describe() -> Space<Self> {
//!         // 0, 2, 4, ... where 2k has size k.
//!         space::union(vec![
//!             space::pure(Even(0)),
//!             space::pay(space::map(space::of::<Even>(), |Even(n)| Even(n + 2))),
//!         ])
//!     }
//! }
//! assert_eq!(neatcheck::values::values_of::<Even>(3), vec![Even(6)]);
//! ```
//!
//! ## Functions as inputs
//!
//! A property over [`Fun<A, B>`](Fun) (or [`Fun2`]) quantifies over
//! functions: predicates, mappers, comparators. They are enumerated by case
//! distinctions on the argument and constant results, called like closures,
//! read only as far as the property applies them, and printed as a `match`:
//!
//! ```
//! use neatcheck::{Config, Fun};
//!
//! // "Applying a function twice is applying it once" is false:
//! let c = Config::default()
//!     .try_check(|f: Fun<u8, u8>, x: u8| f(&f(&x)) == f(&x))
//!     .unwrap_err();
//! assert_eq!(format!("{:?}", c.value), "(|x| match x { 0 => 1, _ => 0 }, 0)");
//! ```
//!
//! ## Stateful systems
//!
//! A data structure, a cache or a protocol is checked against a model with
//! sequences of commands: implement [`state::StateMachine`] and call
//! [`state::check_machine`] (or give [`state::machine`] to any operation of
//! a [`Config`]). The first failing sequence is a shortest one;
//! the report shows the model after each step and a test that replays it
//! (the [`state`] module has a complete example).
//!
//! ## Search
//!
//! The searches of a [`Config`] (`sat`, `satisfying`, `classes`, `ctrex`,
//! `deepen`) run a predicate over every input up to `max_size`, once per
//! class of its laziness, with no run budget unless one is set;
//! [`search::sat`], [`search::search`], [`search::ctrex`],
//! [`search::classes`] and [`search::test_for`] are their one-line
//! shortcuts with the bound as an argument, and [`search::Searcher`] steps
//! through a search one predicate run at a time for embedding in other
//! tools. Predicates may return a [`cool::Cool`] formula whose parallel
//! conjunctions the engine may reorder with the NEAT conjunction strategies
//! (D, O, F, OS, OF, OSF; [`Config::strategy`]).
//!
//! On several threads ([`Config::threads`]) a search has the same runs,
//! classes and first counterexample as on one:
//!
//! ```
//! use neatcheck::{Config, Lazy};
//!
//! // "No list of booleans has three trues" is false: the smallest
//! // counterexample has size 7 (a list costs 1 + n plus its elements).
//! let prop = |xs: Lazy<Vec<bool>>| xs.iter().filter(|b| b.get()).count() < 3;
//! let on_two = Config::default().threads(2);
//! assert!(on_two.clone().max_size(6).ctrex(prop).counterexample().is_none());
//! let c = on_two.max_size(7).ctrex(prop).counterexample().unwrap();
//! assert_eq!(c.value, vec![true, true, true]);
//! assert_eq!(c.runs, neatcheck::search::ctrex(prop, 7).unwrap_err().runs);
//! ```
//!
//! Standard types are enumerated with the conventions of the Haskell
//! `size-based` package: `bool` costs 1, naturals by bit length (0 has size
//! 0, size `k + 1` holds `2^k ..= 2^(k+1) - 1`), a list of `n` elements costs
//! `1 + n` plus its elements, tuples and boxes are free. `docs/spec.md` in
//! the crate's source states the algorithm, the size of every standard type
//! (`#sizes`) and the conjunction strategies' exact behaviour
//! (`#strategies`).

#![warn(missing_docs, unreachable_pub, missing_debug_implementations)]
#![deny(unsafe_code)]
// A counterexample (with its coverage summary) is returned at most once per
// search: its size on the stack costs nothing measurable, and boxing it
// would make every caller's `Err(c)` pattern clumsier.
#![allow(clippy::result_large_err, clippy::large_enum_variant)]

// Lets the crate's own unit tests use `#[derive(Enumerable)]`, whose output
// names the crate by its external path.
#[cfg(test)]
extern crate self as neatcheck;

#[cfg(test)]
mod architecture_tests;
mod arena;
pub mod check;
pub mod constrained;
pub mod cool;
pub mod count;
mod crash;
mod derive_support;
mod describe;
pub mod dynamic;
mod engine;
pub mod explore;
mod feat;
pub mod grammar;
mod handle;
pub mod index;
mod internal;
pub mod lazy;
pub mod mutation;
mod record;
mod replay;
mod report;
#[cfg(test)]
mod robust_tests;
mod run_slot;
pub mod search;
mod shrink;
pub mod space;
#[cfg(test)]
mod spec_tests;
pub mod state;
pub mod suite;
mod types;
pub mod values;
mod watchdog;
mod word_hash;

pub use check::{check, collect, cover, implies, label, Config};
pub use describe::Space;
pub use handle::{Lazy, RunArena};
pub use neatcheck_derive::Enumerable;
pub use types::{Enumerable, Fun, Fun2, LazyView};

// The derive protocol (see `derive_support`): one hidden path for the
// generated code, no hidden methods on the user's types.
#[doc(hidden)]
pub mod __private {
    pub use crate::derive_support::*;
}

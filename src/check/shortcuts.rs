//! The one-line shortcuts of `neatcheck::search` (`sat`, `search`,
//! `classes`, `ctrex`, `test`, `test_for`): each is an operation of
//! [`Config`] with the size bound as an argument, for a lazy predicate on
//! one thread. They live here, above the search layer, because `Config`
//! does.

use super::config::Config;
use super::operations::Satisfying;
use super::property::LazyArg;
use crate::engine::{BoundResult, Classes, Counterexample, Outcome};
use crate::handle::Lazy;
use crate::Enumerable;
use std::fmt;
use std::time::Duration;

/// Whether some value of size `<= bound` satisfies `pred`:
/// `Config::default().max_size(bound).sat(pred)`.
///
/// ```
/// use neatcheck::{search, Lazy};
/// // Is there a list of booleans with two trues in a row?
/// let found = search::sat(
///     |xs: Lazy<Vec<bool>>| {
///         let v: Vec<bool> = xs.iter().map(|b| b.get()).collect();
///         v.windows(2).any(|w| w[0] && w[1])
///     },
///     5,
/// );
/// assert!(found);
/// ```
///
/// # Panics
/// If the predicate panics: the message names the input.
pub fn sat<T: Enumerable, O: Outcome>(pred: impl Fn(Lazy<'_, T>) -> O, bound: usize) -> bool {
    Config::default().max_size(bound).sat::<T, LazyArg, _>(pred)
}

/// The satisfying values of size `<= bound`, one per equivalence class
/// (positions the predicate did not read are at their minimal values):
/// `Config::default().max_size(bound).satisfying(pred)`.
pub fn search<T: Enumerable, O: Outcome, P: Fn(Lazy<'_, T>) -> O>(
    pred: P,
    bound: usize,
) -> Satisfying<T, LazyArg, P> {
    Config::default().max_size(bound).satisfying(pred)
}

/// Runs the whole search of values of size `<= bound`:
/// `Config::default().max_size(bound).classes(pred)`.
///
/// # Panics
/// If the predicate panics: the message names the input.
pub fn classes<T: Enumerable, O: Outcome>(
    pred: impl Fn(Lazy<'_, T>) -> O,
    bound: usize,
) -> Classes {
    Config::default()
        .max_size(bound)
        .classes::<T, LazyArg, _>(pred)
}

/// Searches for a value of size `<= bound` that falsifies `prop`:
/// `Config::default().max_size(bound).ctrex(prop)`, with the number of
/// runs when there is none.
pub fn ctrex<T: Enumerable, O: Outcome>(
    prop: impl Fn(Lazy<'_, T>) -> O,
    bound: usize,
) -> Result<u64, Counterexample<T>> {
    match Config::default()
        .max_size(bound)
        .ctrex::<T, LazyArg, _>(prop)
    {
        BoundResult::Failed(c) => Err(c),
        other => Ok(other.runs()),
    }
}

/// Iterative deepening: bounds 0, 1, 2, ... until a counterexample is found
/// (the first one found is size-minimal). Prints, per bound, the worst-case
/// number of runs (values of size `<= bound`) and the runs made. Never
/// returns if the property holds over an infinite type: see [`test_for`].
pub fn test<T: Enumerable + fmt::Debug, O: Outcome>(
    prop: impl Fn(Lazy<'_, T>) -> O,
) -> Counterexample<T> {
    loop {
        if let Some(c) = test_for(&prop, Duration::from_secs(3600)) {
            return c;
        }
    }
}

/// Iterative deepening within a time budget; `None` if no counterexample
/// was found in time (or every value of a finite type passed). Prints one
/// line per bound to standard output:
/// `Config::default().max_size(usize::MAX).time(budget).deepen(prop)`.
pub fn test_for<T: Enumerable + fmt::Debug, O: Outcome>(
    prop: impl Fn(Lazy<'_, T>) -> O,
    budget: Duration,
) -> Option<Counterexample<T>> {
    Config::default()
        .max_size(usize::MAX)
        .time(budget)
        .deepen::<T, LazyArg, _>(prop)
}

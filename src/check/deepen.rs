//! The NEAT paper's `test` driver: iterative deepening with a time budget
//! as the only limit, printing one line per bound. It is the check driver
//! (`deepen_for`) under another name, so it lives here, above the search
//! layer; its public path is `neatcheck::search::{test, test_for}`.

use crate::engine::{Counterexample, Outcome, Parallel, Searcher};
use crate::handle::Lazy;
use crate::Enumerable;
use std::fmt;
use std::time::Duration;

/// Iterative deepening: bounds 0, 1, 2, ... until a counterexample is found
/// (the first one found is size-minimal). Prints, per bound, the worst-case
/// number of runs (values of size `<= bound`) and the runs made. Never
/// returns if the property holds over an infinite type: see [`test_for`].
pub fn test<T: Enumerable + fmt::Debug + Send, O: Outcome>(
    prop: impl Fn(Lazy<'_, T>) -> O + Sync,
) -> Counterexample<T> {
    loop {
        if let Some(c) = test_for(&prop, Duration::from_secs(3600)) {
            return c;
        }
    }
}

/// Iterative deepening within a time budget; `None` if no counterexample
/// was found in time (or every value of a finite type passed). Prints one
/// line per bound to standard output. The same driver as
/// [`crate::check()`], with the time budget as its only limit.
pub fn test_for<T: Enumerable + fmt::Debug + Send, O: Outcome>(
    prop: impl Fn(Lazy<'_, T>) -> O + Sync,
    budget: Duration,
) -> Option<Counterexample<T>> {
    deepen_on(&prop, 1, budget)
}

/// [`test_for`] on `threads` threads.
pub(crate) fn deepen_on<T: Enumerable + fmt::Debug + Send, O: Outcome>(
    prop: &(impl Fn(Lazy<'_, T>) -> O + Sync),
    threads: usize,
    budget: Duration,
) -> Option<Counterexample<T>> {
    let step = |s: &mut Searcher<T>| s.step(prop);
    let trace = |s: &mut Searcher<T>| {
        s.pattern(|x| {
            let _ = prop(x);
        })
    };
    let traced = |s: &mut Searcher<T>, t: &crate::grammar::Tree| s.run_recorded(t, prop);
    super::deepen_for(&step, &trace, &traced, threads, budget)
}

impl Parallel {
    /// [`crate::search::test_for`] on `threads` threads: iterative deepening within a
    /// time budget, printing one line per bound; the counterexample is the
    /// one the sequential search finds.
    ///
    /// ```
    /// use neatcheck::search::Parallel;
    /// use neatcheck::Lazy;
    /// use std::time::Duration;
    ///
    /// // "Every list of naturals sums to less than 5" is false.
    /// let prop = |xs: Lazy<Vec<u8>>| xs.iter().map(|x| x.get() as u32).sum::<u32>() < 5;
    /// let c = Parallel::new(2).test_for(prop, Duration::from_secs(10)).unwrap();
    /// assert_eq!(c.value, vec![5]);
    /// ```
    pub fn test_for<T, O, P>(
        &self,
        prop: P,
        budget: std::time::Duration,
    ) -> Option<Counterexample<T>>
    where
        T: Enumerable + Send + std::fmt::Debug,
        O: Outcome,
        P: Fn(Lazy<'_, T>) -> O + Sync,
    {
        deepen_on(&prop, self.threads, budget)
    }
}

//! The portfolio of the exhaustive phase: a depth-bounded search (Lazy
//! SmallCheck's order, depth 0, 1, 2, ...) interleaved with the size-bounded
//! one, so that a bug that needs a long input of small parts is met as early
//! as depth-bounded search meets it, while the size order still proves
//! which counterexample is smallest. The rules are in
//! `docs/spec.md#portfolio`.
//!
//! The budgets are counted in runs, never in time, so the verdict is the
//! same on any machine. Every [`SLICE`] runs of the size order, the depth
//! order catches up to `sqrt(SHARE * n)` runs in all, `n` being the size
//! order's runs so far: early on the two orders get comparable budgets
//! (the depth order's wins come within a few thousand runs), and the depth
//! order's share then shrinks (a fifth of the runs at 6 000, 4% at 160 000,
//! 1.6% at a million), so that a property it does not help costs little
//! more than without it. The depth order stops at its first
//! counterexample; the size order goes on with its own budget, and its
//! first counterexample, when it reaches one, is what the check reports
//! (the same one as without the portfolio).

use super::driver::{describe, Subject, Tally};
use crate::engine::{bound_in_searcher, BoundResult, Budget, ClockEvery, Searcher};
use crate::grammar::Tree;
use crate::outcome::Counterexample;
use crate::Enumerable;
use std::time::Instant;

/// Runs of the size order between two slices of the depth order.
pub(crate) const SLICE: u64 = 1024;

/// The depth order may have made `sqrt(SHARE * n)` runs when the size order
/// has made `n`.
pub(crate) const SHARE: u64 = 256;

/// The depth order's runs allowed after `size_runs` runs of the size order.
fn depth_allowance(size_runs: u64) -> u64 {
    SHARE.saturating_mul(size_runs).isqrt()
}

/// A counterexample of the depth order, with the value as a tree (for
/// shrinking) and the depth it was found at.
pub(crate) struct DepthFound<T> {
    pub(crate) counterexample: Counterexample<T>,
    pub(crate) tree: Tree,
    pub(crate) depth: usize,
}

/// The depth order: depth bounds `0, 1, 2, ...` up to `last`, each a
/// search of its own, stepped a slice at a time.
pub(crate) struct DepthOrder<T> {
    searcher: Option<Searcher<T>>,
    depth: usize,
    last: usize,
    /// Runs over all depths.
    pub(crate) runs: u64,
    /// The largest depth searched completely.
    pub(crate) exhausted: Option<usize>,
    pub(crate) found: Option<DepthFound<T>>,
    /// Size-order runs since the last slice.
    credit: u64,
    /// Size-order runs in all.
    size_runs: u64,
}

impl<T: Enumerable> DepthOrder<T> {
    /// The depth order up to depth `last` (the value's depth is at most its
    /// size, so depths past the size bound add nothing the size order's
    /// bound allows).
    pub(crate) fn new(last: usize) -> Self {
        DepthOrder {
            searcher: None,
            depth: 0,
            last,
            runs: 0,
            exhausted: None,
            found: None,
            credit: 0,
            size_runs: 0,
        }
    }

    /// Whether the depth order has nothing left to do.
    pub(crate) fn done(&self) -> bool {
        self.found.is_some() || self.depth > self.last
    }

    /// Size-order runs left before the next slice.
    pub(crate) fn runs_to_slice(&self) -> u64 {
        SLICE - self.credit
    }

    /// Counts `runs` runs of the size order, and runs the slices they earn.
    pub(crate) fn credit(&mut self, subject: &Subject<'_, T>, runs: u64) {
        self.credit += runs;
        self.size_runs += runs;
        if self.credit >= SLICE {
            self.credit %= SLICE;
            let due = depth_allowance(self.size_runs).saturating_sub(self.runs);
            self.slice(subject, due);
        }
    }

    /// Makes up to `runs` runs of the depth order.
    fn slice(&mut self, subject: &Subject<'_, T>, mut runs: u64) {
        while runs > 0 && !self.done() {
            let depth = self.depth;
            let s = self.searcher.get_or_insert_with(|| {
                let mut s = Searcher::by_depth(subject.source.grammar(), depth);
                if let Some(dog) = subject.watchdog {
                    s.watch(dog.slot());
                }
                s
            });
            let before = s.stats().runs;
            let budget = Budget {
                deadline: None,
                max_runs: Some(before + runs),
            };
            let result = bound_in_searcher(
                s,
                &mut |s| (subject.step)(s),
                &mut |s, r| {
                    let runs = s.stats().runs;
                    describe(s, subject, r, runs)
                },
                budget,
                ClockEvery::Runs64,
                &mut Tally::default(),
            );
            let made = s.stats().runs - before;
            self.runs += made;
            runs -= made;
            match result {
                BoundResult::Passed(_) => {
                    self.exhausted = Some(depth);
                    self.depth += 1;
                    self.searcher = None;
                }
                BoundResult::Failed(c) => {
                    let tree = s.tree();
                    self.found = Some(DepthFound {
                        counterexample: c,
                        tree,
                        depth,
                    });
                    self.searcher = None;
                }
                BoundResult::OutOfBudget(_) => {}
            }
        }
    }
}

/// One bound of the size order on one thread, paused every
/// [`DepthOrder::runs_to_slice`] runs for a slice of the depth order: the
/// same runs, result and tally as without the pauses.
pub(crate) fn bound_with_depth_order<T: Enumerable>(
    subject: &Subject<'_, T>,
    depth_order: &mut DepthOrder<T>,
    bound: usize,
    budget: u64,
    deadline: Option<Instant>,
) -> (BoundResult<T>, Tally) {
    let mut s = subject.searcher(bound);
    let mut tally = Tally::default();
    loop {
        let before = s.stats().runs;
        let pause = before.saturating_add(depth_order.runs_to_slice());
        let result = bound_in_searcher(
            &mut s,
            &mut |s| (subject.step)(s),
            &mut |s, r| {
                let runs = s.stats().runs;
                describe(s, subject, r, runs)
            },
            Budget {
                deadline,
                max_runs: Some(pause.min(budget)),
            },
            ClockEvery::Run,
            &mut tally,
        );
        let made = s.stats().runs - before;
        let paused =
            matches!(result, BoundResult::OutOfBudget(runs) if runs == pause && runs < budget);
        // A failure is reported before the depth order runs again.
        if !matches!(result, BoundResult::Failed(_)) {
            depth_order.credit(subject, made);
        }
        if !paused {
            return (result, tally);
        }
    }
}

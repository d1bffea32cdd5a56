//! The portfolio of the exhaustive phase: a depth-bounded search (Lazy
//! SmallCheck's order, depth 0, 1, 2, ...) interleaved with the size-bounded
//! one, so that a bug that needs a long input of small parts is met as early
//! as depth-bounded search meets it, while the size order still proves
//! which counterexample is smallest. The rules are in
//! `docs/spec.md#portfolio`.
//!
//! The budgets are counted in runs, never in time, so the verdict is the
//! same on any machine. Every [`SLICE`] runs of the size order (every 64
//! in its first 1 024), the depth order catches up to its allowance: as
//! many runs as the size order's `n` up to [`EVEN_UNTIL`] runs, then
//! `sqrt(EVEN_UNTIL * n)`. While the search is young the two orders share
//! the runs evenly, so the first counterexample comes within twice the
//! runs of the order that meets it first (Lazy SmallCheck's order wins on
//! long inputs of small parts, and those bugs come within tens of
//! thousands of runs); later the depth order's share shrinks (a third at
//! 100 000 runs, 11% at a million), so that a property it does not help
//! costs little more than without it. The depth order stops at its first
//! counterexample; the size order goes on with its own budget, and its
//! first counterexample, when it reaches one, is what the check reports
//! (the same one as without the portfolio).

use super::driver::{failure_record, BoundEvent, RunCounts, Subject};
use crate::engine::{bound_in_searcher, BoundResult, Budget, ClockEvery, Searcher};
use crate::grammar::Tree;
use crate::record::Counterexample;
use crate::Enumerable;
use std::time::Instant;

/// Runs of the size order between two slices of the depth order.
pub(crate) const SLICE: u64 = 1024;

/// Runs between two slices while the size order has made fewer than
/// [`SLICE`]: the depth order's early wins (a few hundred runs) then wait
/// for 64 runs of the size order rather than 1 024.
const FIRST_SLICES: u64 = 64;

/// The slice length after `size_runs` runs of the size order.
fn slice_after(size_runs: u64) -> u64 {
    if size_runs < SLICE {
        FIRST_SLICES
    } else {
        SLICE
    }
}

/// The depth order may have made as many runs as the size order until the
/// size order has made this many, and `sqrt(EVEN_UNTIL * n)` after `n`.
/// Measured by `tools/src/bin/first_ctrex.rs`: the depth order's wins there
/// need a few hundred to 20 000 runs of its own, and a million runs of the
/// size order (the deep profile) pay 128 000 more.
pub(crate) const EVEN_UNTIL: u64 = 16_384;

/// The depth order's runs allowed after `size_runs` runs of the size order.
fn depth_allowance(size_runs: u64) -> u64 {
    if size_runs <= EVEN_UNTIL {
        size_runs
    } else {
        EVEN_UNTIL.saturating_mul(size_runs).isqrt()
    }
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
    /// Whether `found` was announced.
    announced: bool,
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
            announced: false,
        }
    }

    /// Whether the depth order has nothing left to do.
    pub(crate) fn done(&self) -> bool {
        self.found.is_some() || self.depth > self.last
    }

    /// Size-order runs left before the next slice.
    pub(crate) fn runs_to_slice(&self) -> u64 {
        slice_after(self.size_runs)
            .saturating_sub(self.credit)
            .max(1)
    }

    /// Counts `runs` runs of the size order, and runs the slices they earn.
    pub(crate) fn credit(&mut self, subject: &Subject<'_, T>, runs: u64) {
        let slice = slice_after(self.size_runs);
        self.credit += runs;
        self.size_runs += runs;
        if self.credit >= slice {
            self.credit %= slice;
            let due = depth_allowance(self.size_runs).saturating_sub(self.runs);
            self.slice(subject, due);
        }
    }

    /// Announces the depth order's counterexample the first time it is
    /// seen: to the driver's observer (`search::test_for` prints it) and,
    /// when `verbose`, on standard error.
    pub(crate) fn announce_once(&mut self, verbose: bool, observe: &mut dyn FnMut(BoundEvent<'_>)) {
        let Some(f) = self.found.as_ref().filter(|_| !self.announced) else {
            return;
        };
        self.announced = true;
        let c = &f.counterexample;
        observe(BoundEvent::DepthFound {
            depth: f.depth,
            runs: c.runs,
            size: c.size,
            pattern: &c.pattern,
        });
        if verbose {
            eprintln!(
                "neatcheck: the depth-bounded search found a counterexample of size {} at depth \
                 {} (after {} runs): {}; searching the smaller sizes",
                c.size, f.depth, c.runs, c.pattern
            );
        }
    }

    /// Gives the depth order the rest of its allowance for the size order's
    /// runs so far, whatever the slices left: where the size order stopped
    /// without a counterexample, so that what the depth order found does
    /// not depend on when the slices fell (between bounds with several
    /// threads, every [`SLICE`] runs with one).
    pub(crate) fn top_up(&mut self, subject: &Subject<'_, T>) {
        let due = depth_allowance(self.size_runs).saturating_sub(self.runs);
        self.credit = 0;
        self.slice(subject, due);
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
                    failure_record(s, subject.trace, r, runs)
                },
                budget,
                ClockEvery::Runs64,
                &mut RunCounts::default(),
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
/// same runs, result and tally as without the pauses. `on_found` is called
/// after each slice (to announce a counterexample of the depth order at
/// once).
pub(crate) fn bound_with_depth_order<T: Enumerable>(
    subject: &Subject<'_, T>,
    depth_order: &mut DepthOrder<T>,
    bound: usize,
    budget: u64,
    deadline: Option<Instant>,
    on_found: &mut dyn FnMut(&mut DepthOrder<T>),
) -> (BoundResult<T>, RunCounts) {
    let mut s = subject.searcher(bound);
    let mut tally = RunCounts::default();
    loop {
        let before = s.stats().runs;
        let pause = before.saturating_add(depth_order.runs_to_slice());
        let result = bound_in_searcher(
            &mut s,
            &mut |s| (subject.step)(s),
            &mut |s, r| {
                let runs = s.stats().runs;
                failure_record(s, subject.trace, r, runs)
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
            on_found(depth_order);
        }
        if !paused {
            return (result, tally);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::depth_allowance;
    use crate::check::{Config, Found};
    use crate::handle::Lazy;
    use proptest::prelude::*;

    /// A property over lists of small numbers, as data: it fails when the
    /// list has at least `len` elements and the condition holds of them.
    #[derive(Clone, Debug)]
    enum Cond {
        /// Pairwise distinct.
        Distinct,
        /// No element is `0`.
        NonZero,
        /// Some element is at least this.
        SomeAtLeast(u8),
        /// The sum is at least this.
        SumAtLeast(u32),
        /// Strictly increasing.
        Increasing,
    }

    impl Cond {
        fn holds(&self, v: &[u8]) -> bool {
            match self {
                Cond::Distinct => (1..v.len()).all(|i| !v[..i].contains(&v[i])),
                Cond::NonZero => v.iter().all(|&x| x != 0),
                Cond::SomeAtLeast(k) => v.iter().any(|x| x >= k),
                Cond::SumAtLeast(k) => v.iter().map(|&x| u32::from(x)).sum::<u32>() >= *k,
                Cond::Increasing => v.windows(2).all(|w| w[0] < w[1]),
            }
        }
    }

    fn cond() -> impl Strategy<Value = Cond> {
        prop_oneof![
            Just(Cond::Distinct),
            Just(Cond::NonZero),
            (1u8..12).prop_map(Cond::SomeAtLeast),
            (1u32..20).prop_map(Cond::SumAtLeast),
            Just(Cond::Increasing),
        ]
    }

    /// The property: lazy in the length, then reads every element.
    fn property(len: usize, c: &Cond) -> impl Fn(Lazy<'_, Vec<u8>>) -> bool + Sync + '_ {
        move |xs| {
            xs.iter().take(len).count() < len || {
                let v: Vec<u8> = xs.iter().map(|x| x.get()).collect();
                !c.holds(&v)
            }
        }
    }

    fn config(runs: u64, portfolio: bool) -> Config {
        Config::default()
            .runs(runs)
            .samples(0, 0)
            .regressions(false)
            .run_timeout(None)
            .portfolio(portfolio)
    }

    /// The depth order's counterexample is announced as soon as it is
    /// found, before the size order's; then the size order reports the
    /// smallest one, as it does alone.
    #[test]
    fn the_depth_orders_counterexample_is_announced_first() {
        use crate::check::driver::{drive, BoundEvent, Origin, Subject};
        use crate::engine::{GrammarSource, Searcher};
        let c = Cond::Distinct;
        let prop = property(5, &c);
        let step = |s: &mut Searcher<Vec<u8>>| s.step(&prop);
        let trace = |s: &mut Searcher<Vec<u8>>| s.pattern(&prop);
        let traced = |s: &mut Searcher<Vec<u8>>, t: &crate::grammar::Tree| s.run_recorded(t, &prop);
        let subject = Subject {
            step: &step,
            trace: &trace,
            traced: &traced,
            watchdog: None,
            source: &GrammarSource::Canonical,
            threads: None,
        };
        let mut events: Vec<String> = vec![];
        let mut observe = |e: BoundEvent<'_>| match e {
            BoundEvent::DepthFound { size, .. } => events.push(format!("depth {size}")),
            BoundEvent::Failed { bound, .. } => events.push(format!("size {bound}")),
            BoundEvent::Passed { .. } | BoundEvent::Cut { .. } => {}
        };
        let f = drive(
            &config(u64::MAX, true).settings,
            &subject,
            &Origin::default(),
            &mut observe,
        )
        .expect_err("five distinct numbers");
        let alone = config(u64::MAX, false).try_check(&prop).expect_err("found");
        assert_eq!(
            (&f.value, f.size, &f.found),
            (&alone.value, alone.size, &alone.found)
        );
        assert_eq!(events.len(), 2, "{events:?}");
        assert!(events[0].starts_with("depth "), "{events:?}");
        let depth_size: u64 = events[0][6..].parse().unwrap();
        assert!(depth_size >= f.size);
        assert_eq!(events[1], format!("size {}", f.size));
    }

    /// While the search is young the depth order gets as many runs as the
    /// size order: six distinct numbers (about 2 700 runs by depth, 1.5
    /// million by size) are met within 8 000 runs by size, where a share
    /// of `sqrt(256 n)` (1 431 runs) did not reach them.
    #[test]
    fn an_even_share_meets_a_long_shallow_bug_early() {
        let prop = property(6, &Cond::Distinct);
        let c = config(8_000, true).try_check(&prop).unwrap_err();
        assert!(matches!(c.found, Found::Depth { .. }), "{:?}", c.found);
        assert_eq!(c.value.len(), 6);
        assert!(Cond::Distinct.holds(&c.value));
        assert!(c.summary.depth_runs <= 8_000, "{}", c.summary.depth_runs);
        assert!(!c.is_minimal());
        assert!(config(8_000, false).try_check(&prop).is_ok());
    }

    #[test]
    fn the_depth_order_shares_evenly_and_then_less() {
        assert_eq!(depth_allowance(0), 0);
        assert_eq!(depth_allowance(1024), 1024);
        assert_eq!(depth_allowance(16_384), 16_384);
        assert_eq!(depth_allowance(65_536), 32_768);
        assert_eq!(depth_allowance(1_000_000), 128_000);
        assert!(depth_allowance(u64::MAX) > 0);
        // Never less after more runs of the size order.
        let mut last = 0;
        for n in (0..200_000).step_by(997) {
            assert!(depth_allowance(n) >= last);
            last = depth_allowance(n);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// With a budget that reaches it, the portfolio reports what the
        /// size order alone reports: the same value, size, runs and
        /// coverage, minimal; its depth order ran, within its allowance.
        #[test]
        fn within_the_budget_the_report_is_the_size_orders(c in cond(), len in 1usize..5) {
            let prop = property(len, &c);
            let alone = config(u64::MAX, false).try_check(&prop).map(|s| s.runs);
            let both = config(u64::MAX, true).try_check(&prop);
            match (alone, both) {
                (Ok(_), Ok(_)) => unreachable!("every property here fails"),
                (Err(a), Err(b)) => {
                    prop_assert_eq!(&a.value, &b.value);
                    prop_assert_eq!((a.size, a.runs, &a.found), (b.size, b.runs, &b.found));
                    prop_assert_eq!(a.summary.runs, b.summary.runs);
                    prop_assert_eq!(a.summary.depth_runs, 0);
                    prop_assert!(b.summary.depth_runs <= depth_allowance(b.summary.runs));
                    prop_assert!(b.is_minimal());
                }
                (a, b) => prop_assert!(false, "{a:?} / {b:?}"),
            }
        }

        /// With a budget too small for the size order, the portfolio's
        /// counterexample is a real one; it is size-minimal exactly when
        /// the report says so, and then the size order's own.
        #[test]
        fn past_the_budget_the_depth_orders_counterexample_is_real(
            c in cond(),
            len in 3usize..6,
            runs in 2_000u64..20_000,
        ) {
            let prop = property(len, &c);
            let smallest = config(u64::MAX, false).try_check(&prop)
                .expect_err("every property here fails");
            match config(runs, true).try_check(&prop) {
                Ok(summary) => prop_assert!(summary.depth_runs > 0),
                Err(f) => {
                    // The property fails on it.
                    prop_assert!(f.value.len() >= len && c.holds(&f.value), "{:?}", f.value);
                    prop_assert!(f.size >= smallest.size);
                    match f.found {
                        Found::Exhaustive => prop_assert_eq!(&f.value, &smallest.value),
                        Found::Depth { passed_up_to, found_size, .. } => {
                            prop_assert!(found_size >= f.size);
                            // Within the check's budget, confirmation included.
                            prop_assert!(f.summary.runs <= runs);
                            prop_assert!(passed_up_to.is_none_or(|p| (p as u64) < smallest.size));
                            if f.is_minimal() {
                                prop_assert_eq!(f.size, smallest.size);
                            }
                        }
                        other => prop_assert!(false, "found by {other:?}"),
                    }
                }
            }
        }
    }

    #[test]
    fn six_distinct_numbers_are_found_by_depth_within_a_small_budget() {
        let c = Cond::Distinct;
        let prop = property(6, &c);
        let f = config(50_000, true)
            .try_check(&prop)
            .expect_err("the depth order finds it");
        assert!(matches!(f.found, Found::Depth { .. }), "{:?}", f.found);
        assert!(f.value.len() == 6 && c.holds(&f.value), "{:?}", f.value);
        assert!(!f.is_minimal(), "50 000 runs do not reach size 18");
        // The size order spent the budget: the shrunk counterexample is
        // reported without a second budget for the sizes below it.
        assert_eq!(f.summary.runs, 50_000);
        assert_eq!(f.summary.confirm_runs, 0);
        let report = f.report();
        assert!(
            report.contains("found by the depth-bounded search (depth "),
            "{report}"
        );
        let exhausted = f.summary.exhausted.expect("small sizes pass");
        assert!(
            report.contains(&format!(
                "size-minimal: not proven (the budget ran out at size {}",
                exhausted + 1
            )),
            "{report}"
        );
        assert!(report.contains("; depth-bounded search: "), "{report}");
        assert!(config(50_000, false).try_check(&prop).is_ok());
        // Threads change neither the size order's runs nor the depth order's.
        let two = config(50_000, true)
            .threads(2)
            .try_check(&prop)
            .expect_err("found");
        assert_eq!(
            (two.value, two.summary.runs, two.summary.depth_runs),
            (f.value, f.summary.runs, f.summary.depth_runs)
        );
    }
}

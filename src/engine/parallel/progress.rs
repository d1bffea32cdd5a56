//! Which units of a parallel search are complete, and their runs: what
//! turns a worker's place in its unit into a place in sequential order.

use std::collections::BTreeMap;

/// Which units are complete, and their runs: the run count of the first
/// counterexample needs the runs of every unit before it, and exact budgets
/// need the position where each unit starts. Units complete roughly in
/// order, so everything below the first incomplete unit is one sum, and
/// only the few completed above it are kept one by one: memory does not
/// grow with the number of units.
#[derive(Default, Debug)]
pub(super) struct Progress {
    /// Units `0..complete_below` are complete ...
    complete_below: u64,
    /// ... with this many runs.
    runs_below: u64,
    /// Complete units above the first incomplete one: unit -> runs.
    above: BTreeMap<u64, u64>,
}

impl Progress {
    /// Records unit `unit` as complete, with `runs` runs.
    pub(super) fn complete(&mut self, unit: u64, runs: u64) {
        if unit != self.complete_below {
            self.above.insert(unit, runs);
            return;
        }
        self.complete_below += 1;
        self.runs_below += runs;
        while let Some(r) = self.above.remove(&self.complete_below) {
            self.complete_below += 1;
            self.runs_below += r;
        }
    }

    /// The runs of units `0..unit`, if they are all complete.
    pub(super) fn runs_before(&self, unit: u64) -> Option<u64> {
        if unit <= self.complete_below {
            // Only reached for the unit of the earliest stop, which is
            // never complete, or a top node before it: `unit` is at most
            // the first incomplete unit.
            return (unit == self.complete_below).then_some(self.runs_below);
        }
        let mut runs = self.runs_below;
        for u in self.complete_below..unit {
            runs += self.above.get(&u)?;
        }
        Some(runs)
    }

    /// A lower bound of the runs of units `0..unit` (that exist): one per
    /// unit not known to be complete; exact when they all are.
    pub(super) fn runs_before_at_least(&self, unit: u64) -> u64 {
        if unit < self.complete_below {
            // The sum below cannot be split: one run per unit.
            return unit;
        }
        let extra: u64 = self
            .above
            .range(self.complete_below..unit)
            .map(|(_, r)| r - 1)
            .sum();
        self.runs_below + (unit - self.complete_below) + extra
    }
}

#[cfg(test)]
mod tests {
    use super::Progress;

    #[test]
    fn progress_bounds_the_runs_of_units_not_yet_complete() {
        let mut p = Progress::default();
        assert_eq!(p.runs_before_at_least(3), 3, "one run per unit");
        p.complete(1, 10);
        p.complete(3, 1000);
        // Unit 0 and 2 unknown: one run each.
        assert_eq!(p.runs_before_at_least(1), 1);
        assert_eq!(p.runs_before_at_least(2), 1 + 10);
        assert_eq!(p.runs_before_at_least(4), 1 + 10 + 1 + 1000);
        p.complete(0, 5);
        assert_eq!(p.runs_before_at_least(2), 15, "exact: all complete");
        assert_eq!(p.runs_before(2), Some(15));
        // Below the first incomplete unit the sum cannot be split.
        assert_eq!(p.runs_before_at_least(1), 1);
    }

    #[test]
    fn progress_sums_the_units_before_one_whatever_the_order_they_end_in() {
        let mut p = Progress::default();
        // Units 1, 3 and 4 end before 0 and 2.
        p.complete(1, 10);
        p.complete(3, 1000);
        p.complete(4, 10000);
        assert_eq!(p.runs_before(0), Some(0));
        assert_eq!(p.runs_before(2), None, "unit 0 is not complete");
        p.complete(0, 1);
        assert_eq!((p.complete_below, p.runs_below), (2, 11));
        assert_eq!(p.runs_before(2), Some(11));
        assert_eq!(p.runs_before(3), None, "unit 2 is not complete");
        assert_eq!(p.above.len(), 2);
        p.complete(2, 100);
        assert_eq!((p.complete_below, p.runs_below), (5, 11111));
        assert!(p.above.is_empty(), "everything merged into the sum");
        assert_eq!(p.runs_before(5), Some(11111));
        p.complete(7, 7);
        assert_eq!(p.runs_before(7), None);
        p.complete(5, 5);
        p.complete(6, 6);
        assert_eq!(p.runs_before(8), Some(11111 + 5 + 6 + 7));
    }

    #[test]
    fn progress_counts_units_above_the_first_incomplete_one() {
        let mut p = Progress::default();
        p.complete(0, 1);
        p.complete(2, 100);
        p.complete(3, 1000);
        // Unit 1 in progress: nothing from 4 on is known yet.
        assert_eq!(p.runs_before(1), Some(1));
        assert_eq!(p.runs_before(4), None);
        p.complete(1, 10);
        assert_eq!(p.runs_before(4), Some(1111));
    }
}

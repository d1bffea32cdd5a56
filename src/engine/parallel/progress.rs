//! The ledger of a parallel search's units: which parts of the search tree
//! exist, which wait for a worker, which are explored and their runs. It
//! turns a worker's place in its unit into a place in sequential order.

use std::collections::{BTreeMap, BTreeSet};

/// A path in the search tree: for each ancestor from the root, which of its
/// children leads to the node, in search order. The sequential (DFS
/// pre-)order of nodes is the lexicographic order of their paths.
pub(super) type Path = Vec<u32>;

/// A part of the search tree a worker explores: the subtrees of children
/// `from..to` (in search order) of the node at `parent`, or the whole tree.
/// Units are intervals of the sequential order: a worker gives away only
/// the last part of what it has left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Unit {
    /// The parent of the unit's subtrees; `None`: the unit is the whole tree.
    pub(super) parent: Option<Path>,
    /// The first child of the parent in the unit.
    pub(super) from: u32,
    /// The first child of the parent after the unit.
    pub(super) to: u32,
}

impl Unit {
    /// The whole search tree.
    pub(super) fn whole() -> Self {
        Unit {
            parent: None,
            from: 0,
            to: 1,
        }
    }

    /// The path of the unit's first node (its key in sequential order).
    pub(super) fn key(&self) -> Path {
        match &self.parent {
            None => vec![],
            Some(p) => {
                let mut key = p.clone();
                key.push(self.from);
                key
            }
        }
    }
}

/// Where a unit is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// No worker has it yet.
    Waiting,
    /// A worker explores it.
    Taken,
    /// Explored fully.
    Complete,
    /// Left unfinished (a stop before it, the deadline).
    Dropped,
}

/// One unit's entry.
#[derive(Debug)]
struct Entry {
    /// What it is (kept for handing it out).
    unit: Unit,
    state: State,
    /// Its runs: final once complete, a lower bound reported by its worker
    /// while taken.
    runs: u64,
}

/// Every unit of one bound, by key. The units partition the search tree:
/// the whole tree at first, then every unit given away is cut from the end
/// of the unit its worker explores. Complete units before the first
/// incomplete one are folded into one sum, so memory follows the units in
/// flight, not all units ever made.
#[derive(Debug)]
pub(super) struct Ledger {
    units: BTreeMap<Path, Entry>,
    /// Runs of the complete units before every unit in `units`.
    folded_runs: u64,
    /// The keys of the units waiting for a worker.
    waiting: BTreeSet<Path>,
    /// Units taken and not yet complete or dropped.
    taken: usize,
}

impl Ledger {
    /// One unit: the whole tree, waiting.
    pub(super) fn new() -> Self {
        let mut ledger = Ledger {
            units: BTreeMap::new(),
            folded_runs: 0,
            waiting: BTreeSet::new(),
            taken: 0,
        };
        ledger.add(Unit::whole());
        ledger
    }

    /// Adds a unit given away (waiting).
    pub(super) fn add(&mut self, unit: Unit) {
        self.waiting.insert(unit.key());
        let old = self.units.insert(
            unit.key(),
            Entry {
                unit,
                state: State::Waiting,
                runs: 0,
            },
        );
        debug_assert!(old.is_none(), "units never overlap");
    }

    /// Units waiting for a worker.
    pub(super) fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// Units being explored.
    pub(super) fn taken(&self) -> usize {
        self.taken
    }

    /// Takes the waiting unit whose key is before `before` (if given) that
    /// costs least to reach (`cost`), the first in sequential order among
    /// equals: its key and the unit.
    pub(super) fn take_cheapest(
        &mut self,
        before: Option<&Path>,
        cost: impl Fn(&Unit) -> usize,
    ) -> Option<(Path, Unit)> {
        let key = self
            .waiting
            .iter()
            .take_while(|k| before.is_none_or(|b| *k < b))
            .min_by_key(|k| cost(&self.units[*k].unit))?
            .clone();
        self.waiting.remove(&key);
        let entry = self.units.get_mut(&key).expect("a unit waits");
        entry.state = State::Taken;
        self.taken += 1;
        Some((key, entry.unit.clone()))
    }

    /// Reports that taken unit `key` has made at least `runs` runs.
    pub(super) fn report(&mut self, key: &Path, runs: u64) {
        if let Some(e) = self.units.get_mut(key) {
            e.runs = e.runs.max(runs);
        }
    }

    /// Records taken unit `key` as explored fully, with `runs` runs.
    pub(super) fn complete(&mut self, key: &Path, runs: u64) {
        self.finish(key, State::Complete, runs);
        // Fold the complete units at the front.
        while let Some(e) = self.units.first_entry() {
            if e.get().state != State::Complete {
                break;
            }
            self.folded_runs += e.remove().runs;
        }
    }

    /// Records taken unit `key` as left unfinished after `runs` runs.
    pub(super) fn drop_unit(&mut self, key: &Path, runs: u64) {
        self.finish(key, State::Dropped, runs);
    }

    fn finish(&mut self, key: &Path, state: State, runs: u64) {
        let e = self.units.get_mut(key).expect("a unit taken");
        debug_assert_eq!(e.state, State::Taken);
        e.state = state;
        e.runs = runs;
        self.taken -= 1;
    }

    /// The runs of the units before key `key` in sequential order, if they
    /// are all complete.
    pub(super) fn runs_before(&self, key: &Path) -> Option<u64> {
        let mut runs = self.folded_runs;
        for (_, e) in self.units.range::<Path, _>(..key) {
            if e.state != State::Complete {
                return None;
            }
            runs += e.runs;
        }
        Some(runs)
    }

    /// A lower bound of the runs of the units before key `key`: exact for
    /// the complete ones, the runs reported so far (at least
    /// `min_unit_runs`: every unit has a node, a run unless the search is
    /// one shard's) for the others.
    pub(super) fn runs_before_at_least(&self, key: &Path, min_unit_runs: u64) -> u64 {
        self.folded_runs
            + self
                .units
                .range::<Path, _>(..key)
                .map(|(_, e)| match e.state {
                    State::Complete => e.runs,
                    _ => e.runs.max(min_unit_runs),
                })
                .sum::<u64>()
    }
}

#[cfg(test)]
mod tests {
    use super::{Ledger, Unit};

    fn unit(parent: &[u32], from: u32, to: u32) -> Unit {
        Unit {
            parent: Some(parent.to_vec()),
            from,
            to,
        }
    }

    #[test]
    fn keys_are_the_paths_of_first_nodes_in_sequential_order() {
        assert_eq!(Unit::whole().key(), Vec::<u32>::new());
        assert_eq!(unit(&[2, 0], 3, 5).key(), vec![2, 0, 3]);
        // A node comes before its subtree, which comes before its later
        // siblings.
        assert!(Vec::<u32>::new() < vec![0]);
        assert!(vec![0] < vec![0, 7] && vec![0, 7] < vec![1]);
    }

    #[test]
    fn units_are_handed_out_first_in_sequential_order() {
        let mut l = Ledger::new();
        let (root, whole) = l.take_cheapest(None, |_| 0).expect("the whole tree waits");
        assert_eq!(whole, Unit::whole());
        assert!(l.take_cheapest(None, |_| 0).is_none());
        // The worker of the whole tree gives away two parts, the later first.
        l.add(unit(&[], 3, 5));
        l.add(unit(&[1], 2, 4));
        assert_eq!(l.waiting(), 2);
        assert!(
            l.take_cheapest(Some(&vec![1, 0]), |_| 0).is_none(),
            "none before [1, 0]"
        );
        let (key, u) = l.take_cheapest(None, |_| 0).unwrap();
        assert_eq!((key, u), (vec![1, 2], unit(&[1], 2, 4)));
        assert_eq!((l.waiting(), l.taken()), (1, 2));
        // Runs before a unit: exact once every earlier unit is complete.
        l.report(&root, 10);
        assert_eq!(l.runs_before_at_least(&vec![3], 1), 10 + 1);
        assert_eq!(l.runs_before(&vec![3]), None);
        l.complete(&vec![1, 2], 7);
        assert_eq!(
            l.runs_before(&vec![3]),
            None,
            "the whole tree's unit is not"
        );
        l.complete(&root, 12);
        assert_eq!(l.runs_before(&vec![3]), Some(19));
        assert_eq!(l.runs_before_at_least(&vec![3], 1), 19);
        assert_eq!(l.units.len(), 1, "complete units at the front are folded");
        let (key, _) = l.take_cheapest(None, |_| 0).unwrap();
        l.drop_unit(&key, 3);
        assert_eq!(
            l.runs_before(&vec![9]),
            None,
            "a dropped unit is not complete"
        );
        assert_eq!(l.runs_before_at_least(&vec![9], 1), 19 + 3);
    }

    #[test]
    fn the_unit_cheapest_to_reach_is_taken_first_among_equals_the_earliest() {
        let mut l = Ledger::new();
        let (root, _) = l.take_cheapest(None, |_| 0).unwrap();
        for from in [7, 5, 3] {
            l.add(unit(&[], from, from + 1));
        }
        l.add(unit(&[2], 0, 1));
        // Cost: far from child 5 of the root.
        let cost = |u: &Unit| u.from.abs_diff(5) as usize;
        assert_eq!(l.take_cheapest(None, cost).unwrap().0, vec![5]);
        // Children 3 and 7 cost the same; [2, 0] costs more than [3].
        assert_eq!(l.take_cheapest(None, cost).unwrap().0, vec![3]);
        assert_eq!(l.take_cheapest(Some(&vec![7]), cost).unwrap().0, vec![2, 0]);
        assert!(
            l.take_cheapest(Some(&vec![7]), cost).is_none(),
            "[7] is not before [7]"
        );
        assert_eq!(l.take_cheapest(None, cost).unwrap().0, vec![7]);
        assert_eq!((l.waiting(), l.taken()), (0, 5));
        l.complete(&root, 1);
    }
}

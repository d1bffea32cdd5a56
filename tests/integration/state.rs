//! Stateful testing through the public API: the report of a failing
//! machine, its replay test (pasted below from the report, so it is known to
//! compile), replay keys, and threads.

use crate::common::panic_text;
use neatcheck::check::{Config, Found};
use neatcheck::state::{machine, parallel_machine, ConcurrentMachine, StateMachine};
use neatcheck::Enumerable;

/// A set of small numbers kept as a sorted vector; the planted bug: a
/// removal of the largest of several elements also removes the one below.
#[derive(Default, Debug)]
struct SortedSet(Vec<u8>);

impl SortedSet {
    fn insert(&mut self, x: u8) -> bool {
        match self.0.binary_search(&x) {
            Ok(_) => false,
            Err(i) => {
                self.0.insert(i, x);
                true
            }
        }
    }

    fn remove(&mut self, x: u8) -> bool {
        match self.0.binary_search(&x) {
            Ok(i) => {
                self.0.remove(i);
                if i == self.0.len() && i >= 1 {
                    self.0.pop();
                }
                true
            }
            Err(_) => false,
        }
    }

    fn contains(&self, x: u8) -> bool {
        self.0.binary_search(&x).is_ok()
    }
}

#[derive(Enumerable, Debug, Clone, PartialEq)]
enum SetOp {
    Insert(u8),
    Remove(u8),
    Contains(u8),
}

#[derive(Default)]
struct SetMachine;

impl StateMachine for SetMachine {
    type State = std::collections::BTreeSet<u8>;
    type Sut = SortedSet;
    type Command = SetOp;
    type Output = bool;

    fn initial_state(&self) -> Self::State {
        Self::State::new()
    }
    fn new_sut(&self) -> SortedSet {
        SortedSet::default()
    }
    fn run(&self, sut: &mut SortedSet, op: &SetOp) -> bool {
        match op {
            SetOp::Insert(x) => sut.insert(*x),
            SetOp::Remove(x) => sut.remove(*x),
            SetOp::Contains(x) => sut.contains(*x),
        }
    }
    fn next_state(&self, state: &mut Self::State, op: &SetOp) {
        match op {
            SetOp::Insert(x) => {
                state.insert(*x);
            }
            SetOp::Remove(x) => {
                state.remove(x);
            }
            SetOp::Contains(_) => {}
        }
    }
    fn postcondition(&self, before: &Self::State, op: &SetOp, out: &bool) -> Result<(), String> {
        let expected = match op {
            SetOp::Insert(x) => !before.contains(x),
            SetOp::Remove(x) | SetOp::Contains(x) => before.contains(x),
        };
        if *out == expected {
            Ok(())
        } else {
            Err(format!("expected {expected}"))
        }
    }
    fn invariant(&self, sut: &SortedSet, state: &Self::State) -> Result<(), String> {
        if sut.0.iter().eq(state.iter()) {
            Ok(())
        } else {
            Err(format!("the set holds {:?}", sut.0))
        }
    }
}

/// The report's replay test for the failing sequence, pasted as printed
/// (the report writes `default()` whatever the machine's shape).
#[allow(clippy::default_constructed_unit_structs)]
#[test]
#[should_panic]
fn set_machine_counterexample() {
    neatcheck::state::replay(
        &SetMachine::default(),
        vec![SetOp::Insert(0), SetOp::Insert(1), SetOp::Remove(1)],
    );
}

/// The text of the pasted test above, as the report prints it.
const PASTED: &str = "#[test]
#[should_panic]
fn set_machine_counterexample() {
    neatcheck::state::replay(
        &SetMachine::default(),
        vec![SetOp::Insert(0), SetOp::Insert(1), SetOp::Remove(1)],
    );
}";

#[test]
fn a_failing_machine_reports_its_shortest_sequence_step_by_step() {
    let report = panic_text(|| {
        Config::default()
            .regressions(false)
            .check(machine(&SetMachine));
    });
    assert!(
        report.contains("counterexample (size 9): [Insert(0), Insert(1), Remove(1)]"),
        "{report}"
    );
    assert!(
        report.contains("the property broke the invariant at step 3 (Remove(1)): the set holds []"),
        "{report}"
    );
    assert!(
        report.contains("    step 3: Remove(1) -> true; model: {0}"),
        "{report}"
    );
    assert!(
        report.contains("    failed: invariant: the set holds []"),
        "{report}"
    );
    assert!(
        report.contains("minimal: every smaller input passed"),
        "{report}"
    );
    let pasted: Vec<&str> = PASTED.lines().collect();
    let printed: Vec<&str> = report
        .lines()
        .skip_while(|l| !l.contains("a test that replays it"))
        .skip(1)
        .take(pasted.len())
        .map(|l| l.strip_prefix("    ").unwrap_or(l))
        .collect();
    assert_eq!(printed, pasted, "{report}");
}

#[test]
fn the_replay_key_runs_the_same_sequence() {
    let config = Config::default().regressions(false);
    let c = config.try_check(machine(&SetMachine)).unwrap_err();
    let replaying = config.replay(c.key.clone());
    let again = replaying.try_check(machine(&SetMachine)).unwrap_err();
    assert_eq!(again.value, c.value);
    assert!(
        matches!(again.found, Found::Replay { .. }),
        "{:?}",
        again.found
    );
}

#[test]
fn threads_find_the_same_sequence() {
    let config = Config::default().regressions(false);
    let one = config.try_check(machine(&SetMachine)).unwrap_err();
    let two = config
        .threads(2)
        .try_check(machine(&SetMachine))
        .unwrap_err();
    assert_eq!(one.value, two.value);
}

/// A counter whose increment reads the value, waits a millisecond with the
/// lock released (the planted race, wide enough to be met every time two
/// increments run at once), then writes it plus one.
#[derive(Default)]
struct RacyCounter {
    value: std::sync::Mutex<u32>,
    racy: bool,
}

impl RacyCounter {
    fn increment(&self) -> u32 {
        if self.racy {
            let read = *self.value.lock().unwrap();
            std::thread::sleep(std::time::Duration::from_millis(1));
            let mut v = self.value.lock().unwrap();
            *v = read + 1;
            *v
        } else {
            let mut v = self.value.lock().unwrap();
            *v += 1;
            *v
        }
    }
}

#[derive(Enumerable, Debug, Clone, PartialEq)]
enum CounterOp {
    Increment,
    Get,
}

struct CounterModel {
    racy: bool,
}

impl StateMachine for CounterModel {
    type State = u32;
    type Sut = RacyCounter;
    type Command = CounterOp;
    type Output = u32;

    fn initial_state(&self) -> u32 {
        0
    }
    fn new_sut(&self) -> RacyCounter {
        RacyCounter {
            racy: self.racy,
            ..RacyCounter::default()
        }
    }
    fn run(&self, sut: &mut RacyCounter, op: &CounterOp) -> u32 {
        self.run_shared(sut, op)
    }
    fn next_state(&self, state: &mut u32, op: &CounterOp) {
        *state += u32::from(*op == CounterOp::Increment);
    }
    fn postcondition(&self, before: &u32, op: &CounterOp, out: &u32) -> Result<(), String> {
        let expected = before + u32::from(*op == CounterOp::Increment);
        if *out == expected {
            Ok(())
        } else {
            Err(format!("expected {expected}"))
        }
    }
}

impl ConcurrentMachine for CounterModel {
    fn run_shared(&self, sut: &RacyCounter, op: &CounterOp) -> u32 {
        match op {
            CounterOp::Increment => sut.increment(),
            CounterOp::Get => *sut.value.lock().unwrap(),
        }
    }
}

#[test]
fn a_race_is_found_in_the_smallest_parallel_case() {
    let config = Config::default()
        .regressions(false)
        .runs(60)
        .samples(0, 0)
        .portfolio(false);
    let c = config
        .try_check(parallel_machine(&CounterModel { racy: true }))
        .unwrap_err();
    assert_eq!(
        c.value,
        (
            vec![],
            vec![CounterOp::Increment],
            vec![CounterOp::Increment]
        )
    );
    assert!(
        c.reason
            .as_deref()
            .is_some_and(|r| r.contains("no interleaving of the model explains the outputs")),
        "{:?}",
        c.reason
    );
    // Without the race every case is explained.
    let s = config
        .try_check(parallel_machine(&CounterModel { racy: false }))
        .expect("linearizable");
    assert!(s.runs > 0 && s.discarded < s.runs, "{s}");
}

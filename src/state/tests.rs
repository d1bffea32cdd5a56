//! The state machine checks against brute force over every command
//! sequence of the reference enumeration, with machines whose bug and
//! preconditions are drawn at random.

use super::*;
use crate::values::values_of;
use proptest::prelude::*;

/// A register's commands.
#[derive(crate::Enumerable, Debug, Clone, PartialEq)]
enum Op {
    Add(u8),
    Sub,
    Read,
}

/// A register machine whose system goes wrong in one chosen situation: a
/// `Read` when the value is `trigger` (the bug), with `Sub` allowed only
/// above `floor` (the precondition) and `Add` only of at most `max_add`.
#[derive(Debug, Clone, Copy)]
struct Register {
    trigger: u32,
    floor: u32,
    max_add: u8,
}

impl StateMachine for Register {
    type State = u32;
    type Sut = u32;
    type Command = Op;
    type Output = u32;

    fn initial_state(&self) -> u32 {
        0
    }
    fn new_sut(&self) -> u32 {
        0
    }
    fn precondition(&self, state: &u32, command: &Op) -> bool {
        match command {
            Op::Add(x) => *x <= self.max_add,
            Op::Sub => *state > self.floor,
            Op::Read => true,
        }
    }
    fn run(&self, sut: &mut u32, command: &Op) -> u32 {
        match command {
            Op::Add(x) => *sut += u32::from(*x),
            Op::Sub => *sut -= 1,
            Op::Read if *sut == self.trigger => return *sut + 1,
            Op::Read => {}
        }
        *sut
    }
    fn next_state(&self, state: &mut u32, command: &Op) {
        match command {
            Op::Add(x) => *state += u32::from(*x),
            Op::Sub => *state -= 1,
            Op::Read => {}
        }
    }
    fn postcondition(&self, before: &u32, command: &Op, output: &u32) -> Result<(), String> {
        let expected = match command {
            Op::Add(x) => before + u32::from(*x),
            Op::Sub => before - 1,
            Op::Read => *before,
        };
        if *output == expected {
            Ok(())
        } else {
            Err(format!("expected {expected}"))
        }
    }
}

/// What running a sequence says: it fails (at a step whose precondition
/// held), it is invalid (a precondition failed first), or it passes.
#[derive(Debug, PartialEq)]
enum Verdict {
    Fails,
    Invalid,
    Passes,
}

fn verdict<M: StateMachine>(m: &M, commands: &[M::Command]) -> Verdict {
    match run_steps(m, commands).failure {
        None => Verdict::Passes,
        Some(f) if f.starts_with("the precondition") => Verdict::Invalid,
        Some(_) => Verdict::Fails,
    }
}

/// The smallest size up to `max` with a failing sequence, by brute force.
fn smallest_failing<M: StateMachine>(m: &M, max: usize) -> Option<usize> {
    (0..=max).find(|&n| {
        values_of::<Vec<M::Command>>(n)
            .iter()
            .any(|seq| verdict(m, seq) == Verdict::Fails)
    })
}

/// An exhaustive-only check up to `bound` (no random phase, no edge sweep,
/// no depth order beside the size order).
fn exhaustive(bound: usize) -> Config {
    Config::default()
        .max_size(bound)
        .runs(u64::MAX)
        .samples(0, 0)
        .portfolio(false)
        .regressions(false)
}

const BOUND: usize = 9;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The check finds a failing sequence exactly when brute force does,
    /// of the smallest size, and the sequence it reports does fail.
    #[test]
    fn the_check_finds_the_smallest_failing_sequence(
        trigger in 0u32..6,
        floor in 0u32..3,
        max_add in 0u8..4,
    ) {
        let m = Register { trigger, floor, max_add };
        let expected = smallest_failing(&m, BOUND);
        match exhaustive(BOUND).try_check(machine(&m)) {
            Err(c) => {
                prop_assert_eq!(Some(c.size as usize), expected, "{:?}", c.value);
                prop_assert_eq!(verdict(&m, &c.value), Verdict::Fails);
                prop_assert!(c.is_minimal());
            }
            Ok(s) => {
                prop_assert_eq!(expected, None);
                prop_assert_eq!(s.exhausted, Some(BOUND));
            }
        }
    }
}

#[test]
fn a_discarded_prefix_stands_for_every_sequence_that_extends_it() {
    // `Sub` is never allowed: a run stops at the first `Sub`, so one run
    // stands for every sequence with the same prefix up to it. The runs are
    // exactly the classes: each sequence without `Sub`, and each prefix
    // ending at its first `Sub` (the class's smallest member), of size at
    // most the bound.
    let m = Register {
        trigger: u32::MAX,
        floor: u32::MAX,
        max_add: 255,
    };
    let s = exhaustive(BOUND)
        .try_check(machine(&m))
        .expect("no failure");
    let all = crate::values::values_up_to::<Vec<Op>>(BOUND);
    let classes = all
        .iter()
        .filter(|seq| match seq.iter().position(|c| *c == Op::Sub) {
            None => true,
            Some(i) => i + 1 == seq.len(),
        })
        .count();
    assert_eq!(s.runs_last_bound, classes as u64, "{s}");
    assert!(classes < all.len());
    // And the command that never ran is a health problem.
    assert_eq!(s.problems.len(), 1, "{:?}", s.problems);
    assert!(
        s.problems[0].starts_with("commands that never ran: Sub"),
        "{:?}",
        s.problems
    );
}

#[test]
fn checks_are_deterministic() {
    let m = Register {
        trigger: 3,
        floor: 0,
        max_add: 2,
    };
    let config = Config::default().regressions(false);
    let first = config.try_check(machine(&m)).unwrap_err();
    let second = config.try_check(machine(&m)).unwrap_err();
    assert_eq!(first.value, second.value);
    assert_eq!(first.key, second.key);
}

#[test]
fn the_report_shows_each_step_and_a_replay() {
    let m = Register {
        trigger: 2,
        floor: 0,
        max_add: 3,
    };
    let text = explain(&m, &[Op::Add(2), Op::Read]);
    assert!(text.contains("    start: 0\n"), "{text}");
    assert!(
        text.contains("    step 1: Add(2) -> 2; model: 2\n"),
        "{text}"
    );
    assert!(text.contains("    step 2: Read -> 3; model: 2\n"), "{text}");
    assert!(
        text.contains("failed: postcondition: expected 2 (the model before the step: 2)"),
        "{text}"
    );
    assert!(
        text.contains("vec![Op::Add(2), Op::Read]") && text.contains("&Register::default()"),
        "{text}"
    );
    // `replay` fails on the failing sequence and passes a passing one.
    assert!(std::panic::catch_unwind(|| replay(&m, vec![Op::Add(2), Op::Read])).is_err());
    replay(&m, vec![Op::Add(1), Op::Read]);
}

#[test]
fn linearizability_is_decided_over_every_interleaving() {
    #[derive(Debug)]
    struct Counter;
    impl StateMachine for Counter {
        type State = u32;
        type Sut = ();
        type Command = bool;
        type Output = u32;
        fn initial_state(&self) -> u32 {
            0
        }
        fn new_sut(&self) {}
        // `true` increments and returns the new value; `false` reads.
        fn precondition(&self, state: &u32, _: &bool) -> bool {
            *state < 3
        }
        fn run(&self, _: &mut (), _: &bool) -> u32 {
            0
        }
        fn next_state(&self, state: &mut u32, increment: &bool) {
            *state += u32::from(*increment);
        }
        fn postcondition(&self, before: &u32, increment: &bool, out: &u32) -> Result<(), String> {
            let expected = before + u32::from(*increment);
            if expected == *out {
                Ok(())
            } else {
                Err(format!("expected {expected}"))
            }
        }
    }
    let m = Counter;
    let lin = |left: &[(bool, u32)], right: &[(bool, u32)]| {
        let l: Vec<_> = left.iter().map(|(c, o)| (c, o)).collect();
        let r: Vec<_> = right.iter().map(|(c, o)| (c, o)).collect();
        linearizable(&m, &0, &l, &r)
    };
    // Two increments that both saw 0: no order explains it.
    assert!(!lin(&[(true, 1)], &[(true, 1)]));
    assert!(lin(&[(true, 1)], &[(true, 2)]) && lin(&[(true, 2)], &[(true, 1)]));
    // A read of 1 between the two increments, on either side.
    assert!(lin(&[(true, 1), (false, 1)], &[(true, 2)]));
    assert!(!lin(&[(true, 1), (false, 0)], &[(true, 2)]));
    // Every interleaving must meet the precondition (at most 3).
    assert!(every_interleaving_valid(&m, &1, &[true], &[true]));
    assert!(!every_interleaving_valid(&m, &2, &[true], &[true]));
}

#[test]
fn a_replay_that_passes_is_not_a_health_problem() {
    // Only one sequence runs: the commands it lacks did not "never run".
    let m = Register {
        trigger: u32::MAX,
        floor: 0,
        max_add: 255,
    };
    let g = crate::types::grammar_of::<Vec<Op>>();
    let tree = crate::values::trees_of::<Vec<Op>>(3)
        .into_iter()
        .next()
        .expect("sequences of size 3");
    let config = Config::default()
        .regressions(false)
        .replay(crate::replay::key_of(&g, &tree));
    let s = config.try_check(machine(&m)).expect("it passes");
    assert!(s.problems.is_empty(), "{:?}", s.problems);
}

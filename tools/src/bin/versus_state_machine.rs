//! Stateful testing side by side: `neatcheck::state` (default check) and
//! proptest-state-machine (256 cases of 1 to 20 transitions, its README's
//! form) on the systems of `neatcheck_tools::machines`, each with its bug
//! planted and fixed, in one process. Per system and tool: found or not,
//! the failing sequence's length (after proptest's shrinking), the thread
//! CPU time.
//!
//! ```text
//! cargo run --release -p neatcheck-tools --bin versus_state_machine
//! ```
//!
//! Both run deterministically (proptest on its ChaCha generator with a
//! fixed seed, no failure persistence), so only the times change between
//! runs.

use neatcheck::check::Config;
use neatcheck::state::{machine, Pick, StateMachine};
use neatcheck_tools::benchmarks::timing::cpu_now;
use neatcheck_tools::machines::*;
use proptest::prelude::*;
use proptest::test_runner::{Config as PtConfig, RngAlgorithm, TestError, TestRng, TestRunner};
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest};
use std::marker::PhantomData;
use std::time::Duration;

/// A machine as a proptest user would drive it: its transitions as a
/// strategy per state, and its bug switch.
trait Driven: StateMachine + 'static {
    fn with_bug(bug: bool) -> Self;
    fn transitions(state: &Self::State) -> BoxedStrategy<Self::Command>;
}

impl Driven for QueueMachine {
    fn with_bug(bug: bool) -> Self {
        QueueMachine { bug }
    }
    fn transitions(_: &Self::State) -> BoxedStrategy<QueueCommand> {
        prop_oneof![
            any::<u8>().prop_map(QueueCommand::Push),
            Just(QueueCommand::Pop),
            Just(QueueCommand::Len),
        ]
        .boxed()
    }
}

fn key() -> impl Strategy<Value = Key> {
    prop_oneof![Just(Key::A), Just(Key::B), Just(Key::C)]
}

impl Driven for StoreMachine {
    fn with_bug(bug: bool) -> Self {
        StoreMachine { bug }
    }
    fn transitions(state: &Self::State) -> BoxedStrategy<StoreCommand> {
        let put = (key(), any::<u8>()).prop_map(|(k, v)| StoreCommand::Put(k, v));
        let get = key().prop_map(StoreCommand::Get);
        if state.is_empty() {
            prop_oneof![put, get].boxed()
        } else {
            let delete = (0..state.len() as u8).prop_map(|i| StoreCommand::Delete(Pick(i)));
            prop_oneof![put, get, delete].boxed()
        }
    }
}

impl Driven for AllocMachine {
    fn with_bug(bug: bool) -> Self {
        AllocMachine { bug }
    }
    fn transitions(state: &Blocks) -> BoxedStrategy<AllocCommand> {
        if state.live.is_empty() {
            Just(AllocCommand::Alloc).boxed()
        } else {
            let free = (0..state.live.len() as u8).prop_map(|i| AllocCommand::Free(Pick(i)));
            prop_oneof![Just(AllocCommand::Alloc), free].boxed()
        }
    }
}

/// proptest-state-machine's reference machine and test over a [`Driven`]
/// machine, its bug switch in the type (the traits have no `self`).
struct Pt<M, const BUG: bool>(PhantomData<M>);

impl<M: Driven, const BUG: bool> ReferenceStateMachine for Pt<M, BUG> {
    type State = M::State;
    type Transition = M::Command;

    fn init_state() -> BoxedStrategy<M::State> {
        Just(M::with_bug(BUG).initial_state()).boxed()
    }
    fn transitions(state: &M::State) -> BoxedStrategy<M::Command> {
        M::transitions(state)
    }
    fn apply(mut state: M::State, command: &M::Command) -> M::State {
        M::with_bug(BUG).next_state(&mut state, command);
        state
    }
    fn preconditions(state: &M::State, command: &M::Command) -> bool {
        M::with_bug(BUG).precondition(state, command)
    }
}

impl<M: Driven, const BUG: bool> StateMachineTest for Pt<M, BUG> {
    /// The system, and the model's state before the next transition (the
    /// postconditions compare with it; the crate passes the state after).
    type SystemUnderTest = (M::Sut, M::State);
    type Reference = Self;

    fn init_test(state: &M::State) -> Self::SystemUnderTest {
        (M::with_bug(BUG).new_sut(), state.clone())
    }
    fn apply(
        (mut sut, before): Self::SystemUnderTest,
        after: &M::State,
        command: M::Command,
    ) -> Self::SystemUnderTest {
        let machine = M::with_bug(BUG);
        let output = machine.run(&mut sut, &command);
        if let Err(why) = machine.postcondition(&before, &command, &output) {
            panic!("{command:?} returned {output:?}: {why}");
        }
        if let Err(why) = machine.invariant(&sut, after) {
            panic!("invariant: {why}");
        }
        (sut, after.clone())
    }
}

/// One tool's result.
struct Cell {
    found: bool,
    steps: Option<usize>,
    /// The failing sequence.
    sequence: String,
    time: Duration,
}

fn neat<M: Driven>(bug: bool) -> Cell {
    let config = Config::default().regressions(false);
    let start = cpu_now();
    let result = config.try_check(machine(&M::with_bug(bug)));
    let time = cpu_now() - start;
    Cell {
        found: result.is_err(),
        steps: result.as_ref().err().map(|c| c.value.len()),
        sequence: result
            .err()
            .map_or(String::new(), |c| format!("{:?}", c.value)),
        time,
    }
}

fn proptest_sm<M: Driven, const BUG: bool>() -> Cell {
    let config = PtConfig {
        failure_persistence: None,
        rng_algorithm: RngAlgorithm::ChaCha,
        ..PtConfig::default()
    };
    let rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    let mut runner = TestRunner::new_with_rng(config.clone(), rng);
    let start = cpu_now();
    let result = runner.run(
        &<Pt<M, BUG> as ReferenceStateMachine>::sequential_strategy(1..20),
        |(state, transitions, seen)| {
            <Pt<M, BUG> as StateMachineTest>::test_sequential(
                config.clone(),
                state,
                transitions,
                seen,
            );
            Ok(())
        },
    );
    let time = cpu_now() - start;
    match result {
        Err(TestError::Fail(_, (_, transitions, _))) => Cell {
            found: true,
            steps: Some(transitions.len()),
            sequence: format!("{transitions:?}"),
            time,
        },
        _ => Cell {
            found: false,
            steps: None,
            sequence: String::new(),
            time,
        },
    }
}

fn text(c: &Cell) -> String {
    let ms = c.time.as_secs_f64() * 1e3;
    match (c.found, c.steps) {
        (true, Some(k)) => format!("FOUND {k} steps {}, {ms:.1} ms", c.sequence),
        (true, None) => format!("FOUND, {ms:.1} ms"),
        (false, _) => format!("pass, {ms:.1} ms"),
    }
}

fn row(name: &str, variant: &str, n: Cell, p: Cell) {
    println!("| {name} | {variant} | {} | {} |", text(&n), text(&p));
}

fn both<M: Driven>(name: &str)
where
    M::Command: 'static,
{
    row(name, "bug", neat::<M>(true), proptest_sm::<M, true>());
    row(name, "fixed", neat::<M>(false), proptest_sm::<M, false>());
}

fn main() {
    // Both tools catch the panics of failing runs; keep them quiet.
    std::panic::set_hook(Box::new(|_| {}));
    println!("| system | variant | neatcheck (default) | proptest-state-machine (256 cases, 1..20 steps) |");
    println!("|---|---|---|---|");
    both::<QueueMachine>("bounded queue");
    both::<StoreMachine>("key-value store");
    both::<AllocMachine>("block allocator");
}

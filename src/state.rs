//! Stateful testing: sequences of commands run on a real system and on a
//! model of it, searched lazily and exhaustively by size, so the first
//! failing sequence found is a shortest one, with the smallest arguments,
//! without shrinking.
//!
//! A [`StateMachine`] says what the model state is, which commands there are
//! (an [`Enumerable`] type, usually a derived enum), when a command may run
//! (its precondition on the model state), how it runs on the system under
//! test, how it changes the model, and what must hold after each step. A
//! check reads the command list one command at a time: a command whose
//! precondition is false discards the run, and with it every sequence that
//! begins the same way (one run for the whole class), so an invalid prefix
//! is never extended. The random phase draws sequences uniformly among
//! those whose preconditions hold (it rules out the classes it discarded).
//!
//! ```
//! use neatcheck::state::{check_machine, StateMachine};
//! use neatcheck::Enumerable;
//!
//! /// A stack with a planted bug: `pop` on two elements loses the top one.
//! #[derive(Default)]
//! struct Stack(Vec<u8>);
//!
//! impl Stack {
//!     fn push(&mut self, x: u8) {
//!         self.0.push(x)
//!     }
//!     fn pop(&mut self) -> Option<u8> {
//!         if self.0.len() == 2 {
//!             self.0.remove(0);
//!         }
//!         self.0.pop()
//!     }
//! }
//!
//! #[derive(Enumerable, Debug, Clone)]
//! enum Command {
//!     Push(u8),
//!     Pop,
//! }
//!
//! #[derive(Default)]
//! struct StackModel;
//!
//! impl StateMachine for StackModel {
//!     type State = Vec<u8>;
//!     type Sut = Stack;
//!     type Command = Command;
//!     type Output = Option<u8>;
//!
//!     fn initial_state(&self) -> Vec<u8> {
//!         vec![]
//!     }
//!     fn new_sut(&self) -> Stack {
//!         Stack::default()
//!     }
//!     fn precondition(&self, state: &Vec<u8>, command: &Command) -> bool {
//!         !matches!(command, Command::Pop) || !state.is_empty()
//!     }
//!     fn run(&self, sut: &mut Stack, command: &Command) -> Option<u8> {
//!         match command {
//!             Command::Push(x) => {
//!                 sut.push(*x);
//!                 None
//!             }
//!             Command::Pop => sut.pop(),
//!         }
//!     }
//!     fn next_state(&self, state: &mut Vec<u8>, command: &Command) {
//!         match command {
//!             Command::Push(x) => state.push(*x),
//!             Command::Pop => {
//!                 state.pop();
//!             }
//!         }
//!     }
//!     fn postcondition(&self, before: &Vec<u8>, command: &Command, output: &Option<u8>) -> Result<(), String> {
//!         let expected = match command {
//!             Command::Push(_) => None,
//!             Command::Pop => before.last().copied(),
//!         };
//!         if *output == expected {
//!             Ok(())
//!         } else {
//!             Err(format!("expected {expected:?}"))
//!         }
//!     }
//! }
//!
//! let report = std::panic::catch_unwind(|| check_machine(&StackModel)).unwrap_err();
//! let report = report.downcast_ref::<String>().unwrap();
//! // The shortest failing sequence, with the smallest arguments.
//! assert!(report.contains("counterexample (size 9): [Push(0), Push(0), Pop, Pop]"), "{report}");
//! assert!(report.contains("step 4: Pop -> None; model: []"), "{report}");
//! ```

use crate::check::{Config, Counterexample, LazyArg, Property, Summary};
use crate::engine::RunResult;
use crate::grammar::SortKind;
use crate::handle::Lazy;
use crate::types::Enumerable;
use std::fmt::{Debug, Write as _};
use std::sync::atomic::{AtomicBool, Ordering};

/// A system under test, its model, and its commands: what [`check_machine`]
/// needs. The trait's methods are called in this order for every step of a
/// sequence: `precondition` on the model state (false: the sequence is not
/// valid and is discarded), `run` on the system, `postcondition` with the
/// model state before the step and the system's output, `next_state` on the
/// model, then `invariant` on both.
///
/// Failing checks may return an error with a message, or panic (an
/// `assert!` in `run` or `postcondition` is a failure like any other).
pub trait StateMachine {
    /// The model's state.
    type State: Clone + Debug;
    /// The system under test (a fresh one per sequence).
    type Sut;
    /// The commands: usually a derived enum, one variant per operation,
    /// with its arguments. An argument that must name something of the
    /// state (a key that is present) can be a [`Pick`].
    type Command: Enumerable + Debug + Clone + Send;
    /// What a command returns on the system, compared with the model in
    /// [`StateMachine::postcondition`].
    type Output: Debug;

    /// The model's state before the first command.
    fn initial_state(&self) -> Self::State;

    /// A fresh system under test.
    fn new_sut(&self) -> Self::Sut;

    /// Whether `command` may run in `state` (default: always).
    fn precondition(&self, state: &Self::State, command: &Self::Command) -> bool {
        let _ = (state, command);
        true
    }

    /// Runs `command` on the system.
    fn run(&self, sut: &mut Self::Sut, command: &Self::Command) -> Self::Output;

    /// The model's state after `command`.
    fn next_state(&self, state: &mut Self::State, command: &Self::Command);

    /// Whether `output` is what the model expects of `command` in `before`
    /// (the state before the step; default: anything is).
    fn postcondition(
        &self,
        before: &Self::State,
        command: &Self::Command,
        output: &Self::Output,
    ) -> Result<(), String> {
        let _ = (before, command, output);
        Ok(())
    }

    /// What must hold of the system and the model after every step
    /// (default: nothing).
    fn invariant(&self, sut: &Self::Sut, state: &Self::State) -> Result<(), String> {
        let _ = (sut, state);
        Ok(())
    }
}

/// A command argument that picks one of the things the state holds (a key
/// that is present, an open handle): the `n`-th, for a precondition that
/// asks `pick.of(&things).is_some()`. Small picks are small values, so a
/// failing sequence names the first thing it can.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pick(pub u8);

impl Enumerable for Pick {
    fn describe() -> crate::describe::Space<Self> {
        // The index itself: `Pick(n)` costs what `n` does.
        crate::types::transparent(Pick)
    }
}

impl Debug for Pick {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pick({})", self.0)
    }
}

impl Pick {
    /// The picked element of `things`, if there are that many.
    pub fn of<X>(self, things: &[X]) -> Option<&X> {
        things.get(usize::from(self.0))
    }

    /// The picked element of an iteration in a fixed order (the keys of a
    /// `BTreeMap`), if there are that many.
    pub fn nth<X>(self, mut things: impl Iterator<Item = X>) -> Option<X> {
        things.nth(usize::from(self.0))
    }
}

/// Checks a state machine with the default configuration (overridden by
/// the `NEATCHECK_*` variables), like [`crate::check()`]: panics with a report
/// naming the shortest failing sequence, the model state after each of its
/// steps and a test that replays it, or saying why a pass would mean
/// nothing (no valid sequence, a command whose precondition never held).
/// It is `Config::default().check(state::machine(m))`; any other
/// operation of a [`Config`] takes [`machine`] too.
#[track_caller]
pub fn check_machine<M: StateMachine>(machine: &M) -> Summary {
    Config::default().check(self::machine(machine))
}

/// A state machine as a property over its command sequences, for any
/// operation of a [`Config`]: the commands are read one at a time (a false
/// precondition at step `k` rules out every sequence that begins with those
/// `k`), a pass whose commands did not all run is a problem, and a failure's
/// report adds the model after each step ([`explain`]).
///
/// ```
/// # use neatcheck::state::{machine, StateMachine};
/// # use neatcheck::Config;
/// # struct Counter;
/// # impl StateMachine for Counter {
/// #     type State = u32;
/// #     type Sut = u32;
/// #     type Command = bool;
/// #     type Output = u32;
/// #     fn initial_state(&self) -> u32 { 0 }
/// #     fn new_sut(&self) -> u32 { 0 }
/// #     fn run(&self, sut: &mut u32, up: &bool) -> u32 { if *up { *sut += 1 } *sut }
/// #     fn next_state(&self, state: &mut u32, up: &bool) { if *up { *state += 1 } }
/// #     fn postcondition(&self, state: &u32, up: &bool, out: &u32) -> Result<(), String> {
/// #         if *out == *state + u32::from(*up) { Ok(()) } else { Err("off".into()) }
/// #     }
/// # }
/// let summary = Config::default().max_size(8).try_check(machine(&Counter)).unwrap();
/// assert!(summary.problems.is_empty());
/// ```
pub fn machine<M: StateMachine>(machine: &M) -> Machine<'_, M> {
    Machine {
        machine,
        commands: CommandTable::of::<M::Command>(),
    }
}

/// A state machine as a property: see [`machine`].
pub struct Machine<'m, M> {
    machine: &'m M,
    commands: CommandTable,
}

impl<M> Debug for Machine<'_, M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Machine")
            .field("type", &std::any::type_name::<M>())
            .finish_non_exhaustive()
    }
}

impl<M: StateMachine> Property<Vec<M::Command>, LazyArg> for Machine<'_, M> {
    fn run_lazy(&self, seq: Lazy<'_, Vec<M::Command>>) -> RunResult {
        run_lazily(self.machine, seq, &self.commands)
    }

    fn problems(&self, summary: &Summary) -> Vec<String> {
        self.commands.never_ran(summary)
    }

    fn explain(&self, failure: &Counterexample<Vec<M::Command>>) -> String {
        explain(self.machine, &failure.value)
    }
}

/// Runs `commands` on a fresh system and model, checking every step, and
/// panics at the first that fails (or whose precondition is false) with
/// the steps so far: the body of the test a report prints.
pub fn replay<M: StateMachine>(machine: &M, commands: Vec<M::Command>) {
    let steps = run_steps(machine, &commands);
    if let Some(failure) = &steps.failure {
        panic!(
            "the sequence failed at step {}: {failure}\n{}",
            steps.lines.len(),
            steps.lines.join("\n")
        );
    }
}

/// The steps of a sequence as a report shows them (the model state after
/// each), up to the one that failed, then a test that replays it.
pub fn explain<M: StateMachine>(machine: &M, commands: &[M::Command]) -> String {
    let steps = run_steps(machine, commands);
    let mut s = String::new();
    let _ = writeln!(s, "  step by step (the model's state after each step):");
    let _ = writeln!(s, "    start: {}", show(&machine.initial_state()));
    for line in &steps.lines {
        let _ = writeln!(s, "    {line}");
    }
    match &steps.failure {
        Some(f) => {
            let _ = writeln!(s, "    failed: {f}");
        }
        None => {
            let _ = writeln!(
                s,
                "    (run again, every step passed: the failure depends on more than the \
                 commands)"
            );
        }
    }
    let _ = writeln!(s, "  a test that replays it (beside the machine's type):");
    for line in replay_test::<M>(commands).lines() {
        let _ = writeln!(s, "    {line}");
    }
    s
}

/// The `Debug` text of a value for a report, bounded.
fn show(value: &dyn Debug) -> String {
    crate::report::debug_for_report(value)
}

/// The last path segment of a type's name, without generic arguments.
fn short_name<T: ?Sized>() -> &'static str {
    let full = std::any::type_name::<T>();
    let base = full.split('<').next().unwrap_or(full);
    base.rsplit("::").next().unwrap_or(base)
}

/// A `#[test]` that replays `commands` with [`replay`].
fn replay_test<M: StateMachine>(commands: &[M::Command]) -> String {
    let machine = short_name::<M>();
    let command_type = short_name::<M::Command>();
    let listed: Vec<String> = commands
        .iter()
        .map(|c| {
            let text = show(c);
            // A variant printed by a derived `Debug` needs its enum's path.
            if text.starts_with(|ch: char| ch.is_ascii_uppercase()) && !text.starts_with("Pick(") {
                format!("{command_type}::{text}")
            } else {
                text
            }
        })
        .collect();
    let name = machine
        .chars()
        .enumerate()
        .flat_map(|(i, ch)| {
            let lower = ch.to_ascii_lowercase();
            let sep = (i > 0 && ch.is_ascii_uppercase()).then_some('_');
            sep.into_iter().chain(std::iter::once(lower))
        })
        .collect::<String>();
    format!(
        "#[test]\n#[should_panic]\nfn {name}_counterexample() {{\n    neatcheck::state::replay(\n        \
         &{machine}::default(),\n        vec![{}],\n    );\n}}\n",
        listed.join(", ")
    )
}

/// The steps of a run of a sequence.
struct Steps {
    /// One line per step run: the command, its output, the model after.
    lines: Vec<String>,
    /// Why the last step failed, if one did.
    failure: Option<String>,
}

/// Runs a sequence on a fresh system and model, recording each step.
fn run_steps<M: StateMachine>(machine: &M, commands: &[M::Command]) -> Steps {
    // A step that panics is reported in the steps, with its message, once.
    let _quiet = crate::internal::quiet::Quiet::new();
    let mut state = machine.initial_state();
    let mut sut = machine.new_sut();
    let mut lines = vec![];
    for (i, command) in commands.iter().enumerate() {
        let step = i + 1;
        if !machine.precondition(&state, command) {
            lines.push(format!("step {step}: {}", show(command)));
            return Steps {
                lines,
                failure: Some(format!(
                    "the precondition of {} is false in {}",
                    show(command),
                    show(&state)
                )),
            };
        }
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let output = machine.run(&mut sut, command);
            let post = machine.postcondition(&state, command, &output);
            (output, post)
        }));
        let (output, post) = match ran {
            Ok(r) => r,
            Err(p) => {
                lines.push(format!("step {step}: {}", show(command)));
                return Steps {
                    lines,
                    failure: Some(format!(
                        "it panicked: {}",
                        crate::internal::panic_message(&*p)
                    )),
                };
            }
        };
        let before = show(&state);
        machine.next_state(&mut state, command);
        lines.push(format!(
            "step {step}: {} -> {}; model: {}",
            show(command),
            show(&output),
            show(&state)
        ));
        if let Err(why) = post {
            return Steps {
                lines,
                failure: Some(format!(
                    "postcondition: {why} (the model before the step: {before})"
                )),
            };
        }
        let invariant = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            machine.invariant(&sut, &state)
        }));
        match invariant {
            Ok(Ok(())) => {}
            Ok(Err(why)) => {
                return Steps {
                    lines,
                    failure: Some(format!("invariant: {why}")),
                }
            }
            Err(p) => {
                return Steps {
                    lines,
                    failure: Some(format!(
                        "the invariant panicked: {}",
                        crate::internal::panic_message(&*p)
                    )),
                }
            }
        }
    }
    Steps {
        lines,
        failure: None,
    }
}

/// One run of a check: the commands read one at a time, so a run that
/// stops at step `k` stands for every sequence that begins with those `k`.
fn run_lazily<M: StateMachine>(
    machine: &M,
    seq: Lazy<'_, Vec<M::Command>>,
    table: &CommandTable,
) -> RunResult {
    let mut state = machine.initial_state();
    let mut sut = machine.new_sut();
    for (i, handle) in seq.iter().enumerate() {
        let alternative = table.algebraic.then(|| handle.alternative().index());
        let command = handle.force();
        if !machine.precondition(&state, &command) {
            return RunResult::Discarded;
        }
        let output = machine.run(&mut sut, &command);
        if let Err(why) = machine.postcondition(&state, &command, &output) {
            return RunResult::False(Some(format!(
                "failed its postcondition at step {}: {command:?} returned {output:?}: {why}",
                i + 1
            )));
        }
        machine.next_state(&mut state, &command);
        if let Err(why) = machine.invariant(&sut, &state) {
            return RunResult::False(Some(format!(
                "broke the invariant at step {} ({command:?}): {why}",
                i + 1
            )));
        }
        if let Some(a) = alternative.and_then(|a| table.ran.get(a)) {
            a.store(true, Ordering::Relaxed);
        }
    }
    RunResult::True
}

/// The command type's alternatives, and which of them ran at least once
/// in a check (a command whose precondition never held is a health
/// problem: the check never tested it).
struct CommandTable {
    /// The command type is a sum of alternatives (not an atom).
    algebraic: bool,
    names: Vec<String>,
    ran: Vec<AtomicBool>,
}

impl CommandTable {
    fn of<C: Enumerable>() -> CommandTable {
        let g = crate::types::grammar_of::<C>();
        let names: Vec<String> = match &g.sorts[g.root.index()].kind {
            SortKind::Algebraic { decl, .. } => decl
                .iter()
                .enumerate()
                .map(|(i, p)| match g.prods[p.index()].shape.as_deref() {
                    Some(crate::describe::Shape::Ctor { name, .. }) => name.to_string(),
                    _ => format!("alternative {i}"),
                })
                .collect(),
            _ => vec![],
        };
        CommandTable {
            algebraic: !names.is_empty(),
            ran: names.iter().map(|_| AtomicBool::new(false)).collect(),
            names,
        }
    }

    /// A health problem for each command that never ran in a search
    /// (a replay of one key, or one shard of a search, runs only part).
    fn never_ran(&self, summary: &Summary) -> Vec<String> {
        if summary.stopped == crate::check::Stop::Replay || summary.part().is_some() {
            return vec![];
        }
        let missing: Vec<&str> = self
            .names
            .iter()
            .zip(&self.ran)
            .filter(|(_, ran)| !ran.load(Ordering::Relaxed))
            .map(|(name, _)| name.as_str())
            .collect();
        if missing.is_empty() {
            return vec![];
        }
        vec![format!(
            "commands that never ran: {} (their precondition was false in every state the \
             check reached, or no sequence within the budget reached a state where it holds). \
             Loosen the precondition, or raise the budget.",
            missing.join(", ")
        )]
    }
}

#[cfg(test)]
mod tests;

/// A state machine whose system can be used from several threads at once
/// (`&Sut`): [`check_parallel`] runs two command sequences concurrently on
/// it and asks whether the model explains what they returned.
pub trait ConcurrentMachine: StateMachine + Sync
where
    Self::Sut: Sync,
{
    /// Runs `command` on a system shared with other threads.
    fn run_shared(&self, sut: &Self::Sut, command: &Self::Command) -> Self::Output;
}

/// How many commands a branch of a parallel case may hold: the
/// interleavings of two branches of `n` commands number `C(2n, n)` (70
/// for 4), all of which the model is asked about.
pub const MAX_BRANCH: usize = 4;

/// How many times a parallel case runs: a race shows up in some runs and
/// not others, so each case is repeated and fails if any repetition's
/// outputs have no explanation.
pub const PARALLEL_REPEATS: u32 = 16;

/// A parallel case: a prefix run alone, then two branches run at once.
pub type ParallelCase<C> = (Vec<C>, Vec<C>, Vec<C>);

/// Checks that a concurrent system is linearizable with respect to its
/// model (the parallel state machine testing of QuickCheck): cases are a
/// prefix of commands run alone, then two branches (at most [`MAX_BRANCH`]
/// commands each) run on two threads at once, each case
/// [`PARALLEL_REPEATS`] times. A repetition fails when no interleaving of
/// the two branches, run on the model after the prefix, gives the outputs
/// the system gave (every interleaving must meet the preconditions). Cases
/// are searched by size like any input, so the failing case reported is
/// among the smallest in which the race showed up.
///
/// A race is found by repetition, not proven absent: a pass says that no
/// repetition of any case tried went wrong, and a failure that does not
/// show up again when the case is re-run is reported as not reproducible.
///
/// It is `Config::default().check(state::parallel_machine(m))`.
#[track_caller]
pub fn check_parallel<M: ConcurrentMachine>(machine: &M) -> Summary
where
    M::Sut: Sync,
    M::Output: Send,
{
    Config::default().check(parallel_machine(machine))
}

/// A concurrent state machine as a property over parallel cases (see
/// [`check_parallel`]), for any operation of a [`Config`]; each run of a
/// case is [`PARALLEL_REPEATS`] runs of the system, so a smaller run budget
/// than a sequential check's may be wise.
pub fn parallel_machine<M: ConcurrentMachine>(machine: &M) -> ParallelMachine<'_, M>
where
    M::Sut: Sync,
    M::Output: Send,
{
    ParallelMachine { machine }
}

/// A concurrent state machine as a property: see [`parallel_machine`].
pub struct ParallelMachine<'m, M> {
    machine: &'m M,
}

impl<M> Debug for ParallelMachine<'_, M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParallelMachine")
            .field("type", &std::any::type_name::<M>())
            .finish_non_exhaustive()
    }
}

impl<M: ConcurrentMachine> Property<ParallelCase<M::Command>, LazyArg> for ParallelMachine<'_, M>
where
    M::Sut: Sync,
    M::Output: Send,
{
    fn run_lazy(&self, case: Lazy<'_, ParallelCase<M::Command>>) -> RunResult {
        let (prefix, left, right) = case.force();
        run_parallel_case(self.machine, &prefix, &left, &right)
    }

    fn explain(&self, failure: &Counterexample<ParallelCase<M::Command>>) -> String {
        let (prefix, left, right) = &failure.value;
        explain_parallel(self.machine, prefix, left, right)
    }
}

/// Runs a parallel case [`PARALLEL_REPEATS`] times: discarded if its
/// prefix or any interleaving of its branches breaks a precondition (or a
/// branch is too long), failed if a repetition's outputs have no
/// explanation.
fn run_parallel_case<M: ConcurrentMachine>(
    machine: &M,
    prefix: &[M::Command],
    left: &[M::Command],
    right: &[M::Command],
) -> RunResult
where
    M::Sut: Sync,
    M::Output: Send,
{
    if left.len() > MAX_BRANCH || right.len() > MAX_BRANCH || left.is_empty() || right.is_empty() {
        return RunResult::Discarded;
    }
    let mut state = machine.initial_state();
    for command in prefix {
        if !machine.precondition(&state, command) {
            return RunResult::Discarded;
        }
        machine.next_state(&mut state, command);
    }
    if !every_interleaving_valid(machine, &state, left, right) {
        return RunResult::Discarded;
    }
    for repetition in 1..=PARALLEL_REPEATS {
        let outcome = run_once(machine, prefix, left, right);
        if let Err(why) = outcome.explained(machine) {
            return RunResult::False(Some(format!(
                "went wrong in repetition {repetition} of {PARALLEL_REPEATS}: {why}"
            )));
        }
    }
    RunResult::True
}

/// Whether every interleaving of the branches meets the preconditions
/// from `state`.
fn every_interleaving_valid<M: StateMachine>(
    machine: &M,
    state: &M::State,
    left: &[M::Command],
    right: &[M::Command],
) -> bool {
    let (Some(l), Some(r)) = (left.first(), right.first()) else {
        return left
            .iter()
            .chain(right)
            .try_fold(state.clone(), |mut s, c| {
                machine.precondition(&s, c).then(|| {
                    machine.next_state(&mut s, c);
                    s
                })
            })
            .is_some();
    };
    [(l, &left[1..], right), (r, left, &right[1..])]
        .into_iter()
        .all(|(first, left, right)| {
            machine.precondition(state, first) && {
                let mut next = state.clone();
                machine.next_state(&mut next, first);
                every_interleaving_valid(machine, &next, left, right)
            }
        })
}

/// What one repetition of a parallel case did.
struct ParallelRun<'c, M: StateMachine> {
    prefix: &'c [M::Command],
    left: &'c [M::Command],
    right: &'c [M::Command],
    /// The prefix's outputs (run alone).
    prefix_out: Vec<M::Output>,
    left_out: Vec<M::Output>,
    right_out: Vec<M::Output>,
}

/// Runs the prefix alone, then the branches on two threads released at
/// the same moment.
fn run_once<'c, M: ConcurrentMachine>(
    machine: &M,
    prefix: &'c [M::Command],
    left: &'c [M::Command],
    right: &'c [M::Command],
) -> ParallelRun<'c, M>
where
    M::Sut: Sync,
    M::Output: Send,
{
    let sut = machine.new_sut();
    let prefix_out = prefix.iter().map(|c| machine.run_shared(&sut, c)).collect();
    let start = std::sync::Barrier::new(2);
    let (left_out, right_out) = std::thread::scope(|scope| {
        let (sut, start) = (&sut, &start);
        // The other thread owns its commands (`Command` is `Send`, not
        // necessarily `Sync`).
        let theirs = right.to_vec();
        let other = scope.spawn(move || {
            start.wait();
            theirs
                .iter()
                .map(|c| machine.run_shared(sut, c))
                .collect::<Vec<_>>()
        });
        start.wait();
        let mine: Vec<_> = left.iter().map(|c| machine.run_shared(sut, c)).collect();
        let theirs = match other.join() {
            Ok(out) => out,
            Err(p) => std::panic::resume_unwind(p),
        };
        (mine, theirs)
    });
    ParallelRun {
        prefix,
        left,
        right,
        prefix_out,
        left_out,
        right_out,
    }
}

impl<M: StateMachine> ParallelRun<'_, M> {
    /// `Ok` if the prefix's outputs meet the postconditions and some
    /// interleaving of the branches explains theirs.
    fn explained(&self, machine: &M) -> Result<(), String> {
        let mut state = machine.initial_state();
        for (i, (command, output)) in self.prefix.iter().zip(&self.prefix_out).enumerate() {
            machine
                .postcondition(&state, command, output)
                .map_err(|why| {
                    format!(
                        "the prefix's step {} ({command:?} returned {output:?}): {why}",
                        i + 1
                    )
                })?;
            machine.next_state(&mut state, command);
        }
        let left: Vec<_> = self.left.iter().zip(&self.left_out).collect();
        let right: Vec<_> = self.right.iter().zip(&self.right_out).collect();
        if linearizable(machine, &state, &left, &right) {
            Ok(())
        } else {
            Err(format!(
                "no interleaving of the model explains the outputs: left {:?} returned {:?}, \
                 right {:?} returned {:?}",
                self.left, self.left_out, self.right, self.right_out
            ))
        }
    }
}

/// Whether some interleaving of the two branches (command and output
/// each), run on the model from `state`, meets every postcondition.
fn linearizable<M: StateMachine>(
    machine: &M,
    state: &M::State,
    left: &[(&M::Command, &M::Output)],
    right: &[(&M::Command, &M::Output)],
) -> bool {
    if left.is_empty() && right.is_empty() {
        return true;
    }
    let mut tries = vec![];
    if let Some((first, rest)) = left.split_first() {
        tries.push((*first, rest, right));
    }
    if let Some((first, rest)) = right.split_first() {
        tries.push((*first, left, rest));
    }
    tries.into_iter().any(|((command, output), left, right)| {
        machine.postcondition(state, command, output).is_ok() && {
            let mut next = state.clone();
            machine.next_state(&mut next, command);
            linearizable(machine, &next, left, right)
        }
    })
}

/// A parallel case's report: what it ran, and how to run it again.
fn explain_parallel<M: ConcurrentMachine>(
    _machine: &M,
    prefix: &[M::Command],
    left: &[M::Command],
    right: &[M::Command],
) -> String
where
    M::Sut: Sync,
{
    let mut s = String::new();
    let _ = writeln!(s, "  prefix (run alone): {}", show(&prefix));
    let _ = writeln!(s, "  then at once, on two threads:");
    let _ = writeln!(s, "    left:  {}", show(&left));
    let _ = writeln!(s, "    right: {}", show(&right));
    let _ = writeln!(
        s,
        "  (each case runs {PARALLEL_REPEATS} times; the outputs of the failing repetition \
         are in the message above)"
    );
    s
}

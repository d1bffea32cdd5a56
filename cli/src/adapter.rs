//! The command's one door into the library's check driver: the only place
//! that builds a `neatcheck::Config`, calls `neatcheck::check` and reads
//! what it returns. Both front ends (`tip`, `external`) search through
//! [`check`] and get back the command's own [`Outcome`], so a change of the
//! library's check API is a change of this file alone.
//!
//! The searched input is one run-time datatype, `<args>`, whose single
//! constructor holds the arguments ([`declare_arguments`]). The driver
//! sizes that whole input, the command reports the arguments' total size:
//! the two differ by the constructor's cost, and [`driver_bound`],
//! [`arguments_size`] and [`counterexample_size`] are the only places
//! where one becomes the other.

use crate::tip::SearchOptions;
use neatcheck::check::{Counterexample, Stop, Summary};
use neatcheck::dynamic::{DataTypes, DynValue};
use neatcheck::space::IntegerSizes;
use neatcheck::{Config, Lazy};
use std::sync::Arc;

pub(crate) use neatcheck::check::RunResult;

/// The name of the datatype of the searched input; `<` keeps it apart from
/// the names of TIP files and of external programs' types.
pub(crate) const ARGS: &str = "<args>";

/// What the `<args>` constructor adds to the size of every input.
const ARGS_CONSTRUCTOR_SIZE: u8 = 1;

/// The driver's size bound that covers every input whose arguments total
/// at most `size`.
fn driver_bound(size: usize) -> usize {
    size.saturating_add(ARGS_CONSTRUCTOR_SIZE.into())
}

/// The arguments' total size of an input that the driver sizes at
/// `driver_size` (a size bound it reports).
fn arguments_size(driver_size: usize) -> usize {
    driver_size.saturating_sub(ARGS_CONSTRUCTOR_SIZE.into())
}

/// [`arguments_size`] of a counterexample, whose size the driver counts in
/// `u64`.
fn counterexample_size(driver_size: u64) -> u64 {
    driver_size.saturating_sub(ARGS_CONSTRUCTOR_SIZE.into())
}

/// Declares the datatype of the searched input in `types`: one constructor
/// whose fields are the arguments' types, in order.
pub(crate) fn declare_arguments(types: &mut DataTypes, argument_types: &[String]) {
    let fields: Vec<&str> = argument_types.iter().map(String::as_str).collect();
    types.data(ARGS).ctor(ARGS, &fields);
}

/// Why the search stopped, sizes as the command reports them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stopped {
    /// It searched up to the size bound (or replayed one input): nothing
    /// to add to the report.
    AtSizeBound,
    /// Every input was searched (there are finitely many).
    AllInputs,
    /// The run budget ran out inside this size.
    RunBudget(usize),
    /// The time limit ran out inside this size.
    TimeLimit(usize),
}

/// How far a search without counterexample went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Coverage {
    /// The largest total size of the arguments searched completely.
    pub(crate) bound: Option<usize>,
    /// Runs of the predicate, every phase of the driver together.
    pub(crate) runs: u64,
    /// Runs whose precondition did not hold.
    pub(crate) discarded: u64,
    /// Runs at the largest size searched completely: how lazy the search
    /// was, which the tests check.
    #[cfg(test)]
    pub(crate) runs_last_bound: u64,
    /// Why it stopped.
    pub(crate) stopped: Stopped,
}

/// A counterexample.
#[derive(Debug)]
pub(crate) struct Failure {
    /// The arguments, in order.
    pub(crate) arguments: Vec<DynValue>,
    /// Their total size.
    pub(crate) size: u64,
    /// Whether every smaller input was searched and passed.
    pub(crate) minimal: bool,
    /// Runs of the size-ordered search up to it.
    pub(crate) runs: u64,
    /// The predicate's message, if it failed with one.
    pub(crate) reason: Option<String>,
    /// The input as the predicate read it (`<args>(...)`, `_` where it
    /// read nothing).
    pub(crate) pattern: String,
}

/// What a search found.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// No counterexample.
    Passed(Coverage),
    /// A counterexample.
    Failed(Failure),
    /// neatcheck itself failed (no verdict on the predicate): why.
    Broken(String),
}

/// Searches the input datatype [`ARGS`] of `types` (declared with
/// [`declare_arguments`]; `types` must build) for an input on which
/// `predicate` fails, within the bounds of `options`, one run at a time.
/// `integer_sizes` is how integers are sized, `None` for the library's
/// default.
pub(crate) fn check<P>(
    types: DataTypes,
    options: &SearchOptions,
    integer_sizes: Option<IntegerSizes>,
    predicate: P,
) -> Outcome
where
    P: Fn(Lazy<'_, DynValue>) -> RunResult,
{
    let mut config = Config::default()
        .max_size(driver_bound(options.max_size))
        .runs(options.runs)
        .samples(options.random.cases, options.random.max_size)
        .seed(options.random.seed)
        .run_timeout(None)
        .regressions(false);
    if let Some(sizes) = integer_sizes {
        config = config.integer_sizes(sizes);
    }
    if let Some(t) = options.time {
        config = config.time(t);
    }
    let types = Arc::new(types);
    let spaces = move || match types.build().and_then(|u| u.space(ARGS)) {
        Ok(s) => s,
        // The front ends built these types once without error: a failure
        // here is neatcheck's.
        Err(e) => panic!("neatcheck: a universe that built once fails to build: {e}"),
    };
    match config
        .spaces(spaces)
        .try_check(|x: Lazy<'_, DynValue>| predicate(x))
    {
        Ok(summary) => passed(&summary),
        Err(c) => Outcome::Failed(failure(&c)),
    }
}

fn passed(summary: &Summary) -> Outcome {
    let stopped = match summary.stopped {
        Stop::Internal => return Outcome::Broken(summary.problems.join("; ")),
        Stop::MaxSize | Stop::Replay => Stopped::AtSizeBound,
        Stop::AllValues => Stopped::AllInputs,
        Stop::Runs(at) => Stopped::RunBudget(arguments_size(at)),
        Stop::Time(at) => Stopped::TimeLimit(arguments_size(at)),
        // A stop this front end does not know yet is reported as the
        // size bound's, the one that claims least.
        _ => Stopped::AtSizeBound,
    };
    Outcome::Passed(Coverage {
        bound: summary.exhausted.map(arguments_size),
        runs: summary.runs + summary.depth_runs,
        discarded: summary.discarded,
        #[cfg(test)]
        runs_last_bound: summary.runs_last_bound,
        stopped,
    })
}

fn failure(c: &Counterexample<DynValue>) -> Failure {
    Failure {
        arguments: c.value.fields().to_vec(),
        size: counterexample_size(c.size),
        minimal: c.is_minimal(),
        runs: c.summary.runs,
        reason: c.reason.clone(),
        pattern: c.pattern.clone(),
    }
}

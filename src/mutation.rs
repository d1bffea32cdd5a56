//! Black-box mutation testing (Paper IV of Duregård's thesis): how strong a
//! property is as a specification of the function it tests.
//!
//! This module owns the mutants of a function (defined from its outputs
//! only): small replacements, their enumeration and deterministic
//! sampling, and mutants near the original outputs (`near.rs`); running a
//! property against them within a budget of runs, the scores and the
//! report of the surviving mutants.
//!
//! A property that takes the function under test as a parameter can be run
//! on *mutants* of that function: a mutant behaves like the original except
//! at one input (its *point*), where it returns another value of the output
//! type (its *replacement*). A mutant is *killed* when the property fails
//! for it on some test input; the *score* is the fraction of mutants killed.
//! The source of the function is never looked at, so any function can be
//! mutated.
//!
//! ```
//! use neatcheck::mutation::{score, MutationConfig};
//!
//! fn sort_fast(xs: &Vec<u8>) -> Vec<u8> {
//!     let mut ys = xs.clone();
//!     ys.sort_unstable();
//!     ys
//! }
//!
//! let config = MutationConfig::default().input_size(4).output_size(4);
//! // A slip: the function is compared with itself.
//! let slip = score(&config, "sort_fast", sort_fast, |sort, xs: Vec<u8>| {
//!     sort(&xs) == sort(&xs)
//! })
//! .unwrap();
//! assert_eq!(slip.killed, 0);
//! assert!(slip.to_string().contains("your property still passes if `sort_fast([0])` returned"));
//!
//! // Against a reference: every mutant is killed.
//! let strong = score(&config, "sort_fast", sort_fast, |sort, xs: Vec<u8>| {
//!     let mut expected = xs.clone();
//!     expected.sort();
//!     sort(&xs) == expected
//! })
//! .unwrap();
//! assert_eq!(strong.killed, strong.mutants);
//! assert_eq!(strong.score(), Some(1.0));
//! ```
//!
//! # Mutants
//!
//! The test inputs are every value of the property's input type up to
//! [`MutationConfig::input_size`], smallest first (at most [`MutationConfig::max_inputs`]).
//! The property is run once per test input with the original function, and
//! every input the function is called with is recorded: these are the
//! mutation points, in the order they were first called (so points called
//! by smaller inputs come first). A mutant is a point and a replacement: any
//! value of the output type up to [`MutationConfig::output_size`] (in the order of
//! [`crate::index::Indexer::value_at`], smallest first) other than the
//! original output. A replacement equal to the original output is an
//! *equivalent* mutant: it can not be killed and is never counted.
//!
//! Small replacements alone say only that tiny wrong outputs are rejected:
//! a check that a formatted size ends with `B` kills every `"\0"`,
//! `"\u{1}"`... So each point also gets up to
//! [`MutationConfig::near_mutants`] mutants *near* its original output:
//! the output taken apart into its tree and changed in one place (another
//! alternative there, a neighbouring number or character, a part removed or
//! added: [`MutantKind`], [`near_mutants`]), spread over its parts. The
//! report counts the mutants and survivors of each kind. Near mutants need
//! an output type that can be taken apart (derived types and the standard
//! algebraic ones); for others the report says there were none.
//!
//! Beside the score over mutants, [`Report::cases`] is Paper IV's count:
//! each test input runs once with a mutant at one of the points it called
//! (a near one where there are any), and an input that never calls the
//! function counts as a survivor. It falls when a property is vacuous on
//! many inputs, which the score over mutants (made only at called points)
//! can not see; on the six `insert` properties of the paper's Fig. 4.1 it
//! ranks them as the paper does.
//!
//! When there are more (point, replacement) pairs than
//! [`MutationConfig::max_mutants`], that many are sampled uniformly without
//! repetition from a generator seeded with [`MutationConfig::seed`]: the same
//! configuration always gives the same mutants, hence the same score.
//!
//! # What one run decides
//!
//! A mutant differs from the original only at its point, so on a test input
//! whose run with the original never called the function at that point, the
//! mutant's run makes exactly the same calls with the same results: it
//! passes like the original did. Such runs are never made; a mutant is only
//! run on the test inputs that called its point, in order, until one kills
//! it. So the recording run of each test input decides, without running
//! them, every mutant whose point it did not call
//! ([`Report::runs_without_skipping`] says how many runs that saved;
//! [`MutationConfig::skip_uncalled`] turns it off for measurement). The function
//! and the property must be deterministic for this (and for any score) to
//! mean anything; a function that answers the same point differently is
//! reported as [`MutationError::Nondeterministic`].
//!
//! The replacement reaches the property as a plain value, so `score` runs
//! every mutant that a test input can kill. A property of the form
//! `spec(x, f(input_of(x)))` can go further with [`score_lazy`]: `spec`
//! reads the output through a [`Lazy`](crate::Lazy) handle, the
//! replacements of a point are searched by NEAT, and one run decides every
//! replacement that agrees on the part of the output the run read (a
//! property that checks only the length decides all outputs of one length
//! in one run). Its verdicts are those of `score`.
//!
//! # Budget
//!
//! Runs of the property on mutants are bounded by [`MutationConfig::max_runs`]:
//! mutants not decided when it runs out are counted as *undecided* (neither
//! killed nor surviving), and the report says so. Nothing depends on time.
//!
//! # In `cargo test`
//!
//! [`assert_score`] panics with the report, survivors first, when the score
//! is below a minimum:
//!
//! ```should_panic
//! use neatcheck::mutation::{assert_score, MutationConfig};
//!
//! fn sort_fast(xs: &Vec<u8>) -> Vec<u8> {
//!     let mut ys = xs.clone();
//!     ys.sort_unstable();
//!     ys
//! }
//! // Only the length is checked: most wrong sorts pass.
//! assert_score(0.9, &MutationConfig::default(), "sort_fast", sort_fast, |sort, xs: Vec<u8>| {
//!     sort(&xs).len() == xs.len()
//! });
//! ```

use crate::index::{uniform_below, uniform_below_small, Indexer, SeedRng};
use crate::internal::{self, quiet::Quiet};
use crate::Enumerable;
use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use rand::SeedableRng;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::hash::Hash;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

/// The settings of a mutation run: which test inputs, which mutants, and
/// the budget of runs. Every limit is a count, never a time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MutationConfig {
    input_size: usize,
    max_inputs: usize,
    output_size: usize,
    max_mutants: usize,
    max_runs: u64,
    seed: u64,
    shown: usize,
    skip_uncalled: bool,
    near_mutants: usize,
}

impl Default for MutationConfig {
    fn default() -> Self {
        MutationConfig {
            input_size: 6,
            max_inputs: 10_000,
            output_size: 6,
            max_mutants: 5_000,
            max_runs: 1_000_000,
            seed: 0,
            shown: 10,
            skip_uncalled: true,
            near_mutants: 16,
        }
    }
}

impl MutationConfig {
    /// Test inputs are every value of the property's input type of size
    /// `0..=n` (default 6).
    pub fn input_size(mut self, n: usize) -> Self {
        self.input_size = n;
        self
    }

    /// At most `n` test inputs, the smallest (default 10 000).
    pub fn max_inputs(mut self, n: usize) -> Self {
        self.max_inputs = n;
        self
    }

    /// Replacements are the values of the output type of size `0..=n`
    /// (default 6).
    pub fn output_size(mut self, n: usize) -> Self {
        self.output_size = n;
        self
    }

    /// At most `n` (point, replacement) pairs; beyond that they are sampled
    /// (default 5 000).
    pub fn max_mutants(mut self, n: usize) -> Self {
        self.max_mutants = n;
        self
    }

    /// At most `n` runs of the property on mutants (default 1 000 000); the
    /// recording runs on the original function are not counted (there is one
    /// per test input).
    pub fn max_runs(mut self, n: u64) -> Self {
        self.max_runs = n;
        self
    }

    /// The seed of the sampling of mutants (default 0).
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// How many survivors the report prints (default 10); all of them are
    /// in [`Report::survivors`].
    pub fn shown(mut self, n: usize) -> Self {
        self.shown = n;
        self
    }

    /// Whether a mutant is run only on the test inputs that called its
    /// point (default `true`). Turning it off runs every mutant on every
    /// test input until one kills it: the same verdicts, more runs; it is
    /// there to measure what the skipping saves.
    pub fn skip_uncalled(mut self, on: bool) -> Self {
        self.skip_uncalled = on;
        self
    }

    /// At most `n` mutants *near* each original output (default 16; 0
    /// turns them off): the output changed in one place of its tree (see
    /// [`MutantKind`]), spread over its parts. Small replacements alone
    /// say only that tiny wrong outputs are rejected (any format check
    /// rejects `"\0"`); near ones measure the property on outputs like
    /// the real ones. Needs an output type that can be taken apart: derived
    /// types and the standard algebraic ones (integers, characters,
    /// `bool`, tuples, `Option`, `Result`, `Box`, `Vec`, `String`, ranges,
    /// `Rc`, `Arc`, `RefCell`, `Wrapping`, `Reverse`).
    pub fn near_mutants(mut self, n: usize) -> Self {
        self.near_mutants = n;
        self
    }
}

/// One mutant: the function returns `replacement` instead of `original` at
/// `point`, and the original's output everywhere else.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mutant<A, B> {
    /// The input whose output is replaced.
    pub point: A,
    /// The original function's output there.
    pub original: B,
    /// What the mutant returns there instead.
    pub replacement: B,
    /// How the replacement was chosen.
    pub kind: MutantKind,
}

/// The mutants of one kind in a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct KindCount {
    /// The kind.
    pub kind: MutantKind,
    /// Mutants of this kind counted.
    pub mutants: usize,
    /// Of them, killed.
    pub killed: usize,
    /// Of them, surviving.
    pub survived: usize,
}

/// Whether a mutation run had mutants near the original outputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum NearMutants {
    /// Up to this many per point ([`MutationConfig::near_mutants`]).
    PerPoint(usize),
    /// Turned off (`near_mutants(0)`, or [`score_lazy`], which has small
    /// replacements only).
    Off,
    /// The output type can not be taken apart into its tree.
    Unavailable,
}

/// Why a mutation run could not score the property.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MutationError {
    /// The property fails with the original function: a score would mean
    /// nothing until it passes.
    OriginalFails {
        /// The test input, as `Debug` prints it.
        input: String,
        /// The panic message, when the property panicked.
        panic: Option<String>,
    },
    /// The function returned two different outputs for the same input, so
    /// "the original output" at that point is not defined.
    Nondeterministic {
        /// The input, as `Debug` prints it.
        point: String,
    },
    /// [`score_lazy`] only: the original output at a point is not among
    /// the values up to [`MutationConfig::output_size`], so it can not be handed to
    /// the property as a lazy value.
    OutputTooLarge {
        /// The input, as `Debug` prints it.
        point: String,
        /// The function's output there, as `Debug` prints it.
        output: String,
    },
    /// [`score_lazy`] only: more output values up to
    /// [`MutationConfig::output_size`] than it builds (it builds each once).
    TooManyOutputs {
        /// Their number.
        outputs: BigUint,
    },
}

impl fmt::Display for MutationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MutationError::OriginalFails { input, panic } => {
                write!(
                    f,
                    "the property fails with the original function on input {input}"
                )?;
                if let Some(m) = panic {
                    write!(f, " (it panicked: {m})")?;
                }
                write!(f, "; fix that before measuring its strength")
            }
            MutationError::Nondeterministic { point } => write!(
                f,
                "the function returned different outputs for the same input {point}; \
                 mutation testing needs a deterministic function"
            ),
            MutationError::OutputTooLarge { point, output } => write!(
                f,
                "the output {output} at {point} is larger than the output size of the \
                 mutants; raise `MutationConfig::output_size`"
            ),
            MutationError::TooManyOutputs { outputs } => write!(
                f,
                "{outputs} output values up to the output size, more than the lazy form \
                 builds ({}); lower `MutationConfig::output_size`",
                lazy_output::MAX_OUTPUTS
            ),
        }
    }
}

impl std::error::Error for MutationError {}

/// The result of a mutation run: the score and the surviving mutants.
#[derive(Debug, Clone)]
pub struct Report<A, B> {
    /// The name of the mutated function (as given to [`score`]).
    pub function: String,
    /// Mutants counted: sampled (point, replacement) pairs whose
    /// replacement differs from the original output.
    pub mutants: usize,
    /// Mutants the property failed for on some test input.
    pub killed: usize,
    /// Mutants the property passed for on every test input that called
    /// their point, smallest first (point order, then replacement order).
    pub survivors: Vec<Mutant<A, B>>,
    /// Mutants not decided when the budget of runs ran out.
    pub undecided: usize,
    /// Sampled pairs left out because the replacement equals the original.
    pub equivalent: usize,
    /// Test inputs run with the original function.
    pub inputs: usize,
    /// Distinct inputs the function was called with: the mutation points.
    pub points: usize,
    /// All (point, replacement) pairs, before sampling.
    pub pairs: BigUint,
    /// Whether the mutants are a sample of the pairs.
    pub sampled: bool,
    /// Runs of the property on mutants.
    pub runs: u64,
    /// The runs the decided mutants would have taken had every mutant been
    /// run on every test input in order (as [`MutationConfig::skip_uncalled`]`(false)`
    /// does) until one killed it.
    pub runs_without_skipping: u64,
    /// Whether [`MutationConfig::max_runs`] ran out.
    pub budget_exhausted: bool,
    /// Which neighbourhood of the original outputs was used.
    pub near: NearMutants,
    /// The mutants of each kind, in [`MutantKind`] order (kinds with
    /// mutants only).
    pub kinds: Vec<KindCount>,
    /// Paper IV's count: each test input run once with a mutant at one of
    /// the points it called (a near one when there are any), an input that
    /// calls nothing counting as a survivor. Unlike [`Report::score`], it
    /// falls when the property is vacuous on many inputs. Not counted in
    /// [`Report::runs`]; `score_lazy` leaves it empty.
    pub cases: CaseScore,
    shown: usize,
}

impl<A, B> Report<A, B> {
    /// `killed / mutants`, or `None` when there is no mutant.
    pub fn score(&self) -> Option<f64> {
        (self.mutants > 0).then(|| self.killed as f64 / self.mutants as f64)
    }

    /// One line: `property <name> mutants <n> killed <k> score <k/n>`, the
    /// score with three decimals (`n/a` without mutants).
    pub fn line(&self, property: &str) -> String {
        let score = self
            .score()
            .map_or_else(|| "n/a".to_string(), |s| format!("{s:.3}"));
        format!(
            "property {property} mutants {} killed {} score {score}",
            self.mutants, self.killed
        )
    }
}

impl<A: fmt::Debug, B: fmt::Debug> fmt::Display for Report<A, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let score = self
            .score()
            .map_or_else(|| "n/a".to_string(), |s| format!("{s:.3}"));
        writeln!(
            f,
            "mutation score of the property for `{}`: {score} ({} of {} mutants killed)",
            self.function, self.killed, self.mutants
        )?;
        write!(
            f,
            "  {} test inputs called the function at {} points; {} mutants",
            self.inputs, self.points, self.mutants
        )?;
        if self.sampled {
            write!(f, " sampled from {} pairs", self.pairs)?;
        }
        writeln!(
            f,
            " ({} equivalent left out); {} runs",
            self.equivalent, self.runs
        )?;
        if self.budget_exhausted {
            writeln!(
                f,
                "  the budget of runs ran out: {} mutants undecided (not counted as killed)",
                self.undecided
            )?;
        }
        match self.near {
            NearMutants::PerPoint(n) => writeln!(
                f,
                "  mutants near the original outputs: up to {n} per point, each output changed \
                 in one place"
            )?,
            NearMutants::Off => writeln!(
                f,
                "  no mutants near the original outputs (turned off, or the lazy form, which has none)"
            )?,
            NearMutants::Unavailable => writeln!(
                f,
                "  no mutants near the original outputs: the output type can not be taken \
                 apart (small replacements only)"
            )?,
        }
        if let Some(cases) = self.cases.score() {
            writeln!(
                f,
                "  one mutant per test input (Paper IV's count): {cases:.3} ({} of {} inputs \
                 killed theirs; {} never called the function)",
                self.cases.killed, self.cases.inputs, self.cases.vacuous
            )?;
        }
        for k in &self.kinds {
            writeln!(
                f,
                "    {}: {} mutants, {} killed, {} survived",
                k.kind.describe(),
                k.mutants,
                k.killed,
                k.survived
            )?;
        }
        if !self.survivors.is_empty() {
            writeln!(
                f,
                "  {} survivors (smallest first{}):",
                self.survivors.len(),
                if self.survivors.len() > self.shown {
                    format!(", {} shown", self.shown)
                } else {
                    String::new()
                }
            )?;
            for m in self.survivors.iter().take(self.shown) {
                writeln!(
                    f,
                    "    your property still passes if `{}` returned `{:?}` (instead of `{:?}`)",
                    call_text(&self.function, &m.point),
                    m.replacement,
                    m.original
                )?;
            }
        }
        Ok(())
    }
}

/// `f(args)`: a tuple point is printed as the argument list.
fn call_text<A: fmt::Debug>(function: &str, point: &A) -> String {
    let args = format!("{point:?}");
    if args.starts_with('(') && args.ends_with(')') {
        format!("{function}{args}")
    } else {
        format!("{function}({args})")
    }
}

/// The calls of the original function made by the recording runs.
struct Calls<A, B> {
    /// Each point once, in the order of its first call, with its output.
    points: Vec<(A, B)>,
    ids: HashMap<A, usize>,
    /// The points the current run called (ids, in call order, repeated).
    current: Vec<usize>,
    /// Set when a point was answered differently.
    nondeterministic: Option<usize>,
}

/// Scores `property` as a specification of `function` (named `name` in the
/// report): every mutant of the function (see the [module](self) docs) is
/// run through the property on the test inputs, and the report gives the
/// fraction killed and the survivors.
///
/// The property receives the function to test (the original or a mutant)
/// and one test input; it must pass for the original on every test input.
///
/// # Errors
/// [`MutationError::OriginalFails`] when the property fails (or panics)
/// with the original function; [`MutationError::Nondeterministic`] when
/// the function answers one input with two outputs.
pub fn score<A, B, X, F, P>(
    config: &MutationConfig,
    name: &str,
    function: F,
    property: P,
) -> Result<Report<A, B>, MutationError>
where
    A: Clone + Eq + Hash + fmt::Debug,
    B: Enumerable + Clone + PartialEq + fmt::Debug,
    X: Enumerable + Clone + fmt::Debug,
    F: Fn(&A) -> B,
    P: Fn(&dyn Fn(&A) -> B, X) -> bool,
{
    let _quiet = Quiet::new();
    let inputs = test_inputs::<X>(config);
    let (calls, callers) = record(&inputs, &function, &property)?;
    let points = calls.points;

    let outputs = Indexer::<B>::new();
    let replacements = outputs.cardinality_up_to(config.output_size);
    let (pairs, sampled, chosen) = mutant_grid(points.len(), &replacements, config);
    // Without sampling every replacement is needed, once per point.
    let all_replacements: Vec<B> = if sampled || points.is_empty() {
        vec![]
    } else {
        let n = replacements.to_usize().unwrap_or(0);
        (0..n)
            .map(|j| outputs.value_at(&BigUint::from(j)))
            .collect()
    };

    let mut report = Report {
        function: name.to_string(),
        mutants: 0,
        killed: 0,
        survivors: vec![],
        undecided: 0,
        equivalent: 0,
        inputs: inputs.len(),
        points: points.len(),
        pairs: pairs.clone(),
        sampled,
        runs: 0,
        runs_without_skipping: 0,
        budget_exhausted: false,
        near: NearMutants::Off,
        kinds: vec![],
        cases: CaseScore::default(),
        shown: config.shown,
    };
    let every_input: Vec<usize> = (0..inputs.len()).collect();
    let mut tally: BTreeMap<MutantKind, KindCount> = BTreeMap::new();
    // Runs the property on one mutant (the replacement at point `p`) until
    // a test input kills it, and counts it.
    let mut decide = |report: &mut Report<A, B>, p: usize, replacement: B, kind: MutantKind| {
        let (point, original) = &points[p];
        let count = tally.entry(kind).or_insert(KindCount {
            kind,
            mutants: 0,
            killed: 0,
            survived: 0,
        });
        report.mutants += 1;
        count.mutants += 1;
        if report.budget_exhausted {
            report.undecided += 1;
            return;
        }
        let mutant = mutant_of(&function, point, &replacement);
        let order = if config.skip_uncalled {
            &callers[p]
        } else {
            &every_input
        };
        let mut verdict = Verdict::Survived;
        for &t in order {
            if report.runs >= config.max_runs {
                verdict = Verdict::Undecided;
                report.budget_exhausted = true;
                break;
            }
            report.runs += 1;
            if !passes(&property, &mutant, inputs[t].clone()).0 {
                verdict = Verdict::Killed(t);
                break;
            }
        }
        // It borrows the replacement, which a survivor keeps.
        drop(mutant);
        match verdict {
            Verdict::Killed(t) => {
                report.killed += 1;
                count.killed += 1;
                report.runs_without_skipping += t as u64 + 1;
            }
            Verdict::Survived => {
                count.survived += 1;
                report.runs_without_skipping += inputs.len() as u64;
                report.survivors.push(Mutant {
                    point: point.clone(),
                    original: original.clone(),
                    replacement,
                    kind,
                });
            }
            Verdict::Undecided => report.undecided += 1,
        }
    };
    for g in &chosen {
        let p = (g / &replacements).to_usize().expect("a point index");
        let j = g % &replacements;
        let replacement = if sampled {
            outputs.value_at(&j)
        } else {
            all_replacements[j.to_usize().expect("a replacement index")].clone()
        };
        if replacement == points[p].1 {
            report.equivalent += 1;
            continue;
        }
        decide(&mut report, p, replacement, MutantKind::Small);
    }
    // The near mutants of each point (none when turned off or when the
    // output type can not be taken apart).
    let near_of: Vec<Vec<(MutantKind, B, usize)>> = if config.near_mutants == 0 {
        vec![]
    } else {
        let taken_apart: Option<Vec<_>> = points
            .iter()
            .map(|(_, original)| near::near_values(original, config.near_mutants))
            .collect();
        report.near = match taken_apart {
            Some(_) => NearMutants::PerPoint(config.near_mutants),
            None => NearMutants::Unavailable,
        };
        taken_apart.unwrap_or_default()
    };
    for (p, near) in near_of.iter().enumerate() {
        for (kind, replacement, size) in near {
            // Every value up to the output size is already a small
            // replacement of every point (unless they were sampled).
            if !sampled && *size <= config.output_size {
                continue;
            }
            decide(&mut report, p, replacement.clone(), *kind);
        }
    }
    report.cases = test_case_score(
        config,
        &inputs,
        &callers,
        &points,
        &near_of,
        &outputs,
        &replacements,
        &mut |p: usize, replacement: &B, t: usize| {
            let mutant = mutant_of(&function, &points[p].0, replacement);
            passes(&property, &mutant, inputs[t].clone()).0
        },
    );
    report.kinds = tally.into_values().collect();
    Ok(report)
}

/// [`score`], then a panic with the report (survivors included) when the
/// score is below `min` (or there is no mutant, or the run failed): the
/// form for `cargo test`. Returns the report otherwise.
///
/// # Panics
/// As said; the message is the report.
pub fn assert_score<A, B, X, F, P>(
    min: f64,
    config: &MutationConfig,
    name: &str,
    function: F,
    property: P,
) -> Report<A, B>
where
    A: Clone + Eq + Hash + fmt::Debug,
    B: Enumerable + Clone + PartialEq + fmt::Debug,
    X: Enumerable + Clone + fmt::Debug,
    F: Fn(&A) -> B,
    P: Fn(&dyn Fn(&A) -> B, X) -> bool,
{
    let report = match score(config, name, function, property) {
        Ok(r) => r,
        Err(e) => panic!("mutation testing of `{name}` failed: {e}"),
    };
    match report.score() {
        Some(s) if s >= min => report,
        Some(s) => panic!(
            "the property's mutation score for `{name}` is {s:.3}, below the required {min:.3}\n{report}"
        ),
        None => panic!(
            "no mutant of `{name}` to score (no test input called it, or every replacement \
             equals the original output)\n{report}"
        ),
    }
}

/// The function with `replacement` as its output at `point`.
fn mutant_of<'a, A: PartialEq, B: Clone>(
    function: &'a impl Fn(&A) -> B,
    point: &'a A,
    replacement: &'a B,
) -> impl Fn(&A) -> B + 'a {
    move |y: &A| {
        if y == point {
            replacement.clone()
        } else {
            function(y)
        }
    }
}

enum Verdict {
    Killed(usize),
    Survived,
    Undecided,
}

/// Paper IV's count, one mutant per test input: each input runs once with
/// a mutant at one of the points it called (a near mutant when there are
/// any, else a small replacement; chosen by the seed), and an input that
/// never calls the function counts as a survivor, as its mutant is the
/// original function. A property that is vacuous on many inputs (a false
/// precondition) scores lower here than one that tests them all.
#[allow(clippy::too_many_arguments)]
fn test_case_score<X, A, B: Enumerable + Clone + PartialEq>(
    config: &MutationConfig,
    inputs: &[X],
    callers: &Callers,
    points: &[(A, B)],
    near_of: &[Vec<(MutantKind, B, usize)>],
    outputs: &Indexer<B>,
    replacements: &BigUint,
    passes_with: &mut dyn FnMut(usize, &B, usize) -> bool,
) -> CaseScore {
    // The first small values, built once: the replacements of points
    // without near mutants.
    let smallest: Vec<B> = (0..replacements.to_u64().unwrap_or(u64::MAX).min(64))
        .map(|j| outputs.value_at(&BigUint::from(j)))
        .collect();
    let mut calls_of: Vec<Vec<usize>> = vec![vec![]; inputs.len()];
    for (p, ts) in callers.iter().enumerate() {
        for &t in ts {
            calls_of[t].push(p);
        }
    }
    let mut rng = SeedRng::seed_from_u64(config.seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut score = CaseScore {
        inputs: inputs.len(),
        killed: 0,
        vacuous: 0,
    };
    for (t, called) in calls_of.iter().enumerate() {
        if called.is_empty() {
            score.vacuous += 1;
            continue;
        }
        let p = called[uniform_below_small(called.len() as u128, &mut rng) as usize];
        let original = &points[p].1;
        let replacement = match near_of.get(p).filter(|near| !near.is_empty()) {
            Some(near) => near[uniform_below_small(near.len() as u128, &mut rng) as usize]
                .1
                .clone(),
            None => {
                // A small replacement other than the original, if any.
                let candidates: Vec<&B> = smallest.iter().filter(|b| *b != original).collect();
                if candidates.is_empty() {
                    continue;
                }
                candidates[uniform_below_small(candidates.len() as u128, &mut rng) as usize].clone()
            }
        };
        if !passes_with(p, &replacement, t) {
            score.killed += 1;
        }
    }
    score
}

/// Paper IV's count of a mutation run: one mutant per test input (see
/// [`Report::cases`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct CaseScore {
    /// Test inputs.
    pub inputs: usize,
    /// Inputs whose run with their mutant failed.
    pub killed: usize,
    /// Inputs that never called the function (their mutant is the
    /// original: survivors).
    pub vacuous: usize,
}

impl CaseScore {
    /// `killed / inputs`, or `None` without inputs.
    pub fn score(&self) -> Option<f64> {
        (self.inputs > 0).then(|| self.killed as f64 / self.inputs as f64)
    }
}

/// The test inputs: every value up to the size bound, smallest first, at
/// most `max_inputs` of them.
fn test_inputs<X: Enumerable>(config: &MutationConfig) -> Vec<X> {
    let indexer = Indexer::<X>::new();
    let mut inputs = vec![];
    'sizes: for size in 0..=config.input_size {
        let count = indexer.cardinality(size);
        let mut i = BigUint::zero();
        while i < count {
            if inputs.len() >= config.max_inputs {
                break 'sizes;
            }
            inputs.push(indexer.index(size, &i));
            i += 1u32;
        }
    }
    inputs
}

type Callers = Vec<Vec<usize>>;

/// Runs the property once per test input with the original function,
/// recording every call: the points, their outputs, and for each point the
/// test inputs that called it (ascending).
fn record<A, B, X, F, P>(
    inputs: &[X],
    function: &F,
    property: &P,
) -> Result<(Calls<A, B>, Callers), MutationError>
where
    A: Clone + Eq + Hash + fmt::Debug,
    B: Clone + PartialEq,
    X: Clone + fmt::Debug,
    F: Fn(&A) -> B,
    P: Fn(&dyn Fn(&A) -> B, X) -> bool,
{
    let calls = RefCell::new(Calls {
        points: vec![],
        ids: HashMap::new(),
        current: vec![],
        nondeterministic: None,
    });
    let recording = |a: &A| {
        let out = function(a);
        let mut c = calls.borrow_mut();
        let known = c.ids.get(a).copied();
        let id = match known {
            Some(id) => {
                if c.points[id].1 != out && c.nondeterministic.is_none() {
                    c.nondeterministic = Some(id);
                }
                id
            }
            None => {
                let id = c.points.len();
                c.points.push((a.clone(), out.clone()));
                c.ids.insert(a.clone(), id);
                id
            }
        };
        c.current.push(id);
        out
    };
    let mut callers: Callers = vec![];
    for (t, x) in inputs.iter().enumerate() {
        calls.borrow_mut().current.clear();
        let (ok, panic) = passes(property, &recording, x.clone());
        let mut c = calls.borrow_mut();
        if let Some(id) = c.nondeterministic {
            return Err(MutationError::Nondeterministic {
                point: format!("{:?}", c.points[id].0),
            });
        }
        if !ok {
            return Err(MutationError::OriginalFails {
                input: format!("{x:?}"),
                panic,
            });
        }
        callers.resize(c.points.len(), vec![]);
        let current = std::mem::take(&mut c.current);
        for id in current {
            if callers[id].last() != Some(&t) {
                callers[id].push(t);
            }
        }
    }
    Ok((calls.into_inner(), callers))
}

/// One run of the property: whether it passed, and the message if it
/// panicked. neatcheck's own errors are raised again, never verdicts.
fn passes<A, B, X, P>(property: &P, f: &dyn Fn(&A) -> B, x: X) -> (bool, Option<String>)
where
    P: Fn(&dyn Fn(&A) -> B, X) -> bool,
{
    match catch_unwind(AssertUnwindSafe(|| property(f, x))) {
        Ok(ok) => (ok, None),
        Err(payload) => (false, panic_message(payload)),
    }
}

/// The message of a panic of the user's code; neatcheck's own errors are
/// raised again, never verdicts.
fn panic_message(payload: Box<dyn std::any::Any + Send>) -> Option<String> {
    if internal::message_of(payload.as_ref()).is_some() {
        resume_unwind(payload);
    }
    Some(
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string()),
    )
}

/// The (point, replacement) pairs (`point * replacements + replacement`)
/// to score, ascending: all of them, or a seeded sample of
/// [`MutationConfig::max_mutants`]. Returns their number, whether they were
/// sampled, and the chosen ones.
fn mutant_grid(
    points: usize,
    replacements: &BigUint,
    config: &MutationConfig,
) -> (BigUint, bool, Vec<BigUint>) {
    let pairs = BigUint::from(points) * replacements;
    let sampled = pairs > BigUint::from(config.max_mutants);
    let chosen: Vec<BigUint> = if sampled {
        sample_distinct(&pairs, config.max_mutants, config.seed)
    } else {
        let n = pairs.to_usize().unwrap_or(0);
        (0..n).map(BigUint::from).collect()
    };
    (pairs, sampled, chosen)
}

/// `k` distinct numbers below `n` (k < n), uniform, ascending (Floyd's
/// algorithm: one draw per number, no rejection loop).
fn sample_distinct(n: &BigUint, k: usize, seed: u64) -> Vec<BigUint> {
    let mut rng = SeedRng::seed_from_u64(seed);
    let mut chosen = BTreeSet::new();
    let mut j = n - BigUint::from(k);
    while &j < n {
        let t = uniform_below(&(&j + 1u32), &mut rng);
        if !chosen.insert(t) {
            chosen.insert(j.clone());
        }
        j += 1u32;
    }
    chosen.into_iter().collect()
}

mod lazy_output;
mod near;
pub use lazy_output::score_lazy;
pub use near::{near_mutants, MutantKind};

#[cfg(test)]
mod tests;

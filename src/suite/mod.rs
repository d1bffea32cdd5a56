//! Glass-box regression suites (after Fischer and Kuchen, "Systematic
//! Generation of Glass-Box Test Cases for Functional Logic Programs"): the
//! classes of a function's inputs up to a size bound, each with its
//! smallest representative, demand pattern and output ([`record`]); their
//! reduction to a small suite by a coverage criterion and a greedy set
//! cover ([`Recording::reduce`]); and its export as a `#[cfg(test)]`
//! module of Rust tests ([`Suite::to_rust`], [`Suite::snapshot`]).
//!
//! The lazy search runs the function once per class of inputs it cannot
//! tell apart (the positions it demanded); the run's value has every
//! position it did not demand at its smallest alternative, so it is the
//! class's smallest member. Each class is one candidate test case, with
//! the *coverage items* it exercises under the chosen [`Criterion`]:
//!
//! - [`Criterion::Demand`] (the default): each demanded position with the
//!   constructor (or leaf value) found there, positions named by their path
//!   of field indices from the root (`$.1.0 = Cons`). Every class whose
//!   pattern reaches a position-constructor pair no other kept class
//!   reaches is kept.
//! - [`Criterion::Shape`]: the coarser abstraction of the same demand, each
//!   demanded constructor under the constructor and field that hold it
//!   (`Add.0 = Num`), wherever it is; leaf values are not told apart. Close
//!   to the paper's data-flow view (which constructor meets which case),
//!   and much smaller suites on recursive types.
//! - [`Criterion::Labels`]: the labels the run attached ([`crate::label`],
//!   [`crate::collect`]).
//! - [`Criterion::Branches`]: the branches the run marked with [`branch`]
//!   (the paper's branch coverage, with the labelling done by hand; a label
//!   naming the caller too gives its function coverage).
//! - [`Criterion::Classes`]: every class is its own item (no reduction).
//!
//! The reduction is the paper's: a greedy set cover picks, while some item
//! is uncovered, the class covering the most uncovered items (the first in
//! search order among equals, so the smallest), and keeps the picked
//! classes in search order.
//!
//! ```
//! use neatcheck::suite::{self, Criterion, Export};
//! use neatcheck::Lazy;
//!
//! // The function under test reads its input lazily.
//! fn first_true(xs: Lazy<Vec<bool>>) -> Option<usize> {
//!     xs.iter().position(|b| b.get())
//! }
//!
//! let all = suite::record(first_true, 5).unwrap();
//! // Lists of size <= 5 (a list of n booleans has size 1 + 2n): 1 + 2 + 4.
//! assert_eq!(all.values, 7u32.into());
//! // The function cannot tell apart lists that agree up to the first
//! // `true`: [], [true, ..], [false], [false, true], [false, false].
//! assert_eq!(all.cases.len(), 5);
//! // Each class reaches some position-constructor pair alone...
//! assert_eq!(all.reduce(Criterion::Demand).tests(), 5);
//! // ...but three cover every constructor in every field.
//! let kept = all.reduce(Criterion::Shape);
//! assert_eq!(kept.tests(), 3);
//! let source = kept.to_rust(&Export::new("first_true_suite", "first_true(&{input})"));
//! assert!(source.contains("assert_eq!(first_true(&input), expected);"));
//! ```

mod export;
mod expr;
#[cfg(test)]
mod tests;

pub use export::{Export, SnapshotError, SnapshotStatus, SNAPSHOT_ENV};
pub use expr::{Expr, RustExpr};
/// Derives [`RustExpr`](trait@RustExpr) for a struct or enum (its type parameters must be
/// `RustExpr` too).
pub use neatcheck_derive::RustExpr;

use crate::check::labels;
use crate::describe::{Shape, Space};
use crate::engine::{RunResult, Searcher};
use crate::grammar::Grammar;
use crate::handle::Lazy;
use crate::report::Pattern;
use crate::types::Enumerable;
use num_bigint::BigUint;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::fmt;

/// The deepest value a case may hold: the expressions of inputs and
/// outputs are built and printed by recursion, so deeper values are
/// refused with [`SuiteError::TooDeep`] rather than risk the stack.
pub const MAX_DEPTH: usize = 256;

thread_local! {
    /// The branches marked in the run under way, while a suite explores on
    /// this thread.
    static BRANCHES: RefCell<Option<Vec<String>>> = const { RefCell::new(None) };
}

/// Marks a branch of the function under test as taken in the current run,
/// for [`Criterion::Branches`]: put `suite::branch("add: left is zero")` at
/// the start of each branch (match arm, `if` side) that the suite should
/// cover. Does nothing outside [`record`] (so it can stay in the code).
pub fn branch(name: impl Into<String>) {
    BRANCHES.with(|b| {
        if let Some(v) = b.borrow_mut().as_mut() {
            v.push(name.into());
        }
    });
}

/// While alive, [`branch`] records on this thread.
struct BranchScope {
    was: Option<Vec<String>>,
}

impl BranchScope {
    fn new() -> BranchScope {
        BranchScope {
            was: BRANCHES.with(|b| b.borrow_mut().replace(vec![])),
        }
    }

    /// The branches marked since the last call.
    fn take(&self) -> Vec<String> {
        BRANCHES.with(|b| {
            b.borrow_mut()
                .as_mut()
                .map(std::mem::take)
                .unwrap_or_default()
        })
    }
}

impl Drop for BranchScope {
    fn drop(&mut self) {
        let was = self.was.take();
        BRANCHES.with(|b| *b.borrow_mut() = was);
    }
}

/// What the function did on a class's representative.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaseOutcome {
    /// It returned this value (as an expression rebuilding it).
    Returned(Expr),
    /// It panicked with this message.
    Panicked(String),
}

/// One class of inputs: the test case it stands for.
#[derive(Clone, Debug)]
pub struct Case {
    /// The class's position in search order (from 0): its name in the
    /// generated suite.
    pub index: usize,
    /// The smallest input of the class, as the function's arguments (one
    /// per tuple component, see [`RustExpr::rust_args`]).
    pub args: Vec<Expr>,
    /// The same input as one expression.
    pub input: Expr,
    /// The demand pattern: the part of the input the function read (`_`
    /// for positions it never demanded), with constructor names.
    pub pattern: String,
    /// The same pattern, for matching values ([`Pattern::matches`]).
    pub pattern_tree: Pattern,
    /// What the function did.
    pub outcome: CaseOutcome,
    /// The size of the input.
    pub size: u64,
    /// The replay key naming the input (`v1.<size>.<index>.<check>`).
    pub key: String,
    /// The labels the run attached ([`crate::label`]), in order.
    pub labels: Vec<String>,
    /// The branches the run marked ([`branch`]), in order.
    pub branches: Vec<String>,
    /// The demand items of the pattern (see [`Criterion::Demand`]).
    pub demand: Vec<String>,
    /// The coarse demand items of the pattern (see [`Criterion::Shape`]).
    pub shape: Vec<String>,
}

impl Case {
    /// The coverage items of this case under a criterion, sorted, without
    /// repeats.
    pub fn items(&self, criterion: Criterion) -> BTreeSet<String> {
        match criterion {
            Criterion::Demand => self.demand.iter().cloned().collect(),
            Criterion::Shape => self.shape.iter().cloned().collect(),
            Criterion::Labels => self.labels.iter().cloned().collect(),
            Criterion::Branches => self.branches.iter().cloned().collect(),
            Criterion::Classes => BTreeSet::from([format!("class {}", self.index)]),
        }
    }
}

/// Which coverage items a suite must cover (see the [module](self) docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Criterion {
    /// Every demanded (position, constructor or leaf value) pair.
    #[default]
    Demand,
    /// Every demanded constructor under each (constructor, field) holding
    /// it, wherever in the value.
    Shape,
    /// Every label attached by a run ([`crate::label`]).
    Labels,
    /// Every branch marked by a run ([`branch`]).
    Branches,
    /// Every class: no reduction.
    Classes,
}

impl fmt::Display for Criterion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Criterion::Demand => "demanded positions",
            Criterion::Shape => "demanded constructors per field",
            Criterion::Labels => "labels",
            Criterion::Branches => "marked branches",
            Criterion::Classes => "classes",
        })
    }
}

/// Why a function's classes could not be explored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SuiteError {
    /// A class's input or output is nested deeper than [`MAX_DEPTH`].
    TooDeep {
        /// The class's input, as neatcheck prints it.
        input: String,
        /// Its nesting depth.
        depth: usize,
    },
    /// neatcheck's own error (an inconsistent description), not the
    /// function's.
    Internal(String),
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SuiteError::TooDeep { input, depth } => write!(
                f,
                "neatcheck::suite: the input {input} is nested {depth} deep, deeper than a \
                 generated test may hold ({MAX_DEPTH}); lower the bound"
            ),
            SuiteError::Internal(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for SuiteError {}

/// Every class of a function's inputs up to a size bound (see [`record`]).
#[derive(Clone, Debug)]
pub struct Recording {
    /// The classes, in search order (smaller inputs first within each
    /// branch of the search).
    pub cases: Vec<Case>,
    /// The size bound.
    pub bound: usize,
    /// The number of inputs of size `<= bound` (the classes partition them).
    pub values: BigUint,
    /// The Rust types of the input, its arguments and the output, where
    /// known ([`RustExpr::rust_type`]): the export annotates its `let`s.
    pub(crate) types: ExportTypes,
}

/// The Rust types an exported test binds its values with, where their
/// [`RustExpr`] implementations say them.
#[derive(Clone, Debug, Default)]
pub(crate) struct ExportTypes {
    pub(crate) input: Option<String>,
    pub(crate) args: Option<Vec<String>>,
    pub(crate) output: Option<String>,
}

/// The classes of the inputs of `f` of size `<= bound`, each with its
/// smallest member, its demand pattern and what `f` did on it. `f` reads
/// its input through a lazy handle; the fewer positions it demands, the
/// fewer classes. It must be deterministic (the same output for the same
/// input): its output is recorded once per class.
///
/// # Errors
/// [`SuiteError`] when an input or output is too deep to export, or on
/// neatcheck's own error.
pub fn record<T, O>(f: impl Fn(Lazy<'_, T>) -> O, bound: usize) -> Result<Recording, SuiteError>
where
    T: Enumerable + RustExpr,
    O: RustExpr,
{
    record_searcher(Searcher::<T>::new(bound), &f, bound)
}

/// [`record`] for a function of plain values: each input is forced whole,
/// so every value is its own class.
///
/// # Errors
/// As [`record`].
pub fn record_forced<T, O>(f: impl Fn(T) -> O, bound: usize) -> Result<Recording, SuiteError>
where
    T: Enumerable + RustExpr,
    O: RustExpr,
{
    record(|x: Lazy<'_, T>| f(x.force()), bound)
}

/// [`record`] over a given space of inputs.
///
/// # Errors
/// As [`record`].
pub fn record_in<T, O>(
    space: &Space<T>,
    f: impl Fn(Lazy<'_, T>) -> O,
    bound: usize,
) -> Result<Recording, SuiteError>
where
    T: RustExpr + 'static,
    O: RustExpr,
{
    record_searcher(Searcher::with_space(space, bound), &f, bound)
}

fn record_searcher<T: RustExpr + 'static, O: RustExpr>(
    mut s: Searcher<T>,
    f: &dyn Fn(Lazy<'_, T>) -> O,
    bound: usize,
) -> Result<Recording, SuiteError> {
    let _quiet = crate::internal::quiet::Quiet::new();
    let labels_scope = labels::Scope::new();
    let branches_scope = BranchScope::new();
    let mut cases = vec![];
    loop {
        let mut output = None;
        let Some(result) = s.step(|x| output = Some(f(x).rust_expr())) else {
            break;
        };
        let labels = labels::take().labels;
        let branches = branches_scope.take();
        let outcome = match (result, output) {
            (_, Some(e)) => CaseOutcome::Returned(e),
            (RunResult::Panicked(m), None) => {
                if let Some(m) = internal_error(&s) {
                    return Err(SuiteError::Internal(m));
                }
                CaseOutcome::Panicked(m)
            }
            (r, None) => unreachable!("a run that returned nothing ended with {r:?}"),
        };
        let tree = s.tree();
        let g = s.grammar().clone();
        let depth = crate::report::nesting_depth(&g, &tree);
        if depth > MAX_DEPTH {
            return Err(SuiteError::TooDeep {
                input: crate::report::show_tree(&g, &tree),
                depth,
            });
        }
        // The pattern's run repeats the function: what it labels or marks
        // again is not the case's.
        let pattern_tree = s.pattern(|x| {
            let _ = f(x);
        });
        let _ = labels::take();
        let _ = branches_scope.take();
        let value = s.value();
        let (demand, shape) = demand_items(&g, &pattern_tree);
        cases.push(Case {
            index: cases.len(),
            args: value.rust_args(),
            input: value.rust_expr(),
            pattern: s.show(&pattern_tree),
            pattern_tree,
            outcome,
            size: s.size(),
            key: crate::replay::key_of(&g, &tree),
            labels,
            branches,
            demand,
            shape,
        });
    }
    drop(labels_scope);
    let g = s.grammar().clone();
    let values = (0..=bound)
        .map(|n| crate::index::cardinality_in(&g, n))
        .sum();
    Ok(Recording {
        cases,
        bound,
        values,
        types: ExportTypes {
            input: T::rust_type(),
            args: T::rust_arg_types(),
            output: O::rust_type(),
        },
    })
}

/// neatcheck's own error in the run made last, if it ended with one.
fn internal_error<T: 'static>(s: &Searcher<T>) -> Option<String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| s.raise_internal()))
        .err()
        .map(|p| crate::engine::panic_message(&*p))
}

/// The name of an alternative in coverage items.
fn ctor_name(g: &Grammar, prod: crate::grammar::ProdId) -> String {
    let p = &g.prods[prod.index()];
    match p.shape.as_deref() {
        Some(Shape::Nil) => "[]".to_string(),
        Some(Shape::Cons) => "[_, ..]".to_string(),
        Some(Shape::Tuple) => "(..)".to_string(),
        Some(Shape::Ctor { name, .. }) => name.to_string(),
        Some(Shape::Plain) | None => format!("#{}", p.tag),
    }
}

/// The demand items of a pattern: (path, constructor or leaf value) pairs,
/// and (holding constructor and field, constructor) triples. Iterative:
/// patterns may be deep.
fn demand_items(g: &Grammar, p: &Pattern) -> (Vec<String>, Vec<String>) {
    let mut demand = vec![];
    let mut shape = vec![];
    let mut stack: Vec<(&Pattern, String, String)> = vec![(p, "$".into(), "$".into())];
    while let Some((p, path, holder)) = stack.pop() {
        match p {
            Pattern::Hole => {}
            Pattern::Leaf(..) => {
                let text = crate::report::show_pattern(g, p);
                demand.push(format!("{path} = {text}"));
                shape.push(format!("{holder} = (leaf)"));
            }
            Pattern::Node(prod, kids) => {
                let name = ctor_name(g, *prod);
                demand.push(format!("{path} = {name}"));
                shape.push(format!("{holder} = {name}"));
                for (i, k) in kids.iter().enumerate().rev() {
                    stack.push((k, format!("{path}.{i}"), format!("{name}.{i}")));
                }
            }
        }
    }
    (demand, shape)
}

/// A reduced suite: the classes kept by a greedy set cover (see
/// [`Recording::reduce`]).
#[derive(Clone, Debug)]
pub struct Suite {
    /// The kept cases, in search order.
    pub cases: Vec<Case>,
    /// The criterion whose items they cover.
    pub criterion: Criterion,
    /// The items covered (every item of every class: the cover is
    /// complete), sorted.
    pub items: Vec<String>,
    /// The number of classes it was reduced from.
    pub classes: usize,
    /// The number of inputs of size `<= bound`.
    pub values: BigUint,
    /// The size bound.
    pub bound: usize,
    pub(crate) types: ExportTypes,
}

impl Recording {
    /// The smallest suite the greedy set cover finds: classes are picked
    /// while some item of the criterion is uncovered, each time the one
    /// covering the most uncovered items (the first in search order among
    /// equals); classes with no item are never kept.
    pub fn reduce(&self, criterion: Criterion) -> Suite {
        let items: Vec<BTreeSet<String>> = self.cases.iter().map(|c| c.items(criterion)).collect();
        let universe: BTreeSet<String> = items.iter().flatten().cloned().collect();
        let mut uncovered = universe.clone();
        let mut kept = vec![];
        while !uncovered.is_empty() {
            let (best, gain) = items
                .iter()
                .enumerate()
                .map(|(i, its)| (i, its.iter().filter(|x| uncovered.contains(*x)).count()))
                // The first of the largest: `max_by_key` keeps the last.
                .fold((0, 0), |acc, (i, n)| if n > acc.1 { (i, n) } else { acc });
            debug_assert!(gain > 0, "an uncovered item belongs to some class");
            for x in &items[best] {
                uncovered.remove(x);
            }
            kept.push(best);
        }
        kept.sort_unstable();
        Suite {
            cases: kept.into_iter().map(|i| self.cases[i].clone()).collect(),
            criterion,
            items: universe.into_iter().collect(),
            classes: self.cases.len(),
            values: self.values.clone(),
            bound: self.bound,
            types: self.types.clone(),
        }
    }
}

impl Suite {
    /// The number of tests.
    pub fn tests(&self) -> usize {
        self.cases.len()
    }

    /// One line: tests against items, classes and values.
    pub fn summary(&self) -> String {
        format!(
            "{} tests cover the {} items ({}) of {} classes of the {} inputs of size <= {}",
            self.tests(),
            self.items.len(),
            self.criterion,
            self.classes,
            self.values,
            self.bound
        )
    }
}

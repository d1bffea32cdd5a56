//! Uniform random values that satisfy a lazy predicate: the sampler of
//! Claessen, Duregård and Pałka ("Generating Constrained Random Data with
//! Uniform Distribution"), built on neatcheck's lazy handles.
//!
//! Rejection sampling (draw a uniform value, keep it if the predicate holds)
//! fails as soon as satisfying values are rare: strictly increasing byte
//! lists of size 40, valid search trees, well-typed terms. A [`Sampler`]
//! draws a uniform index among the values of a size, builds that value,
//! runs the predicate on it through lazy handles and, when the predicate is
//! false, removes from the space *every* value that agrees with this one on
//! the positions the run read (the predicate can not tell them apart, so it
//! is false on all of them). The next index is drawn among the values left.
//! Every satisfying value is always left, and every draw is uniform among
//! the values left, so the value returned is uniform among the satisfying
//! ones (Paper III, Theorem 2). A run that returns true marks its whole
//! class as satisfying: later draws that land in it need no run.
//!
//! ```
//! use neatcheck::constrained::Sampler;
//! use neatcheck::index::seeded_rng;
//! use neatcheck::Lazy;
//!
//! // Strictly increasing lists, read one element at a time.
//! fn increasing(xs: Lazy<'_, Vec<u8>>) -> bool {
//!     let mut last = None;
//!     for x in xs.iter().map(|x| x.get()) {
//!         if last.is_some_and(|l| l >= x) {
//!             return false;
//!         }
//!         last = Some(x);
//!     }
//!     true
//! }
//!
//! let mut sampler = Sampler::new(increasing);
//! let mut rng = seeded_rng(7);
//! for _ in 0..20 {
//!     let xs: Vec<u8> = sampler.sample(24, &mut rng).unwrap().expect("some list of size 24 is increasing");
//!     assert!(xs.windows(2).all(|w| w[0] < w[1]));
//! }
//! ```
//!
//! The removed parts are kept as a tree of refinements per size (memory
//! grows with the number of rejections, [`Stats::nodes`]); later draws
//! descend it instead of recounting the space. [`Method`] trades exact
//! uniformity for speed with the paper's bounded backtracking, and
//! [`Sampler::count`] counts the satisfying values of a size, exactly when
//! its run budget allows and as bounds and an estimate otherwise.
//!
//! The predicate must be a function of what it reads (no global state, no
//! randomness): a sampler that sees it read differently on the same input
//! prefix stops with [`SampleError::Inconsistent`].

pub(crate) mod count;
pub(crate) mod pruned;
#[cfg(test)]
mod tests;

use crate::describe::Space;
use crate::engine::{RunResult, Searcher};
use crate::grammar::{compile_space, downcast, Grammar, Tree};
use crate::handle::Lazy;
use crate::index::uniform_below;
use crate::types::grammar_of;
use crate::Enumerable;
use count::Count;
use num_bigint::BigUint;
use pruned::Pruned;
use rand::Rng;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::RangeInclusive;
use std::rc::Rc;

/// What a draw does after the predicate rejected a value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// Draws a new index, independently: every satisfying value of the
    /// size is equally likely (exactly uniform).
    #[default]
    Uniform,
    /// Bounded backtracking (Paper III, section 5.1): tries the next value
    /// left in index order instead, until more than `skip` values were
    /// removed since the index was drawn; then draws a new index. A value is
    /// reached from its own index or from at most `skip` removed values
    /// just before it, so no satisfying value is more than `skip + 1` times
    /// likelier than another. `skip: 0` is [`Method::Uniform`].
    Backtrack {
        /// How many removed values a draw may skip before it starts over.
        skip: u64,
    },
    /// Backtracking without a bound: the fastest, with no bound on the
    /// skew (a satisfying value after a long run of rejected ones is drawn
    /// far more often than one after another satisfying value).
    BacktrackUnbounded,
}

impl Method {
    fn skip_bound(self) -> Option<Count> {
        match self {
            Method::Uniform => Some(Count::ZERO),
            Method::Backtrack { skip } => Some(Count::from(skip)),
            Method::BacktrackUnbounded => None,
        }
    }
}

/// Why a draw returned no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SampleError {
    /// The draw's run budget ([`Sampler::max_runs`]) ran out before a
    /// satisfying value was found: satisfying values may exist.
    OutOfRuns {
        /// Runs made by the draw.
        runs: u64,
    },
    /// The predicate panicked.
    Panicked {
        /// The panic message.
        message: String,
        /// The input it panicked on.
        input: String,
    },
    /// The predicate read the same input prefix in two different ways: it
    /// is not a function of the positions it reads.
    Inconsistent {
        /// The input of the run that disagreed with an earlier one.
        input: String,
    },
}

impl fmt::Display for SampleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SampleError::OutOfRuns { runs } => write!(
                f,
                "neatcheck: no satisfying value found within the draw's budget of {runs} runs"
            ),
            SampleError::Panicked { message, input } => {
                write!(f, "neatcheck: the predicate panicked on {input}: {message}")
            }
            SampleError::Inconsistent { input } => write!(
                f,
                "neatcheck: the predicate read {input} differently from an earlier run on the \
                 same partial input: it must depend only on what it reads (no global state, \
                 randomness or time)"
            ),
        }
    }
}

impl std::error::Error for SampleError {}

/// What a sampler has done so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Values returned.
    pub draws: u64,
    /// Predicate runs.
    pub runs: u64,
    /// Runs that returned false: each removed a part of the space.
    pub rejected: u64,
    /// Values returned without a run: they fell in a part a run had
    /// already proven satisfying.
    pub without_run: u64,
    /// New indices drawn by backtracking after it skipped too many values.
    pub restarts: u64,
    /// Nodes of the refinement trees (the memory kept between draws grows
    /// with it).
    pub nodes: usize,
}

/// The satisfying values of one size, counted.
#[derive(Clone, Debug, PartialEq)]
pub struct SatCount {
    /// The exact number, when the budget sufficed to decide every value.
    pub exact: Option<BigUint>,
    /// Values proven to satisfy the predicate.
    pub at_least: BigUint,
    /// Values not proven to falsify it.
    pub at_most: BigUint,
    /// An estimate (the exact number when known): over uniform draws among
    /// the values left, the number that satisfied the predicate divided by
    /// the sum of 1 / (values left at the draw), which converges to the
    /// number of satisfying values as the draws grow.
    pub estimate: f64,
    /// Predicate runs made by the count.
    pub runs: u64,
}

/// Draws values satisfying a lazy predicate, uniformly among the values of
/// a size (or of a range of sizes) that satisfy it. See the [module
/// documentation](self).
pub struct Sampler<T, P> {
    grammar: Rc<Grammar>,
    pred: P,
    method: Method,
    max_runs: u64,
    pruned: BTreeMap<usize, Pruned>,
    searcher: Searcher<T>,
    stats: Stats,
}

impl<T, P> fmt::Debug for Sampler<T, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sampler")
            .field("type", &std::any::type_name::<T>())
            .field("method", &self.method)
            .field("max_runs", &self.max_runs)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

/// The default run budget of one draw.
const DEFAULT_MAX_RUNS: u64 = 1_000_000;

impl<T: Enumerable, P> Sampler<T, P>
where
    P: Fn(Lazy<'_, T>) -> bool,
{
    /// A sampler of the canonical space of `T` under `pred`.
    pub fn new(pred: P) -> Self {
        Self::from_grammar(grammar_of::<T>(), pred)
    }
}

impl<T: 'static, P> Sampler<T, P>
where
    P: Fn(Lazy<'_, T>) -> bool,
{
    /// A sampler of a given space under `pred`.
    pub fn with_space(space: &Space<T>, pred: P) -> Self {
        Self::from_grammar(compile_space(space), pred)
    }

    fn from_grammar(grammar: Rc<Grammar>, pred: P) -> Self {
        Sampler {
            searcher: Searcher::from_grammar(grammar.clone(), 0),
            grammar,
            pred,
            method: Method::Uniform,
            max_runs: DEFAULT_MAX_RUNS,
            pruned: BTreeMap::new(),
            stats: Stats::default(),
        }
    }

    /// Sets what a draw does after a rejection (default:
    /// [`Method::Uniform`]).
    pub fn method(mut self, method: Method) -> Self {
        self.method = method;
        self
    }

    /// Sets the most predicate runs one draw may make (default 1 000 000);
    /// a draw that needs more returns [`SampleError::OutOfRuns`], and the
    /// next draw goes on from everything learnt.
    pub fn max_runs(mut self, runs: u64) -> Self {
        self.max_runs = runs;
        self
    }

    /// What the sampler has done so far.
    pub fn stats(&self) -> Stats {
        Stats {
            nodes: self.pruned.values().map(Pruned::nodes).sum(),
            ..self.stats.clone()
        }
    }

    /// A value of exactly `size` satisfying the predicate, uniformly among
    /// those (under [`Method::Uniform`]); `Ok(None)` when there is none.
    pub fn sample<R: Rng + ?Sized>(
        &mut self,
        size: usize,
        rng: &mut R,
    ) -> Result<Option<T>, SampleError> {
        self.sample_in(size..=size, rng)
    }

    /// A value of a size in `sizes` satisfying the predicate, uniformly
    /// among all such values of all those sizes (under
    /// [`Method::Uniform`]); `Ok(None)` when there is none.
    pub fn sample_in<R: Rng + ?Sized>(
        &mut self,
        sizes: RangeInclusive<usize>,
        rng: &mut R,
    ) -> Result<Option<T>, SampleError> {
        Ok(self
            .sample_tree_in(sizes, rng)?
            .map(|tree| downcast(self.grammar.build_root(&tree), "a constrained sample")))
    }

    /// Like [`Sampler::sample_in`], as a tree of the compiled grammar
    /// (printable with [`crate::index::Indexer`]'s grammar, cheap to keep).
    pub fn sample_tree_in<R: Rng + ?Sized>(
        &mut self,
        sizes: RangeInclusive<usize>,
        rng: &mut R,
    ) -> Result<Option<Tree>, SampleError> {
        for size in sizes.clone() {
            self.pruned_at(size);
        }
        let skip_bound = self.method.skip_bound();
        let mut runs = 0u64;
        // The index the draw is at (backtracking keeps it after a
        // rejection: it then names the next value left).
        let mut cursor: Option<(usize, Count)> = None;
        let mut skipped = Count::ZERO;
        loop {
            let (size, index) = match cursor.take() {
                Some((size, index)) if index < *self.pruned[&size].alive() => (size, index),
                _ => {
                    let Some(at) = self.fresh_index(sizes.clone(), rng) else {
                        return Ok(None);
                    };
                    skipped = Count::ZERO;
                    at
                }
            };
            let pruned = self.pruned.get_mut(&size).expect("made above");
            let landing = pruned.value_at(index.clone());
            if landing.accepted {
                self.stats.without_run += 1;
                self.stats.draws += 1;
                return Ok(Some(landing.tree));
            }
            if runs >= self.max_runs {
                return Err(SampleError::OutOfRuns { runs });
            }
            runs += 1;
            let before = pruned.alive().clone();
            let satisfied = self.run(size, &landing.tree)?;
            if satisfied {
                self.stats.draws += 1;
                return Ok(Some(landing.tree));
            }
            self.stats.rejected += 1;
            let removed = before.sub(self.pruned[&size].alive());
            skipped.add_assign(&removed);
            match &skip_bound {
                Some(bound) if skipped > *bound => {
                    if !bound.is_zero() {
                        self.stats.restarts += 1;
                    }
                }
                _ => cursor = Some((size, index)),
            }
        }
    }

    /// Counts the values of exactly `size` that satisfy the predicate,
    /// with at most `max_runs` runs: exactly when that suffices to decide
    /// every class of values (one run each, in index order, with half the
    /// budget), else bounds and an unbiased estimate from uniform draws
    /// with the other half.
    pub fn count<R: Rng + ?Sized>(
        &mut self,
        size: usize,
        max_runs: u64,
        rng: &mut R,
    ) -> Result<SatCount, SampleError> {
        self.pruned_at(size);
        let mut runs = 0u64;
        // In index order: every class once.
        let mut index = Count::ZERO;
        let explore = if max_runs == u64::MAX {
            max_runs
        } else {
            max_runs.div_ceil(2)
        };
        while index < *self.pruned[&size].alive() && runs < explore {
            let landing = self
                .pruned
                .get_mut(&size)
                .expect("made above")
                .value_at(index.clone());
            if landing.accepted {
                index = index.sub(&landing.offset).add(&landing.node_alive);
                continue;
            }
            runs += 1;
            self.run(size, &landing.tree)?;
        }
        let pruned = &self.pruned[&size];
        if pruned.alive() == pruned.accepted() {
            let n = pruned.alive().to_big();
            return Ok(SatCount {
                estimate: pruned.alive().to_f64(),
                exact: Some(n.clone()),
                at_least: n.clone(),
                at_most: n,
                runs,
            });
        }
        // A uniform draw among the `alive` values left satisfies with
        // probability satisfying / alive: the satisfying draws over the sum
        // of 1 / alive estimate the satisfying values (a ratio estimator,
        // consistent, which weighs the draws made on a smaller space more).
        let (mut satisfying_draws, mut inverse_alive, mut draws) = (0u64, 0.0f64, 0u64);
        let max_draws = (max_runs - runs).saturating_mul(4);
        while runs < max_runs && draws < max_draws {
            let alive = self.pruned[&size].alive().clone();
            if alive.is_zero() {
                break;
            }
            let index = Count::from_big(uniform_below(&alive.to_big(), rng));
            let landing = self
                .pruned
                .get_mut(&size)
                .expect("made above")
                .value_at(index);
            draws += 1;
            inverse_alive += 1.0 / alive.to_f64();
            let satisfied = if landing.accepted {
                true
            } else {
                runs += 1;
                self.run(size, &landing.tree)?
            };
            satisfying_draws += u64::from(satisfied);
        }
        let pruned = &self.pruned[&size];
        let (at_least, at_most) = (pruned.accepted().to_big(), pruned.alive().to_big());
        let exact = (pruned.alive() == pruned.accepted()).then(|| at_least.clone());
        let estimate = match (&exact, draws) {
            (Some(n), _) => Count::from_big(n.clone()).to_f64(),
            (None, 0) => pruned.accepted().to_f64(),
            (None, _) => satisfying_draws as f64 / inverse_alive,
        }
        .clamp(pruned.accepted().to_f64(), pruned.alive().to_f64());
        Ok(SatCount {
            exact,
            at_least,
            at_most,
            estimate,
            runs,
        })
    }

    fn pruned_at(&mut self, size: usize) -> &mut Pruned {
        let g = &self.grammar;
        self.pruned
            .entry(size)
            .or_insert_with(|| Pruned::new(g.clone(), size))
    }

    /// A uniform index among the values left of all `sizes`.
    fn fresh_index<R: Rng + ?Sized>(
        &mut self,
        sizes: RangeInclusive<usize>,
        rng: &mut R,
    ) -> Option<(usize, Count)> {
        let total = sizes
            .clone()
            .fold(Count::ZERO, |t, s| t.add(self.pruned[&s].alive()));
        if total.is_zero() {
            return None;
        }
        let mut index = Count::from_big(uniform_below(&total.to_big(), rng));
        for size in sizes {
            let alive = self.pruned[&size].alive();
            if index < *alive {
                return Some((size, index));
            }
            index = index.sub(alive);
        }
        unreachable!("the index is below the total")
    }

    /// Runs the predicate on a value of `size` and records the verdict.
    fn run(&mut self, size: usize, tree: &Tree) -> Result<bool, SampleError> {
        self.stats.runs += 1;
        let pred = &self.pred;
        let (result, reads) = self.searcher.run_recorded(tree, pred);
        // neatcheck's own errors are raised, not taken for a verdict.
        self.searcher.raise_internal();
        let satisfied = match result {
            RunResult::True => true,
            RunResult::False(_) | RunResult::Discarded => false,
            RunResult::Panicked(message) => {
                return Err(SampleError::Panicked {
                    message,
                    input: crate::report::show_tree(&self.grammar, tree),
                })
            }
        };
        let pruned = self.pruned.get_mut(&size).expect("made before a run");
        pruned
            .record(tree, &reads, satisfied)
            .map_err(|_| SampleError::Inconsistent {
                input: crate::report::show_tree(&self.grammar, tree),
            })?;
        Ok(satisfied)
    }
}

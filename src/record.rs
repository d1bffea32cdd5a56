//! What searches and checks report: the one failure record
//! ([`Counterexample`]), how it was found ([`Found`]), how far the search
//! went before it ([`Summary`]) and which part of a sharded search it covers
//! ([`Shard`]; the partition itself is `engine/shard.rs`).

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// One of `count` deterministic parts of a search, numbered from 1 like
/// `cargo nextest --partition count:i/n` (`NEATCHECK_SHARD=i/n`,
/// [`crate::check::Config::shard`]). The shards of a search run exactly the
/// runs of the whole search between them, each run in one shard, whatever
/// the machine, threads or timing: a CI matrix of `count` jobs covers what
/// one job would. The partition is stated in `docs/spec.md#shards`.
///
/// ```
/// use neatcheck::search::Shard;
/// let shard: Shard = "2/4".parse().unwrap();
/// assert_eq!((shard.index(), shard.count()), (2, 4));
/// assert_eq!(shard.to_string(), "2/4");
/// assert!("0/4".parse::<Shard>().is_err(), "numbered from 1");
/// assert!("5/4".parse::<Shard>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shard {
    /// 1-based.
    index: u32,
    count: u32,
    /// The depth of the search-tree nodes dealt out whole (`engine/shard.rs`).
    depth: u32,
}

/// The depth of the search-tree nodes a shard takes whole, unless a test
/// asks for another: see `engine/shard.rs` for how it was chosen.
pub(crate) const DEFAULT_SHARD_DEPTH: u32 = 10;

impl Shard {
    /// Shard `index` of `count`, numbered from 1.
    ///
    /// # Panics
    /// If `index` is 0 or above `count` (see [`Shard::try_new`]).
    pub fn new(index: usize, count: usize) -> Self {
        Shard::try_new(index, count).unwrap_or_else(|e| panic!("neatcheck: {e}"))
    }

    /// Shard `index` of `count`, numbered from 1, or why there is no such
    /// shard.
    pub fn try_new(index: usize, count: usize) -> Result<Self, String> {
        if count == 0 {
            return Err("a search has at least one shard (got 0 shards)".into());
        }
        if index == 0 || index > count {
            return Err(format!(
                "shard {index}/{count} does not exist: shards are numbered 1 to {count} \
                 (like `cargo nextest --partition count:i/n`)"
            ));
        }
        let too_many = || format!("at most {} shards", u32::MAX);
        Ok(Shard {
            index: u32::try_from(index).map_err(|_| too_many())?,
            count: u32::try_from(count).map_err(|_| too_many())?,
            depth: DEFAULT_SHARD_DEPTH,
        })
    }

    /// Which shard, from 1 to [`Shard::count`].
    pub fn index(&self) -> usize {
        self.index as usize
    }

    /// How many shards the search is split into.
    pub fn count(&self) -> usize {
        self.count as usize
    }

    /// Whether this shard is the whole search (one shard of one).
    pub fn is_whole(&self) -> bool {
        self.count == 1
    }

    /// The same shard with the nodes at another search-tree depth dealt
    /// out (at least 1; the default is 10). Every shard of a search must
    /// use the same depth, or their parts overlap and leave gaps: set it in
    /// code that every job runs, never per job. A deeper cut deals out more
    /// and smaller subtrees (better balance) and makes every shard replay
    /// more nodes above it (`docs/spec.md#shards`); `Config::shard_depth`.
    pub(crate) fn with_depth(self, depth: usize) -> Self {
        Shard {
            depth: crate::arena::id32(depth.max(1)),
            ..self
        }
    }

    /// The depth of the search-tree nodes dealt out whole.
    pub(crate) fn depth(&self) -> usize {
        self.depth as usize
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `i/n` with `1 <= i <= n` (spaces allowed around the numbers).
    fn from_str(s: &str) -> Result<Self, String> {
        let number = |t: &str| t.trim().parse::<usize>().ok();
        match s.split_once('/').map(|(i, n)| (number(i), number(n))) {
            Some((Some(i), Some(n))) => Shard::try_new(i, n),
            _ => Err(format!(
                "expected `i/n`, shard i of n numbered from 1 (such as `2/4`), got {s:?}"
            )),
        }
    }
}

/// How far a search went: the coverage line of every report.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct Summary {
    /// The largest size bound searched completely (every value of size
    /// `<= exhausted` is covered).
    pub exhausted: Option<usize>,
    /// Runs of the exhaustive phase, over all bounds (the size order's:
    /// the portfolio's depth order is counted in `depth_runs`).
    pub runs: u64,
    /// Runs of the portfolio's depth-bounded search (`Config::portfolio`),
    /// over all its depths.
    pub depth_runs: u64,
    /// The largest depth the portfolio's depth-bounded search covered
    /// completely (every input of depth `<= depth_exhausted`).
    pub depth_exhausted: Option<usize>,
    /// Runs at the largest bound exhausted (compare with `worst_case`).
    pub runs_last_bound: u64,
    /// Of [`Summary::runs`], those that searched the sizes below a random
    /// or edge-sweep find, to confirm it minimal: that search has a run
    /// budget ([`crate::check::Config::runs`]) of its own, so a check that
    /// finds a bug at random may run up to twice the budget.
    pub confirm_runs: u64,
    /// Number of values of size `<= exhausted`: the runs a non-lazy search
    /// would have needed.
    pub worst_case: String,
    /// Runs (exhaustive and random) whose precondition did not hold.
    pub discarded: u64,
    /// Random cases tested after the exhaustive phase.
    pub random: u64,
    /// The sizes of the random cases run (smallest, largest), if any: the
    /// sizes of the inputs themselves, after moved atoms and long structures.
    pub random_sizes: Option<(usize, usize)>,
    /// Whether the time ceiling stopped the random phase before its last
    /// case.
    pub random_cut_by_time: bool,
    /// Inputs of the edge sweep: the smallest inputs with their atoms
    /// (numbers, characters) at edge values, alone and in pairs.
    pub edge_cases: u64,
    /// Random cases whose atoms (numbers, characters) were moved to edge
    /// values or to uniform values of their whole type.
    pub random_edges: u64,
    /// Random cases drawn long: a uniform structure of the case's size with
    /// small atoms (long collections of small elements).
    pub random_long: u64,
    /// Random cases whose precondition was false and that ruled out, for
    /// the later cases of their size, every input agreeing with them on the
    /// positions they read: the random cases are then drawn uniformly
    /// among the inputs of their size not ruled out, which include every
    /// input that meets the precondition.
    pub random_pruned: u64,
    /// Label counts: over the runs of the largest exhausted bound and the
    /// random cases (where the precondition held), each run counted once.
    pub labels: BTreeMap<String, u64>,
    /// Runs the label percentages are relative to.
    pub labelled_runs: u64,
    /// The share of those runs (in percent) that `cover` requires of each
    /// label: the largest any run asked.
    pub coverage: BTreeMap<String, f64>,
    /// Why the exhaustive phase stopped.
    pub stopped: Stop,
    /// Inputs replayed first (from `NEATCHECK_REPLAY` or the regression
    /// file).
    pub replayed: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Problems that make a passing check meaningless (no runs, no values,
    /// a precondition that almost never holds, ...): a check fails with
    /// them.
    pub problems: Vec<String>,
    /// The shard searched, when the check searched one part of its search
    /// ([`crate::check::Config::shard`]): every count above is this
    /// shard's, and a smaller counterexample may be another shard's.
    pub shard: Option<Shard>,
    /// The generators parts of the input were drawn from by seed
    /// ([`crate::space::drawn`], a proptest strategy, an `arbitrary`
    /// type): the search enumerated, counted and shrank their seeds, so a
    /// counterexample is minimal in its seeds, not in those parts' values.
    pub drawn: Vec<String>,
}

impl Summary {
    /// The shard searched, unless it is the whole search.
    pub(crate) fn part(&self) -> Option<Shard> {
        self.shard.filter(|s| !s.is_whole())
    }
}

/// Why the exhaustive phase stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Stop {
    /// Every size up to the configured maximum was searched.
    #[default]
    MaxSize,
    /// Every value of the type was searched (a finite type).
    AllValues,
    /// The run budget ran out inside this size bound.
    Runs(usize),
    /// The time ceiling ran out inside this size bound.
    Time(usize),
    /// Only a replayed input was run.
    Replay,
    /// neatcheck itself failed during a run (an inconsistent space
    /// description): no verdict. [`Summary::problems`] says why; it is no
    /// counterexample of the property.
    Internal,
}

/// How a counterexample was found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Found {
    /// By the exhaustive search: every smaller input passed (minimal).
    Exhaustive,
    /// By the random phase, then shrunk.
    Random {
        /// Size of the random case that failed first.
        sampled_size: u64,
        /// Candidates the shrinker tried.
        shrink_attempts: u64,
        /// Smaller failing inputs it moved to, one after the other.
        shrink_steps: u64,
        /// Every size up to this one is known to pass: the counterexample
        /// is minimal when this is its size minus one.
        passed_up_to: Option<usize>,
    },
    /// By the edge sweep (the smallest inputs with their atoms at edge
    /// values, before the exhaustive phase), then shrunk.
    EdgeSweep {
        /// Which input of the sweep failed (from 1).
        case: u64,
        /// Size of that input.
        sampled_size: u64,
        /// Candidates the shrinker tried.
        shrink_attempts: u64,
        /// Smaller failing inputs it moved to, one after the other.
        shrink_steps: u64,
        /// Every size up to this one is known to pass: the counterexample
        /// is minimal when this is its size minus one.
        passed_up_to: Option<usize>,
    },
    /// By the depth-bounded search of the portfolio (`Config::portfolio`)
    /// before the size-bounded one reached it, then shrunk; the size order
    /// then searched as far as its budget allowed.
    Depth {
        /// The depth bound it was found at.
        depth: usize,
        /// Its size as found, before shrinking.
        found_size: u64,
        /// Candidates the shrinker tried.
        shrink_attempts: u64,
        /// Smaller failing inputs it moved to, one after the other.
        shrink_steps: u64,
        /// Every size up to this one is known to pass: the counterexample
        /// is size-minimal when this is its size minus one.
        passed_up_to: Option<usize>,
    },
    /// Replayed from a key (`NEATCHECK_REPLAY` or the regression file).
    Replay {
        /// Whether the key came from the regression file.
        from_file: bool,
    },
}

/// A counterexample: the one failure record of searches and checks.
#[derive(Clone)]
#[non_exhaustive]
pub struct Counterexample<T> {
    /// The failing value (positions the property did not read at their
    /// minimal values).
    pub value: T,
    /// The failing input with unread positions as `_`.
    pub pattern: String,
    /// The failing input printed in full with constructor names.
    pub shown: String,
    /// Its size.
    pub size: u64,
    /// Runs made at the bound (or random cases) that found it, up to and
    /// including it.
    pub runs: u64,
    /// Why it failed: an `Err` description or a panic message.
    pub reason: Option<String>,
    /// Whether the property panicked.
    pub panicked: bool,
    /// Where it panicked (`file:line:col`), when a check ran it.
    pub panic_location: Option<String>,
    /// The replay key of the value (`NEATCHECK_REPLAY=<key>`).
    pub key: String,
    /// How it was found.
    pub found: Found,
    /// What was searched before it (checks fill this in).
    pub summary: Summary,
    /// When the input, run again before the report, did not fail again:
    /// what the second run did. The property then depends on more than
    /// its input (global state, the clock, randomness), so the input is
    /// reported as not reproducible and never as minimal.
    pub not_reproduced: Option<String>,
    /// How deeply its constructors nest (list spines not counted). Past
    /// [`Counterexample::DEBUG_DEPTH`] reports print [`Counterexample::shown`]
    /// instead of the value's `Debug`, which would overflow the stack.
    pub depth: usize,
}

impl<T> Counterexample<T> {
    /// The deepest nesting printed with the value's own `Debug` (derived
    /// `Debug` recurses once per level: a few hundred bytes of stack each).
    pub const DEBUG_DEPTH: usize = 200;

    /// Whether reports print the value with neatcheck's own (iterative)
    /// printer rather than its `Debug`.
    pub fn too_deep_for_debug(&self) -> bool {
        self.depth > Self::DEBUG_DEPTH
    }

    /// Drops the record; a value too deep for `Debug` is leaked instead of
    /// dropped, since a derived recursive type (`Box` inside `Box`) drops
    /// recursively and would overflow the stack. Only neatcheck's failure
    /// paths use it, a few times per check.
    pub(crate) fn discard(self) {
        if self.too_deep_for_debug() {
            std::mem::forget(self.value);
        }
    }

    /// Whether every smaller input is known to pass (never when one shard
    /// of several found it: the other shards' inputs were not run).
    pub fn is_minimal(&self) -> bool {
        if self.summary.part().is_some() || self.not_reproduced.is_some() {
            return false;
        }
        match self.found {
            Found::Exhaustive => true,
            Found::Random { passed_up_to, .. }
            | Found::EdgeSweep { passed_up_to, .. }
            | Found::Depth { passed_up_to, .. } => {
                passed_up_to.is_some_and(|p| p as u64 + 1 >= self.size)
            }
            Found::Replay { .. } => false,
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for Counterexample<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        struct Shown<'a>(&'a str);
        impl fmt::Debug for Shown<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.0)
            }
        }
        let value: &dyn fmt::Debug = if self.too_deep_for_debug() {
            &Shown(&self.shown)
        } else {
            &self.value
        };
        f.debug_struct("Counterexample")
            .field("value", value)
            .field("pattern", &self.pattern)
            .field("size", &self.size)
            .field("runs", &self.runs)
            .field("reason", &self.reason)
            .field("key", &self.key)
            .field("found", &self.found)
            .finish()
    }
}

impl fmt::Display for Summary {
    /// The coverage line: how far the search went (no times, so that a
    /// report is the same on every machine; [`Summary::elapsed`] has it).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(shard) = self.part() {
            write!(f, "shard {shard} (its part of every size): ")?;
        }
        let covering = match self.part() {
            Some(_) => "with the other shards' covering",
            None => "covering",
        };
        match self.exhausted {
            Some(e) => write!(
                f,
                "exhaustive to size {e}: {} runs ({} at size {e}, {covering} all {} values of \
                 size <= {e})",
                self.runs, self.runs_last_bound, self.worst_case
            )?,
            None => write!(f, "no size exhausted ({} runs)", self.runs)?,
        }
        if self.confirm_runs > 0 {
            write!(
                f,
                "; {} of the runs searched the sizes below the random find",
                self.confirm_runs
            )?;
        }
        match self.stopped {
            Stop::Runs(b) => write!(f, "; the run budget stopped size {b}")?,
            Stop::Time(b) => write!(f, "; the time limit cut the search at size {b}")?,
            Stop::AllValues => write!(f, "; that is every value of the type")?,
            Stop::Internal => write!(f, "; an internal error of neatcheck stopped the search")?,
            Stop::MaxSize | Stop::Replay => {}
        }
        if self.edge_cases > 0 {
            write!(f, "; {} edge cases", self.edge_cases)?;
        }
        if let Some((lo, hi)) = self.random_sizes {
            write!(
                f,
                "; {} random cases of sizes {lo}..={hi} ({} with edge or uniform atoms",
                self.random, self.random_edges
            )?;
            if self.random_long > 0 {
                write!(f, ", {} long with small atoms", self.random_long)?;
            }
            if self.random_pruned > 0 {
                write!(
                    f,
                    "; drawn uniformly among the inputs not ruled out by the {} whose \
                     precondition was false",
                    self.random_pruned
                )?;
            }
            write!(f, ")")?;
        }
        if self.random_cut_by_time {
            write!(f, "; the time limit stopped the random phase")?;
        }
        if self.depth_runs > 0 {
            write!(f, "; depth-bounded search: {} runs", self.depth_runs)?;
            if let Some(d) = self.depth_exhausted {
                write!(f, ", every input of depth <= {d}")?;
            }
        }
        if self.discarded > 0 {
            write!(
                f,
                "; {} runs discarded (precondition false)",
                self.discarded
            )?;
        }
        if self.replayed > 0 {
            write!(f, "; {} saved inputs replayed", self.replayed)?;
        }
        if !self.labels.is_empty() && self.labelled_runs > 0 {
            for (label, n) in &self.labels {
                write!(
                    f,
                    "\n  {:6.2}% {}",
                    100.0 * *n as f64 / self.labelled_runs as f64,
                    label
                )?;
                if let Some(required) = self.coverage.get(label) {
                    write!(f, " (cover: at least {required}%)")?;
                }
            }
        }
        Ok(())
    }
}

//! The search layer: the DFS engine over one arena (`dfs`), the
//! `Searcher` that steps it, the searches built on it (`sat`, `search`,
//! `ctrex`, `classes`), `Parallel` and the shards of a search (`shard`).
//! Public at `neatcheck::search`.

pub(crate) mod depth;
pub(crate) mod dfs;

pub use crate::record::{Counterexample, Shard};
pub(crate) mod parallel;
mod shard;
mod source;
pub(crate) use source::GrammarSource;

pub(crate) use parallel::Parallel;
pub use parallel::{Balance, WorkerBalance};

use crate::cool::{Cool, Flips, ForcingLog, Fused, Prepass, Schedule, Strategy};
use crate::describe::Space;
use crate::grammar::{compile_space, Grammar, Tree};
use crate::handle::Lazy;
use crate::report::{show_pattern, Pattern};
use crate::types::grammar_of;
use crate::Enumerable;
use dfs::{Engine, LockRule, RunMode};
use std::any::Any;
use std::fmt;
use std::marker::PhantomData;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// What a predicate or property returns: `bool`, `()`, `Result<(), E>`
/// (an `Err` fails with its `Debug` text) or a [`RunResult`] (for
/// preconditions, see [`crate::implies`]).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an outcome of a property or predicate",
    label = "returns `{Self}`",
    note = "a property or predicate returns `bool`, `()` (passes unless it panics), \
            `Result<(), E>` with `E: Debug`, or `RunResult` (see `neatcheck::implies`)"
)]
pub trait Outcome {
    /// How the run ended.
    fn into_result(self) -> RunResult;
}

impl Outcome for bool {
    #[inline(always)]
    fn into_result(self) -> RunResult {
        if self {
            RunResult::True
        } else {
            RunResult::False(None)
        }
    }
}

impl Outcome for () {
    #[inline(always)]
    fn into_result(self) -> RunResult {
        RunResult::True
    }
}

impl<E: fmt::Debug> Outcome for Result<(), E> {
    fn into_result(self) -> RunResult {
        match self {
            Ok(()) => RunResult::True,
            Err(e) => RunResult::False(Some(format!("returned Err({e:?})"))),
        }
    }
}

impl Outcome for RunResult {
    #[inline(always)]
    fn into_result(self) -> RunResult {
        self
    }
}

pub(crate) use crate::internal::panic_message;

/// How one run of a predicate or property ended: the one outcome type of
/// every search and check.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RunResult {
    /// The predicate returned true (or `Ok`): the property held.
    True,
    /// The predicate returned false (or `Err`; the text describes it).
    False(Option<String>),
    /// A precondition did not hold ([`crate::implies`]): the run neither
    /// passes nor fails. Searches for satisfying values count it as not
    /// satisfied; checks count it apart.
    Discarded,
    /// The predicate panicked, with this message.
    Panicked(String),
}

impl RunResult {
    /// Whether the run returned true.
    pub fn is_true(&self) -> bool {
        matches!(self, RunResult::True)
    }

    /// Whether the run falsified a property (returned false or `Err`, or
    /// panicked).
    pub fn is_failure(&self) -> bool {
        matches!(self, RunResult::False(_) | RunResult::Panicked(_))
    }
}

/// Statistics of a search so far.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Stats {
    /// Predicate runs (one per search-tree node).
    pub runs: u64,
    /// Runs that returned true: one per satisfying equivalence class.
    pub satisfied: u64,
    /// Runs that panicked.
    pub panicked: u64,
    /// The largest size of a value run.
    pub max_size: u64,
    /// Time spent since the searcher was created.
    pub elapsed: Duration,
}

/// A stepping searcher: runs one search-tree node at a time. For embedding
/// neatcheck in other checkers.
///
/// ```
/// use neatcheck::search::Searcher;
/// use neatcheck::Lazy;
///
/// let mut s = Searcher::<Vec<bool>>::new(5);
/// let mut trues = 0;
/// while let Some(result) = s.step(|xs: Lazy<Vec<bool>>| xs.iter().any(|b| b.get())) {
///     if result.is_true() {
///         trues += 1;
///         // The value just run, and the part of it the predicate read:
///         let _v: Vec<bool> = s.value();
///     }
/// }
/// assert_eq!(s.stats().runs, 5);
/// assert_eq!(trues, 2);
/// ```
pub struct Searcher<T> {
    engine: Engine,
    stats: Stats,
    start: Instant,
    /// The cause of neatcheck's own error in the run made last, if it
    /// ended with one (see [`crate::internal`]): that run is no
    /// counterexample.
    internal: Option<String>,
    /// The part of the search this searcher runs, when it runs one shard.
    shard: Option<shard::ShardCut>,
    /// The decisions of the schedules the frames keep (formula
    /// strategies only).
    flips: Flips,
    /// The forcings of the last prepass made as the observed run (see
    /// `Strategy::look_ahead_and_observe`, `Strategy::count_and_observe`).
    forcing_log: ForcingLog,
    /// How those look-aheads went: whether to record their reads in
    /// segments.
    fusion: FusionStats,
    /// The read count of a counting run made in segments.
    distinct_reads: DistinctReads,
    _t: PhantomData<fn() -> T>,
}

/// What the prepasses made as observed runs met: whether recording their
/// reads in segments pays. Segments cost a little on every run and save a
/// second predicate run wherever the observed run forces in another order
/// than its prepass (for OS and OSF: other than the first forcings in
/// order); they are used once that happened in more than one fused run in
/// eight so far. Counted in runs, so the choice (a
/// matter of speed only: both ways search alike) is deterministic.
#[derive(Debug, Default)]
struct FusionStats {
    runs: u64,
    reordered: u64,
    /// Segments always or never, whatever the counts (tests).
    #[cfg(test)]
    fixed: Option<bool>,
}

impl FusionStats {
    fn segments(&self) -> bool {
        #[cfg(test)]
        if let Some(fixed) = self.fixed {
            return fixed;
        }
        self.reordered * 8 > self.runs
    }

    /// Counts a fused run whose replay ended as `log` says.
    #[inline]
    fn count(&mut self, log: &ForcingLog) {
        self.runs += 1;
        if log.replayed() && !log.met_a_prefix() {
            self.reordered += 1;
        }
    }
}

/// The fused run of OS and OSF: [`Strategy::count_and_observe`] in a run
/// whose reads begin at `mark`, with the read count it needs (out of line,
/// out of the way of the fused run of O and OF, the hotter one).
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn fused_counting_run(
    strategy: Strategy,
    ctx: &crate::handle::Ctx<'_>,
    value: Cool<'_>,
    inherited: Schedule,
    flips: &mut Flips,
    log: &mut ForcingLog,
    segment: Option<&dyn Fn() -> Option<u32>>,
    distinct: &mut DistinctReads,
    mark: u32,
) -> Fused {
    match segment {
        Some(begin) => {
            // Segments record a position again in each of them that reads
            // it: the count is of distinct positions.
            distinct.start(mark as usize, ctx.nodes.len());
            let distinct = std::cell::RefCell::new(distinct);
            let reads = || distinct.borrow_mut().count(ctx.reads);
            strategy.count_and_observe(value, inherited, flips, log, begin, true, &reads)
        }
        None => {
            // Where each forcing's reads begin, for an observed run that
            // meets only the first ones.
            let begin = || u32::try_from(ctx.reads_len()).ok();
            let reads = || ctx.reads_len() - mark as usize;
            strategy.count_and_observe(value, inherited, flips, log, &begin, false, &reads)
        }
    }
}

/// The number of distinct positions among an observed run's reads, where
/// segments record a position again in each segment that reads it: the
/// read count of a counting run made in segments (OS and OSF). Each read is
/// looked at once, when a count is asked for after it.
#[derive(Debug, Default)]
struct DistinctReads {
    /// Per arena position, the last run that counted it.
    counted_in: Vec<u32>,
    run: u32,
    /// The reads before this index are counted.
    next: usize,
    distinct: usize,
}

impl DistinctReads {
    /// Starts a run whose reads begin at `mark`, over an arena of `nodes`
    /// positions.
    fn start(&mut self, mark: usize, nodes: usize) {
        self.run = self.run.wrapping_add(1);
        if self.run == 0 {
            self.counted_in.fill(0);
            self.run = 1;
        }
        if self.counted_in.len() < nodes {
            self.counted_in.resize(nodes, 0);
        }
        self.next = mark;
        self.distinct = 0;
    }

    /// The distinct positions among the run's reads so far.
    fn count(&mut self, reads: &crate::arena::ReadLog) -> usize {
        while let Some(position) = reads.get(self.next) {
            self.next += 1;
            let counted_in = &mut self.counted_in[position as usize];
            if *counted_in != self.run {
                *counted_in = self.run;
                self.distinct += 1;
            }
        }
        self.distinct
    }
}

impl<T> fmt::Debug for Searcher<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Searcher")
            .field("type", &std::any::type_name::<T>())
            .field("bound", &self.engine.bound)
            .field("size", &self.engine.size())
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl<T: Enumerable> Searcher<T> {
    /// Searches the canonical space of `T` up to size `bound`.
    pub fn new(bound: usize) -> Self {
        Self::from_grammar(grammar_of::<T>(), bound)
    }
}

impl<T: 'static> Searcher<T> {
    /// Searches a given space up to size `bound`.
    pub fn with_space(space: &Space<T>, bound: usize) -> Self {
        Self::from_grammar(compile_space(space), bound)
    }

    /// Searches a compiled grammar up to size `bound`.
    pub fn from_grammar(grammar: Rc<Grammar>, bound: usize) -> Self {
        Searcher {
            engine: Engine::new(grammar, bound as u64),
            stats: Stats::default(),
            start: Instant::now(),
            internal: None,
            shard: None,
            flips: Flips::default(),
            forcing_log: ForcingLog::default(),
            fusion: FusionStats::default(),
            distinct_reads: DistinctReads::default(),
            _t: PhantomData,
        }
    }

    /// The same searcher restricted to one shard of its search (`None`, or
    /// a shard of one: the whole search). Its runs are then the shard's,
    /// and the other shards' nodes above the cut, which it runs to reach
    /// its own, are replays ([`Searcher::replaying`]): not counted in its
    /// statistics, and never failures of this shard.
    pub(crate) fn sharded(mut self, shard: Option<Shard>) -> Self {
        self.shard = shard.filter(|s| !s.is_whole()).map(shard::ShardCut::new);
        self
    }

    /// Whether the node pending, or run last, belongs to another shard and
    /// is only run to reach this shard's part of the search.
    #[inline]
    pub(crate) fn replaying(&self) -> bool {
        self.shard.as_ref().is_some_and(shard::ShardCut::replaying)
    }

    /// Searches a compiled grammar by depth instead of size: every value of
    /// depth `<= depth` (`docs/spec.md#depth`), once per class, in the
    /// search order of the size-bounded search.
    pub(crate) fn by_depth(grammar: Rc<Grammar>, depth: usize) -> Self {
        Searcher {
            engine: Engine::with_depth(grammar, depth as u64),
            stats: Stats::default(),
            start: Instant::now(),
            internal: None,
            shard: None,
            flips: Flips::default(),
            forcing_log: ForcingLog::default(),
            fusion: FusionStats::default(),
            distinct_reads: DistinctReads::default(),
            _t: PhantomData,
        }
    }

    /// Runs the predicate on the next node of the search, if any, and feeds
    /// the outcome to the engine. Panics are caught and reported as
    /// [`RunResult::Panicked`]; the search goes on normally after them.
    pub fn step<O: Outcome>(&mut self, pred: impl FnOnce(Lazy<'_, T>) -> O) -> Option<RunResult> {
        if !self.advance() {
            return None;
        }
        let mark = self.engine.read_mark();
        let result = self
            .engine
            .run(RunMode::Observe, |ctx| pred(Lazy::new(ctx, 0)));
        self.engine.commit(mark, None, LockRule::Prune);
        let r = match result {
            Ok(o) => {
                self.internal = None;
                o.into_result()
            }
            Err(p) => self.panicked(&*p),
        };
        self.count(&r);
        Some(r)
    }

    /// Like [`Searcher::step`] for a predicate returning a [`Cool`] formula,
    /// evaluated under a conjunction strategy (see [`crate::cool`]).
    pub fn step_cool<F>(&mut self, strategy: Strategy, pred: &F) -> Option<RunResult>
    where
        F: for<'a> Fn(Lazy<'a, T>) -> Cool<'a>,
    {
        self.step_cool_fusing(strategy, pred, strategy.prepass() != Prepass::Nothing)
    }

    /// [`Searcher::step_cool`], with the prepass and the observed run made
    /// as one run where they can be (`fuse`, for strategies with a
    /// prepass) or always as two (what the fused run must equal).
    fn step_cool_fusing<F>(&mut self, strategy: Strategy, pred: &F, fuse: bool) -> Option<RunResult>
    where
        F: for<'a> Fn(Lazy<'a, T>) -> Cool<'a>,
    {
        if !self.advance() {
            return None;
        }
        let inherited = self.engine.inherited_schedule();
        self.flips.release_after(&inherited);
        let mark = self.engine.read_mark();
        let result = if fuse {
            self.prepass_and_observe(strategy, pred, inherited)
        } else {
            let start = self.prepass(strategy, pred, inherited);
            let flips = &mut self.flips;
            start.and_then(|start| {
                self.engine.run(RunMode::Observe, |ctx| {
                    strategy.observe(pred(Lazy::new(ctx, 0)), start, flips)
                })
            })
        };
        let (r, children) = match result {
            Ok((value, children)) => {
                self.internal = None;
                (value.into_result(), Some(children))
            }
            Err(p) => (self.panicked(&*p), None),
        };
        // A counting prepass sees which positions are locked: it needs the
        // reference's locks exactly.
        let rule = match strategy.prepass() {
            Prepass::CountReads => LockRule::Reference,
            Prepass::Nothing | Prepass::LookAhead => LockRule::Prune,
        };
        self.engine.commit(mark, children, rule);
        self.count(&r);
        Some(r)
    }

    /// The prepass and the observed run of the pending node, as one run
    /// where the prepass can stand for both (see
    /// `Strategy::look_ahead_and_observe` and `Strategy::count_and_observe`;
    /// with segments when [`FusionStats`] says they pay), else as two.
    /// Reads, value and schedule are those of the two runs made apart.
    fn prepass_and_observe<F>(
        &mut self,
        strategy: Strategy,
        pred: &F,
        inherited: Schedule,
    ) -> Result<(bool, Schedule), Box<dyn Any + Send>>
    where
        F: for<'a> Fn(Lazy<'a, T>) -> Cool<'a>,
    {
        let mark = self.engine.read_mark();
        let flips = &mut self.flips;
        let log = &mut self.forcing_log;
        let distinct = &mut self.distinct_reads;
        let segmented = self.fusion.segments();
        let mut fused_run =
            |ctx: &crate::handle::Ctx<'_>, segment: Option<&dyn Fn() -> Option<u32>>| {
                let value = pred(Lazy::new(ctx, 0));
                match strategy.prepass() {
                    Prepass::CountReads => {
                        let distinct = &mut *distinct;
                        fused_counting_run(
                            strategy, ctx, value, inherited, flips, log, segment, distinct, mark,
                        )
                    }
                    Prepass::LookAhead | Prepass::Nothing => {
                        strategy.look_ahead_and_observe(value, inherited, flips, log, segment)
                    }
                }
            };
        let fused = if segmented {
            self.engine.run_in_segments(|ctx| {
                let segment = || ctx.begin_segment();
                fused_run(ctx, Some(&segment))
            })
        } else {
            self.engine
                .run(RunMode::Observe, |ctx| fused_run(ctx, None))
        };
        if fused.is_ok() {
            self.fusion.count(&self.forcing_log);
        }
        let flips = &mut self.flips;
        match fused {
            Ok(Fused::Observed(value, children)) => {
                let log = &self.forcing_log;
                if segmented {
                    self.engine
                        .merge_segments(mark, log.segment_starts(), log.reordering());
                } else if let Some(unmet) = log.unmet_reads_from() {
                    self.engine.discard_reads(unmet);
                }
                Ok((value, children))
            }
            Ok(Fused::Rerun(start)) => {
                self.engine.discard_reads(mark);
                self.engine.run(RunMode::Observe, |ctx| {
                    strategy.observe(pred(Lazy::new(ctx, 0)), start, flips)
                })
            }
            // The prepass panicked: as a prepass, it reads nothing.
            Err(panic) => {
                self.engine.discard_reads(mark);
                Err(panic)
            }
        }
    }

    /// The run a strategy makes of the pending node before the observed
    /// one: the schedule the observed run starts from (the inherited one
    /// when the strategy makes none), or the run's panic.
    fn prepass<F>(
        &mut self,
        strategy: Strategy,
        pred: &F,
        inherited: Schedule,
    ) -> Result<Schedule, Box<dyn Any + Send>>
    where
        F: for<'a> Fn(Lazy<'a, T>) -> Cool<'a>,
    {
        let flips = &mut self.flips;
        match strategy.prepass() {
            Prepass::Nothing => Ok(inherited),
            Prepass::LookAhead => self.engine.run(RunMode::Plain, |ctx| {
                strategy.prepare(pred(Lazy::new(ctx, 0)), inherited, &|| 0, flips)
            }),
            Prepass::CountReads => {
                let mark = self.engine.read_mark();
                let start = self.engine.run(RunMode::Count, |ctx| {
                    let reads = || ctx.reads_len() - mark as usize;
                    strategy.prepare(pred(Lazy::new(ctx, 0)), inherited, &reads, flips)
                });
                self.engine.end_count(mark);
                start
            }
        }
    }

    /// Counts a run made (not a replay of another shard's).
    fn count(&mut self, r: &RunResult) {
        if self.replaying() {
            return;
        }
        self.stats.runs += 1;
        match r {
            RunResult::True => self.stats.satisfied += 1,
            RunResult::Panicked(_) => self.stats.panicked += 1,
            RunResult::False(_) | RunResult::Discarded => {}
        }
    }

    /// Moves to the next node of the search without running it; false
    /// when the search is over. [`Searcher::step`] does this itself; a
    /// caller that decides per node whether to run it calls this first.
    /// A sharded searcher skips the subtrees of other shards here.
    #[inline]
    pub(crate) fn advance(&mut self) -> bool {
        match &mut self.shard {
            None => self.engine.advance(),
            Some(cut) => cut.advance(&mut self.engine),
        }
    }

    /// Moves to the next node of the search tree whichever shard owns it
    /// (a parallel worker walking down to a unit); the next
    /// [`Searcher::advance`] deals the node it is left on.
    pub(crate) fn advance_in_tree(&mut self) -> bool {
        self.engine.advance()
    }

    /// Whether the node at `path` is one of this searcher's runs (always,
    /// unless it runs one shard and the node is another's).
    pub(crate) fn counts_node(&self, path: &[u32]) -> bool {
        self.shard
            .as_ref()
            .is_none_or(|cut| cut.deal(path) == shard::Deal::Own)
    }

    /// The depth in the search tree of the node [`Searcher::advance`]
    /// moved to (the root is at depth 0).
    pub(crate) fn pending_depth(&self) -> usize {
        self.engine.depth()
    }

    /// Leaves the node [`Searcher::advance`] moved to unrun, and its whole
    /// subtree: the next node is its next sibling (or an ancestor's).
    pub(crate) fn skip_subtree(&mut self) {
        self.engine.skip();
    }

    /// Starts the search again before the root (statistics kept): for a
    /// parallel worker moving to another part of the tree.
    pub(crate) fn restart(&mut self) {
        self.engine.restart();
    }

    /// The path of the node at `depth` on the current branch (see
    /// `Engine::path_at`).
    pub(crate) fn path_at(&self, depth: usize, path: &mut Vec<u32>) {
        self.engine.path_at(depth, path);
    }

    /// Confines the search to the subtree of the node run last, and to
    /// its children before child `below` (see `Engine::confine_to_last`).
    pub(crate) fn confine_to_last(&mut self, below: u32) {
        self.engine.confine_to_last(below);
    }

    /// Goes back up the current branch towards child `from` of node
    /// `parent` (see `Engine::rewind_towards`): the depth of the node it
    /// stopped at, or `None` when the search must restart from the root.
    pub(crate) fn rewind_towards(&mut self, parent: &[u32], from: u32) -> Option<usize> {
        self.engine.rewind_towards(parent, from)
    }

    /// The runs moving to child `from` of node `parent` would replay from
    /// where the search is (see `Engine::rewind_towards`).
    pub(crate) fn replays_to(&self, parent: &[u32], from: u32) -> usize {
        match self.engine.reusable_depth(parent, from) {
            Some(depth) => parent.len() - depth,
            None => parent.len() + 1,
        }
    }

    /// Which child (in search order) of the deepest node with children on
    /// the current branch comes next.
    pub(crate) fn next_child(&self) -> Option<u32> {
        self.engine.next_child()
    }

    /// Gives away the shallowest children not yet produced, if their
    /// parent is at most `max_depth` deep (see
    /// `Engine::give_away_shallowest`): their parent's path and range.
    pub(crate) fn give_away_shallowest(
        &mut self,
        max_depth: usize,
    ) -> Option<(Vec<u32>, u32, u32)> {
        self.engine.give_away_shallowest(max_depth)
    }

    /// The message of a predicate's panic `msg` on the node run last,
    /// naming the input.
    pub(crate) fn panic_on_input(&self, msg: &str) -> String {
        let shown = crate::report::show_tree(&self.engine.grammar, &self.engine.current_tree());
        format!("neatcheck: the predicate panicked on input {shown}: {msg}")
    }

    /// The outcome of a run that panicked: neatcheck's own errors are
    /// remembered apart (the run is then no counterexample) and their text
    /// says so.
    fn panicked(&mut self, payload: &(dyn Any + Send)) -> RunResult {
        self.internal = crate::internal::message_of(payload).map(str::to_string);
        match &self.internal {
            Some(m) => RunResult::Panicked(format!("{}: {m}", crate::internal::PREFIX)),
            None => RunResult::Panicked(panic_message(payload)),
        }
    }

    /// If the run made last ended with an internal error of neatcheck,
    /// raises it again (an [`crate::internal::InternalError`] payload) with
    /// the type and the input it happened on: it must not become a
    /// counterexample. Checks turn it into an error of their own.
    pub(crate) fn raise_internal(&self) {
        let Some(cause) = &self.internal else { return };
        let shown = crate::report::show_tree(self.grammar(), &self.tree());
        crate::internal::raise(format!(
            "{}: {cause} (while running a property of `{}` on the input {shown})",
            crate::internal::PREFIX,
            std::any::type_name::<T>(),
        ))
    }

    /// The value of the node run last (all positions, unread ones at their
    /// minimal values).
    pub fn value(&self) -> T {
        let g = &self.engine.grammar;
        let v = self
            .engine
            .with_plain_ctx(|ctx| crate::handle::materialize(ctx, 0));
        crate::grammar::downcast(g.convert_root(v), "the search")
    }

    /// The value of the node run last as a tree of the compiled grammar.
    pub fn tree(&self) -> Tree {
        self.engine.current_tree()
    }

    /// The part of the last run's value that `pred` reads, found by running
    /// it again while tracing every read (locked positions included).
    pub fn pattern<O>(&mut self, pred: impl FnOnce(Lazy<'_, T>) -> O) -> Pattern {
        let (_, read) = self.engine.trace(|ctx| pred(Lazy::new(ctx, 0)));
        self.engine.current_pattern(&read)
    }

    /// The failure record of the node run last, found by an exhaustive
    /// search: `r` is how it failed, `pattern` what the failing run read.
    pub(crate) fn counterexample(&self, pattern: &Pattern, r: RunResult) -> Counterexample<T> {
        self.raise_internal();
        let (reason, panicked) = match r {
            RunResult::False(reason) => (reason, false),
            RunResult::Panicked(m) => (Some(m), true),
            RunResult::True | RunResult::Discarded => {
                unreachable!("a passing run is no counterexample")
            }
        };
        let tree = self.tree();
        Counterexample {
            value: self.value(),
            pattern: self.show(pattern),
            shown: crate::report::show_tree(self.grammar(), &tree),
            size: self.size(),
            runs: self.stats.runs,
            reason,
            panicked,
            panic_location: None,
            key: crate::replay::key_of(self.grammar(), &tree),
            found: crate::record::Found::Exhaustive,
            summary: Default::default(),
            not_reproduced: None,
            depth: crate::report::nesting_depth(self.grammar(), &tree),
        }
    }

    /// Prints a pattern with constructor names.
    pub fn show(&self, p: &Pattern) -> String {
        show_pattern(&self.engine.grammar, p)
    }

    /// Size of the value run last.
    pub fn size(&self) -> u64 {
        self.engine.size()
    }

    /// Statistics so far.
    pub fn stats(&self) -> Stats {
        Stats {
            max_size: self.engine.max_size.max(if self.stats.runs > 0 {
                self.engine.size()
            } else {
                0
            }),
            elapsed: self.start.elapsed(),
            ..self.stats.clone()
        }
    }

    /// Makes the next `step` run on the given value (a tree of this
    /// searcher's grammar, e.g. a uniform sample from [`crate::index`]),
    /// with every position locked; the search ends after it.
    pub fn load(&mut self, tree: &Tree) {
        // A loaded value is no node of a sharded search: it just runs.
        self.shard = None;
        self.engine.load(tree);
    }

    /// Loads `tree` as [`Searcher::load`] does and keeps it, so that
    /// [`Searcher::load_kept`] can load it again with some leaves changed.
    pub(crate) fn load_and_keep(&mut self, tree: &Tree) -> dfs::KeptValue {
        self.load(tree);
        self.engine.keep_loaded()
    }

    /// Makes the next `step` run on a kept value with the given leaves
    /// (numbered breadth first) set to the given indices of their sorts.
    pub(crate) fn load_kept(
        &mut self,
        kept: &dfs::KeptValue,
        leaves: impl Iterator<Item = (usize, crate::grammar::SortId, u64)>,
    ) {
        self.shard = None;
        self.engine.load_kept(kept, leaves);
    }

    /// Runs `pred` once on `tree`, recording every position it reads in the
    /// order it first reads them (positions numbered breadth first from
    /// the root, the layout [`Searcher::load`] gives the value). The run is
    /// counted and a panic caught as in [`Searcher::step`]; no search
    /// follows it.
    pub(crate) fn run_recorded<O: Outcome>(
        &mut self,
        tree: &Tree,
        pred: impl FnOnce(Lazy<'_, T>) -> O,
    ) -> (RunResult, Vec<u32>) {
        self.load(tree);
        let (result, reads) = self.engine.trace(|ctx| pred(Lazy::new(ctx, 0)));
        self.engine.finish();
        let r = match result {
            Ok(o) => {
                self.internal = None;
                o.into_result()
            }
            Err(p) => self.panicked(&*p),
        };
        self.count(&r);
        (r, reads)
    }

    /// Announces every later predicate run of this searcher to a watchdog
    /// slot (one per searcher), so that a run that never returns is
    /// reported with its input.
    pub(crate) fn watch(&mut self, slot: crate::run_slot::RunSlot) {
        self.engine.watch(slot);
    }

    /// The watchdog slot, if any (for tests of the protocol).
    #[cfg(test)]
    pub(crate) fn engine_slot(&self) -> Option<&crate::run_slot::RunSlot> {
        self.engine.slot()
    }

    /// Stops the search: the next `step` returns `None`.
    pub fn stop(&mut self) {
        self.engine.finish();
    }

    /// The compiled grammar (for counting and printing).
    pub fn grammar(&self) -> &Rc<Grammar> {
        &self.engine.grammar
    }

    /// Runs this searcher's search until `prop` fails, within `budget`:
    /// the first counterexample in search order, else `Passed` if the
    /// search has no more runs, else `OutOfBudget` (see [`Budget`]). For a
    /// search of a grammar built at run time ([`crate::dynamic`]); a
    /// [`crate::Config`] searches typed spaces.
    pub fn ctrex<O: Outcome>(
        &mut self,
        prop: &impl Fn(Lazy<'_, T>) -> O,
        budget: Budget,
    ) -> BoundResult<T> {
        bound_in_searcher(
            self,
            &mut |s| s.step(prop),
            &mut |s, r| {
                let pattern = s.pattern(|x| {
                    let _ = prop(x);
                });
                s.counterexample(&pattern, r)
            },
            budget,
            ClockEvery::Runs64,
            &mut (),
        )
    }
}

pub(crate) fn repanic_with_input<T: 'static>(s: &mut Searcher<T>, msg: String) -> ! {
    if let Some(cause) = &s.internal {
        // A string payload: the caller of `sat` sees the message.
        let shown = crate::report::show_tree(&s.engine.grammar, &s.engine.current_tree());
        panic!(
            "{}: {cause} (while running a predicate of `{}` on the input {shown})",
            crate::internal::PREFIX,
            std::any::type_name::<T>()
        )
    }
    panic!("{}", s.panic_on_input(&msg))
}

/// The result of a whole search (`Config::classes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Classes {
    /// Predicate runs: the number of equivalence classes of values of size
    /// `<= bound` under the predicate's laziness (of those run, when the
    /// budget cut the search).
    pub runs: u64,
    /// Classes whose run returned true.
    pub satisfying: u64,
    /// Whether the search ran to its end (false: its budget cut it).
    pub complete: bool,
}

impl Classes {
    pub(crate) fn new(runs: u64, satisfying: u64, complete: bool) -> Classes {
        Classes {
            runs,
            satisfying,
            complete,
        }
    }
}

/// How far [`count_classes`] goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Until {
    /// To the end of the search (or of the budget).
    End,
    /// To the first satisfying class (`sat`).
    FirstTrue,
}

/// Runs a search to its end or to the end of its budget (or, with
/// [`Until::FirstTrue`], to its first satisfying class), counting the runs
/// and the satisfying classes; re-raises a panic of the predicate with its
/// input.
pub(crate) fn count_classes<T: 'static>(
    mut s: Searcher<T>,
    mut step: impl FnMut(&mut Searcher<T>) -> Option<RunResult>,
    budget: Budget,
    until: Until,
) -> Classes {
    let mut satisfying = 0;
    loop {
        let runs = s.stats.runs;
        if !s.advance() {
            return Classes::new(runs, satisfying, true);
        }
        let replay = s.replaying();
        let clock = runs % 64 == 0 && budget.deadline.is_some_and(|d| Instant::now() >= d);
        if !replay && (budget.runs_spent(runs) || clock) {
            return Classes::new(runs, satisfying, false);
        }
        let r = step(&mut s).expect("a pending node runs");
        if replay {
            // Another shard's run: that shard counts it (and raises its
            // panic).
            continue;
        }
        match r {
            RunResult::True => {
                satisfying += 1;
                if until == Until::FirstTrue {
                    return Classes::new(s.stats.runs, satisfying, false);
                }
            }
            RunResult::Panicked(m) => repanic_with_input(&mut s, m),
            RunResult::False(_) | RunResult::Discarded => {}
        }
    }
}

/// Limits on a [`Searcher::ctrex`]: a deadline and a maximum number of
/// runs. (A [`crate::Config`] sets them with `runs` and `time`.)
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct Budget {
    /// Stop when this instant has passed.
    pub deadline: Option<Instant>,
    /// Make at most this many runs. A search that ends within them is
    /// complete (a bound with exactly `max_runs` runs passes); one that has
    /// more is out of budget after exactly `max_runs` runs. Unlike the
    /// deadline this is exact, on threads too ([`crate::Config::threads`]).
    pub max_runs: Option<u64>,
}

impl Budget {
    /// No limits.
    pub fn unlimited() -> Self {
        Budget::default()
    }

    /// At most `n` runs.
    pub fn runs(n: u64) -> Self {
        Budget {
            deadline: None,
            max_runs: Some(n),
        }
    }

    /// Until `deadline`.
    pub fn until(deadline: Instant) -> Self {
        Budget {
            deadline: Some(deadline),
            max_runs: None,
        }
    }

    /// Whether `runs` runs use up the run budget.
    fn runs_spent(&self, runs: u64) -> bool {
        self.max_runs.is_some_and(|m| runs >= m)
    }
}

/// The outcome of one bound of a counterexample search. Closed: a bounded
/// search ends in exactly one of these three ways.
#[derive(Debug, Clone)]
pub enum BoundResult<T> {
    /// No counterexample of size `<= bound`; the number of runs.
    Passed(u64),
    /// A counterexample.
    Failed(Counterexample<T>),
    /// The budget ran out after this many runs.
    OutOfBudget(u64),
}

impl<T> BoundResult<T> {
    /// The runs made (a counterexample's: those up to and including it).
    pub fn runs(&self) -> u64 {
        match self {
            BoundResult::Passed(runs) | BoundResult::OutOfBudget(runs) => *runs,
            BoundResult::Failed(c) => c.runs,
        }
    }

    /// The counterexample, if the search found one.
    pub fn counterexample(self) -> Option<Counterexample<T>> {
        match self {
            BoundResult::Failed(c) => Some(c),
            BoundResult::Passed(_) | BoundResult::OutOfBudget(_) => None,
        }
    }
}

/// The searches the engine's own tests compare against (users run them
/// through `Config`).
#[cfg(test)]
pub(crate) fn classes<T: Enumerable, O: Outcome>(
    pred: impl Fn(Lazy<'_, T>) -> O,
    bound: usize,
) -> Classes {
    count_classes(
        Searcher::<T>::new(bound),
        |s| s.step(&pred),
        Budget::unlimited(),
        Until::End,
    )
}

#[cfg(test)]
pub(crate) fn ctrex_within<T: Enumerable, O: Outcome>(
    prop: &impl Fn(Lazy<'_, T>) -> O,
    bound: usize,
    budget: Budget,
) -> BoundResult<T> {
    Searcher::<T>::new(bound).ctrex(prop, budget)
}

#[cfg(test)]
pub(crate) fn counterexample_here<T: 'static, O: Outcome>(
    s: &mut Searcher<T>,
    prop: &impl Fn(Lazy<'_, T>) -> O,
    r: RunResult,
) -> Counterexample<T> {
    let pattern = s.pattern(|x| {
        let _ = prop(x);
    });
    s.counterexample(&pattern, r)
}

/// Statistics gathered per run by a bound's search (sequential or
/// parallel), beyond the run count.
///
/// `add` is called on the running thread right after each run, so a tally
/// may read what the run left in thread-local state. In a parallel search
/// every run of the bound is added to exactly one tally that reaches the
/// result: that of the worker that explored its unit (runs replayed to
/// reach a unit are not added).
pub(crate) trait Tally: Default + Send {
    /// Counts one run.
    fn add(&mut self, r: &RunResult);
    /// Adds the runs counted by another tally.
    fn merge(&mut self, other: Self);
    /// Called instead of `add` after a run replayed: another shard's node
    /// above the cut, or an ancestor a parallel worker runs again to
    /// restart at a unit. Not counted, but what it left in thread-local
    /// state must not reach the next run.
    fn skip(&mut self, _r: &RunResult) {}
}

impl Tally for () {
    fn add(&mut self, _: &RunResult) {}
    fn merge(&mut self, _: ()) {}
}

/// How often a bound's loop reads the clock for its deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ClockEvery {
    /// Before every run: a check's time ceiling must not be overrun by a
    /// batch of slow runs.
    Run,
    /// Every 64 runs: for the search functions, whose runs are often
    /// cheaper than a clock read.
    Runs64,
}

/// The one sequential loop over a bound: runs `step` until the search ends,
/// a run fails (`describe` makes its record while the searcher is still on
/// it) or the budget is spent, counting every run in `tally`. The run
/// budget is exact: with nothing left after the last allowed run, the bound
/// passed. In a sharded searcher the runs are the shard's: replays of other
/// shards' nodes are neither counted, nor failures, nor held back by the
/// run budget (a shard whose own runs all fit passes).
pub(crate) fn bound_in_searcher<T: 'static, Tl: Tally>(
    s: &mut Searcher<T>,
    step: &mut dyn FnMut(&mut Searcher<T>) -> Option<RunResult>,
    describe: &mut dyn FnMut(&mut Searcher<T>, RunResult) -> Counterexample<T>,
    budget: Budget,
    clock: ClockEvery,
    tally: &mut Tl,
) -> BoundResult<T> {
    loop {
        let runs = s.stats.runs;
        if !s.advance() {
            return BoundResult::Passed(runs);
        }
        let replay = s.replaying();
        if budget.runs_spent(runs) && !replay {
            return BoundResult::OutOfBudget(runs);
        }
        let read_clock = clock == ClockEvery::Run || runs % 64 == 0;
        if read_clock && budget.deadline.is_some_and(|d| Instant::now() >= d) {
            return BoundResult::OutOfBudget(runs);
        }
        let r = step(s).expect("a pending node runs");
        if replay {
            tally.skip(&r);
            continue;
        }
        tally.add(&r);
        if r.is_failure() {
            return BoundResult::Failed(describe(s, r));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Searcher;
    use crate::cool::{Cool, Strategy as Conj};
    use crate::handle::Lazy;
    use proptest::prelude::*;

    /// A formula over a list of booleans whose atoms and lazy nodes read
    /// overlapping prefixes of the list.
    #[derive(Clone, Debug)]
    enum Form {
        /// Element `i` exists and is true.
        Elem(usize),
        /// The list has at least `k` elements.
        LenGe(usize),
        And(Box<Form>, Box<Form>),
        Seq(Box<Form>, Box<Form>),
        Not(Box<Form>),
        /// Computed when needed, after reading element `i`.
        Lazy(usize, Box<Form>),
    }

    fn to_cool<'a>(f: &Form, xs: Lazy<'a, Vec<bool>>) -> Cool<'a> {
        match f {
            &Form::Elem(i) => Cool::atom(move || xs.nth(i).is_some_and(|b| b.get())),
            &Form::LenGe(k) => Cool::atom(move || k == 0 || xs.nth(k - 1).is_some()),
            Form::And(a, b) => to_cool(a, xs) & to_cool(b, xs),
            Form::Seq(a, b) => Cool::seq(to_cool(a, xs), to_cool(b, xs)),
            Form::Not(a) => !to_cool(a, xs),
            Form::Lazy(i, a) => {
                let (i, a) = (*i, (**a).clone());
                Cool::lazy(move || {
                    let _ = xs.nth(i).map(|b| b.get());
                    to_cool(&a, xs)
                })
            }
        }
    }

    fn form() -> impl Strategy<Value = Form> {
        let leaf = prop_oneof![
            (0..5usize).prop_map(Form::Elem),
            (0..6usize).prop_map(Form::LenGe)
        ];
        leaf.prop_recursive(5, 24, 2, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone())
                    .prop_map(|(a, b)| Form::And(Box::new(a), Box::new(b))),
                (inner.clone(), inner.clone())
                    .prop_map(|(a, b)| Form::Seq(Box::new(a), Box::new(b))),
                inner.clone().prop_map(|a| Form::Not(Box::new(a))),
                (0..5usize, inner).prop_map(|(i, a)| Form::Lazy(i, Box::new(a))),
            ]
        })
    }

    /// Every run of a search: its result and value. `segments`: made as
    /// one run (with segments or without), or `None`: as two.
    fn runs(
        f: &Form,
        bound: usize,
        strategy: Conj,
        segments: Option<bool>,
    ) -> Vec<(bool, Vec<bool>)> {
        runs_from_stamp(f, bound, strategy, segments, 0)
    }

    /// [`runs`], with the engine's stamps moved on to `stamp` first.
    fn runs_from_stamp(
        f: &Form,
        bound: usize,
        strategy: Conj,
        segments: Option<bool>,
        stamp: u32,
    ) -> Vec<(bool, Vec<bool>)> {
        fn pred<F: for<'a> Fn(Lazy<'a, Vec<bool>>) -> Cool<'a>>(f: F) -> F {
            f
        }
        let p = pred(|xs| to_cool(f, xs));
        let mut s = Searcher::<Vec<bool>>::new(bound);
        s.fusion.fixed = segments;
        s.engine.set_stamp(stamp);
        let mut runs = vec![];
        while let Some(r) = s.step_cool_fusing(strategy, &p, segments.is_some()) {
            runs.push((r.is_true(), s.value()));
        }
        runs
    }

    /// Segments use up stamps quickly: near the end of the stamps a fused
    /// run that can not start a segment is made again as two runs, and the
    /// stamps wrap around; the search is the same.
    #[test]
    fn segments_at_the_end_of_the_stamps_search_as_two_runs() {
        let elem = |i| Box::new(Form::Elem(i));
        // Flipped by the look-ahead (the right operand fails), with lazy
        // nodes that read before computing.
        let f = Form::And(
            Box::new(Form::Lazy(2, elem(3))),
            Box::new(Form::Lazy(0, Box::new(Form::Not(elem(1))))),
        );
        for strategy in [Conj::O, Conj::OF, Conj::OS, Conj::OSF] {
            let apart = runs(&f, 9, strategy, None);
            assert!(apart.len() > 10, "a search of some size");
            for back in [1, 2, 3, 4, 5, 8, 20, 100] {
                let stamp = crate::arena::FINAL - back;
                assert_eq!(
                    runs_from_stamp(&f, 9, strategy, Some(true), stamp),
                    apart,
                    "{strategy} from {back} below the end"
                );
            }
        }
    }

    /// The look-ahead of O and OF works out the observed run: the order it
    /// meets the forcings in (per conjunction, the operands' lists kept,
    /// dropped, swapped, or, for O, a sequential conjunction's left one as
    /// recorded) and, for OF, the children's schedules; the observed run
    /// of OS and OSF is replayed over what their counting run computed.
    /// One formula per case, each a case the random formulas below meet
    /// only now and then.
    #[test]
    fn the_fused_prepass_works_out_the_observed_run_in_every_case() {
        use Form::{And, Elem, Lazy, LenGe, Not, Seq};
        let b = Box::new;
        let cases = [
            // Flipped back in order (the left operand first again).
            And(b(Not(b(Elem(0)))), b(Lazy(1, b(LenGe(1))))),
            // Flipped: the left operand dropped.
            And(b(And(b(Not(b(Elem(2)))), b(Elem(0)))), b(Not(b(Elem(0))))),
            // Flipped back, failing: the right operand dropped.
            And(
                b(Not(b(Lazy(2, b(LenGe(1)))))),
                b(Lazy(1, b(Seq(b(LenGe(2)), b(LenGe(0)))))),
            ),
            // Flipped back, failing (F's schedule: its right slot keeps
            // the left operand's old schedule).
            And(
                b(Seq(b(And(b(Elem(0)), b(Elem(1)))), b(Elem(0)))),
                b(Lazy(2, b(Not(b(LenGe(2)))))),
            ),
            // Flipped, failing (F's schedule: the quirk of its left slot).
            And(
                b(Not(b(Seq(b(Elem(3)), b(Elem(2)))))),
                b(And(b(LenGe(0)), b(Elem(0)))),
            ),
            // A sequential conjunction whose right operand fails.
            Seq(b(Lazy(0, b(LenGe(0)))), b(Elem(1))),
            Seq(
                b(And(b(Lazy(2, b(Elem(0)))), b(Not(b(Elem(3)))))),
                b(Elem(1)),
            ),
            Seq(
                b(Not(b(Elem(0)))),
                b(And(b(Elem(0)), b(And(b(Elem(1)), b(Elem(0)))))),
            ),
            // OS's counting run lists its observed run: a failing first
            // operand whose second one reads nothing new is dropped.
            And(
                b(And(b(Lazy(0, b(Elem(2)))), b(Elem(0)))),
                b(Not(b(LenGe(0)))),
            ),
            // The schedules F's observed run (OSF's) makes after a
            // counting run: both operands hold, the second fails reading
            // nothing new, the first fails.
            And(
                b(Not(b(Not(b(LenGe(0)))))),
                b(Not(b(And(b(Elem(2)), b(Elem(0)))))),
            ),
            Lazy(1, b(And(b(LenGe(3)), b(And(b(Elem(2)), b(Elem(0))))))),
            And(b(Elem(3)), b(And(b(LenGe(0)), b(Elem(0))))),
            And(b(Lazy(1, b(Lazy(0, b(Elem(0)))))), b(Elem(2))),
            Not(b(And(b(Elem(0)), b(And(b(Elem(1)), b(LenGe(3))))))),
            // The counting run of OS and OSF computes the atom of a lazy
            // node below a sequential conjunction after walking both of
            // its operands: two forcings at one position, not in a row.
            And(
                b(Not(b(Elem(0)))),
                b(Seq(b(Lazy(1, b(Elem(0)))), b(And(b(Elem(0)), b(Elem(0)))))),
            ),
            // Failing on the left: F's schedule keeps the right operand's,
            // read again in a descendant where the left one holds.
            Seq(
                b(Not(b(Seq(b(LenGe(3)), b(Seq(b(LenGe(4)), b(Elem(2)))))))),
                b(And(
                    b(And(
                        b(And(b(Elem(0)), b(Elem(0)))),
                        b(Seq(b(Elem(1)), b(Elem(0)))),
                    )),
                    b(Not(b(Not(b(LenGe(0)))))),
                )),
            ),
        ];
        for f in &cases {
            for strategy in [Conj::O, Conj::OF, Conj::OS, Conj::OSF] {
                let apart = runs(f, 7, strategy, None);
                for segments in [true, false] {
                    assert_eq!(
                        runs(f, 7, strategy, Some(segments)),
                        apart,
                        "{f:?} {strategy} {segments}"
                    );
                }
            }
        }
    }

    proptest! {
        /// O and OF make their look-ahead and observed run as one run, OS
        /// and OSF their counting run and observed run (with segments:
        /// merging the prepass's reads in the observed run's order;
        /// without: where the orders agree, or for OS and OSF where the
        /// observed run meets the first forcings in order): the search is
        /// the one the two runs made apart make, run for run.
        #[test]
        fn a_fused_prepass_searches_as_two_runs(f in form(), bound in 0..=9usize) {
            for strategy in [Conj::O, Conj::OF, Conj::OS, Conj::OSF] {
                let apart = runs(&f, bound, strategy, None);
                for segments in [true, false] {
                    prop_assert_eq!(&runs(&f, bound, strategy, Some(segments)), &apart, "{} {}", strategy, segments);
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// The formula walks go on on a fresh stack segment when the
        /// stack runs low, re-entering the node they were at: made to do
        /// so every few checks, every strategy searches exactly as
        /// without, its prepass fused or not.
        #[test]
        fn walks_that_go_on_on_fresh_stack_segments_search_alike(
            f in form(),
            bound in 0..=7usize,
            every in 2..=4u32,
        ) {
            for strategy in Conj::ALL {
                let fusings: &[Option<bool>] = match strategy {
                    Conj::D | Conj::F => &[None],
                    _ => &[None, Some(true), Some(false)],
                };
                for &segments in fusings {
                    let plain = runs(&f, bound, strategy, segments);
                    let switching = crate::cool::low_stack::every(every, || {
                        runs(&f, bound, strategy, segments)
                    });
                    prop_assert_eq!(&switching, &plain, "{} {:?}", strategy, segments);
                }
            }
        }
    }

    /// A prepass made as the observed run that panics counts as one run
    /// that panicked, with no children, as when the prepass is made apart:
    /// the same runs and results, fused or not, for every strategy with a
    /// prepass.
    #[test]
    fn a_panic_in_a_fused_prepass_searches_as_two_runs() {
        fn pred<F: for<'a> Fn(Lazy<'a, Vec<bool>>) -> Cool<'a>>(f: F) -> F {
            f
        }
        // The right operand reads the length (every cell: the last one,
        // `Nil`, could grow) and panics on lists of two: a panicking node
        // whose reads would have children.
        let p = pred(|xs| {
            Cool::atom(move || !xs.nth(0).is_some_and(|x| x.get()))
                & Cool::lazy(move || {
                    if xs.len() == 2 {
                        panic!("planted");
                    }
                    Cool::from(true)
                })
        });
        let quiet = crate::internal::quiet::Quiet::new();
        for strategy in [Conj::O, Conj::OF, Conj::OS, Conj::OSF] {
            let search = |fuse: bool, segments: Option<bool>| {
                let mut s = Searcher::<Vec<bool>>::new(14);
                s.fusion.fixed = segments;
                let mut runs = vec![];
                while let Some(r) = s.step_cool_fusing(strategy, &p, fuse) {
                    runs.push((format!("{r:?}"), s.value()));
                }
                runs
            };
            let apart = search(false, None);
            assert!(
                apart.iter().any(|(r, _)| r.contains("Panicked")),
                "{strategy}: some run panics"
            );
            // No list longer than two: a node that panicked has no children.
            assert!(apart.iter().all(|(_, xs)| xs.len() <= 2), "{strategy}");
            for segments in [true, false] {
                assert_eq!(search(true, Some(segments)), apart, "{strategy} {segments}");
            }
        }
        drop(quiet);
    }

    /// A formula whose lazy nodes keep data built in the run's arena, and
    /// read it when a strategy evaluates them, after the predicate
    /// returned: the same runs as with the data kept in `Rc`s, under
    /// every strategy, and the arena's memory is reused from run to run.
    #[test]
    fn the_run_arena_lasts_the_run_and_is_reused() {
        use std::rc::Rc;
        fn pred<F: for<'a> Fn(Lazy<'a, Vec<bool>>) -> Cool<'a>>(f: F) -> F {
            f
        }
        let in_arena = pred(|xs| {
            let arena = xs.arena();
            let prefix: Vec<bool> = xs.iter().take(5).map(|x| x.get()).collect();
            let kept: &[bool] = arena.alloc_slice(&prefix);
            let padding = arena.alloc([0u64; 64]);
            let name = arena.alloc_str("kept");
            Cool::lazy(move || Cool::from(kept.iter().filter(|x| **x).count() < 3))
                & Cool::atom(move || padding[0] == 0 && name == "kept" && xs.len() < 7)
        });
        let in_rc = pred(|xs| {
            let prefix: Vec<bool> = xs.iter().take(5).map(|x| x.get()).collect();
            let kept = Rc::new(prefix);
            Cool::lazy(move || Cool::from(kept.iter().filter(|x| **x).count() < 3))
                & Cool::atom(move || xs.len() < 7)
        });
        for strategy in Conj::ALL {
            let search = |p: &dyn Fn(&mut Searcher<Vec<bool>>) -> Option<super::RunResult>| {
                let mut s = Searcher::<Vec<bool>>::new(16);
                let mut runs = vec![];
                while let Some(r) = p(&mut s) {
                    runs.push((r.is_true(), s.value()));
                }
                (runs, s.engine.run_arena_bytes())
            };
            let (arena_runs, arena_bytes) = search(&|s| s.step_cool(strategy, &in_arena));
            let (rc_runs, _) = search(&|s| s.step_cool(strategy, &in_rc));
            assert_eq!(arena_runs, rc_runs, "{strategy}");
            assert!(arena_runs.len() > 60, "a search of some size");
            // Each run took more than 512 bytes: the memory of a few runs.
            assert!(
                arena_bytes < 16 * 1024,
                "{strategy}: {arena_bytes} bytes kept"
            );
        }
    }

    /// Reads the whole list.
    fn length(xs: Lazy<'_, Vec<bool>>) -> bool {
        xs.iter().count() < 100
    }

    #[test]
    fn skipping_a_node_skips_its_subtree_and_nothing_else() {
        let whole = super::classes(length, 6).runs;
        // Skip every node at depth 1: only the root and nothing below it.
        let mut s = Searcher::<Vec<bool>>::new(6);
        let (mut runs, mut skipped) = (0, 0);
        while s.advance() {
            if s.pending_depth() == 1 {
                s.skip_subtree();
                skipped += 1;
                continue;
            }
            assert_eq!(s.pending_depth(), 0, "below a skipped node");
            s.step(length).expect("a pending node runs");
            runs += 1;
        }
        // The root (the empty list) reads one position with one child.
        assert_eq!((runs, skipped), (1, 1));
        assert!(
            whole > 2,
            "the skipped subtree has more nodes than its root"
        );
    }
}

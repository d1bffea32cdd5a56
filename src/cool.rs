//! Concurrent booleans ("Cool") and the conjunction strategies of the NEAT
//! paper: D, O, F, OS, OF, OSF.
//!
//! A predicate may return a [`Cool`] formula instead of a `bool`. Its atoms
//! and sub-formulas are evaluated lazily, at most once per run, and its
//! parallel conjunctions may be evaluated in either order. Atoms and lazy
//! sub-formulas must therefore be pure functions of the input: under O and
//! OF a part computed once stands for its computation in another order.
//! Which order is chosen is a *schedule*, computed per search node by the
//! strategy and inherited by the node's children.
//! `docs/spec.md#strategies` states exactly what each strategy evaluates
//! and runs (after `docs/benchmarks/README.md` §6, the normative
//! description); the reference's quirks are reproduced so that run counts
//! can be compared.
//!
//! The engine asks, this module answers: per node, which run comes before
//! the observed one (`Strategy::prepass`: none, a look-ahead or a
//! counting run), the schedule that run computes (`Strategy::prepare`),
//! and the observed run's value with the schedule the children inherit
//! (`Strategy::observe`). The engine keeps a node's `Schedule` without
//! looking inside it and never tells strategies apart.

mod storage;

use std::fmt;
use std::num::NonZeroU32;
use std::str::FromStr;
use storage::{InlineFn, PairBox};

/// Gives a closure returning a formula the signature a property needs:
/// `for<'a> Fn(Lazy<'a, T>) -> Cool<'a>` (a closure's own signature can
/// not say that the formula borrows its argument). A function item needs
/// no wrapper.
///
/// ```
/// use neatcheck::cool::{formula, Cool, Strategy};
/// use neatcheck::{Config, Lazy};
/// let prop = formula(|xs: Lazy<Vec<bool>>| {
///     Cool::atom(move || xs.len() < 3) | Cool::atom(move || xs.iter().any(|x| x.get()))
/// });
/// let failure = Config::default().strategy(Strategy::OF).try_check(prop).unwrap_err();
/// assert_eq!(failure.value, vec![false, false, false]);
/// ```
pub fn formula<T, F>(prop: F) -> F
where
    F: for<'a> Fn(crate::handle::Lazy<'a, T>) -> Cool<'a>,
{
    prop
}

/// A lazily evaluated boolean formula with sequential and parallel
/// conjunction.
///
/// ```
/// use neatcheck::cool::Cool;
/// let xs = vec![1, 2, 3];
/// // Parallel conjunction: the engine may evaluate either side first.
/// let f = Cool::atom(|| xs.len() > 2) & Cool::atom(|| xs[0] == 1);
/// assert!(f.eval());
/// // Sequential conjunction: the right side only if the left holds.
/// let g = Cool::seq(Cool::atom(|| !xs.is_empty()), Cool::atom(|| xs[0] == 1));
/// assert!(g.eval());
/// ```
pub struct Cool<'a>(Node<'a>);

/// A formula node, evaluated in place: a lazy node is replaced by the
/// formula it computes and an atom by its value. Negation is a flag rather
/// than a node: a strategy passes a negation's schedule through unchanged,
/// so the flag evaluates exactly as a `Not` node would, without one.
enum Node<'a> {
    Bool(bool),
    Atom(InlineFn<'a, bool>, Negated),
    Lazy(InlineFn<'a, Cool<'a>>, Negated),
    And(PairBox<'a>, Negated),
    Seq(PairBox<'a>, Negated),
    /// A node whose closure has been taken: a lazy node or an atom being
    /// computed.
    Taken,
}

/// Whether a node's value is negated.
type Negated = bool;

impl fmt::Debug for Cool<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_levels(f, DEBUG_LEVELS)
    }
}

/// How many levels of a formula its `Debug` shows (deeper ones are `…`):
/// a formula can be as deep as its input.
const DEBUG_LEVELS: u32 = 100;

impl Cool<'_> {
    fn fmt_levels(&self, f: &mut fmt::Formatter<'_>, levels: u32) -> fmt::Result {
        let bang = if self.negated() { "!" } else { "" };
        let (pair, op) = match &self.0 {
            Node::Bool(b) => return write!(f, "{b}"),
            Node::Atom(..) => return write!(f, "{bang}<atom>"),
            Node::Lazy(..) => return write!(f, "{bang}<lazy>"),
            Node::Taken => return write!(f, "<taken>"),
            Node::And(p, _) => (p, "&"),
            Node::Seq(p, _) => (p, "&&"),
        };
        if levels == 0 {
            return write!(f, "{bang}(…)");
        }
        write!(f, "{bang}(")?;
        pair[0].fmt_levels(f, levels - 1)?;
        write!(f, " {op} ")?;
        pair[1].fmt_levels(f, levels - 1)?;
        write!(f, ")")
    }

    /// Whether the node's value is negated.
    fn negated(&self) -> bool {
        match &self.0 {
            Node::Atom(_, neg) | Node::Lazy(_, neg) | Node::And(_, neg) | Node::Seq(_, neg) => *neg,
            Node::Bool(_) | Node::Taken => false,
        }
    }
}

impl<'a> Cool<'a> {
    /// A lazily computed atom. Like every part of a formula it must be a
    /// pure function of the input: a strategy may compute it once for two
    /// orders of evaluation.
    pub fn atom(f: impl FnOnce() -> bool + 'a) -> Self {
        Cool(Node::Atom(InlineFn::new(f), false))
    }

    /// A lazily computed sub-formula (computing it may read input; like an
    /// atom, it must be a pure function of the input). Data that several
    /// closures share (an environment) can live in the run's arena
    /// ([`Lazy::arena`](crate::Lazy::arena)), shared by a reference
    /// instead of an `Rc`.
    pub fn lazy(f: impl FnOnce() -> Cool<'a> + 'a) -> Self {
        Cool(Node::Lazy(InlineFn::new(f), false))
    }

    /// A constant.
    #[inline]
    pub fn constant(b: bool) -> Self {
        Cool(Node::Bool(b))
    }

    /// Parallel conjunction: both must hold, in whichever order the
    /// strategy chooses (also written `a & b`).
    #[inline]
    pub fn and(self, other: Cool<'a>) -> Self {
        Cool(Node::And(PairBox::new([self, other]), false))
    }

    /// Sequential conjunction: `right` is evaluated only if `left` holds.
    #[inline]
    pub fn seq(left: Cool<'a>, right: Cool<'a>) -> Self {
        Cool(Node::Seq(PairBox::new([left, right]), false))
    }

    /// Parallel disjunction (also written `a | b`): `!(!a & !b)`.
    #[inline]
    pub fn or(self, other: Cool<'a>) -> Self {
        !((!self) & (!other))
    }

    /// Sequential disjunction: `right` is evaluated only if `left` fails.
    pub fn seq_or(left: Cool<'a>, right: Cool<'a>) -> Self {
        !Cool::seq(!left, !right)
    }

    /// Parallel implication: `!self | other`.
    pub fn implies(self, other: Cool<'a>) -> Self {
        (!self).or(other)
    }

    /// Sequential implication: `other` is evaluated only if `self` holds.
    pub fn seq_implies(self, other: Cool<'a>) -> Self {
        Cool::seq_or(!self, other)
    }

    /// Conjunction of many formulas, nested to the right.
    pub fn all(items: impl IntoIterator<Item = Cool<'a>>) -> Self {
        let mut v: Vec<Cool<'a>> = items.into_iter().collect();
        let mut acc = match v.pop() {
            Some(c) => c,
            None => return Cool::constant(true),
        };
        while let Some(c) = v.pop() {
            acc = c.and(acc);
        }
        acc
    }

    /// Evaluates left to right (strategy D).
    pub fn eval(mut self) -> bool {
        self.seq_value(&mut Eval::new(Forcing::Plain, &mut Flips::default()))
    }

    /// Negates in place.
    #[inline]
    fn negate(&mut self) {
        match &mut self.0 {
            Node::Bool(b) => *b = !*b,
            Node::Atom(_, neg) | Node::Lazy(_, neg) | Node::And(_, neg) | Node::Seq(_, neg) => {
                *neg = !*neg
            }
            Node::Taken => unreachable!("a taken node is never negated"),
        }
    }
}

impl<'a> std::ops::Not for Cool<'a> {
    type Output = Cool<'a>;
    #[inline]
    fn not(mut self) -> Cool<'a> {
        self.negate();
        self
    }
}

impl<'a> std::ops::BitAnd for Cool<'a> {
    type Output = Cool<'a>;
    #[inline]
    fn bitand(self, rhs: Cool<'a>) -> Cool<'a> {
        self.and(rhs)
    }
}

impl<'a> std::ops::BitOr for Cool<'a> {
    type Output = Cool<'a>;
    #[inline]
    fn bitor(self, rhs: Cool<'a>) -> Cool<'a> {
        self.or(rhs)
    }
}

impl From<bool> for Cool<'_> {
    #[inline]
    fn from(b: bool) -> Self {
        Cool::constant(b)
    }
}

/// A conjunction strategy of the NEAT paper (exactly: `docs/spec.md#strategies`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Never reorder: evaluate left to right.
    D,
    /// Optimal short-circuiting: a look-ahead run (recording nothing)
    /// flips the conjunctions whose right side alone is false.
    O,
    /// Fairness: flip every false conjunction, alternating the order of
    /// each conjunction down the search tree.
    F,
    /// O plus read-subset detection: flip when the right operand reads only
    /// positions the left one read.
    OS,
    /// O then F.
    OF,
    /// OS then F.
    OSF,
}

impl Strategy {
    /// All six, in the order of the paper's tables.
    pub const ALL: [Strategy; 6] = [
        Strategy::D,
        Strategy::O,
        Strategy::F,
        Strategy::OS,
        Strategy::OF,
        Strategy::OSF,
    ];

    /// The name used in tables (`D`, `O`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Strategy::D => "D",
            Strategy::O => "O",
            Strategy::F => "F",
            Strategy::OS => "OS",
            Strategy::OF => "OF",
            Strategy::OSF => "OSF",
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strategy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Strategy::ALL
            .into_iter()
            .find(|st| st.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown strategy {s:?} (D, O, F, OS, OF, OSF)"))
    }
}

/// The schedule of one node: per conjunction, whether to evaluate its
/// right operand first. Persistent (shared between a node and its
/// children) and opaque outside this module: the engine keeps the one a
/// node's run produced and hands it to the node's children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Schedule {
    root: Sched,
    /// How many decisions the search's [`Flips`] held when this schedule
    /// was made: the ones it may refer to.
    live: u32,
}

impl Schedule {
    /// The empty schedule (everything left to right): the root's.
    pub(crate) fn empty() -> Self {
        Schedule {
            root: None,
            live: 0,
        }
    }

    /// The empty schedule for the children of a node under this one (a
    /// node whose run made no schedule): it keeps alive what this one
    /// refers to, which the node's later siblings still read.
    pub(crate) fn emptied(self) -> Self {
        Schedule { root: None, ..self }
    }

    /// `root`, made last in `flips`.
    fn made(root: Sched, flips: &Flips) -> Self {
        Schedule {
            root,
            live: flips.len(),
        }
    }
}

/// A schedule's tree: a decision per conjunction, following the formula's
/// shape as far as a strategy has decided anything. `None` is no decision
/// (everything below left to right), and a decision to keep a conjunction
/// in order with no decision below is `None` too: the two evaluate alike,
/// and most conjunctions are never flipped, so they cost nothing.
type Sched = Option<FlipId>;

/// Where a decision lies in [`Flips`] (its index plus one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FlipId(NonZeroU32);

/// A decision for a conjunction and schedules for its operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Flip {
    right_first: bool,
    left: Sched,
    right: Sched,
}

/// The decisions of one search's schedules, in the order they were made.
///
/// A node's schedule is made by its run and read only by the runs of its
/// descendants, and the search visits nodes depth first: the decisions
/// live as on a stack. A schedule records how many decisions existed when
/// it was made, and before each run [`Flips::release_after`] drops those
/// made after the inherited schedule (by finished subtrees and by runs
/// whose node has no children). Nothing is counted or freed one by one:
/// with a reference count per decision, allocating and freeing decisions
/// was an eighth of strategy F's instructions.
#[derive(Debug, Default)]
pub(crate) struct Flips(Vec<Flip>);

impl Flips {
    fn len(&self) -> u32 {
        u32::try_from(self.0.len()).expect("fewer than 2^32 decisions on a search path")
    }

    /// Drops the decisions `inherited` cannot refer to: the ones made
    /// after it, by runs whose schedules are no longer kept.
    pub(crate) fn release_after(&mut self, inherited: &Schedule) {
        self.0.truncate(inherited.live as usize);
    }

    fn get(&self, id: FlipId) -> Flip {
        self.0[id.0.get() as usize - 1]
    }

    fn push(&mut self, flip: Flip) -> Sched {
        self.0.push(flip);
        Some(FlipId(
            NonZeroU32::new(self.len()).expect("a decision was pushed"),
        ))
    }
}

/// A run over a formula: how it computes lazy nodes and atoms, and where
/// it makes its decisions.
struct Eval<'f> {
    forcing: Forcing<'f>,
    flips: &'f mut Flips,
    /// Below this address the stack the walks are on is nearly used up
    /// (0: unknown, never): a walk one level deeper goes on on a fresh
    /// segment ([`Eval::with_room`]). The walks recurse once per level of
    /// the formula, and a formula can be as deep as the input it follows
    /// (or `Cool::all` of a long list).
    stack_floor: usize,
}

/// The stack a formula walk leaves free for the next levels and the
/// closures they call, and the size of a fresh segment when it runs out
/// (many times the red zone: a walk on a fresh segment must find room).
const STACK_RED_ZONE: usize = 256 * 1024;
const STACK_SEGMENT: usize = 16 * STACK_RED_ZONE;

/// An address near the top of the caller's stack (the frame's own).
#[inline(always)]
fn stack_address() -> usize {
    let probe = 0u8;
    std::ptr::addr_of!(probe) as usize
}

/// Tests make the walks believe, every few levels, that the stack is low,
/// so that they go on on fresh segments as often as a deep formula would
/// make them (and must search exactly as without).
#[cfg(test)]
pub(crate) mod low_stack {
    use std::cell::Cell;

    thread_local! {
        /// Every how many stack checks one says "low" (0: never), and the
        /// checks counted so far.
        static EVERY: Cell<(u32, u32)> = const { Cell::new((0, 0)) };
    }

    /// The segments the walks go on on when they pretend: smaller than
    /// real ones (the test's formulas are shallow, and a segment is
    /// mapped and unmapped each time), larger than the red zone (on a
    /// smaller one, every check would find the stack low).
    pub(super) const SEGMENT: usize = 4 * super::STACK_RED_ZONE;

    /// Pretends the stack is low at every `every`-th check on this thread
    /// while `f` runs (at least every second one: the check a walk makes
    /// again on the fresh segment must pass).
    pub(crate) fn every<R>(every: u32, f: impl FnOnce() -> R) -> R {
        assert!(every >= 2, "a walk would go on on fresh segments for ever");
        EVERY.with(|e| e.set((every, 0)));
        let result = f();
        EVERY.with(|e| e.set((0, 0)));
        result
    }

    pub(super) fn pretending() -> bool {
        EVERY.with(|e| e.get().0 > 0)
    }

    pub(super) fn pretended() -> bool {
        EVERY.with(|e| {
            let (every, count) = e.get();
            e.set((every, count.wrapping_add(1)));
            every > 0 && (count + 1) % every == 0
        })
    }
}

#[cfg(not(test))]
mod low_stack {
    pub(super) const SEGMENT: usize = super::STACK_SEGMENT;

    #[inline(always)]
    pub(super) fn pretending() -> bool {
        false
    }

    #[inline(always)]
    pub(super) fn pretended() -> bool {
        false
    }
}

/// [`Eval::stack_floor`] for the stack the caller is on.
fn stack_floor() -> usize {
    stack_low().map_or(0, |low| low.saturating_add(STACK_RED_ZONE))
}

/// The lowest usable address of the stack the caller is on: the thread's
/// own (its bounds are known), or a segment `stacker` made (it knows how
/// much is left).
fn stack_low() -> Option<usize> {
    let here = stack_address();
    if let Some((low, high)) = crate::crash::thread_stack() {
        if low < here && here <= high {
            return Some(low);
        }
    }
    stacker::remaining_stack().map(|remaining| here.saturating_sub(remaining))
}

/// Runs `f`, on a fresh stack segment when fewer than the red zone's bytes
/// are left (always, while tests pretend the stack is low), telling crash
/// isolation which stack it is on: a predicate's own stack overflow inside
/// an atom computed on a segment is then reported as one, not as a memory
/// fault.
fn with_stack_room<R>(f: impl FnOnce() -> R) -> R {
    let on_segment = || match stack_low() {
        Some(low) => crate::crash::on_stack_segment(low, f),
        None => f(),
    };
    if low_stack::pretending() {
        stacker::grow(low_stack::SEGMENT, on_segment)
    } else {
        stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, on_segment)
    }
}

impl<'f> Eval<'f> {
    fn new(forcing: Forcing<'f>, flips: &'f mut Flips) -> Self {
        Eval {
            forcing,
            flips,
            stack_floor: stack_floor(),
        }
    }

    /// Whether the stack is too far used up for a walk to go a level
    /// deeper on it.
    #[inline(always)]
    fn stack_low(&self) -> bool {
        stack_address() < self.stack_floor || low_stack::pretended()
    }

    /// Walks on (`walk`) on a fresh stack segment, or on this one if it has
    /// room after all.
    #[cold]
    #[inline(never)]
    fn with_room<R>(&mut self, walk: impl FnOnce(&mut Self) -> R) -> R {
        let outer = self.stack_floor;
        let go_on = || {
            self.stack_floor = stack_floor();
            walk(self)
        };
        let result = with_stack_room(go_on);
        self.stack_floor = outer;
        result
    }

    /// The recording run's log (O's look-ahead lists its observed order
    /// only as one).
    #[inline(always)]
    fn log(&mut self) -> &mut ForcingLog {
        match &mut self.forcing {
            Forcing::Record { log, .. } => log,
            _ => unreachable!("only a recording run lists an observed order"),
        }
    }

    /// The log of a counting run that lists its observed run's order
    /// (`LISTS`: OS's, made as the observed run, lists it in
    /// [`ForcingLog::observed`] as O's look-ahead does, and marks it
    /// `unlisted` below a sequential conjunction, whose atoms it computes
    /// out of order), or `None`.
    #[inline(always)]
    fn listing<const LISTS: bool>(&mut self) -> Option<&mut ForcingLog> {
        // (A listing counting run is always a recording one.)
        LISTS.then(|| self.log())
    }

    /// A schedule's decision for its conjunction, and its operands'
    /// schedules.
    fn split(&self, s: Sched) -> (bool, Sched, Sched) {
        match s {
            None => (false, None, None),
            Some(id) => {
                let f = self.flips.get(id);
                (f.right_first, f.left, f.right)
            }
        }
    }

    /// The decision `b` with operands' schedules `l` and `r`, sharing
    /// `old` when it is that schedule already (most conjunctions keep
    /// their schedule from one run to the next: nothing is made then).
    fn flip(&mut self, old: Sched, b: bool, l: Sched, r: Sched) -> Sched {
        let made = Flip {
            right_first: b,
            left: l,
            right: r,
        };
        match old {
            Some(id) if self.flips.get(id) == made => old,
            _ if !b && l.is_none() && r.is_none() => None,
            _ => self.flips.push(made),
        }
    }
}

/// How a run treats the computing of lazy nodes and atoms ("forcings").
///
/// The observed run of O and OF evaluates again the formula the look-ahead
/// just evaluated, possibly in another order (the look-ahead may flip
/// conjunctions) and possibly less of it (a flipped conjunction may
/// short-circuit). Each forcing reads the same positions whenever it runs
/// (a formula's parts are pure), so the look-ahead, made as an observed
/// run, can stand for both: it records its reads in one segment per
/// forcing, each segment holding every position the forcing read
/// (`Ctx::begin_segment`), and the forcings the observed run meets are
/// listed in its order: by the look-ahead as it goes ([`LookAhead`]),
/// or, where OF's observed run evaluates what the look-ahead did not
/// (rare: a sequential conjunction decided right to left), by replaying
/// it over the formula the look-ahead left computed. The observed run's
/// reads are then the look-ahead's first reads (the predicate's, before
/// any forcing) followed by those segments in that order, each position
/// kept where it comes first (`Engine::merge_segments`). Made without
/// segments (where the order rarely changes), the look-ahead's reads are
/// the observed run's only if the observed run meets every forcing in the
/// recorded order. The replay fails at the first node the look-ahead did
/// not force: that run must be made.
///
/// The counting run of OS and OSF stands for their observed run the same
/// way ([`Strategy::count_and_observe`]). It computes every operand of
/// every conjunction; OS's observed run evaluates, at each conjunction,
/// both operands or the one that fails, each under the schedule the
/// counting run returned for it, so the counting run lists its order as it
/// goes, like O's look-ahead (below a sequential conjunction, whose atoms
/// it computes out of order, and for OSF, whose observed run also makes
/// the children's schedules, the observed run is replayed instead). Made
/// without segments, it stands where the observed run meets the first
/// forcings in the recorded order and no other (it usually stops at the
/// first false operand): the reads are then the recorded ones up to the
/// first forcing skipped.
enum Forcing<'f> {
    /// Force as needed.
    Plain,
    /// Force as needed, recording each forcing and, given `segment`,
    /// starting a segment of reads there (`segment` says where it starts,
    /// or `None` when segments can not be made in this run).
    Record {
        log: &'f mut ForcingLog,
        segment: Option<&'f dyn Fn() -> Option<u32>>,
        failed: bool,
    },
    /// Force nothing; list the recorded forcings in the order met.
    Replay {
        log: &'f mut ForcingLog,
        failed: bool,
    },
}

/// Up to this many forcings, the replay finds a node's forcings by a scan.
const LINEAR_LOOKUP: usize = 16;

/// The forcings of the prepass of O, OF, OS or OSF made as the observed
/// run ([`Forcing`]), kept by the search from one run to the next so that
/// no run allocates.
#[derive(Debug, Default)]
pub(crate) struct ForcingLog {
    /// Where each forced node lies, in the look-ahead's order.
    positions: Vec<usize>,
    /// Where each forcing's segment of reads starts, in the same order
    /// (0 without segments: pushing it costs less than a second branch).
    starts: Vec<u32>,
    /// Whether the observed run's forcings were listed: always under O,
    /// under OF when the replay ran to its end (it met no node the
    /// look-ahead did not force).
    replayed: bool,
    /// Whether the order met is kept in `order` (a replay of a look-ahead
    /// made with segments, or a listed order other than the recorded
    /// one). Without, only whether the forcings were met in order counts
    /// (`next` is the first not met) and the fields after `next` stay
    /// empty.
    segmented: bool,
    next: usize,
    /// A bit per forced position (a Bloom filter): the replay looks up
    /// only the nodes whose bit is set.
    filter: [u64; 2],
    /// The forcings sorted by position, with their indices (for the
    /// replay's lookups when there are many).
    by_position: Vec<(usize, u32)>,
    /// Which forcings the replay has met.
    met: Vec<bool>,
    /// The forcings the replay met, in its order.
    order: Vec<u32>,
    /// Whether the replay met a forcing out of the look-ahead's order.
    reordered: bool,
    /// O's observed order, listed by its look-ahead: ranges of forcings
    /// (indices into `positions`), in the order the observed run meets
    /// them.
    observed: Vec<(u32, u32)>,
    /// Whether OF's observed run evaluates an operand its look-ahead never
    /// evaluated, or OS's counting run met a sequential conjunction (whose
    /// atoms it computes out of order): the observed order is then not
    /// listed, but found by a replay.
    unlisted: bool,
    /// Whether an atom computed by a lazy node was computed apart from it
    /// (by the counting run of OS and OSF, which computes the atoms below
    /// a sequential conjunction after walking both of its operands): the
    /// forcings at one position are then not all in a row.
    deferred_atoms: bool,
}

impl ForcingLog {
    fn clear(&mut self) {
        self.replayed = false;
        self.positions.clear();
        self.starts.clear();
        self.observed.clear();
        self.unlisted = false;
        self.deferred_atoms = false;
        self.next = 0;
        if self.segmented {
            self.segmented = false;
            self.filter = [0; 2];
            self.by_position.clear();
            self.met.clear();
            self.order.clear();
            self.reordered = false;
        }
    }

    /// Readies the log for the replay of a look-ahead made with segments
    /// (`segmented`) or without.
    fn index(&mut self, segmented: bool) {
        self.segmented = segmented;
        if !segmented {
            return;
        }
        if self.positions.len() > LINEAR_LOOKUP {
            self.by_position.extend(
                self.positions
                    .iter()
                    .enumerate()
                    .map(|(i, &at)| (at, i as u32)),
            );
            self.by_position.sort_unstable();
        }
        for &at in &self.positions {
            let (word, bit) = Self::filter_bit(at);
            self.filter[word] |= bit;
        }
        self.met.resize(self.positions.len(), false);
    }

    /// The word and bit of [`ForcingLog::filter`] for the node at `at`
    /// (nodes lie at least 8 bytes apart).
    #[inline(always)]
    fn filter_bit(at: usize) -> (usize, u64) {
        let h = (at >> 3) ^ (at >> 10);
        ((h >> 6) & 1, 1 << (h % 64))
    }

    /// The replay reaches the node at `at`: the forcings recorded there
    /// (several when a lazy node computed a lazy node), unless met already.
    #[inline(always)]
    fn meet(&mut self, at: usize) {
        if !self.segmented {
            // Only whether the forcings are met in order counts.
            while self.positions.get(self.next) == Some(&at) {
                self.next += 1;
            }
        } else {
            let (word, bit) = Self::filter_bit(at);
            // (Most nodes the replay meets were never forced.)
            if self.filter[word] & bit != 0 {
                self.meet_forced(at);
            }
        }
    }

    #[inline(never)]
    fn meet_forced(&mut self, at: usize) {
        let next = self.order.last().map_or(0, |&last| last as usize + 1);
        // The replay mostly meets the forcings in the look-ahead's order.
        let first = match self.positions.get(next) {
            Some(&p) if p == at && !self.deferred_atoms => Some(next),
            _ if self.positions.len() <= LINEAR_LOOKUP => {
                self.positions.iter().position(|&p| p == at)
            }
            _ => {
                let k = self.by_position.partition_point(|&(p, _)| p < at);
                match self.by_position.get(k) {
                    Some(&(p, i)) if p == at => Some(i as usize),
                    _ => None,
                }
            }
        };
        let Some(first) = first else { return };
        if self.met[first] {
            return;
        }
        self.reordered |= first != next;
        // A lazy node that computed lazy nodes was forced several times in
        // a row, at one position; the counting run may also have computed
        // the atom a lazy node computed later, when its value was needed.
        // The observed run makes all of them here, in the recorded order.
        let mut expected = first;
        for (i, &p) in self.positions.iter().enumerate().skip(first) {
            if p == at {
                self.reordered |= i != expected;
                expected = i + 1;
                self.met[i] = true;
                self.order.push(i as u32);
            } else if !self.deferred_atoms {
                break;
            }
        }
    }

    /// How many forcings the run has recorded.
    #[inline(always)]
    fn forcings(&self) -> u32 {
        self.positions.len() as u32
    }

    /// Where the observed order's next entry goes.
    #[inline(always)]
    fn observed_mark(&self) -> usize {
        self.observed.len()
    }

    /// The observed run meets here the forcings recorded since `first`.
    #[inline(always)]
    fn observe_since(&mut self, first: u32) {
        let now = self.forcings();
        if now > first {
            self.observed.push((first, now));
        }
    }

    /// The observed run skips the operand observed in `from..to`.
    fn unobserve(&mut self, from: usize, to: usize) {
        self.observed.drain(from..to);
    }

    /// The observed run meets the operand observed from `second` on before
    /// the one observed in `first..second`.
    fn observe_swapped(&mut self, first: usize, second: usize) {
        self.observed[first..].rotate_left(second - first);
    }

    /// The observed run meets the forcings of the operand observed in
    /// `from..to` in the order they were recorded.
    /// (`recorded`: the forcings recorded while it was evaluated.)
    fn observe_as_recorded(&mut self, from: usize, to: usize, recorded: (u32, u32)) {
        if recorded.0 == recorded.1 {
            self.observed.drain(from..to);
        } else {
            self.observed.splice(from..to, [recorded]);
        }
    }

    /// Ends a fused run whose prepass listed the observed order (O's, OF's
    /// unless `unlisted`, OS's counting run's): whether the observed run's
    /// reads can be made from the recorded ones (with segments, or when it
    /// meets every forcing in the recorded order, or, given `prefixes` (the
    /// run noted where each forcing's reads begin), the first ones in the
    /// recorded order and no other). Leaves the verdict as a replay would
    /// ([`ForcingLog::met_in_order`], [`ForcingLog::reordering`],
    /// [`ForcingLog::unmet_reads_from`]).
    fn order_observed(&mut self, segmented: bool, prefixes: bool) -> bool {
        self.replayed = true;
        let mut next = 0;
        let mut in_order = true;
        for &(first, end) in &self.observed {
            if first != next {
                in_order = false;
                break;
            }
            next = end;
        }
        if next == self.forcings() {
            self.index(false);
            self.next = self.positions.len();
            return true;
        }
        if in_order && prefixes {
            // The first forcings, in order: the reads up to the next one
            // (`unmet_reads_from`), segments or not.
            self.segmented = true;
            self.reordered = false;
            self.order.extend(0..next);
            return true;
        }
        if !segmented {
            // Counted as out of order: the run is made again.
            self.index(false);
            return false;
        }
        self.segmented = true;
        self.reordered = true;
        let order = &mut self.order;
        for &(first, end) in &self.observed {
            order.extend(first..end);
        }
        true
    }

    /// Where each forcing's segment of reads starts, in the look-ahead's
    /// order.
    pub(crate) fn segment_starts(&self) -> &[u32] {
        &self.starts
    }

    /// Whether the observed run's forcings were listed (under OF: the
    /// last replay ran to its end).
    pub(crate) fn replayed(&self) -> bool {
        self.replayed
    }

    /// Whether the replay met every forcing, in the look-ahead's order
    /// (then the look-ahead's reads are the observed run's, segments or
    /// not).
    pub(crate) fn met_in_order(&self) -> bool {
        if !self.segmented {
            return self.next == self.positions.len();
        }
        !self.reordered && self.order.len() == self.positions.len()
    }

    /// Whether the replay met the first forcings in the look-ahead's order
    /// and no other (all of them, or only a prefix: then the observed
    /// run's reads are the recorded ones up to where the first forcing it
    /// did not meet began, [`ForcingLog::unmet_reads_from`]).
    pub(crate) fn met_a_prefix(&self) -> bool {
        if !self.segmented {
            return self.met_in_order();
        }
        !self.reordered
    }

    /// Where the reads of the first forcing the replay did not meet begin,
    /// when it met only a prefix of them in order (from a recording run
    /// that noted where each forcing's reads begin).
    pub(crate) fn unmet_reads_from(&self) -> Option<u32> {
        if !self.segmented || self.reordered {
            return None;
        }
        self.starts.get(self.order.len()).copied()
    }

    /// The forcings the observed run met, in its order (indices into
    /// [`ForcingLog::segment_starts`]), or `None` when that is all of them
    /// in the look-ahead's order.
    pub(crate) fn reordering(&self) -> Option<&[u32]> {
        (!self.met_in_order()).then_some(&self.order[..])
    }
}

impl Forcing<'_> {
    fn replaying(&self) -> bool {
        matches!(self, Forcing::Replay { .. })
    }

    /// A forcing of the node at `at` begins.
    fn record(&mut self, at: usize) {
        if let Forcing::Record {
            log,
            segment,
            failed,
        } = self
        {
            match segment.map_or(Some(0), |segment| segment()) {
                Some(start) => {
                    log.positions.push(at);
                    log.starts.push(start);
                }
                None => *failed = true,
            }
        }
    }

    /// The atom a lazy node computed is left for later: the node's
    /// forcings will not all be in a row.
    fn defer_atom(&mut self) {
        if let Forcing::Record { log, .. } = self {
            log.deferred_atoms = true;
        }
    }

    /// The replay reaches the node at `at`.
    fn replay(&mut self, at: usize) {
        if let Forcing::Replay { log, .. } = self {
            log.meet(at);
        }
    }

    fn fail(&mut self) {
        if let Forcing::Replay { failed, .. } = self {
            *failed = true;
        }
    }
}

/// The look-ahead and the observed run of a node made as one run
/// ([`Strategy::look_ahead_and_observe`]).
#[derive(Debug)]
pub(crate) enum Fused {
    /// The observed run forced nothing the look-ahead did not (and, made
    /// without segments, forced it all in the same order): its value and
    /// the schedule the children inherit. The node's reads are the run's,
    /// or with segments, its segments merged in the order of the log the
    /// run was given (`Engine::merge_segments`).
    Observed(bool, Schedule),
    /// The observed run needs more: the run's reads are to be discarded
    /// and the observed run made from this schedule.
    Rerun(Schedule),
}

/// A result of the counting run, not yet forced: the counting run walks
/// both operands of a sequential conjunction before forcing its atoms.
/// An atom is forced in place, as a forcing of the run (so that a fused
/// counting run can stand for the observed one, see
/// [`Strategy::count_and_observe`]).
enum LRes<'r, 'a> {
    Known(bool),
    Atom(&'r mut Cool<'a>),
    And(Box<(LRes<'r, 'a>, LRes<'r, 'a>)>, Negated),
}

impl LRes<'_, '_> {
    fn force(self, ev: &mut Eval) -> bool {
        if ev.stack_low() {
            return ev.with_room(|ev| self.force(ev));
        }
        match self {
            LRes::Known(b) => b,
            LRes::Atom(atom) => atom.leaf_value(ev),
            LRes::And(p, neg) => {
                let (a, b) = *p;
                let v = if a.force(ev) {
                    b.force(ev)
                } else {
                    b.discard();
                    false
                };
                v != neg
            }
        }
    }

    /// Drops a result left unforced, its nested pairs one by one rather
    /// than recursively (a chain of sequential conjunctions is as deep as
    /// its formula).
    fn discard(self) {
        if let LRes::And(..) = self {
            let mut pending = vec![self];
            while let Some(res) = pending.pop() {
                if let LRes::And(p, _) = res {
                    let (a, b) = *p;
                    pending.extend([a, b]);
                }
            }
        }
    }
}

/// The runs of the strategies, on the formula in place: each lazy node and
/// each atom is computed at most once per run.
impl<'a> Cool<'a> {
    /// Forces lazy nodes until this one is a constant, an atom or a
    /// conjunction.
    #[inline(always)]
    fn resolve(&mut self, ev: &mut Eval) {
        // Most nodes a run meets are resolved already (a conjunction's
        // operands once its lazy parent is forced): a check here, the
        // forcing loop out of line, so the walks stay small.
        if let Node::Lazy(..) = self.0 {
            if let Forcing::Plain = ev.forcing {
                self.force_plain();
            } else {
                self.force_lazy(ev);
            }
        } else {
            ev.forcing.replay(self.position());
        }
    }

    /// [`Cool::resolve`] of a lazy node in a run that neither records nor
    /// replays: the forcing loop alone, small enough to save few
    /// registers.
    #[inline(never)]
    fn force_plain(&mut self) {
        while let Node::Lazy(..) = self.0 {
            self.force_once();
        }
    }

    /// Replaces a lazy node by the formula it computes.
    #[inline(always)]
    fn force_once(&mut self) {
        if self.compute_lazy() {
            self.negate();
        }
    }

    /// [`Cool::resolve`] of a lazy node.
    #[inline(never)]
    fn force_lazy(&mut self, ev: &mut Eval) {
        let at = self.position();
        while let Node::Lazy(..) = self.0 {
            if ev.forcing.replaying() {
                // The replay needs a node the recorded run never computed.
                ev.forcing.fail();
                self.0 = Node::Bool(false);
                return;
            }
            ev.forcing.record(at);
            self.force_once();
        }
        ev.forcing.replay(at);
    }

    /// The value of a constant or an atom (computing the atom once).
    fn leaf_value(&mut self, ev: &mut Eval) -> bool {
        match self.0 {
            // (Its replay was met by `resolve`, which every caller calls
            // first.)
            Node::Bool(b) => b,
            Node::Atom(..) if ev.forcing.replaying() => {
                ev.forcing.fail();
                false
            }
            Node::Atom(..) => {
                ev.forcing.record(self.position());
                self.compute_atom()
            }
            _ => unreachable!("not an atom"),
        }
    }

    /// Where the node lies (its identity for [`Eval`]).
    fn position(&self) -> usize {
        self as *const Cool<'a> as usize
    }

    /// Left-to-right evaluation.
    fn seq_value(&mut self, ev: &mut Eval) -> bool {
        self.resolve(ev);
        match &mut self.0 {
            // (As in `run`.)
            Node::And(..) | Node::Seq(..) if ev.stack_low() => {
                ev.with_room(|ev| self.seq_value(ev))
            }
            Node::And(p, neg) | Node::Seq(p, neg) => {
                let neg = *neg;
                let [l, r] = &mut **p;
                (l.seq_value(ev) && r.seq_value(ev)) != neg
            }
            _ => self.leaf_value(ev),
        }
    }

    /// The observed run of O and OS: evaluation under schedule `s`.
    fn run(&mut self, s: Sched, ev: &mut Eval) -> bool {
        if s.is_none() {
            return self.seq_value(ev);
        }
        let (b, sl, sr) = ev.split(s);
        self.resolve(ev);
        match &mut self.0 {
            // (Resolving the node again there only meets it again in a
            // replay, which changes nothing.)
            Node::Seq(..) | Node::And(..) if ev.stack_low() => ev.with_room(|ev| self.run(s, ev)),
            Node::Seq(p, neg) => {
                let neg = *neg;
                let [l, r] = &mut **p;
                (l.run(sl, ev) && r.run(sr, ev)) != neg
            }
            Node::And(p, neg) => {
                let neg = *neg;
                let [l, r] = &mut **p;
                // The order matters: the first operand is evaluated first
                // and may short-circuit (and read less).
                #[allow(clippy::if_same_then_else)]
                let v = if b {
                    r.run(sr, ev) && l.run(sl, ev)
                } else {
                    l.run(sl, ev) && r.run(sr, ev)
                };
                v != neg
            }
            _ => self.leaf_value(ev),
        }
    }

    /// The look-ahead run of O and OF: the schedule that evaluates first
    /// every operand found false, and the value. With `M` other than
    /// [`Look`] (a fused run, recording), it also lists in the log the
    /// forcings the observed run meets, in its order
    /// ([`ForcingLog::observed`]), and with [`LookOF`] it also returns
    /// the schedule F's observed run makes under the returned one (the
    /// children's schedule under OF).
    fn lookahead<M: LookAhead>(&mut self, s: Sched, ev: &mut Eval) -> (Sched, bool, M::Fair) {
        if ev.stack_low() {
            return ev.with_room(|ev| self.lookahead::<M>(s, ev));
        }
        let first = if M::LISTS { ev.log().forcings() } else { 0 };
        self.resolve(ev);
        let (s2, v, s3, neg) = match &mut self.0 {
            Node::Seq(p, neg) => {
                if M::LISTS {
                    ev.log().observe_since(first);
                }
                let [l, r] = &mut **p;
                let (s2, v, s3) = lookahead_seq::<M>(s, l, r, ev);
                (s2, v, s3, *neg)
            }
            Node::And(p, neg) => {
                if M::LISTS {
                    ev.log().observe_since(first);
                }
                let [l, r] = &mut **p;
                let (s2, v, s3) = lookahead_and::<M>(s, l, r, ev);
                (s2, v, s3, *neg)
            }
            _ => {
                let v = self.leaf_value(ev);
                if M::LISTS {
                    ev.log().observe_since(first);
                }
                return (s, v, M::fair(|| s));
            }
        };
        (s2, v != neg, s3)
    }

    /// The observed run of F, OF and OSF: the value and the schedule the
    /// children inherit (every false conjunction alternates).
    fn par(&mut self, s: Sched, ev: &mut Eval) -> (Sched, bool) {
        self.resolve(ev);
        let (s2, v, neg) = match &mut self.0 {
            // (As in `run`.)
            Node::Seq(..) | Node::And(..) if ev.stack_low() => {
                return ev.with_room(|ev| self.par(s, ev))
            }
            Node::Seq(p, neg) => {
                let [l, r] = &mut **p;
                let (s2, v) = par_seq(s, l, r, ev);
                (s2, v, *neg)
            }
            Node::And(p, neg) => {
                let [l, r] = &mut **p;
                let (s2, v) = par_and(s, l, r, ev);
                (s2, v, *neg)
            }
            _ => return (s, self.leaf_value(ev)),
        };
        (s2, v != neg)
    }

    /// The counting run of OS and OSF.
    fn subset<'r, const LISTS: bool>(
        &'r mut self,
        s: Sched,
        ev: &mut Eval,
        count: &dyn Fn() -> usize,
    ) -> (Sched, LRes<'r, 'a>) {
        if ev.stack_low() {
            return ev.with_room(|ev| self.subset::<LISTS>(s, ev, count));
        }
        let lazy = matches!(self.0, Node::Lazy(..));
        let first = ev.listing::<LISTS>().map_or(0, |log| log.forcings());
        self.resolve(ev);
        if let Node::Atom(..) = self.0 {
            if lazy {
                // Its atom is computed later than the lazy node.
                ev.forcing.defer_atom();
            }
            if let Some(log) = ev.listing::<LISTS>() {
                log.unlisted = true;
            }
            return (s, LRes::Atom(self));
        }
        if let Some(log) = ev.listing::<LISTS>() {
            log.observe_since(first);
        }
        match &mut self.0 {
            Node::Bool(b) => (s, LRes::Known(*b)),
            Node::Seq(p, neg) => {
                if let Some(log) = ev.listing::<LISTS>() {
                    log.unlisted = true;
                }
                let neg = *neg;
                let [l, r] = &mut **p;
                let (b, sl, sr) = ev.split(s);
                let (sl2, rl) = l.subset::<LISTS>(sl, ev, count);
                let (sr2, rr) = r.subset::<LISTS>(sr, ev, count);
                (ev.flip(s, b, sl2, sr2), LRes::And(Box::new((rl, rr)), neg))
            }
            Node::And(p, neg) => {
                let neg = *neg;
                let [l, r] = &mut **p;
                let (s2, v) = subset_and::<LISTS>(s, l, r, ev, count);
                (s2, LRes::Known(v != neg))
            }
            Node::Atom(..) | Node::Lazy(..) | Node::Taken => unreachable!("resolved"),
        }
    }

    /// The counting run, forced at once: [`Cool::subset`] then
    /// [`LRes::force`], an atom computed in place (not moved out first).
    fn subset_value<const LISTS: bool>(
        &mut self,
        s: Sched,
        ev: &mut Eval,
        count: &dyn Fn() -> usize,
    ) -> (Sched, bool) {
        if ev.stack_low() {
            return ev.with_room(|ev| self.subset_value::<LISTS>(s, ev, count));
        }
        let first = ev.listing::<LISTS>().map_or(0, |log| log.forcings());
        self.resolve(ev);
        match &mut self.0 {
            Node::Bool(b) => {
                let b = *b;
                if let Some(log) = ev.listing::<LISTS>() {
                    log.observe_since(first);
                }
                (s, b)
            }
            Node::Atom(..) => {
                let v = self.leaf_value(ev);
                if let Some(log) = ev.listing::<LISTS>() {
                    log.observe_since(first);
                }
                (s, v)
            }
            Node::And(p, neg) => {
                let neg = *neg;
                if let Some(log) = ev.listing::<LISTS>() {
                    log.observe_since(first);
                }
                let [l, r] = &mut **p;
                let (s2, v) = subset_and::<LISTS>(s, l, r, ev, count);
                (s2, v != neg)
            }
            Node::Seq(..) => {
                let (s2, res) = self.subset::<LISTS>(s, ev, count);
                (s2, res.force(ev))
            }
            Node::Lazy(..) | Node::Taken => unreachable!("resolved"),
        }
    }
}

/// What a look-ahead run works out besides its schedule and value
/// ([`Cool::lookahead`]).
trait LookAhead {
    /// Whether it lists the observed run's forcings in the log.
    const LISTS: bool;
    /// Whether the observed run is F's (OF's) rather than O's.
    const FAIR: bool;
    /// What it returns of F's observed run under the returned schedule:
    /// the schedule that run makes, or nothing (`()`, which costs
    /// nothing to return).
    type Fair: Copy;
    /// F's schedule `s`, kept when it is made.
    fn fair(s: impl FnOnce() -> Sched) -> Self::Fair;
    /// The schedule kept by [`LookAhead::fair`] (only read where made).
    fn sched(f: Self::Fair) -> Sched;
}

/// A look-ahead that leaves F's observed run alone, listing O's observed
/// order or not.
struct LookUnfair<const LISTS: bool>;
/// The prepass run: nothing more.
type Look = LookUnfair<false>;
/// O's fused run: O's observed order.
type LookO = LookUnfair<true>;
/// OF's fused run: OF's observed order and the children's schedules.
struct LookOF;

impl<const L: bool> LookAhead for LookUnfair<L> {
    const LISTS: bool = L;
    const FAIR: bool = false;
    type Fair = ();
    fn fair(_: impl FnOnce() -> Sched) {}
    fn sched((): ()) -> Sched {
        None
    }
}

impl LookAhead for LookOF {
    const LISTS: bool = true;
    const FAIR: bool = true;
    type Fair = Sched;
    #[inline(always)]
    fn fair(s: impl FnOnce() -> Sched) -> Sched {
        s()
    }
    #[inline(always)]
    fn sched(f: Sched) -> Sched {
        f
    }
}

// The observed runs, worked out by the look-ahead. O's observed run follows
// the schedule the look-ahead returns, and at every conjunction it
// evaluates only operands the look-ahead evaluated, each under the schedule
// the look-ahead returned for it, except where a sequential conjunction
// keeps its left operand's old schedule: that operand is evaluated as the
// look-ahead evaluated it. So a conjunction's observed forcings are its
// operands' observed forcings, one of them, both in either order, or (that
// exception) the left operand's recorded forcings then the right
// operand's observed ones: each case below edits the list its operands
// left. F's observed run under that schedule (OF's) evaluates the same
// operands under the same schedules, in the same order, except that a
// sequential conjunction decided right to left evaluates its right operand
// first: where the look-ahead returned that decision, the right operand
// alone (it fails), and where it kept it, an operand the look-ahead never
// evaluated: OF's order is then found by a replay (`ForcingLog::unlisted`).
// The schedule F's run makes at a conjunction (`s3`) follows from the
// schedules it makes for those operands, which their look-aheads returned.

fn lookahead_seq<'a, M: LookAhead>(
    s: Sched,
    l: &mut Cool<'a>,
    r: &mut Cool<'a>,
    ev: &mut Eval,
) -> (Sched, bool, M::Fair) {
    let (b, sl, sr) = ev.split(s);
    let (left_start, left_forcings) = if M::LISTS {
        (ev.log().observed_mark(), ev.log().forcings())
    } else {
        (0, 0)
    };
    let (sl2, lv, sl3) = l.lookahead::<M>(sl, ev);
    if !lv {
        let s2 = ev.flip(s, b, sl2, sr);
        if M::FAIR && b {
            // F evaluates first the right operand, never evaluated: its
            // run is left to the replay.
            ev.log().unlisted = true;
            return (s2, false, M::fair(|| None));
        }
        return (s2, false, M::fair(|| ev.flip(s2, false, M::sched(sl3), sr)));
    }
    let (right_start, right_forcings) = if M::LISTS {
        (ev.log().observed_mark(), ev.log().forcings())
    } else {
        (0, 0)
    };
    let (sr2, rv, sr3) = r.lookahead::<M>(sr, ev);
    if rv {
        let s2 = ev.flip(s, false, sl2, sr2);
        (
            s2,
            true,
            M::fair(|| ev.flip(s2, false, M::sched(sl3), M::sched(sr3))),
        )
    } else {
        let s2 = ev.flip(s, true, sl, sr2);
        if M::FAIR {
            // F: the right operand first, and it fails.
            ev.log().unobserve(left_start, right_start);
        } else if M::LISTS {
            // The left operand keeps `sl`, the schedule it was just
            // evaluated under: it is evaluated as recorded.
            ev.log()
                .observe_as_recorded(left_start, right_start, (left_forcings, right_forcings));
        }
        // (F's quirk)
        (s2, false, M::fair(|| ev.flip(s2, true, sr2, M::sched(sr3))))
    }
}

fn lookahead_and<'a, M: LookAhead>(
    s: Sched,
    l: &mut Cool<'a>,
    r: &mut Cool<'a>,
    ev: &mut Eval,
) -> (Sched, bool, M::Fair) {
    let (b, sl, sr) = ev.split(s);
    let first_start = if M::LISTS {
        ev.log().observed_mark()
    } else {
        0
    };
    // F's schedule under `s2`, made only for OF.
    let fair =
        |ev: &mut Eval, s2: Sched, b: bool, l: Sched, r: Sched| M::fair(|| ev.flip(s2, b, l, r));
    if !b {
        let (sl2, lv, sl3) = l.lookahead::<M>(sl, ev);
        if !lv {
            let s2 = ev.flip(s, false, sl2, sr);
            return (s2, false, fair(ev, s2, true, M::sched(sl3), sr));
        }
        let second_start = if M::LISTS {
            ev.log().observed_mark()
        } else {
            0
        };
        let (sr2, rv, sr3) = r.lookahead::<M>(sr, ev);
        if rv {
            let s2 = ev.flip(s, false, sl2, sr2);
            (s2, true, fair(ev, s2, false, M::sched(sl3), M::sched(sr3)))
        } else {
            if M::LISTS {
                // Flipped: the right operand alone, and it fails.
                ev.log().unobserve(first_start, second_start);
            }
            let s2 = ev.flip(s, true, sl, sr2);
            (s2, false, fair(ev, s2, false, sr2, M::sched(sr3))) // (F's quirk)
        }
    } else {
        let (sr2, rv, sr3) = r.lookahead::<M>(sr, ev);
        if !rv {
            // (quirk) the left slot gets the old right schedule.
            let s2 = ev.flip(s, true, sr, sr2);
            return (s2, false, fair(ev, s2, false, sr2, M::sched(sr3))); // (F's quirk)
        }
        let second_start = if M::LISTS {
            ev.log().observed_mark()
        } else {
            0
        };
        let (sl2, lv, sl3) = l.lookahead::<M>(sl, ev);
        if lv {
            if M::LISTS {
                // Back in order: the left operand first.
                ev.log().observe_swapped(first_start, second_start);
            }
            let s2 = ev.flip(s, false, sl2, sr2);
            (s2, true, fair(ev, s2, false, M::sched(sl3), M::sched(sr3)))
        } else {
            if M::LISTS {
                // Back in order: the left operand alone, and it fails.
                ev.log().unobserve(first_start, second_start);
            }
            // (quirk) the right slot gets the old left schedule.
            let s2 = ev.flip(s, false, sl2, sl);
            (s2, false, fair(ev, s2, true, M::sched(sl3), sl))
        }
    }
}

fn par_seq<'a>(s: Sched, l: &mut Cool<'a>, r: &mut Cool<'a>, ev: &mut Eval) -> (Sched, bool) {
    let (b, sl, sr) = ev.split(s);
    if !b {
        let (sl2, lv) = l.par(sl, ev);
        if !lv {
            return (ev.flip(s, false, sl2, sr), false);
        }
        let (sr2, rv) = r.par(sr, ev);
        if rv {
            (ev.flip(s, false, sl2, sr2), true)
        } else {
            (ev.flip(s, false, sl, sr2), false)
        }
    } else {
        let (sr2, rv) = r.par(sr, ev);
        if !rv {
            return (ev.flip(s, true, sr, sr2), false); // (quirk)
        }
        let (sl2, lv) = l.par(sl, ev);
        if lv {
            (ev.flip(s, true, sl2, sr2), true)
        } else {
            (ev.flip(s, true, sl2, sl), false) // (quirk)
        }
    }
}

fn par_and<'a>(s: Sched, l: &mut Cool<'a>, r: &mut Cool<'a>, ev: &mut Eval) -> (Sched, bool) {
    let (b, sl, sr) = ev.split(s);
    if !b {
        let (sl2, lv) = l.par(sl, ev);
        if !lv {
            return (ev.flip(s, true, sl2, sr), false);
        }
        let (sr2, rv) = r.par(sr, ev);
        if rv {
            (ev.flip(s, false, sl2, sr2), true)
        } else {
            (ev.flip(s, true, sl, sr2), false)
        }
    } else {
        let (sr2, rv) = r.par(sr, ev);
        if !rv {
            return (ev.flip(s, false, sr, sr2), false); // (quirk)
        }
        let (sl2, lv) = l.par(sl, ev);
        if lv {
            (ev.flip(s, false, sl2, sr2), true)
        } else {
            (ev.flip(s, false, sl2, sl), false) // (quirk)
        }
    }
}

/// The counting run of a parallel conjunction `l & r` under schedule `s`:
/// its operands in the scheduled order, flipped when the second one fails
/// without reading anything new.
fn subset_and<'a, const LISTS: bool>(
    s: Sched,
    l: &mut Cool<'a>,
    r: &mut Cool<'a>,
    ev: &mut Eval,
    count: &dyn Fn() -> usize,
) -> (Sched, bool) {
    let (b, sl, sr) = ev.split(s);
    let ((first, sfirst), (second, ssecond)) = if b {
        ((r, sr), (l, sl))
    } else {
        ((l, sl), (r, sr))
    };
    // OS's observed run, listed (`Eval::listing`): it evaluates each
    // operand under the schedule this run returns for it and stops at
    // the first that fails, so its list here is both operands' lists,
    // left first, or the list of the one operand it evaluates (the quirky
    // schedules are those of an operand it never evaluates).
    let first_at = ev.listing::<LISTS>().map_or(0, |log| log.observed_mark());
    let (sf2, fv) = first.subset_value::<LISTS>(sfirst, ev, count);
    let second_at = ev.listing::<LISTS>().map_or(0, |log| log.observed_mark());
    // New schedules of the left and right operands once known.
    let assign = |sf2: Sched, ss2: Sched| -> (Sched, Sched) {
        if b {
            (ss2, sf2)
        } else {
            (sf2, ss2)
        }
    };
    if fv {
        let (ss2, sv) = second.subset_value::<LISTS>(ssecond, ev, count);
        let (sl2, sr2) = assign(sf2, ss2);
        if sv {
            if b {
                if let Some(log) = ev.listing::<LISTS>() {
                    // Back in order: the left operand (second here) first.
                    log.observe_swapped(first_at, second_at);
                }
            }
            return (ev.flip(s, false, sl2, sr2), true);
        }
        // The second fails: "second is subset".
        if let Some(log) = ev.listing::<LISTS>() {
            log.unobserve(first_at, second_at);
        }
        return (second_is_subset(ev, s, b, sl, sl2, sr2), false);
    }
    let n = count();
    let (ss2, sv) = second.subset_value::<LISTS>(ssecond, ev, count);
    let (sl2, sr2) = assign(sf2, ss2);
    if sv || count() > n {
        // "first fails"
        if let Some(log) = ev.listing::<LISTS>() {
            let end = log.observed_mark();
            log.unobserve(second_at, end);
        }
        let s = if !b {
            ev.flip(s, false, sl2, sr)
        } else {
            ev.flip(s, true, sr, sr2) // (quirk)
        };
        (s, false)
    } else {
        if let Some(log) = ev.listing::<LISTS>() {
            log.unobserve(first_at, second_at);
        }
        (second_is_subset(ev, s, b, sl, sl2, sr2), false)
    }
}

/// The schedule of a conjunction (`s`, flipped if `b`, left operand's
/// schedule `sl`) whose second operand failed reading nothing the first did
/// not: the second goes first from now on.
fn second_is_subset(ev: &mut Eval, s: Sched, b: bool, sl: Sched, sl2: Sched, sr2: Sched) -> Sched {
    if !b {
        ev.flip(s, true, sl, sr2)
    } else {
        ev.flip(s, false, sl2, sl) // (quirk)
    }
}

/// The run a strategy makes of a node before the observed one, to choose
/// the schedule the observed run starts from (the per-node table of
/// `docs/spec.md#strategies`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Prepass {
    /// None (D, F): the observed run starts from the inherited schedule.
    Nothing,
    /// A look-ahead run that records no reads (O, OF).
    LookAhead,
    /// A run that counts the reads of each conjunction's second operand
    /// (OS, OSF); the engine discards its reads afterwards. The counts
    /// depend on which positions are locked, so the engine must lock a
    /// node's children exactly as the reference does.
    CountReads,
}

/// The strategies' answers to the engine: which runs a node needs, and
/// what each run makes of the node's formula. The engine only ever holds
/// [`Schedule`]s, never looks inside them, and does not tell strategies
/// apart.
impl Strategy {
    /// Which run precedes a node's observed run.
    pub(crate) fn prepass(self) -> Prepass {
        match self {
            Strategy::D | Strategy::F => Prepass::Nothing,
            Strategy::O | Strategy::OF => Prepass::LookAhead,
            Strategy::OS | Strategy::OSF => Prepass::CountReads,
        }
    }

    /// The prepass: the schedule the observed run starts from, computed
    /// from the node's formula `c` under the schedule the node inherited.
    /// `reads` tells how many positions the run has read so far (only the
    /// counting prepass asks).
    pub(crate) fn prepare(
        self,
        c: Cool<'_>,
        inherited: Schedule,
        reads: &dyn Fn() -> usize,
        flips: &mut Flips,
    ) -> Schedule {
        let s = inherited.root;
        let mut ev = Eval::new(Forcing::Plain, flips);
        let start = match self.prepass() {
            Prepass::Nothing => s,
            Prepass::LookAhead => {
                let mut c = c;
                c.lookahead::<Look>(s, &mut ev).0
            }
            Prepass::CountReads => {
                let mut c = c;
                let (start, root) = c.subset::<false>(s, &mut ev, reads);
                root.discard();
                start
            }
        };
        Schedule::made(start, flips)
    }

    /// The observed run of a node: the formula's value, and the schedule
    /// the node's children inherit. `start` is the prepass's schedule, or
    /// the inherited one when the strategy has no prepass.
    pub(crate) fn observe(
        self,
        c: Cool<'_>,
        start: Schedule,
        flips: &mut Flips,
    ) -> (bool, Schedule) {
        let s = start.root;
        let mut ev = Eval::new(Forcing::Plain, flips);
        let (value, children) = match self {
            // No formula needed: the plain left-to-right evaluation.
            Strategy::D => (c.eval(), s),
            Strategy::O | Strategy::OS => {
                let mut c = c;
                (c.run(s, &mut ev), s)
            }
            Strategy::F | Strategy::OF | Strategy::OSF => {
                let mut c = c;
                let (children, value) = c.par(s, &mut ev);
                (value, children)
            }
        };
        (value, Schedule::made(children, flips))
    }
}

impl Strategy {
    /// For a strategy whose prepass is the look-ahead (O, OF): the
    /// look-ahead of a node, made as an observed run whose reads are
    /// recorded in segments when `segment` is given (it starts one), and
    /// the observed run worked out by the look-ahead itself: the order in
    /// which it meets its forcings, in `log`, and under OF the children's
    /// schedules (or, where OF's observed run evaluates what the look-ahead
    /// did not, by replaying it over the formula the look-ahead computed;
    /// no predicate code runs again). Exactly [`Strategy::prepare`] then
    /// [`Strategy::observe`] when that succeeds (see [`Forcing`]);
    /// otherwise the observed run is still to make, from the returned
    /// schedule. Without segments it succeeds only if the observed run
    /// meets every forcing in the recorded order: segments cost a little on
    /// every run and save a whole run where the order changes.
    pub(crate) fn look_ahead_and_observe(
        self,
        c: Cool<'_>,
        inherited: Schedule,
        flips: &mut Flips,
        log: &mut ForcingLog,
        segment: Option<&dyn Fn() -> Option<u32>>,
    ) -> Fused {
        debug_assert_eq!(self.prepass(), Prepass::LookAhead);
        log.clear();
        let mut c = c;
        let (start, recorded) = {
            let mut ev = Eval::new(
                Forcing::Record {
                    log: &mut *log,
                    segment,
                    failed: false,
                },
                &mut *flips,
            );
            let (start, value, fair) = if self == Strategy::O {
                let (start, value, ()) = c.lookahead::<LookO>(inherited.root, &mut ev);
                (start, value, None)
            } else {
                c.lookahead::<LookOF>(inherited.root, &mut ev)
            };
            let recorded = !matches!(ev.forcing, Forcing::Record { failed: true, .. });
            (start, recorded.then_some((value, fair)))
        };
        let Some((value, fair)) = recorded else {
            return Fused::Rerun(Schedule::made(start, flips));
        };
        // The look-ahead worked out the observed run (its value is the
        // look-ahead's: a formula's parts are pure), unless OF's meets an
        // operand the look-ahead never evaluated.
        if !log.unlisted {
            let children = if self == Strategy::O { start } else { fair };
            return if log.order_observed(segment.is_some(), false) {
                Fused::Observed(value, Schedule::made(children, flips))
            } else {
                Fused::Rerun(Schedule::made(start, flips))
            };
        }
        Strategy::OF.replay_observed(&mut c, start, flips, log, segment.is_some(), false)
    }

    /// For a strategy whose prepass counts reads (OS, OSF): the counting
    /// run of a node, made as an observed run whose reads are recorded in
    /// segments when `segment` is given (it starts one), which works out
    /// OS's observed run as it goes or else replays the observed run over
    /// the formula it computed (no predicate code runs again). `count` says how many distinct
    /// positions the run has read so far. Exactly [`Strategy::prepare`]
    /// then [`Strategy::observe`] when the replay succeeds; otherwise the
    /// observed run is still to make, from the returned schedule. It fails
    /// where the observed run computes what the counting run left
    /// uncomputed (the atoms below a sequential conjunction at the root,
    /// whose value the counting run never forces) or, without segments,
    /// meets other forcings than the first ones in the recorded order.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn count_and_observe(
        self,
        c: Cool<'_>,
        inherited: Schedule,
        flips: &mut Flips,
        log: &mut ForcingLog,
        begin: &dyn Fn() -> Option<u32>,
        segmented: bool,
        count: &dyn Fn() -> usize,
    ) -> Fused {
        debug_assert_eq!(self.prepass(), Prepass::CountReads);
        log.clear();
        // OS's observed run is listed as the counting run goes; OSF's,
        // which also makes the children's schedules, is replayed.
        let lists = self == Strategy::OS;
        let mut c = c;
        let (start, recorded, listed) = {
            let mut ev = Eval::new(
                Forcing::Record {
                    log: &mut *log,
                    segment: Some(begin),
                    failed: false,
                },
                &mut *flips,
            );
            // The root's value stays unforced, as in the counting run made
            // apart (forcing it could run an atom that panics where the
            // observed run would not).
            let (start, root) = if lists {
                c.subset::<true>(inherited.root, &mut ev, count)
            } else {
                c.subset::<false>(inherited.root, &mut ev, count)
            };
            let recorded = !matches!(ev.forcing, Forcing::Record { failed: true, .. });
            let listed = match root {
                LRes::Known(value) if lists && !ev.log().unlisted => Some(value),
                _ => None,
            };
            root.discard();
            (start, recorded, listed)
        };
        if !recorded {
            return Fused::Rerun(Schedule::made(start, flips));
        }
        if let Some(value) = listed {
            return if log.order_observed(segmented, true) {
                Fused::Observed(value, Schedule::made(start, flips))
            } else {
                Fused::Rerun(Schedule::made(start, flips))
            };
        }
        self.replay_observed(&mut c, start, flips, log, segmented, true)
    }

    /// The observed run of a node from schedule `start`, replayed over the
    /// formula `c` a recording run computed: it lists in `log` the
    /// forcings it meets, in its order, and fails where it meets a node
    /// that run did not compute. Without segments it also fails unless it
    /// meets every forcing in the recorded order or, given `prefixes` (the
    /// recording run noted where each forcing's reads begin), the first
    /// ones in the recorded order and no other.
    fn replay_observed(
        self,
        c: &mut Cool<'_>,
        start: Sched,
        flips: &mut Flips,
        log: &mut ForcingLog,
        segmented: bool,
        prefixes: bool,
    ) -> Fused {
        log.index(segmented || prefixes);
        let mut ev = Eval::new(
            Forcing::Replay {
                log: &mut *log,
                failed: false,
            },
            &mut *flips,
        );
        let (value, children) = match self {
            Strategy::D | Strategy::O | Strategy::OS => (c.run(start, &mut ev), start),
            Strategy::F | Strategy::OF | Strategy::OSF => {
                let (children, value) = c.par(start, &mut ev);
                (value, children)
            }
        };
        let replayed = !matches!(ev.forcing, Forcing::Replay { failed: true, .. });
        log.replayed = replayed;
        if replayed && (segmented || log.met_in_order() || (prefixes && log.met_a_prefix())) {
            Fused::Observed(value, Schedule::made(children, flips))
        } else {
            Fused::Rerun(Schedule::made(start, flips))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Cool, Flips, Prepass, Schedule, Strategy};
    use std::cell::RefCell;

    /// `a & b` over two constant atoms that log their evaluation.
    fn logged<'a>(log: &'a RefCell<Vec<char>>, a: bool, b: bool) -> Cool<'a> {
        let atom = move |name: char, v: bool| {
            Cool::atom(move || {
                log.borrow_mut().push(name);
                v
            })
        };
        atom('a', a) & atom('b', b)
    }

    /// One node under `strategy`, from `inherited`: its prepass (if any),
    /// then its observed run. The value, the atoms the observed run
    /// evaluated in order, and the schedule the children inherit.
    fn node(
        strategy: Strategy,
        inherited: Schedule,
        (a, b): (bool, bool),
        flips: &mut Flips,
    ) -> (bool, Vec<char>, Schedule) {
        let log = RefCell::new(vec![]);
        let start = match strategy.prepass() {
            Prepass::Nothing => inherited,
            // The prepass reads nothing new here: every read is old.
            _ => strategy.prepare(logged(&log, a, b), inherited, &|| 0, flips),
        };
        log.borrow_mut().clear();
        let (value, children) = strategy.observe(logged(&log, a, b), start, flips);
        (value, log.into_inner(), children)
    }

    #[test]
    fn the_prepass_is_the_one_each_strategy_names() {
        use Prepass::{CountReads, LookAhead, Nothing};
        let prepasses = Strategy::ALL.map(Strategy::prepass);
        assert_eq!(
            prepasses,
            [Nothing, LookAhead, Nothing, CountReads, LookAhead, CountReads]
        );
    }

    #[test]
    fn d_evaluates_left_to_right_and_passes_the_schedule_on() {
        let empty = Schedule::empty();
        let mut flips = Flips::default();
        let (value, order, children) = node(Strategy::D, empty, (true, false), &mut flips);
        assert_eq!((value, order), (false, vec!['a', 'b']));
        assert_eq!(children, empty);
        let (value, order, _) = node(Strategy::D, empty, (false, true), &mut flips);
        assert_eq!((value, order), (false, vec!['a']));
    }

    #[test]
    fn o_runs_first_the_operand_the_look_ahead_found_false() {
        let empty = Schedule::empty();
        let mut flips = Flips::default();
        let (value, order, children) = node(Strategy::O, empty, (true, false), &mut flips);
        assert_eq!((value, order), (false, vec!['b']));
        assert_ne!(children, empty, "the children inherit the flip");
        // Both true: nothing to flip.
        let (value, order, children) = node(Strategy::O, empty, (true, true), &mut flips);
        assert_eq!((value, order), (true, vec!['a', 'b']));
        let (_, order, _) = node(Strategy::O, children, (true, false), &mut flips);
        assert_eq!(order, vec!['b']);
    }

    #[test]
    fn f_alternates_a_false_conjunction_down_the_tree() {
        let empty = Schedule::empty();
        let mut flips = Flips::default();
        let (value, order, child) = node(Strategy::F, empty, (false, false), &mut flips);
        assert_eq!((value, order), (false, vec!['a']));
        let (_, order, grandchild) = node(Strategy::F, child, (false, false), &mut flips);
        assert_eq!(order, vec!['b']);
        let (_, order, _) = node(Strategy::F, grandchild, (false, false), &mut flips);
        assert_eq!(order, vec!['a']);
    }

    #[test]
    fn os_flips_only_when_the_second_operand_reads_nothing_new() {
        let empty = Schedule::empty();
        let mut flips = Flips::default();
        // The left fails; the right fails too without reading: "second is
        // subset", so it goes first.
        let (_, order, _) = node(Strategy::OS, empty, (false, false), &mut flips);
        assert_eq!(order, vec!['b']);
        // The same formula whose right operand reads a new position.
        let log = RefCell::new(vec![]);
        let reads = RefCell::new(0);
        let reading = Cool::atom(|| false)
            & Cool::atom(|| {
                *reads.borrow_mut() += 1;
                false
            });
        let start = Strategy::OS.prepare(reading, empty, &|| *reads.borrow(), &mut flips);
        let (_, children) = Strategy::OS.observe(logged(&log, false, false), start, &mut flips);
        assert_eq!(log.into_inner(), vec!['a'], "no flip: the left fails first");
        assert_eq!(children, start);
    }

    /// A formula over constant atoms, as data, to build as a `Cool`.
    #[derive(Clone, Debug)]
    enum Shape {
        Atom(bool),
        Lazy(Box<Shape>),
        Not(Box<Shape>),
        And(Box<Shape>, Box<Shape>),
        Seq(Box<Shape>, Box<Shape>),
        Or(Box<Shape>, Box<Shape>),
    }

    impl Shape {
        fn value(&self) -> bool {
            match self {
                Shape::Atom(b) => *b,
                Shape::Lazy(s) => s.value(),
                Shape::Not(s) => !s.value(),
                Shape::And(a, b) | Shape::Seq(a, b) => a.value() && b.value(),
                Shape::Or(a, b) => a.value() || b.value(),
            }
        }

        /// The formula; every closure holds a clone of `alive`, so that
        /// its strong count tells how many closures are not yet dropped.
        fn build<'a>(&self, alive: &Rc<()>) -> Cool<'a> {
            match self {
                Shape::Atom(b) => {
                    let (b, alive) = (*b, alive.clone());
                    Cool::atom(move || {
                        let _ = &alive;
                        b
                    })
                }
                Shape::Lazy(s) => {
                    let (s, alive2) = ((**s).clone(), alive.clone());
                    let alive = alive.clone();
                    Cool::lazy(move || {
                        let _ = &alive2;
                        s.build(&alive)
                    })
                }
                Shape::Not(s) => !s.build(alive),
                Shape::And(a, b) => a.build(alive) & b.build(alive),
                Shape::Seq(a, b) => Cool::seq(a.build(alive), b.build(alive)),
                Shape::Or(a, b) => a.build(alive) | b.build(alive),
            }
        }
    }

    fn shapes() -> impl proptest::strategy::Strategy<Value = Shape> {
        use proptest::prelude::*;
        any::<bool>()
            .prop_map(Shape::Atom)
            .prop_recursive(6, 40, 2, |inner| {
                prop_oneof![
                    inner.clone().prop_map(|s| Shape::Lazy(Box::new(s))),
                    inner.clone().prop_map(|s| Shape::Not(Box::new(s))),
                    (inner.clone(), inner.clone())
                        .prop_map(|(a, b)| Shape::And(a.into(), b.into())),
                    (inner.clone(), inner.clone())
                        .prop_map(|(a, b)| Shape::Seq(a.into(), b.into())),
                    (inner.clone(), inner).prop_map(|(a, b)| Shape::Or(a.into(), b.into())),
                ]
            })
    }

    use std::rc::Rc;

    proptest::proptest! {
        /// Every strategy computes the formula's value, from any schedule
        /// the strategy itself made, and drops every closure exactly once
        /// (called or not).
        #[test]
        fn every_strategy_computes_the_value_and_drops_each_closure_once(
            shape in shapes(),
            grand in shapes(),
        ) {
            let alive = Rc::new(());
            for strategy in Strategy::ALL {
                let mut schedule = Schedule::empty();
                let mut flips = Flips::default();
                // A node, its child and its grandchild (the schedule is
                // inherited), the child on another formula.
                for s in [&shape, &grand, &shape] {
                    let start = strategy.prepare(s.build(&alive), schedule, &|| 0, &mut flips);
                    let (value, children) = strategy.observe(s.build(&alive), start, &mut flips);
                    proptest::prop_assert_eq!(value, s.value(), "{} on {:?}", strategy, s);
                    proptest::prop_assert_eq!(Rc::strong_count(&alive), 1);
                    schedule = children;
                }
                proptest::prop_assert_eq!(shape.build(&alive).eval(), shape.value());
                drop(shape.build(&alive));
                proptest::prop_assert_eq!(Rc::strong_count(&alive), 1);
            }
        }
    }

    #[test]
    fn closures_of_any_size_and_alignment_are_called_and_dropped_once() {
        #[repr(align(64))]
        struct Aligned(#[allow(dead_code)] Rc<()>, u8);
        let alive = Rc::new(());
        let big = [alive.clone(), alive.clone(), alive.clone(), alive.clone()];
        let aligned = Aligned(alive.clone(), 7);
        let f = Cool::atom(move || big.len() == 4)
            & Cool::atom(move || {
                let aligned = &aligned;
                aligned.1 == 7
            });
        assert_eq!(Rc::strong_count(&alive), 6);
        assert!(f.eval());
        assert_eq!(Rc::strong_count(&alive), 1);
        let (a, b) = (alive.clone(), alive.clone());
        drop(
            Cool::lazy(move || Cool::from(a.as_ref() == &()))
                & Cool::atom(move || b.as_ref() == &()),
        );
        assert_eq!(Rc::strong_count(&alive), 1);
    }

    #[test]
    fn a_panicking_closure_drops_the_formula_once() {
        let alive = Rc::new(());
        let (a, b, c) = (alive.clone(), alive.clone(), alive.clone());
        let formula = Cool::atom(move || a.as_ref() == &())
            & (Cool::lazy(move || -> Cool<'static> {
                let _ = &b;
                panic!("planted")
            }) & Cool::atom(move || c.as_ref() == &()));
        let quiet = crate::internal::quiet::Quiet::new();
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            Strategy::F.observe(formula, Schedule::empty(), &mut Flips::default())
        }));
        drop(quiet);
        assert!(caught.is_err());
        assert_eq!(Rc::strong_count(&alive), 1);
    }

    /// A thread's cached conjunction blocks are freed when it exits, and
    /// a formula a thread-local's destructor drops after that frees its
    /// own (under Miri, which runs these tests in CI, a block left over
    /// fails the test as a leak).
    #[test]
    fn a_formula_dropped_as_its_thread_exits_frees_its_blocks() {
        thread_local! {
            static KEPT: std::cell::RefCell<Option<Cool<'static>>> =
                const { std::cell::RefCell::new(None) };
        }
        let kept_past_release = std::thread::spawn(|| {
            // Registered before the block cache: destroyed after it.
            KEPT.with(|k| k.borrow_mut().take());
            let warm = Cool::atom(|| true) & (Cool::atom(|| true) & Cool::atom(|| false));
            assert!(!warm.eval());
            KEPT.with(|k| *k.borrow_mut() = Some(Cool::atom(|| true) & Cool::atom(|| true)));
            true
        });
        assert!(kept_past_release.join().unwrap());
    }

    #[test]
    fn a_panicking_atom_drops_the_formula_once() {
        for strategy in Strategy::ALL {
            let alive = Rc::new(());
            let (a, b, c) = (alive.clone(), alive.clone(), alive.clone());
            let formula = Cool::lazy(move || Cool::from(a.as_ref() == &()))
                & (Cool::atom(move || -> bool {
                    let _ = &b;
                    panic!("planted")
                }) & Cool::atom(move || c.as_ref() == &()));
            let quiet = crate::internal::quiet::Quiet::new();
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                strategy.observe(formula, Schedule::empty(), &mut Flips::default())
            }));
            drop(quiet);
            assert!(caught.is_err(), "{strategy}");
            assert_eq!(Rc::strong_count(&alive), 1, "{strategy}");
        }
    }
}

//! The NEAT engine: depth-first search over lazily refined values.
//!
//! The value under search lives in one arena of nodes. Going to a child
//! swaps one position to its next alternative (copying the minimal value of
//! its fields from a precomputed template to the top of the arena) and locks
//! the positions read before it; returning undoes exactly that. Each frame of
//! the explicit stack holds one expanded node's read list (a slice of one
//! shared vector) and which child comes next, so memory is proportional to
//! the current path. The rules it implements (children, locks, search
//! order) are stated in `docs/spec.md#search`.

use super::depth::DepthBound;
use crate::arena::{id32, Choice, Node, NodeKind, Opened, ReadLog, Unfold, FINAL, LOCKED, OPEN};
use crate::cool::Schedule;
use crate::grammar::{Fixity, Grammar, LeafSizes, ProdId, SortId};
use crate::handle::{Ctx, ProdInfo, COUNT_STAMP};
use crate::run_slot::RunSlot;
use std::any::{Any, TypeId};
use std::cell::{Cell, OnceCell};
use std::mem;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;

/// What to restore when leaving a child.
#[derive(Clone, Copy, Debug)]
struct Undo {
    node: u32,
    saved: Choice,
    arena_len: u32,
    delta: u32,
}

#[derive(Clone, Debug)]
struct Frame {
    /// The node's read positions are `reads[start..end]`, in read order.
    start: u32,
    end: u32,
    /// Children `next-1, next-2, ..., floor` remain (index into the reads).
    next: u32,
    /// Children below this index were given to another search (parallel
    /// work splitting); 0 for a whole node.
    floor: u32,
    undo: Option<Undo>,
    /// The schedule the node's run produced (for conjunction strategies).
    schedule: Schedule,
    /// Extra locks (`LockRule::Reference`): `extras[extra_start..extra_live]`
    /// are still locked; each unlocks when the children reach the index
    /// below its own.
    extra_start: u32,
    extra_live: u32,
}

impl Frame {
    /// Which child (in search order) the frame is on: the children are
    /// produced from the last read position to the first.
    fn current_child(&self) -> u32 {
        self.end - self.start - 1 - self.next
    }
}

/// Which read positions a node's children lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LockRule {
    /// Only positions that have a child (a next alternative that fits)
    /// matter; the others are dropped. Exact for everything but the read
    /// counting of strategies OS and OSF.
    Prune,
    /// Exactly as the reference implementation (`docs/spec.md#locks`): a
    /// position with a child is locked in the children of later positions;
    /// a position without one is locked in a child only once a position
    /// with a child inside its subtree has been passed (its value is then
    /// rebuilt without it).
    Reference,
}

/// How a run reads the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RunMode {
    /// Record open positions (defines the children).
    Observe,
    /// Record nothing (look-ahead runs).
    Plain,
    /// Record every open position, whatever earlier runs of the node read
    /// (the counting run of strategy OS); must be followed by `end_count`.
    Count,
}

/// What the engine needs of an alternative to swap a position to the next
/// one, packed apart from the grammar's (large) `Prod` records.
#[derive(Clone, Copy, Debug)]
struct Hot {
    arity: u32,
    next: Option<ProdId>,
    next_delta: u32,
    next_tag: u32,
    next_final: bool,
    leaf: bool,
    /// An alternative's mark when nothing locks it (`initial_mark`; a
    /// leaf's depends on its index).
    alternative_mark: u32,
    /// A leaf's entry in `Engine::leaf_sizes`.
    leaf_sizes: u32,
    /// The next alternative's template: `templates[start..start + len]`.
    start: u32,
    len: u32,
}

/// A template node with everything precomputed.
#[derive(Clone, Copy, Debug)]
struct TplNode {
    prod: ProdId,
    mark: u32,
    /// Offset of the first field from the template base ([`LEAF_AT_ZERO`]
    /// for a leaf, whose index starts at 0).
    first: u32,
    tag: u32,
    /// The offset of the node's parent in the template, or
    /// [`TEMPLATE_OWNER`] when it is a field of the node the template is
    /// pushed for.
    parent: u32,
}

/// `TplNode::parent` of a field of the node the template is pushed for.
const TEMPLATE_OWNER: u32 = u32::MAX;

/// `TplNode::first` of a leaf: no offset can be this large (a template
/// would need `u32::MAX` nodes), so it costs no flag.
const LEAF_AT_ZERO: u32 = u32::MAX;

/// The parent of the root in `Engine::parents`.
const NO_PARENT: u32 = u32::MAX;
/// `Engine::first_inside` of a node no fitting read has reached yet.
const UNREACHED: u32 = u32::MAX;
/// `Engine::first_inside` of a read without a child, not reached yet.
const CANDIDATE: u32 = u32::MAX - 1;

/// The mark a fresh node starts with, from what the grammar says of its
/// alternative.
fn initial_mark(fixity: Fixity) -> u32 {
    match fixity {
        Fixity::Open => OPEN,
        Fixity::Last => FINAL,
        Fixity::Single => LOCKED,
    }
}

/// The untyped engine over a compiled grammar.
/// A value loaded into an engine, kept to be loaded again with some
/// leaves changed (the edge sweep's inputs: a few skeletons, each with a
/// leaf or two set to edge values).
#[derive(Debug)]
pub(crate) struct KeptValue {
    nodes: Vec<Node>,
    size: u64,
    /// The node of each leaf, breadth first.
    leaves: Vec<u32>,
}

pub(crate) struct Engine {
    pub grammar: Rc<Grammar>,
    info: Rc<[ProdInfo]>,
    /// The type of each field of each alternative (`ProdInfo::slots_at`).
    slot_types: Rc<[Option<TypeId>]>,
    hot: Rc<[Hot]>,
    /// The sizes of each leaf sort's values, for this search's bound (built
    /// when the search first moves a leaf of the sort).
    leaf_sizes: Vec<(SortId, OnceCell<LeafSizes>)>,
    /// Extra locks of the frames (`LockRule::Reference`): (node, child index).
    extras: Vec<(u32, u32)>,
    /// For `LockRule::Reference`: the parent of each arena node (`NO_PARENT`
    /// for the root), valid for the first `parents_len` nodes. Kept up to
    /// date as templates are pushed once a search asks for it: rebuilding
    /// it on every run was a sixth of strategy OSF's instructions.
    parents: Vec<u32>,
    parents_len: usize,
    /// Whether `parents` is kept up to date as nodes are pushed.
    tracking_parents: bool,
    /// Scratch for `LockRule::Reference`, per node: `UNREACHED` between
    /// calls, `CANDIDATE` for a read without a child, else the child index
    /// of the first fitting read inside the node.
    first_inside: Vec<u32>,
    /// Scratch: the entries of `first_inside` set by the call.
    touched: Vec<u32>,
    templates: Rc<[TplNode]>,
    root_template: (u32, u32),
    pub bound: u64,
    nodes: Vec<Node>,
    reads: ReadLog,
    /// The arena runs lend to the predicate (`Lazy::arena`), emptied
    /// after each run (its memory reused).
    run_arena: crate::handle::ArenaSlot,
    frames: Vec<Frame>,
    size: u64,
    stamp: u32,
    /// The merged reads of [`Engine::merge_segments`], kept for the next
    /// merge.
    merge_scratch: Vec<u32>,
    started: bool,
    finished: bool,
    /// Whether the current node has been set up and not yet run.
    pending: bool,
    /// Frames `advance` never pops (`confine_to_last`): it ends the search
    /// when the top one of them has no child left.
    keep: usize,
    pub runs: u64,
    pub max_size: u64,
    /// The watchdog slot every predicate run is announced to, if any.
    slot: Option<RunSlot>,
    /// Set when the search is bounded by depth instead of size (`bound` is
    /// then unlimited).
    depth: Option<Box<DepthBound>>,
}

/// What an engine reads of its grammar on every step, laid out for the hot
/// path: per alternative its facts, its fields' types, its successor in the
/// chain with that successor's template. The same for every search of a
/// grammar, so built once per grammar and thread and shared: a check makes
/// a searcher per size bound, and a grammar with lazy atoms (an `i64`'s 128
/// blocks of up to 63 bits) has thousands of template nodes.
struct EngineTables {
    info: Rc<[ProdInfo]>,
    slot_types: Rc<[Option<TypeId>]>,
    hot: Rc<[Hot]>,
    templates: Rc<[TplNode]>,
    root_template: (u32, u32),
    /// The sort of each leaf alternative, in the order `Hot::leaf_sizes`
    /// numbers them.
    leaf_sorts: Vec<SortId>,
}

/// How many grammars' tables a thread keeps (past it, all are dropped and
/// rebuilt on demand).
const CACHED_TABLES: usize = 64;

impl EngineTables {
    /// The tables of `grammar`, built on this thread's first search of it.
    fn of(grammar: &Grammar) -> Rc<EngineTables> {
        type Cache = std::collections::HashMap<u64, Rc<EngineTables>, crate::word_hash::WordHash>;
        thread_local! {
            static TABLES: std::cell::RefCell<Cache> = std::cell::RefCell::new(Cache::default());
        }
        if let Some(t) = TABLES.with(|t| t.borrow().get(&grammar.id).cloned()) {
            return t;
        }
        let tables = Rc::new(EngineTables::build(grammar));
        TABLES.with(|t| {
            let mut t = t.borrow_mut();
            if t.len() >= CACHED_TABLES {
                t.clear();
            }
            t.insert(grammar.id, tables.clone());
        });
        tables
    }

    fn build(grammar: &Grammar) -> EngineTables {
        let mut slot_types = vec![];
        let info: Vec<ProdInfo> = grammar
            .prods
            .iter()
            .map(|p| {
                let slots_at = id32(slot_types.len());
                slot_types.extend(p.slots.iter().map(|&s| grammar.sorts[s.index()].origin));
                ProdInfo {
                    origin: grammar.sorts[p.sort.index()].origin,
                    leaf: p.leaf,
                    arity: id32(p.slots.len()),
                    slots_at,
                }
            })
            .collect();
        let mut templates = vec![];
        let mut add = |t: &[crate::grammar::TemplateNode]| -> (u32, u32) {
            let start = id32(templates.len());
            let mut parents = vec![TEMPLATE_OWNER; t.len()];
            for (i, n) in t.iter().enumerate() {
                let p = &grammar.prods[n.prod.index()];
                if !p.leaf {
                    for k in 0..p.slots.len() {
                        parents[n.first as usize + k] = id32(i);
                    }
                }
            }
            templates.extend(t.iter().zip(parents).map(|(n, parent)| TplNode {
                parent,
                prod: n.prod,
                mark: initial_mark(n.fixity),
                first: if grammar.prods[n.prod.index()].leaf {
                    LEAF_AT_ZERO
                } else {
                    n.first
                },
                tag: n.tag,
            }));
            (start, id32(t.len()))
        };
        let root_template = add(&grammar.root_template);
        // Every block of a lazy atom starts with its bits at 0: one run of
        // the longest block's bits serves them all (a block takes its
        // prefix), instead of a copy per block.
        let longest_block = grammar
            .prods
            .iter()
            .filter(|p| p.atom.is_some())
            .max_by_key(|p| p.template.len());
        let bit_run = longest_block.map(|p| add(&p.template).0);
        let mut hot = Vec::with_capacity(grammar.prods.len());
        let mut leaf_sorts = vec![];
        for p in &grammar.prods {
            let (next, next_tag, next_final, (start, len)) = match p.next {
                None => (None, 0, true, (0, 0)),
                Some(next) => {
                    let q = &grammar.prods[next.index()];
                    let fields = match (q.atom, bit_run) {
                        (Some(_), Some(run)) => (run, id32(q.template.len())),
                        _ => add(&q.template),
                    };
                    (Some(next), q.tag, q.next.is_none(), fields)
                }
            };
            hot.push(Hot {
                arity: id32(p.slots.len()),
                next,
                next_delta: p.next_delta,
                next_tag,
                next_final,
                leaf: p.leaf,
                alternative_mark: initial_mark(grammar.fixity(ProdId::new(hot.len()), 0)),
                leaf_sizes: if p.leaf {
                    leaf_sorts.push(p.sort);
                    id32(leaf_sorts.len() - 1)
                } else {
                    0
                },
                start,
                len,
            });
        }
        EngineTables {
            info: info.into(),
            slot_types: slot_types.into(),
            hot: hot.into(),
            templates: templates.into(),
            root_template,
            leaf_sorts,
        }
    }
}

impl Engine {
    pub(crate) fn new(grammar: Rc<Grammar>, bound: u64) -> Self {
        let tables = EngineTables::of(&grammar);
        let leaf_sizes = tables
            .leaf_sorts
            .iter()
            .map(|&sort| (sort, OnceCell::new()))
            .collect();
        let (hot, templates, info, slot_types, root_template) = (
            tables.hot.clone(),
            tables.templates.clone(),
            tables.info.clone(),
            tables.slot_types.clone(),
            tables.root_template,
        );
        Engine {
            extras: vec![],
            parents: vec![],
            parents_len: 0,
            tracking_parents: false,
            first_inside: vec![],
            touched: vec![],
            hot,
            leaf_sizes,
            templates,
            root_template,
            grammar,
            info,
            slot_types,
            bound,
            nodes: Vec::with_capacity(1024),
            reads: ReadLog::with_capacity(1024),
            run_arena: crate::handle::ArenaSlot::default(),
            frames: Vec::with_capacity(256),
            size: 0,
            stamp: 0,
            merge_scratch: Vec::new(),
            started: false,
            finished: false,
            pending: false,
            keep: 0,
            runs: 0,
            max_size: 0,
            slot: None,
            depth: None,
        }
    }

    /// An engine that searches every value of depth `<= depth`
    /// (`docs/spec.md#depth`) instead of every value up to a size.
    pub(crate) fn with_depth(grammar: Rc<Grammar>, depth: u64) -> Self {
        let bound = DepthBound::new(&grammar, depth);
        let mut engine = Engine::new(grammar, u64::MAX);
        engine.depth = Some(Box::new(bound));
        engine
    }

    /// Announces every later predicate run (all modes, traces and loaded
    /// values) to a watchdog slot, so that a run that never returns is
    /// reported.
    pub(crate) fn watch(&mut self, slot: RunSlot) {
        slot.set_grammar_len(self.grammar.prods.len());
        self.slot = Some(slot);
    }

    /// The watchdog slot, if any (for tests of the protocol).
    #[cfg(test)]
    pub(crate) fn slot(&self) -> Option<&RunSlot> {
        self.slot.as_ref()
    }

    /// Calls the predicate on a context, catching panics, announced to the
    /// watchdog slot if there is one.
    #[inline(always)]
    fn call<R>(
        &self,
        ctx: &Ctx<'_>,
        f: impl FnOnce(&Ctx<'_>) -> R,
    ) -> Result<R, Box<dyn Any + Send>> {
        match &self.slot {
            None => catch_unwind(AssertUnwindSafe(|| f(ctx))),
            Some(slot) => {
                // The arena is neither mutated nor reallocated until `leave`:
                // `ctx` borrows it for the whole call.
                slot.enter(&self.nodes, self.size);
                let r = catch_unwind(AssertUnwindSafe(|| f(ctx)));
                slot.leave();
                r
            }
        }
    }

    /// The size of the current value.
    pub(crate) fn size(&self) -> u64 {
        self.size
    }

    fn reads(&mut self) -> &mut [u32] {
        self.reads.as_mut_slice()
    }

    #[inline]
    fn push_template(&mut self, (start, len): (u32, u32)) -> u32 {
        let base = id32(self.nodes.len());
        let template = &self.templates[start as usize..(start + len) as usize];
        self.nodes.extend(template.iter().map(|t| {
            let choice = if t.first == LEAF_AT_ZERO {
                Choice::leaf(t.prod, 0)
            } else {
                Choice::alternative(t.prod, base + t.first, t.tag)
            };
            Node::new(choice, t.mark)
        }));
        base
    }

    /// Moves to the next node to run. Returns false when the search is over.
    pub(crate) fn advance(&mut self) -> bool {
        if self.finished {
            return false;
        }
        if self.pending {
            return true;
        }
        if !self.started {
            self.started = true;
            if let Some(depth) = &mut self.depth {
                match depth.push_root(&self.grammar, &mut self.nodes) {
                    Some(size) => {
                        self.size = size;
                        self.max_size = size;
                        self.pending = true;
                        return true;
                    }
                    None => {
                        self.finished = true;
                        return false;
                    }
                }
            }
            match self.grammar.min_size() {
                Some(m) if m <= self.bound => {
                    self.push_template(self.root_template);
                    self.parents_pushed(0, NO_PARENT);
                    self.size = m;
                    self.pending = true;
                    return true;
                }
                _ => {
                    self.finished = true;
                    return false;
                }
            }
        }
        while let Some(top) = self.frames.len().checked_sub(1) {
            if let Some(u) = self.frames[top].undo.take() {
                self.restore(u);
            }
            while self.frames[top].next > self.frames[top].floor {
                self.frames[top].next -= 1;
                let (start, end, i) = {
                    let f = &self.frames[top];
                    (f.start, f.end, f.next)
                };
                let e = self.reads()[(start + i) as usize];
                if start + i + 1 < end {
                    // e was locked for the children after it; it is open now.
                    self.nodes[e as usize].mark.set(OPEN);
                }
                // Extra locks whose child index is above i end here.
                loop {
                    let f = &self.frames[top];
                    if f.extra_live == f.extra_start {
                        break;
                    }
                    let (node, from) = self.extras[f.extra_live as usize - 1];
                    if from <= i {
                        break;
                    }
                    self.nodes[node as usize].mark.set(OPEN);
                    self.frames[top].extra_live -= 1;
                }
                if let Some(u) = self.swap(e) {
                    self.frames[top].undo = Some(u);
                    self.pending = true;
                    return true;
                }
            }
            if self.frames.len() <= self.keep {
                // The end of the part of the tree this search was confined
                // to: the frames stay for `rewind_towards`.
                self.finished = true;
                return false;
            }
            self.pop_frame();
        }
        self.finished = true;
        false
    }

    /// Pops the top frame, whose current child (if any) is undone: the
    /// read positions of the children it did not produce are unlocked.
    fn pop_frame(&mut self) {
        let top = self.frames.len() - 1;
        let f = &self.frames[top];
        let (start, extra_start, extra_live) = (
            f.start as usize,
            f.extra_start as usize,
            f.extra_live as usize,
        );
        if f.floor > 0 {
            self.open_given_away(top);
        }
        for &(node, _) in &self.extras[extra_start..extra_live] {
            self.nodes[node as usize].mark.set(OPEN);
        }
        self.extras.truncate(extra_start);
        self.reads.truncate(start);
        self.frames.pop();
    }

    /// Swaps position `e` to its next alternative if it fits the bound.
    #[inline]
    fn swap(&mut self, e: u32) -> Option<Undo> {
        if self.depth.is_some() {
            return self.swap_by_depth(e);
        }
        let node = &self.nodes[e as usize];
        let prod = node.prod();
        let h = self.hot[prod.index()];
        let arena_len = id32(self.nodes.len());
        let mut undo = Undo {
            node: e,
            saved: node.choice(),
            arena_len,
            delta: 0,
        };
        if h.leaf {
            let sizes = self.leaf_sizes(&h);
            let idx = node.leaf_index();
            let delta = sizes
                .step(&self.grammar, idx)
                .filter(|d| self.size + d <= self.bound)?;
            undo.delta = delta as u32;
            let last = sizes.is_last(idx + 1);
            let node = &mut self.nodes[e as usize];
            node.set_choice(Choice::leaf(prod, idx + 1));
            node.mark.set(if last { FINAL } else { OPEN });
        } else {
            let next = h
                .next
                .filter(|_| self.size + h.next_delta as u64 <= self.bound)?;
            undo.delta = h.next_delta;
            let base = self.push_template((h.start, h.len));
            let node = &mut self.nodes[e as usize];
            node.set_choice(Choice::alternative(next, base, h.next_tag));
            node.mark.set(if h.next_final { FINAL } else { OPEN });
            if self.tracking_parents {
                self.template_parents_pushed(base, (h.start, h.len), e);
            }
        }
        self.size += undo.delta as u64;
        self.max_size = self.max_size.max(self.size);
        Some(undo)
    }

    /// [`Engine::swap`] under a depth bound (out of the size search's way).
    #[cold]
    #[inline(never)]
    fn swap_by_depth(&mut self, e: u32) -> Option<Undo> {
        let depth = self.depth.as_mut()?;
        // The depth order moves nodes its own way: parents are rebuilt.
        self.parents_len = 0;
        let saved = self.nodes[e as usize].choice();
        let arena_len = id32(self.nodes.len());
        let delta = depth.swap(&self.grammar, &mut self.nodes, e)?;
        self.size = self.size.wrapping_add(delta as u64);
        self.max_size = self.max_size.max(self.size);
        // A signed change in the unsigned field: `restore` subtracts it
        // sign-extended.
        let delta = i32::try_from(delta).expect("a size change fits 32 bits") as u32;
        Some(Undo {
            node: e,
            saved,
            arena_len,
            delta,
        })
    }

    fn restore(&mut self, u: Undo) {
        let node = &mut self.nodes[u.node as usize];
        node.set_choice(u.saved);
        node.mark.set(OPEN);
        self.nodes.truncate(u.arena_len as usize);
        self.parents_len = self.parents_len.min(u.arena_len as usize);
        // Sign-extended: a depth-bounded move may make the value smaller.
        self.size = self.size.wrapping_sub(u.delta as i32 as u64);
    }

    /// Moves the stamps on to `stamp` (tests of their wrap-around).
    #[cfg(test)]
    pub(crate) fn set_stamp(&mut self, stamp: u32) {
        self.stamp = stamp;
    }

    fn next_stamp(&mut self) -> u32 {
        if self.stamp >= FINAL - 1 {
            for n in &self.nodes {
                if n.mark.get() < FINAL {
                    n.mark.set(OPEN);
                }
            }
            self.stamp = 0;
        }
        self.stamp += 1;
        self.stamp
    }

    /// Runs `f` on the current value in the given mode, catching panics.
    /// Positions read are returned as a range of the shared read vector
    /// (observe mode) and stay there until `commit` or `discard`.
    pub(crate) fn run<R>(
        &mut self,
        mode: RunMode,
        f: impl FnOnce(&Ctx<'_>) -> R,
    ) -> Result<R, Box<dyn Any + Send>> {
        debug_assert!(self.pending, "run without a pending node");
        let stamp = match mode {
            RunMode::Observe => self.next_stamp(),
            RunMode::Plain => 0,
            RunMode::Count => COUNT_STAMP,
        };
        self.call_at(stamp, f).0
    }

    /// Runs `f` as a predicate run with `stamp` (catching its panic), then
    /// empties the run's arena: what the run took from it ends with the
    /// run. Also returns the stamp the run ended with (segments raise it).
    fn call_at<R>(
        &mut self,
        stamp: u32,
        f: impl FnOnce(&Ctx<'_>) -> R,
    ) -> (Result<R, Box<dyn Any + Send>>, u32) {
        let ended = self.with_ctx(stamp, |ctx| (self.call(ctx, f), ctx.stamp.get()));
        self.run_arena.empty();
        ended
    }

    /// An observed run whose reads `f` may record in segments
    /// (`Ctx::begin_segment`, which uses further stamps).
    pub(crate) fn run_in_segments<R>(
        &mut self,
        f: impl FnOnce(&Ctx<'_>) -> R,
    ) -> Result<R, Box<dyn Any + Send>> {
        debug_assert!(self.pending, "run without a pending node");
        let stamp = self.next_stamp();
        let (result, last_stamp) = self.call_at(stamp, f);
        self.stamp = last_stamp;
        result
    }

    /// Replaces the reads since `mark`, recorded in segments (the reads
    /// before `segment_starts[0]`, then one segment per start), by the
    /// reads of a run that reads the first part and then the segments in
    /// `order` (`None`: all of them, in the recorded order): their
    /// concatenation, each position kept where it comes first.
    pub(crate) fn merge_segments(
        &mut self,
        mark: u32,
        segment_starts: &[u32],
        order: Option<&[u32]>,
    ) {
        let end = id32(self.reads.len());
        let stamp = self.next_stamp();
        let Some(order) = order else {
            // Only repeats to drop, in place.
            let reads = self.reads.as_mut_slice();
            let mut kept = mark as usize;
            for r in mark as usize..end as usize {
                let position = reads[r];
                let node = &self.nodes[position as usize];
                if node.mark.get() != stamp {
                    node.mark.set(stamp);
                    reads[kept] = position;
                    kept += 1;
                }
            }
            self.reads.truncate(kept);
            return;
        };
        let segment = |i: usize| {
            let start = segment_starts[i];
            let next = segment_starts.get(i + 1).copied().unwrap_or(end);
            start as usize..next as usize
        };
        let head = mark as usize..segment_starts.first().map_or(end, |&s| s) as usize;
        let mut merged = mem::take(&mut self.merge_scratch);
        merged.clear();
        let reads = self.reads.as_mut_slice();
        for range in std::iter::once(head).chain(order.iter().map(|&i| segment(i as usize))) {
            for &position in &reads[range] {
                let node = &self.nodes[position as usize];
                if node.mark.get() != stamp {
                    node.mark.set(stamp);
                    merged.push(position);
                }
            }
        }
        self.reads.truncate(mark as usize);
        self.reads.extend_from_slice(&merged);
        self.merge_scratch = merged;
    }

    /// Length of the read vector (to mark where a run's reads start).
    #[inline]
    pub(crate) fn read_mark(&mut self) -> u32 {
        id32(self.reads().len())
    }

    /// Ends a counting run: restores the marks it set and drops its reads.
    pub(crate) fn end_count(&mut self, mark: u32) {
        for r in mark as usize..self.reads.len() {
            let e = self.reads()[r];
            let n = &self.nodes[e as usize];
            let h = &self.hot[n.prod().index()];
            n.mark.set(match n.kind(h.leaf) {
                NodeKind::Leaf { index } => initial_mark(self.grammar.fixity(n.prod(), index)),
                NodeKind::Alternative { .. } => h.alternative_mark,
            });
        }
        self.discard_reads(mark);
    }

    /// Drops reads recorded since `mark`.
    pub(crate) fn discard_reads(&mut self, mark: u32) {
        self.reads.truncate(mark as usize);
    }

    /// Finishes the current node: its reads since `mark` define its children.
    pub(crate) fn commit(&mut self, mark: u32, schedule: Option<Schedule>, rule: LockRule) {
        self.runs += 1;
        self.pending = false;
        let end = id32(self.reads().len());
        let extra_start = id32(self.extras.len());
        if rule == LockRule::Reference && end > mark {
            self.reference_extras(mark, end);
        }
        // A position whose next alternative does not fit now never will
        // below this node (sizes only grow): it has no child. Keep only the
        // positions with a child; a node with none needs no frame at all.
        let mut kept = mark;
        for r in mark..end {
            let e = self.reads()[r as usize];
            if self.fits(e) {
                self.reads()[kept as usize] = e;
                kept += 1;
            }
        }
        self.reads.truncate(kept as usize);
        let end = kept;
        if end == mark {
            debug_assert_eq!(self.extras.len(), extra_start as usize);
            return;
        }
        if end > mark + 1 {
            for j in mark..end - 1 {
                let e = self.reads()[j as usize];
                self.nodes[e as usize].mark.set(LOCKED);
            }
        }
        for &(node, _) in &self.extras[extra_start as usize..] {
            self.nodes[node as usize].mark.set(LOCKED);
        }
        let extra_live = id32(self.extras.len());
        // A node without a schedule of its own leaves its children none,
        // but keeps alive what its parent's refers to.
        let schedule = schedule.unwrap_or_else(|| self.inherited_schedule().emptied());
        self.frames.push(Frame {
            start: mark,
            end,
            next: end - mark,
            floor: 0,
            undo: None,
            schedule,
            extra_start,
            extra_live,
        });
    }

    /// `LockRule::Reference`: finds the read positions without a child that
    /// contain a read position with one, and from which child index on they
    /// are locked; pushes them on `extras` sorted by that index.
    fn reference_extras(&mut self, mark: u32, end: u32) {
        self.tracking_parents = true;
        let n = self.nodes.len();
        if self.parents_len < n {
            self.parents.clear();
            self.parents.resize(n, NO_PARENT);
            self.parents_len = 0;
            self.parents_pushed(0, NO_PARENT);
        }
        if self.first_inside.len() < n {
            self.first_inside.resize(n, UNREACHED);
        }
        for r in mark..end {
            let e = self.reads()[r as usize];
            if !self.fits(e) {
                self.first_inside[e as usize] = CANDIDATE;
                self.touched.push(e);
            }
        }
        let mut child = 0u32;
        for r in mark..end {
            let e = self.reads()[r as usize];
            // Marked above: it has no child (fitting reads are never
            // marked, and only marked nodes change).
            if self.first_inside[e as usize] != UNREACHED {
                continue;
            }
            let mut a = self.parents[e as usize];
            while a != NO_PARENT {
                match self.first_inside[a as usize] {
                    CANDIDATE => {
                        self.first_inside[a as usize] = child;
                        self.extras.push((a, child));
                    }
                    UNREACHED => {}
                    // Already reached from an earlier read: so are its
                    // ancestors.
                    _ => break,
                }
                a = self.parents[a as usize];
            }
            child += 1;
        }
        for &e in &self.touched {
            self.first_inside[e as usize] = UNREACHED;
        }
        self.touched.clear();
    }

    /// [`Engine::parents_pushed`] for template `(start, len)` pushed at
    /// `base` for `owner`, from the parents the template records.
    fn template_parents_pushed(&mut self, base: u32, (start, len): (u32, u32), owner: u32) {
        if self.parents_len != base as usize {
            return;
        }
        let template = &self.templates[start as usize..(start + len) as usize];
        self.parents.truncate(base as usize);
        self.parents.extend(template.iter().map(|t| match t.parent {
            TEMPLATE_OWNER => owner,
            p => base + p,
        }));
        self.parents_len = self.parents.len();
        #[cfg(debug_assertions)]
        {
            let by_template = self.parents.clone();
            self.parents_len = base as usize;
            self.parents_pushed(base, owner);
            debug_assert_eq!(self.parents, by_template, "a template's parents");
        }
    }

    /// Records the parents of the nodes pushed from `base` on, when
    /// `parents` is kept and valid below `base`: `owner`'s fields (the
    /// alternative just chosen, whose fields start at `base`) and the
    /// fields of the pushed nodes themselves.
    fn parents_pushed(&mut self, base: u32, owner: u32) {
        if !self.tracking_parents || self.parents_len != base as usize {
            return;
        }
        let n = self.nodes.len();
        self.parents.truncate(base as usize);
        self.parents.resize(n, NO_PARENT);
        for i in std::iter::once(owner)
            .filter(|&o| o != NO_PARENT)
            .chain(base..id32(n))
        {
            let h = &self.hot[self.nodes[i as usize].prod().index()];
            if let NodeKind::Alternative { first, .. } = self.nodes[i as usize].kind(h.leaf) {
                for k in 0..h.arity {
                    self.parents[(first + k) as usize] = i;
                }
            }
        }
        self.parents_len = n;
    }

    /// The sizes of the leaf sort of `h`.
    #[inline]
    fn leaf_sizes(&self, h: &Hot) -> &LeafSizes {
        let (sort, sizes) = &self.leaf_sizes[h.leaf_sizes as usize];
        sizes.get_or_init(|| self.grammar.leaf_sizes(*sort, self.bound))
    }

    /// Whether position `e` can be swapped to its next alternative within
    /// the bound, at the current size.
    #[inline(always)]
    fn fits(&self, e: u32) -> bool {
        if self.depth.is_some() {
            return self.fits_by_depth(e);
        }
        let node = &self.nodes[e as usize];
        let h = &self.hot[node.prod().index()];
        if h.leaf {
            self.leaf_fits(h, node)
        } else {
            h.next.is_some() && self.size + h.next_delta as u64 <= self.bound
        }
    }

    /// [`Engine::fits`] of a leaf (a table lookup, out of the way of the
    /// commit's loop over the reads, where most positions are
    /// alternatives).
    #[inline(never)]
    fn leaf_fits(&self, h: &Hot, node: &Node) -> bool {
        self.leaf_sizes(h)
            .step(&self.grammar, node.leaf_index())
            .is_some_and(|d| self.size + d <= self.bound)
    }

    /// [`Engine::fits`] under a depth bound (out of the size search's way).
    #[cold]
    #[inline(never)]
    fn fits_by_depth(&self, e: u32) -> bool {
        self.depth
            .as_ref()
            .is_some_and(|d| d.fits(&self.grammar, &self.nodes, e))
    }

    /// Replaces the search by a single given value (all positions locked):
    /// the next run is on it, and nothing follows it. Used to test sampled
    /// values beyond the exhausted sizes.
    pub(crate) fn load(&mut self, tree: &crate::grammar::Tree) {
        use crate::grammar::Tree;
        self.nodes.clear();
        self.forget_search();
        // Breadth first, so that every node's fields are contiguous; each
        // node is pushed as a placeholder and given its choice when visited.
        let placeholder = || Node::new(Choice::alternative(ProdId::new(0), 0, 0), LOCKED);
        // The tree of each node, in node order: the queue of the breadth-
        // first walk (node `at` is visited when the walk reaches it).
        let mut trees: Vec<&Tree> = Vec::with_capacity(self.nodes.capacity().max(16));
        trees.push(tree);
        self.nodes.push(placeholder());
        let mut size = 0;
        let mut at = 0;
        while let Some(&t) = trees.get(at) {
            match t {
                Tree::Leaf(sort, index) => {
                    let prod = self.grammar.min_prod(*sort);
                    self.nodes[at].set_choice(Choice::leaf(prod, *index));
                    size += self.grammar.leaf_size(*sort, *index);
                }
                Tree::Node(prod, kids) => {
                    let first = id32(self.nodes.len());
                    self.nodes.extend(kids.iter().map(|_| placeholder()));
                    let p = &self.grammar.prods[prod.index()];
                    size += p.cost as u64;
                    self.nodes[at].set_choice(Choice::alternative(*prod, first, p.tag));
                    trees.extend(kids.iter().map(|k| &**k));
                }
            }
            at += 1;
        }
        self.pend_loaded(size);
    }

    /// Drops the search's frames, extra locks and reads (before a value is
    /// loaded in place of the search).
    fn forget_search(&mut self) {
        self.parents_len = 0;
        self.frames.clear();
        self.extras.clear();
        self.reads.truncate(0);
    }

    /// Makes the value just loaded, of `size`, the next run, with nothing
    /// after it.
    fn pend_loaded(&mut self, size: u64) {
        self.size = size;
        self.max_size = self.max_size.max(size);
        self.started = true;
        self.pending = true;
        self.finished = false;
        self.keep = 0;
    }

    /// The value [`Engine::load`] just loaded, kept to be loaded again with
    /// some of its leaves changed ([`Engine::load_kept`]).
    pub(crate) fn keep_loaded(&self) -> KeptValue {
        let leaves = (0..self.nodes.len())
            .filter(|&n| {
                let p = &self.grammar.prods[self.nodes[n].prod().index()];
                p.leaf || p.atom.is_some()
            })
            .map(id32)
            .collect();
        KeptValue {
            nodes: self.nodes.clone(),
            size: self.size,
            leaves,
        }
    }

    /// Loads a kept value again (as [`Engine::load`] would) with the given
    /// leaves and lazy atoms (by breadth-first number) set to the given
    /// indices of their sorts: a copy of its nodes, where loading a tree
    /// allocates one. An atom's new bits go to the end of the arena (its old
    /// ones stay there, unreachable): a block's number of bits depends on
    /// the value.
    pub(crate) fn load_kept(
        &mut self,
        kept: &KeptValue,
        leaves: impl Iterator<Item = (usize, SortId, u64)>,
    ) {
        self.nodes.clone_from(&kept.nodes);
        self.forget_search();
        let mut size = kept.size;
        let g = &*self.grammar;
        for (leaf, sort, index) in leaves {
            let at = kept.leaves[leaf] as usize;
            let old = self.nodes[at].choice();
            let p = &g.prods[old.prod().index()];
            if p.atom.is_some() {
                let (prod, bits, free) = g.atom_block(sort, index);
                let first = id32(self.nodes.len());
                for i in (0..free).rev() {
                    let one = bits >> i & 1 == 1;
                    let tag = u32::from(one);
                    self.nodes.push(Node::new(
                        Choice::alternative(g.bit_prod(one), first, tag),
                        LOCKED,
                    ));
                }
                let q = &g.prods[prod.index()];
                size = size - u64::from(p.cost) + u64::from(q.cost);
                self.nodes[at].set_choice(Choice::alternative(prod, first, q.tag));
                continue;
            }
            let NodeKind::Leaf { index: old } = old.kind(true) else {
                unreachable!("a kept leaf is a leaf")
            };
            size = size - g.leaf_size(sort, old) + g.leaf_size(sort, index);
            self.nodes[at].set_choice(Choice::leaf(g.min_prod(sort), index));
        }
        self.pend_loaded(size);
    }

    /// Unlocks the read positions of frame `top` whose children were given
    /// away: the children that were run opened them one by one.
    #[cold]
    fn open_given_away(&mut self, top: usize) {
        let f = &self.frames[top];
        let (start, end, floor) = (f.start, f.end, f.floor);
        for i in 0..floor {
            if start + i + 1 < end {
                let e = self.reads()[(start + i) as usize];
                self.nodes[e as usize].mark.set(OPEN);
            }
        }
    }

    /// Forgets the search and starts again before the root (the arena and
    /// the frames are emptied, the statistics kept): the next `advance`
    /// moves to the root.
    pub(crate) fn restart(&mut self) {
        self.nodes.clear();
        self.parents_len = 0;
        self.reads.truncate(0);
        self.frames.clear();
        self.extras.clear();
        self.size = 0;
        self.started = false;
        self.finished = false;
        self.pending = false;
        self.keep = 0;
    }

    /// The path of the node at `depth` on the current branch (the pending
    /// node, the node run last, or an ancestor of either): for each
    /// ancestor from the root, which of its children leads to it, counted
    /// in search order. Paths in lexicographic order (a prefix first) are
    /// the nodes in search order.
    pub(crate) fn path_at(&self, depth: usize, path: &mut Vec<u32>) {
        path.clear();
        path.extend(self.frames[..depth].iter().map(Frame::current_child));
    }

    /// Restricts the search to what is left below the node run last and
    /// to its children `.. below` (in search order): the frames of its
    /// ancestors produce no more children, and its own stops before child
    /// `below`. Called on a node that has children, right after its run.
    pub(crate) fn confine_to_last(&mut self, below: u32) {
        let (top, ancestors) = self.frames.split_last_mut().expect("a node with children");
        for f in ancestors {
            f.floor = f.next;
        }
        let children = top.end - top.start;
        top.floor = top.floor.max(children.saturating_sub(below));
        self.keep = self.frames.len();
    }

    /// Goes back up the current branch to the deepest node on the path to
    /// child `from` of the node at path `parent` from which that child can
    /// still be reached (children are produced in order): pops the frames
    /// below it, so that its next children can be produced again. Returns
    /// its depth, or `None` when no frame serves (the search must restart
    /// from the root).
    pub(crate) fn rewind_towards(&mut self, parent: &[u32], from: u32) -> Option<usize> {
        let depth = self.reusable_depth(parent, from)?;
        while self.frames.len() > depth + 1 {
            let top = self.frames.len() - 1;
            if let Some(u) = self.frames[top].undo.take() {
                self.restore(u);
            }
            self.frames[top].floor = self.frames[top].next;
            self.pop_frame();
        }
        self.frames[depth].floor = 0;
        self.keep = depth + 1;
        self.finished = false;
        self.pending = false;
        Some(depth)
    }

    /// The depth `rewind_towards` would stop at, without moving.
    pub(crate) fn reusable_depth(&self, parent: &[u32], from: u32) -> Option<usize> {
        let want = |depth: usize| parent.get(depth).copied().unwrap_or(from);
        let mut depth = 0;
        while depth <= parent.len() && depth < self.frames.len() {
            let f = &self.frames[depth];
            if f.undo.is_none() || f.current_child() != want(depth) {
                break;
            }
            depth += 1;
        }
        let f = self.frames.get(depth)?;
        if depth > parent.len() || want(depth) < f.end - f.start - f.next {
            return None;
        }
        Some(depth)
    }

    /// Which child (in search order) of the node of the top frame comes
    /// next, if there is a top frame.
    pub(crate) fn next_child(&self) -> Option<u32> {
        self.frames.last().map(|f| f.end - f.start - f.next)
    }

    /// Gives away the children not yet produced of the shallowest frame
    /// that has any, if its node is at most `max_depth` deep: returns the
    /// path of that frame's node and the range of those children in search
    /// order; this search will not produce them. `None` when no frame has
    /// a child left, or the shallowest is deeper.
    pub(crate) fn give_away_shallowest(
        &mut self,
        max_depth: usize,
    ) -> Option<(Vec<u32>, u32, u32)> {
        let k = self.frames.iter().position(|f| f.next > f.floor)?;
        if k > max_depth {
            return None;
        }
        let path = self.frames[..k].iter().map(Frame::current_child).collect();
        let f = &mut self.frames[k];
        let children = f.end - f.start;
        let range = (children - f.next, children - f.floor);
        f.floor = f.next;
        Some((path, range.0, range.1))
    }

    /// The depth in the search tree of the pending node (the root is at
    /// depth 0). Call after `advance` returned true.
    pub(crate) fn depth(&self) -> usize {
        debug_assert!(self.pending);
        self.frames.len()
    }

    /// Leaves the pending node unrun: it and its subtree are skipped, and
    /// the next `advance` moves to its next sibling (parallel search runs
    /// the subtrees other workers own this way).
    pub(crate) fn skip(&mut self) {
        debug_assert!(self.pending);
        self.pending = false;
    }

    /// Skips the rest of the search below and after the current point.
    pub(crate) fn finish(&mut self) {
        self.finished = true;
        self.pending = false;
    }

    /// The schedule inherited by the current node (from its parent).
    pub(crate) fn inherited_schedule(&self) -> Schedule {
        self.frames.last().map_or(Schedule::empty(), |f| f.schedule)
    }

    /// A context that records every read, locked or not, for tracing which
    /// positions a run looked at (reports). Marks are restored afterwards.
    pub(crate) fn trace<R>(
        &mut self,
        f: impl FnOnce(&Ctx<'_>) -> R,
    ) -> (Result<R, Box<dyn Any + Send>>, Vec<u32>) {
        let saved: Vec<u32> = self.nodes.iter().map(|n| n.mark.get()).collect();
        for n in &self.nodes {
            n.mark.set(OPEN);
        }
        let mark = self.read_mark();
        let stamp = self.next_stamp();
        let (result, _) = self.call_at(stamp, f);
        let read: Vec<u32> = self.reads()[mark as usize..].to_vec();
        self.discard_reads(mark);
        for (n, m) in self.nodes.iter().zip(saved) {
            n.mark.set(m);
        }
        (result, read)
    }

    /// Runs `f` in the read context of a run with the given stamp. A
    /// trusted grammar's context carries its checked twin (`checked`, the
    /// same run with every read checked) for the positions that hold another
    /// space than their type's own (`with` fields).
    fn with_ctx<R>(&self, stamp: u32, f: impl FnOnce(&Ctx<'_>) -> R) -> R {
        // `Ctx::touch` writes one slot past the recorded reads whether it
        // records or not: room for one read per node plus one keeps every
        // run on the read log's fast path.
        self.reads.reserve(self.nodes.len() + 1);
        let checked = Ctx {
            nodes: &self.nodes,
            info: &self.info,
            slot_types: &self.slot_types,
            grammar: &self.grammar,
            stamp: Cell::new(stamp),
            trusted: false,
            checked: None,
            reads: &self.reads,
            arena: &self.run_arena,
        };
        let ctx = Ctx {
            nodes: &self.nodes,
            info: &self.info,
            slot_types: &self.slot_types,
            grammar: &self.grammar,
            stamp: Cell::new(stamp),
            trusted: self.grammar.trusted,
            checked: Some(&checked),
            reads: &self.reads,
            arena: &self.run_arena,
        };
        if self.grammar.has_functions {
            crate::handle::in_run(&ctx, || f(&ctx))
        } else {
            f(&ctx)
        }
    }

    /// The memory the run arena holds (tests).
    #[cfg(test)]
    pub(crate) fn run_arena_bytes(&self) -> usize {
        self.run_arena.allocated_bytes()
    }

    /// A context for materialising the current value (records nothing).
    pub(crate) fn with_plain_ctx<R>(&self, f: impl FnOnce(&Ctx<'_>) -> R) -> R {
        self.with_ctx(0, f)
    }

    /// The current value as a grammar tree (iterative).
    pub(crate) fn current_tree(&self) -> crate::grammar::Tree {
        let tree = crate::arena::build(&mut ArenaTree { engine: self }, 0);
        Rc::try_unwrap(tree).unwrap_or_else(|rc| (*rc).clone())
    }

    /// The current value as a pattern: `read[i]` tells whether node `i` was
    /// read; unread positions (and everything below them) become holes.
    pub(crate) fn current_pattern(&self, read_nodes: &[u32]) -> crate::report::Pattern {
        let mut read = vec![false; self.nodes.len()];
        for &r in read_nodes {
            read[r as usize] = true;
        }
        crate::report::Pattern::from_arena(&self.grammar, &self.nodes, &read)
    }
}

/// The engine's arena, from a node down, as a grammar tree.
struct ArenaTree<'e> {
    engine: &'e Engine,
}

impl Unfold for ArenaTree<'_> {
    type Pos = u32;
    type Label = ProdId;
    type Out = Rc<crate::grammar::Tree>;

    fn open(&mut self, idx: u32, fields: &mut Vec<u32>) -> Option<Opened<ProdId, Self::Out>> {
        use crate::grammar::Tree;
        let n = &self.engine.nodes[idx as usize];
        let h = &self.engine.hot[n.prod().index()];
        Some(match n.kind(h.leaf) {
            NodeKind::Leaf { index } => {
                let sort = self.engine.grammar.prods[n.prod().index()].sort;
                Opened::Done(Rc::new(Tree::Leaf(sort, index)))
            }
            NodeKind::Alternative { first, .. } => {
                fields.extend(first..first + h.arity);
                Opened::Node(n.prod())
            }
        })
    }

    fn close(&mut self, prod: ProdId, fields: std::vec::Drain<'_, Self::Out>) -> Self::Out {
        Rc::new(crate::grammar::Tree::Node(prod, fields.collect()))
    }
}

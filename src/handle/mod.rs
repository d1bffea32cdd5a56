//! The handle layer: `Lazy<T>` over the arena of the value under search,
//! the run's read context (`Ctx`: which positions a run demanded) and the
//! generic materialiser. Untyped below the handle; the typed reading API
//! (`force`, `view`, `get`, `LazyView`, `Atom`, the std views) is the type
//! layer's. Public at `neatcheck::lazy`.

#[cfg(test)]
mod trust_tests;

// The typed reading API at its public paths (`neatcheck::lazy::ListView`...).
// These point up to the type layer: a facade for users, not an import of
// this layer (nothing in `lazy` uses them).

use crate::arena::{BuildStacks, NodeKind, Opened, ReadLog, Unfold};
use crate::describe::{AtomBlock, Value};
use crate::grammar::{Grammar, ProdId};
use std::any::TypeId;
use std::cell::{Cell, RefCell};
use std::marker::PhantomData;

pub(crate) use crate::arena::Node;

/// Stamp of a counting run: records every open position (not `FINAL`, not
/// `LOCKED`), whatever earlier runs of the node recorded. This reproduces
/// the reference's OS counts (positions at their last alternative do not
/// count as new reads there).
pub(crate) const COUNT_STAMP: u32 = crate::arena::FINAL;

/// Segments may raise an observed run's stamp up to here: above it lie the
/// stamp of the engine's merge of the segments, the wrap-around of
/// `Engine::next_stamp`, and [`COUNT_STAMP`].
const SEGMENT_STAMPS_END: u32 = crate::arena::FINAL - 3;

/// Per-alternative facts the accessors need, packed for the hot path.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ProdInfo {
    pub origin: Option<TypeId>,
    pub leaf: bool,
    /// Number of fields (0 for a leaf): bounds the public field handles.
    pub arity: u32,
    /// Where this alternative's field types start in `Ctx::slot_types`.
    pub slots_at: u32,
}

/// The read context of one predicate run.
pub(crate) struct Ctx<'a> {
    pub(crate) nodes: &'a [Node],
    pub(crate) info: &'a [ProdInfo],
    /// The type whose canonical space each field holds (`None`: another
    /// space), per alternative from `ProdInfo::slots_at`.
    pub(crate) slot_types: &'a [Option<TypeId>],
    pub(crate) grammar: &'a Grammar,
    /// Reads are recorded iff a node's mark is below the stamp (0: never).
    /// A run's stamp rises when it starts a new segment of reads
    /// ([`Ctx::begin_segment`]).
    pub(crate) stamp: Cell<u32>,
    /// Whether typed accessors may skip the canonical-space check (see
    /// `Grammar::trusted`).
    pub(crate) trusted: bool,
    /// The same run with every read checked: the context of the handles of
    /// positions that hold another space than their type's own (`None` when
    /// this context checks every read already).
    pub(crate) checked: Option<&'a Ctx<'a>>,
    pub(crate) reads: &'a ReadLog,
    /// The run's arena ([`RunArena`]), emptied when the run ends.
    pub(crate) arena: &'a ArenaSlot,
}

impl<'a> Ctx<'a> {
    /// Number of reads recorded so far (the counting run of strategy OS).
    pub(crate) fn reads_len(&self) -> usize {
        self.reads.len()
    }

    /// Starts a new segment of an observed run's reads: from here on a
    /// position is recorded again even if the run read it before, so that
    /// each segment holds every position read while it lasted (the fused
    /// look-ahead of O and OF: one segment per forcing). Returns where the
    /// segment starts in the read log, or `None` in a run that records
    /// nothing or when the stamps run out (the caller then runs again).
    pub(crate) fn begin_segment(&self) -> Option<u32> {
        let stamp = self.stamp.get();
        // One stamp stays free for the engine's merge of the segments.
        if stamp == 0 || stamp >= SEGMENT_STAMPS_END {
            return None;
        }
        self.stamp.set(stamp + 1);
        if let Some(checked) = self.checked {
            checked.stamp.set(stamp + 1);
        }
        self.reads.reserve(self.nodes.len() + 1);
        u32::try_from(self.reads.len()).ok()
    }

    #[inline(always)]
    pub(crate) fn touch(&self, idx: u32) -> &'a Node {
        let node = &self.nodes[idx as usize];
        let mark = node.mark.get();
        let stamp = self.stamp.get();
        let record = mark < stamp;
        // Branch-free: whether the read is new depends on the data and is
        // badly predicted.
        node.mark.set(if record { stamp } else { mark });
        #[allow(unsafe_code)]
        // SAFETY: the engine reserves room for one read per node plus one
        // before every run (`Engine::with_ctx`) and every segment
        // (`Ctx::begin_segment`), and a node is recorded at most once per
        // segment: its mark was just raised to the stamp.
        unsafe {
            self.reads.record_if(idx, record)
        };
        node
    }
}

thread_local! {
    /// The run in progress on this thread: its serial number and its read
    /// context (null between runs). A function input (`types/function/`)
    /// is a plain value that reads its positions when applied: it finds its
    /// run here, and knows by the serial whether that run is still going.
    static CURRENT_RUN: std::cell::Cell<(u64, *const Ctx<'static>)> =
        const { std::cell::Cell::new((0, std::ptr::null())) };
    /// The last serial given on this thread: serials are unique in the
    /// process (each thread counts within a range of its own), so a value
    /// that reached another thread never finds its run there.
    static RUN_SERIAL: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The first serial of a new thread's range (2^32 runs per range; a thread
/// that uses them up takes a new one).
fn serial_range() -> u64 {
    static RANGES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    RANGES.fetch_add(1, std::sync::atomic::Ordering::Relaxed) << 32
}

/// Restores the run that was current before [`in_run`] (a run inside a run:
/// a property that searches).
struct RunScope((u64, *const Ctx<'static>));

impl Drop for RunScope {
    fn drop(&mut self) {
        CURRENT_RUN.with(|c| c.set(self.0));
    }
}

/// Runs `f` as the run of `ctx`: plain values made during it (function
/// inputs) can read through `ctx` until it returns (or unwinds).
#[inline]
pub(crate) fn in_run<R>(ctx: &Ctx<'_>, f: impl FnOnce() -> R) -> R {
    let serial = RUN_SERIAL.with(|s| {
        let mut next = s.get() + 1;
        if next & 0xFFFF_FFFF <= 1 {
            // A new thread (0), or a range used up.
            next = serial_range() + 1;
        }
        s.set(next);
        next
    });
    let pointer = (ctx as *const Ctx<'_>).cast::<Ctx<'static>>();
    let _scope = RunScope(CURRENT_RUN.with(|c| c.replace((serial, pointer))));
    f()
}

/// The serial number of the run in progress on this thread, if any.
pub(crate) fn current_run() -> Option<u64> {
    let (serial, pointer) = CURRENT_RUN.with(|c| c.get());
    (!pointer.is_null()).then_some(serial)
}

/// Calls `f` with the read context of run `serial`, if it is the run in
/// progress on this thread (`None` once it has ended, or on another
/// thread).
pub(crate) fn with_run<R>(serial: u64, f: impl for<'x> FnOnce(&'x Ctx<'x>) -> R) -> Option<R> {
    let (current, pointer) = CURRENT_RUN.with(|c| c.get());
    if pointer.is_null() || current != serial {
        return None;
    }
    #[allow(unsafe_code)]
    // SAFETY: the pointer was set by `in_run` from a live `&Ctx` and is
    // reset (by `RunScope`) before that borrow ends, so it is valid here;
    // `f` is called with a reference of a lifetime local to this call (the
    // context is covariant in it), which it can not keep.
    let ctx: &Ctx<'_> = unsafe { &*pointer };
    Some(f(ctx))
}

/// A handle to a position of type `T` in the value under search.
///
/// Reading through it ([`Lazy::view`], [`Lazy::get`], [`Lazy::force`], the
/// list accessors) tells the engine which parts of the input the predicate
/// looked at. Handles are `Copy` and live only during one predicate run.
pub struct Lazy<'a, T> {
    pub(crate) ctx: &'a Ctx<'a>,
    pub(crate) node: u32,
    _t: PhantomData<fn() -> T>,
}

impl<T> Clone for Lazy<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Lazy<'_, T> {}

impl<T> std::fmt::Debug for Lazy<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Lazy<{}>#{}", std::any::type_name::<T>(), self.node)
    }
}

impl<'a, T> Lazy<'a, T> {
    /// The arena of the run in progress: memory for the predicate's own
    /// data (an environment, a term it builds) that lasts until the run
    /// ends. See [`RunArena`].
    #[inline]
    pub fn arena(&self) -> RunArena<'a> {
        let slot = self.ctx.arena;
        slot.lent.set(true);
        RunArena { bump: &slot.bump }
    }
}

/// The arena an engine lends its runs ([`Lazy::arena`]), and whether the
/// run in progress took it: only then is it emptied after the run (most
/// predicates never take it, and emptying is a call into the allocator's
/// crate).
#[derive(Debug, Default)]
pub(crate) struct ArenaSlot {
    bump: bumpalo::Bump,
    lent: std::cell::Cell<bool>,
}

impl ArenaSlot {
    /// Frees what the run took (keeping the memory for the next run).
    #[inline]
    pub(crate) fn empty(&mut self) {
        if self.lent.replace(false) {
            self.bump.reset();
        }
    }

    /// The memory the arena holds (tests).
    #[cfg(test)]
    pub(crate) fn allocated_bytes(&self) -> usize {
        self.bump.allocated_bytes()
    }
}

/// Memory a predicate run lends to the predicate for its own data: taking
/// from it is a pointer bump, and it is all given back at once when the
/// run ends, to be reused by the next run. A predicate that builds
/// structures as it goes (an interpreter's environment, a type checker's
/// types), especially one that keeps them in [`Cool`](crate::cool::Cool)
/// formula nodes, can build them here instead of in `Box`es or `Rc`s:
/// nothing is freed one by one, and a reference (one word, `Copy`) shares
/// a structure where an `Rc` would count.
///
/// Values must be `Copy`: the arena never drops them. A reference can not
/// outlive the run, like the handle the arena came from.
///
/// ```
/// use neatcheck::{search, Lazy};
/// use neatcheck::lazy::ListView;
///
/// /// A list of the elements read so far, built in the run's arena.
/// #[derive(Clone, Copy)]
/// struct Seen<'a>(Option<&'a (u8, Seen<'a>)>);
///
/// fn no_repeats(xs: Lazy<'_, Vec<u8>>) -> bool {
///     let arena = xs.arena();
///     let (mut seen, mut rest) = (Seen(None), xs);
///     while let ListView::Cons(x, tail) = rest.view() {
///         let x = x.get();
///         let mut earlier = seen;
///         while let Seen(Some(&(y, before))) = earlier {
///             if x == y {
///                 return false;
///             }
///             earlier = before;
///         }
///         seen = Seen(Some(arena.alloc((x, seen))));
///         rest = tail;
///     }
///     true
/// }
/// let found = search::ctrex(no_repeats, 20).unwrap_err();
/// assert_eq!(found.value, vec![0, 0]);
/// ```
#[derive(Clone, Copy)]
pub struct RunArena<'a> {
    bump: &'a bumpalo::Bump,
}

impl<'a> RunArena<'a> {
    /// Moves `value` into the arena, for the rest of the run.
    #[inline]
    pub fn alloc<U: Copy>(self, value: U) -> &'a U {
        self.bump.alloc(value)
    }

    /// Copies `values` into the arena, for the rest of the run.
    #[inline]
    pub fn alloc_slice<U: Copy>(self, values: &[U]) -> &'a [U] {
        self.bump.alloc_slice_copy(values)
    }

    /// Copies `text` into the arena, for the rest of the run.
    #[inline]
    pub fn alloc_str(self, text: &str) -> &'a str {
        self.bump.alloc_str(text)
    }
}

impl std::fmt::Debug for RunArena<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunArena")
            .field("allocated_bytes", &self.bump.allocated_bytes())
            .finish()
    }
}

impl<'a, T> Lazy<'a, T> {
    #[inline(always)]
    pub(crate) fn new(ctx: &'a Ctx<'a>, node: u32) -> Self {
        Lazy {
            ctx,
            node,
            _t: PhantomData,
        }
    }

    /// Reinterprets the handle (same position).
    #[inline(always)]
    pub(crate) fn cast<U>(self) -> Lazy<'a, U> {
        Lazy::new(self.ctx, self.node)
    }

    /// Reads the position and returns the declaration tag of its
    /// alternative and the node index of its first field (typed
    /// materialisers and views).
    ///
    /// # Panics
    /// If the position does not hold `T`'s canonical space (a field with an
    /// overriding space): such positions can only be forced.
    #[inline(always)]
    pub(crate) fn open(self) -> (u32, u32)
    where
        T: 'static,
    {
        let node = self.ctx.touch(self.node);
        // In a trusted search (the root is `T`'s own space and every sort is
        // some type's own) positions reached through views are canonical by
        // construction. Otherwise check.
        if !self.ctx.trusted {
            check_canonical::<T>(self.ctx, node.prod());
        }
        (node.tag(), node.first_field())
    }

    /// Dynamic-value support ([`crate::dynamic`]): reads the position exactly
    /// like [`Lazy::open`] (recording it if open) but without the
    /// canonical-type check, since datatypes declared at run time have no
    /// Rust type. Returns the node: its alternative, and its tag and first
    /// field (or, for a leaf, its index).
    #[inline(always)]
    pub(crate) fn read_node(self) -> &'a Node {
        self.ctx.touch(self.node)
    }

    /// The handle of field `i` given the first field index (from
    /// [`Lazy::open`]).
    #[inline(always)]
    pub(crate) fn field_at<F>(self, first: u32, i: u32) -> Lazy<'a, F> {
        Lazy::new(self.ctx, first + i)
    }

    /// The same position, read with every read checked (a field with
    /// another space than its type's own, `#[enumerable(with = ...)]`, whose
    /// reads a trusted search must not take on trust).
    #[inline(always)]
    pub(crate) fn checked(self) -> Lazy<'a, T> {
        Lazy::new(self.ctx.checked.unwrap_or(self.ctx), self.node)
    }

    /// Whether this position holds `T`'s canonical space (does not read
    /// it): typed materialisers fall back to [`Lazy::force_generic`] when
    /// it does not.
    #[inline(always)]
    pub(crate) fn is_canonical(self) -> bool
    where
        T: 'static,
    {
        if self.ctx.trusted {
            return true;
        }
        let node = &self.ctx.nodes[self.node as usize];
        self.ctx.info[node.prod().index()].origin == Some(TypeId::of::<T>())
    }

    /// Leaf support: reads the position and returns its global index if it
    /// holds `T`'s canonical leaf family.
    #[inline(always)]
    pub(crate) fn leaf_index(self) -> Option<u64>
    where
        T: 'static,
    {
        let node = self.ctx.touch(self.node);
        if self.ctx.trusted {
            return Some(node.leaf_index());
        }
        let info = &self.ctx.info[node.prod().index()];
        if info.origin == Some(TypeId::of::<T>()) && info.leaf {
            Some(node.leaf_index())
        } else {
            None
        }
    }

    /// Atom support: reads the position of an integer or character type
    /// and says what it holds: a lazy atom's block (its bits not read
    /// yet), a whole leaf (integers sized linearly), or another space.
    #[inline(always)]
    pub(crate) fn read_typed_atom(self) -> AtomRead
    where
        T: 'static,
    {
        let node = self.ctx.touch(self.node);
        let prod = node.prod().index();
        if !self.ctx.trusted && self.ctx.info[prod].origin != Some(TypeId::of::<T>()) {
            return AtomRead::Other;
        }
        let p = &self.ctx.grammar.prods[prod];
        match p.atom {
            Some(block) => AtomRead::Block(block, node.first_field()),
            None if p.leaf => AtomRead::Leaf(node.leaf_index()),
            None => AtomRead::Other,
        }
    }

    /// Reads bit `i` of an atom whose block's first bit is at `first`.
    #[inline(always)]
    pub(crate) fn read_bit(self, first: u32, i: u32) -> u64 {
        u64::from(self.ctx.touch(first + i).tag())
    }

    /// Reads every free bit of an atom's block: the number they make.
    #[inline(always)]
    pub(crate) fn read_bits(self, block: AtomBlock, first: u32) -> u64 {
        let mut bits = 0;
        for i in 0..block.free {
            bits = bits << 1 | self.read_bit(first, i);
        }
        bits
    }

    /// Materialises the plain value at this position through the build
    /// programs of the position's space (counts as reading every position
    /// below it), whatever that space is.
    ///
    /// [`Lazy::force`] is the same, faster, for an [`Enumerable`](crate::Enumerable) type; this
    /// one also reads values of a type without an instance, searched in a
    /// space of its own ([`crate::search::Searcher::with_space`]):
    ///
    /// ```
    /// use neatcheck::search::Searcher;
    /// use neatcheck::{space, Lazy};
    ///
    /// #[derive(Clone, Debug, PartialEq)]
    /// struct Celsius(i8); // no `Enumerable`
    ///
    /// let temperatures = space::map(space::range(-1, 1, |t| t as i8), Celsius);
    /// let mut search = Searcher::with_space(&temperatures, 1);
    /// let mut seen = vec![];
    /// while search.step(|t: Lazy<Celsius>| seen.push(t.force_generic())).is_some() {}
    /// assert_eq!(seen, [Celsius(-1), Celsius(0), Celsius(1)]);
    /// ```
    pub fn force_generic(self) -> T
    where
        T: 'static,
    {
        let v = materialize(self.ctx, self.node);
        // A transparent wrapper (`Key(i64)` described by `transparent`) is
        // collapsed into the sort it wraps: its positions hold the wrapped
        // value, and the wrapper's conversion lives in the parents' builds.
        // Forcing the position as the wrapper applies it here.
        let v = if v.is::<T>() {
            v
        } else {
            let g = self.ctx.grammar;
            let sort = g.prods[self.ctx.nodes[self.node as usize].prod().index()].sort;
            match g.wrapper_conversion(TypeId::of::<T>(), sort) {
                Some(conv) => conv.run(&mut vec![v].into_iter()),
                None => v,
            }
        };
        crate::grammar::downcast(v, "a lazy position")
    }
}

/// What a position of an integer or character type holds (see
/// [`Lazy::read_typed_atom`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum AtomRead {
    /// A lazy atom's block and the node of its first free bit.
    Block(AtomBlock, u32),
    /// A whole leaf: its global index.
    Leaf(u64),
    /// Another space than the type's own.
    Other,
}

/// The check of untrusted searches, out of the readers' hot path.
#[cold]
#[inline(never)]
pub(crate) fn check_canonical<T: 'static>(ctx: &Ctx<'_>, prod: ProdId) {
    if ctx.info[prod.index()].origin != Some(TypeId::of::<T>()) {
        non_canonical::<T>();
    }
}

#[cold]
#[inline(never)]
fn non_canonical<T>() -> ! {
    crate::internal::raise(format!(
        "this position of type `{}` holds another space than the type's own (a hand-written \
         space); it can be forced but not viewed",
        std::any::type_name::<T>()
    ))
}

/// Materialises the value of the node's sort, recording every open node
/// below it in pre-order. Iterative: no recursion on deep values.
pub(crate) fn materialize(ctx: &Ctx<'_>, idx: u32) -> Value {
    // A whole leaf (a number with a hand-written space, forced) is its own
    // value: no build, whose set-up cost as much as the value.
    let node = ctx.touch(idx);
    let g = ctx.grammar;
    let p = &g.prods[node.prod().index()];
    if p.atom.is_none() {
        if let NodeKind::Leaf { index } = node.kind(p.leaf) {
            return g.leaf_value(p.sort, index);
        }
    }
    thread_local! {
        /// This thread's stacks for forcing: a property forces a few small
        /// values per run, and fresh stacks were most of their cost.
        static STACKS: RefCell<BuildStacks<u32, ProdId, Value>> =
            const { RefCell::new(BuildStacks::new()) };
    }
    let kept = STACKS.try_with(|stacks| {
        // Busy only if a conversion forced during a build in progress.
        let mut stacks = stacks.try_borrow_mut().ok()?;
        Some(crate::arena::build_in(
            &mut Materializer { ctx },
            idx,
            &mut stacks,
        ))
    });
    kept.ok()
        .flatten()
        .unwrap_or_else(|| crate::arena::build(&mut Materializer { ctx }, idx))
}

/// The generic materialiser: arena positions, read in pre-order, become
/// values through the build programs.
struct Materializer<'c, 'a> {
    ctx: &'c Ctx<'a>,
}

impl Unfold for Materializer<'_, '_> {
    type Pos = u32;
    type Label = ProdId;
    type Out = Value;

    fn open(&mut self, idx: u32, fields: &mut Vec<u32>) -> Option<Opened<ProdId, Value>> {
        let node = self.ctx.touch(idx);
        let g = self.ctx.grammar;
        let p = &g.prods[node.prod().index()];
        if let Some(block) = p.atom {
            // A lazy atom: its bits read in the order the walk below would
            // read them, and its value made from them at once (one value
            // per bit, boxed and combined, cost ten times as much).
            let first = node.first_field();
            let mut bits = 0u64;
            for i in 0..block.free {
                bits = bits << 1 | u64::from(self.ctx.touch(first + i).tag());
            }
            if let Some(value) = p.build.run_atom(bits) {
                return Some(Opened::Done(value));
            }
        }
        Some(match node.kind(p.leaf) {
            NodeKind::Leaf { index } => Opened::Done(g.leaf_value(p.sort, index)),
            NodeKind::Alternative { first, .. } => {
                fields.extend(first..first + crate::arena::id32(p.slots.len()));
                Opened::Node(node.prod())
            }
        })
    }

    fn close(&mut self, prod: ProdId, mut fields: std::vec::Drain<'_, Value>) -> Value {
        self.ctx.grammar.prods[prod.index()].build.run(&mut fields)
    }
}

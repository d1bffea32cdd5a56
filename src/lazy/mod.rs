//! Lazy values: the value under search as an arena of choice nodes, and the
//! instrumented handles ([`Lazy`]) through which predicates read it.
//!
//! Every node is one position: an alternative of its sort (or a leaf index),
//! a mark and the index of its first field (fields are contiguous). A mark
//! below the current run's stamp means "open and not yet read in this run";
//! reading such a node stamps it and appends it to the run's read list, so
//! the engine learns which positions were demanded and in which order.
//! Locked positions carry the mark `LOCKED` and are never recorded. The
//! node and its marks are core data (`crate::arena`).

mod alternative;
mod std_views;
mod std_views_more;
#[cfg(test)]
mod trust_tests;

pub use alternative::Alternative;
pub use std_views::{LazyIter, ListView};
pub use std_views_more::RangeView;

use crate::arena::{NodeKind, Opened, ReadLog, Unfold};
use crate::grammar::{Grammar, ProdId};
use crate::space::Value;
use crate::Enumerable;
use std::any::TypeId;
use std::cell::Cell;
use std::marker::PhantomData;

pub(crate) use crate::arena::Node;

/// Stamp of a counting run: records every open position (not `FINAL`, not
/// `LOCKED`), whatever earlier runs of the node recorded. This reproduces
/// the reference's OS counts (positions at their last alternative do not
/// count as new reads there).
pub(crate) const COUNT_STAMP: u32 = crate::arena::FINAL;

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
#[doc(hidden)]
pub struct Ctx<'a> {
    pub(crate) nodes: &'a [Node],
    pub(crate) info: &'a [ProdInfo],
    /// The type whose canonical space each field holds (`None`: another
    /// space), per alternative from `ProdInfo::slots_at`.
    pub(crate) slot_types: &'a [Option<TypeId>],
    pub(crate) grammar: &'a Grammar,
    /// Reads are recorded iff a node's mark is below the stamp (0: never).
    pub(crate) stamp: u32,
    /// Whether typed accessors may skip the canonical-space check (see
    /// `Grammar::trusted`).
    pub(crate) trusted: bool,
    /// The same run with every read checked: the context of the handles of
    /// positions that hold another space than their type's own (`None` when
    /// this context checks every read already).
    pub(crate) checked: Option<&'a Ctx<'a>>,
    pub(crate) reads: &'a ReadLog,
}

impl<'a> Ctx<'a> {
    /// Number of reads recorded so far (the counting run of strategy OS).
    pub(crate) fn reads_len(&self) -> usize {
        self.reads.len()
    }

    #[inline(always)]
    pub(crate) fn touch(&self, idx: u32) -> &'a Node {
        let node = &self.nodes[idx as usize];
        let mark = node.mark.get();
        let record = mark < self.stamp;
        // Branch-free: whether the read is new depends on the data and is
        // badly predicted.
        node.mark.set(if record { self.stamp } else { mark });
        #[allow(unsafe_code)]
        // SAFETY: the engine reserves room for one read per node plus one
        // before every run (`Engine::with_ctx`), and a node is recorded at
        // most once per run: its mark was just raised to the stamp.
        unsafe {
            self.reads.record_if(idx, record)
        };
        node
    }
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

    /// Derive support: reads the position and returns the declaration tag of
    /// its alternative and the node index of its first field.
    ///
    /// # Panics
    /// If the position does not hold `T`'s canonical space (a field with an
    /// overriding space): such positions can only be forced.
    #[doc(hidden)]
    #[inline(always)]
    pub fn __open(self) -> (u32, u32)
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
    /// like [`Lazy::__open`] (recording it if open) but without the
    /// canonical-type check, since datatypes declared at run time have no
    /// Rust type. Returns the node: its alternative, and its tag and first
    /// field (or, for a leaf, its index).
    #[inline(always)]
    pub(crate) fn read_node(self) -> &'a Node {
        self.ctx.touch(self.node)
    }

    /// Derive support: the handle of field `i` given the first field index.
    #[doc(hidden)]
    #[inline(always)]
    pub fn __field<F>(self, first: u32, i: u32) -> Lazy<'a, F> {
        Lazy::new(self.ctx, first + i)
    }

    /// Derive support: the same position, read with every read checked (a
    /// field with another space than its type's own, `#[enumerable(with =
    /// ...)]`, whose reads a trusted search must not take on trust).
    #[doc(hidden)]
    #[inline(always)]
    pub fn __checked(self) -> Lazy<'a, T> {
        Lazy::new(self.ctx.checked.unwrap_or(self.ctx), self.node)
    }

    /// Derive support: whether this position holds `T`'s canonical space
    /// (does not read it).
    #[doc(hidden)]
    #[inline(always)]
    pub fn __is_canonical(self) -> bool
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

    /// Materialises the plain value at this position. Counts as reading
    /// every position below it.
    pub fn force(self) -> T
    where
        T: Enumerable,
    {
        T::force_lazy(self)
    }

    /// The generic materialiser (through the space's build programs).
    #[doc(hidden)]
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

thread_local! {
    static FORCE_DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Derive support: bounds the recursion of typed materialisers. Past this
/// depth they hand the rest of the value to the generic (iterative)
/// materialiser, so forcing a deep value never overflows the stack.
#[doc(hidden)]
pub struct __DepthGuard(());

impl __DepthGuard {
    const LIMIT: u32 = 64;

    /// Enters one level, or `None` when the typed recursion is deep enough.
    #[inline(always)]
    pub fn enter() -> Option<__DepthGuard> {
        FORCE_DEPTH.with(|d| {
            let v = d.get();
            if v >= Self::LIMIT {
                None
            } else {
                d.set(v + 1);
                Some(__DepthGuard(()))
            }
        })
    }
}

impl Drop for __DepthGuard {
    #[inline(always)]
    fn drop(&mut self) {
        FORCE_DEPTH.with(|d| d.set(d.get() - 1));
    }
}

/// The check of untrusted searches, out of the readers' hot path.
#[cold]
#[inline(never)]
fn check_canonical<T: 'static>(ctx: &Ctx<'_>, prod: ProdId) {
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
    crate::arena::build(&mut Materializer { ctx }, idx)
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
        Some(match node.kind(p.leaf) {
            NodeKind::Leaf { index } => Opened::Done(g.leaf_value(p.sort, index)),
            NodeKind::Alternative { first, .. } => {
                fields.extend(first..first + crate::arena::id32(p.slots.len()));
                Opened::Node(node.prod())
            }
        })
    }

    fn close(&mut self, prod: ProdId, fields: Vec<Value>) -> Value {
        self.ctx.grammar.prods[prod.index()]
            .build
            .run(&mut fields.into_iter())
    }
}

/// Types whose lazy positions can be inspected one constructor at a time.
///
/// Derived for user types by `#[derive(Enumerable)]` (the view of `Exp` is
/// the generated `ExpView<'a>`, an enum of the same shape whose fields are
/// [`Lazy`] handles, `Box` fields made transparent); implemented for the
/// standard types (`Option`, `Result`, tuples, arrays, `Vec`, `String`...).
/// A hand-written `Enumerable` implements it with [`Lazy::alternative`].
///
/// ```compile_fail
/// use neatcheck::{space, Enumerable, Lazy, Space};
/// #[derive(Clone, Debug)]
/// struct Meters(u8);
/// impl Enumerable for Meters {
///     fn describe() -> Space<Self> {
///         space::map(space::of::<u8>(), Meters)
///     }
/// }
/// // error: `Meters: LazyView` is not satisfied (no view: force it, or
/// // implement `LazyView` with `Lazy::alternative`)
/// neatcheck::search::classes(|m: Lazy<Meters>| { let _ = m.view(); true }, 3);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no lazy view: `Lazy<{Self}>` cannot be read one constructor at a time",
    label = "`{Self}` has no `LazyView`",
    note = "derived types have one (`#[derive(Enumerable)]`); a hand-written `Enumerable` can \
            implement `LazyView` with `Lazy::alternative`; or read the whole value with `force()`"
)]
pub trait LazyView: Enumerable {
    /// The one-level view of a position.
    type View<'a>;
    /// Reads the position's constructor (recording it if open).
    fn view(lazy: Lazy<'_, Self>) -> Self::View<'_>;
}

impl<'a, T: LazyView> Lazy<'a, T> {
    /// Reads the constructor at this position and returns its view.
    #[inline(always)]
    pub fn view(self) -> T::View<'a> {
        // The view's lifetime is tied to the context, not to `self`.
        let l: Lazy<'a, T> = self;
        view_in(l)
    }
}

#[inline(always)]
fn view_in<'a, T: LazyView>(l: Lazy<'a, T>) -> T::View<'a> {
    T::view(l)
}

/// Atomic types read whole: integers, `char`, `bool`.
///
/// ```compile_fail
/// use neatcheck::Lazy;
/// // error: `Vec<u8>` is not an atom ... (read it with `view()` or `force()`)
/// neatcheck::search::classes(|xs: Lazy<Vec<u8>>| xs.get().is_empty(), 3);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an atom: `get()` reads integers, `char` and `bool` whole",
    label = "`{Self}` is not an atom",
    note = "read `Lazy<{Self}>` one constructor at a time with `view()` (derived types, `Option`, \
            `Vec`, tuples...) or whole with `force()`"
)]
pub trait Atom: Enumerable + Copy {
    /// Reads the value at a position.
    fn get_lazy(lazy: Lazy<'_, Self>) -> Self;
}

impl<T> Lazy<'_, T> {
    /// Reads the (atomic) value at this position.
    // The bound is on the method, so that calling it on another type is
    // reported as that type not being an `Atom` (with its note).
    #[inline(always)]
    pub fn get(self) -> T
    where
        T: Atom,
    {
        T::get_lazy(self)
    }
}

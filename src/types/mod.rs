//! The type layer: which Rust types have a space, and how a predicate reads
//! them. It owns the [`Enumerable`] trait (a type's canonical space, and its
//! typed materialiser), the combinators that name a type's space ([`of`],
//! [`field`], [`transparent`]), the per-thread cache of compiled canonical
//! grammars ([`grammar_of`]), the typed reading API of [`Lazy`] handles
//! (`force`, `view`, `get`, the [`LazyView`] and [`Atom`] traits,
//! [`Alternative`] for hand-written views), and the standard types, one
//! family per file with its space, its typed materialiser and its view:
//! `basic.rs` (unit, `bool`, `char`, `Ordering`, `Option`, `Result`, `Box`,
//! tuples, arrays), `ints.rs` (the primitive integers, [`Linear`]),
//! `numbers.rs` (floats, 128-bit and `NonZero` integers, `Duration`, big
//! numbers), `lists.rs` (`Vec`, `String` and the other sequences),
//! `wrappers.rs` (`Rc`, `Cell`... and ranges), `collections.rs` (sets, maps,
//! heaps).
//!
//! It sits above the descriptions (`describe`), the compiler (`grammar`),
//! grammar-level FEAT (`feat`, which the set and map families unrank
//! through) and the untyped handle machinery (`handle`). Its public items are reached through
//! `neatcheck::space`, `neatcheck::lazy` and the crate root.

mod alternative;
mod basic;
mod bind;
mod collections;
mod compare;
mod function;
mod ints;
mod lists;
mod numbers;
#[cfg(test)]
mod std_tests;
mod unbuild;
mod wrappers;

pub use alternative::Alternative;
pub use basic::AsciiChar;
pub use bind::bind;
pub use compare::LazyOrd;
pub(crate) use function::{function_shape, function_text, DecisionTree, Step};
pub use function::{Fun, Fun2};
pub use ints::{bit_length, linear, Integer, Linear};
pub use lists::{LazyIter, ListView};
pub(crate) use unbuild::tree_of;
pub use unbuild::{Unbuild, UnbuildField};
pub use wrappers::RangeView;

use crate::describe::{integer_sizes, map, registered, IntegerSizes, Raw, RawSpace, Space};
use crate::grammar::{compile, Grammar};
use crate::handle::Lazy;
use std::any::TypeId;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Types with a canonical space, shared by every part of neatcheck.
///
/// Usually derived with `#[derive(Enumerable)]`. A hand-written instance
/// describes the type with the combinators of [`crate::space`] and refers
/// to other types (and to itself, for recursion) with [`of`]:
///
/// ```
/// use neatcheck::space::{self, Space};
/// use neatcheck::Enumerable;
///
/// #[derive(Clone, Debug, PartialEq)]
/// enum Nat { Z, S(Box<Nat>) }
///
/// impl Enumerable for Nat {
///     fn describe() -> Space<Self> {
///         space::pay(space::union(vec![
///             space::pure(Nat::Z),
///             space::map(space::of::<Nat>(), |n| Nat::S(Box::new(n))),
///         ]))
///     }
/// }
/// assert_eq!(neatcheck::count::count_of::<Nat>(3), 1u32.into());
/// ```
///
/// Every recursive cycle must pass through [`pay`](crate::space::pay); a cycle without one is
/// reported with a panic naming the types involved when the space is first
/// used.
///
/// A type without an instance is named in the compiler's error:
///
/// ```compile_fail
/// struct NotEnumerable(u8);
/// // error: `NotEnumerable` is not `Enumerable` ...
/// let _ = neatcheck::count::count_of::<NotEnumerable>(3);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not `Enumerable`: neatcheck has no space of its values",
    label = "`{Self}` has no space",
    note = "a reference (`&str`, `&[T]`, `&T`) has no space of its own: take the owned form \
            (`String`, `Vec<T>`, `T`) and borrow it, as in `|s: String| f(&s)`",
    note = "for a type of your crate: `#[derive(Enumerable)]`, or `impl Enumerable` with \
            `neatcheck::space` (see the `Enumerable` docs)",
    note = "for a type of another crate: give the field or the argument a space \
            (`#[enumerable(with = ...)]`, `Config::spaces`), or wrap the type in a struct of yours"
)]
pub trait Enumerable: Sized + 'static {
    /// Describes the space of the type. Called once per type and thread;
    /// use [`of`] (never `T::describe()`) to refer to a type's space.
    fn describe() -> Space<Self>;

    /// Materialises the value at a lazy position. The default goes through
    /// the generic materialiser; derived and standard types override it with
    /// a typed (faster) version that falls back to the default for positions
    /// that do not have the type's canonical space.
    #[doc(hidden)]
    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        lazy.force_generic()
    }

    /// Whether a lazy position holds this type's canonical space (possibly
    /// through a transparent wrapper). Does not read the position.
    #[doc(hidden)]
    fn __canonical_at(lazy: Lazy<'_, Self>) -> bool {
        lazy.is_canonical()
    }

    /// The type whose canonical space a position of this type holds: the
    /// type itself, or the wrapped type of a transparent wrapper (`Box<T>`,
    /// `String`). Checks field handles of hand-written views.
    #[doc(hidden)]
    fn __position_type() -> TypeId {
        TypeId::of::<Self>()
    }

    /// The tree that builds this value at a position (see
    /// `types/unbuild.rs`); `None` when the type, or the position's space,
    /// can not be taken apart (the default).
    #[doc(hidden)]
    fn __unbuild(&self, at: Unbuild<'_>) -> Option<crate::grammar::Tree> {
        let _ = at;
        None
    }
}

/// The canonical space of `T` (its [`Enumerable::describe`]), shared:
/// built once per type and thread, referred to by type.
pub fn of<T: Enumerable>() -> Space<T> {
    registered(T::describe)
}

/// The field space of a derived constructor: the canonical space of the
/// field's type.
pub fn field<T: Enumerable>() -> RawSpace {
    of::<T>().erase()
}

/// Like [`map`](crate::space::map) over a type's canonical space, but the
/// search treats the result as the very same position (no extra node, the
/// same lazy view). Used for `Box<T>`, `String` and similar zero-cost
/// wrappers.
pub fn transparent<A: Enumerable, B: 'static>(f: impl Fn(A) -> B + 'static) -> Space<B> {
    Space::from_raw(Rc::new(Raw::Transparent(map(of::<A>(), f).raw)))
}

/// Compiled grammars of canonical spaces, per thread.
pub(crate) fn grammar_of<T: Enumerable>() -> Rc<Grammar> {
    thread_local! {
        static CACHE: RefCell<HashMap<(TypeId, IntegerSizes), Rc<Grammar>>> =
            RefCell::new(HashMap::new());
    }
    let id = (TypeId::of::<T>(), integer_sizes());
    if let Some(g) = CACHE.with(|c| c.borrow().get(&id).cloned()) {
        return g;
    }
    let mut g = compile(&of::<T>().raw, std::any::type_name::<T>());
    g.trusted = g.typed_outside_own_spaces;
    let g = Rc::new(g);
    CACHE.with(|c| c.borrow_mut().insert(id, g.clone()));
    g
}

impl<T> Lazy<'_, T> {
    /// Materialises the plain value at this position. Counts as reading
    /// every position below it.
    ///
    /// On a type whose [`Enumerable`] is written by hand this runs the
    /// space's build programs, several times the cost of a derived type's
    /// read, and every value forced is a class of its own. A number with a
    /// space of its own (a leaf: `space::nat_bits`, `space::range`, a leaf
    /// family) is made directly, within a tenth of reading a standard
    /// integer with `get()`. A [`LazyView`] written with
    /// [`Lazy::alternative`] reads a hand-written recursive type one
    /// constructor at a time instead, as lazily and about as fast as a
    /// derived view (see the [`lazy`](crate::lazy) module).
    // The bound is on the method (as on `get`), so that calling it on
    // another type is reported as that type not being `Enumerable`.
    pub fn force(self) -> T
    where
        T: Enumerable,
    {
        T::force_lazy(self)
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

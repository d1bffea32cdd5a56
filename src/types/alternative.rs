//! The public reading API for hand-written spaces: [`Lazy::alternative`]
//! reads one position and returns which alternative of the type's space it
//! holds and typed handles on its fields, so that a hand-written
//! `Enumerable` can provide a [`LazyView`](super::LazyView) that reads as
//! fast as a derived one.

use super::Enumerable;
use crate::handle::{check_canonical, Ctx, Lazy};
use std::marker::PhantomData;

/// The alternative a position of `T` holds, read by [`Lazy::alternative`].
///
/// `index` numbers the alternatives of `T`'s description in its flattened
/// declaration order: every `union` is flattened into its parts, left to
/// right (`pay`, `map` and labels do not count), so
/// `union(vec![a, union(vec![b, c])])` has alternatives 0 (`a`), 1 (`b`) and
/// 2 (`c`). A `product` (or a `map` of one) is one alternative whose fields
/// are its components, left to right, each a position of its own; a field is
/// read through [`Alternative::field`] with the field's type.
///
/// ```
/// use neatcheck::lazy::LazyView;
/// use neatcheck::space::{self, Space};
/// use neatcheck::{Enumerable, Lazy};
///
/// /// Integers as a union of two number families.
/// #[derive(Clone, Copy, Debug, PartialEq)]
/// enum Int { Pos(u8), Neg(u8) }
///
/// impl Enumerable for Int {
///     fn describe() -> Space<Self> {
///         space::union(vec![
///             space::ctor("Pos", space::map(space::of::<u8>(), Int::Pos)),
///             space::ctor("Neg", space::map(space::of::<u8>(), Int::Neg)),
///         ])
///     }
/// }
///
/// /// The view: one alternative read, its field a lazy handle.
/// enum IntView<'a> { Pos(Lazy<'a, u8>), Neg(Lazy<'a, u8>) }
///
/// impl LazyView for Int {
///     type View<'a> = IntView<'a>;
///     fn view(lazy: Lazy<'_, Self>) -> IntView<'_> {
///         let alt = lazy.alternative();
///         match alt.index() {
///             0 => IntView::Pos(alt.field(0)),
///             _ => IntView::Neg(alt.field(0)),
///         }
///     }
/// }
///
/// // Only the sign is read: one run per alternative.
/// let classes = neatcheck::search::classes(
///     |x: Lazy<Int>| matches!(x.view(), IntView::Pos(_)),
///     4,
/// );
/// assert_eq!(classes.runs, 2);
/// ```
pub struct Alternative<'a, T> {
    ctx: &'a Ctx<'a>,
    index: u32,
    first: u32,
    arity: u32,
    /// Where the field types start in `Ctx::slot_types`.
    slots_at: u32,
    _t: PhantomData<fn() -> T>,
}

impl<T> Clone for Alternative<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Alternative<'_, T> {}

impl<T> std::fmt::Debug for Alternative<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Alternative<{}>(index {}, {} fields)",
            std::any::type_name::<T>(),
            self.index,
            self.arity
        )
    }
}

impl<'a, T: Enumerable> Lazy<'a, T> {
    /// Reads the position (recording the read exactly like a derived view)
    /// and returns the alternative of `T`'s space it holds, with handles on
    /// its fields. This is how a hand-written `Enumerable` implements
    /// [`LazyView`](super::LazyView); see [`Alternative`] for the numbering.
    ///
    /// # Panics
    /// If the position does not hold `T`'s own space (a field given another
    /// space: it can only be forced), or if `T`'s space is a leaf family
    /// or a lazy atom (an integer or a `char`: read it with [`Lazy::get`],
    /// [`Lazy::force`] or a comparison).
    #[inline(always)]
    pub fn alternative(self) -> Alternative<'a, T> {
        let node = self.ctx.touch(self.node);
        if !self.ctx.trusted {
            check_canonical::<T>(self.ctx, node.prod());
        }
        let info = &self.ctx.info[node.prod().index()];
        if info.leaf || self.ctx.grammar.prods[node.prod().index()].atom.is_some() {
            leaf_has_no_alternative::<T>();
        }
        Alternative {
            ctx: self.ctx,
            index: node.tag(),
            first: node.first_field(),
            arity: info.arity,
            slots_at: info.slots_at,
            _t: PhantomData,
        }
    }
}

impl<'a, T> Alternative<'a, T> {
    /// The alternative's index in the flattened declaration order of `T`'s
    /// description (see [`Alternative`]).
    #[inline(always)]
    pub fn index(self) -> usize {
        self.index as usize
    }

    /// The number of fields (positions) of this alternative.
    #[inline(always)]
    pub fn arity(self) -> usize {
        self.arity as usize
    }

    /// The handle of field `i` (0-based, in the order of the alternative's
    /// product), typed by the field's type. Does not read the field.
    ///
    /// # Panics
    /// If the alternative has no field `i`, or if the field does not hold
    /// `F`'s own space (a wrong type, or a field described with another
    /// space than `space::of::<F>()` in a search that skips the per-read
    /// checks). A wrong handle never gives a wrong value.
    #[inline(always)]
    pub fn field<F: Enumerable>(self, i: usize) -> Lazy<'a, F> {
        if i >= self.arity as usize {
            no_such_field::<T>(self.index, i, self.arity);
        }
        // A search that skips the per-read checks trusts that every typed
        // handle holds its type's own space; a hand-written view could break
        // that with a wrong `F`, so the handle is checked here against the
        // field's type, from a table (an untrusted search checks every read
        // instead). Measured with `tools/src/bin/handwritten.rs` (thread CPU
        // time): the check costs about 5% on its hand-written BST (three
        // fields a node), and checking the field's node instead of this
        // table cost about 9%.
        if self.ctx.trusted {
            match self.ctx.slot_types[(self.slots_at + i as u32) as usize] {
                Some(t) if t == F::__position_type() => {}
                // A field with a space of its own (`space::field_with`):
                // its reads are checked.
                None => return Lazy::new(self.ctx, self.first + i as u32).checked(),
                Some(_) => wrong_field_type::<T, F>(self.index, i),
            }
        }
        Lazy::new(self.ctx, self.first + i as u32)
    }
}

#[cold]
#[inline(never)]
fn leaf_has_no_alternative<T>() -> ! {
    panic!(
        "neatcheck: `{}` is described by a leaf family (an atom): read it with `get()` or \
         `force()`, not `alternative()`",
        std::any::type_name::<T>()
    )
}

#[cold]
#[inline(never)]
fn no_such_field<T>(index: u32, i: usize, arity: u32) -> ! {
    panic!(
        "neatcheck: alternative {index} of `{}` has {arity} field(s); there is no field {i}",
        std::any::type_name::<T>()
    )
}

#[cold]
#[inline(never)]
fn wrong_field_type<T, F>(index: u32, i: usize) -> ! {
    panic!(
        "neatcheck: field {i} of alternative {index} of `{}` does not hold the space of `{}` \
         (a wrong field type in a hand-written view, or a field described with another space \
         than `space::of::<{}>()`)",
        std::any::type_name::<T>(),
        std::any::type_name::<F>(),
        std::any::type_name::<F>()
    )
}

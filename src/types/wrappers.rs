//! The wrappers and ranges of the standard library: the pointer and cell
//! wrappers (`Rc`, `Arc`, `Cell`, `RefCell`), `Wrapping` and `Reverse`,
//! each *transparent* (the same positions, sizes and order as the wrapped
//! type, so it costs the search nothing, and its lazy view is the wrapped
//! type's view, with the wrapped handle through `inner()`), and `Range` and
//! `RangeInclusive`, pairs free like tuples, viewed as their two bounds
//! ([`RangeView`]). Spaces, typed materialisers and views together.

use super::{field, transparent, Atom, Enumerable, LazyView, Unbuild};
use crate::describe::{product_with, with_shape, Shape, Space};
use crate::grammar::Tree;
use crate::handle::Lazy;
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::cmp::Reverse;
use std::num::Wrapping;
use std::ops::{Range, RangeInclusive};
use std::rc::Rc;
use std::sync::Arc;

/// Transparent wrappers of one value: the wrapped type's positions.
macro_rules! wrapper {
    ($($w:ident => $make:expr, $inner:expr);* $(;)?) => {$(
        impl<T: Enumerable> Enumerable for $w<T> {
            fn describe() -> Space<Self> {
                transparent($make)
            }
            fn __unbuild(&self, at: Unbuild<'_>) -> Option<Tree> {
                // The wrapped value, at the very same position.
                let inner: fn(&Self, Unbuild<'_>) -> Option<Tree> = $inner;
                inner(self, at)
            }
            fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
                let inner = lazy.cast::<T>();
                if T::__canonical_at(inner) {
                    $make(T::force_lazy(inner))
                } else {
                    lazy.force_generic()
                }
            }
            fn __canonical_at(lazy: Lazy<'_, Self>) -> bool {
                T::__canonical_at(lazy.cast())
            }
        }
    )*};
}
wrapper!(
    Rc => Rc::new, |w, at| T::__unbuild(w, at);
    Arc => Arc::new, |w, at| T::__unbuild(w, at);
    // A `Cell`'s value can not be borrowed (nor copied for any `T`).
    Cell => Cell::new, |_, _| None;
    // A value mutably borrowed elsewhere can not be read.
    RefCell => RefCell::new, |w, at| w.try_borrow().ok()?.__unbuild(at);
    Wrapping => Wrapping, |w, at| w.0.__unbuild(at);
    Reverse => Reverse, |w, at| w.0.__unbuild(at);
);

impl<T: Atom> Atom for Wrapping<T> {
    #[inline(always)]
    fn get_lazy(lazy: Lazy<'_, Self>) -> Self {
        Self::force_lazy(lazy)
    }
}

impl<T: Atom> Atom for Reverse<T> {
    #[inline(always)]
    fn get_lazy(lazy: Lazy<'_, Self>) -> Self {
        Self::force_lazy(lazy)
    }
}

/// A pair of `start` and `end` with a constructor name for reports.
fn bounds<T: Enumerable, R: 'static>(name: &'static str, make: fn(T, T) -> R) -> Space<R> {
    with_shape(
        Shape::Ctor {
            name: Cow::Borrowed(name),
            fields: Some(vec![Cow::Borrowed("start"), Cow::Borrowed("end")]),
        },
        product_with(vec![field::<T>(), field::<T>()], move |f| {
            let start = f.take::<T>();
            let end = f.take::<T>();
            make(start, end)
        }),
    )
}

/// The tree of a range `R` of `T` from its bounds.
fn unbuild_bounds<R: Enumerable, T: Enumerable>(
    start: &T,
    end: &T,
    at: Unbuild<'_>,
) -> Option<Tree> {
    if !at.holds::<R>() {
        return None;
    }
    at.node(
        0,
        &mut [&mut |u| start.__unbuild(u), &mut |u| end.__unbuild(u)],
    )
}

/// `start` and `end` of a canonical range position, typed.
fn force_bounds<T: Enumerable, R: 'static>(lazy: Lazy<'_, R>) -> Option<(T, T)> {
    if !lazy.is_canonical() {
        return None;
    }
    let (_, first) = lazy.open();
    let start = T::force_lazy(lazy.field_at(first, 0));
    let end = T::force_lazy(lazy.field_at(first, 1));
    Some((start, end))
}

impl<T: Enumerable> Enumerable for Range<T> {
    fn describe() -> Space<Self> {
        bounds("Range", |start, end| start..end)
    }
    fn __unbuild(&self, at: Unbuild<'_>) -> Option<Tree> {
        unbuild_bounds::<Self, T>(&self.start, &self.end, at)
    }
    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        match force_bounds::<T, Self>(lazy) {
            Some((start, end)) => start..end,
            None => lazy.force_generic(),
        }
    }
}

impl<T: Enumerable> Enumerable for RangeInclusive<T> {
    fn describe() -> Space<Self> {
        bounds("RangeInclusive", RangeInclusive::new)
    }
    fn __unbuild(&self, at: Unbuild<'_>) -> Option<Tree> {
        unbuild_bounds::<Self, T>(self.start(), self.end(), at)
    }
    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        match force_bounds::<T, Self>(lazy) {
            Some((start, end)) => start..=end,
            None => lazy.force_generic(),
        }
    }
}

/// Wrappers whose position is the wrapped value's: the same view, and the
/// wrapped handle through `inner()`.
macro_rules! wrapper_views {
    ($($w:ident),*) => {$(
        impl<T: LazyView> LazyView for $w<T> {
            type View<'a> = T::View<'a>;
            #[inline(always)]
            fn view(lazy: Lazy<'_, Self>) -> Self::View<'_> {
                T::view(lazy.cast())
            }
        }

        impl<'a, T: Enumerable> Lazy<'a, $w<T>> {
            /// The wrapped value's handle (the wrapper is transparent: the
            /// same position, nothing is read).
            #[inline(always)]
            pub fn inner(self) -> Lazy<'a, T> {
                self.cast()
            }
        }
    )*};
}
wrapper_views!(Rc, Arc, Cell, RefCell, Wrapping, Reverse);

/// The two bounds of a lazy `Range` or `RangeInclusive`, each read only
/// when the property reads it.
///
/// ```
/// use neatcheck::Lazy;
/// use std::ops::Range;
/// // Reads only `start`: one run per start of size <= 3 (0, 1, 2, 3, 4..=7),
/// // whatever the end.
/// let c = neatcheck::search::classes(|r: Lazy<Range<u8>>| r.view().start.get() == 0, 3);
/// assert_eq!((c.runs, c.satisfying), (8, 1));
/// ```
#[derive(Debug)]
pub struct RangeView<'a, T> {
    /// The lower bound.
    pub start: Lazy<'a, T>,
    /// The upper bound (excluded for `Range`, included for
    /// `RangeInclusive`).
    pub end: Lazy<'a, T>,
}

impl<T> Clone for RangeView<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for RangeView<'_, T> {}

/// The bounds of a range position (a single-alternative pair: opening it
/// records nothing).
#[inline(always)]
fn range_view<'a, T, R: 'static>(lazy: Lazy<'a, R>) -> RangeView<'a, T> {
    let (_, first) = lazy.open();
    RangeView {
        start: lazy.field_at(first, 0),
        end: lazy.field_at(first, 1),
    }
}

impl<T: Enumerable> LazyView for Range<T> {
    type View<'a> = RangeView<'a, T>;
    #[inline(always)]
    fn view(lazy: Lazy<'_, Self>) -> Self::View<'_> {
        range_view(lazy)
    }
}

impl<T: Enumerable> LazyView for RangeInclusive<T> {
    type View<'a> = RangeView<'a, T>;
    #[inline(always)]
    fn view(lazy: Lazy<'_, Self>) -> Self::View<'_> {
        range_view(lazy)
    }
}

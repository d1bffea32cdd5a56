//! Lazy views of the standard types of `space/std_more.rs`: sequences read
//! cell by cell like `Vec`, wrappers read through to the wrapped value, and
//! ranges as their two bounds.

use super::std_views::ListView;
use super::{Lazy, LazyView};
use crate::Enumerable;
use std::cell::{Cell, RefCell};
use std::cmp::Reverse;
use std::collections::{LinkedList, VecDeque};
use std::num::Wrapping;
use std::ops::{Range, RangeInclusive};
use std::rc::Rc;
use std::sync::Arc;

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

/// Sequences over the cells of a `Vec<T>`: a list view, and the `Vec`
/// helpers (`iter`, `first`, `len`, `eq_slice`...) through `as_list()`.
macro_rules! list_views {
    ($($ty:ty),*) => {$(
        impl<T: Enumerable> LazyView for $ty {
            type View<'a> = ListView<'a, T>;
            #[inline(always)]
            fn view(lazy: Lazy<'_, Self>) -> Self::View<'_> {
                Vec::<T>::view(lazy.cast())
            }
        }

        impl<'a, T: Enumerable> Lazy<'a, $ty> {
            /// The elements as a lazy list (the same positions, in order).
            #[inline(always)]
            pub fn as_list(self) -> Lazy<'a, Vec<T>> {
                self.cast()
            }
        }
    )*};
}
list_views!(VecDeque<T>, LinkedList<T>, Box<[T]>);

impl LazyView for Box<str> {
    type View<'a> = ListView<'a, char>;
    #[inline(always)]
    fn view(lazy: Lazy<'_, Self>) -> Self::View<'_> {
        Vec::<char>::view(lazy.cast())
    }
}

impl<'a> Lazy<'a, Box<str>> {
    /// The string's handle (the same positions), with the `String`
    /// helpers (`chars`, `len`, `eq_str`...).
    #[inline(always)]
    pub fn as_string(self) -> Lazy<'a, String> {
        self.cast()
    }

    /// The characters as a lazy list (the same positions).
    #[inline(always)]
    pub fn as_list(self) -> Lazy<'a, Vec<char>> {
        self.cast()
    }
}

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

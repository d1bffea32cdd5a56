//! `Enumerable` for the rest of the standard types a test meets: the other
//! sequences (`VecDeque`, `LinkedList`, `Box<[T]>`, `Box<str>`), the hashed
//! and heap collections (`HashSet`, `HashMap`, `BinaryHeap`), the pointer
//! and cell wrappers (`Rc`, `Arc`, `Cell`, `RefCell`), `Wrapping`,
//! `Reverse`, `PhantomData`, `Ordering`, `Range` and `RangeInclusive`, with
//! their typed materialisers.
//!
//! Conventions (why these spaces):
//! - A wrapper that only changes how a value is held (`Rc<T>`, `Cell<T>`,
//!   `Wrapping<T>`, `VecDeque<T>` over `Vec<T>`...) is *transparent*: the
//!   same positions, sizes and order as the wrapped type, so it costs the
//!   search nothing and its lazy view is the wrapped type's view.
//! - A container whose observable content is a set or a multiset is a leaf
//!   family listing each content once (see `collections.rs`): a
//!   `BinaryHeap` exposes only its multiset of elements (`peek`, `pop`,
//!   `into_sorted_vec` do not depend on insertion order), so enumerating it
//!   as a `Vec` would run the property `k!` times on the same heap. A
//!   `HashMap` or `HashSet` is enumerated like its `BTree` counterpart but in
//!   the elements' enumeration order, so neither `Ord` nor the hasher matter,
//!   and reports print its elements in that order, never in hash order.
//! - `Range` and `RangeInclusive` are pairs, free like tuples; `Ordering`
//!   is an enumeration of three constructors of size 1, like `bool`.

use super::collections::{MapLike, MapsOf, SetLike, SetsOf};
use super::{datatype, field, label, leaf, product_with, pure, transparent};
use super::{Constructor, Enumerable, Shape, Space};
use crate::lazy::{Atom, Lazy};
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::fmt::Debug;
use std::hash::{BuildHasher, Hash};
use std::marker::PhantomData;
use std::num::Wrapping;
use std::ops::{Range, RangeInclusive};
use std::rc::Rc;
use std::sync::Arc;

/// Transparent wrappers of one value: the wrapped type's positions.
macro_rules! wrapper {
    ($($w:ident => $make:expr),* $(,)?) => {$(
        impl<T: Enumerable> Enumerable for $w<T> {
            fn describe() -> Space<Self> {
                transparent($make)
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
    Rc => Rc::new,
    Arc => Arc::new,
    Cell => Cell::new,
    RefCell => RefCell::new,
    Wrapping => Wrapping,
    Reverse => Reverse,
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

/// Transparent wrappers of a `Vec<T>` (or `String`): the same list cells.
macro_rules! sequence {
    ($($ty:ty, $inner:ty => $make:expr);* $(;)?) => {$(
        impl<T: Enumerable> Enumerable for $ty {
            fn describe() -> Space<Self> {
                transparent($make)
            }
            fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
                let inner = lazy.cast::<$inner>();
                if <$inner>::__canonical_at(inner) {
                    $make(<$inner>::force_lazy(inner))
                } else {
                    lazy.force_generic()
                }
            }
            fn __canonical_at(lazy: Lazy<'_, Self>) -> bool {
                <$inner>::__canonical_at(lazy.cast())
            }
        }
    )*};
}
sequence!(
    VecDeque<T>, Vec<T> => <VecDeque<T> as From<Vec<T>>>::from;
    LinkedList<T>, Vec<T> => |v: Vec<T>| v.into_iter().collect::<LinkedList<T>>();
    Box<[T]>, Vec<T> => Vec::into_boxed_slice;
);

impl Enumerable for Box<str> {
    fn describe() -> Space<Self> {
        transparent(String::into_boxed_str)
    }
    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        let inner = lazy.cast::<String>();
        if String::__canonical_at(inner) {
            String::force_lazy(inner).into_boxed_str()
        } else {
            lazy.force_generic()
        }
    }
    fn __canonical_at(lazy: Lazy<'_, Self>) -> bool {
        String::__canonical_at(lazy.cast())
    }
}

impl<T: ?Sized + 'static> Enumerable for PhantomData<T> {
    fn describe() -> Space<Self> {
        pure(PhantomData)
    }
    fn force_lazy(_: Lazy<'_, Self>) -> Self {
        // One value, no position to read.
        PhantomData
    }
}

fn ctor(name: &'static str) -> Shape {
    Shape::Ctor {
        name: Cow::Borrowed(name),
        fields: None,
    }
}

impl Enumerable for Ordering {
    fn describe() -> Space<Self> {
        datatype(vec![
            Constructor::shaped(ctor("Less"), vec![], |_| Ordering::Less),
            Constructor::shaped(ctor("Equal"), vec![], |_| Ordering::Equal),
            Constructor::shaped(ctor("Greater"), vec![], |_| Ordering::Greater),
        ])
    }
    #[inline]
    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        if lazy.is_canonical() {
            match lazy.open().0 {
                0 => Ordering::Less,
                1 => Ordering::Equal,
                _ => Ordering::Greater,
            }
        } else {
            lazy.force_generic()
        }
    }
}

impl Atom for Ordering {
    #[inline(always)]
    fn get_lazy(lazy: Lazy<'_, Self>) -> Self {
        Self::force_lazy(lazy)
    }
}

/// A pair of `start` and `end` with a constructor name for reports.
fn bounds<T: Enumerable, R: 'static>(name: &'static str, make: fn(T, T) -> R) -> Space<R> {
    label(
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
    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        match force_bounds::<T, Self>(lazy) {
            Some((start, end)) => start..=end,
            None => lazy.force_generic(),
        }
    }
}

impl<T, S> SetLike for HashSet<T, S>
where
    T: Enumerable + Hash + Eq + Debug,
    S: BuildHasher + Default + 'static,
{
    type Elem = T;
    const HASHED: bool = true;
    fn name() -> String {
        format!("HashSet<{}>", std::any::type_name::<T>())
    }
    fn from_elems(elems: Vec<T>) -> Self {
        elems.into_iter().collect()
    }
    fn debug_entries(&self) -> Vec<String> {
        self.iter().map(|x| format!("{x:?}")).collect()
    }
}

impl<K, V, S> MapLike for HashMap<K, V, S>
where
    K: Enumerable + Hash + Eq + Debug,
    V: Enumerable + Debug,
    S: BuildHasher + Default + 'static,
{
    type Key = K;
    type Val = V;
    const HASHED: bool = true;
    fn name() -> String {
        format!(
            "HashMap<{}, {}>",
            std::any::type_name::<K>(),
            std::any::type_name::<V>()
        )
    }
    fn from_entries(entries: Vec<(K, V)>) -> Self {
        entries.into_iter().collect()
    }
    fn debug_entries(&self) -> Vec<String> {
        self.iter().map(|(k, v)| format!("{k:?}: {v:?}")).collect()
    }
}

impl<T: Enumerable + Ord + Debug> SetLike for BinaryHeap<T> {
    type Elem = T;
    const MULTI: bool = true;
    fn name() -> String {
        format!("BinaryHeap<{}>", std::any::type_name::<T>())
    }
    fn from_elems(elems: Vec<T>) -> Self {
        BinaryHeap::from(elems)
    }
}

/// Each set once, in the enumeration order of its elements (see the
/// module's documentation); the hasher does not change what is enumerated.
impl<T, S> Enumerable for HashSet<T, S>
where
    T: Enumerable + Hash + Eq + Debug,
    S: BuildHasher + Default + 'static,
{
    fn describe() -> Space<Self> {
        leaf(Rc::new(SetsOf::<Self>::new()))
    }
}

/// Each map once, by the enumeration order of its keys.
impl<K, V, S> Enumerable for HashMap<K, V, S>
where
    K: Enumerable + Hash + Eq + Debug,
    V: Enumerable + Debug,
    S: BuildHasher + Default + 'static,
{
    fn describe() -> Space<Self> {
        leaf(Rc::new(MapsOf::<Self>::new()))
    }
}

/// Each multiset of elements once (see the module's documentation).
impl<T: Enumerable + Ord + Debug> Enumerable for BinaryHeap<T> {
    fn describe() -> Space<Self> {
        leaf(Rc::new(SetsOf::<Self>::new()))
    }
}

#[cfg(test)]
mod tests;

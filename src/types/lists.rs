//! Lists: `Vec<T>` (a list of cells, `1 + n` plus its elements, as in
//! `size-based`), `String` (a transparent list of `char`s), and the other
//! sequences, transparent over the same cells: `VecDeque`, `LinkedList`,
//! `Box<[T]>`, `Box<str>`. Spaces, typed materialisers and the lazy side
//! together: the cell-by-cell view [`ListView`], [`LazyIter`] and the list
//! and string helpers of `Lazy` (`iter`, `len`, `eq_slice`, `chars`...).

use super::{field, transparent, Enumerable, LazyView, Unbuild};
use crate::describe::{datatype, Constructor, Shape, Space};
use crate::grammar::Tree;
use crate::handle::Lazy;
use std::collections::{LinkedList, VecDeque};

impl<T: Enumerable> Enumerable for Vec<T> {
    fn describe() -> Space<Self> {
        datatype(vec![
            Constructor::shaped(Shape::Nil, vec![], |_| Vec::new()),
            Constructor::shaped(Shape::Cons, vec![field::<T>(), field::<Vec<T>>()], |f| {
                let x = f.take::<T>();
                let mut xs = f.take::<Vec<T>>();
                xs.insert(0, x);
                xs
            }),
        ])
    }
    fn __unbuild(&self, at: Unbuild<'_>) -> Option<Tree> {
        if !at.holds::<Self>() {
            return None;
        }
        at.list(self)
    }
    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        if !lazy.is_canonical() {
            return lazy.force_generic();
        }
        let mut out = Vec::new();
        let mut cell = lazy;
        loop {
            let (tag, first) = cell.open();
            if tag == 0 {
                return out;
            }
            out.push(T::force_lazy(cell.field_at(first, 0)));
            cell = cell.field_at(first, 1);
        }
    }
}

impl Enumerable for String {
    fn describe() -> Space<Self> {
        transparent(|v: Vec<char>| v.into_iter().collect())
    }
    fn __unbuild(&self, at: Unbuild<'_>) -> Option<Tree> {
        self.chars().collect::<Vec<char>>().__unbuild(at)
    }
    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        let inner = lazy.cast::<Vec<char>>();
        if inner.is_canonical() {
            Vec::<char>::force_lazy(inner).into_iter().collect()
        } else {
            lazy.force_generic()
        }
    }
    fn __canonical_at(lazy: Lazy<'_, Self>) -> bool {
        lazy.cast::<Vec<char>>().is_canonical()
    }
    fn __position_type() -> std::any::TypeId {
        std::any::TypeId::of::<Vec<char>>()
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

/// One cell of a lazy list: empty, or a head and the rest.
#[derive(Debug)]
pub enum ListView<'a, T> {
    /// The empty list.
    Nil,
    /// A first element and the rest of the list.
    Cons(Lazy<'a, T>, Lazy<'a, Vec<T>>),
}

impl<T> Clone for ListView<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for ListView<'_, T> {}

impl<T: Enumerable> LazyView for Vec<T> {
    type View<'a> = ListView<'a, T>;
    #[inline(always)]
    fn view(lazy: Lazy<'_, Self>) -> Self::View<'_> {
        match lazy.open() {
            (0, _) => ListView::Nil,
            (_, first) => ListView::Cons(lazy.field_at(first, 0), lazy.field_at(first, 1)),
        }
    }
}

impl LazyView for String {
    type View<'a> = ListView<'a, char>;
    #[inline(always)]
    fn view(lazy: Lazy<'_, Self>) -> Self::View<'_> {
        Vec::<char>::view(lazy.cast())
    }
}

/// Iterates the elements of a lazy list, reading one cell per step.
pub struct LazyIter<'a, T> {
    rest: Option<Lazy<'a, Vec<T>>>,
}

impl<T> std::fmt::Debug for LazyIter<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LazyIter")
            .field("rest", &self.rest)
            .finish()
    }
}

impl<'a, T: Enumerable> Iterator for LazyIter<'a, T> {
    type Item = Lazy<'a, T>;
    #[inline]
    fn next(&mut self) -> Option<Lazy<'a, T>> {
        let cell = self.rest?;
        match cell.view() {
            ListView::Nil => {
                self.rest = None;
                None
            }
            ListView::Cons(x, xs) => {
                self.rest = Some(xs);
                Some(x)
            }
        }
    }
}

impl<'a, T: Enumerable> Lazy<'a, Vec<T>> {
    /// Whether the list is empty (reads the first cell only).
    #[inline]
    pub fn is_empty(self) -> bool {
        matches!(self.view(), ListView::Nil)
    }

    /// The first element and the rest (reads the first cell only).
    #[inline]
    pub fn split_first(self) -> Option<(Lazy<'a, T>, Lazy<'a, Vec<T>>)> {
        match self.view() {
            ListView::Nil => None,
            ListView::Cons(x, xs) => Some((x, xs)),
        }
    }

    /// The first element (reads the first cell only).
    #[inline]
    pub fn first(self) -> Option<Lazy<'a, T>> {
        self.split_first().map(|(x, _)| x)
    }

    /// The element at `index` (reads cells `0..=index`).
    pub fn nth(self, index: usize) -> Option<Lazy<'a, T>> {
        self.iter().nth(index)
    }

    /// The elements, one cell read per step.
    #[inline]
    pub fn iter(self) -> LazyIter<'a, T> {
        LazyIter { rest: Some(self) }
    }

    /// The number of elements (reads every cell, no element).
    pub fn len(self) -> usize {
        self.iter().count()
    }

    /// Lazy equality with a plain slice: reads cell by cell and element by
    /// element (each forced), stopping at the first difference.
    pub fn eq_slice(self, other: &[T]) -> bool
    where
        T: PartialEq,
    {
        let mut cell = self;
        for expected in other {
            match cell.view() {
                ListView::Nil => return false,
                ListView::Cons(x, xs) => {
                    if x.force() != *expected {
                        return false;
                    }
                    cell = xs;
                }
            }
        }
        cell.is_empty()
    }
}

impl<'a> Lazy<'a, String> {
    /// The characters as a lazy list (the same positions).
    #[inline]
    pub fn as_list(self) -> Lazy<'a, Vec<char>> {
        self.cast()
    }

    /// Whether the string is empty (reads the first cell only).
    #[inline]
    pub fn is_empty(self) -> bool {
        self.as_list().is_empty()
    }

    /// The characters, one cell and one character read per step.
    pub fn chars(self) -> impl Iterator<Item = char> + 'a {
        self.as_list().iter().map(|c| c.get())
    }

    /// The number of characters (reads every cell, no character).
    pub fn len(self) -> usize {
        self.as_list().len()
    }

    /// Lexicographic order against a `&str` (as `str`'s `Ord`), reading one
    /// cell and one character at a time and each character only as far as
    /// its comparison needs (bit by bit, see [`Lazy::compare`]).
    ///
    /// ```
    /// use neatcheck::search::classes;
    /// use neatcheck::Lazy;
    ///
    /// // Strings of up to 3 characters below "m": a handful of classes
    /// // per cell, not one per character.
    /// let runs = classes(|s: Lazy<String>| s.cmp_str("m").is_lt(), 24).runs;
    /// assert!(runs < 400, "{runs} classes");
    /// ```
    pub fn cmp_str(self, other: &str) -> std::cmp::Ordering {
        use std::cmp::Ordering;
        let mut cell = self.as_list();
        for expected in other.chars() {
            match cell.view() {
                ListView::Nil => return Ordering::Less,
                ListView::Cons(c, rest) => match c.compare(expected) {
                    Ordering::Equal => cell = rest,
                    unequal => return unequal,
                },
            }
        }
        if cell.is_empty() {
            Ordering::Equal
        } else {
            Ordering::Greater
        }
    }

    /// Lazy equality with a `&str`, stopping at the first difference.
    pub fn eq_str(self, other: &str) -> bool {
        let mut cell = self.as_list();
        for expected in other.chars() {
            match cell.view() {
                ListView::Nil => return false,
                ListView::Cons(c, rest) => {
                    if c != expected {
                        return false;
                    }
                    cell = rest;
                }
            }
        }
        cell.is_empty()
    }
}

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

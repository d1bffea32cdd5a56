//! Lazy views of the standard types: `Option`, `Result`, `Box`, `Vec` and
//! `String` (cell by cell), read one constructor at a time.

use super::{Lazy, LazyView};
use crate::Enumerable;

impl<T: Enumerable> LazyView for Option<T> {
    type View<'a> = Option<Lazy<'a, T>>;
    #[inline(always)]
    fn view(lazy: Lazy<'_, Self>) -> Self::View<'_> {
        match lazy.open() {
            (0, _) => None,
            (_, first) => Some(lazy.field_at(first, 0)),
        }
    }
}

impl<T: Enumerable, E: Enumerable> LazyView for Result<T, E> {
    type View<'a> = Result<Lazy<'a, T>, Lazy<'a, E>>;
    #[inline(always)]
    fn view(lazy: Lazy<'_, Self>) -> Self::View<'_> {
        match lazy.open() {
            (0, first) => Ok(lazy.field_at(first, 0)),
            (_, first) => Err(lazy.field_at(first, 0)),
        }
    }
}

impl<T: LazyView> LazyView for Box<T> {
    type View<'a> = T::View<'a>;
    #[inline(always)]
    fn view(lazy: Lazy<'_, Self>) -> Self::View<'_> {
        T::view(lazy.cast())
    }
}

impl<'a, T: Enumerable> Lazy<'a, Box<T>> {
    /// The boxed position itself (boxes are transparent: same position).
    #[inline(always)]
    pub fn unbox(self) -> Lazy<'a, T> {
        self.cast()
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

    /// Lazy equality with a `&str`, stopping at the first difference.
    pub fn eq_str(self, other: &str) -> bool {
        let mut cell = self.as_list();
        for expected in other.chars() {
            match cell.view() {
                ListView::Nil => return false,
                ListView::Cons(c, rest) => {
                    if c.get() != expected {
                        return false;
                    }
                    cell = rest;
                }
            }
        }
        cell.is_empty()
    }
}

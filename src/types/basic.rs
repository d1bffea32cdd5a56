//! The basic standard types: `()`, `bool`, `char`, `Ordering`,
//! `PhantomData`, `Option`, `Result`, `Box`, tuples and arrays, with the
//! size conventions of the `size-based` package (the table of `docs/spec.md#sizes`): their
//! spaces, typed materialisers and lazy views together. `bool` and
//! `Ordering` are enumerations of constructors of size 1; tuples, arrays and
//! boxes are free.

use super::{field, transparent, Atom, Enumerable, LazyView, Unbuild};
use crate::describe::{
    atom, bits_family, datatype, leaf, product_with, pure, with_shape, AtomFamily, Constructor,
    Shape, Space,
};
use crate::grammar::Tree;
use crate::handle::{AtomRead, Lazy};
use std::borrow::Cow;
use std::cmp::Ordering;
use std::marker::PhantomData;

fn ctor(name: &'static str) -> Shape {
    Shape::Ctor {
        name: Cow::Borrowed(name),
        fields: None,
    }
}

impl Enumerable for () {
    fn describe() -> Space<Self> {
        pure(())
    }
    fn __unbuild(&self, at: Unbuild<'_>) -> Option<Tree> {
        if !at.holds::<Self>() {
            return None;
        }
        at.node(0, &mut [])
    }
}

impl Enumerable for bool {
    fn describe() -> Space<Self> {
        datatype(vec![
            Constructor::shaped(ctor("false"), vec![], |_| false),
            Constructor::shaped(ctor("true"), vec![], |_| true),
        ])
    }
    fn __unbuild(&self, at: Unbuild<'_>) -> Option<Tree> {
        if !at.holds::<Self>() {
            return None;
        }
        at.node(u32::from(*self), &mut [])
    }
    #[inline]
    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        if lazy.is_canonical() {
            lazy.open().0 == 1
        } else {
            lazy.force_generic()
        }
    }
}

impl Atom for bool {
    #[inline(always)]
    fn get_lazy(lazy: Lazy<'_, Self>) -> Self {
        Self::force_lazy(lazy)
    }
}

impl Enumerable for char {
    fn describe() -> Space<Self> {
        atom(AtomFamily::unicode())
    }
    fn __unbuild(&self, at: Unbuild<'_>) -> Option<Tree> {
        if !at.holds::<Self>() {
            return None;
        }
        at.atom(i128::from(u32::from(*self)))
    }
    #[inline]
    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        match lazy.read_typed_atom() {
            AtomRead::Block(block, first) => {
                let code = block.key(lazy.read_bits(block, first)) as u32;
                char::from_u32(code).expect("a scalar value")
            }
            AtomRead::Leaf(_) | AtomRead::Other => lazy.force_generic(),
        }
    }
}

impl Atom for char {
    #[inline(always)]
    fn get_lazy(lazy: Lazy<'_, Self>) -> Self {
        Self::force_lazy(lazy)
    }
}

/// A 7-bit ASCII character sized as the original NEAT's `Char` (the
/// `size-based` package's): by bit length of its code (NUL costs 0, `'a'`
/// costs 7), and read whole, as that implementation reads characters. A
/// `Vec<AsciiChar>` is that package's `String`, so the reference
/// implementation's counts and run counts are reachable with it; `char`
/// itself reaches all of Unicode and compares lazily.
///
/// ```
/// use neatcheck::count::count_of;
/// use neatcheck::space::AsciiChar;
/// assert_eq!(count_of::<AsciiChar>(7), 64u32.into());
/// assert_eq!(count_of::<AsciiChar>(8), 0u32.into());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AsciiChar(pub char);

impl Enumerable for AsciiChar {
    fn describe() -> Space<Self> {
        leaf(bits_family(7, |code| AsciiChar(char::from(code as u8))))
    }
    #[inline]
    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        match lazy.leaf_index() {
            // By bit length the global index is the code itself.
            Some(code) => AsciiChar(char::from(code as u8)),
            None => lazy.force_generic(),
        }
    }
}

impl Atom for AsciiChar {
    #[inline(always)]
    fn get_lazy(lazy: Lazy<'_, Self>) -> Self {
        Self::force_lazy(lazy)
    }
}

impl<T: Enumerable> Enumerable for Box<T> {
    fn describe() -> Space<Self> {
        transparent(Box::new)
    }
    fn __unbuild(&self, at: Unbuild<'_>) -> Option<Tree> {
        (**self).__unbuild(at)
    }
    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        let inner = lazy.cast::<T>();
        if T::__canonical_at(inner) {
            Box::new(T::force_lazy(inner))
        } else {
            lazy.force_generic()
        }
    }
    fn __canonical_at(lazy: Lazy<'_, Self>) -> bool {
        T::__canonical_at(lazy.cast())
    }
    fn __position_type() -> std::any::TypeId {
        T::__position_type()
    }
}

impl<T: Enumerable> Enumerable for Option<T> {
    fn describe() -> Space<Self> {
        datatype(vec![
            Constructor::shaped(ctor("None"), vec![], |_| None),
            Constructor::shaped(ctor("Some"), vec![field::<T>()], |f| Some(f.take::<T>())),
        ])
    }
    fn __unbuild(&self, at: Unbuild<'_>) -> Option<Tree> {
        if !at.holds::<Self>() {
            return None;
        }
        match self {
            None => at.node(0, &mut []),
            Some(x) => at.node(1, &mut [&mut |u| x.__unbuild(u)]),
        }
    }
    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        if !lazy.is_canonical() {
            return lazy.force_generic();
        }
        match lazy.open() {
            (0, _) => None,
            (_, first) => Some(T::force_lazy(lazy.field_at(first, 0))),
        }
    }
}

impl<T: Enumerable, E: Enumerable> Enumerable for Result<T, E> {
    fn describe() -> Space<Self> {
        datatype(vec![
            Constructor::shaped(ctor("Ok"), vec![field::<T>()], |f| Ok(f.take::<T>())),
            Constructor::shaped(ctor("Err"), vec![field::<E>()], |f| Err(f.take::<E>())),
        ])
    }
    fn __unbuild(&self, at: Unbuild<'_>) -> Option<Tree> {
        if !at.holds::<Self>() {
            return None;
        }
        match self {
            Ok(x) => at.node(0, &mut [&mut |u| x.__unbuild(u)]),
            Err(e) => at.node(1, &mut [&mut |u| e.__unbuild(u)]),
        }
    }
    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        if !lazy.is_canonical() {
            return lazy.force_generic();
        }
        match lazy.open() {
            (0, first) => Ok(T::force_lazy(lazy.field_at(first, 0))),
            (_, first) => Err(E::force_lazy(lazy.field_at(first, 0))),
        }
    }
}

macro_rules! tuple {
    ($($name:ident : $idx:tt),+) => {
        impl<$($name: Enumerable),+> Enumerable for ($($name,)+) {
            fn describe() -> Space<Self> {
                with_shape(
                    Shape::Tuple,
                    product_with(vec![$(field::<$name>()),+], |f| ($(f.take::<$name>(),)+)),
                )
            }
            fn __unbuild(&self, at: Unbuild<'_>) -> Option<Tree> {
                if !at.holds::<Self>() {
                    return None;
                }
                at.node(0, &mut [$(&mut |u| self.$idx.__unbuild(u)),+])
            }
            fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
                if !lazy.is_canonical() {
                    return lazy.force_generic();
                }
                let (_, first) = lazy.open();
                ($($name::force_lazy(lazy.field_at(first, $idx)),)+)
            }
        }
        impl<$($name: Enumerable),+> LazyView for ($($name,)+) {
            type View<'a> = ($(Lazy<'a, $name>,)+);
            #[inline(always)]
            fn view(lazy: Lazy<'_, Self>) -> Self::View<'_> {
                let (_, first) = lazy.open();
                ($(lazy.field_at::<$name>(first, $idx),)+)
            }
        }
    };
}
tuple!(A: 0);
tuple!(A: 0, B: 1);
tuple!(A: 0, B: 1, C: 2);
tuple!(A: 0, B: 1, C: 2, D: 3);
tuple!(A: 0, B: 1, C: 2, D: 3, E: 4);
tuple!(A: 0, B: 1, C: 2, D: 3, E: 4, F: 5);
tuple!(A: 0, B: 1, C: 2, D: 3, E: 4, F: 5, G: 6);
tuple!(A: 0, B: 1, C: 2, D: 3, E: 4, F: 5, G: 6, H: 7);
tuple!(A: 0, B: 1, C: 2, D: 3, E: 4, F: 5, G: 6, H: 7, I: 8);
tuple!(A: 0, B: 1, C: 2, D: 3, E: 4, F: 5, G: 6, H: 7, I: 8, J: 9);
tuple!(A: 0, B: 1, C: 2, D: 3, E: 4, F: 5, G: 6, H: 7, I: 8, J: 9, K: 10);
tuple!(A: 0, B: 1, C: 2, D: 3, E: 4, F: 5, G: 6, H: 7, I: 8, J: 9, K: 10, L: 11);

impl<T: Enumerable, const N: usize> Enumerable for [T; N] {
    fn describe() -> Space<Self> {
        with_shape(
            Shape::Tuple,
            product_with((0..N).map(|_| field::<T>()).collect(), |f| {
                std::array::from_fn(|_| f.take::<T>())
            }),
        )
    }
    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        if !lazy.is_canonical() || N == 0 {
            return lazy.force_generic();
        }
        let (_, first) = lazy.open();
        std::array::from_fn(|i| T::force_lazy(lazy.field_at(first, i as u32)))
    }
}

impl<T: Enumerable, const N: usize> LazyView for [T; N] {
    type View<'a> = [Lazy<'a, T>; N];
    fn view(lazy: Lazy<'_, Self>) -> Self::View<'_> {
        if N == 0 {
            return std::array::from_fn(|_| unreachable!());
        }
        let (_, first) = lazy.open();
        std::array::from_fn(|i| lazy.field_at(first, i as u32))
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

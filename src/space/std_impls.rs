//! `Enumerable` for the standard types, with the size conventions of the
//! `size-based` package (see DESIGN.md §3), and their typed materialisers.

use super::leaf::{BigNat, BigSigned};
use super::{
    datatype, field, leaf, of, product_with, pure, transparent, Constructor, Enumerable, Shape,
    Space,
};
use crate::lazy::Lazy;
use num_bigint::{BigInt, BigUint};
use std::borrow::Cow;
use std::rc::Rc;

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
}

impl Enumerable for bool {
    fn describe() -> Space<Self> {
        datatype(vec![
            Constructor::shaped(ctor("false"), vec![], |_| false),
            Constructor::shaped(ctor("true"), vec![], |_| true),
        ])
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

macro_rules! unsigned {
    ($($t:ty => $bits:expr),*) => {$(
        impl Enumerable for $t {
            fn describe() -> Space<Self> {
                let mode = super::integer_sizes();
                leaf(super::ints::unsigned_family(mode, $bits, |x| x as $t))
            }
            #[inline]
            fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
                match lazy.leaf_index() {
                    // By bit length and linearly alike, the global index is
                    // the number itself.
                    Some(i) => i as $t,
                    None => lazy.force_generic(),
                }
            }
        }
        impl crate::lazy::Atom for $t {
            #[inline(always)]
            fn get_lazy(lazy: Lazy<'_, Self>) -> Self {
                Self::force_lazy(lazy)
            }
        }
    )*};
}
unsigned!(u8 => 8, u16 => 16, u32 => 32, u64 => 64, usize => usize::BITS);

/// Decodes a global index of a signed family of `bits` bits.
#[inline]
pub(crate) fn signed_from_index(bits: u32, index: u64) -> i64 {
    if index == 0 {
        return 0;
    }
    // Size k (1 <= k <= bits) starts at index 2^k - 1; in 128 bits because
    // the last value of a 64-bit family (`i64::MIN`) has index 2^64 - 1.
    let k = 127 - (u128::from(index) + 1).leading_zeros();
    let start = ((1u128 << k) - 1) as u64;
    super::leaf::signed_value(bits, k as usize, index - start)
}

macro_rules! signed {
    ($($t:ty => $bits:expr),*) => {$(
        impl Enumerable for $t {
            fn describe() -> Space<Self> {
                let mode = super::integer_sizes();
                leaf(super::ints::signed_family(mode, $bits, |x| x as $t))
            }
            #[inline]
            fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
                match lazy.leaf_index() {
                    // A canonical position holds the family of the mode its
                    // grammar was compiled under.
                    Some(i) if lazy.ctx.grammar.integers == super::IntegerSizes::Linear => {
                        super::leaf::linear_signed_from_index($bits, i) as $t
                    }
                    Some(i) => signed_from_index($bits, i) as $t,
                    None => lazy.force_generic(),
                }
            }
        }
        impl crate::lazy::Atom for $t {
            #[inline(always)]
            fn get_lazy(lazy: Lazy<'_, Self>) -> Self {
                Self::force_lazy(lazy)
            }
        }
    )*};
}
signed!(i8 => 8, i16 => 16, i32 => 32, i64 => 64, isize => isize::BITS);

impl crate::lazy::Atom for bool {
    #[inline(always)]
    fn get_lazy(lazy: Lazy<'_, Self>) -> Self {
        Self::force_lazy(lazy)
    }
}

impl Enumerable for char {
    fn describe() -> Space<Self> {
        leaf(super::char_family())
    }
    #[inline]
    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        match lazy.leaf_index() {
            Some(i) => super::numbers::char_from_index(i),
            None => lazy.force_generic(),
        }
    }
}

impl crate::lazy::Atom for char {
    #[inline(always)]
    fn get_lazy(lazy: Lazy<'_, Self>) -> Self {
        Self::force_lazy(lazy)
    }
}

impl Enumerable for BigUint {
    fn describe() -> Space<Self> {
        leaf(Rc::new(BigNat))
    }
}

impl Enumerable for BigInt {
    fn describe() -> Space<Self> {
        leaf(Rc::new(BigSigned))
    }
}

impl<T: Enumerable + Ord + std::fmt::Debug> Enumerable for std::collections::BTreeSet<T> {
    fn describe() -> Space<Self> {
        leaf(Rc::new(super::collections::SetFamily::<T>::new()))
    }
}

impl<K, V> Enumerable for std::collections::BTreeMap<K, V>
where
    K: Enumerable + Ord + std::fmt::Debug,
    V: Enumerable + std::fmt::Debug,
{
    fn describe() -> Space<Self> {
        leaf(Rc::new(super::collections::MapFamily::<K, V>::new()))
    }
}

impl<T: Enumerable> Enumerable for Box<T> {
    fn describe() -> Space<Self> {
        transparent(Box::new)
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

impl Enumerable for String {
    fn describe() -> Space<Self> {
        transparent(|v: Vec<char>| v.into_iter().collect())
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

impl<T: Enumerable> Enumerable for Option<T> {
    fn describe() -> Space<Self> {
        datatype(vec![
            Constructor::shaped(ctor("None"), vec![], |_| None),
            Constructor::shaped(ctor("Some"), vec![field::<T>()], |f| Some(f.take::<T>())),
        ])
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

macro_rules! tuple {
    ($($name:ident : $idx:tt),+) => {
        impl<$($name: Enumerable),+> Enumerable for ($($name,)+) {
            fn describe() -> Space<Self> {
                super::label(
                    Shape::Tuple,
                    product_with(vec![$(field::<$name>()),+], |f| ($(f.take::<$name>(),)+)),
                )
            }
            fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
                if !lazy.is_canonical() {
                    return lazy.force_generic();
                }
                let (_, first) = lazy.open();
                ($($name::force_lazy(lazy.field_at(first, $idx)),)+)
            }
        }
        impl<$($name: Enumerable),+> crate::lazy::LazyView for ($($name,)+) {
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
        super::label(
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

impl<T: Enumerable, const N: usize> crate::lazy::LazyView for [T; N] {
    type View<'a> = [Lazy<'a, T>; N];
    fn view(lazy: Lazy<'_, Self>) -> Self::View<'_> {
        if N == 0 {
            return std::array::from_fn(|_| unreachable!());
        }
        let (_, first) = lazy.open();
        std::array::from_fn(|i| lazy.field_at(first, i as u32))
    }
}

/// Keeps `of` in use for documentation links of this module.
#[allow(dead_code)]
fn _of_is_canonical<T: Enumerable>() -> Space<T> {
    of::<T>()
}

#[cfg(test)]
mod tests {
    use super::signed_from_index;
    use crate::grammar::{downcast, grammar_of, Tree};

    /// The lazy decoding of signed leaves agrees with the family's values,
    /// up to the last index of a 64-bit family (`u64::MAX`, `i64::MIN`).
    #[test]
    fn signed_indices_decode_like_the_family() {
        let g = grammar_of::<i8>();
        for i in 0..256u64 {
            let v: i8 = downcast(g.build_root(&Tree::Leaf(g.root, i)), "i8");
            assert_eq!(i64::from(v), signed_from_index(8, i), "index {i}");
        }
        let g = grammar_of::<i64>();
        for i in [0, 1, 2, 1 << 40, u64::MAX - 1, u64::MAX] {
            let v: i64 = downcast(g.build_root(&Tree::Leaf(g.root, i)), "i64");
            assert_eq!(v, signed_from_index(64, i), "index {i}");
        }
        assert_eq!(signed_from_index(64, u64::MAX), i64::MIN);
    }
}

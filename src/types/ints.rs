//! The primitive integer types (`u8..u64`, `i8..i64`, `usize`, `isize`):
//! their canonical spaces under the thread's integer sizes, their typed
//! readers (a canonical position's leaf index decodes to the number without
//! the grammar), the per-field spaces [`linear`] and [`bit_length`], and the
//! [`Linear`] wrapper type. The size conventions themselves
//! ([`IntegerSizes`], the families) are descriptions, in `space`.

use super::{Atom, Enumerable, Unbuild};
use crate::describe::{
    atom, integer_sizes, leaf, linear_nat_family, linear_signed_family, linear_signed_from_index,
    AtomFamily, IntegerSizes, Space,
};
use crate::handle::{AtomRead, Lazy};
use std::fmt;

macro_rules! unsigned {
    ($($t:ty => $bits:expr),*) => {$(
        impl Enumerable for $t {
            fn describe() -> Space<Self> {
                match integer_sizes() {
                    IntegerSizes::BitLength => <$t as Integer>::bit_length_space(),
                    IntegerSizes::Linear => <$t as Integer>::linear_space(),
                }
            }
            fn __unbuild(&self, at: Unbuild<'_>) -> Option<crate::grammar::Tree> {
                if !at.holds::<Self>() {
                    return None;
                }
                at.atom(*self as i128)
            }
            #[inline]
            fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
                match lazy.read_typed_atom() {
                    AtomRead::Block(block, first) => block.key(lazy.read_bits(block, first)) as $t,
                    // Linearly, the global index is the number itself.
                    AtomRead::Leaf(i) => i as $t,
                    AtomRead::Other => lazy.force_generic(),
                }
            }
        }
        impl Atom for $t {
            #[inline(always)]
            fn get_lazy(lazy: Lazy<'_, Self>) -> Self {
                Self::force_lazy(lazy)
            }
        }
    )*};
}
unsigned!(u8 => 8, u16 => 16, u32 => 32, u64 => 64, usize => usize::BITS);

macro_rules! signed {
    ($($t:ty => $bits:expr),*) => {$(
        impl Enumerable for $t {
            fn describe() -> Space<Self> {
                match integer_sizes() {
                    IntegerSizes::BitLength => <$t as Integer>::bit_length_space(),
                    IntegerSizes::Linear => <$t as Integer>::linear_space(),
                }
            }
            fn __unbuild(&self, at: Unbuild<'_>) -> Option<crate::grammar::Tree> {
                if !at.holds::<Self>() {
                    return None;
                }
                at.atom(*self as i128)
            }
            #[inline]
            fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
                match lazy.read_typed_atom() {
                    AtomRead::Block(block, first) => block.key(lazy.read_bits(block, first)) as $t,
                    // A canonical leaf is the linear family (by bit length
                    // the type is a lazy atom).
                    AtomRead::Leaf(i) => linear_signed_from_index($bits, i) as $t,
                    AtomRead::Other => lazy.force_generic(),
                }
            }
        }
        impl Atom for $t {
            #[inline(always)]
            fn get_lazy(lazy: Lazy<'_, Self>) -> Self {
                Self::force_lazy(lazy)
            }
        }
    )*};
}
signed!(i8 => 8, i16 => 16, i32 => 32, i64 => 64, isize => isize::BITS);

/// The primitive integer types, which have both size conventions.
///
/// Implemented for `u8..u64`, `i8..i64`, `usize` and `isize`.
pub trait Integer: Enumerable + Copy + fmt::Debug {
    /// The space of the type sized linearly (`n` costs `|n|`).
    fn linear_space() -> Space<Self>;
    /// The space of the type sized by bit length.
    fn bit_length_space() -> Space<Self>;
}

/// The values of an integer type sized linearly: `n` costs `|n|` (0; 1,
/// −1; 2, −2; ...), whatever the mode of the check. For a field:
///
/// ```
/// use neatcheck::Enumerable;
/// #[derive(Enumerable, Debug, Clone)]
/// struct Entry {
///     #[enumerable(with = "neatcheck::space::linear::<i64>()")]
///     key: i64,
///     value: bool,
/// }
/// // Entry costs 1, the key |key|, the value 1.
/// assert_eq!(neatcheck::count::count_of::<Entry>(4), 4u32.into());
/// ```
pub fn linear<T: Integer>() -> Space<T> {
    T::linear_space()
}

/// The values of an integer type sized by bit length, whatever the mode of
/// the check (see [`IntegerSizes`]).
pub fn bit_length<T: Integer>() -> Space<T> {
    T::bit_length_space()
}

/// An integer sized linearly in every check: a type-level [`linear`]. Its
/// canonical space holds `Linear(n)` at size `|n|`; it is read whole, like
/// the integer itself.
///
/// ```
/// use neatcheck::space::Linear;
/// use neatcheck::values::values_up_to;
/// assert_eq!(
///     values_up_to::<Linear<i8>>(2),
///     [Linear(0), Linear(1), Linear(-1), Linear(2), Linear(-2)]
/// );
/// ```
///
/// For a user newtype, the same idiom without the wrapper is a hand-written
/// space: `space::map(space::linear::<i64>(), Key)`, which also makes the
/// newtype free (a derived struct costs 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Linear<T>(pub T);

impl<T> std::ops::Deref for Linear<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

macro_rules! integer {
    (unsigned: $($t:ty => $bits:expr),*) => {$(
        impl Integer for $t {
            fn linear_space() -> Space<Self> {
                leaf(linear_nat_family(<$t>::MAX as u64, |x| x as $t))
            }
            fn bit_length_space() -> Space<Self> {
                atom(AtomFamily::unsigned($bits, |x| x as $t))
            }
        }
        impl Enumerable for Linear<$t> {
            fn describe() -> Space<Self> {
                leaf(linear_nat_family(<$t>::MAX as u64, |x| Linear(x as $t)))
            }
            #[inline]
            fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
                match lazy.leaf_index() {
                    // Linearly, the global index is the number itself.
                    Some(i) => Linear(i as $t),
                    None => lazy.force_generic(),
                }
            }
        }
        impl Atom for Linear<$t> {
            #[inline(always)]
            fn get_lazy(lazy: Lazy<'_, Self>) -> Self {
                <Self as Enumerable>::force_lazy(lazy)
            }
        }
    )*};
    (signed: $($t:ty => $bits:expr),*) => {$(
        impl Integer for $t {
            fn linear_space() -> Space<Self> {
                leaf(linear_signed_family($bits, |x| x as $t))
            }
            fn bit_length_space() -> Space<Self> {
                atom(AtomFamily::signed($bits, |x| x as $t))
            }
        }
        impl Enumerable for Linear<$t> {
            fn describe() -> Space<Self> {
                leaf(linear_signed_family($bits, |x| Linear(x as $t)))
            }
            #[inline]
            fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
                match lazy.leaf_index() {
                    Some(i) => Linear(linear_signed_from_index($bits, i) as $t),
                    None => lazy.force_generic(),
                }
            }
        }
        impl Atom for Linear<$t> {
            #[inline(always)]
            fn get_lazy(lazy: Lazy<'_, Self>) -> Self {
                <Self as Enumerable>::force_lazy(lazy)
            }
        }
    )*};
}
integer!(unsigned: u8 => 8, u16 => 16, u32 => 32, u64 => 64, usize => usize::BITS);
integer!(signed: i8 => 8, i16 => 16, i32 => 32, i64 => 64, isize => isize::BITS);

#[cfg(test)]
mod tests;

//! Integer size conventions: by bit length (the default, as in `size-based`)
//! or linear (`n` costs `|n|`, as in SmallCheck and LeanCheck); the
//! per-thread mode that picks the canonical space of the primitive integer
//! types; the per-field spaces [`linear`] and [`bit_length`]; and the
//! [`Linear`] wrapper type.
//!
//! The two conventions answer different questions. By bit length, size `k`
//! holds every magnitude of `k` bits, so a few sizes reach `MIN` and `MAX`
//! and a property over one number is searched over all its magnitudes
//! quickly. Linearly, size `k` holds only `k` and `-k`, so in a structure
//! with several numbers (a tree and its keys) the size budget goes to the
//! shape, not to the magnitudes of the keys.

use super::{leaf, LeafFamily, Space};
use std::cell::Cell;
use std::fmt;
use std::rc::Rc;

/// How the primitive integer types (`u8..u64`, `i8..i64`, `usize`,
/// `isize`) are sized in their canonical spaces.
///
/// | value | bit length (default) | linear |
/// |---|---|---|
/// | `0` | 0 | 0 |
/// | `1` | 1 | 1 |
/// | `-1` | 1 | 1 |
/// | `2`, `3`, `-2`, `-3` | 2 | 2, 3, 2, 3 |
/// | `100` | 7 | 100 |
/// | `MAX` of `i64` | 63 | `2^63 - 1` |
///
/// By bit length, size `k` holds the magnitudes `2^(k-1) ..= 2^k - 1`
/// (unsigned: ascending; signed: the positives ascending, then the
/// negatives by magnitude; `MIN` alone at the last size). Linearly, size `k`
/// holds `k`, then `-k` for signed types (`MIN` alone at the last size).
///
/// Linear sizes never reach large magnitudes: a check's exhaustive phase
/// stops at `|n|` equal to its size bound, and the random phase's edge and
/// uniform atoms reach `|n| <= 130`. A property about magnitudes (overflow,
/// thresholds) wants bit length, which reaches `MIN`, `MAX` and the powers
/// of two; a property over a structure of several numbers (trees and their
/// keys) usually fails sooner linearly (`examples/tree_suite.rs`).
///
/// Pick it per check with [`crate::Config::integer_sizes`] or
/// `NEATCHECK_INTEGERS=linear|bits`, per field with [`linear`] and
/// [`bit_length`], per type with the [`Linear`] wrapper or a newtype whose
/// space is `space::map(space::linear::<i64>(), Key)`, and for code outside a
/// check with [`with_integer_sizes`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum IntegerSizes {
    /// `n` costs its number of bits (0 costs 0): the `size-based` convention.
    #[default]
    BitLength,
    /// `n` costs `|n|`: the SmallCheck and LeanCheck convention.
    Linear,
}

impl std::str::FromStr for IntegerSizes {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "bits" | "bit-length" | "bitlength" | "bit_length" => Ok(IntegerSizes::BitLength),
            "linear" => Ok(IntegerSizes::Linear),
            other => Err(format!("unknown integer sizes {other:?} (linear or bits)")),
        }
    }
}

impl fmt::Display for IntegerSizes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IntegerSizes::BitLength => "bits",
            IntegerSizes::Linear => "linear",
        })
    }
}

thread_local! {
    static MODE: Cell<IntegerSizes> = const { Cell::new(IntegerSizes::BitLength) };
}

/// The integer sizes the primitive integer types have on this thread now
/// (see [`IntegerSizes`]).
pub fn integer_sizes() -> IntegerSizes {
    MODE.with(Cell::get)
}

/// Runs `f` with the primitive integer types sized by `mode` on this
/// thread (restored afterwards, also on a panic). Spaces, grammars, counts
/// and indexers obtained inside are those of `mode`; checks set their own
/// mode only when their [`crate::Config`] names one.
///
/// ```
/// use neatcheck::space::{with_integer_sizes, IntegerSizes};
/// use neatcheck::count::count_of;
/// // By bit length, size 7 holds the 128 numbers of 7 bits, signed.
/// assert_eq!(count_of::<i64>(7), 128u32.into());
/// // Linearly, it holds 7 and -7.
/// let linear = with_integer_sizes(IntegerSizes::Linear, || count_of::<i64>(7));
/// assert_eq!(linear, 2u32.into());
/// ```
pub fn with_integer_sizes<R>(mode: IntegerSizes, f: impl FnOnce() -> R) -> R {
    let _scope = ModeScope::enter(mode);
    f()
}

/// Sets the mode of this thread until dropped.
pub(crate) struct ModeScope(IntegerSizes);

impl ModeScope {
    pub(crate) fn enter(mode: IntegerSizes) -> ModeScope {
        ModeScope(MODE.with(|m| m.replace(mode)))
    }
}

impl Drop for ModeScope {
    fn drop(&mut self) {
        MODE.with(|m| m.set(self.0));
    }
}

/// The primitive integer types, which have both size conventions.
///
/// Implemented for `u8..u64`, `i8..i64`, `usize` and `isize`.
pub trait Integer: super::Enumerable + Copy + fmt::Debug {
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

fn nat_max(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The family of an unsigned type of `bits` bits under `mode`.
pub(crate) fn unsigned_family<T: fmt::Debug + 'static>(
    mode: IntegerSizes,
    bits: u32,
    make: fn(u64) -> T,
) -> Rc<dyn LeafFamily> {
    match mode {
        IntegerSizes::BitLength => super::bits_family(bits, make),
        IntegerSizes::Linear => super::linear_nat_family(nat_max(bits), make),
    }
}

/// The family of a signed type of `bits` bits under `mode`.
pub(crate) fn signed_family<T: fmt::Debug + 'static>(
    mode: IntegerSizes,
    bits: u32,
    make: fn(i64) -> T,
) -> Rc<dyn LeafFamily> {
    match mode {
        IntegerSizes::BitLength => super::signed_family(bits, make),
        IntegerSizes::Linear => super::linear_signed_family(bits, make),
    }
}

macro_rules! integer {
    (unsigned: $($t:ty => $bits:expr),*) => {$(
        impl Integer for $t {
            fn linear_space() -> Space<Self> {
                leaf(unsigned_family(IntegerSizes::Linear, $bits, |x| x as $t))
            }
            fn bit_length_space() -> Space<Self> {
                leaf(unsigned_family(IntegerSizes::BitLength, $bits, |x| x as $t))
            }
        }
        impl super::Enumerable for Linear<$t> {
            fn describe() -> Space<Self> {
                leaf(unsigned_family(IntegerSizes::Linear, $bits, |x| Linear(x as $t)))
            }
            #[inline]
            fn force_lazy(lazy: crate::lazy::Lazy<'_, Self>) -> Self {
                match lazy.leaf_index() {
                    // Linearly, the global index is the number itself.
                    Some(i) => Linear(i as $t),
                    None => lazy.force_generic(),
                }
            }
        }
        impl crate::lazy::Atom for Linear<$t> {
            #[inline(always)]
            fn get_lazy(lazy: crate::lazy::Lazy<'_, Self>) -> Self {
                <Self as super::Enumerable>::force_lazy(lazy)
            }
        }
    )*};
    (signed: $($t:ty => $bits:expr),*) => {$(
        impl Integer for $t {
            fn linear_space() -> Space<Self> {
                leaf(signed_family(IntegerSizes::Linear, $bits, |x| x as $t))
            }
            fn bit_length_space() -> Space<Self> {
                leaf(signed_family(IntegerSizes::BitLength, $bits, |x| x as $t))
            }
        }
        impl super::Enumerable for Linear<$t> {
            fn describe() -> Space<Self> {
                leaf(signed_family(IntegerSizes::Linear, $bits, |x| Linear(x as $t)))
            }
            #[inline]
            fn force_lazy(lazy: crate::lazy::Lazy<'_, Self>) -> Self {
                match lazy.leaf_index() {
                    Some(i) => Linear(super::leaf::linear_signed_from_index($bits, i) as $t),
                    None => lazy.force_generic(),
                }
            }
        }
        impl crate::lazy::Atom for Linear<$t> {
            #[inline(always)]
            fn get_lazy(lazy: crate::lazy::Lazy<'_, Self>) -> Self {
                <Self as super::Enumerable>::force_lazy(lazy)
            }
        }
    )*};
}
integer!(unsigned: u8 => 8, u16 => 16, u32 => 32, u64 => 64, usize => usize::BITS);
integer!(signed: i8 => 8, i16 => 16, i32 => 32, i64 => 64, isize => isize::BITS);

#[cfg(test)]
mod tests;

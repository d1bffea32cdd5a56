//! Number-like atoms beyond the 64-bit integers: `f32` and `f64`,
//! `u128`/`i128`, the `NonZero` integers, `Duration` (a pair, with its
//! view) and the big numbers `BigUint`/`BigInt`: their spaces over the leaf
//! families of `space/numbers.rs` and their typed readers, which decode a
//! canonical position's leaf index without the grammar.

use super::{field, Atom, Enumerable, LazyView};
use crate::describe::numbers::{i128_from_index, Bits128, NonZeroLeaf, Signed128};
use crate::describe::{
    bits_family, field_with, float_family, leaf, nat_below, product_with, signed_family,
    signed_from_index, with_shape, BigNat, BigSigned, FloatFormat, Shape, Space,
};
use crate::handle::Lazy;
use num_bigint::{BigInt, BigUint};
use std::borrow::Cow;
use std::num::{
    NonZeroI128, NonZeroI16, NonZeroI32, NonZeroI64, NonZeroI8, NonZeroIsize, NonZeroU128,
    NonZeroU16, NonZeroU32, NonZeroU64, NonZeroU8, NonZeroUsize,
};
use std::rc::Rc;
use std::time::Duration;

#[cfg(test)]
mod tests;

/// `f32` in the order of [`FloatFormat`]: `0.0`; `1.0`, `-1.0`, `-0.0`;
/// `NaN`, `inf`, `-inf`, `2.0` ...; `MAX`, `MIN`, `MIN_POSITIVE`, the
/// smallest subnormal ... Every value once (one NaN), sizes 0 to 32; the
/// search reaches all of them.
impl Enumerable for f32 {
    fn describe() -> Space<Self> {
        leaf(float_family(FloatFormat::f32().clone(), |b| {
            f32::from_bits(b as u32)
        }))
    }
    #[inline]
    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        match lazy.leaf_index() {
            Some(i) => f32::from_bits(FloatFormat::f32().bits_at(i) as u32),
            None => lazy.force_generic(),
        }
    }
}

/// `f64` in the order of [`FloatFormat`]: `0.0`; `1.0`, `-1.0`, `-0.0`;
/// `NaN`, `inf`, `-inf`, `2.0` ...; `MAX`, `MIN`, `MIN_POSITIVE`, the
/// smallest subnormal ... Every value once (one NaN), sizes 0 to 64; the
/// search reaches all of them (`2^64 - 2^53 + 3` values fit its 64-bit
/// leaf index).
impl Enumerable for f64 {
    fn describe() -> Space<Self> {
        leaf(float_family(FloatFormat::f64().clone(), f64::from_bits))
    }
    #[inline]
    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        match lazy.leaf_index() {
            Some(i) => f64::from_bits(FloatFormat::f64().bits_at(i)),
            None => lazy.force_generic(),
        }
    }
}

/// `u128` by bit length (size `k` holds `2^(k-1) ..= 2^k - 1`), like the
/// other unsigned integers. Counts, [`crate::count`], [`crate::values`] and
/// value indexing ([`crate::index::index`]) cover every value. The search,
/// its random phase, shrinking, replay keys and `Tree`s number a leaf's
/// values with a 64-bit global index, which for `u128` is the value
/// itself: they reach `0 ..= u64::MAX` (sizes 0 to 64, complete) and no
/// larger value.
impl Enumerable for u128 {
    fn describe() -> Space<Self> {
        leaf(Rc::new(Bits128))
    }
    #[inline]
    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        match lazy.leaf_index() {
            Some(i) => u128::from(i),
            None => lazy.force_generic(),
        }
    }
}

/// `i128` like the other signed integers: size `k` holds the magnitudes
/// `2^(k-1) ..= 2^k - 1`, positives then negatives, size 128 only
/// `i128::MIN`. Counts, [`crate::count`], [`crate::values`] and value
/// indexing ([`crate::index::index`]) cover every value. The search, its
/// random phase, shrinking, replay keys and `Tree`s use a 64-bit global
/// index: they reach sizes 0 to 63 completely (`-(2^63 - 1) ..= 2^63 - 1`)
/// and the first value of size 64, `2^63` (global index `u64::MAX`); not
/// `i64::MIN` nor any larger magnitude.
impl Enumerable for i128 {
    fn describe() -> Space<Self> {
        leaf(Rc::new(Signed128))
    }
    #[inline]
    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        match lazy.leaf_index() {
            Some(i) => i128_from_index(u128::from(i)),
            None => lazy.force_generic(),
        }
    }
}

macro_rules! nonzero {
    ($($nz:ty, $int:ty => $family:expr, $decode:expr;)*) => {$(
        /// The integers of the underlying type but 0, with the same sizes
        /// (by bit length; size 0 is empty). Reached by the search like the
        /// underlying type.
        impl Enumerable for $nz {
            fn describe() -> Space<Self> {
                leaf(Rc::new(NonZeroLeaf::<$int, $nz> {
                    inner: $family,
                    make: |x| <$nz>::new(x).expect("0 is not enumerated"),
                }))
            }
            #[inline]
            fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
                match lazy.leaf_index() {
                    Some(i) => {
                        // The underlying family's index is one more.
                        let decode: fn(u128) -> $int = $decode;
                        <$nz>::new(decode(u128::from(i) + 1)).expect("nonzero")
                    }
                    None => lazy.force_generic(),
                }
            }
        }
        impl Atom for $nz {
            #[inline(always)]
            fn get_lazy(lazy: Lazy<'_, Self>) -> Self {
                Self::force_lazy(lazy)
            }
        }
    )*};
}

nonzero! {
    NonZeroU8, u8 => bits_family(8, |x| x as u8), |i| i as u8;
    NonZeroU16, u16 => bits_family(16, |x| x as u16), |i| i as u16;
    NonZeroU32, u32 => bits_family(32, |x| x as u32), |i| i as u32;
    NonZeroU64, u64 => bits_family(64, |x| x), |i| i as u64;
    NonZeroUsize, usize => bits_family(usize::BITS, |x| x as usize), |i| i as usize;
    NonZeroU128, u128 => Rc::new(Bits128), |i| i;
    NonZeroI8, i8 => signed_family(8, |x| x as i8), |i| signed_from_index(8, i as u64) as i8;
    NonZeroI16, i16 => signed_family(16, |x| x as i16),
        |i| signed_from_index(16, i as u64) as i16;
    NonZeroI32, i32 => signed_family(32, |x| x as i32),
        |i| signed_from_index(32, i as u64) as i32;
    NonZeroI64, i64 => signed_family(64, |x| x), |i| signed_from_index(64, i as u64);
    NonZeroIsize, isize => signed_family(isize::BITS, |x| x as isize),
        |i| signed_from_index(isize::BITS, i as u64) as isize;
    NonZeroI128, i128 => Rc::new(Signed128), i128_from_index;
}

macro_rules! atom {
    ($($t:ty),*) => {$(
        impl Atom for $t {
            #[inline(always)]
            fn get_lazy(lazy: Lazy<'_, Self>) -> Self {
                Self::force_lazy(lazy)
            }
        }
    )*};
}
atom!(f32, f64, u128, i128, Duration);

/// Nanoseconds in a second.
const NANOS: u64 = 1_000_000_000;

/// A `Duration` is a pair, free like a tuple: whole seconds (a `u64`, by
/// bit length) and subsecond nanoseconds (`0 .. 10^9`, by bit length,
/// [`nat_below`]), so its size is the sum of their bit lengths and each
/// duration appears once. Reports print it as
/// `Duration { secs: _, nanos: _ }`. Its view is the pair of handles
/// `(secs, nanos)`, read separately.
impl Enumerable for Duration {
    fn describe() -> Space<Self> {
        with_shape(
            Shape::Ctor {
                name: Cow::Borrowed("Duration"),
                fields: Some(vec![Cow::Borrowed("secs"), Cow::Borrowed("nanos")]),
            },
            product_with(
                vec![field::<u64>(), field_with(nat_below(NANOS, |n| n as u32))],
                |f| Duration::new(f.take::<u64>(), f.take::<u32>()),
            ),
        )
    }
    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        if !lazy.is_canonical() {
            return lazy.force_generic();
        }
        let (_, first) = lazy.open();
        let secs = u64::force_lazy(lazy.field_at(first, 0));
        // A canonical position's second field is the nanosecond family,
        // whose global index is the number itself.
        let nanos = lazy.field_at::<u32>(first, 1).read_node().leaf_index();
        Duration::new(secs, nanos as u32)
    }
}

/// `(secs, nanos)`: the whole seconds and the subsecond nanoseconds, each
/// its own position.
impl LazyView for Duration {
    type View<'a> = (Lazy<'a, u64>, Lazy<'a, u32>);
    #[inline(always)]
    fn view(lazy: Lazy<'_, Self>) -> Self::View<'_> {
        let (_, first) = lazy.open();
        (lazy.field_at(first, 0), lazy.field_at(first, 1))
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

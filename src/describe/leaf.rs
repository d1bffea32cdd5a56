//! Leaf families: atomic values (integers, characters, big numbers) listed in
//! size order, each read whole by the search.
//!
//! A leaf family is semantically the union of `pay^size(pure v)` over its
//! values `v`, but is described by counts and an indexing function so that
//! `u64` does not become a union of 2^64 alternatives.

use super::Value;
use num_bigint::{BigInt, BigUint};
use num_traits::{One, ToPrimitive, Zero};
use std::any::Any;
use std::fmt::Debug;
use std::rc::Rc;

/// A family of atomic values with finitely many values of each size, listed
/// in order of size. Used for integers, `char` and big numbers.
pub trait LeafFamily {
    /// A short name for reports (`u8`, `char`, `0..=3`).
    fn name(&self) -> String;
    /// `Debug` text of the value number `index` of `size`, as reports print
    /// it. Families whose values' own `Debug` order changes from run to run
    /// (hash maps and sets) print their elements in enumeration order here.
    fn debug_at(&self, size: usize, index: &BigUint) -> String {
        self.debug_value(&*self.value(size, index))
    }
    /// The number of values of exactly `size`.
    fn count(&self, size: usize) -> BigUint;
    /// The largest size that has values, or `None` if unbounded.
    fn last_size(&self) -> Option<usize>;
    /// The value number `index` (from 0) among those of `size`.
    fn value(&self, size: usize, index: &BigUint) -> Value;
    /// [`LeafFamily::value`] for an index that fits in 64 bits, as every
    /// index the search holds does. Forcing a leaf calls this once per
    /// value, so the standard families override the default (which goes
    /// through a big number) with machine arithmetic.
    fn value_at(&self, size: usize, index: u64) -> Value {
        self.value(size, &BigUint::from(index))
    }
    /// `Debug` text of a value of the family.
    fn debug_value(&self, value: &dyn Any) -> String;
    /// The number of values of all sizes, or `None` if unbounded. The
    /// default sums [`LeafFamily::count`] up to [`LeafFamily::last_size`];
    /// families with very many sizes (linear integers: one size per
    /// magnitude) override it.
    fn total(&self) -> Option<BigUint> {
        self.last_size()
            .map(|last| (0..=last).map(|s| self.count(s)).sum())
    }
    /// The generator this family's values come from, when they are drawn
    /// from seeds ([`crate::space::drawn`]): failure reports name it, since
    /// the search's minimality is then the seed's, not the value's.
    fn generator(&self) -> Option<String> {
        None
    }
}

fn pow2(k: usize) -> BigUint {
    BigUint::one() << k
}

/// Naturals by bit length, up to `bits` bits (`u64::MAX` bits = unbounded).
struct Bits<T> {
    bits: u32,
    make: fn(u64) -> T,
}

impl<T: Debug + 'static> LeafFamily for Bits<T> {
    fn name(&self) -> String {
        std::any::type_name::<T>().to_string()
    }
    fn count(&self, size: usize) -> BigUint {
        match size {
            0 => BigUint::one(),
            k if k <= self.bits as usize => pow2(k - 1),
            _ => BigUint::zero(),
        }
    }
    fn last_size(&self) -> Option<usize> {
        Some(self.bits as usize)
    }
    fn value(&self, size: usize, index: &BigUint) -> Value {
        self.value_at(size, index.to_u64().expect("value fits in 64 bits"))
    }
    fn value_at(&self, size: usize, index: u64) -> Value {
        let v = match size {
            0 => 0,
            _ => (1u64 << (size - 1))
                .checked_add(index)
                .expect("value fits in 64 bits"),
        };
        Box::new((self.make)(v))
    }
    fn debug_value(&self, value: &dyn Any) -> String {
        debug_of::<T>(value)
    }
}

fn debug_of<T: Debug + 'static>(value: &dyn Any) -> String {
    match value.downcast_ref::<T>() {
        Some(v) => format!("{v:?}"),
        None => "?".to_string(),
    }
}

/// The unsigned integers of `max_bits` bits by bit length (size = number of
/// bits, 0 has size 0). `make` converts from `u64`.
pub fn bits_family<T: Debug + 'static>(max_bits: u32, make: fn(u64) -> T) -> Rc<dyn LeafFamily> {
    assert!(max_bits <= 64, "bits_family supports at most 64 bits");
    Rc::new(Bits {
        bits: max_bits,
        make,
    })
}

/// Every Unicode scalar value by bit length of its code point: ASCII first
/// (sizes 0 to 7), then size 8 (`U+0080 ..= U+00FF`) up to size 21
/// (`U+100000 ..= U+10FFFF`), the surrogates left out of size 16.
pub fn char_family() -> Rc<dyn LeafFamily> {
    Rc::new(super::numbers::Unicode)
}

/// Signed integers of `bits` bits: size `k` holds the magnitudes
/// `2^(k-1) ..= 2^k - 1`, positives (ascending) then negatives (by magnitude).
struct Signed<T> {
    bits: u32,
    make: fn(i64) -> T,
}

/// Decodes the offset within size `size` of a signed family into a value.
pub(crate) fn signed_value(bits: u32, size: usize, offset: u64) -> i64 {
    if size == 0 {
        return 0;
    }
    if size == bits as usize {
        // Only the most negative value has `bits` bits of magnitude.
        return (-(1i128 << (bits - 1))) as i64;
    }
    let half = 1u64 << (size - 1);
    if offset < half {
        (half + offset) as i64
    } else {
        -((half + (offset - half)) as i64)
    }
}

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
    signed_value(bits, k as usize, index - start)
}

impl<T: Debug + 'static> LeafFamily for Signed<T> {
    fn name(&self) -> String {
        std::any::type_name::<T>().to_string()
    }
    fn count(&self, size: usize) -> BigUint {
        match size {
            0 => BigUint::one(),
            k if k < self.bits as usize => pow2(k),
            k if k == self.bits as usize => BigUint::one(),
            _ => BigUint::zero(),
        }
    }
    fn last_size(&self) -> Option<usize> {
        Some(self.bits as usize)
    }
    fn value(&self, size: usize, index: &BigUint) -> Value {
        self.value_at(size, index.to_u64().expect("index fits in 64 bits"))
    }
    fn value_at(&self, size: usize, index: u64) -> Value {
        Box::new((self.make)(signed_value(self.bits, size, index)))
    }
    fn debug_value(&self, value: &dyn Any) -> String {
        debug_of::<T>(value)
    }
}

/// The signed integers of `bits` bits: size `k` holds the magnitudes
/// `2^(k-1) ..= 2^k - 1`, positives (ascending) then negatives.
pub fn signed_family<T: Debug + 'static>(bits: u32, make: fn(i64) -> T) -> Rc<dyn LeafFamily> {
    assert!(
        (1..=64).contains(&bits),
        "signed_family supports 1 to 64 bits"
    );
    Rc::new(Signed { bits, make })
}

/// `lo..=hi`, each of size 1, ascending.
struct Range<T> {
    lo: i64,
    hi: i64,
    make: fn(i64) -> T,
}

impl<T: Debug + 'static> LeafFamily for Range<T> {
    fn name(&self) -> String {
        format!("{}..={}", self.lo, self.hi)
    }
    fn count(&self, size: usize) -> BigUint {
        if size == 1 && self.lo <= self.hi {
            BigUint::from((self.hi as i128 - self.lo as i128 + 1) as u128)
        } else {
            BigUint::zero()
        }
    }
    fn last_size(&self) -> Option<usize> {
        Some(1)
    }
    fn value(&self, size: usize, index: &BigUint) -> Value {
        self.value_at(size, index.to_u64().expect("index fits in 64 bits"))
    }
    fn value_at(&self, _size: usize, index: u64) -> Value {
        Box::new((self.make)(
            (i128::from(self.lo) + i128::from(index)) as i64,
        ))
    }
    fn debug_value(&self, value: &dyn Any) -> String {
        debug_of::<T>(value)
    }
}

/// The integers `lo..=hi`, each of size 1.
pub fn range_family<T: Debug + 'static>(
    lo: i64,
    hi: i64,
    make: fn(i64) -> T,
) -> Rc<dyn LeafFamily> {
    Rc::new(Range { lo, hi, make })
}

/// Unbounded naturals by bit length (`BigUint`).
pub(crate) struct BigNat;

impl LeafFamily for BigNat {
    fn name(&self) -> String {
        "BigUint".to_string()
    }
    fn count(&self, size: usize) -> BigUint {
        if size == 0 {
            BigUint::one()
        } else {
            pow2(size - 1)
        }
    }
    fn last_size(&self) -> Option<usize> {
        None
    }
    fn value(&self, size: usize, index: &BigUint) -> Value {
        if size == 0 {
            Box::new(BigUint::zero())
        } else {
            Box::new(pow2(size - 1) + index)
        }
    }
    fn debug_value(&self, value: &dyn Any) -> String {
        debug_of::<BigUint>(value)
    }
}

/// Unbounded integers: size `k` holds magnitudes `2^(k-1) ..= 2^k - 1`,
/// positives then negatives.
pub(crate) struct BigSigned;

impl LeafFamily for BigSigned {
    fn name(&self) -> String {
        "BigInt".to_string()
    }
    fn count(&self, size: usize) -> BigUint {
        if size == 0 {
            BigUint::one()
        } else {
            pow2(size)
        }
    }
    fn last_size(&self) -> Option<usize> {
        None
    }
    fn value(&self, size: usize, index: &BigUint) -> Value {
        if size == 0 {
            return Box::new(BigInt::zero());
        }
        let half = pow2(size - 1);
        if *index < half {
            Box::new(BigInt::from(half + index))
        } else {
            Box::new(-BigInt::from(index.clone()))
        }
    }
    fn debug_value(&self, value: &dyn Any) -> String {
        debug_of::<BigInt>(value)
    }
}

/// Naturals by magnitude: `n` has size `n`, one value per size, up to `max`.
/// The global index of `n` is `n`, as by bit length, so the typed decoding
/// of the unsigned types serves both families.
struct LinearNat<T> {
    max: u64,
    make: fn(u64) -> T,
}

impl<T: Debug + 'static> LeafFamily for LinearNat<T> {
    fn name(&self) -> String {
        std::any::type_name::<T>().to_string()
    }
    fn count(&self, size: usize) -> BigUint {
        if size as u64 <= self.max {
            BigUint::one()
        } else {
            BigUint::zero()
        }
    }
    fn last_size(&self) -> Option<usize> {
        Some(usize::try_from(self.max).unwrap_or(usize::MAX))
    }
    fn value(&self, size: usize, _index: &BigUint) -> Value {
        Box::new((self.make)(size as u64))
    }
    fn value_at(&self, size: usize, _index: u64) -> Value {
        Box::new((self.make)(size as u64))
    }
    fn debug_value(&self, value: &dyn Any) -> String {
        debug_of::<T>(value)
    }
    fn total(&self) -> Option<BigUint> {
        Some(BigUint::from(self.max) + 1u32)
    }
}

/// The naturals `0..=max` by magnitude: `n` has size `n` (the convention
/// of SmallCheck and LeanCheck). `make` converts from `u64`.
pub fn linear_nat_family<T: Debug + 'static>(max: u64, make: fn(u64) -> T) -> Rc<dyn LeafFamily> {
    Rc::new(LinearNat { max, make })
}

/// Signed integers by magnitude: size 0 holds 0, size `k` holds `k` then
/// `-k`; the most negative value is alone at the last size.
struct LinearInt<T> {
    bits: u32,
    make: fn(i64) -> T,
}

/// The magnitude of the most negative value of `bits` bits, the last size.
fn linear_half(bits: u32) -> u64 {
    1u64 << (bits - 1)
}

/// Decodes the global index of a linear signed family of `bits` bits: 0,
/// then `k` at `2k - 1` and `-k` at `2k` (the most negative value, alone at
/// its size, at `2^bits - 1`).
#[inline]
pub(crate) fn linear_signed_from_index(bits: u32, index: u64) -> i64 {
    if index == 0 {
        return 0;
    }
    // In 128 bits: the last index of a 64-bit family is 2^64 - 1.
    let k = (u128::from(index) + 1) >> 1;
    if index & 1 == 1 && k < u128::from(linear_half(bits)) {
        k as i64
    } else {
        (-(k as i128)) as i64
    }
}

impl<T: Debug + 'static> LeafFamily for LinearInt<T> {
    fn name(&self) -> String {
        std::any::type_name::<T>().to_string()
    }
    fn count(&self, size: usize) -> BigUint {
        let half = linear_half(self.bits);
        match size as u64 {
            0 => BigUint::one(),
            k if k < half => BigUint::from(2u32),
            k if k == half => BigUint::one(),
            _ => BigUint::zero(),
        }
    }
    fn last_size(&self) -> Option<usize> {
        Some(usize::try_from(linear_half(self.bits)).unwrap_or(usize::MAX))
    }
    fn value(&self, size: usize, index: &BigUint) -> Value {
        self.value_at(size, index.to_u64().expect("index fits in 64 bits"))
    }
    fn value_at(&self, size: usize, offset: u64) -> Value {
        let global = if size == 0 {
            0
        } else {
            2 * size as u64 - 1 + offset
        };
        Box::new((self.make)(linear_signed_from_index(self.bits, global)))
    }
    fn debug_value(&self, value: &dyn Any) -> String {
        debug_of::<T>(value)
    }
    fn total(&self) -> Option<BigUint> {
        Some(pow2(self.bits as usize))
    }
}

/// The signed integers of `bits` bits by magnitude: 0 has size 0, `k` and
/// `-k` size `k` (in that order); the most negative value has size
/// `2^(bits-1)`. The convention of SmallCheck and LeanCheck.
pub fn linear_signed_family<T: Debug + 'static>(
    bits: u32,
    make: fn(i64) -> T,
) -> Rc<dyn LeafFamily> {
    assert!(
        (1..=64).contains(&bits),
        "linear_signed_family supports 1 to 64 bits"
    );
    Rc::new(LinearInt { bits, make })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value_at<T: Copy + 'static>(family: &Rc<dyn LeafFamily>, size: usize, index: u64) -> T {
        let by_u64 = *family.value_at(size, index).downcast::<T>().unwrap();
        let by_big = *family
            .value(size, &BigUint::from(index))
            .downcast::<T>()
            .unwrap();
        assert_eq!(
            family.debug_value(&by_u64),
            family.debug_value(&by_big),
            "{size} {index}"
        );
        by_u64
    }

    #[test]
    fn values_at_64_bit_indices_reach_the_ends_of_the_families() {
        let bits = bits_family(64, |x| x);
        assert_eq!(value_at::<u64>(&bits, 0, 0), 0);
        assert_eq!(value_at::<u64>(&bits, 3, 3), 7);
        assert_eq!(value_at::<u64>(&bits, 64, (1 << 63) - 1), u64::MAX);
        let signed = signed_family(64, |x| x);
        assert_eq!(value_at::<i64>(&signed, 2, 0), 2);
        assert_eq!(value_at::<i64>(&signed, 2, 3), -3);
        assert_eq!(value_at::<i64>(&signed, 63, u64::MAX >> 1), i64::MIN + 1);
        assert_eq!(value_at::<i64>(&signed, 64, 0), i64::MIN);
        let whole = range_family(i64::MIN, i64::MAX, |x| x);
        assert_eq!(value_at::<i64>(&whole, 1, 0), i64::MIN);
        assert_eq!(value_at::<i64>(&whole, 1, u64::MAX), i64::MAX);
        let linear = linear_nat_family(10, |x| x);
        assert_eq!(value_at::<u64>(&linear, 7, 0), 7);
        let linear = linear_signed_family(8, |x| x);
        let small: Vec<i64> = [(0, 0), (1, 0), (1, 1), (2, 0), (2, 1)]
            .iter()
            .map(|&(size, index)| value_at::<i64>(&linear, size, index))
            .collect();
        assert_eq!(small, [0, 1, -1, 2, -2]);
    }
}

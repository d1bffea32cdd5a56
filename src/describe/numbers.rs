//! The leaf families of number-like atoms beyond the 64-bit integers:
//! binary floats (any IEEE-style format, [`FloatFormat`]), 128-bit
//! integers, integers without 0 (for the `NonZero` types), bounded naturals
//! ([`nat_below`], `Duration`'s nanoseconds) and the full Unicode `char`
//! family. The types' spaces and typed readers are in `types/numbers.rs`.
//!
//! Every family here lists each value exactly once, in size order, and
//! computes counts and values arithmetically, so that the typed
//! materialisers can decode a leaf's global index without the grammar.

use super::leaf::LeafFamily;
use super::{leaf, Space};
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};
use std::any::Any;
use std::fmt::Debug;
use std::rc::Rc;
use std::sync::OnceLock;

fn debug_of<T: Debug + 'static>(value: &dyn Any) -> String {
    match value.downcast_ref::<T>() {
        Some(v) => format!("{v:?}"),
        None => "?".to_string(),
    }
}

/// Number of bits of `x` (0 for 0).
pub(crate) fn bit_len(x: u64) -> u32 {
    64 - x.leading_zeros()
}

// ---------------------------------------------------------------------------
// Floats
// ---------------------------------------------------------------------------

/// A binary floating-point format in the IEEE 754 layout (sign bit, biased
/// exponent field, stored mantissa bits), with its enumeration order: which
/// value has which size and index. Used for `f32` and `f64`, and usable for
/// other formats (a half float, or a tiny format in which every value can
/// be checked by brute force) through [`float_family`].
///
/// # The order
/// Sizes are chosen so that the values that break code come first:
///
/// | size | values, in order |
/// |------|------------------|
/// | 0 | `0.0` |
/// | 1 | `1.0`, `-1.0`, `-0.0` |
/// | 2 | `NaN` (one canonical quiet NaN), `inf`, `-inf`, then `2.0`, `0.5`, `3.0` and their negatives |
/// | 3 | `MAX`, `MIN` (= `-MAX`), `MIN_POSITIVE` (smallest normal) and its negative, the smallest subnormal and its negative, then `4.0`, `8.0`, `0.25`, `0.125`, `6.0`, `1.5`, `5.0`, `7.0` and their negatives |
/// | k | the other finite values of size k |
///
/// Every finite nonzero value is `±m·2^e` with `m` odd, in exactly one
/// way; its size is `bitlen(m) + bitlen(|e|)`: the mantissa by bit length
/// like a natural and the exponent like a signed integer, the sign free.
/// Within a size the positive values come first, then the negative ones in
/// the same order; by mantissa length, then by exponent (as the signed
/// integers: within a bit length the positive exponents ascending, then the
/// negative ones by magnitude), then by mantissa. The special values of sizes 0 to 3 come first in their size
/// and are left out of their natural size, so each value appears once
/// (a special whose natural size is smaller, which only happens in tiny
/// formats, stays at its natural place). Subnormals are included (their
/// exponent is just more negative), and all NaN bit patterns are one value:
/// `f64` has `2^64 - 2^53 + 3` values, of sizes 0 to 64; `f32` has
/// `2^32 - 2^24 + 3`, of sizes 0 to 32.
#[derive(Clone, Debug)]
pub struct FloatFormat {
    /// Stored mantissa bits (the precision minus the hidden bit).
    t: u32,
    /// Exponent field bits.
    w: u32,
    /// Largest exponent of a finite value (the bias).
    emax: i64,
    /// Exponent of the smallest subnormal.
    qmin: i64,
    /// Bit length of the largest exponent magnitude.
    kmax: u32,
    /// Positive finite nonzero values of each natural size.
    half: Vec<u64>,
    counts: Vec<u64>,
    /// First global index of each size.
    starts: Vec<u64>,
    /// Values placed first in their size (bit patterns).
    specials: Vec<Vec<u64>>,
    /// Per size, sorted offsets among the general values of that size of
    /// the values moved to `specials`.
    excluded: Vec<Vec<u64>>,
}

/// What a bit pattern of a format is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    Zero(bool),
    Inf(bool),
    Nan,
    /// `±m·2^e`, `m` odd.
    Finite {
        neg: bool,
        m: u64,
        e: i64,
    },
}

impl FloatFormat {
    /// The format with `mantissa_bits` stored mantissa bits and
    /// `exponent_bits` exponent bits (`f32` is `(23, 8)`, `f64` is
    /// `(52, 11)`, an IEEE half float `(10, 5)`).
    ///
    /// # Panics
    /// Unless `1 <= mantissa_bits`, `2 <= exponent_bits <= 16`, the whole
    /// format fits 64 bits, and the largest exponent is at least the
    /// number of stored mantissa bits (every integer up to `2^precision`
    /// is finite), which every standard format satisfies.
    pub fn new(mantissa_bits: u32, exponent_bits: u32) -> Self {
        assert!(mantissa_bits >= 1, "a float format needs a mantissa bit");
        assert!(
            (2..=16).contains(&exponent_bits),
            "a float format has 2 to 16 exponent bits"
        );
        assert!(
            1 + mantissa_bits + exponent_bits <= 64,
            "a float format fits 64 bits"
        );
        let emax = (1i64 << (exponent_bits - 1)) - 1;
        assert!(
            emax >= i64::from(mantissa_bits),
            "a float format's largest exponent is at least its mantissa bits"
        );
        let mut f = FloatFormat {
            t: mantissa_bits,
            w: exponent_bits,
            emax,
            qmin: 1 - emax - i64::from(mantissa_bits),
            kmax: bit_len(emax.max(i64::from(mantissa_bits) + emax - 1) as u64),
            half: vec![],
            counts: vec![],
            starts: vec![],
            specials: vec![],
            excluded: vec![],
        };
        // The largest size: the longest mantissa with the exponent of
        // largest magnitude.
        let top = (f.precision() + f.kmax) as usize;
        f.half = (0..=top).map(|s| f.positive_general(s)).collect();
        f.place_specials();
        let mut start = 0u64;
        for s in 0..=top {
            let general = 2 * f.half[s];
            let n = f.specials.get(s).map_or(0, Vec::len) as u64 + general
                - f.excluded.get(s).map_or(0, Vec::len) as u64;
            f.counts.push(n);
            f.starts.push(start);
            start += n;
        }
        while f.counts.last() == Some(&0) {
            f.counts.pop();
            f.starts.pop();
        }
        f
    }

    /// `f32`'s format (shared).
    pub fn f32() -> &'static FloatFormat {
        static F: OnceLock<FloatFormat> = OnceLock::new();
        F.get_or_init(|| FloatFormat::new(23, 8))
    }

    /// `f64`'s format (shared).
    pub fn f64() -> &'static FloatFormat {
        static F: OnceLock<FloatFormat> = OnceLock::new();
        F.get_or_init(|| FloatFormat::new(52, 11))
    }

    /// Total width in bits.
    pub fn width(&self) -> u32 {
        1 + self.t + self.w
    }

    fn precision(&self) -> u32 {
        self.t + 1
    }

    /// The number of values of exactly `size`.
    pub fn count(&self, size: usize) -> u64 {
        self.counts.get(size).copied().unwrap_or(0)
    }

    /// The largest size that has values.
    pub fn last_size(&self) -> usize {
        self.counts.len() - 1
    }

    /// The number of values of all sizes: every bit pattern, with all NaNs
    /// as one value.
    pub fn total(&self) -> u64 {
        self.starts[self.last_size()] + self.count(self.last_size())
    }

    /// The bit pattern of the canonical (quiet, positive) NaN.
    pub fn nan(&self) -> u64 {
        self.exp_mask() << self.t | 1 << (self.t - 1)
    }

    fn exp_mask(&self) -> u64 {
        (1 << self.w) - 1
    }

    fn frac_mask(&self) -> u64 {
        (1 << self.t) - 1
    }

    fn sign_bit(&self, neg: bool) -> u64 {
        u64::from(neg) << (self.t + self.w)
    }

    pub(crate) fn classify(&self, bits: u64) -> Class {
        let neg = (bits >> (self.t + self.w)) & 1 == 1;
        let exp = (bits >> self.t) & self.exp_mask();
        let frac = bits & self.frac_mask();
        if exp == self.exp_mask() {
            return if frac == 0 {
                Class::Inf(neg)
            } else {
                Class::Nan
            };
        }
        if exp == 0 && frac == 0 {
            return Class::Zero(neg);
        }
        let (int, e) = if exp == 0 {
            (frac, self.qmin)
        } else {
            (
                frac | 1 << self.t,
                exp as i64 - self.emax - i64::from(self.t),
            )
        };
        let tz = int.trailing_zeros();
        Class::Finite {
            neg,
            m: int >> tz,
            e: e + i64::from(tz),
        }
    }

    /// The bit pattern of `±m·2^e` (`m` odd, representable).
    fn encode(&self, neg: bool, m: u64, e: i64) -> u64 {
        let b = i64::from(bit_len(m));
        let top = e + b - 1;
        let emin = 1 - self.emax;
        let (exp, frac) = if top >= emin {
            let shifted = m << (i64::from(self.precision()) - b);
            ((top + self.emax) as u64, shifted & self.frac_mask())
        } else {
            (0, m << (e - self.qmin))
        };
        self.sign_bit(neg) | exp << self.t | frac
    }

    /// Number of odd mantissas of `b` bits.
    fn mantissas(b: u32) -> u64 {
        if b == 1 {
            1
        } else {
            1 << (b - 2)
        }
    }

    /// Exponents of bit length `k` that a mantissa of `b` bits can take:
    /// (positive ones, negative ones); for `k = 0`, the exponent 0.
    fn exponents(&self, b: u32, k: u32) -> (u64, u64) {
        if k == 0 {
            return (1, 0);
        }
        if k > 62 {
            return (0, 0);
        }
        let (lo, hi) = (1i64 << (k - 1), (1i64 << k) - 1);
        let within = |top: i64| (hi.min(top) - lo + 1).max(0) as u64;
        (within(self.emax - i64::from(b) + 1), within(-self.qmin))
    }

    /// The finite values of mantissa length `b` and size `s` (one sign).
    fn block(&self, b: u32, s: usize) -> u64 {
        if (b as usize) > s {
            return 0;
        }
        let (p, n) = self.exponents(b, (s - b as usize) as u32);
        (p + n) * Self::mantissas(b)
    }

    /// The mantissa lengths that have values of natural size `s` (the
    /// exponent's bit length is at most `kmax`).
    fn lengths(&self, s: usize) -> std::ops::RangeInclusive<u32> {
        let lo = s.saturating_sub(self.kmax as usize).max(1) as u32;
        lo..=self.precision().min(s as u32)
    }

    /// The positive finite nonzero values of natural size `s`.
    fn positive_general(&self, s: usize) -> u64 {
        self.lengths(s).map(|b| self.block(b, s)).sum()
    }

    /// The general value number `j` of size `s` (specials not skipped).
    fn general_bits(&self, s: usize, j: u64) -> u64 {
        let half = self.half[s];
        let (neg, mut j) = if j >= half {
            (true, j - half)
        } else {
            (false, j)
        };
        for b in self.lengths(s) {
            let block = self.block(b, s);
            if j < block {
                let k = (s - b as usize) as u32;
                let nm = Self::mantissas(b);
                let (ei, mi) = (j / nm, j % nm);
                let (pos, _) = self.exponents(b, k);
                let e = if k == 0 {
                    0
                } else if ei < pos {
                    (1i64 << (k - 1)) + ei as i64
                } else {
                    -((1i64 << (k - 1)) + (ei - pos) as i64)
                };
                let m = if b == 1 {
                    1
                } else {
                    (1 << (b - 1)) + 1 + 2 * mi
                };
                return self.encode(neg, m, e);
            }
            j -= block;
        }
        panic!("neatcheck: float index {j} beyond size {s}");
    }

    /// The natural size of `±m·2^e` and its offset among the general
    /// values of that size.
    pub(crate) fn general_rank(&self, neg: bool, m: u64, e: i64) -> (usize, u64) {
        let b = bit_len(m);
        let k = bit_len(e.unsigned_abs());
        let s = (b + k) as usize;
        let mi = if b == 1 {
            0
        } else {
            (m - (1 << (b - 1)) - 1) / 2
        };
        let ei = if k == 0 {
            0
        } else if e > 0 {
            e as u64 - (1 << (k - 1))
        } else {
            self.exponents(b, k).0 + (e.unsigned_abs() - (1 << (k - 1)))
        };
        let before: u64 = self
            .lengths(s)
            .take_while(|&c| c < b)
            .map(|c| self.block(c, s))
            .sum();
        let off = before + ei * Self::mantissas(b) + mi;
        (s, if neg { off + self.half[s] } else { off })
    }

    /// Places the values of sizes 0 to 3 listed in the type's docs.
    fn place_specials(&mut self) {
        let emin = 1 - self.emax;
        let p = self.precision();
        let one = self.encode(false, 1, 0);
        let max = self.encode(false, (1 << p) - 1, self.emax - i64::from(p) + 1);
        let min_pos = self.encode(false, 1, emin);
        let min_sub = self.encode(false, 1, self.qmin);
        let inf = self.exp_mask() << self.t;
        let neg = self.sign_bit(true);
        let wanted: [&[u64]; 4] = [
            &[0],
            &[one, one | neg, neg],
            &[self.nan(), inf, inf | neg],
            &[
                max,
                max | neg,
                min_pos,
                min_pos | neg,
                min_sub,
                min_sub | neg,
            ],
        ];
        self.specials = vec![vec![]; wanted.len()];
        let mut excluded: Vec<(usize, u64)> = vec![];
        for (size, list) in wanted.iter().enumerate() {
            for &bits in *list {
                if self.specials.iter().any(|l| l.contains(&bits)) {
                    continue;
                }
                if let Class::Finite { neg, m, e } = self.classify(bits) {
                    let (natural, off) = self.general_rank(neg, m, e);
                    if natural < size {
                        continue;
                    }
                    excluded.push((natural, off));
                }
                self.specials[size].push(bits);
            }
        }
        let last = excluded.iter().map(|&(s, _)| s).max().unwrap_or(0);
        self.excluded = vec![vec![]; last + 1];
        for (s, off) in excluded {
            self.excluded[s].push(off);
        }
        for l in &mut self.excluded {
            l.sort_unstable();
        }
    }

    /// The bit pattern of value number `index` (from 0) of `size`.
    ///
    /// # Panics
    /// If `index >= self.count(size)`.
    pub fn bits(&self, size: usize, index: u64) -> u64 {
        assert!(
            index < self.count(size),
            "neatcheck: float index {index} beyond the {} values of size {size}",
            self.count(size)
        );
        let specials = self.specials.get(size).map_or(&[][..], Vec::as_slice);
        if let Some(&bits) = specials.get(index as usize) {
            return bits;
        }
        let mut j = index - specials.len() as u64;
        for &r in self.excluded.get(size).map_or(&[][..], Vec::as_slice) {
            if r <= j {
                j += 1;
            } else {
                break;
            }
        }
        self.general_bits(size, j)
    }

    /// The bit pattern of the value at global `index` (all sizes in order,
    /// as the search numbers a leaf's values).
    ///
    /// # Panics
    /// If `index >= self.total()`.
    #[inline]
    pub fn bits_at(&self, index: u64) -> u64 {
        let size = self.starts.partition_point(|&s| s <= index) - 1;
        self.bits(size, index - self.starts[size])
    }

    /// The size of the value with bit pattern `bits` and its index among
    /// the values of that size; every NaN pattern is the canonical NaN.
    /// Bits above the format's width are ignored.
    pub fn rank(&self, bits: u64) -> (usize, u64) {
        let bits = if self.width() == 64 {
            bits
        } else {
            bits & ((1 << self.width()) - 1)
        };
        let bits = match self.classify(bits) {
            Class::Nan => self.nan(),
            _ => bits,
        };
        for (size, list) in self.specials.iter().enumerate() {
            if let Some(i) = list.iter().position(|&b| b == bits) {
                return (size, i as u64);
            }
        }
        let Class::Finite { neg, m, e } = self.classify(bits) else {
            unreachable!("zeros, infinities and NaN are specials")
        };
        let (size, off) = self.general_rank(neg, m, e);
        let skipped = self
            .excluded
            .get(size)
            .map_or(0, |l| l.partition_point(|&r| r < off));
        let specials = self.specials.get(size).map_or(0, Vec::len);
        (size, specials as u64 + off - skipped as u64)
    }

    /// The global index of the value with bit pattern `bits` (the inverse
    /// of [`FloatFormat::bits_at`]).
    pub fn global_index(&self, bits: u64) -> u64 {
        let (size, i) = self.rank(bits);
        self.starts[size] + i
    }
}

/// The leaf family of a float format.
struct FloatFamily<T> {
    format: FloatFormat,
    make: fn(u64) -> T,
}

impl<T: Debug + 'static> LeafFamily for FloatFamily<T> {
    fn name(&self) -> String {
        std::any::type_name::<T>().to_string()
    }
    fn count(&self, size: usize) -> BigUint {
        BigUint::from(self.format.count(size))
    }
    fn last_size(&self) -> Option<usize> {
        Some(self.format.last_size())
    }
    fn value(&self, size: usize, index: &BigUint) -> super::Value {
        let i = index.to_u64().expect("a float index fits in 64 bits");
        Box::new((self.make)(self.format.bits(size, i)))
    }
    fn debug_value(&self, value: &dyn Any) -> String {
        debug_of::<T>(value)
    }
}

/// The values of a binary float format in its size order (see
/// [`FloatFormat`]); `make` builds a value from its bit pattern. The
/// standard `f32` and `f64` use it; a half-float type could too:
///
/// ```
/// use neatcheck::space::{self, FloatFormat};
///
/// // An 8-bit float (4 exponent bits, 3 mantissa bits), as its bits.
/// let family = space::float_family(FloatFormat::new(3, 4), |bits| bits as u8);
/// let tiny: space::Space<u8> = space::leaf(family);
/// // 0.0; then 1.0, -1.0, -0.0 (bit patterns).
/// assert_eq!(neatcheck::values::values_in(&tiny, 0), vec![0x00]);
/// assert_eq!(neatcheck::values::values_in(&tiny, 1), vec![0x38, 0xb8, 0x80]);
/// ```
pub fn float_family<T: Debug + 'static>(
    format: FloatFormat,
    make: fn(u64) -> T,
) -> Rc<dyn LeafFamily> {
    Rc::new(FloatFamily { format, make })
}

// ---------------------------------------------------------------------------
// 128-bit integers
// ---------------------------------------------------------------------------

/// `u128` by bit length.
pub(crate) struct Bits128;

impl LeafFamily for Bits128 {
    fn name(&self) -> String {
        "u128".to_string()
    }
    fn count(&self, size: usize) -> BigUint {
        match size {
            0 => BigUint::one(),
            k if k <= 128 => BigUint::one() << (k - 1),
            _ => BigUint::zero(),
        }
    }
    fn last_size(&self) -> Option<usize> {
        Some(128)
    }
    fn value(&self, size: usize, index: &BigUint) -> super::Value {
        let v = if size == 0 {
            0
        } else {
            (1u128 << (size - 1)) + index.to_u128().expect("a u128 offset")
        };
        Box::new(v)
    }
    fn debug_value(&self, value: &dyn Any) -> String {
        debug_of::<u128>(value)
    }
}

/// `i128` with the convention of the other signed integers: size `k`
/// holds the magnitudes `2^(k-1) ..= 2^k - 1`, positives then negatives;
/// size 128 holds only `i128::MIN`.
pub(crate) struct Signed128;

/// The value at `offset` within `size` of the `i128` family.
fn signed128_value(size: usize, offset: u128) -> i128 {
    match size {
        0 => 0,
        128 => i128::MIN,
        k => {
            let half = 1u128 << (k - 1);
            if offset < half {
                (half + offset) as i128
            } else {
                // The negatives' magnitudes are `half + (offset - half)`.
                -(offset as i128)
            }
        }
    }
}

/// Decodes a global index of the `i128` family (indices past `2^64` only
/// arise for `NonZeroI128`, whose index is shifted by one).
#[inline]
pub(crate) fn i128_from_index(index: u128) -> i128 {
    if index == 0 {
        return 0;
    }
    // Size k starts at index 2^k - 1.
    let k = 127 - (index + 1).leading_zeros();
    signed128_value(k as usize, index - ((1u128 << k) - 1))
}

impl LeafFamily for Signed128 {
    fn name(&self) -> String {
        "i128".to_string()
    }
    fn count(&self, size: usize) -> BigUint {
        match size {
            0 | 128 => BigUint::one(),
            k if k < 128 => BigUint::one() << k,
            _ => BigUint::zero(),
        }
    }
    fn last_size(&self) -> Option<usize> {
        Some(128)
    }
    fn value(&self, size: usize, index: &BigUint) -> super::Value {
        let offset = index.to_u128().expect("an i128 offset");
        Box::new(signed128_value(size, offset))
    }
    fn debug_value(&self, value: &dyn Any) -> String {
        debug_of::<i128>(value)
    }
}

// ---------------------------------------------------------------------------
// NonZero integers
// ---------------------------------------------------------------------------

/// An integer family without its only size-0 value, 0: every other size
/// is unchanged, and global indices shift down by one.
pub(crate) struct NonZeroLeaf<I, N> {
    pub(crate) inner: Rc<dyn LeafFamily>,
    pub(crate) make: fn(I) -> N,
}

impl<I: 'static, N: Debug + 'static> LeafFamily for NonZeroLeaf<I, N> {
    fn name(&self) -> String {
        std::any::type_name::<N>().to_string()
    }
    fn count(&self, size: usize) -> BigUint {
        if size == 0 {
            BigUint::zero()
        } else {
            self.inner.count(size)
        }
    }
    fn last_size(&self) -> Option<usize> {
        self.inner.last_size()
    }
    fn value(&self, size: usize, index: &BigUint) -> super::Value {
        let v = self.inner.value(size, index);
        match v.downcast::<I>() {
            Ok(i) => Box::new((self.make)(*i)),
            Err(_) => unreachable!("the integer family of a NonZero type"),
        }
    }
    fn debug_value(&self, value: &dyn Any) -> String {
        debug_of::<N>(value)
    }
}

// ---------------------------------------------------------------------------
// Bounded naturals and Duration
// ---------------------------------------------------------------------------

/// `0 .. bound` by bit length: size 0 holds 0, size `k` the numbers
/// `2^(k-1) .. min(2^k, bound)`. The global index of a value is the value.
struct Below<T> {
    bound: u64,
    make: fn(u64) -> T,
}

impl<T: Debug + 'static> LeafFamily for Below<T> {
    fn name(&self) -> String {
        format!("0..{}", self.bound)
    }
    fn count(&self, size: usize) -> BigUint {
        let (lo, hi) = match size {
            0 => (0u128, 1u128),
            k if k <= 64 => (1u128 << (k - 1), 1u128 << k),
            _ => return BigUint::zero(),
        };
        BigUint::from(hi.min(u128::from(self.bound)).saturating_sub(lo))
    }
    fn last_size(&self) -> Option<usize> {
        Some(bit_len(self.bound.saturating_sub(1)) as usize)
    }
    fn value(&self, size: usize, index: &BigUint) -> super::Value {
        let lo = if size == 0 { 0 } else { 1u64 << (size - 1) };
        Box::new((self.make)(
            lo + index.to_u64().expect("an offset below 2^64"),
        ))
    }
    fn debug_value(&self, value: &dyn Any) -> String {
        debug_of::<T>(value)
    }
}

/// The naturals `0 .. bound` by bit length (like [`super::nat_bits`], but
/// bounded by any number): 0 has size 0, size `k` holds
/// `2^(k-1) .. min(2^k, bound)`. `make` converts from `u64`.
///
/// # Panics
/// If `bound` is 0 (an empty family: use [`super::empty`]).
pub fn below_family<T: Debug + 'static>(bound: u64, make: fn(u64) -> T) -> Rc<dyn LeafFamily> {
    assert!(bound > 0, "below_family needs a positive bound");
    Rc::new(Below { bound, make })
}

/// The naturals `0 .. bound` by bit length, as a space (see
/// [`below_family`]). `Duration`'s nanoseconds are `nat_below(10^9, ..)`.
///
/// ```
/// use neatcheck::space;
/// let digits = space::nat_below(10, |n| n as u8);
/// // 0 | 1 | 2, 3 | 4 ..= 7 | 8, 9
/// assert_eq!(neatcheck::values::values_in(&digits, 4), vec![8, 9]);
/// ```
pub fn nat_below<T: Debug + 'static>(bound: u64, make: fn(u64) -> T) -> Space<T> {
    leaf(below_family(bound, make))
}

// ---------------------------------------------------------------------------
// Unicode characters
// ---------------------------------------------------------------------------

/// First surrogate code point, and how many there are.
const SURROGATES: (u32, u32) = (0xD800, 0x800);

/// Every Unicode scalar value by bit length of its code point: the ASCII
/// characters keep their sizes 0 to 7, size 8 holds `U+0080 ..= U+00FF`
/// and so on up to size 21 (`U+100000 ..= U+10FFFF`, 65 536 of the 2^20
/// codes of 21 bits); size 16 lacks the 2048 surrogates. The global index of a character is its code point
/// below the surrogates and 2048 less above them.
pub(crate) struct Unicode;

/// The character at a global index of [`Unicode`].
#[cfg(test)]
pub(crate) fn char_from_index(index: u64) -> char {
    let i = index as u32;
    let code = if i < SURROGATES.0 {
        i
    } else {
        i + SURROGATES.1
    };
    char::from_u32(code).expect("a scalar value")
}

impl LeafFamily for Unicode {
    fn name(&self) -> String {
        // `report` prints lists of this family as string literals.
        "char".to_string()
    }
    fn count(&self, size: usize) -> BigUint {
        BigUint::from(match size {
            0 => 1,
            16 => (1u32 << 15) - SURROGATES.1,
            // U+100000 ..= U+10FFFF.
            21 => 0x1_0000,
            k if k < 21 => 1u32 << (k - 1),
            _ => 0,
        })
    }
    fn last_size(&self) -> Option<usize> {
        Some(21)
    }
    fn value(&self, size: usize, index: &BigUint) -> super::Value {
        let offset = index.to_u32().expect("a char offset");
        let mut code = if size == 0 {
            0
        } else {
            (1 << (size - 1)) + offset
        };
        if code >= SURROGATES.0 && size == 16 {
            code += SURROGATES.1;
        }
        Box::new(char::from_u32(code).expect("a scalar value"))
    }
    fn debug_value(&self, value: &dyn Any) -> String {
        debug_of::<char>(value)
    }
}

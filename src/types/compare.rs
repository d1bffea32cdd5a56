//! Lazy comparisons of atoms: a primitive integer (sized by bit length) or
//! a `char` compared with a constant or with another lazy atom reads its
//! block (size and sign) and then its bits from the most significant one,
//! only until the answer is known. The search then refines only those
//! bits: `x < 1000` over `u64` is 74 classes (one per size, a few for
//! the bits of 1000's size), not one per value.
//! Integers sized linearly, and positions of another space, are read
//! whole.

use super::Atom;
use crate::describe::AtomBlock;
use crate::handle::{AtomRead, Lazy};
use std::cmp::Ordering;
use std::ops::{Bound, RangeBounds};

mod sealed {
    pub trait Sealed {}
}

/// The types whose lazy positions compare lazily: the primitive integers
/// (`u8..u64`, `i8..i64`, `usize`, `isize`) and `char`. `i128` has the same
/// comparisons but is read whole (a leaf), as are integers sized linearly.
///
/// With `x: Lazy<T>`, `x == 5`, `x < 5`, `x <= y` (two lazy atoms),
/// [`Lazy::compare`] and [`Lazy::in_range`] read `x` from its most
/// significant bit only as far as the answer needs, so the search refines
/// only the bits that decided it. [`Lazy::get`] still reads the whole
/// value. The handle goes on the left: `5 < x` is not provided, since
/// comparisons of plain numbers with a handle on the right would make
/// `n == iter.sum()` ambiguous in every crate that uses neatcheck.
///
/// ```
/// use neatcheck::search::classes;
/// use neatcheck::Lazy;
///
/// // Whether a u64 is below 1000: one class per size (65) and a few for
/// // the bits of 1000's size; a whole read would need 2^64 runs.
/// let lazy = classes(|x: Lazy<u64>| x < 1000, 64).runs;
/// assert!(lazy < 80, "{lazy} classes");
/// ```
pub trait LazyOrd: Atom + Ord + sealed::Sealed {
    /// The number in the order comparisons use (`char`: its code point).
    #[doc(hidden)]
    fn order_key(self) -> i128;
}

macro_rules! lazy_ord {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl LazyOrd for $t {
            #[inline(always)]
            fn order_key(self) -> i128 {
                self as i128
            }
        }
    )*};
}
lazy_ord!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, i128);

impl sealed::Sealed for char {}
impl LazyOrd for char {
    #[inline(always)]
    fn order_key(self) -> i128 {
        i128::from(u32::from(self))
    }
}

/// What a comparison knows of one lazy atom so far: the values its read
/// block and bits leave.
#[derive(Clone, Copy)]
enum Known {
    /// A block read, and its top `known` free bits (`prefix`).
    Bits {
        block: AtomBlock,
        first: u32,
        known: u32,
        prefix: u64,
    },
    /// A value read whole.
    Whole(i128),
}

impl Known {
    #[inline]
    fn read<T: LazyOrd>(x: Lazy<'_, T>) -> Known {
        match x.read_typed_atom() {
            AtomRead::Block(block, first) => Known::Bits {
                block,
                first,
                known: 0,
                prefix: 0,
            },
            AtomRead::Leaf(_) | AtomRead::Other => Known::Whole(T::force_lazy(x).order_key()),
        }
    }

    /// The least and greatest keys left.
    #[inline]
    fn range(&self) -> (i128, i128) {
        match *self {
            Known::Bits {
                block,
                known,
                prefix,
                ..
            } => block.key_range(prefix, known),
            Known::Whole(k) => (k, k),
        }
    }

    /// How many bits are left to read.
    #[inline]
    fn unknown(&self) -> u32 {
        match *self {
            Known::Bits { block, known, .. } => block.free - known,
            Known::Whole(_) => 0,
        }
    }

    /// Reads the next bit (there must be one).
    #[inline]
    fn refine<T>(&mut self, x: Lazy<'_, T>) {
        if let Known::Bits {
            first,
            known,
            prefix,
            ..
        } = self
        {
            *prefix = *prefix << 1 | x.read_bit(*first, *known);
            *known += 1;
        }
    }
}

impl<'a, T: LazyOrd> Lazy<'a, T> {
    /// Compares the value at this position with `value`, reading its bits
    /// from the most significant one only until the order is known.
    ///
    /// ```
    /// use neatcheck::search::classes;
    /// use neatcheck::Lazy;
    /// use std::cmp::Ordering;
    ///
    /// // Below, equal to or above 200: by size (0 ..= 8 bits) and then by
    /// // the bits of 200's size until they differ.
    /// let runs = classes(|x: Lazy<u8>| x.compare(200) == Ordering::Less, 8).runs;
    /// assert!(runs < 20, "{runs} classes, not 256");
    /// ```
    #[inline]
    pub fn compare(self, value: T) -> Ordering {
        let key = value.order_key();
        let mut known = Known::read(self);
        loop {
            let (lo, hi) = known.range();
            if key < lo {
                return Ordering::Greater;
            }
            if key > hi {
                return Ordering::Less;
            }
            if known.unknown() == 0 {
                return Ordering::Equal;
            }
            known.refine(self);
        }
    }

    /// Compares the values at two positions, reading the bits of each from
    /// the most significant one (the one with more bits left first) only
    /// until the order is known.
    #[inline]
    pub fn compare_lazy(self, other: Lazy<'_, T>) -> Ordering {
        let mut a = Known::read(self);
        let mut b = Known::read(other);
        loop {
            let (alo, ahi) = a.range();
            let (blo, bhi) = b.range();
            if ahi < blo {
                return Ordering::Less;
            }
            if alo > bhi {
                return Ordering::Greater;
            }
            let (ua, ub) = (a.unknown(), b.unknown());
            if ua == 0 && ub == 0 {
                return Ordering::Equal;
            }
            if ua >= ub {
                a.refine(self);
            } else {
                b.refine(other);
            }
        }
    }

    /// Whether the value at this position lies in `range`, read lazily
    /// against each bound (see [`Lazy::compare`]).
    ///
    /// ```
    /// use neatcheck::search::classes;
    /// use neatcheck::Lazy;
    ///
    /// let runs = classes(|c: Lazy<char>| c.in_range('a'..='z'), 21).runs;
    /// assert!(runs < 60, "{runs} classes, not 1 114 112");
    /// ```
    #[inline]
    pub fn in_range(self, range: impl RangeBounds<T>) -> bool {
        let above_start = match range.start_bound() {
            Bound::Included(&lo) => self.compare(lo) != Ordering::Less,
            Bound::Excluded(&lo) => self.compare(lo) == Ordering::Greater,
            Bound::Unbounded => true,
        };
        above_start
            && match range.end_bound() {
                Bound::Included(&hi) => self.compare(hi) != Ordering::Greater,
                Bound::Excluded(&hi) => self.compare(hi) == Ordering::Less,
                Bound::Unbounded => true,
            }
    }
}

impl<T: LazyOrd> PartialEq<T> for Lazy<'_, T> {
    #[inline]
    fn eq(&self, other: &T) -> bool {
        self.compare(*other) == Ordering::Equal
    }
}

impl<T: LazyOrd> PartialOrd<T> for Lazy<'_, T> {
    #[inline]
    fn partial_cmp(&self, other: &T) -> Option<Ordering> {
        Some(self.compare(*other))
    }
}

impl<'b, T: LazyOrd> PartialEq<Lazy<'b, T>> for Lazy<'_, T> {
    #[inline]
    fn eq(&self, other: &Lazy<'b, T>) -> bool {
        self.compare_lazy(*other) == Ordering::Equal
    }
}

impl<'b, T: LazyOrd> PartialOrd<Lazy<'b, T>> for Lazy<'_, T> {
    #[inline]
    fn partial_cmp(&self, other: &Lazy<'b, T>) -> Option<Ordering> {
        Some(self.compare_lazy(*other))
    }
}

#[cfg(test)]
mod tests;

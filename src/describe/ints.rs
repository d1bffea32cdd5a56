//! Integer size conventions: by bit length (the default, as in `size-based`)
//! or linear (`n` costs `|n|`, as in SmallCheck and LeanCheck), and the
//! per-thread mode that picks the canonical space of the primitive integer
//! types. The typed side (the per-field spaces [`linear`](super::linear) and
//! [`bit_length`](super::bit_length), the [`Linear`](super::Linear) wrapper) is in the type layer.
//!
//! The two conventions answer different questions. By bit length, size `k`
//! holds every magnitude of `k` bits, so a few sizes reach `MIN` and `MAX`
//! and a property over one number is searched over all its magnitudes
//! quickly. Linearly, size `k` holds only `k` and `-k`, so in a structure
//! with several numbers (a tree and its keys) the size budget goes to the
//! shape, not to the magnitudes of the keys.

use std::cell::Cell;
use std::fmt;

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
/// keys) usually fails sooner linearly (`tools/src/bin/tree_suite.rs`).
///
/// Pick it per check with [`crate::Config::integer_sizes`] or
/// `NEATCHECK_INTEGERS=linear|bits`, per field with [`linear`](crate::space::linear) and
/// [`bit_length`](crate::space::bit_length), per type with the [`Linear`](crate::space::Linear) wrapper or a newtype whose
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

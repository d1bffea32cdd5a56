//! The sizes of a leaf sort's values as the search reads them: one
//! [`LeafSizes`] per leaf sort and search, built once from the grammar's
//! starts of each size, answering "how much larger is the next value"
//! in a few instructions, without a borrow, a lookup or a big number.
//!
//! Only sizes up to the search's bound matter to it (a value past it never
//! fits), so the table covers sizes `0..=bound` (at most [`TABLE_SIZES`]
//! of them): the starts of those sizes, or, when they follow one, a closed
//! form (bit length of the index or of a shifted index, linear) that the
//! table is checked against when the search starts. A family's own
//! description is never trusted for this: a custom family with an odd
//! first size simply gets the table.

use super::{SortId, INFINITE};
use crate::describe::LeafFamily;
use num_traits::ToPrimitive;

/// The most sizes a search's table covers: past them (a bound above it and
/// a family with more sizes) the grammar answers, off the hot path.
pub(crate) const TABLE_SIZES: u64 = 1024;

/// `2^64`: an index bound no `u64` index reaches.
const ALL: u128 = 1 << 64;

/// How the size of an index is computed within the table's reach.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Form {
    /// `size(i) = bit_len(i + add) - sub`: the integers by bit length
    /// (`add = sub = 0` unsigned, `1, 1` signed, shifted by one without 0).
    BitLength { add: u64, sub: u64 },
    /// `size(i) = (i + add) >> shift`: the integers by magnitude.
    Linear { add: u64, shift: u32 },
    /// `starts[s]`: the first index of size `s` (`s <= top`); an index's
    /// size is the last `s` whose start is at most the index, found from
    /// `by_bit_length[bit_len(i)]` (the size of the smallest index of that
    /// bit length) by a forward scan, a step or two for families whose
    /// sizes grow geometrically (characters, floats).
    Table {
        starts: Box<[u64]>,
        by_bit_length: Box<[u32; 65]>,
    },
}

/// Number of bits of `x` (0 for 0).
#[inline]
fn bit_len(x: u128) -> u64 {
    u64::from(128 - x.leading_zeros())
}

impl Form {
    /// The closed forms tried, simplest first.
    fn candidates() -> impl Iterator<Item = Form> {
        let bits = (0..=3u64).flat_map(|add| {
            (0..=bit_len(u128::from(add))).map(move |sub| Form::BitLength { add, sub })
        });
        let linear =
            (0..=3u64).flat_map(|add| (0..=1).map(move |shift| Form::Linear { add, shift }));
        bits.chain(linear)
    }

    /// The first index of size `s` or more under a closed form (in 128 bits,
    /// saturated at `ALL`).
    fn start(&self, s: u64) -> u128 {
        match *self {
            Form::BitLength { add, sub } => {
                let e = s + sub;
                if e == 0 {
                    0
                } else if e > 100 {
                    ALL
                } else {
                    ((1u128 << (e - 1)).saturating_sub(u128::from(add))).min(ALL)
                }
            }
            Form::Linear { add, shift } => (u128::from(s) << shift)
                .saturating_sub(u128::from(add))
                .min(ALL),
            Form::Table { .. } => unreachable!("a table is not a closed form"),
        }
    }

    /// The size of index `i` (within the reach the form was checked on).
    #[inline]
    fn size(&self, i: u64) -> u64 {
        match self {
            Form::BitLength { add, sub } => bit_len(u128::from(i) + u128::from(*add)) - sub,
            Form::Linear { add, shift } => ((u128::from(i) + u128::from(*add)) >> shift) as u64,
            Form::Table {
                starts,
                by_bit_length,
            } => {
                let s = by_bit_length[bit_len(u128::from(i)) as usize] as usize;
                scan(starts, s, i)
            }
        }
    }

    /// `size(i + 1) - size(i)`, for `i + 1` within the reach.
    #[inline]
    fn step(&self, i: u64) -> u64 {
        match self {
            Form::BitLength { add, .. } => {
                // The bit length grows by one exactly at powers of two.
                let x = u128::from(i) + u128::from(*add);
                u64::from((x + 1) & x == 0)
            }
            Form::Linear { add, shift } => {
                let x = u128::from(i) + u128::from(*add);
                (((x + 1) >> shift) - (x >> shift)) as u64
            }
            Form::Table { starts, .. } => {
                let s0 = self.size(i);
                scan(starts, s0 as usize, i + 1) - s0
            }
        }
    }
}

/// The last size at or after `s` whose start is at most `i` (the starts are
/// sorted; `starts[s] <= i` holds on entry).
#[inline]
fn scan(starts: &[u64], mut s: usize, i: u64) -> u64 {
    while s + 1 < starts.len() && starts[s + 1] <= i {
        s += 1;
    }
    s as u64
}

/// Extends `starts` (the first index of each size, from `[0]`) by the
/// counts of `family` until it has `want` entries, or says why it can not.
pub(crate) fn fill_starts(family: &dyn LeafFamily, starts: &mut Vec<u64>, want: usize) -> Tail {
    while starts.len() < want {
        let s = starts.len() - 1;
        if family.last_size().is_some_and(|l| s > l) {
            return Tail::Ended;
        }
        let last = *starts.last().expect("starts begin with 0");
        match family.count(s).to_u64().and_then(|c| last.checked_add(c)) {
            Some(end) => starts.push(end),
            None => return Tail::Saturated,
        }
    }
    Tail::Open
}

/// What the grammar's starts of a leaf family say past their last entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tail {
    /// More sizes may follow (the starts were filled only so far).
    Open,
    /// The values of the last entry's size reach past index `2^64 - 1`:
    /// every index from its start on has that size.
    Saturated,
    /// The last entry is the number of values: no index from it on exists.
    Ended,
}

/// A leaf sort's sizes for one search (see the module comment).
#[derive(Clone, Debug)]
pub(crate) struct LeafSizes {
    form: Form,
    /// `reach - 1` (0 when the reach is empty): a step from `i < last`
    /// stays within the table.
    last: u64,
    /// The first index of a size past the table (`2^64` when none is);
    /// the engine reads `last` instead.
    #[cfg_attr(not(test), allow(dead_code))]
    reach: u128,
    /// Whether no index past `last` has a size within the search's bound
    /// (the family ends, or its sizes pass `2^64` indices, or the table
    /// covers the bound); otherwise the grammar answers past `last`.
    exact_beyond: bool,
    /// The family's number of values, when it fits a `u64`.
    total: Option<u64>,
    sort: SortId,
}

impl LeafSizes {
    /// The table of `sort` for a search of `bound`, from the grammar's
    /// starts (`starts[s]`, the first index of size `s`): at least
    /// `min(bound, TABLE_SIZES) + 2` of them unless `tail` says why not.
    pub(crate) fn new(
        sort: SortId,
        starts: &[u64],
        tail: Tail,
        bound: u64,
        total: Option<u64>,
    ) -> LeafSizes {
        let cap = bound.min(TABLE_SIZES);
        // `table[s]` for the sizes `s <= top` that can fit, and `reach`, the
        // first index past them.
        let n = starts.len() as u64;
        let (top, reach, exact_beyond) = if n >= cap + 2 {
            (cap, u128::from(starts[cap as usize + 1]), cap == bound)
        } else {
            match tail {
                Tail::Saturated => (n - 1, ALL, true),
                Tail::Ended => (
                    n.saturating_sub(2),
                    u128::from(starts[n as usize - 1]),
                    true,
                ),
                Tail::Open => unreachable!("the starts are filled up to the cap"),
            }
        };
        let table = &starts[..=top as usize];
        let fits = |f: &Form| {
            (0..=top).all(|s| f.start(s) == u128::from(table[s as usize]))
                && f.start(top + 1) >= reach
        };
        let form = Form::candidates().find(fits).unwrap_or_else(|| {
            let mut by_bit_length = Box::new([0u32; 65]);
            for (bits, slot) in by_bit_length.iter_mut().enumerate() {
                let first = if bits == 0 { 0 } else { 1u64 << (bits - 1) };
                *slot = (table.partition_point(|&st| st <= first) - 1) as u32;
            }
            Form::Table {
                starts: table.into(),
                by_bit_length,
            }
        });
        LeafSizes {
            form,
            last: u64::try_from(reach.saturating_sub(1)).unwrap_or(u64::MAX),
            reach,
            exact_beyond,
            total,
            sort,
        }
    }

    /// The size of index `i`, when the table answers for it.
    #[cfg(test)]
    pub(crate) fn size(&self, i: u64) -> Option<u64> {
        (u128::from(i) < self.reach).then(|| self.form.size(i))
    }

    /// How much larger the value after index `i` is than `i`'s: `None`
    /// when there is no next value or its own size is past the search's
    /// bound (so it can not fit, whatever the rest of the value costs). A
    /// step past the table may also answer with a size past the bound: the
    /// engine adds the size of the rest of the value and compares.
    #[inline]
    pub(crate) fn step(&self, grammar: &super::Grammar, i: u64) -> Option<u64> {
        if i < self.last {
            Some(self.form.step(i))
        } else if self.exact_beyond {
            None
        } else {
            self.step_past_table(grammar, i)
        }
    }

    /// [`LeafSizes::step`] past the table (a bound above [`TABLE_SIZES`]).
    #[cold]
    #[inline(never)]
    fn step_past_table(&self, grammar: &super::Grammar, i: u64) -> Option<u64> {
        let s1 = grammar.leaf_size(self.sort, i.checked_add(1)?);
        (s1 != INFINITE).then(|| s1 - grammar.leaf_size(self.sort, i))
    }

    /// Whether index `i` is the family's last value.
    #[inline]
    pub(crate) fn is_last(&self, i: u64) -> bool {
        self.total.is_some_and(|t| i.saturating_add(1) >= t)
    }
}

#[cfg(test)]
mod tests;

//! Lazy atoms: the integers (by bit length) and characters whose bits are
//! positions of their own, so that a comparison reads only the bits it
//! needs. A family of atoms is a list of *blocks* in size order: each
//! block is the values of one size and sign whose magnitudes share a prefix
//! (`base`), the `free` bits below it left to choose. The grammar compiles
//! a block into an alternative whose fields are its free bits, most
//! significant first; as a plain family (counts and values by index) it
//! lists exactly what the whole-read family it replaced listed, in the same
//! order, so counts, indices and replay keys are unchanged.

use super::leaf::LeafFamily;
use super::Value;
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::any::Any;
use std::fmt::Debug;
use std::rc::Rc;

/// The values of one size and sign that share the bits above `free`:
/// magnitudes `base ..= base + 2^free - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AtomBlock {
    pub size: u32,
    pub negative: bool,
    pub base: u64,
    pub free: u32,
}

impl AtomBlock {
    /// The number of values of the block.
    pub(crate) fn len(&self) -> u128 {
        1u128 << self.free
    }

    /// The numeric key (the order comparisons use) of the block's value
    /// with free bits `bits`.
    #[inline]
    pub(crate) fn key(&self, bits: u64) -> i128 {
        let magnitude = i128::from(self.base) + i128::from(bits);
        if self.negative {
            -magnitude
        } else {
            magnitude
        }
    }

    /// The least and greatest keys of the values whose top `known` free
    /// bits are `prefix` (the others free).
    #[inline]
    pub(crate) fn key_range(&self, prefix: u64, known: u32) -> (i128, i128) {
        let rest = self.free - known;
        let low = prefix << rest;
        let high = low | ((1u64 << rest) - 1);
        if self.negative {
            (self.key(high), self.key(low))
        } else {
            (self.key(low), self.key(high))
        }
    }
}

/// A family of lazy atoms (see the module comment).
pub(crate) struct AtomFamily {
    name: String,
    pub(crate) blocks: Vec<AtomBlock>,
    /// Global index (among all sizes) of each block's first value, and one
    /// past the last value at the end.
    starts: Vec<u128>,
    /// The number of values of each size (what the count tables and the
    /// edge values ask per size).
    counts: Vec<u128>,
    make: Rc<dyn Fn(i128) -> Value>,
    debug: fn(&dyn Any) -> String,
}

impl AtomFamily {
    fn new(
        name: String,
        blocks: Vec<AtomBlock>,
        make: Rc<dyn Fn(i128) -> Value>,
        debug: fn(&dyn Any) -> String,
    ) -> AtomFamily {
        debug_assert!(blocks.windows(2).all(|w| w[0].size <= w[1].size));
        let mut starts = Vec::with_capacity(blocks.len() + 1);
        let mut at = 0u128;
        for b in &blocks {
            starts.push(at);
            at += b.len();
        }
        starts.push(at);
        let mut counts = vec![0u128; blocks.last().map_or(0, |b| b.size as usize + 1)];
        for b in &blocks {
            counts[b.size as usize] += b.len();
        }
        AtomFamily {
            name,
            blocks,
            starts,
            counts,
            make,
            debug,
        }
    }

    /// The unsigned integers of `bits` bits by bit length.
    pub(crate) fn unsigned<T: Debug + 'static>(bits: u32, make: fn(u64) -> T) -> AtomFamily {
        let mut blocks = vec![block(0, false, 0, 0)];
        for k in 1..=bits {
            blocks.push(block(k, false, 1 << (k - 1), k - 1));
        }
        AtomFamily::new(
            std::any::type_name::<T>().to_string(),
            blocks,
            Rc::new(move |key| Box::new(make(key as u64))),
            debug_of::<T>,
        )
    }

    /// The signed integers of `bits` bits by bit length: size `k` holds the
    /// positives of `k` bits, then the negatives, and `MIN` alone at size
    /// `bits`.
    pub(crate) fn signed<T: Debug + 'static>(bits: u32, make: fn(i64) -> T) -> AtomFamily {
        let mut blocks = vec![block(0, false, 0, 0)];
        for k in 1..bits {
            blocks.push(block(k, false, 1 << (k - 1), k - 1));
            blocks.push(block(k, true, 1 << (k - 1), k - 1));
        }
        blocks.push(block(bits, true, 1 << (bits - 1), 0));
        AtomFamily::new(
            std::any::type_name::<T>().to_string(),
            blocks,
            Rc::new(move |key| Box::new(make(key as i64))),
            debug_of::<T>,
        )
    }

    /// Every Unicode scalar value by bit length of its code point (the
    /// surrogates left out of size 16, nothing past `U+10FFFF` at 21).
    pub(crate) fn unicode() -> AtomFamily {
        let mut blocks = vec![block(0, false, 0, 0)];
        for k in 1..=21u32 {
            let lo = 1u64 << (k - 1);
            let hi = ((1u64 << k) - 1).min(0x10FFFF);
            if k == 16 {
                aligned_blocks(k, lo, 0xD7FF, &mut blocks);
                aligned_blocks(k, 0xE000, hi, &mut blocks);
            } else {
                aligned_blocks(k, lo, hi, &mut blocks);
            }
        }
        AtomFamily::new(
            // `report` prints lists of this family as string literals.
            "char".to_string(),
            blocks,
            Rc::new(|key| Box::new(char::from_u32(key as u32).expect("a scalar value"))),
            debug_of::<char>,
        )
    }

    /// The global index of block `b`'s value with free bits `bits`.
    #[inline]
    pub(crate) fn global_index(&self, b: usize, bits: u64) -> u128 {
        self.starts[b] + u128::from(bits)
    }

    /// The block and free bits of the value at a global index (which must
    /// be below [`AtomFamily::total_len`]).
    pub(crate) fn locate(&self, index: u128) -> (usize, u64) {
        let b = self.starts.partition_point(|&s| s <= index) - 1;
        (b, (index - self.starts[b]) as u64)
    }

    /// The global index of the first value of `size`, if it has values.
    pub(crate) fn size_start(&self, size: usize) -> Option<u128> {
        let b = self.blocks.iter().position(|b| b.size as usize == size)?;
        Some(self.starts[b])
    }

    /// The number of values of all sizes.
    pub(crate) fn total_len(&self) -> u128 {
        *self.starts.last().expect("one past the end")
    }

    /// The same blocks, whose values are their keys (`i128`): what a
    /// function's split points are (compared with arguments by key).
    pub(crate) fn keyed(&self) -> AtomFamily {
        AtomFamily::new(
            self.name.clone(),
            self.blocks.clone(),
            Rc::new(|key| Box::new(key)),
            debug_of::<i128>,
        )
    }

    /// The least and the greatest key of the family.
    pub(crate) fn key_bounds(&self) -> (i128, i128) {
        self.blocks
            .iter()
            .map(|b| b.key_range(0, 0))
            .fold((i128::MAX, i128::MIN), |(lo, hi), (l, h)| {
                (lo.min(l), hi.max(h))
            })
    }

    /// The `Debug` text of the value with the given key.
    pub(crate) fn key_text(&self, key: i128) -> String {
        (self.debug)(&*self.make(key))
    }

    /// The value with the given numeric key.
    pub(crate) fn make(&self, key: i128) -> Value {
        (self.make)(key)
    }

    /// The block and free bits of the value with the given key, if the
    /// family has it.
    pub(crate) fn find_key(&self, key: i128) -> Option<(usize, u64)> {
        self.blocks.iter().enumerate().find_map(|(b, blk)| {
            let (lo, hi) = blk.key_range(0, 0);
            (lo <= key && key <= hi).then(|| {
                let magnitude = key.unsigned_abs() as u64;
                (b, magnitude - blk.base)
            })
        })
    }
}

fn block(size: u32, negative: bool, base: u64, free: u32) -> AtomBlock {
    AtomBlock {
        size,
        negative,
        base,
        free,
    }
}

/// Splits the magnitudes `lo..=hi` (positive, of size `size`) into the
/// fewest blocks of aligned powers of two, ascending.
fn aligned_blocks(size: u32, mut lo: u64, hi: u64, out: &mut Vec<AtomBlock>) {
    while lo <= hi {
        let mut free = lo.trailing_zeros().min(63);
        while free > 0 && lo + (1u64 << free) - 1 > hi {
            free -= 1;
        }
        out.push(block(size, false, lo, free));
        lo += 1u64 << free;
    }
}

fn debug_of<T: Debug + 'static>(value: &dyn Any) -> String {
    match value.downcast_ref::<T>() {
        Some(v) => format!("{v:?}"),
        None => "?".to_string(),
    }
}

impl LeafFamily for AtomFamily {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn count(&self, size: usize) -> BigUint {
        BigUint::from(self.counts.get(size).copied().unwrap_or(0))
    }
    fn last_size(&self) -> Option<usize> {
        self.blocks.last().map(|b| b.size as usize)
    }
    fn value(&self, size: usize, index: &BigUint) -> Value {
        let mut offset = index.to_u128().expect("an atom's offset fits 128 bits");
        for b in self.blocks.iter().filter(|b| b.size as usize == size) {
            if offset < b.len() {
                return self.make(b.key(offset as u64));
            }
            offset -= b.len();
        }
        panic!(
            "neatcheck: no value {index} of size {size} in `{}`",
            self.name
        )
    }
    fn debug_value(&self, value: &dyn Any) -> String {
        (self.debug)(value)
    }
    fn total(&self) -> Option<BigUint> {
        Some(BigUint::from(self.total_len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::Zero;

    fn listed(f: &AtomFamily) -> Vec<i128> {
        f.blocks
            .iter()
            .flat_map(|b| (0..b.len() as u64).map(move |bits| b.key(bits)))
            .collect()
    }

    #[test]
    fn unsigned_and_signed_blocks_list_every_value_once_in_the_leaf_order() {
        let u = AtomFamily::unsigned(8, |x| x as u8);
        assert_eq!(listed(&u), (0..=255).collect::<Vec<i128>>());
        let s = AtomFamily::signed(8, |x| x as i8);
        let old = crate::describe::signed_family(8, |x| x as i8);
        let mut expected = vec![];
        for size in 0..=8 {
            let n = old.count(size).to_u64().unwrap();
            for i in 0..n {
                let v = old.value(size, &BigUint::from(i));
                expected.push(i128::from(*v.downcast::<i8>().unwrap()));
            }
        }
        assert_eq!(listed(&s), expected);
        assert_eq!(s.total_len(), 256);
    }

    #[test]
    fn unicode_blocks_leave_out_the_surrogates_and_stop_at_the_last_scalar() {
        let u = AtomFamily::unicode();
        let keys = listed(&u);
        assert_eq!(keys.len(), 0x110000 - 0x800);
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "ascending");
        assert!(keys.iter().all(|&k| char::from_u32(k as u32).is_some()));
        let old = crate::describe::char_family();
        for size in 0..=22 {
            assert_eq!(u.count(size), old.count(size), "size {size}");
        }
        assert!(u.count(22).is_zero());
    }

    #[test]
    fn locate_inverts_global_index_and_find_key_finds_every_value() {
        let s = AtomFamily::signed(6, |x| x as i8);
        for index in 0..s.total_len() {
            let (b, bits) = s.locate(index);
            assert_eq!(s.global_index(b, bits), index);
            let key = s.blocks[b].key(bits);
            assert_eq!(s.find_key(key), Some((b, bits)));
        }
        assert_eq!(s.find_key(100), None);
    }

    #[test]
    fn key_ranges_narrow_from_the_most_significant_bit() {
        let b = block(4, false, 8, 3);
        assert_eq!(b.key_range(0, 0), (8, 15));
        assert_eq!(b.key_range(1, 1), (12, 15));
        assert_eq!(b.key_range(0b10, 2), (12, 13));
        let n = block(4, true, 8, 3);
        assert_eq!(n.key_range(0, 0), (-15, -8));
        assert_eq!(n.key_range(1, 1), (-15, -12));
    }
}

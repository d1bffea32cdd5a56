//! A fast hasher for the keys neatcheck makes itself: a few machine words
//! (grammar ids, sort ids, leaf numbers) looked up on every random case or
//! sweep input, where the default hasher (SipHash, built to resist keys an
//! adversary chooses) cost more than the lookups' work.

use std::hash::{BuildHasherDefault, Hasher};

/// Multiply and rotate per word: the "Fx" hash (published in Firefox and
/// rustc). Only for keys that no input controls.
#[derive(Default, Debug, Clone, Copy)]
pub(crate) struct WordHasher(u64);

/// A `HashMap`/`HashSet` hasher of [`WordHasher`]s.
pub(crate) type WordHash = BuildHasherDefault<WordHasher>;

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u8(&mut self, word: u8) {
        self.write_u64(u64::from(word));
    }

    fn write_u32(&mut self, word: u32) {
        self.write_u64(u64::from(word));
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn distinct_small_keys_hash_apart() {
        let hash = |k: (u64, u32)| {
            let mut h = WordHasher::default();
            std::hash::Hash::hash(&k, &mut h);
            h.finish()
        };
        let hashes: HashSet<u64> = (0..64u64)
            .flat_map(|a| (0..64u32).map(move |b| (a, b)))
            .map(hash)
            .collect();
        assert_eq!(hashes.len(), 64 * 64);
    }
}

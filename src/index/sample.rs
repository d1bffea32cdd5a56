//! Index arithmetic for sampling and splitting: uniform big indices from an
//! RNG, evenly spaced indices and striped index sequences.

use num_bigint::BigUint;
use num_traits::{One, Zero};
use rand::Rng;

/// A uniformly random number in `0..n`, by rejection sampling on bits: draw
/// as many random bits as `n - 1` has and retry when the draw is `>= n`
/// (fewer than two draws on average). Reproducible: the result depends only
/// on the generator's output stream (32-bit words, least significant first).
///
/// # Panics
/// If `n` is zero.
pub(crate) fn uniform_below<R: Rng + ?Sized>(n: &BigUint, rng: &mut R) -> BigUint {
    assert!(
        !n.is_zero(),
        "neatcheck: uniform_below(0): there is no number below 0"
    );
    if n.is_one() {
        return BigUint::zero();
    }
    let bits = (n - 1u32).bits();
    let words = bits.div_ceil(32) as usize;
    let top = bits - 32 * (words as u64 - 1);
    let mask = if top == 32 {
        u32::MAX
    } else {
        (1u32 << top) - 1
    };
    loop {
        let mut digits: Vec<u32> = (0..words).map(|_| rng.next_u32()).collect();
        digits[words - 1] &= mask;
        let x = BigUint::new(digits);
        if &x < n {
            return x;
        }
    }
}

/// [`uniform_below`] for an `n` of 128 bits, without big numbers: the same
/// words drawn, so the same result from the same generator.
///
/// # Panics
/// If `n` is zero.
pub(crate) fn uniform_below_small<R: Rng + ?Sized>(n: u128, rng: &mut R) -> u128 {
    assert!(
        n != 0,
        "neatcheck: uniform_below(0): there is no number below 0"
    );
    if n == 1 {
        return 0;
    }
    let bits = 128 - (n - 1).leading_zeros();
    let words = bits.div_ceil(32);
    let top = bits - 32 * (words - 1);
    let mask = if top == 32 {
        u32::MAX
    } else {
        (1u32 << top) - 1
    };
    loop {
        let mut x = 0u128;
        for w in 0..words {
            let mut digit = rng.next_u32();
            if w + 1 == words {
                digit &= mask;
            }
            x |= u128::from(digit) << (32 * w);
        }
        if x < n {
            return x;
        }
    }
}

/// The indices `round(j * card / k)` for `j = 0..k` (halves round up),
/// clamped below `card`, without repeats: `k` distinct increasing indices
/// when `card >= k`, and every index once when `card < k`.
pub(crate) fn spaced_indices(card: &BigUint, k: usize) -> Vec<BigUint> {
    let mut out: Vec<BigUint> = vec![];
    if card.is_zero() || k == 0 {
        return out;
    }
    let last = card - 1u32;
    let two_k = BigUint::from(k) * 2u32;
    let kb = BigUint::from(k);
    for j in 0..k {
        let mut idx = (BigUint::from(j) * 2u32 * card + &kb) / &two_k;
        if idx > last {
            idx = last.clone();
        }
        if out.last() != Some(&idx) {
            out.push(idx);
        }
    }
    out
}

/// The indices `worker, worker + workers, ...` below `end`.
#[derive(Clone, Debug)]
pub(crate) struct StripeIndices {
    next: BigUint,
    step: BigUint,
    end: BigUint,
}

impl StripeIndices {
    /// Every `workers`-th index below `end`, starting at `worker`.
    ///
    /// # Panics
    /// If `workers` is zero or `worker >= workers`.
    pub(crate) fn new(end: BigUint, worker: usize, workers: usize) -> Self {
        assert!(workers > 0, "neatcheck: a stripe needs at least one worker");
        assert!(
            worker < workers,
            "neatcheck: stripe worker {worker} is out of range (workers are 0..{workers})"
        );
        StripeIndices {
            next: BigUint::from(worker),
            step: BigUint::from(workers),
            end,
        }
    }
}

impl Iterator for StripeIndices {
    type Item = BigUint;

    fn next(&mut self) -> Option<BigUint> {
        if self.next >= self.end {
            return None;
        }
        let i = self.next.clone();
        self.next += &self.step;
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::ToPrimitive;

    /// The chi-squared statistic of bucket counts against a uniform
    /// expectation.
    fn chi2(observed: &[u64], expected: f64) -> f64 {
        observed
            .iter()
            .map(|&o| (o as f64 - expected).powi(2) / expected)
            .sum()
    }

    /// The 0.1% critical value of chi-squared (Wilson-Hilferty).
    fn chi2_critical_0001(df: f64) -> f64 {
        let z = 3.0902;
        let a = 2.0 / (9.0 * df);
        df * (1.0 - a + z * a.sqrt()).powi(3)
    }

    #[test]
    fn the_small_draw_is_the_big_one() {
        for n in [
            1u128,
            2,
            3,
            7,
            100,
            1 << 32,
            (1 << 32) + 1,
            u64::MAX as u128,
            (u64::MAX as u128) * 3,
            u128::MAX,
        ] {
            let (mut a, mut b) = (crate::index::seeded_rng(9), crate::index::seeded_rng(9));
            for _ in 0..50 {
                let small = uniform_below_small(n, &mut a);
                assert!(small < n);
                assert_eq!(
                    BigUint::from(small),
                    uniform_below(&BigUint::from(n), &mut b)
                );
            }
        }
    }

    #[test]
    fn uniform_below_is_uniform_and_in_range() {
        let mut rng = crate::index::seeded_rng(1);
        for n in [1u64, 2, 3, 5, 7, 100, 1 << 32, (1 << 32) + 1, u64::MAX] {
            let n = BigUint::from(n);
            for _ in 0..200 {
                assert!(uniform_below(&n, &mut rng) < n);
            }
        }
        let n = BigUint::from(10u32).pow(60) + 1u32;
        for _ in 0..200 {
            assert!(uniform_below(&n, &mut rng) < n);
        }
        // 37 buckets (a count that is not a power of two).
        let n = BigUint::from(37u32);
        let per = 200;
        let mut observed = vec![0u64; 37];
        for _ in 0..37 * per {
            observed[uniform_below(&n, &mut rng).to_usize().unwrap()] += 1;
        }
        assert!(chi2(&observed, per as f64) < chi2_critical_0001(36.0));
    }

    #[test]
    fn spaced_indices_follow_the_formula() {
        let idx = |card: usize, k| -> Vec<usize> {
            spaced_indices(&BigUint::from(card), k)
                .iter()
                .map(|i| i.to_usize().unwrap())
                .collect()
        };
        assert_eq!(idx(10, 4), vec![0, 3, 5, 8]);
        assert_eq!(idx(10, 10), (0..10).collect::<Vec<_>>());
        assert_eq!(idx(3, 7), vec![0, 1, 2]);
        assert_eq!(idx(1, 3), vec![0]);
        assert_eq!(idx(0, 3), Vec::<usize>::new());
        assert_eq!(idx(5, 0), Vec::<usize>::new());
    }
}

//! Exact counts for the pruned space: a number that stays in 128 bits while
//! it fits and becomes a big integer only when it does not, and the
//! truncated polynomial products (numbers of completions by size) built
//! from them.
//!
//! Why not `BigUint` throughout: every count of a pruned node, every
//! coefficient of a product of holes, is touched on each draw and each
//! rejection; a `BigUint` allocates, and the counts of the spaces sampled in
//! practice (terms up to size 30, trees of a few dozen nodes) fit in 128
//! bits. Lists of bytes at size 80 do not, so the arithmetic promotes on
//! overflow instead of failing: results are exact either way.

use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::cmp::Ordering;

/// A non-negative exact count: `Small` whenever the value fits in 128 bits
/// (the representation is canonical, so equality and order are structural
/// within a variant).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Count {
    Small(u128),
    Big(BigUint),
}

impl Count {
    pub(crate) const ZERO: Count = Count::Small(0);
    pub(crate) const ONE: Count = Count::Small(1);

    pub(crate) fn from_big(n: BigUint) -> Count {
        match n.to_u128() {
            Some(small) => Count::Small(small),
            None => Count::Big(n),
        }
    }

    pub(crate) fn to_big(&self) -> BigUint {
        match self {
            Count::Small(n) => BigUint::from(*n),
            Count::Big(n) => n.clone(),
        }
    }

    pub(crate) fn is_zero(&self) -> bool {
        matches!(self, Count::Small(0))
    }

    /// The count as a float (for estimates and reports only).
    pub(crate) fn to_f64(&self) -> f64 {
        match self {
            Count::Small(n) => *n as f64,
            Count::Big(n) => n.to_f64().unwrap_or(f64::INFINITY),
        }
    }

    pub(crate) fn add(&self, other: &Count) -> Count {
        match (self, other) {
            (Count::Small(a), Count::Small(b)) => match a.checked_add(*b) {
                Some(s) => Count::Small(s),
                None => Count::Big(BigUint::from(*a) + *b),
            },
            _ => Count::from_big(self.to_big() + other.to_big()),
        }
    }

    pub(crate) fn add_assign(&mut self, other: &Count) {
        if let (Count::Small(a), Count::Small(b)) = (&mut *self, other) {
            if let Some(s) = a.checked_add(*b) {
                *a = s;
                return;
            }
        }
        *self = self.add(other);
    }

    /// `self - other`; the caller knows that `other <= self`.
    pub(crate) fn sub(&self, other: &Count) -> Count {
        match (self, other) {
            (Count::Small(a), Count::Small(b)) => Count::Small(
                a.checked_sub(*b)
                    .expect("neatcheck: a pruned count went below zero"),
            ),
            _ => Count::from_big(self.to_big() - other.to_big()),
        }
    }

    pub(crate) fn mul(&self, other: &Count) -> Count {
        match (self, other) {
            (Count::Small(0), _) | (_, Count::Small(0)) => Count::ZERO,
            (Count::Small(a), Count::Small(b)) => match a.checked_mul(*b) {
                Some(p) => Count::Small(p),
                None => Count::Big(BigUint::from(*a) * *b),
            },
            _ => Count::from_big(self.to_big() * other.to_big()),
        }
    }

    /// `self += a * b`, the inner step of every product and sum of products.
    pub(crate) fn add_mul(&mut self, a: &Count, b: &Count) {
        if let (Count::Small(x), Count::Small(y), Count::Small(acc)) = (a, b, &mut *self) {
            if let Some(s) = x.checked_mul(*y).and_then(|p| acc.checked_add(p)) {
                *acc = s;
                return;
            }
        }
        if a.is_zero() || b.is_zero() {
            return;
        }
        *self = self.add(&a.mul(b));
    }

    /// Quotient and remainder; `other` is not zero.
    pub(crate) fn div_rem(&self, other: &Count) -> (Count, Count) {
        match (self, other) {
            (Count::Small(a), Count::Small(b)) => (Count::Small(a / b), Count::Small(a % b)),
            _ => {
                let (a, b) = (self.to_big(), other.to_big());
                (Count::from_big(&a / &b), Count::from_big(a % b))
            }
        }
    }
}

impl From<u64> for Count {
    fn from(n: u64) -> Count {
        Count::Small(u128::from(n))
    }
}

impl PartialOrd for Count {
    fn partial_cmp(&self, other: &Count) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Count {
    fn cmp(&self, other: &Count) -> Ordering {
        match (self, other) {
            (Count::Small(a), Count::Small(b)) => a.cmp(b),
            // Canonical: a big count is larger than any small one.
            (Count::Small(_), Count::Big(_)) => Ordering::Less,
            (Count::Big(_), Count::Small(_)) => Ordering::Greater,
            (Count::Big(a), Count::Big(b)) => a.cmp(b),
        }
    }
}

impl std::fmt::Display for Count {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Count::Small(n) => n.fmt(f),
            Count::Big(n) => n.fmt(f),
        }
    }
}

/// `a * b` truncated to the coefficients `0..=degree`.
pub(crate) fn product(a: &[Count], b: &[Count], degree: usize) -> Vec<Count> {
    let mut out = vec![Count::ZERO; degree + 1];
    for (i, x) in a.iter().enumerate().take(degree + 1) {
        if x.is_zero() {
            continue;
        }
        for (j, y) in b.iter().enumerate().take(degree + 1 - i) {
            out[i + j].add_mul(x, y);
        }
    }
    out
}

/// The coefficient of `x^degree` in `a * b`.
pub(crate) fn coefficient(a: &[Count], b: &[Count], degree: usize) -> Count {
    let mut out = Count::ZERO;
    for (i, x) in a.iter().enumerate().take(degree + 1) {
        if let Some(y) = b.get(degree - i) {
            out.add_mul(x, y);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn big(c: &Count) -> BigUint {
        c.to_big()
    }

    proptest! {
        #[test]
        fn arithmetic_agrees_with_big_integers(a in any::<u128>(), b in 1..=u128::MAX, k in 0u32..200) {
            let (x, y) = (Count::from_big(BigUint::from(a) << k), Count::Small(b));
            let (bx, by) = (big(&x), big(&y));
            prop_assert_eq!(big(&x.add(&y)), &bx + &by);
            prop_assert_eq!(big(&x.mul(&y)), &bx * &by);
            let (q, r) = x.div_rem(&y);
            prop_assert_eq!(big(&q), &bx / &by);
            prop_assert_eq!(big(&r), &bx % &by);
            let s = x.add(&y);
            prop_assert_eq!(s.sub(&y), x.clone());
            let mut acc = x.clone();
            acc.add_mul(&y, &y);
            prop_assert_eq!(big(&acc), &bx + &by * &by);
            prop_assert_eq!(x.cmp(&y), bx.cmp(&by));
            // Canonical: a value that fits is small.
            prop_assert_eq!(matches!(s.sub(&x), Count::Small(_)), true);
        }
    }

    #[test]
    fn truncated_products() {
        let a: Vec<Count> = [1u64, 2, 3].into_iter().map(Count::from).collect();
        let b: Vec<Count> = [0u64, 1, 1, 1].into_iter().map(Count::from).collect();
        let p = product(&a, &b, 3);
        assert_eq!(p, [0u64, 1, 3, 6].map(Count::from).to_vec());
        assert_eq!(coefficient(&a, &b, 3), Count::from(6u64));
        assert_eq!(coefficient(&a, &b, 5), Count::from(3u64));
    }
}

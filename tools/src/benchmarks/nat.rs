//! Peano naturals (`Nat = Z | S(Nat)`), the benchmarks' only number type,
//! and the comparison helpers of the specifications (each reads its first
//! argument first).

use neatcheck::{Enumerable, Lazy};

/// `Nat = Z | S(Nat)`: the number i has size i + 1.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq)]
pub enum Nat {
    /// Zero.
    Z,
    /// Successor.
    S(Box<Nat>),
}

/// A lazy natural.
pub type LNat<'a> = Lazy<'a, Nat>;

/// `eqNat(a, b)`: reads a, then b.
pub fn eq_nat(mut a: LNat<'_>, mut b: LNat<'_>) -> bool {
    loop {
        match a.view() {
            NatView::Z => return matches!(b.view(), NatView::Z),
            NatView::S(a1) => match b.view() {
                NatView::Z => return false,
                NatView::S(b1) => {
                    a = a1;
                    b = b1;
                }
            },
        }
    }
}

/// `a <= b` on plain naturals (for the plain versions of the predicates).
pub fn le_nat_plain(mut a: &Nat, mut b: &Nat) -> bool {
    loop {
        match (a, b) {
            (Nat::Z, _) => return true,
            (Nat::S(_), Nat::Z) => return false,
            (Nat::S(a1), Nat::S(b1)) => {
                a = a1;
                b = b1;
            }
        }
    }
}

/// `leNat(a, b)`: a <= b, reads a first; b not read when a is Z.
pub fn le_nat(mut a: LNat<'_>, mut b: LNat<'_>) -> bool {
    loop {
        match a.view() {
            NatView::Z => return true,
            NatView::S(a1) => match b.view() {
                NatView::Z => return false,
                NatView::S(b1) => {
                    a = a1;
                    b = b1;
                }
            },
        }
    }
}

/// `ltNat(a, b)`: a < b, reads a first.
pub fn lt_nat(mut a: LNat<'_>, mut b: LNat<'_>) -> bool {
    loop {
        match a.view() {
            NatView::Z => return matches!(b.view(), NatView::S(_)),
            NatView::S(a1) => match b.view() {
                NatView::Z => return false,
                NatView::S(b1) => {
                    a = a1;
                    b = b1;
                }
            },
        }
    }
}

/// `cmpNat(a, b)`: reads a, then b.
pub fn cmp_nat(mut a: LNat<'_>, mut b: LNat<'_>) -> std::cmp::Ordering {
    use std::cmp::Ordering::*;
    loop {
        match a.view() {
            NatView::Z => {
                return match b.view() {
                    NatView::Z => Equal,
                    NatView::S(_) => Less,
                }
            }
            NatView::S(a1) => match b.view() {
                NatView::Z => return Greater,
                NatView::S(b1) => {
                    a = a1;
                    b = b1;
                }
            },
        }
    }
}

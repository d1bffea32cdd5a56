//! Weighted counts (`space::weighted`) against a brute-force tally: a walk of
//! every index below the weighted count of a size lands on every value of
//! the size exactly as many times as the product of its weights.

use super::walk::{tree_at, Ix};
use super::{CountMode, Counts};
use crate::grammar::compile_space;
use crate::space::{self, Space};
use crate::Enumerable;
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Op {
    Push(u8),
    Pop,
    Clear,
}

impl Op {
    fn weight(&self) -> u64 {
        match self {
            Op::Push(_) => 5,
            Op::Pop => 2,
            Op::Clear => 1,
        }
    }
}

impl Enumerable for Op {
    fn describe() -> Space<Self> {
        space::pay(space::weighted(vec![
            (5, space::map(space::of::<u8>(), Op::Push)),
            (2, space::pure(Op::Pop)),
            (1, space::pure(Op::Clear)),
        ]))
    }
}

/// Nested weights multiply: an outer weight of 3 on a union whose inner
/// alternatives weigh 1 and 4.
fn nested() -> Space<(Option<bool>, Vec<Op>)> {
    let inner = space::weighted(vec![
        (1, space::pure(Some(false))),
        (4, space::pure(Some(true))),
    ]);
    let flag = space::pay(space::weighted(vec![(3, inner), (1, space::pure(None))]));
    space::product(flag, space::of::<Vec<Op>>())
}

fn flag_weight(flag: &Option<bool>) -> u64 {
    match flag {
        Some(false) => 3,
        Some(true) => 12,
        None => 1,
    }
}

fn tally<T: 'static + Clone + Eq + std::hash::Hash + std::fmt::Debug>(
    s: &Space<T>,
    size: usize,
) -> HashMap<T, u64> {
    let g = compile_space(s);
    let total = Counts::counting(&g, CountMode::Weighted)
        .count(size)
        .to_u64()
        .expect("a small test size");
    let mut seen = HashMap::new();
    for i in 0..total {
        let counts = Counts::counting(&g, CountMode::Weighted);
        let tree = tree_at(counts, g.root, size, Ix::Small(u128::from(i)));
        let value: T = crate::grammar::downcast(g.build_root(&tree), "a weighted walk");
        *seen.entry(value).or_insert(0) += 1;
    }
    seen
}

#[test]
fn a_weighted_walk_lands_on_each_value_its_weight_times() {
    for size in 0..=9 {
        let seen = tally(&space::of::<Vec<Op>>(), size);
        let values = crate::values::values_of::<Vec<Op>>(size);
        assert_eq!(
            seen.len(),
            values.len(),
            "size {size}: every value, once each"
        );
        for v in &values {
            let expected: u64 = v.iter().map(Op::weight).product();
            assert_eq!(seen.get(v), Some(&expected), "size {size}: {v:?}");
        }
    }
}

#[test]
fn nested_weights_multiply() {
    let s = nested();
    for size in 0..=7 {
        let seen = tally(&s, size);
        let values = crate::values::values_in(&s, size);
        assert_eq!(seen.len(), values.len(), "size {size}");
        for v in &values {
            let expected = flag_weight(&v.0) * v.1.iter().map(Op::weight).product::<u64>();
            assert_eq!(seen.get(v), Some(&expected), "size {size}: {v:?}");
        }
    }
}

/// Weights change draws only: the exhaustive enumeration, the counts and
/// the indexing are those of the same union without weights.
#[test]
fn weights_leave_counts_and_indexing_alone() {
    let plain = space::product(
        space::pay(space::union(vec![
            space::union(vec![space::pure(Some(false)), space::pure(Some(true))]),
            space::pure(None),
        ])),
        space::of::<Vec<Op>>(),
    );
    let weighted = compile_space(&nested());
    let unweighted = compile_space(&plain);
    assert!(weighted.weighted);
    for size in 0..=8 {
        assert_eq!(weighted.count(size), unweighted.count(size));
        assert_eq!(
            crate::values::values_in(&nested(), size),
            crate::values::values_in(&plain, size)
        );
        for i in 0..weighted.count(size).to_u64().unwrap() {
            let a = weighted.index_tree(weighted.root, size, &BigUint::from(i));
            let b = unweighted.index_tree(unweighted.root, size, &BigUint::from(i));
            let a: (Option<bool>, Vec<Op>) = crate::grammar::downcast(weighted.build_root(&a), "");
            let b: (Option<bool>, Vec<Op>) =
                crate::grammar::downcast(unweighted.build_root(&b), "");
            assert_eq!(a, b);
        }
    }
}

#[test]
#[should_panic(expected = "a weight of 0")]
fn a_weight_of_zero_is_refused() {
    let _ = space::weighted(vec![(0, space::pure(1u8)), (1, space::pure(2u8))]);
}

#[derive(crate::Enumerable, Clone, Debug, PartialEq, Eq, Hash)]
enum Cmd {
    #[enumerable(weight = 4)]
    Push(bool),
    Pop,
    #[enumerable(weight = 7)]
    Clear,
}

/// `#[enumerable(weight = n)]` weighs a derived variant; the others
/// weigh 1.
#[test]
fn derived_variants_take_their_weights() {
    let weight = |c: &Cmd| match c {
        Cmd::Push(_) => 4,
        Cmd::Pop => 1,
        Cmd::Clear => 7,
    };
    for size in 0..=8 {
        let seen = tally(&space::of::<Vec<Cmd>>(), size);
        let values = crate::values::values_of::<Vec<Cmd>>(size);
        assert_eq!(seen.len(), values.len());
        for v in &values {
            assert_eq!(seen[v], v.iter().map(weight).product::<u64>(), "{v:?}");
        }
    }
}

//! Linear integer sizes against the reference enumeration, the typed
//! decoding, and the per-check mode through every part of a check.

use super::{linear, Linear};
use crate::check::Config;
use crate::count::count_of;
use crate::grammar::downcast;
use crate::index::{rank_in, tree_in};
use crate::lazy::Lazy;
use crate::search::Searcher;
use crate::space::{
    linear_signed_from_index, map, signed_from_index, with_integer_sizes, IntegerSizes, Space,
};
use crate::types::{grammar_of, of, Enumerable};
use crate::values::{tree_value, trees_of, values_of, values_up_to};
use num_bigint::BigUint;
use std::cell::RefCell;
use std::collections::HashSet;

const LINEAR: IntegerSizes = IntegerSizes::Linear;

fn linear_mode<R>(f: impl FnOnce() -> R) -> R {
    with_integer_sizes(LINEAR, f)
}

#[test]
fn linear_signed_values_per_size_are_k_then_minus_k() {
    linear_mode(|| {
        assert_eq!(values_of::<i8>(0), [0]);
        for k in 1..128i16 {
            assert_eq!(values_of::<i8>(k as usize), [k as i8, -k as i8], "size {k}");
            assert_eq!(count_of::<i8>(k as usize), 2u32.into());
        }
        assert_eq!(values_of::<i8>(128), [i8::MIN]);
        assert!(values_of::<i8>(129).is_empty());
        // Every i8 exactly once.
        let all = values_up_to::<i8>(128);
        assert_eq!(all.len(), 256);
        assert_eq!(all.iter().collect::<HashSet<_>>().len(), 256);
        assert_eq!(values_of::<i64>(1000), [1000, -1000]);
        assert_eq!(count_of::<isize>(7), 2u32.into());
    });
}

#[test]
fn linear_unsigned_values_are_one_per_size() {
    linear_mode(|| {
        for k in 0..=255usize {
            assert_eq!(values_of::<u8>(k), [k as u8]);
        }
        assert!(values_of::<u8>(256).is_empty());
        assert_eq!(values_of::<u64>(70), [70]);
        assert_eq!(count_of::<u32>(1 << 20), 1u32.into());
        assert_eq!(
            crate::index::Indexer::<u16>::new().total(),
            Some(65536u32.into())
        );
    });
}

/// The compiled grammar (`trees_of`) and the description (`values_of`)
/// agree, and ranking inverts indexing, for integers inside structures.
#[test]
fn linear_trees_agree_with_values_and_ranks_round_trip() {
    linear_mode(|| {
        let g = grammar_of::<(Vec<u8>, i16)>();
        for n in 0..9 {
            let trees = trees_of::<(Vec<u8>, i16)>(n);
            let values: Vec<(Vec<u8>, i16)> = trees.iter().map(tree_value).collect();
            assert_eq!(values, values_of::<(Vec<u8>, i16)>(n), "size {n}");
            assert_eq!(BigUint::from(trees.len()), count_of::<(Vec<u8>, i16)>(n));
            assert_eq!(values.iter().collect::<HashSet<_>>().len(), values.len());
            for (i, t) in trees.iter().enumerate() {
                assert_eq!(tree_in(&g, n, &BigUint::from(i)).as_ref(), Some(t));
                assert_eq!(rank_in(&g, t), (n, BigUint::from(i)));
            }
        }
    });
    // Size 4 of (Vec<u8>, i16) by bit length holds more values (3 and -3
    // are size 2 there).
    assert!(count_of::<(Vec<u8>, i16)>(4) > linear_mode(|| count_of::<(Vec<u8>, i16)>(4)));
}

#[test]
fn signed_linear_indices_decode_like_the_family() {
    linear_mode(|| {
        let g = grammar_of::<i8>();
        for i in 0..256u64 {
            let v: i8 = downcast(g.build_root(&g.atomic_tree(g.root, i)), "i8");
            assert_eq!(i64::from(v), linear_signed_from_index(8, i), "index {i}");
        }
        // Small indices only: a leaf's size is found by walking its sizes,
        // one per magnitude here.
        let g = grammar_of::<i64>();
        for i in [0, 1, 2, 3, 1000, 1001, 4095] {
            let v: i64 = downcast(g.build_root(&g.atomic_tree(g.root, i)), "i64");
            assert_eq!(v, linear_signed_from_index(64, i), "index {i}");
        }
    });
    assert_eq!(linear_signed_from_index(64, u64::MAX), i64::MIN);
    assert_eq!(linear_signed_from_index(64, u64::MAX - 1), -(i64::MAX));
    assert_eq!(linear_signed_from_index(64, u64::MAX - 2), i64::MAX);
    assert_eq!(linear_signed_from_index(8, 255), -128);
}

/// The values as sorted `Debug` texts: the search visits values in its own
/// order, the reference by size.
fn sorted<T: std::fmt::Debug>(v: Vec<T>) -> Vec<String> {
    let mut out: Vec<String> = v.iter().map(|x| format!("{x:?}")).collect();
    out.sort();
    out
}

/// What a predicate sees through the typed `get`/`force` of every value up
/// to `bound` (sorted, see [`sorted`]). The predicate reads everything, so
/// the search runs once per value.
fn seen<T: Enumerable + std::fmt::Debug>(bound: usize) -> Vec<String> {
    let out = RefCell::new(vec![]);
    let mut s = Searcher::<T>::new(bound);
    while s
        .step(|x: Lazy<'_, T>| {
            out.borrow_mut().push(x.force());
            true
        })
        .is_some()
    {}
    sorted(out.into_inner())
}

/// The typed materialisers decode the family the position holds: the
/// canonical integers of either mode, the `Linear` wrapper, and integers
/// under an overriding space (generic path).
#[test]
fn typed_forcing_matches_the_reference_in_both_modes() {
    assert_eq!(
        seen::<(i8, Vec<i16>)>(6),
        sorted(values_up_to::<(i8, Vec<i16>)>(6))
    );
    linear_mode(|| {
        assert_eq!(seen::<i64>(40), sorted(values_up_to::<i64>(40)));
        assert_eq!(
            seen::<(i8, Vec<i16>)>(8),
            sorted(values_up_to::<(i8, Vec<i16>)>(8))
        );
        assert_eq!(seen::<Vec<u32>>(8), sorted(values_up_to::<Vec<u32>>(8)));
    });
    // The wrapper is linear whatever the mode.
    let w = seen::<(Linear<i32>, Linear<u8>)>(5);
    assert_eq!(w, sorted(values_up_to::<(Linear<i32>, Linear<u8>)>(5)));
    assert_eq!(w.len(), 1 + 3 + 5 + 7 + 9 + 11);
    assert_eq!(values_of::<Linear<i32>>(3), [Linear(3), Linear(-3)]);
}

#[derive(crate::Enumerable, Debug, Clone, PartialEq)]
struct Entry {
    #[enumerable(with = "crate::space::linear::<i64>()")]
    key: i64,
    value: bool,
}

#[derive(Debug, Clone, PartialEq)]
struct Key(i64);

impl Enumerable for Key {
    fn describe() -> Space<Self> {
        map(linear::<i64>(), Key)
    }
}

#[test]
fn linear_fields_and_free_newtypes() {
    // Entry (1) + |key| + value (1): size 4 holds keys ±2.
    let e = values_of::<Entry>(4);
    assert_eq!(e.len(), 4);
    assert!(e.iter().all(|x| x.key.abs() == 2));
    assert_eq!(seen::<Entry>(5), sorted(values_up_to::<Entry>(5)));
    // A free newtype: Key(n) at size |n|, whatever the mode.
    assert_eq!(values_of::<Key>(5), [Key(5), Key(-5)]);
    assert_eq!(seen::<Vec<Key>>(5), sorted(values_up_to::<Vec<Key>>(5)));
    let _ = of::<Key>();
}

fn quick(config: Config) -> Config {
    // Linearly sized `i64` up to 100 takes 10 000 runs of iterative
    // deepening: the runs of the deep profile.
    config.regressions(false).runs(1_000_000).samples(2_000, 60)
}

#[test]
fn the_check_mode_gives_each_convention_its_minimal_counterexample() {
    let bits = quick(Config::default());
    let lin = quick(Config::default().integer_sizes(LINEAR));
    let f = bits.try_check(|x: i64| x < 100).unwrap_err();
    assert_eq!((f.value, f.size), (100, 7));
    let f = lin.try_check(|x: i64| x < 100).unwrap_err();
    assert_eq!((f.value, f.size), (100, 100));
    let f = lin.try_check(|x: i64| x > -100).unwrap_err();
    assert_eq!((f.value, f.size), (-100, 100));

    // Long lists or large numbers: by bit length a number is cheaper, linearly
    // a list.
    let prop = |xs: Vec<u8>, y: u8| xs.len() < 8 && y < 64;
    let f = bits.try_check(prop).unwrap_err();
    assert_eq!((f.value.clone(), f.size), ((vec![], 64), 8));
    let f = lin.try_check(prop).unwrap_err();
    assert_eq!((f.value.clone(), f.size), ((vec![0; 8], 0), 9));
    // The check's mode does not leak into the thread.
    assert_eq!(crate::space::integer_sizes(), IntegerSizes::BitLength);
}

#[test]
fn parallel_search_and_replay_keep_the_mode() {
    let lin = quick(Config::default().integer_sizes(LINEAR));
    let prop = |xs: Lazy<'_, Vec<i32>>| xs.iter().map(|x| x.get().abs()).sum::<i32>() < 7;
    let one = lin.try_check(prop).unwrap_err();
    let three = (lin.clone().threads(3)).try_check(prop).unwrap_err();
    assert_eq!(
        (&one.value, one.size, one.runs),
        (&three.value, three.size, three.runs)
    );
    // [7]: a list of one (2) and 7 (7 linearly, 3 by bit length).
    assert_eq!((&one.value, one.size), (&vec![7], 9));
    let bits = quick(Config::default())
        .threads(3)
        .try_check(prop)
        .unwrap_err();
    assert_eq!((&bits.value, bits.size), (&vec![7], 5));

    // Parallel outside a check: workers take the caller's mode.
    let par = Config::default().max_size(40).threads(3);
    let c = linear_mode(|| {
        par.ctrex(|x: Lazy<'_, i16>| x.get() < 30)
            .counterexample()
            .unwrap()
    });
    assert_eq!(c.value, 30);

    // A key replays in its own mode, and is refused in the other.
    let replayed = lin
        .clone()
        .replay(one.key.clone())
        .try_check(prop)
        .unwrap_err();
    assert_eq!(replayed.value, one.value);
    let g_bits = grammar_of::<Vec<i32>>();
    assert!(crate::replay::tree_of_key(&g_bits, &one.key).is_err());
    let g_lin = linear_mode(grammar_of::<Vec<i32>>);
    assert!(crate::replay::tree_of_key(&g_lin, &one.key).is_ok());
}

#[test]
fn modes_parse_from_their_names() {
    assert_eq!("linear".parse::<IntegerSizes>(), Ok(LINEAR));
    assert_eq!(
        " Bits ".parse::<IntegerSizes>(),
        Ok(IntegerSizes::BitLength)
    );
    assert!("log".parse::<IntegerSizes>().is_err());
    assert_eq!(IntegerSizes::default(), IntegerSizes::BitLength);
    for m in [LINEAR, IntegerSizes::BitLength] {
        assert_eq!(m.to_string().parse::<IntegerSizes>(), Ok(m));
    }
}

/// The lazy decoding of signed leaves agrees with the family's values,
/// up to the last index of a 64-bit family (`u64::MAX`, `i64::MIN`).
#[test]
fn signed_indices_decode_like_the_family() {
    let g = grammar_of::<i8>();
    for i in 0..256u64 {
        let v: i8 = downcast(g.build_root(&g.atomic_tree(g.root, i)), "i8");
        assert_eq!(i64::from(v), signed_from_index(8, i), "index {i}");
    }
    let g = grammar_of::<i64>();
    for i in [0, 1, 2, 1 << 40, u64::MAX - 1, u64::MAX] {
        let v: i64 = downcast(g.build_root(&g.atomic_tree(g.root, i)), "i64");
        assert_eq!(v, signed_from_index(64, i), "index {i}");
    }
    assert_eq!(signed_from_index(64, u64::MAX), i64::MIN);
}

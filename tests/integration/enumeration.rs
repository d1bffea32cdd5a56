//! The enumerations (issue #2): the reference enumeration on the raw
//! description (`values_of`), the compiled-grammar enumeration (`trees_of`)
//! and the counting enumeration (`count_of`) agree with each other and with
//! an independent, hand-written oracle (sizes and values following
//! docs/spec.md §3).

use crate::common;

use common::{assert_distinct, panic_text, Forest, List, Nat, Oracle, Shape, Tree2};
use neatcheck::count::{count_of, count_up_to};
use neatcheck::space::{self, Space};
use neatcheck::values::{tree_size, tree_value, trees_of, values_of, values_up_to};
use neatcheck::Enumerable;
use num_bigint::{BigInt, BigUint};
use proptest::prelude::*;
use std::collections::HashSet;
use std::fmt::Debug;
use std::hash::Hash;

/// For every size up to `bound`: `values_of` lists each value once, as many
/// as `count_of` says, exactly the oracle's values (so none is missing), each
/// of the oracle's size; `trees_of` materialises to the same values in the
/// same order, with the right tree sizes. Returns the total number of values.
fn check_type<T>(bound: usize) -> u64
where
    T: Enumerable + Oracle + Eq + Hash + Debug + Clone,
{
    let name = std::any::type_name::<T>();
    let mut all: HashSet<T> = HashSet::new();
    let mut total = 0u64;
    for n in 0..=bound {
        let values = values_of::<T>(n);
        assert_eq!(
            BigUint::from(values.len()),
            count_of::<T>(n),
            "{name}: count_of({n}) differs from the reference enumeration"
        );
        assert_distinct(&values, &format!("{name}: values_of({n})"));
        for v in &values {
            assert_eq!(v.hsize(), n as u64, "{name}: {v:?} listed at size {n}");
            assert!(all.insert(v.clone()), "{name}: {v:?} listed at two sizes");
        }
        // Completeness against the hand-written enumeration.
        let listed: HashSet<&T> = values.iter().collect();
        let hand = T::hand_values(n as u64);
        assert_eq!(hand.len(), values.len(), "{name}: size {n}: oracle count");
        for h in &hand {
            assert!(listed.contains(h), "{name}: {h:?} (size {n}) is missing");
        }
        // The compiled enumeration: same values, same order.
        let trees = trees_of::<T>(n);
        let from_trees: Vec<T> = trees.iter().map(tree_value::<T>).collect();
        assert_eq!(
            from_trees, values,
            "{name}: trees_of({n}) differs from values_of({n})"
        );
        for t in &trees {
            assert_eq!(tree_size::<T>(t), n as u64, "{name}: tree size at {n}");
        }
        total += values.len() as u64;
    }
    assert_eq!(
        count_up_to::<T>(bound),
        BigUint::from(total),
        "{name}: count_up_to({bound})"
    );
    assert_eq!(
        values_up_to::<T>(bound).len() as u64,
        total,
        "{name}: values_up_to"
    );
    total
}

#[test]
fn unit() {
    assert_eq!(check_type::<()>(6), 1);
    assert_eq!(values_of::<()>(0), vec![()]);
}

#[test]
fn bool_() {
    assert_eq!(check_type::<bool>(6), 2);
    assert_eq!(values_of::<bool>(1), vec![false, true]);
}

#[test]
fn u8_every_value_once() {
    assert_eq!(check_type::<u8>(12), 256);
    assert_eq!(values_of::<u8>(0), vec![0]);
    assert_eq!(values_of::<u8>(3), vec![4, 5, 6, 7]);
    assert_eq!(count_of::<u8>(9), BigUint::from(0u32));
}

#[test]
fn i8_every_value_once() {
    assert_eq!(check_type::<i8>(10), 256);
    // Positives ascending, then negatives by magnitude.
    assert_eq!(values_of::<i8>(2), vec![2, 3, -2, -3]);
    assert_eq!(values_of::<i8>(1), vec![1, -1]);
    assert_eq!(values_of::<i8>(8), vec![-128]);
}

#[test]
fn i16_every_value_once() {
    assert_eq!(check_type::<i16>(17), 65536);
}

#[test]
fn u16_every_value_once() {
    assert_eq!(check_type::<u16>(17), 65536);
}

#[test]
fn char_every_value_once() {
    assert_eq!(check_type::<char>(9), 512);
    assert_eq!(check_type::<char>(7), 128);
    assert_eq!(values_of::<char>(0), vec!['\0']);
    assert_eq!(values_of::<char>(2), vec!['\u{2}', '\u{3}']);
}

#[test]
fn string() {
    check_type::<String>(9);
    assert_eq!(values_of::<String>(1), vec![String::new()]);
    assert_eq!(values_of::<String>(2), vec!["\0".to_string()]);
}

#[test]
fn option_result_box() {
    assert_eq!(check_type::<Option<bool>>(6), 3);
    assert_eq!(values_of::<Option<bool>>(2), vec![Some(false), Some(true)]);
    assert_eq!(check_type::<Result<bool, u8>>(12), 2 + 256);
    assert_eq!(check_type::<Box<bool>>(4), 2);
    check_type::<Option<Option<u8>>>(11);
    check_type::<Box<Option<Box<bool>>>>(4);
    check_type::<Result<Vec<bool>, Option<bool>>>(9);
}

#[test]
fn vec_bool() {
    check_type::<Vec<bool>>(15);
    for n in 0..=15usize {
        // A list of k booleans has size 2k + 1.
        let expected = if n % 2 == 1 { 1u64 << ((n - 1) / 2) } else { 0 };
        assert_eq!(
            count_of::<Vec<bool>>(n),
            BigUint::from(expected),
            "size {n}"
        );
    }
    assert_eq!(
        values_of::<Vec<bool>>(5),
        vec![
            vec![false, false],
            vec![false, true],
            vec![true, false],
            vec![true, true]
        ]
    );
}

#[test]
fn nested_vectors() {
    check_type::<Vec<Vec<bool>>>(12);
    check_type::<Vec<Vec<Option<u8>>>>(8);
    check_type::<Vec<u8>>(9);
    check_type::<Vec<()>>(8);
}

#[test]
fn tuples_up_to_six() {
    check_type::<(bool,)>(4);
    check_type::<(bool, u8)>(10);
    check_type::<(u8, u8)>(10);
    check_type::<(bool, Option<bool>, u8)>(9);
    check_type::<(bool, (), char, Vec<bool>)>(8);
    check_type::<(bool, bool, u8, Option<bool>, bool)>(8);
    check_type::<(bool, u8, (), Option<bool>, bool, Vec<bool>)>(8);
    // Products list pairs by the size of the left component first.
    assert_eq!(
        values_of::<(u8, u8)>(2),
        vec![(0, 2), (0, 3), (1, 1), (2, 0), (3, 0)]
    );
}

#[test]
fn arrays() {
    assert_eq!(check_type::<[bool; 3]>(5), 8);
    assert_eq!(count_of::<[bool; 3]>(3), BigUint::from(8u32));
    check_type::<[u8; 2]>(8);
    check_type::<[Option<bool>; 2]>(6);
}

#[test]
fn big_numbers() {
    check_type::<BigUint>(13);
    check_type::<BigInt>(12);
    assert_eq!(
        values_of::<BigInt>(2),
        vec![
            BigInt::from(2),
            BigInt::from(3),
            BigInt::from(-2),
            BigInt::from(-3)
        ]
    );
    // Unbounded: 2^(k-1) naturals and 2^k integers of size k.
    assert_eq!(count_of::<BigUint>(300), BigUint::from(1u32) << 299usize);
    assert_eq!(count_of::<BigInt>(300), BigUint::from(1u32) << 300usize);
}

#[test]
fn derived_recursive() {
    check_type::<Nat>(10);
    check_type::<Shape>(13);
    assert_eq!(values_of::<Shape>(1), vec![Shape::Leaf]);
    assert_eq!(values_of::<Nat>(3), vec![Nat::from_u64(2)]);
}

#[test]
fn derived_generic() {
    check_type::<List<bool>>(11);
    check_type::<List<u8>>(9);
    check_type::<List<Option<bool>>>(9);
    check_type::<List<List<bool>>>(9);
    // A derived list and a Vec have the same counts.
    for n in 0..=20 {
        assert_eq!(count_of::<List<bool>>(n), count_of::<Vec<bool>>(n));
        assert_eq!(count_of::<List<Nat>>(n), count_of::<Vec<Nat>>(n));
    }
}

#[test]
fn derived_mutually_recursive() {
    check_type::<Tree2>(11);
    check_type::<Forest>(11);
    check_type::<Vec<Tree2>>(8);
}

// ---------------------------------------------------------------------------
// Exact counts.
// ---------------------------------------------------------------------------

fn pow2(k: usize) -> BigUint {
    BigUint::from(1u32) << k
}

fn binomial(n: u64, k: u64) -> BigUint {
    // Multiplicative formula, exact at each step.
    let mut r = BigUint::from(1u32);
    for i in 0..k {
        r *= n - i;
        r /= i + 1;
    }
    r
}

fn catalan(n: u64) -> BigUint {
    binomial(2 * n, n) / (n + 1)
}

#[test]
fn exact_counts() {
    assert_eq!(count_of::<Vec<bool>>(41), BigUint::from(1_048_576u32));
    assert_eq!(count_of::<Vec<bool>>(2001), pow2(1000));
    assert_eq!(count_of::<Vec<bool>>(2000), BigUint::from(0u32));
    assert_eq!(count_of::<u64>(0), BigUint::from(1u32));
    assert_eq!(count_of::<u64>(64), pow2(63));
    assert_eq!(count_of::<u64>(65), BigUint::from(0u32));
    assert_eq!(count_up_to::<u64>(64), pow2(64));
    assert_eq!(count_up_to::<u8>(100), BigUint::from(256u32));
    assert_eq!(count_up_to::<i64>(64), pow2(64));
    assert_eq!(count_of::<i64>(64), BigUint::from(1u32));
    assert_eq!(count_of::<i64>(63), pow2(63));
    assert_eq!(
        count_up_to::<char>(100),
        BigUint::from(0x11_0000u32 - 0x800)
    );
}

#[test]
fn catalan_counts() {
    assert_eq!(catalan(0), BigUint::from(1u32));
    assert_eq!(catalan(3), BigUint::from(5u32));
    assert_eq!(catalan(10), BigUint::from(16796u32));
    for n in 0..=30u64 {
        assert_eq!(
            count_of::<Shape>(2 * n as usize + 1),
            catalan(n),
            "size {}",
            2 * n + 1
        );
        assert_eq!(count_of::<Shape>(2 * n as usize + 2), BigUint::from(0u32));
    }
    let c100 = catalan(100);
    assert_eq!(
        c100.to_string(),
        "896519947090131496687170070074100632420837521538745909320"
    );
    assert_eq!(count_of::<Shape>(201), c100);
}

#[test]
fn counting_a_long_list_needs_little_stack() {
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let c = count_of::<Vec<bool>>(5001);
            let up_to = count_up_to::<Vec<bool>>(5000);
            let tree = count_of::<Shape>(1001);
            (c, up_to, tree)
        })
        .unwrap();
    let (c, up_to, tree) = handle.join().expect("counting overflowed or panicked");
    assert_eq!(c, pow2(2500));
    // Sizes 1, 3, ..., 4999: 2^0 + ... + 2^2499.
    assert_eq!(up_to, pow2(2500) - 1u32);
    assert_eq!(tree, catalan(500));
}

// ---------------------------------------------------------------------------
// Recursion without `pay` is reported, naming the type.
// ---------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct Bad(#[allow(dead_code)] u8);

impl Enumerable for Bad {
    fn describe() -> Space<Self> {
        space::union(vec![
            space::pure(Bad(0)),
            space::map(space::of::<Bad>(), |b| b),
        ])
    }
}

#[derive(Clone, Debug)]
struct BadPing(u8);
#[derive(Clone, Debug)]
struct BadPong(u8);

impl Enumerable for BadPing {
    fn describe() -> Space<Self> {
        space::union(vec![
            space::pay(space::pure(BadPing(0))),
            space::map(space::of::<BadPong>(), |p| BadPing(p.0)),
        ])
    }
}

impl Enumerable for BadPong {
    fn describe() -> Space<Self> {
        space::map(space::of::<BadPing>(), |p| BadPong(p.0))
    }
}

/// A recursive hand-written space with `pay` (the control).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Good(u32);

impl Enumerable for Good {
    fn describe() -> Space<Self> {
        space::pay(space::union(vec![
            space::pure(Good(0)),
            space::map(space::of::<Good>(), |g| Good(g.0 + 1)),
        ]))
    }
}

#[test]
#[should_panic(expected = "pay")]
fn recursion_without_pay_panics_when_counting() {
    let _ = count_of::<Bad>(3);
}

type Backend = Box<dyn Fn() + std::panic::RefUnwindSafe>;

#[test]
fn recursion_without_pay_is_reported_by_every_backend() {
    let backends: Vec<(&str, Backend)> = vec![
        ("count_of", Box::new(|| drop(count_of::<Bad>(2)))),
        ("values_of", Box::new(|| drop(values_of::<Bad>(1)))),
        ("trees_of", Box::new(|| drop(trees_of::<Bad>(1)))),
        (
            "Searcher",
            Box::new(|| drop(neatcheck::search::Searcher::<Bad>::new(3))),
        ),
    ];
    for (name, f) in backends {
        let msg = panic_text(&*f);
        assert!(
            msg.contains("Bad"),
            "{name}: the message names no type: {msg}"
        );
        assert!(
            msg.contains("pay"),
            "{name}: the message does not mention pay: {msg}"
        );
    }
    // A cycle through two types names both.
    let msg = panic_text(|| drop(count_of::<BadPing>(2)));
    assert!(msg.contains("pay"), "{msg}");
    assert!(msg.contains("BadPing") && msg.contains("BadPong"), "{msg}");
    let msg = panic_text(|| drop(count_of::<Vec<BadPong>>(2)));
    assert!(msg.contains("pay") && msg.contains("BadPong"), "{msg}");

    // With `pay` the same shape is fine: one value per size >= 1.
    for n in 0..10 {
        let expected: Vec<Good> = if n == 0 {
            vec![]
        } else {
            vec![Good(n as u32 - 1)]
        };
        assert_eq!(values_of::<Good>(n), expected);
        assert_eq!(count_of::<Good>(n), BigUint::from(expected.len()));
    }
}

// ---------------------------------------------------------------------------
// Random sizes and indices: the value at that place has that size.
// ---------------------------------------------------------------------------

fn value_at<T: Enumerable>(n: usize, index: prop::sample::Index) -> Option<T> {
    let mut values = values_of::<T>(n);
    if values.is_empty() {
        return None;
    }
    let i = index.index(values.len());
    Some(values.swap_remove(i))
}

fn check_size_at<T: Enumerable + Oracle + Debug + PartialEq>(
    n: usize,
    index: prop::sample::Index,
) -> Result<(), TestCaseError> {
    let mut trees = trees_of::<T>(n);
    match value_at::<T>(n, index) {
        None => {
            prop_assert!(trees.is_empty());
            prop_assert_eq!(count_of::<T>(n), BigUint::from(0u32));
        }
        Some(v) => {
            prop_assert_eq!(v.hsize(), n as u64, "{:?} listed at size {}", v, n);
            let t = trees.swap_remove(index.index(trees.len()));
            let tv: T = tree_value(&t);
            prop_assert_eq!(tv.hsize(), n as u64, "{:?} (tree) listed at size {}", tv, n);
            prop_assert_eq!(tv, v);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn prop_sizes_of_leaves(n in 0usize..=18, index in any::<prop::sample::Index>()) {
        check_size_at::<u8>(n, index)?;
        check_size_at::<i8>(n, index)?;
        check_size_at::<u16>(n, index)?;
        check_size_at::<u32>(n.min(14), index)?;
        check_size_at::<u64>(n.min(14), index)?;
        check_size_at::<char>(n, index)?;
        check_size_at::<BigUint>(n.min(14), index)?;
        check_size_at::<BigInt>(n.min(14), index)?;
        check_size_at::<()>(n, index)?;
        check_size_at::<bool>(n, index)?;
    }

    #[test]
    fn prop_sizes_of_std_types(n in 0usize..=13, index in any::<prop::sample::Index>()) {
        check_size_at::<Option<bool>>(n, index)?;
        check_size_at::<Result<bool, u8>>(n, index)?;
        check_size_at::<Box<Option<u8>>>(n, index)?;
        check_size_at::<Vec<bool>>(n, index)?;
        check_size_at::<String>(n.min(11), index)?;
        check_size_at::<Vec<Vec<bool>>>(n.min(12), index)?;
        check_size_at::<Vec<Vec<Option<u8>>>>(n.min(9), index)?;
        check_size_at::<[bool; 3]>(n, index)?;
        check_size_at::<[Option<u8>; 2]>(n.min(11), index)?;
        check_size_at::<(bool, u8, char)>(n.min(11), index)?;
        check_size_at::<(bool, u8, (), Option<bool>, bool, Vec<bool>)>(n.min(10), index)?;
    }

    #[test]
    fn prop_sizes_of_derived_types(n in 0usize..=15, index in any::<prop::sample::Index>()) {
        check_size_at::<Nat>(n, index)?;
        check_size_at::<Shape>(n.min(13), index)?;
        check_size_at::<List<u8>>(n.min(10), index)?;
        check_size_at::<List<Nat>>(n.min(12), index)?;
        check_size_at::<Tree2>(n.min(11), index)?;
        check_size_at::<Forest>(n.min(11), index)?;
    }
}

//! Checks of the conventions stated in `docs/spec.md` that no other test
//! states as a table: the size of one value of every standard type (the
//! spec's size table, row by row), the order of a position's alternatives,
//! and the worked example of the search.

use crate::count::count_of;
use crate::index::index;
use crate::search::{RunResult, Searcher};
use crate::space::{with_integer_sizes, IntegerSizes};
use crate::values::values_of;
use crate::{Enumerable, Lazy};
use num_bigint::{BigInt, BigUint};
use std::cell::{Cell, RefCell};
use std::cmp::{Ordering, Reverse};
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::fmt::Debug;
use std::marker::PhantomData;
use std::num::{NonZeroU8, Wrapping};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

/// Sizes up to this one are also searched for the value below its size (it
/// must not appear there); above it only its own size is listed.
const SCAN_BELOW: usize = 9;

/// `v` appears exactly once among the values of `size` of its type (and at
/// no smaller size, for small sizes). Values are compared by their `Debug`
/// text, so that `NaN`, `-0.0` and the collections compare as printed.
fn assert_size<T: Enumerable + Debug>(v: T, size: usize) {
    let shown = format!("{v:?}");
    let times_at = |s: usize| {
        values_of::<T>(s)
            .iter()
            .filter(|x| format!("{x:?}") == shown)
            .count()
    };
    assert_eq!(times_at(size), 1, "{shown} should have size {size}");
    if size <= SCAN_BELOW {
        for s in 0..size {
            assert_eq!(times_at(s), 0, "{shown} also has size {s}");
        }
    }
}

#[derive(Enumerable, Debug, Clone, PartialEq)]
struct Pair(bool, bool);

#[derive(Enumerable, Debug, Clone, PartialEq)]
#[enumerable(transparent)]
struct Key(u8);

#[derive(Enumerable, Debug, Clone, PartialEq)]
enum Shape {
    Square(bool, bool),
    Dot,
}

/// The table of `docs/spec.md#sizes`, row by row.
#[test]
fn sizes_of_standard_values_are_those_of_the_spec() {
    assert_size((), 0);
    assert_size(false, 1);
    assert_size(true, 1);
    assert_size(Ordering::Greater, 1);
    assert_size(PhantomData::<u8>, 0);

    // Naturals by bit length.
    assert_size(0u8, 0);
    assert_size(1u8, 1);
    assert_size(3u16, 2);
    assert_size(100u32, 7);
    assert_size(255u8, 8);
    assert_size(4u128, 3);
    assert_size(BigUint::from(1000u32), 10);
    assert_eq!(count_of::<u64>(64), BigUint::from(1u64 << 63));
    let last = BigUint::from((1u64 << 63) - 1);
    assert_eq!(index::<u64>(64, &last), u64::MAX);
    assert_size(NonZeroU8::new(1).unwrap(), 1);
    assert_eq!(count_of::<NonZeroU8>(0), BigUint::from(0u32));

    // Signed: sign and magnitude by bit length, MIN alone at the last size.
    assert_size(-1i8, 1);
    assert_size(-3i32, 2);
    assert_size(127i8, 7);
    assert_size(i8::MIN, 8);
    assert_eq!(values_of::<i8>(8), vec![i8::MIN]);
    assert_eq!(values_of::<i16>(2), vec![2, 3, -2, -3]);
    assert_eq!(count_of::<i64>(64), BigUint::from(1u32));
    assert_eq!(index::<i64>(64, &BigUint::from(0u32)), i64::MIN);
    assert_size(BigInt::from(-5), 3);

    // Linear integer sizes.
    with_integer_sizes(IntegerSizes::Linear, || {
        assert_size(-5i8, 5);
        assert_size(7u64, 7);
        assert_eq!(values_of::<i32>(3), vec![3, -3]);
        assert_eq!(values_of::<i8>(128), vec![i8::MIN]);
    });

    // Characters by the bit length of their code point.
    assert_size('\0', 0);
    assert_size('a', 7);
    assert_size('é', 8);
    assert_size('€', 14);
    assert_eq!(count_of::<char>(16), BigUint::from(32768u32 - 2048));

    // Floats.
    assert_size(0.0f64, 0);
    assert_size(-0.0f64, 1);
    assert_size(1.0f32, 1);
    assert_size(f64::NAN, 2);
    assert_size(f64::NEG_INFINITY, 2);
    assert_size(0.5f64, 2);
    assert_size(f64::MAX, 3);
    assert_size(1.5f64, 3);
    assert_size(10.0f64, 4);

    // Algebraic standard types: every constructor costs 1.
    assert_size(None::<bool>, 1);
    assert_size(Some(0u8), 1);
    assert_size(Some(true), 2);
    assert_size(Err::<bool, bool>(false), 2);
    assert_size(Vec::<bool>::new(), 1);
    assert_size(vec![true, false], 5);
    assert_size(vec![3u8], 4);
    assert_size(String::new(), 1);
    assert_size("a".to_string(), 9);

    // Free: tuples, arrays, boxes, wrappers, pairs.
    assert_size((true, 0u8, ()), 1);
    assert_size([true, false, true], 3);
    assert_size(Box::new(true), 1);
    assert_size(Rc::new(Some(true)), 2);
    assert_size(Arc::new(true), 1);
    assert_size(Cell::new(3u8), 2);
    assert_size(RefCell::new(true), 1);
    assert_size(Wrapping(3u8), 2);
    assert_size(Reverse(true), 1);
    assert_size(3u8..5, 5);
    assert_size(Duration::new(1, 5), 4);

    // Other sequences cost what their `Vec` costs.
    assert_size(VecDeque::from(vec![true]), 3);
    assert_size(LinkedList::from([true]), 3);
    assert_size(vec![true].into_boxed_slice(), 3);
    assert_size(Box::<str>::from("a"), 9);

    // Sets, maps and multisets cost their sorted list of elements (entries).
    assert_size(BTreeSet::<bool>::new(), 1);
    assert_size(BTreeSet::from([false, true]), 5);
    assert_size(BTreeMap::from([(false, true)]), 4);
    assert_size(HashSet::from([3u8]), 4);
    assert_size(HashMap::from([(true, 0u8)]), 3);
    assert_size(BinaryHeap::from(vec![true, true]), 5);

    // Derived types: a constructor costs 1, fields add their sizes;
    // `#[enumerable(transparent)]` is free.
    assert_size(Pair(true, false), 3);
    assert_size(Key(3), 2);
    assert_size(Shape::Dot, 1);
    assert_size(Shape::Square(false, false), 3);
}

/// `docs/spec.md#order`: a position's alternatives are ordered by minimal
/// size, ties in declaration order, and the search starts at the minimal
/// value.
#[test]
fn alternatives_are_tried_in_order_of_minimal_size() {
    let mut s = Searcher::<Shape>::new(3);
    let mut run = vec![];
    while s
        .step(|x: Lazy<Shape>| {
            let _ = x.force();
        })
        .is_some()
    {
        run.push(s.value());
    }
    use Shape::{Dot, Square};
    assert_eq!(
        run,
        vec![
            Dot,
            Square(false, false),
            Square(false, true),
            Square(true, false),
            Square(true, true),
        ]
    );
}

/// The worked example of `docs/spec.md#example`: "some element is true" on
/// lists of booleans up to size 5, node by node in search order.
#[test]
fn the_worked_example_runs_as_written() {
    let mut s = Searcher::<Vec<bool>>::new(5);
    let mut run = vec![];
    while let Some(r) = s.step(|xs: Lazy<Vec<bool>>| xs.iter().any(|b| b.get())) {
        run.push((s.value(), r == RunResult::True));
    }
    assert_eq!(
        run,
        vec![
            (vec![], false),
            (vec![false], false),
            (vec![false, false], false),
            (vec![false, true], true),
            (vec![true], true),
        ]
    );
}

//! The proptest strategy of `neatcheck::index::proptest_bridge` (feature
//! `proptest`): sizes in range, reproducible draws, shrinking toward
//! smaller indices.

use neatcheck::index::proptest_bridge::{neatcheck_strategy, NeatcheckStrategy};
use neatcheck::index::Indexer;
use neatcheck::space;
use neatcheck::values;
use neatcheck::Enumerable;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestCaseError, TestError, TestRunner};

#[derive(Enumerable, Debug, Clone, PartialEq)]
enum Bin {
    Leaf,
    Node(Box<Bin>, Box<Bin>),
}

fn bin_size(t: &Bin) -> usize {
    let mut n = 0;
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        n += 1;
        if let Bin::Node(l, r) = t {
            stack.push(l);
            stack.push(r);
        }
    }
    n
}

proptest! {
    #[test]
    fn lists_have_sizes_in_range(v in neatcheck_strategy::<Vec<bool>>(5..=41)) {
        // Size of a list of n booleans: 1 + 2n.
        prop_assert!((2..=20).contains(&v.len()), "length {}", v.len());
    }

    #[test]
    fn trees_have_sizes_in_range(t in neatcheck_strategy::<Bin>(3..=301)) {
        let n = bin_size(&t);
        prop_assert!((3..=301).contains(&n), "size {n}");
    }

    #[test]
    fn reversing_twice_is_the_identity(s in neatcheck_strategy::<String>(0..=60)) {
        let r: String = s.chars().rev().collect::<String>().chars().rev().collect();
        prop_assert_eq!(r, s);
    }
}

#[test]
fn sizes_are_drawn_uniformly_among_inhabited_sizes() {
    // Vec<bool> has values only at odd sizes: 1, 3, ..., 21 (11 sizes).
    let strategy = neatcheck_strategy::<Vec<bool>>(0..=21);
    let mut runner = TestRunner::deterministic();
    let mut per_length = [0u32; 11];
    for _ in 0..11_000 {
        let v = strategy.new_tree(&mut runner).unwrap().current();
        per_length[v.len()] += 1;
    }
    // Each size about 1000 times; a wide band (p far below 0.001 each).
    for (len, &c) in per_length.iter().enumerate() {
        assert!((850..=1150).contains(&c), "length {len} drawn {c} times");
    }
}

#[test]
fn draws_are_reproducible_with_the_runner_seed() {
    let strategy = neatcheck_strategy::<Bin>(1..=41);
    let draw = || -> Vec<Bin> {
        let mut runner = TestRunner::deterministic();
        (0..30)
            .map(|_| strategy.new_tree(&mut runner).unwrap().current())
            .collect()
    };
    assert_eq!(draw(), draw());
}

#[test]
fn failures_shrink_to_the_smallest_failing_index() {
    // Fails exactly from the first list of three elements on, so binary
    // search over indices finds that first list.
    let mut runner = TestRunner::new(Config {
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&neatcheck_strategy::<Vec<bool>>(0..=41), |v| {
        if v.len() >= 3 {
            Err(TestCaseError::fail("long"))
        } else {
            Ok(())
        }
    });
    match result {
        Err(TestError::Fail(_, v)) => assert_eq!(v, vec![false, false, false]),
        other => panic!("expected a failure, got {other:?}"),
    }
}

#[test]
fn shrinking_stays_in_range() {
    // Sizes 7..=9 of Option<u8>: the value tree never leaves them.
    let strategy = neatcheck_strategy::<Option<u8>>(7..=9);
    let allowed: Vec<Option<u8>> = (7..=9).flat_map(values::values_of::<Option<u8>>).collect();
    let mut runner = TestRunner::deterministic();
    for _ in 0..50 {
        let mut tree = strategy.new_tree(&mut runner).unwrap();
        assert!(allowed.contains(&tree.current()));
        while tree.simplify() {
            assert!(allowed.contains(&tree.current()));
        }
        assert_eq!(tree.current(), allowed[0]);
    }
}

#[test]
fn empty_ranges_fail_with_a_message() {
    let strategy = neatcheck_strategy::<u8>(20..=30);
    let mut runner = TestRunner::deterministic();
    let err = strategy.new_tree(&mut runner).unwrap_err();
    assert!(
        err.message().contains("no values of size"),
        "{}",
        err.message()
    );
    let strategy = neatcheck_strategy::<Vec<bool>>(2..=2);
    assert!(strategy.new_tree(&mut runner).is_err());
}

#[test]
fn hand_written_spaces() {
    let s = space::range(-3, 3, |x| x as i32);
    let strategy = NeatcheckStrategy::for_space(&s, 0..=5);
    let mut runner = TestRunner::deterministic();
    for _ in 0..100 {
        let v = strategy.new_tree(&mut runner).unwrap().current();
        assert!((-3..=3).contains(&v));
    }
    let ix = Indexer::for_space(&s);
    assert_eq!(ix.total(), Some(7u32.into()));
}

//! Tests of the shrinker: concrete shrinks of standard and hand-described
//! types, a deep value on a small stack, and random predicates checked for
//! the shrinker's guarantees (still failing, never larger, within budget,
//! locally minimal when it ran to the end).

use super::{candidates, ladder, shrink, Shrunk};
use crate::grammar::{downcast, Grammar, SortKind, Tree};
use crate::index::{sample_tree_in, seeded_rng};
use crate::space::{self, Constructor, Space};
use crate::types::grammar_of;
use crate::Enumerable;
use proptest::prelude::*;
use std::rc::Rc;

/// The plain value of a tree of `g`'s root.
fn value<T: 'static>(g: &Grammar, t: &Tree) -> T {
    downcast(g.build_root(t), "shrink")
}

/// Shrinks `t` with a predicate on plain values saying when a value fails.
fn shrink_by<T: 'static>(
    g: &Grammar,
    t: &Tree,
    fails: impl Fn(&T) -> bool,
    max_attempts: u64,
) -> (T, Shrunk) {
    let mut on_tree = |t: &Tree| fails(&value::<T>(g, t));
    let s = shrink(g, t, &mut on_tree, max_attempts);
    (value(g, &s.tree), s)
}

/// A uniformly sampled tree of `size` that fails, from the first seed at or
/// after `seed` that gives one.
fn failing_sample<T: 'static>(
    g: &Grammar,
    size: usize,
    seed: u64,
    fails: impl Fn(&T) -> bool,
) -> Tree {
    (seed..seed + 1000)
        .filter_map(|s| sample_tree_in(g, size, &mut seeded_rng(s)))
        .find(|t| fails(&value::<T>(g, t)))
        .expect("some sample of the size fails")
}

/// Checks the guarantees of a finished shrink of `input` and, when it ran
/// out of candidates rather than budget, that no candidate of the result
/// fails.
fn check_result<T: 'static>(
    g: &Grammar,
    input: &Tree,
    s: &Shrunk,
    fails: &impl Fn(&T) -> bool,
    max_attempts: u64,
) {
    assert!(fails(&value::<T>(g, &s.tree)), "the result fails");
    assert!(s.size <= g.tree_size(input), "never larger than the input");
    assert_eq!(s.size, g.tree_size(&s.tree));
    assert!(s.attempts <= max_attempts);
    assert!(s.steps <= s.attempts);
    if s.attempts < max_attempts {
        for c in candidates(g, &s.tree) {
            assert!(
                !fails(&value::<T>(g, &c)),
                "a candidate of the result still fails: {c:?}"
            );
        }
    }
}

#[test]
fn the_ladder_bisects_long_lists_and_lists_short_ones_whole() {
    assert_eq!(ladder(0), Vec::<usize>::new());
    assert_eq!(ladder(5), vec![0, 1, 2, 3, 4]);
    let l = ladder(20_000);
    assert_eq!(&l[..4], &[0, 10_000, 15_000, 17_500]);
    assert_eq!(*l.last().unwrap(), 19_999);
    assert!(l.windows(2).all(|w| w[0] < w[1]));
    assert!(l.len() <= 20);
}

#[test]
fn a_list_with_a_big_element_shrinks_to_that_element_at_its_threshold() {
    let g = grammar_of::<Vec<u8>>();
    let fails = |v: &Vec<u8>| v.iter().any(|&x| x >= 10);
    for seed in [1, 2, 3] {
        let input = failing_sample(&g, 150, seed * 100, fails);
        let (v, s) = shrink_by(&g, &input, fails, 100_000);
        assert_eq!(v, vec![10]);
        check_result(&g, &input, &s, &fails, 100_000);
        assert!(s.steps > 0);
    }
}

#[test]
fn a_long_list_shrinks_to_the_shortest_failing_length_of_zeros() {
    let g = grammar_of::<Vec<u8>>();
    let fails = |v: &Vec<u8>| v.len() >= 3;
    let input = failing_sample(&g, 120, 7, fails);
    let (v, s) = shrink_by(&g, &input, fails, 100_000);
    assert_eq!(v, vec![0, 0, 0]);
    check_result(&g, &input, &s, &fails, 100_000);
}

#[test]
fn an_unsigned_number_shrinks_exactly_to_its_threshold() {
    let g = grammar_of::<u64>();
    let fails = |x: &u64| *x >= 1 << 40;
    for seed in [1, 2, 3] {
        let input = failing_sample(&g, 60, seed, fails);
        let (x, s) = shrink_by(&g, &input, fails, 100_000);
        assert_eq!(x, 1 << 40);
        check_result(&g, &input, &s, &fails, 100_000);
    }
}

#[test]
fn a_signed_number_shrinks_to_the_failing_value_of_smallest_magnitude() {
    let g = grammar_of::<i32>();
    let fails = |x: &i32| *x < -1000;
    for seed in [1, 2, 3] {
        let input = failing_sample(&g, 25, seed, fails);
        let (x, s) = shrink_by(&g, &input, fails, 100_000);
        assert_eq!(x, -1001);
        check_result(&g, &input, &s, &fails, 100_000);
    }
    // Failing values of both signs: toward zero, whichever sign is nearer.
    let fails = |x: &i32| x.unsigned_abs() >= 300;
    let input = failing_sample(&g, 30, 9, fails);
    let (x, _) = shrink_by(&g, &input, fails, 100_000);
    assert_eq!(x.unsigned_abs(), 300);
}

/// A binary tree described by hand with the space combinators (what the
/// derive would generate).
#[derive(Clone, Debug, PartialEq)]
enum Bin {
    Tip,
    Fork(Box<Bin>, u8, Box<Bin>),
}

impl Enumerable for Bin {
    fn describe() -> Space<Self> {
        space::datatype(vec![
            Constructor::new("Tip", vec![], |_| Bin::Tip),
            Constructor::new(
                "Fork",
                vec![
                    space::field::<Bin>(),
                    space::field::<u8>(),
                    space::field::<Bin>(),
                ],
                |f| {
                    let l = f.take::<Bin>();
                    let x = f.take::<u8>();
                    let r = f.take::<Bin>();
                    Bin::Fork(Box::new(l), x, Box::new(r))
                },
            ),
        ])
    }
}

impl Bin {
    /// The labels, in no particular order.
    fn labels(&self) -> Vec<u8> {
        let mut out = vec![];
        let mut stack = vec![self];
        while let Some(b) = stack.pop() {
            if let Bin::Fork(l, x, r) = b {
                out.push(*x);
                stack.push(l);
                stack.push(r);
            }
        }
        out
    }

    /// The number of forks on the longest path from the root.
    fn depth(&self) -> usize {
        let mut deepest = 0;
        let mut stack = vec![(self, 0)];
        while let Some((b, d)) = stack.pop() {
            deepest = deepest.max(d);
            if let Bin::Fork(l, _, r) = b {
                stack.push((l, d + 1));
                stack.push((r, d + 1));
            }
        }
        deepest
    }
}

#[test]
fn a_binary_tree_shrinks_to_one_fork_or_to_the_fewest_forks() {
    let g = grammar_of::<Bin>();
    let big_label = |b: &Bin| b.labels().iter().any(|&x| x >= 7);
    let input = failing_sample(&g, 40, 1, big_label);
    let (b, s) = shrink_by(&g, &input, big_label, 100_000);
    assert_eq!(
        b,
        Bin::Fork(Box::new(Bin::Tip), 7, Box::new(Bin::Tip)),
        "a subtree replaced the root, then the rest went minimal"
    );
    check_result(&g, &input, &s, &big_label, 100_000);

    let three_forks = |b: &Bin| b.labels().len() >= 3;
    let input = failing_sample(&g, 50, 1, three_forks);
    let (b, s) = shrink_by(&g, &input, three_forks, 100_000);
    assert_eq!(b.labels(), vec![0, 0, 0]);
    assert_eq!(s.size, 7, "three forks and four tips");
    check_result(&g, &input, &s, &three_forks, 100_000);
}

#[test]
fn a_minimal_failing_value_and_a_zero_budget_leave_the_input_alone() {
    let g = grammar_of::<Vec<u8>>();
    let fails = |v: &Vec<u8>| v.len() >= 2;
    let input = failing_sample(&g, 3, 0, fails);
    let (v, s) = shrink_by(&g, &input, fails, 1000);
    assert_eq!(v, vec![0, 0]);
    assert_eq!((s.steps, s.tree == input), (0, true));
    check_result(&g, &input, &s, &fails, 1000);

    let big = failing_sample(&g, 80, 0, fails);
    let s = shrink(&g, &big, &mut |_| true, 0);
    assert_eq!((s.attempts, s.steps, &s.tree), (0, 0, &big));
}

/// A list of `elems` of the root list sort of `g`, built without sampling
/// (counting values of a size near 40 000 would dominate the test).
fn list_tree(g: &Grammar, elems: &[Tree]) -> Tree {
    let SortKind::Algebraic { chain, .. } = &g.sorts[g.root.index()].kind else {
        panic!("a list is algebraic")
    };
    let (nil, cons) = (chain[0], chain[1]);
    assert!(g.prods[nil.index()].slots.is_empty());
    let mut t = Rc::new(Tree::Node(nil, vec![]));
    for e in elems.iter().rev() {
        t = Rc::new(Tree::Node(cons, vec![Rc::new(e.clone()), t]));
    }
    Rc::try_unwrap(t).expect("the list is not shared")
}

#[test]
fn a_deep_list_shrinks_on_a_small_stack_to_exactly_the_failing_length() {
    let run = || {
        let g = grammar_of::<Vec<bool>>();
        let SortKind::Algebraic { chain, .. } = &g.sorts[g.root.index()].kind else {
            unreachable!()
        };
        let bool_sort = g.prods[chain[1].index()].slots[0];
        let SortKind::Algebraic { chain: bools, .. } = &g.sorts[bool_sort.index()].kind else {
            unreachable!()
        };
        let elems: Vec<Tree> = (0..20_000u64)
            .map(|i| Tree::Node(bools[(i * 7919 % 3 == 0) as usize], vec![]))
            .collect();
        let input = list_tree(&g, &elems);
        let fails = |v: &Vec<bool>| v.len() >= 15_000;
        let (v, s) = shrink_by(&g, &input, fails, 60);
        // Bisection over the tails: 0, 10 000, then 15 000 elements.
        assert_eq!(v.len(), 15_000);
        assert_eq!(s.steps, 1);
        assert!(s.attempts <= 60);
        assert!(s.size < g.tree_size(&input));
    };
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(run)
        .unwrap()
        .join()
        .unwrap();
}

/// A predicate over `(Vec<u8>, u16)`, as data so that proptest can generate
/// and print it. A value *fails* when the predicate holds.
#[derive(Clone, Debug)]
enum Pred {
    LenGe(usize),
    SumGe(u32),
    HasAtLeast(u8),
    Has(u8),
    NumGe(u16),
    NumOdd,
    And(Box<Pred>, Box<Pred>),
    Or(Box<Pred>, Box<Pred>),
    Not(Box<Pred>),
}

impl Pred {
    fn holds(&self, v: &(Vec<u8>, u16)) -> bool {
        match self {
            Pred::LenGe(n) => v.0.len() >= *n,
            Pred::SumGe(n) => v.0.iter().map(|&x| x as u32).sum::<u32>() >= *n,
            Pred::HasAtLeast(x) => v.0.iter().any(|y| y >= x),
            Pred::Has(x) => v.0.contains(x),
            Pred::NumGe(n) => v.1 >= *n,
            Pred::NumOdd => v.1 % 2 == 1,
            Pred::And(a, b) => a.holds(v) && b.holds(v),
            Pred::Or(a, b) => a.holds(v) || b.holds(v),
            Pred::Not(a) => !a.holds(v),
        }
    }

    /// Whether growing the value (longer list, larger numbers) keeps the
    /// predicate true.
    fn monotone(&self) -> bool {
        match self {
            Pred::LenGe(_) | Pred::SumGe(_) | Pred::HasAtLeast(_) | Pred::NumGe(_) => true,
            Pred::Has(_) | Pred::NumOdd | Pred::Not(_) => false,
            Pred::And(a, b) | Pred::Or(a, b) => a.monotone() && b.monotone(),
        }
    }
}

fn pred() -> impl Strategy<Value = Pred> {
    let atom = prop_oneof![
        (0usize..8).prop_map(Pred::LenGe),
        (0u32..700).prop_map(Pred::SumGe),
        any::<u8>().prop_map(Pred::HasAtLeast),
        (0u8..40).prop_map(Pred::Has),
        any::<u16>().prop_map(Pred::NumGe),
        Just(Pred::NumOdd),
    ];
    atom.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Pred::And(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Pred::Or(Box::new(a), Box::new(b))),
            inner.prop_map(|a| Pred::Not(Box::new(a))),
        ]
    })
}

/// The budget for the random predicates: enough for a monotone predicate
/// over values of size below 60 to run out of candidates.
const BUDGET: u64 = 200_000;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_predicates_shrink_to_failing_locally_minimal_values(
        p in pred(),
        size in 5usize..60,
        seed in any::<u64>(),
    ) {
        let g = grammar_of::<(Vec<u8>, u16)>();
        let fails = |v: &(Vec<u8>, u16)| p.holds(v);
        let Some(input) = (0..16)
            .filter_map(|k| sample_tree_in(&g, size, &mut seeded_rng(seed.wrapping_add(k))))
            .find(|t| fails(&value(&g, t)))
        else {
            return Ok(());
        };
        let (_, s) = shrink_by(&g, &input, fails, BUDGET);
        check_result(&g, &input, &s, &fails, BUDGET);
        if p.monotone() {
            prop_assert!(s.attempts < BUDGET, "a monotone predicate ran out of budget");
        }
    }

    #[test]
    fn a_small_budget_is_respected_and_the_result_still_fails(
        p in pred(),
        budget in 0u64..40,
        seed in any::<u64>(),
    ) {
        let g = grammar_of::<(Vec<u8>, u16)>();
        let fails = |v: &(Vec<u8>, u16)| p.holds(v);
        let Some(input) = (0..16)
            .filter_map(|k| sample_tree_in(&g, 40, &mut seeded_rng(seed.wrapping_add(k))))
            .find(|t| fails(&value(&g, t)))
        else {
            return Ok(());
        };
        let (v, s) = shrink_by(&g, &input, fails, budget);
        prop_assert!(fails(&v));
        prop_assert!(s.attempts <= budget);
        prop_assert!(s.size <= g.tree_size(&input));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_tree_thresholds_shrink_to_locally_minimal_trees(
        forks in 0usize..6,
        depth in 0usize..5,
        label in any::<u8>(),
        both in any::<bool>(),
        size in 5usize..60,
        seed in any::<u64>(),
    ) {
        let g = grammar_of::<Bin>();
        let fails = |b: &Bin| {
            let (f, d) = (b.labels().len() >= forks, b.depth() >= depth);
            let l = b.labels().iter().any(|&x| x >= label);
            if both { f && d && l } else { (f && d) || l }
        };
        let Some(input) = (0..16)
            .filter_map(|k| sample_tree_in(&g, size, &mut seeded_rng(seed.wrapping_add(k))))
            .find(|t| fails(&value(&g, t)))
        else {
            return Ok(());
        };
        let (b, s) = shrink_by(&g, &input, fails, BUDGET);
        check_result(&g, &input, &s, &fails, BUDGET);
        prop_assert!(s.attempts < BUDGET, "a monotone predicate ran out of budget");
        if !both && label == 0 && (forks > 0 || depth > 0) {
            // Any fork fails: one fork of the smallest label.
            prop_assert_eq!(b, Bin::Fork(Box::new(Bin::Tip), 0, Box::new(Bin::Tip)));
        }
    }
}

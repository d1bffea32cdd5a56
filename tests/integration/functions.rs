//! Functions as inputs (`Fun`, `Fun2`) against the reference enumeration:
//! every function of a small finite domain is enumerated (completeness),
//! each reference function falls in exactly one run's class with the
//! run's result (no duplicates, exact classes), iterative deepening finds
//! size-minimal counterexamples, for fixed and randomly generated
//! predicates; and the printing, laziness and replay of functions (their
//! misuse is tested inside the crate, `types/function/`).

use crate::common::check_against_reference;
use neatcheck::count::count_of;
use neatcheck::search;
use neatcheck::values::values_up_to;
use neatcheck::{Config, Enumerable, Fun, Fun2, Lazy};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// The tables (results on `domain`) of every function of size `<= bound`.
fn tables<A, B: Enumerable + Clone + Send + Sync + Ord>(
    bound: usize,
    domain: &[A],
) -> BTreeSet<Vec<B>>
where
    A: Enumerable,
{
    values_up_to::<Fun<A, B>>(bound)
        .iter()
        .map(|f| domain.iter().map(&**f).collect())
        .collect()
}

#[test]
fn every_function_of_a_finite_domain_is_enumerated() {
    // bool -> bool: the two constants at size 1 (a `bool` costs 1), the
    // four tables once a case (1 + two results) fits.
    assert_eq!(count_of::<Fun<bool, bool>>(0), 0u32.into());
    assert_eq!(count_of::<Fun<bool, bool>>(1), 2u32.into());
    assert_eq!(count_of::<Fun<bool, bool>>(3), 4u32.into());
    assert_eq!(tables::<bool, bool>(1, &[false, true]).len(), 2);
    assert_eq!(tables::<bool, bool>(3, &[false, true]).len(), 4);

    let options = [None, Some(false), Some(true)];
    assert_eq!(tables::<Option<bool>, bool>(6, &options).len(), 8);

    let bytes = [0u8, 1, 2, 3];
    // The last two tables need splits at 0, 1 and 2 (keys of sizes 0, 1
    // and 2): size 10.
    assert_eq!(tables::<u8, bool>(9, &bytes).len(), 14);
    assert_eq!(tables::<u8, bool>(10, &bytes).len(), 16);

    let lists = [vec![], vec![false], vec![true]];
    assert_eq!(tables::<Vec<bool>, bool>(7, &lists).len(), 8);

    let all: BTreeSet<Vec<bool>> = values_up_to::<Fun2<bool, bool, bool>>(9)
        .iter()
        .map(|f| {
            [(false, false), (false, true), (true, false), (true, true)]
                .iter()
                .map(|(x, y)| f(x, y))
                .collect()
        })
        .collect();
    assert_eq!(all.len(), 16, "every operation on booleans");

    // Results of any type: `bool -> Option<u8>` reaches mixed tables.
    let mixed = tables::<bool, Option<u8>>(5, &[false, true]);
    assert!(mixed.contains(&vec![None, Some(1)]));
    assert!(mixed.contains(&vec![Some(0), Some(0)]));
}

#[test]
fn the_search_over_functions_equals_the_reference() {
    check_against_reference::<Fun<Option<bool>, bool>, _, _>(
        6,
        |f| {
            let f = f.force();
            f(&None) && !f(&Some(true))
        },
        |f| f(&None) && !f(&Some(true)),
        false,
    );
    check_against_reference::<Fun<u8, u8>, _, _>(
        6,
        |f| {
            let f = f.force();
            f(&f(&0)) == f(&0)
        },
        |f| f(&f(&0)) == f(&0),
        false,
    );
    check_against_reference::<Fun2<bool, bool, bool>, _, _>(
        7,
        |op| {
            let op = op.force();
            op(&false, &true) == op(&true, &false)
        },
        |op| op(&false, &true) == op(&true, &false),
        false,
    );
    check_against_reference::<Fun<Vec<bool>, bool>, _, _>(
        7,
        |f| {
            let f = f.force();
            f(&vec![true, false]) == f(&vec![true])
        },
        |f| f(&vec![true, false]) == f(&vec![true]),
        false,
    );
    check_against_reference::<Fun<i8, bool>, _, _>(
        6,
        |f| {
            let f = f.force();
            f(&-3) || !f(&2)
        },
        |f| f(&-3) || !f(&2),
        false,
    );
    check_against_reference::<Fun<bool, Fun<bool, bool>>, _, _>(
        7,
        |f| {
            let f = f.force();
            f(&true)(&false) == f(&false)(&true)
        },
        |f| f(&true)(&false) == f(&false)(&true),
        false,
    );
    check_against_reference::<(Fun<u8, bool>, Vec<u8>), _, _>(
        7,
        |input| {
            let (f, xs) = input.force();
            xs.iter().filter(|x| f(x)).count() < 2
        },
        |(f, xs)| xs.iter().filter(|x| f(x)).count() < 2,
        false,
    );
    // Read through `Lazy::apply`: the results are positions, read as far
    // as the property reads them.
    check_against_reference::<Fun<u8, Option<bool>>, _, _>(
        6,
        |f| match f.apply(&2).view() {
            None => true,
            Some(b) => b.get() && f.apply(&1).view().is_some(),
        },
        |f| match f(&2) {
            None => true,
            Some(b) => b && f(&1).is_some(),
        },
        false,
    );
}

/// Functions applied to lazy arguments (`Lazy::apply_lazy`): the search
/// reads an argument only where a decision looks at it, and its classes
/// are still exact.
#[test]
fn lazy_arguments_are_read_only_where_decided_on() {
    let lazy_all = |input: Lazy<'_, (Fun<u8, bool>, Vec<u8>)>| {
        let (p, xs) = input.view();
        xs.iter().all(|x| p.apply_lazy(x).get())
    };
    let summary = check_against_reference::<(Fun<u8, bool>, Vec<u8>), _, _>(
        7,
        lazy_all,
        |(p, xs)| xs.iter().all(&**p),
        false,
    );
    // Reading the elements whole (`apply`) needs more runs for the same
    // answers.
    let whole = search::classes(
        |input: Lazy<'_, (Fun<u8, bool>, Vec<u8>)>| {
            let (p, xs) = input.view();
            xs.iter().all(|x| p.apply(&x.get()).get())
        },
        7,
    );
    assert!(
        summary.runs < whole.runs,
        "{} vs {}",
        summary.runs,
        whole.runs
    );

    check_against_reference::<(Fun<Option<u8>, bool>, Option<u8>, Option<u8>), _, _>(
        7,
        |input| {
            let (f, x, y) = input.view();
            f.apply_lazy(x).get() || !f.apply_lazy(y).get()
        },
        |(f, x, y)| f(x) || !f(y),
        false,
    );
    check_against_reference::<(Fun2<i8, bool, bool>, i8, bool), _, _>(
        7,
        |input| {
            let (op, x, b) = input.view();
            op.apply_lazy(x, b).get() == b.get()
        },
        |(op, x, b)| op(x, b) == *b,
        false,
    );
}

/// A random property of a function: `f` at each probe compared with the
/// expected result, the comparisons combined by `all`, `any` or parity.
#[derive(Clone, Debug)]
struct Probes {
    probes: Vec<(u8, bool)>,
    combine: u8,
}

impl Probes {
    fn holds(&self, f: &dyn Fn(&u8) -> bool) -> bool {
        let mut results = self.probes.iter().map(|(x, want)| f(x) == *want);
        match self.combine % 3 {
            0 => results.all(|r| r),
            1 => results.any(|r| r),
            _ => results.filter(|&r| r).count() % 2 == 0,
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_properties_of_functions_equal_the_reference(
        probes in proptest::collection::vec((0u8..6, any::<bool>()), 1..4),
        combine in 0u8..3,
    ) {
        let p = Probes { probes, combine };
        let summary = check_against_reference::<Fun<u8, bool>, _, _>(
            6,
            |f| p.holds(&*f.force()),
            |f| p.holds(&**f),
            false,
        );
        // The check's counterexample is a smallest one. The bound limits
        // only the exhaustive phase: when nothing fails up to it, the
        // random phase may still find a larger counterexample, and that one
        // is real and shrunk to a smallest.
        match Config::default().max_size(6).try_check(|f: Fun<u8, bool>| p.holds(&*f)) {
            Ok(_) => prop_assert_eq!(summary.min_false, None),
            Err(c) => match summary.min_false {
                Some(size) => prop_assert_eq!(c.size, size),
                None => {
                    prop_assert!(c.size > 6);
                    prop_assert!(!p.holds(&*c.value));
                    let below = search::ctrex(
                        |f: Lazy<'_, Fun<u8, bool>>| p.holds(&*f.force()),
                        c.size as usize - 1,
                    );
                    prop_assert!(below.is_ok(), "a smaller counterexample: {:?}", below);
                }
            },
        }
    }
}

#[derive(Enumerable, Clone, Debug, PartialEq)]
enum Shape {
    Dot,
    Circle(u8),
    Rect { w: u8, h: u8 },
}

#[derive(Enumerable, Clone, Debug, PartialEq)]
struct Point {
    x: i8,
    y: i8,
}

/// What a failing check reports for a function: `Debug` and the pattern.
fn shown<T: Enumerable + std::fmt::Debug>(
    c: Result<neatcheck::check::Summary, Box<neatcheck::check::Counterexample<T>>>,
) -> (String, String) {
    let c = c.expect_err("a counterexample");
    (format!("{:?}", c.value), c.pattern.clone())
}

#[test]
fn counterexamples_print_functions_as_a_match() {
    let check = Config::default();
    let (value, _) = shown(check.try_check(|f: Fun<u8, bool>| !f(&0) || f(&1)));
    assert_eq!(value, "|x| match x { 0 => true, _ => false }");

    let (value, _) = shown(check.try_check(|f: Fun<Option<u8>, u8>| f(&None) == f(&Some(2))));
    assert_eq!(value, "|x| match x { None => 0, _ => 1 }");

    let (value, _) =
        shown(check.try_check(|op: Fun2<bool, bool, bool>| op(&false, &true) == op(&true, &false)));
    assert_eq!(
        value,
        "|x, y| match (x, y) { (_, false) => true, _ => false }"
    );

    // A range split, and the pattern: the branch never reached is `_`.
    let (value, pattern) =
        shown(check.try_check(|f: Fun<Vec<bool>, bool>| f(&vec![true, false]) == f(&vec![true])));
    assert_eq!(value, "|x| match x { [_] => true, _ => false }");
    assert_eq!(
        pattern,
        "|x| match x { [_] => true, [_, _, ..] => false, _ => _ }"
    );

    let (value, _) = shown(check.try_check(|f: Fun<Shape, bool>| {
        f(&Shape::Rect { w: 1, h: 2 }) == f(&Shape::Rect { w: 1, h: 3 })
    }));
    assert_eq!(
        value,
        "|x| match x { Rect { w: _, h: 3.. } => true, _ => false }"
    );

    let (value, _) =
        shown(check.try_check(|f: Fun<Point, bool>| {
            f(&Point { x: -2, y: 0 }) == f(&Point { x: 5, y: 0 })
        }));
    assert_eq!(
        value,
        "|x| match x { Point { x: ..=0, y: _ } => false, _ => true }"
    );

    let (value, _) = shown(check.try_check(|f: Fun<char, bool>| f(&'a') == f(&'b')));
    assert_eq!(value, "|x| match x { ..='a' => false, _ => true }");
}

#[test]
fn a_function_is_read_only_as_far_as_it_is_applied() {
    // Never applied: one run whatever the bound.
    assert_eq!(search::classes(|_: Lazy<Fun<u8, bool>>| true, 12).runs, 1);
    // Applied, its result not read: the decisions on the way only.
    let decisions = search::classes(
        |f: Lazy<Fun<bool, bool>>| {
            let _ = f.apply(&true);
            true
        },
        9,
    );
    // Skip, or a case (whose `true` branch is then the result).
    assert_eq!(decisions.runs, 2);
    // Its result read: each result and each way to it.
    let results = search::classes(|f: Lazy<Fun<bool, bool>>| f.apply(&true).get(), 9);
    assert_eq!(results.runs, 4);
}

#[test]
fn a_function_counterexample_replays_from_its_key() {
    let prop = |f: Fun<u8, u8>, x: u8| f(&f(&x)) == f(&x);
    let c = Config::default()
        .try_check(prop)
        .expect_err("a counterexample");
    let again = Config::default()
        .replay(c.key.clone())
        .try_check(prop)
        .expect_err("the replayed counterexample");
    assert_eq!(again.value, c.value);
    assert_eq!(format!("{:?}", again.value), format!("{:?}", c.value));
}

/// A function as a field of a derived type.
#[derive(Enumerable, Clone, Debug, PartialEq)]
struct Handler {
    accepts: Fun<u8, bool>,
    fallback: bool,
}

#[test]
fn a_function_is_a_field_of_a_derived_type() {
    let c = Config::default()
        .try_check(|h: Handler| h.fallback || !(h.accepts)(&7))
        .expect_err("a counterexample");
    assert!(c.value.fallback.eq(&false) && c.value.accepts.call(&7));
    assert_eq!(
        format!("{:?}", c.value),
        "Handler { accepts: |_| true, fallback: false }"
    );
}

#[test]
fn function_spaces_are_counted_indexed_and_sampled() {
    use neatcheck::index::Indexer;
    let indexer = Indexer::<Fun<Option<bool>, bool>>::new();
    for size in 0..=6 {
        let listed = neatcheck::values::values_of::<Fun<Option<bool>, bool>>(size);
        assert_eq!(
            indexer.cardinality(size),
            listed.len().into(),
            "size {size}"
        );
        for (i, f) in listed.iter().enumerate() {
            assert_eq!(&indexer.index(size, &i.into()), f, "size {size} index {i}");
        }
    }
    let mut rng = neatcheck::index::seeded_rng(7);
    // Sizes are odd: a case costs 1 and each of its results 1 more.
    assert!(indexer.sample(6, &mut rng).is_none());
    let drawn = indexer.sample(5, &mut rng).expect("functions of size 5");
    assert!(neatcheck::values::values_of::<Fun<Option<bool>, bool>>(5).contains(&drawn));
}

#[test]
fn threads_find_the_same_function() {
    let prop = |f: Fun2<u8, u8, bool>, x: u8, y: u8| f(&x, &y) == f(&y, &x);
    let one = Config::default()
        .try_check(prop)
        .expect_err("not symmetric");
    let two = Config::default()
        .threads(2)
        .try_check(prop)
        .expect_err("not symmetric");
    assert_eq!(one.value, two.value);
    assert_eq!(one.size, two.size);
}

#[derive(Enumerable, Clone, Debug, PartialEq)]
enum Tree {
    Leaf,
    Node(Box<Tree>, u8, Box<Tree>),
}

/// Trees as arguments (two recursive fields): the pending positions are
/// capped, and the search still finds a function that tells two trees
/// apart deep on the right.
#[test]
fn functions_of_trees_decide_on_deep_positions() {
    let deep = Tree::Node(
        Box::new(Tree::Leaf),
        0,
        Box::new(Tree::Node(Box::new(Tree::Leaf), 0, Box::new(Tree::Leaf))),
    );
    let c = Config::default()
        .try_check(move |f: Fun<Tree, bool>| f(&deep) == f(&Tree::Leaf) || !f(&Tree::Leaf))
        .expect_err("a function telling them apart");
    let f = &c.value;
    assert!(f(&Tree::Leaf));
    assert!(!f(&Tree::Node(
        Box::new(Tree::Leaf),
        0,
        Box::new(Tree::Node(Box::new(Tree::Leaf), 0, Box::new(Tree::Leaf)))
    )));
}

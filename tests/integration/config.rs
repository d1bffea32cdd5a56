//! `Config`, the one way to run a property: every operation honours every
//! option the same way (threads, shards, given spaces, budgets, strategy),
//! checked against the sequential, unsharded search and the reference
//! enumeration.

use neatcheck::cool::{formula, Cool, Strategy};
use neatcheck::search::BoundResult;
use neatcheck::{space, Config, Lazy};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// Lists of booleans with two trues in a row (reads a prefix).
fn two_trues(xs: Lazy<'_, Vec<bool>>) -> bool {
    let mut previous = false;
    for x in xs.iter() {
        let x = x.get();
        if previous && x {
            return true;
        }
        previous = x;
    }
    false
}

#[test]
fn satisfying_inputs_of_the_shards_are_those_of_the_whole_search() {
    let config = Config::default().max_size(9);
    let mut whole: Vec<Vec<bool>> = config.satisfying(two_trues).collect();
    assert!(!whole.is_empty());
    for count in 1..=4 {
        let mut parts: Vec<Vec<bool>> = (1..=count)
            .flat_map(|i| {
                config
                    .clone()
                    .shard(i, count)
                    .satisfying(two_trues)
                    .collect::<Vec<_>>()
            })
            .collect();
        parts.sort();
        whole.sort();
        assert_eq!(parts, whole, "{count} shards");
    }
}

#[test]
fn sat_agrees_on_threads_and_over_shards() {
    let config = Config::default().max_size(7);
    for (bound, expected) in [(3, false), (4, false), (5, true), (7, true)] {
        let config = config.clone().max_size(bound);
        assert_eq!(config.sat(two_trues), expected, "bound {bound}");
        for threads in 1..=3 {
            assert_eq!(
                config.clone().threads(threads).sat(two_trues),
                expected,
                "bound {bound}, {threads} threads"
            );
        }
        let in_some_shard = (1..=3).any(|i| config.clone().shard(i, 3).sat(two_trues));
        assert_eq!(in_some_shard, expected, "bound {bound}, shards");
    }
}

#[test]
fn searches_over_given_spaces_count_the_reference_values() {
    let config = Config::default()
        .max_size(6)
        .spaces(|| space::range(-3, 3, |k: i64| k));
    let classes = config.classes(|k: Lazy<i64>| k.get() > 0);
    // A whole read of each value: one class per value of the space.
    let values: usize = (0..=6)
        .map(|n| neatcheck::values::values_in(&space::range(-3, 3, |k: i64| k), n).len())
        .sum();
    assert_eq!(classes.runs, values as u64);
    assert_eq!(classes.satisfying, 3);
    assert!(classes.complete);
    let found = config
        .ctrex(|k: Lazy<i64>| k.get() < 2)
        .counterexample()
        .expect("2 and 3 are in the space");
    assert!(found.value >= 2);
}

#[test]
fn a_search_budget_is_set_by_runs_and_cuts_exactly() {
    let always = |xs: Lazy<Vec<bool>>| xs.iter().filter(|b| b.get()).count() < 100;
    let whole = Config::default().max_size(8).classes(always);
    assert!(whole.complete);
    let cut = Config::default().max_size(8).runs(10).classes(always);
    assert_eq!((cut.runs, cut.complete), (10, false));
    match Config::default().max_size(8).runs(10).ctrex(always) {
        BoundResult::OutOfBudget(runs) => assert_eq!(runs, 10),
        other => panic!("expected the budget to cut the search, got {other:?}"),
    }
    // A check's default budget is not a search's: searches run to the end.
    assert_eq!(
        Config::default().max_size(8).ctrex(always).runs(),
        whole.runs
    );
}

#[test]
fn a_property_on_one_thread_may_keep_state_and_take_an_rc() {
    let calls = Cell::new(0u64);
    let seen = RefCell::new(Vec::new());
    let summary = Config::default()
        .max_size(5)
        .samples(0, 0)
        .try_check(|xs: Lazy<Vec<bool>>| {
            calls.set(calls.get() + 1);
            seen.borrow_mut().push(xs.len());
            xs.len() < 100
        })
        .expect("passes");
    assert_eq!(calls.get(), summary.runs);
    assert_eq!(seen.borrow().len() as u64, summary.runs);
    let failure = Config::default()
        .try_check(|x: Rc<u8>| *x < 9)
        .expect_err("9 fails");
    assert_eq!(*failure.value, 9);
}

#[test]
fn a_formula_is_a_property_of_every_operation() {
    let prop = formula(|xs: Lazy<Vec<bool>>| {
        Cool::atom(move || xs.len() < 3) | Cool::atom(move || xs.iter().any(|x| x.get()))
    });
    for strategy in [Strategy::D, Strategy::OF, Strategy::OSF] {
        let config = Config::default().strategy(strategy);
        let failure = config.try_check(prop).expect_err("three falses");
        assert_eq!(failure.value, vec![false, false, false], "{strategy:?}");
        let sequential = config.clone().max_size(8).classes(prop);
        let parallel = config.clone().max_size(8).threads(2).classes(prop);
        assert_eq!(sequential, parallel, "{strategy:?}");
    }
}

#[test]
fn an_unbounded_size_over_a_finite_type_of_huge_sizes_searches_at_once() {
    // A linear `i64` is finite, with sizes up to 2^63: a size bound past
    // them (here none at all) once made the driver count every size to
    // see whether the exhaustive phase covers the type.
    let failure = Config::default()
        .max_size(usize::MAX)
        .runs(u64::MAX)
        .samples(0, 0)
        .regressions(false)
        .try_check(|x: space::Linear<i64>| x.0 < 30)
        .expect_err("30 is not below 30");
    assert_eq!(failure.value.0, 30);
    assert!(failure.is_minimal());
}

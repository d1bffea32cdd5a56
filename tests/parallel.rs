//! Parallel search against the sequential search: the same run counts,
//! satisfying classes, first counterexample (value, pattern, runs) and
//! first panic, for fixed and randomly generated predicates, any number of
//! threads and any cut depth.

#[path = "../benches/benchmarks/mod.rs"]
mod benchmarks;

use neatcheck::cool::Strategy as ConjStrategy;
use neatcheck::search::{self, BoundResult, Budget, Parallel};
use neatcheck::{Enumerable, Lazy};
use proptest::prelude::*;
use std::fmt::Debug;

#[derive(Enumerable, Debug, Clone, PartialEq, Eq)]
enum Tree {
    Leaf,
    Node(Box<Tree>, bool, Box<Tree>),
}

/// A predicate over `Tree`, as data (so proptest can generate it).
#[derive(Debug, Clone)]
enum Pred {
    /// The subtree at the path (false: left) is a leaf.
    IsLeaf(Vec<bool>),
    /// The node at the path has label true.
    Label(Vec<bool>),
    /// At least k nodes (reads everything).
    NodesGe(usize),
    Not(Box<Pred>),
    And(Box<Pred>, Box<Pred>),
    Or(Box<Pred>, Box<Pred>),
}

fn at<'a>(t: Lazy<'a, Tree>, path: &[bool]) -> Option<Lazy<'a, Tree>> {
    let mut cur = t;
    for &right in path {
        match cur.view() {
            TreeView::Leaf => return None,
            TreeView::Node(l, _, r) => cur = if right { r } else { l },
        }
    }
    Some(cur)
}

fn nodes(t: Lazy<'_, Tree>) -> usize {
    match t.view() {
        TreeView::Leaf => 0,
        TreeView::Node(l, _, r) => 1 + nodes(l) + nodes(r),
    }
}

fn eval(p: &Pred, t: Lazy<'_, Tree>) -> bool {
    match p {
        Pred::IsLeaf(path) => at(t, path).is_some_and(|s| matches!(s.view(), TreeView::Leaf)),
        Pred::Label(path) => at(t, path).is_some_and(|s| match s.view() {
            TreeView::Leaf => false,
            TreeView::Node(_, b, _) => b.get(),
        }),
        Pred::NodesGe(k) => nodes(t) >= *k,
        Pred::Not(a) => !eval(a, t),
        Pred::And(a, b) => eval(a, t) && eval(b, t),
        Pred::Or(a, b) => eval(a, t) || eval(b, t),
    }
}

fn pred() -> impl Strategy<Value = Pred> {
    let path = || prop::collection::vec(any::<bool>(), 0..4);
    let leaf = prop_oneof![
        path().prop_map(Pred::IsLeaf),
        path().prop_map(Pred::Label),
        (0usize..5).prop_map(Pred::NodesGe),
    ];
    leaf.prop_recursive(4, 16, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|a| Pred::Not(Box::new(a))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Pred::And(Box::new(a), Box::new(b))),
            (inner.clone(), inner).prop_map(|(a, b)| Pred::Or(Box::new(a), Box::new(b))),
        ]
    })
}

/// Asserts that every parallel configuration gives the sequential results.
fn agrees<T, P>(prop: P, bound: usize, configs: &[Parallel]) -> Result<(), TestCaseError>
where
    T: Enumerable + Send + Debug + PartialEq,
    P: Fn(Lazy<'_, T>) -> bool + Sync,
{
    let seq = search::classes(&prop, bound);
    let seq_ctrex = search::ctrex_within(&prop, bound, Budget::unlimited());
    for par in configs {
        prop_assert_eq!(par.classes(&prop, bound), seq, "classes with {:?}", par);
        match (
            &seq_ctrex,
            par.ctrex_within(&prop, bound, Budget::unlimited()),
        ) {
            (BoundResult::Passed(a), BoundResult::Passed(b)) => prop_assert_eq!(*a, b),
            (BoundResult::Failed(a), BoundResult::Failed(b)) => {
                prop_assert_eq!(&a.value, &b.value, "counterexample with {:?}", par);
                prop_assert_eq!(&a.pattern, &b.pattern);
                prop_assert_eq!(a.runs, b.runs, "runs to the counterexample with {:?}", par);
                prop_assert_eq!(a.size, b.size);
            }
            (a, b) => prop_assert!(false, "sequential {a:?}, parallel {b:?} with {par:?}"),
        }
    }
    Ok(())
}

fn configs() -> Vec<Parallel> {
    let mut out = vec![];
    for threads in 1..=3 {
        for depth in [1, 2, 3, 5, 8] {
            out.push(Parallel::new(threads).with_split_depth(depth));
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn random_predicates_agree_with_the_sequential_search(p in pred(), bound in 5usize..=13) {
        agrees::<Tree, _>(|t| eval(&p, t), bound, &configs())?;
    }
}

#[test]
fn fixed_predicates_agree_with_the_sequential_search() {
    let sorted = |xs: Lazy<Vec<u8>>| {
        let v: Vec<u8> = xs.iter().map(|x| x.get()).collect();
        v.windows(2).all(|w| w[0] <= w[1])
    };
    agrees::<Vec<u8>, _>(sorted, 11, &configs()).unwrap();
    let no_two_trues = |xs: Lazy<Vec<bool>>| !xs.iter().any(|b| b.get()) || xs.len() < 3;
    agrees::<Vec<bool>, _>(no_two_trues, 14, &configs()).unwrap();
    let always = |_: Lazy<Vec<bool>>| true;
    agrees::<Vec<bool>, _>(always, 9, &configs()).unwrap();
    let never = |_: Lazy<Vec<bool>>| false;
    agrees::<Vec<bool>, _>(never, 9, &configs()).unwrap();
}

#[test]
fn benchmarks_agree_with_the_reference_counts() {
    use benchmarks::{lambda, redblack, regexp};
    let par = Parallel::new(2).with_split_depth(3);
    // Reference all-mode counts (shared/benchmarks): runs per bound.
    assert_eq!(
        par.classes(lambda::prop, 14).runs,
        search::classes(lambda::prop, 14).runs
    );
    assert_eq!(par.classes(regexp::prop, 12).runs, 3898);
    assert_eq!(
        par.classes(redblack::prop, 24).runs,
        search::classes(redblack::prop, 24).runs
    );
    // The first counterexamples, with the reference's run counts.
    let BoundResult::Failed(c) = par.ctrex_within(&lambda::prop, 17, Budget::unlimited()) else {
        panic!("Lambda has a counterexample at 17")
    };
    assert_eq!(c.runs, 10239);
    let BoundResult::Failed(c) = par.ctrex_within(&redblack::prop, 31, Budget::unlimited()) else {
        panic!("RedBlack has a counterexample at 31")
    };
    assert_eq!(c.runs, 20477);
}

#[test]
fn formulas_agree_under_every_strategy() {
    use benchmarks::imperative;
    for strategy in ConjStrategy::ALL {
        let seq = search::classes_cool(imperative::prop, 12, strategy);
        for threads in [2, 3] {
            let par = Parallel::new(threads).with_split_depth(2);
            assert_eq!(
                par.classes_cool(imperative::prop, 12, strategy),
                seq,
                "{strategy:?}"
            );
        }
    }
}

/// Panics on trees whose root's right child is a node labelled true.
fn boom(t: Lazy<'_, Tree>) -> bool {
    if let TreeView::Node(_, _, r) = t.view() {
        if let TreeView::Node(_, b, _) = r.view() {
            assert!(!b.get(), "boom");
        }
    }
    true
}

#[test]
fn the_first_panic_is_raised_as_in_the_sequential_search() {
    let seq = std::panic::catch_unwind(|| search::classes(boom, 9)).unwrap_err();
    let seq = neatcheck_message(&*seq);
    for par in configs() {
        let got = std::panic::catch_unwind(|| par.classes(boom, 9)).unwrap_err();
        assert_eq!(neatcheck_message(&*got), seq, "{par:?}");
    }
    // In a counterexample search, a panic is the counterexample.
    let BoundResult::Failed(c) = Parallel::new(2).ctrex_within(&boom, 9, Budget::unlimited())
    else {
        panic!("a panic is a counterexample")
    };
    assert!(c.panicked);
    assert_eq!(c.reason.as_deref(), Some("boom"));
}

fn neatcheck_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

#[test]
fn budgets_stop_parallel_searches() {
    let always = |xs: Lazy<Vec<bool>>| xs.iter().filter(|b| b.get()).count() < 1000;
    let budget = Budget {
        deadline: None,
        max_runs: Some(1000),
    };
    let par = Parallel::new(2);
    assert_eq!(par.classes_within(always, 30, budget), None);
    match par.ctrex_within(&always, 30, budget) {
        BoundResult::OutOfBudget(runs) => assert!(runs >= 1000, "{runs}"),
        other => panic!("expected out of budget, got {other:?}"),
    }
    // A budget that is not reached changes nothing.
    let roomy = Budget {
        deadline: None,
        max_runs: Some(1 << 40),
    };
    assert_eq!(
        par.classes_within(always, 12, roomy),
        Some(search::classes(always, 12))
    );
}

#[test]
fn tiny_and_empty_searches() {
    for par in configs() {
        // Bound 0: no value fits.
        assert_eq!(par.classes(|_: Lazy<Vec<bool>>| true, 0).runs, 0);
        // Bound 1: only the empty list (no unit below the root).
        assert_eq!(par.classes(|_: Lazy<Vec<bool>>| true, 1).runs, 1);
    }
    // A huge bound with a predicate that reads little.
    let empty = |xs: Lazy<Vec<bool>>| xs.is_empty();
    let huge = Parallel::new(2).classes(empty, 10_000);
    assert_eq!(huge, search::classes(empty, 10_000));
    assert_eq!((huge.runs, huge.satisfying), (2, 1));
}

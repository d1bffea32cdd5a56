//! Tests of splitting on demand: generated predicates searched by workers
//! that give work away whenever one is idle, on threads and on the
//! simulated scheduler (where splitting is deterministic), against the
//! sequential search.

use super::simulate::with_simulation;
use super::{with_donations_after, Parallel};
use crate::cool::{Cool, Strategy as ConjStrategy};
use crate::handle::Lazy;
use crate::search::{self, BoundResult, Budget, Searcher};
use proptest::prelude::*;

#[derive(crate::Enumerable, Debug, Clone, PartialEq)]
enum Tree {
    Leaf,
    Node(Box<Tree>, u8, Box<Tree>),
}

/// A predicate over `Tree`, as data (so proptest can generate it).
#[derive(Debug, Clone)]
enum Pred {
    /// The subtree at the path (false: left) is a leaf.
    IsLeaf(Vec<bool>),
    /// The node at the path has a label below k.
    LabelBelow(Vec<bool>, u8),
    /// At least k nodes (reads every constructor).
    NodesAtLeast(usize),
    /// Labels strictly increase in order (reads lazily, left to right).
    Ordered,
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

/// Whether the labels of `t` increase strictly and lie in `(lo, hi)`.
fn ordered_within(t: Lazy<'_, Tree>, lo: Option<u8>, hi: Option<u8>) -> bool {
    match t.view() {
        TreeView::Leaf => true,
        TreeView::Node(l, k, r) => {
            let k = k.get();
            lo.is_none_or(|lo| lo < k)
                && hi.is_none_or(|hi| k < hi)
                && ordered_within(l, lo, Some(k))
                && ordered_within(r, Some(k), hi)
        }
    }
}

fn eval(p: &Pred, t: Lazy<'_, Tree>) -> bool {
    match p {
        Pred::IsLeaf(path) => at(t, path).is_some_and(|s| matches!(s.view(), TreeView::Leaf)),
        Pred::LabelBelow(path, k) => at(t, path).is_some_and(|s| match s.view() {
            TreeView::Leaf => false,
            TreeView::Node(_, b, _) => b.get() < *k,
        }),
        Pred::NodesAtLeast(k) => nodes(t) >= *k,
        Pred::Ordered => ordered_within(t, None, None),
        Pred::Not(a) => !eval(a, t),
        Pred::And(a, b) => eval(a, t) && eval(b, t),
        Pred::Or(a, b) => eval(a, t) || eval(b, t),
    }
}

fn pred() -> impl Strategy<Value = Pred> {
    let path = || prop::collection::vec(any::<bool>(), 0..4);
    let leaf = prop_oneof![
        path().prop_map(Pred::IsLeaf),
        (path(), 0u8..6).prop_map(|(p, k)| Pred::LabelBelow(p, k)),
        (0usize..5).prop_map(Pred::NodesAtLeast),
        Just(Pred::Ordered),
    ];
    leaf.prop_recursive(4, 16, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|a| Pred::Not(Box::new(a))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Pred::And(Box::new(a), Box::new(b))),
            (inner.clone(), inner).prop_map(|(a, b)| Pred::Or(Box::new(a), Box::new(b))),
        ]
    })
}

/// Runs `f` on real threads and on the simulated scheduler, with work
/// given away whenever a worker is idle.
fn both_schedulers<R>(f: impl Fn() -> R) -> [R; 2] {
    with_donations_after(0, || [f(), with_simulation(&f)])
}

/// The same verdict: variant, run counts, counterexample.
fn same_verdict(a: &BoundResult<Tree>, b: &BoundResult<Tree>) -> bool {
    match (a, b) {
        (BoundResult::Passed(x), BoundResult::Passed(y))
        | (BoundResult::OutOfBudget(x), BoundResult::OutOfBudget(y)) => x == y,
        (BoundResult::Failed(x), BoundResult::Failed(y)) => {
            (&x.value, &x.pattern, x.runs, x.size) == (&y.value, &y.pattern, y.runs, y.size)
        }
        _ => false,
    }
}

/// Asserts that 1 to 4 workers splitting as much as they can give the
/// sequential classes and first counterexample, within every budget around
/// the run counts that matter.
fn agrees(p: &Pred, bound: usize) -> Result<(), TestCaseError> {
    let prop = |t: Lazy<'_, Tree>| eval(p, t);
    let seq = search::classes(prop, bound);
    let unlimited = Budget::unlimited();
    let seq_ctrex = crate::engine::ctrex_within(&prop, bound, unlimited);
    let first_failure = match &seq_ctrex {
        BoundResult::Failed(c) => c.runs,
        _ => seq.runs,
    };
    let mut budgets = vec![None, Some(0), Some(1), Some(seq.runs), Some(seq.runs - 1)];
    budgets.extend([first_failure - 1, first_failure, first_failure / 2].map(Some));
    for threads in 1..=4 {
        let par = Parallel::new(threads);
        for classes in both_schedulers(|| par.classes(prop, bound)) {
            prop_assert_eq!(classes, seq, "{} workers", threads);
        }
        for max_runs in &budgets {
            let budget = Budget {
                deadline: None,
                max_runs: *max_runs,
            };
            let expected = crate::engine::ctrex_within(&prop, bound, budget);
            for got in both_schedulers(|| par.ctrex_within(&prop, bound, budget)) {
                prop_assert!(
                    same_verdict(&got, &expected),
                    "{} workers, max_runs {:?}: sequential {:?}, parallel {:?}",
                    threads,
                    max_runs,
                    expected,
                    got
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn generated_predicates_agree_with_the_sequential_search_however_work_is_split(
        p in pred(),
        bound in 4usize..=10,
    ) {
        agrees(&p, bound)?;
    }
}

#[test]
fn fixed_predicates_agree_with_the_sequential_search_however_work_is_split() {
    let ordered = Pred::Ordered;
    let big_and_ordered = Pred::And(Box::new(Pred::NodesAtLeast(3)), Box::new(Pred::Ordered));
    for (p, bound) in [(ordered, 12), (big_and_ordered, 11)] {
        agrees(&p, bound).unwrap();
    }
}

#[test]
fn nodes_in_search_order_have_increasing_paths() {
    let mut s = Searcher::<Tree>::new(10);
    let (mut path, mut previous) = (vec![], None::<Vec<u32>>);
    let mut runs = 0;
    while s.advance() {
        s.path_at(s.pending_depth(), &mut path);
        assert_eq!(path.len(), s.pending_depth());
        assert!(
            previous.as_ref().is_none_or(|p| *p < path),
            "{previous:?} then {path:?}"
        );
        previous = Some(path.clone());
        s.step(|t| ordered_within(t, None, None));
        runs += 1;
    }
    assert_eq!(
        runs,
        search::classes(|t: Lazy<'_, Tree>| ordered_within(t, None, None), 10).runs
    );
}

#[test]
fn simulated_workers_split_the_work_and_do_it_once() {
    let ordered = |t: Lazy<'_, Tree>| ordered_within(t, None, None);
    let seq = search::classes(ordered, 14);
    let balance = Parallel::new(4).simulate(ordered, 14);
    assert_eq!(balance.classes, seq);
    // Every node run once, by some worker; everyone worked.
    let runs: u64 = balance.workers.iter().map(|w| w.runs).sum();
    assert_eq!(runs, seq.runs);
    assert!(balance.workers.iter().all(|w| w.runs > 0 && w.units > 0));
    let given: u64 = balance.workers.iter().map(|w| w.given).sum();
    let taken: u64 = balance.workers.iter().map(|w| w.units).sum();
    assert_eq!(
        taken,
        given + 1,
        "the whole tree, and every unit given away"
    );
    // Time steps: every run and replay, and every wait, of every worker,
    // fit within the makespan.
    for w in &balance.workers {
        assert!(w.runs + w.replays + w.idle <= balance.makespan, "{w:?}");
    }
    assert!(
        balance.makespan < seq.runs,
        "some work overlapped: {balance:?}"
    );
    // The schedule is deterministic.
    assert_eq!(Parallel::new(4).simulate(ordered, 14), balance);
}

/// A formula: an ordered tree with a small root label and a leaf on the left.
fn formula<'a>(t: Lazy<'a, Tree>) -> Cool<'a> {
    let small_root = Cool::atom(move || eval(&Pred::LabelBelow(vec![], 3), t));
    let left_leaf = Cool::atom(move || eval(&Pred::IsLeaf(vec![false]), t));
    let ordered = Cool::atom(move || ordered_within(t, None, None));
    let big = Cool::atom(move || nodes(t) >= 2);
    Cool::all([ordered, small_root.or(left_leaf), big])
}

#[test]
fn strategies_keep_their_schedules_on_units_restarted_by_replay() {
    for strategy in ConjStrategy::ALL {
        let seq = neatcheck::Config::default()
            .max_size(10)
            .strategy(strategy)
            .classes(formula);
        for threads in [2, 3] {
            let par = Parallel::new(threads);
            for got in both_schedulers(|| par.classes_cool(formula, 10, strategy)) {
                assert_eq!(got, seq, "{strategy:?}, {threads} workers");
            }
        }
    }
}

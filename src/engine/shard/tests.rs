//! The partition of a search into shards against the whole search: for
//! proptest-generated predicates (booleans and `Cool` formulas under every
//! strategy), every shard count 1 to 4 and several cut depths, the shards'
//! runs are the whole search's runs, each in exactly one shard and in
//! sequential order, and the earliest of their counterexamples is the whole
//! search's.

use crate::cool::Cool;
use crate::cool::Strategy as Conjunctions;
use crate::engine::{self as search, BoundResult, Budget, RunResult, Searcher, Shard};
use crate::grammar::Tree;
use crate::handle::Lazy;
use proptest::prelude::*;
use std::collections::HashMap;
use std::fmt::Debug;

#[derive(crate::Enumerable, Debug, Clone, PartialEq)]
enum Bin {
    Tip,
    Fork(Box<Bin>, bool, Box<Bin>),
}

/// The cut depths tried: the shallowest, small ones, and the default.
fn depths() -> Vec<Option<usize>> {
    vec![Some(1), Some(2), Some(3), Some(5), None]
}

fn shards(count: usize, depth: Option<usize>) -> Vec<Shard> {
    (1..=count)
        .map(|i| {
            let s = Shard::new(i, count);
            depth.map_or(s, |d| s.with_depth(d))
        })
        .collect()
}

/// The runs a searcher counts, in order: each value run and its outcome.
fn counted_runs<T: 'static>(
    mut s: Searcher<T>,
    step: &dyn Fn(&mut Searcher<T>) -> Option<RunResult>,
) -> Vec<(Tree, RunResult)> {
    let mut out = vec![];
    while let Some(r) = step(&mut s) {
        if !s.replaying() {
            out.push((s.tree(), r));
        }
    }
    assert_eq!(s.stats().runs, out.len() as u64, "replays are not counted");
    out
}

/// Asserts that the shards' runs partition the whole search's: each shard's
/// runs are a subsequence of the whole search's (same values, same
/// outcomes), and every run of the whole search is in exactly one shard.
/// Returns, per shard, the place in the whole search of each of its runs.
fn partition_is_exact(
    whole: &[(Tree, RunResult)],
    parts: &[Vec<(Tree, RunResult)>],
) -> Result<Vec<Vec<usize>>, TestCaseError> {
    // A run's value is in its own class, and classes are disjoint: values
    // name runs.
    let place: HashMap<&Tree, usize> = whole.iter().enumerate().map(|(i, (t, _))| (t, i)).collect();
    prop_assert_eq!(place.len(), whole.len());
    let mut owner = vec![None; whole.len()];
    let mut places = vec![];
    for (k, part) in parts.iter().enumerate() {
        let mut last = None;
        let mut mine = vec![];
        for (tree, r) in part {
            let Some(&i) = place.get(tree) else {
                return Err(TestCaseError::fail(format!(
                    "shard {k} ran a value the whole search does not"
                )));
            };
            prop_assert!(last.is_none_or(|l| l < i), "shard {} out of order", k);
            prop_assert_eq!(&whole[i].1, r, "outcome of run {}", i);
            prop_assert_eq!(owner[i], None, "run {} in two shards", i);
            owner[i] = Some(k);
            last = Some(i);
            mine.push(i);
        }
        places.push(mine);
    }
    prop_assert!(owner.iter().all(Option::is_some), "a run in no shard");
    Ok(places)
}

/// Asserts the partition for a boolean predicate at `bound`: runs, classes
/// and the first counterexample, for 1 to 4 shards at every depth tried.
fn shards_agree<T, P>(prop: P, bound: usize) -> Result<(), TestCaseError>
where
    T: crate::Enumerable + Debug + PartialEq,
    P: Fn(Lazy<'_, T>) -> bool,
{
    let step = |s: &mut Searcher<T>| s.step(&prop);
    let whole = counted_runs(Searcher::<T>::new(bound), &step);
    let classes = search::classes(&prop, bound);
    let first = search::ctrex_within(&prop, bound, Budget::unlimited());
    for count in 1..=4 {
        for depth in depths() {
            let parts = shards(count, depth);
            let runs: Vec<_> = parts
                .iter()
                .map(|s| counted_runs(Searcher::<T>::new(bound).sharded(Some(*s)), &step))
                .collect();
            let places = partition_is_exact(&whole, &runs)?;
            let sums = parts
                .iter()
                .map(|s| s.classes(&prop, bound))
                .fold((0, 0), |acc, c| (acc.0 + c.runs, acc.1 + c.satisfying));
            prop_assert_eq!(sums, (classes.runs, classes.satisfying));
            // Each shard's counterexample is its first failing run; the
            // earliest of them in the whole order is the whole search's.
            let mut earliest: Option<(usize, _)> = None;
            for ((shard, mine), part) in parts.iter().zip(&places).zip(&runs) {
                let own_first = part.iter().position(|(_, r)| r.is_failure());
                match (
                    shard.ctrex_within(&prop, bound, Budget::unlimited()),
                    own_first,
                ) {
                    (BoundResult::Passed(n), None) => prop_assert_eq!(n, part.len() as u64),
                    (BoundResult::Failed(c), Some(k)) => {
                        prop_assert_eq!(c.runs, k as u64 + 1, "runs of shard {}", shard);
                        let g = crate::types::grammar_of::<T>();
                        prop_assert_eq!(&c.key, &crate::replay::key_of(&g, &part[k].0));
                        prop_assert_eq!(c.summary.shard, Some(*shard));
                        prop_assert_eq!(c.is_minimal(), count == 1);
                        if earliest.as_ref().is_none_or(|(at, _)| mine[k] < *at) {
                            earliest = Some((mine[k], c));
                        }
                    }
                    (got, want) => {
                        return Err(TestCaseError::fail(format!(
                            "shard {shard}: {got:?}, its first failure is run {want:?}"
                        )))
                    }
                }
            }
            match (&first, earliest) {
                (BoundResult::Passed(_), None) => {}
                (BoundResult::Failed(w), Some((at, c))) => {
                    prop_assert_eq!(w.runs, at as u64 + 1);
                    prop_assert_eq!(&w.value, &c.value);
                    prop_assert_eq!(&w.pattern, &c.pattern);
                    prop_assert_eq!(&w.key, &c.key);
                }
                (w, s) => {
                    return Err(TestCaseError::fail(format!(
                        "whole {w:?}, earliest shard's {s:?}"
                    )))
                }
            }
        }
    }
    Ok(())
}

/// A predicate over `Bin`, as data (so that proptest can generate it).
#[derive(Debug, Clone)]
enum Pred {
    /// The subtree at the path (false: left) is a tip.
    IsTip(Vec<bool>),
    /// The fork at the path is labelled true.
    Label(Vec<bool>),
    /// At least k forks (reads everything).
    ForksGe(usize),
    Not(Box<Pred>),
    And(Box<Pred>, Box<Pred>),
    Or(Box<Pred>, Box<Pred>),
}

fn at<'a>(t: Lazy<'a, Bin>, path: &[bool]) -> Option<Lazy<'a, Bin>> {
    let mut cur = t;
    for &right in path {
        match cur.view() {
            BinView::Tip => return None,
            BinView::Fork(l, _, r) => cur = if right { r } else { l },
        }
    }
    Some(cur)
}

fn forks(t: Lazy<'_, Bin>) -> usize {
    match t.view() {
        BinView::Tip => 0,
        BinView::Fork(l, _, r) => 1 + forks(l) + forks(r),
    }
}

fn holds(p: &Pred, t: Lazy<'_, Bin>) -> bool {
    match p {
        Pred::IsTip(path) => at(t, path).is_some_and(|s| matches!(s.view(), BinView::Tip)),
        Pred::Label(path) => at(t, path).is_some_and(|s| match s.view() {
            BinView::Tip => false,
            BinView::Fork(_, b, _) => b.get(),
        }),
        Pred::ForksGe(k) => forks(t) >= *k,
        Pred::Not(a) => !holds(a, t),
        Pred::And(a, b) => holds(a, t) && holds(b, t),
        Pred::Or(a, b) => holds(a, t) || holds(b, t),
    }
}

fn pred() -> impl Strategy<Value = Pred> {
    let path = || prop::collection::vec(any::<bool>(), 0..4);
    let atom = prop_oneof![
        path().prop_map(Pred::IsTip),
        path().prop_map(Pred::Label),
        (0usize..5).prop_map(Pred::ForksGe),
    ];
    atom.prop_recursive(4, 16, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|a| Pred::Not(Box::new(a))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Pred::And(Box::new(a), Box::new(b))),
            (inner.clone(), inner).prop_map(|(a, b)| Pred::Or(Box::new(a), Box::new(b))),
        ]
    })
}

/// An atom over `Vec<u8>`.
#[derive(Debug, Clone)]
enum Atom {
    /// Element i exists and is below v.
    ElemLt(usize, u8),
    /// At least k elements (reads the cells only).
    LenGe(usize),
    /// The elements sum to less than k (reads everything).
    SumLt(u32),
    /// Sorted (reads up to the first descent).
    Sorted,
}

fn atom_holds(a: &Atom, xs: Lazy<'_, Vec<u8>>) -> bool {
    match a {
        Atom::ElemLt(i, v) => xs.nth(*i).is_some_and(|x| x.get() < *v),
        Atom::LenGe(k) => xs.iter().take(*k).count() == *k,
        Atom::SumLt(k) => xs.iter().map(|x| u32::from(x.get())).sum::<u32>() < *k,
        Atom::Sorted => {
            let mut last = 0;
            xs.iter().all(|x| {
                let ok = x.get() >= last;
                last = x.get();
                ok
            })
        }
    }
}

fn atom() -> impl Strategy<Value = Atom> {
    prop_oneof![
        (0usize..3, 0u8..6).prop_map(|(i, v)| Atom::ElemLt(i, v)),
        (0usize..4).prop_map(Atom::LenGe),
        (0u32..10).prop_map(Atom::SumLt),
        Just(Atom::Sorted),
    ]
}

/// A formula over atoms with both conjunctions, as data.
#[derive(Debug, Clone)]
enum Formula {
    Atom(Atom),
    Not(Box<Formula>),
    /// Parallel conjunction: the strategy picks the order.
    And(Box<Formula>, Box<Formula>),
    /// Sequential conjunction.
    Seq(Box<Formula>, Box<Formula>),
}

fn formula() -> impl Strategy<Value = Formula> {
    atom()
        .prop_map(Formula::Atom)
        .prop_recursive(3, 12, 2, |inner| {
            prop_oneof![
                inner.clone().prop_map(|a| Formula::Not(Box::new(a))),
                (inner.clone(), inner.clone())
                    .prop_map(|(a, b)| Formula::And(Box::new(a), Box::new(b))),
                (inner.clone(), inner).prop_map(|(a, b)| Formula::Seq(Box::new(a), Box::new(b))),
            ]
        })
}

/// The formula as a boolean, left to right.
fn eval(f: &Formula, xs: Lazy<'_, Vec<u8>>) -> bool {
    match f {
        Formula::Atom(a) => atom_holds(a, xs),
        Formula::Not(a) => !eval(a, xs),
        Formula::And(a, b) | Formula::Seq(a, b) => eval(a, xs) && eval(b, xs),
    }
}

/// The formula as a `Cool`, its atoms lazy.
fn cool<'a>(f: &Formula, xs: Lazy<'a, Vec<u8>>) -> Cool<'a> {
    match f {
        Formula::Atom(a) => {
            let a = a.clone();
            Cool::atom(move || atom_holds(&a, xs))
        }
        Formula::Not(a) => !cool(a, xs),
        Formula::And(a, b) => cool(a, xs) & cool(b, xs),
        Formula::Seq(a, b) => Cool::seq(cool(a, xs), cool(b, xs)),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn shards_partition_the_search_of_random_tree_predicates(p in pred(), bound in 3usize..=11) {
        shards_agree::<Bin, _>(|t| holds(&p, t), bound)?;
    }

    #[test]
    fn shards_partition_the_search_of_random_list_predicates(
        f in formula(),
        bound in 2usize..=10,
    ) {
        shards_agree::<Vec<u8>, _>(|xs| eval(&f, xs), bound)?;
    }

    /// Every node above the cut is run as in the whole search, so every
    /// node inherits the schedule it has there: the same runs, under every
    /// strategy.
    #[test]
    fn shards_partition_the_search_of_random_formulas_under_every_strategy(
        f in formula(),
        bound in 2usize..=9,
    ) {
        for strategy in Conjunctions::ALL {
            let step = |s: &mut Searcher<Vec<u8>>| s.step_cool(strategy, &|xs| cool(&f, xs));
            let whole = counted_runs(Searcher::new(bound), &step);
            let classes = search::classes_cool(|xs| cool(&f, xs), bound, strategy);
            prop_assert_eq!(whole.len() as u64, classes.runs);
            for count in 1..=4 {
                for depth in depths() {
                    let parts = shards(count, depth);
                    let runs: Vec<_> = parts
                        .iter()
                        .map(|s| counted_runs(Searcher::new(bound).sharded(Some(*s)), &step))
                        .collect();
                    partition_is_exact(&whole, &runs)?;
                    let satisfying: u64 = parts
                        .iter()
                        .map(|s| s.classes_cool(|xs| cool(&f, xs), bound, strategy).satisfying)
                        .sum();
                    prop_assert_eq!(satisfying, classes.satisfying, "{:?}", strategy);
                }
            }
        }
    }
}

#[test]
fn every_shard_has_work_when_the_search_has_a_node_for_each() {
    // Lists of booleans up to size 9: 2^0 + ... + 2^4 = 31 values, each
    // run (the predicate reads everything); five shards of a shallow search.
    let all = |xs: Lazy<'_, Vec<bool>>| xs.iter().filter(|b| b.get()).count() < 100;
    let whole = search::classes(all, 9).runs;
    assert_eq!(whole, 31);
    for count in 1..=5 {
        let runs: Vec<u64> = (1..=count)
            .map(|i| Shard::new(i, count).classes(all, 9).runs)
            .collect();
        assert_eq!(runs.iter().sum::<u64>(), whole);
        assert!(runs.iter().all(|&r| r > 0), "{count} shards: {runs:?}");
    }
}

#[test]
fn a_run_budget_counts_the_shards_own_runs_exactly() {
    let prop = |xs: Lazy<'_, Vec<u8>>| xs.iter().filter(|x| x.get() > 3).count() < 100;
    let bound = 9;
    for depth in 1..=4 {
        for shard in shards(3, Some(depth)) {
            let total = shard.classes(prop, bound).runs;
            let within = |max_runs| {
                let budget = Budget {
                    deadline: None,
                    max_runs: Some(max_runs),
                };
                shard.ctrex_within(&prop, bound, budget)
            };
            // Replays of the other shards' nodes after this shard's last
            // run do not make a budget of exactly its runs run out.
            let passed = within(total);
            assert!(
                matches!(passed, BoundResult::Passed(r) if r == total),
                "{passed:?}"
            );
            if total > 0 {
                let cut = within(total - 1);
                assert!(
                    matches!(cut, BoundResult::OutOfBudget(r) if r == total - 1),
                    "{cut:?}"
                );
            }
        }
    }
}

#[test]
fn a_panic_is_raised_by_the_shard_that_owns_its_run_only() {
    // Panics on every list whose first element is true; `first_true`
    // reads the same and returns instead.
    let first_true = |xs: Lazy<'_, Vec<bool>>| xs.first().is_some_and(|b| b.get());
    let boom = |xs: Lazy<'_, Vec<bool>>| {
        assert!(!first_true(xs), "boom");
        true
    };
    let step = |s: &mut Searcher<Vec<bool>>| s.step(|xs| !first_true(xs));
    for count in 2..=4 {
        for shard in shards(count, Some(1)) {
            let raised = std::panic::catch_unwind(|| shard.classes(boom, 7)).is_err();
            let runs = counted_runs(Searcher::new(7).sharded(Some(shard)), &step);
            let owns_a_failure = runs.iter().any(|(_, r)| r.is_failure());
            assert_eq!(raised, owns_a_failure, "shard {shard}");
        }
    }
    // Some shard owns no such run: it replays failing nodes and passes.
    let passes = (1..=4).filter(|&i| {
        let shard = Shard::new(i, 4).with_depth(1);
        std::panic::catch_unwind(|| shard.classes(boom, 7)).is_ok()
    });
    assert!(passes.count() > 0);
}

#[test]
fn parsing_a_shard_says_what_is_wrong() {
    assert_eq!("3/4".parse(), Ok(Shard::new(3, 4)));
    assert_eq!(" 1 / 1 ".parse(), Ok(Shard::new(1, 1)));
    for (text, says) in [
        ("0/4", "numbered 1 to 4"),
        ("5/4", "numbered 1 to 4"),
        ("1/0", "at least one shard"),
        ("2", "expected `i/n`"),
        ("a/b", "expected `i/n`"),
        ("-1/4", "expected `i/n`"),
        ("1/2/3", "expected `i/n`"),
    ] {
        let e = text.parse::<Shard>().unwrap_err();
        assert!(e.contains(says), "{text}: {e}");
    }
    assert!(Shard::new(1, 1).is_whole() && !Shard::new(1, 2).is_whole());
}

/// One bound of a shard searched by `threads` workers, as a check does it.
fn parallel_in_shard<T, P>(
    prop: &P,
    shard: Shard,
    threads: usize,
    bound: usize,
    budget: Budget,
) -> BoundResult<T>
where
    T: crate::Enumerable + Send,
    P: Fn(Lazy<'_, T>) -> bool + Sync,
{
    let step = |s: &mut Searcher<T>| s.step(prop);
    let describe = |s: &mut Searcher<T>, r| search::counterexample_here(s, prop, r);
    let task = search::parallel::Task {
        step: &step,
        describe: &describe,
        watchdog: None,
        source: &search::GrammarSource::Canonical,
        shard: Some(shard),
    };
    // As the check driver: units inside the shard's part.
    let par = search::Parallel::new(threads).with_split_depth(shard.depth());
    par.bound_for_check::<T, ()>(&task, bound, budget).0
}

#[test]
fn a_shard_searched_by_several_threads_gives_its_sequential_verdict() {
    // Fails on unsorted lists of four or more.
    let unsorted = |xs: Lazy<'_, Vec<u8>>| {
        let v: Vec<u8> = xs.iter().map(|x| x.get()).collect();
        v.len() < 4 || v.windows(2).all(|w| w[0] <= w[1])
    };
    // Passes; the last nodes of some shards' searches are replays.
    let reads_all = |xs: Lazy<'_, Vec<u8>>| xs.iter().filter(|x| x.get() > 3).count() < 100;
    for depth in 1..=4 {
        for shard in shards(3, Some(depth)) {
            same_verdicts_on_threads(&unsorted, shard, 11);
            same_verdicts_on_threads(&reads_all, shard, 9);
        }
    }
}

/// Asserts that a shard's bound gives the same verdict on 1 to 3 threads
/// as sequentially, for run budgets around its runs and its first failure.
fn same_verdicts_on_threads<P>(prop: &P, shard: Shard, bound: usize)
where
    P: Fn(Lazy<'_, Vec<u8>>) -> bool + Sync,
{
    let total = shard.classes(prop, bound).runs;
    let first = match shard.ctrex_within(prop, bound, Budget::unlimited()) {
        BoundResult::Failed(c) => Some(c.runs),
        _ => None,
    };
    let mut budgets = vec![0, 1, 5, total.saturating_sub(1), total, total + 1];
    budgets.extend(first.into_iter().flat_map(|f| [f - 1, f, f + 1]));
    for max_runs in budgets {
        let budget = Budget {
            deadline: None,
            max_runs: Some(max_runs),
        };
        let seq = shard.ctrex_within(prop, bound, budget);
        for threads in 1..=3 {
            let par = parallel_in_shard(prop, shard, threads, bound, budget);
            let same = match (&seq, &par) {
                (BoundResult::Passed(a), BoundResult::Passed(b))
                | (BoundResult::OutOfBudget(a), BoundResult::OutOfBudget(b)) => a == b,
                (BoundResult::Failed(a), BoundResult::Failed(b)) => {
                    (&a.value, a.runs, &a.pattern) == (&b.value, b.runs, &b.pattern)
                }
                _ => false,
            };
            assert!(
                same,
                "shard {shard} at depth {}, {threads} threads, budget {max_runs}: \
                 sequential {seq:?}, parallel {par:?}",
                shard.depth()
            );
        }
    }
}

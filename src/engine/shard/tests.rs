//! The partition of a search into shards against the whole search: for
//! proptest-generated predicates (booleans and `Cool` formulas under every
//! strategy), every shard count 1 to 4 and several cut depths, the shards'
//! runs are the whole search's runs, each in exactly one shard and in
//! sequential order, and the earliest of their counterexamples is the whole
//! search's.

use crate::cool::Cool;
use crate::cool::Strategy as Conjunctions;
use crate::engine::parallel::{with_donations_after, with_simulation};
use crate::engine::{self as search, BoundResult, Budget, RunResult, Searcher, Shard, Tally};
use crate::grammar::Tree;
use crate::handle::Lazy;
use proptest::prelude::*;
use std::collections::HashMap;
use std::fmt::Debug;
use std::sync::atomic::{AtomicU64, Ordering};

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
            let classes = neatcheck::Config::default().max_size(bound).strategy(strategy).classes(crate::cool::formula(|xs| cool(&f, xs)));
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

/// One bound of a shard searched by `threads` workers, as a check does it,
/// and the tally of its runs.
fn parallel_in_shard<T, Tl, P>(
    prop: &P,
    shard: Shard,
    threads: usize,
    bound: usize,
    budget: Budget,
) -> (BoundResult<T>, Tl)
where
    T: crate::Enumerable + Send,
    Tl: Tally,
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
    search::Parallel::new(threads).bound_for_check(&task, bound, budget)
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
            let (par, ()) = parallel_in_shard(prop, shard, threads, bound, budget);
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

/// The runs a parallel search counted, and how many were true.
#[derive(Default, Debug, PartialEq, Eq)]
struct Trues {
    runs: u64,
    trues: u64,
}

impl Tally for Trues {
    fn add(&mut self, r: &RunResult) {
        self.runs += 1;
        self.trues += u64::from(r.is_true());
    }
    fn merge(&mut self, other: Self) {
        self.runs += other.runs;
        self.trues += other.trues;
    }
}

/// Runs `f` on real threads and on the simulated scheduler, workers giving
/// work away after `after` runs in a unit whenever one is idle.
fn split_both_ways<R>(after: u64, f: impl Fn() -> R) -> [R; 2] {
    with_donations_after(after, || [f(), with_simulation(&f)])
}

/// The same verdict: variant, run counts, counterexample.
fn same_verdict<T: PartialEq>(a: &BoundResult<T>, b: &BoundResult<T>) -> bool {
    match (a, b) {
        (BoundResult::Passed(x), BoundResult::Passed(y))
        | (BoundResult::OutOfBudget(x), BoundResult::OutOfBudget(y)) => x == y,
        (BoundResult::Failed(x), BoundResult::Failed(y)) => {
            (&x.value, &x.pattern, &x.key, x.runs) == (&y.value, &y.pattern, &y.key, y.runs)
        }
        _ => false,
    }
}

/// Asserts that every shard of a bound, searched by 1 to 3 workers that
/// split its part wherever they can, gives the shard's sequential verdict
/// (within budgets around its run counts) and tally, and that the shards'
/// tallies add up to the whole search's classes.
fn shards_split_and_agree<P>(prop: &P, bound: usize, after: u64) -> Result<(), TestCaseError>
where
    P: Fn(Lazy<'_, Vec<u8>>) -> bool + Sync,
{
    let whole = search::classes(prop, bound);
    for count in 2..=3 {
        for depth in [Some(1), Some(2), Some(4), None] {
            let mut sums = [Trues::default(), Trues::default()];
            for shard in shards(count, depth) {
                let own = shard.classes(prop, bound);
                let first = match shard.ctrex_within(prop, bound, Budget::unlimited()) {
                    BoundResult::Failed(c) => c.runs,
                    _ => own.runs,
                };
                let mut budgets = vec![None, Some(own.runs), Some(own.runs.saturating_sub(1))];
                budgets.extend([first.saturating_sub(1), first / 2].map(Some));
                for max_runs in budgets {
                    let budget = Budget {
                        deadline: None,
                        max_runs,
                    };
                    let seq = shard.ctrex_within(prop, bound, budget);
                    for threads in 1..=3 {
                        let got = split_both_ways(after, || {
                            parallel_in_shard::<Vec<u8>, (), _>(prop, shard, threads, bound, budget)
                                .0
                        });
                        for par in got {
                            prop_assert!(
                                same_verdict(&seq, &par),
                                "shard {} at depth {}, {} threads, budget {:?}: \
                                 sequential {:?}, parallel {:?}",
                                shard,
                                shard.depth(),
                                threads,
                                max_runs,
                                seq,
                                par
                            );
                        }
                    }
                }
                // Whole searches: each shard's runs and classes, once.
                let always = |xs: Lazy<'_, Vec<u8>>| {
                    prop(xs);
                    true
                };
                let tallies = split_both_ways(after, || {
                    let (r, trues): (_, Trues) =
                        parallel_in_shard(&always, shard, 3, bound, Budget::unlimited());
                    (r, trues)
                });
                for (sum, (r, trues)) in sums.iter_mut().zip(tallies) {
                    prop_assert!(matches!(r, BoundResult::Passed(n) if n == own.runs));
                    prop_assert_eq!(trues.runs, own.runs);
                    sum.merge(trues);
                }
            }
            for sum in sums {
                prop_assert_eq!(sum.runs, whole.runs, "{} shards", count);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Splitting with tiny donation thresholds under sharding: the units
    /// given away start anywhere, above the cut or below it, and each
    /// worker deals the nodes from their paths alone.
    #[test]
    fn sharded_searches_split_across_workers_and_agree_with_one_worker(
        f in formula(),
        bound in 3usize..=8,
        after in 0u64..3,
    ) {
        shards_split_and_agree(&|xs| eval(&f, xs), bound, after)?;
    }

    /// Consecutive siblings go to consecutive shards, whatever their
    /// parent, and a node below the cut goes with its ancestor at the cut.
    #[test]
    fn the_deal_spreads_siblings_and_keeps_subtrees_whole(
        parent in prop::collection::vec(0u32..6, 0..12),
        first in 0u32..20,
        count in 2usize..=16,
        depth in 1usize..=12,
    ) {
        let deals = |path: &[u32]| -> Vec<super::Deal> {
            (1..=count)
                .map(|i| super::ShardCut::new(Shard::new(i, count).with_depth(depth)).deal(path))
                .collect()
        };
        let owner = |path: &[u32]| super::owner(path, count as u64);
        let mut child = parent.clone();
        child.push(first);
        let mut next = parent.clone();
        next.push(first + 1);
        prop_assert_eq!((owner(&child) + 1) % count as u64, owner(&next));
        let at_cut = &child[..child.len().min(depth)];
        let dealt = deals(&child);
        let own = dealt.iter().filter(|d| **d == super::Deal::Own).count();
        prop_assert_eq!(own, 1, "one owner: {:?}", dealt);
        prop_assert_eq!(dealt[owner(at_cut) as usize], super::Deal::Own);
        let others = if child.len() < depth { super::Deal::Replay } else { super::Deal::Skip };
        prop_assert!(dealt.iter().all(|d| *d == super::Deal::Own || *d == others));
    }
}

#[test]
fn a_sharded_search_runs_exactly_the_nodes_its_paths_deal_it() {
    // The whole search's nodes by path, and whether each passes.
    let prop = |xs: Lazy<'_, Vec<u8>>| atom_holds(&Atom::SumLt(6), xs);
    let walk = |mut s: Searcher<Vec<u8>>| {
        let mut path = vec![];
        let mut out = vec![];
        while s.advance() {
            s.path_at(s.pending_depth(), &mut path);
            let r = s.step(prop).expect("a pending node");
            out.push((path.clone(), s.replaying(), r));
        }
        out
    };
    let whole = walk(Searcher::new(8));
    assert!(
        whole.iter().any(|(p, _, _)| p.len() > 3),
        "deeper than the cut"
    );
    for count in 2..=4 {
        for shard in shards(count, Some(3)) {
            let cut = super::ShardCut::new(shard);
            let searcher = Searcher::new(8).sharded(Some(shard));
            let expected: Vec<_> = whole
                .iter()
                .filter(|(p, _, _)| cut.deal(p) != super::Deal::Skip)
                .map(|(p, _, r)| (p.clone(), cut.deal(p) == super::Deal::Replay, r.clone()))
                .collect();
            assert_eq!(walk(searcher), expected, "shard {shard}");
        }
    }
}

#[test]
fn a_sharded_search_splits_across_workers() {
    // Every run reads the whole list: a search whose units are large
    // enough to give away. The workers replay paths to reach the units
    // they take, so they call the predicate more often than one worker.
    let calls = AtomicU64::new(0);
    let prop = |xs: Lazy<'_, Vec<u8>>| {
        calls.fetch_add(1, Ordering::Relaxed);
        atom_holds(&Atom::SumLt(1000), xs)
    };
    for shard in shards(3, None) {
        let own = shard.classes(prop, 9).runs;
        assert!(own > 100, "shard {shard} has work to share: {own} runs");
        calls.store(0, Ordering::Relaxed);
        let (one, ()) =
            with_simulation(|| parallel_in_shard(&prop, shard, 1, 9, Budget::unlimited()));
        let alone = calls.swap(0, Ordering::Relaxed);
        let (three, ()) = with_donations_after(1, || {
            with_simulation(|| parallel_in_shard(&prop, shard, 3, 9, Budget::unlimited()))
        });
        let split = calls.load(Ordering::Relaxed);
        assert!(matches!(one, BoundResult::Passed(n) if n == own), "{one:?}");
        assert!(
            matches!(three, BoundResult::Passed(n) if n == own),
            "{three:?}"
        );
        assert!(
            split > alone,
            "shard {shard}: {split} calls on 3 workers, {alone} on 1"
        );
    }
}

thread_local! {
    /// The lengths the runs read since the last tally took them, as a
    /// check's labels pile up in thread-local state until its tally takes
    /// them.
    static READ_LENGTHS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The lengths the counted runs read (taken from `READ_LENGTHS`).
#[derive(Default, Debug, PartialEq, Eq)]
struct Lengths(u64);

impl Tally for Lengths {
    fn add(&mut self, _: &RunResult) {
        self.0 += READ_LENGTHS.with(|l| l.replace(0));
    }
    fn merge(&mut self, other: Self) {
        self.0 += other.0;
    }
    fn skip(&mut self, _: &RunResult) {
        READ_LENGTHS.with(|l| l.set(0));
    }
}

#[test]
fn runs_replayed_to_restart_leave_nothing_for_the_next_run() {
    let prop = |xs: Lazy<'_, Vec<u8>>| {
        let len = xs.iter().take_while(|x| x.get() < 2).count() as u64;
        READ_LENGTHS.with(|l| l.set(l.get() + len + 1));
        true
    };
    for shard in shards(3, Some(3)) {
        // This shard's runs walked one by one.
        let mut expected = 0;
        let mut s = Searcher::<Vec<u8>>::new(9).sharded(Some(shard));
        while s.step(prop).is_some() {
            let left = READ_LENGTHS.with(|l| l.replace(0));
            if !s.replaying() {
                expected += left;
            }
        }
        assert!(expected > 0);
        for after in [0, 1] {
            let (r, lengths): (_, Lengths) = with_donations_after(after, || {
                with_simulation(|| parallel_in_shard(&prop, shard, 3, 9, Budget::unlimited()))
            });
            assert!(matches!(r, BoundResult::Passed(_)), "{r:?}");
            assert_eq!(
                lengths,
                Lengths(expected),
                "shard {shard}, donations after {after}"
            );
        }
    }
}

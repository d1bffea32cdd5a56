//! Parallel search against the sequential search: the same run counts,
//! satisfying classes, first counterexample (value, pattern, runs) and
//! first panic, for fixed and randomly generated predicates, any number of
//! threads.

use neatcheck::search::{self, BoundResult, Budget, Classes};
use neatcheck::{Config, Enumerable, Lazy};
use proptest::prelude::*;
use std::fmt::Debug;
use std::time::Instant;

/// A number of threads, searching through `Config::threads` (the tests
/// below were written against the former `Parallel` type: one of these per
/// configuration they compare).
#[derive(Debug, Clone, Copy)]
struct Parallel {
    threads: usize,
}

impl Parallel {
    fn new(threads: usize) -> Parallel {
        Parallel { threads }
    }

    fn classes<T, P>(&self, pred: P, bound: usize) -> Classes
    where
        T: Enumerable + Send,
        P: Fn(Lazy<'_, T>) -> bool + Sync,
    {
        Config::default()
            .max_size(bound)
            .threads(self.threads)
            .classes(pred)
    }

    /// `None` if the budget ran out first.
    fn classes_within<T, P>(&self, pred: P, bound: usize, budget: Budget) -> Option<Classes>
    where
        T: Enumerable + Send,
        P: Fn(Lazy<'_, T>) -> bool + Sync,
    {
        let c = within(Config::default().max_size(bound), budget)
            .threads(self.threads)
            .classes(pred);
        c.complete.then_some(c)
    }

    fn ctrex_within<T, P>(&self, prop: &P, bound: usize, budget: Budget) -> BoundResult<T>
    where
        T: Enumerable + Send,
        P: Fn(Lazy<'_, T>) -> bool + Sync,
    {
        within(Config::default().max_size(bound), budget)
            .threads(self.threads)
            .ctrex(prop)
    }
}

/// The configuration's run budget and deadline from a `Budget`.
fn within(mut config: Config, budget: Budget) -> Config {
    if let Some(runs) = budget.max_runs {
        config = config.runs(runs);
    }
    if let Some(deadline) = budget.deadline {
        config = config.time(deadline.saturating_duration_since(Instant::now()));
    }
    config
}

/// The sequential search within a budget.
fn ctrex_within<T, P>(prop: &P, bound: usize, budget: Budget) -> BoundResult<T>
where
    T: Enumerable,
    P: Fn(Lazy<'_, T>) -> bool,
{
    within(Config::default().max_size(bound), budget).ctrex(prop)
}

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
    let seq_ctrex = ctrex_within(&prop, bound, Budget::unlimited());
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
        out.push(Parallel::new(threads));
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
    let budget = Budget::runs(1000);
    let par = Parallel::new(2);
    assert_eq!(par.classes_within(always, 30, budget), None);
    match par.ctrex_within(&always, 30, budget) {
        BoundResult::OutOfBudget(runs) => assert_eq!(runs, 1000),
        other => panic!("expected out of budget, got {other:?}"),
    }
    // A budget that is not reached changes nothing.
    let roomy = Budget::runs(1 << 40);
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

// ---------------------------------------------------------------------------
// Run budgets: the parallel verdict is the sequential one, exactly.
// ---------------------------------------------------------------------------

/// A boolean formula over atoms, as data (so proptest can generate it).
#[derive(Debug, Clone)]
enum Formula<A> {
    Atom(A),
    Not(Box<Formula<A>>),
    And(Box<Formula<A>>, Box<Formula<A>>),
    Or(Box<Formula<A>>, Box<Formula<A>>),
}

/// Evaluates left to right with short circuits, so that the formula's
/// laziness shapes the search tree.
fn holds<A>(f: &Formula<A>, atom: &dyn Fn(&A) -> bool) -> bool {
    match f {
        Formula::Atom(a) => atom(a),
        Formula::Not(a) => !holds(a, atom),
        Formula::And(a, b) => holds(a, atom) && holds(b, atom),
        Formula::Or(a, b) => holds(a, atom) || holds(b, atom),
    }
}

fn formula<A: Debug + Clone + 'static>(
    atom: impl Strategy<Value = A> + 'static,
) -> impl Strategy<Value = Formula<A>> {
    atom.prop_map(Formula::Atom)
        .prop_recursive(3, 12, 2, |inner| {
            prop_oneof![
                inner.clone().prop_map(|a| Formula::Not(Box::new(a))),
                (inner.clone(), inner.clone())
                    .prop_map(|(a, b)| Formula::And(Box::new(a), Box::new(b))),
                (inner.clone(), inner).prop_map(|(a, b)| Formula::Or(Box::new(a), Box::new(b))),
            ]
        })
}

/// Atoms over `Vec<u8>`.
#[derive(Debug, Clone)]
enum BytesAtom {
    /// Element i exists and is below v.
    ElemLt(usize, u8),
    /// At least k elements (reads the cells only).
    LenGe(usize),
    /// The elements sum to less than k (reads everything).
    SumLt(u32),
    /// Sorted (reads until the first descent).
    Sorted,
}

fn bytes_atom() -> impl Strategy<Value = BytesAtom> {
    prop_oneof![
        (0usize..3, 0u8..6).prop_map(|(i, v)| BytesAtom::ElemLt(i, v)),
        (0usize..4).prop_map(BytesAtom::LenGe),
        (0u32..10).prop_map(BytesAtom::SumLt),
        Just(BytesAtom::Sorted),
    ]
}

fn bytes_holds(a: &BytesAtom, xs: Lazy<'_, Vec<u8>>) -> bool {
    match a {
        BytesAtom::ElemLt(i, v) => xs.nth(*i).is_some_and(|x| x.get() < *v),
        BytesAtom::LenGe(k) => xs.iter().take(*k).count() == *k,
        BytesAtom::SumLt(k) => xs.iter().map(|x| u32::from(x.get())).sum::<u32>() < *k,
        BytesAtom::Sorted => {
            let mut last = 0;
            xs.iter().all(|x| {
                let ok = x.get() >= last;
                last = x.get();
                ok
            })
        }
    }
}

/// Atoms over `(Vec<bool>, u8)`.
#[derive(Debug, Clone)]
enum PairAtom {
    /// Element i of the list exists and is true.
    Elem(usize),
    /// The number is below k.
    NumLt(u8),
    /// The number equals the count of trues (reads everything).
    NumIsTrues,
    /// The list is shorter than the number.
    ShorterThanNum,
}

fn pair_atom() -> impl Strategy<Value = PairAtom> {
    prop_oneof![
        (0usize..4).prop_map(PairAtom::Elem),
        (0u8..8).prop_map(PairAtom::NumLt),
        Just(PairAtom::NumIsTrues),
        Just(PairAtom::ShorterThanNum),
    ]
}

fn pair_holds(a: &PairAtom, p: Lazy<'_, (Vec<bool>, u8)>) -> bool {
    let (xs, n) = p.view();
    match a {
        PairAtom::Elem(i) => xs.nth(*i).is_some_and(|b| b.get()),
        PairAtom::NumLt(k) => n.get() < *k,
        PairAtom::NumIsTrues => xs.iter().filter(|b| b.get()).count() == usize::from(n.get()),
        PairAtom::ShorterThanNum => xs.iter().take(usize::from(n.get())).count() < n.get().into(),
    }
}

/// The budgets to try for a bound: small ones, ones around the batch sizes
/// a worker might use, and ones around the bound's total runs and the
/// position of its first counterexample.
fn budgets_around(total: u64, first_failure: Option<u64>) -> Vec<u64> {
    let mut out = vec![0, 1, 2, 3, 10, 63, 64, 65, 100, 1000];
    for at in std::iter::once(total).chain(first_failure) {
        out.extend([at.saturating_sub(1), at, at + 1]);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether two verdicts are the same: variant, counterexample and runs.
fn same_verdict<T: PartialEq + Debug>(a: &BoundResult<T>, b: &BoundResult<T>) -> bool {
    match (a, b) {
        (BoundResult::Passed(x), BoundResult::Passed(y)) => x == y,
        (BoundResult::OutOfBudget(x), BoundResult::OutOfBudget(y)) => x == y,
        (BoundResult::Failed(x), BoundResult::Failed(y)) => {
            (&x.value, &x.pattern, x.runs, x.size) == (&y.value, &y.pattern, y.runs, y.size)
        }
        _ => false,
    }
}

/// Asserts that, for every run budget around the bound's interesting
/// points and every thread count 1 to 4, the search on threads gives the
/// sequential verdict.
fn budgets_agree<T, P>(prop: P, bound: usize) -> Result<(), TestCaseError>
where
    T: Enumerable + Send + Debug + PartialEq,
    P: Fn(Lazy<'_, T>) -> bool + Sync,
{
    let total = search::classes(&prop, bound).runs;
    let first_failure = match ctrex_within(&prop, bound, Budget::unlimited()) {
        BoundResult::Failed(c) => Some(c.runs),
        _ => None,
    };
    for max_runs in budgets_around(total, first_failure) {
        let budget = Budget::runs(max_runs);
        let seq = ctrex_within(&prop, bound, budget);
        // The sequential verdict itself, from the bound's counts.
        match &seq {
            BoundResult::Failed(c) => prop_assert!(c.runs <= max_runs),
            BoundResult::Passed(runs) => {
                prop_assert_eq!(*runs, total);
                prop_assert!(total <= max_runs);
            }
            BoundResult::OutOfBudget(runs) => {
                prop_assert_eq!(*runs, max_runs);
                prop_assert!(total > max_runs);
            }
        }
        for threads in 1..=4 {
            let par = Parallel::new(threads);
            let got = par.ctrex_within(&prop, bound, budget);
            prop_assert!(
                same_verdict(&seq, &got),
                "max_runs {max_runs}, {par:?}: sequential {seq:?}, parallel {got:?}"
            );
            let whole = par.classes_within(&prop, bound, budget);
            prop_assert_eq!(
                whole.map(|c| c.runs),
                (total <= max_runs).then_some(total),
                "classes_within, max_runs {}, {:?}",
                max_runs,
                par
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn budgets_agree_on_random_tree_predicates(p in pred(), bound in 3usize..=11) {
        budgets_agree::<Tree, _>(|t| eval(&p, t), bound)?;
    }

    #[test]
    fn budgets_agree_on_random_byte_list_predicates(
        f in formula(bytes_atom()),
        bound in 2usize..=10,
    ) {
        budgets_agree::<Vec<u8>, _>(|xs| holds(&f, &|a| bytes_holds(a, xs)), bound)?;
    }

    #[test]
    fn budgets_agree_on_random_pair_predicates(
        f in formula(pair_atom()),
        bound in 2usize..=10,
    ) {
        budgets_agree::<(Vec<bool>, u8), _>(|p| holds(&f, &|a| pair_holds(a, p)), bound)?;
    }
}

#[test]
fn budgets_agree_on_fixed_predicates() {
    let sorted = |xs: Lazy<Vec<u8>>| {
        let v: Vec<u8> = xs.iter().map(|x| x.get()).collect();
        v.windows(2).all(|w| w[0] <= w[1])
    };
    for bound in [0, 1, 4, 9] {
        budgets_agree::<Vec<u8>, _>(sorted, bound).unwrap();
    }
    let always = |_: Lazy<(Vec<bool>, u8)>| true;
    let never = |_: Lazy<(Vec<bool>, u8)>| false;
    let eager = |p: Lazy<(Vec<bool>, u8)>| {
        let (xs, n) = p.view();
        xs.iter().filter(|b| b.get()).count() < 4 || n.get() > 2
    };
    for bound in [0, 1, 5, 9] {
        budgets_agree::<(Vec<bool>, u8), _>(always, bound).unwrap();
        budgets_agree::<(Vec<bool>, u8), _>(never, bound).unwrap();
        budgets_agree::<(Vec<bool>, u8), _>(eager, bound).unwrap();
    }
    let few_nodes = |t: Lazy<Tree>| nodes(t) < 4;
    let deep_label = |t: Lazy<Tree>| !eval(&Pred::Label(vec![true, true, false]), t);
    for bound in [3, 8, 13] {
        budgets_agree::<Tree, _>(few_nodes, bound).unwrap();
        budgets_agree::<Tree, _>(deep_label, bound).unwrap();
    }
}

#[test]
fn a_budget_of_exactly_the_runs_of_a_bound_passes_it() {
    let prop = |xs: Lazy<Vec<bool>>| xs.iter().filter(|b| b.get()).count() < 3;
    let total = search::classes(prop, 6).runs;
    let with = |max_runs| Budget::runs(max_runs);
    for par in [None, Some(Parallel::new(2))] {
        let run = |b| match par {
            None => ctrex_within(&prop, 6, b),
            Some(p) => p.ctrex_within(&prop, 6, b),
        };
        assert!(matches!(run(with(total)), BoundResult::Passed(r) if r == total));
        assert!(matches!(run(with(total - 1)), BoundResult::OutOfBudget(r) if r == total - 1));
    }
}

/// Sets a flag when dropped, so that spinning threads stop even when an
/// assertion beside them fails.
struct SetOnDrop<'a>(&'a std::sync::atomic::AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

#[test]
fn budgeted_checks_give_the_same_verdict_beside_busy_threads() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let sorted = |xs: Lazy<Vec<u8>>| {
        let v: Vec<u8> = xs.iter().map(|x| x.get()).collect();
        v.windows(2).all(|w| w[0] <= w[1]) || v.len() < 4
    };
    let bound = 11;
    let total = search::classes(sorted, bound).runs;
    let BoundResult::Failed(first) = ctrex_within(&sorted, bound, Budget::unlimited()) else {
        panic!("unsorted lists of 4 fit in bound {bound}")
    };
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let _stop_spinning = SetOnDrop(&done);
        // Spinning threads beside the workers change their timing.
        for _ in 0..2 {
            scope.spawn(|| {
                let mut x = 0u64;
                while !done.load(Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
                }
            });
        }
        for max_runs in [first.runs - 1, first.runs, total / 3] {
            let budget = Budget::runs(max_runs);
            let seq = ctrex_within(&sorted, bound, budget);
            for par in [Parallel::new(3), Parallel::new(4)] {
                for repeat in 0..20 {
                    let got = par.ctrex_within(&sorted, bound, budget);
                    assert!(
                        same_verdict(&seq, &got),
                        "repeat {repeat}, {par:?}, max_runs {max_runs}: \
                         sequential {seq:?}, parallel {got:?}"
                    );
                }
            }
        }
    });
}

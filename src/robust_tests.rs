//! Robustness tests: cycles without `pay`, transparent user wrappers,
//! internal errors, unbounded sizes and deep counterexamples.

use crate::check::Found;
use crate::space::{self, Space};
use crate::types::grammar_of;
use crate::{Config, Enumerable, Lazy};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The panic message of `f`, which must panic.
fn panic_text(f: impl FnOnce()) -> String {
    let p = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
    crate::internal::panic_message(&*p)
}

// ---- cycles without `pay` ----

#[derive(Clone, Debug)]
struct SelfAlias;
impl Enumerable for SelfAlias {
    fn describe() -> Space<Self> {
        space::of::<Self>()
    }
}

#[derive(Clone, Debug)]
struct MapA;
#[derive(Clone, Debug)]
struct MapB;
impl Enumerable for MapA {
    fn describe() -> Space<Self> {
        space::map(space::of::<MapB>(), |_| MapA)
    }
}
impl Enumerable for MapB {
    fn describe() -> Space<Self> {
        space::map(space::of::<MapA>(), |_| MapB)
    }
}

#[derive(Clone, Debug)]
struct ProdSelf;
impl Enumerable for ProdSelf {
    fn describe() -> Space<Self> {
        space::map(
            space::product(space::of::<Self>(), space::of::<u8>()),
            |_| ProdSelf,
        )
    }
}

#[derive(Clone, Debug)]
struct TransA;
#[derive(Clone, Debug)]
struct TransB;
impl Enumerable for TransA {
    fn describe() -> Space<Self> {
        space::transparent(|_: TransB| TransA)
    }
}
impl Enumerable for TransB {
    fn describe() -> Space<Self> {
        space::transparent(|_: TransA| TransB)
    }
}

#[derive(Clone, Debug)]
struct PosSelf;
impl Enumerable for PosSelf {
    fn describe() -> Space<Self> {
        space::position(space::of::<Self>())
    }
}

/// A cycle of four types through every combinator.
#[derive(Clone, Debug)]
struct Long1;
#[derive(Clone, Debug)]
struct Long2;
#[derive(Clone, Debug)]
struct Long3;
#[derive(Clone, Debug)]
struct Long4;
impl Enumerable for Long1 {
    fn describe() -> Space<Self> {
        space::map(space::of::<Long2>(), |_| Long1)
    }
}
impl Enumerable for Long2 {
    fn describe() -> Space<Self> {
        space::transparent(|_: Long3| Long2)
    }
}
impl Enumerable for Long3 {
    fn describe() -> Space<Self> {
        space::position(space::map(space::of::<Long4>(), |_| Long3))
    }
}
impl Enumerable for Long4 {
    fn describe() -> Space<Self> {
        space::map(
            space::product(space::of::<()>(), space::of::<Long1>()),
            |_| Long4,
        )
    }
}

/// Inhabited, with a cycle through a union without `pay`.
#[derive(Clone, Debug)]
struct UnionSelf;
impl Enumerable for UnionSelf {
    fn describe() -> Space<Self> {
        space::union(vec![
            space::pure(UnionSelf),
            space::map(space::of::<Self>(), |_| UnionSelf),
        ])
    }
}

fn assert_cycle<T: Enumerable>(names: &[&str]) {
    let msg = panic_text(|| {
        grammar_of::<T>();
    });
    assert!(msg.contains("recursive without `pay`"), "{msg}");
    for n in names {
        assert!(msg.contains(n), "{n} not named in: {msg}");
    }
}

#[test]
fn cycles_without_pay_are_rejected_naming_their_types() {
    assert_cycle::<SelfAlias>(&["SelfAlias -> ", " -> neatcheck::robust_tests::SelfAlias"]);
    assert_cycle::<MapA>(&["MapA", "MapB"]);
    assert_cycle::<ProdSelf>(&["ProdSelf -> "]);
    assert_cycle::<TransA>(&["TransA", "TransB"]);
    assert_cycle::<PosSelf>(&["PosSelf -> "]);
    assert_cycle::<Long1>(&["Long1", "Long2", "Long3", "Long4"]);
    assert_cycle::<UnionSelf>(&["UnionSelf -> "]);
    // The same through `check`: the panic propagates, it is no counterexample.
    let msg = panic_text(|| {
        let _ = Config::default().try_check(|_: Vec<MapB>| true);
    });
    assert!(msg.contains("MapA") && msg.contains("MapB"), "{msg}");
}

/// A list whose recursion costs nothing itself but whose element always
/// does: every turn adds size, so it is a legit space.
#[derive(Clone, Debug, PartialEq)]
struct Bools(Vec<bool>);
impl Enumerable for Bools {
    fn describe() -> Space<Self> {
        space::union(vec![
            space::pure(Bools(vec![])),
            space::map(
                space::product(space::of::<bool>(), space::of::<Self>()),
                |(b, mut rest): (bool, Bools)| {
                    rest.0.insert(0, b);
                    rest
                },
            ),
        ])
    }
}

/// A recursive type with no base case (paying) stays an uninhabited type,
/// reported by `check` as such, not as a cycle.
#[derive(Clone, Debug)]
struct Endless;
impl Enumerable for Endless {
    fn describe() -> Space<Self> {
        space::pay(space::map(space::of::<Self>(), |_| Endless))
    }
}

#[test]
fn recursion_that_pays_still_compiles() {
    for n in 0..6 {
        let vals = crate::values::values_of::<Bools>(n);
        assert_eq!(vals.len(), 1 << n, "size {n}");
        assert_eq!(
            crate::count::count_of::<Bools>(n),
            (1u32 << n).into(),
            "size {n}"
        );
        assert_eq!(crate::values::values_of::<Nat>(n).len(), usize::from(n > 0));
    }
    let g = grammar_of::<Endless>();
    assert!(!g.is_inhabited());
    let s = Config::default().try_check(|_: Endless| true).unwrap();
    assert!(s.problems[0].contains("has no values"), "{:?}", s.problems);
}

// ---- transparent user wrappers ----

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key(i64);
impl Enumerable for Key {
    fn describe() -> Space<Self> {
        space::transparent(Key)
    }
}

/// A wrapper of a wrapper.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key2(Key);
impl Enumerable for Key2 {
    fn describe() -> Space<Self> {
        space::transparent(Key2)
    }
}

/// A wrapper of a (transparent) box.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct BoxKey(Box<i64>);
impl Enumerable for BoxKey {
    fn describe() -> Space<Self> {
        space::transparent(BoxKey)
    }
}

#[derive(Enumerable, Clone, Debug, PartialEq, Eq, Hash)]
struct Entry {
    key: Key,
    nested: Key2,
    boxed: BoxKey,
    flag: bool,
}

#[derive(Enumerable, Clone, Debug, PartialEq)]
enum Nat {
    Z,
    S(Box<Nat>),
}

/// `check` reports the same counterexample for a wrapper as for what it
/// wraps, wrapped.
#[test]
fn transparent_wrappers_check_like_what_they_wrap() {
    let cfg = Config::default().max_size(8).samples(0, 0);
    let plain = cfg.try_check(|x: i64| x < 3).unwrap_err();
    let key = cfg.try_check(|k: Key| k.0 < 3).unwrap_err();
    let key2 = cfg.try_check(|k: Key2| k.0 .0 < 3).unwrap_err();
    let boxed = cfg.try_check(|k: BoxKey| *k.0 < 3).unwrap_err();
    let by_ref = cfg.try_check(|k: &Key| k.0 < 3).unwrap_err();
    assert!(!plain.panicked && plain.found == Found::Exhaustive);
    assert_eq!(key.value, Key(plain.value));
    assert_eq!(key2.value, Key2(Key(plain.value)));
    assert_eq!(boxed.value, BoxKey(Box::new(plain.value)));
    assert_eq!(by_ref.value, Key(plain.value));
    for c in [&key.key, &key2.key, &boxed.key, &by_ref.key] {
        assert_eq!(
            c.split('.').take(3).collect::<Vec<_>>(),
            plain.key.split('.').take(3).collect::<Vec<_>>()
        );
    }
    assert_eq!((key.size, key.runs), (plain.size, plain.runs));
    // As fields of a derived type and inside `Vec`, read lazily and forced.
    let e = cfg
        .try_check(|e: Entry| e.key.0 + e.nested.0 .0 + *e.boxed.0 < 2)
        .unwrap_err();
    assert!(!e.panicked, "{}", e.report());
    assert_eq!(e.value.key.0 + e.value.nested.0 .0 + *e.value.boxed.0, 2);
    let v = cfg
        .try_check(|ks: Lazy<Vec<Key>>| ks.iter().map(|k| k.force().0).sum::<i64>() < 2)
        .unwrap_err();
    assert!(!v.panicked, "{}", v.report());
    assert_eq!(v.value, vec![Key(2)]);
}

/// Every value of types holding wrappers is reached once by the search and
/// materialises to what the reference enumeration gives.
#[test]
fn transparent_wrappers_search_every_value_once() {
    for n in 0..4 {
        let mut expected = crate::values::values_of::<(Entry, Vec<Key>)>(n);
        let mut seen = vec![];
        let mut s = crate::search::Searcher::<(Entry, Vec<Key>)>::new(n);
        while let Some(r) = s.step(|x: Lazy<(Entry, Vec<Key>)>| {
            let v = x.force();
            v.0.flag || !v.1.is_empty() || v.0.key.0 >= 0
        }) {
            let _ = r;
            seen.push(s.value());
        }
        let key = |v: &(Entry, Vec<Key>)| format!("{v:?}");
        seen.sort_by_key(key);
        expected.sort_by_key(key);
        assert_eq!(seen, expected, "size <= {n}");
    }
    assert!(crate::search::sat(|k: Lazy<Key2>| k.force().0 .0 == -5, 4));
    assert!(!crate::search::sat(
        |k: Lazy<Key2>| k.force().0 .0 == 100,
        4
    ));
}

/// Indexing, replay keys and the shrinker go through the wrapper.
#[test]
fn transparent_wrappers_index_replay_and_shrink() {
    let ix = crate::index::Indexer::<Key2>::new();
    let plain = crate::index::Indexer::<i64>::new();
    for size in 0..5 {
        for i in 0..plain.cardinality(size).try_into().unwrap_or(0u64) {
            let i = num_bigint::BigUint::from(i);
            assert_eq!(ix.index(size, &i), Key2(Key(plain.index(size, &i))));
            let t = ix.tree(size, &i).unwrap();
            assert_eq!(ix.rank(&t), (size, i));
        }
    }
    // Replay a key.
    let cfg = Config::default().max_size(6).samples(0, 0);
    let c = cfg
        .try_check(|e: Entry| !(e.flag && e.key.0 == 1))
        .unwrap_err();
    let replay = cfg.clone().replay(c.key.clone());
    let r = replay
        .try_check(|e: Entry| !(e.flag && e.key.0 == 1))
        .unwrap_err();
    assert_eq!(r.value, c.value);
    assert!(matches!(r.found, Found::Replay { from_file: false }));
    // A failure past the exhaustive sizes is found at random and shrunk.
    let cfg = Config::default().max_size(2).runs(50).samples(300, 60);
    let c = cfg.try_check(|ks: Vec<Key>| ks.len() < 12).unwrap_err();
    assert!(!c.panicked, "{}", c.report());
    assert!(matches!(c.found, Found::Random { .. }), "{:?}", c.found);
    assert_eq!(c.value, vec![Key(0); 12]);
}

// ---- internal errors ----

/// A description whose combining function takes a field of another type
/// than the one it describes.
#[derive(Clone, Debug)]
struct Broken(u8);
impl Enumerable for Broken {
    fn describe() -> Space<Self> {
        space::pay(space::product_with(vec![space::field::<bool>()], |f| {
            Broken(f.take::<u8>())
        }))
    }
}

#[test]
fn internal_errors_are_no_counterexamples() {
    for threads in [1, 2] {
        let cfg = Config::default().max_size(4).threads(threads);
        let s = cfg
            .try_check(|b: Broken| b.0 < 100)
            .expect("no counterexample");
        assert_eq!(s.stopped, crate::check::Stop::Internal);
        let m = &s.problems[0];
        assert!(m.starts_with(crate::internal::PREFIX), "{m}");
        assert!(m.contains("is not a `u8`") && m.contains("Broken"), "{m}");
        assert!(s.to_string().contains("internal error"), "{s}");
    }
    // Inside a derived type and a list, forced lazily: the same.
    let s = Config::default()
        .try_check(|xs: Lazy<Vec<Option<Broken>>>| xs.iter().all(|x| x.force().is_none()))
        .expect("no counterexample");
    assert_eq!(s.stopped, crate::check::Stop::Internal);
    // `check` fails with the internal error's own message.
    let m = panic_text(|| {
        crate::check(|b: Broken| b.0 < 100);
    });
    assert!(m.starts_with(crate::internal::PREFIX), "{m}");
    assert!(!m.contains("counterexample (size"), "{m}");
    // The search functions panic with it instead of returning a value.
    let m = panic_text(|| {
        crate::search::sat(|b: Lazy<Broken>| b.force().0 == 1, 3);
    });
    assert!(
        m.starts_with(crate::internal::PREFIX) && m.contains("Broken"),
        "{m}"
    );
    let m = panic_text(|| {
        let _ = crate::search::ctrex(|b: Lazy<Broken>| b.force().0 == 1, 3);
    });
    assert!(m.starts_with(crate::internal::PREFIX), "{m}");
    // A panic of the property itself is still a counterexample.
    let c = Config::default()
        .try_check(|x: u8| assert!(x < 3))
        .unwrap_err();
    assert!(c.panicked && c.value == 3);
}

/// A view of a position that holds another space than its type's own.
#[test]
fn a_view_of_a_foreign_space_is_an_internal_error() {
    let s = space::union(vec![
        space::pay(space::pure(Vec::<bool>::new())),
        space::pay(space::map(space::of::<bool>(), |b| vec![b])),
    ]);
    let mut searcher = crate::search::Searcher::with_space(&s, 5);
    match searcher.step(|xs: Lazy<Vec<bool>>| xs.is_empty()) {
        Some(crate::search::RunResult::Panicked(m)) => {
            assert!(m.starts_with(crate::internal::PREFIX), "{m}");
            assert!(m.contains("can be forced but not viewed"), "{m}");
        }
        other => panic!("expected an internal error, got {other:?}"),
    }
    let p = catch_unwind(AssertUnwindSafe(|| {
        let _ = (crate::search::Searcher::with_space(&s, 5)).ctrex(
            &|xs: Lazy<Vec<bool>>| xs.is_empty(),
            crate::search::Budget::unlimited(),
        );
    }))
    .unwrap_err();
    assert!(crate::internal::message_of(&*p).is_some());
}

// ---- deep counterexamples ----

const DEEP: usize = 20_000;

/// The depth of a lazy `Nat`, read iteratively.
fn spine(n: Lazy<'_, Nat>) -> usize {
    let mut cur = n;
    let mut d = 0;
    while let NatView::S(m) = cur.view() {
        d += 1;
        cur = m;
    }
    d
}

/// Runs `f` on a thread with a small stack.
fn on_small_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap_or_else(|p| std::panic::resume_unwind(p))
}

/// The replay key of the `Nat` nested `depth` deep.
fn deep_key(depth: usize) -> String {
    let ix = crate::index::Indexer::<Nat>::new();
    let tree = ix.tree(depth + 1, &0u32.into()).unwrap();
    crate::replay::key_of(ix.grammar(), &tree)
}

#[test]
fn deep_counterexamples_are_reported_without_debug_on_a_small_stack() {
    let key = deep_key(DEEP);
    let report = on_small_stack(move || {
        let cfg = Config::default().replay(key.clone());
        let c = cfg.try_check(|n: Lazy<Nat>| spine(n) < DEEP).unwrap_err();
        assert_eq!((c.size, c.depth), (DEEP as u64 + 1, DEEP + 1));
        assert!(c.too_deep_for_debug());
        let report = c.report();
        let debug = format!("{c:?}");
        assert!(debug.contains("S(S(S("), "{}", &debug[..100]);
        // The user's value: its own drop is recursive.
        c.discard();
        // `check` itself fails with the same report.
        let m = panic_text(|| {
            cfg.check(|n: Lazy<Nat>| spine(n) < DEEP);
        });
        assert!(m.contains("nested 20001 deep"), "{}", &m[..200]);
        report
    });
    let expected = format!("{}Z{}", "S(".repeat(DEEP), ")".repeat(DEEP));
    assert!(report.contains(&format!(
        "counterexample (size {}, nested {} deep): {expected}\n",
        DEEP + 1,
        DEEP + 1
    )));
    assert!(report.contains("not with `Debug`"), "{}", &report[..300]);
    // A shallow counterexample is still printed with `Debug`.
    let c = Config::default()
        .try_check(|n: Lazy<Nat>| spine(n) < 3)
        .unwrap_err();
    assert_eq!(c.depth, 4);
    assert!(
        c.report().contains("counterexample (size 4): S(S(S(Z)))"),
        "{}",
        c.report()
    );
}

// ---- deep formulas ----

/// A formula with a conjunction per level of `n`, parallel and nested to
/// the left, parallel and nested to the right, or sequential, level by
/// level: false at the bottom of a `Nat` `DEEP` deep or more.
fn every_level(n: Lazy<'_, Nat>, level: usize) -> crate::cool::Cool<'_> {
    use crate::cool::Cool;
    match n.view() {
        NatView::Z => Cool::constant(level < DEEP),
        NatView::S(m) => {
            let below = Cool::lazy(move || every_level(m, level + 1));
            let here = Cool::atom(move || level <= DEEP);
            match level % 3 {
                0 => below & here,
                1 => here & below,
                _ => Cool::seq(here, below),
            }
        }
    }
}

/// Checks `prop` on the `Nat` `DEEP` deep (replayed) under every strategy,
/// on a small stack: each finds it fails.
fn fails_deep_under_every_strategy(prop: for<'a> fn(Lazy<'a, Nat>) -> crate::cool::Cool<'a>) {
    for strategy in crate::cool::Strategy::ALL {
        let key = deep_key(DEEP);
        let size = on_small_stack(move || {
            let c = Config::default()
                .strategy(strategy)
                .replay(key)
                .try_check(prop)
                .unwrap_err();
            let size = c.size;
            c.discard();
            size
        });
        assert_eq!(size, DEEP as u64 + 1, "{strategy}");
    }
}

/// The formula walks and drops go on on a fresh stack segment rather than
/// overflow: a formula as deep as its input, under every strategy.
#[test]
fn a_formula_as_deep_as_its_input_is_searched_on_a_small_stack() {
    fails_deep_under_every_strategy(|n| every_level(n, 0));
}

/// A chain of sequential conjunctions as deep as the input, whose first
/// atom (false on a `Nat` `DEEP` deep) leaves the rest unevaluated.
fn first_false(n: Lazy<'_, Nat>) -> crate::cool::Cool<'_> {
    use crate::cool::Cool;
    fn chain(n: Lazy<'_, Nat>) -> Cool<'_> {
        match n.view() {
            NatView::Z => Cool::constant(true),
            NatView::S(m) => Cool::seq(Cool::atom(|| true), Cool::lazy(move || chain(m))),
        }
    }
    Cool::seq(Cool::atom(move || spine(n) < DEEP), chain(n))
}

#[test]
fn a_deep_formula_left_unevaluated_is_dropped_on_a_small_stack() {
    fails_deep_under_every_strategy(first_false);
}

/// `Cool::eval`, drop and `Debug` of formulas 200 000 conjunctions deep,
/// nested either way, on a small stack.
#[test]
fn deep_formulas_are_evaluated_dropped_and_shown_on_a_small_stack() {
    use crate::cool::Cool;
    const LONG: usize = 200_000;
    on_small_stack(|| {
        let atoms = |skip: usize| (0..LONG).map(move |i| Cool::atom(move || i != skip));
        assert!(Cool::all(atoms(LONG)).eval());
        assert!(!Cool::all(atoms(LONG - 1)).eval());
        let to_the_left = || atoms(LONG).fold(Cool::constant(true), Cool::and);
        assert!(to_the_left().eval());
        drop(Cool::all(atoms(LONG)));
        drop(to_the_left());
        let shown = format!("{:?}", Cool::all(atoms(LONG)));
        assert!(
            shown.starts_with("(<atom> & (<atom> & "),
            "{}",
            &shown[..40]
        );
        assert!(shown.contains("(…)") && shown.len() < 2_000, "{shown}");
    });
}

/// The printer is iterative: a failing run found by a search on a value
/// loaded into a searcher, and the patterns of its reads.
#[test]
fn deep_patterns_print_on_a_small_stack() {
    let shown = on_small_stack(move || {
        let ix = crate::index::Indexer::<Nat>::new();
        let tree = ix.tree(DEEP + 1, &0u32.into()).unwrap();
        let mut s = crate::search::Searcher::<Nat>::new(0);
        s.load(&tree);
        let r = s.ctrex(
            &|n: Lazy<Nat>| {
                // Reads all but the last constructor.
                let mut cur = n;
                for _ in 0..DEEP {
                    match cur.view() {
                        NatView::S(m) => cur = m,
                        NatView::Z => return true,
                    }
                }
                false
            },
            crate::search::Budget::unlimited(),
        );
        let crate::search::BoundResult::Failed(c) = r else {
            panic!("expected a failure")
        };
        let out = (c.pattern.clone(), c.shown.clone());
        c.discard();
        out
    });
    assert_eq!(
        shown.0,
        format!("{}_{}", "S(".repeat(DEEP), ")".repeat(DEEP))
    );
    assert_eq!(
        shown.1,
        format!("{}Z{}", "S(".repeat(DEEP), ")".repeat(DEEP))
    );
}

// ---- unbounded sizes ----

#[test]
fn unbounded_max_size_stops_at_the_run_budget() {
    use crate::check::Stop;
    let mut summaries = vec![];
    for cfg in [
        Config::default().max_size(usize::MAX).threads(1),
        Config::default().max_size(usize::MAX).threads(2),
        Config::default().max_size(1 << 40).threads(1),
    ] {
        let cfg = cfg.runs(500).samples(50, usize::MAX);
        let s = cfg.try_check(|xs: Vec<bool>| xs.len() < 1_000_000).unwrap();
        assert!(s.problems.is_empty(), "{:?}", s.problems);
        assert_eq!(s.runs, 500);
        // A list of length n has size 2n + 1: sizes up to 16 hold the 255
        // lists of length up to 7, which fit the 500 runs, so the search
        // goes to bound 16 at once; size 17 holds the 256 of length 8.
        assert_eq!((s.exhausted, s.stopped), (Some(16), Stop::Runs(17)));
        assert!(
            s.to_string().contains("the run budget stopped size 17"),
            "{s}"
        );
        let (lo, hi) = s.random_sizes.unwrap();
        // Long cases go past the uniform ones' 200 as far as counting
        // their structures stays cheap.
        assert!(lo <= 15 && hi > 900 && s.random_long > 0, "{lo}..={hi}");
        summaries.push((s.runs, s.exhausted, s.stopped, s.random, s.random_sizes));
    }
    assert!(summaries.windows(2).all(|w| w[0] == w[1]), "{summaries:?}");
    // A failure is still the smallest one.
    let c = Config::default()
        .max_size(usize::MAX)
        .try_check(|xs: Vec<bool>| xs.len() < 5)
        .unwrap_err();
    assert_eq!((c.value, c.found), (vec![false; 5], Found::Exhaustive));
}

#[test]
fn huge_sizes_in_the_environment_mean_no_limit() {
    use crate::check::settings::parse_count;
    let size = |t: &str| parse_count(t, usize::MAX);
    let runs = |t: &str| parse_count(t, u64::MAX);
    assert_eq!(size("99999999999999999999999"), Some(usize::MAX));
    assert_eq!(
        runs(" 1_000_000_000_000_000_000_000_000_000_000_000_000_000 "),
        Some(u64::MAX)
    );
    assert_eq!(runs("18446744073709551614"), Some(u64::MAX - 1));
    assert_eq!(size("1_000"), Some(1000));
    assert_eq!(parse_count("300", u8::MAX), Some(255));
    for bad in ["", "-1", "1e9", "abc", "1.5"] {
        assert_eq!(size(bad), None, "{bad}");
    }
}

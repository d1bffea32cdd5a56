//! Shared helpers of the integration tests: an independent oracle (hand-written
//! size functions and hand-written enumerations following docs/spec.md §3), a few
//! derived types, and the checker that compares the search engine with the
//! reference enumeration.
#![allow(dead_code)]

use neatcheck::count::count_up_to;
use neatcheck::grammar::Tree;
use neatcheck::search::Pattern;
use neatcheck::search::{self, Outcome, RunResult, Searcher};
use neatcheck::values::{tree_size, tree_value, trees_of};
use neatcheck::{Enumerable, Lazy};
use num_bigint::{BigInt, BigUint};
use std::collections::HashSet;
use std::fmt::Debug;
use std::hash::Hash;

// ---------------------------------------------------------------------------
// The independent oracle.
// ---------------------------------------------------------------------------

/// Sizes and values computed by hand from the conventions of docs/spec.md §3,
/// without looking at any space description.
pub(crate) trait Oracle: Sized {
    /// The size of a value.
    fn hsize(&self) -> u64;
    /// Every value of exactly size `n` (in no particular order).
    fn hand_values(n: u64) -> Vec<Self>;
}

/// Number of bits needed for `x` (0 for 0).
pub(crate) fn bit_len(x: u128) -> u64 {
    (128 - x.leading_zeros()) as u64
}

impl Oracle for () {
    fn hsize(&self) -> u64 {
        0
    }
    fn hand_values(n: u64) -> Vec<Self> {
        if n == 0 {
            vec![()]
        } else {
            vec![]
        }
    }
}

impl Oracle for bool {
    fn hsize(&self) -> u64 {
        1
    }
    fn hand_values(n: u64) -> Vec<Self> {
        if n == 1 {
            vec![false, true]
        } else {
            vec![]
        }
    }
}

macro_rules! unsigned_oracle {
    ($($t:ty),*) => {$(
        impl Oracle for $t {
            fn hsize(&self) -> u64 {
                bit_len(*self as u128)
            }
            fn hand_values(n: u64) -> Vec<Self> {
                let bits = <$t>::BITS as u64;
                if n > bits {
                    return vec![];
                }
                if n == 0 {
                    return vec![0];
                }
                let lo: u128 = 1 << (n - 1);
                let hi: u128 = (1 << n) - 1;
                (lo..=hi).map(|x| x as $t).collect()
            }
        }
    )*};
}
unsigned_oracle!(u8, u16, u32, u64);

macro_rules! signed_oracle {
    ($($t:ty),*) => {$(
        impl Oracle for $t {
            fn hsize(&self) -> u64 {
                bit_len(self.unsigned_abs() as u128)
            }
            fn hand_values(n: u64) -> Vec<Self> {
                (<$t>::MIN..=<$t>::MAX).filter(|x| x.hsize() == n).collect()
            }
        }
    )*};
}
signed_oracle!(i8, i16);

impl Oracle for char {
    fn hsize(&self) -> u64 {
        bit_len(*self as u128)
    }
    fn hand_values(n: u64) -> Vec<Self> {
        // Every scalar value (surrogates are not `char`s) of bit length n.
        let codes = if n == 0 { 0..1 } else { 1 << (n - 1)..1 << n };
        codes.filter_map(char::from_u32).collect()
    }
}

impl Oracle for BigUint {
    fn hsize(&self) -> u64 {
        self.bits()
    }
    fn hand_values(n: u64) -> Vec<Self> {
        if n == 0 {
            return vec![BigUint::from(0u32)];
        }
        let lo = 1u64 << (n - 1);
        let hi = (1u64 << n) - 1;
        (lo..=hi).map(BigUint::from).collect()
    }
}

impl Oracle for BigInt {
    fn hsize(&self) -> u64 {
        self.magnitude().bits()
    }
    fn hand_values(n: u64) -> Vec<Self> {
        let mags = BigUint::hand_values(n);
        let mut out: Vec<BigInt> = mags.iter().map(|m| BigInt::from(m.clone())).collect();
        if n > 0 {
            out.extend(mags.iter().map(|m| -BigInt::from(m.clone())));
        }
        out
    }
}

impl<T: Oracle> Oracle for Box<T> {
    fn hsize(&self) -> u64 {
        (**self).hsize()
    }
    fn hand_values(n: u64) -> Vec<Self> {
        T::hand_values(n).into_iter().map(Box::new).collect()
    }
}

impl<T: Oracle> Oracle for Option<T> {
    fn hsize(&self) -> u64 {
        1 + self.as_ref().map_or(0, |x| x.hsize())
    }
    fn hand_values(n: u64) -> Vec<Self> {
        let mut out = vec![];
        if n == 1 {
            out.push(None);
        }
        if n >= 1 {
            out.extend(T::hand_values(n - 1).into_iter().map(Some));
        }
        out
    }
}

impl<T: Oracle, E: Oracle> Oracle for Result<T, E> {
    fn hsize(&self) -> u64 {
        1 + match self {
            Ok(x) => x.hsize(),
            Err(e) => e.hsize(),
        }
    }
    fn hand_values(n: u64) -> Vec<Self> {
        if n == 0 {
            return vec![];
        }
        let mut out: Vec<Self> = T::hand_values(n - 1).into_iter().map(Ok).collect();
        out.extend(E::hand_values(n - 1).into_iter().map(Err));
        out
    }
}

/// Lists of total size `n`: `Nil` costs 1, each cell costs 1 plus its element.
pub(crate) fn hand_lists<T: Oracle + Clone>(n: u64) -> Vec<Vec<T>> {
    let mut out = vec![];
    if n == 0 {
        return out;
    }
    if n == 1 {
        out.push(vec![]);
    }
    // Cons: 1 + head + tail, the tail (a list) has size >= 1.
    for head in 0..n.saturating_sub(1) {
        let heads = T::hand_values(head);
        if heads.is_empty() {
            continue;
        }
        let tails = hand_lists::<T>(n - 1 - head);
        for x in &heads {
            for t in &tails {
                let mut v = Vec::with_capacity(t.len() + 1);
                v.push(x.clone());
                v.extend(t.iter().cloned());
                out.push(v);
            }
        }
    }
    out
}

impl<T: Oracle + Clone> Oracle for Vec<T> {
    fn hsize(&self) -> u64 {
        1 + self.len() as u64 + self.iter().map(|x| x.hsize()).sum::<u64>()
    }
    fn hand_values(n: u64) -> Vec<Self> {
        hand_lists(n)
    }
}

impl Oracle for String {
    fn hsize(&self) -> u64 {
        1 + self.chars().count() as u64 + self.chars().map(|c| c.hsize()).sum::<u64>()
    }
    fn hand_values(n: u64) -> Vec<Self> {
        hand_lists::<char>(n)
            .into_iter()
            .map(|v| v.into_iter().collect())
            .collect()
    }
}

/// Sequences of exactly `k` elements of total size `n` (products are free).
pub(crate) fn hand_sequences<T: Oracle + Clone>(k: usize, n: u64) -> Vec<Vec<T>> {
    if k == 0 {
        return if n == 0 { vec![vec![]] } else { vec![] };
    }
    let mut out = vec![];
    for first in 0..=n {
        let firsts = T::hand_values(first);
        if firsts.is_empty() {
            continue;
        }
        let rests = hand_sequences::<T>(k - 1, n - first);
        for x in &firsts {
            for r in &rests {
                let mut v = vec![x.clone()];
                v.extend(r.iter().cloned());
                out.push(v);
            }
        }
    }
    out
}

impl<T: Oracle + Clone, const N: usize> Oracle for [T; N] {
    fn hsize(&self) -> u64 {
        self.iter().map(|x| x.hsize()).sum()
    }
    fn hand_values(n: u64) -> Vec<Self> {
        hand_sequences::<T>(N, n)
            .into_iter()
            .map(|v| match v.try_into() {
                Ok(a) => a,
                Err(_) => unreachable!("sequence of the wrong length"),
            })
            .collect()
    }
}

macro_rules! tuple_oracle {
    ($A:ident $a:ident $(, $R:ident $r:ident)*) => {
        impl<$A: Oracle + Clone $(, $R: Oracle + Clone)*> Oracle for ($A, $($R,)*) {
            fn hsize(&self) -> u64 {
                let ($a, $($r,)*) = self;
                $a.hsize() $(+ $r.hsize())*
            }
            fn hand_values(n: u64) -> Vec<Self> {
                let mut out = vec![];
                for k in 0..=n {
                    let firsts = $A::hand_values(k);
                    if firsts.is_empty() {
                        continue;
                    }
                    let rests = <($($R,)*) as Oracle>::hand_values(n - k);
                    for $a in &firsts {
                        for rest in &rests {
                            #[allow(clippy::unused_unit)]
                            let ($($r,)*) = rest.clone();
                            out.push(($a.clone(), $($r,)*));
                        }
                    }
                }
                out
            }
        }
    };
}
tuple_oracle!(A a);
tuple_oracle!(A a, B b);
tuple_oracle!(A a, B b, C c);
tuple_oracle!(A a, B b, C c, D d);
tuple_oracle!(A a, B b, C c, D d, E e);
tuple_oracle!(A a, B b, C c, D d, E e, F f);

// ---------------------------------------------------------------------------
// Derived types shared by the test files, with their oracles.
// ---------------------------------------------------------------------------

/// Peano naturals: the number i has size i + 1.
#[derive(neatcheck::Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Nat {
    Z,
    S(Box<Nat>),
}

impl Nat {
    pub(crate) fn from_u64(n: u64) -> Nat {
        let mut v = Nat::Z;
        for _ in 0..n {
            v = Nat::S(Box::new(v));
        }
        v
    }
    pub(crate) fn to_u64(&self) -> u64 {
        let mut n = 0;
        let mut cur = self;
        while let Nat::S(m) = cur {
            n += 1;
            cur = m;
        }
        n
    }
}

impl Oracle for Nat {
    fn hsize(&self) -> u64 {
        1 + self.to_u64()
    }
    fn hand_values(n: u64) -> Vec<Self> {
        if n == 0 {
            vec![]
        } else {
            vec![Nat::from_u64(n - 1)]
        }
    }
}

/// Unlabelled binary trees: size 2n + 1 holds Catalan(n) trees.
#[derive(neatcheck::Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Shape {
    Leaf,
    Node(Box<Shape>, Box<Shape>),
}

impl Oracle for Shape {
    fn hsize(&self) -> u64 {
        match self {
            Shape::Leaf => 1,
            Shape::Node(l, r) => 1 + l.hsize() + r.hsize(),
        }
    }
    fn hand_values(n: u64) -> Vec<Self> {
        let mut out = vec![];
        if n == 1 {
            out.push(Shape::Leaf);
        }
        for k in 1..n.saturating_sub(1) {
            let ls = Shape::hand_values(k);
            let rs = Shape::hand_values(n - 1 - k);
            for l in &ls {
                for r in &rs {
                    out.push(Shape::Node(Box::new(l.clone()), Box::new(r.clone())));
                }
            }
        }
        out
    }
}

/// A generic list.
#[derive(neatcheck::Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum List<T> {
    Nil,
    Cons(T, Box<List<T>>),
}

impl<T> List<T> {
    pub(crate) fn to_vec(&self) -> Vec<&T> {
        let mut out = vec![];
        let mut cur = self;
        while let List::Cons(x, rest) = cur {
            out.push(x);
            cur = rest;
        }
        out
    }
}

impl<T: Oracle + Clone> Oracle for List<T> {
    fn hsize(&self) -> u64 {
        let xs = self.to_vec();
        1 + xs.len() as u64 + xs.iter().map(|x| x.hsize()).sum::<u64>()
    }
    fn hand_values(n: u64) -> Vec<Self> {
        hand_lists::<T>(n)
            .into_iter()
            .map(|v| {
                v.into_iter()
                    .rev()
                    .fold(List::Nil, |acc, x| List::Cons(x, Box::new(acc)))
            })
            .collect()
    }
}

/// Mutually recursive: a rose tree and its forest.
#[derive(neatcheck::Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Tree2 {
    Leaf(bool),
    Node(Box<Forest>),
}

/// The forest of [`Tree2`].
#[derive(neatcheck::Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Forest {
    Nil,
    Cons(Box<Tree2>, Box<Forest>),
}

impl Oracle for Tree2 {
    fn hsize(&self) -> u64 {
        match self {
            Tree2::Leaf(_) => 2,
            Tree2::Node(f) => 1 + f.hsize(),
        }
    }
    fn hand_values(n: u64) -> Vec<Self> {
        let mut out = vec![];
        if n == 2 {
            out.push(Tree2::Leaf(false));
            out.push(Tree2::Leaf(true));
        }
        if n >= 1 {
            out.extend(
                Forest::hand_values(n - 1)
                    .into_iter()
                    .map(|f| Tree2::Node(Box::new(f))),
            );
        }
        out
    }
}

impl Oracle for Forest {
    fn hsize(&self) -> u64 {
        match self {
            Forest::Nil => 1,
            Forest::Cons(t, f) => 1 + t.hsize() + f.hsize(),
        }
    }
    fn hand_values(n: u64) -> Vec<Self> {
        let mut out = vec![];
        if n == 1 {
            out.push(Forest::Nil);
        }
        for k in 0..n.saturating_sub(1) {
            let ts = Tree2::hand_values(k);
            if ts.is_empty() {
                continue;
            }
            let fs = Forest::hand_values(n - 1 - k);
            for t in &ts {
                for f in &fs {
                    out.push(Forest::Cons(Box::new(t.clone()), Box::new(f.clone())));
                }
            }
        }
        out
    }
}

/// A binary tree labelled with booleans.
#[derive(neatcheck::Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum BTree {
    Leaf,
    Node(Box<BTree>, bool, Box<BTree>),
}

impl Oracle for BTree {
    fn hsize(&self) -> u64 {
        match self {
            BTree::Leaf => 1,
            BTree::Node(l, _, r) => 2 + l.hsize() + r.hsize(),
        }
    }
    fn hand_values(n: u64) -> Vec<Self> {
        let mut out = vec![];
        if n == 1 {
            out.push(BTree::Leaf);
        }
        for k in 1..n.saturating_sub(2) {
            let ls = BTree::hand_values(k);
            let rs = BTree::hand_values(n - 2 - k);
            for l in &ls {
                for b in [false, true] {
                    for r in &rs {
                        out.push(BTree::Node(Box::new(l.clone()), b, Box::new(r.clone())));
                    }
                }
            }
        }
        out
    }
}

// ---------------------------------------------------------------------------
// The search engine against the reference enumeration.
// ---------------------------------------------------------------------------

/// What one run of a stepping search produced.
#[derive(Debug, Clone)]
pub(crate) struct RunRecord {
    pub result: RunResult,
    pub pattern: Pattern,
    pub tree: Tree,
    pub size: u64,
}

/// Runs a whole search, recording each run's result, pattern and value.
pub(crate) fn record_runs<T, O, P>(bound: usize, pred: P) -> Vec<RunRecord>
where
    T: Enumerable,
    O: Outcome,
    P: Fn(Lazy<'_, T>) -> O,
{
    let mut s = Searcher::<T>::new(bound);
    let mut out = vec![];
    while let Some(result) = s.step(&pred) {
        let pattern = s.pattern(|x| {
            let _ = pred(x);
        });
        out.push(RunRecord {
            result,
            pattern,
            tree: s.tree(),
            size: s.size(),
        });
    }
    out
}

/// What [`check_against_reference`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Summary {
    /// Predicate runs of the full search.
    pub runs: u64,
    /// Runs that returned true.
    pub trues: u64,
    /// Reference values of size <= bound.
    pub values: u64,
    /// Reference values that satisfy the (plain) predicate.
    pub true_values: u64,
    /// Smallest size of a reference value that falsifies the predicate.
    pub min_false: Option<u64>,
}

/// Compares a search with the reference enumeration, for a predicate given
/// twice: lazily (`lazy`, the one the engine runs) and on plain values
/// (`plain`). Checks, for the bound:
/// (a) every reference value of size <= bound matches exactly one run's
///     pattern, and every run's value is a reference value within the bound;
/// (b) the result of that run equals `plain` on the reference value, and
///     each run's own value (both `Searcher::value` and the materialised
///     tree) gets the run's result;
/// (c) with `eager`, the number of runs equals `count_up_to(bound)`;
/// (d) `classes` and `search` agree with the stepping search;
/// (e) iterative deepening with `ctrex` finds a counterexample exactly at
///     the smallest failing size, and `ctrex` at the bound returns the first
///     failing run;
/// (f) `sat` agrees with the reference.
pub(crate) fn check_against_reference<T, P, Q>(
    bound: usize,
    lazy: P,
    plain: Q,
    eager: bool,
) -> Summary
where
    T: Enumerable + Debug + Clone + PartialEq,
    P: Fn(Lazy<'_, T>) -> bool,
    Q: Fn(&T) -> bool,
{
    let runs = record_runs::<T, bool, _>(bound, &lazy);

    // Each run individually.
    let mut s = Searcher::<T>::new(bound);
    for (i, r) in runs.iter().enumerate() {
        let again = s.step(&lazy).expect("the search is deterministic");
        assert_eq!(again, r.result, "run {i} is not reproducible");
        let value = s.value();
        let from_tree: T = tree_value(&r.tree);
        assert_eq!(
            value, from_tree,
            "run {i}: Searcher::value differs from its tree"
        );
        assert!(
            r.size <= bound as u64,
            "run {i} exceeds the bound: {value:?}"
        );
        assert_eq!(
            tree_size::<T>(&r.tree),
            r.size,
            "run {i}: wrong size of {value:?}"
        );
        assert!(
            r.pattern.matches(&r.tree),
            "run {i}: the value does not match its own pattern: {value:?}"
        );
        let expected = plain(&value);
        match &r.result {
            RunResult::True => assert!(expected, "run {i}: true on {value:?}, plain says false"),
            RunResult::False(_) => {
                assert!(!expected, "run {i}: false on {value:?}, plain says true")
            }
            RunResult::Panicked(m) => panic!("run {i} panicked on {value:?}: {m}"),
            RunResult::Discarded => {
                panic!("run {i} discarded on {value:?}: plain predicates never discard")
            }
            other => panic!("run {i}: unexpected {other:?}"),
        }
    }
    assert!(s.step(&lazy).is_none(), "the search is not reproducible");

    // Every reference value is covered by exactly one run.
    let mut values = 0u64;
    let mut true_values = 0u64;
    let mut min_false = None;
    let mut reference: HashSet<Tree> = HashSet::new();
    for n in 0..=bound {
        for t in trees_of::<T>(n) {
            let v: T = tree_value(&t);
            let matching: Vec<usize> = runs
                .iter()
                .enumerate()
                .filter(|(_, r)| r.pattern.matches(&t))
                .map(|(i, _)| i)
                .collect();
            assert_eq!(
                matching.len(),
                1,
                "reference value {v:?} (size {n}) matches runs {matching:?} (bound {bound})"
            );
            let run = &runs[matching[0]];
            let expected = plain(&v);
            assert_eq!(
                run.result.is_true(),
                expected,
                "reference value {v:?}: its class (run {}) says {:?}, plain says {expected}",
                matching[0],
                run.result
            );
            values += 1;
            if expected {
                true_values += 1;
            } else if min_false.is_none() {
                min_false = Some(n as u64);
            }
            reference.insert(t);
        }
    }
    for (i, r) in runs.iter().enumerate() {
        assert!(
            reference.contains(&r.tree),
            "run {i} is not a reference value of size <= {bound}"
        );
    }
    let trues = runs.iter().filter(|r| r.result.is_true()).count() as u64;
    assert_eq!(
        count_up_to::<T>(bound),
        BigUint::from(values),
        "the reference enumeration disagrees with the counts"
    );
    if eager {
        assert_eq!(
            BigUint::from(runs.len()),
            count_up_to::<T>(bound),
            "an eager predicate must run once per value"
        );
    }

    // (d) classes and search.
    let c = search::classes(&lazy, bound);
    assert_eq!(c.runs, runs.len() as u64, "classes: runs");
    assert_eq!(c.satisfying, trues, "classes: satisfying");
    let found: Vec<T> = search::search(&lazy, bound).collect();
    let expected_found: Vec<T> = runs
        .iter()
        .filter(|r| r.result.is_true())
        .map(|r| tree_value(&r.tree))
        .collect();
    assert_eq!(found, expected_found, "search: the satisfying values");
    for v in &found {
        assert!(plain(v), "search returned {v:?}, which does not satisfy");
    }

    // (f) sat.
    assert_eq!(search::sat(&lazy, bound), true_values > 0, "sat");

    // (e) ctrex at the bound: the first failing run.
    match search::ctrex(&lazy, bound) {
        Ok(n) => {
            assert_eq!(min_false, None, "ctrex found no counterexample");
            assert_eq!(n, runs.len() as u64, "ctrex: runs without counterexample");
        }
        Err(c) => {
            let first = runs
                .iter()
                .position(|r| !r.result.is_true())
                .expect("ctrex found a counterexample the search did not");
            assert_eq!(c.value, tree_value::<T>(&runs[first].tree), "ctrex: value");
            assert_eq!(c.runs, first as u64 + 1, "ctrex: runs");
            assert_eq!(c.size, runs[first].size, "ctrex: size");
            assert!(!c.panicked);
            assert!(!plain(&c.value), "ctrex: {:?} does not fail", c.value);
        }
    }
    // (e) iterative deepening: size-minimal.
    let mut deepening = None;
    for b in 0..=bound {
        if let Err(c) = search::ctrex(&lazy, b) {
            deepening = Some(c);
            break;
        }
    }
    match (&deepening, min_false) {
        (None, None) => {}
        (Some(c), Some(m)) => {
            assert_eq!(c.size, m, "deepening found {:?}, not size-minimal", c.value);
            assert!(!plain(&c.value), "deepening: {:?} does not fail", c.value);
        }
        (c, m) => panic!(
            "deepening found {:?}, the smallest failing reference size is {m:?}",
            c.as_ref().map(|c| &c.value)
        ),
    }

    Summary {
        runs: runs.len() as u64,
        trues,
        values,
        true_values,
        min_false,
    }
}

/// Asserts that `values` has no duplicates.
pub(crate) fn assert_distinct<T: Eq + Hash + Debug>(values: &[T], what: &str) {
    let mut seen = HashSet::new();
    for v in values {
        assert!(seen.insert(v), "{what}: {v:?} is listed twice");
    }
}

/// Runs the ignored test `probe` of the module at `module_path` (its
/// `module_path!()`) of this test binary in a child process, with `env`,
/// no regression file and no backtraces: its exit code and standard error.
pub(crate) fn run_probe(
    module_path: &str,
    probe: &str,
    env: &[(&str, &str)],
) -> (Option<i32>, String) {
    let exe = std::env::current_exe().unwrap();
    // Test names are paths within the test binary: `<module>::<probe>`.
    let module = module_path.split_once("::").map_or("", |(_, m)| m);
    let out = std::process::Command::new(&exe)
        .args([
            "--exact",
            &format!("{module}::{probe}"),
            "--nocapture",
            "--ignored",
            "--test-threads=1",
        ])
        .env("NEATCHECK_REGRESSIONS", "0")
        .env("RUST_BACKTRACE", "0")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The text a closure panics with (it must panic, with a string).
pub(crate) fn panic_text(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    match std::panic::catch_unwind(f) {
        Ok(()) => panic!("expected a panic"),
        Err(p) => {
            if let Some(s) = p.downcast_ref::<String>() {
                s.clone()
            } else if let Some(s) = p.downcast_ref::<&str>() {
                s.to_string()
            } else {
                panic!("a panic with a non-string payload")
            }
        }
    }
}

/// Compiles `source` as a test crate with `rustc --test` (after `extra`
/// arguments) in `dir`, and runs it: whether every test passed, and its
/// output. Panics with the compiler's errors and the source when it does
/// not compile: the generated code under test must.
pub(crate) fn compile_and_run_tests(
    dir: &std::path::Path,
    name: &str,
    source: &str,
    extra: &[String],
) -> (bool, String) {
    let file = dir.join(format!("{name}.rs"));
    std::fs::write(&file, source).unwrap();
    let binary = dir.join(name);
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let built = std::process::Command::new(rustc)
        .args(["--edition", "2021", "--test"])
        .args(extra)
        .arg("-o")
        .arg(&binary)
        .arg(&file)
        .output()
        .expect("rustc runs");
    assert!(
        built.status.success(),
        "the generated code does not compile:\n{}\n{source}",
        String::from_utf8_lossy(&built.stderr)
    );
    let ran = std::process::Command::new(&binary)
        .output()
        .expect("the tests run");
    let text = String::from_utf8_lossy(&ran.stdout).into_owned();
    (ran.status.success(), text)
}

//! Measures black-box mutation testing (`neatcheck::mutation`): mutants
//! decided per second in three modes: `all` (every mutant run on every
//! test input until one kills it), `skip` (a mutant runs only on the test
//! inputs whose recording run called its point: the default of `score`)
//! and, for the sort properties, `lazy` (`score_lazy`: the output is read
//! through a `Lazy` handle and one run decides every replacement that
//! agrees on what it read).
//!
//! ```text
//! cargo run --release -p neatcheck-tools --bin mutation_bench -- [--repeat N]
//! ```
//!
//! One row per property and mode: mutants, killed, property runs on
//! mutants, seconds (best of `N`, default 3, recording runs included) and
//! mutants per second; the last column is the speed-up over `all`,
//! measured in the same process.

use neatcheck::mutation::{score, score_lazy, MutationConfig, Report};
use neatcheck::Lazy;
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::hash::Hash;
use std::time::{Duration, Instant};

fn sort(xs: &Vec<u8>) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::with_capacity(xs.len());
    for &x in xs {
        let at = out.partition_point(|&y| y <= x);
        out.insert(at, x);
    }
    out
}

fn reference(xs: &[u8]) -> Vec<u8> {
    let mut ys = xs.to_vec();
    ys.sort();
    ys
}

/// An obviously right but slow reference: the sorted permutation of `xs`
/// found by trying permutations (twenty times over). A stand-in for a
/// property whose run costs microseconds rather than nanoseconds.
fn slow_reference(xs: &[u8]) -> Vec<u8> {
    fn search(rest: &mut Vec<u8>, acc: &mut Vec<u8>) -> bool {
        if rest.is_empty() {
            return true;
        }
        for i in 0..rest.len() {
            let x = rest.remove(i);
            if acc.last().is_none_or(|&l| l <= x) {
                acc.push(x);
                if search(rest, acc) {
                    return true;
                }
                acc.pop();
            }
            rest.insert(i, x);
        }
        false
    }
    let mut acc = vec![];
    let mut rest = vec![];
    for _ in 0..20 {
        acc.clear();
        rest.clear();
        rest.extend_from_slice(xs);
        assert!(search(&mut rest, &mut acc), "some permutation is sorted");
    }
    acc
}

/// Whether a lazy output equals `expected`, read one element at a time.
fn lazy_equals(out: &Lazy<'_, Vec<u8>>, expected: &[u8]) -> bool {
    out.len() == expected.len() && out.iter().zip(expected).all(|(a, b)| a.get() == *b)
}

type Map = BTreeMap<u8, u8>;

/// A property over the function it tests and one test input.
type Prop<'a, A, B, X> = dyn Fn(&dyn Fn(&A) -> B, X) -> bool + 'a;

/// A property of a sort.
type SortProp = Prop<'static, Vec<u8>, Vec<u8>, Vec<u8>>;

/// A property of a map insertion.
type MapProp = Prop<'static, (Map, u8, u8), Map, (Map, u8, u8)>;

/// One benchmarked sort property: its name, plain form and lazy form.
type SortCase<'a> = (&'a str, &'a SortProp, Option<&'a SortSpec>);

/// A lazy spec of a sort's output.
type SortSpec = dyn Fn(&Vec<u8>, Lazy<'_, Vec<u8>>) -> bool;

fn insert(args: &(Map, u8, u8)) -> Map {
    let mut out = args.0.clone();
    out.insert(args.1, args.2);
    out
}

/// Best-of-`repeat` time of one scoring, and its report.
fn timed<A, B>(repeat: usize, run: impl Fn() -> Report<A, B>) -> (Duration, Report<A, B>) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..repeat {
        let start = Instant::now();
        let r = run();
        best = best.min(start.elapsed());
        last = Some(r);
    }
    (best, last.expect("at least one repetition"))
}

fn row<A, B, X>(
    repeat: usize,
    name: &str,
    config: &MutationConfig,
    f: fn(&A) -> B,
    prop: &Prop<'_, A, B, X>,
) -> f64
where
    A: Clone + Eq + Hash + Debug,
    B: neatcheck::Enumerable + Clone + PartialEq + Debug,
    X: neatcheck::Enumerable + Clone + Debug,
{
    let mut times = vec![];
    for skip in [false, true] {
        let c = config.clone().skip_uncalled(skip);
        let (t, r) = timed(repeat, || {
            score(&c, "f", f, prop).expect("the original passes")
        });
        let secs = t.as_secs_f64();
        times.push(secs);
        let speedup = if skip {
            format!("{:.2}x", times[0] / secs)
        } else {
            "1.00x".to_string()
        };
        println!(
            "{name:<26} {:<8} {:>8} {:>8} {:>9} {:>9.4} {:>12.0} {:>8}",
            if skip { "skip" } else { "all" },
            r.mutants,
            r.killed,
            r.runs,
            secs,
            r.mutants as f64 / secs,
            speedup
        );
    }
    times[0]
}

/// The row of `score_lazy` for a sort property with the lazy `spec`.
fn lazy_row(repeat: usize, name: &str, config: &MutationConfig, baseline: f64, spec: &SortSpec) {
    let (t, r) = timed(repeat, || {
        score_lazy(config, "f", sort, |xs: &Vec<u8>| xs.clone(), spec).expect("the original passes")
    });
    let secs = t.as_secs_f64();
    println!(
        "{name:<26} {:<8} {:>8} {:>8} {:>9} {:>9.4} {:>12.0} {:>7.2}x",
        "lazy",
        r.mutants,
        r.killed,
        r.runs,
        secs,
        r.mutants as f64 / secs,
        baseline / secs
    );
}

fn lazy_sorted(out: &Lazy<'_, Vec<u8>>) -> bool {
    let mut prev = None;
    for x in out.iter().map(|x| x.get()) {
        if prev.is_some_and(|p| p > x) {
            return false;
        }
        prev = Some(x);
    }
    true
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let repeat = args
        .iter()
        .position(|a| a == "--repeat")
        .and_then(|i| args.get(i + 1))
        .map_or(3, |n| n.parse().expect("--repeat N"));
    println!(
        "{:<26} {:<8} {:>8} {:>8} {:>9} {:>9} {:>12} {:>8}",
        "property", "mode", "mutants", "killed", "runs", "seconds", "mutants/s", "speedup"
    );
    let sorts = MutationConfig::default().input_size(6).output_size(6);
    #[allow(clippy::eq_op)]
    let cases: Vec<SortCase> = vec![
        (
            "sort_vs_reference",
            &|f, xs| f(&xs) == reference(&xs),
            Some(&|xs, out| lazy_equals(&out, &reference(xs))),
        ),
        (
            "sort_vs_itself",
            &|f, xs| f(&xs) == f(&xs),
            Some(&|_, _| true),
        ),
        (
            "sort_preserves_length",
            &|f, xs| f(&xs).len() == xs.len(),
            Some(&|xs, out| out.len() == xs.len()),
        ),
        (
            "sort_output_sorted",
            &|f, xs| f(&xs).windows(2).all(|w| w[0] <= w[1]),
            Some(&|_, out| lazy_sorted(&out)),
        ),
        (
            "sort_vs_slow_reference",
            &|f, xs| f(&xs) == slow_reference(&xs),
            Some(&|xs, out| lazy_equals(&out, &slow_reference(xs))),
        ),
        (
            "length_slow_check",
            &|f, xs| slow_reference(&xs).len() == xs.len() && f(&xs).len() == xs.len(),
            Some(&|xs, out| slow_reference(xs).len() == xs.len() && out.len() == xs.len()),
        ),
        (
            "sort_reverse_invariant",
            &|f, xs| {
                let mut rev = xs.clone();
                rev.reverse();
                f(&xs) == f(&rev)
            },
            None,
        ),
    ];
    for (name, prop, spec) in cases {
        let all = row(repeat, name, &sorts, sort, prop);
        if let Some(spec) = spec {
            lazy_row(repeat, name, &sorts, all, spec);
        }
    }
    let maps = MutationConfig::default().input_size(5).output_size(5);
    let lookup: &MapProp = &|f, (m, k, v)| f(&(m, k, v)).get(&k) == Some(&v);
    row(repeat, "map_insert_lookup", &maps, insert, lookup);
}

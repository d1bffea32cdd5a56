//! The sampler against the reference enumeration: exact counts, samples
//! only among satisfying values, uniformity (chi-squared with fixed seeds),
//! the backtracking skew bound computed exactly, bad predicates.

use super::pruned::Pruned;
use super::*;
use crate::index::seeded_rng;
use crate::types::grammar_of;
use crate::values::{tree_value, trees_of, values_of};
use crate::Enumerable;
use proptest::prelude::*;
use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::Hash;

#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
enum Tree3 {
    Leaf,
    Node(Box<Tree3>, Abc, Box<Tree3>),
}

#[derive(Enumerable, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Abc {
    A,
    B,
    C,
}

fn increasing(xs: Lazy<'_, Vec<u8>>) -> bool {
    let mut last = None;
    for x in xs.iter().map(|x| x.get()) {
        if last.is_some_and(|l| l >= x) {
            return false;
        }
        last = Some(x);
    }
    true
}

fn increasing_plain(xs: &[u8]) -> bool {
    xs.windows(2).all(|w| w[0] < w[1])
}

/// A search tree over `Abc` keys, checked lazily with bounds.
fn search_tree(t: Lazy<'_, Tree3>) -> bool {
    fn within(t: Lazy<'_, Tree3>, lo: Option<Abc>, hi: Option<Abc>) -> bool {
        match t.view() {
            Tree3View::Leaf => true,
            Tree3View::Node(l, k, r) => {
                let k = k.force();
                lo.is_none_or(|lo| lo < k)
                    && hi.is_none_or(|hi| k < hi)
                    && within(l, lo, Some(k))
                    && within(r, Some(k), hi)
            }
        }
    }
    within(t, None, None)
}

fn search_tree_plain(t: &Tree3) -> bool {
    fn within(t: &Tree3, lo: Option<Abc>, hi: Option<Abc>) -> bool {
        match t {
            Tree3::Leaf => true,
            Tree3::Node(l, k, r) => {
                lo.is_none_or(|lo| lo < *k)
                    && hi.is_none_or(|hi| *k < hi)
                    && within(l, lo, Some(*k))
                    && within(r, Some(*k), hi)
            }
        }
    }
    within(t, None, None)
}

/// The chi-squared statistic's upper 0.1% point for `df` degrees of
/// freedom (Wilson–Hilferty).
fn chi2_critical(df: f64) -> f64 {
    let z = 3.090; // one-sided 0.999 quantile of the normal distribution
    let a = 2.0 / (9.0 * df);
    df * (1.0 - a + z * a.sqrt()).powi(3)
}

/// Draws `per_value` times as many samples as there are satisfying values
/// and checks that each is satisfying and that the counts are uniform.
fn assert_uniform<T, P>(
    size: usize,
    pred: P,
    plain: impl Fn(&T) -> bool,
    per_value: usize,
    seed: u64,
) where
    T: Enumerable + Debug + Eq + Hash + Clone,
    P: Fn(Lazy<'_, T>) -> bool,
{
    let satisfying: Vec<T> = values_of::<T>(size)
        .into_iter()
        .filter(|v| plain(v))
        .collect();
    assert!(
        satisfying.len() > 1,
        "a test needs several satisfying values"
    );
    let mut sampler = Sampler::new(pred);
    let mut rng = seeded_rng(seed);
    let n = per_value * satisfying.len();
    let mut seen: HashMap<T, usize> = satisfying.iter().map(|v| (v.clone(), 0)).collect();
    for _ in 0..n {
        let v = sampler
            .sample(size, &mut rng)
            .unwrap()
            .expect("satisfying values exist");
        *seen
            .get_mut(&v)
            .unwrap_or_else(|| panic!("sampled {v:?}, which does not satisfy the predicate")) += 1;
    }
    let expected = per_value as f64;
    let chi2: f64 = seen
        .values()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    let critical = chi2_critical((satisfying.len() - 1) as f64);
    assert!(
        chi2 < critical,
        "chi-squared {chi2:.1} over {} values is past the 0.1% point {critical:.1}",
        satisfying.len()
    );
    let stats = sampler.stats();
    assert_eq!(stats.draws, n as u64);
    assert!(
        stats.rejected > 0,
        "the predicate rejected nothing: the test tests nothing"
    );
}

#[test]
fn increasing_lists_are_uniform() {
    assert_uniform::<Vec<u8>, _>(12, increasing, |v: &Vec<u8>| increasing_plain(v), 40, 1);
}

#[test]
fn search_trees_are_uniform() {
    assert_uniform::<Tree3, _>(10, search_tree, search_tree_plain, 60, 2);
}

#[test]
fn counts_are_exact() {
    for size in 0..=14 {
        let want = values_of::<Vec<u8>>(size)
            .iter()
            .filter(|v| increasing_plain(v))
            .count();
        let mut sampler = Sampler::new(increasing);
        let got = sampler.count(size, u64::MAX, &mut seeded_rng(0)).unwrap();
        assert_eq!(got.exact, Some(BigUint::from(want)), "size {size}");
        // The recurrence the budget-cut test relies on, against the same.
        assert_eq!(increasing_count(size), BigUint::from(want), "size {size}");
        assert_eq!(got.estimate, want as f64);
    }
    for size in 0..=10 {
        let want = values_of::<Tree3>(size)
            .iter()
            .filter(|v| search_tree_plain(v))
            .count();
        let mut sampler = Sampler::new(search_tree);
        let got = sampler.count(size, u64::MAX, &mut seeded_rng(0)).unwrap();
        assert_eq!(got.exact, Some(BigUint::from(want)), "size {size}");
    }
}

/// How many strictly increasing `Vec<u8>` have size `size`, by the size
/// conventions (nil 1, each cons 1 plus its element) over the reference
/// enumeration's byte sizes: a count that shares nothing with the sampler.
fn increasing_count(size: usize) -> BigUint {
    let byte_size: Vec<usize> = {
        let mut sizes = vec![usize::MAX; 256];
        for s in 0..=size {
            for b in values_of::<u8>(s) {
                sizes[b as usize] = s;
            }
        }
        sizes
    };
    // after[rest][b]: increasing tails of size `rest` whose elements all
    // exceed `b - 1` (`b` = 256: no element left).
    let mut after = vec![vec![BigUint::from(0u32); 257]; size + 1];
    for rest in 0..=size {
        for b in (0..=256).rev() {
            after[rest][b] = if b == 256 {
                BigUint::from(u32::from(rest == 1))
            } else {
                // Without `b`, or with `b` next.
                let mut n = after[rest][b + 1].clone();
                if byte_size[b] < rest {
                    n += &after[rest - 1 - byte_size[b]][b + 1];
                }
                n
            };
        }
    }
    after[size][0].clone()
}

#[test]
fn a_count_cut_by_its_budget_gives_bounds_and_an_estimate() {
    let size = 22;
    let mut sampler = Sampler::new(increasing);
    let c = sampler.count(size, 20_000, &mut seeded_rng(3)).unwrap();
    assert_eq!(c.exact, None);
    assert!(c.runs <= 20_000);
    assert!(c.at_least <= c.at_most);
    let bound = |b: &BigUint| b.to_string().parse::<f64>().unwrap();
    assert!(bound(&c.at_least) <= c.estimate && c.estimate <= bound(&c.at_most));
    // The true count lies within the bounds. (Counted by its recurrence: an
    // exhaustive count at this size is minutes of a debug build.)
    let exact = increasing_count(size);
    assert!(c.at_least <= exact && exact <= c.at_most);
    // The estimate is close (it converges; this seed's error is small).
    let e = exact.to_string().parse::<f64>().unwrap();
    assert!(
        (c.estimate / e - 1.0).abs() < 0.5,
        "estimate {} of {e}",
        c.estimate
    );
}

#[test]
fn no_satisfying_value_is_none_and_a_zero_count() {
    let mut sampler = Sampler::new(|xs: Lazy<'_, Vec<u8>>| xs.len() > 100);
    assert_eq!(sampler.sample(6, &mut seeded_rng(0)).unwrap(), None);
    let c = sampler.count(6, u64::MAX, &mut seeded_rng(0)).unwrap();
    assert_eq!(c.exact, Some(BigUint::from(0u32)));
    // Sizes with no values at all.
    let mut none = Sampler::new(|_: Lazy<'_, Vec<bool>>| true);
    assert_eq!(none.sample(0, &mut seeded_rng(0)).unwrap(), None);
}

#[test]
fn a_draw_out_of_runs_says_so_and_the_next_one_goes_on() {
    let mut sampler = Sampler::new(increasing).max_runs(3);
    let mut rng = seeded_rng(5);
    let mut outs = 0;
    let mut found = None;
    for _ in 0..10_000 {
        match sampler.sample(24, &mut rng) {
            Err(SampleError::OutOfRuns { runs }) => {
                assert_eq!(runs, 3);
                outs += 1;
            }
            Ok(v) => {
                found = v;
                break;
            }
            Err(e) => panic!("{e}"),
        }
    }
    assert!(outs > 0);
    assert!(increasing_plain(
        &found.expect("later draws profit from the earlier runs")
    ));
}

#[test]
fn a_panicking_predicate_is_an_error_naming_the_input() {
    let mut sampler = Sampler::new(|xs: Lazy<'_, Vec<u8>>| {
        if xs.len() == 2 {
            panic!("boom");
        }
        false
    });
    let mut rng = seeded_rng(0);
    let quiet = crate::internal::quiet::Quiet::new();
    let err = sampler.sample(6, &mut rng);
    drop(quiet);
    match err {
        Err(SampleError::Panicked { message, input }) => {
            assert_eq!(message, "boom");
            assert!(input.starts_with('['), "{input}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_predicate_that_reads_differently_is_caught() {
    use std::cell::Cell;
    let flip = Cell::new(false);
    let mut sampler = Sampler::new(|xs: Lazy<'_, Vec<u8>>| {
        flip.set(!flip.get());
        // Reads the length on one run and only the first cell on the next.
        if flip.get() {
            xs.len() == 1
        } else {
            let _ = xs.iter().next();
            false
        }
    });
    let mut rng = seeded_rng(0);
    let mut caught = false;
    for _ in 0..200 {
        match sampler.sample(8, &mut rng) {
            Err(SampleError::Inconsistent { .. }) => {
                caught = true;
                break;
            }
            Ok(_) | Err(SampleError::OutOfRuns { .. }) => {}
            Err(e) => panic!("{e}"),
        }
    }
    assert!(caught);
}

#[test]
fn an_untouched_space_samples_as_feat_does() {
    // With nothing rejected, a draw is `index::sample_tree_in`'s, draw for
    // draw: the check's random phase keeps its cases.
    let g = grammar_of::<Vec<u8>>();
    let mut a = seeded_rng(11);
    let mut b = seeded_rng(11);
    let mut sampler = Sampler::new(|_: Lazy<'_, Vec<u8>>| true);
    for size in [0, 3, 17, 60] {
        let mine = sampler.sample_tree_in(size..=size, &mut a).unwrap();
        let feat = crate::index::sample_tree_in(&g, size, &mut b);
        assert_eq!(mine, feat, "size {size}");
    }
}

/// Every index of the values left, run through a copy of the pruned space
/// by backtracking with bound `skip`: how often each satisfying value is
/// reached (restarts left out). The skew bound says the most reached one is
/// reached at most `skip + 1` times as often as the least.
fn backtracking_reach<T: Enumerable + Debug>(
    size: usize,
    pred: &dyn Fn(Lazy<'_, T>) -> bool,
    warmup: usize,
    skip: u64,
) -> Vec<u64> {
    // A pruned space part-way: some rejections already made.
    let g = grammar_of::<T>();
    let mut searcher = Searcher::<T>::from_grammar(g.clone(), 0);
    let mut base = Pruned::new(g.clone(), size);
    let mut rng = seeded_rng(9);
    for _ in 0..warmup {
        if base.alive().is_zero() {
            break;
        }
        let i = Count::from_big(uniform_below(&base.alive().to_big(), &mut rng));
        let landing = base.value_at(i);
        if landing.accepted {
            continue;
        }
        let (r, reads) = searcher.run_recorded(&landing.tree, pred);
        base.record(&landing.tree, &reads, r.is_true()).unwrap();
    }
    let all = base.alive().clone();
    let trees = trees_of::<T>(size);
    let mut reach: HashMap<String, u64> = HashMap::new();
    for t in &trees {
        let v: T = tree_value(t);
        let (r, _) = searcher.run_recorded(t, pred);
        if r.is_true() {
            reach.insert(format!("{v:?}"), 0);
        }
    }
    let Count::Small(n) = all else {
        panic!("small test spaces")
    };
    for start in 0..n {
        // A fresh copy of the space per starting index.
        let mut pruned = base.clone();
        let index = Count::Small(start);
        let mut skipped = Count::ZERO;
        loop {
            if index >= *pruned.alive() {
                break; // a restart
            }
            let landing = pruned.value_at(index.clone());
            let (r, reads) = if landing.accepted {
                (RunResult::True, vec![])
            } else {
                searcher.run_recorded(&landing.tree, pred)
            };
            if r.is_true() {
                let v: T = tree_value(&landing.tree);
                *reach.get_mut(&format!("{v:?}")).expect("satisfying") += 1;
                break;
            }
            let before = pruned.alive().clone();
            pruned.record(&landing.tree, &reads, false).unwrap();
            skipped.add_assign(&before.sub(pruned.alive()));
            if skipped > Count::from(skip) {
                break; // a restart
            }
        }
    }
    reach.into_values().collect()
}

#[test]
fn backtracking_skew_stays_within_its_bound() {
    for skip in [0u64, 2, 10] {
        let reach = backtracking_reach::<Vec<u8>>(7, &increasing, 5, skip);
        let (lo, hi) = (*reach.iter().min().unwrap(), *reach.iter().max().unwrap());
        assert!(
            lo >= 1,
            "every satisfying value is reachable from its own index"
        );
        assert!(
            hi <= (skip + 1) * lo,
            "skip {skip}: reached {hi} vs {lo} times"
        );
        if skip == 10 {
            assert!(hi > lo, "the bound is not vacuous here: backtracking skews");
        }
    }
}

#[test]
fn backtracking_samples_satisfy_and_restart() {
    for method in [Method::Backtrack { skip: 100 }, Method::BacktrackUnbounded] {
        let mut sampler = Sampler::new(search_tree).method(method);
        let mut rng = seeded_rng(4);
        for _ in 0..300 {
            let t = sampler.sample(10, &mut rng).unwrap().unwrap();
            assert!(search_tree_plain(&t));
        }
    }
}

/// A random lazy predicate over lists of `Abc`: it reads elements one at a
/// time and decides from a table what to do next.
#[derive(Clone, Debug)]
struct TablePred {
    /// `step[i % len][prev][x]`: 0 go on, 1 true, 2 false.
    step: Vec<[[u8; 3]; 4]>,
    /// Verdict at the end of the list by position parity.
    at_end: [bool; 2],
}

impl TablePred {
    fn decide(&self, xs: impl Iterator<Item = Abc>) -> bool {
        let mut prev = 3usize;
        for (i, x) in xs.enumerate() {
            match self.step[i % self.step.len()][prev][x as usize] {
                1 => return true,
                2 => return false,
                _ => prev = x as usize,
            }
        }
        self.at_end[0]
    }
}

fn table_pred() -> impl Strategy<Value = TablePred> {
    let row = prop::array::uniform3(0u8..3);
    let table = prop::array::uniform4(row);
    (prop::collection::vec(table, 1..4), any::<[bool; 2]>())
        .prop_map(|(step, at_end)| TablePred { step, at_end })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Exact counts and samples of random lazy predicates agree with the
    /// reference enumeration.
    #[test]
    fn random_predicates_count_and_sample_right(p in table_pred(), size in 0usize..9, seed in any::<u64>()) {
        let lazy = |xs: Lazy<'_, Vec<Abc>>| p.decide(xs.iter().map(|x| x.force()));
        let want: Vec<Vec<Abc>> = values_of::<Vec<Abc>>(size)
            .into_iter()
            .filter(|v| p.decide(v.iter().copied()))
            .collect();
        let mut sampler = Sampler::new(lazy);
        let c = sampler.count(size, u64::MAX, &mut seeded_rng(seed)).unwrap();
        prop_assert_eq!(c.exact, Some(BigUint::from(want.len())));
        let mut fresh = Sampler::new(lazy);
        let mut rng = seeded_rng(seed);
        for _ in 0..20 {
            match fresh.sample(size, &mut rng).unwrap() {
                Some(v) => prop_assert!(want.contains(&v)),
                None => prop_assert!(want.is_empty()),
            }
        }
        // Runs: never more than one per class the count found.
        prop_assert!(fresh.stats().runs <= c.runs.max(1) + 20);
    }
}

#[test]
fn sizes_in_a_range_are_weighted_by_their_satisfying_values() {
    // Increasing lists of sizes 2..=4: uniform over all of them together.
    let satisfying: Vec<Vec<u8>> = (2..=4)
        .flat_map(values_of::<Vec<u8>>)
        .filter(|v| increasing_plain(v))
        .collect();
    let mut sampler = Sampler::new(increasing);
    let mut rng = seeded_rng(8);
    let per = 60;
    let mut seen: HashMap<Vec<u8>, usize> = HashMap::new();
    for _ in 0..per * satisfying.len() {
        let v = sampler.sample_in(2..=4, &mut rng).unwrap().unwrap();
        *seen.entry(v).or_default() += 1;
    }
    assert_eq!(seen.len(), satisfying.len());
    let chi2: f64 = seen
        .values()
        .map(|&c| (c as f64 - per as f64).powi(2) / per as f64)
        .sum();
    assert!(
        chi2 < chi2_critical((satisfying.len() - 1) as f64),
        "{chi2}"
    );
}

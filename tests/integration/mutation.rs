//! Black-box mutation testing (`neatcheck::mutation`) against a brute force
//! that builds every mutant as a real closure and runs the property on every
//! test input of the reference enumeration (`values_up_to`).

use neatcheck::mutation::{
    assert_score, near_mutants, score, Mutant, MutantKind, MutationConfig, Report,
};
use neatcheck::values::values_up_to;
use neatcheck::Enumerable;
use proptest::prelude::*;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::hash::Hash;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A property over the function it tests and one test input.
type Prop<'a, A, B, X> = dyn Fn(&dyn Fn(&A) -> B, X) -> bool + 'a;

/// The report of a sort's mutants.
type SortReport = Report<Vec<u8>, Vec<u8>>;

/// A lazy spec of a sort's output.
type SortSpec = dyn Fn(&Vec<u8>, neatcheck::Lazy<'_, Vec<u8>>) -> bool;

/// Every mutant's verdict by brute force: the points are the distinct
/// inputs the property called the function with (first call first), the
/// replacements every output value up to `output_size` (reference order)
/// other than the original, then, point by point, the original's near
/// mutants (up to `near`) that are not among those small values; a mutant
/// is killed when the property fails or panics on some test input.
/// Returns the mutants and the survivors.
fn brute_force<A, B, X>(
    input_size: usize,
    output_size: usize,
    near: usize,
    f: &dyn Fn(&A) -> B,
    prop: &Prop<'_, A, B, X>,
) -> (usize, Vec<Mutant<A, B>>)
where
    A: Clone + PartialEq,
    B: Enumerable + Clone + PartialEq,
    X: Enumerable + Clone,
{
    let inputs = values_up_to::<X>(input_size);
    let points: RefCell<Vec<A>> = RefCell::new(vec![]);
    for x in &inputs {
        let recording = |a: &A| {
            let mut p = points.borrow_mut();
            if !p.contains(a) {
                p.push(a.clone());
            }
            f(a)
        };
        assert!(prop(&recording, x.clone()), "the original must pass");
    }
    let outputs = values_up_to::<B>(output_size);
    let points = points.into_inner();
    let mut replacements: Vec<Vec<(MutantKind, B)>> = points
        .iter()
        .map(|a| {
            let original = f(a);
            outputs
                .iter()
                .filter(|b| **b != original)
                .map(|b| (MutantKind::Small, b.clone()))
                .collect()
        })
        .collect();
    if near > 0 {
        for (a, r) in points.iter().zip(&mut replacements) {
            let close = near_mutants(&f(a), near).unwrap_or_default();
            r.extend(close.into_iter().filter(|(_, b)| !outputs.contains(b)));
        }
    }
    // Small mutants of every point first, then the near ones.
    let order = replacements
        .iter()
        .enumerate()
        .flat_map(|(p, r)| {
            r.iter()
                .filter(|m| m.0 == MutantKind::Small)
                .map(move |m| (p, m))
        })
        .chain(replacements.iter().enumerate().flat_map(|(p, r)| {
            r.iter()
                .filter(|m| m.0 != MutantKind::Small)
                .map(move |m| (p, m))
        }));
    let mut mutants = 0;
    let mut survivors = vec![];
    for (p, (kind, b)) in order {
        let a = &points[p];
        let original = f(a);
        mutants += 1;
        let mutant = |y: &A| if y == a { b.clone() } else { f(y) };
        let killed = inputs
            .iter()
            .any(|x| catch_unwind(AssertUnwindSafe(|| !prop(&mutant, x.clone()))).unwrap_or(true));
        if !killed {
            survivors.push(Mutant {
                point: a.clone(),
                original: original.clone(),
                replacement: b.clone(),
                kind: *kind,
            });
        }
    }
    (mutants, survivors)
}

/// Scores with the skipping on and off and by brute force, and checks that
/// all three agree (mutants, kills, survivors in order).
fn agrees<A, B, X>(
    input_size: usize,
    output_size: usize,
    f: &dyn Fn(&A) -> B,
    prop: &Prop<'_, A, B, X>,
) -> Report<A, B>
where
    A: Clone + Eq + Hash + Debug,
    B: Enumerable + Clone + PartialEq + Debug,
    X: Enumerable + Clone + Debug,
{
    let config = MutationConfig::default()
        .input_size(input_size)
        .output_size(output_size)
        .max_mutants(1_000_000);
    let report = score(&config, "f", f, prop).unwrap();
    let naive = score(&config.clone().skip_uncalled(false), "f", f, prop).unwrap();
    let (mutants, survivors) = brute_force(input_size, output_size, 16, f, prop);
    assert!(!report.sampled && !report.budget_exhausted);
    assert_eq!(report.mutants, mutants);
    assert_eq!(report.killed, mutants - survivors.len());
    assert_eq!(report.survivors, survivors);
    assert_eq!(report.undecided, 0);
    assert_eq!(naive.survivors, report.survivors);
    assert_eq!(
        (naive.mutants, naive.killed),
        (report.mutants, report.killed)
    );
    // The runs the skipping saves are counted exactly.
    assert_eq!(naive.runs, report.runs_without_skipping);
    assert_eq!(naive.runs, naive.runs_without_skipping);
    assert!(report.runs <= naive.runs);
    report
}

// A `Vec` argument: the mutation points are the property's inputs.
#[allow(clippy::ptr_arg)]
fn sort(xs: &Vec<u8>) -> Vec<u8> {
    let mut ys = xs.clone();
    ys.sort();
    ys
}

fn is_sorted(xs: &[u8]) -> bool {
    xs.windows(2).all(|w| w[0] <= w[1])
}

#[test]
fn a_reference_kills_every_mutant_and_the_slip_none() {
    let strong = agrees(4, 4, &sort, &|f, xs: Vec<u8>| f(&xs) == sort(&xs));
    assert!(strong.mutants > 50);
    assert_eq!(strong.score(), Some(1.0));
    assert!(strong.survivors.is_empty());

    #[allow(clippy::eq_op)]
    let slip = agrees(4, 4, &sort, &|f, xs: Vec<u8>| f(&xs) == f(&xs));
    assert_eq!(slip.mutants, strong.mutants);
    assert_eq!(slip.killed, 0);
    assert_eq!(slip.score(), Some(0.0));
    let shown = slip.to_string();
    assert!(
        shown.contains("your property still passes if `f([])` returned `[0]` (instead of `[]`)"),
        "{shown}"
    );
    assert_eq!(
        slip.line("sort_vs_itself"),
        format!(
            "property sort_vs_itself mutants {} killed 0 score 0.000",
            slip.mutants
        )
    );
}

#[test]
fn intermediate_properties_match_the_brute_force() {
    let length = agrees(4, 4, &sort, &|f, xs: Vec<u8>| f(&xs).len() == xs.len());
    let ordered = agrees(4, 4, &sort, &|f, xs: Vec<u8>| is_sorted(&f(&xs)));
    let both = agrees(4, 4, &sort, &|f, xs: Vec<u8>| {
        let ys = f(&xs);
        is_sorted(&ys) && ys.len() == xs.len()
    });
    for weak in [&length, &ordered] {
        assert!(0 < weak.killed && weak.killed < weak.mutants);
        assert!(weak.killed < both.killed);
    }
    // Survivors of the length-only property keep the length.
    assert!(length
        .survivors
        .iter()
        .all(|m| m.replacement.len() == m.point.len()));
}

#[test]
fn properties_calling_the_function_several_times_match_the_brute_force() {
    // Sorting ignores order: points are the input and its reverse.
    let report = agrees(4, 3, &sort, &|f, xs: Vec<u8>| {
        let mut rev = xs.clone();
        rev.reverse();
        f(&xs) == f(&rev)
    });
    assert!(report.killed > 0 && !report.survivors.is_empty());
    // A predicate on numbers, called on neighbours.
    let even = |x: &u8| x % 2 == 0;
    let report = agrees(3, 1, &even, &|f, x: u8| x == 255 || f(&x) != f(&(x + 1)));
    assert!(report.points > report.inputs);
}

#[test]
fn a_map_insert_lookup_property_matches_the_brute_force() {
    type Map = BTreeMap<u8, u8>;
    let insert = |(m, k, v): &(Map, u8, u8)| {
        let mut out = m.clone();
        out.insert(*k, *v);
        out
    };
    let lookup = agrees(3, 3, &insert, &|f, (m, k, v): (Map, u8, u8)| {
        f(&(m, k, v)).get(&k) == Some(&v)
    });
    let full = agrees(3, 3, &insert, &|f, (m, k, v): (Map, u8, u8)| {
        let mut expected = m.clone();
        expected.insert(k, v);
        f(&(m, k, v)) == expected
    });
    assert!(lookup.killed < full.killed);
    assert_eq!(full.score(), Some(1.0));
    assert!(lookup
        .to_string()
        .contains("your property still passes if `f({0: 0}, 1, 0)` returned `{1: 0}`"));
}

#[test]
fn scores_are_deterministic_and_sampling_is_seeded() {
    let prop = |f: &dyn Fn(&Vec<u8>) -> Vec<u8>, xs: Vec<u8>| f(&xs).len() == xs.len();
    let config = MutationConfig::default()
        .input_size(5)
        .output_size(5)
        .max_mutants(200)
        .near_mutants(0);
    let a = score(&config, "sort", sort, prop).unwrap();
    let b = score(&config, "sort", sort, prop).unwrap();
    assert!(a.sampled);
    assert!(a.pairs > 200u32.into());
    assert_eq!(a.mutants + a.equivalent, 200);
    assert_eq!((a.mutants, a.killed, a.runs), (b.mutants, b.killed, b.runs));
    assert_eq!(a.survivors, b.survivors);
    assert_eq!(a.to_string(), b.to_string());
    let other = score(&config.clone().seed(1), "sort", sort, prop).unwrap();
    assert_ne!(a.survivors, other.survivors);
    // The sampled verdicts are true verdicts: survivors of the full run.
    let (_, all_survivors) = brute_force(5, 5, 0, &sort, &prop);
    assert!(a.survivors.iter().all(|s| all_survivors.contains(s)));
    assert!(!a.to_string().contains("undecided"));
}

#[test]
fn the_budget_of_runs_is_respected_and_reported() {
    let prop = |f: &dyn Fn(&Vec<u8>) -> Vec<u8>, xs: Vec<u8>| is_sorted(&f(&xs));
    let config = MutationConfig::default().input_size(4).output_size(4);
    let full = score(&config, "sort", sort, prop).unwrap();
    for budget in [0, 1, 17, full.runs / 2] {
        let cut = score(&config.clone().max_runs(budget), "sort", sort, prop).unwrap();
        assert!(cut.runs <= budget);
        assert!(cut.budget_exhausted);
        assert_eq!(cut.mutants, full.mutants);
        assert_eq!(
            cut.killed + cut.survivors.len() + cut.undecided,
            cut.mutants
        );
        assert!(cut.undecided > 0);
        // Decided mutants are decided as without a budget.
        assert!(cut.survivors.iter().all(|s| full.survivors.contains(s)));
        assert!(cut.killed <= full.killed);
        assert!(cut.to_string().contains("the budget of runs ran out"));
    }
    let exact = score(&config.clone().max_runs(full.runs), "sort", sort, prop).unwrap();
    assert!(!exact.budget_exhausted);
    assert_eq!(exact.killed, full.killed);
}

#[test]
fn assert_score_fails_with_the_survivors() {
    let strong = |f: &dyn Fn(&Vec<u8>) -> Vec<u8>, xs: Vec<u8>| f(&xs) == sort(&xs);
    let weak = |f: &dyn Fn(&Vec<u8>) -> Vec<u8>, xs: Vec<u8>| f(&xs).len() == xs.len();
    let config = MutationConfig::default().input_size(3).output_size(3);
    assert_eq!(assert_score(1.0, &config, "sort", sort, strong).killed, {
        score(&config, "sort", sort, strong).unwrap().mutants
    });
    let failure = catch_unwind(AssertUnwindSafe(|| {
        assert_score(0.9, &config, "sort", sort, weak);
    }))
    .unwrap_err();
    let message = failure.downcast_ref::<String>().unwrap();
    assert!(message.contains("below the required 0.900"), "{message}");
    assert!(
        message.contains("your property still passes if `sort([0])` returned `[1]`"),
        "{message}"
    );
    let failure = catch_unwind(AssertUnwindSafe(|| {
        assert_score(0.5, &config, "sort", sort, |f, xs: Vec<u8>| {
            f(&xs).len() < 2
        });
    }))
    .unwrap_err();
    let message = failure.downcast_ref::<String>().unwrap();
    assert!(
        message.contains("fails with the original function"),
        "{message}"
    );
}

/// Observations of a sort's output; a property checks a subset of them.
fn observe(which: u8, xs: &[u8], ys: &[u8]) -> bool {
    let obs: [&dyn Fn() -> bool; 5] = [
        &|| ys.len() == xs.len(),
        &|| is_sorted(ys),
        &|| ys.first() == xs.iter().min(),
        &|| ys.iter().map(|&y| y as u32).sum::<u32>() == xs.iter().map(|&x| x as u32).sum(),
        &|| xs.iter().all(|x| ys.contains(x)),
    ];
    obs.iter()
        .enumerate()
        .all(|(i, o)| which & (1 << i) == 0 || o())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn any_conjunction_of_observations_matches_the_brute_force(
        which in 0u8..32,
        input_size in 0usize..4,
        output_size in 0usize..4,
    ) {
        let report = agrees(input_size, output_size, &sort, &|f, xs: Vec<u8>| {
            observe(which, &xs, &f(&xs))
        });
        if which == 0 {
            prop_assert_eq!(report.killed, 0);
        }
    }
}

// ---------------------------------------------------------------------------
// The lazy form: the same verdicts as the plain form, in fewer runs.

fn lazy_is_sorted(out: &neatcheck::Lazy<'_, Vec<u8>>) -> bool {
    let mut prev = None;
    for x in out.iter().map(|x| x.get()) {
        if prev.is_some_and(|p| p > x) {
            return false;
        }
        prev = Some(x);
    }
    true
}

/// `score_lazy` with a lazy spec against `score` with the same spec on
/// plain values: the same mutants, kills and survivors (small ones: the
/// lazy form has no near mutants).
fn lazy_agrees(
    config: &MutationConfig,
    lazy: &SortSpec,
    plain: &dyn Fn(&Vec<u8>, &Vec<u8>) -> bool,
) -> (SortReport, SortReport) {
    let fast = neatcheck::mutation::score_lazy(config, "f", sort, |xs: &Vec<u8>| xs.clone(), lazy)
        .unwrap();
    let small_only = config.clone().near_mutants(0);
    let slow = score(&small_only, "f", sort, |f, xs: Vec<u8>| plain(&xs, &f(&xs))).unwrap();
    assert_eq!(
        (fast.mutants, fast.killed, fast.equivalent, fast.undecided),
        (slow.mutants, slow.killed, slow.equivalent, slow.undecided)
    );
    assert_eq!(fast.survivors, slow.survivors);
    assert_eq!(fast.runs_without_skipping, slow.runs_without_skipping);
    (fast, slow)
}

#[test]
fn the_lazy_form_gives_the_plain_verdicts() {
    let config = MutationConfig::default().input_size(5).output_size(5);
    let (fast, slow) = lazy_agrees(&config, &|xs, out| out.len() == xs.len(), &|xs, out| {
        out.len() == xs.len()
    });
    // One run per length (and a trace per failing one), not per mutant:
    // the gap widens with the output size (lengths grow linearly, outputs
    // exponentially).
    assert!(fast.runs * 2 < slow.runs, "{} vs {}", fast.runs, slow.runs);
    // Sortedness reads elements up to the first descent: fine classes, and
    // each failing one traced again, so here the lazy form takes more runs
    // than one per mutant (`mutation_bench` measures it); verdicts agree.
    lazy_agrees(&config, &|_, out| lazy_is_sorted(&out), &|_, out| {
        is_sorted(out)
    });
    let (fast, _) = lazy_agrees(
        &config,
        &|xs, out| {
            let expected = sort(xs);
            out.len() == expected.len() && out.iter().zip(&expected).all(|(a, b)| a.get() == *b)
        },
        &|xs, out| *out == sort(xs),
    );
    assert_eq!(fast.score(), Some(1.0));
    #[allow(clippy::eq_op)]
    let (fast, _) = lazy_agrees(&config, &|_, _| true, &|_, _| true);
    assert_eq!(fast.killed, 0);
    assert_eq!(fast.runs, fast.points as u64);
}

#[test]
fn the_lazy_form_samples_budgets_and_errors_like_the_plain_one() {
    let length = |xs: &Vec<u8>, out: neatcheck::Lazy<'_, Vec<u8>>| out.len() == xs.len();
    let plain_length = |xs: &Vec<u8>, out: &Vec<u8>| out.len() == xs.len();
    let sampled = MutationConfig::default()
        .input_size(5)
        .output_size(5)
        .max_mutants(300)
        .seed(3);
    let (fast, _) = lazy_agrees(&sampled, &length, &plain_length);
    assert!(fast.sampled);
    let config = MutationConfig::default().input_size(4).output_size(4);
    let full =
        neatcheck::mutation::score_lazy(&config, "f", sort, |xs: &Vec<u8>| xs.clone(), length)
            .unwrap();
    for budget in [0, 1, 5, full.runs / 2] {
        let cut = neatcheck::mutation::score_lazy(
            &config.clone().max_runs(budget),
            "f",
            sort,
            |xs: &Vec<u8>| xs.clone(),
            length,
        )
        .unwrap();
        assert!(cut.runs <= budget && cut.budget_exhausted);
        assert_eq!(
            cut.killed + cut.survivors.len() + cut.undecided,
            cut.mutants
        );
        assert!(cut.survivors.iter().all(|s| full.survivors.contains(s)));
    }
    let too_small = neatcheck::mutation::score_lazy(
        &MutationConfig::default().input_size(4).output_size(2),
        "f",
        sort,
        |xs: &Vec<u8>| xs.clone(),
        length,
    )
    .unwrap_err();
    assert!(
        too_small
            .to_string()
            .contains("raise `MutationConfig::output_size`"),
        "{too_small}"
    );
    let fails = neatcheck::mutation::score_lazy(
        &config,
        "f",
        sort,
        |xs: &Vec<u8>| xs.clone(),
        |xs: &Vec<u8>, out: neatcheck::Lazy<'_, Vec<u8>>| out.len() < 2 || xs.is_empty(),
    )
    .unwrap_err();
    assert!(matches!(
        fails,
        neatcheck::mutation::MutationError::OriginalFails { .. }
    ));
}

/// The near mutants of a list of bytes, by what each edit means: a byte
/// one up or down, the list cut at a cell, a 0 appended (the end switched
/// to a cell), a byte removed (a cell lifted), a 0 inserted (a cell
/// wrapped around the rest).
fn near_by_hand(v: &[u8]) -> std::collections::BTreeSet<Vec<u8>> {
    let mut out = std::collections::BTreeSet::new();
    for i in 0..v.len() {
        for moved in [v[i].checked_sub(1), v[i].checked_add(1)]
            .into_iter()
            .flatten()
        {
            let mut w = v.to_vec();
            w[i] = moved;
            out.insert(w);
        }
        out.insert(v[..i].to_vec());
        let mut w = v.to_vec();
        w.remove(i);
        out.insert(w);
    }
    for i in 0..=v.len() {
        let mut w = v.to_vec();
        w.insert(i, 0);
        out.insert(w);
    }
    out.remove(v);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// `near_mutants` of any list of bytes is exactly the brute-force set of
    /// one-place edits, and a cap keeps a spread subset.
    #[test]
    fn near_mutants_of_byte_lists_are_the_one_place_edits(v in prop::collection::vec(any::<u8>(), 0..12)) {
        let near = near_mutants(&v, usize::MAX).unwrap();
        let got: std::collections::BTreeSet<Vec<u8>> = near.iter().map(|(_, w)| w.clone()).collect();
        prop_assert_eq!(got.len(), near.len(), "no duplicates");
        let capped = near_mutants(&v, 5).unwrap();
        prop_assert!(capped.len() <= 5);
        prop_assert!(capped.iter().all(|(_, w)| got.contains(w)));
        prop_assert_eq!(got, near_by_hand(&v));
    }
}

/// The insert function of Paper IV's Fig. 4.1, and its six properties, of
/// growing strength (an ordered list is the input sorted, as QuickCheck's
/// `OrderedList`).
mod figure_4_1 {
    pub(super) type Insert<'a> = &'a dyn Fn(&(u8, Vec<u8>)) -> Vec<u8>;
    /// A property of insert.
    pub(super) type InsertProperty = fn(Insert, (u8, Vec<u8>)) -> bool;

    pub(super) fn insert((x, xs): &(u8, Vec<u8>)) -> Vec<u8> {
        let mut out = xs.clone();
        let at = out.partition_point(|&y| y <= *x);
        out.insert(at, *x);
        out
    }

    fn ordered(xs: &[u8]) -> bool {
        xs.windows(2).all(|w| w[0] <= w[1])
    }

    /// `a \\ b`: `a` without one occurrence of each element of `b`.
    fn without(a: &[u8], b: &[u8]) -> Vec<u8> {
        let mut out = a.to_vec();
        for y in b {
            if let Some(i) = out.iter().position(|z| z == y) {
                out.remove(i);
            }
        }
        out
    }

    pub(super) fn insert0(f: Insert, (x, xs): (u8, Vec<u8>)) -> bool {
        !ordered(&xs) || ordered(&f(&(x, xs.clone())))
    }
    pub(super) fn insert1(f: Insert, (x, mut xs): (u8, Vec<u8>)) -> bool {
        xs.sort();
        ordered(&f(&(x, xs)))
    }
    pub(super) fn insert2(f: Insert, (x, mut xs): (u8, Vec<u8>)) -> bool {
        xs.sort();
        let out = f(&(x, xs));
        ordered(&out) && out.contains(&x)
    }
    pub(super) fn insert3(f: Insert, (x, mut xs): (u8, Vec<u8>)) -> bool {
        xs.sort();
        let out = f(&(x, xs.clone()));
        ordered(&out) && out.len() == xs.len() + 1
    }
    pub(super) fn insert4(f: Insert, (x, mut xs): (u8, Vec<u8>)) -> bool {
        xs.sort();
        let out = f(&(x, xs.clone()));
        ordered(&out) && out.contains(&x) && out.len() == xs.len() + 1
    }
    pub(super) fn insert5(f: Insert, (x, mut xs): (u8, Vec<u8>)) -> bool {
        xs.sort();
        let out = f(&(x, xs.clone()));
        ordered(&out) && without(&xs, &out).is_empty() && without(&out, &xs) == [x]
    }
}

/// Paper IV's ranking of the six insert properties (3%, 37%, 64%, 87%,
/// 90%, 100% killed) comes out of the one-mutant-per-test-input count with
/// near mutants: strictly increasing, the complete one at 1.
#[test]
fn the_insert_properties_of_figure_4_1_rank_as_in_the_paper() {
    use figure_4_1::*;
    let properties: [InsertProperty; 6] = [insert0, insert1, insert2, insert3, insert4, insert5];
    let config = MutationConfig::default().input_size(5);
    let scores: Vec<f64> = properties
        .iter()
        .map(|p| {
            let report = score(&config, "insert", insert, |f: Insert, x| p(f, x)).unwrap();
            assert!(matches!(
                report.near,
                neatcheck::mutation::NearMutants::PerPoint(16)
            ));
            report.cases.score().unwrap()
        })
        .collect();
    assert!(scores.windows(2).all(|w| w[0] < w[1]), "{scores:?}");
    assert_eq!(scores[5], 1.0);
}

/// A human-readable size: `1.5 KiB`.
fn human_bytes(n: &u64) -> String {
    let units = ["B", "KiB", "MiB", "GiB"];
    let (mut value, mut unit) = (*n as f64, 0);
    while value >= 1024.0 && unit < units.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", units[unit])
}

/// Small replacements of a `String` (`"\0"`, `"\u{1}"`...) are all killed
/// by a format check that says almost nothing; the mutants near the real
/// outputs ("1.0 KiC", "10 B") survive it, so its score falls, and the
/// report says which kinds survived.
#[test]
fn near_mutants_expose_a_weak_check_of_a_string_output() {
    let weak = |f: &dyn Fn(&u64) -> String, n: u64| f(&n).ends_with('B');
    let config = MutationConfig::default().input_size(6);
    let small_only = score(
        &config.clone().near_mutants(0),
        "human_bytes",
        human_bytes,
        weak,
    )
    .unwrap();
    assert_eq!(small_only.score(), Some(1.0));
    let report = score(&config, "human_bytes", human_bytes, weak).unwrap();
    assert!(report.score().unwrap() < 0.9, "{report}");
    let near_survivors: usize = report
        .kinds
        .iter()
        .filter(|k| k.kind != MutantKind::Small)
        .map(|k| k.survived)
        .sum();
    assert!(near_survivors > 0);
    assert!(report
        .survivors
        .iter()
        .any(|m| m.kind == MutantKind::Neighbour));
    let text = report.to_string();
    assert!(
        text.contains("mutants near the original outputs: up to 16 per point"),
        "{text}"
    );
    assert!(
        text.contains("a neighbouring number or character:"),
        "{text}"
    );
    // A reference check kills every mutant, near ones included.
    let strong = |f: &dyn Fn(&u64) -> String, n: u64| f(&n) == human_bytes(&n);
    assert_eq!(
        score(&config, "human_bytes", human_bytes, strong)
            .unwrap()
            .score(),
        Some(1.0)
    );
}

/// `filter` with its predicate as an argument: the mutation points are
/// (predicate, list) pairs, functions among them.
fn filter(input: &(neatcheck::Fun<u8, bool>, Vec<u8>)) -> Vec<u8> {
    let (p, xs) = input;
    xs.iter().copied().filter(|x| p(x)).collect()
}

#[test]
fn a_higher_order_function_is_mutated_at_its_function_arguments() {
    type Input = (neatcheck::Fun<u8, bool>, Vec<u8>);
    // Against the reference: every mutant killed, as the brute force says.
    let strong = agrees(5, 3, &filter, &|f, input: Input| {
        let (p, xs) = &input;
        f(&input) == xs.iter().copied().filter(|x| p(x)).collect::<Vec<u8>>()
    });
    assert!(strong.mutants > 20, "{strong}");
    assert_eq!(strong.score(), Some(1.0));
    // "The result is a sublist": mutants that drop elements survive.
    let weak = agrees(5, 3, &filter, &|f, input: Input| {
        let ys = f(&input);
        let mut rest = input.1.iter();
        ys.iter().all(|y| rest.any(|x| x == y))
    });
    assert!(weak.killed < weak.mutants, "{weak}");
    let shown = weak.to_string();
    assert!(
        shown.contains("|_| "),
        "survivors name their predicate: {shown}"
    );
}

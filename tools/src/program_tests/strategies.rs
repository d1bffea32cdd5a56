//! Conjunction strategies against the reference numbers of
//! `docs/benchmarks/` (conformance.md's and-or and ordered-nodup,
//! imperative.md, typecheck.md), strategy D against the boolean engine, and
//! every strategy on random formulas against the reference enumeration.

use crate::benchmarks;

use benchmarks::conformance as c;
use neatcheck::cool::{Cool, Strategy};
use neatcheck::search::Pattern;
use neatcheck::search::{classes, Searcher};
use neatcheck::values::{trees_of, values_of};
use neatcheck::Lazy;

/// Columns: D, O, F, OS, OF, OSF; one row per bound 0..=22.
const AND_OR: [[u64; 6]; 23] = [
    [0, 0, 0, 0, 0, 0],
    [1, 1, 1, 1, 1, 1],
    [1, 1, 1, 1, 1, 1],
    [3, 3, 3, 3, 3, 3],
    [3, 3, 3, 3, 3, 3],
    [5, 7, 6, 5, 5, 5],
    [5, 7, 6, 5, 5, 5],
    [7, 11, 8, 7, 7, 7],
    [7, 11, 8, 7, 7, 7],
    [9, 15, 10, 9, 9, 9],
    [9, 15, 10, 9, 9, 9],
    [11, 19, 12, 11, 11, 11],
    [11, 19, 12, 11, 11, 11],
    [13, 23, 14, 13, 13, 13],
    [13, 23, 14, 13, 13, 13],
    [15, 27, 16, 15, 15, 15],
    [15, 27, 16, 15, 15, 15],
    [17, 31, 18, 17, 17, 17],
    [17, 31, 18, 17, 17, 17],
    [19, 35, 20, 19, 19, 19],
    [19, 35, 20, 19, 19, 19],
    [21, 39, 22, 21, 21, 21],
    [21, 39, 22, 21, 21, 21],
];
const AND_OR_HITS: [u64; 23] = [
    0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10,
];

const ORDERED_NODUP: [[u64; 6]; 23] = [
    [0, 0, 0, 0, 0, 0],
    [1, 1, 1, 1, 1, 1],
    [1, 1, 1, 1, 1, 1],
    [2, 2, 2, 2, 2, 2],
    [2, 2, 2, 2, 2, 2],
    [3, 3, 3, 3, 3, 3],
    [5, 5, 5, 5, 5, 5],
    [7, 6, 7, 6, 6, 6],
    [10, 9, 11, 9, 9, 9],
    [14, 11, 14, 11, 11, 11],
    [20, 16, 20, 16, 16, 16],
    [27, 20, 25, 20, 20, 20],
    [37, 27, 34, 27, 28, 27],
    [50, 34, 42, 34, 35, 34],
    [66, 46, 54, 45, 46, 45],
    [89, 62, 71, 58, 60, 58],
    [116, 79, 89, 74, 76, 74],
    [152, 103, 112, 93, 97, 93],
    [197, 137, 141, 118, 125, 118],
    [256, 187, 178, 148, 159, 148],
    [326, 251, 222, 184, 201, 184],
    [420, 358, 282, 229, 255, 228],
    [531, 469, 353, 282, 319, 280],
];
const ORDERED_NODUP_HITS: [u64; 23] = [
    0, 1, 1, 2, 2, 2, 3, 3, 4, 4, 6, 6, 8, 9, 11, 13, 16, 18, 22, 26, 30, 36, 42,
];

#[test]
fn and_or_matches_reference_for_every_strategy() {
    for (col, strategy) in Strategy::ALL.into_iter().enumerate() {
        for bound in 0..=22 {
            let r = neatcheck::Config::default()
                .max_size(bound)
                .strategy(strategy)
                .classes(c::and_or);
            assert_eq!(
                (r.runs, r.satisfying),
                (AND_OR[bound][col], AND_OR_HITS[bound]),
                "and-or {strategy} bound {bound}"
            );
        }
    }
}

#[test]
fn ordered_nodup_matches_reference_for_every_strategy() {
    for (col, strategy) in Strategy::ALL.into_iter().enumerate() {
        for bound in 0..=22 {
            let r = neatcheck::Config::default()
                .max_size(bound)
                .strategy(strategy)
                .classes(c::ordered_nodup);
            assert_eq!(
                (r.runs, r.satisfying),
                (ORDERED_NODUP[bound][col], ORDERED_NODUP_HITS[bound]),
                "ordered-nodup {strategy} bound {bound}"
            );
        }
    }
}

/// Imperative (imperative.md), bounds 0..=12, columns D, O, F, OS, OF, OSF.
const IMPERATIVE: [[u64; 6]; 13] = [
    [0, 0, 0, 0, 0, 0],
    [1, 1, 1, 1, 1, 1],
    [1, 1, 1, 1, 1, 1],
    [3, 3, 3, 3, 3, 3],
    [5, 6, 6, 5, 5, 5],
    [12, 12, 13, 10, 11, 10],
    [24, 19, 27, 17, 21, 19],
    [59, 37, 61, 35, 36, 35],
    [126, 59, 121, 59, 58, 61],
    [308, 114, 286, 121, 105, 116],
    [737, 217, 625, 240, 194, 239],
    [1776, 381, 1403, 458, 327, 458],
    [4424, 748, 3091, 965, 620, 961],
];
const IMPERATIVE_HITS: [u64; 13] = [0, 0, 0, 0, 0, 0, 1, 1, 1, 8, 8, 11, 51];

#[test]
fn imperative_matches_reference_for_every_strategy() {
    for (col, strategy) in Strategy::ALL.into_iter().enumerate() {
        for bound in 0..=12 {
            let r = neatcheck::Config::default()
                .max_size(bound)
                .strategy(strategy)
                .classes(benchmarks::imperative::prop);
            assert_eq!(
                (r.runs, r.satisfying),
                (IMPERATIVE[bound][col], IMPERATIVE_HITS[bound]),
                "imperative {strategy} bound {bound}"
            );
        }
    }
}

/// Typecheck (typecheck.md), bounds 0..=14, columns D, O, F, OS, OF, OSF.
const TYPECHECK: [[u64; 6]; 15] = [
    [0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0],
    [2, 2, 2, 2, 2, 2],
    [2, 2, 2, 2, 2, 2],
    [4, 4, 4, 4, 4, 4],
    [9, 9, 9, 9, 9, 9],
    [14, 14, 14, 14, 14, 14],
    [27, 24, 24, 24, 24, 24],
    [60, 46, 48, 46, 45, 45],
    [111, 80, 89, 80, 80, 79],
    [242, 158, 186, 159, 158, 156],
    [512, 303, 375, 306, 307, 307],
    [1034, 591, 754, 598, 603, 598],
    [2252, 1184, 1564, 1198, 1218, 1214],
    [4650, 2295, 3177, 2320, 2370, 2348],
];
const TYPECHECK_HITS: [u64; 15] = [0, 0, 1, 1, 2, 4, 5, 10, 15, 30, 52, 100, 180, 345, 626];

#[test]
fn typecheck_matches_reference_for_every_strategy() {
    for (col, strategy) in Strategy::ALL.into_iter().enumerate() {
        for bound in 0..=14 {
            let r = neatcheck::Config::default()
                .max_size(bound)
                .strategy(strategy)
                .classes(benchmarks::typecheck::prop);
            assert_eq!(
                (r.runs, r.satisfying),
                (TYPECHECK[bound][col], TYPECHECK_HITS[bound]),
                "typecheck {strategy} bound {bound}"
            );
        }
    }
}

#[test]
fn typecheck_osf_matches_reference_beyond_bound_10() {
    let col = 5;
    for bound in 11..=14 {
        let r = neatcheck::Config::default()
            .max_size(bound)
            .strategy(Strategy::OSF)
            .classes(benchmarks::typecheck::prop);
        assert_eq!(
            (r.runs, r.satisfying),
            (TYPECHECK[bound][col], TYPECHECK_HITS[bound]),
            "typecheck OSF bound {bound}"
        );
    }
}

/// Imperative's five invariants as one boolean predicate (`&&`).
fn imperative_bool(s: neatcheck::Lazy<'_, benchmarks::imperative::Stmt>) -> bool {
    use benchmarks::imperative::*;
    no_unused(s) && no_nested_if(s) && no_skip(s) && decls_top(s) && all_bound(s)
}

#[test]
fn strategy_d_runs_as_the_boolean_engine() {
    for bound in 0..=13 {
        assert_eq!(
            neatcheck::Config::default()
                .max_size(bound)
                .strategy(Strategy::D)
                .classes(benchmarks::imperative::prop),
            classes(imperative_bool, bound),
            "imperative bound {bound}"
        );
    }
    for bound in 0..=15 {
        assert_eq!(
            neatcheck::Config::default()
                .max_size(bound)
                .strategy(Strategy::D)
                .classes(benchmarks::typecheck::prop),
            classes(benchmarks::lambda::well_typed, bound),
            "typecheck bound {bound}"
        );
    }
}

// ---------------------------------------------------------------------------
// Random formulas over lists of booleans

/// A formula over a `Vec<bool>` input.
#[derive(Clone, Debug)]
enum Form {
    /// Element i exists and is true (reads cells 0..=i, then element i).
    Elem(usize),
    /// The list has at least k elements (reads cells 0..k).
    LenGe(usize),
    /// Parallel conjunction.
    And(Box<Form>, Box<Form>),
    /// Sequential conjunction.
    Seq(Box<Form>, Box<Form>),
    /// Negation.
    Not(Box<Form>),
    /// The same formula, computed only when a strategy needs it.
    Lazy(Box<Form>),
}

fn elem(xs: Lazy<'_, Vec<bool>>, i: usize) -> bool {
    xs.nth(i).is_some_and(|b| b.get())
}

fn len_ge(xs: Lazy<'_, Vec<bool>>, k: usize) -> bool {
    k == 0 || xs.nth(k - 1).is_some()
}

fn to_cool<'a>(f: &Form, xs: Lazy<'a, Vec<bool>>) -> Cool<'a> {
    match f {
        &Form::Elem(i) => Cool::atom(move || elem(xs, i)),
        &Form::LenGe(k) => Cool::atom(move || len_ge(xs, k)),
        Form::And(a, b) => to_cool(a, xs) & to_cool(b, xs),
        Form::Seq(a, b) => Cool::seq(to_cool(a, xs), to_cool(b, xs)),
        Form::Not(a) => !to_cool(a, xs),
        Form::Lazy(a) => {
            let a = (**a).clone();
            Cool::lazy(move || to_cool(&a, xs))
        }
    }
}

/// The formula on a plain value.
fn eval_plain(f: &Form, v: &[bool]) -> bool {
    match f {
        &Form::Elem(i) => v.get(i) == Some(&true),
        &Form::LenGe(k) => v.len() >= k,
        Form::And(a, b) | Form::Seq(a, b) => eval_plain(a, v) && eval_plain(b, v),
        Form::Not(a) => !eval_plain(a, v),
        Form::Lazy(a) => eval_plain(a, v),
    }
}

/// Rewrites `f` so that every conjunction is under an even number of
/// negations (a conjunction at odd depth `c` becomes `Not(c)`). Such a
/// formula reads the same positions under every evaluation order whenever
/// it is true, so the reads of a satisfying run (its equivalence class) can
/// be recovered by evaluating it left to right.
fn order_independent(f: &Form, negated: bool) -> Form {
    let bx = Box::new;
    match f {
        Form::Elem(_) | Form::LenGe(_) => f.clone(),
        Form::Not(a) => Form::Not(bx(order_independent(a, !negated))),
        Form::Lazy(a) => Form::Lazy(bx(order_independent(a, negated))),
        Form::And(a, b) | Form::Seq(a, b) => {
            let (a, b) = (
                bx(order_independent(a, false)),
                bx(order_independent(b, false)),
            );
            let c = match f {
                Form::And(..) => Form::And(a, b),
                _ => Form::Seq(a, b),
            };
            if negated {
                Form::Not(bx(c))
            } else {
                c
            }
        }
    }
}

fn form() -> impl proptest::strategy::Strategy<Value = Form> {
    use proptest::prelude::*;
    let leaf = prop_oneof![
        (0..5usize).prop_map(Form::Elem),
        (0..6usize).prop_map(Form::LenGe)
    ];
    leaf.prop_recursive(5, 24, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Form::And(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Form::Seq(Box::new(a), Box::new(b))),
            inner.clone().prop_map(|a| Form::Not(Box::new(a))),
            inner.prop_map(|a| Form::Lazy(Box::new(a))),
        ]
    })
}

/// Forces a closure to the higher-ranked signature `step_cool` expects.
fn pred<F: for<'a> Fn(Lazy<'a, Vec<bool>>) -> Cool<'a>>(f: F) -> F {
    f
}

/// Searches `f` under `strategy` and checks the result against the
/// reference enumeration: every run's result is the formula's value on the
/// run's value, and (when `classes` is set) every value of size `<= bound`
/// is matched by exactly one satisfying run's pattern if it satisfies `f`
/// and by none otherwise.
fn check_search(f: &Form, bound: usize, strategy: Strategy, classes: bool) -> Result<(), String> {
    let p = pred(|xs| to_cool(f, xs));
    let mut s = Searcher::<Vec<bool>>::new(bound);
    let mut patterns: Vec<Pattern> = vec![];
    while let Some(r) = s.step_cool(strategy, &p) {
        let v: Vec<bool> = s.value();
        let expected = eval_plain(f, &v);
        if r.is_true() != expected {
            return Err(format!(
                "{strategy}: run on {v:?} gave {r:?}, expected {expected}"
            ));
        }
        if expected && classes {
            patterns.push(s.pattern(|xs| p(xs).eval()));
        }
    }
    if !classes {
        return Ok(());
    }
    for n in 0..=bound {
        for (v, t) in values_of::<Vec<bool>>(n)
            .iter()
            .zip(trees_of::<Vec<bool>>(n))
        {
            let matched = patterns.iter().filter(|p| p.matches(&t)).count();
            let expected = usize::from(eval_plain(f, v));
            if matched != expected {
                return Err(format!(
                    "{strategy}: {v:?} matched by {matched} satisfying classes, expected {expected}"
                ));
            }
        }
    }
    Ok(())
}

proptest::proptest! {
    #[test]
    fn random_formulas_find_exactly_the_satisfying_values(f in form(), bound in 0..=11usize) {
        // Strategy D reads exactly what left-to-right evaluation reads.
        check_search(&f, bound, Strategy::D, true).map_err(proptest::test_runner::TestCaseError::fail)?;
        // The other strategies: results on every formula, classes on
        // formulas whose satisfying runs read the same under any order.
        let g = order_independent(&f, false);
        for strategy in Strategy::ALL {
            check_search(&f, bound, strategy, false).map_err(proptest::test_runner::TestCaseError::fail)?;
            check_search(&g, bound, strategy, true).map_err(proptest::test_runner::TestCaseError::fail)?;
        }
    }

    #[test]
    fn random_formulas_under_d_run_as_the_boolean_engine(f in form(), bound in 0..=11usize) {
        let cool = neatcheck::Config::default().max_size(bound).strategy(Strategy::D).classes(pred(|xs| to_cool(&f, xs)));
        let plain = classes(|xs: Lazy<'_, Vec<bool>>| to_cool(&f, xs).eval(), bound);
        proptest::prop_assert_eq!(cool, plain);
    }
}

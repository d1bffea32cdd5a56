//! The symbolic search against the enumerative one: the same smallest
//! sizes on false conjectures (written and randomly generated), no false
//! alarm on true ones, and the witnesses of the synthetic constraint
//! problems.

use super::search_goal as search_symbolic;
use crate::cli::with_large_stack;
use crate::tip::eval::Limits;
use crate::tip::{parse_program, search_goal, SearchOptions, Verdict};
use proptest::prelude::*;

/// Both searches on every conjecture of `src` up to `max_size`: per
/// conjecture, (enumerative, symbolic) as (size, minimal) of the
/// counterexample, `None` if it passed.
type Outcome = Option<(u64, bool)>;

fn both(src: &str, max_size: usize) -> Vec<(Outcome, Outcome)> {
    let src = src.to_string();
    with_large_stack(move || {
        let p = parse_program(&src).expect("parses");
        let options = SearchOptions {
            max_size,
            ..SearchOptions::default()
        };
        p.goals
            .iter()
            .map(|g| {
                let outcome = |v: Verdict| match v {
                    Verdict::Failed { size, minimal, .. } => Some((size, minimal)),
                    Verdict::Passed { coverage, .. } => {
                        assert_eq!(coverage.bound, Some(max_size), "searched to the bound");
                        None
                    }
                    Verdict::Error(e) => panic!("error: {e}"),
                };
                let e = outcome(search_goal(&p, g, &options));
                let (s, _) = search_symbolic(&p, g, max_size, Limits::default(), None);
                (e, outcome(s))
            })
            .collect()
    })
    .expect("the search thread")
}

const LISTS: &str = "
(declare-datatype Nat ((Z) (S (p Nat))))
(declare-datatype list ((nil) (cons (head Nat) (tail list))))
(define-fun-rec len ((xs list)) Nat (match xs ((nil Z) ((cons y ys) (S (len ys))))))
(define-fun-rec plus ((x Nat) (y Nat)) Nat (match x ((Z y) ((S n) (S (plus n y))))))
(define-fun-rec sum ((xs list)) Nat (match xs ((nil Z) ((cons y ys) (plus y (sum ys))))))
(define-fun-rec app ((xs list) (ys list)) list
  (match xs ((nil ys) ((cons z zs) (cons z (app zs ys))))))
(define-fun-rec rev ((xs list)) list
  (match xs ((nil nil) ((cons y ys) (app (rev ys) (cons y nil))))))
(define-fun-rec le ((a Nat) (b Nat)) Bool
  (match a ((Z true) ((S a2) (match b ((Z false) ((S b2) (le a2 b2))))))))
(define-fun tl ((xs list)) list (match xs ((nil nil) ((cons y ys) ys))))
(define-fun hd ((xs list)) Nat (match xs (((cons y ys) y))))
";

#[test]
fn written_conjectures_get_the_same_smallest_counterexamples() {
    let src = format!(
        "{LISTS}
(prove (forall ((xs list)) (distinct (len xs) (S (S (S Z))))))
(prove (forall ((xs list)) (distinct (sum xs) (S (S (S Z))))))
(prove (forall ((xs list) (ys list)) (= (plus (len xs) (sum ys)) (plus (sum ys) (len ys)))))
(prove (forall ((xs list)) (= (rev xs) xs)))
(prove (forall ((xs list) (ys list)) (= (app xs ys) (app ys xs))))
(prove (forall ((xs list)) (= (rev (rev xs)) xs)))
(prove (forall ((xs list) (ys list)) (= (len (app xs ys)) (plus (len ys) (len xs)))))
(prove (forall ((xs list)) (le (hd xs) (sum xs))))
(prove (forall ((xs list)) (=> (le (S (S Z)) (len xs)) (le (hd (tl xs)) (hd xs)))))
(prove (forall ((x Nat) (y Nat)) (=> (le x y) (le y x) (= x y))))
(prove (forall ((b Bool) (xs list)) (= b (le (len xs) (sum xs)))))
"
    );
    let outcomes = both(&src, 9);
    let expected_failures = [
        true, true, true, true, true, false, false, false, true, false, true,
    ];
    for (k, ((e, s), fails)) in outcomes.iter().zip(expected_failures).enumerate() {
        assert_eq!(e, s, "conjecture {k}: enumerative {e:?}, symbolic {s:?}");
        assert_eq!(e.is_some(), fails, "conjecture {k}: {e:?}");
        if let Some((_, minimal)) = s {
            assert!(minimal, "conjecture {k}: proven smallest");
        }
    }
}

#[test]
fn the_synthetic_witnesses_are_found_at_their_sizes() {
    for (name, size) in [
        ("colour_06.smt2", 13),
        ("queens_4.smt2", 15),
        ("sortperm_3.smt2", 9),
    ] {
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/symbolic")
            .join(name);
        let src = std::fs::read_to_string(path).expect("fixture");
        let verdict = with_large_stack(move || {
            let p = parse_program(&src).expect("parses");
            search_symbolic(&p, &p.goals[0], 40, Limits::default(), None).0
        })
        .expect("the search thread");
        match verdict {
            Verdict::Failed {
                size: found,
                minimal,
                ..
            } => {
                assert_eq!(found, size, "{name}");
                assert!(minimal, "{name}");
            }
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn true_fixtures_raise_no_false_alarm() {
    for name in [
        "isaplanner_prop_01.smt2",
        "list_elem.smt2",
        "sort_nat_BSortSorts.smt2",
        "int_left_distrib.smt2",
    ] {
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name);
        let src = std::fs::read_to_string(path).expect("fixture");
        let verdicts = with_large_stack(move || {
            let p = parse_program(&src).expect("parses");
            p.goals
                .iter()
                .map(|g| search_symbolic(&p, g, 5, Limits::default(), None).0)
                .collect::<Vec<_>>()
        })
        .expect("the search thread");
        for v in verdicts {
            assert!(matches!(v, Verdict::Passed { .. }), "{name}: {v:?}");
        }
    }
}

/// A random expression of the list program: a list (`true`) or a number.
fn expr(list: bool, depth: u32) -> BoxedStrategy<String> {
    let leaf = if list {
        prop_oneof![
            Just("xs".to_string()),
            Just("ys".to_string()),
            Just("nil".to_string())
        ]
        .boxed()
    } else {
        prop_oneof![
            Just("Z".to_string()),
            Just("(S Z)".to_string()),
            Just("n".to_string())
        ]
        .boxed()
    };
    if depth == 0 {
        return leaf;
    }
    let l = expr(true, depth - 1);
    let n = expr(false, depth - 1);
    if list {
        prop_oneof![
            leaf,
            l.clone().prop_map(|a| format!("(rev {a})")),
            l.clone().prop_map(|a| format!("(tl {a})")),
            (l.clone(), l.clone()).prop_map(|(a, b)| format!("(app {a} {b})")),
            (n, l).prop_map(|(x, a)| format!("(cons {x} {a})")),
        ]
        .boxed()
    } else {
        prop_oneof![
            leaf,
            l.clone().prop_map(|a| format!("(len {a})")),
            l.clone().prop_map(|a| format!("(sum {a})")),
            l.clone().prop_map(|a| format!("(hd {a})")),
            n.clone().prop_map(|a| format!("(S {a})")),
            (n.clone(), n.clone()).prop_map(|(a, b)| format!("(plus {a} {b})")),
            (n.clone(), n.clone(), n.clone(), n)
                .prop_map(|(a, b, c, d)| format!("(ite (le {a} {b}) {c} {d})")),
        ]
        .boxed()
    }
}

fn conjecture() -> impl Strategy<Value = String> {
    let n = || expr(false, 2);
    let l = || expr(true, 2);
    prop_oneof![
        (n(), n()).prop_map(|(a, b)| format!("(= {a} {b})")),
        (n(), n()).prop_map(|(a, b)| format!("(le {a} {b})")),
        (l(), l()).prop_map(|(a, b)| format!("(= {a} {b})")),
        (l(), l()).prop_map(|(a, b)| format!("(distinct {a} {b})")),
        (n(), n(), l(), l()).prop_map(|(a, b, c, d)| format!("(=> (le {a} {b}) (= {c} {d}))")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_conjectures_get_the_same_verdicts_and_sizes(body in conjecture()) {
        let src = format!(
            "{LISTS}(prove (forall ((xs list) (ys list) (n Nat)) {body}))\n"
        );
        for (e, s) in both(&src, 7) {
            prop_assert_eq!(e, s, "{}", body);
        }
    }
}

#[test]
fn calls_from_different_branches_merge_into_one() {
    // Both branches recur on the tail: unmerged, the formula doubles per
    // element; merged, it grows linearly.
    let src = format!(
        "{LISTS}
(define-fun-rec walk ((xs list)) Nat
  (match xs ((nil Z) ((cons y ys) (ite (le y Z) (walk ys) (S (walk ys)))))))
(prove (forall ((xs list)) (le (walk xs) (S (S (S (S (S (S (S Z))))))))))
"
    );
    let (verdict, effort) = with_large_stack(move || {
        let p = parse_program(&src).expect("parses");
        search_symbolic(&p, &p.goals[0], 30, Limits::default(), None)
    })
    .expect("the search thread");
    // Eight non-zero elements: (cons (S Z) ...) eight times, then nil.
    match verdict {
        Verdict::Failed { size, minimal, .. } => {
            assert_eq!((size, minimal), (25, true));
        }
        other => panic!("{other:?}"),
    }
    assert!(effort.variables < 20_000, "{effort:?}");
}

#[test]
fn tip_fixtures_get_the_same_verdicts() {
    for name in [
        "planted_take_drop.smt2",
        "planted_int_distrib.smt2",
        "weird_nat_mul3_same.smt2",
        "list_nat_perm_trans.smt2",
        "ord_sort.smt2",
    ] {
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name);
        let src = std::fs::read_to_string(path).expect("fixture");
        for (k, (e, s)) in both(&src, 7).into_iter().enumerate() {
            assert_eq!(e, s, "{name}, conjecture {k}");
        }
    }
}

#[test]
fn a_proof_without_expansion_covers_every_size() {
    let src = format!(
        "{LISTS}
(prove (forall ((xs list)) (= (app xs nil) xs)))
(prove (forall ((xs list)) (= (tl (cons Z xs)) xs)))
"
    );
    let efforts = with_large_stack(move || {
        let p = parse_program(&src).expect("parses");
        p.goals
            .iter()
            .map(|g| search_symbolic(&p, g, 6, Limits::default(), None))
            .collect::<Vec<_>>()
    })
    .expect("the search thread");
    // `app xs nil` recurs on all of `xs`: no finite expansion proves it.
    // `tl (cons Z xs)` never looks into `xs`: proved for every `xs`.
    let proved: Vec<bool> = efforts.iter().map(|(_, e)| e.proved).collect();
    assert_eq!(proved, [false, true]);
    for (v, _) in &efforts {
        assert!(matches!(v, Verdict::Passed { .. }), "{v:?}");
    }
}

#[test]
fn a_type_without_values_is_an_error_and_bounds_at_the_edges_work() {
    let src = "
(declare-datatype Inf ((More (next Inf))))
(declare-datatype Nat ((Z) (S (p Nat))))
(prove (forall ((x Inf)) false))
(prove (forall ((n Nat)) (distinct n Z)))
";
    let verdicts = with_large_stack(move || {
        let p = parse_program(src).expect("parses");
        let run =
            |k: usize, size| search_symbolic(&p, &p.goals[k], size, Limits::default(), None).0;
        (run(0, 10), run(1, 0), run(1, 10_000))
    })
    .expect("the search thread");
    assert!(
        matches!(&verdicts.0, Verdict::Error(e) if e.contains("without values")),
        "{:?}",
        verdicts.0
    );
    // Size 0 holds no input (`Z` costs 1); a bound of 10 000 finds `Z`.
    assert!(
        matches!(&verdicts.1, Verdict::Passed { coverage, .. } if coverage.bound == Some(0)),
        "{:?}",
        verdicts.1
    );
    assert!(
        matches!(
            &verdicts.2,
            Verdict::Failed {
                size: 1,
                minimal: true,
                ..
            }
        ),
        "{:?}",
        verdicts.2
    );
}

//! Tests of the TIP front end against hand-written Rust: the interpreter on
//! every small input, planted false conjectures against brute force, a
//! sample of the TIP corpus, laziness, and the command's errors.

use crate::cli::{run, with_large_stack, EXIT_ERROR, EXIT_FAILED, EXIT_PASSED};
use crate::tip::eval::{Abort, Limits, Machine, Meanings, Value};
use crate::tip::program::Program;
use crate::tip::{parse_program, search_goal, SearchOptions, Verdict};
use neatcheck::dynamic::DynValue;
use std::path::PathBuf;
use std::rc::Rc;

fn fixture_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(fixture_path(name)).expect("fixture")
}

// -- values between Rust and the interpreter ------------------------------

fn nat<'a>(p: &Program, n: u32) -> Value<'a> {
    let (z, s) = (p.ctor("Z").unwrap(), p.ctor("S").unwrap());
    let mut v = Value::Con(z, Rc::from(vec![]));
    for _ in 0..n {
        v = Value::Con(s, Rc::from(vec![v]));
    }
    v
}

fn list<'a>(p: &Program, xs: &[u32]) -> Value<'a> {
    let (nil, cons) = (p.ctor("nil").unwrap(), p.ctor("cons").unwrap());
    let mut v = Value::Con(nil, Rc::from(vec![]));
    for &x in xs.iter().rev() {
        v = Value::Con(cons, Rc::from(vec![nat(p, x), v]));
    }
    v
}

fn to_nat<'a>(m: &mut Machine<'a>, p: &Program, v: Value<'a>) -> u32 {
    let mut v = v;
    let mut n = 0;
    loop {
        match m.whnf(v).unwrap() {
            Value::Con(c, fs) if c == p.ctor("S").unwrap() => {
                n += 1;
                v = fs[0].clone();
            }
            Value::Con(c, _) if c == p.ctor("Z").unwrap() => return n,
            other => panic!("not a Nat: {other:?}"),
        }
    }
}

fn to_list<'a>(m: &mut Machine<'a>, p: &Program, v: Value<'a>) -> Vec<u32> {
    let mut v = v;
    let mut out = vec![];
    loop {
        match m.whnf(v).unwrap() {
            Value::Con(c, fs) if c == p.ctor("cons").unwrap() => {
                out.push(to_nat(m, p, fs[0].clone()));
                v = fs[1].clone();
            }
            Value::Con(c, _) if c == p.ctor("nil").unwrap() => return out,
            other => panic!("not a list: {other:?}"),
        }
    }
}

fn to_bool<'a>(m: &mut Machine<'a>, v: Value<'a>) -> bool {
    match m.whnf(v).unwrap() {
        Value::Bool(b) => b,
        other => panic!("not a Bool: {other:?}"),
    }
}

/// Every list of length <= `len` over `0..=max`.
fn lists(len: usize, max: u32) -> Vec<Vec<u32>> {
    let mut out = vec![vec![]];
    let mut layer = vec![vec![]];
    for _ in 0..len {
        let mut next = vec![];
        for xs in &layer {
            for x in 0..=max {
                let mut ys: Vec<u32> = xs.clone();
                ys.push(x);
                next.push(ys);
            }
        }
        out.extend(next.iter().cloned());
        layer = next;
    }
    out
}

fn rust_insert(x: u32, xs: &[u32]) -> Vec<u32> {
    let i = xs.iter().position(|&z| x <= z).unwrap_or(xs.len());
    let mut out = xs.to_vec();
    out.insert(i, x);
    out
}

#[test]
fn interpreter_agrees_with_rust_on_small_inputs() {
    let p = parse_program(&fixture("functions.smt2")).unwrap();
    let meanings = Meanings::new();
    let machine = || Machine::new(&p, &meanings, Limits::default());
    let f = |name: &str| p.function(name).unwrap();
    let nats = 0..=5u32;
    let small = lists(3, 2);
    let mut checked = 0;
    for a in nats.clone() {
        for b in nats.clone() {
            let mut m = machine();
            let args = || vec![nat(&p, a), nat(&p, b)];
            let r = m.call(f("plus"), args()).unwrap();
            assert_eq!(to_nat(&mut m, &p, r), a + b);
            let r = m.call(f("minus"), args()).unwrap();
            assert_eq!(to_nat(&mut m, &p, r), a.saturating_sub(b));
            let r = m.call(f("times"), args()).unwrap();
            assert_eq!(to_nat(&mut m, &p, r), a * b);
            let r = m.call(f("leq"), args()).unwrap();
            assert_eq!(to_bool(&mut m, r), a <= b);
            let r = m.call(f("max2"), args()).unwrap();
            assert_eq!(to_nat(&mut m, &p, r), a.max(b));
            checked += 5;
        }
    }
    for xs in lists(4, 2) {
        let mut m = machine();
        let r = m.call(f("rev"), vec![list(&p, &xs)]).unwrap();
        let mut want = xs.clone();
        want.reverse();
        assert_eq!(to_list(&mut m, &p, r), want);
        let r = m.call(f("len"), vec![list(&p, &xs)]).unwrap();
        assert_eq!(to_nat(&mut m, &p, r) as usize, xs.len());
        let r = m.call(f("isort"), vec![list(&p, &xs)]).unwrap();
        let mut sorted = xs.clone();
        sorted.sort();
        assert_eq!(to_list(&mut m, &p, r), sorted);
        let r = m.call(f("ordered"), vec![list(&p, &xs)]).unwrap();
        assert_eq!(to_bool(&mut m, r), xs.windows(2).all(|w| w[0] <= w[1]));
        // `second` uses `tail`, a selector: undefined on `nil`.
        let r = m.call(f("second"), vec![list(&p, &xs)]);
        match xs.len() {
            0 => assert_eq!(r.unwrap_err(), Abort::Undefined),
            1 => assert_eq!(to_nat(&mut m, &p, r.unwrap()), 0),
            _ => assert_eq!(to_nat(&mut m, &p, r.unwrap()), xs[1]),
        }
        for n in 0..=4u32 {
            let r = m.call(f("take"), vec![nat(&p, n), list(&p, &xs)]).unwrap();
            let k = (n as usize).min(xs.len());
            assert_eq!(to_list(&mut m, &p, r), xs[..k].to_vec());
            let r = m.call(f("drop"), vec![nat(&p, n), list(&p, &xs)]).unwrap();
            assert_eq!(to_list(&mut m, &p, r), xs[k..].to_vec());
            let r = m.call(f("count"), vec![nat(&p, n), list(&p, &xs)]).unwrap();
            let c = xs.iter().filter(|&&x| x == n).count();
            assert_eq!(to_nat(&mut m, &p, r) as usize, c);
            let r = m
                .call(f("insert"), vec![nat(&p, n), list(&p, &xs)])
                .unwrap();
            assert_eq!(to_list(&mut m, &p, r), rust_insert(n, &xs));
            // A `lambda` capturing `n`, applied by `filter` with `@`.
            let r = m.call(f("below"), vec![nat(&p, n), list(&p, &xs)]).unwrap();
            let below: Vec<u32> = xs.iter().copied().filter(|&y| y < n).collect();
            assert_eq!(to_list(&mut m, &p, r), below);
            checked += 5;
        }
        checked += 5;
    }
    for xs in &small {
        for ys in &small {
            let mut m = machine();
            let r = m.call(f("++"), vec![list(&p, xs), list(&p, ys)]).unwrap();
            let want: Vec<u32> = xs.iter().chain(ys).copied().collect();
            assert_eq!(to_list(&mut m, &p, r), want);
            checked += 1;
        }
    }
    assert!(checked > 5_000, "{checked}");
}

// -- searches --------------------------------------------------------------

fn search_fixture(name: &str, max_size: usize) -> (Program, Verdict) {
    let src = fixture(name);
    with_large_stack(move || {
        let p = parse_program(&src).unwrap();
        let options = SearchOptions {
            max_size,
            ..SearchOptions::default()
        };
        let v = search_goal(&p, &p.goals[0], &options);
        (p, v)
    })
    .unwrap()
}

fn peano(v: &DynValue) -> u32 {
    let mut n = 0;
    let mut v = v;
    while let Some(f) = v.fields().first() {
        n += 1;
        v = f;
    }
    n
}

fn elems(v: &DynValue) -> Vec<String> {
    let mut out = vec![];
    let mut v = v;
    while v.fields().len() == 2 {
        out.push(v.fields()[0].constructor().unwrap().1.to_string());
        v = &v.fields()[1];
    }
    out
}

#[test]
fn planted_take_drop_gets_the_smallest_counterexample() {
    let (_, verdict) = search_fixture("planted_take_drop.smt2", 9);
    let Verdict::Failed {
        values,
        size,
        minimal,
        ..
    } = verdict
    else {
        panic!("no counterexample: {verdict:?}")
    };
    let prop = |n: usize, xs: &[u8]| {
        let k = n.min(xs.len());
        [&xs[k..], &xs[..k]].concat() == xs
    };
    let (n, xs) = (peano(&values[0]) as usize, elems(&values[1]));
    let xs: Vec<u8> = xs.iter().map(|e| (e == "a1") as u8).collect();
    assert!(!prop(n, &xs), "not a counterexample: {n} {xs:?}");
    // Brute force: sizes are n + 1 for the Peano number, 2 * len + 1 for a
    // list of two-valued elements.
    let mut smallest = None;
    for n in 0..6usize {
        for len in 0..5u32 {
            for bits in 0..(1u32 << len) {
                let xs: Vec<u8> = (0..len).map(|i| (bits >> i & 1) as u8).collect();
                let s = n + 1 + 2 * len as usize + 1;
                if !prop(n, &xs) && smallest.is_none_or(|m| s < m) {
                    smallest = Some(s);
                }
            }
        }
    }
    assert_eq!(Some(size as usize), smallest);
    assert!(minimal);
}

#[test]
fn planted_integer_distributivity_gets_the_smallest_counterexample() {
    let (_, verdict) = search_fixture("planted_int_distrib.smt2", 8);
    let Verdict::Failed { values, size, .. } = verdict else {
        panic!("no counterexample: {verdict:?}")
    };
    // Integer: (P n) is n, (N m) is -(m + 1); its size is 1 + (n + 1).
    let int = |v: &DynValue| {
        let n = i64::from(peano(&v.fields()[0]));
        if v.constructor().unwrap().1 == "P" {
            n
        } else {
            -(n + 1)
        }
    };
    let prop = |x: i64, y: i64, z: i64| x * (y + z) == x * y + z;
    let (x, y, z) = (int(&values[0]), int(&values[1]), int(&values[2]));
    assert!(!prop(x, y, z));
    let sized = |i: i64| if i >= 0 { i + 2 } else { -i + 1 };
    let mut smallest = i64::MAX;
    for x in -4..5 {
        for y in -4..5 {
            for z in -4..5 {
                if !prop(x, y, z) {
                    smallest = smallest.min(sized(x) + sized(y) + sized(z));
                }
            }
        }
    }
    assert_eq!(size as i64, smallest);
}

#[test]
fn planted_function_variable_prints_a_lambda() {
    let (p, verdict) = search_fixture("planted_bind.smt2", 8);
    let text = crate::tip::search::report(&p, &p.goals[0], &SearchOptions::default(), &verdict);
    // The smallest: a one-element list and a function returning a
    // one-element list (a constant function costs its result's size: a
    // function's size is its decisions and its results).
    assert!(
        text.contains("(define-fun f () (=> Elem (list Elem)) (lambda ((x0 Elem)) (cons a0 (as nil (list Elem)))))"),
        "{text}"
    );
    assert!(
        text.contains("(define-fun xs () (list Elem) (cons a0 (as nil (list Elem))))"),
        "{text}"
    );
    assert!(
        text.starts_with("counterexample of size 6 (smallest)"),
        "{text}"
    );
}

#[test]
fn a_false_tip_problem_is_found() {
    // weird_nat_mul3_same is in the corpus, but false: `mul3acc` adds
    // `(add3acc x y z)` where `mul3` adds `(add3 x2 x3 x4)`, so
    // mul3acc 1 1 2 = 5 while mul3 1 1 2 = 2.
    let (_, verdict) = search_fixture("weird_nat_mul3_same.smt2", 8);
    let Verdict::Failed {
        values, minimal, ..
    } = verdict
    else {
        panic!("{verdict:?}")
    };
    let xyz: Vec<u32> = values.iter().map(peano).collect();
    assert_eq!(xyz, [1, 1, 2]);
    assert!(minimal);
}

#[test]
fn a_sample_of_the_corpus_has_no_counterexample() {
    for name in [
        "isaplanner_prop_01.smt2",
        "isaplanner_prop_46.smt2",
        "sort_nat_BSortSorts.smt2",
        "list_concat_map_bind.smt2",
        "list_elem.smt2",
        "int_left_distrib.smt2",
        "list_nat_perm_trans.smt2",
    ] {
        let (_, verdict) = search_fixture(name, 8);
        match verdict {
            Verdict::Passed { coverage, .. } => assert_eq!(coverage.bound, Some(8), "{name}"),
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn the_search_reads_only_what_the_definitions_demand() {
    // `take Z xs` never looks at `xs`: one run covers every list.
    let src = format!(
        "{}\n(prove (par (a) (forall ((xs (list a)) (ys (list a))) \
         (= (take Z (++ xs ys)) (_ nil a)))))",
        fixture("functions.smt2").replace("(prove (forall ((x Nat)) (= x x)))", "")
    );
    let verdict = with_large_stack(move || {
        let p = parse_program(&src).unwrap();
        search_goal(&p, &p.goals[0], &SearchOptions::default())
    })
    .unwrap();
    let Verdict::Passed { coverage, .. } = verdict else {
        panic!("{verdict:?}")
    };
    assert_eq!(coverage.runs_last_bound, 1, "{coverage:?}");
}

/// A function variable ranges over case distinctions and constants: a
/// law that needs a non-constant function is refuted with a smallest
/// table, printed as a `lambda` over `match` and `ite`; true laws pass.
#[test]
fn function_variables_are_case_distinctions() {
    let src = "(declare-datatype Nat ((Z) (S (p Nat))))
        (declare-datatype list (par (a) ((nil) (cons (head a) (tail (list a))))))
        (define-fun-rec map2 (par (a b) (((f (=> a b)) (xs (list a))) (list b)))
          (match xs ((nil (_ nil b)) ((cons y ys) (cons (@ f y) (map2 f ys))))))
        (define-fun-rec filter (par (a) (((p (=> a Bool)) (xs (list a))) (list a)))
          (match xs ((nil (_ nil a))
                     ((cons y ys) (ite (@ p y) (cons y (filter p ys)) (filter p ys))))))
        (define-fun-rec ++ (par (a) (((x (list a)) (y (list a))) (list a)))
          (match x ((nil y) ((cons z xs) (cons z (++ xs y))))))
        (prove (forall ((f (=> Nat Nat))) (= (@ f (@ f Z)) (@ f Z))))
        (prove (forall ((f (=> Int Int)) (p (=> Int Bool)) (xs (list Int)))
          (= (filter p (map2 f xs)) (map2 f (filter p xs)))))
        (prove (forall ((f (=> Nat Bool Nat)))
          (= (@ f (S Z) true) (@ f Z true))))
        (prove (forall ((f (=> Nat Nat)) (xs (list Nat)) (ys (list Nat)))
          (= (map2 f (++ xs ys)) (++ (map2 f xs) (map2 f ys)))))";
    let p = parse_program(src).unwrap();
    let verdicts = search_all(src, 7);
    let text = |i: usize| {
        crate::tip::search::report(&p, &p.goals[i], &SearchOptions::default(), &verdicts[i])
    };
    // Goal `i` is refuted, smallest, at `size`, with `lambda` in its report.
    let refuted = |i: usize, size: u64, lambda: &str| {
        let report = text(i);
        assert!(report.contains(lambda), "{report}");
        let head = format!("counterexample of size {size} (smallest)");
        assert!(report.starts_with(&head), "{report}");
    };
    // `f = S`-like: f Z = S Z, f (S Z) = Z.
    refuted(
        0,
        4,
        "(define-fun f () (=> Nat Nat) (lambda ((x0 Nat)) (match x0 ((Z (S Z)) ((S x1) Z)))))",
    );
    refuted(1, 6, "(lambda ((x0 Int)) (ite (<= x0 0) false true))");
    // Two arguments: a case on the first, the second skipped.
    refuted(
        2,
        4,
        "(lambda ((x0 Nat) (x1 Bool)) (match x0 ((Z (S Z)) ((S x2) Z))))",
    );
    assert!(matches!(verdicts[3], Verdict::Passed { .. }), "{}", text(3));
}

/// Every goal of a TIP source searched up to `max_size`, in order.
fn search_all(src: &'static str, max_size: usize) -> Vec<Verdict> {
    with_large_stack(move || {
        let p = parse_program(src).unwrap();
        let options = SearchOptions {
            max_size,
            ..SearchOptions::default()
        };
        p.goals
            .iter()
            .map(|g| search_goal(&p, g, &options))
            .collect::<Vec<_>>()
    })
    .unwrap()
}

#[test]
fn int_comparisons_order_inputs_as_integers() {
    // Comparisons take input `Int`s as handles (read through
    // `compare_int`/`compare_ints`); TIP's integers are sized linearly, so
    // those read them whole, and every answer must be the integers' order.
    let src = "(prove (forall ((x Int)) (or (< x 10) (<= 10 x))))
        (prove (forall ((x Int) (y Int)) (=> (< x y) (and (not (= x y)) (> y x) (>= y x)))))
        (prove (forall ((x Int)) (< x 30)))
        (prove (forall ((x Int) (y Int)) (=> (<= x y) (= x y))))";
    let verdicts = search_all(src, 40);
    for v in &verdicts[..2] {
        assert!(matches!(v, Verdict::Passed { .. }), "{v:?}");
    }
    let Verdict::Failed {
        assignment,
        minimal,
        ..
    } = &verdicts[2]
    else {
        panic!("{:?}", verdicts[2])
    };
    assert_eq!(assignment[0].2, "30");
    assert!(minimal);
    let Verdict::Failed {
        assignment, size, ..
    } = &verdicts[3]
    else {
        panic!("{:?}", verdicts[3])
    };
    // The smallest: 0 <= 1 (or -1 <= 0), of total size 1.
    assert_eq!(*size, 1, "{assignment:?}");
}

#[test]
fn runaway_recursion_is_reported_not_a_crash() {
    let src = "(declare-datatype Nat ((Z) (S (p Nat))))
        (define-fun-rec up ((x Nat)) Nat (S (up x)))
        (define-fun-rec spin ((x Nat)) Nat (spin x))
        (prove (forall ((x Nat)) (= (up x) (spin x))))
        (prove (forall ((x Nat)) (= (spin x) x)))";
    // With the adaptive step budget the runs run out of steps first; with
    // a fixed budget of a million, of nesting (at 100 000 calls, or of
    // the stack it may take).
    for (adaptive_fuel, reason) in [(true, "step budget"), (false, "nested too deeply")] {
        let verdicts = with_large_stack(move || {
            let p = parse_program(src).unwrap();
            let options = SearchOptions {
                max_size: 3,
                adaptive_fuel,
                ..SearchOptions::default()
            };
            p.goals
                .iter()
                .map(|g| search_goal(&p, g, &options))
                .collect::<Vec<_>>()
        })
        .unwrap();
        for v in verdicts {
            let Verdict::Passed { aborted, .. } = v else {
                panic!("{v:?}")
            };
            assert_eq!(aborted.len(), 1, "{aborted:?}");
            assert!(aborted[0].0.contains(reason), "{aborted:?}");
        }
    }
}

// -- the command -----------------------------------------------------------

fn command(args: &[&str]) -> (i32, String, String) {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    with_large_stack(move || {
        let (mut out, mut err) = (vec![], vec![]);
        let code = run(&args, &mut out, &mut err);
        (
            code,
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    })
    .unwrap()
}

#[test]
fn the_symbolic_search_behind_the_same_command() {
    let path = |n: &str| fixture_path(n).display().to_string();
    let (code, out, _) = command(&[
        "tip",
        "--symbolic",
        &path("planted_take_drop.smt2"),
        "--size",
        "8",
    ]);
    assert_eq!(code, EXIT_FAILED, "{out}");
    assert!(out.contains("counterexample of size 7 (smallest)"), "{out}");
    assert!(out.contains("(define-fun n () Nat (S Z))"), "{out}");
    assert!(out.contains("  symbolic: "), "{out}");
    // Function-typed variables: refused, exit 2.
    let (code, out, _) = command(&["tip", "--symbolic", &path("planted_bind.smt2")]);
    assert_eq!(code, EXIT_ERROR, "{out}");
    assert!(
        out.contains("does not take function-typed variables"),
        "{out}"
    );
    // A table counts the conjectures proved for every size.
    let dir = fixture_path("symbolic").display().to_string();
    let (code, out, _) = command(&["tip", "--symbolic", "--size", "3", &dir]);
    assert_eq!(code, EXIT_PASSED, "{out}");
    assert!(out.contains("proved for inputs of every size"), "{out}");
}

#[test]
fn exit_codes() {
    let path = |n: &str| fixture_path(n).display().to_string();
    let (code, out, _) = command(&["tip", &path("isaplanner_prop_01.smt2"), "--size", "6"]);
    assert_eq!(code, EXIT_PASSED, "{out}");
    assert!(out.contains("no counterexample up to size 6"), "{out}");
    let (code, out, _) = command(&["tip", &path("planted_take_drop.smt2"), "--size", "8"]);
    assert_eq!(code, EXIT_FAILED, "{out}");
    assert!(out.contains("(define-fun n () Nat (S Z))"), "{out}");
    let (code, out, _) = command(&["tip", &path("errors.smt2")]);
    assert_eq!(code, EXIT_ERROR);
    assert!(
        out.contains("errors.smt2:6:14: unknown function `g`"),
        "{out}"
    );
    let (code, _, err) = command(&["tip", "--size", "x", &path("errors.smt2")]);
    assert_eq!(code, EXIT_ERROR);
    assert!(err.contains("--size takes a number"), "{err}");
    let (code, _, err) = command(&["tip", "/no/such/file.smt2"]);
    assert_eq!(code, EXIT_ERROR, "{err}");
    let (code, _, err) = command(&["frobnicate"]);
    assert_eq!(code, EXIT_ERROR);
    assert!(err.contains("unknown command"), "{err}");
}

#[test]
fn bad_input_is_located_never_a_panic() {
    let cases: &[(&str, &str)] = &[
        ("(declare-datatype Nat ((Z) (S (p Nat)))", "1:1: this `(` is never closed"),
        ("(prove true))", "1:13: unbalanced `)`"),
        ("(prove (forall ((x Nat)) true))", "1:20: unknown type `Nat`"),
        (
            "(declare-datatype N ((Z) (S (p N))))\n(prove (forall ((x N)) (= (S x x) x)))",
            "2:27: `S` takes 1 argument(s), 2 given",
        ),
        ("(prove (= 99999999999999999999999 0))", "1:11: `99999999999999999999999`"),
        ("", "no conjecture"),
        ("(frob)", "1:2: unknown command `frob`"),
        (
            "(declare-datatype N ((Z) (S (p N))))\n(prove (forall ((x N)) (match x (((S y z) true)))))",
            "2:35: constructor `S` has 1 field(s), the pattern binds 2",
        ),
        ("(prove (forall ((f (list))) true))", "1:21: unknown type `list`"),
        ("(prove \"s\")", "1:8: string literals"),
        ("(prove (x))", "1:9: unknown function `x`"),
        (
            "(declare-datatype N ((Z) (S (p N))))\n(prove (forall ((x N)) (= x true)))",
            "2:29: type error: `true` has type `Bool`, `N` is expected",
        ),
        (
            "(declare-datatype N ((Z) (S (p N))))\n(define-fun f ((x N)) Bool (S x))\n\
             (prove (forall ((x N)) (f x)))",
            "2:28: type error: `(S x)` has type `N`, `Bool` is expected",
        ),
        (
            "(declare-datatype N ((Z) (S (p N))))\n(declare-datatype B ((T) (F)))\n\
             (prove (forall ((x N)) (match x ((T true) (_ false)))))",
            "3:35: type error: the pattern `T` is a `B`, the value matched is a `N`",
        ),
        (
            "(prove (forall ((x Int)) (@ x 1)))",
            "1:29: type error: `x` has type `Int`, `(=> Int _)` is expected",
        ),
        (
            "(declare-datatype list (par (a) ((nil) (cons (head a) (tail (list a))))))\n\
             (prove (par (a) (forall ((x a) (xs (list a))) (= (cons xs xs) xs))))",
            "type error",
        ),
        ("(prove (forall ((x Int)) (+ x true)))", "1:31: type error"),
        ("(prove ())", "1:8: empty expression"),
    ];
    for (src, want) in cases {
        let e = parse_program(src).unwrap_err();
        assert!(e.to_string().contains(want), "{src}: {e}");
    }
    // Deep nesting: an error, not a stack overflow.
    let n = 100_000;
    let src = format!("(prove {}true{})", "(not ".repeat(n), ")".repeat(n));
    let e = with_large_stack(move || parse_program(&src).unwrap_err().to_string()).unwrap();
    assert!(e.contains("nest deeper"), "{e}");
}

#[test]
fn mutually_recursive_datatypes_and_testers() {
    let src = "(declare-datatypes ((Tree 1) (Forest 1))
          ((par (a) ((Node (lab a) (kids (Forest a)))))
           (par (a) ((Nil) (Cons (hd (Tree a)) (tl (Forest a)))))))
        (prove (par (a) (forall ((f (Forest a))) (or (is-Nil f) (is-Nil (tl f))))))";
    let (p, verdict) = with_large_stack(move || {
        let p = parse_program(src).unwrap();
        let v = search_goal(&p, &p.goals[0], &SearchOptions::default());
        (p, v)
    })
    .unwrap();
    let text = crate::tip::search::report(&p, &p.goals[0], &SearchOptions::default(), &verdict);
    // Two trees, each a node of an element and an empty forest.
    assert!(
        text.contains(
            "(Cons (Node a0 (as Nil (Forest Elem))) (Cons (Node a0 (as Nil (Forest Elem))) \
             (as Nil (Forest Elem))))"
        ),
        "{text}"
    );
    assert!(text.contains("(smallest)"), "{text}");
}

// -- semantics and budgets of a run ------------------------------------------

#[test]
fn a_false_that_rests_on_a_skipped_divergence_is_no_refutation() {
    // By need, `first x (up x)` is `x`; by value `up x` does not
    // terminate: `up` has no total model, so no input refutes the first
    // goal. In the second, only `x = 1` takes that path; `x = 2` is a
    // refutation by value too, and the smallest one.
    let src = "(declare-datatype Nat ((Z) (S (p Nat))))
        (define-fun-rec up ((x Nat)) Nat (S (up x)))
        (define-fun first ((x Nat) (y Nat)) Nat x)
        (prove (forall ((x Nat)) (= (first x (up x)) (S x))))
        (prove (forall ((x Nat)) (=> (distinct x Z)
            (= (first x (ite (= x (S Z)) (up x) Z)) (S x)))))";
    let verdicts = search_all(src, 6);
    let Verdict::Passed {
        aborted, coverage, ..
    } = &verdicts[0]
    else {
        panic!("{:?}", verdicts[0])
    };
    // `(= x (S x))` reads x whole: one run per x of size at most 6, each
    // false only by need.
    assert_eq!(coverage.runs_last_bound, 6);
    assert_eq!(aborted.len(), 1, "{aborted:?}");
    assert!(
        aborted[0].0.starts_with("false only by need"),
        "{aborted:?}"
    );
    assert_eq!(aborted[0].1, coverage.runs);
    let Verdict::Failed {
        assignment,
        size,
        minimal,
        ..
    } = &verdicts[1]
    else {
        panic!("{:?}", verdicts[1])
    };
    assert_eq!(assignment[0].2, "(S (S Z))");
    assert_eq!((*size, *minimal), (3, true));
}

#[test]
fn the_step_budget_adapts_to_the_runs_before() {
    assert_eq!(super::tip::search::adaptive_fuel(0, 1_000_000), 10_000);
    assert_eq!(super::tip::search::adaptive_fuel(500, 1_000_000), 50_000);
    assert_eq!(
        super::tip::search::adaptive_fuel(50_000, 1_000_000),
        1_000_000
    );
    assert_eq!(super::tip::search::adaptive_fuel(7, 500), 500);
    // `blow 16` takes about 200 000 steps where every other run takes
    // less than 100: adapted, its run is cut; with a fixed budget of a
    // million steps it finishes.
    let src = "(declare-datatype Nat ((Z) (S (p Nat))))
        (define-fun-rec dbl ((n Nat)) Nat (match n ((Z Z) ((S m) (S (S (dbl m)))))))
        (define-fun-rec blow ((n Nat)) Bool
          (match n ((Z true) ((S m) (and (blow m) (blow m))))))
        (prove (forall ((y Nat))
          (blow (ite (= y (S Z)) (dbl (dbl (dbl (dbl (S Z))))) Z))))";
    let search = |adaptive_fuel: bool| {
        with_large_stack(move || {
            let p = parse_program(src).unwrap();
            let options = SearchOptions {
                max_size: 5,
                adaptive_fuel,
                ..SearchOptions::default()
            };
            let v = search_goal(&p, &p.goals[0], &options);
            let text = crate::tip::search::report(&p, &p.goals[0], &options, &v);
            (v, text)
        })
        .unwrap()
    };
    let (adapted, text) = search(true);
    let Verdict::Passed { aborted, .. } = &adapted else {
        panic!("{adapted:?}")
    };
    assert_eq!(aborted, &[("step budget exhausted".to_string(), 1)]);
    assert!(text.contains("`--fuel N` fixes it"), "{text}");
    let (fixed, text) = search(false);
    let Verdict::Passed { aborted, .. } = &fixed else {
        panic!("{fixed:?}")
    };
    assert!(aborted.is_empty(), "{aborted:?}");
    assert!(!text.contains("--fuel"), "{text}");
}

#[test]
fn a_time_limit_drives_the_search_past_the_default_size() {
    let file = std::env::temp_dir().join(format!("neatcheck-time-{}.smt2", std::process::id()));
    std::fs::write(&file, "(prove (forall ((x Int)) (< x 30)))").unwrap();
    let path = file.display().to_string();
    // The default bound, 10, does not reach 30 ...
    let (code, out, _) = command(&["tip", &path]);
    assert_eq!(code, EXIT_PASSED, "{out}");
    assert!(out.contains("no counterexample up to size 10"), "{out}");
    // ... a time limit alone has no size bound (it is found in
    // milliseconds: the limit is far away) ...
    let (code, out, _) = command(&["tip", &path, "--time", "60s"]);
    assert_eq!(code, EXIT_FAILED, "{out}");
    assert!(out.contains("(define-fun x () Int 30)"), "{out}");
    // ... unless one is given.
    let (code, out, _) = command(&["tip", &path, "--time", "60s", "--size", "20"]);
    assert_eq!(code, EXIT_PASSED, "{out}");
    assert!(out.contains("no counterexample up to size 20"), "{out}");
    // The random phase finds it too, and it is reported smallest once
    // the sizes below are searched.
    let (code, out, _) = command(&[
        "tip", &path, "--size", "40", "--random", "50", "--seed", "7",
    ]);
    assert_eq!(code, EXIT_FAILED, "{out}");
    assert!(
        out.contains("(smallest)") && out.contains("() Int 30)"),
        "{out}"
    );
    let _ = std::fs::remove_file(&file);
}

// -- Ord-polymorphism and SMT-LIB output ---------------------------------------

#[test]
fn ordered_type_variables_are_searched_as_integers() {
    // `<=` on a type variable (Haskell's `Ord a`): the variables range
    // over `Int`, so a sort has more than two values to order.
    let src = fixture("ord_sort.smt2");
    let (p, verdicts, texts) = with_large_stack(move || {
        let p = parse_program(&src).unwrap();
        let options = SearchOptions {
            max_size: 8,
            ..SearchOptions::default()
        };
        let verdicts: Vec<Verdict> = p
            .goals
            .iter()
            .map(|g| search_goal(&p, g, &options))
            .collect();
        let texts: Vec<String> = p
            .goals
            .iter()
            .zip(&verdicts)
            .map(|(g, v)| crate::tip::search::report(&p, g, &options, v))
            .collect();
        (p, verdicts, texts)
    })
    .unwrap();
    assert!(p.ordered);
    assert!(
        matches!(verdicts[0], Verdict::Passed { .. }),
        "{}",
        texts[0]
    );
    assert!(
        matches!(verdicts[1], Verdict::Passed { .. }),
        "{}",
        texts[1]
    );
    let Verdict::Failed {
        assignment, size, ..
    } = &verdicts[2]
    else {
        panic!("{}", texts[2])
    };
    // Two equal elements: the smallest are two zeros.
    assert_eq!(
        assignment[0],
        (
            "xs".to_string(),
            "(list Int)".to_string(),
            "(cons 0 (cons 0 (as nil (list Int))))".to_string()
        )
    );
    assert_eq!(*size, 3);
    assert!(texts[2].contains("type variables at Int"), "{}", texts[2]);
    // The counterexample is SMT-LIB the front end reads back: defined as
    // a constant, the conjecture is false of it.
    let defs = fixture("ord_sort.smt2");
    let defs = &defs[..defs.find("(prove").unwrap()];
    let line = texts[2].lines().nth(1).unwrap().trim().to_string();
    let closed = format!("{defs}{line}\n(prove (= (len (dsort xs)) (len xs)))");
    let closed = with_large_stack(move || {
        let p = parse_program(&closed).unwrap();
        search_goal(&p, &p.goals[0], &SearchOptions::default())
    })
    .unwrap();
    assert!(
        matches!(closed, Verdict::Failed { size: 0, .. }),
        "{closed:?}"
    );
    // Datatypes compare by constructor, then fields.
    let verdicts = search_all(
        "(declare-datatype Nat ((Z) (S (p Nat))))
         (prove (forall ((x Nat) (y Nat)) (=> (<= x y) (<= y x))))
         (prove (forall ((x Nat) (y Nat)) (or (< x y) (= x y) (> x y))))",
        6,
    );
    let Verdict::Failed { assignment, .. } = &verdicts[0] else {
        panic!("{:?}", verdicts[0])
    };
    assert_eq!((&*assignment[0].2, &*assignment[1].2), ("Z", "(S Z)"));
    assert!(matches!(verdicts[1], Verdict::Passed { .. }));
}

#[test]
fn symbols_are_printed_as_smt_lib_reads_them() {
    use crate::sexp::symbol;
    for plain in ["x", "cons", "a0", "++", "list2", "<=>", "x.y", "-"] {
        assert_eq!(symbol(plain), plain);
    }
    for (name, quoted) in [
        (":&:", "|:&:|"),
        ("-2", "|-2|"),
        ("2x", "|2x|"),
        ("a b", "|a b|"),
        ("", "||"),
        ("match", "|match|"),
        ("proj1-:&:", "|proj1-:&:|"),
    ] {
        assert_eq!(symbol(name), quoted);
    }
    // As the report prints them: constructors, types and variables.
    let verdicts = search_all(
        "(declare-datatype |P air| ((|:&:| (|proj1-:&:| Bool) (|proj2-:&:| Bool))))
         (prove (forall ((|the pair| |P air|)) (|proj1-:&:| |the pair|)))",
        4,
    );
    let Verdict::Failed { assignment, .. } = &verdicts[0] else {
        panic!("{:?}", verdicts[0])
    };
    assert_eq!(
        assignment[0],
        (
            "the pair".to_string(),
            "|P air|".to_string(),
            "(|:&:| false false)".to_string()
        )
    );
}

#[test]
fn declared_symbols_range_over_every_value() {
    // `declare-fun` and a `declare-const` of one type are symbols every
    // conjecture is about for all their values: searched like variables,
    // only those the conjecture reaches, printed as SMT-LIB definitions.
    let defs = "(declare-datatype Nat ((Z) (S (p Nat))))
        (declare-fun f (Nat) Nat)
        (declare-const c Nat)
        (define-fun-rec twice ((x Nat)) Nat (f (f x)))\n";
    let src: &'static str = Box::leak(
        format!(
            "{defs}(prove (forall ((x Nat)) (= (twice x) (f x))))
             (prove (= (f c) c))
             (prove (forall ((x Nat)) (= x x)))"
        )
        .into_boxed_str(),
    );
    let verdicts = search_all(src, 6);
    let Verdict::Failed {
        assignment,
        free,
        size,
        minimal,
        ..
    } = &verdicts[0]
    else {
        panic!("{:?}", verdicts[0])
    };
    // `f (f Z) /= f Z`: f maps Z to something else, which f maps
    // elsewhere; `c` is not reached, so not searched.
    assert_eq!(assignment[0].2, "Z");
    assert_eq!(
        free,
        &["(define-fun f ((x0 Nat)) Nat (match x0 ((Z (S Z)) ((S x1) Z))))"]
    );
    assert_eq!((*size, *minimal), (5, true));
    let Verdict::Failed { free, .. } = &verdicts[1] else {
        panic!("{:?}", verdicts[1])
    };
    assert_eq!(
        free,
        &[
            "(define-fun f ((x0 Nat)) Nat Z)",
            "(define-fun c () Nat (S Z))"
        ]
    );
    assert!(matches!(verdicts[2], Verdict::Passed { .. }));
    // The definitions printed are SMT-LIB the front end reads: with them
    // in place of the declarations, the conjecture is false.
    let Verdict::Failed { free, .. } = &verdicts[0] else {
        unreachable!()
    };
    let closed = format!(
        "(declare-datatype Nat ((Z) (S (p Nat))))\n{}\n\
         (define-fun-rec twice ((x Nat)) Nat (f (f x)))\n\
         (prove (= (twice Z) (f Z)))",
        free.join("\n")
    );
    let closed = with_large_stack(move || {
        let p = parse_program(&closed).unwrap();
        search_goal(&p, &p.goals[0], &SearchOptions::default())
    })
    .unwrap();
    assert!(
        matches!(closed, Verdict::Failed { size: 0, .. }),
        "{closed:?}"
    );
    // Used as a constant, a function is an error at its place.
    let e = parse_program("(declare-fun g (Int) Int) (prove (= (g) 0))").unwrap_err();
    assert!(e.to_string().contains("takes 1"), "{e}");
}

#[test]
fn what_does_not_depend_on_the_variables_is_computed_once() {
    use crate::tip::eval::{Limits, Meanings};
    use crate::tip::hoist::hoist;
    let src = "(declare-datatype Nat ((Z) (S (p Nat))))
        (define-fun-rec plus ((x Nat) (y Nat)) Nat (match x ((Z y) ((S n) (S (plus n y))))))
        (define-fun-rec double ((x Nat)) Nat (match x ((Z Z) ((S n) (S (S (double n)))))))
        (define-fun-rec loop ((x Nat)) Nat (loop x))
        (prove (forall ((x Nat))
          (= (plus x (double (S (S (S Z))))) (plus (double (S (S (S Z)))) x))))
        (prove (forall ((x Nat)) (or (= x Z) (= x (loop Z)) (= x x))))
        (prove (= (double (S Z)) (plus (S Z) (S Z))))";
    with_large_stack(move || {
        let p = parse_program(src).unwrap();
        let meanings = Meanings::new();
        let limits = Limits {
            fuel: 10_000,
            ..Limits::default()
        };
        // Goal 1: both `double 3` are computed once; `plus` reads x.
        let (body, constants) = hoist(&p, &meanings, limits, &p.goals[0].body);
        assert_eq!(constants.len(), 2);
        let mut hoisted = Machine::new(&p, &meanings, limits).with_constants(&constants);
        let mut plain = Machine::new(&p, &meanings, limits);
        let x = nat(&p, 4);
        assert!(hoisted.goal(&body, vec![x.clone()]).unwrap());
        assert!(plain.goal(&p.goals[0].body, vec![x]).unwrap());
        assert!(
            hoisted.steps() + 20 < plain.steps(),
            "{} {}",
            hoisted.steps(),
            plain.steps()
        );
        // Goal 2: `loop Z` does not finish: left in place, met by need.
        let (_, constants) = hoist(&p, &meanings, limits, &p.goals[1].body);
        assert!(constants.is_empty());
        // Goal 3, without variables, is one constant.
        let (body, constants) = hoist(&p, &meanings, limits, &p.goals[2].body);
        assert_eq!(constants.len(), 1);
        assert!(matches!(body, crate::tip::program::Expr::Constant(0)));
    })
    .unwrap();
    // A declared symbol differs from run to run: what reads one is not
    // constant, though it has no variable.
    with_large_stack(|| {
        let p = parse_program(
            "(declare-datatype Nat ((Z) (S (p Nat))))
             (declare-fun f (Nat) Nat)
             (define-fun-rec double ((x Nat)) Nat (match x ((Z Z) ((S n) (S (S (double n)))))))
             (prove (= (f (double (S Z))) (double (f Z))))",
        )
        .unwrap();
        let (_, constants) = hoist(&p, &Meanings::new(), Limits::default(), &p.goals[0].body);
        // `double (S Z)` only; `f` and what it reaches are left.
        assert_eq!(constants.len(), 1);
    })
    .unwrap();
    // And the searches agree with the interpreter's answers.
    let verdicts = search_all(src, 5);
    for v in &verdicts {
        assert!(matches!(v, Verdict::Passed { .. }), "{v:?}");
    }
}

#[test]
fn a_false_hypothesis_is_counted_apart() {
    // `(=> h c)` with `h` false says nothing about the input: such runs
    // are counted (and avoided by the random phase), neither passed nor
    // failed; the search and its counterexample are those of the plain
    // implication.
    let src = "(declare-datatype Nat ((Z) (S (p Nat))))
        (define-fun-rec le ((x Nat) (y Nat)) Bool
          (match x ((Z true) ((S n) (match y ((Z false) ((S m) (le n m))))))))
        (prove (forall ((x Nat) (y Nat)) (=> (le x y) (le y x) (= x y))))
        (prove (forall ((x Nat) (y Nat)) (=> (le x y) (le (S x) y))))";
    let verdicts = search_all(src, 6);
    let Verdict::Passed {
        vacuous, coverage, ..
    } = &verdicts[0]
    else {
        panic!("{:?}", verdicts[0])
    };
    assert!(*vacuous > 0 && *vacuous < coverage.runs, "{vacuous}");
    let p = parse_program(src).unwrap();
    let text = crate::tip::search::report(&p, &p.goals[0], &SearchOptions::default(), &verdicts[0]);
    assert!(
        text.contains(&format!("{vacuous} with the hypothesis false")),
        "{text}"
    );
    let Verdict::Failed { assignment, .. } = &verdicts[1] else {
        panic!("{:?}", verdicts[1])
    };
    assert_eq!((&*assignment[0].2, &*assignment[1].2), ("Z", "Z"));
}

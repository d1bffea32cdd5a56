//! The dynamic value API (`neatcheck::dynamic`) driven by the interpreter
//! of `crate::interpreter`: searching a run-time space with an
//! interpreted predicate must give exactly what the equivalent derived Rust
//! types and Rust lazy predicates give: the same runs and hits per bound
//! (the conformance predicates, also checked against
//! `docs/benchmarks/conformance.md`) and the same first counterexample
//! under iterative deepening.

use crate::benchmarks::conformance as conf;
use crate::benchmarks::nat::{le_nat, LNat, Nat};
use crate::interpreter::Program;
use neatcheck::count::count_of;
use neatcheck::dynamic::{DataTypes, DynError, DynValue, FieldType};
use neatcheck::grammar::Grammar;
use neatcheck::index::Indexer;
use neatcheck::search::{BoundResult, Budget, Classes, Counterexample, RunResult, Searcher};
use neatcheck::space;
use neatcheck::{Enumerable, Lazy};
use std::fmt::Debug;
use std::rc::Rc;

/// The conformance predicates (`docs/benchmarks/conformance.md`) in
/// the tiny language, over run-time twins of the benchmark types.
const CONFORMANCE: &str = r#"
    data Nat = Z | S Nat
    data List = Nil | Cons Nat List                 -- List<Nat>
    data Bools = BNil | BCons Bool Bools            -- List<Bool>
    data Tree = Leaf | Node Tree Nat Tree
    data Bound = NoBound | Bound Nat                -- Option<Nat>, never searched
    data Triple = Triple Bool Bool Bool

    fun le(a, b) = case a of { Z -> True; S(a1) -> case b of { Z -> False; S(b1) -> le(a1, b1) } }
    fun lt(a, b) = case a of {
        Z -> case b of { Z -> False; S(_) -> True };
        S(a1) -> case b of { Z -> False; S(b1) -> lt(a1, b1) } }
    fun eq(a, b) = case a of {
        Z -> case b of { Z -> True; S(_) -> False };
        S(a1) -> case b of { Z -> False; S(b1) -> eq(a1, b1) } }

    fun ordered(xs) = case xs of {
        Nil -> True;
        Cons(x, rest) -> case rest of { Nil -> True; Cons(y, r2) -> and(le(x, y), ordered(rest)) } }
    fun orderedLT(xs) = case xs of {
        Nil -> True;
        Cons(x, rest) -> case rest of { Nil -> True; Cons(y, _) -> and(lt(x, y), orderedLT(rest)) } }

    fun all(bs) = case bs of { BNil -> True; BCons(b, rest) -> and(b, all(rest)) }
    fun any(bs) = case bs of { BNil -> False; BCons(b, rest) -> or(b, any(rest)) }
    fun parity(bs) = go(True, bs)
    fun go(acc, bs) = case bs of {
        BNil -> acc;
        BCons(b, rest) -> case b of { False -> go(acc, rest); True -> go(not(acc), rest) } }

    fun bst(t) = within(NoBound, NoBound, t)
    fun within(lo, hi, t) = case t of {
        Leaf -> True;
        Node(l, x, r) -> and(above(lo, x), below(hi, x), within(lo, Bound(x), l), within(Bound(x), hi, r)) }
    fun above(lo, x) = case lo of { NoBound -> True; Bound(a) -> lt(a, x) }
    fun below(hi, x) = case hi of { NoBound -> True; Bound(b) -> lt(x, b) }

    fun treeSum(t) = evenT(True, t)
    fun evenT(e, t) = case t of {
        Leaf -> e;
        Node(l, x, r) -> let e1 = evenT(e, l) in let e2 = evenN(e1, x) in evenT(e2, r) }
    fun evenN(e, n) = case n of { Z -> e; S(m) -> evenN(not(e), m) }

    fun or3(t) = case t of { Triple(a, b, c) -> or(c, or(b, a)) }

    fun noDup(xs) = case xs of { Nil -> True; Cons(x, rest) -> and(notIn(x, rest), noDup(rest)) }
    fun notIn(x, ys) = case ys of { Nil -> True; Cons(y, ys1) -> and(not(eq(x, y)), notIn(x, ys1)) }
"#;

fn program(src: &str) -> Program {
    Program::parse(src).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs a whole search of a compiled dynamic space (the loop of
/// `Config::classes`): its runs and satisfying classes.
fn dyn_classes(
    g: &Rc<Grammar>,
    bound: usize,
    pred: impl Fn(Lazy<'_, DynValue>) -> bool,
) -> (u64, u64) {
    let mut s = Searcher::<DynValue>::from_grammar(g.clone(), bound);
    let mut satisfying = 0;
    while let Some(r) = s.step(&pred) {
        match r {
            RunResult::True => satisfying += 1,
            RunResult::Panicked(m) => panic!("the interpreted predicate panicked: {m}"),
            // False or discarded: not satisfying.
            _ => {}
        }
    }
    (s.stats().runs, satisfying)
}

/// The runs and satisfying classes of a whole search, as [`dyn_classes`]
/// gives them.
fn counts(c: Classes) -> (u64, u64) {
    assert!(c.complete, "an unlimited search runs to its end");
    (c.runs, c.satisfying)
}

/// `tests/hits` per bound 0..=22, as in conformance.md.
fn table(row: &str) -> Vec<(u64, u64)> {
    row.split_whitespace()
        .map(|c| {
            let (t, h) = c.split_once('/').unwrap();
            (t.parse().unwrap(), h.parse().unwrap())
        })
        .collect()
}

const ORDERED_LE: &str = "0/0 1/1 1/1 2/2 2/2 3/3 4/3 6/5 8/5 12/8 16/9 23/13 31/15 43/22 57/25 78/35 102/42 136/56 177/67 232/89 298/106 386/138 491/166";
const ORDERED_LT: &str = "0/0 1/1 1/1 2/2 2/2 3/2 5/3 6/3 9/4 11/4 16/6 19/6 26/8 32/9 41/11 51/13 64/16 78/18 97/22 118/26 143/30 174/36 209/42";
const AND: &str = "0/0 1/1 1/1 3/2 3/2 5/3 5/3 7/4 7/4 9/5 9/5 11/6 11/6 13/7 13/7 15/8 15/8 17/9 17/9 19/10 19/10 21/11 21/11";
const OR: &str = "0/0 1/0 1/0 3/1 3/1 5/2 5/2 7/3 7/3 9/4 9/4 11/5 11/5 13/6 13/6 15/7 15/7 17/8 17/8 19/9 19/9 21/10 21/10";
const PARITY: &str = "0/0 1/1 1/1 3/2 3/2 7/4 7/4 15/8 15/8 31/16 31/16 63/32 63/32 127/64 127/64 255/128 255/128 511/256 511/256 1023/512 1023/512 2047/1024 2047/1024";
const BST: &str = "0/0 1/1 1/1 1/1 2/2 2/2 2/2 4/2 8/4 10/4 14/6 21/6 30/8 45/13 58/15 78/20 113/27 151/32 204/39 284/63 365/70 477/94 655/120";
const TREE_SUM: &str = "0/0 1/1 1/1 1/1 2/2 3/2 4/3 7/5 12/6 19/12 33/18 59/28 102/59 181/87 329/163 593/321 1076/504 1979/1016 3643/1872 6723/3206 12494/6477 23289/11589 43498/21294";

/// Compares, bound by bound, the interpreted predicate on the dynamic
/// type with the Rust predicate on the derived type, and with the
/// reference table when there is one.
fn conformance<T: Enumerable>(
    ty: &str,
    fun: &str,
    rust: impl Fn(Lazy<'_, T>) -> bool,
    reference: Option<&str>,
    max_bound: usize,
) {
    let prog = program(CONFORMANCE);
    let g = prog.universe().grammar(ty).unwrap();
    let expected = reference.map(table);
    for bound in 0..=max_bound {
        let dynamic = dyn_classes(&g, bound, |x| prog.test(fun, x));
        let derived = counts(neatcheck::search::classes(&rust, bound));
        assert_eq!(
            dynamic, derived,
            "{fun} at bound {bound}: dynamic vs derived"
        );
        if let Some(t) = &expected {
            assert_eq!(
                dynamic, t[bound],
                "{fun} at bound {bound}: dynamic vs conformance.md"
            );
        }
    }
}

#[test]
fn ordered_le_matches_derived_and_reference() {
    conformance::<Vec<Nat>>("List", "ordered", conf::ordered_le, Some(ORDERED_LE), 22);
}

#[test]
fn ordered_lt_matches_derived_and_reference() {
    conformance::<Vec<Nat>>("List", "orderedLT", conf::ordered_lt, Some(ORDERED_LT), 22);
}

#[test]
fn and_or_parity_match_derived_and_reference() {
    conformance::<Vec<bool>>("Bools", "all", conf::and, Some(AND), 22);
    conformance::<Vec<bool>>("Bools", "any", conf::or, Some(OR), 22);
    conformance::<Vec<bool>>("Bools", "parity", conf::parity, Some(PARITY), 22);
}

#[test]
fn bst_matches_derived_and_reference() {
    conformance::<conf::Tree>("Tree", "bst", conf::bst, Some(BST), 22);
}

#[test]
fn tree_sum_matches_derived_and_reference() {
    conformance::<conf::Tree>("Tree", "treeSum", conf::tree_sum, Some(TREE_SUM), 22);
}

#[test]
fn no_dup_matches_derived() {
    conformance::<Vec<Nat>>("List", "noDup", conf::no_dup, None, 20);
}

/// The benchmark's `or3` is over a tuple, which is free; a struct costs
/// 1 like every constructor, so the twin of `Triple Bool Bool Bool` is a
/// derived struct and the reference numbers move up one bound.
#[derive(Enumerable, Debug, Clone, PartialEq)]
struct Triple(bool, bool, bool);

fn or3_struct(t: Lazy<'_, Triple>) -> bool {
    let TripleView(a, b, c) = t.view();
    c.get() || (b.get() || a.get())
}

#[test]
fn or3_matches_derived_and_reference() {
    conformance::<Triple>("Triple", "or3", or3_struct, None, 10);
    let prog = program(CONFORMANCE);
    let g = prog.universe().grammar("Triple").unwrap();
    for bound in 0..=10 {
        let c = dyn_classes(&g, bound, |x| prog.test("or3", x));
        let tuple = counts(neatcheck::search::classes(
            conf::or3,
            bound.saturating_sub(1),
        ));
        assert_eq!(c, tuple, "bound {bound}");
        let expected = if bound >= 4 { (4, 3) } else { (0, 0) };
        assert_eq!(c, expected);
    }
}

// -- counterexamples by iterative deepening ------------------------------

/// A sorted insertion with a planted bug: past the first element, `x` is
/// put second instead of being inserted recursively.
const INSERT: &str = r#"
    data Nat = Z | S Nat
    data List = Nil | Cons Nat List
    data Input = Input Nat List

    fun le(a, b) = case a of { Z -> True; S(a1) -> case b of { Z -> False; S(b1) -> le(a1, b1) } }
    fun ordered(xs) = case xs of {
        Nil -> True;
        Cons(x, rest) -> case rest of { Nil -> True; Cons(y, r2) -> and(le(x, y), ordered(rest)) } }
    fun insert(x, xs) = case xs of {
        Nil -> Cons(x, Nil);
        Cons(y, ys) -> if le(x, y) then Cons(x, xs) else Cons(y, Cons(x, ys)) }   -- bug
    fun prop(inp) = case inp of {
        Input(x, xs) -> if ordered(xs) then ordered(insert(x, xs)) else True }
"#;

#[derive(Enumerable, Debug, Clone, PartialEq)]
enum List {
    Nil,
    Cons(Nat, Box<List>),
}

#[derive(Enumerable, Debug, Clone, PartialEq)]
struct Input(Nat, List);

/// A list under construction: built cells in front of a lazy input list
/// (what the interpreter's values are).
#[derive(Clone)]
enum Mixed<'a> {
    Input(Lazy<'a, List>),
    Nil,
    Cons(LNat<'a>, Rc<Mixed<'a>>),
}

fn uncons<'a>(l: &Mixed<'a>) -> Option<(LNat<'a>, Mixed<'a>)> {
    match l {
        Mixed::Input(h) => match h.view() {
            ListView::Nil => None,
            ListView::Cons(x, rest) => Some((x, Mixed::Input(rest))),
        },
        Mixed::Nil => None,
        Mixed::Cons(x, rest) => Some((*x, (**rest).clone())),
    }
}

fn ordered(l: &Mixed<'_>) -> bool {
    match uncons(l) {
        None => true,
        Some((x, rest)) => match uncons(&rest) {
            None => true,
            Some((y, _)) => le_nat(x, y) && ordered(&rest),
        },
    }
}

fn insert_bug<'a>(x: LNat<'a>, xs: Lazy<'a, List>) -> Mixed<'a> {
    match xs.view() {
        ListView::Nil => Mixed::Cons(x, Rc::new(Mixed::Nil)),
        ListView::Cons(y, ys) => {
            if le_nat(x, y) {
                Mixed::Cons(x, Rc::new(Mixed::Input(xs)))
            } else {
                Mixed::Cons(y, Rc::new(Mixed::Cons(x, Rc::new(Mixed::Input(ys)))))
            }
        }
    }
}

fn insert_prop(inp: Lazy<'_, Input>) -> bool {
    let InputView(x, xs) = inp.view();
    if ordered(&Mixed::Input(xs)) {
        ordered(&insert_bug(x, xs))
    } else {
        true
    }
}

/// Iterative deepening: the runs of every passing bound, and the first
/// counterexample.
fn deepen<T: 'static>(
    mut searcher: impl FnMut(usize) -> Searcher<T>,
    prop: &impl Fn(Lazy<'_, T>) -> bool,
) -> (Vec<u64>, Counterexample<T>) {
    let mut passed = vec![];
    for bound in 0..=40 {
        let mut s = searcher(bound);
        match s.ctrex(prop, Budget::unlimited()) {
            BoundResult::Passed(runs) => passed.push(runs),
            BoundResult::Failed(c) => return (passed, c),
            // Out of budget: impossible without a budget.
            _ => unreachable!("an unlimited search passes or fails"),
        }
    }
    panic!("no counterexample up to size 40")
}

#[test]
fn first_counterexample_is_the_derived_one() {
    let prog = program(INSERT);
    let g = prog.universe().grammar("Input").unwrap();
    let (dyn_passed, d) = deepen(|b| Searcher::<DynValue>::from_grammar(g.clone(), b), &|x| {
        prog.test("prop", x)
    });
    let (rust_passed, r) = deepen(Searcher::<Input>::new, &insert_prop);
    assert_eq!(dyn_passed, rust_passed, "runs of the passing bounds");
    assert_eq!(format!("{:?}", d.value), format!("{:?}", r.value));
    assert_eq!(d.shown, r.shown);
    assert_eq!(d.pattern, r.pattern);
    assert_eq!(d.size, r.size);
    assert_eq!(d.runs, r.runs);
    // The smallest failing input: [Z, Z] with S(Z) inserted gives
    // [Z, S(Z), Z]; x = Z or a one-element list would be fine.
    assert_eq!(
        format!("{:?}", d.value),
        "Input(S(Z), Cons(Z, Cons(Z, Nil)))"
    );
    assert_eq!(d.size, 8);
    println!(
        "passing bounds: {dyn_passed:?}; counterexample {} (size {}, {} runs at its bound)",
        d.pattern, d.size, d.runs
    );
}

// -- the dynamic API -----------------------------------------------------

#[test]
fn declarations_and_lookups() {
    let prog = program(CONFORMANCE);
    let u = prog.universe();
    let names: Vec<&str> = u.datatypes().iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["Nat", "List", "Bools", "Tree", "Bound", "Triple"]);
    let list = u.datatype("List").unwrap();
    assert_eq!(list.to_string(), "data List = Nil | Cons Nat List");
    assert_eq!(list.constructor_index("Nil"), Some(0));
    assert_eq!(list.constructor_index("Cons"), Some(1));
    assert_eq!(list.constructor_index("Z"), None);
    assert_eq!(
        list.constructors[1].fields,
        [
            FieldType::Data("Nat".into()),
            FieldType::Data("List".into())
        ]
    );
    assert_eq!(
        u.datatype("Bools").unwrap().constructors[1].fields[0],
        FieldType::Bool
    );
    let (dt, i) = u.constructor("Node").unwrap();
    assert_eq!((dt.name.as_str(), i), ("Tree", 1));
    assert!(u.constructor("Nope").is_none());
    assert!(u.datatype("Nope").is_none());

    // Checked construction.
    let z = u.value("Z", vec![]).unwrap();
    let one = u.value("S", vec![z.clone()]).unwrap();
    let xs = u
        .value("Cons", vec![one.clone(), u.value("Nil", vec![]).unwrap()])
        .unwrap();
    assert_eq!(format!("{xs:?}"), "Cons(S(Z), Nil)");
    assert_eq!(xs.constructor(), Some((1, "Cons")));
    assert_eq!(xs.fields()[0], one);
    assert_eq!(
        xs,
        DynValue::data(
            1,
            "Cons",
            vec![one.clone(), DynValue::data(0, "Nil", vec![])]
        )
    );
    assert_eq!(
        u.value("S", vec![]).unwrap_err().to_string(),
        "bad fields for constructor `S`: it has 1 field(s), 0 given"
    );
    assert_eq!(
        u.value("S", vec![xs.clone()]).unwrap_err().to_string(),
        "bad fields for constructor `S`: field 0 should be a `Nat`, not `Cons(S(Z), Nil)`"
    );
    assert_eq!(
        u.value("BCons", vec![z, u.value("BNil", vec![]).unwrap()])
            .unwrap_err()
            .to_string(),
        "bad fields for constructor `BCons`: field 0 should be a `Bool`, not `Z`"
    );
    assert_eq!(
        u.value("Foo", vec![]).unwrap_err(),
        DynError::NoSuchConstructor { name: "Foo".into() }
    );
    assert_eq!(
        u.space("Foo").unwrap_err().to_string(),
        "no datatype `Foo` is declared"
    );
}

fn build_err(decl: impl FnOnce(&mut DataTypes)) -> String {
    let mut types = DataTypes::new();
    decl(&mut types);
    types.build().unwrap_err().to_string()
}

#[test]
fn declaration_errors() {
    assert_eq!(
        build_err(|t| {
            t.data("Nat").ctor("Z", &[]).ctor("S", &["Nta"]);
        }),
        "unknown type `Nta` in field 0 of constructor `S` of datatype `Nat` (a field \
         type is a declared datatype, `Bool`, `Nat`, `Int`, `Char`, `String` or a range `lo..=hi`)"
    );
    assert_eq!(
        build_err(|t| {
            t.data("A").ctor("X", &[]).ctor("X", &[]);
        }),
        "constructor `X` is declared twice in datatype `A`"
    );
    assert_eq!(
        build_err(|t| {
            t.data("A").ctor("X", &[]);
            t.data("B").ctor("X", &["A"]);
        }),
        "constructor `X` is declared in datatype `A` and again in datatype `B` \
         (constructor names must be unique)"
    );
    assert_eq!(
        build_err(|t| {
            t.data("A").ctor("X", &[]);
            t.data("A").ctor("Y", &[]);
        }),
        "datatype `A` is declared twice"
    );
    assert_eq!(
        build_err(|t| {
            t.data("A").ctor("Has space", &[]);
        }),
        "invalid name `Has space`: names must be non-empty, without white space, \
         parentheses or commas"
    );
    assert_eq!(
        build_err(|t| {
            t.data("");
        }),
        "invalid name ``: names must be non-empty, without white space, parentheses \
         or commas"
    );
    assert_eq!(
        build_err(|t| {
            t.data("A").ctor("X", &["3..=1"]);
        }),
        "the range `3..=1` in constructor `X` of datatype `A` has no values"
    );
    // The same errors through the language, and its own.
    let err = |src: &str| Program::parse(src).expect_err("an error");
    assert_eq!(
        err("data T = A | B Nope"),
        "unknown type `Nope` in field 0 of constructor `B` of datatype `T` (a field type \
         is a declared datatype, `Bool`, `Nat`, `Int`, `Char`, `String` or a range `lo..=hi`)"
    );
    assert_eq!(
        err("data T = A | A"),
        "constructor `A` is declared twice in datatype `T`"
    );
    assert_eq!(
        err("data T = A\nfun f(x) = case x of { A -> y }"),
        "in function `f`: unknown variable `y`"
    );
    assert_eq!(
        err("data T = A\nfun f(x) = g(x)"),
        "in function `f`: unknown function `g`"
    );
    assert_eq!(
        err("data T = A | B T\nfun f(x) = B(x, x)"),
        "in function `f`: constructor `B` has 1 field(s), not 2"
    );
    assert_eq!(
        err("data T = A\nfun f(x) = case x of { C -> True }"),
        "in function `f`: unknown constructor `C`"
    );
    assert_eq!(
        err("data T = A\nfun f(x) = case x of"),
        "line 2: expected `{`, found the end of the input"
    );
    assert_eq!(err("fun f(x) = x ?"), "line 1: unexpected character `?`");
    assert_eq!(err("data T = True"), "line 1: `True` is reserved for Bool");
}

#[test]
fn lazy_access_by_index_and_name() {
    let prog = program(CONFORMANCE);
    let g = prog.universe().grammar("Tree").unwrap();
    // The root is Leaf; the predicate reads it and then the label and the
    // left subtree of a Node, like `bst` does.
    let mut s = Searcher::<DynValue>::from_grammar(g.clone(), 5);
    let mut seen = vec![];
    while let Some(r) = s.step(|t: Lazy<'_, DynValue>| {
        assert_eq!(t.type_name(), "Tree");
        let v = t.view();
        let mut line = format!("{v:?} #{} {}", v.index, v.name);
        assert_eq!(t.constructor(), (v.index, v.name));
        if v.name == "Node" {
            assert_eq!(v.arity(), 3);
            let label = t.field(1);
            assert_eq!(label.type_name(), "Nat");
            line += &format!(" label {}", label.constructor().1);
            line += &format!(" left {}", v.field(0).constructor().1);
            assert_eq!(v.fields().count(), 3);
        }
        seen.push(line);
        true
    }) {
        assert_eq!(r, RunResult::True);
    }
    assert_eq!(
        seen,
        [
            "Leaf #0 Leaf",
            "Node(_, _, _) #1 Node label Z left Leaf",
            // The left subtree was read last: swapped first, but any Node
            // there is over the bound; then the label.
            "Node(_, _, _) #1 Node label S left Leaf",
        ]
    );
    // A field that does not exist, and an atom read as a constructor:
    // the run panics with a clear message.
    let mut s = Searcher::<DynValue>::from_grammar(g.clone(), 2);
    match s.step(|t: Lazy<'_, DynValue>| {
        t.field(5);
    }) {
        Some(RunResult::Panicked(m)) => {
            assert_eq!(
                m,
                "neatcheck: constructor `Leaf` has 0 field(s), no field 5"
            )
        }
        other => panic!("{other:?}"),
    }
    let mut s = Searcher::<DynValue>::from_grammar(g, 2);
    assert_eq!(
        s.step(|t: Lazy<'_, DynValue>| t.get_bool()),
        Some(RunResult::Panicked(
            "neatcheck: this dynamic position holds a `Tree`, not a `Bool`".into()
        ))
    );
}

/// Runs a force-everything predicate on both spaces in lockstep: the
/// same values in the same order (printed alike), one run per value.
fn lockstep<T: Enumerable + Debug>(g: &Rc<Grammar>, bound: usize) -> u64 {
    let mut d = Searcher::<DynValue>::from_grammar(g.clone(), bound);
    let mut r = Searcher::<T>::new(bound);
    let mut runs = 0;
    loop {
        let mut forced = None;
        let a = d.step(|x: Lazy<'_, DynValue>| forced = Some(x.force_dyn()));
        let b = r.step(|x: Lazy<'_, T>| {
            let _ = x.force();
        });
        match (a, b) {
            (None, None) => break,
            (Some(_), Some(_)) => {
                let v = d.value();
                assert_eq!(forced.as_ref(), Some(&v), "force_dyn is the value");
                assert_eq!(format!("{v:?}"), format!("{:?}", r.value()));
                assert_eq!(d.size(), r.size());
                runs += 1;
            }
            (a, b) => panic!("the searches differ in length: {a:?} vs {b:?}"),
        }
    }
    assert_eq!(
        neatcheck::count::count_up_to::<T>(bound),
        runs.into(),
        "one run per value when everything is read"
    );
    runs
}

#[test]
fn materialisation_in_the_derived_order() {
    let prog = program(CONFORMANCE);
    let u = prog.universe();
    assert_eq!(lockstep::<conf::Tree>(&u.grammar("Tree").unwrap(), 12), 102);
    // (`Vec` prints as `[..]`: the twin that prints alike is `List`.)
    assert_eq!(lockstep::<List>(&u.grammar("List").unwrap(), 10), 55);
    assert_eq!(lockstep::<Triple>(&u.grammar("Triple").unwrap(), 5), 8);
    let insert = program(INSERT);
    assert_eq!(
        lockstep::<Input>(&insert.universe().grammar("Input").unwrap(), 9),
        33
    );
}

#[test]
fn counting_equals_the_derived_types() {
    let prog = program(CONFORMANCE);
    let u = prog.universe();
    fn same<T: Enumerable>(g: &Grammar, max: usize) {
        for n in 0..=max {
            assert_eq!(
                g.count(n),
                count_of::<T>(n),
                "{} at size {n}",
                g.root_name()
            );
        }
    }
    same::<Nat>(&u.grammar("Nat").unwrap(), 30);
    same::<Vec<Nat>>(&u.grammar("List").unwrap(), 30);
    same::<Vec<bool>>(&u.grammar("Bools").unwrap(), 30);
    same::<conf::Tree>(&u.grammar("Tree").unwrap(), 30);
    same::<Option<Nat>>(&u.grammar("Bound").unwrap(), 30);
    same::<Triple>(&u.grammar("Triple").unwrap(), 10);
    same::<Input>(&program(INSERT).universe().grammar("Input").unwrap(), 30);
    let g = u.grammar("Tree").unwrap();
    assert_eq!(g.count_up_to(22), 43498u32.into());
    assert_eq!(g.min_size(), Some(1));
}

// A mutually recursive pair, declared before use in either order.
#[derive(Enumerable, Debug, Clone, PartialEq)]
enum Forest {
    Empty,
    Grow(Box<Rose>, Box<Forest>),
}

#[derive(Enumerable, Debug, Clone, PartialEq)]
struct Rose(Nat, Box<Forest>);

const FOREST: &str = r#"
    data Forest = Empty | Grow Rose Forest
    data Rose = Rose Nat Forest
    data Nat = Z | S Nat
    fun isZ(n) = case n of { Z -> True; S(_) -> False }
    fun small(f) = case f of {
        Empty -> True;
        Grow(r, rest) -> case r of { Rose(n, kids) -> and(isZ(n), small(kids), small(rest)) } }
"#;

fn small(f: Lazy<'_, Forest>) -> bool {
    match f.view() {
        ForestView::Empty => true,
        ForestView::Grow(r, rest) => {
            let RoseView(n, kids) = r.view();
            matches!(n.view(), crate::benchmarks::nat::NatView::Z) && small(kids) && small(rest)
        }
    }
}

#[test]
fn mutually_recursive_datatypes() {
    let prog = program(FOREST);
    let u = prog.universe();
    let g = u.grammar("Forest").unwrap();
    for n in 0..=25 {
        assert_eq!(g.count(n), count_of::<Forest>(n), "size {n}");
    }
    let rose = u.grammar("Rose").unwrap();
    for n in 0..=25 {
        assert_eq!(rose.count(n), count_of::<Rose>(n), "size {n}");
    }
    assert_eq!(lockstep::<Forest>(&g, 12), 29);
    let mut last = None;
    for bound in 0..=16 {
        let d = dyn_classes(&g, bound, |x| prog.test("small", x));
        let derived = neatcheck::search::classes(small, bound);
        assert_eq!(d, counts(derived), "bound {bound}");
        last = Some(derived);
    }
    println!(
        "forest `small` at bound 16: {:?}",
        last.expect("bounds searched")
    );
}

/// Builtin fields are the very positions of `bool`, `u64` and a range.
#[derive(Enumerable, Debug, Clone, PartialEq)]
enum Atoms {
    A(bool, u64),
    B(#[enumerable(with = "neatcheck::space::range(0, 3, |x| x as u8)")] u8),
    C,
}

fn atoms() -> neatcheck::dynamic::Universe {
    let mut t = DataTypes::new();
    t.data("Atoms")
        .ctor("A", &["Bool", "Nat"])
        .ctor("B", &["0..=3"])
        .ctor("C", &[]);
    t.build().unwrap()
}

#[test]
fn builtin_fields() {
    let u = atoms();
    let g = u.grammar("Atoms").unwrap();
    for n in 0..=20 {
        assert_eq!(g.count(n), count_of::<Atoms>(n), "size {n}");
    }
    assert_eq!(lockstep::<Atoms>(&g, 6), 37);
    // Lazy reads of the atoms, in the same order as a derived view.
    fn dyn_pred(x: Lazy<'_, DynValue>) -> bool {
        let v = x.view();
        match v.name {
            "A" => v.field(0).get_bool() || v.field(1).get_nat() % 3 == 1,
            "B" => v.field(0).get_int() == 2,
            _ => false,
        }
    }
    fn rust_pred(x: Lazy<'_, Atoms>) -> bool {
        match x.view() {
            AtomsView::A(b, n) => b.get() || n.get() % 3 == 1,
            AtomsView::B(i) => i.force() == 2,
            AtomsView::C => false,
        }
    }
    for bound in 0..=12 {
        assert_eq!(
            dyn_classes(&g, bound, dyn_pred),
            counts(neatcheck::search::classes(rust_pred, bound)),
            "bound {bound}"
        );
    }
    let mut s = Searcher::<DynValue>::from_grammar(g, 3);
    let mut seen = vec![];
    while s
        .step(|x: Lazy<'_, DynValue>| {
            let v = x.view();
            seen.push(match v.name {
                "A" => format!("{:?}", v.field(1).force_dyn()),
                "B" => format!("{:?}", v.field(0).force_dyn()),
                _ => "C".to_string(),
            });
            if v.name == "B" {
                v.field(0).get_nat();
            }
        })
        .is_some()
    {}
    // By minimal size: C (1), then A (2, with Nat 0) and B (2) in
    // declaration order; A's Nat (read last) grows first. `get_nat` on
    // the range panics, once per B.
    assert_eq!(seen, ["C", "0", "1", "0", "1", "2", "3"]);
    assert_eq!(s.stats().panicked, 4);
    let mut s = Searcher::<DynValue>::from_grammar(u.grammar("Atoms").unwrap(), 3);
    let mut messages: Vec<String> = vec![];
    while let Some(r) = s.step(|x: Lazy<'_, DynValue>| {
        let v = x.view();
        let types: Vec<String> = v.fields().map(|f| f.type_name().into_owned()).collect();
        match v.name {
            "A" if types == ["Bool", "Nat"] => v.field(1).get_bool(),
            "B" if types == ["0..=3"] => v.field(0).view().index == 0,
            _ => panic!("{} {types:?}", v.name),
        }
    }) {
        match r {
            RunResult::Panicked(m) if !messages.contains(&m) => messages.push(m),
            _ => {}
        }
    }
    assert_eq!(
        messages,
        [
            "C []",
            "neatcheck: this dynamic position holds a `Nat`, not a `Bool`",
            "neatcheck: this dynamic position holds a `0..=3` (an atomic value), not a \
             constructor: read it with `get_nat`, `get_int`, `get_char` or `force_dyn`",
        ]
    );
}

#[test]
fn empty_datatypes_and_uninhabited_constructors() {
    let mut t = DataTypes::new();
    t.data("Inf").ctor("I", &["Inf"]);
    t.data("Void");
    t.data("A").ctor("A1", &["Inf"]).ctor("A2", &["Bool"]);
    let u = t.build().unwrap();
    for name in ["Inf", "Void"] {
        let g = u.grammar(name).unwrap();
        assert!(!g.is_inhabited());
        assert_eq!(g.count_up_to(10), 0u32.into());
        let mut s = Searcher::<DynValue>::from_grammar(g, 10);
        assert!(s.step(|_: Lazy<'_, DynValue>| true).is_none());
    }
    // `A1` holds no value; `A2` keeps its declaration index.
    let mut s = Searcher::<DynValue>::with_space(&u.space("A").unwrap(), 5);
    let mut seen = vec![];
    while s
        .step(|x: Lazy<'_, DynValue>| {
            let v = x.view();
            seen.push((v.index, v.name.to_string(), v.field(0).get_bool()));
        })
        .is_some()
    {}
    assert_eq!(seen, [(1, "A2".into(), false), (1, "A2".into(), true)]);
}

#[test]
fn universes_do_not_share_datatypes() {
    let mut t1 = DataTypes::new();
    t1.data("T").ctor("A", &[]).ctor("B", &["T"]);
    let mut t2 = DataTypes::new();
    t2.data("T")
        .ctor("C", &[])
        .ctor("D", &["T"])
        .ctor("E", &["T", "T"]);
    let (u1, u2) = (t1.build().unwrap(), t2.build().unwrap());
    let both = space::product(u1.space("T").unwrap(), u2.space("T").unwrap());
    let g = Indexer::for_space(&both);
    let (g1, g2) = (u1.grammar("T").unwrap(), u2.grammar("T").unwrap());
    for n in 0..=12 {
        let mut expected = num_bigint::BigUint::from(0u32);
        for i in 0..=n {
            expected += g1.count(i) * g2.count(n - i);
        }
        assert_eq!(g.cardinality(n), expected, "size {n}");
    }
    // The same declarations twice are two universes, counted alike.
    let u3 = t1.build().unwrap();
    assert_eq!(u3.grammar("T").unwrap().count(7), g1.count(7));
}

#[test]
fn deep_values_print_without_recursion() {
    let mut v = DynValue::data(0, "Z", vec![]);
    for _ in 0..100_000 {
        v = DynValue::data(1, "S", vec![v]);
    }
    let shown = format!("{v:?}");
    assert_eq!(shown.len(), 100_000 * 3 + 1);
    assert_eq!(
        shown,
        format!("{}Z{}", "S(".repeat(100_000), ")".repeat(100_000))
    );
    // Dropping is recursive (like derived Rust values): not tested deep.
    std::mem::forget(v);
}

#[test]
fn int_fields_follow_the_integer_sizes() {
    use neatcheck::space::{with_integer_sizes, IntegerSizes};
    let mut types = DataTypes::new();
    types.data("Box").ctor("B", &["Int"]);
    let u = types.build().unwrap();
    assert_eq!(
        u.datatype("Box").unwrap().constructors[0].fields,
        [FieldType::Int]
    );
    // Per size, the values of `B n`: 1 + the size of `n`, like `i64`.
    let counts = |sizes| {
        with_integer_sizes(sizes, || {
            let g = u.grammar("Box").unwrap();
            (1..=4).map(|k| g.count(k)).collect::<Vec<_>>()
        })
    };
    let n = |x: u32| num_bigint::BigUint::from(x);
    // Linear: 0; then n and -n at each size.
    assert_eq!(counts(IntegerSizes::Linear), [n(1), n(2), n(2), n(2)]);
    // By bit length: 0; +-1; +-2..3; +-4..7.
    assert_eq!(counts(IntegerSizes::BitLength), [n(1), n(2), n(4), n(8)]);
    // Read lazily as an `Int`, and checked by `Universe::value`.
    let mut s = Searcher::with_space(&u.space("Box").unwrap(), 2);
    let mut seen = vec![];
    while s
        .step(|b: Lazy<'_, DynValue>| {
            let x = b.field(0);
            assert_eq!(x.type_name(), "Int");
            seen.push(x.get_int());
            true
        })
        .is_some()
    {}
    assert_eq!(seen, [0, 1, -1]);
    assert!(u.value("B", vec![DynValue::Int(-7)]).is_ok());
    assert!(u.value("B", vec![DynValue::Nat(7)]).is_err());
}

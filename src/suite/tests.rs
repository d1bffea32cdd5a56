//! Tests of the suite internals: classes against the reference
//! enumeration, the set cover, the items, and the layout against `rustfmt`.

use super::*;
use crate::index::Indexer;
use crate::Enumerable;

#[derive(Enumerable, Clone, Debug, PartialEq)]
enum Exp {
    Num(u8),
    Neg(Box<Exp>),
    Add(Box<Exp>, Box<Exp>),
}

impl RustExpr for Exp {
    fn rust_expr(&self) -> Expr {
        match self {
            Exp::Num(n) => Expr::call("Exp::Num", [n.rust_expr()]),
            Exp::Neg(e) => Expr::call("Exp::Neg", [e.rust_expr()]),
            Exp::Add(a, b) => Expr::call("Exp::Add", [a.rust_expr(), b.rust_expr()]),
        }
    }
}

/// A lazy simplifier: `0 + e = e`, `e + 0 = e`, `--e = e`.
fn simplify(e: Lazy<'_, Exp>) -> Exp {
    match e.view() {
        ExpView::Num(n) => Exp::Num(n.get()),
        ExpView::Neg(inner) => match inner.view() {
            ExpView::Neg(x) => simplify(x),
            _ => Exp::Neg(Box::new(simplify(inner))),
        },
        ExpView::Add(a, b) => {
            let (a, b) = (simplify(a), simplify(b));
            match (a, b) {
                (Exp::Num(0), x) | (x, Exp::Num(0)) => x,
                (a, b) => Exp::Add(Box::new(a), Box::new(b)),
            }
        }
    }
}

/// The function's output on one value, run through the searcher like any
/// run (`load` locks every position).
fn simplify_at(t: &Tree) -> Exp {
    let mut out = None;
    let mut s = Searcher::<Exp>::new(0);
    s.load(t);
    s.step(|x| out = Some(simplify(x)));
    out.expect("ran")
}

use crate::grammar::Tree;

#[test]
fn classes_partition_the_values_and_record_their_outputs() {
    let bound = 6;
    let all = explore(simplify, bound).unwrap();
    let ix = Indexer::<Exp>::new();
    let mut values = 0u64;
    for size in 0..=bound {
        let n: u64 = ix.cardinality(size).try_into().unwrap();
        for i in 0..n {
            let t = ix.tree(size, &i.into()).unwrap();
            let v = ix.value_of_tree(&t);
            let owners: Vec<&Case> = all
                .cases
                .iter()
                .filter(|c| c.pattern_tree.matches(&t))
                .collect();
            assert_eq!(owners.len(), 1, "{v:?} is in exactly one class");
            // The class's recorded output is the function's on every member.
            let expected = simplify_at(&t).rust_expr();
            assert_eq!(owners[0].outcome, CaseOutcome::Returned(expected), "{v:?}");
            assert!(owners[0].size <= size as u64, "the representative is smallest");
            values += 1;
        }
    }
    assert_eq!(all.values, values.into());
    assert!(all.cases.len() < values as usize);
}

#[test]
fn every_reduction_covers_all_items_of_every_criterion() {
    let all = explore(
        |e: Lazy<'_, Exp>| {
            let out = simplify(e);
            crate::label(match &out {
                Exp::Num(_) => "num",
                Exp::Neg(_) => "neg",
                Exp::Add(..) => "add",
            });
            if matches!(out, Exp::Num(0)) {
                branch("zero");
            }
            out
        },
        6,
    )
    .unwrap();
    for criterion in [
        Criterion::Demand,
        Criterion::Shape,
        Criterion::Labels,
        Criterion::Branches,
        Criterion::Classes,
    ] {
        let suite = all.reduce(criterion);
        let universe: BTreeSet<String> = all.cases.iter().flat_map(|c| c.items(criterion)).collect();
        let covered: BTreeSet<String> = suite.cases.iter().flat_map(|c| c.items(criterion)).collect();
        assert_eq!(covered, universe, "{criterion:?}");
        assert_eq!(suite.items.len(), universe.len());
        // Greedy: no kept case is redundant with respect to the ones
        // picked before it... at least none adds nothing at all.
        for c in &suite.cases {
            let others: BTreeSet<String> = suite
                .cases
                .iter()
                .filter(|o| o.index != c.index)
                .flat_map(|o| o.items(criterion))
                .collect();
            let alone = c.items(criterion);
            assert!(!alone.is_empty(), "{criterion:?}: a kept case covers something");
            let _ = others;
        }
    }
    assert_eq!(all.reduce(Criterion::Classes).tests(), all.cases.len());
    assert_eq!(all.reduce(Criterion::Labels).tests(), 3);
    assert_eq!(all.reduce(Criterion::Branches).tests(), 1);
    assert!(all.reduce(Criterion::Shape).tests() <= all.reduce(Criterion::Demand).tests());
}

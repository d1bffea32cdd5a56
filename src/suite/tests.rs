//! Tests of the suite internals: classes against the reference
//! enumeration, the set cover, the items, and the layout against `rustfmt`.

use super::*;
use crate::grammar::Tree;
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

/// The leftmost number: reads one path down the value.
fn leftmost(e: Lazy<'_, Exp>) -> u8 {
    match e.view() {
        ExpView::Num(n) => n.get(),
        ExpView::Neg(x) | ExpView::Add(x, _) => leftmost(x),
    }
}

/// The function's output on one value, run through the searcher like any
/// run (`load` locks every position).
fn output_at<O: RustExpr>(f: fn(Lazy<'_, Exp>) -> O, t: &Tree) -> Expr {
    let mut out = None;
    let mut s = Searcher::<Exp>::new(0);
    s.load(t);
    s.step(|x| out = Some(f(x).rust_expr()));
    out.expect("ran")
}

/// Checks the classes of `f` against every value up to `bound`: each value
/// in exactly one class, whose recorded output is the function's on it and
/// whose representative is no larger. The numbers of classes and values.
fn check_partition<O: RustExpr>(f: fn(Lazy<'_, Exp>) -> O, bound: usize) -> (usize, u64) {
    let all = record(f, bound).unwrap();
    let ix = Indexer::<Exp>::new();
    let mut values = 0u64;
    for size in 0..=bound {
        let n: u64 = ix.cardinality(size).try_into().unwrap();
        for i in 0..n {
            let t = ix.tree(size, &i.into()).unwrap();
            let owners: Vec<&Case> = all
                .cases
                .iter()
                .filter(|c| c.pattern_tree.matches(&t))
                .collect();
            let v = ix.value_of_tree(&t);
            assert_eq!(owners.len(), 1, "{v:?} is in exactly one class");
            let expected = CaseOutcome::Returned(output_at(f, &t));
            assert_eq!(owners[0].outcome, expected, "{v:?}");
            assert!(
                owners[0].size <= size as u64,
                "the representative is smallest"
            );
            values += 1;
        }
    }
    assert_eq!(all.values, values.into());
    (all.cases.len(), values)
}

#[test]
fn classes_partition_the_values_and_record_their_outputs() {
    // The simplifier rebuilds its whole input: every value is a class.
    let (classes, values) = check_partition(simplify, 6);
    assert_eq!(classes as u64, values);
    let (classes, values) = check_partition(leftmost, 6);
    // It reads one path down: values that agree on it share a class.
    assert!((classes as u64) < values, "{classes} of {values}");
}

#[test]
fn every_reduction_covers_all_items_of_every_criterion() {
    let all = record(
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
        let universe: BTreeSet<String> =
            all.cases.iter().flat_map(|c| c.items(criterion)).collect();
        let covered: BTreeSet<String> = suite
            .cases
            .iter()
            .flat_map(|c| c.items(criterion))
            .collect();
        assert_eq!(covered, universe, "{criterion:?}");
        assert_eq!(suite.items.len(), universe.len());
        for c in &suite.cases {
            assert!(
                !c.items(criterion).is_empty(),
                "{criterion:?}: a kept case covers something"
            );
        }
    }
    assert_eq!(all.reduce(Criterion::Classes).tests(), all.cases.len());
    assert_eq!(all.reduce(Criterion::Labels).tests(), 3);
    assert_eq!(all.reduce(Criterion::Branches).tests(), 1);
    assert!(all.reduce(Criterion::Shape).tests() <= all.reduce(Criterion::Demand).tests());
}

/// A small deterministic generator (xorshift) for layout tests.
struct Gen(u64);

impl Gen {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    fn atom(&mut self) -> Expr {
        let digits = "1234567890".repeat(3);
        match self.below(7) {
            0 => Expr::atom(&digits[..1 + self.below(12) as usize]),
            1 => Expr::atom("true"),
            2 => Expr::atom("None"),
            3 => Expr::atom("Exp::Nil"),
            4 => Expr::atom(format!("{:?}", "ab".repeat(self.below(30) as usize))),
            5 => Expr::atom("'x'"),
            _ => Expr::atom(format!("-{}", self.below(1000))),
        }
    }

    fn expr(&mut self, depth: u32) -> Expr {
        if depth == 0 || self.below(4) == 0 {
            return self.atom();
        }
        let heads = ["Exp::Add", "Box::new", "Some", "Node", "Exp::Mul"];
        let kids = |g: &mut Gen, max: u64| -> Vec<Expr> {
            let n = g.below(max + 1);
            (0..n).map(|_| g.expr(depth - 1)).collect()
        };
        match self.below(6) {
            0 | 1 => {
                let head = heads[self.below(heads.len() as u64) as usize];
                let args = kids(self, 3);
                Expr::call(head, args)
            }
            // One-tuples are left out: nested in one another, rustfmt's
            // width rules for them are not those of calls (a known
            // difference; values rarely hold them).
            2 => {
                let mut items = kids(self, 3);
                if items.len() == 1 {
                    items.push(self.atom());
                }
                Expr::tuple(items)
            }
            3 => {
                let n = self.below(30);
                Expr::vec((0..n).map(|_| self.atom()))
            }
            4 => Expr::vec(kids(self, 4)),
            _ => {
                let n = 1 + self.below(3);
                let fields: Vec<(String, Expr)> = (0..n)
                    .map(|i| (format!("f{i}"), self.expr(depth - 1)))
                    .collect();
                Expr::structure("Point", fields)
            }
        }
    }
}

/// Formats `source` with the `rustfmt` on the path (edition 2021, default
/// style), or `None` when there is none.
fn rustfmt(source: &str) -> Option<String> {
    use std::io::Write as _;
    let mut child = std::process::Command::new("rustfmt")
        .args(["--edition", "2021"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(source.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    assert!(
        out.status.success(),
        "rustfmt failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8(out.stdout).unwrap())
}

/// The first line where two texts differ, with a few lines of context.
fn first_difference(ours: &str, theirs: &str) -> Option<String> {
    let (a, b): (Vec<&str>, Vec<&str>) = (ours.lines().collect(), theirs.lines().collect());
    let i = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))?;
    let from = i.saturating_sub(6);
    Some(format!(
        "line {}:\n--- ours\n{}\n--- rustfmt\n{}",
        i + 1,
        a[from..a.len().min(i + 6)].join("\n"),
        b[from..b.len().min(i + 6)].join("\n")
    ))
}

#[test]
fn layout_is_what_rustfmt_makes_of_it() {
    let mut g = Gen(0x9e37_79b9_7f4a_7c15);
    let mut source = String::from("#[cfg(test)]\nmod layout {\n    fn f() {\n");
    for i in 0..400 {
        let e = g.expr(5);
        for l in e.let_lines(8, &format!("let v{i} = "), ";") {
            source.push_str(&l);
            source.push('\n');
        }
    }
    source.push_str("    }\n}\n");
    let Some(formatted) = rustfmt(&source) else {
        eprintln!("no rustfmt on the path: layout not compared");
        return;
    };
    if let Some(d) = first_difference(&source, &formatted) {
        panic!("the layout differs from rustfmt's at {d}");
    }
}

#[test]
fn the_snapshot_variable_is_one_a_check_knows() {
    // A check refuses `NEATCHECK_*` variables it does not know.
    assert!(crate::check::settings::KNOWN_VARIABLES.contains(&super::SNAPSHOT_ENV));
}

/// `#[derive(RustExpr)]` on the shapes a type may have: unit, tuple and
/// named variants, a generic struct, a unit struct and an enum without
/// variants (which must still compile); `rust_type` names generic types
/// with their parameters.
#[test]
fn derived_rust_expressions_and_types() {
    #[derive(crate::suite::RustExpr)]
    enum Never {}
    #[derive(crate::suite::RustExpr)]
    struct Unit;
    #[derive(crate::suite::RustExpr)]
    struct Pair<A, B>(A, B);
    #[derive(crate::suite::RustExpr)]
    enum Shape<T> {
        Dot,
        Line(T, T),
        Label { text: String, at: Option<T> },
    }
    fn text<T: RustExpr>(x: &T) -> String {
        x.rust_expr().to_string()
    }
    let _ = |n: &Never| text(n);
    assert_eq!(text(&Unit), "Unit");
    assert_eq!(text(&Pair(1u8, 'x')), "Pair(1u8, 'x')");
    assert_eq!(text(&Shape::<i8>::Dot), "Shape::Dot");
    assert_eq!(text(&Shape::Line(-1i8, 2)), "Shape::Line(-1i8, 2i8)");
    assert_eq!(
        text(&Shape::Label {
            text: "a".into(),
            at: Some(3u16)
        }),
        "Shape::Label { text: String::from(\"a\"), at: Some(3u16) }"
    );
    assert_eq!(<Shape<u8>>::rust_type().as_deref(), Some("Shape<u8>"));
    assert_eq!(
        <Pair<Vec<u8>, char>>::rust_type().as_deref(),
        Some("Pair<Vec<u8>, char>")
    );
    assert_eq!(Unit::rust_type().as_deref(), Some("Unit"));
    assert_eq!(
        <(u8, String)>::rust_arg_types(),
        Some(vec!["u8".into(), "String".into()])
    );
    let mut set = std::collections::HashSet::new();
    for x in [30u8, 4, 200] {
        set.insert(x);
    }
    assert_eq!(
        text(&set),
        "std::collections::HashSet::from([200u8, 30u8, 4u8])"
    );
}

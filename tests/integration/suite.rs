//! Glass-box regression suites (`neatcheck::suite`): the generated module
//! compiled with `rustc --test` next to the function it was made from
//! (passes) and next to mutants of it (fails), `rustfmt`-clean, the same
//! bytes twice, kept as a snapshot.

use neatcheck::suite::{self, Criterion, Export, Expr, RustExpr, SnapshotError, SnapshotStatus};
use neatcheck::{Enumerable, Lazy};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Declares items and keeps their source text, so that the same function
/// runs here and in the file the generated suite is compiled with.
macro_rules! with_source {
    ($name:ident: $($item:item)*) => {
        $($item)*
        const $name: &str = stringify!($($item)*);
    };
}

with_source! { SIMPLIFIER:
    #[derive(Clone, Debug, PartialEq, Enumerable)]
    enum Exp {
        Num(u8),
        Neg(Box<Exp>),
        Add(Box<Exp>, Box<Exp>),
        Div(Box<Exp>, Box<Exp>),
    }

    /// Folds constants and removes neutral elements; dividing by a zero
    /// constant panics.
    fn simplify(e: &Exp) -> Exp {
        match e {
            Exp::Num(n) => {
                neatcheck::suite::branch("num");
                Exp::Num(*n)
            }
            Exp::Neg(inner) => match simplify(inner) {
                Exp::Neg(x) => {
                    neatcheck::suite::branch("neg neg");
                    *x
                }
                x => {
                    neatcheck::suite::branch("neg");
                    Exp::Neg(Box::new(x))
                }
            },
            Exp::Add(a, b) => match (simplify(a), simplify(b)) {
                (Exp::Num(0), x) => {
                    neatcheck::suite::branch("add zero left");
                    x
                }
                (x, Exp::Num(0)) => {
                    neatcheck::suite::branch("add zero right");
                    x
                }
                (a, b) => {
                    neatcheck::suite::branch("add");
                    Exp::Add(Box::new(a), Box::new(b))
                }
            },
            Exp::Div(a, b) => match (simplify(a), simplify(b)) {
                (_, Exp::Num(0)) => panic!("division by zero"),
                (x, Exp::Num(1)) => {
                    neatcheck::suite::branch("div one");
                    x
                }
                (a, b) => {
                    neatcheck::suite::branch("div");
                    Exp::Div(Box::new(a), Box::new(b))
                }
            },
        }
    }
}

impl RustExpr for Exp {
    fn rust_expr(&self) -> Expr {
        match self {
            Exp::Num(n) => Expr::call("Exp::Num", [n.rust_expr()]),
            Exp::Neg(e) => Expr::call("Exp::Neg", [e.rust_expr()]),
            Exp::Add(a, b) => Expr::call("Exp::Add", [a.rust_expr(), b.rust_expr()]),
            Exp::Div(a, b) => Expr::call("Exp::Div", [a.rust_expr(), b.rust_expr()]),
        }
    }
}

/// What the source needs to compile without neatcheck: `branch` as a
/// no-op (and the derive left out, in [`standalone`]).
const STANDALONE_PRELUDE: &str = "mod neatcheck { pub mod suite { pub fn branch(_: &str) {} } }\n";

/// The simplifier's source (or a mutant's) with `module` after it, for a
/// crate without neatcheck.
fn standalone(simplifier: &str, module: &str) -> String {
    let plain = simplifier.replace(", Enumerable", "");
    assert_ne!(plain, simplifier, "the derive is left out");
    format!("{STANDALONE_PRELUDE}{plain}\n{module}")
}

with_source! { FIRST_TRUE:
    fn first_true(xs: &[bool]) -> Option<usize> {
        xs.iter().position(|&b| b)
    }
}

/// The lazy twin of `first_true` (the same code over a lazy list): what the
/// search explores.
fn first_true_lazy(xs: Lazy<'_, Vec<bool>>) -> Option<usize> {
    xs.iter().position(|b| b.get())
}

/// A fresh directory under the target directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("suite")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Compiles `source` as a test crate with `rustc --test` and runs it:
/// whether every test passed, and the output.
fn compile_and_run(dir: &Path, name: &str, source: &str) -> (bool, String) {
    crate::common::compile_and_run_tests(dir, name, source, &[])
}

/// The source with one occurrence of `from` replaced (which must be there).
fn mutate(source: &str, from: &str, to: &str) -> String {
    assert!(
        source.contains(from),
        "`{from}` not in the source:\n{source}"
    );
    source.replacen(from, to, 1)
}

fn simplifier_suite(criterion: Criterion) -> (suite::Suite, String) {
    let all = suite::record_forced(|e: Exp| simplify(&e), 5).unwrap();
    let kept = all.reduce(criterion);
    let export = Export::new("simplify_suite", "simplify(&{input})");
    let text = kept.to_rust(&export);
    (kept, text)
}

#[test]
fn the_simplifier_suite_passes_on_its_function_and_catches_mutants() {
    let (kept, module) = simplifier_suite(Criterion::Demand);
    assert!(module.contains("#[should_panic(expected = \"division by zero\")]"));
    assert!(module.contains("assert_eq!(simplify(&input), expected);"));
    let dir = scratch("simplifier");
    let source = standalone(SIMPLIFIER, &module);
    let (passed, out) = compile_and_run(&dir, "original", &source);
    assert!(passed, "{out}");
    assert!(out.contains(&format!("{} passed", kept.tests())), "{out}");
    // Each mutant breaks one rule; the suite must notice every one.
    let mutants = [
        ("(Exp::Num(0), x)", "(Exp::Num(1), x)"),
        ("Exp::Neg(Box::new(x))", "x"),
        ("\"division by zero\"", "\"division by nothing\""),
        ("Exp::Num(*n)", "Exp::Num(*n | 1)"),
    ];
    for (i, (from, to)) in mutants.into_iter().enumerate() {
        let mutant = standalone(&mutate(SIMPLIFIER, from, to), &module);
        let (passed, out) = compile_and_run(&dir, &format!("mutant{i}"), &mutant);
        assert!(!passed, "the suite passes on mutant `{to}`:\n{out}");
    }
    // Division by one: demanded positions are covered without any test of
    // `Div(_, Num(1))` (`$ = Div`, `$.1 = Num` and `$.1.0 = 1` come from
    // different cases), so the demand suite misses this mutant; the
    // marked branches ("div one") catch it.
    let (from, to) = ("(x, Exp::Num(1))", "(x, Exp::Num(2))");
    let div_mutant = mutate(SIMPLIFIER, from, to);
    let (passed, _) = compile_and_run(&dir, "div_demand", &standalone(&div_mutant, &module));
    assert!(
        passed,
        "the demand suite now catches the division mutant: update this test"
    );
    let (branches, branch_module) = simplifier_suite(Criterion::Branches);
    let (passed, out) = compile_and_run(&dir, "branches", &standalone(SIMPLIFIER, &branch_module));
    assert!(
        passed && out.contains(&format!("{} passed", branches.tests())),
        "{out}"
    );
    let (passed, out) = compile_and_run(
        &dir,
        "div_branches",
        &standalone(&div_mutant, &branch_module),
    );
    assert!(
        !passed,
        "the branch suite misses the division mutant:\n{out}"
    );
}

#[test]
fn suites_report_their_size_against_classes_and_values() {
    let all = suite::record_forced(|e: Exp| simplify(&e), 5).unwrap();
    // Forced inputs: every value is a class.
    assert_eq!(neatcheck::count::count_up_to::<Exp>(5), all.values);
    assert_eq!(all.values, (all.cases.len() as u64).into());
    let demand = all.reduce(Criterion::Demand);
    let branches = all.reduce(Criterion::Branches);
    let shape = all.reduce(Criterion::Shape);
    assert!(demand.tests() < demand.classes, "{}", demand.summary());
    assert!(shape.tests() <= demand.tests(), "{}", shape.summary());
    // Eight marked branches (the panic marks none): at most one test each.
    assert_eq!(branches.items.len(), 8, "{:?}", branches.items);
    assert!(branches.tests() <= 8);
    let summary = demand.summary();
    assert!(
        summary.starts_with(&format!(
            "{} tests cover the {} items",
            demand.tests(),
            demand.items.len()
        )),
        "{summary}"
    );
    assert!(summary.contains(&format!(
        "of {} classes of the {} inputs of size <= 5",
        all.cases.len(),
        all.values
    )));
}

#[test]
fn a_lazy_function_gives_one_case_per_demand_class() {
    let all = suite::record(first_true_lazy, 7).unwrap();
    // Reference: every list of size <= 7, by its answer and the prefix read.
    let values = neatcheck::values::values_up_to::<Vec<bool>>(7);
    assert_eq!(all.values, (values.len() as u64).into());
    let mut prefixes: Vec<Vec<bool>> = values
        .iter()
        .map(|xs| match first_true(xs) {
            Some(i) => xs[..=i].to_vec(),
            None => xs.clone(),
        })
        .collect();
    prefixes.sort();
    prefixes.dedup();
    assert_eq!(all.cases.len(), prefixes.len());
    let kept = all.reduce(Criterion::Demand);
    let module = kept.to_rust(&Export::new("first_true_suite", "first_true(&{input})"));
    let dir = scratch("first_true");
    let (passed, out) = compile_and_run(&dir, "original", &format!("{FIRST_TRUE}\n{module}"));
    assert!(passed, "{out}");
    let mutant = mutate(
        FIRST_TRUE,
        "position(|&b| b)",
        "position(|&b| b).filter(|&i| i < 2)",
    );
    let (passed, _) = compile_and_run(&dir, "mutant", &format!("{mutant}\n{module}"));
    assert!(!passed, "the suite misses a mutant:\n{module}");
}

#[test]
fn the_same_suite_is_the_same_text_and_rustfmt_leaves_it_alone() {
    let (_, first) = simplifier_suite(Criterion::Demand);
    let (_, second) = simplifier_suite(Criterion::Demand);
    assert_eq!(first, second);
    let dir = scratch("rustfmt");
    let file = dir.join("suite.rs");
    for criterion in [
        Criterion::Demand,
        Criterion::Shape,
        Criterion::Branches,
        Criterion::Classes,
    ] {
        let (_, text) = simplifier_suite(criterion);
        std::fs::write(&file, &text).unwrap();
        let Ok(out) = Command::new("rustfmt")
            .args(["--edition", "2021", "--check"])
            .arg(&file)
            .output()
        else {
            eprintln!("no rustfmt on the path: formatting not checked");
            return;
        };
        assert!(
            out.status.success(),
            "rustfmt would change the {criterion:?} suite:\n{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

#[test]
fn a_snapshot_is_written_kept_refused_when_changed_and_rewritten_on_request() {
    let dir = scratch("snapshot");
    let file = dir.join("simplify_suite.rs");
    let export = Export::new("simplify_suite", "simplify(&{input})");
    let (kept, text) = simplifier_suite(Criterion::Branches);
    assert_eq!(
        kept.snapshot_with(&file, &export, false),
        Ok(SnapshotStatus::Created)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    assert_eq!(
        kept.snapshot_with(&file, &export, false),
        Ok(SnapshotStatus::Unchanged)
    );
    // An intended change of behaviour: `-(-x)` is no longer simplified.
    let changed = suite::record_forced(
        |e: Exp| match &e {
            Exp::Neg(inner) if matches!(**inner, Exp::Neg(_)) => e.clone(),
            _ => simplify(&e),
        },
        5,
    )
    .unwrap()
    .reduce(Criterion::Branches);
    match changed.snapshot_with(&file, &export, false) {
        Err(SnapshotError::Differs { line, .. }) => assert!(line > 1),
        other => panic!("a changed suite is refused, not {other:?}"),
    }
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        text,
        "not rewritten"
    );
    assert_eq!(
        changed.snapshot_with(&file, &export, true),
        Ok(SnapshotStatus::Rewritten)
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        changed.to_rust(&export)
    );
}

with_source! { WRAP:
    /// Breaks `text` into lines of at most `width` characters (a width of
    /// 0 keeps it whole).
    fn wrap(text: &str, width: usize) -> Vec<String> {
        if width == 0 {
            return vec![text.to_string()];
        }
        let chars: Vec<char> = text.chars().collect();
        chars.chunks(width).map(|c| c.iter().collect()).collect()
    }
}

/// The suite of a function of two arguments whose call converts one
/// (`{1}.into()`): typed literals give the argument its type, so the
/// generated tests compile (an untyped `0` would be an `i32`, and `usize`
/// is not `From<i32>`).
#[test]
fn a_suite_whose_call_converts_an_argument_compiles_and_passes() {
    let all = suite::record_forced(|(t, w): (String, u8)| wrap(&t, w.into()), 6).unwrap();
    let kept = all.reduce(Criterion::Demand);
    let module = kept.to_rust(&Export::new("wrap_suite", "wrap(&{0}, {1}.into())"));
    assert!(module.contains("let arg1: u8 = 0u8;"), "{module}");
    assert!(
        module.contains("let expected: Vec<String> = vec![];"),
        "{module}"
    );
    let dir = scratch("wrap");
    let (passed, out) = compile_and_run(&dir, "wrap", &format!("{WRAP}\n{module}"));
    assert!(
        passed && out.contains(&format!("{} passed", kept.tests())),
        "{out}"
    );
}

with_source! { INVENTORY:
    #[derive(Clone, Debug, PartialEq, Enumerable, RustExpr)]
    enum Item {
        Tool { name: char, uses: Option<u16> },
        Box(Vec<Item>),
        Nothing,
    }

    #[derive(Clone, Debug, PartialEq, Enumerable, RustExpr)]
    struct Shelf<T> {
        label: i8,
        items: Vec<T>,
    }

    /// How many items of each depth the shelf holds (a hash map: its
    /// suite prints it in a fixed order).
    fn depths(shelf: &Shelf<Item>) -> std::collections::HashMap<u8, usize> {
        fn walk(item: &Item, depth: u8, out: &mut std::collections::HashMap<u8, usize>) {
            *out.entry(depth).or_insert(0) += 1;
            if let Item::Box(inner) = item {
                for i in inner {
                    walk(i, depth + 1, out);
                }
            }
        }
        let mut out = std::collections::HashMap::new();
        for item in &shelf.items {
            walk(item, 0, &mut out);
        }
        out
    }
}

/// Derived `RustExpr` (named and tuple variants, a unit variant, a generic
/// struct, boxed and optional fields) and hash maps in the outputs: the
/// generated suite compiles, passes, and is the same text twice.
#[test]
fn derived_expressions_and_hash_maps_compile_and_pass() {
    let all = suite::record_forced(|shelf: Shelf<Item>| depths(&shelf), 7).unwrap();
    let kept = all.reduce(Criterion::Demand);
    let export = Export::new("depth_suite", "depths(&{input})");
    let module = kept.to_rust(&export);
    assert_eq!(module, kept.to_rust(&export));
    assert!(module.contains("Shelf {"), "{module}");
    assert!(
        module.contains("std::collections::HashMap::from(["),
        "{module}"
    );
    let plain = INVENTORY.replace(", Enumerable, RustExpr", "");
    assert_ne!(plain, INVENTORY);
    let dir = scratch("inventory");
    let (passed, out) = compile_and_run(&dir, "inventory", &format!("{plain}\n{module}"));
    assert!(
        passed && out.contains(&format!("{} passed", kept.tests())),
        "{out}"
    );
}

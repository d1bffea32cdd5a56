//! Prints `<benchmark> <strategy> <bound> <runs> <hits>` for the benchmark
//! predicates of `docs/benchmarks/`, to compare with the reference numbers:
//! the boolean predicates under strategy D, the formula predicates (`and-or`,
//! `ordered-nodup`, `imperative`, `typecheck`) under every strategy.
//!
//! `cargo run --release -p neatcheck-tools --bin conformance`

use neatcheck_tools::benchmarks;

use benchmarks::conformance as c;
use neatcheck::cool::{Cool, Strategy};
use neatcheck::search::classes;
use neatcheck::Lazy;

fn row<T: neatcheck::Enumerable>(name: &str, max: usize, pred: impl Fn(Lazy<'_, T>) -> bool) {
    for bound in 0..=max {
        let r = classes(&pred, bound);
        println!("{name} D {bound} {} {}", r.runs, r.satisfying);
    }
}

/// Rows of a formula predicate: every strategy, bounds `0..=max`.
fn cool_rows<T: neatcheck::Enumerable>(
    name: &str,
    max: usize,
    pred: impl for<'a> Fn(Lazy<'a, T>) -> Cool<'a>,
) {
    for strategy in Strategy::ALL {
        for bound in 0..=max {
            let r = neatcheck::Config::default()
                .max_size(bound)
                .strategy(strategy)
                .classes(&pred);
            println!("{name} {strategy} {bound} {} {}", r.runs, r.satisfying);
        }
    }
}

fn main() {
    row("ordered-le", 22, c::ordered_le);
    row("ordered-lt", 22, c::ordered_lt);
    row("and", 22, c::and);
    row("or", 22, c::or);
    row("bst", 22, c::bst);
    row("or3", 22, c::or3);
    row("parity", 22, c::parity);
    row("tree-sum", 22, c::tree_sum);
    row("lambda", 20, benchmarks::lambda::prop);
    row("redblack", 34, benchmarks::redblack::prop);
    row("regexp", 16, benchmarks::regexp::prop);
    cool_rows("and-or", 22, c::and_or);
    cool_rows("ordered-nodup", 22, c::ordered_nodup);
    cool_rows("imperative", 18, benchmarks::imperative::prop);
    cool_rows("typecheck", 20, benchmarks::typecheck::prop);
}

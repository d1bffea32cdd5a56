//! Parallel search of the benchmark programs against the sequential search
//! and the reference numbers: the same runs per bound, classes and first
//! counterexamples, on several threads and under every conjunction strategy.
//! (The engine-level agreement tests are in the root crate's
//! `tests/integration/parallel.rs`.)

use crate::benchmarks;
use neatcheck::cool::Strategy as ConjStrategy;
use neatcheck::search::{self, BoundResult};
use neatcheck::Config;

#[test]
fn benchmarks_agree_with_the_reference_counts() {
    use benchmarks::{lambda, redblack, regexp};
    let par = |bound| Config::default().max_size(bound).threads(2);
    // Reference all-mode counts (docs/benchmarks): runs per bound.
    assert_eq!(
        par(14).classes(lambda::prop).runs,
        search::classes(lambda::prop, 14).runs
    );
    assert_eq!(par(12).classes(regexp::prop).runs, 3898);
    assert_eq!(
        par(24).classes(redblack::prop).runs,
        search::classes(redblack::prop, 24).runs
    );
    // The first counterexamples, with the reference's run counts.
    let BoundResult::Failed(c) = par(17).ctrex(lambda::prop) else {
        panic!("Lambda has a counterexample at 17")
    };
    assert_eq!(c.runs, 10239);
    let BoundResult::Failed(c) = par(31).ctrex(redblack::prop) else {
        panic!("RedBlack has a counterexample at 31")
    };
    assert_eq!(c.runs, 20477);
}

#[test]
fn formulas_agree_under_every_strategy() {
    use benchmarks::imperative;
    for strategy in ConjStrategy::ALL {
        let config = Config::default().max_size(12).strategy(strategy);
        let seq = config.classes(imperative::prop);
        for threads in [2, 3] {
            assert_eq!(
                config.clone().threads(threads).classes(imperative::prop),
                seq,
                "{strategy:?}"
            );
        }
    }
}

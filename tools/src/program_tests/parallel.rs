//! Parallel search of the benchmark programs against the sequential search
//! and the reference numbers: the same runs per bound, classes and first
//! counterexamples, on several threads and under every conjunction strategy.
//! (The engine-level agreement tests are in the root crate's
//! `tests/integration/parallel.rs`.)

use crate::benchmarks;
use neatcheck::cool::Strategy as ConjStrategy;
use neatcheck::search::{self, BoundResult, Budget, Parallel};

#[test]
fn benchmarks_agree_with_the_reference_counts() {
    use benchmarks::{lambda, redblack, regexp};
    let par = Parallel::new(2).with_split_depth(3);
    // Reference all-mode counts (docs/benchmarks): runs per bound.
    assert_eq!(
        par.classes(lambda::prop, 14).runs,
        search::classes(lambda::prop, 14).runs
    );
    assert_eq!(par.classes(regexp::prop, 12).runs, 3898);
    assert_eq!(
        par.classes(redblack::prop, 24).runs,
        search::classes(redblack::prop, 24).runs
    );
    // The first counterexamples, with the reference's run counts.
    let BoundResult::Failed(c) = par.ctrex_within(&lambda::prop, 17, Budget::unlimited()) else {
        panic!("Lambda has a counterexample at 17")
    };
    assert_eq!(c.runs, 10239);
    let BoundResult::Failed(c) = par.ctrex_within(&redblack::prop, 31, Budget::unlimited()) else {
        panic!("RedBlack has a counterexample at 31")
    };
    assert_eq!(c.runs, 20477);
}

#[test]
fn formulas_agree_under_every_strategy() {
    use benchmarks::imperative;
    for strategy in ConjStrategy::ALL {
        let seq = neatcheck::Config::default().max_size(12).strategy(strategy).classes(imperative::prop);
        for threads in [2, 3] {
            let par = Parallel::new(threads).with_split_depth(2);
            assert_eq!(
                par.classes_cool(imperative::prop, 12, strategy),
                seq,
                "{strategy:?}"
            );
        }
    }
}

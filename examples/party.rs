//! The NEAT "party trick": find the string `"you can never find this"` by
//! searching all strings in size order for a counterexample to
//! `s != "you can never find this"`. The lazy comparison stops at the first
//! difference, so the search refines one character at a time.
//!
//! `cargo run --release --example party`

use neatcheck::search::{BoundResult, Budget, Searcher};
use neatcheck::Lazy;

const SECRET: &str = "you can never find this";

fn main() {
    let prop = |s: Lazy<String>| !s.eq_str(SECRET);
    for bound in 0.. {
        let mut searcher = Searcher::<String>::new(bound);
        match neatcheck::search::ctrex_in_searcher(&mut searcher, &prop, Budget::unlimited()) {
            BoundResult::Passed(runs) => println!("size {bound}\t{runs}"),
            BoundResult::Failed(c) => {
                println!("counterexample {:?}", c.value);
                break;
            }
            BoundResult::OutOfBudget(_) => unreachable!(),
        }
    }
}

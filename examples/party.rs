//! The NEAT "party trick": find the string `"you can never find this"` by
//! searching all strings in size order for a counterexample to
//! `s != "you can never find this"`. The lazy comparison stops at the first
//! difference, and a character is compared bit by bit from the most
//! significant, so the search refines one character, and one bit of it, at
//! a time: every Unicode string of each size is covered in a few thousand
//! runs.
//!
//! `cargo run --release --example party` prints, per size bound, the runs
//! its search took (`size N<TAB>runs`), then the secret. With `--ascii` the
//! strings are those of the original NEAT (`size-based`'s 7-bit `Char`,
//! read whole), whose run counts this reproduces (2 881 at bound 180).

use neatcheck::lazy::ListView;
use neatcheck::search::{BoundResult, Budget, Searcher};
use neatcheck::space::AsciiChar;
use neatcheck::{Enumerable, Lazy};
use std::fmt::Debug;

const SECRET: &str = "you can never find this";

/// Whether a list of ASCII characters spells `secret`, read one cell and
/// one whole character at a time.
fn ascii_is(s: Lazy<'_, Vec<AsciiChar>>, secret: &str) -> bool {
    let mut cell = s;
    for expected in secret.chars() {
        match cell.view() {
            ListView::Nil => return false,
            ListView::Cons(c, rest) => {
                if c.get().0 != expected {
                    return false;
                }
                cell = rest;
            }
        }
    }
    cell.is_empty()
}

/// Searches bound after bound, printing each bound's runs, until the
/// secret is found.
fn find<T: Enumerable + Debug>(prop: impl Fn(Lazy<'_, T>) -> bool) {
    for bound in 0.. {
        let mut searcher = Searcher::<T>::new(bound);
        match searcher.ctrex(&prop, Budget::unlimited()) {
            BoundResult::Passed(runs) => println!("size {bound}\t{runs}"),
            BoundResult::Failed(c) => {
                println!("size {bound}\t{}", c.runs);
                println!("counterexample {:?}", c.value);
                break;
            }
            BoundResult::OutOfBudget(_) => unreachable!("the budget is unlimited"),
        }
    }
}

fn main() {
    match std::env::args().nth(1).as_deref() {
        None => find(|s: Lazy<String>| !s.eq_str(SECRET)),
        Some("--ascii") => find(|s: Lazy<Vec<AsciiChar>>| !ascii_is(s, SECRET)),
        Some(other) => {
            eprintln!("party: unknown option {other:?} (only --ascii)");
            std::process::exit(2);
        }
    }
}

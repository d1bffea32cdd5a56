//! Searching datatypes that exist only at run time (`neatcheck::dynamic`):
//! an interpreter, or a tool driven by a schema, declares its datatypes
//! while it runs and reads values of them lazily, as derived views do.
//!
//! `cargo run --release --example dynamic` finds the smallest sorted list of
//! naturals that is not strictly increasing (the property claims that
//! sorted lists have no repeated element).

use neatcheck::dynamic::{DataTypes, DynValue};
use neatcheck::search::{BoundResult, Budget, Searcher};
use neatcheck::Lazy;

/// A natural `Z | S(Nat)` as a number (reads it whole).
fn nat(n: Lazy<'_, DynValue>) -> u64 {
    let (mut k, mut cur) = (0, n);
    while cur.constructor().1 == "S" {
        k += 1;
        cur = cur.field(0);
    }
    k
}

/// The elements of a list `Nil | Cons(Nat, List)`, read up to the first
/// descent (the rest of an unsorted list is never read); `None` when the
/// list is not sorted.
fn sorted_elements(xs: Lazy<'_, DynValue>) -> Option<Vec<u64>> {
    let (mut out, mut cur) = (Vec::new(), xs);
    while cur.constructor().1 == "Cons" {
        let x = nat(cur.field(0));
        if out.last().is_some_and(|&prev| prev > x) {
            return None;
        }
        out.push(x);
        cur = cur.field(1);
    }
    Some(out)
}

fn main() {
    let mut types = DataTypes::new();
    types.data("Nat").ctor("Z", &[]).ctor("S", &["Nat"]);
    types
        .data("List")
        .ctor("Nil", &[])
        .ctor("Cons", &["Nat", "List"]);
    let universe = types.build().unwrap_or_else(|e| panic!("{e}"));
    let grammar = universe.grammar("List").expect("declared above");

    // Wrong on purpose: sorted lists may repeat an element.
    let prop = |xs: Lazy<'_, DynValue>| match sorted_elements(xs) {
        None => true,
        Some(ys) => ys.windows(2).all(|w| w[0] < w[1]),
    };
    for bound in 0.. {
        let mut searcher = Searcher::<DynValue>::from_grammar(grammar.clone(), bound);
        match searcher.ctrex(&prop, Budget::unlimited()) {
            BoundResult::Passed(runs) => println!(
                "size {bound}: passed in {runs} runs (of {} values)",
                grammar.count_up_to(bound)
            ),
            BoundResult::Failed(c) => {
                println!("size {bound}: counterexample after {} runs", c.runs);
                println!("  smallest counterexample: {:?} (size {})", c.value, c.size);
                println!("  the part the property read: {}", c.pattern);
                break;
            }
            BoundResult::OutOfBudget(_) => unreachable!("no budget"),
        }
    }
}

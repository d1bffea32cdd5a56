//! Searching datatypes that exist only at run time: a property written in a
//! tiny functional language (`neatcheck_tools::interpreter`), over datatypes
//! declared in the same source text, falsified by iterative deepening.
//!
//! Run with `cargo run --release -p neatcheck-tools --bin interpreter`.

use neatcheck::dynamic::DynValue;
use neatcheck::search::{BoundResult, Budget, Searcher};
use neatcheck::Lazy;
use neatcheck_tools::interpreter::Program;

/// Insertion into a binary search tree keeps it a search tree... except
/// that this insertion puts a duplicate into the right subtree.
const SOURCE: &str = r#"
    data Nat = Z | S Nat
    data Tree = Leaf | Node Tree Nat Tree
    data Bound = NoBound | Bound Nat
    data Input = Insert Nat Tree

    fun lt(a, b) = case a of {
        Z -> case b of { Z -> False; S(_) -> True };
        S(a1) -> case b of { Z -> False; S(b1) -> lt(a1, b1) } }

    fun bst(t) = within(NoBound, NoBound, t)
    fun within(lo, hi, t) = case t of {
        Leaf -> True;
        Node(l, x, r) -> and(above(lo, x), below(hi, x), within(lo, Bound(x), l), within(Bound(x), hi, r)) }
    fun above(lo, x) = case lo of { NoBound -> True; Bound(a) -> lt(a, x) }
    fun below(hi, x) = case hi of { NoBound -> True; Bound(b) -> lt(x, b) }

    fun insert(x, t) = case t of {
        Leaf -> Node(Leaf, x, Leaf);
        Node(l, y, r) -> if lt(x, y) then Node(insert(x, l), y, r) else Node(l, y, insert(x, r)) }

    fun prop(i) = case i of { Insert(x, t) -> if bst(t) then bst(insert(x, t)) else True }
"#;

fn main() {
    let program = Program::parse(SOURCE).unwrap_or_else(|e| panic!("{e}"));
    let universe = program.universe();
    for d in universe.datatypes() {
        println!("{d}");
    }
    let grammar = universe.grammar("Input").expect("declared");
    let prop = |input: Lazy<'_, DynValue>| program.test("prop", input);
    for bound in 0.. {
        let mut searcher = Searcher::<DynValue>::from_grammar(grammar.clone(), bound);
        match searcher.ctrex(&prop, Budget::unlimited()) {
            BoundResult::Passed(runs) => println!(
                "size {bound}: {runs} runs (worst case {})",
                grammar.count_up_to(bound)
            ),
            BoundResult::Failed(c) => {
                println!("size {bound}: counterexample after {} runs", c.runs);
                println!("  smallest counterexample: {:?} (size {})", c.value, c.size);
                println!("  the part the property read: {}", c.pattern);
                break;
            }
            // Out of budget: impossible without a budget.
            _ => unreachable!("no budget"),
        }
    }
}

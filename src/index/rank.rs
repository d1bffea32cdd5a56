//! Ranking: the inverse of the index walk of [`super::walk`], from a tree
//! back to its size and its index among the trees of that size.
//!
//! The walk decides a value top-down by subtracting block sizes from the
//! index; ranking adds the same blocks back up, bottom-up, because a node's
//! blocks depend on the sizes of its fields, which are only known once the
//! fields are ranked. Both use the same memoised counts, so `walk(rank(t))`
//! is `t` by construction of the mixed radix, not by search.

use crate::grammar::{Grammar, ProdId, SortId, SortKind, Tree, INFINITE};
use num_bigint::BigUint;
use num_traits::Zero;

/// The size of `tree` (a tree of `sort`) and its index among the trees of
/// `sort` of that size, in the reference order that the walk follows.
///
/// Iterative (post-order with explicit stacks), so trees of any depth are
/// fine.
///
/// # Panics
/// If `tree` is not a tree of `sort` in this grammar: an alternative of
/// another sort, a wrong number of fields, or a leaf index that its family
/// does not have.
pub(crate) fn rank(g: &Grammar, sort: SortId, tree: &Tree) -> (usize, BigUint) {
    enum Task<'t> {
        Visit(SortId, &'t Tree),
        Finish(ProdId),
    }
    let mut tasks = vec![Task::Visit(sort, tree)];
    // (size, index) of every finished subtree whose parent is pending.
    let mut done: Vec<(usize, BigUint)> = vec![];
    while let Some(task) = tasks.pop() {
        match task {
            Task::Visit(expected, Tree::Leaf(s, global)) => {
                check_sort(g, expected, *s, "a leaf");
                assert!(
                    matches!(g.sorts[*s as usize].kind, SortKind::Leaf { .. }),
                    "neatcheck: cannot rank a tree: a leaf stands where an alternative of `{}` \
                     belongs",
                    g.sorts[*s as usize].name
                );
                let size = g.leaf_size(*s, *global);
                assert!(
                    size != INFINITE,
                    "neatcheck: cannot rank a tree: leaf index {global} is beyond the values of `{}`",
                    g.sorts[*s as usize].name
                );
                let (size, offset) = g.leaf_position(*s, *global);
                done.push((size, BigUint::from(offset)));
            }
            Task::Visit(expected, Tree::Node(p, kids)) => {
                assert!(
                    (*p as usize) < g.prods.len() && !g.prods[*p as usize].leaf,
                    "neatcheck: cannot rank a tree: {p} is not an alternative of this grammar"
                );
                let prod = &g.prods[*p as usize];
                check_sort(g, expected, prod.sort, "an alternative");
                assert_eq!(
                    kids.len(),
                    prod.slots.len(),
                    "neatcheck: cannot rank a tree: an alternative of `{}` has the wrong \
                     number of fields",
                    g.sorts[prod.sort as usize].name
                );
                tasks.push(Task::Finish(*p));
                // Reversed so that the fields finish left to right.
                for (&slot, kid) in prod.slots.iter().zip(kids).rev() {
                    tasks.push(Task::Visit(slot, kid));
                }
            }
            Task::Finish(p) => {
                let arity = g.prods[p as usize].slots.len();
                let fields = done.split_off(done.len() - arity);
                done.push(rank_node(g, p, &fields));
            }
        }
    }
    done.pop().expect("the rank walk produced a result")
}

fn check_sort(g: &Grammar, expected: SortId, found: SortId, what: &str) {
    assert!(
        expected == found,
        "neatcheck: cannot rank a tree: {what} of `{}` stands where a value of `{}` belongs",
        g.sorts.get(found as usize).map_or("?", |s| s.name.as_str()),
        g.sorts[expected as usize].name
    );
}

/// Size and index of a node at `prod` whose fields have the given ranks.
///
/// The walk picks field `j`'s size `z` as the first size whose block
/// (`count(slot j, z) * ways for the later slots`) holds the index, then
/// splits the rest into quotient (field `j`) and remainder (the later
/// fields). So the index within the product is, from the last field back:
/// `blocks before z + q_j * ways(later fields at their size) + index of the
/// later fields`, and alternatives declared earlier come before all of it.
fn rank_node(g: &Grammar, p: ProdId, fields: &[(usize, BigUint)]) -> (usize, BigUint) {
    let prod = &g.prods[p as usize];
    let k = fields.len();
    let mut acc = BigUint::zero();
    // Total size of fields `j+1..`.
    let mut tail = 0usize;
    for j in (0..k).rev() {
        let (z, q) = &fields[j];
        if j + 1 == k {
            acc = q.clone();
            tail = *z;
            continue;
        }
        let here = z + tail;
        let slot = prod.slots[j];
        let mut before = BigUint::zero();
        for smaller in 0..*z {
            let own = g.sort_count(slot, smaller);
            if own.is_zero() {
                continue;
            }
            before += own * g.suffix_count(p, j + 1, here - smaller);
        }
        acc += before + q * g.suffix_count(p, j + 1, tail);
        tail = here;
    }
    let size = prod.cost as usize + tail;
    let SortKind::Algebraic { decl, .. } = &g.sorts[prod.sort as usize].kind else {
        unreachable!("a node's alternative belongs to an algebraic sort")
    };
    for &earlier in decl.iter().take_while(|&&d| d != p) {
        let cost = g.prods[earlier as usize].cost as usize;
        if size >= cost {
            acc += g.suffix_count(earlier, 0, size - cost);
        }
    }
    (size, acc)
}

//! Ranking: the inverse of the index walk of [`super::walk`], from a tree
//! back to its size and its index among the trees of that size.
//!
//! The walk decides a value top-down by subtracting block sizes from the
//! index; ranking adds the same blocks back up, bottom-up, because a node's
//! blocks depend on the sizes of its fields, which are only known once the
//! fields are ranked. Both use the same memoised counts, so `walk(rank(t))`
//! is `t` by construction of the mixed radix, not by search.

use super::Counts;
use crate::arena::{build, Opened, Unfold};
use crate::grammar::{Grammar, ProdId, SortId, SortKind, Tree, INFINITE};
use num_bigint::BigUint;
use num_traits::Zero;
use std::marker::PhantomData;

/// The size of `tree` (a tree of `sort`) and its index among the trees of
/// `sort` of that size, in the reference order that the walk follows.
///
/// Iterative (the bottom-up builder of [`crate::arena`]), so trees of any
/// depth are fine.
///
/// # Panics
/// If `tree` is not a tree of `sort` in this grammar: an alternative of
/// another sort, a wrong number of fields, or a leaf index that its family
/// does not have.
pub(crate) fn rank(g: &Grammar, sort: SortId, tree: &Tree) -> (usize, BigUint) {
    let mut ranker = Ranker {
        g,
        counts: Counts::of(g),
        trees: PhantomData,
    };
    build(&mut ranker, (sort, tree))
}

/// Trees of an expected sort become their (size, index).
struct Ranker<'g, 't> {
    g: &'g Grammar,
    counts: Counts<'g>,
    trees: PhantomData<&'t Tree>,
}

impl<'t> Unfold for Ranker<'_, 't> {
    type Pos = (SortId, &'t Tree);
    type Label = ProdId;
    type Out = (usize, BigUint);

    fn open(
        &mut self,
        (expected, tree): (SortId, &'t Tree),
        fields: &mut Vec<(SortId, &'t Tree)>,
    ) -> Option<Opened<ProdId, (usize, BigUint)>> {
        let g = self.g;
        Some(match tree {
            Tree::Leaf(s, global) => {
                check_sort(g, expected, *s, "a leaf");
                assert!(
                    matches!(g.sorts[s.index()].kind, SortKind::Leaf { .. }),
                    "neatcheck: cannot rank a tree: a leaf stands where an alternative of `{}` \
                     belongs",
                    g.sorts[s.index()].name
                );
                let size = g.leaf_size(*s, *global);
                assert!(
                    size != INFINITE,
                    "neatcheck: cannot rank a tree: leaf index {global} is beyond the values of `{}`",
                    g.sorts[s.index()].name
                );
                let (size, offset) = g.leaf_position(*s, *global);
                Opened::Done((size, BigUint::from(offset)))
            }
            Tree::Node(p, kids) => {
                assert!(
                    p.index() < g.prods.len() && !g.prods[p.index()].leaf,
                    "neatcheck: cannot rank a tree: {p} is not an alternative of this grammar"
                );
                let prod = &g.prods[p.index()];
                check_sort(g, expected, prod.sort, "an alternative");
                assert_eq!(
                    kids.len(),
                    prod.slots.len(),
                    "neatcheck: cannot rank a tree: an alternative of `{}` has the wrong \
                     number of fields",
                    g.sorts[prod.sort.index()].name
                );
                fields.extend(prod.slots.iter().copied().zip(kids.iter().map(|k| &**k)));
                Opened::Node(*p)
            }
        })
    }

    fn close(
        &mut self,
        p: ProdId,
        fields: std::vec::Drain<'_, (usize, BigUint)>,
    ) -> (usize, BigUint) {
        rank_node(self.g, &mut self.counts, p, fields.as_slice())
    }
}

fn check_sort(g: &Grammar, expected: SortId, found: SortId, what: &str) {
    assert!(
        expected == found,
        "neatcheck: cannot rank a tree: {what} of `{}` stands where a value of `{}` belongs",
        g.sorts.get(found.index()).map_or("?", |s| s.name.as_str()),
        g.sorts[expected.index()].name
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
fn rank_node(
    g: &Grammar,
    counts: &mut Counts<'_>,
    p: ProdId,
    fields: &[(usize, BigUint)],
) -> (usize, BigUint) {
    let prod = &g.prods[p.index()];
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
            let own = counts.sort_count(slot, smaller);
            if own.is_zero() {
                continue;
            }
            before += own * counts.suffix_count(p, j + 1, here - smaller);
        }
        acc += before + q * counts.suffix_count(p, j + 1, tail);
        tail = here;
    }
    let size = prod.cost as usize + tail;
    let SortKind::Algebraic { decl, .. } = &g.sorts[prod.sort.index()].kind else {
        unreachable!("a node's alternative belongs to an algebraic sort")
    };
    for &earlier in decl.iter().take_while(|&&d| d != p) {
        let cost = g.prods[earlier.index()].cost as usize;
        if size >= cost {
            acc += counts.suffix_count(earlier, 0, size - cost);
        }
    }
    (size, acc)
}

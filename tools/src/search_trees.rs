//! The search tree with `i64` keys that the sampling and lazy-atom
//! benchmarks (`constrained_bench`, `atoms_bench`) both search, and its
//! order read by whole keys.

use neatcheck::{Enumerable, Lazy};

/// A search tree with `i64` keys (the ETNA workloads' trees).
#[derive(Enumerable, Debug, Clone)]
pub enum Bst {
    /// The empty tree.
    Leaf,
    /// A key between its subtrees.
    Node(Box<Bst>, i64, Box<Bst>),
}

/// Whether a lazy tree is a search tree with keys in `(lo, hi)`, read left
/// to right, each key whole, stopping at the first key out of order.
pub fn ordered_whole(t: Lazy<'_, Bst>, lo: Option<i64>, hi: Option<i64>) -> bool {
    match t.view() {
        BstView::Leaf => true,
        BstView::Node(l, k, r) => {
            let k = k.get();
            lo.is_none_or(|lo| lo < k)
                && hi.is_none_or(|hi| k < hi)
                && ordered_whole(l, lo, Some(k))
                && ordered_whole(r, Some(k), hi)
        }
    }
}

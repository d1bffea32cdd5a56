//! Shrinking (placeholder until the shrinker lands).

use crate::grammar::{Grammar, Tree};

/// The result of shrinking.
pub(crate) struct Shrunk {
    pub tree: Tree,
    pub size: u64,
    pub attempts: u64,
}

/// Shrinks `tree` while `fails` holds.
pub(crate) fn shrink(
    g: &Grammar,
    tree: &Tree,
    _fails: &mut dyn FnMut(&Tree) -> bool,
    _max_attempts: u64,
) -> Shrunk {
    Shrunk {
        tree: tree.clone(),
        size: g.tree_size(tree),
        attempts: 0,
    }
}

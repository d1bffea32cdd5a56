//! Binary search trees: insertion must keep the search-tree invariant.
//! `cargo run --release --example bst` finds the smallest tree and key on
//! which the buggy insertion breaks it.
//!
//! The invariant is checked lazily, so trees that are not search trees are
//! rejected after reading only the offending path.

use neatcheck::check::Config;
use neatcheck::{implies, Enumerable, Lazy};

/// A binary tree with `u8` keys.
#[derive(Enumerable, Debug, Clone, PartialEq)]
pub enum Tree {
    Leaf,
    Node(Box<Tree>, u8, Box<Tree>),
}

/// The search-tree invariant, read lazily: all keys in `lo..hi`.
pub fn is_bst(t: Lazy<'_, Tree>, lo: Option<u8>, hi: Option<u8>) -> bool {
    match t.view() {
        TreeView::Leaf => true,
        TreeView::Node(l, k, r) => {
            let k = k.get();
            lo.is_none_or(|lo| lo < k)
                && hi.is_none_or(|hi| k < hi)
                && is_bst(l, lo, Some(k))
                && is_bst(r, Some(k), hi)
        }
    }
}

/// The same invariant on a plain tree.
pub fn is_bst_plain(t: &Tree, lo: Option<u8>, hi: Option<u8>) -> bool {
    match t {
        Tree::Leaf => true,
        Tree::Node(l, k, r) => {
            lo.is_none_or(|lo| lo < *k)
                && hi.is_none_or(|hi| *k < hi)
                && is_bst_plain(l, lo, Some(*k))
                && is_bst_plain(r, Some(*k), hi)
        }
    }
}

/// Inserts a key. Bug: a key larger than the root goes to the *left* when
/// the root's right subtree is a leaf and its left subtree is not.
fn insert(t: Tree, x: u8) -> Tree {
    match t {
        Tree::Leaf => Tree::Node(Box::new(Tree::Leaf), x, Box::new(Tree::Leaf)),
        Tree::Node(l, k, r) => {
            if x < k {
                Tree::Node(Box::new(insert(*l, x)), k, r)
            } else if x > k {
                if *r == Tree::Leaf && *l != Tree::Leaf {
                    Tree::Node(Box::new(insert(*l, x)), k, r)
                } else {
                    Tree::Node(l, k, Box::new(insert(*r, x)))
                }
            } else {
                Tree::Node(l, k, r)
            }
        }
    }
}

fn main() {
    let result = Config::from_env().try_check(|t: Lazy<Tree>, x: Lazy<u8>| {
        implies(is_bst(t, None, None), || {
            is_bst_plain(&insert(t.force(), x.get()), None, None)
        })
    });
    match result {
        Ok(summary) => println!("no counterexample: {summary}"),
        Err(failure) => print!("{}", failure.report()),
    }
}

//! The types and invariants of three user examples (`examples/bst.rs`,
//! `examples/simplifier.rs`, `examples/sorted_insert.rs`), for the
//! `check_cost` tool, which times their checks with the bugs fixed. The
//! examples stay self-contained files a user can copy; these are their
//! twins, kept in step by hand (a change to an example's type or invariant
//! belongs here too).

/// The binary search trees of `examples/bst.rs`.
pub mod bst {
    use neatcheck::{Enumerable, Lazy};

    /// A binary tree with `u8` keys.
    #[derive(Enumerable, Debug, Clone, PartialEq)]
    pub enum Tree {
        /// The empty tree.
        Leaf,
        /// A node: left subtree, key, right subtree.
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
}

/// The expressions of `examples/simplifier.rs`.
pub mod simplifier {
    use neatcheck::Enumerable;

    /// Expressions over one variable `X`.
    #[derive(Enumerable, Debug, Clone, PartialEq)]
    pub enum Expr {
        /// The variable.
        X,
        /// A small literal.
        Lit(#[enumerable(with = "neatcheck::space::range(0, 3, |n| n as u8)")] u8),
        /// A sum.
        Add(Box<Expr>, Box<Expr>),
        /// A product.
        Mul(Box<Expr>, Box<Expr>),
    }

    /// The value of an expression at `x`.
    pub fn eval(e: &Expr, x: i64) -> i64 {
        match e {
            Expr::X => x,
            Expr::Lit(n) => *n as i64,
            Expr::Add(a, b) => eval(a, x).wrapping_add(eval(b, x)),
            Expr::Mul(a, b) => eval(a, x).wrapping_mul(eval(b, x)),
        }
    }
}

/// The sortedness precondition of `examples/sorted_insert.rs`.
pub mod sorted_insert {
    use neatcheck::Lazy;

    /// Whether a lazy list is sorted, reading it one element at a time.
    pub fn is_sorted(xs: Lazy<'_, Vec<u8>>) -> bool {
        let mut prev = None;
        for x in xs.iter() {
            let x = x.get();
            if prev.is_some_and(|p| p > x) {
                return false;
            }
            prev = Some(x);
        }
        true
    }
}

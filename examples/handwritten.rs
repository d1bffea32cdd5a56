//! A hand-written space with a lazy view: a type that is not derived
//! describes its values with `neatcheck::space` and reads them through
//! `Lazy::alternative`, as fast as a derived view, so that a property reads
//! only what it needs.
//!
//! `cargo run --release --example handwritten` finds the smallest search
//! tree on which a buggy `max_key` is wrong.

use neatcheck::check::Config;
use neatcheck::lazy::LazyView;
use neatcheck::space::{self, Space};
use neatcheck::{implies, Enumerable, Lazy};

/// Binary trees with `u8` keys, described by hand.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Bst {
    Leaf,
    Node(Box<Bst>, u8, Box<Bst>),
}

impl Enumerable for Bst {
    fn describe() -> Space<Self> {
        // One constructor costs 1 (`pay`), as a derived enum's would.
        space::pay(space::union(vec![
            space::pure(Bst::Leaf),
            space::map(
                space::product3(space::of::<Bst>(), space::of::<u8>(), space::of::<Bst>()),
                |(l, x, r)| Bst::Node(Box::new(l), x, Box::new(r)),
            ),
        ]))
    }
}

/// What a lazy `Bst` shows when read: its constructor, with lazy fields.
enum BstView<'a> {
    Leaf,
    Node(Lazy<'a, Bst>, Lazy<'a, u8>, Lazy<'a, Bst>),
}

impl LazyView for Bst {
    type View<'a> = BstView<'a>;
    fn view(lazy: Lazy<'_, Self>) -> BstView<'_> {
        // The alternative's index follows the order of `union` above.
        let alt = lazy.alternative();
        match alt.index() {
            0 => BstView::Leaf,
            _ => BstView::Node(alt.field(0), alt.field(1), alt.field(2)),
        }
    }
}

/// The search-tree invariant, read lazily: every key in `lo..hi`.
fn is_bst(t: Lazy<'_, Bst>, lo: u8, hi: u8) -> bool {
    match t.view() {
        BstView::Leaf => true,
        BstView::Node(l, x, r) => {
            let x = x.get();
            lo <= x && x < hi && is_bst(l, lo, x) && is_bst(r, x + 1, hi)
        }
    }
}

/// The largest key of a search tree. Bug: stops at the root.
fn max_key(t: &Bst) -> Option<u8> {
    match t {
        Bst::Leaf => None,
        Bst::Node(_, x, _) => Some(*x),
    }
}

/// Every key of a tree, in order.
fn keys(t: &Bst, out: &mut Vec<u8>) {
    if let Bst::Node(l, x, r) = t {
        keys(l, out);
        out.push(*x);
        keys(r, out);
    }
}

fn main() {
    let result = Config::from_env().try_check(|t: Lazy<Bst>| {
        implies(is_bst(t, 0, u8::MAX), || {
            let t = t.force();
            let mut all = Vec::new();
            keys(&t, &mut all);
            max_key(&t) == all.iter().copied().max()
        })
    });
    match result {
        Ok(summary) => println!("no counterexample: {summary}"),
        Err(failure) => print!("{}", failure.report()),
    }
}

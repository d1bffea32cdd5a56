//! Taking values apart: the grammar tree that builds a given value of an
//! `Enumerable` type (the inverse of materialising), through the hidden
//! `Enumerable::__unbuild`. Derived types and the standard algebraic types
//! (integers and characters as lazy atoms, `bool`, `()`, tuples, `Option`,
//! `Result`, `Box`, `Vec`, `String`, ranges, and the wrappers `Rc`, `Arc`,
//! `RefCell`, `Wrapping`, `Reverse`) take themselves apart; the others (and
//! fields with a space of their own) say they can not, and callers do
//! without (mutation testing then has no near mutants).

use super::Enumerable;
use crate::grammar::{Grammar, SortId, SortKind, Tree};
use std::rc::Rc;

/// A position being taken apart: the grammar and the position's sort.
/// Passed to `Enumerable::__unbuild` (part of the derive protocol).
#[derive(Clone, Copy, Debug)]
pub struct Unbuild<'g> {
    g: &'g Grammar,
    sort: SortId,
}

/// A field's way of taking itself apart at its position.
pub type UnbuildField<'f, 'g> = &'f mut dyn FnMut(Unbuild<'g>) -> Option<Tree>;

impl<'g> Unbuild<'g> {
    /// The root position of `g`.
    pub(crate) fn root(g: &'g Grammar) -> Unbuild<'g> {
        Unbuild { g, sort: g.root }
    }

    /// The position of sort `sort` of `g`.
    pub(crate) fn at(g: &'g Grammar, sort: SortId) -> Unbuild<'g> {
        Unbuild { g, sort }
    }

    /// Whether this position holds `T`'s canonical space (a field with a
    /// space of its own does not: its tree is not `T`'s).
    pub fn holds<T: Enumerable>(&self) -> bool {
        self.g.sorts[self.sort.index()].origin == Some(T::__position_type())
    }

    /// The node of the alternative declared `tag`-th (from 0) with its
    /// fields, each taken apart at its slot by `fields`, in order. `None`
    /// when the position has no such alternative or a field can not be
    /// taken apart.
    pub fn node(&self, tag: u32, fields: &mut [UnbuildField<'_, 'g>]) -> Option<Tree> {
        let SortKind::Algebraic { decl, .. } = &self.g.sorts[self.sort.index()].kind else {
            return None;
        };
        let prod = *decl.iter().find(|&&p| self.g.prods[p.index()].tag == tag)?;
        let slots = &self.g.prods[prod.index()].slots;
        if slots.len() != fields.len() || self.g.prods[prod.index()].atom.is_some() {
            return None;
        }
        let mut kids = Vec::with_capacity(slots.len());
        for (&sort, field) in slots.iter().zip(fields.iter_mut()) {
            kids.push(Rc::new(field(Unbuild { g: self.g, sort })?));
        }
        Some(Tree::Node(prod, kids))
    }

    /// A list (`Vec`'s cells: the alternatives declared 0, the empty list,
    /// and 1, an element and the rest), built from the last element back,
    /// so a long list takes no stack.
    pub fn list<T: Enumerable>(&self, items: &[T]) -> Option<Tree> {
        let SortKind::Algebraic { decl, .. } = &self.g.sorts[self.sort.index()].kind else {
            return None;
        };
        let with_tag = |tag| {
            decl.iter()
                .copied()
                .find(|&p| self.g.prods[p.index()].tag == tag)
        };
        let (nil, cons) = (with_tag(0)?, with_tag(1)?);
        let slots = &self.g.prods[cons.index()].slots;
        if slots.len() != 2 || slots[1] != self.sort {
            return None;
        }
        let element = Unbuild {
            g: self.g,
            sort: slots[0],
        };
        let mut list = Tree::Node(nil, vec![]);
        for x in items.iter().rev() {
            list = Tree::Node(cons, vec![Rc::new(x.__unbuild(element)?), Rc::new(list)]);
        }
        Some(list)
    }

    /// An integer or character: the value with `key` of the lazy atom
    /// family at this position. `None` for the integers' linear sizes
    /// (leaf families, not taken apart).
    pub(crate) fn atom(&self, key: i128) -> Option<Tree> {
        let family = self.g.atom_family(self.sort)?;
        let (block, bits) = family.find_key(key)?;
        let index = u64::try_from(family.global_index(block, bits)).ok()?;
        Some(self.g.atomic_tree(self.sort, index))
    }
}

/// The tree of `value` in the canonical space of its type, if the type can
/// be taken apart.
pub(crate) fn tree_of<T: Enumerable>(g: &Grammar, value: &T) -> Option<Tree> {
    value.__unbuild(Unbuild::root(g))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::grammar_of;
    use num_bigint::BigUint;
    use num_traits::ToPrimitive;
    use std::fmt::Debug;

    #[derive(crate::Enumerable, Clone, Debug, PartialEq)]
    enum Exp {
        Num(u8),
        Neg(Box<Exp>),
        #[enumerable(skip)]
        Hole(String),
        Add {
            left: Box<Exp>,
            right: Box<Exp>,
        },
    }

    #[derive(crate::Enumerable, Clone, Debug, PartialEq)]
    #[enumerable(transparent)]
    struct Name(String);

    #[derive(crate::Enumerable, Clone, Debug, PartialEq)]
    struct Digit(#[enumerable(with = crate::space::range(0, 9, |d| d as u8))] u8);

    /// Every value of sizes `0..=up_to` taken apart is the tree the
    /// enumeration built it from.
    fn round_trip<T: crate::Enumerable + Debug>(up_to: usize) -> usize {
        let g = grammar_of::<T>();
        let mut checked = 0;
        for size in 0..=up_to {
            let count = g.count(size).to_u64().expect("a small test size");
            for i in 0..count {
                let tree = g.index_tree(g.root, size, &BigUint::from(i));
                let value: T = crate::grammar::downcast(g.build_root(&tree), "a test value");
                assert_eq!(tree_of(&g, &value), Some(tree), "{value:?} (size {size})");
                checked += 1;
            }
        }
        checked
    }

    #[test]
    fn values_taken_apart_give_back_their_trees() {
        assert_eq!(round_trip::<Vec<bool>>(9), 31);
        assert!(round_trip::<Option<(u8, char)>>(9) > 1000);
        assert!(round_trip::<String>(12) > 10);
        assert!(round_trip::<Result<i16, ()>>(12) > 100);
        assert!(round_trip::<(bool, Vec<u32>)>(8) > 10);
        assert!(round_trip::<Exp>(7) > 10);
        assert!(round_trip::<Vec<Name>>(12) > 10);
        assert!(round_trip::<std::rc::Rc<Vec<u8>>>(9) > 10);
        assert!(round_trip::<(std::num::Wrapping<u8>, std::cmp::Reverse<i8>)>(8) > 10);
        assert!(round_trip::<std::ops::Range<u8>>(8) > 10);
        assert!(round_trip::<std::ops::RangeInclusive<bool>>(8) == 4);
        assert!(round_trip::<std::sync::Arc<Option<char>>>(9) > 10);
    }

    /// Edge values: the extremes of each integer width and characters
    /// past the surrogate gap.
    #[test]
    fn extreme_atoms_are_taken_apart() {
        fn check<T: crate::Enumerable + Debug + PartialEq>(value: T) {
            let g = grammar_of::<T>();
            let tree = tree_of(&g, &value).expect("an atom");
            let back: T = crate::grammar::downcast(g.build_root(&tree), "an atom");
            assert_eq!(back, value);
        }
        check(u64::MAX);
        check(i64::MIN);
        check(i64::MAX);
        check(i16::MIN);
        check(u8::MAX);
        check(i8::MIN);
        check('\u{E000}');
        check(char::MAX);
        check(usize::MAX);
    }

    /// What can not be taken apart says so: a skipped variant, a field with
    /// a space of its own, a type without the protocol (floats).
    #[test]
    fn what_has_no_tree_is_none() {
        let g = grammar_of::<Exp>();
        assert_eq!(tree_of(&g, &Exp::Hole("x".into())), None);
        let nested = Exp::Neg(Box::new(Exp::Hole(String::new())));
        assert_eq!(tree_of(&g, &nested), None);
        let g = grammar_of::<Digit>();
        assert_eq!(tree_of(&g, &Digit(3)), None);
        let g = grammar_of::<Vec<f64>>();
        assert_eq!(tree_of(&g, &vec![1.5f64]), None);
        assert!(tree_of(&g, &Vec::<f64>::new()).is_some());
    }

    /// A long list takes no stack: built from its end.
    #[test]
    fn a_long_list_is_taken_apart_without_recursion() {
        let g = grammar_of::<Vec<u8>>();
        let long: Vec<u8> = (0..200_000).map(|i| (i % 251) as u8).collect();
        let tree = tree_of(&g, &long).expect("a list");
        let back: Vec<u8> = crate::grammar::downcast(g.build_root(&tree), "a list");
        assert_eq!(back, long);
    }
}

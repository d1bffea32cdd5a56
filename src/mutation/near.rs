//! Near mutants: replacements that differ from the original output in one
//! place of its tree (Paper IV's point: a mutant should be a small change).
//! The output is taken apart into its tree (`Enumerable::__unbuild`), one
//! position is edited (another alternative there, a neighbouring number or
//! character, one of its own parts lifted in its place, or itself wrapped
//! in a larger part), and the tree is built back into a value.

use crate::grammar::{Grammar, SortId, SortKind, Tree};
use crate::types::{grammar_of, tree_of};
use crate::Enumerable;
use num_bigint::BigUint;
use std::rc::Rc;

/// How a mutant's replacement was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum MutantKind {
    /// A small value of the output type, whatever the original output
    /// (every value up to [`super::MutationConfig::output_size`]).
    Small,
    /// The original output with one position switched to another
    /// alternative (another constructor; fields of the same types kept,
    /// the others at their smallest).
    Alternative,
    /// The original output with one number or character moved to a
    /// neighbouring value (one up or one down in its enumeration).
    Neighbour,
    /// The original output with one part replaced by one of its own parts
    /// of the same type (an element removed, a subtree lifted).
    Shrunk,
    /// The original output with one part wrapped in a larger part of the
    /// same type (an element inserted before it, a node above it).
    Grown,
}

impl MutantKind {
    /// What the kind is, in a report.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            MutantKind::Small => "small values",
            MutantKind::Alternative => "another alternative in one place",
            MutantKind::Neighbour => "a neighbouring number or character",
            MutantKind::Shrunk => "a part removed",
            MutantKind::Grown => "a part added",
        }
    }
}

/// The most positions of one output looked at (in pre-order).
const MAX_POSITIONS: usize = 10_000;

/// One position of the original tree: its node, its parent and which
/// field of the parent it is.
struct Position<'t> {
    tree: &'t Tree,
    parent: Option<(usize, usize)>,
}

/// The mutants near `original` that [`super::score`] uses: up to `max`
/// values, each differing from it in one place of its tree (deduplicated,
/// the original left out), spread over its positions in pre-order; `None`
/// when the type can not be taken apart.
///
/// ```
/// use neatcheck::mutation::{near_mutants, MutantKind};
///
/// let near = near_mutants(&vec![3u8], 100).unwrap();
/// let values: Vec<Vec<u8>> = near.iter().map(|(_, v)| v.clone()).collect();
/// // The number moved, the list cut, an element added or removed.
/// for v in [vec![2u8], vec![4], vec![], vec![3, 0], vec![0, 3]] {
///     assert!(values.contains(&v), "{v:?}");
/// }
/// assert!(near.iter().any(|(k, _)| *k == MutantKind::Neighbour));
/// ```
pub fn near_mutants<B: Enumerable + PartialEq>(
    original: &B,
    max: usize,
) -> Option<Vec<(MutantKind, B)>> {
    let near = near_values(original, max)?;
    Some(near.into_iter().map(|(k, v, _)| (k, v)).collect())
}

/// [`near_mutants`] with each value's size.
pub(crate) fn near_values<B: Enumerable + PartialEq>(
    original: &B,
    max: usize,
) -> Option<Vec<(MutantKind, B, usize)>> {
    let g = grammar_of::<B>();
    let tree = tree_of(&g, original)?;
    let positions = positions(&g, &tree);
    let mut edits: Vec<(usize, MutantKind, Tree)> = vec![];
    for (at, p) in positions.iter().enumerate() {
        for (kind, replacement) in edits_at(&g, p.tree) {
            edits.push((at, kind, replacement));
        }
    }
    // Evenly spread when there are more edits than wanted: every part of
    // the output gets some.
    let chosen: Vec<usize> = if edits.len() <= max {
        (0..edits.len()).collect()
    } else {
        (0..max).map(|i| i * edits.len() / max).collect()
    };
    let mut out: Vec<(MutantKind, B, usize)> = vec![];
    for i in chosen {
        let (at, kind, replacement) = &edits[i];
        let mutated = replaced(&positions, *at, replacement.clone());
        let value: B = crate::grammar::downcast(g.build_root(&mutated), "a near mutant");
        if value != *original && !out.iter().any(|(_, v, _)| *v == value) {
            out.push((*kind, value, g.tree_size(&mutated) as usize));
        }
    }
    Some(out)
}

/// The positions of `tree` in pre-order (at most [`MAX_POSITIONS`]); a
/// number's or character's bits are one position, the atom.
fn positions<'t>(g: &Grammar, tree: &'t Tree) -> Vec<Position<'t>> {
    let mut out = vec![];
    let mut stack: Vec<(&Tree, Option<(usize, usize)>)> = vec![(tree, None)];
    while let Some((t, parent)) = stack.pop() {
        if out.len() >= MAX_POSITIONS {
            break;
        }
        let at = out.len();
        out.push(Position { tree: t, parent });
        if g.atomic_index(t).is_some() {
            continue;
        }
        if let Tree::Node(_, kids) = t {
            for (i, k) in kids.iter().enumerate().rev() {
                stack.push((k, Some((at, i))));
            }
        }
    }
    out
}

/// The sort of a subtree.
fn sort_of(g: &Grammar, t: &Tree) -> SortId {
    match t {
        Tree::Node(prod, _) => g.prods[prod.index()].sort,
        Tree::Leaf(sort, _) => *sort,
    }
}

/// The smallest tree of a sort.
fn smallest(g: &Grammar, sort: SortId) -> Tree {
    let size = g.sorts[sort.index()].min_size as usize;
    g.index_tree(sort, size, &BigUint::default())
}

/// The one-place edits of the subtree `t`.
fn edits_at(g: &Grammar, t: &Tree) -> Vec<(MutantKind, Tree)> {
    let mut out = vec![];
    if let Some((sort, index)) = g.atomic_index(t) {
        let total = g.atomic_family(sort).and_then(|f| f.total());
        if let Some(down) = index.checked_sub(1) {
            out.push((MutantKind::Neighbour, g.atomic_tree(sort, down)));
        }
        let up = index + 1;
        if total.is_none_or(|n| BigUint::from(up) < n) {
            out.push((MutantKind::Neighbour, g.atomic_tree(sort, up)));
        }
        return out;
    }
    let Tree::Node(prod, kids) = t else {
        return out;
    };
    let sort = g.prods[prod.index()].sort;
    let SortKind::Algebraic { decl, .. } = &g.sorts[sort.index()].kind else {
        return out;
    };
    for &other in decl.iter().filter(|&&q| q != *prod) {
        // Fields of the same sorts are kept, in order; the rest smallest.
        let mut unused: Vec<&Rc<Tree>> = kids.iter().collect();
        let fields = g.prods[other.index()]
            .slots
            .iter()
            .map(
                |&slot| match unused.iter().position(|k| sort_of(g, k) == slot) {
                    Some(i) => unused.remove(i).clone(),
                    None => Rc::new(smallest(g, slot)),
                },
            )
            .collect();
        out.push((MutantKind::Alternative, Tree::Node(other, fields)));
    }
    for k in kids.iter().filter(|k| sort_of(g, k) == sort) {
        out.push((MutantKind::Shrunk, (**k).clone()));
    }
    for &wrapper in decl {
        let slots = &g.prods[wrapper.index()].slots;
        if let Some(j) = slots.iter().position(|&s| s == sort) {
            let fields = slots
                .iter()
                .enumerate()
                .map(|(i, &slot)| {
                    if i == j {
                        Rc::new(t.clone())
                    } else {
                        Rc::new(smallest(g, slot))
                    }
                })
                .collect();
            out.push((MutantKind::Grown, Tree::Node(wrapper, fields)));
        }
    }
    out
}

/// The original tree with position `at` replaced, rebuilt along the path
/// from the root (iteratively: a long list's path is long).
fn replaced(positions: &[Position<'_>], at: usize, replacement: Tree) -> Tree {
    let mut tree = replacement;
    let mut here = at;
    while let Some((parent, field)) = positions[here].parent {
        let Tree::Node(prod, kids) = positions[parent].tree else {
            unreachable!("a parent is a node")
        };
        let mut kids = kids.clone();
        kids[field] = Rc::new(tree);
        tree = Tree::Node(*prod, kids);
        here = parent;
    }
    tree
}

#[cfg(test)]
mod tests {
    use super::*;

    fn near<B: Enumerable + PartialEq + Clone>(v: &B) -> Vec<(MutantKind, B)> {
        near_values(v, usize::MAX)
            .expect("taken apart")
            .into_iter()
            .map(|(k, v, _)| (k, v))
            .collect()
    }

    #[test]
    fn near_values_of_a_list_of_numbers() {
        let original = vec![3u8, 7];
        let mutants = near(&original);
        let values: Vec<&Vec<u8>> = mutants.iter().map(|(_, v)| v).collect();
        // Each number one up or down.
        for expected in [vec![2u8, 7], vec![4, 7], vec![3, 6], vec![3, 8]] {
            assert!(values.contains(&&expected), "{expected:?} in {values:?}");
        }
        // An element removed, one inserted (smallest), the list cut short.
        for expected in [vec![7u8], vec![3], vec![0, 3, 7], vec![3, 0, 7], vec![]] {
            assert!(values.contains(&&expected), "{expected:?} in {values:?}");
        }
        assert!(!values.contains(&&original));
        let kinds: std::collections::BTreeSet<MutantKind> =
            mutants.iter().map(|(k, _)| *k).collect();
        assert_eq!(kinds.len(), 4, "{kinds:?}");
    }

    #[test]
    fn near_strings_differ_in_one_character_or_length() {
        let original = String::from("1.0 KiB");
        let mutants = near(&original);
        assert!(mutants.iter().any(|(_, s)| s == "1.0 KiC"));
        assert!(mutants.iter().any(|(_, s)| s == "1.0 Ki"));
        // A cell switched to the end of the list cuts it short; every
        // other edit changes its length by at most one.
        for (kind, s) in &mutants {
            let (a, b) = (s.chars().count(), original.chars().count());
            let cut = *kind == MutantKind::Alternative && original.starts_with(s.as_str());
            assert!(cut || a.abs_diff(b) <= 1, "{kind:?} {s:?}");
        }
    }

    #[test]
    fn a_cap_spreads_the_mutants_over_the_output() {
        let original: Vec<u8> = (0..40).collect();
        let few: Vec<(MutantKind, Vec<u8>)> = near_values(&original, 12)
            .unwrap()
            .into_iter()
            .map(|(k, v, _)| (k, v))
            .collect();
        assert!(few.len() <= 12 && few.len() >= 10);
        // Not only the first elements: some mutant changes the last one.
        let changes_the_end = |v: &Vec<u8>| v.len() == 40 && v[30..] != original[30..];
        assert!(few.iter().any(|(_, v)| changes_the_end(v)), "{few:?}");
    }

    #[test]
    fn floats_have_no_near_values() {
        assert!(near_values(&1.5f64, 8).is_none());
    }
}

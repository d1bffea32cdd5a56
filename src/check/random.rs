//! The random phase of a check: uniform values of growing sizes (FEAT
//! sampling), to get past the sizes the exhaustive phase can reach. A third
//! of the cases have their atoms (numbers, characters) moved to edge values,
//! and a third to values drawn uniformly from the atom's whole type: sampling
//! by size makes small atoms far likelier than large ones (`0` has size 0,
//! `'a'` size 7), so without these a bug at `u64::MAX` or one that needs the
//! letters "ab" would stay out of reach.
//!
//! A case whose precondition is false (`implies`) removes from later draws
//! of its size every input that agrees with it on the positions it read
//! (`constrained::pruned`, Paper III's sampler), and is drawn again: cases
//! are then uniform among the inputs of their size that meet the
//! precondition, found after far fewer draws than by rejection.

use crate::arena::{build, Opened, Unfold};
use crate::constrained::count::Count;
use crate::constrained::pruned::Pruned;
use crate::grammar::{Grammar, ProdId, SortId, SortKind, Tree};
use crate::index::{sample_tree_in, uniform_below, SeedRng};
use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use rand::RngExt;
use std::collections::{BTreeMap, HashMap};
use std::marker::PhantomData;
use std::rc::Rc;

/// How a case's atoms are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Atoms {
    /// As sampled: uniform by size.
    BySize,
    /// Each moved, with probability one half, to an edge value.
    Edges,
    /// Each moved, with probability one half, to a uniform value of its
    /// whole type.
    Uniform,
}

/// Draws the random cases of a check, in a fixed order for a given seed.
pub(crate) struct RandomCases<'g> {
    grammar: &'g Rc<Grammar>,
    rng: SeedRng,
    first_size: usize,
    last_size: usize,
    cases: u64,
    drawn: u64,
    edges: HashMap<SortId, Rc<Vec<u64>>>,
    /// The largest size whose leaves all have 64-bit global indices (a
    /// `Tree` holds no other): sets and maps of `u8` pass 2^64 values near
    /// size 80.
    leaf_cap: usize,
    /// Per size, the inputs no discarded case has ruled out (made at the
    /// first discarded case of the size).
    pruned: BTreeMap<usize, Pruned>,
}

/// A random case.
pub(crate) struct Case {
    pub tree: Tree,
    /// The size it was drawn at (edge values may change its size).
    pub drawn_at: usize,
    pub atoms: Atoms,
}

impl<'g> RandomCases<'g> {
    /// `cases` cases of sizes growing from `first_size` to `last_size`.
    pub(crate) fn new(
        grammar: &'g Rc<Grammar>,
        seed: u64,
        first_size: usize,
        last_size: usize,
        cases: u64,
    ) -> Self {
        RandomCases {
            grammar,
            rng: crate::index::seeded_rng(seed),
            first_size,
            last_size: last_size.max(first_size),
            cases,
            drawn: 0,
            edges: HashMap::new(),
            leaf_cap: leaf_index_cap(grammar, last_size),
            pruned: BTreeMap::new(),
        }
    }

    /// How many cases the phase draws (redraws not counted).
    pub(crate) fn cases(&self) -> u64 {
        self.cases
    }

    /// The next case, or `None` when all were drawn or no size in the range
    /// has values.
    pub(crate) fn next_case(&mut self) -> Option<Case> {
        while self.drawn < self.cases {
            let i = self.drawn;
            self.drawn += 1;
            // Sizes grow linearly over the cases, so small inputs come first
            // and the largest ones are still reached.
            // In 128 bits: any span of sizes times any number of cases.
            let span = (self.last_size - self.first_size) as u128;
            let steps = u128::from((self.cases - 1).max(1));
            let target = self.first_size + ((span * u128::from(i)) / steps) as usize;
            let Some((tree, drawn_at)) = self.sample_near(target) else {
                continue;
            };
            let atoms = match (has_leaves(&tree), self.rng.random_range(0..3u8)) {
                (true, 1) => Atoms::Edges,
                (true, 2) => Atoms::Uniform,
                _ => Atoms::BySize,
            };
            return Some(self.with_atoms(tree, drawn_at, atoms));
        }
        None
    }

    /// Another case in place of `case`, whose precondition was false: of
    /// its size (or the nearest one with inputs left), with the same kind
    /// of atoms.
    pub(crate) fn redraw(&mut self, case: &Case) -> Option<Case> {
        let (tree, drawn_at) = self.sample_near(case.drawn_at)?;
        Some(self.with_atoms(tree, drawn_at, case.atoms))
    }

    /// Rules out, for later draws, the class of a case whose precondition
    /// was false: every input of its size that agrees with it on the
    /// positions it read (`reads`, in the order read). False when nothing
    /// was ruled out (the case's size is outside the phase's, or the
    /// property read the same input prefix differently before).
    pub(crate) fn discard(&mut self, tree: &Tree, reads: &[u32]) -> bool {
        let size = self.grammar.tree_size(tree) as usize;
        if !(self.first_size..=self.last_size.min(self.leaf_cap)).contains(&size) {
            return false;
        }
        let g = self.grammar;
        let pruned = self
            .pruned
            .entry(size)
            .or_insert_with(|| Pruned::new(g.clone(), size));
        pruned.record(tree, reads, false).is_ok()
    }

    fn with_atoms(&mut self, tree: Tree, drawn_at: usize, atoms: Atoms) -> Case {
        let tree = match atoms {
            Atoms::BySize => tree,
            _ => self.with_moved_atoms(&tree, atoms),
        };
        Case {
            tree,
            drawn_at,
            atoms,
        }
    }

    /// A uniform value of size `target`, or of the nearest size in the
    /// range that has values (some types have none at some sizes: lists of
    /// `bool` only have odd sizes).
    fn sample_near(&mut self, target: usize) -> Option<(Tree, usize)> {
        let (first, last) = (self.first_size, self.last_size.min(self.leaf_cap));
        let near = (0..=8).flat_map(|d| [target.checked_add(d), target.checked_sub(d)]);
        let size = near
            .flatten()
            .filter(|s| (first..=last).contains(s))
            .find(|&s| match self.pruned.get(&s) {
                Some(p) => !p.alive().is_zero(),
                None => !self.grammar.count(s).is_zero(),
            })?;
        match self.pruned.get_mut(&size) {
            // Uniform among the inputs left (the first draw of an untouched
            // size is FEAT's, draw for draw).
            Some(p) if !p.untouched() => {
                let index = uniform_below(&p.alive().to_big(), &mut self.rng);
                Some((p.value_at(Count::from_big(index)).tree, size))
            }
            _ => sample_tree_in(self.grammar, size, &mut self.rng).map(|t| (t, size)),
        }
    }

    /// The tree with each leaf moved, with probability one half, to one of
    /// its family's edge values or to a uniform value of the family.
    fn with_moved_atoms(&mut self, tree: &Tree, atoms: Atoms) -> Tree {
        let root = build(
            &mut MovedAtoms {
                sampler: self,
                atoms,
                tree: PhantomData,
            },
            tree,
        );
        Rc::try_unwrap(root).unwrap_or_else(|t| (*t).clone())
    }

    /// A leaf's index, moved with probability one half (see
    /// `with_moved_atoms`).
    fn moved_index(&mut self, sort: SortId, index: u64, atoms: Atoms) -> u64 {
        if self.rng.random_range(0..2) != 0 {
            return index;
        }
        let edges = self.edges_of(sort);
        if atoms == Atoms::Uniform {
            // The last edge is the largest index below 2^64.
            edges
                .last()
                .map_or(index, |&last| self.rng.random_range(0..=last))
        } else if edges.is_empty() {
            index
        } else {
            edges[self.rng.random_range(0..edges.len())]
        }
    }

    fn edges_of(&mut self, sort: SortId) -> Rc<Vec<u64>> {
        let g = self.grammar;
        self.edges
            .entry(sort)
            .or_insert_with(|| Rc::new(edge_indices(g, sort)))
            .clone()
    }
}

fn has_leaves(tree: &Tree) -> bool {
    let mut stack = vec![tree];
    while let Some(t) = stack.pop() {
        match t {
            Tree::Leaf(..) => return true,
            Tree::Node(_, kids) => stack.extend(kids.iter().map(|k| &**k)),
        }
    }
    false
}

/// The edge values of a leaf family, as global indices: for every size,
/// its first and last values and the two in its middle, with their
/// neighbours. A family lists its values by size, so for the integers
/// these are 0, ±1, the powers of two and their neighbours, and MIN and
/// MAX of every width (signed sizes hold the positives, then the
/// negatives); for `char`, the first and last code of each bit length.
pub(crate) fn edge_indices(g: &Grammar, sort: SortId) -> Vec<u64> {
    let SortKind::Leaf { family, .. } = &g.sorts[sort.index()].kind else {
        return vec![];
    };
    let last = family.last_size().unwrap_or(128).min(130);
    let mut start = BigUint::zero();
    let mut out = vec![];
    for size in 0..=last {
        let count = family.count(size);
        if count.is_zero() {
            continue;
        }
        let half = &count >> 1u32;
        let one = BigUint::from(1u32);
        let mut offsets = vec![BigUint::zero(), one.clone(), &count - &one, half.clone()];
        if half > BigUint::zero() {
            offsets.push(&half - &one);
        }
        if count > one {
            offsets.push(&count - 2u32);
        }
        for off in offsets {
            if off < count {
                match (&start + off).to_u64() {
                    Some(i) => out.push(i),
                    None => return finish(out),
                }
            }
        }
        start += count;
    }
    finish(out)
}

/// The largest size up to `last` at which every leaf family of the grammar
/// still has all its values (of that size and below) at 64-bit indices.
fn leaf_index_cap(g: &Grammar, last: usize) -> usize {
    let limit = BigUint::from(u64::MAX) + 1u32;
    let mut cap = last;
    for sort in &g.sorts {
        let SortKind::Leaf { family, .. } = &sort.kind else {
            continue;
        };
        let mut total = BigUint::zero();
        for size in 0..=cap.min(family.last_size().unwrap_or(usize::MAX)) {
            total += family.count(size);
            if total > limit {
                cap = size.saturating_sub(1);
                break;
            }
        }
    }
    cap
}

fn finish(mut v: Vec<u64>) -> Vec<u64> {
    v.sort_unstable();
    v.dedup();
    v
}

/// A tree copied bottom-up with its leaves moved (the random phase's edge
/// and uniform atoms); iterative, like every walker of a tree.
struct MovedAtoms<'s, 'g, 't> {
    sampler: &'s mut RandomCases<'g>,
    atoms: Atoms,
    tree: PhantomData<&'t Tree>,
}

impl<'t> Unfold for MovedAtoms<'_, '_, 't> {
    type Pos = &'t Tree;
    type Label = ProdId;
    type Out = Rc<Tree>;

    fn open(
        &mut self,
        tree: &'t Tree,
        fields: &mut Vec<&'t Tree>,
    ) -> Option<Opened<ProdId, Rc<Tree>>> {
        Some(match tree {
            Tree::Leaf(sort, index) => {
                let index = self.sampler.moved_index(*sort, *index, self.atoms);
                Opened::Done(Rc::new(Tree::Leaf(*sort, index)))
            }
            Tree::Node(prod, kids) => {
                fields.extend(kids.iter().map(|k| &**k));
                Opened::Node(*prod)
            }
        })
    }

    fn close(&mut self, prod: ProdId, fields: Vec<Rc<Tree>>) -> Rc<Tree> {
        Rc::new(Tree::Node(prod, fields))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::grammar_of;

    fn edge_values<T: crate::Enumerable + Clone>() -> Vec<T> {
        let g = grammar_of::<T>();
        let sort = g.root;
        edge_indices(&g, sort)
            .into_iter()
            .map(|i| crate::grammar::downcast::<T>(g.build_root(&Tree::Leaf(sort, i)), "test"))
            .collect()
    }

    #[test]
    fn unsigned_edges_are_powers_of_two_their_neighbours_and_max() {
        let e = edge_values::<u64>();
        for v in [
            0,
            1,
            2,
            3,
            1 << 40,
            (1 << 40) - 1,
            (1 << 40) + 1,
            u64::MAX,
            u64::MAX - 1,
        ] {
            assert!(e.contains(&v), "{v} missing");
        }
        let e = edge_values::<u32>();
        assert!(e.contains(&u32::MAX) && e.contains(&(1 << 31)));
        assert!(edge_values::<u8>().contains(&255));
    }

    #[test]
    fn signed_edges_include_min_max_and_minus_one() {
        for v in [i64::MIN, i64::MAX, -1, 0, 1, -(1 << 40), 1 << 40] {
            assert!(edge_values::<i64>().contains(&v), "{v} missing");
        }
        for v in [i8::MIN, i8::MAX, -1, 0, 1] {
            assert!(edge_values::<i8>().contains(&v), "{v} missing");
        }
    }

    #[test]
    fn random_cases_are_the_same_for_the_same_seed_and_grow() {
        let g = grammar_of::<Vec<u16>>();
        let draw = |seed| {
            let mut r = RandomCases::new(&g, seed, 5, 60, 50);
            std::iter::from_fn(|| r.next_case())
                .map(|c| (c.tree, c.drawn_at, c.atoms))
                .collect::<Vec<_>>()
        };
        let a = draw(1);
        assert_eq!(a.len(), 50);
        assert_eq!(a, draw(1));
        assert_ne!(a, draw(2));
        assert!(a.first().unwrap().1 < 10 && a.last().unwrap().1 >= 55);
        for atoms in [Atoms::BySize, Atoms::Edges, Atoms::Uniform] {
            assert!(a.iter().any(|c| c.2 == atoms), "no case with {atoms:?}");
        }
    }
}

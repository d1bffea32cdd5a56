//! Edge values and the edge sweep: a check's deterministic pass over its
//! smallest inputs with their atoms (numbers, characters, floats) set to
//! edge values, before the exhaustive phase.
//!
//! Random cases meet a bug that needs one exact value (a table wrong at
//! `2^42`, a parser that rejects `i64::MIN`) only by luck: among a family's
//! few hundred edge values, a few dozen cases hit the right one a few
//! percent of the time. The sweep takes the smallest inputs that hold
//! atoms (their skeletons: every atom minimal) and tries, atom by atom,
//! every edge value of the atom's family, then, pair of atoms by pair, the
//! few values that end or start a family (0, ±1, `MIN`, `MAX`, NaN, ±∞), so
//! such bugs are found in a few hundred runs whatever the seed.

use crate::feat::walk::{walk_counted, TreeSink};
use crate::feat::{CountMode, Counts};
use crate::grammar::{Grammar, SortId, Tree};
use crate::word_hash::WordHash;
use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// The edge values of a leaf family, as global indices: for every size,
/// its first and last values and the two in its middle, with their
/// neighbours. A family lists its values by size, so for the integers
/// these are 0, ±1, the powers of two and their neighbours, and MIN and
/// MAX of every width (signed sizes hold the positives, then the
/// negatives); for `char`, the first and last code of each bit length.
///
/// Computed once per grammar and thread: the sweep and the random phase
/// both move atoms to them.
pub(crate) fn edge_indices(g: &Grammar, sort: SortId) -> Rc<Vec<u64>> {
    /// Per grammar (its id) and leaf sort.
    type EdgeCache = HashMap<(u64, SortId), Rc<Vec<u64>>, WordHash>;
    thread_local! {
        static EDGES: std::cell::RefCell<EdgeCache> = std::cell::RefCell::new(EdgeCache::default());
    }
    let key = (g.id, sort);
    if let Some(e) = EDGES.with(|e| e.borrow().get(&key).cloned()) {
        return e;
    }
    let e = Rc::new(compute_edge_indices(g, sort));
    EDGES.with(|edges| edges.borrow_mut().insert(key, e.clone()));
    e
}

fn compute_edge_indices(g: &Grammar, sort: SortId) -> Vec<u64> {
    let Some(family) = g.atomic_family(sort) else {
        return vec![];
    };
    let last = family.last_size().unwrap_or(128).min(130);
    // In 128 bits: an index past 64 bits ends the list, and every count
    // before it is below 2^64.
    let mut start = 0u128;
    let mut out = vec![];
    for size in 0..=last {
        let Some(count) = family.count(size).to_u128() else {
            break;
        };
        if count == 0 {
            continue;
        }
        let half = count >> 1;
        let mut offsets = vec![0, 1, count - 1, half];
        if half > 0 {
            offsets.push(half - 1);
        }
        if count > 1 {
            offsets.push(count - 2);
        }
        for off in offsets {
            if off < count {
                match start.checked_add(off).and_then(|i| u64::try_from(i).ok()) {
                    Some(i) => out.push(i),
                    None => return sorted(out),
                }
            }
        }
        start = start.saturating_add(count);
    }
    sorted(out)
}

fn sorted(mut v: Vec<u64>) -> Vec<u64> {
    v.sort_unstable();
    v.dedup();
    v
}

/// How many of the smallest inputs with atoms the sweep starts from.
const BASES: usize = 3;
/// How many sizes past the smallest the sweep looks through for them.
const BASE_SIZES: usize = 24;
/// A family's first values that pairs of atoms take (the special floats,
/// 0, ±1, 2, ...), besides its last edge values.
const PAIR_FIRST: usize = 12;
/// A family's last edge values that pairs of atoms take: those of its
/// widest sizes, which hold MAX and MAX - 1 of an unsigned integer, and
/// MIN (alone at its size) with the previous size's MAX, MIN + 1 and
/// neighbours of a signed one.
const PAIR_LAST: usize = 7;

/// The sweep's inputs, in the order they run: for each base, each atom at
/// its family's first and last values; then each pair of atoms at each
/// pair of those; then each atom at each of its family's edge values. At
/// most `budget` inputs, each once.
///
/// An input is kept as the base it changes and the one or two leaves it
/// sets, not as a tree: a searcher loads each base once and runs each of
/// its inputs by setting those leaves ([`crate::engine::Searcher`]'s
/// loaded values), so an input costs about what an exhaustive run does.
pub(crate) fn sweep(g: &Grammar, budget: u64) -> SweepPlan {
    let budget = usize::try_from(budget).unwrap_or(usize::MAX);
    let mut plan = SweepPlan {
        bases: vec![],
        inputs: vec![],
    };
    if budget == 0 || !g.is_inhabited() {
        return plan;
    }
    plan.bases = bases(g);
    let edges_of = |sort: SortId| edge_indices(g, sort);
    let mut out = Sweep {
        inputs: vec![],
        seen: HashSet::default(),
        budget,
    };
    // First each atom at the values that end or start its family, then
    // pairs of atoms at those (two `MAX`s overflow a sum), then each atom
    // at every edge value of its family (`2^42`): a budget too small for
    // all of them keeps the likeliest.
    let bases = &plan.bases;
    'passes: {
        for (b, base) in bases.iter().enumerate() {
            for (leaf, &(_, sort, _)) in base.leaves.iter().enumerate() {
                for &e in &pair_values(&edges_of(sort)) {
                    if !out.push(base.input(b, &[(leaf, e)])) {
                        break 'passes;
                    }
                }
            }
        }
        for (b, base) in bases.iter().enumerate() {
            for (i, &(_, ps, _)) in base.leaves.iter().enumerate() {
                for (j, &(_, qs, _)) in base.leaves.iter().enumerate().skip(i + 1) {
                    let (xs, ys) = (pair_values(&edges_of(ps)), pair_values(&edges_of(qs)));
                    for &x in &xs {
                        for &y in &ys {
                            if !out.push(base.input(b, &[(i, x), (j, y)])) {
                                break 'passes;
                            }
                        }
                    }
                }
            }
        }
        for (b, base) in bases.iter().enumerate() {
            for (leaf, &(_, sort, _)) in base.leaves.iter().enumerate() {
                for &e in edges_of(sort).iter() {
                    if !out.push(base.input(b, &[(leaf, e)])) {
                        break 'passes;
                    }
                }
            }
        }
    }
    plan.inputs = out.inputs;
    plan
}

/// The edge sweep's inputs (see [`sweep`]).
#[derive(Debug)]
pub(crate) struct SweepPlan {
    bases: Vec<Base>,
    inputs: Vec<SweepInput>,
}

/// One of the smallest skeletons that hold atoms, which the sweep's inputs
/// change a leaf or two of.
#[derive(Debug)]
struct Base {
    tree: Tree,
    /// Its leaves breadth first (the order [`crate::engine::Searcher::load`]
    /// lays them out in): path, sort and index.
    leaves: Vec<(Path, SortId, u64)>,
}

/// An input of the sweep: a base with up to two of its leaves (by their
/// breadth-first number) set to other values, those that change nothing
/// left out, in the order of their leaves. Equal inputs are equal trees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct SweepInput {
    pub(crate) base: usize,
    leaves: [Option<(usize, u64)>; 2],
}

impl SweepInput {
    /// The leaves it sets: breadth-first number, sort and index.
    pub(crate) fn leaves<'p>(
        &'p self,
        plan: &'p SweepPlan,
    ) -> impl Iterator<Item = (usize, SortId, u64)> + 'p {
        let base = &plan.bases[self.base];
        self.leaves
            .iter()
            .flatten()
            .map(|&(leaf, index)| (leaf, base.leaves[leaf].1, index))
    }
}

impl Base {
    /// The input that sets the given leaves (at most two) to the given
    /// indices.
    fn input(&self, base: usize, set: &[(usize, u64)]) -> SweepInput {
        let mut leaves = [None; 2];
        let changed = set.iter().filter(|&&(leaf, i)| self.leaves[leaf].2 != i);
        for (slot, &change) in leaves.iter_mut().zip(changed) {
            *slot = Some(change);
        }
        SweepInput { base, leaves }
    }
}

impl SweepPlan {
    /// The inputs, in the order they run.
    pub(crate) fn inputs(&self) -> &[SweepInput] {
        &self.inputs
    }

    /// The base an input changes.
    pub(crate) fn base(&self, input: &SweepInput) -> &Tree {
        &self.bases[input.base].tree
    }

    /// The input as a tree (for a report, or a caller that runs trees).
    pub(crate) fn tree(&self, grammar: &Grammar, input: &SweepInput) -> Tree {
        let base = &self.bases[input.base];
        let set: Vec<(&Path, SortId, u64)> = input
            .leaves(self)
            .map(|(leaf, sort, index)| (&base.leaves[leaf].0, sort, index))
            .collect();
        with_leaves(grammar, &base.tree, &set)
    }

    /// Every input as a tree, in order.
    pub(crate) fn trees(&self, grammar: &Grammar) -> Vec<Tree> {
        self.inputs.iter().map(|i| self.tree(grammar, i)).collect()
    }
}

/// The sweep's inputs so far, each once, up to its budget.
struct Sweep {
    inputs: Vec<SweepInput>,
    seen: HashSet<SweepInput, WordHash>,
    budget: usize,
}

impl Sweep {
    /// Adds an input not seen before; false once the budget is spent.
    fn push(&mut self, input: SweepInput) -> bool {
        if self.inputs.len() >= self.budget {
            return false;
        }
        if self.seen.insert(input) {
            self.inputs.push(input);
        }
        self.inputs.len() < self.budget
    }
}

/// The values a pair of atoms takes: the family's first values and its
/// last edge values.
fn pair_values(edges: &[u64]) -> Vec<u64> {
    let first = edges.iter().take(PAIR_FIRST);
    let last = edges.iter().rev().take(PAIR_LAST);
    sorted(first.chain(last).copied().collect())
}

/// A path from the root: the field taken at each node.
type Path = Vec<usize>;

/// The smallest skeletons (inputs whose atoms are all minimal) that hold
/// atoms, one per size from the smallest, with their atoms' paths and
/// sorts in breadth-first order.
fn bases(g: &Grammar) -> Vec<Base> {
    let Some(min) = g.min_size() else {
        return vec![];
    };
    let min = min as usize;
    let mut out = vec![];
    let mut counts = Counts::counting(g, CountMode::Skeletons);
    for size in min..=min + BASE_SIZES {
        if out.len() == BASES {
            break;
        }
        if counts.sort_count(g.root, size).is_zero() {
            continue;
        }
        let tree = walk_counted(counts, g.root, size, BigUint::zero(), &mut TreeSink);
        counts = Counts::counting(g, CountMode::Skeletons);
        let tree = Rc::try_unwrap(tree).unwrap_or_else(|t| (*t).clone());
        let leaves = leaves_of(g, &tree);
        if !leaves.is_empty() {
            out.push(Base { tree, leaves });
        }
    }
    out
}

/// The paths, sorts and indices of a tree's atoms (leaves and lazy atoms),
/// breadth first.
fn leaves_of(g: &Grammar, tree: &Tree) -> Vec<(Path, SortId, u64)> {
    let mut out = vec![];
    let mut queue = std::collections::VecDeque::from([(tree, vec![])]);
    while let Some((t, path)) = queue.pop_front() {
        if let Some((sort, index)) = g.atomic_index(t) {
            out.push((path, sort, index));
            continue;
        }
        match t {
            Tree::Leaf(..) => unreachable!("a leaf is atomic"),
            Tree::Node(_, kids) => {
                for (i, k) in kids.iter().enumerate() {
                    let mut p = path.clone();
                    p.push(i);
                    queue.push_back((&**k, p));
                }
            }
        }
    }
    out
}

/// `tree` with the leaves at the given paths set to the given indices
/// (paths share no prefix beyond their nodes, so each copy is a path copy).
fn with_leaves(g: &Grammar, tree: &Tree, leaves: &[(&Path, SortId, u64)]) -> Tree {
    let mut out = tree.clone();
    for &(path, sort, index) in leaves {
        out = replaced(&out, path, g.atomic_tree(sort, index));
    }
    out
}

/// `tree` with the subtree at `path` replaced (the path's nodes copied, the
/// rest shared).
fn replaced(tree: &Tree, path: &[usize], new: Tree) -> Tree {
    // Iterative: the nodes on the path, then rebuilt from the bottom.
    let mut nodes: Vec<&Tree> = vec![tree];
    for &i in path {
        match nodes.last().expect("a node") {
            Tree::Node(_, kids) => nodes.push(&kids[i]),
            Tree::Leaf(..) => unreachable!("a path through a leaf"),
        }
    }
    let mut built = new;
    for (depth, node) in nodes.iter().enumerate().rev().skip(1) {
        let Tree::Node(prod, kids) = node else {
            unreachable!("a path goes through nodes")
        };
        let mut kids = kids.clone();
        kids[path[depth]] = Rc::new(built);
        built = Tree::Node(*prod, kids);
    }
    built
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::grammar_of;

    fn edge_values<T: crate::Enumerable + Clone>() -> Vec<T> {
        let g = grammar_of::<T>();
        let sort = g.root;
        edge_indices(&g, sort)
            .iter()
            .map(|i| crate::grammar::downcast::<T>(g.build_root(&g.atomic_tree(sort, *i)), "test"))
            .collect()
    }

    fn swept<T: crate::Enumerable>(budget: u64) -> Vec<T> {
        let g = grammar_of::<T>();
        sweep(&g, budget)
            .trees(&g)
            .iter()
            .map(|t| crate::grammar::downcast::<T>(g.build_root(t), "test"))
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
    fn a_single_atom_takes_every_edge_value_once() {
        let all = swept::<u64>(10_000);
        let mut sorted = all.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, edge_values::<u64>());
        // A budget takes the first ones: the ends of the family first.
        assert_eq!(swept::<u64>(10), all[..10]);
        let first = &all[..PAIR_FIRST + PAIR_LAST];
        assert!(first.contains(&0) && first.contains(&u64::MAX) && !first.contains(&(1 << 42)));
    }

    #[test]
    fn atoms_of_the_smallest_inputs_take_edges_alone_then_in_pairs() {
        let all = swept::<(i64, i64)>(100_000);
        for v in [
            (i64::MIN, 0),
            (0, i64::MIN),
            (1 << 42, 0),
            (i64::MAX, i64::MAX),
        ] {
            assert!(all.contains(&v), "{v:?} missing");
        }
        let mut unique = all.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), all.len(), "each input once");
        // The special floats in pairs: the largest finite doubled.
        let floats = swept::<(f64, f64)>(100_000);
        assert!(floats.iter().any(|&(a, b)| a == f64::MAX && b == f64::MAX));
        // Lists: the smallest ones that hold an element.
        let lists = swept::<Vec<u16>>(100_000);
        assert!(lists.contains(&vec![u16::MAX]));
        assert!(lists.contains(&vec![0, u16::MAX]));
        assert!(lists.iter().all(|l| (1..=3).contains(&l.len())));
    }

    #[test]
    fn types_without_atoms_have_no_sweep() {
        assert!(swept::<Vec<bool>>(1000).is_empty());
        assert!(swept::<()>(1000).is_empty());
    }
}

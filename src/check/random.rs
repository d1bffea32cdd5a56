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

use super::edges::edge_indices;
use crate::constrained::count::Count;
use crate::constrained::pruned::Pruned;
use crate::feat::walk::{walk_counted, TreeSink};
use crate::feat::{CountMode, Counts};
use crate::grammar::{Grammar, SortId, SortKind, Tree};
use crate::index::{sample_tree_counted, uniform_below, SeedRng};
use num_bigint::BigUint;
use num_traits::Zero;
use rand::RngExt;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

/// How a case is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Atoms {
    /// As sampled: uniform by size.
    BySize,
    /// Each moved, with probability one half, to an edge value.
    Edges,
    /// Each moved, with probability one half, to a uniform value of its
    /// whole type.
    Uniform,
    /// A long value: a uniform *skeleton* (a value whose atoms are all
    /// minimal, so the whole size goes to its structure: a list of 300
    /// elements at size 300) at sizes up to the phase's long size (the
    /// configured largest random size, at most [`LONG_SIZE`]), its atoms then
    /// mostly small values, some edge values and some uniform ones. By size
    /// alone a list's elements take most of the size (at size 200 a
    /// `Vec<u8>` has about 40 elements), so bugs that need long
    /// collections (a count written in a byte) stay out of reach.
    Long,
}

/// The largest size of a long case (its structure, before its atoms take
/// their values) unless the phase sets another (the configured largest
/// random size), when counting its skeletons is cheap enough (see
/// [`LONG_WORK`]).
pub(crate) const LONG_SIZE: usize = 1000;

/// The most products of counts that finding a grammar's skeleton counts may
/// take: lists need a few per size, so they reach [`LONG_SIZE`]; binary
/// trees need one per size and smaller size, so they stop near size 200,
/// where counting the next sizes would cost more than the cases. Counted
/// in products, not time, so the sizes reached are the same everywhere.
const LONG_WORK: u64 = 20_000;

/// Tries at a long case outside the classes ruled out, before the case is
/// drawn uniformly instead.
const LONG_TRIES: u32 = 4;

/// How many of a family's first values are its small ones (a long case's
/// usual atoms): `0..=15` for `u8`, the first sixteen `char`s of the
/// enumeration, the special floats.
const SMALL_VALUES: u64 = 16;

/// Draws the random cases of a check, in a fixed order for a given seed.
pub(crate) struct RandomCases<'g> {
    grammar: &'g Rc<Grammar>,
    rng: SeedRng,
    first_size: usize,
    last_size: usize,
    cases: u64,
    drawn: u64,
    /// The largest size whose leaves all have 64-bit global indices (a
    /// `Tree` holds no other): sets and maps of `u8` pass 2^64 values near
    /// size 80.
    leaf_cap: usize,
    /// Whether the type has values of every size (long cases are drawn
    /// only then).
    unbounded: bool,
    /// Per size, the inputs no discarded case has ruled out (made at the
    /// first discarded case of the size).
    pruned: BTreeMap<usize, Pruned>,
    /// The largest size of a long case (known at the first one).
    long_size: Option<usize>,
    /// The largest size a long case may take (the configured one).
    long_max: usize,
    /// Which phase of the thread's checks this is, for the draw log.
    #[cfg(test)]
    log_id: u64,
}

/// A random case.
pub(crate) struct Case {
    pub tree: Tree,
    /// The size it was drawn at (edge values may change its size).
    pub drawn_at: usize,
    /// Its size.
    pub size: usize,
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
            leaf_cap: leaf_index_cap(grammar, last_size),
            unbounded: crate::index::max_size_in(grammar).is_none(),
            pruned: BTreeMap::new(),
            long_size: None,
            long_max: LONG_SIZE,
            #[cfg(test)]
            log_id: log::next_id(),
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
            let span = (self.last_size - self.first_size) as u128;
            let steps = u128::from((self.cases - 1).max(1));
            let target = self.first_size + grown(span, i, steps);
            // A type with a largest size (numbers, tuples and enums of
            // them) has no long values: its skeletons are a few small ones.
            if self.rng.random_range(0..4u8) == 0 && self.unbounded {
                let long = self.long_size();
                let span = long.saturating_sub(self.first_size) as u128;
                let target = self.first_size + grown(span, i, steps);
                if let Some(case) = self.long_case(target) {
                    return Some(case);
                }
            }
            let Some((tree, drawn_at)) = self.sample_near(target) else {
                continue;
            };
            let atoms = match (
                has_leaves(self.grammar, &tree),
                self.rng.random_range(0..3u8),
            ) {
                (true, 1) => Atoms::Edges,
                (true, 2) => Atoms::Uniform,
                _ => Atoms::BySize,
            };
            return Some(self.with_atoms(tree, drawn_at, atoms));
        }
        None
    }

    /// Lets long cases reach `max_size` (by default [`LONG_SIZE`]).
    pub(crate) fn long_up_to(mut self, max_size: usize) -> Self {
        self.long_max = max_size;
        self.long_size = None;
        self
    }

    /// The largest size of a long case: the phase's long size, or less
    /// where the skeletons' counts would take more than [`LONG_WORK`]
    /// products, and never less than the phase's own sizes. The products
    /// are counted from empty tables (once per grammar and thread), so the
    /// size is the same whatever this thread counted before: verdicts do
    /// not depend on which checks ran first.
    fn long_size(&mut self) -> usize {
        if let Some(n) = self.long_size {
            return n;
        }
        thread_local! {
            static REACHED: std::cell::RefCell<HashMap<(u64, usize), usize>> =
                std::cell::RefCell::new(HashMap::new());
        }
        let g = self.grammar;
        let key = (g.id, self.long_max);
        let cached = REACHED.with(|r| r.borrow().get(&key).copied());
        let reached = cached.unwrap_or_else(|| {
            let mut counts = Counts::uncached(g, CountMode::for_draws(g, true));
            let mut reached = 0;
            // Bounded also by size: a grammar whose counts take no products.
            for size in 0..=self.long_max.min(100 * LONG_SIZE) {
                counts.sort_count(g.root, size);
                if counts.work() > LONG_WORK {
                    break;
                }
                reached = size;
            }
            REACHED.with(|r| r.borrow_mut().insert(key, reached));
            reached
        });
        let reached = reached.max(self.last_size.min(self.long_max));
        self.long_size = Some(reached);
        reached
    }

    /// A long case of size `target` (or a nearby size with skeletons), in
    /// no class a discarded case ruled out: `None` if there is no skeleton
    /// near that size, or if a few tries all fell in such classes.
    fn long_case(&mut self, target: usize) -> Option<Case> {
        let g = self.grammar;
        let long_size = self.long_size();
        let mut counts = Counts::counting(g, CountMode::for_draws(g, true));
        let near = (0..=8).flat_map(|d| [target.checked_add(d), target.checked_sub(d)]);
        let size = near
            .flatten()
            .filter(|&s| s >= self.first_size && s <= long_size)
            .find(|&s| counts.sort_count_small(g.root, s) != Some(0))?;
        let count = counts.sort_count(g.root, size);
        drop(counts);
        for _ in 0..LONG_TRIES {
            let i = uniform_below(&count, &mut self.rng);
            let counts = Counts::counting(g, CountMode::for_draws(g, true));
            let skeleton = walk_counted(counts, g.root, size, i, &mut TreeSink);
            let skeleton = Rc::try_unwrap(skeleton).unwrap_or_else(|t| (*t).clone());
            // One in four keeps every atom minimal: runs of equal values
            // (a run-length count kept in a byte) need all of them alike.
            let mut tree = skeleton;
            if self.rng.random_range(0..4u8) != 0 {
                self.move_atoms(&mut tree, Atoms::Long);
            }
            let moved_size = g.tree_size(&tree) as usize;
            if self
                .pruned
                .get(&moved_size)
                .is_some_and(|p| p.rules_out(&tree))
            {
                continue;
            }
            #[cfg(test)]
            log::drawn(self, &tree);
            return Some(Case {
                tree,
                drawn_at: size,
                size: moved_size,
                atoms: Atoms::Long,
            });
        }
        None
    }

    /// Another case in place of `case`, whose precondition was false: of
    /// its size (or the nearest one with inputs left), with the same kind
    /// of atoms.
    pub(crate) fn redraw(&mut self, case: &Case) -> Option<Case> {
        if case.atoms == Atoms::Long {
            // Long cases are drawn by structure, not from the pruned space
            // of their size (most are past the sizes it can count), but
            // never from a class ruled out: another one of the size.
            if let Some(again) = self.long_case(case.drawn_at) {
                return Some(again);
            }
        }
        let (tree, drawn_at) = self.sample_near(case.drawn_at)?;
        Some(self.with_atoms(tree, drawn_at, case.atoms))
    }

    /// Rules out, for later draws, the class of a case whose precondition
    /// was false: every input of its size that agrees with it on the
    /// positions it read (`reads`, in the order read). False when nothing
    /// was ruled out (the case's size is outside the phase's, the input
    /// space has weights, or the property read the same input prefix
    /// differently before).
    pub(crate) fn discard(&mut self, tree: &Tree, reads: &[u32]) -> bool {
        let size = self.grammar.tree_size(tree) as usize;
        if !(self.first_size..=self.last_size.min(self.leaf_cap)).contains(&size) {
            return false;
        }
        // The pruned space draws uniformly: with weights, a case is drawn
        // again by rejection instead, so that the weights hold.
        if self.grammar.weighted {
            return false;
        }
        let g = self.grammar;
        let pruned = self
            .pruned
            .entry(size)
            .or_insert_with(|| Pruned::new(g.clone(), size));
        let recorded = pruned.record(tree, reads, false).is_ok();
        #[cfg(test)]
        if recorded {
            log::discarded(self, tree, reads);
        }
        recorded
    }

    fn with_atoms(&mut self, tree: Tree, drawn_at: usize, atoms: Atoms) -> Case {
        let (tree, size) = match atoms {
            Atoms::BySize => (tree, drawn_at),
            _ => {
                // Moved atoms may land in a class a discarded case ruled
                // out (an edge value below the precondition's bound): the
                // case is then drawn as sampled, which no case ruled out.
                // The drawn tree is kept only where a discard may send the
                // case back to it (moved in place otherwise: no copy).
                let original = (!self.pruned.is_empty()).then(|| tree.clone());
                let mut moved = tree;
                self.move_atoms(&mut moved, atoms);
                let size = self.grammar.tree_size(&moved) as usize;
                match (self.pruned.get(&size), original) {
                    (Some(p), Some(original)) if p.rules_out(&moved) => (original, drawn_at),
                    _ => (moved, size),
                }
            }
        };
        #[cfg(test)]
        log::drawn(self, &tree);
        Case {
            tree,
            drawn_at,
            size,
            atoms,
        }
    }

    /// A uniform value of size `target`, or of the nearest size in the
    /// range that has values (some types have none at some sizes: lists of
    /// `bool` only have odd sizes).
    fn sample_near(&mut self, target: usize) -> Option<(Tree, usize)> {
        let (first, last) = (self.first_size, self.last_size.min(self.leaf_cap));
        let near = (0..=8).flat_map(|d| [target.checked_add(d), target.checked_sub(d)]);
        let mut counts = Counts::for_draws(self.grammar);
        let size = near
            .flatten()
            .filter(|s| (first..=last).contains(s))
            .find(|&s| match self.pruned.get(&s) {
                Some(p) => !p.alive().is_zero(),
                None => counts.sort_count_small(self.grammar.root, s) != Some(0),
            })?;
        match self.pruned.get_mut(&size) {
            // Uniform among the inputs left (the first draw of an untouched
            // size is FEAT's, draw for draw).
            Some(p) if !p.untouched() => {
                // The pruned space counts with the tables.
                drop(counts);
                let index = uniform_below(&p.alive().to_big(), &mut self.rng);
                Some((p.value_at(Count::from_big(index)).tree, size))
            }
            _ => sample_tree_counted(counts, size, &mut self.rng).map(|t| (t, size)),
        }
    }

    /// Moves each leaf of the tree, with probability one half, to one of
    /// its family's edge values or to a uniform value of the family, in
    /// place (pre-order, left to right: the order the draws are made in).
    /// Shared subtrees are copied before they change.
    fn move_atoms(&mut self, tree: &mut Tree, atoms: Atoms) {
        let g = self.grammar;
        let mut stack: Vec<&mut Tree> = vec![tree];
        while let Some(t) = stack.pop() {
            if let Some((sort, index)) = g.atomic_index(t) {
                let moved = self.moved_index(sort, index, atoms);
                if moved != index {
                    *t = g.atomic_tree(sort, moved);
                }
                continue;
            }
            if let Tree::Node(_, kids) = t {
                stack.extend(kids.iter_mut().rev().map(Rc::make_mut));
            }
        }
    }

    /// A leaf's index, moved with probability one half (see
    /// `move_atoms`).
    fn moved_index(&mut self, sort: SortId, index: u64, atoms: Atoms) -> u64 {
        let atoms = match atoms {
            // Mostly small values, an edge value or a uniform one now and
            // then.
            Atoms::Long => match self.rng.random_range(0..8u8) {
                0 => Atoms::Edges,
                1 => Atoms::Uniform,
                _ => {
                    let last = self.edges_of(sort).last().copied().unwrap_or(index);
                    let small = self.rng.random_range(0..SMALL_VALUES);
                    return index.saturating_add(small).min(last.max(index));
                }
            },
            atoms => atoms,
        };
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
        edge_indices(self.grammar, sort)
    }
}

/// The size offset of case `i` of `steps + 1` over a span of sizes: it
/// grows with the square of `i`, so small inputs come first, the largest
/// size is still reached, and most cases are small. A case costs about its
/// size to draw and to run, and most bugs show on small inputs: on the
/// `versus_proptest` properties, growing linearly cost a fifth more for no
/// bug more. In 128 bits: any span of sizes times any number of cases
/// squared (both below 2^64, their product's quotient below the span).
fn grown(span: u128, i: u64, steps: u128) -> usize {
    let i = u128::from(i).min(steps);
    // span * i^2 / steps^2, without overflow: (span * i / steps) * i / steps
    // loses at most one size to rounding.
    (span * i / steps * i / steps) as usize
}

fn has_leaves(g: &Grammar, tree: &Tree) -> bool {
    let mut stack = vec![tree];
    while let Some(t) = stack.pop() {
        if g.atomic_index(t).is_some() {
            return true;
        }
        if let Tree::Node(_, kids) = t {
            stack.extend(kids.iter().map(|k| &**k));
        }
    }
    false
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

/// A record of every case drawn and every class ruled out on this thread,
/// for the tests of the redraws (`check::redraw_tests`).
#[cfg(test)]
pub(crate) mod log {
    use super::RandomCases;
    use crate::grammar::Tree;
    use std::cell::{Cell, RefCell};

    /// What a random phase did, in order.
    #[derive(Debug, Clone)]
    pub(crate) enum Event {
        /// A case was drawn (fresh or again), atoms moved.
        Drawn { phase: u64, tree: Tree },
        /// A case's class was ruled out: `reads` in the order read.
        Discarded {
            phase: u64,
            tree: Tree,
            reads: Vec<u32>,
        },
    }

    thread_local! {
        static EVENTS: RefCell<Option<Vec<Event>>> = const { RefCell::new(None) };
        static NEXT: Cell<u64> = const { Cell::new(0) };
    }

    pub(super) fn next_id() -> u64 {
        NEXT.with(|n| n.replace(n.get() + 1))
    }

    fn push(e: impl FnOnce() -> Event) {
        EVENTS.with(|l| {
            if let Some(events) = l.borrow_mut().as_mut() {
                events.push(e());
            }
        });
    }

    pub(super) fn drawn(cases: &RandomCases<'_>, tree: &Tree) {
        push(|| Event::Drawn {
            phase: cases.log_id,
            tree: tree.clone(),
        });
    }

    pub(super) fn discarded(cases: &RandomCases<'_>, tree: &Tree, reads: &[u32]) {
        push(|| Event::Discarded {
            phase: cases.log_id,
            tree: tree.clone(),
            reads: reads.to_vec(),
        });
    }

    /// The events of the random phases `f` runs on this thread.
    pub(crate) fn recording<R>(f: impl FnOnce() -> R) -> (R, Vec<Event>) {
        EVENTS.with(|l| *l.borrow_mut() = Some(vec![]));
        let r = f();
        let events = EVENTS.with(|l| l.borrow_mut().take()).unwrap_or_default();
        (r, events)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::grammar_of;

    #[test]
    fn discarding_the_last_values_of_64_bit_families() {
        // The last group of values of a 64-bit family ends at global index
        // u64::MAX: its end does not fit 64 bits (issue 36).
        fn discard_all_edges(g: &Rc<Grammar>, leaf_trees: &dyn Fn(u64) -> Tree) {
            let edges = edge_indices(g, leaf_sort(g));
            assert_eq!(edges.last(), Some(&u64::MAX));
            let mut r = RandomCases::new(g, 1, 0, 200, 10);
            for &i in edges.iter().rev() {
                let tree = leaf_trees(i);
                let reads: Vec<u32> = (0..positions(&tree)).collect();
                assert!(r.discard(&tree, &reads), "index {i}");
                // Discarding it again rules nothing more out.
                assert!(r.discard(&tree, &reads));
                let size = g.tree_size(&tree) as usize;
                let left = r.pruned[&size].alive().clone();
                for _ in 0..20 {
                    let (again, at) = r.sample_near(size).expect("values are left");
                    assert_ne!(again, tree);
                    // A size left empty (i64::MIN is alone at size 64)
                    // gives way to a neighbouring one.
                    assert_eq!(at == size, !left.is_zero(), "index {i}");
                }
                assert_eq!(*r.pruned[&size].alive(), left);
            }
        }
        for g in [grammar_of::<i64>(), grammar_of::<u64>()] {
            let sort = g.root;
            discard_all_edges(&g, &|i| g.atomic_tree(sort, i));
        }
        let g = grammar_of::<(i64, u8)>();
        let Tree::Node(prod, ref kids) =
            crate::index::sample_tree_in(&g, 9, &mut crate::index::seeded_rng(3)).unwrap()
        else {
            unreachable!("a pair is a node")
        };
        let sort = leaf_sort(&g);
        discard_all_edges(&g, &|i| {
            Tree::Node(prod, vec![Rc::new(g.atomic_tree(sort, i)), kids[1].clone()])
        });
        assert_eq!(
            crate::grammar::downcast::<i64>(
                grammar_of::<i64>().build_root(
                    &grammar_of::<i64>().atomic_tree(grammar_of::<i64>().root, u64::MAX)
                ),
                "test"
            ),
            i64::MIN
        );
    }

    /// The first atomic sort (leaf or lazy atom) of a grammar.
    fn leaf_sort(g: &Grammar) -> SortId {
        (0..g.sorts.len())
            .map(SortId::new)
            .find(|&s| g.atomic_family(s).is_some())
            .expect("an atomic sort")
    }

    fn positions(tree: &Tree) -> u32 {
        match tree {
            Tree::Leaf(..) => 1,
            Tree::Node(_, kids) => 1 + kids.iter().map(|k| positions(k)).sum::<u32>(),
        }
    }

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Coin {
        Rare,
        Common,
    }

    impl crate::Enumerable for Coin {
        fn describe() -> crate::space::Space<Self> {
            use crate::space;
            space::pay(space::weighted(vec![
                (1, space::pure(Coin::Rare)),
                (9, space::pure(Coin::Common)),
            ]))
        }
    }

    /// Among values of the same size, a weight of 9 against 1 makes the
    /// common coin about nine tenths of the coins drawn (by size and with
    /// moved atoms; long cases are drawn by structure, without weights).
    #[test]
    fn weighted_alternatives_are_drawn_by_their_weights() {
        let g = grammar_of::<Vec<Coin>>();
        let mut r = RandomCases::new(&g, 3, 4, 40, 600);
        let (mut rare, mut common) = (0u32, 0u32);
        while let Some(case) = r.next_case() {
            if case.atoms == Atoms::Long {
                continue;
            }
            let coins: Vec<Coin> = crate::grammar::downcast(g.build_root(&case.tree), "coins");
            rare += coins.iter().filter(|&&c| c == Coin::Rare).count() as u32;
            common += coins.iter().filter(|&&c| c == Coin::Common).count() as u32;
        }
        let share = f64::from(common) / f64::from(common + rare);
        assert!(rare + common > 2000, "{rare} + {common} coins");
        assert!((0.87..0.93).contains(&share), "common share {share}");
        // A false precondition rules nothing out (the pruned space is
        // uniform): the case is drawn again with the weights.
        let case = RandomCases::new(&g, 3, 4, 40, 1).next_case().unwrap();
        assert!(!r.discard(&case.tree, &[0]));
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

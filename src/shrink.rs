//! Shrinking of failing values through the compiled space description.
//!
//! This module owns the shrinker that the random phase of a check uses on a
//! sampled counterexample: it works on [`Tree`]s of a compiled [`Grammar`],
//! so every candidate is a value of the space (never an ill-formed one) and
//! the same code shrinks standard, derived, hand-written and dynamic types.
//!
//! # Candidates
//!
//! A *pass* offers candidates of the current tree in three phases, each over
//! the positions in preorder (top first, because a change near the root
//! removes the most):
//!
//! 1. a subtree replaced by one of its own descendants of the same sort (a
//!    list by a tail, a tree by a subtree), largest reduction first; for many
//!    descendants only a halving ladder of them (see [`ladder`]), so that a
//!    long list reaches a failing length in a logarithmic number of tries;
//! 2. a subtree replaced by the minimal value of its sort;
//! 3. an alternative replaced by an earlier one of its sort in chain order,
//!    fields taken over from the old ones of the same sort, else minimal; a
//!    leaf index moved toward 0 (the last value of each smaller size, then
//!    `index / 2` and a ladder of ever smaller steps down to `index - 1`).
//!
//! The first candidate that still fails is accepted and the next pass starts
//! from it; shrinking ends when a whole pass finds none, or when the budget of
//! predicate calls is spent.
//!
//! # Termination
//!
//! A candidate is offered only when it is strictly smaller than the current
//! tree in a well-founded order: smaller size, or equal size and smaller in
//! preorder (alternatives by chain position, leaves by index). There are
//! finitely many trees of each size, so shrinking ends even without a budget,
//! and the result is never larger than the input.
//!
//! Nothing here recurses over the depth of a tree: walks use explicit stacks
//! and a position is replaced by rebuilding the spine above it.

use crate::grammar::{Grammar, SortId, SortKind, Tree};
use num_traits::ToPrimitive;
use std::cmp::Ordering;
use std::ops::ControlFlow;
use std::rc::Rc;

/// The result of [`shrink`].
#[derive(Clone, Debug)]
pub(crate) struct Shrunk {
    /// The smallest failing tree found (the input itself when no candidate
    /// failed).
    pub tree: Tree,
    /// The size of `tree` (`Grammar::tree_size`).
    pub size: u64,
    /// How many times the predicate was called.
    pub attempts: u64,
    /// How many candidates were accepted.
    pub steps: u64,
}

/// Shrinks `tree` (a value of `g`'s root sort) while `fails` keeps returning
/// true, calling `fails` at most `max_attempts` times.
///
/// The input is taken to fail and is not run again. Returns the smallest
/// failing tree found with statistics: the result is the input or a tree
/// that `fails` accepted, and it is never larger than the input (see the
/// module documentation for the order).
pub(crate) fn shrink(
    g: &Grammar,
    tree: &Tree,
    fails: &mut dyn FnMut(&Tree) -> bool,
    max_attempts: u64,
) -> Shrunk {
    let mut gen = Candidates::new(g);
    let mut current = Rc::new(tree.clone());
    let mut attempts = 0u64;
    let mut steps = 0u64;
    // Each pass resumes at the phase and position of the last accepted
    // candidate instead of starting over: on a long list whose elements all
    // shrink, starting over would retry every rejected candidate before each
    // element and spend the budget on the first few. Only a pass from the
    // very start that accepts nothing ends the shrinking.
    let mut from = (0, 0);
    while attempts < max_attempts {
        let flat = Flat::new(g, &current);
        let mut accepted = None;
        let _ = gen.each(&flat, from, &mut |at, i, repl| {
            if attempts >= max_attempts {
                return ControlFlow::Break(());
            }
            attempts += 1;
            let candidate = flat.replace(i, repl);
            if fails(&candidate) {
                accepted = Some((candidate, at));
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        });
        match accepted {
            Some((t, at)) => {
                current = t;
                steps += 1;
                from = at;
            }
            None if from == (0, 0) => break,
            None => from = (0, 0),
        }
    }
    let size = g.tree_size(&current);
    let tree = Rc::try_unwrap(current).unwrap_or_else(|rc| (*rc).clone());
    Shrunk {
        tree,
        size,
        attempts,
        steps,
    }
}

/// Every candidate that [`shrink`] would offer for `tree`, in order (for
/// checking that a result is locally minimal).
#[cfg(test)]
pub(crate) fn candidates(g: &Grammar, tree: &Tree) -> Vec<Tree> {
    let root = Rc::new(tree.clone());
    let flat = Flat::new(g, &root);
    let mut out = vec![];
    let _ = Candidates::new(g).each(&flat, (0, 0), &mut |_, i, repl| {
        let t = flat.replace(i, repl);
        out.push(Rc::try_unwrap(t).unwrap_or_else(|rc| (*rc).clone()));
        ControlFlow::Continue(())
    });
    out
}

/// With at most this many same-sort descendants a position offers them all;
/// with more, a halving ladder of them.
const DENSE: usize = 16;

/// Ranks (into descendants sorted by size, smallest first) to offer among
/// `k`: all of them when few, else `0, k - k/2, k - k/4, ..., k - 1`. On a
/// list this is a bisection of the length: a failing length is reached in
/// about `log k` tries instead of `k`.
fn ladder(k: usize) -> Vec<usize> {
    if k <= DENSE {
        return (0..k).collect();
    }
    let mut out = vec![0];
    let mut t = 1;
    while k >> t >= 1 {
        let r = k - (k >> t);
        if out.last() != Some(&r) {
            out.push(r);
        }
        t += 1;
    }
    if out.last() != Some(&(k - 1)) {
        out.push(k - 1);
    }
    out
}

/// One position of the current tree, in preorder.
struct FlatNode {
    /// The subtree at this position (shared with the current tree).
    tree: Rc<Tree>,
    /// Preorder index of the parent (unused for the root).
    parent: usize,
    /// Field number within the parent.
    slot: usize,
    /// Preorder index just past this subtree.
    end: usize,
    /// Size of this subtree.
    size: u64,
    /// The sort of the position.
    sort: SortId,
}

/// The current tree laid out in preorder, with what candidates need: sorts,
/// subtree sizes and extents, and the parent links for rebuilding.
struct Flat {
    /// Positions in preorder; the root is 0.
    nodes: Vec<FlatNode>,
}

impl Flat {
    fn new(g: &Grammar, root: &Rc<Tree>) -> Flat {
        let mut nodes: Vec<FlatNode> = vec![];
        let mut stack: Vec<(Rc<Tree>, usize, usize)> = vec![(root.clone(), usize::MAX, 0)];
        while let Some((tree, parent, slot)) = stack.pop() {
            let here = nodes.len();
            let (own, sort) = match (&*tree, g.atomic_index(&tree)) {
                // A lazy atom is one position here, like a leaf: its bits
                // move together, by index.
                (_, Some((sort, index))) => (g.atomic_size(sort, index), sort),
                (Tree::Leaf(..), None) => unreachable!("a leaf is atomic"),
                (Tree::Node(prod, kids), None) => {
                    // Reversed, so that the first field is visited first.
                    for (j, kid) in kids.iter().enumerate().rev() {
                        stack.push((kid.clone(), here, j));
                    }
                    let p = &g.prods[prod.index()];
                    (p.cost as u64, p.sort)
                }
            };
            nodes.push(FlatNode {
                tree,
                parent,
                slot,
                end: 0,
                size: own,
                sort,
            });
        }
        // Children come after their parent, so one backward sweep sums them.
        let mut count = vec![1usize; nodes.len()];
        for i in (0..nodes.len()).rev() {
            nodes[i].end = i + count[i];
            if i > 0 {
                let p = nodes[i].parent;
                count[p] += count[i];
                nodes[p].size += nodes[i].size;
            }
        }
        Flat { nodes }
    }

    /// The whole tree with position `i` replaced by `repl` (the spine above
    /// it rebuilt, everything else shared).
    fn replace(&self, i: usize, repl: Rc<Tree>) -> Rc<Tree> {
        let mut cur = repl;
        let mut j = i;
        while j != 0 {
            let p = self.nodes[j].parent;
            let Tree::Node(prod, kids) = &*self.nodes[p].tree else {
                unreachable!("a parent is an alternative")
            };
            let mut kids = kids.clone();
            kids[self.nodes[j].slot] = cur;
            cur = Rc::new(Tree::Node(*prod, kids));
            j = p;
        }
        cur
    }

    /// Preorder indices of the fields of position `i`.
    fn fields(&self, i: usize) -> Vec<usize> {
        let mut out = vec![];
        let Tree::Node(_, kids) = &*self.nodes[i].tree else {
            return out;
        };
        let mut j = i + 1;
        for _ in 0..kids.len() {
            out.push(j);
            j = self.nodes[j].end;
        }
        out
    }
}

/// Produces the candidates of a tree; keeps what does not depend on the
/// tree (chain positions, minimal values) across passes.
struct Candidates<'g> {
    g: &'g Grammar,
    /// Chain position of every alternative within its sort (0 for leaves).
    chain_pos: Vec<u64>,
    /// Minimal value and its size, per sort, built on first use.
    min_trees: Vec<Option<(Rc<Tree>, u64)>>,
}

impl<'g> Candidates<'g> {
    fn new(g: &'g Grammar) -> Self {
        let mut chain_pos = vec![0u64; g.prods.len()];
        for s in &g.sorts {
            if let SortKind::Algebraic { chain, .. } = &s.kind {
                for (k, &p) in chain.iter().enumerate() {
                    chain_pos[p.index()] = k as u64;
                }
            }
        }
        Candidates {
            g,
            chain_pos,
            min_trees: vec![None; g.sorts.len()],
        }
    }

    /// The minimal value of `sort` (its first alternative in chain order with
    /// minimal fields, or leaf index 0) and its size.
    fn min_tree(&mut self, sort: SortId) -> (Rc<Tree>, u64) {
        if let Some(m) = &self.min_trees[sort.index()] {
            return m.clone();
        }
        let g = self.g;
        let prod = g.min_prod(sort);
        let p = &g.prods[prod.index()];
        let tree = if p.leaf {
            Rc::new(Tree::Leaf(sort, 0))
        } else {
            // The template lists the minimal fields breadth first, so every
            // node's fields lie after it: building back to front finds them
            // done.
            let tpl = &p.template;
            let mut built: Vec<Option<Rc<Tree>>> = vec![None; tpl.len()];
            for k in (0..tpl.len()).rev() {
                let n = tpl[k];
                let q = &g.prods[n.prod.index()];
                let t = if q.leaf {
                    Tree::Leaf(q.sort, 0)
                } else {
                    let first = n.first as usize;
                    let kids = (first..first + q.slots.len())
                        .map(|f| built[f].take().expect("a field is built once"))
                        .collect();
                    Tree::Node(n.prod, kids)
                };
                built[k] = Some(Rc::new(t));
            }
            let kids = (0..p.slots.len())
                .map(|f| built[f].take().expect("a slot is built once"))
                .collect();
            Rc::new(Tree::Node(prod, kids))
        };
        let size = g.tree_size(&tree);
        self.min_trees[sort.index()] = Some((tree.clone(), size));
        (tree, size)
    }

    /// The preorder key of a node: leaves by index, alternatives by chain
    /// position (both trees are of the same sort wherever they are compared).
    fn key(&self, t: &Tree) -> (u8, u64) {
        match (t, self.g.atomic_index(t)) {
            (_, Some((_, index))) => (0, index),
            (Tree::Node(prod, _), None) => (1, self.chain_pos[prod.index()]),
            (Tree::Leaf(..), None) => unreachable!("a leaf is atomic"),
        }
    }

    /// Compares two trees of one sort in preorder. Preorder sequences of
    /// trees are prefix-free, so the first differing key decides.
    fn lex(&self, a: &Tree, b: &Tree) -> Ordering {
        let mut stack: Vec<(&Tree, &Tree)> = vec![(a, b)];
        while let Some((x, y)) = stack.pop() {
            let o = self.key(x).cmp(&self.key(y));
            if o != Ordering::Equal {
                return o;
            }
            if let (Tree::Node(_, xs), Tree::Node(_, ys)) = (x, y) {
                for (p, q) in xs.iter().zip(ys).rev() {
                    stack.push((p, q));
                }
            }
        }
        Ordering::Equal
    }

    /// Passes `repl` for position `i` to `visit` when the resulting tree is
    /// smaller in the shrinking order. The rest of the tree is unchanged, so
    /// comparing the subtrees compares the whole trees.
    fn offer(
        &self,
        flat: &Flat,
        i: usize,
        repl: Rc<Tree>,
        size: u64,
        visit: &mut dyn FnMut(usize, Rc<Tree>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let old = &flat.nodes[i];
        let smaller =
            size < old.size || (size == old.size && self.lex(&repl, &old.tree) == Ordering::Less);
        if smaller {
            visit(i, repl)
        } else {
            ControlFlow::Continue(())
        }
    }

    /// Offers every candidate of the tree laid out in `flat`, in order, until
    /// `visit` breaks.
    /// Offers the candidates from `(phase, position)` on; `visit` learns
    /// the phase and position of each.
    fn each(
        &mut self,
        flat: &Flat,
        (phase, from): (u8, usize),
        visit: &mut dyn FnMut((u8, usize), usize, Rc<Tree>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let n = flat.nodes.len();
        let start = |p: u8| if p == phase { from.min(n) } else { 0 };
        if phase == 0 {
            for i in start(0)..n {
                self.descendants(flat, i, &mut |j, t| visit((0, i), j, t))?;
            }
        }
        if phase <= 1 {
            for i in start(1)..n {
                let (m, size) = self.min_tree(flat.nodes[i].sort);
                self.offer(flat, i, m, size, &mut |j, t| visit((1, i), j, t))?;
            }
        }
        for i in start(2)..n {
            let visit = &mut |j, t| visit((2, i), j, t);
            match self.g.atomic_index(&flat.nodes[i].tree) {
                Some((sort, index)) => self.leaf_moves(flat, i, sort, index, visit)?,
                None => self.earlier_alternatives(flat, i, visit)?,
            }
        }
        ControlFlow::Continue(())
    }

    /// Phase 1: position `i` replaced by a descendant of its sort, largest
    /// reduction first.
    fn descendants(
        &self,
        flat: &Flat,
        i: usize,
        visit: &mut dyn FnMut(usize, Rc<Tree>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let here = &flat.nodes[i];
        let mut found: Vec<usize> = (i + 1..here.end)
            .filter(|&j| flat.nodes[j].sort == here.sort)
            .collect();
        // Stable: among equal sizes the one nearer the top comes first.
        found.sort_by_key(|&j| flat.nodes[j].size);
        for r in ladder(found.len()) {
            let d = &flat.nodes[found[r]];
            self.offer(flat, i, d.tree.clone(), d.size, visit)?;
        }
        ControlFlow::Continue(())
    }

    /// Phase 3 for an alternative: each earlier alternative of its sort in
    /// chain order (smallest first). A field of the new alternative takes
    /// the old field at the same place when that has its sort, else the
    /// first unused old field of its sort, else the sort's minimal value.
    fn earlier_alternatives(
        &mut self,
        flat: &Flat,
        i: usize,
        visit: &mut dyn FnMut(usize, Rc<Tree>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let g = self.g;
        let Tree::Node(prod, old) = &*flat.nodes[i].tree else {
            return ControlFlow::Continue(());
        };
        let pos = self.chain_pos[prod.index()] as usize;
        if pos == 0 {
            return ControlFlow::Continue(());
        }
        let SortKind::Algebraic { chain, .. } = &g.sorts[flat.nodes[i].sort.index()].kind else {
            return ControlFlow::Continue(());
        };
        let old_at = flat.fields(i);
        for &q in &chain[..pos] {
            let alt = &g.prods[q.index()];
            let mut used = vec![false; old.len()];
            let mut kids = Vec::with_capacity(alt.slots.len());
            let mut size = alt.cost as u64;
            for (j, &s) in alt.slots.iter().enumerate() {
                let fits = |m: usize| !used[m] && flat.nodes[old_at[m]].sort == s;
                let pick = if j < old.len() && fits(j) {
                    Some(j)
                } else {
                    (0..old.len()).find(|&m| fits(m))
                };
                match pick {
                    Some(m) => {
                        used[m] = true;
                        kids.push(old[m].clone());
                        size += flat.nodes[old_at[m]].size;
                    }
                    None => {
                        let (t, ms) = self.min_tree(s);
                        kids.push(t);
                        size += ms;
                    }
                }
            }
            self.offer(flat, i, Rc::new(Tree::Node(q, kids)), size, visit)?;
        }
        ControlFlow::Continue(())
    }

    /// Phase 3 for a leaf: smaller indices, largest move first. Index 0 is
    /// phase 2's minimal value, so it is not repeated here.
    fn leaf_moves(
        &self,
        flat: &Flat,
        i: usize,
        sort: SortId,
        index: u64,
        visit: &mut dyn FnMut(usize, Rc<Tree>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if index == 0 {
            return ControlFlow::Continue(());
        }
        let g = self.g;
        let size = g.atomic_size(sort, index);
        let mut targets: Vec<u64> = vec![];
        // The last value of each smaller size: in signed families the
        // largest magnitudes of a size come last, so these reach a failing
        // region that lies at the end of a size (`x < -1000`).
        if let Some(family) = g.atomic_family(sort) {
            let mut end = 0u128;
            for t in 0..size as usize {
                let count = family.count(t).to_u128().unwrap_or(u128::MAX);
                end = end.saturating_add(count);
                if count > 0 {
                    targets.extend(u64::try_from(end - 1));
                }
            }
        }
        targets.push(index / 2);
        let mut k = 2;
        while k < 64 && index >> k >= 1 {
            targets.push(index - (index >> k));
            k += 1;
        }
        targets.push(index - 1);
        let mut offered: Vec<u64> = vec![];
        for t in targets {
            if t == 0 || t >= index || offered.contains(&t) {
                continue;
            }
            offered.push(t);
            let s = g.atomic_size(sort, t);
            self.offer(flat, i, Rc::new(g.atomic_tree(sort, t)), s, visit)?;
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests;

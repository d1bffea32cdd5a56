//! The depth bound of the engine (Lazy SmallCheck's notion of depth): which
//! alternatives and leaf values fit at a position of a given nesting depth,
//! the minimal depth of each alternative, the minimal values of fields under
//! a depth bound, and the depth of every arena node. The DFS (`dfs.rs`) asks
//! this module instead of comparing sizes when it searches by depth; the
//! rules are stated in `docs/spec.md#depth`.
//!
//! Depth is local: a position fits or not whatever the rest of the value
//! holds, so there is no running total. A position at depth `d` under bound
//! `D` may hold an alternative of minimal depth `m` when `d + m <= D`, and a
//! leaf value of size `s` when `d + s <= D`. A constructor (an alternative
//! that costs something) puts its fields one deeper; a free product (a tuple,
//! an array) keeps them at its own depth, as Lazy SmallCheck's tuples do.

use crate::arena::{id32, Choice, Node, FINAL, LOCKED, OPEN};
use crate::grammar::{Fixity, Grammar, ProdId, SortId, SortKind, INFINITE};
use std::collections::HashMap;

/// How much deeper an alternative puts its fields (a lazy atom's bits are
/// part of its value, at its own depth).
fn nesting(g: &Grammar, prod: ProdId) -> u64 {
    let p = &g.prods[prod.index()];
    u64::from(p.cost > 0 && p.atom.is_none())
}

/// The minimal depth of every alternative (`prod`) and sort (`sort`): a
/// leaf's is the size of its first value, an alternative without fields 0,
/// one with fields its nesting plus the deepest field's minimal depth.
#[derive(Debug, Clone)]
pub(crate) struct MinDepths {
    pub(crate) prod: Vec<u64>,
    pub(crate) sort: Vec<u64>,
}

impl MinDepths {
    /// The least fixpoint, from above: every round settles at least one more
    /// sort, so it ends after at most as many rounds as there are sorts.
    pub(crate) fn of(g: &Grammar) -> MinDepths {
        let mut prod = vec![INFINITE; g.prods.len()];
        let mut sort = vec![INFINITE; g.sorts.len()];
        loop {
            let mut changed = false;
            for (i, p) in g.prods.iter().enumerate() {
                let d = if p.leaf {
                    g.sorts[p.sort.index()].min_size
                } else if p.atom.is_some() {
                    // A lazy atom's block is a leaf value of its size: its
                    // bits put nothing deeper.
                    u64::from(p.cost)
                } else if p.slots.is_empty() {
                    0
                } else {
                    let deepest = p.slots.iter().map(|s| sort[s.index()]).max().unwrap_or(0);
                    deepest.saturating_add(nesting(g, ProdId::new(i)))
                };
                if d < prod[i] {
                    prod[i] = d;
                    changed = true;
                }
                if d < sort[p.sort.index()] {
                    sort[p.sort.index()] = d;
                    changed = true;
                }
            }
            if !changed {
                return MinDepths { prod, sort };
            }
        }
    }
}

/// One node of a field template under a depth bound.
#[derive(Clone, Copy, Debug)]
struct DepthTpl {
    prod: ProdId,
    mark: u32,
    /// Offset of the first field from the template base (`None`: a leaf).
    first: Option<u32>,
    tag: u32,
    /// Depth below the template's fields.
    below: u32,
}

/// The fields of an alternative at a position with some depth left.
#[derive(Clone, Copy, Debug)]
struct Fill {
    start: u32,
    len: u32,
    /// The size of the alternative with these fields (its cost included).
    size: u64,
}

/// The engine's state for a depth-bounded search.
#[derive(Debug)]
pub(crate) struct DepthBound {
    /// The depth bound `D`.
    pub(crate) bound: u64,
    min: MinDepths,
    /// Per alternative: the smallest minimal depth of the alternatives after
    /// it in its chain (`INFINITE` at the last).
    later: Vec<u64>,
    /// The depth of every arena node (valid below the arena's length).
    depths: Vec<u32>,
    templates: Vec<DepthTpl>,
    /// `(alternative, depth left at its position)` to its fields.
    fills: HashMap<(ProdId, u64), Fill>,
}

impl DepthBound {
    pub(crate) fn new(g: &Grammar, bound: u64) -> DepthBound {
        let min = MinDepths::of(g);
        let mut later = vec![INFINITE; g.prods.len()];
        for s in &g.sorts {
            if let SortKind::Algebraic { chain, .. } = &s.kind {
                let mut best = INFINITE;
                for p in chain.iter().rev() {
                    later[p.index()] = best;
                    best = best.min(min.prod[p.index()]);
                }
            }
        }
        DepthBound {
            bound,
            min,
            later,
            depths: vec![],
            templates: vec![],
            fills: HashMap::new(),
        }
    }

    /// The depth left at arena node `e`.
    #[inline]
    fn left(&self, e: u32) -> u64 {
        self.bound - u64::from(self.depths[e as usize])
    }

    /// The first alternative of `sort` that fits with `left` depth left
    /// (its leaf pseudo-alternative for a leaf sort whose first value fits).
    fn first_fitting(&self, g: &Grammar, sort: SortId, left: u64) -> Option<ProdId> {
        if self.min.sort[sort.index()] > left {
            return None;
        }
        match &g.sorts[sort.index()].kind {
            SortKind::Algebraic { chain, .. } => chain
                .iter()
                .copied()
                .find(|p| self.min.prod[p.index()] <= left),
            SortKind::Leaf { prod, .. } => (self.min.prod[prod.index()] <= left).then_some(*prod),
        }
    }

    /// The mark of a fresh node at `prod` (leaf index 0) with `left` depth
    /// left: final when nothing after it fits.
    fn fresh_mark(&self, g: &Grammar, prod: ProdId, left: u64) -> u32 {
        match g.fixity(prod, 0) {
            Fixity::Single => LOCKED,
            Fixity::Last => FINAL,
            Fixity::Open => {
                let more = if g.prods[prod.index()].leaf {
                    leaf_fits(g, prod, 1, left)
                } else {
                    self.later[prod.index()] <= left
                };
                if more {
                    OPEN
                } else {
                    FINAL
                }
            }
        }
    }

    /// The minimal values, under the bound, of the given slots with `left`
    /// depth left at each, laid out breadth first as `Grammar::template_for`
    /// does; returns its range and the slots' total size.
    fn lay_out(&mut self, g: &Grammar, slots: &[SortId], left: u64) -> (u32, u32, u64) {
        let start = id32(self.templates.len());
        let mut queue: Vec<(SortId, u64, u32)> = slots.iter().map(|&s| (s, left, 0)).collect();
        let mut size = 0;
        let mut i = 0;
        while i < queue.len() {
            let (sort, left, below) = queue[i];
            let prod = self
                .first_fitting(g, sort, left)
                .expect("a field fits where its alternative does");
            let p = &g.prods[prod.index()];
            let first = (!p.leaf).then(|| id32(queue.len()));
            if p.leaf {
                size += g.leaf_size(sort, 0);
            } else {
                size += u64::from(p.cost);
                let step = nesting(g, prod);
                queue.extend(
                    p.slots
                        .iter()
                        .map(|&s| (s, left - step, below + step as u32)),
                );
            }
            self.templates.push(DepthTpl {
                prod,
                mark: self.fresh_mark(g, prod, left),
                first,
                tag: if p.leaf { 0 } else { p.tag },
                below,
            });
            i += 1;
        }
        (start, id32(self.templates.len()) - start, size)
    }

    /// The fields of `prod` at a position with `left` depth left.
    fn fill(&mut self, g: &Grammar, prod: ProdId, left: u64) -> Fill {
        if let Some(f) = self.fills.get(&(prod, left)) {
            return *f;
        }
        let p = &g.prods[prod.index()];
        let slots = p.slots.clone();
        // An alternative without fields fits at no depth left: nothing to lay out.
        let (start, len, fields) = self.lay_out(g, &slots, left.saturating_sub(nesting(g, prod)));
        let f = Fill {
            start,
            len,
            size: fields + u64::from(p.cost),
        };
        self.fills.insert((prod, left), f);
        f
    }

    /// Copies a template to the top of the arena, its first nodes at depth
    /// `depth`; returns the base.
    fn push(&mut self, nodes: &mut Vec<Node>, start: u32, len: u32, depth: u32) -> u32 {
        let base = id32(nodes.len());
        self.depths.truncate(base as usize);
        for t in &self.templates[start as usize..(start + len) as usize] {
            let choice = match t.first {
                None => Choice::leaf(t.prod, 0),
                Some(first) => Choice::alternative(t.prod, base + first, t.tag),
            };
            nodes.push(Node::new(choice, t.mark));
            self.depths.push(depth + t.below);
        }
        base
    }

    /// Puts the root's minimal value under the bound into an empty arena;
    /// its size, or `None` when no value of the root fits.
    pub(crate) fn push_root(&mut self, g: &Grammar, nodes: &mut Vec<Node>) -> Option<u64> {
        self.first_fitting(g, g.root, self.bound)?;
        let (start, len, size) = self.lay_out(g, &[g.root], self.bound);
        self.push(nodes, start, len, 0);
        Some(size)
    }

    /// Whether position `e` has a later alternative (leaf value) that fits.
    #[inline]
    pub(crate) fn fits(&self, g: &Grammar, nodes: &[Node], e: u32) -> bool {
        let node = &nodes[e as usize];
        let prod = node.prod();
        if g.prods[prod.index()].leaf {
            leaf_fits(g, prod, node.leaf_index() + 1, self.left(e))
        } else {
            self.later[prod.index()] <= self.left(e)
        }
    }

    /// Moves position `e` to its next alternative (leaf value) that fits,
    /// with fresh fields; the change of the value's size, or `None` when
    /// nothing after it fits.
    pub(crate) fn swap(&mut self, g: &Grammar, nodes: &mut Vec<Node>, e: u32) -> Option<i64> {
        let left = self.left(e);
        let node = &nodes[e as usize];
        let prod = node.prod();
        let p = &g.prods[prod.index()];
        if p.leaf {
            let idx = node.leaf_index();
            if !leaf_fits(g, prod, idx + 1, left) {
                return None;
            }
            let delta = g.leaf_size(p.sort, idx + 1) - g.leaf_size(p.sort, idx);
            let last = g.is_last(prod, idx + 1) || !leaf_fits(g, prod, idx + 2, left);
            let node = &mut nodes[e as usize];
            node.set_choice(Choice::leaf(prod, idx + 1));
            node.mark.set(if last { FINAL } else { OPEN });
            return Some(delta as i64);
        }
        if self.later[prod.index()] > left {
            return None;
        }
        let mut next = p.next;
        while let Some(q) = next {
            if self.min.prod[q.index()] <= left {
                break;
            }
            next = g.prods[q.index()].next;
        }
        let next = next.expect("a later alternative fits");
        let old = self.fill(g, prod, left);
        let new = self.fill(g, next, left);
        let depth = self.depths[e as usize] + nesting(g, next) as u32;
        let base = self.push(nodes, new.start, new.len, depth);
        let node = &mut nodes[e as usize];
        node.set_choice(Choice::alternative(next, base, g.prods[next.index()].tag));
        node.mark.set(if self.later[next.index()] <= left {
            OPEN
        } else {
            FINAL
        });
        Some(new.size as i64 - old.size as i64)
    }
}

/// Whether the value at global `index` of a leaf family fits with `left`
/// depth left (its size at most `left`).
#[inline]
fn leaf_fits(g: &Grammar, prod: ProdId, index: u64, left: u64) -> bool {
    let sort = g.prods[prod.index()].sort;
    let s = g.leaf_size(sort, index);
    s != INFINITE && s <= left
}

#[cfg(test)]
/// The depth of a tree of `g` under the rule of this module: the largest
/// `d` over its positions, plus the size for a leaf at depth `d`.
pub(crate) fn tree_depth(g: &Grammar, tree: &crate::grammar::Tree) -> u64 {
    use crate::grammar::Tree;
    let mut deepest = 0;
    let mut stack = vec![(tree, 0u64)];
    while let Some((t, d)) = stack.pop() {
        match t {
            Tree::Leaf(sort, index) => deepest = deepest.max(d + g.leaf_size(*sort, *index)),
            Tree::Node(prod, _) if g.prods[prod.index()].atom.is_some() => {
                deepest = deepest.max(d + u64::from(g.prods[prod.index()].cost))
            }
            Tree::Node(prod, kids) => {
                deepest = deepest.max(d);
                let step = nesting(g, *prod);
                stack.extend(kids.iter().map(|k| (&**k, d + step)));
            }
        }
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::{tree_depth, MinDepths};
    use crate::engine::{RunResult, Searcher};
    use crate::grammar::{Grammar, SortId, SortKind, Tree};
    use crate::handle::Lazy;
    use crate::report::Pattern;
    use crate::types::grammar_of;
    use crate::values::trees_in;
    use crate::Enumerable;
    use proptest::prelude::*;
    use std::collections::HashMap;
    use std::fmt::Debug;

    /// A tall alternative first in the chain (smaller) and a wide, shallow
    /// one after it: a depth bound skips the first and still reaches the
    /// second.
    #[derive(crate::Enumerable, Debug, Clone, PartialEq)]
    enum Pick {
        Nothing,
        Tall(Up1),
        Wide(bool, bool, bool, bool, bool),
    }
    #[derive(crate::Enumerable, Debug, Clone, PartialEq)]
    struct Up1(Up2);
    #[derive(crate::Enumerable, Debug, Clone, PartialEq)]
    struct Up2(Up3);
    #[derive(crate::Enumerable, Debug, Clone, PartialEq)]
    struct Up3(bool);

    #[derive(crate::Enumerable, Debug, Clone, PartialEq)]
    enum Bin {
        Tip,
        Fork(Box<Bin>, u8, Box<Bin>),
    }

    /// The largest size of a value of `sort` with `left` depth left (an
    /// upper bound for leaves: their size is at most `left`).
    fn max_size(
        g: &Grammar,
        sort: SortId,
        left: u64,
        memo: &mut HashMap<(SortId, u64), u64>,
    ) -> u64 {
        if let Some(&m) = memo.get(&(sort, left)) {
            return m;
        }
        let min = MinDepths::of(g);
        let m = match &g.sorts[sort.index()].kind {
            SortKind::Leaf { .. } => left,
            SortKind::Algebraic { chain, .. } => chain
                .iter()
                .filter(|p| min.prod[p.index()] <= left)
                .map(|p| {
                    let q = &g.prods[p.index()];
                    let step = u64::from(q.cost > 0);
                    u64::from(q.cost)
                        + q.slots
                            .iter()
                            .map(|&s| max_size(g, s, left - step, memo))
                            .sum::<u64>()
                })
                .max()
                .unwrap_or(0),
        };
        memo.insert((sort, left), m);
        m
    }

    /// Every value of depth `<= depth`, by the reference enumeration.
    fn reference(g: &Grammar, depth: u64) -> Vec<Tree> {
        let top = max_size(g, g.root, depth, &mut HashMap::new());
        (0..=top as usize)
            .flat_map(|n| trees_in(g, n))
            .filter(|t| tree_depth(g, t) <= depth)
            .collect()
    }

    /// Runs the depth-bounded search and checks it against the reference:
    /// every run within the depth, its result the plain predicate's on its
    /// value, and every value of depth `<= depth` in exactly one run's class.
    /// Returns the runs and the reference's count of values within the depth
    /// (one reference enumeration: at depth 3 of `Bin` it filters millions
    /// of trees).
    fn check_exact<T: Enumerable + Debug>(
        depth: usize,
        lazy: impl Fn(Lazy<'_, T>) -> bool,
        plain: impl Fn(&T) -> bool,
    ) -> (u64, u64) {
        let g = grammar_of::<T>();
        let mut s = Searcher::<T>::by_depth(g.clone(), depth);
        let mut runs: Vec<(Pattern, bool)> = vec![];
        while let Some(r) = s.step(&lazy) {
            let tree = s.tree();
            assert!(
                tree_depth(&g, &tree) <= depth as u64,
                "a run deeper than {depth}"
            );
            assert_eq!(
                g.tree_size(&tree),
                s.size(),
                "the engine's size of {:?}",
                s.value()
            );
            let expected = plain(&s.value());
            assert_eq!(
                r,
                if expected {
                    RunResult::True
                } else {
                    RunResult::False(None)
                }
            );
            let pattern = s.pattern(&lazy);
            assert!(pattern.matches(&tree));
            runs.push((pattern, expected));
        }
        let values = reference(&g, depth as u64);
        let count = values.len() as u64;
        for t in values {
            let matching: Vec<&(Pattern, bool)> =
                runs.iter().filter(|(p, _)| p.matches(&t)).collect();
            let v: T = crate::grammar::downcast(g.build_root(&t), "test");
            assert_eq!(
                matching.len(),
                1,
                "{v:?} (depth {depth}) is in {} classes",
                matching.len()
            );
            assert_eq!(matching[0].1, plain(&v), "{v:?}: its class says otherwise");
        }
        (runs.len() as u64, count)
    }

    fn count_within<T: Enumerable>(depth: u64) -> u64 {
        reference(&grammar_of::<T>(), depth).len() as u64
    }

    #[test]
    fn minimal_depths_follow_nesting() {
        let g = grammar_of::<Pick>();
        let min = MinDepths::of(&g);
        let chain: Vec<u64> = match &g.sorts[g.root.index()].kind {
            SortKind::Algebraic { chain, .. } => {
                chain.iter().map(|p| min.prod[p.index()]).collect()
            }
            SortKind::Leaf { .. } => unreachable!(),
        };
        // Nothing (size 1), Tall (size 5, four levels), Wide (size 6, one).
        assert_eq!(chain, [0, 4, 1]);
        let g = grammar_of::<(u8, Vec<bool>)>();
        // The tuple is free; a list's first cell holds no fields.
        assert_eq!(MinDepths::of(&g).sort[g.root.index()], 0);
    }

    #[test]
    fn eager_predicates_run_once_per_value_within_the_depth() {
        for depth in 0..=4 {
            let (runs, values) = check_exact::<Pick>(
                depth,
                |x| x.force() != Pick::Nothing,
                |x| *x != Pick::Nothing,
            );
            assert_eq!(runs, values);
            let (runs, values) =
                check_exact::<Vec<bool>>(depth, |x| x.force().len() < 3, |x| x.len() < 3);
            assert_eq!(runs, values);
            if depth > 3 {
                continue;
            }
            let (runs, values) = check_exact::<(Option<u8>, Vec<u8>)>(
                depth,
                |x| x.force().1.len() != 2,
                |x| x.1.len() != 2,
            );
            assert_eq!(runs, values);
        }
        for depth in 0..=3 {
            let (runs, values) = check_exact::<Bin>(
                depth,
                |x| matches!(x.force(), Bin::Tip),
                |x| matches!(x, Bin::Tip),
            );
            assert_eq!(runs, values);
        }
        // Lists up to depth 3: [], and up to three elements below it.
        assert_eq!(count_within::<Vec<bool>>(3), 1 + 2 + 4 + 8);
    }

    #[test]
    fn the_wide_alternative_is_reached_past_a_deeper_one() {
        let wide = |x: &Pick| matches!(x, Pick::Wide(..));
        let mut s = Searcher::<Pick>::by_depth(grammar_of::<Pick>(), 1);
        let mut found = vec![];
        while let Some(r) = s.step(|x: Lazy<'_, Pick>| !wide(&x.force())) {
            if r.is_failure() {
                found.push(s.value());
            }
        }
        assert_eq!(found.len(), 32, "every Wide value, and no Tall one");
    }

    /// Under every conjunction strategy (OS and OSF lock by the
    /// reference's rule and count reads on marks the depth bound set), every
    /// value within the depth is in exactly one run's class, and each run's
    /// result is the formula's on it.
    #[test]
    fn formulas_under_every_strategy_cover_each_value_once() {
        use crate::cool::{Cool, Strategy};
        type V = Vec<bool>;
        fn formula(xs: Lazy<'_, V>) -> Cool<'_> {
            Cool::atom(move || xs.nth(1).is_some_and(|b| !b.get()))
                & (Cool::atom(move || xs.len() < 3)
                    | Cool::atom(move || xs.iter().last().is_some_and(|b| b.get())))
        }
        fn plain(v: &V) -> bool {
            v.get(1) == Some(&false) && (v.len() < 3 || v.last() == Some(&true))
        }
        let g = grammar_of::<V>();
        for strategy in Strategy::ALL {
            for depth in 0..=5 {
                let mut s = Searcher::<V>::by_depth(g.clone(), depth);
                let mut runs: Vec<(Pattern, bool)> = vec![];
                while let Some(r) = s.step_cool(strategy, &formula) {
                    let expected = plain(&s.value());
                    assert_eq!(r.is_true(), expected, "{strategy:?}: {:?}", s.value());
                    runs.push((s.pattern(|x| formula(x).eval()), expected));
                }
                for t in reference(&g, depth as u64) {
                    let v: V = crate::grammar::downcast(g.build_root(&t), "test");
                    let classes: Vec<_> = runs.iter().filter(|(p, _)| p.matches(&t)).collect();
                    assert_eq!(classes.len(), 1, "{strategy:?}, depth {depth}: {v:?}");
                    assert_eq!(classes[0].1, plain(&v), "{strategy:?}: {v:?}");
                }
            }
        }
    }

    /// An atom of a lazy predicate over `(Option<u8>, Vec<u8>)`.
    #[derive(Clone, Debug)]
    enum Atom {
        IsSome,
        OptLt(u8),
        ElemLt(usize, u8),
        LenGe(usize),
        SumLt(u32),
        Distinct,
    }

    fn atom() -> impl Strategy<Value = Atom> {
        prop_oneof![
            Just(Atom::IsSome),
            (0u8..4).prop_map(Atom::OptLt),
            ((0usize..3), (0u8..4)).prop_map(|(i, v)| Atom::ElemLt(i, v)),
            (0usize..4).prop_map(Atom::LenGe),
            (0u32..6).prop_map(Atom::SumLt),
            Just(Atom::Distinct),
        ]
    }

    #[derive(Clone, Debug)]
    enum Pred {
        Atom(Atom),
        Not(Box<Pred>),
        And(Box<Pred>, Box<Pred>),
        Or(Box<Pred>, Box<Pred>),
    }

    fn pred() -> impl Strategy<Value = Pred> {
        atom()
            .prop_map(Pred::Atom)
            .prop_recursive(3, 12, 2, |inner| {
                prop_oneof![
                    inner.clone().prop_map(|p| Pred::Not(Box::new(p))),
                    (inner.clone(), inner.clone())
                        .prop_map(|(a, b)| Pred::And(Box::new(a), Box::new(b))),
                    (inner.clone(), inner).prop_map(|(a, b)| Pred::Or(Box::new(a), Box::new(b))),
                ]
            })
    }

    type Input = (Option<u8>, Vec<u8>);

    fn eval(p: &Pred, atom: &dyn Fn(&Atom) -> bool) -> bool {
        match p {
            Pred::Atom(a) => atom(a),
            Pred::Not(q) => !eval(q, atom),
            Pred::And(a, b) => eval(a, atom) && eval(b, atom),
            Pred::Or(a, b) => eval(a, atom) || eval(b, atom),
        }
    }

    fn atom_lazy(a: &Atom, x: Lazy<'_, Input>) -> bool {
        let (o, xs) = x.view();
        match a {
            Atom::IsSome => o.view().is_some(),
            Atom::OptLt(v) => o.view().is_some_and(|y| y.get() < *v),
            Atom::ElemLt(i, v) => xs.nth(*i).is_some_and(|y| y.get() < *v),
            Atom::LenGe(k) => xs.iter().take(*k).count() == *k,
            Atom::SumLt(k) => xs.iter().map(|y| u32::from(y.get())).sum::<u32>() < *k,
            Atom::Distinct => {
                let v: Vec<u8> = xs.iter().map(|y| y.get()).collect();
                (1..v.len()).all(|i| !v[..i].contains(&v[i]))
            }
        }
    }

    fn atom_plain(a: &Atom, x: &Input) -> bool {
        let (o, xs) = x;
        match a {
            Atom::IsSome => o.is_some(),
            Atom::OptLt(v) => o.is_some_and(|y| y < *v),
            Atom::ElemLt(i, v) => xs.get(*i).is_some_and(|y| y < v),
            Atom::LenGe(k) => xs.len() >= *k,
            Atom::SumLt(k) => xs.iter().map(|&y| u32::from(y)).sum::<u32>() < *k,
            Atom::Distinct => (1..xs.len()).all(|i| !xs[..i].contains(&xs[i])),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn random_lazy_predicates_cover_every_value_within_the_depth_once(
            p in pred(),
            depth in 0usize..=3,
        ) {
            check_exact::<Input>(
                depth,
                |x| eval(&p, &|a| atom_lazy(a, x)),
                |x| eval(&p, &|a| atom_plain(a, x)),
            );
        }
    }
}

//! The pruned space of one size: the values of exactly that size that no
//! run has ruled out, kept as a tree of refinements (Paper III's residual
//! space, built by in-place refinement).
//!
//! A node stands for a partial value: the positions its path fixed (each to
//! one alternative, or a leaf to one value) and the *holes* left, with the
//! values it stands for being every completion of the holes that makes the
//! whole value exactly the size. A run of the predicate on a value reads
//! positions in an order that depends only on what it has read so far, so
//! every value of a node reads the same first hole: a node that was run
//! through is *split* on that hole, one child per alternative (children made
//! only when a run reaches them), and the node a run ends in is *accepted*
//! (every value of it satisfies the predicate) or *dead* (none does).
//!
//! Each node keeps how many of its values are still alive, so a uniform
//! index among the alive values is turned into a value by one descent
//! (children in alternative order, leaf values in index order, an open
//! node's completions in the order of its holes), and a rejection costs the
//! length of the run's path: no recount of the space. Counts of completions
//! come from products of the holes' count series, cached per multiset of
//! hole sorts.

use super::count::{coefficient, product, Count};
use crate::feat::Counts;
use crate::grammar::{Grammar, ProdId, SortId, SortKind, Tree};
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

/// No node (a child not made yet).
const NONE: u32 = u32::MAX;

/// A run read positions in an order no earlier run on a value of the same
/// partial value read them: the predicate is not a function of what it
/// reads (it depends on a global state, randomness or time).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Inconsistent;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Not run through: every completion is alive.
    Open,
    /// Every value satisfies the predicate.
    Accepted,
    /// No value satisfies it (alive is zero).
    Dead,
    /// Run through: split on a hole (an index into `splits`).
    Split(u32),
}

#[derive(Clone, Debug)]
struct Node {
    alive: Count,
    state: State,
}

#[derive(Clone, Debug)]
struct Split {
    /// Which hole, by its index in the node's hole list.
    hole: u32,
    alts: Alternatives,
}

#[derive(Clone, Debug)]
enum Alternatives {
    /// An algebraic hole: its alternatives that have completions, in
    /// declaration order.
    Prods(Vec<AltChild>),
    /// A leaf hole: its values grouped by size, children by global index.
    Leaf {
        groups: Vec<LeafGroup>,
        children: BTreeMap<u64, u32>,
    },
}

#[derive(Clone, Debug)]
struct AltChild {
    prod: ProdId,
    /// Completions with this alternative at the hole.
    total: Count,
    child: u32,
}

/// The values of one size of a leaf hole: global indices
/// `first..=last`, each with `each` completions. Inclusive, because the
/// last group of a 64-bit family ends at `u64::MAX`: its end past the last
/// index does not fit 64 bits.
#[derive(Clone, Debug)]
struct LeafGroup {
    first: u64,
    last: u64,
    each: Count,
}

impl LeafGroup {
    fn values(&self) -> std::ops::RangeInclusive<u64> {
        self.first..=self.last
    }

    /// How many values the group holds (up to 2^64).
    fn len(&self) -> Count {
        Count::Small(u128::from(self.last - self.first) + 1)
    }
}

/// A partial value under construction: positions fixed so far and holes.
#[derive(Debug)]
enum Part {
    Hole,
    Node(ProdId, Vec<usize>),
    Done(Rc<Tree>),
}

/// Where a descent by index ended.
#[derive(Debug)]
pub(crate) struct Landing {
    /// The value at the index.
    pub tree: Tree,
    /// Whether every value of the node it ended in satisfies the predicate.
    pub accepted: bool,
    /// Its offset among the alive values of that node, and how many those
    /// are: the node's alive values are the indices
    /// `index - offset .. index - offset + node_alive`.
    pub offset: Count,
    pub node_alive: Count,
}

/// The count series of sorts, alternatives and products of sorts, up to
/// one size.
#[derive(Clone, Debug)]
struct Series {
    degree: usize,
    sorts: Vec<Option<Rc<Vec<Count>>>>,
    prods: Vec<Option<Rc<Vec<Count>>>>,
    products: HashMap<Vec<SortId>, Rc<Vec<Count>>>,
}

impl Series {
    fn new(g: &Grammar, degree: usize) -> Series {
        Series {
            degree,
            sorts: vec![None; g.sorts.len()],
            prods: vec![None; g.prods.len()],
            products: HashMap::new(),
        }
    }

    fn sort(&mut self, g: &Grammar, sort: SortId) -> Rc<Vec<Count>> {
        if let Some(s) = &self.sorts[sort.index()] {
            return s.clone();
        }
        let mut counts = Counts::of(g);
        let s: Rc<Vec<Count>> = Rc::new(
            (0..=self.degree)
                .map(|n| Count::from_big(counts.sort_count(sort, n)))
                .collect(),
        );
        self.sorts[sort.index()] = Some(s.clone());
        s
    }

    /// Values of one alternative (its cost included) by size.
    fn prod(&mut self, g: &Grammar, prod: ProdId) -> Rc<Vec<Count>> {
        if let Some(s) = &self.prods[prod.index()] {
            return s.clone();
        }
        let cost = g.prods[prod.index()].cost as usize;
        let mut counts = Counts::of(g);
        let s: Rc<Vec<Count>> = Rc::new(
            (0..=self.degree)
                .map(|n| match n.checked_sub(cost) {
                    Some(m) => Count::from_big(counts.suffix_count(prod, 0, m)),
                    None => Count::ZERO,
                })
                .collect(),
        );
        self.prods[prod.index()] = Some(s.clone());
        s
    }

    /// Completions of a multiset of holes by total size (`sorted`).
    fn product(&mut self, g: &Grammar, sorted: &[SortId]) -> Rc<Vec<Count>> {
        if let Some(p) = self.products.get(sorted) {
            return p.clone();
        }
        // A lazy atom's bits are free and of size 0: `b` of them multiply
        // the rest's series by `2^b`, with no product of series per bit (a
        // number read to its top bits leaves dozens).
        if let Some(bit) = g.bit_sort() {
            let bits = sorted.iter().filter(|&&s| s == bit).count();
            if bits > 0 {
                let rest: Vec<SortId> = sorted.iter().copied().filter(|&s| s != bit).collect();
                let rest = self.product(g, &rest);
                let factor = Count::from_big(num_bigint::BigUint::from(1u32) << bits);
                let scaled = Rc::new(rest.iter().map(|c| c.mul(&factor)).collect::<Vec<_>>());
                self.products.insert(sorted.to_vec(), scaled.clone());
                return scaled;
            }
        }
        // The longest cached prefix, then one sort at a time.
        let mut known = sorted.len();
        let mut acc = loop {
            if known == 0 {
                let mut unit = vec![Count::ZERO; self.degree + 1];
                unit[0] = Count::ONE;
                break Rc::new(unit);
            }
            if let Some(p) = self.products.get(&sorted[..known - 1]) {
                known -= 1;
                break p.clone();
            }
            known -= 1;
        };
        for len in known + 1..=sorted.len() {
            let s = self.sort(g, sorted[len - 1]);
            acc = Rc::new(product(&acc, &s, self.degree));
            self.products.insert(sorted[..len].to_vec(), acc.clone());
        }
        acc
    }
}

/// The alive values of one size of a grammar's root.
#[derive(Clone, Debug)]
pub(crate) struct Pruned {
    grammar: Rc<Grammar>,
    size: usize,
    nodes: Vec<Node>,
    splits: Vec<Split>,
    series: Series,
    /// Alive values in accepted nodes.
    accepted: Count,
}

/// A breadth-first numbering of a tree's positions: the arena layout of a
/// loaded value (`Engine::load`), which is what a run's reads index.
struct Numbered<'t> {
    trees: Vec<&'t Tree>,
    parent: Vec<u32>,
    first_child: Vec<u32>,
}

impl<'t> Numbered<'t> {
    fn new(tree: &'t Tree) -> Numbered<'t> {
        let mut n = Numbered {
            trees: vec![tree],
            parent: vec![NONE],
            first_child: vec![],
        };
        let mut at = 0;
        while at < n.trees.len() {
            let t = n.trees[at];
            n.first_child.push(crate::arena::id32(n.trees.len()));
            if let Tree::Node(_, kids) = t {
                for k in kids {
                    n.trees.push(k);
                    n.parent.push(crate::arena::id32(at));
                }
            }
            at += 1;
        }
        n
    }
}

impl Pruned {
    /// All values of `size` of the grammar's root, none ruled out.
    pub(crate) fn new(grammar: Rc<Grammar>, size: usize) -> Pruned {
        let mut series = Series::new(&grammar, size);
        let all = series.sort(&grammar, grammar.root)[size].clone();
        Pruned {
            grammar,
            size,
            nodes: vec![Node {
                alive: all,
                state: State::Open,
            }],
            splits: vec![],
            series,
            accepted: Count::ZERO,
        }
    }

    /// How many values are still alive (every satisfying value is).
    pub(crate) fn alive(&self) -> &Count {
        &self.nodes[0].alive
    }

    /// How many alive values are known to satisfy the predicate.
    pub(crate) fn accepted(&self) -> &Count {
        &self.accepted
    }

    /// Whether nothing was ruled out or accepted yet.
    pub(crate) fn untouched(&self) -> bool {
        self.nodes[0].state == State::Open
    }

    /// Nodes of the refinement tree (its memory is proportional).
    pub(crate) fn nodes(&self) -> usize {
        self.nodes.len()
    }

    fn node(&mut self, alive: Count) -> u32 {
        let id = crate::arena::id32(self.nodes.len());
        self.nodes.push(Node {
            alive,
            state: State::Open,
        });
        id
    }

    fn alive_of(&self, child: u32, otherwise: &Count) -> Count {
        if child == NONE {
            otherwise.clone()
        } else {
            self.nodes[child as usize].alive.clone()
        }
    }

    /// The alive value number `index` (below [`Pruned::alive`]).
    pub(crate) fn value_at(&mut self, mut index: Count) -> Landing {
        debug_assert!(index < *self.alive());
        let g = self.grammar.clone();
        let mut parts = vec![Part::Hole];
        let mut holes: Vec<(SortId, usize)> = vec![(g.root, 0)];
        let mut residual = self.size;
        let mut node = 0u32;
        loop {
            let state = self.nodes[node as usize].state;
            let sid = match state {
                State::Split(sid) => sid,
                State::Open | State::Accepted => {
                    let node_alive = self.nodes[node as usize].alive.clone();
                    let offset = index.clone();
                    self.complete(&mut parts, &holes, residual, index);
                    return Landing {
                        tree: assemble(parts),
                        accepted: state == State::Accepted,
                        offset,
                        node_alive,
                    };
                }
                State::Dead => unreachable!("a dead node has no alive value"),
            };
            let split = &self.splits[sid as usize];
            let (hole_sort, at) = holes.remove(split.hole as usize);
            match &split.alts {
                Alternatives::Prods(alts) => {
                    let mut chosen = None;
                    for alt in alts {
                        let w = self.alive_of(alt.child, &alt.total);
                        if index < w {
                            chosen = Some((alt.prod, alt.child, w));
                            break;
                        }
                        index = index.sub(&w);
                    }
                    let (prod, child, w) = chosen.expect("neatcheck: pruned index out of range");
                    let p = &g.prods[prod.index()];
                    let mut kids = Vec::with_capacity(p.slots.len());
                    for &slot in &p.slots {
                        kids.push(parts.len());
                        holes.push((slot, parts.len()));
                        parts.push(Part::Hole);
                    }
                    parts[at] = Part::Node(prod, kids);
                    residual -= p.cost as usize;
                    node = child;
                    if node == NONE {
                        // Completions of an unreached alternative: all alive.
                        let offset = index.clone();
                        self.complete(&mut parts, &holes, residual, index);
                        return Landing {
                            tree: assemble(parts),
                            accepted: false,
                            offset,
                            node_alive: w,
                        };
                    }
                }
                Alternatives::Leaf { groups, children } => {
                    let (value, child, w) = pick_leaf(groups, children, &self.nodes, &mut index);
                    parts[at] = Part::Done(Rc::new(Tree::Leaf(hole_sort, value)));
                    residual -= g.leaf_size(hole_sort, value) as usize;
                    node = child;
                    if node == NONE {
                        let offset = index.clone();
                        self.complete(&mut parts, &holes, residual, index);
                        return Landing {
                            tree: assemble(parts),
                            accepted: false,
                            offset,
                            node_alive: w,
                        };
                    }
                }
            }
        }
    }

    /// Fills the holes with their completion number `index`: hole by hole,
    /// the size first (weighted by the completions of the holes after it),
    /// then the hole's own value by FEAT indexing.
    fn complete(
        &mut self,
        parts: &mut [Part],
        holes: &[(SortId, usize)],
        mut residual: usize,
        mut index: Count,
    ) {
        let g = self.grammar.clone();
        for (j, &(sort, at)) in holes.iter().enumerate() {
            let mut rest: Vec<SortId> = holes[j + 1..].iter().map(|h| h.0).collect();
            rest.sort_unstable();
            let rest = self.series.product(&g, &rest);
            let own = self.series.sort(&g, sort);
            let mut chosen = None;
            for s in 0..=residual {
                let ways = own[s].mul(&rest[residual - s]);
                if index < ways {
                    chosen = Some(s);
                    break;
                }
                index = index.sub(&ways);
            }
            let s = chosen.expect("neatcheck: completion index out of range");
            let (q, r) = index.div_rem(&rest[residual - s]);
            index = r;
            parts[at] = Part::Done(Rc::new(g.index_tree(sort, s, &q.to_big())));
            residual -= s;
        }
    }

    /// Records a run on `tree` (a value of this size): `reads` are the
    /// positions it read, in order, numbered breadth first; `satisfied` is
    /// its verdict. The node of the positions read becomes accepted, or
    /// dead and its values are removed.
    pub(crate) fn record(
        &mut self,
        tree: &Tree,
        reads: &[u32],
        satisfied: bool,
    ) -> Result<(), Inconsistent> {
        let g = self.grammar.clone();
        let numbered = Numbered::new(tree);
        let mut fixed = vec![false; numbered.trees.len()];
        let mut holes: Vec<(SortId, u32)> = vec![(g.root, 0)];
        let mut residual = self.size;
        let mut node = 0u32;
        let mut path = vec![0u32];
        let mut ancestors = vec![];
        for &read in reads {
            if read as usize >= fixed.len() || fixed[read as usize] {
                continue;
            }
            // A position is only reached through its parent: the parent's
            // alternative was demanded first.
            ancestors.clear();
            let mut q = read;
            loop {
                ancestors.push(q);
                let p = numbered.parent[q as usize];
                if p == NONE || fixed[p as usize] {
                    break;
                }
                q = p;
            }
            while let Some(q) = ancestors.pop() {
                let hole = holes
                    .iter()
                    .position(|h| h.1 == q)
                    .expect("neatcheck: a read position is neither fixed nor a hole");
                let sid = match self.nodes[node as usize].state {
                    State::Split(sid) => {
                        if self.splits[sid as usize].hole as usize != hole {
                            return Err(Inconsistent);
                        }
                        sid
                    }
                    State::Open => self.split(node, &holes, hole, residual),
                    State::Accepted | State::Dead => return Err(Inconsistent),
                };
                let t = numbered.trees[q as usize];
                node = self.child(sid, t);
                path.push(node);
                holes.remove(hole);
                match t {
                    Tree::Node(prod, kids) => {
                        let p = &g.prods[prod.index()];
                        let first = numbered.first_child[q as usize];
                        for (i, &slot) in p.slots.iter().enumerate().take(kids.len()) {
                            holes.push((slot, first + crate::arena::id32(i)));
                        }
                        residual -= p.cost as usize;
                    }
                    Tree::Leaf(sort, value) => residual -= g.leaf_size(*sort, *value) as usize,
                }
                fixed[q as usize] = true;
            }
        }
        let end = &mut self.nodes[node as usize];
        match (end.state, satisfied) {
            (State::Open, true) => {
                end.state = State::Accepted;
                let alive = end.alive.clone();
                self.accepted.add_assign(&alive);
            }
            (State::Open, false) => {
                end.state = State::Dead;
                let gone = end.alive.clone();
                for &n in &path {
                    let n = &mut self.nodes[n as usize];
                    n.alive = n.alive.sub(&gone);
                }
            }
            // The class was decided before, the same way.
            (State::Accepted, true) | (State::Dead, false) => {}
            _ => return Err(Inconsistent),
        }
        Ok(())
    }

    /// Whether a run has ruled out `tree` (a value of this size): the
    /// descent along its choices at the split holes ends in a dead node.
    /// No run was made on it, so no node is made.
    pub(crate) fn rules_out(&self, tree: &Tree) -> bool {
        let numbered = Numbered::new(tree);
        let mut holes: Vec<u32> = vec![0];
        let mut node = 0u32;
        loop {
            let sid = match self.nodes[node as usize].state {
                State::Dead => return true,
                State::Open | State::Accepted => return false,
                State::Split(sid) => sid,
            };
            let split = &self.splits[sid as usize];
            let Some(&q) = holes.get(split.hole as usize) else {
                return false;
            };
            holes.remove(split.hole as usize);
            let t = numbered.trees[q as usize];
            node = match (&split.alts, t) {
                (Alternatives::Prods(alts), Tree::Node(prod, kids)) => {
                    let first = numbered.first_child[q as usize];
                    holes.extend((0..kids.len()).map(|i| first + crate::arena::id32(i)));
                    alts.iter()
                        .find(|a| a.prod == *prod)
                        .map_or(NONE, |a| a.child)
                }
                (Alternatives::Leaf { children, .. }, Tree::Leaf(_, value)) => {
                    children.get(value).copied().unwrap_or(NONE)
                }
                _ => return false,
            };
            if node == NONE {
                return false;
            }
        }
    }

    /// Splits open node `node` on hole number `hole`: the completions of
    /// each alternative (or leaf value) of the hole.
    fn split(&mut self, node: u32, holes: &[(SortId, u32)], hole: usize, residual: usize) -> u32 {
        let g = self.grammar.clone();
        let sort = holes[hole].0;
        let mut others: Vec<SortId> = holes
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != hole)
            .map(|(_, h)| h.0)
            .collect();
        others.sort_unstable();
        let others = self.series.product(&g, &others);
        let alts = match &g.sorts[sort.index()].kind {
            SortKind::Algebraic { decl, .. } => {
                let mut alts = vec![];
                for &prod in decl {
                    let own = self.series.prod(&g, prod);
                    let total = coefficient(&own[..=residual], &others, residual);
                    if !total.is_zero() {
                        alts.push(AltChild {
                            prod,
                            total,
                            child: NONE,
                        });
                    }
                }
                Alternatives::Prods(alts)
            }
            SortKind::Leaf { .. } => {
                let own = self.series.sort(&g, sort);
                let mut groups = vec![];
                let mut first = 0u64;
                for s in 0..=residual {
                    let len = match &own[s] {
                        Count::Small(n) => u64::try_from(*n).ok(),
                        Count::Big(_) => None,
                    };
                    let Some(len) = len else {
                        // Global indices past 64 bits: no tree holds them.
                        break;
                    };
                    let each = others[residual - s].clone();
                    if len > 0 && !each.is_zero() {
                        groups.push(LeafGroup {
                            first,
                            last: first + (len - 1),
                            each,
                        });
                    }
                    match first.checked_add(len) {
                        Some(f) => first = f,
                        None => break,
                    }
                }
                Alternatives::Leaf {
                    groups,
                    children: BTreeMap::new(),
                }
            }
        };
        let sid = crate::arena::id32(self.splits.len());
        self.splits.push(Split {
            hole: crate::arena::id32(hole),
            alts,
        });
        self.nodes[node as usize].state = State::Split(sid);
        sid
    }

    /// The child of split `sid` for the choice `t` made at its hole (made
    /// now if no run reached it before).
    fn child(&mut self, sid: u32, t: &Tree) -> u32 {
        let made = self.nodes.len();
        let next = crate::arena::id32(made);
        let split = &mut self.splits[sid as usize];
        let (child, alive) = match (&mut split.alts, t) {
            (Alternatives::Prods(alts), Tree::Node(prod, _)) => {
                let alt = alts
                    .iter_mut()
                    .find(|a| a.prod == *prod)
                    .expect("neatcheck: a value's alternative has no completions");
                if alt.child == NONE {
                    alt.child = next;
                }
                (alt.child, alt.total.clone())
            }
            (Alternatives::Leaf { groups, children }, Tree::Leaf(_, value)) => {
                let each = groups
                    .iter()
                    .find(|gr| gr.values().contains(value))
                    .map(|gr| gr.each.clone())
                    .unwrap_or_else(|| {
                        crate::internal::raise(format!(
                            "the pruned space has no leaf value {value} at its hole"
                        ))
                    });
                (*children.entry(*value).or_insert(next), each)
            }
            _ => unreachable!("a split's alternatives match its hole's sort"),
        };
        if child == next {
            self.node(alive);
        }
        child
    }
}

/// Picks the leaf value of a leaf split holding alive index `index`
/// (updated to the offset inside the chosen child).
fn pick_leaf(
    groups: &[LeafGroup],
    children: &BTreeMap<u64, u32>,
    nodes: &[Node],
    index: &mut Count,
) -> (u64, u32, Count) {
    for gr in groups {
        // Alive values of the group: every value's completions, less what
        // runs removed under the values reached.
        let mut alive = gr.each.mul(&gr.len());
        for (_, &c) in children.range(gr.values()) {
            alive = alive.sub(&gr.each.sub(&nodes[c as usize].alive));
        }
        if *index >= alive {
            *index = index.sub(&alive);
            continue;
        }
        // The first value not passed yet; `None` once past `u64::MAX`.
        let mut at = Some(gr.first);
        for (&v, &c) in children.range(gr.values()) {
            let from = at.expect("a reached value follows the values passed");
            let gap = gr.each.mul(&Count::from(v - from));
            if *index < gap {
                let (q, r) = index.div_rem(&gr.each);
                *index = r;
                return (from + to_u64(&q), NONE, gr.each.clone());
            }
            *index = index.sub(&gap);
            let w = nodes[c as usize].alive.clone();
            if *index < w {
                return (v, c, w);
            }
            *index = index.sub(&w);
            at = v.checked_add(1);
        }
        let from = at.expect("an alive value follows the values reached");
        let (q, r) = index.div_rem(&gr.each);
        *index = r;
        return (from + to_u64(&q), NONE, gr.each.clone());
    }
    unreachable!("neatcheck: pruned leaf index out of range")
}

fn to_u64(c: &Count) -> u64 {
    match c {
        Count::Small(n) => u64::try_from(*n).expect("a leaf offset fits 64 bits"),
        Count::Big(_) => unreachable!("a leaf offset fits 64 bits"),
    }
}

/// The tree of a complete partial value (children come after their parent
/// in `parts`, so building from the end meets every child first).
fn assemble(mut parts: Vec<Part>) -> Tree {
    let mut built: Vec<Option<Rc<Tree>>> = vec![None; parts.len()];
    for i in (0..parts.len()).rev() {
        let t = match std::mem::replace(&mut parts[i], Part::Hole) {
            Part::Done(t) => t,
            Part::Node(prod, kids) => Rc::new(Tree::Node(
                prod,
                kids.iter()
                    .map(|&k| built[k].take().expect("a child is built before its parent"))
                    .collect(),
            )),
            Part::Hole => unreachable!("a completed value has no hole"),
        };
        built[i] = Some(t);
    }
    let root = built[0].take().expect("the root is built");
    Rc::try_unwrap(root).unwrap_or_else(|t| (*t).clone())
}

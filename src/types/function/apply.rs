//! Applying a function: following its decisions for an argument (a plain
//! value's tree, or positions of the run's arena read lazily), in the run's
//! arena or in decisions built whole; where a function's decisions are
//! ([`Decisions`], [`Core`]) and when two are the same.

use super::super::{grammar_of, Enumerable};
use super::space::*;
use crate::grammar::{Grammar, ProdId, SortId, SortKind, Tree};
use crate::handle::{Ctx, Lazy};
use std::marker::PhantomData;
use std::rc::Rc;

/// A pending position of an argument: a plain argument's tree, or a
/// position of the run's arena (an argument read lazily).
pub(super) trait Argument: Position {
    /// `self <= key` for the split key at node `key` of the run's arena,
    /// reading only what decides it.
    fn at_most(&self, g: &Grammar, ctx: &Ctx<'_>, key: u32) -> bool;
}

impl Position for Rc<Tree> {
    fn sort(&self, g: &Grammar) -> SortId {
        match &**self {
            Tree::Node(prod, _) => g.prods[prod.index()].sort,
            Tree::Leaf(sort, _) => *sort,
        }
    }
    fn open(self, _: &Grammar) -> (ProdId, Vec<Self>) {
        match &*self {
            Tree::Node(prod, kids) => (*prod, kids.clone()),
            Tree::Leaf(..) => unreachable!("leaves are passed, not opened"),
        }
    }
}

impl Argument for Rc<Tree> {
    fn at_most(&self, g: &Grammar, ctx: &Ctx<'_>, key: u32) -> bool {
        at_most_key(ctx, atom_key(g, self), key)
    }
}

/// A position of the run's arena holding an argument's part, with its sort
/// in the argument type's grammar (the same description compiled twice:
/// the same alternatives by tag, the same fields).
#[derive(Clone, Copy)]
pub(super) struct ArenaArgument<'c> {
    pub(super) ctx: &'c Ctx<'c>,
    pub(super) node: u32,
    pub(super) sort: SortId,
}

impl Position for ArenaArgument<'_> {
    fn sort(&self, _: &Grammar) -> SortId {
        self.sort
    }
    fn open(self, g: &Grammar) -> (ProdId, Vec<Self>) {
        let n = self.ctx.touch(self.node);
        let SortKind::Algebraic { decl, .. } = &g.sorts[self.sort.index()].kind else {
            unreachable!("leaves are passed, not opened")
        };
        let prod = *decl
            .iter()
            .find(|p| g.prods[p.index()].tag == n.tag())
            .expect("the same alternatives in both grammars");
        let first = n.first_field();
        let fields = g.prods[prod.index()]
            .slots
            .iter()
            .zip(first..)
            .map(|(&sort, node)| ArenaArgument { sort, node, ..self })
            .collect();
        (prod, fields)
    }
}

impl Argument for ArenaArgument<'_> {
    fn at_most(&self, _: &Grammar, ctx: &Ctx<'_>, key: u32) -> bool {
        // Both lazy: narrow both ranges a bit at a time, the argument's
        // first, until they are ordered.
        let (mut x, mut k) = (AtomCursor::new(ctx, self.node), AtomCursor::new(ctx, key));
        loop {
            let ((x_low, x_high), (k_low, k_high)) = (x.range(), k.range());
            if x_high <= k_low {
                return true;
            }
            if x_low > k_high {
                return false;
            }
            if !x.read_bit(ctx) && !k.read_bit(ctx) {
                unreachable!("two whole atoms are ordered")
            }
        }
    }
}

/// A lazy atom read from its most significant bit down.
pub(super) struct AtomCursor {
    pub(super) block: crate::describe::AtomBlock,
    pub(super) first: u32,
    pub(super) prefix: u64,
    pub(super) known: u32,
}

impl AtomCursor {
    pub(super) fn new(ctx: &Ctx<'_>, node: u32) -> AtomCursor {
        let n = ctx.touch(node);
        let block = ctx.grammar.prods[n.prod().index()]
            .atom
            .expect("an integer or character position");
        AtomCursor {
            block,
            first: n.first_field(),
            prefix: 0,
            known: 0,
        }
    }

    /// The least and greatest key it may still be.
    pub(super) fn range(&self) -> (i128, i128) {
        self.block.key_range(self.prefix, self.known)
    }

    /// Reads one more bit; false when all are read.
    pub(super) fn read_bit(&mut self, ctx: &Ctx<'_>) -> bool {
        if self.known == self.block.free {
            return false;
        }
        self.prefix = self.prefix << 1 | u64::from(ctx.touch(self.first + self.known).tag());
        self.known += 1;
        true
    }
}

/// The position of `prod` in its sort's chain: the branch a case takes.
pub(super) fn branch_of(g: &Grammar, prod: ProdId) -> usize {
    match &g.sorts[g.prods[prod.index()].sort.index()].kind {
        SortKind::Algebraic { chain, .. } => chain
            .iter()
            .position(|&p| p == prod)
            .expect("an alternative of its sort"),
        SortKind::Leaf { .. } => unreachable!("cases are on alternatives"),
    }
}

/// The key of an integer or character tree.
pub(super) fn atom_key(g: &Grammar, t: &Tree) -> i128 {
    let (sort, index) = g.atomic_index(t).expect("an integer or character tree");
    let family = g.atom_family(sort).expect("an atom's family");
    let (block, bits) = family.locate(u128::from(index));
    family.blocks[block].key(bits)
}

// ---------------------------------------------------------------------------
// Application
// ---------------------------------------------------------------------------

/// `x <= key` for the split key at `node`, reading only the bits of the
/// key that decide it.
pub(super) fn at_most_key(ctx: &Ctx<'_>, x: i128, node: u32) -> bool {
    let mut key = AtomCursor::new(ctx, node);
    loop {
        let (low, high) = key.range();
        if x <= low {
            return true;
        }
        if x > high || !key.read_bit(ctx) {
            return false;
        }
    }
}

/// Follows the decisions at `node` in the run's arena for the argument
/// positions `pending` (head last), reading each decision node (and, for
/// an argument in the arena, the parts the decisions look at); the node of
/// the result.
pub(super) fn result_node<P: Argument>(
    ctx: &Ctx<'_>,
    g: &Grammar,
    mut node: u32,
    mut pending: Vec<P>,
) -> u32 {
    settle(g, &mut pending, |_| {});
    while let Some(top) = pending.pop() {
        let n = ctx.touch(node);
        let first = n.first_field();
        if n.tag() == 0 {
            settle(g, &mut pending, |_| {});
            node = first;
        } else if head(g, top.sort(g)).is_atom() {
            node = first + if top.at_most(g, ctx, first) { 1 } else { 2 };
            pending.push(top);
        } else {
            let (prod, fields) = top.open(g);
            pending.extend(fields.into_iter().rev());
            settle(g, &mut pending, |_| {});
            node = first + crate::arena::id32(branch_of(g, prod));
        }
    }
    node
}

/// Follows built decisions for the argument `tree`: the result.
pub(super) fn built_result<'d, B>(g: &Grammar, mut d: &'d Decision<B>, tree: Tree) -> &'d B {
    let mut pending = vec![Rc::new(tree)];
    settle(g, &mut pending, |_| {});
    loop {
        match d {
            Decision::Result(b) => return b,
            Decision::Skip(next) => {
                pending.pop();
                settle(g, &mut pending, |_| {});
                d = next;
            }
            Decision::Case(branches) => {
                let top = pending.pop().expect("a pending position");
                let (prod, fields) = top.open(g);
                pending.extend(fields.into_iter().rev());
                settle(g, &mut pending, |_| {});
                d = &branches[branch_of(g, prod)];
            }
            Decision::Split(key, low, high) => {
                let top = pending.last().expect("a pending position");
                d = if atom_key(g, top) <= *key { low } else { high };
            }
        }
    }
}

/// Where a function's decisions are.
pub(super) enum Decisions<B> {
    /// In the arena of the run `serial`, under the function's root node.
    Live { serial: u64, root: u32 },
    /// Built whole.
    Built(Decision<B>),
}

/// A function with arguments `Args` (a pair for [`Fun2`]): its decisions,
/// and their application to an argument tree.
pub(super) struct Core<Args, B> {
    pub(super) decisions: Decisions<B>,
    pub(super) _args: PhantomData<fn(&Args)>,
}

impl<Args: Enumerable, B: Enumerable + Clone> Core<Args, B> {
    pub(super) fn built(d: Decision<B>) -> Self {
        Core {
            decisions: Decisions::Built(d),
            _args: PhantomData,
        }
    }

    /// The function at a root position of the run in progress, if any.
    pub(super) fn live<T>(root: Lazy<'_, T>) -> Option<Self> {
        Some(Core {
            decisions: Decisions::Live {
                serial: crate::handle::current_run()?,
                root: root.node,
            },
            _args: PhantomData,
        })
    }

    /// The result for the argument `make_tree` gives in the argument
    /// type's grammar.
    pub(super) fn apply(&self, make_tree: impl FnOnce(&Grammar) -> Option<Tree>) -> B {
        match &self.decisions {
            Decisions::Built(d) => {
                let g = grammar_of::<Args>();
                let tree = make_tree(&g).unwrap_or_else(|| cannot_take_apart::<Args>());
                built_result(&g, d, tree).clone()
            }
            Decisions::Live { serial, root } => crate::handle::with_run(*serial, |ctx| {
                let (shape, start) = live_root(ctx, *root);
                let tree = make_tree(&shape.arg).unwrap_or_else(|| cannot_take_apart::<Args>());
                let at = result_node(ctx, &shape.arg, start, vec![Rc::new(tree)]);
                B::force_lazy(Lazy::new(ctx, at))
            })
            .unwrap_or_else(|| {
                crate::internal::raise(format!(
                    "a function input (of `{}`) was called after the run that made it ended, or \
                     on another thread: a property's function inputs can be called only while \
                     it runs",
                    std::any::type_name::<Args>()
                ))
            }),
        }
    }
}

/// The shape of the function at a root node, and its first decision's node
/// (read without recording: the root has a single alternative, so a
/// function that is never applied reads nothing at all).
pub(super) fn live_root(ctx: &Ctx<'_>, root: u32) -> (Rc<FunShape>, u32) {
    let node = &ctx.nodes[root as usize];
    let shape = function_shape(&ctx.grammar.prods[node.prod().index()])
        .unwrap_or_else(|| not_a_function_position());
    (shape, node.first_field())
}

pub(super) fn cannot_take_apart<Args>() -> ! {
    crate::internal::raise(format!(
        "a function input (of `{}`) was applied to an argument that can not be taken apart (a \
         float, a set or map, or a field with a space of its own): functions decide on \
         integers, characters and the derived and standard algebraic types",
        std::any::type_name::<Args>()
    ))
}

/// Whether two handles are positions of one arena (a handle of another
/// search is read whole).
pub(super) fn same_run(a: &Ctx<'_>, b: &Ctx<'_>) -> bool {
    std::ptr::eq(a.nodes.as_ptr(), b.nodes.as_ptr())
}

pub(super) fn not_a_function_position() -> ! {
    crate::internal::raise(
        "this position holds another space than a function type's own: it can be forced, \
         not applied"
            .to_string(),
    )
}

/// Two functions are equal when they are the same decisions: built ones
/// with equal decisions and results (not merely the same values on every
/// argument), or the same function of one run.
impl<B: PartialEq> PartialEq for Decisions<B> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (
                Decisions::Live { serial, root },
                Decisions::Live {
                    serial: serial2,
                    root: root2,
                },
            ) => serial == serial2 && root == root2,
            (Decisions::Built(a), Decisions::Built(b)) => {
                let mut pairs = vec![(a, b)];
                while let Some((a, b)) = pairs.pop() {
                    match (a, b) {
                        (Decision::Result(x), Decision::Result(y)) if x == y => {}
                        (Decision::Skip(x), Decision::Skip(y)) => pairs.push((x, y)),
                        (Decision::Case(xs), Decision::Case(ys)) if xs.len() == ys.len() => {
                            pairs.extend(xs.iter().zip(ys))
                        }
                        (Decision::Split(k, x1, x2), Decision::Split(l, y1, y2)) if k == l => {
                            pairs.push((x1, y1));
                            pairs.push((x2, y2));
                        }
                        _ => return false,
                    }
                }
                true
            }
            _ => false,
        }
    }
}

impl<B: std::hash::Hash> std::hash::Hash for Decisions<B> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        match self {
            Decisions::Live { serial, root } => (0u8, serial, root).hash(state),
            Decisions::Built(d) => {
                // Pre-order, iterative: the shape and every key and result.
                let mut stack = vec![d];
                while let Some(d) = stack.pop() {
                    match d {
                        Decision::Result(b) => (1u8, b).hash(state),
                        Decision::Skip(next) => {
                            2u8.hash(state);
                            stack.push(next);
                        }
                        Decision::Case(branches) => {
                            (3u8, branches.len()).hash(state);
                            stack.extend(branches.iter().rev());
                        }
                        Decision::Split(key, low, high) => {
                            (4u8, key).hash(state);
                            stack.push(high);
                            stack.push(low);
                        }
                    }
                }
            }
        }
    }
}

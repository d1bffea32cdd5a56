//! Functions as inputs: [`Fun`] and [`Fun2`], enumerated the NEAT way, by
//! case distinctions on the argument and constant results (Paper II,
//! section 3.1), and read lazily.
//!
//! A function's decisions walk its argument in pre-order, one *pending*
//! position at a time (the curried form `A -> B` becomes, after a case on a
//! constructor with fields `F1..Fk`, `F1 -> .. -> Fk -> B`). At each
//! position it may *skip* (not look) or *decide*: a case on the position's
//! alternative (one branch per alternative, each a function of that
//! alternative's fields and of what is still pending), or, for an integer or
//! a character, a split at a key (`x <= key`, each side a function of the
//! same pending positions). A position with a single alternative (a struct,
//! a tuple) is opened for free, and one that can not be decided on (a float)
//! is skipped for free. With nothing pending, the function is its result.
//! A case or a split costs 1, so the size of a function is its number of
//! decisions plus the sizes of its keys and results, as in the paper.
//!
//! Each list of pending sorts is a sort of the grammar (a run-time key per
//! list, interned per function type and thread), so counting, indexing,
//! sampling, replay keys, shrinking and the search treat function spaces
//! like any other. Applied during a run, a function reads its decision
//! nodes through the run's context (found by `handle::with_run`): never
//! applied, it costs nothing; applied, the search refines exactly the
//! decisions and results the property reached. Built from a tree (reports,
//! replay, sampling), it holds its decisions ([`Decision`]).

use super::unbuild::Unbuild;
use super::{grammar_of, of, Enumerable};
use crate::describe::{fresh_keys, AtomFamily, Raw, RefKey, Shape, TypeRef, Value};
use crate::grammar::{Grammar, ProdId, SortId, SortKind, Tree};
use crate::handle::{Ctx, Lazy};
use std::any::Any;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;
use std::rc::Rc;
use std::sync::Arc;

/// How many argument positions may be pending at once. Only arguments with
/// two recursive fields in one constructor (trees) grow the list without
/// bound: past this, a function no longer decides on the first pending
/// position before skipping some (it can still skip and decide later).
const MAX_PENDING: usize = 8;

/// How many pending lists one function type may have, past which new lists
/// only skip (a guard against arguments with very many sorts).
const MAX_LISTS: usize = 4096;

/// What the printers and the application need of a function type: the
/// argument's compiled grammar (the sorts its decisions are over), how many
/// arguments to name, and the type's name. The meta of a function's root
/// alternative.
pub(crate) struct FunShape {
    arg: Rc<Grammar>,
    /// How many arguments the printer names (`|x|`, `|x, y|`).
    arity: usize,
    name: String,
}

impl fmt::Debug for FunShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FunShape({})", self.name)
    }
}

impl FunShape {
    fn family(&self, sort: SortId) -> &Rc<AtomFamily> {
        self.arg.atom_family(sort).expect("an atom's family")
    }
}

/// The space of a pending list: its reference, and its definition once
/// made.
type ListSpace = (Rc<Raw>, Option<Rc<Raw>>);

/// A function of two arguments as a callable.
type Callable2<A1, A2, B> = dyn Fn(&A1, &A2) -> B + Send + Sync;

/// Makes the space of one function type with results `B` (per thread):
/// interns the lists of pending positions.
struct Builder<B> {
    shape: Rc<FunShape>,
    result: Rc<Raw>,
    /// Per pending list (head last): its reference, and its definition once
    /// made.
    lists: RefCell<HashMap<Vec<SortId>, ListSpace>>,
    /// Per integer or character sort of the argument: the space of its
    /// split keys.
    keys: RefCell<HashMap<SortId, Rc<Raw>>>,
    _result: PhantomData<fn() -> B>,
}

/// What a function does with its first pending position, by the
/// position's sort.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Head {
    /// One alternative: opened for free (its fields become pending).
    Open(ProdId),
    /// Nothing to decide on (a float, a seed): skipped for free.
    Pass,
    /// An integer or a character: skip, or split at a key.
    Atom,
    /// Several alternatives: skip, or a case.
    Case,
}

impl Head {
    fn is_atom(self) -> bool {
        self == Head::Atom
    }
}

fn head(g: &Grammar, sort: SortId) -> Head {
    let s = &g.sorts[sort.index()];
    if s.atom.is_some() {
        return Head::Atom;
    }
    match &s.kind {
        SortKind::Algebraic { chain, .. } if chain.len() == 1 => Head::Open(chain[0]),
        SortKind::Algebraic { chain, .. } if chain.len() > 1 => Head::Case,
        _ => Head::Pass,
    }
}

/// Opens and passes head positions until one can be decided on (or none is
/// pending). `opened` is told each step, `Some(prod)` for an opened
/// alternative and `None` for a passed position (printers record them).
fn settle_sorts(g: &Grammar, pending: &mut Vec<SortId>, mut opened: impl FnMut(Option<ProdId>)) {
    while let Some(&sort) = pending.last() {
        match head(g, sort) {
            Head::Open(prod) => {
                pending.pop();
                pending.extend(g.prods[prod.index()].slots.iter().rev());
                opened(Some(prod));
            }
            Head::Pass => {
                pending.pop();
                opened(None);
            }
            Head::Atom | Head::Case => return,
        }
    }
}

/// A pending position of an argument: a plain argument's tree, or a
/// position of the run's arena (an argument read lazily).
trait Argument: Sized {
    /// Its sort in the argument type's grammar.
    fn sort(&self, g: &Grammar) -> SortId;
    /// Its alternative and its fields (reading it, in the arena).
    fn open(self, g: &Grammar) -> (ProdId, Vec<Self>);
    /// `self <= key` for the split key at node `key` of the run's arena,
    /// reading only what decides it.
    fn at_most(&self, g: &Grammar, ctx: &Ctx<'_>, key: u32) -> bool;
}

impl Argument for Rc<Tree> {
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
    fn at_most(&self, g: &Grammar, ctx: &Ctx<'_>, key: u32) -> bool {
        at_most_key(ctx, atom_key(g, self), key)
    }
}

/// A position of the run's arena holding an argument's part, with its sort
/// in the argument type's grammar (the same description compiled twice:
/// the same alternatives by tag, the same fields).
#[derive(Clone, Copy)]
struct ArenaArgument<'c> {
    ctx: &'c Ctx<'c>,
    node: u32,
    sort: SortId,
}

impl Argument for ArenaArgument<'_> {
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
struct AtomCursor {
    block: crate::describe::AtomBlock,
    first: u32,
    prefix: u64,
    known: u32,
}

impl AtomCursor {
    fn new(ctx: &Ctx<'_>, node: u32) -> AtomCursor {
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
    fn range(&self) -> (i128, i128) {
        self.block.key_range(self.prefix, self.known)
    }

    /// Reads one more bit; false when all are read.
    fn read_bit(&mut self, ctx: &Ctx<'_>) -> bool {
        if self.known == self.block.free {
            return false;
        }
        self.prefix = self.prefix << 1 | u64::from(ctx.touch(self.first + self.known).tag());
        self.known += 1;
        true
    }
}

/// [`settle_sorts`] on an argument's pending positions.
fn settle<P: Argument>(g: &Grammar, pending: &mut Vec<P>) {
    while let Some(top) = pending.last() {
        match head(g, top.sort(g)) {
            Head::Open(_) => {
                let top = pending.pop().expect("a head");
                let (_, fields) = top.open(g);
                pending.extend(fields.into_iter().rev());
            }
            Head::Pass => {
                pending.pop();
            }
            Head::Atom | Head::Case => return,
        }
    }
}

/// The position of `prod` in its sort's chain: the branch a case takes.
fn branch_of(g: &Grammar, prod: ProdId) -> usize {
    match &g.sorts[g.prods[prod.index()].sort.index()].kind {
        SortKind::Algebraic { chain, .. } => chain
            .iter()
            .position(|&p| p == prod)
            .expect("an alternative of its sort"),
        SortKind::Leaf { .. } => unreachable!("cases are on alternatives"),
    }
}

/// The key of an integer or character tree.
fn atom_key(g: &Grammar, t: &Tree) -> i128 {
    let Tree::Node(prod, bits) = t else {
        unreachable!("an atom is a block and its bits")
    };
    let block = g.prods[prod.index()].atom.expect("an atom's block");
    let n = bits.iter().fold(0u64, |acc, b| match &**b {
        Tree::Node(bit, _) => acc << 1 | u64::from(g.prods[bit.index()].tag),
        Tree::Leaf(..) => acc << 1,
    });
    block.key(n)
}

/// The type whose space the sorts inside a function are (its decisions and
/// split keys): no handle is ever typed so, so typed reads stay trusted.
struct FunctionPart;

/// A function's decisions built whole (see the module comment).
enum Decision<B> {
    /// Nothing pending: the result.
    Result(B),
    /// The first pending position is not looked at.
    Skip(Box<Decision<B>>),
    /// One branch per alternative of the first pending position, in chain
    /// order.
    Case(Vec<Decision<B>>),
    /// `x <= key` takes the first, otherwise the second.
    Split(i128, Box<Decision<B>>, Box<Decision<B>>),
}

impl<B> Drop for Decision<B> {
    fn drop(&mut self) {
        // Iterative: a function of a long random case nests deeply.
        fn take<B>(d: &mut Decision<B>, stack: &mut Vec<Decision<B>>) {
            let hollow = || Decision::Case(vec![]);
            match d {
                Decision::Result(_) => {}
                Decision::Skip(k) => stack.push(std::mem::replace(&mut **k, hollow())),
                Decision::Case(ks) => stack.append(ks),
                Decision::Split(_, a, b) => {
                    stack.push(std::mem::replace(&mut **a, hollow()));
                    stack.push(std::mem::replace(&mut **b, hollow()));
                }
            }
        }
        let mut stack = vec![];
        take(self, &mut stack);
        while let Some(mut d) = stack.pop() {
            take(&mut d, &mut stack);
        }
    }
}

/// The decisions a child list's value is: the result itself when nothing
/// is pending.
fn as_decision<B: 'static>(v: Value, nothing_pending: bool) -> Decision<B> {
    let made = if nothing_pending {
        v.downcast::<B>().map(|b| Decision::Result(*b))
    } else {
        v.downcast::<Decision<B>>().map(|d| *d)
    };
    made.unwrap_or_else(|_| {
        crate::internal::raise("a function's decision is not of its type".to_string())
    })
}

impl<B: 'static> Builder<B> {
    /// The pending list of a whole argument (its root, settled).
    fn root_list(&self) -> Vec<SortId> {
        let g = &self.shape.arg;
        let mut pending = vec![g.root];
        settle_sorts(g, &mut pending, |_| {});
        pending
    }

    /// The space of functions of the pending list (settled, head last):
    /// the result's space when nothing is pending.
    fn space_of(self: &Rc<Self>, pending: &[SortId]) -> Rc<Raw> {
        if pending.is_empty() {
            return self.result.clone();
        }
        if let Some((reference, _)) = self.lists.borrow().get(pending) {
            return reference.clone();
        }
        // Weak: the function's root description owns the builder
        // (`FunctionMeta`), and the builder owns these references.
        let builder = Rc::downgrade(self);
        let list = pending.to_vec();
        let reference = Rc::new(Raw::Ref(TypeRef {
            key: RefKey::Dyn(fresh_keys(1)),
            origin: Some(std::any::TypeId::of::<FunctionPart>()),
            name: Cow::Owned(format!("{} ({} pending)", self.shape.name, pending.len())),
            raw: Rc::new(move || match builder.upgrade() {
                Some(builder) => builder.define(&list),
                None => crate::internal::raise(
                    "a function space was compiled after its description was dropped".to_string(),
                ),
            }),
        }));
        self.lists
            .borrow_mut()
            .insert(pending.to_vec(), (reference.clone(), None));
        reference
    }

    /// The union of skipping the head and deciding on it.
    fn define(self: &Rc<Self>, pending: &[SortId]) -> Rc<Raw> {
        if let Some((_, Some(defined))) = self.lists.borrow().get(pending) {
            return defined.clone();
        }
        let g = &self.shape.arg;
        let sort = *pending.last().expect("a pending position");
        let mut rest = pending[..pending.len() - 1].to_vec();
        settle_sorts(g, &mut rest, |_| {});
        let rest_empty = rest.is_empty();
        let skip = Rc::new(Raw::Map(
            Rc::new(move |v| -> Value {
                Box::new(Decision::Skip(Box::new(as_decision::<B>(v, rest_empty))))
            }),
            self.space_of(&rest),
        ));
        let room = self.lists.borrow().len() < MAX_LISTS;
        let decide = match head(g, sort) {
            Head::Atom if room => {
                let this = self.space_of(pending);
                Some(Rc::new(Raw::Product(
                    vec![self.key_space(sort), this.clone(), this],
                    Rc::new(|f| -> Value {
                        let key = f.take::<i128>();
                        let low = as_decision::<B>(f.take_value(), false);
                        let high = as_decision::<B>(f.take_value(), false);
                        Box::new(Decision::Split(key, Box::new(low), Box::new(high)))
                    }),
                )))
            }
            Head::Case if room => self.case_space(sort, &rest),
            _ => None,
        };
        let mut alternatives = vec![skip];
        alternatives.extend(decide.map(|d| Rc::new(Raw::Pay(d))));
        let defined = Rc::new(Raw::Union(alternatives));
        if let Some(entry) = self.lists.borrow_mut().get_mut(pending) {
            entry.1 = Some(defined.clone());
        }
        defined
    }

    /// A case on `sort` with `rest` pending below it: one branch per
    /// alternative, `None` when a branch would pend too many positions.
    fn case_space(self: &Rc<Self>, sort: SortId, rest: &[SortId]) -> Option<Rc<Raw>> {
        let g = &self.shape.arg;
        let SortKind::Algebraic { chain, .. } = &g.sorts[sort.index()].kind else {
            return None;
        };
        let mut branches = vec![];
        let mut empties = vec![];
        for prod in chain {
            let mut branch = rest.to_vec();
            branch.extend(g.prods[prod.index()].slots.iter().rev());
            settle_sorts(g, &mut branch, |_| {});
            if branch.len() > MAX_PENDING {
                return None;
            }
            empties.push(branch.is_empty());
            branches.push(self.space_of(&branch));
        }
        Some(Rc::new(Raw::Product(
            branches,
            Rc::new(move |f| -> Value {
                Box::new(Decision::Case(
                    empties
                        .iter()
                        .map(|&empty| as_decision::<B>(f.take_value(), empty))
                        .collect(),
                ))
            }),
        )))
    }

    /// The space of split keys of an integer or character sort: its atom
    /// family, valued by key.
    fn key_space(&self, sort: SortId) -> Rc<Raw> {
        self.keys
            .borrow_mut()
            .entry(sort)
            .or_insert_with(|| {
                let family = Rc::new(self.shape.family(sort).keyed());
                Rc::new(Raw::Ref(TypeRef {
                    key: RefKey::Dyn(fresh_keys(1)),
                    origin: Some(std::any::TypeId::of::<FunctionPart>()),
                    name: Cow::Owned(format!("a split key of {}", self.shape.name)),
                    raw: Rc::new(move || Rc::new(Raw::Atom(family.clone()))),
                }))
            })
            .clone()
    }
}

/// The shape of the function type with arguments `A` (a tuple for two).
fn shape_of<A: Enumerable>(arity: usize, name: String) -> Rc<FunShape> {
    let arg = grammar_of::<A>();
    if arg.prods.iter().any(|p| p.function.is_some()) {
        crate::internal::raise(format!(
            "{name}: a function's argument can not hold functions (functions are not taken apart)"
        ));
    }
    Rc::new(FunShape { arg, arity, name })
}

/// The space of functions of shape `shape` with results `B`, as values
/// made by `wrap` from their decisions.
fn function_space<B: Enumerable, F: 'static>(
    shape: Rc<FunShape>,
    wrap: impl Fn(Decision<B>) -> F + 'static,
) -> crate::describe::Space<F> {
    let builder = Rc::new(Builder::<B> {
        shape: shape.clone(),
        result: of::<B>().raw,
        lists: RefCell::new(HashMap::new()),
        keys: RefCell::new(HashMap::new()),
        _result: PhantomData,
    });
    let pending = builder.root_list();
    let nothing_pending = pending.is_empty();
    let inner = builder.space_of(&pending);
    let meta: Rc<dyn Any> = Rc::new(FunctionMeta {
        shape,
        _builder: builder,
    });
    let build =
        Rc::new(move |v: Value| -> Value { Box::new(wrap(as_decision(v, nothing_pending))) });
    crate::describe::Space::from_raw(Rc::new(Raw::Function(
        meta,
        Rc::new(Raw::Map(build, inner)),
    )))
}

/// What a function's root alternative carries: its shape, and the builder
/// of its space (kept alive by the description that names it).
struct FunctionMeta {
    shape: Rc<FunShape>,
    _builder: Rc<dyn Any>,
}

/// The function shape of a root alternative, if it is one.
pub(crate) fn function_shape(prod: &crate::grammar::Prod) -> Option<Rc<FunShape>> {
    let meta = prod.function.clone()?.downcast::<FunctionMeta>().ok()?;
    Some(meta.shape.clone())
}

// ---------------------------------------------------------------------------
// Application
// ---------------------------------------------------------------------------

/// `x <= key` for the split key at `node`, reading only the bits of the
/// key that decide it.
fn at_most_key(ctx: &Ctx<'_>, x: i128, node: u32) -> bool {
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
fn result_node<P: Argument>(ctx: &Ctx<'_>, g: &Grammar, mut node: u32, mut pending: Vec<P>) -> u32 {
    settle(g, &mut pending);
    while let Some(top) = pending.pop() {
        let n = ctx.touch(node);
        let first = n.first_field();
        if n.tag() == 0 {
            settle(g, &mut pending);
            node = first;
        } else if head(g, top.sort(g)).is_atom() {
            node = first + if top.at_most(g, ctx, first) { 1 } else { 2 };
            pending.push(top);
        } else {
            let (prod, fields) = top.open(g);
            pending.extend(fields.into_iter().rev());
            settle(g, &mut pending);
            node = first + crate::arena::id32(branch_of(g, prod));
        }
    }
    node
}

/// Follows built decisions for the argument `tree`: the result.
fn built_result<'d, B>(g: &Grammar, mut d: &'d Decision<B>, tree: Tree) -> &'d B {
    let mut pending = vec![Rc::new(tree)];
    settle(g, &mut pending);
    loop {
        match d {
            Decision::Result(b) => return b,
            Decision::Skip(next) => {
                pending.pop();
                settle(g, &mut pending);
                d = next;
            }
            Decision::Case(branches) => {
                let top = pending.pop().expect("a pending position");
                let (prod, fields) = top.open(g);
                pending.extend(fields.into_iter().rev());
                settle(g, &mut pending);
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
enum Decisions<B> {
    /// In the arena of the run `serial`, under the function's root node.
    Live { serial: u64, root: u32 },
    /// Built whole.
    Built(Decision<B>),
}

/// A function with arguments `Args` (a pair for [`Fun2`]): its decisions,
/// and their application to an argument tree.
struct Core<Args, B> {
    decisions: Decisions<B>,
    _args: PhantomData<fn(&Args)>,
}

impl<Args: Enumerable, B: Enumerable + Clone> Core<Args, B> {
    fn built(d: Decision<B>) -> Self {
        Core {
            decisions: Decisions::Built(d),
            _args: PhantomData,
        }
    }

    /// The function at a root position of the run in progress, if any.
    fn live<T>(root: Lazy<'_, T>) -> Option<Self> {
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
    fn apply(&self, make_tree: impl FnOnce(&Grammar) -> Option<Tree>) -> B {
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
fn live_root(ctx: &Ctx<'_>, root: u32) -> (Rc<FunShape>, u32) {
    let node = &ctx.nodes[root as usize];
    let shape = function_shape(&ctx.grammar.prods[node.prod().index()])
        .unwrap_or_else(|| not_a_function_position());
    (shape, node.first_field())
}

fn cannot_take_apart<Args>() -> ! {
    crate::internal::raise(format!(
        "a function input (of `{}`) was applied to an argument that can not be taken apart (a \
         float, a set or map, or a field with a space of its own): functions decide on \
         integers, characters and the derived and standard algebraic types",
        std::any::type_name::<Args>()
    ))
}

/// Whether two handles are positions of one arena (a handle of another
/// search is read whole).
fn same_run(a: &Ctx<'_>, b: &Ctx<'_>) -> bool {
    std::ptr::eq(a.nodes.as_ptr(), b.nodes.as_ptr())
}

fn not_a_function_position() -> ! {
    crate::internal::raise(
        "this position holds another space than a function type's own: it can be forced, \
         not applied"
            .to_string(),
    )
}

// ---------------------------------------------------------------------------
// The public types
// ---------------------------------------------------------------------------

/// A function from `A` to `B` as an input: a property quantifies over
/// functions (predicates, mappers, comparators, callbacks) by taking one.
///
/// Call it like a closure, `f(&x)` (it dereferences to `dyn Fn(&A) -> B`),
/// or pass `&*f` where an `Fn(&A) -> B` is expected. Functions are
/// enumerated by case distinctions on the argument and constant results,
/// the size of a function being its number of decisions plus the sizes of
/// its keys and results. During a search a function reads its decisions
/// only when applied, so the search refines a function exactly as far as
/// the property uses it. Counterexamples print it as a `match`:
///
/// ```
/// use neatcheck::{Config, Fun};
///
/// // "A predicate that holds for 0 holds for 1" is false:
/// let c = Config::default().try_check(|f: Fun<u8, bool>| !f(&0) || f(&1)).unwrap_err();
/// assert!(c.value.call(&0) && !c.value.call(&1));
/// assert_eq!(format!("{:?}", c.value), "|x| match x { 0 => true, _ => false }");
/// ```
///
/// Through a [`Lazy`] handle, `apply` gives the result's position without
/// reading it, and `apply_lazy` applies the function to a lazy argument,
/// reading only the parts its decisions look at. Printed during its run
/// (`{f:?}` in a property), a function shows its decisions as they stand,
/// without reading them.
///
/// # Sizes and limits
///
/// - A case or a split costs 1, a skip nothing, and a result its own
///   size: `|_| false` has size 1 (a `bool`), `|x| match x { 0 => true,
///   _ => false }` size 3.
/// - `A` must be a type whose values can be taken apart: integers,
///   characters, `bool`, tuples, `Option`, `Result`, `Vec`, `String`,
///   `Box` and derived types. Applied to a value holding a float, a set or
///   a map, a function reports it as an error; `A` can not be a function.
/// - A function decides on at most 8 pending positions at once: only
///   arguments with two recursive fields (trees) reach that, and past it a
///   function skips before it decides again.
/// - Two functions are equal (and hash alike) when their decisions are
///   equal, not merely their results.
/// - Made during a run, a function reads the run's input: calling it after
///   the run, or on another thread, is an error that says so.
pub struct Fun<A, B> {
    core: Arc<Core<A, B>>,
    call: Arc<dyn Fn(&A) -> B + Send + Sync>,
}

/// A function of two arguments as an input (a comparator, a fold's step):
/// call it as `f(&x, &y)`. It decides on `x` and `y` as [`Fun`] decides
/// on a pair, and prints as `|x, y| match (x, y) { .. }`.
///
/// ```
/// use neatcheck::{Config, Fun2};
///
/// // "Every operation on booleans is commutative" is false:
/// let c = Config::default()
///     .try_check(|op: Fun2<bool, bool, bool>| op(&false, &true) == op(&true, &false))
///     .unwrap_err();
/// assert_ne!(c.value.call(&false, &true), c.value.call(&true, &false));
/// ```
pub struct Fun2<A1, A2, B> {
    core: Arc<Core<(A1, A2), B>>,
    call: Arc<Callable2<A1, A2, B>>,
}

impl<A, B> Clone for Fun<A, B> {
    fn clone(&self) -> Self {
        Fun {
            core: self.core.clone(),
            call: self.call.clone(),
        }
    }
}

impl<A1, A2, B> Clone for Fun2<A1, A2, B> {
    fn clone(&self) -> Self {
        Fun2 {
            core: self.core.clone(),
            call: self.call.clone(),
        }
    }
}

impl<A, B> std::ops::Deref for Fun<A, B> {
    type Target = dyn Fn(&A) -> B + Send + Sync;
    fn deref(&self) -> &Self::Target {
        &*self.call
    }
}

impl<A1, A2, B> std::ops::Deref for Fun2<A1, A2, B> {
    type Target = Callable2<A1, A2, B>;
    fn deref(&self) -> &Self::Target {
        &*self.call
    }
}

impl<A: Enumerable, B: Enumerable + Clone + Send + Sync> Fun<A, B> {
    fn new(core: Core<A, B>) -> Self {
        let core = Arc::new(core);
        let inner = core.clone();
        let call = Arc::new(move |x: &A| inner.apply(|g| x.__unbuild(Unbuild::root(g))));
        Fun { core, call }
    }

    /// Applies the function (the same as `f(x)`).
    pub fn call(&self, x: &A) -> B {
        (self.call)(x)
    }
}

impl<A1: Enumerable, A2: Enumerable, B: Enumerable + Clone + Send + Sync> Fun2<A1, A2, B> {
    fn new(core: Core<(A1, A2), B>) -> Self {
        let core = Arc::new(core);
        let inner = core.clone();
        let call = Arc::new(move |x: &A1, y: &A2| inner.apply(|g| pair_tree(g, x, y)));
        Fun2 { core, call }
    }

    /// Applies the function (the same as `f(x, y)`).
    pub fn call(&self, x: &A1, y: &A2) -> B {
        (self.call)(x, y)
    }
}

/// The tree of the pair `(x, y)` in the grammar of `(A1, A2)`.
fn pair_tree<A1: Enumerable, A2: Enumerable>(g: &Grammar, x: &A1, y: &A2) -> Option<Tree> {
    let Head::Open(pair) = head(g, g.root) else {
        unreachable!("a pair has one alternative")
    };
    let slots = &g.prods[pair.index()].slots;
    Some(Tree::Node(
        pair,
        vec![
            Rc::new(x.__unbuild(Unbuild::at(g, slots[0]))?),
            Rc::new(y.__unbuild(Unbuild::at(g, slots[1]))?),
        ],
    ))
}

impl<A: Enumerable, B: Enumerable + Clone + Send + Sync> Enumerable for Fun<A, B> {
    fn describe() -> crate::describe::Space<Self> {
        let name = format!(
            "Fun<{}, {}>",
            std::any::type_name::<A>(),
            std::any::type_name::<B>()
        );
        function_space(shape_of::<A>(1, name), |d| Fun::new(Core::built(d)))
    }

    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        match lazy.is_canonical().then(|| Core::live(lazy)).flatten() {
            Some(core) => Fun::new(core),
            None => lazy.force_generic(),
        }
    }
}

impl<A1, A2, B> Enumerable for Fun2<A1, A2, B>
where
    A1: Enumerable,
    A2: Enumerable,
    B: Enumerable + Clone + Send + Sync,
{
    fn describe() -> crate::describe::Space<Self> {
        let name = format!(
            "Fun2<{}, {}, {}>",
            std::any::type_name::<A1>(),
            std::any::type_name::<A2>(),
            std::any::type_name::<B>()
        );
        function_space(shape_of::<(A1, A2)>(2, name), |d| Fun2::new(Core::built(d)))
    }

    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        match lazy.is_canonical().then(|| Core::live(lazy)).flatten() {
            Some(core) => Fun2::new(core),
            None => lazy.force_generic(),
        }
    }
}

impl<'a, A: Enumerable, B: Enumerable + Clone + Send + Sync> Lazy<'a, Fun<A, B>> {
    /// The position of the function's result for `x`, reading only the
    /// function's decisions on the way (not the result).
    ///
    /// ```
    /// use neatcheck::{search, Fun, Lazy};
    ///
    /// // Never applied: one run stands for every function.
    /// assert_eq!(search::classes(|_: Lazy<Fun<u8, bool>>| true, 10).runs, 1);
    /// // Applied to `true`, its result read: a skip or a case on the way,
    /// // then either result; the result for `false` is never read.
    /// let classes = search::classes(|f: Lazy<Fun<bool, bool>>| f.apply(&true).get(), 9);
    /// assert_eq!(classes.runs, 4);
    /// ```
    pub fn apply(self, x: &A) -> Lazy<'a, B> {
        self.apply_tree(|g| x.__unbuild(Unbuild::root(g)))
    }

    /// The position of the function's result for the argument at `x`,
    /// reading only the parts of `x` the function's decisions look at: a
    /// search over functions and their arguments together refines an
    /// argument only where some function decides on it.
    ///
    /// ```
    /// use neatcheck::{search, Fun, Lazy};
    ///
    /// // Every element satisfies `p`: a constant `p` never reads the
    /// // elements, so far fewer classes than the lists times the functions.
    /// let all = |p: Lazy<Fun<u8, bool>>, xs: Lazy<Vec<u8>>| xs.iter().all(|x| p.apply_lazy(x).get());
    /// let classes = search::classes(|input: Lazy<(Fun<u8, bool>, Vec<u8>)>| {
    ///     let (p, xs) = input.view();
    ///     all(p, xs)
    /// }, 8);
    /// assert!(classes.runs < 100, "{} runs", classes.runs);
    /// ```
    pub fn apply_lazy(self, x: Lazy<'a, A>) -> Lazy<'a, B> {
        if !x.is_canonical() || !same_run(self.ctx, x.ctx) {
            // Another space than `A`'s own: its positions are not `A`'s
            // grammar's; take the whole value apart.
            let value = x.force();
            return self.apply(&value);
        }
        let (shape, start) = live_root(self.ctx, self.node);
        let argument = ArenaArgument {
            ctx: x.ctx,
            node: x.node,
            sort: shape.arg.root,
        };
        Lazy::new(
            self.ctx,
            result_node(self.ctx, &shape.arg, start, vec![argument]),
        )
    }

    fn apply_tree(self, make_tree: impl FnOnce(&Grammar) -> Option<Tree>) -> Lazy<'a, B> {
        let (shape, start) = live_root(self.ctx, self.node);
        let tree = make_tree(&shape.arg).unwrap_or_else(|| cannot_take_apart::<A>());
        Lazy::new(
            self.ctx,
            result_node(self.ctx, &shape.arg, start, vec![Rc::new(tree)]),
        )
    }
}

impl<'a, A1, A2, B> Lazy<'a, Fun2<A1, A2, B>>
where
    A1: Enumerable,
    A2: Enumerable,
    B: Enumerable + Clone + Send + Sync,
{
    /// The position of the function's result for `(x, y)` (see
    /// [`Lazy::apply`] for one argument).
    pub fn apply(self, x: &A1, y: &A2) -> Lazy<'a, B> {
        self.cast::<Fun<(A1, A2), B>>()
            .apply_tree(|g| pair_tree(g, x, y))
    }

    /// The position of the function's result for the arguments at `x` and
    /// `y`, reading only what its decisions look at (see
    /// [`Lazy::apply_lazy`] for one argument).
    pub fn apply_lazy(self, x: Lazy<'a, A1>, y: Lazy<'a, A2>) -> Lazy<'a, B> {
        let same = same_run(self.ctx, x.ctx) && same_run(self.ctx, y.ctx);
        if !x.is_canonical() || !y.is_canonical() || !same {
            let (x, y) = (x.force(), y.force());
            return self.apply(&x, &y);
        }
        let (shape, start) = live_root(self.ctx, self.node);
        let g = &shape.arg;
        let Head::Open(pair) = head(g, g.root) else {
            unreachable!("a pair has one alternative")
        };
        let slots = &g.prods[pair.index()].slots;
        let at = |l: u32, sort: SortId| ArenaArgument {
            ctx: self.ctx,
            node: l,
            sort,
        };
        let pending = vec![at(y.node, slots[1]), at(x.node, slots[0])];
        Lazy::new(self.ctx, result_node(self.ctx, g, start, pending))
    }
}

// ---------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------

/// One step of a function's decisions as a printer sees them.
pub(crate) enum Step<N> {
    /// Never read (a pattern's hole).
    Hole,
    Skip(N),
    Branches(Vec<N>),
    Split {
        key: i128,
        low: N,
        high: N,
    },
}

/// Decisions a printer can walk: built ones, or a pattern's.
pub(crate) trait DecisionTree<'d> {
    type Node: Copy + 'd;
    /// The step at `node`; `atom` tells whether the first pending position
    /// is an integer or a character (a decision there is a split).
    fn step(&self, node: Self::Node, atom: bool) -> Step<Self::Node>;
    /// The text of the result at `node`.
    fn result(&self, node: Self::Node) -> String;
}

/// One piece of an argument pattern, in pre-order.
#[derive(Clone, Debug)]
enum Piece {
    /// An alternative; its fields follow.
    Alternative(ProdId),
    Any,
    /// An integer or character between two keys (inclusive).
    Range(SortId, i128, i128),
}

#[derive(Clone)]
struct Path {
    pending: Vec<SortId>,
    pieces: Vec<Piece>,
    /// The keys the first pending position (an atom) lies between.
    range: Option<(i128, i128)>,
}

impl Path {
    fn settle(&mut self, g: &Grammar) {
        let pieces = &mut self.pieces;
        settle_sorts(g, &mut self.pending, |opened| {
            pieces.push(opened.map_or(Piece::Any, Piece::Alternative))
        });
        self.range = None;
    }

    /// Pops the head (not looked at, or an atom known to lie in a range).
    fn pop(&mut self, spec: &FunShape) {
        let sort = self.pending.pop().expect("a head");
        let bounds = || spec.family(sort).key_bounds();
        self.pieces.push(match self.range {
            Some((low, high)) if (low, high) != bounds() => Piece::Range(sort, low, high),
            _ => Piece::Any,
        });
        self.settle(&spec.arg);
    }

    /// Everything still pending is `_`.
    fn rest_any(&mut self, spec: &FunShape) {
        while !self.pending.is_empty() {
            let atom = spec.arg.sorts[self.pending.last().unwrap().index()]
                .atom
                .is_some();
            if atom {
                self.pop(spec);
            } else {
                self.pending.pop();
                self.pieces.push(Piece::Any);
                self.settle(&spec.arg);
            }
        }
    }
}

/// Prints decisions as `|x| match x { pattern => result, .., _ => default }`.
pub(crate) fn function_text<'d, T: DecisionTree<'d>>(
    spec: &FunShape,
    tree: &T,
    root: T::Node,
) -> String {
    let g = &spec.arg;
    let mut start = Path {
        pending: vec![g.root],
        pieces: vec![],
        range: None,
    };
    start.settle(g);
    let mut arms: Vec<(Vec<Piece>, String)> = vec![];
    let mut work = vec![(root, start)];
    while let Some((node, mut path)) = work.pop() {
        let Some(&sort) = path.pending.last() else {
            arms.push((path.pieces, tree.result(node)));
            continue;
        };
        let atom = g.sorts[sort.index()].atom.is_some();
        match tree.step(node, atom) {
            Step::Hole => {
                path.rest_any(spec);
                arms.push((path.pieces, "_".to_string()));
            }
            Step::Skip(next) => {
                path.pop(spec);
                work.push((next, path));
            }
            Step::Branches(branches) => {
                let SortKind::Algebraic { chain, .. } = &g.sorts[sort.index()].kind else {
                    unreachable!("cases are on alternatives")
                };
                for (&prod, next) in chain.iter().zip(branches).rev() {
                    let mut p = path.clone();
                    p.pending.pop();
                    p.pieces.push(Piece::Alternative(prod));
                    p.pending.extend(g.prods[prod.index()].slots.iter().rev());
                    p.settle(g);
                    work.push((next, p));
                }
            }
            Step::Split { key, low, high } => {
                let (lo, hi) = path.range.unwrap_or_else(|| spec.family(sort).key_bounds());
                if key < hi {
                    let mut p = path.clone();
                    p.range = Some((lo.max(key + 1), hi));
                    work.push((high, p));
                }
                if key >= lo {
                    path.range = Some((lo, hi.min(key)));
                    work.push((low, path));
                }
            }
        }
    }
    arms_text(spec, arms)
}

fn arms_text(spec: &FunShape, arms: Vec<(Vec<Piece>, String)>) -> String {
    let (params, subject) = match spec.arity {
        2 => ("|x, y|", "(x, y)"),
        _ => ("|x|", "x"),
    };
    let wild = if spec.arity == 2 { "|_, _|" } else { "|_|" };
    // The default branch: holes if any (the rest was never read), else the
    // most frequent result (the later one on a tie).
    let default = if arms.iter().any(|(_, r)| r == "_") {
        "_".to_string()
    } else {
        let mut best: Option<(usize, &String)> = None;
        for (_, r) in &arms {
            let n = arms.iter().filter(|(_, s)| s == r).count();
            if best.is_none_or(|(m, _)| n >= m) {
                best = Some((n, r));
            }
        }
        best.map(|(_, r)| r.clone())
            .unwrap_or_else(|| "_".to_string())
    };
    let shown: Vec<String> = arms
        .iter()
        .filter(|(_, r)| *r != default)
        .map(|(pieces, r)| format!("{} => {r}", pattern_text(spec, pieces)))
        .collect();
    if shown.is_empty() {
        return format!("{wild} {default}");
    }
    format!(
        "{params} match {subject} {{ {}, _ => {default} }}",
        shown.join(", ")
    )
}

/// The text of an argument pattern from its pre-order pieces (iterative).
fn pattern_text(spec: &FunShape, pieces: &[Piece]) -> String {
    let g = &spec.arg;
    // A frame: an alternative whose fields are being printed.
    struct Frame {
        prod: ProdId,
        fields: Vec<String>,
    }
    let mut frames: Vec<Frame> = vec![];
    let mut pieces = pieces.iter();
    loop {
        let text = match frames.last() {
            Some(f) if f.fields.len() == g.prods[f.prod.index()].slots.len() => {
                let f = frames.pop().expect("a frame");
                alternative_text(g, f.prod, f.fields)
            }
            _ => match pieces.next() {
                Some(Piece::Alternative(prod)) => {
                    frames.push(Frame {
                        prod: *prod,
                        fields: vec![],
                    });
                    continue;
                }
                Some(Piece::Any) | None => "_".to_string(),
                Some(Piece::Range(sort, low, high)) => range_text(spec, *sort, *low, *high),
            },
        };
        match frames.last_mut() {
            Some(f) => f.fields.push(text),
            None => return text,
        }
    }
}

fn range_text(spec: &FunShape, sort: SortId, low: i128, high: i128) -> String {
    let family = spec.family(sort);
    let (min, max) = family.key_bounds();
    let text = |k| family.key_text(k);
    match (low == min, high == max) {
        _ if low == high => text(low),
        (true, true) => "_".to_string(),
        (true, false) => format!("..={}", text(high)),
        (false, true) => format!("{}..", text(low)),
        (false, false) => format!("{}..={}", text(low), text(high)),
    }
}

fn alternative_text(g: &Grammar, prod: ProdId, fields: Vec<String>) -> String {
    let p = &g.prods[prod.index()];
    match p.shape.as_deref() {
        Some(Shape::Nil) => "[]".to_string(),
        Some(Shape::Cons) => {
            // `[h, ..]` with the tail's elements spliced in: `[a, b]`,
            // `[a, b, ..]`.
            let mut it = fields.into_iter();
            let head = it.next().unwrap_or_default();
            let tail = it.next().unwrap_or_default();
            match tail.as_str() {
                "[]" => format!("[{head}]"),
                "_" => format!("[{head}, ..]"),
                t => format!("[{head}, {}", &t[1..]),
            }
        }
        Some(Shape::Tuple) => match fields.len() {
            1 => format!("({},)", fields[0]),
            _ => format!("({})", fields.join(", ")),
        },
        Some(Shape::Ctor {
            name,
            fields: names,
        }) => match names {
            _ if fields.is_empty() => name.to_string(),
            Some(_) if fields.iter().all(|f| f == "_") => format!("{name} {{ .. }}"),
            Some(names) => format!(
                "{name} {{ {} }}",
                names
                    .iter()
                    .zip(&fields)
                    .map(|(n, f)| format!("{n}: {f}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => format!("{name}({})", fields.join(", ")),
        },
        Some(Shape::Plain) | None if fields.is_empty() => {
            let value = g.build_value(&Tree::Node(prod, vec![]));
            crate::describe::debug_text(&*value).unwrap_or_else(|| format!("#{}", p.tag))
        }
        Some(Shape::Plain) | None => format!("#{}({})", p.tag, fields.join(", ")),
    }
}

/// Built decisions, their results printed with `show`.
struct Built<'s, B> {
    show: &'s dyn Fn(&B) -> String,
}

impl<'d, B: 'd> DecisionTree<'d> for Built<'_, B> {
    type Node = &'d Decision<B>;
    fn step(&self, node: &'d Decision<B>, _atom: bool) -> Step<&'d Decision<B>> {
        match node {
            Decision::Result(_) => Step::Hole,
            Decision::Skip(next) => Step::Skip(next),
            Decision::Case(branches) => Step::Branches(branches.iter().collect()),
            Decision::Split(key, low, high) => Step::Split {
                key: *key,
                low,
                high,
            },
        }
    }
    fn result(&self, node: &'d Decision<B>) -> String {
        match node {
            Decision::Result(b) => (self.show)(b),
            _ => "_".to_string(),
        }
    }
}

impl<Args: Enumerable, B: fmt::Debug + 'static> Core<Args, B> {
    fn text(&self, arity: usize) -> String {
        match &self.decisions {
            Decisions::Built(d) => {
                let shape = FunShape {
                    arg: grammar_of::<Args>(),
                    arity,
                    name: String::new(),
                };
                function_text(
                    &shape,
                    &Built {
                        show: &|b: &B| format!("{b:?}"),
                    },
                    d,
                )
            }
            Decisions::Live { serial, root } => {
                crate::handle::with_run(*serial, |ctx| standing_text::<B>(ctx, *root))
                    .unwrap_or_else(|| {
                        format!(
                            "<a function of `{}` whose run has ended>",
                            std::any::type_name::<Args>()
                        )
                    })
            }
        }
    }
}

/// A function of the run in progress as its decisions stand (unread ones at
/// their smallest), read without recording: printing a function during a
/// property changes nothing the search sees.
fn standing_text<B: fmt::Debug + 'static>(ctx: &Ctx<'_>, root: u32) -> String {
    let quiet = Ctx {
        stamp: 0,
        trusted: false,
        checked: None,
        ..*ctx
    };
    let (shape, start) = live_root(&quiet, root);
    let show = |node: u32| format!("{:?}", Lazy::<B>::new(&quiet, node).force_generic());
    function_text(
        &shape,
        &Standing {
            ctx: &quiet,
            show: &show,
        },
        start,
    )
}

/// A run's decisions read without recording (see [`standing_text`]).
struct Standing<'c> {
    ctx: &'c Ctx<'c>,
    show: &'c dyn Fn(u32) -> String,
}

impl DecisionTree<'_> for Standing<'_> {
    type Node = u32;
    fn step(&self, node: u32, atom: bool) -> Step<u32> {
        let n = &self.ctx.nodes[node as usize];
        let first = n.first_field();
        if n.tag() == 0 {
            return Step::Skip(first);
        }
        if atom {
            let key = &self.ctx.nodes[first as usize];
            let block = self.ctx.grammar.prods[key.prod().index()]
                .atom
                .expect("a split key is an atom");
            let bits = (0..block.free).fold(0u64, |acc, i| {
                acc << 1 | u64::from(self.ctx.nodes[(key.first_field() + i) as usize].tag())
            });
            return Step::Split {
                key: block.key(bits),
                low: first + 1,
                high: first + 2,
            };
        }
        let arity = self.ctx.grammar.prods[n.prod().index()].slots.len();
        Step::Branches((first..first + crate::arena::id32(arity)).collect())
    }
    fn result(&self, node: u32) -> String {
        (self.show)(node)
    }
}

impl<A: Enumerable, B: fmt::Debug + 'static> fmt::Debug for Fun<A, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.core.text(1))
    }
}

impl<A1: Enumerable, A2: Enumerable, B: fmt::Debug + 'static> fmt::Debug for Fun2<A1, A2, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.core.text(2))
    }
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

/// Equal decisions (see [`Fun`]'s docs): two functions that give the same
/// results by different decisions are different inputs.
impl<A, B: PartialEq> PartialEq for Fun<A, B> {
    fn eq(&self, other: &Self) -> bool {
        self.core.decisions == other.core.decisions
    }
}

/// Equal decisions, as for [`Fun`].
impl<A1, A2, B: PartialEq> PartialEq for Fun2<A1, A2, B> {
    fn eq(&self, other: &Self) -> bool {
        self.core.decisions == other.core.decisions
    }
}

impl<A, B: Eq> Eq for Fun<A, B> {}
impl<A1, A2, B: Eq> Eq for Fun2<A1, A2, B> {}

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

/// Hashes the decisions (consistent with equality: see [`Fun`]).
impl<A, B: std::hash::Hash> std::hash::Hash for Fun<A, B> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.core.decisions.hash(state)
    }
}

/// Hashes the decisions, as for [`Fun`].
impl<A1, A2, B: std::hash::Hash> std::hash::Hash for Fun2<A1, A2, B> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.core.decisions.hash(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search;

    fn internal_error(f: impl FnOnce()) -> String {
        let payload = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
            .expect_err("an internal error");
        crate::internal::panic_message(&*payload)
    }

    /// A function kept past its run, or sent to another thread, says so
    /// when applied (it can not read a run that is over).
    #[test]
    fn a_live_function_outside_its_run_says_so() {
        let kept: RefCell<Option<Fun<u8, bool>>> = RefCell::new(None);
        let _ = search::classes(
            |f: Lazy<Fun<u8, bool>>| {
                *kept.borrow_mut() = Some(f.force());
                true
            },
            2,
        );
        let f = kept.into_inner().expect("kept");
        let message = internal_error(|| {
            let _ = f(&1);
        });
        assert!(
            message.contains("called after the run that made it ended"),
            "{message}"
        );

        let sent: std::sync::Mutex<Option<Fun<u8, bool>>> = std::sync::Mutex::new(None);
        let classes = search::classes(
            |f: Lazy<Fun<u8, bool>>| {
                let f = f.force();
                let message = std::thread::scope(|s| {
                    s.spawn(|| {
                        internal_error(|| {
                            let _ = f(&1);
                        })
                    })
                    .join()
                    .unwrap()
                });
                *sent.lock().unwrap() = Some(f);
                message.contains("on another thread")
            },
            2,
        );
        assert!(sent.lock().unwrap().is_some());
        assert_eq!(classes.satisfying, classes.runs, "every run saw the error");
    }

    /// Printed during its run, a function shows its decisions as they
    /// stand, and printing reads nothing: the search is the same.
    #[test]
    fn a_live_function_prints_as_it_stands_without_reading() {
        let prop = |f: Lazy<Fun<u8, bool>>| f.force()(&3);
        let plain = search::classes(prop, 6);
        let shown: RefCell<Vec<String>> = RefCell::new(vec![]);
        let printing = search::classes(
            |f: Lazy<Fun<u8, bool>>| {
                let f = f.force();
                shown.borrow_mut().push(format!("{f:?}"));
                f(&3)
            },
            6,
        );
        assert_eq!(
            (plain.runs, plain.satisfying),
            (printing.runs, printing.satisfying)
        );
        let shown = shown.into_inner();
        assert_eq!(shown[0], "|_| false");
        assert!(shown.contains(&"|_| true".to_string()), "{shown:?}");
        assert!(
            shown.iter().any(|s| s.starts_with("|x| match x {")),
            "{shown:?}"
        );
    }

    /// An argument that can not be taken apart is a clear error.
    #[test]
    fn an_argument_that_can_not_be_taken_apart_says_so() {
        let f = crate::values::values_of::<Fun<Vec<f64>, bool>>(1).remove(0);
        assert!(f(&vec![]) || !f(&vec![]));
        let message = internal_error(|| {
            let _ = f(&vec![1.5]);
        });
        assert!(message.contains("can not be taken apart"), "{message}");
    }

    /// Deep decisions are dropped and compared without recursion.
    #[test]
    fn deep_decisions_take_no_stack() {
        let mut d: Decision<bool> = Decision::Result(true);
        for _ in 0..200_000 {
            d = Decision::Skip(Box::new(d));
        }
        let twin = {
            let mut d: Decision<bool> = Decision::Result(true);
            for _ in 0..200_000 {
                d = Decision::Skip(Box::new(d));
            }
            d
        };
        assert!(Decisions::Built(d) == Decisions::Built(twin));
    }
}

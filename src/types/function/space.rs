//! The space of a function type: the sorts of its decisions over the
//! argument's grammar (one per list of pending positions), what a function
//! does with its first pending position ([`Head`]), and the decisions of a
//! function built whole ([`Decision`]).

use super::super::{grammar_of, of, Enumerable};
use crate::describe::{fresh_keys, AtomFamily, Raw, RefKey, TypeRef, Value};
use crate::grammar::{Grammar, ProdId, SortId, SortKind};
use std::any::Any;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;
use std::rc::Rc;

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
    pub(super) arg: Rc<Grammar>,
    /// How many arguments the printer names (`|x|`, `|x, y|`).
    pub(super) arity: usize,
    pub(super) name: String,
}

impl fmt::Debug for FunShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FunShape({})", self.name)
    }
}

impl FunShape {
    pub(super) fn family(&self, sort: SortId) -> &Rc<AtomFamily> {
        self.arg.atom_family(sort).expect("an atom's family")
    }
}

/// The space of a pending list: its reference, and its definition once
/// made.
pub(super) type ListSpace = (Rc<Raw>, Option<Rc<Raw>>);

/// Makes the space of one function type with results `B` (per thread):
/// interns the lists of pending positions.
pub(super) struct Builder<B> {
    pub(super) shape: Rc<FunShape>,
    pub(super) result: Rc<Raw>,
    /// Per pending list (head last): its reference, and its definition once
    /// made.
    pub(super) lists: RefCell<HashMap<Vec<SortId>, ListSpace>>,
    /// Per integer or character sort of the argument: the space of its
    /// split keys.
    pub(super) keys: RefCell<HashMap<SortId, Rc<Raw>>>,
    pub(super) _result: PhantomData<fn() -> B>,
}

/// What a function does with its first pending position, by the
/// position's sort.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Head {
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
    pub(super) fn is_atom(self) -> bool {
        self == Head::Atom
    }
}

pub(super) fn head(g: &Grammar, sort: SortId) -> Head {
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

/// A pending position: a sort of the argument's grammar (what the space
/// and the printer track), an argument's tree, or a position of the run's
/// arena (what the application reads).
pub(super) trait Position: Sized {
    /// Its sort in the argument type's grammar.
    fn sort(&self, g: &Grammar) -> SortId;
    /// Its alternative and its fields (reading it, in the arena).
    fn open(self, g: &Grammar) -> (ProdId, Vec<Self>);
}

impl Position for SortId {
    fn sort(&self, _: &Grammar) -> SortId {
        *self
    }
    fn open(self, g: &Grammar) -> (ProdId, Vec<Self>) {
        match head(g, self) {
            Head::Open(prod) => (prod, g.prods[prod.index()].slots.clone()),
            _ => unreachable!("a sort is opened only when it has one alternative"),
        }
    }
}

/// Opens and passes head positions until one can be decided on (or none is
/// pending). `opened` is told each step, `Some(prod)` for an opened
/// alternative and `None` for a passed position (printers record them).
pub(super) fn settle<P: Position>(
    g: &Grammar,
    pending: &mut Vec<P>,
    mut opened: impl FnMut(Option<ProdId>),
) {
    while let Some(top) = pending.last() {
        match head(g, top.sort(g)) {
            Head::Open(_) => {
                let top = pending.pop().expect("a head");
                let (prod, fields) = top.open(g);
                pending.extend(fields.into_iter().rev());
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

/// The type whose space the sorts inside a function are (its decisions and
/// split keys): no handle is ever typed so, so typed reads stay trusted.
pub(super) struct FunctionPart;

/// A function's decisions built whole (see the module comment).
pub(super) enum Decision<B> {
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
pub(super) fn as_decision<B: 'static>(v: Value, nothing_pending: bool) -> Decision<B> {
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
    pub(super) fn root_list(&self) -> Vec<SortId> {
        let g = &self.shape.arg;
        let mut pending = vec![g.root];
        settle(g, &mut pending, |_| {});
        pending
    }

    /// The space of functions of the pending list (settled, head last):
    /// the result's space when nothing is pending.
    pub(super) fn space_of(self: &Rc<Self>, pending: &[SortId]) -> Rc<Raw> {
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
    pub(super) fn define(self: &Rc<Self>, pending: &[SortId]) -> Rc<Raw> {
        if let Some((_, Some(defined))) = self.lists.borrow().get(pending) {
            return defined.clone();
        }
        let g = &self.shape.arg;
        let sort = *pending.last().expect("a pending position");
        let mut rest = pending[..pending.len() - 1].to_vec();
        settle(g, &mut rest, |_| {});
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
    pub(super) fn case_space(self: &Rc<Self>, sort: SortId, rest: &[SortId]) -> Option<Rc<Raw>> {
        let g = &self.shape.arg;
        let SortKind::Algebraic { chain, .. } = &g.sorts[sort.index()].kind else {
            return None;
        };
        let mut branches = vec![];
        let mut empties = vec![];
        for prod in chain {
            let mut branch = rest.to_vec();
            branch.extend(g.prods[prod.index()].slots.iter().rev());
            settle(g, &mut branch, |_| {});
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
    pub(super) fn key_space(&self, sort: SortId) -> Rc<Raw> {
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
pub(super) fn shape_of<A: Enumerable>(arity: usize, name: String) -> Rc<FunShape> {
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
pub(super) fn function_space<B: Enumerable, F: 'static>(
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
pub(super) struct FunctionMeta {
    pub(super) shape: Rc<FunShape>,
    pub(super) _builder: Rc<dyn Any>,
}

/// The function shape of a root alternative, if it is one.
pub(crate) fn function_shape(prod: &crate::grammar::Prod) -> Option<Rc<FunShape>> {
    let meta = prod.function.clone()?.downcast::<FunctionMeta>().ok()?;
    Some(meta.shape.clone())
}

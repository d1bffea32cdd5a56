//! Benchmark 2 (`docs/benchmarks/lambda.md`): a simply typed lambda calculus with parallel
//! `let`, its type checker (`ok` / `infer`, reused by the Typecheck
//! benchmark), an environment-based evaluator, and let removal by
//! substitution with the injected capture bug. Owns the types `Type`,
//! `Value`, `Expr`, the lazy and plain type checkers, the property, and the
//! per-run arenas (`Heap`) in which the property builds its types, terms
//! and environments.

// Constructor names are the specification's (`TUnit`, `RUnit`, ...).
#![allow(clippy::enum_variant_names)]

use super::nat::{eq_nat, LNat, Nat};
use super::recycle;
use neatcheck::lazy::ListView;
use neatcheck::{Enumerable, Lazy};
use std::cell::Cell;

/// `Type = TUnit | TBool | TFun(Type, Type)`.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq)]
pub enum Type {
    /// The unit type.
    TUnit,
    /// The boolean type.
    TBool,
    /// A function type: argument, result.
    TFun(Box<Type>, Box<Type>),
}

/// `Value = VUnit | VBool(Bool)`.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// The unit literal.
    VUnit,
    /// A boolean literal.
    VBool(bool),
}

/// One binding of a `Let`: declared type, name, right-hand side.
pub type Binding = (Type, Nat, Expr);

/// `Expr = Var(Nat) | Lit(Value) | Lam(Type, Nat, Expr) | App(Expr, Expr)
/// | Let(List<(Type, Nat, Expr)>, Expr)`.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    /// A variable.
    Var(Nat),
    /// A literal.
    Lit(Value),
    /// An annotated lambda: argument type, bound name, body.
    Lam(Type, Nat, Box<Expr>),
    /// An application.
    App(Box<Expr>, Box<Expr>),
    /// A parallel let with closed right-hand sides, and its body.
    Let(Vec<Binding>, Box<Expr>),
}

/// A lazy expression.
pub type LExpr<'a> = Lazy<'a, Expr>;
/// A lazy type.
pub type LType<'a> = Lazy<'a, Type>;
/// A lazy binding list.
pub type LBinds<'a> = Lazy<'a, Vec<Binding>>;

// ---------------------------------------------------------------------------
// Per-run arenas
//
// What the property builds (types, terms, environments) lives in vectors
// addressed by `u32` indices, rather than in one `Rc` allocation per node
// (which dominated the run time). Nodes hold handles into the run's input
// (`Lazy<'a, _>`), so an arena lives no longer than its run; between runs
// its emptied vectors wait in a thread-local slot, typed `'static` (a
// lifetime for the type only: no handle is ever stored under it), so that a
// run allocates nothing once they are large enough. Taking them out needs
// no conversion (handles, hence arenas, are covariant in their lifetime);
// putting them back does ([`recycle`]). The type checker's arena
// ([`Types`]) and the evaluator's ([`Heap`]) have separate slots because
// most runs stop at the checker.

/// A node index of an arena (runs are far smaller than 2^32 nodes).
fn index(len: usize) -> u32 {
    u32::try_from(len).expect("fewer than 2^32 nodes in one run")
}

thread_local! {
    /// This thread's spare type arena (empty).
    static SPARE_TYPES: Cell<Types<'static>> = const {
        Cell::new(Types { funs: Vec::new() })
    };
    /// This thread's spare evaluation arenas (empty).
    static SPARE_HEAP: Cell<Heap<'static>> = const {
        Cell::new(Heap {
            terms: Terms { nodes: Vec::new() },
            subst: Vec::new(),
            values: Values { cells: Vec::new() },
        })
    };
}

/// The arenas of let removal and the evaluator during one run.
#[derive(Default)]
struct Heap<'a> {
    /// Terms built by let removal.
    terms: Terms<'a>,
    /// The substitution of the `let` being removed (a stack, see
    /// [`remove_lets`]).
    subst: Vec<(LNat<'a>, LExpr<'a>)>,
    /// Environment cells built by the evaluator.
    values: Values<'a>,
}

impl<'a> Heap<'a> {
    /// Runs `f` on this thread's spare heap, then keeps the heap's vectors,
    /// emptied, for the thread's next run.
    fn with<R>(f: impl FnOnce(&mut Heap<'a>) -> R) -> R {
        SPARE_HEAP.with(|spare| {
            let mut heap: Heap<'a> = spare.take();
            let result = f(&mut heap);
            spare.set(Heap {
                terms: Terms {
                    nodes: recycle(heap.terms.nodes),
                },
                subst: recycle(heap.subst),
                values: Values {
                    cells: recycle(heap.values.cells),
                },
            });
            result
        })
    }
}

// ---------------------------------------------------------------------------
// Type checker (lazy)

/// A typing environment: a list built by the checker, most recent binding
/// first, of (name, declared type) pairs that are input sub-terms. Lives on
/// the stack of the checker's recursion.
#[derive(Clone, Copy, Debug)]
pub enum TEnv<'e, 'a> {
    /// The empty environment.
    Nil,
    /// A binding and the rest.
    Cons(LNat<'a>, LType<'a>, &'e TEnv<'e, 'a>),
    /// The rest is a persistent environment (the Typecheck benchmark's
    /// formula nodes own theirs).
    Shared(&'e SharedEnv<'a>),
}

/// A persistent typing environment: the same list, built in the run's
/// arena ([`neatcheck::RunArena`]) and shared by reference, for checkers
/// whose environments outlive a call (formula nodes keep theirs).
#[derive(Clone, Copy, Debug, Default)]
pub struct SharedEnv<'a>(Option<&'a (LNat<'a>, LType<'a>, SharedEnv<'a>)>);

impl<'a> SharedEnv<'a> {
    /// The empty environment.
    pub fn empty() -> Self {
        SharedEnv(None)
    }

    /// `(x, t) : self`, built in the arena of `x`'s run.
    pub fn push(&self, x: LNat<'a>, t: LType<'a>) -> Self {
        SharedEnv(Some(x.arena().alloc((x, t, *self))))
    }

    /// `lookupT(x, self)`.
    fn lookup(&self, x: LNat<'a>) -> Option<LType<'a>> {
        let mut env = self;
        while let Some(cell) = env.0 {
            let (y, t, rest) = cell;
            if eq_nat(x, *y) {
                return Some(*t);
            }
            env = rest;
        }
        None
    }
}

/// `lookupT(x, env)`: reads `x` then each name until one is equal.
pub fn lookup<'a>(x: LNat<'a>, env: &TEnv<'_, 'a>) -> Option<LType<'a>> {
    let mut env = env;
    loop {
        match env {
            TEnv::Nil => return None,
            TEnv::Shared(shared) => return shared.lookup(x),
            TEnv::Cons(y, t, rest) => {
                if eq_nat(x, *y) {
                    return Some(*t);
                }
                env = rest;
            }
        }
    }
}

/// How [`infer`] builds the types it synthesises. Lambda's own checker
/// builds them in the run's arena ([`Types`]); the Typecheck benchmark
/// keeps them in formula nodes that outlive any arena, so it gets owned
/// [`Ty`]s ([`Owned`]). One `infer` serves both, so both read the same
/// positions in the same order.
trait TypeBuilder<'a> {
    /// A synthesised type.
    type Ty;
    /// An input annotation.
    fn input(t: LType<'a>) -> Self::Ty;
    /// A built `TUnit`.
    fn unit() -> Self::Ty;
    /// A built `TBool`.
    fn boolean() -> Self::Ty;
    /// Builds `TFun(arg, res)`; `infer` only builds function types whose
    /// argument is a lambda's annotation, an input sub-term.
    fn fun(&mut self, arg: LType<'a>, res: Self::Ty) -> Self::Ty;
    /// `case t of { TFun(_, r) -> Some(r); _ -> None }`: reads the
    /// constructor of an input type, nothing for a built one.
    fn result(&self, t: Self::Ty) -> Option<Self::Ty>;
}

/// A type synthesised by the checker: an input annotation (read only when
/// inspected), a built `TUnit` or `TBool`, or a function type built in the
/// run's [`Types`] (free to inspect).
#[derive(Clone, Copy, Debug)]
enum TyRef<'a> {
    /// An input sub-term (an annotation).
    In(LType<'a>),
    /// A built `TUnit`.
    Unit,
    /// A built `TBool`.
    Bool,
    /// A built `TFun`: index in [`Types::funs`].
    Fun(u32),
}

/// One constructor of a [`TyRef`].
enum TyShape<'a> {
    /// `TUnit`.
    Unit,
    /// `TBool`.
    Bool,
    /// `TFun(argument, result)`.
    Fun(TyRef<'a>, TyRef<'a>),
}

/// The function types the checker builds during a run: an entry is the
/// argument (a lambda's annotation) and the result type.
#[derive(Default)]
struct Types<'a> {
    funs: Vec<(LType<'a>, TyRef<'a>)>,
}

impl<'a> Types<'a> {
    /// Runs `f` on this thread's spare type arena, then keeps its vector,
    /// emptied, for the thread's next run.
    fn with<R>(f: impl FnOnce(&mut Types<'a>) -> R) -> R {
        SPARE_TYPES.with(|spare| {
            let mut types: Types<'a> = spare.take();
            let result = f(&mut types);
            spare.set(Types {
                funs: recycle(types.funs),
            });
            result
        })
    }

    /// `case t of`: reads the constructor of an input type, nothing for a
    /// built one.
    fn view(&self, t: TyRef<'a>) -> TyShape<'a> {
        match t {
            TyRef::In(t) => match t.view() {
                TypeView::TUnit => TyShape::Unit,
                TypeView::TBool => TyShape::Bool,
                TypeView::TFun(a, r) => TyShape::Fun(TyRef::In(a), TyRef::In(r)),
            },
            TyRef::Unit => TyShape::Unit,
            TyRef::Bool => TyShape::Bool,
            TyRef::Fun(i) => {
                let (a, r) = self.funs[i as usize];
                TyShape::Fun(TyRef::In(a), r)
            }
        }
    }
}

impl<'a> TypeBuilder<'a> for Types<'a> {
    type Ty = TyRef<'a>;

    fn input(t: LType<'a>) -> TyRef<'a> {
        TyRef::In(t)
    }

    fn unit() -> TyRef<'a> {
        TyRef::Unit
    }

    fn boolean() -> TyRef<'a> {
        TyRef::Bool
    }

    fn fun(&mut self, arg: LType<'a>, res: TyRef<'a>) -> TyRef<'a> {
        let i = index(self.funs.len());
        self.funs.push((arg, res));
        TyRef::Fun(i)
    }

    fn result(&self, t: TyRef<'a>) -> Option<TyRef<'a>> {
        match self.view(t) {
            TyShape::Fun(_, r) => Some(r),
            _ => None,
        }
    }
}

/// A type synthesised by [`infer`] for the Typecheck benchmark, which keeps
/// types in formula nodes: built types live in the run's arena
/// ([`neatcheck::RunArena`]; lambda's own checker builds its types in a
/// table of its own instead).
#[derive(Clone, Copy, Debug)]
pub enum Ty<'a> {
    /// An input sub-term (an annotation).
    In(LType<'a>),
    /// A built `TUnit`.
    Unit,
    /// A built `TBool`.
    Bool,
    /// A built `TFun(argument, result)`, the argument an annotation.
    Fun(LType<'a>, &'a Ty<'a>),
}

/// One constructor of a [`Ty`], with its fields as [`Ty`]s.
#[derive(Clone, Debug)]
pub enum TyView<'a> {
    /// `TUnit`.
    Unit,
    /// `TBool`.
    Bool,
    /// `TFun(argument, result)`.
    Fun(Ty<'a>, Ty<'a>),
}

impl<'a> Ty<'a> {
    /// `case t of`: reads the constructor of an input type, nothing for a
    /// built one.
    pub fn view(&self) -> TyView<'a> {
        match self {
            Ty::In(t) => match t.view() {
                TypeView::TUnit => TyView::Unit,
                TypeView::TBool => TyView::Bool,
                TypeView::TFun(a, r) => TyView::Fun(Ty::In(a), Ty::In(r)),
            },
            Ty::Unit => TyView::Unit,
            Ty::Bool => TyView::Bool,
            Ty::Fun(a, r) => TyView::Fun(Ty::In(*a), **r),
        }
    }
}

/// Builds [`Ty`]s in the run's arena.
struct InArena<'a>(neatcheck::RunArena<'a>);

impl<'a> TypeBuilder<'a> for InArena<'a> {
    type Ty = Ty<'a>;

    fn input(t: LType<'a>) -> Ty<'a> {
        Ty::In(t)
    }

    fn unit() -> Ty<'a> {
        Ty::Unit
    }

    fn boolean() -> Ty<'a> {
        Ty::Bool
    }

    fn fun(&mut self, arg: LType<'a>, res: Ty<'a>) -> Ty<'a> {
        Ty::Fun(arg, self.0.alloc(res))
    }

    fn result(&self, t: Ty<'a>) -> Option<Ty<'a>> {
        match t {
            Ty::In(t) => match t.view() {
                TypeView::TFun(_, r) => Some(Ty::In(r)),
                _ => None,
            },
            Ty::Fun(_, r) => Some(*r),
            Ty::Unit | Ty::Bool => None,
        }
    }
}

/// `eqType(a, b)`: reads a's constructor, then b's, then the argument types,
/// then the result types.
fn eq_type<'a>(types: &Types<'a>, a: TyRef<'a>, b: TyRef<'a>) -> bool {
    match types.view(a) {
        TyShape::Unit => matches!(types.view(b), TyShape::Unit),
        TyShape::Bool => matches!(types.view(b), TyShape::Bool),
        TyShape::Fun(a1, a2) => match types.view(b) {
            TyShape::Fun(b1, b2) => eq_type(types, a1, b1) && eq_type(types, a2, b2),
            _ => false,
        },
    }
}

/// `infer(env, e)` with its types built in the run's arena (for the
/// Typecheck benchmark, whose formula nodes keep them).
pub fn infer<'a>(env: &TEnv<'_, 'a>, e: LExpr<'a>) -> Option<Ty<'a>> {
    infer_with(&mut InArena(e.arena()), env, e)
}

/// `infer(env, e)`: the type `e` would have if it were well typed; checks
/// nothing it does not need. Function types are built by `b`.
fn infer_with<'a, B: TypeBuilder<'a>>(
    b: &mut B,
    env: &TEnv<'_, 'a>,
    e: LExpr<'a>,
) -> Option<B::Ty> {
    match e.view() {
        ExprView::Var(x) => lookup(x, env).map(B::input),
        ExprView::Lit(v) => match v.view() {
            ValueView::VUnit => Some(B::unit()),
            ValueView::VBool(_) => Some(B::boolean()),
        },
        ExprView::Lam(t, x, body) => {
            let r = infer_with(b, &TEnv::Cons(x, t, env), body)?;
            Some(b.fun(t, r))
        }
        ExprView::App(f, _) => {
            let ft = infer_with(b, env, f)?;
            b.result(ft)
        }
        ExprView::Let(bs, body) => infer_let(b, env, bs, body),
    }
}

/// `inferLet(env, bs, b)`: pushes the declared types in list order.
fn infer_let<'a, B: TypeBuilder<'a>>(
    b: &mut B,
    env: &TEnv<'_, 'a>,
    bs: LBinds<'a>,
    body: LExpr<'a>,
) -> Option<B::Ty> {
    match bs.view() {
        ListView::Nil => infer_with(b, env, body),
        ListView::Cons(bind, rest) => {
            let (tx, x, _) = bind.view();
            infer_let(b, &TEnv::Cons(x, tx, env), rest, body)
        }
    }
}

/// `hasType(env, e, t)`. The types built to answer are dropped with the
/// answer (`t` was built before, so it stays), which keeps the arena as
/// small as the deepest question.
fn has_type<'a>(types: &mut Types<'a>, env: &TEnv<'_, 'a>, e: LExpr<'a>, t: TyRef<'a>) -> bool {
    let mark = types.funs.len();
    let holds = match infer_with(types, env, e) {
        None => false,
        Some(t1) => eq_type(types, t1, t),
    };
    types.funs.truncate(mark);
    holds
}

/// `argOk(env, f, a)`: `f` has a function type whose argument type is `a`'s.
/// Drops the types it built, like [`has_type`].
fn arg_ok<'a>(types: &mut Types<'a>, env: &TEnv<'_, 'a>, f: LExpr<'a>, a: LExpr<'a>) -> bool {
    let mark = types.funs.len();
    let holds = match infer_with(types, env, f) {
        None => false,
        Some(ft) => match types.view(ft) {
            TyShape::Fun(ta, _) => has_type(types, env, a, ta),
            _ => false,
        },
    };
    types.funs.truncate(mark);
    holds
}

/// `ok(env, e)`: the type checker.
fn ok<'a>(types: &mut Types<'a>, env: &TEnv<'_, 'a>, e: LExpr<'a>) -> bool {
    match e.view() {
        ExprView::Var(x) => lookup(x, env).is_some(),
        ExprView::Lit(_) => true,
        ExprView::Lam(t, x, b) => ok(types, &TEnv::Cons(x, t, env), b),
        ExprView::App(f, a) => ok(types, env, f) && (ok(types, env, a) && arg_ok(types, env, f, a)),
        ExprView::Let(bs, b) => ok_binds(types, bs) && ok_body(types, env, bs, b),
    }
}

/// `okBinds(bs)`: every right-hand side is well typed in the empty
/// environment and has its declared type.
fn ok_binds<'a>(types: &mut Types<'a>, bs: LBinds<'a>) -> bool {
    let mut bs = bs;
    loop {
        match bs.view() {
            ListView::Nil => return true,
            ListView::Cons(bind, rest) => {
                let (tx, _, r) = bind.view();
                if !(ok(types, &TEnv::Nil, r) && has_type(types, &TEnv::Nil, r, TyRef::In(tx))) {
                    return false;
                }
                bs = rest;
            }
        }
    }
}

/// `okBody(env, bs, b)`: the body is well typed with the bindings pushed.
fn ok_body<'a>(types: &mut Types<'a>, env: &TEnv<'_, 'a>, bs: LBinds<'a>, b: LExpr<'a>) -> bool {
    match bs.view() {
        ListView::Nil => ok(types, env, b),
        ListView::Cons(bind, rest) => {
            let (tx, x, _) = bind.view();
            ok_body(types, &TEnv::Cons(x, tx, env), rest, b)
        }
    }
}

/// `wellTyped(p) = ok([], p)`.
pub fn well_typed(p: LExpr<'_>) -> bool {
    Types::with(|types| ok(types, &TEnv::Nil, p))
}

// ---------------------------------------------------------------------------
// Type checker on plain values (same algorithm, nothing recorded)

/// A plain typing environment.
#[derive(Clone, Copy, Debug)]
pub enum PEnv<'e> {
    /// The empty environment.
    Nil,
    /// A binding and the rest.
    Cons(&'e Nat, &'e Type, &'e PEnv<'e>),
}

fn lookup_plain<'e>(x: &Nat, env: &PEnv<'e>) -> Option<&'e Type> {
    let mut env = env;
    loop {
        match env {
            PEnv::Nil => return None,
            PEnv::Cons(y, t, rest) => {
                if x == *y {
                    return Some(t);
                }
                env = rest;
            }
        }
    }
}

fn infer_plain(env: &PEnv<'_>, e: &Expr) -> Option<Type> {
    match e {
        Expr::Var(x) => lookup_plain(x, env).cloned(),
        Expr::Lit(Value::VUnit) => Some(Type::TUnit),
        Expr::Lit(Value::VBool(_)) => Some(Type::TBool),
        Expr::Lam(t, x, b) => {
            let r = infer_plain(&PEnv::Cons(x, t, env), b)?;
            Some(Type::TFun(Box::new(t.clone()), Box::new(r)))
        }
        Expr::App(f, _) => match infer_plain(env, f)? {
            Type::TFun(_, r) => Some(*r),
            _ => None,
        },
        Expr::Let(bs, b) => infer_let_plain(env, bs, b),
    }
}

fn infer_let_plain(env: &PEnv<'_>, bs: &[Binding], b: &Expr) -> Option<Type> {
    match bs {
        [] => infer_plain(env, b),
        [(tx, x, _), rest @ ..] => infer_let_plain(&PEnv::Cons(x, tx, env), rest, b),
    }
}

fn ok_plain(env: &PEnv<'_>, e: &Expr) -> bool {
    match e {
        Expr::Var(x) => lookup_plain(x, env).is_some(),
        Expr::Lit(_) => true,
        Expr::Lam(t, x, b) => ok_plain(&PEnv::Cons(x, t, env), b),
        Expr::App(f, a) => {
            ok_plain(env, f)
                && ok_plain(env, a)
                && match infer_plain(env, f) {
                    Some(Type::TFun(ta, _)) => infer_plain(env, a).as_ref() == Some(&*ta),
                    _ => false,
                }
        }
        Expr::Let(bs, b) => {
            bs.iter().all(|(tx, _, r)| {
                ok_plain(&PEnv::Nil, r) && infer_plain(&PEnv::Nil, r).as_ref() == Some(tx)
            }) && ok_body_plain(env, bs, b)
        }
    }
}

fn ok_body_plain(env: &PEnv<'_>, bs: &[Binding], b: &Expr) -> bool {
    match bs {
        [] => ok_plain(env, b),
        [(tx, x, _), rest @ ..] => ok_body_plain(&PEnv::Cons(x, tx, env), rest, b),
    }
}

/// [`well_typed`] on a plain value.
pub fn well_typed_plain(e: &Expr) -> bool {
    ok_plain(&PEnv::Nil, e)
}

// ---------------------------------------------------------------------------
// Terms built by let removal

/// An expression that is either an input sub-term or a node built by the
/// predicate in the run's [`Terms`] (whose fields may be input sub-terms).
#[derive(Clone, Copy, Debug)]
enum Term<'a> {
    /// An input sub-term (read when inspected).
    In(LExpr<'a>),
    /// A built node (free to inspect): index in [`Terms::nodes`].
    Built(u32),
}

/// One constructor of a [`Term`].
#[derive(Clone, Copy, Debug)]
enum TermView<'a> {
    /// `Var(x)`.
    Var(LNat<'a>),
    /// `Lit(v)`.
    Lit(Lazy<'a, Value>),
    /// `Lam(t, x, body)`.
    Lam(LType<'a>, LNat<'a>, Term<'a>),
    /// `App(f, a)`.
    App(Term<'a>, Term<'a>),
    /// `Let(bindings, body)`; the bindings are always input.
    Let(LBinds<'a>, Term<'a>),
}

/// The terms let removal builds during a run.
#[derive(Default)]
struct Terms<'a> {
    nodes: Vec<TermView<'a>>,
}

impl<'a> Terms<'a> {
    /// `case e of`: reads an input term's constructor; free for a built one.
    fn view(&self, e: Term<'a>) -> TermView<'a> {
        match e {
            Term::In(e) => match e.view() {
                ExprView::Var(x) => TermView::Var(x),
                ExprView::Lit(v) => TermView::Lit(v),
                ExprView::Lam(t, x, b) => TermView::Lam(t, x, Term::In(b)),
                ExprView::App(f, a) => TermView::App(Term::In(f), Term::In(a)),
                ExprView::Let(bs, b) => TermView::Let(bs, Term::In(b)),
            },
            Term::Built(i) => self.nodes[i as usize],
        }
    }

    /// Builds a node.
    fn build(&mut self, v: TermView<'a>) -> Term<'a> {
        let i = index(self.nodes.len());
        self.nodes.push(v);
        Term::Built(i)
    }
}

impl Term<'_> {
    /// Reads the root constructor (what the caller of `applySub` does).
    fn force_root(self) {
        if let Term::In(e) = self {
            let _ = e.view();
        }
    }
}

/// A list of names built by the predicate (`bound` of `applySub`). Lives on
/// the stack of `applySub`'s recursion.
enum Names<'e, 'a> {
    Nil,
    Cons(LNat<'a>, &'e Names<'e, 'a>),
}

/// `memberNat(x, ys)`.
fn member_nat(x: LNat<'_>, ys: &Names<'_, '_>) -> bool {
    let mut ys = ys;
    loop {
        match ys {
            Names::Nil => return false,
            Names::Cons(y, rest) => {
                if eq_nat(x, *y) {
                    return true;
                }
                ys = rest;
            }
        }
    }
}

/// A substitution built by `buildSub`, stored in list order of the bindings
/// (`lookupSub` scans it from the end: later bindings first).
type Subst<'a> = [(LNat<'a>, LExpr<'a>)];

/// `buildSub([], bs)`: reads the whole spine of the binding list, pushing
/// the substitution onto `stack`.
fn build_sub<'a>(stack: &mut Vec<(LNat<'a>, LExpr<'a>)>, bs: LBinds<'a>) {
    let mut bs = bs;
    while let ListView::Cons(bind, rest) = bs.view() {
        let (_, x, r) = bind.view();
        stack.push((x, r));
        bs = rest;
    }
}

/// `lookupSub(y, s)`.
fn lookup_sub<'a>(y: LNat<'a>, s: &Subst<'a>) -> Option<LExpr<'a>> {
    s.iter().rev().find(|(x, _)| eq_nat(y, *x)).map(|(_, r)| *r)
}

/// `applySub(s, bound, e)` with the BUGGY `Let` line (inner binders are not
/// added to `bound`). The caller reads the root of the result.
fn apply_sub<'a>(
    terms: &mut Terms<'a>,
    s: &Subst<'a>,
    bound: &Names<'_, 'a>,
    e: Term<'a>,
) -> Term<'a> {
    match terms.view(e) {
        TermView::Var(y) => {
            if member_nat(y, bound) {
                terms.build(TermView::Var(y))
            } else {
                match lookup_sub(y, s) {
                    None => terms.build(TermView::Var(y)),
                    Some(r) => Term::In(r),
                }
            }
        }
        TermView::Lit(v) => terms.build(TermView::Lit(v)),
        TermView::Lam(t, y, b) => {
            let b1 = apply_sub(terms, s, &Names::Cons(y, bound), b);
            b1.force_root();
            terms.build(TermView::Lam(t, y, b1))
        }
        TermView::App(f, a) => {
            let f1 = apply_sub(terms, s, bound, f);
            f1.force_root();
            let a1 = apply_sub(terms, s, bound, a);
            a1.force_root();
            terms.build(TermView::App(f1, a1))
        }
        TermView::Let(bs, b) => {
            let b1 = apply_sub(terms, s, bound, b);
            b1.force_root();
            terms.build(TermView::Let(bs, b1))
        }
    }
}

/// `removeLets(e)`: the code under test. `subst` is a stack: a `let`'s
/// substitution is pushed, applied and popped before the result is
/// processed (`applySub` removes no lets), so one is live at a time.
fn remove_lets<'a>(
    terms: &mut Terms<'a>,
    subst: &mut Vec<(LNat<'a>, LExpr<'a>)>,
    e: Term<'a>,
) -> Term<'a> {
    match terms.view(e) {
        TermView::Var(x) => terms.build(TermView::Var(x)),
        TermView::Lit(v) => terms.build(TermView::Lit(v)),
        TermView::Lam(t, x, b) => {
            let b1 = remove_lets(terms, subst, b);
            terms.build(TermView::Lam(t, x, b1))
        }
        TermView::App(f, a) => {
            let f1 = remove_lets(terms, subst, f);
            let a1 = remove_lets(terms, subst, a);
            terms.build(TermView::App(f1, a1))
        }
        TermView::Let(bs, b) => {
            let start = subst.len();
            build_sub(subst, bs);
            let b1 = apply_sub(terms, &subst[start..], &Names::Nil, b);
            subst.truncate(start);
            b1.force_root();
            remove_lets(terms, subst, b1)
        }
    }
}

// ---------------------------------------------------------------------------
// Evaluator

/// A value environment: a persistent list built by the evaluator, most
/// recent binding first: `None` for `[]`, else the index of its first cell
/// in [`Values::cells`].
type VEnv = Option<u32>;

/// One binding of a [`VEnv`]: name, value, the rest.
#[derive(Clone, Copy, Debug)]
struct VCell<'a> {
    name: LNat<'a>,
    value: RV<'a>,
    rest: VEnv,
}

/// Results of the evaluator (built; the boolean and the closure's name and
/// body may be input sub-terms).
#[derive(Clone, Copy, Debug)]
enum RV<'a> {
    RUnit,
    RBool(Lazy<'a, bool>),
    RFun(LNat<'a>, Term<'a>, VEnv),
    RErr,
}

/// The environment cells the evaluator builds during a run.
#[derive(Default)]
struct Values<'a> {
    cells: Vec<VCell<'a>>,
}

impl<'a> Values<'a> {
    /// `(name, value) : rest`.
    fn push(&mut self, name: LNat<'a>, value: RV<'a>, rest: VEnv) -> VEnv {
        let i = index(self.cells.len());
        self.cells.push(VCell { name, value, rest });
        Some(i)
    }

    /// `lookupV(x, env)`.
    fn lookup(&self, x: LNat<'a>, env: VEnv) -> RV<'a> {
        let mut env = env;
        while let Some(i) = env {
            let cell = &self.cells[i as usize];
            if eq_nat(x, cell.name) {
                return cell.value;
            }
            env = cell.rest;
        }
        RV::RErr
    }
}

/// `eval(env, e)`: call by value, the function before the argument.
fn eval<'a>(terms: &Terms<'a>, values: &mut Values<'a>, env: VEnv, e: Term<'a>) -> RV<'a> {
    match terms.view(e) {
        TermView::Var(x) => values.lookup(x, env),
        TermView::Lit(v) => match v.view() {
            ValueView::VUnit => RV::RUnit,
            ValueView::VBool(b) => RV::RBool(b),
        },
        TermView::Lam(_, x, b) => RV::RFun(x, b, env),
        TermView::App(f, a) => match eval(terms, values, env, f) {
            RV::RFun(x, b, cenv) => {
                let va = eval(terms, values, env, a);
                let env = values.push(x, va, cenv);
                eval(terms, values, env, b)
            }
            _ => RV::RErr,
        },
        TermView::Let(bs, b) => eval_let(terms, values, env, bs, b),
    }
}

/// `evalLet(env, bs, b)`: right-hand sides in the empty environment.
fn eval_let<'a>(
    terms: &Terms<'a>,
    values: &mut Values<'a>,
    env: VEnv,
    bs: LBinds<'a>,
    b: Term<'a>,
) -> RV<'a> {
    let mut env = env;
    let mut bs = bs;
    loop {
        match bs.view() {
            ListView::Nil => return eval(terms, values, env, b),
            ListView::Cons(bind, rest) => {
                let (_, x, r) = bind.view();
                let v = eval(terms, values, None, Term::In(r));
                env = values.push(x, v, env);
                bs = rest;
            }
        }
    }
}

/// `eqBool(p, q)`: reads p, then q.
fn eq_bool(p: Lazy<'_, bool>, q: Lazy<'_, bool>) -> bool {
    p.get() == q.get()
}

/// `eqRV(a, b)`: functions are all equal.
fn eq_rv(a: RV<'_>, b: RV<'_>) -> bool {
    match a {
        RV::RUnit => matches!(b, RV::RUnit),
        RV::RBool(p) => match b {
            RV::RBool(q) => eq_bool(p, q),
            _ => false,
        },
        RV::RFun(..) => matches!(b, RV::RFun(..)),
        RV::RErr => matches!(b, RV::RErr),
    }
}

/// The property: `wellTyped(p) ==> eqRV(eval([], p), eval([], removeLets(p)))`.
pub fn prop(p: LExpr<'_>) -> bool {
    if !well_typed(p) {
        return true;
    }
    Heap::with(|heap| {
        let p = Term::In(p);
        let a = eval(&heap.terms, &mut heap.values, None, p);
        let q = remove_lets(&mut heap.terms, &mut heap.subst, p);
        let b = eval(&heap.terms, &mut heap.values, None, q);
        eq_rv(a, b)
    })
}

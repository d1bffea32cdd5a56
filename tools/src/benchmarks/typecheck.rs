//! Benchmark 6 (`docs/benchmarks/typecheck.md`): all well-typed programs of the Lambda
//! language, searched with benchmark 2's type checker in which every `and`
//! of `eqType`, `ok` and `okBinds` is a parallel conjunction. Owns the
//! formula-returning checker (`ok`, `ok_binds`, `ok_body`, `has_type`,
//! `arg_ok`, `eq_type`) and the property; the types, `infer` and `lookupT`
//! are lambda.rs's.
//!
//! Reading model: each function here computes one formula node when it is
//! called (performing the `case`s written before the node) and returns it;
//! the operands of an `And` are `Cool::lazy` closures, computed only when
//! the strategy evaluates them. `ok` of a `Lam`, `okBody` and `hasType`
//! call the function they reduce to directly, so they add no node. A leaf
//! (`true`/`false` of the specification) is a `Cool::constant`: the reads
//! that decide it were made while its node was computed, and every
//! strategy uses a leaf's value as soon as it has computed the node, so
//! deferring them into a `Cool::atom` would read the same positions at the
//! same point.

use super::lambda::{self, ExprView, LBinds, LExpr, TEnv, Ty, TyView};
use neatcheck::cool::Cool;
use neatcheck::lazy::ListView;

/// A typing environment owned by formula nodes: a persistent list of
/// (name, declared type) input sub-terms, most recent binding first.
pub type Env<'a> = lambda::SharedEnv<'a>;

/// `infer(env, e)` of lambda.rs on an owned environment.
fn infer<'a>(env: &Env<'a>, e: LExpr<'a>) -> Option<Ty<'a>> {
    lambda::infer(&TEnv::Shared(env), e)
}

/// `eqType(a, b)`: reads a's constructor, then b's; two function types give
/// `And(eqType(a1, b1), eqType(a2, b2))`.
pub fn eq_type<'a>(a: Ty<'a>, b: Ty<'a>) -> Cool<'a> {
    match a.view() {
        TyView::Unit => Cool::constant(matches!(b.view(), TyView::Unit)),
        TyView::Bool => Cool::constant(matches!(b.view(), TyView::Bool)),
        TyView::Fun(a1, a2) => match b.view() {
            TyView::Fun(b1, b2) => {
                Cool::lazy(move || eq_type(a1, b1)) & Cool::lazy(move || eq_type(a2, b2))
            }
            _ => Cool::constant(false),
        },
    }
}

/// `hasType(env, e, t)`: reduces to the `eqType` node.
pub fn has_type<'a>(env: &Env<'a>, e: LExpr<'a>, t: Ty<'a>) -> Cool<'a> {
    match infer(env, e) {
        None => Cool::constant(false),
        Some(t1) => eq_type(t1, t),
    }
}

/// `argOk(env, f, a)`: `f` has a function type whose argument type is `a`'s.
pub fn arg_ok<'a>(env: &Env<'a>, f: LExpr<'a>, a: LExpr<'a>) -> Cool<'a> {
    match infer(env, f) {
        None => Cool::constant(false),
        Some(ft) => match ft.view() {
            TyView::Fun(ta, _) => has_type(env, a, ta),
            _ => Cool::constant(false),
        },
    }
}

/// `ok(env, e)`: the parallel type checker.
pub fn ok<'a>(env: &Env<'a>, e: LExpr<'a>) -> Cool<'a> {
    match e.view() {
        ExprView::Var(x) => Cool::constant(lambda::lookup(x, &TEnv::Shared(env)).is_some()),
        ExprView::Lit(_) => Cool::constant(true),
        ExprView::Lam(t, x, b) => ok(&env.push(x, t), b),
        ExprView::App(f, a) => {
            let env = *env;
            Cool::lazy(move || ok(&env, f))
                & (Cool::lazy(move || ok(&env, a)) & Cool::lazy(move || arg_ok(&env, f, a)))
        }
        ExprView::Let(bs, b) => {
            let env = *env;
            Cool::lazy(move || ok_binds(bs)) & Cool::lazy(move || ok_body(&env, bs, b))
        }
    }
}

/// `okBinds(bs)`: every right-hand side is well typed in the empty
/// environment and has its declared type.
pub fn ok_binds(bs: LBinds<'_>) -> Cool<'_> {
    match bs.view() {
        ListView::Nil => Cool::constant(true),
        ListView::Cons(bind, rest) => {
            let (tx, _, r) = bind.view();
            (Cool::lazy(move || ok(&Env::empty(), r))
                & Cool::lazy(move || has_type(&Env::empty(), r, Ty::In(tx))))
                & Cool::lazy(move || ok_binds(rest))
        }
    }
}

/// `okBody(env, bs, b)`: walks the binding list, then reduces to `ok`.
pub fn ok_body<'a>(env: &Env<'a>, bs: LBinds<'a>, b: LExpr<'a>) -> Cool<'a> {
    match bs.view() {
        ListView::Nil => ok(env, b),
        ListView::Cons(bind, rest) => {
            let (tx, x, _) = bind.view();
            ok_body(&env.push(x, tx), rest, b)
        }
    }
}

/// `prop(p) = ok([], p)`: nothing is read before the strategy computes
/// the root node.
pub fn prop(p: LExpr<'_>) -> Cool<'_> {
    Cool::lazy(move || ok(&Env::empty(), p))
}

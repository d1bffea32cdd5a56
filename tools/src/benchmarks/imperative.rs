//! Benchmark 5 (`docs/benchmarks/imperative.md`): programs of a small imperative language
//! that satisfy five invariants joined by parallel conjunction.

use super::nat::{eq_nat, LNat, Nat};
use neatcheck::cool::Cool;
use neatcheck::{Enumerable, Lazy};

/// Expressions.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq)]
pub enum Exp {
    /// A variable.
    Var(Nat),
    /// A literal.
    Lit(bool),
    /// A sum.
    Add(Box<Exp>, Box<Exp>),
}

/// Statements.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq)]
pub enum Stmt {
    /// Does nothing.
    Skip,
    /// Target, value.
    Assign(Nat, Exp),
    /// Sequencing.
    Seq(Box<Stmt>, Box<Stmt>),
    /// Condition, then, else.
    If(Exp, Box<Stmt>, Box<Stmt>),
    /// Condition, body.
    While(Exp, Box<Stmt>),
    /// Declares a variable; its scope is the statement.
    Decl(Nat, Box<Stmt>),
}

/// A list of names built by the predicate (innermost first).
enum Env<'e, 'a> {
    Nil,
    Cons(LNat<'a>, &'e Env<'e, 'a>),
}

fn member_nat(x: LNat<'_>, mut env: &Env<'_, '_>) -> bool {
    while let Env::Cons(y, rest) = env {
        if eq_nat(x, *y) {
            return true;
        }
        env = rest;
    }
    false
}

/// 1. Every declared variable is read by some expression in its scope.
pub fn no_unused(s: Lazy<'_, Stmt>) -> bool {
    match s.view() {
        StmtView::Skip | StmtView::Assign(_, _) => true,
        StmtView::Seq(a, b) | StmtView::If(_, a, b) => no_unused(a) && no_unused(b),
        StmtView::While(_, a) => no_unused(a),
        StmtView::Decl(x, a) => used_s(x, a) && no_unused(a),
    }
}

fn used_s(x: LNat<'_>, s: Lazy<'_, Stmt>) -> bool {
    match s.view() {
        StmtView::Skip => false,
        StmtView::Assign(_, e) => used_e(x, e),
        StmtView::Seq(a, b) => used_s(x, a) || used_s(x, b),
        StmtView::If(c, a, b) => used_e(x, c) || (used_s(x, a) || used_s(x, b)),
        StmtView::While(c, a) => used_e(x, c) || used_s(x, a),
        StmtView::Decl(y, a) => {
            if eq_nat(y, x) {
                false
            } else {
                used_s(x, a)
            }
        }
    }
}

fn used_e(x: LNat<'_>, e: Lazy<'_, Exp>) -> bool {
    match e.view() {
        ExpView::Var(y) => eq_nat(y, x),
        ExpView::Lit(_) => false,
        ExpView::Add(a, b) => used_e(x, a) || used_e(x, b),
    }
}

/// 2. No if-statement inside a branch of an if-statement.
pub fn no_nested_if(s: Lazy<'_, Stmt>) -> bool {
    match s.view() {
        StmtView::Skip | StmtView::Assign(_, _) => true,
        StmtView::Seq(a, b) => no_nested_if(a) && no_nested_if(b),
        StmtView::If(_, a, b) => no_if(a) && no_if(b),
        StmtView::While(_, a) | StmtView::Decl(_, a) => no_nested_if(a),
    }
}

fn no_if(s: Lazy<'_, Stmt>) -> bool {
    match s.view() {
        StmtView::Skip | StmtView::Assign(_, _) => true,
        StmtView::Seq(a, b) => no_if(a) && no_if(b),
        StmtView::If(_, _, _) => false,
        StmtView::While(_, a) | StmtView::Decl(_, a) => no_if(a),
    }
}

/// 3. No skip statements.
pub fn no_skip(s: Lazy<'_, Stmt>) -> bool {
    match s.view() {
        StmtView::Skip => false,
        StmtView::Assign(_, _) => true,
        StmtView::Seq(a, b) | StmtView::If(_, a, b) => no_skip(a) && no_skip(b),
        StmtView::While(_, a) | StmtView::Decl(_, a) => no_skip(a),
    }
}

/// 4. Declarations only at the top.
pub fn decls_top(s: Lazy<'_, Stmt>) -> bool {
    let mut s = s;
    loop {
        match s.view() {
            StmtView::Decl(_, a) => s = a,
            _ => return no_decl(s),
        }
    }
}

fn no_decl(s: Lazy<'_, Stmt>) -> bool {
    match s.view() {
        StmtView::Skip | StmtView::Assign(_, _) => true,
        StmtView::Seq(a, b) | StmtView::If(_, a, b) => no_decl(a) && no_decl(b),
        StmtView::While(_, a) => no_decl(a),
        StmtView::Decl(_, _) => false,
    }
}

/// 5. Every variable assigned or read is declared by an enclosing `Decl`.
pub fn all_bound(s: Lazy<'_, Stmt>) -> bool {
    bound_s(&Env::Nil, s)
}

fn bound_s(env: &Env<'_, '_>, s: Lazy<'_, Stmt>) -> bool {
    match s.view() {
        StmtView::Skip => true,
        StmtView::Assign(x, e) => member_nat(x, env) && bound_e(env, e),
        StmtView::Seq(a, b) => bound_s(env, a) && bound_s(env, b),
        StmtView::If(c, a, b) => bound_e(env, c) && (bound_s(env, a) && bound_s(env, b)),
        StmtView::While(c, a) => bound_e(env, c) && bound_s(env, a),
        StmtView::Decl(x, a) => bound_s(&Env::Cons(x, env), a),
    }
}

fn bound_e(env: &Env<'_, '_>, e: Lazy<'_, Exp>) -> bool {
    match e.view() {
        ExpView::Var(x) => member_nat(x, env),
        ExpView::Lit(_) => true,
        ExpView::Add(a, b) => bound_e(env, a) && bound_e(env, b),
    }
}

/// The five invariants under parallel conjunction.
pub fn prop(s: Lazy<'_, Stmt>) -> Cool<'_> {
    Cool::atom(move || no_unused(s))
        & (Cool::atom(move || no_nested_if(s))
            & (Cool::atom(move || no_skip(s))
                & (Cool::atom(move || decls_top(s)) & Cool::atom(move || all_bound(s)))))
}

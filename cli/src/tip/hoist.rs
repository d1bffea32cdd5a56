//! Subterms of a conjecture that do not depend on its variables (a
//! constant graph, a list of constants, a call on literals): found once
//! per goal, evaluated once to a [`Frozen`] value, and read by every run
//! through `Expr::Constant` instead of being computed again in each.

use super::eval::{Frozen, Limits, Machine, Meanings};
use super::program::{Expr, Program};
use std::rc::Rc;

/// What one subterm is, as the rewrite sees it.
struct Shape {
    /// Reads no variable, declared symbol or closure: the same value in
    /// every run.
    closed: bool,
    /// Calls a function: worth computing once.
    calls: bool,
}

/// Makes an expression of the same form from its rewritten parts.
type Rebuild<'e> = Box<dyn Fn(Vec<Expr>) -> Expr + 'e>;

/// `body` with its largest closed subterms that call a function replaced
/// by `Expr::Constant(k)`, and the values of those `k`. A subterm whose
/// evaluation fails, or does not finish within `limits`, is left in place
/// (each run meets it as before).
pub(crate) fn hoist(
    prog: &Program,
    meanings: &Meanings,
    limits: Limits,
    body: &Expr,
) -> (Expr, Vec<Rc<Frozen>>) {
    let mut constants = vec![];
    // Each constant with a machine (and a step budget) of its own.
    let freeze = |e: &Expr| Machine::new(prog, meanings, limits).freeze(e);
    let (mut body, shape) = rewrite(body, &mut |e| {
        let value = freeze(e).ok()?;
        constants.push(value);
        Some(Expr::Constant(constants.len() - 1))
    });
    if shape.closed && shape.calls {
        // A conjecture without variables: evaluated once, too.
        if let Ok(value) = freeze(&body) {
            constants.push(value);
            body = Expr::Constant(constants.len() - 1);
        }
    }
    (body, constants)
}

/// The rewrite of `e`: a closed child that calls a function, under a
/// parent that is not closed, becomes what `constant` makes of it.
/// Recursive: expressions nest at most `MAX_NESTING` deep (the parser's
/// bound).
fn rewrite(e: &Expr, constant: &mut dyn FnMut(&Expr) -> Option<Expr>) -> (Expr, Shape) {
    let leaf = |closed: bool| Shape {
        closed,
        calls: false,
    };
    let (parts, rebuild): (Vec<&Expr>, Rebuild<'_>) = match e {
        Expr::Local(_) | Expr::Free(_) | Expr::Lambda(_) => return (e.clone(), leaf(false)),
        Expr::Int(_) | Expr::Bool(_) | Expr::Undefined | Expr::Constant(_) => {
            return (e.clone(), leaf(true))
        }
        Expr::FunRef(_) => return (e.clone(), leaf(true)),
        // Quantifiers bind variables of their own (read as `Local`s).
        Expr::Exists(..) | Expr::Forall(..) => return (e.clone(), leaf(false)),
        Expr::Call(f, xs) => (xs.iter().collect(), Box::new(move |xs| Expr::Call(*f, xs))),
        Expr::Con(c, xs) => (xs.iter().collect(), Box::new(move |xs| Expr::Con(*c, xs))),
        Expr::And(xs) => (xs.iter().collect(), Box::new(Expr::And)),
        Expr::Or(xs) => (xs.iter().collect(), Box::new(Expr::Or)),
        Expr::Implies(xs) => (xs.iter().collect(), Box::new(Expr::Implies)),
        Expr::Xor(xs) => (xs.iter().collect(), Box::new(Expr::Xor)),
        Expr::Eq(xs) => (xs.iter().collect(), Box::new(Expr::Eq)),
        Expr::Distinct(xs) => (xs.iter().collect(), Box::new(Expr::Distinct)),
        Expr::Arith(op, xs) => (
            xs.iter().collect(),
            Box::new(move |xs| Expr::Arith(*op, xs)),
        ),
        Expr::Cmp(op, xs) => (xs.iter().collect(), Box::new(move |xs| Expr::Cmp(*op, xs))),
        Expr::Select(c, k, x) => (
            vec![&**x],
            Box::new(move |mut xs| Expr::Select(*c, *k, Box::new(xs.remove(0)))),
        ),
        Expr::Is(c, x) => (
            vec![&**x],
            Box::new(move |mut xs| Expr::Is(*c, Box::new(xs.remove(0)))),
        ),
        Expr::Not(x) => (
            vec![&**x],
            Box::new(|mut xs| Expr::Not(Box::new(xs.remove(0)))),
        ),
        Expr::Neg(x) => (
            vec![&**x],
            Box::new(|mut xs| Expr::Neg(Box::new(xs.remove(0)))),
        ),
        Expr::Delay(x, need) => (
            vec![&**x],
            Box::new(move |mut xs| Expr::Delay(Box::new(xs.remove(0)), *need)),
        ),
        Expr::Ite(parts) => (
            parts.iter().collect(),
            Box::new(|xs| {
                let [c, t, f]: [Expr; 3] = xs.try_into().expect("three parts");
                Expr::Ite(Box::new([c, t, f]))
            }),
        ),
        Expr::Apply(f, xs) => (
            std::iter::once(&**f).chain(xs).collect(),
            Box::new(|mut xs| {
                let f = xs.remove(0);
                Expr::Apply(Box::new(f), xs)
            }),
        ),
        // Binders: the bound parts read their variables, so they are not
        // closed; the scrutinee and the bound expressions may be.
        Expr::Match(x, cases) => (
            std::iter::once(&**x)
                .chain(cases.iter().map(|(_, b)| b))
                .collect(),
            Box::new(move |mut xs| {
                let x = xs.remove(0);
                let cases = cases.iter().map(|(p, _)| p.clone()).zip(xs).collect();
                Expr::Match(Box::new(x), cases)
            }),
        ),
        Expr::Let(binds, body) => (
            binds
                .iter()
                .map(|(_, b)| b)
                .chain(std::iter::once(&**body))
                .collect(),
            Box::new(move |mut xs| {
                let body = xs.pop().expect("a body");
                let binds = binds.iter().map(|(s, _)| *s).zip(xs).collect();
                Expr::Let(binds, Box::new(body))
            }),
        ),
    };
    let binds = matches!(e, Expr::Match(..) | Expr::Let(..));
    let mut children = Vec::with_capacity(parts.len());
    let mut shape = Shape {
        closed: !binds,
        calls: matches!(e, Expr::Call(..) | Expr::Apply(..)),
    };
    for part in parts {
        let (child, s) = rewrite(part, constant);
        shape.closed &= s.closed;
        shape.calls |= s.calls;
        children.push((child, s));
    }
    if shape.closed {
        let children = children.into_iter().map(|(c, _)| c).collect();
        return (rebuild(children), shape);
    }
    let children = children
        .into_iter()
        .map(|(child, s)| match s.closed && s.calls {
            true => constant(&child).unwrap_or(child),
            false => child,
        })
        .collect();
    (rebuild(children), shape)
}

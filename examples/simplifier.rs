//! A small expression language and a buggy simplifier:
//! `cargo run --release --example simplifier` finds the smallest expression
//! whose value the simplifier changes.

use neatcheck::check::Config;
use neatcheck::Enumerable;

/// Expressions over one variable `X`.
#[derive(Enumerable, Debug, Clone, PartialEq)]
pub enum Expr {
    /// The variable.
    X,
    /// A small literal.
    Lit(#[enumerable(with = "neatcheck::space::range(0, 3, |n| n as u8)")] u8),
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
}

/// The value of an expression at `x`.
pub fn eval(e: &Expr, x: i64) -> i64 {
    match e {
        Expr::X => x,
        Expr::Lit(n) => *n as i64,
        Expr::Add(a, b) => eval(a, x).wrapping_add(eval(b, x)),
        Expr::Mul(a, b) => eval(a, x).wrapping_mul(eval(b, x)),
    }
}

/// Simplifies `0 + e`, `e + 0`, `1 * e`, `e * 1`, `0 * e`; bug: also
/// rewrites `e * e` to `e + e`.
fn simplify(e: &Expr) -> Expr {
    use Expr::*;
    match e {
        Add(a, b) => match (simplify(a), simplify(b)) {
            (Lit(0), e) | (e, Lit(0)) => e,
            (a, b) => Add(Box::new(a), Box::new(b)),
        },
        Mul(a, b) => match (simplify(a), simplify(b)) {
            (Lit(1), e) | (e, Lit(1)) => e,
            (Lit(0), _) | (_, Lit(0)) => Lit(0),
            (a, b) if a == b => Add(Box::new(a.clone()), Box::new(b)),
            (a, b) => Mul(Box::new(a), Box::new(b)),
        },
        e => e.clone(),
    }
}

fn main() {
    let result = Config::from_env()
        .try_check(|e: Expr| (-3..=3).all(|x| eval(&e, x) == eval(&simplify(&e), x)));
    match result {
        Ok(summary) => println!("no counterexample: {summary}"),
        Err(failure) => print!("{}", failure.report()),
    }
}

//! A glass-box regression suite for a small interpreter:
//! `cargo run --release --example regression_suite -- <out.rs>` explores
//! every expression up to a size bound, keeps one test per marked branch
//! and per demanded position (greedy set cover), and writes the tests as a
//! `#[cfg(test)]` module to `<out.rs>` (to stdout without an argument).
//! Put the module next to `eval` and `cargo test` runs it; after an
//! intended change, regenerate it and review the difference.

use neatcheck::suite::{self, Criterion, Export, RustExpr};
use neatcheck::Enumerable;

/// Expressions over two variables (`RustExpr` writes them as Rust in the
/// exported tests).
#[derive(Enumerable, RustExpr, Debug, Clone, PartialEq)]
pub enum Exp {
    Num(u8),
    /// `x` (false) or `y` (true).
    Var(bool),
    Add(Box<Exp>, Box<Exp>),
    Sub(Box<Exp>, Box<Exp>),
    /// `IfZero(c, t, e)`: `t` when `c` is 0, else `e`.
    IfZero(Box<Exp>, Box<Exp>, Box<Exp>),
}

/// The value of `e` with `x = 2`, `y = 5`: `None` when a subtraction goes
/// below zero.
pub fn eval(e: &Exp) -> Option<u32> {
    match e {
        Exp::Num(n) => Some(u32::from(*n)),
        Exp::Var(y) => Some(if *y { 5 } else { 2 }),
        Exp::Add(a, b) => Some(eval(a)? + eval(b)?),
        Exp::Sub(a, b) => {
            let (a, b) = (eval(a)?, eval(b)?);
            if a < b {
                suite::branch("sub: below zero");
                None
            } else {
                suite::branch("sub");
                Some(a - b)
            }
        }
        Exp::IfZero(c, t, f) => {
            if eval(c)? == 0 {
                suite::branch("if: then");
                eval(t)
            } else {
                suite::branch("if: else");
                eval(f)
            }
        }
    }
}

fn main() {
    let bound = 6;
    // `eval` takes a plain value: each input is forced whole.
    let all = match suite::record_forced(|e: Exp| eval(&e), bound) {
        Ok(all) => all,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    for criterion in [Criterion::Branches, Criterion::Shape, Criterion::Demand] {
        eprintln!("{criterion}: {}", all.reduce(criterion).summary());
    }
    let kept = all.reduce(Criterion::Shape);
    let export = Export::new("eval_suite", "eval(&{input})");
    match std::env::args().nth(1) {
        Some(path) => match kept.snapshot_with(&path, &export, true) {
            Ok(status) => eprintln!("{path}: {status:?} ({} tests)", kept.tests()),
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        },
        None => print!("{}", kept.to_rust(&export)),
    }
}

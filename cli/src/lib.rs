//! The library behind the `neatcheck` command: the TIP front end (`tip`),
//! the JSON-lines protocol of external predicates (`external`, `json`)
//! and the S-expression reader they share (`sexp`); `generate` writes the
//! test cases of a declaration for other harnesses. Both front ends search
//! through `adapter`, the one caller of the library's check driver.
//!
//! The command (`src/main.rs`) only hands its arguments to [`run`], on the
//! large stack of [`with_large_stack`]; everything else is internal.

#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub, missing_debug_implementations)]

mod adapter;
mod cli;
mod external;
mod generate;
mod json;
mod sexp;
#[cfg(test)]
mod tests;
mod tip;

pub use cli::{run, with_large_stack};

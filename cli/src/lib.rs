//! The library behind the `neatcheck` command: the TIP front end ([`tip`]),
//! the JSON-lines protocol of external predicates ([`external`], [`json`])
//! and the S-expression reader they share ([`sexp`]).
//!
//! The command (`src/main.rs`) only parses its arguments and calls these.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cli;
pub mod external;
pub mod json;
pub mod sexp;
#[cfg(test)]
mod tests;
pub mod tip;

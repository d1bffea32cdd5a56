//! The library behind the `neatcheck` command: the TIP front end ([`tip`]),
//! the JSON-lines protocol of external predicates ([`external`], [`json`])
//! and the S-expression reader they share ([`sexp`]).
//!
//! The command (`src/main.rs`) only parses its arguments and calls these.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod sexp;
pub mod tip;
pub mod cli;
pub mod external;
pub mod json;
#[cfg(test)]
mod tests;

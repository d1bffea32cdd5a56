//! The TIP front end: TIP problems (SMT-LIB's `declare-datatype`,
//! `define-fun(-rec)`, `define-funs-rec`, `match`, `ite`, `lambda`/`@`,
//! integers and booleans, `prove`) parsed, resolved and type-checked
//! (`program`),
//! interpreted over lazy inputs (`eval`) and searched for counterexamples
//! (`search`).

pub(crate) mod eval;
pub(crate) mod hoist;
pub(crate) mod program;
pub(crate) mod search;
pub(crate) mod symbolic;

pub(crate) use program::parse_program;
pub(crate) use search::{search_goal, SearchOptions, Verdict};

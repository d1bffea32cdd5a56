//! The TIP front end: TIP problems (SMT-LIB's `declare-datatype`,
//! `define-fun(-rec)`, `define-funs-rec`, `match`, `ite`, `lambda`/`@`,
//! integers and booleans, `prove`) parsed, resolved and type-checked
//! (`program`),
//! interpreted over lazy inputs (`eval`) and searched for counterexamples
//! (`search`).

pub mod eval;
pub mod program;
pub mod search;

pub use program::{parse_program, Program};
pub use search::{search_goal, SearchOptions, Verdict};

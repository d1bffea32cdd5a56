//! # neatcheck
//!
//! Lazy exhaustive property-based testing: neatcheck finds the *smallest*
//! input that breaks a program by enumerating every value up to a size
//! bound, but runs the property only once per class of inputs that it cannot
//! tell apart (the NEAT algorithm, a successor of Lazy SmallCheck).
//!
//! (The tutorial is in the crate documentation below.)

#![warn(missing_docs)]
#![allow(dead_code)]

pub mod check;
pub mod cool;
pub mod count;
pub mod grammar;
pub mod index;
pub mod lazy;
pub mod report;
pub mod search;
pub mod space;
pub mod values;

pub use check::{check, check_cool, check_with, collect, exists, implies, label, Config};
pub use lazy::{Lazy, LazyView};
pub use neatcheck_derive::Enumerable;
pub use space::{Enumerable, Space};

#[doc(hidden)]
pub mod __private {
    pub use crate::space::{Constructor, Fields};
}

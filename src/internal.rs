//! neatcheck's own errors during a run: inconsistent space descriptions
//! (a field or a mapped value of another type than described, a view of a
//! position that holds another space) are panics with a payload of their
//! own, so that searches and checks never report them as counterexamples of
//! the user's property.

pub(crate) mod quiet;

use std::any::Any;

/// The payload of a panic raised by neatcheck itself (see [`raise`]).
#[derive(Debug, Clone)]
pub(crate) struct InternalError {
    pub message: String,
}

/// What a check's report says before the cause of an internal error.
pub(crate) const PREFIX: &str = "neatcheck: internal error (not a counterexample of your property)";

/// Panics with an [`InternalError`]. Outside property runs the panic hook
/// prints its message like a string panic's (see [`quiet`]).
#[cold]
#[inline(never)]
pub(crate) fn raise(message: String) -> ! {
    quiet::install();
    std::panic::panic_any(InternalError { message })
}

/// The message of an internal error's payload, if it is one.
pub(crate) fn message_of(payload: &(dyn Any + Send)) -> Option<&str> {
    payload
        .downcast_ref::<InternalError>()
        .map(|e| e.message.as_str())
}

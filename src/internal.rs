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

/// The text of a panic payload.
pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(m) = message_of(payload) {
        m.to_string()
    } else if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(a panic with a non-string payload)".to_string()
    }
}

/// Runs a step of neatcheck's own work on an input outside a property run
/// (drawing, ruling out, shrinking, reporting): a panic there is
/// neatcheck's failure, never the property's, so it is raised again as an
/// internal error naming what was being done and the input (`doing`, made
/// only on failure). The panic hook may have been quiet: the message must
/// reach the user through the check's report.
pub(crate) fn handling<R>(doing: impl FnOnce() -> String, step: impl FnOnce() -> R) -> R {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(step)) {
        Ok(r) => r,
        // Raised by neatcheck with its context already.
        Err(p) if message_of(&*p).is_some() => std::panic::resume_unwind(p),
        Err(p) => raise(internal_message(&*p, &doing())),
    }
}

/// An internal error's message for a plain panic of neatcheck's own code.
pub(crate) fn internal_message(payload: &(dyn Any + Send), doing: &str) -> String {
    let at = quiet::last_location().map_or(String::new(), |at| format!(" at {at}"));
    format!("{PREFIX}: {}{at} (while {doing})", panic_message(payload))
}

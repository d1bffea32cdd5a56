//! Panics inside property runs: silenced (the report prints the message
//! once) and located (the report names where the property panicked).
//!
//! The panic hook is process-wide, so ours is installed once and delegates
//! to the previous hook on every thread that is not running a property.

use std::cell::{Cell, RefCell};
use std::sync::Once;

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
    static LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
    /// The message of the last panic silenced on this thread.
    static SILENCED: RefCell<Option<String>> = const { RefCell::new(None) };
}

pub(crate) fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let at = info.location().map(|l| l.to_string());
            LOCATION.with(|l| *l.borrow_mut() = at);
            if QUIET.with(Cell::get) {
                // The report prints the message once, with this location.
                let message = crate::internal::panic_message(info.payload());
                SILENCED.with(|m| *m.borrow_mut() = Some(message));
            } else if let Some(m) = crate::internal::message_of(info.payload()) {
                // The default hook prints only string payloads.
                let thread = std::thread::current();
                let at = info
                    .location()
                    .map_or(String::new(), |l| format!(" at {l}"));
                eprintln!(
                    "\nthread '{}' panicked{at}:\n{m}",
                    thread.name().unwrap_or("<unnamed>")
                );
            } else {
                previous(info);
            }
        }));
    });
}

/// While alive, panics on this thread print nothing and their location is
/// kept for [`last_location`].
pub(crate) struct Quiet {
    was: bool,
}

impl Quiet {
    pub(crate) fn new() -> Quiet {
        install();
        Quiet {
            was: QUIET.with(|q| q.replace(true)),
        }
    }
}

impl Drop for Quiet {
    fn drop(&mut self) {
        QUIET.with(|q| q.set(self.was));
        // A panic leaving the outermost quiet region was caught by no run:
        // it is neatcheck's own, and its message must not be lost.
        if !self.was && std::thread::panicking() {
            if let Some(m) = SILENCED.with(|m| m.borrow_mut().take()) {
                eprintln!("{}", escaped_message(&m));
            }
        }
    }
}

/// What is printed of a panic that left a quiet region.
fn escaped_message(message: &str) -> String {
    if message.starts_with(crate::internal::PREFIX) {
        message.to_string()
    } else {
        let at = last_location().map_or(String::new(), |at| format!(" at {at}"));
        format!("{}: {message}{at}", crate::internal::PREFIX)
    }
}

/// Silences panics on this thread for the rest of its life (the worker
/// threads of a parallel exhaustive phase, which end with it).
pub(crate) fn silence_this_thread() {
    install();
    QUIET.with(|q| q.set(true));
}

/// Where the last panic on this thread happened (`file:line:col`), once
/// the hook is installed.
pub(crate) fn last_location() -> Option<String> {
    LOCATION.with(|l| l.borrow().clone())
}

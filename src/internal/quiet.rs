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
}

pub(crate) fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) {
                let at = info.location().map(|l| l.to_string());
                LOCATION.with(|l| *l.borrow_mut() = at);
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
    }
}

/// Silences panics on this thread for the rest of its life (the worker
/// threads of a parallel exhaustive phase, which end with it).
pub(crate) fn silence_this_thread() {
    install();
    QUIET.with(|q| q.set(true));
}

/// Where the last silenced panic on this thread happened (`file:line:col`).
pub(crate) fn last_location() -> Option<String> {
    LOCATION.with(|l| l.borrow().clone())
}

//! Labels of runs (`label`, `collect`): attached during a run on the
//! running thread, taken by the driver after it.

use std::cell::RefCell;
use std::fmt::Debug;

thread_local! {
    /// `Some` while a check runs on this thread.
    static LABELS: RefCell<Option<Vec<String>>> = const { RefCell::new(None) };
}

/// Attaches a label to the current run (like QuickCheck's `classify`): a
/// passing check's verbose summary lists, per label, the percentage of runs
/// that carried it (each run counted once). Does nothing outside a check.
pub fn label(name: impl Into<String>) {
    LABELS.with(|l| {
        if let Some(v) = l.borrow_mut().as_mut() {
            v.push(name.into());
        }
    });
}

/// Labels the current run with a value (like QuickCheck's `collect`).
pub fn collect<V: Debug>(value: V) {
    label(format!("{value:?}"))
}

/// The labels of the run just made on this thread.
pub(crate) fn take() -> Vec<String> {
    LABELS.with(|l| {
        l.borrow_mut()
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    })
}

/// Collects labels on this thread from now on (worker threads of a
/// parallel search, which end with the search).
pub(crate) fn activate() {
    LABELS.with(|l| {
        let mut l = l.borrow_mut();
        if l.is_none() {
            *l = Some(vec![]);
        }
    });
}

/// While alive, labels are collected on this thread.
pub(crate) struct Scope {
    was: Option<Vec<String>>,
}

impl Scope {
    pub(crate) fn new() -> Scope {
        Scope {
            was: LABELS.with(|l| l.borrow_mut().replace(vec![])),
        }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        let was = self.was.take();
        LABELS.with(|l| *l.borrow_mut() = was);
    }
}

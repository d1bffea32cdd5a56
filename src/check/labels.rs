//! Labels of runs (`label`, `collect`) and coverage requirements
//! (`cover`): attached during a run on the running thread, taken by the
//! driver after it.

use std::cell::RefCell;
use std::fmt::Debug;

/// What one run attached.
#[derive(Debug, Default)]
pub(crate) struct RunLabels {
    /// Its labels, in the order attached (repeats included).
    pub(crate) labels: Vec<String>,
    /// The shares of runs (in percent) it asked of labels (`cover`).
    pub(crate) required: Vec<(String, f64)>,
}

thread_local! {
    /// `Some` while a check runs on this thread.
    static LABELS: RefCell<Option<RunLabels>> = const { RefCell::new(None) };
}

/// Attaches a label to the current run (like QuickCheck's `classify`): a
/// passing check prints, on one line that `cargo test` shows, the
/// percentage of runs that carried each label (each run counted once), or
/// with many labels how to print their table (`NEATCHECK_VERBOSE=1`). The
/// summary ([`crate::check::Summary::labels`]) and the JSON line
/// ([`crate::Config::json_lines`]) have the counts. Does nothing outside a
/// check.
pub fn label(name: impl Into<String>) {
    LABELS.with(|l| {
        if let Some(run) = l.borrow_mut().as_mut() {
            run.labels.push(name.into());
        }
    });
}

/// Requires that at least `percent` percent of the runs carry `label`, and
/// labels this run with it when `condition` holds (QuickCheck's `cover`
/// with `checkCoverage`). A passing check in which the label's share, over
/// the runs its label table counts (the last exhausted size and the random
/// cases whose precondition held), is smaller fails and names the label:
/// the share is counted, not estimated, so the verdict is the same on every
/// run. Does nothing outside a check.
///
/// ```
/// use neatcheck::{cover, Config};
/// // At least a tenth of the lists tested must hold three elements or more.
/// let summary = Config::default()
///     .try_check(|xs: Vec<u8>| {
///         cover(10.0, xs.len() >= 3, "three or more");
///         xs.iter().rev().rev().eq(xs.iter())
///     })
///     .unwrap();
/// assert!(summary.problems.is_empty(), "{:?}", summary.problems);
///
/// // A requirement the inputs do not meet fails the check, saying why.
/// let summary = Config::default()
///     .try_check(|x: u8| {
///         cover(50.0, x == 7, "seven");
///         x.wrapping_add(1) != x
///     })
///     .unwrap();
/// assert!(summary.problems[0].contains("`seven`"), "{:?}", summary.problems);
/// ```
pub fn cover(percent: f64, condition: bool, label: impl Into<String>) {
    LABELS.with(|l| {
        if let Some(run) = l.borrow_mut().as_mut() {
            let label = label.into();
            if condition {
                run.labels.push(label.clone());
            }
            run.required.push((label, percent));
        }
    });
}

/// Labels the current run with a value (like QuickCheck's `collect`).
pub fn collect<V: Debug>(value: V) {
    label(format!("{value:?}"))
}

/// The labels of the run just made on this thread.
pub(crate) fn take() -> RunLabels {
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
            *l = Some(RunLabels::default());
        }
    });
}

/// While alive, labels are collected on this thread.
pub(crate) struct Scope {
    was: Option<RunLabels>,
}

impl Scope {
    pub(crate) fn new() -> Scope {
        Scope {
            was: LABELS.with(|l| l.borrow_mut().replace(RunLabels::default())),
        }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        let was = self.was.take();
        LABELS.with(|l| *l.borrow_mut() = was);
    }
}

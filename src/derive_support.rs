//! The derive protocol: everything the output of `#[derive(Enumerable)]`
//! calls that is not user-facing API, as free functions and two small types.
//! The crate root re-exports this module, hidden, as `neatcheck::__private`;
//! nothing here is meant for hand-written code, and it may change with the
//! derive.
//!
//! What the generated code does with each item:
//!
//! - `describe()` starts by registering the `Debug` printers of the type and
//!   of its field types ([`Show`], [`ShowDebug`], [`ShowNone`]), so reports
//!   can print complete values of positions whose alternatives carry no
//!   constructor name (a field with a space of its own). Whether a type is
//!   `Debug` is known only where the derive expands, so the choice is made
//!   there, by autoref specialisation: `(&&Show::<X>::new()).register_printer()`
//!   finds `ShowDebug` (implemented for `&Show<X>` when `X: Debug`) before
//!   `ShowNone` (implemented for every `Show<X>`, one more dereference away).
//! - `force_lazy` (the typed materialiser) asks [`is_canonical`] first: a
//!   position holding another space than the type's own is handed to the
//!   generic materialiser (`Lazy::force_generic`). It then enters one
//!   [`DepthGuard`] level (past [`DepthGuard::LIMIT`] nested typed
//!   materialisers the rest of the value also goes to the generic,
//!   iterative one, so forcing a deep value never overflows the stack),
//!   reads the position with [`open`] (the alternative's declaration tag and
//!   the node of its first field) and builds the constructor from its
//!   fields' handles ([`field`]), each forced by its own type.
//! - The view (`LazyView::view`) reads the position with [`open`] and wraps
//!   the fields' handles ([`field`]) in the view type. A field with a space
//!   of its own (`#[enumerable(with = ...)]`) is handed out through
//!   [`checked`]: a search that trusts the grammar (every position holds its
//!   type's own space) skips the per-read checks, and such a field's reads,
//!   and the reads below it, must not be taken on trust.
//! - A transparent struct (`#[enumerable(transparent)]`) is the very
//!   position of its field: [`transparent_field`] retypes the handle.
//! - `__unbuild` (taking a value apart into its tree) checks
//!   [`Unbuild::holds`], then builds its variant's node with
//!   [`Unbuild::node`], each field taken apart by its own type.
//!
//! Positions are `u32` node indices of the run's arena, and tags are the
//! alternatives' indices in declaration order (skipped variants excluded):
//! the derive numbers its match arms the same way.

pub use crate::grammar::Tree;
pub use crate::types::{Unbuild, UnbuildField};

use crate::describe::show_with_debug;
use crate::handle::Lazy;
use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;

/// Reads the position (recording it if open) and returns the declaration tag
/// of its alternative and the node index of its first field.
///
/// # Panics
/// If the search checks its reads and the position does not hold `T`'s own
/// space (such a position can only be forced).
#[inline(always)]
pub fn open<T: 'static>(lazy: Lazy<'_, T>) -> (u32, u32) {
    lazy.open()
}

/// The handle of field `i` of the alternative whose first field is `first`
/// (from [`open`]), typed by the field's type. Reads nothing.
#[inline(always)]
pub fn field<'a, F, T>(lazy: Lazy<'a, T>, first: u32, i: u32) -> Lazy<'a, F> {
    lazy.field_at(first, i)
}

/// The same position, on the run's context that checks every read: the
/// handle of a field with a space of its own.
#[inline(always)]
pub fn checked<T>(lazy: Lazy<'_, T>) -> Lazy<'_, T> {
    lazy.checked()
}

/// Whether the position holds `T`'s own space (does not read it).
#[inline(always)]
pub fn is_canonical<T: 'static>(lazy: Lazy<'_, T>) -> bool {
    lazy.is_canonical()
}

/// The handle of the one field of a transparent wrapper: the same position,
/// typed by the field's type.
#[inline(always)]
pub fn transparent_field<'a, F, T>(lazy: Lazy<'a, T>) -> Lazy<'a, F> {
    lazy.cast()
}

thread_local! {
    static FORCE_DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// One level of nested typed materialisers (`force_lazy`) on this thread;
/// dropping it leaves the level.
#[derive(Debug)]
pub struct DepthGuard(());

impl DepthGuard {
    /// How many typed materialisers may nest before the rest of the value is
    /// left to the generic (iterative) one.
    pub const LIMIT: u32 = 64;

    /// Enters one level, or `None` when the typed recursion is deep enough.
    #[inline(always)]
    pub fn enter() -> Option<DepthGuard> {
        FORCE_DEPTH.with(|depth| {
            let d = depth.get();
            if d >= Self::LIMIT {
                None
            } else {
                depth.set(d + 1);
                Some(DepthGuard(()))
            }
        })
    }
}

impl Drop for DepthGuard {
    #[inline(always)]
    fn drop(&mut self) {
        FORCE_DEPTH.with(|depth| depth.set(depth.get() - 1));
    }
}

/// Registers `T`'s `Debug` printer for reports when `T: Debug` is known at
/// the expansion site, and does nothing otherwise (see the module docs).
pub struct Show<T>(PhantomData<fn() -> T>);

impl<T> Show<T> {
    /// The selector for `T`.
    pub fn new() -> Self {
        Show(PhantomData)
    }
}

impl<T> Default for Show<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> fmt::Debug for Show<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Show<{}>", std::any::type_name::<T>())
    }
}

/// The registration chosen when the type is `Debug`.
pub trait ShowDebug {
    /// Registers the type's `Debug` text as its report printer.
    fn register_printer(&self);
}

impl<T: fmt::Debug + 'static> ShowDebug for &Show<T> {
    fn register_printer(&self) {
        show_with_debug::<T>();
    }
}

/// The fallback for types that are not `Debug`: registers nothing.
pub trait ShowNone {
    /// Does nothing.
    fn register_printer(&self);
}

impl<T> ShowNone for Show<T> {
    fn register_printer(&self) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::describe::debug_text;

    struct NotDebug;

    #[test]
    #[allow(clippy::needless_borrow)] // the double reference selects the impl
    fn registration_picks_debug_when_there_is_one() {
        #[derive(Debug)]
        struct Shown(#[allow(dead_code)] u8);
        (&&Show::<Shown>::new()).register_printer();
        (&&Show::<NotDebug>::new()).register_printer();
        assert_eq!(debug_text(&Shown(3)).as_deref(), Some("Shown(3)"));
        assert_eq!(debug_text(&NotDebug), None);
    }

    #[test]
    fn depth_guards_stop_at_the_limit_and_release_on_drop() {
        let guards: Vec<DepthGuard> = std::iter::from_fn(DepthGuard::enter).collect();
        assert_eq!(guards.len(), DepthGuard::LIMIT as usize);
        assert!(DepthGuard::enter().is_none());
        drop(guards);
        let again: Vec<DepthGuard> = std::iter::from_fn(DepthGuard::enter).collect();
        assert_eq!(again.len(), DepthGuard::LIMIT as usize);
    }
}

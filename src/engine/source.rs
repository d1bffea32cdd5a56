//! Where a search gets its grammar on each thread: the canonical space of
//! the searched type, or a space given for one check.

use crate::describe::{IntegerSizes, Space};
use crate::grammar::Grammar;
use crate::types::grammar_of;
use crate::Enumerable;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Where the searchers of a check get their grammar: the canonical space
/// of `T`, or a space the user gave for this check ([`crate::Config::spaces`]).
/// Every thread compiles its own (grammars are not `Send`) and keeps it for
/// the rest of the check.
pub(crate) enum GrammarSource<T> {
    Canonical,
    Given {
        space: Arc<dyn Fn() -> Space<T> + Send + Sync>,
        /// Tells the per-thread caches of two checks apart.
        id: u64,
    },
}

impl<T> Clone for GrammarSource<T> {
    fn clone(&self) -> Self {
        match self {
            GrammarSource::Canonical => GrammarSource::Canonical,
            GrammarSource::Given { space, id } => GrammarSource::Given {
                space: space.clone(),
                id: *id,
            },
        }
    }
}

impl<T> std::fmt::Debug for GrammarSource<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GrammarSource::Canonical => f.write_str("Canonical"),
            GrammarSource::Given { id, .. } => f.debug_struct("Given").field("id", id).finish(),
        }
    }
}

thread_local! {
    /// Grammars of given spaces compiled on this thread: (source id, integer
    /// sizes) -> grammar. Cleared when it grows: a new check recompiles.
    static GIVEN: RefCell<HashMap<(u64, IntegerSizes), Rc<Grammar>>> =
        RefCell::new(HashMap::new());
}

impl<T: Enumerable> GrammarSource<T> {
    /// A source for a given space.
    pub(crate) fn given(space: impl Fn() -> Space<T> + Send + Sync + 'static) -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        GrammarSource::Given {
            space: Arc::new(space),
            id: NEXT.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// This thread's grammar of the source.
    pub(crate) fn grammar(&self) -> Rc<Grammar> {
        match self {
            GrammarSource::Canonical => grammar_of::<T>(),
            GrammarSource::Given { space, id } => {
                let key = (*id, crate::describe::integer_sizes());
                if let Some(g) = GIVEN.with(|c| c.borrow().get(&key).cloned()) {
                    return g;
                }
                let g = crate::grammar::compile_space(&space());
                GIVEN.with(|c| {
                    let mut c = c.borrow_mut();
                    if c.len() >= 64 {
                        c.clear();
                    }
                    c.insert(key, g.clone());
                });
                g
            }
        }
    }
}

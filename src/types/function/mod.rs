//! Functions as inputs: [`Fun`] and [`Fun2`], enumerated the NEAT way, by
//! case distinctions on the argument and constant results (Paper II,
//! section 3.1), and read lazily.
//!
//! A function's decisions walk its argument in pre-order, one *pending*
//! position at a time (the curried form `A -> B` becomes, after a case on a
//! constructor with fields `F1..Fk`, `F1 -> .. -> Fk -> B`). At each
//! position it may *skip* (not look) or *decide*: a case on the position's
//! alternative (one branch per alternative, each a function of that
//! alternative's fields and of what is still pending), or, for an integer or
//! a character, a split at a key (`x <= key`, each side a function of the
//! same pending positions). A position with a single alternative (a struct,
//! a tuple) is opened for free, and one that can not be decided on (a float)
//! is skipped for free. With nothing pending, the function is its result.
//! A case or a split costs 1, so the size of a function is its number of
//! decisions plus the sizes of its keys and results, as in the paper.
//!
//! Each list of pending sorts is a sort of the grammar (a run-time key per
//! list, interned per function type and thread), so counting, indexing,
//! sampling, replay keys, shrinking and the search treat function spaces
//! like any other. Applied during a run, a function reads its decision
//! nodes through the run's context (found by `handle::with_run`): never
//! applied, it costs nothing; applied, the search refines exactly the
//! decisions and results the property reached. Built from a tree (reports,
//! replay, sampling), it holds its decisions ([`Decision`]).

mod apply;
mod print;
mod space;

use super::unbuild::Unbuild;
use super::Enumerable;
use crate::grammar::{Grammar, SortId, Tree};
use crate::handle::Lazy;
use apply::*;
use space::*;
use std::fmt;
use std::rc::Rc;
use std::sync::Arc;

pub(crate) use print::{function_text, DecisionTree, Step};
pub(crate) use space::function_shape;

/// A function of two arguments as a callable.
type Callable2<A1, A2, B> = dyn Fn(&A1, &A2) -> B + Send + Sync;

// ---------------------------------------------------------------------------
// The public types
// ---------------------------------------------------------------------------

/// A function from `A` to `B` as an input: a property quantifies over
/// functions (predicates, mappers, comparators, callbacks) by taking one.
///
/// Call it like a closure, `f(&x)` (it dereferences to `dyn Fn(&A) -> B`),
/// or pass `&*f` where an `Fn(&A) -> B` is expected. Functions are
/// enumerated by case distinctions on the argument and constant results,
/// the size of a function being its number of decisions plus the sizes of
/// its keys and results. During a search a function reads its decisions
/// only when applied, so the search refines a function exactly as far as
/// the property uses it. Counterexamples print it as a `match`:
///
/// ```
/// use neatcheck::{Config, Fun};
///
/// // "A predicate that holds for 0 holds for 1" is false:
/// let c = Config::default().try_check(|f: Fun<u8, bool>| !f(&0) || f(&1)).unwrap_err();
/// assert!(c.value.call(&0) && !c.value.call(&1));
/// assert_eq!(format!("{:?}", c.value), "|x| match x { 0 => true, _ => false }");
/// ```
///
/// Through a [`Lazy`] handle, `apply` gives the result's position without
/// reading it, and `apply_lazy` applies the function to a lazy argument,
/// reading only the parts its decisions look at. Printed during its run
/// (`{f:?}` in a property), a function shows its decisions as they stand,
/// without reading them.
///
/// # Sizes and limits
///
/// - A case or a split costs 1, a skip nothing, and a result its own
///   size: `|_| false` has size 1 (a `bool`), `|x| match x { 0 => true,
///   _ => false }` size 3.
/// - `A` must be a type whose values can be taken apart: integers,
///   characters, `bool`, tuples, `Option`, `Result`, `Vec`, `String`,
///   `Box` and derived types. Applied to a value holding a float, a set or
///   a map, a function reports it as an error; `A` can not be a function.
/// - A function decides on at most 8 pending positions at once: only
///   arguments with two recursive fields (trees) reach that, and past it a
///   function skips before it decides again.
/// - Two functions are equal (and hash alike) when their decisions are
///   equal, not merely their results.
/// - Made during a run, a function reads the run's input: calling it after
///   the run, or on another thread, is an error that says so.
pub struct Fun<A, B> {
    core: Arc<Core<A, B>>,
    call: Arc<dyn Fn(&A) -> B + Send + Sync>,
}

/// A function of two arguments as an input (a comparator, a fold's step):
/// call it as `f(&x, &y)`. It decides on `x` and `y` as [`Fun`] decides
/// on a pair, and prints as `|x, y| match (x, y) { .. }`.
///
/// ```
/// use neatcheck::{Config, Fun2};
///
/// // "Every operation on booleans is commutative" is false:
/// let c = Config::default()
///     .try_check(|op: Fun2<bool, bool, bool>| op(&false, &true) == op(&true, &false))
///     .unwrap_err();
/// assert_ne!(c.value.call(&false, &true), c.value.call(&true, &false));
/// ```
pub struct Fun2<A1, A2, B> {
    core: Arc<Core<(A1, A2), B>>,
    call: Arc<Callable2<A1, A2, B>>,
}

impl<A, B> Clone for Fun<A, B> {
    fn clone(&self) -> Self {
        Fun {
            core: self.core.clone(),
            call: self.call.clone(),
        }
    }
}

impl<A1, A2, B> Clone for Fun2<A1, A2, B> {
    fn clone(&self) -> Self {
        Fun2 {
            core: self.core.clone(),
            call: self.call.clone(),
        }
    }
}

impl<A, B> std::ops::Deref for Fun<A, B> {
    type Target = dyn Fn(&A) -> B + Send + Sync;
    fn deref(&self) -> &Self::Target {
        &*self.call
    }
}

impl<A1, A2, B> std::ops::Deref for Fun2<A1, A2, B> {
    type Target = Callable2<A1, A2, B>;
    fn deref(&self) -> &Self::Target {
        &*self.call
    }
}

impl<A: Enumerable, B: Enumerable + Clone + Send + Sync> Fun<A, B> {
    fn new(core: Core<A, B>) -> Self {
        let core = Arc::new(core);
        let inner = core.clone();
        let call = Arc::new(move |x: &A| inner.apply(|g| x.__unbuild(Unbuild::root(g))));
        Fun { core, call }
    }

    /// Applies the function (the same as `f(x)`).
    pub fn call(&self, x: &A) -> B {
        (self.call)(x)
    }
}

impl<A1: Enumerable, A2: Enumerable, B: Enumerable + Clone + Send + Sync> Fun2<A1, A2, B> {
    fn new(core: Core<(A1, A2), B>) -> Self {
        let core = Arc::new(core);
        let inner = core.clone();
        let call = Arc::new(move |x: &A1, y: &A2| inner.apply(|g| pair_tree(g, x, y)));
        Fun2 { core, call }
    }

    /// Applies the function (the same as `f(x, y)`).
    pub fn call(&self, x: &A1, y: &A2) -> B {
        (self.call)(x, y)
    }
}

/// The tree of the pair `(x, y)` in the grammar of `(A1, A2)`.
fn pair_tree<A1: Enumerable, A2: Enumerable>(g: &Grammar, x: &A1, y: &A2) -> Option<Tree> {
    let (pair, slots) = g.root.open(g);
    Some(Tree::Node(
        pair,
        vec![
            Rc::new(x.__unbuild(Unbuild::at(g, slots[0]))?),
            Rc::new(y.__unbuild(Unbuild::at(g, slots[1]))?),
        ],
    ))
}

impl<A: Enumerable, B: Enumerable + Clone + Send + Sync> Enumerable for Fun<A, B> {
    fn describe() -> crate::describe::Space<Self> {
        let name = format!(
            "Fun<{}, {}>",
            std::any::type_name::<A>(),
            std::any::type_name::<B>()
        );
        function_space(shape_of::<A>(1, name), |d| Fun::new(Core::built(d)))
    }

    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        match lazy.is_canonical().then(|| Core::live(lazy)).flatten() {
            Some(core) => Fun::new(core),
            None => lazy.force_generic(),
        }
    }
}

impl<A1, A2, B> Enumerable for Fun2<A1, A2, B>
where
    A1: Enumerable,
    A2: Enumerable,
    B: Enumerable + Clone + Send + Sync,
{
    fn describe() -> crate::describe::Space<Self> {
        let name = format!(
            "Fun2<{}, {}, {}>",
            std::any::type_name::<A1>(),
            std::any::type_name::<A2>(),
            std::any::type_name::<B>()
        );
        function_space(shape_of::<(A1, A2)>(2, name), |d| Fun2::new(Core::built(d)))
    }

    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        match lazy.is_canonical().then(|| Core::live(lazy)).flatten() {
            Some(core) => Fun2::new(core),
            None => lazy.force_generic(),
        }
    }
}

impl<'a, A: Enumerable, B: Enumerable + Clone + Send + Sync> Lazy<'a, Fun<A, B>> {
    /// The position of the function's result for `x`, reading only the
    /// function's decisions on the way (not the result).
    ///
    /// ```
    /// use neatcheck::{search, Fun, Lazy};
    ///
    /// // Never applied: one run stands for every function.
    /// assert_eq!(search::classes(|_: Lazy<Fun<u8, bool>>| true, 10).runs, 1);
    /// // Applied to `true`, its result read: a skip or a case on the way,
    /// // then either result; the result for `false` is never read.
    /// let classes = search::classes(|f: Lazy<Fun<bool, bool>>| f.apply(&true).get(), 9);
    /// assert_eq!(classes.runs, 4);
    /// ```
    pub fn apply(self, x: &A) -> Lazy<'a, B> {
        self.apply_tree(|g| x.__unbuild(Unbuild::root(g)))
    }

    /// The position of the function's result for the argument at `x`,
    /// reading only the parts of `x` the function's decisions look at: a
    /// search over functions and their arguments together refines an
    /// argument only where some function decides on it.
    ///
    /// ```
    /// use neatcheck::{search, Fun, Lazy};
    ///
    /// // Every element satisfies `p`: a constant `p` never reads the
    /// // elements, so far fewer classes than the lists times the functions.
    /// let all = |p: Lazy<Fun<u8, bool>>, xs: Lazy<Vec<u8>>| xs.iter().all(|x| p.apply_lazy(x).get());
    /// let classes = search::classes(|input: Lazy<(Fun<u8, bool>, Vec<u8>)>| {
    ///     let (p, xs) = input.view();
    ///     all(p, xs)
    /// }, 8);
    /// assert!(classes.runs < 100, "{} runs", classes.runs);
    /// ```
    pub fn apply_lazy(self, x: Lazy<'a, A>) -> Lazy<'a, B> {
        if !x.is_canonical() || !same_run(self.ctx, x.ctx) {
            // Another space than `A`'s own: its positions are not `A`'s
            // grammar's; take the whole value apart.
            let value = x.force();
            return self.apply(&value);
        }
        let (shape, start) = live_root(self.ctx, self.node);
        let argument = ArenaArgument {
            ctx: x.ctx,
            node: x.node,
            sort: shape.arg.root,
        };
        Lazy::new(
            self.ctx,
            result_node(self.ctx, &shape.arg, start, vec![argument]),
        )
    }

    fn apply_tree(self, make_tree: impl FnOnce(&Grammar) -> Option<Tree>) -> Lazy<'a, B> {
        let (shape, start) = live_root(self.ctx, self.node);
        let tree = make_tree(&shape.arg).unwrap_or_else(|| cannot_take_apart::<A>());
        Lazy::new(
            self.ctx,
            result_node(self.ctx, &shape.arg, start, vec![Rc::new(tree)]),
        )
    }
}

impl<'a, A1, A2, B> Lazy<'a, Fun2<A1, A2, B>>
where
    A1: Enumerable,
    A2: Enumerable,
    B: Enumerable + Clone + Send + Sync,
{
    /// The position of the function's result for `(x, y)` (see
    /// [`Lazy::apply`] for one argument).
    pub fn apply(self, x: &A1, y: &A2) -> Lazy<'a, B> {
        self.cast::<Fun<(A1, A2), B>>()
            .apply_tree(|g| pair_tree(g, x, y))
    }

    /// The position of the function's result for the arguments at `x` and
    /// `y`, reading only what its decisions look at (see
    /// [`Lazy::apply_lazy`] for one argument).
    pub fn apply_lazy(self, x: Lazy<'a, A1>, y: Lazy<'a, A2>) -> Lazy<'a, B> {
        let same = same_run(self.ctx, x.ctx) && same_run(self.ctx, y.ctx);
        if !x.is_canonical() || !y.is_canonical() || !same {
            let (x, y) = (x.force(), y.force());
            return self.apply(&x, &y);
        }
        let (shape, start) = live_root(self.ctx, self.node);
        let g = &shape.arg;
        let (_, slots) = g.root.open(g);
        let at = |l: u32, sort: SortId| ArenaArgument {
            ctx: self.ctx,
            node: l,
            sort,
        };
        let pending = vec![at(y.node, slots[1]), at(x.node, slots[0])];
        Lazy::new(self.ctx, result_node(self.ctx, g, start, pending))
    }
}

impl<A: Enumerable, B: fmt::Debug + 'static> fmt::Debug for Fun<A, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.core.text(1))
    }
}

impl<A1: Enumerable, A2: Enumerable, B: fmt::Debug + 'static> fmt::Debug for Fun2<A1, A2, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.core.text(2))
    }
}

/// Equal decisions (see [`Fun`]'s docs): two functions that give the same
/// results by different decisions are different inputs.
impl<A, B: PartialEq> PartialEq for Fun<A, B> {
    fn eq(&self, other: &Self) -> bool {
        self.core.decisions == other.core.decisions
    }
}

/// Equal decisions, as for [`Fun`].
impl<A1, A2, B: PartialEq> PartialEq for Fun2<A1, A2, B> {
    fn eq(&self, other: &Self) -> bool {
        self.core.decisions == other.core.decisions
    }
}

impl<A, B: Eq> Eq for Fun<A, B> {}
impl<A1, A2, B: Eq> Eq for Fun2<A1, A2, B> {}

/// Hashes the decisions (consistent with equality: see [`Fun`]).
impl<A, B: std::hash::Hash> std::hash::Hash for Fun<A, B> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.core.decisions.hash(state)
    }
}

/// Hashes the decisions, as for [`Fun`].
impl<A1, A2, B: std::hash::Hash> std::hash::Hash for Fun2<A1, A2, B> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.core.decisions.hash(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search;
    use std::cell::RefCell;

    fn internal_error(f: impl FnOnce()) -> String {
        let payload = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
            .expect_err("an internal error");
        crate::internal::panic_message(&*payload)
    }

    /// A function kept past its run, or sent to another thread, says so
    /// when applied (it can not read a run that is over).
    #[test]
    fn a_live_function_outside_its_run_says_so() {
        let kept: RefCell<Option<Fun<u8, bool>>> = RefCell::new(None);
        let _ = search::classes(
            |f: Lazy<Fun<u8, bool>>| {
                *kept.borrow_mut() = Some(f.force());
                true
            },
            2,
        );
        let f = kept.into_inner().expect("kept");
        let message = internal_error(|| {
            let _ = f(&1);
        });
        assert!(
            message.contains("called after the run that made it ended"),
            "{message}"
        );

        let sent: std::sync::Mutex<Option<Fun<u8, bool>>> = std::sync::Mutex::new(None);
        let classes = search::classes(
            |f: Lazy<Fun<u8, bool>>| {
                let f = f.force();
                let message = std::thread::scope(|s| {
                    s.spawn(|| {
                        internal_error(|| {
                            let _ = f(&1);
                        })
                    })
                    .join()
                    .unwrap()
                });
                *sent.lock().unwrap() = Some(f);
                message.contains("on another thread")
            },
            2,
        );
        assert!(sent.lock().unwrap().is_some());
        assert_eq!(classes.satisfying, classes.runs, "every run saw the error");
    }

    /// Printed during its run, a function shows its decisions as they
    /// stand, and printing reads nothing: the search is the same.
    #[test]
    fn a_live_function_prints_as_it_stands_without_reading() {
        let prop = |f: Lazy<Fun<u8, bool>>| f.force()(&3);
        let plain = search::classes(prop, 6);
        let shown: RefCell<Vec<String>> = RefCell::new(vec![]);
        let printing = search::classes(
            |f: Lazy<Fun<u8, bool>>| {
                let f = f.force();
                shown.borrow_mut().push(format!("{f:?}"));
                f(&3)
            },
            6,
        );
        assert_eq!(
            (plain.runs, plain.satisfying),
            (printing.runs, printing.satisfying)
        );
        let shown = shown.into_inner();
        assert_eq!(shown[0], "|_| false");
        assert!(shown.contains(&"|_| true".to_string()), "{shown:?}");
        assert!(
            shown.iter().any(|s| s.starts_with("|x| match x {")),
            "{shown:?}"
        );
    }

    /// An argument that can not be taken apart is a clear error.
    #[test]
    fn an_argument_that_can_not_be_taken_apart_says_so() {
        let f = crate::values::values_of::<Fun<Vec<f64>, bool>>(1).remove(0);
        assert!(f(&vec![]) || !f(&vec![]));
        let message = internal_error(|| {
            let _ = f(&vec![1.5]);
        });
        assert!(message.contains("can not be taken apart"), "{message}");
    }

    /// Deep decisions are dropped and compared without recursion.
    #[test]
    fn deep_decisions_take_no_stack() {
        let mut d: Decision<bool> = Decision::Result(true);
        for _ in 0..200_000 {
            d = Decision::Skip(Box::new(d));
        }
        let twin = {
            let mut d: Decision<bool> = Decision::Result(true);
            for _ in 0..200_000 {
                d = Decision::Skip(Box::new(d));
            }
            d
        };
        assert!(Decisions::Built(d) == Decisions::Built(twin));
    }
}

//! What an exploration calls: the [`Callable`] forms a function may take
//! (plain or lazy arguments, one to four of them), and their type-erased
//! search over one size bound, run on a worker thread.

use super::alloc::Armed;
use crate::check::{LazyArg, LazyArgs, PlainArg, PlainArgs};
use crate::engine::{RunResult, Searcher};
use crate::grammar::Tree;
use crate::handle::Lazy;
use crate::run_slot::{RunSlot, SlotShared};
use crate::types::Enumerable;
use std::fmt::Debug;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// A function an exploration can call on the inputs of `T` (the marker `M`
/// tells the forms apart): a function or closure of one to four plain
/// `Enumerable` arguments (`T` is then the argument or the tuple of them),
/// of one or two arguments some of which are borrowed (`&str`, `&[A]`,
/// `&A`: `T` holds their owned forms, `String`, `Vec<A>`, `A`, and each
/// call borrows them), or of one to four lazy handles (`Lazy<A>`, ...),
/// which reads only the parts of its arguments it needs so that one call
/// stands for every input that agrees on them. A function whose result
/// borrows from a borrowed argument (`fn(&str) -> &str`) is explored
/// through a closure that owns it (`|s: String| first(&s).len()`). What it returns is dropped; a panic is a failure.
#[diagnostic::on_unimplemented(
    message = "this is not a function neatcheck can explore",
    label = "not explorable",
    note = "an explored function takes one to four plain values (`|x: T, y: U|`) or lazy \
            handles (`|x: Lazy<T>, y: Lazy<U>|`) of `Enumerable` types, returns anything, and \
            is `Send + Sync + 'static` (it runs on a worker thread)",
    note = "arguments `&str`, `&[T]` and `&T` are explored through their owned forms (one or \
            two arguments); with more, explore a closure over the owned forms: \
            `.function(\"f\", |s: String, xs: Vec<u8>, k: u8| f(&s, &xs, k))`"
)]
pub trait Callable<T, M>: Send + Sync + 'static {
    /// Calls the function on a lazy input.
    fn call_lazy(&self, x: Lazy<'_, T>)
    where
        T: Enumerable;
}

impl<T: Enumerable, R, F: Fn(T) -> R + Send + Sync + 'static> Callable<T, PlainArg> for F {
    fn call_lazy(&self, x: Lazy<'_, T>) {
        drop(self(x.force()));
    }
}

impl<T, R, F: Fn(Lazy<'_, T>) -> R + Send + Sync + 'static> Callable<T, LazyArg> for F {
    fn call_lazy(&self, x: Lazy<'_, T>)
    where
        T: Enumerable,
    {
        drop(self(x));
    }
}

macro_rules! plain_and_lazy_calls {
    ($($name:ident : $idx:tt),+) => {
        // `Enumerable` on each argument keeps a function of borrowed
        // arguments out of this impl (it takes `BorrowedArgs`).
        impl<$($name: Enumerable + Send,)+ R, F: Fn($($name),+) -> R + Send + Sync + 'static>
            Callable<($($name,)+), PlainArgs> for F
        {
            fn call_lazy(&self, x: Lazy<'_, ($($name,)+)>)
            where
                ($($name,)+): Enumerable,
            {
                let v = x.force();
                drop(self($(v.$idx),+));
            }
        }
        impl<$($name: Enumerable,)+ R, F: Fn($(Lazy<'_, $name>),+) -> R + Send + Sync + 'static>
            Callable<($($name,)+), LazyArgs> for F
        {
            fn call_lazy(&self, x: Lazy<'_, ($($name,)+)>) {
                let first = x.read_node().first_field();
                drop(self($(x.field_at::<$name>(first, $idx)),+));
            }
        }
    };
}
/// Marker forms of a borrowed argument of an explored function, taken
/// through its owned form: the search enumerates the owned value and the
/// call borrows it.
pub mod forms {
    use std::marker::PhantomData;

    /// `&T`, explored as `T`.
    #[derive(Debug)]
    pub struct Ref;
    /// `&str`, explored as `String`.
    #[derive(Debug)]
    pub struct Str;
    /// `&[T]`, explored as `Vec<T>`.
    #[derive(Debug)]
    pub struct Slice;
    /// A plain value beside a borrowed one.
    #[derive(Debug)]
    pub struct Owned;
    /// `&dyn Fn(&A) -> B` (a higher-order function's argument), explored
    /// as [`Fun<A, B>`](crate::Fun): the functions of case distinctions
    /// and constants.
    #[derive(Debug)]
    pub struct Function;
    /// Marker: a function of one borrowed argument in the form `F`.
    #[derive(Debug)]
    pub struct BorrowedArg<F>(PhantomData<F>);
    /// Marker: a function of two arguments, at least one borrowed, in the
    /// forms `F` and `G`.
    #[derive(Debug)]
    pub struct BorrowedArgs<F, G>(PhantomData<(F, G)>);
}

use crate::Fun;
use forms::{BorrowedArg, BorrowedArgs, Function, Owned, Ref, Slice, Str};

impl<R, F: Fn(&str) -> R + Send + Sync + 'static> Callable<String, BorrowedArg<Str>> for F {
    fn call_lazy(&self, x: Lazy<'_, String>) {
        drop(self(&x.force()));
    }
}

impl<A: Enumerable, R, F: Fn(&[A]) -> R + Send + Sync + 'static>
    Callable<Vec<A>, BorrowedArg<Slice>> for F
{
    fn call_lazy(&self, x: Lazy<'_, Vec<A>>) {
        drop(self(&x.force()));
    }
}

impl<A: Enumerable, R, F: Fn(&A) -> R + Send + Sync + 'static> Callable<A, BorrowedArg<Ref>> for F {
    fn call_lazy(&self, x: Lazy<'_, A>) {
        drop(self(&x.force()));
    }
}

impl<A, B, R, F> Callable<Fun<A, B>, BorrowedArg<Function>> for F
where
    A: Enumerable,
    B: Enumerable + Clone + Send + Sync,
    F: Fn(&dyn Fn(&A) -> B) -> R + Send + Sync + 'static,
{
    fn call_lazy(&self, x: Lazy<'_, Fun<A, B>>) {
        drop(self(&*x.force()));
    }
}

/// The impls of two arguments with at least one borrowed: the type
/// parameters (then those of function results, which must be cloneable
/// and shareable), then per argument its form marker, its type in the
/// function's signature and its owned type (what the search enumerates).
macro_rules! borrowed_pairs {
    ($([$($p:ident),*] $([$($q:ident),*])? ($fa:ident, $sa:ty, $oa:ty) ; ($fb:ident, $sb:ty, $ob:ty)),+ $(,)?) => {$(
        impl<$($p: Enumerable,)* $($($q: Enumerable + Clone + Send + Sync,)*)? R, F>
            Callable<($oa, $ob), BorrowedArgs<$fa, $fb>> for F
        where
            F: Fn($sa, $sb) -> R + Send + Sync + 'static,
        {
            fn call_lazy(&self, x: Lazy<'_, ($oa, $ob)>) {
                let (a, b) = x.force();
                drop(self(borrowed_pairs!(@pass $fa a), borrowed_pairs!(@pass $fb b)));
            }
        }
    )+};
    (@pass Owned $v:ident) => { $v };
    (@pass Function $v:ident) => { &*$v };
    (@pass $form:ident $v:ident) => { &$v };
}

borrowed_pairs!(
    [A, B] (Owned, A, A) ; (Ref, &B, B),
    [A, B] (Owned, A, A) ; (Slice, &[B], Vec<B>),
    [A] (Owned, A, A) ; (Str, &str, String),
    [A, B] (Ref, &A, A) ; (Owned, B, B),
    [A, B] (Slice, &[A], Vec<A>) ; (Owned, B, B),
    [B] (Str, &str, String) ; (Owned, B, B),
    [A, B] (Ref, &A, A) ; (Ref, &B, B),
    [A, B] (Ref, &A, A) ; (Slice, &[B], Vec<B>),
    [A] (Ref, &A, A) ; (Str, &str, String),
    [A, B] (Slice, &[A], Vec<A>) ; (Ref, &B, B),
    [A, B] (Slice, &[A], Vec<A>) ; (Slice, &[B], Vec<B>),
    [A] (Slice, &[A], Vec<A>) ; (Str, &str, String),
    [B] (Str, &str, String) ; (Ref, &B, B),
    [B] (Str, &str, String) ; (Slice, &[B], Vec<B>),
    [] (Str, &str, String) ; (Str, &str, String),
    [A, C] [B] (Function, &dyn Fn(&A) -> B, Fun<A, B>) ; (Owned, C, C),
    [A, C] [B] (Owned, C, C) ; (Function, &dyn Fn(&A) -> B, Fun<A, B>),
    [A, C] [B] (Function, &dyn Fn(&A) -> B, Fun<A, B>) ; (Ref, &C, C),
    [A, C] [B] (Ref, &C, C) ; (Function, &dyn Fn(&A) -> B, Fun<A, B>),
    [A, C] [B] (Function, &dyn Fn(&A) -> B, Fun<A, B>) ; (Slice, &[C], Vec<C>),
    [A, C] [B] (Slice, &[C], Vec<C>) ; (Function, &dyn Fn(&A) -> B, Fun<A, B>),
    [A] [B] (Function, &dyn Fn(&A) -> B, Fun<A, B>) ; (Str, &str, String),
    [A] [B] (Str, &str, String) ; (Function, &dyn Fn(&A) -> B, Fun<A, B>),
);

plain_and_lazy_calls!(A: 0, B: 1);
plain_and_lazy_calls!(A: 0, B: 1, C: 2);
plain_and_lazy_calls!(A: 0, B: 1, C: 2, D: 3);

/// How a target's inputs and reproducing tests are written.
#[derive(Clone, Debug)]
pub(crate) enum Shape {
    /// A function, called by its name.
    Function,
    /// A constructor then a step applied to each element of a list of
    /// operations, called by their names.
    Sequence { constructor: String, step: String },
}

/// One explored function, its input type erased (shared by the supervisor
/// and every worker thread).
pub(crate) trait Target: Send + Sync {
    /// The name given at registration (a path for the macro form).
    fn name(&self) -> &str;
    /// How inputs and tests are written.
    fn shape(&self) -> &Shape;
    /// A search of the inputs up to `bound`, on this thread, announcing its
    /// calls to `slot`.
    fn search(&self, bound: usize, slot: RunSlot) -> Box<dyn Search + '_>;
    /// The edge sweep and random cases of the phase after the exhaustive
    /// one: only inputs larger than `past` (the sizes explored), in a fixed
    /// order, on this thread, announcing its calls to `slot`.
    fn cases(&self, past: usize, samples: u64, slot: RunSlot) -> Box<dyn Search + '_>;
    /// The input under a copied arena (a call that overran its budget),
    /// rebuilt on the calling thread: the call's text and its replay key.
    fn describe_copy(&self, nodes: &[crate::arena::Choice]) -> Option<(String, String)>;
}

/// The budget of one call, armed around it on the worker thread.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CallBudget {
    /// The bytes a call may hold, if limited.
    pub(crate) alloc: Option<u64>,
    /// Raised by the allocator when the call goes over.
    pub(crate) flag: &'static AtomicBool,
}

/// A search over one bound, its input type erased.
pub(crate) trait Search {
    /// Moves to the next call; false when the bound is done.
    fn advance(&mut self) -> bool;
    /// The size of the pending (or last) input.
    fn size(&self) -> u64;
    /// The replay key of the pending (or last) input.
    fn key(&self) -> String;
    /// Runs the stand-in of a stuck call on the pending input instead of
    /// calling it (see `run`): `step` is the sequence step it was stuck in.
    fn stand_in(&mut self, step: u64);
    /// Calls the function on the pending input.
    fn call(&mut self, budget: CallBudget) -> RunResult;
    /// The `Debug` text of the input called last.
    fn input(&self) -> String;
}

/// A [`Target`] over inputs of `T`.
pub(crate) struct Typed<T, F> {
    pub(crate) name: String,
    pub(crate) shape: Shape,
    /// Writes an input as the call it is.
    pub(crate) show: Box<dyn Fn(&T) -> String + Send + Sync>,
    /// Reads what a call stuck in sequence step `k` is known to have read.
    pub(crate) stand_in: fn(Lazy<'_, T>, u64),
    pub(crate) f: F,
}

impl<T, F> Target for Typed<T, F>
where
    T: Enumerable + Debug,
    F: Fn(Lazy<'_, T>) + Send + Sync,
{
    fn name(&self) -> &str {
        &self.name
    }

    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn search(&self, bound: usize, slot: RunSlot) -> Box<dyn Search + '_> {
        let mut searcher = Searcher::<T>::new(bound);
        searcher.watch(slot);
        Box::new(TypedSearch {
            searcher,
            target: self,
        })
    }

    fn cases(&self, past: usize, samples: u64, slot: RunSlot) -> Box<dyn Search + '_> {
        let g = crate::types::grammar_of::<T>();
        let larger = |t: &Tree| g.tree_size(t) > past as u64;
        let edge_budget = samples.saturating_mul(EDGE_CASES_PER_SAMPLE);
        let mut trees: Vec<Tree> = crate::check::edges::sweep(&g, edge_budget)
            .trees(&g)
            .into_iter()
            .filter(|t| larger(t))
            .collect();
        if samples > 0 {
            let last = past.saturating_add(RANDOM_SPAN);
            let mut random = crate::check::random::RandomCases::new(
                &g,
                crate::check::settings::DEFAULT_SEED,
                past + 1,
                last,
                samples,
            )
            .long_up_to(last);
            trees.extend(std::iter::from_fn(|| random.next_case()).map(|c| c.tree));
            trees.retain(|t| larger(t));
        }
        let depth_calls = samples.saturating_mul(DEPTH_CALLS_PER_SAMPLE);
        let shared = slot.shared();
        let mut first = Searcher::<T>::by_depth(g.clone(), 1);
        first.watch(slot);
        Box::new(CasesSearch {
            target: self,
            grammar: g,
            shared,
            depth: (depth_calls > 0).then_some(DepthStage {
                searcher: first,
                depth: 1,
                calls_left: depth_calls,
            }),
            searcher: None,
            trees: trees.into_iter(),
            pending: None,
        })
    }

    fn describe_copy(&self, nodes: &[crate::arena::Choice]) -> Option<(String, String)> {
        let g = crate::types::grammar_of::<T>();
        let tree = crate::watchdog::tree_of_copy(&g, nodes)?;
        let key = crate::replay::key_of(&g, &tree);
        let value: T = crate::grammar::downcast(g.build_root(&tree), "an exploration");
        Some(((self.show)(&value), key))
    }
}

/// Edge cases per random case (as a check's edge sweep).
const EDGE_CASES_PER_SAMPLE: u64 = 5;

/// Calls of the depth-bounded stage per random case.
const DEPTH_CALLS_PER_SAMPLE: u64 = 2;

/// The deepest bound of the depth-bounded stage.
const MAX_DEPTH: usize = 16;

/// How far past the explored sizes the random cases go.
const RANDOM_SPAN: usize = 190;

/// A fresh end of the watchdog for a new searcher of the same worker (one
/// searcher runs at a time, so the generations go on).
fn next_slot(shared: &Arc<SlotShared>) -> RunSlot {
    RunSlot {
        shared: shared.clone(),
        gen: std::cell::Cell::new(shared.state.load(Ordering::Relaxed) >> 2),
    }
}

/// The depth-bounded stage of the cases pass (a check's portfolio order:
/// inputs of few levels, however long, such as lists of many small
/// numbers), by growing depth, within its calls.
struct DepthStage<T> {
    searcher: Searcher<T>,
    depth: usize,
    calls_left: u64,
}

/// The pass past the explored sizes: the depth-bounded stage, then the
/// edge sweep and the random cases, called one by one. Only inputs larger
/// than the explored sizes are new (the run loop reports no other).
struct CasesSearch<'a, T, F> {
    target: &'a Typed<T, F>,
    grammar: std::rc::Rc<crate::grammar::Grammar>,
    shared: Arc<SlotShared>,
    depth: Option<DepthStage<T>>,
    /// The searcher the cases are loaded into (made when the depth stage
    /// ends).
    searcher: Option<Searcher<T>>,
    trees: std::vec::IntoIter<Tree>,
    /// The case loaded last.
    pending: Option<Tree>,
}

impl<T: Enumerable, F> CasesSearch<'_, T, F> {
    fn active(&self) -> &Searcher<T> {
        match &self.depth {
            Some(stage) => &stage.searcher,
            None => self.searcher.as_ref().expect("a case is pending"),
        }
    }
}

impl<T, F> Search for CasesSearch<'_, T, F>
where
    T: Enumerable + Debug,
    F: Fn(Lazy<'_, T>),
{
    fn advance(&mut self) -> bool {
        if let Some(stage) = &mut self.depth {
            while stage.calls_left > 0 {
                if stage.searcher.advance() {
                    stage.calls_left -= 1;
                    return true;
                }
                if stage.depth >= MAX_DEPTH {
                    break;
                }
                stage.depth += 1;
                stage.searcher = Searcher::by_depth(self.grammar.clone(), stage.depth);
                stage.searcher.watch(next_slot(&self.shared));
            }
            self.depth = None;
        }
        let searcher = self.searcher.get_or_insert_with(|| {
            let mut s = Searcher::<T>::from_grammar(self.grammar.clone(), 0);
            s.watch(next_slot(&self.shared));
            s
        });
        self.pending = self.trees.next();
        match &self.pending {
            Some(t) => {
                searcher.load(t);
                true
            }
            None => false,
        }
    }

    fn size(&self) -> u64 {
        match (&self.depth, &self.pending) {
            (Some(stage), _) => stage.searcher.size(),
            (None, Some(t)) => self.grammar.tree_size(t),
            (None, None) => 0,
        }
    }

    fn key(&self) -> String {
        match (&self.depth, &self.pending) {
            (Some(stage), _) => crate::replay::key_of(&self.grammar, &stage.searcher.tree()),
            (None, Some(t)) => crate::replay::key_of(&self.grammar, t),
            (None, None) => String::new(),
        }
    }

    fn stand_in(&mut self, step: u64) {
        // A stuck case is skipped: it stands for no other input; a stuck
        // class of the depth stage is run by the stand-in, as a bound's.
        if let Some(stage) = &mut self.depth {
            let stand_in = self.target.stand_in;
            stage
                .searcher
                .step(|x| stand_in(x, step))
                .expect("a pending input is run");
        }
    }

    fn call(&mut self, budget: CallBudget) -> RunResult {
        let searcher = match &mut self.depth {
            Some(stage) => &mut stage.searcher,
            None => self.searcher.as_mut().expect("a case is pending"),
        };
        call_within(searcher, &self.target.f, budget)
    }

    fn input(&self) -> String {
        (self.target.show)(&self.active().value())
    }
}

/// Calls `f` on the searcher's pending (or loaded) input, the allocation
/// budget armed around the call.
fn call_within<T: Enumerable, F: Fn(Lazy<'_, T>)>(
    searcher: &mut Searcher<T>,
    f: &F,
    budget: CallBudget,
) -> RunResult {
    searcher
        .step(|x| {
            let _armed = budget.alloc.map(|limit| Armed::new(limit, budget.flag));
            f(x);
        })
        .expect("a pending input is called")
}

struct TypedSearch<'a, T, F> {
    searcher: Searcher<T>,
    target: &'a Typed<T, F>,
}

impl<T, F> Search for TypedSearch<'_, T, F>
where
    T: Enumerable + Debug,
    F: Fn(Lazy<'_, T>),
{
    fn advance(&mut self) -> bool {
        self.searcher.advance()
    }

    fn size(&self) -> u64 {
        self.searcher.size()
    }

    fn key(&self) -> String {
        crate::replay::key_of(self.searcher.grammar(), &self.searcher.tree())
    }

    fn stand_in(&mut self, step: u64) {
        let stand_in = self.target.stand_in;
        self.searcher
            .step(|x| stand_in(x, step))
            .expect("a pending input is run");
    }

    fn call(&mut self, budget: CallBudget) -> RunResult {
        call_within(&mut self.searcher, &self.target.f, budget)
    }

    fn input(&self) -> String {
        (self.target.show)(&self.searcher.value())
    }
}

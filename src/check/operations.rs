//! The operations of a [`Config`]: every way to run a property (check,
//! search, step) goes through here, so each option (bound, budgets,
//! threads, shard, strategy, spaces) means the same to all of them. Also
//! the two type-state traits that say what an operation may ask of the
//! property: [`InputSpaces`] (where the input's values come from) and
//! [`ThreadsFor`] (whether threads may run it).

use super::config::{Config, GivenSpaces, OneThread, OwnSpaces, Threads};
use super::driver::{self, drive, BoundEvent, OnThreads, Origin, RunCounts, Subject};
use super::property::{Property, Spaces};
use super::settings::Settings;
use super::verdict;
use crate::engine::{
    bound_in_searcher, count_classes, repanic_with_input, Balance, BoundResult, Budget, Classes,
    ClockEvery, GrammarSource, Outcome, Parallel, RunResult, Searcher, Until,
};
use crate::handle::Lazy;
use crate::internal::quiet;
use crate::record::{Counterexample, Stop, Summary};
use crate::report::Pattern;
use crate::Enumerable;
use std::fmt::Debug;
use std::marker::PhantomData;
use std::panic::Location;
use std::time::Instant;

/// Where the values of a [`Config`]'s input of type `T` come from: the
/// type's own space ([`OwnSpaces`], for every `Enumerable` type) or the
/// spaces given by [`Config::spaces`] ([`GivenSpaces`], when they make a
/// `T`). Sealed: the two type states are the only implementations.
#[diagnostic::on_unimplemented(
    message = "this `Config` can not make an input of type `{T}`",
    note = "without `.spaces(...)` the input type needs a space of its own: \
            `#[derive(Enumerable)]` or `impl Enumerable`; for `&str` or `&[T]`, take `String` or \
            `Vec<T>` and borrow it",
    note = "with `.spaces(|| ...)`, the closure must return a `Space` of the input or a tuple \
            of spaces, one per argument, and be `Send + Sync + 'static`"
)]
// The supertrait is the seal: its method hands out an internal type.
#[allow(private_bounds)]
pub trait InputSpaces<T>: sealed::Source<T> {}

/// Whether a [`Config`] may run property `P` (over `T`, in form `M`): on
/// one thread ([`OneThread`]) any property may run; on several
/// ([`Threads`], after [`Config::threads`]) it must be `Sync` and its input
/// `Send`. Sealed: the two type states are the only implementations.
///
/// ```compile_fail
/// use std::cell::Cell;
/// let calls = Cell::new(0);
/// // error: a property run on several threads must be `Sync` ...
/// neatcheck::Config::default().threads(2).check(|x: u8| {
///     calls.set(calls.get() + 1);
///     x < 200
/// });
/// ```
#[diagnostic::on_unimplemented(
    message = "a property run on several threads must be `Sync`, and its input `Send`",
    label = "this property can not run on several threads",
    note = "remove `.threads(n)` to run it on the calling thread, where it may capture a \
            `RefCell` or take an `Rc`"
)]
#[allow(private_bounds)]
pub trait ThreadsFor<T, M, P>: sealed::Threading<T, M, P> {}

pub(crate) mod sealed {
    use super::ThreadedProperty;
    use crate::cool::Strategy;
    use crate::engine::GrammarSource;

    /// The grammar source of an input.
    pub(crate) trait Source<T> {
        fn source(&self) -> GrammarSource<T>;
    }

    /// The property on threads, where it may run there.
    pub(crate) trait Threading<T, M, P> {
        /// Whether `NEATCHECK_THREADS` may raise the threads of a check.
        const ALLOWED: bool;
        /// The exhaustive phase and the searches on threads (`None`: on
        /// the calling thread only).
        fn shared(prop: &P, strategy: Strategy) -> Option<Box<dyn ThreadedProperty<T> + '_>>;
    }
}

/// What a property known to be `Sync` over a `Send` input can do on
/// threads: a check's bounds, and the searches.
pub(crate) trait ThreadedProperty<T>: OnThreads<T> + SearchOnThreads<T> {
    /// The driver's view.
    fn as_threads(&self) -> &dyn OnThreads<T>;
}

/// A property known to be `Sync` over a `Send` input.
struct Shared<'p, P, M> {
    prop: &'p P,
    strategy: crate::cool::Strategy,
    marker: PhantomData<fn() -> M>,
}

impl<T, M, P> ThreadedProperty<T> for Shared<'_, P, M>
where
    T: Enumerable + Send,
    P: Property<T, M> + Sync,
{
    fn as_threads(&self) -> &dyn OnThreads<T> {
        self
    }
}

impl<T: Enumerable> sealed::Source<T> for OwnSpaces {
    fn source(&self) -> GrammarSource<T> {
        GrammarSource::Canonical
    }
}
impl<T: Enumerable> InputSpaces<T> for OwnSpaces {}

impl<T, S, F> sealed::Source<T> for GivenSpaces<F>
where
    T: Enumerable,
    S: Spaces<T>,
    F: Fn() -> S + Send + Sync + 'static,
{
    fn source(&self) -> GrammarSource<T> {
        let spaces = self.0.clone();
        GrammarSource::given(move || spaces().into_space())
    }
}
impl<T, S, F> InputSpaces<T> for GivenSpaces<F>
where
    T: Enumerable,
    S: Spaces<T>,
    F: Fn() -> S + Send + Sync + 'static,
{
}

impl<T, M, P> sealed::Threading<T, M, P> for OneThread {
    const ALLOWED: bool = false;
    fn shared(_: &P, _: crate::cool::Strategy) -> Option<Box<dyn ThreadedProperty<T> + '_>> {
        None
    }
}
impl<T, M, P> ThreadsFor<T, M, P> for OneThread {}

impl<T, M: 'static, P> sealed::Threading<T, M, P> for Threads
where
    T: Enumerable + Send,
    P: Property<T, M> + Sync,
{
    const ALLOWED: bool = true;
    fn shared(
        prop: &P,
        strategy: crate::cool::Strategy,
    ) -> Option<Box<dyn ThreadedProperty<T> + '_>> {
        Some(Box::new(Shared {
            prop,
            strategy,
            marker: PhantomData::<fn() -> M>,
        }))
    }
}
impl<T, M: 'static, P> ThreadsFor<T, M, P> for Threads
where
    T: Enumerable + Send,
    P: Property<T, M> + Sync,
{
}

/// The searches of a [`Config`] on several threads.
pub(crate) trait SearchOnThreads<T> {
    /// Whether some input satisfies the property, within `budget`.
    fn sat(&self, settings: &Settings, source: &GrammarSource<T>, budget: Budget) -> bool;
    /// A whole search (or its shard) within `budget`.
    fn classes(&self, settings: &Settings, source: &GrammarSource<T>, budget: Budget) -> Classes;
    /// The first counterexample in search order within `budget`.
    fn ctrex(
        &self,
        settings: &Settings,
        source: &GrammarSource<T>,
        budget: Budget,
    ) -> BoundResult<T>;
}

fn parallel(settings: &Settings) -> Parallel {
    Parallel::new(settings.threads)
}

/// The failure record of a worker's failing run.
fn describe_on_worker<T: Enumerable, M>(
    prop: &impl Property<T, M>,
    s: &mut Searcher<T>,
    r: RunResult,
) -> Counterexample<T> {
    driver::failure_record(s, &|s: &mut Searcher<T>| trace(prop, s), r, 0)
}

impl<T, M, P> OnThreads<T> for Shared<'_, P, M>
where
    T: Enumerable + Send,
    P: Property<T, M> + Sync,
{
    fn exhaust(
        &self,
        settings: &Settings,
        subject: &Subject<'_, T>,
        bound: usize,
        budget: Budget,
    ) -> (BoundResult<T>, RunCounts) {
        // Worker threads are fresh: they need the quiet panic hook and
        // labels.
        let step = |s: &mut Searcher<T>| {
            quiet::silence_this_thread();
            super::labels::activate();
            self.prop.step(s, self.strategy)
        };
        let describe = |s: &mut Searcher<T>, r: RunResult| describe_on_worker(self.prop, s, r);
        let new_slot = subject.watchdog.map(|dog| move || dog.slot());
        let task = crate::engine::parallel::Task {
            step: &step,
            describe: &describe,
            watchdog: new_slot
                .as_ref()
                .map(|f| f as &(dyn Fn() -> crate::run_slot::RunSlot + Sync)),
            source: subject.source,
            shard: settings.shard,
        };
        parallel(settings).bound_for_check(&task, bound, budget)
    }
}

impl<T, M, P> SearchOnThreads<T> for Shared<'_, P, M>
where
    T: Enumerable + Send,
    P: Property<T, M> + Sync,
{
    fn sat(&self, settings: &Settings, source: &GrammarSource<T>, budget: Budget) -> bool {
        // A satisfying input is a counterexample of the negation.
        let step = |s: &mut Searcher<T>| self.prop.step(s, self.strategy).map(negate);
        let describe = |s: &mut Searcher<T>, r: RunResult| describe_on_worker(self.prop, s, r);
        let task = crate::engine::parallel::Task {
            step: &step,
            describe: &describe,
            watchdog: None,
            source,
            shard: settings.shard,
        };
        let (result, ()) = parallel(settings).bound_for_check(&task, settings.max_size, budget);
        match result {
            BoundResult::Failed(c) if c.panicked => panic!(
                "the predicate panicked on the input {}: {}",
                c.shown,
                c.reason.as_deref().unwrap_or("")
            ),
            BoundResult::Failed(_) => true,
            BoundResult::Passed(_) | BoundResult::OutOfBudget(_) => false,
        }
    }

    fn classes(&self, settings: &Settings, source: &GrammarSource<T>, budget: Budget) -> Classes {
        let step = |s: &mut Searcher<T>| self.prop.step(s, self.strategy);
        parallel(settings).whole(&step, settings.max_size, budget, source, settings.shard)
    }

    fn ctrex(
        &self,
        settings: &Settings,
        source: &GrammarSource<T>,
        budget: Budget,
    ) -> BoundResult<T> {
        let step = |s: &mut Searcher<T>| self.prop.step(s, self.strategy);
        let describe = |s: &mut Searcher<T>, r: RunResult| describe_on_worker(self.prop, s, r);
        let task = crate::engine::parallel::Task {
            step: &step,
            describe: &describe,
            watchdog: None,
            source,
            shard: settings.shard,
        };
        let (mut result, ()) = parallel(settings).bound_for_check(&task, settings.max_size, budget);
        if let BoundResult::Failed(c) = &mut result {
            c.summary.shard = settings.shard;
        }
        result
    }
}

/// Runs `prop` again on the node run last, tracing every read.
fn trace<T: Enumerable, M>(prop: &impl Property<T, M>, s: &mut Searcher<T>) -> Pattern {
    s.pattern(|x| {
        let _ = prop.run_lazy(x);
    })
}

/// A property ready for the driver: its steps, traces and threads.
struct Prepared<'p, T, M, P> {
    prop: &'p P,
    settings: Settings,
    source: GrammarSource<T>,
    shared: Option<Box<dyn ThreadedProperty<T> + 'p>>,
    marker: PhantomData<fn() -> M>,
}

impl<I, R> Config<I, R> {
    /// The settings, the input's source and the threads for `prop`.
    fn prepare<'p, T, M, P>(&self, prop: &'p P, settings: Settings) -> Prepared<'p, T, M, P>
    where
        T: Enumerable,
        P: Property<T, M>,
        I: InputSpaces<T>,
        R: ThreadsFor<T, M, P>,
    {
        let threads = settings.threads > 1;
        let shared = threads
            .then(|| R::shared(prop, settings.strategy))
            .flatten();
        Prepared {
            prop,
            source: self.input.source(),
            shared,
            settings,
            marker: PhantomData,
        }
    }

    /// The settings of a check run from a test: with the environment.
    fn settings_with_env<T, M, P>(&self) -> Settings
    where
        R: ThreadsFor<T, M, P>,
    {
        self.settings
            .clone()
            .with_env(<R as sealed::Threading<T, M, P>>::ALLOWED)
    }

    /// Checks a property: runs it in phases (the regression file, a random
    /// probe, the exhaustive phase, the random phase, health checks; see
    /// [`mod@crate::check`]) and panics with a report naming the smallest
    /// counterexample if it fails, or saying why a pass would mean nothing
    /// (no runs, no values, a precondition that never holds). The
    /// `NEATCHECK_*` environment variables override this configuration.
    ///
    /// ```
    /// use neatcheck::{Config, Lazy};
    /// use std::cell::Cell;
    /// // On one thread a property may keep state of its own.
    /// let calls = Cell::new(0);
    /// Config::default().max_size(6).check(|xs: Lazy<Vec<bool>>| {
    ///     calls.set(calls.get() + 1);
    ///     xs.len() < 1000
    /// });
    /// assert!(calls.get() > 0);
    /// ```
    #[track_caller]
    pub fn check<T, M, P>(&self, prop: P) -> Summary
    where
        T: Enumerable + Debug,
        P: Property<T, M>,
        I: InputSpaces<T>,
        R: ThreadsFor<T, M, P>,
    {
        let location = Location::caller();
        let prepared = self.prepare(&prop, self.settings_with_env::<T, M, P>());
        let origin = verdict::origin_here(location);
        let result = run_property(&prepared, &origin);
        let explain = |c: &Counterexample<T>| prop.explain(c);
        verdict::finish(&prepared.settings, &origin, location, result, &explain)
    }

    /// The check of [`Config::check`], returning its summary or its
    /// counterexample instead of panicking, without the environment
    /// variables and without the regression file: for embedding neatcheck
    /// and for testing it. Problems that would fail a check are listed in
    /// [`Summary::problems`]; so is an internal error of neatcheck (an
    /// inconsistent space description), with [`Summary::stopped`] at
    /// [`Stop::Internal`]: it is never returned as a counterexample.
    ///
    /// ```
    /// use neatcheck::Config;
    /// let failure = Config::default().try_check(|x: u8, y: u8| x < 9 || y < 9).unwrap_err();
    /// assert_eq!(failure.value, (9, 9));
    /// assert!(failure.is_minimal());
    /// ```
    pub fn try_check<T, M, P>(&self, prop: P) -> Result<Summary, Box<Counterexample<T>>>
    where
        T: Enumerable + Debug,
        P: Property<T, M>,
        I: InputSpaces<T>,
        R: ThreadsFor<T, M, P>,
    {
        let prepared = self.prepare(&prop, self.settings.clone());
        run_property(&prepared, &Origin::default())
    }

    /// An existential check: passes if some input within the budgets
    /// satisfies `pred`, panics otherwise. Returns the smallest witness
    /// found by the exhaustive phase (or a shrunk one from the random
    /// phase). The environment variables apply, but not `NEATCHECK_SHARD`
    /// nor [`Config::shard`]: a witness is in one shard only, so no shard
    /// alone could say there is none.
    ///
    /// ```
    /// let (x, y) = neatcheck::Config::default().exists(|x: u8, y: u8| x > 3 && y > x);
    /// assert_eq!((x, y), (4, 5));
    /// ```
    #[track_caller]
    pub fn exists<T, M, P>(&self, pred: P) -> T
    where
        T: Enumerable + Debug,
        P: Property<T, M>,
        I: InputSpaces<T>,
        R: ThreadsFor<T, M, P>,
    {
        let mut settings = self.settings.clone().with_env(false);
        settings.shard = None;
        let negated = |x: Lazy<'_, T>| match pred.run_lazy(x) {
            RunResult::True => RunResult::False(Some("satisfied".into())),
            _ => RunResult::True,
        };
        // On the calling thread: the negation is a closure of this
        // function, which the thread state can not name.
        let prepared = Prepared {
            prop: &negated,
            settings,
            source: self.input.source(),
            shared: None,
            marker: PhantomData::<fn() -> super::LazyArg>,
        };
        match run_property(&prepared, &Origin::default()) {
            Err(c) => c.value,
            Ok(summary) if summary.stopped == Stop::Internal => panic!("{}", summary.problems[0]),
            Ok(summary) => panic!("neatcheck: no value satisfies the predicate ({summary})"),
        }
    }

    /// The budget of a search: the runs, if set ([`Config::runs`]), and
    /// the time, if set ([`Config::time`]), from now.
    fn search_budget(&self) -> Budget {
        Budget {
            deadline: self.settings.time.map(|t| Instant::now() + t),
            max_runs: self.settings.runs_given.then_some(self.settings.runs),
        }
    }

    /// Runs `f` under the configured integer sizes.
    fn with_integers<X>(&self, f: impl FnOnce() -> X) -> X {
        let _integers = self
            .settings
            .integers
            .map(crate::describe::ModeScope::enter);
        f()
    }

    /// A searcher of the configured input up to `max_size`, restricted to
    /// the configured shard: for stepping through a search one run at a
    /// time ([`Searcher::step`]).
    pub fn searcher<T>(&self) -> Searcher<T>
    where
        T: Enumerable,
        I: InputSpaces<T>,
    {
        self.with_integers(|| self.searcher_of(&self.input.source()))
    }

    /// A searcher of `source` up to `max_size`, over the configured shard.
    fn searcher_of<T: Enumerable>(&self, source: &GrammarSource<T>) -> Searcher<T> {
        Searcher::from_grammar(source.grammar(), self.settings.max_size)
            .sharded(self.settings.shard)
    }

    /// The frame of every search: its budget from now, the integer sizes,
    /// the input's source, and threads where they are allowed and asked
    /// for (`on_threads`), else a searcher on this thread (`on_one`).
    fn search<T, M, P, X>(
        &self,
        prop: &P,
        on_threads: impl FnOnce(&dyn ThreadedProperty<T>, &GrammarSource<T>, Budget) -> X,
        on_one: impl FnOnce(Searcher<T>, Budget) -> X,
    ) -> X
    where
        T: Enumerable,
        P: Property<T, M>,
        I: InputSpaces<T>,
        R: ThreadsFor<T, M, P>,
    {
        let budget = self.search_budget();
        self.with_integers(|| {
            let source: GrammarSource<T> = self.input.source();
            if self.settings.threads > 1 {
                if let Some(shared) = R::shared(prop, self.settings.strategy) {
                    return on_threads(&*shared, &source, budget);
                }
            }
            on_one(self.searcher_of(&source), budget)
        })
    }

    /// Whether some input of size `<= max_size` satisfies `pred`.
    ///
    /// ```
    /// use neatcheck::{Config, Lazy};
    /// // Is there a list of booleans with two trues in a row?
    /// let found = Config::default().max_size(5).sat(|xs: Lazy<Vec<bool>>| {
    ///     let v: Vec<bool> = xs.iter().map(|b| b.get()).collect();
    ///     v.windows(2).any(|w| w[0] && w[1])
    /// });
    /// assert!(found);
    /// ```
    ///
    /// # Panics
    /// If the predicate panics: the message names the input.
    pub fn sat<T, M, P>(&self, pred: P) -> bool
    where
        T: Enumerable,
        P: Property<T, M>,
        I: InputSpaces<T>,
        R: ThreadsFor<T, M, P>,
    {
        let strategy = self.settings.strategy;
        self.search(
            &pred,
            |shared, source, budget| shared.sat(&self.settings, source, budget),
            |searcher, budget| {
                let step = |s: &mut Searcher<T>| pred.step(s, strategy);
                count_classes(searcher, step, budget, Until::FirstTrue).satisfying > 0
            },
        )
    }

    /// The inputs of size `<= max_size` that satisfy `pred`, one per
    /// equivalence class (positions the predicate did not read are at
    /// their minimal values), in search order, on the calling thread.
    ///
    /// ```
    /// use neatcheck::{Config, Lazy};
    /// // A list of two booleans has size 5: 1, one per cell, one per element.
    /// let lists: Vec<Vec<bool>> =
    ///     Config::default().max_size(5).satisfying(|xs: Lazy<Vec<bool>>| xs.len() == 2).collect();
    /// // The elements were not read: one list stands for the four.
    /// assert_eq!(lists, vec![vec![false, false]]);
    /// ```
    ///
    /// # Panics
    /// If the predicate panics: the message names the input.
    pub fn satisfying<T, M, P>(&self, pred: P) -> Satisfying<T, M, P>
    where
        T: Enumerable,
        P: Property<T, M>,
        I: InputSpaces<T>,
    {
        Satisfying {
            searcher: self.searcher(),
            pred,
            strategy: self.settings.strategy,
            marker: PhantomData,
        }
    }

    /// Runs the whole search of inputs of size `<= max_size` (within the
    /// budget, if one was set): its runs (the classes of the predicate's
    /// laziness) and satisfying classes. On threads, and over one shard,
    /// the counts are the same as the whole sequential search's share.
    ///
    /// ```
    /// use neatcheck::{Config, Lazy};
    /// let sorted = |xs: Lazy<Vec<u8>>| {
    ///     let v: Vec<u8> = xs.iter().map(|x| x.get()).collect();
    ///     v.windows(2).all(|w| w[0] <= w[1])
    /// };
    /// let config = Config::default().max_size(12);
    /// let whole = config.classes(sorted);
    /// assert_eq!(config.clone().threads(2).classes(sorted), whole);
    /// let shards: Vec<_> = (1..=3).map(|i| config.clone().shard(i, 3).classes(sorted)).collect();
    /// assert_eq!(shards.iter().map(|c| c.runs).sum::<u64>(), whole.runs);
    /// ```
    ///
    /// # Panics
    /// If the predicate panics: the message names the input.
    pub fn classes<T, M, P>(&self, pred: P) -> Classes
    where
        T: Enumerable,
        P: Property<T, M>,
        I: InputSpaces<T>,
        R: ThreadsFor<T, M, P>,
    {
        let strategy = self.settings.strategy;
        self.search(
            &pred,
            |shared, source, budget| shared.classes(&self.settings, source, budget),
            |searcher, budget| {
                count_classes(searcher, |s| pred.step(s, strategy), budget, Until::End)
            },
        )
    }

    /// Searches for an input of size `<= max_size` that falsifies `prop`:
    /// the first counterexample in search order, else `Passed` with the
    /// number of runs, else `OutOfBudget` if the budget (runs or time, if
    /// set) ran out first. On threads, without a time limit, the result is
    /// exactly the sequential one.
    ///
    /// ```
    /// use neatcheck::{Config, Lazy};
    /// let c = Config::default()
    ///     .max_size(8)
    ///     .ctrex(|xs: Lazy<Vec<u8>>| xs.iter().map(|x| u32::from(x.get())).sum::<u32>() < 5)
    ///     .counterexample()
    ///     .unwrap();
    /// // The first in search order, not the smallest: `check` finds that.
    /// assert_eq!(c.value, vec![0, 0, 0, 5]);
    /// ```
    pub fn ctrex<T, M, P>(&self, prop: P) -> BoundResult<T>
    where
        T: Enumerable,
        P: Property<T, M>,
        I: InputSpaces<T>,
        R: ThreadsFor<T, M, P>,
    {
        let strategy = self.settings.strategy;
        self.search(
            &prop,
            |shared, source, budget| shared.ctrex(&self.settings, source, budget),
            |mut searcher, budget| {
                let mut result = bound_in_searcher(
                    &mut searcher,
                    &mut |s| prop.step(s, strategy),
                    &mut |s, r| {
                        let pattern = trace(&prop, s);
                        s.counterexample(&pattern, r)
                    },
                    budget,
                    ClockEvery::Runs64,
                    &mut (),
                );
                if let BoundResult::Failed(c) = &mut result {
                    c.summary.shard = self.settings.shard;
                }
                result
            },
        )
    }

    /// Iterative deepening: bounds 0, 1, 2, ... up to `max_size` until a
    /// counterexample is found (the first one found is size-minimal) or
    /// the time limit ([`Config::time`], if set) runs out. Prints, per
    /// bound, the worst-case number of runs (inputs of size `<= bound`)
    /// and the runs made. The NEAT paper's `test` driver: the check's
    /// exhaustive phase alone, with no run budget unless one was set.
    pub fn deepen<T, M, P>(&self, prop: P) -> Option<Counterexample<T>>
    where
        T: Enumerable + Debug,
        P: Property<T, M>,
        I: InputSpaces<T>,
        R: ThreadsFor<T, M, P>,
    {
        let mut settings = self.settings.clone();
        if !settings.runs_given {
            settings.runs = u64::MAX;
        }
        settings.samples = 0;
        settings.run_timeout = None;
        settings.regressions = false;
        let prepared = self.prepare(&prop, settings);
        // The worst cases printed count the space under the configured
        // integer sizes, as the search does.
        let _integers = prepared
            .settings
            .integers
            .map(crate::describe::ModeScope::enter);
        let g = prepared.source.grammar();
        let mut print = |e: BoundEvent<'_>| match e {
            BoundEvent::Passed { bound, runs } => println!(
                "size {bound}: {runs} runs (worst case {})",
                g.count_up_to(bound)
            ),
            BoundEvent::Failed {
                bound,
                runs,
                pattern,
            } => println!("size {bound}: counterexample after {runs} runs: {pattern}"),
            BoundEvent::Cut { bound, runs } => {
                println!("size {bound}: out of time after {runs} runs")
            }
            BoundEvent::DepthFound {
                depth,
                runs,
                size,
                pattern,
            } => println!(
                "depth {depth}: counterexample of size {size} after {runs} runs: {pattern} \
                 (searching smaller sizes)"
            ),
        };
        with_subject(&prepared, None, |subject| {
            drive(&prepared.settings, subject, &Origin::default(), &mut print)
        })
        .err()
        .map(|c| *c)
    }
}

impl<I> Config<I, Threads> {
    /// Simulates [`Config::classes`] on the configured number of virtual
    /// workers, on the calling thread: the same runs and classes, and how
    /// evenly the workers would share them (for measuring the parallel
    /// search's balance without the cores).
    ///
    /// ```
    /// use neatcheck::{Config, Lazy};
    /// let sorted = |xs: Lazy<Vec<u8>>| {
    ///     let v: Vec<u8> = xs.iter().map(|x| x.get()).collect();
    ///     v.windows(2).all(|w| w[0] <= w[1])
    /// };
    /// let balance = Config::default().max_size(12).threads(4).simulate(sorted);
    /// assert_eq!(balance.classes, Config::default().max_size(12).classes(sorted));
    /// assert!(balance.speedup() > 1.0);
    /// ```
    pub fn simulate<T, O, P>(&self, pred: P) -> Balance
    where
        T: Enumerable + Send,
        O: Outcome,
        P: Fn(Lazy<'_, T>) -> O + Sync,
    {
        Parallel::new(self.settings.threads).simulate(pred, self.settings.max_size)
    }
}

/// The iterator of [`Config::satisfying`].
pub struct Satisfying<T, M, P> {
    searcher: Searcher<T>,
    pred: P,
    strategy: crate::cool::Strategy,
    marker: PhantomData<fn() -> M>,
}

impl<T, M, P> std::fmt::Debug for Satisfying<T, M, P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Satisfying")
            .field("searcher", &self.searcher)
            .finish_non_exhaustive()
    }
}

impl<T: Enumerable, M, P: Property<T, M>> Iterator for Satisfying<T, M, P> {
    type Item = T;
    fn next(&mut self) -> Option<T> {
        loop {
            let r = self.pred.step(&mut self.searcher, self.strategy)?;
            if self.searcher.replaying() {
                // Another shard's node, run only to reach this shard's.
                continue;
            }
            match r {
                RunResult::True => return Some(self.searcher.value()),
                RunResult::Panicked(m) => repanic_with_input(&mut self.searcher, m),
                RunResult::False(_) | RunResult::Discarded => {}
            }
        }
    }
}

/// A predicate's verdict turned around: a satisfying input is a
/// counterexample of the negation.
fn negate(r: RunResult) -> RunResult {
    match r {
        RunResult::True => RunResult::False(None),
        RunResult::False(_) => RunResult::True,
        other => other,
    }
}

/// The driver over a prepared property, with the check's watchdog.
fn run_property<T, M, P>(
    prepared: &Prepared<'_, T, M, P>,
    origin: &Origin,
) -> Result<Summary, Box<Counterexample<T>>>
where
    T: Enumerable + Debug,
    P: Property<T, M>,
{
    // Reports print complete values of unnamed alternatives through `Debug`.
    crate::describe::show_with_debug::<T>();
    let problems = |mut summary: Summary| {
        if summary.stopped != Stop::Internal {
            summary.problems.extend(prepared.prop.problems(&summary));
        }
        summary
    };
    // The watchdog rebuilds a hung input under the mode it starts in.
    let _integers = prepared
        .settings
        .integers
        .map(crate::describe::ModeScope::enter);
    let watchdog = start_watchdog::<T>(&prepared.settings, origin, &prepared.source);
    with_subject(prepared, watchdog.as_ref(), |subject| {
        drive(&prepared.settings, subject, origin, &mut |_| {})
    })
    .map(problems)
}

/// Calls `f` with the driver's view of a prepared property.
fn with_subject<T, M, P, X>(
    prepared: &Prepared<'_, T, M, P>,
    watchdog: Option<&crate::watchdog::Watchdog>,
    f: impl FnOnce(&Subject<'_, T>) -> X,
) -> X
where
    T: Enumerable,
    P: Property<T, M>,
{
    let prop = prepared.prop;
    let strategy = prepared.settings.strategy;
    let step = |s: &mut Searcher<T>| prop.step(s, strategy);
    let trace = |s: &mut Searcher<T>| trace(prop, s);
    let traced =
        |s: &mut Searcher<T>, t: &crate::grammar::Tree| s.run_recorded(t, |x| prop.run_lazy(x));
    let threads = prepared.shared.as_deref().map(ThreadedProperty::as_threads);
    let subject = Subject {
        step: &step,
        trace: &trace,
        traced: &traced,
        watchdog,
        source: &prepared.source,
        threads,
    };
    f(&subject)
}

/// The per-run watchdog of a check: it reports a run past the per-run
/// limit (if there is one) and a run that crashed the process (always,
/// where signals allow: `crate::crash`).
fn start_watchdog<T: Enumerable + Debug>(
    settings: &Settings,
    origin: &Origin,
    source: &GrammarSource<T>,
) -> Option<crate::watchdog::Watchdog> {
    let header = match (origin.test.as_deref(), origin.file) {
        (Some(t), Some(f)) => format!("property `{t}` in {f}"),
        (Some(t), None) => format!("property `{t}`"),
        (None, Some(f)) => format!("property in {f}"),
        (None, None) => "property (run outside a test)".to_string(),
    };
    Some(crate::watchdog::start_for::<T>(
        settings.run_timeout,
        header,
        source.clone(),
    ))
}

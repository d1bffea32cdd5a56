//! The public parameter object of every search and check: [`Config`], its
//! setters and the type states that say where the input's values come
//! from ([`OwnSpaces`], [`GivenSpaces`]) and whether threads may run the
//! property ([`OneThread`], [`Threads`]).

use super::settings::{Profile, Settings};
use crate::cool::Strategy;
use crate::describe::IntegerSizes;
use crate::record::Shard;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;
use std::time::Duration;

/// How to search or check a property: the one value that carries the size
/// bound, the budgets, the threads, the shard, the conjunction strategy and
/// the input's spaces, with the operations that run a property over them:
///
/// | operation | what it does |
/// |---|---|
/// | [`check`](Config::check) | the `cargo test` check: panics with a report on failure, reads the `NEATCHECK_*` variables and the regression file |
/// | [`try_check`](Config::try_check) | the same check, returning the summary or the counterexample (no panic, no environment, no file) |
/// | [`exists`](Config::exists) | an existential check: the smallest witness, or a panic |
/// | [`sat`](Config::sat) | whether some input of size `<= max_size` satisfies a predicate |
/// | [`satisfying`](Config::satisfying) | those inputs, one per class of the predicate's laziness |
/// | [`classes`](Config::classes) | the whole search: its runs and satisfying classes |
/// | [`ctrex`](Config::ctrex) | the first counterexample of size `<= max_size` in search order |
/// | [`deepen`](Config::deepen) | iterative deepening printing one line per bound, until `time` |
/// | [`searcher`](Config::searcher) | a [`Searcher`](crate::search::Searcher) to step one run at a time |
/// | [`simulate`](Config::simulate) | (after `threads(n)`) `classes` on `n` virtual workers: how evenly `n` cores would share the search |
///
/// Each option has one setter. [`Config::threads`] and [`Config::spaces`]
/// change the type: a property run on threads must be `Sync` (and its input
/// `Send`), which a property on one thread need not be, and given spaces
/// fix the input type.
///
/// Every option of a check can also be overridden by an environment
/// variable, so CI can search harder without code changes (searches read
/// none).
///
/// The defaults are counted in runs, never in wall time: the same property
/// gives the same verdict and the same counterexample on any machine under
/// any load. They were chosen with `tools/src/bin/versus_proptest.rs` (29
/// realistic properties, each with a planted bug and fixed: numbers,
/// strings, collections, state machines, trees), so that a passing check
/// costs a few times what proptest's 256 cases cost (median about 10x in
/// release: 0.5 to 40 ms) while finding every planted bug the previous
/// million-run default found, and the long-collection bugs it missed. The
/// deep profile ([`Profile::Deep`], `NEATCHECK_PROFILE=deep`) keeps the
/// earlier budgets for CI jobs that can spend a second per property.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `NEATCHECK_PROFILE` | `deep`: raise every budget to at least [`Config::deep`]'s ([`Profile`]) | `default` |
/// | `NEATCHECK_SIZE` | largest size bound the exhaustive phase searches | 100 |
/// | `NEATCHECK_RUNS` | runs of the exhaustive phase (and as many again to confirm a random find minimal) | 2 000 (deep: 1 000 000) |
/// | `NEATCHECK_SAMPLES` | random cases (a quarter before the exhaustive phase); the edge sweep runs up to five times as many | 150 (deep: 10 000) |
/// | `NEATCHECK_SAMPLE_SIZE` | largest size of a random case (uniform ones stop at 200) | 1 000 |
/// | `NEATCHECK_SEED` | seed of the random phase | fixed |
/// | `NEATCHECK_THREADS` | threads of the exhaustive phase of a check that may use them ([`Config::threads`]) | 1 |
/// | `NEATCHECK_TIME` | wall-clock ceiling for the whole check (`500ms`, `2s`, `1.5`) | none |
/// | `NEATCHECK_RUN_TIMEOUT` | per-run limit: a longer run fails the test (`0`: off) | 10 s |
/// | `NEATCHECK_VERBOSE` | `1`: print the coverage line of passing checks | `0` |
/// | `NEATCHECK_REPLAY` | run only the input of this key (from a report) | unset |
/// | `NEATCHECK_REGRESSIONS` | `0`: neither replay nor save the regression file | `1` |
/// | `NEATCHECK_STRATEGY` | conjunction strategy for `Cool` properties | `OF` |
/// | `NEATCHECK_INTEGERS` | sizes of the primitive integers: `linear` or `bits` | the thread's (bits) |
/// | `NEATCHECK_SHARD` | search only shard `i` of `n` (`i/n`, numbered from 1 as in `cargo nextest --partition count:i/n`) | the whole search |
/// | `NEATCHECK_PORTFOLIO` | `1`: a depth-bounded search beside the size-bounded one ([`Config::portfolio`]) | `0` (deep: `1`) |
/// | `NEATCHECK_JSON` | a file each check appends one JSON line to ([`Config::json_lines`]) | none |
///
/// Yes-or-no variables take `1`, `true`, `yes`, `on` or `0`, `false`, `no`,
/// `off`; any other value, a variable that can not be read, and a
/// `NEATCHECK_*` variable that is not in this table (a typo such as
/// `NEATCHECK_SIZ`) stop the check with an error naming it.
pub struct Config<I = OwnSpaces, R = OneThread> {
    pub(crate) settings: Settings,
    pub(crate) input: I,
    threads: PhantomData<fn() -> R>,
}

/// Type state of a [`Config`]: the input's values are its type's own
/// ([`crate::Enumerable::describe`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OwnSpaces;

/// Type state of a [`Config`]: the input's values come from given spaces
/// ([`Config::spaces`]).
pub struct GivenSpaces<F>(pub(crate) Arc<F>);

impl<F> Clone for GivenSpaces<F> {
    fn clone(&self) -> Self {
        GivenSpaces(self.0.clone())
    }
}

impl<F> fmt::Debug for GivenSpaces<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("GivenSpaces(..)")
    }
}

/// Type state of a [`Config`]: the property runs on the calling thread
/// only, so it need be neither `Send` nor `Sync` (it may capture a
/// `RefCell` or take an `Rc`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OneThread;

/// Type state of a [`Config`]: the exhaustive phase may run on several
/// threads ([`Config::threads`]), so the property must be `Sync` and its
/// input `Send`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Threads;

impl<I: Clone, R> Clone for Config<I, R> {
    fn clone(&self) -> Self {
        Config {
            settings: self.settings.clone(),
            input: self.input.clone(),
            threads: PhantomData,
        }
    }
}

impl<I: fmt::Debug, R> fmt::Debug for Config<I, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("settings", &self.settings)
            .field("input", &self.input)
            .field("threads", &std::any::type_name::<R>())
            .finish()
    }
}

impl<R> PartialEq for Config<OwnSpaces, R> {
    fn eq(&self, other: &Self) -> bool {
        self.settings == other.settings
    }
}

impl Default for Config {
    fn default() -> Self {
        Config::profile(Profile::Default)
    }
}

impl Config {
    /// The budgets of `profile`, every other option at its default.
    pub fn profile(profile: Profile) -> Config {
        Config::from_settings(Settings::profile(profile))
    }

    /// The deep profile's budgets ([`Profile::Deep`]): for CI jobs that can
    /// spend a second or more per property.
    pub fn deep() -> Config {
        Config::profile(Profile::Deep)
    }

    pub(crate) fn from_settings(settings: Settings) -> Config {
        Config {
            settings,
            input: OwnSpaces,
            threads: PhantomData,
        }
    }
}

impl Config {
    /// The defaults overridden by the `NEATCHECK_*` environment variables:
    /// for a program that calls [`Config::try_check`] (which reads no
    /// variable) and wants the same overrides as a test's check.
    ///
    /// # Panics
    /// With a clear message if a variable is set to something unreadable.
    pub fn from_env() -> Config {
        Config::from_settings(Settings::default().with_env(false))
    }
}

impl<R> Config<OwnSpaces, R> {
    /// Searches or checks the values of given spaces instead of the
    /// input's own: a custom generator per argument, with no newtype.
    /// `spaces` makes a [`crate::Space`] of the input, or a tuple of spaces,
    /// one per argument (each argument is then one position of its own
    /// space). It is called once per thread that searches (the caller,
    /// parallel workers, the watchdog), so it must not capture thread-bound
    /// data.
    ///
    /// Arguments stay lazily readable (`get`, `force`, and `view` where the
    /// space has the type's own structure) and counterexamples print as
    /// values.
    ///
    /// ```
    /// use neatcheck::{space, Config, Lazy};
    /// // Keys from a small range, lists of any bytes.
    /// Config::default()
    ///     .spaces(|| (space::range(-3, 3, |k| k), space::of::<Vec<u8>>()))
    ///     .check(|k: Lazy<i64>, xs: Lazy<Vec<u8>>| (-3..=3).contains(&k.get()) || xs.len() > 100);
    /// ```
    pub fn spaces<F>(self, spaces: F) -> Config<GivenSpaces<F>, R> {
        Config {
            settings: self.settings,
            input: GivenSpaces(Arc::new(spaces)),
            threads: PhantomData,
        }
    }
}

impl<I, R> Config<I, R> {
    /// Lets the exhaustive phase of a check, and a search, run on `n`
    /// threads (at least 1), with the same verdict, runs, classes and
    /// counterexample as on one. The property must then be `Sync` and its
    /// input `Send`; `NEATCHECK_THREADS` sets the number of a check that
    /// allows threads.
    ///
    /// ```
    /// use neatcheck::{Config, Lazy};
    /// // "No list of booleans has three trues" is false: the smallest
    /// // counterexample has size 7 (a list costs 1 + n plus its elements).
    /// let prop = |xs: Lazy<Vec<bool>>| xs.iter().filter(|b| b.get()).count() < 3;
    /// let on_two = Config::default().max_size(7).threads(2).ctrex(prop);
    /// let on_one = Config::default().max_size(7).ctrex(prop);
    /// assert_eq!(on_two.runs(), on_one.runs());
    /// assert_eq!(on_two.counterexample().unwrap().value, vec![true, true, true]);
    /// ```
    pub fn threads(self, n: usize) -> Config<I, Threads> {
        let mut settings = self.settings;
        settings.threads = n.max(1);
        Config {
            settings,
            input: self.input,
            threads: PhantomData,
        }
    }

    /// Sets the size bound: the largest size the exhaustive phase of a
    /// check reaches, and the one bound of a search (`sat`, `classes`,
    /// `ctrex`, ...: every input of size `<= n`; the default, 100, is far
    /// too large for the search of most recursive types).
    pub fn max_size(mut self, n: usize) -> Self {
        self.settings.max_size = n;
        self
    }

    /// Sets the number of runs of the exhaustive phase, and gives the
    /// searches (`sat`, `classes`, `ctrex`), which have none by default, a
    /// budget of that many runs. Confirming a random
    /// or edge-sweep find minimal (searching the sizes below it) has a
    /// budget of as many runs again, counted in [`Summary::confirm_runs`](crate::check::Summary::confirm_runs).
    pub fn runs(mut self, n: u64) -> Self {
        self.settings.runs = n;
        self.settings.runs_given = true;
        self
    }

    /// Sets the random phase: `samples` cases of sizes up to `max_size`
    /// (`samples = 0` turns it off).
    pub fn samples(mut self, samples: u64, max_size: usize) -> Self {
        self.settings.samples = samples;
        self.settings.sample_max_size = max_size;
        self
    }

    /// Sets the seed of the random phase.
    pub fn seed(mut self, seed: u64) -> Self {
        self.settings.seed = seed;
        self
    }

    /// Sets a wall-clock ceiling for the whole check (or search). The verdict then
    /// depends on the machine's speed; the report says when it cut the
    /// search.
    pub fn time(mut self, t: Duration) -> Self {
        self.settings.time = Some(t);
        self
    }

    /// Sets the per-run limit (`None`: no limit).
    pub fn run_timeout(mut self, t: Option<Duration>) -> Self {
        self.settings.run_timeout = t;
        self
    }

    /// Prints the coverage line of passing checks.
    pub fn verbose(mut self, v: bool) -> Self {
        self.settings.verbose = v;
        self
    }

    /// Runs only the input of this replay key (as a report's
    /// `NEATCHECK_REPLAY=<key>` line does).
    pub fn replay(mut self, key: impl Into<String>) -> Self {
        self.settings.replay = Some(key.into());
        self
    }

    /// Makes each [`Config::check`] append one JSON line to the file at
    /// `path` (created if missing), for CI dashboards: `test`, `file`,
    /// `verdict` (`passed`, `failed`, `not meaningful`, `internal error`),
    /// `runs`, `exhausted` (the largest size searched whole), `stopped`,
    /// `random`, `edge_cases`, `discarded`, `labelled_runs`, `labels`
    /// (label to runs), `coverage` (label to the percentage `cover`
    /// requires), `problems`, `counterexample` (`value`, `pattern`,
    /// `size`, `minimal`, `key`, `reason`; `null` on a pass) and
    /// `elapsed_ms`. `NEATCHECK_JSON=<path>` sets it for a whole test run.
    ///
    /// ```
    /// let path = std::env::temp_dir().join("neatcheck-json-lines-doc.jsonl");
    /// let _ = std::fs::remove_file(&path);
    /// neatcheck::Config::default()
    ///     .json_lines(&path)
    ///     .check(|x: u8, y: u8| x.max(y) >= y);
    /// let line = std::fs::read_to_string(&path).unwrap();
    /// assert!(line.starts_with("{\"test\":"), "{line}");
    /// assert!(line.contains("\"verdict\":\"passed\""), "{line}");
    /// ```
    pub fn json_lines(mut self, path: impl Into<std::path::PathBuf>) -> Self {
        self.settings.json = Some(path.into());
        self
    }

    /// Turns the regression file on or off.
    pub fn regressions(mut self, on: bool) -> Self {
        self.settings.regressions = on;
        self
    }

    /// Turns the portfolio's depth-bounded search on or off (see
    /// [`Config::portfolio`]).
    ///
    /// ```
    /// use neatcheck::check::{Config, Found};
    /// use neatcheck::Lazy;
    /// // Six distinct small numbers: the depth-bounded search meets them
    /// // after a few thousand runs, the size-bounded one after 1.5 million.
    /// let prop = |xs: Lazy<Vec<u8>>| {
    ///     xs.len() < 6 || {
    ///         let v: Vec<u8> = xs.iter().map(|x| x.get()).collect();
    ///         (1..v.len()).any(|i| v[..i].contains(&v[i]))
    ///     }
    /// };
    /// let config = Config::default().runs(100_000).samples(0, 0);
    /// let c = config.clone().portfolio(true).try_check(prop).unwrap_err();
    /// assert!(matches!(c.found, Found::Depth { .. }));
    /// assert_eq!(c.value.len(), 6);
    /// // Within this budget the size order could not prove it smallest,
    /// // and alone it finds nothing.
    /// assert!(!c.is_minimal());
    /// assert!(config.portfolio(false).try_check(prop).is_ok());
    /// ```
    pub fn portfolio(mut self, on: bool) -> Self {
        self.settings.portfolio = on;
        self
    }

    /// Sets the conjunction strategy for `Cool` properties.
    pub fn strategy(mut self, s: Strategy) -> Self {
        self.settings.strategy = s;
        self
    }

    /// Sizes the primitive integer types of this check's input by `sizes`
    /// (see [`IntegerSizes`]): the exhaustive phase, the random phase, the
    /// parallel workers, shrinking and replay keys all use it.
    ///
    /// ```
    /// use neatcheck::check::Config;
    /// use neatcheck::space::IntegerSizes;
    /// let config = Config::default().integer_sizes(IntegerSizes::Linear);
    /// let failure = config.try_check(|x: u16| x < 100).unwrap_err();
    /// assert_eq!((failure.value, failure.size), (100, 100));
    /// ```
    pub fn integer_sizes(mut self, sizes: IntegerSizes) -> Self {
        self.settings.integers = Some(sizes);
        self
    }

    /// Runs only shard `index` of `count` (numbered from 1, as
    /// `cargo nextest --partition count:i/n` numbers its partitions): a CI
    /// matrix of `count` jobs, each with its own index, runs between them
    /// exactly the exhaustive runs of the unsharded check, each once
    /// (`docs/spec.md#shards`), and splits its random cases the same way.
    /// Each shard has the whole run budget ([`Config::runs`]) for its own
    /// runs. A counterexample one shard reports is the first in search
    /// order within that shard; the report says so, since another shard
    /// may hold an earlier one of the same size or a smaller one.
    /// `NEATCHECK_SHARD=i/n` sets it from the environment.
    ///
    /// ```
    /// use neatcheck::check::Config;
    /// let shards: Vec<_> = (1..=3)
    ///     .map(|i| Config::deep().shard(i, 3))
    ///     .map(|config| config.try_check(|x: u8, y: u8| x.max(y) >= x))
    ///     .collect();
    /// // At the largest size (16), every pair of bytes, each in one shard.
    /// let last: u64 = shards.iter().map(|s| s.as_ref().unwrap().runs_last_bound).sum();
    /// assert_eq!(last, 256 * 256);
    /// ```
    ///
    /// # Panics
    /// If `count` is 0 or `index` is not in `1..=count`.
    pub fn shard(mut self, index: usize, count: usize) -> Self {
        self.settings.shard = Some(Shard::new(index, count));
        self.settings.apply_shard_depth();
        self
    }

    /// Sets the search-tree depth at which [`Config::shard`] deals out
    /// whole subtrees (at least 1; the default, 10, was measured by
    /// `tools/src/bin/shard_balance.rs`). A deeper cut deals out more and
    /// smaller subtrees (better balance) and makes every shard replay more
    /// nodes above it. Every shard of a search must use the same depth, or
    /// their parts overlap and leave gaps: set it in code that every job
    /// runs, never per job.
    pub fn shard_depth(mut self, depth: usize) -> Self {
        self.settings.shard_depth = Some(depth);
        self.settings.apply_shard_depth();
        self
    }
}

//! How a check searches: [`Config`], its defaults and the `NEATCHECK_*`
//! environment variables that override it.

use crate::cool::Strategy;
use crate::describe::IntegerSizes;
use crate::outcome::Shard;
use std::time::Duration;

/// How a check searches. Every field can be set in code and overridden by
/// an environment variable, so CI can search harder without code changes.
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
/// | `NEATCHECK_THREADS` | threads of the exhaustive phase | 1 |
/// | `NEATCHECK_TIME` | wall-clock ceiling for the whole check (`500ms`, `2s`, `1.5`) | none |
/// | `NEATCHECK_RUN_TIMEOUT` | per-run limit: a longer run fails the test (`0`: off) | 10 s |
/// | `NEATCHECK_VERBOSE` | `1`: print the coverage line of passing checks | `0` |
/// | `NEATCHECK_REPLAY` | run only the input of this key (from a report) | unset |
/// | `NEATCHECK_REGRESSIONS` | `0`: neither replay nor save the regression file | `1` |
/// | `NEATCHECK_STRATEGY` | conjunction strategy for `Cool` properties | `OF` |
/// | `NEATCHECK_INTEGERS` | sizes of the primitive integers: `linear` or `bits` | the thread's (bits) |
/// | `NEATCHECK_SHARD` | search only shard `i` of `n` (`i/n`, numbered from 1 as in `cargo nextest --partition count:i/n`) | the whole search |
/// | `NEATCHECK_PORTFOLIO` | `1`: a depth-bounded search beside the size-bounded one ([`Config::portfolio`]) | `0` (deep: `1`) |
///
/// Yes-or-no variables take `1`, `true`, `yes`, `on` or `0`, `false`, `no`,
/// `off`; any other value, a variable that can not be read, and a
/// `NEATCHECK_*` variable that is not in this table (a typo such as
/// `NEATCHECK_SIZ`) stop the check with an error naming it.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Largest size bound the exhaustive phase searches.
    pub max_size: usize,
    /// Runs of the exhaustive phase, over all its bounds.
    pub runs: u64,
    /// Random cases tested after the exhaustive phase (0: none).
    pub samples: u64,
    /// Largest size of a random case. Uniform cases stop at 200 (drawing
    /// one uniformly needs the counts of every size up to it, cubic in
    /// the size); the long cases, a quarter of them, reach this size where
    /// counting their structures stays cheap (lists reach 1 000, binary
    /// trees about 200). The coverage line gives the sizes drawn.
    pub sample_max_size: usize,
    /// Seed of the random phase.
    pub seed: u64,
    /// Threads of the exhaustive phase (the verdict and counterexample do
    /// not depend on it).
    pub threads: usize,
    /// A wall-clock ceiling for the whole check (`None`: none). When it
    /// cuts the search, the summary and reports say so.
    pub time: Option<Duration>,
    /// The longest one run may take before the check fails with the input
    /// that hangs (`None`: no limit).
    pub run_timeout: Option<Duration>,
    /// Print the coverage line of a passing check.
    pub verbose: bool,
    /// Run only the input of this replay key.
    pub replay: Option<String>,
    /// Replay the failures saved for this test first, and save new ones.
    pub regressions: bool,
    /// Strategy for properties returning [`crate::cool::Cool`].
    pub strategy: Strategy,
    /// How the primitive integer types are sized in this check (`None`: as
    /// on the calling thread, by bit length unless
    /// [`crate::space::with_integer_sizes`] says otherwise).
    pub integers: Option<IntegerSizes>,
    /// The one shard of the search this check runs (`None`: all of it);
    /// see [`Config::shard`].
    pub shard: Option<Shard>,
    /// Interleave a depth-bounded search (Lazy SmallCheck's order) with the
    /// size-bounded one in the exhaustive phase, within a budget that grows
    /// as the square root of the size order's runs: a bug that needs a long input of small parts is then found early
    /// (`docs/spec.md#portfolio`). The counterexample reported is still the
    /// smallest one whenever the run budget reaches it. On in the deep
    /// profile; off in the default one, where its share (about a quarter
    /// more runs at 2 000) cost more than it found: no bug of the
    /// `versus_proptest` set needed it.
    pub portfolio: bool,
}

/// Named budgets: how hard a check searches before it passes.
///
/// [`Profile::Default`] makes a passing check cost a few times what proptest's
/// 256 cases cost, so hundreds of checks stay affordable in `cargo test`;
/// [`Profile::Deep`] is the search of a nightly or pre-release job, a hundred
/// times longer or more. Both are deterministic: the same property gives the
/// same verdict under the same profile on any machine. Select one in code
/// ([`Config::deep`], [`Config::profile`]) or for a whole test run with
/// `NEATCHECK_PROFILE=deep` (which raises every budget of every check to at
/// least the deep one's, so a check that asked for more keeps it).
///
/// ```
/// use neatcheck::check::{Config, Profile};
/// assert_eq!(Config::profile(Profile::Deep), Config::deep());
/// assert!(Config::deep().runs > Config::default().runs);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Profile {
    /// The default budgets (the table on [`Config`]).
    #[default]
    Default,
    /// A million exhaustive runs, 10 000 random cases and the depth-bounded
    /// search beside the size-bounded one ([`Config::portfolio`]): 0.1 to
    /// 1 s per property where the default takes milliseconds.
    Deep,
}

impl std::str::FromStr for Profile {
    type Err = String;

    fn from_str(s: &str) -> Result<Profile, String> {
        match s.trim() {
            "default" => Ok(Profile::Default),
            "deep" => Ok(Profile::Deep),
            _ => Err("expected `default` or `deep`".into()),
        }
    }
}

/// The budgets of a profile: (exhaustive runs, random cases, largest size
/// of a uniform random case, the depth-bounded search beside the
/// size-bounded one).
const fn budgets(p: Profile) -> (u64, u64, usize, bool) {
    match p {
        Profile::Default => (
            DEFAULT_RUNS,
            DEFAULT_SAMPLES,
            DEFAULT_SAMPLE_MAX_SIZE,
            false,
        ),
        Profile::Deep => (DEEP_RUNS, DEEP_SAMPLES, DEFAULT_SAMPLE_MAX_SIZE, true),
    }
}

/// The defaults: see the table on [`Config`].
pub(crate) const DEFAULT_RUNS: u64 = 2_000;
pub(crate) const DEFAULT_SAMPLES: u64 = 150;
pub(crate) const DEFAULT_SAMPLE_MAX_SIZE: usize = 1000;
/// The deep profile's budgets.
pub(crate) const DEEP_RUNS: u64 = 1_000_000;
pub(crate) const DEEP_SAMPLES: u64 = 10_000;
pub(crate) const DEFAULT_SEED: u64 = 0x5eed;
const DEFAULT_RUN_TIMEOUT: Duration = Duration::from_secs(10);

impl Default for Config {
    fn default() -> Self {
        Config::profile(Profile::Default)
    }
}

impl Config {
    /// The budgets of `profile`, every other option at its default.
    pub fn profile(profile: Profile) -> Config {
        let (runs, samples, sample_max_size, portfolio) = budgets(profile);
        Config {
            max_size: 100,
            runs,
            samples,
            sample_max_size,
            seed: DEFAULT_SEED,
            threads: 1,
            time: None,
            run_timeout: Some(DEFAULT_RUN_TIMEOUT),
            verbose: false,
            replay: None,
            regressions: true,
            strategy: Strategy::OF,
            integers: None,
            shard: None,
            portfolio,
        }
    }

    /// The deep profile's budgets ([`Profile::Deep`]): for CI jobs that can
    /// spend a second or more per property.
    pub fn deep() -> Config {
        Config::profile(Profile::Deep)
    }

    /// Raises every budget to at least `profile`'s.
    fn at_least(mut self, profile: Profile) -> Config {
        let (runs, samples, sample_max_size, portfolio) = budgets(profile);
        self.runs = self.runs.max(runs);
        self.samples = self.samples.max(samples);
        self.sample_max_size = self.sample_max_size.max(sample_max_size);
        self.portfolio |= portfolio;
        self
    }
}

/// Parses a duration: `500ms`, `2s`, `1.5` (seconds), `1m`.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, unit) = match s.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, "s"),
    };
    let value: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("not a duration: {s:?} (examples: 500ms, 2s, 1.5)"))?;
    if !(value >= 0.0 && value.is_finite()) {
        return Err(format!("not a duration: {s:?}"));
    }
    let secs = match unit {
        "ms" => value / 1000.0,
        "s" => value,
        "m" | "min" => value * 60.0,
        _ => return Err(format!("unknown unit in {s:?} (ms, s, m)")),
    };
    Ok(Duration::from_secs_f64(secs))
}

fn env_var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

fn invalid(name: &str, v: &str, why: &str) -> ! {
    panic!("neatcheck: {name}={v:?} is not valid: {why}")
}

fn parsed<N: std::str::FromStr>(name: &str, what: &str) -> Option<N> {
    env_var(name).map(|v| {
        v.trim()
            .replace('_', "")
            .parse()
            .unwrap_or_else(|_| invalid(name, &v, &format!("expected {what}")))
    })
}

/// A natural number (`_` allowed), where one too large for `N` means no
/// limit: `N`'s maximum. `None` if it is not a natural number.
pub(crate) fn parse_count<N: TryFrom<u128>>(text: &str, max: N) -> Option<N> {
    let t = text.trim().replace('_', "");
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(
        t.parse::<u128>()
            .ok()
            .and_then(|n| N::try_from(n).ok())
            .unwrap_or(max),
    )
}

/// [`parse_count`] of a variable; a huge value (`NEATCHECK_SIZE=1e30` written
/// out) is the largest one, not an error.
fn parsed_count<N: TryFrom<u128>>(name: &str, what: &str, max: N) -> Option<N> {
    env_var(name).map(|v| {
        parse_count(&v, max).unwrap_or_else(|| invalid(name, &v, &format!("expected {what}")))
    })
}

/// A yes-or-no variable: `1`, `true`, `yes`, `on` or `0`, `false`, `no`,
/// `off` (any case); anything else is an error, not a guess.
fn flag(name: &str, v: &str) -> bool {
    match v.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => true,
        "0" | "false" | "no" | "off" => false,
        _ => invalid(name, v, "expected 1, true, yes, on or 0, false, no, off"),
    }
}

/// Every `NEATCHECK_*` variable neatcheck reads (a check's, and the suite
/// snapshot's): any other is a typo, reported rather than ignored.
pub(crate) const KNOWN_VARIABLES: [&str; 17] = [
    "NEATCHECK_PROFILE",
    "NEATCHECK_SIZE",
    "NEATCHECK_RUNS",
    "NEATCHECK_SAMPLES",
    "NEATCHECK_SAMPLE_SIZE",
    "NEATCHECK_SEED",
    "NEATCHECK_THREADS",
    "NEATCHECK_TIME",
    "NEATCHECK_RUN_TIMEOUT",
    "NEATCHECK_VERBOSE",
    "NEATCHECK_REPLAY",
    "NEATCHECK_REGRESSIONS",
    "NEATCHECK_STRATEGY",
    "NEATCHECK_INTEGERS",
    "NEATCHECK_SHARD",
    "NEATCHECK_PORTFOLIO",
    // `suite::SNAPSHOT_ENV` (a layer above; its tests check the name).
    "NEATCHECK_SUITE",
];

/// Panics naming the first `NEATCHECK_*` variable of the environment that
/// neatcheck does not read, with the known name nearest to it.
fn refuse_unknown_variables() {
    for (name, _) in std::env::vars_os() {
        let Some(name) = name.to_str() else { continue };
        if !name.starts_with("NEATCHECK_") || KNOWN_VARIABLES.contains(&name) {
            continue;
        }
        let nearest = KNOWN_VARIABLES
            .iter()
            .min_by_key(|known| edit_distance(name, known))
            .expect("known variables");
        let hint = if edit_distance(name, nearest) <= 3 {
            format!(" (did you mean {nearest}?)")
        } else {
            String::new()
        };
        panic!(
            "neatcheck: {name} is set, but neatcheck reads no such variable{hint}; the ones it \
             reads are listed in the documentation of neatcheck::check::Config"
        );
    }
}

/// The number of single-character insertions, deletions and substitutions
/// that turn `a` into `b` (Levenshtein's distance).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

impl Config {
    /// The defaults overridden by the `NEATCHECK_*` environment variables.
    ///
    /// # Panics
    /// With a clear message if a variable is set to something unreadable.
    pub fn from_env() -> Self {
        Config::default().with_env()
    }

    /// This configuration overridden by the `NEATCHECK_*` variables.
    ///
    /// # Panics
    /// With a clear message if a variable is set to something unreadable.
    pub fn with_env(mut self) -> Self {
        refuse_unknown_variables();
        if let Some(v) = env_var("NEATCHECK_PROFILE") {
            let profile: Profile = v
                .parse()
                .unwrap_or_else(|e: String| invalid("NEATCHECK_PROFILE", &v, &e));
            self = self.at_least(profile);
        }
        if let Some(n) = parsed_count("NEATCHECK_SIZE", "a size (a natural number)", usize::MAX) {
            self.max_size = n;
        }
        if let Some(n) = parsed_count("NEATCHECK_RUNS", "a number of runs", u64::MAX) {
            self.runs = n;
        }
        if let Some(n) = parsed_count("NEATCHECK_SAMPLES", "a number of random cases", u64::MAX) {
            self.samples = n;
        }
        if let Some(n) = parsed_count("NEATCHECK_SAMPLE_SIZE", "a size", usize::MAX) {
            self.sample_max_size = n;
        }
        if let Some(n) = parsed("NEATCHECK_SEED", "a number") {
            self.seed = n;
        }
        if let Some(n) = parsed::<usize>("NEATCHECK_THREADS", "a number of threads") {
            if n == 0 {
                invalid("NEATCHECK_THREADS", "0", "expected at least 1 thread");
            }
            self.threads = n;
        }
        if let Some(v) = env_var("NEATCHECK_TIME") {
            self.time =
                Some(parse_duration(&v).unwrap_or_else(|e| invalid("NEATCHECK_TIME", &v, &e)));
        }
        if let Some(v) = env_var("NEATCHECK_RUN_TIMEOUT") {
            let t = parse_duration(&v).unwrap_or_else(|e| invalid("NEATCHECK_RUN_TIMEOUT", &v, &e));
            self.run_timeout = (!t.is_zero()).then_some(t);
        }
        if let Some(v) = env_var("NEATCHECK_VERBOSE") {
            self.verbose = flag("NEATCHECK_VERBOSE", &v);
        }
        if let Some(v) = env_var("NEATCHECK_REPLAY") {
            self.replay = Some(v.trim().to_string());
        }
        if let Some(v) = env_var("NEATCHECK_REGRESSIONS") {
            self.regressions = flag("NEATCHECK_REGRESSIONS", &v);
        }
        if let Some(v) = env_var("NEATCHECK_STRATEGY") {
            self.strategy = v
                .parse()
                .unwrap_or_else(|e: String| invalid("NEATCHECK_STRATEGY", &v, &e));
        }
        if let Some(v) = env_var("NEATCHECK_SHARD") {
            self.shard = Some(parse_shard(&v));
        }
        if let Some(v) = env_var("NEATCHECK_PORTFOLIO") {
            self.portfolio = flag("NEATCHECK_PORTFOLIO", &v);
        }
        if let Some(v) = env_var("NEATCHECK_INTEGERS") {
            self.integers = Some(
                v.parse()
                    .unwrap_or_else(|e: String| invalid("NEATCHECK_INTEGERS", &v, &e)),
            );
        }
        self
    }

    /// Sets the largest size bound of the exhaustive phase.
    pub fn max_size(mut self, n: usize) -> Self {
        self.max_size = n;
        self
    }

    /// Sets the number of runs of the exhaustive phase. Confirming a random
    /// or edge-sweep find minimal (searching the sizes below it) has a
    /// budget of as many runs again, counted in [`Summary::confirm_runs`](crate::check::Summary::confirm_runs).
    pub fn runs(mut self, n: u64) -> Self {
        self.runs = n;
        self
    }

    /// Sets the random phase: `samples` cases of sizes up to `max_size`
    /// (`samples = 0` turns it off).
    pub fn samples(mut self, samples: u64, max_size: usize) -> Self {
        self.samples = samples;
        self.sample_max_size = max_size;
        self
    }

    /// Sets the seed of the random phase.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Runs the exhaustive phase on `n` threads (same verdict and
    /// counterexample as on one).
    pub fn threads(mut self, n: usize) -> Self {
        self.threads = n.max(1);
        self
    }

    /// Sets a wall-clock ceiling for the whole check. The verdict then
    /// depends on the machine's speed; the report says when it cut the
    /// search.
    pub fn time(mut self, t: Duration) -> Self {
        self.time = Some(t);
        self
    }

    /// Sets the per-run limit (`None`: no limit).
    pub fn run_timeout(mut self, t: Option<Duration>) -> Self {
        self.run_timeout = t;
        self
    }

    /// Prints the coverage line of passing checks.
    pub fn verbose(mut self, v: bool) -> Self {
        self.verbose = v;
        self
    }

    /// Turns the regression file on or off.
    pub fn regressions(mut self, on: bool) -> Self {
        self.regressions = on;
        self
    }

    /// Turns the portfolio's depth-bounded search on or off (see
    /// [`Config::portfolio`]).
    ///
    /// ```
    /// use neatcheck::check::{run_check, Config, Found};
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
    /// let c = run_check(&config.clone().portfolio(true), prop).unwrap_err();
    /// assert!(matches!(c.found, Found::Depth { .. }));
    /// assert_eq!(c.value.len(), 6);
    /// // Within this budget the size order could not prove it smallest,
    /// // and alone it finds nothing.
    /// assert!(!c.is_minimal());
    /// assert!(run_check(&config.portfolio(false), prop).is_ok());
    /// ```
    pub fn portfolio(mut self, on: bool) -> Self {
        self.portfolio = on;
        self
    }

    /// Sets the conjunction strategy for `Cool` properties.
    pub fn strategy(mut self, s: Strategy) -> Self {
        self.strategy = s;
        self
    }

    /// Sizes the primitive integer types of this check's input by `sizes`
    /// (see [`IntegerSizes`]): the exhaustive phase, the random phase, the
    /// parallel workers, shrinking and replay keys all use it.
    ///
    /// ```
    /// use neatcheck::check::{run_check, Config};
    /// use neatcheck::space::IntegerSizes;
    /// let config = Config::default().integer_sizes(IntegerSizes::Linear);
    /// let failure = run_check(&config, |x: u16| x < 100).unwrap_err();
    /// assert_eq!((failure.value, failure.size), (100, 100));
    /// ```
    pub fn integer_sizes(mut self, sizes: IntegerSizes) -> Self {
        self.integers = Some(sizes);
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
    /// use neatcheck::check::{run_check, Config};
    /// let shards: Vec<_> = (1..=3)
    ///     .map(|i| Config::deep().shard(i, 3))
    ///     .map(|config| run_check(&config, |x: u8, y: u8| x.max(y) >= x))
    ///     .collect();
    /// // At the largest size (16), every pair of bytes, each in one shard.
    /// let last: u64 = shards.iter().map(|s| s.as_ref().unwrap().runs_last_bound).sum();
    /// assert_eq!(last, 256 * 256);
    /// ```
    ///
    /// # Panics
    /// If `count` is 0 or `index` is not in `1..=count`.
    pub fn shard(mut self, index: usize, count: usize) -> Self {
        self.shard = Some(Shard::new(index, count));
        self
    }
}

/// The value of `NEATCHECK_SHARD`.
///
/// # Panics
/// With a message naming the variable if it is not `i/n` with
/// `1 <= i <= n`.
fn parse_shard(v: &str) -> Shard {
    v.parse()
        .unwrap_or_else(|e: String| invalid("NEATCHECK_SHARD", v, &e))
}

#[cfg(test)]
mod tests {
    use super::{edit_distance, flag, parse_shard};
    use crate::outcome::Shard;

    #[test]
    fn yes_or_no_variables_take_the_documented_spellings_only() {
        for on in ["1", "true", "YES", " on "] {
            assert!(flag("NEATCHECK_VERBOSE", on), "{on}");
        }
        for off in ["0", "False", "no", "OFF"] {
            assert!(!flag("NEATCHECK_VERBOSE", off), "{off}");
        }
        for bad in ["maybe", "2", "y", "onn"] {
            let e = std::panic::catch_unwind(|| flag("NEATCHECK_VERBOSE", bad)).unwrap_err();
            let message = e.downcast_ref::<String>().unwrap();
            assert!(message.contains("is not valid"), "{message}");
        }
    }

    #[test]
    fn unknown_variables_are_named_with_the_nearest_known_one() {
        assert_eq!(edit_distance("NEATCHECK_SIZ", "NEATCHECK_SIZE"), 1);
        assert_eq!(edit_distance("NEATCHECK_SEDE", "NEATCHECK_SEED"), 2);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn neatcheck_shard_is_read_as_i_of_n_from_one() {
        assert_eq!(parse_shard("2/4"), Shard::new(2, 4));
        assert_eq!(parse_shard(" 4/4 "), Shard::new(4, 4));
        for (bad, says) in [
            ("0/4", "numbered 1 to 4"),
            ("5/4", "numbered 1 to 4"),
            ("1/0", "at least one shard"),
            ("three", "expected `i/n`"),
            ("1:4", "expected `i/n`"),
        ] {
            let e = std::panic::catch_unwind(|| parse_shard(bad)).unwrap_err();
            let message = e.downcast_ref::<String>().expect("a formatted message");
            assert!(
                message.starts_with(&format!("neatcheck: NEATCHECK_SHARD={bad:?} is not valid")),
                "{message}"
            );
            assert!(message.contains(says), "{message}");
        }
    }
}

//! The options of a search or check as one untyped record ([`Settings`]),
//! their defaults, the profiles and the `NEATCHECK_*` environment variables
//! that override them.

use crate::cool::Strategy;
use crate::describe::IntegerSizes;
use crate::record::Shard;
use std::time::Duration;

/// The options of a search or check, untyped (the public [`Config`](crate::Config) adds
/// where the input's values come from and whether threads may run the
/// property). The table of defaults is on [`Config`](crate::Config).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Settings {
    /// Largest size bound the exhaustive phase searches.
    pub(crate) max_size: usize,
    /// Runs of the exhaustive phase, over all its bounds.
    pub(crate) runs: u64,
    /// Random cases tested after the exhaustive phase (0: none).
    pub(crate) samples: u64,
    /// Largest size of a random case. Uniform cases stop at 200 (drawing
    /// one uniformly needs the counts of every size up to it, cubic in
    /// the size); the long cases, a quarter of them, reach this size where
    /// counting their structures stays cheap (lists reach 1 000, binary
    /// trees about 200). The coverage line gives the sizes drawn.
    pub(crate) sample_max_size: usize,
    /// Seed of the random phase.
    pub(crate) seed: u64,
    /// Threads of the exhaustive phase (the verdict and counterexample do
    /// not depend on it).
    pub(crate) threads: usize,
    /// A wall-clock ceiling for the whole check (`None`: none). When it
    /// cuts the search, the summary and reports say so.
    pub(crate) time: Option<Duration>,
    /// The longest one run may take before the check fails with the input
    /// that hangs (`None`: no limit).
    pub(crate) run_timeout: Option<Duration>,
    /// Print the coverage line of a passing check.
    pub(crate) verbose: bool,
    /// Run only the input of this replay key.
    pub(crate) replay: Option<String>,
    /// Replay the failures saved for this test first, and save new ones.
    pub(crate) regressions: bool,
    /// Strategy for properties returning [`crate::cool::Cool`].
    pub(crate) strategy: Strategy,
    /// How the primitive integer types are sized in this check (`None`: as
    /// on the calling thread, by bit length unless
    /// [`crate::space::with_integer_sizes`] says otherwise).
    pub(crate) integers: Option<IntegerSizes>,
    /// The one shard of the search this check runs (`None`: all of it);
    /// see [`Config::shard`](crate::Config::shard).
    pub(crate) shard: Option<Shard>,
    /// Interleave a depth-bounded search (Lazy SmallCheck's order) with the
    /// size-bounded one in the exhaustive phase, with as many runs as the
    /// size order for its first 16 384 and a share that then grows as the
    /// square root of its runs: a bug that needs a long input of small
    /// parts is then found early
    /// (`docs/spec.md#portfolio`). The counterexample reported is still the
    /// smallest one whenever the run budget reaches it. On in the deep
    /// profile (128 000 more runs at its million); off in the default one,
    /// where it would double a passing check's 2 000 runs, and no bug of
    /// the `versus_proptest` set needed it.
    pub(crate) portfolio: bool,
    /// Whether `runs` was set rather than taken from a profile: searches
    /// (`sat`, `classes`, ...) have no run budget unless one was set.
    pub(crate) runs_given: bool,
    /// The depth of the shard deal (`None`: the default).
    pub(crate) shard_depth: Option<usize>,
    /// Where each check appends its JSON line (`None`: nowhere).
    pub(crate) json: Option<std::path::PathBuf>,
}

/// Named budgets: how hard a check searches before it passes.
///
/// [`Profile::Default`] makes a passing check cost a few times what proptest's
/// 256 cases cost, so hundreds of checks stay affordable in `cargo test`;
/// [`Profile::Deep`] is the search of a nightly or pre-release job, a hundred
/// times longer or more. Both are deterministic: the same property gives the
/// same verdict under the same profile on any machine. Select one in code
/// ([`Config::deep`](crate::Config::deep), [`Config::profile`](crate::Config::profile)) or for a whole test run with
/// `NEATCHECK_PROFILE=deep` (which raises every budget of every check to at
/// least the deep one's, so a check that asked for more keeps it).
///
/// ```
/// use neatcheck::check::{Config, Profile};
/// assert_eq!(Config::profile(Profile::Deep), Config::deep());
/// assert_ne!(Config::deep(), Config::default());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Profile {
    /// The default budgets (the table on [`Config`](crate::Config)).
    #[default]
    Default,
    /// A million exhaustive runs, 10 000 random cases and the depth-bounded
    /// search beside the size-bounded one ([`Config::portfolio`](crate::Config::portfolio)): 0.1 to
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

/// The defaults: see the table on [`Config`](crate::Config).
pub(crate) const DEFAULT_RUNS: u64 = 2_000;
pub(crate) const DEFAULT_SAMPLES: u64 = 150;
pub(crate) const DEFAULT_SAMPLE_MAX_SIZE: usize = 1000;
/// The deep profile's budgets.
pub(crate) const DEEP_RUNS: u64 = 1_000_000;
pub(crate) const DEEP_SAMPLES: u64 = 10_000;
pub(crate) const DEFAULT_SEED: u64 = 0x5eed;
const DEFAULT_RUN_TIMEOUT: Duration = Duration::from_secs(10);

impl Default for Settings {
    fn default() -> Self {
        Settings::profile(Profile::Default)
    }
}

impl Settings {
    /// The budgets of `profile`, every other option at its default.
    pub(crate) fn profile(profile: Profile) -> Settings {
        let (runs, samples, sample_max_size, portfolio) = budgets(profile);
        Settings {
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
            runs_given: false,
            shard_depth: None,
            json: None,
        }
    }

    /// Gives the shard, if any, the configured deal depth.
    pub(crate) fn apply_shard_depth(&mut self) {
        if let (Some(shard), Some(depth)) = (self.shard, self.shard_depth) {
            self.shard = Some(shard.with_depth(depth));
        }
    }

    /// Raises every budget to at least `profile`'s.
    fn at_least(mut self, profile: Profile) -> Settings {
        let (runs, samples, sample_max_size, portfolio) = budgets(profile);
        self.runs = self.runs.max(runs);
        self.samples = self.samples.max(samples);
        self.sample_max_size = self.sample_max_size.max(sample_max_size);
        self.portfolio |= portfolio;
        self
    }
}

/// Parses a duration: `500ms`, `2s`, `1.5` (seconds), `1m`.
pub(crate) fn parse_duration(s: &str) -> Result<Duration, String> {
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
pub(crate) const KNOWN_VARIABLES: [&str; 18] = [
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
    "NEATCHECK_JSON",
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

impl Settings {
    /// These settings overridden by the `NEATCHECK_*` variables. A check
    /// that may not use threads keeps one whatever `NEATCHECK_THREADS` says.
    ///
    /// # Panics
    /// With a clear message if a variable is set to something unreadable.
    pub(crate) fn with_env(mut self, threads_allowed: bool) -> Self {
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
            self.runs_given = true;
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
            if threads_allowed {
                self.threads = n;
            } else if n > 1 {
                one_thread_note(n);
            }
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
            self.apply_shard_depth();
        }
        if let Some(v) = env_var("NEATCHECK_PORTFOLIO") {
            self.portfolio = flag("NEATCHECK_PORTFOLIO", &v);
        }
        if let Some(v) = env_var("NEATCHECK_JSON") {
            self.json = Some(v.trim().into());
        }
        if let Some(v) = env_var("NEATCHECK_INTEGERS") {
            self.integers = Some(
                v.parse()
                    .unwrap_or_else(|e: String| invalid("NEATCHECK_INTEGERS", &v, &e)),
            );
        }
        self
    }
}

/// Says once per process that `NEATCHECK_THREADS` left a check on one
/// thread: a property may only run on threads where its check asked for
/// them (`Config::threads`, which requires it to be `Sync`). Straight to
/// standard error, which `cargo test` shows.
fn one_thread_note(n: usize) {
    use std::io::Write as _;
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !SAID.swap(true, std::sync::atomic::Ordering::Relaxed) {
        let _ = writeln!(
            std::io::stderr(),
            "neatcheck: NEATCHECK_THREADS={n} applies to checks that allow threads \
             (`Config::threads`, which asks the property to be `Sync`); the others run on one \
             thread"
        );
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
    use crate::record::Shard;

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

//! What a check ends with: the summary of a pass (with its label line), or
//! the test's panic with the failure report (the counterexample, what the
//! property read, how far the search went, the replay line) and the
//! regression file's entry; and, either way, the check's JSON line.

use super::driver::Origin;
use super::regressions;
use super::settings::Settings;
use crate::record::{Counterexample, Found, Stop, Summary};
use std::fmt::{Debug, Write};
use std::panic::Location;

/// The origin of a check called from a test.
pub(crate) fn origin_here(location: &'static Location<'static>) -> Origin {
    Origin {
        test: std::thread::current()
            .name()
            .filter(|n| *n != "main")
            .map(str::to_string),
        file: Some(location.file()),
    }
}

/// `cargo test` arguments that select exactly this test.
fn cargo_test_args(origin: &Origin) -> String {
    let target = match origin.file {
        Some(f) if f.starts_with("tests/") || f.contains("/tests/") => {
            // `tests/foo.rs` is target `foo`; every file under `tests/foo/`
            // belongs to target `foo` (a test binary with modules).
            let rest = &f[f.rfind("tests/").map_or(0, |i| i + "tests/".len())..];
            let target = match rest.split_once('/') {
                Some((dir, _)) => dir,
                None => rest.strip_suffix(".rs").unwrap_or(rest),
            };
            format!(" --test {target}")
        }
        Some(f) if f.starts_with("src/") || f.contains("/src/") => " --lib".to_string(),
        _ => String::new(),
    };
    match &origin.test {
        Some(t) => format!("{target} -- --exact {t}"),
        None => target,
    }
}

/// The failure report of a check.
pub(crate) fn failure_report<T: Debug>(
    c: &Counterexample<T>,
    origin: &Origin,
    location: Option<&Location<'_>>,
) -> String {
    let mut s = String::new();
    match location {
        Some(at) => writeln!(s, "neatcheck: property failed ({at})"),
        None => writeln!(s, "neatcheck: property failed"),
    }
    .expect("writing to a string");
    let debug = if c.too_deep_for_debug() {
        let _ = writeln!(
            s,
            "  counterexample (size {}, nested {} deep): {}",
            c.size, c.depth, c.shown
        );
        let _ = writeln!(
            s,
            "    (printed by neatcheck, not with `Debug`: a value nested more than {} deep \
             could overflow the stack)",
            Counterexample::<T>::DEBUG_DEPTH
        );
        c.shown.clone()
    } else {
        // A `Debug` that panics or writes megabytes leaves the constructor
        // form and the replay line below intact.
        let debug = crate::report::debug_for_report(&c.value);
        let _ = writeln!(s, "  counterexample (size {}): {debug}", c.size);
        debug
    };
    if c.pattern != debug {
        let _ = writeln!(s, "  as read by the property:  {}", c.pattern);
        if c.pattern.contains('_') || c.pattern.contains("..") {
            let _ = writeln!(
                s,
                "    (`_` and `..` mark parts the property never read: any value there fails too)"
            );
        }
    }
    match (&c.reason, c.panicked, &c.panic_location) {
        (Some(m), true, Some(at)) => {
            let _ = writeln!(s, "  the property panicked at {at}: {m}");
        }
        (Some(m), true, None) => {
            let _ = writeln!(s, "  the property panicked: {m}");
        }
        (Some(r), false, _) => {
            let _ = writeln!(s, "  the property {r}");
        }
        _ => {
            let _ = writeln!(s, "  the property returned false");
        }
    }
    if let Some(second) = &c.not_reproduced {
        let _ = writeln!(
            s,
            "  NOT REPRODUCIBLE: run again on the same input, the property {second}; it depends \
             on more than its input (global state, the clock, randomness), so this input is \
             not a minimal counterexample and its replay line may pass"
        );
    }
    match &c.found {
        _ if c.not_reproduced.is_some() => {}
        Found::Exhaustive if c.summary.part().is_some() => {
            let _ = writeln!(
                s,
                "  smallest within shard {} (NEATCHECK_SHARD / Config::shard): every smaller \
                 input of this shard passed (found after {} of its runs at size {}); another \
                 shard may hold an earlier counterexample of this size or a smaller one",
                c.summary.shard.expect("a shard"),
                c.runs,
                c.size
            );
        }
        Found::Exhaustive => {
            let _ = writeln!(
                s,
                "  minimal: every smaller input passed (found after {} runs at size {})",
                c.runs, c.size
            );
        }
        Found::Random {
            sampled_size,
            shrink_attempts,
            shrink_steps,
            passed_up_to,
        }
        | Found::EdgeSweep {
            sampled_size,
            shrink_attempts,
            shrink_steps,
            passed_up_to,
            ..
        } => {
            let phase = if matches!(c.found, Found::Random { .. }) {
                "the random phase"
            } else {
                "the edge sweep"
            };
            let _ = write!(
                s,
                "  found by {phase} (case {}, size {sampled_size}), shrunk to size {} in \
                 {shrink_steps} steps ({shrink_attempts} candidates tried); ",
                c.runs, c.size
            );
            let _ = match passed_up_to {
                Some(p) if c.summary.part().is_some() => writeln!(
                    s,
                    "every input of shard {} of size <= {p} passed; another shard may hold a \
                     smaller counterexample",
                    c.summary.shard.expect("a shard")
                ),
                Some(p) if *p as u64 + 1 >= c.size => {
                    writeln!(s, "minimal: every smaller input passed")
                }
                Some(p) => writeln!(
                    s,
                    "every input of size <= {p} passed, so a smaller counterexample may exist \
                     (sizes {}..={})",
                    p + 1,
                    c.size - 1
                ),
                None => writeln!(s, "smaller inputs were not all tested"),
            };
        }
        Found::Depth {
            depth,
            found_size,
            shrink_attempts,
            shrink_steps,
            passed_up_to,
        } => {
            let _ = write!(
                s,
                "  found by the depth-bounded search (depth {depth}, size {found_size}, after {} \
                 runs), shrunk to size {} in {shrink_steps} steps ({shrink_attempts} candidates \
                 tried); ",
                c.runs, c.size
            );
            let _ = match passed_up_to {
                Some(p) if *p as u64 + 1 >= c.size => {
                    writeln!(s, "size-minimal: proven (every smaller input passed)")
                }
                Some(p) => writeln!(
                    s,
                    "size-minimal: not proven (the budget ran out at size {}: sizes {}..={} \
                     were not all tested)",
                    p + 1,
                    p + 1,
                    c.size - 1
                ),
                None => writeln!(
                    s,
                    "size-minimal: not proven (the budget ran out before any size was complete)"
                ),
            };
        }
        Found::Replay { from_file: true } => {
            let _ = writeln!(
                s,
                "  replayed from the regression file (a failure saved by an earlier run)"
            );
        }
        Found::Replay { from_file: false } => {
            let _ = writeln!(s, "  replayed from NEATCHECK_REPLAY");
        }
    }
    let _ = writeln!(s, "  coverage: {}", c.summary);
    if !c.summary.drawn.is_empty() {
        let _ = writeln!(
            s,
            "  drawn by seed: {} (the search tried, counted and shrank seeds: minimal means no \
             smaller seed fails, not that no smaller value does)",
            c.summary.drawn.join(", ")
        );
    }
    if !c.key.is_empty() {
        let _ = writeln!(
            s,
            "  replay: NEATCHECK_REPLAY={} cargo test{}",
            c.key,
            cargo_test_args(origin)
        );
    }
    s
}

impl<T: Debug> Counterexample<T> {
    /// The failure report [`crate::check()`] prints (without the test's name and
    /// location, which only `check` knows).
    pub fn report(&self) -> String {
        failure_report(self, &Origin::default(), None)
    }
}

/// The end of a check from a test: the summary of a pass, or a panic with
/// the report of a failure (`explain` adds what the property knows of its
/// counterexample: a state machine's steps) or of a check that means
/// nothing.
#[track_caller]
pub(crate) fn finish<T: Debug>(
    settings: &Settings,
    origin: &Origin,
    location: &'static Location<'static>,
    result: Result<Summary, Box<Counterexample<T>>>,
    explain: &dyn Fn(&Counterexample<T>) -> String,
) -> Summary {
    match result {
        Ok(summary) => {
            if summary.stopped == Stop::Internal {
                json_line(
                    settings,
                    origin,
                    "internal error",
                    &summary,
                    None::<&Counterexample<T>>,
                );
                // Not a counterexample, and not a problem of the check's
                // configuration: neatcheck itself failed.
                let mut s = format!("{}\n", summary.problems.join("\n"));
                let _ = writeln!(s, "  in the check at {location}");
                let _ = writeln!(s, "  coverage: {summary}");
                panic!("{s}");
            }
            if !summary.problems.is_empty() {
                json_line(
                    settings,
                    origin,
                    "not meaningful",
                    &summary,
                    None::<&Counterexample<T>>,
                );
                let mut s = format!("neatcheck: the check is not meaningful ({location})\n");
                for p in &summary.problems {
                    let _ = writeln!(s, "  - {p}");
                }
                let _ = writeln!(s, "  coverage: {summary}");
                panic!("{s}");
            }
            json_line(
                settings,
                origin,
                "passed",
                &summary,
                None::<&Counterexample<T>>,
            );
            if settings.verbose {
                eprintln!(
                    "neatcheck: {} passed in {:.3}s: {summary}",
                    origin.test.as_deref().unwrap_or("property"),
                    summary.elapsed.as_secs_f64()
                );
            } else if !summary.labels.is_empty() {
                label_line(origin, &summary);
            }
            summary
        }
        Err(c) => {
            json_line(settings, origin, "failed", &c.summary, Some(&*c));
            let mut text = failure_report(&c, origin, Some(location));
            text.push_str(&explain(&c));
            if !matches!(c.found, Found::Replay { .. }) {
                if let Some(path) = regressions::save(settings, origin, &c.key, &c.shown) {
                    let _ = writeln!(
                        text,
                        "  saved in {}: it runs first next time",
                        path.display()
                    );
                }
            }
            c.discard();
            panic!("{text}")
        }
    }
}

/// Labels of at most this many kinds are listed on a passing check's line;
/// more are only counted there (the verbose table lists them all).
const LABELS_ON_ONE_LINE: usize = 6;

/// One line on the test's standard error, which `cargo test` shows even
/// for a passing test (it captures only the `print!` family): the label
/// table in short, or how to see it.
fn label_line(origin: &Origin, summary: &Summary) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "{}", label_line_text(origin, summary));
}

/// The text of [`label_line`].
fn label_line_text(origin: &Origin, summary: &Summary) -> String {
    let name = origin.test.as_deref().unwrap_or("property");
    if summary.labels.len() <= LABELS_ON_ONE_LINE {
        let total = summary.labelled_runs.max(1) as f64;
        let shares: Vec<String> = summary
            .labels
            .iter()
            .map(|(label, n)| format!("{label} {:.1}%", 100.0 * *n as f64 / total))
            .collect();
        format!(
            "neatcheck: {name} passed; labels over {} runs: {}",
            summary.labelled_runs,
            shares.join(", ")
        )
    } else {
        let args = cargo_test_args(origin);
        let nocapture = if args.contains(" -- ") {
            " --nocapture"
        } else {
            " -- --nocapture"
        };
        format!(
            "neatcheck: {name} passed with {} labels; their table: NEATCHECK_VERBOSE=1 cargo \
             test{args}{nocapture}",
            summary.labels.len()
        )
    }
}

/// Appends the check's JSON line to the file `NEATCHECK_JSON` (or
/// `Config::json_lines`) names, if any: one object per check, written
/// with one `write` so that tests on several threads do not interleave.
fn json_line<T>(
    settings: &Settings,
    origin: &Origin,
    verdict: &str,
    summary: &Summary,
    failure: Option<&Counterexample<T>>,
) {
    use std::io::Write as _;
    let Some(path) = &settings.json else { return };
    let mut line = String::from("{");
    let mut field = |name: &str, value: String| {
        if line.len() > 1 {
            line.push(',');
        }
        let _ = write!(line, "{}:{value}", json_string(name));
    };
    field(
        "test",
        json_or_null(origin.test.as_deref().map(json_string)),
    );
    field("file", json_or_null(origin.file.map(json_string)));
    field("verdict", json_string(verdict));
    field("runs", summary.runs.to_string());
    field(
        "exhausted",
        json_or_null(summary.exhausted.map(|n| n.to_string())),
    );
    field("stopped", json_string(&format!("{:?}", summary.stopped)));
    field("random", summary.random.to_string());
    field("edge_cases", summary.edge_cases.to_string());
    field("discarded", summary.discarded.to_string());
    field("labelled_runs", summary.labelled_runs.to_string());
    field(
        "labels",
        json_object(
            summary
                .labels
                .iter()
                .map(|(k, v)| (k.as_str(), v.to_string())),
        ),
    );
    field(
        "coverage",
        json_object(
            summary
                .coverage
                .iter()
                .map(|(k, v)| (k.as_str(), json_number(*v))),
        ),
    );
    field(
        "problems",
        format!(
            "[{}]",
            summary
                .problems
                .iter()
                .map(|p| json_string(p))
                .collect::<Vec<_>>()
                .join(",")
        ),
    );
    field(
        "counterexample",
        match failure {
            None => "null".to_string(),
            Some(c) => json_object(
                [
                    ("value", json_string(&c.shown)),
                    ("pattern", json_string(&c.pattern)),
                    ("size", c.size.to_string()),
                    ("minimal", c.is_minimal().to_string()),
                    ("key", json_string(&c.key)),
                    ("reason", json_or_null(c.reason.as_deref().map(json_string))),
                ]
                .into_iter(),
            ),
        },
    );
    field(
        "elapsed_ms",
        json_number(summary.elapsed.as_secs_f64() * 1000.0),
    );
    line.push_str("}\n");
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(line.as_bytes()));
    if let Err(e) = written {
        // The verdict stands; the dashboard's line is lost, and says so.
        eprintln!("neatcheck: could not append to {}: {e}", path.display());
    }
}

/// A value already written as JSON, or `null`.
fn json_or_null(value: Option<String>) -> String {
    value.unwrap_or_else(|| "null".to_string())
}

/// A JSON number, or `null` for what JSON can not write (NaN, infinities).
fn json_number(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        "null".to_string()
    }
}

fn json_object<'k>(fields: impl Iterator<Item = (&'k str, String)>) -> String {
    let fields: Vec<String> = fields
        .map(|(k, v)| format!("{}:{v}", json_string(k)))
        .collect();
    format!("{{{}}}", fields.join(","))
}

/// A JSON string: quotes, backslashes and control characters escaped.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::{json_string, label_line_text, Origin};
    use crate::record::Summary;

    #[test]
    fn a_passing_checks_labels_fit_one_line_or_say_where_the_table_is() {
        let origin = Origin {
            test: Some("tests::sorted".into()),
            file: Some("tests/sorted.rs"),
        };
        let mut summary = Summary {
            labelled_runs: 8,
            ..Summary::default()
        };
        summary.labels.insert("empty".into(), 2);
        summary.labels.insert("long".into(), 6);
        assert_eq!(
            label_line_text(&origin, &summary),
            "neatcheck: tests::sorted passed; labels over 8 runs: empty 25.0%, long 75.0%"
        );
        for i in 0..10 {
            summary.labels.insert(format!("kind {i}"), 1);
        }
        assert_eq!(
            label_line_text(&origin, &summary),
            "neatcheck: tests::sorted passed with 12 labels; their table: NEATCHECK_VERBOSE=1 \
             cargo test --test sorted -- --exact tests::sorted --nocapture"
        );
    }

    #[test]
    fn json_strings_escape_what_json_requires() {
        assert_eq!(
            json_string("a\"b\\c\nd\u{1}é"),
            "\"a\\\"b\\\\c\\nd\\u0001é\""
        );
    }
}

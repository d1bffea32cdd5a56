//! Predicates written in any language: the JSON-lines protocol over a
//! child process's standard input and output, and the search that drives
//! it (`neatcheck external -- PROGRAM ARGS...`).
//!
//! The protocol (one JSON object per line; `PROTOCOL.md` of this crate
//! has it in full):
//!
//! 1. The program declares its types and its arguments' types:
//!    `{"types":[{"name":"List","ctors":[{"name":"Nil","fields":[]},
//!    {"name":"Cons","fields":["Int","List"]}]}],"args":["List"]}`
//!    (field and argument types: declared names, `Bool`, `Int`, `Nat`,
//!    `Char`, `String` or a range `lo..=hi`). With `"mode":"eager"` every run carries the
//!    whole input.
//! 2. For each run the engine sends `{"run":N}` (eager: `{"run":N,
//!    "args":[...]}`). The program then asks for positions, a path of
//!    field indices from an argument's index: `{"ask":[0,1]}` is answered
//!    `{"ctor":"Cons","arity":2}` or, for an atom, `{"value":5}`
//!    (several at once: `{"ask":[[0],[0,1]]}`, answered
//!    `{"answers":[...]}`);
//!    `{"force":[0]}` is answered `{"value":V}` with the whole value
//!    (`{"ctor":"Cons","fields":[5,{"ctor":"Nil","fields":[]}]}`). Only the
//!    positions asked for are read: the search stays lazy across the
//!    process boundary.
//! 3. The program ends the run with `{"result":true}`, `{"result":false}`,
//!    `{"result":"discard"}` (a precondition that does not hold) or
//!    `{"error":"message"}` (the predicate failed with this message).
//! 4. At the end the engine sends `{"done":true}` and closes the pipe.
//!
//! No wait for the program is unbounded (`session`): a program that hangs
//! is stopped and reported (exit 2). A search that tested nothing (0 runs,
//! or every run discarded) is an error, not a pass.

use crate::adapter::{self, Outcome, RunResult, Stopped, ARGS};
use crate::json::{quote, Json};
use crate::tip::SearchOptions;
use neatcheck::dynamic::{DataTypes, DynValue};
use neatcheck::Lazy;
use session::{NoMessage, Process, Waits};
use std::io::Write;
use std::sync::Mutex;
use std::time::{Duration, Instant};

mod session;

pub(crate) use session::DEFAULT_MESSAGE_TIMEOUT;

/// The declaration a program sends first.
#[derive(Debug)]
struct Declaration {
    /// The datatypes (ready to build).
    types: DataTypes,
    /// Whether runs carry whole inputs.
    eager: bool,
}

/// Reads the declaration message.
fn parse_declaration(msg: &Json) -> Result<Declaration, String> {
    let (mut types, args) = parse_types(msg)?;
    adapter::declare_arguments(&mut types, &args);
    types.build().map_err(|e| e.to_string())?;
    let eager = match msg.get("mode") {
        None => false,
        Some(Json::Str(m)) if m == "lazy" => false,
        Some(Json::Str(m)) if m == "eager" => true,
        Some(other) => return Err(format!("unknown mode {other} (\"lazy\" or \"eager\")")),
    };
    Ok(Declaration { types, eager })
}

/// The datatypes of a declaration (`types`, not built yet) and its
/// arguments' types (`args`), as `neatcheck generate` reads them too.
pub(crate) fn parse_types(msg: &Json) -> Result<(DataTypes, Vec<String>), String> {
    let mut types = DataTypes::new();
    let decls = msg
        .get("types")
        .and_then(Json::as_array)
        .ok_or("the declaration has no `types` array")?;
    for d in decls {
        let name = d
            .get("name")
            .and_then(Json::as_str)
            .ok_or("a type without a `name` string")?;
        if name == ARGS {
            return Err(format!("the type name `{ARGS}` is reserved"));
        }
        let ctors = d
            .get("ctors")
            .and_then(Json::as_array)
            .ok_or_else(|| format!("type `{name}` has no `ctors` array"))?;
        let mut parsed = vec![];
        for c in ctors {
            let cname = c
                .get("name")
                .and_then(Json::as_str)
                .ok_or_else(|| format!("a constructor of `{name}` without a `name` string"))?;
            let fields = match c.get("fields") {
                None => vec![],
                Some(f) => f
                    .as_array()
                    .ok_or_else(|| format!("constructor `{cname}`: `fields` is not an array"))?
                    .iter()
                    .map(|t| t.as_str().map(str::to_string))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| {
                        format!("constructor `{cname}`: a field type is not a string")
                    })?,
            };
            parsed.push((cname.to_string(), fields));
        }
        let mut b = types.data(name);
        for (c, fields) in &parsed {
            let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
            b = b.ctor(c, &fields);
        }
    }
    let args: Vec<String> = msg
        .get("args")
        .and_then(Json::as_array)
        .ok_or("the declaration has no `args` array")?
        .iter()
        .map(|t| t.as_str().map(str::to_string))
        .collect::<Option<_>>()
        .ok_or("an argument type is not a string")?;
    Ok((types, args))
}

/// A plain value as protocol JSON (iterative: values may be deep).
pub(crate) fn value_json(v: &DynValue) -> String {
    enum Task<'v> {
        Value(&'v DynValue),
        Text(&'static str),
    }
    let mut out = String::new();
    let mut tasks = vec![Task::Value(v)];
    while let Some(t) = tasks.pop() {
        match t {
            Task::Text(s) => out.push_str(s),
            Task::Value(DynValue::Bool(b)) => out.push_str(if *b { "true" } else { "false" }),
            Task::Value(DynValue::Int(i)) => out.push_str(&i.to_string()),
            Task::Value(DynValue::Nat(n)) => out.push_str(&n.to_string()),
            Task::Value(DynValue::Char(c)) => quote(c.encode_utf8(&mut [0; 4]), &mut out),
            Task::Value(DynValue::Str(s)) => quote(s, &mut out),
            Task::Value(DynValue::Data { name, fields, .. }) => {
                out.push_str("{\"ctor\":");
                quote(name, &mut out);
                out.push_str(",\"fields\":[");
                tasks.push(Task::Text("]}"));
                for (i, f) in fields.iter().enumerate().rev() {
                    tasks.push(Task::Value(f));
                    if i > 0 {
                        tasks.push(Task::Text(","));
                    }
                }
            }
        }
    }
    out
}

/// The position at a path (argument index, then field indices).
fn at_path<'a>(root: Lazy<'a, DynValue>, path: &Json) -> Result<Lazy<'a, DynValue>, String> {
    let steps = path
        .as_array()
        .ok_or("a path is an array of field indices")?;
    if steps.is_empty() {
        return Err("a path starts with an argument's index".into());
    }
    let mut at = root;
    for s in steps {
        let Json::Int(k) = s else {
            return Err(format!("a path step is an integer, not {s}"));
        };
        let name = at.type_name();
        if matches!(&*name, "Int" | "Nat" | "Char") || name.contains("..") {
            return Err(format!("the path {path} goes below an atom ({name})"));
        }
        let view = at.view();
        if *k < 0 || *k as usize >= view.arity() {
            return Err(format!(
                "the path {path} asks for field {k} of `{}`, which has {}",
                view.name,
                view.arity()
            ));
        }
        at = view.field(*k as usize);
    }
    Ok(at)
}

/// The answer to `ask`: the constructor or the atom at a position.
fn ask(at: Lazy<'_, DynValue>) -> String {
    let name = at.type_name();
    match &*name {
        "Int" => format!("{{\"value\":{}}}", at.get_int()),
        "Nat" => format!("{{\"value\":{}}}", at.get_nat()),
        "Bool" => format!("{{\"value\":{}}}", at.get_bool()),
        "Char" => {
            let mut s = String::from("{\"value\":");
            quote(at.get_char().encode_utf8(&mut [0; 4]), &mut s);
            s.push('}');
            s
        }
        n if n.contains("..") => format!("{{\"value\":{}}}", at.get_int()),
        _ => {
            let v = at.view();
            let mut s = String::from("{\"ctor\":");
            quote(v.name, &mut s);
            s.push_str(&format!(",\"arity\":{}}}", v.arity()));
            s
        }
    }
}

/// The dialogue with a running external program.
#[derive(Debug)]
struct Session {
    /// The program; `None` once it was stopped.
    process: Option<Process>,
    /// The first protocol error: the search is void once one happened.
    error: Option<String>,
    /// The run the time limit cut while the program was answering it.
    cut_run: Option<u64>,
    /// Runs sent to the program.
    sent_runs: u64,
    /// Runs the program discarded (its precondition did not hold).
    discarded_runs: u64,
}

/// How a run ended without a verdict.
#[derive(Debug)]
enum RunStop {
    /// A protocol error.
    Error(String),
    /// The time limit passed while the program was answering.
    TimeLimit,
}

impl From<String> for RunStop {
    fn from(e: String) -> RunStop {
        RunStop::Error(e)
    }
}

impl From<NoMessage> for RunStop {
    fn from(e: NoMessage) -> RunStop {
        match e {
            NoMessage::Error(e) => RunStop::Error(e),
            NoMessage::TimeLimit => RunStop::TimeLimit,
        }
    }
}

/// Receives one message.
fn receive(process: &mut Process, waiting_for: &str) -> Result<Json, NoMessage> {
    let line = process.receive_line(waiting_for)?;
    Json::parse(&line).map_err(|e| NoMessage::Error(format!("the program sent `{line}`: {e}")))
}

/// One run of the predicate on the input at `root`.
fn run_once(
    process: &mut Process,
    n: u64,
    root: Lazy<'_, DynValue>,
    eager: bool,
) -> Result<RunResult, RunStop> {
    if eager {
        let args = root.force_dyn();
        let items: Vec<String> = args.fields().iter().map(value_json).collect();
        process.send(&format!("{{\"run\":{n},\"args\":[{}]}}", items.join(",")))?;
    } else {
        process.send(&format!("{{\"run\":{n}}}"))?;
    }
    let waiting_for = format!("a message of run {n} (an `ask`, `force`, `result` or `error`)");
    loop {
        let msg = receive(process, &waiting_for)?;
        if let Some(path) = msg.get("ask") {
            let reply = match path.as_array() {
                // A batch: several paths, answered in order in one message.
                Some(paths @ [Json::Arr(_), ..]) => {
                    let mut answers = Vec::with_capacity(paths.len());
                    for p in paths {
                        answers.push(ask(at_path(root, p)?));
                    }
                    format!("{{\"answers\":[{}]}}", answers.join(","))
                }
                _ => ask(at_path(root, path)?),
            };
            process.send(&reply)?;
        } else if let Some(path) = msg.get("force") {
            let at = at_path(root, path)?;
            process.send(&format!("{{\"value\":{}}}", value_json(&at.force_dyn())))?;
        } else if let Some(r) = msg.get("result") {
            return match r {
                Json::Bool(true) => Ok(RunResult::True),
                Json::Bool(false) => Ok(RunResult::False(None)),
                Json::Str(s) if s == "discard" => Ok(RunResult::Discarded),
                other => Err(RunStop::Error(format!(
                    "a result is true, false or \"discard\", not {other}"
                ))),
            };
        } else if let Some(e) = msg.get("error") {
            let text = e.as_str().map_or_else(|| e.to_string(), str::to_string);
            return Ok(RunResult::False(Some(text)));
        } else {
            return Err(RunStop::Error(format!(
                "expected `ask`, `force`, `result` or `error`, got {msg}"
            )));
        }
    }
}

impl Session {
    /// One run, unless the search is already void or cut: then the run is
    /// not sent and counts as discarded (the driver stops right after).
    fn run(&mut self, root: Lazy<'_, DynValue>, eager: bool) -> RunResult {
        // After an error or a cut the driver's remaining runs are not
        // sent: the search is void, or its time is up.
        let Some(process) = self.process.as_mut() else {
            return RunResult::Discarded;
        };
        let n = self.sent_runs;
        self.sent_runs += 1;
        match run_once(process, n, root, eager) {
            Ok(RunResult::Discarded) => {
                self.discarded_runs += 1;
                RunResult::Discarded
            }
            Ok(r) => r,
            Err(stop) => {
                match stop {
                    RunStop::Error(e) => self.error = Some(e),
                    RunStop::TimeLimit => self.cut_run = Some(n),
                }
                // The program is in the middle of a run: stop it rather than
                // wait for it to finish.
                if let Some(p) = self.process.take() {
                    p.kill();
                }
                RunResult::Discarded
            }
        }
    }

    /// Ends the dialogue: a program still running is told so and waited for.
    fn finish(&mut self) {
        if let Some(p) = self.process.take() {
            p.finish();
        }
    }
}

/// The outcome of an external search.
#[derive(Debug, PartialEq, Eq)]
enum ExternalVerdict {
    /// No counterexample within the bound; the largest size searched.
    Passed(Option<usize>),
    /// A counterexample: the arguments as protocol JSON and in text, its
    /// size, the reason given.
    Failed {
        /// The arguments as protocol JSON.
        json: Vec<String>,
        /// The arguments printed.
        shown: Vec<String>,
        /// Total size.
        size: u64,
        /// The program's error message, if it answered with one.
        reason: Option<String>,
        /// Whether every smaller input was searched and passed.
        minimal: bool,
        /// The arguments as the predicate read them, `_` where it read
        /// nothing (`None` when it read them whole).
        read: Option<String>,
    },
}

/// What an external search found.
#[derive(Debug, PartialEq, Eq)]
struct ExternalOutcome {
    /// The verdict.
    verdict: ExternalVerdict,
    /// Runs of the predicate (each one exchange with the program).
    runs: u64,
    /// A line on the search's coverage.
    note: String,
}

/// Runs the whole protocol with a program; returns what it found, or a
/// protocol error. A wait for the program's message ends after
/// `message_timeout` (an error: the program hangs) or at the deadline of
/// `options.time` (the time limit cut the search).
fn search_external(
    program: &[String],
    options: &SearchOptions,
    message_timeout: Duration,
) -> Result<ExternalOutcome, String> {
    let waits = Waits {
        message: message_timeout,
        deadline: options.time.map(|t| Instant::now() + t),
    };
    let mut process = Process::start(program, waits)?;
    let declared = match receive(
        &mut process,
        "the declaration (the program's first message)",
    ) {
        Ok(m) => parse_declaration(&m),
        Err(NoMessage::Error(e)) => Err(e),
        Err(NoMessage::TimeLimit) => Err(format!(
            "the time limit (--time {}) ran out before the program declared its types",
            session::show_duration(options.time.unwrap_or_default())
        )),
    };
    let decl = match declared {
        Ok(d) => d,
        Err(e) => {
            process.kill();
            return Err(format!("in the declaration: {e}"));
        }
    };
    let eager = decl.eager;
    let session = Mutex::new(Session {
        process: Some(process),
        error: None,
        cut_run: None,
        sent_runs: 0,
        discarded_runs: 0,
    });
    // The driver's own clock starts after this one: the time limit of the
    // runs is never later than the driver's.
    let run_waits = Waits {
        message: message_timeout,
        deadline: options.time.map(|t| Instant::now() + t),
    };
    if let Ok(mut s) = session.lock() {
        if let Some(p) = s.process.as_mut() {
            p.set_waits(run_waits);
        }
    }
    let prop = |x: Lazy<'_, DynValue>| -> RunResult {
        match session.lock() {
            Ok(mut s) => s.run(x, eager),
            Err(_) => RunResult::Discarded,
        }
    };
    let outcome = adapter::check(decl.types, options, None, prop);
    let mut session = session
        .into_inner()
        .map_err(|_| "the session was poisoned")?;
    session.finish();
    if let Some(e) = session.error.take() {
        return Err(e);
    }
    let runs = session.sent_runs;
    match outcome {
        Outcome::Broken(e) => Err(e),
        Outcome::Passed(coverage) => {
            if runs == 0 {
                return Err(no_runs_message(options, coverage.stopped));
            }
            if session.discarded_runs == runs {
                return Err(format!(
                    "the program discarded every run ({runs} of {runs}): its precondition \
                     never held, so the property was not tested"
                ));
            }
            let mut note = format!("{runs} runs");
            if session.discarded_runs > 0 {
                note.push_str(&format!(", {} discarded", session.discarded_runs));
            }
            let mut bound = coverage.bound;
            if let Some(n) = session.cut_run {
                // The cut run has no verdict, and the runs after it were not
                // sent: no size is known to be searched completely.
                bound = None;
                note.push_str(&format!(
                    "; the time limit cut run {n} before the program answered it (the \
                     program was stopped)"
                ));
            } else {
                match coverage.stopped {
                    Stopped::TimeLimit(at) => note.push_str(&format!(
                        "; the time limit stopped the search inside size {at}"
                    )),
                    Stopped::RunBudget(at) => note.push_str(&format!(
                        "; the run budget stopped the search inside size {at}"
                    )),
                    Stopped::AllInputs => note.push_str("; every input searched"),
                    Stopped::AtSizeBound => {}
                }
            }
            Ok(ExternalOutcome {
                verdict: ExternalVerdict::Passed(bound),
                runs,
                note,
            })
        }
        Outcome::Failed(failure) => {
            let shown: Vec<String> = failure.arguments.iter().map(|v| format!("{v:?}")).collect();
            let read = arguments_pattern(&failure.pattern).filter(|p| *p != shown.join(", "));
            Ok(ExternalOutcome {
                verdict: ExternalVerdict::Failed {
                    json: failure.arguments.iter().map(value_json).collect(),
                    shown,
                    size: failure.size,
                    reason: failure.reason,
                    minimal: failure.minimal,
                    read,
                },
                runs,
                note: format!("{runs} runs"),
            })
        }
    }
}

/// The arguments of the driver's pattern of the input (`<args>(A, B)`):
/// `A, B`.
fn arguments_pattern(pattern: &str) -> Option<String> {
    let inner = pattern.strip_prefix(ARGS)?;
    if inner.is_empty() {
        return Some(String::new());
    }
    Some(inner.strip_prefix('(')?.strip_suffix(')')?.to_string())
}

/// The error of a search that ran the predicate not once.
fn no_runs_message(options: &SearchOptions, stopped: Stopped) -> String {
    match stopped {
        Stopped::TimeLimit(_) => format!(
            "the time limit (--time {}) ran out before the first run: the property was \
             not tested",
            session::show_duration(options.time.unwrap_or_default())
        ),
        Stopped::RunBudget(_) => {
            "the run budget (--runs 0) allows no run: the property was not tested".into()
        }
        Stopped::AllInputs | Stopped::AtSizeBound => format!(
            "the search made 0 runs: no input of the declared argument types has a total \
             size of at most {} (a datatype whose every constructor has a field of its own \
             type, directly or through others, has no finite value at all); the property \
             was not tested",
            options.max_size
        ),
    }
}

/// `neatcheck external -- PROGRAM ARGS...`: prints the verdict, returns
/// the exit code.
pub(crate) fn run_command(
    program: &[String],
    options: &SearchOptions,
    message_timeout: Duration,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    match search_external(program, options, message_timeout) {
        Ok(ExternalOutcome {
            verdict: ExternalVerdict::Passed(bound),
            note,
            ..
        }) => {
            match bound {
                Some(b) => {
                    let _ = writeln!(out, "no counterexample up to size {b} ({note})");
                }
                None => {
                    let _ = writeln!(
                        out,
                        "no counterexample found; no size searched completely ({note})"
                    );
                }
            }
            crate::cli::EXIT_PASSED
        }
        Ok(ExternalOutcome {
            verdict:
                ExternalVerdict::Failed {
                    json,
                    shown,
                    size,
                    reason,
                    minimal,
                    read,
                },
            note,
            ..
        }) => {
            let smallest = if minimal { "smallest, " } else { "" };
            let _ = writeln!(out, "counterexample of size {size} ({smallest}{note}):");
            for (i, s) in shown.iter().enumerate() {
                let _ = writeln!(out, "  argument {i}: {s}");
            }
            if let Some(read) = read {
                let _ = writeln!(
                    out,
                    "  as read: {read}   (`_`, `..`: not read; any value there fails)"
                );
            }
            if let Some(r) = reason {
                let _ = writeln!(out, "  error: {r}");
            }
            let _ = writeln!(out, "  json: [{}]", json.join(","));
            crate::cli::EXIT_FAILED
        }
        Err(e) => {
            let _ = writeln!(err, "neatcheck: external program: {e}");
            crate::cli::EXIT_ERROR
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;
    use std::sync::atomic::{AtomicU64, Ordering};

    fn python_present() -> bool {
        Command::new("python3")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    }

    fn example(args: &[&str]) -> Vec<String> {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/clients/python/example.py");
        let mut v = vec!["python3".to_string(), script.to_string()];
        v.extend(args.iter().map(|s| s.to_string()));
        v
    }

    /// A search with the default message timeout.
    fn search_with_defaults(
        program: &[String],
        options: &SearchOptions,
    ) -> Result<ExternalOutcome, String> {
        search_external(program, options, DEFAULT_MESSAGE_TIMEOUT)
    }

    fn options(max_size: usize) -> SearchOptions {
        SearchOptions {
            max_size,
            ..SearchOptions::default()
        }
    }

    /// The same search in process, with a Rust predicate: the arguments of
    /// its counterexample, if any, and its runs.
    fn in_process(
        max_size: usize,
        decl: &str,
        prop: impl Fn(Lazy<'_, DynValue>) -> bool + Sync,
    ) -> (Result<(), Vec<DynValue>>, u64) {
        let d = parse_declaration(&Json::parse(decl).unwrap()).unwrap();
        let runs = AtomicU64::new(0);
        let outcome = adapter::check(d.types, &options(max_size), None, |x| {
            runs.fetch_add(1, Ordering::Relaxed);
            if prop(x) {
                RunResult::True
            } else {
                RunResult::False(None)
            }
        });
        let found = match outcome {
            Outcome::Passed(_) => Ok(()),
            Outcome::Failed(failure) => Err(failure.arguments),
            Outcome::Broken(e) => panic!("{e}"),
        };
        (found, runs.into_inner())
    }

    const LIST: &str = r#"{"types":[{"name":"List","ctors":[{"name":"Nil","fields":[]},
        {"name":"Cons","fields":["Int","List"]}]}],"args":["List"]}"#;

    #[test]
    fn python_client_round_trip() {
        if !python_present() {
            eprintln!(
                "SKIPPED python_client_round_trip: `python3` is not installed, so the \
                 JSON-lines round trip with the Python client is not tested"
            );
            return;
        }
        // Lazy: the Python predicate reads the head only; the search makes
        // exactly the runs of the same lazy predicate in Rust and finds the
        // same smallest counterexample.
        let lazy = search_with_defaults(&example(&["head-nonneg"]), &options(6)).unwrap();
        let (reference, reference_runs) = in_process(6, LIST, |x| {
            let xs = x.view().field(0).view();
            xs.name == "Nil" || xs.field(0).get_int() >= 0
        });
        let want = reference.unwrap_err();
        let ExternalVerdict::Failed {
            json,
            size,
            minimal,
            read,
            ..
        } = &lazy.verdict
        else {
            panic!("{lazy:?}")
        };
        assert_eq!(json, &[value_json(&want[0])]);
        assert_eq!(
            json,
            &[r#"{"ctor":"Cons","fields":[-1,{"ctor":"Nil","fields":[]}]}"#]
        );
        assert_eq!(*size, 3);
        assert!(minimal);
        // The tail was not read.
        assert_eq!(read.as_deref(), Some("Cons(-1, _)"));
        assert_eq!(lazy.runs, reference_runs);
        // Eager: the same counterexample, read whole.
        let eager =
            search_with_defaults(&example(&["head-nonneg", "--eager"]), &options(6)).unwrap();
        let ExternalVerdict::Failed {
            json: eager_json,
            read,
            ..
        } = &eager.verdict
        else {
            panic!("{eager:?}")
        };
        assert_eq!(eager_json, json);
        assert_eq!(read, &None);

        // A property that reads everything: same as forcing in Rust.
        let rev = search_with_defaults(&example(&["reverse"]), &options(6)).unwrap();
        let (reference, _) = in_process(6, LIST, |x| {
            let mut xs = vec![];
            let mut at = x.view().field(0);
            while at.view().name == "Cons" {
                xs.push(at.view().field(0).get_int());
                at = at.view().field(1);
            }
            xs.iter().rev().eq(xs.iter())
        });
        let ExternalVerdict::Failed { json, .. } = &rev.verdict else {
            panic!("{rev:?}")
        };
        assert_eq!(json, &[value_json(&reference.unwrap_err()[0])]);

        // A true property with a precondition: laziness crosses the process
        // boundary (fewer runs than with whole values).
        let lazy = search_with_defaults(&example(&["sorted-insert"]), &options(6)).unwrap();
        let eager =
            search_with_defaults(&example(&["sorted-insert", "--eager"]), &options(6)).unwrap();
        assert_eq!(lazy.verdict, ExternalVerdict::Passed(Some(6)));
        assert_eq!(eager.verdict, ExternalVerdict::Passed(Some(6)));
        assert!(lazy.runs < eager.runs, "{} vs {}", lazy.runs, eager.runs);

        // An exception in the predicate is the run's failure, with its text.
        let div = search_with_defaults(&example(&["div"]), &options(6)).unwrap();
        let ExternalVerdict::Failed { json, reason, .. } = &div.verdict else {
            panic!("{div:?}")
        };
        assert_eq!(json, &["3".to_string()]);
        assert!(
            reason
                .as_deref()
                .unwrap_or("")
                .contains("ZeroDivisionError"),
            "{reason:?}"
        );
    }

    #[test]
    fn characters_and_strings_cross_the_protocol() {
        if !python_present() {
            eprintln!("SKIPPED characters_and_strings_cross_the_protocol: no `python3`");
            return;
        }
        // The smallest string with a 'b' is "b" ('b' is 98: 7 bits, the
        // string 1 + 7 + 1); read cell by cell, with the runs of the same
        // predicate in process.
        let lazy = search_with_defaults(&example(&["no-b"]), &options(10)).unwrap();
        let (reference, reference_runs) =
            in_process(10, r#"{"types":[],"args":["String"]}"#, |x| {
                let mut cell = x.view().field(0);
                while cell.view().name == "Cons" {
                    if cell.view().field(0).get_char() == 'b' {
                        return false;
                    }
                    cell = cell.view().field(1);
                }
                true
            });
        assert_eq!(reference.unwrap_err(), [DynValue::Str("b".into())]);
        assert_eq!(lazy.runs, reference_runs);
        let ExternalVerdict::Failed {
            json,
            shown,
            size,
            minimal,
            read,
            ..
        } = &lazy.verdict
        else {
            panic!("{lazy:?}")
        };
        assert_eq!(json, &[r#""b""#]);
        assert_eq!(shown, &[r#""b""#]);
        assert_eq!((*size, *minimal), (9, true));
        assert_eq!(read.as_deref(), Some("['b', ..]"));
        let eager = search_with_defaults(&example(&["no-b", "--eager"]), &options(10)).unwrap();
        assert!(matches!(&eager.verdict, ExternalVerdict::Failed { json: j, .. } if j == json));
        // The first upper-case letter by bit length: size 7 holds the
        // codes 64..=127 in order, '@' then 'A'.
        for args in [&["not-upper"][..], &["not-upper", "--eager"]] {
            let found = search_with_defaults(&example(args), &options(10)).unwrap();
            let ExternalVerdict::Failed { json, size, .. } = &found.verdict else {
                panic!("{found:?}")
            };
            assert_eq!((json.as_slice(), *size), (&[r#""A""#.to_string()][..], 7));
        }
    }

    #[test]
    fn a_batch_of_asks_is_answered_in_one_message() {
        if !python_present() {
            eprintln!("SKIPPED a_batch_of_asks_is_answered_in_one_message: no `python3`");
            return;
        }
        // A client that asks two positions at once and fails with the
        // answer as its message.
        let echo = "import json, sys\n\
                    print(json.dumps({'types': [], 'args': ['Int', 'Bool']}), flush=True)\n\
                    for line in sys.stdin:\n\
                    \x20   if 'done' in line: break\n\
                    \x20   print(json.dumps({'ask': [[0], [1]]}), flush=True)\n\
                    \x20   print(json.dumps({'error': sys.stdin.readline().strip()}), flush=True)";
        let found =
            search_with_defaults(&["python3".into(), "-c".into(), echo.into()], &options(4))
                .unwrap();
        let ExternalVerdict::Failed { json, reason, .. } = &found.verdict else {
            panic!("{found:?}")
        };
        assert_eq!(
            reason.as_deref(),
            Some(r#"{"answers":[{"value":0},{"value":false}]}"#)
        );
        assert_eq!(json, &["0", "false"]);
        // The client's `values` asks both in one message: the same runs as
        // one at a time and as in process, where both are read.
        let batched = search_with_defaults(&example(&["max"]), &options(8)).unwrap();
        let one_by_one =
            search_with_defaults(&example(&["max", "--one-by-one"]), &options(8)).unwrap();
        let (reference, reference_runs) =
            in_process(8, r#"{"types":[],"args":["Int","Int"]}"#, |x| {
                let args = x.view();
                let (a, b) = (args.field(0).get_int(), args.field(1).get_int());
                a.max(b) >= a && a.max(b) >= b
            });
        assert_eq!(reference, Ok(()));
        assert_eq!(batched.verdict, ExternalVerdict::Passed(Some(8)));
        assert_eq!(batched, one_by_one);
        assert_eq!(batched.runs, reference_runs);
    }

    #[test]
    fn protocol_errors_are_reported() {
        let missing = search_with_defaults(&["/no/such/program".into()], &options(3)).unwrap_err();
        assert!(missing.contains("can not run"), "{missing}");
        if !python_present() {
            eprintln!("SKIPPED part of protocol_errors_are_reported: no `python3`");
            return;
        }
        let script = |body: &str| vec!["python3".to_string(), "-c".to_string(), body.to_string()];
        for (body, want) in [
            ("print('not json')", "in the declaration"),
            ("print('{\"types\": []}')", "no `args` array"),
            (
                "print('{\"types\":[],\"args\":[\"Lst\"]}')",
                "unknown type `Lst`",
            ),
            (
                "import sys\nprint('{\"types\":[],\"args\":[\"Int\"]}', flush=True)\n\
                 sys.stdin.readline()\nprint('{\"ask\":[0,1]}', flush=True)\nsys.stdin.readline()",
                "goes below an atom",
            ),
            (
                "import sys\nprint('{\"types\":[],\"args\":[\"Int\"]}', flush=True)\n\
                 sys.stdin.readline()",
                "ended its output",
            ),
            (
                "import sys\nprint('{\"types\":[],\"args\":[\"Int\"]}', flush=True)\n\
                 sys.stdin.readline()\nprint('{\"result\": 3}', flush=True)\nsys.stdin.readline()",
                "a result is true, false",
            ),
        ] {
            let e = search_with_defaults(&script(body), &options(3)).unwrap_err();
            assert!(e.contains(want), "{body}: {e}");
        }
    }

    /// A client written in `sh`: it declares `decl`, then runs `each_run`
    /// (shell code) for every message until `done`; `$n` counts the runs.
    fn sh_client(decl: &str, each_run: &str) -> Vec<String> {
        let body = format!(
            "printf '%s\\n' '{decl}'\nn=0\nwhile read line; do\n  case \"$line\" in \
             *done*) exit 0;; esac\n  {each_run}\n  n=$((n+1))\ndone"
        );
        vec!["sh".into(), "-c".into(), body]
    }

    const ONE_INT: &str = r#"{"types":[],"args":["Int"]}"#;

    #[test]
    fn a_silent_program_is_stopped_and_reported() {
        let quick = Duration::from_millis(200);
        let start = Instant::now();
        // Silent before declaring.
        let e = search_external(
            &["sh".into(), "-c".into(), "exec sleep 30".into()],
            &options(3),
            quick,
        )
        .unwrap_err();
        assert!(e.contains("sent nothing for 200ms"), "{e}");
        assert!(e.contains("waited for the declaration"), "{e}");
        // Silent in the middle of run 2 (after two answered runs).
        let hangs = sh_client(
            ONE_INT,
            "if [ $n = 2 ]; then exec sleep 30; fi; echo '{\"ask\":[0]}'; read a; \
             echo '{\"result\":true}'",
        );
        let e = search_external(&hangs, &options(3), quick).unwrap_err();
        assert!(e.contains("sent nothing for 200ms"), "{e}");
        assert!(e.contains("waited for a message of run 2"), "{e}");
        // The same program through the command: exit 2, the message on
        // standard error.
        let mut args: Vec<String> = [
            "external",
            "--message-timeout",
            "200ms",
            "--size",
            "3",
            "--",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        args.extend(hangs);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(
            crate::cli::run(&args, &mut out, &mut err),
            crate::cli::EXIT_ERROR
        );
        let err = String::from_utf8(err).unwrap();
        assert!(err.contains("waited for a message of run 2"), "{err}");
        // Three waits of 200ms, and no wait for the killed programs.
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{:?}",
            start.elapsed()
        );
    }

    /// A program that answers without reading its input fills the pipe
    /// to it: the write that no longer fits is stopped by the message
    /// timeout, and so is a message larger than the pipe, whatever the
    /// program does.
    #[test]
    fn a_program_that_stops_reading_is_stopped_and_reported() {
        let quick = Duration::from_millis(200);
        let start = Instant::now();
        let deaf = |decl: &str| {
            let body =
                format!("printf '%s\\n' '{decl}'\nwhile :; do echo '{{\"result\":true}}'; done");
            vec!["sh".to_string(), "-c".to_string(), body]
        };
        let many = SearchOptions {
            runs: u64::MAX,
            ..options(40)
        };
        // Eager: every run carries its arguments (and reads them all).
        let three = r#"{"types":[],"args":["Int","Int","Int"],"mode":"eager"}"#;
        let e = search_external(&deaf(three), &many, quick).unwrap_err();
        assert!(e.contains("did not take a message within 200ms"), "{e}");
        // With a time limit shorter than the message timeout, the limit
        // cuts the write: the search reports the sizes it finished.
        let limited = SearchOptions {
            time: Some(Duration::from_millis(300)),
            ..many
        };
        let outcome = search_external(&deaf(three), &limited, Duration::from_secs(60));
        assert!(outcome.is_ok(), "{outcome:?}");
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn the_time_limit_bounds_every_wait() {
        let patient = Duration::from_secs(60);
        let limited = SearchOptions {
            time: Some(Duration::from_millis(300)),
            ..options(10)
        };
        let start = Instant::now();
        // Before the declaration: no search, an error.
        let e = search_external(
            &["sh".into(), "-c".into(), "exec sleep 30".into()],
            &limited,
            patient,
        )
        .unwrap_err();
        assert!(e.contains("ran out before the program declared"), "{e}");
        // In the middle of run 3: the time limit cut the search, which is
        // no error, but no size is claimed as searched.
        let hangs = sh_client(
            ONE_INT,
            "if [ $n = 3 ]; then exec sleep 30; fi; echo '{\"ask\":[0]}'; read a; \
             echo '{\"result\":true}'",
        );
        let cut = search_external(&hangs, &limited, patient).unwrap();
        assert_eq!(cut.verdict, ExternalVerdict::Passed(None));
        assert_eq!(cut.runs, 4);
        assert!(
            cut.note.contains("the time limit cut run 3"),
            "{}",
            cut.note
        );
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn no_run_and_every_run_discarded_are_errors() {
        let answers_true = "echo '{\"result\":true}'";
        // A type without a finite value: nothing to run.
        let endless =
            r#"{"types":[{"name":"T","ctors":[{"name":"C","fields":["T"]}]}],"args":["T"]}"#;
        let e = search_with_defaults(&sh_client(endless, answers_true), &options(5)).unwrap_err();
        assert!(e.contains("made 0 runs"), "{e}");
        assert!(e.contains("at most 5"), "{e}");
        // A bound below the smallest input (the empty list has size 1).
        let one_line_list = LIST.replace('\n', "");
        let e = search_with_defaults(&sh_client(&one_line_list, answers_true), &options(0))
            .unwrap_err();
        assert!(e.contains("made 0 runs"), "{e}");
        // A precondition that never holds.
        let discards = sh_client(
            ONE_INT,
            "echo '{\"ask\":[0]}'; read a; echo '{\"result\":\"discard\"}'",
        );
        let e = search_with_defaults(&discards, &options(3)).unwrap_err();
        // Int by bit length: 1 + 2 + 4 + 8 values up to size 3.
        assert!(e.contains("discarded every run (15 of 15)"), "{e}");
        // Through the command: exit 2.
        let mut args: Vec<String> = ["external", "--size", "3", "--"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        args.extend(discards);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(
            crate::cli::run(&args, &mut out, &mut err),
            crate::cli::EXIT_ERROR
        );
        // Some discarded runs are fine: reported, not an error.
        let some = sh_client(
            ONE_INT,
            "echo '{\"ask\":[0]}'; read a; case \"$a\" in *-*) echo '{\"result\":\"discard\"}';; \
             *) echo '{\"result\":true}';; esac",
        );
        let passed = search_with_defaults(&some, &options(3)).unwrap();
        assert_eq!(passed.verdict, ExternalVerdict::Passed(Some(3)));
        assert_eq!(passed.runs, 15);
        // The negatives: one of size 1, two of size 2, four of size 3.
        assert!(
            passed.note.contains("15 runs, 7 discarded"),
            "{}",
            passed.note
        );
    }
}

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
//!    (field and argument types: declared names, `Bool`, `Int`, `Nat` or
//!    a range `lo..=hi`). With `"mode":"eager"` every run carries the
//!    whole input.
//! 2. For each run the engine sends `{"run":N}` (eager: `{"run":N,
//!    "args":[...]}`). The program then asks for positions, a path of
//!    field indices from an argument's index: `{"ask":[0,1]}` is answered
//!    `{"ctor":"Cons","arity":2}` or, for an atom, `{"value":5}`;
//!    `{"force":[0]}` is answered `{"value":V}` with the whole value
//!    (`{"ctor":"Cons","fields":[5,{"ctor":"Nil","fields":[]}]}`). Only the
//!    positions asked for are read: the search stays lazy across the
//!    process boundary.
//! 3. The program ends the run with `{"result":true}`, `{"result":false}`,
//!    `{"result":"discard"}` (a precondition that does not hold) or
//!    `{"error":"message"}` (the predicate failed with this message).
//! 4. At the end the engine sends `{"done":true}` and closes the pipe.

use crate::adapter::{self, Outcome, RunResult, Stopped, ARGS};
use crate::json::{quote, Json};
use crate::tip::SearchOptions;
use neatcheck::dynamic::{DataTypes, DynValue};
use neatcheck::Lazy;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;

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

/// A plain value as protocol JSON (iterative: values may be deep).
fn value_json(v: &DynValue) -> String {
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
        if matches!(&*name, "Int" | "Nat") || name.contains("..") {
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

/// A running external program.
#[derive(Debug)]
struct Session {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    /// The first protocol error: the search is void once one happened.
    error: Option<String>,
}

impl Session {
    /// Starts the program.
    fn start(program: &[String]) -> Result<Session, String> {
        let (cmd, args) = program.split_first().ok_or("no program to run")?;
        let mut child = Command::new(cmd)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("can not run `{cmd}`: {e}"))?;
        let input = child.stdin.take().ok_or("no pipe to the program")?;
        let output = BufReader::new(child.stdout.take().ok_or("no pipe from the program")?);
        Ok(Session {
            child,
            input,
            output,
            error: None,
        })
    }

    /// Sends one line.
    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|_| self.input.flush())
            .map_err(|e| format!("the program stopped reading its input: {e}"))
    }

    /// Receives one message.
    fn receive(&mut self) -> Result<Json, String> {
        let mut line = String::new();
        loop {
            line.clear();
            let n = self
                .output
                .read_line(&mut line)
                .map_err(|e| format!("can not read the program's output: {e}"))?;
            if n == 0 {
                return Err(
                    "the program ended its output (exited?) in the middle of the \
                            protocol"
                        .into(),
                );
            }
            if !line.trim().is_empty() {
                break;
            }
        }
        Json::parse(line.trim()).map_err(|e| format!("the program sent `{}`: {e}", line.trim()))
    }

    /// One run of the predicate on the input at `root`.
    fn run(&mut self, n: u64, root: Lazy<'_, DynValue>, eager: bool) -> Result<RunResult, String> {
        if eager {
            let args = root.force_dyn();
            let items: Vec<String> = args.fields().iter().map(value_json).collect();
            self.send(&format!("{{\"run\":{n},\"args\":[{}]}}", items.join(",")))?;
        } else {
            self.send(&format!("{{\"run\":{n}}}"))?;
        }
        loop {
            let msg = self.receive()?;
            if let Some(path) = msg.get("ask") {
                let at = at_path(root, path)?;
                self.send(&ask(at))?;
            } else if let Some(path) = msg.get("force") {
                let at = at_path(root, path)?;
                self.send(&format!("{{\"value\":{}}}", value_json(&at.force_dyn())))?;
            } else if let Some(r) = msg.get("result") {
                return match r {
                    Json::Bool(true) => Ok(RunResult::True),
                    Json::Bool(false) => Ok(RunResult::False(None)),
                    Json::Str(s) if s == "discard" => Ok(RunResult::Discarded),
                    other => Err(format!(
                        "a result is true, false or \"discard\", not {other}"
                    )),
                };
            } else if let Some(e) = msg.get("error") {
                let text = e.as_str().map_or_else(|| e.to_string(), str::to_string);
                return Ok(RunResult::False(Some(text)));
            } else {
                return Err(format!(
                    "expected `ask`, `force`, `result` or `error`, got {msg}"
                ));
            }
        }
    }

    /// Says goodbye and waits for the program.
    fn finish(mut self) {
        let _ = self.send("{\"done\":true}");
        drop(self.input);
        let _ = self.child.wait();
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
/// protocol error.
fn search_external(program: &[String], options: &SearchOptions) -> Result<ExternalOutcome, String> {
    let mut session = Session::start(program)?;
    let decl = match session.receive().and_then(|m| parse_declaration(&m)) {
        Ok(d) => d,
        Err(e) => {
            session.finish();
            return Err(format!("in the declaration: {e}"));
        }
    };
    let eager = decl.eager;
    let session = Mutex::new(session);
    let counter = std::sync::atomic::AtomicU64::new(0);
    let prop = |x: Lazy<'_, DynValue>| -> RunResult {
        let Ok(mut s) = session.lock() else {
            return RunResult::Discarded;
        };
        if s.error.is_some() {
            return RunResult::Discarded;
        }
        let n = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        match s.run(n, x, eager) {
            Ok(r) => r,
            Err(e) => {
                s.error = Some(e);
                RunResult::Discarded
            }
        }
    };
    let outcome = adapter::check(decl.types, options, None, prop);
    let runs = counter.load(std::sync::atomic::Ordering::Relaxed);
    let session = session
        .into_inner()
        .map_err(|_| "the session was poisoned")?;
    if let Some(e) = session.error.clone() {
        session.finish();
        return Err(e);
    }
    session.finish();
    match outcome {
        Outcome::Broken(e) => Err(e),
        Outcome::Passed(coverage) => {
            let mut note = format!("{} runs", coverage.runs);
            if coverage.discarded > 0 {
                note.push_str(&format!(", {} discarded", coverage.discarded));
            }
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
            Ok(ExternalOutcome {
                verdict: ExternalVerdict::Passed(coverage.bound),
                runs,
                note,
            })
        }
        Outcome::Failed(failure) => Ok(ExternalOutcome {
            verdict: ExternalVerdict::Failed {
                json: failure.arguments.iter().map(value_json).collect(),
                shown: failure.arguments.iter().map(|v| format!("{v:?}")).collect(),
                size: failure.size,
                reason: failure.reason,
            },
            runs,
            note: format!("{runs} runs"),
        }),
    }
}

/// `neatcheck external -- PROGRAM ARGS...`: prints the verdict, returns
/// the exit code.
pub(crate) fn run_command(
    program: &[String],
    options: &SearchOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    match search_external(program, options) {
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
                },
            note,
            ..
        }) => {
            let _ = writeln!(out, "counterexample of size {size} ({note}):");
            for (i, s) in shown.iter().enumerate() {
                let _ = writeln!(out, "  argument {i}: {s}");
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
        let lazy = search_external(&example(&["head-nonneg"]), &options(6)).unwrap();
        let (reference, reference_runs) = in_process(6, LIST, |x| {
            let xs = x.view().field(0).view();
            xs.name == "Nil" || xs.field(0).get_int() >= 0
        });
        let want = reference.unwrap_err();
        let ExternalVerdict::Failed { json, size, .. } = &lazy.verdict else {
            panic!("{lazy:?}")
        };
        assert_eq!(json, &[value_json(&want[0])]);
        assert_eq!(*size, 3);
        assert_eq!(lazy.runs, reference_runs);
        // Eager: the same counterexample.
        let eager = search_external(&example(&["head-nonneg", "--eager"]), &options(6)).unwrap();
        assert_eq!(eager.verdict, lazy.verdict);

        // A property that reads everything: same as forcing in Rust.
        let rev = search_external(&example(&["reverse"]), &options(6)).unwrap();
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
        let lazy = search_external(&example(&["sorted-insert"]), &options(6)).unwrap();
        let eager = search_external(&example(&["sorted-insert", "--eager"]), &options(6)).unwrap();
        assert_eq!(lazy.verdict, ExternalVerdict::Passed(Some(6)));
        assert_eq!(eager.verdict, ExternalVerdict::Passed(Some(6)));
        assert!(lazy.runs < eager.runs, "{} vs {}", lazy.runs, eager.runs);

        // An exception in the predicate is the run's failure, with its text.
        let div = search_external(&example(&["div"]), &options(6)).unwrap();
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
    fn protocol_errors_are_reported() {
        let missing = search_external(&["/no/such/program".into()], &options(3)).unwrap_err();
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
            let e = search_external(&script(body), &options(3)).unwrap_err();
            assert!(e.contains(want), "{body}: {e}");
        }
    }
}

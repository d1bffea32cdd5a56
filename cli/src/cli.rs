//! The command line of `neatcheck`: argument parsing, the `tip` command
//! (one file, or a table over many files and directories), the
//! `external` command and the dispatch to `generate`, with their exit
//! codes.

use crate::adapter::Stopped;
use crate::external;
use crate::tip::{parse_program, search_goal, SearchOptions, Verdict};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Exit code: no counterexample within the bound.
pub(crate) const EXIT_PASSED: i32 = 0;
/// Exit code: a counterexample was found.
pub(crate) const EXIT_FAILED: i32 = 1;
/// Exit code: an input or usage error (parse or type error, unreadable
/// file, bad option, a protocol error of an external program).
pub(crate) const EXIT_ERROR: i32 = 2;

/// The usage text.
const USAGE: &str = "\
usage:
  neatcheck tip [OPTIONS] FILE.smt2          search a TIP problem's conjectures
  neatcheck tip [OPTIONS] FILE|DIR...        a table over many problems
  neatcheck external [OPTIONS] -- PROGRAM ARGS...
                                             search a predicate written in any
                                             language (JSON lines on stdin/stdout)
  neatcheck generate [OPTIONS] [DECL.json]   write test cases as JSON lines
                                             (`neatcheck generate --help`)
options:
  --size N     largest total size of a conjecture's variables (default 10;
               with --time, none: the time limit drives the search)
  --time T     wall-clock limit per conjecture (`500ms`, `2s`); the report
               says when it cut the search
  --runs N     budget of runs per conjecture (default 1000000; with --time,
               none)
  --fuel N     evaluation steps per run of a TIP conjecture (default: adapts,
               100 times the most steps a run before took, 10000 to 1000000)
  --random N   N random inputs before the size-ordered search (default 0);
               a counterexample found there is reported smallest once the
               sizes below it are searched
  --random-size M   largest size of a random input (default 40)
  --seed S     seed of the random inputs (default 0)
  --symbolic   tip: search by SAT over the positions the conjecture demands
               instead of by enumeration (datatypes, booleans, integers; no
               function-typed variables); sizes and reports as without it;
               --fuel bounds each formula's evaluation, --runs and --random
               do not apply
  --message-timeout T
               external: the longest wait for one message of the program,
               or for it to take one (default 10s); a program silent or deaf
               that long is stopped (exit 2)
exit codes: 0 no counterexample within the bound, 1 counterexample found,
            2 parse, type, usage or protocol error";

/// Runs `f` on a thread with a large stack: the interpreter recurses over
/// the calls of the program it runs (bounded by its depth limit), and the
/// large stack keeps that bound well below an overflow. `None` if the
/// thread could not start or `f` panicked.
pub fn with_large_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> Option<R> {
    const STACK: usize = 1 << 30;
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(f)
        .ok()?
        .join()
        .ok()
}

/// Runs the command on its arguments (without the program name), writing
/// to `out` and `err`; returns the exit code.
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let Some(cmd) = args.first() else {
        let _ = writeln!(err, "{USAGE}");
        return EXIT_ERROR;
    };
    if cmd == "generate" {
        // Options of its own (`--seed`, the modes): parsed there.
        return crate::generate::run_command(&args[1..], out, err);
    }
    let mut options = SearchOptions::default();
    let mut message_timeout = external::DEFAULT_MESSAGE_TIMEOUT;
    let mut rest = vec![];
    let (mut size_given, mut runs_given) = (false, false);
    let mut i = 1;
    while i < args.len() {
        let a = &args[i];
        if a == "--" {
            rest.extend(args[i..].iter().cloned());
            break;
        }
        let value = |i: usize| args.get(i + 1).cloned();
        let parsed: Result<(), String> = match a.as_str() {
            "--size" | "--runs" | "--fuel" | "--random" | "--random-size" | "--seed" => {
                match value(i).map(|v| v.parse::<u64>()) {
                    Some(Ok(n)) => {
                        match a.as_str() {
                            "--size" => {
                                options.max_size = usize::try_from(n).unwrap_or(usize::MAX);
                                size_given = true;
                            }
                            "--runs" => {
                                options.runs = n;
                                runs_given = true;
                            }
                            "--fuel" => {
                                options.limits.fuel = n;
                                options.adaptive_fuel = false;
                            }
                            "--random" => options.random.cases = n,
                            "--random-size" => {
                                options.random.max_size = usize::try_from(n).unwrap_or(usize::MAX)
                            }
                            _ => options.random.seed = n,
                        }
                        i += 1;
                        Ok(())
                    }
                    _ => Err(format!("{a} takes a number")),
                }
            }
            "--symbolic" => {
                options.symbolic = true;
                Ok(())
            }
            "--time" => match value(i).map(|v| parse_duration(&v)) {
                Some(Ok(t)) => {
                    options.time = Some(t);
                    i += 1;
                    Ok(())
                }
                Some(Err(e)) => Err(format!("--time: {e}")),
                None => Err("--time takes a duration".into()),
            },
            "--message-timeout" => match value(i).map(|v| parse_duration(&v)) {
                Some(Ok(t)) => {
                    message_timeout = t;
                    i += 1;
                    Ok(())
                }
                Some(Err(e)) => Err(format!("--message-timeout: {e}")),
                None => Err("--message-timeout takes a duration".into()),
            },
            "-h" | "--help" => {
                let _ = writeln!(out, "{USAGE}");
                return EXIT_PASSED;
            }
            s if s.starts_with("--") => Err(format!("unknown option {s}")),
            _ => {
                rest.push(a.clone());
                Ok(())
            }
        };
        if let Err(e) = parsed {
            let _ = writeln!(err, "neatcheck: {e}\n{USAGE}");
            return EXIT_ERROR;
        }
        i += 1;
    }
    // A time limit drives the search: no size bound or run budget beside
    // it unless one is given.
    if options.time.is_some() {
        if !size_given {
            options.max_size = usize::MAX;
        }
        if !runs_given {
            options.runs = u64::MAX;
        }
    }
    match cmd.as_str() {
        "tip" => tip(&rest, &options, out, err),
        "external" => {
            let program: Vec<String> = match rest.first().map(String::as_str) {
                Some("--") => rest[1..].to_vec(),
                _ => rest,
            };
            if program.is_empty() {
                let _ = writeln!(err, "neatcheck: external needs `-- PROGRAM ARGS...`");
                return EXIT_ERROR;
            }
            external::run_command(&program, &options, message_timeout, out, err)
        }
        "-h" | "--help" | "help" => {
            let _ = writeln!(out, "{USAGE}");
            EXIT_PASSED
        }
        other => {
            let _ = writeln!(err, "neatcheck: unknown command `{other}`\n{USAGE}");
            EXIT_ERROR
        }
    }
}

fn collect_files(path: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for e in entries {
            if e.is_dir() || e.extension().is_some_and(|x| x == "smt2") {
                collect_files(&e, files)?;
            }
        }
    } else {
        files.push(path.to_path_buf());
    }
    Ok(())
}

/// The outcome of one file.
struct FileResult {
    code: i32,
    summary: String,
    bound: Option<usize>,
    runs: u64,
    aborted: u64,
    /// Conjectures the symbolic search proved for inputs of every size.
    proved: u64,
}

fn tip_file(path: &Path, options: &SearchOptions, out: &mut dyn Write) -> FileResult {
    let shown = path.display();
    let src = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(out, "{shown}: error: {e}");
            return FileResult {
                code: EXIT_ERROR,
                summary: format!("unreadable: {e}"),
                bound: None,
                runs: 0,
                aborted: 0,
                proved: 0,
            };
        }
    };
    let prog = match parse_program(&src) {
        Ok(p) => p,
        Err(e) => {
            let _ = writeln!(out, "{shown}:{e}");
            return FileResult {
                code: EXIT_ERROR,
                summary: format!("error at {e}"),
                bound: None,
                runs: 0,
                aborted: 0,
                proved: 0,
            };
        }
    };
    let mut result = FileResult {
        code: EXIT_PASSED,
        summary: String::new(),
        bound: None,
        runs: 0,
        aborted: 0,
        proved: 0,
    };
    for (k, goal) in prog.goals.iter().enumerate() {
        let (verdict, effort) = if options.symbolic {
            let (v, e) = crate::tip::symbolic::search_goal(
                &prog,
                goal,
                options.max_size,
                options.limits,
                options.time,
            );
            (v, Some(e))
        } else {
            (search_goal(&prog, goal, options), None)
        };
        let mut text = crate::tip::search::report(&prog, goal, options, &verdict);
        if let (Some(effort), false) = (&effort, matches!(verdict, Verdict::Error(_))) {
            result.proved += u64::from(effort.proved);
            text.push_str(&format!("  {}\n", effort.line()));
        }
        let _ = write!(out, "{shown}:{}: {text}", goal.pos);
        if let Verdict::Passed {
            coverage, aborted, ..
        } = &verdict
        {
            result.runs += coverage.runs;
            result.aborted += aborted.iter().map(|(_, n)| n).sum::<u64>();
        }
        let (code, summary, bound) = match &verdict {
            Verdict::Passed {
                coverage, aborted, ..
            } => (
                EXIT_PASSED,
                format!(
                    "passed{}",
                    match coverage.stopped {
                        Stopped::TimeLimit(_) => " (time limit)",
                        Stopped::RunBudget(_) => " (run budget)",
                        // Runs the limit cut have no verdict: the bound is
                        // not complete either.
                        _ if aborted.iter().any(|(n, _)| n.contains("time limit")) => {
                            " (time limit)"
                        }
                        _ => "",
                    }
                ),
                coverage.bound,
            ),
            Verdict::Failed { size, .. } => {
                (EXIT_FAILED, format!("COUNTEREXAMPLE (size {size})"), None)
            }
            Verdict::Error(e) => (EXIT_ERROR, format!("error: {e}"), None),
        };
        result.code = result.code.max(code);
        if k == 0 || code != EXIT_PASSED {
            result.summary = summary;
            result.bound = bound;
        } else {
            result.bound = result.bound.min(bound);
        }
    }
    result
}

fn tip(paths: &[String], options: &SearchOptions, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    if paths.is_empty() {
        let _ = writeln!(err, "neatcheck: tip needs a file\n{USAGE}");
        return EXIT_ERROR;
    }
    let mut files = vec![];
    for p in paths {
        if let Err(e) = collect_files(Path::new(p), &mut files) {
            let _ = writeln!(err, "neatcheck: {p}: {e}");
            return EXIT_ERROR;
        }
    }
    if files.len() == 1 && !Path::new(&paths[0]).is_dir() {
        return tip_file(&files[0], options, out).code;
    }
    // A table: one row per file.
    let mut code = EXIT_PASSED;
    let mut rows = vec![];
    let mut sink = Vec::new();
    let total = Instant::now();
    for f in &files {
        let start = Instant::now();
        sink.clear();
        let r = tip_file(f, options, &mut sink);
        if r.code != EXIT_PASSED {
            let _ = out.write_all(&sink);
        }
        code = code.max(r.code);
        rows.push((f.display().to_string(), r, start.elapsed()));
    }
    let _ = writeln!(
        out,
        "| file | result | size bound reached | runs | runs without verdict | time |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|");
    for (f, r, t) in &rows {
        let _ = writeln!(
            out,
            "| {f} | {} | {} | {} | {} | {:.2}s |",
            r.summary,
            r.bound.map_or("-".to_string(), |b| b.to_string()),
            r.runs,
            r.aborted,
            t.as_secs_f64()
        );
    }
    let passed = rows.iter().filter(|r| r.1.code == EXIT_PASSED).count();
    if options.symbolic {
        let proved: u64 = rows.iter().map(|r| r.1.proved).sum();
        let _ = writeln!(
            out,
            "\n{proved} conjectures proved for inputs of every size by the symbolic search"
        );
    }
    let _ = writeln!(
        out,
        "\n{} files: {passed} without counterexample, {} with, {} errors; {:.1}s in all",
        rows.len(),
        rows.iter().filter(|r| r.1.code == EXIT_FAILED).count(),
        rows.iter().filter(|r| r.1.code == EXIT_ERROR).count(),
        total.elapsed().as_secs_f64()
    );
    code
}

/// A `--time` value: `500ms`, `2s`, `1.5` (seconds) or `1m`, the syntax of
/// the library's `NEATCHECK_TIME`.
fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| c.is_ascii_alphabetic())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let scale = match unit {
        "ms" => 0.001,
        "" | "s" => 1.0,
        "m" | "min" => 60.0,
        _ => return Err(format!("unknown unit in {text:?} (ms, s, m)")),
    };
    match number.trim().parse::<f64>() {
        Ok(v) if v >= 0.0 && v.is_finite() => Ok(std::time::Duration::from_secs_f64(v * scale)),
        _ => Err(format!(
            "not a duration: {text:?} (examples: 500ms, 2s, 1.5)"
        )),
    }
}

//! `neatcheck generate`: writes the test cases of a declaration's
//! arguments as JSON lines, for a harness written in any language to run
//! (CaseGenerator's three generation modes, per argument).
//!
//! The input is a declaration in the format of the `external` protocol
//! (`types`, `args`), from a file or standard input, with optional keys:
//!
//! - `generate`: one mode per argument, in order:
//!   `{"first": N}` (the first `N` values of the enumeration, whatever
//!   their size), `{"sized": N, "max_size": M}` (the first `N` values of
//!   size at most `M`) or `{"random": N, "max_size": M}` (`N` values drawn
//!   uniformly at random among those of size at most `M`, with
//!   replacement). `max_size` defaults to `--size`.
//! - `combine`: `"product"` (the default) or `"zip"`.
//!
//! Command-line modes (`--first N`, `--sized N`, `--random N`) apply to the
//! arguments the declaration gives no mode; without any, `--first 10`.
//!
//! The enumeration is the search's: values by increasing size (sizes of
//! `#[derive(Enumerable)]` types), in the library's FEAT order within a
//! size, which counts and indexes them without listing the smaller ones;
//! random values are FEAT's uniform draws from a generator seeded by
//! `--seed` (0 by default), so the output is the same for the same input
//! and seed.
//!
//! Each argument's values combine into cases as CaseGenerator combined
//! them: the cartesian product, ordered by diagonals (by the sum of the
//! values' positions in their lists, then argument by argument), so that
//! the first cases combine the first values and a harness that reads only
//! a prefix still gets the small combinations; `zip` instead pairs the
//! `i`-th values (as many cases as the shortest list), for random modes,
//! whose product would repeat each draw many times.
//!
//! Output: one `{"args":[V,...]}` line per case, `V` in the protocol's
//! value format.

use crate::cli::{EXIT_ERROR, EXIT_PASSED};
use crate::external::{parse_types, value_json};
use crate::json::Json;
use neatcheck::dynamic::DynValue;
use neatcheck::index::{seeded_rng, Indexer};
use num_bigint::BigUint;
use std::io::{Read, Write};

/// The usage text of the command.
const USAGE: &str = "\
usage: neatcheck generate [OPTIONS] [DECLARATION.json]   (standard input without a file)
  --first N        the first N values of each argument, whatever their size
  --sized N        the first N values of size at most --size
  --random N       N uniformly random values of size at most --size
                   (for the arguments the declaration gives no \"generate\" mode;
                   default --first 10)
  --size M         the largest size of --sized and --random (default 10)
  --seed S         the seed of random values (default 0)
  --combine product|zip
                   the cases: every combination, by diagonals (default), or
                   the i-th values together";

/// How the values of one argument are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// The first `count` values of the enumeration, whatever their size.
    First { count: u64 },
    /// The first `count` values of size at most `max_size`.
    Sized { count: u64, max_size: usize },
    /// `count` uniform draws among the values of size at most `max_size`.
    Random { count: u64, max_size: usize },
}

/// How the arguments' values combine into cases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Combine {
    /// Every combination, by diagonals.
    Product,
    /// The `i`-th values together.
    Zip,
}

/// What the command line says.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Options {
    /// The mode of the arguments the declaration gives none, without its
    /// `max_size`.
    mode: Option<Mode>,
    /// The largest size of `sized` and `random` modes without their own.
    max_size: usize,
    /// The seed of random modes.
    seed: u64,
    /// How values combine, if the command line says.
    combine: Option<Combine>,
    /// The declaration's file; standard input without one.
    file: Option<String>,
}

/// Reads the options.
fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        mode: None,
        max_size: 10,
        seed: 0,
        combine: None,
        file: None,
    };
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let number = |i: usize| -> Result<u64, String> {
            args.get(i + 1)
                .and_then(|v| v.parse::<u64>().ok())
                .ok_or_else(|| format!("{a} takes a number"))
        };
        match a {
            "--first" | "--sized" | "--random" => {
                let count = number(i)?;
                // `max_size` is filled in below, once `--size` is known.
                options.mode = Some(match a {
                    "--first" => Mode::First { count },
                    "--sized" => Mode::Sized { count, max_size: 0 },
                    _ => Mode::Random { count, max_size: 0 },
                });
                i += 1;
            }
            "--size" => {
                options.max_size = usize::try_from(number(i)?).map_err(|e| e.to_string())?;
                i += 1;
            }
            "--seed" => {
                options.seed = number(i)?;
                i += 1;
            }
            "--combine" => {
                options.combine = Some(match args.get(i + 1).map(String::as_str) {
                    Some("product") => Combine::Product,
                    Some("zip") => Combine::Zip,
                    _ => return Err("--combine takes `product` or `zip`".into()),
                });
                i += 1;
            }
            "-" => options.file = None,
            s if s.starts_with("--") => return Err(format!("unknown option {s}")),
            file => {
                if options.file.is_some() {
                    return Err("one declaration file at most".into());
                }
                options.file = Some(file.to_string());
            }
        }
        i += 1;
    }
    options.mode = options.mode.map(|m| with_max_size(m, options.max_size));
    Ok(options)
}

/// A mode with its largest size set (the `first` mode has none).
fn with_max_size(mode: Mode, max_size: usize) -> Mode {
    match mode {
        Mode::First { count } => Mode::First { count },
        Mode::Sized { count, .. } => Mode::Sized { count, max_size },
        Mode::Random { count, .. } => Mode::Random { count, max_size },
    }
}

/// Reads one argument's mode from the declaration.
fn parse_mode(json: &Json, default_max_size: usize) -> Result<Mode, String> {
    let count = |key: &str| -> Result<Option<u64>, String> {
        match json.get(key) {
            None => Ok(None),
            Some(Json::Int(n)) if *n >= 0 => Ok(Some(*n as u64)),
            Some(other) => Err(format!("`{key}` is a count, not {other}")),
        }
    };
    let max_size = match json.get("max_size") {
        None => default_max_size,
        Some(Json::Int(n)) if *n >= 0 => *n as usize,
        Some(other) => return Err(format!("`max_size` is a size, not {other}")),
    };
    let known = ["first", "sized", "random", "max_size"];
    if let Json::Obj(members) = json {
        if let Some((k, _)) = members.iter().find(|(k, _)| !known.contains(&k.as_str())) {
            return Err(format!("unknown key `{k}` in the mode {json}"));
        }
    }
    match (count("first")?, count("sized")?, count("random")?) {
        (Some(count), None, None) if json.get("max_size").is_none() => Ok(Mode::First { count }),
        (None, Some(count), None) => Ok(Mode::Sized { count, max_size }),
        (None, None, Some(count)) => Ok(Mode::Random { count, max_size }),
        _ => Err(format!(
            "a mode is one of {{\"first\": N}}, {{\"sized\": N, \"max_size\": M}} or \
             {{\"random\": N, \"max_size\": M}}, not {json}"
        )),
    }
}

/// The values of one argument, as protocol JSON.
fn argument_values(
    indexer: &Indexer<DynValue>,
    mode: Mode,
    rng: &mut neatcheck::index::SeedRng,
) -> Vec<String> {
    // The indexed space is the argument wrapped in a constructor of size 1
    // (a position of its own): sizes are the argument's plus 1.
    let unwrap = |v: DynValue| value_json(&v.fields()[0]);
    let mut out = vec![];
    match mode {
        Mode::First { count } => {
            for i in 0..count {
                match indexer.try_value_at(&BigUint::from(i)) {
                    Some(v) => out.push(unwrap(v)),
                    None => break,
                }
            }
        }
        Mode::Sized { count, max_size } => {
            let available = indexer.cardinality_up_to(max_size.saturating_add(1));
            let count = BigUint::from(count).min(available);
            let mut i = BigUint::ZERO;
            while i < count {
                out.push(unwrap(indexer.value_at(&i)));
                i += 1u32;
            }
        }
        Mode::Random { count, max_size } => {
            for _ in 0..count {
                match indexer.sample_up_to(max_size.saturating_add(1), rng) {
                    Some(v) => out.push(unwrap(v)),
                    None => break,
                }
            }
        }
    }
    out
}

/// Writes the cases, one line each; returns their number.
fn write_cases(
    values: &[Vec<String>],
    combine: Combine,
    out: &mut dyn Write,
) -> std::io::Result<u64> {
    let mut written = 0u64;
    let mut line = |picks: &[usize]| -> std::io::Result<()> {
        let args: Vec<&str> = picks
            .iter()
            .zip(values)
            .map(|(&k, vs)| vs[k].as_str())
            .collect();
        written += 1;
        writeln!(out, "{{\"args\":[{}]}}", args.join(","))
    };
    if values.is_empty() {
        // No arguments: one case, the empty one.
        line(&[])?;
        return Ok(written);
    }
    match combine {
        Combine::Zip => {
            let n = values.iter().map(Vec::len).min().unwrap_or(0);
            for i in 0..n {
                line(&vec![i; values.len()])?;
            }
        }
        Combine::Product => {
            if values.iter().any(Vec::is_empty) {
                return Ok(0);
            }
            let last: Vec<usize> = values.iter().map(|v| v.len() - 1).collect();
            let top: usize = last.iter().sum();
            let mut picks = vec![0; values.len()];
            for sum in 0..=top {
                diagonal(&last, 0, sum, &mut picks, &mut line)?;
            }
        }
    }
    Ok(written)
}

/// Every choice of positions `picks[k..]` (position `j` at most `last[j]`)
/// that sums to `sum`, in lexicographic order.
fn diagonal(
    last: &[usize],
    k: usize,
    sum: usize,
    picks: &mut [usize],
    line: &mut dyn FnMut(&[usize]) -> std::io::Result<()>,
) -> std::io::Result<()> {
    if k + 1 == last.len() {
        if sum <= last[k] {
            picks[k] = sum;
            line(picks)?;
        }
        return Ok(());
    }
    // What the later arguments can take at most: the rest must reach it.
    let rest: usize = last[k + 1..].iter().sum();
    for pick in sum.saturating_sub(rest)..=sum.min(last[k]) {
        picks[k] = pick;
        diagonal(last, k + 1, sum - pick, picks, line)?;
    }
    Ok(())
}

/// Why no (or not every) case was written.
#[derive(Debug)]
enum GenerateError {
    /// The declaration or the options are wrong: why.
    Input(String),
    /// Writing the cases failed.
    Output(std::io::Error),
}

impl From<String> for GenerateError {
    fn from(e: String) -> GenerateError {
        GenerateError::Input(e)
    }
}

/// The whole command on a declaration's text: writes the cases to `out`,
/// returns their number.
fn generate(text: &str, options: &Options, out: &mut dyn Write) -> Result<u64, GenerateError> {
    let decl = Json::parse(text.trim()).map_err(|e| format!("the declaration: {e}"))?;
    let (mut types, args) = parse_types(&decl).map_err(|e| format!("the declaration: {e}"))?;
    let default_mode = options.mode.unwrap_or(Mode::First { count: 10 });
    let modes: Vec<Mode> = match decl.get("generate") {
        None => vec![default_mode; args.len()],
        Some(Json::Arr(given)) if given.len() == args.len() => given
            .iter()
            .enumerate()
            .map(|(k, m)| match m {
                Json::Null => Ok(default_mode),
                m => parse_mode(m, options.max_size).map_err(|e| format!("argument {k}: {e}")),
            })
            .collect::<Result<_, _>>()?,
        Some(other) => {
            return Err(GenerateError::Input(format!(
                "`generate` is a list of {} mode(s), one per argument (null: the command \
                 line's), not {other}",
                args.len()
            )))
        }
    };
    let combine = match (options.combine, decl.get("combine")) {
        (Some(c), _) => c,
        (None, None) => Combine::Product,
        (None, Some(Json::Str(c))) if c == "product" => Combine::Product,
        (None, Some(Json::Str(c))) if c == "zip" => Combine::Zip,
        (None, Some(other)) => {
            return Err(GenerateError::Input(format!(
                "`combine` is \"product\" or \"zip\", not {other}"
            )))
        }
    };
    // Each argument wrapped in a one-constructor datatype of its own: the
    // universe indexes declared datatypes, and builtins are arguments too.
    let wrappers: Vec<String> = (0..args.len()).map(|k| format!("<arg{k}>")).collect();
    for (name, ty) in wrappers.iter().zip(&args) {
        types.data(name).ctor(name, &[ty.as_str()]);
    }
    let universe = types.build().map_err(|e| format!("the declaration: {e}"))?;
    let mut rng = seeded_rng(options.seed);
    let mut values = vec![];
    for (k, (name, mode)) in wrappers.iter().zip(&modes).enumerate() {
        let space = universe.space(name).map_err(|e| e.to_string())?;
        let vs = argument_values(&Indexer::for_space(&space), *mode, &mut rng);
        if vs.is_empty() {
            return Err(GenerateError::Input(format!(
                "argument {k} (`{}`) has no value for the mode {}",
                args[k],
                describe(*mode)
            )));
        }
        values.push(vs);
    }
    write_cases(&values, combine, out).map_err(GenerateError::Output)
}

/// A mode as the declaration writes it.
fn describe(mode: Mode) -> String {
    match mode {
        Mode::First { count } => format!("{{\"first\": {count}}}"),
        Mode::Sized { count, max_size } => {
            format!("{{\"sized\": {count}, \"max_size\": {max_size}}}")
        }
        Mode::Random { count, max_size } => {
            format!("{{\"random\": {count}, \"max_size\": {max_size}}}")
        }
    }
}

/// `neatcheck generate [OPTIONS] [FILE]`: writes the cases, returns the
/// exit code.
pub(crate) fn run_command(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        let _ = writeln!(out, "{USAGE}");
        return EXIT_PASSED;
    }
    let options = match parse_options(args) {
        Ok(o) => o,
        Err(e) => {
            let _ = writeln!(err, "neatcheck generate: {e}\n{USAGE}");
            return EXIT_ERROR;
        }
    };
    let text = match &options.file {
        Some(f) => std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}")),
        None => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .map(|_| s)
                .map_err(|e| format!("standard input: {e}"))
        }
    };
    let result = text
        .map_err(GenerateError::Input)
        .and_then(|t| generate(&t, &options, out));
    match result {
        Ok(_) => EXIT_PASSED,
        // The reader of the cases went away (`| head`): that is its call.
        Err(GenerateError::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => EXIT_PASSED,
        Err(GenerateError::Output(e)) => {
            let _ = writeln!(err, "neatcheck generate: writing the cases: {e}");
            EXIT_ERROR
        }
        Err(GenerateError::Input(e)) => {
            let _ = writeln!(err, "neatcheck generate: {e}");
            EXIT_ERROR
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines `generate` writes for a declaration, with options.
    fn lines(decl: &str, options: &[&str]) -> Result<Vec<String>, String> {
        let args: Vec<String> = options.iter().map(|s| s.to_string()).collect();
        let options = parse_options(&args)?;
        let mut out = Vec::new();
        match generate(decl, &options, &mut out) {
            Ok(n) => {
                let text = String::from_utf8(out).unwrap();
                let lines: Vec<String> = text.lines().map(str::to_string).collect();
                assert_eq!(lines.len() as u64, n);
                Ok(lines)
            }
            Err(GenerateError::Input(e)) => Err(e),
            Err(GenerateError::Output(e)) => panic!("{e}"),
        }
    }

    const BOOLS: &str = r#"{"types":[{"name":"List","ctors":[{"name":"Nil","fields":[]},
        {"name":"Cons","fields":["Bool","List"]}]}]"#;

    const NIL: &str = r#"{"ctor":"Nil","fields":[]}"#;

    fn cons(b: bool, rest: &str) -> String {
        format!(r#"{{"ctor":"Cons","fields":[{b},{rest}]}}"#)
    }

    #[test]
    fn the_modes_list_the_enumeration_and_the_product_goes_by_diagonals() {
        // Lists of booleans: [] (size 1), [false], [true] (3), then the
        // four of size 5. Ints by bit length: 0, then 1, -1 (size 1).
        let decl = format!(
            r#"{BOOLS},"args":["List","Int"],"generate":[{{"first":4}},{{"sized":5,"max_size":1}}]}}"#
        );
        let got = lines(&decl, &[]).unwrap();
        let lists = [
            NIL.to_string(),
            cons(false, NIL),
            cons(true, NIL),
            cons(false, &cons(false, NIL)),
        ];
        let ints = ["0", "1", "-1"];
        // Positions (list, int) by their sum, then the list's first.
        let order = [
            (0, 0),
            (0, 1),
            (1, 0),
            (0, 2),
            (1, 1),
            (2, 0),
            (1, 2),
            (2, 1),
            (3, 0),
            (2, 2),
            (3, 1),
            (3, 2),
        ];
        let want: Vec<String> = order
            .iter()
            .map(|&(l, i)| format!(r#"{{"args":[{},{}]}}"#, lists[l], ints[i]))
            .collect();
        assert_eq!(got, want);
        // Zip: the i-th values together, as many as the shortest list.
        let zipped = lines(&decl, &["--combine", "zip"]).unwrap();
        assert_eq!(
            zipped,
            (0..3)
                .map(|k| format!(r#"{{"args":[{},{}]}}"#, lists[k], ints[k]))
                .collect::<Vec<_>>()
        );
        // The command line's mode for the arguments the declaration leaves
        // to it (null), and its size.
        let decl = format!(r#"{BOOLS},"args":["List","Nat"],"generate":[{{"first":1}},null]}}"#);
        let got = lines(&decl, &["--sized", "100", "--size", "2"]).unwrap();
        let want: Vec<String> = (0..4)
            .map(|n| format!(r#"{{"args":[{NIL},{n}]}}"#))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn characters_and_strings_come_by_size() {
        // NUL has size 0, 1 size 1, 2 and 3 size 2; the empty string size
        // 1, "\0" size 2, then size 3 by the size of the first character:
        // "\0\0" (0 + 0) before "\u{1}" (1).
        let got = lines(
            r#"{"types":[],"args":["Char","String"]}"#,
            &["--first", "3", "--combine", "zip"],
        )
        .unwrap();
        assert_eq!(
            got,
            [
                r#"{"args":["\u0000",""]}"#,
                r#"{"args":["\u0001","\u0000"]}"#,
                r#"{"args":["\u0002","\u0000\u0000"]}"#
            ]
        );
    }

    #[test]
    fn random_values_are_uniform_draws_fixed_by_the_seed() {
        let decl = r#"{"types":[],"args":["Nat"],"generate":[{"random":200,"max_size":3}]}"#;
        let first = lines(decl, &["--seed", "7"]).unwrap();
        assert_eq!(first, lines(decl, &["--seed", "7"]).unwrap());
        assert_ne!(first, lines(decl, &["--seed", "8"]).unwrap());
        // Naturals of size <= 3 are 0..=7: every one drawn, none other.
        let mut drawn: Vec<u64> = first
            .iter()
            .map(|l| {
                l.strip_prefix(r#"{"args":["#)
                    .and_then(|r| r.strip_suffix("]}"))
                    .unwrap()
                    .parse()
                    .unwrap()
            })
            .collect();
        assert_eq!(drawn.len(), 200);
        drawn.sort();
        drawn.dedup();
        assert_eq!(drawn, (0..=7).collect::<Vec<u64>>());
    }

    #[test]
    fn bad_input_is_an_error_with_exit_code_2() {
        for (decl, options, want) in [
            ("{", &[][..], "the declaration"),
            (r#"{"types":[],"args":["Lst"]}"#, &[], "unknown type `Lst`"),
            (
                r#"{"types":[],"args":["Int"],"generate":[]}"#,
                &[],
                "a list of 1 mode(s)",
            ),
            (
                r#"{"types":[],"args":["Int"],"generate":[{"first":2,"max_size":3}]}"#,
                &[],
                "a mode is one of",
            ),
            (
                r#"{"types":[],"args":["Int"],"generate":[{"frist":2}]}"#,
                &[],
                "unknown key `frist`",
            ),
            (
                // The empty list has size 1.
                &format!(r#"{BOOLS},"args":["List"]}}"#),
                &["--sized", "3", "--size", "0"],
                "argument 0 (`List`) has no value for the mode {\"sized\": 3, \"max_size\": 0}",
            ),
            (
                r#"{"types":[{"name":"T","ctors":[{"name":"C","fields":["T"]}]}],"args":["T"]}"#,
                &[],
                "argument 0 (`T`) has no value",
            ),
            (
                r#"{"types":[],"args":["Int"],"combine":"cross"}"#,
                &[],
                "`combine` is",
            ),
        ] {
            let e = lines(decl, options).unwrap_err();
            assert!(e.contains(want), "{decl}: {e}");
        }
        assert!(parse_options(&["--seed".into()]).is_err());
        assert!(parse_options(&["--combine".into(), "cross".into()]).is_err());
        // Through the command, from a file.
        let file =
            std::env::temp_dir().join(format!("neatcheck-generate-{}.json", std::process::id()));
        std::fs::write(&file, r#"{"types":[],"args":["Lst"]}"#).unwrap();
        let args = vec!["generate".to_string(), file.display().to_string()];
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(crate::cli::run(&args, &mut out, &mut err), EXIT_ERROR);
        assert!(String::from_utf8(err)
            .unwrap()
            .contains("unknown type `Lst`"));
        std::fs::write(&file, r#"{"types":[],"args":["Bool"]}"#).unwrap();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(crate::cli::run(&args, &mut out, &mut err), EXIT_PASSED);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"args\":[false]}\n{\"args\":[true]}\n"
        );
        let _ = std::fs::remove_file(&file);
        let missing = vec!["generate".to_string(), "/no/such/file.json".into()];
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(crate::cli::run(&missing, &mut out, &mut err), EXIT_ERROR);
    }
}

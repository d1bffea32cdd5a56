//! Runs per CPU-second against the original NEAT (lazy-search) on one
//! program, run for run, with strategy D:
//!
//! - `countdown` (the default): Hutton's countdown
//!   (`benchmarks::countdown`), whose naturals have a hand-written space.
//!   neatcheck reads them twice, through `force()` (the documented path for
//!   a hand-written leaf space) and as `u64` through `get()` (the derived
//!   path); both make lazy-search's runs at every bound. Its peer is
//!   `tools/peers/lazysearch/Countdown.hs`.
//! - `turner`: Turner's bracket abstraction
//!   (`benchmarks::small_programs::turner_abstraction`), a rewriting of
//!   terms that are partly input and partly built, all of it read through
//!   derived spaces, twice: as written (`Rc` terms, column `Rc`) and with
//!   its terms in the run's arena (`benchmarks::turner_arena`, column
//!   `arena`). Its peer is `tools/peers/lazysearch/Turner.hs`, which reads
//!   the input in the Rust version's order.
//!
//! ```text
//! cargo run --release -p neatcheck-tools --bin versus_lazy_search -- \
//!     [--program countdown|turner] [--max-bound B] [--repeats N] [--peer <binary>]
//! ```
//!
//! Each bound's search runs to completion (on countdown's sound property;
//! Turner's property is false, and every run counts); a timing is the
//! thread CPU time of one bound, the best of N repeats (default 5), the
//! readers interleaved. `--peer` names the lazy-search build of the
//! program: it is run N times too, its runs are checked against
//! neatcheck's at every bound, and the table gets its seconds and the
//! ratios. Prints a markdown table, then the totals over bounds 0 to B
//! (default 13 for countdown, 12 for turner).

use neatcheck::search;
use neatcheck_tools::args::take_counts;
use neatcheck_tools::benchmarks::countdown::{countdown_derived, countdown_forced, Pruning};
use neatcheck_tools::benchmarks::small_programs::turner_abstraction;
use neatcheck_tools::benchmarks::timing;
use neatcheck_tools::benchmarks::turner_arena::turner_abstraction_in_arena;
use std::process::{exit, Command};
use std::time::Duration;

/// One way neatcheck searches the program: a column's name, and the runs
/// of an exhaustive search to a bound.
type Reader = (&'static str, fn(usize) -> u64);

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let program = take_value(&mut args, "--program").unwrap_or_else(|| "countdown".into());
    let (readers, default_bound): (Vec<Reader>, usize) = match program.as_str() {
        "countdown" => (
            vec![
                ("force()", |bound| {
                    search::classes(|i| countdown_forced(Pruning::Sound, i), bound).runs
                }),
                ("get()", |bound| {
                    search::classes(|i| countdown_derived(Pruning::Sound, i), bound).runs
                }),
            ],
            13,
        ),
        "turner" => (
            vec![
                ("Rc", |bound| {
                    search::classes(turner_abstraction, bound).runs
                }),
                ("arena", |bound| {
                    search::classes(turner_abstraction_in_arena, bound).runs
                }),
            ],
            12,
        ),
        other => {
            eprintln!("versus_lazy_search: no program {other:?} (countdown, turner)");
            exit(2);
        }
    };
    let max_bound = take_one(&mut args, "--max-bound", default_bound);
    let repeats = take_one(&mut args, "--repeats", 5);
    let peer = take_value(&mut args, "--peer");
    if !args.is_empty() {
        eprintln!("versus_lazy_search: unknown arguments {args:?}");
        exit(2);
    }

    let mut seconds = vec![vec![Duration::MAX; max_bound + 1]; readers.len()];
    let mut runs = vec![0u64; max_bound + 1];
    for _ in 0..repeats {
        for bound in 0..=max_bound {
            for (column, (name, reader)) in readers.iter().enumerate() {
                let (r, t) = timed(|| reader(bound));
                seconds[column][bound] = seconds[column][bound].min(t);
                if column == 0 {
                    runs[bound] = r;
                }
                assert_eq!(r, runs[bound], "{name} disagrees at bound {bound}");
            }
        }
    }
    let peer_seconds = peer.map(|binary| run_peer(&binary, max_bound, repeats, &runs));

    let mut header: Vec<String> = readers
        .iter()
        .map(|(name, _)| format!("{name} s"))
        .collect();
    if peer_seconds.is_some() {
        header.push("lazy-search s".into());
        header.extend(readers.iter().map(|(name, _)| format!("{name} ratio")));
    }
    println!("| bound | runs | {} |", header.join(" | "));
    println!("|---:|---:|{}", "---:|".repeat(header.len()));
    let row = |label: String, runs: u64, ours: Vec<f64>, peer: Option<f64>| {
        print!("| {label} | {runs} |");
        for s in &ours {
            print!(" {s:.4} |");
        }
        if let Some(p) = peer {
            print!(" {p:.4} |");
            for s in &ours {
                print!(" {:.2}x |", p / s);
            }
        }
        println!();
    };
    for bound in 0..=max_bound {
        row(
            bound.to_string(),
            runs[bound],
            seconds.iter().map(|s| s[bound].as_secs_f64()).collect(),
            peer_seconds.as_ref().map(|s| s[bound]),
        );
    }
    row(
        format!("0-{max_bound}"),
        runs.iter().sum(),
        seconds
            .iter()
            .map(|s| s.iter().map(Duration::as_secs_f64).sum())
            .collect(),
        peer_seconds.as_ref().map(|s| s.iter().sum()),
    );
}

fn timed<R>(f: impl FnOnce() -> R) -> (R, Duration) {
    let start = timing::cpu_now();
    let r = f();
    (r, timing::cpu_now() - start)
}

fn take_one(args: &mut Vec<String>, flag: &str, default: usize) -> usize {
    match take_counts(args, flag, &[default]).as_deref() {
        Ok(&[n]) => n,
        _ => {
            eprintln!("versus_lazy_search: {flag} takes one number of at least 1");
            exit(2);
        }
    }
}

fn take_value(args: &mut Vec<String>, flag: &str) -> Option<String> {
    let at = args.iter().position(|a| a == flag)?;
    if at + 1 >= args.len() {
        eprintln!("versus_lazy_search: {flag} needs a value");
        exit(2);
    }
    let value = args.remove(at + 1);
    args.remove(at);
    Some(value)
}

/// The peer's best seconds per bound over `repeats` runs, its runs checked
/// against `runs`.
fn run_peer(binary: &str, max_bound: usize, repeats: usize, runs: &[u64]) -> Vec<f64> {
    let mut best = vec![f64::INFINITY; max_bound + 1];
    for _ in 0..repeats {
        let out = Command::new(binary)
            .args(["sound", &max_bound.to_string()])
            .output()
            .unwrap_or_else(|e| {
                eprintln!("versus_lazy_search: can not run {binary}: {e}");
                exit(2);
            });
        let text = String::from_utf8_lossy(&out.stdout);
        let mut seen = 0;
        for line in text.lines() {
            // "bound N runs K cpu S"
            let words: Vec<&str> = line.split_whitespace().collect();
            let [_, bound, _, peer_runs, _, seconds] = words[..] else {
                continue;
            };
            let (Ok(bound), Ok(peer_runs), Ok(seconds)) = (
                bound.parse::<usize>(),
                peer_runs.parse::<u64>(),
                seconds.parse::<f64>(),
            ) else {
                continue;
            };
            if bound > max_bound {
                continue;
            }
            if peer_runs != runs[bound] {
                eprintln!(
                    "versus_lazy_search: at bound {bound} lazy-search made {peer_runs} runs, \
                     neatcheck {}",
                    runs[bound]
                );
                exit(1);
            }
            best[bound] = best[bound].min(seconds);
            seen += 1;
        }
        if seen != max_bound + 1 {
            eprintln!(
                "versus_lazy_search: {binary} printed {seen} bounds, not {}",
                max_bound + 1
            );
            exit(1);
        }
    }
    best
}

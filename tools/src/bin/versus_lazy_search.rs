//! Runs per CPU-second against the original NEAT (lazy-search) on one
//! program, run for run: Hutton's countdown (`benchmarks::countdown`),
//! whose naturals have a hand-written space. neatcheck reads them twice,
//! through `force()` (the documented path for a hand-written leaf space)
//! and as `u64` through `get()` (the derived path); both make lazy-search's
//! runs at every bound.
//!
//! ```text
//! cargo run --release -p neatcheck-tools --bin versus_lazy_search -- \
//!     [--max-bound B] [--repeats N] [--peer <countdown binary>]
//! ```
//!
//! Each bound's search runs to completion on the sound property; a timing
//! is the thread CPU time of one bound, the best of N repeats (default 5),
//! the readers interleaved. `--peer` names the lazy-search build of
//! `tools/peers/lazysearch/Countdown.hs`: it is run N times too, its runs
//! are checked against neatcheck's at every bound, and the table gets its
//! seconds and the ratios. Prints a markdown table, then the totals over
//! bounds 0 to B (default 13).

use neatcheck::search;
use neatcheck_tools::args::take_counts;
use neatcheck_tools::benchmarks::countdown::{countdown_derived, countdown_forced, Pruning};
use neatcheck_tools::benchmarks::timing;
use std::process::{exit, Command};
use std::time::Duration;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let max_bound = take_one(&mut args, "--max-bound", 13);
    let repeats = take_one(&mut args, "--repeats", 5);
    let peer = take_value(&mut args, "--peer");
    if !args.is_empty() {
        eprintln!("versus_lazy_search: unknown arguments {args:?}");
        exit(2);
    }

    let mut forced = vec![Duration::MAX; max_bound + 1];
    let mut derived = vec![Duration::MAX; max_bound + 1];
    let mut runs = vec![0u64; max_bound + 1];
    for _ in 0..repeats {
        for bound in 0..=max_bound {
            let (r, t) =
                timed(|| search::classes(|i| countdown_forced(Pruning::Sound, i), bound).runs);
            forced[bound] = forced[bound].min(t);
            runs[bound] = r;
            let (r, t) =
                timed(|| search::classes(|i| countdown_derived(Pruning::Sound, i), bound).runs);
            derived[bound] = derived[bound].min(t);
            assert_eq!(r, runs[bound], "the readers disagree at bound {bound}");
        }
    }
    let peer_seconds = peer.map(|binary| run_peer(&binary, max_bound, repeats, &runs));

    print!("| bound | runs | force() s | get() s |");
    if peer_seconds.is_some() {
        print!(" lazy-search s | force() ratio | get() ratio |");
    }
    println!();
    println!(
        "|---:|---:|---:|---:|{}",
        if peer_seconds.is_some() {
            "---:|---:|---:|"
        } else {
            ""
        }
    );
    let row = |label: String, runs: u64, f: f64, d: f64, p: Option<f64>| {
        print!("| {label} | {runs} | {f:.4} | {d:.4} |");
        if let Some(p) = p {
            print!(" {p:.4} | {:.2}x | {:.2}x |", p / f, p / d);
        }
        println!();
    };
    for bound in 0..=max_bound {
        row(
            bound.to_string(),
            runs[bound],
            forced[bound].as_secs_f64(),
            derived[bound].as_secs_f64(),
            peer_seconds.as_ref().map(|s| s[bound]),
        );
    }
    row(
        format!("0-{max_bound}"),
        runs.iter().sum(),
        forced.iter().map(Duration::as_secs_f64).sum(),
        derived.iter().map(Duration::as_secs_f64).sum(),
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

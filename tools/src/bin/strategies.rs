//! Strategy tables for the formula benchmarks of `docs/benchmarks/`
//! (imperative.md, typecheck.md), in the shape of the NEAT paper's Tables
//! 2.6/2.7: runs each conjunction strategy from bound 0 upwards until its
//! time budget is spent, and prints runs and cumulative seconds per bound
//! next to the reference peer's (embedded below), the largest bound each
//! strategy completed and its speed relative to the reference.
//!
//! ```text
//! cargo run --release -p neatcheck-tools --bin strategies -- <imperative|typecheck> [seconds per strategy]
//! ```
//!
//! The budget defaults to 30 s per strategy, the reference's.

use neatcheck_tools::benchmarks;

use neatcheck::cool::{Cool, Strategy};
use neatcheck::search::{RunResult, Searcher};
use neatcheck::{Enumerable, Lazy};
use std::fmt::Write as _;
use std::process::exit;
use std::time::{Duration, Instant};

/// imperative.md, "tests per bound": bound | worst | hits | D | O | F | OS | OF | OSF.
const IMPERATIVE_RUNS: &str = "
| 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |
| 1 | 1 | 0 | 1 | 1 | 1 | 1 | 1 | 1 |
| 2 | 1 | 0 | 1 | 1 | 1 | 1 | 1 | 1 |
| 3 | 3 | 0 | 3 | 3 | 3 | 3 | 3 | 3 |
| 4 | 10 | 0 | 5 | 6 | 6 | 5 | 5 | 5 |
| 5 | 25 | 0 | 12 | 12 | 13 | 10 | 11 | 10 |
| 6 | 62 | 1 | 24 | 19 | 27 | 17 | 21 | 19 |
| 7 | 182 | 1 | 59 | 37 | 61 | 35 | 36 | 35 |
| 8 | 485 | 1 | 126 | 59 | 121 | 59 | 58 | 61 |
| 9 | 1334 | 8 | 308 | 114 | 286 | 121 | 105 | 116 |
| 10 | 3837 | 8 | 737 | 217 | 625 | 240 | 194 | 239 |
| 11 | 11008 | 11 | 1776 | 381 | 1403 | 458 | 327 | 458 |
| 12 | 31680 | 51 | 4424 | 748 | 3091 | 965 | 620 | 961 |
| 13 | 93485 | 68 | 11030 | 1495 | 7051 | 2059 | 1135 | 2002 |
| 14 | 276082 | 111 | 27982 | 2863 | 15871 | 4349 | 1999 | 4110 |
| 15 | 820398 | 355 | 71271 | 5936 | 35811 | 9807 | 3829 | 8969 |
| 16 | 2461042 | 573 | 184803 | 12661 | 79916 | 22388 | 7151 | 19344 |
| 17 | 7416041 | 1045 | 478582 | 27185 | 178247 | 52126 | 13117 | 42142 |
| 18 | 22433020 | 2761 | 1260002 | 61556 | 407750 | 125727 | 25548 | 93491 |
| 19 | 68249695 | 5010 | 3320243 | 144555 | 935951 | 308687 | 48594 | 207763 |
| 20 | 208371875 | 9567 | 8844466 | 347639 | 2145307 | 772309 | 91871 | 462342 |
| 21 | 638327094 | 23200 | X | 867283 | 4958725 | 1972005 | 181362 | 1046753 |
| 22 | 1962481364 | 45098 | X | 2225448 | X | X | 351585 | 2363316 |
| 23 | 6051262708 | 88426 | X | 5818760 | X | X | 678857 | X |
| 24 | 18708120802 | 206737 | X | X | X | X | 1357214 | X |
| 25 | 57991573763 | 415601 | X | X | X | X | 2680183 | X |
";

/// imperative.md, "Cumulative seconds": bound | D | O | F | OS | OF | OSF.
const IMPERATIVE_SECONDS: &str = "
| 14 | 0.07 | 0.01 | 0.06 | 0.03 | 0.01 | 0.03 |
| 15 | 0.17 | 0.03 | 0.13 | 0.07 | 0.02 | 0.07 |
| 16 | 0.47 | 0.05 | 0.28 | 0.15 | 0.03 | 0.14 |
| 17 | 1.27 | 0.10 | 0.66 | 0.33 | 0.06 | 0.32 |
| 18 | 3.47 | 0.25 | 1.52 | 0.73 | 0.12 | 0.72 |
| 19 | 9.60 | 0.61 | 3.48 | 1.86 | 0.23 | 1.65 |
| 20 | 26.41 | 1.40 | 7.81 | 4.82 | 0.43 | 3.56 |
| 21 | X | 3.55 | 17.50 | 12.95 | 0.85 | 7.95 |
| 22 | X | 9.58 | X | X | 1.81 | 18.34 |
| 23 | X | 26.66 | X | X | 3.84 | X |
| 24 | X | X | X | X | 7.66 | X |
| 25 | X | X | X | X | 16.56 | X |
";

/// typecheck.md, "tests per bound": bound | worst | hits | D | O | F | OS | OF | OSF.
const TYPECHECK_RUNS: &str = "
| 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |
| 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |
| 2 | 2 | 1 | 2 | 2 | 2 | 2 | 2 | 2 |
| 3 | 5 | 1 | 2 | 2 | 2 | 2 | 2 | 2 |
| 4 | 8 | 2 | 4 | 4 | 4 | 4 | 4 | 4 |
| 5 | 20 | 4 | 9 | 9 | 9 | 9 | 9 | 9 |
| 6 | 46 | 5 | 14 | 14 | 14 | 14 | 14 | 14 |
| 7 | 104 | 10 | 27 | 24 | 24 | 24 | 24 | 24 |
| 8 | 257 | 15 | 60 | 46 | 48 | 46 | 45 | 45 |
| 9 | 665 | 30 | 111 | 80 | 89 | 80 | 80 | 79 |
| 10 | 1679 | 52 | 242 | 158 | 186 | 159 | 158 | 156 |
| 11 | 4424 | 100 | 512 | 303 | 375 | 306 | 307 | 307 |
| 12 | 11697 | 180 | 1034 | 591 | 754 | 598 | 603 | 598 |
| 13 | 31379 | 345 | 2252 | 1184 | 1564 | 1198 | 1218 | 1214 |
| 14 | 84061 | 626 | 4650 | 2295 | 3177 | 2320 | 2370 | 2348 |
| 15 | 229652 | 1227 | 9864 | 4667 | 6643 | 4709 | 4832 | 4798 |
| 16 | 624137 | 2265 | 20805 | 9066 | 13590 | 9137 | 9410 | 9317 |
| 17 | 1720430 | 4475 | 43893 | 18380 | 28155 | 18487 | 19110 | 18922 |
| 18 | 4727980 | 8398 | 92466 | 35904 | 57382 | 36080 | 37403 | 36974 |
| 19 | 13144186 | 16563 | 195893 | 72235 | 117944 | 72476 | 75391 | 74450 |
| 20 | 36406731 | 31419 | 412171 | 141606 | 239578 | 142001 | 148057 | 145947 |
| 21 | 101874162 | 61837 | 873414 | 283620 | 489767 | 284116 | 297027 | 292551 |
| 22 | 284101348 | 118563 | 1843602 | 557701 | 992155 | 558527 | 584870 | 575096 |
| 23 | 799103705 | 233435 | 3903403 | 1114685 | 2023742 | 1115591 | 1170274 | 1150046 |
| 24 | 2240811340 | 451862 | X | 2199516 | 4101387 | 2200932 | 2311819 | 2268856 |
| 25 | 6330696983 | 890723 | X | 4391300 | X | X | X | X |
";

/// typecheck.md, "Cumulative seconds": bound | D | O | F | OS | OF | OSF.
const TYPECHECK_SECONDS: &str = "
| 16 | 0.08 | 0.04 | 0.04 | 0.07 | 0.07 | 0.07 |
| 17 | 0.17 | 0.08 | 0.10 | 0.13 | 0.12 | 0.14 |
| 18 | 0.38 | 0.16 | 0.21 | 0.26 | 0.23 | 0.27 |
| 19 | 0.74 | 0.33 | 0.46 | 0.52 | 0.41 | 0.58 |
| 20 | 1.61 | 0.64 | 0.99 | 1.02 | 0.79 | 1.15 |
| 21 | 3.52 | 1.34 | 2.13 | 2.06 | 1.73 | 2.32 |
| 22 | 7.77 | 2.74 | 4.29 | 4.16 | 3.47 | 4.80 |
| 23 | 15.78 | 5.66 | 9.10 | 8.93 | 7.14 | 9.69 |
| 24 | X | 12.46 | 18.56 | 18.12 | 14.91 | 20.09 |
| 25 | X | 27.26 | X | X | X | X |
";

/// The reference's time budget per strategy, in seconds.
const REFERENCE_BUDGET: f64 = 30.0;

/// The reference results of one benchmark, parsed from the tables above.
struct Reference {
    /// Per bound (index): worst, hits, runs per strategy (`None`: `X`).
    runs: Vec<(String, u64, [Option<u64>; 6])>,
    /// The listed bounds' cumulative seconds per strategy.
    seconds: Vec<(usize, [Option<f64>; 6])>,
}

/// The cells of the rows of a markdown table.
fn rows(table: &str) -> impl Iterator<Item = Vec<&str>> {
    table
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(str::trim)
                .collect::<Vec<_>>()
        })
}

/// A cell: `X` is `None`.
fn cell<N: std::str::FromStr>(s: &str) -> Option<N> {
    match s {
        "X" => None,
        _ => Some(
            s.parse()
                .unwrap_or_else(|_| panic!("bad reference cell `{s}`")),
        ),
    }
}

impl Reference {
    fn parse(runs: &str, seconds: &str) -> Self {
        let mut r = Reference {
            runs: vec![],
            seconds: vec![],
        };
        for (i, c) in rows(runs).enumerate() {
            assert_eq!(
                c[0].parse::<usize>().ok(),
                Some(i),
                "reference rows in order"
            );
            let hits = c[2].parse().expect("reference hits");
            let cols = std::array::from_fn(|k| cell(c[3 + k]));
            r.runs.push((c[1].to_string(), hits, cols));
        }
        for c in rows(seconds) {
            let bound: usize = c[0].parse().expect("reference bound");
            r.seconds
                .push((bound, std::array::from_fn(|k| cell(c[1 + k]))));
        }
        r
    }

    fn runs(&self, bound: usize, col: usize) -> Option<u64> {
        self.runs.get(bound).and_then(|r| r.2[col])
    }

    fn seconds(&self, bound: usize, col: usize) -> Option<f64> {
        self.seconds
            .iter()
            .find(|r| r.0 == bound)
            .and_then(|r| r.1[col])
    }

    /// The largest bound a strategy completed (every bound up to it listed).
    fn largest(&self, col: usize) -> Option<usize> {
        (0..self.runs.len())
            .take_while(|&b| self.runs(b, col).is_some())
            .last()
    }
}

/// What one strategy achieved within its budget.
struct Column {
    /// Per finished bound: runs, hits, cumulative seconds.
    bounds: Vec<(u64, u64, f64)>,
}

impl Column {
    fn largest(&self) -> Option<usize> {
        self.bounds.len().checked_sub(1)
    }
}

/// Runs one strategy from bound 0 upwards until `budget` is spent.
fn measure<T: Enumerable>(
    prop: &impl for<'a> Fn(Lazy<'a, T>) -> Cool<'a>,
    strategy: Strategy,
    budget: Duration,
) -> Column {
    let start = Instant::now();
    let deadline = start + budget;
    let mut col = Column { bounds: vec![] };
    for bound in 0.. {
        let mut searcher = Searcher::<T>::new(bound);
        let (mut runs, mut hits) = (0u64, 0u64);
        loop {
            if runs % 64 == 0 && Instant::now() >= deadline {
                return col;
            }
            match searcher.step_cool(strategy, prop) {
                None => break,
                Some(RunResult::True) => hits += 1,
                Some(RunResult::Panicked(m)) => panic!("the predicate panicked: {m}"),
                // False or discarded: no hit.
                Some(_) => {}
            }
            runs += 1;
        }
        col.bounds.push((runs, hits, start.elapsed().as_secs_f64()));
    }
    col
}

/// Formats a table with right-aligned columns.
fn table(header: &[String], body: &[Vec<String>]) -> String {
    let widths: Vec<usize> = (0..header.len())
        .map(|k| {
            body.iter()
                .map(|r| r[k].chars().count())
                .chain([header[k].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String]| {
        let mut s = String::from("|");
        for (c, w) in cells.iter().zip(&widths) {
            let _ = write!(s, " {c:>w$} |");
        }
        s
    };
    let mut out = line(header);
    out.push('\n');
    out.push('|');
    for w in &widths {
        let _ = write!(out, "{}:|", "-".repeat(w + 1));
    }
    for r in body {
        out.push('\n');
        out.push_str(&line(r));
    }
    out
}

fn names() -> Vec<String> {
    Strategy::ALL.iter().map(|s| s.to_string()).collect()
}

fn usage(msg: &str) -> ! {
    eprintln!("{msg}");
    eprintln!("usage: strategies <imperative|typecheck> [seconds per strategy, default 30]");
    exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !(1..=2).contains(&args.len()) {
        usage("expected 1 or 2 arguments");
    }
    let seconds: f64 = match args.get(1) {
        None => REFERENCE_BUDGET,
        Some(s) => match s.parse() {
            Ok(x) if x > 0.0 && f64::is_finite(x) => x,
            _ => usage(&format!("bad number of seconds `{s}`")),
        },
    };
    let budget = Duration::from_secs_f64(seconds);
    match args[0].as_str() {
        "imperative" => report(
            "imperative",
            benchmarks::imperative::prop,
            &Reference::parse(IMPERATIVE_RUNS, IMPERATIVE_SECONDS),
            budget,
        ),
        "typecheck" => report(
            "typecheck",
            benchmarks::typecheck::prop,
            &Reference::parse(TYPECHECK_RUNS, TYPECHECK_SECONDS),
            budget,
        ),
        b => usage(&format!("unknown benchmark `{b}`")),
    }
}

/// Measures every strategy and prints the tables.
fn report<T: Enumerable>(
    name: &str,
    prop: impl for<'a> Fn(Lazy<'a, T>) -> Cool<'a>,
    reference: &Reference,
    budget: Duration,
) {
    println!(
        "{name}: all mode, {:.1} s per strategy (reference: the peer, {REFERENCE_BUDGET:.0} s per strategy)",
        budget.as_secs_f64()
    );
    let cols: Vec<Column> = Strategy::ALL
        .iter()
        .map(|&s| {
            let c = measure(&prop, s, budget);
            match c.largest() {
                Some(b) => eprintln!("{name} {s}: bounds 0..={b} finished"),
                None => eprintln!("{name} {s}: no bound finished"),
            }
            c
        })
        .collect();
    let ours_last = cols.iter().filter_map(Column::largest).max().unwrap_or(0);
    // Up to the first bound nobody finished: ours or the reference's.
    let last = (ours_last + 1).max(reference.runs.len() - 1);
    // The seconds tables start where the reference's does.
    let first_timed = reference.seconds.first().map_or(0, |r| r.0);
    let mut differ = vec![];

    // Runs per bound, ours (with the reference's where they differ).
    let mut header: Vec<String> = ["bound", "worst", "hits"].map(String::from).to_vec();
    header.extend(names());
    let mut body = vec![];
    for b in 0..=last {
        let worst = neatcheck::count::count_up_to::<T>(b).to_string();
        let hits: Vec<u64> = cols
            .iter()
            .filter_map(|c| c.bounds.get(b))
            .map(|r| r.1)
            .collect();
        let hit_cell = match hits.first() {
            None => "X".to_string(),
            Some(h) if hits.iter().all(|x| x == h) => h.to_string(),
            Some(_) => format!("{hits:?}"),
        };
        let mut row = vec![b.to_string(), worst, hit_cell];
        for (k, c) in cols.iter().enumerate() {
            row.push(match c.bounds.get(b) {
                None => "X".to_string(),
                Some(&(runs, hits, _)) => {
                    let same_runs = !matches!(reference.runs(b, k), Some(r) if r != runs);
                    let same_hits = !matches!(reference.runs.get(b), Some(r) if r.1 != hits);
                    if same_runs && same_hits {
                        runs.to_string()
                    } else {
                        differ.push(format!("{} bound {b}", Strategy::ALL[k]));
                        format!("{runs}*")
                    }
                }
            });
        }
        body.push(row);
    }
    println!("\nRuns per bound, ours (X: not finished; *: differs from the reference)\n");
    println!("{}", table(&header, &body));

    let mut body = vec![];
    for b in 0..=last.min(reference.runs.len() - 1) {
        let (worst, hits, runs) = &reference.runs[b];
        let mut row = vec![b.to_string(), worst.clone(), hits.to_string()];
        row.extend(
            runs.iter()
                .map(|r| r.map_or("X".to_string(), |r| r.to_string())),
        );
        body.push(row);
    }
    println!("\nRuns per bound, reference\n");
    println!("{}", table(&header, &body));
    if differ.is_empty() {
        println!("\nEvery finished bound matches the reference (runs and hits).");
    } else {
        println!("\nDiffering from the reference: {}", differ.join(", "));
    }

    // Cumulative seconds.
    let mut header = vec!["bound".to_string()];
    header.extend(names());
    let mut body = vec![];
    for b in first_timed.min(ours_last)..=last {
        let mut row = vec![b.to_string()];
        row.extend(cols.iter().map(|c| {
            c.bounds
                .get(b)
                .map_or("X".to_string(), |r| format!("{:.2}", r.2))
        }));
        body.push(row);
    }
    println!("\nCumulative seconds at the end of each bound, ours\n");
    println!("{}", table(&header, &body));
    let mut body = vec![];
    for (b, secs) in &reference.seconds {
        let mut row = vec![b.to_string()];
        row.extend(
            secs.iter()
                .map(|s| s.map_or("X".to_string(), |s| format!("{s:.2}"))),
        );
        body.push(row);
    }
    println!("\nCumulative seconds at the end of each bound, reference\n");
    println!("{}", table(&header, &body));

    let largest = |f: &dyn Fn(usize) -> Option<usize>| {
        Strategy::ALL
            .iter()
            .enumerate()
            .map(|(k, s)| format!("{s} {}", f(k).map_or("none".to_string(), |b| b.to_string())))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!(
        "\nlargest bound completed: {}",
        largest(&|k| cols[k].largest())
    );
    println!(
        "reference ({REFERENCE_BUDGET:.0} s):       {}",
        largest(&|k| reference.largest(k))
    );

    // Speed: runs per second over bounds 0..=B, B the largest bound both
    // completed (and for which the reference lists its time).
    println!(
        "\nruns per second, ours vs reference (cumulative runs of bounds 0..=B over the cumulative seconds at B; B: the largest bound both completed):"
    );
    for (k, s) in Strategy::ALL.iter().enumerate() {
        let common = match (cols[k].largest(), reference.largest(k)) {
            (Some(a), Some(b)) => a.min(b),
            _ => {
                println!("  {:>3}: no common bound", s.name());
                continue;
            }
        };
        let Some(ref_secs) = reference.seconds(common, k) else {
            println!(
                "  {:>3}: B = {common}: the reference lists no time for it",
                s.name()
            );
            continue;
        };
        let ours_runs: u64 = cols[k].bounds[..=common].iter().map(|r| r.0).sum();
        let ref_runs: u64 = (0..=common).filter_map(|b| reference.runs(b, k)).sum();
        let ours_secs = cols[k].bounds[common].2;
        let ours_rate = ours_runs as f64 / ours_secs;
        let ref_rate = ref_runs as f64 / ref_secs;
        println!(
            "  {:>3}: B = {common}: ours {ours_runs} runs in {ours_secs:.2} s ({:.0} k/s), reference {ref_runs} runs in {ref_secs:.2} s ({:.0} k/s): ratio {:.2}",
            s.name(),
            ours_rate / 1e3,
            ref_rate / 1e3,
            ours_rate / ref_rate
        );
    }
}

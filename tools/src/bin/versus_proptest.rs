//! What a check costs and what it finds: neatcheck's default and deep
//! settings against proptest's defaults, side by side in one process, on
//! the realistic properties of `neatcheck_tools::green` (each with its
//! planted bug and with the fix).
//!
//! ```text
//! cargo run --release -p neatcheck-tools --bin versus_proptest -- [--deep] [--only NAME] [--markdown]
//! cargo run --profile profiling -p neatcheck-tools --bin versus_proptest -- --repeat N [--only NAME]
//! ```
//!
//! The second form only repeats neatcheck's default check of each fixed
//! property N times, each on a fresh thread, and prints its CPU time per
//! check (a loop for `perf`, or for `valgrind --tool=cachegrind`, whose
//! instruction counts compare two builds on a noisy host).
//!
//! Per property and tool: whether it found the bug, the thread CPU time of
//! the check (the least of several, each on a fresh thread as `cargo test`
//! runs a test: see `measured`), the counterexample and whether it is minimal (neatcheck:
//! proven by its report; proptest: its shrunk value compared with
//! neatcheck's proven smallest size, `=` when of that size). The summary
//! gives the median and largest ratio of neatcheck's CPU time to
//! proptest's on the passing (fixed) properties, and the bugs each found.
//! Both tools run deterministically (neatcheck by design; proptest on its
//! ChaCha generator with a fixed seed, failure persistence off), so the
//! table is the same on every run but for the times.

use neatcheck::check::{Config as NcConfig, Found, Property};
use neatcheck::Enumerable;
use neatcheck_tools::benchmarks::timing::cpu_now;
use neatcheck_tools::green::*;
use proptest::prelude::*;
use proptest::test_runner::{Config as PtConfig, RngAlgorithm, TestError, TestRng, TestRunner};
use std::fmt::Debug;
use std::time::Duration;

/// One tool's result on one property.
struct Cell {
    found: bool,
    time: Duration,
    counterexample: String,
    /// Size of the counterexample (neatcheck's sizes), where known.
    size: Option<u64>,
    /// Proven smallest (neatcheck only).
    minimal: bool,
    note: String,
}

fn neat<T: Enumerable + Debug + Send, M>(
    config: &NcConfig,
    prop: impl Property<T, M> + Sync,
) -> Cell {
    let start = cpu_now();
    let result = config.try_check(prop);
    let time = cpu_now() - start;
    match result {
        Ok(summary) => Cell {
            found: false,
            time,
            counterexample: String::new(),
            size: None,
            minimal: false,
            note: format!("{} runs + {} random", summary.runs, summary.random),
        },
        Err(f) => {
            let how = match f.found {
                Found::Exhaustive => "exhaustive",
                Found::Random { .. } => "random",
                Found::Depth { .. } => "depth",
                Found::Replay { .. } => "replay",
                Found::EdgeSweep { .. } => "edges",
                _ => "other",
            };
            let shown = format!("{:?}", f.value);
            Cell {
                found: true,
                time,
                counterexample: shorten(&shown),
                size: Some(f.size),
                minimal: f.is_minimal(),
                note: how.to_string(),
            }
        }
    }
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 48 {
        format!("{}…", s.chars().take(47).collect::<String>())
    } else {
        s.to_string()
    }
}

fn prop<S: Strategy>(strategy: S, test: impl Fn(&S::Value) -> bool) -> Cell
where
    S::Value: Debug,
{
    let config = PtConfig {
        failure_persistence: None,
        ..PtConfig::default()
    };
    let rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let start = cpu_now();
    let result = runner.run(&strategy, |v| {
        if test(&v) {
            Ok(())
        } else {
            Err(TestCaseError::fail("property returned false"))
        }
    });
    let time = cpu_now() - start;
    match result {
        Ok(()) => Cell {
            found: false,
            time,
            counterexample: String::new(),
            size: None,
            minimal: false,
            note: format!("{} cases", runner.config().cases),
        },
        Err(TestError::Fail(_, value)) => Cell {
            found: true,
            time,
            counterexample: shorten(&format!("{value:?}")),
            size: None,
            minimal: false,
            note: "shrunk".into(),
        },
        Err(TestError::Abort(reason)) => Cell {
            found: false,
            time,
            counterexample: String::new(),
            size: None,
            minimal: false,
            note: format!("aborted: {}", reason.message()),
        },
    }
}

/// A property as both tools run it, with its bug planted or fixed.
struct Row {
    name: &'static str,
    bug: bool,
    default: Cell,
    deep: Option<Cell>,
    proptest: Cell,
}

struct Bench {
    deep: bool,
    /// `--repeat N`: only neatcheck's default check of the fixed variants,
    /// N times each (a loop to profile), no table.
    repeat: Option<u32>,
    only: Option<String>,
    rows: Vec<Row>,
    default_config: NcConfig,
    deep_config: NcConfig,
}

impl Bench {
    fn wants(&self, name: &str) -> bool {
        self.only.as_deref().is_none_or(|o| name.contains(o))
    }

    /// Runs a property (as `check` would take it) and proptest's strategy
    /// for it, with the bug planted and fixed.
    fn both<T, M, P, S>(
        &mut self,
        name: &'static str,
        nc: impl Fn(bool) -> P + Sync,
        strategy: impl Fn() -> S + Sync,
        pt: impl Fn(&S::Value, bool) -> bool + Sync,
    ) where
        T: Enumerable + Debug + Send,
        P: Property<T, M> + Sync,
        S: Strategy,
        S::Value: Debug,
    {
        if !self.wants(name) {
            return;
        }
        if let Some(n) = self.repeat {
            // Each on a fresh thread, as `measured` and `cargo test` run them.
            let total: Duration = (0..n)
                .map(|_| measured_once(|| neat(&self.default_config, nc(false))).time)
                .sum();
            println!("{name}: {:.3} ms per check", ms_f(total) / f64::from(n));
            return;
        }
        for bug in [true, false] {
            let default = measured(|| neat(&self.default_config, nc(bug)));
            let deep = self
                .deep
                .then(|| measured(|| neat(&self.deep_config, nc(bug))));
            let proptest = measured(|| prop(strategy(), |v| pt(v, bug)));
            let row = Row {
                name,
                bug,
                default,
                deep,
                proptest,
            };
            print_row(&row);
            self.rows.push(row);
        }
    }
}

/// How many times each cell is measured; it shows the least time.
const MEASUREMENTS: usize = 5;
/// Cells whose least time is below this are measured
/// [`MORE_MEASUREMENTS`] times more: a check of 0.1 ms varies by half from
/// run to run on a shared host.
const SHORT: Duration = Duration::from_millis(5);
const MORE_MEASUREMENTS: usize = 10;

/// The cell of `run`'s least time among [`MEASUREMENTS`] runs, each on a
/// fresh thread: `cargo test` runs each test on its own thread, so what a
/// check caches per thread (its type's grammar and counts) is built again
/// by every test, and a measurement on a warm thread would leave it out.
/// The least, not the median: on a shared host, other work only ever adds
/// to a run's CPU time (cache misses, frequency). Both tools are
/// deterministic, so the runs agree on all but their times.
fn measured(run: impl Fn() -> Cell + Sync) -> Cell {
    let mut cells: Vec<Cell> = (0..MEASUREMENTS).map(|_| measured_once(&run)).collect();
    if cells.iter().map(|c| c.time).min() < Some(SHORT) {
        cells.extend((0..MORE_MEASUREMENTS).map(|_| measured_once(&run)));
    }
    cells.sort_by_key(|c| c.time);
    cells.swap_remove(0)
}

/// `run`'s cell, run on a fresh thread.
fn measured_once(run: impl Fn() -> Cell + Sync) -> Cell {
    std::thread::scope(|s| s.spawn(&run).join().expect("a measured run panicked"))
}

fn ms_f(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1e3)
}

fn cell_text(c: &Cell, smallest: Option<u64>) -> String {
    if !c.found {
        return format!("pass {} ms ({})", ms(c.time), c.note);
    }
    let minimal = match (c.minimal, c.size, smallest) {
        (true, _, _) => "minimal",
        (false, Some(s), Some(m)) if s == m => "= smallest",
        (false, Some(_), _) => "not proven minimal",
        (false, None, _) => "?",
    };
    format!(
        "FOUND {} ms {} [{}, {minimal}]",
        ms(c.time),
        c.counterexample,
        c.note
    )
}

fn print_row(r: &Row) {
    let smallest = [Some(&r.default), r.deep.as_ref()]
        .into_iter()
        .flatten()
        .filter(|c| c.minimal)
        .find_map(|c| c.size);
    let deep = r
        .deep
        .as_ref()
        .map_or(String::new(), |d| format!(" | {}", cell_text(d, smallest)));
    println!(
        "| {} | {} | {}{deep} | {} |",
        r.name,
        if r.bug { "bug" } else { "fixed" },
        cell_text(&r.default, smallest),
        cell_text(&r.proptest, smallest),
    );
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    if xs.is_empty() {
        return f64::NAN;
    }
    xs[xs.len() / 2]
}

fn main() {
    // Both tools catch panics; keep their messages off the terminal.
    std::panic::set_hook(Box::new(|_| {}));
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut bench = Bench {
        deep: args.iter().any(|a| a == "--deep"),
        only: args
            .iter()
            .position(|a| a == "--only")
            .and_then(|i| args.get(i + 1).cloned()),
        repeat: args
            .iter()
            .position(|a| a == "--repeat")
            .and_then(|i| args.get(i + 1))
            .map(|n| n.parse().expect("--repeat N: a number of checks")),
        rows: vec![],
        default_config: NcConfig::from_env().regressions(false),
        deep_config: NcConfig::deep().regressions(false),
    };
    println!(
        "| property | variant | neatcheck default{} | proptest (256 cases) |",
        if bench.deep { " | neatcheck deep" } else { "" }
    );
    println!("|---|---|---|{}---|", if bench.deep { "---|" } else { "" });

    run_all(&mut bench);
    if bench.repeat.is_some() {
        return;
    }

    let fixed: Vec<&Row> = bench.rows.iter().filter(|r| !r.bug).collect();
    let ratios: Vec<f64> = fixed
        .iter()
        .map(|r| r.default.time.as_secs_f64() / r.proptest.time.as_secs_f64().max(1e-6))
        .collect();
    let bugs: Vec<&Row> = bench.rows.iter().filter(|r| r.bug).collect();
    let found = |f: &dyn Fn(&Row) -> bool| bugs.iter().filter(|r| f(r)).count();
    println!();
    println!(
        "passing properties: {}; neatcheck default / proptest CPU time: median {:.1}x, largest {:.1}x",
        fixed.len(),
        median(ratios.clone()),
        ratios.iter().copied().fold(0.0, f64::max)
    );
    let total = |f: &dyn Fn(&Row) -> Duration| -> f64 {
        fixed.iter().map(|r| f(r).as_secs_f64()).sum::<f64>() * 1e3
    };
    println!(
        "passing properties' total CPU: neatcheck default {:.0} ms, proptest {:.0} ms{}",
        total(&|r| r.default.time),
        total(&|r| r.proptest.time),
        if bench.deep {
            format!(
                ", neatcheck deep {:.0} ms",
                total(&|r| r.deep.as_ref().map_or(Duration::ZERO, |d| d.time))
            )
        } else {
            String::new()
        }
    );
    println!(
        "bugs found (of {}): neatcheck default {} ({} proven minimal), proptest {}{}",
        bugs.len(),
        found(&|r| r.default.found),
        found(&|r| r.default.found && r.default.minimal),
        found(&|r| r.proptest.found),
        if bench.deep {
            format!(
                ", neatcheck deep {}",
                found(&|r| r.deep.as_ref().is_some_and(|d| d.found))
            )
        } else {
            String::new()
        }
    );
    let false_alarms = fixed
        .iter()
        .filter(|r| r.default.found || r.proptest.found || r.deep.as_ref().is_some_and(|d| d.found))
        .count();
    if false_alarms > 0 {
        println!("FALSE ALARMS on fixed properties: {false_alarms}");
        std::process::exit(1);
    }
}

fn vec_of<S: Strategy>(s: S) -> impl Strategy<Value = Vec<S::Value>> {
    proptest::collection::vec(s, 0..100)
}

fn run_all(b: &mut Bench) {
    // Numbers.
    b.both(
        "varint length table (2^42)",
        |bug| move |x: u64| varint_len(x, bug) == varint(x).len(),
        any::<u64>,
        |&x, bug| varint_len(x, bug) == varint(x).len(),
    );
    b.both(
        "parse_i64 round trip (i64::MIN)",
        |bug| move |x: i64| parse_i64(&x.to_string(), bug) == Some(x),
        any::<i64>,
        |&x, bug| parse_i64(&x.to_string(), bug) == Some(x),
    );
    b.both(
        "spatial hash cell (negative coordinates)",
        |bug| move |x: i32, y: i32| in_own_cell((x, y), bug),
        || (any::<i32>(), any::<i32>()),
        |&p, bug| in_own_cell(p, bug),
    );
    b.both(
        "human-readable bytes below 1024",
        |bug| move |n: u64| human_bytes_in_range(n, bug),
        any::<u64>,
        |&n, bug| human_bytes_in_range(n, bug),
    );
    b.both(
        "calendar ordinal round trip (year 0, 400 rule)",
        |bug| move |y: u16, d: u16| ordinal_round_trip((y, d), bug),
        || (any::<u16>(), any::<u16>()),
        |&p, bug| ordinal_round_trip(p, bug),
    );
    b.both(
        "midpoint between its arguments (u32)",
        |bug| {
            move |a: u32, c: u32| {
                let m = midpoint(a, c, bug);
                a.min(c) <= m && m <= a.max(c)
            }
        },
        || (any::<u32>(), any::<u32>()),
        |&(a, c), bug| {
            let m = midpoint(a, c, bug);
            a.min(c) <= m && m <= a.max(c)
        },
    );
    b.both(
        "saturating byte (i32 past 255)",
        |bug| move |x: i32| i32::from(to_byte(x, bug)) == x.clamp(0, 255),
        any::<i32>,
        |&x, bug| i32::from(to_byte(x, bug)) == x.clamp(0, 255),
    );
    b.both(
        "magnitude (i32::MIN panics)",
        |bug| move |x: i32| u64::from(magnitude(x, bug)) == x.unsigned_abs() as u64,
        any::<i32>,
        |&x, bug| u64::from(magnitude(x, bug)) == x.unsigned_abs() as u64,
    );

    // Floats.
    b.both(
        "sort floats with NaN",
        |bug| move |xs: Vec<f64>| floats_sorted(&xs, bug),
        || vec_of(any::<f64>()),
        |xs, bug| floats_sorted(xs, bug),
    );
    b.both(
        "mean of two finite floats is finite",
        |bug| move |a: f64, c: f64| mean_finite((a, c), bug),
        || (any::<f64>(), any::<f64>()),
        |&p, bug| mean_finite(p, bug),
    );

    // Text.
    b.both(
        "word wrap with tabs",
        |bug| move |t: String, w: u8| wrap_fits((t, w), bug),
        || (any::<String>(), any::<u8>()),
        |(t, w), bug| wrap_fits((t.clone(), *w), bug),
    );
    b.both(
        "prefix of 3 bytes (UTF-8 boundary)",
        |bug| move |s: String| prefix3(&s, bug).len() <= 3,
        any::<String>,
        |s, bug| prefix3(s, bug).len() <= 3,
    );
    b.both(
        "name record of 32 bytes (long names)",
        |bug| move |s: String| name_record(&s, bug).len() == 32,
        any::<String>,
        |s, bug| name_record(s, bug).len() == 32,
    );
    b.both(
        "escape round trip (backslash n)",
        |bug| move |s: String| unescape(&escape(&s, bug)) == s,
        any::<String>,
        |s, bug| unescape(&escape(s, bug)) == *s,
    );
    b.both(
        "run-length round trip (runs past 255)",
        |bug| move |xs: Vec<u8>| run_lengths_round_trip(&xs, bug),
        || vec_of(any::<u8>()),
        |xs, bug| run_lengths_round_trip(xs, bug),
    );

    // Collections.
    b.both(
        "lower_bound with duplicates",
        |bug| {
            move |xs: Vec<u8>, x: u8| {
                neatcheck::implies(sorted(&xs), || lower_bound_agrees(&xs, x, bug))
            }
        },
        || {
            (
                vec_of(any::<u8>()).prop_map(|mut v| {
                    v.sort_unstable();
                    v
                }),
                any::<u8>(),
            )
        },
        |(xs, x), bug| lower_bound_agrees(xs, *x, bug),
    );
    b.both(
        "serializer count as u8 (256 items)",
        |bug| move |xs: Vec<u16>| serialize_round_trip(&xs, bug),
        || vec_of(any::<u16>()),
        |xs, bug| serialize_round_trip(xs, bug),
    );
    b.both(
        "sorted insert keeps duplicates",
        |bug| {
            move |x: u8, xs: Vec<u8>| {
                neatcheck::implies(sorted(&xs), || {
                    let ys = sorted_insert(x, &xs, bug);
                    ys.len() == xs.len() + 1 && sorted(&ys)
                })
            }
        },
        || {
            (
                any::<u8>(),
                vec_of(any::<u8>()).prop_map(|mut v| {
                    v.sort_unstable();
                    v
                }),
            )
        },
        |(x, xs), bug| {
            let ys = sorted_insert(*x, xs, bug);
            ys.len() == xs.len() + 1 && sorted(&ys)
        },
    );
    b.both(
        "chunks of 3 round trip",
        |bug| move |xs: Vec<u8>| chunks_round_trip(&xs, bug),
        || vec_of(any::<u8>()),
        |xs, bug| chunks_round_trip(xs, bug),
    );
    b.both(
        "top k keeps duplicates",
        |bug| move |xs: Vec<u8>, k: u8| top_k_sound((xs, k), bug),
        || (vec_of(any::<u8>()), any::<u8>()),
        |(xs, k), bug| top_k_sound((xs.clone(), *k), bug),
    );

    b.both(
        "sorted insert keeps duplicates (lazy precondition)",
        |bug| {
            move |x: neatcheck::Lazy<'_, u8>, xs: neatcheck::Lazy<'_, Vec<u8>>| {
                neatcheck::implies(lazy_sorted(xs), || {
                    let (x, xs) = (x.get(), xs.force());
                    let ys = sorted_insert(x, &xs, bug);
                    ys.len() == xs.len() + 1 && sorted(&ys)
                })
            }
        },
        || {
            (
                any::<u8>(),
                vec_of(any::<u8>()).prop_map(|mut v| {
                    v.sort_unstable();
                    v
                }),
            )
        },
        |(x, xs), bug| {
            let ys = sorted_insert(*x, xs, bug);
            ys.len() == xs.len() + 1 && sorted(&ys)
        },
    );

    // Models.
    b.both(
        "LRU cache refreshes on put",
        |bug| move |ops: Vec<CacheOp>| lru_agrees(&ops, bug),
        || {
            vec_of(prop_oneof![
                (0u8..=3, 0u8..=3).prop_map(|(k, v)| CacheOp::Put(k, v)),
                (0u8..=3).prop_map(CacheOp::Get),
            ])
        },
        |ops, bug| lru_agrees(ops, bug),
    );
    b.both(
        "ring queue wraps its head",
        |bug| move |ops: Vec<QueueOp>| ring_agrees(&ops, bug),
        || {
            vec_of(prop_oneof![
                (0u8..=1).prop_map(QueueOp::Push),
                Just(QueueOp::Pop)
            ])
        },
        |ops, bug| ring_agrees(ops, bug),
    );
    b.both(
        "free-list allocator (5 operations)",
        |bug| move |ops: Vec<AllocOp>| allocator_unique(&ops, bug),
        || {
            vec_of(prop_oneof![
                Just(AllocOp::Alloc),
                (0u8..=3).prop_map(AllocOp::Free)
            ])
        },
        |ops, bug| allocator_unique(ops, bug),
    );
    b.both(
        "account never negative",
        |bug| move |ops: Vec<AccountOp>| account_never_negative(&ops, bug),
        || {
            vec_of(prop_oneof![
                (0u8..=7).prop_map(AccountOp::Deposit),
                (0u8..=7).prop_map(AccountOp::Withdraw),
            ])
        },
        |ops, bug| account_never_negative(ops, bug),
    );
    b.both(
        "search tree map with i64 keys (overwrite)",
        |bug| move |ops: Vec<MapOp>| bst_agrees(&ops, bug),
        || {
            vec_of(prop_oneof![
                (any::<i64>(), any::<u8>()).prop_map(|(k, v)| MapOp::Insert(k, v)),
                any::<i64>().prop_map(MapOp::Remove),
            ])
        },
        |ops, bug| bst_agrees(ops, bug),
    );

    // Recursive data.
    b.both(
        "constant folding keeps the value",
        |bug| move |e: Expr| fold_keeps_value(&e, bug),
        || {
            let leaf = prop_oneof![Just(Expr::X), (0u8..=2).prop_map(Expr::Lit)];
            leaf.prop_recursive(4, 32, 2, |inner| {
                prop_oneof![
                    (inner.clone(), inner.clone())
                        .prop_map(|(a, c)| Expr::Add(Box::new(a), Box::new(c))),
                    (inner.clone(), inner).prop_map(|(a, c)| Expr::Mul(Box::new(a), Box::new(c))),
                ]
            })
        },
        fold_keeps_value,
    );
    b.both(
        "search tree insert keeps order",
        |bug| move |x: u8, t: Tree| tree_insert_keeps_order((x, t), bug),
        || {
            let leaf = Just(Tree::Leaf);
            (
                any::<u8>(),
                leaf.prop_recursive(4, 32, 2, |inner| {
                    (inner.clone(), any::<u8>(), inner)
                        .prop_map(|(l, k, r)| Tree::Node(Box::new(l), k, Box::new(r)))
                }),
            )
        },
        |(x, t), bug| tree_insert_keeps_order((*x, t.clone()), bug),
    );
    b.both(
        "search tree insert keeps order (lazy precondition)",
        |bug| {
            move |x: neatcheck::Lazy<'_, u8>, t: neatcheck::Lazy<'_, Tree>| {
                neatcheck::implies(lazy_search_tree(t), || {
                    is_search_tree(&tree_insert(&t.force(), x.get(), bug))
                })
            }
        },
        || {
            // The typical proptest way to a valid input: build it by
            // inserting keys.
            (
                any::<u8>(),
                vec_of(any::<u8>()).prop_map(|keys| {
                    keys.iter()
                        .fold(Tree::Leaf, |t, &k| tree_insert(&t, k, false))
                }),
            )
        },
        |(x, t), bug| is_search_tree(&tree_insert(t, *x, bug)),
    );
}

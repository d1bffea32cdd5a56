//! Time to the first counterexample, the check driver with and without the
//! portfolio (`Config::portfolio`: a depth-bounded search interleaved with
//! the size-bounded one), on the counterexample benchmarks of
//! `docs/benchmarks/`, on properties whose counterexample is long but
//! shallow, and on the programs after Lazy SmallCheck's examples
//! (`benchmarks::small_programs`).
//!
//! ```text
//! cargo run --release -p neatcheck-tools --bin first_ctrex -- [name ...]
//! FIRST_CTREX_ORDERS=deep,portfolio cargo run ...   # only these orders
//! ```
//!
//! One line per property and order: the property runs and the seconds of
//! thread CPU time until the first failing run (whichever phase or order
//! made it), then until the check's report (every run, shrinking and the
//! search for a smaller counterexample included; `passed` when the budget
//! ran out without one), the reported counterexample's size, how it was
//! found (`size`: by the size order, minimal; `depth`: by the depth order,
//! shrunk; `random`, `edges`: by the random phase or the edge sweep,
//! shrunk) and whether it is proven size-minimal. Four orders per
//! property: `size` alone and `portfolio`, with no run budget and no random
//! phase (the report is then always the size order's, proven minimal); and
//! `default` and `deep`, the check as users get it under each profile
//! (random phase, edge sweep, run budget; the deep one with the portfolio,
//! past whose million runs a counterexample of the depth order is shrunk
//! and reported, saying whether it is proven minimal). The last column is
//! the original NEAT's seconds to its counterexample where
//! `docs/benchmarks/` gives them (the reference machine's, strategy D): a
//! yardstick, not a measurement of this machine.

use neatcheck::check::{Config, Found};
use neatcheck::{Enumerable, Lazy};
use neatcheck_tools::benchmarks::{lambda, redblack, regexp, small_programs, timing::cpu_now};
use std::collections::BTreeSet;
use std::fmt::Debug;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

/// How a row searches: the size order alone or the portfolio, both with
/// no run budget and no random phase; or a check as users get it, under
/// the default profile or the deep one (a million runs, the portfolio, past
/// whose budget a counterexample of the depth order is reported shrunk,
/// proven minimal or not).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    Size,
    Portfolio,
    Default,
    Deep,
}

/// What one check measured.
struct Row {
    first_runs: u64,
    first_secs: f64,
    final_runs: u64,
    final_secs: f64,
    size: u64,
    how: &'static str,
    minimal: bool,
}

/// Runs the check of `prop` with the portfolio on or off, timing the first
/// failing run and the report.
fn measure<T: Enumerable + Debug + Send>(
    prop: &(impl Fn(Lazy<'_, T>) -> bool + Sync),
    order: Order,
) -> Row {
    let calls = AtomicU64::new(0);
    let first: OnceLock<(u64, Duration)> = OnceLock::new();
    let start = cpu_now();
    let counted = |x: Lazy<'_, T>| {
        let n = calls.fetch_add(1, Ordering::Relaxed) + 1;
        let holds = prop(x);
        if !holds {
            first.get_or_init(|| (n, cpu_now() - start));
        }
        holds
    };
    let config = match order {
        // The profiles as users get them: random phase, edge sweep, run
        // budget; nothing turned off but the regression file.
        Order::Default => Config::default(),
        Order::Deep => Config::deep(),
        Order::Size | Order::Portfolio => Config::default()
            .samples(0, 0)
            .runs(u64::MAX)
            .max_size(usize::MAX)
            .portfolio(order == Order::Portfolio),
    }
    .regressions(false)
    .run_timeout(None);
    let result = config.try_check(counted);
    let final_secs = (cpu_now() - start).as_secs_f64();
    let final_runs = calls.load(Ordering::Relaxed);
    let Err(c) = result else {
        return Row {
            first_runs: 0,
            first_secs: f64::NAN,
            final_runs,
            final_secs,
            size: 0,
            how: "passed",
            minimal: false,
        };
    };
    let (first_runs, first_time) = *first.get().expect("a run failed");
    Row {
        first_runs,
        first_secs: first_time.as_secs_f64(),
        final_runs,
        final_secs,
        size: c.size,
        how: match c.found {
            Found::Exhaustive => "size",
            Found::Depth { .. } => "depth",
            Found::Random { .. } => "random",
            Found::Replay { .. } => "replay",
            Found::EdgeSweep { .. } => "edges",
            _ => "other",
        },
        minimal: c.is_minimal(),
    }
}

fn order_name(order: Order) -> &'static str {
    match order {
        Order::Size => "size",
        Order::Portfolio => "portfolio",
        Order::Default => "default",
        Order::Deep => "deep",
    }
}

fn all_distinct<X: PartialEq>(xs: &[X]) -> bool {
    (1..xs.len()).all(|i| !xs[..i].contains(&xs[i]))
}

/// "No list of six distinct numbers" (lazy: the length first).
fn six_distinct(xs: Lazy<'_, Vec<u8>>) -> bool {
    if xs.len() < 6 {
        return true;
    }
    let v: Vec<u8> = xs.iter().map(|x| x.get()).collect();
    !all_distinct(&v)
}

/// "A tokenizer breaks on five distinct characters" (eager, as a property
/// over a plain `String` is).
fn five_chars(s: Lazy<'_, String>) -> bool {
    let s = s.force();
    s.chars().collect::<BTreeSet<_>>().len() < 5
}

/// "No list of seven nonzero numbers" (lazy).
fn seven_nonzero(xs: Lazy<'_, Vec<u8>>) -> bool {
    xs.iter().take(7).count() < 7 || xs.iter().any(|x| x.get() == 0)
}

fn main() {
    let only: Vec<String> = std::env::args().skip(1).collect();
    // `FIRST_CTREX_ORDERS=deep,default` measures only those orders (the
    // size order alone takes minutes on huffman-opt).
    let orders: Vec<String> = std::env::var("FIRST_CTREX_ORDERS")
        .map(|v| v.split(',').map(str::to_string).collect())
        .unwrap_or_default();
    println!(
        "{:<16} {:<9} {:>10} {:>9} {:>10} {:>9} {:>5} {:<6} {:<10} neat s",
        "property", "order", "runs1st", "s1st", "runsFinal", "sFinal", "size", "how", "minimal"
    );
    let row = |name: &str, f: &dyn Fn(Order) -> Row| {
        let neat = match name {
            "lambda" => "0.089",
            "redblack" => "0.453",
            "regexp" => "22.973",
            _ => "",
        };
        if !only.is_empty() && !only.iter().any(|o| o == name) {
            return;
        }
        for order in [Order::Size, Order::Portfolio, Order::Default, Order::Deep] {
            if !orders.is_empty() && !orders.iter().any(|o| o == order_name(order)) {
                continue;
            }
            let r = f(order);
            println!(
                "{:<16} {:<9} {:>10} {:>9.4} {:>10} {:>9.4} {:>5} {:<6} {:<10} {}",
                name,
                order_name(order),
                r.first_runs,
                r.first_secs,
                r.final_runs,
                r.final_secs,
                r.size,
                r.how,
                match (r.how, r.minimal) {
                    ("passed", _) => "-",
                    (_, true) => "proven",
                    (_, false) => "not proven",
                },
                neat,
            );
        }
    };
    row("lambda", &|p| measure(&lambda::prop, p));
    row("redblack", &|p| measure(&redblack::prop, p));
    row("regexp", &|p| measure(&regexp::prop, p));
    row("six-distinct", &|p| measure(&six_distinct, p));
    row("five-chars", &|p| measure(&five_chars, p));
    row("seven-nonzero", &|p| measure(&seven_nonzero, p));
    row("listset-shallow", &|p| {
        measure(&small_programs::listset_shallow, p)
    });
    row("listset-fast", &|p| {
        measure(&small_programs::listset_fast_path, p)
    });
    row("huffman-opt", &|p| {
        measure(&small_programs::huffman_optimal, p)
    });
    row("sumpuz-carry", &|p| {
        measure(&small_programs::sumpuz_sound, p)
    });
    row("countdown-sq", &|p| {
        measure(&small_programs::countdown_complete, p)
    });
    row("turner", &|p| {
        measure(&small_programs::turner_abstraction, p)
    });
}

//! neatcheck against proptest on the same planted bugs: numeric boundaries,
//! strings, operation sequences against a model, recursive data.
//!
//! Each tool runs once per property with its defaults (neatcheck:
//! `Config::default()`; proptest: `Config::default()`, 256 cases, on the
//! deterministic ChaCha generator, failure persistence off so that runs do
//! not feed each other), so the table is the same on every run but the
//! times. Prints a markdown table of verdicts, times to failure and the
//! (shrunk) counterexamples:
//!
//! ```text
//! cargo run --release -p neatcheck-tools --bin versus_proptest
//! ```

use neatcheck::check::{run_check, Config as NcConfig, Found, Property};
use neatcheck::Enumerable;
use proptest::prelude::*;
use proptest::test_runner::{Config as PtConfig, RngAlgorithm, TestError, TestRng, TestRunner};
use std::collections::VecDeque;
use std::fmt::Debug;
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------
// Family 3a: an LRU cache of capacity 3 whose `put` on a present key updates
// the value but forgets to make the key the most recent one.

const LRU_CAP: usize = 3;

/// Operations on a cache with keys and values in `0..=3`.
#[derive(Enumerable, Debug, Clone)]
enum Op {
    Put(
        #[enumerable(with = "neatcheck::space::range(0, 3, |n| n as u8)")] u8,
        #[enumerable(with = "neatcheck::space::range(0, 3, |n| n as u8)")] u8,
    ),
    Get(#[enumerable(with = "neatcheck::space::range(0, 3, |n| n as u8)")] u8),
}

/// Entries from least to most recently used.
#[derive(Default)]
struct Lru {
    entries: Vec<(u8, u8)>,
    /// Whether `put` on a present key refreshes its recency (the fix).
    refresh_on_put: bool,
}

impl Lru {
    fn get(&mut self, key: u8) -> Option<u8> {
        let i = self.entries.iter().position(|&(k, _)| k == key)?;
        let entry = self.entries.remove(i);
        self.entries.push(entry);
        Some(entry.1)
    }

    fn put(&mut self, key: u8, value: u8) {
        if let Some(i) = self.entries.iter().position(|&(k, _)| k == key) {
            if self.refresh_on_put {
                self.entries.remove(i);
                self.entries.push((key, value));
            } else {
                self.entries[i].1 = value;
            }
            return;
        }
        if self.entries.len() == LRU_CAP {
            self.entries.remove(0);
        }
        self.entries.push((key, value));
    }
}

/// Every `get` of the buggy cache agrees with the correct one.
fn lru_agrees(ops: &[Op]) -> bool {
    let mut buggy = Lru::default();
    let mut model = Lru {
        refresh_on_put: true,
        ..Lru::default()
    };
    ops.iter().all(|op| match *op {
        Op::Put(k, v) => {
            buggy.put(k, v);
            model.put(k, v);
            true
        }
        Op::Get(k) => buggy.get(k) == model.get(k),
    })
}

fn op_strategy() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0u8..=3, 0u8..=3).prop_map(|(k, v)| Op::Put(k, v)),
        (0u8..=3).prop_map(Op::Get),
    ]
}

// ---------------------------------------------------------------------------
// Family 3b: a ring-buffer queue of capacity 3 whose `pop` wraps the head
// index modulo 2 instead of 3.

const RING_CAP: usize = 3;

/// Queue operations with pushed values in `0..=1`.
#[derive(Enumerable, Debug, Clone)]
enum QOp {
    Push(#[enumerable(with = "neatcheck::space::range(0, 1, |n| n as u8)")] u8),
    Pop,
}

#[derive(Default)]
struct Ring {
    buf: [u8; RING_CAP],
    head: usize,
    len: usize,
}

impl Ring {
    fn push(&mut self, v: u8) -> bool {
        if self.len == RING_CAP {
            return false;
        }
        self.buf[(self.head + self.len) % RING_CAP] = v;
        self.len += 1;
        true
    }

    fn pop(&mut self) -> Option<u8> {
        if self.len == 0 {
            return None;
        }
        let v = self.buf[self.head];
        self.head = (self.head + 1) % (RING_CAP - 1);
        self.len -= 1;
        Some(v)
    }
}

/// The ring agrees with a bounded `VecDeque` on every push and pop.
fn ring_agrees(ops: &[QOp]) -> bool {
    let mut ring = Ring::default();
    let mut model = VecDeque::new();
    ops.iter().all(|op| match *op {
        QOp::Push(v) => {
            let accepted = model.len() < RING_CAP;
            if accepted {
                model.push_back(v);
            }
            ring.push(v) == accepted
        }
        QOp::Pop => ring.pop() == model.pop_front(),
    })
}

fn qop_strategy() -> impl Strategy<Value = QOp> {
    prop_oneof![(0u8..=1).prop_map(QOp::Push), Just(QOp::Pop)]
}

// ---------------------------------------------------------------------------
// Family 4: arithmetic expressions and a constant folder that keeps folded
// constants in a 3-bit immediate, so it is wrong once a constant reaches 8:
// with literals 0..=2 that takes nesting, e.g. `2 * (2 * 2)`.

#[derive(Enumerable, Debug, Clone, PartialEq)]
enum Expr {
    X,
    Lit(#[enumerable(with = "neatcheck::space::range(0, 2, |n| n as u8)")] u8),
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
}

fn eval(e: &Expr, x: i64) -> i64 {
    match e {
        Expr::X => x,
        Expr::Lit(n) => i64::from(*n),
        Expr::Add(a, b) => eval(a, x).wrapping_add(eval(b, x)),
        Expr::Mul(a, b) => eval(a, x).wrapping_mul(eval(b, x)),
    }
}

fn fold(e: &Expr) -> Expr {
    use Expr::*;
    let imm = |n: u32| Lit((n % 8) as u8);
    match e {
        Add(a, b) => match (fold(a), fold(b)) {
            (Lit(m), Lit(n)) => imm(u32::from(m) + u32::from(n)),
            (Lit(0), e) | (e, Lit(0)) => e,
            (a, b) => Add(Box::new(a), Box::new(b)),
        },
        Mul(a, b) => match (fold(a), fold(b)) {
            (Lit(m), Lit(n)) => imm(u32::from(m) * u32::from(n)),
            (Lit(1), e) | (e, Lit(1)) => e,
            (a, b) => Mul(Box::new(a), Box::new(b)),
        },
        e => e.clone(),
    }
}

fn fold_preserves_value(e: &Expr) -> bool {
    let folded = fold(e);
    (-3..=3).all(|x| eval(e, x) == eval(&folded, x))
}

fn expr_strategy() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![Just(Expr::X), (0u8..=2).prop_map(Expr::Lit)];
    leaf.prop_recursive(4, 32, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::Add(Box::new(a), Box::new(b))),
            (inner.clone(), inner).prop_map(|(a, b)| Expr::Mul(Box::new(a), Box::new(b))),
        ]
    })
}

// ---------------------------------------------------------------------------
// Families 1 and 2: small buggy functions.

/// Absolute value that panics on `i32::MIN` (in release builds too).
fn magnitude(x: i32) -> i32 {
    x.checked_abs().expect("abs overflow")
}

/// The first three bytes: panics when byte 3 is inside a character.
fn prefix3(s: &str) -> &str {
    &s[..s.len().min(3)]
}

// ---------------------------------------------------------------------------
// Running both tools.

/// One tool's result on one property.
struct Cell {
    verdict: String,
    time: Duration,
    counterexample: String,
}

fn neat<T: Enumerable + Debug + Send, M>(prop: impl Property<T, M> + Sync) -> Cell {
    let start = Instant::now();
    let result = run_check(&NcConfig::default(), prop);
    let time = start.elapsed();
    match result {
        Ok(summary) => Cell {
            verdict: "not found".into(),
            time,
            counterexample: format!(
                "— ({} runs, exhausted to size {})",
                summary.runs + summary.random,
                summary.exhausted.map_or("-".into(), |s| s.to_string())
            ),
        },
        Err(f) => {
            let how = match f.found {
                Found::Exhaustive => "exhaustive",
                Found::Random { .. } => "random+shrink",
                Found::Depth { .. } => "depth+shrink",
                Found::Replay { .. } => "replay",
            };
            let minimal = if f.is_minimal() {
                "minimal"
            } else {
                "not proven minimal"
            };
            let kind = if f.panicked { "panic" } else { "false" };
            Cell {
                verdict: format!("**found** ({how}, {kind})"),
                time,
                counterexample: format!("`{:?}` (size {}, {minimal})", f.value, f.size),
            }
        }
    }
}

fn prop<S: Strategy>(strategy: S, test: impl Fn(S::Value) -> bool) -> Cell
where
    S::Value: Debug,
{
    let config = PtConfig {
        failure_persistence: None,
        ..PtConfig::default()
    };
    let rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let start = Instant::now();
    let result = runner.run(&strategy, |v| {
        if test(v) {
            Ok(())
        } else {
            Err(TestCaseError::fail("property returned false"))
        }
    });
    let time = start.elapsed();
    match result {
        Ok(()) => Cell {
            verdict: "not found".into(),
            time,
            counterexample: format!("— ({} cases)", runner.config().cases),
        },
        Err(TestError::Fail(reason, value)) => {
            let kind = if reason.message().contains("returned false") {
                "false"
            } else {
                "panic"
            };
            Cell {
                verdict: format!("**found** (shrunk, {kind})"),
                time,
                counterexample: format!("`{value:?}`"),
            }
        }
        Err(TestError::Abort(reason)) => Cell {
            verdict: format!("aborted: {}", reason.message()),
            time,
            counterexample: "—".into(),
        },
    }
}

fn fmt_time(d: Duration) -> String {
    if d.as_secs_f64() >= 1.0 {
        format!("{:.2} s", d.as_secs_f64())
    } else if d.as_micros() >= 1000 {
        format!("{:.1} ms", d.as_secs_f64() * 1e3)
    } else {
        format!("{} µs", d.as_micros())
    }
}

fn row(family: &str, property: &str, nc: Cell, pt: Cell) {
    let cell = |c: &Cell| format!("{}, {}: {}", c.verdict, fmt_time(c.time), c.counterexample);
    println!(
        "| {family} | `{property}` | {} | {} |",
        cell(&nc),
        cell(&pt)
    );
}

fn main() {
    // Both tools catch panics; keep their messages off the terminal.
    std::panic::set_hook(Box::new(|_| {}));

    println!("| family | property | neatcheck (defaults) | proptest (defaults, 256 cases) |");
    println!("|---|---|---|---|");

    let numeric = "1 numeric";
    row(
        numeric,
        "x < 1 << 40 (u64)",
        neat(|x: u64| x < 1 << 40),
        prop(any::<u64>(), |x| x < 1 << 40),
    );
    row(
        numeric,
        "a.checked_add(b).is_some() (u32)",
        neat(|a: u32, b: u32| a.checked_add(b).is_some()),
        prop((any::<u32>(), any::<u32>()), |(a, b)| {
            a.checked_add(b).is_some()
        }),
    );
    row(
        numeric,
        "(x as i16) as i64 == x (i64)",
        neat(|x: i64| (x as i16) as i64 == x),
        prop(any::<i64>(), |x| (x as i16) as i64 == x),
    );
    row(
        numeric,
        "magnitude(x) >= 0 (i32, panics at MIN)",
        neat(|x: i32| magnitude(x) >= 0),
        prop(any::<i32>(), |x| magnitude(x) >= 0),
    );
    row(
        numeric,
        "x.checked_add(1).is_some() (u8)",
        neat(|x: u8| x.checked_add(1).is_some()),
        prop(any::<u8>(), |x| x.checked_add(1).is_some()),
    );

    let strings = "2 strings";
    row(
        strings,
        "!s.contains(\"ab\")",
        neat(|s: String| !s.contains("ab")),
        prop(any::<String>(), |s| !s.contains("ab")),
    );
    row(
        strings,
        "s.len() < 40",
        neat(|s: String| s.len() < 40),
        prop(any::<String>(), |s| s.len() < 40),
    );
    row(
        strings,
        "prefix3(&s).len() <= 3 (UTF-8 boundary panic)",
        neat(|s: String| prefix3(&s).len() <= 3),
        prop(any::<String>(), |s| prefix3(&s).len() <= 3),
    );

    let model = "3 model";
    row(
        model,
        "LRU cap 3: put does not refresh recency",
        neat(|ops: Vec<Op>| lru_agrees(&ops)),
        prop(proptest::collection::vec(op_strategy(), 0..100), |ops| {
            lru_agrees(&ops)
        }),
    );
    row(
        model,
        "ring queue cap 3: head wraps mod 2",
        neat(|ops: Vec<QOp>| ring_agrees(&ops)),
        prop(proptest::collection::vec(qop_strategy(), 0..100), |ops| {
            ring_agrees(&ops)
        }),
    );

    row(
        "4 recursive",
        "fold keeps eval (3-bit folded constants)",
        neat(|e: Expr| fold_preserves_value(&e)),
        prop(expr_strategy(), |e| fold_preserves_value(&e)),
    );
}

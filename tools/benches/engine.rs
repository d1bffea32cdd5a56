//! Criterion micro-benchmarks of the engine (issues #3 and #6): one
//! instrumented read (open and locked positions, through a derived view and
//! through `bool::get`, against a plain array read; and along a chain of
//! locked positions, against a plain `Box` chain), one node expansion
//! (`Searcher::step` with a predicate that reads one position), and whole
//! searches of small conformance predicates (throughput = predicate runs).
//!
//! `cargo bench -p neatcheck-tools --features criterion --bench engine`
//! (about a minute). The predicates come from `neatcheck_tools::benchmarks`
//! (shared with the tools and the tests). Times are the thread's CPU time
//! (on 64-bit Linux), except for the open reads, which are timed per search
//! with the wall clock.

use neatcheck_tools::benchmarks;

use benchmarks::conformance;
use benchmarks::nat::{Nat, NatView};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use neatcheck::search::Searcher;
use neatcheck::{Enumerable, Lazy};
use std::time::{Duration, Instant};

use benchmarks::timing::cpu_now;

/// Times `iters` calls of `f` in thread CPU time.
fn cpu_iter<R>(iters: u64, mut f: impl FnMut() -> R) -> Duration {
    let start = cpu_now();
    for _ in 0..iters {
        black_box(f());
    }
    cpu_now() - start
}

/// A two-constructor type: every position of `[Bit; N]` is one choice.
#[derive(Enumerable, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bit {
    /// The first (minimal) alternative.
    O,
    /// The second.
    I,
}

/// Positions per array: the root of `[Bit; WIDTH]` has `WIDTH` open
/// positions, all at their minimal value.
const WIDTH: usize = 256;

/// Reads a position through its derived view.
#[inline(always)]
fn read_view(b: Lazy<'_, Bit>) -> u64 {
    match b.view() {
        BitView::O => 0,
        BitView::I => 1,
    }
}

/// Reads a position through `Atom::get`.
#[inline(always)]
fn read_get(b: Lazy<'_, bool>) -> u64 {
    b.get() as u64
}

/// Reads `n` of the handles, cycling over them; returns the sum of the
/// values read (so that nothing is optimised away). The reads are
/// independent of each other: this measures throughput.
#[inline(always)]
fn read_cycling<H: Copy>(handles: &[H], n: u64, read: impl Fn(H) -> u64) -> u64 {
    let mut acc = 0;
    let mut left = n;
    while left > 0 {
        let k = (left as usize).min(handles.len());
        for &h in &black_box(handles)[..k] {
            acc += read(h);
        }
        left -= k as u64;
    }
    acc
}

/// `iters` reads of open positions, each one recorded (the first read of
/// an open position in a run): the root of `[T; WIDTH]` in fresh searches,
/// `WIDTH` reads per search, only the reads timed.
fn open_reads<T: Enumerable + 'static>(
    iters: u64,
    read: impl Fn(Lazy<'_, T>) -> u64 + Copy,
) -> Duration {
    let mut total = Duration::ZERO;
    let mut left = iters;
    while left > 0 {
        let k = left.min(WIDTH as u64);
        let mut s = Searcher::<[T; WIDTH]>::new(WIDTH);
        s.step(|x: Lazy<'_, [T; WIDTH]>| {
            let handles = view_array(x);
            let start = Instant::now();
            black_box(read_cycling(&handles, k, read));
            total += start.elapsed();
        })
        .expect("the root");
        left -= k;
    }
    total
}

/// `iters` reads of positions that record nothing: a child node of the
/// root of `[T; WIDTH]`, where the search has locked all positions but the
/// last; one run reads them all once (recording the last), then the timed
/// reads cycle over them.
fn locked_reads<T: Enumerable + 'static>(
    iters: u64,
    read: impl Fn(Lazy<'_, T>) -> u64 + Copy,
) -> Duration {
    let mut s = Searcher::<[T; WIDTH]>::new(WIDTH + 1);
    let read_all = |x: Lazy<'_, [T; WIDTH]>| {
        black_box(read_cycling(&view_array(x), WIDTH as u64, read));
    };
    s.step(read_all).expect("the root");
    let mut elapsed = Duration::ZERO;
    s.step(|x: Lazy<'_, [T; WIDTH]>| {
        let handles = view_array(x);
        black_box(read_cycling(&handles, WIDTH as u64, read));
        let start = cpu_now();
        black_box(read_cycling(&handles, iters, read));
        elapsed = cpu_now() - start;
    })
    .expect("a child of the root");
    elapsed
}

/// Length of the Peano chains of the latency benchmarks.
const CHAIN: usize = 256;

/// Walks a lazy natural to its end; returns its value.
#[inline(always)]
fn walk_lazy(mut n: Lazy<'_, Nat>) -> u64 {
    let mut k = 0;
    while let NatView::S(m) = n.view() {
        n = m;
        k += 1;
    }
    k
}

/// Walks a plain natural to its end; returns its value.
#[inline(always)]
fn walk_plain(mut n: &Nat) -> u64 {
    let mut k = 0;
    while let Nat::S(m) = n {
        n = m;
        k += 1;
    }
    k
}

/// `iters` reads along a chain of locked positions (each read gives the
/// next position: this measures latency): the search for naturals up to
/// `S^CHAIN(Z)` with a predicate that walks the whole value goes straight
/// down to `S^CHAIN(Z)`, in which every position but the last is locked;
/// the timed run walks it repeatedly.
fn locked_chain(iters: u64) -> Duration {
    let mut s = Searcher::<Nat>::new(CHAIN + 1);
    for _ in 0..CHAIN {
        s.step(|n: Lazy<'_, Nat>| {
            black_box(walk_lazy(n));
        })
        .expect("a node");
    }
    let mut elapsed = Duration::ZERO;
    s.step(|n: Lazy<'_, Nat>| {
        assert_eq!(walk_lazy(n), CHAIN as u64);
        let walks = iters.div_ceil(CHAIN as u64);
        elapsed = cpu_iter(walks, || walk_lazy(black_box(n)));
    })
    .expect("S^CHAIN(Z)");
    elapsed
}

/// The handles of an array's positions (reads the array itself, which has
/// one constructor and is never recorded).
fn view_array<'a, T: Enumerable>(x: Lazy<'a, [T; WIDTH]>) -> [Lazy<'a, T>; WIDTH] {
    x.view()
}

/// One read: open (recorded) and locked positions, derived view and
/// `bool::get`, and a plain array read for scale.
fn read(c: &mut Criterion) {
    let mut g = c.benchmark_group("read");
    g.throughput(Throughput::Elements(1));
    g.bench_function("open/view", |b| {
        b.iter_custom(|iters| open_reads::<Bit>(iters, read_view))
    });
    g.bench_function("open/bool_get", |b| {
        b.iter_custom(|iters| open_reads::<bool>(iters, read_get))
    });
    g.bench_function("locked/view", |b| {
        b.iter_custom(|iters| locked_reads::<Bit>(iters, read_view))
    });
    g.bench_function("locked/bool_get", |b| {
        b.iter_custom(|iters| locked_reads::<bool>(iters, read_get))
    });
    g.bench_function("plain/array", |b| {
        let plain = [Bit::O; WIDTH];
        let refs: Vec<&Bit> = plain.iter().collect();
        b.iter_custom(|iters| {
            let start = cpu_now();
            black_box(read_cycling(&refs, iters, |x: &Bit| (*x == Bit::I) as u64));
            cpu_now() - start
        })
    });
    g.bench_function("locked_chain/nat", |b| b.iter_custom(locked_chain));
    g.bench_function("plain_chain/nat", |b| {
        let mut n = Nat::Z;
        for _ in 0..CHAIN {
            n = Nat::S(Box::new(n));
        }
        b.iter_custom(|iters| cpu_iter(iters.div_ceil(CHAIN as u64), || walk_plain(black_box(&n))))
    });
    g.finish();
}

/// Values of `u16` up to size 10: 1024 values, each a separate alternative
/// of the one position (a deeper chain would make the frame stack outgrow
/// the allocator's heap: page faults would dominate).
const STEP_BOUND: usize = 10;

/// One node expansion: a search in which every run reads the one position
/// of a `u16` (a chain of 1024 nodes: each node's only child swaps that
/// position to its next value). Throughput = steps; each step moves to the
/// next node (a leaf swap, which looks up the sizes of the two values),
/// runs the predicate (one recorded read) and commits the node.
fn step(c: &mut Criterion) {
    let mut g = c.benchmark_group("step");
    let runs = count_runs::<u16>(STEP_BOUND, |x| x.get() % 3 == 0);
    g.throughput(Throughput::Elements(runs));
    g.bench_function("one_read/u16", |b| {
        b.iter_custom(|iters| {
            cpu_iter(iters, || {
                count_runs::<u16>(STEP_BOUND, |x| x.get() % 3 == 0)
            })
        })
    });
    g.finish();
}

/// Runs a whole search; returns its number of runs.
fn count_runs<T: Enumerable>(bound: usize, pred: impl Fn(Lazy<'_, T>) -> bool) -> u64 {
    let mut s = Searcher::<T>::new(bound);
    let mut satisfied = 0u64;
    while let Some(r) = s.step(&pred) {
        satisfied += r.is_true() as u64;
    }
    black_box(satisfied);
    s.stats().runs
}

/// Whole searches of small predicates; throughput = predicate runs.
fn run(c: &mut Criterion) {
    let mut g = c.benchmark_group("run");
    macro_rules! search {
        ($name:literal, $ty:ty, $bound:expr, $pred:expr) => {{
            let runs = count_runs::<$ty>($bound, $pred);
            g.throughput(Throughput::Elements(runs));
            g.bench_function($name, |b| {
                b.iter_custom(|iters| cpu_iter(iters, || count_runs::<$ty>($bound, $pred)))
            });
        }};
    }
    search!(
        "ordered_le/Vec<Nat>/30",
        Vec<Nat>,
        30,
        conformance::ordered_le
    );
    search!("parity/Vec<bool>/21", Vec<bool>, 21, conformance::parity);
    search!("bst/Tree/30", conformance::Tree, 30, conformance::bst);
    search!(
        "tree_sum/Tree/17",
        conformance::Tree,
        17,
        conformance::tree_sum
    );
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
}

criterion_group! {
    name = engine;
    config = config();
    targets = read, step, run
}
criterion_main!(engine);

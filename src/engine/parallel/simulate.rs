//! A parallel search simulated on one thread: the workers of
//! `worker.rs`, stepped round-robin by a virtual clock (one time step per
//! run, replays included), so that the load balance of any number of cores
//! can be measured on a small machine, and splitting is exercised in tests
//! deterministically.

use super::worker::{Job, Tick, Worker};
use super::{Parallel, Report};
use crate::engine::{Classes, Outcome, Tally};
use crate::handle::Lazy;
use crate::Enumerable;
use std::cell::{Cell, RefCell};

/// How a simulated parallel search spread its work: what `threads` cores
/// would do if every run took the same time.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Balance {
    /// The result of the search (the same as the sequential one).
    pub classes: Classes,
    /// Time steps until the last worker finished (a run, replayed or not,
    /// takes one step).
    pub makespan: u64,
    /// Each worker's share.
    pub workers: Vec<WorkerBalance>,
}

/// One simulated worker's share of a search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WorkerBalance {
    /// Nodes it ran (each node of the search is run by one worker).
    pub runs: u64,
    /// Runs it made again to restart at the units it took (their
    /// ancestors).
    pub replays: u64,
    /// Units it took.
    pub units: u64,
    /// Units it reached by replaying their path from the root; it reached
    /// the others by going back up its own branch (fewer replays).
    pub restarts: u64,
    /// Units it gave away.
    pub given: u64,
    /// Time steps it waited for work.
    pub idle: u64,
}

impl Balance {
    /// Sequential time (one step per run) over the makespan.
    pub fn speedup(&self) -> f64 {
        self.classes.runs as f64 / self.makespan.max(1) as f64
    }

    /// The busiest worker's steps (runs and replays) over the mean.
    pub fn imbalance(&self) -> f64 {
        let busy: Vec<u64> = self.workers.iter().map(|w| w.runs + w.replays).collect();
        let mean = busy.iter().sum::<u64>() as f64 / busy.len().max(1) as f64;
        busy.iter().copied().max().unwrap_or(0) as f64 / mean.max(1.0)
    }
}

thread_local! {
    /// Whether parallel searches started on this thread are simulated.
    static SIMULATED: Cell<bool> = const { Cell::new(false) };
    /// The balance of the last simulated search of this thread.
    static LAST: RefCell<Option<(u64, Vec<WorkerBalance>)>> = const { RefCell::new(None) };
}

/// Whether parallel searches started on this thread are simulated.
pub(super) fn simulated() -> bool {
    SIMULATED.with(Cell::get)
}

/// Runs `f` with the parallel searches it starts on this thread simulated
/// (see [`Parallel::simulate`]).
pub(crate) fn with_simulation<R>(f: impl FnOnce() -> R) -> R {
    let old = SIMULATED.with(|s| s.replace(true));
    let r = f();
    SIMULATED.with(|s| s.set(old));
    r
}

/// Steps `threads` workers on `job` on this thread, always the one whose
/// clock is earliest, and collects their reports.
pub(super) fn run_simulated<T: Enumerable, Tl: Tally>(
    job: &Job<'_, T>,
    threads: usize,
) -> Vec<Report<T, Tl>> {
    let mut workers: Vec<Worker<'_, T, Tl>> = (0..threads).map(|_| Worker::new(job)).collect();
    let mut clock = vec![0u64; threads];
    let mut idle = vec![0u64; threads];
    let mut waiting = vec![false; threads];
    let mut done = vec![false; threads];
    while let Some(w) = (0..threads)
        .filter(|&i| !done[i])
        .min_by_key(|&i| (clock[i], i))
    {
        match workers[w].tick(false) {
            Tick::Ran(steps) => {
                clock[w] += steps;
                waiting[w] = false;
            }
            Tick::Idle => {
                // Wait until the next busy worker's step.
                let next = (0..threads)
                    .filter(|&i| i != w && !done[i] && !waiting[i])
                    .map(|i| clock[i])
                    .min()
                    .unwrap_or(clock[w]);
                let until = next.max(clock[w]) + 1;
                idle[w] += until - clock[w];
                clock[w] = until;
                waiting[w] = true;
            }
            Tick::Done => done[w] = true,
        }
    }
    let balance = workers
        .iter()
        .zip(&idle)
        .map(|(w, &idle)| WorkerBalance {
            runs: w.effort.runs,
            replays: w.effort.replays,
            units: w.effort.units,
            restarts: w.effort.restarts,
            given: w.effort.given,
            idle,
        })
        .collect();
    let makespan = clock.iter().copied().max().unwrap_or(0);
    LAST.with(|l| *l.borrow_mut() = Some((makespan, balance)));
    workers.into_iter().map(Worker::into_report).collect()
}

impl Parallel {
    /// Simulates [`Parallel::classes`] on `threads` virtual workers, on the
    /// calling thread: the workers take, split and replay units exactly as
    /// on real threads, on a virtual clock where every run takes one step.
    /// The load balance `threads` cores would have (for tuning, or where
    /// no such machine is at hand).
    ///
    /// (Public as `Config::simulate`.)
    ///
    /// # Panics
    /// As [`Parallel::classes`].
    pub(crate) fn simulate<T, O, P>(&self, pred: P, bound: usize) -> Balance
    where
        T: Enumerable + Send,
        O: Outcome,
        P: Fn(Lazy<'_, T>) -> O + Sync,
    {
        let classes = with_simulation(|| self.classes(pred, bound));
        let (makespan, workers) = LAST
            .with(|l| l.borrow_mut().take())
            .expect("a simulated search");
        Balance {
            classes,
            makespan,
            workers,
        }
    }
}

//! The threads of an exploration: a worker thread searches the targets'
//! inputs and calls them, the calling thread supervises it. A call past its
//! time or allocation budget can not be stopped (Rust can not kill a
//! thread), and a call that crashed the process (a stack overflow, an
//! abort: `crate::crash`) is parked in the signal handler and must never
//! run again; so the supervisor takes its run over through the watchdog's
//! slot protocol (`crate::run_slot`), which copies the input and keeps the
//! worker out of its arena for good, abandons the worker, and starts a
//! fresh one that resumes the search just after the stuck call: it runs the
//! stuck call's bound again from its start without reporting what the
//! abandoned worker already reported.
//!
//! The stuck input is never called again, in this bound or the larger ones:
//! a stand-in run takes its place in the search (`Target::stand_in`),
//! reading what the stuck call is known to have read, so that the search
//! below it goes on. The reads of a call another thread is stuck in can
//! not be seen, so the stand-in reads the whole input of a function (exact
//! for plain arguments, which the call forced before anything else; for
//! lazy arguments, inputs that agree with the stuck one on what it read may
//! be called and go over budget again), and for a sequence the constructor's
//! arguments and the operations up to the one that was running (published
//! by the worker before each step).

use super::target::{CallBudget, Target};
use super::Settings;
use crate::describe::{integer_sizes, with_integer_sizes, IntegerSizes};
use crate::engine::RunResult;
use crate::run_slot::{take_over, Fired, RunSlot, SlotShared, PHASE, RUNNING};
use std::cell::Cell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often the supervisor looks at a worker when only the allocation
/// budget is set (the flag is raised by the parked thread itself).
const ALLOC_POLL: Duration = Duration::from_millis(10);
/// The shortest sampling period of the time budget.
const MIN_PERIOD: Duration = Duration::from_millis(2);

/// What a worker tells the supervisor.
#[derive(Debug)]
pub(crate) enum Event {
    /// A call of a new input panicked.
    Failed {
        target: usize,
        message: String,
        location: Option<String>,
        input: String,
        size: u64,
        key: String,
        /// Found by iterative deepening (every smaller input was called),
        /// not by the edge sweep or a random case.
        by_size: bool,
    },
    /// neatcheck's own error (an inconsistent space): the target stops.
    Internal { target: usize, message: String },
    /// A call of the target crashed the process (reported as a failure
    /// before this): the rest of the target is skipped, since every crash
    /// costs a thread and its stack.
    Crashed { target: usize },
    /// Every input of the target up to `bound` was called (or skipped as
    /// stuck): `runs` new calls so far.
    BoundDone {
        target: usize,
        bound: usize,
        runs: u64,
    },
    /// The target is done: `complete` when its whole search up to the
    /// largest size ran within the run budget.
    TargetDone {
        target: usize,
        runs: u64,
        complete: bool,
    },
}

/// A call that went over a budget, as the supervisor saw it.
#[derive(Debug)]
pub(crate) struct Overran {
    pub(crate) target: usize,
    pub(crate) size: u64,
    /// The sequence step it was stuck in.
    pub(crate) step: u64,
    pub(crate) fired: Fired,
    /// True for the allocation budget, false for time.
    pub(crate) alloc: bool,
}

/// Where a worker stands, published before each call (read by the
/// supervisor only after taking the call over, whose acquire makes the
/// stores before the call's announcement visible).
#[derive(Debug, Default)]
struct Position {
    target: AtomicUsize,
    bound: AtomicUsize,
    /// Calls made (or skipped) in this bound so far, the current one
    /// included.
    index: AtomicU64,
    /// New calls of the target so far, the current one included.
    runs: AtomicU64,
    /// The size of the input under the current call.
    size: AtomicU64,
}

thread_local! {
    /// Where a worker publishes the index of the sequence step it runs
    /// (read by the supervisor after taking a stuck call over).
    static STEP: Cell<Option<&'static AtomicU64>> = const { Cell::new(None) };
}

/// Publishes that the sequence of the current call is at step `k` (0 is
/// the constructor's).
pub(crate) fn at_step(k: u64) {
    if let Some(step) = STEP.with(Cell::get) {
        step.store(k, Ordering::Relaxed);
    }
}

/// Where a fresh worker starts.
#[derive(Clone, Copy, Debug, Default)]
struct Resume {
    target: usize,
    bound: usize,
    /// Calls of that bound already made by abandoned workers: called again
    /// silently (the stuck ones skipped).
    replay: u64,
    /// New calls of the target already counted.
    runs: u64,
}

/// One worker as the supervisor holds it.
struct Worker {
    slot: Arc<SlotShared>,
    position: Arc<Position>,
    /// Raised by the allocator when a call goes over its budget.
    over_alloc: &'static AtomicBool,
    /// The sequence step the current call is at.
    step: &'static AtomicU64,
    /// Tells an abandoned worker that returns from its call to stop.
    abandoned: Arc<AtomicBool>,
    events: Receiver<Event>,
    thread: std::thread::JoinHandle<()>,
}

/// What the supervisor collects (the report is made from it).
pub(crate) trait Sink {
    /// One event of a worker, in the order the worker sent them.
    fn event(&mut self, e: Event);
    /// A call over budget, with its input rebuilt on this thread (the
    /// call's text and replay key) if it could be.
    fn overran(&mut self, o: &Overran, described: Option<(String, String)>);
    /// A problem that stops the exploration or part of it.
    fn problem(&mut self, p: String);
}

/// Explores every target in turn, supervising the workers; budgets and
/// limits from `settings`.
pub(crate) fn explore(
    targets: &Arc<Vec<Box<dyn Target>>>,
    settings: &Settings,
    sink: &mut dyn Sink,
) {
    let integers = integer_sizes();
    let stuck: Arc<Mutex<Vec<HashMap<String, u64>>>> =
        Arc::new(Mutex::new(vec![HashMap::new(); targets.len()]));
    let mut resume = Resume::default();
    let mut abandoned = 0usize;
    loop {
        let worker = spawn(targets, settings, &stuck, resume, integers);
        match supervise(&worker, settings, sink) {
            None => {
                match worker.thread.join() {
                    Ok(()) => {}
                    Err(p) => sink.problem(format!(
                        "neatcheck: the exploration's worker failed: {}",
                        crate::engine::panic_message(&*p)
                    )),
                }
                return;
            }
            Some(over) => {
                abandoned += 1;
                let described = targets[over.target].describe_copy(&over.fired.nodes);
                let key = described.as_ref().map(|(_, key)| key.clone());
                match (over.fired.crash, &described) {
                    // A crash is a failure of its own site, like a panic.
                    (Some(crash), Some((input, key))) => sink.event(Event::Failed {
                        target: over.target,
                        message: format!("{}{}", crate::crash::CRASH_PREFIX, crash.describe()),
                        location: None,
                        input: input.clone(),
                        size: over.size,
                        key: key.clone(),
                        by_size: worker.position.bound.load(Ordering::Relaxed) <= settings.max_size,
                    }),
                    _ => sink.overran(&over, described),
                }
                let p = &worker.position;
                resume = Resume {
                    target: p.target.load(Ordering::Relaxed),
                    bound: p.bound.load(Ordering::Relaxed),
                    replay: p.index.load(Ordering::Relaxed),
                    runs: p.runs.load(Ordering::Relaxed),
                };
                let Some(key) = key else {
                    sink.problem(
                        "neatcheck: an input over budget could not be rebuilt; the exploration \
                         stops"
                            .to_string(),
                    );
                    return;
                };
                lock(&stuck)[over.target].insert(key, over.step);
                // A random case stands for no other input, so the next ones
                // could go over budget as well, each costing a thread: a
                // function's random phase ends at its first call over
                // budget (its sizes were all explored).
                let in_cases = resume.bound > settings.max_size;
                if over.fired.crash.is_some() || in_cases {
                    if over.fired.crash.is_some() {
                        sink.event(Event::Crashed {
                            target: over.target,
                        });
                    }
                    sink.event(Event::TargetDone {
                        target: over.target,
                        runs: resume.runs,
                        complete: over.fired.crash.is_none(),
                    });
                    resume = Resume {
                        target: over.target + 1,
                        ..Resume::default()
                    };
                }
                if abandoned > settings.max_abandoned {
                    sink.problem(format!(
                        "neatcheck: {abandoned} calls went over their budget or crashed, and \
                         their threads are abandoned (at most {} allowed, Explorer::max_abandoned): the \
                         exploration stops",
                        settings.max_abandoned
                    ));
                    return;
                }
                // The abandoned thread stays parked (its run is held by
                // the slot protocol, it sleeps in the allocator, or it
                // waits in the fatal-signal handler).
                drop(worker.thread);
            }
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn spawn(
    targets: &Arc<Vec<Box<dyn Target>>>,
    settings: &Settings,
    stuck: &Arc<Mutex<Vec<HashMap<String, u64>>>>,
    resume: Resume,
    integers: IntegerSizes,
) -> Worker {
    let slot = RunSlot::unwatched();
    let shared = slot.shared();
    crate::crash::install();
    shared.crash_watched.store(true, Ordering::Relaxed);
    // One small flag per worker, leaked: the allocator reads it through a
    // thread-local `&'static`, and an abandoned worker may still hold it.
    let over_alloc: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
    let step: &'static AtomicU64 = Box::leak(Box::new(AtomicU64::new(0)));
    let position = Arc::new(Position::default());
    let abandoned = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let thread = {
        let (targets, stuck, position, abandoned) = (
            targets.clone(),
            stuck.clone(),
            position.clone(),
            abandoned.clone(),
        );
        let settings = settings.clone();
        let link = Link {
            slot,
            position,
            abandoned,
            budget: CallBudget {
                alloc: settings.alloc,
                flag: over_alloc,
            },
            events: tx,
        };
        std::thread::Builder::new()
            .name("neatcheck-explore".into())
            .spawn(move || {
                crate::internal::quiet::silence_this_thread();
                STEP.with(|s| s.set(Some(step)));
                with_integer_sizes(integers, || work(&targets, &settings, &stuck, resume, link));
            })
            .expect("neatcheck: could not start the exploration's worker thread")
    };
    Worker {
        slot: shared,
        position,
        over_alloc,
        step,
        abandoned,
        events: rx,
        thread,
    }
}

/// Follows a worker until it ends (`None`) or a call of it goes over a
/// budget.
fn supervise(w: &Worker, settings: &Settings, sink: &mut dyn Sink) -> Option<Overran> {
    // Always polled: a crashed call parks its thread and sends nothing.
    let period = match settings.time {
        Some(t) => (t / 4).max(MIN_PERIOD).min(ALLOC_POLL.max(MIN_PERIOD)),
        None => ALLOC_POLL,
    };
    let mut last = (w.slot.state.load(Ordering::Relaxed), Instant::now());
    loop {
        let received = w.events.recv_timeout(period);
        match received {
            Ok(e) => sink.event(e),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return None,
        }
        let state = w.slot.state.load(Ordering::Relaxed);
        let now = Instant::now();
        if state != last.0 {
            last = (state, now);
        }
        let alloc = w.over_alloc.load(Ordering::Acquire);
        let crashed = state & PHASE == RUNNING && w.slot.crash.load(Ordering::Acquire) != 0;
        let elapsed = now - last.1;
        let late = settings
            .time
            .is_some_and(|t| state & PHASE == RUNNING && elapsed >= t);
        if !(alloc || late || crashed) {
            continue;
        }
        let limit = settings.time.unwrap_or(Duration::ZERO);
        let Some(fired) = take_over(&w.slot, state, elapsed, limit) else {
            continue;
        };
        w.abandoned.store(true, Ordering::Relaxed);
        // What the worker reported before this call.
        while let Ok(e) = w.events.try_recv() {
            sink.event(e);
        }
        return Some(Overran {
            target: w.position.target.load(Ordering::Relaxed),
            size: w.position.size.load(Ordering::Relaxed),
            step: w.step.load(Ordering::Relaxed),
            fired,
            alloc,
        });
    }
}

/// The worker's end of the supervision.
struct Link {
    slot: RunSlot,
    position: Arc<Position>,
    abandoned: Arc<AtomicBool>,
    budget: CallBudget,
    events: Sender<Event>,
}

impl Link {
    fn send(&self, e: Event) {
        // The supervisor is gone only when it panicked itself.
        let _ = self.events.send(e);
    }
}

/// The worker: every target from `resume` on, by iterative deepening, so
/// that the first failure of a site is one of the smallest inputs that
/// reach it, then the target's edge sweep and random cases past the
/// largest size. A bound calls the inputs of the smaller ones again (their
/// reads are needed to reach the larger inputs) without reporting them:
/// an input is new in the bound equal to its size.
fn work(
    targets: &[Box<dyn Target>],
    settings: &Settings,
    stuck: &Mutex<Vec<HashMap<String, u64>>>,
    resume: Resume,
    link: Link,
) {
    let Link {
        slot,
        position,
        abandoned,
        budget,
        events: _,
    } = &link;
    let shared = slot.shared();
    for (t, target) in targets.iter().enumerate().skip(resume.target) {
        let resuming = t == resume.target;
        let mut runs = if resuming { resume.runs } else { 0 };
        let mut complete = true;
        let first_bound = if resuming { resume.bound } else { 0 };
        // Past the largest size, one more pass: the edge sweep and the
        // random cases (`Target::cases`), resumed like a bound.
        let cases_pass = settings.max_size.saturating_add(1);
        'bounds: for bound in first_bound..=cases_pass {
            let skip = lock(stuck)[t].clone();
            let replay = if resuming && bound == resume.bound {
                resume.replay
            } else {
                0
            };
            // One slot per worker, its generations going on across bounds.
            let slot = RunSlot {
                shared: shared.clone(),
                gen: std::cell::Cell::new(shared.state.load(Ordering::Relaxed) >> 2),
            };
            let cases = bound == cases_pass;
            let mut search = if cases {
                target.cases(settings.max_size, settings.samples, slot)
            } else {
                target.search(bound, slot)
            };
            let mut index = 0u64;
            while search.advance() {
                index += 1;
                if !skip.is_empty() {
                    if let Some(&step) = skip.get(&search.key()) {
                        search.stand_in(step);
                        continue;
                    }
                }
                let size = search.size();
                // In the cases pass, an input larger than every size
                // explored is new (the depth-bounded stage also meets
                // smaller ones, found already).
                let fresh = index > replay
                    && if cases {
                        size > settings.max_size as u64
                    } else {
                        size == bound as u64
                    };
                if fresh {
                    if settings.max_runs.is_some_and(|m| runs >= m) {
                        complete = false;
                        break 'bounds;
                    }
                    runs += 1;
                }
                position.target.store(t, Ordering::Relaxed);
                position.bound.store(bound, Ordering::Relaxed);
                position.index.store(index, Ordering::Relaxed);
                position.runs.store(runs, Ordering::Relaxed);
                position.size.store(size, Ordering::Relaxed);
                at_step(0);
                let r = search.call(*budget);
                if abandoned.load(Ordering::Relaxed) {
                    return;
                }
                let RunResult::Panicked(message) = r else {
                    continue;
                };
                if message.starts_with(crate::internal::PREFIX) {
                    link.send(Event::Internal { target: t, message });
                    complete = false;
                    break 'bounds;
                }
                if fresh {
                    link.send(Event::Failed {
                        target: t,
                        message,
                        location: crate::internal::quiet::last_location(),
                        input: search.input(),
                        size,
                        key: search.key(),
                        by_size: !cases,
                    });
                }
            }
            if !cases {
                link.send(Event::BoundDone {
                    target: t,
                    bound,
                    runs,
                });
            }
        }
        link.send(Event::TargetDone {
            target: t,
            runs,
            complete,
        });
    }
}

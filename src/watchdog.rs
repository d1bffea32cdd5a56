//! The per-run watchdog: turns a property run that never returns into a
//! failed test that names the hanging input, instead of a suite that hangs.
//!
//! Rust can not stop a thread, so the watchdog can only report and end the
//! process. One background thread serves the whole process; each check
//! registers a [`Watchdog`] with it and gets one [`RunSlot`] per worker
//! engine. The engine brackets every predicate call
//! with [`RunSlot::enter`] and [`RunSlot::leave`], which cost four plain
//! stores and one uncontended compare-exchange (about 6 ns together): there
//! is no clock read per run. The thread samples the slots every quarter of the limit (never more
//! often than every [`MIN_PERIOD`]); a slot seen running the same run for
//! at least the limit is taken over (its state moves to *inspecting*, after
//! which the worker can not touch its arena), the run's value is copied out
//! of the arena and handed to the fire callback, which for checks
//! ([`start_for`]) prints the input and exits with status 101.
//!
//! # The slot protocol
//!
//! A slot's state is one atomic word: a run generation (upper bits) and a
//! phase (lower two bits: idle, running, inspecting).
//!
//! * Worker, before the predicate: publish the arena's address, length and
//!   the value's size (relaxed), then store `(generation + 1, running)`
//!   with release ordering, so whoever acquires that state sees them.
//! * Worker, after the predicate: compare-exchange `(g, running)` to
//!   `(g, idle)`. Only the watchdog ever changes a running state, so a
//!   failure means it is inspecting: the worker waits until it is released
//!   (in a check, never: the process exits), and only then touches its
//!   arena again.
//! * Watchdog: compare-exchange `(g, running)` to `(g, inspecting)` with
//!   acquire ordering. Success means the worker is still inside run `g`,
//!   whose published arena is alive and whose structure (every field but
//!   the marks) is frozen while the predicate runs, and it will stay there
//!   until released. Failure means the run ended: nothing is read.
//!
//! # Use in a check
//!
//! ```ignore
//! // Once per check, before the search (the guard lives as long as it):
//! let dog = config
//!     .run_timeout
//!     .map(|limit| watchdog::start_for::<T>(limit, format!("property `{name}`")));
//! // For every searcher the check creates (each worker thread its own):
//! let mut s = Searcher::<T>::new(bound);
//! if let Some(dog) = &dog {
//!     s.watch(dog.slot());
//! }
//! ```

use crate::arena::{try_build, Choice, NodeKind, Opened, Unfold};
use crate::grammar::{Grammar, ProdId, Tree};
pub(crate) use crate::run_slot::RunSlot;
use crate::run_slot::{take_over, Fired, SlotShared, IDLE, PHASE, RUNNING};
use crate::Enumerable;
use std::fmt::{Debug, Write as _};
use std::io::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The shortest sampling period: below it the watchdog thread would cost
/// more than the runs it watches, for no useful precision.
pub(crate) const MIN_PERIOD: Duration = Duration::from_millis(2);

/// The environment variable that sets the per-run limit.
pub(crate) const RUN_TIMEOUT_VAR: &str = "NEATCHECK_RUN_TIMEOUT";

/// How often the watchdog looks for a crashed run (a crash is reported
/// this long after it at most); the per-run limit's period when shorter.
const CRASH_POLL: Duration = Duration::from_millis(20);

/// The fire callback: runs on the watchdog thread, with the worker held
/// out of its arena until it returns.
type OnFire = Box<dyn Fn(&Fired) + Send>;

/// The process's one watchdog thread and what it watches: every check's
/// [`Watchdog`] registers here. A thread per check cost more than a small
/// check itself: starting and ending a thread maps and unmaps its stack
/// and signal stack, and in a profile of passing checks over an integer
/// that kernel work took more samples than the checks.
struct Hub {
    /// The watchers of the checks running now.
    watchers: Mutex<Vec<Arc<Watcher>>>,
    /// Wakes the thread when a watcher is added (its period may be shorter
    /// than the current wait).
    wake: Condvar,
}

/// The hub, its thread started by the first call.
fn hub() -> &'static Hub {
    static HUB: std::sync::OnceLock<Hub> = std::sync::OnceLock::new();
    let mut first = false;
    let hub = HUB.get_or_init(|| {
        first = true;
        Hub {
            watchers: Mutex::new(vec![]),
            wake: Condvar::new(),
        }
    });
    if first {
        std::thread::Builder::new()
            .name("neatcheck-watchdog".into())
            .spawn(move || watch(hub))
            .expect("neatcheck: could not start the watchdog thread");
    }
    hub
}

/// What one check's watchdog watches, shared by its owner and the thread.
struct Watcher {
    /// The per-run limit.
    limit: Option<Duration>,
    /// Locked by the thread while it samples this watcher's slots (and
    /// fires), so that the owner's drop waits for a firing in progress.
    state: Mutex<WatcherState>,
}

struct WatcherState {
    /// The owner dropped its watchdog: nothing more is sampled or fired.
    stopped: bool,
    /// Slots handed out since the thread last looked.
    new_slots: Vec<Arc<SlotShared>>,
    watched: Vec<Watched>,
    on_fire: OnFire,
}

/// The watchdog of one check: its run slots, sampled by the process's
/// watchdog thread, which fires when a run overruns the limit or crashed.
/// Dropping it stops the watching (at once, or once a firing in progress
/// has returned).
pub(crate) struct Watchdog {
    watcher: Arc<Watcher>,
}

impl Debug for Watchdog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Watchdog({:?})", self.watcher.limit)
    }
}

impl Watchdog {
    /// Starts watching with the given per-run limit; `on_fire` is called on
    /// the watchdog thread for a run that overran it.
    pub(crate) fn start(
        limit: Option<Duration>,
        on_fire: impl Fn(&Fired) + Send + 'static,
    ) -> Watchdog {
        crate::crash::install();
        let watcher = Arc::new(Watcher {
            limit,
            state: Mutex::new(WatcherState {
                stopped: false,
                new_slots: vec![],
                watched: vec![],
                on_fire: Box::new(on_fire),
            }),
        });
        let hub = hub();
        lock(&hub.watchers).push(watcher.clone());
        hub.wake.notify_all();
        Watchdog { watcher }
    }

    /// A new slot for one worker engine (see [`crate::search::Searcher`]'s
    /// `watch`).
    pub(crate) fn slot(&self) -> RunSlot {
        let slot = RunSlot::unwatched();
        let shared = slot.shared();
        shared.crash_watched.store(true, Ordering::Relaxed);
        lock(&self.watcher.state).new_slots.push(shared);
        slot
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        {
            let mut state = lock(&self.watcher.state);
            state.stopped = true;
            state.new_slots.clear();
            state.watched.clear();
        }
        lock(&hub().watchers).retain(|w| !Arc::ptr_eq(w, &self.watcher));
    }
}

/// Locks, ignoring poisoning: the state stays consistent whatever panicked
/// while holding it (every update is a single assignment, push or
/// retain).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// One slot as the watchdog thread tracks it.
struct Watched {
    /// The slot, shared with its worker.
    slot: Arc<SlotShared>,
    /// The state seen at the last sample.
    last: u64,
    /// The first sample that saw `last`.
    since: Instant,
}

/// The watchdog thread's loop: samples every watcher, then sleeps for the
/// shortest of their periods (or until a watcher comes, when there is
/// none).
fn watch(hub: &Hub) {
    loop {
        let watchers: Vec<Arc<Watcher>> = {
            let mut w = lock(&hub.watchers);
            while w.is_empty() {
                w = hub.wake.wait(w).unwrap_or_else(|e| e.into_inner());
            }
            w.clone()
        };
        for w in &watchers {
            w.sample();
        }
        let period = watchers
            .iter()
            .map(|w| w.period())
            .min()
            .unwrap_or(CRASH_POLL);
        drop(watchers);
        let w = lock(&hub.watchers);
        let _ = hub.wake.wait_timeout(w, period);
    }
}

impl Watcher {
    /// How often its slots are sampled: a quarter of the limit, within
    /// [`MIN_PERIOD`] and [`CRASH_POLL`].
    fn period(&self) -> Duration {
        self.limit
            .map_or(CRASH_POLL, |l| (l / 4).max(MIN_PERIOD).min(CRASH_POLL))
    }

    /// Samples the slots once, firing for a run that crashed or overran the
    /// limit.
    fn sample(&self) {
        let mut guard = lock(&self.state);
        let state = &mut *guard;
        if state.stopped {
            return;
        }
        let now = Instant::now();
        state
            .watched
            .extend(state.new_slots.drain(..).map(|slot| Watched {
                last: slot.state.load(Ordering::Relaxed),
                slot,
                since: now,
            }));
        // A slot only the watchdog still holds belongs to a dropped engine.
        state.watched.retain(|w| Arc::strong_count(&w.slot) > 1);
        for w in &mut state.watched {
            let run = w.slot.state.load(Ordering::Relaxed);
            if run & PHASE == RUNNING && w.slot.crash.load(Ordering::Acquire) != 0 {
                // The run's thread is parked in the signal handler for good.
                if let Some(fired) = take_over(&w.slot, run, now - w.since, Duration::ZERO) {
                    (state.on_fire)(&fired);
                }
                continue;
            }
            if run & PHASE != RUNNING || run != w.last {
                w.last = run;
                w.since = now;
                continue;
            }
            let elapsed = now - w.since;
            let Some(limit) = self.limit else { continue };
            if elapsed >= limit {
                if let Some(fired) = take_over(&w.slot, run, elapsed, limit) {
                    (state.on_fire)(&fired);
                    // Only reached when the callback lets the process go
                    // on (tests): give the run back to its worker.
                    w.slot.state.store(run & !PHASE | IDLE, Ordering::Release);
                }
            }
        }
    }
}

/// Rebuilds the value of a copied arena as a tree of `g`; `None` if the
/// copy does not fit the grammar (it came from another one).
pub(crate) fn tree_of_copy(g: &Grammar, nodes: &[Choice]) -> Option<Tree> {
    if nodes.is_empty() {
        return None;
    }
    let root = try_build(
        &mut CopiedTree {
            g,
            nodes,
            visits: 0,
        },
        0,
    )?;
    Some(Rc::try_unwrap(root).unwrap_or_else(|rc| (*rc).clone()))
}

/// A copied arena becomes a tree, refusing what does not fit the grammar.
struct CopiedTree<'a> {
    g: &'a Grammar,
    nodes: &'a [Choice],
    /// A well-formed arena is a tree: more visits than nodes means a cycle.
    visits: usize,
}

impl Unfold for CopiedTree<'_> {
    type Pos = u32;
    type Label = ProdId;
    type Out = Rc<Tree>;

    fn open(&mut self, i: u32, fields: &mut Vec<u32>) -> Option<Opened<ProdId, Rc<Tree>>> {
        self.visits += 1;
        let n = self
            .nodes
            .get(i as usize)
            .filter(|_| self.visits <= self.nodes.len())?;
        let p = self.g.prods.get(n.prod().index())?;
        Some(match n.kind(p.leaf) {
            NodeKind::Leaf { index } => Opened::Done(Rc::new(Tree::Leaf(p.sort, index))),
            NodeKind::Alternative { first, .. } => {
                for j in 0..crate::arena::id32(p.slots.len()) {
                    fields.push(first.checked_add(j)?);
                }
                Opened::Node(n.prod())
            }
        })
    }

    fn close(&mut self, prod: ProdId, fields: std::vec::Drain<'_, Rc<Tree>>) -> Rc<Tree> {
        Rc::new(Tree::Node(prod, fields.collect()))
    }
}

/// The report of a run of a property over `T` that overran the limit:
/// `header` (naming the property) first, then what happened and the input,
/// both with `Debug` and as constructors. Compiles `T`'s grammar on the
/// calling thread (grammars are not `Send`; compilation is deterministic,
/// so its alternatives are numbered as in the worker's).
pub(crate) fn describe<T: Enumerable + Debug>(
    header: &str,
    fired: &Fired,
    source: &crate::engine::GrammarSource<T>,
) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "neatcheck: {header}");
    match fired.crash {
        Some(crash) => {
            let _ = writeln!(
                s,
                "neatcheck: a run of the property crashed the process: {}",
                crash.describe()
            );
        }
        None => {
            let _ = writeln!(
                s,
                "neatcheck: a run of the property took longer than {:?} (the per-run limit; \
                 {RUN_TIMEOUT_VAR} or Config::run_timeout): it has run for at least {:.1?} and \
                 has not returned",
                fired.limit, fired.elapsed
            );
        }
    }
    // Each part on its own: a `Debug` that panics (or a value too deep for
    // it) leaves the constructor form and the key intact.
    let rebuilt = catch_unwind(AssertUnwindSafe(|| {
        let g = source.grammar();
        if g.prods.len() != fired.prods {
            return Err(format!(
                "the search ran over another space than `{}`'s own ({} alternatives, not {})",
                std::any::type_name::<T>(),
                fired.prods,
                g.prods.len()
            ));
        }
        let tree = tree_of_copy(&g, &fired.nodes)
            .ok_or_else(|| "the value under the run does not fit the grammar".to_string())?;
        let shown = crate::report::show_tree(&g, &tree);
        let key = crate::replay::key_of(&g, &tree);
        let deep = crate::report::nesting_depth(&g, &tree)
            > crate::record::Counterexample::<T>::DEBUG_DEPTH;
        Ok((g, tree, shown, key, deep))
    }));
    match rebuilt {
        Ok(Ok((g, tree, constructors, key, deep))) => {
            let debug = if deep {
                "(not printed with `Debug`: nested too deep, see its constructors)".to_string()
            } else {
                match catch_unwind(AssertUnwindSafe(|| {
                    crate::grammar::downcast::<T>(g.build_root(&tree), "the watchdog")
                })) {
                    Ok(value) => crate::report::debug_for_report(&value),
                    Err(p) => format!(
                        "(could not be built: {})",
                        crate::engine::panic_message(&*p)
                    ),
                }
            };
            let _ = writeln!(s, "  input (size {}): {debug}", fired.size);
            let _ = writeln!(
                s,
                "  as constructors:  {}",
                crate::report::cut(constructors, crate::report::DEBUG_MAX)
            );
            let _ = writeln!(
                s,
                "  replay: NEATCHECK_REPLAY={key} (runs just this input{})",
                if fired.crash.is_some() {
                    ", and crashes again if the crash is reproducible"
                } else {
                    ", with no per-run limit if NEATCHECK_RUN_TIMEOUT=0"
                }
            );
        }
        Ok(Err(why)) => {
            let _ = writeln!(
                s,
                "  input (size {}): could not be rebuilt: {why}",
                fired.size
            );
        }
        Err(p) => {
            let _ = writeln!(
                s,
                "  input (size {}): could not be rebuilt: {}",
                fired.size,
                crate::engine::panic_message(&*p)
            );
        }
    }
    let _ = writeln!(
        s,
        "  {}, so the test process exits now (status 101); the other tests of this binary \
         that had not finished are not reported",
        if fired.crash.is_some() {
            "a process can not go on after this fault"
        } else {
            "a thread can not be stopped"
        }
    );
    s
}

/// Starts the watchdog of a check of a property over `T`: a run that
/// overruns `limit` prints [`describe`]'s report to standard error and
/// exits the process with status 101, which the test harness reports as a
/// failed test binary. `header` names the property (test name, location).
pub(crate) fn start_for<T: Enumerable + Debug>(
    limit: Option<Duration>,
    header: String,
    source: crate::engine::GrammarSource<T>,
) -> Watchdog {
    let integers = crate::describe::integer_sizes();
    Watchdog::start(limit, move |fired| {
        let report = crate::describe::with_integer_sizes(integers, || {
            describe::<T>(&header, fired, &source)
        });
        // Straight to the file descriptor: `eprint!` would go to the test
        // harness's capture buffer (inherited by this thread), which is
        // lost when the process exits.
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(report.as_bytes());
        let _ = err.flush();
        std::process::exit(101)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::Node;
    use crate::engine::Searcher;
    use crate::handle::Lazy;
    use std::sync::mpsc;

    /// Every fired run, sent to the test.
    fn recording(limit: Duration) -> (Watchdog, mpsc::Receiver<Fired>) {
        let (tx, rx) = mpsc::channel();
        let tx = Mutex::new(tx);
        let dog = Watchdog::start(Some(limit), move |f| {
            let _ = lock(&tx).send(f.clone());
        });
        (dog, rx)
    }

    #[test]
    fn runs_that_return_in_time_never_fire_and_generations_advance() {
        // Limits well above a scheduler's time slice keep a loaded machine
        // from firing spuriously.
        let (dog, rx) = recording(Duration::from_millis(100));
        let mut s = Searcher::<Vec<bool>>::new(12);
        s.watch(dog.slot());
        let started = Instant::now();
        let mut runs = 0u64;
        // Many short runs over several sampling periods.
        while started.elapsed() < Duration::from_millis(300) {
            let mut s2 = Searcher::<Vec<bool>>::new(12);
            s2.watch(dog.slot());
            while s2
                .step(|xs: Lazy<Vec<bool>>| xs.iter().all(|b| b.get()))
                .is_some()
            {
                runs += 1;
            }
        }
        while s.step(|xs: Lazy<Vec<bool>>| xs.len() < 5).is_some() {}
        let slot = s.engine_slot().expect("attached");
        assert_eq!(slot.gen.get(), s.stats().runs);
        assert_eq!(
            slot.shared.state.load(Ordering::Relaxed),
            slot.gen.get() << 2 | IDLE
        );
        assert!(runs > 0);
        drop(dog);
        assert!(rx.try_recv().is_err(), "a run that returned in time fired");
    }

    #[test]
    fn a_run_over_the_limit_fires_once_with_its_value() {
        let (dog, rx) = recording(Duration::from_millis(50));
        let mut s = Searcher::<Vec<bool>>::new(6);
        s.watch(dog.slot());
        let mut slow = 0;
        while let Some(_r) = s.step(|xs: Lazy<Vec<bool>>| {
            let v: Vec<bool> = xs.force();
            if v == [false, true] {
                slow += 1;
                std::thread::sleep(Duration::from_millis(400));
            }
            true
        }) {}
        assert_eq!(slow, 1);
        let fired = rx.recv_timeout(Duration::from_secs(5)).expect("fired");
        assert!(fired.elapsed >= Duration::from_millis(50));
        assert_eq!(fired.limit, Duration::from_millis(50));
        assert_eq!(fired.size, 5);
        let g = crate::types::grammar_of::<Vec<bool>>();
        assert_eq!(fired.prods, g.prods.len());
        let tree = tree_of_copy(&g, &fired.nodes).unwrap();
        let v: Vec<bool> = crate::grammar::downcast(g.build_root(&tree), "test");
        assert_eq!(v, [false, true]);
        let report = describe::<Vec<bool>>(
            "property `p` at here.rs:1",
            &fired,
            &crate::engine::GrammarSource::Canonical,
        );
        assert!(
            report.starts_with("neatcheck: property `p` at here.rs:1\n"),
            "{report}"
        );
        assert!(report.contains("took longer than 50ms"), "{report}");
        assert!(
            report.contains("input (size 5): [false, true]\n"),
            "{report}"
        );
        assert!(
            report.contains("as constructors:  [false, true]\n"),
            "{report}"
        );
        drop(dog);
        assert!(rx.try_recv().is_err(), "fired twice for one run");
    }

    #[test]
    fn loaded_values_and_traces_are_watched_too() {
        let (dog, rx) = recording(Duration::from_millis(50));
        let g = crate::types::grammar_of::<Vec<u8>>();
        let mut s = Searcher::<Vec<u8>>::new(0);
        s.watch(dog.slot());
        let tree = crate::index::Indexer::<Vec<u8>>::new()
            .sample_tree(9, &mut crate::index::seeded_rng(7))
            .unwrap();
        s.load(&tree);
        let expected: Vec<u8> = crate::grammar::downcast(g.build_root(&tree), "test");
        let slow = |_: Lazy<Vec<u8>>| {
            std::thread::sleep(Duration::from_millis(400));
            true
        };
        s.step(slow).unwrap();
        let fired = rx
            .recv_timeout(Duration::from_secs(5))
            .expect("fired on load");
        let t = tree_of_copy(&g, &fired.nodes).unwrap();
        let v: Vec<u8> = crate::grammar::downcast(g.build_root(&t), "test");
        assert_eq!(v, expected);
        let _ = s.pattern(slow);
        let fired = rx
            .recv_timeout(Duration::from_secs(5))
            .expect("fired on trace");
        let t = tree_of_copy(&g, &fired.nodes).unwrap();
        let v: Vec<u8> = crate::grammar::downcast(g.build_root(&t), "test");
        assert_eq!(v, expected);
    }

    #[test]
    fn slots_move_to_workers_and_the_watchdog_is_shared() {
        fn send<T: Send>() {}
        fn sync<T: Sync>() {}
        send::<RunSlot>();
        sync::<Watchdog>();
    }

    #[test]
    fn drop_is_prompt() {
        let (dog, _rx) = recording(Duration::from_secs(60));
        let _slot = dog.slot();
        // Let the thread reach its wait.
        std::thread::sleep(Duration::from_millis(20));
        let t = Instant::now();
        drop(dog);
        assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
    }

    #[test]
    fn a_copy_that_does_not_fit_the_grammar_is_refused() {
        let g = crate::types::grammar_of::<Vec<bool>>();
        assert!(tree_of_copy(&g, &[]).is_none());
        let bad_prod = Choice::alternative(ProdId::new(g.prods.len()), 0, 0);
        assert!(tree_of_copy(&g, &[bad_prod]).is_none());
        // A cons cell whose fields point back at itself.
        let cons = ProdId::new(g.prods.iter().position(|p| p.slots.len() == 2).unwrap());
        let cyclic = Choice::alternative(cons, 0, 0);
        assert!(tree_of_copy(&g, &[cyclic, cyclic]).is_none());
    }

    /// The environment variable that makes [`hanging_child`] run.
    const CHILD_VAR: &str = "WATCHDOG_TEST_CHILD";

    #[test]
    #[ignore = "run in a child process by a_hanging_property_fails_the_process_naming_the_input"]
    fn hanging_child() {
        if std::env::var_os(CHILD_VAR).is_none() {
            return;
        }
        let limit = crate::check::settings::parse_duration(
            &std::env::var("NEATCHECK_RUN_TIMEOUT").expect("set by the parent"),
        )
        .expect("a duration");
        let dog = start_for::<Vec<u8>>(
            Some(limit),
            format!("property `hanging_child` at {}:{}", file!(), line!()),
            crate::engine::GrammarSource::Canonical,
        );
        let mut s = Searcher::<Vec<u8>>::new(100);
        s.watch(dog.slot());
        while s
            .step(|xs: Lazy<Vec<u8>>| {
                if xs.len() >= 3 {
                    loop {
                        std::hint::black_box(());
                    }
                }
                true
            })
            .is_some()
        {}
        unreachable!("the search ended although a run never returns");
    }

    #[test]
    fn a_hanging_property_fails_the_process_naming_the_input() {
        let exe = std::env::current_exe().unwrap();
        let mut child = std::process::Command::new(exe)
            .args([
                "--exact",
                "watchdog::tests::hanging_child",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_VAR, "1")
            .env(RUN_TIMEOUT_VAR, "200ms")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > Duration::from_secs(30) {
                let _ = child.kill();
                let _ = child.wait();
                panic!("the child was still running after 30 s: the watchdog did not fire");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let took = started.elapsed();
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(status.code(), Some(101), "{stderr}");
        assert!(took < Duration::from_secs(10), "{took:?}");
        assert!(
            stderr.contains("neatcheck: property `hanging_child` at src/watchdog.rs:"),
            "{stderr}"
        );
        assert!(
            stderr.contains(
                "neatcheck: a run of the property took longer than 200ms (the per-run limit; \
                 NEATCHECK_RUN_TIMEOUT or Config::run_timeout)"
            ),
            "{stderr}"
        );
        assert!(stderr.contains("  input (size 4): [0, 0, 0]\n"), "{stderr}");
        assert!(
            stderr.contains("  as constructors:  [0, 0, 0]\n"),
            "{stderr}"
        );
    }

    /// Per-run cost of a slot: `Searcher::step` on a cheap predicate, with
    /// and without one. `cargo test --release --lib watchdog::tests::overhead
    /// -- --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement: prints ns per run"]
    fn overhead() {
        let dog = Watchdog::start(Some(Duration::from_secs(10)), |_| {});
        let pred = |xs: Lazy<Vec<bool>>| xs.iter().filter(|b| b.get()).count() < 1000;
        let mut best = [f64::MAX; 2];
        let mut runs = 0;
        for _ in 0..10 {
            for (watched, best) in best.iter_mut().enumerate() {
                let mut s = Searcher::<Vec<bool>>::new(38);
                if watched == 1 {
                    s.watch(dog.slot());
                }
                let t = Instant::now();
                while s.step(pred).is_some() {}
                let ns = t.elapsed().as_nanos() as f64 / s.stats().runs as f64;
                *best = best.min(ns);
                runs = s.stats().runs;
            }
        }
        println!(
            "Searcher::step over {runs} runs: {:.1} ns/run unwatched, {:.1} ns/run watched \
             (best of 10)",
            best[0], best[1]
        );
        // The bracket alone, on a watched slot.
        let slot = dog.slot();
        let nodes = [Node::new(Choice::alternative(ProdId::new(0), 0, 0), 0)];
        let n = 10_000_000u32;
        let mut bracket = f64::MAX;
        for _ in 0..5 {
            let t = Instant::now();
            for i in 0..n {
                slot.enter(std::hint::black_box(&nodes[..]), i as u64);
                std::hint::black_box(&nodes);
                slot.leave();
            }
            bracket = bracket.min(t.elapsed().as_nanos() as f64 / n as f64);
        }
        println!("enter + leave alone: {bracket:.2} ns (best of 5)");
    }
}

//! Crash isolation: a run that kills the process (a stack overflow,
//! `abort()`, an allocation that failed, a fatal signal) still ends in a
//! report that names its input, the way a hang does.
//!
//! Handlers for the fatal signals are installed once per process, when a
//! check's watchdog or an exploration's supervisor first starts. Between
//! [`RunSlot::enter`](crate::run_slot::RunSlot::enter) and `leave` a
//! thread-local points at the run's slot. A fatal signal on a thread inside
//! a watched run marks the slot crashed (the signal, and whether the fault
//! hit the guard of the stack the run is on: the thread's, or the segment
//! a deep formula's walk went on on) and parks the thread in the handler, on its
//! alternate signal stack, for good once the watcher has taken the run over
//! (a watcher that does not come within 10 s lets the crash go on as if no
//! one watched, rather than hang). The watcher sees the mark within a poll
//! period, takes the run over exactly as it takes over a run past its time
//! limit (the parked thread never leaves its run, so its arena stays
//! readable), and reports the input from its own, healthy thread. A signal
//! anywhere else goes to the handler that was there before (Rust's "has
//! overflowed its stack" message, or the default action), so code outside a
//! run dies as it always did.
//!
//! Why not a supervising process (proptest's `fork`, fuzzers): the property
//! would run in another process, away from the test's thread-locals and
//! set-up, and every check would pay a process start. Here a passing run
//! pays two thread-local stores, and a check no more than its watchdog
//! thread, which it had already. The cost is that the process can not go on
//! after a crash in a check (the test thread is the one parked), so the
//! binary's other tests are lost, as they were before; an exploration runs
//! its calls on a worker thread and goes on with a fresh one.
//!
//! Linux, Android and macOS (signals, and the thread's stack bounds to tell
//! a stack overflow from another fault); elsewhere a crash ends the process
//! as before.

use crate::run_slot::SlotShared;

/// What killed a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Crash {
    /// The signal number.
    pub(crate) signal: i32,
    /// A memory fault at the thread's stack guard: a stack overflow.
    pub(crate) stack_overflow: bool,
}

/// The start of the message of a crash in an exploration, so that
/// `PanicKind::classify` tells it from a panic.
pub(crate) const CRASH_PREFIX: &str = "the call crashed the process: ";

/// How a stack overflow's description starts.
pub(crate) const STACK_OVERFLOW: &str = "stack overflow";

impl Crash {
    /// The crash as one word of a slot (0 is "none").
    fn encode(self) -> u64 {
        // Signal numbers are small and positive.
        u64::from(self.signal.unsigned_abs()) << 1 | u64::from(self.stack_overflow)
    }

    /// The crash a slot's word records, if any.
    pub(crate) fn decode(word: u64) -> Option<Crash> {
        (word != 0).then(|| Crash {
            signal: i32::try_from(word >> 1).unwrap_or(i32::MAX),
            stack_overflow: word & 1 == 1,
        })
    }

    /// What happened, in words, for a report.
    pub(crate) fn describe(self) -> String {
        if self.stack_overflow {
            return format!(
                "{STACK_OVERFLOW} (a memory fault at the thread's stack guard; unbounded \
                 recursion?)"
            );
        }
        match signal_name(self.signal) {
            "SIGABRT" => "abort (SIGABRT): `abort()`, an allocation that failed (out of memory; \
                          the message above says how much), or a panic while panicking"
                .to_string(),
            "SIGSEGV" => "invalid memory access (SIGSEGV)".to_string(),
            "SIGBUS" => "bus error (SIGBUS)".to_string(),
            "SIGILL" => "illegal instruction (SIGILL)".to_string(),
            "SIGFPE" => "arithmetic fault (SIGFPE)".to_string(),
            _ => format!("signal {}", self.signal),
        }
    }
}

/// The name of a fatal signal this module handles.
fn signal_name(signal: i32) -> &'static str {
    imp::SIGNALS
        .iter()
        .zip(imp::NAMES)
        .find(|(s, _)| **s == signal)
        .map_or("", |(_, n)| n)
}

/// Installs the handlers (once per process; later calls do nothing).
pub(crate) fn install() {
    imp::install();
}

/// This thread's own stack: its lowest and highest usable addresses,
/// looked up once per thread (`None` where they can not be, and under
/// Miri). The formula walks (`cool.rs`) read it to know how deep they may
/// go without asking `stacker` on every run.
#[inline]
pub(crate) fn thread_stack() -> Option<(usize, usize)> {
    imp::thread_stack()
}

/// Runs `f` on a stack whose lowest usable address is `low`, rather than
/// the thread's own: a stack segment of `stacker` (the formula walks go on
/// on one when a formula is deeper than the thread's stack). A fault at
/// that segment's guard is then reported as the stack overflow it is, not
/// as a memory fault.
pub(crate) fn on_stack_segment<R>(low: usize, f: impl FnOnce() -> R) -> R {
    let _restore = imp::StackLowRestore(imp::swap_stack_low(low));
    f()
}

/// A run watched for crashes begins on this thread.
#[inline]
pub(crate) fn entering(slot: &SlotShared) {
    imp::entering(slot);
}

/// The run begun last on this thread has returned.
#[inline]
pub(crate) fn leaving() {
    imp::leaving();
}

#[cfg(any(target_os = "linux", target_os = "android", target_os = "macos"))]
#[allow(unsafe_code)]
mod imp {
    use super::Crash;
    use crate::run_slot::{SlotShared, INSPECTING, PHASE};
    use std::cell::Cell;
    use std::sync::atomic::Ordering;
    use std::sync::{Once, OnceLock};

    /// The signals that end a process and that a run can raise itself.
    pub(super) const SIGNALS: [libc::c_int; 5] = [
        libc::SIGSEGV,
        libc::SIGBUS,
        libc::SIGABRT,
        libc::SIGILL,
        libc::SIGFPE,
    ];
    pub(super) const NAMES: [&str; 5] = ["SIGSEGV", "SIGBUS", "SIGABRT", "SIGILL", "SIGFPE"];

    /// How far below (and above) the lowest usable stack address a fault
    /// still counts as a stack overflow: the guard page and the largest
    /// stack probe step, with room to spare.
    const GUARD_REACH: usize = 1 << 20;

    /// How long a crashed thread waits for its watcher to take its run
    /// over, in tenths of a second, before the crash goes on as if no one
    /// watched (the watcher polls every 20 ms).
    const PARK_LIMIT: u32 = 100;

    /// The size of the alternate signal stack given to a thread that has
    /// none (threads Rust starts have one).
    const ALT_STACK: usize = 64 * 1024;

    /// The handlers that were there before ours, per signal of [`SIGNALS`].
    static PREVIOUS: OnceLock<[libc::sigaction; 5]> = OnceLock::new();

    thread_local! {
        /// The slot of the watched run in progress on this thread, or null.
        static CURRENT: Cell<*const SlotShared> = const { Cell::new(std::ptr::null()) };
        /// The lowest usable address of this thread's stack (from
        /// [`thread_stack`]), for the handler: 0 before the thread was
        /// prepared, 1 where it can not be looked up.
        static STACK_LOW: Cell<usize> = const { Cell::new(0) };
        /// This thread's stack, lowest and highest address: `(0, 0)`
        /// before it was looked up, `(1, 1)` where it can not be.
        static STACK_RANGE: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
    }

    #[inline]
    pub(super) fn thread_stack() -> Option<(usize, usize)> {
        if cfg!(miri) {
            return None;
        }
        let mut range = STACK_RANGE.with(Cell::get);
        if range.1 == 0 {
            range = stack_range().unwrap_or((1, 1));
            STACK_RANGE.with(|r| r.set(range));
        }
        (range.0 < range.1).then_some(range)
    }

    pub(super) fn install() {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            // SAFETY: `sigaction` with a null new action only reads the
            // current one into `old`, a valid zeroed struct.
            let previous = SIGNALS.map(|signal| unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                libc::sigaction(signal, std::ptr::null(), &mut old);
                old
            });
            // Before any handler of ours can run and read them.
            let _ = PREVIOUS.set(previous);
            for signal in SIGNALS {
                // SAFETY: the new action is fully initialised: a handler of
                // the `SA_SIGINFO` signature, an empty mask, and flags that
                // run it on the alternate stack (a stack overflow leaves no
                // room on the thread's own).
                unsafe {
                    let mut action: libc::sigaction = std::mem::zeroed();
                    action.sa_sigaction = on_fatal_signal as *const () as usize;
                    action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                    libc::sigemptyset(&mut action.sa_mask);
                    libc::sigaction(signal, &action, std::ptr::null_mut());
                }
            }
        });
    }

    #[inline]
    pub(super) fn entering(slot: &SlotShared) {
        if STACK_LOW.with(Cell::get) == 0 {
            prepare_thread();
        }
        CURRENT.with(|c| c.set(slot));
    }

    #[inline]
    pub(super) fn leaving() {
        CURRENT.with(|c| c.set(std::ptr::null()));
    }

    /// Makes `low` the stack bound the handler reads (once the thread is
    /// prepared: an unprepared thread keeps 0, so that its first run
    /// still prepares it); returns the bound it replaces.
    pub(super) fn swap_stack_low(low: usize) -> usize {
        STACK_LOW.with(|l| {
            let old = l.get();
            if old != 0 {
                l.set(low);
            }
            old
        })
    }

    /// Gives the handler's stack bound back when a walk leaves a stack
    /// segment, by returning or by unwinding.
    pub(super) struct StackLowRestore(pub(super) usize);

    impl Drop for StackLowRestore {
        fn drop(&mut self) {
            if self.0 != 0 {
                STACK_LOW.with(|l| l.set(self.0));
            }
        }
    }

    /// Looks up this thread's stack and makes sure it has an alternate
    /// signal stack (once per thread).
    #[cold]
    fn prepare_thread() {
        STACK_LOW.with(|l| l.set(thread_stack().map_or(1, |(low, _)| low)));
        // SAFETY: querying with a null new stack only writes `current`; a
        // new stack is a leaked allocation that outlives the thread.
        unsafe {
            let mut current: libc::stack_t = std::mem::zeroed();
            if libc::sigaltstack(std::ptr::null(), &mut current) == 0
                && current.ss_flags & libc::SS_DISABLE != 0
            {
                let memory: &'static mut [u8] = Box::leak(vec![0u8; ALT_STACK].into_boxed_slice());
                let stack = libc::stack_t {
                    ss_sp: memory.as_mut_ptr().cast(),
                    ss_flags: 0,
                    ss_size: ALT_STACK,
                };
                libc::sigaltstack(&stack, std::ptr::null_mut());
            }
        }
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn stack_range() -> Option<(usize, usize)> {
        // SAFETY: `attr` is initialised by `pthread_getattr_np` before it
        // is read, and destroyed after.
        unsafe {
            let mut attr: libc::pthread_attr_t = std::mem::zeroed();
            if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
                return None;
            }
            let mut addr: *mut libc::c_void = std::ptr::null_mut();
            let mut size: libc::size_t = 0;
            let ok = libc::pthread_attr_getstack(&attr, &mut addr, &mut size) == 0;
            libc::pthread_attr_destroy(&mut attr);
            ok.then_some((addr as usize, addr as usize + size))
        }
    }

    #[cfg(target_os = "macos")]
    fn stack_range() -> Option<(usize, usize)> {
        // SAFETY: both calls only read the calling thread's attributes.
        unsafe {
            let this = libc::pthread_self();
            let top = libc::pthread_get_stackaddr_np(this) as usize;
            Some((top - libc::pthread_get_stacksize_np(this), top))
        }
    }

    /// The address a memory fault hit.
    ///
    /// # Safety
    /// `info` is the `siginfo_t` the kernel passed to a `SA_SIGINFO`
    /// handler of SIGSEGV or SIGBUS.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    unsafe fn fault_address(info: *const libc::siginfo_t) -> usize {
        // SAFETY: as the caller promises.
        unsafe { (*info).si_addr() as usize }
    }

    /// The address a memory fault hit.
    ///
    /// # Safety
    /// As above.
    #[cfg(target_os = "macos")]
    unsafe fn fault_address(info: *const libc::siginfo_t) -> usize {
        // SAFETY: as the caller promises.
        unsafe { (*info).si_addr as usize }
    }

    /// The handler: marks the watched run in progress crashed and parks
    /// the thread, or hands the signal to the handler that was there
    /// before. Only async-signal-safe calls: atomics, thread-local reads of
    /// plain cells, `sigaction`, `raise` and `nanosleep`.
    extern "C" fn on_fatal_signal(
        signal: libc::c_int,
        info: *mut libc::siginfo_t,
        _context: *mut libc::c_void,
    ) {
        let slot = CURRENT.try_with(Cell::get).unwrap_or(std::ptr::null());
        // SAFETY: a non-null `CURRENT` is the slot of the run in progress
        // on this thread, which its engine keeps alive until `leaving`,
        // and this thread is inside that run.
        if let Some(slot) = unsafe { slot.as_ref() } {
            if slot.crash_watched.load(Ordering::Relaxed) {
                let fault = if signal == libc::SIGSEGV || signal == libc::SIGBUS {
                    // SAFETY: the kernel passes a valid `siginfo_t` to a
                    // `SA_SIGINFO` handler; these signals carry an address.
                    Some(unsafe { fault_address(info) })
                } else {
                    None
                };
                let low = STACK_LOW.try_with(Cell::get).unwrap_or(1);
                let stack_overflow = fault.is_some_and(|addr| {
                    low > 1 && addr < low.saturating_add(GUARD_REACH) && addr + GUARD_REACH >= low
                });
                let crash = Crash {
                    signal,
                    stack_overflow,
                };
                slot.crash.store(crash.encode(), Ordering::Release);
                // The watcher takes the run over, then ends the process (a
                // check) or abandons this thread (an exploration): once it
                // has, this thread waits for good. A watcher that does not
                // come (stuck behind a lock this thread held when it
                // crashed) must not turn the crash into a hang: past
                // `PARK_LIMIT` the signal goes on to the previous handler.
                let taken =
                    |slot: &SlotShared| slot.state.load(Ordering::Acquire) & PHASE == INSPECTING;
                let mut waited = 0;
                while waited < PARK_LIMIT || taken(slot) {
                    let tenth = libc::timespec {
                        tv_sec: 0,
                        tv_nsec: 100_000_000,
                    };
                    // SAFETY: `nanosleep` only reads the given duration.
                    unsafe {
                        libc::nanosleep(&tenth, std::ptr::null_mut());
                    }
                    waited += 1;
                }
            }
        }
        let i = super::imp::SIGNALS
            .iter()
            .position(|&s| s == signal)
            .unwrap_or(0);
        if let Some(previous) = PREVIOUS.get() {
            // SAFETY: restores an action read from the kernel at install.
            unsafe {
                libc::sigaction(signal, &previous[i], std::ptr::null_mut());
            }
        }
        // A fault comes back when the faulting instruction runs again, now
        // to the previous handler; a signal sent by `raise`, `abort` or
        // `kill` must be sent again (it is delivered once this returns).
        // SAFETY: the kernel passes a valid `siginfo_t`.
        if unsafe { (*info).si_code } <= 0 {
            // SAFETY: `raise` is async-signal-safe.
            unsafe {
                libc::raise(signal);
            }
        }
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android", target_os = "macos")))]
mod imp {
    use crate::run_slot::SlotShared;

    pub(super) const SIGNALS: [i32; 0] = [];
    pub(super) const NAMES: [&str; 0] = [];

    pub(super) fn install() {}

    #[inline]
    pub(super) fn entering(_: &SlotShared) {}

    #[inline]
    pub(super) fn leaving() {}

    pub(super) fn swap_stack_low(_: usize) -> usize {
        0
    }

    /// Nothing to give back where crashes are not isolated.
    pub(super) struct StackLowRestore(#[allow(dead_code)] pub(super) usize);

    #[inline]
    pub(super) fn thread_stack() -> Option<(usize, usize)> {
        None
    }
}

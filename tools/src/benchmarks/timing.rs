//! Thread CPU time for the benchmark programs (the machines they run on are
//! shared, so wall-clock time would count the waits for a core).

use std::time::Duration;
#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
use std::time::Instant;

/// CPU time of the calling thread. The machines these benchmarks run on
/// are shared: the thread's CPU time leaves out the time it waits for a
/// core, which wall-clock time would count. Used for every measured
/// interval except the short per-search ones of the open reads.
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
pub fn cpu_now() -> Duration {
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    clock(CLOCK_THREAD_CPUTIME_ID)
}

/// CPU time of the whole process (every thread: a check's watchdog as
/// well as the thread that checks).
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
pub fn process_cpu_now() -> Duration {
    const CLOCK_PROCESS_CPUTIME_ID: i32 = 2;
    clock(CLOCK_PROCESS_CPUTIME_ID)
}

/// The time of a CPU-time clock of `clock_gettime`.
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn clock(id: i32) -> Duration {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    let mut t = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` (libc, linked by std) writes one `timespec`,
    // whose layout on 64-bit Linux is two 64-bit integers, to `t`.
    let r = unsafe { clock_gettime(id, &mut t) };
    assert_eq!(r, 0, "clock_gettime({id}) failed");
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Wall-clock time since the first call (where thread CPU time is not
/// available).
#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
pub fn cpu_now() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// Wall-clock time since the first call (where process CPU time is not
/// available).
#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
pub fn process_cpu_now() -> Duration {
    cpu_now()
}

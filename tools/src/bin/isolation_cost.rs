//! What a passing default check pays for crash isolation and the watchdog:
//! a few passing properties of `neatcheck_tools::green` checked many times,
//! with the thread's CPU time, the whole process's CPU time (the watchdog
//! thread included) and wall time per check. To compare with a commit from
//! before the isolation, build this tool there too (with
//! `benchmarks::timing::process_cpu_now`) and run both alternately.
//!
//! ```text
//! cargo run --release -p neatcheck-tools --bin isolation_cost [-- REPEATS]
//! ```

use neatcheck::check::Config;
use neatcheck_tools::benchmarks::timing::{cpu_now, process_cpu_now};
use neatcheck_tools::green::*;
use std::time::{Duration, Instant};

/// Checks `check` `repeats` times: per check, the median thread CPU time,
/// and the mean process CPU and wall times.
fn measure(repeats: u32, check: &dyn Fn()) -> (Duration, Duration, Duration) {
    check();
    let mut thread = vec![];
    let (process0, wall0) = (process_cpu_now(), Instant::now());
    for _ in 0..repeats {
        let t0 = cpu_now();
        check();
        thread.push(cpu_now() - t0);
    }
    let (process, wall) = (process_cpu_now() - process0, wall0.elapsed());
    thread.sort();
    (thread[thread.len() / 2], process / repeats, wall / repeats)
}

fn main() {
    let repeats: u32 = std::env::args()
        .nth(1)
        .map_or(40, |s| s.parse().expect("a number of repeats"));
    let config = Config::default().regressions(false);
    type Check<'a> = (&'a str, Box<dyn Fn() + 'a>);
    let checks: Vec<Check<'_>> = vec![
        (
            "magnitude (i32)",
            Box::new(|| {
                config
                    .try_check(|x: i32| u64::from(magnitude(x, false)) == x.unsigned_abs() as u64)
                    .expect("passes");
            }),
        ),
        (
            "chunks of 3 (Vec<u8>)",
            Box::new(|| {
                config
                    .try_check(|xs: Vec<u8>| chunks_round_trip(&xs, false))
                    .expect("passes");
            }),
        ),
        (
            "escape round trip (String)",
            Box::new(|| {
                config
                    .try_check(|s: String| unescape(&escape(&s, false)) == s)
                    .expect("passes");
            }),
        ),
        (
            "ordinal round trip (u16, u16)",
            Box::new(|| {
                config
                    .try_check(|y: u16, d: u16| ordinal_round_trip((y, d), false))
                    .expect("passes");
            }),
        ),
    ];
    println!("| property | thread CPU (median) | process CPU (mean) | wall (mean) |");
    println!("|---|---|---|---|");
    for (name, check) in &checks {
        let (thread, process, wall) = measure(repeats, check);
        println!("| {name} | {thread:.2?} | {process:.2?} | {wall:.2?} |");
    }
}

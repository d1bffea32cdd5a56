//! Faults a property or an explored function can raise beyond a panic: a
//! stack overflow, `abort()`, an allocation that fails, a memory fault, and
//! a `Debug` that panics or never ends. A crash ends the process, so each
//! crashing check runs in a child process (this test binary, re-run on one
//! ignored probe) and the parent reads its report.

use crate::common::panic_text;
use neatcheck::check::Config;
use neatcheck::explore::PanicKind;
use neatcheck::Enumerable;
use std::fmt;

/// Recurses until the stack runs out: the frame's buffer, read after the
/// call and hidden from the optimiser by `black_box`, keeps the recursion
/// from becoming a loop in any profile (no real depth reaches `u64::MAX`).
fn overflow(n: u64) -> u64 {
    if n == u64::MAX {
        return 0;
    }
    let frame = [n; 32];
    std::hint::black_box(&frame);
    overflow(n + 1) + frame[31]
}

/// Runs `probe` of this module in a child process with `env`: its exit
/// code and standard error.
fn child(probe: &str, env: &[(&str, &str)]) -> (Option<i32>, String) {
    crate::common::run_probe(module_path!(), probe, env)
}

/// The text after `prefix` on the report line that starts with it.
fn line_after<'a>(report: &'a str, prefix: &str) -> &'a str {
    report
        .lines()
        .find_map(|l| l.trim_start().strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no line starting with {prefix:?} in:\n{report}"))
}

/// The replay key of a crash report.
fn key_of(report: &str) -> String {
    let rest = line_after(report, "replay: NEATCHECK_REPLAY=");
    rest.split_whitespace().next().unwrap().to_string()
}

/// Runs `probe`, asserts that it crashed with `cause` on `input` (the
/// `input (size N): ...` line), then replays the key it printed and asserts
/// the same crash on the same input.
fn assert_crash_report(probe: &str, cause: &str, input: &str) {
    let (code, report) = child(probe, &[]);
    assert_eq!(code, Some(101), "{report}");
    assert!(
        report.contains(&format!("crashed the process: {cause}")),
        "{report}"
    );
    assert!(report.contains(&format!("`crash::{probe}`")), "{report}");
    assert_eq!(line_after(&report, "input "), input, "{report}");
    assert!(line_after(&report, "as constructors:").trim() != "");
    let key = key_of(&report);
    let (code, again) = child(probe, &[("NEATCHECK_REPLAY", &key)]);
    assert_eq!(code, Some(101), "{again}");
    assert_eq!(line_after(&again, "input "), input, "{again}");
    assert_eq!(key_of(&again), key);
}

#[test]
fn a_stack_overflow_is_reported_with_its_input_and_key() {
    assert_crash_report(
        "overflowing_probe",
        "stack overflow",
        "(size 7): [true, false, true]",
    );
}

#[test]
#[ignore = "run in a child process by a_stack_overflow_is_reported_with_its_input_and_key"]
fn overflowing_probe() {
    neatcheck::check(|xs: Vec<bool>| xs != [true, false, true] || overflow(0) > 0);
}

/// A formula deeper than the thread's stack is walked on fresh stack
/// segments; a stack overflow in an atom computed there is still reported
/// as one (the fault hits the segment's guard, not the thread's).
#[test]
fn a_stack_overflow_deep_inside_a_formula_is_reported_as_one() {
    assert_crash_report(
        "overflowing_formula_probe",
        "stack overflow",
        "(size 7): 77",
    );
}

#[test]
#[ignore = "run in a child process by a_stack_overflow_deep_inside_a_formula_is_reported_as_one"]
fn overflowing_formula_probe() {
    use neatcheck::cool::{formula, Cool};
    use neatcheck::Lazy;
    neatcheck::check(formula(|x: Lazy<u8>| {
        if x.get() != 77 {
            return Cool::constant(true);
        }
        let deep = (0..200_000).map(|_| Cool::atom(|| true));
        Cool::all(deep.chain([Cool::atom(|| overflow(0) > 0)]))
    }));
}

#[test]
fn an_abort_is_reported_with_its_input_and_key() {
    assert_crash_report("aborting_probe", "abort (SIGABRT)", "(size 7): 77");
}

#[test]
#[ignore = "run in a child process by an_abort_is_reported_with_its_input_and_key"]
fn aborting_probe() {
    neatcheck::check(|x: u8| {
        if x == 77 {
            std::process::abort();
        }
        true
    });
}

#[test]
fn an_allocation_that_fails_is_reported_with_its_input_and_key() {
    assert_crash_report("allocating_probe", "abort (SIGABRT)", "(size 9): 300");
    let (_, report) = child("allocating_probe", &[]);
    assert!(report.contains("memory allocation of"), "{report}");
}

#[test]
#[ignore = "run in a child process by an_allocation_that_fails_is_reported_with_its_input_and_key"]
fn allocating_probe() {
    neatcheck::check(|x: u16| {
        if x == 300 {
            // More than any address space: the allocation fails everywhere
            // (`black_box`: no profile may elide it).
            let v: Vec<u8> = Vec::with_capacity(std::hint::black_box(1 << 62));
            std::hint::black_box(&v);
        }
        true
    });
}

#[test]
fn a_memory_fault_is_reported_with_its_input_and_key() {
    assert_crash_report(
        "faulting_probe",
        "invalid memory access (SIGSEGV)",
        "(size 3): 5",
    );
}

#[test]
#[ignore = "run in a child process by a_memory_fault_is_reported_with_its_input_and_key"]
fn faulting_probe() {
    neatcheck::check(|x: u8| {
        if x == 5 {
            // SAFETY: none; this is the memory fault under test.
            unsafe { std::ptr::null_mut::<u8>().write_volatile(1) };
        }
        true
    });
}

#[test]
fn a_crash_in_a_worker_thread_of_a_parallel_check_is_reported() {
    let (code, report) = child("parallel_probe", &[]);
    assert_eq!(code, Some(101), "{report}");
    assert!(
        report.contains("crashed the process: stack overflow"),
        "{report}"
    );
    assert_eq!(line_after(&report, "input "), "(size 7): 77", "{report}");
}

#[test]
#[ignore = "run in a child process by a_crash_in_a_worker_thread_of_a_parallel_check_is_reported"]
fn parallel_probe() {
    Config::default()
        .threads(2)
        .check(|x: u8| x != 77 || overflow(0) > 0);
}

#[test]
fn a_crash_outside_any_run_dies_as_rust_makes_it() {
    let (code, report) = child("outside_probe", &[]);
    assert_ne!(code, Some(101), "{report}");
    assert!(report.contains("has overflowed its stack"), "{report}");
    assert!(!report.contains("crashed the process"), "{report}");
}

#[test]
#[ignore = "run in a child process by a_crash_outside_any_run_dies_as_rust_makes_it"]
fn outside_probe() {
    // The handlers are installed by the check, and the overflow comes after.
    neatcheck::check(|x: u8| x.wrapping_add(1) != x);
    std::hint::black_box(overflow(0));
}

/// Explored: overflows the stack from 4 on.
fn recurse_past_three(n: u8) -> u64 {
    if n > 3 {
        overflow(0)
    } else {
        u64::from(n)
    }
}

/// Explored after the crashing function: panics on lists of two elements.
fn panics_on_pairs(xs: Vec<bool>) {
    assert!(xs.len() != 2);
}

#[test]
fn an_exploration_reports_a_crash_as_a_site_and_goes_on() {
    let e = neatcheck::explore!(recurse_past_three, panics_on_pairs).run();
    let overflow = e
        .sites
        .iter()
        .find(|s| s.kind == PanicKind::StackOverflow)
        .unwrap_or_else(|| panic!("no stack overflow site: {e}"));
    assert_eq!(overflow.smallest.input, "recurse_past_three(4)");
    assert_eq!(overflow.smallest.target, 0);
    assert!(overflow.smallest.key.starts_with("v1."), "{e}");
    assert!(overflow
        .test
        .contains("fn recurse_past_three_stack_overflow()"));
    // The next function is still explored.
    let pair = e
        .sites
        .iter()
        .find(|s| s.kind == PanicKind::Assert)
        .unwrap_or_else(|| panic!("the second function was not explored: {e}"));
    assert_eq!(pair.smallest.target, 1);
    assert!(!e.targets[0].complete && e.targets[1].complete, "{e}");
    assert!(e.problems.iter().any(|p| p.contains("crashed")), "{e}");
}

/// A value whose `Debug` panics.
#[derive(Enumerable, Clone, PartialEq)]
struct Loud(u8);

impl fmt::Debug for Loud {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        panic!("Loud can not be printed")
    }
}

/// A value whose `Debug` writes a megabyte.
#[derive(Enumerable, Clone, PartialEq)]
struct Verbose(u8);

impl fmt::Debug for Verbose {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for _ in 0..1 << 20 {
            f.write_str("x")?;
        }
        Ok(())
    }
}

#[test]
fn a_panicking_debug_leaves_the_rest_of_the_report() {
    let report = panic_text(|| {
        Config::default()
            .regressions(false)
            .check(|x: Loud| x.0 < 9);
    });
    assert!(
        report.contains("<its `Debug` panicked: Loud can not be printed>"),
        "{report}"
    );
    assert!(report.contains("Loud(9)"), "the constructor form: {report}");
    assert!(report.contains("NEATCHECK_REPLAY=v1."), "{report}");
}

#[test]
fn an_enormous_debug_is_cut() {
    let report = panic_text(|| {
        Config::default()
            .regressions(false)
            .check(|x: Verbose| x.0 < 9);
    });
    assert!(report.len() < 20_000, "{} bytes", report.len());
    assert!(report.contains("... (cut at 4000 characters)"), "{report}");
    assert!(report.contains("Verbose(9)"), "{report}");
    assert!(report.contains("NEATCHECK_REPLAY=v1."), "{report}");
}

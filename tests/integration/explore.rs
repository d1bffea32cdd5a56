//! Exploration with no property (`neatcheck::explore`): sites grouped by
//! location and kind, smallest inputs and run counts against the reference
//! enumeration, calls past their time or allocation budget reported while
//! the search goes on, stateful sequences, and the reproducing tests. The
//! allocation budget is tested in `tools/src/program_tests/explore_budgets.rs`
//! (this binary has a global allocator of its own).

use neatcheck::explore::{call_at, BudgetKind, Explorer, PanicKind};
use neatcheck::values::values_of;
use neatcheck::{Enumerable, Lazy};
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

/// Four implicit tests, each failing on its own inputs.
fn mixed(xs: Vec<u8>, k: u8) -> u8 {
    if k > 6 {
        panic!("k too large");
    }
    let x = xs[usize::from(k)];
    let y = xs.iter().copied().find(|&y| y > x).unwrap();
    x / (y - x - 1)
}

/// `mixed`, reading its arguments lazily.
fn mixed_lazy(xs: Lazy<Vec<u8>>, k: Lazy<u8>) -> u8 {
    let k = k.get();
    if k > 6 {
        panic!("k too large");
    }
    let x = xs.nth(usize::from(k)).expect("no such element").get();
    let y = xs.iter().map(|y| y.get()).find(|&y| y > x).unwrap();
    x / (y - x - 1)
}

/// The kind of the panic of `f`, if it panics (brute force).
fn kind_of(f: impl FnOnce()) -> Option<PanicKind> {
    let p = catch_unwind(AssertUnwindSafe(f)).err()?;
    let m = p
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    Some(PanicKind::classify(&m))
}

/// Per kind, the smallest size that panics with it and the number of
/// inputs up to `max` that do, by the reference enumeration.
fn reference<T: Enumerable + Clone>(
    max: usize,
    call: impl Fn(T),
) -> BTreeMap<PanicKind, (u64, u64)> {
    let mut out: BTreeMap<PanicKind, (u64, u64)> = BTreeMap::new();
    for size in 0..=max {
        for v in values_of::<T>(size) {
            if let Some(kind) = kind_of(|| call(v.clone())) {
                let e = out.entry(kind).or_insert((size as u64, 0));
                e.1 += 1;
            }
        }
    }
    out
}

#[test]
fn sites_match_the_reference_enumeration_for_plain_arguments() {
    let max = 7;
    let expected = reference::<(Vec<u8>, u8)>(max, |(xs, k)| {
        let _ = mixed(xs, k);
    });
    assert_eq!(expected.len(), 4, "{expected:?}");
    let report = neatcheck::explore!(mixed)
        .max_size(max)
        .random_cases(0)
        .run();
    assert!(report.problems.is_empty() && report.overruns.is_empty());
    let mut found = BTreeMap::new();
    for s in &report.sites {
        assert!(
            found.insert(s.kind, (s.smallest.size, s.runs)).is_none(),
            "one site per kind here: {report}"
        );
        assert!(s.smallest.minimal);
        assert!(s.location.file.ends_with("explore.rs"), "{}", s.location);
        // The smallest input panics again, with the same kind.
        let key = s.smallest.key.clone();
        assert_eq!(kind_of(|| call_at(&key, mixed)), Some(s.kind));
    }
    // Plain arguments are read whole: one call per input, so the run
    // counts are the reference's counts.
    assert_eq!(found, expected);
    let t = &report.targets[0];
    assert_eq!((t.sizes_done, t.complete), (Some(max), true));
}

#[test]
fn lazy_arguments_find_the_same_smallest_sizes_in_fewer_calls() {
    let max = 7;
    let expected = reference::<(Vec<u8>, u8)>(max, |(xs, k)| {
        let _ = mixed(xs, k);
    });
    let report = Explorer::new()
        .function("mixed_lazy", mixed_lazy)
        .max_size(max)
        .random_cases(0)
        .run();
    let plain = neatcheck::explore!(mixed)
        .max_size(max)
        .random_cases(0)
        .run();
    // `expect` on the lazy index is an explicit panic where the plain
    // function has an index panic.
    assert_eq!(report.sites.len(), 4, "{report}");
    for site in &report.sites {
        let kind = if site.message == "no such element" {
            PanicKind::Index
        } else {
            site.kind
        };
        let (size, count) = expected[&kind];
        assert_eq!(site.smallest.size, size, "{kind}");
        assert!(site.runs <= count, "{kind}");
        assert!(site.smallest.minimal);
    }
    assert!(report.targets[0].runs < plain.targets[0].runs);
}

/// A helper whose assertion two functions reach.
fn helper(x: u8) {
    assert!(x < 5);
}

fn through_one(x: u8) {
    helper(x);
}

fn through_two(x: u8, y: u8) {
    helper(x.wrapping_add(y));
}

#[test]
fn failures_are_grouped_by_location_and_kind_across_functions() {
    let report = neatcheck::explore!(through_one, through_two)
        .max_size(6)
        .random_cases(0)
        .run();
    assert_eq!(report.sites.len(), 1, "{}", report.details());
    let site = &report.sites[0];
    assert_eq!(site.kind, PanicKind::Assert);
    // Every failing input of both functions, by the reference.
    let one = reference::<u8>(6, through_one);
    let two = reference::<(u8, u8)>(6, |(x, y)| through_two(x, y));
    assert_eq!(
        site.runs,
        one[&PanicKind::Assert].1 + two[&PanicKind::Assert].1
    );
    // The smallest of all: 5 (size 3) through the first function; the
    // second's smallest are as large.
    assert_eq!(site.smallest.input, "through_one(5)");
    assert_eq!(site.smallest.size, 3);
    assert!(two[&PanicKind::Assert].0 >= 3);
    assert!(site.test.contains("neatcheck::explore::call_at("));
    assert!(site.test.contains(", through_one);"));
    assert!(site
        .test
        .starts_with("#[test]\nfn through_one_panics_explore_"));
    assert_eq!(
        report.to_string().lines().next().unwrap(),
        format!(
            "site {}:{} kind assert runs {} smallest through_one(5)",
            site.location.file, site.location.line, site.runs
        )
    );
}

fn sleepy(x: u8) {
    if x == 3 {
        // Never returns (sleeping, so it does not spin on a shared core).
        loop {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    if x == 9 {
        panic!("nine");
    }
}

fn after(x: u8) {
    if x == 1 {
        panic!("one");
    }
}

#[test]
fn a_looping_call_is_reported_and_the_search_goes_on() {
    let report = neatcheck::explore!(sleepy, after)
        .max_size(8)
        .time_budget(Some(Duration::from_millis(500)))
        .run();
    assert!(report.problems.is_empty(), "{}", report.details());
    assert_eq!(report.overruns.len(), 1, "{}", report.details());
    let o = &report.overruns[0];
    assert_eq!(o.input, "sleepy(3)");
    assert_eq!(o.budget, BudgetKind::Time(Duration::from_millis(500)));
    assert!(o.to_string().contains("per-call time budget"));
    // The rest of its sizes and the next function were explored.
    let kinds: Vec<&str> = report
        .sites
        .iter()
        .map(|s| s.smallest.input.as_str())
        .collect();
    assert_eq!(kinds, ["sleepy(9)", "after(1)"]);
    for t in &report.targets {
        assert_eq!((t.runs, t.complete), (256, true), "{}", t.name);
    }
    // Every input of sleepy but the stuck one was called once.
    assert_eq!(report.sites[0].runs, 1);
    assert!(report.details().contains("budgets per call: time 500ms"));
}

/// A bounded stack with the operations as an enum.
#[derive(Debug)]
struct Stack {
    items: Vec<u8>,
    capacity: usize,
}

#[derive(Enumerable, Debug, Clone)]
enum StackOp {
    Push(u8),
    Pop,
}

fn new_stack(capacity: u8) -> Stack {
    Stack {
        items: vec![],
        capacity: usize::from(capacity),
    }
}

fn apply(s: &mut Stack, op: StackOp) -> Option<u8> {
    match op {
        StackOp::Push(x) => {
            assert!(s.items.len() < s.capacity, "stack full");
            s.items.push(x);
            None
        }
        StackOp::Pop => Some(s.items.pop().unwrap()),
    }
}

fn run_stack(capacity: u8, ops: Vec<StackOp>) {
    let mut s = new_stack(capacity);
    for op in ops {
        let _ = apply(&mut s, op);
    }
}

#[test]
fn sequences_of_calls_find_the_smallest_failing_sequence_lazily() {
    let max = 7;
    let expected = reference::<(u8, Vec<StackOp>)>(max, |(c, ops)| run_stack(c, ops));
    let report = Explorer::new()
        .sequence("new_stack", new_stack, "apply", apply)
        .max_size(max)
        .random_cases(0)
        .run();
    assert_eq!(report.sites.len(), 2, "{}", report.details());
    for s in &report.sites {
        let (size, count) = expected[&s.kind];
        assert_eq!(s.smallest.size, size, "{}", s.kind);
        // A sequence that fails stands for all its continuations.
        assert!(s.runs < count, "{}: {} of {count}", s.kind, s.runs);
        let key = s.smallest.key.clone();
        assert_eq!(
            kind_of(|| neatcheck::explore::call_sequence_at(&key, new_stack, apply)),
            Some(s.kind)
        );
    }
    let pop = report
        .sites
        .iter()
        .find(|s| s.kind == PanicKind::UnwrapNone)
        .unwrap();
    assert_eq!(pop.smallest.input, "new_stack(0) then [Pop]");
    assert!(pop
        .test
        .contains("neatcheck::explore::call_sequence_at(\"v1."));
}

#[test]
fn a_clean_api_passes_the_check() {
    fn total(xs: Vec<u8>) -> u32 {
        xs.iter().map(|&x| u32::from(x)).sum()
    }
    let report = neatcheck::explore!(total).max_size(6).check();
    assert!(report.is_clean());
    assert!(report.targets[0].runs > 0);
    let failing = catch_unwind(|| neatcheck::explore!(through_one).max_size(4).check());
    let message = failing.unwrap_err();
    let message = message.downcast_ref::<String>().unwrap();
    assert!(message.contains("kind assert"), "{message}");
    assert!(message.contains("reproduce with:"), "{message}");
}

#[test]
fn a_bad_replay_key_is_a_clear_error() {
    let e = catch_unwind(|| call_at("v9.nonsense", through_one)).unwrap_err();
    let m = e.downcast_ref::<String>().unwrap();
    assert!(m.contains("names no input of `u8`"), "{m}");
}

/// The length of `x` as a varint, with the table wrong from `2^42` on.
fn varint_len(x: u64) -> usize {
    const TABLE: [u32; 9] = [7, 14, 21, 28, 35, 42, 49, 56, 63];
    let bits = 64 - x.leading_zeros();
    TABLE
        .iter()
        .position(|&limit| bits <= limit)
        .map(|i| i + 1)
        .filter(|&n| bits <= 42 || n < 7)
        .expect("a length for every value")
}

#[test]
fn past_the_sizes_explored_edge_values_and_random_cases_meet_large_inputs() {
    // Sizes up to 10 hold the numbers below 2^10; the edge sweep reaches
    // 2^42 anyway, the same every time, and says it is not proven smallest.
    let explore = || neatcheck::explore!(varint_len).max_size(10).run();
    let report = explore();
    assert_eq!(report.sites.len(), 1, "{}", report.details());
    let site = &report.sites[0];
    assert_eq!(site.kind, PanicKind::Explicit);
    assert!(site.smallest.size > 10 && !site.smallest.minimal, "{site}");
    let x: u64 = site
        .smallest
        .input
        .trim_start_matches("varint_len(")
        .trim_end_matches(')')
        .parse()
        .unwrap();
    assert!(x >= 1 << 42, "{x}");
    assert_eq!(explore().sites[0].smallest.input, site.smallest.input);
    // Without the phase past the sizes, nothing is found.
    let exhaustive = neatcheck::explore!(varint_len)
        .max_size(10)
        .random_cases(0)
        .run();
    assert!(exhaustive.sites.is_empty(), "{}", exhaustive.details());
}

/// Parses a decimal byte; panics on anything else.
fn parse_byte(text: &str) -> u8 {
    text.parse().expect("a byte")
}

/// The element after the first `k`; panics when there is none.
fn after_first(k: u8, xs: &[u8]) -> u8 {
    let i = xs.iter().position(|&x| x == k).unwrap();
    xs[i + 1]
}

/// Whether a name starts with a letter.
fn starts_with(letter: &char, name: &str) -> bool {
    name.starts_with(*letter)
}

/// Functions of `&str`, `&[T]` and `&T` arguments are explored through
/// their owned forms, named directly (no wrapping closure), so their
/// reproducing tests call them by name and compile.
#[test]
fn borrowed_arguments_are_explored_through_their_owned_forms() {
    let report = neatcheck::explore!(parse_byte, after_first, starts_with)
        .max_size(7)
        .random_cases(0)
        .run();
    let inputs: Vec<&str> = report
        .sites
        .iter()
        .map(|s| s.smallest.input.as_str())
        .collect();
    assert_eq!(
        inputs,
        [
            "parse_byte(\"\")",
            "after_first(0, [])",
            "after_first(0, [0])"
        ],
        "{report}"
    );
    let test = &report.sites[0].test;
    assert!(test.contains("neatcheck::explore::call_at("), "{test}");
    assert!(test.contains(", parse_byte);"), "{test}");
    // The reproducing call compiles for a function of `&str` and fails
    // the same way.
    let key = report.sites[0].smallest.key.clone();
    let replayed = catch_unwind(AssertUnwindSafe(|| call_at(&key, parse_byte)));
    assert!(replayed.is_err());
    let key = report.sites[1].smallest.key.clone();
    assert!(catch_unwind(AssertUnwindSafe(|| call_at(&key, after_first))).is_err());
}

/// Declares items and keeps their source text, so that the functions run
/// here and in the file their reproducing tests are compiled with.
macro_rules! with_source {
    ($name:ident: $($item:item)*) => {
        $($item)*
        const $name: &str = stringify!($($item)*);
    };
}

with_source! { TEXT_API:
    /// Pads `text` on the left to `width` characters (the width is a byte,
    /// converted).
    fn pad(text: &str, width: usize) -> String {
        let missing = width - text.chars().count();
        format!("{}{text}", " ".repeat(missing))
    }

    /// The first word of a line.
    fn first_word(line: &str) -> usize {
        line.split(' ').next().filter(|w| !w.is_empty()).expect("a word").len()
    }
}

/// The rlib of neatcheck this test binary was built beside, and its
/// dependencies' directory, for compiling code that uses neatcheck.
fn neatcheck_rlib() -> (std::path::PathBuf, std::path::PathBuf) {
    let deps = std::env::current_exe()
        .unwrap()
        .parent()
        .unwrap()
        .to_path_buf();
    let rlib = std::fs::read_dir(&deps)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with("libneatcheck-") && name.ends_with(".rlib")
        })
        .max_by_key(|e| e.metadata().and_then(|m| m.modified()).ok())
        .expect("neatcheck's rlib beside the test binary")
        .path();
    (rlib, deps)
}

/// The reproducing tests of an exploration compile and fail as the sites
/// did: for a function of `&str` named directly and for a closure given to
/// `explore!` (whose source the test calls).
#[test]
fn reproducing_tests_compile_and_fail_the_same_way() {
    let report = neatcheck::explore!(first_word, |text: String, width: u8| pad(
        &text,
        width.into()
    ))
    .max_size(6)
    .random_cases(0)
    .run();
    assert_eq!(report.sites.len(), 2, "{report}");
    assert_eq!(report.sites[0].smallest.input, "first_word(\"\")");
    assert!(
        report.sites[1]
            .smallest
            .input
            .starts_with("(|text: String, width: u8| pad(&text, width.into()))("),
        "{report}"
    );
    let tests: String = report.sites.iter().map(|s| s.test.clone()).collect();
    let source = format!("{TEXT_API}\n{tests}");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("explore_repro");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (rlib, deps) = neatcheck_rlib();
    let extra = [
        "--extern".to_string(),
        format!("neatcheck={}", rlib.display()),
        "-L".to_string(),
        format!("dependency={}", deps.display()),
    ];
    let (passed, out) = crate::common::compile_and_run_tests(&dir, "repro", &source, &extra);
    assert!(!passed, "{out}");
    assert!(out.contains("0 passed; 2 failed"), "{out}");
    assert!(out.contains("a word") && out.contains("overflow"), "{out}");
}

/// Panics on a list that begins 0, 1, 2, 3, 4, 5 (read lazily, element by
/// element): long, with small parts, past the sizes explored by size, and
/// too particular for random cases; the depth-bounded order (a check's
/// portfolio) meets it.
fn counts_up(xs: Lazy<Vec<u8>>) {
    let mut elements = xs.iter();
    for k in 0..6u8 {
        match elements.next() {
            Some(x) if x == k => {}
            _ => return,
        }
    }
    panic!("counts up to five");
}

/// The cases pass begins with the depth-bounded order, as a check's
/// portfolio: long inputs of small parts are met past the explored sizes,
/// and the site says its input is not proven smallest.
#[test]
fn the_depth_bounded_stage_meets_long_inputs_of_small_parts() {
    let report = neatcheck::explore!(counts_up).max_size(8).run();
    assert_eq!(report.sites.len(), 1, "{report}");
    let site = &report.sites[0];
    assert!(site.smallest.size > 8);
    assert!(
        site.smallest.input.contains("[0, 1, 2, 3, 4, 5"),
        "{report}"
    );
    assert!(!site.smallest.minimal);
    let without = neatcheck::explore!(counts_up)
        .max_size(8)
        .random_cases(0)
        .run();
    assert!(without.sites.is_empty(), "{without}");
}

fn apply_twice(f: &dyn Fn(&u8) -> u8, x: u8) -> u8 {
    let y = f(&x);
    100 / (f(&y) - y)
}

fn first_match(xs: &[u8], p: &dyn Fn(&u8) -> bool) -> u8 {
    *xs.iter().find(|x| p(x)).unwrap()
}

fn monotone_at_three(p: &dyn Fn(&u8) -> bool) -> bool {
    assert!(p(&3) || !p(&4), "not monotone");
    true
}

/// A higher-order function is explored by name: its function argument
/// (`&dyn Fn(&A) -> B`) ranges over `Fun<A, B>`, the smallest functions
/// first, printed as a `match`.
#[test]
fn higher_order_functions_are_explored_with_function_inputs() {
    let report = neatcheck::explore!(apply_twice, first_match, monotone_at_three)
        .max_size(8)
        .run();
    let smallest: Vec<(PanicKind, String)> = report
        .sites
        .iter()
        .map(|s| (s.kind, s.smallest.input.clone()))
        .collect();
    assert_eq!(
        smallest,
        [
            (
                PanicKind::DivisionByZero,
                "apply_twice(|_| 0, 0)".to_string()
            ),
            (
                PanicKind::Overflow,
                "apply_twice(|x| match x { 0 => 1, _ => 0 }, 0)".to_string()
            ),
            (
                PanicKind::UnwrapNone,
                "first_match([], |_| false)".to_string()
            ),
            (
                PanicKind::Explicit,
                "monotone_at_three(|x| match x { ..=3 => false, _ => true })".to_string()
            ),
        ]
    );
    assert!(report.sites.iter().all(|s| s.smallest.minimal));
}

//! The allocation budget of explorations (`neatcheck::explore`): a call
//! that holds more than its budget is parked and reported, and the search
//! goes on; past the threads allowed to be abandoned, the exploration stops
//! and says so. Here because the allocator of
//! `neatcheck::counting_allocator!` must be the binary's global allocator.

use neatcheck::explore::BudgetKind;

// Counts nothing outside budgeted calls.
neatcheck::counting_allocator!();

#[test]
fn the_counting_allocator_is_installed() {
    drop(std::hint::black_box(vec![0u8; 16]));
    assert!(neatcheck::explore::alloc::counting_allocator_installed());
}

fn hog(n: u8) {
    if n == 5 {
        let mut held: Vec<Vec<u8>> = vec![];
        loop {
            held.push(vec![1; 4096]);
        }
    }
    if n == 6 {
        // Within the budget, and freed: not reported.
        drop(std::hint::black_box(vec![0u8; 100_000]));
    }
    if n == 7 {
        panic!("seven");
    }
}

#[test]
fn an_allocating_call_is_reported_and_the_search_goes_on() {
    let report = neatcheck::explore!(hog)
        .max_size(4)
        .random_cases(0)
        .time_budget(None)
        .alloc_budget(Some(1 << 20))
        .run();
    assert!(report.problems.is_empty(), "{}", report.details());
    assert_eq!(report.overruns.len(), 1, "{}", report.details());
    assert_eq!(report.overruns[0].input, "hog(5)");
    assert_eq!(report.overruns[0].budget, BudgetKind::Alloc(1 << 20));
    assert_eq!(report.sites.len(), 1);
    assert_eq!(report.sites[0].smallest.input, "hog(7)");
    assert_eq!(report.targets[0].runs, 16);
    assert!(report.targets[0].complete);
}

fn hogs(n: u8) {
    if n % 2 == 1 {
        let mut held: Vec<Vec<u8>> = vec![];
        loop {
            held.push(vec![1; 4096]);
        }
    }
}

#[test]
fn past_the_abandoned_threads_allowed_the_exploration_stops_and_says_so() {
    let report = neatcheck::explore!(hogs)
        .max_size(4)
        .random_cases(0)
        .time_budget(None)
        .alloc_budget(Some(1 << 16))
        .max_abandoned(2)
        .run();
    assert_eq!(report.overruns.len(), 3);
    assert_eq!(report.problems.len(), 1);
    assert!(report.problems[0].contains("at most 2 allowed"));
    assert!(!report.is_clean());
}

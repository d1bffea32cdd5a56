//! Unit tests of mutation testing's internals: the seeded sampling, the
//! printing of calls, errors, panics and neatcheck's own errors in runs.

use super::*;
use std::cell::Cell;

#[test]
fn samples_are_distinct_ascending_below_the_bound_and_seeded() {
    for (n, k) in [(10u32, 3usize), (10, 9), (1000, 500), (7, 0)] {
        let n = BigUint::from(n);
        let s = sample_distinct(&n, k, 42);
        assert_eq!(s.len(), k);
        assert!(s.windows(2).all(|w| w[0] < w[1]));
        assert!(s.iter().all(|x| x < &n));
        assert_eq!(s, sample_distinct(&n, k, 42));
    }
    let n = BigUint::from(1u32 << 20);
    assert_ne!(sample_distinct(&n, 10, 1), sample_distinct(&n, 10, 2));
}

#[test]
fn samples_cover_the_range_uniformly_enough() {
    // 2 of 4, over many seeds: each number chosen about half the time.
    let n = BigUint::from(4u32);
    let mut hits = [0u32; 4];
    for seed in 0..2000 {
        for x in sample_distinct(&n, 2, seed) {
            hits[x.to_usize().unwrap()] += 1;
        }
    }
    for h in hits {
        assert!((850..1150).contains(&h), "{hits:?}");
    }
}

#[test]
fn calls_print_tuples_as_argument_lists() {
    assert_eq!(call_text("f", &vec![1u8, 0]), "f([1, 0])");
    assert_eq!(call_text("insert", &(3u8, 4u8)), "insert(3, 4)");
    assert_eq!(call_text("g", &()), "g()");
    assert_eq!(call_text("h", &7u8), "h(7)");
}

#[test]
fn a_nondeterministic_function_is_an_error() {
    let calls = Cell::new(0u8);
    let flaky = |x: &u8| {
        calls.set(calls.get().wrapping_add(1));
        x.wrapping_add(calls.get() % 2)
    };
    let err = score(&MutationConfig::default(), "flaky", flaky, |f, x: u8| {
        f(&x);
        f(&x);
        true
    })
    .unwrap_err();
    assert!(
        matches!(err, MutationError::Nondeterministic { .. }),
        "{err}"
    );
}

#[test]
fn a_property_failing_on_the_original_is_an_error_not_a_score() {
    let err = score(
        &MutationConfig::default(),
        "id",
        |x: &u8| *x,
        |f, x: u8| f(&x) < 3,
    )
    .unwrap_err();
    assert_eq!(
        err,
        MutationError::OriginalFails {
            input: "3".into(),
            panic: None
        }
    );
    let err = score(
        &MutationConfig::default(),
        "id",
        |x: &u8| *x,
        |f, x: u8| {
            assert!(f(&x) < 2, "too big");
            true
        },
    )
    .unwrap_err();
    assert!(err.to_string().contains("too big"), "{err}");
}

#[test]
fn a_panic_of_a_mutant_run_kills_it() {
    // The property indexes the output: a shorter replacement panics.
    let report = score(
        &MutationConfig::default().input_size(3).output_size(3),
        "dup",
        |xs: &Vec<bool>| xs.iter().chain(xs).copied().collect::<Vec<bool>>(),
        |f, xs: Vec<bool>| {
            let ys = f(&xs);
            (0..xs.len() * 2).all(|i| ys[i] == xs[i % xs.len()])
        },
    )
    .unwrap();
    assert!(report.killed > 0);
    assert_eq!(report.undecided, 0);
}

#[test]
fn neatcheck_errors_in_a_run_are_raised_not_counted() {
    let raised = catch_unwind(|| {
        score(
            &MutationConfig::default().input_size(1),
            "id",
            |x: &u8| *x,
            |f, x: u8| {
                if f(&x) != x {
                    internal::raise("inconsistent".into());
                }
                true
            },
        )
    });
    let payload = raised.unwrap_err();
    assert_eq!(internal::message_of(payload.as_ref()), Some("inconsistent"));
}

#[test]
fn the_lazy_form_refuses_more_outputs_than_it_builds() {
    // u64 values up to size 30: about 2^30 of them.
    let err = score_lazy(
        &MutationConfig::default().input_size(0).output_size(30),
        "id",
        |x: &u64| *x,
        |x: &u64| *x,
        |_, _| true,
    )
    .unwrap_err();
    assert!(matches!(err, MutationError::TooManyOutputs { .. }), "{err}");
    assert!(err
        .to_string()
        .contains("lower `MutationConfig::output_size`"));
}

#[test]
fn no_called_point_means_no_mutant_and_no_work() {
    // The property never calls the function; u64 outputs up to size 60
    // (2^60 values) must not be built.
    let report = score(
        &MutationConfig::default().input_size(2).output_size(60),
        "id",
        |x: &u64| *x,
        |_, _x: u8| true,
    )
    .unwrap();
    assert_eq!((report.points, report.mutants, report.runs), (0, 0, 0));
    assert_eq!(report.score(), None);
    assert!(report.line("p").ends_with("score n/a"));
}

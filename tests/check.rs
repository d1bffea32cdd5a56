//! The `cargo test` integration: reports, configuration, preconditions.

use neatcheck::check::{run_check, Config, Stop};
use neatcheck::{implies, Lazy};

/// Inserts into a sorted list, but drops duplicates (the bug).
fn insert_dropping_duplicates(x: u8, xs: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut placed = false;
    for &y in xs {
        if !placed && x <= y {
            if x != y {
                out.push(x);
            }
            placed = true;
        }
        out.push(y);
    }
    if !placed {
        out.push(x);
    }
    out
}

fn is_sorted(xs: Lazy<'_, Vec<u8>>) -> bool {
    let mut prev: Option<u8> = None;
    for x in xs.iter() {
        let x = x.get();
        if prev.is_some_and(|p| p > x) {
            return false;
        }
        prev = Some(x);
    }
    true
}

#[test]
#[should_panic(expected = "counterexample (size 2): (0, [0])")]
fn sorted_insert_that_drops_duplicates_reports_the_smallest_input() {
    neatcheck::check(|x: Lazy<u8>, xs: Lazy<Vec<u8>>| {
        implies(is_sorted(xs), || {
            let x = x.get();
            let xs = xs.force();
            insert_dropping_duplicates(x, &xs).len() == xs.len() + 1
        })
    });
}

#[test]
fn the_report_has_everything_needed() {
    let config = Config::default();
    let f = run_check(&config, |x: u8, xs: Vec<u8>| {
        insert_dropping_duplicates(x, &xs).len() == xs.len() + 1
    })
    .unwrap_err();
    assert_eq!(f.value, (0, vec![0]));
    assert_eq!(f.size, 2);
    assert_eq!(f.before.exhausted, Some(1));
    let report = f.report();
    assert!(
        report.contains("counterexample (size 2): (0, [0])"),
        "{report}"
    );
    assert!(report.contains("sizes 0..=1 passed first"), "{report}");
    assert!(
        report.contains("NEATCHECK_REPLAY=2 cargo test my_test"),
        "{report}"
    );
}

#[test]
fn unread_positions_are_shown_as_holes() {
    let f = run_check(&Config::default(), |xs: Lazy<Vec<bool>>| {
        xs.first().map(|b| !b.get()).unwrap_or(true)
    })
    .unwrap_err();
    assert_eq!(f.value, vec![true]);
    assert_eq!(f.pattern, "[true, ..]");
}

#[test]
fn panics_are_reported_with_their_message() {
    let f = run_check(&Config::default(), |xs: Vec<u8>| {
        assert!(xs.len() < 2, "too long: {}", xs.len());
    })
    .unwrap_err();
    assert_eq!(f.value, vec![0, 0]);
    assert_eq!(f.panic.as_deref(), Some("too long: 2"));
    assert!(f.report().contains("the property panicked: too long: 2"));
}

#[test]
fn err_results_fail_with_the_error() {
    let f = run_check(&Config::default(), |x: u8| -> Result<(), String> {
        if x == 3 {
            Err(format!("x is {x}"))
        } else {
            Ok(())
        }
    })
    .unwrap_err();
    assert_eq!(f.value, 3);
    assert!(f.report().contains("returned Err(\"x is 3\")"));
}

#[test]
#[should_panic(expected = "no input met the precondition")]
fn a_precondition_that_never_holds_is_reported() {
    neatcheck::check_with(Config::default().max_size(6), |xs: Lazy<Vec<bool>>| {
        implies(xs.len() > 100, || false)
    });
}

#[test]
fn max_size_limits_the_search_and_time_is_reported() {
    let s = run_check(&Config::default().max_size(5), |xs: Vec<bool>| {
        xs.len() < 100
    })
    .unwrap();
    assert_eq!(s.exhausted, Some(5));
    assert_eq!(s.stopped, Stop::MaxSize);
    // Every list of size <= b is run at bound b (the property reads all).
    assert_eq!(s.runs, 1 + 1 + 3 + 3 + 7);
    assert_eq!(s.worst_case, "7");
}

#[test]
fn max_runs_stops_the_search() {
    let s = run_check(&Config::default().max_runs(10), |xs: Vec<bool>| {
        xs.len() < 100
    })
    .unwrap();
    assert_eq!(s.stopped, Stop::Runs);
    assert_eq!(s.runs, 10);
}

#[test]
fn labels_are_counted_over_relevant_runs() {
    let s = run_check(&Config::default().max_size(5), |xs: Lazy<Vec<bool>>| {
        implies(!xs.is_empty(), || {
            neatcheck::label(if xs.first().unwrap().get() {
                "starts true"
            } else {
                "starts false"
            });
            true
        })
    })
    .unwrap();
    assert_eq!(s.relevant, s.labels.values().sum::<u64>());
    assert!(s.labels.contains_key("starts true"));
    assert!(s.to_string().contains("% starts true"));
}

#[test]
fn results_are_deterministic() {
    let run = || {
        run_check(&Config::default(), |xs: Vec<u8>, ys: Vec<u8>| {
            xs.len() + ys.len() < 3
        })
        .unwrap_err()
        .value
    };
    assert_eq!(run(), run());
}

#[test]
fn exists_finds_the_smallest_witness() {
    let w = neatcheck::exists(|xs: Vec<bool>| xs.iter().filter(|b| **b).count() == 2);
    assert_eq!(w, vec![true, true]);
}

#[test]
fn environment_variables_change_what_is_run() {
    // Run in a child process so the variables do not leak into other tests.
    let exe = std::env::current_exe().unwrap();
    let out = std::process::Command::new(&exe)
        .args(["--exact", "env_probe", "--nocapture", "--ignored"])
        .env("NEATCHECK_SIZE", "4")
        .env("NEATCHECK_VERBOSE", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "sizes 0..=4 exhausted: 3 runs at the last bound (worst case 3), 8 runs in all"
        ),
        "{stderr}"
    );
    let out = std::process::Command::new(&exe)
        .args(["--exact", "env_probe", "--nocapture", "--ignored"])
        .env("NEATCHECK_TIME", "0ms")
        .env("NEATCHECK_VERBOSE", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr
            .contains("no size exhausted: 0 runs at the last bound (worst case 0), 0 runs in all"),
        "{stderr}"
    );
}

#[test]
#[ignore = "run by environment_variables_change_what_is_run"]
fn env_probe() {
    neatcheck::check(|xs: Vec<bool>| xs.len() < 100);
}

neatcheck::neatcheck! {
    #[test]
    fn macro_form_with_plain_arguments(x: u8, y: u8) -> bool {
        x.saturating_add(y) >= x
    }

    #[test]
    fn macro_form_with_lazy_arguments(xs: Lazy<Vec<u8>>) -> bool {
        xs.len() == xs.force().len()
    }
}

#[test]
fn beyond_exhaustive_sampling_finds_large_counterexamples() {
    // Fails only for lists longer than 20 (size 43, 2^21 lists): exhausting
    // is far too slow for the budget, sampling sizes up to 60 finds it.
    let config = Config::default()
        .time(std::time::Duration::from_millis(50))
        .sample_beyond(20, 60);
    let f = run_check(&config, |xs: Vec<bool>| xs.len() <= 20).unwrap_err();
    assert!(f.sampled);
    assert!(f.value.len() > 20);
    assert!(f.report().contains("found by uniform sampling"));
    // Deterministic: the samples of a size depend only on the seed.
    let fixed = Config::default().max_size(30).sample_beyond(20, 60);
    let g = run_check(&fixed, |xs: Vec<bool>| xs.len() <= 20).unwrap_err();
    let h = run_check(&fixed, |xs: Vec<bool>| xs.len() <= 20).unwrap_err();
    assert_eq!((g.size, &g.value), (h.size, &h.value));
}

#[test]
fn beyond_exhaustive_reports_sampled_sizes() {
    let config = Config::default().max_size(5).sample_beyond(3, 9);
    let s = run_check(&config, |xs: Vec<bool>| xs.len() < 100).unwrap();
    assert_eq!(s.exhausted, Some(5));
    assert_eq!(
        s.sampled.iter().map(|p| p.0).collect::<Vec<_>>(),
        vec![7, 9]
    );
    assert!(s.to_string().contains("sampled"));
}

#[derive(neatcheck::Enumerable, Debug, Clone, PartialEq)]
enum Chain {
    End,
    Link(bool, Box<Chain>),
}

#[test]
fn forcing_deep_values_does_not_overflow_the_stack() {
    // A search diving to a 3 000-link chain, forced at every step, on a
    // thread with a small stack.
    std::thread::Builder::new()
        .stack_size(128 * 1024)
        .spawn(|| {
            let mut s = neatcheck::search::Searcher::<Chain>::new(6_001);
            let mut deepest = 0;
            for _ in 0..3_001 {
                s.step(|c: Lazy<Chain>| {
                    let mut c = c.force();
                    let mut n = 0;
                    while let Chain::Link(_, rest) = c {
                        n += 1;
                        c = *rest;
                    }
                    deepest = deepest.max(n);
                    true
                })
                .unwrap();
            }
            assert_eq!(deepest, 3_000);
            // Materialising the deepest value through the searcher as well.
            let v = s.value();
            let mut n = 0;
            let mut c = v;
            while let Chain::Link(_, rest) = c {
                n += 1;
                c = *rest;
            }
            assert_eq!(n, 3_000);
        })
        .unwrap()
        .join()
        .unwrap();
}

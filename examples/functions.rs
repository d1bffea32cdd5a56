//! Higher-order laws, true and false, checked over functions as inputs
//! (`Fun`, `Fun2`): mappers, predicates, comparators and fold steps are
//! enumerated by case distinctions and constants, read only as far as a
//! law applies them, and printed as a `match` when a law fails.
//!
//! `cargo run --release --example functions` prints one line per law,
//! `law <name> holds` or `law <name> counterexample <input>` (a smallest
//! one), and exits 0 when each law came out as expected.

use neatcheck::check::{InputSpaces, OneThread, OwnSpaces, Property, ThreadsFor};
use neatcheck::{Config, Enumerable, Fun, Fun2};
use std::fmt::Debug;

/// Sorts by a "less than" comparator with an insertion sort that trusts
/// the comparator to be a strict order.
fn insertion_sort_by(xs: &[u8], less: &dyn Fn(&u8, &u8) -> bool) -> Vec<u8> {
    let mut sorted: Vec<u8> = vec![];
    for &x in xs {
        let at = sorted
            .iter()
            .position(|y| less(&x, y))
            .unwrap_or(sorted.len());
        sorted.insert(at, x);
    }
    sorted
}

fn fold_left(xs: &[u8], zero: u8, step: &dyn Fn(&u8, &u8) -> u8) -> u8 {
    xs.iter().fold(zero, |acc, x| step(&acc, x))
}

fn fold_right(xs: &[u8], zero: u8, step: &dyn Fn(&u8, &u8) -> u8) -> u8 {
    xs.iter().rev().fold(zero, |acc, x| step(&acc, x))
}

/// Checks one law; prints its line and says whether it came out as
/// `expected_to_hold` says.
fn law<T, M, P>(name: &str, expected_to_hold: bool, prop: P) -> bool
where
    T: Enumerable + Debug,
    P: Property<T, M>,
    OwnSpaces: InputSpaces<T>,
    OneThread: ThreadsFor<T, M, P>,
{
    let outcome = Config::default().try_check(prop);
    match &outcome {
        Ok(_) => println!("law {name} holds"),
        Err(c) => println!("law {name} counterexample {:?}", c.value),
    }
    outcome.is_ok() == expected_to_hold
}

fn main() {
    let mut as_expected = true;

    as_expected &= law(
        "map-append",
        true,
        |f: Fun<u8, u8>, xs: Vec<u8>, ys: Vec<u8>| {
            let map = |v: &[u8]| v.iter().map(&*f).collect::<Vec<u8>>();
            let mut both = xs.clone();
            both.extend(&ys);
            let mut mapped = map(&xs);
            mapped.extend(map(&ys));
            map(&both) == mapped
        },
    );
    as_expected &= law(
        "map-compose",
        true,
        |f: Fun<u8, u8>, g: Fun<u8, bool>, xs: Vec<u8>| {
            let twice: Vec<bool> = xs.iter().map(&*f).map(|y| g(&y)).collect();
            let once: Vec<bool> = xs.iter().map(|x| g(&f(x))).collect();
            twice == once
        },
    );
    as_expected &= law("partition-filter", true, |p: Fun<u8, bool>, xs: Vec<u8>| {
        let (yes, no): (Vec<u8>, Vec<u8>) = xs.iter().partition(|x| p(x));
        let kept: Vec<u8> = xs.iter().copied().filter(|x| p(x)).collect();
        let dropped: Vec<u8> = xs.iter().copied().filter(|x| !p(x)).collect();
        yes == kept && no == dropped
    });
    as_expected &= law(
        "all-any-duality",
        true,
        |p: Fun<Option<u8>, bool>, xs: Vec<Option<u8>>| {
            xs.iter().all(&*p) != xs.iter().any(|x| !p(x))
        },
    );
    as_expected &= law(
        "filter-map-commute",
        false,
        |f: Fun<u8, u8>, p: Fun<u8, bool>, xs: Vec<u8>| {
            let a: Vec<u8> = xs.iter().map(&*f).filter(|y| p(y)).collect();
            let b: Vec<u8> = xs.iter().filter(|x| p(x)).map(&*f).collect();
            a == b
        },
    );
    as_expected &= law("idempotent", false, |f: Fun<u8, u8>, x: u8| {
        f(&f(&x)) == f(&x)
    });
    as_expected &= law(
        "sort-by-sorts",
        false,
        |less: Fun2<u8, u8, bool>, xs: Vec<u8>| {
            let sorted = insertion_sort_by(&xs, &*less);
            sorted.windows(2).all(|w| !less(&w[1], &w[0]))
        },
    );
    as_expected &= law(
        "fold-direction",
        false,
        |step: Fun2<u8, u8, u8>, xs: Vec<u8>| {
            fold_left(&xs, 0, &*step) == fold_right(&xs, 0, &*step)
        },
    );
    as_expected &= law("find-position", true, |p: Fun<char, bool>, s: String| {
        let chars: Vec<char> = s.chars().collect();
        chars.iter().find(|c| p(c)) == chars.iter().position(&*p).map(|i| &chars[i])
    });
    if !as_expected {
        eprintln!("some law did not come out as expected");
        std::process::exit(1);
    }
}

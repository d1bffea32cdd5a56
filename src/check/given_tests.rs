//! `check_in`: checks over given spaces, against the reference enumeration
//! of the same spaces.

use super::*;
use crate::describe::Space;
use crate::handle::Lazy;
use crate::space;
use crate::values::values_in;

fn keys_and_lists() -> (Space<i64>, Space<Vec<u8>>) {
    (space::range(-3, 3, |k| k), space::of::<Vec<u8>>())
}

/// The smallest size with a value of `space` failing `prop`, by the
/// reference enumeration.
fn smallest_failing<T: 'static>(space: &Space<T>, prop: impl Fn(&T) -> bool) -> (usize, usize) {
    for n in 0..20 {
        let values = values_in(space, n);
        if let Some(i) = values.iter().position(|v| !prop(v)) {
            return (n, i);
        }
    }
    panic!("no failing value up to size 20")
}

#[test]
fn lazy_arguments_from_given_spaces_find_the_smallest_counterexample() {
    let prop = |k: &(i64, Vec<u8>)| k.0 < 2 || k.1.is_empty();
    let (size, _) = smallest_failing(&keys_and_lists().into_space(), prop);
    let mut found = vec![];
    for threads in [1, 2] {
        let config = Config::default().threads(threads).samples(0, 0);
        let c = config
            .spaces(keys_and_lists)
            .try_check(|k: Lazy<i64>, xs: Lazy<Vec<u8>>| k.get() < 2 || xs.is_empty())
            .expect_err("fails");
        assert_eq!(c.size as usize, size);
        assert!(!prop(&c.value), "{:?}", c.value);
        assert_eq!(c.value, (2, vec![0]));
        assert_eq!(c.shown, "(2, [0])");
        found.push((c.runs, c.summary.runs));
    }
    assert_eq!(found[0], found[1], "one thread and two agree");
}

#[test]
fn plain_arguments_and_a_single_space() {
    let c = Config::default()
        .spaces(keys_and_lists)
        .try_check(|k: i64, xs: Vec<u8>| k > -3 || xs.len() < 2)
        .expect_err("fails");
    assert_eq!(c.value, (-3, vec![0, 0]));
    let c = Config::default()
        .spaces(|| space::range(0, 9, |x| x as u8))
        .try_check(|x: u8| x < 9)
        .expect_err("fails");
    assert_eq!(c.value, 9);
}

#[test]
fn values_outside_the_given_space_never_reach_the_property() {
    // The random phase draws from the given space too.
    let s = Config::default()
        .max_size(6)
        .samples(2000, 50)
        .spaces(keys_and_lists)
        .try_check(|k: Lazy<i64>, _xs: Lazy<Vec<u8>>| (-3..=3).contains(&k.get()))
        .expect("passes");
    assert!(s.runs > 0 && s.random > 0, "{s}");
    // A property reading everything makes one run per value: the last
    // bound ran every value of the space up to it once.
    let s = Config::default()
        .max_size(4)
        .samples(0, 0)
        .spaces(keys_and_lists)
        .try_check(|k: i64, xs: Vec<u8>| (-3..=3).contains(&k) && xs.len() < 10)
        .expect("passes");
    let values: usize = (0..=4)
        .map(|n| values_in(&keys_and_lists().into_space(), n).len())
        .sum();
    assert_eq!(s.runs_last_bound as usize, values);
}

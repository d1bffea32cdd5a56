//! Searching hand-written spaces: atoms read through their own space, and
//! views refuse positions that do not hold their type's own space.

use neatcheck::search::{RunResult, Searcher};
use neatcheck::{space, Lazy};

#[test]
fn atoms_of_a_custom_space_read_their_own_values() {
    let s = space::range(5, 9, |x| x as u8);
    let mut searcher = Searcher::with_space(&s, 1);
    let mut seen = vec![];
    while let Some(r) = searcher.step(|x: Lazy<u8>| {
        seen.push(x.get());
        true
    }) {
        assert_eq!(r, RunResult::True);
    }
    assert_eq!(seen, vec![5, 6, 7, 8, 9]);
}

#[test]
fn the_canonical_space_given_explicitly_is_trusted() {
    let mut searcher = Searcher::with_space(&space::of::<Vec<bool>>(), 5);
    let mut runs = 0;
    while searcher
        .step(|xs: Lazy<Vec<bool>>| xs.iter().all(|b| b.get()))
        .is_some()
    {
        runs += 1;
    }
    assert_eq!(runs, 5);
}

#[test]
fn views_refuse_a_custom_space() {
    // Lists of length at most one, described by hand: not `Vec`'s own space.
    let s = space::union(vec![
        space::pay(space::pure(Vec::<bool>::new())),
        space::pay(space::map(space::of::<bool>(), |b| vec![b])),
    ]);
    let mut searcher = Searcher::with_space(&s, 5);
    match searcher.step(|xs: Lazy<Vec<bool>>| xs.is_empty()) {
        Some(RunResult::Panicked(m)) => assert!(m.contains("can be forced but not viewed"), "{m}"),
        other => panic!("expected a clear panic, got {other:?}"),
    }
}

#[test]
fn a_custom_space_can_be_forced() {
    let s = space::union(vec![
        space::pay(space::pure(Vec::<bool>::new())),
        space::pay(space::map(space::of::<bool>(), |b| vec![b])),
    ]);
    let mut searcher = Searcher::with_space(&s, 5);
    let mut all = vec![];
    while searcher
        .step(|xs: Lazy<Vec<bool>>| {
            all.push(xs.force());
            true
        })
        .is_some()
    {}
    assert_eq!(all, vec![vec![], vec![false], vec![true]]);
}

//! How strong is a property? Scores four properties by black-box mutation
//! testing: `cargo run --release --example mutation`.
//!
//! Each property takes the function it tests as a parameter, so neatcheck
//! can hand it mutants: the function with one output replaced. A property
//! that kills every mutant pins the function down on the tested inputs;
//! one that kills none tests nothing. Prints one line per property on
//! stdout, and the surviving mutants of the weak ones on stderr.

use neatcheck::mutation::{score, MutationConfig, Report};
use std::collections::BTreeMap;
use std::fmt::Debug;

/// The function under test: an insertion sort.
fn sort_fast(xs: &Vec<u8>) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::with_capacity(xs.len());
    for &x in xs {
        let at = out.partition_point(|&y| y <= x);
        out.insert(at, x);
    }
    out
}

/// The trusted reference.
fn reference_sort(xs: &[u8]) -> Vec<u8> {
    let mut ys = xs.to_vec();
    ys.sort();
    ys
}

type Map = BTreeMap<u8, u8>;

/// The function under test: insertion into a map, its arguments as a tuple.
fn insert(args: &(Map, u8, u8)) -> Map {
    let (map, k, v) = args;
    let mut out = map.clone();
    out.insert(*k, *v);
    out
}

fn show<A: Debug, B: Debug>(property: &str, report: &Report<A, B>) {
    println!("{}", report.line(property));
    if !report.survivors.is_empty() {
        eprintln!("{property}: {report}");
    }
}

fn main() {
    let config = MutationConfig::default().input_size(6).output_size(6);

    let report = score(&config, "sort_fast", sort_fast, |sort, xs: Vec<u8>| {
        sort(&xs) == reference_sort(&xs)
    })
    .expect("sort_vs_reference");
    show("sort_vs_reference", &report);

    // The classic slip: the function compared with itself.
    #[allow(clippy::eq_op)]
    let report = score(&config, "sort_fast", sort_fast, |sort, xs: Vec<u8>| {
        sort(&xs) == sort(&xs)
    })
    .expect("sort_vs_itself");
    show("sort_vs_itself", &report);

    // Intermediate strength: only the length is checked.
    let report = score(&config, "sort_fast", sort_fast, |sort, xs: Vec<u8>| {
        sort(&xs).len() == xs.len()
    })
    .expect("sort_preserves_length");
    show("sort_preserves_length", &report);

    // A map: what was inserted is found, but nothing says the rest of the
    // map is kept.
    let map_config = MutationConfig::default().input_size(5).output_size(5);
    let report = score(
        &map_config,
        "insert",
        insert,
        |insert, (m, k, v): (Map, u8, u8)| insert(&(m, k, v)).get(&k) == Some(&v),
    )
    .expect("map_insert_lookup");
    show("map_insert_lookup", &report);

    // The same with the other keys checked too: a complete specification.
    let report = score(
        &map_config,
        "insert",
        insert,
        |insert, (m, k, v): (Map, u8, u8)| {
            let out = insert(&(m.clone(), k, v));
            out.get(&k) == Some(&v)
                && out.len() == m.len() + usize::from(!m.contains_key(&k))
                && m.iter()
                    .all(|(key, value)| *key == k || out.get(key) == Some(value))
        },
    )
    .expect("map_insert_lookup_others");
    show("map_insert_lookup_others", &report);
}

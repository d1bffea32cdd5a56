//! Trusted searches with fields of their own space: the rest of the value
//! is read on trust, the `with` fields through checked handles, and every
//! read gives the value the reference enumeration has.

use crate::search::{self, Searcher};
use crate::space::{self, Space};
use crate::types::grammar_of;
use crate::values::values_of;
use crate::{Enumerable, Lazy, LazyView};

/// A key from a range whose indices are not its values, beside a plain
/// field and a recursive one.
#[derive(Enumerable, Clone, Debug, PartialEq)]
enum Keyed {
    Nil,
    Cell(
        #[enumerable(with = space::range(10, 13, |k| k as u8))] u8,
        bool,
        Box<Keyed>,
    ),
}

/// Every value the lazy reads produce, one per run, in search order.
fn lazily_read(bound: usize) -> Vec<Vec<(u8, bool)>> {
    let mut s = Searcher::<Keyed>::new(bound);
    let mut seen = vec![];
    while let Some(_r) = s.step(|x: Lazy<Keyed>| {
        let mut cells = vec![];
        let mut cur = x;
        while let KeyedView::Cell(k, b, rest) = cur.view() {
            cells.push((k.get(), b.get()));
            cur = rest;
        }
        seen.push(cells);
        true
    }) {}
    seen.sort();
    seen
}

#[test]
fn with_fields_are_read_through_checked_handles_in_trusted_searches() {
    assert!(
        grammar_of::<Keyed>().trusted,
        "a with field keeps the search trusted"
    );
    let mut expected: Vec<Vec<(u8, bool)>> = (0..=7)
        .flat_map(values_of::<Keyed>)
        .map(|v| {
            let mut cells = vec![];
            let mut cur = &v;
            while let Keyed::Cell(k, b, rest) = cur {
                cells.push((*k, *b));
                cur = rest;
            }
            cells
        })
        .collect();
    expected.sort();
    assert_eq!(lazily_read(7), expected);
    assert!(expected
        .iter()
        .flatten()
        .all(|(k, _)| (10..=13).contains(k)));
    // A search that reads only the key of the first cell: one run per key,
    // plus the empty list.
    assert_eq!(
        search::classes::<Keyed, _>(
            |x| match x.view() {
                KeyedView::Nil => true,
                KeyedView::Cell(k, _, _) => k.get() > 11,
            },
            7
        )
        .runs,
        5
    );
}

/// A hand-written space with a field of its own space, read through
/// `Alternative::field`.
#[derive(Clone, Debug, PartialEq)]
struct Pair(u8, u8);

impl Enumerable for Pair {
    fn describe() -> Space<Self> {
        space::pay(space::product_with(
            vec![
                space::field_with(space::range(20, 22, |x| x as u8)),
                space::field::<u8>(),
            ],
            |f| Pair(f.take::<u8>(), f.take::<u8>()),
        ))
    }
}

impl LazyView for Pair {
    type View<'a> = (Lazy<'a, u8>, Lazy<'a, u8>);
    fn view(lazy: Lazy<'_, Self>) -> Self::View<'_> {
        let alt = lazy.alternative();
        (alt.field(0), alt.field(1))
    }
}

#[test]
fn hand_written_fields_of_their_own_space_are_read_checked() {
    assert!(grammar_of::<Pair>().trusted);
    let mut s = Searcher::<Pair>::new(4);
    let mut seen = vec![];
    while s
        .step(|x: Lazy<Pair>| {
            let (a, b) = x.view();
            seen.push(Pair(a.get(), b.get()));
            true
        })
        .is_some()
    {}
    let mut expected: Vec<Pair> = (0..=4).flat_map(values_of::<Pair>).collect();
    seen.sort_by_key(|p| (p.0, p.1));
    expected.sort_by_key(|p| (p.0, p.1));
    assert_eq!(seen, expected);
}

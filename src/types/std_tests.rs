//! The sequences, wrappers, ranges and hashed and heap collections
//! (`lists.rs`, `wrappers.rs`, `collections.rs`, `basic.rs`) against the
//! reference enumeration: counts, values, ranks, typed materialisation,
//! lazy searches and planted bugs.

use crate::check::{Config, Found};
use crate::count::count_of;
use crate::index::Indexer;
use crate::lazy::{Lazy, ListView};
use crate::search::classes;
use crate::values::{trees_of, values_of, values_up_to};
use crate::Enumerable;
use num_bigint::BigUint;
use std::cell::{Cell, RefCell};
use std::cmp::{Ordering, Reverse};
use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::fmt::Debug;
use std::hash::BuildHasherDefault;
use std::marker::PhantomData;
use std::num::Wrapping;
use std::ops::{Range, RangeInclusive};
use std::rc::Rc;
use std::sync::Arc;

/// Reference checks for `T` up to size `max`: `count_of`, the reference
/// values and the grammar's trees agree per size; `rank` inverts `index`
/// on every tree; the typed materialiser of a search that forces its input
/// produces exactly the reference values (compared through `key`), one run
/// per value.
fn agrees_with_reference<T: Enumerable>(max: usize, key: impl Fn(&T) -> String) {
    let name = std::any::type_name::<T>();
    let ix = Indexer::<T>::new();
    for n in 0..=max {
        let values = values_of::<T>(n);
        let trees = trees_of::<T>(n);
        assert_eq!(
            BigUint::from(values.len()),
            count_of::<T>(n),
            "{name}: size {n}"
        );
        assert_eq!(values.len(), trees.len(), "{name}: trees of size {n}");
        for (i, t) in trees.iter().enumerate() {
            assert_eq!(ix.rank(t), (n, BigUint::from(i)), "{name}: rank");
            assert_eq!(ix.tree(n, &BigUint::from(i)).as_ref(), Some(t), "{name}");
            assert_eq!(
                key(&ix.value_of_tree(t)),
                key(&values[i]),
                "{name}: tree {i}"
            );
        }
    }
    let forced = RefCell::new(vec![]);
    let c = classes(
        |x: Lazy<'_, T>| {
            forced.borrow_mut().push(key(&x.force()));
            true
        },
        max,
    );
    let mut forced = forced.into_inner();
    let mut expected: Vec<String> = values_up_to::<T>(max).iter().map(&key).collect();
    assert_eq!(c.runs as usize, expected.len(), "{name}: runs");
    forced.sort();
    expected.sort();
    assert_eq!(forced, expected, "{name}: forced values");
}

fn dbg<T: Debug>(x: &T) -> String {
    format!("{x:?}")
}

/// `Debug` of a hashed container with its entries sorted (its own order
/// changes from run to run).
fn sorted_entries<T: Debug>(xs: impl IntoIterator<Item = T>) -> String {
    let mut v: Vec<String> = xs.into_iter().map(|x| dbg(&x)).collect();
    v.sort();
    v.join(", ")
}

/// Size of a `u8` (its bit length).
fn size_u8(x: u8) -> usize {
    (8 - x.leading_zeros()) as usize
}

/// A transparent type has exactly the values of the type it wraps, in the
/// same order and with the same sizes.
fn same_values_as<W, T>(max: usize, view: impl Fn(&W) -> T)
where
    W: Enumerable,
    T: Enumerable + PartialEq + Debug,
{
    for n in 0..=max {
        let wrapped: Vec<T> = values_of::<W>(n).iter().map(&view).collect();
        assert_eq!(wrapped, values_of::<T>(n), "{}", std::any::type_name::<W>());
    }
}

#[test]
fn wrappers_are_transparent() {
    same_values_as::<Rc<Option<u8>>, _>(6, |x| **x);
    same_values_as::<Arc<Option<u8>>, _>(6, |x| **x);
    same_values_as::<Cell<Option<u8>>, _>(6, |x| x.get());
    same_values_as::<RefCell<Vec<bool>>, _>(6, |x| x.borrow().clone());
    same_values_as::<Wrapping<i8>, _>(6, |x| x.0);
    same_values_as::<Reverse<u16>, _>(6, |x| x.0);
    same_values_as::<VecDeque<u8>, _>(7, |x| x.iter().copied().collect::<Vec<_>>());
    same_values_as::<LinkedList<bool>, _>(7, |x| x.iter().copied().collect::<Vec<_>>());
    same_values_as::<Box<[u8]>, _>(7, |x| x.to_vec());
    same_values_as::<Box<str>, _>(9, |x| x.to_string());
}

#[test]
fn wrappers_agree_with_the_reference() {
    agrees_with_reference::<Rc<Option<u8>>>(6, dbg);
    agrees_with_reference::<Arc<Vec<bool>>>(6, dbg);
    agrees_with_reference::<Cell<Option<bool>>>(4, |x| dbg(&x.get()));
    agrees_with_reference::<RefCell<Vec<u8>>>(5, dbg);
    agrees_with_reference::<Wrapping<i16>>(8, dbg);
    agrees_with_reference::<Reverse<Option<u8>>>(6, dbg);
    agrees_with_reference::<VecDeque<u8>>(7, dbg);
    agrees_with_reference::<LinkedList<Option<bool>>>(7, dbg);
    agrees_with_reference::<Box<[bool]>>(8, dbg);
    agrees_with_reference::<Box<str>>(8, dbg);
    agrees_with_reference::<Vec<Rc<Option<bool>>>>(7, dbg);
}

#[test]
fn small_enumerations() {
    assert_eq!(values_of::<PhantomData<String>>(0), vec![PhantomData]);
    assert_eq!(count_of::<PhantomData<String>>(1), BigUint::from(0u32));
    assert_eq!(
        values_of::<Ordering>(1),
        vec![Ordering::Less, Ordering::Equal, Ordering::Greater]
    );
    for n in [0, 2, 3] {
        assert!(values_of::<Ordering>(n).is_empty());
    }
    agrees_with_reference::<Ordering>(3, dbg);
    agrees_with_reference::<PhantomData<str>>(2, dbg);
    agrees_with_reference::<(PhantomData<u8>, Option<Ordering>)>(3, dbg);
    // An atom: read whole with `get`.
    let c = classes(|o: Lazy<'_, Ordering>| o.get() == Ordering::Equal, 3);
    assert_eq!((c.runs, c.satisfying), (3, 1));
    let c = classes(|w: Lazy<'_, Wrapping<u8>>| w.get().0 == 3, 3);
    assert_eq!((c.runs, c.satisfying), (8, 1));
    let c = classes(|r: Lazy<'_, Reverse<bool>>| r.get() < Reverse(false), 3);
    assert_eq!((c.runs, c.satisfying), (2, 1));
}

#[test]
fn ranges_are_free_pairs() {
    for n in 0..=6 {
        let pairs = values_of::<(u8, u8)>(n);
        let ranges: Vec<(u8, u8)> = values_of::<Range<u8>>(n)
            .into_iter()
            .map(|r| (r.start, r.end))
            .collect();
        assert_eq!(ranges, pairs);
        let inclusive: Vec<(u8, u8)> = values_of::<RangeInclusive<u8>>(n)
            .into_iter()
            .map(|r| (*r.start(), *r.end()))
            .collect();
        assert_eq!(inclusive, pairs);
    }
    agrees_with_reference::<Range<u8>>(5, dbg);
    agrees_with_reference::<RangeInclusive<Option<bool>>>(5, dbg);
    // Reading the start only: one run per start of size <= 3 (1 + 1 + 2 + 4).
    let c = classes(|r: Lazy<'_, Range<u8>>| r.view().start.get() == 0, 3);
    assert_eq!((c.runs, c.satisfying), (8, 1));
    let c = classes(
        |r: Lazy<'_, RangeInclusive<u8>>| {
            let v = r.view();
            v.start.get() <= v.end.get()
        },
        2,
    );
    // Pairs of size <= 2: 1 + 2 + 5, all but (1, 0), (2, 0) and (3, 0)
    // with start <= end.
    assert_eq!((c.runs, c.satisfying), (8, 5));
}

#[test]
fn lazy_sequences_read_one_cell_at_a_time() {
    // Reading only the first element: one run for the empty deque and one
    // per first element x with [x] of size <= 5 (2 + size(x) <= 5: 8 of
    // them), exactly as for a Vec.
    let first_is_3 = |d: Lazy<'_, VecDeque<u8>>| match d.view() {
        ListView::Nil => false,
        ListView::Cons(x, _) => x.get() == 3,
    };
    let c = classes(first_is_3, 5);
    assert_eq!((c.runs, c.satisfying), (9, 1));
    let c = classes(
        |l: Lazy<'_, LinkedList<u8>>| l.as_list().first().is_some(),
        9,
    );
    assert_eq!((c.runs, c.satisfying), (2, 1));
    // `len` reads every cell and no element: one run per length 0..=4.
    let c = classes(|b: Lazy<'_, Box<[u8]>>| b.as_list().len() == 2, 5);
    assert_eq!((c.runs, c.satisfying), (5, 1));
    // '\0' and '\u{1}' have sizes 0 and 1: the string has size 4.
    let found: Vec<Box<str>> =
        crate::search::search(|s: Lazy<'_, Box<str>>| s.as_string().eq_str("\0\u{1}"), 5).collect();
    assert_eq!(found, vec![Box::from("\0\u{1}")]);
    let c = classes(|s: Lazy<'_, Box<str>>| matches!(s.view(), ListView::Nil), 6);
    assert_eq!((c.runs, c.satisfying), (2, 1));
    // Wrappers read through to the wrapped view.
    let c = classes(|r: Lazy<'_, Rc<Vec<u8>>>| r.inner().is_empty(), 6);
    assert_eq!((c.runs, c.satisfying), (2, 1));
    let c = classes(
        |r: Lazy<'_, Arc<Option<u8>>>| matches!(r.view(), Some(x) if x.get() == 1),
        4,
    );
    // None, then Some(x) for x of size <= 3 (8 values).
    assert_eq!((c.runs, c.satisfying), (9, 1));
}

#[test]
fn binary_heaps_are_multisets_listed_once() {
    for n in 0..=9 {
        let heaps = values_of::<BinaryHeap<u8>>(n);
        assert_eq!(BigUint::from(heaps.len()), count_of::<BinaryHeap<u8>>(n));
        let sorted: BTreeSet<Vec<u8>> = heaps.iter().map(|h| h.clone().into_sorted_vec()).collect();
        assert_eq!(sorted.len(), heaps.len(), "duplicates at size {n}");
        for s in &sorted {
            assert_eq!(1 + s.iter().map(|&x| 1 + size_u8(x)).sum::<usize>(), n);
        }
        // Brute force: the non-decreasing lists of size n.
        let lists = values_of::<Vec<u8>>(n)
            .into_iter()
            .filter(|l| l.windows(2).all(|w| w[0] <= w[1]))
            .count();
        assert_eq!(lists, heaps.len(), "size {n}");
    }
    // Compound elements: every list is a permutation of exactly one
    // multiset, which has len! / (m1! m2! ...) distinct orders.
    let fact = |k: usize| (1..=k).product::<usize>();
    for n in 0..=8 {
        let heaps = values_of::<BinaryHeap<Vec<bool>>>(n);
        let mut orders = 0;
        for h in &heaps {
            let v = h.clone().into_sorted_vec();
            let mut mult: BTreeMap<&Vec<bool>, usize> = BTreeMap::new();
            for x in &v {
                *mult.entry(x).or_default() += 1;
            }
            orders += fact(v.len()) / mult.values().map(|&m| fact(m)).product::<usize>();
        }
        assert_eq!(orders, values_of::<Vec<Vec<bool>>>(n).len(), "size {n}");
    }
    agrees_with_reference::<BinaryHeap<u8>>(7, |h| dbg(&h.clone().into_sorted_vec()));
    agrees_with_reference::<BinaryHeap<Option<bool>>>(7, |h| dbg(&h.clone().into_sorted_vec()));
}

/// Hash and equality, but no order: sets of it need no `Ord`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct NoOrd(u8);

impl Enumerable for NoOrd {
    fn describe() -> crate::Space<Self> {
        super::transparent(NoOrd)
    }
}

type Fixed = BuildHasherDefault<DefaultHasher>;

#[test]
fn hash_sets_and_maps_are_the_btree_ones() {
    for n in 0..=9 {
        let b = values_of::<BTreeSet<u8>>(n);
        let h = values_of::<HashSet<u8>>(n);
        let fixed = values_of::<HashSet<u8, Fixed>>(n);
        let no_ord = values_of::<HashSet<NoOrd>>(n);
        assert_eq!(h.len(), b.len());
        assert_eq!(fixed.len(), b.len());
        assert_eq!(no_ord.len(), b.len());
        for (i, set) in b.iter().enumerate() {
            assert_eq!(&h[i].iter().copied().collect::<BTreeSet<_>>(), set);
            assert_eq!(&fixed[i].iter().copied().collect::<BTreeSet<_>>(), set);
            assert_eq!(&no_ord[i].iter().map(|x| x.0).collect::<BTreeSet<_>>(), set);
        }
        // No duplicates under the sets' own equality (no order needed).
        for (i, a) in no_ord.iter().enumerate() {
            assert!(no_ord[..i].iter().all(|b| b != a), "{a:?} twice");
        }
        let bm = values_of::<BTreeMap<u8, bool>>(n);
        let hm = values_of::<HashMap<u8, bool>>(n);
        for (i, a) in hm.iter().enumerate() {
            assert!(hm[..i].iter().all(|b| b != a), "{a:?} twice");
        }
        assert_eq!(hm.len(), bm.len());
        for (m, b) in hm.iter().zip(&bm) {
            assert_eq!(
                &m.iter().map(|(k, v)| (*k, *v)).collect::<BTreeMap<_, _>>(),
                b
            );
        }
        assert_eq!(
            count_of::<HashMap<NoOrd, u8, Fixed>>(n),
            count_of::<BTreeMap<u8, u8>>(n)
        );
    }
    agrees_with_reference::<HashSet<u8>>(7, |s| sorted_entries(s));
    agrees_with_reference::<HashSet<NoOrd>>(6, |s| sorted_entries(s));
    agrees_with_reference::<HashMap<u8, Option<bool>>>(7, |m| sorted_entries(m));
    agrees_with_reference::<HashMap<NoOrd, bool, Fixed>>(6, |m| sorted_entries(m));
}

#[test]
fn hashed_values_print_in_enumeration_order() {
    // Element index order of u8 is numeric order: the BTree printing.
    let ix = Indexer::<HashSet<u8>>::new();
    let g = ix.grammar();
    for n in 0..=12 {
        for (t, b) in trees_of::<HashSet<u8>>(n)
            .iter()
            .zip(values_of::<BTreeSet<u8>>(n))
        {
            // Built anew (a new random hasher) every time: the same text.
            for _ in 0..3 {
                assert_eq!(crate::report::show_tree(g, t), format!("{b:?}"));
            }
        }
    }
    let mix = Indexer::<HashMap<u8, bool>>::new();
    for t in trees_of::<HashMap<u8, bool>>(11) {
        let m = mix.value_of_tree(&t);
        let b: BTreeMap<u8, bool> = m.into_iter().collect();
        assert_eq!(
            crate::report::show_tree(mix.grammar(), &t),
            format!("{b:?}")
        );
    }
    // Known only by value, a hashed set prints its sorted entries.
    let fam = super::collections::SetsOf::<HashSet<u8>>::new();
    let v: HashSet<u8> = [3, 10, 2].into_iter().collect();
    assert_eq!(
        crate::space::LeafFamily::debug_value(&fam, &v),
        "{10, 2, 3}"
    );
}

#[test]
fn hash_map_planted_bug_gives_the_smallest_map() {
    let f = Config::default()
        .try_check(|m: HashMap<u8, bool>| m.len() <= 2)
        .unwrap_err();
    // The first map of the smallest size with three entries, in the
    // reference order.
    let expected = (0..)
        .find_map(|n| {
            values_of::<HashMap<u8, bool>>(n)
                .into_iter()
                .find(|m| m.len() > 2)
        })
        .unwrap();
    assert_eq!(f.value, expected);
    assert_eq!(f.size, 10);
    assert_eq!(f.found, Found::Exhaustive);
    let b: BTreeMap<u8, bool> = f.value.clone().into_iter().collect();
    assert_eq!(f.shown, format!("{b:?}"));
    assert_eq!(f.pattern, f.shown);
    assert!(f.report().contains(&f.shown), "{}", f.report());
}

#[test]
fn hash_set_and_heap_planted_bugs() {
    // `get` after `insert` of a key already there, with a buggy insert that
    // keeps the old value.
    let buggy_insert = |m: &mut HashMap<u8, u8>, k: u8, v: u8| {
        m.entry(k).or_insert(v);
    };
    let f = Config::default()
        .try_check(|m: HashMap<u8, u8>, k: u8, v: u8| {
            let mut m = m;
            buggy_insert(&mut m, k, v);
            m.get(&k) == Some(&v)
        })
        .unwrap_err();
    // Smallest (size 3): {0: 0} with k = 0 and v = 1, or {0: 1} and v = 0.
    let (m, k, v) = &f.value;
    let (k, v) = (*k, *v);
    assert_eq!((m.len(), k, m[&0] + v), (1, 0, 1), "{:?}", (m, k, v));
    assert_eq!(f.size, 3);
    assert!(f.is_minimal());

    let f = Config::default()
        .try_check(|s: HashSet<u8>| !s.contains(&2) || !s.contains(&3))
        .unwrap_err();
    assert_eq!(f.value, [2, 3].into_iter().collect());
    assert_eq!(f.shown, "{2, 3}");
    assert_eq!(f.size, 7);

    // A heap with a repeated element: the smallest is {0, 0} (size 3).
    let f = Config::default()
        .try_check(|h: BinaryHeap<u8>| h.into_sorted_vec().windows(2).all(|w| w[0] < w[1]))
        .unwrap_err();
    assert_eq!(f.value.clone().into_sorted_vec(), vec![0, 0]);
    assert_eq!(f.size, 3);
    assert!(f.is_minimal());
}

type B12 = (
    bool,
    bool,
    bool,
    bool,
    bool,
    bool,
    bool,
    bool,
    bool,
    bool,
    bool,
    bool,
);
type U12 = (u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8);

#[test]
fn tuples_of_twelve() {
    // Twelve bools: 2^12 values, all of size 12.
    assert_eq!(values_of::<B12>(12).len(), 4096);
    assert_eq!(count_of::<B12>(11), BigUint::from(0u32));
    agrees_with_reference::<(u8, bool, (), Option<bool>, u8, u8, bool)>(4, dbg);
    agrees_with_reference::<U12>(2, dbg);
    // The same values as nested tuples (products are free).
    for n in 0..=3 {
        let mut flat: Vec<String> = values_of::<U12>(n).iter().map(dbg).collect();
        let mut nested: Vec<String> =
            values_of::<((u8, u8, u8, u8, u8, u8), (u8, u8, u8, u8, u8, u8))>(n)
                .iter()
                .map(|(a, b)| dbg(&(a.0, a.1, a.2, a.3, a.4, a.5, b.0, b.1, b.2, b.3, b.4, b.5)))
                .collect();
        flat.sort();
        nested.sort();
        assert_eq!(flat, nested, "size {n}");
    }
    // The view gives twelve handles: reading two of them is one run per
    // pair of values of size <= 2.
    let c = classes(
        |t: Lazy<'_, U12>| {
            let v = t.view();
            v.0.get() <= v.11.get()
        },
        2,
    );
    assert_eq!(c.runs, 8);
}

#[test]
fn properties_of_twelve_arguments() {
    #[allow(clippy::too_many_arguments)]
    fn prop(
        a: Lazy<'_, u8>,
        _: Lazy<'_, u8>,
        _: Lazy<'_, u8>,
        _: Lazy<'_, u8>,
        _: Lazy<'_, u8>,
        _: Lazy<'_, u8>,
        _: Lazy<'_, u8>,
        _: Lazy<'_, u8>,
        _: Lazy<'_, u8>,
        _: Lazy<'_, u8>,
        k: Lazy<'_, bool>,
        l: Lazy<'_, u8>,
    ) -> bool {
        // Planted bug: fails when a and l are both 1 and k is true.
        !(k.get() && a.get() == 1 && l.get() == 1)
    }
    let f = Config::default().try_check(prop).unwrap_err();
    assert_eq!(f.value, (1, 0, 0, 0, 0, 0, 0, 0, 0, 0, true, 1));
    assert_eq!(f.size, 3);
    assert!(f.is_minimal());
    assert_eq!(f.pattern, "(1, _, _, _, _, _, _, _, _, _, true, 1)");

    // Plain values, twelve arguments.
    let f = Config::default()
        .try_check(
            |a: u8, b: u8, c: u8, d: u8, e: u8, g: u8, h: u8, i: u8, j: u8, k: u8, l: u8, m: u8| {
                [a, b, c, d, e, g, h, i, j, k, l, m]
                    .iter()
                    .filter(|&&x| x > 0)
                    .count()
                    < 3
            },
        )
        .unwrap_err();
    assert_eq!(f.size, 3);
    let v = f.value;
    let all = [v.0, v.1, v.2, v.3, v.4, v.5, v.6, v.7, v.8, v.9, v.10, v.11];
    assert_eq!(all.iter().filter(|&&x| x == 1).count(), 3, "{v:?}");
    assert_eq!(all.iter().filter(|&&x| x == 0).count(), 9, "{v:?}");
    assert!(f.is_minimal());
}

crate::neatcheck! {
    /// The macro declares properties of twelve arguments.
    #[test]
    fn neatcheck_macro_takes_twelve_arguments(
        a: bool, b: bool, c: bool, d: bool, e: bool, f: bool,
        g: bool, h: bool, i: bool, j: bool, k: bool, l: bool
    ) -> bool {
        let all = [a, b, c, d, e, f, g, h, i, j, k, l];
        all.iter().filter(|&&x| x).count() == all.iter().map(|&x| usize::from(x)).sum::<usize>()
    }
}

#[test]
fn passing_checks_reach_the_random_phase() {
    // Sets, maps and heaps of `u8` pass 2^64 values near size 80: the
    // random phase samples below that instead of failing to index them.
    let s = Config::default()
        .runs(2_000)
        .try_check(|m: HashMap<u8, bool>| m.len() <= 256)
        .unwrap();
    assert!(s.problems.is_empty(), "{s}");
    assert!(s.random > 0, "{s}");
    let s = Config::default()
        .runs(2_000)
        .try_check(|h: BinaryHeap<Option<u8>>| h.into_sorted_vec().windows(2).all(|w| w[0] <= w[1]))
        .unwrap();
    assert!(s.problems.is_empty(), "{s}");
}

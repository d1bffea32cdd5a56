//! `BTreeSet` and `BTreeMap`: every value once, sizes as documented, counts
//! equal to a brute-force filter of sorted lists.

use neatcheck::count::count_of;
use neatcheck::values::values_of;
use std::collections::{BTreeMap, BTreeSet};

fn size_u8(x: u8) -> usize {
    (8 - x.leading_zeros()) as usize
}

#[test]
fn sets_are_listed_once_with_the_size_of_their_sorted_list() {
    for n in 0..=9 {
        let sets = values_of::<BTreeSet<u8>>(n);
        assert_eq!(
            sets.len() as u64,
            u64::try_from(count_of::<BTreeSet<u8>>(n)).unwrap()
        );
        let distinct: BTreeSet<_> = sets.iter().cloned().collect();
        assert_eq!(distinct.len(), sets.len(), "duplicates at size {n}");
        for s in &sets {
            let size = 1 + s.iter().map(|&x| 1 + size_u8(x)).sum::<usize>();
            assert_eq!(size, n, "{s:?}");
        }
        // Brute force: strictly increasing lists of size n.
        let lists: Vec<Vec<u8>> = values_of::<Vec<u8>>(n)
            .into_iter()
            .filter(|l| l.windows(2).all(|w| w[0] < w[1]))
            .collect();
        assert_eq!(lists.len(), sets.len(), "size {n}");
    }
}

#[test]
fn sets_of_compound_elements() {
    for n in 0..=8 {
        let sets = values_of::<BTreeSet<Vec<bool>>>(n);
        let distinct: BTreeSet<_> = sets.iter().cloned().collect();
        assert_eq!(distinct.len(), sets.len());
        let lists = values_of::<Vec<Vec<bool>>>(n)
            .into_iter()
            .filter(|l| {
                let s: BTreeSet<_> = l.iter().collect();
                s.len() == l.len()
            })
            .count();
        // Each set corresponds to exactly one list in enumeration order,
        // i.e. to len! lists in any order: count sets by permutations.
        let by_perm: usize = sets.iter().map(|s| (1..=s.len()).product::<usize>()).sum();
        assert_eq!(by_perm, lists, "size {n}");
    }
}

#[test]
fn maps_are_listed_once_with_the_size_of_their_entries() {
    for n in 0..=9 {
        let maps = values_of::<BTreeMap<u8, bool>>(n);
        assert_eq!(
            maps.len() as u64,
            u64::try_from(count_of::<BTreeMap<u8, bool>>(n)).unwrap()
        );
        let distinct: BTreeSet<Vec<(u8, bool)>> = maps
            .iter()
            .map(|m| m.clone().into_iter().collect())
            .collect();
        assert_eq!(distinct.len(), maps.len(), "duplicates at size {n}");
        for m in &maps {
            let size = 1 + m.keys().map(|&k| 2 + size_u8(k)).sum::<usize>();
            assert_eq!(size, n, "{m:?}");
        }
        let lists = values_of::<Vec<(u8, bool)>>(n)
            .into_iter()
            .filter(|l| l.windows(2).all(|w| w[0].0 < w[1].0))
            .count();
        assert_eq!(lists, maps.len(), "size {n}");
    }
}

#[test]
fn sets_can_be_searched() {
    // The smallest set of u8 with two elements summing to 5.
    let c = neatcheck::search::ctrex(
        |s: neatcheck::Lazy<BTreeSet<u8>>| {
            let s = s.force();
            !s.iter()
                .any(|&a| s.contains(&(5u8.wrapping_sub(a))) && a != 5 - a)
        },
        12,
    )
    .unwrap_err();
    assert_eq!(c.value.len(), 2);
    assert_eq!(c.value.iter().sum::<u8>(), 5);
}

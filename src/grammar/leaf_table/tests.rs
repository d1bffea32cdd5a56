//! The per-search leaf sizes against the slow definition (the family's
//! counts summed in big numbers), for every leaf family the crate has and
//! a few odd custom ones, at the boundaries of every size and at random
//! indices.

use super::*;
use crate::describe::{self, leaf, Value};
use crate::grammar::{compile_space, Grammar, SortKind};
use crate::space::{with_integer_sizes, IntegerSizes};
use crate::types::Enumerable;
use num_bigint::BigUint;
use num_traits::{One, Zero};
use proptest::prelude::*;
use std::any::Any;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashSet};
use std::num::{NonZeroI128, NonZeroI64, NonZeroI8, NonZeroU128, NonZeroU64, NonZeroU8};
use std::rc::Rc;

/// A custom family with empty sizes, a first size above 0 and polynomial
/// growth: sizes 1, 4, 5, 7 and then `s` values of each size `s >= 8`.
struct Irregular;

/// A custom family whose size 1 alone holds more than `2^64` values.
struct Huge;

/// A custom family of 50 sizes, each a multiple of 100, one value each.
struct Sparse;

fn custom_value(_size: usize, index: &BigUint) -> Value {
    Box::new(u64::try_from(index).unwrap_or(u64::MAX))
}

impl LeafFamily for Irregular {
    fn name(&self) -> String {
        "irregular".into()
    }
    fn count(&self, size: usize) -> BigUint {
        BigUint::from(match size {
            0 | 2 | 3 | 6 => 0,
            1 => 3,
            4 => 5,
            5 => 1,
            7 => 2,
            s => s,
        })
    }
    fn last_size(&self) -> Option<usize> {
        None
    }
    fn value(&self, size: usize, index: &BigUint) -> Value {
        custom_value(size, index)
    }
    fn debug_value(&self, _value: &dyn Any) -> String {
        "?".into()
    }
}

impl LeafFamily for Huge {
    fn name(&self) -> String {
        "huge".into()
    }
    fn count(&self, size: usize) -> BigUint {
        match size {
            0 => BigUint::from(7u32),
            1 => BigUint::one() << 70,
            _ => BigUint::from(3u32),
        }
    }
    fn last_size(&self) -> Option<usize> {
        Some(3)
    }
    fn value(&self, size: usize, index: &BigUint) -> Value {
        custom_value(size, index)
    }
    fn debug_value(&self, _value: &dyn Any) -> String {
        "?".into()
    }
}

impl LeafFamily for Sparse {
    fn name(&self) -> String {
        "sparse".into()
    }
    fn count(&self, size: usize) -> BigUint {
        if size % 100 == 0 {
            BigUint::one()
        } else {
            BigUint::zero()
        }
    }
    fn last_size(&self) -> Option<usize> {
        Some(4900)
    }
    fn value(&self, size: usize, index: &BigUint) -> Value {
        custom_value(size, index)
    }
    fn debug_value(&self, _value: &dyn Any) -> String {
        "?".into()
    }
}

fn of<T: Enumerable>() -> Rc<Grammar> {
    compile_space(&T::describe())
}

fn of_family(family: Rc<dyn LeafFamily>) -> Rc<Grammar> {
    compile_space(&leaf::<u64>(family))
}

/// The integer types whose family depends on the integer sizes (by bit
/// length the primitives are lazy atoms, not leaves: their families are
/// tested as `bits` and `signed` below).
fn integers(mode: IntegerSizes) -> Vec<(String, Rc<Grammar>)> {
    with_integer_sizes(mode, || {
        let primitives = vec![
            ("u8", of::<u8>()),
            ("u16", of::<u16>()),
            ("u32", of::<u32>()),
            ("u64", of::<u64>()),
            ("usize", of::<usize>()),
            ("i8", of::<i8>()),
            ("i16", of::<i16>()),
            ("i32", of::<i32>()),
            ("i64", of::<i64>()),
            ("isize", of::<isize>()),
        ];
        let primitives = match mode {
            IntegerSizes::Linear => primitives,
            IntegerSizes::BitLength => vec![],
        };
        primitives
            .into_iter()
            .chain(vec![
                ("NonZeroU8", of::<NonZeroU8>()),
                ("NonZeroU64", of::<NonZeroU64>()),
                ("NonZeroI8", of::<NonZeroI8>()),
                ("NonZeroI64", of::<NonZeroI64>()),
                ("BTreeSet<u8>", of::<BTreeSet<u8>>()),
                ("BTreeMap<u8, bool>", of::<BTreeMap<u8, bool>>()),
                ("HashSet<i8>", of::<HashSet<i8>>()),
            ])
            .map(|(n, g)| (format!("{n} ({mode})"), g))
            .collect()
    })
}

thread_local! {
    static FAMILIES: Vec<(String, Rc<Grammar>)> = compile_families();
}

/// Every leaf family of the crate (and the custom ones above), named.
fn families() -> Vec<(String, Rc<Grammar>)> {
    FAMILIES.with(Clone::clone)
}

fn compile_families() -> Vec<(String, Rc<Grammar>)> {
    let mut out = integers(IntegerSizes::BitLength);
    out.extend(integers(IntegerSizes::Linear));
    let fixed: Vec<(&str, Rc<Grammar>)> = vec![
        ("u128", of::<u128>()),
        ("i128", of::<i128>()),
        ("NonZeroU128", of::<NonZeroU128>()),
        ("NonZeroI128", of::<NonZeroI128>()),
        ("char", of_family(describe::char_family())),
        ("f32", of::<f32>()),
        ("f64", of::<f64>()),
        ("BigUint", of::<BigUint>()),
        ("BigInt", of::<num_bigint::BigInt>()),
        ("BinaryHeap<bool>", of::<BinaryHeap<bool>>()),
        ("Irregular", of_family(Rc::new(Irregular))),
        ("Huge", of_family(Rc::new(Huge))),
        ("Sparse", of_family(Rc::new(Sparse))),
        (
            "float (3, 4)",
            of_family(describe::float_family(
                describe::FloatFormat::new(3, 4),
                |b| b,
            )),
        ),
        (
            "float (1, 2)",
            of_family(describe::float_family(
                describe::FloatFormat::new(1, 2),
                |b| b,
            )),
        ),
        ("-3..=4", of_family(describe::range_family(-3, 4, |x| x))),
        ("5..=5", of_family(describe::range_family(5, 5, |x| x))),
        ("below 10", of_family(describe::below_family(10, |x| x))),
        ("below 1", of_family(describe::below_family(1, |x| x))),
        (
            "below max",
            of_family(describe::below_family(u64::MAX, |x| x)),
        ),
    ];
    out.extend(fixed.into_iter().map(|(n, g)| (n.to_string(), g)));
    for bits in [1, 2, 3, 7, 13, 31, 33, 63, 64] {
        out.push((
            format!("bits {bits}"),
            of_family(describe::bits_family(bits, |x| x)),
        ));
        out.push((
            format!("signed {bits}"),
            of_family(describe::signed_family(bits, |x| x)),
        ));
        out.push((
            format!("linear signed {bits}"),
            of_family(describe::linear_signed_family(bits, |x| x)),
        ));
    }
    for max in [0, 1, 5, 1000, u64::MAX] {
        out.push((
            format!("linear nat {max}"),
            of_family(describe::linear_nat_family(max, |x| x)),
        ));
    }
    out
}

/// The slow definition: the first index of each size `0..=cap + 1`, in big
/// numbers, from the family's counts (none past its last size).
struct Reference {
    starts: Vec<BigUint>,
    total: Option<BigUint>,
}

impl Reference {
    fn new(family: &dyn LeafFamily, cap: u64) -> Reference {
        let mut starts = vec![BigUint::zero()];
        for s in 0..=cap as usize {
            let count = if family.last_size().is_some_and(|l| s > l) {
                BigUint::zero()
            } else {
                family.count(s)
            };
            let next = starts[s].clone() + count;
            starts.push(next);
        }
        Reference {
            starts,
            total: family.total(),
        }
    }

    /// The size of index `i` if it is at most `cap` (`None`: larger, or no
    /// value at `i`).
    fn size(&self, i: u64) -> Option<u64> {
        let i = BigUint::from(i);
        if i >= *self.starts.last().unwrap() {
            return None;
        }
        Some((self.starts.partition_point(|st| *st <= i) - 1) as u64)
    }

    /// The indices worth checking: the ends of every size from `from`, the
    /// powers of two around them, and the largest indices.
    fn boundaries(&self, from: usize) -> Vec<u64> {
        let mut out = vec![0, 1, 2, 3, u64::MAX - 1, u64::MAX];
        for st in &self.starts[from.min(self.starts.len())..] {
            if let Ok(st) = u64::try_from(st) {
                out.extend([st.wrapping_sub(1), st, st.wrapping_add(1)]);
            }
        }
        for k in 0..64 {
            let p = 1u64 << k;
            out.extend([p - 1, p, p + 1]);
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Checks what the engine relies on at index `i`: the size, the step to
/// `i + 1` (exact when the next value fits the bound, nothing or too large
/// otherwise) and whether `i` is the last value.
fn check_index(name: &str, g: &Grammar, sizes: &LeafSizes, r: &Reference, bound: u64, i: u64) {
    let at = format!("{name}, bound {bound}, index {i}");
    // (The grammar fills its starts size by size up to the index: for a
    // family of many sizes, past its end takes as many steps.)
    let few = BigUint::one() << 20;
    if r.total
        .as_ref()
        .is_some_and(|t| *t <= few && BigUint::from(i) >= *t)
    {
        assert_eq!(
            g.leaf_size(g.root, i),
            INFINITE,
            "past the last value: {at}"
        );
        assert_eq!(sizes.step(g, i), None, "past the last value: {at}");
    }
    let Some(s0) = r.size(i) else {
        return;
    };
    match sizes.size(i) {
        Some(s) => assert_eq!(s, s0, "size: {at}"),
        None => assert!(s0 > TABLE_SIZES, "size: {at}: no answer within the table"),
    }
    assert_eq!(g.leaf_size(g.root, i), s0, "the grammar's size: {at}");
    let step = sizes.step(g, i);
    match i.checked_add(1).and_then(|next| r.size(next)) {
        Some(s1) => assert_eq!(step, Some(s1 - s0), "step: {at}"),
        None => assert!(
            step.is_none_or(|d| s0 + d > bound),
            "step: {at}: {step:?} to a value past the bound"
        ),
    }
    // As the grammar's `is_last`: a family of `2^64` values or more has no
    // last index the engine tells (the search never gets there).
    let last = r
        .total
        .as_ref()
        .and_then(|t| u64::try_from(t).ok())
        .is_some_and(|t| i + 1 == t);
    assert_eq!(sizes.is_last(i), last, "last: {at}");
}

fn leaf_sort(g: &Grammar) -> SortId {
    assert!(matches!(
        g.sorts[g.root.index()].kind,
        SortKind::Leaf { .. }
    ));
    g.root
}

const BOUNDS: &[u64] = &[
    0, 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 20, 21, 22, 31, 32, 33, 63, 64, 65, 66, 100, 129, 130,
];

#[test]
fn every_family_agrees_with_its_counts_at_every_boundary() {
    for (name, g) in families() {
        let sort = leaf_sort(&g);
        for &bound in BOUNDS {
            let sizes = g.leaf_sizes(sort, bound);
            let r = Reference::new(&**g.leaf_family(sort), bound);
            for i in r.boundaries(0) {
                check_index(&name, &g, &sizes, &r, bound, i);
            }
        }
    }
}

#[test]
fn bounds_past_the_table_fall_back_to_the_grammar() {
    let bound = TABLE_SIZES + 80;
    // The collections' counts of sizes past a thousand take long in big
    // numbers; their tables are checked at the bounds above.
    for (name, g) in families().into_iter().filter(|(n, _)| !n.contains('<')) {
        let sort = leaf_sort(&g);
        let sizes = g.leaf_sizes(sort, bound);
        let r = Reference::new(&**g.leaf_family(sort), bound);
        // The sizes below the table's end are checked above.
        for i in r.boundaries(TABLE_SIZES as usize - 2) {
            check_index(&name, &g, &sizes, &r, bound, i);
        }
    }
}

#[test]
fn the_integers_get_closed_forms() {
    for (name, g) in families() {
        let closed = name.starts_with("bits")
            || name.starts_with("signed")
            || name.starts_with("linear")
            || name.starts_with("NonZero")
            || ["u", "i"].iter().any(|p| {
                name.strip_prefix(p)
                    .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit() || c == 's'))
            })
            || name.starts_with("Big");
        if !closed {
            continue;
        }
        for bound in [0, 8, 64, 200] {
            let sizes = g.leaf_sizes(g.root, bound);
            assert!(
                !matches!(sizes.form, Form::Table { .. }),
                "{name} at bound {bound}: {:?}",
                sizes.form
            );
        }
    }
}

#[test]
fn characters_are_a_closed_form_below_the_surrogates_and_a_table_above() {
    let g = of_family(describe::char_family());
    assert_eq!(
        g.leaf_sizes(g.root, 15).form,
        Form::BitLength { add: 0, sub: 0 }
    );
    assert!(matches!(g.leaf_sizes(g.root, 17).form, Form::Table { .. }));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_indices_agree_with_the_counts(
        family in 0usize..1000,
        bound in 0u64..140,
        small in proptest::collection::vec(0u64..5000, 8),
        large in proptest::collection::vec(any::<u64>(), 8),
        shift in 0u32..64,
    ) {
        let all = families();
        let (name, g) = &all[family % all.len()];
        let sizes = g.leaf_sizes(g.root, bound);
        let r = Reference::new(&**g.leaf_family(g.root), bound);
        for i in small.into_iter().chain(large.iter().map(|x| x >> shift)) {
            check_index(name, g, &sizes, &r, bound, i);
        }
    }
}

/// The runs of a search that reads one leaf whole: one per value of size at
/// most `bound`, whichever way the table answers.
fn runs_reading<T: Enumerable>(bound: usize) -> u64 {
    crate::search::classes(
        |x: crate::lazy::Lazy<'_, T>| {
            let _ = x.force();
            true
        },
        bound,
    )
    .runs
}

#[test]
fn searches_step_through_every_value_of_the_bound() {
    // Characters past the surrogates: the table form.
    let chars: BigUint = (0..=17).map(crate::count::count_of::<char>).sum();
    assert_eq!(BigUint::from(runs_reading::<char>(17)), chars);
    // A linear family past the table: the grammar answers.
    let bound = TABLE_SIZES as usize + 5;
    let linear = with_integer_sizes(IntegerSizes::Linear, || runs_reading::<u16>(bound));
    assert_eq!(linear, bound as u64 + 1);
    let signed = with_integer_sizes(IntegerSizes::Linear, || runs_reading::<i16>(bound));
    assert_eq!(signed, 2 * bound as u64 + 1);
}

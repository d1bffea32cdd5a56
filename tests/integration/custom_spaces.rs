//! Searching hand-written spaces: atoms read through their own space, and
//! views refuse positions that do not hold their type's own space.

use neatcheck::search::{self, RunResult, Searcher};
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

// ---------------------------------------------------------------------------
// Hand-written spaces read through the public API (`Lazy::alternative`), at
// the run counts of their derived equivalents.
// ---------------------------------------------------------------------------

use neatcheck::check::Config;
use neatcheck::count::count_of;
use neatcheck::lazy::LazyView;
use neatcheck::space::Space;
use neatcheck::values::values_of;
use neatcheck::Enumerable;

/// Integers as a union of two number families, described by hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Int {
    Pos(u8),
    Neg(u8),
}

impl Enumerable for Int {
    fn describe() -> Space<Self> {
        space::pay(space::union(vec![
            space::ctor("Pos", space::map(space::of::<u8>(), Int::Pos)),
            space::ctor("Neg", space::map(space::of::<u8>(), Int::Neg)),
        ]))
    }
}

enum IntView<'a> {
    Pos(Lazy<'a, u8>),
    Neg(Lazy<'a, u8>),
}

impl LazyView for Int {
    type View<'a> = IntView<'a>;
    fn view(lazy: Lazy<'_, Self>) -> IntView<'_> {
        let alt = lazy.alternative();
        match alt.index() {
            0 => IntView::Pos(alt.field(0)),
            _ => IntView::Neg(alt.field(0)),
        }
    }
}

/// The derived equivalent.
#[derive(neatcheck::Enumerable, Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum DInt {
    Pos(u8),
    Neg(u8),
}

fn hand_to_derived(x: Int) -> DInt {
    match x {
        Int::Pos(n) => DInt::Pos(n),
        Int::Neg(n) => DInt::Neg(n),
    }
}

/// A hand-written recursive type: binary trees with `u8` keys.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Bst {
    Leaf,
    Node(Box<Bst>, u8, Box<Bst>),
}

impl Enumerable for Bst {
    fn describe() -> Space<Self> {
        space::pay(space::union(vec![
            space::pure(Bst::Leaf),
            space::map(
                space::product3(space::of::<Bst>(), space::of::<u8>(), space::of::<Bst>()),
                |(l, x, r)| Bst::Node(Box::new(l), x, Box::new(r)),
            ),
        ]))
    }
}

enum BstView<'a> {
    Leaf,
    Node(Lazy<'a, Bst>, Lazy<'a, u8>, Lazy<'a, Bst>),
}

impl LazyView for Bst {
    type View<'a> = BstView<'a>;
    fn view(lazy: Lazy<'_, Self>) -> BstView<'_> {
        let alt = lazy.alternative();
        match alt.index() {
            0 => BstView::Leaf,
            _ => BstView::Node(alt.field(0), alt.field(1), alt.field(2)),
        }
    }
}

#[derive(neatcheck::Enumerable, Clone, Debug, PartialEq, Eq, Hash)]
enum DBst {
    Leaf,
    Node(Box<DBst>, u8, Box<DBst>),
}

fn hand_bst(t: Lazy<'_, Bst>, lo: u8, hi: u8) -> bool {
    match t.view() {
        BstView::Leaf => true,
        BstView::Node(l, x, r) => {
            let x = x.get();
            lo <= x && x < hi && hand_bst(l, lo, x) && hand_bst(r, x + 1, hi)
        }
    }
}

fn derived_bst(t: Lazy<'_, DBst>, lo: u8, hi: u8) -> bool {
    match t.view() {
        DBstView::Leaf => true,
        DBstView::Node(l, x, r) => {
            let x = x.get();
            lo <= x && x < hi && derived_bst(l, lo, x) && derived_bst(r, x + 1, hi)
        }
    }
}

fn bst_to_derived(t: &Bst) -> DBst {
    match t {
        Bst::Leaf => DBst::Leaf,
        Bst::Node(l, x, r) => {
            DBst::Node(Box::new(bst_to_derived(l)), *x, Box::new(bst_to_derived(r)))
        }
    }
}

#[test]
fn hand_written_spaces_enumerate_like_their_derived_equivalents() {
    for n in 0..6 {
        assert_eq!(count_of::<Int>(n), count_of::<DInt>(n), "size {n}");
        let hand: Vec<DInt> = values_of::<Int>(n)
            .into_iter()
            .map(hand_to_derived)
            .collect();
        assert_eq!(hand, values_of::<DInt>(n), "size {n}");
        assert_eq!(count_of::<Bst>(n), count_of::<DBst>(n), "size {n}");
        let hand: Vec<DBst> = values_of::<Bst>(n).iter().map(bst_to_derived).collect();
        assert_eq!(hand, values_of::<DBst>(n), "size {n}");
    }
}

#[test]
fn the_public_view_of_a_hand_written_union_searches_like_the_derived_one() {
    let hand = search::classes(
        |x: Lazy<Int>| match x.view() {
            IntView::Pos(n) => n.get() < 5,
            IntView::Neg(_) => false,
        },
        6,
    );
    let derived = search::classes(
        |x: Lazy<DInt>| match x.view() {
            DIntView::Pos(n) => n.get() < 5,
            DIntView::Neg(_) => false,
        },
        6,
    );
    // Neg is one class (its number is never read); Pos reads its number:
    // the 32 numbers of size <= 5 (6 minus the constructor's 1).
    assert_eq!(hand.runs, 1 + 32);
    assert_eq!(
        (hand.runs, hand.satisfying),
        (derived.runs, derived.satisfying)
    );
    assert_eq!(hand.satisfying, 5);
    // Forcing reads everything: one run per value.
    let forced = search::classes(|x: Lazy<Int>| x.force() == Int::Pos(3), 6);
    assert_eq!(forced.runs, 64);
}

#[test]
fn the_public_view_of_a_hand_written_recursive_type_searches_like_the_derived_one() {
    for bound in 0..9 {
        let hand = search::classes(|t: Lazy<Bst>| hand_bst(t, 0, u8::MAX), bound);
        let derived = search::classes(|t: Lazy<DBst>| derived_bst(t, 0, u8::MAX), bound);
        assert_eq!(hand.runs, derived.runs, "bound {bound}");
        assert_eq!(hand.satisfying, derived.satisfying, "bound {bound}");
    }
    // The satisfying values are the same, in the same order.
    let hand: Vec<DBst> = search::search(|t: Lazy<Bst>| hand_bst(t, 0, u8::MAX), 7)
        .map(|t| bst_to_derived(&t))
        .collect();
    let derived: Vec<DBst> =
        search::search(|t: Lazy<DBst>| derived_bst(t, 0, u8::MAX), 7).collect();
    assert!(hand.len() > 10);
    assert_eq!(hand, derived);
}

#[test]
fn a_planted_bug_is_found_through_the_public_view_with_constructor_names() {
    // Wrong for negative numbers above 2: found minimal, printed by name.
    let failure = Config::default()
        .try_check(|x: Lazy<Int>| match x.view() {
            IntView::Pos(_) => true,
            IntView::Neg(n) => n.get() <= 2,
        })
        .unwrap_err();
    assert_eq!(failure.value, Int::Neg(3));
    assert!(failure.is_minimal());
    assert_eq!(failure.pattern, "Neg(3)");
}

/// A hand-written union without names: complete positions print through
/// `Debug` (registered by the check), not as alternative numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Sign {
    Plus,
    Minus(bool),
}

impl Enumerable for Sign {
    fn describe() -> Space<Self> {
        space::pay(space::union(vec![
            space::pure(Sign::Plus),
            space::map(space::of::<bool>(), Sign::Minus),
        ]))
    }
}

#[test]
fn unnamed_alternatives_print_through_debug_when_complete() {
    let failure = Config::default()
        .try_check(|x: Sign| x != Sign::Minus(true))
        .unwrap_err();
    assert_eq!(failure.value, Sign::Minus(true));
    assert_eq!(failure.pattern, "Minus(true)");
    // With a hole below it, an unnamed alternative prints by number.
    let failure = Config::default()
        .try_check(|x: Lazy<Sign>| x.alternative().index() == 0)
        .unwrap_err();
    assert_eq!(failure.pattern, "#1(_)");
}

#[test]
fn misused_field_handles_panic_instead_of_reading_wrong_values() {
    fn message(r: Option<RunResult>) -> String {
        match r {
            Some(RunResult::Panicked(m)) => m,
            other => panic!("expected a panic, got {other:?}"),
        }
    }
    // A field index past the alternative's fields.
    let mut s = Searcher::<Int>::new(3);
    let m = message(s.step(|x: Lazy<Int>| x.alternative().field::<u8>(1).get() == 0));
    assert!(m.contains("has 1 field(s); there is no field 1"), "{m}");
    // A field read with another type than its own (the grammar is trusted).
    let mut s = Searcher::<Int>::new(3);
    let m = message(s.step(|x: Lazy<Int>| x.alternative().field::<bool>(0).get()));
    assert!(m.contains("does not hold the space of `bool`"), "{m}");
    // The first run reads `Leaf`; the second is a `Node`.
    let mut s = Searcher::<Bst>::new(3);
    let read = |t: Lazy<Bst>| {
        let alt = t.alternative();
        alt.index() == 0 || alt.field::<Int>(0).alternative().index() == 0
    };
    assert_eq!(s.step(read), Some(RunResult::True));
    let m = message(s.step(read));
    assert!(m.contains("does not hold the space of"), "{m}");
    // An atom has no alternatives.
    let mut s = Searcher::<u8>::new(3);
    let m = message(s.step(|x: Lazy<u8>| x.alternative().index() == 0));
    assert!(m.contains("leaf family"), "{m}");
}

/// A field whose values come from a pattern.
#[derive(neatcheck::Enumerable, Debug, Clone, PartialEq)]
struct Header {
    #[enumerable(with = neatcheck::space::pattern("[A-Z][a-z]*(-[A-Z][a-z]*)?"))]
    name: String,
    value: u8,
}

#[test]
fn a_pattern_field_is_searched_counted_and_indexed_like_any_space() {
    use neatcheck::index::Indexer;
    use neatcheck::values::values_of;
    // Lazily searched: the smallest header whose name has a dash.
    let failure = neatcheck::Config::default()
        .try_check(|h: Header| !h.name.contains('-'))
        .unwrap_err();
    assert_eq!(failure.value.name, "A-A");
    assert!(failure.is_minimal());
    // The index agrees with the reference enumeration, value by value
    // (size 3 holds 54 132 headers, size 4 nearly two million).
    let ix = Indexer::<Header>::new();
    for size in 0..=2 {
        let values = values_of::<Header>(size);
        assert_eq!(ix.cardinality(size), values.len().into(), "size {size}");
        for (i, v) in values.iter().enumerate() {
            assert_eq!(&ix.index(size, &i.into()), v, "size {size}, index {i}");
        }
    }
    assert_eq!(ix.cardinality(2), (26u32 * 53).into());
}

/// `n` booleans.
fn booleans(n: usize) -> space::Space<Vec<bool>> {
    if n == 0 {
        return space::pure(vec![]);
    }
    space::map(
        space::product(space::of::<bool>(), booleans(n - 1)),
        |(b, mut rest)| {
            rest.insert(0, b);
            rest
        },
    )
}

/// A length (each of size 1), then that many booleans.
fn length_and_list() -> space::Space<(usize, Vec<bool>)> {
    space::bind(space::range(0, 4, |n| n as usize), |&n| booleans(n))
}

#[test]
fn a_dependent_space_lists_each_pair_once_at_the_sum_of_its_sizes() {
    use neatcheck::index::Indexer;
    use neatcheck::values::values_in;
    let pairs = length_and_list();
    let ix = Indexer::for_space(&pairs);
    for n in 0..=7 {
        // The reference: a length of size 1 and its booleans, size n - 1.
        let mut expected: Vec<(usize, Vec<bool>)> = (0..=4usize)
            .flat_map(|len| {
                let lists = if n >= 1 {
                    values_in(&booleans(len), n - 1)
                } else {
                    vec![]
                };
                lists.into_iter().map(move |v| (len, v))
            })
            .collect();
        let mut got = values_in(&pairs, n);
        assert_eq!(ix.cardinality(n), got.len().into(), "size {n}");
        for (i, v) in got.iter().enumerate() {
            assert_eq!(&ix.index(n, &i.into()), v, "size {n}, index {i}");
        }
        got.sort();
        expected.sort();
        assert_eq!(got, expected, "size {n}");
    }
    // Searched lazily like any space: the smallest pair with two trues.
    let failure = neatcheck::Config::default()
        .spaces(length_and_list)
        .try_check(|(_, v): (usize, Vec<bool>)| v.iter().filter(|b| **b).count() < 2)
        .unwrap_err();
    assert_eq!(failure.value, (2, vec![true, true]));
    assert!(failure.is_minimal());
}

#[test]
fn a_dependent_space_refuses_an_infinite_first_space() {
    let e =
        std::panic::catch_unwind(|| space::bind(space::of::<Vec<bool>>(), |_| space::of::<bool>()))
            .unwrap_err();
    let message = e.downcast_ref::<String>().expect("a message");
    assert!(message.contains("finitely many values"), "{message}");
    let e = std::panic::catch_unwind(|| space::bind(space::of::<u32>(), |_| space::of::<bool>()))
        .unwrap_err();
    let message = e.downcast_ref::<String>().expect("a message");
    assert!(message.contains("more than 100000"), "{message}");
}

#[test]
fn forcing_a_hand_written_space_over_atoms_reads_every_value_once() {
    // `force()` on a hand-written union of integer atoms (and a `char`
    // atom under a `map`): each forced value is its own class, so the
    // runs are exactly the reference enumeration's values up to the bound,
    // each once.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    enum Atomic {
        Small(i8),
        Letter(char),
        Wide(u16),
    }
    impl Enumerable for Atomic {
        fn describe() -> Space<Self> {
            space::pay(space::union(vec![
                space::map(space::of::<i8>(), Atomic::Small),
                space::map(space::map(space::of::<char>(), |c: char| c), Atomic::Letter),
                space::map(space::of::<u16>(), Atomic::Wide),
            ]))
        }
    }
    for bound in [1, 4, 9] {
        let mut forced = vec![];
        let mut searcher = Searcher::<Atomic>::new(bound);
        while searcher
            .step(|x: Lazy<Atomic>| {
                forced.push(x.force());
                true
            })
            .is_some()
        {}
        let reference: Vec<Atomic> = (0..=bound).flat_map(values_of::<Atomic>).collect();
        let unique: std::collections::HashSet<Atomic> = forced.iter().copied().collect();
        assert_eq!(
            unique.len(),
            forced.len(),
            "a value forced twice, bound {bound}"
        );
        assert_eq!(unique, reference.into_iter().collect(), "bound {bound}");
    }
}

//! The random phase's redraws under preconditions (issue 36), over every
//! atom type alone and inside tuples, lists and derived trees, both integer
//! size modes, with preconditions of several shapes: no check raises an
//! internal error, and no case is ever drawn from a class that a discarded
//! case of the same phase and size ruled out (checked against the classes
//! recomputed from the log of draws, by path, not by the pruned space).
//!
//! Why the earlier tests missed the crash: they sampled under preconditions
//! over `u8` lists, Peano keys and small enums, whose leaf indices stay far
//! below 2^64; the last size group of a 64-bit family ends at index
//! `u64::MAX`, where the pruned space computed its end past it.

use super::random::log::{recording, Event};
use crate::check::{implies, Config, Stop};
use crate::describe::IntegerSizes;
use crate::grammar::{Grammar, Tree};
use crate::handle::Lazy;
use crate::types::grammar_of;
use crate::Enumerable;
use num_bigint::BigUint;
use proptest::prelude::*;
use std::collections::HashMap;
use std::fmt::Debug;
use std::num::*;

// Read through the derived views only.
#[allow(dead_code)]
#[derive(Enumerable, Debug, Clone)]
enum Bst<K> {
    Leaf,
    Node(Box<Bst<K>>, K, Box<Bst<K>>),
}

/// Every form an atom is tested in, as the fields of one input read
/// lazily: each property reads the fields of its shape only, so the others
/// stay unread (and the property is one closure type per atom type, which
/// keeps the test's compile time to one check per atom type).
#[allow(dead_code)]
#[derive(Enumerable, Debug, Clone)]
struct Forms<K> {
    x: K,
    y: K,
    pair: (u8, K),
    list: Vec<K>,
    tree: Bst<K>,
}

/// Whether a lazy tree is a search tree, reading keys left to right and
/// stopping at the first out of order.
fn ordered<K: Enumerable + PartialOrd>(
    t: Lazy<'_, Bst<K>>,
    lo: Option<&K>,
    hi: Option<&K>,
) -> bool {
    match t.view() {
        BstView::Leaf => true,
        BstView::Node(l, k, r) => {
            let k = k.force();
            lo.is_none_or(|lo| *lo < k)
                && hi.is_none_or(|hi| k < *hi)
                && ordered(l, lo, Some(&k))
                && ordered(r, Some(&k), hi)
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Shape {
    AboveConstant,
    BelowEachOther,
    InPair,
    Sorted,
    SortedLazy,
    TreeOrder,
    Rare,
}

const SHAPES: [Shape; 7] = [
    Shape::AboveConstant,
    Shape::BelowEachOther,
    Shape::InPair,
    Shape::Sorted,
    Shape::SortedLazy,
    Shape::TreeOrder,
    Shape::Rare,
];

/// The precondition of a shape, read from the input's forms.
fn precondition<K>(shape: Shape, c: &K, input: Lazy<'_, Forms<K>>) -> bool
where
    K: Enumerable + PartialOrd + 'static,
{
    let FormsView {
        x,
        y,
        pair,
        list,
        tree,
    } = input.view();
    match shape {
        Shape::AboveConstant => x.force() > *c,
        Shape::BelowEachOther => x.force() < y.force(),
        Shape::InPair => {
            let (small, k) = pair.force();
            k >= *c && small > 1
        }
        Shape::Sorted => list.force().windows(2).all(|w| w[0] < w[1]),
        Shape::SortedLazy => {
            let mut last: Option<K> = None;
            for k in list.iter() {
                let k = k.force();
                if last.as_ref().is_some_and(|l| *l >= k) {
                    return false;
                }
                last = Some(k);
            }
            true
        }
        Shape::TreeOrder => ordered(tree, None, None),
        Shape::Rare => {
            let x = x.force();
            x > *c && x == y.force()
        }
    }
}

/// A small check of a property that holds wherever its precondition does;
/// returns the log of its random phases, after asserting that it passed
/// (or failed a health check), never with an internal error.
fn scenario<K>(shape: Shape, config: &Config, pick: u64) -> (std::rc::Rc<Grammar>, Vec<Event>)
where
    K: Enumerable + Debug + Send + Sync + PartialOrd + 'static,
{
    let c: K = crate::index::value_at(&BigUint::from(pick));
    let prop = |input: Lazy<'_, Forms<K>>| implies(precondition(shape, &c, input), || true);
    let (result, events) = recording(|| config.try_check(prop));
    match result {
        Ok(s) => assert_ne!(s.stopped, Stop::Internal, "{:?}", s.problems),
        Err(c) => panic!("a property that holds failed: {}", c.report()),
    }
    // The grammar in the check's integer size mode: sizes key the classes.
    let sizes = config
        .settings
        .integers
        .unwrap_or(crate::describe::integer_sizes());
    let g = crate::describe::with_integer_sizes(sizes, grammar_of::<Forms<K>>);
    (g, events)
}

/// The heads of the nodes on `path` from the root (`None` where the tree
/// has no such node).
fn heads(tree: &Tree, path: &[usize]) -> Option<Vec<(u64, u64)>> {
    let head = |t: &Tree| match t {
        Tree::Node(prod, _) => (0, prod.index() as u64),
        Tree::Leaf(sort, v) => (1 + sort.index() as u64, *v),
    };
    let mut at = tree;
    let mut out = vec![head(at)];
    for &i in path {
        let Tree::Node(_, kids) = at else { return None };
        at = kids.get(i)?;
        out.push(head(at));
    }
    Some(out)
}

/// The paths of a tree's positions, numbered breadth first (the numbering
/// of a run's reads).
fn breadth_first_paths(tree: &Tree) -> Vec<Vec<usize>> {
    let mut queue = std::collections::VecDeque::from([(tree, vec![])]);
    let mut out = vec![];
    while let Some((t, path)) = queue.pop_front() {
        if let Tree::Node(_, kids) = t {
            for (i, k) in kids.iter().enumerate() {
                let mut p: Vec<usize> = path.clone();
                p.push(i);
                queue.push_back((&**k, p));
            }
        }
        out.push(path);
    }
    out
}

/// Whether `tree` agrees with `discarded` on every position it read (and
/// on the positions above them).
fn in_class(tree: &Tree, discarded: &Tree, reads: &[u32]) -> bool {
    let paths = breadth_first_paths(discarded);
    reads
        .iter()
        .filter_map(|&r| paths.get(r as usize))
        .all(|p| heads(tree, p).is_some_and(|h| Some(h) == heads(discarded, p)))
}

/// No case drawn after a discard is in a class ruled out before it in the
/// same phase, at the same size. Returns how many cases were redrawn past
/// a discard (so a test can say the redraws were exercised).
fn assert_no_ruled_out_draws(g: &Grammar, events: &[Event]) -> usize {
    // Keyed by (phase, size): each discarded tree with the positions it read.
    type Reads<'a> = Vec<(&'a Tree, &'a [u32])>;
    let mut ruled_out: HashMap<(u64, u64), Reads<'_>> = HashMap::new();
    let mut after_discards = 0;
    for e in events {
        match e {
            Event::Discarded { phase, tree, reads } => ruled_out
                .entry((*phase, g.tree_size(tree)))
                .or_default()
                .push((tree, reads)),
            Event::Drawn { phase, tree } => {
                let Some(classes) = ruled_out.get(&(*phase, g.tree_size(tree))) else {
                    continue;
                };
                after_discards += 1;
                for (d, reads) in classes {
                    assert!(
                        !in_class(tree, d, reads),
                        "drawn {tree:?} in the class of discarded {d:?} (reads {reads:?})"
                    );
                }
            }
        }
    }
    after_discards
}

macro_rules! atom_types {
    ($($t:ty),* $(,)?) => {
        /// Runs `shape` over atom type number `which`.
        fn run_atom(which: usize, shape: Shape, config: &Config, pick: u64)
            -> (std::rc::Rc<Grammar>, Vec<Event>)
        {
            let runners: &[fn(Shape, &Config, u64) -> (std::rc::Rc<Grammar>, Vec<Event>)] =
                &[$(scenario::<$t>),*];
            runners[which % runners.len()](shape, config, pick)
        }
        const ATOM_TYPES: usize = [$(stringify!($t)),*].len();
    };
}

atom_types!(
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    NonZeroU8,
    NonZeroU16,
    NonZeroU32,
    NonZeroU64,
    NonZeroU128,
    NonZeroI8,
    NonZeroI16,
    NonZeroI32,
    NonZeroI64,
    NonZeroI128,
    f32,
    f64,
    char,
);

fn config(seed: u64, linear: bool) -> Config {
    let sizes = if linear {
        IntegerSizes::Linear
    } else {
        IntegerSizes::BitLength
    };
    // The probe's cases and a short exhaustive phase (the random phase
    // proper draws the same way).
    Config::default()
        .runs(100)
        .samples(400, 60)
        .seed(seed)
        .integer_sizes(sizes)
        .regressions(false)
        .run_timeout(None)
}

#[test]
fn the_issue_36_property_passes() {
    let (result, events) =
        recording(|| config(1, false).try_check(|x: i64| implies(x > 5, || true)));
    assert!(result.is_ok_and(|s| s.problems.is_empty()));
    assert!(assert_no_ruled_out_draws(&grammar_of::<i64>(), &events) > 100);
}

#[test]
fn every_atom_type_and_shape_once() {
    let mut redrawn = 0;
    for which in 0..ATOM_TYPES {
        for (i, &shape) in SHAPES.iter().enumerate() {
            // The default number of random cases (the proptest below draws
            // more).
            let config = config(which as u64 * 7 + i as u64, (which + i) % 2 == 1)
                .samples(crate::check::settings::DEFAULT_SAMPLES, 60);
            let (g, events) = run_atom(which, shape, &config, 40);
            redrawn += assert_no_ruled_out_draws(&g, &events);
        }
    }
    assert!(redrawn > 5_000, "{redrawn}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn redraws_never_raise_and_never_repeat_a_ruled_out_class(
        which in 0..ATOM_TYPES,
        shape in 0..SHAPES.len(),
        seed in any::<u64>(),
        linear in any::<bool>(),
        pick in 0u64..200,
    ) {
        let (g, events) = run_atom(which, SHAPES[shape], &config(seed, linear), pick);
        assert_no_ruled_out_draws(&g, &events);
    }
}

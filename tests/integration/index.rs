//! Random access (FEAT) against the reference enumeration: indexing,
//! indexing over all sizes, striped enumeration, uniform sampling and spaced
//! samples (issue #7).

use neatcheck::grammar::Tree;
use neatcheck::index::{self, Indexer};
use neatcheck::space::{self, Space};
use neatcheck::values;
use neatcheck::Enumerable;
use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use std::collections::{HashMap, HashSet};
use std::fmt::Debug;

// ---------------------------------------------------------------------------
// Types under test.

/// Unlabelled binary trees.
#[derive(Enumerable, Debug, Clone, PartialEq)]
enum Bin {
    Leaf,
    Node(Box<Bin>, Box<Bin>),
}

/// Labelled binary trees (three fields in one constructor).
#[derive(Enumerable, Debug, Clone, PartialEq)]
enum Labelled {
    Tip,
    Fork(Box<Labelled>, bool, Box<Labelled>),
}

/// A generic derived type with a named-field recursive constructor.
#[derive(Enumerable, Debug, Clone, PartialEq)]
enum Tagged<A, B> {
    Left(A),
    Right { tag: B, rest: Box<Tagged<A, B>> },
}

/// Rose trees: a mutually recursive pair of derived types.
#[derive(Enumerable, Debug, Clone, PartialEq)]
struct Rose(bool, Forest);

#[derive(Enumerable, Debug, Clone, PartialEq)]
enum Forest {
    Nil,
    Cons(Box<Rose>, Box<Forest>),
}

/// A derived enum with more fields than slots of one kind.
#[derive(Enumerable, Debug, Clone, PartialEq)]
enum Mixed {
    A,
    B(u8),
    C(Option<bool>, i8),
    D(Box<Mixed>, Vec<bool>),
}

// ---------------------------------------------------------------------------
// Agreement with the reference enumeration.

fn big(n: usize) -> BigUint {
    BigUint::from(n)
}

/// Every index of every size `0..=max` agrees with `trees_of` and
/// `values_of`; the cardinality is the reference length; the next index is
/// out of range.
fn agrees<T: Enumerable + PartialEq + Debug>(max: usize) {
    let ix = Indexer::<T>::new();
    let name = std::any::type_name::<T>();
    for n in 0..=max {
        let trees = values::trees_of::<T>(n);
        let vals = values::values_of::<T>(n);
        assert_eq!(
            trees.len(),
            vals.len(),
            "{name} size {n}: the two oracles disagree"
        );
        assert_eq!(
            index::cardinality::<T>(n),
            big(vals.len()),
            "{name} size {n}: cardinality"
        );
        for (i, (t, v)) in trees.iter().zip(&vals).enumerate() {
            let bi = big(i);
            let tree = ix.tree(n, &bi).expect("index in range");
            assert_eq!(&tree, t, "{name} size {n} index {i}: tree");
            assert_eq!(values::tree_size::<T>(&tree), n as u64, "{name}: tree size");
            assert_eq!(
                &index::index::<T>(n, &bi),
                v,
                "{name} size {n} index {i}: value"
            );
            assert_eq!(
                &ix.value_of_tree(&tree),
                v,
                "{name} size {n} index {i}: tree value"
            );
        }
        let end = big(vals.len());
        assert!(
            ix.tree(n, &end).is_none(),
            "{name} size {n}: tree past the end"
        );
        assert!(
            ix.try_index(n, &end).is_none(),
            "{name} size {n}: value past the end"
        );
    }
}

/// `value_at` over all sizes is the concatenation of the reference sizes,
/// and `size_of_index` gives each value's size.
fn agrees_over_all_sizes<T: Enumerable + PartialEq + Debug>(max: usize) {
    let ix = Indexer::<T>::new();
    let name = std::any::type_name::<T>();
    let mut i = 0usize;
    for n in 0..=max {
        for v in values::values_of::<T>(n) {
            let bi = big(i);
            assert_eq!(index::value_at::<T>(&bi), v, "{name}: value_at({i})");
            assert_eq!(
                index::size_of_index::<T>(&bi),
                n,
                "{name}: size_of_index({i})"
            );
            assert_eq!(
                ix.tree_at(&bi).map(|t| values::tree_size::<T>(&t)),
                Some(n as u64),
                "{name}: tree_at({i})"
            );
            i += 1;
        }
    }
    assert_eq!(
        ix.cardinality_up_to(max),
        big(i),
        "{name}: cardinality_up_to"
    );
}

#[test]
fn index_agrees_with_the_reference_std_types() {
    agrees::<bool>(3);
    agrees::<()>(2);
    agrees::<Vec<bool>>(13);
    agrees::<Option<u8>>(10);
    agrees::<(bool, Vec<bool>)>(12);
    agrees::<(u8, bool, Option<bool>)>(9);
    agrees::<u8>(10);
    agrees::<i8>(10);
    agrees::<char>(9);
    agrees::<String>(11);
    agrees::<Result<bool, u8>>(10);
    agrees::<Vec<Vec<bool>>>(10);
    agrees::<[bool; 3]>(4);
}

#[test]
fn index_agrees_with_the_reference_derived_types() {
    agrees::<Bin>(15);
    agrees::<Labelled>(11);
    agrees::<Tagged<bool, u8>>(10);
    agrees::<Tagged<Option<bool>, bool>>(9);
    agrees::<Rose>(12);
    agrees::<Forest>(12);
    agrees::<Mixed>(9);
}

#[test]
fn value_at_agrees_with_concatenated_sizes() {
    agrees_over_all_sizes::<Vec<bool>>(11);
    agrees_over_all_sizes::<Bin>(13);
    agrees_over_all_sizes::<Option<u8>>(9);
    agrees_over_all_sizes::<Rose>(10);
    agrees_over_all_sizes::<String>(9);
    agrees_over_all_sizes::<Result<bool, u8>>(9);
}

#[test]
fn finite_types_end() {
    fn check<T: Enumerable + PartialEq + Debug>(total: usize, max_size: usize) {
        let ix = Indexer::<T>::new();
        assert_eq!(
            ix.total(),
            Some(big(total)),
            "{}",
            std::any::type_name::<T>()
        );
        assert_eq!(
            ix.max_size(),
            Some(max_size),
            "{}",
            std::any::type_name::<T>()
        );
        let all: Vec<T> = values::values_up_to::<T>(max_size);
        assert_eq!(all.len(), total);
        for (i, v) in all.iter().enumerate() {
            assert_eq!(&ix.value_at(&big(i)), v);
        }
        assert!(ix.try_value_at(&big(total)).is_none());
        assert!(ix.try_size_of_index(&big(total)).is_none());
        assert!(ix.try_value_at(&(big(total) << 100)).is_none());
    }
    check::<bool>(2, 1);
    check::<()>(1, 0);
    check::<u8>(256, 8);
    check::<i8>(256, 8);
    check::<Option<u8>>(257, 9);
    check::<Result<bool, u8>>(258, 9);
    check::<(bool, Option<bool>)>(6, 3);
    assert_eq!(Indexer::<Vec<bool>>::new().total(), None);
    assert_eq!(Indexer::<Bin>::new().max_size(), None);
    assert_eq!(Indexer::<num_bigint::BigUint>::new().max_size(), None);
}

#[test]
#[should_panic(expected = "beyond the last value")]
fn value_at_beyond_a_finite_type_panics() {
    index::value_at::<u8>(&big(256));
}

#[test]
#[should_panic(expected = "out of range")]
fn index_out_of_range_panics() {
    index::index::<Vec<bool>>(5, &big(4));
}

#[test]
fn hand_written_spaces() {
    // A left-nested and a right-nested product, a union and a map.
    let s: Space<(bool, u8, Option<bool>)> = space::map(
        space::product(
            space::of::<bool>(),
            space::product(space::nat_bits(3, |x| x as u8), space::of::<Option<bool>>()),
        ),
        |(a, (b, c))| (a, b, c),
    );
    let s = space::union(vec![s, space::pay(space::pure((true, 200u8, None)))]);
    let ix = Indexer::for_space(&s);
    for n in 0..=8 {
        let vals = values::values_in(&s, n);
        assert_eq!(ix.cardinality(n), big(vals.len()));
        for (i, v) in vals.iter().enumerate() {
            assert_eq!(&ix.index(n, &big(i)), v, "size {n} index {i}");
        }
    }
    // Naturals without a bound: BigUint values beyond 64 bits are indexed
    // as values (their trees would need leaf indices beyond 64 bits).
    let huge = index::index::<BigUint>(200, &big(5));
    assert_eq!(huge, (BigUint::from(1u32) << 199) + 5u32);
    assert_eq!(
        index::size_of_index::<BigUint>(&(BigUint::from(1u32) << 150)),
        151
    );
}

// ---------------------------------------------------------------------------
// Large sizes: polynomial time, no recursion proportional to the value.

#[test]
fn large_sizes() {
    // 3000 booleans: size 6001.
    let n = 6001;
    let card = index::cardinality::<Vec<bool>>(n);
    assert_eq!(card, BigUint::from(1u32) << 3000);
    let last = index::index::<Vec<bool>>(n, &(&card - 1u32));
    assert_eq!(last.len(), 3000);
    assert!(last.iter().all(|&b| b));
    let first = index::index::<Vec<bool>>(n, &BigUint::zero());
    assert!(first.iter().all(|&b| !b));

    let one = index::index::<Vec<bool>>(n, &(BigUint::from(1u32) << 2999));
    assert!(one[0] && one[1..].iter().all(|&b| !b));

    // 20000 cells: a walk that recursed once per constructor would likely
    // overflow the stack of a test thread.
    let units = index::index::<Vec<()>>(20_001, &BigUint::zero());
    assert_eq!(units.len(), 20_000);

    // Deep trees: the first tree of a size is a right spine, the last one a
    // left spine; both 1000 nodes deep.
    let ix = Indexer::<Bin>::new();
    let n = 2001;
    let card = ix.cardinality(n);
    let first = ix.tree(n, &BigUint::zero()).unwrap();
    let last = ix.tree(n, &(&card - 1u32)).unwrap();
    assert_eq!(ix.grammar().count(n), card);
    for (t, left) in [(&first, false), (&last, true)] {
        let mut depth = 0;
        let mut cur = t;
        while let Tree::Node(_, kids) = cur {
            if kids.is_empty() {
                break;
            }
            depth += 1;
            cur = if left { &kids[0] } else { &kids[1] };
        }
        assert_eq!(depth, 1000);
    }
    let middle = ix.tree(n, &(&card / 3u32)).unwrap();
    assert_eq!(values::tree_size::<Bin>(&middle), n as u64);

    // The example's numbers: index 10^1000 of Vec<bool> over all sizes.
    let i = BigUint::from(10u32).pow(1000);
    assert_eq!(index::size_of_index::<Vec<bool>>(&i), 6643);
    assert_eq!(index::value_at::<Vec<bool>>(&i).len(), 3321);
    assert_eq!(
        index::size_of_index::<Bin>(&BigUint::from(10u32).pow(100)),
        345
    );
}

// ---------------------------------------------------------------------------
// Striped enumeration.

fn stripes_partition<T: Enumerable + PartialEq + Debug>(size: usize) {
    let ix = Indexer::<T>::new();
    let trees = values::trees_of::<T>(size);
    let vals = values::values_of::<T>(size);
    for workers in 1..=5 {
        let mut seen: Vec<Option<usize>> = vec![None; trees.len()];
        for worker in 0..workers {
            let stripe: Vec<Tree> = ix.stripe_trees(size, worker, workers).collect();
            let typed: Vec<T> = index::stripe::<T>(size, worker, workers).collect();
            assert_eq!(stripe.len(), typed.len());
            for (k, (t, v)) in stripe.iter().zip(&typed).enumerate() {
                let i = worker + k * workers;
                assert_eq!(t, &trees[i]);
                assert_eq!(v, &vals[i]);
                assert!(seen[i].is_none(), "index {i} in two stripes");
                seen[i] = Some(worker);
            }
        }
        assert!(seen.iter().all(Option::is_some), "stripes are not complete");
    }
}

#[test]
fn stripes_are_disjoint_and_complete() {
    stripes_partition::<Bin>(13);
    stripes_partition::<Vec<bool>>(9);
    stripes_partition::<Rose>(9);
    stripes_partition::<u8>(6);
    stripes_partition::<Option<u8>>(0);
    // More workers than values: the extra stripes are empty.
    assert_eq!(index::stripe::<bool>(1, 3, 4).count(), 0);
    assert_eq!(
        index::stripe::<bool>(1, 1, 4).collect::<Vec<_>>(),
        vec![true]
    );
}

#[test]
#[should_panic(expected = "out of range")]
fn stripe_worker_out_of_range_panics() {
    let _ = index::stripe::<bool>(1, 4, 4);
}

// ---------------------------------------------------------------------------
// Uniform sampling.

/// The upper critical value of chi-squared with `df` degrees of freedom at
/// p = 0.001 (Wilson–Hilferty; z = 3.0902).
fn chi2_critical_0001(df: f64) -> f64 {
    let z = 3.0902;
    let a = 2.0 / (9.0 * df);
    df * (1.0 - a + z * a.sqrt()).powi(3)
}

fn chi2(observed: &[u64], expected: f64) -> f64 {
    observed
        .iter()
        .map(|&o| (o as f64 - expected).powi(2) / expected)
        .sum()
}

#[test]
fn sampling_a_size_is_uniform() {
    // Binary trees of size 15: Catalan(7) = 429 values.
    let size = 15;
    let trees = values::trees_of::<Bin>(size);
    assert_eq!(trees.len(), 429);
    let position: HashMap<&Tree, usize> = trees.iter().enumerate().map(|(i, t)| (t, i)).collect();
    let ix = Indexer::<Bin>::new();
    let mut rng = index::seeded_rng(20_240_607);
    let per_value = 40;
    let draws = trees.len() * per_value;
    let mut observed = vec![0u64; trees.len()];
    for _ in 0..draws {
        let t = ix.sample_tree(size, &mut rng).unwrap();
        observed[position[&t]] += 1;
    }
    let stat = chi2(&observed, per_value as f64);
    let critical = chi2_critical_0001((trees.len() - 1) as f64);
    assert!(stat < critical, "chi-squared {stat} >= critical {critical}");

    // Typed samples have the size asked for.
    for _ in 0..50 {
        let v = index::sample::<Vec<bool>>(41, &mut rng).unwrap();
        assert_eq!(v.len(), 20);
    }
    assert!(index::sample::<Vec<bool>>(40, &mut rng).is_none());
    assert!(index::sample::<u8>(9, &mut rng).is_none());
}

#[test]
fn sampling_up_to_a_size_is_uniform() {
    // Lists of booleans of size <= 13: 1 + 2 + ... + 64 = 127 values.
    let all = values::values_up_to::<Vec<bool>>(13);
    assert_eq!(all.len(), 127);
    let position: HashMap<&Vec<bool>, usize> =
        all.iter().enumerate().map(|(i, v)| (v, i)).collect();
    let mut rng = index::seeded_rng(7);
    let per_value = 100;
    let mut observed = vec![0u64; all.len()];
    for _ in 0..all.len() * per_value {
        let v = index::sample_up_to::<Vec<bool>>(13, &mut rng).unwrap();
        observed[position[&v]] += 1;
    }
    let stat = chi2(&observed, per_value as f64);
    let critical = chi2_critical_0001((all.len() - 1) as f64);
    assert!(stat < critical, "chi-squared {stat} >= critical {critical}");

    // Trees too.
    let ix = Indexer::<Bin>::new();
    for _ in 0..100 {
        let t = ix.sample_tree_up_to(9, &mut rng).unwrap();
        assert!(values::tree_size::<Bin>(&t) <= 9);
    }
    assert!(index::sample_up_to::<Bin>(0, &mut rng).is_none());
}

#[test]
fn sampling_is_reproducible_from_a_seed() {
    let draw = |seed| -> Vec<Vec<bool>> {
        let mut rng = index::seeded_rng(seed);
        (0..20)
            .map(|_| index::sample_up_to::<Vec<bool>>(61, &mut rng).unwrap())
            .collect()
    };
    assert_eq!(draw(42), draw(42));
    assert_ne!(draw(42), draw(43));
}

// ---------------------------------------------------------------------------
// Spaced samples.

#[test]
fn spaced_samples_are_in_order_and_distinct() {
    fn check<T: Enumerable + PartialEq + Debug>(size: usize, k: usize) {
        let vals = values::values_of::<T>(size);
        let trees = values::trees_of::<T>(size);
        let spaced = index::spaced::<T>(size, k);
        let spaced_trees = Indexer::<T>::new().spaced_trees(size, k);
        assert_eq!(spaced.len(), k.min(vals.len()));
        assert_eq!(spaced_trees.len(), spaced.len());
        let positions: Vec<usize> = spaced
            .iter()
            .map(|v| {
                vals.iter()
                    .position(|w| w == v)
                    .expect("a value of the size")
            })
            .collect();
        assert!(
            positions.windows(2).all(|w| w[0] < w[1]),
            "not increasing: {positions:?}"
        );
        for (p, t) in positions.iter().zip(&spaced_trees) {
            assert_eq!(&trees[*p], t);
        }
        let distinct: HashSet<&Tree> = spaced_trees.iter().collect();
        assert_eq!(distinct.len(), spaced_trees.len());
        if let (Some(&first), true) = (positions.first(), k > 0) {
            assert_eq!(first, 0);
        }
    }
    check::<Bin>(13, 10);
    check::<Bin>(13, 132);
    check::<Bin>(13, 500);
    check::<Vec<bool>>(11, 7);
    check::<Option<u8>>(5, 100);
    check::<Rose>(10, 3);
    check::<u8>(9, 4);
    // Far beyond enumeration: 16 evenly spaced lists of 1000 booleans.
    let big_spaced = index::spaced::<Vec<bool>>(2001, 16);
    assert_eq!(big_spaced.len(), 16);
    let distinct: HashSet<&Vec<bool>> = big_spaced.iter().collect();
    assert_eq!(distinct.len(), 16);
}

// ---------------------------------------------------------------------------
// Ranking: the inverse of indexing.

/// `rank` gives back the size and index of every tree of sizes `0..=max`
/// (as listed by the reference enumeration and as indexed), and of uniform
/// samples at the larger sizes `big`.
fn rank_inverts_index<T: Enumerable + PartialEq + Debug>(max: usize, larger: &[usize]) {
    let ix = Indexer::<T>::new();
    let name = std::any::type_name::<T>();
    for n in 0..=max {
        for (i, t) in values::trees_of::<T>(n).iter().enumerate() {
            assert_eq!(ix.rank(t), (n, big(i)), "{name}: rank of reference tree");
        }
        let card = ix.cardinality(n).to_usize().unwrap();
        for i in 0..card {
            let t = ix.tree(n, &big(i)).unwrap();
            assert_eq!(ix.rank(&t), (n, big(i)), "{name}: rank(index({n}, {i}))");
        }
    }
    let mut rng = index::seeded_rng(max as u64);
    for &n in larger {
        // Some types have values of some sizes only (odd, or 3k + 1).
        let n = (n..n + 4)
            .find(|&s| !ix.cardinality(s).is_zero())
            .expect("values near the size");
        for _ in 0..10 {
            let t = ix.sample_tree(n, &mut rng).expect("values of the size");
            let (size, i) = ix.rank(&t);
            assert_eq!(size, n, "{name}: sampled size");
            assert_eq!(ix.tree(n, &i), Some(t), "{name}: index(rank(sample))");
        }
    }
}

#[test]
fn rank_inverts_index_std_types() {
    rank_inverts_index::<bool>(3, &[1]);
    rank_inverts_index::<()>(2, &[0]);
    rank_inverts_index::<u8>(8, &[8]);
    rank_inverts_index::<i64>(6, &[40, 64]);
    rank_inverts_index::<u64>(6, &[64]);
    rank_inverts_index::<char>(7, &[7]);
    rank_inverts_index::<String>(9, &[60]);
    rank_inverts_index::<Vec<bool>>(13, &[101]);
    rank_inverts_index::<Vec<Vec<bool>>>(10, &[61]);
    rank_inverts_index::<Option<u8>>(9, &[9]);
    rank_inverts_index::<Result<bool, u8>>(9, &[9]);
    rank_inverts_index::<(u8, bool, Option<bool>)>(9, &[11]);
    rank_inverts_index::<(bool, Vec<bool>)>(11, &[40]);
    rank_inverts_index::<[bool; 3]>(4, &[3]);
    rank_inverts_index::<Box<Vec<u8>>>(8, &[40]);
}

#[test]
fn rank_inverts_index_derived_types() {
    rank_inverts_index::<Bin>(13, &[41, 101]);
    rank_inverts_index::<Labelled>(10, &[41]);
    rank_inverts_index::<Tagged<bool, u8>>(9, &[40]);
    rank_inverts_index::<Rose>(11, &[41]);
    rank_inverts_index::<Forest>(11, &[41]);
    rank_inverts_index::<Mixed>(8, &[30]);
}

#[test]
fn rank_of_deep_trees() {
    // The last and first binary trees of a size: left and right spines
    // 1000 nodes deep.
    let ix = Indexer::<Bin>::new();
    let n = 2001;
    let last_index = ix.cardinality(n) - 1u32;
    for i in [BigUint::zero(), &last_index / 7u32, last_index] {
        let t = ix.tree(n, &i).unwrap();
        assert_eq!(ix.rank(&t), (n, i));
    }
    // 20 000 list cells.
    let ix = Indexer::<Vec<bool>>::new();
    let n = 40_001;
    let i = (BigUint::from(1u32) << 19_999) + 12_345u32;
    let t = ix.tree(n, &i).unwrap();
    assert_eq!(ix.rank(&t), (n, i));
}

#[test]
#[should_panic(expected = "cannot rank a tree")]
fn rank_of_a_foreign_tree_panics() {
    let other = Indexer::<Option<bool>>::new()
        .tree(2, &BigUint::zero())
        .unwrap();
    Indexer::<Vec<Vec<bool>>>::new().rank(&other);
}

#[test]
fn fuzzer_bytes_decode_to_every_small_value() {
    use std::collections::BTreeSet;
    let ix = Indexer::<Vec<bool>>::new();
    // Every input of up to two bytes: every list of size <= 9 comes out.
    let mut seen = BTreeSet::new();
    seen.extend(ix.decode(&[], 9));
    for a in 0..=255u8 {
        seen.extend(ix.decode(&[a], 9));
        for b in 0..=255u8 {
            let v = ix.decode(&[a, b], 9).expect("lists of size <= 9 exist");
            seen.insert(v);
        }
    }
    let all: BTreeSet<Vec<bool>> = (0..=9).flat_map(values::values_of::<Vec<bool>>).collect();
    assert_eq!(seen, all);
    // Deterministic, and long inputs are fine.
    let long: Vec<u8> = (0..=255).collect();
    assert_eq!(ix.decode(&long, 9), ix.decode(&long, 9));
    assert_eq!(index::decode::<Vec<bool>>(&long, 9), ix.decode(&long, 9));
    // No value small enough: none.
    assert_eq!(ix.decode(&[1, 2, 3], 0), None);
}

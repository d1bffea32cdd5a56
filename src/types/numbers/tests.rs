//! Tests of the float, 128-bit, NonZero, Duration and Unicode spaces against
//! brute-force decodings and the reference enumeration.

use super::*;
use crate::check::{implies, Config, Found};
use crate::count::count_of;
use crate::grammar::{downcast, Tree};
use crate::index::seeded_rng;
use crate::lazy::Atom;
use crate::search::{self, Searcher};
use crate::space::numbers::*;
use crate::types::grammar_of;
use crate::values::{tree_value, trees_of, values_in, values_of};
use num_traits::{One, Zero};
use rand::RngExt;
use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::fmt::Debug;

fn config() -> Config {
    Config::default().regressions(false).seed(7)
}

// --- Floats: an independent decoding of bit patterns --------------------

/// The value of a bit pattern of a (tiny) format, by the textbook formula.
fn textbook(t: u32, w: u32, bits: u64) -> f64 {
    let sign = if bits >> (t + w) & 1 == 1 { -1.0 } else { 1.0 };
    let exp = (bits >> t) & ((1 << w) - 1);
    let frac = (bits & ((1 << t) - 1)) as f64 / (1u64 << t) as f64;
    let bias = (1i32 << (w - 1)) - 1;
    if exp == (1 << w) - 1 {
        return if frac == 0.0 {
            sign * f64::INFINITY
        } else {
            f64::NAN
        };
    }
    if exp == 0 {
        sign * frac * 2f64.powi(1 - bias)
    } else {
        sign * (1.0 + frac) * 2f64.powi(exp as i32 - bias)
    }
}

/// `|x| = m·2^e` with `m` odd, found by scaling (`x` finite, nonzero).
fn odd_decomposition(x: f64) -> (u64, i64) {
    let mut x = x.abs();
    let mut e = 0i64;
    while x.fract() != 0.0 {
        x *= 2.0;
        e -= 1;
    }
    while x % 2.0 == 0.0 {
        x /= 2.0;
        e += 1;
    }
    (x as u64, e)
}

fn natural_size(x: f64) -> usize {
    let (m, e) = odd_decomposition(x);
    (bit_len(m) + bit_len(e.unsigned_abs())) as usize
}

/// The documented size of a value: the explicit specials, else its
/// natural size `bitlen(m) + bitlen(|e|)`.
fn documented_size(x: f64, specials: &[(f64, usize)]) -> usize {
    if x.is_nan() || x.is_infinite() {
        return 2;
    }
    if x == 0.0 {
        return if x.is_sign_negative() { 1 } else { 0 };
    }
    let natural = natural_size(x);
    specials
        .iter()
        .filter(|&&(v, _)| v == x)
        .map(|&(_, s)| s.min(natural))
        .next()
        .unwrap_or(natural)
}

/// Every bit pattern of a tiny format appears exactly once (NaNs as one),
/// at its documented size, and `rank`, `bits_at` and `global_index` invert
/// `bits`.
fn brute_force(t: u32, w: u32) {
    let f = FloatFormat::new(t, w);
    let width = 1 + t + w;
    let bias = (1i32 << (w - 1)) - 1;
    let max = (2.0 - 2f64.powi(-(t as i32))) * 2f64.powi(bias);
    let min_pos = 2f64.powi(1 - bias);
    let min_sub = 2f64.powi(1 - bias - t as i32);
    let specials = [
        (1.0, 1),
        (-1.0, 1),
        (max, 3),
        (-max, 3),
        (min_pos, 3),
        (-min_pos, 3),
        (min_sub, 3),
        (-min_sub, 3),
    ];
    // The expected values per size, from the textbook decoding alone.
    let mut expected: HashMap<usize, HashSet<u64>> = HashMap::new();
    for bits in 0..1u64 << width {
        let x = textbook(t, w, bits);
        if x.is_nan() && bits != f.nan() {
            continue;
        }
        let size = documented_size(x, &specials);
        expected.entry(size).or_default().insert(bits);
    }
    let mut seen = HashSet::new();
    let mut global = 0u64;
    for size in 0..=f.last_size() + 2 {
        let want = expected.remove(&size).unwrap_or_default();
        assert_eq!(f.count(size), want.len() as u64, "({t},{w}) size {size}");
        let mut half: Vec<f64> = vec![];
        for i in 0..f.count(size) {
            let bits = f.bits(size, i);
            assert!(want.contains(&bits), "({t},{w}) {bits:#x} at size {size}");
            assert!(seen.insert(bits), "({t},{w}) {bits:#x} twice");
            assert_eq!(f.rank(bits), (size, i));
            assert_eq!(f.bits_at(global), bits);
            assert_eq!(f.global_index(bits), global);
            global += 1;
            let x = textbook(t, w, bits);
            if x.is_finite() && x != 0.0 && !specials.iter().any(|&(v, _)| v == x) {
                half.push(x);
            }
        }
        // General values: the positives, then their negatives in order.
        let n = half.len() / 2;
        assert!(half[..n].iter().all(|&x| x > 0.0), "({t},{w}) size {size}");
        let negated: Vec<f64> = half[..n].iter().map(|x| -x).collect();
        assert_eq!(half[n..], negated[..], "({t},{w}) size {size}");
    }
    assert!(expected.is_empty(), "({t},{w}) sizes missing: {expected:?}");
    assert_eq!(global, f.total());
    // Every NaN pattern ranks as the canonical NaN.
    let any_nan = (((1 << w) - 1) << t) | 1;
    assert_eq!(f.rank(any_nan | 1 << (t + w)), f.rank(f.nan()));
}

#[test]
fn tiny_float_formats_list_every_value_once_at_its_size() {
    for (t, w) in [
        (1, 2),
        (1, 3),
        (2, 3),
        (3, 3),
        (2, 4),
        (3, 4),
        (5, 4),
        (4, 5),
    ] {
        brute_force(t, w);
    }
}

#[test]
fn the_independent_decoding_is_right_on_f64() {
    // The oracle's own check: textbook decoding agrees with the hardware.
    let mut rng = seeded_rng(1);
    for _ in 0..10_000 {
        let bits: u64 = rng.random();
        let x = textbook(52, 11, bits);
        let y = f64::from_bits(bits);
        assert!(x == y || x.is_nan() && y.is_nan(), "{bits:#x}");
    }
    assert_eq!(odd_decomposition(6.0), (3, 1));
    assert_eq!(odd_decomposition(0.375), (3, -3));
    assert_eq!(odd_decomposition(1.0), (1, 0));
}

fn bits64(xs: &[f64]) -> Vec<u64> {
    xs.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn f64_small_sizes() {
    let nan = f64::NAN;
    let inf = f64::INFINITY;
    let sub = f64::from_bits(1);
    let expected: [&[f64]; 4] = [
        &[0.0],
        &[1.0, -1.0, -0.0],
        &[nan, inf, -inf, 2.0, 0.5, 3.0, -2.0, -0.5, -3.0],
        &[
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            sub,
            -sub,
            4.0,
            8.0,
            0.25,
            0.125,
            6.0,
            1.5,
            5.0,
            7.0,
            -4.0,
            -8.0,
            -0.25,
            -0.125,
            -6.0,
            -1.5,
            -5.0,
            -7.0,
        ],
    ];
    for (size, want) in expected.iter().enumerate() {
        assert_eq!(bits64(&values_of::<f64>(size)), bits64(want), "size {size}");
        let trees: Vec<f64> = trees_of::<f64>(size).iter().map(tree_value).collect();
        assert_eq!(bits64(&trees), bits64(want), "trees of size {size}");
    }
    // The specials are not listed again at their natural sizes
    // (MIN_POSITIVE = 2^-1022: size 11; the smallest subnormal: size 12;
    // MAX: size 63): the values around their natural places differ.
    let f = FloatFormat::f64();
    for x in [f64::MAX, f64::MIN_POSITIVE, sub, -sub] {
        let Class::Finite { neg, m, e } = f.classify(x.to_bits()) else {
            unreachable!()
        };
        let (natural, off) = f.general_rank(neg, m, e);
        assert!(natural > 3);
        assert_eq!(f.rank(x.to_bits()).0, 3);
        for i in off.saturating_sub(8)..(off + 8).min(f.count(natural)) {
            assert_ne!(f.bits(natural, i), x.to_bits(), "{x:e} again at {natural}");
        }
    }
    assert_eq!(values_of::<f32>(1), vec![1.0f32, -1.0, -0.0]);
    let third: Vec<u32> = values_of::<f32>(3)[..6]
        .iter()
        .map(|x| x.to_bits())
        .collect();
    let want = [
        f32::MAX,
        f32::MIN,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::from_bits(1),
        -f32::from_bits(1),
    ];
    assert_eq!(third, want.map(f32::to_bits));
}

/// Totals fit the search's 64-bit leaf index; random bit patterns round
/// trip and sit at their natural size; the grammar agrees with the format.
fn real_format(f: &FloatFormat, (t, w): (u32, u32), last: usize, seed: u64) {
    let width = 1 + t + w;
    let counted: u128 = (0..=f.last_size()).map(|s| u128::from(f.count(s))).sum();
    assert_eq!(counted, u128::from(f.total()));
    assert_eq!(f.last_size(), last);
    let mut rng = seeded_rng(seed);
    let specials: HashSet<u64> = (0..=3)
        .flat_map(|s| (0..f.count(s)).map(move |i| f.bits(s, i)))
        .collect();
    for _ in 0..20_000 {
        let bits: u64 = rng.random::<u64>() >> (64 - width);
        let (size, i) = f.rank(bits);
        let back = f.bits(size, i);
        let x = textbook(t, w, bits);
        if x.is_nan() {
            assert_eq!(back, f.nan());
            continue;
        }
        assert_eq!(back, bits, "{bits:#x}");
        assert_eq!(f.bits_at(f.global_index(bits)), bits);
        if !specials.contains(&bits) && x != 0.0 && x.is_finite() {
            assert_eq!(size, natural_size(x), "{x:e}");
        }
        // And from a random global index.
        let g = rng.random_range(0..f.total());
        assert_eq!(f.global_index(f.bits_at(g)), g);
    }
    // The first and last global indices.
    assert_eq!(f.bits_at(0), 0);
    assert_eq!(f.global_index(f.bits_at(f.total() - 1)), f.total() - 1);
}

#[test]
fn f64_and_f32_round_trip_at_large_indices() {
    let f = FloatFormat::f64();
    assert_eq!(f.total(), u64::MAX - (1 << 53) + 4);
    real_format(f, (52, 11), 64, 2);
    let f = FloatFormat::f32();
    assert_eq!(f.total(), (1 << 32) - (1 << 24) + 3);
    real_format(f, (23, 8), 32, 3);
    // The grammar numbers leaves like the format.
    let g = grammar_of::<f64>();
    let mut rng = seeded_rng(4);
    for _ in 0..200 {
        let i = rng.random_range(0..FloatFormat::f64().total());
        let x: f64 = downcast(g.build_root(&g.atomic_tree(g.root, i)), "f64");
        assert_eq!(x.to_bits(), FloatFormat::f64().bits_at(i));
        assert_eq!(
            g.leaf_size(g.root, i) as usize,
            FloatFormat::f64().rank(x.to_bits()).0
        );
    }
}

/// The typed `get` of every run agrees with the generic materialiser,
/// over all values up to `bound` and at the given global indices.
fn typed_agrees<T: Atom + Debug + PartialEq>(bound: usize, indices: &[u64]) -> u64 {
    let mut s = Searcher::<T>::new(bound);
    let got: Cell<Option<T>> = Cell::new(None);
    let mut runs = 0;
    while s
        .step(|x| {
            got.set(Some(x.get()));
            true
        })
        .is_some()
    {
        assert_eq!(got.take(), Some(s.value()));
        runs += 1;
    }
    let g = grammar_of::<T>();
    for &i in indices {
        let mut s = Searcher::<T>::new(bound);
        s.load(&g.atomic_tree(g.root, i));
        s.step(|x| got.set(Some(x.get())));
        let want: T = downcast(g.build_root(&g.atomic_tree(g.root, i)), "leaf");
        assert_eq!(got.take(), Some(want), "index {i}");
    }
    runs
}

#[test]
fn float_get_decodes_like_the_family() {
    let mut s = Searcher::<f64>::new(6);
    let got = Cell::new(0u64);
    let mut runs = 0u64;
    while s
        .step(|x| {
            got.set(x.get().to_bits());
            true
        })
        .is_some()
    {
        assert_eq!(got.get(), s.value().to_bits());
        runs += 1;
    }
    let f = FloatFormat::f64();
    assert_eq!(runs, (0..=6).map(|s| f.count(s)).sum::<u64>());
    let g = grammar_of::<f64>();
    for i in [0, 5, 1 << 40, f.total() - 2, f.total() - 1] {
        let mut s = Searcher::<f64>::new(64);
        s.load(&Tree::Leaf(g.root, i));
        s.step(|x| got.set(x.get().to_bits()));
        assert_eq!(got.get(), f.bits_at(i));
    }
    let mut s = Searcher::<f32>::new(5);
    let g32 = Cell::new(0u32);
    while s
        .step(|x| {
            g32.set(x.get().to_bits());
            true
        })
        .is_some()
    {
        assert_eq!(g32.get(), s.value().to_bits());
    }
}

#[test]
fn planted_float_bugs_are_found_minimal() {
    // NaN is not equal to itself: size 2, the first value of its size.
    let c = config().try_check(|x: f64| x == x).unwrap_err();
    assert!(c.value.is_nan());
    assert_eq!((c.size, &c.found), (2, &Found::Exhaustive));
    // `x + 1.0 > x` fails first on NaN; without NaN on infinity; for finite
    // values on MAX (size 3: absorbed by rounding), long before 2^53.
    let c = config().try_check(|x: f64| x + 1.0 > x).unwrap_err();
    assert!(c.value.is_nan());
    let c = config()
        .try_check(|x: f64| implies(!x.is_nan(), || x + 1.0 > x))
        .unwrap_err();
    assert_eq!((c.value, c.size), (f64::INFINITY, 2));
    let c = config()
        .try_check(|x: f64| implies(x.is_finite(), || x + 1.0 > x))
        .unwrap_err();
    assert_eq!((c.value, c.size), (f64::MAX, 3));
    assert!(c.is_minimal());
    // Only -0.0 has a sign bit without being below zero: size 1.
    let c = config()
        .try_check(|x: f64| x.is_sign_negative() == (x < 0.0))
        .unwrap_err();
    assert_eq!(c.value.to_bits(), (-0.0f64).to_bits());
    assert_eq!(c.size, 1);
    assert!(c.shown.contains("-0.0"), "{}", c.shown);
    let c = config()
        .try_check(|x: f32| x.is_sign_negative() == (x < 0.0))
        .unwrap_err();
    assert_eq!(c.value.to_bits(), (-0.0f32).to_bits());
    // A lazy search reads the float whole.
    assert!(search::sat(|x: Lazy<f64>| x.get().is_infinite(), 2));
    assert!(!search::sat(|x: Lazy<f64>| x.get().is_subnormal(), 2));
    assert!(search::sat(|x: Lazy<f64>| x.get().is_subnormal(), 3));
}

// --- 128-bit integers ---------------------------------------------------

#[test]
fn u128_and_i128_counts_values_and_reach() {
    use num_bigint::BigUint;
    let pow2 = |k: usize| BigUint::one() << k;
    assert_eq!(count_of::<u128>(0), BigUint::one());
    assert_eq!(count_of::<u128>(128), pow2(127));
    assert_eq!(count_of::<u128>(129), BigUint::zero());
    assert_eq!(count_of::<i128>(127), pow2(127));
    assert_eq!(count_of::<i128>(128), BigUint::one());
    assert_eq!(values_of::<u128>(3), vec![4, 5, 6, 7]);
    assert_eq!(values_of::<i128>(2), vec![2, 3, -2, -3]);
    for n in 0..=9 {
        assert_eq!(
            values_of::<i128>(n),
            values_of::<i16>(n)
                .into_iter()
                .map(i128::from)
                .collect::<Vec<_>>()
        );
    }
    // Value indexing reaches every size.
    assert_eq!(
        crate::index::index::<u128>(128, &(pow2(127) - 1u32)),
        u128::MAX
    );
    assert_eq!(
        crate::index::index::<i128>(128, &BigUint::zero()),
        i128::MIN
    );
    assert_eq!(
        crate::index::index::<i128>(127, &(pow2(127) - 1u32)),
        -i128::MAX
    );
    // The search's 64-bit leaf index: u128 up to u64::MAX, i128 up to
    // sizes 63 and the first value of size 64.
    let g = grammar_of::<u128>();
    let v: u128 = downcast(g.build_root(&Tree::Leaf(g.root, u64::MAX)), "u128");
    assert_eq!(v, u128::from(u64::MAX));
    let g = grammar_of::<i128>();
    let v: i128 = downcast(g.build_root(&Tree::Leaf(g.root, u64::MAX)), "i128");
    assert_eq!(v, 1 << 63);
    let v: i128 = downcast(g.build_root(&Tree::Leaf(g.root, u64::MAX - 1)), "i128");
    assert_eq!(v, -(i128::from(i64::MAX)));
    // Typed decoding agrees with the family.
    let ends = [0, 1, 2, 1 << 40, u64::MAX - 1, u64::MAX];
    assert_eq!(typed_agrees::<u128>(9, &ends), 512);
    assert_eq!(typed_agrees::<i128>(9, &ends), 1023);
    let c = config().try_check(|x: u128| x < 1000).unwrap_err();
    assert_eq!((c.value, c.size), (1000, 10));
}

// --- NonZero ------------------------------------------------------------

#[test]
fn nonzero_integers_are_the_integers_but_zero() {
    assert_eq!(count_of::<NonZeroU8>(0), BigUint::zero());
    for n in 1..=9 {
        assert_eq!(count_of::<NonZeroU8>(n), count_of::<u8>(n));
        assert_eq!(count_of::<NonZeroI64>(n), count_of::<i64>(n));
        assert_eq!(count_of::<NonZeroU128>(n), count_of::<u128>(n));
        let want: Vec<i16> = values_of::<i16>(n);
        let got: Vec<i16> = values_of::<NonZeroI16>(n)
            .into_iter()
            .map(|x| x.get())
            .collect();
        assert_eq!(got, want);
    }
    assert_eq!(count_of::<NonZeroI8>(8), BigUint::one());
    let ends = [0, 1, 2, 1 << 40, u64::MAX - 1];
    assert_eq!(typed_agrees::<NonZeroU8>(8, &[0, 254]), 255);
    assert_eq!(typed_agrees::<NonZeroI8>(8, &[0, 254]), 255);
    assert_eq!(typed_agrees::<NonZeroU16>(4, &[65534]), 15);
    assert_eq!(typed_agrees::<NonZeroI16>(4, &[65534]), 30);
    typed_agrees::<NonZeroU32>(4, &[u64::from(u32::MAX) - 1]);
    typed_agrees::<NonZeroI32>(4, &[u64::from(u32::MAX) - 1]);
    typed_agrees::<NonZeroU64>(4, &ends);
    typed_agrees::<NonZeroI64>(4, &ends);
    typed_agrees::<NonZeroUsize>(4, &[7]);
    typed_agrees::<NonZeroIsize>(4, &[7]);
    let ends = [0, 1, 1 << 40, u64::MAX - 1, u64::MAX];
    typed_agrees::<NonZeroU128>(4, &ends);
    typed_agrees::<NonZeroI128>(4, &ends);
    let g = grammar_of::<NonZeroI64>();
    let v: NonZeroI64 = downcast(g.build_root(&Tree::Leaf(g.root, u64::MAX - 1)), "nz");
    assert_eq!(v.get(), i64::MIN);
    let c = config()
        .try_check(|x: NonZeroU32| x.get() % 3 != 0)
        .unwrap_err();
    assert_eq!(c.value.get(), 3);
}

// --- Bounded naturals and Duration --------------------------------------

#[test]
fn nat_below_lists_each_number_once_by_bit_length() {
    for bound in [1u64, 2, 3, 10, 1000, 1024, 1025] {
        let space = nat_below(bound, |n| n);
        let family = below_family(bound, |n| n);
        let mut all = vec![];
        for size in 0..=12 {
            let values = values_in(&space, size);
            assert_eq!(BigUint::from(values.len()), family.count(size));
            assert!(values.iter().all(|&v| bit_len(v) as usize == size));
            all.extend(values);
        }
        assert_eq!(all, (0..bound).collect::<Vec<_>>(), "bound {bound}");
        assert!(family.count(family.last_size().unwrap()) > BigUint::zero());
    }
    let nanos = below_family(NANOS, |n| n);
    assert_eq!(nanos.last_size(), Some(30));
    assert_eq!(nanos.count(30), BigUint::from(NANOS - (1 << 29)));
}

#[test]
fn durations_are_seconds_and_nanoseconds() {
    let nanos = below_family(NANOS, |n| n);
    let mut seen = HashSet::new();
    for n in 0..=8 {
        let want: BigUint = (0..=n)
            .map(|a| count_of::<u64>(a) * nanos.count(n - a))
            .sum();
        let values = values_of::<Duration>(n);
        assert_eq!(BigUint::from(values.len()), want);
        assert_eq!(count_of::<Duration>(n), want);
        for d in values {
            let size = bit_len(d.as_secs()) + bit_len(u64::from(d.subsec_nanos()));
            assert_eq!(size as usize, n, "{d:?}");
            assert!(seen.insert(d), "{d:?} twice");
        }
    }
    assert_eq!(values_of::<Duration>(0), vec![Duration::ZERO]);
    assert_eq!(typed_agrees::<Duration>(5, &[]), 1 + 2 + 5 + 12 + 28 + 64);
    // A rounding bug: `as_millis` is 0 below a millisecond.
    let c = config()
        .try_check(|d: Duration| d.is_zero() || d.as_millis() > 0)
        .unwrap_err();
    assert_eq!((c.value, c.size), (Duration::from_nanos(1), 1));
    // Reading the seconds only leaves the nanoseconds unread.
    let c = config()
        .try_check(|d: Lazy<Duration>| d.view().0.get() < 3)
        .unwrap_err();
    assert_eq!(c.value, Duration::from_secs(3));
    assert_eq!(c.pattern, "Duration { secs: 3, nanos: _ }");
    let nanos_only = |d: Lazy<Duration>| d.view().1.get() != 5;
    assert!(!search::sat(|d: Lazy<Duration>| !nanos_only(d), 2));
    assert!(search::sat(|d: Lazy<Duration>| !nanos_only(d), 3));
}

// --- Unicode characters -------------------------------------------------

#[test]
fn chars_are_every_scalar_value_by_bit_length() {
    assert_eq!(count_of::<char>(7), BigUint::from(64u32));
    assert_eq!(count_of::<char>(8), BigUint::from(128u32));
    assert_eq!(count_of::<char>(16), BigUint::from(32768u32 - 2048));
    assert_eq!(count_of::<char>(21), BigUint::from(0x1_0000u32));
    assert_eq!(count_of::<char>(22), BigUint::zero());
    assert_eq!(values_of::<char>(8)[0], '\u{80}');
    let mut total = 0u64;
    let g = grammar_of::<char>();
    for size in 0..=21 {
        let values = values_of::<char>(size);
        for (i, &c) in values.iter().enumerate() {
            assert_eq!(bit_len(u64::from(c)) as usize, size, "{c:?}");
            assert_eq!(char_from_index(total + i as u64), c);
        }
        // Ascending within a size: no duplicates.
        assert!(values.windows(2).all(|w| w[0] < w[1]), "size {size}");
        total += values.len() as u64;
    }
    assert_eq!(total, 0x11_0000 - 2048);
    for i in [0, 127, 128, 0xD7FF, 0xD800, 0xDFFF, total - 1] {
        let c: char = downcast(g.build_root(&g.atomic_tree(g.root, i)), "char");
        assert_eq!(c, char_from_index(i));
    }
    assert_eq!(char_from_index(0xD7FF), '\u{D7FF}');
    assert_eq!(char_from_index(0xD800), '\u{E000}');
    assert_eq!(char_from_index(total - 1), char::MAX);
    assert_eq!(typed_agrees::<char>(9, &[0xD7FF, 0xD800, total - 1]), 512);
}

#[test]
fn non_ascii_bugs_are_found_with_the_first_non_ascii_char() {
    let c = config().try_check(|c: char| c.is_ascii()).unwrap_err();
    assert_eq!((c.value, c.size), ('\u{80}', 8));
    let c = config().try_check(|s: String| s.is_ascii()).unwrap_err();
    assert_eq!((c.value.as_str(), c.size), ("\u{80}", 10));
    assert_eq!(c.shown, "\"\\u{80}\"");
    // Slicing the first byte panics when the first character is multi-byte.
    let c = config()
        .try_check(|s: String| s.is_empty() || !s[..1].is_empty())
        .unwrap_err();
    assert!(c.panicked);
    assert_eq!(c.value, "\u{80}");
    assert!(c.is_minimal());
}

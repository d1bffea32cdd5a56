//! Lazy comparisons against whole reads: the same answers, and the search
//! refining only the bits a comparison read.

use crate::engine::classes;
use crate::handle::Lazy;
use crate::values::values_up_to;
use std::cmp::Ordering;

#[test]
fn comparisons_with_constants_answer_as_whole_reads_do() {
    for c in [-128i8, -100, -1, 0, 1, 5, 64, 127] {
        let mut seen = vec![];
        let mut searcher = crate::engine::Searcher::<i8>::new(8);
        while searcher
            .step(|x: Lazy<i8>| {
                let v = x.get();
                seen.push(v);
                assert_eq!(x.compare(c), v.cmp(&c));
                assert_eq!(x == c, v == c);
                assert_eq!(x < c, v < c);
                assert_eq!(x >= c, v >= c);
                assert_eq!(x.in_range(c..), v >= c);
                assert_eq!(x.in_range(..=c), v <= c);
                true
            })
            .is_some()
        {}
        assert_eq!(seen.len(), 256);
    }
}

#[test]
fn two_lazy_atoms_compare_as_their_values() {
    let mut runs = 0;
    let mut searcher = crate::engine::Searcher::<(i8, i8)>::new(16);
    while searcher
        .step(|p: Lazy<(i8, i8)>| {
            let (a, b) = p.view();
            let (x, y) = (a.get(), b.get());
            assert_eq!(a.compare_lazy(b), x.cmp(&y));
            assert_eq!(a == b, x == y);
            assert_eq!(a < b, x < y);
            runs += 1;
            true
        })
        .is_some()
    {}
    assert_eq!(runs, 256 * 256);
}

#[test]
fn a_comparison_reads_only_the_bits_it_needs() {
    // Size (9 classes: 0 ..= 8 bits) and the bits of 200's size until they
    // differ from 200's (1100_1000): a handful, not 256.
    let below = classes(|x: Lazy<u8>| x < 200, 8);
    assert!(below.runs <= 16, "{} runs", below.runs);
    let wide = classes(|x: Lazy<u64>| x == 1_000_000, 64);
    assert!(wide.runs <= 90, "{} runs", wide.runs);
    assert_eq!(wide.satisfying, 1);
    // Whole reads: one class per value.
    assert_eq!(classes(|x: Lazy<u8>| x.get() < 200, 8).runs, 256);
    // Two atoms compared: the equal pairs are one class each, the rest are
    // decided by their first differing bit.
    let pairs = classes(|p: Lazy<(u8, u8)>| p.view().0 <= p.view().1, 16);
    assert!(pairs.runs < 256 * 4, "{} runs", pairs.runs);
}

#[test]
fn characters_compare_by_code_point_across_the_surrogate_gap() {
    let low = classes(|c: Lazy<char>| c.in_range('a'..='z'), 21);
    assert!(low.runs < 100, "{} runs", low.runs);
    let mut searcher = crate::engine::Searcher::<char>::new(16);
    let mut n = 0;
    while searcher
        .step(|c: Lazy<char>| {
            let v = c.get();
            assert_eq!(c.compare('\u{E000}'), v.cmp(&'\u{E000}'));
            n += 1;
            true
        })
        .is_some()
    {}
    assert_eq!(n, values_up_to::<char>(16).len());
    assert_eq!(
        classes(
            |c: Lazy<char>| c.compare('\u{D7FF}') == Ordering::Greater,
            16
        )
        .satisfying,
        1,
        "above U+D7FF at 16 bits: the block from U+E000, read once"
    );
}

#[test]
fn strings_order_against_a_str_as_str_does() {
    for pivot in ["", "a", "ab", "b", "\u{E000}x"] {
        let mut searcher = crate::engine::Searcher::<String>::new(12);
        while searcher
            .step(|s: Lazy<String>| {
                let v: String = s.force();
                assert_eq!(
                    s.cmp_str(pivot),
                    v.as_str().cmp(pivot),
                    "{v:?} against {pivot:?}"
                );
                true
            })
            .is_some()
        {}
    }
}

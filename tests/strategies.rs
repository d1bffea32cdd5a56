//! Conjunction strategies against the reference numbers of
//! `shared/benchmarks/conformance.md` (and-or, ordered-nodup).

#[path = "../benches/benchmarks/mod.rs"]
#[allow(dead_code, unused_imports)]
mod benchmarks;

use benchmarks::conformance as c;
use neatcheck::cool::Strategy;
use neatcheck::search::classes_cool;

/// Columns: D, O, F, OS, OF, OSF; one row per bound 0..=22.
const AND_OR: [[u64; 6]; 23] = [
    [0, 0, 0, 0, 0, 0],
    [1, 1, 1, 1, 1, 1],
    [1, 1, 1, 1, 1, 1],
    [3, 3, 3, 3, 3, 3],
    [3, 3, 3, 3, 3, 3],
    [5, 7, 6, 5, 5, 5],
    [5, 7, 6, 5, 5, 5],
    [7, 11, 8, 7, 7, 7],
    [7, 11, 8, 7, 7, 7],
    [9, 15, 10, 9, 9, 9],
    [9, 15, 10, 9, 9, 9],
    [11, 19, 12, 11, 11, 11],
    [11, 19, 12, 11, 11, 11],
    [13, 23, 14, 13, 13, 13],
    [13, 23, 14, 13, 13, 13],
    [15, 27, 16, 15, 15, 15],
    [15, 27, 16, 15, 15, 15],
    [17, 31, 18, 17, 17, 17],
    [17, 31, 18, 17, 17, 17],
    [19, 35, 20, 19, 19, 19],
    [19, 35, 20, 19, 19, 19],
    [21, 39, 22, 21, 21, 21],
    [21, 39, 22, 21, 21, 21],
];
const AND_OR_HITS: [u64; 23] = [
    0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10,
];

const ORDERED_NODUP: [[u64; 6]; 23] = [
    [0, 0, 0, 0, 0, 0],
    [1, 1, 1, 1, 1, 1],
    [1, 1, 1, 1, 1, 1],
    [2, 2, 2, 2, 2, 2],
    [2, 2, 2, 2, 2, 2],
    [3, 3, 3, 3, 3, 3],
    [5, 5, 5, 5, 5, 5],
    [7, 6, 7, 6, 6, 6],
    [10, 9, 11, 9, 9, 9],
    [14, 11, 14, 11, 11, 11],
    [20, 16, 20, 16, 16, 16],
    [27, 20, 25, 20, 20, 20],
    [37, 27, 34, 27, 28, 27],
    [50, 34, 42, 34, 35, 34],
    [66, 46, 54, 45, 46, 45],
    [89, 62, 71, 58, 60, 58],
    [116, 79, 89, 74, 76, 74],
    [152, 103, 112, 93, 97, 93],
    [197, 137, 141, 118, 125, 118],
    [256, 187, 178, 148, 159, 148],
    [326, 251, 222, 184, 201, 184],
    [420, 358, 282, 229, 255, 228],
    [531, 469, 353, 282, 319, 280],
];
const ORDERED_NODUP_HITS: [u64; 23] = [
    0, 1, 1, 2, 2, 2, 3, 3, 4, 4, 6, 6, 8, 9, 11, 13, 16, 18, 22, 26, 30, 36, 42,
];

#[test]
fn and_or_matches_reference_for_every_strategy() {
    for (col, strategy) in Strategy::ALL.into_iter().enumerate() {
        for bound in 0..=22 {
            let r = classes_cool(c::and_or, bound, strategy);
            assert_eq!(
                (r.runs, r.satisfying),
                (AND_OR[bound][col], AND_OR_HITS[bound]),
                "and-or {strategy} bound {bound}"
            );
        }
    }
}

#[test]
fn ordered_nodup_matches_reference_for_every_strategy() {
    for (col, strategy) in Strategy::ALL.into_iter().enumerate() {
        for bound in 0..=22 {
            let r = classes_cool(c::ordered_nodup, bound, strategy);
            assert_eq!(
                (r.runs, r.satisfying),
                (ORDERED_NODUP[bound][col], ORDERED_NODUP_HITS[bound]),
                "ordered-nodup {strategy} bound {bound}"
            );
        }
    }
}

/// Imperative (imperative.md), bounds 0..=12, columns D, O, F, OS, OF, OSF.
const IMPERATIVE: [[u64; 6]; 13] = [
    [0, 0, 0, 0, 0, 0],
    [1, 1, 1, 1, 1, 1],
    [1, 1, 1, 1, 1, 1],
    [3, 3, 3, 3, 3, 3],
    [5, 6, 6, 5, 5, 5],
    [12, 12, 13, 10, 11, 10],
    [24, 19, 27, 17, 21, 19],
    [59, 37, 61, 35, 36, 35],
    [126, 59, 121, 59, 58, 61],
    [308, 114, 286, 121, 105, 116],
    [737, 217, 625, 240, 194, 239],
    [1776, 381, 1403, 458, 327, 458],
    [4424, 748, 3091, 965, 620, 961],
];
const IMPERATIVE_HITS: [u64; 13] = [0, 0, 0, 0, 0, 0, 1, 1, 1, 8, 8, 11, 51];

#[test]
fn imperative_matches_reference_for_every_strategy() {
    for (col, strategy) in Strategy::ALL.into_iter().enumerate() {
        for bound in 0..=12 {
            let r = classes_cool(benchmarks::imperative::prop, bound, strategy);
            assert_eq!(
                (r.runs, r.satisfying),
                (IMPERATIVE[bound][col], IMPERATIVE_HITS[bound]),
                "imperative {strategy} bound {bound}"
            );
        }
    }
}

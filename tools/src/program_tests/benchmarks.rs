//! The benchmark programs of `docs/benchmarks/` against the reference
//! implementation's numbers: per bound, the worst case (values of size up
//! to the bound), predicate runs and satisfying runs, as printed in the
//! specifications' all-mode tables, and the runs to the first
//! counterexample in ctrex mode; sequentially and on two threads.

use crate::benchmarks;

use benchmarks::{lambda, redblack, regexp};
use neatcheck::search::{self, BoundResult};
use neatcheck::{Config, Enumerable, Lazy};

/// `(bound, worst case, runs, satisfying runs)` from lambda.md.
const LAMBDA: &[(usize, u64, u64, u64)] = &[
    (0, 0, 0, 0),
    (1, 0, 0, 0),
    (2, 2, 2, 2),
    (3, 5, 4, 4),
    (4, 8, 6, 6),
    (5, 20, 13, 13),
    (6, 46, 18, 18),
    (7, 104, 33, 33),
    (8, 257, 66, 66),
    (9, 665, 121, 121),
    (10, 1679, 256, 256),
    (11, 4424, 539, 539),
    (12, 11697, 1075, 1075),
    (13, 31379, 2326, 2326),
    (14, 84061, 4760, 4760),
    (15, 229652, 10067, 10067),
    (16, 624137, 21133, 21133),
    (17, 1720430, 44540, 44538),
    (18, 4727980, 93606, 93602),
    (19, 13144186, 198142, 198128),
    (20, 36406731, 416219, 416193),
];

/// The same from redblack.md.
const REDBLACK: &[(usize, u64, u64, u64)] = &[
    (0, 0, 0, 0),
    (1, 0, 0, 0),
    (2, 1, 1, 1),
    (3, 2, 1, 1),
    (4, 3, 1, 1),
    (5, 4, 1, 1),
    (6, 7, 3, 3),
    (7, 12, 7, 7),
    (8, 19, 9, 9),
    (9, 28, 13, 13),
    (10, 47, 21, 21),
    (11, 84, 35, 35),
    (12, 147, 45, 45),
    (13, 244, 63, 63),
    (14, 423, 99, 99),
    (15, 772, 149, 149),
    (16, 1419, 197, 197),
    (17, 2532, 282, 282),
    (18, 4543, 451, 451),
    (19, 8372, 660, 660),
    (20, 15651, 889, 889),
    (21, 28948, 1261, 1261),
    (22, 53335, 2061, 2061),
    (23, 99300, 3008, 3008),
    (24, 187003, 4068, 4068),
    (25, 351876, 5720, 5720),
    (26, 660015, 9245, 9245),
    (27, 1241812, 13570, 13570),
    (28, 2352275, 18480, 18480),
    (29, 4466484, 25712, 25712),
    (30, 8473543, 40951, 40951),
    (31, 16087300, 59618, 59617),
    (32, 30647019, 82333, 82331),
    (33, 58536100, 114505, 114500),
    (34, 111867935, 179751, 179742),
];

/// The same from regexp.md.
const REGEXP: &[(usize, u64, u64, u64)] = &[
    (0, 0, 0, 0),
    (1, 0, 0, 0),
    (2, 0, 0, 0),
    (3, 0, 0, 0),
    (4, 0, 0, 0),
    (5, 1, 1, 1),
    (6, 7, 3, 3),
    (7, 33, 11, 11),
    (8, 140, 35, 35),
    (9, 567, 117, 117),
    (10, 2281, 376, 376),
    (11, 9242, 1210, 1210),
    (12, 37915, 3898, 3898),
    (13, 157674, 12712, 12712),
    (14, 664015, 42113, 42113),
    (15, 2827829, 141564, 141564),
];

fn check_rows<T: Enumerable + Send>(
    name: &str,
    rows: &[(usize, u64, u64, u64)],
    prop: impl Fn(Lazy<'_, T>) -> bool + Sync,
) {
    for &(bound, worst, runs, hits) in rows {
        assert_eq!(
            neatcheck::count::count_up_to::<T>(bound).to_string(),
            worst.to_string(),
            "{name}: worst case at bound {bound}"
        );
        let seq = search::classes(&prop, bound);
        assert_eq!(
            (seq.runs, seq.satisfying),
            (runs, hits),
            "{name}: bound {bound}"
        );
        let two = Config::default().max_size(bound).threads(2).classes(&prop);
        assert_eq!(two, seq, "{name}: bound {bound} on two threads");
    }
}

#[test]
fn lambda_matches_the_reference() {
    check_rows("lambda", LAMBDA, lambda::prop);
}

#[test]
fn redblack_matches_the_reference() {
    check_rows("redblack", REDBLACK, redblack::prop);
}

#[test]
fn regexp_matches_the_reference() {
    check_rows("regexp", REGEXP, regexp::prop);
}

/// The reference's ctrex-mode runs at the bound of the first counterexample.
#[test]
fn first_counterexamples_match_the_reference() {
    fn first<T: Enumerable + Send + std::fmt::Debug>(
        prop: impl Fn(Lazy<'_, T>) -> bool + Sync,
        bound: usize,
        runs: u64,
        shown: &str,
    ) {
        let config = Config::default().max_size(bound);
        for c in [config.ctrex(&prop), config.threads(2).ctrex(&prop)] {
            let BoundResult::Failed(c) = c else {
                panic!("a counterexample at bound {bound}")
            };
            assert_eq!((c.size, c.runs), (bound as u64, runs));
            assert_eq!(format!("{:?}", c.value), shown);
        }
        // And none below.
        assert!(matches!(
            Config::default().max_size(bound - 1).ctrex(&prop),
            BoundResult::Passed(_)
        ));
    }
    first(
        lambda::prop,
        17,
        10239,
        "Let([(TUnit, Z, Lit(VUnit))], Let([(TBool, Z, Lit(VBool(false)))], Var(Z)))",
    );
    first(
        redblack::prop,
        31,
        20477,
        "(S(Z), T(B, T(B, E, Z, E), Z, T(R, T(B, E, Z, T(R, E, Z, E)), S(S(Z)), T(B, E, S(S(Z)), E))))",
    );
}

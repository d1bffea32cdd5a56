//! Drawn spaces (`space::drawn`, and behind their features
//! `space::from_strategy` and `space::arbitrary`): seeds ordered like a
//! `u64`, each one opaque value, through every phase of a check.

use neatcheck::{space, values, Config};

/// Seeds in the order of `u64` by bit length, each made into its value.
#[test]
fn a_drawn_space_lists_the_values_of_its_seeds_by_size() {
    let tripled = space::drawn("tripled", |seed| seed.wrapping_mul(3));
    let mut listed = vec![];
    for size in 0..=4 {
        listed.extend(values::values_in(&tripled, size));
    }
    let seeds: Vec<u64> = (0..16).collect();
    assert_eq!(listed, seeds.iter().map(|s| s * 3).collect::<Vec<_>>());
}

fn fixture() -> neatcheck::Space<String> {
    space::drawn("a fixture", |seed| format!("user{}", seed % 1000))
}

/// The exhaustive phase tries the small seeds in order; the report names
/// the generator and says what minimal means for it; the replay key names
/// the seed.
#[test]
fn a_failure_names_the_generator_and_replays() {
    let config = Config::default().spaces(fixture);
    let failure = config
        .try_check(|name: String| name.len() < 6 || name.ends_with('0'))
        .expect_err("user11 fails");
    assert_eq!(failure.value, "user11");
    let report = failure.report();
    assert!(
        report.contains("minimal: every smaller input passed"),
        "{report}"
    );
    assert!(
        report.contains("drawn by seed: a fixture (the search tried, counted and shrank seeds"),
        "{report}"
    );
    let again = config
        .clone()
        .replay(&failure.key)
        .try_check(|name: String| name.len() < 6 || name.ends_with('0'))
        .expect_err("the key names seed 11");
    assert_eq!(again.value, "user11");
}

/// Seeds past the exhaustive sizes come from the random phase (uniform
/// seeds), and shrinking lowers the seed to the smallest failing one.
#[test]
fn the_random_phase_draws_fresh_seeds_and_shrinking_lowers_them() {
    let failure = Config::default()
        .spaces(|| space::drawn("the seed itself", |seed| seed))
        .try_check(|seed: u64| seed < 1 << 40)
        .expect_err("a uniform seed is past 2^40");
    assert_eq!(failure.value, 1 << 40);
    assert!(failure.summary.random > 0 || failure.summary.edge_cases > 0);
}

/// A passing check over a drawn space says nothing of it, and a check of
/// another space lists no generator.
#[test]
fn only_drawn_inputs_list_generators() {
    let summary = Config::default()
        .runs(2_000)
        .spaces(fixture)
        .try_check(|name: String| name.starts_with("user"))
        .expect("every fixture is a user");
    assert_eq!(summary.drawn, vec!["a fixture".to_string()]);
    let plain = Config::default()
        .runs(100)
        .try_check(|x: u8| x as u16 <= 255)
        .unwrap();
    assert!(plain.drawn.is_empty());
}

#[cfg(feature = "proptest")]
mod strategies {
    use neatcheck::{space, values, Config};
    use proptest::prelude::*;

    /// The same seed makes the same value, and values come from the
    /// strategy.
    #[test]
    fn a_strategy_argument_is_a_function_of_its_seed() {
        let s = space::from_strategy(prop::collection::vec(0u8..10, 2..5));
        let first: Vec<Vec<u8>> = (0..=6).flat_map(|n| values::values_in(&s, n)).collect();
        let again: Vec<Vec<u8>> = (0..=6).flat_map(|n| values::values_in(&s, n)).collect();
        assert_eq!(first, again);
        assert_eq!(first.len(), 64);
        assert!(first
            .iter()
            .all(|v| (2..5).contains(&v.len()) && v.iter().all(|&x| x < 10)));
        assert!(
            first.windows(2).any(|w| w[0] != w[1]),
            "different seeds, different values"
        );
    }

    /// A strategy argument beside an exhaustive one: the check finds the
    /// bug, and the report names the strategy.
    #[test]
    fn a_check_mixes_a_strategy_argument_with_an_enumerated_one() {
        let failure = Config::default()
            .spaces(|| (space::from_strategy(1u32..1000), space::of::<u8>()))
            .try_check(|n: u32, k: u8| n % 7 != 0 || k < 3)
            .expect_err("a multiple of 7 with k = 3");
        let (n, k) = failure.value;
        assert_eq!((n % 7, k), (0, 3));
        assert!(failure
            .report()
            .contains("drawn by seed: the proptest strategy"));
    }
}

#[cfg(feature = "arbitrary")]
mod arbitrary_types {
    use neatcheck::{space, values, Config};

    #[test]
    fn seed_zero_is_the_empty_input_and_sizes_grow_the_bytes() {
        let s = space::arbitrary::<Vec<u8>>();
        assert_eq!(values::values_in(&s, 0), vec![Vec::<u8>::new()]);
        let failure = Config::default()
            .spaces(space::arbitrary::<(u16, String)>)
            .try_check(|(n, text): (u16, String)| n < 60_000 || text.is_empty())
            .expect_err("a large number with some text");
        assert!(failure.value.0 >= 60_000 && !failure.value.1.is_empty());
    }
}

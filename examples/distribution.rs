//! What users say about their data, one part each: a weighted union, a
//! dependent space, a pattern string, a coverage requirement that fails
//! when unmet, a proptest strategy as an argument (with `--features
//! proptest`) and the fuzzer decoder.
//!
//! `cargo run --release --example distribution [--features proptest]`
//! prints one line per part and exits 0; every line is also checked, so a
//! change that breaks a part fails the example.

use neatcheck::{collect, cover, index, space, Config, Enumerable};
use std::fmt::Debug;

/// A bounded stack's commands, weighted: pushes six times as often as a
/// pop or a peek of the same size in the random phase.
#[derive(Enumerable, Debug, Clone)]
enum Command {
    #[enumerable(weight = 6)]
    Push(u8),
    Pop,
    Peek,
}

/// The same commands without weights.
#[derive(Enumerable, Debug, Clone)]
enum PlainCommand {
    Push(u8),
    Pop,
    Peek,
}

/// A stack's step: push a byte, pop, or peek.
enum Step {
    Push(u8),
    Pop,
    Peek,
}

/// Runs the steps on a stack; returns the deepest it got and whether every
/// peek saw the byte last pushed and not popped.
fn run(steps: impl Iterator<Item = Step>) -> (usize, bool) {
    let (mut stack, mut deepest, mut peeks_right) = (Vec::new(), 0, true);
    let mut pushed = Vec::new();
    for step in steps {
        match step {
            Step::Push(x) => {
                stack.push(x);
                pushed.push(x);
            }
            Step::Pop => {
                stack.pop();
                pushed.pop();
            }
            Step::Peek => peeks_right &= stack.last() == pushed.last(),
        }
        deepest = deepest.max(stack.len());
    }
    (deepest, peeks_right)
}

/// Checks that every peek of random command lists is right, and returns
/// the share (in percent) of the runs counted whose stack reached depth 6.
fn deep_share<C: Enumerable + Debug>(config: &Config, step: fn(&C) -> Step) -> f64 {
    let summary = config
        .try_check(move |commands: Vec<C>| {
            let (deepest, peeks_right) = run(commands.iter().map(step));
            collect(deepest >= 6);
            peeks_right
        })
        .expect("the property holds");
    let n = summary.labels.get("true").copied().unwrap_or(0);
    100.0 * n as f64 / summary.labelled_runs.max(1) as f64
}

/// 1. Weights shift what the random inputs are made of: more of the
///    command lists drawn reach a deep stack.
fn weighted_union() {
    let config = Config::default().seed(1).runs(300).samples(4_000, 60);
    let with = deep_share(&config, |c: &Command| match c {
        Command::Push(x) => Step::Push(*x),
        Command::Pop => Step::Pop,
        Command::Peek => Step::Peek,
    });
    let without = deep_share(&config, |c: &PlainCommand| match c {
        PlainCommand::Push(x) => Step::Push(*x),
        PlainCommand::Pop => Step::Pop,
        PlainCommand::Peek => Step::Peek,
    });
    println!(
        "weighted union: command lists reaching depth 6: {with:.0}% with Push \
         weighted 6 : 1 : 1, {without:.0}% without weights"
    );
    assert!(with > 2.0 * without, "{with} vs {without}");
}

/// 2. A dependent space: a length, then an index below it. Every pair is
///    in bounds, searched exhaustively.
fn dependent_space() {
    let pairs = || {
        space::bind(space::range(1, 20, |n| n as usize), |&n| {
            space::range(0, n as i64 - 1, |i| i as usize)
        })
    };
    let summary = Config::default()
        .spaces(pairs)
        .try_check(|(len, i): (usize, usize)| i < len)
        .expect("every index is below its length");
    println!(
        "dependent space: every (length, index) pair is in bounds, all {} of them searched",
        summary.worst_case
    );
    assert_eq!(summary.worst_case, "210");
}

/// An e-mail check that forgets the dots a local part may hold.
fn plausible_email(address: &str) -> bool {
    let Some((local, domain)) = address.split_once('@') else {
        return false;
    };
    !local.is_empty() && local.chars().all(|c| c.is_ascii_lowercase()) && domain.contains('.')
}

/// 3. A pattern string: addresses from a regular expression, searched by
///    size (the number of repetitions), smallest first.
fn pattern_string() {
    let addresses = || space::pattern("[a-z]{1,3}(\\.[a-z]{1,3})?@[a-z]{1,3}\\.(com|org)");
    let failure = Config::default()
        .spaces(addresses)
        .try_check(|address: String| plausible_email(&address))
        .expect_err("a dotted local part is rejected");
    println!(
        "pattern string: counterexample {:?} (minimal)",
        failure.value
    );
    assert_eq!(failure.value, "a.a@a.com");
}

/// 4. A coverage requirement: at least 20% of the lists tested must hold
///    three equal neighbours, which small lists of bytes rarely do, so the
///    check fails and says why.
fn coverage_requirement() {
    let summary = Config::default()
        .runs(20_000)
        .try_check(|xs: Vec<u8>| {
            cover(
                20.0,
                xs.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]),
                "three equal neighbours",
            );
            xs.iter().rev().rev().eq(xs.iter())
        })
        .expect("the property itself holds");
    let problem = summary.problems.first().expect("the requirement is unmet");
    println!("coverage requirement: {problem}");
    assert!(problem.contains("`three equal neighbours`"));
}

/// 5. A team's proptest strategy as an argument, beside an enumerated one:
///    the strategy's values are drawn by seed (the report says so).
#[cfg(feature = "proptest")]
fn strategy_argument() {
    let failure = Config::default()
        .spaces(|| (space::from_strategy("[1-9][0-9]{0,3}"), space::of::<u8>()))
        .try_check(|digits: String, extra: u8| {
            let n: u16 = digits.parse().expect("digits");
            n.checked_add(u16::from(extra))
                .is_some_and(|sum| sum < 10_000)
        })
        .expect_err("9999 + 1 is too much");
    println!(
        "proptest strategy argument: counterexample {:?} (drawn by seed: {})",
        failure.value,
        failure.summary.drawn.join(", ")
    );
    assert!(failure.report().contains("drawn by seed"));
}

#[cfg(not(feature = "proptest"))]
fn strategy_argument() {
    println!(
        "proptest strategy argument: not built (run with `--features proptest`: \
         `space::from_strategy` needs the crate's proptest feature)"
    );
}

/// 6. The fuzzer decoder: any bytes are a value of any `Enumerable` type
///    (FEAT indexing), so a cargo-fuzz or bolero target can use these spaces.
fn fuzzer_decoder() {
    let inputs: [&[u8]; 3] = [b"", b"\x07", b"neatcheck"];
    let decoded: Vec<Vec<Command>> = inputs
        .iter()
        .map(|bytes| index::decode::<Vec<Command>>(bytes, 40).expect("lists have values"))
        .collect();
    println!("fuzzer decoder: {inputs:?} decode to {decoded:?}");
    assert!(decoded[0].is_empty());
}

fn main() {
    weighted_union();
    dependent_space();
    pattern_string();
    coverage_requirement();
    strategy_argument();
    fuzzer_decoder();
}

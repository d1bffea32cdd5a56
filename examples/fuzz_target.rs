//! A fuzz target over neatcheck's spaces: a fuzzer hands the target bytes,
//! and `neatcheck::index::decode` turns them into a value of any
//! `Enumerable` type, so the same types (derived or with their own spaces)
//! drive `cargo test` checks and a coverage-guided fuzzer. With cargo-fuzz
//! the target body is the usual one line:
//!
//! ```text
//! fuzz_target!(|data: &[u8]| run(data));
//! ```
//!
//! This example needs no fuzzer: `cargo run --release --example
//! fuzz_target` feeds `run` every input of up to two bytes (as a fuzzer's
//! first minutes would) and prints how many distinct commands they decoded
//! to. It exits 0: the decoded inputs exercise the parser and its round
//! trip holds.

use neatcheck::index::decode;
use neatcheck::Enumerable;
use std::collections::BTreeSet;

/// A command of a small line protocol.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Command {
    Get(u8),
    Put(u8, u16),
    Batch(Vec<Command>),
}

fn encode(c: &Command) -> String {
    match c {
        Command::Get(k) => format!("get {k}"),
        Command::Put(k, v) => format!("put {k} {v}"),
        Command::Batch(cs) => {
            let parts: Vec<String> = cs.iter().map(encode).collect();
            format!("[{}]", parts.join(";"))
        }
    }
}

/// Parses what `encode` writes (the code under test).
fn parse(s: &str) -> Option<Command> {
    if let Some(inner) = s.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let mut parts = vec![];
        let (mut depth, mut start) = (0usize, 0usize);
        for (i, ch) in inner.char_indices() {
            match ch {
                '[' => depth += 1,
                ']' => depth = depth.checked_sub(1)?,
                ';' if depth == 0 => {
                    parts.push(parse(&inner[start..i])?);
                    start = i + 1;
                }
                _ => {}
            }
        }
        if !inner.is_empty() {
            parts.push(parse(&inner[start..])?);
        }
        return Some(Command::Batch(parts));
    }
    let words: Vec<&str> = s.split(' ').collect();
    match words.as_slice() {
        ["get", k] => Some(Command::Get(k.parse().ok()?)),
        ["put", k, v] => Some(Command::Put(k.parse().ok()?, v.parse().ok()?)),
        _ => None,
    }
}

/// The fuzz target: any bytes, one command of size at most 30, one round
/// trip.
fn run(data: &[u8]) -> Option<Command> {
    let command = decode::<Command>(data, 30)?;
    assert_eq!(parse(&encode(&command)), Some(command.clone()), "{data:?}");
    Some(command)
}

fn main() {
    let mut seen = BTreeSet::new();
    seen.extend(run(&[]));
    for a in 0..=255u8 {
        seen.extend(run(&[a]));
        for b in 0..=255u8 {
            seen.extend(run(&[a, b]));
        }
    }
    let nested = seen
        .iter()
        .filter(|c| matches!(c, Command::Batch(cs) if !cs.is_empty()))
        .count();
    println!(
        "{} inputs of up to two bytes decoded to {} distinct commands ({nested} non-empty \
         batches); every round trip held",
        1 + 256 + 256 * 256,
        seen.len()
    );
}

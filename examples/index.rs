//! Random access to a type's values (FEAT): the value at index `10^e` over
//! all sizes, smallest sizes first.
//!
//! `cargo run --release --example index -- <type> <e>` with `<type>` one of
//! `tree` (unlabelled binary trees), `list-bool` (`Vec<bool>`), `nat`
//! (`u64`) and `string`. Prints `size <n>` of the value, `length <n>` for
//! lists and strings and `value <n>` for naturals; the time taken goes to
//! standard error.

use neatcheck::index::Indexer;
use neatcheck::Enumerable;
use num_bigint::BigUint;
use std::process::exit;
use std::time::Instant;

/// A binary tree with no labels (sizes `2n + 1` count `Catalan(n)`).
#[derive(Enumerable, Debug, Clone)]
#[allow(dead_code)]
enum Tree {
    Leaf,
    Node(Box<Tree>, Box<Tree>),
}

const USAGE: &str =
    "usage: index <tree|list-bool|nat|string> <e>   (prints the value at index 10^e)";

fn usage_error(message: &str) -> ! {
    eprintln!("index: {message}");
    eprintln!("{USAGE}");
    exit(2)
}

/// The value at `i` over all sizes, or a clear message (exit 1) when `i` is
/// beyond the last value of a finite type.
fn at<T: Enumerable>(i: &BigUint, e: u32) -> (T, usize) {
    let ix = Indexer::<T>::new();
    match (ix.try_size_of_index(i), ix.try_value_at(i)) {
        (Some(size), Some(v)) => (v, size),
        _ => {
            let total = ix.total().unwrap_or_default();
            eprintln!(
                "index: 10^{e} is beyond the last value of `{}`: it has {total} values in all",
                std::any::type_name::<T>()
            );
            exit(1)
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != 2 {
        usage_error("expected two arguments");
    }
    let e: u32 = match args[1].parse() {
        Ok(e) => e,
        Err(_) => usage_error(&format!(
            "<e> must be a natural number (the index is 10^e), got {:?}",
            args[1]
        )),
    };
    let i = BigUint::from(10u32).pow(e);
    let start = Instant::now();
    match args[0].as_str() {
        "tree" => {
            let (_, size) = at::<Tree>(&i, e);
            println!("size {size}");
        }
        "list-bool" => {
            let (v, size) = at::<Vec<bool>>(&i, e);
            println!("size {size}");
            println!("length {}", v.len());
        }
        "nat" => {
            let (v, size) = at::<u64>(&i, e);
            println!("size {size}");
            println!("value {v}");
        }
        "string" => {
            let (v, size) = at::<String>(&i, e);
            println!("size {size}");
            println!("length {}", v.chars().count());
        }
        other => usage_error(&format!(
            "unknown type {other:?} (expected tree, list-bool, nat or string)"
        )),
    }
    eprintln!("time {:.3?}", start.elapsed());
}

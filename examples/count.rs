//! Prints the number of values of each exact size of a type:
//! `cargo run --release --example count -- <type> <max_size>`
//! with `<type>` one of `list-bool`, `tree`, `nat`, `string` (Unicode
//! characters) and `string-ascii` (the original NEAT's `String`: 7-bit
//! characters, whose counts the reference implementation prints).

use neatcheck::count::count_of;
use neatcheck::Enumerable;

/// A binary tree with no labels (sizes `2n + 1` count `Catalan(n)`).
#[derive(Enumerable, Debug, Clone)]
#[allow(dead_code)]
enum Tree {
    Leaf,
    Node(Box<Tree>, Box<Tree>),
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: count <list-bool|tree|nat|string|string-ascii> <max_size>");
        std::process::exit(2);
    }
    let max: usize = match args[2].parse() {
        Ok(n) => n,
        Err(_) => {
            eprintln!(
                "count: <max_size> must be a natural number, got {:?}",
                args[2]
            );
            std::process::exit(2);
        }
    };
    let count: fn(usize) -> num_bigint::BigUint = match args[1].as_str() {
        "list-bool" => count_of::<Vec<bool>>,
        "tree" => count_of::<Tree>,
        "nat" => count_of::<u64>,
        "string" => count_of::<String>,
        "string-ascii" => count_of::<Vec<neatcheck::space::AsciiChar>>,
        other => {
            eprintln!("count: unknown type {other:?} (list-bool, tree, nat, string, string-ascii)");
            std::process::exit(2);
        }
    };
    let mut out = String::new();
    for size in 0..=max {
        out.push_str(&format!("{size}\t{}\n", count(size)));
    }
    print!("{out}");
}

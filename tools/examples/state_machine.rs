//! Stateful testing on realistic systems with planted bugs
//! (`neatcheck::state`, systems in `neatcheck_tools::machines`):
//!
//! ```text
//! cargo run --release --example state_machine              # a queue, a store, an allocator
//! cargo run --release --example state_machine -- --parallel  # a counter with a race
//! ```
//!
//! For each system it prints `bug <name> steps <k> sequence <...>` with the
//! shortest failing command sequence of the planted bug, then checks the
//! fixed system and prints `fixed <name> passes: <coverage>`. It exits with
//! status 1 if a planted bug is missed or a fixed system fails.

use neatcheck::check::Config;
use neatcheck::state::{machine, parallel_machine, StateMachine};
use neatcheck_tools::machines::*;
use std::fmt::Debug;

/// Checks the machine with its bug planted (`bugged`) and fixed (`fixed`);
/// false if the bug was missed or the fixed one failed.
fn sequential<M: StateMachine>(name: &str, bugged: &M, fixed: &M) -> bool {
    let config = Config::default().regressions(false);
    let found = match config.try_check(machine(bugged)) {
        Err(c) => {
            println!("bug {name} steps {} sequence {:?}", c.value.len(), c.value);
            true
        }
        Ok(s) => {
            println!("bug {name} MISSED: {s}");
            false
        }
    };
    found & passes(name, config.try_check(machine(fixed)))
}

/// Prints a fixed system's verdict; false if it failed.
fn passes<C: Debug>(
    name: &str,
    result: Result<neatcheck::check::Summary, Box<neatcheck::check::Counterexample<C>>>,
) -> bool {
    match result {
        Ok(s) if s.problems.is_empty() => {
            println!("fixed {name} passes: {s}");
            true
        }
        Ok(s) => {
            println!("fixed {name} is not tested well: {:?}", s.problems);
            false
        }
        Err(c) => {
            println!("fixed {name} FAILED on {:?}", c.value);
            false
        }
    }
}

fn main() {
    let parallel = std::env::args().any(|a| a == "--parallel");
    let ok = if parallel {
        let config = Config::default()
            .regressions(false)
            .runs(200)
            .samples(20, 20);
        let found = match config.try_check(parallel_machine(&CounterMachine { bug: true })) {
            Err(c) => {
                let (prefix, left, right) = &c.value;
                println!(
                    "bug counter race steps {} sequence prefix {prefix:?} then {left:?} || \
                     {right:?}",
                    prefix.len() + left.len() + right.len()
                );
                true
            }
            Ok(s) => {
                println!("bug counter race MISSED: {s}");
                false
            }
        };
        found
            & passes(
                "counter",
                config.try_check(parallel_machine(&CounterMachine { bug: false })),
            )
    } else {
        [
            sequential(
                "bounded queue",
                &QueueMachine { bug: true },
                &QueueMachine { bug: false },
            ),
            sequential(
                "key-value store",
                &StoreMachine { bug: true },
                &StoreMachine { bug: false },
            ),
            sequential(
                "block allocator",
                &AllocMachine { bug: true },
                &AllocMachine { bug: false },
            ),
        ]
        .iter()
        .all(|&ok| ok)
    };
    if !ok {
        std::process::exit(1);
    }
}

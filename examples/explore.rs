//! Finds the inputs that make an API panic, with no property:
//! `cargo run --release --example explore` prints one line per panic site,
//! `site <file>:<line> kind <kind> runs <n> smallest <input>`, then checks
//! that every planted site was found with its smallest input.
//!
//! Overflow of `+`, `-` and `*` panics only where overflow checks are on
//! (debug builds), so the planted overflow is `i8::MIN / -1`, which panics
//! in every profile: the example finds the same sites in release and debug.

use neatcheck::explore::PanicKind;

/// Small functions with one planted panic each.
mod planted {
    /// Overflow: `-128 / -1` does not fit an `i8`.
    pub(crate) fn ratio(a: i8, b: i8) -> i8 {
        if b == 0 {
            return 0;
        }
        a / b
    }

    /// Index out of bounds.
    pub(crate) fn pick(xs: Vec<u8>, i: u8) -> u8 {
        xs[usize::from(i)]
    }

    /// `unwrap` on `None` when no element is even.
    pub(crate) fn first_even(xs: Vec<u8>) -> u8 {
        *xs.iter().find(|x| *x % 2 == 0).unwrap()
    }

    /// An explicit `panic!` past the documented range.
    pub(crate) fn grade(score: u8) -> char {
        match score {
            0..=59 => 'F',
            60..=100 => 'P',
            _ => panic!("score {score} out of range"),
        }
    }
}

/// A fixed-capacity ring buffer that overwrites its oldest element when
/// full, with two real-world bugs: a capacity of zero, and `pop_back`
/// forgetting to wrap around.
mod ring {
    #[derive(Debug)]
    pub(crate) struct Ring {
        buf: Vec<u8>,
        head: usize,
        len: usize,
    }

    /// The operations of the API, one variant per method.
    #[derive(neatcheck::Enumerable, Debug, Clone)]
    pub(crate) enum Op {
        Push(u8),
        Pop,
        PopBack,
    }

    impl Ring {
        pub(crate) fn new(capacity: u8) -> Ring {
            Ring {
                buf: vec![0; usize::from(capacity)],
                head: 0,
                len: 0,
            }
        }

        pub(crate) fn push(&mut self, x: u8) {
            let capacity = self.buf.len();
            let tail = (self.head + self.len) % capacity;
            self.buf[tail] = x;
            if self.len == capacity {
                self.head = (self.head + 1) % capacity;
            } else {
                self.len += 1;
            }
        }

        pub(crate) fn pop(&mut self) -> Option<u8> {
            if self.len == 0 {
                return None;
            }
            let x = self.buf[self.head];
            self.head = (self.head + 1) % self.buf.len();
            self.len -= 1;
            Some(x)
        }

        pub(crate) fn pop_back(&mut self) -> Option<u8> {
            if self.len == 0 {
                return None;
            }
            self.len -= 1;
            Some(self.buf[self.head + self.len])
        }

        /// Applies one operation (the step of the exploration).
        pub(crate) fn apply(&mut self, op: Op) {
            match op {
                Op::Push(x) => self.push(x),
                Op::Pop => {
                    let _ = self.pop();
                }
                Op::PopBack => {
                    let _ = self.pop_back();
                }
            }
        }
    }
}

fn main() {
    let report = neatcheck::explore!(
        planted::ratio,
        planted::pick,
        planted::first_even,
        planted::grade
    )
    .sequence(
        "ring::Ring::new",
        ring::Ring::new,
        "ring::Ring::apply",
        ring::Ring::apply,
    )
    .max_size(12)
    .run();
    for site in &report.sites {
        println!("{site}");
    }
    if !report.problems.is_empty() || !report.overruns.is_empty() {
        eprint!("{}", report.details());
        std::process::exit(1);
    }
    // Every planted site, with the smallest input that reaches it.
    let expected = [
        (PanicKind::Overflow, "planted::ratio(-128, -1)"),
        (PanicKind::Index, "planted::pick([], 0)"),
        (PanicKind::UnwrapNone, "planted::first_even([])"),
        (PanicKind::Explicit, "planted::grade(101)"),
        (
            PanicKind::DivisionByZero,
            "ring::Ring::new(0) then [Push(0)]",
        ),
        (
            PanicKind::Index,
            "ring::Ring::new(2) then [Push(0), Push(0), Push(0), PopBack]",
        ),
    ];
    let mut missing = 0;
    for (kind, input) in expected {
        let found = report
            .sites
            .iter()
            .any(|s| s.kind == kind && s.smallest.input == input && s.smallest.minimal);
        if !found {
            eprintln!("explore: the planted {kind} site of {input} was not found");
            missing += 1;
        }
    }
    if missing > 0 || report.sites.len() != expected.len() {
        eprint!("{}", report.details());
        std::process::exit(1);
    }
}

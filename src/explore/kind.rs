//! What a panic was, read from its message and location: the kind of
//! implicit test that failed (overflow, index, unwrap, assertion...) and the
//! place (`file:line:column`) the panic hook reported. Together they are the
//! key failures are grouped by.

use std::fmt;

/// The kind of failure a panic message names. Standard library panics have
/// fixed messages (`attempt to add with overflow`, `called
/// \`Option::unwrap()\` on a \`None\` value`...), which is what is read here;
/// anything else is [`PanicKind::Explicit`].
///
/// `Option::expect(msg)` panics with `msg` alone, so it can not be told from
/// `panic!(msg)` and is reported as [`PanicKind::Explicit`]; so is
/// `Result::expect`, whose message is the caller's text and the error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum PanicKind {
    /// Arithmetic overflow: `attempt to add with overflow` and the like,
    /// including `i32::MIN / -1`, which panics in every build profile
    /// (`+`, `-`, `*`, negation and shifts only with overflow checks on).
    Overflow,
    /// Division or remainder by zero.
    DivisionByZero,
    /// An index out of bounds (slices, `Vec`, `VecDeque`, `remove`,
    /// `insert`, `split_off`...).
    Index,
    /// A range of a slice or string out of bounds or reversed, or a string
    /// cut inside a character.
    Slice,
    /// `Option::unwrap` on `None`.
    UnwrapNone,
    /// `Result::unwrap` on `Err` (or `unwrap_err` on `Ok`).
    UnwrapErr,
    /// `assert!`, `assert_eq!`, `assert_ne!` and their `debug_` forms.
    Assert,
    /// `unreachable!`.
    Unreachable,
    /// `todo!`.
    Todo,
    /// `unimplemented!`.
    Unimplemented,
    /// A `RefCell` borrowed twice.
    Borrow,
    /// A collection asked for more capacity than can exist.
    Capacity,
    /// `panic!`, `expect`, or any message not recognised above.
    Explicit,
    /// The call overflowed its thread's stack (unbounded recursion): the
    /// process would have died; the exploration reports it and goes on.
    StackOverflow,
    /// The call killed the process otherwise: `abort()`, an allocation that
    /// failed, a memory fault or another fatal signal.
    Crash,
}

impl PanicKind {
    /// The kind of the panic whose message is `message`.
    pub fn classify(message: &str) -> PanicKind {
        let m = message;
        if let Some(cause) = m.strip_prefix(crate::crash::CRASH_PREFIX) {
            if cause.starts_with(crate::crash::STACK_OVERFLOW) {
                PanicKind::StackOverflow
            } else {
                PanicKind::Crash
            }
        } else if m.starts_with("attempt to ") && m.contains("with overflow") {
            PanicKind::Overflow
        } else if m == "attempt to divide by zero"
            || m == "attempt to calculate the remainder with a divisor of zero"
        {
            PanicKind::DivisionByZero
        } else if m.starts_with("called `Option::unwrap()` on a `None` value") {
            PanicKind::UnwrapNone
        } else if m.starts_with("called `Result::unwrap()` on an `Err` value")
            || m.starts_with("called `Result::unwrap_err()` on an `Ok` value")
        {
            PanicKind::UnwrapErr
        } else if m.starts_with("index out of bounds")
            || (m.contains("index (is ") && m.contains("should be"))
            || m.starts_with("swap_remove index")
        {
            PanicKind::Index
        } else if m.starts_with("range end index")
            || m.starts_with("range start index")
            || m.starts_with("slice index starts at")
            || (m.contains("byte index ")
                && (m.contains("char boundary") || m.contains("out of bounds")))
            || m.starts_with("begin <= end")
        {
            PanicKind::Slice
        } else if m.starts_with("assertion failed") || m.starts_with("assertion `left ") {
            PanicKind::Assert
        } else if m.starts_with("internal error: entered unreachable code") {
            PanicKind::Unreachable
        } else if m.starts_with("not yet implemented") {
            PanicKind::Todo
        } else if m.starts_with("not implemented") {
            PanicKind::Unimplemented
        } else if m.contains("already borrowed") || m.contains("already mutably borrowed") {
            PanicKind::Borrow
        } else if m == "capacity overflow" {
            PanicKind::Capacity
        } else {
            PanicKind::Explicit
        }
    }

    /// The kind's name in reports (`overflow`, `index`, `unwrap-none`...).
    pub fn name(self) -> &'static str {
        match self {
            PanicKind::Overflow => "overflow",
            PanicKind::DivisionByZero => "division-by-zero",
            PanicKind::Index => "index",
            PanicKind::Slice => "slice",
            PanicKind::UnwrapNone => "unwrap-none",
            PanicKind::UnwrapErr => "unwrap-err",
            PanicKind::Assert => "assert",
            PanicKind::Unreachable => "unreachable",
            PanicKind::Todo => "todo",
            PanicKind::Unimplemented => "unimplemented",
            PanicKind::Borrow => "borrow",
            PanicKind::Capacity => "capacity",
            PanicKind::Explicit => "explicit",
            PanicKind::StackOverflow => "stack-overflow",
            PanicKind::Crash => "crash",
        }
    }
}

impl fmt::Display for PanicKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a panic happened, as the panic hook reports it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location {
    /// The source file, as the compiler names it (relative to the package
    /// root for the package's own files).
    pub file: String,
    /// The line, from 1.
    pub line: u32,
    /// The column, from 1.
    pub column: u32,
}

impl Location {
    /// Reads `file:line:column`; `None` when it is not of that form.
    pub(crate) fn parse(s: &str) -> Option<Location> {
        let mut parts = s.rsplitn(3, ':');
        let column = parts.next()?.parse().ok()?;
        let line = parts.next()?.parse().ok()?;
        let file = parts.next()?.to_string();
        Some(Location { file, line, column })
    }

    /// A stand-in for a panic whose location the hook did not see.
    pub(crate) fn unknown() -> Location {
        Location {
            file: "<unknown>".to_string(),
            line: 0,
            column: 0,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::panic::catch_unwind;

    /// The message of the panic of `f`, as the standard library words it in
    /// this toolchain.
    fn message_of<R>(f: impl FnOnce() -> R + std::panic::UnwindSafe) -> String {
        let _quiet = crate::internal::quiet::Quiet::new();
        let Err(p) = catch_unwind(f) else {
            panic!("it does not panic")
        };
        crate::engine::panic_message(&*p)
    }

    #[test]
    fn standard_messages_are_classified_by_kind() {
        let zero = std::hint::black_box(0i32);
        let minus_one = std::hint::black_box(-1i32);
        let v: Vec<u8> = std::hint::black_box(vec![1, 2]);
        let s = std::hint::black_box("\u{e9}");
        let none: Option<u8> = std::hint::black_box(None);
        let err: Result<u8, u8> = std::hint::black_box(Err(3));
        let cases: Vec<(String, PanicKind)> = vec![
            (
                message_of(|| std::hint::black_box(i32::MIN / minus_one)),
                PanicKind::Overflow,
            ),
            (
                message_of(|| std::hint::black_box(i32::MIN % minus_one)),
                PanicKind::Overflow,
            ),
            (
                message_of(|| std::hint::black_box(1 / zero)),
                PanicKind::DivisionByZero,
            ),
            (
                message_of(|| std::hint::black_box(1 % zero)),
                PanicKind::DivisionByZero,
            ),
            (
                message_of(|| std::hint::black_box(v[v.len() + 1])),
                PanicKind::Index,
            ),
            (
                message_of(|| std::hint::black_box(v.clone()).remove(5)),
                PanicKind::Index,
            ),
            (
                message_of(|| std::hint::black_box(&v[1..9])),
                PanicKind::Slice,
            ),
            (
                message_of(|| std::hint::black_box(&v[2..std::hint::black_box(1)])),
                PanicKind::Slice,
            ),
            (
                message_of(|| std::hint::black_box(&s[0..1])),
                PanicKind::Slice,
            ),
            (
                message_of(|| std::hint::black_box(none.unwrap())),
                PanicKind::UnwrapNone,
            ),
            (
                message_of(|| std::hint::black_box(err.unwrap())),
                PanicKind::UnwrapErr,
            ),
            (message_of(|| assert!(zero == 1)), PanicKind::Assert),
            (message_of(|| assert_eq!(zero, 1)), PanicKind::Assert),
            (message_of(|| unreachable!()), PanicKind::Unreachable),
            (message_of(|| todo!()), PanicKind::Todo),
            (message_of(|| unimplemented!()), PanicKind::Unimplemented),
            (
                message_of(|| {
                    let c = std::cell::RefCell::new(0);
                    let _a = c.borrow_mut();
                    let _b = c.borrow_mut();
                }),
                PanicKind::Borrow,
            ),
            (
                message_of(|| drop(Vec::<u64>::with_capacity(usize::MAX))),
                PanicKind::Capacity,
            ),
            (message_of(|| panic!("boom")), PanicKind::Explicit),
            (
                message_of(|| std::hint::black_box(none.expect("needed"))),
                PanicKind::Explicit,
            ),
        ];
        for (message, kind) in cases {
            assert_eq!(PanicKind::classify(&message), kind, "{message}");
        }
    }

    #[test]
    fn locations_parse_from_the_hook_text() {
        let l = Location::parse("src/a:b.rs:12:5").unwrap();
        assert_eq!((l.file.as_str(), l.line, l.column), ("src/a:b.rs", 12, 5));
        assert_eq!(l.to_string(), "src/a:b.rs:12:5");
        assert!(Location::parse("nowhere").is_none());
    }
}

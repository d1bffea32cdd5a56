//! Values as Rust expressions: the [`RustExpr`] trait (with the standard
//! types' implementations), the expression tree [`Expr`] it builds, and the
//! layout that prints an expression as `rustfmt` (default settings,
//! edition 2021) would print it, so generated suites are `rustfmt`-clean as
//! written.
//!
//! The layout follows the rules of `rustfmt`'s default style that the
//! expressions built here meet: 100 columns, 4-space indents, call arguments
//! and array elements on one line only within 60 columns (`fn_call_width`,
//! `array_width`), struct literals within 18 (`struct_lit_width`), a call
//! with one argument that is itself a call or a list overflowing into it,
//! short literal elements packed several to a line, and a `let` whose
//! right-hand side moves to the next line when that saves it breaking.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// The line width of `rustfmt`'s default style.
const WIDTH: usize = 100;
/// The widest one-line argument list of a call (`fn_call_width`).
const CALL_WIDTH: usize = 60;
/// The widest one-line element list of an array or `vec!` (`array_width`).
const ARRAY_WIDTH: usize = 60;
/// The widest one-line field list of a struct literal (`struct_lit_width`).
const STRUCT_WIDTH: usize = 18;
/// The widest element that may share a line with others in a broken array
/// (`short_array_element_width_threshold`).
const SHORT_ELEMENT: usize = 10;
const INDENT: usize = 4;

/// A Rust expression that rebuilds a value: a literal, a call (tuple
/// structs and variants, `Box::new`, `Some`), a tuple, an array or `vec!`,
/// or a struct literal. Built by [`RustExpr`] implementations and printed
/// by the suite export.
///
/// ```
/// use neatcheck::suite::{Expr, RustExpr};
///
/// let e = Expr::call("Point", [1u8.rust_expr(), Expr::atom("x")]);
/// assert_eq!(e.to_string(), "Point(1u8, x)");
/// assert_eq!(vec![Some(true)].rust_expr().to_string(), "vec![Some(true)]");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr(Node);

#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    /// Printed as is, never broken (a literal, a path, `None`).
    Atom(String),
    /// `head(args)`.
    Call { head: String, args: Vec<Expr> },
    /// `(items)`, with a trailing comma when there is one item.
    Tuple(Vec<Expr>),
    /// `head[items]`: `vec!` or an array (empty head).
    List { head: String, items: Vec<Expr> },
    /// `path { name: value, .. }`.
    Struct {
        path: String,
        fields: Vec<(String, Expr)>,
    },
}

impl Expr {
    /// An expression printed as given (a literal or a path); never broken
    /// across lines.
    pub fn atom(text: impl Into<String>) -> Expr {
        Expr(Node::Atom(text.into()))
    }

    /// A call, `head(args)`: a tuple struct or variant (`Exp::Num(3)`) or
    /// a function (`Box::new(..)`).
    pub fn call(head: impl Into<String>, args: impl IntoIterator<Item = Expr>) -> Expr {
        Expr(Node::Call {
            head: head.into(),
            args: args.into_iter().collect(),
        })
    }

    /// A tuple (`()` when empty, `(a,)` with one item).
    pub fn tuple(items: impl IntoIterator<Item = Expr>) -> Expr {
        Expr(Node::Tuple(items.into_iter().collect()))
    }

    /// `vec![items]`.
    pub fn vec(items: impl IntoIterator<Item = Expr>) -> Expr {
        Expr::list("vec!", items)
    }

    /// An array literal, `[items]`.
    pub fn array(items: impl IntoIterator<Item = Expr>) -> Expr {
        Expr::list("", items)
    }

    /// A bracketed list after a head (`vec!`, or nothing for an array).
    fn list(head: &str, items: impl IntoIterator<Item = Expr>) -> Expr {
        Expr(Node::List {
            head: head.to_string(),
            items: items.into_iter().collect(),
        })
    }

    /// A struct literal with named fields, `Point { x: 1, y: 2 }` (a unit
    /// struct or variant is an [`Expr::atom`]).
    pub fn structure<N: Into<String>>(
        path: impl Into<String>,
        fields: impl IntoIterator<Item = (N, Expr)>,
    ) -> Expr {
        Expr(Node::Struct {
            path: path.into(),
            fields: fields.into_iter().map(|(n, e)| (n.into(), e)).collect(),
        })
    }

    /// The expression of a value.
    pub fn of<T: RustExpr + ?Sized>(value: &T) -> Expr {
        value.rust_expr()
    }

    /// The expression laid out as `rustfmt` would after `prefix` (for
    /// instance `let input = `) at `indent` columns, followed by `suffix`
    /// (for instance `;`): the lines, the first one with the indent and
    /// the prefix, each without a newline.
    pub(crate) fn let_lines(&self, indent: usize, prefix: &str, suffix: &str) -> Vec<String> {
        let pad = " ".repeat(indent);
        let start = indent + prefix.len();
        let same = self.lines(indent, start, suffix.len());
        let mut out = if same.len() > 1 && !prefix.is_empty() {
            // rustfmt's `choose_rhs`: the right-hand side moves to its own
            // line when that keeps it on one line, or saves more than one
            // line, or avoids breaking right after the opening parenthesis.
            let next = self.lines(indent + INDENT, indent + INDENT, suffix.len());
            let single_next = next.len() == 1 && fits(indent + INDENT, &next[0], suffix.len());
            let opens = |l: &[String]| l[0].ends_with('(');
            let opens_bracket = |l: &[String]| l[0].ends_with('[') || l[0].ends_with('{');
            let prefer_next = single_next
                || same.len() > next.len() + 1
                || (opens(&same) && !opens(&next) && !opens_bracket(&next));
            if prefer_next {
                let mut lines = vec![format!("{pad}{}", prefix.trim_end())];
                let inner = " ".repeat(indent + INDENT);
                lines.push(format!("{inner}{}", next[0]));
                lines.extend(next.into_iter().skip(1));
                lines
            } else {
                with_first(same, &format!("{pad}{prefix}"))
            }
        } else {
            with_first(same, &format!("{pad}{prefix}"))
        };
        if let Some(last) = out.last_mut() {
            last.push_str(suffix);
        }
        out
    }

    /// The one-line text.
    fn flat(&self, out: &mut String) {
        match &self.0 {
            Node::Atom(t) => out.push_str(t),
            Node::Call { head, args } => {
                out.push_str(head);
                out.push('(');
                join_flat(args, out);
                out.push(')');
            }
            Node::Tuple(items) => {
                out.push('(');
                join_flat(items, out);
                if items.len() == 1 {
                    out.push(',');
                }
                out.push(')');
            }
            Node::List { head, items } => {
                out.push_str(head);
                out.push('[');
                join_flat(items, out);
                out.push(']');
            }
            Node::Struct { path, fields } => {
                out.push_str(path);
                if fields.is_empty() {
                    out.push_str(" {}");
                    return;
                }
                out.push_str(" { ");
                for (i, (name, e)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(name);
                    out.push_str(": ");
                    e.flat(out);
                }
                out.push_str(" }");
            }
        }
    }

    fn flat_text(&self) -> String {
        let mut s = String::new();
        self.flat(&mut s);
        s
    }

    /// Whether every part of the expression may stay on one line under
    /// the width heuristics (whatever the line's length).
    fn one_line_allowed(&self) -> bool {
        match &self.0 {
            Node::Atom(_) => true,
            // A tuple is no overflowing argument to rustfmt: a call or list
            // of one tuple stays on one line whenever the tuple does.
            Node::Call { args: items, .. } | Node::List { items, .. }
                if matches!(items.as_slice(), [Expr(Node::Tuple(_))]) =>
            {
                items[0].one_line_allowed()
            }
            Node::Call { args: items, .. } | Node::Tuple(items) => {
                joined_width(items) <= CALL_WIDTH && items.iter().all(Expr::one_line_allowed)
            }
            Node::List { items, .. } => {
                joined_width(items) <= ARRAY_WIDTH && items.iter().all(Expr::one_line_allowed)
            }
            Node::Struct { fields, .. } => {
                let width: usize = fields
                    .iter()
                    .map(|(n, e)| n.len() + 2 + e.flat_text().len())
                    .sum::<usize>()
                    + 2 * fields.len().saturating_sub(1);
                width <= STRUCT_WIDTH && fields.iter().all(|(_, e)| e.one_line_allowed())
            }
        }
    }

    /// Lines of the expression starting at column `col` (continuation lines
    /// indented from `indent`, returned with their indentation; the first
    /// without), with `suffix` more characters after its last line.
    fn lines(&self, indent: usize, col: usize, suffix: usize) -> Vec<String> {
        self.lines_with(indent, col, suffix, Broken::No)
    }

    /// [`Expr::lines`], broken at the top whatever the width when `broken`
    /// (an overflowed argument: the list holding it was too wide for one
    /// line, so rustfmt takes the overflow only if the argument breaks).
    /// No lines when rustfmt would rather not overflow into it.
    fn lines_with(&self, indent: usize, col: usize, suffix: usize, broken: Broken) -> Vec<String> {
        let flat = self.flat_text();
        if broken == Broken::No && self.one_line_allowed() && fits(col, &flat, suffix) {
            return vec![flat];
        }
        let pad = " ".repeat(indent);
        match &self.0 {
            Node::Atom(t) => vec![t.clone()],
            Node::Call { head, args } => {
                let open = format!("{head}(");
                if let Some(over) = overflowed(&open, ")", args, indent, col, suffix, true) {
                    return over;
                }
                let simple_only = matches!(args.as_slice(), [a] if a.is_simple_call());
                if broken == Broken::InCall && simple_only
                    || broken != Broken::No && col + open.len() > WIDTH
                {
                    // Not even the opening fits: rustfmt breaks the call
                    // holding this one instead.
                    return vec![];
                }
                vertical(&open, ")", args, indent, &pad)
            }
            Node::Tuple(items) => overflowed("(", ",)", items, indent, col, suffix, false)
                .unwrap_or_else(|| vertical("(", ")", items, indent, &pad)),
            Node::List { head, items } => {
                let open = format!("{head}[");
                if items.iter().all(Expr::is_short) && !items.is_empty() {
                    packed(&open, items, indent, &pad)
                } else {
                    overflowed(&open, "]", items, indent, col, suffix, false)
                        .unwrap_or_else(|| vertical(&open, "]", items, indent, &pad))
                }
            }
            Node::Struct { path, fields } => {
                let inner = indent + INDENT;
                let ipad = " ".repeat(inner);
                let mut out = vec![format!("{path} {{")];
                for (name, e) in fields {
                    let prefix = format!("{name}: ");
                    let lines = e.lines(inner, inner + prefix.len(), 1);
                    let mut lines = with_first(lines, &format!("{ipad}{prefix}"));
                    lines.last_mut().expect("one line at least").push(',');
                    out.extend(lines);
                }
                out.push(format!("{pad}}}"));
                out
            }
        }
    }

    /// Whether a call's only argument may start on the call's line and
    /// break inside (rustfmt's overflow of the last argument).
    fn overflows(&self) -> bool {
        matches!(
            self.0,
            Node::Call { .. } | Node::List { .. } | Node::Struct { .. } | Node::Tuple(_)
        )
    }

    /// A call of atoms only: rustfmt would rather break an outer call than
    /// put it alone on a line inside an overflowed call.
    fn is_simple_call(&self) -> bool {
        match &self.0 {
            Node::Call { args, .. } => args.iter().all(|a| matches!(a.0, Node::Atom(_))),
            _ => false,
        }
    }

    /// A literal or a one-segment path (rustfmt's simple expressions)
    /// short enough to share a line with others in a broken list.
    fn is_short(&self) -> bool {
        let Node::Atom(t) = &self.0 else { return false };
        let literal = t.starts_with(|c: char| c.is_ascii_digit() || "-'\"".contains(c));
        t.len() <= SHORT_ELEMENT && (literal || !t.contains("::"))
    }
}

impl std::fmt::Display for Expr {
    /// The one-line text.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.flat_text())
    }
}

fn fits(col: usize, text: &str, suffix: usize) -> bool {
    col + text.len() + suffix <= WIDTH
}

fn joined_width(items: &[Expr]) -> usize {
    items.iter().map(|e| e.flat_text().len()).sum::<usize>() + 2 * items.len().saturating_sub(1)
}

fn join_flat(items: &[Expr], out: &mut String) {
    for (i, e) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        e.flat(out);
    }
}

/// `lines` with `first` put before its first line.
fn with_first(mut lines: Vec<String>, first: &str) -> Vec<String> {
    lines[0].insert_str(0, first);
    lines
}

/// Whether an expression must break at its top: it overflows from a list
/// too wide for one line (the argument list of a call, or a tuple or array
/// of one item).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Broken {
    No,
    InCall,
    InList,
}

/// A list of one item that may overflow: the item starts on the opening
/// line and breaks inside, the closing after its last line.
fn overflowed(
    open: &str,
    close: &str,
    items: &[Expr],
    indent: usize,
    col: usize,
    suffix: usize,
    in_call: bool,
) -> Option<Vec<String>> {
    let [only] = items else { return None };
    if !only.overflows() {
        return None;
    }
    let broken = if in_call {
        Broken::InCall
    } else {
        Broken::InList
    };
    let inner = only.lines_with(indent, col + open.len(), suffix + close.len(), broken);
    if inner.is_empty() || col + open.len() + inner[0].len() > WIDTH {
        return None;
    }
    let mut out = with_first(inner, open);
    out.last_mut().expect("one line at least").push_str(close);
    Some(out)
}

/// One item a line, each with a trailing comma.
fn vertical(open: &str, close: &str, items: &[Expr], indent: usize, pad: &str) -> Vec<String> {
    let inner = indent + INDENT;
    let ipad = " ".repeat(inner);
    let mut out = vec![open.to_string()];
    for e in items {
        let lines = e.lines(inner, inner, 1);
        let mut lines = with_first(lines, &ipad);
        lines.last_mut().expect("one line at least").push(',');
        out.extend(lines);
    }
    out.push(format!("{pad}{close}"));
    out
}

/// Short literals packed as many to a line as fit, a trailing comma after
/// the last.
fn packed(open: &str, items: &[Expr], indent: usize, pad: &str) -> Vec<String> {
    let inner = indent + INDENT;
    let ipad = " ".repeat(inner);
    let mut out = vec![open.to_string()];
    let mut line = ipad.clone();
    for e in items {
        let text = format!("{},", e.flat_text());
        let sep = usize::from(line.len() > inner);
        if line.len() > inner && line.len() + sep + text.len() > WIDTH {
            out.push(std::mem::replace(&mut line, ipad.clone()));
        } else if line.len() > inner {
            line.push(' ');
        }
        line.push_str(&text);
    }
    out.push(line);
    out.push(format!("{pad}]"));
    out
}

/// A value that can be written as a Rust expression rebuilding it: what a
/// generated regression suite needs of the function's inputs and outputs.
///
/// Implemented for the standard types (integers with their suffix, `3u8`,
/// so a test's `let` has the argument's type; hash sets and maps in a
/// deterministic order), and derived for your own with
/// `#[derive(RustExpr)]`:
///
/// ```
/// use neatcheck::suite::RustExpr;
///
/// #[derive(RustExpr)]
/// enum Shape {
///     Dot,
///     Circle(u8),
///     Rect { w: u8, h: Box<u8> },
/// }
///
/// let r = Shape::Rect { w: 2, h: Box::new(3) };
/// assert_eq!(r.rust_expr().to_string(), "Shape::Rect { w: 2u8, h: Box::new(3u8) }");
/// assert_eq!(Shape::Circle(1).rust_expr().to_string(), "Shape::Circle(1u8)");
/// ```
///
/// or by hand, from the fields' expressions ([`Box`] fields come out as
/// `Box::new(..)`):
///
/// ```
/// use neatcheck::suite::{Expr, RustExpr};
///
/// enum Exp {
///     Num(u8),
///     Add(Box<Exp>, Box<Exp>),
/// }
///
/// impl RustExpr for Exp {
///     fn rust_expr(&self) -> Expr {
///         match self {
///             Exp::Num(n) => Expr::call("Exp::Num", [n.rust_expr()]),
///             Exp::Add(a, b) => Expr::call("Exp::Add", [a.rust_expr(), b.rust_expr()]),
///         }
///     }
/// }
///
/// let e = Exp::Add(Box::new(Exp::Num(1)), Box::new(Exp::Num(2)));
/// assert_eq!(
///     e.rust_expr().to_string(),
///     "Exp::Add(Box::new(Exp::Num(1u8)), Box::new(Exp::Num(2u8)))"
/// );
/// ```
pub trait RustExpr {
    /// The expression that rebuilds this value.
    fn rust_expr(&self) -> Expr;

    /// The value as a function's arguments: the components of a tuple
    /// (one argument each), else the value itself.
    fn rust_args(&self) -> Vec<Expr> {
        vec![self.rust_expr()]
    }

    /// The type as Rust source (`Vec<String>`, `Shape<u8>`), if known:
    /// exported tests annotate their `let`s with it, so that a value that
    /// does not say its type (an empty `vec![]`) still compiles. `None` by
    /// default; the standard types and `#[derive(RustExpr)]` give it.
    fn rust_type() -> Option<String>
    where
        Self: Sized,
    {
        None
    }

    /// The types of the arguments of [`RustExpr::rust_args`]: a tuple's
    /// components, else the type itself.
    fn rust_arg_types() -> Option<Vec<String>>
    where
        Self: Sized,
    {
        Self::rust_type().map(|t| vec![t])
    }
}

/// `head<T1, T2..>` when every parameter's type is known.
fn generic_type(head: &str, params: &[Option<String>]) -> Option<String> {
    let params: Option<Vec<&str>> = params.iter().map(Option::as_deref).collect();
    Some(format!("{head}<{}>", params?.join(", ")))
}

impl<T: RustExpr + ?Sized> RustExpr for &T {
    fn rust_expr(&self) -> Expr {
        (**self).rust_expr()
    }
    fn rust_args(&self) -> Vec<Expr> {
        (**self).rust_args()
    }
}

macro_rules! debug_literals {
    ($($t:ident),*) => {$(
        impl RustExpr for $t {
            fn rust_expr(&self) -> Expr {
                Expr::atom(format!("{self:?}"))
            }
            fn rust_type() -> Option<String> {
                Some(stringify!($t).to_string())
            }
        }
    )*};
}

// The `Debug` text of these is a valid literal of the type (a `char`'s
// and a `str`'s escapes are Rust escapes).
debug_literals!(bool, char);

impl RustExpr for str {
    fn rust_expr(&self) -> Expr {
        Expr::atom(format!("{self:?}"))
    }
}

macro_rules! integer_literals {
    ($($t:ident),*) => {$(
        impl RustExpr for $t {
            /// A literal with its type's suffix (`3u8`, `-1i64`): a test
            /// binding it to a variable compiles whatever uses the variable
            /// (`{0}.into()` would otherwise meet an `i32`).
            fn rust_expr(&self) -> Expr {
                Expr::atom(format!("{self}{}", stringify!($t)))
            }
            fn rust_type() -> Option<String> {
                Some(stringify!($t).to_string())
            }
        }
    )*};
}

integer_literals!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

macro_rules! float_literals {
    ($($t:ident),*) => {$(
        impl RustExpr for $t {
            fn rust_expr(&self) -> Expr {
                if self.is_nan() {
                    Expr::atom(concat!(stringify!($t), "::NAN"))
                } else if self.is_infinite() {
                    Expr::atom(if *self > 0.0 {
                        concat!(stringify!($t), "::INFINITY")
                    } else {
                        concat!(stringify!($t), "::NEG_INFINITY")
                    })
                } else {
                    // Debug prints the shortest text that reads back the
                    // same value, always with a `.` or an exponent; the
                    // suffix keeps the type where nothing else says it.
                    Expr::atom(format!("{self:?}{}", stringify!($t)))
                }
            }
            fn rust_type() -> Option<String> {
                Some(stringify!($t).to_string())
            }
        }
    )*};
}

float_literals!(f32, f64);

impl RustExpr for () {
    fn rust_expr(&self) -> Expr {
        Expr::atom("()")
    }
    fn rust_type() -> Option<String> {
        Some("()".to_string())
    }
    fn rust_arg_types() -> Option<Vec<String>> {
        Some(vec![])
    }
    fn rust_args(&self) -> Vec<Expr> {
        vec![]
    }
}

impl RustExpr for String {
    fn rust_expr(&self) -> Expr {
        Expr::call("String::from", [self.as_str().rust_expr()])
    }
    fn rust_type() -> Option<String> {
        Some("String".to_string())
    }
}

impl<T: RustExpr + ?Sized> RustExpr for Box<T> {
    fn rust_expr(&self) -> Expr {
        Expr::call("Box::new", [(**self).rust_expr()])
    }
}

impl<T: RustExpr> RustExpr for Option<T> {
    fn rust_expr(&self) -> Expr {
        match self {
            Some(x) => Expr::call("Some", [x.rust_expr()]),
            None => Expr::atom("None"),
        }
    }
    fn rust_type() -> Option<String> {
        generic_type("Option", &[T::rust_type()])
    }
}

impl<T: RustExpr, E: RustExpr> RustExpr for Result<T, E> {
    fn rust_expr(&self) -> Expr {
        match self {
            Ok(x) => Expr::call("Ok", [x.rust_expr()]),
            Err(e) => Expr::call("Err", [e.rust_expr()]),
        }
    }
    fn rust_type() -> Option<String> {
        generic_type("Result", &[T::rust_type(), E::rust_type()])
    }
}

impl<T: RustExpr> RustExpr for Vec<T> {
    fn rust_expr(&self) -> Expr {
        Expr::vec(self.iter().map(RustExpr::rust_expr))
    }
    fn rust_type() -> Option<String> {
        generic_type("Vec", &[T::rust_type()])
    }
}

impl<T: RustExpr> RustExpr for [T] {
    fn rust_expr(&self) -> Expr {
        Expr::array(self.iter().map(RustExpr::rust_expr))
    }
}

impl<T: RustExpr, const N: usize> RustExpr for [T; N] {
    fn rust_expr(&self) -> Expr {
        Expr::array(self.iter().map(RustExpr::rust_expr))
    }
    fn rust_type() -> Option<String> {
        Some(format!("[{}; {N}]", T::rust_type()?))
    }
}

impl<T: RustExpr> RustExpr for BTreeSet<T> {
    fn rust_expr(&self) -> Expr {
        let items = Expr::array(self.iter().map(RustExpr::rust_expr));
        Expr::call("std::collections::BTreeSet::from", [items])
    }
    fn rust_type() -> Option<String> {
        generic_type("std::collections::BTreeSet", &[T::rust_type()])
    }
}

impl<K: RustExpr, V: RustExpr> RustExpr for BTreeMap<K, V> {
    fn rust_expr(&self) -> Expr {
        let items = self
            .iter()
            .map(|(k, v)| Expr::tuple([k.rust_expr(), v.rust_expr()]));
        Expr::call("std::collections::BTreeMap::from", [Expr::array(items)])
    }
    fn rust_type() -> Option<String> {
        generic_type(
            "std::collections::BTreeMap",
            &[K::rust_type(), V::rust_type()],
        )
    }
}

impl<T: RustExpr> RustExpr for HashSet<T> {
    /// `HashSet::from([..])` with the elements in the order of their
    /// expressions' text: the same text on every run, whatever the hasher.
    fn rust_expr(&self) -> Expr {
        let mut items: Vec<Expr> = self.iter().map(RustExpr::rust_expr).collect();
        items.sort_by_cached_key(ToString::to_string);
        Expr::call("std::collections::HashSet::from", [Expr::array(items)])
    }
    fn rust_type() -> Option<String> {
        generic_type("std::collections::HashSet", &[T::rust_type()])
    }
}

impl<K: RustExpr, V: RustExpr> RustExpr for HashMap<K, V> {
    /// `HashMap::from([..])` with the entries in the order of their keys'
    /// expressions' text (deterministic, as for [`HashSet`]).
    fn rust_expr(&self) -> Expr {
        let mut entries: Vec<(String, Expr)> = self
            .iter()
            .map(|(k, v)| {
                let key = k.rust_expr();
                (key.to_string(), Expr::tuple([key, v.rust_expr()]))
            })
            .collect();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let items = entries.into_iter().map(|(_, e)| e);
        Expr::call("std::collections::HashMap::from", [Expr::array(items)])
    }
    fn rust_type() -> Option<String> {
        generic_type(
            "std::collections::HashMap",
            &[K::rust_type(), V::rust_type()],
        )
    }
}

macro_rules! tuples {
    ($(($($n:tt $t:ident),+))*) => {$(
        impl<$($t: RustExpr),+> RustExpr for ($($t,)+) {
            fn rust_expr(&self) -> Expr {
                Expr::tuple(self.rust_args())
            }
            fn rust_args(&self) -> Vec<Expr> {
                vec![$(self.$n.rust_expr()),+]
            }
            fn rust_type() -> Option<String> {
                let parts: Vec<String> = Self::rust_arg_types()?;
                if parts.len() == 1 {
                    Some(format!("({},)", parts[0]))
                } else {
                    Some(format!("({})", parts.join(", ")))
                }
            }
            fn rust_arg_types() -> Option<Vec<String>> {
                Some(vec![$($t::rust_type()?),+])
            }
        }
    )*};
}

tuples! {
    (0 A)
    (0 A, 1 B)
    (0 A, 1 B, 2 C)
    (0 A, 1 B, 2 C, 3 D)
    (0 A, 1 B, 2 C, 3 D, 4 E)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F)
}

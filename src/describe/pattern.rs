//! String spaces from patterns: a regular-expression subset parsed into the
//! ordinary combinators (`pure`, `one_of`, `union`, products, `pay`, and a
//! run-time reference for unbounded repetition), so counting, the
//! reference enumeration, the lazy search, indexing, uniform sampling,
//! shrinking and replay keys all work on them unchanged.

use super::{dyn_ref, fresh_keys, pay, product_with, pure, union, Space};
use std::rc::Rc;

/// The strings a pattern matches, as a space ordered by size: a string's
/// size is the number of repetitions (`*`, `+`, `?`, `{n,m}`) it takes,
/// each one step; fixed characters, classes and alternatives cost nothing.
/// For `[a-z]*` a string's size is its length.
///
/// The subset: literal characters; `\` before a character makes it literal,
/// `\d`, `\w` and `\s` are `[0-9]`, `[A-Za-z0-9_]` and `[ \t\n\r]`; `.` is
/// any printable ASCII character; classes `[a-z_]` with ranges; groups
/// `(...)`; alternation `|`; repetition `?`, `*`, `+`, `{n}`, `{n,}` and
/// `{n,m}`. A string the pattern matches in two ways (`a|a`, `(a|ab)(c|bc)`)
/// is listed once per way: an unambiguous pattern lists each string once.
///
/// ```
/// use neatcheck::space;
/// use neatcheck::values::values_in;
///
/// let ids = space::pattern("[a-c][a-c0-9]*");
/// assert_eq!(values_in(&ids, 0), ["a", "b", "c"]);
/// assert_eq!(values_in(&ids, 1).len(), 3 * 13);
/// // A property over such strings, searched lazily like any input:
/// let failure = neatcheck::Config::default()
///     .spaces(|| space::pattern("(GET|PUT) /[a-z]{1,3}"))
///     .try_check(|request: String| request.len() < 8)
///     .unwrap_err();
/// assert_eq!(failure.value, "GET /aaa");
/// ```
///
/// # Panics
/// With a message naming the position, if the pattern is not in the
/// subset: an unbalanced bracket or parenthesis, a negated class
/// (`[^...]`), an anchor, a repetition of nothing, `{n,m}` with `n > m`, or
/// more than 20 000 repeated copies in all (`x{0,199}` spells out 19 900:
/// write longer repetitions with `*` or `+`).
pub fn pattern(source: &str) -> Space<String> {
    match Parser::new(source).parse() {
        Ok(node) => build(&node),
        Err(e) => panic!("neatcheck: space::pattern({source:?}): {e}"),
    }
}

/// The most copies of a sub-pattern a pattern's bounded repetitions may
/// spell out (`x{0,m}` is `m + 1` alternatives of up to `m` copies):
/// longer ones are better written with `*` or `+`.
const MAX_REPEATED: usize = 20_000;

/// Groups may nest this deep: the parser and the builder recurse on the
/// pattern's structure.
const MAX_NESTING: usize = 64;

/// A parsed pattern.
#[derive(Debug, Clone, PartialEq)]
enum Node {
    /// Exactly this text.
    Literal(String),
    /// One character of the set (in order, without repeats).
    Class(Vec<char>),
    /// One after the other.
    Sequence(Vec<Node>),
    /// One of them.
    Either(Vec<Node>),
    /// From `min` to `max` copies (`None`: no upper bound).
    Repeat {
        node: Box<Node>,
        min: usize,
        max: Option<usize>,
    },
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    depth: usize,
    repeated: usize,
}

impl Parser {
    fn new(source: &str) -> Self {
        Parser {
            chars: source.chars().collect(),
            at: 0,
            depth: 0,
            repeated: 0,
        }
    }

    fn error(&self, what: &str) -> String {
        format!("{what} at character {}", self.at + 1)
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn parse(mut self) -> Result<Node, String> {
        let node = self.alternatives()?;
        match self.peek() {
            None => Ok(node),
            Some(')') => Err(self.error("a `)` without its `(`")),
            Some(c) => Err(self.error(&format!("unexpected `{c}`"))),
        }
    }

    /// `a|b|...` up to a `)` or the end.
    fn alternatives(&mut self) -> Result<Node, String> {
        let mut options = vec![self.sequence()?];
        while self.peek() == Some('|') {
            self.at += 1;
            options.push(self.sequence()?);
        }
        Ok(if options.len() == 1 {
            options.pop().expect("one option")
        } else {
            Node::Either(options)
        })
    }

    /// Repeated atoms up to a `|`, a `)` or the end.
    fn sequence(&mut self) -> Result<Node, String> {
        let mut items = vec![];
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            let item = self.repetition(atom)?;
            items.push(item);
        }
        Ok(Node::Sequence(items))
    }

    fn atom(&mut self) -> Result<Node, String> {
        let c = self.peek().expect("an atom follows");
        match c {
            '(' => {
                self.depth += 1;
                if self.depth > MAX_NESTING {
                    return Err(self.error(&format!("groups nested deeper than {MAX_NESTING}")));
                }
                self.at += 1;
                let inner = self.alternatives()?;
                if self.peek() != Some(')') {
                    return Err(self.error("a `(` without its `)`"));
                }
                self.at += 1;
                self.depth -= 1;
                Ok(inner)
            }
            '[' => self.class(),
            '.' => {
                self.at += 1;
                Ok(Node::Class((' '..='~').collect()))
            }
            '\\' => {
                self.at += 1;
                match self.escaped()? {
                    Escaped::Char(c) => Ok(Node::Literal(c.to_string())),
                    Escaped::Class(set) => Ok(Node::Class(set)),
                }
            }
            '*' | '+' | '?' | '{' => Err(self.error(&format!("`{c}` repeats nothing"))),
            '^' | '$' => Err(self.error(&format!(
                "the anchor `{c}`: a pattern always matches the whole string"
            ))),
            ']' | '}' => Err(self.error(&format!("a `{c}` without its opening bracket"))),
            c => {
                self.at += 1;
                Ok(Node::Literal(c.to_string()))
            }
        }
    }

    /// After a `\`.
    fn escaped(&mut self) -> Result<Escaped, String> {
        let Some(c) = self.peek() else {
            return Err(self.error("a `\\` at the end"));
        };
        self.at += 1;
        Ok(match c {
            'd' => Escaped::Class(('0'..='9').collect()),
            'w' => Escaped::Class(
                ('A'..='Z')
                    .chain('a'..='z')
                    .chain('0'..='9')
                    .chain(['_'])
                    .collect(),
            ),
            's' => Escaped::Class(vec![' ', '\t', '\n', '\r']),
            'n' => Escaped::Char('\n'),
            't' => Escaped::Char('\t'),
            'r' => Escaped::Char('\r'),
            c => Escaped::Char(c),
        })
    }

    /// `[...]`: characters, ranges `a-z` and escapes.
    fn class(&mut self) -> Result<Node, String> {
        self.at += 1;
        if self.peek() == Some('^') {
            return Err(self.error(
                "a negated class `[^...]` (over all of Unicode): list the characters instead",
            ));
        }
        let mut set: Vec<char> = vec![];
        let add = |set: &mut Vec<char>, c: char| {
            if !set.contains(&c) {
                set.push(c);
            }
        };
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error("a `[` without its `]`"));
            };
            self.at += 1;
            let first = match c {
                ']' if !set.is_empty() => break,
                ']' => return Err(self.error("an empty class `[]`")),
                '\\' => match self.escaped()? {
                    Escaped::Char(c) => c,
                    Escaped::Class(chars) => {
                        chars.into_iter().for_each(|c| add(&mut set, c));
                        continue;
                    }
                },
                c => c,
            };
            let is_range = self.peek() == Some('-') && self.chars.get(self.at + 1) != Some(&']');
            if is_range {
                self.at += 1;
                let Some(last) = self.peek() else {
                    return Err(self.error("a range without its end"));
                };
                self.at += 1;
                if last < first {
                    return Err(self.error(&format!("the range `{first}-{last}` is empty")));
                }
                (first..=last).for_each(|c| add(&mut set, c));
            } else {
                add(&mut set, first);
            }
        }
        Ok(Node::Class(set))
    }

    /// A repetition after `atom`, if one follows.
    fn repetition(&mut self, atom: Node) -> Result<Node, String> {
        let (min, max) = match self.peek() {
            Some('?') => (0, Some(1)),
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('{') => return self.braces(atom),
            _ => return Ok(atom),
        };
        self.at += 1;
        self.repeat(atom, min, max)
    }

    /// `{n}`, `{n,}` or `{n,m}`.
    fn braces(&mut self, atom: Node) -> Result<Node, String> {
        self.at += 1;
        let min = self.number()?;
        let max = match self.peek() {
            Some('}') => Some(min),
            Some(',') => {
                self.at += 1;
                if self.peek() == Some('}') {
                    None
                } else {
                    Some(self.number()?)
                }
            }
            _ => return Err(self.error("a `{` without its `}`")),
        };
        if self.peek() != Some('}') {
            return Err(self.error("a `{` without its `}`"));
        }
        self.at += 1;
        if max.is_some_and(|m| m < min) {
            return Err(self.error(&format!(
                "`{{{min},{}}}` repeats at least more than at most",
                max.unwrap_or_default()
            )));
        }
        self.repeat(atom, min, max)
    }

    fn number(&mut self) -> Result<usize, String> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let digits: String = self.chars[start..self.at].iter().collect();
        digits
            .parse()
            .map_err(|_| self.error("a repetition count that is not a number"))
    }

    /// Counts the copies a bounded repetition spells out.
    fn repeat(&mut self, node: Node, min: usize, max: Option<usize>) -> Result<Node, String> {
        let top = max.unwrap_or(min);
        // `{n,m}` lists m - n + 1 alternatives of n to m copies.
        let copies = (min..=top).try_fold(0usize, |sum, k| sum.checked_add(k));
        self.repeated = copies
            .and_then(|c| self.repeated.checked_add(c))
            .unwrap_or(usize::MAX);
        if self.repeated > MAX_REPEATED {
            return Err(self.error(&format!(
                "bounded repetitions spell out more than {MAX_REPEATED} copies: use `*` or `+`"
            )));
        }
        Ok(Node::Repeat {
            node: Box::new(node),
            min,
            max,
        })
    }
}

enum Escaped {
    Char(char),
    Class(Vec<char>),
}

/// The space of a parsed pattern.
fn build(node: &Node) -> Space<String> {
    match node {
        Node::Literal(text) => pure(text.clone()),
        Node::Class(set) => union(set.iter().map(|c| pure(c.to_string())).collect()),
        Node::Sequence(items) => concatenation(items.iter().map(build).collect()),
        Node::Either(options) => union(options.iter().map(build).collect()),
        Node::Repeat { node, min, max } => {
            let one = build(node);
            match max {
                Some(max) => union(
                    (*min..=*max)
                        .map(|k| concatenation(vec![pay(one.clone()); k]))
                        .collect(),
                ),
                None => {
                    let mut parts = vec![pay(one.clone()); *min];
                    parts.push(any_number_of(one));
                    concatenation(parts)
                }
            }
        }
    }
}

/// The strings of `parts`, one after the other.
fn concatenation(parts: Vec<Space<String>>) -> Space<String> {
    match parts.len() {
        0 => pure(String::new()),
        1 => parts.into_iter().next().expect("one part"),
        n => product_with(
            parts.into_iter().map(super::field_with).collect(),
            move |fields| {
                let mut out = String::new();
                for _ in 0..n {
                    out.push_str(&fields.take::<String>());
                }
                out
            },
        ),
    }
}

/// Zero or more copies of `one`, each one step: a list through a run-time
/// reference, so that the recursion passes through `pay` and the
/// description stays finite.
fn any_number_of(one: Space<String>) -> Space<String> {
    repetition(fresh_keys(1), one)
}

/// The reference `key` to zero or more copies of `one`; its space is
/// built only when the reference is first resolved.
fn repetition(key: u64, one: Space<String>) -> Space<String> {
    let made: Rc<dyn Fn() -> Space<String>> = Rc::new(move || {
        union(vec![
            pure(String::new()),
            pay(concatenation(vec![
                one.clone(),
                repetition(key, one.clone()),
            ])),
        ])
    });
    dyn_ref(key, "pattern repetition".to_string(), made)
}

#[cfg(test)]
mod tests {
    use super::{build, pattern, Node, Parser, MAX_REPEATED};
    use crate::values::values_in;
    use proptest::prelude::*;

    /// The strings of size exactly `n` by the size model, one per
    /// derivation: the reference the spaces are checked against.
    fn derivations(node: &Node, n: usize) -> Vec<String> {
        match node {
            Node::Literal(t) => {
                if n == 0 {
                    vec![t.clone()]
                } else {
                    vec![]
                }
            }
            Node::Class(set) => {
                if n == 0 {
                    set.iter().map(|c| c.to_string()).collect()
                } else {
                    vec![]
                }
            }
            Node::Either(options) => options.iter().flat_map(|o| derivations(o, n)).collect(),
            Node::Sequence(items) => sequence(items, n),
            Node::Repeat { node, min, max } => {
                // k copies, each one step more.
                let top = max.unwrap_or(n).min(n);
                (*min..=top)
                    .filter(|&k| k <= n)
                    .flat_map(|k| sequence(&vec![(**node).clone(); k], n - k))
                    .collect()
            }
        }
    }

    fn sequence(items: &[Node], n: usize) -> Vec<String> {
        let Some((first, rest)) = items.split_first() else {
            return if n == 0 { vec![String::new()] } else { vec![] };
        };
        let mut out = vec![];
        for i in 0..=n {
            for a in derivations(first, i) {
                for b in sequence(rest, n - i) {
                    out.push(format!("{a}{b}"));
                }
            }
        }
        out
    }

    /// The pattern text of a node.
    fn render(node: &Node) -> String {
        match node {
            Node::Literal(t) => t.chars().map(|c| format!("\\{c}")).collect(),
            Node::Class(set) => format!("[{}]", set.iter().collect::<String>()),
            Node::Sequence(items) => items.iter().map(|i| format!("({})", render(i))).collect(),
            Node::Either(options) => options
                .iter()
                .map(|o| format!("({})", render(o)))
                .collect::<Vec<_>>()
                .join("|"),
            Node::Repeat { node, min, max } => match max {
                Some(max) => format!("({}){{{min},{max}}}", render(node)),
                None => format!("({}){{{min},}}", render(node)),
            },
        }
    }

    fn node() -> impl Strategy<Value = Node> {
        let leaf = prop_oneof![
            prop::sample::select(vec!["a", "b", "ab"]).prop_map(|t| Node::Literal(t.into())),
            prop::sample::subsequence(vec!['a', 'b', 'c'], 1..=3).prop_map(Node::Class),
        ];
        leaf.prop_recursive(3, 12, 3, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..3).prop_map(Node::Sequence),
                prop::collection::vec(inner.clone(), 1..3).prop_map(Node::Either),
                (inner, 0usize..3, prop::option::of(0usize..3)).prop_map(|(n, min, extra)| {
                    Node::Repeat {
                        node: Box::new(n),
                        min,
                        max: extra.map(|e| min + e),
                    }
                }),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Every size lists the strings of the pattern's derivations of
        /// that size, once each, for patterns parsed from their text too.
        #[test]
        fn a_pattern_space_lists_each_derivation_once(node in node()) {
            let parsed = Parser::new(&render(&node)).parse().expect("a rendered pattern parses");
            for n in 0..=4 {
                let mut expected = derivations(&node, n);
                expected.sort();
                let mut built = values_in(&build(&node), n);
                built.sort();
                prop_assert_eq!(&built, &expected, "size {} of {:?}", n, render(&node));
                let mut reparsed = values_in(&build(&parsed), n);
                reparsed.sort();
                prop_assert_eq!(&reparsed, &expected, "size {} of the text {:?}", n, render(&node));
            }
        }
    }

    fn strings(p: &str, size: usize) -> Vec<String> {
        values_in(&pattern(p), size)
    }

    fn error(p: &str) -> String {
        Parser::new(p).parse().expect_err("not in the subset")
    }

    #[test]
    fn sizes_count_repetitions() {
        assert_eq!(strings("ab|c", 0), ["ab", "c"]);
        assert_eq!(strings("a*", 3), ["aaa"]);
        assert_eq!(strings("[xy]?z", 0), ["z"]);
        assert_eq!(strings("[xy]?z", 1), ["xz", "yz"]);
        assert_eq!(strings("(ab){2,3}", 2), ["abab"]);
        assert_eq!(strings("(ab){2,3}", 3), ["ababab"]);
        assert!(strings("(ab){2,3}", 4).is_empty());
        assert_eq!(strings("a+b", 0), Vec::<String>::new());
        assert_eq!(strings("a+b", 2), ["aab"]);
        assert_eq!(strings("\\d\\.\\d", 0).len(), 100);
        assert_eq!(strings("[a-c-]", 0), ["a", "b", "c", "-"]);
        assert_eq!(strings(".", 0).len(), 95);
    }

    #[test]
    fn errors_name_what_and_where() {
        assert_eq!(error("a)"), "a `)` without its `(` at character 2");
        assert_eq!(error("(a"), "a `(` without its `)` at character 3");
        assert_eq!(error("*a"), "`*` repeats nothing at character 1");
        assert!(error("[^a]").starts_with("a negated class"));
        assert!(error("^a").contains("anchor"));
        assert!(error("a{3,2}").contains("at least more than at most"));
        assert!(error("[z-a]").contains("is empty"));
        assert!(error("[ab").contains("without its `]`"));
        assert!(error(&format!("a{{0,{MAX_REPEATED}}}")).contains("use `*` or `+`"));
        assert!(error(&"(".repeat(100)).contains("nested deeper"));
    }

    #[test]
    #[should_panic(expected = "space::pattern(\"(a\"): a `(` without its `)`")]
    fn an_invalid_pattern_panics_naming_it() {
        let _ = pattern("(a");
    }
}

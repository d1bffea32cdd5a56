//! S-expressions with source positions: the reader of TIP's SMT-LIB
//! dialect. Owns the tokeniser, the tree (`Sexp`) and located errors.

use std::fmt;

/// A position in a source file (1-based line and column, in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Pos {
    /// The line, from 1.
    pub(crate) line: usize,
    /// The column, from 1.
    pub(crate) col: usize,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// An error in an input file, at a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    /// Where.
    pub(crate) pos: Pos,
    /// What.
    pub(crate) message: String,
}

impl SyntaxError {
    /// An error at `pos`.
    pub(crate) fn new(pos: Pos, message: impl Into<String>) -> Self {
        SyntaxError {
            pos,
            message: message.into(),
        }
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pos, self.message)
    }
}

impl std::error::Error for SyntaxError {}

/// An S-expression: an atom or a list, with the position it starts at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Sexp {
    /// A symbol or a numeral.
    Atom(String, Pos),
    /// A parenthesised list.
    List(Vec<Sexp>, Pos),
}

impl Drop for Sexp {
    fn drop(&mut self) {
        // Iterative: a recursive drop of a deeply nested file would
        // overflow the stack.
        if let Sexp::List(items, _) = self {
            if items.iter().all(|x| matches!(x, Sexp::Atom(..))) {
                return;
            }
            let mut stack = std::mem::take(items);
            while let Some(mut x) = stack.pop() {
                if let Sexp::List(items, _) = &mut x {
                    stack.append(items);
                }
            }
        }
    }
}

impl Sexp {
    /// Where it starts.
    pub(crate) fn pos(&self) -> Pos {
        match self {
            Sexp::Atom(_, p) | Sexp::List(_, p) => *p,
        }
    }

    /// The atom's text, if an atom.
    pub(crate) fn atom(&self) -> Option<&str> {
        match self {
            Sexp::Atom(a, _) => Some(a),
            Sexp::List(..) => None,
        }
    }

    /// The list's items, if a list.
    pub(crate) fn list(&self) -> Option<&[Sexp]> {
        match self {
            Sexp::List(items, _) => Some(items),
            Sexp::Atom(..) => None,
        }
    }
}

impl fmt::Display for Sexp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Iterative: files may nest deeply.
        enum Task<'s> {
            Show(&'s Sexp),
            Text(&'static str),
        }
        let mut tasks = vec![Task::Show(self)];
        while let Some(t) = tasks.pop() {
            match t {
                Task::Text(s) => f.write_str(s)?,
                Task::Show(Sexp::Atom(a, _)) => f.write_str(a)?,
                Task::Show(Sexp::List(items, _)) => {
                    f.write_str("(")?;
                    tasks.push(Task::Text(")"));
                    for (i, x) in items.iter().enumerate().rev() {
                        tasks.push(Task::Show(x));
                        if i > 0 {
                            tasks.push(Task::Text(" "));
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// Reads every S-expression of a file (iteratively: no nesting limit).
/// `name` as an SMT-LIB symbol: as it is when it is a simple symbol,
/// otherwise quoted, `|:&:|` (a name read from `|...|`, which the reader
/// unquotes, gets its bars back). Reserved words and names that read as
/// numbers (`-2`) are quoted too, as TIP's own printer does.
pub(crate) fn symbol(name: &str) -> std::borrow::Cow<'_, str> {
    const RESERVED: [&str; 12] = [
        "_", "!", "as", "let", "exists", "forall", "match", "par", "lambda", "ite", "NUMERAL",
        "DECIMAL",
    ];
    let simple_char = |c: char| c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c);
    let digits = name.strip_prefix('-').unwrap_or(name);
    let numeric = !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit());
    let simple = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(simple_char)
        && !numeric
        && !RESERVED.contains(&name);
    if simple {
        name.into()
    } else {
        format!("|{name}|").into()
    }
}

pub(crate) fn parse(src: &str) -> Result<Vec<Sexp>, SyntaxError> {
    let mut top = vec![];
    // Open lists: their start and items so far.
    let mut open: Vec<(Pos, Vec<Sexp>)> = vec![];
    let mut chars = src.chars().peekable();
    let (mut line, mut col) = (1usize, 1usize);
    macro_rules! bump {
        ($c:expr) => {{
            if $c == '\n' {
                line += 1;
                col = 1;
            } else {
                col += 1;
            }
        }};
    }
    while let Some(&c) = chars.peek() {
        let pos = Pos { line, col };
        match c {
            ';' => {
                while let Some(&c) = chars.peek() {
                    if c == '\n' {
                        break;
                    }
                    chars.next();
                    bump!(c);
                }
            }
            c if c.is_whitespace() => {
                chars.next();
                bump!(c);
            }
            '(' => {
                chars.next();
                bump!(c);
                open.push((pos, vec![]));
            }
            ')' => {
                chars.next();
                bump!(c);
                let (start, items) = open
                    .pop()
                    .ok_or_else(|| SyntaxError::new(pos, "unbalanced `)`"))?;
                let list = Sexp::List(items, start);
                match open.last_mut() {
                    Some((_, items)) => items.push(list),
                    None => top.push(list),
                }
            }
            '|' => {
                // A quoted symbol: everything up to the next `|`.
                chars.next();
                bump!(c);
                let mut text = String::new();
                loop {
                    match chars.next() {
                        Some('|') => {
                            bump!('|');
                            break;
                        }
                        Some(c) => {
                            bump!(c);
                            text.push(c);
                        }
                        None => return Err(SyntaxError::new(pos, "unterminated `|symbol|`")),
                    }
                }
                let atom = Sexp::Atom(text, pos);
                match open.last_mut() {
                    Some((_, items)) => items.push(atom),
                    None => top.push(atom),
                }
            }
            '"' => return Err(SyntaxError::new(pos, "string literals are not part of TIP")),
            _ => {
                let mut text = String::new();
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() || matches!(c, '(' | ')' | ';' | '|' | '"') {
                        break;
                    }
                    chars.next();
                    bump!(c);
                    text.push(c);
                }
                let atom = Sexp::Atom(text, pos);
                match open.last_mut() {
                    Some((_, items)) => items.push(atom),
                    None => top.push(atom),
                }
            }
        }
    }
    if let Some((start, _)) = open.last() {
        return Err(SyntaxError::new(
            *start,
            "this `(` is never closed (the file ends first)",
        ));
    }
    Ok(top)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_errors() {
        let s = parse("; c\n(a (b 12)\n  c)").unwrap();
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].pos(), Pos { line: 2, col: 1 });
        let items = s[0].list().unwrap();
        assert_eq!(items[1].pos(), Pos { line: 2, col: 4 });
        assert_eq!(items[2].pos(), Pos { line: 3, col: 3 });
        assert_eq!(s[0].to_string(), "(a (b 12) c)");
        assert_eq!(parse("(a\n (b)").unwrap_err().pos, Pos { line: 1, col: 1 });
        assert_eq!(parse("a)\n").unwrap_err().pos, Pos { line: 1, col: 2 });
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let n = 200_000;
        let src = format!("{}x{}", "(".repeat(n), ")".repeat(n));
        let s = parse(&src).unwrap();
        assert_eq!(s.len(), 1);
        assert!(s[0].to_string().starts_with("((("));
        drop(s);
    }
}

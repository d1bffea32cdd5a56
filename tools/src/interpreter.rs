//! The run-time-types interpreter: drives the dynamic value API
//! (`neatcheck::dynamic`) from a program written in a tiny language.
//!
//! A tiny first-order functional language: datatype declarations, functions,
//! `case` (reads input values through the lazy dynamic API, so reads are
//! recorded in evaluation order), `if`, `let`, short-circuit `and`/`or`
//! (left to right, any number of arguments), `not`, and the booleans
//! `True`/`False` (the builtin `Bool`).
//!
//! ```text
//! data Nat = Z | S Nat
//! data List = Nil | Cons Nat List
//! fun le(a, b) = case a of { Z -> True; S(a1) -> case b of { Z -> False; S(b1) -> le(a1, b1) } }
//! ```
//!
//! Field types are declared datatypes or the builtins `Bool` and `Nat`
//! (bit-length naturals), shadowed by declared datatypes of the same name.
//! Evaluation is call-by-value, left to right; `--` starts a comment.

use neatcheck::dynamic::{DataTypes, DynValue, Universe};
use neatcheck::Lazy;
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

// -- lexer ---------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Lower(String),
    Upper(String),
    Sym(&'static str),
    Eof,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Lower(s) | Tok::Upper(s) => write!(f, "`{s}`"),
            Tok::Sym(s) => write!(f, "`{s}`"),
            Tok::Eof => f.write_str("the end of the input"),
        }
    }
}

const SYMBOLS: [&str; 10] = ["->", "=", "|", "(", ")", "{", "}", ";", ",", "_"];

fn lex(src: &str) -> Result<Vec<(Tok, usize)>, String> {
    let mut out = vec![];
    for (ln, line) in src.lines().enumerate() {
        let line_no = ln + 1;
        let line = line.find("--").map_or(line, |i| &line[..i]);
        let mut i = 0;
        while let Some(c) = line[i..].chars().next() {
            let rest = &line[i..];
            if c.is_whitespace() {
                i += c.len_utf8();
            } else if c.is_alphabetic() {
                let len = rest
                    .find(|d: char| !(d.is_alphanumeric() || d == '_' || d == '\''))
                    .unwrap_or(rest.len());
                let word = rest[..len].to_string();
                i += len;
                let tok = if c.is_uppercase() {
                    Tok::Upper(word)
                } else {
                    Tok::Lower(word)
                };
                out.push((tok, line_no));
            } else if let Some(sym) = SYMBOLS.iter().find(|s| rest.starts_with(**s)) {
                out.push((Tok::Sym(sym), line_no));
                i += sym.len();
            } else {
                return Err(format!("line {line_no}: unexpected character `{c}`"));
            }
        }
    }
    out.push((Tok::Eof, src.lines().count().max(1)));
    Ok(out)
}

// -- syntax --------------------------------------------------------------

/// Surface syntax, with names.
enum Syn {
    Var(String),
    Con(String, Vec<Syn>),
    Call(String, Vec<Syn>),
    If(Box<Syn>, Box<Syn>, Box<Syn>),
    Let(String, Box<Syn>, Box<Syn>),
    Case(Box<Syn>, Vec<(SynPat, Syn)>),
}

enum SynPat {
    Wild,
    Var(String),
    Con(String, Vec<Option<String>>),
}

struct SynFun {
    name: String,
    params: Vec<String>,
    body: Syn,
    line: usize,
}

struct Parser {
    toks: Vec<(Tok, usize)>,
    pos: usize,
}

const KEYWORDS: [&str; 9] = [
    "data", "fun", "case", "of", "if", "then", "else", "let", "in",
];

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].0
    }
    fn line(&self) -> usize {
        self.toks[self.pos].1
    }
    fn next(&mut self) -> Tok {
        let t = self.toks[self.pos].0.clone();
        if t != Tok::Eof {
            self.pos += 1;
        }
        t
    }
    fn error<T>(&self, wanted: &str) -> Result<T, String> {
        Err(format!(
            "line {}: expected {wanted}, found {}",
            self.line(),
            self.peek()
        ))
    }
    fn sym(&mut self, s: &str) -> Result<(), String> {
        if self.is_sym(s) {
            self.next();
            Ok(())
        } else {
            self.error(&format!("`{s}`"))
        }
    }
    fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Sym(t) if *t == s)
    }
    fn keyword(&mut self, k: &str) -> Result<(), String> {
        if matches!(self.peek(), Tok::Lower(w) if w == k) {
            self.next();
            Ok(())
        } else {
            self.error(&format!("`{k}`"))
        }
    }
    fn is_keyword(&self, k: &str) -> bool {
        matches!(self.peek(), Tok::Lower(w) if w == k)
    }
    fn lower(&mut self, what: &str) -> Result<String, String> {
        match self.peek().clone() {
            Tok::Lower(w) if !KEYWORDS.contains(&w.as_str()) => {
                self.next();
                Ok(w)
            }
            _ => self.error(what),
        }
    }
    fn upper(&mut self, what: &str) -> Result<String, String> {
        match self.peek().clone() {
            Tok::Upper(w) => {
                self.next();
                Ok(w)
            }
            _ => self.error(what),
        }
    }

    /// `a, b, c` up to `)` (the `(` already read).
    fn comma_list<T>(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Result<T, String>,
    ) -> Result<Vec<T>, String> {
        let mut items = vec![];
        if self.is_sym(")") {
            self.next();
            return Ok(items);
        }
        loop {
            items.push(item(self)?);
            if self.is_sym(",") {
                self.next();
            } else {
                self.sym(")")?;
                return Ok(items);
            }
        }
    }

    fn expr(&mut self) -> Result<Syn, String> {
        if self.is_keyword("case") {
            self.next();
            let scrutinee = self.expr()?;
            self.keyword("of")?;
            self.sym("{")?;
            let mut alts = vec![];
            loop {
                let pat = self.pattern()?;
                self.sym("->")?;
                let body = self.expr()?;
                alts.push((pat, body));
                if self.is_sym(";") {
                    self.next();
                }
                if self.is_sym("}") {
                    self.next();
                    break;
                }
            }
            return Ok(Syn::Case(Box::new(scrutinee), alts));
        }
        if self.is_keyword("if") {
            self.next();
            let c = self.expr()?;
            self.keyword("then")?;
            let t = self.expr()?;
            self.keyword("else")?;
            let e = self.expr()?;
            return Ok(Syn::If(Box::new(c), Box::new(t), Box::new(e)));
        }
        if self.is_keyword("let") {
            self.next();
            let x = self.lower("a variable")?;
            self.sym("=")?;
            let v = self.expr()?;
            self.keyword("in")?;
            let body = self.expr()?;
            return Ok(Syn::Let(x, Box::new(v), Box::new(body)));
        }
        match self.peek().clone() {
            Tok::Sym("(") => {
                self.next();
                let e = self.expr()?;
                self.sym(")")?;
                Ok(e)
            }
            Tok::Upper(_) => {
                let c = self.upper("a constructor")?;
                let args = if self.is_sym("(") {
                    self.next();
                    self.comma_list(|p| p.expr())?
                } else {
                    vec![]
                };
                Ok(Syn::Con(c, args))
            }
            Tok::Lower(_) => {
                let x = self.lower("an expression")?;
                if self.is_sym("(") {
                    self.next();
                    let args = self.comma_list(|p| p.expr())?;
                    Ok(Syn::Call(x, args))
                } else {
                    Ok(Syn::Var(x))
                }
            }
            _ => self.error("an expression"),
        }
    }

    fn pattern(&mut self) -> Result<SynPat, String> {
        match self.peek().clone() {
            Tok::Sym("_") => {
                self.next();
                Ok(SynPat::Wild)
            }
            Tok::Lower(_) => Ok(SynPat::Var(self.lower("a pattern")?)),
            Tok::Upper(_) => {
                let c = self.upper("a constructor")?;
                let binds = if self.is_sym("(") {
                    self.next();
                    self.comma_list(|p| {
                        if p.is_sym("_") {
                            p.next();
                            Ok(None)
                        } else {
                            p.lower("a variable or `_`").map(Some)
                        }
                    })?
                } else {
                    vec![]
                };
                Ok(SynPat::Con(c, binds))
            }
            _ => self.error("a pattern"),
        }
    }
}

// -- resolved programs ---------------------------------------------------

/// An expression with names resolved: variables to frame slots,
/// functions to indices, constructors to (datatype, index).
#[derive(Debug)]
enum Expr {
    Var(usize),
    Bool(bool),
    Con(usize, usize, Vec<Expr>),
    Call(usize, Vec<Expr>),
    And(Vec<Expr>),
    Or(Vec<Expr>),
    Not(Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Let(usize, Box<Expr>, Box<Expr>),
    Case(Box<Expr>, Vec<(Pat, Expr)>),
}

#[derive(Debug)]
enum Pat {
    Wild,
    Var(usize),
    Bool(bool),
    Con {
        ty: usize,
        index: usize,
        binds: Vec<Option<usize>>,
    },
}

#[derive(Debug)]
struct Fun {
    name: String,
    arity: usize,
    slots: usize,
    body: Expr,
}

/// A parsed and checked program: its datatypes (a [`Universe`]) and its
/// functions.
#[derive(Debug)]
pub struct Program {
    universe: Universe,
    funs: Vec<Fun>,
    by_name: HashMap<String, usize>,
}

/// A run-time value: a boolean, a position of the input (read lazily),
/// or a constructed value.
#[derive(Clone, Debug)]
pub enum Val<'a> {
    /// `True` or `False`.
    Bool(bool),
    /// A position of the input under search.
    Input(Lazy<'a, DynValue>),
    /// A constructed value: datatype, constructor index, fields.
    Con(usize, usize, Rc<Vec<Val<'a>>>),
}

struct Resolver<'p> {
    universe: &'p Universe,
    funs: &'p HashMap<String, (usize, usize)>,
    scope: Vec<(String, usize)>,
    slots: usize,
    fun: String,
}

impl Resolver<'_> {
    fn bind(&mut self, name: &str) -> usize {
        let slot = self.slots;
        self.slots += 1;
        self.scope.push((name.to_string(), slot));
        slot
    }

    fn err<T>(&self, msg: String) -> Result<T, String> {
        Err(format!("in function `{}`: {msg}", self.fun))
    }

    fn constructor(&self, name: &str, arity: usize) -> Result<(usize, usize), String> {
        let Some((dt, index)) = self.universe.constructor(name) else {
            return self.err(format!("unknown constructor `{name}`"));
        };
        let want = dt.constructors[index].fields.len();
        if want != arity {
            return self.err(format!(
                "constructor `{name}` has {want} field(s), not {arity}"
            ));
        }
        let ty = self
            .universe
            .datatypes()
            .iter()
            .position(|d| d.name == dt.name)
            .expect("declared");
        Ok((ty, index))
    }

    fn expr(&mut self, e: &Syn) -> Result<Expr, String> {
        Ok(match e {
            Syn::Var(x) => match self.scope.iter().rev().find(|(n, _)| n == x) {
                Some(&(_, slot)) => Expr::Var(slot),
                None => return self.err(format!("unknown variable `{x}`")),
            },
            Syn::Con(c, args) if c == "True" || c == "False" => {
                if !args.is_empty() {
                    return self.err(format!("`{c}` takes no arguments"));
                }
                Expr::Bool(c == "True")
            }
            Syn::Con(c, args) => {
                let (ty, index) = self.constructor(c, args.len())?;
                let args = self.exprs(args)?;
                Expr::Con(ty, index, args)
            }
            Syn::Call(f, args) => {
                let args = self.exprs(args)?;
                match f.as_str() {
                    "and" => Expr::And(args),
                    "or" => Expr::Or(args),
                    "not" if args.len() == 1 => {
                        Expr::Not(Box::new(args.into_iter().next().unwrap()))
                    }
                    "not" => return self.err("`not` takes one argument".to_string()),
                    _ => match self.funs.get(f) {
                        Some(&(idx, arity)) if arity == args.len() => Expr::Call(idx, args),
                        Some(&(_, arity)) => {
                            return self.err(format!(
                                "function `{f}` takes {arity} argument(s), not {}",
                                args.len()
                            ))
                        }
                        None => return self.err(format!("unknown function `{f}`")),
                    },
                }
            }
            Syn::If(c, t, e) => Expr::If(
                Box::new(self.expr(c)?),
                Box::new(self.expr(t)?),
                Box::new(self.expr(e)?),
            ),
            Syn::Let(x, v, body) => {
                let v = self.expr(v)?;
                let slot = self.bind(x);
                let body = self.expr(body)?;
                self.scope.pop();
                Expr::Let(slot, Box::new(v), Box::new(body))
            }
            Syn::Case(s, alts) => {
                let s = self.expr(s)?;
                let mut out = vec![];
                for (p, body) in alts {
                    let mark = self.scope.len();
                    let pat = match p {
                        SynPat::Wild => Pat::Wild,
                        SynPat::Var(x) => Pat::Var(self.bind(x)),
                        SynPat::Con(c, binds) if c == "True" || c == "False" => {
                            if !binds.is_empty() {
                                return self.err(format!("`{c}` has no fields"));
                            }
                            Pat::Bool(c == "True")
                        }
                        SynPat::Con(c, binds) => {
                            let (ty, index) = self.constructor(c, binds.len())?;
                            let binds = binds
                                .iter()
                                .map(|b| b.as_ref().map(|x| self.bind(x)))
                                .collect();
                            Pat::Con { ty, index, binds }
                        }
                    };
                    let body = self.expr(body)?;
                    self.scope.truncate(mark);
                    out.push((pat, body));
                }
                Expr::Case(Box::new(s), out)
            }
        })
    }

    fn exprs(&mut self, es: &[Syn]) -> Result<Vec<Expr>, String> {
        es.iter().map(|e| self.expr(e)).collect()
    }
}

impl Program {
    /// Parses and checks a program.
    pub fn parse(src: &str) -> Result<Program, String> {
        let mut p = Parser {
            toks: lex(src)?,
            pos: 0,
        };
        let mut types = DataTypes::new();
        let mut syn_funs: Vec<SynFun> = vec![];
        loop {
            if *p.peek() == Tok::Eof {
                break;
            }
            if p.is_keyword("data") {
                p.next();
                let name = p.upper("a datatype name")?;
                p.sym("=")?;
                let mut ctors: Vec<(String, Vec<String>)> = vec![];
                loop {
                    let line = p.line();
                    let c = p.upper("a constructor")?;
                    if c == "True" || c == "False" {
                        return Err(format!("line {line}: `{c}` is reserved for Bool"));
                    }
                    let mut fields = vec![];
                    while let Tok::Upper(t) = p.peek().clone() {
                        p.next();
                        fields.push(t);
                    }
                    ctors.push((c, fields));
                    if p.is_sym("|") {
                        p.next();
                    } else {
                        break;
                    }
                }
                let mut b = types.data(&name);
                for (c, fields) in &ctors {
                    let fields: Vec<&str> = fields.iter().map(|s| s.as_str()).collect();
                    b = b.ctor(c, &fields);
                }
            } else if p.is_keyword("fun") {
                let line = p.line();
                p.next();
                let name = p.lower("a function name")?;
                p.sym("(")?;
                let params = p.comma_list(|p| p.lower("a parameter"))?;
                p.sym("=")?;
                let body = p.expr()?;
                syn_funs.push(SynFun {
                    name,
                    params,
                    body,
                    line,
                });
            } else {
                return p.error("`data` or `fun`");
            }
        }
        let universe = types.build().map_err(|e| e.to_string())?;
        let mut table: HashMap<String, (usize, usize)> = HashMap::new();
        for (i, f) in syn_funs.iter().enumerate() {
            if ["and", "or", "not"].contains(&f.name.as_str()) {
                return Err(format!("line {}: `{}` is a builtin", f.line, f.name));
            }
            if table.insert(f.name.clone(), (i, f.params.len())).is_some() {
                return Err(format!(
                    "line {}: function `{}` is defined twice",
                    f.line, f.name
                ));
            }
        }
        let mut funs = vec![];
        for f in &syn_funs {
            let mut r = Resolver {
                universe: &universe,
                funs: &table,
                scope: vec![],
                slots: 0,
                fun: f.name.clone(),
            };
            for x in &f.params {
                r.bind(x);
            }
            let body = r.expr(&f.body)?;
            funs.push(Fun {
                name: f.name.clone(),
                arity: f.params.len(),
                slots: r.slots,
                body,
            });
        }
        let by_name = table.into_iter().map(|(k, (i, _))| (k, i)).collect();
        Ok(Program {
            universe,
            funs,
            by_name,
        })
    }

    /// The program's datatypes.
    pub fn universe(&self) -> &Universe {
        &self.universe
    }

    /// Calls a function.
    ///
    /// # Panics
    /// On an unknown function, a wrong number of arguments, or a run-time
    /// type error or missing case alternative (the search reports
    /// panics as failures).
    pub fn call<'a>(&self, name: &str, args: Vec<Val<'a>>) -> Val<'a> {
        let &f = self
            .by_name
            .get(name)
            .unwrap_or_else(|| panic!("no function `{name}`"));
        let fun = &self.funs[f];
        assert_eq!(args.len(), fun.arity, "arity of `{}`", fun.name);
        self.apply(f, args)
    }

    /// Calls a one-argument boolean function on a lazy input: the
    /// predicate to search with.
    pub fn test<'a>(&self, name: &str, input: Lazy<'a, DynValue>) -> bool {
        let v = self.call(name, vec![Val::Input(input)]);
        self.truth(&v)
    }

    fn apply<'a>(&self, f: usize, args: Vec<Val<'a>>) -> Val<'a> {
        let fun = &self.funs[f];
        let mut frame = args;
        frame.resize(fun.slots, Val::Bool(false));
        self.eval(&fun.body, &mut frame)
    }

    /// A value used as a condition (reads a `Bool` input position).
    fn truth(&self, v: &Val<'_>) -> bool {
        match v {
            Val::Bool(b) => *b,
            Val::Input(l) => l.get_bool(),
            Val::Con(ty, ..) => panic!(
                "type error: a `{}` used as a boolean",
                self.universe.datatypes()[*ty].name
            ),
        }
    }

    fn eval<'a>(&self, e: &Expr, frame: &mut Vec<Val<'a>>) -> Val<'a> {
        match e {
            Expr::Var(s) => frame[*s].clone(),
            Expr::Bool(b) => Val::Bool(*b),
            Expr::Con(ty, index, args) => {
                let vals = args.iter().map(|a| self.eval(a, frame)).collect();
                Val::Con(*ty, *index, Rc::new(vals))
            }
            Expr::Call(f, args) => {
                let vals = args.iter().map(|a| self.eval(a, frame)).collect();
                self.apply(*f, vals)
            }
            Expr::And(args) => Val::Bool(args.iter().all(|a| {
                let v = self.eval(a, frame);
                self.truth(&v)
            })),
            Expr::Or(args) => Val::Bool(args.iter().any(|a| {
                let v = self.eval(a, frame);
                self.truth(&v)
            })),
            Expr::Not(a) => {
                let v = self.eval(a, frame);
                Val::Bool(!self.truth(&v))
            }
            Expr::If(c, t, e) => {
                let v = self.eval(c, frame);
                if self.truth(&v) {
                    self.eval(t, frame)
                } else {
                    self.eval(e, frame)
                }
            }
            Expr::Let(slot, v, body) => {
                let v = self.eval(v, frame);
                frame[*slot] = v;
                self.eval(body, frame)
            }
            Expr::Case(s, alts) => {
                let v = self.eval(s, frame);
                self.case(&v, alts, frame)
            }
        }
    }

    fn case<'a>(&self, v: &Val<'a>, alts: &[(Pat, Expr)], frame: &mut Vec<Val<'a>>) -> Val<'a> {
        // An input position is read when the first constructor pattern
        // is tested (not before: `case x of { y -> ... }` reads nothing).
        let mut view = None;
        for (pat, body) in alts {
            match pat {
                Pat::Wild => return self.eval(body, frame),
                Pat::Var(slot) => {
                    frame[*slot] = v.clone();
                    return self.eval(body, frame);
                }
                Pat::Bool(b) => {
                    if self.truth(v) == *b {
                        return self.eval(body, frame);
                    }
                }
                Pat::Con { ty, index, binds } => match v {
                    Val::Con(vty, vindex, fields) => {
                        assert_eq!(vty, ty, "type error in a case");
                        if vindex == index {
                            for (b, x) in binds.iter().zip(fields.iter()) {
                                if let Some(slot) = b {
                                    frame[*slot] = x.clone();
                                }
                            }
                            return self.eval(body, frame);
                        }
                    }
                    Val::Input(l) => {
                        let view = *view.get_or_insert_with(|| {
                            let want = &self.universe.datatypes()[*ty].name;
                            let have = l.type_name();
                            assert_eq!(&*have, want, "type error: a case on a `{have}`");
                            l.view()
                        });
                        if view.index == *index {
                            for (k, b) in binds.iter().enumerate() {
                                if let Some(slot) = b {
                                    frame[*slot] = Val::Input(view.field(k));
                                }
                            }
                            return self.eval(body, frame);
                        }
                    }
                    Val::Bool(_) => panic!("type error: a case on a boolean"),
                },
            }
        }
        panic!("no case alternative matches")
    }
}

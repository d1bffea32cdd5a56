//! A TIP problem after name resolution: datatypes, constructors,
//! functions and goals with every name bound (`Program`), and the
//! elaboration from S-expressions that builds it and reports the first
//! error at its line and column.
//!
//! The interpreter (`eval`) is untyped: types are kept for the search
//! (the spaces of a goal's variables) and for the checks made here
//! (declared names, arities of types, constructors, selectors and
//! functions, patterns against the constructors of their datatype).

use crate::sexp::{Pos, Sexp, SyntaxError};
use std::collections::HashMap;

/// A type of the TIP dialect.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// A type parameter of the enclosing declaration, by index.
    Param(usize),
    /// A declared datatype applied to type arguments.
    Data(usize, Vec<Type>),
    /// An uninterpreted sort (`declare-sort`).
    Sort(usize),
    /// The booleans.
    Bool,
    /// The integers.
    Int,
    /// A function type: arguments and result.
    Fun(Vec<Type>, Box<Type>),
}

/// A declared datatype.
#[derive(Clone, Debug)]
pub struct Datatype {
    /// Its name.
    pub name: String,
    /// Its type parameters.
    pub params: Vec<String>,
    /// Its constructors (global ids), in declaration order.
    pub ctors: Vec<usize>,
}

/// A constructor.
#[derive(Clone, Debug)]
pub struct Ctor {
    /// Its name.
    pub name: String,
    /// Its datatype.
    pub datatype: usize,
    /// Its fields: selector names and types (over the datatype's parameters).
    pub fields: Vec<(String, Type)>,
}

/// A defined function (or constant).
#[derive(Clone, Debug)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// Its type parameters.
    pub tparams: Vec<String>,
    /// Its parameters' types.
    pub params: Vec<Type>,
    /// Its result type.
    pub result: Type,
    /// Its body (parameters in slots `0..params.len()`).
    pub body: Expr,
    /// Where it is declared.
    pub pos: Pos,
}

/// A lambda: its parameters' slots and body; it captures the frame of the
/// function it appears in.
#[derive(Clone, Debug)]
pub struct Lambda {
    /// The slots its arguments are bound to.
    pub params: Vec<usize>,
    /// Its body.
    pub body: Expr,
}

/// A conjecture (`prove`, `assert-not`) or a lemma (`assert`).
#[derive(Clone, Debug)]
pub struct Goal {
    /// Its type parameters.
    pub tparams: Vec<String>,
    /// Its universally quantified variables: names and types (slots
    /// `0..vars.len()`).
    pub vars: Vec<(String, Type)>,
    /// The formula.
    pub body: Expr,
    /// Where it is stated.
    pub pos: Pos,
}

/// A pattern of a `match` case.
#[derive(Clone, Debug)]
pub enum Pat {
    /// `_`: anything.
    Wild,
    /// A constructor, its fields bound to slots.
    Ctor(usize, Vec<usize>),
    /// A boolean literal.
    Bool(bool),
}

/// Integer operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    /// `+`
    Add,
    /// `-` (binary or more)
    Sub,
    /// `*`
    Mul,
    /// `div` (SMT-LIB: Euclidean)
    Div,
    /// `mod` (SMT-LIB: Euclidean)
    Mod,
}

/// Integer comparisons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// An expression, names resolved.
#[derive(Clone, Debug)]
pub enum Expr {
    /// A local variable (a slot of the frame).
    Local(usize),
    /// A named function used as a value.
    FunRef(usize),
    /// A call of a defined function.
    Call(usize, Vec<Expr>),
    /// A constructor application.
    Con(usize, Vec<Expr>),
    /// A selector: constructor, field, argument.
    Select(usize, usize, Box<Expr>),
    /// A tester `is-C`.
    Is(usize, Box<Expr>),
    /// `match`.
    Match(Box<Expr>, Vec<(Pat, Expr)>),
    /// `ite`.
    Ite(Box<[Expr; 3]>),
    /// `and` (left to right, short-circuit).
    And(Vec<Expr>),
    /// `or` (left to right, short-circuit).
    Or(Vec<Expr>),
    /// `not`.
    Not(Box<Expr>),
    /// `=>` (right associative, short-circuit).
    Implies(Vec<Expr>),
    /// `xor`.
    Xor(Vec<Expr>),
    /// `=` (chained).
    Eq(Vec<Expr>),
    /// `distinct` (pairwise).
    Distinct(Vec<Expr>),
    /// `let` (parallel bindings, evaluated when first needed, like
    /// arguments: TIP's `let fail = ... in match ...` would not terminate
    /// if evaluated before the `match`).
    Let(Vec<(usize, Expr)>, Box<Expr>),
    /// `lambda`, by index in [`Program::lambdas`].
    Lambda(usize),
    /// `@`: application of a function value.
    Apply(Box<Expr>, Vec<Expr>),
    /// An integer literal.
    Int(i64),
    /// A boolean literal.
    Bool(bool),
    /// Integer arithmetic.
    Arith(Arith, Vec<Expr>),
    /// Integer negation.
    Neg(Box<Expr>),
    /// An integer comparison (chained).
    Cmp(Cmp, Vec<Expr>),
    /// A declared constant of unknown value (`declare-const`, TIP's
    /// `undefined`).
    Undefined(usize),
    /// `exists`: variables (slots and types) and body.
    Exists(Vec<(usize, Type)>, Box<Expr>),
    /// `forall` below the top of a goal: variables and body.
    Forall(Vec<(usize, Type)>, Box<Expr>),
}

/// A TIP problem with every name resolved.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Datatypes, in declaration order; the last is the element type that
    /// type variables are instantiated at (see [`Program::elem`]).
    pub datatypes: Vec<Datatype>,
    /// Uninterpreted sorts.
    pub sorts: Vec<String>,
    /// Constructors (global ids).
    pub ctors: Vec<Ctor>,
    /// Functions.
    pub functions: Vec<Function>,
    /// Lambdas.
    pub lambdas: Vec<Lambda>,
    /// Declared constants (`declare-const`): names.
    pub consts: Vec<String>,
    /// The conjectures (`prove`, `assert-not`), in order.
    pub goals: Vec<Goal>,
    /// The lemmas (`assert`): checked, not used by the search.
    pub lemmas: Vec<Goal>,
    /// The datatype type variables and sorts are instantiated at.
    pub elem: usize,
}

impl Program {
    /// A function by name.
    pub fn function(&self, name: &str) -> Option<usize> {
        self.functions.iter().position(|f| f.name == name)
    }

    /// A constructor by name.
    pub fn ctor(&self, name: &str) -> Option<usize> {
        self.ctors.iter().position(|c| c.name == name)
    }
}

/// How deeply expressions and types may nest: deeper input is an error,
/// not a stack overflow.
pub const MAX_NESTING: usize = 2_000;

/// The element type: two values, enough to tell elements apart.
pub const ELEM_CTORS: [&str; 2] = ["a0", "a1"];

enum Name {
    Datatype(usize),
    Sort(usize),
}

#[derive(Default)]
struct Scope {
    vars: Vec<(String, usize)>,
    next: usize,
}

impl Scope {
    fn bind(&mut self, name: &str) -> usize {
        let slot = self.next;
        self.next += 1;
        self.vars.push((name.to_string(), slot));
        slot
    }
    fn lookup(&self, name: &str) -> Option<usize> {
        self.vars
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|&(_, s)| s)
    }
}

fn err<T>(at: &Sexp, message: impl Into<String>) -> Result<T, SyntaxError> {
    Err(SyntaxError::new(at.pos(), message))
}

fn atom<'s>(s: &'s Sexp, what: &str) -> Result<&'s str, SyntaxError> {
    match s.atom() {
        Some(a) => Ok(a),
        None => err(s, format!("expected {what}, found `{}`", short(s))),
    }
}

fn list<'s>(s: &'s Sexp, what: &str) -> Result<&'s [Sexp], SyntaxError> {
    match s.list() {
        Some(l) => Ok(l),
        None => err(s, format!("expected {what}, found `{}`", short(s))),
    }
}

/// At most 60 characters of an expression, for messages.
fn short(s: &Sexp) -> String {
    let text = s.to_string();
    if text.chars().count() > 60 {
        format!("{}...", text.chars().take(57).collect::<String>())
    } else {
        text
    }
}

/// Splits `(par (a b) X)` into its parameters and `X`.
fn par(s: &Sexp) -> Result<(Vec<String>, &Sexp), SyntaxError> {
    if let Some(items) = s.list() {
        if items.first().and_then(Sexp::atom) == Some("par") {
            if items.len() != 3 {
                return err(s, "`par` takes a parameter list and one body");
            }
            let params = list(&items[1], "a list of type parameters")?
                .iter()
                .map(|p| atom(p, "a type parameter").map(str::to_string))
                .collect::<Result<Vec<_>, _>>()?;
            return Ok((params, &items[2]));
        }
    }
    Ok((vec![], s))
}

struct Elaborator {
    prog: Program,
    types: HashMap<String, Name>,
    ctor_names: HashMap<String, usize>,
    selectors: HashMap<String, (usize, usize)>,
    fun_names: HashMap<String, usize>,
    const_names: HashMap<String, usize>,
    /// Per function, its parameters' names.
    param_names: Vec<Vec<String>>,
}

/// Parses and resolves a TIP file.
pub fn parse_program(src: &str) -> Result<Program, SyntaxError> {
    let forms = crate::sexp::parse(src)?;
    let mut e = Elaborator {
        prog: Program::default(),
        types: HashMap::new(),
        ctor_names: HashMap::new(),
        selectors: HashMap::new(),
        fun_names: HashMap::new(),
        const_names: HashMap::new(),
        param_names: vec![],
    };
    // Pass 1: datatypes, sorts, constants and function signatures, so that
    // definitions may refer to later ones.
    let mut bodies: Vec<(usize, Vec<String>, &Sexp, &Sexp)> = vec![];
    for form in &forms {
        let items = list(form, "a command `(...)`")?;
        let head = match items.first() {
            Some(h) => atom(h, "a command name")?,
            None => return err(form, "empty command `()`"),
        };
        match head {
            "declare-datatype" => {
                if items.len() != 3 {
                    return err(form, "`declare-datatype` takes a name and constructors");
                }
                let name = atom(&items[1], "a datatype name")?;
                let (params, ctors) = par(&items[2])?;
                let d = e.declare_type(&items[1], name, params)?;
                e.declare_ctors(d, ctors)?;
            }
            "declare-datatypes" => {
                if items.len() != 3 {
                    return err(
                        form,
                        "`declare-datatypes` takes a list of (name arity) and a list of \
                         constructor lists",
                    );
                }
                let heads = list(&items[1], "a list of (name arity)")?;
                let defs = list(&items[2], "a list of constructor lists")?;
                if heads.len() != defs.len() {
                    return err(form, "as many constructor lists as datatypes are needed");
                }
                let mut ids = vec![];
                for (h, def) in heads.iter().zip(defs) {
                    let h = list(h, "(name arity)")?;
                    let name = match h.first() {
                        Some(n) => atom(n, "a datatype name")?,
                        None => return err(form, "expected (name arity)"),
                    };
                    let (params, _) = par(def)?;
                    ids.push(e.declare_type(&h[0], name, params)?);
                }
                for (d, def) in ids.into_iter().zip(defs) {
                    let (_, ctors) = par(def)?;
                    e.declare_ctors(d, ctors)?;
                }
            }
            "declare-sort" => {
                let name = match items.get(1) {
                    Some(n) => atom(n, "a sort name")?,
                    None => return err(form, "`declare-sort` takes a name and an arity"),
                };
                if items.get(2).and_then(Sexp::atom) != Some("0") {
                    return err(form, "only sorts of arity 0 are supported");
                }
                if e.types.contains_key(name) {
                    return err(&items[1], format!("type `{name}` is declared twice"));
                }
                e.types
                    .insert(name.to_string(), Name::Sort(e.prog.sorts.len()));
                e.prog.sorts.push(name.to_string());
            }
            "declare-const" => {
                let name = match items.get(1) {
                    Some(n) => atom(n, "a constant name")?,
                    None => return err(form, "`declare-const` takes a name and a type"),
                };
                e.check_fresh(&items[1], name)?;
                e.const_names.insert(name.to_string(), e.prog.consts.len());
                e.prog.consts.push(name.to_string());
            }
            "define-fun" | "define-fun-rec" => {
                if items.len() != 5 && items.len() != 4 {
                    return err(
                        form,
                        format!("`{head}` takes a name, parameters, a result type and a body"),
                    );
                }
                let (f, tparams) = if items.len() == 5 {
                    e.declare_fun(&items[1], vec![], &items[2], &items[3])?
                } else {
                    // (define-fun f (par (a) ((params) result)) body)
                    let (tparams, sig) = par(&items[2])?;
                    let sig = list(sig, "((parameters) result)")?;
                    if sig.len() != 2 {
                        return err(&items[2], "expected ((parameters) result)");
                    }
                    e.declare_fun(&items[1], tparams, &sig[0], &sig[1])?
                };
                bodies.push((f, tparams, items.last().unwrap_or(form), form));
            }
            "define-funs-rec" => {
                if items.len() != 3 {
                    return err(form, "`define-funs-rec` takes signatures and bodies");
                }
                let sigs = list(&items[1], "a list of signatures")?;
                let defs = list(&items[2], "a list of bodies")?;
                if sigs.len() != defs.len() {
                    return err(form, "as many bodies as signatures are needed");
                }
                let mut ids = vec![];
                for sig in sigs {
                    let s = list(sig, "a signature (name (parameters) result)")?;
                    let (f, tparams) = match s.len() {
                        3 => e.declare_fun(&s[0], vec![], &s[1], &s[2])?,
                        2 => {
                            let (tparams, inner) = par(&s[1])?;
                            let inner = list(inner, "((parameters) result)")?;
                            if inner.len() != 2 {
                                return err(&s[1], "expected ((parameters) result)");
                            }
                            e.declare_fun(&s[0], tparams, &inner[0], &inner[1])?
                        }
                        _ => return err(sig, "expected (name (parameters) result)"),
                    };
                    ids.push((f, tparams));
                }
                for ((f, tparams), body) in ids.into_iter().zip(defs) {
                    bodies.push((f, tparams, body, form));
                }
            }
            "prove" | "assert-not" | "assert" | "check-sat" | "set-logic" | "set-info"
            | "set-option" | "exit" => {}
            other => {
                return err(
                    &items[0],
                    format!("unknown command `{other}` (not part of the TIP dialect)"),
                )
            }
        }
    }
    e.add_elem_type()?;
    // Pass 2: bodies and goals.
    for (f, tparams, body, _) in bodies {
        let mut scope = Scope::default();
        let params = e.prog.functions[f].params.len();
        let names = e.param_names[f].clone();
        for n in names.iter().take(params) {
            scope.bind(n);
        }
        let body = e.expr(body, &tparams, &mut scope, 0)?;
        e.prog.functions[f].body = body;
    }
    for form in &forms {
        let items = form.list().unwrap_or(&[]);
        let head = items.first().and_then(Sexp::atom);
        let (is_goal, negated) = match head {
            Some("prove") => (true, false),
            Some("assert-not") => (true, false),
            Some("assert") => (false, false),
            _ => continue,
        };
        let _ = negated;
        if items.len() != 2 {
            return err(form, "expected one formula");
        }
        let goal = e.goal(&items[1], form.pos())?;
        if is_goal {
            e.prog.goals.push(goal);
        } else {
            e.prog.lemmas.push(goal);
        }
    }
    if e.prog.goals.is_empty() {
        return Err(SyntaxError::new(
            Pos { line: 1, col: 1 },
            "no conjecture: the file has no `prove` (or `assert-not`)",
        ));
    }
    Ok(e.prog)
}

impl Elaborator {
    fn check_fresh(&self, at: &Sexp, name: &str) -> Result<(), SyntaxError> {
        if self.fun_names.contains_key(name)
            || self.ctor_names.contains_key(name)
            || self.const_names.contains_key(name)
            || self.selectors.contains_key(name)
        {
            return err(at, format!("`{name}` is declared twice"));
        }
        Ok(())
    }

    fn declare_type(
        &mut self,
        at: &Sexp,
        name: &str,
        params: Vec<String>,
    ) -> Result<usize, SyntaxError> {
        if self.types.contains_key(name) || name == "Bool" || name == "Int" {
            return err(at, format!("type `{name}` is declared twice"));
        }
        let d = self.prog.datatypes.len();
        self.types.insert(name.to_string(), Name::Datatype(d));
        self.prog.datatypes.push(Datatype {
            name: name.to_string(),
            params,
            ctors: vec![],
        });
        Ok(d)
    }

    fn declare_ctors(&mut self, d: usize, ctors: &Sexp) -> Result<(), SyntaxError> {
        let params = self.prog.datatypes[d].params.clone();
        for c in list(ctors, "a list of constructors")? {
            let items = list(c, "a constructor `(name (selector type)...)`")?;
            let name = match items.first() {
                Some(n) => atom(n, "a constructor name")?,
                None => return err(c, "empty constructor `()`"),
            };
            self.check_fresh(&items[0], name)?;
            let id = self.prog.ctors.len();
            let mut fields = vec![];
            for (k, f) in items[1..].iter().enumerate() {
                let f = list(f, "a field `(selector type)`")?;
                if f.len() != 2 {
                    return err(c, "a field is `(selector type)`");
                }
                let sel = atom(&f[0], "a selector name")?;
                let ty = self.ty(&f[1], &params, 0)?;
                if self.selectors.contains_key(sel) {
                    return err(&f[0], format!("selector `{sel}` is declared twice"));
                }
                self.selectors.insert(sel.to_string(), (id, k));
                fields.push((sel.to_string(), ty));
            }
            self.ctor_names.insert(name.to_string(), id);
            self.prog.ctors.push(Ctor {
                name: name.to_string(),
                datatype: d,
                fields,
            });
            self.prog.datatypes[d].ctors.push(id);
        }
        Ok(())
    }

    /// The element type, named apart from the file's types.
    fn add_elem_type(&mut self) -> Result<(), SyntaxError> {
        let mut name = "Elem".to_string();
        while self.types.contains_key(&name) {
            name.push('\'');
        }
        let d = self.prog.datatypes.len();
        self.prog.datatypes.push(Datatype {
            name,
            params: vec![],
            ctors: vec![],
        });
        for c in ELEM_CTORS {
            let mut cname = c.to_string();
            while self.ctor_names.contains_key(&cname) {
                cname.push('\'');
            }
            let id = self.prog.ctors.len();
            self.prog.ctors.push(Ctor {
                name: cname,
                datatype: d,
                fields: vec![],
            });
            self.prog.datatypes[d].ctors.push(id);
        }
        self.prog.elem = d;
        Ok(())
    }

    fn ty(&self, s: &Sexp, params: &[String], depth: usize) -> Result<Type, SyntaxError> {
        if depth > MAX_NESTING {
            return err(s, format!("types nest deeper than {MAX_NESTING}"));
        }
        match s {
            Sexp::Atom(a, _) => {
                if let Some(i) = params.iter().rposition(|p| p == a) {
                    return Ok(Type::Param(i));
                }
                match a.as_str() {
                    "Bool" => return Ok(Type::Bool),
                    "Int" => return Ok(Type::Int),
                    _ => {}
                }
                match self.types.get(a.as_str()) {
                    Some(Name::Sort(k)) => Ok(Type::Sort(*k)),
                    Some(Name::Datatype(d)) => {
                        let want = self.prog.datatypes[*d].params.len();
                        if want != 0 {
                            return err(
                                s,
                                format!("type `{a}` takes {want} type argument(s), 0 given"),
                            );
                        }
                        Ok(Type::Data(*d, vec![]))
                    }
                    None => err(s, format!("unknown type `{a}`")),
                }
            }
            Sexp::List(items, _) => {
                let head = match items.first() {
                    Some(h) => atom(h, "a type constructor")?,
                    None => return err(s, "empty type `()`"),
                };
                if head == "=>" {
                    if items.len() < 3 {
                        return err(s, "a function type `(=> arg... result)` needs a result");
                    }
                    let mut tys = items[1..]
                        .iter()
                        .map(|t| self.ty(t, params, depth + 1))
                        .collect::<Result<Vec<_>, _>>()?;
                    let result = tys.pop().unwrap_or(Type::Bool);
                    return Ok(Type::Fun(tys, Box::new(result)));
                }
                match self.types.get(head) {
                    Some(Name::Datatype(d)) => {
                        let want = self.prog.datatypes[*d].params.len();
                        if want != items.len() - 1 {
                            return err(
                                s,
                                format!(
                                    "type `{head}` takes {want} type argument(s), {} given",
                                    items.len() - 1
                                ),
                            );
                        }
                        let args = items[1..]
                            .iter()
                            .map(|t| self.ty(t, params, depth + 1))
                            .collect::<Result<Vec<_>, _>>()?;
                        Ok(Type::Data(*d, args))
                    }
                    Some(Name::Sort(_)) => err(s, format!("sort `{head}` takes no arguments")),
                    None => err(&items[0], format!("unknown type `{head}`")),
                }
            }
        }
    }

    fn declare_fun(
        &mut self,
        name: &Sexp,
        tparams: Vec<String>,
        params: &Sexp,
        result: &Sexp,
    ) -> Result<(usize, Vec<String>), SyntaxError> {
        let fname = atom(name, "a function name")?;
        self.check_fresh(name, fname)?;
        let mut tys = vec![];
        let mut names = vec![];
        for p in list(params, "a parameter list `((x T)...)`")? {
            let p = list(p, "a parameter `(x T)`")?;
            if p.len() != 2 {
                return err(name, "a parameter is `(x T)`");
            }
            names.push(atom(&p[0], "a parameter name")?.to_string());
            tys.push(self.ty(&p[1], &tparams, 0)?);
        }
        let result = self.ty(result, &tparams, 0)?;
        let f = self.prog.functions.len();
        self.fun_names.insert(fname.to_string(), f);
        self.prog.functions.push(Function {
            name: fname.to_string(),
            tparams: tparams.clone(),
            params: tys,
            result,
            body: Expr::Bool(true),
            pos: name.pos(),
        });
        self.param_names.push(names);
        Ok((f, tparams))
    }

    fn goal(&mut self, s: &Sexp, pos: Pos) -> Result<Goal, SyntaxError> {
        let (tparams, mut body) = par(s)?;
        let mut scope = Scope::default();
        let mut vars = vec![];
        // Leading `forall`s are the goal's variables.
        while let Some(items) = body.list() {
            if items.first().and_then(Sexp::atom) != Some("forall") {
                break;
            }
            if items.len() != 3 {
                return err(body, "`forall` takes bindings and a body");
            }
            for b in list(&items[1], "bindings `((x T)...)`")? {
                let b = list(b, "a binding `(x T)`")?;
                if b.len() != 2 {
                    return err(body, "a binding is `(x T)`");
                }
                let name = atom(&b[0], "a variable name")?;
                let ty = self.ty(&b[1], &tparams, 0)?;
                scope.bind(name);
                vars.push((name.to_string(), ty));
            }
            body = &items[2];
        }
        let body = self.expr(body, &tparams, &mut scope, 0)?;
        Ok(Goal {
            tparams,
            vars,
            body,
            pos,
        })
    }

    fn expr(
        &mut self,
        s: &Sexp,
        tparams: &[String],
        scope: &mut Scope,
        depth: usize,
    ) -> Result<Expr, SyntaxError> {
        if depth > MAX_NESTING {
            return err(s, format!("expressions nest deeper than {MAX_NESTING}"));
        }
        let depth = depth + 1;
        match s {
            Sexp::Atom(a, _) => self.name(s, a, tparams, scope),
            Sexp::List(items, _) => {
                let Some(head) = items.first() else {
                    return err(s, "empty expression `()`");
                };
                let args = &items[1..];
                let head_name = match head {
                    Sexp::Atom(a, _) => a.as_str(),
                    Sexp::List(inner, _) if inner.first().and_then(Sexp::atom) == Some("_") => {
                        // ((_ f T...) args): an instantiated head.
                        match inner.get(1).and_then(Sexp::atom) {
                            Some(a) => a,
                            None => return err(head, "expected `(_ name type...)`"),
                        }
                    }
                    _ => {
                        return err(
                            head,
                            "a function value is applied with `@`, not by juxtaposition",
                        )
                    }
                };
                let sub =
                    |e: &mut Self, x: &Sexp, scope: &mut Scope| e.expr(x, tparams, scope, depth);
                let n = args.len();
                let need = |k: usize, what: &str| -> Result<(), SyntaxError> {
                    if n == k {
                        Ok(())
                    } else {
                        err(s, format!("`{what}` takes {k} argument(s), {n} given"))
                    }
                };
                let at_least = |k: usize, what: &str| -> Result<(), SyntaxError> {
                    if n >= k {
                        Ok(())
                    } else {
                        err(
                            s,
                            format!("`{what}` takes at least {k} argument(s), {n} given"),
                        )
                    }
                };
                let all = |e: &mut Self, scope: &mut Scope| -> Result<Vec<Expr>, SyntaxError> {
                    args.iter().map(|x| sub(e, x, scope)).collect()
                };
                // Local variables shadow everything but the syntax.
                let is_local = scope.lookup(head_name).is_some();
                match head_name {
                    "_" => {
                        let Some(name) = args.first() else {
                            return err(s, "expected `(_ name type...)`");
                        };
                        let name = atom(name, "a name")?;
                        for t in &args[1..] {
                            self.ty(t, tparams, 0)?;
                        }
                        self.name(&items[1], name, tparams, scope)
                    }
                    "match" => {
                        need(2, "match")?;
                        let scrutinee = sub(self, &args[0], scope)?;
                        let mut cases = vec![];
                        for case in list(&args[1], "a list of cases")? {
                            let c = list(case, "a case `(pattern body)`")?;
                            if c.len() != 2 {
                                return err(case, "a case is `(pattern body)`");
                            }
                            let mark = scope.vars.len();
                            let pat = self.pattern(&c[0], scope)?;
                            let body = sub(self, &c[1], scope)?;
                            scope.vars.truncate(mark);
                            cases.push((pat, body));
                        }
                        if cases.is_empty() {
                            return err(s, "`match` without cases");
                        }
                        Ok(Expr::Match(Box::new(scrutinee), cases))
                    }
                    "ite" => {
                        need(3, "ite")?;
                        let c = sub(self, &args[0], scope)?;
                        let t = sub(self, &args[1], scope)?;
                        let f = sub(self, &args[2], scope)?;
                        Ok(Expr::Ite(Box::new([c, t, f])))
                    }
                    "and" => Ok(Expr::And(all(self, scope)?)),
                    "or" => Ok(Expr::Or(all(self, scope)?)),
                    "xor" => Ok(Expr::Xor(all(self, scope)?)),
                    "not" => {
                        need(1, "not")?;
                        Ok(Expr::Not(Box::new(sub(self, &args[0], scope)?)))
                    }
                    "=>" if !is_local => {
                        at_least(2, "=>")?;
                        Ok(Expr::Implies(all(self, scope)?))
                    }
                    "=" if !is_local => {
                        at_least(2, "=")?;
                        Ok(Expr::Eq(all(self, scope)?))
                    }
                    "distinct" if !is_local => {
                        at_least(2, "distinct")?;
                        Ok(Expr::Distinct(all(self, scope)?))
                    }
                    "let" => {
                        need(2, "let")?;
                        let mut binds = vec![];
                        let mut names = vec![];
                        for b in list(&args[0], "bindings `((x e)...)`")? {
                            let b = list(b, "a binding `(x e)`")?;
                            if b.len() != 2 {
                                return err(&args[0], "a binding is `(x e)`");
                            }
                            names.push(atom(&b[0], "a variable name")?.to_string());
                            binds.push(sub(self, &b[1], scope)?);
                        }
                        let mark = scope.vars.len();
                        let binds = names
                            .iter()
                            .zip(binds)
                            .map(|(n, e)| (scope.bind(n), e))
                            .collect();
                        let body = sub(self, &args[1], scope)?;
                        scope.vars.truncate(mark);
                        Ok(Expr::Let(binds, Box::new(body)))
                    }
                    "lambda" | "exists" | "forall" => {
                        need(2, head_name)?;
                        let mark = scope.vars.len();
                        let mut slots = vec![];
                        for b in list(&args[0], "bindings `((x T)...)`")? {
                            let b = list(b, "a binding `(x T)`")?;
                            if b.len() != 2 {
                                return err(&args[0], "a binding is `(x T)`");
                            }
                            let name = atom(&b[0], "a variable name")?;
                            let ty = self.ty(&b[1], tparams, 0)?;
                            slots.push((scope.bind(name), ty));
                        }
                        let body = sub(self, &args[1], scope)?;
                        scope.vars.truncate(mark);
                        Ok(match head_name {
                            "lambda" => {
                                self.prog.lambdas.push(Lambda {
                                    params: slots.into_iter().map(|(s, _)| s).collect(),
                                    body,
                                });
                                Expr::Lambda(self.prog.lambdas.len() - 1)
                            }
                            "exists" => Expr::Exists(slots, Box::new(body)),
                            _ => Expr::Forall(slots, Box::new(body)),
                        })
                    }
                    "@" => {
                        at_least(1, "@")?;
                        let f = sub(self, &args[0], scope)?;
                        let xs = args[1..]
                            .iter()
                            .map(|x| sub(self, x, scope))
                            .collect::<Result<_, _>>()?;
                        Ok(Expr::Apply(Box::new(f), xs))
                    }
                    "+" | "*" if !is_local => {
                        at_least(2, head_name)?;
                        let op = if head_name == "+" {
                            Arith::Add
                        } else {
                            Arith::Mul
                        };
                        Ok(Expr::Arith(op, all(self, scope)?))
                    }
                    "-" if !is_local => {
                        at_least(1, "-")?;
                        let xs = all(self, scope)?;
                        if xs.len() == 1 {
                            Ok(Expr::Neg(Box::new(
                                xs.into_iter().next().unwrap_or(Expr::Int(0)),
                            )))
                        } else {
                            Ok(Expr::Arith(Arith::Sub, xs))
                        }
                    }
                    "div" | "mod" if !is_local => {
                        need(2, head_name)?;
                        let op = if head_name == "div" {
                            Arith::Div
                        } else {
                            Arith::Mod
                        };
                        Ok(Expr::Arith(op, all(self, scope)?))
                    }
                    "<" | "<=" | ">" | ">=" if !is_local => {
                        at_least(2, head_name)?;
                        let op = match head_name {
                            "<" => Cmp::Lt,
                            "<=" => Cmp::Le,
                            ">" => Cmp::Gt,
                            _ => Cmp::Ge,
                        };
                        Ok(Expr::Cmp(op, all(self, scope)?))
                    }
                    name => {
                        if is_local {
                            return err(
                                head,
                                format!(
                                    "`{name}` is a variable: apply a function value with \
                                     `(@ {name} ...)`"
                                ),
                            );
                        }
                        if let Some(&c) = self.ctor_names.get(name) {
                            let want = self.prog.ctors[c].fields.len();
                            need(want, name)?;
                            return Ok(Expr::Con(c, all(self, scope)?));
                        }
                        if let Some(&f) = self.fun_names.get(name) {
                            let want = self.prog.functions[f].params.len();
                            need(want, name)?;
                            return Ok(Expr::Call(f, all(self, scope)?));
                        }
                        if let Some(&(c, k)) = self.selectors.get(name) {
                            need(1, name)?;
                            let x = sub(self, &args[0], scope)?;
                            return Ok(Expr::Select(c, k, Box::new(x)));
                        }
                        if let Some(cname) = name.strip_prefix("is-") {
                            if let Some(&c) = self.ctor_names.get(cname) {
                                need(1, name)?;
                                let x = sub(self, &args[0], scope)?;
                                return Ok(Expr::Is(c, Box::new(x)));
                            }
                        }
                        err(head, format!("unknown function `{name}`"))
                    }
                }
            }
        }
    }

    fn name(
        &mut self,
        at: &Sexp,
        a: &str,
        _tparams: &[String],
        scope: &mut Scope,
    ) -> Result<Expr, SyntaxError> {
        if let Some(slot) = scope.lookup(a) {
            return Ok(Expr::Local(slot));
        }
        match a {
            "true" => return Ok(Expr::Bool(true)),
            "false" => return Ok(Expr::Bool(false)),
            _ => {}
        }
        if a.starts_with(|c: char| c.is_ascii_digit()) {
            return match a.parse::<i64>() {
                Ok(n) => Ok(Expr::Int(n)),
                Err(_) => err(
                    at,
                    format!("`{a}` is not an integer literal that fits 64 bits"),
                ),
            };
        }
        if let Some(&c) = self.ctor_names.get(a) {
            let want = self.prog.ctors[c].fields.len();
            if want != 0 {
                return err(
                    at,
                    format!("constructor `{a}` takes {want} argument(s), 0 given"),
                );
            }
            return Ok(Expr::Con(c, vec![]));
        }
        if let Some(&f) = self.fun_names.get(a) {
            if self.prog.functions[f].params.is_empty() {
                return Ok(Expr::Call(f, vec![]));
            }
            return Ok(Expr::FunRef(f));
        }
        if let Some(&k) = self.const_names.get(a) {
            return Ok(Expr::Undefined(k));
        }
        err(at, format!("unknown name `{a}`"))
    }

    fn pattern(&mut self, s: &Sexp, scope: &mut Scope) -> Result<Pat, SyntaxError> {
        let (name, vars) = match s {
            Sexp::Atom(a, _) => (a.as_str(), &[][..]),
            Sexp::List(items, _) => match items.first() {
                Some(h) => (atom(h, "a constructor")?, &items[1..]),
                None => return err(s, "empty pattern `()`"),
            },
        };
        match name {
            "_" if vars.is_empty() => return Ok(Pat::Wild),
            "true" if vars.is_empty() => return Ok(Pat::Bool(true)),
            "false" if vars.is_empty() => return Ok(Pat::Bool(false)),
            _ => {}
        }
        let Some(&c) = self.ctor_names.get(name) else {
            return err(s, format!("unknown constructor `{name}` in a pattern"));
        };
        let want = self.prog.ctors[c].fields.len();
        if want != vars.len() {
            return err(
                s,
                format!(
                    "constructor `{name}` has {want} field(s), the pattern binds {}",
                    vars.len()
                ),
            );
        }
        let mut slots = vec![];
        for v in vars {
            let v = atom(v, "a variable in a pattern")?;
            slots.push(scope.bind(v));
        }
        Ok(Pat::Ctor(c, slots))
    }
}

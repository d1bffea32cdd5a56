//! A TIP problem after name resolution: datatypes, constructors,
//! functions and goals with every name bound (`Program`), and the
//! elaboration from S-expressions that builds it and reports the first
//! error at its line and column.
//!
//! Elaboration type-checks as it resolves: declared names, arities, and
//! the types of every expression by unification (polymorphic datatypes and
//! functions instantiated at fresh variables per use, a declaration's own
//! type parameters rigid). The interpreter (`eval`) is untyped: types are
//! kept for the search (the spaces of a goal's variables).

use crate::sexp::{Pos, Sexp, SyntaxError};
use std::collections::{HashMap, HashSet};

/// A type of the TIP dialect.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Type {
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
    /// A unification variable of the type checker (never left in a
    /// [`Program`]).
    Meta(usize),
}

/// A declared datatype.
#[derive(Clone, Debug)]
pub(crate) struct Datatype {
    /// Its name.
    pub(crate) name: String,
    /// Its type parameters.
    pub(crate) params: Vec<String>,
    /// Its constructors (global ids), in declaration order.
    pub(crate) ctors: Vec<usize>,
}

/// A constructor.
#[derive(Clone, Debug)]
pub(crate) struct Ctor {
    /// Its name.
    pub(crate) name: String,
    /// Its datatype.
    pub(crate) datatype: usize,
    /// Its fields: selector names and types (over the datatype's parameters).
    pub(crate) fields: Vec<(String, Type)>,
}

/// A defined function (or constant).
#[derive(Clone, Debug)]
pub(crate) struct Function {
    /// Its name (only the tests look functions up by name).
    #[cfg(test)]
    pub(crate) name: String,
    /// Its type parameters.
    pub(crate) tparams: Vec<String>,
    /// Its parameters' types.
    pub(crate) params: Vec<Type>,
    /// Its result type.
    pub(crate) result: Type,
    /// Its body (parameters in slots `0..params.len()`).
    pub(crate) body: Expr,
}

/// A lambda: its parameters' slots and body; it captures the frame of the
/// function it appears in.
#[derive(Clone, Debug)]
pub(crate) struct Lambda {
    /// The slots its arguments are bound to.
    pub(crate) params: Vec<usize>,
    /// Its body.
    pub(crate) body: Expr,
}

/// A conjecture (`prove`, `assert-not`) or a lemma (`assert`).
#[derive(Clone, Debug)]
pub(crate) struct Goal {
    /// Its type parameters.
    pub(crate) tparams: Vec<String>,
    /// Its universally quantified variables: names and types (slots
    /// `0..vars.len()`).
    pub(crate) vars: Vec<(String, Type)>,
    /// The formula.
    pub(crate) body: Expr,
    /// Where it is stated.
    pub(crate) pos: Pos,
}

/// A pattern of a `match` case.
#[derive(Clone, Debug)]
pub(crate) enum Pat {
    /// `_`: anything.
    Wild,
    /// A constructor, its fields bound to slots.
    Ctor(usize, Vec<usize>),
    /// A boolean literal.
    Bool(bool),
}

/// Integer operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arith {
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
pub(crate) enum Cmp {
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
pub(crate) enum Expr {
    /// A local variable (a slot of the frame).
    Local(usize),
    /// A named function used as a value.
    FunRef(usize),
    /// A declared symbol without a definition (`declare-fun`, or a
    /// `declare-const` of one type), by its index in [`Program::free`].
    Free(usize),
    /// A subterm of a conjecture that does not depend on its variables,
    /// evaluated once per goal: its index among the goal's constants
    /// (`hoist`).
    Constant(usize),
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
    Undefined,
    /// `exists`: variables (slots and types) and body.
    Exists(Vec<(usize, Type)>, Box<Expr>),
    /// `forall` below the top of a goal: variables and body.
    Forall(Vec<(usize, Type)>, Box<Expr>),
    /// An argument, a constructor field or a `let` binding, evaluated when
    /// first needed; it reads only the slots below the number given, so a
    /// delayed evaluation keeps that prefix of the frame, not all of it.
    Delay(Box<Expr>, usize),
}

/// Pushes the expressions `e` is made of onto `stack` (a lambda's body
/// included): the one walk over the shape of an expression.
fn push_parts<'e>(e: &'e Expr, lambdas: &'e [Lambda], stack: &mut Vec<&'e Expr>) {
    match e {
        Expr::Call(_, xs)
        | Expr::Con(_, xs)
        | Expr::And(xs)
        | Expr::Or(xs)
        | Expr::Implies(xs)
        | Expr::Xor(xs)
        | Expr::Eq(xs)
        | Expr::Distinct(xs)
        | Expr::Arith(_, xs)
        | Expr::Cmp(_, xs) => stack.extend(xs.iter()),
        Expr::Select(_, _, x)
        | Expr::Is(_, x)
        | Expr::Not(x)
        | Expr::Neg(x)
        | Expr::Exists(_, x)
        | Expr::Forall(_, x)
        | Expr::Delay(x, _) => stack.push(x),
        Expr::Match(x, cases) => {
            stack.push(x);
            stack.extend(cases.iter().map(|(_, b)| b));
        }
        Expr::Ite(parts) => stack.extend(parts.iter()),
        Expr::Let(binds, body) => {
            stack.extend(binds.iter().map(|(_, b)| b));
            stack.push(body);
        }
        Expr::Lambda(id) => {
            if let Some(l) = lambdas.get(*id) {
                stack.push(&l.body);
            }
        }
        Expr::Apply(f, xs) => {
            stack.push(f);
            stack.extend(xs.iter());
        }
        Expr::Local(_)
        | Expr::FunRef(_)
        | Expr::Free(_)
        | Expr::Constant(_)
        | Expr::Int(_)
        | Expr::Bool(_)
        | Expr::Undefined => {}
    }
}

/// One more than the largest slot an expression reads (lambdas included),
/// walked with an explicit stack.
fn frame_need(e: &Expr, lambdas: &[Lambda]) -> usize {
    let mut need = 0;
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        if let Expr::Local(s) = e {
            need = need.max(s + 1);
        }
        push_parts(e, lambdas, &mut stack);
    }
    need
}

/// The symbols without a definition (indices into [`Program::free`]) that
/// evaluating `body` may reach, through the functions and lambdas it
/// calls, in increasing order.
pub(crate) fn free_symbols_used(prog: &Program, body: &Expr) -> Vec<usize> {
    let mut used = vec![false; prog.free.len()];
    let mut seen_functions = vec![false; prog.functions.len()];
    let mut stack = vec![body];
    while let Some(e) = stack.pop() {
        match e {
            Expr::Free(k) => used[*k] = true,
            Expr::Call(f, _) | Expr::FunRef(f) if !seen_functions[*f] => {
                seen_functions[*f] = true;
                stack.push(&prog.functions[*f].body);
            }
            _ => {}
        }
        push_parts(e, &prog.lambdas, &mut stack);
    }
    (0..used.len()).filter(|&k| used[k]).collect()
}

/// Wraps an expression evaluated by need: variables and constants need no
/// delay.
fn delayed(e: Expr, lambdas: &[Lambda]) -> Expr {
    match &e {
        Expr::Local(_)
        | Expr::Int(_)
        | Expr::Bool(_)
        | Expr::FunRef(_)
        | Expr::Free(_)
        | Expr::Constant(_)
        | Expr::Lambda(_) => e,
        Expr::Con(_, xs) if xs.is_empty() => e,
        _ => {
            let need = frame_need(&e, lambdas);
            Expr::Delay(Box::new(e), need)
        }
    }
}

/// A TIP problem with every name resolved.
#[derive(Clone, Debug, Default)]
pub(crate) struct Program {
    /// Datatypes, in declaration order; the last is the element type that
    /// type variables are instantiated at (see [`Program::elem`]).
    pub(crate) datatypes: Vec<Datatype>,
    /// Uninterpreted sorts.
    pub(crate) sorts: Vec<String>,
    /// Constructors (global ids).
    pub(crate) ctors: Vec<Ctor>,
    /// Functions.
    pub(crate) functions: Vec<Function>,
    /// Lambdas.
    pub(crate) lambdas: Vec<Lambda>,
    /// The conjectures (`prove`, `assert-not`), in order.
    pub(crate) goals: Vec<Goal>,
    /// The lemmas (`assert`): checked, not used by the search.
    pub(crate) lemmas: Vec<Goal>,
    /// The datatype type variables and sorts are instantiated at, unless
    /// [`Program::ordered`].
    pub(crate) elem: usize,
    /// The symbols declared without a definition (`declare-fun`, or a
    /// `declare-const` of one type) and their types: every conjecture is
    /// about all their values, so the search takes them as variables too.
    pub(crate) free: Vec<(String, Type)>,
    /// Whether a comparison orders values of a type other than `Int` (a
    /// type variable, in files translated from Haskell's `Ord`).
    pub(crate) ordered: bool,
}

impl Program {
    /// The type that type variables and sorts are instantiated at: the two
    /// values of the element type `elem`, enough to tell elements apart,
    /// or `Int` when the program orders them (two values are too few to
    /// sort).
    pub(crate) fn instance_type(&self) -> Type {
        if self.ordered {
            Type::Int
        } else {
            Type::Data(self.elem, vec![])
        }
    }
}

/// A type with the parameters of its declaration replaced by `args`.
pub(crate) fn substitute(t: &Type, args: &[Type]) -> Type {
    match t {
        Type::Param(i) => args.get(*i).cloned().unwrap_or(Type::Param(*i)),
        Type::Data(d, xs) => Type::Data(*d, xs.iter().map(|x| substitute(x, args)).collect()),
        Type::Fun(xs, r) => Type::Fun(
            xs.iter().map(|x| substitute(x, args)).collect(),
            Box::new(substitute(r, args)),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
impl Program {
    /// A function by name.
    pub(crate) fn function(&self, name: &str) -> Option<usize> {
        self.functions.iter().position(|f| f.name == name)
    }

    /// A constructor by name.
    pub(crate) fn ctor(&self, name: &str) -> Option<usize> {
        self.ctors.iter().position(|c| c.name == name)
    }
}

/// How deeply expressions and types may nest: deeper input is an error,
/// not a stack overflow.
const MAX_NESTING: usize = 2_000;

/// The element type: two values, enough to tell elements apart.
const ELEM_CTORS: [&str; 2] = ["a0", "a1"];

enum Name {
    Datatype(usize),
    Sort(usize),
}

#[derive(Default)]
struct Scope {
    vars: Vec<(String, usize, Type)>,
    next: usize,
}

impl Scope {
    fn bind(&mut self, name: &str, ty: Type) -> usize {
        let slot = self.next;
        self.next += 1;
        self.vars.push((name.to_string(), slot, ty));
        slot
    }
    fn lookup_typed(&self, name: &str) -> Option<(usize, Type)> {
        self.vars
            .iter()
            .rev()
            .find(|(n, _, _)| n == name)
            .map(|(_, s, t)| (*s, t.clone()))
    }
    fn lookup(&self, name: &str) -> Option<usize> {
        self.lookup_typed(name).map(|(s, _)| s)
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
    /// The declared constants (`declare-const`).
    const_names: HashSet<String>,
    /// Symbols declared without a definition, by name: their index in
    /// `Program::free`.
    free_names: HashMap<String, usize>,
    /// Per function, its parameters' names.
    param_names: Vec<Vec<String>>,
    /// The type checker's unification variables.
    metas: Vec<Option<Type>>,
}

/// Parses and resolves a TIP file.
pub(crate) fn parse_program(src: &str) -> Result<Program, SyntaxError> {
    let forms = crate::sexp::parse(src)?;
    let mut e = Elaborator {
        prog: Program::default(),
        types: HashMap::new(),
        ctor_names: HashMap::new(),
        selectors: HashMap::new(),
        fun_names: HashMap::new(),
        const_names: HashSet::new(),
        free_names: HashMap::new(),
        param_names: vec![],
        metas: vec![],
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
                match items.get(2) {
                    // `(declare-const undefined (par (a) a))`: TIP's
                    // undefined value, of every type.
                    Some(Sexp::List(par, _)) if par.first().and_then(Sexp::atom) == Some("par") => {
                        e.const_names.insert(name.to_string());
                    }
                    Some(t) => {
                        let t = e.ty(t, &[], 0)?;
                        e.declare_free(name, t);
                    }
                    None => return err(form, "`declare-const` takes a name and a type"),
                }
            }
            "declare-fun" => {
                if items.len() != 4 {
                    return err(
                        form,
                        "`declare-fun` takes a name, parameter types and a result type",
                    );
                }
                let name = atom(&items[1], "a function name")?;
                e.check_fresh(&items[1], name)?;
                let params = list(&items[2], "a list of parameter types")?
                    .iter()
                    .map(|t| e.ty(t, &[], 0))
                    .collect::<Result<Vec<_>, _>>()?;
                let result = e.ty(&items[3], &[], 0)?;
                let t = if params.is_empty() {
                    result
                } else {
                    Type::Fun(params, Box::new(result))
                };
                e.declare_free(name, t);
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
        let tys = e.prog.functions[f].params.clone();
        for (n, t) in names.iter().zip(tys).take(params) {
            scope.bind(n, t);
        }
        let (ex, t) = e.expr(body, &tparams, &mut scope, 0)?;
        let result = e.prog.functions[f].result.clone();
        e.expect(body, &t, &result, &tparams)?;
        e.prog.functions[f].body = ex;
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

/// An application `(head args...)` being elaborated: what each form's
/// method needs to elaborate the arguments and to place its errors.
struct Form<'s, 't> {
    /// The whole form, where arity errors point.
    at: &'s Sexp,
    /// Its head: a name, or `(_ name type...)`.
    head: &'s Sexp,
    /// The head's name.
    name: &'s str,
    args: &'s [Sexp],
    /// The type parameters in scope.
    tparams: &'t [String],
    /// The nesting depth of the arguments.
    depth: usize,
}

/// What a binder (`lambda`, `exists`, `forall`) binds and its body.
struct Bound {
    /// The variables' slots and types.
    vars: Vec<(usize, Type)>,
    body: Expr,
    body_type: Type,
}

impl<'s, 't> Form<'s, 't> {
    fn new(
        at: &'s Sexp,
        items: &'s [Sexp],
        tparams: &'t [String],
        depth: usize,
    ) -> Result<Self, SyntaxError> {
        let Some(head) = items.first() else {
            return err(at, "empty expression `()`");
        };
        let name = match head {
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
        Ok(Form {
            at,
            head,
            name,
            args: &items[1..],
            tparams,
            depth,
        })
    }

    /// Checks that the form has `k` arguments.
    fn takes(&self, k: usize) -> Result<(), SyntaxError> {
        let (n, what) = (self.args.len(), self.name);
        if n == k {
            Ok(())
        } else {
            err(
                self.at,
                format!("`{what}` takes {k} argument(s), {n} given"),
            )
        }
    }

    /// Checks that the form has at least `k` arguments.
    fn takes_at_least(&self, k: usize) -> Result<(), SyntaxError> {
        let (n, what) = (self.args.len(), self.name);
        if n >= k {
            Ok(())
        } else {
            err(
                self.at,
                format!("`{what}` takes at least {k} argument(s), {n} given"),
            )
        }
    }
}

impl Elaborator {
    fn declare_free(&mut self, name: &str, t: Type) {
        self.free_names
            .insert(name.to_string(), self.prog.free.len());
        self.prog.free.push((name.to_string(), t));
    }

    fn check_fresh(&self, at: &Sexp, name: &str) -> Result<(), SyntaxError> {
        if self.fun_names.contains_key(name)
            || self.ctor_names.contains_key(name)
            || self.const_names.contains(name)
            || self.free_names.contains_key(name)
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
            #[cfg(test)]
            name: fname.to_string(),
            tparams: tparams.clone(),
            params: tys,
            result,
            body: Expr::Bool(true),
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
                scope.bind(name, ty.clone());
                vars.push((name.to_string(), ty));
            }
            body = &items[2];
        }
        let (ex, t) = self.expr(body, &tparams, &mut scope, 0)?;
        self.expect(body, &t, &Type::Bool, &tparams)?;
        let body = ex;
        Ok(Goal {
            tparams,
            vars,
            body,
            pos,
        })
    }

    /// A fresh unification variable.
    fn fresh(&mut self) -> Type {
        self.metas.push(None);
        Type::Meta(self.metas.len() - 1)
    }

    fn fresh_args(&mut self, n: usize) -> Vec<Type> {
        (0..n).map(|_| self.fresh()).collect()
    }

    /// A type with solved unification variables replaced (iteratively
    /// along variable chains, recursively over the type's structure).
    fn zonk(&self, t: &Type) -> Type {
        match t {
            Type::Meta(m) => match &self.metas[*m] {
                Some(u) => self.zonk(u),
                None => t.clone(),
            },
            Type::Data(d, xs) => Type::Data(*d, xs.iter().map(|x| self.zonk(x)).collect()),
            Type::Fun(xs, r) => Type::Fun(
                xs.iter().map(|x| self.zonk(x)).collect(),
                Box::new(self.zonk(r)),
            ),
            other => other.clone(),
        }
    }

    fn occurs(&self, m: usize, t: &Type) -> bool {
        match self.zonk(t) {
            Type::Meta(n) => n == m,
            Type::Data(_, xs) => xs.iter().any(|x| self.occurs(m, x)),
            Type::Fun(xs, r) => xs.iter().any(|x| self.occurs(m, x)) || self.occurs(m, &r),
            _ => false,
        }
    }

    fn unify(&mut self, a: &Type, b: &Type) -> bool {
        let (a, b) = (self.zonk(a), self.zonk(b));
        match (&a, &b) {
            (Type::Meta(m), Type::Meta(n)) if m == n => true,
            (Type::Meta(m), t) | (t, Type::Meta(m)) => {
                if self.occurs(*m, t) {
                    return false;
                }
                self.metas[*m] = Some(t.clone());
                true
            }
            (Type::Data(d, xs), Type::Data(e, ys)) => {
                d == e && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| self.unify(x, y))
            }
            (Type::Fun(xs, r), Type::Fun(ys, s)) => {
                xs.len() == ys.len()
                    && xs.iter().zip(ys).all(|(x, y)| self.unify(x, y))
                    && self.unify(r, s)
            }
            (x, y) => x == y,
        }
    }

    /// A type in TIP syntax, for messages.
    fn show(&self, t: &Type, tparams: &[String]) -> String {
        match self.zonk(t) {
            Type::Bool => "Bool".into(),
            Type::Int => "Int".into(),
            Type::Meta(_) => "_".into(),
            Type::Param(i) => tparams.get(i).cloned().unwrap_or_else(|| "?".into()),
            Type::Sort(k) => self.prog.sorts[k].clone(),
            Type::Data(d, xs) if xs.is_empty() => self.prog.datatypes[d].name.clone(),
            Type::Data(d, xs) => {
                let xs: Vec<String> = xs.iter().map(|x| self.show(x, tparams)).collect();
                format!("({} {})", self.prog.datatypes[d].name, xs.join(" "))
            }
            Type::Fun(xs, r) => {
                let mut xs: Vec<String> = xs.iter().map(|x| self.show(x, tparams)).collect();
                xs.push(self.show(&r, tparams));
                format!("(=> {})", xs.join(" "))
            }
        }
    }

    /// Checks that the expression at `at`, of type `found`, has type `want`.
    fn expect(
        &mut self,
        at: &Sexp,
        found: &Type,
        want: &Type,
        tparams: &[String],
    ) -> Result<(), SyntaxError> {
        if self.unify(found, want) {
            return Ok(());
        }
        err(
            at,
            format!(
                "type error: `{}` has type `{}`, `{}` is expected",
                short(at),
                self.show(found, tparams),
                self.show(want, tparams)
            ),
        )
    }

    /// A constructor's result type and field types, at fresh type
    /// arguments (or at `given` ones).
    fn ctor_type(&mut self, c: usize, given: Option<Vec<Type>>) -> (Type, Vec<Type>) {
        let d = self.prog.ctors[c].datatype;
        let n = self.prog.datatypes[d].params.len();
        let args = match given {
            Some(g) if g.len() == n => g,
            _ => self.fresh_args(n),
        };
        let fields = self.prog.ctors[c]
            .fields
            .iter()
            .map(|(_, t)| substitute(t, &args))
            .collect();
        (Type::Data(d, args), fields)
    }

    /// A function's parameter and result types at fresh type arguments (or
    /// at `given` ones).
    fn fun_type(&mut self, f: usize, given: Option<Vec<Type>>) -> (Vec<Type>, Type) {
        let n = self.prog.functions[f].tparams.len();
        let args = match given {
            Some(g) if g.len() == n => g,
            _ => self.fresh_args(n),
        };
        let fun = &self.prog.functions[f];
        (
            fun.params.iter().map(|t| substitute(t, &args)).collect(),
            substitute(&fun.result, &args),
        )
    }

    /// Elaborates an expression at nesting depth `depth`: its resolved
    /// form and type.
    fn expr(
        &mut self,
        s: &Sexp,
        tparams: &[String],
        scope: &mut Scope,
        depth: usize,
    ) -> Result<(Expr, Type), SyntaxError> {
        if depth > MAX_NESTING {
            return err(s, format!("expressions nest deeper than {MAX_NESTING}"));
        }
        let items = match s {
            Sexp::Atom(a, _) => return self.name(s, a, None, scope),
            Sexp::List(items, _) => items,
        };
        let f = Form::new(s, items, tparams, depth + 1)?;
        // Local variables shadow everything but the syntax.
        let is_local = scope.lookup(f.name).is_some();
        match f.name {
            "_" => self.instantiated_name(&f, scope),
            "as" if !is_local => self.annotated(&f, scope),
            "match" => self.match_cases(&f, scope),
            "ite" => self.ite(&f, scope),
            "and" | "or" | "xor" => self.connective(&f, scope),
            "=>" if !is_local => self.connective(&f, scope),
            "not" => self.not(&f, scope),
            "=" | "distinct" if !is_local => self.equality(&f, scope),
            "let" => self.let_bindings(&f, scope),
            "lambda" => self.lambda(&f, scope),
            "exists" | "forall" => self.quantifier(&f, scope),
            "@" => self.apply(&f, scope),
            "+" | "*" | "-" | "div" | "mod" if !is_local => self.arithmetic(&f, scope),
            "<" | "<=" | ">" | ">=" if !is_local => self.comparison(&f, scope),
            name if is_local => err(
                f.head,
                format!("`{name}` is a variable: apply a function value with `(@ {name} ...)`"),
            ),
            _ => self.application(&f, scope),
        }
    }

    /// An argument of a form, elaborated.
    fn arg(
        &mut self,
        f: &Form<'_, '_>,
        x: &Sexp,
        scope: &mut Scope,
    ) -> Result<(Expr, Type), SyntaxError> {
        self.expr(x, f.tparams, scope, f.depth)
    }

    /// An argument of a form that must have type `want`.
    fn arg_of_type(
        &mut self,
        f: &Form<'_, '_>,
        x: &Sexp,
        want: &Type,
        scope: &mut Scope,
    ) -> Result<Expr, SyntaxError> {
        let (ex, t) = self.arg(f, x, scope)?;
        self.expect(x, &t, want, f.tparams)?;
        Ok(ex)
    }

    /// Every argument of a form, all of type `want`.
    fn args_of_type(
        &mut self,
        f: &Form<'_, '_>,
        want: &Type,
        scope: &mut Scope,
    ) -> Result<Vec<Expr>, SyntaxError> {
        f.args
            .iter()
            .map(|x| self.arg_of_type(f, x, want, scope))
            .collect()
    }

    /// The arguments of a call or constructor at their types `tys`, each
    /// evaluated when first needed.
    fn args_by_need(
        &mut self,
        f: &Form<'_, '_>,
        tys: &[Type],
        scope: &mut Scope,
    ) -> Result<Vec<Expr>, SyntaxError> {
        let xs = f
            .args
            .iter()
            .zip(tys)
            .map(|(x, t)| self.arg_of_type(f, x, t, scope))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(xs
            .into_iter()
            .map(|x| delayed(x, &self.prog.lambdas))
            .collect())
    }

    /// `(_ name type...)`: a name at explicit type arguments.
    fn instantiated_name(
        &mut self,
        f: &Form<'_, '_>,
        scope: &mut Scope,
    ) -> Result<(Expr, Type), SyntaxError> {
        let Some(at) = f.args.first() else {
            return err(f.at, "expected `(_ name type...)`");
        };
        let name = atom(at, "a name")?;
        let mut given = vec![];
        for t in &f.args[1..] {
            given.push(self.ty(t, f.tparams, 0)?);
        }
        self.name(at, name, Some(given), scope)
    }

    /// `(match x ((pattern body)...))`.
    fn match_cases(
        &mut self,
        f: &Form<'_, '_>,
        scope: &mut Scope,
    ) -> Result<(Expr, Type), SyntaxError> {
        f.takes(2)?;
        let (scrutinee, st) = self.arg(f, &f.args[0], scope)?;
        let result = self.fresh();
        let mut cases = vec![];
        for case in list(&f.args[1], "a list of cases")? {
            let c = list(case, "a case `(pattern body)`")?;
            if c.len() != 2 {
                return err(case, "a case is `(pattern body)`");
            }
            let mark = scope.vars.len();
            let pat = self.pattern(&c[0], &st, f.tparams, scope)?;
            let body = self.arg_of_type(f, &c[1], &result, scope)?;
            scope.vars.truncate(mark);
            cases.push((pat, body));
        }
        if cases.is_empty() {
            return err(f.at, "`match` without cases");
        }
        Ok((Expr::Match(Box::new(scrutinee), cases), result))
    }

    /// `(ite c t e)`.
    fn ite(&mut self, f: &Form<'_, '_>, scope: &mut Scope) -> Result<(Expr, Type), SyntaxError> {
        f.takes(3)?;
        let c = self.arg_of_type(f, &f.args[0], &Type::Bool, scope)?;
        let result = self.fresh();
        let t = self.arg_of_type(f, &f.args[1], &result, scope)?;
        let e = self.arg_of_type(f, &f.args[2], &result, scope)?;
        Ok((Expr::Ite(Box::new([c, t, e])), result))
    }

    /// `and`, `or`, `xor` and `=>` over booleans.
    fn connective(
        &mut self,
        f: &Form<'_, '_>,
        scope: &mut Scope,
    ) -> Result<(Expr, Type), SyntaxError> {
        if f.name == "=>" {
            f.takes_at_least(2)?;
        }
        let xs = self.args_of_type(f, &Type::Bool, scope)?;
        let e = match f.name {
            "and" => Expr::And(xs),
            "or" => Expr::Or(xs),
            "xor" => Expr::Xor(xs),
            _ => Expr::Implies(xs),
        };
        Ok((e, Type::Bool))
    }

    /// `(not x)`.
    fn not(&mut self, f: &Form<'_, '_>, scope: &mut Scope) -> Result<(Expr, Type), SyntaxError> {
        f.takes(1)?;
        let x = self.arg_of_type(f, &f.args[0], &Type::Bool, scope)?;
        Ok((Expr::Not(Box::new(x)), Type::Bool))
    }

    /// `=` and `distinct`, over arguments of one type.
    fn equality(
        &mut self,
        f: &Form<'_, '_>,
        scope: &mut Scope,
    ) -> Result<(Expr, Type), SyntaxError> {
        f.takes_at_least(2)?;
        let t = self.fresh();
        let xs = self.args_of_type(f, &t, scope)?;
        let e = if f.name == "=" {
            Expr::Eq(xs)
        } else {
            Expr::Distinct(xs)
        };
        Ok((e, Type::Bool))
    }

    /// `(let ((x e)...) body)`: parallel bindings, each evaluated when
    /// first needed.
    fn let_bindings(
        &mut self,
        f: &Form<'_, '_>,
        scope: &mut Scope,
    ) -> Result<(Expr, Type), SyntaxError> {
        f.takes(2)?;
        let mut binds = vec![];
        let mut names = vec![];
        for b in list(&f.args[0], "bindings `((x e)...)`")? {
            let b = list(b, "a binding `(x e)`")?;
            if b.len() != 2 {
                return err(&f.args[0], "a binding is `(x e)`");
            }
            names.push(atom(&b[0], "a variable name")?.to_string());
            let (e, t) = self.arg(f, &b[1], scope)?;
            binds.push((delayed(e, &self.prog.lambdas), t));
        }
        let mark = scope.vars.len();
        let binds = names
            .iter()
            .zip(binds)
            .map(|(n, (e, t))| (scope.bind(n, t), e))
            .collect();
        let (body, t) = self.arg(f, &f.args[1], scope)?;
        scope.vars.truncate(mark);
        Ok((Expr::Let(binds, Box::new(body)), t))
    }

    /// A binder `(B ((x T)...) body)`: its variables, and its body
    /// elaborated in their scope.
    fn binder(&mut self, f: &Form<'_, '_>, scope: &mut Scope) -> Result<Bound, SyntaxError> {
        f.takes(2)?;
        let mark = scope.vars.len();
        let mut slots = vec![];
        for b in list(&f.args[0], "bindings `((x T)...)`")? {
            let b = list(b, "a binding `(x T)`")?;
            if b.len() != 2 {
                return err(&f.args[0], "a binding is `(x T)`");
            }
            let name = atom(&b[0], "a variable name")?;
            let ty = self.ty(&b[1], f.tparams, 0)?;
            slots.push((scope.bind(name, ty.clone()), ty));
        }
        let (body, body_type) = self.arg(f, &f.args[1], scope)?;
        scope.vars.truncate(mark);
        Ok(Bound {
            vars: slots,
            body,
            body_type,
        })
    }

    /// `(lambda ((x T)...) body)`.
    fn lambda(&mut self, f: &Form<'_, '_>, scope: &mut Scope) -> Result<(Expr, Type), SyntaxError> {
        let Bound {
            vars,
            body,
            body_type,
        } = self.binder(f, scope)?;
        let ty = Type::Fun(
            vars.iter().map(|(_, t)| t.clone()).collect(),
            Box::new(body_type),
        );
        self.prog.lambdas.push(Lambda {
            params: vars.into_iter().map(|(s, _)| s).collect(),
            body,
        });
        Ok((Expr::Lambda(self.prog.lambdas.len() - 1), ty))
    }

    /// `exists` and `forall` below the top of a goal.
    fn quantifier(
        &mut self,
        f: &Form<'_, '_>,
        scope: &mut Scope,
    ) -> Result<(Expr, Type), SyntaxError> {
        let Bound {
            vars,
            body,
            body_type,
        } = self.binder(f, scope)?;
        self.expect(&f.args[1], &body_type, &Type::Bool, f.tparams)?;
        let e = if f.name == "exists" {
            Expr::Exists(vars, Box::new(body))
        } else {
            Expr::Forall(vars, Box::new(body))
        };
        Ok((e, Type::Bool))
    }

    /// `(@ f x...)`: a function value applied.
    fn apply(&mut self, f: &Form<'_, '_>, scope: &mut Scope) -> Result<(Expr, Type), SyntaxError> {
        f.takes_at_least(1)?;
        let (fun, ft) = self.arg(f, &f.args[0], scope)?;
        let mut xs = vec![];
        let mut tys = vec![];
        for x in &f.args[1..] {
            let (e, t) = self.arg(f, x, scope)?;
            xs.push(delayed(e, &self.prog.lambdas));
            tys.push(t);
        }
        let result = self.fresh();
        let want = Type::Fun(tys, Box::new(result.clone()));
        self.expect(&f.args[0], &ft, &want, f.tparams)?;
        Ok((Expr::Apply(Box::new(fun), xs), result))
    }

    /// `+`, `*`, `-` (negation with one argument), `div` and `mod`.
    fn arithmetic(
        &mut self,
        f: &Form<'_, '_>,
        scope: &mut Scope,
    ) -> Result<(Expr, Type), SyntaxError> {
        match f.name {
            "div" | "mod" => f.takes(2)?,
            "-" => f.takes_at_least(1)?,
            _ => f.takes_at_least(2)?,
        }
        let mut xs = self.args_of_type(f, &Type::Int, scope)?;
        let e = match f.name {
            "-" if xs.len() == 1 => Expr::Neg(Box::new(xs.remove(0))),
            "-" => Expr::Arith(Arith::Sub, xs),
            "+" => Expr::Arith(Arith::Add, xs),
            "*" => Expr::Arith(Arith::Mul, xs),
            "div" => Expr::Arith(Arith::Div, xs),
            _ => Expr::Arith(Arith::Mod, xs),
        };
        Ok((e, Type::Int))
    }

    /// `(as e T)`: SMT-LIB's annotation of an expression with its type (a
    /// constructor of a polymorphic datatype, `(as nil (list Int))`).
    fn annotated(
        &mut self,
        f: &Form<'_, '_>,
        scope: &mut Scope,
    ) -> Result<(Expr, Type), SyntaxError> {
        f.takes(2)?;
        let want = self.ty(&f.args[1], f.tparams, 0)?;
        let e = self.arg_of_type(f, &f.args[0], &want, scope)?;
        Ok((e, want))
    }

    /// `<`, `<=`, `>` and `>=`, chained.
    fn comparison(
        &mut self,
        f: &Form<'_, '_>,
        scope: &mut Scope,
    ) -> Result<(Expr, Type), SyntaxError> {
        f.takes_at_least(2)?;
        let op = match f.name {
            "<" => Cmp::Lt,
            "<=" => Cmp::Le,
            ">" => Cmp::Gt,
            _ => Cmp::Ge,
        };
        // Integers, or any other type but functions: TIP files translated
        // from Haskell compare values of a type variable (`Ord a`), which
        // the search then instantiates at `Int` (`Program::instance_type`);
        // values of datatypes compare by constructor, then fields.
        let (first, t) = self.arg(f, &f.args[0], scope)?;
        let t = self.zonk(&t);
        match &t {
            Type::Int => {}
            Type::Fun(..) => return err(&f.args[0], "functions can not be compared"),
            _ => self.prog.ordered = true,
        }
        let mut args = vec![first];
        for x in &f.args[1..] {
            args.push(self.arg_of_type(f, x, &t, scope)?);
        }
        Ok((Expr::Cmp(op, args), Type::Bool))
    }

    /// A declared name applied: a constructor, a function call, a selector
    /// or a tester `is-C`, at the type arguments of an instantiated head
    /// `((_ name type...) args...)` if given.
    fn application(
        &mut self,
        f: &Form<'_, '_>,
        scope: &mut Scope,
    ) -> Result<(Expr, Type), SyntaxError> {
        let given = match f.head {
            Sexp::List(inner, _) => Some(
                inner[2..]
                    .iter()
                    .map(|t| self.ty(t, f.tparams, 0))
                    .collect::<Result<Vec<_>, _>>()?,
            ),
            _ => None,
        };
        if let Some(&c) = self.ctor_names.get(f.name) {
            return self.construct(f, c, given, scope);
        }
        if let Some(&fun) = self.fun_names.get(f.name) {
            return self.call(f, fun, given, scope);
        }
        if let Some(&(c, k)) = self.selectors.get(f.name) {
            return self.select(f, c, k, scope);
        }
        if let Some(&k) = self.free_names.get(f.name) {
            let Type::Fun(params, result) = self.prog.free[k].1.clone() else {
                return err(
                    f.head,
                    format!("`{}` is a constant, not a function", f.name),
                );
            };
            f.takes(params.len())?;
            let xs = self.args_by_need(f, &params, scope)?;
            return Ok((Expr::Apply(Box::new(Expr::Free(k)), xs), *result));
        }
        let tested = f.name.strip_prefix("is-");
        if let Some(&c) = tested.and_then(|c| self.ctor_names.get(c)) {
            return self.test(f, c, scope);
        }
        err(f.head, format!("unknown function `{}`", f.name))
    }

    /// Constructor `c` applied to its fields.
    fn construct(
        &mut self,
        f: &Form<'_, '_>,
        c: usize,
        given: Option<Vec<Type>>,
        scope: &mut Scope,
    ) -> Result<(Expr, Type), SyntaxError> {
        f.takes(self.prog.ctors[c].fields.len())?;
        let (result, fields) = self.ctor_type(c, given);
        let xs = self.args_by_need(f, &fields, scope)?;
        Ok((Expr::Con(c, xs), result))
    }

    /// A call of defined function `fun`.
    fn call(
        &mut self,
        f: &Form<'_, '_>,
        fun: usize,
        given: Option<Vec<Type>>,
        scope: &mut Scope,
    ) -> Result<(Expr, Type), SyntaxError> {
        f.takes(self.prog.functions[fun].params.len())?;
        let (params, result) = self.fun_type(fun, given);
        let xs = self.args_by_need(f, &params, scope)?;
        Ok((Expr::Call(fun, xs), result))
    }

    /// Selector `k` of constructor `c` applied.
    fn select(
        &mut self,
        f: &Form<'_, '_>,
        c: usize,
        k: usize,
        scope: &mut Scope,
    ) -> Result<(Expr, Type), SyntaxError> {
        f.takes(1)?;
        let (whole, fields) = self.ctor_type(c, None);
        let x = self.arg_of_type(f, &f.args[0], &whole, scope)?;
        Ok((Expr::Select(c, k, Box::new(x)), fields[k].clone()))
    }

    /// The tester `is-C` of constructor `c` applied.
    fn test(
        &mut self,
        f: &Form<'_, '_>,
        c: usize,
        scope: &mut Scope,
    ) -> Result<(Expr, Type), SyntaxError> {
        f.takes(1)?;
        let (whole, _) = self.ctor_type(c, None);
        let x = self.arg_of_type(f, &f.args[0], &whole, scope)?;
        Ok((Expr::Is(c, Box::new(x)), Type::Bool))
    }

    fn name(
        &mut self,
        at: &Sexp,
        a: &str,
        given: Option<Vec<Type>>,
        scope: &mut Scope,
    ) -> Result<(Expr, Type), SyntaxError> {
        if let Some((slot, t)) = scope.lookup_typed(a) {
            return Ok((Expr::Local(slot), t));
        }
        match a {
            "true" => return Ok((Expr::Bool(true), Type::Bool)),
            "false" => return Ok((Expr::Bool(false), Type::Bool)),
            _ => {}
        }
        if a.starts_with(|c: char| c.is_ascii_digit()) {
            return match a.parse::<i64>() {
                Ok(n) => Ok((Expr::Int(n), Type::Int)),
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
            let (t, _) = self.ctor_type(c, given);
            return Ok((Expr::Con(c, vec![]), t));
        }
        if let Some(&f) = self.fun_names.get(a) {
            let (params, result) = self.fun_type(f, given);
            if params.is_empty() {
                return Ok((Expr::Call(f, vec![]), result));
            }
            return Ok((Expr::FunRef(f), Type::Fun(params, Box::new(result))));
        }
        if let Some(&k) = self.free_names.get(a) {
            return Ok((Expr::Free(k), self.prog.free[k].1.clone()));
        }
        if self.const_names.contains(a) {
            // TIP's `undefined` has every type.
            let t = self.fresh();
            return Ok((Expr::Undefined, t));
        }
        err(at, format!("unknown name `{a}`"))
    }

    fn pattern(
        &mut self,
        s: &Sexp,
        scrutinee: &Type,
        tparams: &[String],
        scope: &mut Scope,
    ) -> Result<Pat, SyntaxError> {
        let (name, vars) = match s {
            Sexp::Atom(a, _) => (a.as_str(), &[][..]),
            Sexp::List(items, _) => match items.first() {
                Some(h) => (atom(h, "a constructor")?, &items[1..]),
                None => return err(s, "empty pattern `()`"),
            },
        };
        match name {
            "_" if vars.is_empty() => return Ok(Pat::Wild),
            "true" | "false" if vars.is_empty() => {
                self.expect(s, &Type::Bool, scrutinee, tparams)?;
                return Ok(Pat::Bool(name == "true"));
            }
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
        let (whole, fields) = self.ctor_type(c, None);
        if !self.unify(&whole, scrutinee) {
            return err(
                s,
                format!(
                    "type error: the pattern `{}` is a `{}`, the value matched is a `{}`",
                    short(s),
                    self.show(&whole, tparams),
                    self.show(scrutinee, tparams)
                ),
            );
        }
        let mut slots = vec![];
        for (v, t) in vars.iter().zip(fields) {
            let v = atom(v, "a variable in a pattern")?;
            slots.push(scope.bind(v, t));
        }
        Ok(Pat::Ctor(c, slots))
    }
}

//! The search of a TIP conjecture: instantiating its variables' types as
//! run-time datatypes (`neatcheck::dynamic`), running the check driver
//! over them (through `crate::adapter`, with its budgets and reports), and
//! printing a counterexample in TIP syntax.
//!
//! Type variables and uninterpreted sorts are instantiated at one element
//! type with two values (`Elem`: `a0 | a1`), enough to tell elements apart;
//! a variable of a function type `(=> A... R)` ranges over the library's
//! functions as inputs, declared as run-time datatypes: case distinctions
//! on the arguments (a `match` on a datatype, a split `x <= k` on an
//! `Int`) and constant results, read only as far as the conjecture applies
//! the function, printed back as a `lambda`.

use super::eval::{
    Abort, DynMeaning, FunCtor, Judgement, Limits, Machine, Meanings, Settle, Value,
};
use super::hoist::hoist;
use super::program::{free_symbols_used, Goal, Program, Type};
use crate::adapter::{self, Coverage, Failure, Outcome, RunResult, Stopped};
use crate::sexp::symbol;
use neatcheck::dynamic::{DataTypes, DynValue};
use neatcheck::space::IntegerSizes;
use neatcheck::Lazy;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How far to search.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SearchOptions {
    /// The largest total size of the variables searched.
    pub(crate) max_size: usize,
    /// A wall-clock limit (reported when it cuts the search).
    pub(crate) time: Option<Duration>,
    /// A budget of runs over all sizes.
    pub(crate) runs: u64,
    /// The interpreter's limits per run; `limits.fuel` is the ceiling of
    /// an adaptive step budget, or the fixed budget.
    pub(crate) limits: Limits,
    /// Whether each run's step budget adapts to the runs before it
    /// ([`adaptive_fuel`]) or is `limits.fuel` (`--fuel`).
    pub(crate) adaptive_fuel: bool,
    /// The random phase before the size-ordered search.
    pub(crate) random: RandomPhase,
    /// Search symbolically (`--symbolic`, [`super::symbolic`]) instead of
    /// by enumeration.
    pub(crate) symbolic: bool,
}

/// The driver's random phase: `cases` inputs of sizes up to `max_size`,
/// drawn from `seed` (a counterexample it finds is reported once the
/// sizes below it are searched, or said not to be proven smallest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RandomPhase {
    /// How many random inputs (0: no random phase).
    pub(crate) cases: u64,
    /// Their largest size.
    pub(crate) max_size: usize,
    /// The seed: the same seed, the same inputs.
    pub(crate) seed: u64,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            max_size: 10,
            time: None,
            runs: 1_000_000,
            limits: Limits::default(),
            adaptive_fuel: true,
            random: RandomPhase {
                cases: 0,
                max_size: 40,
                seed: 0,
            },
            symbolic: false,
        }
    }
}

/// The smallest step budget of a run under an adaptive budget.
const MIN_FUEL: u64 = 10_000;
/// How many times the most steps a finished run took a later run may take.
const FUEL_HEADROOM: u64 = 100;

/// A run's step budget when it adapts: [`FUEL_HEADROOM`] times the most
/// steps any run before it took to reach a verdict, at least [`MIN_FUEL`]
/// and at most `ceiling`. Runs that do not terminate then cost about as
/// much as the terminating ones instead of the whole ceiling each; the
/// command runs one run at a time, so the budget of every run, and the
/// verdict, stays a function of the input and the options.
pub(crate) fn adaptive_fuel(most_steps: u64, ceiling: u64) -> u64 {
    most_steps
        .saturating_mul(FUEL_HEADROOM)
        .clamp(MIN_FUEL.min(ceiling), ceiling)
}

/// How a printed value is shown in TIP syntax.
#[derive(Clone, Debug)]
enum Shown {
    Ctor(String),
    /// A searched function's constructor (see [`FunCtor`]).
    Fun(FunShown),
}

/// What printing a function's constructor needs.
#[derive(Clone, Debug)]
struct FunShown {
    ctor: FunCtor,
    /// The root's parameter types, in TIP syntax.
    params: Vec<String>,
    /// Per field that continues the decisions: the constructors (name,
    /// arity) of the single-constructor positions its settling opens.
    opens: Vec<Vec<(String, usize)>>,
    /// A case's constructors (name, arity), in declaration order.
    cases: Vec<(String, usize)>,
}

/// How many argument positions a function may have pending before a case
/// (only arguments with several recursive fields grow the list).
const MAX_PENDING: usize = 8;
/// How many decision datatypes one goal may declare, past which new ones
/// only skip.
const MAX_DECISION_TYPES: usize = 2048;

/// A goal's variables as run-time datatypes.
#[derive(Debug)]
struct Instance {
    /// The symbols without a definition the goal reaches
    /// ([`free_symbols_used`]), searched after its variables.
    free: Vec<usize>,
    types: DataTypes,
    meanings: Meanings,
    shown: HashMap<String, Shown>,
    /// The variables' types in TIP syntax.
    var_types: Vec<String>,
}

/// The result of searching one goal.
#[derive(Debug)]
pub(crate) enum Verdict {
    /// No counterexample within the bound.
    Passed {
        /// How far the search went.
        coverage: Coverage,
        /// Runs without a verdict, by reason.
        aborted: Vec<(String, u64)>,
        /// Runs on which the conjecture's hypothesis was false.
        vacuous: u64,
    },
    /// A counterexample.
    Failed {
        /// The variables' values, `(name type) value` lines in TIP syntax.
        assignment: Vec<(String, String, String)>,
        /// The symbols declared without a definition, as SMT-LIB
        /// definitions (`(define-fun f ((x0 Nat)) Nat ...)`).
        free: Vec<String>,
        /// Its total size.
        size: u64,
        /// Whether every smaller input was searched (minimal).
        minimal: bool,
        /// Runs before it.
        runs: u64,
        /// The variables' values as searched (type variables at `Elem`),
        /// which the tests compare with brute force.
        #[cfg(test)]
        values: Vec<DynValue>,
    },
    /// The search could not start or neatcheck itself failed.
    Error(String),
}

struct Builder<'p> {
    prog: &'p Program,
    types: DataTypes,
    meanings: Meanings,
    shown: HashMap<String, Shown>,
    done: HashMap<String, ()>,
    pending: Vec<(String, Type)>,
    /// Decision datatypes to declare: name, pending types (head last) and
    /// the result type.
    decisions: Vec<(String, Vec<Type>, Type)>,
}

impl Builder<'_> {
    /// The universe name of a concrete type, declaring it (and the types
    /// it is made of) if new.
    fn name(&mut self, t: &Type) -> String {
        match t {
            Type::Param(_) | Type::Sort(_) | Type::Meta(_) => self.name(&self.prog.instance_type()),
            Type::Data(_, parts) | Type::Fun(parts, _) => {
                for part in parts {
                    self.name(part);
                }
                if let Type::Fun(_, r) = t {
                    self.name(r);
                }
                let name = universe_type_name(self.prog, t);
                self.enqueue(&name, t);
                name
            }
            _ => universe_type_name(self.prog, t),
        }
    }

    fn enqueue(&mut self, name: &str, t: &Type) {
        if self.done.insert(name.to_string(), ()).is_none() {
            self.pending.push((name.to_string(), t.clone()));
        }
    }

    fn declare(&mut self, name: &str, t: &Type) {
        match t {
            Type::Data(d, args) => {
                let d = &self.prog.datatypes[*d];
                let mut ctors = vec![];
                for &c in &d.ctors {
                    let ctor = &self.prog.ctors[c];
                    let fields: Vec<String> = ctor
                        .fields
                        .iter()
                        .map(|(_, ft)| self.name(&super::eval::substitute(ft, args)))
                        .collect();
                    let cname = universe_ctor_name(self.prog, name, c);
                    // A constant of a polymorphic datatype says its type,
                    // as SMT-LIB needs: `(as nil (list Nat))`.
                    let text = if ctor.fields.is_empty() && !args.is_empty() {
                        format!("(as {} {})", symbol(&ctor.name), tip_type(self.prog, t))
                    } else {
                        symbol(&ctor.name).into_owned()
                    };
                    self.shown.insert(cname.clone(), Shown::Ctor(text));
                    ctors.push((cname, fields));
                }
                let mut b = self.types.data(name);
                for (c, fields) in &ctors {
                    let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
                    b = b.ctor(c, &fields);
                }
                self.meanings
                    .insert(name.to_string(), DynMeaning::Data(d.ctors.clone()));
            }
            Type::Fun(args, r) => {
                let params: Vec<String> = args.iter().map(|a| tip_type(self.prog, a)).collect();
                let mut list: Vec<Type> = args.iter().rev().cloned().collect();
                let (settle, opens) = self.settle(&mut list);
                let field = self.decisions_name(&list, r);
                let root = format!("fn:{name}");
                self.types.data(name).ctor_of_size(&root, &[&field], 0);
                let ctor = FunCtor::Root(settle);
                self.shown.insert(
                    root,
                    Shown::Fun(FunShown {
                        ctor: ctor.clone(),
                        params,
                        opens: vec![opens],
                        cases: vec![],
                    }),
                );
                self.meanings
                    .insert(name.to_string(), DynMeaning::Fun(vec![ctor]));
            }
            _ => {}
        }
    }
}

impl Builder<'_> {
    /// Opens single-constructor positions and drops function ones at the
    /// head of `list` (head last), until one can be decided on: what is
    /// done, and the constructors opened (for the printer).
    fn settle(&self, list: &mut Vec<Type>) -> (Vec<Settle>, Vec<(String, usize)>) {
        let (mut steps, mut opened) = (vec![], vec![]);
        while let Some(head) = list.last() {
            match head {
                Type::Fun(..) => {
                    list.pop();
                    steps.push(Settle::Drop);
                }
                Type::Data(d, targs) if self.prog.datatypes[*d].ctors.len() == 1 => {
                    let ctor = &self.prog.ctors[self.prog.datatypes[*d].ctors[0]];
                    let targs = targs.clone();
                    list.pop();
                    for (_, ft) in ctor.fields.iter().rev() {
                        list.push(concrete(self.prog, &super::eval::substitute(ft, &targs)));
                    }
                    steps.push(Settle::Open);
                    opened.push((ctor.name.clone(), ctor.fields.len()));
                }
                _ => break,
            }
        }
        (steps, opened)
    }

    /// The datatype of a function's decisions on `list` (settled, head
    /// last) with results `r`: `r` itself when nothing is pending.
    fn decisions_name(&mut self, list: &[Type], r: &Type) -> String {
        let result = self.name(r);
        if list.is_empty() {
            return result;
        }
        let parts: Vec<String> = list.iter().map(|t| self.name(t)).collect();
        let name = format!("fn<{result}|{}>", parts.join(";"));
        if self.done.insert(name.clone(), ()).is_none() {
            self.decisions
                .push((name.clone(), list.to_vec(), r.clone()));
        }
        name
    }

    /// Declares the decisions on `list` (head last): skip the head, or
    /// decide on it (a case on a datatype or a `Bool`, a split on an
    /// `Int`), which costs 1.
    fn declare_decisions(&mut self, name: &str, list: &[Type], r: &Type) {
        let head = list.last().expect("a pending position").clone();
        let unsettled: Vec<Type> = list[..list.len() - 1].to_vec();
        let mut rest = unsettled.clone();
        let (skip_settle, skip_opens) = self.settle(&mut rest);
        let skip_field = self.decisions_name(&rest, r);
        let mut ctors: Vec<(String, Vec<String>, u32, FunShown)> = vec![(
            format!("skip:{name}"),
            vec![skip_field.clone()],
            0,
            FunShown {
                ctor: FunCtor::Skip(skip_settle.clone()),
                params: vec![],
                opens: vec![skip_opens.clone()],
                cases: vec![],
            },
        )];
        let room = self.done.len() < MAX_DECISION_TYPES;
        match &head {
            Type::Int if room => ctors.push((
                format!("split:{name}"),
                vec!["Int".to_string(), name.to_string(), name.to_string()],
                1,
                FunShown {
                    ctor: FunCtor::Split,
                    params: vec![],
                    opens: vec![],
                    cases: vec![],
                },
            )),
            Type::Bool if room => ctors.push((
                format!("case:{name}"),
                vec![skip_field.clone(), skip_field],
                1,
                FunShown {
                    ctor: FunCtor::Case(vec![skip_settle.clone(), skip_settle]),
                    params: vec![],
                    opens: vec![skip_opens.clone(), skip_opens],
                    cases: vec![("false".to_string(), 0), ("true".to_string(), 0)],
                },
            )),
            Type::Data(d, targs) if room => {
                let (mut fields, mut settles, mut opens, mut cases) =
                    (vec![], vec![], vec![], vec![]);
                let mut fits = true;
                for &c in &self.prog.datatypes[*d].ctors.clone() {
                    let ctor = &self.prog.ctors[c];
                    let mut branch = unsettled.clone();
                    for (_, ft) in ctor.fields.iter().rev() {
                        branch.push(concrete(self.prog, &super::eval::substitute(ft, targs)));
                    }
                    cases.push((ctor.name.clone(), ctor.fields.len()));
                    let (settle, opened) = self.settle(&mut branch);
                    fits &= branch.len() <= MAX_PENDING;
                    fields.push(self.decisions_name(&branch, r));
                    settles.push(settle);
                    opens.push(opened);
                }
                if fits {
                    ctors.push((
                        format!("case:{name}"),
                        fields,
                        1,
                        FunShown {
                            ctor: FunCtor::Case(settles),
                            params: vec![],
                            opens,
                            cases,
                        },
                    ));
                }
            }
            _ => {}
        }
        let mut b = self.types.data(name);
        for (c, fields, size, _) in &ctors {
            let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
            b = b.ctor_of_size(c, &fields, *size);
        }
        self.meanings.insert(
            name.to_string(),
            DynMeaning::Fun(ctors.iter().map(|c| c.3.ctor.clone()).collect()),
        );
        for (c, _, _, shown) in ctors {
            self.shown.insert(c, Shown::Fun(shown));
        }
    }
}

/// The universe name of a concrete type: its TIP name, with its type
/// arguments' names in `<..;..>`.
pub(super) fn universe_type_name(prog: &Program, t: &Type) -> String {
    match t {
        Type::Bool => "Bool".into(),
        Type::Int => "Int".into(),
        Type::Param(_) | Type::Sort(_) | Type::Meta(_) => {
            universe_type_name(prog, &prog.instance_type())
        }
        Type::Data(d, args) => {
            let base = universe_name(&prog.datatypes[*d].name);
            if args.is_empty() {
                base.into_owned()
            } else {
                let args: Vec<String> = args.iter().map(|a| universe_type_name(prog, a)).collect();
                format!("{base}<{}>", args.join(";"))
            }
        }
        Type::Fun(args, r) => {
            let mut parts: Vec<String> = args.iter().map(|a| universe_type_name(prog, a)).collect();
            parts.push(universe_type_name(prog, r));
            format!("=><{}>", parts.join(";"))
        }
    }
}

/// The universe name of constructor `ctor` of the datatype named
/// `type_name` in the universe: the constructor's own name with the
/// type's arguments, as the type's name carries them.
pub(super) fn universe_ctor_name(prog: &Program, type_name: &str, ctor: usize) -> String {
    let ctor = &prog.ctors[ctor];
    let datatype = universe_name(&prog.datatypes[ctor.datatype].name);
    let suffix = type_name.strip_prefix(&*datatype).unwrap_or("");
    format!("{}{suffix}", universe_name(&ctor.name))
}

/// A TIP name as a name of the run-time universe, which takes no white
/// space, parentheses or commas (TIP's quoted symbols may have them):
/// those and `%` are written `%XX`, so different names stay different.
fn universe_name(name: &str) -> std::borrow::Cow<'_, str> {
    let escaped = |c: char| c.is_whitespace() || matches!(c, '(' | ')' | ',' | '%');
    if !name.is_empty() && !name.contains(escaped) {
        return name.into();
    }
    let mut out = String::new();
    for c in name.chars() {
        if escaped(c) {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                let _ = write!(out, "%{b:02X}");
            }
        } else {
            out.push(c);
        }
    }
    if out.is_empty() {
        out.push('%');
    }
    out.into()
}

/// A type with type variables and sorts at the element type.
pub(super) fn concrete(prog: &Program, t: &Type) -> Type {
    match t {
        Type::Param(_) | Type::Sort(_) | Type::Meta(_) => prog.instance_type(),
        Type::Data(d, xs) => Type::Data(*d, xs.iter().map(|x| concrete(prog, x)).collect()),
        Type::Fun(xs, r) => Type::Fun(
            xs.iter().map(|x| concrete(prog, x)).collect(),
            Box::new(concrete(prog, r)),
        ),
        other => other.clone(),
    }
}

/// A concrete type in TIP syntax.
fn tip_type(prog: &Program, t: &Type) -> String {
    match t {
        Type::Bool => "Bool".into(),
        Type::Int => "Int".into(),
        Type::Param(_) | Type::Sort(_) | Type::Meta(_) => tip_type(prog, &prog.instance_type()),
        Type::Data(d, xs) if xs.is_empty() => symbol(&prog.datatypes[*d].name).into_owned(),
        Type::Data(d, xs) => {
            let xs: Vec<String> = xs.iter().map(|x| tip_type(prog, x)).collect();
            format!("({} {})", symbol(&prog.datatypes[*d].name), xs.join(" "))
        }
        Type::Fun(xs, r) => {
            let mut xs: Vec<String> = xs.iter().map(|x| tip_type(prog, x)).collect();
            xs.push(tip_type(prog, r));
            format!("(=> {})", xs.join(" "))
        }
    }
}

/// Declares the run-time datatypes of a goal's variables.
fn instantiate(prog: &Program, goal: &Goal) -> Result<Instance, String> {
    let mut b = Builder {
        prog,
        types: DataTypes::new(),
        meanings: Meanings::new(),
        shown: HashMap::new(),
        done: HashMap::new(),
        pending: vec![],
        decisions: vec![],
    };
    let mut fields = vec![];
    let mut var_types = vec![];
    // The goal's variables, then the symbols without a definition it
    // reaches.
    let free = free_symbols_used(prog, &goal.body);
    for (_, t) in goal.vars.iter().chain(free.iter().map(|&k| &prog.free[k])) {
        let t = concrete(prog, t);
        fields.push(b.name(&t));
        var_types.push(tip_type(prog, &t));
    }
    loop {
        if let Some((name, t)) = b.pending.pop() {
            b.declare(&name, &t);
        } else if let Some((name, list, r)) = b.decisions.pop() {
            b.declare_decisions(&name, &list, &r);
        } else {
            break;
        }
    }
    adapter::declare_arguments(&mut b.types, &fields);
    b.types
        .build()
        .map_err(|e| format!("the variables' types can not be searched: {e}"))?;
    Ok(Instance {
        free,
        types: b.types,
        meanings: b.meanings,
        shown: b.shown,
        var_types,
    })
}

/// What is left to print of a value in TIP syntax.
enum Task<'v> {
    Value(&'v DynValue),
    Text(String),
    /// A function's decisions with the names of the pending positions
    /// (head last).
    Decisions(&'v DynValue, Vec<String>),
}

impl Instance {
    /// A plain value in TIP syntax (iterative: values may be deep); a
    /// function as a `lambda` over `match` and `ite`.
    fn show(&self, v: &DynValue) -> String {
        let mut out = String::new();
        let mut tasks = vec![Task::Value(v)];
        let mut fresh = 0usize;
        while let Some(t) = tasks.pop() {
            let seq = match t {
                Task::Text(s) => {
                    out.push_str(&s);
                    continue;
                }
                Task::Value(DynValue::Bool(b)) => {
                    let _ = write!(out, "{b}");
                    continue;
                }
                Task::Value(DynValue::Int(i)) => {
                    if *i < 0 {
                        let _ = write!(out, "(- {})", i.unsigned_abs());
                    } else {
                        let _ = write!(out, "{i}");
                    }
                    continue;
                }
                Task::Value(DynValue::Nat(n)) => {
                    let _ = write!(out, "{n}");
                    continue;
                }
                // TIP declares no characters or strings.
                Task::Value(other @ (DynValue::Char(_) | DynValue::Str(_))) => {
                    let _ = write!(out, "{other:?}");
                    continue;
                }
                Task::Value(f @ DynValue::Data { name, fields, .. }) => {
                    match self.shown.get(&**name) {
                        Some(Shown::Fun(_)) => self.decisions_text(f, vec![], &mut fresh),
                        shown => {
                            let text = match shown {
                                Some(Shown::Ctor(c)) => c.clone(),
                                _ => name.to_string(),
                            };
                            if fields.is_empty() {
                                out.push_str(&text);
                                continue;
                            }
                            let mut seq = vec![Task::Text(format!("({text}"))];
                            for f in fields.iter() {
                                seq.push(Task::Text(" ".into()));
                                seq.push(Task::Value(f));
                            }
                            seq.push(Task::Text(")".into()));
                            seq
                        }
                    }
                }
                Task::Decisions(node, pending) => self.decisions_text(node, pending, &mut fresh),
            };
            tasks.extend(seq.into_iter().rev());
        }
        out
    }

    /// The text of a function's decision (or root) `node`, as tasks in
    /// order.
    fn decisions_text<'v>(
        &self,
        node: &'v DynValue,
        mut pending: Vec<String>,
        fresh: &mut usize,
    ) -> Vec<Task<'v>> {
        let DynValue::Data { name, fields, .. } = node else {
            return vec![Task::Value(node)];
        };
        let Some(Shown::Fun(f)) = self.shown.get(&**name) else {
            return vec![Task::Value(node)];
        };
        let mut seq = vec![];
        match &f.ctor {
            FunCtor::Root(steps) => {
                let params: Vec<String> = f.params.iter().map(|_| fresh_var(fresh)).collect();
                let binders: Vec<String> = params
                    .iter()
                    .zip(&f.params)
                    .map(|(x, t)| format!("({x} {t})"))
                    .collect();
                seq.push(Task::Text(format!("(lambda ({}) ", binders.join(" "))));
                pending = params.into_iter().rev().collect();
                self.branch(&mut seq, &fields[0], pending, steps, &f.opens[0], fresh);
                seq.push(Task::Text(")".into()));
            }
            FunCtor::Skip(steps) => {
                pending.pop();
                self.branch(&mut seq, &fields[0], pending, steps, &f.opens[0], fresh);
            }
            FunCtor::Split => {
                let head = pending.last().cloned().unwrap_or_default();
                seq.push(Task::Text(format!("(ite (<= {head} ")));
                seq.push(Task::Value(&fields[0]));
                seq.push(Task::Text(") ".into()));
                seq.push(Task::Decisions(&fields[1], pending.clone()));
                seq.push(Task::Text(" ".into()));
                seq.push(Task::Decisions(&fields[2], pending));
                seq.push(Task::Text(")".into()));
            }
            FunCtor::Case(steps) => {
                let head = pending.pop().unwrap_or_default();
                if f.cases.len() == 2 && f.cases[0].0 == "false" && f.cases[1].0 == "true" {
                    seq.push(Task::Text(format!("(ite {head} ")));
                    self.branch(
                        &mut seq,
                        &fields[1],
                        pending.clone(),
                        &steps[1],
                        &f.opens[1],
                        fresh,
                    );
                    seq.push(Task::Text(" ".into()));
                    self.branch(&mut seq, &fields[0], pending, &steps[0], &f.opens[0], fresh);
                    seq.push(Task::Text(")".into()));
                } else {
                    seq.push(Task::Text(format!("(match {head} (")));
                    for (i, (ctor, arity)) in f.cases.iter().enumerate() {
                        let (pattern, vars) = ctor_pattern(ctor, *arity, fresh);
                        seq.push(Task::Text(format!(
                            "{}({pattern} ",
                            if i > 0 { " " } else { "" }
                        )));
                        let mut branch = pending.clone();
                        branch.extend(vars.into_iter().rev());
                        self.branch(&mut seq, &fields[i], branch, &steps[i], &f.opens[i], fresh);
                        seq.push(Task::Text(")".into()));
                    }
                    seq.push(Task::Text("))".into()));
                }
            }
        }
        seq
    }

    /// Appends the tasks of the decisions at `next` once the pending
    /// positions settled: each opened position is a one-case `match`.
    fn branch<'v>(
        &self,
        seq: &mut Vec<Task<'v>>,
        next: &'v DynValue,
        mut pending: Vec<String>,
        steps: &[Settle],
        opens: &[(String, usize)],
        fresh: &mut usize,
    ) {
        let mut opened = opens.iter();
        let mut closers = 0;
        for step in steps {
            let head = pending.pop().unwrap_or_default();
            if *step == Settle::Open {
                let (ctor, arity) = opened.next().cloned().unwrap_or_default();
                let (pattern, vars) = ctor_pattern(&ctor, arity, fresh);
                seq.push(Task::Text(format!("(match {head} (({pattern} ")));
                pending.extend(vars.into_iter().rev());
                closers += 1;
            }
        }
        seq.push(if pending.is_empty() {
            Task::Value(next)
        } else {
            Task::Decisions(next, pending)
        });
        for _ in 0..closers {
            seq.push(Task::Text(")))".into()));
        }
    }
}

/// A `match` pattern of a constructor with fresh variables for its
/// fields (`Z`, `(S x3)`), and the variables.
fn ctor_pattern(ctor: &str, arity: usize, fresh: &mut usize) -> (String, Vec<String>) {
    let vars: Vec<String> = (0..arity).map(|_| fresh_var(fresh)).collect();
    let ctor = symbol(ctor);
    if vars.is_empty() {
        (ctor.into_owned(), vars)
    } else {
        (format!("({ctor} {})", vars.join(" ")), vars)
    }
}

/// A variable name not used yet in the value being printed.
fn fresh_var(fresh: &mut usize) -> String {
    *fresh += 1;
    format!("x{}", *fresh - 1)
}

/// Names of the reasons a run is aborted, in report order.
const ABORTS: [&str; 8] = [
    "step budget exhausted",
    "calls nested too deeply",
    "undefined (a partial function)",
    "integer overflow",
    "quantifier undecided",
    "unsupported",
    "cut by the time limit",
    "false only by need (by value, a computation it skips does not terminate)",
];

fn abort_index(a: &Abort) -> usize {
    match a {
        Abort::Fuel => 0,
        Abort::Depth => 1,
        Abort::Undefined => 2,
        Abort::Overflow => 3,
        Abort::Unknown => 4,
        Abort::Unsupported(_) => 5,
        Abort::Time => 6,
        Abort::LazyOnly => 7,
    }
}

/// Whether a run found false by need is a refutation, given how the same
/// run went by value (`Err`: why it is none).
pub(super) fn refuted_by_value(by_value: Result<bool, Abort>) -> Result<(), Abort> {
    match by_value {
        Ok(false) => Ok(()),
        // A skipped computation that is undefined (TIP's unspecified
        // value), beyond 64 bits or a quantifier the interpreter can not
        // decide has a value all the same, and the lazy run shows the
        // verdict does not depend on it.
        Err(Abort::Undefined | Abort::Overflow | Abort::Unknown) => Ok(()),
        Err(Abort::Fuel | Abort::Depth) => Err(Abort::LazyOnly),
        Err(other) => Err(other),
        Ok(true) => Err(Abort::Unsupported(
            "a run that evaluated by value is true and by need false",
        )),
    }
}

/// The values of a goal's variables on the input `x`: the goal's own, in
/// order, and its symbols without a definition (`free_used`, searched
/// after them), by their index in `Program::free`.
fn bind_variables<'r>(
    x: Lazy<'r, DynValue>,
    prog: &Program,
    goal: &Goal,
    free_used: &[usize],
) -> (Vec<Value<'r>>, Vec<Option<Value<'r>>>) {
    let mut inputs: Vec<Value<'r>> = x.view().fields().map(Value::Input).collect();
    let mut free = vec![None; prog.free.len()];
    for (&k, v) in free_used.iter().zip(inputs.split_off(goal.vars.len())) {
        free[k] = Some(v);
    }
    (inputs, free)
}

/// Searches one goal for a counterexample: iterative deepening over the
/// total size of its variables, through the check driver. Integers are
/// sized linearly (`n` costs `|n|`).
pub(crate) fn search_goal(prog: &Program, goal: &Goal, options: &SearchOptions) -> Verdict {
    let instance = match instantiate(prog, goal) {
        Ok(i) => i,
        Err(e) => return Verdict::Error(e),
    };
    let aborted: Vec<AtomicU64> = (0..ABORTS.len()).map(|_| AtomicU64::new(0)).collect();
    let unsupported = std::sync::Mutex::new(None::<&'static str>);
    let mut limits = options.limits;
    limits.deadline = options.time.map(|t| std::time::Instant::now() + t);
    let most_steps = AtomicU64::new(0);
    let vacuous = AtomicU64::new(0);
    let meanings = &instance.meanings;
    // What does not depend on the variables is computed once, not per run.
    let (body, constants) = hoist(prog, meanings, limits, &goal.body);
    let (body, constants) = (&body, &constants[..]);
    let discard = |a: Abort| {
        if let Abort::Unsupported(what) = a {
            if let Ok(mut u) = unsupported.lock() {
                u.get_or_insert(what);
            }
        }
        aborted[abort_index(&a)].fetch_add(1, Ordering::Relaxed);
        RunResult::Discarded
    };
    let prop = |x: Lazy<'_, DynValue>| -> RunResult {
        let mut run_limits = limits;
        if options.adaptive_fuel {
            run_limits.fuel = adaptive_fuel(most_steps.load(Ordering::Relaxed), limits.fuel);
        }
        let (inputs, free) = bind_variables(x, prog, goal, &instance.free);
        let mut machine = Machine::new(prog, meanings, run_limits)
            .with_free(free)
            .with_constants(constants);
        let verdict = machine.judge(body, inputs);
        if verdict.is_ok() {
            most_steps.fetch_max(machine.steps(), Ordering::Relaxed);
        }
        match verdict {
            Ok(Judgement::Holds) => RunResult::True,
            // Neither a pass nor a failure: the driver counts it apart, and
            // its random phase avoids what the hypothesis read.
            Ok(Judgement::Vacuous) => {
                vacuous.fetch_add(1, Ordering::Relaxed);
                RunResult::Discarded
            }
            Ok(Judgement::Fails) => {
                // Confirmed by value, with the whole ceiling: a false that
                // rests on a skipped computation that does not terminate
                // is no refutation (see `Machine::strict`).
                let (inputs, free) = bind_variables(x, prog, goal, &instance.free);
                let mut strict = Machine::new(prog, meanings, limits)
                    .with_free(free)
                    .with_constants(constants)
                    .strict();
                match refuted_by_value(strict.goal(body, inputs)) {
                    Ok(()) => RunResult::False(None),
                    Err(why) => discard(why),
                }
            }
            Err(a) => discard(a),
        }
    };
    match adapter::check(
        instance.types.clone(),
        options,
        Some(IntegerSizes::Linear),
        prop,
    ) {
        Outcome::Broken(e) => Verdict::Error(e),
        Outcome::Passed(coverage) => {
            let mut aborted: Vec<(String, u64)> = ABORTS
                .iter()
                .zip(&aborted)
                .map(|(n, c)| (n.to_string(), c.load(Ordering::Relaxed)))
                .filter(|(_, c)| *c > 0)
                .collect();
            if let Ok(Some(what)) = unsupported.lock().map(|u| *u) {
                for (n, _) in &mut aborted {
                    if n == "unsupported" {
                        *n = format!("unsupported ({what})");
                    }
                }
            }
            Verdict::Passed {
                coverage,
                aborted,
                vacuous: vacuous.load(Ordering::Relaxed),
            }
        }
        Outcome::Failed(failure) => failed(prog, &instance, goal, failure),
    }
}

/// `(lambda BINDERS BODY)` as its binders and body (`None` for any other
/// text). Quoted symbols may hold parentheses: they are skipped whole.
fn lambda_parts(text: &str) -> Option<(&str, &str)> {
    let inner = text.strip_prefix("(lambda ")?.strip_suffix(')')?;
    let (mut depth, mut quoted) = (0usize, false);
    for (i, c) in inner.char_indices() {
        match c {
            '|' => quoted = !quoted,
            '(' if !quoted => depth += 1,
            ')' if !quoted => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some((&inner[..=i], inner[i + 1..].trim_start()));
                }
            }
            _ => {}
        }
    }
    None
}

/// The verdict of a counterexample found outside the check driver (the
/// symbolic search): its arguments as the universe's values.
pub(super) fn failed_with(
    prog: &Program,
    goal: &Goal,
    arguments: Vec<DynValue>,
    size: u64,
    minimal: bool,
    runs: u64,
) -> Verdict {
    match instantiate(prog, goal) {
        Ok(instance) => failed(
            prog,
            &instance,
            goal,
            Failure {
                arguments,
                size,
                minimal,
                runs,
                reason: None,
                pattern: String::new(),
            },
        ),
        Err(e) => Verdict::Error(e),
    }
}

fn failed(prog: &Program, instance: &Instance, goal: &Goal, failure: Failure) -> Verdict {
    let assignment = goal
        .vars
        .iter()
        .zip(&instance.var_types)
        .zip(&failure.arguments)
        .map(|(((name, _), ty), v)| (name.clone(), ty.clone(), instance.show(v)))
        .collect();
    let free = instance
        .free
        .iter()
        .map(|&k| &prog.free[k])
        .zip(&instance.var_types[goal.vars.len()..])
        .zip(&failure.arguments[goal.vars.len()..])
        .map(|(((name, t), ty), v)| {
            let value = instance.show(v);
            let name = symbol(name);
            // A function symbol as SMT-LIB defines one: its parameters,
            // its result type, its body.
            if let (Type::Fun(_, result), Some((binders, body))) = (t, lambda_parts(&value)) {
                let result = tip_type(prog, &concrete(prog, result));
                return format!("(define-fun {name} {binders} {result} {body})");
            }
            format!("(define-fun {name} () {ty} {value})")
        })
        .collect();
    Verdict::Failed {
        assignment,
        free,
        size: failure.size,
        minimal: failure.minimal,
        runs: failure.runs,
        #[cfg(test)]
        values: failure.arguments,
    }
}

/// The report of a verdict, as the command prints it.
pub(crate) fn report(
    prog: &Program,
    goal: &Goal,
    options: &SearchOptions,
    verdict: &Verdict,
) -> String {
    let mut s = String::new();
    match verdict {
        Verdict::Passed {
            coverage,
            aborted,
            vacuous,
        } => {
            match coverage.bound {
                Some(b) => {
                    let _ = write!(s, "no counterexample up to size {b}");
                }
                None => {
                    let _ = write!(s, "no counterexample found (no size searched completely)");
                }
            }
            let _ = write!(s, " ({} runs", coverage.runs);
            if *vacuous > 0 {
                let _ = write!(s, ", {vacuous} with the hypothesis false");
            }
            match coverage.stopped {
                Stopped::TimeLimit(at) => {
                    let _ = write!(
                        s,
                        "; the time limit of {:?} stopped the search inside size {at}",
                        options.time.unwrap_or_default(),
                    );
                }
                Stopped::RunBudget(at) => {
                    let _ = write!(
                        s,
                        "; the budget of {} runs stopped the search inside size {at}",
                        options.runs,
                    );
                }
                Stopped::AllInputs => {
                    let _ = write!(s, "; every value searched");
                }
                Stopped::AtSizeBound => {}
            }
            s.push(')');
            s.push('\n');
            if !aborted.is_empty() {
                let parts: Vec<String> = aborted.iter().map(|(n, c)| format!("{c} {n}")).collect();
                let _ = writeln!(s, "  runs without a verdict: {}", parts.join(", "));
                if options.adaptive_fuel && aborted.iter().any(|(n, _)| n == ABORTS[0]) {
                    let _ = writeln!(
                        s,
                        "  (each run's step budget is {FUEL_HEADROOM} times the most steps a \
                         run before it took, up to {}; `--fuel N` fixes it at N)",
                        options.limits.fuel
                    );
                }
            }
        }
        Verdict::Failed {
            assignment,
            free,
            size,
            minimal,
            runs,
            ..
        } => {
            let _ = writeln!(
                s,
                "counterexample of size {size}{} after {runs} runs:",
                if *minimal { " (smallest)" } else { "" }
            );
            for (name, ty, value) in assignment {
                let _ = writeln!(s, "  (define-fun {} () {ty} {value})", symbol(name));
            }
            for definition in free {
                let _ = writeln!(s, "  {definition}");
            }
            if !goal.tparams.is_empty() && prog.ordered {
                let _ = writeln!(s, "  ; type variables at Int (the definitions order them)");
            } else if !goal.tparams.is_empty() {
                let _ = writeln!(
                    s,
                    "  ; type variables at (declare-datatype {} (({}) ({})))",
                    prog.datatypes[prog.elem].name,
                    prog.ctors[prog.datatypes[prog.elem].ctors[0]].name,
                    prog.ctors[prog.datatypes[prog.elem].ctors[1]].name
                );
            }
        }
        Verdict::Error(e) => {
            let _ = writeln!(s, "error: {e}");
        }
    }
    s
}

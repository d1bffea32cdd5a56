//! The search of a TIP conjecture: instantiating its variables' types as
//! run-time datatypes (`neatcheck::dynamic`), running the check driver
//! over them (through `crate::adapter`, with its budgets and reports), and
//! printing a counterexample in TIP syntax.
//!
//! Type variables and uninterpreted sorts are instantiated at one element
//! type with two values (`Elem`: `a0 | a1`), enough to tell elements apart;
//! a variable of a function type `(=> A... R)` ranges over the constant
//! functions (whose result is searched lazily) and, where an argument has
//! type `R`, the projections on it.

use super::eval::{Abort, DynMeaning, FunCtor, Limits, Machine, Meanings, Value};
use super::program::{Goal, Program, Type};
use crate::adapter::{self, Coverage, Failure, Outcome, RunResult, Stopped};
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
    /// The interpreter's limits per run.
    pub(crate) limits: Limits,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            max_size: 10,
            time: None,
            runs: 1_000_000,
            limits: Limits::default(),
        }
    }
}

/// How a printed value is shown in TIP syntax.
#[derive(Clone, Debug)]
enum Shown {
    Ctor(String),
    Fun { args: Vec<String>, ctor: FunCtor },
}

/// A goal's variables as run-time datatypes.
#[derive(Debug)]
struct Instance {
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
    },
    /// A counterexample.
    Failed {
        /// The variables' values, `(name type) value` lines in TIP syntax.
        assignment: Vec<(String, String, String)>,
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
}

impl Builder<'_> {
    /// The universe name of a concrete type, declaring it if new.
    fn name(&mut self, t: &Type) -> String {
        match t {
            Type::Bool => "Bool".into(),
            Type::Int => "Int".into(),
            Type::Param(_) | Type::Sort(_) | Type::Meta(_) => {
                self.name(&Type::Data(self.prog.elem, vec![]))
            }
            Type::Data(d, args) => {
                let base = &self.prog.datatypes[*d].name;
                let name = if args.is_empty() {
                    base.clone()
                } else {
                    let args: Vec<String> = args.iter().map(|a| self.name(a)).collect();
                    format!("{base}<{}>", args.join(";"))
                };
                self.enqueue(&name, t);
                name
            }
            Type::Fun(args, r) => {
                let mut parts: Vec<String> = args.iter().map(|a| self.name(a)).collect();
                parts.push(self.name(r));
                let name = format!("=><{}>", parts.join(";"));
                self.enqueue(&name, t);
                name
            }
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
                let suffix = name.strip_prefix(&*d.name).unwrap_or("").to_string();
                let mut ctors = vec![];
                for &c in &d.ctors {
                    let ctor = &self.prog.ctors[c];
                    let fields: Vec<String> = ctor
                        .fields
                        .iter()
                        .map(|(_, ft)| self.name(&super::eval::substitute(ft, args)))
                        .collect();
                    let cname = format!("{}{suffix}", ctor.name);
                    self.shown
                        .insert(cname.clone(), Shown::Ctor(ctor.name.clone()));
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
                let result = self.name(r);
                let arg_texts: Vec<String> = args.iter().map(|a| tip_type(self.prog, a)).collect();
                let mut ctors = vec![(format!("const:{name}"), vec![result], FunCtor::Const)];
                for (i, a) in args.iter().enumerate() {
                    if a == &**r {
                        ctors.push((format!("proj{i}:{name}"), vec![], FunCtor::Proj(i)));
                    }
                }
                let mut b = self.types.data(name);
                for (c, fields, _) in &ctors {
                    let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
                    b = b.ctor(c, &fields);
                }
                for (c, _, kind) in &ctors {
                    self.shown.insert(
                        c.clone(),
                        Shown::Fun {
                            args: arg_texts.clone(),
                            ctor: *kind,
                        },
                    );
                }
                self.meanings.insert(
                    name.to_string(),
                    DynMeaning::Fun(ctors.iter().map(|c| c.2).collect()),
                );
            }
            _ => {}
        }
    }
}

/// A type with type variables and sorts at the element type.
fn concrete(prog: &Program, t: &Type) -> Type {
    match t {
        Type::Param(_) | Type::Sort(_) | Type::Meta(_) => Type::Data(prog.elem, vec![]),
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
        Type::Param(_) | Type::Sort(_) | Type::Meta(_) => prog.datatypes[prog.elem].name.clone(),
        Type::Data(d, xs) if xs.is_empty() => prog.datatypes[*d].name.clone(),
        Type::Data(d, xs) => {
            let xs: Vec<String> = xs.iter().map(|x| tip_type(prog, x)).collect();
            format!("({} {})", prog.datatypes[*d].name, xs.join(" "))
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
    };
    let mut fields = vec![];
    let mut var_types = vec![];
    for (_, t) in &goal.vars {
        let t = concrete(prog, t);
        fields.push(b.name(&t));
        var_types.push(tip_type(prog, &t));
    }
    while let Some((name, t)) = b.pending.pop() {
        b.declare(&name, &t);
    }
    adapter::declare_arguments(&mut b.types, &fields);
    b.types
        .build()
        .map_err(|e| format!("the variables' types can not be searched: {e}"))?;
    Ok(Instance {
        types: b.types,
        meanings: b.meanings,
        shown: b.shown,
        var_types,
    })
}

impl Instance {
    /// A plain value in TIP syntax (iterative: values may be deep).
    fn show(&self, v: &DynValue) -> String {
        enum Task<'v> {
            Value(&'v DynValue),
            Text(String),
        }
        let mut out = String::new();
        let mut tasks = vec![Task::Value(v)];
        while let Some(t) = tasks.pop() {
            match t {
                Task::Text(s) => out.push_str(&s),
                Task::Value(DynValue::Bool(b)) => {
                    let _ = write!(out, "{b}");
                }
                Task::Value(DynValue::Int(i)) => {
                    if *i < 0 {
                        let _ = write!(out, "(- {})", i.unsigned_abs());
                    } else {
                        let _ = write!(out, "{i}");
                    }
                }
                Task::Value(DynValue::Nat(n)) => {
                    let _ = write!(out, "{n}");
                }
                Task::Value(DynValue::Data { name, fields, .. }) => match self.shown.get(&**name) {
                    Some(Shown::Fun { args, ctor }) => {
                        let params: Vec<String> = args
                            .iter()
                            .enumerate()
                            .map(|(i, a)| format!("(x{i} {a})"))
                            .collect();
                        let _ = write!(out, "(lambda ({}) ", params.join(" "));
                        tasks.push(Task::Text(")".into()));
                        match ctor {
                            FunCtor::Const => {
                                if let Some(f) = fields.first() {
                                    tasks.push(Task::Value(f));
                                }
                            }
                            FunCtor::Proj(i) => tasks.push(Task::Text(format!("x{i}"))),
                        }
                    }
                    shown => {
                        let text = match shown {
                            Some(Shown::Ctor(c)) => c.clone(),
                            _ => name.to_string(),
                        };
                        if fields.is_empty() {
                            out.push_str(&text);
                        } else {
                            let _ = write!(out, "({text}");
                            tasks.push(Task::Text(")".into()));
                            for f in fields.iter().rev() {
                                tasks.push(Task::Value(f));
                                tasks.push(Task::Text(" ".into()));
                            }
                        }
                    }
                },
            }
        }
        out
    }
}

/// Names of the reasons a run is aborted, in report order.
const ABORTS: [&str; 7] = [
    "step budget exhausted",
    "calls nested too deeply",
    "undefined (a partial function)",
    "integer overflow",
    "quantifier undecided",
    "unsupported",
    "cut by the time limit",
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
    }
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
    let meanings = &instance.meanings;
    let prop = |x: Lazy<'_, DynValue>| -> RunResult {
        let inputs: Vec<Value<'_>> = x.view().fields().map(Value::Input).collect();
        let mut machine = Machine::new(prog, meanings, limits);
        match machine.goal(&goal.body, inputs) {
            Ok(true) => RunResult::True,
            Ok(false) => RunResult::False(None),
            Err(a) => {
                if let Abort::Unsupported(what) = a {
                    if let Ok(mut u) = unsupported.lock() {
                        u.get_or_insert(what);
                    }
                }
                aborted[abort_index(&a)].fetch_add(1, Ordering::Relaxed);
                RunResult::Discarded
            }
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
            Verdict::Passed { coverage, aborted }
        }
        Outcome::Failed(failure) => failed(&instance, goal, failure),
    }
}

fn failed(instance: &Instance, goal: &Goal, failure: Failure) -> Verdict {
    let assignment = goal
        .vars
        .iter()
        .zip(&instance.var_types)
        .zip(&failure.arguments)
        .map(|(((name, _), ty), v)| (name.clone(), ty.clone(), instance.show(v)))
        .collect();
    Verdict::Failed {
        assignment,
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
        Verdict::Passed { coverage, aborted } => {
            match coverage.bound {
                Some(b) => {
                    let _ = write!(s, "no counterexample up to size {b}");
                }
                None => {
                    let _ = write!(s, "no counterexample found (no size searched completely)");
                }
            }
            let _ = write!(s, " ({} runs", coverage.runs);
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
            }
        }
        Verdict::Failed {
            assignment,
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
                let _ = writeln!(s, "  (define-fun {name} () {ty} {value})");
            }
            if !goal.tparams.is_empty() {
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

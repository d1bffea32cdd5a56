//! The interpreter of resolved TIP programs over lazy inputs: values
//! (`Value`, whose input positions stay `Lazy` handles until a `match`, a
//! selector, `=` or arithmetic needs them), call-by-value evaluation with a
//! step budget (fuel) and a call-depth bound, and why a run stopped
//! without a verdict (`Abort`).
//!
//! Reading a handle reads one position of the value under search, so the
//! search refines only what the definitions demand: `(= (f xs) nil)` on a
//! function that stops at the first `cons` leaves the rest of `xs` unread.

use super::program::{Arith, Cmp, Expr, Pat, Program, Type};
use neatcheck::dynamic::DynValue;
use neatcheck::Lazy;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

/// What a constructor of a searched datatype stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum DynMeaning {
    /// A TIP datatype instance: the program's constructor of each index.
    Data(Vec<usize>),
    /// A searched function: what each constructor computes.
    Fun(Vec<FunCtor>),
}

/// A constructor of a searched function's datatypes (the library's
/// functions as inputs, over run-time datatypes): the function's root,
/// then its decisions on the first pending argument position. Each
/// carries how the pending positions settle after it ([`Settle`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum FunCtor {
    /// The function itself (free): its one field is its first decision,
    /// or its result when it takes nothing that can be decided on.
    Root(Vec<Settle>),
    /// Does not look at the first pending position (free).
    Skip(Vec<Settle>),
    /// A case on the first pending position's constructor (`false`,
    /// `true` for a `Bool`): one field per constructor, in declaration
    /// order, each with how its fields settle.
    Case(Vec<Vec<Settle>>),
    /// `x <= key` on an `Int`: fields the key, then the decisions for
    /// `x <= key` and for `x > key`.
    Split,
}

/// What is done to the first pending position before a decision, by its
/// type: a single-constructor value is opened (its fields become pending),
/// a function is dropped (functions are not decided on). A position that
/// can be decided on is left for the decision: it is never evaluated
/// unless a decision looks at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Settle {
    Open,
    Drop,
}

/// The meaning of every searched datatype, by its name in the universe.
pub(crate) type Meanings = HashMap<String, DynMeaning>;

/// Why a run ended without a verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Abort {
    /// The step budget ran out (a definition that does not terminate on
    /// this input, or a very slow one).
    Fuel,
    /// Calls nested deeper than the bound.
    Depth,
    /// A partial function outside its domain: a `match` without a case
    /// for the value, a selector of another constructor, a declared
    /// constant (TIP's `undefined`), a division by zero.
    Undefined,
    /// Integer arithmetic beyond 64 bits.
    Overflow,
    /// An `exists` without a witness among the values tried, or a nested
    /// `forall` without a counterexample among them: unknown.
    Unknown,
    /// Something the interpreter does not do (equality of functions).
    Unsupported(&'static str),
    /// The wall-clock limit the user asked for passed during the run.
    Time,
    /// False when evaluated by need, but evaluated by value a computation
    /// the lazy run skipped does not terminate (see [`Machine::strict`]).
    LazyOnly,
}

impl fmt::Display for Abort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Abort::Fuel => f.write_str("step budget exhausted"),
            Abort::Depth => f.write_str("calls nested too deeply"),
            Abort::Undefined => f.write_str("undefined (a partial function)"),
            Abort::Overflow => f.write_str("integer overflow"),
            Abort::Unknown => f.write_str("quantifier undecided"),
            Abort::Unsupported(what) => write!(f, "unsupported: {what}"),
            Abort::Time => f.write_str("cut by the time limit"),
            Abort::LazyOnly => f.write_str("false only when evaluated by need"),
        }
    }
}

/// A value during evaluation.
#[derive(Clone)]
pub(crate) enum Value<'a> {
    /// A position of the input, not read yet.
    Input(Lazy<'a, DynValue>),
    /// A constructor and its fields.
    Con(usize, Rc<[Value<'a>]>),
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A function value.
    Closure(Rc<Closure<'a>>),
    /// A `let` binding not evaluated yet (evaluated once, when needed).
    Thunk(Rc<Thunk<'a>>),
    /// A value computed once for every run (`hoist`), opened one
    /// constructor at a time.
    Frozen(Rc<Frozen>),
}

/// A whole value, without inputs, thunks or closures: what a subterm that
/// does not depend on the conjecture's variables evaluates to, kept from
/// run to run.
#[derive(Debug)]
pub(crate) enum Frozen {
    /// A constructor and its fields.
    Con(usize, Vec<Rc<Frozen>>),
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
}

/// An integer operand of a comparison (see `Machine::int_operand`).
#[derive(Clone, Copy, Debug)]
enum IntOperand<'a> {
    Known(i64),
    Lazy(Lazy<'a, DynValue>),
}

impl<'a> IntOperand<'a> {
    /// A known integer or an input `Int` (anything else: `None`).
    fn of(v: &Value<'a>) -> Option<IntOperand<'a>> {
        match v {
            Value::Int(i) => Some(IntOperand::Known(*i)),
            Value::Frozen(x) => match **x {
                Frozen::Int(i) => Some(IntOperand::Known(i)),
                _ => None,
            },
            Value::Input(l) if l.type_name() == "Int" => Some(IntOperand::Lazy(*l)),
            _ => None,
        }
    }

    /// The order of two operands, reading input `Int`s lazily.
    fn compare(self, other: IntOperand<'_>) -> std::cmp::Ordering {
        match (self, other) {
            (IntOperand::Known(a), IntOperand::Known(b)) => a.cmp(&b),
            (IntOperand::Lazy(a), IntOperand::Known(b)) => a.compare_int(b),
            (IntOperand::Known(a), IntOperand::Lazy(b)) => b.compare_int(a).reverse(),
            (IntOperand::Lazy(a), IntOperand::Lazy(b)) => a.compare_ints(b),
        }
    }
}

/// A delayed `let` binding: its expression, the frame it was bound in and
/// its value once evaluated.
#[derive(Debug)]
pub(crate) struct Thunk<'a> {
    expr: &'a Expr,
    env: Vec<Value<'a>>,
    value: RefCell<Option<Value<'a>>>,
}

impl fmt::Debug for Value<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Input(_) => f.write_str("<input>"),
            Value::Con(c, xs) => write!(f, "Con({c}, {} fields)", xs.len()),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Closure(_) => f.write_str("<function>"),
            Value::Thunk(_) => f.write_str("<let>"),
            Value::Frozen(x) => write!(f, "{x:?}"),
        }
    }
}

/// A function value.
#[derive(Debug)]
pub(crate) enum Closure<'a> {
    /// A lambda with the frame it was made in.
    Lambda(usize, Vec<Value<'a>>),
    /// A named function.
    Fun(usize),
}

/// How a conjecture came out on one input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Judgement {
    /// True.
    Holds,
    /// False: a counterexample (by need; see [`Machine::strict`]).
    Fails,
    /// An implication whose hypothesis is false here.
    Vacuous,
}

/// The limits of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Limits {
    /// Evaluation steps per run.
    pub(crate) fuel: u64,
    /// Nested calls.
    pub(crate) depth: usize,
    /// Bytes of stack nested evaluation may take (the command runs on a
    /// thread of 1 GiB, `cli::with_large_stack`).
    pub(crate) stack: usize,
    /// The largest size of the values tried for a nested quantifier.
    pub(crate) quantifier_size: usize,
    /// When to give up a run (only with a time limit the user asked for:
    /// otherwise runs are bounded by fuel alone, and verdicts do not
    /// depend on the machine).
    pub(crate) deadline: Option<std::time::Instant>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            fuel: 1_000_000,
            depth: 100_000,
            stack: 512 << 20,
            quantifier_size: 5,
            deadline: None,
        }
    }
}

/// Evaluates expressions of one program.
#[derive(Debug)]
pub(crate) struct Machine<'p> {
    prog: &'p Program,
    meanings: &'p Meanings,
    limits: Limits,
    fuel: u64,
    depth: usize,
    /// Call by value instead of call by need (see [`Machine::strict`]).
    strict: bool,
    /// The values of the program's symbols without a definition
    /// (`Program::free`), in this run.
    free: Vec<Option<Value<'p>>>,
    /// The goal's constants (`hoist`), by `Expr::Constant` index.
    constants: &'p [Rc<Frozen>],
    /// The address of a local of the frame that made the machine: how
    /// deep the evaluation's recursion is, in bytes of stack.
    stack_base: usize,
}

/// The address of a local of the caller's frame (the stack grows from
/// it; no pointer is ever read).
#[inline(never)]
fn stack_address() -> usize {
    let here = 0u8;
    std::hint::black_box(&here) as *const u8 as usize
}

fn set<'a>(env: &mut Vec<Value<'a>>, slot: usize, v: Value<'a>) {
    if env.len() <= slot {
        env.resize(slot + 1, Value::Bool(false));
    }
    env[slot] = v;
}

impl<'p> Machine<'p> {
    /// A machine for one run.
    pub(crate) fn new(prog: &'p Program, meanings: &'p Meanings, limits: Limits) -> Self {
        Machine {
            prog,
            meanings,
            limits,
            fuel: limits.fuel,
            depth: 0,
            strict: false,
            free: vec![],
            constants: &[],
            stack_base: stack_address(),
        }
    }

    /// Enters one more nested evaluation (a call, a `let` forced, an
    /// argument evaluated by value): `Depth` past the bound on nested
    /// calls or on the stack they take (frames differ in size between
    /// builds and between lazy and strict evaluation; the bytes are what
    /// the thread has).
    fn enter(&mut self) -> Result<(), Abort> {
        if self.depth >= self.limits.depth
            || stack_address().abs_diff(self.stack_base) > self.limits.stack
        {
            return Err(Abort::Depth);
        }
        self.depth += 1;
        Ok(())
    }

    /// The same machine evaluating by value: arguments, fields and `let`
    /// bindings are evaluated where they are written, as TIP's total
    /// semantics has every computation a value. A run that call by need
    /// finds false is re-run this way: if a computation it skipped does
    /// not terminate, the definitions have no total model and the run is
    /// no refutation. Input positions are still read only where a
    /// definition matches on them.
    pub(crate) fn strict(mut self) -> Self {
        self.strict = true;
        self
    }

    /// The same machine with values for the program's symbols without a
    /// definition, in the order of `Program::free` (`None` for those the
    /// conjecture does not reach).
    pub(crate) fn with_free(mut self, free: Vec<Option<Value<'p>>>) -> Self {
        self.free = free;
        self
    }

    /// The same machine with the goal's constants (`hoist`).
    pub(crate) fn with_constants(mut self, constants: &'p [Rc<Frozen>]) -> Self {
        self.constants = constants;
        self
    }

    /// Evaluates a closed expression whole (every constructor's fields
    /// too), iteratively: `Err` if it fails, does not finish within the
    /// fuel, or holds a function.
    pub(crate) fn freeze(&mut self, e: &'p Expr) -> Result<Rc<Frozen>, Abort> {
        enum Task<'p> {
            Eval(Value<'p>),
            Build(usize, usize),
        }
        let mut env = vec![];
        let root = self.eval(e, &mut env)?;
        let mut tasks = vec![Task::Eval(root)];
        let mut done: Vec<Rc<Frozen>> = vec![];
        while let Some(task) = tasks.pop() {
            match task {
                Task::Eval(v) => match self.whnf(v)? {
                    Value::Con(c, fields) => {
                        tasks.push(Task::Build(c, fields.len()));
                        tasks.extend(fields.iter().rev().cloned().map(Task::Eval));
                    }
                    Value::Bool(b) => done.push(Rc::new(Frozen::Bool(b))),
                    Value::Int(i) => done.push(Rc::new(Frozen::Int(i))),
                    _ => return Err(Abort::Unsupported("a constant holding a function")),
                },
                Task::Build(c, arity) => {
                    let fields = done.split_off(done.len() - arity);
                    done.push(Rc::new(Frozen::Con(c, fields)));
                }
            }
        }
        done.pop().ok_or(Abort::Undefined)
    }

    /// The steps this machine has taken.
    pub(crate) fn steps(&self) -> u64 {
        self.limits.fuel - self.fuel
    }

    /// An argument, a field or a `let` binding: delayed (call by need) or,
    /// in a strict machine, evaluated now.
    fn argument(&mut self, e: &'p Expr, env: &mut Vec<Value<'p>>) -> Result<Value<'p>, Abort> {
        if self.strict {
            self.enter()?;
            let v = self.eval(e, env);
            self.depth -= 1;
            self.unthunk(v?)
        } else {
            Ok(delay(e, env))
        }
    }

    /// [`Machine::argument`] of each expression, in order.
    fn arguments(
        &mut self,
        es: &'p [Expr],
        env: &mut Vec<Value<'p>>,
    ) -> Result<Vec<Value<'p>>, Abort> {
        let mut out = Vec::with_capacity(es.len());
        for e in es {
            out.push(self.argument(e, env)?);
        }
        Ok(out)
    }

    /// Reads an input position to its constructor (a searched function
    /// stays a handle: it is read when applied).
    fn read(&self, l: Lazy<'p, DynValue>) -> Result<Value<'p>, Abort> {
        let name = l.type_name();
        match &*name {
            "Bool" => Ok(Value::Bool(l.get_bool())),
            "Int" => Ok(Value::Int(l.get_int())),
            other => match self.meanings.get(other) {
                Some(DynMeaning::Data(ctors)) => {
                    let view = l.view();
                    Ok(Value::Con(
                        ctors[view.index],
                        view.fields().map(Value::Input).collect(),
                    ))
                }
                Some(DynMeaning::Fun(_)) => Ok(Value::Input(l)),
                None => Err(Abort::Unsupported("an input of an unknown type")),
            },
        }
    }

    /// The value with its outermost constructor known (a searched
    /// function stays a handle).
    pub(crate) fn whnf(&mut self, mut v: Value<'p>) -> Result<Value<'p>, Abort> {
        loop {
            v = match v {
                Value::Input(l) => return self.read(l),
                Value::Thunk(t) => self.force(&t)?,
                Value::Frozen(x) => {
                    return Ok(match &*x {
                        Frozen::Con(c, fields) => {
                            Value::Con(*c, fields.iter().cloned().map(Value::Frozen).collect())
                        }
                        Frozen::Bool(b) => Value::Bool(*b),
                        Frozen::Int(i) => Value::Int(*i),
                    })
                }
                v => return Ok(v),
            }
        }
    }

    /// The value with its `let` bindings forced (an input stays a handle).
    fn unthunk(&mut self, mut v: Value<'p>) -> Result<Value<'p>, Abort> {
        while let Value::Thunk(t) = v {
            v = self.force(&t)?;
        }
        Ok(v)
    }

    /// A `let` binding's value, evaluated once.
    fn force(&mut self, t: &Thunk<'p>) -> Result<Value<'p>, Abort> {
        if let Some(x) = t.value.borrow().clone() {
            return Ok(x);
        }
        // Forcing nests like a call: counted against the depth bound.
        self.enter()?;
        let mut env = t.env.clone();
        let x = self.eval(t.expr, &mut env);
        self.depth -= 1;
        let x = x?;
        *t.value.borrow_mut() = Some(x.clone());
        Ok(x)
    }

    fn boolean(&mut self, e: &'p Expr, env: &mut Vec<Value<'p>>) -> Result<bool, Abort> {
        let v = self.eval(e, env)?;
        match self.whnf(v)? {
            Value::Bool(b) => Ok(b),
            _ => Err(Abort::Unsupported("a non-boolean condition")),
        }
    }

    fn int(&mut self, e: &'p Expr, env: &mut Vec<Value<'p>>) -> Result<i64, Abort> {
        let v = self.eval(e, env)?;
        match self.whnf(v)? {
            Value::Int(i) => Ok(i),
            _ => Err(Abort::Unsupported("a non-integer operand")),
        }
    }

    /// Structural equality: [`Machine::order`] is `Equal`.
    fn equal(&mut self, x: Value<'p>, y: Value<'p>) -> Result<bool, Abort> {
        Ok(self.order(x, y)?.is_eq())
    }

    /// The structural order of two values of one type, reading both sides
    /// left to right and stopping at the first difference: integers by
    /// value (input ones read lazily), `false < true`, constructors in
    /// declaration order, then their fields in order. Iterative: values
    /// may be deep.
    fn order(&mut self, x: Value<'p>, y: Value<'p>) -> Result<std::cmp::Ordering, Abort> {
        use std::cmp::Ordering::Equal;
        let mut pairs = vec![(x, y)];
        while let Some((x, y)) = pairs.pop() {
            let (x, y) = (self.unthunk(x)?, self.unthunk(y)?);
            if let (Some(a), Some(b)) = (IntOperand::of(&x), IntOperand::of(&y)) {
                match a.compare(b) {
                    Equal => continue,
                    unequal => return Ok(unequal),
                }
            }
            let unequal = match (self.whnf(x)?, self.whnf(y)?) {
                (Value::Bool(a), Value::Bool(b)) => a.cmp(&b),
                (Value::Int(a), Value::Int(b)) => a.cmp(&b),
                (Value::Con(c, xs), Value::Con(d, ys)) => {
                    // Constructor ids are given in declaration order.
                    if c == d {
                        for (x, y) in xs.iter().zip(ys.iter()).rev() {
                            pairs.push((x.clone(), y.clone()));
                        }
                    }
                    c.cmp(&d)
                }
                _ => return Err(Abort::Unsupported("equality or order of functions")),
            };
            if unequal != Equal {
                return Ok(unequal);
            }
        }
        Ok(Equal)
    }

    fn tick(&mut self) -> Result<(), Abort> {
        if self.fuel == 0 {
            return Err(Abort::Fuel);
        }
        self.fuel -= 1;
        if self.fuel % 4096 == 0 {
            if let Some(d) = self.limits.deadline {
                if std::time::Instant::now() >= d {
                    return Err(Abort::Time);
                }
            }
        }
        Ok(())
    }

    /// Evaluates a goal's body with its variables bound to the inputs.
    pub(crate) fn goal(&mut self, body: &'p Expr, inputs: Vec<Value<'p>>) -> Result<bool, Abort> {
        let mut env = inputs;
        self.boolean(body, &mut env)
    }

    /// Judges a goal's body with its variables bound to the inputs: an
    /// implication (`(=> h1 .. hn c)`, nested ones too) whose hypothesis is
    /// false on them says nothing about them ([`Judgement::Vacuous`]), which
    /// the search counts apart and its random phase learns to avoid.
    pub(crate) fn judge(
        &mut self,
        body: &'p Expr,
        inputs: Vec<Value<'p>>,
    ) -> Result<Judgement, Abort> {
        let mut env = inputs;
        let mut conclusion = body;
        while let Expr::Implies(parts) = conclusion {
            let Some((last, hypotheses)) = parts.split_last() else {
                break;
            };
            for h in hypotheses {
                if !self.boolean(h, &mut env)? {
                    return Ok(Judgement::Vacuous);
                }
            }
            conclusion = last;
        }
        Ok(match self.boolean(conclusion, &mut env)? {
            true => Judgement::Holds,
            false => Judgement::Fails,
        })
    }

    /// Calls a function on values.
    pub(crate) fn call(&mut self, f: usize, args: Vec<Value<'p>>) -> Result<Value<'p>, Abort> {
        self.enter()?;
        let mut frame = args;
        let prog = self.prog;
        let r = self.eval(&prog.functions[f].body, &mut frame);
        self.depth -= 1;
        r
    }

    fn apply(&mut self, f: Value<'p>, args: Vec<Value<'p>>) -> Result<Value<'p>, Abort> {
        match f {
            Value::Closure(c) => match &*c {
                Closure::Fun(f) => {
                    if self.prog.functions[*f].params.len() != args.len() {
                        return Err(Abort::Unsupported("a partial application"));
                    }
                    self.call(*f, args)
                }
                Closure::Lambda(id, captured) => {
                    let prog = self.prog;
                    let lambda = &prog.lambdas[*id];
                    if lambda.params.len() != args.len() {
                        return Err(Abort::Unsupported("a partial application"));
                    }
                    self.enter()?;
                    let mut frame = captured.clone();
                    for (&slot, v) in lambda.params.iter().zip(args) {
                        set(&mut frame, slot, v);
                    }
                    let r = self.eval(&lambda.body, &mut frame);
                    self.depth -= 1;
                    r
                }
            },
            Value::Input(l) => self.apply_input(l, args),
            _ => Err(Abort::Unsupported(
                "applying a value that is not a function",
            )),
        }
    }

    /// Applies a searched function: follows its decisions on the
    /// arguments (pending positions, head last), reading each decision and
    /// only the arguments they decide on; the result's position.
    fn apply_input(
        &mut self,
        f: Lazy<'p, DynValue>,
        args: Vec<Value<'p>>,
    ) -> Result<Value<'p>, Abort> {
        let mut pending: Vec<Value<'p>> = args.into_iter().rev().collect();
        let mut node = f;
        // The root's step, then one per decision, until nothing is pending:
        // the node reached is the result.
        loop {
            self.tick()?;
            let Some(DynMeaning::Fun(ctors)) = self.meanings.get(&*node.type_name()) else {
                return Err(Abort::Unsupported(
                    "applying a value that is not a function",
                ));
            };
            let view = node.view();
            match &ctors[view.index] {
                FunCtor::Root(settle) => {
                    self.settle(&mut pending, settle)?;
                    node = view.field(0);
                }
                FunCtor::Skip(settle) => {
                    pending.pop();
                    self.settle(&mut pending, settle)?;
                    node = view.field(0);
                }
                FunCtor::Case(settles) => {
                    let head = pending.pop().expect("a decision on a pending position");
                    let branch = match self.whnf(head)? {
                        Value::Bool(b) => usize::from(b),
                        Value::Con(c, fields) => {
                            pending.extend(fields.iter().rev().cloned());
                            let d = &self.prog.datatypes[self.prog.ctors[c].datatype];
                            d.ctors
                                .iter()
                                .position(|&k| k == c)
                                .expect("a constructor of its datatype")
                        }
                        _ => return Err(Abort::Unsupported("a case on a value of another type")),
                    };
                    self.settle(&mut pending, &settles[branch])?;
                    node = view.field(branch);
                }
                FunCtor::Split => {
                    let head = pending.pop().expect("a decision on a pending position");
                    let head = self.whnf(head)?;
                    let key = Value::Input(view.field(0));
                    let (Some(x), Some(key)) = (IntOperand::of(&head), IntOperand::of(&key)) else {
                        return Err(Abort::Unsupported("a split on a value of another type"));
                    };
                    let at_most = x.compare(key).is_le();
                    pending.push(head);
                    node = view.field(if at_most { 1 } else { 2 });
                }
            }
            if pending.is_empty() {
                return Ok(Value::Input(node));
            }
        }
    }

    /// Settles the first pending positions as the declarations did to
    /// their types (`search.rs`).
    fn settle(&mut self, pending: &mut Vec<Value<'p>>, settle: &[Settle]) -> Result<(), Abort> {
        for step in settle {
            let head = pending.pop().expect("a pending position to settle");
            if *step == Settle::Open {
                match self.whnf(head)? {
                    Value::Con(_, fields) => pending.extend(fields.iter().rev().cloned()),
                    _ => return Err(Abort::Unsupported("opening a value of another type")),
                }
            }
        }
        Ok(())
    }

    /// Evaluates an expression in a frame.
    pub(crate) fn eval(
        &mut self,
        e: &'p Expr,
        env: &mut Vec<Value<'p>>,
    ) -> Result<Value<'p>, Abort> {
        self.tick()?;
        Ok(match e {
            Expr::Local(s) => env
                .get(*s)
                .cloned()
                .ok_or(Abort::Unsupported("an unbound variable"))?,
            Expr::FunRef(f) => Value::Closure(Rc::new(Closure::Fun(*f))),
            Expr::Constant(k) => Value::Frozen(self.constants[*k].clone()),
            Expr::Free(k) => self
                .free
                .get(*k)
                .cloned()
                .flatten()
                .ok_or(Abort::Unsupported("a declared symbol without a value"))?,
            Expr::Call(f, args) => {
                let xs = self.arguments(args, env)?;
                return self.call(*f, xs);
            }
            Expr::Con(c, args) => Value::Con(*c, self.arguments(args, env)?.into()),
            Expr::Select(c, k, x) => {
                let v = self.eval(x, env)?;
                match self.whnf(v)? {
                    Value::Con(d, fields) if d == *c => fields[*k].clone(),
                    _ => return Err(Abort::Undefined),
                }
            }
            Expr::Is(c, x) => {
                let v = self.eval(x, env)?;
                match self.whnf(v)? {
                    Value::Con(d, _) => Value::Bool(d == *c),
                    _ => return Err(Abort::Unsupported("a tester on a non-datatype")),
                }
            }
            Expr::Match(x, cases) => {
                let v = self.eval(x, env)?;
                let v = self.whnf(v)?;
                for (pat, body) in cases {
                    let hit = match (pat, &v) {
                        (Pat::Wild, _) => true,
                        (Pat::Bool(b), Value::Bool(a)) => a == b,
                        (Pat::Ctor(c, slots), Value::Con(d, fields)) if c == d => {
                            for (&s, f) in slots.iter().zip(fields.iter()) {
                                set(env, s, f.clone());
                            }
                            true
                        }
                        _ => false,
                    };
                    if hit {
                        return self.eval(body, env);
                    }
                }
                return Err(Abort::Undefined);
            }
            Expr::Ite(parts) => {
                let [c, t, f] = &**parts;
                return if self.boolean(c, env)? {
                    self.eval(t, env)
                } else {
                    self.eval(f, env)
                };
            }
            Expr::And(xs) => {
                for x in xs {
                    if !self.boolean(x, env)? {
                        return Ok(Value::Bool(false));
                    }
                }
                Value::Bool(true)
            }
            Expr::Or(xs) => {
                for x in xs {
                    if self.boolean(x, env)? {
                        return Ok(Value::Bool(true));
                    }
                }
                Value::Bool(false)
            }
            Expr::Xor(xs) => {
                let mut acc = false;
                for x in xs {
                    acc ^= self.boolean(x, env)?;
                }
                Value::Bool(acc)
            }
            Expr::Not(x) => Value::Bool(!self.boolean(x, env)?),
            Expr::Implies(xs) => {
                // a => b => c is a => (b => c): true at the first false
                // hypothesis.
                let (last, hyps) = xs.split_last().ok_or(Abort::Undefined)?;
                for h in hyps {
                    if !self.boolean(h, env)? {
                        return Ok(Value::Bool(true));
                    }
                }
                Value::Bool(self.boolean(last, env)?)
            }
            Expr::Eq(xs) => {
                let first = self.eval(&xs[0], env)?;
                for x in &xs[1..] {
                    let v = self.eval(x, env)?;
                    if !self.equal(first.clone(), v)? {
                        return Ok(Value::Bool(false));
                    }
                }
                Value::Bool(true)
            }
            Expr::Distinct(xs) => {
                let mut vs = Vec::with_capacity(xs.len());
                for x in xs {
                    vs.push(self.eval(x, env)?);
                }
                for i in 0..vs.len() {
                    for j in i + 1..vs.len() {
                        if self.equal(vs[i].clone(), vs[j].clone())? {
                            return Ok(Value::Bool(false));
                        }
                    }
                }
                Value::Bool(true)
            }
            Expr::Let(binds, body) => {
                // Parallel: every binding sees the frame before the `let`.
                let mut thunks = Vec::with_capacity(binds.len());
                for (_, x) in binds {
                    thunks.push(self.argument(x, env)?);
                }
                for ((s, _), v) in binds.iter().zip(thunks) {
                    set(env, *s, v);
                }
                return self.eval(body, env);
            }
            Expr::Lambda(id) => Value::Closure(Rc::new(Closure::Lambda(*id, env.clone()))),
            Expr::Apply(f, args) => {
                let fv = self.eval(f, env)?;
                let fv = self.whnf(fv)?;
                let xs = self.arguments(args, env)?;
                return self.apply(fv, xs);
            }
            Expr::Int(i) => Value::Int(*i),
            Expr::Bool(b) => Value::Bool(*b),
            Expr::Neg(x) => Value::Int(self.int(x, env)?.checked_neg().ok_or(Abort::Overflow)?),
            Expr::Arith(op, xs) => {
                let mut acc = self.int(&xs[0], env)?;
                for x in &xs[1..] {
                    let b = self.int(x, env)?;
                    acc = match op {
                        Arith::Add => acc.checked_add(b).ok_or(Abort::Overflow)?,
                        Arith::Sub => acc.checked_sub(b).ok_or(Abort::Overflow)?,
                        Arith::Mul => acc.checked_mul(b).ok_or(Abort::Overflow)?,
                        Arith::Div if b == 0 => return Err(Abort::Undefined),
                        Arith::Mod if b == 0 => return Err(Abort::Undefined),
                        Arith::Div => acc.checked_div_euclid(b).ok_or(Abort::Overflow)?,
                        Arith::Mod => acc.checked_rem_euclid(b).ok_or(Abort::Overflow)?,
                    };
                }
                Value::Int(acc)
            }
            Expr::Cmp(op, xs) => {
                let mut prev = self.eval(&xs[0], env)?;
                for x in &xs[1..] {
                    let b = self.eval(x, env)?;
                    let order = self.order(prev, b.clone())?;
                    let ok = match op {
                        Cmp::Lt => order.is_lt(),
                        Cmp::Le => order.is_le(),
                        Cmp::Gt => order.is_gt(),
                        Cmp::Ge => order.is_ge(),
                    };
                    if !ok {
                        return Ok(Value::Bool(false));
                    }
                    prev = b;
                }
                Value::Bool(true)
            }
            Expr::Undefined => return Err(Abort::Undefined),
            Expr::Delay(inner, _) => return self.eval(inner, env),
            Expr::Exists(vars, body) | Expr::Forall(vars, body) => {
                let exists = matches!(e, Expr::Exists(..));
                let mut domains = vec![];
                for (_, ty) in vars {
                    domains.push(self.values_of(ty)?);
                }
                // Every combination, in order of the variables.
                let mut index = vec![0usize; vars.len()];
                if domains.iter().any(Vec::is_empty) {
                    return Err(Abort::Unknown);
                }
                loop {
                    for (k, (s, _)) in vars.iter().enumerate() {
                        set(env, *s, domains[k][index[k]].clone());
                    }
                    let b = match self.boolean(body, env) {
                        Ok(b) => Some(b),
                        Err(Abort::Undefined | Abort::Unknown) => None,
                        Err(other) => return Err(other),
                    };
                    if b == Some(exists) {
                        return Ok(Value::Bool(exists));
                    }
                    let mut k = vars.len();
                    loop {
                        if k == 0 {
                            return Err(Abort::Unknown);
                        }
                        k -= 1;
                        index[k] += 1;
                        if index[k] < domains[k].len() {
                            break;
                        }
                        index[k] = 0;
                    }
                }
            }
        })
    }

    /// The values of a type up to the quantifier size (type variables and
    /// sorts at the element type), smallest first.
    fn values_of(&self, ty: &Type) -> Result<Vec<Value<'p>>, Abort> {
        let max = self.limits.quantifier_size;
        let mut memo = HashMap::new();
        let mut out = vec![];
        for size in 0..=max {
            out.extend(self.values_sized(ty, size, &mut memo)?);
        }
        Ok(out)
    }

    fn values_sized(
        &self,
        ty: &Type,
        size: usize,
        memo: &mut HashMap<(Type, usize), Vec<Value<'p>>>,
    ) -> Result<Vec<Value<'p>>, Abort> {
        const CAP: usize = 2_000;
        let ty = match ty {
            Type::Param(_) | Type::Sort(_) | Type::Meta(_) => self.prog.instance_type(),
            t => t.clone(),
        };
        if let Some(v) = memo.get(&(ty.clone(), size)) {
            return Ok(v.clone());
        }
        let out: Vec<Value<'p>> = match &ty {
            Type::Bool => match size {
                1 => vec![Value::Bool(false), Value::Bool(true)],
                _ => vec![],
            },
            Type::Int => match size {
                0 => vec![Value::Int(0)],
                k => vec![Value::Int(k as i64), Value::Int(-(k as i64))],
            },
            Type::Data(d, args) => {
                let mut out = vec![];
                if size == 0 {
                    return Ok(out);
                }
                for &c in &self.prog.datatypes[*d].ctors {
                    let fields: Vec<Type> = self.prog.ctors[c]
                        .fields
                        .iter()
                        .map(|(_, t)| substitute(t, args))
                        .collect();
                    // Split size - 1 among the fields.
                    let mut partial: Vec<(usize, Vec<Value<'p>>)> = vec![(0, vec![])];
                    for f in &fields {
                        let mut next = vec![];
                        for (used, vs) in &partial {
                            for s in 0..=(size - 1 - used) {
                                for v in self.values_sized(f, s, memo)? {
                                    let mut vs = vs.clone();
                                    vs.push(v);
                                    next.push((used + s, vs));
                                    if next.len() > CAP {
                                        return Err(Abort::Unknown);
                                    }
                                }
                            }
                        }
                        partial = next;
                    }
                    for (used, vs) in partial {
                        if used == size - 1 {
                            out.push(Value::Con(c, vs.into()));
                        }
                    }
                }
                out
            }
            Type::Fun(..) => return Err(Abort::Unsupported("a quantifier over functions")),
            Type::Param(_) | Type::Sort(_) | Type::Meta(_) => vec![],
        };
        memo.insert((ty, size), out.clone());
        Ok(out)
    }
}

/// An argument, a field or a `let` binding, evaluated when first needed
/// (call by need, as in the Haskell programs TIP comes from): an input
/// position passed along is not read until a definition matches on it.
/// Variables and constants need no delay.
fn delay<'a>(e: &'a Expr, env: &[Value<'a>]) -> Value<'a> {
    match e {
        Expr::Local(s) if *s < env.len() => env[*s].clone(),
        Expr::Int(i) => Value::Int(*i),
        Expr::Bool(b) => Value::Bool(*b),
        Expr::Con(c, xs) if xs.is_empty() => Value::Con(*c, Rc::from(vec![])),
        Expr::Delay(inner, need) => Value::Thunk(Rc::new(Thunk {
            expr: inner,
            env: env[..(*need).min(env.len())].to_vec(),
            value: RefCell::new(None),
        })),
        _ => Value::Thunk(Rc::new(Thunk {
            expr: e,
            env: env.to_vec(),
            value: RefCell::new(None),
        })),
    }
}

pub(crate) use super::program::substitute;

//! Symbolic evaluation of a TIP conjecture over an unknown input: values
//! whose constructors are chosen by literals (`Sym`), input positions
//! that exist only where an earlier round of the search saw them
//! demanded (`Node`), and the evaluator that runs every branch a literal
//! leaves open, under that branch's guard, and merges the results.
//!
//! Guards are exact: a branch's guard is true in a model exactly when
//! evaluating the conjecture on that model's input reaches the branch. A
//! `let`, argument or field is evaluated once, under an activation
//! literal that is true exactly when some use forces it (its forcing
//! guards are tied to it when the build ends), so what it demands and
//! where it is undefined are recorded under the right condition however
//! many times it is used. Calls use the same device: a call on the same
//! arguments is evaluated once, calls of one function from different
//! branches merge into one call on merged arguments, and a deeply nested
//! call no input within the size bound reaches is pruned.

use super::circuit::{Answer, Circuit};
use crate::tip::program::{substitute, Arith, Cmp, Expr, Pat, Program, Type};
use batsat::Lit;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// Why a build stopped without a formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// More evaluation steps than the budget.
    Fuel,
    /// Calls nested deeper than the bound.
    Depth,
    /// Something the symbolic evaluator does not do.
    Unsupported(&'static str),
    /// The user's deadline passed.
    Time,
    /// The formula grew past [`MAX_VARIABLES`].
    Formula,
}

/// A value during symbolic evaluation.
#[derive(Clone)]
pub(crate) enum Sym<'p> {
    /// A boolean: the literal that is true when it is.
    Bool(Lit),
    /// An integer: the values it may have, each with the literal under
    /// which it has it.
    Int(Rc<Choice<(i64, Lit)>>),
    /// A datatype value: its possible constructors.
    Data(Rc<Choice<Alt<'p>>>),
    /// A function: its possible closures.
    Fun(Rc<Choice<(Lit, Closure<'p>)>>),
    /// Not evaluated yet.
    Lazy(Rc<RefCell<Pending<'p>>>),
    /// A free value: what a computation that demands a position not
    /// expanded yet (or is undefined) stands for. Every observation of it
    /// is a fresh literal, so the formula allows whatever the missing
    /// part could do: a proof that no counterexample exists holds for
    /// every expansion, and its core names the positions it needed.
    Bottom,
}

/// Values by the guard under which each is the value.
type Parts<'p> = Vec<(Lit, Sym<'p>)>;

/// The possible values of a datatype, integer or function: at most one
/// option's guard is true, and `free` is true where the value is free
/// instead ([`Sym::Bottom`] merged in).
pub(crate) struct Choice<T> {
    options: Vec<T>,
    free: Lit,
}

/// One possible constructor of a datatype value.
#[derive(Clone)]
pub(crate) struct Alt<'p> {
    ctor: usize,
    guard: Lit,
    fields: Rc<[Sym<'p>]>,
}

/// A function value.
#[derive(Clone)]
pub(crate) enum Closure<'p> {
    Lambda(usize, Vec<Sym<'p>>),
    Fun(usize),
}

/// A value not evaluated yet, or evaluated once.
pub(crate) enum Pending<'p> {
    /// An expression in its frame.
    Thunk(&'p Expr, Vec<Sym<'p>>),
    /// One of several values, by guard.
    Merge(Vec<(Lit, Sym<'p>)>),
    /// An input position, by node.
    Input(usize),
    /// Evaluated, with the index of its activation (`None`: it needs
    /// none, as an input or a thunk first forced unconditionally).
    Done(Sym<'p>, Option<usize>),
}

/// What an input position is in this build.
#[derive(Clone, Debug)]
pub(crate) enum NodeKind {
    /// Not expanded: demanding it records the demand's guard.
    Stub,
    /// A datatype position: per constructor (declaration order), its
    /// literal and its fields' nodes.
    Data(Vec<(usize, Lit, Vec<usize>)>),
    /// A boolean position.
    Bool(Lit),
    /// An integer position: its values and their literals.
    Int(Vec<(i64, Lit)>),
}

/// An input position.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    /// Its type (type variables instantiated).
    pub(crate) ty: Type,
    /// True when the position is part of the input.
    pub(crate) present: Lit,
    /// Its path from the variables: variable, then per step the
    /// constructor's index in its datatype and the field.
    pub(crate) path: Vec<u32>,
    /// What it is.
    pub(crate) kind: NodeKind,
}

/// One build: the circuit, the input positions and the evaluator's
/// records.
pub(crate) struct Build<'p> {
    prog: &'p Program,
    /// The formula.
    pub(crate) circuit: Circuit,
    /// The input positions; the goal's variables are the first ones.
    pub(crate) nodes: Vec<Node>,
    /// Per stub demanded, the condition under which it was.
    pub(crate) demanded: HashMap<usize, Lit>,
    /// Conditions under which the conjecture is undefined.
    undefined: Vec<Lit>,
    /// Forced thunks' activation literals and the guards that forced them.
    activations: Vec<(Lit, Vec<Lit>)>,
    /// The variables' nodes.
    roots: Vec<usize>,
    /// How deep calls nest before a call is cut: it returns a free value
    /// and records its guard in `cuts`, so recursion that does not follow
    /// the input's structure unrolls only as deep as a core asks.
    unroll: usize,
    /// The conditions under which a call was cut.
    cuts: Vec<Lit>,
    /// The assumption that bounds the input's size, if calls deep in the
    /// recursion are pruned where no input within it reaches them.
    prune_bound: Option<Lit>,
    /// The guards of pruned calls.
    pruned: Vec<Lit>,
    /// Guards already asked about: whether an input within the bound
    /// reaches them.
    reachable: HashMap<Lit, bool>,
    /// Calls evaluated, by function and arguments' identities: their
    /// results and activations.
    calls: HashMap<CallKey, Memo<'p>>,
    fuel: u64,
    depth: usize,
    max_depth: usize,
    deadline: Option<std::time::Instant>,
}

/// How deep calls nest before each is first asked whether an input within
/// the bound reaches it.
const PRUNE_DEPTH: usize = 6;

/// The decisions one such question may take (a question the solver
/// does not settle within them keeps the call): measured on the
/// synthetic problems and TIP's sorting functions, 0 (propagation only)
/// prunes too little for merge sort, 100 costs the colouring problems 17
/// times their time.
const PRUNE_DECISIONS: u64 = 10;

/// The most variables a formula may have: past it, the build stops (a
/// formula this large takes longer to solve than enumeration, and memory
/// grows with it).
pub(crate) const MAX_VARIABLES: u64 = 2_000_000;

/// The most integer pairs one arithmetic operation may combine.
const MAX_INT_PAIRS: usize = 1 << 16;

impl<'p> Build<'p> {
    /// A build over variables of the given types; positions whose paths
    /// are in `expanded` (and the variables themselves) are expanded,
    /// integers range over `-int_range..=int_range`.
    pub(crate) fn new(
        prog: &'p Program,
        var_types: &[Type],
        expanded: &HashSet<Vec<u32>>,
        int_range: i64,
        unroll: usize,
        fuel: u64,
        deadline: Option<std::time::Instant>,
    ) -> Self {
        let mut b = Build {
            prog,
            circuit: Circuit::new(deadline),
            nodes: vec![],
            demanded: HashMap::new(),
            undefined: vec![],
            activations: vec![],
            roots: vec![],
            unroll,
            cuts: vec![],
            calls: HashMap::new(),
            prune_bound: None,
            pruned: vec![],
            reachable: HashMap::new(),
            fuel,
            depth: 0,
            max_depth: 20_000,
            deadline,
        };
        let tt = b.circuit.tt();
        for (i, t) in var_types.iter().enumerate() {
            let id = b.node(t.clone(), tt, vec![i as u32], expanded, int_range, true);
            b.roots.push(id);
        }
        b
    }

    /// Adds a position (and, if expanded, the positions below it).
    fn node(
        &mut self,
        ty: Type,
        present: Lit,
        path: Vec<u32>,
        expanded: &HashSet<Vec<u32>>,
        int_range: i64,
        root: bool,
    ) -> usize {
        let id = self.nodes.len();
        self.nodes.push(Node {
            ty: ty.clone(),
            present,
            path: path.clone(),
            kind: NodeKind::Stub,
        });
        let c = &mut self.circuit;
        let kind = match &ty {
            Type::Bool => NodeKind::Bool(c.fresh()),
            Type::Int => {
                let values: Vec<(i64, Lit)> =
                    (-int_range..=int_range).map(|n| (n, c.fresh())).collect();
                one_of(c, present, values.iter().map(|v| v.1).collect());
                NodeKind::Int(values)
            }
            Type::Data(d, args) if root || expanded.contains(&path) => {
                let ctors = self.prog.datatypes[*d].ctors.clone();
                let lits: Vec<Lit> = if ctors.len() == 1 {
                    vec![present]
                } else {
                    ctors.iter().map(|_| self.circuit.fresh()).collect()
                };
                one_of(&mut self.circuit, present, lits.clone());
                let mut alts = vec![];
                for (k, (&ctor, &lit)) in ctors.iter().zip(&lits).enumerate() {
                    let mut fields = vec![];
                    let field_types: Vec<Type> = self.prog.ctors[ctor]
                        .fields
                        .iter()
                        .map(|(_, t)| substitute(t, args))
                        .collect();
                    for (f, t) in field_types.into_iter().enumerate() {
                        let mut p = path.clone();
                        p.extend([k as u32, f as u32]);
                        fields.push(self.node(t, lit, p, expanded, int_range, false));
                    }
                    alts.push((ctor, lit, fields));
                }
                NodeKind::Data(alts)
            }
            _ => NodeKind::Stub,
        };
        self.nodes[id].kind = kind;
        id
    }

    /// The variables' values.
    pub(crate) fn inputs(&self) -> Vec<Sym<'p>> {
        self.roots
            .iter()
            .map(|&id| Sym::Lazy(Rc::new(RefCell::new(Pending::Input(id)))))
            .collect()
    }

    /// The variables' nodes.
    pub(crate) fn roots(&self) -> &[usize] {
        &self.roots
    }

    /// The literal that is true when the goal holds or its evaluation is
    /// undefined; ties every forced thunk's activation to its forcers.
    pub(crate) fn goal(&mut self, body: &'p Expr, inputs: Vec<Sym<'p>>) -> Result<Lit, Stop> {
        let mut env = inputs;
        let tt = self.circuit.tt();
        let holds = self.boolean(body, &mut env, tt)?;
        for (act, forcers) in std::mem::take(&mut self.activations) {
            let mut clause = vec![!act];
            clause.extend(forcers);
            self.circuit.add(&clause);
        }
        let undefined = std::mem::take(&mut self.undefined);
        let undefined = self.circuit.any(undefined);
        Ok(self.circuit.or(holds, undefined))
    }

    fn tick(&mut self) -> Result<(), Stop> {
        if self.fuel == 0 {
            return Err(Stop::Fuel);
        }
        self.fuel -= 1;
        if self.fuel % 4096 == 0 {
            if self
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
            {
                return Err(Stop::Time);
            }
            if self.circuit.size().0 > MAX_VARIABLES {
                return Err(Stop::Formula);
            }
        }
        Ok(())
    }

    fn undefined_under(&mut self, g: Lit) {
        if !self.circuit.is_ff(g) {
            self.undefined.push(g);
        }
    }

    /// The value with its outermost constructor known, demanded under `g`.
    fn whnf(&mut self, v: Sym<'p>, g: Lit) -> Result<Sym<'p>, Stop> {
        let mut v = v;
        loop {
            let Sym::Lazy(cell) = &v else {
                return Ok(v);
            };
            let cell = cell.clone();
            let state = std::mem::replace(&mut *cell.borrow_mut(), Pending::Merge(vec![]));
            let (value, activation) = match state {
                Pending::Done(x, activation) => {
                    self.forced_by(activation, g);
                    (x, activation)
                }
                Pending::Input(id) => match self.read(id, g) {
                    Some(x) => (x, None),
                    None => {
                        *cell.borrow_mut() = Pending::Input(id);
                        return Ok(Sym::Bottom);
                    }
                },
                Pending::Thunk(e, env) => {
                    let (act, activation) = self.activate(g);
                    let mut env = env;
                    // Forcing nests like a call, its result's forcing too:
                    // recursion through returned thunks is unrolled and
                    // cut like direct recursion.
                    self.enter()?;
                    let x = self.eval(e, &mut env, act).and_then(|x| self.whnf(x, act));
                    self.depth -= 1;
                    let x = x?;
                    self.forced_by(activation, g);
                    (x, activation)
                }
                Pending::Merge(parts) => {
                    let (act, activation) = self.activate(g);
                    self.enter()?;
                    let value = self.force_merge(parts, act);
                    self.depth -= 1;
                    let value = value?;
                    self.forced_by(activation, g);
                    (value, activation)
                }
            };
            *cell.borrow_mut() = Pending::Done(value.clone(), activation);
            v = value;
        }
    }

    /// The value of a merge, forced under `act`: one call on merged
    /// arguments if its parts are calls of one function, otherwise each
    /// part forced under its guard.
    fn force_merge(&mut self, parts: Parts<'p>, act: Lit) -> Result<Sym<'p>, Stop> {
        let value = match merged_call(&parts) {
            Some((f, args, calls, bottoms)) => {
                let calls = self.circuit.any(calls);
                let under = self.circuit.and(act, calls);
                let mut x = self.call(f, args, under)?;
                if !bottoms.is_empty() {
                    let mut with = vec![(calls, x)];
                    with.extend(bottoms.into_iter().map(|b| (b, Sym::Bottom)));
                    x = self.merge(with)?;
                }
                self.whnf(x, act)?
            }
            None => {
                let mut forced = Vec::with_capacity(parts.len());
                for (guard, x) in parts {
                    let under = self.circuit.and(act, guard);
                    forced.push((guard, self.whnf(x, under)?));
                }
                self.merge(forced)?
            }
        };
        Ok(value)
    }

    /// The activation literal of a thunk first forced under `g`, and its
    /// index (`None`: forced unconditionally, it needs none).
    fn activate(&mut self, g: Lit) -> (Lit, Option<usize>) {
        if g == self.circuit.tt() {
            (g, None)
        } else {
            let act = self.circuit.fresh();
            self.activations.push((act, vec![]));
            (act, Some(self.activations.len() - 1))
        }
    }

    /// Records that `g` forces the thunk with this activation, on its
    /// first force and on every later one.
    fn forced_by(&mut self, activation: Option<usize>, g: Lit) {
        let Some(k) = activation else {
            return;
        };
        let act = self.activations[k].0;
        self.circuit.add(&[!g, act]);
        self.activations[k].1.push(g);
    }

    /// An input node's value, demanded under `g` (`None`: a stub, whose
    /// demand is recorded).
    fn read(&mut self, id: usize, g: Lit) -> Option<Sym<'p>> {
        let ff = self.circuit.ff();
        match &self.nodes[id].kind {
            NodeKind::Stub => {
                let before = self.demanded.get(&id).copied().unwrap_or(ff);
                let now = self.circuit.or(before, g);
                self.demanded.insert(id, now);
                None
            }
            NodeKind::Bool(b) => Some(Sym::Bool(*b)),
            NodeKind::Int(values) => Some(Sym::Int(Rc::new(Choice {
                options: values.clone(),
                free: ff,
            }))),
            NodeKind::Data(alts) => Some(Sym::Data(Rc::new(Choice {
                options: alts
                    .iter()
                    .map(|(ctor, lit, fields)| Alt {
                        ctor: *ctor,
                        guard: *lit,
                        fields: fields
                            .iter()
                            .map(|&f| Sym::Lazy(Rc::new(RefCell::new(Pending::Input(f)))))
                            .collect(),
                    })
                    .collect(),
                free: ff,
            }))),
        }
    }

    fn enter(&mut self) -> Result<(), Stop> {
        if self.depth >= self.max_depth {
            return Err(Stop::Depth);
        }
        self.depth += 1;
        Ok(())
    }

    /// One value of several, by guard (guards exclusive), without forcing
    /// what is not evaluated yet; a free part makes the result free under
    /// its guard.
    fn merge(&mut self, parts: Vec<(Lit, Sym<'p>)>) -> Result<Sym<'p>, Stop> {
        let parts: Vec<(Lit, Sym<'p>)> = parts
            .into_iter()
            .filter(|(g, _)| !self.circuit.is_ff(*g))
            .collect();
        let (bottoms, mut parts): (Vec<_>, Vec<_>) = parts
            .into_iter()
            .partition(|(_, v)| matches!(v, Sym::Bottom));
        if parts.is_empty() {
            return Ok(Sym::Bottom);
        }
        if bottoms.is_empty() && parts.iter().all(|(_, v)| same(v, &parts[0].1)) {
            return Ok(parts.swap_remove(0).1);
        }
        if parts.iter().any(|(_, v)| matches!(v, Sym::Lazy(_))) {
            parts.extend(bottoms);
            return Ok(Sym::Lazy(Rc::new(RefCell::new(Pending::Merge(parts)))));
        }
        // Merging costs steps in proportion to the options merged.
        let work: usize = parts
            .iter()
            .map(|(_, v)| match v {
                Sym::Int(x) => x.options.len(),
                Sym::Data(x) => x.options.len(),
                Sym::Fun(x) => x.options.len(),
                _ => 1,
            })
            .sum();
        for _ in 0..work {
            self.tick()?;
        }
        let free = self.circuit.any(bottoms.iter().map(|b| b.0));
        let mixed = Stop::Unsupported("values of different types merged");
        Ok(match &parts[0].1 {
            Sym::Bool(_) => {
                let mut acc = self.circuit.ff();
                for (g, v) in &parts {
                    let Sym::Bool(b) = v else {
                        return Err(mixed);
                    };
                    let x = self.circuit.and(*g, *b);
                    acc = self.circuit.or(acc, x);
                }
                let any = self.observe_free(free);
                Sym::Bool(self.circuit.or(acc, any))
            }
            Sym::Int(_) => {
                let c = &mut self.circuit;
                let mut out = Choice {
                    options: vec![],
                    free,
                };
                for (g, v) in &parts {
                    let Sym::Int(xs) = v else {
                        return Err(mixed);
                    };
                    for &(n, l) in &xs.options {
                        let x = c.and(*g, l);
                        add_choice(c, &mut out.options, n, x);
                    }
                    let x = c.and(*g, xs.free);
                    out.free = c.or(out.free, x);
                }
                Sym::Int(Rc::new(out))
            }
            Sym::Fun(_) => {
                let c = &mut self.circuit;
                let mut out = Choice {
                    options: vec![],
                    free,
                };
                for (g, v) in &parts {
                    let Sym::Fun(xs) = v else {
                        return Err(mixed);
                    };
                    for (l, f) in &xs.options {
                        out.options.push((c.and(*g, *l), f.clone()));
                    }
                    let x = c.and(*g, xs.free);
                    out.free = c.or(out.free, x);
                }
                Sym::Fun(Rc::new(out))
            }
            Sym::Data(_) => {
                let c = &mut self.circuit;
                // Per constructor: its guard and its fields' parts.
                let mut by_ctor: Vec<(usize, Lit, Vec<Parts<'p>>)> = vec![];
                let mut free = free;
                for (g, v) in &parts {
                    let Sym::Data(alts) = v else {
                        return Err(mixed);
                    };
                    let x = c.and(*g, alts.free);
                    free = c.or(free, x);
                    for alt in &alts.options {
                        let x = c.and(*g, alt.guard);
                        if c.is_ff(x) {
                            continue;
                        }
                        let k = match by_ctor.iter().position(|e| e.0 == alt.ctor) {
                            Some(k) => k,
                            None => {
                                by_ctor.push((alt.ctor, c.ff(), vec![vec![]; alt.fields.len()]));
                                by_ctor.len() - 1
                            }
                        };
                        by_ctor[k].1 = c.or(by_ctor[k].1, x);
                        for (f, field) in alt.fields.iter().enumerate() {
                            by_ctor[k].2[f].push((x, field.clone()));
                        }
                    }
                }
                let options = by_ctor
                    .into_iter()
                    .map(|(ctor, guard, fields)| Alt {
                        ctor,
                        guard,
                        fields: fields.into_iter().map(merge_lazily).collect(),
                    })
                    .collect();
                Sym::Data(Rc::new(Choice { options, free }))
            }
            Sym::Lazy(_) | Sym::Bottom => unreachable!("split off above"),
        })
    }

    /// A literal that may be anything where `free` holds (and is false
    /// elsewhere): an observation of a free value.
    fn observe_free(&mut self, free: Lit) -> Lit {
        if self.circuit.is_ff(free) {
            return free;
        }
        let any = self.circuit.fresh();
        self.circuit.and(free, any)
    }

    fn boolean(&mut self, e: &'p Expr, env: &mut Vec<Sym<'p>>, g: Lit) -> Result<Lit, Stop> {
        let v = self.eval(e, env, g)?;
        match self.whnf(v, g)? {
            Sym::Bool(b) => Ok(b),
            Sym::Bottom => Ok(self.circuit.fresh()),
            _ => Err(Stop::Unsupported("a non-boolean condition")),
        }
    }

    /// An integer operand: its values and where it is free.
    fn int(
        &mut self,
        e: &'p Expr,
        env: &mut Vec<Sym<'p>>,
        g: Lit,
    ) -> Result<Choice<(i64, Lit)>, Stop> {
        let v = self.eval(e, env, g)?;
        match self.whnf(v, g)? {
            Sym::Int(xs) => Ok(Choice {
                options: xs.options.clone(),
                free: xs.free,
            }),
            Sym::Bottom => Ok(Choice {
                options: vec![],
                free: self.circuit.tt(),
            }),
            _ => Err(Stop::Unsupported("a non-integer operand")),
        }
    }

    /// The literal true when `x` and `y` are equal, compared under `g`
    /// left to right as the interpreter compares them.
    fn equal(&mut self, x: Sym<'p>, y: Sym<'p>, g: Lit) -> Result<Lit, Stop> {
        self.tick()?;
        if same(&x, &y) {
            return Ok(self.circuit.tt());
        }
        let x = self.whnf(x, g)?;
        let y = self.whnf(y, g)?;
        let (acc, free) = match (&x, &y) {
            (Sym::Bottom, _) | (_, Sym::Bottom) => return Ok(self.circuit.fresh()),
            (Sym::Bool(a), Sym::Bool(b)) => return Ok(self.circuit.iff(*a, *b)),
            (Sym::Int(a), Sym::Int(b)) => {
                let c = &mut self.circuit;
                if a.options.len().saturating_mul(b.options.len()) > MAX_INT_PAIRS {
                    return Err(Stop::Unsupported("integer equality over too many values"));
                }
                let mut acc = c.ff();
                for &(m, p) in &a.options {
                    for &(n, q) in &b.options {
                        if m == n {
                            let both = c.and(p, q);
                            acc = c.or(acc, both);
                        }
                    }
                }
                (acc, c.or(a.free, b.free))
            }
            (Sym::Data(a), Sym::Data(b)) => {
                let mut acc = self.circuit.ff();
                for p in &a.options {
                    for q in &b.options {
                        if p.ctor != q.ctor {
                            continue;
                        }
                        let both = self.circuit.and(p.guard, q.guard);
                        let mut here = self.circuit.and(g, both);
                        for (fx, fy) in p.fields.iter().zip(q.fields.iter()) {
                            if self.circuit.is_ff(here) {
                                break;
                            }
                            self.enter()?;
                            let e = self.equal(fx.clone(), fy.clone(), here);
                            self.depth -= 1;
                            here = self.circuit.and(here, e?);
                        }
                        acc = self.circuit.or(acc, here);
                    }
                }
                (acc, self.circuit.or(a.free, b.free))
            }
            _ => return Err(Stop::Unsupported("equality of functions")),
        };
        let any = self.observe_free(free);
        Ok(self.circuit.or(acc, any))
    }

    /// Whether a call under `g` is cut (and records it).
    fn cut(&mut self, g: Lit) -> bool {
        if self.depth < self.unroll {
            return false;
        }
        self.cuts.push(g);
        true
    }

    /// Prunes calls nested deeper than [`PRUNE_DEPTH`] whose guard no
    /// input within `bound` satisfies (hbmc's use of the solver during
    /// expansion: without it, recursion that does not follow the input's
    /// structure unrolls every branch a literal leaves open).
    pub(crate) fn prune_beyond(&mut self, bound: Option<Lit>) {
        self.prune_bound = bound;
    }

    /// The condition under which a call was pruned (false if none was).
    pub(crate) fn pruned_condition(&mut self) -> Lit {
        let pruned = std::mem::take(&mut self.pruned);
        self.circuit.any(pruned)
    }

    /// Whether a call under `g` is pruned (and records it).
    fn prune(&mut self, g: Lit) -> bool {
        let Some(bound) = self.prune_bound else {
            return false;
        };
        if self.depth < PRUNE_DEPTH || g == self.circuit.tt() {
            return false;
        }
        let reachable = match self.reachable.get(&g) {
            Some(&r) => r,
            None => {
                let r = !matches!(
                    self.circuit.solve_within(&[g, bound], PRUNE_DECISIONS),
                    Answer::Unsat(_)
                );
                self.reachable.insert(g, r);
                r
            }
        };
        if !reachable {
            self.pruned.push(g);
        }
        !reachable
    }

    /// The condition under which a call was cut (false if none was).
    pub(crate) fn cut_condition(&mut self) -> Lit {
        let cuts = std::mem::take(&mut self.cuts);
        self.circuit.any(cuts)
    }

    /// Calls a function. A call on the same arguments (the same objects)
    /// as an earlier one shares its result: it was evaluated under an
    /// activation literal, which this call's guard now implies.
    fn call(&mut self, f: usize, args: Vec<Sym<'p>>, g: Lit) -> Result<Sym<'p>, Stop> {
        let key = call_key(f, &args);
        if let Some((r, activation, _)) = key.as_ref().and_then(|k| self.calls.get(k)).cloned() {
            self.forced_by(activation, g);
            return Ok(r);
        }
        if self.prune(g) || self.cut(g) {
            return Ok(Sym::Bottom);
        }
        let (act, activation) = match key {
            Some(_) => self.activate(g),
            None => (g, None),
        };
        self.enter()?;
        // The key's identities stay valid while the memo keeps the
        // arguments alive.
        let kept = if key.is_some() { args.clone() } else { vec![] };
        let mut frame = args;
        let prog = self.prog;
        let r = self.eval(&prog.functions[f].body, &mut frame, act);
        self.depth -= 1;
        let r = r?;
        self.forced_by(activation, g);
        if let Some(k) = key {
            self.calls
                .insert(k, (r.clone(), activation, Rc::from(kept)));
        }
        Ok(r)
    }

    fn apply(&mut self, f: Sym<'p>, args: Vec<Sym<'p>>, g: Lit) -> Result<Sym<'p>, Stop> {
        let f = self.whnf(f, g)?;
        let closures = match f {
            Sym::Fun(cs) => cs,
            Sym::Bottom => return Ok(Sym::Bottom),
            _ => return Err(Stop::Unsupported("applying a value that is not a function")),
        };
        let mut results = vec![(closures.free, Sym::Bottom)];
        for (l, closure) in &closures.options {
            let under = self.circuit.and(g, *l);
            if self.circuit.is_ff(under) {
                continue;
            }
            let r = match closure {
                Closure::Fun(f) => {
                    if self.prog.functions[*f].params.len() != args.len() {
                        return Err(Stop::Unsupported("a partial application"));
                    }
                    self.call(*f, args.clone(), under)?
                }
                Closure::Lambda(id, captured) => {
                    let prog = self.prog;
                    let lambda = &prog.lambdas[*id];
                    if lambda.params.len() != args.len() {
                        return Err(Stop::Unsupported("a partial application"));
                    }
                    if self.cut(under) {
                        results.push((*l, Sym::Bottom));
                        continue;
                    }
                    let mut frame = captured.clone();
                    for (&slot, v) in lambda.params.iter().zip(&args) {
                        set(&mut frame, slot, v.clone());
                    }
                    self.enter()?;
                    let r = self.eval(&lambda.body, &mut frame, under);
                    self.depth -= 1;
                    r?
                }
            };
            results.push((*l, r));
        }
        self.merge(results)
    }

    /// A value with one option.
    fn one<T>(&self, option: T) -> Rc<Choice<T>> {
        Rc::new(Choice {
            options: vec![option],
            free: self.circuit.ff(),
        })
    }

    /// Evaluates `e` in `env`; `g` is true exactly when the evaluation
    /// reaches it.
    pub(crate) fn eval(
        &mut self,
        e: &'p Expr,
        env: &mut Vec<Sym<'p>>,
        g: Lit,
    ) -> Result<Sym<'p>, Stop> {
        self.tick()?;
        if self.circuit.is_ff(g) {
            return Ok(Sym::Bottom);
        }
        let tt = self.circuit.tt();
        Ok(match e {
            Expr::Local(s) => env
                .get(*s)
                .cloned()
                .ok_or(Stop::Unsupported("an unbound variable"))?,
            Expr::FunRef(f) => Sym::Fun(self.one((tt, Closure::Fun(*f)))),
            Expr::Constant(_) => return Err(Stop::Unsupported("a hoisted constant")),
            Expr::Free(_) => {
                return Err(Stop::Unsupported("a declared symbol without a definition"))
            }
            Expr::Call(f, args) => {
                let xs = args.iter().map(|a| delay(a, env)).collect();
                return self.call(*f, xs, g);
            }
            Expr::Con(c, args) => Sym::Data(self.one(Alt {
                ctor: *c,
                guard: tt,
                fields: args.iter().map(|a| delay(a, env)).collect(),
            })),
            Expr::Select(c, k, x) => {
                let v = self.eval(x, env, g)?;
                match self.whnf(v, g)? {
                    Sym::Data(alts) => {
                        let mut parts = vec![(alts.free, Sym::Bottom)];
                        for alt in &alts.options {
                            if alt.ctor == *c {
                                parts.push((alt.guard, alt.fields[*k].clone()));
                            } else {
                                let u = self.circuit.and(g, alt.guard);
                                self.undefined_under(u);
                            }
                        }
                        return self.merge(parts);
                    }
                    _ => Sym::Bottom,
                }
            }
            Expr::Is(c, x) => {
                let v = self.eval(x, env, g)?;
                match self.whnf(v, g)? {
                    Sym::Data(alts) => {
                        let hit = alts
                            .options
                            .iter()
                            .find(|a| a.ctor == *c)
                            .map_or(self.circuit.ff(), |a| a.guard);
                        let any = self.observe_free(alts.free);
                        Sym::Bool(self.circuit.or(hit, any))
                    }
                    _ => Sym::Bool(self.circuit.fresh()),
                }
            }
            Expr::Match(x, cases) => {
                let v = self.eval(x, env, g)?;
                let v = self.whnf(v, g)?;
                return self.branch(v, cases, env, g);
            }
            Expr::Ite(parts) => {
                let [c, t, f] = &**parts;
                let c = self.boolean(c, env, g)?;
                let (gt, gf) = (self.circuit.and(g, c), self.circuit.and(g, !c));
                if self.circuit.is_ff(gf) {
                    return self.eval(t, env, g);
                }
                if self.circuit.is_ff(gt) {
                    return self.eval(f, env, g);
                }
                let a = self.case_body(t, env, gt, true)?;
                let b = self.case_body(f, env, gf, true)?;
                return self.merge(vec![(c, a), (!c, b)]);
            }
            Expr::And(xs) => {
                let mut acc = tt;
                for x in xs {
                    let under = self.circuit.and(g, acc);
                    let b = self.boolean(x, env, under)?;
                    acc = self.circuit.and(acc, b);
                    if self.circuit.is_ff(acc) {
                        break;
                    }
                }
                Sym::Bool(acc)
            }
            Expr::Or(xs) => {
                let mut acc = self.circuit.ff();
                for x in xs {
                    let under = self.circuit.and(g, !acc);
                    let b = self.boolean(x, env, under)?;
                    acc = self.circuit.or(acc, b);
                    if acc == tt {
                        break;
                    }
                }
                Sym::Bool(acc)
            }
            Expr::Xor(xs) => {
                let mut acc = self.circuit.ff();
                for x in xs {
                    let b = self.boolean(x, env, g)?;
                    acc = self.circuit.iff(acc, !b);
                }
                Sym::Bool(acc)
            }
            Expr::Not(x) => Sym::Bool(!self.boolean(x, env, g)?),
            Expr::Implies(xs) => {
                let (last, hyps) = xs.split_last().ok_or(Stop::Unsupported("an empty =>"))?;
                // True at the first false hypothesis.
                let mut all = tt;
                for h in hyps {
                    let under = self.circuit.and(g, all);
                    let b = self.boolean(h, env, under)?;
                    all = self.circuit.and(all, b);
                }
                let under = self.circuit.and(g, all);
                let conclusion = self.boolean(last, env, under)?;
                let fails = self.circuit.and(all, !conclusion);
                Sym::Bool(!fails)
            }
            Expr::Eq(xs) => {
                let first = self.eval(&xs[0], env, g)?;
                let mut acc = tt;
                for x in &xs[1..] {
                    let under = self.circuit.and(g, acc);
                    let v = self.eval(x, env, under)?;
                    let e = self.equal(first.clone(), v, under)?;
                    acc = self.circuit.and(acc, e);
                }
                Sym::Bool(acc)
            }
            Expr::Distinct(xs) => {
                let mut vs = Vec::with_capacity(xs.len());
                for x in xs {
                    vs.push(self.eval(x, env, g)?);
                }
                let mut acc = tt;
                for i in 0..vs.len() {
                    for j in i + 1..vs.len() {
                        let under = self.circuit.and(g, acc);
                        let e = self.equal(vs[i].clone(), vs[j].clone(), under)?;
                        acc = self.circuit.and(acc, !e);
                    }
                }
                Sym::Bool(acc)
            }
            Expr::Let(binds, body) => {
                let thunks: Vec<Sym<'p>> = binds.iter().map(|(_, x)| delay(x, env)).collect();
                for ((s, _), v) in binds.iter().zip(thunks) {
                    set(env, *s, v);
                }
                return self.eval(body, env, g);
            }
            Expr::Lambda(id) => Sym::Fun(self.one((tt, Closure::Lambda(*id, env.clone())))),
            Expr::Apply(f, args) => {
                let fv = self.eval(f, env, g)?;
                let xs = args.iter().map(|a| delay(a, env)).collect();
                return self.apply(fv, xs, g);
            }
            Expr::Int(i) => Sym::Int(self.one((*i, tt))),
            Expr::Bool(b) => Sym::Bool(if *b { tt } else { self.circuit.ff() }),
            Expr::Neg(x) => {
                let xs = self.int(x, env, g)?;
                let mut out = Choice {
                    options: vec![],
                    free: xs.free,
                };
                for (n, l) in xs.options {
                    match n.checked_neg() {
                        Some(m) => out.options.push((m, l)),
                        None => {
                            let u = self.circuit.and(g, l);
                            self.undefined_under(u);
                        }
                    }
                }
                Sym::Int(Rc::new(out))
            }
            Expr::Arith(op, xs) => {
                let mut acc = self.int(&xs[0], env, g)?;
                for x in &xs[1..] {
                    let b = self.int(x, env, g)?;
                    if acc.options.len().saturating_mul(b.options.len()) > MAX_INT_PAIRS {
                        return Err(Stop::Unsupported("integer arithmetic over too many values"));
                    }
                    let mut out = Choice {
                        options: vec![],
                        free: self.circuit.or(acc.free, b.free),
                    };
                    for &(m, p) in &acc.options {
                        for &(n, q) in &b.options {
                            let both = self.circuit.and(p, q);
                            if self.circuit.is_ff(both) {
                                continue;
                            }
                            let r = match op {
                                Arith::Add => m.checked_add(n),
                                Arith::Sub => m.checked_sub(n),
                                Arith::Mul => m.checked_mul(n),
                                Arith::Div if n == 0 => None,
                                Arith::Mod if n == 0 => None,
                                Arith::Div => m.checked_div_euclid(n),
                                Arith::Mod => m.checked_rem_euclid(n),
                            };
                            match r {
                                Some(r) => add_choice(&mut self.circuit, &mut out.options, r, both),
                                None => {
                                    let u = self.circuit.and(g, both);
                                    self.undefined_under(u);
                                }
                            }
                        }
                    }
                    acc = out;
                }
                Sym::Int(Rc::new(acc))
            }
            Expr::Cmp(op, xs) => {
                let mut prev = self.int(&xs[0], env, g)?;
                let mut acc = tt;
                for x in &xs[1..] {
                    let under = self.circuit.and(g, acc);
                    let b = self.int(x, env, under)?;
                    if prev.options.len().saturating_mul(b.options.len()) > MAX_INT_PAIRS {
                        return Err(Stop::Unsupported("integer comparison over too many values"));
                    }
                    let mut holds = self.circuit.ff();
                    for &(m, p) in &prev.options {
                        for &(n, q) in &b.options {
                            let ok = match op {
                                Cmp::Lt => m < n,
                                Cmp::Le => m <= n,
                                Cmp::Gt => m > n,
                                Cmp::Ge => m >= n,
                            };
                            if ok {
                                let both = self.circuit.and(p, q);
                                holds = self.circuit.or(holds, both);
                            }
                        }
                    }
                    let free = self.circuit.or(prev.free, b.free);
                    let any = self.observe_free(free);
                    holds = self.circuit.or(holds, any);
                    acc = self.circuit.and(acc, holds);
                    prev = b;
                }
                Sym::Bool(acc)
            }
            Expr::Undefined => {
                self.undefined_under(g);
                Sym::Bottom
            }
            Expr::Delay(inner, _) => return self.eval(inner, env, g),
            Expr::Exists(..) | Expr::Forall(..) => {
                return Err(Stop::Unsupported("a nested quantifier"))
            }
        })
    }

    /// The body of one of several live branches: a call is left
    /// unevaluated, so that calls of one function from different branches
    /// merge into one call on merged arguments when the result is forced
    /// ([`merged_call`]; hbmc's merging of function calls, done where the
    /// results meet instead of by a program transformation).
    fn case_body(
        &mut self,
        body: &'p Expr,
        env: &mut Vec<Sym<'p>>,
        g: Lit,
        others_live: bool,
    ) -> Result<Sym<'p>, Stop> {
        let call = matches!(strip_delay(body), Expr::Call(..));
        if call && others_live {
            return Ok(delay(body, env));
        }
        self.eval(body, env, g)
    }

    /// A `match` on a value in weak head normal form: each constructor the
    /// value may have runs its case under its guard.
    fn branch(
        &mut self,
        v: Sym<'p>,
        cases: &'p [(Pat, Expr)],
        env: &mut Vec<Sym<'p>>,
        g: Lit,
    ) -> Result<Sym<'p>, Stop> {
        let mut results = vec![];
        match v {
            Sym::Bottom => return Ok(Sym::Bottom),
            Sym::Bool(b) => {
                let mut left = self.circuit.tt();
                for (pat, body) in cases {
                    let hit = match pat {
                        Pat::Wild => left,
                        Pat::Bool(true) => self.circuit.and(left, b),
                        Pat::Bool(false) => self.circuit.and(left, !b),
                        Pat::Ctor(..) => self.circuit.ff(),
                    };
                    left = self.circuit.and(left, !hit);
                    let under = self.circuit.and(g, hit);
                    if self.circuit.is_ff(under) {
                        continue;
                    }
                    let r = self.eval(body, env, under)?;
                    results.push((hit, r));
                }
                let u = self.circuit.and(g, left);
                self.undefined_under(u);
            }
            Sym::Data(alts) => {
                results.push((alts.free, Sym::Bottom));
                let live = alts
                    .options
                    .iter()
                    .filter(|a| !self.circuit.is_ff(a.guard))
                    .count();
                // Constructors that reach a wildcard share one evaluation.
                let mut wild: Option<(usize, Lit)> = None;
                for alt in &alts.options {
                    let under = self.circuit.and(g, alt.guard);
                    if self.circuit.is_ff(under) {
                        continue;
                    }
                    let case = cases.iter().position(|(p, _)| match p {
                        Pat::Wild => true,
                        Pat::Ctor(c, _) => *c == alt.ctor,
                        Pat::Bool(_) => false,
                    });
                    match case {
                        None => self.undefined_under(under),
                        Some(k) => match &cases[k].0 {
                            Pat::Ctor(_, slots) => {
                                for (&s, f) in slots.iter().zip(alt.fields.iter()) {
                                    set(env, s, f.clone());
                                }
                                let r = self.case_body(&cases[k].1, env, under, live > 1)?;
                                results.push((alt.guard, r));
                            }
                            _ => {
                                let w = wild.map_or(self.circuit.ff(), |w| w.1);
                                wild = Some((k, self.circuit.or(w, alt.guard)));
                            }
                        },
                    }
                }
                if let Some((k, guard)) = wild {
                    let under = self.circuit.and(g, guard);
                    let r = self.case_body(&cases[k].1, env, under, live > 1)?;
                    results.push((guard, r));
                }
            }
            _ => {
                return Err(Stop::Unsupported(
                    "a match on a value that is not a datatype",
                ))
            }
        }
        self.merge(results)
    }
}

/// A call's result, its activation, and its arguments (kept alive).
type Memo<'p> = (Sym<'p>, Option<usize>, Rc<[Sym<'p>]>);

/// A call's function and its arguments' identities.
type CallKey = (usize, Vec<usize>);

/// The key of a call whose arguments all have an identity (a free value
/// has none: two are different values).
fn call_key(f: usize, args: &[Sym<'_>]) -> Option<CallKey> {
    let mut ids = Vec::with_capacity(args.len());
    for a in args {
        ids.push(match a {
            Sym::Lazy(x) => Rc::as_ptr(x) as *const u8 as usize,
            Sym::Data(x) => Rc::as_ptr(x) as *const u8 as usize,
            Sym::Int(x) => Rc::as_ptr(x) as *const u8 as usize,
            Sym::Fun(x) => Rc::as_ptr(x) as *const u8 as usize,
            // Literals are even (a variable's two signs): odd numbers keep
            // them apart from addresses, which are aligned.
            Sym::Bool(l) => (l.idx() as usize) << 1 | 1,
            Sym::Bottom => return None,
        });
    }
    Some((f, ids))
}

/// The expression under its delays.
fn strip_delay(e: &Expr) -> &Expr {
    let mut e = e;
    while let Expr::Delay(inner, _) = e {
        e = inner;
    }
    e
}

/// A merged call: if the unevaluated parts of a merge are all calls of one
/// function (besides free parts), that function, its arguments merged per
/// position, the guards of the calls, and the free parts' guards.
#[allow(clippy::type_complexity)]
fn merged_call<'p>(parts: &Parts<'p>) -> Option<(usize, Vec<Sym<'p>>, Vec<Lit>, Vec<Lit>)> {
    let mut function = None;
    let mut args: Vec<Parts<'p>> = vec![];
    let mut guards = vec![];
    let mut bottoms = vec![];
    for (guard, part) in parts {
        let cell = match part {
            Sym::Bottom => {
                bottoms.push(*guard);
                continue;
            }
            Sym::Lazy(cell) => cell,
            _ => return None,
        };
        let state = cell.try_borrow().ok()?;
        let Pending::Thunk(e, env) = &*state else {
            return None;
        };
        let Expr::Call(f, xs) = strip_delay(e) else {
            return None;
        };
        if function.is_some_and(|g| g != *f) {
            return None;
        }
        function = Some(*f);
        if args.is_empty() {
            args = vec![vec![]; xs.len()];
        }
        for (k, x) in xs.iter().enumerate() {
            args[k].push((*guard, delay(x, env)));
        }
        guards.push(*guard);
    }
    if guards.len() < 2 {
        return None;
    }
    let f = function?;
    Some((
        f,
        args.into_iter().map(merge_lazily).collect(),
        guards,
        bottoms,
    ))
}

/// A field of merged values: the one value if all parts share it,
/// otherwise merged when demanded.
fn merge_lazily<'p>(parts: Vec<(Lit, Sym<'p>)>) -> Sym<'p> {
    if parts.iter().all(|(_, v)| same(v, &parts[0].1)) {
        return parts.into_iter().next().map_or(Sym::Bottom, |p| p.1);
    }
    Sym::Lazy(Rc::new(RefCell::new(Pending::Merge(parts))))
}

/// `present` holds exactly when one of `lits` does; none holds otherwise.
fn one_of(c: &mut Circuit, present: Lit, lits: Vec<Lit>) {
    if lits.len() == 1 && lits[0] == present {
        return;
    }
    for &l in &lits {
        c.add(&[!l, present]);
    }
    let mut clause = lits.clone();
    clause.push(!present);
    c.add(&clause);
    c.at_most_one(&lits);
}

/// Adds `n` under `guard` to a choice of integers.
fn add_choice(c: &mut Circuit, choices: &mut Vec<(i64, Lit)>, n: i64, guard: Lit) {
    if c.is_ff(guard) {
        return;
    }
    match choices.iter_mut().find(|(m, _)| *m == n) {
        Some(entry) => entry.1 = c.or(entry.1, guard),
        None => choices.push((n, guard)),
    }
}

/// Whether two values are the same object (so equal, and merged as one).
fn same<'p>(x: &Sym<'p>, y: &Sym<'p>) -> bool {
    match (x, y) {
        (Sym::Lazy(a), Sym::Lazy(b)) => Rc::ptr_eq(a, b),
        (Sym::Data(a), Sym::Data(b)) => Rc::ptr_eq(a, b),
        (Sym::Bool(a), Sym::Bool(b)) => a == b,
        (Sym::Int(a), Sym::Int(b)) => Rc::ptr_eq(a, b),
        _ => false,
    }
}

fn set<'p>(env: &mut Vec<Sym<'p>>, slot: usize, v: Sym<'p>) {
    if env.len() <= slot {
        env.resize(slot + 1, Sym::Bottom);
    }
    env[slot] = v;
}

/// An argument, field or `let` binding, evaluated when first forced.
fn delay<'p>(e: &'p Expr, env: &[Sym<'p>]) -> Sym<'p> {
    match e {
        Expr::Local(s) if *s < env.len() => env[*s].clone(),
        Expr::Delay(inner, need) => Sym::Lazy(Rc::new(RefCell::new(Pending::Thunk(
            inner,
            env[..(*need).min(env.len())].to_vec(),
        )))),
        _ => Sym::Lazy(Rc::new(RefCell::new(Pending::Thunk(e, env.to_vec())))),
    }
}

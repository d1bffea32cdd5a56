//! The symbolic search (`neatcheck tip --symbolic`): instead of running
//! the conjecture on one input at a time, it evaluates it once over an
//! input whose constructors are SAT literals (`eval`), and asks a SAT
//! solver (`circuit`) for an input on which it is false.
//!
//! The input grows by demand, as in lazy enumeration: a round expands
//! the positions the last answer showed were needed (the unsatisfiable
//! core's stubs), and the size bound grows one at a time, so the first
//! counterexample is a smallest one. Every witness is confirmed by the
//! ordinary interpreter, by need and by value, before it is reported.

mod circuit;
mod eval;

use super::eval::{Judgement, Limits, Machine, Meanings, Value};
use super::program::free_symbols_used;
use super::program::{Goal, Program, Type};
use super::search::{concrete, failed_with, refuted_by_value, Verdict};
use crate::adapter::{Coverage, Stopped};
use batsat::Lit;
use circuit::Answer;
use eval::{Build, NodeKind, Stop};
use neatcheck::dynamic::DynValue;
use std::cell::RefCell;
use std::collections::HashMap;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::time::Instant;

/// What the symbolic search did, for its report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Effort {
    /// Formulas built (one per round of expansion).
    pub(crate) builds: u64,
    /// Solver calls.
    pub(crate) solves: u64,
    /// Witnesses the interpreter refuted (and the search then excluded).
    pub(crate) refuted: u64,
    /// Variables of the last formula.
    pub(crate) variables: u64,
    /// Clauses of the last formula.
    pub(crate) clauses: u64,
    /// Why the search stopped before its size bound, if it did.
    pub(crate) stopped: Option<String>,
    /// Whether a proof covered inputs of every size (the parts it did not
    /// expand free), not only those within the bound.
    pub(crate) proved: bool,
}

impl Effort {
    /// One line for the report.
    pub(crate) fn line(&self) -> String {
        let mut s = format!(
            "symbolic: {} rounds, {} solver calls, {} variables and {} clauses in the last formula",
            self.builds, self.solves, self.variables, self.clauses
        );
        if self.refuted > 0 {
            let _ = write!(s, ", {} witnesses refuted by the interpreter", self.refuted);
        }
        if self.proved {
            s.push_str("; holds for inputs of every size (type variables at their instance)");
        }
        if let Some(why) = &self.stopped {
            let _ = write!(s, "; stopped: {why}");
        }
        s
    }
}

/// The largest size the counter distinguishes (a weight past it counts
/// as "too large").
const COUNT_CAP: usize = 1 << 16;

/// The deepest nesting of calls the search unrolls.
const MAX_UNROLL: usize = 8192;

/// Searches one goal symbolically, up to `max_size` (total size of its
/// variables, as the enumerative search counts it) or the deadline.
pub(crate) fn search_goal(
    prog: &Program,
    goal: &Goal,
    max_size: usize,
    limits: Limits,
    time: Option<std::time::Duration>,
) -> (Verdict, Effort) {
    let mut effort = Effort::default();
    if !free_symbols_used(prog, &goal.body).is_empty() {
        return (
            Verdict::Error(
                "the symbolic search does not take declared symbols without a definition".into(),
            ),
            effort,
        );
    }
    let var_types: Vec<Type> = goal.vars.iter().map(|(_, t)| concrete(prog, t)).collect();
    if var_types
        .iter()
        .any(|t| reaches_function(prog, t, &mut vec![]))
    {
        return (
            Verdict::Error("the symbolic search does not take function-typed variables".into()),
            effort,
        );
    }
    let deadline = time.map(|t| Instant::now() + t);
    let min_sizes = MinSizes::new();
    for ((name, _), t) in goal.vars.iter().zip(&var_types) {
        if min_sizes.of(prog, t) >= NO_VALUE {
            return (
                Verdict::Error(format!(
                    "{name} has a type without values (every constructor needs a value of \
                     the type itself)"
                )),
                effort,
            );
        }
    }
    let mut expanded: HashSet<Vec<u32>> = HashSet::new();
    let mut size = 0usize;
    let mut int_range: i64 = 4;
    let mut unroll: usize = 16;
    // `bound`: the largest size searched completely.
    let passed = |bound: Option<usize>, effort: &Effort, stopped: Stopped| Verdict::Passed {
        coverage: Coverage {
            bound,
            runs: effort.solves,
            discarded: 0,
            #[cfg(test)]
            runs_last_bound: 0,
            stopped,
        },
        aborted: vec![],
        vacuous: 0,
    };
    'rebuild: loop {
        effort.builds += 1;
        // One formula's evaluation gets the steps one run would.
        let fuel = limits.fuel;
        let mut build = Build::new(
            prog, &var_types, &expanded, int_range, unroll, fuel, deadline,
        );
        // The size: one per constructor, a stub at its type's smallest.
        let mut cost: Vec<Lit> = vec![];
        for node in &build.nodes {
            let weight = match &node.kind {
                // Past the bound, a weight only needs to exceed it.
                NodeKind::Stub => min_sizes
                    .of(prog, &node.ty)
                    .min(max_size.min(COUNT_CAP) + 1),
                NodeKind::Data(_) | NodeKind::Bool(_) => 1,
                NodeKind::Int(values) => {
                    for k in 1..=int_range {
                        let at_least: Vec<Lit> = values
                            .iter()
                            .filter(|(n, _)| n.unsigned_abs() >= k as u64)
                            .map(|v| v.1)
                            .collect();
                        let l = build.circuit.any(at_least);
                        cost.push(l);
                    }
                    0
                }
            };
            cost.extend(std::iter::repeat_n(node.present, weight));
        }
        let cap = max_size.min(cost.len()).min(COUNT_CAP).saturating_add(1);
        let at_least = build.circuit.at_least(&cost, cap);
        let cost_len = cost.len();
        let has_int = build
            .nodes
            .iter()
            .any(|n| matches!(n.kind, NodeKind::Int(_)));
        // Calls deep in the recursion are evaluated only where a model of
        // this size can reach them.
        let built_at = size;
        build.prune_beyond((size < at_least.len()).then(|| !at_least[size]));
        let inputs = build.inputs();
        let holds = match build.goal(&goal.body, inputs) {
            Ok(l) => l,
            Err(stop) => {
                let stopped = match stop {
                    Stop::Time => Stopped::TimeLimit(size),
                    _ => Stopped::AtSizeBound,
                };
                effort.stopped = Some(match stop {
                    Stop::Fuel => format!(
                        "evaluating the conjecture over the inputs of size {size} took more than \
                         {fuel} steps"
                    ),
                    Stop::Depth => format!("calls nested too deeply at size {size}"),
                    Stop::Unsupported(what) => format!("unsupported: {what}"),
                    Stop::Time => "the time limit".into(),
                    Stop::Formula => format!(
                        "at size {size}, the formula grew past {} variables",
                        eval::MAX_VARIABLES
                    ),
                });
                return (passed(size.checked_sub(1), &effort, stopped), effort);
            }
        };
        // A counterexample: the goal false and defined.
        build.circuit.add(&[!holds]);
        let cut = build.cut_condition();
        let pruned = build.pruned_condition();
        let stubs: Vec<(usize, Lit)> = {
            let mut d: Vec<(usize, Lit)> = build.demanded.iter().map(|(&k, &l)| (k, l)).collect();
            d.sort_unstable();
            d
        };
        let (variables, clauses) = build.circuit.size();
        (effort.variables, effort.clauses) = (variables, clauses);
        loop {
            if size > max_size {
                return (
                    passed(Some(max_size), &effort, Stopped::AtSizeBound),
                    effort,
                );
            }
            if has_int && size as i64 > int_range {
                int_range *= 2;
                continue 'rebuild;
            }
            let mut assumptions: Vec<Lit> = stubs.iter().map(|&(_, l)| !l).collect();
            assumptions.push(!cut);
            assumptions.push(!pruned);
            if size < at_least.len() {
                assumptions.push(!at_least[size]);
            }
            effort.solves += 1;
            match build.circuit.solve(&assumptions) {
                Answer::Sat => {
                    let witness: Vec<Witness> = build
                        .roots()
                        .iter()
                        .map(|&r| decode(&build, r, prog, &min_sizes))
                        .collect();
                    if confirm(prog, goal, &witness, limits) {
                        let arguments: Vec<DynValue> = witness
                            .iter()
                            .zip(&var_types)
                            .map(|(w, t)| w.to_dyn(prog, t))
                            .collect();
                        let found: u64 = witness.iter().map(Witness::size).sum();
                        // Every smaller size was refuted (stubs count at
                        // their types' smallest, so the count is exact).
                        let minimal = found == size as u64;
                        let verdict =
                            failed_with(prog, goal, arguments, found, minimal, effort.solves);
                        return (verdict, effort);
                    }
                    effort.refuted += 1;
                    let block = blocking_clause(&build);
                    build.circuit.add(&block);
                }
                Answer::Unsat(core) => {
                    // Cores are not minimal: unroll or rebuild only if
                    // the proof needs the cut or pruned calls.
                    let mut core = core;
                    for extra in [!cut, !pruned] {
                        if core.contains(&extra) {
                            let without: Vec<Lit> = assumptions
                                .iter()
                                .copied()
                                .filter(|&a| a != extra)
                                .collect();
                            effort.solves += 1;
                            if let Answer::Unsat(smaller) = build.circuit.solve(&without) {
                                core = smaller;
                            }
                        }
                    }
                    if core.contains(&!pruned) && size > built_at {
                        // Calls pruned for the smaller bound may matter now.
                        continue 'rebuild;
                    }
                    let bounded = size < at_least.len() && core.contains(&!at_least[size]);
                    if !bounded
                        && !has_int
                        && !core.contains(&!cut)
                        && !core.contains(&!pruned)
                        && !stubs.iter().any(|s| core.contains(&!s.1))
                    {
                        // Refuted for inputs of every size (what is not
                        // expanded is free): a proof, so every size up to
                        // the bound is searched. Integers range over an
                        // interval only, so a proof needs their absence.
                        effort.proved = true;
                        let largest = if max_size == usize::MAX {
                            cost_len.max(size)
                        } else {
                            max_size
                        };
                        return (passed(Some(largest), &effort, Stopped::AllInputs), effort);
                    }
                    let mut grew = false;
                    if core.contains(&!cut) {
                        if unroll >= MAX_UNROLL {
                            effort.stopped = Some(format!(
                                "at size {size}, recursion deeper than {MAX_UNROLL} calls"
                            ));
                            return (
                                passed(size.checked_sub(1), &effort, Stopped::AtSizeBound),
                                effort,
                            );
                        }
                        unroll *= 2;
                        grew = true;
                    }
                    for &(id, l) in &stubs {
                        // A position below more constructors than the bound
                        // is in no input of this size.
                        let node = &build.nodes[id];
                        if core.contains(&!l) && (node.path.len() - 1) / 2 <= size {
                            grew |= expanded.insert(node.path.clone());
                        }
                    }
                    if grew {
                        continue 'rebuild;
                    }
                    size += 1;
                }
                Answer::Stopped => {
                    effort.stopped = Some("the time limit".into());
                    return (
                        passed(size.checked_sub(1), &effort, Stopped::TimeLimit(size)),
                        effort,
                    );
                }
            }
        }
    }
}

/// A clause that excludes the input of the last model (the values of its
/// expanded positions).
fn blocking_clause(build: &Build<'_>) -> Vec<Lit> {
    let mut clause = vec![];
    for node in &build.nodes {
        if !build.circuit.value(node.present) {
            continue;
        }
        match &node.kind {
            NodeKind::Stub => {}
            NodeKind::Bool(b) => clause.push(if build.circuit.value(*b) { !*b } else { *b }),
            NodeKind::Int(values) => clause.extend(
                values
                    .iter()
                    .filter(|v| build.circuit.value(v.1))
                    .map(|v| !v.1),
            ),
            NodeKind::Data(alts) => clause.extend(
                alts.iter()
                    .filter(|a| build.circuit.value(a.1) && a.1 != node.present)
                    .map(|a| !a.1),
            ),
        }
    }
    clause
}

/// A value of the input, read off a model.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Witness {
    Con(usize, Vec<Witness>),
    Bool(bool),
    Int(i64),
}

impl Witness {
    /// Its size, as the enumerative search counts it.
    fn size(&self) -> u64 {
        match self {
            Witness::Con(_, fields) => 1 + fields.iter().map(Witness::size).sum::<u64>(),
            Witness::Bool(_) => 1,
            Witness::Int(n) => n.unsigned_abs(),
        }
    }

    /// The interpreter's value.
    fn value<'p>(&self) -> Value<'p> {
        match self {
            Witness::Con(c, fields) => Value::Con(
                *c,
                fields.iter().map(Witness::value).collect::<Vec<_>>().into(),
            ),
            Witness::Bool(b) => Value::Bool(*b),
            Witness::Int(n) => Value::Int(*n),
        }
    }

    /// The value as the enumerative search reports it.
    fn to_dyn(&self, prog: &Program, t: &Type) -> DynValue {
        match (self, t) {
            (Witness::Con(c, fields), Type::Data(_, args)) => {
                let ctor = &prog.ctors[*c];
                let index = prog.datatypes[ctor.datatype]
                    .ctors
                    .iter()
                    .position(|k| k == c)
                    .unwrap_or(0);
                let type_name = super::search::universe_type_name(prog, t);
                DynValue::Data {
                    index,
                    name: super::search::universe_ctor_name(prog, &type_name, *c).into(),
                    fields: fields
                        .iter()
                        .zip(&ctor.fields)
                        .map(|(w, (_, ft))| {
                            w.to_dyn(prog, &concrete(prog, &super::eval::substitute(ft, args)))
                        })
                        .collect(),
                }
            }
            (Witness::Bool(b), _) => DynValue::Bool(*b),
            (Witness::Int(n), _) => DynValue::Int(*n),
            (Witness::Con(..), _) => DynValue::Bool(false),
        }
    }
}

/// The input a model chose, from node `id` down; a stub the model left
/// out of the evaluation takes its type's smallest value.
fn decode(build: &Build<'_>, id: usize, prog: &Program, min: &MinSizes) -> Witness {
    let node = &build.nodes[id];
    let c = &build.circuit;
    match &node.kind {
        NodeKind::Stub => min.smallest(prog, &node.ty),
        NodeKind::Bool(b) => Witness::Bool(c.value(*b)),
        NodeKind::Int(values) => {
            Witness::Int(values.iter().find(|v| c.value(v.1)).map_or(0, |v| v.0))
        }
        NodeKind::Data(alts) => {
            let (ctor, _, fields) = alts.iter().find(|a| c.value(a.1)).unwrap_or(&alts[0]);
            Witness::Con(
                *ctor,
                fields
                    .iter()
                    .map(|&f| decode(build, f, prog, min))
                    .collect(),
            )
        }
    }
}

/// Whether the interpreter finds the goal false on the witness, by need
/// and confirmed by value, as the enumerative search requires.
fn confirm(prog: &Program, goal: &Goal, witness: &[Witness], limits: Limits) -> bool {
    let meanings = Meanings::new();
    let inputs = |w: &[Witness]| w.iter().map(Witness::value).collect::<Vec<Value<'_>>>();
    let mut lazy = Machine::new(prog, &meanings, limits);
    if lazy.judge(&goal.body, inputs(witness)) != Ok(Judgement::Fails) {
        return false;
    }
    let mut strict = Machine::new(prog, &meanings, limits).strict();
    refuted_by_value(strict.goal(&goal.body, inputs(witness))).is_ok()
}

/// The smallest size of a value of each concrete type, and a smallest
/// value.
#[derive(Default)]
struct MinSizes {
    known: RefCell<HashMap<Type, usize>>,
}

/// A size no value reaches.
const NO_VALUE: usize = usize::MAX / 4;

impl MinSizes {
    fn new() -> Self {
        MinSizes::default()
    }

    /// The smallest size of a value of the concrete type `t`.
    fn of(&self, prog: &Program, t: &Type) -> usize {
        if let Some(&n) = self.known.borrow().get(t) {
            return n;
        }
        let n = Self::least(prog, t, &mut vec![]);
        self.known.borrow_mut().insert(t.clone(), n);
        n
    }

    /// The least size of `t` among values that hold no value of a type in
    /// `outer` (a smallest value holds none of its own type: the inner
    /// one would be smaller).
    fn least(prog: &Program, t: &Type, outer: &mut Vec<Type>) -> usize {
        match t {
            Type::Bool => 1,
            Type::Data(d, args) => {
                if outer.contains(t) {
                    return NO_VALUE;
                }
                outer.push(t.clone());
                let mut best = NO_VALUE;
                for &c in &prog.datatypes[*d].ctors {
                    let mut total = 1usize;
                    for (_, ft) in &prog.ctors[c].fields {
                        let ft = super::eval::substitute(ft, args);
                        total = total.saturating_add(Self::least(prog, &ft, outer));
                    }
                    best = best.min(total);
                }
                outer.pop();
                best
            }
            _ => 0,
        }
    }

    /// A smallest value of the concrete type `t`.
    fn smallest(&self, prog: &Program, t: &Type) -> Witness {
        match t {
            Type::Bool => Witness::Bool(false),
            Type::Data(d, args) => {
                let fields_of = |c: usize| -> Vec<Type> {
                    prog.ctors[c]
                        .fields
                        .iter()
                        .map(|(_, ft)| super::eval::substitute(ft, args))
                        .collect()
                };
                let best = prog.datatypes[*d]
                    .ctors
                    .iter()
                    .copied()
                    .min_by_key(|&c| {
                        fields_of(c)
                            .iter()
                            .fold(1usize, |acc, ft| acc.saturating_add(self.of(prog, ft)))
                    })
                    .unwrap_or(0);
                Witness::Con(
                    best,
                    fields_of(best)
                        .iter()
                        .map(|ft| self.smallest(prog, ft))
                        .collect(),
                )
            }
            _ => Witness::Int(0),
        }
    }
}

/// Whether a value of `t` can hold a function (`seen`: the datatypes on
/// the way, each looked into once).
fn reaches_function(prog: &Program, t: &Type, seen: &mut Vec<Type>) -> bool {
    match t {
        Type::Fun(..) => true,
        Type::Data(d, args) => {
            if seen.contains(t) {
                return false;
            }
            seen.push(t.clone());
            prog.datatypes[*d].ctors.iter().any(|&c| {
                prog.ctors[c]
                    .fields
                    .iter()
                    .any(|(_, ft)| reaches_function(prog, &super::eval::substitute(ft, args), seen))
            })
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests;

//! The propositional side of the symbolic search: a SAT solver (batsat,
//! a MiniSat port in Rust) behind gates that fold constants and share
//! equal subterms, a totalizer that bounds how many literals are true,
//! and the solver's answer under assumptions.

use batsat::{lbool, Callbacks, Lit, Solver, SolverInterface, SolverOpts};
use std::cell::Cell;
use std::collections::HashMap;
use std::time::Instant;

/// Stops the solver at the user's deadline (only when one was asked
/// for: otherwise the solver runs to an answer, and verdicts do not
/// depend on the machine), or after a number of decisions when a call
/// sets one (counted, so deterministic).
struct Deadline {
    at: Option<Instant>,
    decisions_left: Cell<Option<u64>>,
}

impl Callbacks for Deadline {
    fn stop(&self) -> bool {
        if let Some(n) = self.decisions_left.get() {
            if n == 0 {
                return true;
            }
            self.decisions_left.set(Some(n - 1));
        }
        self.at.is_some_and(|d| Instant::now() >= d)
    }
}

/// The solver's answer under assumptions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    /// A model: read it with [`Circuit::value`].
    Sat,
    /// No model: the assumptions the proof used.
    Unsat(Vec<Lit>),
    /// The deadline passed.
    Stopped,
}

/// A growing formula: gates over literals, with the constant `true`.
pub(crate) struct Circuit {
    solver: Solver<Deadline>,
    truth: Lit,
    ands: HashMap<(Lit, Lit), Lit>,
    clause: Vec<Lit>,
}

impl std::fmt::Debug for Circuit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Circuit({} variables, {} clauses)",
            self.solver.num_vars(),
            self.solver.num_clauses()
        )
    }
}

impl Circuit {
    /// An empty formula; the solver stops at `deadline` if given.
    pub(crate) fn new(deadline: Option<Instant>) -> Self {
        let mut solver = Solver::new(
            SolverOpts::default(),
            Deadline {
                at: deadline,
                decisions_left: Cell::new(None),
            },
        );
        let truth = Lit::new(solver.new_var_default(), true);
        let mut c = Circuit {
            solver,
            truth,
            ands: HashMap::new(),
            clause: vec![],
        };
        c.add(&[truth]);
        c
    }

    /// The constant true.
    pub(crate) fn tt(&self) -> Lit {
        self.truth
    }

    /// The constant false.
    pub(crate) fn ff(&self) -> Lit {
        !self.truth
    }

    /// Whether `l` is the constant false.
    pub(crate) fn is_ff(&self, l: Lit) -> bool {
        l == !self.truth
    }

    /// A fresh, unconstrained literal.
    pub(crate) fn fresh(&mut self) -> Lit {
        Lit::new(self.solver.new_var_default(), true)
    }

    /// Adds a clause.
    pub(crate) fn add(&mut self, lits: &[Lit]) {
        self.clause.clear();
        self.clause.extend_from_slice(lits);
        self.solver.add_clause_reuse(&mut self.clause);
    }

    /// `a ∧ b`.
    pub(crate) fn and(&mut self, a: Lit, b: Lit) -> Lit {
        let (t, f) = (self.truth, !self.truth);
        if a == f || b == f || a == !b {
            return f;
        }
        if a == t || a == b {
            return b;
        }
        if b == t {
            return a;
        }
        let key = if a.idx() < b.idx() { (a, b) } else { (b, a) };
        if let Some(&x) = self.ands.get(&key) {
            return x;
        }
        let x = self.fresh();
        self.add(&[!x, a]);
        self.add(&[!x, b]);
        self.add(&[x, !a, !b]);
        self.ands.insert(key, x);
        x
    }

    /// `a ∨ b`.
    pub(crate) fn or(&mut self, a: Lit, b: Lit) -> Lit {
        !self.and(!a, !b)
    }

    /// The disjunction of all.
    pub(crate) fn any(&mut self, lits: impl IntoIterator<Item = Lit>) -> Lit {
        let mut acc = !self.truth;
        for l in lits {
            acc = self.or(acc, l);
        }
        acc
    }

    /// `if c then a else b`.
    pub(crate) fn ite(&mut self, c: Lit, a: Lit, b: Lit) -> Lit {
        let t = self.truth;
        if c == t || a == b {
            return a;
        }
        if c == !t {
            return b;
        }
        let (x, y) = (self.and(c, a), self.and(!c, b));
        self.or(x, y)
    }

    /// `a ⇔ b`.
    pub(crate) fn iff(&mut self, a: Lit, b: Lit) -> Lit {
        self.ite(a, b, !b)
    }

    /// At most one of `lits` is true (pairwise: positions have few
    /// constructors).
    pub(crate) fn at_most_one(&mut self, lits: &[Lit]) {
        for i in 0..lits.len() {
            for j in i + 1..lits.len() {
                self.add(&[!lits[i], !lits[j]]);
            }
        }
    }

    /// Literals `out[k]` meaning "at least `k + 1` of `lits` are true",
    /// for `k` below `cap` (a totalizer, Bailleux and Boufkhad 2003, cut
    /// at `cap`): assuming `!out[k]` bounds the count by `k`. Only the
    /// direction the bound needs is encoded (a count implies its
    /// outputs).
    pub(crate) fn at_least(&mut self, lits: &[Lit], cap: usize) -> Vec<Lit> {
        let f = self.ff();
        let lits: Vec<Lit> = lits.iter().copied().filter(|&l| l != f).collect();
        if lits.is_empty() || cap == 0 {
            return vec![f; cap];
        }
        // Bottom-up over a balanced tree of unary counters.
        let mut layer: Vec<Vec<Lit>> = lits.into_iter().map(|l| vec![l]).collect();
        while layer.len() > 1 {
            let mut next = Vec::with_capacity(layer.len().div_ceil(2));
            let mut pairs = layer.into_iter();
            while let Some(a) = pairs.next() {
                match pairs.next() {
                    Some(b) => next.push(self.unary_sum(&a, &b, cap)),
                    None => next.push(a),
                }
            }
            layer = next;
        }
        let mut out = layer.pop().unwrap_or_default();
        out.resize(cap, f);
        out
    }

    /// The unary sum of two unary counts, cut at `cap` outputs.
    fn unary_sum(&mut self, a: &[Lit], b: &[Lit], cap: usize) -> Vec<Lit> {
        let n = (a.len() + b.len()).min(cap);
        let out: Vec<Lit> = (0..n).map(|_| self.fresh()).collect();
        // a >= i and b >= j imply out >= i + j; sums past the cap follow
        // from one that reaches it.
        for i in 0..=a.len() {
            for j in 0..=b.len() {
                let k = i + j;
                if k == 0 || k > n {
                    continue;
                }
                let mut c = vec![out[k - 1]];
                if i > 0 {
                    c.push(!a[i - 1]);
                }
                if j > 0 {
                    c.push(!b[j - 1]);
                }
                self.add(&c);
            }
        }
        out
    }

    /// Solves under assumptions.
    pub(crate) fn solve(&mut self, assumptions: &[Lit]) -> Answer {
        let r = self.solver.solve_limited(assumptions);
        if r == lbool::TRUE {
            Answer::Sat
        } else if r == lbool::FALSE {
            let core: Vec<Lit> = assumptions
                .iter()
                .copied()
                .filter(|&a| self.solver.unsat_core_contains_var(a.var()))
                .collect();
            Answer::Unsat(core)
        } else {
            Answer::Stopped
        }
    }

    /// Solves under assumptions, giving up ([`Answer::Stopped`]) after
    /// `decisions` decisions.
    pub(crate) fn solve_within(&mut self, assumptions: &[Lit], decisions: u64) -> Answer {
        self.solver.cb_mut().decisions_left.set(Some(decisions));
        let answer = self.solve(assumptions);
        self.solver.cb_mut().decisions_left.set(None);
        answer
    }

    /// A literal's value in the last model (false where the model leaves
    /// it free).
    pub(crate) fn value(&self, l: Lit) -> bool {
        self.solver.value_lit(l) == lbool::TRUE
    }

    /// Variables and clauses so far.
    pub(crate) fn size(&self) -> (u64, u64) {
        (u64::from(self.solver.num_vars()), self.solver.num_clauses())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every assignment of `n` free literals, with the count of true ones.
    fn counts_match(n: usize, cap: usize) {
        for mask in 0u32..(1 << n) {
            let mut c = Circuit::new(None);
            let lits: Vec<Lit> = (0..n).map(|_| c.fresh()).collect();
            let out = c.at_least(&lits, cap);
            let fixed: Vec<Lit> = lits
                .iter()
                .enumerate()
                .map(|(i, &l)| if mask >> i & 1 == 1 { l } else { !l })
                .collect();
            let ones = mask.count_ones() as usize;
            for (k, &at_least) in out.iter().enumerate() {
                // Count <= k is satisfiable exactly when ones <= k.
                let mut assume = fixed.clone();
                assume.push(!at_least);
                let sat = c.solve(&assume) == Answer::Sat;
                assert_eq!(sat, ones <= k, "n {n} mask {mask:b} bound {k}");
            }
        }
    }

    #[test]
    fn the_totalizer_bounds_the_count_exactly() {
        for n in 0..=6 {
            for cap in [1, 3, 7] {
                counts_match(n, cap);
            }
        }
    }

    #[test]
    fn gates_fold_constants_and_agree_with_their_truth_tables() {
        let mut c = Circuit::new(None);
        let (t, f) = (c.tt(), c.ff());
        let a = c.fresh();
        assert_eq!(c.and(a, f), f);
        assert_eq!(c.and(a, t), a);
        assert_eq!(c.or(a, !a), t);
        let b = c.fresh();
        let x = c.and(a, b);
        assert_eq!(c.and(b, a), x, "an equal gate is shared");
        let d = c.fresh();
        let gates = [c.and(a, b), c.or(a, b), c.ite(a, b, d), c.iff(a, b)];
        for mask in 0..8u32 {
            let bit = |i: u32| mask >> i & 1 == 1;
            let lit = |l: Lit, v: bool| if v { l } else { !l };
            let assume = [lit(a, bit(0)), lit(b, bit(1)), lit(d, bit(2))];
            assert_eq!(c.solve(&assume), Answer::Sat);
            let want = [
                bit(0) && bit(1),
                bit(0) || bit(1),
                if bit(0) { bit(1) } else { bit(2) },
                bit(0) == bit(1),
            ];
            for (g, w) in gates.iter().zip(want) {
                assert_eq!(c.value(*g), w, "mask {mask:b}");
            }
        }
    }

    #[test]
    fn an_unsat_answer_names_the_assumptions_it_used() {
        let mut c = Circuit::new(None);
        let (a, b, x) = (c.fresh(), c.fresh(), c.fresh());
        c.add(&[!a, !b]);
        match c.solve(&[a, x, b]) {
            Answer::Unsat(core) => {
                assert!(core.contains(&a) && core.contains(&b), "{core:?}");
                assert!(!core.contains(&x), "{core:?}");
            }
            other => panic!("{other:?}"),
        }
    }
}

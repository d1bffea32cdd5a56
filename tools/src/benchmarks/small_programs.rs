//! Programs after Lazy SmallCheck's example suite (ordered-list sets, a
//! Huffman codec, a cryptarithm solver, Hutton's countdown problem,
//! Turner's bracket abstraction), each with a bug (injected, or the
//! original's own for Turner), for the time to the first counterexample
//! (`first_ctrex`). They are written against the public API as a user
//! would, read their input lazily where the original's evaluation is lazy,
//! and their bugs need a long input of small parts (a set of four keys,
//! four distinct symbols) or a short one, so that both search orders are
//! exercised. Owns the programs and their properties; the problems are
//! Lazy SmallCheck's, the code and the bugs are this crate's.

use neatcheck::{Enumerable, Lazy};
use std::rc::Rc;

/// Whether a lazy list of characters is strictly ascending (a set), read
/// element by element until the first descent.
fn is_set_lazy(s: Lazy<'_, Vec<char>>) -> bool {
    let mut last = None;
    for x in s.iter() {
        let x = x.get();
        if last.is_some_and(|l| l >= x) {
            return false;
        }
        last = Some(x);
    }
    true
}

fn is_set(s: &[char]) -> bool {
    s.windows(2).all(|w| w[0] < w[1])
}

/// Inserts `c` into the set `s`. Bug: past the first element it is smaller
/// than, the key is placed after the next element instead of searched for
/// further (no recursion).
fn insert_shallow(c: char, s: &[char]) -> Vec<char> {
    let mut out = Vec::with_capacity(s.len() + 1);
    match s.split_first() {
        None => out.push(c),
        Some((&x, rest)) if c < x => {
            out.push(c);
            out.push(x);
            out.extend_from_slice(rest);
        }
        Some((&x, rest)) if c > x => {
            out.push(x);
            out.push(c);
            out.extend_from_slice(rest);
        }
        Some(_) => out.extend_from_slice(s),
    }
    out
}

/// Inserts `c` into the set `s`: linear below four keys, a binary search
/// from four on. Bug: the binary search never looks at the last key, so a
/// key larger than all goes before it.
fn insert_small_set_fast_path(c: char, s: &[char]) -> Vec<char> {
    let mut out = s.to_vec();
    if s.len() < 4 {
        match s.iter().position(|&x| x >= c) {
            Some(i) if s[i] == c => {}
            Some(i) => out.insert(i, c),
            None => out.push(c),
        }
        return out;
    }
    let (mut lo, mut hi) = (0, s.len() - 1);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if s[mid] < c {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if s[lo] != c {
        out.insert(lo, c);
    }
    out
}

/// `is_set s ==> is_set (insert c s)`, the precondition read lazily.
fn insert_keeps_a_set(
    input: Lazy<'_, (char, Vec<char>)>,
    insert: fn(char, &[char]) -> Vec<char>,
) -> bool {
    let (c, s) = input.view();
    !is_set_lazy(s) || is_set(&insert(c.get(), &s.force()))
}

/// Insertion keeps a set, with the shallow insertion.
pub fn listset_shallow(input: Lazy<'_, (char, Vec<char>)>) -> bool {
    insert_keeps_a_set(input, insert_shallow)
}

/// Insertion keeps a set, with the fast path from four keys.
pub fn listset_fast_path(input: Lazy<'_, (char, Vec<char>)>) -> bool {
    insert_keeps_a_set(input, insert_small_set_fast_path)
}

/// A Huffman code tree.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq)]
pub enum HTree {
    /// A symbol.
    Leaf(char),
    /// Left for a 0 bit, right for a 1.
    Fork(Box<HTree>, Box<HTree>),
}

/// The weights of the symbols of `cs`, as leaves ordered by weight (ties:
/// first occurrence last, as Bird's `collate` inserts them).
fn collate(cs: &[char]) -> Vec<(u64, HTree)> {
    let mut firsts: Vec<(char, u64)> = Vec::new();
    for &c in cs {
        match firsts.iter_mut().find(|(d, _)| *d == c) {
            Some((_, n)) => *n += 1,
            None => firsts.push((c, 1)),
        }
    }
    let mut out: Vec<(u64, HTree)> = Vec::new();
    for (c, n) in firsts.into_iter().rev() {
        let at = out.iter().position(|(w, _)| n <= *w).unwrap_or(out.len());
        out.insert(at, (n, HTree::Leaf(c)));
    }
    out
}

/// Builds the code tree. Bug: the merged tree goes to the front of the
/// queue instead of to its place by weight, so later merges take it first
/// even when two lighter trees wait.
fn huffman_front_merge(mut queue: Vec<(u64, HTree)>) -> HTree {
    queue.reverse();
    loop {
        let (w0, t0) = queue.pop().expect("a nonempty queue");
        let Some((w1, t1)) = queue.pop() else {
            return t0;
        };
        queue.push((w0 + w1, HTree::Fork(Box::new(t0), Box::new(t1))));
    }
}

/// The weighted path length of `t` under the weights `h`.
fn cost(h: &[(u64, HTree)], t: &HTree) -> u64 {
    let mut total = 0;
    let mut stack = vec![(t, 0u64)];
    while let Some((t, depth)) = stack.pop() {
        match t {
            HTree::Leaf(c) => {
                let weight = h
                    .iter()
                    .find(|(_, l)| *l == HTree::Leaf(*c))
                    .map_or(0, |(w, _)| *w);
                total += weight * depth;
            }
            HTree::Fork(l, r) => {
                stack.push((r, depth + 1));
                stack.push((l, depth + 1));
            }
        }
    }
    total
}

/// Whether the leaves of `t`, read left to right and lazily, are the
/// symbols of `h` (as multisets): fails at the first leaf that is not
/// left over.
fn tree_of(t: Lazy<'_, HTree>, h: &[(u64, HTree)]) -> bool {
    let mut left: Vec<char> = h
        .iter()
        .filter_map(|(_, l)| match l {
            HTree::Leaf(c) => Some(*c),
            HTree::Fork(..) => None,
        })
        .collect();
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        match t.view() {
            HTreeView::Leaf(c) => {
                let c = c.get();
                match left.iter().position(|&d| d == c) {
                    Some(i) => {
                        left.remove(i);
                    }
                    None => return false,
                }
            }
            HTreeView::Fork(l, r) => {
                stack.push(r);
                stack.push(l);
            }
        }
    }
    left.is_empty()
}

/// `t` codes the symbols of `cs` ==> no cheaper than the built tree.
pub fn huffman_optimal(input: Lazy<'_, (Vec<char>, HTree)>) -> bool {
    let (cs, t) = input.view();
    let h = collate(&cs.force());
    if !tree_of(t, &h) {
        return true;
    }
    cost(&h, &t.force()) >= cost(&h, &huffman_front_merge(h.clone()))
}

/// A digit assignment: letter and digit.
type Solution = Vec<(char, u32)>;

fn digit_of(s: &Solution, c: char) -> Option<u32> {
    s.iter().find(|(d, _)| *d == c).map(|(_, v)| *v)
}

/// The assignments extending `s` that give `c` one of `digits` (distinct
/// letters get distinct digits).
fn bindings(c: char, digits: impl Iterator<Item = u32>, s: &Solution) -> Vec<Solution> {
    match digit_of(s, c) {
        Some(d) => {
            let mut digits = digits;
            if digits.any(|e| e == d) {
                vec![s.clone()]
            } else {
                vec![]
            }
        }
        None => digits
            .filter(|d| s.iter().all(|(_, v)| v != d))
            .map(|d| {
                let mut t = s.clone();
                t.push((c, d));
                t
            })
            .collect(),
    }
}

/// The solutions of the column sum `xs + ys = zs` (all reversed, least
/// significant letter first) with carry `carry`. Bug: when every column is
/// summed, a carry left over is dropped instead of rejecting the
/// assignment.
fn solutions(xs: &[char], ys: &[char], zs: &[char], carry: u32, s: &Solution) -> Vec<Solution> {
    match (xs.split_first(), ys.split_first(), zs.split_first()) {
        (None, None, None) => vec![s.clone()],
        (None, None, Some((&z, []))) if carry == 1 => bindings(z, [1].into_iter(), s),
        (Some((&x, xs)), Some((&y, ys)), Some((&z, zs))) => {
            let mut out = Vec::new();
            let low = |rest: &[char]| u32::from(rest.is_empty());
            for s in bindings(x, low(xs)..=9, s) {
                for s in bindings(y, low(ys)..=9, &s) {
                    let xy = digit_of(&s, x).unwrap_or(0) + digit_of(&s, y).unwrap_or(0) + carry;
                    for s in bindings(z, [xy % 10].into_iter(), &s) {
                        out.extend(solutions(xs, ys, zs, xy / 10, &s));
                    }
                }
            }
            out
        }
        _ => vec![],
    }
}

fn value_of(s: &Solution, word: &[char]) -> u64 {
    word.iter()
        .fold(0, |v, &c| v * 10 + u64::from(digit_of(s, c).unwrap_or(0)))
}

/// Every solution the solver finds of a puzzle `xs + ys = zs` (with as
/// many letters in `xs` as in `ys`, and as many or one more in `zs`) adds
/// up.
pub fn sumpuz_sound(input: Lazy<'_, (String, String, String)>) -> bool {
    let (xs, ys, zs) = input.view();
    let [x_len, y_len, z_len] = [xs, ys, zs].map(|w| w.as_list().len());
    if x_len != y_len || !(z_len == x_len || z_len == x_len + 1) {
        return true;
    }
    let (x, y, z) = input.force();
    let [x, y, z] = [x, y, z].map(|w| w.chars().collect::<Vec<char>>());
    let reversed = |w: &[char]| w.iter().rev().copied().collect::<Vec<char>>();
    let found = solutions(&reversed(&x), &reversed(&y), &reversed(&z), 0, &Vec::new());
    found
        .iter()
        .all(|s| value_of(s, &x) + value_of(s, &y) == value_of(s, &z))
}

/// The arithmetic operators of the countdown problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
}

const OPS: [Op; 4] = [Op::Add, Op::Sub, Op::Mul, Op::Div];

/// Applies `op` when the brute-force solver allows it: natural numbers
/// only (a difference must be positive, a quotient exact).
fn apply_any(op: Op, x: u64, y: u64) -> Option<u64> {
    match op {
        Op::Add => x.checked_add(y),
        Op::Sub => (x > y).then(|| x - y),
        Op::Mul => x.checked_mul(y),
        Op::Div => (y != 0 && x % y == 0).then(|| x / y),
    }
}

/// Applies `op` when the solver that exploits arithmetic laws allows it:
/// commutative operators in one order only, no multiplication or division
/// by one. Bug: a product of two equal numbers is excluded (`x < y` where
/// `x <= y` was meant).
fn apply_pruned(op: Op, x: u64, y: u64) -> Option<u64> {
    let allowed = match op {
        Op::Add => x <= y,
        Op::Sub => x > y,
        Op::Mul => x != 1 && y != 1 && x < y,
        Op::Div => y != 1 && y != 0 && x % y == 0,
    };
    if allowed {
        apply_any(op, x, y)
    } else {
        None
    }
}

/// The values of every expression over the numbers `ns` in this order
/// (each used once), combining by `apply`.
fn results(ns: &[u64], apply: fn(Op, u64, u64) -> Option<u64>) -> Vec<u64> {
    match ns {
        [] => vec![],
        [n] => [*n].into_iter().filter(|&n| n > 0).collect(),
        _ => {
            let mut out = Vec::new();
            for cut in 1..ns.len() {
                let right = results(&ns[cut..], apply);
                for x in results(&ns[..cut], apply) {
                    for &y in &right {
                        out.extend(OPS.iter().filter_map(|&op| apply(op, x, y)));
                    }
                }
            }
            out
        }
    }
}

/// Every ordering of every subset of `ns`.
fn subbags(ns: &[u64]) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for mask in 0..1u32 << ns.len() {
        let chosen: Vec<u64> = (0..ns.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| ns[i])
            .collect();
        permutations(chosen, 0, &mut out);
    }
    out
}

fn permutations(mut v: Vec<u64>, from: usize, out: &mut Vec<Vec<u64>>) {
    if from + 1 >= v.len() {
        out.push(v);
        return;
    }
    for i in from..v.len() {
        v.swap(from, i);
        permutations(v.clone(), from + 1, out);
        v.swap(from, i);
    }
}

fn solvable(ns: &[u64], target: u64, apply: fn(Op, u64, u64) -> Option<u64>) -> bool {
    subbags(ns)
        .iter()
        .any(|bag| results(bag, apply).contains(&target))
}

/// Whenever the brute-force solver reaches `target` from up to four
/// numbers, so does the one that exploits arithmetic laws.
pub fn countdown_complete(input: Lazy<'_, (Vec<u32>, u32)>) -> bool {
    let (ns, target) = input.view();
    if ns.len() > 4 {
        return true;
    }
    let ns: Vec<u64> = ns.iter().map(|n| u64::from(n.get())).collect();
    let target = u64::from(target.get());
    !solvable(&ns, target, apply_any) || solvable(&ns, target, apply_pruned)
}

/// A variable of the combinator language.
#[derive(Enumerable, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Var {
    /// The first variable.
    V0,
    /// The second variable.
    V1,
}

/// Turner's combinators (`C2`, `B2`, `S2`: C', B', S').
#[derive(Enumerable, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comb {
    /// Identity.
    I,
    /// Constant.
    K,
    /// Composition.
    B,
    /// Flip.
    C,
    /// Distribution.
    S,
    /// C'.
    C2,
    /// B'.
    B2,
    /// S'.
    S2,
}

/// Lambda terms over combinators.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq)]
pub enum Exp {
    /// Application.
    App(Box<Exp>, Box<Exp>),
    /// Abstraction.
    Lam(Var, Box<Exp>),
    /// A variable.
    Var(Var),
    /// A combinator.
    Comb(Comb),
}

/// A term under rewriting: a part of the input (read only where the
/// rewriting looks at it) or a node built by it.
#[derive(Clone)]
enum Term<'a> {
    Input(Lazy<'a, Exp>),
    App(Rc<Term<'a>>, Rc<Term<'a>>),
    Var(Var),
    Comb(Comb),
}

/// A term's outermost constructor, with input fields still unread.
enum Head<'a> {
    App(Rc<Term<'a>>, Rc<Term<'a>>),
    Lam(Var, Lazy<'a, Exp>),
    Var(Var),
    Comb(Comb),
}

impl<'a> Term<'a> {
    fn head(&self) -> Head<'a> {
        match self {
            Term::Input(e) => match e.view() {
                ExpView::App(f, x) => Head::App(Rc::new(Term::Input(f)), Rc::new(Term::Input(x))),
                ExpView::Lam(v, b) => Head::Lam(v.force(), b),
                ExpView::Var(v) => Head::Var(v.force()),
                ExpView::Comb(c) => Head::Comb(c.force()),
            },
            Term::App(f, x) => Head::App(f.clone(), x.clone()),
            Term::Var(v) => Head::Var(*v),
            Term::Comb(c) => Head::Comb(*c),
        }
    }

    fn app(f: Term<'a>, x: Term<'a>) -> Term<'a> {
        Term::App(Rc::new(f), Rc::new(x))
    }

    /// The combinator `c` applied to `args`, left to right.
    fn apply(c: Comb, args: impl IntoIterator<Item = Term<'a>>) -> Term<'a> {
        args.into_iter().fold(Term::Comb(c), Term::app)
    }

    /// The arguments `[a1, ..., aN]` when the term is `c a1 ... aN`.
    fn spine<const N: usize>(&self, c: Comb) -> Option<[Term<'a>; N]> {
        let mut args = Vec::with_capacity(N);
        let mut t = self.clone();
        for _ in 0..N {
            let Head::App(f, x) = t.head() else {
                return None;
            };
            args.push((*x).clone());
            t = (*f).clone();
        }
        match t.head() {
            Head::Comb(d) if d == c => {
                args.reverse();
                args.try_into().ok()
            }
            _ => None,
        }
    }
}

/// Turner's abstraction of `v` from `e`, with Peyton Jones's optimisations.
fn abstr<'a>(v: Var, e: &Term<'a>) -> Term<'a> {
    match e.head() {
        Head::App(f, x) => {
            let (f, x) = (abstr(v, &f), abstr(v, &x));
            optimise(Term::apply(Comb::S, [f, x]))
        }
        Head::Var(w) if w == v => Term::Comb(Comb::I),
        _ => Term::app(Term::Comb(Comb::K), e.clone()),
    }
}

/// The optimisation rules, tried in order on `S p q`.
fn optimise<'a>(e: Term<'a>) -> Term<'a> {
    let Some([p, q]) = e.spine(Comb::S) else {
        return e;
    };
    let k_of = |t: &Term<'a>| t.spine(Comb::K).map(|[a]| a);
    if let Some(kp) = k_of(&p) {
        if let Some(kq) = k_of(&q) {
            return Term::apply(Comb::K, [Term::app(kp, kq)]);
        }
        if matches!(q.head(), Head::Comb(Comb::I)) {
            return kp;
        }
        if let Some([q1, r1]) = q.spine(Comb::B) {
            return Term::apply(Comb::B2, [kp, q1, r1]);
        }
        return Term::apply(Comb::B, [kp, q]);
    }
    if let (Some([p1, q1]), Some(r)) = (p.spine(Comb::B), k_of(&q)) {
        return Term::apply(Comb::C2, [p1, q1, r]);
    }
    if let Some(q1) = k_of(&q) {
        return Term::apply(Comb::C, [p, q1]);
    }
    if let Some([p1, q1]) = p.spine(Comb::B) {
        return Term::apply(Comb::S2, [p1, q1, q]);
    }
    Term::apply(Comb::S, [p, q])
}

/// One reduction at the root, if a rule applies.
fn reduce<'a>(e: &Term<'a>) -> Option<Term<'a>> {
    use Term as T;
    if let Some([a]) = e.spine(Comb::I) {
        return Some(a);
    }
    if let Some([a, _]) = e.spine(Comb::K) {
        return Some(a);
    }
    if let Some([f, g, x]) = e.spine(Comb::S) {
        return Some(T::app(T::app(f, x.clone()), T::app(g, x)));
    }
    if let Some([f, g, x]) = e.spine(Comb::B) {
        return Some(T::app(f, T::app(g, x)));
    }
    if let Some([f, g, x]) = e.spine(Comb::C) {
        return Some(T::app(T::app(f, x), g));
    }
    if let Some([k, f, g, x]) = e.spine(Comb::B2) {
        return Some(T::app(k, T::app(f, T::app(g, x))));
    }
    if let Some([k, f, g, x]) = e.spine(Comb::C2) {
        return Some(T::app(T::app(k, T::app(f, x)), g));
    }
    if let Some([k, f, g, x]) = e.spine(Comb::S2) {
        return Some(T::app(T::app(k, T::app(f, x.clone())), T::app(g, x)));
    }
    None
}

/// Reduces at the root while a rule applies, then simplifies the two sides
/// of an application once (Peyton Jones's `simplify`: not a full
/// normaliser); `None` when the steps run out.
fn simplify<'a>(e: Term<'a>, steps: &mut u32) -> Option<Term<'a>> {
    let mut e = e;
    loop {
        *steps = steps.checked_sub(1)?;
        match reduce(&e) {
            Some(next) => e = next,
            None => break,
        }
    }
    match e.head() {
        Head::App(f, x) => {
            let f = simplify((*f).clone(), steps)?;
            let x = simplify((*x).clone(), steps)?;
            Some(Term::app(f, x))
        }
        _ => Some(e),
    }
}

/// Whether two terms are equal, reading both only until they differ.
fn same(a: &Term<'_>, b: &Term<'_>) -> bool {
    let mut pending = vec![(a.clone(), b.clone())];
    while let Some((a, b)) = pending.pop() {
        match (a.head(), b.head()) {
            (Head::App(f, x), Head::App(g, y)) => {
                pending.push(((*x).clone(), (*y).clone()));
                pending.push(((*f).clone(), (*g).clone()));
            }
            (Head::Lam(v, e), Head::Lam(w, f)) => {
                if v != w {
                    return false;
                }
                pending.push((Term::Input(e), Term::Input(f)));
            }
            (Head::Var(v), Head::Var(w)) if v == w => {}
            (Head::Comb(c), Head::Comb(d)) if c == d => {}
            _ => return false,
        }
    }
    true
}

/// Turner's property, false as stated (a term with a redex is not its own
/// normal form): abstracting `v` and applying the result to `v` simplifies
/// back to the term. A simplification that runs past 1 000 steps (none
/// was seen; the budget keeps a run finite whatever the input) counts as
/// passing.
pub fn turner_abstraction(input: Lazy<'_, (Var, Exp)>) -> bool {
    let (v, e) = input.view();
    let v = v.force();
    let e = Term::Input(e);
    let applied = Term::app(abstr(v, &e), Term::Var(v));
    match simplify(applied, &mut 1_000) {
        Some(normal) => same(&normal, &e),
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use neatcheck::check::Config;

    #[test]
    fn the_bugs_are_real() {
        assert!(!is_set(&insert_shallow('c', &['a', 'b'])));
        assert!(is_set(&insert_shallow('c', &['a'])));
        assert!(!is_set(&insert_small_set_fast_path(
            'e',
            &['a', 'b', 'c', 'd']
        )));
        assert!(is_set(&insert_small_set_fast_path('e', &['a', 'b', 'c'])));
        let h = collate(&['a', 'b', 'c', 'd']);
        let leaf = |c| Box::new(HTree::Leaf(c));
        let balanced = HTree::Fork(
            Box::new(HTree::Fork(leaf('a'), leaf('b'))),
            Box::new(HTree::Fork(leaf('c'), leaf('d'))),
        );
        assert_eq!(cost(&h, &balanced), 8);
        assert_eq!(cost(&h, &huffman_front_merge(h.clone())), 9);
        // S K K x reduces to x in two steps (and a third finds no rule).
        let skk = Term::apply(Comb::S, [Term::Comb(Comb::K), Term::Comb(Comb::K)]);
        let x = Term::Var(Var::V1);
        let normal = simplify(Term::app(skk.clone(), x.clone()), &mut 3).unwrap();
        assert!(same(&normal, &x));
        assert!(simplify(Term::app(skk, x.clone()), &mut 2).is_none());
        // Abstraction and application give back a term in normal form.
        let term = Term::app(Term::Var(Var::V1), Term::Var(Var::V0));
        let applied = Term::app(abstr(Var::V0, &term), Term::Var(Var::V0));
        assert!(same(&simplify(applied, &mut 1_000).unwrap(), &term));
        // 5 + 6 = 11: the carry out of the last column is dropped.
        let found = solutions(&['a'], &['b'], &['c'], 0, &Vec::new());
        assert!(!solvable(&[3, 3], 9, apply_pruned) && solvable(&[3, 3], 9, apply_any));
        assert!(solvable(&[2, 3, 4], 20, apply_pruned));
        assert!(found
            .iter()
            .any(|s| value_of(s, &['a']) + value_of(s, &['b']) != value_of(s, &['c'])));
    }

    /// The smallest refutation of Turner's property is a term with a redex:
    /// `S (K I) I` optimises to `I`, and `I V0` simplifies to `V0`.
    #[test]
    fn turners_property_fails_on_a_redex() {
        let c = Config::default()
            .regressions(false)
            .try_check(turner_abstraction)
            .unwrap_err();
        let redex = Exp::App(Box::new(Exp::Comb(Comb::I)), Box::new(Exp::Var(Var::V0)));
        assert_eq!(c.value, (Var::V0, redex));
        assert_eq!(c.size, 6);
        assert!(c.is_minimal());
    }
}

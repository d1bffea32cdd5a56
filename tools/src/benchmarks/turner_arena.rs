//! Turner's bracket abstraction (`small_programs::turner_abstraction`)
//! written as a user who knows the run arena would write it: the same
//! property, read in the same order (so the same runs at every bound), but
//! its terms are `Copy` values whose built nodes live in the run's arena
//! ([`Lazy::arena`](neatcheck::Lazy::arena)) instead of behind `Rc`s, and a
//! spine is an array instead of a vector. `versus_lazy_search --program
//! turner` times both beside lazy-search: the program as it was written
//! spends most of its time in the allocator, which GHC's makes nearly free
//! for lazy-search. Owns the arena version of the property.

use super::small_programs::{Comb, Exp, ExpView, Var};
use neatcheck::{Lazy, RunArena};

/// A term under rewriting: a part of the input, or a node built in the
/// run's arena.
#[derive(Clone, Copy)]
enum Term<'a> {
    Input(Lazy<'a, Exp>),
    App(&'a (Term<'a>, Term<'a>)),
    Var(Var),
    Comb(Comb),
}

/// A term's outermost constructor, with input fields still unread.
enum Head<'a> {
    App(Term<'a>, Term<'a>),
    Lam(Var, Lazy<'a, Exp>),
    Var(Var),
    Comb(Comb),
}

/// The run's arena, where the rewriting builds its nodes.
#[derive(Clone, Copy)]
struct Builder<'a> {
    arena: RunArena<'a>,
}

impl<'a> Term<'a> {
    /// Reads an input constructor (and a leaf's variable or combinator),
    /// as `small_programs`' `Term::head` does.
    #[inline]
    fn head(self) -> Head<'a> {
        match self {
            Term::Input(e) => match e.view() {
                ExpView::App(f, x) => Head::App(Term::Input(f), Term::Input(x)),
                ExpView::Lam(v, b) => Head::Lam(v.force(), b),
                ExpView::Var(v) => Head::Var(v.force()),
                ExpView::Comb(c) => Head::Comb(c.force()),
            },
            Term::App(&(f, x)) => Head::App(f, x),
            Term::Var(v) => Head::Var(v),
            Term::Comb(c) => Head::Comb(c),
        }
    }

    /// The arguments `[a1, ..., aN]` when the term is `c a1 ... aN`.
    fn spine<const N: usize>(self, c: Comb) -> Option<[Term<'a>; N]> {
        let mut args = [Term::Comb(c); N];
        let mut t = self;
        for arg in args.iter_mut().rev() {
            let Head::App(f, x) = t.head() else {
                return None;
            };
            *arg = x;
            t = f;
        }
        match t.head() {
            Head::Comb(d) if d == c => Some(args),
            _ => None,
        }
    }
}

impl<'a> Builder<'a> {
    fn app(self, f: Term<'a>, x: Term<'a>) -> Term<'a> {
        Term::App(self.arena.alloc((f, x)))
    }

    /// The combinator `c` applied to `args`, left to right.
    fn apply<const N: usize>(self, c: Comb, args: [Term<'a>; N]) -> Term<'a> {
        args.into_iter().fold(Term::Comb(c), |f, x| self.app(f, x))
    }

    /// Turner's abstraction of `v` from `e`, with Peyton Jones's
    /// optimisations.
    fn abstr(self, v: Var, e: Term<'a>) -> Term<'a> {
        match e.head() {
            Head::App(f, x) => {
                let (f, x) = (self.abstr(v, f), self.abstr(v, x));
                self.optimise(self.apply(Comb::S, [f, x]))
            }
            Head::Var(w) if w == v => Term::Comb(Comb::I),
            _ => self.app(Term::Comb(Comb::K), e),
        }
    }

    /// The optimisation rules, tried in order on `S p q`.
    fn optimise(self, e: Term<'a>) -> Term<'a> {
        let Some([p, q]) = e.spine(Comb::S) else {
            return e;
        };
        let k_of = |t: Term<'a>| t.spine(Comb::K).map(|[a]| a);
        if let Some(kp) = k_of(p) {
            if let Some(kq) = k_of(q) {
                return self.apply(Comb::K, [self.app(kp, kq)]);
            }
            if matches!(q.head(), Head::Comb(Comb::I)) {
                return kp;
            }
            if let Some([q1, r1]) = q.spine(Comb::B) {
                return self.apply(Comb::B2, [kp, q1, r1]);
            }
            return self.apply(Comb::B, [kp, q]);
        }
        if let (Some([p1, q1]), Some(r)) = (p.spine(Comb::B), k_of(q)) {
            return self.apply(Comb::C2, [p1, q1, r]);
        }
        if let Some(q1) = k_of(q) {
            return self.apply(Comb::C, [p, q1]);
        }
        if let Some([p1, q1]) = p.spine(Comb::B) {
            return self.apply(Comb::S2, [p1, q1, q]);
        }
        self.apply(Comb::S, [p, q])
    }

    /// One reduction at the root, if a rule applies.
    fn reduce(self, e: Term<'a>) -> Option<Term<'a>> {
        let app = |f, x| self.app(f, x);
        if let Some([a]) = e.spine(Comb::I) {
            return Some(a);
        }
        if let Some([a, _]) = e.spine(Comb::K) {
            return Some(a);
        }
        if let Some([f, g, x]) = e.spine(Comb::S) {
            return Some(app(app(f, x), app(g, x)));
        }
        if let Some([f, g, x]) = e.spine(Comb::B) {
            return Some(app(f, app(g, x)));
        }
        if let Some([f, g, x]) = e.spine(Comb::C) {
            return Some(app(app(f, x), g));
        }
        if let Some([k, f, g, x]) = e.spine(Comb::B2) {
            return Some(app(k, app(f, app(g, x))));
        }
        if let Some([k, f, g, x]) = e.spine(Comb::C2) {
            return Some(app(app(k, app(f, x)), g));
        }
        if let Some([k, f, g, x]) = e.spine(Comb::S2) {
            return Some(app(app(k, app(f, x)), app(g, x)));
        }
        None
    }

    /// Reduces at the root while a rule applies, then simplifies the two
    /// sides of an application once; `None` when the steps run out.
    fn simplify(self, e: Term<'a>, steps: &mut u32) -> Option<Term<'a>> {
        let mut e = e;
        loop {
            *steps = steps.checked_sub(1)?;
            match self.reduce(e) {
                Some(next) => e = next,
                None => break,
            }
        }
        match e.head() {
            Head::App(f, x) => {
                let f = self.simplify(f, steps)?;
                let x = self.simplify(x, steps)?;
                Some(self.app(f, x))
            }
            _ => Some(e),
        }
    }
}

/// Whether two terms are equal, reading both only until they differ.
fn same<'a>(a: Term<'a>, b: Term<'a>) -> bool {
    let mut pending = vec![(a, b)];
    while let Some((a, b)) = pending.pop() {
        match (a.head(), b.head()) {
            (Head::App(f, x), Head::App(g, y)) => {
                pending.push((x, y));
                pending.push((f, g));
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

/// `small_programs::turner_abstraction`, its terms in the run's arena.
pub fn turner_abstraction_in_arena(input: Lazy<'_, (Var, Exp)>) -> bool {
    let build = Builder {
        arena: input.arena(),
    };
    let (v, e) = input.view();
    let v = v.force();
    let e = Term::Input(e);
    let applied = build.app(build.abstr(v, e), Term::Var(v));
    match build.simplify(applied, &mut 1_000) {
        Some(normal) => same(normal, e),
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::benchmarks::small_programs::turner_abstraction;
    use neatcheck::search;

    /// The same runs as the program as written, at every bound, and the
    /// same smallest counterexample.
    #[test]
    fn the_arena_version_searches_as_the_original_does() {
        for bound in 0..=10 {
            assert_eq!(
                search::classes(turner_abstraction_in_arena, bound),
                search::classes(turner_abstraction, bound),
                "bound {bound}"
            );
        }
        let arena = search::ctrex(turner_abstraction_in_arena, 12).unwrap_err();
        let original = search::ctrex(turner_abstraction, 12).unwrap_err();
        assert_eq!(arena.value, original.value);
    }
}

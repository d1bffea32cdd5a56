//! Benchmark 4 (`docs/benchmarks/regexp.md`): regular expressions with word atoms, bounded
//! repetition built from `Seq`, `Or` and `Eps`, and a backtracking
//! acceptance function; the property that repetition distributes over
//! intersection (false). Owns the type `RE` and the property.

use super::nat::{eq_nat, LNat, Nat, NatView};
use super::recycle;
use neatcheck::lazy::ListView;
use neatcheck::{Enumerable, Lazy};
use std::cell::Cell;

/// `RE = Atom(List<Nat>) | Or(RE, RE) | Seq(RE, RE) | And(RE, RE) | Star(RE) | Eps`.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq)]
pub enum RE {
    /// A word: its symbols in sequence.
    Atom(Vec<Nat>),
    /// Alternation.
    Or(Box<RE>, Box<RE>),
    /// Sequential composition.
    Seq(Box<RE>, Box<RE>),
    /// Intersection.
    And(Box<RE>, Box<RE>),
    /// Zero or more repetitions.
    Star(Box<RE>),
    /// The empty string only.
    Eps,
}

/// The input `(n, k, p, q, s)`.
pub type Input = (Nat, Nat, RE, RE, Vec<Nat>);

/// A regular expression that is an input sub-term or a node built by the
/// predicate (binary nodes store their operands in a [`Scratch`]).
#[derive(Clone, Copy, Debug)]
enum Re<'a> {
    In(Lazy<'a, RE>),
    Eps,
    Or(u32),
    Seq(u32),
    And(u32),
}

/// Everything one run builds, in two vectors: the operands of the built
/// binary nodes, and the built strings (`pre` of the splits), kept as a
/// stack: a split pushes its `pre` on top and truncates it again before
/// returning, so nested splits never move an outer one. Between runs the
/// emptied vectors wait in a thread-local slot (see [`super::recycle`]), so
/// a run allocates nothing.
#[derive(Default)]
struct Scratch<'a> {
    pairs: Vec<(Re<'a>, Re<'a>)>,
    symbols: Vec<LNat<'a>>,
}

thread_local! {
    /// This thread's spare scratch vectors (empty, `'static` for the type
    /// only: no handle is ever stored under it).
    static SPARE: Cell<Scratch<'static>> = const {
        Cell::new(Scratch { pairs: Vec::new(), symbols: Vec::new() })
    };
}

impl<'a> Scratch<'a> {
    /// Runs `f` on this thread's spare scratch, then keeps its vectors,
    /// emptied, for the thread's next run.
    fn with<R>(f: impl FnOnce(&mut Scratch<'a>) -> R) -> R {
        SPARE.with(|spare| {
            let mut scratch: Scratch<'a> = spare.take();
            let result = f(&mut scratch);
            spare.set(Scratch {
                pairs: recycle(scratch.pairs),
                symbols: recycle(scratch.symbols),
            });
            result
        })
    }

    fn pair(&mut self, a: Re<'a>, b: Re<'a>) -> u32 {
        self.pairs.push((a, b));
        (self.pairs.len() - 1) as u32
    }
}

/// One constructor of a [`Re`].
enum ReView<'a> {
    Atom(Lazy<'a, Vec<Nat>>),
    Or(Re<'a>, Re<'a>),
    Seq(Re<'a>, Re<'a>),
    And(Re<'a>, Re<'a>),
    Star(Re<'a>),
    Eps,
}

impl<'a> Re<'a> {
    /// `case re of`: reads an input constructor; free for a built node.
    #[inline]
    fn view(self, pairs: &[(Re<'a>, Re<'a>)]) -> ReView<'a> {
        match self {
            Re::In(r) => match r.view() {
                REView::Atom(w) => ReView::Atom(w),
                REView::Or(a, b) => ReView::Or(Re::In(a), Re::In(b)),
                REView::Seq(a, b) => ReView::Seq(Re::In(a), Re::In(b)),
                REView::And(a, b) => ReView::And(Re::In(a), Re::In(b)),
                REView::Star(a) => ReView::Star(Re::In(a)),
                REView::Eps => ReView::Eps,
            },
            Re::Eps => ReView::Eps,
            Re::Or(i) => {
                let (a, b) = pairs[i as usize];
                ReView::Or(a, b)
            }
            Re::Seq(i) => {
                let (a, b) = pairs[i as usize];
                ReView::Seq(a, b)
            }
            Re::And(i) => {
                let (a, b) = pairs[i as usize];
                ReView::And(a, b)
            }
        }
    }
}

/// A string: a suffix of the input list, or a list built by the predicate
/// (its cells are free, its symbols are input positions), which is
/// `symbols[start..end]` of the run's [`Scratch`].
#[derive(Clone, Copy)]
enum Str<'a> {
    In(Lazy<'a, Vec<Nat>>),
    Built(u32, u32),
}

impl<'a> Str<'a> {
    /// `case s of`: reads a cell of an input list.
    #[inline]
    fn uncons(self, symbols: &[LNat<'a>]) -> Option<(LNat<'a>, Str<'a>)> {
        match self {
            Str::In(l) => match l.view() {
                ListView::Nil => None,
                ListView::Cons(c, cs) => Some((c, Str::In(cs))),
            },
            Str::Built(start, end) if start < end => {
                Some((symbols[start as usize], Str::Built(start + 1, end)))
            }
            Str::Built(..) => None,
        }
    }
}

// ---------------------------------------------------------------------------
// Acceptance

/// What the acceptance functions share: the built nodes (read only) and the
/// stack of built strings.
struct Matcher<'a, 'p> {
    pairs: &'p [(Re<'a>, Re<'a>)],
    symbols: Vec<LNat<'a>>,
}

impl<'a> Matcher<'a, '_> {
    fn accepts(&mut self, re: Re<'a>, s: Str<'a>) -> bool {
        match re.view(self.pairs) {
            ReView::Atom(w) => self.match_word(w, s),
            ReView::Or(a, b) => self.accepts(a, s) || self.accepts(b, s),
            ReView::Seq(a, b) => self.split(a, Some(b), s),
            ReView::And(a, b) => self.accepts(a, s) && self.accepts(b, s),
            ReView::Star(a) => self.accepts_star(a, s),
            ReView::Eps => s.uncons(&self.symbols).is_none(),
        }
    }

    /// `accepts(Star(a), s)` (the `Star` node is built: reading it is free).
    fn accepts_star(&mut self, a: Re<'a>, s: Str<'a>) -> bool {
        match s {
            Str::Built(start, end) => {
                start == end || self.split_built(a, None, start, end, start + 1)
            }
            Str::In(_) => match s.uncons(&self.symbols) {
                None => true,
                Some((c, cs)) => {
                    let start = self.symbols.len() as u32;
                    self.symbols.push(c);
                    self.split_in(a, None, start, cs)
                }
            },
        }
    }

    /// `splitSeq(a, b, [], s)` (`b = Some`) or, with `b = None`, the loop of
    /// `splitStar(a, [c], cs)` whose second part is `Star(a)`.
    fn split(&mut self, a: Re<'a>, b: Option<Re<'a>>, s: Str<'a>) -> bool {
        match s {
            Str::Built(start, end) => self.split_built(a, b, start, end, start),
            Str::In(_) => {
                let start = self.symbols.len() as u32;
                self.split_in(a, b, start, s)
            }
        }
    }

    /// The second part of a split: `accepts(b, rest)` or `accepts(Star(a), rest)`.
    #[inline]
    fn second(&mut self, a: Re<'a>, b: Option<Re<'a>>, rest: Str<'a>) -> bool {
        match b {
            Some(b) => self.accepts(b, rest),
            None => self.accepts_star(a, rest),
        }
    }

    /// Splits of the built string `symbols[start..end]` at `mid, mid + 1,
    /// ..., end`: `pre = symbols[start..mid]`.
    fn split_built(
        &mut self,
        a: Re<'a>,
        b: Option<Re<'a>>,
        start: u32,
        end: u32,
        mut mid: u32,
    ) -> bool {
        loop {
            if self.accepts(a, Str::Built(start, mid)) && self.second(a, b, Str::Built(mid, end)) {
                return true;
            }
            if mid == end {
                return false;
            }
            mid += 1;
        }
    }

    /// Splits of an input suffix `rest`: `pre` is `symbols[start..]`, the
    /// cells read so far, on top of the stack; it is popped before returning.
    fn split_in(&mut self, a: Re<'a>, b: Option<Re<'a>>, start: u32, mut rest: Str<'a>) -> bool {
        let accepted = loop {
            let end = self.symbols.len() as u32;
            if self.accepts(a, Str::Built(start, end)) && self.second(a, b, rest) {
                break true;
            }
            match rest.uncons(&self.symbols) {
                None => break false,
                Some((c, cs)) => {
                    self.symbols.push(c);
                    rest = cs;
                }
            }
        };
        self.symbols.truncate(start as usize);
        accepted
    }

    /// `matchWord(w, s)`: w's cell, then s's cell, then the symbols.
    fn match_word(&self, w: Lazy<'a, Vec<Nat>>, s: Str<'a>) -> bool {
        let (mut w, mut s) = (w, s);
        loop {
            match w.view() {
                ListView::Nil => return s.uncons(&self.symbols).is_none(),
                ListView::Cons(c, cs) => match s.uncons(&self.symbols) {
                    None => return false,
                    Some((d, ds)) => {
                        if !eq_nat(c, d) {
                            return false;
                        }
                        w = cs;
                        s = ds;
                    }
                },
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Derived operations

/// A natural built by the predicate: `S^succs(base)`, with `base` an input
/// natural or a built `Z`.
#[derive(Clone, Copy)]
struct BNat<'a> {
    succs: u32,
    base: Option<LNat<'a>>,
}

/// `rep(i, r)`: reads i's cells outermost first, then builds
/// `Seq(r, Seq(r, ... Eps))`.
fn rep<'a>(sc: &mut Scratch<'a>, i: BNat<'a>, r: Re<'a>) -> Re<'a> {
    let mut count = i.succs;
    let mut base = i.base;
    while let Some(n) = base {
        match n.view() {
            NatView::Z => base = None,
            NatView::S(m) => {
                count += 1;
                base = Some(m);
            }
        }
    }
    let mut out = Re::Eps;
    for _ in 0..count {
        out = Re::Seq(sc.pair(r, out));
    }
    out
}

/// `monus(a, b)`: reads b, then a, at each step.
fn monus<'a>(a: LNat<'a>, b: LNat<'a>) -> BNat<'a> {
    let (mut a, mut b) = (a, b);
    loop {
        match b.view() {
            NatView::Z => {
                return BNat {
                    succs: 0,
                    base: Some(a),
                }
            }
            NatView::S(b1) => match a.view() {
                NatView::Z => {
                    return BNat {
                        succs: 0,
                        base: None,
                    }
                }
                NatView::S(a1) => {
                    a = a1;
                    b = b1;
                }
            },
        }
    }
}

/// `repBetween(lo, hi, r) = go(lo, monus(hi, lo))`.
fn rep_between<'a>(sc: &mut Scratch<'a>, lo: LNat<'a>, hi: LNat<'a>, r: Re<'a>) -> Re<'a> {
    let d = monus(hi, lo);
    debug_assert_eq!(d.succs, 0);
    let mut d = d.base;
    let mut i = BNat {
        succs: 0,
        base: Some(lo),
    };
    // go(i, d): read d, build this alternative, then the rest. The result
    // `Or(h0, Or(h1, ... hm))` is built front to back: each `Or` is pushed
    // with a placeholder second operand, filled in by the next step.
    let mut open_or: Option<u32> = None;
    let mut first: Option<Re<'a>> = None;
    loop {
        let d1 = match d {
            None => None,
            Some(n) => match n.view() {
                NatView::Z => None,
                NatView::S(d1) => Some(d1),
            },
        };
        let h = rep(sc, i, r);
        let here = match d1 {
            None => h,
            Some(_) => Re::Or(sc.pair(h, Re::Eps)),
        };
        match open_or {
            Some(o) => sc.pairs[o as usize].1 = here,
            None => first = Some(here),
        }
        match d1 {
            None => break,
            Some(d1) => {
                if let Re::Or(o) = here {
                    open_or = Some(o);
                }
                d = Some(d1);
                i.succs += 1;
            }
        }
    }
    first.expect("one alternative")
}

/// The property: `accepts(repBetween(n, k, And(p, q)), s) ==
/// accepts(And(repBetween(n, k, p), repBetween(n, k, q)), s)`.
///
/// Evaluation order: the left-hand expression is built first (this reads n
/// and k completely; building the right-hand side reads nothing new), then
/// the **right-hand side is matched before the left-hand side**. regexp.md
/// says the left-hand side is matched first, but that order gives 2335620
/// tests at bound 19 in `ctrex` mode instead of the reference 2339370;
/// matching the right-hand side first gives exactly 2339370 (and the same
/// counterexample). The peer's `==` on `Bool` evidently forces its second
/// operand first. Counts in `all` mode do not depend on this order.
pub fn prop(input: Lazy<'_, Input>) -> bool {
    let (n, k, p, q, s) = input.view();
    let (p, q) = (Re::In(p), Re::In(q));
    Scratch::with(|sc| {
        let pq = Re::And(sc.pair(p, q));
        let lhs = rep_between(sc, n, k, pq);
        let rp = rep_between(sc, n, k, p);
        let rq = rep_between(sc, n, k, q);
        let rhs = Re::And(sc.pair(rp, rq));
        let mut m = Matcher {
            pairs: &sc.pairs,
            symbols: std::mem::take(&mut sc.symbols),
        };
        let b = m.accepts(rhs, Str::In(s));
        let a = m.accepts(lhs, Str::In(s));
        sc.symbols = m.symbols;
        a == b
    })
}

//! Printing a function as a `match` over its argument: one walk
//! ([`function_text`]) over built decisions, a pattern's (with holes) and a
//! run's decisions as they stand.

use super::super::{grammar_of, Enumerable};
use super::apply::*;
use super::space::*;
use crate::describe::Shape;
use crate::grammar::{Grammar, ProdId, SortId, SortKind, Tree};
use crate::handle::{Ctx, Lazy};
use std::cell::Cell;
use std::fmt;

// ---------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------

/// One step of a function's decisions as a printer sees them.
pub(crate) enum Step<N> {
    /// Never read (a pattern's hole).
    Hole,
    Skip(N),
    Branches(Vec<N>),
    Split {
        key: i128,
        low: N,
        high: N,
    },
}

/// Decisions a printer can walk: built ones, or a pattern's.
pub(crate) trait DecisionTree<'d> {
    type Node: Copy + 'd;
    /// The step at `node`; `atom` tells whether the first pending position
    /// is an integer or a character (a decision there is a split).
    fn step(&self, node: Self::Node, atom: bool) -> Step<Self::Node>;
    /// The text of the result at `node`.
    fn result(&self, node: Self::Node) -> String;
}

/// One piece of an argument pattern, in pre-order.
#[derive(Clone, Debug)]
pub(super) enum Piece {
    /// An alternative; its fields follow.
    Alternative(ProdId),
    Any,
    /// An integer or character between two keys (inclusive).
    Range(SortId, i128, i128),
}

#[derive(Clone)]
pub(super) struct Path {
    pub(super) pending: Vec<SortId>,
    pub(super) pieces: Vec<Piece>,
    /// The keys the first pending position (an atom) lies between.
    pub(super) range: Option<(i128, i128)>,
}

impl Path {
    pub(super) fn settle(&mut self, g: &Grammar) {
        let pieces = &mut self.pieces;
        settle(g, &mut self.pending, |opened| {
            pieces.push(opened.map_or(Piece::Any, Piece::Alternative))
        });
        self.range = None;
    }

    /// Pops the head (not looked at, or an atom known to lie in a range).
    pub(super) fn pop(&mut self, spec: &FunShape) {
        let sort = self.pending.pop().expect("a head");
        let bounds = || spec.family(sort).key_bounds();
        self.pieces.push(match self.range {
            Some((low, high)) if (low, high) != bounds() => Piece::Range(sort, low, high),
            _ => Piece::Any,
        });
        self.settle(&spec.arg);
    }

    /// Everything still pending is `_`.
    pub(super) fn rest_any(&mut self, spec: &FunShape) {
        while !self.pending.is_empty() {
            let atom = spec.arg.sorts[self.pending.last().unwrap().index()]
                .atom
                .is_some();
            if atom {
                self.pop(spec);
            } else {
                self.pending.pop();
                self.pieces.push(Piece::Any);
                self.settle(&spec.arg);
            }
        }
    }
}

/// Prints decisions as `|x| match x { pattern => result, .., _ => default }`.
pub(crate) fn function_text<'d, T: DecisionTree<'d>>(
    spec: &FunShape,
    tree: &T,
    root: T::Node,
) -> String {
    let g = &spec.arg;
    let mut start = Path {
        pending: vec![g.root],
        pieces: vec![],
        range: None,
    };
    start.settle(g);
    let mut arms: Vec<(Vec<Piece>, String)> = vec![];
    let mut work = vec![(root, start)];
    while let Some((node, mut path)) = work.pop() {
        let Some(&sort) = path.pending.last() else {
            arms.push((path.pieces, tree.result(node)));
            continue;
        };
        let atom = g.sorts[sort.index()].atom.is_some();
        match tree.step(node, atom) {
            Step::Hole => {
                path.rest_any(spec);
                arms.push((path.pieces, "_".to_string()));
            }
            Step::Skip(next) => {
                path.pop(spec);
                work.push((next, path));
            }
            Step::Branches(branches) => {
                let SortKind::Algebraic { chain, .. } = &g.sorts[sort.index()].kind else {
                    unreachable!("cases are on alternatives")
                };
                for (&prod, next) in chain.iter().zip(branches).rev() {
                    let mut p = path.clone();
                    p.pending.pop();
                    p.pieces.push(Piece::Alternative(prod));
                    p.pending.extend(g.prods[prod.index()].slots.iter().rev());
                    p.settle(g);
                    work.push((next, p));
                }
            }
            Step::Split { key, low, high } => {
                let (lo, hi) = path.range.unwrap_or_else(|| spec.family(sort).key_bounds());
                if key < hi {
                    let mut p = path.clone();
                    p.range = Some((lo.max(key + 1), hi));
                    work.push((high, p));
                }
                if key >= lo {
                    path.range = Some((lo, hi.min(key)));
                    work.push((low, path));
                }
            }
        }
    }
    arms_text(spec, arms)
}

pub(super) fn arms_text(spec: &FunShape, arms: Vec<(Vec<Piece>, String)>) -> String {
    let (params, subject) = match spec.arity {
        2 => ("|x, y|", "(x, y)"),
        _ => ("|x|", "x"),
    };
    let wild = if spec.arity == 2 { "|_, _|" } else { "|_|" };
    // The default branch: holes if any (the rest was never read), else the
    // most frequent result (the later one on a tie).
    let default = if arms.iter().any(|(_, r)| r == "_") {
        "_".to_string()
    } else {
        let mut best: Option<(usize, &String)> = None;
        for (_, r) in &arms {
            let n = arms.iter().filter(|(_, s)| s == r).count();
            if best.is_none_or(|(m, _)| n >= m) {
                best = Some((n, r));
            }
        }
        best.map(|(_, r)| r.clone())
            .unwrap_or_else(|| "_".to_string())
    };
    let shown: Vec<String> = arms
        .iter()
        .filter(|(_, r)| *r != default)
        .map(|(pieces, r)| format!("{} => {r}", pattern_text(spec, pieces)))
        .collect();
    if shown.is_empty() {
        return format!("{wild} {default}");
    }
    format!(
        "{params} match {subject} {{ {}, _ => {default} }}",
        shown.join(", ")
    )
}

/// The text of an argument pattern from its pre-order pieces (iterative).
pub(super) fn pattern_text(spec: &FunShape, pieces: &[Piece]) -> String {
    let g = &spec.arg;
    // A frame: an alternative whose fields are being printed.
    struct Frame {
        prod: ProdId,
        fields: Vec<String>,
    }
    let mut frames: Vec<Frame> = vec![];
    let mut pieces = pieces.iter();
    loop {
        let text = match frames.last() {
            Some(f) if f.fields.len() == g.prods[f.prod.index()].slots.len() => {
                let f = frames.pop().expect("a frame");
                alternative_text(g, f.prod, f.fields)
            }
            _ => match pieces.next() {
                Some(Piece::Alternative(prod)) => {
                    frames.push(Frame {
                        prod: *prod,
                        fields: vec![],
                    });
                    continue;
                }
                Some(Piece::Any) | None => "_".to_string(),
                Some(Piece::Range(sort, low, high)) => range_text(spec, *sort, *low, *high),
            },
        };
        match frames.last_mut() {
            Some(f) => f.fields.push(text),
            None => return text,
        }
    }
}

pub(super) fn range_text(spec: &FunShape, sort: SortId, low: i128, high: i128) -> String {
    let family = spec.family(sort);
    let (min, max) = family.key_bounds();
    let text = |k| family.key_text(k);
    match (low == min, high == max) {
        _ if low == high => text(low),
        (true, true) => "_".to_string(),
        (true, false) => format!("..={}", text(high)),
        (false, true) => format!("{}..", text(low)),
        (false, false) => format!("{}..={}", text(low), text(high)),
    }
}

pub(super) fn alternative_text(g: &Grammar, prod: ProdId, fields: Vec<String>) -> String {
    let p = &g.prods[prod.index()];
    match p.shape.as_deref() {
        Some(Shape::Nil) => "[]".to_string(),
        Some(Shape::Cons) => {
            // `[h, ..]` with the tail's elements spliced in: `[a, b]`,
            // `[a, b, ..]`.
            let mut it = fields.into_iter();
            let head = it.next().unwrap_or_default();
            let tail = it.next().unwrap_or_default();
            match tail.as_str() {
                "[]" => format!("[{head}]"),
                "_" => format!("[{head}, ..]"),
                t => format!("[{head}, {}", &t[1..]),
            }
        }
        Some(Shape::Tuple) => match fields.len() {
            1 => format!("({},)", fields[0]),
            _ => format!("({})", fields.join(", ")),
        },
        Some(Shape::Ctor {
            name,
            fields: names,
        }) => match names {
            _ if fields.is_empty() => name.to_string(),
            Some(_) if fields.iter().all(|f| f == "_") => format!("{name} {{ .. }}"),
            Some(names) => format!(
                "{name} {{ {} }}",
                names
                    .iter()
                    .zip(&fields)
                    .map(|(n, f)| format!("{n}: {f}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => format!("{name}({})", fields.join(", ")),
        },
        Some(Shape::Plain) | None if fields.is_empty() => {
            let value = g.build_value(&Tree::Node(prod, vec![]));
            crate::describe::debug_text(&*value).unwrap_or_else(|| format!("#{}", p.tag))
        }
        Some(Shape::Plain) | None => format!("#{}({})", p.tag, fields.join(", ")),
    }
}

/// Built decisions, their results printed with `show`.
pub(super) struct Built<'s, B> {
    pub(super) show: &'s dyn Fn(&B) -> String,
}

impl<'d, B: 'd> DecisionTree<'d> for Built<'_, B> {
    type Node = &'d Decision<B>;
    fn step(&self, node: &'d Decision<B>, _atom: bool) -> Step<&'d Decision<B>> {
        match node {
            Decision::Result(_) => Step::Hole,
            Decision::Skip(next) => Step::Skip(next),
            Decision::Case(branches) => Step::Branches(branches.iter().collect()),
            Decision::Split(key, low, high) => Step::Split {
                key: *key,
                low,
                high,
            },
        }
    }
    fn result(&self, node: &'d Decision<B>) -> String {
        match node {
            Decision::Result(b) => (self.show)(b),
            _ => "_".to_string(),
        }
    }
}

impl<Args: Enumerable, B: fmt::Debug + 'static> Core<Args, B> {
    pub(super) fn text(&self, arity: usize) -> String {
        match &self.decisions {
            Decisions::Built(d) => {
                let shape = FunShape {
                    arg: grammar_of::<Args>(),
                    arity,
                    name: String::new(),
                };
                function_text(
                    &shape,
                    &Built {
                        show: &|b: &B| format!("{b:?}"),
                    },
                    d,
                )
            }
            Decisions::Live { serial, root } => {
                crate::handle::with_run(*serial, |ctx| standing_text::<B>(ctx, *root))
                    .unwrap_or_else(|| {
                        format!(
                            "<a function of `{}` whose run has ended>",
                            std::any::type_name::<Args>()
                        )
                    })
            }
        }
    }
}

/// A function of the run in progress as its decisions stand (unread ones at
/// their smallest), read without recording: printing a function during a
/// property changes nothing the search sees.
pub(super) fn standing_text<B: fmt::Debug + 'static>(ctx: &Ctx<'_>, root: u32) -> String {
    let quiet = Ctx {
        nodes: ctx.nodes,
        info: ctx.info,
        slot_types: ctx.slot_types,
        grammar: ctx.grammar,
        stamp: Cell::new(0),
        trusted: false,
        checked: None,
        reads: ctx.reads,
        arena: ctx.arena,
    };
    let (shape, start) = live_root(&quiet, root);
    let show = |node: u32| format!("{:?}", Lazy::<B>::new(&quiet, node).force_generic());
    function_text(
        &shape,
        &Standing {
            ctx: &quiet,
            show: &show,
        },
        start,
    )
}

/// A run's decisions read without recording (see [`standing_text`]).
pub(super) struct Standing<'c> {
    pub(super) ctx: &'c Ctx<'c>,
    pub(super) show: &'c dyn Fn(u32) -> String,
}

impl DecisionTree<'_> for Standing<'_> {
    type Node = u32;
    fn step(&self, node: u32, atom: bool) -> Step<u32> {
        let n = &self.ctx.nodes[node as usize];
        let first = n.first_field();
        if n.tag() == 0 {
            return Step::Skip(first);
        }
        if atom {
            let key = &self.ctx.nodes[first as usize];
            let block = self.ctx.grammar.prods[key.prod().index()]
                .atom
                .expect("a split key is an atom");
            let bits = (0..block.free).fold(0u64, |acc, i| {
                acc << 1 | u64::from(self.ctx.nodes[(key.first_field() + i) as usize].tag())
            });
            return Step::Split {
                key: block.key(bits),
                low: first + 1,
                high: first + 2,
            };
        }
        let arity = self.ctx.grammar.prods[n.prod().index()].slots.len();
        Step::Branches((first..first + crate::arena::id32(arity)).collect())
    }
    fn result(&self, node: u32) -> String {
        (self.show)(node)
    }
}

//! The reference enumeration: every value of exactly size `n`, listed by
//! direct recursion on the space description. Slow and simple on purpose: it
//! is the oracle the tests compare everything else against.
//!
//! Order (documented, and shared with indexing): `union` lists its operands
//! left to right; `product` lists pairs by the size of the left component
//! (ascending), then the left value, then the right value; `pay`, `map`
//! keep order; a leaf family lists its values of the size in its own order.
//!
//! Two oracles live here: [`values_of`] walks the uncompiled description,
//! [`trees_of`] walks the compiled grammar (and yields the structural trees
//! that search patterns are matched against). Tests check they agree.

use crate::describe::{Raw, Value};
use crate::grammar::{Grammar, SortId, SortKind, Tree};
use crate::types::grammar_of;
use crate::Enumerable;
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};
use std::collections::HashMap;
use std::rc::Rc;

/// The family of a leaf or atom description, as the plain family of
/// atomic values both are for the reference enumeration.
fn leaf_family_of(raw: &Raw) -> &dyn crate::describe::LeafFamily {
    match raw {
        Raw::Leaf(family) => &**family,
        Raw::Atom(family) => &**family,
        _ => unreachable!("a leaf"),
    }
}

/// A derivation: which branch of every union a value took.
enum Deriv {
    Pure,
    Pay(Rc<Deriv>),
    Union(usize, Rc<Deriv>),
    Product(Vec<Rc<Deriv>>),
    Map(Rc<Deriv>),
    Ref(Rc<Deriv>),
    Leaf(usize, BigUint),
    Wrap(Rc<Deriv>),
}

fn enumerate(raw: &Raw, n: usize) -> Vec<Rc<Deriv>> {
    match raw {
        Raw::Empty => vec![],
        Raw::Pure(_) => {
            if n == 0 {
                vec![Rc::new(Deriv::Pure)]
            } else {
                vec![]
            }
        }
        Raw::Pay(inner) => {
            if n == 0 {
                vec![]
            } else {
                enumerate(inner, n - 1)
                    .into_iter()
                    .map(|d| Rc::new(Deriv::Pay(d)))
                    .collect()
            }
        }
        Raw::Union(parts) => {
            let mut out = vec![];
            for (i, p) in parts.iter().enumerate() {
                out.extend(
                    enumerate(p, n)
                        .into_iter()
                        .map(|d| Rc::new(Deriv::Union(i, d))),
                );
            }
            out
        }
        Raw::Product(parts, _) => enumerate_product(parts, n)
            .into_iter()
            .map(|ds| Rc::new(Deriv::Product(ds)))
            .collect(),
        Raw::Map(_, inner) => enumerate(inner, n)
            .into_iter()
            .map(|d| Rc::new(Deriv::Map(d)))
            .collect(),
        Raw::Ref(tr) => enumerate(&(tr.raw)(), n)
            .into_iter()
            .map(|d| Rc::new(Deriv::Ref(d)))
            .collect(),
        Raw::Leaf(_) | Raw::Atom(_) => {
            let family = leaf_family_of(raw);
            let count = family.count(n);
            let mut out = vec![];
            let mut i = BigUint::zero();
            while i < count {
                out.push(Rc::new(Deriv::Leaf(n, i.clone())));
                i += 1u32;
            }
            out
        }
        Raw::Label(_, inner)
        | Raw::Function(_, inner)
        | Raw::Transparent(inner)
        | Raw::Sort(inner)
        | Raw::Weight(_, inner) => enumerate(inner, n)
            .into_iter()
            .map(|d| Rc::new(Deriv::Wrap(d)))
            .collect(),
    }
}

fn enumerate_product(parts: &[Rc<Raw>], n: usize) -> Vec<Vec<Rc<Deriv>>> {
    if parts.is_empty() {
        return if n == 0 { vec![vec![]] } else { vec![] };
    }
    let mut out = vec![];
    for k in 0..=n {
        let firsts = enumerate(&parts[0], k);
        if firsts.is_empty() {
            continue;
        }
        let rests = enumerate_product(&parts[1..], n - k);
        for f in &firsts {
            for r in &rests {
                let mut v = vec![f.clone()];
                v.extend(r.iter().cloned());
                out.push(v);
            }
        }
    }
    out
}

fn build(raw: &Raw, d: &Deriv) -> Value {
    match (raw, d) {
        (Raw::Pure(p), Deriv::Pure) => p(),
        (Raw::Pay(inner), Deriv::Pay(d)) => build(inner, d),
        (Raw::Union(parts), Deriv::Union(i, d)) => build(&parts[*i], d),
        (Raw::Product(parts, combine), Deriv::Product(ds)) => {
            let mut vals: Vec<Value> = parts.iter().zip(ds).map(|(p, d)| build(p, d)).collect();
            let mut fields = crate::describe::Fields::new(vals.drain(..));
            combine(&mut fields)
        }
        (Raw::Map(f, inner), Deriv::Map(d)) => f(build(inner, d)),
        (Raw::Ref(tr), Deriv::Ref(d)) => build(&(tr.raw)(), d),
        (Raw::Leaf(_) | Raw::Atom(_), Deriv::Leaf(size, i)) => leaf_family_of(raw).value(*size, i),
        (
            Raw::Label(_, inner)
            | Raw::Function(_, inner)
            | Raw::Transparent(inner)
            | Raw::Sort(inner)
            | Raw::Weight(_, inner),
            Deriv::Wrap(d),
        ) => build(inner, d),
        _ => unreachable!("derivation does not match its description"),
    }
}

/// All values of `T` of exactly size `n`, in the reference order, by direct
/// recursion on `T`'s description. Exponential: for tests and small sizes.
pub fn values_of<T: Enumerable>(n: usize) -> Vec<T> {
    // Compiling first reports cycles without `pay` instead of looping.
    let _ = grammar_of::<T>();
    let raw = crate::types::of::<T>().raw;
    enumerate(&raw, n)
        .iter()
        .map(|d| crate::grammar::downcast(build(&raw, d), "the reference enumeration"))
        .collect()
}

/// All values of `T` of size `0..=n`, smallest first.
pub fn values_up_to<T: Enumerable>(n: usize) -> Vec<T> {
    (0..=n).flat_map(values_of::<T>).collect()
}

/// All values of a space of exactly size `n` (see [`values_of`]).
pub fn values_in<T: 'static>(space: &crate::describe::Space<T>, n: usize) -> Vec<T> {
    let _ = crate::grammar::compile_space(space);
    enumerate(&space.raw, n)
        .iter()
        .map(|d| crate::grammar::downcast(build(&space.raw, d), "the reference enumeration"))
        .collect()
}

/// Grammar-level enumeration of the trees of a sort of exactly size `n`,
/// in the reference order, memoised.
pub(crate) struct TreeEnum<'g> {
    g: &'g Grammar,
    memo: HashMap<(SortId, usize), Rc<Vec<Rc<Tree>>>>,
}

impl<'g> TreeEnum<'g> {
    pub(crate) fn new(g: &'g Grammar) -> Self {
        TreeEnum {
            g,
            memo: HashMap::new(),
        }
    }

    pub(crate) fn trees(&mut self, sort: SortId, n: usize) -> Rc<Vec<Rc<Tree>>> {
        if let Some(v) = self.memo.get(&(sort, n)) {
            return v.clone();
        }
        let g = self.g;
        let mut out = vec![];
        match &g.sorts[sort.index()].kind {
            SortKind::Leaf { family, .. } => {
                let count = family.count(n);
                if !count.is_zero() {
                    // Global index of the first value of size n.
                    let start: BigUint = (0..n).map(|s| family.count(s)).sum();
                    let start = start.to_u64().unwrap_or(u64::MAX);
                    let c = count.to_u64().unwrap_or(u64::MAX);
                    for i in 0..c {
                        out.push(Rc::new(Tree::Leaf(sort, start + i)));
                    }
                }
            }
            SortKind::Algebraic { decl, .. } => {
                for &p in decl {
                    let prod = &g.prods[p.index()];
                    let cost = prod.cost as usize;
                    if n < cost {
                        continue;
                    }
                    let slots = prod.slots.clone();
                    for kids in self.slot_products(&slots, n - cost) {
                        out.push(Rc::new(Tree::Node(p, kids)));
                    }
                }
            }
        }
        let out = Rc::new(out);
        self.memo.insert((sort, n), out.clone());
        out
    }

    fn slot_products(&mut self, slots: &[SortId], n: usize) -> Vec<Vec<Rc<Tree>>> {
        if slots.is_empty() {
            return if n == 0 { vec![vec![]] } else { vec![] };
        }
        let mut out = vec![];
        for k in 0..=n {
            let firsts = self.trees(slots[0], k);
            if firsts.is_empty() {
                continue;
            }
            let rests = self.slot_products(&slots[1..], n - k);
            for f in firsts.iter() {
                for r in &rests {
                    let mut v = Vec::with_capacity(slots.len());
                    v.push(f.clone());
                    v.extend(r.iter().cloned());
                    out.push(v);
                }
            }
        }
        out
    }
}

/// All values of `T` of exactly size `n` as trees of its compiled grammar,
/// in the reference order.
pub fn trees_of<T: Enumerable>(n: usize) -> Vec<Tree> {
    let g = grammar_of::<T>();
    trees_in(&g, n)
}

/// All trees of the root of a grammar of exactly size `n`.
pub fn trees_in(g: &Grammar, n: usize) -> Vec<Tree> {
    let mut e = TreeEnum::new(g);
    e.trees(g.root, n).iter().map(|t| (**t).clone()).collect()
}

/// Materialises a tree of `T`'s compiled grammar.
pub fn tree_value<T: Enumerable>(t: &Tree) -> T {
    let g = grammar_of::<T>();
    crate::grammar::downcast(g.build_root(t), "a tree")
}

/// Size of a tree of `T`'s grammar.
pub fn tree_size<T: Enumerable>(t: &Tree) -> u64 {
    grammar_of::<T>().tree_size(t)
}

#[allow(dead_code)]
fn _one() -> BigUint {
    BigUint::one()
}

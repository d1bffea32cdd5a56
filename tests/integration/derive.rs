//! `#[derive(Enumerable)]`: the spaces of derived structs and enums (sizes,
//! declaration order, generics, recursion through `Box`/`Vec`/`Option`,
//! mutual recursion, `skip` and `with` attributes) and the generated lazy
//! views, checked against hand-written oracles and the materialised values.

use crate::common;

use common::{Forest, List, Nat, Oracle, Tree2};
use neatcheck::count::{count_of, count_up_to};
use neatcheck::lazy::ListView as LV;
use neatcheck::search::{self, RunResult, Searcher};
use neatcheck::values::{tree_value, trees_of, values_of};
use neatcheck::{Enumerable, Lazy};
use num_bigint::BigUint;
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt::Debug;
use std::hash::Hash;

// ---------------------------------------------------------------------------
// The types.
// ---------------------------------------------------------------------------

#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
struct Point {
    x: bool,
    y: Option<bool>,
}

#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
struct Pair(bool, u8);

#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
struct Unit;

#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
enum Color {
    Red,
    Green,
    Blue,
}

/// Declared big first: the reference order lists `Big` first at equal
/// sizes, the search tries the smaller `Small` first.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
enum Order {
    Big(bool, bool),
    Mid { flag: bool },
    Small,
}

#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
enum Shape3 {
    Dot,
    Line(u8),
    Rect { w: bool, h: Option<bool> },
}

/// Recursion through `Vec`.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
struct Rose {
    label: bool,
    kids: Vec<Rose>,
}

/// Recursion through `Option<Box<_>>`.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
struct Chain {
    next: Option<Box<Chain>>,
}

/// An expression type with recursion through `Box` in several places.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
enum Exp {
    Lit(bool),
    Neg(Box<Exp>),
    Add(Box<Exp>, Box<Exp>),
    If {
        c: Box<Exp>,
        t: Box<Exp>,
        e: Box<Exp>,
    },
}

/// A skipped variant is never produced; its field type need not even be
/// enumerable.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
#[allow(dead_code)]
enum WithSkip {
    A,
    #[enumerable(skip)]
    B(std::time::Duration),
    C(bool),
    #[enumerable(skip)]
    D,
}

/// A field with an overriding space: only 0..=3, each of size 1.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
struct Small {
    #[enumerable(with = "neatcheck::space::range(0, 3, |x| x as u8)")]
    v: u8,
    flag: bool,
}

#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
enum Digits {
    End,
    More(
        #[enumerable(with = "neatcheck::space::range(0, 3, |x| x as u8)")] u8,
        Box<Digits>,
    ),
}

/// Generic with two parameters.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
enum Either2<A, B> {
    L(A),
    R(B),
}

#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
struct Wrapper<T> {
    inner: T,
}

// ---------------------------------------------------------------------------
// Oracles, by hand.
// ---------------------------------------------------------------------------

fn only_at<T>(n: u64, size: u64, values: Vec<T>) -> Vec<T> {
    if n == size {
        values
    } else {
        vec![]
    }
}

impl Oracle for Point {
    fn hsize(&self) -> u64 {
        1 + self.x.hsize() + self.y.hsize()
    }
    fn hand_values(n: u64) -> Vec<Self> {
        let mut out = vec![];
        for x in [false, true] {
            for y in Option::<bool>::hand_values(n.saturating_sub(2)) {
                if n >= 2 {
                    out.push(Point { x, y });
                }
            }
        }
        out
    }
}

impl Oracle for Pair {
    fn hsize(&self) -> u64 {
        2 + self.1.hsize()
    }
    fn hand_values(n: u64) -> Vec<Self> {
        if n < 2 {
            return vec![];
        }
        let mut out = vec![];
        for b in [false, true] {
            for x in u8::hand_values(n - 2) {
                out.push(Pair(b, x));
            }
        }
        out
    }
}

impl Oracle for Unit {
    fn hsize(&self) -> u64 {
        1
    }
    fn hand_values(n: u64) -> Vec<Self> {
        only_at(n, 1, vec![Unit])
    }
}

impl Oracle for Color {
    fn hsize(&self) -> u64 {
        1
    }
    fn hand_values(n: u64) -> Vec<Self> {
        only_at(n, 1, vec![Color::Red, Color::Green, Color::Blue])
    }
}

impl Oracle for Order {
    fn hsize(&self) -> u64 {
        match self {
            Order::Big(..) => 3,
            Order::Mid { .. } => 2,
            Order::Small => 1,
        }
    }
    fn hand_values(n: u64) -> Vec<Self> {
        match n {
            1 => vec![Order::Small],
            2 => vec![Order::Mid { flag: false }, Order::Mid { flag: true }],
            3 => vec![
                Order::Big(false, false),
                Order::Big(false, true),
                Order::Big(true, false),
                Order::Big(true, true),
            ],
            _ => vec![],
        }
    }
}

impl Oracle for Shape3 {
    fn hsize(&self) -> u64 {
        match self {
            Shape3::Dot => 1,
            Shape3::Line(x) => 1 + x.hsize(),
            Shape3::Rect { w, h } => 1 + w.hsize() + h.hsize(),
        }
    }
    fn hand_values(n: u64) -> Vec<Self> {
        let mut out = vec![];
        if n == 1 {
            out.push(Shape3::Dot);
        }
        if n >= 1 {
            out.extend(u8::hand_values(n - 1).into_iter().map(Shape3::Line));
        }
        if n >= 2 {
            for w in [false, true] {
                for h in Option::<bool>::hand_values(n - 2) {
                    out.push(Shape3::Rect { w, h });
                }
            }
        }
        out
    }
}

impl Oracle for Rose {
    fn hsize(&self) -> u64 {
        1 + 1 + self.kids.hsize()
    }
    fn hand_values(n: u64) -> Vec<Self> {
        if n < 2 {
            return vec![];
        }
        let mut out = vec![];
        for label in [false, true] {
            for kids in Vec::<Rose>::hand_values(n - 2) {
                out.push(Rose { label, kids });
            }
        }
        out
    }
}

impl Oracle for Chain {
    fn hsize(&self) -> u64 {
        1 + self.next.hsize()
    }
    fn hand_values(n: u64) -> Vec<Self> {
        if n == 0 {
            return vec![];
        }
        Option::<Box<Chain>>::hand_values(n - 1)
            .into_iter()
            .map(|next| Chain { next })
            .collect()
    }
}

impl Oracle for Exp {
    fn hsize(&self) -> u64 {
        match self {
            Exp::Lit(_) => 2,
            Exp::Neg(e) => 1 + e.hsize(),
            Exp::Add(a, b) => 1 + a.hsize() + b.hsize(),
            Exp::If { c, t, e } => 1 + c.hsize() + t.hsize() + e.hsize(),
        }
    }
    fn hand_values(n: u64) -> Vec<Self> {
        if n == 0 {
            return vec![];
        }
        let mut out = vec![];
        if n == 2 {
            out.push(Exp::Lit(false));
            out.push(Exp::Lit(true));
        }
        out.extend(
            Exp::hand_values(n - 1)
                .into_iter()
                .map(|e| Exp::Neg(Box::new(e))),
        );
        for (a, b) in <(Exp, Exp)>::hand_values(n - 1) {
            out.push(Exp::Add(Box::new(a), Box::new(b)));
        }
        for (c, t, e) in <(Exp, Exp, Exp)>::hand_values(n - 1) {
            out.push(Exp::If {
                c: Box::new(c),
                t: Box::new(t),
                e: Box::new(e),
            });
        }
        out
    }
}

impl Oracle for WithSkip {
    fn hsize(&self) -> u64 {
        match self {
            WithSkip::A => 1,
            WithSkip::C(_) => 2,
            WithSkip::B(_) | WithSkip::D => panic!("a skipped variant was produced: {self:?}"),
        }
    }
    fn hand_values(n: u64) -> Vec<Self> {
        match n {
            1 => vec![WithSkip::A],
            2 => vec![WithSkip::C(false), WithSkip::C(true)],
            _ => vec![],
        }
    }
}

impl Oracle for Small {
    fn hsize(&self) -> u64 {
        assert!(self.v <= 3, "out of the overriding space: {self:?}");
        3
    }
    fn hand_values(n: u64) -> Vec<Self> {
        let mut out = vec![];
        if n == 3 {
            for v in 0..=3 {
                for flag in [false, true] {
                    out.push(Small { v, flag });
                }
            }
        }
        out
    }
}

impl Oracle for Digits {
    fn hsize(&self) -> u64 {
        match self {
            Digits::End => 1,
            Digits::More(d, rest) => {
                assert!(*d <= 3, "out of the overriding space: {self:?}");
                2 + rest.hsize()
            }
        }
    }
    fn hand_values(n: u64) -> Vec<Self> {
        let mut out = vec![];
        if n == 1 {
            out.push(Digits::End);
        }
        if n >= 3 {
            for d in 0..=3 {
                for rest in Digits::hand_values(n - 2) {
                    out.push(Digits::More(d, Box::new(rest)));
                }
            }
        }
        out
    }
}

impl<A: Oracle, B: Oracle> Oracle for Either2<A, B> {
    fn hsize(&self) -> u64 {
        1 + match self {
            Either2::L(a) => a.hsize(),
            Either2::R(b) => b.hsize(),
        }
    }
    fn hand_values(n: u64) -> Vec<Self> {
        if n == 0 {
            return vec![];
        }
        let mut out: Vec<Self> = A::hand_values(n - 1).into_iter().map(Either2::L).collect();
        out.extend(B::hand_values(n - 1).into_iter().map(Either2::R));
        out
    }
}

impl<T: Oracle> Oracle for Wrapper<T> {
    fn hsize(&self) -> u64 {
        1 + self.inner.hsize()
    }
    fn hand_values(n: u64) -> Vec<Self> {
        if n == 0 {
            return vec![];
        }
        T::hand_values(n - 1)
            .into_iter()
            .map(|inner| Wrapper { inner })
            .collect()
    }
}

/// The derived space has exactly the oracle's values, each once, with the
/// oracle's sizes, and the counts and the compiled enumeration agree.
fn check_space<T>(bound: usize)
where
    T: Enumerable + Oracle + Eq + Hash + Debug + Clone,
{
    let name = std::any::type_name::<T>();
    for n in 0..=bound {
        let values = values_of::<T>(n);
        let set: HashSet<&T> = values.iter().collect();
        assert_eq!(set.len(), values.len(), "{name}: duplicates at size {n}");
        let hand = T::hand_values(n as u64);
        let hand_set: HashSet<&T> = hand.iter().collect();
        assert_eq!(
            hand_set.len(),
            hand.len(),
            "{name}: the oracle has duplicates"
        );
        assert_eq!(set, hand_set, "{name}: size {n}");
        for v in &values {
            assert_eq!(v.hsize(), n as u64, "{name}: {v:?}");
        }
        assert_eq!(
            count_of::<T>(n),
            BigUint::from(values.len()),
            "{name}: count {n}"
        );
        let from_trees: Vec<T> = trees_of::<T>(n).iter().map(tree_value::<T>).collect();
        assert_eq!(from_trees, values, "{name}: trees_of({n})");
    }
}

#[test]
fn structs() {
    check_space::<Point>(6);
    check_space::<Pair>(11);
    check_space::<Unit>(4);
    assert_eq!(values_of::<Unit>(1), vec![Unit]);
    assert_eq!(count_up_to::<Unit>(10), BigUint::from(1u32));
    // Fields in declaration order, products by the size of the left field.
    assert_eq!(
        values_of::<Point>(3),
        vec![Point { x: false, y: None }, Point { x: true, y: None }]
    );
}

#[test]
fn enums_in_declaration_order() {
    check_space::<Color>(3);
    assert_eq!(
        values_of::<Color>(1),
        vec![Color::Red, Color::Green, Color::Blue]
    );
    check_space::<Order>(5);
    check_space::<Shape3>(10);
    assert_eq!(values_of::<Shape3>(2), vec![Shape3::Line(1)]);
    assert_eq!(
        values_of::<Shape3>(3),
        vec![
            Shape3::Line(2),
            Shape3::Line(3),
            Shape3::Rect { w: false, h: None },
            Shape3::Rect { w: true, h: None }
        ]
    );
}

#[test]
fn search_tries_smaller_constructors_first() {
    // `Order` is declared Big, Mid, Small; the search chain is Small (1),
    // Mid (2), Big (3): the root is Small.
    let mut s = Searcher::<Order>::new(5);
    let mut seen = vec![];
    while s
        .step(|o: Lazy<'_, Order>| o.force() != Order::Small)
        .is_some()
    {
        seen.push(s.value());
    }
    // Depth first, the last-read position first.
    assert_eq!(
        seen,
        vec![
            Order::Small,
            Order::Mid { flag: false },
            Order::Mid { flag: true },
            Order::Big(false, false),
            Order::Big(false, true),
            Order::Big(true, false),
            Order::Big(true, true),
        ]
    );
    assert_eq!(seen[0], Order::Small);
    let set: HashSet<Order> = seen.iter().cloned().collect();
    assert_eq!(set.len(), 7);
    // With a bound of 2, Big never appears and is never built.
    let c = search::classes(|o: Lazy<'_, Order>| o.force() != Order::Small, 2);
    assert_eq!(c.runs, 3);
    assert_eq!(c.satisfying, 2);
}

#[test]
fn generic_types() {
    check_space::<List<bool>>(11);
    check_space::<List<Color>>(9);
    check_space::<Either2<bool, u8>>(10);
    check_space::<Either2<Unit, List<bool>>>(8);
    check_space::<Wrapper<Option<u8>>>(10);
    check_space::<Wrapper<Wrapper<bool>>>(5);
    check_space::<List<Wrapper<bool>>>(10);
}

#[test]
fn recursion_through_box_vec_option() {
    check_space::<Nat>(8);
    check_space::<Exp>(8);
    check_space::<Rose>(10);
    check_space::<Chain>(10);
    for n in 0..=40 {
        let expected = if n >= 2 && n % 2 == 0 { 1u32 } else { 0 };
        assert_eq!(
            count_of::<Chain>(n),
            BigUint::from(expected),
            "Chain at {n}"
        );
    }
}

#[test]
fn mutual_recursion() {
    check_space::<Tree2>(10);
    check_space::<Forest>(10);
    check_space::<Either2<Tree2, Forest>>(9);
}

#[test]
fn skipped_variants_are_never_produced() {
    check_space::<WithSkip>(5);
    // The searcher never builds them either.
    let runs = common::record_runs::<WithSkip, bool, _>(10, |w: Lazy<'_, WithSkip>| {
        !matches!(w.view(), WithSkipView::B(_) | WithSkipView::D)
    });
    // Only the root is read: A and C(_).
    assert_eq!(runs.len(), 2);
    assert!(runs.iter().all(|r| r.result.is_true()));
    let views: Vec<String> = {
        let mut s = Searcher::<WithSkip>::new(10);
        let mut out = vec![];
        while s
            .step(|w: Lazy<'_, WithSkip>| {
                let ok = match (w.view(), w.force()) {
                    (WithSkipView::A, WithSkip::A) => true,
                    (WithSkipView::C(b), WithSkip::C(v)) => b.get() == v,
                    _ => false,
                };
                assert!(ok, "the view does not match the value");
                ok
            })
            .is_some()
        {
            out.push(format!("{:?}", s.value()));
        }
        out
    };
    assert_eq!(views, vec!["A", "C(false)", "C(true)"]);
}

#[test]
fn with_attribute_overrides_a_field_space() {
    check_space::<Small>(6);
    check_space::<Digits>(9);
    // Only 0..=3 appear, each costing 1.
    assert_eq!(count_of::<Small>(3), BigUint::from(8u32));
    for n in (0..12).filter(|&n| n != 3) {
        assert_eq!(count_of::<Small>(n), BigUint::from(0u32));
    }
    let vs: Vec<u8> = values_of::<Small>(3).iter().map(|s| s.v).collect();
    assert_eq!(vs, vec![0, 0, 1, 1, 2, 2, 3, 3]);
    // The search reads the field as one position: 4 * 2 values.
    let c = search::classes(
        |s: Lazy<'_, Small>| {
            let v = s.view();
            v.v.get() < 2 || v.flag.get()
        },
        3,
    );
    // v = 0 and v = 1 do not read the flag: 1 + 1 + 2 + 2 classes.
    assert_eq!(c.runs, 6);
    assert_eq!(c.satisfying, 4);
    let c = search::classes(|s: Lazy<'_, Small>| s.force().flag, 3);
    assert_eq!(c.runs, 8);
    assert_eq!(c.satisfying, 4);
    // Lazily, reading only the overridden field: 4 classes.
    let c = search::classes(|s: Lazy<'_, Small>| s.view().v.get() == 2, 10);
    assert_eq!(c.runs, 4);
    assert_eq!(c.satisfying, 1);
    let found: Vec<Small> =
        search::search(|s: Lazy<'_, Small>| s.view().v.force() == 3, 10).collect();
    assert_eq!(found, vec![Small { v: 3, flag: false }]);
}

// ---------------------------------------------------------------------------
// Lazy views: rebuild values through the views and compare with `force`
// and with the engine's materialised value.
// ---------------------------------------------------------------------------

fn nat_of(n: Lazy<'_, Nat>) -> Nat {
    let mut k = 0;
    let mut cur = n;
    while let common::NatView::S(m) = cur.view() {
        k += 1;
        cur = m;
    }
    Nat::from_u64(k)
}

fn exp_of(e: Lazy<'_, Exp>) -> Exp {
    match e.view() {
        ExpView::Lit(b) => Exp::Lit(b.get()),
        ExpView::Neg(x) => Exp::Neg(Box::new(exp_of(x))),
        ExpView::Add(a, b) => Exp::Add(Box::new(exp_of(a)), Box::new(exp_of(b))),
        ExpView::If { c, t, e } => Exp::If {
            c: Box::new(exp_of(c)),
            t: Box::new(exp_of(t)),
            e: Box::new(exp_of(e)),
        },
    }
}

fn rose_of(r: Lazy<'_, Rose>) -> Rose {
    let RoseView { label, kids } = r.view();
    Rose {
        label: label.get(),
        kids: kids.iter().map(rose_of).collect(),
    }
}

fn chain_of(c: Lazy<'_, Chain>) -> Chain {
    let ChainView { next } = c.view();
    Chain {
        next: next.view().map(|b| Box::new(chain_of(b.unbox()))),
    }
}

fn tree2_of(t: Lazy<'_, Tree2>) -> Tree2 {
    match t.view() {
        common::Tree2View::Leaf(b) => Tree2::Leaf(b.get()),
        common::Tree2View::Node(f) => Tree2::Node(Box::new(forest_of(f))),
    }
}

fn forest_of(f: Lazy<'_, Forest>) -> Forest {
    match f.view() {
        common::ForestView::Nil => Forest::Nil,
        common::ForestView::Cons(t, rest) => {
            Forest::Cons(Box::new(tree2_of(t)), Box::new(forest_of(rest)))
        }
    }
}

fn list_of<T: Enumerable + Clone>(l: Lazy<'_, List<T>>, elem: fn(Lazy<'_, T>) -> T) -> List<T> {
    match l.view() {
        common::ListView::Nil => List::Nil,
        common::ListView::Cons(x, rest) => List::Cons(elem(x), Box::new(list_of(rest, elem))),
    }
}

fn point_of(p: Lazy<'_, Point>) -> Point {
    let PointView { x, y } = p.view();
    Point {
        x: x.get(),
        y: y.view().map(|b| b.get()),
    }
}

fn pair_of(p: Lazy<'_, Pair>) -> Pair {
    let PairView(b, x) = p.view();
    Pair(b.get(), x.get())
}

fn shape3_of(s: Lazy<'_, Shape3>) -> Shape3 {
    match s.view() {
        Shape3View::Dot => Shape3::Dot,
        Shape3View::Line(x) => Shape3::Line(x.get()),
        Shape3View::Rect { w, h } => Shape3::Rect {
            w: w.get(),
            h: h.force(),
        },
    }
}

fn digits_of(d: Lazy<'_, Digits>) -> Digits {
    match d.view() {
        DigitsView::End => Digits::End,
        DigitsView::More(x, rest) => Digits::More(x.get(), Box::new(digits_of(rest))),
    }
}

fn either_of(e: Lazy<'_, Either2<Unit, List<bool>>>) -> Either2<Unit, List<bool>> {
    match e.view() {
        Either2View::L(u) => {
            let UnitView = u.view();
            Either2::L(Unit)
        }
        Either2View::R(l) => Either2::R(list_of(l, |b| b.get())),
    }
}

fn vec_of<T>(xs: Lazy<'_, Vec<T>>, elem: fn(Lazy<'_, T>) -> T) -> Vec<T>
where
    T: Enumerable,
{
    let mut out = vec![];
    let mut cur = xs;
    while let LV::Cons(x, rest) = cur.view() {
        out.push(elem(x));
        cur = rest;
    }
    out
}

/// For every value up to `bound`: the value rebuilt through the views, the
/// forced value and `Searcher::value()` are the same, and the search made
/// one run per value (`rebuild` reads everything).
fn check_views<T>(bound: usize, rebuild: fn(Lazy<'_, T>) -> T)
where
    T: Enumerable + Eq + Hash + Debug + Clone,
{
    let name = std::any::type_name::<T>();
    let mut s = Searcher::<T>::new(bound);
    let last: RefCell<Option<(T, T)>> = RefCell::new(None);
    let mut seen = HashSet::new();
    while let Some(r) = s.step(|x: Lazy<'_, T>| {
        let viewed = rebuild(x);
        let forced = x.force();
        let same = viewed == forced;
        *last.borrow_mut() = Some((viewed, forced));
        same
    }) {
        let (viewed, forced) = last.borrow_mut().take().expect("the predicate ran");
        assert_eq!(
            r,
            RunResult::True,
            "{name}: view {viewed:?} vs force {forced:?}"
        );
        let value = s.value();
        assert_eq!(value, forced, "{name}: Searcher::value vs force");
        assert_eq!(tree_value::<T>(&s.tree()), value, "{name}: tree vs value");
        assert!(seen.insert(value), "{name}: a value was run twice");
    }
    assert_eq!(
        BigUint::from(seen.len()),
        count_up_to::<T>(bound),
        "{name}: the views did not read everything"
    );
    // The reference values are exactly those.
    for n in 0..=bound {
        for v in values_of::<T>(n) {
            assert!(seen.contains(&v), "{name}: {v:?} was never run");
        }
    }
}

#[test]
fn views_match_values() {
    check_views::<Point>(6, point_of);
    check_views::<Pair>(10, pair_of);
    check_views::<Unit>(3, |u| {
        let UnitView = u.view();
        Unit
    });
    check_views::<Color>(3, |c| match c.view() {
        ColorView::Red => Color::Red,
        ColorView::Green => Color::Green,
        ColorView::Blue => Color::Blue,
    });
    check_views::<Order>(4, |o| match o.view() {
        OrderView::Big(a, b) => Order::Big(a.get(), b.get()),
        OrderView::Mid { flag } => Order::Mid { flag: flag.get() },
        OrderView::Small => Order::Small,
    });
    check_views::<Shape3>(9, shape3_of);
    check_views::<Nat>(12, nat_of);
    check_views::<Exp>(9, exp_of);
    check_views::<Rose>(10, rose_of);
    check_views::<Chain>(14, chain_of);
    check_views::<Tree2>(10, tree2_of);
    check_views::<Forest>(10, forest_of);
    check_views::<List<bool>>(11, |l| list_of(l, |b| b.get()));
    check_views::<List<Nat>>(10, |l| list_of(l, nat_of));
    check_views::<List<u8>>(9, |l| list_of(l, |b| b.get()));
    check_views::<Digits>(9, digits_of);
    check_views::<Small>(3, |s| {
        let SmallView { v, flag } = s.view();
        Small {
            v: v.get(),
            flag: flag.get(),
        }
    });
    check_views::<Either2<Unit, List<bool>>>(9, either_of);
    check_views::<Wrapper<Option<u8>>>(9, |w| {
        let WrapperView { inner } = w.view();
        Wrapper {
            inner: inner.view().map(|x| x.get()),
        }
    });
    check_views::<Vec<Exp>>(7, |xs| vec_of(xs, exp_of));
    check_views::<(Nat, Option<Tree2>)>(8, |p| {
        let (a, b) = p.view();
        (nat_of(a), b.view().map(tree2_of))
    });
}

#[test]
fn views_read_one_constructor() {
    // Viewing the root of an `Exp` reads one position: 4 classes (one per
    // constructor) at any bound large enough for them all.
    let c = search::classes(|e: Lazy<'_, Exp>| matches!(e.view(), ExpView::Add(..)), 7);
    assert_eq!(c.runs, 4);
    assert_eq!(c.satisfying, 1);
    // Reading a struct view records nothing: only `label` is read.
    let c = search::classes(|r: Lazy<'_, Rose>| r.view().label.get(), 12);
    assert_eq!(c.runs, 2);
    assert_eq!(c.satisfying, 1);
    // Reading the first kid's label: kids empty | label false | label true,
    // for each root label: the root label is read first.
    let c = search::classes(
        |r: Lazy<'_, Rose>| {
            let RoseView { label, kids } = r.view();
            label.get() && kids.first().is_some_and(|k| k.view().label.get())
        },
        12,
    );
    // label false (1) + label true: kids empty, first kid false, first kid true.
    assert_eq!(c.runs, 4);
    assert_eq!(c.satisfying, 1);
}

#[test]
fn forcing_inside_a_view_agrees_with_the_value() {
    // Force sub-terms at different depths and compare with Searcher::value.
    let mut s = Searcher::<Exp>::new(8);
    let mut runs = 0;
    let mut trues = 0;
    let captured: RefCell<Option<Exp>> = RefCell::new(None);
    while let Some(r) = s.step(|e: Lazy<'_, Exp>| match e.view() {
        ExpView::Add(a, _) => {
            let a = a.force();
            *captured.borrow_mut() = Some(a.clone());
            matches!(a, Exp::Lit(true))
        }
        _ => false,
    }) {
        runs += 1;
        if let Some(a) = captured.borrow_mut().take() {
            match s.value() {
                Exp::Add(x, _) => assert_eq!(*x, a),
                other => panic!("expected an Add, got {other:?}"),
            }
        }
        if r.is_true() {
            trues += 1;
        }
    }
    // Non-Add roots: 3 classes; Add: one class per left operand of size
    // <= 8 - 1 - 2 = 5 (the right operand is never read).
    let left: u64 = (0..=5).map(|n| values_of::<Exp>(n).len() as u64).sum();
    assert_eq!(runs, 3 + left);
    assert_eq!(trues, 1);
}

// ---------------------------------------------------------------------------
// Corner cases of the derive.
// ---------------------------------------------------------------------------

/// No constructor at all: an empty space.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
enum Void {}

/// Every value would be infinite: an empty space, not a hang.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
enum Endless {
    More(Box<Endless>),
}

/// An uninhabited constructor is dropped, the others stay.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
enum MaybeVoid {
    Nothing(Void),
    Something(bool),
    Forever(Box<Endless>),
}

/// A const generic parameter and a zero-size field.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
struct Bits<const N: usize> {
    unit: (),
    bits: [bool; N],
}

/// Overriding spaces of other shapes: a choice of values and a whole
/// canonical space kept as one position.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
struct Picks {
    #[enumerable(with = "neatcheck::space::one_of(vec![10u8, 20, 30])")]
    tens: u8,
    #[enumerable(with = "neatcheck::space::of::<Vec<bool>>()")]
    flags: Vec<bool>,
}

#[test]
fn empty_spaces() {
    for n in 0..8 {
        assert_eq!(count_of::<Void>(n), BigUint::from(0u32));
        assert_eq!(count_of::<Endless>(n), BigUint::from(0u32));
        assert!(values_of::<Void>(n).is_empty());
        assert!(values_of::<Endless>(n).is_empty());
        assert!(trees_of::<Endless>(n).is_empty());
    }
    assert_eq!(search::classes(|_: Lazy<'_, Void>| true, 10).runs, 0);
    assert_eq!(search::classes(|_: Lazy<'_, Endless>| true, 10).runs, 0);
    assert_eq!(
        values_of::<MaybeVoid>(2),
        vec![MaybeVoid::Something(false), MaybeVoid::Something(true)]
    );
    assert_eq!(count_up_to::<MaybeVoid>(20), BigUint::from(2u32));
    let c = search::classes(
        |m: Lazy<'_, MaybeVoid>| match m.view() {
            MaybeVoidView::Something(b) => b.get(),
            MaybeVoidView::Nothing(_) | MaybeVoidView::Forever(_) => panic!("impossible"),
        },
        20,
    );
    assert_eq!((c.runs, c.satisfying), (2, 1));
}

#[test]
fn const_generics_and_unit_fields() {
    assert_eq!(count_of::<Bits<3>>(4), BigUint::from(8u32));
    assert_eq!(count_up_to::<Bits<3>>(10), BigUint::from(8u32));
    assert_eq!(count_of::<Bits<0>>(1), BigUint::from(1u32));
    let c = search::classes(
        |b: Lazy<'_, Bits<3>>| {
            let BitsView { unit, bits } = b.view();
            let () = unit.force();
            let [x, y, _] = bits.view();
            x.get() && y.get()
        },
        4,
    );
    // x false: 1 class; x true: y false, y true.
    assert_eq!((c.runs, c.satisfying), (3, 1));
}

#[test]
fn other_overriding_spaces() {
    // tens: 3 values of size 1; flags: lists of booleans (size 2k + 1).
    assert_eq!(count_of::<Picks>(3), BigUint::from(3u32));
    assert_eq!(count_of::<Picks>(5), BigUint::from(6u32));
    let vs = values_of::<Picks>(5);
    assert_eq!(
        vs[0],
        Picks {
            tens: 10,
            flags: vec![false]
        }
    );
    for n in 0..=9 {
        for p in values_of::<Picks>(n) {
            assert!([10, 20, 30].contains(&p.tens), "{p:?}");
            assert_eq!(n, 2 + 1 + 2 * p.flags.len(), "{p:?}");
        }
    }
    check_views::<Picks>(9, |p| {
        let PicksView { tens, flags } = p.view();
        Picks {
            tens: tens.get(),
            flags: flags.force(),
        }
    });
    // An overriding space is one opaque position, read whole: one class
    // per list.
    let c = search::classes(|p: Lazy<'_, Picks>| p.view().flags.force().is_empty(), 9);
    assert_eq!((c.runs, c.satisfying), (1 + 2 + 4 + 8, 1));
}

// ---------------------------------------------------------------------------
// `with = expr` (no string), `with` fields as lazy handles, and
// `#[enumerable(transparent)]`.
// ---------------------------------------------------------------------------

use neatcheck::space;

/// The same as `Small`, with the space given as an expression.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
struct SmallExpr {
    #[enumerable(with = space::range(0, 3, |x| x as u8))]
    v: u8,
    flag: bool,
}

#[test]
fn with_takes_an_expression_like_the_string_form() {
    for n in 0..5 {
        assert_eq!(count_of::<SmallExpr>(n), count_of::<Small>(n), "size {n}");
        let a: Vec<(u8, bool)> = values_of::<SmallExpr>(n)
            .iter()
            .map(|s| (s.v, s.flag))
            .collect();
        let b: Vec<(u8, bool)> = values_of::<Small>(n)
            .iter()
            .map(|s| (s.v, s.flag))
            .collect();
        assert_eq!(a, b, "size {n}");
    }
    let c = search::classes(|s: Lazy<'_, SmallExpr>| s.view().v.get() == 2, 10);
    assert_eq!((c.runs, c.satisfying), (4, 1));
}

/// A `with` field whose space has another structure than its type's own:
/// `one_of` lists `Some(true)` first, where `Option`'s own space has `None`.
#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
enum Odd {
    A(#[enumerable(with = space::one_of(vec![Some(true), None]))] Option<bool>),
    B(#[enumerable(with = space::range(5, 9, |x| x as u8))] u8),
}

#[test]
fn with_fields_are_lazy_handles_whose_reads_are_right() {
    // Atoms read their own space's values, lazily: one class per value.
    let seen = RefCell::new(vec![]);
    let c = search::classes(
        |o: Lazy<'_, Odd>| match o.view() {
            OddView::A(_) => true,
            OddView::B(x) => {
                let v = x.get();
                assert!((5..=9).contains(&v), "{v}");
                v != 7
            }
        },
        4,
    );
    assert_eq!((c.runs, c.satisfying), (1 + 5, 5));
    // Forcing through the handle gives the field's own values.
    for o in search::search(
        |o: Lazy<'_, Odd>| match o.view() {
            OddView::A(x) => {
                seen.borrow_mut().push(x.force());
                true
            }
            OddView::B(_) => false,
        },
        4,
    ) {
        assert!(matches!(o, Odd::A(_)));
    }
    assert_eq!(seen.into_inner(), vec![Some(true), None]);
    // Viewing a position of another structure is refused, never misread
    // (a view trusting the position would read `Some(true)`'s tag as `None`).
    let mut s = Searcher::<Odd>::new(4);
    match s.step(|o: Lazy<'_, Odd>| match o.view() {
        OddView::A(x) => x.view().is_none(),
        OddView::B(_) => true,
    }) {
        Some(RunResult::Panicked(m)) => assert!(m.contains("can be forced but not viewed"), "{m}"),
        other => panic!("expected a clear panic, got {other:?}"),
    }
}

#[test]
fn complete_with_fields_print_as_values() {
    use neatcheck::check::Config;
    let failure = Config::default()
        .try_check(|o: Lazy<'_, Odd>| match o.view() {
            OddView::A(x) => x.force().is_some(),
            OddView::B(_) => true,
        })
        .unwrap_err();
    assert_eq!(failure.value, Odd::A(None));
    assert_eq!(failure.pattern, "A(None)");
}

/// Transparent wrappers: the same positions and sizes as their field.
#[derive(Enumerable, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[enumerable(transparent)]
struct Key(i64);

#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
#[enumerable(transparent)]
struct Named {
    items: Vec<bool>,
}

#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
#[enumerable(transparent)]
struct Boxed(Box<Nat>);

#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
#[enumerable(transparent)]
struct Wrap<T>(T);

#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
struct Keyed {
    key: Key,
    next: Option<Box<Keyed>>,
}

#[test]
fn transparent_structs_cost_what_their_field_costs() {
    for n in 0..6 {
        assert_eq!(count_of::<Key>(n), count_of::<i64>(n), "size {n}");
        assert_eq!(count_of::<Named>(n), count_of::<Vec<bool>>(n), "size {n}");
        assert_eq!(count_of::<Boxed>(n), count_of::<Nat>(n), "size {n}");
        assert_eq!(count_of::<Wrap<u8>>(n), count_of::<u8>(n), "size {n}");
        let keys: Vec<i64> = values_of::<Key>(n).into_iter().map(|k| k.0).collect();
        assert_eq!(keys, values_of::<i64>(n), "size {n}");
        let named: Vec<Vec<bool>> = values_of::<Named>(n).into_iter().map(|k| k.items).collect();
        assert_eq!(named, values_of::<Vec<bool>>(n), "size {n}");
    }
    // One-field structs without the attribute keep their constructor's cost.
    assert_eq!(count_of::<Wrapper<bool>>(1), 0u32.into());
    assert_eq!(count_of::<Wrapper<bool>>(2), 2u32.into());
}

#[test]
fn transparent_views_read_the_field_itself() {
    // The view reads nothing: run counts are those of the field's own type.
    let key = search::classes(|k: Lazy<'_, Key>| k.view().0.get() < 3, 5);
    let raw = search::classes(|k: Lazy<'_, i64>| k.get() < 3, 5);
    assert_eq!((key.runs, key.satisfying), (raw.runs, raw.satisfying));
    let named = search::classes(|v: Lazy<'_, Named>| v.view().items.len() == 2, 4);
    let raw = search::classes(|v: Lazy<'_, Vec<bool>>| v.len() == 2, 4);
    assert_eq!((named.runs, named.satisfying), (raw.runs, raw.satisfying));
    let boxed = search::classes(
        |b: Lazy<'_, Boxed>| matches!(b.view().0.view(), common::NatView::Z),
        4,
    );
    assert_eq!(boxed.runs, 2);
    // Typed force, at the root and inside a derived type.
    let all: Vec<Key> = search::search(|k: Lazy<'_, Key>| k.force().0.abs() == 1, 3).collect();
    assert_eq!(all, vec![Key(1), Key(-1)]);
    let c = search::classes(
        |k: Lazy<'_, Keyed>| {
            let v = k.force();
            let via_view = k.view().key.view().0.get();
            assert_eq!(v.key.0, via_view);
            v.key.0 == 0
        },
        5,
    );
    assert_eq!(c.runs, count_up_to::<Keyed>(5).try_into().unwrap());
    let w: Vec<Wrap<bool>> =
        search::search(|w: Lazy<'_, Wrap<bool>>| w.view().0.get(), 3).collect();
    assert_eq!(w, vec![Wrap(true)]);
}

/// A generic enum with `with` fields in a tuple and a named variant, unit
/// variants around them and a skipped variant with fields: every way the
/// derive spells a constructor (the space, the typed force, the view type
/// and the view).
#[derive(Enumerable, Debug, Clone, PartialEq, Eq, Hash)]
#[allow(dead_code)]
enum Mixed<T> {
    Stop,
    #[enumerable(skip)]
    Never(std::time::Duration, T),
    One(#[enumerable(with = space::range(1, 2, |x| x as u8))] u8, T),
    Many {
        // `true` alone: the first alternative of `bool`'s own space is
        // `false`, so a view reading this position on trust would say `false`.
        #[enumerable(with = space::one_of(vec![true]))]
        flag: bool,
        rest: Box<Mixed<T>>,
    },
    Halt,
}

fn mixed_of(m: Lazy<'_, Mixed<u8>>) -> Mixed<u8> {
    match m.view() {
        MixedView::Stop => Mixed::Stop,
        MixedView::Never(..) => unreachable!("a skipped variant was read"),
        MixedView::One(k, x) => Mixed::One(k.get(), x.get()),
        MixedView::Many { flag, rest } => Mixed::Many {
            flag: flag.get(),
            rest: Box::new(mixed_of(rest)),
        },
        MixedView::Halt => Mixed::Halt,
    }
}

#[test]
fn generic_enums_with_with_fields_unit_and_skipped_variants() {
    use Mixed::*;
    let many = |rest| Many {
        flag: true,
        rest: Box::new(rest),
    };
    assert_eq!(values_of::<Mixed<u8>>(0), vec![]);
    assert_eq!(values_of::<Mixed<u8>>(1), vec![Stop, Halt]);
    // `One` costs 1, its range field 1 and the `u8` 0 for 0.
    assert_eq!(values_of::<Mixed<u8>>(2), vec![One(1, 0), One(2, 0)]);
    assert_eq!(
        values_of::<Mixed<u8>>(3),
        vec![One(1, 1), One(2, 1), many(Stop), many(Halt)]
    );
    // The view, the typed force and the searched value agree on every
    // value (the named `with` field is read checked: `true`).
    check_views::<Mixed<u8>>(6, mixed_of);
    let deep = search::search(
        |m: Lazy<'_, Mixed<u8>>| match m.view() {
            MixedView::Many { flag, rest } => flag.get() && matches!(rest.force(), One(2, 3)),
            _ => false,
        },
        7,
    );
    assert_eq!(deep.collect::<Vec<_>>(), vec![many(One(2, 3))]);
}

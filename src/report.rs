//! Patterns: values in which the positions a run never read are holes, and
//! their printing (`Node(Leaf, _, Leaf)`, `[1, 2, ..]`), driven by the
//! constructor names the spaces carry.

use crate::arena::{build, id32, Node, NodeKind, Opened, Unfold};
use crate::describe::{LeafFamily, Shape};
use crate::grammar::{Grammar, ProdId, SortId, Tree};
use crate::types::{function_shape, function_text, DecisionTree, Step};
use std::fmt::Write;
use std::marker::PhantomData;
use std::rc::Rc;

/// A value with holes: the part of an input that a run actually read.
/// Every value that agrees with it on the non-hole positions is treated the
/// same by the predicate (it gives the same result).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// A position that was not read: any value fits.
    Hole,
    /// An alternative (by internal id) and its fields.
    Node(ProdId, Vec<Pattern>),
    /// A leaf value: its sort and global index.
    Leaf(SortId, u64),
}

impl Drop for Pattern {
    fn drop(&mut self) {
        // Iterative: deep patterns must not overflow the stack when dropped.
        let Pattern::Node(_, kids) = self else { return };
        let mut stack: Vec<Pattern> = std::mem::take(kids);
        while let Some(mut p) = stack.pop() {
            if let Pattern::Node(_, kids) = &mut p {
                stack.append(kids);
            }
        }
    }
}

impl Pattern {
    pub(crate) fn from_arena(g: &Grammar, nodes: &[Node], read: &[bool]) -> Pattern {
        build(&mut ArenaPattern { g, nodes, read }, 0)
    }

    /// Whether a complete value (tree) fits the pattern.
    pub fn matches(&self, tree: &Tree) -> bool {
        let mut stack: Vec<(&Pattern, &Tree)> = vec![(self, tree)];
        while let Some((p, t)) = stack.pop() {
            match (p, t) {
                (Pattern::Hole, _) => {}
                (Pattern::Leaf(s, i), Tree::Leaf(s2, i2)) => {
                    if s != s2 || i != i2 {
                        return false;
                    }
                }
                (Pattern::Node(a, ps), Tree::Node(b, ts)) => {
                    if a != b || ps.len() != ts.len() {
                        return false;
                    }
                    stack.extend(ps.iter().zip(ts.iter().map(|t| &**t)));
                }
                _ => return false,
            }
        }
        true
    }

    /// Number of holes.
    pub fn holes(&self) -> usize {
        let mut n = 0;
        let mut stack = vec![self];
        while let Some(p) = stack.pop() {
            match p {
                Pattern::Hole => n += 1,
                Pattern::Node(_, ks) => stack.extend(ks),
                Pattern::Leaf(..) => {}
            }
        }
        n
    }
}

/// An arena (from a node down) with the nodes a run read becomes a
/// pattern: unread positions (and everything below them) become holes.
struct ArenaPattern<'a> {
    g: &'a Grammar,
    nodes: &'a [Node],
    read: &'a [bool],
}

impl Unfold for ArenaPattern<'_> {
    type Pos = u32;
    type Label = ProdId;
    type Out = Pattern;

    fn open(&mut self, i: u32, fields: &mut Vec<u32>) -> Option<Opened<ProdId, Pattern>> {
        let g = self.g;
        let n = &self.nodes[i as usize];
        let p = &g.prods[n.prod().index()];
        // Single-alternative positions carry no information of their own:
        // they are never holes.
        let single = !p.leaf && g.is_last(n.prod(), 0) && p.next.is_none() && is_single(g, p.sort);
        if !self.read[i as usize] && !single {
            return Some(Opened::Done(Pattern::Hole));
        }
        Some(match n.kind(p.leaf) {
            NodeKind::Leaf { index } => Opened::Done(Pattern::Leaf(p.sort, index)),
            NodeKind::Alternative { first, .. } => {
                fields.extend(first..first + id32(p.slots.len()));
                Opened::Node(n.prod())
            }
        })
    }

    fn close(&mut self, prod: ProdId, fields: std::vec::Drain<'_, Pattern>) -> Pattern {
        Pattern::Node(prod, fields.collect())
    }
}

fn is_single(g: &Grammar, sort: SortId) -> bool {
    match &g.sorts[sort.index()].kind {
        crate::grammar::SortKind::Algebraic { chain, .. } => chain.len() == 1,
        _ => false,
    }
}

/// Prints a pattern with constructor names (`_` for holes).
pub(crate) fn show_pattern(g: &Grammar, p: &Pattern) -> String {
    let mut out = String::new();
    write_pattern(g, p, &mut out);
    out
}

/// What is left to print: the printer keeps its own stack, so a value of
/// any depth prints without recursion (counterexamples can be tens of
/// thousands of constructors deep).
enum Piece<'a> {
    Pattern(&'a Pattern),
    Text(&'a str),
    /// A field name and its colon.
    Name(&'a str),
}

fn write_pattern(g: &Grammar, p: &Pattern, out: &mut String) {
    let mut stack = vec![Piece::Pattern(p)];
    while let Some(piece) = stack.pop() {
        match piece {
            Piece::Text(t) => out.push_str(t),
            Piece::Name(n) => {
                out.push_str(n);
                out.push_str(": ");
            }
            Piece::Pattern(p) => write_one(g, p, out, &mut stack),
        }
    }
}

/// Prints the head of `p` and pushes what follows it (in reverse order).
fn write_one<'a>(g: &'a Grammar, p: &'a Pattern, out: &mut String, stack: &mut Vec<Piece<'a>>) {
    match p {
        Pattern::Hole => out.push('_'),
        Pattern::Leaf(sort, idx) => out.push_str(&leaf_text(g, *sort, *idx)),
        Pattern::Node(prod, kids) if g.prods[prod.index()].atom.is_some() => {
            out.push_str(&atom_text(g, *prod, kids))
        }
        Pattern::Node(prod, kids) if g.prods[prod.index()].function.is_some() => {
            out.push_str(&function_pattern_text(g, *prod, kids))
        }
        Pattern::Node(prod, kids) => {
            let pr = &g.prods[prod.index()];
            match pr.shape.as_deref() {
                Some(Shape::Nil) => out.push_str("[]"),
                Some(Shape::Cons) => write_list(g, p, out, stack),
                Some(Shape::Tuple) => {
                    out.push('(');
                    stack.push(Piece::Text(if kids.len() == 1 { ",)" } else { ")" }));
                    push_separated(kids, None, stack);
                }
                Some(Shape::Ctor { name, fields }) => {
                    out.push_str(name);
                    push_fields(kids, fields.as_deref(), stack);
                }
                Some(Shape::Plain) | None => match complete_value_text(g, p) {
                    // A complete value of a type that registered its `Debug`
                    // text (a custom space's field, a hand-written union)
                    // reads better as itself than as alternative numbers.
                    Some(text) => out.push_str(&text),
                    None => {
                        let _ = write!(out, "#{}", pr.tag);
                        push_fields(kids, None, stack);
                    }
                },
            }
        }
    }
}

/// The `Debug` text of the value at an unnamed alternative when the pattern
/// below it has no hole and its type registered a printer
/// ([`crate::space::show_with_debug`]). Values larger than a fixed number of
/// nodes are not built (their alternatives print as `#index`), so printing a
/// deep value stays linear.
fn complete_value_text(g: &Grammar, p: &Pattern) -> Option<String> {
    // Small enough that the user's `Debug` never recurses deeper than
    // `Counterexample::DEBUG_DEPTH` allows.
    const LIMIT: usize = 200;
    let mut stack = vec![p];
    let mut seen = 0;
    while let Some(q) = stack.pop() {
        seen += 1;
        if seen > LIMIT {
            return None;
        }
        match q {
            Pattern::Hole => return None,
            Pattern::Node(_, kids) => stack.extend(kids),
            Pattern::Leaf(..) => {}
        }
    }
    let tree = tree_of_complete(p);
    // A hand-written description that builds values inconsistently raises an
    // internal error here too; the report then falls back to alternative
    // numbers and the error is reported where the run made it.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let value = g.build_value(&tree);
        crate::describe::debug_text(&*value)
    }))
    .ok()
    .flatten()
}

/// The tree of a pattern without holes (iterative).
fn tree_of_complete(p: &Pattern) -> Tree {
    let tree = build(&mut CompleteTree(PhantomData), p);
    Rc::try_unwrap(tree).unwrap_or_else(|rc| (*rc).clone())
}

/// A pattern without holes becomes its tree.
struct CompleteTree<'p>(PhantomData<&'p Pattern>);

impl<'p> Unfold for CompleteTree<'p> {
    type Pos = &'p Pattern;
    type Label = ProdId;
    type Out = Rc<Tree>;

    fn open(
        &mut self,
        p: &'p Pattern,
        fields: &mut Vec<&'p Pattern>,
    ) -> Option<Opened<ProdId, Rc<Tree>>> {
        Some(match p {
            Pattern::Leaf(s, i) => Opened::Done(Rc::new(Tree::Leaf(*s, *i))),
            Pattern::Node(prod, kids) => {
                fields.extend(kids);
                Opened::Node(*prod)
            }
            Pattern::Hole => unreachable!("a complete pattern"),
        })
    }

    fn close(&mut self, prod: ProdId, fields: std::vec::Drain<'_, Rc<Tree>>) -> Rc<Tree> {
        Rc::new(Tree::Node(prod, fields.collect()))
    }
}

/// Pushes `items` separated by commas (each after its field name, if
/// any), to be printed in order.
fn push_separated<'a>(
    items: &'a [Pattern],
    names: Option<&'a [std::borrow::Cow<'static, str>]>,
    stack: &mut Vec<Piece<'a>>,
) {
    for (i, k) in items.iter().enumerate().rev() {
        stack.push(Piece::Pattern(k));
        if let Some(names) = names {
            stack.push(Piece::Name(names.get(i).map(|n| &**n).unwrap_or("?")));
        }
        if i > 0 {
            stack.push(Piece::Text(", "));
        }
    }
}

fn push_fields<'a>(
    kids: &'a [Pattern],
    names: Option<&'a [std::borrow::Cow<'static, str>]>,
    stack: &mut Vec<Piece<'a>>,
) {
    if kids.is_empty() {
        return;
    }
    match names {
        Some(names) => {
            stack.push(Piece::Text(" }"));
            push_separated(kids, Some(names), stack);
            stack.push(Piece::Text(" { "));
        }
        None => {
            stack.push(Piece::Text(")"));
            push_separated(kids, None, stack);
            stack.push(Piece::Text("("));
        }
    }
}

fn write_list<'a>(g: &'a Grammar, p: &'a Pattern, out: &mut String, stack: &mut Vec<Piece<'a>>) {
    // Walk the spine iteratively.
    let mut elems: Vec<&Pattern> = vec![];
    let mut cur = p;
    let open_tail;
    loop {
        match cur {
            Pattern::Node(prod, kids)
                if g.prods[prod.index()].shape.as_deref() == Some(&Shape::Cons) =>
            {
                elems.push(&kids[0]);
                cur = &kids[1];
            }
            Pattern::Node(..) => {
                open_tail = false;
                break;
            }
            _ => {
                open_tail = true;
                break;
            }
        }
    }
    let chars: Option<String> = (!open_tail && !elems.is_empty())
        .then(|| {
            elems
                .iter()
                .map(|e| {
                    let value = match e {
                        Pattern::Leaf(s, i) if g.leaf_family(*s).name() == "char" => {
                            Some(g.leaf_value(*s, *i))
                        }
                        _ => atom_value(g, e),
                    }?;
                    value.downcast_ref::<char>().copied()
                })
                .collect()
        })
        .flatten();
    if let Some(s) = chars {
        let _ = write!(out, "{s:?}");
        return;
    }
    out.push('[');
    stack.push(Piece::Text("]"));
    if open_tail {
        stack.push(Piece::Text(".."));
        if !elems.is_empty() {
            stack.push(Piece::Text(", "));
        }
    }
    for (i, e) in elems.iter().enumerate().rev() {
        stack.push(Piece::Pattern(e));
        if i > 0 {
            stack.push(Piece::Text(", "));
        }
    }
}

/// Nesting depth of a value tree, iteratively: constructors inside
/// constructors, not counting the spine of `Vec`-like lists (printed flat
/// by `Debug` too). What decides whether a report may print a value with
/// the user's (recursive) `Debug`.
pub(crate) fn nesting_depth(g: &Grammar, t: &Tree) -> usize {
    let mut deepest = 0;
    let mut stack: Vec<(&Tree, usize)> = vec![(t, 1)];
    while let Some((t, d)) = stack.pop() {
        deepest = deepest.max(d);
        if let Tree::Node(p, kids) = t {
            let cons = g.prods[p.index()].shape.as_deref() == Some(&Shape::Cons);
            for (i, k) in kids.iter().enumerate() {
                let spine = cons && i == 1;
                stack.push((k, if spine { d } else { d + 1 }));
            }
        }
    }
    deepest
}

/// Prints a complete value tree with constructor names.
pub(crate) fn show_tree(g: &Grammar, t: &Tree) -> String {
    show_pattern(g, &pattern_of_tree(t))
}

/// The value of a lazy atom's pattern whose bits were all read.
fn atom_value(g: &Grammar, p: &Pattern) -> Option<crate::describe::Value> {
    let Pattern::Node(prod, kids) = p else {
        return None;
    };
    let block = g.prods[prod.index()].atom?;
    let bits = atom_bits(g, kids);
    (bits.iter().all(Option::is_some)).then(|| {
        let n = bits
            .iter()
            .fold(0u64, |acc, b| acc << 1 | u64::from(b == &Some(true)));
        let family = g
            .atom_family(g.prods[prod.index()].sort)
            .expect("an atom's family");
        family.make(block.key(n))
    })
}

/// A lazy atom's bits as a pattern has them: read (0 or 1) or not.
fn atom_bits(g: &Grammar, kids: &[Pattern]) -> Vec<Option<bool>> {
    kids.iter()
        .map(|k| match k {
            Pattern::Node(bit, _) => Some(g.prods[bit.index()].tag == 1),
            _ => None,
        })
        .collect()
}

/// The printed form of a lazy atom: its value when every bit was read, the
/// range of its values when the bits read are the most significant ones
/// (`64..=127`), else its block's base plus the bits read (`_` for the
/// others).
fn atom_text(g: &Grammar, prod: ProdId, kids: &[Pattern]) -> String {
    let family = g
        .atom_family(g.prods[prod.index()].sort)
        .expect("an atom's family");
    let block = g.prods[prod.index()].atom.expect("an atom's block");
    let bits = atom_bits(g, kids);
    let known = bits.iter().take_while(|b| b.is_some()).count();
    let show = |key: i128| family.debug_value(&*family.make(key));
    if known == bits.len() || bits[known..].iter().all(Option::is_none) {
        let prefix = bits[..known]
            .iter()
            .fold(0u64, |acc, b| acc << 1 | u64::from(b == &Some(true)));
        let (lo, hi) = block.key_range(prefix, known as u32);
        return if lo == hi {
            show(lo)
        } else {
            format!("{}..={}", show(lo), show(hi))
        };
    }
    let digits: String = bits
        .iter()
        .map(|b| match b {
            Some(true) => '1',
            Some(false) => '0',
            None => '_',
        })
        .collect();
    let sign = if block.negative { "-" } else { "" };
    format!("{sign}({} + 0b{digits})", block.base)
}

/// The printed form of a leaf, from its index (not its value): hash maps
/// and sets print in enumeration order, the same in every run.
fn leaf_text(g: &Grammar, sort: SortId, idx: u64) -> String {
    let (size, offset) = g.leaf_position(sort, idx);
    g.leaf_family(sort)
        .debug_at(size, &num_bigint::BigUint::from(offset))
}

/// The pattern (without holes) of a complete value tree.
pub(crate) fn pattern_of_tree(t: &Tree) -> Pattern {
    build(&mut TreePattern(PhantomData), t)
}

/// A complete value tree becomes a pattern without holes.
struct TreePattern<'t>(PhantomData<&'t Tree>);

impl<'t> Unfold for TreePattern<'t> {
    type Pos = &'t Tree;
    type Label = ProdId;
    type Out = Pattern;

    fn open(&mut self, t: &'t Tree, fields: &mut Vec<&'t Tree>) -> Option<Opened<ProdId, Pattern>> {
        Some(match t {
            Tree::Leaf(s, i) => Opened::Done(Pattern::Leaf(*s, *i)),
            Tree::Node(p, kids) => {
                fields.extend(kids.iter().map(|k| &**k));
                Opened::Node(*p)
            }
        })
    }

    fn close(&mut self, prod: ProdId, fields: std::vec::Drain<'_, Pattern>) -> Pattern {
        Pattern::Node(prod, fields.collect())
    }
}

/// The longest `Debug` text a report prints of a value (in characters):
/// a value whose `Debug` writes megabytes must not bury the rest of the
/// report (its constructor form and replay key say the same exactly).
pub(crate) const DEBUG_MAX: usize = 4_000;

/// A value's `Debug` text for a report: a panic of that `Debug` becomes a
/// note instead of ending the report, and the text stops at
/// [`DEBUG_MAX`] characters (the formatting itself is stopped there, so a
/// `Debug` that would write gigabytes costs no more).
pub(crate) fn debug_for_report(value: &dyn std::fmt::Debug) -> String {
    let quiet = crate::internal::quiet::Quiet::new();
    let mut out = Bounded {
        text: String::new(),
        left: DEBUG_MAX,
        cut: false,
    };
    let written = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // An error here is the bound reached (or the `Debug`'s own error):
        // what was written so far is kept either way.
        let _ = write!(out, "{value:?}");
    }));
    drop(quiet);
    match written {
        Ok(()) if out.cut => format!("{}... (cut at {DEBUG_MAX} characters)", out.text),
        Ok(()) => out.text,
        Err(p) => format!(
            "<its `Debug` panicked: {}>",
            crate::internal::panic_message(&*p)
        ),
    }
}

/// A text sink that refuses more than `left` further characters.
struct Bounded {
    text: String,
    left: usize,
    cut: bool,
}

impl Write for Bounded {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        for c in s.chars() {
            if self.left == 0 {
                self.cut = true;
                return Err(std::fmt::Error);
            }
            self.text.push(c);
            self.left -= 1;
        }
        Ok(())
    }
}

/// `text` cut to `max` characters, saying how much was left out.
pub(crate) fn cut(mut text: String, max: usize) -> String {
    if let Some((at, _)) = text.char_indices().nth(max) {
        let left = text[at..].chars().count();
        text.truncate(at);
        let _ = write!(text, "... ({left} more characters)");
    }
    text
}

/// A function's decisions as a pattern has them (unread ones are holes).
struct PatternDecisions<'g> {
    g: &'g Grammar,
}

impl<'p> DecisionTree<'p> for PatternDecisions<'_> {
    type Node = &'p Pattern;
    fn step(&self, node: &'p Pattern, atom: bool) -> Step<&'p Pattern> {
        let Pattern::Node(prod, kids) = node else {
            return Step::Hole;
        };
        if self.g.prods[prod.index()].tag == 0 {
            Step::Skip(&kids[0])
        } else if atom {
            Step::Split {
                key: self.key(&kids[0]),
                low: &kids[1],
                high: &kids[2],
            }
        } else {
            Step::Branches(kids.iter().collect())
        }
    }
    fn result(&self, node: &'p Pattern) -> String {
        show_pattern(self.g, node)
    }
}

impl PatternDecisions<'_> {
    /// A split key: the bits the run did not read count as 0 (the value
    /// the counterexample holds there).
    fn key(&self, p: &Pattern) -> i128 {
        let Pattern::Node(prod, kids) = p else {
            return 0;
        };
        let Some(block) = self.g.prods[prod.index()].atom else {
            return 0;
        };
        let bits = atom_bits(self.g, kids)
            .iter()
            .fold(0u64, |acc, b| acc << 1 | u64::from(b == &Some(true)));
        block.key(bits)
    }
}

/// A function printed as a `match` over its argument.
fn function_pattern_text(g: &Grammar, prod: ProdId, kids: &[Pattern]) -> String {
    let shape = function_shape(&g.prods[prod.index()]).expect("a function's root");
    match kids.first() {
        Some(root) => function_text(&shape, &PatternDecisions { g }, root),
        None => "_".to_string(),
    }
}

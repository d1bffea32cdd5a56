//! Patterns: values in which the positions a run never read are holes, and
//! their printing (`Node(Leaf, _, Leaf)`, `[1, 2, ..]`), driven by the
//! constructor names the spaces carry.

use crate::grammar::{Grammar, Tree};
use crate::lazy::Node;
use crate::space::Shape;
use std::fmt::Write;
use std::rc::Rc;

/// A value with holes: the part of an input that a run actually read.
/// Every value that agrees with it on the non-hole positions is treated the
/// same by the predicate (it gives the same result).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// A position that was not read: any value fits.
    Hole,
    /// An alternative (by internal id) and its fields.
    Node(u32, Vec<Pattern>),
    /// A leaf value: its sort and global index.
    Leaf(u32, u64),
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
        enum Task {
            Visit(u32),
            Finish(u32, usize),
        }
        let mut tasks = vec![Task::Visit(0)];
        let mut out: Vec<Pattern> = vec![];
        while let Some(t) = tasks.pop() {
            match t {
                Task::Visit(i) => {
                    let n = &nodes[i as usize];
                    let p = &g.prods[n.prod as usize];
                    // Single-alternative positions carry no information of
                    // their own: they are never holes.
                    let single = !p.leaf
                        && g.statically_locked(n.prod, 0)
                        && p.next == crate::grammar::NONE
                        && is_single(g, p.sort);
                    if !read[i as usize] && !single {
                        out.push(Pattern::Hole);
                    } else if p.leaf {
                        out.push(Pattern::Leaf(p.sort, n.leaf_index()));
                    } else {
                        let k = p.slots.len();
                        tasks.push(Task::Finish(n.prod, k));
                        for j in (0..k as u32).rev() {
                            tasks.push(Task::Visit(n.a + j));
                        }
                    }
                }
                Task::Finish(p, k) => {
                    let kids = out.split_off(out.len() - k);
                    out.push(Pattern::Node(p, kids));
                }
            }
        }
        out.pop().unwrap()
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

fn is_single(g: &Grammar, sort: u32) -> bool {
    match &g.sorts[sort as usize].kind {
        crate::grammar::SortKind::Algebraic { chain, .. } => chain.len() == 1,
        _ => false,
    }
}

/// Prints a pattern with constructor names (`_` for holes).
pub(crate) fn show_pattern(g: &Grammar, p: &Pattern) -> String {
    let mut out = String::new();
    write_pattern(g, p, &mut out, 0);
    out
}

fn write_pattern(g: &Grammar, p: &Pattern, out: &mut String, depth: usize) {
    if depth > 2000 {
        out.push('…');
        return;
    }
    match p {
        Pattern::Hole => out.push('_'),
        Pattern::Leaf(sort, idx) => {
            let v = g.leaf_value(*sort, *idx);
            out.push_str(&g.leaf_family(*sort).debug_value(&*v));
        }
        Pattern::Node(prod, kids) => {
            let pr = &g.prods[*prod as usize];
            match pr.shape.as_deref() {
                Some(Shape::Nil) => out.push_str("[]"),
                Some(Shape::Cons) => write_list(g, p, out, depth),
                Some(Shape::Tuple) => {
                    out.push('(');
                    for (i, k) in kids.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        write_pattern(g, k, out, depth + 1);
                    }
                    if kids.len() == 1 {
                        out.push(',');
                    }
                    out.push(')');
                }
                Some(Shape::Ctor { name, fields }) => {
                    out.push_str(name);
                    write_fields(g, kids, fields.as_deref(), out, depth);
                }
                Some(Shape::Plain) | None => match complete_value_text(g, p) {
                    // A complete value of a type that registered its `Debug`
                    // text (a custom space's field, a hand-written union)
                    // reads better as itself than as alternative numbers.
                    Some(text) => out.push_str(&text),
                    None => {
                        let _ = write!(out, "#{}", pr.tag);
                        write_fields(g, kids, None, out, depth);
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
    const LIMIT: usize = 4096;
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
    let value = g.build_value(&tree);
    crate::space::debug_text(&*value)
}

/// The tree of a pattern without holes (iterative).
fn tree_of_complete(p: &Pattern) -> Tree {
    enum Task<'p> {
        Visit(&'p Pattern),
        Finish(u32, usize),
    }
    let mut tasks = vec![Task::Visit(p)];
    let mut out: Vec<Rc<Tree>> = vec![];
    while let Some(task) = tasks.pop() {
        match task {
            Task::Visit(Pattern::Leaf(s, i)) => out.push(Rc::new(Tree::Leaf(*s, *i))),
            Task::Visit(Pattern::Node(prod, kids)) => {
                tasks.push(Task::Finish(*prod, kids.len()));
                tasks.extend(kids.iter().rev().map(Task::Visit));
            }
            Task::Visit(Pattern::Hole) => unreachable!("a complete pattern"),
            Task::Finish(prod, n) => {
                let kids = out.split_off(out.len() - n);
                out.push(Rc::new(Tree::Node(prod, kids)));
            }
        }
    }
    Rc::try_unwrap(out.pop().expect("one tree")).unwrap_or_else(|rc| (*rc).clone())
}

fn write_fields(
    g: &Grammar,
    kids: &[Pattern],
    names: Option<&[std::borrow::Cow<'static, str>]>,
    out: &mut String,
    depth: usize,
) {
    if kids.is_empty() {
        return;
    }
    match names {
        Some(names) => {
            out.push_str(" { ");
            for (i, k) in kids.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let _ = write!(out, "{}: ", names.get(i).map(|n| &**n).unwrap_or("?"));
                write_pattern(g, k, out, depth + 1);
            }
            out.push_str(" }");
        }
        None => {
            out.push('(');
            for (i, k) in kids.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_pattern(g, k, out, depth + 1);
            }
            out.push(')');
        }
    }
}

fn write_list(g: &Grammar, p: &Pattern, out: &mut String, depth: usize) {
    // Walk the spine iteratively.
    let mut elems: Vec<&Pattern> = vec![];
    let mut cur = p;
    let open_tail;
    loop {
        match cur {
            Pattern::Node(prod, kids)
                if g.prods[*prod as usize].shape.as_deref() == Some(&Shape::Cons) =>
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
    let all_chars = !open_tail
        && !elems.is_empty()
        && elems.iter().all(|e| match e {
            Pattern::Leaf(s, _) => g.leaf_family(*s).name() == "char",
            _ => false,
        });
    if all_chars {
        let mut s = String::new();
        for e in &elems {
            if let Pattern::Leaf(sort, idx) = e {
                let v = g.leaf_value(*sort, *idx);
                if let Some(c) = v.downcast_ref::<char>() {
                    s.push(*c);
                }
            }
        }
        let _ = write!(out, "{s:?}");
        return;
    }
    out.push('[');
    for (i, e) in elems.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_pattern(g, e, out, depth + 1);
    }
    if open_tail {
        if !elems.is_empty() {
            out.push_str(", ");
        }
        out.push_str("..");
    }
    out.push(']');
}

/// Prints a complete value tree with constructor names.
pub(crate) fn show_tree(g: &Grammar, t: &Tree) -> String {
    show_pattern(g, &pattern_of_tree(t))
}

pub(crate) fn pattern_of_tree(t: &Tree) -> Pattern {
    enum Task<'t> {
        Visit(&'t Tree),
        Finish(u32, usize),
    }
    let mut tasks = vec![Task::Visit(t)];
    let mut out = vec![];
    while let Some(task) = tasks.pop() {
        match task {
            Task::Visit(Tree::Leaf(s, i)) => out.push(Pattern::Leaf(*s, *i)),
            Task::Visit(Tree::Node(p, kids)) => {
                tasks.push(Task::Finish(*p, kids.len()));
                for k in kids.iter().rev() {
                    tasks.push(Task::Visit(k));
                }
            }
            Task::Finish(p, n) => {
                let kids = out.split_off(out.len() - n);
                out.push(Pattern::Node(p, kids));
            }
        }
    }
    out.pop().unwrap()
}

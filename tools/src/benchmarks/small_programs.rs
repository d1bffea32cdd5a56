//! Programs after Lazy SmallCheck's example suite (ordered-list sets, a
//! Huffman codec, a cryptarithm solver, Hutton's countdown problem), each
//! with an injected bug, for
//! the time to the first counterexample (`first_ctrex`). They are written
//! against the public API as a user would, read their input lazily where
//! the original's evaluation is lazy, and their bugs need a long input of
//! small parts (a set of four or five keys, four distinct symbols) or a
//! short one, so that both search orders are exercised. Owns the programs
//! and their properties; the problems are Lazy SmallCheck's, the code and
//! the bugs are this crate's.

use neatcheck::{Enumerable, Lazy};

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

/// `is_set s ==> is_set (insert c s)` with the shallow insertion.
pub fn listset_shallow(input: Lazy<'_, (char, Vec<char>)>) -> bool {
    let (c, s) = input.view();
    !is_set_lazy(s) || is_set(&insert_shallow(c.get(), &s.force()))
}

/// `is_set s ==> is_set (insert c s)` with the fast path from four keys.
pub fn listset_fast_path(input: Lazy<'_, (char, Vec<char>)>) -> bool {
    let (c, s) = input.view();
    !is_set_lazy(s) || is_set(&insert_small_set_fast_path(c.get(), &s.force()))
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
    let (xs, ys) = (xs.as_list().len(), ys.as_list().len());
    let zs_len = zs.as_list().len();
    if xs != ys || !(zs_len == xs || zs_len == xs + 1) {
        return true;
    }
    let (x, y, z) = input.force();
    let reversed = |w: &str| w.chars().rev().collect::<Vec<char>>();
    let (x, y, z) = (reversed(&x), reversed(&y), reversed(&z));
    let found = solutions(&x, &y, &z, 0, &Vec::new());
    let word = |w: &[char]| w.iter().rev().copied().collect::<Vec<char>>();
    found
        .iter()
        .all(|s| value_of(s, &word(&x)) + value_of(s, &word(&y)) == value_of(s, &word(&z)))
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

#[cfg(test)]
mod tests {
    use super::*;

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
        // 5 + 6 = 11: the carry out of the last column is dropped.
        let found = solutions(&['a'], &['b'], &['c'], 0, &Vec::new());
        assert!(!solvable(&[3, 3], 9, apply_pruned) && solvable(&[3, 3], 9, apply_any));
        assert!(solvable(&[2, 3, 4], 20, apply_pruned));
        assert!(found
            .iter()
            .any(|s| value_of(s, &['a']) + value_of(s, &['b']) != value_of(s, &['c'])));
    }
}

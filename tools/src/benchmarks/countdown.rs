//! Hutton's countdown problem as the original NEAT's users write it: the
//! property of `small_programs::countdown_complete`, but over natural
//! numbers with a hand-written space (`size-based`'s naturals, by bit
//! length) read through `force()`, and evaluated on demand the way GHC
//! evaluates the Haskell program: a number is read when a solver first
//! needs it, the solvers stop at their first solution, and the subsets and
//! orderings are tried in `Data.List`'s order. The equivalence classes, and
//! so the runs at every bound, are then the original's (checked against
//! lazy-search's counts in the tests), which makes the two comparable run
//! for run (`versus_lazy_search`). Owns the program and its two readers.

use neatcheck::space::{self, Space};
use neatcheck::{Enumerable, Lazy};
use std::cell::{Cell, OnceCell};

/// A natural number with a hand-written space: `size-based`'s naturals (0
/// has size 0, size `k + 1` holds `2^k ..= 2^(k+1) - 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nat(pub u64);

impl Enumerable for Nat {
    fn describe() -> Space<Self> {
        space::nat_bits(63, Nat)
    }
}

/// Which solver the property checks against brute force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pruning {
    /// Excludes the product of two equal numbers (`x < y` where `x <= y`
    /// was meant): the property fails, first on `([3, 3], 9)`, size 11.
    Buggy,
    /// The correct pruning: the property holds.
    Sound,
}

#[derive(Clone, Copy)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
}

const OPS: [Op; 4] = [Op::Add, Op::Sub, Op::Mul, Op::Div];

fn apply_any(op: Op, x: u64, y: u64) -> Option<u64> {
    match op {
        Op::Add => x.checked_add(y),
        Op::Sub => (x > y).then(|| x - y),
        Op::Mul => x.checked_mul(y),
        Op::Div => (y != 0 && x % y == 0).then(|| x / y),
    }
}

fn apply_pruned(pruning: Pruning, op: Op, x: u64, y: u64) -> Option<u64> {
    let allowed = match op {
        Op::Add => x <= y,
        Op::Sub => x > y,
        Op::Mul => {
            x != 1
                && y != 1
                && if pruning == Pruning::Buggy {
                    x < y
                } else {
                    x <= y
                }
        }
        Op::Div => y != 1 && y != 0 && x % y == 0,
    };
    if allowed {
        apply_any(op, x, y)
    } else {
        None
    }
}

/// `Data.List.subsequences` of `0..n`, in its order: `[]`, `[0]`, `[1]`,
/// `[0, 1]`, `[2]`, ...
fn subsequences(n: usize) -> Vec<Vec<usize>> {
    let mut out = vec![vec![]];
    for x in 0..n {
        let with_x: Vec<Vec<usize>> = out
            .iter()
            .map(|s| {
                let mut s = s.clone();
                s.push(x);
                s
            })
            .collect();
        out.extend(with_x);
    }
    out
}

/// `Data.List.permutations`, in its order (the order decides which number
/// a solver reads first, and so the equivalence classes).
fn permutations(xs: &[usize]) -> Vec<Vec<usize>> {
    let mut out = vec![xs.to_vec()];
    out.extend(permutations_rest(xs, &[]));
    out
}

// `perms (t:ts) is = foldr interleave (perms ts (t:is)) (permutations is)`.
fn permutations_rest(tts: &[usize], is: &[usize]) -> Vec<Vec<usize>> {
    let Some((&t, ts)) = tts.split_first() else {
        return vec![];
    };
    let t_is: Vec<usize> = std::iter::once(t).chain(is.iter().copied()).collect();
    let mut acc = permutations_rest(ts, &t_is);
    for xs in permutations(is).into_iter().rev() {
        acc = interleave(t, ts, &[], &xs, acc).1;
    }
    acc
}

// `interleave' f (y:ys) r`, with `f` the prefix it prepends.
fn interleave(
    t: usize,
    ts: &[usize],
    prefix: &[usize],
    ys: &[usize],
    rest: Vec<Vec<usize>>,
) -> (Vec<usize>, Vec<Vec<usize>>) {
    let Some((&y, ys)) = ys.split_first() else {
        return (ts.to_vec(), rest);
    };
    let longer: Vec<usize> = prefix.iter().copied().chain([y]).collect();
    let (us, zs) = interleave(t, ts, &longer, ys, rest);
    let y_us: Vec<usize> = std::iter::once(y).chain(us).collect();
    let first = prefix
        .iter()
        .copied()
        .chain([t])
        .chain(y_us.iter().copied());
    let mut out = vec![first.collect()];
    out.extend(zs);
    (y_us, out)
}

/// Every ordering of every subset of `0..n`, for `n <= 4`, in the order
/// `concatMap permutations (subsequences ns)` tries them.
fn orderings(n: usize) -> &'static [Vec<usize>] {
    thread_local! {
        static ORDERINGS: Vec<&'static [Vec<usize>]> = (0..=4)
            .map(|n| {
                let all: Vec<Vec<usize>> =
                    subsequences(n).iter().flat_map(|s| permutations(s)).collect();
                &*Vec::leak(all)
            })
            .collect();
    }
    ORDERINGS.with(|o| o[n])
}

/// Offers the values of the expressions over the numbers `bag` names, in
/// the Haskell program's order, to `found` until it says stop (true), and
/// reads a number only when the order reaches it.
fn results(
    bag: &[usize],
    number: &dyn Fn(usize) -> u64,
    apply: &dyn Fn(Op, u64, u64) -> Option<u64>,
    found: &mut dyn FnMut(u64) -> bool,
) -> bool {
    match bag {
        [] => false,
        [n] => {
            let n = number(*n);
            n > 0 && found(n)
        }
        _ => (1..bag.len()).any(|cut| {
            results(&bag[..cut], number, apply, &mut |x| {
                results(&bag[cut..], number, apply, &mut |y| {
                    OPS.iter()
                        .filter_map(|&op| apply(op, x, y))
                        .any(&mut *found)
                })
            })
        }),
    }
}

fn solvable(
    count: usize,
    number: &dyn Fn(usize) -> u64,
    target: &dyn Fn() -> u64,
    apply: &dyn Fn(Op, u64, u64) -> Option<u64>,
) -> bool {
    orderings(count)
        .iter()
        .any(|bag| results(bag, number, apply, &mut |r| r == target()))
}

/// Whenever brute force reaches the target from up to four numbers, so
/// does the pruned solver; `number(i)` reads the `i`-th of `count` numbers.
fn complete(
    pruning: Pruning,
    count: usize,
    number: &dyn Fn(usize) -> u64,
    target: &dyn Fn() -> u64,
) -> bool {
    if count > 4 {
        return true;
    }
    let numbers: Vec<OnceCell<u64>> = vec![OnceCell::new(); count];
    let number = |i: usize| *numbers[i].get_or_init(|| number(i));
    let target_read = Cell::new(None);
    let target = || {
        target_read.get().unwrap_or_else(|| {
            let t = target();
            target_read.set(Some(t));
            t
        })
    };
    !solvable(count, &number, &target, &apply_any)
        || solvable(count, &number, &target, &|op, x, y| {
            apply_pruned(pruning, op, x, y)
        })
}

/// The property over hand-written naturals, each read whole with
/// `force()` when the solvers first need it.
pub fn countdown_forced(pruning: Pruning, input: Lazy<'_, (Vec<Nat>, Nat)>) -> bool {
    let (numbers, target) = input.view();
    let numbers: Vec<Lazy<'_, Nat>> = numbers.iter().collect();
    complete(pruning, numbers.len(), &|i| numbers[i].force().0, &|| {
        target.force().0
    })
}

/// The same property over `u64`, whose space has the same values at the
/// same sizes, each read whole with `get()` (the derived path).
pub fn countdown_derived(pruning: Pruning, input: Lazy<'_, (Vec<u64>, u64)>) -> bool {
    let (numbers, target) = input.view();
    let numbers: Vec<Lazy<'_, u64>> = numbers.iter().collect();
    complete(pruning, numbers.len(), &|i| numbers[i].get(), &|| {
        target.get()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use neatcheck::search;

    /// lazy-search's runs at bounds 0 to 11 (`searchRaw'` with strategy D,
    /// the sound property): the original NEAT built with GHC -O2.
    const LAZY_SEARCH_RUNS: [u64; 12] = [0, 1, 2, 4, 10, 29, 86, 246, 679, 1828, 4787, 12288];

    #[test]
    fn haskell_orders() {
        let p = permutations(&[0, 1, 2]);
        assert_eq!(
            p,
            [
                [0, 1, 2],
                [1, 0, 2],
                [2, 1, 0],
                [1, 2, 0],
                [2, 0, 1],
                [0, 2, 1]
            ]
        );
        assert_eq!(permutations(&[0, 1, 2, 3]).len(), 24);
        assert_eq!(
            subsequences(3),
            vec![
                vec![],
                vec![0],
                vec![1],
                vec![0, 1],
                vec![2],
                vec![0, 2],
                vec![1, 2],
                vec![0, 1, 2]
            ]
        );
        assert_eq!(orderings(4).len(), 1 + 4 + 6 * 2 + 4 * 6 + 24);
    }

    #[test]
    fn both_readers_make_lazy_search_runs_at_every_bound() {
        for (bound, &expected) in LAZY_SEARCH_RUNS.iter().enumerate() {
            let forced = search::classes(|i| countdown_forced(Pruning::Sound, i), bound);
            let derived = search::classes(|i| countdown_derived(Pruning::Sound, i), bound);
            assert_eq!(
                (forced.runs, forced.satisfying),
                (expected, expected),
                "{bound}"
            );
            assert_eq!(
                (derived.runs, derived.satisfying),
                (expected, expected),
                "{bound}"
            );
        }
    }

    #[test]
    fn the_bug_is_found_where_lazy_search_finds_it() {
        assert!(search::ctrex(|i| countdown_forced(Pruning::Buggy, i), 10).is_ok());
        let found = search::ctrex(|i| countdown_forced(Pruning::Buggy, i), 11).unwrap_err();
        assert_eq!(found.value, (vec![Nat(3), Nat(3)], Nat(9)));
        // lazy-search: the 4 238th run at bound 11, as here.
        assert_eq!(found.runs, 4238);
        let found = search::ctrex(|i| countdown_derived(Pruning::Buggy, i), 11).unwrap_err();
        assert_eq!(found.value, (vec![3, 3], 9));
    }
}

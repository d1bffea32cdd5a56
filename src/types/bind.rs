//! Dependent spaces (`bind`): a value, then a value from a space that
//! depends on it, built from the ordinary combinators (one alternative per
//! value of the first space, reached through a chain of `pay`s as long as
//! its size) so every backend stays exact.

use crate::describe::{dyn_ref, fresh_keys, map, pay, union, Space};
use crate::feat::walk::{max_size, root_value_at};
use crate::grammar::{compile_space, downcast, Grammar};
use num_bigint::BigUint;
use std::rc::Rc;

/// Pairs `(a, b)`: `a` from `first`, then `b` from the space `then(&a)`
/// (proptest's `prop_flat_map`, QuickCheck's `>>=`). The size of a pair is
/// the size of `a` plus the size of `b`, so the exhaustive search, counts,
/// indexing, uniform sampling, shrinking and replay keys are exact: each
/// value of `first` is one alternative, its second space built when a
/// search first reaches it.
///
/// Each value of `first` becomes an alternative, so `first` must have
/// finitely many values, at most 100 000 (a bounded number,
/// an enumeration, an array or tuple of them): a search or a random case
/// may reach any of them. The first value is read whole by a lazy search.
///
/// ```
/// use neatcheck::space;
/// use neatcheck::values::values_in;
///
/// // A number of dimensions, then a point with that many coordinates.
/// let points = space::bind(space::range(1, 3, |d| d as usize), |&d| {
///     space::map(space::of::<[u8; 3]>(), move |c| c[..d].to_vec())
/// });
/// for n in 0..8 {
///     for (d, point) in values_in(&points, n) {
///         assert_eq!(point.len(), d);
///     }
/// }
/// ```
///
/// # Panics
/// When the space is first used, if `first` has infinitely many values or
/// more than 100 000.
pub fn bind<A, B>(first: Space<A>, then: impl Fn(&A) -> Space<B> + 'static) -> Space<(A, B)>
where
    A: Clone + 'static,
    B: 'static,
{
    let grammar = compile_space(&first);
    let Some(last) = max_size(&grammar) else {
        panic!(
            "neatcheck: space::bind needs a first space with finitely many values (a range, an \
             enumeration, an array of them): `{}` has values of every size",
            grammar.root_name()
        )
    };
    let total: BigUint = (0..=last).map(|n| grammar.count(n)).sum();
    if total > BigUint::from(MAX_FIRST_VALUES) {
        panic!(
            "neatcheck: space::bind makes each value of its first space an alternative: `{}` \
             has {total}, more than {MAX_FIRST_VALUES}",
            grammar.root_name()
        );
    }
    let chain = Rc::new(Chain {
        grammar,
        then: Box::new(then),
        base_key: fresh_keys(last as u64 + 1),
    });
    level(chain, 0, last)
}

/// The most values the first space of [`bind`] may have.
const MAX_FIRST_VALUES: u32 = 100_000;

/// The space of the second value, given the first.
type Then<A, B> = Box<dyn Fn(&A) -> Space<B>>;

/// What every level of one `bind` shares.
struct Chain<A, B> {
    grammar: Rc<Grammar>,
    then: Then<A, B>,
    base_key: u64,
}

/// The pairs whose first value has size `size` or more, `size` already
/// paid: one alternative per first value of this size, then one step to
/// the next size (none past the first space's largest size, `last`).
fn level<A: Clone + 'static, B: 'static>(
    chain: Rc<Chain<A, B>>,
    size: usize,
    last: usize,
) -> Space<(A, B)> {
    let key = chain.base_key + size as u64;
    let build = Rc::new(move || {
        let count = chain.grammar.count(size);
        let mut options = vec![];
        let mut i = BigUint::ZERO;
        while i < count {
            let a: A = downcast(root_value_at(&chain.grammar, size, i.clone()), "bind");
            let keep = a.clone();
            options.push(map((chain.then)(&a), move |b| (keep.clone(), b)));
            i += 1u32;
        }
        if size < last {
            options.push(pay(level(chain.clone(), size + 1, last)));
        }
        union(options)
    });
    dyn_ref(key, format!("bind at size {size}"), build)
}

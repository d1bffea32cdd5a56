//! `BTreeSet<T>` and `BTreeMap<K, V>` (and, through the same families,
//! `HashSet`, `HashMap` and the multisets of `BinaryHeap`): every set (map,
//! multiset) listed exactly once, built from strictly (for multisets:
//! weakly) increasing sequences of elements (in the elements' enumeration
//! order) by FEAT-style unranking, never by filtering.
//!
//! A set has the size of its sorted list of elements: `1 + Σ (1 + size(x))`;
//! a map the size of its sorted list of entries: `1 + Σ (1 + size(k) +
//! size(v))`. Both are leaf families: the search reads them whole.
//!
//! A container whose observable content is a set or a multiset lists each
//! content once: a `BinaryHeap` exposes only its multiset of elements
//! (`peek`, `pop`, `into_sorted_vec` do not depend on insertion order), so
//! enumerating it as a `Vec` would run the property `k!` times on the same
//! heap. A `HashMap` or `HashSet` is enumerated like its `BTree` counterpart
//! but in the elements' enumeration order, so neither `Ord` nor the hasher
//! matter, and reports print its elements in that order, never in hash
//! order.
//!
//! Sets of a type whose own space goes through the set (a rose tree with a
//! `BTreeSet` of children) are not supported: counting them would need the
//! element counts while they are being computed.

use super::Enumerable;
use crate::describe::{leaf, LeafFamily, Space, Value};
use crate::feat::walk::root_value_at;
use crate::grammar::{downcast, Grammar};
use crate::types::grammar_of;
use num_bigint::BigUint;
use num_traits::{One, Zero};
use std::any::Any;
use std::cell::{OnceCell, RefCell};
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet};
use std::fmt::Debug;
use std::hash::{BuildHasher, Hash};
use std::marker::PhantomData;
use std::rc::Rc;

/// `C(n + k - 1, k)` for multisets (`k` elements drawn from `n` with
/// repetition), `C(n, k)` for sets.
fn choose(n: &BigUint, k: usize, multi: bool) -> BigUint {
    if !multi {
        return binomial(n, k);
    }
    if k == 0 {
        return BigUint::one();
    }
    if n.is_zero() {
        return BigUint::zero();
    }
    binomial(&(n + BigUint::from(k - 1)), k)
}

/// The `i`-th (lexicographic) `k`-subset, or non-decreasing `k`-multiset,
/// of `0..n`. A multiset `a_0 <= .. <= a_(k-1)` is the subset
/// `a_j + j` of `0..n + k - 1`, which keeps the lexicographic order.
fn unrank_choice(n: &BigUint, k: usize, i: BigUint, multi: bool) -> Vec<BigUint> {
    if !multi || k == 0 {
        return unrank_combination(n, k, i);
    }
    let mut out = unrank_combination(&(n + BigUint::from(k - 1)), k, i);
    for (j, a) in out.iter_mut().enumerate() {
        *a -= BigUint::from(j);
    }
    out
}

fn binomial(n: &BigUint, k: usize) -> BigUint {
    if BigUint::from(k) > *n {
        return BigUint::zero();
    }
    let mut r = BigUint::one();
    for i in 0..k {
        r = r * (n - BigUint::from(i)) / BigUint::from(i + 1);
    }
    r
}

/// The `i`-th (lexicographic) `k`-subset of `0..n`, as increasing indices.
fn unrank_combination(n: &BigUint, k: usize, mut i: BigUint) -> Vec<BigUint> {
    let mut out = Vec::with_capacity(k);
    let mut lo = BigUint::zero();
    for remaining in (1..=k).rev() {
        // Subsets whose next element is >= a: C(n - a, remaining). Find the
        // largest a in [lo, n) with C(n - lo, r) - C(n - a, r) <= i.
        let total = binomial(&(n - &lo), remaining);
        let (mut a, mut b) = (lo.clone(), n - BigUint::from(remaining) + BigUint::one());
        // Invariant: the answer is in [a, b).
        while &a + BigUint::one() < b {
            let mid: BigUint = (&a + &b) >> 1;
            let skipped = &total - binomial(&(n - &mid), remaining);
            if skipped <= i {
                a = mid;
            } else {
                b = mid;
            }
        }
        let skipped = &total - binomial(&(n - &a), remaining);
        i -= skipped;
        out.push(a.clone());
        lo = a + BigUint::one();
    }
    out
}

/// Element counts and values per size, for a type's canonical space
/// (grammar-level FEAT, `crate::feat`).
struct Elements<T: Enumerable> {
    grammar: OnceCell<Rc<Grammar>>,
    _t: PhantomData<fn() -> T>,
}

impl<T: Enumerable> Elements<T> {
    fn new() -> Self {
        Elements {
            grammar: OnceCell::new(),
            _t: PhantomData,
        }
    }
    fn grammar(&self) -> &Grammar {
        self.grammar.get_or_init(grammar_of::<T>)
    }
    fn count(&self, size: usize) -> BigUint {
        self.grammar().count(size)
    }
    fn value(&self, size: usize, i: &BigUint) -> T {
        assert!(
            i < &self.count(size),
            "neatcheck: element index {i} is beyond the elements of size {size}"
        );
        downcast(
            root_value_at(self.grammar(), size, i.clone()),
            "a set element",
        )
    }
}

/// Counting tables up to a weight `max`, built once per family (and rebuilt
/// larger when a larger size is asked for): counting and unranking are then
/// table look-ups instead of recomputing convolutions at every step.
struct Tables {
    max: usize,
    /// `vt[j][t]`: ways for `j` values (maps) to total `t`; `None` for sets.
    vt: Option<Vec<Vec<BigUint>>>,
    /// `after[s][w]`: ways for element classes `s..` to weigh exactly `w`,
    /// for `s < max` (elements of later classes weigh more than `max`).
    after: Vec<Vec<BigUint>>,
}

impl Tables {
    fn new(
        max: usize,
        elem_count: impl Fn(usize) -> BigUint,
        values: Option<&[BigUint]>,
        multi: bool,
    ) -> Tables {
        let delta = |w: usize| {
            if w == 0 {
                BigUint::one()
            } else {
                BigUint::zero()
            }
        };
        // Convolution powers of the value counts: vt[j] = vt[j - 1] * V.
        let vt = values.map(|v| {
            let mut rows: Vec<Vec<BigUint>> = vec![(0..=max).map(delta).collect()];
            for j in 1..=max {
                let prev = &rows[j - 1];
                let mut next = vec![BigUint::zero(); max + 1];
                for (a, ca) in prev.iter().enumerate() {
                    if ca.is_zero() {
                        continue;
                    }
                    for (b, vb) in v.iter().enumerate().take(max + 1 - a) {
                        if !vb.is_zero() {
                            next[a + b] += ca * vb;
                        }
                    }
                }
                rows.push(next);
            }
            rows
        });
        let mut after: Vec<Vec<BigUint>> = vec![vec![]; max];
        let mut later: Vec<BigUint> = (0..=max).map(delta).collect();
        for class in (0..max).rev() {
            let c = elem_count(class);
            if !c.is_zero() {
                let keys: Vec<BigUint> = (0..=max / (class + 1))
                    .map(|j| choose(&c, j, multi))
                    .collect();
                let mut row = vec![BigUint::zero(); max + 1];
                for (w, slot) in row.iter_mut().enumerate() {
                    let mut total = BigUint::zero();
                    for (j, k) in keys.iter().enumerate().take(w / (class + 1) + 1) {
                        if k.is_zero() {
                            break;
                        }
                        let rest = w - j * (class + 1);
                        match &vt {
                            None => total += k * &later[rest],
                            Some(vt) => {
                                for t in 0..=rest {
                                    let (v, l) = (&vt[j][t], &later[rest - t]);
                                    if !v.is_zero() && !l.is_zero() {
                                        total += k * v * l;
                                    }
                                }
                            }
                        }
                    }
                    *slot = total;
                }
                later = row;
            }
            after[class] = later.clone();
        }
        Tables { max, vt, after }
    }

    /// `[x^t] V(x)^j`: ways for `j` values to total `t`.
    fn value_tuples(&self, j: usize, t: usize) -> BigUint {
        match &self.vt {
            None if t == 0 => BigUint::one(),
            None => BigUint::zero(),
            Some(vt) => vt[j][t].clone(),
        }
    }

    /// Ways for classes `s..` to weigh exactly `m` (`m <= max`).
    fn classes_from(&self, s: usize, m: usize) -> BigUint {
        debug_assert!(m <= self.max);
        match self.after.get(s) {
            Some(row) => row[m].clone(),
            None if m == 0 => BigUint::one(),
            None => BigUint::zero(),
        }
    }
}

/// A family's tables, grown (doubling) on demand.
#[derive(Default)]
struct TableCache(RefCell<Option<Rc<Tables>>>);

impl TableCache {
    fn get(&self, max: usize, build: impl FnOnce(usize) -> Tables) -> Rc<Tables> {
        let mut cache = self.0.borrow_mut();
        match &*cache {
            Some(t) if t.max >= max => t.clone(),
            old => {
                let max = old.as_ref().map_or(max, |t| max.max(2 * t.max));
                let t = Rc::new(build(max));
                *cache = Some(t.clone());
                t
            }
        }
    }
}

/// Ways to pick sets from element classes `s..` with total weight `m`,
/// where an element of size `s` weighs `s + 1` (plus, for maps, the size of
/// its value).
struct Ways<'e, T: Enumerable> {
    elems: &'e Elements<T>,
    tables: Rc<Tables>,
    /// Whether elements may repeat (multisets).
    multi: bool,
}

impl<T: Enumerable> Ways<'_, T> {
    /// `[x^t] V(x)^j`: ways for `j` values to total `t`.
    fn value_tuples(&self, j: usize, t: usize) -> BigUint {
        self.tables.value_tuples(j, t)
    }

    /// Ways for classes `s..` to weigh exactly `m`.
    fn classes_from(&self, s: usize, m: usize) -> BigUint {
        self.tables.classes_from(s, m)
    }
}

/// Chosen elements: (class, element index within the class, value size and
/// index for maps).
type Choice = (usize, BigUint, Option<(usize, BigUint)>);

fn unrank<T: Enumerable, V: Enumerable>(
    ways: &Ways<'_, T>,
    value_elems: Option<&Elements<V>>,
    size: usize,
    mut i: BigUint,
) -> Vec<Choice> {
    let mut out = vec![];
    let mut m = size - 1;
    let mut class = 0;
    while m > 0 {
        let c = ways.elems.count(class);
        let mut chosen = false;
        let mut j = 0;
        while j * (class + 1) <= m {
            let keys = choose(&c, j, ways.multi);
            if keys.is_zero() {
                break;
            }
            let rest = m - j * (class + 1);
            for t in 0..=rest {
                let vt = ways.value_tuples(j, t);
                let after = ways.classes_from(class + 1, rest - t);
                let block = &keys * &vt * &after;
                if i >= block {
                    i -= block;
                    continue;
                }
                // This block: key combination, value tuple, the rest.
                let per_key_choice = &vt * &after;
                let combo = &i / &per_key_choice;
                i %= &per_key_choice;
                let tuple = &i / &after;
                i %= &after;
                let keys_idx = unrank_choice(&c, j, combo, ways.multi);
                let vals = unrank_value_tuple(ways, value_elems, j, t, tuple);
                for (k, v) in keys_idx.into_iter().zip(vals) {
                    out.push((class, k, v));
                }
                m = rest - t;
                chosen = true;
                break;
            }
            if chosen {
                break;
            }
            j += 1;
        }
        assert!(chosen, "neatcheck: set index out of range");
        class += 1;
    }
    out
}

/// The `i`-th tuple of `j` values with total size `t` (first value's size
/// ascending, then its index, then the rest).
fn unrank_value_tuple<T: Enumerable, V: Enumerable>(
    ways: &Ways<'_, T>,
    value_elems: Option<&Elements<V>>,
    j: usize,
    mut t: usize,
    mut i: BigUint,
) -> Vec<Option<(usize, BigUint)>> {
    let Some(ve) = value_elems else {
        return vec![None; j];
    };
    let mut out = vec![];
    for left in (1..=j).rev() {
        let mut u = 0;
        loop {
            let here = ve.count(u);
            let rest = ways.value_tuples(left - 1, t - u);
            let block = &here * &rest;
            if i < block {
                out.push(Some((u, &i / &rest)));
                i %= &rest;
                t -= u;
                break;
            }
            i -= block;
            u += 1;
        }
    }
    out
}

/// A container the set families build, from its elements in enumeration
/// order (each once, or for multisets in non-decreasing order).
pub(crate) trait SetLike: Debug + 'static {
    /// The element type.
    type Elem: Enumerable + Debug;
    /// Whether an element may repeat (multisets).
    const MULTI: bool = false;
    /// Whether the container's own `Debug` order depends on the run (hash
    /// order): reports then print the elements in enumeration order.
    const HASHED: bool = false;
    /// The family's name in reports.
    fn name() -> String;
    /// Builds the container.
    fn from_elems(elems: Vec<Self::Elem>) -> Self;
    /// The `Debug` texts of the elements, in any order (used when `HASHED`).
    fn debug_entries(&self) -> Vec<String> {
        vec![]
    }
}

/// A container the map families build from entries with distinct keys, in
/// enumeration order of the keys.
pub(crate) trait MapLike: Debug + 'static {
    /// The key type.
    type Key: Enumerable + Debug;
    /// The value type.
    type Val: Enumerable + Debug;
    /// See [`SetLike::HASHED`].
    const HASHED: bool = false;
    /// The family's name in reports.
    fn name() -> String;
    /// Builds the container.
    fn from_entries(entries: Vec<(Self::Key, Self::Val)>) -> Self;
    /// The `Debug` texts of the entries (`k: v`), in any order (used when
    /// `HASHED`).
    fn debug_entries(&self) -> Vec<String> {
        vec![]
    }
}

impl<T: Enumerable + Ord + Debug> SetLike for BTreeSet<T> {
    type Elem = T;
    fn name() -> String {
        format!("BTreeSet<{}>", std::any::type_name::<T>())
    }
    fn from_elems(elems: Vec<T>) -> Self {
        elems.into_iter().collect()
    }
}

impl<K: Enumerable + Ord + Debug, V: Enumerable + Debug> MapLike for BTreeMap<K, V> {
    type Key = K;
    type Val = V;
    fn name() -> String {
        format!(
            "BTreeMap<{}, {}>",
            std::any::type_name::<K>(),
            std::any::type_name::<V>()
        )
    }
    fn from_entries(entries: Vec<(K, V)>) -> Self {
        entries.into_iter().collect()
    }
}

/// Prints elements (or entries) in the given order, with `Debug`'s set
/// (map) syntax.
struct InOrder<'a, T>(&'a [T]);

impl<T: Debug> Debug for InOrder<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.0).finish()
    }
}

struct EntriesInOrder<'a, K, V>(&'a [(K, V)]);

impl<K: Debug, V: Debug> Debug for EntriesInOrder<'_, K, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.0.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

/// `Debug` of a hashed container known only by value (not by index): its
/// entries' texts sorted, so that the text does not change from run to run.
fn sorted_debug(mut entries: Vec<String>) -> String {
    entries.sort();
    format!("{{{}}}", entries.join(", "))
}

/// The family of a set-like container `C` (`BTreeSet<T>`, `HashSet<T>`,
/// the multisets of `BinaryHeap<T>`).
pub(crate) struct SetsOf<C: SetLike> {
    elems: Elements<C::Elem>,
    tables: TableCache,
    _c: PhantomData<fn() -> C>,
}

/// The family of `BTreeSet<T>`.
pub(crate) type SetFamily<T> = SetsOf<BTreeSet<T>>;

impl<C: SetLike> SetsOf<C> {
    pub(crate) fn new() -> Self {
        SetsOf {
            elems: Elements::new(),
            tables: TableCache::default(),
            _c: PhantomData,
        }
    }
    /// The counting tables for sets of sizes up to `size`.
    fn ways(&self, size: usize) -> Ways<'_, C::Elem> {
        let tables = self.tables.get(size, |max| {
            Tables::new(max, |s| self.elems.count(s), None, C::MULTI)
        });
        Ways {
            elems: &self.elems,
            tables,
            multi: C::MULTI,
        }
    }
    /// The elements of value `index` of `size`, in enumeration order.
    fn elems_at(&self, size: usize, index: &BigUint) -> Vec<C::Elem> {
        unrank::<C::Elem, C::Elem>(&self.ways(size), None, size, index.clone())
            .into_iter()
            .map(|(class, i, _)| self.elems.value(class, &i))
            .collect()
    }
}

impl<C: SetLike> LeafFamily for SetsOf<C> {
    fn name(&self) -> String {
        C::name()
    }
    fn count(&self, size: usize) -> BigUint {
        if size == 0 {
            return BigUint::zero();
        }
        self.ways(size).classes_from(0, size - 1)
    }
    fn last_size(&self) -> Option<usize> {
        None
    }
    fn value(&self, size: usize, index: &BigUint) -> Value {
        Box::new(C::from_elems(self.elems_at(size, index)))
    }
    fn debug_value(&self, value: &dyn Any) -> String {
        match value.downcast_ref::<C>() {
            Some(v) if C::HASHED => sorted_debug(v.debug_entries()),
            Some(v) => format!("{v:?}"),
            None => "?".into(),
        }
    }
    fn debug_at(&self, size: usize, index: &BigUint) -> String {
        if C::HASHED {
            format!("{:?}", InOrder(&self.elems_at(size, index)))
        } else {
            self.debug_value(&*self.value(size, index))
        }
    }
}

/// The family of a map-like container `M` (`BTreeMap<K, V>`,
/// `HashMap<K, V>`).
pub(crate) struct MapsOf<M: MapLike> {
    keys: Elements<M::Key>,
    values: Elements<M::Val>,
    tables: TableCache,
    _t: PhantomData<fn() -> M>,
}

/// The family of `BTreeMap<K, V>`.
pub(crate) type MapFamily<K, V> = MapsOf<BTreeMap<K, V>>;

impl<M: MapLike> MapsOf<M> {
    pub(crate) fn new() -> Self {
        MapsOf {
            keys: Elements::new(),
            values: Elements::new(),
            tables: TableCache::default(),
            _t: PhantomData,
        }
    }
    /// The counting tables for maps of sizes up to `size`.
    fn ways(&self, size: usize) -> Ways<'_, M::Key> {
        let tables = self.tables.get(size, |max| {
            let values: Vec<BigUint> = (0..=max).map(|t| self.values.count(t)).collect();
            Tables::new(max, |s| self.keys.count(s), Some(&values), false)
        });
        Ways {
            elems: &self.keys,
            tables,
            multi: false,
        }
    }
    /// The entries of value `index` of `size`, in enumeration order of the
    /// keys.
    fn entries_at(&self, size: usize, index: &BigUint) -> Vec<(M::Key, M::Val)> {
        let ways = self.ways(size);
        unrank(&ways, Some(&self.values), size, index.clone())
            .into_iter()
            .map(|(class, i, v)| {
                let (vs, vi) = v.expect("a value per key");
                (self.keys.value(class, &i), self.values.value(vs, &vi))
            })
            .collect()
    }
}

impl<M: MapLike> LeafFamily for MapsOf<M> {
    fn name(&self) -> String {
        M::name()
    }
    fn count(&self, size: usize) -> BigUint {
        if size == 0 {
            return BigUint::zero();
        }
        self.ways(size).classes_from(0, size - 1)
    }
    fn last_size(&self) -> Option<usize> {
        None
    }
    fn value(&self, size: usize, index: &BigUint) -> Value {
        Box::new(M::from_entries(self.entries_at(size, index)))
    }
    fn debug_value(&self, value: &dyn Any) -> String {
        match value.downcast_ref::<M>() {
            Some(v) if M::HASHED => sorted_debug(v.debug_entries()),
            Some(v) => format!("{v:?}"),
            None => "?".into(),
        }
    }
    fn debug_at(&self, size: usize, index: &BigUint) -> String {
        if M::HASHED {
            format!("{:?}", EntriesInOrder(&self.entries_at(size, index)))
        } else {
            self.debug_value(&*self.value(size, index))
        }
    }
}

impl<T: Enumerable + Ord + std::fmt::Debug> Enumerable for std::collections::BTreeSet<T> {
    fn describe() -> Space<Self> {
        leaf(Rc::new(SetFamily::<T>::new()))
    }
}

impl<K, V> Enumerable for std::collections::BTreeMap<K, V>
where
    K: Enumerable + Ord + std::fmt::Debug,
    V: Enumerable + std::fmt::Debug,
{
    fn describe() -> Space<Self> {
        leaf(Rc::new(MapFamily::<K, V>::new()))
    }
}

impl<T, S> SetLike for HashSet<T, S>
where
    T: Enumerable + Hash + Eq + Debug,
    S: BuildHasher + Default + 'static,
{
    type Elem = T;
    const HASHED: bool = true;
    fn name() -> String {
        format!("HashSet<{}>", std::any::type_name::<T>())
    }
    fn from_elems(elems: Vec<T>) -> Self {
        elems.into_iter().collect()
    }
    fn debug_entries(&self) -> Vec<String> {
        self.iter().map(|x| format!("{x:?}")).collect()
    }
}

impl<K, V, S> MapLike for HashMap<K, V, S>
where
    K: Enumerable + Hash + Eq + Debug,
    V: Enumerable + Debug,
    S: BuildHasher + Default + 'static,
{
    type Key = K;
    type Val = V;
    const HASHED: bool = true;
    fn name() -> String {
        format!(
            "HashMap<{}, {}>",
            std::any::type_name::<K>(),
            std::any::type_name::<V>()
        )
    }
    fn from_entries(entries: Vec<(K, V)>) -> Self {
        entries.into_iter().collect()
    }
    fn debug_entries(&self) -> Vec<String> {
        self.iter().map(|(k, v)| format!("{k:?}: {v:?}")).collect()
    }
}

impl<T: Enumerable + Ord + Debug> SetLike for BinaryHeap<T> {
    type Elem = T;
    const MULTI: bool = true;
    fn name() -> String {
        format!("BinaryHeap<{}>", std::any::type_name::<T>())
    }
    fn from_elems(elems: Vec<T>) -> Self {
        BinaryHeap::from(elems)
    }
}

/// Each set once, in the enumeration order of its elements (see the
/// module's documentation); the hasher does not change what is enumerated.
impl<T, S> Enumerable for HashSet<T, S>
where
    T: Enumerable + Hash + Eq + Debug,
    S: BuildHasher + Default + 'static,
{
    fn describe() -> Space<Self> {
        leaf(Rc::new(SetsOf::<Self>::new()))
    }
}

/// Each map once, by the enumeration order of its keys.
impl<K, V, S> Enumerable for HashMap<K, V, S>
where
    K: Enumerable + Hash + Eq + Debug,
    V: Enumerable + Debug,
    S: BuildHasher + Default + 'static,
{
    fn describe() -> Space<Self> {
        leaf(Rc::new(MapsOf::<Self>::new()))
    }
}

/// Each multiset of elements once (see the module's documentation).
impl<T: Enumerable + Ord + Debug> Enumerable for BinaryHeap<T> {
    fn describe() -> Space<Self> {
        leaf(Rc::new(SetsOf::<Self>::new()))
    }
}

//! The description layer: `Space<T>` and its combinators, leaf families,
//! the integer size modes and the per-thread registry of described types
//! (public at `neatcheck::space`, with the type layer's `Enumerable`,
//! `of`, `field`... beside it). It knows nothing of lazy handles nor of
//! `Enumerable`; `crate::grammar` compiles what it builds.

mod atom;
mod custom;
mod drawn;
mod ints;
mod leaf;
pub(crate) mod numbers;
mod pattern;

pub(crate) use atom::{AtomBlock, AtomFamily};
pub(crate) use custom::debug_text;
pub use custom::{ctor, show_with_debug};
#[cfg(feature = "arbitrary")]
pub use drawn::arbitrary;
pub use drawn::drawn;
#[cfg(feature = "proptest")]
pub use drawn::from_strategy;
pub(crate) use ints::ModeScope;
pub use ints::{integer_sizes, with_integer_sizes, IntegerSizes};
pub use leaf::{bits_family, char_family, range_family, signed_family, LeafFamily};
pub use leaf::{linear_nat_family, linear_signed_family};
pub(crate) use leaf::{linear_signed_from_index, signed_from_index, BigNat, BigSigned};
pub use numbers::{below_family, float_family, nat_below, FloatFormat};
pub use pattern::pattern;

// The typed combinators and the `Enumerable` trait, at their public paths
// (`neatcheck::space::of`...). These point up to the type layer: a facade
// for users, not an import of this layer (nothing in `space` uses them).

use std::any::{Any, TypeId};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;
use std::rc::Rc;

/// A type-erased value, as produced by the generic materialiser.
pub type Value = Box<dyn Any>;

/// Builds a value from the values of the fields of a product, in order.
pub type Combine = Rc<dyn Fn(&mut Fields<'_>) -> Value>;

/// The field values of a product, handed to its combining function in order.
pub struct Fields<'a> {
    values: std::vec::Drain<'a, Value>,
}

impl fmt::Debug for Fields<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fields({} left)", self.values.len())
    }
}

impl<'a> Fields<'a> {
    pub(crate) fn new(values: std::vec::Drain<'a, Value>) -> Self {
        Fields { values }
    }

    /// Takes the next field value, whatever its type.
    pub(crate) fn take_value(&mut self) -> Value {
        self.values.next().unwrap_or_else(|| {
            crate::internal::raise(
                "a product's combining function took more fields than it has: inconsistent \
                 space description"
                    .to_string(),
            )
        })
    }

    /// Takes the next field value.
    ///
    /// # Panics
    /// If there is no next field or it is not a `T`: both mean the space was
    /// described inconsistently (a bug in a hand-written description).
    pub fn take<T: 'static>(&mut self) -> T {
        let Some(value) = self.values.next() else {
            crate::internal::raise(format!(
                "a product's combining function took more fields than it has (taking a `{}`): \
                 inconsistent space description",
                std::any::type_name::<T>()
            ))
        };
        match value.downcast::<T>() {
            Ok(v) => *v,
            Err(_) => crate::internal::raise(format!(
                "a product field is not a `{}` (inconsistent space description)",
                std::any::type_name::<T>()
            )),
        }
    }
}

/// How the constructor of an alternative is printed and named (for reports
/// and for the dynamic value API). It does not change what is enumerated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A named constructor; `fields` holds the field names of a struct-like
    /// constructor (`Point { x, y }`) and is `None` for tuple-like ones.
    Ctor {
        /// The constructor's name.
        name: Cow<'static, str>,
        /// Field names, for constructors with named fields.
        fields: Option<Vec<Cow<'static, str>>>,
    },
    /// A tuple: printed as `(a, b)`.
    Tuple,
    /// The empty list of a list-like type.
    Nil,
    /// A list cell (head, tail) of a list-like type.
    Cons,
    /// `None`, `Some(x)`, `Ok(x)`...: printed like `Ctor` but kept apart so
    /// that list and string printers can recognise their own types.
    Plain,
}

/// A reference to the (shared, registered) space of a type.
#[derive(Clone)]
pub(crate) struct TypeRef {
    pub key: RefKey,
    /// The type whose canonical space this is, when the key is not a
    /// type's (a function's decisions: spaces of its own, never viewed).
    pub origin: Option<TypeId>,
    pub name: Cow<'static, str>,
    pub raw: Rc<dyn Fn() -> Rc<Raw>>,
}

/// What identifies a shared space: a Rust type, or a datatype declared at
/// run time (see [`crate::dynamic`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum RefKey {
    Type(TypeId),
    Dyn(u64),
}

/// The untyped description tree behind a [`Space`].
pub(crate) enum Raw {
    Empty,
    Pure(Rc<dyn Fn() -> Value>),
    Pay(Rc<Raw>),
    Union(Vec<Rc<Raw>>),
    /// The alternatives below, each drawn `weight` times as often by a
    /// check's random phase (see [`weighted`]); nothing else sees it.
    Weight(u32, Rc<Raw>),
    Product(Vec<Rc<Raw>>, Combine),
    Map(Rc<dyn Fn(Value) -> Value>, Rc<Raw>),
    /// The registered space of another type (how recursion is expressed).
    Ref(TypeRef),
    /// A finite-per-size family of atomic values (integers, characters...).
    Leaf(Rc<dyn LeafFamily>),
    /// A family of lazy atoms: compiled into one alternative per block,
    /// whose fields are its free bits.
    Atom(Rc<AtomFamily>),
    /// Printing metadata for the single alternative below.
    Label(Rc<Shape>, Rc<Raw>),
    /// `map(f, of::<T>())` that the search may treat as the very same
    /// position as `T` (Box, String...). Its lazy view is `T`'s view.
    Transparent(Rc<Raw>),
    /// Forces its content to be one position of its own when it is a field.
    Sort(Rc<Raw>),
    /// The root of a function space (`types/function/`): the alternative
    /// below carries the function's description, which the printers and
    /// the application read (opaque here: it names grammars, a layer up).
    Function(Rc<dyn Any>, Rc<Raw>),
}

/// A description of a set of values of `T`, each with a size.
///
/// Built from the sized-functor combinators: [`empty`], [`pure`], [`pay`],
/// [`union`], [`product`], [`map`], and conveniences built on them
/// ([`datatype`], [`product3`], [`range`], [`nat_bits`]...). The size of a
/// value is the number of `pay`s on its path through the description.
pub struct Space<T> {
    pub(crate) raw: Rc<Raw>,
    _t: PhantomData<fn() -> T>,
}

impl<T> Clone for Space<T> {
    fn clone(&self) -> Self {
        Space::from_raw(self.raw.clone())
    }
}

impl<T> fmt::Debug for Space<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Space<{}>", std::any::type_name::<T>())
    }
}

impl<T> Space<T> {
    pub(crate) fn from_raw(raw: Rc<Raw>) -> Self {
        Space {
            raw,
            _t: PhantomData,
        }
    }
}

thread_local! {
    // Keyed by the integer sizes too: the primitive integers' `describe`
    // depends on them, and so may a user's (through `integer_sizes()`).
    static REGISTRY: RefCell<HashMap<(TypeId, IntegerSizes), Rc<Raw>>> =
        RefCell::new(HashMap::new());
}

fn registered_raw<T: 'static>(describe: fn() -> Space<T>) -> Rc<Raw> {
    let id = (TypeId::of::<T>(), integer_sizes());
    if let Some(raw) = REGISTRY.with(|r| r.borrow().get(&id).cloned()) {
        return raw;
    }
    // `describe` only builds `Ref`s to other types, so this never recurses.
    let raw = describe().raw;
    REGISTRY.with(|r| r.borrow_mut().entry(id).or_insert(raw).clone())
}

/// The shared space of the type `T`, referred to by type: `describe` runs
/// once per type, thread and integer-size mode, when the space is first
/// compiled. How `of::<T>()` reaches `T::describe` without this layer
/// knowing the `Enumerable` trait.
pub(crate) fn registered<T: 'static>(describe: fn() -> Space<T>) -> Space<T> {
    Space::from_raw(Rc::new(Raw::Ref(TypeRef {
        key: RefKey::Type(TypeId::of::<T>()),
        origin: Some(TypeId::of::<T>()),
        name: Cow::Borrowed(std::any::type_name::<T>()),
        raw: Rc::new(move || registered_raw(describe)),
    })))
}

/// The space with no values.
pub fn empty<T: 'static>() -> Space<T> {
    Space::from_raw(Rc::new(Raw::Empty))
}

/// The space holding just `x`, of size 0.
pub fn pure<T: Clone + 'static>(x: T) -> Space<T> {
    Space::from_raw(Rc::new(Raw::Pure(Rc::new(move || {
        Box::new(x.clone()) as Value
    }))))
}

/// The values of `s`, each one larger.
pub fn pay<T: 'static>(s: Space<T>) -> Space<T> {
    Space::from_raw(Rc::new(Raw::Pay(s.raw)))
}

/// The values of all the spaces, in order (left first at each size).
pub fn union<T: 'static>(spaces: Vec<Space<T>>) -> Space<T> {
    Space::from_raw(Rc::new(Raw::Union(
        spaces.into_iter().map(|s| s.raw).collect(),
    )))
}

/// The values of all the spaces, like [`union`], with weights for the
/// check's random phase: a value of an alternative of weight `w` is drawn
/// `w` times as often as one of weight 1 **of the same size**.
///
/// The random phase draws a size first, then a value of that size, each
/// value as many times as the product of the weights on its path. So a
/// weight does not move draws between sizes: it shifts what the values of
/// a size are made of (the operations a list of commands holds, the leaves
/// of a tree, the choice between alternatives of equal size).
///
/// Everything else ignores weights and stays exact: the exhaustive search
/// and its classes, counting, FEAT indexing and [`crate::index::sample`]
/// (uniform by definition), shrinking, replay keys. Two parts of the random
/// phase draw without them: long cases (drawn by structure) and the edge
/// sweep; and a case whose precondition is false is drawn again with the
/// weights, without ruling its class out (the pruned sampler is uniform).
///
/// ```
/// use neatcheck::space::{self, Space};
///
/// #[derive(Clone, Debug)]
/// enum Op { Push(u8), Pop, Clear }
///
/// // Pushes nine times as often as a pop of the same size, clears rarely.
/// let op: Space<Op> = space::pay(space::weighted(vec![
///     (9, space::map(space::of::<u8>(), Op::Push)),
///     (3, space::pure(Op::Pop)),
///     (1, space::pure(Op::Clear)),
/// ]));
/// // Enumerated as without weights: size 1 holds `Push(0)`, `Pop`, `Clear`.
/// let ops = neatcheck::values::values_in(&op, 1);
/// assert_eq!(format!("{ops:?}"), "[Push(0), Pop, Clear]");
/// ```
///
/// # Panics
/// On a weight of 0 (leave the alternative out instead).
pub fn weighted<T: 'static>(choices: Vec<(u32, Space<T>)>) -> Space<T> {
    let parts = choices
        .into_iter()
        .map(|(weight, s)| {
            assert!(
                weight > 0,
                "neatcheck: space::weighted: a weight of 0 (leave that alternative out; weights \
                 are relative chances and every alternative stays in the exhaustive search)"
            );
            Rc::new(Raw::Weight(weight, s.raw))
        })
        .collect();
    Space::from_raw(Rc::new(Raw::Union(parts)))
}

/// Pairs of values; the size of a pair is the sum of the sizes.
pub fn product<A: 'static, B: 'static>(a: Space<A>, b: Space<B>) -> Space<(A, B)> {
    Space::from_raw(Rc::new(Raw::Product(
        vec![a.raw, b.raw],
        Rc::new(|f: &mut Fields<'_>| {
            let a = f.take::<A>();
            let b = f.take::<B>();
            Box::new((a, b)) as Value
        }),
    )))
}

/// Triples; see [`product`].
pub fn product3<A: 'static, B: 'static, C: 'static>(
    a: Space<A>,
    b: Space<B>,
    c: Space<C>,
) -> Space<(A, B, C)> {
    Space::from_raw(Rc::new(Raw::Product(
        vec![a.raw, b.raw, c.raw],
        Rc::new(|f: &mut Fields<'_>| {
            let a = f.take::<A>();
            let b = f.take::<B>();
            let c = f.take::<C>();
            Box::new((a, b, c)) as Value
        }),
    )))
}

/// An n-ary product of type-erased fields, combined by `build`: the building
/// block of [`datatype`] and of derived spaces. The order of values is that
/// of right-nested binary products.
pub fn product_with<T: 'static>(
    fields: Vec<RawSpace>,
    build: impl Fn(&mut Fields<'_>) -> T + 'static,
) -> Space<T> {
    Space::from_raw(Rc::new(Raw::Product(
        fields.into_iter().map(|f| f.0).collect(),
        Rc::new(move |f: &mut Fields<'_>| Box::new(build(f)) as Value),
    )))
}

/// The values of `s` transformed by `f` (sizes unchanged).
pub fn map<A: 'static, B: 'static>(s: Space<A>, f: impl Fn(A) -> B + 'static) -> Space<B> {
    Space::from_raw(Rc::new(Raw::Map(
        Rc::new(move |v: Value| {
            let a = *v.downcast::<A>().unwrap_or_else(|_| {
                crate::internal::raise(format!(
                    "`map` from `{}` to `{}` over a space of another type (inconsistent space \
                     description)",
                    std::any::type_name::<A>(),
                    std::any::type_name::<B>()
                ))
            });
            Box::new(f(a)) as Value
        }),
        s.raw,
    )))
}

/// A leaf family of atomic values (see [`LeafFamily`]).
pub fn leaf<T: 'static>(family: Rc<dyn LeafFamily>) -> Space<T> {
    Space::from_raw(Rc::new(Raw::Leaf(family)))
}

/// A family of lazy atoms (integers and characters whose bits are
/// positions).
pub(crate) fn atom<T: 'static>(family: AtomFamily) -> Space<T> {
    Space::from_raw(Rc::new(Raw::Atom(Rc::new(family))))
}

/// Attaches printing metadata to a constructor's space.
pub fn with_shape<T: 'static>(shape: Shape, s: Space<T>) -> Space<T> {
    Space::from_raw(Rc::new(Raw::Label(Rc::new(shape), s.raw)))
}

/// Makes `s` one search position of its own wherever it is used as a field
/// (derived constructors use it for field overrides, so that every field is
/// exactly one position).
pub fn position<T: 'static>(s: Space<T>) -> Space<T> {
    Space::from_raw(Rc::new(Raw::Sort(s.raw)))
}

/// A space with its type erased, for n-ary products ([`product_with`]).
#[derive(Clone)]
pub struct RawSpace(pub(crate) Rc<Raw>);

impl fmt::Debug for RawSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RawSpace")
    }
}

impl<T> Space<T> {
    /// Erases the type (for [`product_with`]).
    pub fn erase(self) -> RawSpace {
        RawSpace(self.raw)
    }
}

/// A constructor of a [`datatype`]: a name, its fields and how to build it.
pub struct Constructor<T> {
    space: Space<T>,
}

impl<T> fmt::Debug for Constructor<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Constructor<{}>", std::any::type_name::<T>())
    }
}

impl<T: 'static> Constructor<T> {
    /// A constructor with tuple-like (or no) fields.
    pub fn new(
        name: &'static str,
        fields: Vec<RawSpace>,
        build: impl Fn(&mut Fields<'_>) -> T + 'static,
    ) -> Self {
        Constructor {
            space: with_shape(
                Shape::Ctor {
                    name: Cow::Borrowed(name),
                    fields: None,
                },
                product_with(fields, build),
            ),
        }
    }

    /// A constructor with named fields (`fields` gives names and spaces).
    pub fn named(
        name: &'static str,
        fields: Vec<(&'static str, RawSpace)>,
        build: impl Fn(&mut Fields<'_>) -> T + 'static,
    ) -> Self {
        let names = fields.iter().map(|(n, _)| Cow::Borrowed(*n)).collect();
        Constructor {
            space: with_shape(
                Shape::Ctor {
                    name: Cow::Borrowed(name),
                    fields: Some(names),
                },
                product_with(fields.into_iter().map(|(_, s)| s).collect(), build),
            ),
        }
    }

    /// This constructor drawn `weight` times as often as a weight-1 one of
    /// the same size by a check's random phase (see [`weighted`], which
    /// says what weights change and what they leave exact); what
    /// `#[enumerable(weight = n)]` on a variant gives.
    ///
    /// # Panics
    /// On a weight of 0.
    pub fn weight(self, weight: u32) -> Self {
        Constructor {
            space: weighted(vec![(weight, self.space)]),
        }
    }

    /// A constructor with an explicit shape (used by standard types).
    pub fn shaped(
        shape: Shape,
        fields: Vec<RawSpace>,
        build: impl Fn(&mut Fields<'_>) -> T + 'static,
    ) -> Self {
        Constructor {
            space: with_shape(shape, product_with(fields, build)),
        }
    }
}

/// An algebraic data type: one `pay` around the union of its constructors,
/// so every constructor costs 1 (the size-based convention).
pub fn datatype<T: 'static>(constructors: Vec<Constructor<T>>) -> Space<T> {
    pay(union(constructors.into_iter().map(|c| c.space).collect()))
}

/// The field space of a derived constructor with an overriding space: kept
/// one position whatever its shape.
pub fn field_with<T: 'static>(s: Space<T>) -> RawSpace {
    position(s).erase()
}

/// Unsigned naturals by bit length, as in the `size-based` package: 0 has
/// size 0 and size `k + 1` holds `2^k ..= 2^(k+1) - 1`, up to `max_bits`.
pub fn nat_bits<T: fmt::Debug + 'static>(max_bits: u32, from_u64: fn(u64) -> T) -> Space<T> {
    leaf(bits_family(max_bits, from_u64))
}

/// The integers `lo..=hi`, each of size 1 (like an enumeration type with
/// that many nullary constructors), in increasing order.
pub fn range<T: fmt::Debug + 'static>(lo: i64, hi: i64, from_i64: fn(i64) -> T) -> Space<T> {
    leaf(range_family(lo, hi, from_i64))
}

/// A choice between the given values, each of size 1, in the given order.
pub fn one_of<T: Clone + 'static>(values: Vec<T>) -> Space<T> {
    pay(union(values.into_iter().map(pure).collect()))
}

/// `n` run-time keys for [`dyn_ref`], unique for the whole process (the
/// datatypes of [`crate::dynamic`], the repetitions of patterns).
pub(crate) fn fresh_keys(n: u64) -> u64 {
    static NEXT_KEY: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    NEXT_KEY.fetch_add(n, std::sync::atomic::Ordering::Relaxed)
}

/// A reference to a shared space identified by a run-time key (datatypes
/// declared at run time, see [`crate::dynamic`]). `raw` builds the space on
/// first use; the key must be unique per datatype.
pub(crate) fn dyn_ref<T: 'static>(
    key: u64,
    name: String,
    raw: Rc<dyn Fn() -> Space<T>>,
) -> Space<T> {
    Space::from_raw(Rc::new(Raw::Ref(TypeRef {
        key: RefKey::Dyn(key),
        origin: None,
        name: Cow::Owned(name),
        raw: Rc::new(move || raw().raw),
    })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    thread_local! {
        static DESCRIBED: Cell<u32> = const { Cell::new(0) };
    }

    #[derive(Clone)]
    struct Probe;

    fn describe_probe() -> Space<Probe> {
        DESCRIBED.with(|d| d.set(d.get() + 1));
        pure(Probe)
    }

    fn resolve<T>(s: &Space<T>) -> (RefKey, Rc<Raw>) {
        match &*s.raw {
            Raw::Ref(r) => (r.key, (r.raw)()),
            _ => panic!("a registered space is a reference"),
        }
    }

    /// The registry runs a type's `describe` once per thread and integer
    /// mode, and every reference to the type shares that one description.
    #[test]
    fn a_registered_type_is_described_once_per_thread_and_mode() {
        let (key, first) = resolve(&registered(describe_probe));
        assert_eq!(key, RefKey::Type(TypeId::of::<Probe>()));
        assert_eq!(DESCRIBED.with(Cell::get), 1);
        let (_, again) = resolve(&registered(describe_probe));
        assert!(Rc::ptr_eq(&first, &again));
        assert_eq!(DESCRIBED.with(Cell::get), 1);
        let (_, linear) = with_integer_sizes(IntegerSizes::Linear, || {
            resolve(&registered(describe_probe))
        });
        assert!(!Rc::ptr_eq(&first, &linear));
        assert_eq!(DESCRIBED.with(Cell::get), 2);
        // Another thread has its own registry.
        let elsewhere = std::thread::spawn(|| {
            let _ = resolve(&registered(describe_probe));
            DESCRIBED.with(Cell::get)
        });
        assert_eq!(elsewhere.join().unwrap(), 1);
    }
}

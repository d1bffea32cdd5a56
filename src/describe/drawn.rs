//! Drawn spaces: values a generator makes from a seed (a proptest strategy,
//! an `arbitrary::Arbitrary` type, any seeded function), for the parts of
//! an input a team already generates some other way.
//!
//! A drawn space is a leaf family of seeds ordered like a `u64` by bit
//! length (seed 0 has size 0, size `k + 1` holds the `2^k` seeds of `k + 1`
//! bits), each standing for the generator's value from that seed. So every
//! phase keeps working, on seeds: the exhaustive search tries the small
//! seeds (each one opaque value, read whole), the random phase draws seeds
//! by size and moves some to uniform ones (fresh draws of the generator),
//! shrinking lowers the seed, a replay key names the seed, counting and
//! indexing count seeds. What is given up is minimality *of the value*: a
//! smaller seed does not make a smaller value, which reports say
//! ([`LeafFamily::generator`]).

use super::leaf::LeafFamily;
use super::{leaf, Space, Value};
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive};
use std::any::Any;
use std::fmt::Debug;
use std::rc::Rc;

/// Seeds of 64 bits and what a generator makes of them.
struct Drawn<T> {
    name: String,
    make: Rc<dyn Fn(u64) -> T>,
}

impl<T: Debug + 'static> LeafFamily for Drawn<T> {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn count(&self, size: usize) -> BigUint {
        match size {
            0 => BigUint::one(),
            1..=64 => BigUint::one() << (size - 1),
            _ => BigUint::default(),
        }
    }
    fn last_size(&self) -> Option<usize> {
        Some(64)
    }
    fn value(&self, size: usize, index: &BigUint) -> Value {
        Box::new((self.make)(seed_at(size, index)))
    }
    fn debug_value(&self, value: &dyn Any) -> String {
        match value.downcast_ref::<T>() {
            Some(v) => format!("{v:?}"),
            None => format!("<a value of {}>", self.name),
        }
    }
    fn generator(&self) -> Option<String> {
        Some(self.name.clone())
    }
}

/// The seed number `index` of `size`: 0, then the seeds of `size` bits.
fn seed_at(size: usize, index: &BigUint) -> u64 {
    let index = index.to_u64().expect("a seed index below 2^63");
    match size {
        0 => 0,
        _ => (1u64 << (size - 1)) | index,
    }
}

/// Values made by `make` from a seed: an argument generated some other way
/// (a random generator, a fixture picked by number, a proptest strategy
/// through `from_strategy`, feature `proptest`; an `arbitrary` type through
/// `arbitrary`, feature `arbitrary`).
/// `name` says in reports where the values come from.
///
/// The search sees seeds, ordered like a `u64` by bit length, and the value
/// of each is one opaque leaf, read whole. Exhaustive search, counting,
/// indexing, replay and the random phase all work on seeds; shrinking
/// lowers the seed, which need not make the value smaller, so a failure
/// report names the generator and says that its minimality is the seed's.
/// `make` must be a function of the seed (the same value every time).
///
/// ```
/// use neatcheck::space;
///
/// // A fixture chosen by number: the first seeds are tried first.
/// const NAMES: [&str; 4] = ["ada", "grace", "barbara", "edsger"];
/// let fixture = || space::drawn("a fixture", |seed| NAMES[(seed % 4) as usize].to_string());
/// let first = neatcheck::Config::default()
///     .spaces(fixture)
///     .satisfying(|name: String| name.len() > 5)
///     .next();
/// assert_eq!(first.as_deref(), Some("barbara"));
/// ```
pub fn drawn<T: Debug + 'static>(name: &str, make: impl Fn(u64) -> T + 'static) -> Space<T> {
    leaf(Rc::new(Drawn {
        name: name.to_string(),
        make: Rc::new(make),
    }))
}

/// Values of a [`proptest`] strategy (feature `proptest`), one per seed (see
/// [`drawn`]): a team's existing strategy as an argument. The exhaustive
/// phases try the strategy's values for the small seeds, the random phase
/// fresh ones; proptest's own shrinking is not used (shrinking lowers the
/// seed), and a strategy that rejects every try for a seed panics with
/// proptest's reason.
///
/// ```
/// use neatcheck::space;
///
/// // A regular expression is a proptest strategy of strings.
/// let emails = || space::from_strategy("[a-z]{1,8}@[a-z]{1,8}\\.com");
/// let first = neatcheck::Config::default()
///     .spaces(emails)
///     .satisfying(|e: String| e.len() > 12)
///     .next();
/// assert!(first.unwrap().ends_with(".com"));
/// ```
#[cfg(feature = "proptest")]
pub fn from_strategy<S>(strategy: S) -> Space<S::Value>
where
    S: proptest::strategy::Strategy + 'static,
    S::Value: 'static,
{
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let name = format!("the proptest strategy {strategy:?}");
    drawn(&name.clone(), move |seed| {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &key);
        let mut runner = TestRunner::new_with_rng(Config::default(), rng);
        match strategy.new_tree(&mut runner) {
            Ok(tree) => tree.current(),
            Err(reason) => panic!("neatcheck: {name} made no value for seed {seed}: {reason}"),
        }
    })
}

/// Values of an [`arbitrary::Arbitrary`] type (feature `arbitrary`), one
/// per seed (see [`drawn`]): seed 0 decodes no bytes (the type's smallest
/// value, as `arbitrary` builds it), a seed of `k` bits decodes `4k`
/// pseudo-random bytes made from it, so larger sizes give larger values.
///
/// ```
/// use neatcheck::space;
///
/// let first = neatcheck::Config::default()
///     .spaces(space::arbitrary::<Vec<u16>>)
///     .satisfying(|w: Vec<u16>| w.len() >= 3)
///     .next();
/// assert!(first.unwrap().len() >= 3);
/// ```
#[cfg(feature = "arbitrary")]
pub fn arbitrary<T>() -> Space<T>
where
    T: for<'a> arbitrary::Arbitrary<'a> + Debug + 'static,
{
    use rand::{Rng, SeedableRng};
    let name = format!("arbitrary::<{}>", std::any::type_name::<T>());
    drawn(&name.clone(), move |seed| {
        let len = 4 * (64 - seed.leading_zeros()) as usize;
        let mut bytes = vec![0u8; len];
        rand::rngs::ChaCha8Rng::seed_from_u64(seed).fill_bytes(&mut bytes);
        T::arbitrary_take_rest(arbitrary::Unstructured::new(&bytes))
            .unwrap_or_else(|e| panic!("neatcheck: {name} made no value for seed {seed}: {e}"))
    })
}

//! What a property is: the [`Property`] trait over its forms (plain
//! values, lazy handles, a reference, a `Cool` formula), the input spaces
//! of [`crate::Config::spaces`], and the lazy precondition [`implies`].

use crate::cool::{Cool, Strategy};
use crate::describe::Space;
use crate::engine::{Outcome, RunResult, Searcher};
use crate::handle::Lazy;
use crate::record::{Counterexample, Summary};
use crate::Enumerable;

/// A lazy precondition: `prop` runs only when `pre` holds, so a
/// precondition that reads little prunes the search. Runs where it does not
/// hold are discarded: counted apart, never failures.
///
/// ```
/// use neatcheck::{implies, Lazy};
/// neatcheck::check(|xs: Lazy<Vec<bool>>| {
///     implies(!xs.is_empty(), || xs.first().is_some())
/// });
/// ```
pub fn implies<R: Outcome>(pre: bool, prop: impl FnOnce() -> R) -> RunResult {
    if pre {
        prop().into_result()
    } else {
        RunResult::Discarded
    }
}

/// A property over `T`, written as a closure over lazy handles or over
/// plain values, or a function returning a [`Cool`] formula (the marker
/// `M` tells the forms apart). Every search and check takes one.
///
/// Most implementations do not require `T: Enumerable` to be selected (the
/// method does): a closure over lazy handles, a reference or several plain
/// values of a type without a space is reported as that type lacking
/// `Enumerable`, not as a closure lacking `Property`. A closure over one
/// plain value or several lazy handles gets this trait's own message, which
/// says what a property takes and returns.
///
/// ```compile_fail
/// struct NotEnumerable(u8);
/// // error: this closure is not a property neatcheck can run ... every
/// // argument type needs a space ...
/// neatcheck::check(|x: NotEnumerable| x.0 < 3);
/// ```
///
/// ```compile_fail
/// struct NotEnumerable(u8);
/// // error: `NotEnumerable` is not `Enumerable` ...
/// neatcheck::check(|x: neatcheck::Lazy<NotEnumerable>| true);
/// ```
///
/// ```compile_fail
/// struct NotEnumerable(u8);
/// // error: `NotEnumerable` is not `Enumerable` ... required for
/// // `(u8, NotEnumerable)` to implement `Enumerable`
/// neatcheck::check(|x: u8, y: NotEnumerable| x < 3);
/// ```
///
/// ```compile_fail
/// // error: this closure is not a property neatcheck can run (it returns
/// // an `Option`, not an outcome)
/// neatcheck::check(|x: u8| Some(x < 3));
/// ```
#[diagnostic::on_unimplemented(
    message = "this closure is not a property neatcheck can run",
    label = "not a property",
    note = "a property takes plain values (`|x: T, y: U|`), one reference (`|x: &T|`) or lazy \
            handles (`|x: Lazy<T>, y: Lazy<U>|`) of `Enumerable` types, and returns `bool`, \
            `()`, `Result<(), E>` or `RunResult`; or it takes one lazy handle and returns a \
            `Cool` formula (a closure needs `neatcheck::cool::formula(|x| ...)`)",
    note = "every argument type needs a space: `#[derive(Enumerable)]`, or \
            `impl Enumerable` with `neatcheck::space`",
    note = "for `&str` or `&[T]`, take `String` or `Vec<T>` and borrow it: `|s: String| f(&s)`"
)]
pub trait Property<T, M> {
    /// Runs the property on a lazy input.
    fn run_lazy(&self, x: Lazy<'_, T>) -> RunResult
    where
        T: Enumerable;

    /// Runs the property on a searcher's next class (see
    /// [`Searcher::step`]); a [`Cool`] formula is evaluated under
    /// `strategy`, which other properties ignore.
    fn step(&self, s: &mut Searcher<T>, strategy: Strategy) -> Option<RunResult>
    where
        T: Enumerable,
    {
        let _ = strategy;
        s.step(|x| self.run_lazy(x))
    }

    /// What a passing check must also satisfy: each string is a problem
    /// that fails it (a state machine: a command that never ran). None by
    /// default.
    fn problems(&self, summary: &Summary) -> Vec<String> {
        let _ = summary;
        vec![]
    }

    /// What a failing check's report adds after the counterexample (a
    /// state machine: the model after each step). Nothing by default.
    fn explain(&self, failure: &Counterexample<T>) -> String {
        let _ = failure;
        String::new()
    }
}

/// Marker: a closure over one lazy handle.
#[derive(Debug)]
pub struct LazyArg;
/// Marker: a closure over plain values.
#[derive(Debug)]
pub struct PlainArgs;
/// Marker: a closure over lazy handles of several arguments.
#[derive(Debug)]
pub struct LazyArgs;
/// Marker: a closure over a plain reference.
#[derive(Debug)]
pub struct PlainRef;
/// Marker: a closure over one plain value.
#[derive(Debug)]
pub struct PlainArg;
/// Marker: a function from one lazy handle to a [`Cool`] formula.
#[derive(Debug)]
pub struct Formula;

// The one-argument plain form keeps `T: Enumerable` in its header: with a
// weaker bound a closure over `&U` would match it (as `T = &U`) as well as
// the reference form. The multi-argument plain forms bound their arguments
// by `Send` instead (which every checked input is, and a `Lazy` handle is
// not): a closure over a type without a space then selects them and is
// reported as that type lacking `Enumerable`.
impl<T: Enumerable, R: Outcome, F: Fn(T) -> R> Property<T, PlainArg> for F {
    fn run_lazy(&self, x: Lazy<'_, T>) -> RunResult
    where
        T: Enumerable,
    {
        self(x.force()).into_result()
    }
}

impl<T, R: Outcome, F: Fn(Lazy<'_, T>) -> R> Property<T, LazyArg> for F {
    fn run_lazy(&self, x: Lazy<'_, T>) -> RunResult
    where
        T: Enumerable,
    {
        self(x).into_result()
    }
}

impl<T, R: Outcome, F: Fn(&T) -> R> Property<T, PlainRef> for F {
    fn run_lazy(&self, x: Lazy<'_, T>) -> RunResult
    where
        T: Enumerable,
    {
        self(&x.force()).into_result()
    }
}

impl<T, F> Property<T, Formula> for F
where
    F: for<'a> Fn(Lazy<'a, T>) -> Cool<'a>,
{
    fn run_lazy(&self, x: Lazy<'_, T>) -> RunResult
    where
        T: Enumerable,
    {
        self(x).eval().into_result()
    }

    fn step(&self, s: &mut Searcher<T>, strategy: Strategy) -> Option<RunResult>
    where
        T: Enumerable,
    {
        s.step_cool(strategy, self)
    }
}

macro_rules! plain_and_lazy_args {
    ($($name:ident : $idx:tt),+) => {
        impl<$($name: Send,)+ R: Outcome, F: Fn($($name),+) -> R>
            Property<($($name,)+), PlainArgs> for F
        {
            fn run_lazy(&self, x: Lazy<'_, ($($name,)+)>) -> RunResult
            where
                ($($name,)+): Enumerable,
            {
                let v = x.force();
                self($(v.$idx),+).into_result()
            }
        }
        impl<$($name: Enumerable,)+ R: Outcome, F: Fn($(Lazy<'_, $name>),+) -> R>
            Property<($($name,)+), LazyArgs> for F
        {
            fn run_lazy(&self, x: Lazy<'_, ($($name,)+)>) -> RunResult {
                // The arguments' tuple node, read without the check that it
                // holds the tuple type's own space: `check_in` gives a
                // tuple of other spaces, one position per argument all the
                // same.
                let first = x.read_node().first_field();
                self($(x.field_at::<$name>(first, $idx)),+).into_result()
            }
        }
    };
}
plain_and_lazy_args!(A: 0, B: 1);
plain_and_lazy_args!(A: 0, B: 1, C: 2);
plain_and_lazy_args!(A: 0, B: 1, C: 2, D: 3);
plain_and_lazy_args!(A: 0, B: 1, C: 2, D: 3, E: 4);
// Names skip `F` and `R`, the macro's closure and result parameters.
plain_and_lazy_args!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5);
plain_and_lazy_args!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6);
plain_and_lazy_args!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6, I: 7);
plain_and_lazy_args!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6, I: 7, J: 8);
plain_and_lazy_args!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6, I: 7, J: 8, K: 9);
plain_and_lazy_args!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6, I: 7, J: 8, K: 9, L: 10);
plain_and_lazy_args!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6, I: 7, J: 8, K: 9, L: 10, M: 11);

/// The input spaces of [`Config::spaces`](crate::Config::spaces): a [`Space`] of the whole input, or a
/// tuple of spaces, one per argument of the property.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not describe the arguments of a property",
    note = "give a `Space<T>` of the input, or a tuple of spaces, one per argument: \
            `|| (space::range(0, 9, |x| x), space::of::<Vec<u8>>())`"
)]
pub trait Spaces<T> {
    /// The space of the whole input.
    fn into_space(self) -> Space<T>;
}

impl<T> Spaces<T> for Space<T> {
    fn into_space(self) -> Space<T> {
        self
    }
}

macro_rules! spaces_tuple {
    ($($name:ident : $idx:tt),+) => {
        impl<$($name: 'static),+> Spaces<($($name,)+)> for ($(Space<$name>,)+) {
            fn into_space(self) -> Space<($($name,)+)> {
                crate::describe::with_shape(
                    crate::describe::Shape::Tuple,
                    crate::describe::product_with(
                        vec![$(crate::describe::field_with(self.$idx)),+],
                        |f| ($(f.take::<$name>(),)+),
                    ),
                )
            }
        }
    };
}
spaces_tuple!(A: 0, B: 1);
spaces_tuple!(A: 0, B: 1, C: 2);
spaces_tuple!(A: 0, B: 1, C: 2, D: 3);
spaces_tuple!(A: 0, B: 1, C: 2, D: 3, E: 4);
spaces_tuple!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5);
spaces_tuple!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6);
spaces_tuple!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6, I: 7);
spaces_tuple!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6, I: 7, J: 8);
spaces_tuple!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6, I: 7, J: 8, K: 9);
spaces_tuple!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6, I: 7, J: 8, K: 9, L: 10);
spaces_tuple!(A: 0, B: 1, C: 2, D: 3, E: 4, G: 5, H: 6, I: 7, J: 8, K: 9, L: 10, M: 11);

//! Conveniences for hand-written spaces: naming an alternative for reports
//! ([`ctor`]), and the registry of `Debug` printers through which reports
//! print complete values whose alternatives carry no name.

use super::{with_shape, Shape, Space};
use std::any::{Any, TypeId};
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Debug;
use std::sync::{LazyLock, RwLock};

/// Names the alternatives of `s` for reports: a value built by it prints as
/// `name(fields...)` instead of `#index(...)`. It does not change what is
/// enumerated (it is [`with_shape`] with a tuple-like constructor shape).
///
/// ```
/// use neatcheck::space::{self, Space};
/// use neatcheck::Enumerable;
///
/// #[derive(Clone, Debug, PartialEq)]
/// enum Int { Pos(u8), Neg(u8) }
///
/// impl Enumerable for Int {
///     fn describe() -> Space<Self> {
///         space::union(vec![
///             space::ctor("Pos", space::map(space::of::<u8>(), Int::Pos)),
///             space::ctor("Neg", space::map(space::of::<u8>(), Int::Neg)),
///         ])
///     }
/// }
/// assert_eq!(neatcheck::count::count_of::<Int>(0), 2u32.into());
/// ```
pub fn ctor<T: 'static>(name: impl Into<Cow<'static, str>>, s: Space<T>) -> Space<T> {
    with_shape(
        Shape::Ctor {
            name: name.into(),
            fields: None,
        },
        s,
    )
}

type Printer = fn(&dyn Any) -> Option<String>;

static PRINTERS: LazyLock<RwLock<HashMap<TypeId, Printer>>> =
    LazyLock::new(|| RwLock::new(HashMap::new()));

fn print_as<T: Debug + 'static>(v: &dyn Any) -> Option<String> {
    v.downcast_ref::<T>().map(|x| format!("{x:?}"))
}

/// Registers `T`'s `Debug` text as the way reports print complete values of
/// type `T` whose alternatives have no constructor name. Checks register
/// their input type and derived types their own and their fields' types; a
/// hand-written `describe` can call it for its own type (or name its
/// alternatives with [`ctor`]).
pub fn show_with_debug<T: Debug + 'static>() {
    let id = TypeId::of::<T>();
    if PRINTERS.read().is_ok_and(|m| m.contains_key(&id)) {
        return;
    }
    if let Ok(mut m) = PRINTERS.write() {
        m.insert(id, print_as::<T>);
    }
}

/// The `Debug` text of a value whose type registered one.
pub(crate) fn debug_text(v: &dyn Any) -> Option<String> {
    let printer = *PRINTERS.read().ok()?.get(&v.type_id())?;
    printer(v)
}

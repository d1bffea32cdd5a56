//! Datatypes declared at run time, and the dynamic value API over them.
//!
//! This module owns everything an interpreter for another language needs to
//! search that language's algebraic datatypes: a builder ([`DataTypes`]) in
//! which datatypes are declared by name (constructors with field types,
//! possibly mutually recursive), the resulting [`Universe`] that hands out a
//! [`Space<DynValue>`] for every declared datatype, the plain run-time value
//! [`DynValue`], and lazy access to positions of the value under search
//! (`Lazy<DynValue>`: constructor by index and name, fields by index), which
//! records demand exactly as the views of derived types do.
//!
//! A declared datatype's space is built like a derived one: one `pay` around
//! the union of its constructors in declaration order, every field one
//! position, references to datatypes shared (one sort per datatype and
//! universe). So sizes, the search order and run counts are those of the
//! equivalent `#[derive(Enumerable)]` Rust type:
//!
//! ```
//! use neatcheck::dynamic::{DataTypes, DynValue};
//! use neatcheck::search::{RunResult, Searcher};
//! use neatcheck::Lazy;
//!
//! let mut types = DataTypes::new();
//! types.data("Nat").ctor("Z", &[]).ctor("S", &["Nat"]);
//! types.data("List").ctor("Nil", &[]).ctor("Cons", &["Nat", "List"]);
//! let universe = types.build().unwrap();
//!
//! // Lists whose first element is not zero.
//! fn starts_nonzero(xs: Lazy<'_, DynValue>) -> bool {
//!     let cell = xs.view();
//!     cell.name == "Cons" && cell.field(0).constructor().1 == "S"
//! }
//! let mut s = Searcher::with_space(&universe.space("List").unwrap(), 4);
//! let mut found = vec![];
//! while let Some(r) = s.step(starts_nonzero) {
//!     if r == RunResult::True {
//!         found.push(format!("{:?}", s.value()));
//!     }
//! }
//! assert_eq!(found, ["Cons(S(Z), Nil)"]);
//! // One run per class: Nil, Cons(Z, _), Cons(S(Z), Nil) (Cons(S(S(Z)), Nil)
//! // has size 5, over the bound).
//! assert_eq!(s.stats().runs, 3);
//! ```

use crate::describe::{
    dyn_ref, map, pay, position, product_with, range, union, with_shape, Fields, RawSpace, Shape,
    Space, Value,
};
use crate::grammar::{compile_space, Grammar};
use crate::handle::{materialize, Lazy, Node};
use crate::types::of;
use std::any::TypeId;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

use std::sync::Arc;

// ---------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------

/// A plain (materialised) value of a run-time datatype or of a builtin.
///
/// Printed like a derived Rust value (`Cons(S(Z), Nil)`, `true`, `5`),
/// which is also how search reports print it.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum DynValue {
    /// A constructor of a declared datatype with its fields.
    Data {
        /// The constructor's declaration index within its datatype.
        index: usize,
        /// The constructor's name.
        name: Arc<str>,
        /// The field values, in declaration order.
        fields: Vec<DynValue>,
    },
    /// A value of the builtin `Bool`.
    Bool(bool),
    /// A value of the builtin `Nat` (a natural by bit length).
    Nat(u64),
    /// A value of a builtin integer range (`lo..=hi`) or of the builtin
    /// `Int`.
    Int(i64),
    /// A value of the builtin `Char` (any Unicode scalar value).
    Char(char),
    /// A value of the builtin `String` (a list of `Char`s).
    Str(String),
}

impl DynValue {
    /// A constructor value (no checks; see [`Universe::value`] for a
    /// checked constructor).
    pub fn data(index: usize, name: &str, fields: Vec<DynValue>) -> DynValue {
        DynValue::Data {
            index,
            name: Arc::from(name),
            fields,
        }
    }

    /// The constructor (declaration index and name) of a datatype value;
    /// `None` for builtins.
    pub fn constructor(&self) -> Option<(usize, &str)> {
        match self {
            DynValue::Data { index, name, .. } => Some((*index, name)),
            _ => None,
        }
    }

    /// The fields of a datatype value (empty for builtins).
    pub fn fields(&self) -> &[DynValue] {
        match self {
            DynValue::Data { fields, .. } => fields,
            _ => &[],
        }
    }

    /// The boolean, if this is a `Bool`.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            DynValue::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The natural, if this is a `Nat`.
    pub fn as_nat(&self) -> Option<u64> {
        match self {
            DynValue::Nat(n) => Some(*n),
            _ => None,
        }
    }

    /// The integer, if this is a value of a range or an `Int`.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            DynValue::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The character, if this is a `Char`.
    pub fn as_char(&self) -> Option<char> {
        match self {
            DynValue::Char(c) => Some(*c),
            _ => None,
        }
    }

    /// The text, if this is a `String`.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            DynValue::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Converts a value built by a space's build program.
    fn from_built(v: Value) -> DynValue {
        let v = match v.downcast::<DynValue>() {
            Ok(d) => return *d,
            Err(v) => v,
        };
        let v = match v.downcast::<bool>() {
            Ok(b) => return DynValue::Bool(*b),
            Err(v) => v,
        };
        let v = match v.downcast::<u64>() {
            Ok(n) => return DynValue::Nat(*n),
            Err(v) => v,
        };
        let v = match v.downcast::<i64>() {
            Ok(i) => return DynValue::Int(*i),
            Err(v) => v,
        };
        let v = match v.downcast::<char>() {
            Ok(c) => return DynValue::Char(*c),
            Err(v) => v,
        };
        // A `String` position is a list of `char`s: the value built at
        // one is its cells' `Vec<char>`.
        let v = match v.downcast::<Vec<char>>() {
            Ok(cs) => return DynValue::Str(cs.into_iter().collect()),
            Err(v) => v,
        };
        match v.downcast::<String>() {
            Ok(s) => DynValue::Str(*s),
            Err(_) => panic!("neatcheck: a dynamic position holds a value of a foreign space"),
        }
    }
}

impl fmt::Debug for DynValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Iterative: values can be deeper than the stack.
        enum Task<'v> {
            Value(&'v DynValue),
            Text(&'static str),
        }
        let mut tasks = vec![Task::Value(self)];
        while let Some(task) = tasks.pop() {
            match task {
                Task::Text(t) => f.write_str(t)?,
                Task::Value(DynValue::Bool(b)) => write!(f, "{b}")?,
                Task::Value(DynValue::Nat(n)) => write!(f, "{n}")?,
                Task::Value(DynValue::Int(i)) => write!(f, "{i}")?,
                Task::Value(DynValue::Char(c)) => write!(f, "{c:?}")?,
                Task::Value(DynValue::Str(s)) => write!(f, "{s:?}")?,
                Task::Value(DynValue::Data { name, fields, .. }) => {
                    f.write_str(name)?;
                    if !fields.is_empty() {
                        f.write_str("(")?;
                        tasks.push(Task::Text(")"));
                        for (i, x) in fields.iter().enumerate().rev() {
                            tasks.push(Task::Value(x));
                            if i > 0 {
                                tasks.push(Task::Text(", "));
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

impl fmt::Display for DynValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

// ---------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------

/// The type of a constructor's field.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FieldType {
    /// A declared datatype (of the same universe), by name.
    Data(String),
    /// The builtin booleans: `false | true`, each of size 1 (Rust's `bool`).
    Bool,
    /// The builtin naturals by bit length (Rust's `u64`): 0 has size 0 and
    /// size `k + 1` holds `2^k ..= 2^(k+1) - 1`.
    Nat,
    /// The integers `lo..=hi`, each of size 1 (like `space::range`).
    Range(i64, i64),
    /// All the integers (Rust's `i64`), sized like Rust's `i64` under the
    /// search's integer sizes ([`crate::Config::integer_sizes`]: by bit
    /// length by default, `|n|` linearly). Read with [`Lazy::get_int`];
    /// its values are [`DynValue::Int`].
    Int,
    /// The Unicode scalar values, sized like Rust's `char` (by bit length
    /// of the code point: NUL has size 0, `'a'` size 7), read whole as an
    /// atom with [`Lazy::get_char`]; its values are [`DynValue::Char`].
    Char,
    /// Lists of `Char`s, sized like Rust's `String` (1 for the empty list,
    /// each character its own size plus 1). Read cell by cell with
    /// [`Lazy::view`] (constructors `Nil` and `Cons`, fields a `Char` and
    /// the rest, a `String`) or whole with [`Lazy::force_dyn`]; its values
    /// are [`DynValue::Str`].
    String,
}

impl fmt::Display for FieldType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldType::Data(name) => f.write_str(name),
            FieldType::Bool => f.write_str("Bool"),
            FieldType::Nat => f.write_str("Nat"),
            FieldType::Range(lo, hi) => write!(f, "{lo}..={hi}"),
            FieldType::Int => f.write_str("Int"),
            FieldType::Char => f.write_str("Char"),
            FieldType::String => f.write_str("String"),
        }
    }
}

/// A constructor of a declared datatype.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstructorDecl {
    /// The constructor's name (unique in its universe).
    pub name: String,
    /// The types of its fields, in order.
    pub fields: Vec<FieldType>,
}

/// A datatype declared at run time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Datatype {
    /// The datatype's name (unique in its universe).
    pub name: String,
    /// Its constructors, in declaration order (the order of indices).
    pub constructors: Vec<ConstructorDecl>,
}

impl Datatype {
    /// The declaration index of a constructor, by name.
    pub fn constructor_index(&self, name: &str) -> Option<usize> {
        self.constructors.iter().position(|c| c.name == name)
    }
}

impl fmt::Display for Datatype {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "data {} =", self.name)?;
        for (i, c) in self.constructors.iter().enumerate() {
            f.write_str(if i == 0 { " " } else { " | " })?;
            f.write_str(&c.name)?;
            for t in &c.fields {
                write!(f, " {t}")?;
            }
        }
        Ok(())
    }
}

/// What went wrong in a declaration or a look-up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DynError {
    /// A datatype or constructor name that is empty or contains white
    /// space, parentheses or commas.
    InvalidName {
        /// The offending name.
        name: String,
    },
    /// Two datatypes with the same name.
    DuplicateType {
        /// The datatype's name.
        name: String,
    },
    /// Two constructors with the same name (in one datatype or in two).
    DuplicateConstructor {
        /// The constructor's name.
        name: String,
        /// The datatype of its first declaration.
        first: String,
        /// The datatype of its second declaration.
        second: String,
    },
    /// A field type that is neither a declared datatype nor a builtin.
    UnknownType {
        /// The unknown type name.
        name: String,
        /// The datatype of the field.
        datatype: String,
        /// The constructor of the field.
        constructor: String,
        /// The field's index.
        field: usize,
    },
    /// A range field type without values (`3..=1`).
    EmptyRange {
        /// The range as written.
        text: String,
        /// The datatype of the field.
        datatype: String,
        /// The constructor of the field.
        constructor: String,
    },
    /// A look-up of a datatype that was not declared.
    NoSuchType {
        /// The name looked up.
        name: String,
    },
    /// A look-up of a constructor that was not declared.
    NoSuchConstructor {
        /// The name looked up.
        name: String,
    },
    /// A constructor applied to the wrong number or types of fields.
    BadFields {
        /// The constructor.
        constructor: String,
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for DynError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DynError::InvalidName { name } => write!(
                f,
                "invalid name `{name}`: names must be non-empty, without white space, \
                 parentheses or commas"
            ),
            DynError::DuplicateType { name } => {
                write!(f, "datatype `{name}` is declared twice")
            }
            DynError::DuplicateConstructor {
                name,
                first,
                second,
            } if first == second => {
                write!(
                    f,
                    "constructor `{name}` is declared twice in datatype `{first}`"
                )
            }
            DynError::DuplicateConstructor {
                name,
                first,
                second,
            } => write!(
                f,
                "constructor `{name}` is declared in datatype `{first}` and again in \
                 datatype `{second}` (constructor names must be unique)"
            ),
            DynError::UnknownType {
                name,
                datatype,
                constructor,
                field,
            } => write!(
                f,
                "unknown type `{name}` in field {field} of constructor `{constructor}` of \
                 datatype `{datatype}` (a field type is a declared datatype, `Bool`, `Nat`, \
                 `Int`, `Char`, `String` or a range `lo..=hi`)"
            ),
            DynError::EmptyRange {
                text,
                datatype,
                constructor,
            } => write!(
                f,
                "the range `{text}` in constructor `{constructor}` of datatype `{datatype}` \
                 has no values"
            ),
            DynError::NoSuchType { name } => write!(f, "no datatype `{name}` is declared"),
            DynError::NoSuchConstructor { name } => {
                write!(f, "no constructor `{name}` is declared")
            }
            DynError::BadFields {
                constructor,
                reason,
            } => write!(f, "bad fields for constructor `{constructor}`: {reason}"),
        }
    }
}

impl std::error::Error for DynError {}

#[derive(Clone, Debug)]
struct PendingData {
    name: String,
    /// Each constructor: its name, field types and size.
    ctors: Vec<(String, Vec<String>, u32)>,
}

/// A builder of run-time datatypes: declare them (in any order, mutually
/// recursive if need be), then [`DataTypes::build`] a [`Universe`].
///
/// Field types are written as text: the name of a datatype declared in the
/// same builder, or a builtin: `Bool`, `Nat` (naturals by bit length),
/// `Int` (all the integers, sized like `i64`), `Char` (sized like `char`),
/// `String` (a list of `Char`s, sized like Rust's `String`) or an integer
/// range `lo..=hi` (also `lo..hi`). A declared datatype shadows
/// a builtin of the same name (so `data Nat = Z | S Nat` is the Peano
/// naturals). A recursive datatype without a base case is simply empty.
///
/// ```
/// use neatcheck::dynamic::DataTypes;
/// let mut types = DataTypes::new();
/// types.data("Tree").ctor("Leaf", &[]).ctor("Node", &["Tree", "Nat", "Tree"]);
/// let u = types.build().unwrap();
/// // Size 1: Leaf. Size 3: Node(Leaf, 0, Leaf) (the builtin 0 has size 0).
/// // Size 4: Node(Leaf, 1, Leaf).
/// let g = u.grammar("Tree").unwrap();
/// assert_eq!(g.count(1), 1u32.into());
/// assert_eq!(g.count(2), 0u32.into());
/// assert_eq!(g.count(3), 1u32.into());
/// assert_eq!(g.count(4), 1u32.into());
///
/// // Errors name the culprit:
/// let mut bad = DataTypes::new();
/// bad.data("List").ctor("Nil", &[]).ctor("Cons", &["Nat", "Lsit"]);
/// assert!(bad.build().unwrap_err().to_string().starts_with(
///     "unknown type `Lsit` in field 1 of constructor `Cons` of datatype `List`"
/// ));
/// ```
#[derive(Clone, Debug, Default)]
pub struct DataTypes {
    decls: Vec<PendingData>,
}

/// Adds constructors to a datatype being declared (see [`DataTypes::data`]).
#[derive(Debug)]
pub struct DataBuilder<'d> {
    types: &'d mut DataTypes,
    index: usize,
}

impl DataBuilder<'_> {
    /// Adds a constructor with the given field types (see [`DataTypes`]
    /// for how field types are written).
    pub fn ctor(self, name: &str, fields: &[&str]) -> Self {
        self.ctor_of_size(name, fields, 1)
    }

    /// Adds a constructor that adds `size` to a value's size instead of 1
    /// (0: a constructor that costs nothing, as a function's skip does
    /// in the TIP front end). A recursive cycle must still cost something:
    /// one that costs 0 is reported by [`DataTypes::build`]'s spaces when
    /// first used, as for any space.
    pub fn ctor_of_size(self, name: &str, fields: &[&str], size: u32) -> Self {
        self.types.decls[self.index].ctors.push((
            name.to_string(),
            fields.iter().map(|f| f.to_string()).collect(),
            size,
        ));
        self
    }
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && !name
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '(' | ')' | ','))
}

/// Parses `lo..=hi` or `lo..hi`.
fn parse_range(text: &str) -> Option<(i64, i64)> {
    let (lo, hi, inclusive) = if let Some((lo, hi)) = text.split_once("..=") {
        (lo, hi, true)
    } else {
        let (lo, hi) = text.split_once("..")?;
        (lo, hi, false)
    };
    let lo: i64 = lo.trim().parse().ok()?;
    let hi: i64 = hi.trim().parse().ok()?;
    if inclusive {
        Some((lo, hi))
    } else {
        Some((lo, hi.checked_sub(1)?))
    }
}

impl DataTypes {
    /// An empty set of declarations.
    pub fn new() -> Self {
        DataTypes::default()
    }

    /// Declares a datatype; add its constructors with [`DataBuilder::ctor`]
    /// (none: the datatype is empty).
    pub fn data(&mut self, name: &str) -> DataBuilder<'_> {
        self.decls.push(PendingData {
            name: name.to_string(),
            ctors: vec![],
        });
        let index = self.decls.len() - 1;
        DataBuilder { types: self, index }
    }

    /// Checks the declarations and builds the universe. Reports the first
    /// problem in declaration order.
    pub fn build(&self) -> Result<Universe, DynError> {
        let mut by_name: HashMap<String, usize> = HashMap::new();
        for (i, d) in self.decls.iter().enumerate() {
            if !valid_name(&d.name) {
                return Err(DynError::InvalidName {
                    name: d.name.clone(),
                });
            }
            if by_name.insert(d.name.clone(), i).is_some() {
                return Err(DynError::DuplicateType {
                    name: d.name.clone(),
                });
            }
        }
        let mut ctors: HashMap<String, (usize, usize)> = HashMap::new();
        let mut types = Vec::with_capacity(self.decls.len());
        let mut resolved = Vec::with_capacity(self.decls.len());
        for (i, d) in self.decls.iter().enumerate() {
            let mut decls = vec![];
            let mut tys = vec![];
            for (k, (cname, fields, size)) in d.ctors.iter().enumerate() {
                if !valid_name(cname) {
                    return Err(DynError::InvalidName {
                        name: cname.clone(),
                    });
                }
                if let Some(&(j, _)) = ctors.get(cname) {
                    return Err(DynError::DuplicateConstructor {
                        name: cname.clone(),
                        first: self.decls[j].name.clone(),
                        second: d.name.clone(),
                    });
                }
                ctors.insert(cname.clone(), (i, k));
                let mut ftypes = vec![];
                let mut ftys = vec![];
                for (fi, text) in fields.iter().enumerate() {
                    let text = text.trim();
                    let (ft, ty) = if let Some(&j) = by_name.get(text) {
                        (FieldType::Data(text.to_string()), Ty::Data(j))
                    } else if text == "Bool" {
                        (FieldType::Bool, Ty::Bool)
                    } else if text == "Nat" {
                        (FieldType::Nat, Ty::Nat)
                    } else if text == "Int" {
                        (FieldType::Int, Ty::Int)
                    } else if text == "Char" {
                        (FieldType::Char, Ty::Char)
                    } else if text == "String" {
                        (FieldType::String, Ty::Str)
                    } else if let Some((lo, hi)) = parse_range(text) {
                        if hi < lo {
                            return Err(DynError::EmptyRange {
                                text: text.to_string(),
                                datatype: d.name.clone(),
                                constructor: cname.clone(),
                            });
                        }
                        (FieldType::Range(lo, hi), Ty::Range(lo, hi))
                    } else {
                        return Err(DynError::UnknownType {
                            name: text.to_string(),
                            datatype: d.name.clone(),
                            constructor: cname.clone(),
                            field: fi,
                        });
                    };
                    ftypes.push(ft);
                    ftys.push(ty);
                }
                decls.push(ConstructorDecl {
                    name: cname.clone(),
                    fields: ftypes,
                });
                tys.push((Arc::<str>::from(cname.as_str()), ftys, *size));
            }
            types.push(Datatype {
                name: d.name.clone(),
                constructors: decls,
            });
            resolved.push(tys);
        }
        let base_key = crate::describe::fresh_keys(types.len().max(1) as u64);
        Ok(Universe {
            inner: Rc::new(Inner {
                base_key,
                types,
                resolved,
                by_name,
                ctors,
                ranges: RefCell::new(HashMap::new()),
            }),
        })
    }
}

/// A resolved field type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Data(usize),
    Bool,
    Nat,
    Range(i64, i64),
    Int,
    Char,
    Str,
}

/// A constructor's name, resolved field types and size.
type ResolvedCtor = (Arc<str>, Vec<Ty>, u32);

struct Inner {
    base_key: u64,
    types: Vec<Datatype>,
    /// Per datatype, per constructor: its name, resolved field types and
    /// size.
    resolved: Vec<Vec<ResolvedCtor>>,
    by_name: HashMap<String, usize>,
    /// Constructor name -> (datatype, declaration index).
    ctors: HashMap<String, (usize, usize)>,
    /// One leaf space per range, so that equal ranges share a sort.
    ranges: RefCell<HashMap<(i64, i64), Space<i64>>>,
}

/// A set of datatypes declared at run time (built by [`DataTypes`]).
/// Cheap to clone; spaces of one universe share their datatypes' sorts.
#[derive(Clone)]
pub struct Universe {
    inner: Rc<Inner>,
}

impl fmt::Debug for Universe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.inner.types.iter().map(|t| t.to_string()))
            .finish()
    }
}

impl Universe {
    /// The declared datatypes, in declaration order.
    pub fn datatypes(&self) -> &[Datatype] {
        &self.inner.types
    }

    /// A declared datatype, by name.
    pub fn datatype(&self, name: &str) -> Option<&Datatype> {
        self.inner.by_name.get(name).map(|&i| &self.inner.types[i])
    }

    /// A constructor by name: its datatype and declaration index.
    pub fn constructor(&self, name: &str) -> Option<(&Datatype, usize)> {
        self.inner
            .ctors
            .get(name)
            .map(|&(t, k)| (&self.inner.types[t], k))
    }

    /// The space of a declared datatype: one `pay` around the union of its
    /// constructors in declaration order, exactly like a derived type.
    pub fn space(&self, name: &str) -> Result<Space<DynValue>, DynError> {
        match self.inner.by_name.get(name) {
            Some(&i) => Ok(space_of(&self.inner, i)),
            None => Err(DynError::NoSuchType {
                name: name.to_string(),
            }),
        }
    }

    /// The compiled space of a declared datatype (for counting, and for
    /// [`crate::search::Searcher::from_grammar`] at several bounds without
    /// compiling again).
    pub fn grammar(&self, name: &str) -> Result<Rc<Grammar>, DynError> {
        Ok(compile_space(&self.space(name)?))
    }

    /// A checked constructor value: the constructor must exist and the
    /// fields must have its field types (checked one level deep, so values
    /// built only with this function are well typed all the way down).
    pub fn value(&self, constructor: &str, fields: Vec<DynValue>) -> Result<DynValue, DynError> {
        let &(t, k) =
            self.inner
                .ctors
                .get(constructor)
                .ok_or_else(|| DynError::NoSuchConstructor {
                    name: constructor.to_string(),
                })?;
        let (name, tys, _) = &self.inner.resolved[t][k];
        let bad = |reason: String| DynError::BadFields {
            constructor: constructor.to_string(),
            reason,
        };
        if fields.len() != tys.len() {
            return Err(bad(format!(
                "it has {} field(s), {} given",
                tys.len(),
                fields.len()
            )));
        }
        for (i, (v, ty)) in fields.iter().zip(tys).enumerate() {
            let ok = match (ty, v) {
                (Ty::Data(d), DynValue::Data { index, name, .. }) => {
                    self.inner.ctors.get(&**name) == Some(&(*d, *index))
                }
                (Ty::Bool, DynValue::Bool(_)) | (Ty::Nat, DynValue::Nat(_)) => true,
                (Ty::Range(lo, hi), DynValue::Int(x)) => lo <= x && x <= hi,
                (Ty::Int, DynValue::Int(_))
                | (Ty::Char, DynValue::Char(_))
                | (Ty::Str, DynValue::Str(_)) => true,
                _ => false,
            };
            if !ok {
                return Err(bad(format!(
                    "field {i} should be a `{}`, not `{v:?}`",
                    self.inner.types[t].constructors[k].fields[i]
                )));
            }
        }
        Ok(DynValue::Data {
            index: k,
            name: name.clone(),
            fields,
        })
    }
}

/// The shared (referenced) space of datatype `i`.
fn space_of(inner: &Rc<Inner>, i: usize) -> Space<DynValue> {
    let keep = inner.clone();
    dyn_ref(
        inner.base_key + i as u64,
        inner.types[i].name.clone(),
        Rc::new(move || define(&keep, i)),
    )
}

/// The definition of datatype `i`: the union of its constructors, each
/// paid for (`pay` around the union when each costs 1, as derived types).
fn define(inner: &Rc<Inner>, i: usize) -> Space<DynValue> {
    let ctors = inner.resolved[i]
        .iter()
        .enumerate()
        .map(|(index, (name, tys, size))| {
            let fields: Vec<RawSpace> = tys.iter().map(|&ty| field_space(inner, ty)).collect();
            let arity = tys.len();
            let shown = Shape::Ctor {
                name: Cow::Owned(name.to_string()),
                fields: None,
            };
            let name = name.clone();
            let mut ctor = with_shape(
                shown,
                product_with(fields, move |f: &mut Fields<'_>| DynValue::Data {
                    index,
                    name: name.clone(),
                    fields: (0..arity).map(|_| f.take::<DynValue>()).collect(),
                }),
            );
            for _ in 0..*size {
                ctor = pay(ctor);
            }
            ctor
        })
        .collect();
    union(ctors)
}

/// The space of one field: exactly one position, as in a derived type
/// (`Bool`, `Nat`, `Int`, `Char` and `String` are the very positions of
/// Rust's `bool`, `u64`, `i64`, `char` and `String`).
fn field_space(inner: &Rc<Inner>, ty: Ty) -> RawSpace {
    match ty {
        Ty::Data(j) => space_of(inner, j).erase(),
        Ty::Bool => map(of::<bool>(), DynValue::Bool).erase(),
        Ty::Nat => map(of::<u64>(), DynValue::Nat).erase(),
        Ty::Int => map(of::<i64>(), DynValue::Int).erase(),
        Ty::Char => map(of::<char>(), DynValue::Char).erase(),
        Ty::Str => map(of::<String>(), DynValue::Str).erase(),
        Ty::Range(lo, hi) => {
            let leaf = inner
                .ranges
                .borrow_mut()
                .entry((lo, hi))
                .or_insert_with(|| position(range(lo, hi, |x| x)))
                .clone();
            map(leaf, DynValue::Int).erase()
        }
    }
}

// ---------------------------------------------------------------------------
// Lazy access
// ---------------------------------------------------------------------------

/// The constructor read at a lazy position of a run-time datatype (or of
/// the builtin `Bool`: `false`/`true`, indices 0 and 1; or a cell of the
/// builtin `String`: `Nil`/`Cons`, indices 0 and 1), with handles to its
/// fields. Obtained with [`Lazy::view`] on a `Lazy<DynValue>`.
#[derive(Clone, Copy)]
pub struct DynView<'a> {
    /// The constructor's declaration index.
    pub index: usize,
    /// The constructor's name.
    pub name: &'a str,
    first: u32,
    arity: u32,
    at: Lazy<'a, DynValue>,
}

impl<'a> DynView<'a> {
    /// The number of fields.
    pub fn arity(&self) -> usize {
        self.arity as usize
    }

    /// The handle of field `i` (reads nothing).
    ///
    /// # Panics
    /// If the constructor has no field `i`.
    pub fn field(&self, i: usize) -> Lazy<'a, DynValue> {
        assert!(
            i < self.arity as usize,
            "neatcheck: constructor `{}` has {} field(s), no field {i}",
            self.name,
            self.arity
        );
        self.at.field_at(self.first, i as u32)
    }

    /// The handles of all fields, in order (reads nothing).
    pub fn fields(&self) -> impl Iterator<Item = Lazy<'a, DynValue>> + 'a {
        let (at, first) = (self.at, self.first);
        (0..self.arity).map(move |i| at.field_at(first, i))
    }
}

impl fmt::Debug for DynView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)?;
        if self.arity > 0 {
            f.write_str("(")?;
            for i in 0..self.arity {
                f.write_str(if i == 0 { "_" } else { ", _" })?;
            }
            f.write_str(")")?;
        }
        Ok(())
    }
}

#[cold]
#[inline(never)]
fn not_a_constructor(sort: &str) -> ! {
    panic!(
        "neatcheck: this dynamic position holds a `{sort}` (an atomic value), not a \
         constructor: read it with `get_nat`, `get_int`, `get_char` or `force_dyn`"
    )
}

#[cold]
#[inline(never)]
fn wrong_atom(sort: &str, wanted: &str) -> ! {
    panic!("neatcheck: this dynamic position holds a `{sort}`, not a `{wanted}`")
}

impl<'a> Lazy<'a, DynValue> {
    /// The node at this position without reading it.
    fn peek(self) -> &'a Node {
        &self.ctx.nodes[self.node as usize]
    }

    /// The type at this position, written as in declarations: a declared
    /// datatype's name, `Bool`, `Nat`, `Int`, `Char`, `String` or a range
    /// `lo..=hi`. Reads
    /// nothing.
    pub fn type_name(self) -> Cow<'a, str> {
        let g = self.ctx.grammar;
        let prod = &g.prods[self.peek().prod().index()];
        let sort = &g.sorts[prod.sort.index()];
        if sort.origin == Some(TypeId::of::<bool>()) {
            Cow::Borrowed("Bool")
        } else if sort.origin == Some(TypeId::of::<u64>()) {
            Cow::Borrowed("Nat")
        } else if sort.origin == Some(TypeId::of::<i64>()) {
            Cow::Borrowed("Int")
        } else if sort.origin == Some(TypeId::of::<char>()) {
            Cow::Borrowed("Char")
        } else if sort.origin == Some(TypeId::of::<Vec<char>>())
            || sort.origin == Some(TypeId::of::<String>())
        {
            Cow::Borrowed("String")
        } else if prod.leaf {
            Cow::Owned(g.leaf_family(prod.sort).name())
        } else {
            Cow::Borrowed(&sort.name)
        }
    }

    /// Reads the constructor at this position (recorded exactly like the
    /// view of a derived type) and returns it with handles to its fields.
    ///
    /// # Panics
    /// If the position holds a `Nat`, an `Int`, a `Char` or a range (read
    /// those with [`Lazy::get_nat`], [`Lazy::get_int`], [`Lazy::get_char`]
    /// or [`Lazy::force_dyn`]).
    #[inline]
    pub fn view(self) -> DynView<'a> {
        let node = self.read_node();
        let g = self.ctx.grammar;
        let prod = &g.prods[node.prod().index()];
        if prod.leaf {
            not_a_constructor(&self.type_name());
        }
        let name = match prod.shape.as_deref() {
            Some(Shape::Ctor { name, .. }) => &**name,
            // The cells of a `String`.
            Some(Shape::Nil) => "Nil",
            Some(Shape::Cons) => "Cons",
            _ => "",
        };
        DynView {
            index: node.tag() as usize,
            name,
            first: node.first_field(),
            arity: prod.slots.len() as u32,
            at: self,
        }
    }

    /// Reads the constructor at this position: its declaration index and
    /// name (see [`Lazy::view`]).
    #[inline]
    pub fn constructor(self) -> (usize, &'a str) {
        let v = self.view();
        (v.index, v.name)
    }

    /// Reads the constructor at this position and returns the handle of its
    /// field `i` (see [`Lazy::view`] and [`DynView::field`]).
    #[inline]
    pub fn field(self, i: usize) -> Lazy<'a, DynValue> {
        self.view().field(i)
    }

    /// Reads a builtin `Bool` at this position.
    ///
    /// # Panics
    /// If the position holds another type.
    pub fn get_bool(self) -> bool {
        let node = self.read_node();
        let g = self.ctx.grammar;
        let sort = &g.sorts[g.prods[node.prod().index()].sort.index()];
        if sort.origin != Some(TypeId::of::<bool>()) {
            wrong_atom(&self.type_name(), "Bool");
        }
        node.tag() == 1
    }

    /// Reads a builtin `Char` at this position (whole: all its bits).
    ///
    /// # Panics
    /// If the position holds another type.
    pub fn get_char(self) -> char {
        match self.read_atom() {
            DynValue::Char(c) => c,
            _ => wrong_atom(&self.type_name(), "Char"),
        }
    }

    /// Reads a builtin `Nat` at this position.
    ///
    /// # Panics
    /// If the position holds another type.
    pub fn get_nat(self) -> u64 {
        match self.read_atom() {
            DynValue::Nat(n) => n,
            _ => wrong_atom(&self.type_name(), "Nat"),
        }
    }

    /// Reads a builtin range value or `Int` at this position.
    ///
    /// # Panics
    /// If the position holds another type.
    pub fn get_int(self) -> i64 {
        match self.read_atom() {
            DynValue::Int(i) => i,
            _ => wrong_atom(&self.type_name(), "range"),
        }
    }

    /// Compares the builtin `Int` at this position with `value`, reading
    /// its size, sign and then bits from the most significant one only
    /// until the order is known (see [`Lazy::compare`]).
    ///
    /// ```
    /// use neatcheck::dynamic::{DataTypes, DynValue};
    /// use neatcheck::search::Searcher;
    /// use neatcheck::Lazy;
    ///
    /// let mut types = DataTypes::new();
    /// types.data("Box").ctor("Box", &["Int"]);
    /// let space = types.build().unwrap().space("Box").unwrap();
    /// let runs = |bound, read: &dyn Fn(Lazy<DynValue>) -> bool| {
    ///     let mut search = Searcher::with_space(&space, bound);
    ///     let mut n = 0;
    ///     while search.step(|b: Lazy<DynValue>| read(b)).is_some() {
    ///         n += 1;
    ///     }
    ///     n
    /// };
    /// // Every Int of up to 41 bits (2^42 values) in a few dozen classes.
    /// let lazy = runs(42, &|b| b.view().field(0).compare_int(1000).is_lt());
    /// assert!(lazy < 120, "{lazy} classes");
    /// // Read whole: one class per Int (of up to 11 bits here).
    /// let whole = runs(12, &|b| b.view().field(0).get_int() < 1000);
    /// assert_eq!(whole, 2 * 2047 + 1);
    /// ```
    ///
    /// # Panics
    /// If the position holds another type.
    pub fn compare_int(self, value: i64) -> std::cmp::Ordering {
        self.int_handle().compare(value)
    }

    /// Compares the builtin `Int`s at two positions lazily (see
    /// [`Lazy::compare_lazy`]).
    ///
    /// # Panics
    /// If either position holds another type.
    pub fn compare_ints(self, other: Lazy<'_, DynValue>) -> std::cmp::Ordering {
        self.int_handle().compare_lazy(other.int_handle())
    }

    /// The position as the `i64` it holds (an `Int` is `i64`'s own space).
    fn int_handle(self) -> Lazy<'a, i64> {
        if self.type_name() != "Int" {
            wrong_atom(&self.type_name(), "Int");
        }
        self.cast()
    }

    fn read_atom(self) -> DynValue {
        let node = self.read_node();
        let g = self.ctx.grammar;
        let prod = &g.prods[node.prod().index()];
        if let (Some(block), Some(family)) = (prod.atom, g.atom_family(prod.sort)) {
            // `Nat` and `Int` are the primitive integers: lazy atoms by bit
            // length, read whole here.
            let bits = self.read_bits(block, node.first_field());
            return DynValue::from_built(family.make(block.key(bits)));
        }
        if !prod.leaf {
            wrong_atom(&self.type_name(), "Nat` or a `range");
        }
        DynValue::from_built(g.leaf_value(prod.sort, node.leaf_index()))
    }

    /// Materialises the plain value at this position; counts as reading
    /// every position below it, in pre-order, like [`Lazy::force`] on a
    /// derived type.
    pub fn force_dyn(self) -> DynValue {
        DynValue::from_built(materialize(self.ctx, self.node))
    }
}

/// `DynValue` has no space of its own (which values a position holds
/// depends on its universe): its `describe` is the empty space. Search a
/// universe's values through the spaces it hands out ([`Universe::space`]),
/// for instance with [`crate::Config::spaces`]:
///
/// ```
/// use neatcheck::dynamic::{DataTypes, DynValue};
/// use neatcheck::{Config, Lazy};
///
/// let mut types = DataTypes::new();
/// types.data("List").ctor("Nil", &[]).ctor("Cons", &["Int", "List"]);
/// let types = std::sync::Arc::new(types);
/// // No list has a negative head.
/// let failure = Config::default()
///     .max_size(6)
///     .samples(0, 0)
///     .spaces(move || types.build().unwrap().space("List").unwrap())
///     .try_check(|xs: Lazy<DynValue>| {
///         let cell = xs.view();
///         cell.name == "Nil" || cell.field(0).get_int() >= 0
///     })
///     .unwrap_err();
/// assert_eq!(failure.value.to_string(), "Cons(-1, Nil)");
/// ```
impl crate::Enumerable for DynValue {
    fn describe() -> Space<Self> {
        crate::describe::empty()
    }

    fn force_lazy(lazy: Lazy<'_, Self>) -> Self {
        lazy.force_dyn()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Searcher;

    /// `Pair(String, Char)`: one constructor (size 1) around Rust's
    /// `(String, char)` (free).
    fn pair_space() -> Space<DynValue> {
        let mut types = DataTypes::new();
        types.data("Pair").ctor("Pair", &["String", "Char"]);
        types.build().unwrap().space("Pair").unwrap()
    }

    #[test]
    fn char_and_string_are_sized_like_rusts() {
        let dynamic = compile_space(&pair_space());
        for size in 0..=12 {
            assert_eq!(
                dynamic.count(size + 1),
                crate::count::count_of::<(String, char)>(size),
                "size {size}"
            );
        }
    }

    #[test]
    fn strings_are_read_cell_by_cell_with_the_runs_of_rusts() {
        // Whether the string holds a 'b', read cell by cell; the character
        // compared whole.
        fn dynamic_has_b(at: Lazy<'_, DynValue>) -> bool {
            let mut cell = at.view().field(0);
            assert_eq!(cell.type_name(), "String");
            loop {
                let v = cell.view();
                if v.name == "Nil" {
                    return false;
                }
                assert_eq!((v.index, v.name, v.arity()), (1, "Cons", 2));
                assert_eq!(v.field(0).type_name(), "Char");
                if v.field(0).get_char() == 'b' {
                    return true;
                }
                cell = v.field(1);
            }
        }
        fn rust_has_b(s: Lazy<'_, (String, char)>) -> bool {
            s.view().0.chars().any(|c| c == 'b')
        }
        let bound = 10;
        let mut dynamic = Searcher::with_space(&pair_space(), bound + 1);
        let mut rust = Searcher::<(String, char)>::new(bound);
        while dynamic.step(dynamic_has_b).is_some() {}
        while rust.step(rust_has_b).is_some() {}
        assert_eq!(dynamic.stats().runs, rust.stats().runs);
        // The smallest string with a 'b': "b" itself ('b' is 98, 7 bits),
        // the unread character at its smallest, NUL.
        let found = crate::Config::default()
            .max_size(bound + 1)
            .samples(0, 0)
            .regressions(false)
            .spaces(pair_space)
            .try_check(|at: Lazy<'_, DynValue>| !dynamic_has_b(at))
            .unwrap_err();
        assert!(found.is_minimal());
        assert_eq!(found.size, 1 + 9);
        let found = found.value;
        assert_eq!(found.to_string(), "Pair(\"b\", '\\0')");
        assert_eq!(found.fields()[0].as_str(), Some("b"));
        assert_eq!(found.fields()[1].as_char(), Some('\0'));
    }

    #[test]
    fn a_string_position_forces_to_its_text_and_checks_as_a_field() {
        let mut search = Searcher::with_space(&pair_space(), 20);
        let mut texts = vec![];
        while search
            .step(|at: Lazy<'_, DynValue>| {
                let s = at.view().field(0);
                // The rest of a two-character string is a `String` too.
                if let Some(rest) = (s.view().name == "Cons")
                    .then(|| s.view().field(1))
                    .filter(|r| r.view().name == "Cons")
                {
                    texts.push((s.force_dyn(), rest.force_dyn()));
                }
                true
            })
            .is_some()
            && texts.is_empty()
        {}
        let (whole, rest) = &texts[0];
        assert_eq!(whole.as_str().map(|s| s.chars().count()), Some(2));
        assert_eq!(rest.as_str().map(|s| s.chars().count()), Some(1));
        let mut types = DataTypes::new();
        types.data("Pair").ctor("Pair", &["String", "Char"]);
        let u = types.build().unwrap();
        let ok = u.value(
            "Pair",
            vec![DynValue::Str("ab".into()), DynValue::Char('x')],
        );
        assert_eq!(ok.unwrap().to_string(), "Pair(\"ab\", 'x')");
        let bad = u.value("Pair", vec![DynValue::Char('a'), DynValue::Char('x')]);
        assert_eq!(
            bad.unwrap_err().to_string(),
            "bad fields for constructor `Pair`: field 0 should be a `String`, not `'a'`"
        );
    }
}

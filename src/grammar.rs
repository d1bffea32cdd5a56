//! The compiled form of a space: sorts (search positions) and their
//! alternatives, in the chain order the search uses.
//!
//! Compilation flattens a `Raw` description into *sorts*: every union that
//! is used as a field, and every registered type, becomes a sort whose
//! alternatives each have a cost (the `pay`s), a list of field sorts (the
//! *slots*) and a build program that turns field values into a value. It then
//! computes minimal sizes, drops uninhabited alternatives, rejects cycles
//! without `pay`, orders each sort's alternatives by minimal size (stable, so
//! ties keep declaration order), collapses zero-cost wrappers (`Box<T>`,
//! `String`) into the position they wrap, and lays out the minimal value of
//! every alternative's fields as a template the search copies.

use crate::arena::{build, id32, Opened, Unfold};
use crate::describe::{
    AtomBlock, AtomFamily, Combine, LeafFamily, Raw, RefKey, Shape, TypeRef, Value,
};
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::any::TypeId;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::marker::PhantomData;
use std::rc::Rc;

mod leaf_table;

pub(crate) use crate::arena::{ProdId, SortId};
pub(crate) use leaf_table::LeafSizes;
use leaf_table::Tail;
pub(crate) const INFINITE: u64 = u64::MAX;

/// How an alternative builds its value from the values of its slots.
#[derive(Clone)]
pub(crate) enum Build {
    /// The next slot's value.
    Slot,
    Pure(Rc<dyn Fn() -> Value>),
    Map(Rc<dyn Fn(Value) -> Value>, Box<Build>),
    Product(Vec<Build>, Combine),
    /// A block of a lazy atom family (by index): the slots are its free
    /// bits, most significant first.
    Atom(Rc<AtomFamily>, u32),
}

/// The value of a bit position of a lazy atom that is 0 (a zero-sized
/// value: building bits allocates nothing).
pub(crate) struct BitZero;
/// The value of a bit position that is 1.
pub(crate) struct BitOne;
/// The type whose canonical space the bit sort is (bits are read only by
/// their atom's readers, never through a view).
struct AtomBit;

impl Build {
    fn is_identity(&self) -> bool {
        matches!(self, Build::Slot)
    }

    /// Replaces the slots, in order, by the given conversions.
    fn substitute(self, convs: &mut std::vec::IntoIter<Build>) -> Build {
        match self {
            Build::Slot => convs.next().expect("one conversion per slot"),
            Build::Pure(p) => Build::Pure(p),
            Build::Map(f, b) => Build::Map(f, Box::new(b.substitute(convs))),
            Build::Product(bs, c) => {
                Build::Product(bs.into_iter().map(|b| b.substitute(convs)).collect(), c)
            }
            Build::Atom(family, block) => {
                // The bits are slots of the bit sort itself: no conversion.
                for _ in 0..family.blocks[block as usize].free {
                    convs.next();
                }
                Build::Atom(family, block)
            }
        }
    }

    /// The value of a lazy atom's production from its free bits (most
    /// significant first), without a value per bit: what [`Build::run`]
    /// makes of the bits' values. `None` when the program is not an
    /// atom's (possibly under conversions).
    pub(crate) fn run_atom(&self, bits: u64) -> Option<Value> {
        match self {
            Build::Atom(family, block) => {
                Some(family.make(family.blocks[*block as usize].key(bits)))
            }
            Build::Map(f, b) => b.run_atom(bits).map(|v| f(v)),
            _ => None,
        }
    }

    /// Runs the program on slot values (consumed in order).
    pub(crate) fn run(&self, slots: &mut impl Iterator<Item = Value>) -> Value {
        match self {
            Build::Slot => slots.next().expect("one value per slot"),
            Build::Pure(p) => p(),
            Build::Map(f, b) => f(b.run(slots)),
            Build::Product(bs, combine) => {
                let mut vals: Vec<Value> = bs.iter().map(|b| b.run(slots)).collect();
                let mut fields = crate::describe::Fields::new(vals.drain(..));
                combine(&mut fields)
            }
            Build::Atom(family, block) => {
                let b = family.blocks[*block as usize];
                let mut bits = 0u64;
                for _ in 0..b.free {
                    let bit = slots.next().expect("one value per bit");
                    bits = bits << 1 | u64::from(bit.is::<BitOne>());
                }
                family.make(b.key(bits))
            }
        }
    }
}

/// Whether a position at some alternative can still change: what the
/// engine turns into a node's initial mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fixity {
    /// Later alternatives (or leaf values) remain.
    Open,
    /// The last alternative of its sort (the last value of its leaf
    /// family): it can not change, but it is still a choice.
    Last,
    /// Its sort has a single alternative (a leaf family a single value):
    /// no choice at all.
    Single,
}

/// One node of the minimal value of an alternative's fields.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TemplateNode {
    pub prod: ProdId,
    /// The alternative's declaration tag (0 for leaves).
    pub tag: u32,
    /// Offset (from the template's base) of this node's first field.
    pub first: u32,
    /// Whether the node can change.
    pub fixity: Fixity,
}

/// An alternative of a sort, in chain position.
pub(crate) struct Prod {
    pub sort: SortId,
    /// Declaration index within the sort (what derived views match on).
    pub tag: u32,
    pub cost: u32,
    /// How many times the random phase counts each of its values
    /// (`space::weighted`); 1 unless weighted.
    pub weight: u32,
    pub slots: Vec<SortId>,
    pub build: Build,
    pub shape: Option<Rc<Shape>>,
    pub min_size: u64,
    /// The next alternative in the chain.
    pub next: Option<ProdId>,
    /// `min_size(next) - min_size(self)`.
    pub next_delta: u32,
    /// The minimal value of the slots, laid out contiguously: the slots are
    /// nodes `0..slots.len()`.
    pub template: Vec<TemplateNode>,
    /// Set for the single pseudo-alternative of a leaf sort.
    pub leaf: bool,
    /// The block of a lazy atom's alternative: its slots are the block's
    /// free bits, most significant first.
    pub atom: Option<AtomBlock>,
    /// The description of the function space whose root this alternative
    /// is (`types/function/`), for the printers and the application.
    pub function: Option<Rc<dyn std::any::Any>>,
}

pub(crate) enum SortKind {
    Algebraic {
        /// Chain order (by minimal size, ties in declaration order).
        chain: Vec<ProdId>,
        /// Declaration order.
        decl: Vec<ProdId>,
    },
    Leaf {
        family: Rc<dyn LeafFamily>,
        prod: ProdId,
        /// `starts[s]`: global index of the first value of size `s`; grows
        /// on demand, and `tail` says what lies past its last entry. The
        /// grammar's one interior cache (the count tables live in `feat`):
        /// a family may be unbounded, so it can not be filled at compile
        /// time. The search reads it once, when it starts
        /// ([`Grammar::leaf_sizes`]); sizing trees, ranking and shrinking
        /// read it per leaf.
        starts: RefCell<Vec<u64>>,
        tail: Cell<Tail>,
        total: Option<u64>,
    },
}

pub(crate) struct Sort {
    pub name: String,
    /// The type whose canonical space this sort is (`None` when anonymous).
    pub origin: Option<TypeId>,
    pub kind: SortKind,
    pub min_size: u64,
    /// The family of a lazy atom's sort (its alternatives are the family's
    /// blocks, in order).
    pub atom: Option<Rc<AtomFamily>>,
}

/// A compiled space: everything the backends need, immutable once built
/// (but for the leaf size starts, see `SortKind::Leaf`).
pub struct Grammar {
    pub(crate) sorts: Vec<Sort>,
    pub(crate) prods: Vec<Prod>,
    /// The root position's sort and the conversion from its value.
    pub(crate) root: SortId,
    pub(crate) root_build: Build,
    /// Template of the root node alone (one node plus its minimal fields),
    /// for each alternative of the root sort is not needed: the root starts
    /// at the root sort's minimal value.
    pub(crate) root_template: Vec<TemplateNode>,
    /// Unique per compilation (on all threads): what caches of facts
    /// computed from a grammar (the count tables) are keyed by.
    pub(crate) id: u64,
    /// The root is the canonical space of the searched type (compiled from
    /// `of::<T>()`): every position reached through typed views then holds
    /// its type's canonical space, and accessors may skip the check.
    pub(crate) trusted: bool,
    /// Per transparent wrapper type (a registered type whose space is an
    /// alias of another sort): the sort its positions have and the
    /// conversion from that sort's value. Aliases are collapsed, so a
    /// position of type `Key` holds the wrapped sort's value and the
    /// generic materialiser applies this to get a `Key`.
    pub(crate) wrappers: HashMap<TypeId, (SortId, Build)>,
    /// The integer sizes it was compiled under: the family that canonical
    /// positions of the primitive integer types hold.
    pub(crate) integers: crate::describe::IntegerSizes,
    /// Whether a search may skip the per-read checks: every position holds
    /// some type's canonical space, except inside fields with a space of
    /// their own (`#[enumerable(with = ...)]`, `space::field_with`), whose
    /// handles read through the run's checked context (`Lazy::checked`,
    /// `Alternative::field`). A typed handle reached through views then
    /// holds its own type's space by construction. Any other anonymous
    /// position (a hand-written union or leaf used as a field without
    /// `field_with`) is read through a handle of its field type: such
    /// grammars check every read.
    pub(crate) typed_outside_own_spaces: bool,
    /// The trees of a lazy atom's bits, 0 and 1 (shared by every atom's
    /// tree), when the grammar has atoms.
    pub(crate) bit_trees: Option<[Rc<Tree>; 2]>,
    /// Whether some alternative has a weight other than 1
    /// (`space::weighted`): the random phase then draws by weighted counts.
    pub(crate) weighted: bool,
    /// Whether some alternative is a function's root (`types/function/`):
    /// runs then say where they read (`handle::in_run`), for the function
    /// inputs they make.
    pub(crate) has_functions: bool,
}

impl std::fmt::Debug for Grammar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Grammar({} sorts, {} alternatives, root {})",
            self.sorts.len(),
            self.prods.len(),
            self.sorts[self.root.index()].name
        )
    }
}

struct PendingAlt {
    cost: u64,
    /// The product of the weights on its path (`space::weighted`), capped
    /// at `u32::MAX`.
    weight: u32,
    slots: Vec<SortId>,
    build: Build,
    shape: Option<Rc<Shape>>,
    atom: Option<AtomBlock>,
    function: Option<Rc<dyn std::any::Any>>,
}

enum PendingKind {
    Undefined(Rc<Raw>),
    Algebraic(Vec<PendingAlt>),
    Leaf(Rc<dyn LeafFamily>),
    /// Alias of another sort through a conversion (transparent wrappers).
    Alias(SortId, Build),
}

struct PendingSort {
    name: String,
    origin: Option<TypeId>,
    kind: PendingKind,
    atom: Option<Rc<AtomFamily>>,
}

struct Compiler {
    sorts: Vec<PendingSort>,
    by_type: HashMap<RefKey, SortId>,
    by_ptr: HashMap<*const Raw, SortId>,
    /// Keeps anonymous raws alive so their addresses stay unique.
    keep: Vec<Rc<Raw>>,
    context: String,
    /// Anonymous sorts made for fields with a space of their own
    /// (`space::position`, what `#[enumerable(with = ...)]` gives), and
    /// those made for any other anonymous field: see
    /// `Grammar::typed_outside_own_spaces`.
    own_space_fields: std::collections::HashSet<SortId>,
    plain_anonymous: std::collections::HashSet<SortId>,
}

impl Compiler {
    fn sort_for_ref(&mut self, tr: &TypeRef) -> SortId {
        if let Some(&id) = self.by_type.get(&tr.key) {
            return id;
        }
        let id = SortId::new(self.sorts.len());
        self.sorts.push(PendingSort {
            name: tr.name.to_string(),
            origin: tr.origin,
            kind: PendingKind::Undefined((tr.raw)()),
            atom: None,
        });
        self.by_type.insert(tr.key, id);
        id
    }

    fn anon_sort(&mut self, raw: &Rc<Raw>) -> SortId {
        let ptr = Rc::as_ptr(raw);
        if let Some(&id) = self.by_ptr.get(&ptr) {
            return id;
        }
        let id = SortId::new(self.sorts.len());
        self.sorts.push(PendingSort {
            name: format!("<part of {}>", self.context),
            origin: None,
            kind: PendingKind::Undefined(raw.clone()),
            atom: None,
        });
        self.keep.push(raw.clone());
        self.by_ptr.insert(ptr, id);
        id
    }

    /// The sort of the bits of lazy atoms (one per grammar): 0, then 1,
    /// both free.
    fn bit_sort(&mut self) -> SortId {
        let key = RefKey::Type(TypeId::of::<AtomBit>());
        if let Some(&id) = self.by_type.get(&key) {
            return id;
        }
        let id = SortId::new(self.sorts.len());
        let bit = |value: fn() -> Value| PendingAlt {
            weight: 1,
            cost: 0,
            slots: vec![],
            build: Build::Pure(Rc::new(value)),
            shape: None,
            atom: None,
            function: None,
        };
        self.sorts.push(PendingSort {
            name: "bit".to_string(),
            origin: Some(TypeId::of::<AtomBit>()),
            kind: PendingKind::Algebraic(vec![bit(|| Box::new(BitZero)), bit(|| Box::new(BitOne))]),
            atom: None,
        });
        self.by_type.insert(key, id);
        id
    }

    /// A field that must be exactly one position.
    fn slot_of(&mut self, raw: &Rc<Raw>) -> (SortId, Build) {
        match &**raw {
            Raw::Ref(tr) => (self.sort_for_ref(tr), Build::Slot),
            Raw::Transparent(inner) => match &**inner {
                Raw::Map(f, r) => {
                    let (s, b) = self.slot_of(r);
                    (s, Build::Map(f.clone(), Box::new(b)))
                }
                _ => self.slot_of(inner),
            },
            Raw::Sort(inner) => {
                let id = self.anon_sort(inner);
                self.own_space_fields.insert(id);
                (id, Build::Slot)
            }
            _ => {
                let id = self.anon_sort(raw);
                self.plain_anonymous.insert(id);
                (id, Build::Slot)
            }
        }
    }

    /// A product component: any number of positions.
    fn fields_of(&mut self, raw: &Rc<Raw>) -> PendingAlt {
        match &**raw {
            Raw::Pure(p) => PendingAlt {
                weight: 1,
                cost: 0,
                slots: vec![],
                build: Build::Pure(p.clone()),
                shape: None,
                atom: None,
                function: None,
            },
            Raw::Pay(inner) => {
                let mut a = self.fields_of(inner);
                a.cost += 1;
                a
            }
            Raw::Map(f, inner) => {
                let mut a = self.fields_of(inner);
                a.build = Build::Map(f.clone(), Box::new(a.build));
                a
            }
            Raw::Product(parts, combine) => {
                let mut cost = 0;
                let mut weight = 1u32;
                let mut slots = vec![];
                let mut builds = vec![];
                for p in parts {
                    let a = self.fields_of(p);
                    cost += a.cost;
                    weight = weight.saturating_mul(a.weight);
                    slots.extend(a.slots);
                    builds.push(a.build);
                }
                PendingAlt {
                    weight,
                    cost,
                    slots,
                    build: Build::Product(builds, combine.clone()),
                    shape: None,
                    atom: None,
                    function: None,
                }
            }
            Raw::Label(_, inner) | Raw::Function(_, inner) => self.fields_of(inner),
            Raw::Weight(w, inner) => {
                let mut a = self.fields_of(inner);
                a.weight = a.weight.saturating_mul(*w);
                a
            }
            _ => {
                let (s, b) = self.slot_of(raw);
                PendingAlt {
                    weight: 1,
                    cost: 0,
                    slots: vec![s],
                    build: b,
                    shape: None,
                    atom: None,
                    function: None,
                }
            }
        }
    }

    fn alts_of(&mut self, raw: &Rc<Raw>, out: &mut Vec<PendingAlt>) {
        match &**raw {
            Raw::Empty => {}
            Raw::Pay(inner) => {
                let start = out.len();
                self.alts_of(inner, out);
                for a in &mut out[start..] {
                    a.cost += 1;
                }
            }
            Raw::Union(parts) => {
                for p in parts {
                    self.alts_of(p, out);
                }
            }
            Raw::Weight(w, inner) => {
                let start = out.len();
                self.alts_of(inner, out);
                for a in &mut out[start..] {
                    a.weight = a.weight.saturating_mul(*w);
                }
            }
            Raw::Map(f, inner) => {
                let start = out.len();
                self.alts_of(inner, out);
                for a in &mut out[start..] {
                    let b = std::mem::replace(&mut a.build, Build::Slot);
                    a.build = Build::Map(f.clone(), Box::new(b));
                }
            }
            Raw::Label(shape, inner) => {
                let start = out.len();
                self.alts_of(inner, out);
                for a in &mut out[start..] {
                    if a.shape.is_none() {
                        a.shape = Some(shape.clone());
                    }
                }
            }
            Raw::Function(meta, inner) => {
                let start = out.len();
                self.alts_of(inner, out);
                for a in &mut out[start..] {
                    a.function = Some(meta.clone());
                }
            }
            _ => out.push(self.fields_of(raw)),
        }
    }

    fn define(&mut self, id: SortId) {
        let raw = match &self.sorts[id.index()].kind {
            PendingKind::Undefined(raw) => raw.clone(),
            _ => return,
        };
        if self.sorts[id.index()].origin.is_some() {
            self.context = self.sorts[id.index()].name.clone();
        }
        let mut stripped = &raw;
        while let Raw::Label(_, inner) = &**stripped {
            stripped = inner;
        }
        let kind = match &**stripped {
            Raw::Leaf(family) => PendingKind::Leaf(family.clone()),
            Raw::Atom(family) => {
                let bit = self.bit_sort();
                self.sorts[id.index()].atom = Some(family.clone());
                PendingKind::Algebraic(
                    family
                        .blocks
                        .iter()
                        .enumerate()
                        .map(|(i, b)| PendingAlt {
                            weight: 1,
                            cost: u64::from(b.size),
                            slots: vec![bit; b.free as usize],
                            build: Build::Atom(family.clone(), id32(i)),
                            shape: None,
                            atom: Some(*b),
                            function: None,
                        })
                        .collect(),
                )
            }
            Raw::Transparent(_) | Raw::Ref(_) | Raw::Sort(_) => {
                let (target, build) = self.slot_of(stripped);
                PendingKind::Alias(target, build)
            }
            _ => {
                let mut alts = vec![];
                self.alts_of(&raw, &mut alts);
                PendingKind::Algebraic(alts)
            }
        };
        self.sorts[id.index()].kind = kind;
    }
}

fn leaf_min_size(family: &dyn LeafFamily) -> u64 {
    let limit = family.last_size().unwrap_or(4096);
    (0..=limit)
        .find(|&s| family.count(s) > BigUint::from(0u32))
        .map(|s| s as u64)
        .unwrap_or(INFINITE)
}

/// Compiles a description. Panics with a precise message on a recursive
/// cycle without `pay`. The passes, in order, each establishing what the
/// next relies on.
pub(crate) fn compile(root: &Rc<Raw>, root_name: &str) -> Grammar {
    let (mut c, root_sort, root_build) = flatten(root, root_name);
    collapse_identity_wrappers(&mut c.sorts);
    let min = minimal_sizes(&c.sorts);
    check_zero_cycles(&c.sorts, &min);
    let resolved = resolve_aliases(&c.sorts);
    let wrappers: HashMap<TypeId, (SortId, Build)> = c
        .sorts
        .iter()
        .zip(&resolved)
        .filter_map(|(ps, r)| Some((ps.origin?, r.clone()?)))
        .collect();
    let (sorts, prods) = order_alternatives(&mut c.sorts, &min, &resolved);
    let (root, conv) = resolve(&resolved, root_sort);
    let root_build = root_build.substitute(&mut vec![conv].into_iter());
    let mut g = Grammar {
        sorts,
        prods,
        root,
        root_build,
        root_template: vec![],
        id: next_grammar_id(),
        trusted: false,
        wrappers,
        integers: crate::describe::integer_sizes(),
        typed_outside_own_spaces: false,
        bit_trees: None,
        weighted: false,
        has_functions: false,
    };
    g.weighted = g.prods.iter().any(|p| p.weight != 1);
    g.has_functions = g.prods.iter().any(|p| p.function.is_some());
    g.bit_trees = g
        .sorts
        .iter()
        .position(|s| s.origin == Some(TypeId::of::<AtomBit>()))
        .map(|bit| match &g.sorts[bit].kind {
            SortKind::Algebraic { decl, .. } => {
                [0, 1].map(|b| Rc::new(Tree::Node(decl[b], vec![])))
            }
            SortKind::Leaf { .. } => unreachable!("bits are alternatives"),
        });
    // A sort also reached as a plain anonymous field is not read only
    // through checked handles.
    let own_spaces: std::collections::HashSet<SortId> = c
        .own_space_fields
        .difference(&c.plain_anonymous)
        .copied()
        .collect();
    g.typed_outside_own_spaces = g.typed_outside(&own_spaces);
    lay_out_templates(&mut g);
    g
}

/// Pass 1 establishes: every sort reachable from the root is defined (a
/// leaf, an alias or its pending alternatives), and the root is a slot.
fn flatten(root: &Rc<Raw>, root_name: &str) -> (Compiler, SortId, Build) {
    let mut c = Compiler {
        sorts: vec![],
        by_type: HashMap::new(),
        by_ptr: HashMap::new(),
        keep: vec![],
        context: root_name.to_string(),
        own_space_fields: Default::default(),
        plain_anonymous: Default::default(),
    };
    let (root_sort, root_build) = c.slot_of(root);
    // Defining a sort may add sorts (its fields): up to a fixpoint.
    let mut i = 0;
    while i < c.sorts.len() {
        c.define(SortId::new(i));
        i += 1;
    }
    (c, root_sort, root_build)
}

/// Pass 2 establishes: an identity wrapper (one alternative, cost 0, one
/// slot, no conversion, no name) is an alias of what it wraps.
fn collapse_identity_wrappers(sorts: &mut [PendingSort]) {
    for s in sorts {
        if let PendingKind::Algebraic(alts) = &s.kind {
            if alts.len() == 1
                && alts[0].cost == 0
                && alts[0].slots.len() == 1
                && alts[0].build.is_identity()
                && alts[0].shape.is_none()
                && alts[0].function.is_none()
                && alts[0].weight == 1
            {
                s.kind = PendingKind::Alias(alts[0].slots[0], Build::Slot);
            }
        }
    }
}

/// Pass 3 establishes: every sort's minimal size (`INFINITE` when
/// uninhabited), by fixpoint (values only decrease, bounded below by 0).
fn minimal_sizes(sorts: &[PendingSort]) -> Vec<u64> {
    let n = sorts.len();
    let mut min = vec![INFINITE; n];
    loop {
        let mut changed = false;
        for id in 0..n {
            let m = match &sorts[id].kind {
                PendingKind::Leaf(f) => leaf_min_size(&**f),
                PendingKind::Alias(t, _) => min[t.index()],
                PendingKind::Algebraic(alts) => alts
                    .iter()
                    .map(|a| alt_min(a, &min))
                    .min()
                    .unwrap_or(INFINITE),
                PendingKind::Undefined(_) => unreachable!(),
            };
            if m < min[id] {
                min[id] = m;
                changed = true;
            }
        }
        if !changed {
            return min;
        }
    }
}

/// Pass 5 establishes: each alias sort's final (non-alias) sort and the
/// conversion from its value (`None` for sorts that are no alias).
fn resolve_aliases(sorts: &[PendingSort]) -> Vec<Option<(SortId, Build)>> {
    let mut resolved: Vec<Option<(SortId, Build)>> = vec![None; sorts.len()];
    for (id, slot) in resolved.iter_mut().enumerate() {
        let mut target = SortId::new(id);
        let mut convs: Vec<Build> = vec![];
        while let PendingKind::Alias(t, b) = &sorts[target.index()].kind {
            convs.push(b.clone());
            target = *t;
        }
        if !convs.is_empty() {
            // The outermost conversion applies last.
            let mut build = Build::Slot;
            for b in convs.into_iter().rev() {
                build = b.substitute(&mut vec![build].into_iter());
            }
            *slot = Some((target, build));
        }
    }
    resolved
}

/// A slot's final sort and the conversion from its value.
fn resolve(resolved: &[Option<(SortId, Build)>], s: SortId) -> (SortId, Build) {
    match &resolved[s.index()] {
        Some((t, b)) => (*t, b.clone()),
        None => (s, Build::Slot),
    }
}

/// Pass 6 establishes: the final sorts and alternatives. Uninhabited
/// alternatives are dropped, slots point at final sorts (conversions moved
/// into the build programs), and each sort's chain is ordered by minimal
/// size (stable: ties keep declaration order) with the size steps between
/// neighbours.
fn order_alternatives(
    pending: &mut [PendingSort],
    min: &[u64],
    resolved: &[Option<(SortId, Build)>],
) -> (Vec<Sort>, Vec<Prod>) {
    let mut sorts = Vec::with_capacity(pending.len());
    let mut prods: Vec<Prod> = vec![];
    for (id, ps) in pending.iter_mut().enumerate() {
        let kind = match std::mem::replace(&mut ps.kind, PendingKind::Algebraic(vec![])) {
            PendingKind::Leaf(family) => {
                let pid = ProdId::new(prods.len());
                prods.push(Prod {
                    sort: SortId::new(id),
                    tag: 0,
                    cost: 0,
                    weight: 1,
                    slots: vec![],
                    build: Build::Slot,
                    shape: None,
                    min_size: min[id],
                    next: None,
                    next_delta: 0,
                    template: vec![],
                    leaf: true,
                    atom: None,
                    function: None,
                });
                let total = family.total().and_then(|t| t.to_u64());
                SortKind::Leaf {
                    family,
                    prod: pid,
                    starts: RefCell::new(vec![0]),
                    tail: Cell::new(Tail::Open),
                    total,
                }
            }
            PendingKind::Alias(..) => SortKind::Algebraic {
                chain: vec![],
                decl: vec![],
            },
            PendingKind::Algebraic(alts) => {
                let mut decl = vec![];
                for (tag, a) in alts.into_iter().enumerate() {
                    let m = alt_min(&a, min);
                    if m == INFINITE {
                        continue;
                    }
                    let (slots, build) = if a.atom.is_some() {
                        // A block's bits are of the bit sort, no alias:
                        // nothing to resolve.
                        (a.slots, a.build)
                    } else {
                        let mut convs = vec![];
                        let mut slots = vec![];
                        for &s in &a.slots {
                            let (t, b) = resolve(resolved, s);
                            slots.push(t);
                            convs.push(b);
                        }
                        (slots, a.build.substitute(&mut convs.into_iter()))
                    };
                    let pid = ProdId::new(prods.len());
                    prods.push(Prod {
                        sort: SortId::new(id),
                        tag: id32(tag),
                        cost: u32::try_from(a.cost).expect("neatcheck: a cost past 2^32"),
                        weight: a.weight,
                        slots,
                        build,
                        shape: a.shape,
                        function: a.function,
                        min_size: m,
                        next: None,
                        next_delta: 0,
                        template: vec![],
                        leaf: false,
                        atom: a.atom,
                    });
                    decl.push(pid);
                }
                let mut chain = decl.clone();
                chain.sort_by_key(|&p| prods[p.index()].min_size);
                for w in chain.windows(2) {
                    let delta = prods[w[1].index()].min_size - prods[w[0].index()].min_size;
                    prods[w[0].index()].next = Some(w[1]);
                    // Saturated: a step this large never fits a bound.
                    prods[w[0].index()].next_delta = u32::try_from(delta).unwrap_or(u32::MAX);
                }
                SortKind::Algebraic { chain, decl }
            }
            PendingKind::Undefined(_) => unreachable!(),
        };
        sorts.push(Sort {
            name: ps.name.clone(),
            origin: ps.origin,
            kind,
            min_size: min[id],
            atom: ps.atom.clone(),
        });
    }
    (sorts, prods)
}

/// Pass 7 establishes: every alternative's template (the minimal value of
/// its fields) and the root's, which the search copies into its arena.
fn lay_out_templates(g: &mut Grammar) {
    // Every bit of a block starts at 0, with no fields: one node, repeated.
    let mut bit: Option<TemplateNode> = None;
    for p in 0..g.prods.len() {
        if g.prods[p].atom.is_some() && !g.prods[p].slots.is_empty() {
            let node = *bit.get_or_insert_with(|| g.template_for(&g.prods[p].slots[..1])[0]);
            g.prods[p].template = vec![node; g.prods[p].slots.len()];
            continue;
        }
        let slots = g.prods[p].slots.clone();
        let t = g.template_for(&slots);
        g.prods[p].template = t;
    }
    if g.sorts[g.root.index()].min_size != INFINITE {
        g.root_template = g.template_for(&[g.root]);
    }
}

/// A fresh grammar identity.
fn next_grammar_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

fn alt_min(a: &PendingAlt, min: &[u64]) -> u64 {
    let mut total = a.cost;
    for &s in &a.slots {
        let m = min[s.index()];
        if m == INFINITE {
            return INFINITE;
        }
        total = total.saturating_add(m);
    }
    total
}

/// Sorts that can be of size 0, counting as such the uninhabited sorts that
/// could be if their cycles were allowed to close: an uninhabited sort is
/// *free* when one of its alternatives costs nothing and has only such
/// fields (the greatest fixpoint, so `A = A` and `A = (A, u8)` are free,
/// `A = pay(A)` and `A = (A, Empty)` are not).
fn zero_sized(sorts: &[PendingSort], min: &[u64]) -> Vec<bool> {
    let n = sorts.len();
    let mut zero: Vec<bool> = min.iter().map(|&m| m == 0 || m == INFINITE).collect();
    loop {
        let mut changed = false;
        for id in 0..n {
            if !zero[id] || min[id] != INFINITE {
                continue;
            }
            let free = match &sorts[id].kind {
                PendingKind::Alias(t, _) => zero[t.index()],
                PendingKind::Algebraic(alts) => alts
                    .iter()
                    .any(|a| a.cost == 0 && a.slots.iter().all(|&s| zero[s.index()])),
                _ => false,
            };
            if !free {
                zero[id] = false;
                changed = true;
            }
        }
        if !changed {
            return zero;
        }
    }
}

/// Pass 4 establishes: no cycle adds nothing to the size, whatever it goes
/// through (`of`, `map`, `product`, `transparent`, `position`).
///
/// The rule: an edge `A -> B` when an alternative of `A` without `pay` has
/// `B` as a field and every other field of it can be of size 0 (see
/// [`zero_sized`]); an alias (a transparent wrapper, `of`, `position`) is an
/// edge to what it wraps. Going round a cycle of such edges adds nothing to
/// the size. For an inhabited sort this is exactly "the alternative's
/// minimal size minus the field's is 0", and such a cycle means infinitely
/// many values of one size. A sort on such a cycle may also be uninhabited
/// (`describe() { of::<Self>() }`, `A = map(of::<B>())` with `B =
/// map(of::<A>())`, `product(of::<Self>(), of::<u8>())`): its minimal size
/// is infinite, yet it is the same mistake (recursion without `pay`), and
/// it is rejected too rather than silently giving a type with no values. A
/// recursion whose other fields always cost something (`(Bool, A)` with a
/// paying `Bool`) adds size on every turn and is accepted.
fn check_zero_cycles(sorts: &[PendingSort], min: &[u64]) {
    let n = sorts.len();
    let zero = zero_sized(sorts, min);
    let mut edges: Vec<Vec<SortId>> = vec![vec![]; n];
    for (id, s) in sorts.iter().enumerate() {
        match &s.kind {
            PendingKind::Alias(t, _) => edges[id].push(*t),
            PendingKind::Algebraic(alts) => {
                for a in alts.iter().filter(|a| a.cost == 0) {
                    let nonzero = a.slots.iter().filter(|&&s| !zero[s.index()]).count();
                    for &slot in &a.slots {
                        // Every other field can be of size 0.
                        if nonzero == 0 || (nonzero == 1 && !zero[slot.index()]) {
                            edges[id].push(slot);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    // Iterative DFS with colours.
    let mut colour = vec![0u8; n];
    for start in 0..n {
        if colour[start] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        colour[start] = 1;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            if *next < edges[node].len() {
                let to = edges[node][*next];
                *next += 1;
                let to = to.index();
                if colour[to] == 1 {
                    let pos = stack.iter().position(|&(s, _)| s == to).unwrap();
                    let mut names: Vec<&str> = stack[pos..]
                        .iter()
                        .map(|&(s, _)| sorts[s].name.as_str())
                        .collect();
                    names.push(&sorts[to].name);
                    panic!(
                        "neatcheck: the space of `{}` is recursive without `pay`: the cycle {} \
                         adds nothing to the size, so there are infinitely many values of one \
                         size (or, with no way out of the cycle, no value at all). Every \
                         recursive cycle must pass through `pay` (derived constructors pay 1; \
                         wrap a hand-written recursive space in `pay`, and never describe a \
                         type by its own `of::<Self>()`).",
                        sorts[to].name,
                        names.join(" -> ")
                    );
                }
                if colour[to] == 0 {
                    colour[to] = 1;
                    stack.push((to, 0));
                }
            } else {
                colour[node] = 2;
                stack.pop();
            }
        }
    }
}

impl Grammar {
    /// The conversion that turns the value of a position of sort `sort`
    /// into a `ty` when `ty` is a transparent wrapper of that sort.
    pub(crate) fn wrapper_conversion(&self, ty: TypeId, sort: SortId) -> Option<&Build> {
        self.wrappers
            .get(&ty)
            .filter(|(s, _)| *s == sort)
            .map(|(_, b)| b)
    }

    /// The minimal values of the given slots, contiguous, breadth first.
    fn template_for(&self, slots: &[SortId]) -> Vec<TemplateNode> {
        let mut t: Vec<TemplateNode> = vec![];
        let mut queue: Vec<SortId> = slots.to_vec();
        // t[i] corresponds to queue[i]; fields of t[i] appended to the queue.
        let mut i = 0;
        while i < queue.len() {
            let sort = queue[i];
            let prod = self.min_prod(sort);
            let p = &self.prods[prod.index()];
            let first = id32(queue.len());
            queue.extend_from_slice(&p.slots);
            t.push(TemplateNode {
                prod,
                tag: if p.leaf { 0 } else { p.tag },
                first: if p.leaf { 0 } else { first },
                fixity: self.fixity(prod, 0),
            });
            i += 1;
        }
        t
    }

    /// The alternative of a sort's minimal value.
    pub(crate) fn min_prod(&self, sort: SortId) -> ProdId {
        match &self.sorts[sort.index()].kind {
            SortKind::Algebraic { chain, .. } => chain[0],
            SortKind::Leaf { prod, .. } => *prod,
        }
    }

    /// Whether a node at `prod` (leaf index `index`) can change.
    pub(crate) fn fixity(&self, prod: ProdId, index: u64) -> Fixity {
        let p = &self.prods[prod.index()];
        let single = match &self.sorts[p.sort.index()].kind {
            SortKind::Algebraic { chain, .. } => chain.len() == 1,
            SortKind::Leaf { total, .. } => *total == Some(1),
        };
        if single {
            Fixity::Single
        } else if self.is_last(prod, index) {
            Fixity::Last
        } else {
            Fixity::Open
        }
    }

    /// Whether a node at `prod` (leaf index `index`) is at its sort's last
    /// alternative (its family's last value): it can never change.
    pub(crate) fn is_last(&self, prod: ProdId, index: u64) -> bool {
        let p = &self.prods[prod.index()];
        if p.leaf {
            match &self.sorts[p.sort.index()].kind {
                SortKind::Leaf { total, .. } => total.is_some_and(|t| index + 1 >= t),
                _ => unreachable!(),
            }
        } else {
            p.next.is_none()
        }
    }

    /// Size of the leaf value at global `index` of a leaf sort
    /// (`INFINITE` past the family's last value).
    pub(crate) fn leaf_size(&self, sort: SortId, index: u64) -> u64 {
        let SortKind::Leaf {
            family,
            starts,
            tail,
            ..
        } = &self.sorts[sort.index()].kind
        else {
            unreachable!()
        };
        let mut st = starts.borrow_mut();
        // Extend until the last start passes `index` or the starts end.
        while tail.get() == Tail::Open && *st.last().unwrap() <= index {
            let want = st.len() + 1;
            tail.set(leaf_table::fill_starts(&**family, &mut st, want));
        }
        if index >= *st.last().unwrap() {
            return match tail.get() {
                // The values of the last size reach past 2^64: every index
                // from its start on is of that size (saturating instead
                // would lose `u64::MAX`).
                Tail::Saturated => (st.len() - 1) as u64,
                Tail::Ended => INFINITE,
                Tail::Open => unreachable!("the starts grow past the index"),
            };
        }
        // Sizes with no values share their start with the next size: the
        // size of `index` is the last `s` with `starts[s] <= index`.
        (st.partition_point(|&start| start <= index) - 1) as u64
    }

    /// The global index of the first leaf value of `size` of a leaf sort,
    /// where it fits 64 bits (what the random phase's walks read for every
    /// leaf, so from the grammar's starts, not the family's big counts).
    pub(crate) fn leaf_start(&self, sort: SortId, size: usize) -> Option<u64> {
        let SortKind::Leaf {
            family,
            starts,
            tail,
            ..
        } = &self.sorts[sort.index()].kind
        else {
            unreachable!()
        };
        let mut st = starts.borrow_mut();
        if st.len() <= size && tail.get() == Tail::Open {
            tail.set(leaf_table::fill_starts(&**family, &mut st, size + 1));
        }
        st.get(size).copied()
    }

    /// The sizes of leaf sort `sort` for a search of `bound`: built once
    /// per search, read on every step of a leaf (see [`LeafSizes`]).
    pub(crate) fn leaf_sizes(&self, sort: SortId, bound: u64) -> LeafSizes {
        let SortKind::Leaf {
            family,
            starts,
            tail,
            total,
            ..
        } = &self.sorts[sort.index()].kind
        else {
            unreachable!()
        };
        let mut st = starts.borrow_mut();
        let want = bound.min(leaf_table::TABLE_SIZES) as usize + 2;
        if tail.get() == Tail::Open {
            tail.set(leaf_table::fill_starts(&**family, &mut st, want));
        }
        LeafSizes::new(sort, &st, tail.get(), bound, *total)
    }

    /// The leaf value at global index: (size, offset within the size).
    pub(crate) fn leaf_position(&self, sort: SortId, index: u64) -> (usize, u64) {
        let size = self.leaf_size(sort, index);
        let SortKind::Leaf { starts, .. } = &self.sorts[sort.index()].kind else {
            unreachable!()
        };
        let st = starts.borrow();
        (size as usize, index - st[size as usize])
    }

    /// Materialises a leaf value.
    pub(crate) fn leaf_value(&self, sort: SortId, index: u64) -> Value {
        let (size, offset) = self.leaf_position(sort, index);
        let SortKind::Leaf { family, .. } = &self.sorts[sort.index()].kind else {
            unreachable!()
        };
        family.value_at(size, offset)
    }

    /// The family of a lazy atom's sort.
    pub(crate) fn atom_family(&self, sort: SortId) -> Option<&Rc<AtomFamily>> {
        self.sorts[sort.index()].atom.as_ref()
    }

    /// The family of atomic values a sort holds: a leaf family (read
    /// whole) or a lazy atom's (whose bits are positions).
    pub(crate) fn atomic_family(&self, sort: SortId) -> Option<&dyn LeafFamily> {
        match (
            &self.sorts[sort.index()].kind,
            &self.sorts[sort.index()].atom,
        ) {
            (SortKind::Leaf { family, .. }, _) => Some(&**family),
            (_, Some(family)) => Some(&**family),
            _ => None,
        }
    }

    /// The tree of the value at a global index of a leaf or atom sort.
    pub(crate) fn atomic_tree(&self, sort: SortId, index: u64) -> Tree {
        if self.atom_family(sort).is_none() {
            return Tree::Leaf(sort, index);
        }
        let (prod, bits, free) = self.atom_block(sort, index);
        let kids = (0..free)
            .map(|i| self.bit_tree(bits >> (free - 1 - i) & 1 == 1))
            .collect();
        Tree::Node(prod, kids)
    }

    /// The value at a global index of a lazy atom's sort: its block's
    /// alternative, free bits (the most significant first, as a number)
    /// and how many they are.
    pub(crate) fn atom_block(&self, sort: SortId, index: u64) -> (ProdId, u64, u32) {
        let family = self.atom_family(sort).expect("a lazy atom's sort");
        let (block, bits) = family.locate(u128::from(index));
        let SortKind::Algebraic { decl, .. } = &self.sorts[sort.index()].kind else {
            unreachable!("an atom's sort is algebraic")
        };
        (decl[block], bits, family.blocks[block].free)
    }

    /// The alternative of a bit that is 0 or 1.
    pub(crate) fn bit_prod(&self, one: bool) -> ProdId {
        match &*self.bit_tree(one) {
            Tree::Node(prod, _) => *prod,
            Tree::Leaf(..) => unreachable!("bits are alternatives"),
        }
    }

    /// The sort of lazy atoms' bits, when the grammar has atoms.
    pub(crate) fn bit_sort(&self) -> Option<SortId> {
        self.bit_trees.as_ref().map(|bits| match &*bits[0] {
            Tree::Node(prod, _) => self.prods[prod.index()].sort,
            Tree::Leaf(..) => unreachable!("bits are alternatives"),
        })
    }

    /// The tree of a lazy atom's bit.
    pub(crate) fn bit_tree(&self, one: bool) -> Rc<Tree> {
        self.bit_trees
            .as_ref()
            .expect("a grammar with atoms has bits")[usize::from(one)]
        .clone()
    }

    /// A leaf or a lazy atom's tree: its sort and global index.
    pub(crate) fn atomic_index(&self, tree: &Tree) -> Option<(SortId, u64)> {
        match tree {
            Tree::Leaf(sort, index) => Some((*sort, *index)),
            Tree::Node(prod, kids) => {
                self.prods[prod.index()].atom?;
                let sort = self.prods[prod.index()].sort;
                let family = self.atom_family(sort)?;
                let bits = kids.iter().fold(0u64, |acc, k| match &**k {
                    Tree::Node(bit, _) => acc << 1 | u64::from(self.prods[bit.index()].tag),
                    Tree::Leaf(..) => unreachable!("a bit is an alternative"),
                });
                let block = self.prods[prod.index()].tag as usize;
                Some((sort, family.global_index(block, bits) as u64))
            }
        }
    }

    /// The size of the value at a global index of a leaf or atom sort.
    pub(crate) fn atomic_size(&self, sort: SortId, index: u64) -> u64 {
        match self.atom_family(sort) {
            Some(family) if u128::from(index) < family.total_len() => {
                u64::from(family.blocks[family.locate(u128::from(index)).0].size)
            }
            Some(_) => INFINITE,
            None => self.leaf_size(sort, index),
        }
    }

    /// The generators of the drawn leaf families in the grammar
    /// (`space::drawn`), in sort order, without repeats.
    pub(crate) fn generators(&self) -> Vec<String> {
        let mut names: Vec<String> = vec![];
        for sort in &self.sorts {
            if let SortKind::Leaf { family, .. } = &sort.kind {
                if let Some(name) = family.generator() {
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
            }
        }
        names
    }

    pub(crate) fn leaf_family(&self, sort: SortId) -> &Rc<dyn LeafFamily> {
        match &self.sorts[sort.index()].kind {
            SortKind::Leaf { family, .. } => family,
            _ => unreachable!(),
        }
    }

    /// The name of the root type, for messages.
    pub fn root_name(&self) -> &str {
        &self.sorts[self.root.index()].name
    }

    /// Whether the root has any value at all.
    pub fn is_inhabited(&self) -> bool {
        self.sorts[self.root.index()].min_size != INFINITE
    }

    /// The named types inside the root that have no values (for the
    /// message of an uninhabited input type).
    pub(crate) fn uninhabited_parts(&self) -> Vec<String> {
        self.sorts
            .iter()
            .enumerate()
            .filter(|(i, s)| {
                SortId::new(*i) != self.root && s.origin.is_some() && s.min_size == INFINITE
            })
            .map(|(_, s)| format!("`{}`", s.name))
            .collect()
    }

    /// Size of the smallest value.
    pub fn min_size(&self) -> Option<u64> {
        let m = self.sorts[self.root.index()].min_size;
        (m != INFINITE).then_some(m)
    }
}

/// A materialised value of a grammar: a tree of alternatives and leaf
/// indices. The reference enumeration, indexing and search reports produce
/// these; the grammar turns them into plain values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Tree {
    /// An alternative (by prod id) with its fields.
    Node(ProdId, Vec<Rc<Tree>>),
    /// A leaf value: its sort and global index.
    Leaf(SortId, u64),
}

impl Grammar {
    /// Builds the plain value of a tree of the given sort (iterative).
    pub(crate) fn build_value(&self, tree: &Tree) -> Value {
        build(
            &mut TreeValue {
                g: self,
                trees: PhantomData,
            },
            tree,
        )
    }

    /// Builds the root value (applying the root conversion).
    pub(crate) fn build_root(&self, tree: &Tree) -> Value {
        self.convert_root(self.build_value(tree))
    }

    /// The root conversion: the root sort's value becomes the searched
    /// type's (they differ when the root is a collapsed wrapper).
    pub(crate) fn convert_root(&self, value: Value) -> Value {
        self.root_build.run(&mut vec![value].into_iter())
    }

    /// Size of a tree.
    pub(crate) fn tree_size(&self, tree: &Tree) -> u64 {
        build(
            &mut TreeSize {
                g: self,
                trees: PhantomData,
            },
            tree,
        )
    }
}

/// A tree's fields, in order, as positions of a bottom-up build.
fn tree_fields<'t>(kids: &'t [Rc<Tree>], fields: &mut Vec<&'t Tree>) {
    fields.extend(kids.iter().map(|k| &**k));
}

/// Trees become plain values through the build programs.
struct TreeValue<'g, 't> {
    g: &'g Grammar,
    trees: PhantomData<&'t Tree>,
}

impl<'t> Unfold for TreeValue<'_, 't> {
    type Pos = &'t Tree;
    type Label = ProdId;
    type Out = Value;

    fn open(
        &mut self,
        tree: &'t Tree,
        fields: &mut Vec<&'t Tree>,
    ) -> Option<Opened<ProdId, Value>> {
        Some(match tree {
            Tree::Leaf(sort, index) => Opened::Done(self.g.leaf_value(*sort, *index)),
            Tree::Node(prod, kids) => {
                tree_fields(kids, fields);
                Opened::Node(*prod)
            }
        })
    }

    fn close(&mut self, prod: ProdId, mut fields: std::vec::Drain<'_, Value>) -> Value {
        self.g.prods[prod.index()].build.run(&mut fields)
    }
}

/// Trees become their sizes (costs plus leaf sizes).
struct TreeSize<'g, 't> {
    g: &'g Grammar,
    trees: PhantomData<&'t Tree>,
}

impl<'t> Unfold for TreeSize<'_, 't> {
    type Pos = &'t Tree;
    type Label = u64;
    type Out = u64;

    fn open(&mut self, tree: &'t Tree, fields: &mut Vec<&'t Tree>) -> Option<Opened<u64, u64>> {
        Some(match tree {
            Tree::Leaf(sort, index) => Opened::Done(self.g.leaf_size(*sort, *index)),
            // A lazy atom's bits cost nothing: its block's cost is its size.
            Tree::Node(prod, _) if self.g.prods[prod.index()].atom.is_some() => {
                Opened::Done(u64::from(self.g.prods[prod.index()].cost))
            }
            Tree::Node(prod, kids) => {
                tree_fields(kids, fields);
                Opened::Node(self.g.prods[prod.index()].cost as u64)
            }
        })
    }

    fn close(&mut self, cost: u64, fields: std::vec::Drain<'_, u64>) -> u64 {
        cost + fields.sum::<u64>()
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        // Iterative: deep trees must not overflow the stack when dropped.
        let Tree::Node(_, kids) = self else { return };
        let mut stack: Vec<Rc<Tree>> = std::mem::take(kids);
        while let Some(rc) = stack.pop() {
            if let Ok(Tree::Node(_, kids)) = Rc::try_unwrap(rc).as_mut() {
                stack.append(kids);
            }
        }
    }
}

/// Downcasts a materialised value.
pub(crate) fn downcast<T: 'static>(v: Value, what: &str) -> T {
    match v.downcast::<T>() {
        Ok(b) => *b,
        Err(v) => crate::internal::raise(format!(
            "{what} produced a value of another type than `{}` ({:?}): the space describing \
             it is inconsistent with the type",
            std::any::type_name::<T>(),
            (*v).type_id()
        )),
    }
}

impl Grammar {
    /// Walks the sorts reachable from the root without entering `own`:
    /// whether each holds some type's canonical space (or no position).
    fn typed_outside(&self, own: &std::collections::HashSet<SortId>) -> bool {
        let mut seen = vec![false; self.sorts.len()];
        let mut stack = vec![self.root];
        seen[self.root.index()] = true;
        while let Some(sort) = stack.pop() {
            let s = &self.sorts[sort.index()];
            match &s.kind {
                SortKind::Leaf { .. } if s.origin.is_none() => return false,
                SortKind::Leaf { .. } => {}
                SortKind::Algebraic { decl, .. } => {
                    if s.origin.is_none() && !decl.is_empty() {
                        return false;
                    }
                    for &p in decl {
                        for &slot in &self.prods[p.index()].slots {
                            if !own.contains(&slot) && !seen[slot.index()] {
                                seen[slot.index()] = true;
                                stack.push(slot);
                            }
                        }
                    }
                }
            }
        }
        true
    }
}

/// Compiles an arbitrary space (not cached).
pub(crate) fn compile_space<T: 'static>(space: &crate::describe::Space<T>) -> Rc<Grammar> {
    let mut g = compile(&space.raw, std::any::type_name::<T>());
    // A space that is just a reference to `T`'s own is as good as `of::<T>()`.
    g.trusted = matches!(&*space.raw, Raw::Ref(tr) if tr.key == RefKey::Type(TypeId::of::<T>()))
        && g.typed_outside_own_spaces;
    Rc::new(g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space;

    fn root_chain(g: &Grammar) -> &[ProdId] {
        match &g.sorts[g.root.index()].kind {
            SortKind::Algebraic { chain, .. } => chain,
            SortKind::Leaf { .. } => panic!("an algebraic root"),
        }
    }

    #[test]
    fn fixity_says_whether_a_position_can_change() {
        let lists = compile_space(&space::of::<Vec<bool>>());
        let chain = root_chain(&lists);
        assert_eq!(chain.len(), 2, "nil, then cons");
        assert_eq!(lists.fixity(chain[0], 0), Fixity::Open);
        assert_eq!(lists.fixity(chain[1], 0), Fixity::Last);
        assert_eq!(lists.prods[chain[0].index()].next, Some(chain[1]));
        assert_eq!(lists.prods[chain[1].index()].next, None);
        let pairs = compile_space(&space::of::<(bool, bool)>());
        let chain = root_chain(&pairs);
        assert_eq!(chain.len(), 1);
        assert_eq!(pairs.fixity(chain[0], 0), Fixity::Single);
        // The template of the pair's fields: two fresh booleans, open.
        let template = &pairs.prods[chain[0].index()].template;
        assert_eq!(template.len(), 2);
        assert!(template.iter().all(|t| t.fixity == Fixity::Open));
    }
}

//! Core data, below the grammar: the arena node that is one position of a
//! value under search (and its decoded kind), the marks a node carries, the
//! one checked conversion that makes ids and node indices from `usize`, and
//! the bottom-up builder every walker of a tree plugs into.
//!
//! The crate's unsafe code lives in [`shared`]: the run's read log and the
//! arena published to the watchdog thread. Each has one unchecked
//! operation, called in one place that states why its contract holds
//! (`Ctx::touch`, the watchdog's take-over); `unsafe_code` is denied
//! everywhere else.

mod shared;

pub(crate) use shared::{PublishedArena, ReadLog};

use std::cell::Cell;
use std::vec::Drain;

/// Converts a count or position to a 32-bit id (a sort, an alternative, an
/// arena node, an offset in a template), failing loudly rather than
/// truncating: a grammar or an arena past `u32::MAX` entries is not
/// supported, and a silently wrapped id would name another position.
#[inline]
pub(crate) fn id32(n: usize) -> u32 {
    match u32::try_from(n) {
        Ok(id) => id,
        Err(_) => too_many(n),
    }
}

#[cold]
#[inline(never)]
fn too_many(n: usize) -> ! {
    panic!("neatcheck: {n} is past the 2^32 ids a grammar or an arena can hold")
}

/// A sort of a compiled grammar (a search position's type): an index into
/// the grammar's sorts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SortId(u32);

/// An alternative of a compiled grammar (a leaf sort has one
/// pseudo-alternative): an index into the grammar's alternatives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProdId(u32);

macro_rules! id_type {
    ($id:ident) => {
        impl $id {
            /// The id of entry `i` (fails loudly past `u32::MAX`).
            #[inline]
            pub(crate) fn new(i: usize) -> $id {
                $id(id32(i))
            }

            /// The entry's index.
            #[inline(always)]
            pub(crate) fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl std::fmt::Display for $id {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}
id_type!(SortId);
id_type!(ProdId);

/// Mark of a position that can not change below the current search node:
/// locked by an ancestor, or of a sort with a single alternative.
pub(crate) const LOCKED: u32 = u32::MAX;
/// Mark of a position at the last alternative of its sort: it can not
/// change either, so observing runs do not record it, but it is still an
/// open position for the read counting of strategy OS.
pub(crate) const FINAL: u32 = u32::MAX - 1;
/// Mark of an open position no run of the current stamp has read.
pub(crate) const OPEN: u32 = 0;

/// What a node holds: the choice made at its position, without its mark.
///
/// An alternative keeps the arena index of its first field (its fields are
/// contiguous) and its declaration tag; a leaf keeps its 64-bit global
/// index split over the same two words. Which of the two a node is depends
/// on its alternative (the grammar knows), so the words are read only
/// through [`Choice::kind`] or the typed accessors below.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Choice {
    prod: ProdId,
    /// Alternative: first field. Leaf: low half of the index.
    lo: u32,
    /// Alternative: declaration tag. Leaf: high half of the index.
    hi: u32,
}

/// A node's choice, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NodeKind {
    /// An alternative: the arena index of its first field, its declaration
    /// tag.
    Alternative { first: u32, tag: u32 },
    /// A leaf value: its global index in the leaf family.
    Leaf { index: u64 },
}

impl Choice {
    /// An alternative with its first field at `first`.
    #[inline(always)]
    pub(crate) fn alternative(prod: ProdId, first: u32, tag: u32) -> Choice {
        Choice {
            prod,
            lo: first,
            hi: tag,
        }
    }

    /// A leaf value at global `index` of its family.
    #[inline(always)]
    pub(crate) fn leaf(prod: ProdId, index: u64) -> Choice {
        Choice {
            prod,
            lo: index as u32,
            hi: (index >> 32) as u32,
        }
    }

    /// The node's alternative (for a leaf, its sort's pseudo-alternative).
    #[inline(always)]
    pub(crate) fn prod(&self) -> ProdId {
        self.prod
    }

    /// Decodes the choice; `leaf` says whether `prod` is a leaf's.
    #[inline(always)]
    pub(crate) fn kind(&self, leaf: bool) -> NodeKind {
        if leaf {
            NodeKind::Leaf {
                index: self.leaf_index(),
            }
        } else {
            NodeKind::Alternative {
                first: self.first_field(),
                tag: self.tag(),
            }
        }
    }

    /// An alternative's first field (meaningless for a leaf).
    #[inline(always)]
    pub(crate) fn first_field(&self) -> u32 {
        self.lo
    }

    /// An alternative's declaration tag (meaningless for a leaf).
    #[inline(always)]
    pub(crate) fn tag(&self) -> u32 {
        self.hi
    }

    /// A leaf's global index (meaningless for an alternative).
    #[inline(always)]
    pub(crate) fn leaf_index(&self) -> u64 {
        self.lo as u64 | (self.hi as u64) << 32
    }
}

/// One position of the value under search: its choice and its mark. A mark
/// below the current run's stamp means "open and not yet read in this run";
/// [`LOCKED`] and [`FINAL`] are above every stamp of an observing run.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    choice: Choice,
    pub(crate) mark: Cell<u32>,
}

// The arena is the engine's working set: keep a node 16 bytes.
const _: () = assert!(std::mem::size_of::<Node>() == 16);

impl Node {
    /// A node holding `choice`, marked `mark`.
    #[inline(always)]
    pub(crate) fn new(choice: Choice, mark: u32) -> Node {
        Node {
            choice,
            mark: Cell::new(mark),
        }
    }

    /// What the node holds.
    #[inline(always)]
    pub(crate) fn choice(&self) -> Choice {
        self.choice
    }

    /// Replaces what the node holds (its mark is left alone).
    #[inline(always)]
    pub(crate) fn set_choice(&mut self, choice: Choice) {
        self.choice = choice;
    }

    /// The node's alternative.
    #[inline(always)]
    pub(crate) fn prod(&self) -> ProdId {
        self.choice.prod
    }

    /// See [`Choice::kind`].
    #[inline(always)]
    pub(crate) fn kind(&self, leaf: bool) -> NodeKind {
        self.choice.kind(leaf)
    }

    /// See [`Choice::first_field`].
    #[inline(always)]
    pub(crate) fn first_field(&self) -> u32 {
        self.choice.first_field()
    }

    /// See [`Choice::tag`].
    #[inline(always)]
    pub(crate) fn tag(&self) -> u32 {
        self.choice.tag()
    }

    /// See [`Choice::leaf_index`].
    #[inline(always)]
    pub(crate) fn leaf_index(&self) -> u64 {
        self.choice.leaf_index()
    }
}

/// What [`Unfold::open`] found at a position.
#[derive(Debug)]
pub(crate) enum Opened<L, O> {
    /// A finished output (a leaf, a hole): nothing below it is visited.
    Done(O),
    /// A node whose fields were pushed (in order): once they are built,
    /// [`Unfold::close`] makes its output from theirs.
    Node(L),
}

/// A tree read top-down and built bottom-up: the positions of some input
/// (a grammar tree, an arena, an index walk) become outputs (values,
/// trees, patterns, sizes). [`build`] drives it with its own stacks, so a
/// value of any depth is built without recursion.
pub(crate) trait Unfold {
    /// A position of the input.
    type Pos;
    /// What a node keeps until its fields are built.
    type Label;
    /// What each position becomes.
    type Out;

    /// Looks at `pos`: either its output, or a node label with its fields'
    /// positions pushed on `fields` in order. `None` stops the build (an
    /// input found malformed).
    fn open(
        &mut self,
        pos: Self::Pos,
        fields: &mut Vec<Self::Pos>,
    ) -> Option<Opened<Self::Label, Self::Out>>;

    /// The output of a node from its fields' outputs (in order), drained
    /// from the builder's stack: an output that keeps them collects them,
    /// one that combines them allocates nothing.
    fn close(&mut self, label: Self::Label, fields: Drain<'_, Self::Out>) -> Self::Out;
}

/// A pending step of a build: open a position, or close a node once its
/// fields' outputs are on the stack.
#[derive(Debug)]
enum Task<P, L> {
    Open(P),
    Close(L, usize),
}

/// The stacks of a build, kept by a caller that builds often (forcing a
/// lazy position: a few small values per run) so that a build allocates
/// only its outputs. A build starts by emptying them: a build cut short (a
/// malformed input, a panic in a conversion) leaves entries behind.
#[derive(Debug)]
pub(crate) struct BuildStacks<P, L, O> {
    tasks: Vec<Task<P, L>>,
    outs: Vec<O>,
    fields: Vec<P>,
}

impl<P, L, O> BuildStacks<P, L, O> {
    pub(crate) const fn new() -> Self {
        BuildStacks {
            tasks: Vec::new(),
            outs: Vec::new(),
            fields: Vec::new(),
        }
    }
}

/// Builds the output of `root` (fields left to right, each node after its
/// fields), iteratively; `None` when [`Unfold::open`] stopped it.
pub(crate) fn try_build<U: Unfold>(u: &mut U, root: U::Pos) -> Option<U::Out> {
    try_build_in(u, root, &mut BuildStacks::new())
}

/// [`try_build`] on the caller's stacks (their capacity kept).
pub(crate) fn try_build_in<U: Unfold>(
    u: &mut U,
    root: U::Pos,
    stacks: &mut BuildStacks<U::Pos, U::Label, U::Out>,
) -> Option<U::Out> {
    let BuildStacks {
        tasks,
        outs,
        fields,
    } = stacks;
    tasks.clear();
    outs.clear();
    fields.clear();
    tasks.push(Task::Open(root));
    while let Some(task) = tasks.pop() {
        match task {
            Task::Open(pos) => match u.open(pos, fields)? {
                Opened::Done(out) => outs.push(out),
                Opened::Node(label) => {
                    tasks.push(Task::Close(label, fields.len()));
                    tasks.extend(fields.drain(..).rev().map(Task::Open));
                }
            },
            Task::Close(label, arity) => {
                let at = outs.len() - arity;
                let out = u.close(label, outs.drain(at..));
                outs.push(out);
            }
        }
    }
    outs.pop()
}

/// [`build`] on the caller's stacks.
pub(crate) fn build_in<U: Unfold>(
    u: &mut U,
    root: U::Pos,
    stacks: &mut BuildStacks<U::Pos, U::Label, U::Out>,
) -> U::Out {
    try_build_in(u, root, stacks).expect("a well-formed input builds one output")
}

/// [`try_build`] for inputs that are well formed by construction.
pub(crate) fn build<U: Unfold>(u: &mut U, root: U::Pos) -> U::Out {
    try_build(u, root).expect("a well-formed input builds one output")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_past_u32_fail_loudly() {
        assert_eq!(id32(0), 0);
        assert_eq!(id32(u32::MAX as usize), u32::MAX);
        assert_eq!(SortId::new(5).index(), 5);
        assert_eq!(ProdId::new(u32::MAX as usize).index(), u32::MAX as usize);
        assert!(std::panic::catch_unwind(|| ProdId::new(1 << 40)).is_err());
        let past = std::panic::catch_unwind(|| id32(u32::MAX as usize + 1));
        let message = past.unwrap_err();
        let message = message.downcast_ref::<String>().unwrap();
        assert!(message.contains("4294967296"), "{message}");
    }

    #[test]
    fn a_choice_decodes_as_it_was_made() {
        for index in [0, 1, u32::MAX as u64, 1 << 32, u64::MAX - 1, u64::MAX] {
            let leaf = Choice::leaf(ProdId(7), index);
            assert_eq!(leaf.prod(), ProdId(7));
            assert_eq!(leaf.kind(true), NodeKind::Leaf { index });
        }
        let alt = Choice::alternative(ProdId(3), 41, 2);
        assert_eq!(alt.prod(), ProdId(3));
        assert_eq!(alt.kind(false), NodeKind::Alternative { first: 41, tag: 2 });
        let mut node = Node::new(alt, FINAL);
        node.set_choice(Choice::leaf(ProdId(3), u64::MAX));
        assert_eq!(node.leaf_index(), u64::MAX);
        assert_eq!(node.mark.get(), FINAL, "a new choice keeps the mark");
    }

    /// A chain `depth` deep (each node one field), built into its depth.
    struct Chain {
        depth: u32,
    }

    impl Unfold for Chain {
        type Pos = u32;
        type Label = ();
        type Out = u32;
        fn open(&mut self, pos: u32, fields: &mut Vec<u32>) -> Option<Opened<(), u32>> {
            if pos == self.depth {
                return Some(Opened::Done(0));
            }
            fields.push(pos + 1);
            Some(Opened::Node(()))
        }
        fn close(&mut self, _: (), mut fields: Drain<'_, u32>) -> u32 {
            fields.next().unwrap() + 1
        }
    }

    #[test]
    fn a_deep_tree_builds_without_recursion() {
        // Far deeper than a recursive builder's stack allows.
        let depth = 1_000_000;
        assert_eq!(build(&mut Chain { depth }, 0), depth);
    }

    /// Binary trees of a given height as strings, to see the order.
    struct Print;

    impl Unfold for Print {
        type Pos = (u32, u32);
        type Label = u32;
        type Out = String;
        fn open(
            &mut self,
            (name, height): (u32, u32),
            fields: &mut Vec<(u32, u32)>,
        ) -> Option<Opened<u32, String>> {
            if height == 0 {
                return Some(Opened::Done(name.to_string()));
            }
            fields.extend([(2 * name, height - 1), (2 * name + 1, height - 1)]);
            Some(Opened::Node(name))
        }
        fn close(&mut self, name: u32, fields: Drain<'_, String>) -> String {
            format!("{name}({})", fields.collect::<Vec<_>>().join(" "))
        }
    }

    #[test]
    fn fields_come_in_order_and_a_stop_stops() {
        assert_eq!(build(&mut Print, (1, 2)), "1(2(4 5) 3(6 7))");
        struct Refuse;
        impl Unfold for Refuse {
            type Pos = ();
            type Label = ();
            type Out = ();
            fn open(&mut self, _: (), _: &mut Vec<()>) -> Option<Opened<(), ()>> {
                None
            }
            fn close(&mut self, _: (), _: Drain<'_, ()>) {}
        }
        assert!(try_build(&mut Refuse, ()).is_none());
    }

    /// Stacks kept between builds: a build cut short (refused below the
    /// root, or by a panic in `close`) leaves entries behind, and the next
    /// build on the same stacks is still right.
    #[test]
    fn kept_stacks_survive_a_build_cut_short() {
        /// `Print`, refusing the positions named `refuse` and panicking
        /// when closing `panic`.
        struct Faulty {
            refuse: u32,
            panic: u32,
        }
        impl Unfold for Faulty {
            type Pos = (u32, u32);
            type Label = u32;
            type Out = String;
            fn open(
                &mut self,
                pos: (u32, u32),
                fields: &mut Vec<(u32, u32)>,
            ) -> Option<Opened<u32, String>> {
                if pos.0 == self.refuse {
                    return None;
                }
                Print.open(pos, fields)
            }
            fn close(&mut self, name: u32, fields: Drain<'_, String>) -> String {
                assert!(name != self.panic, "closing {name}");
                Print.close(name, fields)
            }
        }
        let mut stacks = BuildStacks::new();
        let none = Faulty {
            refuse: u32::MAX,
            panic: u32::MAX,
        };
        let mut refusing = Faulty { refuse: 6, ..none };
        assert!(try_build_in(&mut refusing, (1, 2), &mut stacks).is_none());
        let mut panicking = Faulty { panic: 3, ..none };
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            build_in(&mut panicking, (1, 2), &mut stacks)
        }));
        assert!(caught.is_err());
        assert!(!stacks.outs.is_empty() || !stacks.tasks.is_empty());
        let mut fine = Faulty { ..none };
        assert_eq!(build_in(&mut fine, (1, 2), &mut stacks), "1(2(4 5) 3(6 7))");
        assert_eq!(build_in(&mut fine, (1, 1), &mut stacks), "1(2 3)");
    }
}

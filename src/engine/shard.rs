//! The shards of a search: which search-tree nodes one of `n` deterministic
//! parts runs and counts, and the searches over one shard
//! ([`Shard::classes`], [`Shard::ctrex_within`]). What a check does with a
//! shard (`NEATCHECK_SHARD=i/n`) is the driver's.
//!
//! The partition (`docs/spec.md#shards`): every node at search-tree depth
//! `<= d` (the shard depth, `Shard::depth`) has an owner computed from its
//! path alone ([`owner`]): its child index plus a hash of its parent's
//! path, modulo `n`. A node at depth `d` goes with its whole subtree; a
//! shard skips the subtrees at depth `d` that are not its own without
//! running them. A node above depth `d` is needed by every shard (its
//! reads define the children below it, and under a conjunction strategy
//! the schedule they inherit), so every shard runs it, exactly as the
//! sequential search does, but only its owner counts it or reports its
//! failure; for the others it is a *replay*. Every run of the whole search
//! is then counted by exactly one shard, the runs of a shard are in the
//! sequential order, and the deal depends on nothing but the search tree.
//! Since it needs no count of the nodes before a node, a parallel worker
//! that restarts anywhere by replaying a path deals as a walk from the
//! root does: a shard's part splits across threads like a whole search.
//!
//! Consecutive siblings go to consecutive shards; the hash makes cousins
//! start at unrelated shards (a plain sum of the path's indices puts the
//! second child of one node and the first of its next sibling together,
//! which measured 5.0 instead of 7.2 on Lambda's 16 shards). A dealing
//! in search order (round-robin over one walk from the root) balanced as
//! well on 4 shards and better on Lambda's 16 (8.9), but needs that walk;
//! measured with `tools/src/bin/shard_balance.rs`, table in
//! `docs/spec.md#shards`.
//!
//! The shard depth trades balance for repeated work: a deeper cut deals out
//! more and smaller subtrees, and every shard replays all the nodes above
//! it. The default, 10, was measured on Lambda, RedBlack and RegExp at
//! bounds of 1.5 to 1.9 M runs (depth 12 made RedBlack's replays 224 k
//! per shard; depth 8 left Lambda at 3.6 times on 16 shards).

use super::dfs::Engine;
#[cfg(test)]
use super::{count_classes, BoundResult, Budget, Classes, Outcome, Searcher, Until};
#[cfg(test)]
use crate::cool::{Cool, Strategy};
#[cfg(test)]
use crate::handle::Lazy;
use crate::record::Shard;
#[cfg(test)]
use crate::Enumerable;

/// What one shard does with a search-tree node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Deal {
    /// Its own: counted, tallied, its failure reported.
    Own,
    /// Another shard's node above the cut: run uncounted, to reach the
    /// nodes below it.
    Replay,
    /// Another shard's node at the cut (or below one): skipped with its
    /// subtree.
    Skip,
}

/// The shard, from 0, that owns the node at `path` (at most the shard
/// depth deep) among `count`: its child index shifted by a mix of its
/// parent's path, so that consecutive siblings go to consecutive shards
/// and cousins start at unrelated ones.
pub(crate) fn owner(path: &[u32], count: u64) -> u64 {
    let Some((&last, parent)) = path.split_last() else {
        return 0;
    };
    (u64::from(last) + mix(parent)) % count
}

/// A hash of a path (splitmix64's finaliser over its indices and length):
/// the offset of its children's shards.
fn mix(path: &[u32]) -> u64 {
    let mut h = path.len() as u64;
    for &i in path {
        h = (h ^ u64::from(i)).wrapping_add(0x9e37_79b9_7f4a_7c15);
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^= h >> 31;
    }
    h
}

/// Which search-tree nodes one shard runs and counts.
#[derive(Debug, Clone)]
pub(crate) struct ShardCut {
    /// This shard, from 0.
    mine: u64,
    count: u64,
    depth: usize,
    /// The node pending or run last is another shard's, above the cut.
    replay: bool,
    /// Scratch for the pending node's path.
    path: Vec<u32>,
}

impl ShardCut {
    /// One shard's part of a search.
    pub(crate) fn new(shard: Shard) -> Self {
        ShardCut {
            mine: shard.index() as u64 - 1,
            count: shard.count() as u64,
            depth: shard.depth(),
            replay: false,
            path: Vec::with_capacity(shard.depth()),
        }
    }

    /// What this shard does with the node at `path`: a function of the
    /// path alone, so that every worker of a parallel search, wherever it
    /// restarted, deals the same.
    pub(crate) fn deal(&self, path: &[u32]) -> Deal {
        let at_cut = &path[..path.len().min(self.depth)];
        let own = owner(at_cut, self.count) == self.mine;
        match (own, path.len() < self.depth) {
            (true, _) => Deal::Own,
            (false, true) => Deal::Replay,
            (false, false) => Deal::Skip,
        }
    }

    /// Whether the node pending or run last is a replay.
    pub(crate) fn replaying(&self) -> bool {
        self.replay
    }

    /// Moves the engine to the next node this shard runs (its own, or a
    /// replay above the cut), from the pending node if there is one (a
    /// parallel worker may have moved there unsharded), skipping the other
    /// shards' subtrees; false at the end of the search. Kept out of line:
    /// unsharded searches step through `Searcher::advance` on every run.
    #[inline(never)]
    pub(crate) fn advance(&mut self, engine: &mut Engine) -> bool {
        loop {
            if !engine.advance() {
                return false;
            }
            let depth = engine.depth();
            if depth > self.depth {
                // Inside a subtree of this shard: the engine reaches no
                // other, since they are skipped at their root.
                self.replay = false;
                return true;
            }
            engine.path_at(depth, &mut self.path);
            match self.deal(&self.path) {
                Deal::Own => {
                    self.replay = false;
                    return true;
                }
                Deal::Replay => {
                    self.replay = true;
                    return true;
                }
                Deal::Skip => engine.skip(),
            }
        }
    }
}

/// Searches over one shard, for the tests of sharding (users shard a
/// search with `Config::shard`).
#[cfg(test)]
impl Shard {
    /// [`super::classes`] over this shard: its runs and satisfying classes.
    /// Over the shards `1..=n` of a bound these add up to the whole
    /// search's, each class counted by exactly one shard.
    ///
    /// # Panics
    /// If the predicate panics on one of this shard's runs: the message
    /// names the input.
    pub(crate) fn classes<T: Enumerable, O: Outcome>(
        &self,
        pred: impl Fn(Lazy<'_, T>) -> O,
        bound: usize,
    ) -> Classes {
        count_classes(
            self.searcher(bound),
            |s| s.step(&pred),
            Budget::unlimited(),
            Until::End,
        )
    }

    /// [`super::classes_cool`] over this shard. The nodes above the cut are
    /// run as in the whole search, so every node inherits the schedule it
    /// has there.
    ///
    /// # Panics
    /// As [`Shard::classes`].
    pub(crate) fn classes_cool<T: Enumerable, F>(
        &self,
        pred: F,
        bound: usize,
        strategy: Strategy,
    ) -> Classes
    where
        F: for<'a> Fn(Lazy<'a, T>) -> Cool<'a>,
    {
        count_classes(
            self.searcher(bound),
            |s| s.step_cool(strategy, &pred),
            Budget::unlimited(),
            Until::End,
        )
    }

    /// [`super::ctrex_within`] over this shard: its first counterexample in
    /// search order, among its first `max_runs` runs (the budget counts
    /// this shard's runs). The earliest in search order of the shards'
    /// counterexamples is the whole search's; one shard's is reported with
    /// [`crate::check::Summary::shard`] set and is not
    /// [minimal](Counterexample::is_minimal) unless the shard is the whole
    /// search. `Counterexample::runs` counts this shard's runs.
    pub(crate) fn ctrex_within<T: Enumerable, O: Outcome>(
        &self,
        prop: &impl Fn(Lazy<'_, T>) -> O,
        bound: usize,
        budget: Budget,
    ) -> BoundResult<T> {
        let mut result = self.searcher(bound).ctrex(prop, budget);
        if let BoundResult::Failed(c) = &mut result {
            c.summary.shard = Some(*self);
        }
        result
    }

    /// A searcher of the canonical space of `T` restricted to this shard.
    fn searcher<T: Enumerable>(&self, bound: usize) -> Searcher<T> {
        Searcher::<T>::new(bound).sharded(Some(*self))
    }
}

#[cfg(test)]
mod tests;

//! Realistic systems with planted bugs for stateful testing
//! (`neatcheck::state`): a bounded queue, a key-value store with deletes, a
//! block allocator, and a counter with a race. Each takes `bug` to plant its
//! fault or not, and has a model as a [`StateMachine`]. Used by the
//! `state_machine` example and the `versus_state_machine` benchmark.

use neatcheck::state::{ConcurrentMachine, Pick, StateMachine};
use neatcheck::Enumerable;
use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

// ---------------------------------------------------------------------------
// A bounded queue (a ring buffer of three slots).
// ---------------------------------------------------------------------------

/// The queue's capacity.
pub const QUEUE_CAPACITY: usize = 3;

/// A ring buffer of [`QUEUE_CAPACITY`] bytes. The planted bug: a push onto
/// a full queue overwrites the oldest element (and says it was accepted)
/// instead of refusing.
#[derive(Debug)]
pub struct RingQueue {
    slots: [u8; QUEUE_CAPACITY],
    head: usize,
    len: usize,
    bug: bool,
}

impl RingQueue {
    /// An empty queue.
    pub fn new(bug: bool) -> RingQueue {
        RingQueue {
            slots: [0; QUEUE_CAPACITY],
            head: 0,
            len: 0,
            bug,
        }
    }

    /// Appends `x`; false if the queue is full.
    pub fn push(&mut self, x: u8) -> bool {
        if self.len == QUEUE_CAPACITY {
            if !self.bug {
                return false;
            }
            self.slots[self.head] = x;
            self.head = (self.head + 1) % QUEUE_CAPACITY;
            return true;
        }
        self.slots[(self.head + self.len) % QUEUE_CAPACITY] = x;
        self.len += 1;
        true
    }

    /// Removes the oldest element.
    pub fn pop(&mut self) -> Option<u8> {
        if self.len == 0 {
            return None;
        }
        let x = self.slots[self.head];
        self.head = (self.head + 1) % QUEUE_CAPACITY;
        self.len -= 1;
        Some(x)
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the queue is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// An operation on the queue.
#[derive(Enumerable, Debug, Clone, PartialEq)]
pub enum QueueCommand {
    /// `push(x)`.
    Push(u8),
    /// `pop()`.
    Pop,
    /// `len()`.
    Len,
}

/// What a queue operation returned.
#[derive(Debug, Clone, PartialEq)]
pub enum QueueOutput {
    /// `push`'s answer.
    Accepted(bool),
    /// `pop`'s element.
    Popped(Option<u8>),
    /// `len`'s count.
    Length(usize),
}

/// The queue's model: a `VecDeque` that refuses past the capacity.
#[derive(Debug, Default)]
pub struct QueueMachine {
    /// Plant the bug in the system under test.
    pub bug: bool,
}

impl StateMachine for QueueMachine {
    type State = VecDeque<u8>;
    type Sut = RingQueue;
    type Command = QueueCommand;
    type Output = QueueOutput;

    fn initial_state(&self) -> VecDeque<u8> {
        VecDeque::new()
    }
    fn new_sut(&self) -> RingQueue {
        RingQueue::new(self.bug)
    }
    fn run(&self, sut: &mut RingQueue, command: &QueueCommand) -> QueueOutput {
        match command {
            QueueCommand::Push(x) => QueueOutput::Accepted(sut.push(*x)),
            QueueCommand::Pop => QueueOutput::Popped(sut.pop()),
            QueueCommand::Len => QueueOutput::Length(sut.len()),
        }
    }
    fn next_state(&self, state: &mut VecDeque<u8>, command: &QueueCommand) {
        match command {
            QueueCommand::Push(x) if state.len() < QUEUE_CAPACITY => state.push_back(*x),
            QueueCommand::Pop => {
                state.pop_front();
            }
            _ => {}
        }
    }
    fn postcondition(
        &self,
        before: &VecDeque<u8>,
        command: &QueueCommand,
        output: &QueueOutput,
    ) -> Result<(), String> {
        let expected = match command {
            QueueCommand::Push(_) => QueueOutput::Accepted(before.len() < QUEUE_CAPACITY),
            QueueCommand::Pop => QueueOutput::Popped(before.front().copied()),
            QueueCommand::Len => QueueOutput::Length(before.len()),
        };
        expect(&expected, output)
    }
}

/// `Ok` if `output` is `expected`, else a message saying what was expected.
fn expect<O: PartialEq + std::fmt::Debug>(expected: &O, output: &O) -> Result<(), String> {
    if expected == output {
        Ok(())
    } else {
        Err(format!("the model expects {expected:?}"))
    }
}

// ---------------------------------------------------------------------------
// A key-value store with deletes.
// ---------------------------------------------------------------------------

/// The store's keys: three, so that sequences stay short.
#[derive(Enumerable, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    /// The first key.
    A,
    /// The second key.
    B,
    /// The third key.
    C,
}

/// A store kept as a dense vector of entries with an index from key to
/// position. The planted bug: a delete moves the last entry into the hole
/// (`swap_remove`) without updating that entry's index.
#[derive(Debug)]
pub struct DenseStore {
    entries: Vec<(Key, u8)>,
    index: HashMap<Key, usize>,
    bug: bool,
}

impl DenseStore {
    /// An empty store.
    pub fn new(bug: bool) -> DenseStore {
        DenseStore {
            entries: vec![],
            index: HashMap::new(),
            bug,
        }
    }

    /// Sets `key` to `value`; the value it had.
    pub fn put(&mut self, key: Key, value: u8) -> Option<u8> {
        match self.index.get(&key) {
            Some(&i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            None => {
                self.index.insert(key, self.entries.len());
                self.entries.push((key, value));
                None
            }
        }
    }

    /// The value of `key`.
    pub fn get(&self, key: Key) -> Option<u8> {
        let i = *self.index.get(&key)?;
        self.entries.get(i).map(|e| e.1)
    }

    /// Removes `key`; the value it had.
    pub fn delete(&mut self, key: Key) -> Option<u8> {
        let i = self.index.remove(&key)?;
        let (_, value) = self.entries.swap_remove(i);
        if !self.bug {
            if let Some(&(moved, _)) = self.entries.get(i) {
                self.index.insert(moved, i);
            }
        }
        Some(value)
    }
}

/// An operation on the store.
#[derive(Enumerable, Debug, Clone, PartialEq)]
pub enum StoreCommand {
    /// `put(key, value)`.
    Put(Key, u8),
    /// `get(key)`.
    Get(Key),
    /// `delete` of a key that is present (the `Pick`-th in key order).
    Delete(Pick),
}

/// The store's model: a map from key to value.
#[derive(Debug, Default)]
pub struct StoreMachine {
    /// Plant the bug in the system under test.
    pub bug: bool,
}

impl StateMachine for StoreMachine {
    type State = std::collections::BTreeMap<Key, u8>;
    type Sut = DenseStore;
    type Command = StoreCommand;
    type Output = Option<u8>;

    fn initial_state(&self) -> Self::State {
        Self::State::new()
    }
    fn new_sut(&self) -> DenseStore {
        DenseStore::new(self.bug)
    }
    fn precondition(&self, state: &Self::State, command: &StoreCommand) -> bool {
        match command {
            StoreCommand::Delete(pick) => pick.nth(state.keys()).is_some(),
            _ => true,
        }
    }
    fn run(&self, sut: &mut DenseStore, command: &StoreCommand) -> Option<u8> {
        match command {
            StoreCommand::Put(k, v) => sut.put(*k, *v),
            StoreCommand::Get(k) => sut.get(*k),
            StoreCommand::Delete(pick) => {
                // The key the pick names, in the system's own terms: the
                // model chose it, so the sequence is the same for both.
                let key = pick_key(sut, *pick);
                sut.delete(key)
            }
        }
    }
    fn next_state(&self, state: &mut Self::State, command: &StoreCommand) {
        match command {
            StoreCommand::Put(k, v) => {
                state.insert(*k, *v);
            }
            StoreCommand::Get(_) => {}
            StoreCommand::Delete(pick) => {
                if let Some(k) = pick.nth(state.keys().copied()) {
                    state.remove(&k);
                }
            }
        }
    }
    fn postcondition(
        &self,
        before: &Self::State,
        command: &StoreCommand,
        output: &Option<u8>,
    ) -> Result<(), String> {
        let expected = match command {
            StoreCommand::Put(k, _) | StoreCommand::Get(k) => before.get(k).copied(),
            StoreCommand::Delete(pick) => pick.nth(before.values().copied()),
        };
        expect(&expected, output)
    }
}

/// The key a pick names among the keys the store holds, in key order
/// (the model's order).
fn pick_key(sut: &DenseStore, pick: Pick) -> Key {
    let mut keys: Vec<Key> = sut.index.keys().copied().collect();
    keys.sort();
    pick.of(&keys).copied().unwrap_or(Key::A)
}

// ---------------------------------------------------------------------------
// A block allocator.
// ---------------------------------------------------------------------------

/// Hands out block numbers: freed blocks first (last freed first), then new
/// ones. The planted bug: freeing the last block handed out lowers the
/// high-water mark *and* keeps the block on the free list, so it can be
/// handed out twice.
#[derive(Debug)]
pub struct BlockAllocator {
    next: usize,
    free: Vec<usize>,
    bug: bool,
}

impl BlockAllocator {
    /// An allocator with no block handed out.
    pub fn new(bug: bool) -> BlockAllocator {
        BlockAllocator {
            next: 0,
            free: vec![],
            bug,
        }
    }

    /// A block.
    pub fn alloc(&mut self) -> usize {
        if let Some(b) = self.free.pop() {
            return b;
        }
        self.next += 1;
        self.next - 1
    }

    /// Gives block `b` back.
    pub fn free(&mut self, b: usize) {
        if b + 1 == self.next && self.free.is_empty() {
            self.next -= 1;
            if !self.bug {
                return;
            }
        }
        self.free.push(b);
    }
}

/// An operation on the allocator.
#[derive(Enumerable, Debug, Clone, PartialEq)]
pub enum AllocCommand {
    /// `alloc()`.
    Alloc,
    /// `free` of a live block (the `Pick`-th in the order handed out).
    Free(Pick),
}

/// The allocator's model: the blocks live, in the order handed out; its
/// answer must never be a live block.
#[derive(Debug, Default)]
pub struct AllocMachine {
    /// Plant the bug in the system under test.
    pub bug: bool,
}

/// What the model and the system know of the allocator.
#[derive(Debug, Clone, Default)]
pub struct Blocks {
    /// Live blocks, in the order handed out.
    pub live: Vec<usize>,
}

impl StateMachine for AllocMachine {
    type State = Blocks;
    type Sut = (BlockAllocator, Vec<usize>);
    type Command = AllocCommand;
    type Output = Option<usize>;

    fn initial_state(&self) -> Blocks {
        Blocks::default()
    }
    fn new_sut(&self) -> Self::Sut {
        (BlockAllocator::new(self.bug), vec![])
    }
    fn precondition(&self, state: &Blocks, command: &AllocCommand) -> bool {
        match command {
            AllocCommand::Alloc => true,
            AllocCommand::Free(pick) => pick.of(&state.live).is_some(),
        }
    }
    fn run(&self, (sut, live): &mut Self::Sut, command: &AllocCommand) -> Option<usize> {
        match command {
            AllocCommand::Alloc => {
                let b = sut.alloc();
                live.push(b);
                Some(b)
            }
            AllocCommand::Free(pick) => {
                let i = usize::from(pick.0);
                let b = live.remove(i);
                sut.free(b);
                None
            }
        }
    }
    fn next_state(&self, state: &mut Blocks, command: &AllocCommand) {
        match command {
            // The model does not know which block comes: it records a
            // placeholder that `postcondition` can not clash with.
            AllocCommand::Alloc => state.live.push(usize::MAX),
            AllocCommand::Free(pick) => {
                state.live.remove(usize::from(pick.0));
            }
        }
    }
    fn postcondition(
        &self,
        _before: &Blocks,
        _command: &AllocCommand,
        _output: &Option<usize>,
    ) -> Result<(), String> {
        Ok(())
    }
    fn invariant(&self, (_, live): &Self::Sut, _state: &Blocks) -> Result<(), String> {
        // No block is live twice.
        let mut seen = live.clone();
        seen.sort_unstable();
        match seen.windows(2).find(|w| w[0] == w[1]) {
            Some(w) => Err(format!("block {} is handed out twice", w[0])),
            None => Ok(()),
        }
    }
}

// ---------------------------------------------------------------------------
// A counter shared between threads.
// ---------------------------------------------------------------------------

/// A counter behind a lock. The planted race: `increment` reads the value,
/// releases the lock, then writes the value plus one under the lock again.
#[derive(Debug)]
pub struct SharedCounter {
    value: Mutex<u64>,
    bug: bool,
}

impl SharedCounter {
    /// A counter at zero.
    pub fn new(bug: bool) -> SharedCounter {
        SharedCounter {
            value: Mutex::new(0),
            bug,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, u64> {
        self.value.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds one; the new value.
    pub fn increment(&self) -> u64 {
        if self.bug {
            let read = *self.lock();
            // The window: another thread may increment here.
            std::thread::yield_now();
            let mut v = self.lock();
            *v = read + 1;
            *v
        } else {
            let mut v = self.lock();
            *v += 1;
            *v
        }
    }

    /// The value.
    pub fn get(&self) -> u64 {
        *self.lock()
    }
}

/// An operation on the counter.
#[derive(Enumerable, Debug, Clone, PartialEq)]
pub enum CounterCommand {
    /// `increment()`.
    Increment,
    /// `get()`.
    Get,
}

/// The counter's model: its value.
#[derive(Debug, Default)]
pub struct CounterMachine {
    /// Plant the race in the system under test.
    pub bug: bool,
}

impl StateMachine for CounterMachine {
    type State = u64;
    type Sut = SharedCounter;
    type Command = CounterCommand;
    type Output = u64;

    fn initial_state(&self) -> u64 {
        0
    }
    fn new_sut(&self) -> SharedCounter {
        SharedCounter::new(self.bug)
    }
    fn run(&self, sut: &mut SharedCounter, command: &CounterCommand) -> u64 {
        self.run_shared(sut, command)
    }
    fn next_state(&self, state: &mut u64, command: &CounterCommand) {
        if *command == CounterCommand::Increment {
            *state += 1;
        }
    }
    fn postcondition(
        &self,
        before: &u64,
        command: &CounterCommand,
        output: &u64,
    ) -> Result<(), String> {
        let expected = match command {
            CounterCommand::Increment => before + 1,
            CounterCommand::Get => *before,
        };
        expect(&expected, output)
    }
}

impl ConcurrentMachine for CounterMachine {
    fn run_shared(&self, sut: &SharedCounter, command: &CounterCommand) -> u64 {
        match command {
            CounterCommand::Increment => sut.increment(),
            CounterCommand::Get => sut.get(),
        }
    }
}

//! Realistic properties for measuring what a check costs and what it finds
//! (`versus_proptest`): each family has a planted bug and its fix, written
//! once as plain functions, so that neatcheck and proptest check the very
//! same code. The bugs are of the kinds users meet: numeric boundaries,
//! floats, text, collections, operation sequences against a model,
//! recursive data; some need edge values, some long inputs, some a
//! specific small combination.
//!
//! Each property is `Fn(&T) -> bool` (a panic fails too); `bug` selects the
//! planted bug or the fix.

use neatcheck::Enumerable;
use std::collections::{BTreeMap, VecDeque};

// ---------------------------------------------------------------------------
// Numbers.

/// LEB128 length of `x`, from a table of thresholds; the planted bug puts
/// the 7-byte threshold at 2^42 + 1 instead of 2^42.
pub fn varint_len(x: u64, bug: bool) -> usize {
    let bounds: [u64; 9] = [
        1 << 7,
        1 << 14,
        1 << 21,
        1 << 28,
        1 << 35,
        if bug { (1 << 42) + 1 } else { 1 << 42 },
        1 << 49,
        1 << 56,
        1 << 63,
    ];
    bounds.iter().position(|&b| x < b).map_or(10, |i| i + 1)
}

/// LEB128 encoding.
pub fn varint(mut x: u64) -> Vec<u8> {
    let mut out = vec![];
    loop {
        let byte = (x & 0x7f) as u8;
        x >>= 7;
        if x == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

/// Parses a decimal `i64`; the planted bug accumulates the magnitude as a
/// positive `i64`, which has no room for `i64::MIN`.
pub fn parse_i64(s: &str, bug: bool) -> Option<i64> {
    let (negative, digits) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if bug {
        let mut n: i64 = 0;
        for b in digits.bytes() {
            n = n.checked_mul(10)?.checked_add(i64::from(b - b'0'))?;
        }
        Some(if negative { -n } else { n })
    } else {
        let mut n: i64 = 0;
        for b in digits.bytes() {
            let d = i64::from(b - b'0');
            n = n.checked_mul(10)?;
            n = if negative {
                n.checked_sub(d)?
            } else {
                n.checked_add(d)?
            };
        }
        Some(n)
    }
}

/// The cell of a point in a spatial hash of 16-unit cells; the planted bug
/// divides with truncation, so -1 falls in cell 0.
pub fn cell_of(x: i32, bug: bool) -> i32 {
    if bug {
        x / 16
    } else {
        x.div_euclid(16)
    }
}

/// A point lies inside its cell.
pub fn in_own_cell((x, y): (i32, i32), bug: bool) -> bool {
    let inside = |v: i32| {
        let lo = i64::from(cell_of(v, bug)) * 16;
        (lo..lo + 16).contains(&i64::from(v))
    };
    inside(x) && inside(y)
}

/// Bytes as a human-readable size (`"1.5 KiB"`), one decimal; the planted
/// bug picks the unit before rounding, so 1023.95 KiB prints as
/// "1024.0 KiB" (the bug of several real command-line tools).
pub fn human_bytes(n: u64, bug: bool) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = n as f64;
    let mut unit = 0;
    if bug {
        while value >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
    } else {
        while (value * 10.0).round() / 10.0 >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
    }
    if unit == 0 {
        format!("{n} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// The number printed is below 1024 (or the unit is bytes).
pub fn human_bytes_in_range(n: u64, bug: bool) -> bool {
    let s = human_bytes(n, bug);
    let number: f64 = s.split(' ').next().unwrap().parse().unwrap();
    s.ends_with(" B") || number < 1024.0
}

/// Days in a month; the planted bug leaves out the 400-year rule.
pub fn days_in_month(year: u16, month: u8, bug: bool) -> u8 {
    let leap = if bug {
        year % 4 == 0 && year % 100 != 0
    } else {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    };
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Day of the year (from 0) back to (month, day) and forth; the reference
/// year length comes from the proleptic Gregorian rule.
pub fn ordinal_round_trip((year, ordinal): (u16, u16), bug: bool) -> bool {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    if ordinal >= 365 + u16::from(leap) {
        return true;
    }
    let mut left = ordinal;
    let mut month = 1;
    while month <= 12 && left >= u16::from(days_in_month(year, month, bug)) {
        left -= u16::from(days_in_month(year, month, bug));
        month += 1;
    }
    month <= 12
}

/// The midpoint of two `u32`; the planted bug adds first.
pub fn midpoint(a: u32, b: u32, bug: bool) -> u32 {
    if bug {
        a.wrapping_add(b) / 2
    } else {
        ((u64::from(a) + u64::from(b)) / 2) as u32
    }
}

/// Saturating conversion to a byte; the planted bug casts.
pub fn to_byte(x: i32, bug: bool) -> u8 {
    if bug {
        x.max(0) as u8
    } else {
        x.clamp(0, 255) as u8
    }
}

/// `|x|` of an `i32`; the planted bug panics on `i32::MIN` (`abs`).
pub fn magnitude(x: i32, bug: bool) -> u32 {
    if bug {
        x.checked_abs().expect("abs overflow") as u32
    } else {
        x.unsigned_abs()
    }
}

// ---------------------------------------------------------------------------
// Floats.

/// Sorts floats; the planted bug treats NaN as equal to everything, which
/// leaves the order inconsistent.
pub fn sort_floats(xs: &mut [f64], bug: bool) {
    if bug {
        xs.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    } else {
        xs.sort_by(f64::total_cmp);
    }
}

/// Sorting leaves the numbers (NaN aside) in increasing order.
pub fn floats_sorted(xs: &[f64], bug: bool) -> bool {
    let mut ys = xs.to_vec();
    sort_floats(&mut ys, bug);
    let numbers: Vec<f64> = ys.into_iter().filter(|x| !x.is_nan()).collect();
    numbers.windows(2).all(|w| w[0] <= w[1])
}

/// The mean of two floats; the planted bug overflows to infinity.
pub fn mean(a: f64, b: f64, bug: bool) -> f64 {
    if bug {
        (a + b) / 2.0
    } else {
        a / 2.0 + b / 2.0
    }
}

/// The mean of two finite floats is finite.
pub fn mean_finite((a, b): (f64, f64), bug: bool) -> bool {
    !(a.is_finite() && b.is_finite()) || mean(a, b, bug).is_finite()
}

// ---------------------------------------------------------------------------
// Text.

/// Wraps text at `width` columns (tabs to the next multiple of 4); the
/// planted bug counts a tab as one column.
pub fn wrap(text: &str, width: usize, bug: bool) -> Vec<String> {
    let width = width.max(1);
    let mut lines = vec![];
    let mut line = String::new();
    let mut col = 0;
    for c in text.chars() {
        if c == '\n' {
            lines.push(std::mem::take(&mut line));
            col = 0;
            continue;
        }
        let next = match c {
            '\t' if !bug => (col / 4 + 1) * 4,
            _ => col + 1,
        };
        if next > width && col > 0 {
            lines.push(std::mem::take(&mut line));
            col = 0;
        }
        col = match c {
            '\t' if !bug => (col / 4 + 1) * 4,
            _ => col + 1,
        };
        line.push(c);
    }
    lines.push(line);
    lines
}

/// Columns a line takes, tabs to the next multiple of 4.
pub fn columns(line: &str) -> usize {
    line.chars().fold(0, |col, c| match c {
        '\t' => (col / 4 + 1) * 4,
        _ => col + 1,
    })
}

/// Every wrapped line fits (a line of one character may not).
pub fn wrap_fits((text, width): (String, u8), bug: bool) -> bool {
    let width = usize::from(width % 16).max(4);
    wrap(&text, width, bug)
        .iter()
        .all(|l| l.chars().count() <= 1 || columns(l) <= width)
}

/// The first three bytes of a string; the planted bug slices bytes and
/// panics inside a character.
pub fn prefix3(s: &str, bug: bool) -> &str {
    if bug {
        &s[..s.len().min(3)]
    } else {
        let end = (0..=s.len().min(3))
            .rev()
            .find(|&i| s.is_char_boundary(i))
            .unwrap_or(0);
        &s[..end]
    }
}

/// Copies a name into a 32-byte record; the planted bug assumes names are
/// short and panics on a long one.
pub fn name_record(name: &str, bug: bool) -> [u8; 32] {
    let mut record = [0u8; 32];
    let bytes = name.as_bytes();
    if bug {
        record[..bytes.len().min(40)].copy_from_slice(&bytes[..bytes.len().min(40)]);
    } else {
        let n = bytes.len().min(32);
        record[..n].copy_from_slice(&bytes[..n]);
    }
    record
}

/// Escapes backslashes and newlines; the planted bug forgets backslashes,
/// so `\` followed by `n` reads back as a newline.
pub fn escape(s: &str, bug: bool) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '\\' if !bug => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

/// Reads back an escaped string.
pub fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some(d) => out.push(d),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Run-length encoding as (byte, count) pairs; the planted bug keeps the
/// count in a `u8` and wraps past 255.
pub fn run_lengths(xs: &[u8], bug: bool) -> Vec<(u8, u32)> {
    let mut out: Vec<(u8, u32)> = vec![];
    for &x in xs {
        match out.last_mut() {
            Some((y, n)) if *y == x && (!bug || *n < 255) => *n += 1,
            Some((y, n)) if *y == x => *n = 0,
            _ => out.push((x, 1)),
        }
    }
    out
}

/// Decoding the runs gives the bytes back.
pub fn run_lengths_round_trip(xs: &[u8], bug: bool) -> bool {
    let decoded: Vec<u8> = run_lengths(xs, bug)
        .into_iter()
        .flat_map(|(x, n)| std::iter::repeat_n(x, n as usize))
        .collect();
    decoded == xs
}

// ---------------------------------------------------------------------------
// Collections.

/// The first index whose element is not below `x` in a sorted slice; the
/// planted bug stops at any equal element.
pub fn lower_bound(xs: &[u8], x: u8, bug: bool) -> usize {
    let (mut lo, mut hi) = (0, xs.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if bug && xs[mid] == x {
            return mid;
        }
        if xs[mid] < x {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// `lower_bound` agrees with a linear scan on sorted input.
pub fn lower_bound_agrees(xs: &[u8], x: u8, bug: bool) -> bool {
    lower_bound(xs, x, bug) == xs.iter().take_while(|&&y| y < x).count()
}

/// Whether a slice is sorted.
pub fn sorted(xs: &[u8]) -> bool {
    xs.windows(2).all(|w| w[0] <= w[1])
}

/// A length-prefixed encoding of a list; the planted bug writes the count
/// `as u8`.
pub fn serialize(xs: &[u16], bug: bool) -> Vec<u8> {
    let mut out = vec![];
    if bug {
        out.push(xs.len() as u8);
    } else {
        out.extend(varint(xs.len() as u64));
    }
    for x in xs {
        out.extend(x.to_le_bytes());
    }
    out
}

/// Reads a list back (the counterpart of the fixed `serialize`).
pub fn deserialize(bytes: &[u8], bug: bool) -> Option<Vec<u16>> {
    let (count, mut rest) = if bug {
        (usize::from(*bytes.first()?), &bytes[1..])
    } else {
        let mut n = 0u64;
        let mut i = 0;
        loop {
            let b = *bytes.get(i)?;
            n |= u64::from(b & 0x7f) << (7 * i);
            i += 1;
            if b & 0x80 == 0 {
                break;
            }
        }
        (usize::try_from(n).ok()?, &bytes[i..])
    };
    let mut out = vec![];
    for _ in 0..count {
        let (x, r) = rest.split_first_chunk::<2>()?;
        out.push(u16::from_le_bytes(*x));
        rest = r;
    }
    rest.is_empty().then_some(out)
}

/// Serializing round-trips.
pub fn serialize_round_trip(xs: &[u16], bug: bool) -> bool {
    deserialize(&serialize(xs, bug), bug).as_deref() == Some(xs)
}

/// Inserts into a sorted list; the planted bug drops duplicates.
pub fn sorted_insert(x: u8, xs: &[u8], bug: bool) -> Vec<u8> {
    let i = xs.partition_point(|&y| y < x);
    let mut ys = xs.to_vec();
    if !(bug && xs.get(i) == Some(&x)) {
        ys.insert(i, x);
    }
    ys
}

/// Splits into chunks of 3 and joins; the planted bug drops a last partial
/// chunk when there is more than one chunk.
pub fn chunks_round_trip(xs: &[u8], bug: bool) -> bool {
    let chunks: Vec<&[u8]> = if bug && xs.len() > 3 {
        xs.chunks_exact(3).collect()
    } else {
        xs.chunks(3).collect()
    };
    chunks.concat() == xs
}

/// The `k` largest elements; the planted bug deduplicates them.
pub fn top_k(xs: &[u8], k: usize, bug: bool) -> Vec<u8> {
    let mut ys = xs.to_vec();
    ys.sort_unstable_by(|a, b| b.cmp(a));
    if bug {
        ys.dedup();
    }
    ys.truncate(k);
    ys
}

/// `top_k` takes `min(k, len)` elements, all at least as large as the rest.
pub fn top_k_sound((xs, k): (Vec<u8>, u8), bug: bool) -> bool {
    let k = usize::from(k % 4);
    top_k(&xs, k, bug).len() == k.min(xs.len())
}

// ---------------------------------------------------------------------------
// Operation sequences against a model.

/// Cache operations, keys and values in `0..=3`.
#[derive(Enumerable, Debug, Clone)]
pub enum CacheOp {
    /// Store a value.
    Put(
        #[enumerable(with = "neatcheck::space::range(0, 3, |n| n as u8)")] u8,
        #[enumerable(with = "neatcheck::space::range(0, 3, |n| n as u8)")] u8,
    ),
    /// Read a value.
    Get(#[enumerable(with = "neatcheck::space::range(0, 3, |n| n as u8)")] u8),
}

/// An LRU cache of 3 entries, least recently used first; the planted bug
/// does not refresh an entry's recency on `put`.
#[derive(Default)]
struct Lru {
    entries: Vec<(u8, u8)>,
    refresh_on_put: bool,
}

impl Lru {
    fn get(&mut self, key: u8) -> Option<u8> {
        let i = self.entries.iter().position(|&(k, _)| k == key)?;
        let entry = self.entries.remove(i);
        self.entries.push(entry);
        Some(entry.1)
    }

    fn put(&mut self, key: u8, value: u8) {
        if let Some(i) = self.entries.iter().position(|&(k, _)| k == key) {
            if self.refresh_on_put {
                self.entries.remove(i);
                self.entries.push((key, value));
            } else {
                self.entries[i].1 = value;
            }
            return;
        }
        if self.entries.len() == 3 {
            self.entries.remove(0);
        }
        self.entries.push((key, value));
    }
}

/// Every `get` agrees with the correct cache.
pub fn lru_agrees(ops: &[CacheOp], bug: bool) -> bool {
    let mut real = Lru {
        refresh_on_put: !bug,
        ..Lru::default()
    };
    let mut model = Lru {
        refresh_on_put: true,
        ..Lru::default()
    };
    ops.iter().all(|op| match *op {
        CacheOp::Put(k, v) => {
            real.put(k, v);
            model.put(k, v);
            true
        }
        CacheOp::Get(k) => real.get(k) == model.get(k),
    })
}

/// Queue operations, values in `0..=1`.
#[derive(Enumerable, Debug, Clone)]
pub enum QueueOp {
    /// Enqueue a value.
    Push(#[enumerable(with = "neatcheck::space::range(0, 1, |n| n as u8)")] u8),
    /// Dequeue.
    Pop,
}

/// A ring buffer of 3; the planted bug wraps the head modulo 2.
pub fn ring_agrees(ops: &[QueueOp], bug: bool) -> bool {
    let (mut buf, mut head, mut len) = ([0u8; 3], 0usize, 0usize);
    let mut model = VecDeque::new();
    ops.iter().all(|op| match *op {
        QueueOp::Push(v) => {
            let accepted = model.len() < 3;
            if accepted {
                model.push_back(v);
            }
            let real = if len == 3 {
                false
            } else {
                buf[(head + len) % 3] = v;
                len += 1;
                true
            };
            real == accepted
        }
        QueueOp::Pop => {
            let real = (len > 0).then(|| {
                let v = buf[head];
                head = (head + 1) % if bug { 2 } else { 3 };
                len -= 1;
                v
            });
            real == model.pop_front()
        }
    })
}

/// Allocator operations: allocate a block, or free the `i`-th live one.
#[derive(Enumerable, Debug, Clone)]
pub enum AllocOp {
    /// Allocate one block.
    Alloc,
    /// Free the live block number `i % live`.
    Free(#[enumerable(with = "neatcheck::space::range(0, 3, |n| n as u8)")] u8),
}

/// A free-list allocator of 4 blocks; the planted bug pushes a freed block
/// on the free list twice when it was the most recently allocated one and
/// another block is still live, so two later allocations share it (five
/// operations: two allocations, the free, two allocations).
pub fn allocator_unique(ops: &[AllocOp], bug: bool) -> bool {
    let mut free: Vec<u8> = vec![3, 2, 1, 0];
    let mut live: Vec<u8> = vec![];
    let mut last = None;
    for op in ops {
        match *op {
            AllocOp::Alloc => {
                let Some(b) = free.pop() else { continue };
                if live.contains(&b) {
                    return false;
                }
                live.push(b);
                last = Some(b);
            }
            AllocOp::Free(i) => {
                if live.is_empty() {
                    continue;
                }
                let b = live.remove(usize::from(i) % live.len());
                if bug && last == Some(b) && !live.is_empty() {
                    free.push(b);
                }
                free.push(b);
            }
        }
    }
    true
}

/// Account operations, amounts in `0..=7`.
#[derive(Enumerable, Debug, Clone)]
pub enum AccountOp {
    /// Pay in.
    Deposit(#[enumerable(with = "neatcheck::space::range(0, 7, |n| n as u8)")] u8),
    /// Take out, refused when the balance does not cover it.
    Withdraw(#[enumerable(with = "neatcheck::space::range(0, 7, |n| n as u8)")] u8),
}

/// The balance never goes negative; the planted bug checks the limit with
/// an off-by-one.
pub fn account_never_negative(ops: &[AccountOp], bug: bool) -> bool {
    let mut balance: i32 = 0;
    for op in ops {
        match *op {
            AccountOp::Deposit(n) => balance += i32::from(n),
            AccountOp::Withdraw(n) => {
                let allowed = if bug {
                    i32::from(n) <= balance + 1
                } else {
                    i32::from(n) <= balance
                };
                if allowed {
                    balance -= i32::from(n);
                }
            }
        }
        if balance < 0 {
            return false;
        }
    }
    true
}

/// Map operations with `i64` keys (the ETNA search-tree workloads).
#[derive(Enumerable, Debug, Clone)]
pub enum MapOp {
    /// Insert or overwrite.
    Insert(i64, u8),
    /// Remove a key.
    Remove(i64),
}

/// A binary search tree map.
#[derive(Debug, Clone, Default)]
enum Bst {
    #[default]
    Leaf,
    Node(Box<Bst>, i64, u8, Box<Bst>),
}

impl Bst {
    fn insert(self, k: i64, v: u8, bug: bool) -> Bst {
        match self {
            Bst::Leaf => Bst::Node(Box::new(Bst::Leaf), k, v, Box::new(Bst::Leaf)),
            Bst::Node(l, x, w, r) => {
                if k < x {
                    Bst::Node(Box::new(l.insert(k, v, bug)), x, w, r)
                } else if k > x {
                    Bst::Node(l, x, w, Box::new(r.insert(k, v, bug)))
                } else if bug {
                    Bst::Node(l, x, w, r)
                } else {
                    Bst::Node(l, x, v, r)
                }
            }
        }
    }

    fn remove(self, k: i64) -> Bst {
        match self {
            Bst::Leaf => Bst::Leaf,
            Bst::Node(l, x, w, r) => {
                if k < x {
                    Bst::Node(Box::new(l.remove(k)), x, w, r)
                } else if k > x {
                    Bst::Node(l, x, w, Box::new(r.remove(k)))
                } else {
                    match (*l, *r) {
                        (Bst::Leaf, r) => r,
                        (l, Bst::Leaf) => l,
                        (l, r) => {
                            let (m, mv, r) = r.pop_min();
                            Bst::Node(Box::new(l), m, mv, Box::new(r))
                        }
                    }
                }
            }
        }
    }

    fn pop_min(self) -> (i64, u8, Bst) {
        match self {
            Bst::Node(l, x, w, r) => match *l {
                Bst::Leaf => (x, w, *r),
                l => {
                    let (m, mv, l) = l.pop_min();
                    (m, mv, Bst::Node(Box::new(l), x, w, r))
                }
            },
            Bst::Leaf => unreachable!("pop_min of a leaf"),
        }
    }

    fn get(&self, k: i64) -> Option<u8> {
        match self {
            Bst::Leaf => None,
            Bst::Node(l, x, w, r) => {
                if k < *x {
                    l.get(k)
                } else if k > *x {
                    r.get(k)
                } else {
                    Some(*w)
                }
            }
        }
    }
}

/// The tree agrees with a `BTreeMap` after every operation, on every key
/// used; the planted bug keeps the old value on an insert of a present key.
pub fn bst_agrees(ops: &[MapOp], bug: bool) -> bool {
    let mut tree = Bst::Leaf;
    let mut model = BTreeMap::new();
    for op in ops {
        match *op {
            MapOp::Insert(k, v) => {
                tree = tree.insert(k, v, bug);
                model.insert(k, v);
            }
            MapOp::Remove(k) => {
                tree = tree.remove(k);
                model.remove(&k);
            }
        }
    }
    model.iter().all(|(&k, &v)| tree.get(k) == Some(v))
}

// ---------------------------------------------------------------------------
// Recursive data.

/// Arithmetic expressions with small literals.
#[derive(Enumerable, Debug, Clone, PartialEq)]
pub enum Expr {
    /// The variable.
    X,
    /// A literal in `0..=2`.
    Lit(#[enumerable(with = "neatcheck::space::range(0, 2, |n| n as u8)")] u8),
    /// Sum.
    Add(Box<Expr>, Box<Expr>),
    /// Product.
    Mul(Box<Expr>, Box<Expr>),
}

fn eval(e: &Expr, x: i64) -> i64 {
    match e {
        Expr::X => x,
        Expr::Lit(n) => i64::from(*n),
        Expr::Add(a, b) => eval(a, x).wrapping_add(eval(b, x)),
        Expr::Mul(a, b) => eval(a, x).wrapping_mul(eval(b, x)),
    }
}

/// Folds constants; the planted bug keeps a folded constant in a 3-bit
/// immediate.
fn fold(e: &Expr, bug: bool) -> Expr {
    use Expr::*;
    let imm = |n: u32| {
        if bug {
            Lit((n % 8) as u8)
        } else if n <= 2 {
            Lit(n as u8)
        } else {
            // Larger constants are built from small ones.
            let mut acc = Lit(2);
            for _ in 2..n {
                acc = Add(Box::new(acc), Box::new(Lit(1)));
            }
            acc
        }
    };
    match e {
        Add(a, b) => match (fold(a, bug), fold(b, bug)) {
            (Lit(m), Lit(n)) => imm(u32::from(m) + u32::from(n)),
            (Lit(0), e) | (e, Lit(0)) => e,
            (a, b) => Add(Box::new(a), Box::new(b)),
        },
        Mul(a, b) => match (fold(a, bug), fold(b, bug)) {
            (Lit(m), Lit(n)) => imm(u32::from(m) * u32::from(n)),
            (Lit(1), e) | (e, Lit(1)) => e,
            (a, b) => Mul(Box::new(a), Box::new(b)),
        },
        e => e.clone(),
    }
}

/// Folding keeps the value.
pub fn fold_keeps_value(e: &Expr, bug: bool) -> bool {
    let folded = fold(e, bug);
    (-3..=3).all(|x| eval(e, x) == eval(&folded, x))
}

/// Binary trees with byte keys.
#[derive(Enumerable, Debug, Clone)]
pub enum Tree {
    /// Empty.
    Leaf,
    /// A node.
    Node(Box<Tree>, u8, Box<Tree>),
}

/// Whether a tree is a search tree (keys strictly increasing in order).
pub fn is_search_tree(t: &Tree) -> bool {
    fn keys(t: &Tree, out: &mut Vec<u8>) {
        if let Tree::Node(l, k, r) = t {
            keys(l, out);
            out.push(*k);
            keys(r, out);
        }
    }
    let mut ks = vec![];
    keys(t, &mut ks);
    ks.windows(2).all(|w| w[0] < w[1])
}

/// Inserts into a search tree; the planted bug inserts equal keys to the
/// left, so a present key appears twice.
pub fn tree_insert(t: &Tree, x: u8, bug: bool) -> Tree {
    match t {
        Tree::Leaf => Tree::Node(Box::new(Tree::Leaf), x, Box::new(Tree::Leaf)),
        Tree::Node(l, k, r) => {
            if x < *k || (bug && x == *k) {
                Tree::Node(Box::new(tree_insert(l, x, bug)), *k, r.clone())
            } else if x > *k {
                Tree::Node(l.clone(), *k, Box::new(tree_insert(r, x, bug)))
            } else {
                t.clone()
            }
        }
    }
}

/// Inserting into a search tree keeps it one.
pub fn tree_insert_keeps_order((x, t): (u8, Tree), bug: bool) -> bool {
    !is_search_tree(&t) || is_search_tree(&tree_insert(&t, x, bug))
}

// ---------------------------------------------------------------------------
// Lazy preconditions: the same properties read through `Lazy` handles, so a
// precondition that fails early prunes every input it did not read.

/// Whether a list is sorted, reading it from the front only as far as the
/// first pair out of order.
pub fn lazy_sorted(xs: neatcheck::Lazy<'_, Vec<u8>>) -> bool {
    let mut last: Option<u8> = None;
    for x in xs.iter() {
        let x = x.get();
        if last.is_some_and(|l| l > x) {
            return false;
        }
        last = Some(x);
    }
    true
}

/// Whether a tree is a search tree, reading keys in order and stopping at
/// the first out of place.
pub fn lazy_search_tree(t: neatcheck::Lazy<'_, Tree>) -> bool {
    fn within(t: neatcheck::Lazy<'_, Tree>, lo: Option<u8>, hi: Option<u8>) -> bool {
        match t.view() {
            TreeView::Leaf => true,
            TreeView::Node(l, k, r) => {
                let k = k.get();
                lo.is_none_or(|lo| lo < k)
                    && hi.is_none_or(|hi| k < hi)
                    && within(l, lo, Some(k))
                    && within(r, Some(k), hi)
            }
        }
    }
    within(t, None, None)
}

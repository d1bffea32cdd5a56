//! Replay keys round-trip exactly (every value of small sizes, uniform
//! samples of larger ones, std and derived types, deep values on a small
//! stack) and reject bad keys clearly; the regression file is laid out,
//! read and appended to as documented, also by several threads at once.

use super::*;
use crate::grammar::downcast;
use crate::index::{sample_tree_in, seeded_rng};
use crate::types::grammar_of;
use crate::Enumerable;
use num_bigint::{BigInt, BigUint};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;
use std::rc::Rc;

// ---------------------------------------------------------------------------
// Derived types.

#[derive(Enumerable, Debug, Clone, PartialEq)]
enum Exp {
    Lit(bool),
    Var(u8),
    Neg(Box<Exp>),
    Add(Box<Exp>, Box<Exp>),
    If {
        c: Box<Exp>,
        t: Box<Exp>,
        e: Box<Exp>,
    },
}

#[derive(Enumerable, Debug, Clone, PartialEq)]
struct Point {
    x: bool,
    y: Option<i8>,
}

#[derive(Enumerable, Debug, Clone, PartialEq)]
struct Unit;

/// Declared largest first: the FEAT order and the chain order differ.
#[derive(Enumerable, Debug, Clone, PartialEq)]
enum Order {
    Big(bool, bool),
    Mid { flag: bool },
    Small,
}

#[derive(Enumerable, Debug, Clone, PartialEq)]
enum Tagged<A, B> {
    Left(A),
    Right { tag: B, rest: Box<Tagged<A, B>> },
}

/// Mutual recursion, and recursion through `Vec`.
#[derive(Enumerable, Debug, Clone, PartialEq)]
struct Rose {
    label: bool,
    kids: Vec<Rose>,
}

#[derive(Enumerable, Debug, Clone, PartialEq)]
struct Pair(Rose, Forest);

#[derive(Enumerable, Debug, Clone, PartialEq)]
enum Forest {
    Nil,
    Cons(Box<Pair>, Box<Forest>),
}

#[derive(Enumerable, Debug, Clone, PartialEq)]
struct Wrapper<T> {
    inner: T,
}

// ---------------------------------------------------------------------------
// Round trips.

fn value_of<T: Enumerable>(g: &Grammar, tree: &Tree) -> T {
    downcast(g.build_root(tree), "a tree")
}

/// Compares two trees without recursion (the derived `PartialEq` recurses,
/// which a 10 000-deep tree on a small stack does not survive).
fn same_tree(a: &Tree, b: &Tree) -> bool {
    let mut stack = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        match (a, b) {
            (Tree::Leaf(s, i), Tree::Leaf(t, j)) if s == t && i == j => {}
            (Tree::Node(p, xs), Tree::Node(q, ys)) if p == q && xs.len() == ys.len() => {
                stack.extend(xs.iter().map(Rc::as_ref).zip(ys.iter().map(Rc::as_ref)));
            }
            _ => return false,
        }
    }
    true
}

/// One tree through every path: rank, key and back, as a tree and a value.
fn round_trip_one<T: Enumerable + PartialEq + Debug>(g: &Grammar, tree: &Tree, size: usize) {
    let name = std::any::type_name::<T>();
    let (n, i) = rank_in(g, tree);
    assert_eq!(n, size, "{name}: the rank's size");
    assert!(
        same_tree(&tree_in(g, n, &i).expect("ranked index in range"), tree),
        "{name}: index(rank(t)) != t at size {size}, index {i}"
    );
    let key = key_of(g, tree);
    assert!(
        key.starts_with("v1.")
            && key
                .bytes()
                .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase() || b == b'.'),
        "{name}: key `{key}` is not shell-safe"
    );
    let back = tree_of_key(g, &key).unwrap_or_else(|e| panic!("{name}: key `{key}`: {e}"));
    assert!(
        same_tree(&back, tree),
        "{name}: key `{key}` names another tree"
    );
    assert_eq!(
        value_of::<T>(g, &back),
        value_of::<T>(g, tree),
        "{name}: key `{key}` names another value"
    );
}

/// Every value of sizes `0..=small` (against the reference enumeration, and
/// rank after index for every index), then `samples` uniform values at each
/// of `big` sizes.
fn round_trips<T: Enumerable + PartialEq + Debug>(small: usize, big: &[usize], samples: usize) {
    let g = grammar_of::<T>();
    let name = std::any::type_name::<T>();
    for n in 0..=small {
        let trees = crate::values::trees_in(&g, n);
        let values = crate::values::values_of::<T>(n);
        assert_eq!(BigUint::from(trees.len()), g.count(n), "{name}: count {n}");
        for (i, (t, v)) in trees.iter().zip(&values).enumerate() {
            assert_eq!(rank_in(&g, t), (n, BigUint::from(i)), "{name}: rank");
            round_trip_one::<T>(&g, t, n);
            let back = tree_of_key(&g, &key_of(&g, t)).unwrap();
            assert_eq!(&value_of::<T>(&g, &back), v, "{name}: reference value");
        }
        // rank . index = id, through indexing rather than the reference.
        let mut i = BigUint::default();
        while let Some(t) = tree_in(&g, n, &i) {
            assert_eq!(rank_in(&g, &t), (n, i.clone()), "{name}: rank(index)");
            i += 1u32;
        }
    }
    let mut rng = seeded_rng(0x5eed ^ small as u64);
    for &n in big {
        for _ in 0..samples {
            let t = sample_tree_in(&g, n, &mut rng)
                .unwrap_or_else(|| panic!("{name}: no values of size {n}"));
            round_trip_one::<T>(&g, &t, n);
        }
    }
}

#[test]
fn keys_round_trip_std_scalars() {
    round_trips::<()>(3, &[0], 1);
    round_trips::<bool>(3, &[1], 4);
    round_trips::<u8>(8, &[8], 20);
    round_trips::<u16>(9, &[12, 16], 20);
    round_trips::<u32>(9, &[20, 32], 20);
    round_trips::<u64>(9, &[40, 64], 20);
    round_trips::<usize>(9, &[64], 20);
    round_trips::<i8>(8, &[7, 8], 20);
    round_trips::<i16>(9, &[16], 20);
    round_trips::<i32>(9, &[32], 20);
    round_trips::<i64>(9, &[50, 64], 20);
    round_trips::<isize>(9, &[64], 20);
    round_trips::<char>(7, &[7], 20);
    round_trips::<BigUint>(9, &[40, 63], 20);
    round_trips::<BigInt>(9, &[40, 62], 20);
}

#[test]
fn keys_round_trip_std_containers() {
    round_trips::<String>(9, &[40, 120], 20);
    round_trips::<Vec<bool>>(11, &[61, 201], 20);
    round_trips::<Vec<u8>>(9, &[50, 150], 20);
    round_trips::<Vec<Vec<bool>>>(9, &[61], 20);
    round_trips::<Option<u8>>(9, &[9], 10);
    round_trips::<Option<Option<bool>>>(5, &[3], 4);
    round_trips::<Result<bool, i8>>(9, &[9], 10);
    round_trips::<Result<Vec<bool>, String>>(7, &[40], 10);
    round_trips::<Box<bool>>(3, &[1], 2);
    round_trips::<Box<Vec<u8>>>(7, &[40], 10);
    round_trips::<BTreeSet<u8>>(8, &[16], 20);
    round_trips::<BTreeMap<bool, u8>>(8, &[12], 20);
}

#[test]
fn keys_round_trip_tuples_and_arrays() {
    round_trips::<(bool,)>(3, &[1], 2);
    round_trips::<(bool, u8)>(8, &[9], 10);
    round_trips::<(u8, bool, Option<bool>)>(8, &[11], 10);
    round_trips::<(bool, bool, bool, bool)>(5, &[4], 5);
    round_trips::<(bool, u8, i8, char, bool)>(7, &[20], 10);
    round_trips::<(bool, u8, i8, char, bool, Vec<bool>)>(8, &[40], 10);
    round_trips::<(u8, Vec<u8>)>(8, &[60], 10);
    round_trips::<[bool; 0]>(2, &[0], 1);
    round_trips::<[bool; 3]>(4, &[3], 4);
    round_trips::<[Option<u8>; 4]>(7, &[20], 10);
}

#[test]
fn keys_round_trip_derived_types() {
    round_trips::<Unit>(3, &[1], 1);
    round_trips::<Point>(7, &[9], 10);
    round_trips::<Order>(4, &[3], 4);
    round_trips::<Exp>(7, &[30, 80], 10);
    round_trips::<Tagged<bool, u8>>(9, &[40], 10);
    round_trips::<Tagged<Option<bool>, Vec<bool>>>(8, &[40], 10);
    round_trips::<Rose>(11, &[39, 99], 10);
    round_trips::<Forest>(10, &[41], 10);
    round_trips::<Wrapper<(bool, Exp)>>(7, &[30], 10);
    round_trips::<Vec<Exp>>(7, &[50], 10);
}

/// A list of 10 000 booleans (a tree 10 000 cells deep) ranks, keys and
/// comes back on a 256 KiB stack.
#[test]
fn a_long_list_round_trips_on_a_small_stack() {
    let worker = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let g = grammar_of::<Vec<bool>>();
            let size = 1 + 2 * 10_000;
            let mut rng = seeded_rng(10_000);
            let tree = sample_tree_in(&g, size, &mut rng).unwrap();
            let key = key_of(&g, &tree);
            let back = tree_of_key(&g, &key).unwrap();
            assert!(
                same_tree(&back, &tree),
                "the long list's key names another tree"
            );
            let (n, i) = rank_in(&g, &tree);
            assert_eq!(n, size);
            assert!(
                i.bits() > 9_990,
                "a random index of 2^10000 values is large"
            );
            let value: Vec<bool> = value_of(&g, &back);
            assert_eq!(value.len(), 10_000);
            assert_eq!(value, value_of::<Vec<bool>>(&g, &tree));
            // The last list of the size: every element `true`.
            let last = tree_in(&g, size, &(g.count(size) - 1u32)).unwrap();
            let back = tree_of_key(&g, &key_of(&g, &last)).unwrap();
            assert!(value_of::<Vec<bool>>(&g, &back).iter().all(|&b| b));
        })
        .unwrap();
    worker
        .join()
        .expect("the round trip ran on a 256 KiB stack");
}

// ---------------------------------------------------------------------------
// The key format and bad keys.

fn check_of<T: Enumerable>() -> String {
    let key = key_of(&grammar_of::<T>(), &crate::values::trees_of::<T>(1)[0]);
    key.rsplit('.').next().unwrap().to_string()
}

#[test]
fn keys_have_the_documented_format() {
    let g = grammar_of::<bool>();
    let tree = tree_in(&g, 1, &BigUint::from(1u32)).unwrap();
    let check = check_of::<bool>();
    assert_eq!(key_of(&g, &tree), format!("v1.1.1.{check}"));
    assert_eq!(check.len(), 4);

    // Base 36 for the index, decimal for the size.
    let g = grammar_of::<Vec<bool>>();
    let tree = tree_in(&g, 25, &BigUint::from(36u32 * 36 + 35)).unwrap();
    let key = key_of(&g, &tree);
    assert!(key.starts_with("v1.25.10z."), "{key}");
    // Upper case and surrounding whitespace are accepted.
    let shouted = format!(" {} \n", key.replace("10z", "10Z"));
    assert_eq!(tree_of_key(&g, &shouted).unwrap(), tree);

    // Different root types get different checks (for these, at least).
    assert_ne!(check_of::<Vec<bool>>(), check_of::<Vec<u8>>());
    assert_ne!(check_of::<bool>(), check_of::<Option<()>>());
}

fn err_of<T: Enumerable>(key: &str) -> String {
    tree_of_key(&grammar_of::<T>(), key).expect_err("the key is refused")
}

#[test]
fn bad_keys_are_refused_with_a_reason() {
    let check = check_of::<bool>();
    for bad in ["", "x", "1.1.1.0000", "v", "hello.world", ".v1.1.1.0000"] {
        let e = err_of::<bool>(bad);
        assert!(e.contains("is not a neatcheck replay key"), "{bad}: {e}");
    }
    for (bad, version) in [("v2.1.1.0000", "v2"), ("vv.1.1.0000", "vv"), ("v10", "v10")] {
        let e = err_of::<bool>(bad);
        assert!(
            e.contains(&format!("format version `{version}`")) && e.contains("`v1`"),
            "{bad}: {e}"
        );
    }
    for (bad, why) in [
        ("v1".to_string(), "1 dot-separated parts"),
        ("v1.1.1".to_string(), "3 dot-separated parts"),
        (format!("v1.1.1.{check}.0"), "5 dot-separated parts"),
        (
            format!("v1.one.1.{check}"),
            "the size `one` is not a decimal",
        ),
        (format!("v1.+1.1.{check}"), "the size `+1` is not a decimal"),
        (format!("v1..1.{check}"), "the size `` is not a decimal"),
        (
            format!("v1.1.-1.{check}"),
            "the index `-1` is not in base 36",
        ),
        (format!("v1.1..{check}"), "the index `` is not in base 36"),
        (
            "v1.1.1.xyz1".to_string(),
            "the type check `xyz1` is not four hex",
        ),
        (
            "v1.1.1.123".to_string(),
            "the type check `123` is not four hex",
        ),
    ] {
        let e = err_of::<bool>(&bad);
        assert!(e.contains("is malformed") && e.contains(why), "{bad}: {e}");
    }

    // Another type's key names the expected type.
    let other = key_of(
        &grammar_of::<Vec<u8>>(),
        &crate::values::trees_of::<Vec<u8>>(1)[0],
    );
    let e = err_of::<Vec<bool>>(&other);
    let name = grammar_of::<Vec<bool>>().root_name().to_string();
    assert!(
        e.contains("made for another type") && e.contains(&format!("`{name}`")),
        "{e}"
    );

    // Right type, but no such value.
    let e = err_of::<bool>(&format!("v1.1.2.{check}"));
    assert!(
        e.contains("index 2 of size 1") && e.contains("only 2 values"),
        "{e}"
    );
    let e = err_of::<bool>(&format!("v1.5.0.{check}"));
    assert!(e.contains("no values of that size"), "{e}");
    let e = err_of::<bool>(&format!("v1.0.0.{check}"));
    assert!(e.contains("no values of that size"), "{e}");
    // Far beyond a finite type's largest size: refused without counting.
    let e = err_of::<bool>(&format!("v1.99999999999.0.{check}"));
    assert!(e.contains("no values of that size"), "{e}");
}

// ---------------------------------------------------------------------------
// The regression file.

/// A fresh folder under the system's temporary folder, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!(
            "neatcheck-replay-{name}-{}-{nanos}",
            std::process::id()
        ));
        fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[test]
fn regression_paths_are_relative_to_the_crate() {
    let tmp = TempDir::new("paths");
    let krate = tmp.0.join("mycrate");
    for f in ["tests/foo.rs", "src/lib.rs", "src/a/b.rs"] {
        let p = krate.join(f);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, "").unwrap();
    }
    let reg = krate.join("neatcheck-regressions");
    let cases = [
        // Relative to the crate.
        ("tests/foo.rs".to_string(), reg.join("tests/foo.txt")),
        ("src/a/b.rs".to_string(), reg.join("src/a/b.txt")),
        // Relative to a workspace root above the crate.
        (
            "mycrate/tests/foo.rs".to_string(),
            reg.join("tests/foo.txt"),
        ),
        ("ws/mycrate/src/lib.rs".to_string(), reg.join("src/lib.txt")),
        // Absolute.
        (
            krate.join("tests/foo.rs").to_string_lossy().into_owned(),
            reg.join("tests/foo.txt"),
        ),
        // Escaping components are never followed.
        (
            "../mycrate/tests/foo.rs".to_string(),
            reg.join("tests/foo.txt"),
        ),
        // Not found anywhere: the file name.
        ("elsewhere/tests/bar.rs".to_string(), reg.join("bar.txt")),
        ("/nowhere/x.rs".to_string(), reg.join("x.txt")),
    ];
    for (source, want) in cases {
        assert_eq!(regression_path(&krate, &source), want, "{source}");
    }
}

#[test]
fn saved_keys_load_back_per_test() {
    let tmp = TempDir::new("save");
    let path = tmp.0.join("neatcheck-regressions/tests/t.txt");
    assert!(
        load_keys(&path, "a").is_empty(),
        "a missing file has no keys"
    );

    save_key(&path, "a", "v1.3.1.abcd", "[true,\n  false]").unwrap();
    save_key(&path, "b", "v1.4.2.abcd", "x").unwrap();
    save_key(&path, "a", "v1.5.z.abcd", "y").unwrap();
    save_key(&path, "a", "v1.3.1.abcd", "shown again").unwrap();
    assert_eq!(load_keys(&path, "a"), vec!["v1.3.1.abcd", "v1.5.z.abcd"]);
    assert_eq!(load_keys(&path, "b"), vec!["v1.4.2.abcd"]);
    assert!(load_keys(&path, "c").is_empty());

    let text = fs::read_to_string(&path).unwrap();
    let header: Vec<&str> = text.lines().take_while(|l| l.starts_with('#')).collect();
    let header = header.join("\n");
    assert!(header.contains("version control"), "{header}");
    assert!(header.contains("delete its line"), "{header}");
    let entries: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(
        entries,
        [
            "a v1.3.1.abcd # [true, false]",
            "b v1.4.2.abcd # x",
            "a v1.5.z.abcd # y"
        ],
        "one line per (test, key), the value on one line"
    );
}

#[test]
fn long_values_are_cut_and_odd_lines_skipped() {
    let tmp = TempDir::new("odd");
    let path = tmp.0.join("r.txt");
    let mut odd = b"# a comment\n\na\nmod::t v1.1.0.abcd extra # three words\n".to_vec();
    odd.extend_from_slice(b"mod::t \xff\xfe # not UTF-8\n");
    odd.extend_from_slice(b"  mod::t   v1.2.0.abcd   # spaced out");
    fs::write(&path, &odd).unwrap();
    assert_eq!(load_keys(&path, "mod::t"), vec!["v1.2.0.abcd"]);

    // The file lacked its last newline: the new entry still gets its own.
    let long = "x".repeat(1000);
    save_key(&path, "mod::t", "v1.3.0.abcd", &long).unwrap();
    assert_eq!(
        load_keys(&path, "mod::t"),
        vec!["v1.2.0.abcd", "v1.3.0.abcd"]
    );
    let text = String::from_utf8_lossy(&fs::read(&path).unwrap()).into_owned();
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("mod::t v1.3.0.abcd # xxx") && last.ends_with("..."));
    assert!(
        last.len() < 260,
        "cut to about 200 characters: {}",
        last.len()
    );
    assert!(
        !text.contains("# neatcheck regression file"),
        "no header on an existing file"
    );

    // A test name with spaces is kept as one word.
    save_key(&path, "odd name", "v1.4.0.abcd", "v").unwrap();
    assert_eq!(load_keys(&path, "odd name"), vec!["v1.4.0.abcd"]);
}

#[test]
fn a_half_written_last_line_is_not_read() {
    let tmp = TempDir::new("half");
    let path = tmp.0.join("r.txt");
    // Another thread's line caught mid-write: the key is cut short.
    fs::write(&path, "t v1.3.1.abcd # x\nt v1.4.2").unwrap();
    assert_eq!(load_keys(&path, "t"), vec!["v1.3.1.abcd"]);
    fs::write(&path, "t v1.3.1.abcd # x\nt v1.4.2.ab").unwrap();
    assert_eq!(load_keys(&path, "t"), vec!["v1.3.1.abcd"]);
    // A hand-edited last line without its newline, but whole.
    fs::write(&path, "t v1.3.1.abcd # x\nt v1.4.2.abcd").unwrap();
    assert_eq!(load_keys(&path, "t"), vec!["v1.3.1.abcd", "v1.4.2.abcd"]);
}

#[test]
fn concurrent_saves_keep_every_line_whole() {
    let tmp = TempDir::new("threads");
    let path = tmp.0.join("deep/er/t.txt");
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let path = path.clone();
            std::thread::spawn(move || {
                for k in 0..40 {
                    let shown = format!("value {t} {k} {}", "y".repeat(250));
                    save_key(&path, "par", &format!("v1.{t}.{k}.abcd"), &shown).unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let keys = load_keys(&path, "par");
    assert_eq!(keys.len(), 8 * 40);
    let text = fs::read_to_string(&path).unwrap();
    assert_eq!(text.matches("# neatcheck regression file").count(), 1);
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        assert!(
            line.starts_with("par v1.") && line.ends_with("..."),
            "a torn line: {line:?}"
        );
    }
}

/// The last value of a 64-bit family has global index `u64::MAX`: it has a
/// size, a value and a key.
#[test]
fn the_last_leaf_of_a_64_bit_family_is_reachable() {
    let g = grammar_of::<i64>();
    let t = tree_in(&g, 64, &BigUint::default()).unwrap();
    assert_eq!(t, g.atomic_tree(g.root, u64::MAX));
    assert_eq!(g.tree_size(&t), 64);
    assert_eq!(value_of::<i64>(&g, &t), i64::MIN);
    assert_eq!(tree_of_key(&g, &key_of(&g, &t)), Ok(t));
}

//! Replay keys and the regression file: how a failing value is named so that
//! it can be re-run alone, and where those names are kept between runs.
//!
//! # Keys
//!
//! A key is `v1.<size>.<index>.<type check>`, for instance `v1.7.2k.0c3e`:
//!
//! - `v1`: the format version, so that a key from another format is
//!   rejected with a clear message instead of naming some other value;
//! - `<size>`: the value's size, in decimal;
//! - `<index>`: its index among the values of that size in the FEAT order
//!   ([`crate::index::rank_in`]), in base 36 (digits and lower-case letters;
//!   upper case is accepted), which keeps big indices short;
//! - `<type check>`: four hex digits, a 16-bit FNV-1a hash of the root type's
//!   name, so that a key pasted into the test of another type is refused
//!   rather than silently decoding to an unrelated value.
//!
//! Only digits, letters and dots: a key can be pasted into a shell
//! (`NEATCHECK_REPLAY=v1.7.2k.0c3e cargo test ...`) without quoting. A key
//! names a value exactly for as long as the type's space is unchanged: a new
//! constructor or field renumbers the values, and the key then names another
//! value (or none) of the same type.
//!
//! # The regression file
//!
//! Failing keys are appended to
//! `<crate>/neatcheck-regressions/<source file>.txt`, one
//! `<test> <key> # <value>` line each, and re-run first on the next run. The
//! file is meant to be committed, like proptest's `proptest-regressions/`.

// The check runner is the user of this module; until it replays keys, only

use crate::grammar::{Grammar, Tree};
use crate::index::{rank_in, tree_in};
use num_bigint::BigUint;
use num_traits::Zero;
use std::fs::{self, OpenOptions};
use std::io::{ErrorKind, Read, Seek, SeekFrom, Write};
use std::path::{Component, Path, PathBuf};

/// The format version written in front of every key.
const VERSION: &str = "v1";

/// The folder of regression files, beside the crate's `Cargo.toml`.
const REGRESSION_DIR: &str = "neatcheck-regressions";

/// Longest shown value kept in a regression line (in characters); the key,
/// not the text, is what replays, so the text only needs to be recognisable.
const SHOWN_MAX: usize = 200;

/// The 16-bit type check of a grammar's root: FNV-1a (32 bits) of its name,
/// and of its integer sizes when linear,
/// folded to 16 bits. Not a security measure, only a guard against pasting a
/// key into the wrong test.
fn type_check(g: &Grammar) -> u16 {
    let mut h: u32 = 0x811c_9dc5;
    // Linear integer sizes number values differently: a key of one mode
    // must not replay in the other (bit-length keys are unchanged).
    let mode = match g.integers {
        crate::describe::IntegerSizes::BitLength => "",
        crate::describe::IntegerSizes::Linear => "#linear",
    };
    for b in g.root_name().bytes().chain(mode.bytes()) {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    ((h >> 16) ^ (h & 0xffff)) as u16
}

/// The replay key of a tree of `g`'s root (see the module documentation for
/// the format).
///
/// # Panics
/// If `tree` is not a tree of `g`'s root.
pub(crate) fn key_of(g: &Grammar, tree: &Tree) -> String {
    let (size, index) = rank_in(g, tree);
    format!(
        "{VERSION}.{size}.{}.{:04x}",
        index.to_str_radix(36),
        type_check(g)
    )
}

/// The tree that a replay key names, or a message saying why the key names
/// none: not a key, another format version, a key of another type, a size
/// without values or an index beyond the values of its size.
///
/// # Panics
/// Where [`tree_in`] does: a key naming a leaf whose global index does not
/// fit in 64 bits (a `BigUint` beyond 2^64), which no [`key_of`] produces.
pub(crate) fn tree_of_key(g: &Grammar, key: &str) -> Result<Tree, String> {
    let key = key.trim();
    let expected = format!("expected `{VERSION}.<size>.<index>.<type check>`");
    let parts: Vec<&str> = key.split('.').collect();
    if !parts[0].starts_with('v') || parts[0].len() < 2 {
        return Err(format!(
            "`{key}` is not a neatcheck replay key ({expected}, as printed by a failing check)"
        ));
    }
    if parts[0] != VERSION {
        return Err(format!(
            "the replay key `{key}` has format version `{}`, but this version of neatcheck \
             reads `{VERSION}` keys; re-run the check without it to get a new key",
            parts[0]
        ));
    }
    let [_, size, index, check] = parts[..] else {
        return Err(format!(
            "the replay key `{key}` is malformed: it has {} dot-separated parts, {expected}",
            parts.len()
        ));
    };
    let size: usize = size
        .parse()
        .ok()
        .filter(|_| size.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| {
            format!(
                "the replay key `{key}` is malformed: the size `{size}` is not a decimal number"
            )
        })?;
    let index = Some(index)
        .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric()))
        .and_then(|s| BigUint::parse_bytes(s.as_bytes(), 36))
        .ok_or_else(|| {
            format!("the replay key `{key}` is malformed: the index `{index}` is not in base 36")
        })?;
    let found = Some(check)
        .filter(|s| s.len() == 4 && s.bytes().all(|b| b.is_ascii_hexdigit()))
        .and_then(|s| u16::from_str_radix(s, 16).ok())
        .ok_or_else(|| {
            format!(
                "the replay key `{key}` is malformed: the type check `{check}` is not four hex \
                 digits"
            )
        })?;
    let name = g.root_name();
    let want = type_check(g);
    if found != want {
        return Err(format!(
            "the replay key `{key}` was made for another type: this check's input is `{name}` \
             (type check {want:04x}, the key has {found:04x})"
        ));
    }
    // A finite type's bound is known without counting, so a corrupt size
    // far beyond it is refused at once instead of counting up to it.
    let beyond = crate::index::max_size_in(g).is_some_and(|max| size > max);
    let count = if beyond {
        BigUint::zero()
    } else {
        g.count(size)
    };
    if count.is_zero() {
        return Err(format!(
            "the replay key `{key}` names size {size}, but `{name}` has no values of that size"
        ));
    }
    tree_in(g, size, &index).ok_or_else(|| {
        format!(
            "the replay key `{key}` names index {index} of size {size}, but `{name}` has only \
             {count} values of that size"
        )
    })
}

// ---------------------------------------------------------------------------
// The regression file.

/// The regression file of a source file:
/// `<manifest_dir>/neatcheck-regressions/<source path in the crate>.txt`
/// (`tests/foo.rs` gives `neatcheck-regressions/tests/foo.txt`).
///
/// `source_file` is what `std::panic::Location::caller().file()` gives: in a
/// workspace it is relative to the workspace root, not to the crate, so the
/// path is taken relative to the manifest directory when it exists there,
/// else shortened from the front until it does, else reduced to its file
/// name.
pub(crate) fn regression_path(manifest_dir: &Path, source_file: &str) -> PathBuf {
    let source = Path::new(source_file);
    let within = |rel: &Path| {
        // Only plain components, so the file never lands outside the folder.
        rel.components().all(|c| matches!(c, Component::Normal(_)))
            && rel.components().next().is_some()
    };
    let relative: Option<PathBuf> = source
        .strip_prefix(manifest_dir)
        .ok()
        .filter(|rel| within(rel))
        .map(Path::to_path_buf)
        .or_else(|| {
            let normal: Vec<Component> = source
                .components()
                .filter(|c| matches!(c, Component::Normal(_)))
                .collect();
            (0..normal.len())
                .map(|skip| normal[skip..].iter().collect::<PathBuf>())
                .find(|rel| manifest_dir.join(rel).is_file())
        });
    let relative = relative.unwrap_or_else(|| {
        PathBuf::from(
            source
                .file_name()
                .unwrap_or_else(|| std::ffi::OsStr::new("unknown")),
        )
    });
    manifest_dir
        .join(REGRESSION_DIR)
        .join(relative.with_extension("txt"))
}

/// A test name as one whitespace-free word, so that a line splits back into
/// the same name.
fn test_word(test: &str) -> String {
    test.split_whitespace().collect::<Vec<_>>().join("_")
}

/// The keys saved for `test` in a regression file, oldest first, each once.
/// A missing or unreadable file gives none; comment lines, lines of other
/// tests and lines that do not parse are skipped.
pub(crate) fn load_keys(path: &Path, test: &str) -> Vec<String> {
    let Ok(bytes) = fs::read(path) else {
        return vec![];
    };
    let test = test_word(test);
    let mut keys: Vec<String> = vec![];
    let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    for (n, line) in lines.iter().enumerate() {
        let Ok(line) = std::str::from_utf8(line) else {
            continue;
        };
        // A last line without its newline may be another thread's line
        // caught half written, with its key cut short: it counts only
        // when its key is visibly whole.
        let unfinished = n + 1 == lines.len();
        if let Some(key) = key_in_line(line, &test) {
            if unfinished && !line.contains('#') && !looks_whole(key) {
                continue;
            }
            if !keys.iter().any(|k| k == key) {
                keys.push(key.to_string());
            }
        }
    }
    keys
}

/// Whether a key has all the parts of the current format (whatever their
/// values): `v1.<size>.<index>.` and four hex digits.
fn looks_whole(key: &str) -> bool {
    let parts: Vec<&str> = key.split('.').collect();
    parts.len() == 4
        && parts[0] == VERSION
        && parts[3].len() == 4
        && parts[3].bytes().all(|b| b.is_ascii_hexdigit())
}

/// The key of a `<test> <key> # <value>` line of the given test.
fn key_in_line<'l>(line: &'l str, test: &str) -> Option<&'l str> {
    let entry = line.split('#').next()?;
    let mut words = entry.split_whitespace();
    let (name, key) = (words.next()?, words.next()?);
    (name == test && words.next().is_none()).then_some(key)
}

/// The header of a new regression file.
fn header(path: &Path) -> String {
    format!(
        "# neatcheck regression file ({}).\n\
         #\n\
         # Each line `<test> <key> # <value>` is a value that once made <test> fail;\n\
         # neatcheck re-runs these values first, before searching. Commit this file to\n\
         # version control so that every machine re-runs the known failures first.\n\
         # To forget a failure, delete its line (or the whole file); `#` starts a comment.\n\
         # A key is `v1.<size>.<index in base 36>.<type check>`; re-run one alone with\n\
         # NEATCHECK_REPLAY=<key> cargo test <test>\n",
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    )
}

/// Appends `<test> <key> # <value>` to a regression file unless that test
/// already has that key there. Creates the folder, and the file with an
/// explanatory header. The shown value is put on one line and cut to about
/// 200 characters: it is only a reminder, the key is what replays.
///
/// Safe with several test threads (or processes) writing at once: the file
/// is opened in append mode and each line goes out in one write, so lines do
/// not interleave, and only the thread that creates the file writes the
/// header. Two threads saving the same key at the same moment may both write
/// it; [`load_keys`] reads it once.
pub(crate) fn save_key(
    path: &Path,
    test: &str,
    key: &str,
    shown_value: &str,
) -> std::io::Result<()> {
    let test = test_word(test);
    let existing = match fs::read(path) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    if let Some(bytes) = &existing {
        let known = bytes
            .split(|&b| b == b'\n')
            .filter_map(|l| std::str::from_utf8(l).ok())
            .any(|l| key_in_line(l, &test) == Some(key));
        if known {
            return Ok(());
        }
    }
    let mut line = format!("{test} {key} # {}\n", one_line(shown_value));
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    let mut file = match OpenOptions::new().append(true).create_new(true).open(path) {
        Ok(file) => {
            line = header(path) + &line;
            file
        }
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {
            // A hand-edited file may lack its last newline; without one the
            // new entry would run into the last line. Looked at now rather
            // than in the read above, which may have caught another
            // thread's line half written.
            if lacks_final_newline(path)? {
                line.insert(0, '\n');
            }
            OpenOptions::new().append(true).open(path)?
        }
        Err(e) => return Err(e),
    };
    file.write_all(line.as_bytes())
}

/// Whether a file is non-empty and its last byte is not a newline, for
/// good: a reader can see another writer's line half written (the size
/// grows page by page while the line is copied), so a missing newline only
/// counts once the size has stayed the same for a moment.
fn lacks_final_newline(path: &Path) -> std::io::Result<bool> {
    let probe = || -> std::io::Result<(u64, bool)> {
        let mut file = fs::File::open(path)?;
        let len = file.metadata()?.len();
        if len == 0 {
            return Ok((0, false));
        }
        file.seek(SeekFrom::End(-1))?;
        let mut last = [0u8];
        file.read_exact(&mut last)?;
        Ok((len, last[0] != b'\n'))
    };
    let (mut len, mut lacks) = probe()?;
    for _ in 0..20 {
        if !lacks {
            return Ok(false);
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
        let (now, still) = probe()?;
        if now == len && still {
            return Ok(true);
        }
        (len, lacks) = (now, still);
    }
    Ok(lacks)
}

/// `text` with every run of whitespace (newlines included) turned into one
/// space, cut after [`SHOWN_MAX`] characters.
fn one_line(text: &str) -> String {
    let mut out = String::new();
    for (n, word) in text.split_whitespace().enumerate() {
        if n > 0 {
            out.push(' ');
        }
        out.push_str(word);
        if out.chars().count() > SHOWN_MAX {
            break;
        }
    }
    if out.chars().count() > SHOWN_MAX {
        out = out.chars().take(SHOWN_MAX).collect::<String>() + "...";
    }
    out
}

#[cfg(test)]
mod tests;

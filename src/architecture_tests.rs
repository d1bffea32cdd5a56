//! Architecture invariants checked on the source text (ARCHITECTURE.md,
//! "Invariants"): the layers are the import graph, nothing is shared by
//! path includes, no comment points outside the repository, and every module
//! says what it owns.
//!
//! The import scan is deliberately simple (it reads `crate::`/`super::`
//! paths and `use crate::{...}` groups after removing comments, strings and
//! test modules), which is enough for a crate that imports by path.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The crate's private modules from the bottom layer up: a module may import
/// modules of its own layer or of the layers below it, never above. The
/// facade (`lib.rs`) re-exports from every layer and is not a layer.
const LAYERS: &[&[&str]] = &[
    &["internal", "word_hash"],
    &["arena"],
    &["run_slot", "crash"],
    &["describe"],
    &["grammar"],
    &["feat"],
    &["handle"],
    &["types"],
    &["derive_support"],
    &["count", "values", "index"],
    &["replay"],
    &["cool", "record"],
    &["report"],
    &["engine"],
    &["shrink"],
    &["constrained"],
    &["watchdog"],
    &["check"],
    &["state"],
    &["mutation"],
    &["explore"],
    &["dynamic"],
    &["suite"],
    // The public facades: re-exports only, from any layer.
    &["space", "lazy", "search"],
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The files under `dir` (recursively, `target/` and hidden folders left
/// out) whose extension is one of `exts`, in a stable order.
fn files_with(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if name != "target" && !name.starts_with('.') {
                files_with(&path, exts, out);
            }
        } else if path
            .extension()
            .is_some_and(|x| exts.contains(&x.to_string_lossy().as_ref()))
        {
            out.push(path);
        }
    }
}

/// The source with comments and string/char literals blanked out (newlines
/// kept), so that paths in prose or messages are not read as imports.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &src[i..];
        if rest.starts_with("//") {
            let end = rest.find('\n').map_or(b.len(), |e| i + e);
            i = end;
        } else if rest.starts_with("/*") {
            let end = rest.find("*/").map_or(b.len(), |e| i + e + 2);
            out.extend(src[i..end].chars().filter(|&c| c == '\n'));
            i = end;
        } else if b[i] == b'"' || rest.starts_with("r\"") || rest.starts_with("r#\"") {
            let (open, close) = if rest.starts_with("r#\"") {
                (3, "\"#")
            } else if rest.starts_with("r\"") {
                (2, "\"")
            } else {
                (1, "\"")
            };
            let mut j = i + open;
            while j < b.len() && !b[j..].starts_with(close.as_bytes()) {
                j += if b[j] == b'\\' && open == 1 { 2 } else { 1 };
            }
            out.extend(src[i..j.min(b.len())].chars().filter(|&c| c == '\n'));
            out.push_str("\"\"");
            i = (j + close.len()).min(b.len());
        } else if b[i] == b'\'' && i + 2 < b.len() && (b[i + 2] == b'\'' || b[i + 1] == b'\\') {
            // A char literal ('x' or '\n'); lifetimes have no closing quote.
            let end = src[i + 1..].find('\'').map_or(b.len(), |e| i + 1 + e + 1);
            out.push_str("' '");
            i = end;
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// Removes `#[cfg(test)]` items (test modules may use any layer).
fn without_tests(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        // Skip to the end of the next item: a `;` or `,` before any `{`, or
        // the matching close brace.
        let mut depth = 0usize;
        let mut end = after.len();
        for (k, c) in after.char_indices().skip("#[cfg(test)]".len()) {
            match c {
                // A field or struct-expression entry ends at a `,`.
                ';' | ',' if depth == 0 => {
                    end = k + 1;
                    break;
                }
                '{' => depth += 1,
                // The last field of a struct: the enclosing item's brace.
                '}' if depth == 0 => {
                    end = k;
                    break;
                }
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The first identifier of each item of a `{a::b, c, d::{e, f}}` group.
fn group_heads(group: &str) -> Vec<String> {
    let mut heads = vec![];
    let mut depth = 0;
    let mut start = true;
    for (k, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => start = true,
            c if start && depth == 0 && is_ident(c) => {
                let ident: String = group[k..].chars().take_while(|&c| is_ident(c)).collect();
                heads.push(ident);
                start = false;
            }
            _ => {}
        }
    }
    heads
}

/// The names `lib.rs` re-exports at the crate root, with the private module
/// each comes from (`crate::Lazy` is an import of `lazy`).
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    let code = code_only(lib);
    for stmt in code.split(';') {
        let stmt = stmt.trim();
        let Some(path) = stmt
            .strip_prefix("pub use ")
            .or_else(|| stmt.strip_prefix("pub(crate) use "))
        else {
            continue;
        };
        let path = path.trim().trim_start_matches("crate::");
        let module: String = path.chars().take_while(|&c| is_ident(c)).collect();
        let tail = &path[module.len()..];
        if let Some(group) = tail.strip_prefix("::{") {
            for head in group_heads(group.trim_end_matches('}')) {
                map.insert(head, module.clone());
            }
        } else if let Some(name) = tail.rsplit("::").next() {
            map.insert(name.trim().to_string(), module.clone());
        }
    }
    map
}

/// The top-level module a file belongs to, and whether `super::` in it
/// means the crate root.
fn module_of(rel: &Path) -> (String, bool) {
    let parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let top = parts[0].trim_end_matches(".rs").to_string();
    let super_is_root = parts.len() == 1 || (parts.len() == 2 && parts[1] == "mod.rs");
    (top, super_is_root)
}

/// Every module each top-level module imports, with the file and path that
/// shows it.
fn imports() -> BTreeMap<String, BTreeSet<(String, String)>> {
    let src = root().join("src");
    let lib = fs::read_to_string(src.join("lib.rs")).unwrap();
    let reexports = root_reexports(&lib);
    let modules: BTreeSet<&str> = LAYERS.iter().flat_map(|l| l.iter().copied()).collect();
    let mut files = vec![];
    files_with(&src, &["rs"], &mut files);
    let mut graph: BTreeMap<String, BTreeSet<(String, String)>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap().to_path_buf();
        let name = rel.file_name().unwrap().to_string_lossy().into_owned();
        if rel == Path::new("lib.rs") || name == "tests.rs" || name.ends_with("_tests.rs") {
            continue;
        }
        let (module, super_is_root) = module_of(&rel);
        let code = without_tests(&code_only(&fs::read_to_string(&file).unwrap()));
        let mut heads: Vec<String> = vec![];
        for prefix in ["crate::", "super::"] {
            if prefix == "super::" && !super_is_root {
                continue;
            }
            let mut at = 0;
            while let Some(k) = code[at..].find(prefix) {
                let start = at + k;
                at = start + prefix.len();
                if start > 0 && is_ident(code[..start].chars().next_back().unwrap()) {
                    continue; // `neatcheck::crate::` or `my_super::`
                }
                let rest = &code[at..];
                if let Some(group) = rest.strip_prefix('{') {
                    let end = {
                        let mut depth = 1;
                        let mut end = group.len();
                        for (k, c) in group.char_indices() {
                            match c {
                                '{' => depth += 1,
                                '}' => {
                                    depth -= 1;
                                    if depth == 0 {
                                        end = k;
                                        break;
                                    }
                                }
                                _ => {}
                            }
                        }
                        end
                    };
                    heads.extend(group_heads(&group[..end]));
                } else {
                    heads.push(rest.chars().take_while(|&c| is_ident(c)).collect());
                }
            }
        }
        for head in heads {
            let target = if modules.contains(head.as_str()) {
                head.clone()
            } else if let Some(m) = reexports.get(&head) {
                m.clone()
            } else {
                continue;
            };
            if target != module {
                let shown = format!("{} (`{head}`)", rel.display());
                graph
                    .entry(module.clone())
                    .or_default()
                    .insert((target, shown));
            }
        }
    }
    graph
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

#[test]
fn every_module_is_in_a_layer() {
    let src = fs::read_to_string(root().join("src/lib.rs")).unwrap();
    let code = without_tests(&code_only(&src));
    let mut missing = vec![];
    for line in code.lines() {
        let line = line.trim();
        if let Some(name) = line
            .strip_prefix("mod ")
            .or_else(|| line.strip_prefix("pub mod "))
        {
            let name = name.trim_end_matches(';').trim_end_matches('{').trim();
            if name != "__private" && layer_of(name).is_none() {
                missing.push(name.to_string());
            }
        }
    }
    assert!(
        missing.is_empty(),
        "modules missing from LAYERS: {missing:?}"
    );
}

#[test]
fn no_module_imports_a_layer_above_it() {
    let mut upward = vec![];
    for (module, targets) in imports() {
        let Some(own) = layer_of(&module) else {
            continue;
        };
        for (target, shown) in targets {
            let theirs = layer_of(&target).unwrap();
            if theirs > own {
                upward.push(format!("{module} -> {target}: {shown}"));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports that point up a layer (see ARCHITECTURE.md, Layers):\n{}",
        upward.join("\n")
    );
}

#[test]
fn the_scanner_sees_grouped_and_reexported_imports() {
    let code = code_only("use crate::{a::B, c, d::{e, f}};\n// crate::x\nlet s = \"crate::y\";");
    assert!(code.contains("use crate::{a::B, c, d::{e, f}}"));
    assert!(!code.contains("crate::x") && !code.contains("crate::y"));
    assert_eq!(group_heads("a::B, c, d::{e, f}"), ["a", "c", "d"]);
    let map = root_reexports("pub use lazy::{Lazy, LazyView};\npub use crate::space::Space;");
    assert_eq!(map["Lazy"], "lazy");
    assert_eq!(map["Space"], "space");
    assert_eq!(
        without_tests("a\n#[cfg(test)]\nmod t { fn f() { } }\nb"),
        "a\n\nb"
    );
}

/// Files of the repository a reader of the crate has (sources, tests,
/// examples, tools, docs; `target/` left out) with one of `exts`.
fn repository_files(exts: &[&str]) -> Vec<PathBuf> {
    let mut files = vec![];
    files_with(&root(), exts, &mut files);
    files
}

#[test]
fn nothing_is_shared_by_path_includes() {
    let marker = ["#[", "path"].concat();
    let offenders: Vec<String> = repository_files(&["rs"])
        .into_iter()
        .filter(|p| fs::read_to_string(p).unwrap().contains(&marker))
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        offenders.is_empty(),
        "files with path includes: {offenders:?}"
    );
}

#[test]
fn no_comment_points_outside_the_repository() {
    let outside = [
        ["..", "/shared"].concat(),
        ["shared", "/benchmarks"].concat(),
        ["DESIGN", ".md"].concat(),
    ];
    let offenders: Vec<String> = repository_files(&["rs", "md"])
        .into_iter()
        .filter(|p| {
            let text = fs::read_to_string(p).unwrap();
            outside.iter().any(|o| text.contains(o.as_str()))
        })
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        offenders.is_empty(),
        "references outside the repository: {offenders:?}"
    );
}

#[test]
fn every_module_says_what_it_owns() {
    let mut files = vec![];
    files_with(&root().join("src"), &["rs"], &mut files);
    let silent: Vec<String> = files
        .into_iter()
        .filter(|p| {
            !fs::read_to_string(p)
                .unwrap()
                .trim_start()
                .starts_with("//!")
        })
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        silent.is_empty(),
        "modules without a `//!` comment: {silent:?}"
    );
}

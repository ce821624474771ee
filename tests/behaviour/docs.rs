//! The documents cannot drift from the tree: every repository path they name in code
//! spans (`src/render.rs`, `crates/ctywire-cli/src/`, `vectors/convert/gocty.json`)
//! exists, every Rust file or folder they name by a shorter path (`value/equal.rs`,
//! `serde/`) is somewhere in the tree, and they state no counts of the tree's files in
//! words.

use std::path::{Path, PathBuf};

/// The top-level folders whose paths the documents name.
const ROOTS: &[&str] = &[
    "src/",
    "crates/",
    "examples/",
    "tests/",
    "vectors/",
    "benches/",
    "fuzz/",
    "scripts/",
    ".ci/",
];

/// The Markdown files a reader is sent to, each with the folder its relative paths
/// start from (the repository's root, or a crate's or example's own folder).
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = ["README.md", "ARCHITECTURE.md", "DEVELOPERS.md", "FORMAT.md"]
        .iter()
        .map(|name| root.join(name))
        .collect();
    for folder in ["crates", "examples", "benches", "fuzz", "vectors"] {
        let Ok(entries) = std::fs::read_dir(root.join(folder)) else {
            continue;
        };
        for entry in entries.flatten() {
            let readme = entry.path().join("README.md");
            if readme.is_file() {
                docs.push(readme);
            }
        }
        let readme = root.join(folder).join("README.md");
        if readme.is_file() {
            docs.push(readme);
        }
    }
    docs
}

/// The code spans of a Markdown text (text between single backticks), with their line
/// numbers; fenced blocks are left out (they hold commands and output, which the
/// README's own tests run).
fn code_spans(text: &str) -> Vec<(usize, String)> {
    let mut spans = Vec::new();
    let mut fenced = false;
    for (number, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut parts = line.split('`');
        parts.next();
        while let (Some(inside), Some(_)) = (parts.next(), parts.next()) {
            spans.push((number + 1, inside.to_owned()));
        }
    }
    spans
}

/// The repository path a code span names, if it names one: a single word starting at
/// one of [`ROOTS`], without placeholders (`NAME`, `{...}`, `*`, `…`). A trailing
/// `:LINE` or `#anchor` is cut off.
fn named_path(span: &str) -> Option<&str> {
    let span = span.trim();
    let starts = ROOTS.iter().any(|r| span.starts_with(r));
    if !starts || span.contains(char::is_whitespace) {
        return None;
    }
    let placeholder = |c: char| matches!(c, '{' | '}' | '*' | '…' | '<' | '>' | '$' | '|' | '[');
    if span.contains(placeholder) || span.split('/').any(is_placeholder) {
        return None;
    }
    Some(span.split([':', '#']).next().unwrap_or(span))
}

/// A path component that stands for any name: `NAME`, `TYPE`, `N`, `X.md`.
fn is_placeholder(component: &str) -> bool {
    let stem = component.split('.').next().unwrap_or(component);
    !stem.is_empty() && stem.chars().all(|c| c.is_ascii_uppercase() || c == '_')
}

/// Whether this is the repository (the packaged library has its documents but not the
/// workspace's other folders they name); says on the terminal when it is not.
fn in_repository(root: &Path) -> bool {
    use std::io::Write;
    let whole = root.join("crates").is_dir();
    if !whole {
        let _ = writeln!(
            std::io::stderr().lock(),
            "docs: skipped: the packaged library holds the documents, not the workspace they describe"
        );
    }
    whole
}

#[test]
fn every_path_the_documents_name_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !in_repository(root) {
        return;
    }
    let mut missing = Vec::new();
    let mut checked = 0;
    for doc in documents(root) {
        let text = std::fs::read_to_string(&doc).unwrap();
        let base = doc.parent().unwrap();
        for (line, span) in code_spans(&text) {
            let Some(path) = named_path(&span) else {
                continue;
            };
            checked += 1;
            // A path is the repository's, or (in a crate's README) its folder's.
            if !root.join(path).exists() && !base.join(path).exists() {
                let shown = doc.strip_prefix(root).unwrap_or(&doc).display();
                missing.push(format!("{shown}:{line}: `{path}` does not exist"));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    assert!(
        checked > 100,
        "only {checked} paths found: is the scan broken?"
    );
}

/// A Rust file or a folder named by a path shorter than the repository's
/// (`value/equal.rs`, `render/diff/`, `sniff.rs`): letters, digits, `_`, `-`, `.` and
/// `/` only, ending in `.rs` or `/`.
fn named_part(span: &str) -> Option<&str> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/');
    let shaped = span.ends_with(".rs") || (span.ends_with('/') && span.len() > 1);
    // Build output is not in the tree.
    if span.starts_with("target/") {
        return None;
    }
    (shaped && span.chars().all(allowed) && !span.starts_with('/') && !span.starts_with('.'))
        .then_some(span)
}

/// Every file and folder of the tree (build output, Git's and fuzzing's own left out),
/// as paths from the root with `/` after each folder's name.
fn tree(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if matches!(
                name.to_str(),
                Some("target" | ".git" | "corpus" | "artifacts")
            ) {
                continue;
            }
            let relative = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if path.is_dir() {
                found.push(format!("{relative}/"));
                stack.push(path);
            } else {
                found.push(relative);
            }
        }
    }
    found
}

#[test]
fn every_rust_file_and_folder_the_documents_name_is_in_the_tree() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !in_repository(root) {
        return;
    }
    let tree = tree(root);
    let mut missing = Vec::new();
    for doc in documents(root) {
        let text = std::fs::read_to_string(&doc).unwrap();
        for (line, span) in code_spans(&text) {
            let Some(part) = named_part(span.trim()) else {
                continue;
            };
            let found = tree
                .iter()
                .any(|p| p == part || p.ends_with(&format!("/{part}")));
            if !found {
                let shown = doc.strip_prefix(root).unwrap_or(&doc).display();
                missing.push(format!("{shown}:{line}: `{part}` is nowhere in the tree"));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn the_documents_state_no_counts_of_the_trees_files_in_words() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let counted = [
        "fuzz targets",
        "cargo-fuzz targets",
        "test binaries",
        "vector files",
    ];
    let numbers = [
        "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
        "thirteen", "fourteen", "fifteen", "sixteen", "twenty",
    ];
    let mut found = Vec::new();
    for doc in documents(root) {
        let text = std::fs::read_to_string(&doc).unwrap().to_lowercase();
        let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for thing in counted {
            for number in numbers {
                if words.contains(&format!("{number} {thing}")) {
                    found.push(format!("{}: \"{number} {thing}\"", doc.display()));
                }
            }
            for digits in 2..100 {
                if words.contains(&format!(" {digits} {thing}")) {
                    found.push(format!("{}: \"{digits} {thing}\"", doc.display()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "counts that go stale with the tree (say what, not how many):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_finds_paths_and_placeholders_apart() {
    assert_eq!(named_path("src/render.rs"), Some("src/render.rs"));
    assert_eq!(
        named_path("tests/cli/main.rs:12"),
        Some("tests/cli/main.rs")
    );
    assert_eq!(named_path("docs/resources/NAME.md"), None);
    assert_eq!(named_path("vectors/{a,b}.json"), None);
    assert_eq!(named_path("cargo test"), None);
    assert_eq!(named_path("Value"), None);
    assert_eq!(named_part("value/equal.rs"), Some("value/equal.rs"));
    assert_eq!(named_part("render/diff/"), Some("render/diff/"));
    assert_eq!(named_part("Value::from"), None);
    assert_eq!(named_part("a b.rs"), None);
    assert_eq!(
        code_spans("a `src/x.rs` and `y`\n```\n`src/z`\n```\n"),
        vec![(1, "src/x.rs".to_owned()), (1, "y".to_owned())]
    );
}

/// Doc examples build as one program per crate (rustdoc's merged doc-tests, edition
/// 2024), where a file path relative to the example's source file means nothing: one
/// `include_bytes!("../../examples/…")` fails that build, and rustdoc then builds every
/// example of the crate on its own, silently and several times slower. Examples read the
/// repository's files at run time instead (doc-tests run in the package's directory).
#[test]
fn doc_examples_include_no_file_by_a_relative_path() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !in_repository(root) {
        return;
    }
    let mut sources: Vec<String> = tree(root)
        .into_iter()
        .filter(|p| {
            (p.ends_with(".rs") && (p.starts_with("src/") || p.contains("/src/")))
                || p == "README.md"
        })
        .collect();
    sources.sort();
    assert!(
        sources.iter().any(|p| p == "src/capture/mod.rs"),
        "the walk found the sources"
    );
    let mut found = Vec::new();
    for source in &sources {
        let text = std::fs::read_to_string(root.join(source)).unwrap();
        let mut in_readme_code = false;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim_start();
            let in_example = if source == "README.md" {
                if line.starts_with("```") {
                    in_readme_code = !in_readme_code;
                }
                in_readme_code
            } else {
                line.starts_with("///") || line.starts_with("//!")
            };
            if in_example && (line.contains("include_bytes!(") || line.contains("include_str!(")) {
                found.push(format!("{source}:{}: {line}", n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "doc examples that include a file (read it with std::fs::read instead):\n{}",
        found.join("\n")
    );
}

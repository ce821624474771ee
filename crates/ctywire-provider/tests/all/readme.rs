//! The README's "Write a provider" example is the crate documentation's example, which
//! compiles as a doc-test: this keeps the two the same.

use std::path::Path;

/// The lines of the first fenced block opened by `fence` after `after` in `text`.
fn block<'a>(text: &'a str, after: &str, fence: &str) -> Vec<&'a str> {
    let rest = &text[text.find(after).unwrap_or_else(|| panic!("no {after:?}"))..];
    let mut lines = rest.lines().skip_while(|l| l.trim() != fence).skip(1);
    let body: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
    assert!(!body.is_empty(), "no {fence} block after {after:?}");
    body
}

#[test]
fn the_readme_shows_the_crate_example() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("../../README.md")).unwrap();
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let lib: String = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n");
    let documented: Vec<&str> = block(&lib, "", "```no_run")
        .into_iter()
        .filter(|l| *l != "#" && !l.starts_with("# "))
        .collect();
    let shown = block(&readme, "## Write a provider", "```rust,ignore");
    assert_eq!(shown, documented);
}

//! The trial provider stays small: at most 150 lines of its own code (not blank, not a
//! comment) in `src/`, which is the point of ctywire-provider.

use std::path::Path;

/// Lines of `text` that are neither blank nor a comment (`//`, `///`, `//!`).
fn code_lines(text: &str) -> usize {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .count()
}

#[test]
fn the_trial_provider_is_at_most_150_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut total = 0;
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            total += code_lines(&std::fs::read_to_string(&path).unwrap());
        }
    }
    assert!(total > 50, "counted {total} lines: is src/ there?");
    assert!(
        total <= 150,
        "the trial provider has {total} lines of code, more than 150"
    );
}

#[test]
fn comments_and_blank_lines_do_not_count() {
    assert_eq!(
        code_lines("//! a\n\n/// b\nfn f() {}\n    // c\n  let x = 1;\n"),
        2
    );
}

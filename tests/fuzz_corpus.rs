//! Replays the committed fuzz corpora (`fuzz/corpus/<target>/*`) through the fuzz
//! targets' own code, on stable Rust with no fuzzing tools: the same checks `cargo fuzz
//! run` makes, for every input the fuzzer kept, seeded from the vectors, or that once
//! found a bug.
//!
//! The target bodies live in `fuzz/src/lib.rs`, a file that uses only `std` and
//! ctywire's public API; this test includes it as a module, and each fuzz target is a
//! one-line call into it. So there is one copy of the logic, and nothing fuzz-specific
//! in the library.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

#[path = "../fuzz/src/lib.rs"]
mod targets;

/// A fuzz target's body.
type Target = fn(&[u8]);

/// The targets and their functions; every one must have a corpus.
const TARGETS: &[(&str, Target)] = &[
    ("msgpack_decode", targets::msgpack_decode),
    ("json_decode", targets::json_decode),
    ("type_json", targets::type_json),
    ("type_expr", targets::type_expr),
    ("roundtrip", targets::roundtrip),
    ("schema_json", targets::schema_json),
    ("decode_as", targets::decode_as),
    ("convert", targets::convert),
    ("plan_rules", targets::plan_rules),
    ("diff", targets::diff),
    ("config", targets::config),
    ("document", targets::document),
    ("capture", targets::capture),
];

#[test]
fn fuzz_corpora_replay() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let mut failures = Vec::new();
    for (target, run) in TARGETS {
        let dir = root.join(target);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("directory entry").path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no corpus for {target}");
        for file in &files {
            let data = std::fs::read(file).unwrap();
            if catch_unwind(AssertUnwindSafe(|| run(&data))).is_err() {
                failures.push(format!("{target}: {}", file.display()));
            }
        }
        eprintln!("{target}: {} inputs", files.len());
    }
    assert!(
        failures.is_empty(),
        "{} inputs panicked:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every fixed type can also be given inline, as the corpus seeds give theirs, and
/// selects itself that way.
#[test]
fn inline_type_selectors_select_their_type() {
    for ty in targets::types() {
        let mut data = targets::inline_selector(ty).expect("type JSON under 256 bytes");
        data.extend_from_slice(b"\xc0");
        let (selected, payload) = targets::select(&data).expect("selects");
        assert_eq!(selected.as_ref(), Some(ty));
        assert_eq!(payload, b"\xc0");
    }
}

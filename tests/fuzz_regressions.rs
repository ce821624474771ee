//! Replays the fuzz targets' committed inputs (`fuzz/seeds/<target>/*`, and the inputs
//! that once found a bug, `fuzz/regressions/<target>/<what it found>`) through the fuzz
//! targets' own code, on stable Rust with no fuzzing tools: the same checks `cargo fuzz
//! run` makes. A working corpus (`fuzz/corpus/`, not committed: `python3 fuzz/seed.py`
//! builds it, fuzzing grows it) is replayed too when it is there.
//!
//! The target bodies live in `fuzz/src/lib.rs`, a file that uses only `std` and
//! ctywire's public API; this test includes it as a module, and each fuzz target is a
//! one-line call into it. So there is one copy of the logic, and nothing fuzz-specific
//! in the library.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

#[path = "../fuzz/src/lib.rs"]
mod targets;

/// A fuzz target's body.
type Target = fn(&[u8]);

/// The targets and their functions; every one must have committed inputs.
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
    #[cfg(feature = "derive")]
    ("decode_object", targets::decode_object),
];

/// The files of `dir`, sorted; none when it does not exist.
fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// Runs every file of `dirs` through `run`; the ones that panic.
fn replay(target: &str, run: Target, files: &[PathBuf]) -> Vec<String> {
    let mut failures = Vec::new();
    for file in files {
        let data = std::fs::read(file).unwrap();
        if catch_unwind(AssertUnwindSafe(|| run(&data))).is_err() {
            failures.push(format!("{target}: {}", file.display()));
        }
    }
    failures
}

#[test]
fn seeds_and_regressions_replay() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut failures = Vec::new();
    for (target, run) in TARGETS {
        let committed: Vec<_> = ["seeds", "regressions"]
            .iter()
            .flat_map(|kind| files(&fuzz.join(kind).join(target)))
            .collect();
        assert!(!committed.is_empty(), "no seeds for {target}");
        failures.extend(replay(target, *run, &committed));
    }
    assert!(
        failures.is_empty(),
        "{} inputs panicked:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Each target directory under `fuzz/seeds` and `fuzz/regressions` is a target's.
#[test]
fn committed_inputs_belong_to_targets() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    for kind in ["seeds", "regressions"] {
        for entry in std::fs::read_dir(fuzz.join(kind)).unwrap() {
            let name = entry.unwrap().file_name();
            let name = name.to_str().unwrap();
            // A target built only with a feature this build lacks still owns its inputs.
            let gated = cfg!(not(feature = "derive")) && name == "decode_object";
            assert!(
                gated || TARGETS.iter().any(|(target, _)| *target == name),
                "fuzz/{kind}/{name} is no target's"
            );
        }
    }
}

/// The local working corpus, where one was built: every input the fuzzer kept.
#[test]
fn working_corpus_replays_where_present() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let mut failures = Vec::new();
    let mut replayed = 0;
    for (target, run) in TARGETS {
        let inputs = files(&corpus.join(target));
        replayed += inputs.len();
        failures.extend(replay(target, *run, &inputs));
    }
    eprintln!("fuzz/corpus: {replayed} inputs replayed");
    assert!(
        failures.is_empty(),
        "{} inputs panicked:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every fixed type can also be given inline, as the seeds give theirs, and
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

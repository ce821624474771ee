//! Checks of the package itself: its declared `rust-version` is true of every locked
//! dependency the library and the tool build with.
//!
//! The machine has one toolchain, so the declared minimum cannot be built here; what can
//! be checked is that no dependency asks for a newer Rust (clippy's `incompatible_msrv`
//! lint checks the crate's own use of the standard library against the same field).

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use serde_json::Value;

fn version(text: &str) -> Vec<u64> {
    let mut parts: Vec<u64> = text
        .split('.')
        .map(|p| {
            p.parse()
                .unwrap_or_else(|_| panic!("rust-version {text:?}"))
        })
        .collect();
    parts.resize(3, 0);
    parts
}

#[test]
fn rust_version_covers_every_locked_dependency() {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON");

    let packages: BTreeMap<&str, &Value> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p))
        .collect();
    let root = meta["resolve"]["root"].as_str().expect("a root package");
    let ours = version(
        packages[root]["rust_version"]
            .as_str()
            .expect("Cargo.toml declares rust-version"),
    );
    let nodes: BTreeMap<&str, &Value> = meta["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["id"].as_str().unwrap(), n))
        .collect();

    // Every package reached from the root through normal and build dependencies (the
    // root's dev-dependencies build only its tests and benches).
    let mut seen = BTreeSet::new();
    let mut todo = vec![root];
    while let Some(id) = todo.pop() {
        if !seen.insert(id) {
            continue;
        }
        for dep in nodes[id]["deps"].as_array().unwrap() {
            let used = dep["dep_kinds"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k["kind"].as_str() != Some("dev"));
            if used {
                todo.push(dep["pkg"].as_str().unwrap());
            }
        }
    }
    assert!(seen.len() > 5, "the walk found the dependencies: {seen:?}");

    let too_new: Vec<String> = seen
        .iter()
        .filter_map(|id| {
            let p = packages[id];
            let wanted = version(p["rust_version"].as_str()?);
            (wanted > ours).then(|| format!("{} {} needs {wanted:?}", p["name"], p["version"]))
        })
        .collect();
    assert!(
        too_new.is_empty(),
        "rust-version {ours:?} is below what these need: {too_new:?}"
    );
}

//! Checks of the workspace itself: each member's declared `rust-version` is true of
//! every locked dependency it builds with, and the library depends on nothing of the
//! tool's or the protocol's (no clap, no gRPC), and a proc-macro parser only through a
//! feature that asks for one.
//!
//! The machine has one toolchain, so the declared minimum cannot be built here; what can
//! be checked is that no dependency asks for a newer Rust (clippy's `incompatible_msrv`
//! lint checks the crates' own use of the standard library against the same field).

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

/// `cargo metadata` of the workspace, as locked.
fn metadata() -> Value {
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
    serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON")
}

/// The packages by id, and the ids each package reaches through normal and build
/// dependencies (dev-dependencies build only tests and benches).
struct Graph<'a> {
    packages: BTreeMap<&'a str, &'a Value>,
    nodes: BTreeMap<&'a str, &'a Value>,
}

impl<'a> Graph<'a> {
    fn new(meta: &'a Value) -> Self {
        let by_id = |list: &'a Value| {
            list.as_array()
                .unwrap()
                .iter()
                .map(|p| (p["id"].as_str().unwrap(), p))
                .collect()
        };
        Graph {
            packages: by_id(&meta["packages"]),
            nodes: by_id(&meta["resolve"]["nodes"]),
        }
    }

    fn reached_from(&self, root: &'a str) -> BTreeSet<&'a str> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![root];
        while let Some(id) = todo.pop() {
            if !seen.insert(id) {
                continue;
            }
            for dep in self.nodes[id]["deps"].as_array().unwrap() {
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
        seen
    }

    fn name(&self, id: &str) -> &'a str {
        self.packages[id]["name"].as_str().unwrap()
    }
}

#[test]
fn rust_version_covers_every_locked_dependency() {
    let meta = metadata();
    let graph = Graph::new(&meta);
    let members = meta["workspace_members"].as_array().unwrap();
    // Every member of the workspace (in the published package, the library alone).
    assert!(
        members
            .iter()
            .any(|m| graph.name(m.as_str().unwrap()) == "ctywire"),
        "the workspace's members: {members:?}"
    );
    for member in members {
        let member = member.as_str().unwrap();
        let ours = version(
            graph.packages[member]["rust_version"]
                .as_str()
                .unwrap_or_else(|| panic!("{} declares rust-version", graph.name(member))),
        );
        let seen = graph.reached_from(member);
        assert!(seen.len() > 1, "the walk found the dependencies: {seen:?}");
        let too_new: Vec<String> = seen
            .iter()
            .filter_map(|id| {
                let p = graph.packages[id];
                let wanted = version(p["rust_version"].as_str()?);
                (wanted > ours).then(|| format!("{} {} needs {wanted:?}", p["name"], p["version"]))
            })
            .collect();
        assert!(
            too_new.is_empty(),
            "{}: rust-version {ours:?} is below what these need: {too_new:?}",
            graph.name(member)
        );
    }
}

/// The README's install section states the lowest Rust of the library and of the
/// provider crates as their manifests declare it (in the published package, the
/// library's alone).
#[test]
fn the_readme_states_each_crates_rust_version() {
    let meta = metadata();
    let graph = Graph::new(&meta);
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let readme = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut checked = 0;
    for member in meta["workspace_members"].as_array().unwrap() {
        let package = graph.packages[member.as_str().unwrap()];
        let declared = package["rust_version"].as_str().unwrap_or_default();
        let stated = match package["name"].as_str().unwrap() {
            "ctywire" => format!("The library, as a dependency (Rust {declared} or later)"),
            "ctywire-tfplugin" | "ctywire-provider" | "ctywire-testing" => format!(
                "(`ctywire-tfplugin`, `ctywire-provider`, `ctywire-testing`) need Rust {declared} or later"
            ),
            _ => continue,
        };
        assert!(
            readme.contains(&stated),
            "the README does not say: {stated}"
        );
        checked += 1;
    }
    assert!(checked >= 1);
}

#[test]
fn the_library_depends_on_no_command_line_or_grpc_crate() {
    let meta = metadata();
    let graph = Graph::new(&meta);
    let library = meta["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .find(|m| graph.name(m) == "ctywire")
        .expect("the library is a member");
    let forbidden = ["clap", "tonic", "prost", "tokio", "h2", "hyper", "rustls"];
    let found: Vec<&str> = graph
        .reached_from(library)
        .into_iter()
        .map(|id| graph.name(id))
        .filter(|name| forbidden.contains(name) || name.starts_with("clap_"))
        .collect();
    assert!(found.is_empty(), "the library depends on {found:?}");
}

/// The names of the packages `cargo tree` lists for `package` with `features`, through
/// normal and build dependencies, as features resolve for that package alone.
fn tree(package: &str, features: &[&str]) -> BTreeSet<String> {
    let out = Command::new(env!("CARGO"))
        .args([
            "tree",
            "-p",
            package,
            "-e",
            "normal,build",
            "--prefix",
            "none",
        ])
        .args(["--format", "{p}", "--locked"])
        .args(features)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "cargo tree: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("cargo tree prints text")
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn syn_and_the_derive_come_only_with_the_features_that_need_them() {
    let parsers = ["syn", "quote", "proc-macro2", "ctywire-derive"];
    let bare = tree("ctywire", &["--no-default-features"]);
    assert!(
        bare.contains("rmp"),
        "the walk found the dependencies: {bare:?}"
    );
    let found: Vec<&&str> = parsers.iter().filter(|p| bare.contains(**p)).collect();
    assert!(
        found.is_empty(),
        "without features the library builds {found:?}"
    );
    // The default `serde` feature brings syn through serde's own derive, not ours.
    let default = tree("ctywire", &[]);
    assert!(
        default.contains("serde_derive") && !default.contains("ctywire-derive"),
        "{default:?}"
    );
    let derive = tree("ctywire", &["--features", "derive"]);
    assert!(
        derive.contains("ctywire-derive") && derive.contains("syn"),
        "{derive:?}"
    );
}

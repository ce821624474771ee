//! The committed documentation (`docs/`) is what the provider makes from its schema and
//! `examples/`: `terraform-provider-trial docs --check` passes. After a change to the
//! schema or the examples, `cargo run -p terraform-provider-trial -- docs` (in this
//! directory) writes the pages again.

use std::process::Command;

fn docs(arguments: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_terraform-provider-trial"))
        .arg("docs")
        .args(arguments)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

#[test]
fn the_committed_docs_are_current() {
    let output = docs(&["--check"]);
    assert!(
        output.status.success(),
        "{}\n(in examples/terraform-provider-trial: cargo run -- docs)",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn a_changed_page_fails_the_check() {
    let out = std::env::temp_dir().join(format!("trial-docs-{}", std::process::id()));
    let out_arg = out.to_str().unwrap();
    assert!(docs(&["--out", out_arg]).status.success());
    assert!(docs(&["--check", "--out", out_arg]).status.success());
    let page = out.join("resources/server.md");
    let text = std::fs::read_to_string(&page).unwrap();
    assert!(text.contains("# trial_server (Resource)"), "{text}");
    std::fs::write(&page, text.replace("(Block List)", "(Block Set)")).unwrap();
    let output = docs(&["--check", "--out", out_arg]);
    std::fs::remove_dir_all(&out).unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("resources/server.md: differs"), "{stderr}");
}

#[test]
fn a_bad_argument_is_a_usage_error() {
    let output = docs(&["--frobnicate"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("usage: PROVIDER docs"));
}

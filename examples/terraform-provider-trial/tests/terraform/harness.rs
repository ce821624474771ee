//! The trial provider's binary under real Terraform, in ctywire-testing's workspaces (see
//! that crate for how Terraform is found: here, CI's `CTYWIRE_TERRAFORM_PYTHON`).
//!
//! Like every acceptance test, the suite runs with `TF_ACC=1` (`.ci/run` sets it): without
//! it each test says it skipped; with it and no Terraform, each fails with what to
//! install. Each [`Workspace`] is a directory of its own whose CLI configuration's
//! `dev_overrides` point `example.com/ctywire/trial` at the provider binary cargo built,
//! so Terraform starts the provider straight from `target/`; every call's payloads are
//! captured (`TF_LOG_SDK_PROTO_DATA_DIR`) in the workspace's `captures/`.

use std::ops::{Deref, DerefMut};
use std::path::PathBuf;
use std::sync::OnceLock;

use ctywire_testing::Terraform;

/// The provider's source address in configurations.
pub const SOURCE: &str = "example.com/ctywire/trial";

/// The provider binary under test.
pub fn provider_binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_terraform-provider-trial"))
}

/// A Terraform working directory with the trial provider installed by `dev_overrides`.
pub struct Workspace(ctywire_testing::Workspace);

impl Workspace {
    /// A new, empty workspace; `None` (the test reported skipped) without `TF_ACC`.
    pub fn new() -> Option<Workspace> {
        static TERRAFORM: OnceLock<Terraform> = OnceLock::new();
        if let Some(found) = TERRAFORM.get() {
            return Some(Workspace::with(found));
        }
        // Says it skipped without TF_ACC; fails with what to install when none is found.
        let found = Terraform::for_acceptance()?;
        Some(Workspace::with(TERRAFORM.get_or_init(|| found)))
    }

    fn with(terraform: &Terraform) -> Workspace {
        let ws = ctywire_testing::Workspace::binary(terraform, SOURCE, provider_binary())
            .unwrap_or_else(|e| panic!("{e}"));
        Workspace(ws)
    }

    /// Replaces the configuration with one `main.tf.json` of `config`, which gets the
    /// `required_providers` entry for the trial provider (so that ctywire's `Config` reads
    /// the file alone).
    pub fn configure(&self, config: &serde_json::Value) -> &Workspace {
        let mut config = config.clone();
        config["terraform"]["required_providers"]["trial"]["source"] = SOURCE.into();
        let dir = self.config_dir();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "json" || e == "tf") {
                std::fs::remove_file(path).unwrap();
            }
        }
        std::fs::write(
            dir.join("main.tf.json"),
            serde_json::to_vec_pretty(&config).unwrap(),
        )
        .unwrap();
        self
    }
}

impl Deref for Workspace {
    type Target = ctywire_testing::Workspace;

    fn deref(&self) -> &ctywire_testing::Workspace {
        &self.0
    }
}

impl DerefMut for Workspace {
    fn deref_mut(&mut self) -> &mut ctywire_testing::Workspace {
        &mut self.0
    }
}

//! The trial provider's binary under real Terraform, in ctywire-testing's workspaces (see
//! that crate for how Terraform is found), with `TF_ACC=1` as every acceptance test:
//! `dev_overrides` point `example.com/ctywire/trial` at the binary cargo built.

use ctywire_testing::{Terraform, Workspace};

/// A new, empty workspace with the trial provider; `None` (the test reported skipped)
/// without `TF_ACC`.
pub fn workspace() -> Option<Workspace> {
    let terraform = Terraform::for_acceptance()?;
    let binary = env!("CARGO_BIN_EXE_terraform-provider-trial");
    Some(
        Workspace::binary(&terraform, "example.com/ctywire/trial", binary)
            .unwrap_or_else(|e| panic!("{e}")),
    )
}

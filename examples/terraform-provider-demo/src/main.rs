//! `terraform-provider-demo`: an example provider (protocol 6, type name `demo`) served
//! on ctywire-tfplugin.
//!
//! Run by Terraform (see the README's "Write a provider"), or by hand with `--debug`
//! to print the `TF_REATTACH_PROVIDERS` value that attaches Terraform to it.
//! `TF_LOG_SDK_PROTO_DATA_DIR` makes it write every value it receives and returns;
//! `DEMO_MISBEHAVE=NAME` makes it misbehave for tests (`provider::Misbehaviour`:
//! `plan-changes-config`, `apply-leaves-unknown`, ...). `DEMO_SLOW_APPLY=FILE` makes
//! each apply of a `demo_thing` write FILE and then take a few seconds (for the test
//! that interrupts Terraform mid-apply). `DEMO_TCP_FALLBACK=1` lets it serve on TCP where
//! it can make no Unix socket.
//! `--print-schema` prints its schema as `terraform providers schema -json` would,
//! for `ctywire --schema`.

mod concat;
mod old_thing;
mod provider;
mod schema;
mod thing;

#[cfg(test)]
mod tests;

use ctywire_tfplugin::capture::CaptureWriter;
use ctywire_tfplugin::Plugin;

/// The provider's address for debug mode's `TF_REATTACH_PROVIDERS`.
const ADDRESS: &str = "example.com/ctywire/demo";

#[tokio::main]
async fn main() {
    if std::env::args().any(|a| a == "--print-schema") {
        let mut schemas = ctywire::schema::ProviderSchemas::default();
        schemas
            .providers
            .insert(ADDRESS.to_owned(), schema::provider());
        println!("{}", String::from_utf8_lossy(&schemas.to_json()));
        return;
    }
    let misbehaviour = match std::env::var("DEMO_MISBEHAVE") {
        Ok(name) if !name.is_empty() => match provider::Misbehaviour::parse(&name) {
            Some(m) => Some(m),
            None => {
                let known: Vec<&str> = provider::Misbehaviour::ALL
                    .iter()
                    .map(|(n, _)| *n)
                    .collect();
                eprintln!(
                    "DEMO_MISBEHAVE: unknown misbehaviour {name:?} (known: {})",
                    known.join(", ")
                );
                std::process::exit(1);
            }
        },
        _ => None,
    };
    let slow_apply = std::env::var_os("DEMO_SLOW_APPLY")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from);
    let demo = provider::Demo::new(CaptureWriter::from_env(), misbehaviour).slow_apply(slow_apply);
    // TCP where no Unix socket can be made (under AutoMTLS only), when asked.
    let tcp = std::env::var_os("DEMO_TCP_FALLBACK").is_some_and(|v| v == "1");
    let plugin = Plugin::new().protocol6(demo).tcp_fallback(tcp);
    if std::env::args().any(|a| a == "--debug") {
        if let Err(e) = ctywire_tfplugin::serve_debug(plugin, ADDRESS).await {
            eprintln!("{e}");
            std::process::exit(1);
        }
    } else {
        ctywire_tfplugin::serve(plugin).await;
    }
}

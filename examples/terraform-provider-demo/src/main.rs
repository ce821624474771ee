//! `terraform-provider-demo`: an example provider (protocol 6, type name `demo`) written
//! on ctywire-provider (the provider itself is the library, `src/lib.rs`).
//!
//! Run by Terraform (see the README's "Write a provider"), or by hand with `--debug`
//! to print the `TF_REATTACH_PROVIDERS` value that attaches Terraform to it.
//! `TF_LOG_SDK_PROTO_DATA_DIR` makes it write every value it receives and returns
//! (`CTYWIRE_CAPTURE_STYLE=terraform-plugin-go` as a Go provider writes them,
//! `CTYWIRE_CAPTURE_TRUTH=FILE` with a log of each call: ctywire-tfplugin's `capture`);
//! `DEMO_MISBEHAVE=NAME` makes it misbehave for tests (`Misbehaviour`, in the hook:
//! `plan-changes-config`, `apply-leaves-unknown`, ...). `DEMO_SLOW_APPLY=FILE` makes
//! each apply of a `demo_thing` write FILE and then take a few seconds (for the test
//! that interrupts Terraform mid-apply). `DEMO_TCP_FALLBACK=1` lets it serve on TCP where
//! it can make no Unix socket.
//! `--print-schema` prints its schema as `terraform providers schema -json` would,
//! for `ctywire --schema`.

use terraform_provider_demo::{plugin_from_env, schema_json, ADDRESS};

#[tokio::main]
async fn main() {
    if std::env::args().any(|a| a == "--print-schema") {
        println!("{}", schema_json());
        return;
    }
    let plugin = match plugin_from_env() {
        Ok(plugin) => plugin,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    if std::env::args().any(|a| a == "--debug") {
        if let Err(e) = ctywire_tfplugin::serve_debug(plugin, ADDRESS).await {
            eprintln!("{e}");
            std::process::exit(1);
        }
    } else {
        ctywire_tfplugin::serve(plugin).await;
    }
}

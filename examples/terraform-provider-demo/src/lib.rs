//! `terraform-provider-demo`: an example provider (protocol 6, type name `demo`) written
//! on ctywire-provider, as a library so that its acceptance tests serve it in process
//! (`tests/acceptance.rs`, on ctywire-testing); `src/main.rs` is the binary Terraform
//! starts. `TF_LOG_SDK_PROTO_DATA_DIR` makes it write every value it receives and
//! returns (ctywire-tfplugin's captures).
//!
//! The provider itself (`provider.rs`, `thing.rs`, `old_thing.rs`, `concat.rs`) is what
//! an author writes; `misbehave.rs` is the lower level, an `Intercept` hook around it:
//! `DEMO_MISBEHAVE=NAME` makes it misbehave for tests (`plan-changes-config`,
//! `apply-leaves-unknown`, ...), `DEMO_SLOW_APPLY` slows applies down.

mod concat;
mod misbehave;
mod old_thing;
mod provider;
mod thing;

#[cfg(test)]
mod tests;

use ctywire_provider::Intercepted;
use ctywire_tfplugin::Plugin;

pub use misbehave::{Hook, Misbehaviour, SLOW_APPLY};
pub use provider::Demo;

/// The provider's source address in configurations and in debug mode's
/// `TF_REATTACH_PROVIDERS`.
pub const ADDRESS: &str = "example.com/ctywire/demo";

/// The provider's schemas as `terraform providers schema -json` prints them.
pub fn schema_json() -> String {
    let mut schemas = ctywire::schema::ProviderSchemas::default();
    schemas
        .providers
        .insert(ADDRESS.to_owned(), provider::server().schemas().clone());
    String::from_utf8_lossy(&schemas.to_json()).into_owned()
}

/// The provider, well behaved, writing no captures unless given a writer
/// ([`Plugin::capture`]).
pub fn plugin() -> Plugin {
    provider::server().plugin()
}

/// The provider as the process environment asks (captures to `TF_LOG_SDK_PROTO_DATA_DIR`
/// are `serve`'s own): misbehaviour from `DEMO_MISBEHAVE`, a slow apply from
/// `DEMO_SLOW_APPLY`, TCP where no socket can be made from `DEMO_TCP_FALLBACK`; an unknown
/// misbehaviour is an error that lists the known ones.
pub fn plugin_from_env() -> Result<Plugin, String> {
    let misbehaviour = match std::env::var("DEMO_MISBEHAVE") {
        Ok(name) if !name.is_empty() => match Misbehaviour::parse(&name) {
            Some(m) => Some(m),
            None => {
                let known: Vec<&str> = Misbehaviour::ALL.iter().map(|(n, _)| *n).collect();
                return Err(format!(
                    "DEMO_MISBEHAVE: unknown misbehaviour {name:?} (known: {})",
                    known.join(", ")
                ));
            }
        },
        _ => None,
    };
    let slow_apply = std::env::var_os("DEMO_SLOW_APPLY")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from);
    let hook = Hook::new(misbehaviour).slow_apply(slow_apply);
    // TCP where no Unix socket can be made (under AutoMTLS only), when asked.
    let tcp = std::env::var_os("DEMO_TCP_FALLBACK").is_some_and(|v| v == "1");
    Ok(service(hook).plugin().tcp_fallback(tcp))
}

/// The provider's protocol-6 service, each call through `hook`.
pub fn service(hook: Hook) -> Intercepted<Demo, Hook> {
    Intercepted::new(provider::server(), hook)
}

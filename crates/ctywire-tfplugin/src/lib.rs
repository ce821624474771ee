//! The Terraform / OpenTofu provider plugin protocol on [tonic], with [`ctywire`]'s values.
//!
//! The protocol's messages and services (`tfplugin6` 6.11, `tfplugin5` 5.10) are generated
//! at build time from the `.proto` files in `proto/` by prost and tonic, compiled by protox
//! (no system `protoc`).

/// Protocol 6.11 (`tfplugin6`): Terraform's `docs/plugin-protocol/tfplugin6.proto`.
#[allow(missing_docs, clippy::all, clippy::pedantic)]
pub mod tfplugin6 {
    tonic::include_proto!("tfplugin6");
}

/// Protocol 5.10 (`tfplugin5`): Terraform's `docs/plugin-protocol/tfplugin5.proto`.
#[allow(missing_docs, clippy::all, clippy::pedantic)]
pub mod tfplugin5 {
    tonic::include_proto!("tfplugin5");
}

/// go-plugin's controller service (`plugin.GRPCController`), which the client calls to
/// stop the plugin.
#[allow(missing_docs, clippy::all, clippy::pedantic)]
pub mod controller {
    tonic::include_proto!("plugin");
}

mod serve;

pub use serve::{
    handshake_line, reattach_json, serve, serve_debug, Plugin, PluginEnv, ServeError, Started,
    MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE,
};

pub mod capture;
pub mod diagnostic;
pub mod dynamic;
pub mod path;
pub mod schema;

//! The Terraform / OpenTofu provider plugin protocol on [tonic], with [`ctywire`]'s values.
//!
//! A provider implements the generated service trait
//! ([`tfplugin6::provider_server::Provider`], or protocol 5's) and hands it to
//! [`serve`] (the `ctywire-provider` crate is a per-resource framework on top of this
//! one). The modules make each handler a few
//! lines:
//!
//! - [`dynamic`]: a `DynamicValue` to and from a [`ctywire::Value`] or the provider's
//!   own serde types, typed by the schema's implied type;
//! - [`raw_state`]: a stored state (`RawState`, JSON or the legacy flatmap) as a value of
//!   the schema it was stored with, for state upgrades and moves;
//! - [`schema`]: `GetProviderSchema`'s messages from [`ctywire::schema`]'s model, so the
//!   schema is written once (and `providers schema -json` reads back the same);
//! - [`path`] and [`diagnostic`]: `AttributePath`s and `Diagnostic`s from ctywire's
//!   paths, errors, check violations and plan inconsistencies;
//! - [`capture`]: `TF_LOG_SDK_PROTO_DATA_DIR` captures in terraform-plugin-go's file
//!   names, for `ctywire capture`.
//!
//! [`serve`] does what go-plugin's client expects of a plugin: the magic cookie, the
//! protocol version (`PLUGIN_PROTOCOL_VERSIONS`), a Unix socket in a directory of its
//! own (TCP on `127.0.0.1`, within `PLUGIN_MIN_PORT` and `PLUGIN_MAX_PORT`, only where
//! [`Plugin::tcp_fallback`] allows it), the handshake line,
//! AutoMTLS (a server certificate made at start; only the client certificate Terraform
//! pinned in `PLUGIN_CLIENT_CERT` is admitted), the health service, and
//! `plugin.GRPCController/Shutdown`, and signals as go-plugin's plugins take them. The
//! server runs on threads of its own and each provider call as a task on the caller's
//! runtime (the serving model, below). [`serve_debug`] serves without Terraform starting
//! the plugin and prints the `TF_REATTACH_PROVIDERS` value that attaches to it.
//!
//! ## The serving model
//!
//! - **Threads.** The server (accepting connections, TLS, HTTP/2, health and the
//!   controller) runs on a runtime of its own, on threads named `plugin-server`; each
//!   provider call runs as a task on the runtime that started the plugin (the caller's
//!   `#[tokio::main]`). A handler that blocks or spins holds only the threads it runs on:
//!   health, `Shutdown` and new connections are answered meanwhile.
//! - **Panics.** A handler that panics ends its own call with an error diagnostic in
//!   that call's response (CallFunction's function error, StopProvider's error text)
//!   naming the call (and the resource type, function or action it was about) and
//!   quoting the start of the panic's message; a streaming call ends with an `INTERNAL`
//!   status saying the same. The process and the other calls go on.
//! - **Signals** ([`serve`] only). SIGINT is ignored from before the handshake line is
//!   printed (Terraform sends Ctrl-C to the whole process group, then stops its plugins
//!   itself); SIGTERM and SIGHUP stop the server, wait for the calls in flight (at most a
//!   few seconds), remove the socket's directory and end the process with status 128 plus
//!   the signal's number.
//! - **The socket.** `plugin.sock` in a new directory made with mode 0700 whatever the
//!   umask, removed when the server stops. When no socket can be made there, starting
//!   fails naming the path (and, for a path too long, the limit), unless the plugin
//!   allows TCP ([`Plugin::tcp_fallback`]), which is used only under AutoMTLS.
//! - **Limits.** Requests and responses at most 256 MiB each; a bounded number of
//!   concurrent streams per connection and of connections (a client past them waits or is
//!   refused); TLS handshakes time out, and so does a new connection that sends nothing;
//!   [`diagnostic`]s quote at most [`diagnostic::MAX_TEXT_BYTES`] of a text.
//!
//! The protocol's messages and services (`tfplugin6` 6.11, `tfplugin5` 5.10, go-plugin's
//! controller) are generated at build time from the `.proto` files in `proto/` by prost
//! and tonic, compiled by protox (no system `protoc`).
//!
//! ```
//! use ctywire::schema::{Attribute, Block, ProviderSchema, Schema};
//! use ctywire::Type;
//! use ctywire_tfplugin::tfplugin6::provider_server::Provider;
//! use ctywire_tfplugin::tfplugin6::{get_provider_schema, provider_client::ProviderClient};
//! use ctywire_tfplugin::{Plugin, PluginEnv};
//! use tonic::{Request, Response, Status};
//!
//! struct Example {
//!     schemas: ProviderSchema,
//! }
//!
//! #[tonic::async_trait]
//! impl Provider for Example {
//!     // Calls not written here answer Unimplemented.
//!     async fn get_provider_schema(
//!         &self,
//!         _: Request<get_provider_schema::Request>,
//!     ) -> Result<Response<get_provider_schema::Response>, Status> {
//!         Ok(Response::new(ctywire_tfplugin::schema::provider_schema_response(&self.schemas)))
//!     }
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut schemas = ProviderSchema::default();
//! let thing = Block::new().attribute("name", Attribute::new(Type::String).required());
//! schemas.resource_schemas.insert("example_thing".into(), Schema::new(thing));
//! let plugin = Plugin::new().protocol6(Example { schemas });
//!
//! // A binary calls `ctywire_tfplugin::serve(plugin).await`, which reads the variables
//! // Terraform sets and prints the handshake line. Here, the same server in-process,
//! // without TLS (as with TF_DISABLE_PLUGIN_TLS=1):
//! let started = plugin.start(&PluginEnv::terraform(None)).await?;
//! assert_eq!(started.handshake, format!("1|6|unix|{}|grpc", started.address));
//! # let ctywire_tfplugin::PluginAddress::Unix(socket) = started.address.clone() else { panic!() };
//! # let channel = tonic::transport::Endpoint::try_from("http://plugin")?
//! #     .connect_with_connector(tower::service_fn(move |_| {
//! #         let socket = socket.clone();
//! #         async move {
//! #             let stream = tokio::net::UnixStream::connect(socket).await?;
//! #             Ok::<_, std::io::Error>(hyper_util::rt::TokioIo::new(stream))
//! #         }
//! #     }))
//! #     .await?;
//! let response = ProviderClient::new(channel)
//!     .get_provider_schema(get_provider_schema::Request::default())
//!     .await?
//!     .into_inner();
//! assert!(response.resource_schemas.contains_key("example_thing"));
//! started.stop();
//! started.wait().await?;
//! # Ok(())
//! # }
//! ```

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
    handshake_line, reattach_json, serve, serve_debug, Plugin, PluginAddress, PluginEnv,
    ServeError, Started, MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE,
};

pub mod capture;
pub mod diagnostic;
pub mod dynamic;
pub mod path;
pub mod raw_state;
pub mod schema;
pub mod v5;

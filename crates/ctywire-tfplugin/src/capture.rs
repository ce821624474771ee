//! Captures: when `TF_LOG_SDK_PROTO_DATA_DIR` names a directory, every `DynamicValue`
//! of each call is written there under terraform-plugin-go's names,
//! `{UnixMilli}_{RPC}_{Message}_{Field}.{msgpack|json|empty}` (private data: no
//! extension, or `.empty`), so that `ctywire capture DIR` (and
//! [`ctywire::capture::Capture`]) reads a Rust provider's captures as a Go provider's.
//! One departure: all files of one message carry the millisecond the message was
//! written in, where terraform-plugin-go stamps each file by itself, so a reader never
//! finds one message's files split over two milliseconds.
//!
//! ```
//! use ctywire_tfplugin::capture::CaptureWriter;
//! use ctywire_tfplugin::tfplugin6::{plan_resource_change, DynamicValue};
//!
//! let dir = std::env::temp_dir().join(format!("ctywire-tfplugin-doc-capture-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let capture = CaptureWriter::new(&dir);
//! let request = plan_resource_change::Request {
//!     type_name: "demo_thing".into(),
//!     config: Some(DynamicValue { msgpack: vec![0x80u8].into(), json: Default::default() }),
//!     ..Default::default()
//! };
//! capture.request(&request);
//! let read = ctywire::capture::Capture::read_dir(&dir)?;
//! let call = &read.calls[0];
//! assert_eq!(call.rpc, "PlanResourceChange");
//! assert!(call.payload("Request", "Config").is_some());
//! assert!(call.payload("Request", "PriorState").is_some()); // absent: an .empty file
//! std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::dynamic::DynamicValueMessage;
use crate::tfplugin6 as pb;

/// The variable that names the capture directory, as terraform-plugin-go reads it.
pub const CAPTURE_DIR_VAR: &str = "TF_LOG_SDK_PROTO_DATA_DIR";

/// Writes a call's values into a capture directory, or does nothing when there is none.
/// Writing is best effort: a file that cannot be written is skipped, as
/// terraform-plugin-go skips it (it only logs).
#[derive(Clone, Debug, Default)]
pub struct CaptureWriter {
    dir: Option<PathBuf>,
}

impl CaptureWriter {
    /// Writes into `dir`.
    pub fn new(dir: impl AsRef<Path>) -> CaptureWriter {
        CaptureWriter {
            dir: Some(dir.as_ref().to_path_buf()),
        }
    }

    /// Writes nothing.
    pub fn disabled() -> CaptureWriter {
        CaptureWriter { dir: None }
    }

    /// Writes into the directory `TF_LOG_SDK_PROTO_DATA_DIR` names, if it is set and
    /// not empty.
    pub fn from_env() -> CaptureWriter {
        match std::env::var_os(CAPTURE_DIR_VAR) {
            Some(dir) if !dir.is_empty() => CaptureWriter::new(PathBuf::from(dir)),
            _ => CaptureWriter::disabled(),
        }
    }

    /// The directory written into, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// Writes a request's values (see [`Captured`]).
    pub fn request<M: Captured>(&self, request: &M) {
        self.message(request);
    }

    /// Writes a response's values (see [`Captured`]).
    pub fn response<M: Captured>(&self, response: &M) {
        self.message(response);
    }

    /// Writes one message's files, all under the millisecond the message is written
    /// in. terraform-plugin-go stamps each file with its own millisecond, so a
    /// message's files can straddle a millisecond's end and mix with a concurrent
    /// call's; one stamp per message keeps the files of one message together, which is
    /// what a reader groups by (the names and their meaning are unchanged).
    fn message<M: Captured>(&self, message: &M) {
        let Some(dir) = &self.dir else { return };
        let unix_millis = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        message.write_to(&MessageFiles { dir, unix_millis });
    }
}

/// The files of one message, all stamped with one millisecond (see
/// [`CaptureWriter::request`]).
#[derive(Debug)]
pub struct MessageFiles<'a> {
    dir: &'a Path,
    unix_millis: u128,
}

impl MessageFiles<'_> {
    /// Writes one value: its JSON when it has some (terraform-plugin-go prefers JSON),
    /// else its MessagePack, else an empty `.empty` file (absent values too).
    pub fn value<D: DynamicValueMessage>(
        &self,
        rpc: &str,
        message: &str,
        field: &str,
        value: Option<&D>,
    ) {
        let (extension, bytes) = match value {
            Some(v) if !v.json_bytes().is_empty() => ("json", v.json_bytes()),
            Some(v) if !v.msgpack_bytes().is_empty() => ("msgpack", v.msgpack_bytes()),
            _ => ("empty", &[][..]),
        };
        self.write(rpc, message, field, Some(extension), bytes);
    }

    /// Writes private data: as it is, without an extension, or an empty `.empty` file.
    pub fn private(&self, rpc: &str, message: &str, field: &str, data: &[u8]) {
        let extension = data.is_empty().then_some("empty");
        self.write(rpc, message, field, extension, data);
    }

    fn write(&self, rpc: &str, message: &str, field: &str, extension: Option<&str>, bytes: &[u8]) {
        let mut name = format!("{}_{rpc}_{message}_{field}", self.unix_millis);
        if let Some(extension) = extension {
            name.push('.');
            name.push_str(extension);
        }
        // Two calls in the same millisecond write the same name (the naming's limit,
        // terraform-plugin-go's too): each file is written whole under a name of its
        // own and renamed into place, so the last one wins whole instead of the two
        // writes tearing one file (a shorter value over a longer one's tail).
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let staging = self.dir.join(format!(
            ".{name}.{}-{}.tmp",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        if std::fs::write(&staging, bytes).is_err()
            || std::fs::rename(&staging, self.dir.join(&name)).is_err()
        {
            let _ = std::fs::remove_file(&staging);
        }
    }
}

/// A protocol message whose values terraform-plugin-go captures: it writes the same
/// fields under the same names.
pub trait Captured {
    /// Writes this message's values into `files`.
    fn write_to(&self, files: &MessageFiles<'_>);
}

macro_rules! captured {
    ($ty:ty, $rpc:literal, $message:literal,
     values { $($field:ident => $name:literal),* }
     $(, private { $($pfield:ident => $pname:literal),* })?) => {
        impl Captured for $ty {
            fn write_to(&self, files: &MessageFiles<'_>) {
                $( files.value($rpc, $message, $name, self.$field.as_ref()); )*
                $($( files.private($rpc, $message, $pname, &self.$pfield); )*)?
            }
        }
    };
}

captured!(pb::configure_provider::Request, "ConfigureProvider", "Request", values { config => "Config" });
captured!(pb::validate_provider_config::Request, "ValidateProviderConfig", "Request", values { config => "Config" });
captured!(pb::validate_resource_config::Request, "ValidateResourceConfig", "Request", values { config => "Config" });
captured!(pb::validate_data_resource_config::Request, "ValidateDataResourceConfig", "Request", values { config => "Config" });
captured!(pb::read_data_source::Request, "ReadDataSource", "Request", values { config => "Config", provider_meta => "ProviderMeta" });
captured!(pb::read_data_source::Response, "ReadDataSource", "Response", values { state => "State" });
captured!(pb::upgrade_resource_state::Response, "UpgradeResourceState", "Response", values { upgraded_state => "UpgradedState" });
captured!(pb::read_resource::Request, "ReadResource", "Request",
    values { current_state => "CurrentState", provider_meta => "ProviderMeta" },
    private { private => "Private" });
captured!(pb::read_resource::Response, "ReadResource", "Response",
    values { new_state => "NewState" },
    private { private => "Private" });
captured!(pb::plan_resource_change::Request, "PlanResourceChange", "Request",
    values { config => "Config", prior_state => "PriorState", proposed_new_state => "ProposedNewState", provider_meta => "ProviderMeta" },
    private { prior_private => "PriorPrivate" });
captured!(pb::plan_resource_change::Response, "PlanResourceChange", "Response",
    values { planned_state => "PlannedState" },
    private { planned_private => "PlannedPrivate" });
captured!(pb::apply_resource_change::Request, "ApplyResourceChange", "Request",
    values { config => "Config", planned_state => "PlannedState", prior_state => "PriorState", provider_meta => "ProviderMeta" },
    private { planned_private => "PlannedPrivate" });
captured!(pb::apply_resource_change::Response, "ApplyResourceChange", "Response",
    values { new_state => "NewState" },
    private { private => "Private" });
captured!(pb::move_resource_state::Response, "MoveResourceState", "Response", values { target_state => "TargetState" });
captured!(pb::call_function::Response, "CallFunction", "Response", values { result => "Result" });
captured!(pb::validate_ephemeral_resource_config::Request, "ValidateEphemeralResourceConfig", "Request", values { config => "Config" });
captured!(pb::open_ephemeral_resource::Request, "OpenEphemeralResource", "Request", values { config => "Config" });
captured!(pb::open_ephemeral_resource::Response, "OpenEphemeralResource", "Response", values { result => "Result" });

impl Captured for pb::import_resource_state::Response {
    fn write_to(&self, files: &MessageFiles<'_>) {
        for imported in &self.imported_resources {
            let message = "Response_ImportedResource";
            files.value(
                "ImportResourceState",
                message,
                "State",
                imported.state.as_ref(),
            );
            files.private("ImportResourceState", message, "Private", &imported.private);
        }
    }
}

impl Captured for pb::call_function::Request {
    fn write_to(&self, files: &MessageFiles<'_>) {
        for (i, argument) in self.arguments.iter().enumerate() {
            files.value(
                "CallFunction",
                "Request",
                &format!("Arguments_{i}"),
                Some(argument),
            );
        }
    }
}

/// Messages with no value terraform-plugin-go captures: they write no files.
macro_rules! nothing_captured {
    ($($ty:ty),* $(,)?) => {
        $(impl Captured for $ty {
            fn write_to(&self, _: &MessageFiles<'_>) {}
        })*
    };
}

nothing_captured!(
    pb::get_metadata::Request,
    pb::get_metadata::Response,
    pb::get_provider_schema::Request,
    pb::get_provider_schema::Response,
    pb::validate_provider_config::Response,
    pb::validate_resource_config::Response,
    pb::validate_data_resource_config::Response,
    pb::upgrade_resource_state::Request,
    pb::get_resource_identity_schemas::Request,
    pb::get_resource_identity_schemas::Response,
    pb::upgrade_resource_identity::Request,
    pb::upgrade_resource_identity::Response,
    pb::configure_provider::Response,
    pb::import_resource_state::Request,
    pb::move_resource_state::Request,
    pb::generate_resource_config::Request,
    pb::generate_resource_config::Response,
    pb::validate_ephemeral_resource_config::Response,
    pb::renew_ephemeral_resource::Request,
    pb::renew_ephemeral_resource::Response,
    pb::close_ephemeral_resource::Request,
    pb::close_ephemeral_resource::Response,
    pb::validate_list_resource_config::Request,
    pb::validate_list_resource_config::Response,
    pb::get_functions::Request,
    pb::get_functions::Response,
    pb::validate_state_store::Request,
    pb::validate_state_store::Response,
    pb::configure_state_store::Request,
    pb::configure_state_store::Response,
    pb::lock_state::Request,
    pb::lock_state::Response,
    pb::unlock_state::Request,
    pb::unlock_state::Response,
    pb::get_states::Request,
    pb::get_states::Response,
    pb::delete_state::Request,
    pb::delete_state::Response,
    pb::plan_action::Request,
    pb::plan_action::Response,
    pb::validate_action_config::Request,
    pb::validate_action_config::Response,
    pb::stop_provider::Request,
    pb::stop_provider::Response,
);

/// Where a [`Plugin`](crate::Plugin)'s captures go, shared by the plugin and the
/// provider it wraps: set after the provider is added, and read on every call.
pub(crate) type CaptureSlot = std::sync::Arc<std::sync::RwLock<CaptureWriter>>;

/// A protocol 6 provider whose every call's values are written to the plugin's
/// capture directory (request before the call, response after it), then handled by the
/// provider it wraps.
pub(crate) struct Capturing<P> {
    pub(crate) inner: P,
    pub(crate) slot: CaptureSlot,
}

impl<P> Capturing<P> {
    fn writer(&self) -> CaptureWriter {
        self.slot
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

macro_rules! capturing {
    (unary { $($method:ident => $m:ident),* $(,)? }
     forwarded { $($fmethod:ident($freq:ty) -> $fresp:ty),* $(,)? }) => {
        #[tonic::codegen::async_trait]
        impl<P: pb::provider_server::Provider> pb::provider_server::Provider for Capturing<P> {
            $(
                async fn $method(
                    &self,
                    request: tonic::Request<pb::$m::Request>,
                ) -> Result<tonic::Response<pb::$m::Response>, tonic::Status> {
                    let capture = self.writer();
                    if capture.dir().is_some() {
                        capture.request(request.get_ref());
                    }
                    let response = self.inner.$method(request).await?;
                    if capture.dir().is_some() {
                        capture.response(response.get_ref());
                    }
                    Ok(response)
                }
            )*
            $(
                async fn $fmethod(
                    &self,
                    request: tonic::Request<$freq>,
                ) -> Result<tonic::Response<$fresp>, tonic::Status> {
                    self.inner.$fmethod(request).await
                }
            )*
        }
    };
}

capturing! {
    unary {
        get_metadata => get_metadata,
        get_provider_schema => get_provider_schema,
        validate_provider_config => validate_provider_config,
        validate_resource_config => validate_resource_config,
        validate_data_resource_config => validate_data_resource_config,
        upgrade_resource_state => upgrade_resource_state,
        get_resource_identity_schemas => get_resource_identity_schemas,
        upgrade_resource_identity => upgrade_resource_identity,
        configure_provider => configure_provider,
        read_resource => read_resource,
        plan_resource_change => plan_resource_change,
        apply_resource_change => apply_resource_change,
        import_resource_state => import_resource_state,
        move_resource_state => move_resource_state,
        read_data_source => read_data_source,
        generate_resource_config => generate_resource_config,
        validate_ephemeral_resource_config => validate_ephemeral_resource_config,
        open_ephemeral_resource => open_ephemeral_resource,
        renew_ephemeral_resource => renew_ephemeral_resource,
        close_ephemeral_resource => close_ephemeral_resource,
        validate_list_resource_config => validate_list_resource_config,
        get_functions => get_functions,
        call_function => call_function,
        validate_state_store_config => validate_state_store,
        configure_state_store => configure_state_store,
        lock_state => lock_state,
        unlock_state => unlock_state,
        get_states => get_states,
        delete_state => delete_state,
        plan_action => plan_action,
        validate_action_config => validate_action_config,
        stop_provider => stop_provider,
    }
    forwarded {
        list_resource(pb::list_resource::Request)
            -> tonic::codegen::BoxStream<pb::list_resource::Event>,
        read_state_bytes(pb::read_state_bytes::Request)
            -> tonic::codegen::BoxStream<pb::read_state_bytes::Response>,
        write_state_bytes(tonic::Streaming<pb::write_state_bytes::RequestChunk>)
            -> pb::write_state_bytes::Response,
        invoke_action(pb::invoke_action::Request)
            -> tonic::codegen::BoxStream<pb::invoke_action::Event>,
    }
}

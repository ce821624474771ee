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

//! Captures: when `TF_LOG_SDK_PROTO_DATA_DIR` names a directory, every `DynamicValue`
//! of each call is written there under terraform-plugin-go's names,
//! `{UnixMilli}_{RPC}_{Message}_{Field}.{msgpack|json|empty}` (private data: no
//! extension, or `.empty`), so that `ctywire capture DIR` (and
//! [`ctywire::capture::Capture`]) reads a Rust provider's captures as a Go provider's.
//! The fields, their order and when they are written (a request's before the provider
//! handles it, a response's after, none for a call that fails with a gRPC status) are
//! terraform-plugin-go's. One departure by default: all files of one message carry the
//! millisecond the message was written in, where terraform-plugin-go stamps each file
//! by itself, so a reader never finds one message's files split over two milliseconds
//! ([`Stamping::PerMessage`]). `CTYWIRE_CAPTURE_STYLE=terraform-plugin-go` (or
//! [`CaptureWriter::stamping`]) writes as terraform-plugin-go does instead
//! ([`Stamping::PerFile`]), for test data like a Go provider's; `CTYWIRE_CAPTURE_TRUTH=FILE`
//! (or [`CaptureWriter::truth_log`]) keeps a log of each call and the files it wrote, to
//! check a reading of the directory against. The streaming RPCs (`ListResource`,
//! `InvokeAction`, the state store's bytes) are not captured.
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

use std::cell::RefCell;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::dynamic::DynamicValueMessage;
use crate::tfplugin6 as pb;

/// The variable that names the capture directory, as terraform-plugin-go reads it.
pub const CAPTURE_DIR_VAR: &str = "TF_LOG_SDK_PROTO_DATA_DIR";

/// The variable that picks how files are stamped ([`Stamping`]): `terraform-plugin-go`
/// for [`Stamping::PerFile`], `ctywire` (or unset) for [`Stamping::PerMessage`].
pub const CAPTURE_STYLE_VAR: &str = "CTYWIRE_CAPTURE_STYLE";

/// The variable that names a truth log ([`CaptureWriter::truth_log`]) the writer appends
/// a line to for each call, while it captures.
pub const CAPTURE_TRUTH_VAR: &str = "CTYWIRE_CAPTURE_TRUTH";

/// How a [`CaptureWriter`] stamps and writes its files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stamping {
    /// ctywire's own: every file of one message carries the millisecond the message is
    /// written in, and each file is written whole under a name of its own and renamed
    /// into place, so a reader never finds one message's files split over two
    /// milliseconds, nor a torn file.
    #[default]
    PerMessage,
    /// terraform-plugin-go's: each file is stamped with the millisecond it is written
    /// in, and written in place (created or truncated, then written, as Go's
    /// `os.WriteFile`). A message's files may straddle a millisecond's end, and two
    /// calls of one RPC writing one field in one millisecond leave one file, the later
    /// write's (or, when the two writes meet, the later one's bytes over the earlier's
    /// tail). For test data that looks like a Go provider's captures.
    PerFile,
}

impl Stamping {
    /// The stamping a [`CAPTURE_STYLE_VAR`] value names: `ctywire` or
    /// `terraform-plugin-go`.
    pub fn parse(name: &str) -> Option<Stamping> {
        match name {
            "ctywire" => Some(Stamping::PerMessage),
            "terraform-plugin-go" => Some(Stamping::PerFile),
            _ => None,
        }
    }
}

/// Writes a call's values into a capture directory, or does nothing when there is none.
/// Writing is best effort: a file that cannot be written is skipped, as
/// terraform-plugin-go skips it (it only logs).
#[derive(Clone, Debug, Default)]
pub struct CaptureWriter {
    dir: Option<PathBuf>,
    stamping: Stamping,
    truth: Option<Arc<TruthLog>>,
}

impl CaptureWriter {
    /// Writes into `dir`, each message's files under one millisecond
    /// ([`Stamping::PerMessage`]).
    pub fn new(dir: impl AsRef<Path>) -> CaptureWriter {
        CaptureWriter {
            dir: Some(dir.as_ref().to_path_buf()),
            ..CaptureWriter::default()
        }
    }

    /// Writes nothing.
    pub fn disabled() -> CaptureWriter {
        CaptureWriter::default()
    }

    /// Writes into the directory `TF_LOG_SDK_PROTO_DATA_DIR` names, if it is set and
    /// not empty; stamped as `CTYWIRE_CAPTURE_STYLE` says (an unknown style is reported
    /// on standard error, and ctywire's own used); with a truth log where
    /// `CTYWIRE_CAPTURE_TRUTH` names a file (one that cannot be opened is reported on
    /// standard error, and no log is kept).
    pub fn from_env() -> CaptureWriter {
        let dir = match std::env::var_os(CAPTURE_DIR_VAR) {
            Some(dir) if !dir.is_empty() => PathBuf::from(dir),
            _ => return CaptureWriter::disabled(),
        };
        let mut writer = CaptureWriter::new(dir);
        if let Some(style) = std::env::var_os(CAPTURE_STYLE_VAR).filter(|s| !s.is_empty()) {
            match style.to_str().and_then(Stamping::parse) {
                Some(stamping) => writer = writer.stamping(stamping),
                None => eprintln!(
                    "{CAPTURE_STYLE_VAR}: unknown style {style:?} (known: ctywire, \
                     terraform-plugin-go); writing ctywire's"
                ),
            }
        }
        if let Some(path) = std::env::var_os(CAPTURE_TRUTH_VAR).filter(|s| !s.is_empty()) {
            match writer.clone().truth_log(&path) {
                Ok(with_log) => writer = with_log,
                Err(e) => eprintln!(
                    "{CAPTURE_TRUTH_VAR}: cannot open {}: {e}",
                    Path::new(&path).display()
                ),
            }
        }
        writer
    }

    /// Stamps and writes files as `stamping` says.
    pub fn stamping(mut self, stamping: Stamping) -> CaptureWriter {
        self.stamping = stamping;
        self
    }

    /// Appends a line to the file at `path` (created if need be) for each call captured:
    /// what the provider itself knows of the call, to check a reading of the capture
    /// directory against. Each line is a JSON object, written whole when the call ends:
    ///
    /// - `pid`: the provider's process id; `start`, `end`: the call's place in the
    ///   process's order of calls starting and ending (one counter for both, so
    ///   `start < other.end` and `other.start < end` means the two overlapped);
    ///   `start_us`, `end_us`: the Unix time of both, in microseconds;
    /// - `rpc`: the RPC (`PlanResourceChange`); `type_name`: the resource type, data
    ///   source, function or action the request names (empty where it names none);
    /// - `files`: each file written, in the order written: `message` (`Request`,
    ///   `Response`, `Response_ImportedResource`), `field`, `file` (the name written),
    ///   `len` (bytes) and `fnv1a64` (the 64-bit FNV-1a hash of the bytes, 16 lowercase
    ///   hexadecimal digits);
    /// - `error`: the gRPC status code's name when the call failed (then no response
    ///   files), else `null`.
    ///
    /// The values themselves are not in the log (some may be sensitive): a file's hash
    /// says whether the directory still holds its bytes.
    ///
    /// ```
    /// use ctywire_tfplugin::capture::{CaptureWriter, Stamping};
    ///
    /// let dir = std::env::temp_dir().join(format!("ctywire-tfplugin-doc-truth-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let writer = CaptureWriter::new(dir.join("captures"))
    ///     .stamping(Stamping::PerFile)
    ///     .truth_log(dir.join("truth.jsonl"))?;
    /// assert!(writer.has_truth_log());
    /// std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn truth_log(mut self, path: impl AsRef<Path>) -> std::io::Result<CaptureWriter> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        self.truth = Some(Arc::new(TruthLog {
            file: Mutex::new(file),
            next: AtomicU64::new(0),
        }));
        Ok(self)
    }

    /// Whether a truth log is kept.
    pub fn has_truth_log(&self) -> bool {
        self.truth.is_some()
    }

    /// The directory written into, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// How files are stamped.
    pub fn stamping_used(&self) -> Stamping {
        self.stamping
    }

    /// Writes a request's values (see [`Captured`]).
    pub fn request<M: Captured>(&self, request: &M) {
        self.message(request);
    }

    /// Writes a response's values (see [`Captured`]).
    pub fn response<M: Captured>(&self, response: &M) {
        self.message(response);
    }

    /// Writes one message's files: all under the millisecond the message is written in
    /// ([`Stamping::PerMessage`]: terraform-plugin-go stamps each file with its own
    /// millisecond, so a message's files can straddle a millisecond's end and mix with
    /// a concurrent call's; one stamp per message keeps the files of one message
    /// together, which is what a reader groups by), or each under its own
    /// ([`Stamping::PerFile`]). Returns what was written.
    fn message<M: Captured>(&self, message: &M) -> Vec<WrittenFile> {
        let Some(dir) = &self.dir else {
            return Vec::new();
        };
        let files = MessageFiles {
            dir,
            unix_millis: unix_micros() / 1000,
            stamping: self.stamping,
            written: RefCell::new(Vec::new()),
        };
        message.write_to(&files);
        files.written.into_inner()
    }

    /// A call begins: its place in the truth log's order, if there is one.
    fn begin(&self) -> Option<(u64, u128)> {
        let truth = self.truth.as_ref()?;
        Some((truth.next.fetch_add(1, Ordering::SeqCst), unix_micros()))
    }

    /// A call ends: its line in the truth log, if there is one.
    fn end(&self, call: TruthCall<'_>) {
        let Some(truth) = &self.truth else { return };
        let end = truth.next.fetch_add(1, Ordering::SeqCst);
        let files: Vec<serde_json::Value> = call
            .files
            .iter()
            .map(|f| {
                serde_json::json!({
                    "message": f.message,
                    "field": f.field,
                    "file": f.name,
                    "len": f.len,
                    "fnv1a64": format!("{:016x}", f.fnv1a64),
                })
            })
            .collect();
        let line = serde_json::json!({
            "pid": std::process::id(),
            "start": call.start.0,
            "end": end,
            "start_us": call.start.1 as u64,
            "end_us": unix_micros() as u64,
            "rpc": call.rpc,
            "type_name": call.type_name,
            "files": files,
            "error": call.error,
        });
        let mut text = line.to_string();
        text.push('\n');
        let mut file = truth
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // One write of the whole line to a file opened to append: the lines of
        // providers that share the log do not interleave.
        let _ = file.write_all(text.as_bytes());
    }
}

fn unix_micros() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_micros())
}

/// The 64-bit FNV-1a hash of `bytes`, as the truth log gives each file's bytes.
///
/// ```
/// use ctywire_tfplugin::capture::fnv1a64;
///
/// assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
/// assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
/// ```
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// A truth log: the file, and the counter of calls' starts and ends.
#[derive(Debug)]
struct TruthLog {
    file: Mutex<std::fs::File>,
    next: AtomicU64,
}

/// One file as written, for the truth log.
#[derive(Debug)]
struct WrittenFile {
    message: String,
    field: String,
    name: String,
    len: usize,
    fnv1a64: u64,
}

/// A call as the truth log records it.
struct TruthCall<'a> {
    start: (u64, u128),
    rpc: &'a str,
    type_name: &'a str,
    files: Vec<WrittenFile>,
    error: Option<String>,
}

/// The files of one message (see [`CaptureWriter::request`]).
#[derive(Debug)]
pub struct MessageFiles<'a> {
    dir: &'a Path,
    unix_millis: u128,
    stamping: Stamping,
    written: RefCell<Vec<WrittenFile>>,
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
        let millis = match self.stamping {
            Stamping::PerMessage => self.unix_millis,
            Stamping::PerFile => unix_micros() / 1000,
        };
        let mut name = format!("{millis}_{rpc}_{message}_{field}");
        if let Some(extension) = extension {
            name.push('.');
            name.push_str(extension);
        }
        match self.stamping {
            Stamping::PerMessage => write_whole(self.dir, &name, bytes),
            Stamping::PerFile => write_in_place(&self.dir.join(&name), bytes),
        }
        self.written.borrow_mut().push(WrittenFile {
            message: message.to_owned(),
            field: field.to_owned(),
            name,
            len: bytes.len(),
            fnv1a64: fnv1a64(bytes),
        });
    }
}

/// Two calls in the same millisecond write the same name (the naming's limit,
/// terraform-plugin-go's too): each file is written whole under a name of its own and
/// renamed into place, so the last one wins whole instead of the two writes tearing one
/// file (a shorter value over a longer one's tail).
fn write_whole(dir: &Path, name: &str, bytes: &[u8]) {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let staging = dir.join(format!(
        ".{name}.{}-{}.tmp",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    if std::fs::write(&staging, bytes).is_err()
        || std::fs::rename(&staging, dir.join(name)).is_err()
    {
        let _ = std::fs::remove_file(&staging);
    }
}

/// As Go's `os.WriteFile(path, bytes, 0644)`: created or truncated, then written.
fn write_in_place(path: &Path, bytes: &[u8]) {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o644);
    if let Ok(mut file) = options.open(path) {
        let _ = file.write_all(bytes);
    }
}

/// A protocol message whose values terraform-plugin-go captures: it writes the same
/// fields under the same names, in the same order.
pub trait Captured {
    /// Writes this message's values into `files`.
    fn write_to(&self, files: &MessageFiles<'_>);

    /// The resource type, data source, ephemeral resource, list resource, action or
    /// function a request names (empty for a response, or a request that names none).
    fn subject(&self) -> &str {
        ""
    }
}

macro_rules! captured {
    ($ty:ty, $rpc:literal, $message:literal,
     $(subject $subject:ident,)?
     values { $($field:ident => $name:literal),* }
     $(, private { $($pfield:ident => $pname:literal),* })?) => {
        impl Captured for $ty {
            fn write_to(&self, files: &MessageFiles<'_>) {
                // Some requests write no value (only their subject is of interest).
                let _ = files;
                $( files.value($rpc, $message, $name, self.$field.as_ref()); )*
                $($( files.private($rpc, $message, $pname, &self.$pfield); )*)?
            }
            $(fn subject(&self) -> &str {
                &self.$subject
            })?
        }
    };
}

captured!(pb::configure_provider::Request, "ConfigureProvider", "Request", values { config => "Config" });
captured!(pb::validate_provider_config::Request, "ValidateProviderConfig", "Request", values { config => "Config" });
captured!(pb::validate_resource_config::Request, "ValidateResourceConfig", "Request", subject type_name, values { config => "Config" });
captured!(pb::validate_data_resource_config::Request, "ValidateDataResourceConfig", "Request", subject type_name, values { config => "Config" });
captured!(pb::read_data_source::Request, "ReadDataSource", "Request", subject type_name, values { config => "Config", provider_meta => "ProviderMeta" });
captured!(pb::read_data_source::Response, "ReadDataSource", "Response", values { state => "State" });
captured!(pb::upgrade_resource_state::Request, "UpgradeResourceState", "Request", subject type_name, values {});
captured!(pb::upgrade_resource_state::Response, "UpgradeResourceState", "Response", values { upgraded_state => "UpgradedState" });
captured!(pb::upgrade_resource_identity::Request, "UpgradeResourceIdentity", "Request", subject type_name, values {});
captured!(pb::read_resource::Request, "ReadResource", "Request", subject type_name,
    values { current_state => "CurrentState", provider_meta => "ProviderMeta" },
    private { private => "Private" });
captured!(pb::read_resource::Response, "ReadResource", "Response",
    values { new_state => "NewState" },
    private { private => "Private" });
captured!(pb::plan_resource_change::Request, "PlanResourceChange", "Request", subject type_name,
    values { config => "Config", prior_state => "PriorState", proposed_new_state => "ProposedNewState", provider_meta => "ProviderMeta" },
    private { prior_private => "PriorPrivate" });
captured!(pb::plan_resource_change::Response, "PlanResourceChange", "Response",
    values { planned_state => "PlannedState" },
    private { planned_private => "PlannedPrivate" });
captured!(pb::apply_resource_change::Request, "ApplyResourceChange", "Request", subject type_name,
    values { config => "Config", planned_state => "PlannedState", prior_state => "PriorState", provider_meta => "ProviderMeta" },
    private { planned_private => "PlannedPrivate" });
captured!(pb::apply_resource_change::Response, "ApplyResourceChange", "Response",
    values { new_state => "NewState" },
    private { private => "Private" });
captured!(pb::import_resource_state::Request, "ImportResourceState", "Request", subject type_name, values {});
captured!(pb::move_resource_state::Request, "MoveResourceState", "Request", subject target_type_name, values {});
captured!(pb::move_resource_state::Response, "MoveResourceState", "Response", values { target_state => "TargetState" });
captured!(pb::call_function::Response, "CallFunction", "Response", values { result => "Result" });
captured!(pb::validate_ephemeral_resource_config::Request, "ValidateEphemeralResourceConfig", "Request", subject type_name, values { config => "Config" });
captured!(pb::open_ephemeral_resource::Request, "OpenEphemeralResource", "Request", subject type_name, values { config => "Config" });
captured!(pb::open_ephemeral_resource::Response, "OpenEphemeralResource", "Response", values { result => "Result" });
captured!(pb::renew_ephemeral_resource::Request, "RenewEphemeralResource", "Request", subject type_name, values {});
captured!(pb::close_ephemeral_resource::Request, "CloseEphemeralResource", "Request", subject type_name, values {});
captured!(pb::generate_resource_config::Request, "GenerateResourceConfig", "Request", subject type_name, values { state => "State" });
captured!(pb::generate_resource_config::Response, "GenerateResourceConfig", "Response", values { config => "Config" });
captured!(pb::validate_list_resource_config::Request, "ValidateListResourceConfig", "Request", subject type_name, values { config => "Config" });
captured!(pb::validate_action_config::Request, "ValidateActionConfig", "Request", subject type_name, values { config => "Config" });
captured!(pb::plan_action::Request, "PlanAction", "Request", subject action_type, values { config => "Config" });
captured!(pb::validate_state_store::Request, "ValidateStateStoreConfig", "Request", subject type_name, values { config => "Config" });
captured!(pb::configure_state_store::Request, "ConfigureStateStore", "Request", subject type_name, values { config => "Config" });

/// Only when the provider upgraded an identity, as terraform-plugin-go writes it.
impl Captured for pb::upgrade_resource_identity::Response {
    fn write_to(&self, files: &MessageFiles<'_>) {
        if let Some(upgraded) = &self.upgraded_identity {
            files.value(
                "UpgradeResourceIdentity",
                "Response",
                "UpgradedResourceIdentity",
                upgraded.identity_data.as_ref(),
            );
        }
    }
}

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

    fn subject(&self) -> &str {
        &self.name
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
    pb::get_resource_identity_schemas::Request,
    pb::get_resource_identity_schemas::Response,
    pb::configure_provider::Response,
    pb::validate_ephemeral_resource_config::Response,
    pb::renew_ephemeral_resource::Response,
    pb::close_ephemeral_resource::Response,
    pb::validate_list_resource_config::Response,
    pb::get_functions::Request,
    pb::get_functions::Response,
    pb::validate_state_store::Response,
    pb::configure_state_store::Response,
    pb::lock_state::Request,
    pb::lock_state::Response,
    pb::unlock_state::Request,
    pb::unlock_state::Response,
    pb::get_states::Request,
    pb::get_states::Response,
    pb::delete_state::Request,
    pb::delete_state::Response,
    pb::plan_action::Response,
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

/// The RPC a method serves: `plan_resource_change` is `PlanResourceChange`.
fn rpc_name(method: &str) -> String {
    method
        .split('_')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
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
                    if capture.dir().is_none() {
                        return self.inner.$method(request).await;
                    }
                    let start = capture.begin();
                    let mut files = capture.message(request.get_ref());
                    let rpc = rpc_name(stringify!($method));
                    let subject = request.get_ref().subject().to_owned();
                    let result = self.inner.$method(request).await;
                    // As terraform-plugin-go: the response's files only when the call
                    // returned one (a call that fails with a gRPC status writes none).
                    let error = match &result {
                        Ok(response) => {
                            files.extend(capture.message(response.get_ref()));
                            None
                        }
                        Err(status) => Some(format!("{:?}", status.code())),
                    };
                    if let Some(start) = start {
                        capture.end(TruthCall { start, rpc: &rpc, type_name: &subject, files, error });
                    }
                    result
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use pb::provider_server::Provider as _;

    /// Answers a refresh with the state it was given, and fails every plan.
    struct Echo;

    #[tonic::async_trait]
    impl pb::provider_server::Provider for Echo {
        async fn read_resource(
            &self,
            request: tonic::Request<pb::read_resource::Request>,
        ) -> Result<tonic::Response<pb::read_resource::Response>, tonic::Status> {
            Ok(tonic::Response::new(pb::read_resource::Response {
                new_state: request.into_inner().current_state,
                private: b"p".to_vec(),
                ..Default::default()
            }))
        }
        async fn plan_resource_change(
            &self,
            _: tonic::Request<pb::plan_resource_change::Request>,
        ) -> Result<tonic::Response<pb::plan_resource_change::Response>, tonic::Status> {
            Err(tonic::Status::internal("no plans"))
        }
    }

    /// What a directory and its truth log hold after `calls` refreshes one after the
    /// other (and one failing plan), stamped as `stamping` says.
    struct Run {
        dir: PathBuf,
        files: BTreeMap<String, Vec<u8>>,
        lines: Vec<serde_json::Value>,
    }

    fn run(name: &str, stamping: Stamping, calls: usize) -> Run {
        let dir = std::env::temp_dir().join(format!(
            "ctywire-tfplugin-truth-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let captures = dir.join("captures");
        std::fs::create_dir_all(&captures).unwrap();
        let writer = CaptureWriter::new(&captures)
            .stamping(stamping)
            .truth_log(dir.join("truth.jsonl"))
            .unwrap();
        let provider = Capturing {
            inner: Echo,
            slot: Arc::new(std::sync::RwLock::new(writer)),
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            for i in 0..calls {
                let state = format!("\u{a4}s{i:03}");
                let request = pb::read_resource::Request {
                    type_name: "demo_thing".into(),
                    current_state: Some(pb::DynamicValue {
                        msgpack: state.into_bytes().into(),
                        json: Default::default(),
                    }),
                    ..Default::default()
                };
                provider
                    .read_resource(tonic::Request::new(request))
                    .await
                    .unwrap();
            }
            let plan = pb::plan_resource_change::Request {
                type_name: "demo_thing".into(),
                ..Default::default()
            };
            assert!(provider
                .plan_resource_change(tonic::Request::new(plan))
                .await
                .is_err());
        });
        let files = std::fs::read_dir(&captures)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let name = e.file_name().into_string().unwrap();
                (name, std::fs::read(e.path()).unwrap())
            })
            .collect();
        let lines = std::fs::read_to_string(dir.join("truth.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        Run { dir, files, lines }
    }

    fn stamp(name: &str) -> &str {
        name.split('_').next().unwrap()
    }

    /// The truth log has a line per call, in order, with every file written and its
    /// hash; in terraform-plugin-go's style, each file of a name holds the bytes of the
    /// last call that wrote the name (calls in one millisecond overwrite each other's
    /// files), and a message's files may carry two milliseconds.
    #[test]
    fn per_file_stamps_overwrite_and_the_truth_log_says_what_each_call_wrote() {
        let calls = 400;
        let run = run("per-file", Stamping::PerFile, calls);
        assert_eq!(run.lines.len(), calls + 1);
        let mut last_writer: BTreeMap<String, (u64, String)> = BTreeMap::new();
        let mut straddling = 0;
        for (n, line) in run.lines.iter().enumerate() {
            let start = line["start"].as_u64().unwrap();
            assert_eq!(
                (start, line["end"].as_u64().unwrap()),
                (2 * n as u64, 2 * n as u64 + 1)
            );
            assert_eq!(line["type_name"], "demo_thing");
            let files = line["files"].as_array().unwrap();
            if n == calls {
                // The failed plan: its request's files, no response's.
                assert_eq!(line["rpc"], "PlanResourceChange");
                assert_eq!(line["error"], "Internal");
                let fields: Vec<&str> =
                    files.iter().map(|f| f["field"].as_str().unwrap()).collect();
                assert_eq!(
                    fields,
                    [
                        "Config",
                        "PriorState",
                        "ProposedNewState",
                        "ProviderMeta",
                        "PriorPrivate"
                    ]
                );
                continue;
            }
            assert_eq!(line["rpc"], "ReadResource");
            assert!(line["error"].is_null());
            let fields: Vec<(&str, &str)> = files
                .iter()
                .map(|f| (f["message"].as_str().unwrap(), f["field"].as_str().unwrap()))
                .collect();
            assert_eq!(
                fields,
                [
                    ("Request", "CurrentState"),
                    ("Request", "ProviderMeta"),
                    ("Request", "Private"),
                    ("Response", "NewState"),
                    ("Response", "Private"),
                ]
            );
            let names: Vec<&str> = files.iter().map(|f| f["file"].as_str().unwrap()).collect();
            assert!(
                names.windows(2).all(|w| stamp(w[0]) <= stamp(w[1])),
                "{names:?}"
            );
            if stamp(names[0]) != stamp(names[2]) {
                straddling += 1;
            }
            for f in files {
                last_writer.insert(
                    f["file"].as_str().unwrap().to_owned(),
                    (
                        f["len"].as_u64().unwrap(),
                        f["fnv1a64"].as_str().unwrap().to_owned(),
                    ),
                );
            }
        }
        // Each name holds its last writer's bytes: where calls wrote one name in one
        // millisecond (most runs; how many depends on how fast this machine writes, so
        // it is not asserted), the last one's.
        assert_eq!(
            run.files
                .keys()
                .filter(|n| n.contains("ReadResource"))
                .count(),
            last_writer.len()
        );
        for (name, (len, hash)) in &last_writer {
            let bytes = &run.files[name];
            assert_eq!(
                (bytes.len() as u64, format!("{:016x}", fnv1a64(bytes))),
                (*len, hash.clone()),
                "{name}"
            );
        }
        assert!(
            straddling > 0,
            "no request straddled a millisecond in {calls} calls"
        );
        std::fs::remove_dir_all(&run.dir).unwrap();
    }

    /// ctywire's own style: one stamp per message, whatever the truth log.
    #[test]
    fn per_message_stamps_keep_a_message_together() {
        let run = run("per-message", Stamping::PerMessage, 100);
        for line in &run.lines {
            let files = line["files"].as_array().unwrap();
            let stamps: std::collections::BTreeSet<(&str, &str)> = files
                .iter()
                .map(|f| {
                    (
                        f["message"].as_str().unwrap(),
                        stamp(f["file"].as_str().unwrap()),
                    )
                })
                .collect();
            let messages: std::collections::BTreeSet<&str> = files
                .iter()
                .map(|f| f["message"].as_str().unwrap())
                .collect();
            assert_eq!(stamps.len(), messages.len(), "{line}");
        }
        assert!(run.files.keys().all(|n| !n.starts_with('.')));
        std::fs::remove_dir_all(&run.dir).unwrap();
    }

    #[test]
    fn styles_and_rpc_names() {
        assert_eq!(
            Stamping::parse("terraform-plugin-go"),
            Some(Stamping::PerFile)
        );
        assert_eq!(Stamping::parse("ctywire"), Some(Stamping::PerMessage));
        assert_eq!(Stamping::parse("go"), None);
        assert_eq!(rpc_name("plan_resource_change"), "PlanResourceChange");
        assert_eq!(
            rpc_name("validate_state_store_config"),
            "ValidateStateStoreConfig"
        );
    }
}

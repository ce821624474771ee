//! Capture directories: the payload files terraform-plugin-go writes when
//! `TF_LOG_SDK_PROTO_DATA_DIR` names a directory.
//!
//! A provider built on terraform-plugin-go (the framework, SDKv2, or plugin-go itself)
//! writes one file per `DynamicValue` it receives or returns, and one per private-data
//! field, named `{UnixMilli}_{RPC}_{Message}_{Field}.{Extension}`:
//!
//! - the extension is `msgpack` or `json` for a value in that encoding, `empty` for a
//!   value that is absent or holds neither (read as null), and for empty private data;
//!   private data that is not empty has no extension;
//! - the message is `Request`, `Response`, or a part of a response
//!   (`Response_ImportedResource`); the field is the message's field
//!   (`PlannedState`, `PriorPrivate`, `Arguments_0` for `CallFunction`'s arguments).
//!
//! [`Capture`] reads a directory ([`Capture::read_dir`]) or named files
//! ([`Capture::from_files`]), parses each name ([`FileName::parse`]) and groups the
//! files into [`Call`]s: one RPC, its request and its response. A [`Resolver`] then
//! finds what types each call's values, from the provider's schemas: the one resource
//! type (data source, ephemeral resource, action, ...) whose implied type decodes every
//! value of the call.
//!
//! ```
//! use ctywire::capture::{Capture, Resolved, Resolver};
//! use ctywire::schema::ProviderSchemas;
//!
//! let config = std::fs::read("examples/payloads/cloud_instance.config.msgpack")?;
//! let planned = std::fs::read("examples/payloads/cloud_instance.planned.msgpack")?;
//! let capture = Capture::from_files([
//!     ("1718000000100_PlanResourceChange_Request_Config.msgpack".to_owned(), config.clone()),
//!     ("1718000000100_PlanResourceChange_Request_PriorState.msgpack".to_owned(), vec![0xc0]),
//!     ("1718000000100_PlanResourceChange_Request_ProposedNewState.msgpack".to_owned(), config),
//!     ("1718000000100_PlanResourceChange_Request_PriorPrivate.empty".to_owned(), vec![]),
//!     ("1718000000105_PlanResourceChange_Response_PlannedState.msgpack".to_owned(), planned),
//! ]);
//! assert!(capture.problems.is_empty());
//! let call = &capture.calls[0];
//! assert_eq!((call.rpc.as_str(), call.payloads.len()), ("PlanResourceChange", 5));
//!
//! let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
//! let mut resolver = Resolver::new(&schemas);
//! let Resolved::Found(subject) = resolver.resolve(call) else { panic!("one type") };
//! assert_eq!(subject.to_string(), "resource type cloud_instance");
//! let (prior, planned) = call.change().unwrap();
//! assert!(prior.decode(&subject.type_of(prior).unwrap())?.is_null());
//! assert!(planned.decode(&subject.type_of(planned).unwrap())?["id"].is_unknown());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Calls
//!
//! The file names carry no call id: what tells calls apart is the time (to the
//! millisecond), the RPC, the message and the field. Terraform calls the provider for
//! up to ten resources at once, so the files of calls of one RPC interleave, and two
//! calls of one RPC in the same millisecond write files of the same names: the last
//! writer's file is the one left. [`Capture`] groups the files of each RPC as follows,
//! and says how sure it is of each call ([`Status`]):
//!
//! - the fields a message has are those the directory shows for that RPC's requests (or
//!   responses): one file per field per call (parts of a response, such as each
//!   imported resource, and a function's arguments may vary);
//! - a message is the files of one millisecond, or of two consecutive ones when two
//!   partial messages together have every field and neither could join another. A
//!   message that lacks fields, or sits next to one that does (whose missing files may
//!   be among its own), is [`Status::Incomplete`];
//! - with schemas ([`Capture::from_files_with_schemas`]), a request whose values break
//!   Terraform's own rules for what it sends (a plan's `ProposedNewState` is the one
//!   Terraform makes from `PriorState` and `Config`; an apply's `PlannedState` is a
//!   valid plan for its `Config`) holds files of more than one call: incomplete;
//! - a response fits a request written before it (or in the same millisecond); with
//!   schemas, one schema must type the values of both, and a plan's `PlannedState` must
//!   be a valid plan for the request's `PriorState` and `Config`, an apply's `NewState`
//!   compatible with the request's `PlannedState` ([`Block::check_plan`],
//!   [`Block::check_compatible`]);
//! - a response that only one request fits is that request's answer; then no other
//!   response is (repeated while it decides more). What is left is
//!   [`Status::Ambiguous`], with the candidates, or [`Status::Incomplete`] when nothing
//!   fits.
//!
//! What names cannot show is not shown as known, but what they cannot show at all is a
//! limit: when two calls of one RPC write their files in the same milliseconds, one set
//! of names is left, each file the last writer's, and nothing in the names says there
//! were two; where the two calls' values differ, the checks above find the mix (with
//! schemas), but private data and `ProviderMeta` are bound to no other value, and
//! without schemas the mix goes unseen. The checks assume the provider keeps Terraform's rules: a
//! call whose response breaks them is left unpaired, unless another request fits it.
//!
//! ```
//! use ctywire::capture::{Capture, Status};
//!
//! let file = |name: &str| (name.to_owned(), vec![0xc0]);
//! // Two reads at once: two requests, then two responses; the names cannot tell which
//! // answers which.
//! let capture = Capture::from_files([
//!     file("1718000000200_ReadResource_Request_CurrentState.msgpack"),
//!     file("1718000000201_ReadResource_Request_CurrentState.msgpack"),
//!     file("1718000000203_ReadResource_Response_NewState.msgpack"),
//!     file("1718000000204_ReadResource_Response_NewState.msgpack"),
//! ]);
//! let summary = capture.summary();
//! assert_eq!((summary.calls, summary.complete, summary.ambiguous, summary.incomplete), (4, 0, 4, 0));
//! let Status::Ambiguous { candidates } = &capture.calls[0].status else { panic!() };
//! assert_eq!(candidates, &[
//!     vec!["1718000000203_ReadResource_Response_NewState.msgpack".to_owned()],
//!     vec!["1718000000204_ReadResource_Response_NewState.msgpack".to_owned()],
//! ]);
//!
//! // One after the other: the response only the first request fits answers it.
//! let capture = Capture::from_files([
//!     file("1718000000300_ReadResource_Request_CurrentState.msgpack"),
//!     file("1718000000302_ReadResource_Response_NewState.msgpack"),
//!     file("1718000000303_ReadResource_Request_CurrentState.msgpack"),
//!     file("1718000000305_ReadResource_Response_NewState.msgpack"),
//! ]);
//! assert!(capture.calls.iter().all(|call| call.is_complete()));
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path as FsPath;

use crate::error::{Error, ErrorKind, Result};
#[cfg(doc)]
use crate::schema::Block;
use crate::schema::{Function, IdentitySchema, ProviderSchemas, Schema, SchemaKind};

mod pairing;
use crate::types::Type;
use crate::value::Value;
use crate::{json, msgpack};

/// A protocol data file's name taken apart: `{UnixMilli}_{RPC}_{Message}_{Field}.{ext}`.
///
/// ```
/// use ctywire::capture::{Extension, FileName};
///
/// let name = FileName::parse("1718000000123_ImportResourceState_Response_ImportedResource_State.msgpack")?;
/// assert_eq!(name.unix_millis, 1718000000123);
/// assert_eq!(name.rpc, "ImportResourceState");
/// assert_eq!(name.message, "Response_ImportedResource");
/// assert_eq!(name.field, "State");
/// assert_eq!(name.extension, Extension::Msgpack);
///
/// let name = FileName::parse("1718000000123_CallFunction_Request_Arguments_2.json")?;
/// assert_eq!((name.message.as_str(), name.field.as_str()), ("Request", "Arguments_2"));
/// let name = FileName::parse("1718000000123_ReadResource_Response_Private")?;
/// assert_eq!(name.extension, Extension::None);
///
/// let err = FileName::parse("notes.txt").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "not a protocol data file name: expected {UnixMilli}_{RPC}_{Message}_{Field}[.msgpack|.json|.empty], found \"notes.txt\"",
/// );
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct FileName {
    /// When the file was written, in milliseconds since the Unix epoch.
    pub unix_millis: u64,
    /// The RPC, e.g. `PlanResourceChange`.
    pub rpc: String,
    /// `Request`, `Response`, or a part of a response (`Response_ImportedResource`).
    pub message: String,
    /// The message's field, e.g. `PlannedState`, `PriorPrivate`, `Arguments_0`.
    pub field: String,
    /// The extension.
    pub extension: Extension,
}

/// A protocol data file's extension: what [`Payload::new`] reads the file's bytes as
/// (see [`Data`]).
///
/// ```
/// use ctywire::capture::{Extension, FileName};
///
/// let extension = |name: &str| FileName::parse(name).map(|n| n.extension);
/// assert_eq!(extension("1718000000100_ConfigureProvider_Request_Config.msgpack")?, Extension::Msgpack);
/// assert_eq!(extension("1718000000806_ReadResource_Response_NewState.json")?, Extension::Json);
/// assert_eq!(extension("1718000000400_PlanResourceChange_Request_PriorPrivate.empty")?, Extension::Empty);
/// assert_eq!(extension("1718000000412_PlanResourceChange_Response_PlannedPrivate")?, Extension::None);
/// assert!(extension("1718000000100_ConfigureProvider_Request_Config.txt").is_err());
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extension {
    /// `.msgpack`: a value in MessagePack.
    Msgpack,
    /// `.json`: a value in JSON.
    Json,
    /// `.empty`: a value that is absent or empty (null), or empty private data.
    Empty,
    /// None: private data, as its bytes.
    None,
}

impl FileName {
    /// Parses a file name (without its directory). The RPC is the part after the time
    /// up to the next `_`; the field is the last part, with the one before it when the
    /// last is a number (`Arguments_0`); the message is what lies between, and starts
    /// with `Request` or `Response`.
    pub fn parse(name: &str) -> Result<FileName> {
        let invalid = || {
            Error::new(
                ErrorKind::InvalidValue,
                format!(
                    "not a protocol data file name: expected \
                     {{UnixMilli}}_{{RPC}}_{{Message}}_{{Field}}[.msgpack|.json|.empty], found {name:?}"
                ),
            )
        };
        let (stem, extension) = match name.rsplit_once('.') {
            Some((stem, "msgpack")) => (stem, Extension::Msgpack),
            Some((stem, "json")) => (stem, Extension::Json),
            Some((stem, "empty")) => (stem, Extension::Empty),
            Some(_) => return Err(invalid()),
            None => (name, Extension::None),
        };
        let parts: Vec<&str> = stem.split('_').collect();
        let [millis, rpc, rest @ ..] = parts.as_slice() else {
            return Err(invalid());
        };
        let unix_millis = millis.parse::<u64>().map_err(|_| invalid())?;
        let field_parts = match rest {
            [.., name, number]
                if number.bytes().all(|b| b.is_ascii_digit()) && !name.is_empty() =>
            {
                2
            }
            _ => 1,
        };
        if rest.len() <= field_parts
            || rpc.is_empty()
            || !rpc.bytes().all(|b| b.is_ascii_alphanumeric())
        {
            return Err(invalid());
        }
        let (message, field) = rest.split_at(rest.len() - field_parts);
        if !matches!(message[0], "Request" | "Response") || field.iter().any(|p| p.is_empty()) {
            return Err(invalid());
        }
        Ok(FileName {
            unix_millis,
            rpc: (*rpc).to_owned(),
            message: message.join("_"),
            field: field.join("_"),
            extension,
        })
    }

    /// Whether the file belongs to a request.
    pub fn is_request(&self) -> bool {
        self.message == "Request"
    }

    /// Whether the field holds private data (`Private`, `PriorPrivate`,
    /// `PlannedPrivate`): provider-owned bytes, not a value.
    pub fn is_private(&self) -> bool {
        self.field.ends_with("Private")
    }
}

/// What a protocol data file holds: [`Payload::data`], as the file's
/// [extension](Extension) says.
///
/// ```
/// use ctywire::capture::{Data, Payload};
///
/// let value = Payload::new("1718000000806_ReadResource_Response_NewState.json".to_owned(), br#"{"id":"i-0abc"}"#.to_vec())?;
/// assert_eq!(value.data, Data::Json(br#"{"id":"i-0abc"}"#.to_vec()));
/// let null = Payload::new("1718000000400_PlanResourceChange_Request_PriorState.empty".to_owned(), vec![])?;
/// assert_eq!(null.data, Data::Empty);
/// // SDKv2's private data: the provider's own bytes, not a value.
/// let private = Payload::new("1718000000806_ReadResource_Response_Private".to_owned(), br#"{"schema_version":"1"}"#.to_vec())?;
/// assert!(matches!(&private.data, Data::Private(bytes) if bytes.starts_with(b"{")));
/// assert!(!private.is_value());
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Data {
    /// A value in MessagePack.
    Msgpack(Vec<u8>),
    /// A value in JSON.
    Json(Vec<u8>),
    /// No value (null), or no private data.
    Empty,
    /// Private data, as its bytes.
    Private(Vec<u8>),
}

/// One file of a call: its name, taken apart, and what it holds.
///
/// Decode a value with the type its subject's schema implies (a [`Resolver`] finds the
/// subject, [`Subject::type_of`] the type), or with the type its bytes imply when there
/// is no schema.
///
/// ```
/// use ctywire::capture::Payload;
/// use ctywire::schema::ProviderSchemas;
///
/// let bytes = include_bytes!("../examples/payloads/cloud_bucket.config.msgpack");
/// let payload = Payload::new(
///     "1718000000210_ValidateResourceConfig_Request_Config.msgpack".to_owned(),
///     bytes.to_vec(),
/// )?;
/// assert_eq!((payload.name.rpc.as_str(), payload.name.field.as_str()), ("ValidateResourceConfig", "Config"));
/// assert!(payload.is_value());
///
/// let schemas = ProviderSchemas::from_json(include_bytes!("../examples/schema/provider.json"))?;
/// let config = payload.decode(&schemas.resource("cloud_bucket")?.implied_type())?;
/// assert!(config["id"].is_null());
///
/// // Without a schema, the type the bytes imply says less: a null is of any type, an
/// // empty list of blocks an empty tuple.
/// let implied = payload.implied_type()?;
/// assert_eq!(implied.to_expr(), "object({force_destroy=any,id=any,lifecycle_rule=tuple([]),name=string})");
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Payload {
    /// The file's name.
    pub file: String,
    /// The name taken apart.
    pub name: FileName,
    /// What it holds.
    pub data: Data,
}

impl Payload {
    /// Reads a file's bytes as its name says: a value, nothing, or private data. An
    /// `.empty` file that is not empty is an error.
    pub fn new(file: String, bytes: Vec<u8>) -> Result<Payload> {
        let name = FileName::parse(&file)?;
        let data = match name.extension {
            Extension::Msgpack => Data::Msgpack(bytes),
            Extension::Json => Data::Json(bytes),
            Extension::Empty if bytes.is_empty() => Data::Empty,
            Extension::Empty => {
                return Err(Error::new(
                    ErrorKind::InvalidValue,
                    format!("expected an empty file, found {} bytes", bytes.len()),
                ))
            }
            Extension::None => Data::Private(bytes),
        };
        Ok(Payload { file, name, data })
    }

    /// Whether the payload is a value (rather than private data).
    pub fn is_value(&self) -> bool {
        !self.name.is_private()
    }

    /// Decodes the value with type `ty`: MessagePack or JSON as the extension says;
    /// null for an `.empty` file. Private data is not a value: an error.
    pub fn decode(&self, ty: &Type) -> Result<Value> {
        match &self.data {
            _ if !self.is_value() => Err(not_a_value()),
            Data::Msgpack(bytes) => msgpack::decode(bytes, ty),
            Data::Json(bytes) => json::decode(bytes, ty),
            Data::Empty => Ok(Value::Null),
            Data::Private(_) => Err(not_a_value()),
        }
    }

    /// The type the value's bytes imply, for a value no schema types: go-cty's rules,
    /// with the wrappers of `dynamic` values read as such
    /// ([`msgpack::implied_type_reading_wrappers`]); `dynamic` for an `.empty` file.
    pub fn implied_type(&self) -> Result<Type> {
        match &self.data {
            _ if !self.is_value() => Err(not_a_value()),
            Data::Msgpack(bytes) => msgpack::implied_type_reading_wrappers(bytes).map(|(t, _)| t),
            Data::Json(bytes) => json::implied_type_reading_wrappers(bytes).map(|(t, _)| t),
            Data::Empty => Ok(Type::Dynamic),
            Data::Private(_) => Err(not_a_value()),
        }
    }
}

fn not_a_value() -> Error {
    Error::new(ErrorKind::TypeMismatch, "private data is not a value")
}

/// One RPC call: the files of its request and its response, and how sure the grouping
/// is of them ([`Status`]).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Call {
    /// The RPC, e.g. `ApplyResourceChange`.
    pub rpc: String,
    /// The files, request first, in time order.
    pub payloads: Vec<Payload>,
    /// Whether the files are one whole call, or what else they could be.
    pub status: Status,
}

/// How sure the grouping is of a [`Call`] (see the [module documentation](self#calls)).
///
/// ```
/// use ctywire::capture::{Capture, Status};
///
/// let capture = Capture::from_files([
///     ("1718000000800_ReadResource_Request_CurrentState.json".to_owned(), br#"{"id":"a"}"#.to_vec()),
///     ("1718000000800_ReadResource_Request_Private".to_owned(), b"p".to_vec()),
///     ("1718000000806_ReadResource_Response_NewState.json".to_owned(), br#"{"id":"a"}"#.to_vec()),
///     // A response whose request is not in the directory.
///     ("1718000000700_PlanResourceChange_Response_PlannedState.json".to_owned(), br#"{"id":"b"}"#.to_vec()),
///     ("1718000000701_PlanResourceChange_Request_Config.json".to_owned(), br#"{"id":"c"}"#.to_vec()),
/// ]);
/// let statuses: Vec<String> = capture.calls.iter().map(|c| format!("{} {}", c.rpc, c.status)).collect();
/// assert_eq!(statuses, [
///     "PlanResourceChange incomplete: no Request Config (no request in the directory fits this response)",
///     "PlanResourceChange incomplete: no Response PlannedState (no response in the directory fits this request)",
///     "ReadResource complete",
/// ]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Status {
    /// Every file of the RPC's request and response, and by everything the directory
    /// holds, one call's.
    Complete,
    /// A request (or response) that more than one response (or request) fits: the call
    /// holds the one message, `candidates` the files of each that could complete it.
    Ambiguous {
        /// The file names of each fitting message.
        candidates: Vec<Vec<String>>,
    },
    /// Files that are no whole call: `missing` names the files it lacks (`Response
    /// PlannedState`), `reason` says why it is not complete.
    Incomplete {
        /// The message and field of each file it lacks.
        missing: Vec<String>,
        /// Why the files are no whole call.
        reason: String,
    },
}

impl fmt::Display for Status {
    /// `complete`, `ambiguous: 2 candidates`, `incomplete: no Response NewState (why)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Complete => write!(f, "complete"),
            Status::Ambiguous { candidates } => {
                write!(f, "ambiguous: {} candidates", candidates.len())
            }
            Status::Incomplete { missing, reason } if missing.is_empty() => {
                write!(f, "incomplete: {reason}")
            }
            Status::Incomplete { missing, reason } => {
                write!(f, "incomplete: no {} ({reason})", missing.join(", "))
            }
        }
    }
}

impl Call {
    /// Whether the call is [`Status::Complete`].
    pub fn is_complete(&self) -> bool {
        self.status == Status::Complete
    }

    /// The file of `message`'s `field`, e.g. `("Response", "PlannedState")`.
    pub fn payload(&self, message: &str, field: &str) -> Option<&Payload> {
        self.payloads
            .iter()
            .find(|p| p.name.message == message && p.name.field == field)
    }

    /// When the call began: its first file's time.
    pub fn unix_millis(&self) -> u64 {
        self.payloads.first().map_or(0, |p| p.name.unix_millis)
    }

    /// The two values a diff of the call shows, before and after: a plan's prior and
    /// planned states (`PlanResourceChange`), an apply's planned and new states
    /// (`ApplyResourceChange`), a refresh's current and new states (`ReadResource`).
    /// `None` for other RPCs, or when either file is missing.
    pub fn change(&self) -> Option<(&Payload, &Payload)> {
        let [(before_message, before), (after_message, after)] = self.change_fields()?;
        Some((
            self.payload(before_message, before)?,
            self.payload(after_message, after)?,
        ))
    }

    /// The message and field of the two files [`change`](Self::change) gives, before
    /// and after, whether or not the call has them: `[("Request", "PriorState"),
    /// ("Response", "PlannedState")]` for `PlanResourceChange`; `None` for an RPC that
    /// changes no state.
    ///
    /// ```
    /// use ctywire::capture::Capture;
    ///
    /// let capture = Capture::from_files([
    ///     ("1718000000500_ApplyResourceChange_Request_PlannedState.empty".to_owned(), vec![]),
    /// ]);
    /// let call = &capture.calls[0];
    /// assert_eq!(call.change_fields(), Some([("Request", "PlannedState"), ("Response", "NewState")]));
    /// assert!(call.change().is_none()); // no response yet
    /// ```
    pub fn change_fields(&self) -> Option<[(&'static str, &'static str); 2]> {
        let (before, after) = match self.rpc.as_str() {
            "PlanResourceChange" => ("PriorState", "PlannedState"),
            "ApplyResourceChange" => ("PlannedState", "NewState"),
            "ReadResource" => ("CurrentState", "NewState"),
            _ => return None,
        };
        Some([("Request", before), ("Response", after)])
    }
}

/// A file of a capture directory that could not be read or is not a protocol data
/// file; the others are read all the same.
///
/// ```
/// use ctywire::capture::Capture;
///
/// let capture = Capture::from_files([
///     ("1718000000800_ReadResource_Request_CurrentState.json".to_owned(), br#"{"id":"i-0abc"}"#.to_vec()),
///     ("1718000000800_ReadResource_Request_Private.empty".to_owned(), b"{}".to_vec()),
///     ("README.md".to_owned(), b"# captured on Monday".to_vec()),
/// ]);
/// assert_eq!(capture.calls[0].payloads.len(), 1);
/// let problems: Vec<String> = capture.problems.iter().map(|p| format!("{}: {}", p.file, p.error)).collect();
/// assert_eq!(problems, [
///     "1718000000800_ReadResource_Request_Private.empty: expected an empty file, found 2 bytes",
///     "README.md: not a protocol data file name: expected {UnixMilli}_{RPC}_{Message}_{Field}[.msgpack|.json|.empty], found \"README.md\"",
/// ]);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Problem {
    /// The file's name.
    pub file: String,
    /// What is wrong.
    pub error: Error,
}

/// The calls of a capture directory, and the files that are not part of one.
///
/// ```
/// use ctywire::capture::Capture;
///
/// // A capture directory, as a provider writes it when TF_LOG_SDK_PROTO_DATA_DIR names it.
/// let dir = std::env::temp_dir().join(format!("ctywire-doc-capture-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let files: [(&str, &[u8]); 5] = [
///     ("1718000000100_ConfigureProvider_Request_Config.msgpack",
///      include_bytes!("../examples/payloads/provider.config.msgpack")),
///     ("1718000000300_ReadDataSource_Request_Config.msgpack",
///      include_bytes!("../examples/payloads/cloud_image.config.msgpack")),
///     ("1718000000300_ReadDataSource_Request_ProviderMeta.empty", b""),
///     ("1718000000304_ReadDataSource_Response_State.msgpack",
///      include_bytes!("../examples/payloads/cloud_image.config.msgpack")),
///     ("terraform.log", b"2024-06-10T08:00:00Z [INFO] plan"),
/// ];
/// for (name, bytes) in files {
///     std::fs::write(dir.join(name), bytes)?;
/// }
/// let capture = Capture::read_dir(&dir);
/// std::fs::remove_dir_all(&dir)?;
/// let capture = capture?;
///
/// let calls: Vec<(&str, usize)> = capture.calls.iter().map(|c| (c.rpc.as_str(), c.payloads.len())).collect();
/// assert_eq!(calls, [("ConfigureProvider", 1), ("ReadDataSource", 3)]);
/// let read = &capture.calls[1];
/// assert!(read.payload("Response", "State").is_some());
/// assert_eq!(capture.problems[0].file, "terraform.log");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Capture {
    /// The calls, in the order they began.
    pub calls: Vec<Call>,
    /// Files that could not be read, or are not protocol data files.
    pub problems: Vec<Problem>,
}

impl Capture {
    /// Reads every file of directory `dir` (subdirectories are problems, not read).
    /// Fails only when the directory itself cannot be listed.
    pub fn read_dir(dir: &FsPath) -> std::io::Result<Capture> {
        Capture::read(dir, None)
    }

    fn read(dir: &FsPath, resolver: Option<&mut Resolver<'_>>) -> std::io::Result<Capture> {
        let mut files = Vec::new();
        let mut problems = Vec::new();
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let file = entry.file_name().to_string_lossy().into_owned();
            let read = if entry.path().is_dir() {
                Err("a directory, not a file".to_owned())
            } else {
                std::fs::read(entry.path()).map_err(|e| e.to_string())
            };
            match read {
                Ok(bytes) => files.push((file, bytes)),
                Err(e) => problems.push(Problem {
                    file,
                    error: Error::new(ErrorKind::InvalidValue, e),
                }),
            }
        }
        let mut capture = Capture::group(files, resolver);
        capture.problems.extend(problems);
        capture.problems.sort_by(|a, b| a.file.cmp(&b.file));
        Ok(capture)
    }

    /// Groups named files into calls by their names alone (see the [module
    /// documentation](self#calls)); files whose names are not protocol data file names
    /// become problems.
    pub fn from_files(files: impl IntoIterator<Item = (String, Vec<u8>)>) -> Capture {
        Capture::group(files, None)
    }

    /// Groups named files into calls by their names and by their values under
    /// `schemas`: values one schema types, and Terraform's rules for plans and applies.
    pub fn from_files_with_schemas(
        files: impl IntoIterator<Item = (String, Vec<u8>)>,
        schemas: &ProviderSchemas,
    ) -> Capture {
        Capture::group(files, Some(&mut Resolver::new(schemas)))
    }

    /// [`read_dir`](Capture::read_dir), grouping as
    /// [`from_files_with_schemas`](Capture::from_files_with_schemas) does.
    pub fn read_dir_with_schemas(
        dir: &FsPath,
        schemas: &ProviderSchemas,
    ) -> std::io::Result<Capture> {
        Capture::read(dir, Some(&mut Resolver::new(schemas)))
    }

    fn group(
        files: impl IntoIterator<Item = (String, Vec<u8>)>,
        mut resolver: Option<&mut Resolver<'_>>,
    ) -> Capture {
        let mut capture = Capture::default();
        let mut by_rpc: BTreeMap<String, Vec<Payload>> = BTreeMap::new();
        for (file, bytes) in files {
            match Payload::new(file.clone(), bytes) {
                Ok(p) => by_rpc.entry(p.name.rpc.clone()).or_default().push(p),
                Err(error) => capture.problems.push(Problem { file, error }),
            }
        }
        for (rpc, mut payloads) in by_rpc {
            payloads.sort_by(|a, b| {
                let key = |p: &Payload| (p.name.unix_millis, !p.name.is_request(), p.file.clone());
                key(a).cmp(&key(b))
            });
            capture
                .calls
                .extend(pairing::calls(&rpc, payloads, resolver.as_deref_mut()));
        }
        capture.calls.sort_by(|a, b| {
            let key = |c: &Call| {
                (
                    c.unix_millis(),
                    c.rpc.clone(),
                    c.payloads.first().map(|p| p.file.clone()),
                )
            };
            key(a).cmp(&key(b))
        });
        capture
    }

    /// How many calls there are, and how many of each [`Status`].
    pub fn summary(&self) -> Summary {
        let mut summary = Summary {
            calls: self.calls.len(),
            ..Summary::default()
        };
        for call in &self.calls {
            match call.status {
                Status::Complete => summary.complete += 1,
                Status::Ambiguous { .. } => summary.ambiguous += 1,
                Status::Incomplete { .. } => summary.incomplete += 1,
            }
        }
        summary
    }
}

/// How many calls a [`Capture`] holds, and how many of each [`Status`]
/// ([`Capture::summary`]).
///
/// ```
/// use ctywire::capture::Capture;
///
/// let capture = Capture::from_files([
///     ("1718000000100_ConfigureProvider_Request_Config.msgpack".to_owned(), vec![0x80]),
/// ]);
/// assert_eq!(capture.summary().to_string(), "1 call: 1 complete, 0 ambiguous, 0 incomplete");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Summary {
    /// Calls in all.
    pub calls: usize,
    /// Calls [`Status::Complete`].
    pub complete: usize,
    /// Calls [`Status::Ambiguous`].
    pub ambiguous: usize,
    /// Calls [`Status::Incomplete`].
    pub incomplete: usize,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} call{}: {} complete, {} ambiguous, {} incomplete",
            self.calls,
            if self.calls == 1 { "" } else { "s" },
            self.complete,
            self.ambiguous,
            self.incomplete
        )
    }
}

/// What types the values of a call: a schema of the provider's schemas, as
/// [`Resolver::resolve`] finds it.
///
/// ```
/// use ctywire::capture::{Capture, Resolved, Resolver, Subject};
/// use ctywire::schema::{ProviderSchemas, SchemaKind};
/// use ctywire::{msgpack, Type, Value};
///
/// let schemas = ProviderSchemas::from_json(include_bytes!("../examples/schema/provider.json"))?;
/// let image = include_bytes!("../examples/payloads/cloud_image.config.msgpack").to_vec();
/// let arn = Value::from("arn:cloud:instance/eu-west-1/123456789012/i-0abc");
/// let capture = Capture::from_files([
///     ("1718000000300_ReadDataSource_Request_Config.msgpack".to_owned(), image.clone()),
///     ("1718000000300_ReadDataSource_Request_ProviderMeta.empty".to_owned(), vec![]),
///     ("1718000000304_ReadDataSource_Response_State.msgpack".to_owned(), image),
///     ("1718000000900_CallFunction_Request_Arguments_0.msgpack".to_owned(), msgpack::encode(&arn, &Type::String)?),
/// ]);
/// let (read, call_function) = (&capture.calls[0], &capture.calls[1]);
/// let mut resolver = Resolver::new(&schemas);
///
/// let Resolved::Found(data_source) = resolver.resolve(read) else { panic!("one data source") };
/// assert!(matches!(data_source, Subject::Schema { kind: SchemaKind::DataSource, name: "cloud_image", .. }));
/// assert_eq!(data_source.to_string(), "data source cloud_image");
/// assert_eq!(data_source.provider(), "registry.terraform.io/example/cloud");
/// let state = read.payload("Response", "State").unwrap();
/// let ty = data_source.type_of(state).unwrap();
/// assert_eq!(ty, data_source.block_schema().unwrap().implied_type());
/// assert_eq!(state.decode(&ty)?["most_recent"].as_bool(), Some(true));
/// // The schemas hold no `provider_meta` schema.
/// assert_eq!(data_source.type_of(read.payload("Request", "ProviderMeta").unwrap()), None);
///
/// // A function's payloads are typed by its parameters and its return type.
/// let Resolved::Found(function) = resolver.resolve(call_function) else { panic!("one function") };
/// assert_eq!(function.to_string(), "function parse_arn");
/// assert_eq!(function.type_of(&call_function.payloads[0]), Some(Type::String));
/// assert!(function.block_schema().is_none());
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub enum Subject<'s> {
    /// A provider's own configuration (`ConfigureProvider`, which tfplugin5 captures name
    /// `Configure`, `ValidateProviderConfig`, `PrepareProviderConfig`).
    Provider {
        /// The provider's address.
        provider: &'s str,
        /// Its configuration schema.
        schema: &'s Schema,
    },
    /// A resource type, data source, ephemeral or list resource type, action or state
    /// store.
    Schema {
        /// Which section of the schemas.
        kind: SchemaKind,
        /// Its name.
        name: &'s str,
        /// The provider's address.
        provider: &'s str,
        /// The schema.
        schema: &'s Schema,
    },
    /// A resource type's identity (`UpgradeResourceIdentity`).
    Identity {
        /// The resource type's name.
        name: &'s str,
        /// The provider's address.
        provider: &'s str,
        /// The identity schema.
        schema: &'s IdentitySchema,
    },
    /// A provider-defined function (`CallFunction`).
    Function {
        /// The function's name.
        name: &'s str,
        /// The provider's address.
        provider: &'s str,
        /// Its signature.
        function: &'s Function,
    },
}

impl<'s> Subject<'s> {
    /// The type of a payload of a call about this subject: the schema's implied type,
    /// a function parameter's or its return type. `None` for private data and for
    /// `ProviderMeta` (the provider's `provider_meta` schema, which the schemas do not
    /// hold).
    pub fn type_of(&self, payload: &Payload) -> Option<Type> {
        let field = payload.name.field.as_str();
        if !payload.is_value() || field == "ProviderMeta" {
            return None;
        }
        match self {
            Subject::Function { function, .. } => match field.strip_prefix("Arguments_") {
                Some(i) => function.argument_type(i.parse().ok()?).cloned(),
                None => Some(function.return_type.clone()),
            },
            _ => self.schema_type(),
        }
    }

    /// The implied type of the subject's schema; `None` for a function, whose types
    /// depend on the field.
    fn schema_type(&self) -> Option<Type> {
        match self {
            Subject::Provider { schema, .. } | Subject::Schema { schema, .. } => {
                Some(schema.implied_type())
            }
            Subject::Identity { schema, .. } => Some(schema.implied_type()),
            Subject::Function { .. } => None,
        }
    }

    /// The schema block whose values the payloads are (for rendering them as blocks),
    /// where there is one.
    pub fn block_schema(&self) -> Option<&'s Schema> {
        match self {
            Subject::Provider { schema, .. } | Subject::Schema { schema, .. } => Some(schema),
            _ => None,
        }
    }

    /// The provider's address.
    pub fn provider(&self) -> &'s str {
        match self {
            Subject::Provider { provider, .. }
            | Subject::Schema { provider, .. }
            | Subject::Identity { provider, .. }
            | Subject::Function { provider, .. } => provider,
        }
    }
}

impl fmt::Display for Subject<'_> {
    /// `resource type cloud_instance`, `provider registry.terraform.io/example/cloud`,
    /// `function parse_arn`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Provider { provider, .. } => write!(f, "provider {provider}"),
            Subject::Schema { kind, name, .. } => write!(f, "{} {name}", kind.noun()),
            Subject::Identity { name, .. } => write!(f, "resource identity {name}"),
            Subject::Function { name, .. } => write!(f, "function {name}"),
        }
    }
}

/// What [`Resolver::resolve`] found for a call.
///
/// ```
/// use ctywire::capture::{Capture, Resolved, Resolver};
/// use ctywire::schema::ProviderSchemas;
///
/// let schemas = ProviderSchemas::from_json(include_bytes!("../examples/schema/provider.json"))?;
/// let capture = Capture::from_files([
///     ("1718000000200_ValidateResourceConfig_Request_Config.msgpack".to_owned(),
///      include_bytes!("../examples/payloads/cloud_bucket.config.msgpack").to_vec()),
///     // Null: a state of any resource type.
///     ("1718000000300_ReadResource_Request_CurrentState.msgpack".to_owned(), vec![0xc0]),
///     ("1718000000400_ReadDataSource_Request_Config.json".to_owned(), br#"{"name":"debian"}"#.to_vec()),
///     ("1718000000500_CloseEphemeralResource_Request_Private".to_owned(), b"lease-42".to_vec()),
/// ]);
/// let mut resolver = Resolver::new(&schemas);
/// let outcomes: Vec<String> = capture.calls.iter().map(|call| match resolver.resolve(call) {
///     Resolved::Found(subject) => format!("{}: {subject}", call.rpc),
///     Resolved::Ambiguous(all) => format!("{}: any of {} schemas", call.rpc, all.len()),
///     Resolved::NotFound(why) => format!("{}: {why}", call.rpc),
///     Resolved::Untyped => format!("{}: no typed values", call.rpc),
/// }).collect();
/// assert_eq!(outcomes, [
///     "ValidateResourceConfig: resource type cloud_bucket",
///     "ReadResource: any of 2 schemas",
///     "ReadDataSource: no data source of the schemas decodes every value of the call; \
///      data source cloud_image comes nearest, but \
///      1718000000400_ReadDataSource_Request_Config.json: .name: unsupported attribute",
///     "CloseEphemeralResource: no typed values",
/// ]);
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug)]
pub enum Resolved<'s> {
    /// The one subject whose types decode every value of the call.
    Found(Subject<'s>),
    /// Several subjects decode every value (e.g. a call whose values are all null).
    Ambiguous(Vec<Subject<'s>>),
    /// None does; the message says what was tried and, for the subject that decoded
    /// the most values, the first error.
    NotFound(String),
    /// The RPC carries no values a schema types (e.g. `CloseEphemeralResource`), or it
    /// is not an RPC this crate knows.
    Untyped,
}

/// What section of the schemas types an RPC's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Section {
    Provider,
    Schemas(SchemaKind),
    Identities,
    Functions,
}

impl Section {
    /// The section an RPC's values belong to.
    fn of(rpc: &str) -> Option<Section> {
        Some(match rpc {
            "ValidateResourceConfig"
            | "ValidateResourceTypeConfig"
            | "ReadResource"
            | "PlanResourceChange"
            | "ApplyResourceChange"
            | "ImportResourceState"
            | "UpgradeResourceState"
            | "MoveResourceState"
            | "GenerateResourceConfig" => Section::Schemas(SchemaKind::Resource),
            "ValidateDataResourceConfig" | "ValidateDataSourceConfig" | "ReadDataSource" => {
                Section::Schemas(SchemaKind::DataSource)
            }
            "ValidateEphemeralResourceConfig" | "OpenEphemeralResource" => {
                Section::Schemas(SchemaKind::EphemeralResource)
            }
            "ValidateListResourceConfig" | "ListResource" => {
                Section::Schemas(SchemaKind::ListResource)
            }
            "ValidateActionConfig" | "PlanAction" | "InvokeAction" => {
                Section::Schemas(SchemaKind::Action)
            }
            "ValidateStateStoreConfig" | "ConfigureStateStore" => {
                Section::Schemas(SchemaKind::StateStore)
            }
            // terraform-plugin-go's tf5server logs tfplugin5's ConfigureProvider as `Configure`.
            "ConfigureProvider"
            | "Configure"
            | "ValidateProviderConfig"
            | "PrepareProviderConfig" => Section::Provider,
            "UpgradeResourceIdentity" => Section::Identities,
            "CallFunction" => Section::Functions,
            _ => return None,
        })
    }

    /// Every subject of this section in `schemas`.
    fn subjects(self, schemas: &ProviderSchemas) -> Vec<Subject<'_>> {
        let mut out = Vec::new();
        for (provider, p) in &schemas.providers {
            match self {
                Section::Provider => out.push(Subject::Provider {
                    provider,
                    schema: &p.provider,
                }),
                Section::Schemas(kind) => out.extend(kind.schemas(p).iter().map(
                    |(name, schema)| Subject::Schema {
                        kind,
                        name,
                        provider,
                        schema,
                    },
                )),
                Section::Identities => {
                    out.extend(p.resource_identity_schemas.iter().map(|(name, schema)| {
                        Subject::Identity {
                            name,
                            provider,
                            schema,
                        }
                    }))
                }
                Section::Functions => {
                    out.extend(
                        p.functions
                            .iter()
                            .map(|(name, function)| Subject::Function {
                                name,
                                provider,
                                function,
                            }),
                    )
                }
            }
        }
        out
    }
}

/// Finds the schema that types each call's values, among the provider's schemas.
///
/// The implied types of every schema of a section are worked out once, the first time
/// a call needs them: keep one resolver for a whole capture.
///
/// ```
/// use ctywire::capture::{Capture, Resolved, Resolver};
/// use ctywire::schema::ProviderSchemas;
///
/// let schemas = ProviderSchemas::from_json(include_bytes!("../examples/schema/provider.json"))?;
/// let image = include_bytes!("../examples/payloads/cloud_image.config.msgpack");
/// let capture = Capture::from_files([
///     ("1718000000100_ConfigureProvider_Request_Config.msgpack".to_owned(),
///      include_bytes!("../examples/payloads/provider.config.msgpack").to_vec()),
///     ("1718000000200_ValidateResourceConfig_Request_Config.msgpack".to_owned(),
///      include_bytes!("../examples/payloads/cloud_bucket.config.msgpack").to_vec()),
///     ("1718000000300_ReadDataSource_Request_Config.msgpack".to_owned(), image.to_vec()),
///     ("1718000000300_ReadDataSource_Request_ProviderMeta.empty".to_owned(), vec![]),
///     ("1718000000304_ReadDataSource_Response_State.msgpack".to_owned(), image.to_vec()),
/// ]);
///
/// // Decode every value of every call with the type its schema implies.
/// let mut resolver = Resolver::new(&schemas);
/// let mut decoded = Vec::new();
/// for call in &capture.calls {
///     let Resolved::Found(subject) = resolver.resolve(call) else { continue };
///     for payload in &call.payloads {
///         if let Some(ty) = subject.type_of(payload) {
///             decoded.push((subject.to_string(), payload.name.field.clone(), payload.decode(&ty)?));
///         }
///     }
/// }
/// let typed: Vec<(&str, &str)> = decoded.iter().map(|(s, f, _)| (s.as_str(), f.as_str())).collect();
/// assert_eq!(typed, [
///     ("provider registry.terraform.io/example/cloud", "Config"),
///     ("resource type cloud_bucket", "Config"),
///     ("data source cloud_image", "Config"),
///     ("data source cloud_image", "State"),
/// ]);
/// assert_eq!(decoded[0].2["region"].as_str(), Some("eu-west-1"));
/// # Ok::<(), ctywire::Error>(())
/// ```
pub struct Resolver<'s> {
    schemas: &'s ProviderSchemas,
    /// Each section's subjects with their implied types (`None` for functions, whose
    /// types depend on the field).
    sections: BTreeMap<Section, Vec<(Subject<'s>, Option<Type>)>>,
}

impl<'s> Resolver<'s> {
    /// A resolver over `schemas`.
    pub fn new(schemas: &'s ProviderSchemas) -> Resolver<'s> {
        Resolver {
            schemas,
            sections: BTreeMap::new(),
        }
    }

    /// The one subject (resource type, data source, ...) of the section the call's RPC
    /// belongs to whose types decode every value of the call; see [`Resolved`].
    pub fn resolve(&mut self, call: &Call) -> Resolved<'s> {
        let Some(section) = Section::of(&call.rpc) else {
            return Resolved::Untyped;
        };
        let typed: Vec<&Payload> = call
            .payloads
            .iter()
            .filter(|p| p.is_value() && p.name.field != "ProviderMeta")
            .collect();
        if typed.is_empty() {
            return Resolved::Untyped;
        }
        let schemas = self.schemas;
        let candidates = self.sections.entry(section).or_insert_with(|| {
            let subjects = section.subjects(schemas);
            subjects.into_iter().map(|s| (s, s.schema_type())).collect()
        });
        let mut found = Vec::new();
        // The candidate that decoded the most values before failing, and its error.
        let mut best: Option<(usize, Subject<'s>, &Payload, Error)> = None;
        for (subject, ty) in candidates.iter() {
            let mut decoded = 0;
            let mut failure = None;
            for p in &typed {
                let ty = match ty {
                    Some(ty) => Some(ty.clone()),
                    None => subject.type_of(p),
                };
                let result = match ty {
                    Some(ty) => p.decode(&ty).map(drop),
                    None => Err(Error::new(
                        ErrorKind::TypeMismatch,
                        format!("{subject} has no parameter for {}", p.name.field),
                    )),
                };
                match result {
                    Ok(()) => decoded += 1,
                    Err(e) => {
                        failure = Some((*p, e));
                        break;
                    }
                }
            }
            match failure {
                None => found.push(*subject),
                Some((p, e)) => {
                    if best.as_ref().is_none_or(|(n, ..)| decoded > *n) {
                        best = Some((decoded, *subject, p, e));
                    }
                }
            }
        }
        match found.len() {
            1 => Resolved::Found(found[0]),
            0 => {
                Resolved::NotFound(match best {
                    None => format!("the schemas define no {}", section_noun(section)),
                    Some((_, subject, p, e)) => {
                        format!(
                    "no {} of the schemas decodes every value of the call; {subject} comes \
                     nearest, but {}: {}{}",
                    section_noun(section),
                    p.file,
                    if e.path().is_empty() { String::new() } else { format!("{}: ", e.path()) },
                    e.message(),
                )
                    }
                })
            }
            _ => Resolved::Ambiguous(found),
        }
    }
}

/// What a section holds, in messages.
fn section_noun(section: Section) -> &'static str {
    match section {
        Section::Provider => "provider configuration",
        Section::Schemas(kind) => kind.noun(),
        Section::Identities => "resource identity schema",
        Section::Functions => "function",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str) -> (String, Vec<u8>) {
        let bytes = match name.rsplit_once('.') {
            Some((_, "msgpack")) => vec![0xc0],
            Some((_, "json")) => b"null".to_vec(),
            Some(_) => Vec::new(),
            None => b"{}".to_vec(),
        };
        (name.to_owned(), bytes)
    }

    /// The calls of a capture as `RPC [status]: file file ...` lines, each file by its
    /// time, message and field.
    fn grouped(names: &[&str]) -> Vec<String> {
        let capture = Capture::from_files(names.iter().map(|n| file(n)));
        assert!(capture.problems.is_empty(), "{:?}", capture.problems);
        capture
            .calls
            .iter()
            .map(|c| {
                let files: Vec<String> = c
                    .payloads
                    .iter()
                    .map(|p| {
                        format!(
                            "{}:{}.{}",
                            p.name.unix_millis % 1000,
                            p.name.message,
                            p.name.field
                        )
                    })
                    .collect();
                let status = match &c.status {
                    Status::Complete => "complete".to_owned(),
                    Status::Ambiguous { candidates } => format!("ambiguous {}", candidates.len()),
                    Status::Incomplete { missing, .. } => {
                        format!("incomplete [{}]", missing.join(", "))
                    }
                };
                format!("{} [{status}]: {}", c.rpc, files.join(" "))
            })
            .collect()
    }

    #[test]
    fn file_names() {
        let ok = |name: &str, millis, rpc: &str, message: &str, field: &str, ext| {
            let parsed = FileName::parse(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(
                parsed,
                FileName {
                    unix_millis: millis,
                    rpc: rpc.into(),
                    message: message.into(),
                    field: field.into(),
                    extension: ext,
                },
                "{name}"
            );
        };
        ok(
            "1_PlanResourceChange_Request_Config.msgpack",
            1,
            "PlanResourceChange",
            "Request",
            "Config",
            Extension::Msgpack,
        );
        ok(
            "17_ReadResource_Response_NewState.json",
            17,
            "ReadResource",
            "Response",
            "NewState",
            Extension::Json,
        );
        ok(
            "17_ReadResource_Request_ProviderMeta.empty",
            17,
            "ReadResource",
            "Request",
            "ProviderMeta",
            Extension::Empty,
        );
        ok(
            "17_ReadResource_Request_Private",
            17,
            "ReadResource",
            "Request",
            "Private",
            Extension::None,
        );
        ok(
            "17_ReadResource_Request_Private.empty",
            17,
            "ReadResource",
            "Request",
            "Private",
            Extension::Empty,
        );
        ok(
            "17_ImportResourceState_Response_ImportedResource_Private",
            17,
            "ImportResourceState",
            "Response_ImportedResource",
            "Private",
            Extension::None,
        );
        ok(
            "17_CallFunction_Request_Arguments_10.msgpack",
            17,
            "CallFunction",
            "Request",
            "Arguments_10",
            Extension::Msgpack,
        );
        ok(
            "17_UpgradeResourceIdentity_Response_UpgradedResourceIdentity.msgpack",
            17,
            "UpgradeResourceIdentity",
            "Response",
            "UpgradedResourceIdentity",
            Extension::Msgpack,
        );
        for bad in [
            "",
            "README.md",
            "x_PlanResourceChange_Request_Config.msgpack",
            "17_PlanResourceChange_Request.msgpack",
            "17_PlanResourceChange_Config.msgpack",
            "17_PlanResourceChange_Reply_Config.msgpack",
            "17__Request_Config.msgpack",
            "17_Plan-Resource_Request_Config.msgpack",
            "17_PlanResourceChange_Request_Config.txt",
            "17_PlanResourceChange_Request_.msgpack",
            "17_CallFunction_Request_0.msgpack",
            "-1_PlanResourceChange_Request_Config.msgpack",
        ] {
            assert!(FileName::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn files_become_payloads_as_their_names_say() {
        let p = Payload::new(
            "1_ReadResource_Request_Private".into(),
            b"{\"a\":1}".to_vec(),
        )
        .unwrap();
        assert!(!p.is_value());
        assert_eq!(p.data, Data::Private(b"{\"a\":1}".to_vec()));
        assert_eq!(
            p.decode(&Type::String).unwrap_err().to_string(),
            "private data is not a value"
        );
        let p = Payload::new("1_ReadResource_Request_Private.empty".into(), vec![]).unwrap();
        assert_eq!(p.data, Data::Empty);
        assert!(p.decode(&Type::String).is_err());
        let p = Payload::new("1_ReadResource_Request_CurrentState.empty".into(), vec![]).unwrap();
        assert!(p.decode(&Type::String).unwrap().is_null());
        assert_eq!(p.implied_type().unwrap(), Type::Dynamic);
        let err = Payload::new(
            "1_ReadResource_Request_CurrentState.empty".into(),
            vec![0xc0],
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "expected an empty file, found 1 bytes");
        let p = Payload::new(
            "1_ReadResource_Response_NewState.json".into(),
            br#"{"a":"x"}"#.to_vec(),
        )
        .unwrap();
        assert_eq!(p.implied_type().unwrap().to_expr(), "object({a=string})");
        assert_eq!(
            p.decode(&"map(string)".parse().unwrap()).unwrap()["a"].as_str(),
            Some("x")
        );
    }

    #[test]
    fn files_group_into_calls() {
        // Sequential calls, requests before responses in the same millisecond, private
        // data and empty values included; a response only the earlier request fits
        // answers it, and the later one is left the later response.
        assert_eq!(
            grouped(&[
                "100_PlanResourceChange_Request_Config.msgpack",
                "100_PlanResourceChange_Request_PriorState.msgpack",
                "100_PlanResourceChange_Request_PriorPrivate.empty",
                "101_PlanResourceChange_Response_PlannedState.msgpack",
                "101_PlanResourceChange_Response_PlannedPrivate",
                "103_PlanResourceChange_Request_Config.msgpack",
                "103_PlanResourceChange_Request_PriorState.msgpack",
                "103_PlanResourceChange_Request_PriorPrivate.empty",
                "105_PlanResourceChange_Response_PlannedState.msgpack",
                "105_PlanResourceChange_Response_PlannedPrivate",
                "104_ReadDataSource_Response_State.msgpack",
                "104_ReadDataSource_Request_Config.msgpack",
            ]),
            [
                "PlanResourceChange [complete]: 100:Request.Config 100:Request.PriorPrivate 100:Request.PriorState 101:Response.PlannedPrivate 101:Response.PlannedState",
                "PlanResourceChange [complete]: 103:Request.Config 103:Request.PriorPrivate 103:Request.PriorState 105:Response.PlannedPrivate 105:Response.PlannedState",
                "ReadDataSource [complete]: 104:Request.Config 104:Response.State",
            ]
        );
        // Two calls at once: either response may answer either request.
        assert_eq!(
            grouped(&[
                "200_ApplyResourceChange_Request_Config.msgpack",
                "201_ApplyResourceChange_Request_Config.msgpack",
                "202_ApplyResourceChange_Response_NewState.msgpack",
                "203_ApplyResourceChange_Response_NewState.msgpack",
            ]),
            [
                "ApplyResourceChange [ambiguous 2]: 200:Request.Config",
                "ApplyResourceChange [ambiguous 2]: 201:Request.Config",
                "ApplyResourceChange [ambiguous 2]: 202:Response.NewState",
                "ApplyResourceChange [ambiguous 2]: 203:Response.NewState",
            ]
        );
        // A message written across a millisecond's end is joined; a message lacking a
        // field is incomplete, and may be the start of any call: the response after both
        // requests may answer either.
        assert_eq!(
            grouped(&[
                "300_ReadResource_Request_CurrentState.msgpack",
                "301_ReadResource_Request_Private",
                "302_ReadResource_Response_NewState.msgpack",
                "302_ReadResource_Response_Private",
                "400_ReadResource_Request_CurrentState.msgpack",
                "400_ReadResource_Request_Private",
                "401_ReadResource_Request_CurrentState.msgpack",
                "402_ReadResource_Response_NewState.msgpack",
                "402_ReadResource_Response_Private",
            ]),
            [
                "ReadResource [complete]: 300:Request.CurrentState 301:Request.Private 302:Response.NewState 302:Response.Private",
                "ReadResource [incomplete [Response NewState, Response Private]]: 400:Request.CurrentState 400:Request.Private",
                "ReadResource [incomplete [Request Private, Response NewState, Response Private]]: 401:Request.CurrentState",
                "ReadResource [ambiguous 2]: 402:Response.NewState 402:Response.Private",
            ]
        );
        // Parts of a response repeat; a response that no request fits is incomplete.
        assert_eq!(
            grouped(&[
                "300_ImportResourceState_Response_ImportedResource_State.msgpack",
                "300_ImportResourceState_Response_ImportedResource_Private",
                "300_ImportResourceState_Response_ImportedResource_State.msgpack",
                "301_CallFunction_Request_Arguments_0.msgpack",
                "301_CallFunction_Request_Arguments_1.msgpack",
                "302_CallFunction_Response_Result.msgpack",
                "299_CallFunction_Response_Result.msgpack",
            ]),
            [
                "CallFunction [incomplete [Request]]: 299:Response.Result",
                "ImportResourceState [complete]: 300:Response_ImportedResource.Private 300:Response_ImportedResource.State 300:Response_ImportedResource.State",
                "CallFunction [complete]: 301:Request.Arguments_0 301:Request.Arguments_1 302:Response.Result",
            ]
        );
    }

    #[test]
    fn resolving_calls() {
        use crate::schema::{Attribute, Block, ProviderSchema};
        let schema = |attribute: &str| Schema {
            version: 0,
            block: Block::new().attribute(attribute, Attribute::new(Type::String).optional()),
        };
        let mut schemas = ProviderSchemas::default();
        for (address, resource) in [("a/x", "x_thing"), ("b/y", "y_thing")] {
            let mut p = ProviderSchema::default();
            p.resource_schemas.insert(resource.into(), schema("name"));
            p.data_source_schemas
                .insert(resource.into(), schema(resource));
            schemas.providers.insert(address.into(), p);
        }
        let mut resolver = Resolver::new(&schemas);
        let call = |files: &[(&str, &[u8])]| {
            let capture =
                Capture::from_files(files.iter().map(|(n, b)| (n.to_string(), b.to_vec())));
            assert!(capture.problems.is_empty());
            capture.calls.into_iter().next().unwrap()
        };
        let describe = |r: Resolved<'_>| match r {
            Resolved::Found(s) => format!("found {s} of {}", s.provider()),
            Resolved::Ambiguous(all) => format!(
                "ambiguous: {}",
                all.iter()
                    .map(|s| format!("{s} of {}", s.provider()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Resolved::NotFound(why) => format!("not found: {why}"),
            Resolved::Untyped => "untyped".to_owned(),
        };
        // The same type in two providers: ambiguous.
        let both = call(&[(
            "1_ReadResource_Request_CurrentState.json",
            br#"{"name":"n"}"#,
        )]);
        assert_eq!(
            describe(resolver.resolve(&both)),
            "ambiguous: resource type x_thing of a/x, resource type y_thing of b/y"
        );
        let one = call(&[(
            "1_ReadDataSource_Request_Config.json",
            br#"{"y_thing":"n"}"#,
        )]);
        assert_eq!(
            describe(resolver.resolve(&one)),
            "found data source y_thing of b/y"
        );
        let none = call(&[("1_ReadDataSource_Request_Config.json", br#"{"z":"n"}"#)]);
        assert_eq!(
            describe(resolver.resolve(&none)),
            "not found: no data source of the schemas decodes every value of the call; data source x_thing comes nearest, but 1_ReadDataSource_Request_Config.json: .z: unsupported attribute"
        );
        // Private data only, ProviderMeta only, an RPC this crate does not know.
        for files in [
            &[("1_CloseEphemeralResource_Request_Private", &b"x"[..])][..],
            &[("1_ReadResource_Request_ProviderMeta.empty", &b""[..])],
            &[("1_SomeFutureRpc_Request_Config.json", &b"{}"[..])],
        ] {
            assert_eq!(describe(resolver.resolve(&call(files))), "untyped");
        }
        // Functions are typed by parameter and return type; no function, none found.
        let f = call(&[("1_CallFunction_Request_Arguments_0.json", b"1")]);
        assert_eq!(
            describe(resolver.resolve(&f)),
            "not found: the schemas define no function"
        );
        assert!(f.change().is_none());
    }

    #[test]
    fn bad_names_are_problems_and_the_rest_is_read() {
        let capture = Capture::from_files([
            file("1_ReadResource_Request_CurrentState.msgpack"),
            ("notes.txt".to_owned(), b"hello".to_vec()),
            (
                "2_ReadResource_Request_Private.empty".to_owned(),
                b"x".to_vec(),
            ),
        ]);
        assert_eq!(capture.calls.len(), 1);
        let problems: Vec<String> = capture
            .problems
            .iter()
            .map(|p| format!("{}: {}", p.file, p.error))
            .collect();
        assert_eq!(
            problems,
            [
                "notes.txt: not a protocol data file name: expected {UnixMilli}_{RPC}_{Message}_{Field}[.msgpack|.json|.empty], found \"notes.txt\"",
                "2_ReadResource_Request_Private.empty: expected an empty file, found 1 bytes",
            ]
        );
    }
}

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
//! millisecond), the RPC, the message and the field, and the values. Terraform calls the
//! provider for up to ten resources at once, so the files of calls of one RPC
//! interleave, a message's files may straddle milliseconds' ends (each file is stamped
//! by itself), and two calls of one RPC in the same millisecond write files of the same
//! names: the last writer's file is the one left. [`Capture`] groups the files of each
//! RPC as one assignment over the whole directory, and says how sure it is of each call
//! ([`Status`]) and why ([`Call::explain`]):
//!
//! - the fields a message has are those the directory shows for that RPC's requests (or
//!   responses);
//! - a message is one file per field, stamped within the directory's span of each
//!   other (how far apart one message's files are stamped: for each message of a known
//!   write order, the time from its first field's file to the nearest file of its last
//!   field, one millisecond more than all but the slowest fiftieth of those: one or two
//!   on a quiet disk, five or six where each file takes a millisecond to write) and in
//!   the order terraform-plugin-go writes the fields, that Terraform's rules for what it
//!   sends allow (with schemas,
//!   [`Capture::from_files_with_schemas`]: a plan's `ProposedNewState` is the one
//!   Terraform makes from its `PriorState` and `Config`, an apply's `PlannedState` a
//!   valid plan for them, both null for a destroy). Around each file whose bytes no
//!   other file of its field nearby shares, every such set is tried: when all show the
//!   same bytes, that is the message (byte-identical files are interchangeable). A
//!   request whose values the rules bind and whose files nearby make no such set may
//!   have stalled after its first files: those may then lie up to 32 spans before the
//!   rest, among the files no message holds. The files no set decides are grouped by
//!   their milliseconds, in doubt: [`Status::Incomplete`];
//! - a response answers a request written before it (or in the same millisecond) whose
//!   values it fits: with schemas, a plan's `PlannedState` a valid plan for the request
//!   ([`Block::check_plan`]), an apply's `NewState` compatible with its `PlannedState`
//!   ([`Block::check_compatible`]). Responses of equal bytes are interchangeable; a kind
//!   of response that other requests can only have as often as it occurs is theirs
//!   (where an assignment answers every request that shares kinds of response with a
//!   request, the kinds it can have are those such assignments give it); a
//!   request left with one kind is answered by it, unless more requests need that kind
//!   than the directory holds (requests of the same bytes count as one: as many of them
//!   as there are such responses take one each), or a response that more calls wrote
//!   than requests explain (its request hidden by an overwrite; a request that lacks
//!   files but whose every file holds a whole request's bytes explains one as that
//!   request's twin; a response written before every request it fits is the hidden
//!   request's, and explains one itself) and that fits the request lies between the
//!   two (for an apply, only one of the same bytes: Terraform applies an instance once
//!   a run, so a hidden apply whose answer has other bytes is not this one's; for a
//!   plan an apply carries out, none: see below). A refresh
//!   (`ReadResource`) is bound to its answer by no rule: one whose response's `NewState`
//!   is its `CurrentState` byte for byte (no drift) and no other request's is answered
//!   by it (of requests of the same bytes that claim one response, the last: either
//!   shows the same values), as is a request and a response that only each other can be by the times;
//! - a destroy's answer is fixed by the rules: a plan of a null `Config` plans null, an
//!   apply of a null `PlannedState` returns null. Where every other field of the RPC's
//!   responses holds the same bytes in every file, a whole destroy request is answered
//!   by any response of those bytes after it (one another request's answer shows too:
//!   the values are the same);
//! - the applies bind the plans before them: Terraform plans a resource again just
//!   before it applies it and sends the plan's `PlannedState` in the apply, so the last
//!   plan request before an apply with its `Config` and `PriorState` is answered by a
//!   response with that `PlannedState` written before the apply (by the apply's own
//!   `Config` and `PlannedState` files: its files of bytes every apply shares may be
//!   another's, written earlier). A response of exactly the bytes such an apply carries
//!   in those fields shows that plan's answer, even where requests in doubt claim it,
//!   or a request an overwrite hid (behind this one's names: the request's files then
//!   show the `Config` and `PriorState` the apply carries, whichever call's they are);
//! - a call whose private data or `ProviderMeta` (values nothing binds), while those
//!   fields differ across the directory, was written within the span of another
//!   message of its RPC is [`Status::PossiblyMixed`]; what is left is [`Status::Ambiguous`],
//!   with the candidates, or [`Status::Incomplete`] when nothing fits.
//!
//! Two calls that write a file of one name at once can tear it: each writes in place,
//! and the later, shorter value lies over the earlier one's tail. A value file whose
//! bytes are not exactly one value of its encoding holds two calls' bytes: its call is
//! never complete ([`Status::Incomplete`], the reason naming the file and what it holds),
//! and a request holding one is paired with no response, nor a response holding one
//! with any request (its values are no one call's, and fit anything).
//!
//! Two calls that write every file of a message in one millisecond leave one set of
//! names and no trace of the hidden one; its other message may then stand in for the
//! visible call's lost one. A pair that such overwrites could have made is
//! [`Status::PossiblyMixed`], with the reason: a plan whose response no apply after it
//! carries while an apply after it carries another valid plan for it (or its
//! `Config`; not when only decided applies of another `PriorState` carry it, as the
//! create that replaces the resource does: an apply carries its plan's `PriorState`),
//! a create's plan whose response is also a valid plan of its `Config` from
//! a state a refresh returned before it (an update's answer, its request hidden), a
//! plan whose response plans exactly what request files in doubt proposed,
//! and a pair only the times bind where a response written whole in one millisecond
//! after the request could hide its own answer, and a request written whole in one
//! millisecond before the response (this one among them) the request it answers. A
//! pair a link proves (a refresh that found no drift, a plan an apply carries out) shows the same values whichever calls' files it holds, but for the
//! fields nothing binds: where a call of the RPC was hidden whole (its twin wrote every
//! file of both messages under the same names), the calls Terraform makes around it
//! show it (a refresh that no plan from its state follows, a plan from a state no
//! refresh returned since the last, the first refresh of a state no apply before it
//! returned, a destroy plan no apply carries out), and each complete call of the RPC
//! written while it could have been, whose private data differs across the directory,
//! is [`Status::PossiblyMixed`]. So is a complete call holding a field that another
//! call of its RPC could have overwritten (its message has a file in that field's
//! millisecond, or for an apply's request within the span of it, no other file of
//! that field, and its files keep terraform-plugin-go's write order with that field
//! written there) unless Terraform's links prove the file
//! the call's own: an apply and the plan it carries out bind each other's `Config`,
//! `PriorState` and `PlannedState`, a plan's `ProposedNewState` binds its `Config` and
//! the prior state's computed values, a refresh without drift binds its two states.
//! (An apply whose null `Config` no other call could have written is a destroy: a field
//! of it that only destroys could have written shows one of them, where the destroys'
//! requests are alike but for their `PriorState`. A response file two calls share, as
//! the pairing shares one only where either shows the same values, is not contested
//! by the other.) A
//! call hidden with nothing around it (a plan that creates, in a run that only plans)
//! leaves no trace at all. The checks
//! assume the provider keeps Terraform's rules: a call whose response breaks them is
//! shown with the reason, paired only where the times leave no other choice. Without
//! schemas, only the times and the bytes pair calls.
//!
//! What the files cannot prove, the one who captured them may know. A run of one
//! provider with one configuration (no aliases, and no other provider on
//! terraform-plugin-go writing to the directory) had one process of it at a time:
//! Terraform starts one for each walk (a plan, an apply, a refresh), configures it
//! first, and ends it once it has answered every call of the walk. Told so
//! ([`Run::one_configuration`], [`Capture::from_files_for_run`]), the grouping pairs no
//! request with a response written after the next `ConfigureProvider` request. It
//! matters because Terraform sends the same values again in later walks (a resource
//! planned, then planned again in the apply's walk; refreshed in every plan), whose
//! answers of the same bytes would otherwise compete for the earlier requests.
//!
//! ```
//! use ctywire::capture::{Capture, Status};
//!
//! let file = |name: &str| (name.to_owned(), vec![0xc0]);
//! // Two reads at once: two requests, then two responses that found drift (another
//! // state than the requests'); the names cannot tell which answers which.
//! let drifted = |name: &str| (name.to_owned(), vec![0xa1, b'x']);
//! let capture = Capture::from_files([
//!     file("1718000000200_ReadResource_Request_CurrentState.msgpack"),
//!     file("1718000000201_ReadResource_Request_CurrentState.msgpack"),
//!     drifted("1718000000203_ReadResource_Response_NewState.msgpack"),
//!     drifted("1718000000204_ReadResource_Response_NewState.msgpack"),
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
use crate::schema::{Client, Function, IdentitySchema, ProviderSchemas, Schema, SchemaKind};

mod assign;
mod hidden;
mod names;
mod overwritten;
mod pairing;
mod resolve;
#[cfg(test)]
mod tests;
mod torn;
mod writer;

use crate::types::Type;
use crate::value::Value;
use crate::{json, msgpack};
pub use names::{Extension, FileName};
pub use resolve::{Resolved, Resolver, Subject};

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
/// let bytes = std::fs::read("examples/payloads/cloud_bucket.config.msgpack")?;
/// let payload = Payload::new(
///     "1718000000210_ValidateResourceConfig_Request_Config.msgpack".to_owned(),
///     bytes,
/// )?;
/// assert_eq!((payload.name.rpc.as_str(), payload.name.field.as_str()), ("ValidateResourceConfig", "Config"));
/// assert!(payload.is_value());
///
/// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
/// let config = payload.decode(&schemas.resource("cloud_bucket")?.implied_type())?;
/// assert!(config["id"].is_null());
///
/// // Without a schema, the type the bytes imply says less: a null is of any type, an
/// // empty list of blocks an empty tuple.
/// let implied = payload.implied_type()?;
/// assert_eq!(implied.to_expr(), "object({force_destroy=any,id=any,lifecycle_rule=tuple([]),name=string})");
/// # Ok::<(), Box<dyn std::error::Error>>(())
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

    /// Whether the file holds a null value: an `.empty` value file, MessagePack's nil or
    /// JSON's `null`. A null fits every type, so it tells none.
    ///
    /// ```
    /// use ctywire::capture::Payload;
    ///
    /// let gone = Payload::new("1_ApplyResourceChange_Response_NewState.msgpack".into(), vec![0xc0])?;
    /// assert!(gone.is_null());
    /// let state = Payload::new("1_ReadResource_Request_CurrentState.json".into(), b"{}".to_vec())?;
    /// assert!(!state.is_null());
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn is_null(&self) -> bool {
        match &self.data {
            Data::Empty => self.is_value(),
            Data::Msgpack(bytes) => bytes.as_slice() == [0xc0],
            Data::Json(bytes) => bytes.trim_ascii() == b"null",
            Data::Private(_) => false,
        }
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
    /// Why the files were grouped so: how each message was found and what competed
    /// for it (`ctywire capture --explain`).
    pub explain: Vec<String>,
    /// Whether the request's files are one message by everything the grouping knows:
    /// nothing put their grouping in doubt (false without a request). Only such a
    /// request shows what Terraform asked for, to bind other calls' values to.
    pub(crate) sure_request: bool,
    /// Whether the call is an apply whose `PlannedState` keeps values of its
    /// `PriorState` where its `Config`'s differ: a valid plan only because Terraform
    /// lets a provider keep a prior value over an equivalent configuration's (as
    /// SDKv2's `DiffSuppressFunc` does), and what another apply's `Config` written
    /// over this one's looks like too (false without schemas).
    pub(crate) keeps_prior: bool,
    /// Whether the call is an apply whose `Config` and `PriorState` make, by
    /// Terraform's rules, some plan request's `ProposedNewState` in the directory:
    /// Terraform planned from them, even where no whole plan request shows it (false
    /// without schemas).
    pub(crate) proposed: bool,
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
///     "PlanResourceChange incomplete: no Request Config; no request in the directory fits this response",
///     "PlanResourceChange incomplete: no Response PlannedState; no response in the directory fits this request",
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
    /// One request and one response, but a file of which (private data, `ProviderMeta`:
    /// values nothing binds to the others, differing across the directory) was written
    /// within the span of another call's message of the same RPC (how far apart one
    /// message's files are stamped in the directory): an overwrite there could have
    /// left the other call's file under this one's name; or
    /// halves of two calls that overwrites in one millisecond could have left looking
    /// like one (the request's own response lost, the response's own request hidden);
    /// or a call whose private data differs across the directory, written while a call
    /// of its RPC that an overwrite hid whole (as the calls around it show) could have
    /// shared its milliseconds and names.
    PossiblyMixed {
        /// Which file, and which other call's file shares its millisecond.
        reason: String,
    },
}

impl fmt::Display for Status {
    /// `complete`, `ambiguous: 2 candidates`, `incomplete: no Response NewState; why`.
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
                write!(f, "incomplete: no {}; {reason}", missing.join(", "))
            }
            Status::PossiblyMixed { reason } => write!(f, "possibly mixed: {reason}"),
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
///      &std::fs::read("examples/payloads/provider.config.msgpack")?),
///     ("1718000000300_ReadDataSource_Request_Config.msgpack",
///      &std::fs::read("examples/payloads/cloud_image.config.msgpack")?),
///     ("1718000000300_ReadDataSource_Request_ProviderMeta.empty", b""),
///     ("1718000000304_ReadDataSource_Response_State.msgpack",
///      &std::fs::read("examples/payloads/cloud_image.config.msgpack")?),
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

/// What the one who captured a directory knows of the run that wrote it, beyond what
/// its files prove ([`Capture::from_files_for_run`]). The default knows nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Run {
    /// The directory holds the files of one provider with one configuration: no
    /// aliases of it, and no other provider on terraform-plugin-go writing there.
    /// Terraform then runs one process of it at a time, configures each once
    /// (`ConfigureProvider`) at the start of its walk (a plan, an apply, a refresh),
    /// and ends it only once it has answered every call it sent it. So a response
    /// written after a later `ConfigureProvider` request answers no request before
    /// that request. The files cannot prove this: processes of two configurations run
    /// at once, and one configures whenever the values it needs are known.
    pub one_configuration: bool,
}

impl Run {
    /// A run of one provider configuration ([`Run::one_configuration`]).
    pub const fn of_one_configuration() -> Run {
        Run {
            one_configuration: true,
        }
    }
}

impl Capture {
    /// Reads every file of directory `dir` (subdirectories are problems, not read).
    /// Fails only when the directory itself cannot be listed.
    pub fn read_dir(dir: &FsPath) -> std::io::Result<Capture> {
        Capture::read(dir, None, Run::default())
    }

    fn read(
        dir: &FsPath,
        resolver: Option<&mut Resolver<'_>>,
        run: Run,
    ) -> std::io::Result<Capture> {
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
        let mut capture = Capture::group(files, resolver, run);
        capture.problems.extend(problems);
        capture.problems.sort_by(|a, b| a.file.cmp(&b.file));
        Ok(capture)
    }

    /// Groups named files into calls by their names alone (see the [module
    /// documentation](self#calls)); files whose names are not protocol data file names
    /// become problems.
    pub fn from_files(files: impl IntoIterator<Item = (String, Vec<u8>)>) -> Capture {
        Capture::group(files, None, Run::default())
    }

    /// Groups named files into calls by their names and by their values under
    /// `schemas`: values one schema types, and Terraform's rules for plans and applies
    /// (the default [`Client`]'s; [`from_files_for`](Capture::from_files_for) takes one).
    pub fn from_files_with_schemas(
        files: impl IntoIterator<Item = (String, Vec<u8>)>,
        schemas: &ProviderSchemas,
    ) -> Capture {
        Capture::from_files_for(files, schemas, Client::default())
    }

    /// [`from_files_with_schemas`](Capture::from_files_with_schemas) by `client`'s rules
    /// for plans and applies; the reasons it gives name that client's program.
    pub fn from_files_for(
        files: impl IntoIterator<Item = (String, Vec<u8>)>,
        schemas: &ProviderSchemas,
        client: Client,
    ) -> Capture {
        Capture::from_files_for_run(files, schemas, client, Run::default())
    }

    /// [`from_files_for`](Capture::from_files_for), knowing what the files cannot
    /// prove of the `run` that wrote them ([`Run`]).
    ///
    /// ```
    /// use ctywire::capture::{Capture, Run};
    /// use ctywire::schema::{Client, ProviderSchemas};
    ///
    /// let schemas = ProviderSchemas::from_json(br#"{"format_version":"1.0","provider_schemas":{
    ///   "registry.terraform.io/acme/cloud":{"resource_schemas":{"cloud_thing":{"version":0,
    ///     "block":{"attributes":{"id":{"type":"string","computed":true}}}}}}}}"#)?;
    /// let file = |name: &str, bytes: &[u8]| (format!("17180000{name}"), bytes.to_vec());
    /// let null_id = [0x81, 0xa2, b'i', b'd', 0xc0];
    /// let unknown_id = [0x81, 0xa2, b'i', b'd', 0xd4, 0x00, 0x00];
    /// let files = || [
    ///     // The plan walk's process: a create's plan.
    ///     file("00100_ConfigureProvider_Request_Config.msgpack", &[0x80]),
    ///     file("00200_PlanResourceChange_Request_Config.msgpack", &null_id),
    ///     file("00200_PlanResourceChange_Request_PriorState.msgpack", &[0xc0]),
    ///     file("00200_PlanResourceChange_Request_ProposedNewState.msgpack", &null_id),
    ///     file("00201_PlanResourceChange_Response_PlannedState.msgpack", &unknown_id),
    ///     // The apply walk's process: the same plan again, its request lost.
    ///     file("00500_ConfigureProvider_Request_Config.msgpack", &[0x80]),
    ///     file("00601_PlanResourceChange_Response_PlannedState.msgpack", &unknown_id),
    /// ];
    /// // The plan at 00200 could have been answered at 00201 or at 00601 ...
    /// let capture = Capture::from_files_for(files(), &schemas, Client::default());
    /// let plan = |c: &Capture| c.calls.iter().find(|c| c.rpc == "PlanResourceChange").unwrap().clone();
    /// assert!(!plan(&capture).is_complete());
    /// // ... unless the run had one provider configuration: then the process that took
    /// // it had answered it before the next one was configured.
    /// let one = Run::of_one_configuration();
    /// let capture = Capture::from_files_for_run(files(), &schemas, Client::default(), one);
    /// assert!(plan(&capture).is_complete());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_files_for_run(
        files: impl IntoIterator<Item = (String, Vec<u8>)>,
        schemas: &ProviderSchemas,
        client: Client,
        run: Run,
    ) -> Capture {
        Capture::group(files, Some(&mut Resolver::for_client(schemas, client)), run)
    }

    /// [`read_dir`](Capture::read_dir), grouping as
    /// [`from_files_with_schemas`](Capture::from_files_with_schemas) does.
    pub fn read_dir_with_schemas(
        dir: &FsPath,
        schemas: &ProviderSchemas,
    ) -> std::io::Result<Capture> {
        Capture::read_dir_for(dir, schemas, Client::default())
    }

    /// [`read_dir`](Capture::read_dir), grouping as
    /// [`from_files_for`](Capture::from_files_for) does.
    pub fn read_dir_for(
        dir: &FsPath,
        schemas: &ProviderSchemas,
        client: Client,
    ) -> std::io::Result<Capture> {
        Capture::read_dir_for_run(dir, schemas, client, Run::default())
    }

    /// [`read_dir`](Capture::read_dir), grouping as
    /// [`from_files_for_run`](Capture::from_files_for_run) does.
    pub fn read_dir_for_run(
        dir: &FsPath,
        schemas: &ProviderSchemas,
        client: Client,
        run: Run,
    ) -> std::io::Result<Capture> {
        Capture::read(dir, Some(&mut Resolver::for_client(schemas, client)), run)
    }

    fn group(
        files: impl IntoIterator<Item = (String, Vec<u8>)>,
        mut resolver: Option<&mut Resolver<'_>>,
        run: Run,
    ) -> Capture {
        let mut capture = Capture::default();
        let checked = resolver.is_some();
        let mut by_rpc: BTreeMap<String, Vec<Payload>> = BTreeMap::new();
        for (file, bytes) in files {
            match Payload::new(file.clone(), bytes) {
                Ok(p) => by_rpc.entry(p.name.rpc.clone()).or_default().push(p),
                Err(error) => capture.problems.push(Problem { file, error }),
            }
        }
        // Applies first: their requests bind the responses of the plans before them.
        // How far apart one message's files are stamped: how fast this writer wrote.
        let span = writer::span(&by_rpc);
        let mut links = assign::Links::new(&by_rpc, resolver.as_deref_mut(), span, run);
        for (rpc, mut payloads) in by_rpc {
            payloads.sort_by(|a, b| {
                let key = |p: &Payload| (p.name.unix_millis, !p.name.is_request(), p.file.clone());
                key(a).cmp(&key(b))
            });
            capture.calls.extend(pairing::calls(
                &rpc,
                payloads,
                resolver.as_deref_mut(),
                &mut links,
            ));
        }
        hidden::mark(&mut capture.calls);
        // A torn file holds two calls' bytes: no call holding one is complete.
        torn::mark(&mut capture.calls);
        // A field another call of the RPC could have overwritten, that no link proves.
        overwritten::mark(&mut capture.calls, checked, span);
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
                Status::PossiblyMixed { .. } => summary.possibly_mixed += 1,
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
    /// Calls [`Status::PossiblyMixed`].
    pub possibly_mixed: usize,
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
        )?;
        if self.possibly_mixed > 0 {
            write!(f, ", {} possibly mixed", self.possibly_mixed)?;
        }
        Ok(())
    }
}

//! The names terraform-plugin-go gives capture files: `{UnixMilli}_{RPC}_{Message}_{Field}.{ext}`.

use super::*;

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

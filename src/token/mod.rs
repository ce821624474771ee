//! The token layer: reading and writing JSON and MessagePack one token at a time, with
//! no knowledge of types or values. The codecs (`json`, `msgpack`), the type parsers
//! (`types::json`), the schema and document readers (`schema::json`, `tfjson`,
//! `config::document`) and the serde bridge all stand on it.
//!
//! - `json_read`: the JSON reader (`Reader`, `Kind`): tokens, strings with escapes,
//!   numbers as text, positions as line and column, and skipping a value.
//! - `json_write`: JSON strings escaped as go-cty's encoder escapes them.
//! - `msgpack_read`: the MessagePack reader (`Reader`, `Token`): markers, lengths checked
//!   against the input left, extensions.
//! - `msgpack_write`: MessagePack's integers, strings, bins and headers in their
//!   smallest forms.

pub(crate) mod json_read;
pub(crate) mod json_write;
pub(crate) mod msgpack_read;
pub(crate) mod msgpack_write;

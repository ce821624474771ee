//! # ctywire
//!
//! The value format of the Terraform / OpenTofu provider plugin protocol: the
//! `DynamicValue` payloads (MessagePack, and JSON as the secondary form) that Terraform
//! core and a provider plugin exchange, byte-compatible with go-cty, the reference
//! implementation inside Terraform and OpenTofu.
//!
//! ```
//! use ctywire::{msgpack, json, Refinements, Type, Value};
//!
//! // The type comes from the provider's schema (here a type expression).
//! let ty: Type = "object({name=string, tags=map(string), arn=string})".parse()?;
//!
//! // A planned value: `arn` is unknown, but known to start with "arn:".
//! let planned = Value::object([
//!     ("name", Value::from("web")),
//!     ("tags", Value::map([("env", Value::from("prod"))])),
//!     ("arn", Value::Unknown(Refinements::new().not_null().string_prefix("arn:"))),
//! ]);
//! let bytes = msgpack::encode(&planned, &ty)?;
//! assert_eq!(msgpack::decode(&bytes, &ty)?, planned);
//!
//! // JSON cannot hold unknowns; errors name the path.
//! let err = json::encode(&planned, &ty).unwrap_err();
//! assert_eq!(err.to_string(), ".arn: value is not known");
//! # Ok::<(), ctywire::Error>(())
//! ```
//!
//! ## The pieces
//!
//! - [`Type`]: cty types, with optional object attributes and the dynamic pseudo-type;
//!   type JSON ([`Type::to_json`], [`Type::from_json`]) and Terraform type expressions
//!   ([`Type::parse_expr`], [`Type::to_expr`]).
//! - [`Value`]: null, unknown (with [`Refinements`]) or known; arbitrary-precision
//!   [`Number`]s; sets with cty's equality and go-cty's order.
//! - [`msgpack`] and [`json`]: decoders and encoders driven by a type.
//! - [`Path`]: where in a value, printed as Terraform prints it (`.tags["Name"]`),
//!   parsed back ([`Path::parse`]), and applied to values ([`Value::at_path`]) and JSON.
//! - [`schema`]: provider schemas ([`Block`], [`Attribute`], [`NestedBlock`]) loaded from
//!   `terraform providers schema -json` ([`ProviderSchemas::from_json`]), their implied
//!   types ([`Block::implied_type`]) exactly as Terraform computes them, checks of
//!   values and schemas ([`Block::check_config`], [`Block::check_state`],
//!   [`Block::validate`]), and where a value holds sensitive attributes
//!   ([`Block::sensitive_paths`]).
//! - [`tfjson`]: the values of `terraform show -json` plans and states, with their
//!   `after_unknown` and sensitivity trees, read into typed values and written back.
//! - [`capture`]: the payload files terraform-plugin-go writes with
//!   `TF_LOG_SDK_PROTO_DATA_DIR`, grouped into calls, each typed by the one schema
//!   whose implied type decodes all its values.
//! - [`Error`]: a kind, a path, a byte offset or line and column.
//!
//! ## Wire formats
//!
//! MessagePack is what Terraform sends. Integers use the smallest form (non-negative
//! ones the unsigned forms); non-integers that are exactly a float64 are `cb` floats;
//! every other number is its plain decimal text as a string. Unknowns are extension 0
//! (`d4 00 00`) or extension 12 carrying refinements. A value at a `dynamic` position is
//! wrapped as `[type JSON (bin), value]`. Map keys and object attributes are written in
//! bytewise order, set elements in go-cty's order.
//!
//! JSON is the secondary form: objects with every attribute, `{"value":…,"type":…}` for
//! dynamic positions, Go's string escaping (`<`, `>`, `&`, U+2028 and U+2029 escaped),
//! numbers as plain decimal text. It cannot hold unknowns or infinities.
//!
//! ## Design decisions
//!
//! - **An untyped value tree.** A [`Value`] does not carry its type; the codecs take the
//!   type. Provider code can write `Value::Null` or [`Value::unknown()`] anywhere. At a
//!   `dynamic` position a decoded value keeps its concrete type in [`Value::Typed`]; a
//!   value built by hand may leave it out and the encoder infers it (an empty collection
//!   gets element type `dynamic`; a collection of mixed types is an error).
//! - **Objects share their attribute names.** An object value holds its values in
//!   attribute order and points at the name list of its object type, so decoding 10,000
//!   objects does not allocate 10,000 copies of each name. [`Value`] is 24 bytes.
//! - **Short strings live inline.** A string value or map key of up to 22 bytes (an ID,
//!   a tag, an address) is held inside its 24 bytes ([`Str`]), so most strings of a
//!   state cost no heap allocation.
//! - **Numbers keep their origin.** A [`Number`] is an exact decimal (no 512-bit
//!   rounding), an `i64`, or a float64 that remembers it came from a binary float, as
//!   go-cty's precision does: float64 `0.1` is written `cb 3fb999999999999a`, decimal
//!   `0.1` as the string `"0.1"`, and the two are equal. As in go-cty, a decimal that is
//!   exactly a float64 and not an integer is written as that float64, which reads back
//!   printing its shortest digits: `1000104010000000.25` comes back as
//!   `1000104010000000.2`, a different number by cty's equality.
//! - **A hand-written JSON reader.** JSON is decoded by a token reader of this crate,
//!   not by serde: it gives the exact text of every number without a second pass (no
//!   `RawValue` per number), turns lone surrogate escapes into U+FFFD as Go does
//!   (serde_json rejects them), needs no intermediate tree, and reports errors with the
//!   value's path and the line and column.
//! - **Schemas are plain data.** [`Block`], [`Attribute`] and [`NestedBlock`] have public
//!   fields (names in `BTreeMap`s, which keep Go's bytewise order) and builder methods;
//!   implied types are computed on demand, not cached, so a schema edited in place is
//!   never stale. An attribute holds an optional type and an optional nested type, as
//!   Terraform's does, so that [`Block::validate`] can report one with neither or both
//!   rather than the loader refusing it.
//! - **Schema files are read with the crate's JSON reader**, not through a
//!   `serde_json::Value` tree: errors then carry the line and column as well as the path
//!   into the document (`.provider_schemas["…"].resource_schemas["…"].block…`), and the
//!   attribute `type` is parsed in place by the type-JSON parser.
//! - **`show -json` values stay text until typed.** [`tfjson`] reads plan and state
//!   documents with the same reader and keeps each value sub-tree as its exact text
//!   ([`tfjson::RawJson`]), decoded only with a type: numbers are never rounded, and
//!   `serde_json`'s `arbitrary_precision` feature (global to a build) is not needed.
//!   `dynamic` attributes, which those documents write as plain JSON, get the type their
//!   JSON implies.
//! - **Documents are checked, not trusted.** A `show -json` document's boolean trees
//!   must fit their values ([trees that do not fit](tfjson#trees-that-do-not-fit): a
//!   mark that lands nowhere is an error, where Terraform's own readers take what they
//!   find), and a provider name written differently from the schemas' (Terraform
//!   0.12's `null.aliased`, OpenTofu's registry host) is matched to the one provider it
//!   can mean and [says so](schema::ProviderMatch::fallback), never guessed among
//!   several.
//! - **Errors are built lazily.** The path of an error is assembled as the error returns
//!   through each level; decoding that succeeds pays nothing for paths.
//!
//! ## Deliberate differences from go-cty
//!
//! Each is a crash or a wrong value in go-cty; the vectors in `vectors/ctywire/` record
//! this crate's behaviour with a note:
//!
//! - MessagePack extensions other than type 12 are plain unknowns (the protocol's rule;
//!   go-cty >= 1.13 rejects some), and refinement keys this crate does not know are
//!   skipped, value and all (go-cty misreads them unless they come last).
//! - These are errors rather than wrong values: an empty map or array for an object or
//!   tuple type that has attributes or elements; duplicate keys in a MessagePack map or
//!   object (also when two keys are equal after NFC); non-string or nil map keys;
//!   invalid UTF-8 in a string; bytes or text after the value; NaN; collections of a
//!   `dynamic`-holding type whose elements have different types (go-cty panics); a JSON
//!   tuple with too few elements (go-cty panics at the top level).
//! - A float64 that is an integer at or beyond 2^63 is written as a float64 (`cb …`),
//!   not as go-cty's lossy decimal string (go-cty issue 220). Decimals longer than
//!   go-cty's 512 bits are kept exactly.
//! - Error paths for MessagePack attributes read `.name`, as for JSON (go-cty writes
//!   `["name"]`), and error messages are this crate's own.
//! - Type expressions may quote attribute names (`object({"a b"=string})`), which
//!   Terraform does not accept, so that every object type prints as an expression and
//!   parses back.
//! - Capsule types do not exist: they cannot cross the wire.
//!
//! ## Limits
//!
//! Decoding is bounded by [`limits`]: nesting depth, refinement payload size, number
//! text length and binary exponents (go-cty reads `1p-4000` exactly; this crate refuses
//! binary exponents beyond 128 in magnitude), and the number of values the input leaves
//! out (missing JSON attributes, collapsed unknown lists); no decoder allocates for more
//! elements than the remaining input could hold.

pub mod capture;
pub mod error;
pub mod json;
pub mod limits;
pub mod msgpack;
pub mod path;
pub mod render;
pub mod schema;
mod text;
pub mod tfjson;
pub mod types;
pub mod value;
pub mod vectors;

pub use error::{Error, ErrorKind, Position, Result};
pub use path::{Path, PathStep};
pub use schema::{
    Attribute, AttributeNesting, Block, BlockNesting, NestedBlock, NestedType, ProviderSchema,
    ProviderSchemas, Schema, Violation,
};
pub use types::{AttributeNames, ObjectType, TupleType, Type};
pub use value::{Map, Number, NumberError, Object, Refinements, Set, Str, Typed, Value};

/// The README's examples, compiled and run as doc-tests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

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
//!     ("arn", Value::Unknown(Refinements::new().not_null().with_string_prefix("arn:"))),
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
//! ## By task
//!
//! Every function linked here has an example on its page.
//!
//! ### Decode a captured payload
//!
//! Load the provider's schema (what `terraform providers schema -json` prints) with
//! [`ProviderSchemas::from_json`], take a resource type's, data source's or provider's
//! [`Schema`] ([`ProviderSchemas::resource`], [`data_source`](ProviderSchemas::data_source),
//! [`provider`](ProviderSchemas::provider)), and decode the payload with its
//! [implied type](Schema::implied_type): [`msgpack::decode`] (or [`json::decode`]). Read
//! the [`Value`] by index (`value["disk"][0]["size"]`, [`Value::as_str`],
//! [`Value::is_unknown`], [`Value::refinements`]) or by [`Path`] ([`Value::at_path`]),
//! and show it as `terraform show` does with [`render::render_block`], sensitive values
//! hidden ([`Block::sensitive_paths`]). Without a schema, [`msgpack::implied_type`] and
//! [`msgpack::implied_type_reading_wrappers`] give a type from the bytes. An [`Error`]
//! has a [kind](ErrorKind), a [path](Error::path) and a [position](Position) (a byte
//! offset, or a line and column).
//!
//! ### Decode into your own structs
//!
//! With the `serde` feature: [`msgpack::decode_as`] and [`msgpack::encode_from`] (and
//! [`json::decode_as`], [`json::encode_from`]) go between the protocol's bytes and your
//! own types, [`Known<T>`] where Terraform may send an unknown, with the codecs' checks
//! and bytes; [`serde::from_value`] and [`serde::to_value`] do the same with a
//! [`Value`]. The [`serde`] module tabulates what maps to what.
//!
//! ### Declare a resource once
//!
//! With the `derive` feature, `#[derive(ctywire::Object)]` gives a struct's schema
//! [`Block`] and cty type ([`object::Object`]) from the struct itself: field attributes
//! under `#[cty(...)]` (`required`, `optional`, `computed`, `sensitive`, `write_only`,
//! `deprecated`, `rename`, `block`, `nested`), descriptions from doc comments, nested
//! blocks' nesting from the field's type. [`msgpack::decode_object`] and
//! [`msgpack::encode_object`] read and write the struct with that type through the typed
//! codec the derive generates ([`object::MsgpackField`]: straight between bytes and the
//! struct, byte for byte what the `Value` codec writes); [`json::decode_object`] and
//! [`json::encode_object`] do the same with JSON text ([`object::JsonField`]). A struct
//! that cannot make a schema does not build; the `ctywire-derive` crate's docs list the
//! options.
//!
//! ```
//! # #[cfg(feature = "derive")] {
//! use ctywire::object::Object;
//! use ctywire::schema::BlockNesting;
//! use ctywire::{json, msgpack, Known};
//!
//! /// A virtual machine.
//! #[derive(ctywire::Object)]
//! struct Instance {
//!     #[cty(computed)]
//!     id: Known<String>,
//!     /// The instance's name.
//!     #[cty(required)]
//!     name: String,
//!     #[cty(block(max_items = 4))]
//!     disk: Vec<Disk>,
//! }
//!
//! #[derive(ctywire::Object)]
//! struct Disk {
//!     #[cty(required)]
//!     size_gb: u32,
//! }
//!
//! let block = Instance::schema_block();
//! assert_eq!(block.description, "A virtual machine.");
//! assert!(block.attributes["id"].computed && block.attributes["name"].required);
//! assert_eq!(block.block_types["disk"].nesting, BlockNesting::List);
//! assert_eq!(block.block_types["disk"].max_items, 4);
//! assert_eq!(
//!     Instance::cty_type().to_expr(),
//!     "object({disk=list(object({size_gb=number})),id=string,name=string})"
//! );
//!
//! let planned = Instance { id: Known::unknown(), name: "web".into(), disk: vec![Disk { size_gb: 10 }] };
//! let bytes = msgpack::encode_object(&planned)?;
//! let back: Instance = msgpack::decode_object(&bytes)?;
//! assert!(back.id.is_unknown());
//! assert_eq!(back.disk[0].size_gb, 10);
//!
//! // JSON cannot hold unknowns: once applied, the instance has its id.
//! let applied = Instance { id: Known::from("i-1".to_string()), ..back };
//! let text = json::encode_object(&applied)?;
//! assert_eq!(text, br#"{"disk":[{"size_gb":10}],"id":"i-1","name":"web"}"#);
//! assert_eq!(json::decode_object::<Instance>(&text)?.id.as_known().map(String::as_str), Some("i-1"));
//! # }
//! # Ok::<(), ctywire::Error>(())
//! ```
//!
//! ### Build and encode a planned value
//!
//! Build values with [`Value::object`], [`Value::map`], [`Value::list`], [`Value::set`],
//! `Value::from` and [`Value::unknown`] (or [`Value::Unknown`] with [`Refinements`]: not
//! null, a string prefix, number bounds, collection lengths), change them with
//! [`Value::with_attribute`] and [`Value::set_at_path`], and encode them with
//! [`msgpack::encode`] or [`json::encode`]. Types come from type expressions or type JSON
//! ([`Type::parse_expr`], [`Type::from_json`], or `"list(string)".parse()`), or from a
//! [schema](Block::implied_type). [`Block::empty_value`] is Terraform's empty value of a
//! block.
//!
//! ### Compare values
//!
//! [`diff()`] gives the [`Difference`]s from one value to another, each where it happens;
//! [`Value::cty_equals`] and [`Value::raw_equals`] are go-cty's `Equals` and `RawEquals`;
//! [`Value::walk`], [`Value::transform`] and [`Value::unknown_paths`] visit every part of
//! a value with its path and type.
//!
//! ### Convert a value to another type
//!
//! [`convert::convert`] applies go-cty's conversion rules (the ones Terraform applies to
//! variables and attributes); [`convert::conversion`] says whether one exists and is
//! safe, [`convert::unify`] finds the type several types convert to.
//!
//! ### Check a plan as Terraform would
//!
//! [`Block::proposed_new`] is the proposed new state Terraform sends to
//! PlanResourceChange; [`Block::check_plan`], [`Block::check_apply`] and
//! [`Block::check_read`] list what Terraform would reject in a planned, applied or
//! refreshed state, each an [`Inconsistency`] with its path, its [`Rule`] and
//! Terraform's words ([`Inconsistency::terraform_text`],
//! [`Inconsistency::terraform_diagnostic`]).
//! [`render::diff::render_resource_change`] shows a change as `terraform plan` does.
//! [`Block::check_config`], [`Block::check_state`] and [`Block::validate`] check values
//! and schemas against the schema rules.
//!
//! ### Read a plan or state
//!
//! [`tfjson::Plan::from_json`] and [`tfjson::State::from_json`] (or
//! [`tfjson::Document::from_json`] for either) read what `terraform show -json` prints;
//! [`tfjson::Plan::resource_change`] finds a change and [`tfjson::Change::typed_after`]
//! gives its planned value with its unknowns, [`tfjson::Change::after_sensitive_paths`]
//! its sensitive paths. [`tfjson::to_json_value`], [`tfjson::unknown_tree`] and
//! [`tfjson::sensitive_tree`] write a value the way those documents hold it. Documents
//! may be UTF-16 (PowerShell's `>`); HCP Terraform's redacted plans carry the
//! [schemas that type them](tfjson::Plan::provider_schemas); identities and action
//! invocations are typed by the schemas' identity and action sections; a provider the
//! document names differently from the schemas is [matched](ProviderSchemas::match_provider)
//! to the one it can mean.
//!
//! ### Read a capture directory
//!
//! [`capture::Capture::read_dir`] reads the files terraform-plugin-go writes with
//! `TF_LOG_SDK_PROTO_DATA_DIR` and groups them into [calls](capture::Call); a
//! [`capture::Resolver`] finds the resource type (data source, ephemeral resource,
//! action, function, ...) whose implied type decodes every value of a call;
//! [`capture::Call::change`] gives the two states a plan, an apply or a refresh compares,
//! for [`render::diff`] to show.
//!
//! ### Turn a `.tf.json` configuration into a config payload
//!
//! [`config::Config::read`] reads configuration files in HCL's JSON syntax, and
//! [`config::Config::value`] gives the value Terraform sends a provider for a block of
//! it, typed by the [block's schema](config::Address::schema); problems are Terraform's
//! [diagnostics](config::Diagnostics).
//!
//! ### Check a vector file
//!
//! `ctywire vectors check FILE` (the command-line tool) runs a file of test vectors in
//! this project's format (`vectors/README.md`) and reports each failed check with the
//! expected and produced bytes; the runner is the workspace's `ctywire-vectors` crate.
//!
//! ## Building the crate's structs
//!
//! Structs with public fields that will grow as Terraform's formats do are
//! `#[non_exhaustive]`: [`Schema`], [`Block`], [`Attribute`], [`NestedType`],
//! [`NestedBlock`], [`ProviderSchemas`], [`ProviderSchema`], [`render::Options`],
//! [`json::DecodeOptions`], [`render::diff::DiffOptions`] and
//! [`render::diff::ResourceHeading`], and the results the crate returns ([`Difference`],
//! [`Violation`], [`Inconsistency`], the [`tfjson`] document structs,
//! [`config::Diagnostic`], ...). Outside this crate they cannot be
//! written as struct literals: build them with their constructors and builder methods
//! (`Block::new().attribute("id", Attribute::new(Type::String).computed())`,
//! `Schema::new(block).version(1)`, `Options::new().show_null(true)`,
//! `DiffOptions::new().requires_replace(paths)`), or from `Default`, and set any other
//! public field on the value they return. The enums that will grow ([`ErrorKind`],
//! [`Rule`], [`render::diff::ChangeAction`], [`config::Address`]) need a `_` arm in a
//! `match`.
//!
//! ## Features
//!
//! - `serde` (default): the serde bridge ([`serde`], [`Known<T>`]'s serde forms,
//!   `decode_as` and `encode_from` in [`msgpack`] and [`json`]).
//! - `derive`: `#[derive(ctywire::Object)]` (the `ctywire-derive` proc-macro crate, with
//!   syn and quote), and the serde bridge it reads and writes through.
//!
//! `default-features = false` builds the library alone.
//!
//! ## Under the hood
//!
//! ### The wire formats
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
//! ### Design decisions
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
//!   fields (names in `BTreeMap`s, which keep Go's bytewise order) and builder methods,
//!   and are `#[non_exhaustive]` so that fields Terraform adds can follow;
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
//! - **The serde bridge streams.** [`msgpack::decode_as`] and [`msgpack::encode_from`]
//!   go between bytes and a provider's structs with the codecs' readers and writers and
//!   no [`Value`] tree, except where a value needs the whole of itself (a `dynamic`
//!   position, a set out of go-cty's order, a collection of `dynamic`). Struct attributes
//!   reach serde's derived visitors as field indexes, matched once per struct and type.
//!   A whole [`Value`] (a `Value` field, an unknown into a [`Known<T>`]) crosses serde's
//!   interface through a thread-local hand-off within one call, so that it keeps its
//!   concrete type and refinements. `Option<T>` means null or known; an unknown there is
//!   an error that says to use `Known<T>`.
//! - **Implied types follow go-cty, and a second function reads wrappers.**
//!   [`msgpack::implied_type`] and [`json::implied_type`] are go-cty's `ImpliedType`,
//!   which implies no type for a payload with a `dynamic` attribute (MessagePack: binary
//!   data; JSON: an object with `value` and `type` members). The separate
//!   [`msgpack::implied_type_reading_wrappers`] and [`json::implied_type_reading_wrappers`]
//!   read those wrappers as dynamic values and say where (the tool uses them for payloads
//!   given without a type); `tests/conformance/implied.rs` records where they differ.
//! - **cty's equalities take the type.** `==` compares trees as built; go-cty's
//!   `Equals` and `RawEquals` are [`Value::cty_equals`] and [`Value::raw_equals`],
//!   which need the type to know what is at `dynamic` positions. Where go-cty's
//!   `Equals` finds one part unequal and another unknown, its answer depends on Go's
//!   map order for objects and maps (false or unknown, varying between runs); this
//!   crate takes the parts in name order, so that the first decides, as go-cty does for
//!   lists and tuples.
//! - **A diff is as deep as the values allow.** [`diff()`] reports a changed
//!   attribute, map element or list element where it is, and a value as a whole only
//!   where its parts have no place in the other: a null or unknown side, a list whose
//!   length changes, a set whose elements change (elements are found by value), a
//!   `dynamic` value whose type changes. It is empty exactly where `raw_equals` holds.
//! - **Errors are built lazily.** The path of an error is assembled as the error returns
//!   through each level; decoding that succeeds pays nothing for paths.
//!
//! ### Deliberate differences from go-cty
//!
//! Each is a crash or a wrong value in go-cty; the vectors in `vectors/ctywire/` record
//! this crate's behaviour with a note, and `FORMAT.md` (section 8) lists each with its
//! vectors:
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
//! - [`json::decode_as`] (the serde bridge) refuses a JSON object that gives an
//!   attribute twice (a struct's visitor cannot take the last one, as `json::decode`
//!   and go-cty do), and leaves an attribute the object leaves out to serde (an `Option`
//!   or `Known` field is null, a `#[serde(default)]` field takes its default, any other
//!   is an error) rather than making up a null; `tests/behaviour/serde_bridge.rs` records both.
//! - A null, an unknown or an empty collection carries no type in a [`Value`], so the
//!   encoders write it as it stands where go-cty's `Marshal` would convert it by its type
//!   first (a null string where a list is wanted is go-cty's error). Conversion keeps
//!   decimals exactly, and where go-cty reports one of several errors picked by Go's map
//!   order, [`convert`] reports the first in name order (`tests/conformance/convert.rs` records
//!   each).
//! - The plan rules ([`schema::plan`]) follow Terraform v1.16 without its computed
//!   blocks, which `providers schema -json` does not describe (the vectors skip those
//!   cases). Where Terraform would crash (a null configuration for a MAP block, an
//!   unknown MAP block after apply) they treat the null as no blocks and skip what cannot
//!   be compared. An unknown whose refinements are present but empty (which go-cty
//!   prints `.Refine().NewValue()`) cannot be told from a plain unknown on the wire and
//!   prints as one.
//! - The plan renderer ([`render::diff`]) prints every unknown as `(known after apply)`,
//!   as Terraform 1.15 does; with `DiffOptions::show_refinements` (`--show-refinements`)
//!   it adds what the refinements say (`(known after apply, not null)`), which
//!   Terraform's JSON plans cannot carry. HCL identifiers are told from other attribute
//!   names with Unicode's alphabetic and alphanumeric classes rather than HCL's exact
//!   `ID_Start` / `ID_Continue` tables.
//!
//! Where [`config`] departs from Terraform (each recorded by a test in
//! `tests/behaviour/config.rs`): expressions other than literals, templates and references to
//! variables, locals, iterators and instance keys are unknown rather than evaluated
//! (function calls, operators, conditionals); JSON syntax errors are this crate's
//! reader's, and invalid UTF-8 is refused rather than replaced; heredocs inside an
//! interpolation, override files, and Terraform's `blocktoattr` fixup of legacy
//! list-of-object attributes written as `dynamic` blocks are not supported and are
//! reported as such.
//!
//! ## Limits
//!
//! Decoding is bounded by [`limits`]: nesting depth, refinement payload size, number
//! text length and binary exponents (go-cty reads `1p-4000` exactly; this crate refuses
//! binary exponents beyond 128 in magnitude), and the number of values the input leaves
//! out (missing JSON attributes, collapsed unknown lists); no decoder allocates for more
//! elements than the remaining input could hold.

#![forbid(unsafe_code)]

mod address;
pub mod capture;
pub mod config;
pub mod convert;
mod diff;
pub mod error;
pub mod flatmap;
mod implied;
pub mod json;
mod known;
pub mod limits;
pub mod msgpack;
pub mod object;
pub mod path;
pub mod render;
pub mod schema;
#[cfg(feature = "serde")]
pub mod serde;
#[cfg(feature = "serde")]
mod set_of;
mod text;
pub mod tfjson;
mod token;
pub mod transcode;
pub mod types;
pub mod value;

pub use address::InstanceKey;
/// `#[derive(ctywire::Object)]`: a struct's cty type and schema block (feature `derive`;
/// see [`object::Object`]).
#[cfg(feature = "derive")]
pub use ctywire_derive::Object;
pub use diff::{diff, ChangeKind, Difference, ValueState};
pub use error::{Error, ErrorKind, Position, Result};
pub use known::Known;
pub use path::{Path, PathStep};
pub use schema::{
    Attribute, AttributeNesting, Block, BlockNesting, Inconsistency, NestedBlock, NestedType,
    ProviderSchema, ProviderSchemas, Rule, Schema, Violation,
};
#[cfg(feature = "serde")]
pub use set_of::SetOf;
pub use types::{AttributeNames, ObjectType, TupleType, Type};
pub use value::{Map, Number, NumberError, Object, Refinements, Set, Str, Typed, Value, Visit};

/// The README's examples, compiled and run as doc-tests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// How many cases one of the unit tests' properties runs: `full` where
/// `CTYWIRE_FULL_CASES` is set (CI sets it), a quarter of it otherwise (the unoptimised
/// build takes seconds for a few thousand cases).
#[cfg(test)]
pub(crate) fn test_cases(full: u32) -> u32 {
    if std::env::var_os("CTYWIRE_FULL_CASES").is_some() {
        full
    } else {
        (full / 4).max(1)
    }
}

/// The configuration of a unit-test property running `cases` cases, drawn with
/// proptest's XorShift generator: its default, ChaCha, is a dependency built without
/// optimisation here, and took three quarters of a property's time (each generated
/// value forks a generator).
#[cfg(test)]
pub(crate) fn proptest_config(cases: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases,
        rng_algorithm: proptest::test_runner::RngAlgorithm::XorShift,
        ..proptest::test_runner::Config::default()
    }
}

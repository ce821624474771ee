//! The serde bridge: Rust types in and out of cty values, driven by a [`Type`]
//! (feature `serde`, on by default).
//!
//! A provider declares its resource as structs and reads and writes them straight from
//! and to the protocol's bytes, with no [`Value`] tree in between:
//! [`msgpack::decode_as`](crate::msgpack::decode_as) and
//! [`msgpack::encode_from`](crate::msgpack::encode_from), the same two in
//! [`json`](crate::json::decode_as), and [`from_value`] and [`to_value`] for values
//! at hand. The type drives everything, as in the codecs: what is read is checked as
//! the decoders check it, and what is written is byte for byte what the encoders write
//! for the equivalent value ([`to_value`]'s): NFC text, attributes and map keys in
//! bytewise order, sets in go-cty's order, numbers in go-cty's forms, refined unknowns.
//!
//! ```
//! use std::collections::BTreeMap;
//! use ctywire::{msgpack, Known, Refinements, Type};
//!
//! #[derive(serde::Serialize, serde::Deserialize)]
//! struct Bucket {
//!     name: String,
//!     arn: Known<String>,
//!     versions: Option<u32>,
//!     tags: BTreeMap<String, String>,
//!     #[serde(rename = "type")]
//!     kind: String,
//! }
//!
//! let ty: Type = "object({name=string, arn=string, versions=number, tags=map(string), type=string})".parse()?;
//! let planned = Bucket {
//!     name: "logs".into(),
//!     arn: Known::Unknown(Refinements::new().not_null().with_string_prefix("arn:")),
//!     versions: None,
//!     tags: BTreeMap::from([("env".into(), "prod".into())]),
//!     kind: "standard".into(),
//! };
//! let bytes = msgpack::encode_from(&planned, &ty)?;
//! assert_eq!(bytes, msgpack::encode(&ctywire::serde::to_value(&planned, &ty)?, &ty)?);
//! let back: Bucket = msgpack::decode_as(&bytes, &ty)?;
//! assert_eq!(back.arn.refinements().unwrap().string_prefix(), Some("arn:"));
//! # Ok::<(), ctywire::Error>(())
//! ```
//!
//! ## What maps to what
//!
//! | cty | Rust |
//! |---|---|
//! | `string` | `String`, `&str` and `Cow<str>` (borrowed where the input allows), `char`, unit enum variants |
//! | `number` | every integer type, `f32`, `f64`, [`Number`](crate::Number) (exact, float64 origin kept), `bigdecimal::BigDecimal`, `String` (the number's text) |
//! | `bool` | `bool` |
//! | `list(T)`, `set(T)` | `Vec`, arrays, `BTreeSet`, `HashSet`, tuples |
//! | `map(T)` | `HashMap`, `BTreeMap`, a struct (read by key), an enum variant with a value |
//! | `object({...})` | a struct (serde's `rename`, `default`, `skip`, `flatten`, `deny_unknown_fields` honoured), a map |
//! | `tuple([...])` | a Rust tuple, a `Vec` |
//! | `dynamic` | [`Value`] (which keeps the concrete type), or any Rust type (read with the type on the wire; written with the type the encoder infers from it) |
//! | null | `Option<T>` (`None`), [`Known<T>`] (`Null`), `()` |
//! | unknown | [`Known<T>`] (`Unknown`, refinements kept), [`Value`] |
//!
//! Nested blocks map by their nesting mode, as their implied types do: LIST and SET
//! blocks to a `Vec` (or a set), MAP blocks to a map, a SINGLE block to an `Option` or
//! a [`Known`] of its struct, a GROUP block to the struct itself.
//!
//! A number goes into an integer only when it is one and fits (`1.5` into `u32`, or
//! `2^70` into `i64`, is an error, never a rounding); into `f32` and `f64` it is the
//! nearest. A float64 read into a [`Number`](crate::Number) stays a float64, decimal
//! text stays decimal text (`"0.1"` is written back as `"0.1"`, not as a float64, as an
//! `f64` would be): use `Number` (or `BigDecimal`) where the bytes must come back as they
//! were.
//!
//! Written, a Rust value of another kind than its position holds (a number or a bool
//! where a string is wanted, a string where a number is) is converted as
//! [`msgpack::encode`](crate::msgpack::encode) converts the equivalent value; where no
//! conversion exists, that is the error.
//!
//! A struct field that the object type lacks is an error naming it (so that a typo
//! cannot read as a null), and so is an attribute the struct lacks under
//! `#[serde(deny_unknown_fields)]` (otherwise it is checked and skipped). Written, the
//! attributes a struct leaves out (`skip`, `skip_serializing_if`) are null.
//!
//! Unknowns exist only where [`Known<T>`] or [`Value`] can hold them: an unknown into
//! an `Option<T>` or a plain `T` is an error that names the path and says to use
//! `Known<T>`.
//!
//! ## Errors
//!
//! Errors are the codecs' [`Error`](crate::Error)s: a kind, the path
//! (`.disk[1].size`), and the byte offset (MessagePack) or line and column (JSON),
//! added as the error returns, so a decode that succeeds pays nothing for them. serde's
//! own messages take the crate's form: `.name: expected string, found integer`. A number
//! that an integer field cannot hold, beyond its range or not an integer, says the range:
//! `.size: expected u8 (an integer from 0 to 255), found 256`.
//!
//! ## How it reads and writes
//!
//! The bridge reads with the codecs' token readers and writes with their writers; no
//! rule has a second copy. Struct attributes go to serde's derived visitors as field
//! indexes, matched to the object type's attributes once per struct and type for the
//! whole decode, so no attribute name is compared as a string. A value that needs the
//! whole of itself before any part can be handed over is decoded by the codec into a
//! [`Value`] first (and made as one before it is written): a value at a `dynamic`
//! position (its type comes with it, or is inferred from all of it), a set not already
//! in go-cty's order (a set of strings that is, is read and written as it stands), and
//! a collection whose element type holds `dynamic` (its elements must share one type).
//!
//! ## Limits
//!
//! - Through serde's buffering (`#[serde(flatten)]`, untagged enums), values are seen
//!   without their type: an unknown there is an error, a number that is neither an
//!   integer nor exactly a float64 (decimal `0.1`) comes as its text, and a [`Value`]
//!   gets the plain form.
//! - `#[serde(alias)]` is not supported: serde lists aliases among a struct's fields,
//!   and the bridge finds fields by position in that list.
//! - Enum variants with fields other than newtype variants are not written.
//! - [`json::decode_as`](crate::json::decode_as) differs from `json::decode` where a
//!   struct cannot follow it: see there.

mod de;
mod handoff;
mod impls;
mod known;
mod ser;

/// [`Known<T>`](crate::Known), under its former path.
pub use crate::Known;

use ::serde::de::DeserializeOwned;
use ::serde::Serialize;

use crate::error::Result;
use crate::types::Type;
use crate::value::Value;

/// Reads a `T` from `value`, a value of type `ty`.
///
/// The value is read as it is (it need not have come from a decoder); the type gives
/// the types of its parts, and the attributes a struct must find.
///
/// ```
/// use ctywire::{serde::from_value, Known, Type, Value};
///
/// let ty: Type = "object({id=string, ports=list(number)})".parse()?;
/// let v = Value::object([("id", Value::unknown()), ("ports", Value::list([Value::from(80)]))]);
/// let (id, ports): (Known<String>, Vec<u16>) = {
///     #[derive(serde::Deserialize)]
///     struct S { id: Known<String>, ports: Vec<u16> }
///     let s: S = from_value(&v, &ty)?;
///     (s.id, s.ports)
/// };
/// assert!(id.is_unknown());
/// assert_eq!(ports, [80]);
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn from_value<T: DeserializeOwned>(value: &Value, ty: &Type) -> Result<T> {
    T::deserialize(de::value::ValueDe::new(value, ty))
}

/// `value` as a [`Value`] of type `ty`: what [`msgpack::encode_from`](crate::msgpack::encode_from)
/// and [`json::encode_from`](crate::json::encode_from) write is what the codecs write
/// for it.
///
/// ```
/// use ctywire::{serde::to_value, Type, Value};
///
/// let ty: Type = "set(string)".parse()?;
/// assert_eq!(to_value(&["b", "a", "b"], &ty)?, Value::set([Value::from("a"), Value::from("b")]));
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn to_value<T: Serialize + ?Sized>(value: &T, ty: &Type) -> Result<Value> {
    ser::to_value(value, ty)
}

pub(crate) fn msgpack_decode_as<'de, T: ::serde::Deserialize<'de>>(
    input: &'de [u8],
    ty: &Type,
) -> Result<T> {
    de::msgpack::decode_as(input, ty)
}

pub(crate) fn json_decode_as<'de, T: ::serde::Deserialize<'de>>(
    input: &'de [u8],
    ty: &Type,
) -> Result<T> {
    de::json::decode_as(input, ty)
}

pub(crate) fn msgpack_encode_from<T: Serialize + ?Sized>(value: &T, ty: &Type) -> Result<Vec<u8>> {
    let mut st = ser::State::new(ser::output::MsgpackOutput::default());
    ser::write(&mut st, value, ty)?;
    Ok(st.out.0)
}

pub(crate) fn json_encode_from<T: Serialize + ?Sized>(value: &T, ty: &Type) -> Result<Vec<u8>> {
    let mut st = ser::State::new(ser::output::JsonOutput::default());
    ser::write(&mut st, value, ty)?;
    Ok(st.out.0)
}

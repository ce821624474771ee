//! MessagePack: the plugin protocol's primary `DynamicValue` encoding.
//!
//! [`decode`] reads a payload with a type straight into a [`Value`], with no
//! intermediate tree; [`encode`] writes exactly the bytes go-cty >= 1.14.4 writes.
//!
//! ```
//! use ctywire::{msgpack, Type, Value};
//!
//! let ty = Type::object([("id", Type::String), ("size", Type::Number)]);
//! let bytes = [0x82, 0xa2, b'i', b'd', 0xd4, 0x00, 0x00, 0xa4, b's', b'i', b'z', b'e', 0x05];
//! let value = msgpack::decode(&bytes, &ty)?;
//! assert!(value["id"].is_unknown());
//! assert_eq!(value["size"].as_i64(), Some(5));
//! assert_eq!(msgpack::encode(&value, &ty)?, bytes);
//! # Ok::<(), ctywire::Error>(())
//! ```

pub(crate) mod decode;
pub(crate) mod encode;

use crate::error::Result;
use crate::implied::Wrappers;
use crate::path::Path;
use crate::types::Type;
use crate::value::Value;

/// Decodes a MessagePack payload holding one value of type `ty`.
///
/// Errors name the path of the offending value and its byte offset. Trailing bytes after
/// the value are an error.
///
/// ```
/// use ctywire::{msgpack, Type};
///
/// let ty: Type = "object({name=string, size=number})".parse()?;
/// // {"name": "web", "size": <unknown, not null>}: extension 12 carries refinements.
/// let bytes = b"\x82\xa4name\xa3web\xa4size\xc7\x03\x0c\x81\x01\xc2";
/// let value = msgpack::decode(bytes, &ty)?;
/// assert_eq!(value["name"].as_str(), Some("web"));
/// assert!(value["size"].refinements().unwrap().is_not_null());
///
/// let err = msgpack::decode(b"\x82\xa4name\x07\xa4size\x01", &ty).unwrap_err();
/// assert_eq!(err.to_string(), ".name: expected string, found integer at byte 6");
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn decode(input: &[u8], ty: &Type) -> Result<Value> {
    decode::decode(input, ty)
}

/// Encodes `value` as type `ty`.
///
/// A value that is not of type `ty` but converts to it is converted first, as go-cty's
/// `msgpack.Marshal` does ([`convert`](crate::convert::convert), with the value's own
/// type): a list where `ty` says set gives the set's bytes, a number where it says string
/// the number's text. The conversion is tried only once the value has failed to encode,
/// so values of type `ty` pay nothing for it. When no conversion exists, the error is the
/// encoder's own (`expected set, found map`, with the path).
///
/// ```
/// use ctywire::{msgpack, Type, Value};
///
/// let ty = Type::set(Type::String);
/// let list = Value::list([Value::from("b"), Value::from("a"), Value::from("b")]);
/// let set = Value::set([Value::from("a"), Value::from("b")]);
/// assert_eq!(msgpack::encode(&list, &ty)?, msgpack::encode(&set, &ty)?);
/// assert_eq!(msgpack::encode(&Value::from(12), &Type::String)?, b"\xa212");
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn encode(value: &Value, ty: &Type) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    encode_into(value, ty, &mut out)?;
    Ok(out)
}

/// Encodes `value` as type `ty`, appending to `out`; converts as [`encode`] does.
///
/// ```
/// use ctywire::{msgpack, Type, Value};
///
/// let mut out = Vec::with_capacity(64);
/// msgpack::encode_into(&Value::from("a"), &Type::String, &mut out)?;
/// msgpack::encode_into(&Value::unknown(), &Type::String, &mut out)?;
/// assert_eq!(out, b"\xa1a\xd4\x00\x00");
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn encode_into(value: &Value, ty: &Type, out: &mut Vec<u8>) -> Result<()> {
    let start = out.len();
    match encode::encode(value, ty, out) {
        Ok(()) => Ok(()),
        Err(err) => crate::convert::encode_converted(value, ty, out, start, err, encode::encode),
    }
}

/// Decodes a MessagePack payload of type `ty` straight into a `T` (a struct, a `Vec`,
/// a `HashMap`, a [`Known`](crate::Known), a [`Value`], ...), with no [`Value`] tree
/// in between; see [`ctywire::serde`](crate::serde) for what maps to what.
///
/// Errors are the decoder's (with the path and byte offset), and those of the Rust
/// type (a missing field, an integer out of range, an unknown where the type cannot
/// hold one).
///
/// ```
/// use ctywire::{msgpack, Type};
///
/// #[derive(serde::Deserialize)]
/// struct Disk {
///     size: u32,
///     kind: Option<String>,
/// }
///
/// let ty: Type = "object({size=number, kind=string})".parse()?;
/// let bytes = [0x82, 0xa4, b'k', b'i', b'n', b'd', 0xc0, 0xa4, b's', b'i', b'z', b'e', 0x0a];
/// let disk: Disk = msgpack::decode_as(&bytes, &ty)?;
/// assert_eq!((disk.size, disk.kind), (10, None));
///
/// let err = msgpack::decode_as::<Vec<u8>>(&[0x91, 0xcd, 0x01, 0x00], &"list(number)".parse()?)
///     .unwrap_err();
/// assert_eq!(err.to_string(), "[0]: expected u8 (an integer from 0 to 255), found 256 at byte 1");
/// # Ok::<(), ctywire::Error>(())
/// ```
#[cfg(feature = "serde")]
pub fn decode_as<'de, T: ::serde::Deserialize<'de>>(input: &'de [u8], ty: &Type) -> Result<T> {
    crate::serde::msgpack_decode_as(input, ty)
}

/// Encodes `value` as type `ty`: exactly the bytes [`encode`] writes for the value
/// [`ctywire::serde::to_value`](crate::serde::to_value) makes of it, with no [`Value`]
/// tree in between (except where the codec needs one: sets and `dynamic` positions).
///
/// ```
/// use std::collections::BTreeMap;
/// use ctywire::{msgpack, Type, Value};
///
/// #[derive(serde::Serialize)]
/// struct Bucket {
///     name: String,
///     tags: BTreeMap<String, String>,
/// }
///
/// let ty: Type = "object({name=string, tags=map(string)})".parse()?;
/// let bucket = Bucket { name: "logs".into(), tags: BTreeMap::from([("env".into(), "prod".into())]) };
/// let bytes = msgpack::encode_from(&bucket, &ty)?;
/// let value = Value::object([
///     ("name", Value::from("logs")),
///     ("tags", Value::map([("env", Value::from("prod"))])),
/// ]);
/// assert_eq!(bytes, msgpack::encode(&value, &ty)?);
/// # Ok::<(), ctywire::Error>(())
/// ```
#[cfg(feature = "serde")]
pub fn encode_from<T: ::serde::Serialize + ?Sized>(value: &T, ty: &Type) -> Result<Vec<u8>> {
    crate::serde::msgpack_encode_from(value, ty)
}

/// Decodes MessagePack bytes into a type that reads its own MessagePack
/// ([`MsgpackField`](crate::object::MsgpackField)): a struct with
/// `#[derive(ctywire::Object)]`, or any field type of one (a `Vec` of them, a map, ...). The typed codec reads straight into the struct, with no [`Value`] tree
/// (except in `dynamic` fields, which are [`Value`]s), and accepts and refuses what
/// [`decode`] with `T`'s cty type does, with the same paths.
///
/// For a type with serde's traits and no `MsgpackField`, [`decode_as`] with its cty type
/// goes through the serde bridge.
///
/// ```
/// # #[cfg(feature = "derive")] {
/// use ctywire::{msgpack, Known};
///
/// #[derive(ctywire::Object, Debug, PartialEq)]
/// struct Disk {
///     #[cty(required)]
///     size: u32,
///     #[cty(computed)]
///     id: Known<String>,
/// }
///
/// let disk = Disk { size: 10, id: Known::unknown() };
/// let bytes = msgpack::encode_object(&disk)?;
/// assert_eq!(bytes, b"\x82\xa2id\xd4\x00\x00\xa4size\x0a");
/// assert_eq!(msgpack::decode_object::<Disk>(&bytes)?, disk);
///
/// let err = msgpack::decode_object::<Disk>(b"\x82\xa2id\xc0\xa4size\xc3").unwrap_err();
/// assert_eq!(err.to_string(), ".size: expected number, found bool at byte 10");
/// # }
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn decode_object<T: crate::object::MsgpackField>(input: &[u8]) -> Result<T> {
    let mut r = crate::object::MsgpackReader::new(input);
    let value = T::decode_msgpack(&mut r, 0)?;
    r.finish()?;
    Ok(value)
}

/// Encodes a value of a type that writes its own MessagePack
/// ([`MsgpackField`](crate::object::MsgpackField): a derived struct, or any field type of
/// one): exactly the bytes [`encode`] writes
/// for the equivalent [`Value`] with `T`'s cty type, written straight from the struct
/// (see [`decode_object`] for an example). [`encode_from`] is the serde bridge's way.
pub fn encode_object<T: crate::object::MsgpackField>(value: &T) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    value.encode_msgpack(&mut out)?;
    Ok(out)
}

/// Checks that `input` is exactly one well-formed MessagePack item, whatever its type:
/// a cheap test of what a payload is before decoding it with a type.
///
/// ```
/// use ctywire::msgpack;
/// assert!(msgpack::check_syntax(&[0x92, 0xc4, 0x08]).is_err()); // truncated
/// assert!(msgpack::check_syntax(&[0x91, 0xa1, b'x']).is_ok());
/// ```
pub fn check_syntax(input: &[u8]) -> Result<()> {
    let mut r = crate::token::msgpack_read::Reader::new(input);
    r.skip(0)?;
    if !r.is_empty() {
        return Err(crate::Error::new(
            crate::ErrorKind::InvalidValue,
            format!(
                "expected end of input, found {} more bytes after the value",
                r.remaining()
            ),
        )
        .at_offset(r.offset()));
    }
    Ok(())
}

/// The type go-cty's `msgpack.ImpliedType` infers for an untyped payload: nil and
/// unknowns are `dynamic`, arrays are tuples, maps are objects.
///
/// ```
/// use ctywire::msgpack;
///
/// // {"a": 1, "b": nil, "c": ["x", true]}
/// let ty = msgpack::implied_type(b"\x83\xa1a\x01\xa1b\xc0\xa1c\x92\xa1x\xc3")?;
/// assert_eq!(ty.to_expr(), "object({a=number,b=any,c=tuple([string,bool])})");
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn implied_type(input: &[u8]) -> Result<Type> {
    decode::implied_type(input, None)
}

/// [`implied_type`], except that a dynamic value's wrapper — a two-element array whose
/// first element is binary data holding type JSON, as the encoder writes a value at a
/// `dynamic` position — is read as such: its position's type is `dynamic`, so that
/// decoding with the returned type reads the wrapped value with its own type. Gives
/// the type and the paths of the wrappers it read, in input order.
///
/// go-cty's `msgpack.ImpliedType` does not do this: it refuses binary data, so every
/// payload with a `dynamic` attribute has no implied type there. Reading wrappers
/// changes the meaning of nothing `implied_type` accepts. Binary data that does not hold
/// valid type JSON is still an error, and the wrapped value is only checked to be
/// well-formed (decoding it with the returned type checks the rest).
///
/// ```
/// use ctywire::{msgpack, Path, Type};
///
/// // {a = 1, d = <a dynamic value: the string "x">}
/// let bytes = b"\x82\xa1a\x01\xa1d\x92\xc4\x08\"string\"\xa1x";
/// assert!(msgpack::implied_type(bytes).is_err());
/// let (ty, wrappers) = msgpack::implied_type_reading_wrappers(bytes)?;
/// assert_eq!(ty.to_expr(), "object({a=number,d=any})");
/// assert_eq!(wrappers, [Path::root().attribute("d")]);
/// let value = msgpack::decode(bytes, &ty)?;
/// assert_eq!(value["d"].as_str(), Some("x"));
/// assert_eq!(msgpack::encode(&value, &ty)?, bytes);
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn implied_type_reading_wrappers(input: &[u8]) -> Result<(Type, Vec<Path>)> {
    let mut wrappers = Wrappers::default();
    let ty = decode::implied_type(input, Some(&mut wrappers))?;
    Ok((ty, wrappers.found))
}

//! The serde bridge: Rust types in and out of cty values, driven by a [`Type`].
//!
//! DOCS

mod de;
mod handoff;
mod impls;
mod known;
mod ser;

pub use known::Known;

use ::serde::de::DeserializeOwned;
use ::serde::Serialize;

use crate::error::Result;
use crate::types::Type;
use crate::value::Value;

/// Reads a `T` from `value`, a value of type `ty`.
pub fn from_value<T: DeserializeOwned>(value: &Value, ty: &Type) -> Result<T> {
    T::deserialize(de::value::ValueDe::new(value, ty))
}

/// `value` as a [`Value`] of type `ty`: what [`msgpack::encode_from`](crate::msgpack::encode_from)
/// and [`json::encode_from`](crate::json::encode_from) write is what the codecs write
/// for it.
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

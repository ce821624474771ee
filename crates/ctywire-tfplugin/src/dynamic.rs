//! `DynamicValue` to and from [`Value`]s and the provider's own Rust types.
//!
//! Terraform writes MessagePack; a `DynamicValue` holding only JSON is read as JSON (as
//! Terraform reads them), and an absent or empty one is null. Values are always written
//! as MessagePack. Errors are the codecs': a path into the value and a byte offset.
//!
//! ```
//! use ctywire::{Type, Value};
//! use ctywire_tfplugin::dynamic;
//! use ctywire_tfplugin::tfplugin6::DynamicValue;
//!
//! let ty: Type = "object({name=string, size=number})".parse()?;
//! let value = Value::object([("name", Value::from("a")), ("size", Value::from(2))]);
//! let dv: DynamicValue = dynamic::encode(&value, &ty)?;
//! assert_eq!(dynamic::decode(Some(&dv), &ty)?, value);
//!
//! // JSON when there is no MessagePack; null when there is neither.
//! let json = DynamicValue { msgpack: Default::default(), json: br#"{"name":"b","size":3}"#.to_vec().into() };
//! assert_eq!(dynamic::decode(Some(&json), &ty)?.at_path(&ctywire::Path::root().attribute("name")), Some(&Value::from("b")));
//! assert!(dynamic::decode::<DynamicValue>(None, &ty)?.is_null());
//!
//! // A value of another type is an error with its path.
//! let wrong = DynamicValue { msgpack: Default::default(), json: br#"{"name":"b","size":"x"}"#.to_vec().into() };
//! assert_eq!(dynamic::decode(Some(&wrong), &ty).unwrap_err().path().to_string(), ".size");
//!
//! // Typed, through the serde bridge.
//! #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
//! struct Thing { name: String, size: f64 }
//! let thing: Thing = dynamic::decode_as(Some(&dv), &ty)?;
//! assert_eq!(thing, Thing { name: "a".into(), size: 2.0 });
//! let back: DynamicValue = dynamic::encode_from(&thing, &ty)?;
//! assert_eq!(back, dv);
//!
//! // A type with ctywire's typed codec (a `#[derive(ctywire::Object)]` struct, or a
//! // field type of one): straight from and to the MessagePack bytes.
//! use std::collections::BTreeMap;
//! let tags: DynamicValue = dynamic::encode_object(&BTreeMap::from([("env".to_string(), "dev".to_string())]))?;
//! let back: Option<BTreeMap<String, String>> = dynamic::decode_object(Some(&tags))?;
//! assert_eq!(back.unwrap()["env"], "dev");
//! assert_eq!(dynamic::decode_object::<Option<String>, DynamicValue>(None)?, None);
//! let json = DynamicValue { msgpack: Default::default(), json: br#"{"env":["dev"]}"#.to_vec().into() };
//! let err = dynamic::decode_object::<BTreeMap<String, String>, _>(Some(&json)).unwrap_err();
//! assert_eq!(err.path().to_string(), r#"["env"]"#);
//! # Ok::<(), ctywire::Error>(())
//! ```

use ctywire::object::{JsonField, MsgpackField};
use ctywire::{json, msgpack, Error, Type, Value};

/// A `DynamicValue` message of either protocol version.
pub trait DynamicValueMessage: Sized {
    /// The MessagePack form (empty when absent).
    fn msgpack_bytes(&self) -> &[u8];
    /// The JSON form (empty when absent).
    fn json_bytes(&self) -> &[u8];
    /// A message holding `bytes` as MessagePack.
    fn from_msgpack(bytes: Vec<u8>) -> Self;
}

macro_rules! dynamic_value_message {
    ($module:ident) => {
        impl DynamicValueMessage for crate::$module::DynamicValue {
            fn msgpack_bytes(&self) -> &[u8] {
                &self.msgpack
            }
            fn json_bytes(&self) -> &[u8] {
                &self.json
            }
            fn from_msgpack(bytes: Vec<u8>) -> Self {
                crate::$module::DynamicValue {
                    msgpack: bytes.into(),
                    json: Default::default(),
                }
            }
        }
    };
}
dynamic_value_message!(tfplugin6);
dynamic_value_message!(tfplugin5);

/// MessagePack's nil: what an absent value decodes as.
const NIL: &[u8] = &[0xc0];

/// The value `dv` holds, of type `ty`: MessagePack when it has some, else JSON, else null.
pub fn decode<D: DynamicValueMessage>(dv: Option<&D>, ty: &Type) -> Result<Value, Error> {
    match dv {
        Some(dv) if !dv.msgpack_bytes().is_empty() => msgpack::decode(dv.msgpack_bytes(), ty),
        Some(dv) if !dv.json_bytes().is_empty() => json::decode(dv.json_bytes(), ty),
        _ => Ok(Value::Null),
    }
}

/// `value`, of type `ty`, as a MessagePack `DynamicValue`.
pub fn encode<D: DynamicValueMessage>(value: &Value, ty: &Type) -> Result<D, Error> {
    msgpack::encode(value, ty).map(D::from_msgpack)
}

/// The value `dv` holds, of type `ty`, as a `T` (the serde bridge: see
/// [`ctywire::msgpack::decode_as`]); an absent or empty value is null.
pub fn decode_as<'a, T: serde::Deserialize<'a>, D: DynamicValueMessage>(
    dv: Option<&'a D>,
    ty: &Type,
) -> Result<T, Error> {
    match dv {
        Some(dv) if !dv.msgpack_bytes().is_empty() => msgpack::decode_as(dv.msgpack_bytes(), ty),
        Some(dv) if !dv.json_bytes().is_empty() => json::decode_as(dv.json_bytes(), ty),
        _ => msgpack::decode_as(NIL, ty),
    }
}

/// `value` as a MessagePack `DynamicValue` of type `ty` (the serde bridge: see
/// [`ctywire::msgpack::encode_from`]).
pub fn encode_from<T: serde::Serialize + ?Sized, D: DynamicValueMessage>(
    value: &T,
    ty: &Type,
) -> Result<D, Error> {
    msgpack::encode_from(value, ty).map(D::from_msgpack)
}

/// The value `dv` holds as a `T` with ctywire's typed codecs (a
/// `#[derive(ctywire::Object)]` struct, or any field type of one: see
/// [`ctywire::msgpack::decode_object`] and [`ctywire::json::decode_object`]); an absent
/// or empty value is null (an `Option`'s `None`, or an error for a `T` that cannot be
/// null).
pub fn decode_object<T: JsonField, D: DynamicValueMessage>(dv: Option<&D>) -> Result<T, Error> {
    match dv {
        Some(dv) if !dv.msgpack_bytes().is_empty() => msgpack::decode_object(dv.msgpack_bytes()),
        Some(dv) if !dv.json_bytes().is_empty() => json::decode_object(dv.json_bytes()),
        _ => msgpack::decode_object(NIL),
    }
}

/// `value` as a MessagePack `DynamicValue` of `T`'s cty type, written by ctywire's typed
/// codec (see [`ctywire::msgpack::encode_object`]).
pub fn encode_object<T: MsgpackField, D: DynamicValueMessage>(value: &T) -> Result<D, Error> {
    msgpack::encode_object(value).map(D::from_msgpack)
}

//! JSON: the plugin protocol's secondary `DynamicValue` encoding.
//!
//! Terraform reads a provider's response as JSON when its `msgpack` field is empty, and
//! `UpgradeResourceState` hands providers their old state as JSON. [`decode`] keeps
//! go-cty's leniency (missing attributes are null, numbers and bools may come as
//! strings, number text is kept exactly); [`encode`] writes go-cty's bytes, escaping
//! included.
//!
//! ```
//! use ctywire::{json, Type, Value};
//!
//! let ty = Type::object([("name", Type::String), ("port", Type::Number), ("tls", Type::Bool)]);
//! let value = json::decode(br#"{"port": "443", "name": "a<b"}"#, &ty)?;
//! assert_eq!(value["port"].as_i64(), Some(443));
//! assert!(value["tls"].is_null());
//! assert_eq!(json::encode(&value, &ty)?, br#"{"name":"a\u003cb","port":443,"tls":null}"#);
//! # Ok::<(), ctywire::Error>(())
//! ```

pub(crate) mod decode;
pub(crate) mod encode;

pub(crate) use decode::with_line_column;
pub use decode::DecodeOptions;

use crate::error::Result;
use crate::implied::Wrappers;
use crate::path::Path;
use crate::types::Type;
use crate::value::Value;

/// Decodes JSON text holding one value of type `ty`.
///
/// Errors name the path of the offending value and its line and column. Text after the
/// value is an error.
///
/// ```
/// use ctywire::{json, Type};
///
/// let ty: Type = "object({name=string, dynamic_value=any})".parse()?;
/// let value = json::decode(br#"{"name": "web", "dynamic_value": {"value": [1], "type": ["list", "number"]}}"#, &ty)?;
/// assert_eq!(value["name"].as_str(), Some("web"));
/// assert_eq!(value["dynamic_value"].recorded_type(), Some(&Type::list(Type::Number)));
///
/// let err = json::decode(b"{\n  \"name\": [1]\n}", &ty).unwrap_err();
/// assert_eq!(err.to_string(), ".name: expected string, found array at line 2 column 11");
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn decode(input: &[u8], ty: &Type) -> Result<Value> {
    decode::decode(input, ty, &DecodeOptions::default())
}

/// [`decode`] with options.
///
/// ```
/// use ctywire::{json, json::DecodeOptions, Type};
///
/// let ty = Type::object([("name", Type::String)]);
/// let old_state = br#"{"name": "x", "removed_attribute": [1, 2]}"#;
/// assert!(json::decode(old_state, &ty).is_err());
/// let options = DecodeOptions::new().ignore_undefined_attributes(true);
/// let value = json::decode_with(old_state, &ty, &options)?;
/// assert_eq!(value["name"].as_str(), Some("x"));
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn decode_with(input: &[u8], ty: &Type, options: &DecodeOptions) -> Result<Value> {
    decode::decode(input, ty, options)
}

/// Encodes `value` as type `ty`. Unknown values and infinities cannot be written as JSON
/// and give an error naming their path.
///
/// A value that is not of type `ty` but converts to it is converted first, as go-cty's
/// `json.Marshal` does: see [`msgpack::encode`](crate::msgpack::encode).
///
/// ```
/// use ctywire::{json, Type, Value};
///
/// let ty = Type::map(Type::String);
/// let v = Value::object([("port", Value::from(443)), ("tls", Value::from(true))]);
/// assert_eq!(json::encode(&v, &ty)?, br#"{"port":"443","tls":"true"}"#);
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
/// use ctywire::{json, Type, Value};
///
/// let mut out = b"payload: ".to_vec();
/// json::encode_into(&Value::list([Value::from("a")]), &Type::list(Type::String), &mut out)?;
/// assert_eq!(out, br#"payload: ["a"]"#);
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn encode_into(value: &Value, ty: &Type, out: &mut Vec<u8>) -> Result<()> {
    let start = out.len();
    match encode::encode(value, ty, out) {
        Ok(()) => Ok(()),
        Err(err) => crate::convert::encode_converted(value, ty, out, start, err, encode::encode),
    }
}

/// Decodes JSON text of type `ty` straight into a `T`, with no [`Value`] tree in
/// between; see [`ctywire::serde`](crate::serde) for what maps to what.
///
/// The decoder's leniency holds (numbers and bools may come as strings). Two things
/// differ from [`decode`]: an attribute the input leaves out is left to serde (an
/// `Option` or [`Known`](crate::Known) field is then null, a `#[serde(default)]` field
/// takes its default, any other field is an error), and an attribute given twice is an
/// error rather than the last one winning.
///
/// ```
/// use ctywire::{json, Type};
///
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Port {
///     number: u16,
///     protocol: Option<String>,
/// }
///
/// let ty: Type = "list(object({number=number, protocol=string}))".parse()?;
/// let ports: Vec<Port> = json::decode_as(br#"[{"number": "443"}, {"number": 80, "protocol": "tcp"}]"#, &ty)?;
/// assert_eq!(ports[0], Port { number: 443, protocol: None });
/// let err = json::decode_as::<Vec<Port>>(br#"[{"number": 1.5}]"#, &ty).unwrap_err();
/// assert_eq!(err.to_string(), "[0].number: expected u16 (an integer from 0 to 65535), found 1.5 at line 1 column 13");
/// # Ok::<(), ctywire::Error>(())
/// ```
#[cfg(feature = "serde")]
pub fn decode_as<'de, T: ::serde::Deserialize<'de>>(input: &'de [u8], ty: &Type) -> Result<T> {
    crate::serde::json_decode_as(input, ty)
}

/// Encodes `value` as JSON of type `ty`: exactly the text [`encode`] writes for the
/// value [`ctywire::serde::to_value`](crate::serde::to_value) makes of it.
///
/// ```
/// use ctywire::{json, Type};
///
/// #[derive(serde::Serialize)]
/// struct Rule {
///     protocol: String,
///     port: u16,
/// }
///
/// let ty: Type = "set(object({port=number, protocol=string}))".parse()?;
/// let rules = [Rule { protocol: "tcp".into(), port: 443 }, Rule { protocol: "tcp".into(), port: 80 }];
/// // Attributes in name order, set elements in go-cty's order.
/// assert_eq!(
///     json::encode_from(&rules, &ty)?,
///     br#"[{"port":443,"protocol":"tcp"},{"port":80,"protocol":"tcp"}]"#
/// );
/// # Ok::<(), ctywire::Error>(())
/// ```
#[cfg(feature = "serde")]
pub fn encode_from<T: ::serde::Serialize + ?Sized>(value: &T, ty: &Type) -> Result<Vec<u8>> {
    crate::serde::json_encode_from(value, ty)
}

/// Decodes JSON text into a type that reads its own JSON
/// ([`JsonField`](crate::object::JsonField): a `#[derive(ctywire::Object)]` struct, or
/// any field type of one), straight from the text with the typed codec the derive
/// generates, no [`Value`] tree in between (but in `dynamic` fields).
///
/// It reads what [`decode`] reads with `T`'s cty type, converted: go-cty's leniency
/// (numbers and bools may come as strings), an attribute the input leaves out is null
/// (an error for a field that cannot hold null: an `Option` or [`Known`](crate::Known)
/// field is null), an attribute given twice keeps its last value; the same errors, with
/// the path and the line and column. [`decode_as`] is the serde bridge's way.
///
/// ```
/// # #[cfg(feature = "derive")] {
/// use ctywire::json;
///
/// #[derive(ctywire::Object, Debug, PartialEq)]
/// struct Disk {
///     #[cty(required)]
///     size: u32,
///     #[cty(optional)]
///     label: Option<String>,
/// }
///
/// let disk: Disk = json::decode_object(br#"{"size": "10"}"#)?;
/// assert_eq!(disk, Disk { size: 10, label: None });
/// assert_eq!(json::encode_object(&disk)?, br#"{"label":null,"size":10}"#);
///
/// let err = json::decode_object::<Vec<Disk>>(b"[\n  {\"size\": true}\n]").unwrap_err();
/// assert_eq!(err.to_string(), "[0].size: expected number, found bool at line 2 column 12");
/// # }
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn decode_object<T: crate::object::JsonField>(input: &[u8]) -> Result<T> {
    let mut r = crate::object::JsonReader::new(input);
    match T::decode_json(&mut r, 0).and_then(|v| r.finish().map(|()| v)) {
        Ok(v) => Ok(v),
        // Where the value decoder fails too, its error is the one: the typed reader stops
        // at the first value the Rust type cannot hold, which may come before the fault
        // the value decoder finds.
        Err(e) => match decode::decode(input, &T::cty_type(), &DecodeOptions::default()) {
            Err(value_error) => Err(value_error),
            Ok(_) => Err(decode::with_line_column(e, input)),
        },
    }
}

/// Encodes a value of a type that writes its own JSON
/// ([`JsonField`](crate::object::JsonField): a derived struct, or any field type of
/// one): exactly the text [`encode`] writes for the equivalent [`Value`] with `T`'s cty
/// type, written straight from the struct (see [`decode_object`] for an example). An
/// unknown ([`Known::Unknown`](crate::Known::Unknown)) cannot be written as JSON: the
/// error names its path. [`encode_from`] is the serde bridge's way.
pub fn encode_object<T: crate::object::JsonField>(value: &T) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    value.encode_json(&mut out)?;
    Ok(out)
}

/// Checks that `input` is exactly one well-formed JSON value, whatever its type.
///
/// ```
/// use ctywire::json;
/// assert!(json::check_syntax(br#"{"a": [1, 2]}"#).is_ok());
/// assert!(json::check_syntax(b"[1, 2").is_err());
/// ```
pub fn check_syntax(input: &[u8]) -> Result<()> {
    let mut r = crate::token::json_read::Reader::new(input);
    r.skip_value()
        .and_then(|()| r.finish())
        .map_err(|e| decode::with_line_column(e, input))
}

/// The type go-cty's `json.ImpliedType` infers for untyped JSON: null is `dynamic`,
/// arrays are tuples, objects are objects.
///
/// ```
/// use ctywire::json;
///
/// let ty = json::implied_type(br#"{"id": "i-1", "ports": [80, "http"], "spare": null}"#)?;
/// assert_eq!(ty.to_expr(), "object({id=string,ports=tuple([number,string]),spare=any})");
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn implied_type(input: &[u8]) -> Result<Type> {
    decode::implied_type(input, None)
}

/// [`implied_type`], except that an object that is a dynamic value's wrapper —
/// exactly the members `"value"` and `"type"`, the type valid type JSON and the value
/// one that decodes with it, as the encoder writes a value at a `dynamic` position — is
/// read as such: its position's type is `dynamic`, so that decoding with the returned
/// type reads the wrapped value with its own type. Gives the type and the paths of the
/// wrappers it read, in input order.
///
/// go-cty's `json.ImpliedType` does not do this, and unlike its MessagePack
/// counterpart ([`msgpack::implied_type_reading_wrappers`](crate::msgpack::implied_type_reading_wrappers))
/// this reading is a guess: an object attribute of type
/// `object({type=string, value=string})` holding `{"type": "string", "value": "x"}`
/// reads as the string `"x"`. Show the paths to whoever must judge, or give the type.
///
/// ```
/// use ctywire::{json, Path};
///
/// let text = br#"{"a": 1, "d": {"value": ["x", 2], "type": ["tuple", ["string", "number"]]}}"#;
/// assert_eq!(json::implied_type(text)?.to_expr(), "object({a=number,d=object({type=tuple([string,tuple([string,string])]),value=tuple([string,number])})})");
/// let (ty, wrappers) = json::implied_type_reading_wrappers(text)?;
/// assert_eq!(ty.to_expr(), "object({a=number,d=any})");
/// assert_eq!(wrappers, [Path::root().attribute("d")]);
/// let value = json::decode(text, &ty)?;
/// assert_eq!(value["d"][0].as_str(), Some("x"));
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn implied_type_reading_wrappers(input: &[u8]) -> Result<(Type, Vec<Path>)> {
    let mut wrappers = Wrappers::default();
    let ty = decode::implied_type(input, Some(&mut wrappers))?;
    Ok((ty, wrappers.found))
}

/// Decodes untyped JSON with its implied type, as go-cty's `SimpleJSONValue` does.
///
/// ```
/// use ctywire::json;
///
/// let (ty, value) = json::decode_implied(br#"{"tags": {"env": "prod"}}"#)?;
/// assert_eq!(ty.to_expr(), "object({tags=object({env=string})})");
/// assert_eq!(value["tags"]["env"].as_str(), Some("prod"));
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn decode_implied(input: &[u8]) -> Result<(Type, Value)> {
    let ty = implied_type(input)?;
    let value = decode(input, &ty)?;
    Ok((ty, value))
}

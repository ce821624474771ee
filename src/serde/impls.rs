//! serde impls of the crate's own types: [`Error`] as serde's error type, and
//! `Serialize` / `Deserialize` for [`Value`] and [`Number`].
//!
//! Through the bridge a `Value` or a `Number` is handed over whole (see
//! [`handoff`](super::handoff)), so it keeps everything cty knows. Any other serde
//! format sees plain forms: null, bools, numbers (integers, float64s, and other
//! decimals as their exact text), strings, sequences for lists, sets and tuples, and
//! maps for maps and objects; an unknown value has no such form and is an error.
//! Deserialized from another format, a sequence becomes a tuple and a map an object,
//! as go-cty's implied types of JSON have them.

use std::fmt;

use ::serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use ::serde::ser::{self, Serialize, SerializeMap, SerializeSeq, Serializer};

use super::handoff::{self, NUMBER_TOKEN, VALUE_TOKEN};
use crate::error::{Error, ErrorKind};
use crate::value::{Number, Value};

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Error {
        Error::new(ErrorKind::InvalidValue, msg.to_string())
    }

    fn invalid_type(unexpected: de::Unexpected<'_>, expected: &dyn de::Expected) -> Error {
        Error::mismatch(expected, unexpected)
    }

    fn invalid_value(unexpected: de::Unexpected<'_>, expected: &dyn de::Expected) -> Error {
        Error::new(
            ErrorKind::InvalidValue,
            format!("expected {expected}, found {unexpected}"),
        )
    }

    fn invalid_length(len: usize, expected: &dyn de::Expected) -> Error {
        Error::new(
            ErrorKind::InvalidValue,
            format!("expected {expected}, found {len} elements"),
        )
    }

    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Error {
        Error::new(
            ErrorKind::InvalidValue,
            format!("attribute {field:?} has no field in the struct (fields: {expected:?})"),
        )
    }

    fn missing_field(field: &'static str) -> Error {
        Error::new(
            ErrorKind::InvalidValue,
            format!("missing attribute {field:?}"),
        )
    }
}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Error {
        Error::new(ErrorKind::Unencodable, msg.to_string())
    }
}

/// The error for an unknown value where the Rust type cannot hold one.
pub(crate) fn unknown_error() -> Error {
    Error::new(
        ErrorKind::TypeMismatch,
        "expected a known value, found an unknown one (a value that may be unknown needs ctywire::Known<T>)",
    )
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_newtype_struct(VALUE_TOKEN, &Offer::Value(self))
    }
}

impl Serialize for Number {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_newtype_struct(VALUE_TOKEN, &Offer::Number(self))
    }
}

/// What `Value` and `Number` serialize inside their newtype: the whole value for the
/// bridge, the plain form for any other serializer.
enum Offer<'a> {
    Value(&'a Value),
    Number(&'a Number),
}

impl Serialize for Offer<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if handoff::wanted() {
            handoff::give(match self {
                Offer::Value(v) => (*v).clone(),
                Offer::Number(n) => Value::Number((*n).clone()),
            });
            return serializer.serialize_unit();
        }
        match self {
            Offer::Value(v) => plain_value(v, serializer),
            Offer::Number(n) => plain_number(n, serializer),
        }
    }
}

fn plain_number<S: Serializer>(n: &Number, serializer: S) -> Result<S::Ok, S::Error> {
    if let Some(i) = n.to_i64() {
        serializer.serialize_i64(i)
    } else if let Some(u) = n.to_u64() {
        serializer.serialize_u64(u)
    } else if n.is_float_origin() || n.is_infinite() {
        serializer.serialize_f64(n.to_f64())
    } else {
        serializer.collect_str(n)
    }
}

fn plain_value<S: Serializer>(v: &Value, serializer: S) -> Result<S::Ok, S::Error> {
    match v {
        Value::Null => serializer.serialize_unit(),
        Value::Unknown(_) => Err(ser::Error::custom(
            "an unknown value has no form outside ctywire's own formats",
        )),
        Value::Bool(b) => serializer.serialize_bool(*b),
        Value::Number(n) => plain_number(n, serializer),
        Value::String(s) => serializer.serialize_str(s),
        Value::List(vs) | Value::Tuple(vs) => plain_seq(vs, serializer),
        Value::Set(s) => plain_seq(s.as_slice(), serializer),
        Value::Map(m) => plain_map(m.iter(), serializer),
        Value::Object(o) => plain_map(o.iter(), serializer),
        Value::Typed(t) => plain_value(&t.value, serializer),
    }
}

fn plain_seq<S: Serializer>(vs: &[Value], serializer: S) -> Result<S::Ok, S::Error> {
    let mut seq = serializer.serialize_seq(Some(vs.len()))?;
    for v in vs {
        seq.serialize_element(&Plain(v))?;
    }
    seq.end()
}

fn plain_map<'v, S: Serializer>(
    entries: impl ExactSizeIterator<Item = (&'v str, &'v Value)>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(Some(entries.len()))?;
    for (k, v) in entries {
        map.serialize_entry(k, &Plain(v))?;
    }
    map.end()
}

/// A value in its plain form, inside a plain sequence or map.
struct Plain<'a>(&'a Value);

impl Serialize for Plain<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        plain_value(self.0, serializer)
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_newtype_struct(VALUE_TOKEN, ValueVisitor)
    }
}

/// Takes a value handed over by the bridge (`visit_unit`), or reads a plain one.
struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a cty value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(handoff::take().unwrap_or(Value::Null))
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E: de::Error>(self, i: i64) -> Result<Value, E> {
        Ok(Value::from(i))
    }

    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Value, E> {
        Ok(Value::from(u))
    }

    fn visit_i128<E: de::Error>(self, i: i128) -> Result<Value, E> {
        NumberVisitor.visit_i128(i).map(Value::Number)
    }

    fn visit_u128<E: de::Error>(self, u: u128) -> Result<Value, E> {
        NumberVisitor.visit_u128(u).map(Value::Number)
    }

    fn visit_f64<E: de::Error>(self, f: f64) -> Result<Value, E> {
        NumberVisitor.visit_f64(f).map(Value::Number)
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Value, E> {
        Ok(Value::string(s))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Value, E> {
        Ok(Value::from(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut elements = Vec::new();
        while let Some(v) = seq.next_element_seed(PlainSeed)? {
            elements.push(v);
        }
        Ok(Value::tuple(elements))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut attributes: Vec<(String, Value)> = Vec::new();
        while let Some(k) = map.next_key::<String>()? {
            attributes.push((k, map.next_value_seed(PlainSeed)?));
        }
        Ok(Value::object(attributes))
    }
}

/// A plain value inside a plain sequence or map: read with `deserialize_any`.
struct PlainSeed;

impl<'de> de::DeserializeSeed<'de> for PlainSeed {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Number, D::Error> {
        deserializer.deserialize_newtype_struct(NUMBER_TOKEN, NumberVisitor)
    }
}

/// Takes a number handed over by the bridge, or reads an integer, a float64 (which
/// keeps its float64 origin) or number text (exactly).
struct NumberVisitor;

impl<'de> Visitor<'de> for NumberVisitor {
    type Value = Number;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Number, E> {
        match handoff::take() {
            Some(Value::Number(n)) => Ok(n),
            _ => Err(E::invalid_type(de::Unexpected::Unit, &self)),
        }
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Number, D::Error> {
        d.deserialize_any(NumberVisitor)
    }

    fn visit_i64<E: de::Error>(self, i: i64) -> Result<Number, E> {
        Ok(Number::from(i))
    }

    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Number, E> {
        Ok(Number::from(u))
    }

    fn visit_i128<E: de::Error>(self, i: i128) -> Result<Number, E> {
        self.visit_str(&i.to_string())
    }

    fn visit_u128<E: de::Error>(self, u: u128) -> Result<Number, E> {
        self.visit_str(&u.to_string())
    }

    fn visit_f64<E: de::Error>(self, f: f64) -> Result<Number, E> {
        Number::from_f64(f).ok_or_else(|| E::custom("NaN is not a number"))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Number, E> {
        s.parse().map_err(E::custom)
    }

    /// serde_json's form of a number with its `arbitrary_precision` feature.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Number, A::Error> {
        match map.next_key::<String>()?.as_deref() {
            Some("$serde_json::private::Number") => {
                let text: String = map.next_value()?;
                self.visit_str(&text)
            }
            _ => Err(de::Error::invalid_type(de::Unexpected::Map, &self)),
        }
    }
}

//! The serde forms of [`Known<T>`]: null, an unknown (handed over by the bridge) or a
//! known value.

use std::fmt;
use std::marker::PhantomData;

use ::serde::de::{self, Deserialize, Deserializer, Visitor};
use ::serde::ser::{Serialize, Serializer};

use super::handoff::{self, KNOWN_TOKEN};
use crate::value::Value;
use crate::Known;

impl<T: Serialize> Serialize for Known<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Known::Null => serializer.serialize_none(),
            Known::Unknown(r) => Value::Unknown(r.clone()).serialize(serializer),
            Known::Known(v) => serializer.serialize_some(v),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Known<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Known<T>, D::Error> {
        deserializer.deserialize_option(KnownVisitor(PhantomData))
    }
}

/// Null, or something that the bridge says is unknown or known.
struct KnownVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for KnownVisitor<T> {
    type Value = Known<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("null, an unknown or a known value")
    }

    fn visit_none<E: de::Error>(self) -> Result<Known<T>, E> {
        Ok(Known::Null)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Known<T>, E> {
        Ok(Known::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Known<T>, D::Error> {
        d.deserialize_newtype_struct(KNOWN_TOKEN, NotNullVisitor(PhantomData))
    }
}

/// Unknown (handed over by the bridge) or known.
struct NotNullVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for NotNullVisitor<T> {
    type Value = Known<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an unknown or a known value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Known<T>, E> {
        match handoff::take() {
            Some(Value::Unknown(r)) => Ok(Known::Unknown(r)),
            // An unknown whose refinements say it is null.
            Some(Value::Null) => Ok(Known::Null),
            _ => T::deserialize(de::value::UnitDeserializer::new()).map(Known::Known),
        }
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Known<T>, D::Error> {
        T::deserialize(d).map(Known::Known)
    }
}

//! Map keys: strings (NFC-normalized), or what serde writes as one (a char, an integer,
//! a bool, a unit enum variant, a newtype around one).

use ::serde::ser::{self, Impossible, Serialize};

use crate::error::{Error, ErrorKind, Result};
use crate::text;
use crate::value::Str;

/// The text of map key `key`, NFC-normalized.
pub(crate) fn text<T: Serialize + ?Sized>(key: &T) -> Result<Str> {
    key.serialize(KeySerializer {
        strings_only: false,
    })
}

/// The text of `value` if it is a string (or a char), NFC-normalized.
pub(crate) fn string<T: Serialize + ?Sized>(value: &T) -> Result<Str> {
    value.serialize(KeySerializer { strings_only: true })
}

/// Map keys, or (`strings_only`) strings alone.
struct KeySerializer {
    strings_only: bool,
}

fn not_a_key(what: &str) -> Error {
    Error::new(
        ErrorKind::Unencodable,
        format!("expected a string map key, found {what}"),
    )
}

macro_rules! key_by_display {
    ($($method:ident: $t:ty),*) => {$(
        fn $method(self, v: $t) -> Result<Str> {
            if self.strings_only {
                return Err(not_a_key(stringify!($t)));
            }
            Ok(Str::from(v.to_string()))
        }
    )*};
}

impl ser::Serializer for KeySerializer {
    type Ok = Str;
    type Error = Error;
    type SerializeSeq = Impossible<Str, Error>;
    type SerializeTuple = Impossible<Str, Error>;
    type SerializeTupleStruct = Impossible<Str, Error>;
    type SerializeTupleVariant = Impossible<Str, Error>;
    type SerializeMap = Impossible<Str, Error>;
    type SerializeStruct = Impossible<Str, Error>;
    type SerializeStructVariant = Impossible<Str, Error>;

    key_by_display!(
        serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_i128: i128, serialize_u8: u8, serialize_u16: u16,
        serialize_u32: u32, serialize_u64: u64, serialize_u128: u128
    );

    fn serialize_char(self, v: char) -> Result<Str> {
        Ok(Str::from(v.encode_utf8(&mut [0; 4]) as &str))
    }

    fn serialize_str(self, v: &str) -> Result<Str> {
        Ok(Str::from(text::nfc(v)))
    }

    fn serialize_f32(self, _: f32) -> Result<Str> {
        Err(not_a_key("a float"))
    }

    fn serialize_f64(self, _: f64) -> Result<Str> {
        Err(not_a_key("a float"))
    }

    fn serialize_bytes(self, _: &[u8]) -> Result<Str> {
        Err(not_a_key("bytes"))
    }

    fn serialize_none(self) -> Result<Str> {
        Err(not_a_key("null"))
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Str> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<Str> {
        Err(not_a_key("null"))
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<Str> {
        Err(not_a_key("null"))
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<Str> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<Str> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Str> {
        Err(not_a_key("an enum variant with a value"))
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(not_a_key("a sequence"))
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        Err(not_a_key("a tuple"))
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(not_a_key("a tuple"))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(not_a_key("an enum variant with fields"))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        Err(not_a_key("a map"))
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Err(not_a_key("a struct"))
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(not_a_key("an enum variant with fields"))
    }
}

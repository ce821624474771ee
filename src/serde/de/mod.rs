//! Decoding into Rust types: serde `Deserializer`s driven by a [`Type`], over
//! MessagePack bytes ([`msgpack`]), JSON text ([`json`]) and [`Value`]s ([`value`]).
//!
//! They read with the codecs' own readers and decode functions, so every rule (NFC,
//! number text, set order and equality, refinements, the depth and size limits, the
//! errors) is the codecs'. A value that needs the whole of itself before any part can
//! be handed over is decoded by the codec into a [`Value`] first and then read from it:
//! a value at a `dynamic` position (its type comes with it), a set (its order and
//! equality), and a collection whose element type holds `dynamic` (its elements must
//! share one type). Everything else goes straight from the bytes into the Rust value.

pub(crate) mod json;
pub(crate) mod msgpack;
pub(crate) mod value;

use std::fmt;

use ::serde::de::{self, Visitor};

use crate::error::{Error, ErrorKind, Result};
use crate::types::{ObjectType, Type};
use crate::value::Number;

/// What the Rust type asked for: the `deserialize_*` method called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Hint {
    Any,
    Bool,
    Int(IntKind),
    Float,
    Str,
    Bytes,
    Option,
    Unit,
    Seq,
    Map,
    Newtype(&'static str),
    Struct(&'static [&'static str]),
    Enum,
    Ignored,
}

/// The integer types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IntKind {
    I8,
    I16,
    I32,
    I64,
    I128,
    U8,
    U16,
    U32,
    U64,
    U128,
}

impl IntKind {
    /// The least and the greatest value of the type.
    fn bounds(self) -> (i128, u128) {
        match self {
            IntKind::I8 => (i8::MIN.into(), i8::MAX as u128),
            IntKind::I16 => (i16::MIN.into(), i16::MAX as u128),
            IntKind::I32 => (i32::MIN.into(), i32::MAX as u128),
            IntKind::I64 => (i64::MIN.into(), i64::MAX as u128),
            IntKind::I128 => (i128::MIN, i128::MAX as u128),
            IntKind::U8 => (0, u8::MAX.into()),
            IntKind::U16 => (0, u16::MAX.into()),
            IntKind::U32 => (0, u32::MAX.into()),
            IntKind::U64 => (0, u64::MAX.into()),
            IntKind::U128 => (0, u128::MAX),
        }
    }

    /// Whether the type holds `i`.
    #[inline]
    fn holds(self, i: i128) -> bool {
        let (least, greatest) = self.bounds();
        i >= least && u128::try_from(i).map_or(true, |u| u <= greatest)
    }

    /// The error for a number the type does not hold (beyond its range, or not an
    /// integer): `expected u8 (an integer from 0 to 255), found 256`.
    #[cold]
    fn range_error(self, found: &dyn fmt::Display) -> Error {
        let (least, greatest) = self.bounds();
        Error::integer_range(self.name(), least, greatest, found)
    }

    fn name(self) -> &'static str {
        match self {
            IntKind::I8 => "i8",
            IntKind::I16 => "i16",
            IntKind::I32 => "i32",
            IntKind::I64 => "i64",
            IntKind::I128 => "i128",
            IntKind::U8 => "u8",
            IntKind::U16 => "u16",
            IntKind::U32 => "u32",
            IntKind::U64 => "u64",
            IntKind::U128 => "u128",
        }
    }
}

/// Implements serde's `deserialize_*` methods by calling `self.deserialize_hint`, or,
/// for the primitive types, `self.leaf` (a deserializer's fast paths, or
/// `deserialize_hint` again).
macro_rules! deserialize_by_hint {
    () => {
        deserialize_by_hint! {
            leaf:
            deserialize_bool => Hint::Bool,
            deserialize_i8 => Hint::Int(IntKind::I8),
            deserialize_i16 => Hint::Int(IntKind::I16),
            deserialize_i32 => Hint::Int(IntKind::I32),
            deserialize_i64 => Hint::Int(IntKind::I64),
            deserialize_i128 => Hint::Int(IntKind::I128),
            deserialize_u8 => Hint::Int(IntKind::U8),
            deserialize_u16 => Hint::Int(IntKind::U16),
            deserialize_u32 => Hint::Int(IntKind::U32),
            deserialize_u64 => Hint::Int(IntKind::U64),
            deserialize_u128 => Hint::Int(IntKind::U128),
            deserialize_f32 => Hint::Float,
            deserialize_f64 => Hint::Float,
            deserialize_char => Hint::Str,
            deserialize_str => Hint::Str,
            deserialize_string => Hint::Str,
        }
        deserialize_by_hint! {
            deserialize_hint:
            deserialize_any => Hint::Any,
            deserialize_identifier => Hint::Str,
            deserialize_bytes => Hint::Bytes,
            deserialize_byte_buf => Hint::Bytes,
            deserialize_option => Hint::Option,
            deserialize_unit => Hint::Unit,
            deserialize_seq => Hint::Seq,
            deserialize_map => Hint::Map,
            deserialize_ignored_any => Hint::Ignored,
        }

        #[inline]
        fn deserialize_unit_struct<V: ::serde::de::Visitor<'de>>(
            self,
            _name: &'static str,
            visitor: V,
        ) -> Result<V::Value> {
            self.deserialize_hint(Hint::Unit, visitor)
        }

        #[inline]
        fn deserialize_newtype_struct<V: ::serde::de::Visitor<'de>>(
            self,
            name: &'static str,
            visitor: V,
        ) -> Result<V::Value> {
            self.deserialize_hint(Hint::Newtype(name), visitor)
        }

        #[inline]
        fn deserialize_tuple<V: ::serde::de::Visitor<'de>>(
            self,
            _len: usize,
            visitor: V,
        ) -> Result<V::Value> {
            self.deserialize_hint(Hint::Seq, visitor)
        }

        #[inline]
        fn deserialize_tuple_struct<V: ::serde::de::Visitor<'de>>(
            self,
            _name: &'static str,
            _len: usize,
            visitor: V,
        ) -> Result<V::Value> {
            self.deserialize_hint(Hint::Seq, visitor)
        }

        #[inline]
        fn deserialize_struct<V: ::serde::de::Visitor<'de>>(
            self,
            _name: &'static str,
            fields: &'static [&'static str],
            visitor: V,
        ) -> Result<V::Value> {
            self.deserialize_hint(Hint::Struct(fields), visitor)
        }

        #[inline]
        fn deserialize_enum<V: ::serde::de::Visitor<'de>>(
            self,
            _name: &'static str,
            _variants: &'static [&'static str],
            visitor: V,
        ) -> Result<V::Value> {
            self.deserialize_hint(Hint::Enum, visitor)
        }
    };
    ($via:ident: $($method:ident => $hint:expr,)*) => {$(
        #[inline]
        fn $method<V: ::serde::de::Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            self.$via($hint, visitor)
        }
    )*};
}
pub(crate) use deserialize_by_hint;

/// Hands a number to `visitor` in the form `hint` asks for. Integers must fit the
/// integer type asked for, and a number that is not an integer is an error for one:
/// nothing is rounded, except into `f32` and `f64`.
pub(crate) fn visit_number<'de, V: Visitor<'de>>(
    n: &Number,
    hint: Hint,
    visitor: V,
) -> Result<V::Value> {
    match hint {
        Hint::Int(kind) => visit_integer(n, kind, visitor),
        Hint::Float => visitor.visit_f64(n.to_f64()),
        Hint::Str => visitor.visit_string(n.to_string()),
        _ => visit_number_any(n, visitor),
    }
}

fn visit_integer<'de, V: Visitor<'de>>(n: &Number, kind: IntKind, visitor: V) -> Result<V::Value> {
    if let Some(i) = n.to_i64() {
        return visit_int(i128::from(i), kind, visitor);
    }
    if let Some(u) = n.to_u64() {
        return visit_int(i128::from(u), kind, visitor);
    }
    if matches!(kind, IntKind::I128 | IntKind::U128) && n.is_integer() {
        let text = n.to_string();
        if let Ok(i) = text.parse::<i128>() {
            if kind.holds(i) {
                return visitor.visit_i128(i);
            }
        } else if let (Ok(u), IntKind::U128) = (text.parse::<u128>(), kind) {
            return visitor.visit_u128(u);
        }
    }
    Err(kind.range_error(n))
}

/// Hands an integer to `visitor` for an integer type of `kind`: one that is not
/// negative as `u64` (as `i64` for the 128-bit types, when it fits), a negative one as
/// `i64`; the one rule of [`visit_integer`] and of the MessagePack deserializer's fast
/// path for integers on the wire (no [`Number`] made).
#[inline]
pub(crate) fn visit_int<'de, V: Visitor<'de>>(
    i: i128,
    kind: IntKind,
    visitor: V,
) -> Result<V::Value> {
    if !kind.holds(i) {
        return Err(kind.range_error(&i));
    }
    let wide = matches!(kind, IntKind::I128 | IntKind::U128);
    match (i64::try_from(i), u64::try_from(i)) {
        (Ok(_), Ok(u)) if !wide => visitor.visit_u64(u),
        (Ok(i), _) => visitor.visit_i64(i),
        (Err(_), Ok(u)) => visitor.visit_u64(u),
        (Err(_), Err(_)) => visitor.visit_i128(i),
    }
}

/// A number for `deserialize_any` (untagged enums, `#[serde(flatten)]`, `BigDecimal`):
/// an integer as `u64` or `i64`, a number that a float64 equals exactly as `f64`, and
/// any other (a decimal such as `0.1`, an integer beyond 64 bits) as its exact text.
fn visit_number_any<'de, V: Visitor<'de>>(n: &Number, visitor: V) -> Result<V::Value> {
    if let Some(i) = n.to_i64() {
        return match u64::try_from(i) {
            Ok(u) => visitor.visit_u64(u),
            Err(_) => visitor.visit_i64(i),
        };
    }
    if let Some(u) = n.to_u64() {
        return visitor.visit_u64(u);
    }
    if n.is_infinite() || n.is_exact_f64() {
        return visitor.visit_f64(n.to_f64());
    }
    visitor.visit_string(n.to_string())
}

/// "expected string, found null": a null where the Rust type cannot hold one.
pub(crate) fn null_error(ty: &Type) -> Error {
    Error::mismatch(
        type_name(ty),
        "null (a value that may be null needs Option<T> or ctywire::Known<T>)",
    )
}

/// What a position of type `ty` holds, for messages.
pub(crate) fn type_name(ty: &Type) -> &'static str {
    ty.kind_name()
}

/// For each struct field list seen with an object type, which field each attribute
/// is: made once per pair and kept for the rest of a decode, so that the attributes
/// of every further object go to the struct's visitor as field indexes, with no
/// string comparison.
#[derive(Default)]
pub(crate) struct FieldMaps<'t> {
    maps: Vec<FieldMap<'t>>,
}

struct FieldMap<'t> {
    ty: &'t ObjectType,
    fields: &'static [&'static str],
    /// For each attribute, its field's index in `fields`, or [`NO_FIELD`].
    field_of: Box<[u32]>,
}

/// An attribute the struct has no field for.
pub(crate) const NO_FIELD: u32 = u32::MAX;

impl<'t> FieldMaps<'t> {
    /// The index of the map of `fields` with `ty`, made if need be. A field that is not
    /// an attribute of `ty` is an error naming it.
    #[inline]
    pub(crate) fn find(
        &mut self,
        ty: &'t ObjectType,
        fields: &'static [&'static str],
    ) -> Result<usize> {
        let found = self
            .maps
            .iter()
            .position(|m| std::ptr::eq(m.ty, ty) && std::ptr::eq(m.fields, fields));
        match found {
            Some(i) => Ok(i),
            None => self.make(ty, fields),
        }
    }

    #[cold]
    fn make(&mut self, ty: &'t ObjectType, fields: &'static [&'static str]) -> Result<usize> {
        let field_of = field_indexes(ty, fields)?;
        self.maps.push(FieldMap {
            ty,
            fields,
            field_of,
        });
        Ok(self.maps.len() - 1)
    }

    /// The field of attribute `attribute` in map `map`.
    #[inline]
    pub(crate) fn field(&self, map: usize, attribute: usize) -> u32 {
        self.maps[map].field_of[attribute]
    }
}

/// For each attribute of `ty`, the index of its field in `fields` (or [`NO_FIELD`]);
/// a field that is not an attribute is an error naming it.
pub(crate) fn field_indexes(ty: &ObjectType, fields: &[&str]) -> Result<Box<[u32]>> {
    let mut field_of = vec![NO_FIELD; ty.len()].into_boxed_slice();
    for (j, field) in fields.iter().enumerate() {
        match ty.names().index_of(field) {
            Some(i) => field_of[i] = j as u32,
            None => return Err(missing_attribute(field)),
        }
    }
    Ok(field_of)
}

/// The error for a struct field that the object type lacks.
pub(crate) fn missing_attribute(field: &str) -> Error {
    Error::new(
        ErrorKind::InvalidValue,
        "the struct has this field, but the object type has no such attribute",
    )
    .in_attribute(field)
}

/// A struct field identifier given by its index in the struct's field list, which
/// serde's derived visitors take with `visit_u64`.
pub(crate) struct FieldIndex(pub(crate) u32);

impl<'de> de::Deserializer<'de> for FieldIndex {
    type Error = Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_u64(u64::from(self.0))
    }

    ::serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

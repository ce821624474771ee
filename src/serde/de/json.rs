//! The JSON `Deserializer`: a position in the text, with its type, over the codec's
//! JSON [`Reader`], with the value decoder's leniency (numbers and bools in strings,
//! numbers for strings).
//!
//! Two things differ from [`json::decode`](crate::json::decode), because serde's visitors
//! see one member at a time: an attribute the input leaves out is not made up as a null
//! but left to serde (an `Option` or `Known` field is then null, a `#[serde(default)]`
//! field its default, any other field an error), and an attribute given twice is an
//! error rather than the last one winning.

use std::borrow::Cow;

use ::serde::de::value::{BorrowedStrDeserializer, MapAccessDeserializer, StrDeserializer};
use ::serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use super::msgpack::{entries_left, needs_whole, Elements};
use super::value::ValueDe;
use super::{deserialize_by_hint, null_error, FieldIndex, FieldMaps, Hint, IntKind, NO_FIELD};
use crate::error::{Error, ErrorKind, Result};
use crate::json::decode::{mismatch, primitive, with_line_column, DecodeOptions, Decoder};
use crate::limits::MAX_DEPTH;
use crate::serde::handoff::{self, KNOWN_TOKEN, NUMBER_TOKEN, VALUE_TOKEN};
use crate::text;
use crate::token::json_read::{Kind, Reader};
use crate::types::{ObjectType, Type};

/// What one decode shares: the reader, the codec's decoder (for the values read whole)
/// and the struct field maps.
struct State<'de, 'o, 't> {
    r: Reader<'de>,
    decoder: Decoder<'de, 'o>,
    fields: FieldMaps<'t>,
}

/// Decodes a `T` from JSON `input` as type `ty`; trailing text is an error.
pub(crate) fn decode_as<'de, T: de::Deserialize<'de>>(input: &'de [u8], ty: &Type) -> Result<T> {
    let options = DecodeOptions::default();
    let mut st = State {
        r: Reader::new_checked(input),
        decoder: Decoder::new(input, &options),
        fields: FieldMaps::default(),
    };
    T::deserialize(De {
        st: &mut st,
        ty,
        depth: 0,
    })
    .and_then(|value| st.r.finish().map(|()| value))
    .map_err(|e| with_line_column(e, input))
}

struct De<'a, 'de, 'o, 't> {
    st: &'a mut State<'de, 'o, 't>,
    ty: &'t Type,
    depth: usize,
}

impl<'de, 't> De<'_, 'de, '_, 't> {
    fn leaf<V: Visitor<'de>>(self, hint: Hint, visitor: V) -> Result<V::Value> {
        self.deserialize_hint(hint, visitor)
    }

    fn deserialize_hint<V: Visitor<'de>>(self, hint: Hint, visitor: V) -> Result<V::Value> {
        let kind = self.st.r.peek_kind()?;
        let at = self.st.r.offset();
        self.value(kind, at, hint, visitor)
            .map_err(|e| e.at_offset(at))
    }

    fn value<V: Visitor<'de>>(
        self,
        kind: Kind,
        at: usize,
        hint: Hint,
        visitor: V,
    ) -> Result<V::Value> {
        if self.depth > MAX_DEPTH {
            return Err(crate::limits::depth_exceeded("value"));
        }
        match hint {
            Hint::Option if kind == Kind::Null => {
                self.st.r.read_null()?;
                return visitor.visit_none();
            }
            Hint::Option => return visitor.visit_some(self),
            // JSON holds no unknowns: a value that may be unknown is known here.
            Hint::Newtype(KNOWN_TOKEN) => return visitor.visit_newtype_struct(self),
            Hint::Newtype(VALUE_TOKEN) | Hint::Ignored => {
                let v = self.st.decoder.value(&mut self.st.r, self.ty, self.depth)?;
                if hint == Hint::Ignored {
                    return visitor.visit_unit();
                }
                handoff::give(v);
                return visitor.visit_unit();
            }
            Hint::Newtype(name) if name != NUMBER_TOKEN => {
                return visitor.visit_newtype_struct(self)
            }
            _ => {}
        }
        if kind == Kind::Null {
            return match hint {
                Hint::Unit | Hint::Any => {
                    self.st.r.read_null()?;
                    visitor.visit_unit()
                }
                _ => Err(null_error(self.ty)),
            };
        }
        match (self.ty, kind) {
            (ty, _) if needs_whole(ty) => {
                let v = self.st.decoder.value(&mut self.st.r, ty, self.depth)?;
                ValueDe::new(&v, ty).deserialize_hint(hint, visitor)
            }
            (Type::String, Kind::String) => {
                let text = match self.st.r.read_string()? {
                    Cow::Borrowed(s) => text::nfc(s),
                    Cow::Owned(s) => Cow::Owned(text::nfc_owned(s)),
                };
                match (text, hint) {
                    (Cow::Borrowed(s), Hint::Enum) => {
                        visitor.visit_enum(BorrowedStrDeserializer::<Error>::new(s))
                    }
                    (Cow::Owned(s), Hint::Enum) => visitor.visit_enum(s.into_deserializer()),
                    (Cow::Borrowed(s), _) => visitor.visit_borrowed_str(s),
                    (Cow::Owned(s), _) => visitor.visit_string(s),
                }
            }
            (Type::Bool | Type::Number | Type::String, _) => {
                let v = primitive(&mut self.st.r, self.ty, kind, at)?;
                ValueDe::new(&v, self.ty).deserialize_hint(hint, visitor)
            }
            (Type::List(e), Kind::Array) => self.sequence(Elements::Same(e), None, hint, visitor),
            (Type::Tuple(ts), Kind::Array) => {
                self.sequence(Elements::Each(ts), Some(ts.len()), hint, visitor)
            }
            (Type::Map(e), Kind::Object) => {
                self.st.r.begin_object()?;
                let mut entries = Members {
                    st: self.st,
                    ty: Members::map(e),
                    fields: None,
                    depth: self.depth + 1,
                    done: false,
                    key: Cow::Borrowed(""),
                    attribute: 0,
                    read: 0,
                    seen: Vec::new(),
                };
                entries.visit(hint, visitor)
            }
            (Type::Object(o), Kind::Object) => {
                self.st.r.begin_object()?;
                let fields = match hint {
                    Hint::Struct(fields) => Some(self.st.fields.find(o, fields)?),
                    _ => None,
                };
                let mut attributes = Members {
                    st: self.st,
                    ty: Err(o),
                    fields,
                    depth: self.depth + 1,
                    done: false,
                    key: Cow::Borrowed(""),
                    attribute: 0,
                    read: 0,
                    seen: vec![false; o.len()],
                };
                attributes.visit(hint, visitor)
            }
            (ty, kind) => Err(mismatch(ty, kind, at)),
        }
    }

    fn sequence<V: Visitor<'de>>(
        self,
        elements: Elements<'t>,
        len: Option<usize>,
        hint: Hint,
        visitor: V,
    ) -> Result<V::Value> {
        if hint == Hint::Enum {
            return Err(Error::mismatch("an enum", self.ty.kind_name()));
        }
        self.st.r.begin_array()?;
        let mut seq = Seq {
            st: self.st,
            elements,
            len,
            index: 0,
            depth: self.depth + 1,
            done: false,
        };
        let value = visitor.visit_seq(&mut seq)?;
        if !seq.done && seq.st.r.next_element()? {
            return Err(entries_left(1));
        }
        if let Some(len) = len {
            if seq.index != len {
                return Err(Error::new(
                    ErrorKind::InvalidValue,
                    format!("expected a tuple of {len} elements, found {}", seq.index),
                ));
            }
        }
        Ok(value)
    }
}

impl<'de> de::Deserializer<'de> for De<'_, 'de, '_, '_> {
    type Error = Error;

    deserialize_by_hint!();
}

struct Seq<'a, 'de, 'o, 't> {
    st: &'a mut State<'de, 'o, 't>,
    elements: Elements<'t>,
    /// A tuple's length.
    len: Option<usize>,
    index: usize,
    depth: usize,
    /// Whether the closing `]` was read.
    done: bool,
}

impl<'de> de::SeqAccess<'de> for Seq<'_, 'de, '_, '_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if !self.st.r.next_element()? {
            self.done = true;
            return Ok(None);
        }
        let i = self.index;
        if self.len.is_some_and(|len| i >= len) {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                format!(
                    "expected a tuple of {} elements, found more",
                    self.len.unwrap_or_default()
                ),
            )
            .at_offset(self.st.r.offset()));
        }
        self.index += 1;
        let de = De {
            st: self.st,
            ty: self.elements.get(i),
            depth: self.depth,
        };
        seed.deserialize(de).map(Some).map_err(|e| e.in_index(i))
    }
}

/// The members of a JSON object: the entries of a map, or the attributes of an object.
struct Members<'a, 'de, 'o, 't> {
    st: &'a mut State<'de, 'o, 't>,
    /// The element type of a map, or the object type.
    ty: std::result::Result<&'t Type, &'t ObjectType>,
    /// The struct field map, for a struct.
    fields: Option<usize>,
    depth: usize,
    /// Whether the closing `}` was read.
    done: bool,
    /// The key of the member being read (NFC for a map).
    key: Cow<'de, str>,
    /// The attribute being read.
    attribute: usize,
    /// How many attributes were read.
    read: usize,
    /// Which attributes were given.
    seen: Vec<bool>,
}

impl<'de, 't> Members<'_, 'de, '_, 't> {
    fn map(element: &'t Type) -> std::result::Result<&'t Type, &'t ObjectType> {
        Ok(element)
    }

    fn visit<V: Visitor<'de>>(&mut self, hint: Hint, visitor: V) -> Result<V::Value> {
        let value = if hint == Hint::Enum {
            visitor.visit_enum(MapAccessDeserializer::new(&mut *self))?
        } else {
            visitor.visit_map(&mut *self)?
        };
        if !self.done && self.st.r.next_key_at()?.is_some() {
            return Err(entries_left(1));
        }
        Ok(value)
    }
}

impl<'de, 't> de::MapAccess<'de> for Members<'_, 'de, '_, 't> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some((k, key_at)) = self.st.r.next_key_at()? else {
            self.done = true;
            return Ok(None);
        };
        let o = match self.ty {
            Ok(_) => {
                self.key = match k {
                    Cow::Borrowed(s) => text::nfc(s),
                    Cow::Owned(s) => Cow::Owned(text::nfc_owned(s)),
                };
                return match &self.key {
                    Cow::Borrowed(s) => seed.deserialize(BorrowedStrDeserializer::<Error>::new(s)),
                    Cow::Owned(s) => seed.deserialize(StrDeserializer::<Error>::new(s)),
                }
                .map(Some)
                .map_err(|e| e.in_key(&self.key).at_offset(key_at));
            }
            Err(o) => o,
        };
        let fail = |message: &str| {
            Error::new(ErrorKind::InvalidValue, message)
                .in_attribute(&k)
                .at_offset(key_at)
        };
        let names = o.names();
        let next = if self.read == 0 {
            0
        } else {
            self.attribute + 1
        };
        let i = match names.as_slice().get(next) {
            Some(name) if **name == *k => next,
            _ => names
                .index_of(&k)
                .ok_or_else(|| fail("unsupported attribute"))?,
        };
        if std::mem::replace(&mut self.seen[i], true) {
            return Err(fail(
                "duplicate attribute (json::decode keeps the last; a struct cannot)",
            ));
        }
        self.attribute = i;
        self.read += 1;
        let name: &'t str = &names.as_slice()[i];
        if let Some(map) = self.fields {
            let field = self.st.fields.field(map, i);
            if field != NO_FIELD {
                return seed.deserialize(FieldIndex(field)).map(Some);
            }
        }
        seed.deserialize(StrDeserializer::<Error>::new(name))
            .map(Some)
            .map_err(|e| e.in_attribute(name).at_offset(key_at))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        match self.ty {
            Ok(element) => {
                let de = De {
                    st: self.st,
                    ty: element,
                    depth: self.depth,
                };
                seed.deserialize(de).map_err(|e| e.in_key(&self.key))
            }
            Err(o) => {
                let i = self.attribute;
                let de = De {
                    st: self.st,
                    ty: &o.types()[i],
                    depth: self.depth,
                };
                seed.deserialize(de)
                    .map_err(|e| e.in_attribute(&o.names().as_slice()[i]))
            }
        }
    }
}

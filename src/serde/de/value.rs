//! The [`Value`] `Deserializer`: a value and the type of its position, for
//! [`from_value`](crate::serde::from_value) and for the values the codecs decode whole.
//!
//! The value is read as it is; the type gives the types of its parts and names the
//! attributes a struct must find.

use ::serde::de::value::{MapAccessDeserializer, StrDeserializer};
use ::serde::de::{self, DeserializeSeed, Visitor};

use super::msgpack::entries_left;
use super::{deserialize_by_hint, missing_attribute, null_error, visit_number, Hint, IntKind};
use crate::error::{Error, Result};
use crate::serde::handoff::{self, KNOWN_TOKEN, NUMBER_TOKEN, VALUE_TOKEN};
use crate::serde::impls::unknown_error;
use crate::types::Type;
use crate::value::{Object, Str, Value};

/// The type of the parts of a value at a `dynamic` position built by hand (the value
/// decides).
static DYNAMIC: Type = Type::Dynamic;

/// A value at a position of type `ty`.
pub(crate) struct ValueDe<'v> {
    v: &'v Value,
    ty: &'v Type,
}

impl<'v> ValueDe<'v> {
    pub(crate) fn new(v: &'v Value, ty: &'v Type) -> Self {
        ValueDe { v, ty }
    }

    fn leaf<'de, V: Visitor<'de>>(self, hint: Hint, visitor: V) -> Result<V::Value> {
        self.deserialize_hint(hint, visitor)
    }

    pub(crate) fn deserialize_hint<'de, V: Visitor<'de>>(
        self,
        hint: Hint,
        visitor: V,
    ) -> Result<V::Value> {
        let v = self.v;
        match hint {
            Hint::Option => {
                return match v.untyped() {
                    Value::Null => visitor.visit_none(),
                    _ => visitor.visit_some(self),
                }
            }
            Hint::Newtype(VALUE_TOKEN) => {
                handoff::give(v.clone());
                return visitor.visit_unit();
            }
            Hint::Newtype(KNOWN_TOKEN) => {
                return match v.untyped() {
                    u @ (Value::Null | Value::Unknown(_)) => {
                        handoff::give(u.clone());
                        visitor.visit_unit()
                    }
                    _ => visitor.visit_newtype_struct(self),
                }
            }
            Hint::Newtype(NUMBER_TOKEN) => {
                if let Value::Number(n) = v.untyped() {
                    handoff::give(Value::Number(n.clone()));
                    return visitor.visit_unit();
                }
            }
            Hint::Newtype(_) => return visitor.visit_newtype_struct(self),
            Hint::Ignored => return visitor.visit_unit(),
            _ => {}
        }
        match v {
            Value::Typed(t) => ValueDe::new(&t.value, &t.ty).deserialize_hint(hint, visitor),
            Value::Null => match hint {
                Hint::Unit | Hint::Any => visitor.visit_unit(),
                _ => Err(null_error(self.ty)),
            },
            Value::Unknown(_) => Err(unknown_error()),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => visit_number(n, hint, visitor),
            Value::String(s) if hint == Hint::Enum => {
                visitor.visit_enum(StrDeserializer::<Error>::new(s))
            }
            Value::String(s) => visitor.visit_str(s),
            Value::List(vs) | Value::Tuple(vs) => self.sequence(vs, hint, visitor),
            Value::Set(s) => self.sequence(s.as_slice(), hint, visitor),
            Value::Map(m) => {
                let element = self.ty.element_type().unwrap_or(&DYNAMIC);
                let mut entries = Entries {
                    entries: m.entries(),
                    element,
                    index: 0,
                    value: None,
                };
                let value = if hint == Hint::Enum {
                    visitor.visit_enum(MapAccessDeserializer::new(&mut entries))?
                } else {
                    visitor.visit_map(&mut entries)?
                };
                match m.len() - entries.index {
                    0 => Ok(value),
                    n => Err(entries_left(n)),
                }
            }
            Value::Object(o) => self.object(o, hint, visitor),
        }
    }

    fn sequence<'de, V: Visitor<'de>>(
        self,
        values: &'v [Value],
        hint: Hint,
        visitor: V,
    ) -> Result<V::Value> {
        if hint == Hint::Enum {
            return Err(Error::mismatch("an enum", self.v.kind_name()));
        }
        let mut seq = Seq {
            values,
            ty: self.ty,
            index: 0,
        };
        let value = visitor.visit_seq(&mut seq)?;
        match values.len() - seq.index {
            0 => Ok(value),
            n => Err(entries_left(n)),
        }
    }

    fn object<'de, V: Visitor<'de>>(
        self,
        o: &'v Object,
        hint: Hint,
        visitor: V,
    ) -> Result<V::Value> {
        if let Hint::Struct(fields) = hint {
            if let Some(field) = fields.iter().find(|f| o.names().index_of(f).is_none()) {
                return Err(missing_attribute(field));
            }
        }
        let mut attributes = Attributes {
            object: o,
            ty: self.ty,
            index: 0,
        };
        let value = if hint == Hint::Enum {
            visitor.visit_enum(MapAccessDeserializer::new(&mut attributes))?
        } else {
            visitor.visit_map(&mut attributes)?
        };
        match o.len() - attributes.index {
            0 => Ok(value),
            n => Err(entries_left(n)),
        }
    }
}

impl<'de> de::Deserializer<'de> for ValueDe<'_> {
    type Error = Error;

    deserialize_by_hint!();
}

/// The type of element `i` of a list, set or tuple of type `ty`.
fn element_type(ty: &Type, i: usize) -> &Type {
    match ty {
        Type::List(e) | Type::Set(e) => e,
        Type::Tuple(ts) => ts.get(i).unwrap_or(&DYNAMIC),
        _ => &DYNAMIC,
    }
}

struct Seq<'v> {
    values: &'v [Value],
    ty: &'v Type,
    index: usize,
}

impl<'de> de::SeqAccess<'de> for Seq<'_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let i = self.index;
        let Some(v) = self.values.get(i) else {
            return Ok(None);
        };
        self.index += 1;
        seed.deserialize(ValueDe::new(v, element_type(self.ty, i)))
            .map(Some)
            .map_err(|e| e.in_index(i))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.values.len() - self.index)
    }
}

struct Entries<'v> {
    entries: &'v [(Str, Value)],
    element: &'v Type,
    index: usize,
    value: Option<(&'v Str, &'v Value)>,
}

impl<'de> de::MapAccess<'de> for Entries<'_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some((k, v)) = self.entries.get(self.index) else {
            return Ok(None);
        };
        self.index += 1;
        self.value = Some((k, v));
        seed.deserialize(StrDeserializer::<Error>::new(k))
            .map(Some)
            .map_err(|e| e.in_key(k))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let (k, v) = self.value.take().expect("next_key_seed comes first");
        seed.deserialize(ValueDe::new(v, self.element))
            .map_err(|e| e.in_key(k))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len() - self.index)
    }
}

struct Attributes<'v> {
    object: &'v Object,
    ty: &'v Type,
    index: usize,
}

impl Attributes<'_> {
    /// The type of the attribute `name`, the `i`th of the value.
    fn attribute_type(&self, i: usize, name: &str) -> &Type {
        match self.ty {
            Type::Object(o) if o.names() == self.object.names() => &o.types()[i],
            Type::Object(o) => o.attribute(name).unwrap_or(&DYNAMIC),
            _ => &DYNAMIC,
        }
    }
}

impl<'de> de::MapAccess<'de> for Attributes<'_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some(name) = self.object.names().as_slice().get(self.index) else {
            return Ok(None);
        };
        self.index += 1;
        seed.deserialize(StrDeserializer::<Error>::new(name))
            .map(Some)
            .map_err(|e| e.in_attribute(name))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let i = self.index - 1;
        let name = &self.object.names().as_slice()[i];
        let ty = self.attribute_type(i, name);
        seed.deserialize(ValueDe::new(&self.object.values()[i], ty))
            .map_err(|e| e.in_attribute(name))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.object.len() - self.index)
    }
}

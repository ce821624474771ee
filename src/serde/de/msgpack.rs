//! The MessagePack `Deserializer`: a position in the payload, with its type, over the
//! codec's token [`Reader`].

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::rc::Rc;

use ::serde::de::value::{BorrowedStrDeserializer, MapAccessDeserializer, StrDeserializer};
use ::serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use super::value::ValueDe;
use super::NO_FIELD;
use super::{
    deserialize_by_hint, field_indexes, null_error, visit_int, visit_number, FieldIndex, Hint,
    IntKind,
};
use crate::error::{Error, ErrorKind, Result};
use crate::limits::MAX_DEPTH;
use crate::msgpack::decode::{
    decode_value, expected, key, mismatch, number, object_header, text_of, AttributeKeys, Decoder,
};
use crate::serde::handoff::{self, KNOWN_TOKEN, NUMBER_TOKEN, VALUE_TOKEN};
use crate::serde::impls::unknown_error;
use crate::text;
use crate::token::msgpack_read::{Reader, Token};
use crate::types::{ObjectType, Type};
use crate::value::set::strings_in_order;
use crate::value::Value;

/// What one decode shares: the reader, and the plans made so far.
pub(crate) struct State<'de, 't> {
    pub(crate) r: Decoder<'de>,
    plans: Plans<'t>,
}

/// How the attributes of an object type are read into one Rust type (a struct's field
/// list, or anything read by name): for each attribute, its key as go-cty writes it,
/// its field and its type. Made once per pair and kept for the rest of a decode, so
/// that while the keys come in name order, reading an attribute is one comparison of
/// its key's bytes and a step along the plan, with no string compared or looked up.
type Plan<'t> = Rc<[Slot<'t>]>;

/// One attribute of a [`Plan`].
struct Slot<'t> {
    /// The key, header and bytes, as the encoder writes it.
    key: &'t [u8],
    /// Its field's index in the struct's field list, or [`NO_FIELD`] (read by name).
    field: u32,
    ty: &'t Type,
}

/// The plans of a decode, by object type and field list (both by address; reading by
/// name has the empty list, which maps every attribute to no field, as a struct
/// without fields would).
#[derive(Default)]
struct Plans<'t> {
    plans: Vec<(&'t ObjectType, &'static [&'static str], Plan<'t>)>,
}

impl<'t> Plans<'t> {
    /// The plan for reading `ty` into the struct of `fields` (or by name, with an
    /// empty list). A field that is not an attribute of `ty` is an error naming it.
    #[inline]
    fn find(&mut self, ty: &'t ObjectType, fields: &'static [&'static str]) -> Result<Plan<'t>> {
        let found = self
            .plans
            .iter()
            .find(|(t, f, _)| std::ptr::eq(*t, ty) && std::ptr::eq(*f, fields));
        match found {
            Some((_, _, plan)) => Ok(Rc::clone(plan)),
            None => self.make(ty, fields),
        }
    }

    #[cold]
    #[inline(never)]
    fn make(&mut self, ty: &'t ObjectType, fields: &'static [&'static str]) -> Result<Plan<'t>> {
        let field_of = field_indexes(ty, fields)?;
        let wire = ty.msgpack_names(crate::token::msgpack_write::str);
        let plan: Plan<'t> = (0..ty.len())
            .map(|i| Slot {
                key: wire.get(i),
                field: field_of[i],
                ty: &ty.types()[i],
            })
            .collect();
        self.plans.push((ty, fields, Rc::clone(&plan)));
        Ok(plan)
    }
}

/// Decodes a `T` from `input` as type `ty`; trailing bytes are an error.
pub(crate) fn decode_as<'de, T: de::Deserialize<'de>>(input: &'de [u8], ty: &Type) -> Result<T> {
    let mut st = State {
        r: Decoder::new(input),
        plans: Plans::default(),
    };
    let value = T::deserialize(De {
        st: &mut st,
        ty,
        depth: 0,
    })?;
    if !st.r.is_empty() {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!(
                "expected end of input, found {} more bytes after the value",
                st.r.remaining()
            ),
        )
        .at_offset(st.r.offset()));
    }
    Ok(value)
}

/// One value of the payload, of type `ty`, at the reader's position.
pub(crate) struct De<'a, 'de, 't> {
    st: &'a mut State<'de, 't>,
    ty: &'t Type,
    depth: usize,
}

impl<'a, 'de, 't> De<'a, 'de, 't> {
    /// A bool, number or string: the forms most take, read here without a token.
    #[inline(always)]
    fn leaf<V: Visitor<'de>>(self, hint: Hint, visitor: V) -> Result<V::Value> {
        if self.depth <= MAX_DEPTH {
            if let Some(b) = self.st.r.peek() {
                match (self.ty, b) {
                    (Type::String, 0xa0..=0xbf) => {
                        if let Some(s) = short_text(&mut self.st.r) {
                            return visitor.visit_borrowed_str(s);
                        }
                    }
                    (Type::Number, 0x00..=0x7f) if hint != Hint::Str => {
                        self.st.r.advance(1);
                        return visitor.visit_u64(u64::from(b));
                    }
                    (Type::Number, 0xcc..=0xd3) => {
                        if let Hint::Int(kind) = hint {
                            let at = self.st.r.offset();
                            if let Some(i) = wide_int(&mut self.st.r, b) {
                                return visit_int(i, kind, visitor).map_err(|e| e.at_offset(at));
                            }
                        }
                    }
                    (Type::Number, 0xcb) if hint == Hint::Float => {
                        if let Some(bytes) = self.st.r.ahead(1, 8) {
                            let f = f64::from_be_bytes(bytes.try_into().unwrap_or([0; 8]));
                            if !f.is_nan() {
                                self.st.r.advance(9);
                                return visitor.visit_f64(f);
                            }
                        }
                    }
                    (Type::Bool, 0xc2 | 0xc3) => {
                        self.st.r.advance(1);
                        return visitor.visit_bool(b == 0xc3);
                    }
                    _ => {}
                }
            }
        }
        self.leaf_slow(hint, visitor)
    }

    /// [`Self::leaf`] for every other form: kept out of line, so that the fast paths
    /// inlined into each primitive's `deserialize` stay small.
    #[inline(never)]
    fn leaf_slow<V: Visitor<'de>>(self, hint: Hint, visitor: V) -> Result<V::Value> {
        self.deserialize_hint(hint, visitor)
    }

    #[inline]
    fn deserialize_hint<V: Visitor<'de>>(self, hint: Hint, visitor: V) -> Result<V::Value> {
        let at = self.st.r.offset();
        self.value(hint, visitor).map_err(|e| e.at_offset(at))
    }

    /// The value decoded by the codec, as the value decoder would give it.
    fn decode(&mut self) -> Result<Value> {
        decode_value(&mut self.st.r, self.ty, self.depth)
    }

    #[inline]
    fn value<V: Visitor<'de>>(mut self, hint: Hint, visitor: V) -> Result<V::Value> {
        if self.depth > MAX_DEPTH {
            return Err(crate::limits::depth_exceeded("value"));
        }
        let peeked = self.st.r.peek();
        if let (Type::Set(e), Some(0x90..=0x9f | 0xdc | 0xdd), Hint::Seq | Hint::Any) =
            (self.ty, peeked, hint)
        {
            if **e == Type::String && self.canonical_strings() {
                return self.sequence(Elements::Same(e), None, hint, visitor);
            }
        }
        match hint {
            Hint::Option => {
                if peeked == Some(0xc0) {
                    self.st.r.advance(1);
                    return visitor.visit_none();
                }
                return visitor.visit_some(self);
            }
            Hint::Newtype(VALUE_TOKEN) => {
                handoff::give(self.decode()?);
                return visitor.visit_unit();
            }
            Hint::Newtype(KNOWN_TOKEN) => {
                if !matches!(peeked, Some(0xc0 | 0xc7..=0xc9 | 0xd4..=0xd8)) {
                    return visitor.visit_newtype_struct(self);
                }
                let v = self.decode()?;
                return ValueDe::new(&v, self.ty).deserialize_hint(hint, visitor);
            }
            Hint::Newtype(NUMBER_TOKEN) => {}
            Hint::Newtype(_) => return visitor.visit_newtype_struct(self),
            Hint::Ignored => {
                self.decode()?;
                return visitor.visit_unit();
            }
            _ => {}
        }
        match peeked {
            Some(0xc0) => {
                return match hint {
                    Hint::Unit | Hint::Any => {
                        self.st.r.advance(1);
                        visitor.visit_unit()
                    }
                    _ => Err(null_error(self.ty)),
                }
            }
            // An extension: an unknown, or a value its refinements make known.
            Some(0xc7..=0xc9 | 0xd4..=0xd8) => {
                let v = self.decode()?;
                if v.is_unknown() {
                    return Err(unknown_error());
                }
                return ValueDe::new(&v, self.ty).deserialize_hint(hint, visitor);
            }
            _ => {}
        }
        match self.ty {
            Type::String => self.string(hint, visitor),
            Type::Number => {
                let token = self.st.r.token("a number")?;
                let n = number(&token)?;
                if hint == Hint::Newtype(NUMBER_TOKEN) {
                    handoff::give(Value::Number(n));
                    return visitor.visit_unit();
                }
                visit_number(&n, hint, visitor)
            }
            Type::Bool => match self.st.r.token("a bool")? {
                Token::Bool(b) => visitor.visit_bool(b),
                t => Err(mismatch(self.ty, &t)),
            },
            ty if needs_whole(ty) => {
                let v = self.decode()?;
                ValueDe::new(&v, ty).deserialize_hint(hint, visitor)
            }
            Type::List(e) => self.sequence(Elements::Same(e), None, hint, visitor),
            Type::Tuple(ts) => self.sequence(Elements::Each(ts), Some(ts.len()), hint, visitor),
            Type::Map(e) => self.map(e, hint, visitor),
            Type::Object(o) => self.object(o, hint, visitor),
            // Sets and `dynamic` were read whole above.
            ty => Err(Error::mismatch(ty.kind_name(), "a value of this kind")),
        }
    }

    /// Whether the array at the reader's position holds strings (NFC, if UTF-8) in
    /// go-cty's set order, so that a set of strings can be read as it stands (a set in any other
    /// form is read whole, by the codec, which puts it in order).
    fn canonical_strings(&self) -> bool {
        let mut r = self.st.r.rewound(self.st.r.offset());
        let Ok(Token::Array(n)) = r.token("a set") else {
            return false;
        };
        let mut previous: Option<&[u8]> = None;
        for _ in 0..n {
            let Ok(Token::Str(bytes)) = r.token("a string") else {
                return false;
            };
            // (UTF-8 is checked as the elements are read.)
            if !text::is_nfc_bytes(bytes) {
                return false;
            }
            if previous.is_some_and(|p| !strings_in_order(p, bytes)) {
                return false;
            }
            previous = Some(bytes);
        }
        true
    }

    /// A string: short ASCII text is borrowed from the input as it is.
    #[inline]
    fn string<V: Visitor<'de>>(self, hint: Hint, visitor: V) -> Result<V::Value> {
        let r = &mut self.st.r;
        let token = match r.peek() {
            Some(b @ 0xa0..=0xbf) => match r.ahead(1, usize::from(b & 0x1f)) {
                Some(bytes) => {
                    r.advance(1 + bytes.len());
                    Token::Str(bytes)
                }
                None => r.token("a string")?,
            },
            _ => r.token("a string")?,
        };
        let (Token::Str(bytes) | Token::Bin(bytes)) = token else {
            return Err(mismatch(self.ty, &token));
        };
        let text = text_of(bytes)?;
        if hint == Hint::Enum {
            return match text {
                Cow::Borrowed(s) => visitor.visit_enum(BorrowedStrDeserializer::<Error>::new(s)),
                Cow::Owned(s) => visitor.visit_enum(s.into_deserializer()),
            };
        }
        match text {
            Cow::Borrowed(s) => visitor.visit_borrowed_str(s),
            Cow::Owned(s) => visitor.visit_string(s),
        }
    }

    /// A list or a tuple.
    fn sequence<V: Visitor<'de>>(
        self,
        elements: Elements<'t>,
        len: Option<usize>,
        hint: Hint,
        visitor: V,
    ) -> Result<V::Value> {
        let at = self.st.r.offset();
        let token = self.st.r.token(expected(self.ty))?;
        let Token::Array(n) = token else {
            return Err(mismatch(self.ty, &token));
        };
        if let Some(len) = len {
            if n != len {
                return Err(Error::new(
                    ErrorKind::InvalidValue,
                    format!("expected a tuple of {len} elements, found {n}"),
                ));
            }
        }
        let n = self.st.r.check_count(n, 1, at)?;
        if hint == Hint::Enum {
            return Err(Error::mismatch("an enum", self.ty.kind_name()));
        }
        let mut seq = Seq {
            st: self.st,
            elements,
            index: 0,
            len: n,
            depth: self.depth + 1,
        };
        let value = visitor.visit_seq(&mut seq)?;
        seq.finished()?;
        Ok(value)
    }

    /// A map, its keys checked as the value decoder checks them.
    fn map<V: Visitor<'de>>(self, element: &'t Type, hint: Hint, visitor: V) -> Result<V::Value> {
        let at = self.st.r.offset();
        let token = self.st.r.token("a map")?;
        let Token::Map(n) = token else {
            return Err(mismatch(self.ty, &token));
        };
        let n = self.st.r.check_count(n, 2, at)?;
        let first_key_at = self.st.r.offset();
        let mut entries = Entries {
            st: self.st,
            element,
            len: n,
            read: 0,
            depth: self.depth + 1,
            first_key_at,
            key: Cow::Borrowed(""),
            seen: None,
        };
        let value = if hint == Hint::Enum {
            visitor.visit_enum(MapAccessDeserializer::new(&mut entries))?
        } else {
            visitor.visit_map(&mut entries)?
        };
        if entries.read != entries.len {
            return Err(entries_left(entries.len - entries.read));
        }
        Ok(value)
    }

    /// An object: into a struct, its attributes go to the struct's visitor as field
    /// indexes; into anything else, by name.
    fn object<V: Visitor<'de>>(
        self,
        ty: &'t ObjectType,
        hint: Hint,
        visitor: V,
    ) -> Result<V::Value> {
        let at = self.st.r.offset();
        let token = self.st.r.token("an object")?;
        let n = object_header(&self.st.r, token, ty, at, self.depth)?;
        let plan = match hint {
            Hint::Struct(fields) => self.st.plans.find(ty, fields)?,
            _ => self.st.plans.find(ty, &[])?,
        };
        let mut attributes = Attributes {
            st: self.st,
            plan,
            keys: None,
            ty,
            len: n,
            read: 0,
            attribute: 0,
            depth: self.depth + 1,
        };
        let value = if hint == Hint::Enum {
            visitor.visit_enum(MapAccessDeserializer::new(&mut attributes))?
        } else {
            visitor.visit_map(&mut attributes)?
        };
        if attributes.read != attributes.len {
            return Err(entries_left(attributes.len - attributes.read));
        }
        Ok(value)
    }
}

/// Reads a MessagePack integer of 8 to 64 bits (`0xcc` to `0xd3`, header `b`) at the
/// reader's position; `None`, reading nothing, when the input ends within it.
#[inline(always)]
fn wide_int(r: &mut Reader<'_>, b: u8) -> Option<i128> {
    let n = match b {
        0xcc | 0xd0 => 1,
        0xcd | 0xd1 => 2,
        0xce | 0xd2 => 4,
        _ => 8,
    };
    let bytes = r.ahead(1, n)?;
    let mut be = [0u8; 8];
    be[8 - n..].copy_from_slice(bytes);
    let unsigned = u64::from_be_bytes(be);
    let i = if b >= 0xd0 {
        // Sign-extended from its width.
        let shift = 64 - 8 * n as u32;
        i128::from(((unsigned << shift) as i64) >> shift)
    } else {
        i128::from(unsigned)
    };
    r.advance(1 + n);
    Some(i)
}

/// Reads a fixstr of NFC text (the form of most strings and map keys), borrowed from
/// the input; `None`, reading nothing, for anything else.
#[inline(always)]
fn short_text<'de>(r: &mut Reader<'de>) -> Option<&'de str> {
    let b = r.peek()?;
    if !(0xa0..=0xbf).contains(&b) {
        return None;
    }
    let bytes = r.ahead(1, usize::from(b & 0x1f))?;
    let s = std::str::from_utf8(bytes).ok()?;
    if !text::is_nfc_bytes(bytes) {
        return None;
    }
    r.advance(1 + bytes.len());
    Some(s)
}

/// Whether a value of type `ty` is decoded whole by the codec and read from the
/// [`Value`]: at a `dynamic` position, a set, or a collection whose elements' types
/// hold `dynamic` (see the [module docs](super)).
#[inline]
pub(crate) fn needs_whole(ty: &Type) -> bool {
    match ty {
        Type::Dynamic | Type::Set(_) => true,
        Type::List(e) | Type::Map(e) => e.has_dynamic(),
        _ => false,
    }
}

/// The error for a map or sequence whose Rust visitor stopped before its end.
pub(crate) fn entries_left(n: usize) -> Error {
    Error::new(
        ErrorKind::InvalidValue,
        format!("the Rust type took fewer elements than there are: {n} left over"),
    )
}

impl<'de> de::Deserializer<'de> for De<'_, 'de, '_> {
    type Error = Error;

    deserialize_by_hint!();
}

/// The element types of a list (one for all) or a tuple (one each).
#[derive(Clone, Copy)]
pub(crate) enum Elements<'t> {
    Same(&'t Type),
    Each(&'t [Type]),
}

impl<'t> Elements<'t> {
    #[inline]
    pub(crate) fn get(self, i: usize) -> &'t Type {
        match self {
            Elements::Same(t) => t,
            Elements::Each(ts) => &ts[i],
        }
    }
}

struct Seq<'a, 'de, 't> {
    st: &'a mut State<'de, 't>,
    elements: Elements<'t>,
    index: usize,
    len: usize,
    depth: usize,
}

impl Seq<'_, '_, '_> {
    fn finished(&self) -> Result<()> {
        if self.index != self.len {
            return Err(entries_left(self.len - self.index));
        }
        Ok(())
    }
}

impl<'de> de::SeqAccess<'de> for Seq<'_, 'de, '_> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.index == self.len {
            return Ok(None);
        }
        let i = self.index;
        self.index += 1;
        let de = De {
            st: self.st,
            ty: self.elements.get(i),
            depth: self.depth,
        };
        seed.deserialize(de).map(Some).map_err(|e| e.in_index(i))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.len - self.index)
    }
}

/// The entries of a map. go-cty writes keys in order, so each key is compared with
/// the one before; once one is not greater, every key is checked against all the keys
/// read (then kept in `seen`), so that a repeated key is an error, as in the decoder.
struct Entries<'a, 'de, 't> {
    st: &'a mut State<'de, 't>,
    element: &'t Type,
    len: usize,
    read: usize,
    depth: usize,
    first_key_at: usize,
    /// The key of the entry being read (NFC).
    key: Cow<'de, str>,
    seen: Option<BTreeSet<String>>,
}

impl<'de> Entries<'_, 'de, '_> {
    /// Checks that `key` (at `key_at`) repeats no key read before it.
    fn check_unique(&mut self, key: &str, key_at: usize) -> Result<()> {
        if self.seen.is_none() {
            if self.read == 0 || *self.key < *key {
                return Ok(());
            }
            self.seen = Some(self.keys_read()?);
        }
        let seen = self.seen.get_or_insert_with(BTreeSet::new);
        if !seen.insert(key.to_owned()) {
            return Err(Error::new(ErrorKind::InvalidValue, "duplicate map key")
                .in_key(key)
                .at_offset(key_at));
        }
        Ok(())
    }

    /// The keys of the entries read before the current one, read again.
    #[cold]
    fn keys_read(&self) -> Result<BTreeSet<String>> {
        let mut r = self.st.r.rewound(self.first_key_at);
        let mut keys = BTreeSet::new();
        for _ in 0..self.read {
            keys.insert(text_of(key(&mut r, "a string map key")?)?.into_owned());
            r.skip(0)?;
        }
        Ok(keys)
    }
}

impl<'de> de::MapAccess<'de> for Entries<'_, 'de, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.read == self.len {
            return Ok(None);
        }
        let key_at = self.st.r.offset();
        let k = match short_text(&mut self.st.r) {
            Some(k) => Cow::Borrowed(k),
            None => text_of(key(&mut self.st.r, "a string map key")?)
                .map_err(|e| e.at_offset(key_at))?,
        };
        self.check_unique(&k, key_at)?;
        self.read += 1;
        self.key = k;
        match &self.key {
            Cow::Borrowed(s) => seed.deserialize(BorrowedStrDeserializer::<Error>::new(s)),
            Cow::Owned(s) => seed.deserialize(StrDeserializer::<Error>::new(s)),
        }
        .map(Some)
        .map_err(|e| e.in_key(&self.key).at_offset(key_at))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let de = De {
            st: self.st,
            ty: self.element,
            depth: self.depth,
        };
        seed.deserialize(de).map_err(|e| e.in_key(&self.key))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.len - self.read)
    }
}

/// The attributes of an object, as keys that are field indexes (into a struct) or names,
/// read along the object's [`Plan`].
struct Attributes<'a, 'de, 't> {
    st: &'a mut State<'de, 't>,
    plan: Plan<'t>,
    /// The keys' reader, once a key was not the next attribute in name order.
    keys: Option<AttributeKeys<'t>>,
    ty: &'t ObjectType,
    len: usize,
    read: usize,
    /// The attribute being read.
    attribute: usize,
    depth: usize,
}

impl<'t> Attributes<'_, '_, 't> {
    /// The attribute of the next key, read by [`AttributeKeys`] (keys not in name
    /// order, or not in the encoder's form).
    #[cold]
    #[inline(never)]
    fn attribute_slow(&mut self) -> Result<usize> {
        let ty = self.ty;
        let next = self.read - 1;
        self.keys
            .get_or_insert_with(|| AttributeKeys::resume(ty, next))
            .next(&mut self.st.r)
    }
}

impl<'de, 't> de::MapAccess<'de> for Attributes<'_, 'de, 't> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.read == self.len {
            return Ok(None);
        }
        let key_at = self.st.r.offset();
        let i = self.read;
        self.read += 1;
        let i = match self.plan.get(i) {
            Some(slot) if self.keys.is_none() && self.st.r.skip_if(slot.key) => i,
            _ => self.attribute_slow()?,
        };
        self.attribute = i;
        let field = self.plan[i].field;
        if field != NO_FIELD {
            return seed.deserialize(FieldIndex(field)).map(Some);
        }
        let name: &'t str = &self.ty.names().as_slice()[i];
        seed.deserialize(StrDeserializer::<Error>::new(name))
            .map(Some)
            .map_err(|e| e.in_attribute(name).at_offset(key_at))
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let i = self.attribute;
        let de = De {
            st: self.st,
            ty: self.plan[i].ty,
            depth: self.depth,
        };
        seed.deserialize(de)
            .map_err(|e| e.in_attribute(&self.ty.names().as_slice()[i]))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.len - self.read)
    }
}

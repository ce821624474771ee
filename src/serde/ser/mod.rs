//! Encoding from Rust types: one serde `Serializer` driven by a [`Type`], over three
//! [`Output`]s: MessagePack bytes, JSON text, and [`Value`]s.
//!
//! What it writes is what the codecs write for the equivalent value ([`to_value`]'s),
//! byte for byte: attributes in name order (every one; those the struct leaves out are
//! null), map keys NFC and in bytewise order (a key repeated once normalized is an
//! error), strings NFC, numbers in the codecs' forms. Struct fields and map entries are
//! written where they come; when they do not come in order, the parts written are put
//! in order at the end. A value that needs the whole of itself (at a `dynamic`
//! position, whose type is inferred from it; a set, whose order and equality are
//! go-cty's; a collection whose element type holds `dynamic`) is made as a [`Value`]
//! first and written by the codec.
//!
//! [`to_value`]: crate::serde::to_value

mod key;
pub(crate) mod output;

use ::serde::ser::{self, Serialize};

use crate::error::{Error, ErrorKind, Result};
use crate::path::PathStep;
use crate::serde::de::msgpack::needs_whole;
use crate::serde::handoff::{self, VALUE_TOKEN};
use crate::types::{ObjectType, Type};
use crate::value::set::strings_in_order;
use crate::value::{Number, Set, Str, Value};
use output::{Output, SeqKind, ValueOutput};

/// The type of the parts of a value at a `dynamic` position.
static DYNAMIC: Type = Type::Dynamic;

/// What one encode shares: the output, and stacks for the parts of the structs and maps
/// being written (so that none of them allocates its own).
pub(crate) struct State<O> {
    pub(crate) out: O,
    /// Where each part (an attribute or map entry, name or key included) starts.
    parts: Vec<usize>,
    /// The attribute of each part of an object.
    attributes: Vec<u32>,
    /// The key of each part of a map (NFC).
    keys: Vec<Str>,
    orders: FieldOrders,
}

impl<O> State<O> {
    pub(crate) fn new(out: O) -> State<O> {
        State {
            out,
            parts: Vec::new(),
            attributes: Vec::new(),
            keys: Vec::new(),
            orders: FieldOrders::default(),
        }
    }
}

/// Writes `value` as type `ty`.
#[inline(always)]
pub(crate) fn write<O: Output, T: Serialize + ?Sized>(
    st: &mut State<O>,
    value: &T,
    ty: &Type,
) -> Result<()> {
    if O::BYTES && needs_whole(ty) && !is_string_set(ty) {
        let v = to_value(value, ty)?;
        return st.out.value(v, ty);
    }
    value.serialize(Ser { st, ty })
}

/// Whether `ty` is `set(string)`, whose elements are written as they come when they
/// come in go-cty's order (see [`Kind::StringSet`]).
fn is_string_set(ty: &Type) -> bool {
    matches!(ty, Type::Set(e) if **e == Type::String)
}

/// `value` as a [`Value`] of type `ty`.
pub(crate) fn to_value<T: Serialize + ?Sized>(value: &T, ty: &Type) -> Result<Value> {
    let mut st = State::new(ValueOutput::default());
    value.serialize(Ser { st: &mut st, ty })?;
    Ok(st.out.finish())
}

/// One value, of type `ty`.
struct Ser<'a, 't, O> {
    st: &'a mut State<O>,
    ty: &'t Type,
}

impl<'a, 't, O: Output> Ser<'a, 't, O> {
    fn mismatch(&self, found: &str) -> Error {
        Error::new(
            ErrorKind::Unencodable,
            format!("expected {}, found {found}", self.ty.kind_name()),
        )
    }

    /// A number: at a position of another type, the codec converts it as
    /// `msgpack::encode` converts a number there (to its text for a string).
    fn number(self, n: Number) -> Result<()> {
        match self.ty {
            Type::Number => self.st.out.number(&n),
            _ => self.st.out.value(Value::Number(n), self.ty),
        }
    }

    fn int(self, i: i64) -> Result<()> {
        match self.ty {
            Type::Number => {
                self.st.out.int(i);
                Ok(())
            }
            _ => self.number(Number::from(i)),
        }
    }

    fn compound(self, kind: Kind<'t>, len: Option<usize>) -> Compound<'a, 't, O> {
        let st = self.st;
        let header_at = st.out.mark();
        match kind {
            Kind::Object(o, _) => st.out.begin_object(o),
            Kind::Map(_) | Kind::DynamicMap | Kind::DynamicObject => st.out.begin_map(len),
            _ => st.out.begin_sequence(len),
        }
        Compound {
            header_at,
            values: None,
            start: st.out.mark(),
            parts: st.parts.len(),
            attributes: st.attributes.len(),
            keys: st.keys.len(),
            kind,
            len,
            count: 0,
            in_order: true,
            recorded: !matches!(kind, Kind::Object(..)),
            st,
        }
    }

    /// A sequence: a list, set or tuple (or a list or tuple at a `dynamic` position).
    fn sequence(self, len: Option<usize>, tuple: bool) -> Result<Compound<'a, 't, O>> {
        let kind = match self.ty {
            Type::List(e) => Kind::Sequence(SeqKind::List, Some(e)),
            ty if O::BYTES && is_string_set(ty) => Kind::StringSet(ty),
            Type::Set(e) => Kind::Sequence(SeqKind::Set, Some(e)),
            Type::Tuple(ts) => Kind::Tuple(ts),
            Type::Dynamic if tuple => Kind::Sequence(SeqKind::Tuple, None),
            Type::Dynamic => Kind::Sequence(SeqKind::List, None),
            _ => return Err(self.mismatch("a sequence")),
        };
        Ok(self.compound(kind, len))
    }

    /// A struct or map: an object or a map.
    fn structure(
        self,
        name: Option<&'static str>,
        len: Option<usize>,
    ) -> Result<Compound<'a, 't, O>> {
        let kind = match (self.ty, name) {
            (Type::Object(o), _) => {
                let order = name.map(|name| self.st.orders.find(o, name));
                Kind::Object(o, order)
            }
            (Type::Map(e), _) => Kind::Map(e),
            (Type::Dynamic, Some(_)) => Kind::DynamicObject,
            (Type::Dynamic, None) => Kind::DynamicMap,
            _ => return Err(self.mismatch(if name.is_some() { "a struct" } else { "a map" })),
        };
        Ok(self.compound(kind, len))
    }
}

impl<'a, 't, O: Output> ser::Serializer for Ser<'a, 't, O> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, 't, O>;
    type SerializeTuple = Compound<'a, 't, O>;
    type SerializeTupleStruct = Compound<'a, 't, O>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = Compound<'a, 't, O>;
    type SerializeStruct = Compound<'a, 't, O>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    fn serialize_bool(self, b: bool) -> Result<()> {
        match self.ty {
            Type::Bool => {
                self.st.out.bool(b);
                Ok(())
            }
            _ => self.st.out.value(Value::Bool(b), self.ty),
        }
    }

    fn serialize_i8(self, v: i8) -> Result<()> {
        self.int(i64::from(v))
    }

    fn serialize_i16(self, v: i16) -> Result<()> {
        self.int(i64::from(v))
    }

    fn serialize_i32(self, v: i32) -> Result<()> {
        self.int(i64::from(v))
    }

    fn serialize_i64(self, v: i64) -> Result<()> {
        self.int(v)
    }

    fn serialize_i128(self, v: i128) -> Result<()> {
        match i64::try_from(v) {
            Ok(i) => self.int(i),
            Err(_) => self.number(Number::parse(&v.to_string()).map_err(number_error)?),
        }
    }

    fn serialize_u8(self, v: u8) -> Result<()> {
        self.int(i64::from(v))
    }

    fn serialize_u16(self, v: u16) -> Result<()> {
        self.int(i64::from(v))
    }

    fn serialize_u32(self, v: u32) -> Result<()> {
        self.int(i64::from(v))
    }

    fn serialize_u64(self, v: u64) -> Result<()> {
        match i64::try_from(v) {
            Ok(i) => self.int(i),
            Err(_) => self.number(Number::from(v)),
        }
    }

    fn serialize_u128(self, v: u128) -> Result<()> {
        match i64::try_from(v) {
            Ok(i) => self.int(i),
            Err(_) => self.number(Number::parse(&v.to_string()).map_err(number_error)?),
        }
    }

    fn serialize_f32(self, v: f32) -> Result<()> {
        self.serialize_f64(f64::from(v))
    }

    fn serialize_f64(self, v: f64) -> Result<()> {
        let n = Number::try_from(v).map_err(number_error)?;
        self.number(n)
    }

    fn serialize_char(self, v: char) -> Result<()> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }

    fn serialize_str(self, v: &str) -> Result<()> {
        match self.ty {
            Type::String => {
                self.st.out.string(v);
                Ok(())
            }
            Type::Number => {
                let n = Number::parse(v).map_err(number_error)?;
                self.st.out.number(&n)
            }
            _ => self.st.out.value(Value::string(v), self.ty),
        }
    }

    fn serialize_bytes(self, _: &[u8]) -> Result<()> {
        Err(self.mismatch("bytes (cty has no type for bytes)"))
    }

    fn serialize_none(self) -> Result<()> {
        self.st.out.null();
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<()> {
        self.serialize_none()
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<()> {
        self.serialize_none()
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<()> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        if name != VALUE_TOKEN {
            return value.serialize(self);
        }
        let v = handoff::capture(|| {
            value
                .serialize(Ser {
                    st: &mut State::new(ValueOutput::default()),
                    ty: &DYNAMIC,
                })
                .map(drop)
        })?;
        self.st.out.value(v, self.ty)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        let mut map = self.structure(None, Some(1))?;
        ser::SerializeMap::serialize_entry(&mut map, variant, value)?;
        ser::SerializeMap::end(map)
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, 't, O>> {
        self.sequence(len, false)
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, 't, O>> {
        self.sequence(Some(len), true)
    }

    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Compound<'a, 't, O>> {
        self.sequence(Some(len), true)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(self
            .mismatch("an enum variant with fields (only unit and newtype variants are written)"))
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a, 't, O>> {
        self.structure(None, len)
    }

    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Compound<'a, 't, O>> {
        self.structure(Some(name), Some(len))
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(self
            .mismatch("an enum variant with fields (only unit and newtype variants are written)"))
    }
}

fn number_error(e: crate::value::NumberError) -> Error {
    Error::new(ErrorKind::Unencodable, e.to_string())
}

/// What a compound value is written as.
#[derive(Clone, Copy)]
enum Kind<'t> {
    /// A list or set of elements of one type (or, with `None`, a list or tuple at a
    /// `dynamic` position).
    Sequence(SeqKind, Option<&'t Type>),
    Tuple(&'t [Type]),
    /// An object, with the struct's field order when it is a struct.
    Object(&'t ObjectType, Option<usize>),
    Map(&'t Type),
    /// A map or a struct at a `dynamic` position: a map or an object value.
    DynamicMap,
    DynamicObject,
    /// A `set(string)` written to bytes. A set goes in go-cty's order, which for
    /// strings is their byte order: its elements are written as they come while they
    /// come in that order; any other set is made whole as a [`Value`] and written by the
    /// codec.
    StringSet(&'t Type),
}

/// A sequence, struct or map being written.
pub(crate) struct Compound<'a, 't, O> {
    st: &'a mut State<O>,
    kind: Kind<'t>,
    /// Where the compound starts, header included.
    header_at: usize,
    /// The elements of a `set(string)` not written as they came.
    values: Option<Vec<Value>>,
    /// The length serde gave.
    len: Option<usize>,
    /// Where the first part starts.
    start: usize,
    /// The parts written.
    count: usize,
    /// Where this compound's parts start in the state's stacks.
    parts: usize,
    attributes: usize,
    keys: usize,
    /// Whether the attributes (keys) written so far are in name (key) order.
    in_order: bool,
    /// Whether the parts of an object are recorded in the stacks: from its first part
    /// that is not the next attribute in name order (the parts of maps always are).
    recorded: bool,
}

impl<O: Output> Compound<'_, '_, O> {
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let i = self.count;
        if let Kind::StringSet(_) = self.kind {
            return self.string_element(value).map_err(|e| e.in_index(i));
        }
        let ty = match self.kind {
            Kind::Sequence(_, e) => e.unwrap_or(&DYNAMIC),
            Kind::Tuple(ts) => ts.get(i).ok_or_else(|| {
                Error::new(
                    ErrorKind::Unencodable,
                    format!("expected a tuple of {} elements, found more", ts.len()),
                )
            })?,
            _ => unreachable!("elements are only written to sequences"),
        };
        self.st.out.separator(i);
        self.count += 1;
        write(self.st, value, ty).map_err(|e| e.in_index(i))
    }

    /// An element of a `set(string)`.
    fn string_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        if self.values.is_none() {
            if let Ok(s) = key::string(value) {
                let st = &mut *self.st;
                if st.keys.len() > self.keys
                    && !strings_in_order(st.keys[st.keys.len() - 1].as_bytes(), s.as_bytes())
                {
                    self.in_order = false;
                }
                st.out.separator(self.count);
                st.out.nfc_string(&s);
                st.keys.push(s);
                self.count += 1;
                return Ok(());
            }
            let strings = self.st.keys.drain(self.keys..).map(Value::String);
            self.values = Some(strings.collect());
        }
        let v = to_value(value, &Type::String)?;
        self.values.get_or_insert_with(Vec::new).push(v);
        Ok(())
    }

    fn end_sequence(mut self) -> Result<()> {
        if let Kind::StringSet(ty) = self.kind {
            let st = &mut *self.st;
            if self.values.is_none() && self.in_order {
                st.keys.truncate(self.keys);
                return st
                    .out
                    .end_sequence(self.start, self.count, self.len, SeqKind::Set);
            }
            let mut values = self.values.take().unwrap_or_default();
            values.extend(st.keys.drain(self.keys..).map(Value::String));
            st.out.truncate(self.header_at);
            return st.out.value(Value::Set(Set::new(values)), ty);
        }
        let kind = match self.kind {
            Kind::Sequence(kind, _) => kind,
            Kind::Tuple(ts) => {
                if self.count != ts.len() {
                    return Err(Error::new(
                        ErrorKind::Unencodable,
                        format!(
                            "expected a tuple of {} elements, found {}",
                            ts.len(),
                            self.count
                        ),
                    ));
                }
                SeqKind::Tuple
            }
            _ => unreachable!("only sequences end as sequences"),
        };
        self.st
            .out
            .end_sequence(self.start, self.count, self.len, kind)
    }

    /// Writes attribute `i` of `o`.
    fn attribute<T: Serialize + ?Sized>(
        &mut self,
        o: &ObjectType,
        i: usize,
        value: &T,
    ) -> Result<()> {
        if !self.recorded {
            if i == self.count {
                // Attributes 0, 1, 2, ... as the struct gives them: nothing to record.
                let st = &mut *self.st;
                st.out.separator(self.count);
                st.out.name(o, i);
                self.count += 1;
                return write(st, value, &o.types()[i])
                    .map_err(|e| e.in_attribute(&o.names().as_slice()[i]));
            }
            self.record();
        }
        let st = &mut *self.st;
        if st.attributes.len() > self.attributes
            && st.attributes[st.attributes.len() - 1] as usize >= i
        {
            self.in_order = false;
        }
        st.out.separator(self.count);
        st.parts.push(st.out.mark());
        st.attributes.push(i as u32);
        st.out.name(o, i);
        self.count += 1;
        write(st, value, &o.types()[i]).map_err(|e| e.in_attribute(&o.names().as_slice()[i]))
    }

    /// Starts recording the parts of an object, whose first `count` parts (attributes
    /// 0, 1, 2, ...) were written without: their starts are found by reading them again.
    #[cold]
    fn record(&mut self) {
        let st = &mut *self.st;
        let starts = st.out.part_starts(self.start, self.count);
        st.parts.extend(starts);
        st.attributes.extend(0..self.count as u32);
        self.recorded = true;
    }

    /// Writes a map entry (or an attribute named by a map key, or an entry of a value
    /// at a `dynamic` position).
    fn entry<T: Serialize + ?Sized>(&mut self, key: Str, value: &T) -> Result<()> {
        let (element, object) = match self.kind {
            Kind::Map(e) => (e, None),
            Kind::Object(o, _) => (&DYNAMIC, Some(o)),
            _ => (&DYNAMIC, None),
        };
        if let Some(o) = object {
            let Some(i) = o.names().index_of(&key) else {
                return Err(unsupported(&key));
            };
            return self.attribute(o, i, value);
        }
        let st = &mut *self.st;
        if st.keys.len() > self.keys && st.keys[st.keys.len() - 1] >= key {
            self.in_order = false;
        }
        st.out.separator(self.count);
        st.parts.push(st.out.mark());
        st.out.key(&key);
        self.count += 1;
        let result = write(st, value, element).map_err(|e| match self.kind {
            Kind::DynamicObject => e.in_attribute(&key),
            _ => e.in_key(&key),
        });
        st.keys.push(key);
        result
    }

    fn end_structure(mut self) -> Result<()> {
        if let Kind::Object(o, _) = self.kind {
            if !self.recorded && self.count < o.len() {
                self.record();
            }
        }
        let st = self.st;
        let result = match self.kind {
            Kind::Object(o, _) => end_object(
                st,
                o,
                self.start,
                (self.parts, self.attributes),
                self.count,
                self.in_order,
            ),
            _ => end_map(
                st,
                self.start,
                self.parts,
                self.keys,
                self.len,
                self.in_order,
                matches!(self.kind, Kind::DynamicObject),
            ),
        };
        st.parts.truncate(self.parts);
        st.attributes.truncate(self.attributes);
        st.keys.truncate(self.keys);
        result
    }
}

fn unsupported(name: &str) -> Error {
    Error::new(
        ErrorKind::Unencodable,
        "the struct has this field, but the object type has no such attribute",
    )
    .in_step(PathStep::Attribute(name.to_owned()))
}

/// Ends an object whose parts (from `base` in the part and attribute stacks) are
/// `count` attributes: writes the attributes not given as nulls, and puts the parts in
/// name order.
fn end_object<O: Output>(
    st: &mut State<O>,
    o: &ObjectType,
    start: usize,
    (base, attribute_base): (usize, usize),
    mut count: usize,
    in_order: bool,
) -> Result<()> {
    if in_order && count == o.len() {
        st.out.end_object(o, start);
        return Ok(());
    }
    let mut given = vec![false; o.len()];
    for &a in &st.attributes[attribute_base..] {
        if std::mem::replace(&mut given[a as usize], true) {
            return Err(
                Error::new(ErrorKind::Unencodable, "attribute written twice")
                    .in_attribute(&o.names().as_slice()[a as usize]),
            );
        }
    }
    for (i, _) in given.iter().enumerate().filter(|(_, g)| !**g) {
        st.out.separator(count);
        st.parts.push(st.out.mark());
        st.attributes.push(i as u32);
        st.out.name(o, i);
        st.out.null();
        count += 1;
    }
    let attributes = &st.attributes[attribute_base..];
    if !attributes.windows(2).all(|w| w[0] < w[1]) {
        let mut order: Vec<usize> = (0..count).collect();
        order.sort_by_key(|&k| attributes[k]);
        st.out.permute(&st.parts[base..], &order);
    }
    st.out.end_object(o, start);
    Ok(())
}

/// Ends a map whose parts (from `base` in the stacks) have the keys from `keys` in the
/// key stack: puts them in key order; a repeated key is an error.
fn end_map<O: Output>(
    st: &mut State<O>,
    start: usize,
    base: usize,
    keys: usize,
    len: Option<usize>,
    in_order: bool,
    object: bool,
) -> Result<()> {
    if !in_order {
        let key_list = &st.keys[keys..];
        let mut order: Vec<usize> = (0..key_list.len()).collect();
        order.sort_by(|&a, &b| key_list[a].cmp(&key_list[b]));
        if let Some(w) = order.windows(2).find(|w| key_list[w[0]] == key_list[w[1]]) {
            let key = &key_list[w[0]];
            let message = "key written twice (after NFC normalization)";
            let e = Error::new(ErrorKind::Unencodable, message);
            return Err(if object {
                e.in_attribute(key)
            } else {
                e.in_key(key)
            });
        }
        st.out.permute(&st.parts[base..], &order);
        let mut sorted: Vec<Str> = order.iter().map(|&k| st.keys[keys + k].clone()).collect();
        st.keys.truncate(keys);
        st.keys.append(&mut sorted);
    }
    st.out.end_map(start, len, &st.keys[keys..], object)
}

impl<O: Output> ser::SerializeSeq for Compound<'_, '_, O> {
    type Ok = ();
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }

    fn end(self) -> Result<()> {
        self.end_sequence()
    }
}

impl<O: Output> ser::SerializeTuple for Compound<'_, '_, O> {
    type Ok = ();
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }

    fn end(self) -> Result<()> {
        self.end_sequence()
    }
}

impl<O: Output> ser::SerializeTupleStruct for Compound<'_, '_, O> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }

    fn end(self) -> Result<()> {
        self.end_sequence()
    }
}

impl<O: Output> ser::SerializeMap for Compound<'_, '_, O> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        let key = key::text(key)?;
        self.st.keys.push(key);
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let key = self
            .st
            .keys
            .pop()
            .ok_or_else(|| Error::new(ErrorKind::Unencodable, "a map value without its key"))?;
        self.entry(key, value)
    }

    fn end(self) -> Result<()> {
        self.end_structure()
    }
}

impl<O: Output> ser::SerializeStruct for Compound<'_, '_, O> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        match self.kind {
            Kind::Object(o, order) => {
                let i = match order {
                    Some(order) => self.st.orders.attribute(order, self.count, key, o),
                    None => o.names().index_of(key),
                };
                match i {
                    Some(i) => self.attribute(o, i, value),
                    None => Err(unsupported(key)),
                }
            }
            _ => self.entry(Str::from(crate::text::nfc(key)), value),
        }
    }

    fn end(self) -> Result<()> {
        self.end_structure()
    }
}

/// For each struct written with an object type, which attribute each of its fields
/// was, by position: a struct writes its fields in one order, so the attribute of its
/// kth field is found by comparing one pointer, not by looking its name up.
#[derive(Default)]
struct FieldOrders {
    orders: Vec<FieldOrder>,
}

struct FieldOrder {
    /// The object type and the struct's name, as addresses.
    ty: usize,
    name: usize,
    /// For each field position, the field name's address and length, and its
    /// attribute.
    fields: Vec<(usize, usize, usize)>,
}

impl FieldOrders {
    fn find(&mut self, ty: &ObjectType, name: &'static str) -> usize {
        let (ty, name) = (ty as *const ObjectType as usize, name.as_ptr() as usize);
        match self
            .orders
            .iter()
            .position(|o| o.ty == ty && o.name == name)
        {
            Some(i) => i,
            None => {
                self.orders.push(FieldOrder {
                    ty,
                    name,
                    fields: Vec::new(),
                });
                self.orders.len() - 1
            }
        }
    }

    /// The attribute of field `key`, the struct's `k`th, in `o`.
    #[inline]
    fn attribute(
        &mut self,
        order: usize,
        k: usize,
        key: &'static str,
        o: &ObjectType,
    ) -> Option<usize> {
        let fields = &mut self.orders[order].fields;
        let id = (key.as_ptr() as usize, key.len());
        if let Some(&(p, l, a)) = fields.get(k) {
            if (p, l) == id {
                return Some(a);
            }
        }
        let a = o.names().index_of(key)?;
        if k < fields.len() {
            fields[k] = (id.0, id.1, a);
        } else if k == fields.len() {
            fields.push((id.0, id.1, a));
        }
        Some(a)
    }
}

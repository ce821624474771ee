//! The typed JSON codec of derived structs: [`JsonField`], implemented here for every
//! field type and by `#[derive(ctywire::Object)]` for the struct, reads and writes
//! straight between JSON text and Rust values, with no [`Value`] tree between them
//! (except inside `dynamic` fields, which are [`Value`]s read and written by the `Value`
//! codec, in their `{"value": ..., "type": ...}` wrapper).
//!
//! What it reads and writes is what [`json::decode`](crate::json::decode) and
//! [`json::encode`](crate::json::encode) read and write for the struct's
//! [`Object::cty_type`](super::Object::cty_type): the same text (attributes in name
//! order, sets in go-cty's order, numbers and strings as go-cty writes them), the
//! decoder's leniency (numbers and bools may come as strings, strings as numbers or
//! bools, a repeated attribute or map key keeps its last value, an attribute left out
//! is null), the same errors with the same paths and positions. The rules that do not
//! depend on the encoding (set order, concrete types of `dynamic` values, which values
//! are null or unknown) are [`MsgpackField`]'s, which every `JsonField` is too.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::{BuildHasher, Hash};

use crate::error::{Error, ErrorKind, Result};
use crate::json::decode::{
    bool_of, mismatch_named, number, number_text, string_text, Decoder, DEFAULT_OPTIONS,
};
use crate::json::encode;
use crate::limits::MAX_DEPTH;
use crate::path::PathStep;
use crate::token::json_read::{Kind, Reader};
use crate::token::json_write::write_string;
use crate::types::Type;
use crate::value::{Number, Value};
use crate::Known;

use super::codec::{
    common_type_to_write, float_number, from_value, index_step, integer_field_number, integer_of,
    keys_are_nfc, map_value, narrow, null_error, set_order, settle_elements, settle_map,
    sorted_entries, to_value,
};
use super::MsgpackField;

/// A position in JSON text being decoded into typed fields: what
/// [`JsonField::decode_json`] reads from. Made by
/// [`json::decode_object`](crate::json::decode_object).
pub struct JsonReader<'a> {
    r: Reader<'a>,
    /// The `Value` decoder, for `dynamic` fields and values read through a `Value`; it
    /// also keeps the count of the values the input leaves out.
    d: Decoder<'a, 'static>,
}

/// A field type of a derived [`Object`](super::Object) that reads and writes JSON
/// itself: what the typed JSON codec of `#[derive(ctywire::Object)]` calls for each
/// field.
///
/// Implemented for the types [`MsgpackField`] is implemented for, and by the derive for
/// the struct. JSON cannot hold unknowns: a [`Known::Unknown`] is an error to write
/// (naming its path), as [`json::encode`](crate::json::encode) refuses an unknown value.
///
/// ```
/// # #[cfg(feature = "derive")] {
/// use ctywire::object::Object;
/// use ctywire::{json, Known};
///
/// #[derive(ctywire::Object, Debug, PartialEq)]
/// struct Disk {
///     #[cty(required)]
///     size: u32,
///     #[cty(computed)]
///     id: Known<String>,
/// }
///
/// let disk = Disk { size: 10, id: Known::Null };
/// let text = json::encode_object(&disk)?;
/// assert_eq!(text, br#"{"id":null,"size":10}"#);
/// assert_eq!(json::decode_object::<Disk>(br#"{"size": "10"}"#)?, disk);
///
/// let err = json::decode_object::<Disk>(br#"{"size": 4294967296}"#).unwrap_err();
/// assert_eq!(err.to_string(), ".size: expected u32 (an integer from 0 to 4294967295), found 4294967296 at line 1 column 10");
/// let err = json::encode_object(&Disk { size: 1, id: Known::unknown() }).unwrap_err();
/// assert_eq!(err.to_string(), ".id: value is not known");
/// # }
/// # Ok::<(), ctywire::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no typed JSON codec",
    label = "not a field type ctywire's typed codec reads and writes",
    note = "field types: String, bool, integers, f32, f64, Number, Value, Vec, BTreeSet, HashSet, BTreeMap<String, _>, HashMap<String, _>, Option, Known, Box, or a #[derive(ctywire::Object)] struct"
)]
pub trait JsonField: MsgpackField {
    /// Reads one value at the reader's position; `depth` is the nesting level (checked
    /// against [`MAX_DEPTH`](crate::limits::MAX_DEPTH)).
    fn decode_json(r: &mut JsonReader<'_>, depth: usize) -> Result<Self>;

    /// Appends the value's JSON, as [`json::encode`](crate::json::encode) writes the
    /// equivalent [`Value`].
    fn encode_json(&self, out: &mut Vec<u8>) -> Result<()>;

    /// The value of an attribute the input leaves out, which JSON reads as null: `None`
    /// when the type cannot hold null (the attribute is then an error).
    fn left_out() -> Option<Self> {
        None
    }

    /// Writes the value as an element of a collection whose elements have the concrete
    /// type `common` (when the element type holds `dynamic`): a null `dynamic` element
    /// is written in a wrapper of that type. By default as
    /// [`encode_json`](Self::encode_json).
    fn encode_json_element(&self, _common: Option<&Type>, out: &mut Vec<u8>) -> Result<()> {
        self.encode_json(out)
    }
}

impl<'a> JsonReader<'a> {
    /// A reader at the start of `input`.
    pub(crate) fn new(input: &'a [u8]) -> JsonReader<'a> {
        JsonReader {
            r: Reader::new_checked(input),
            d: Decoder::new(input, &DEFAULT_OPTIONS),
        }
    }

    /// Fails unless only whitespace is left.
    pub(crate) fn finish(&mut self) -> Result<()> {
        self.r.finish()
    }

    /// The byte offset of the next unread byte.
    pub fn offset(&self) -> usize {
        self.r.offset()
    }

    /// The kind of the next value and its offset, refused beyond
    /// [`MAX_DEPTH`](crate::limits::MAX_DEPTH): the value decoder's first steps.
    fn start(&mut self, depth: usize) -> Result<(Kind, usize)> {
        let kind = self.r.peek_kind()?;
        let at = self.r.offset();
        if depth > MAX_DEPTH {
            return Err(crate::limits::depth_exceeded("value").at_offset(at));
        }
        Ok((kind, at))
    }

    /// [`start`](Self::start) for a type that cannot hold null (`kind` names it).
    fn non_null(&mut self, kind: &str, depth: usize) -> Result<(Kind, usize)> {
        let (found, at) = self.start(depth)?;
        if found == Kind::Null {
            return Err(null_error(kind).at_offset(at));
        }
        Ok((found, at))
    }

    /// Whether the next value is null, read if so.
    fn null(&mut self, depth: usize) -> Result<bool> {
        let (kind, _) = self.start(depth)?;
        if kind == Kind::Null {
            self.r.read_null()?;
            return Ok(true);
        }
        Ok(false)
    }

    /// The start of a value of container kind `container` (`Kind::Array` or
    /// `Kind::Object`) for type `kind`, read: its offset.
    fn container(&mut self, kind: &str, container: Kind, depth: usize) -> Result<usize> {
        let (found, at) = self.non_null(kind, depth)?;
        if found != container {
            return Err(mismatch_named(kind, found, at));
        }
        if container == Kind::Array {
            self.r.begin_array()?;
        } else {
            self.r.begin_object()?;
        }
        Ok(at)
    }

    /// Reads the start of an object, or the value decoder's error: gives its offset.
    pub fn begin_object(&mut self, depth: usize) -> Result<usize> {
        self.container("object", Kind::Object, depth)
    }

    /// Reads the next attribute name of the object being read and gives its index in
    /// `names` (the attributes' names); `None` at the object's end. `next` is the index
    /// expected while the names come in order. A name not in `names` is an error with
    /// its path.
    #[inline]
    pub fn attribute(&mut self, names: &[&str], next: &mut usize) -> Result<Option<usize>> {
        let Some((k, key_at)) = self.r.next_key_at()? else {
            return Ok(None);
        };
        if names.get(*next).is_some_and(|n| **n == *k) {
            *next += 1;
            return Ok(Some(*next - 1));
        }
        match names.iter().position(|n| **n == *k) {
            Some(i) => {
                *next = i + 1;
                Ok(Some(i))
            }
            None => Err(Error::new(ErrorKind::InvalidValue, "unsupported attribute")
                .in_attribute(&k)
                .at_offset(key_at)),
        }
    }

    /// Ends an object of `n` attributes read at `at`, of whose members `given` named an
    /// attribute: counts the attributes left out against
    /// [`MAX_IMPLICIT_VALUES`](crate::limits::MAX_IMPLICIT_VALUES), as the value
    /// decoder does.
    pub fn end_object(&mut self, n: usize, given: usize, at: usize) -> Result<()> {
        self.d.left_out(n, given, at)
    }

    /// Reads the value of an object member that a later member of the same name
    /// replaces (a repeated attribute or map key, whose last value counts), with `read`:
    /// `Ok(Ok(value))`; or, when `read` fails but the value decoder reads the value with
    /// its type (`ty`: a fault that only the Rust type finds), `Ok(Err(error))` with the
    /// reader past the value, the error standing unless a later member replaces this
    /// one; or the value decoder's error.
    pub fn replaceable<T>(
        &mut self,
        depth: usize,
        read: impl FnOnce(&mut Self) -> Result<T>,
        ty: impl FnOnce() -> Type,
    ) -> Result<Result<T>> {
        self.r.skip_whitespace();
        let start = self.r.offset();
        let budget = self.d.implicit_budget();
        match read(self) {
            Ok(v) => Ok(Ok(v)),
            Err(e) => {
                self.r.seek(start);
                self.d.restore_implicit_budget(budget);
                self.value(&ty(), depth)?;
                Ok(Err(e))
            }
        }
    }

    /// A value of type `ty` read by the `Value` decoder.
    fn value(&mut self, ty: &Type, depth: usize) -> Result<Value> {
        self.d.value(&mut self.r, ty, depth)
    }
}

/// The value of attribute `name`, left out of the object read at `at`: for the code the
/// derive generates.
#[cold]
pub fn left_out<T: JsonField>(name: &str, at: usize) -> Result<T> {
    T::left_out().ok_or_else(|| {
        Error::mismatch(
            T::cty_type().kind_name(),
            "nothing: the attribute is left out, which reads as null (a value that may be null needs Option<T> or ctywire::Known<T>)",
        )
        .in_attribute(name)
        .at_offset(at)
    })
}

/// Each attribute name as the encoder writes it before the value: `"a":` for the first,
/// `,"b":` for every later one. For the code the derive generates, which makes them
/// once per struct.
pub fn json_keys(names: &[&str]) -> Vec<Box<[u8]>> {
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let mut out = Vec::with_capacity(name.len() + 4);
            if i > 0 {
                out.push(b',');
            }
            write_string(&mut out, name);
            out.push(b':');
            out.into_boxed_slice()
        })
        .collect()
}

// ---- Values converted through the `Value` codec: the rare shapes. ----

/// Reads a value of wire type `wire` (which differs from `T`'s own type: a LIST block
/// declared a set, a LIST block holding `dynamic`) through a [`Value`], converted to
/// `T`'s type: for the code the derive generates.
pub fn decode_json_via<T: JsonField>(
    r: &mut JsonReader<'_>,
    depth: usize,
    wire: &Type,
) -> Result<T> {
    r.r.skip_whitespace();
    let at = r.offset();
    let value = r.value(wire, depth)?;
    // An error converting the value is at the value.
    from_value::<T>(&value, wire, depth)
        .map_err(|e| e.with_position(crate::error::Position::Offset(at)))
}

/// Writes `value` as wire type `wire` (see [`decode_json_via`]): for the code the derive
/// generates.
pub fn encode_json_via<T: JsonField>(value: &T, wire: &Type, out: &mut Vec<u8>) -> Result<()> {
    crate::json::encode_into(&to_value(value)?, wire, out)
}

// ---- Strings, bools, numbers. ----

fn read_string(r: &mut JsonReader<'_>, depth: usize) -> Result<String> {
    let (kind, at) = r.non_null("string", depth)?;
    Ok(string_text(&mut r.r, kind, at)?.into_owned())
}

impl JsonField for String {
    fn decode_json(r: &mut JsonReader<'_>, depth: usize) -> Result<Self> {
        read_string(r, depth)
    }

    fn encode_json(&self, out: &mut Vec<u8>) -> Result<()> {
        encode::string(self, out);
        Ok(())
    }
}

impl JsonField for Box<str> {
    fn decode_json(r: &mut JsonReader<'_>, depth: usize) -> Result<Self> {
        read_string(r, depth).map(String::into_boxed_str)
    }

    fn encode_json(&self, out: &mut Vec<u8>) -> Result<()> {
        encode::string(self, out);
        Ok(())
    }
}

impl JsonField for bool {
    fn decode_json(r: &mut JsonReader<'_>, depth: usize) -> Result<Self> {
        let (kind, at) = r.non_null("bool", depth)?;
        bool_of(&mut r.r, kind, at)
    }

    fn encode_json(&self, out: &mut Vec<u8>) -> Result<()> {
        out.extend_from_slice(if *self { b"true" } else { b"false" });
        Ok(())
    }
}

/// A number's text (a number literal or a string) and its offset.
fn read_number_text<'a>(
    r: &mut JsonReader<'a>,
    depth: usize,
) -> Result<(std::borrow::Cow<'a, str>, usize)> {
    let (kind, at) = r.non_null("number", depth)?;
    Ok((number_text(&mut r.r, kind, at)?, at))
}

fn read_number(r: &mut JsonReader<'_>, depth: usize) -> Result<Number> {
    let (text, at) = read_number_text(r, depth)?;
    number(&text).map_err(|e| e.at_offset(at))
}

impl JsonField for Number {
    fn decode_json(r: &mut JsonReader<'_>, depth: usize) -> Result<Self> {
        read_number(r, depth)
    }

    fn encode_json(&self, out: &mut Vec<u8>) -> Result<()> {
        encode::number(self, out)
    }
}

macro_rules! float_fields {
    ($($t:ty),*) => {$(
        impl JsonField for $t {
            fn decode_json(r: &mut JsonReader<'_>, depth: usize) -> Result<Self> {
                Ok(read_number(r, depth)?.to_f64() as $t)
            }

            fn encode_json(&self, out: &mut Vec<u8>) -> Result<()> {
                encode::number(&float_number(f64::from(*self))?, out)
            }
        }
    )*};
}

float_fields!(f32, f64);

/// Reads a number for an integer field: the integer, or the number when it is not one
/// (or beyond i128), with the offset it starts at.
fn read_integer(
    r: &mut JsonReader<'_>,
    depth: usize,
) -> Result<(std::result::Result<i128, Number>, usize)> {
    let (text, at) = read_number_text(r, depth)?;
    // Plain decimal digits (the common case) are the integer they spell, which
    // `Number::parse` would find too.
    let digits = text.strip_prefix('-').unwrap_or(&text);
    if !digits.is_empty() && digits.len() <= 38 && digits.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(i) = text.parse::<i128>() {
            return Ok((Ok(i), at));
        }
    }
    let n = number(&text).map_err(|e| e.at_offset(at))?;
    Ok((integer_of(n), at))
}

macro_rules! integer_fields {
    ($($t:ident),*) => {$(
        impl JsonField for $t {
            fn decode_json(r: &mut JsonReader<'_>, depth: usize) -> Result<Self> {
                let (read, at) = read_integer(r, depth)?;
                narrow(read, at, stringify!($t), $t::MIN, $t::MAX)
            }

            fn encode_json(&self, out: &mut Vec<u8>) -> Result<()> {
                encode::number(&integer_field_number(*self)?, out)
            }
        }
    )*};
}

integer_fields!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

// ---- dynamic ----

impl JsonField for Value {
    fn decode_json(r: &mut JsonReader<'_>, depth: usize) -> Result<Self> {
        r.value(&Type::Dynamic, depth)
    }

    fn encode_json(&self, out: &mut Vec<u8>) -> Result<()> {
        encode::encode(self, &Type::Dynamic, out)
    }

    fn left_out() -> Option<Self> {
        Some(Value::Null)
    }

    fn encode_json_element(&self, common: Option<&Type>, out: &mut Vec<u8>) -> Result<()> {
        match (common, self) {
            (Some(c), Value::Null | Value::Unknown(_)) if *c != Type::Dynamic => {
                encode::encode(&Value::typed(c.clone(), self.clone()), &Type::Dynamic, out)
            }
            _ => self.encode_json(out),
        }
    }
}

// ---- Null, unknown, boxes. ----

impl<T: JsonField> JsonField for Option<T> {
    fn decode_json(r: &mut JsonReader<'_>, depth: usize) -> Result<Self> {
        if r.null(depth)? {
            return Ok(None);
        }
        T::decode_json(r, depth).map(Some)
    }

    fn encode_json(&self, out: &mut Vec<u8>) -> Result<()> {
        match self {
            None => {
                out.extend_from_slice(b"null");
                Ok(())
            }
            Some(v) => v.encode_json(out),
        }
    }

    fn left_out() -> Option<Self> {
        Some(None)
    }

    fn encode_json_element(&self, common: Option<&Type>, out: &mut Vec<u8>) -> Result<()> {
        match self {
            Some(v) => v.encode_json_element(common, out),
            None => null_element::<Self>(common, out),
        }
    }
}

/// A null element of a collection of type `T` whose elements have the concrete type
/// `common`: in a wrapper of that type when `T` is `dynamic`.
fn null_element<T: JsonField>(common: Option<&Type>, out: &mut Vec<u8>) -> Result<()> {
    match common {
        Some(c) if *c != Type::Dynamic && T::cty_type() == Type::Dynamic => {
            encode::encode(&Value::typed(c.clone(), Value::Null), &Type::Dynamic, out)
        }
        _ => {
            out.extend_from_slice(b"null");
            Ok(())
        }
    }
}

impl<T: JsonField> JsonField for Known<T> {
    fn decode_json(r: &mut JsonReader<'_>, depth: usize) -> Result<Self> {
        if r.null(depth)? {
            return Ok(Known::Null);
        }
        T::decode_json(r, depth).map(Known::Known)
    }

    fn encode_json(&self, out: &mut Vec<u8>) -> Result<()> {
        match self {
            Known::Null => {
                out.extend_from_slice(b"null");
                Ok(())
            }
            Known::Unknown(_) => Err(encode::unknown_error()),
            Known::Known(v) => v.encode_json(out),
        }
    }

    fn left_out() -> Option<Self> {
        Some(Known::Null)
    }

    fn encode_json_element(&self, common: Option<&Type>, out: &mut Vec<u8>) -> Result<()> {
        match self {
            Known::Known(v) => v.encode_json_element(common, out),
            Known::Null => null_element::<Self>(common, out),
            Known::Unknown(_) => Err(encode::unknown_error()),
        }
    }
}

impl<T: JsonField> JsonField for Box<T> {
    fn decode_json(r: &mut JsonReader<'_>, depth: usize) -> Result<Self> {
        T::decode_json(r, depth).map(Box::new)
    }

    fn encode_json(&self, out: &mut Vec<u8>) -> Result<()> {
        (**self).encode_json(out)
    }

    fn left_out() -> Option<Self> {
        T::left_out().map(Box::new)
    }

    fn encode_json_element(&self, common: Option<&Type>, out: &mut Vec<u8>) -> Result<()> {
        (**self).encode_json_element(common, out)
    }
}

// ---- Collections. ----

/// Reads a list's or set's elements (`kind` names the type), with the element type's
/// checks.
fn read_elements<T: JsonField>(r: &mut JsonReader<'_>, kind: &str, depth: usize) -> Result<Vec<T>> {
    let at = r.container(kind, Kind::Array, depth)?;
    let mut out = Vec::new();
    while r.r.next_element()? {
        let i = out.len();
        out.push(T::decode_json(r, depth + 1).map_err(|e| e.in_index(i))?);
    }
    settle_elements(&mut out, at)?;
    Ok(out)
}

/// Writes a list's elements.
fn write_list<'e, T: JsonField + 'e>(
    elements: impl Iterator<Item = &'e T> + Clone,
    out: &mut Vec<u8>,
) -> Result<()> {
    let common = common_type_to_write(elements.clone(), index_step)?;
    out.push(b'[');
    for (i, e) in elements.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        e.encode_json_element(common.as_ref(), out)
            .map_err(|err| err.in_index(i))?;
    }
    out.push(b']');
    Ok(())
}

/// Writes a set's elements in go-cty's order (the order the MessagePack codec writes
/// them in: [`MsgpackField::set_order`]), or, when the order needs the `Value` rules,
/// through [`Value`]s. An element's error names it as the value encoder does.
fn write_set<'e, T: JsonField + 'e>(
    elements: impl ExactSizeIterator<Item = &'e T> + Clone,
    out: &mut Vec<u8>,
) -> Result<()> {
    match set_order(elements.clone())? {
        Some(ordered) => write_set_elements(ordered.into_iter(), out),
        None => {
            let values = elements.map(to_value).collect::<Result<Vec<Value>>>()?;
            encode::encode(&Value::set(values), &Type::set(T::cty_type()), out)
        }
    }
}

/// Writes the elements of a set, already in go-cty's order.
fn write_set_elements<'e, T: JsonField + 'e>(
    elements: impl Iterator<Item = &'e T> + Clone,
    out: &mut Vec<u8>,
) -> Result<()> {
    let common = common_type_to_write(elements.clone(), index_step)?;
    out.push(b'[');
    for (i, e) in elements.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        e.encode_json_element(common.as_ref(), out)
            .map_err(|err| match to_value(e) {
                Ok(v) => err.in_step(PathStep::SetElement(v)),
                Err(_) => err.in_index(i),
            })?;
    }
    out.push(b']');
    Ok(())
}

impl<T: JsonField> JsonField for Vec<T> {
    fn decode_json(r: &mut JsonReader<'_>, depth: usize) -> Result<Self> {
        read_elements(r, "list", depth)
    }

    fn encode_json(&self, out: &mut Vec<u8>) -> Result<()> {
        write_list(self.iter(), out)
    }
}

impl<T: JsonField + Ord> JsonField for BTreeSet<T> {
    fn decode_json(r: &mut JsonReader<'_>, depth: usize) -> Result<Self> {
        Ok(read_elements(r, "set", depth)?.into_iter().collect())
    }

    fn encode_json(&self, out: &mut Vec<u8>) -> Result<()> {
        if self.iter().all(T::ord_is_set_order) {
            // Already in go-cty's order, and free of cty's duplicates.
            return write_set_elements(self.iter(), out);
        }
        write_set(self.iter(), out)
    }
}

impl<T: JsonField + Eq + Hash, S: BuildHasher + Default> JsonField for HashSet<T, S> {
    fn decode_json(r: &mut JsonReader<'_>, depth: usize) -> Result<Self> {
        Ok(read_elements(r, "set", depth)?.into_iter().collect())
    }

    fn encode_json(&self, out: &mut Vec<u8>) -> Result<()> {
        write_set(self.iter(), out)
    }
}

/// A [`SetOf`](crate::SetOf) is kept in go-cty's order, so it is written as it iterates;
/// read, it is put in that order, as [`MsgpackField`] reads it.
#[cfg(feature = "serde")]
impl<T: JsonField> JsonField for crate::SetOf<T> {
    fn decode_json(r: &mut JsonReader<'_>, depth: usize) -> Result<Self> {
        super::codec::set_of(read_elements(r, "set", depth)?)
    }

    fn encode_json(&self, out: &mut Vec<u8>) -> Result<()> {
        write_set_elements(self.iter(), out)
    }
}

/// Reads a map's entries, in input order, with the value decoder's checks: keys are
/// put in NFC, and a key given twice keeps its last value (`put` gives it; `None`
/// takes out an earlier value the Rust type could not hold).
fn read_entries<T: JsonField>(
    r: &mut JsonReader<'_>,
    depth: usize,
    mut put: impl FnMut(String, Option<T>),
) -> Result<usize> {
    let at = r.container("map", Kind::Object, depth)?;
    // Values the Rust type cannot hold, which stand unless a later value replaces them.
    let mut refused: Vec<(String, Error)> = Vec::new();
    while let Some(k) = r.r.next_key()? {
        let key = crate::text::nfc(&k).into_owned();
        let read = r
            .replaceable(depth + 1, |r| T::decode_json(r, depth + 1), T::cty_type)
            .map_err(|e| e.in_key(&k))?;
        if !refused.is_empty() {
            refused.retain(|(earlier, _)| *earlier != key);
        }
        match read {
            Ok(v) => put(key, Some(v)),
            Err(e) => {
                refused.push((key.clone(), e.in_key(&k)));
                put(key, None);
            }
        }
    }
    match refused.into_iter().next() {
        Some((_, e)) => Err(e),
        None => Ok(at),
    }
}

/// Writes a map's entries, sorted by their NFC keys.
fn write_map<'e, T: JsonField + 'e>(
    entries: &[(&'e String, &'e T)],
    out: &mut Vec<u8>,
) -> Result<()> {
    let common = common_type_to_write(entries.iter().map(|(_, v)| *v), |i| {
        PathStep::Key(entries[i].0.clone())
    })?;
    out.push(b'{');
    for (i, (k, v)) in entries.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_string(out, k);
        out.push(b':');
        v.encode_json_element(common.as_ref(), out)
            .map_err(|err| err.in_key(k))?;
    }
    out.push(b'}');
    Ok(())
}

/// A map whose keys are not all NFC (two may be one key once normalized): through a
/// [`Value`], as the value encoder has it.
#[cold]
fn write_map_via_value<T: JsonField>(entries: Vec<(&String, &T)>, out: &mut Vec<u8>) -> Result<()> {
    encode::encode(&map_value(entries)?, &Type::map(T::cty_type()), out)
}

impl<T: JsonField> JsonField for BTreeMap<String, T> {
    fn decode_json(r: &mut JsonReader<'_>, depth: usize) -> Result<Self> {
        let mut map = BTreeMap::new();
        let at = read_entries(r, depth, |k, v| match v {
            Some(v) => {
                map.insert(k, v);
            }
            None => {
                map.remove(&k);
            }
        })?;
        if T::HAS_DYNAMIC {
            settle_map(map.iter_mut().collect(), at)?;
        }
        Ok(map)
    }

    fn encode_json(&self, out: &mut Vec<u8>) -> Result<()> {
        if !keys_are_nfc(self.keys()) {
            return write_map_via_value(self.iter().collect(), out);
        }
        write_map(&self.iter().collect::<Vec<_>>(), out)
    }
}

impl<T: JsonField, S: BuildHasher + Default> JsonField for HashMap<String, T, S> {
    fn decode_json(r: &mut JsonReader<'_>, depth: usize) -> Result<Self> {
        let mut map = HashMap::default();
        let at = read_entries(r, depth, |k, v| match v {
            Some(v) => {
                map.insert(k, v);
            }
            None => {
                map.remove(&k);
            }
        })?;
        if T::HAS_DYNAMIC {
            settle_map(map.iter_mut().collect(), at)?;
        }
        Ok(map)
    }

    fn encode_json(&self, out: &mut Vec<u8>) -> Result<()> {
        if !keys_are_nfc(self.keys()) {
            return write_map_via_value(self.iter().collect(), out);
        }
        write_map(&sorted_entries(self.iter()), out)
    }
}

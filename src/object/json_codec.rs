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
use crate::msgpack::encode::{reserve_rest, PROJECT_AFTER};
use crate::path::PathStep;
use crate::token::json_read::{Kind, Reader};
use crate::token::json_write::write_string;
use crate::types::Type;
use crate::value::{Number, Value};
use crate::Known;

use super::codec::{
    common_type_to_write, float_number, from_value, index_step, integer_field_number, integer_of,
    keys_are_nfc, map_value, narrow, null_error, set_order, settle_elements, settle_map,
    sorted_entries, typed_absent_element,
};
use super::{to_value, MsgpackField};

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
    label = "not a field type ctywire's typed JSON codec reads and writes",
    note = "field types: String, bool, integers, f32, f64, Number, Value, Vec, BTreeSet, HashSet, SetOf, BTreeMap<String, _>, HashMap<String, _>, Option, Known, Box, or a #[derive(ctywire::Object)] struct"
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
pub fn attribute_left_out<T: JsonField>(name: &str, at: usize) -> Result<T> {
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
        if let Value::Null | Value::Unknown(_) = self {
            if let Some(typed) = typed_absent_element(&Type::Dynamic, common, || self.clone()) {
                return encode::encode(&typed, &Type::Dynamic, out);
            }
        }
        self.encode_json(out)
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
    match typed_absent_element(&T::cty_type(), common, || Value::Null) {
        Some(typed) => encode::encode(&typed, &Type::Dynamic, out),
        None => {
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

/// Writes a list's elements (making room for the rest of a long list once its first
/// elements show their size, as the MessagePack encoders do).
fn write_list<'e, T: JsonField + 'e>(
    elements: impl ExactSizeIterator<Item = &'e T> + Clone,
    out: &mut Vec<u8>,
) -> Result<()> {
    let common = common_type_to_write(elements.clone(), index_step)?;
    let (start, total) = (out.len(), elements.len());
    out.push(b'[');
    for (i, e) in elements.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        e.encode_json_element(common.as_ref(), out)
            .map_err(|err| err.in_index(i))?;
        if i + 1 == PROJECT_AFTER {
            reserve_rest(out, start, total);
        }
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

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

    use crate::json;
    use crate::object::FieldType;
    use crate::{ErrorKind, Known, Number, Type, Value};

    use super::JsonField;

    /// `text` read by the typed codec and by the value decoder: the same error, or a
    /// value that writes back as the value encoder writes the decoded value.
    fn agree<T: JsonField + std::fmt::Debug>(text: &str) -> crate::Result<T> {
        let ty = T::cty_type();
        let typed = json::decode_object::<T>(text.as_bytes());
        let value = json::decode(text.as_bytes(), &ty);
        match (&typed, &value) {
            (Ok(t), Ok(v)) => assert_eq!(
                json::encode_object(t).map_err(|e| e.to_string()),
                json::encode(v, &ty).map_err(|e| e.to_string()),
                "{text}"
            ),
            (Err(t), Err(v)) => assert_eq!(t.to_string(), v.to_string(), "{text}"),
            (Err(_), Ok(_)) => {}
            (Ok(t), Err(v)) => panic!("{text}: typed read {t:?}, the value decoder refuses: {v}"),
        }
        typed
    }

    #[test]
    fn primitives_read_and_write_as_the_value_codec() {
        assert_eq!(agree::<String>(r#""a\u003cb""#).unwrap(), "a<b");
        assert_eq!(agree::<String>("12.50").unwrap(), "12.50");
        assert_eq!(agree::<String>("true").unwrap(), "true");
        assert_eq!(agree::<Box<str>>("\"e\u{301}\"").unwrap(), "\u{e9}".into());
        assert!(agree::<bool>("\"1\"").unwrap());
        assert!(!agree::<bool>("false").unwrap());
        assert_eq!(agree::<u8>("\"255\"").unwrap(), 255);
        assert_eq!(agree::<i64>("-9.2e1").unwrap(), -92);
        assert_eq!(
            agree::<u128>("340282366920938463463374607431768211455").unwrap(),
            u128::MAX
        );
        assert_eq!(
            agree::<i128>("-170141183460469231731687303715884105728").unwrap(),
            i128::MIN
        );
        assert_eq!(agree::<f32>("0.5").unwrap(), 0.5);
        // A number beyond float64 is the nearest f64, which JSON cannot write.
        assert_eq!(json::decode_object::<f64>(b"1e400").unwrap(), f64::INFINITY);
        assert_eq!(
            agree::<Number>("0.1000").unwrap(),
            "0.1000".parse::<Number>().unwrap()
        );
        for (text, want) in [
            ("256", "expected u8 (an integer from 0 to 255), found 256 at line 1 column 1"),
            ("-1", "expected usize (an integer from 0 to 18446744073709551615), found -1 at line 1 column 1"),
            ("[1]", "expected number, found array at line 1 column 1"),
            ("\"x\"", "invalid number \"x\" at line 1 column 1"),
            ("null", "expected number, found null (a value that may be null needs Option<T> or ctywire::Known<T>) at line 1 column 1"),
            ("1 2", "unexpected data after the JSON value: found `2` at line 1 column 3"),
            ("", "expected a JSON value, found end of input at line 1 column 1"),
        ] {
            let err = match want {
                w if w.contains("usize") => agree::<usize>(text).unwrap_err(),
                w if w.contains("u8") => agree::<u8>(text).unwrap_err(),
                _ => agree::<u32>(text).unwrap_err(),
            };
            assert_eq!(err.to_string(), want, "{text}");
        }
    }

    #[test]
    fn numbers_write_as_go_cty_writes_them() {
        for (value, text) in [
            (0.1f64, "0.1"),
            (1e21, "1000000000000000000000"),
            (1.5e-7, "0.00000015"),
            (-0.0, "-0"),
            (123456789.0, "123456789"),
        ] {
            let want = json::encode(
                &Value::Number(Number::from_f64(value).unwrap()),
                &Type::Number,
            )
            .unwrap();
            assert_eq!(json::encode_object(&value).unwrap(), want, "{value}");
            assert_eq!(String::from_utf8(want).unwrap(), text);
        }
        assert_eq!(
            json::encode_object(&u64::MAX).unwrap(),
            b"18446744073709551615"
        );
        assert_eq!(
            json::encode_object(&i128::MIN).unwrap(),
            b"-170141183460469231731687303715884105728"
        );
        let err = json::encode_object(&f64::NEG_INFINITY).unwrap_err();
        assert_eq!(err.to_string(), "cannot serialize infinity as JSON");
        assert_eq!(err.kind(), ErrorKind::Unencodable);
        assert_eq!(
            json::encode_object(&f64::NAN).unwrap_err().to_string(),
            "NaN is not a valid number"
        );
    }

    #[test]
    fn collections_read_and_write_as_the_value_codec() {
        let set = agree::<BTreeSet<String>>(r#"["b", "a", "b", "e\u0301", "é"]"#).unwrap();
        assert_eq!(set.len(), 3);
        let set = agree::<HashSet<i32>>("[3, 1, 2, 1]").unwrap();
        assert_eq!(json::encode_object(&set).unwrap(), b"[1,2,3]");
        let map =
            agree::<BTreeMap<String, Option<u8>>>(r#"{"b": 1, "a": null, "b": "2"}"#).unwrap();
        assert_eq!(map["b"], Some(2));
        let map = agree::<HashMap<String, Known<String>>>(r#"{"z": "1", "y": 2}"#).unwrap();
        assert_eq!(json::encode_object(&map).unwrap(), br#"{"y":"2","z":"1"}"#);
        // Keys that are one once in NFC: written as the value encoder writes them.
        let twice = BTreeMap::from([("e\u{301}".to_owned(), 1), ("\u{e9}".to_owned(), 2)]);
        assert_eq!(
            json::encode_object(&twice).unwrap_err().to_string(),
            "[\"\u{e9}\"]: two map keys are one once normalized to NFC"
        );
        // Sets of numbers that are not integers go through the value rules.
        let floats: HashSet<u64> = HashSet::from([10, 9, 100]);
        assert_eq!(json::encode_object(&floats).unwrap(), b"[9,10,100]");
        let numbers = [
            Number::from_f64(0.5).unwrap(),
            "0.50".parse::<Number>().unwrap(),
        ];
        let via_value = json::encode(
            &Value::set(numbers.iter().cloned().map(Value::Number)),
            &Type::set(Type::Number),
        )
        .unwrap();
        let set: crate::SetOf<Number> = json::decode_object(&via_value).unwrap();
        assert_eq!(json::encode_object(&set).unwrap(), via_value);
        // Nested too deep, as the value decoder says.
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        let err = agree::<Vec<Value>>(&deep).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TypeMismatch);
        let lists = format!(
            r#"{{"value":{deep},"type":{}"number"{}}}"#,
            "[\"list\",".repeat(200),
            "]".repeat(200)
        );
        let err = agree::<Value>(&lists).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    }

    #[test]
    fn dynamic_values_keep_their_wrapper() {
        let list = agree::<Vec<Value>>(
            r#"[{"value": "a", "type": "string"}, null, {"type": "string", "value": "b"}]"#,
        )
        .unwrap();
        // The null is a null string, written in its wrapper as the value encoder does.
        assert_eq!(
            json::encode_object(&list).unwrap(),
            br#"[{"value":"a","type":"string"},{"value":null,"type":"string"},{"value":"b","type":"string"}]"#
        );
        let err = agree::<Vec<Value>>(
            r#"[{"value": "a", "type": "string"}, {"value": 1, "type": "number"}]"#,
        )
        .unwrap_err();
        assert_eq!(err.path().to_string(), "[1]");
        let mixed = vec![Value::from("a"), Value::from(1)];
        let err = json::encode_object(&mixed).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Unencodable);
        assert_eq!(
            err.to_string(),
            json::encode(&Value::list(mixed.clone()), &Type::list(Type::Dynamic))
                .unwrap_err()
                .to_string()
        );
        let unknown = vec![Known::<String>::Known("a".into()), Known::unknown()];
        assert_eq!(
            json::encode_object(&unknown).unwrap_err().to_string(),
            "[1]: value is not known"
        );
        assert_eq!(
            <Vec<String> as FieldType>::cty_type(),
            Type::list(Type::String)
        );
    }
}

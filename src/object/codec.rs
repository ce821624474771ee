//! The typed MessagePack codec of derived structs: [`MsgpackField`], implemented here for
//! every field type and by `#[derive(ctywire::Object)]` for the struct, reads and writes
//! straight between MessagePack bytes and Rust values, with no [`Value`] tree between
//! them (except inside `dynamic` fields, which are [`Value`]s).
//!
//! What it reads and writes is what [`msgpack::decode`](crate::msgpack::decode) and
//! [`msgpack::encode`](crate::msgpack::encode) read and write for the struct's
//! [`Object::cty_type`](super::Object::cty_type): the same bytes, in go-cty's key and set
//! order, the same errors with the same paths. Where a Rust type cannot tell what the
//! `Value` would (two unknown elements of a `BTreeSet<Known<T>>` are one Rust value, and
//! so one element), the Rust type decides.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::{BuildHasher, Hash};

use crate::error::{Error, ErrorKind, Result};
use crate::msgpack::decode::{self, Decoder};
use crate::msgpack::encode;
use crate::path::PathStep;
use crate::token::msgpack_read::Token;
use crate::token::msgpack_write;
use crate::types::Type;
use crate::value::{Number, Value};
use crate::Known;

use super::{to_value, FieldType};

/// A position in a MessagePack payload being decoded into typed fields: what
/// [`MsgpackField::decode_msgpack`] reads from. Made by
/// [`msgpack::decode_object`](crate::msgpack::decode_object).
pub struct MsgpackReader<'a> {
    d: Decoder<'a>,
    /// Whether the payload is a value the `Value` codec decoded and settled, written
    /// again (see [`decode_via`]): `dynamic` fields then hold their values without the
    /// type wrapper that settling removed.
    settled: bool,
}

/// Whether a set element is null, unknown or known: go-cty's set order puts the known
/// elements first, then the unknowns in the order given, then the null.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    /// A known value (which may hold nulls and unknowns inside).
    Known,
    /// An unknown value.
    Unknown,
    /// Null.
    Null,
}

/// A field type of a derived [`Object`](super::Object) that reads and writes MessagePack
/// itself: what the typed codec of `#[derive(ctywire::Object)]` calls for each field.
///
/// Implemented for `String`, `Box<str>`, `bool`, every integer width (a number out of the
/// width's range is an error naming the path), `f32`, `f64`, [`Number`], [`Value`] (a
/// `dynamic` field, in cty's dynamic wrapper), `Option<T>` (null), [`Known<T>`] (null and
/// unknown, refinements and all), `Box<T>`, `Vec<T>` (list), `BTreeSet<T>` and `HashSet<T>`
/// (set, written in go-cty's order), `BTreeMap<String, T>` and `HashMap<String, T>` (map),
/// and by the derive for the struct (object).
///
/// ```
/// # #[cfg(feature = "derive")] {
/// use ctywire::{msgpack, Known, Type, Value};
///
/// #[derive(ctywire::Object, Debug, PartialEq)]
/// struct Disk {
///     #[cty(required)]
///     size: u32,
///     #[cty(computed)]
///     id: Known<String>,
/// }
///
/// let disk = Disk { size: 10, id: Known::unknown() };
/// let bytes = msgpack::encode_object(&disk)?;
/// let value = Value::object([("id", Value::unknown()), ("size", Value::from(10))]);
/// assert_eq!(bytes, msgpack::encode(&value, &Type::object([("id", Type::String), ("size", Type::Number)]))?);
/// assert_eq!(msgpack::decode_object::<Disk>(&bytes)?, disk);
///
/// // size = 2^32
/// let err = msgpack::decode_object::<Disk>(b"\x82\xa2id\xa1x\xa4size\xcf\0\0\0\x01\0\0\0\0").unwrap_err();
/// assert_eq!(err.to_string(), ".size: expected u32 (an integer from 0 to 4294967295), found 4294967296 at byte 11");
/// # }
/// # Ok::<(), ctywire::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no typed MessagePack codec",
    label = "not a field type ctywire's typed codec reads and writes",
    note = "field types: String, bool, integers, f32, f64, Number, Value, Vec, BTreeSet, HashSet, SetOf, BTreeMap<String, _>, HashMap<String, _>, Option, Known, Box, or a #[derive(ctywire::Object)] struct"
)]
pub trait MsgpackField: FieldType + Sized {
    /// Whether the cty type holds `dynamic` anywhere: collections of such values check
    /// that their elements have one concrete type, as the value decoder does.
    const HAS_DYNAMIC: bool = false;

    /// Whether sets of this type are in go-cty's order when their elements' set hash
    /// strings ([`cmp_set_hash`](Self::cmp_set_hash)) are, as for composite values: a
    /// set of them that comes in that order is written as it comes. False where sets
    /// go by value (strings, bools, numbers) or by the `Value` rules (`dynamic`).
    const SET_ORDER_BY_HASH: bool = true;

    /// Reads one value at the reader's position; `depth` is the nesting level (checked
    /// against [`MAX_DEPTH`](crate::limits::MAX_DEPTH)).
    fn decode_msgpack(r: &mut MsgpackReader<'_>, depth: usize) -> Result<Self>;

    /// Appends the value's MessagePack, as [`msgpack::encode`](crate::msgpack::encode)
    /// writes the equivalent [`Value`].
    fn encode_msgpack(&self, out: &mut Vec<u8>) -> Result<()>;

    /// Appends go-cty's set hash string of the value, which orders the elements of sets
    /// of composite values.
    fn set_hash_string(&self, out: &mut Vec<u8>) -> Result<()>;

    /// Compares the set hash strings of two values of this type as they compare inside
    /// a composite value's hash string, each followed by `;` (which is how they order
    /// the composite values). Where the type can tell without writing the strings out
    /// (a derived struct attribute by attribute, stopping at the first that differs;
    /// plain strings), it does; by default both are written into `scratch`.
    fn cmp_set_hash(&self, other: &Self, scratch: &mut HashScratch) -> Result<Ordering> {
        scratch.compare_written(self, other)
    }

    /// Whether the value is null, unknown or known.
    fn presence(&self) -> Presence {
        Presence::Known
    }

    /// The known elements of a set, all [`Presence::Known`], in go-cty's order with
    /// duplicates dropped, as indexes into `known`; `None` when only the `Value` path can
    /// tell (the set is then written through [`Value`]s). By default, the order of the
    /// hash strings, and `None` when two elements share one.
    fn set_order(known: &[&Self]) -> Result<Option<Vec<usize>>> {
        // The hash strings, one after the other in one buffer.
        let mut buffer = Vec::with_capacity(64 * known.len());
        let mut ends = Vec::with_capacity(known.len());
        for e in known {
            e.set_hash_string(&mut buffer)?;
            ends.push(buffer.len());
        }
        let hash = |i: usize| &buffer[if i == 0 { 0 } else { ends[i - 1] }..ends[i]];
        let mut order: Vec<usize> = (0..known.len()).collect();
        if !order.windows(2).all(|w| hash(w[0]) < hash(w[1])) {
            order.sort_by(|&a, &b| hash(a).cmp(hash(b)));
        }
        if order.windows(2).any(|w| hash(w[0]) == hash(w[1])) {
            return Ok(None);
        }
        Ok(Some(order))
    }

    /// Whether Rust's order of this value among others of its type (`Ord`, as a
    /// `BTreeSet` keeps them) is go-cty's set order, and Rust's equality cty's: true for
    /// NFC strings, bools and integers, so that a `BTreeSet` of them is written as it
    /// iterates. False by default (the set is then ordered as go-cty orders it).
    fn ord_is_set_order(&self) -> bool {
        false
    }

    /// The value's concrete type: its cty type with each `dynamic` replaced by the
    /// type of what is there (only asked of types that [hold
    /// `dynamic`](Self::HAS_DYNAMIC)).
    fn concrete_type(&self) -> Result<Type> {
        Ok(Self::cty_type())
    }

    /// Whether [`concrete_type`](Self::concrete_type) is certainly `Ok(ty)`, where `ty`
    /// is the concrete type of another value of this Rust type: found without building a
    /// type. `false` means "not certain" (the caller then builds the type).
    fn has_concrete_type(&self, ty: &Type) -> bool {
        self.concrete_type().is_ok_and(|t| t == *ty)
    }

    /// Gives a null or unknown `dynamic` element of a collection its fellow elements'
    /// type `common`, as the value decoder does; nothing for other types.
    fn type_dynamic_element(&mut self, _common: &Type) {}

    /// Writes the value as an element of a collection whose elements have the concrete
    /// type `common` (when the element type holds `dynamic`): a null or unknown `dynamic`
    /// element is written in a wrapper of that type. By default as
    /// [`encode_msgpack`](Self::encode_msgpack).
    fn encode_element(&self, _common: Option<&Type>, out: &mut Vec<u8>) -> Result<()> {
        self.encode_msgpack(out)
    }

    /// Appends the value's MessagePack as the wire type `wire`, which is not its own
    /// cty type (a SET block or nested attribute held in a `Vec`, a LIST block holding
    /// `dynamic`): what [`encode_via`] writes. A `Vec` (in an `Option`, [`Known`] or
    /// `Box` or not) written as a set of its element type writes its elements in
    /// go-cty's set order; anything else goes through a [`Value`] of its own type,
    /// converted to `wire`.
    fn encode_wire(&self, wire: &Type, out: &mut Vec<u8>) -> Result<()> {
        encode_converted::<Self>(self, wire, out)
    }

    /// Reads a value of the wire type `wire` (see [`encode_wire`](Self::encode_wire)):
    /// what [`decode_via`] reads. A set read into a `Vec` holds its elements in go-cty's
    /// set order, as the value decoder keeps them (of elements cty takes for one, the
    /// first).
    fn decode_wire(r: &mut MsgpackReader<'_>, depth: usize, wire: &Type) -> Result<Self> {
        decode_converted::<Self>(r, depth, wire)
    }

    /// Appends the set hash string of the value written as the wire type `wire` (see
    /// [`encode_wire`](Self::encode_wire)).
    fn set_hash_string_wire(&self, wire: &Type, out: &mut Vec<u8>) -> Result<()> {
        set_hash_string_converted(self, wire, out)
    }
}

/// Two buffers to write set hash strings in, for [`MsgpackField::cmp_set_hash`] where
/// a type cannot compare two values' hash strings without writing them.
#[derive(Debug, Default)]
pub struct HashScratch {
    left: Vec<u8>,
    right: Vec<u8>,
}

impl HashScratch {
    /// Compares the set hash strings of `a` and `b`, each followed by `;`, written out.
    pub fn compare_written<T: MsgpackField>(&mut self, a: &T, b: &T) -> Result<Ordering> {
        self.compare_with(|out| a.set_hash_string(out), |out| b.set_hash_string(out))
    }

    /// Compares the set hash strings that `write_a` and `write_b` write, each followed
    /// by `;`.
    pub fn compare_with(
        &mut self,
        write_a: impl FnOnce(&mut Vec<u8>) -> Result<()>,
        write_b: impl FnOnce(&mut Vec<u8>) -> Result<()>,
    ) -> Result<Ordering> {
        self.left.clear();
        self.right.clear();
        write_a(&mut self.left)?;
        write_b(&mut self.right)?;
        self.left.push(b';');
        self.right.push(b';');
        Ok(self.left.cmp(&self.right))
    }
}

/// The `extension` markers (fixext and ext): an unknown at a value position.
const fn is_extension(b: u8) -> bool {
    matches!(b, 0xc7..=0xc9 | 0xd4..=0xd8)
}

pub(super) fn null_error(kind: &str) -> Error {
    Error::mismatch(
        kind,
        "null (a value that may be null needs Option<T> or ctywire::Known<T>)",
    )
}

fn unknown_error() -> Error {
    Error::new(
        ErrorKind::TypeMismatch,
        "expected a known value, found an unknown one (a value that may be unknown needs ctywire::Known<T>)",
    )
}

impl<'a> MsgpackReader<'a> {
    /// A reader at the start of `input`.
    pub(crate) fn new(input: &'a [u8]) -> MsgpackReader<'a> {
        MsgpackReader {
            d: Decoder::new(input),
            settled: false,
        }
    }

    /// Fails unless the whole input was read.
    pub(crate) fn finish(&self) -> Result<()> {
        if self.d.is_empty() {
            return Ok(());
        }
        Err(Error::new(
            ErrorKind::InvalidValue,
            format!(
                "expected end of input, found {} more bytes after the value",
                self.d.remaining()
            ),
        )
        .at_offset(self.d.offset()))
    }

    /// The offset of the next byte in the payload.
    pub fn offset(&self) -> usize {
        self.d.offset()
    }

    /// Reads the token of a value of kind `kind` (`"string"`, `"object"`, ...): an
    /// error for null or an unknown (which the caller's type cannot hold) and beyond
    /// [`MAX_DEPTH`](crate::limits::MAX_DEPTH).
    fn token(&mut self, kind: &str, depth: usize) -> Result<Token<'a>> {
        let at = self.d.offset();
        if depth > crate::limits::MAX_DEPTH {
            return Err(crate::limits::depth_exceeded("value").at_offset(at));
        }
        match self.d.peek() {
            Some(0xc0) => return Err(null_error(kind).at_offset(at)),
            Some(b) if is_extension(b) => return Err(unknown_error().at_offset(at)),
            _ => {}
        }
        self.d
            .token(if kind == "object" { "an object" } else { kind })
    }

    /// Reads an object's header: a map of `n` entries, or the errors the value decoder
    /// gives (`ty` makes the type, for the message of a count that differs).
    pub fn object_header(&mut self, n: usize, depth: usize, ty: fn() -> Type) -> Result<()> {
        let at = self.d.offset();
        let token = self.token("object", depth)?;
        let Token::Map(found) = token else {
            return Err(Error::mismatch("object", token.describe()).at_offset(at));
        };
        if found != n {
            let ty = ty();
            let Type::Object(o) = &ty else {
                return Err(Error::mismatch("object", ty.kind_name()).at_offset(at));
            };
            return Err(decode::attribute_count_error(&self.d, found, o, depth).at_offset(at));
        }
        self.d.check_count(n, 2, at).map(|_| ())
    }

    /// Reads an attribute name and gives its index in `names` (sorted as go-cty sorts
    /// them; `keys` are the names as the encoder writes them, header and all). `next`
    /// is the index expected while the keys come in order, and `seen` the attributes
    /// read so far: a name not in `names` or given twice is an error with its path.
    #[inline(always)]
    pub fn attribute(
        &mut self,
        keys: &[&[u8]],
        names: &[&str],
        next: &mut usize,
        seen: &mut [bool],
    ) -> Result<usize> {
        if let Some(key) = keys.get(*next) {
            if !seen[*next] && self.d.skip_if(key) {
                seen[*next] = true;
                *next += 1;
                return Ok(*next - 1);
            }
        }
        self.attribute_slow(names, next, seen)
    }

    /// Moves past the next attribute name when it is `key` (the name as the encoder
    /// writes it, header and all) and says so; else reads nothing. For the code the
    /// derive generates, which reads the attributes in go-cty's order while they come
    /// in it, then goes on with [`attribute`](Self::attribute).
    #[inline(always)]
    pub fn next_attribute_is(&mut self, key: &[u8]) -> bool {
        self.d.skip_if(key)
    }

    #[cold]
    #[inline(never)]
    fn attribute_slow(
        &mut self,
        names: &[&str],
        next: &mut usize,
        seen: &mut [bool],
    ) -> Result<usize> {
        let key_at = self.d.offset();
        let k = decode::key(&mut self.d, "an attribute name")?;
        let Some(index) = names.iter().position(|n| n.as_bytes() == k) else {
            return Err(Error::new(ErrorKind::InvalidValue, "unsupported attribute")
                .in_attribute(&String::from_utf8_lossy(k))
                .at_offset(key_at));
        };
        if std::mem::replace(&mut seen[index], true) {
            return Err(Error::new(ErrorKind::InvalidValue, "duplicate attribute")
                .in_attribute(names[index])
                .at_offset(key_at));
        }
        *next = index + 1;
        Ok(index)
    }

    /// The collection header at the reader: an array (`map` false) or map of at most
    /// as many entries as the input could hold.
    fn collection(&mut self, kind: &str, map: bool, depth: usize) -> Result<usize> {
        let at = self.d.offset();
        let token = self.token(kind, depth)?;
        match (token, map) {
            (Token::Array(n), false) => self.d.check_count(n, 1, at),
            (Token::Map(n), true) => self.d.check_count(n, 2, at),
            (t, _) => Err(Error::mismatch(kind, t.describe()).at_offset(at)),
        }
    }

    /// A `dynamic` value, as the value decoder reads it.
    fn dynamic(&mut self, depth: usize) -> Result<Value> {
        let value = decode::decode_value(&mut self.d, &Type::Dynamic, depth)?;
        Ok(match value {
            Value::Typed(t) if self.settled => t.value,
            v => v,
        })
    }
}

/// An attribute's result with the attribute's name put in front of an error's path: for
/// the code the derive generates.
#[inline]
pub fn in_attribute<T>(result: Result<T>, name: &str) -> Result<T> {
    result.map_err(|e| e.in_attribute(name))
}

/// Writes an object header of `n` attributes: for the code the derive generates.
#[inline]
pub fn write_object_header(n: usize, out: &mut Vec<u8>) {
    msgpack_write::header(n, 0x80, 0xde, out);
}

/// The error for an attribute left unread (which the header's count and the duplicate
/// check make impossible): for the code the derive generates.
#[cold]
pub fn missing_attribute(name: &str) -> Error {
    Error::new(ErrorKind::InvalidValue, "missing attribute").in_attribute(name)
}

// ---- Values converted through the `Value` codec: the rare shapes. ----

/// Reads a value of wire type `wire` (which differs from `T`'s own type: a SET block
/// held in a `Vec`, a LIST block holding `dynamic`), as [`MsgpackField::decode_wire`]
/// reads it: for the code the derive generates.
pub fn decode_via<T: MsgpackField>(
    r: &mut MsgpackReader<'_>,
    depth: usize,
    wire: &Type,
) -> Result<T> {
    T::decode_wire(r, depth, wire)
}

/// Reads a value of wire type `wire` through a [`Value`], converted to `T`'s type.
fn decode_converted<T: MsgpackField>(
    r: &mut MsgpackReader<'_>,
    depth: usize,
    wire: &Type,
) -> Result<T> {
    let at = r.offset();
    let value = decode::decode_value(&mut r.d, wire, depth)?;
    // An error converting the value (or reading its re-encoded bytes) is at the value:
    // offsets into the re-encoded copy mean nothing to the caller.
    from_value::<T>(&value, wire, depth)
        .map_err(|e| e.with_position(crate::error::Position::Offset(at)))
}

/// Writes `value` as wire type `wire` through a [`Value`]: converted from `T`'s own type
/// where `wire` is a concrete type (not from the type the value's contents suggest,
/// which knows nothing of an attribute unknown in every element, and would drop its
/// refinements); written as it stands where `wire` holds `dynamic` (the value then
/// carries the type of what it holds).
fn encode_converted<T: MsgpackField>(value: &T, wire: &Type, out: &mut Vec<u8>) -> Result<()> {
    let value = to_value(value)?;
    if wire.has_dynamic() {
        return crate::msgpack::encode_into(&value, wire, out);
    }
    encode::encode(
        &crate::convert::convert(&value, &T::cty_type(), wire)?,
        wire,
        out,
    )
}

/// The set hash string of `value` written as wire type `wire`, through a [`Value`]
/// converted from `T`'s own type.
fn set_hash_string_converted<T: MsgpackField>(
    value: &T,
    wire: &Type,
    out: &mut Vec<u8>,
) -> Result<()> {
    let v = crate::convert::convert(&to_value(value)?, &T::cty_type(), wire)?;
    crate::value::set::hash_string(&v, out);
    Ok(())
}

/// Whether `wire` is the set type of `T`'s elements: a `Vec<T>` written as a set.
fn is_set_of<T: FieldType>(wire: &Type) -> bool {
    matches!(wire, Type::Set(e) if **e == T::cty_type())
}

/// `value`, of type `from`, as a `T` (converted to `T`'s type first).
pub(super) fn from_value<T: MsgpackField>(value: &Value, from: &Type, depth: usize) -> Result<T> {
    let ty = T::cty_type();
    let converted;
    let value = if *from == ty {
        value
    } else {
        converted = crate::convert::convert(value, from, &ty)?;
        &converted
    };
    let mut bytes = Vec::new();
    encode::encode(value, &ty, &mut bytes)?;
    let mut inner = MsgpackReader::new(&bytes);
    inner.settled = true;
    let out = T::decode_msgpack(&mut inner, depth)?;
    inner.finish()?;
    Ok(out)
}

/// Writes `value` as wire type `wire` (see [`decode_via`]), as
/// [`MsgpackField::encode_wire`] writes it: for the code the derive generates.
pub fn encode_via<T: MsgpackField>(value: &T, wire: &Type, out: &mut Vec<u8>) -> Result<()> {
    value.encode_wire(wire, out)
}

/// The set hash string of `value` written as wire type `wire` (see [`decode_via`]):
/// for the code the derive generates.
pub fn set_hash_string_via<T: MsgpackField>(
    value: &T,
    wire: &Type,
    out: &mut Vec<u8>,
) -> Result<()> {
    value.set_hash_string_wire(wire, out)
}

/// [`MsgpackField::cmp_set_hash`] of two values written as wire type `wire` (see
/// [`decode_via`]): for the code the derive generates.
pub fn cmp_set_hash_via<T: MsgpackField>(
    a: &T,
    b: &T,
    wire: &Type,
    scratch: &mut HashScratch,
) -> Result<Ordering> {
    scratch.compare_with(
        |out| set_hash_string_via(a, wire, out),
        |out| set_hash_string_via(b, wire, out),
    )
}

/// The concrete type of `value` written as wire type `wire` (see [`decode_via`]): for
/// the code the derive generates.
pub fn concrete_type_via<T: MsgpackField>(value: &T, wire: &Type) -> Result<Type> {
    if !wire.has_dynamic() {
        return Ok(wire.clone());
    }
    let v = crate::convert::convert(&to_value(value)?, &T::cty_type(), wire)?;
    crate::value::conform::concrete_type(&v, wire)
}

/// The type of field `name` in the object type `ty` when it differs from `T`'s own
/// (the field is written as that type, through [`encode_via`]); `None` when it is
/// `T`'s: for the code the derive generates.
pub fn wire_type_of<T: FieldType>(ty: &Type, name: &str) -> Option<Type> {
    let Type::Object(o) = ty else { return None };
    let wire = o.attribute(name)?;
    (*wire != T::cty_type()).then(|| wire.clone())
}

// ---- Strings, bools, numbers. ----

fn string_bytes(r: &mut MsgpackReader<'_>, depth: usize) -> Result<String> {
    if let Some(s) = plain_text(&mut r.d) {
        return Ok(s);
    }
    let at = r.d.offset();
    let token = r.token("string", depth)?;
    match token {
        Token::Str(b) | Token::Bin(b) => decode::text_of(b)
            .map(|s| s.into_owned())
            .map_err(|e| e.at_offset(at)),
        t => Err(Error::mismatch("string", t.describe()).at_offset(at)),
    }
}

/// The text of a fixstr or str8 at the reader's position (the forms go-cty writes text
/// of up to 255 bytes in) when it is UTF-8 that is NFC as it stands (all ASCII, or
/// [`is_nfc`](crate::text::is_nfc)), copied once; `None`, reading nothing, for any
/// other item or text (which the token path reads, normalizes or refuses).
#[inline(always)]
fn plain_text(d: &mut Decoder<'_>) -> Option<String> {
    let (skip, len) = match d.peek()? {
        b @ 0xa0..=0xbf => (1, usize::from(b & 0x1f)),
        0xd9 => (2, usize::from(d.ahead(1, 1)?[0])),
        _ => return None,
    };
    let bytes = d.ahead(skip, len)?;
    let s = std::str::from_utf8(bytes).ok()?;
    if !crate::text::is_nfc(s) {
        return None;
    }
    d.advance(skip + len);
    Some(s.to_owned())
}

#[inline(always)]
fn write_string(s: &str, out: &mut Vec<u8>) {
    if !write_nfc_str(s, out) {
        msgpack_write::str(crate::text::nfc(s).as_bytes(), out);
    }
}

/// Appends `s` as a MessagePack str when it is NFC as it stands (as
/// [`is_nfc`](crate::text::is_nfc) tells) and says so; else writes nothing and returns
/// false. Inlined where each field, key or element is written, so that the checks'
/// branches learn each position's text (names ASCII, keys of some script).
#[inline(always)]
pub(super) fn write_nfc_str(s: &str, out: &mut Vec<u8>) -> bool {
    if !crate::text::is_nfc(s) {
        return false;
    }
    msgpack_write::str(s, out);
    true
}

/// Whether Go's quoting keeps byte `b` as it is: printable ASCII but for the quote and
/// the backslash.
fn quotes_as_is(b: u8) -> bool {
    (0x20..=0x7e).contains(&b) && b != b'"' && b != b'\\'
}

/// A string's set hash string: Go's quoting of its NFC text. Text that
/// [quotes as it is](quotes_as_is) (most) is copied as it is.
fn string_hash_string(s: &str, out: &mut Vec<u8>) {
    let bytes = s.as_bytes();
    if bytes.iter().all(|&b| quotes_as_is(b)) {
        out.reserve(bytes.len() + 2);
        out.push(b'"');
        out.extend_from_slice(bytes);
        out.push(b'"');
        return;
    }
    crate::text::go_quote_into(&crate::text::nfc(s), out);
}

/// [`MsgpackField::cmp_set_hash`] of two strings, whose hash strings followed by `;`
/// are `"a";` and `"b";` when NFC and Go's quoting leave them as they are. Only the text
/// up to the first byte that differs counts, and NFC and quoting leave that as it is when
/// it and the byte after it [quote as they are](quotes_as_is) (the byte after: a
/// combining mark there would compose with the one before): then the strings' bytes
/// there, or their closing quotes, decide. Else both hash strings are written out.
fn cmp_string_hash(a: &str, b: &str, scratch: &mut HashScratch) -> Ordering {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let shared = x.iter().zip(y).take_while(|(p, q)| p == q).count();
    let plain = |s: &[u8]| s.iter().take(shared + 2).all(|&c| quotes_as_is(c));
    if plain(x) && plain(y) {
        let next = |s: &[u8]| s.get(shared).copied().unwrap_or(b'"');
        return next(x).cmp(&next(y));
    }
    scratch.left.clear();
    scratch.right.clear();
    string_hash_string(a, &mut scratch.left);
    string_hash_string(b, &mut scratch.right);
    scratch.left.cmp(&scratch.right)
}

/// String sets: bytewise order of the NFC text, duplicates dropped.
fn string_order<S: AsRef<str>>(known: &[&S]) -> Vec<usize> {
    let texts: Vec<std::borrow::Cow<'_, str>> =
        known.iter().map(|s| crate::text::nfc(s.as_ref())).collect();
    let mut order: Vec<usize> = (0..known.len()).collect();
    order.sort_by(|&a, &b| texts[a].as_bytes().cmp(texts[b].as_bytes()));
    order.dedup_by(|later, earlier| texts[*later] == texts[*earlier]);
    order
}

impl MsgpackField for String {
    const SET_ORDER_BY_HASH: bool = false;

    fn ord_is_set_order(&self) -> bool {
        crate::text::is_nfc(self)
    }

    fn decode_msgpack(r: &mut MsgpackReader<'_>, depth: usize) -> Result<Self> {
        string_bytes(r, depth)
    }

    #[inline(always)]
    fn encode_msgpack(&self, out: &mut Vec<u8>) -> Result<()> {
        write_string(self, out);
        Ok(())
    }

    fn set_hash_string(&self, out: &mut Vec<u8>) -> Result<()> {
        string_hash_string(self, out);
        Ok(())
    }

    fn cmp_set_hash(&self, other: &Self, scratch: &mut HashScratch) -> Result<Ordering> {
        Ok(cmp_string_hash(self, other, scratch))
    }

    fn set_order(known: &[&Self]) -> Result<Option<Vec<usize>>> {
        Ok(Some(string_order(known)))
    }
}

impl MsgpackField for Box<str> {
    const SET_ORDER_BY_HASH: bool = false;

    fn ord_is_set_order(&self) -> bool {
        crate::text::is_nfc(self)
    }

    fn decode_msgpack(r: &mut MsgpackReader<'_>, depth: usize) -> Result<Self> {
        string_bytes(r, depth).map(String::into_boxed_str)
    }

    #[inline(always)]
    fn encode_msgpack(&self, out: &mut Vec<u8>) -> Result<()> {
        write_string(self, out);
        Ok(())
    }

    fn set_hash_string(&self, out: &mut Vec<u8>) -> Result<()> {
        string_hash_string(self, out);
        Ok(())
    }

    fn cmp_set_hash(&self, other: &Self, scratch: &mut HashScratch) -> Result<Ordering> {
        Ok(cmp_string_hash(self, other, scratch))
    }

    fn set_order(known: &[&Self]) -> Result<Option<Vec<usize>>> {
        Ok(Some(string_order(known)))
    }
}

impl MsgpackField for bool {
    const SET_ORDER_BY_HASH: bool = false;

    fn ord_is_set_order(&self) -> bool {
        true
    }

    fn decode_msgpack(r: &mut MsgpackReader<'_>, depth: usize) -> Result<Self> {
        if let Some(b @ (0xc2 | 0xc3)) = r.d.peek() {
            r.d.advance(1);
            return Ok(b == 0xc3);
        }
        let at = r.d.offset();
        match r.token("bool", depth)? {
            Token::Bool(b) => Ok(b),
            t => Err(Error::mismatch("bool", t.describe()).at_offset(at)),
        }
    }

    fn encode_msgpack(&self, out: &mut Vec<u8>) -> Result<()> {
        out.push(if *self { 0xc3 } else { 0xc2 });
        Ok(())
    }

    fn set_hash_string(&self, out: &mut Vec<u8>) -> Result<()> {
        out.push(if *self { b'T' } else { b'F' });
        Ok(())
    }

    fn set_order(known: &[&Self]) -> Result<Option<Vec<usize>>> {
        let mut order: Vec<usize> = (0..known.len()).collect();
        order.sort_by_key(|&i| *known[i]);
        order.dedup_by_key(|i| *known[*i]);
        Ok(Some(order))
    }
}

/// A number token as a [`Number`], with the value decoder's errors.
fn number_token(r: &mut MsgpackReader<'_>, depth: usize) -> Result<Number> {
    let at = r.d.offset();
    let token = r.token("number", depth)?;
    decode::number(&token).map_err(|e| e.at_offset(at))
}

impl MsgpackField for Number {
    const SET_ORDER_BY_HASH: bool = false;

    fn decode_msgpack(r: &mut MsgpackReader<'_>, depth: usize) -> Result<Self> {
        number_token(r, depth)
    }

    fn encode_msgpack(&self, out: &mut Vec<u8>) -> Result<()> {
        encode::number(self, out);
        Ok(())
    }

    fn set_hash_string(&self, out: &mut Vec<u8>) -> Result<()> {
        self.write_hash_text(out);
        Ok(())
    }

    fn set_order(_: &[&Self]) -> Result<Option<Vec<usize>>> {
        // Numbers equal in value but not in text: the `Value` path's rules.
        Ok(None)
    }
}

macro_rules! float_fields {
    ($($t:ty),*) => {$(
        impl MsgpackField for $t {
            const SET_ORDER_BY_HASH: bool = false;

            fn decode_msgpack(r: &mut MsgpackReader<'_>, depth: usize) -> Result<Self> {
                if r.d.peek() == Some(0xcb) {
                    if let Some(bytes) = r.d.ahead(1, 8) {
                        let f = f64::from_be_bytes(bytes.try_into().unwrap_or([0; 8]));
                        if !f.is_nan() {
                            r.d.advance(9);
                            return Ok(f as $t);
                        }
                    }
                }
                Ok(number_token(r, depth)?.to_f64() as $t)
            }

            fn encode_msgpack(&self, out: &mut Vec<u8>) -> Result<()> {
                encode::number(&float_number(f64::from(*self))?, out);
                Ok(())
            }

            fn set_hash_string(&self, out: &mut Vec<u8>) -> Result<()> {
                float_number(f64::from(*self))?.write_hash_text(out);
                Ok(())
            }

            fn set_order(_: &[&Self]) -> Result<Option<Vec<usize>>> {
                Ok(None)
            }
        }
    )*};
}

pub(super) fn float_number(f: f64) -> Result<Number> {
    Number::from_f64(f).ok_or_else(|| Error::unencodable("NaN is not a valid number".into()))
}

float_fields!(f32, f64);

/// An integer token as an `i128`, or the number it is when not an integer token.
/// Reads a number for an integer field: the integer, or the number when it is not one
/// (or beyond i128), with the offset it starts at.
fn integer(
    r: &mut MsgpackReader<'_>,
    depth: usize,
) -> Result<(std::result::Result<i128, Number>, usize)> {
    let at = r.d.offset();
    if depth <= crate::limits::MAX_DEPTH {
        if let Some(i) = fixed_integer(r) {
            return Ok((Ok(i), at));
        }
    }
    let token = r.token("number", depth)?;
    match token {
        Token::Int(i) => Ok((Ok(i128::from(i)), at)),
        Token::UInt(u) => Ok((Ok(i128::from(u)), at)),
        t => {
            let n = decode::number(&t).map_err(|e| e.at_offset(at))?;
            Ok((integer_of(n), at))
        }
    }
}

/// The integer at the reader when it is a fixint or one of the 8 to 64-bit integer
/// forms (read as the value decoder's tokens read them), and the reader past it.
#[inline]
fn fixed_integer(r: &mut MsgpackReader<'_>) -> Option<i128> {
    let b = r.d.peek()?;
    let (i, size) = match b {
        0x00..=0x7f => (i128::from(b), 1),
        0xe0..=0xff => (i128::from(b as i8), 1),
        0xcc..=0xd3 => {
            let width = 1usize << ((b - 0xcc) % 4);
            let bytes = r.d.ahead(1, width)?;
            let mut be = [0u8; 8];
            be[8 - width..].copy_from_slice(bytes);
            let unsigned = u64::from_be_bytes(be);
            let i = if b <= 0xcf {
                i128::from(unsigned)
            } else {
                // Sign-extend from the width read.
                let shift = 64 - 8 * width as u32;
                i128::from(((unsigned << shift) as i64) >> shift)
            };
            (i, 1 + width)
        }
        _ => return None,
    };
    r.d.advance(size);
    Some(i)
}

/// A number read for an integer field: the integer, or the number when it is not one
/// (or beyond i128).
pub(super) fn integer_of(n: Number) -> std::result::Result<i128, Number> {
    match (n.to_i64(), n.to_u64()) {
        (Some(i), _) => Ok(i128::from(i)),
        (_, Some(u)) => Ok(i128::from(u)),
        _ => n.to_string().parse::<i128>().map_err(|_| n),
    }
}

/// An integer field's value from what [`integer_of`] read at `at`, or the error naming
/// the field's width (`name`, `least` to `greatest`) and what was found.
pub(super) fn narrow<T: TryFrom<i128> + std::str::FromStr>(
    read: std::result::Result<i128, Number>,
    at: usize,
    name: &str,
    least: impl std::fmt::Display,
    greatest: impl std::fmt::Display,
) -> Result<T> {
    let range = |found: &dyn std::fmt::Display| {
        Error::integer_range(name, &least, &greatest, found).at_offset(at)
    };
    match read {
        Ok(i) => T::try_from(i).map_err(|_| range(&i)),
        // Beyond i128 (u128's upper half), or not an integer.
        Err(n) => n.to_string().parse::<T>().map_err(|_| range(&n)),
    }
}

/// The number an integer field writes.
pub(super) fn integer_field_number<T: Copy + std::fmt::Display>(value: T) -> Result<Number>
where
    i128: TryFrom<T>,
{
    match i128::try_from(value) {
        Ok(i) => integer_number(i),
        // u128 beyond i128: as its text.
        Err(_) => value
            .to_string()
            .parse()
            .map_err(|e: crate::value::NumberError| Error::unencodable(e.to_string())),
    }
}

fn write_integer(i: i128, out: &mut Vec<u8>) -> Result<()> {
    // Integers beyond int64 are written as go-cty writes them: as number text.
    if let Ok(i) = i64::try_from(i) {
        msgpack_write::int(i, out);
    } else {
        encode::number(&integer_number(i)?, out);
    }
    Ok(())
}

pub(super) fn integer_number(i: i128) -> Result<Number> {
    if let Ok(u) = u64::try_from(i) {
        return Ok(Number::from(u));
    }
    if let Ok(i) = i64::try_from(i) {
        return Ok(Number::from(i));
    }
    i.to_string()
        .parse()
        .map_err(|e: crate::value::NumberError| Error::unencodable(e.to_string()))
}

macro_rules! integer_fields {
    ($($t:ident),*) => {$(
        impl MsgpackField for $t {
            const SET_ORDER_BY_HASH: bool = false;

            fn ord_is_set_order(&self) -> bool {
                true
            }

            #[inline]
            fn decode_msgpack(r: &mut MsgpackReader<'_>, depth: usize) -> Result<Self> {
                // The forms integers take (a fixint, which every width holds, or an 8 to
                // 64-bit integer in range) without a token; the rest, and every error,
                // by way of one.
                if depth <= crate::limits::MAX_DEPTH {
                    let at = r.d.offset();
                    match r.d.peek() {
                        Some(b @ 0x00..=0x7f) => {
                            r.d.advance(1);
                            return Ok(b as $t);
                        }
                        Some(0xcc..=0xd3) => {
                            if let Some(i) = fixed_integer(r) {
                                return $t::try_from(i).map_or_else(
                                    |_| narrow(Ok(i), at, stringify!($t), $t::MIN, $t::MAX),
                                    Ok,
                                );
                            }
                        }
                        _ => {}
                    }
                }
                let (read, at) = integer(r, depth)?;
                narrow(read, at, stringify!($t), $t::MIN, $t::MAX)
            }

            fn encode_msgpack(&self, out: &mut Vec<u8>) -> Result<()> {
                match i128::try_from(*self) {
                    Ok(i) => write_integer(i, out),
                    Err(_) => {
                        encode::number(&integer_field_number(*self)?, out);
                        Ok(())
                    }
                }
            }

            fn set_hash_string(&self, out: &mut Vec<u8>) -> Result<()> {
                integer_field_number(*self)?.write_hash_text(out);
                Ok(())
            }

            fn set_order(known: &[&Self]) -> Result<Option<Vec<usize>>> {
                let mut order: Vec<usize> = (0..known.len()).collect();
                order.sort_by_key(|&i| *known[i]);
                order.dedup_by_key(|i| *known[*i]);
                Ok(Some(order))
            }
        }
    )*};
}

integer_fields!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

// ---- dynamic ----

impl MsgpackField for Value {
    const HAS_DYNAMIC: bool = true;
    const SET_ORDER_BY_HASH: bool = false;

    fn decode_msgpack(r: &mut MsgpackReader<'_>, depth: usize) -> Result<Self> {
        r.dynamic(depth)
    }

    fn encode_msgpack(&self, out: &mut Vec<u8>) -> Result<()> {
        encode::encode_dynamic(self, out)
    }

    fn set_hash_string(&self, out: &mut Vec<u8>) -> Result<()> {
        crate::value::set::hash_string(self, out);
        Ok(())
    }

    fn presence(&self) -> Presence {
        match self.untyped() {
            Value::Null => Presence::Null,
            Value::Unknown(_) => Presence::Unknown,
            _ => Presence::Known,
        }
    }

    fn set_order(_: &[&Self]) -> Result<Option<Vec<usize>>> {
        Ok(None)
    }

    fn concrete_type(&self) -> Result<Type> {
        crate::value::conform::concrete_type(self, &Type::Dynamic)
    }

    fn has_concrete_type(&self, ty: &Type) -> bool {
        crate::value::conform::has_concrete_type(self, &Type::Dynamic, ty)
    }

    fn type_dynamic_element(&mut self, common: &Type) {
        crate::value::conform::type_dynamic_elements(std::iter::once(self), &Type::Dynamic, common);
    }

    fn encode_element(&self, common: Option<&Type>, out: &mut Vec<u8>) -> Result<()> {
        if let Value::Null | Value::Unknown(_) = self {
            if let Some(typed) = typed_absent_element(&Type::Dynamic, common, || self.clone()) {
                return encode::encode(&typed, &Type::Dynamic, out);
            }
        }
        self.encode_msgpack(out)
    }
}

/// What a null or unknown element of a collection is written as (`absent`, of the Rust
/// element type whose cty type `element_type` is): where that type is `dynamic` and the
/// elements' concrete type `common` is known, the value typed as `common`, in cty's
/// dynamic wrapper, as the value encoders write it; `None` where it is written as it
/// stands. The one rule for both typed codecs.
pub(super) fn typed_absent_element(
    element_type: &Type,
    common: Option<&Type>,
    absent: impl FnOnce() -> Value,
) -> Option<Value> {
    match common {
        Some(c) if *c != Type::Dynamic && *element_type == Type::Dynamic => {
            Some(Value::typed(c.clone(), absent()))
        }
        _ => None,
    }
}

// ---- Null, unknown, boxes. ----

impl<T: MsgpackField> MsgpackField for Option<T> {
    const HAS_DYNAMIC: bool = T::HAS_DYNAMIC;
    const SET_ORDER_BY_HASH: bool = T::SET_ORDER_BY_HASH;

    fn decode_msgpack(r: &mut MsgpackReader<'_>, depth: usize) -> Result<Self> {
        if r.d.peek() == Some(0xc0) {
            r.d.advance(1);
            return Ok(None);
        }
        T::decode_msgpack(r, depth).map(Some)
    }

    fn encode_msgpack(&self, out: &mut Vec<u8>) -> Result<()> {
        match self {
            None => {
                out.push(0xc0);
                Ok(())
            }
            Some(v) => v.encode_msgpack(out),
        }
    }

    fn set_hash_string(&self, out: &mut Vec<u8>) -> Result<()> {
        match self {
            None => {
                out.push(b'~');
                Ok(())
            }
            Some(v) => v.set_hash_string(out),
        }
    }

    fn cmp_set_hash(&self, other: &Self, scratch: &mut HashScratch) -> Result<Ordering> {
        match (self, other) {
            (Some(a), Some(b)) => a.cmp_set_hash(b, scratch),
            _ => scratch.compare_written(self, other),
        }
    }

    fn presence(&self) -> Presence {
        self.as_ref().map_or(Presence::Null, T::presence)
    }

    fn set_order(known: &[&Self]) -> Result<Option<Vec<usize>>> {
        let inner: Vec<&T> = known.iter().filter_map(|v| v.as_ref()).collect();
        if inner.len() != known.len() {
            return Ok(None);
        }
        T::set_order(&inner)
    }

    fn concrete_type(&self) -> Result<Type> {
        match self {
            None => Ok(Self::cty_type()),
            Some(v) => v.concrete_type(),
        }
    }

    fn has_concrete_type(&self, ty: &Type) -> bool {
        match self {
            None => *ty == Self::cty_type(),
            Some(v) => v.has_concrete_type(ty),
        }
    }

    fn encode_element(&self, common: Option<&Type>, out: &mut Vec<u8>) -> Result<()> {
        match self {
            Some(v) => v.encode_element(common, out),
            None => match typed_absent_element(&Self::cty_type(), common, || Value::Null) {
                Some(typed) => encode::encode(&typed, &Type::Dynamic, out),
                None => self.encode_msgpack(out),
            },
        }
    }

    fn encode_wire(&self, wire: &Type, out: &mut Vec<u8>) -> Result<()> {
        match self {
            None => self.encode_msgpack(out),
            Some(v) => v.encode_wire(wire, out),
        }
    }

    fn decode_wire(r: &mut MsgpackReader<'_>, depth: usize, wire: &Type) -> Result<Self> {
        if r.d.peek() == Some(0xc0) {
            r.d.advance(1);
            return Ok(None);
        }
        T::decode_wire(r, depth, wire).map(Some)
    }

    fn set_hash_string_wire(&self, wire: &Type, out: &mut Vec<u8>) -> Result<()> {
        match self {
            None => self.set_hash_string(out),
            Some(v) => v.set_hash_string_wire(wire, out),
        }
    }
}

impl<T: MsgpackField> MsgpackField for Known<T> {
    const HAS_DYNAMIC: bool = T::HAS_DYNAMIC;
    const SET_ORDER_BY_HASH: bool = T::SET_ORDER_BY_HASH;

    fn decode_msgpack(r: &mut MsgpackReader<'_>, depth: usize) -> Result<Self> {
        match r.d.peek() {
            Some(0xc0) => {
                r.d.advance(1);
                Ok(Known::Null)
            }
            Some(b) if is_extension(b) => {
                let at = r.offset();
                let ty = T::cty_type();
                let value = decode::decode_value(&mut r.d, &ty, depth)?;
                match value {
                    Value::Unknown(refinements) => Ok(Known::Unknown(refinements)),
                    // A refined unknown list of known length: a list of unknowns.
                    v => from_value::<T>(&v, &ty, depth)
                        .map(Known::Known)
                        .map_err(|e| e.with_position(crate::error::Position::Offset(at))),
                }
            }
            _ => T::decode_msgpack(r, depth).map(Known::Known),
        }
    }

    fn encode_msgpack(&self, out: &mut Vec<u8>) -> Result<()> {
        match self {
            Known::Null => {
                out.push(0xc0);
                Ok(())
            }
            Known::Unknown(r) if r.is_empty() => {
                out.extend_from_slice(&encode::UNKNOWN);
                Ok(())
            }
            Known::Unknown(r) => {
                encode::unknown(r, &T::cty_type(), out);
                Ok(())
            }
            Known::Known(v) => v.encode_msgpack(out),
        }
    }

    fn set_hash_string(&self, out: &mut Vec<u8>) -> Result<()> {
        match self {
            Known::Null => out.push(b'~'),
            Known::Unknown(_) => out.push(b'?'),
            Known::Known(v) => return v.set_hash_string(out),
        }
        Ok(())
    }

    fn cmp_set_hash(&self, other: &Self, scratch: &mut HashScratch) -> Result<Ordering> {
        match (self, other) {
            (Known::Known(a), Known::Known(b)) => a.cmp_set_hash(b, scratch),
            _ => scratch.compare_written(self, other),
        }
    }

    fn presence(&self) -> Presence {
        match self {
            Known::Null => Presence::Null,
            Known::Unknown(_) => Presence::Unknown,
            Known::Known(v) => v.presence(),
        }
    }

    fn set_order(known: &[&Self]) -> Result<Option<Vec<usize>>> {
        let inner: Vec<&T> = known.iter().filter_map(|v| v.as_known()).collect();
        if inner.len() != known.len() {
            return Ok(None);
        }
        T::set_order(&inner)
    }

    fn concrete_type(&self) -> Result<Type> {
        match self {
            Known::Known(v) => v.concrete_type(),
            _ => Ok(Self::cty_type()),
        }
    }

    fn has_concrete_type(&self, ty: &Type) -> bool {
        match self {
            Known::Known(v) => v.has_concrete_type(ty),
            _ => *ty == Self::cty_type(),
        }
    }

    fn encode_element(&self, common: Option<&Type>, out: &mut Vec<u8>) -> Result<()> {
        let absent = || match self {
            Known::Unknown(r) => Value::Unknown(r.clone()),
            _ => Value::Null,
        };
        match self {
            Known::Known(v) => v.encode_element(common, out),
            _ => match typed_absent_element(&Self::cty_type(), common, absent) {
                Some(typed) => encode::encode(&typed, &Type::Dynamic, out),
                None => self.encode_msgpack(out),
            },
        }
    }

    fn encode_wire(&self, wire: &Type, out: &mut Vec<u8>) -> Result<()> {
        match self {
            _ if wire.has_dynamic() => encode_converted(self, wire, out),
            Known::Unknown(r) if !r.is_empty() => {
                encode::unknown(r, wire, out);
                Ok(())
            }
            Known::Known(v) => v.encode_wire(wire, out),
            _ => self.encode_msgpack(out),
        }
    }

    fn decode_wire(r: &mut MsgpackReader<'_>, depth: usize, wire: &Type) -> Result<Self> {
        match r.d.peek() {
            _ if wire.has_dynamic() => decode_converted(r, depth, wire),
            Some(0xc0) => {
                r.d.advance(1);
                Ok(Known::Null)
            }
            Some(b) if is_extension(b) => {
                let at = r.offset();
                match decode::decode_value(&mut r.d, wire, depth)? {
                    Value::Unknown(refinements) => Ok(Known::Unknown(refinements)),
                    // A refined unknown collection of known length: read as the wire's
                    // value of unknowns.
                    v => {
                        let mut bytes = Vec::new();
                        encode::encode(&v, wire, &mut bytes)?;
                        let mut inner = MsgpackReader::new(&bytes);
                        inner.settled = true;
                        let out = T::decode_wire(&mut inner, depth, wire)?;
                        inner.finish()?;
                        Ok(Known::Known(out))
                    }
                    .map_err(|e: Error| e.with_position(crate::error::Position::Offset(at))),
                }
            }
            _ => T::decode_wire(r, depth, wire).map(Known::Known),
        }
    }

    fn set_hash_string_wire(&self, wire: &Type, out: &mut Vec<u8>) -> Result<()> {
        match self {
            Known::Known(v) => v.set_hash_string_wire(wire, out),
            _ => self.set_hash_string(out),
        }
    }
}

impl<T: MsgpackField> MsgpackField for Box<T> {
    const HAS_DYNAMIC: bool = T::HAS_DYNAMIC;
    const SET_ORDER_BY_HASH: bool = T::SET_ORDER_BY_HASH;

    fn decode_msgpack(r: &mut MsgpackReader<'_>, depth: usize) -> Result<Self> {
        T::decode_msgpack(r, depth).map(Box::new)
    }

    fn encode_msgpack(&self, out: &mut Vec<u8>) -> Result<()> {
        (**self).encode_msgpack(out)
    }

    fn set_hash_string(&self, out: &mut Vec<u8>) -> Result<()> {
        (**self).set_hash_string(out)
    }

    fn cmp_set_hash(&self, other: &Self, scratch: &mut HashScratch) -> Result<Ordering> {
        (**self).cmp_set_hash(other, scratch)
    }

    fn presence(&self) -> Presence {
        (**self).presence()
    }

    fn ord_is_set_order(&self) -> bool {
        (**self).ord_is_set_order()
    }

    fn set_order(known: &[&Self]) -> Result<Option<Vec<usize>>> {
        let inner: Vec<&T> = known.iter().map(|b| &***b).collect();
        T::set_order(&inner)
    }

    fn concrete_type(&self) -> Result<Type> {
        (**self).concrete_type()
    }

    fn has_concrete_type(&self, ty: &Type) -> bool {
        (**self).has_concrete_type(ty)
    }

    fn type_dynamic_element(&mut self, common: &Type) {
        (**self).type_dynamic_element(common);
    }

    fn encode_element(&self, common: Option<&Type>, out: &mut Vec<u8>) -> Result<()> {
        (**self).encode_element(common, out)
    }

    fn encode_wire(&self, wire: &Type, out: &mut Vec<u8>) -> Result<()> {
        (**self).encode_wire(wire, out)
    }

    fn decode_wire(r: &mut MsgpackReader<'_>, depth: usize, wire: &Type) -> Result<Self> {
        T::decode_wire(r, depth, wire).map(Box::new)
    }

    fn set_hash_string_wire(&self, wire: &Type, out: &mut Vec<u8>) -> Result<()> {
        (**self).set_hash_string_wire(wire, out)
    }
}

// ---- Collections. ----

/// The one concrete type of elements whose type holds `dynamic` (`None` for other
/// element types), or the value decoder's error naming the first that differs.
pub(super) fn common_type<'e, T: MsgpackField + 'e>(
    elements: impl Iterator<Item = &'e T> + Clone,
    step: impl Fn(usize) -> PathStep,
) -> Result<Option<Type>> {
    if !T::HAS_DYNAMIC {
        return Ok(None);
    }
    // Fast path: the first element's concrete type, which every other element is checked
    // to have without building its type; anything less certain takes the full path.
    let mut rest = elements.clone();
    if let Some(first) = rest.next() {
        if let Ok(t) = first.concrete_type() {
            if t != Type::Dynamic && rest.all(|e| e.has_concrete_type(&t)) {
                return Ok(Some(t));
            }
        }
    }
    let mut common: Option<Type> = None;
    for (i, e) in elements.enumerate() {
        let t = e.concrete_type().map_err(|err| err.in_step(step(i)))?;
        if t == Type::Dynamic {
            continue;
        }
        match &common {
            None => common = Some(t),
            Some(c) if *c == t => {}
            Some(c) => return Err(Error::mixed_collection(&t, c).in_step(step(i))),
        }
    }
    Ok(Some(common.unwrap_or_else(T::cty_type)))
}

/// [`common_type`] of a collection being written: a mixed collection cannot be
/// written, as the value encoders say.
pub(super) fn common_type_to_write<'e, T: MsgpackField + 'e>(
    elements: impl Iterator<Item = &'e T> + Clone,
    step: impl Fn(usize) -> PathStep,
) -> Result<Option<Type>> {
    common_type(elements, step).map_err(|e| e.with_kind(ErrorKind::Unencodable))
}

pub(super) fn index_step(i: usize) -> PathStep {
    PathStep::Index(i as u64)
}

/// The concrete type of a list or set (`collection` makes it from the element type):
/// of the elements' one concrete type, or of the element type when none is known.
fn sequence_concrete_type<'e, T: MsgpackField + 'e>(
    elements: impl Iterator<Item = &'e T> + Clone,
    collection: fn(Type) -> Type,
) -> Result<Type> {
    Ok(collection(
        common_type(elements, index_step)?.unwrap_or_else(T::cty_type),
    ))
}

/// Reads a list or set's elements into `push`, with the element type's checks.
fn read_elements<T: MsgpackField>(
    r: &mut MsgpackReader<'_>,
    kind: &str,
    depth: usize,
) -> Result<Vec<T>> {
    let at = r.offset();
    let n = r.collection(kind, false, depth)?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        out.push(T::decode_msgpack(r, depth + 1).map_err(|e| e.in_index(i))?);
    }
    settle_elements(&mut out, at)?;
    Ok(out)
}

/// Checks that the elements of a list or set read at `at` whose type holds `dynamic`
/// have one concrete type, and types their null and unknown `dynamic` elements, as the
/// value decoders do; nothing for other element types.
pub(super) fn settle_elements<T: MsgpackField>(elements: &mut [T], at: usize) -> Result<()> {
    if T::HAS_DYNAMIC {
        let common = common_type(elements.iter(), index_step).map_err(|e| e.at_offset(at))?;
        if let Some(c) = common {
            if T::cty_type() == Type::Dynamic {
                elements.iter_mut().for_each(|e| e.type_dynamic_element(&c));
            }
        }
    }
    Ok(())
}

/// Writes a list's elements.
fn write_list<'e, T: MsgpackField + 'e>(
    elements: impl ExactSizeIterator<Item = &'e T> + Clone,
    out: &mut Vec<u8>,
) -> Result<()> {
    let common = common_type_to_write(elements.clone(), index_step)?;
    msgpack_write::header(elements.len(), 0x90, 0xdc, out);
    let start = out.len();
    let total = elements.len();
    for (i, e) in elements.enumerate() {
        e.encode_element(common.as_ref(), out)
            .map_err(|err| err.in_index(i))?;
        if i + 1 == encode::PROJECT_AFTER {
            encode::reserve_rest(out, start, total);
        }
    }
    Ok(())
}

fn list_hash_string<'e, T: MsgpackField + 'e>(
    elements: impl Iterator<Item = &'e T>,
    out: &mut Vec<u8>,
) -> Result<()> {
    out.push(b'[');
    for e in elements {
        e.set_hash_string(out)?;
        out.push(b';');
    }
    out.push(b']');
    Ok(())
}

/// Writes a set's elements in go-cty's order: as they come when that is it
/// ([`in_hash_order`]), else as [`sorted_set_order`] puts them; or, when the order needs
/// the `Value` rules, through [`Value`]s.
fn write_set<'e, T: MsgpackField + 'e>(
    elements: impl ExactSizeIterator<Item = &'e T> + Clone,
    out: &mut Vec<u8>,
) -> Result<()> {
    if in_hash_order(elements.clone())? {
        return write_list(elements, out);
    }
    match sorted_set_order(elements.clone())? {
        Some(ordered) => write_list(ordered.into_iter(), out),
        None => {
            let values = elements.map(to_value).collect::<Result<Vec<Value>>>()?;
            encode::encode(&Value::set(values), &Type::set(T::cty_type()), out)
        }
    }
}

/// Whether a set's elements, all known, come in go-cty's order with no two that cty
/// takes for one, for element types [ordered by hash](MsgpackField::SET_ORDER_BY_HASH):
/// one comparison of each with the next, which writes hash strings only as far as they
/// differ. A `BTreeSet` of structs whose Rust order agrees with go-cty's (mostly so when
/// the first attribute is a string) needs nothing more.
fn in_hash_order<'e, T: MsgpackField + 'e>(elements: impl Iterator<Item = &'e T>) -> Result<bool> {
    if !T::SET_ORDER_BY_HASH {
        return Ok(false);
    }
    let mut scratch = HashScratch::default();
    let mut previous: Option<&T> = None;
    for e in elements {
        if e.presence() != Presence::Known {
            return Ok(false);
        }
        if let Some(p) = previous {
            if p.cmp_set_hash(e, &mut scratch)? != Ordering::Less {
                return Ok(false);
            }
        }
        previous = Some(e);
    }
    Ok(true)
}

/// A set's elements in go-cty's order, or `None` for the `Value` path.
pub(super) fn set_order<'e, T: MsgpackField + 'e>(
    elements: impl Iterator<Item = &'e T> + Clone,
) -> Result<Option<Vec<&'e T>>> {
    if in_hash_order(elements.clone())? {
        return Ok(Some(elements.collect()));
    }
    sorted_set_order(elements)
}

/// [`set_order`] for elements that [`in_hash_order`] did not take as they come: the
/// known ones ordered by the element type ([`MsgpackField::set_order`]), then the
/// unknowns as given, then one null.
fn sorted_set_order<'e, T: MsgpackField + 'e>(
    elements: impl Iterator<Item = &'e T>,
) -> Result<Option<Vec<&'e T>>> {
    let mut known = Vec::new();
    let mut unknown = Vec::new();
    let mut null = None;
    for e in elements {
        match e.presence() {
            Presence::Known => known.push(e),
            Presence::Unknown => unknown.push(e),
            Presence::Null => {
                null.get_or_insert(e);
            }
        }
    }
    let order = match known.len() {
        0 | 1 => (0..known.len()).collect(),
        _ => match T::set_order(&known)? {
            Some(order) => order,
            None => return Ok(None),
        },
    };
    let mut out: Vec<&T> = order.into_iter().map(|i| known[i]).collect();
    out.extend(unknown);
    out.extend(null);
    Ok(Some(out))
}

fn set_hash_string<'e, T: MsgpackField + 'e>(
    elements: impl ExactSizeIterator<Item = &'e T> + Clone,
    out: &mut Vec<u8>,
) -> Result<()> {
    match set_order(elements.clone())? {
        Some(ordered) => list_hash_string(ordered.into_iter(), out),
        None => {
            let values = elements.map(to_value).collect::<Result<Vec<Value>>>()?;
            crate::value::set::hash_string(&Value::set(values), out);
            Ok(())
        }
    }
}

impl<T: MsgpackField> MsgpackField for Vec<T> {
    const HAS_DYNAMIC: bool = T::HAS_DYNAMIC;

    fn decode_msgpack(r: &mut MsgpackReader<'_>, depth: usize) -> Result<Self> {
        read_elements(r, "list", depth)
    }

    fn encode_msgpack(&self, out: &mut Vec<u8>) -> Result<()> {
        write_list(self.iter(), out)
    }

    fn set_hash_string(&self, out: &mut Vec<u8>) -> Result<()> {
        list_hash_string(self.iter(), out)
    }

    fn concrete_type(&self) -> Result<Type> {
        sequence_concrete_type(self.iter(), Type::list)
    }

    fn encode_wire(&self, wire: &Type, out: &mut Vec<u8>) -> Result<()> {
        if is_set_of::<T>(wire) {
            return write_set(self.iter(), out);
        }
        encode_converted(self, wire, out)
    }

    fn decode_wire(r: &mut MsgpackReader<'_>, depth: usize, wire: &Type) -> Result<Self> {
        if is_set_of::<T>(wire) {
            return canonical_set(read_elements(r, "set", depth)?);
        }
        decode_converted(r, depth, wire)
    }

    fn set_hash_string_wire(&self, wire: &Type, out: &mut Vec<u8>) -> Result<()> {
        if is_set_of::<T>(wire) {
            return set_hash_string(self.iter(), out);
        }
        set_hash_string_converted(self, wire, out)
    }
}

impl<T: MsgpackField + Ord> MsgpackField for BTreeSet<T> {
    const HAS_DYNAMIC: bool = T::HAS_DYNAMIC;

    fn decode_msgpack(r: &mut MsgpackReader<'_>, depth: usize) -> Result<Self> {
        if T::HAS_DYNAMIC {
            return Ok(read_elements(r, "set", depth)?.into_iter().collect());
        }
        // Nothing to settle: each element goes into the set as it is read, the last of
        // elements equal in Rust's order kept (as collecting them keeps it).
        let n = r.collection("set", false, depth)?;
        let mut set = BTreeSet::new();
        for i in 0..n {
            set.replace(T::decode_msgpack(r, depth + 1).map_err(|e| e.in_index(i))?);
        }
        Ok(set)
    }

    fn encode_msgpack(&self, out: &mut Vec<u8>) -> Result<()> {
        if self.iter().all(T::ord_is_set_order) {
            // Already in go-cty's order, and free of cty's duplicates.
            return write_list(self.iter(), out);
        }
        write_set(self.iter(), out)
    }

    fn set_hash_string(&self, out: &mut Vec<u8>) -> Result<()> {
        if self.iter().all(T::ord_is_set_order) {
            return list_hash_string(self.iter(), out);
        }
        set_hash_string(self.iter(), out)
    }

    fn concrete_type(&self) -> Result<Type> {
        sequence_concrete_type(self.iter(), Type::set)
    }
}

impl<T: MsgpackField + Eq + Hash, S: BuildHasher + Default> MsgpackField for HashSet<T, S> {
    const HAS_DYNAMIC: bool = T::HAS_DYNAMIC;

    fn decode_msgpack(r: &mut MsgpackReader<'_>, depth: usize) -> Result<Self> {
        Ok(read_elements(r, "set", depth)?.into_iter().collect())
    }

    fn encode_msgpack(&self, out: &mut Vec<u8>) -> Result<()> {
        write_set(self.iter(), out)
    }

    fn set_hash_string(&self, out: &mut Vec<u8>) -> Result<()> {
        set_hash_string(self.iter(), out)
    }

    fn concrete_type(&self) -> Result<Type> {
        sequence_concrete_type(self.iter(), Type::set)
    }
}

/// A [`SetOf`](crate::SetOf) is kept in go-cty's order by its constructors, so it is
/// written as it iterates; read, it is put in that order whatever the input's, and of
/// elements cty takes for one, the first is kept (as the value decoder reads a set).
#[cfg(feature = "serde")]
impl<T: MsgpackField> MsgpackField for crate::SetOf<T> {
    const HAS_DYNAMIC: bool = T::HAS_DYNAMIC;

    fn decode_msgpack(r: &mut MsgpackReader<'_>, depth: usize) -> Result<Self> {
        set_of(read_elements(r, "set", depth)?)
    }

    fn encode_msgpack(&self, out: &mut Vec<u8>) -> Result<()> {
        write_list(self.iter(), out)
    }

    fn set_hash_string(&self, out: &mut Vec<u8>) -> Result<()> {
        list_hash_string(self.iter(), out)
    }

    fn concrete_type(&self) -> Result<Type> {
        sequence_concrete_type(self.iter(), Type::set)
    }
}

/// A set's elements as read, in go-cty's order; of elements cty takes for one, the
/// first is kept (as the value decoders read a set).
#[cfg(feature = "serde")]
pub(super) fn set_of<T: MsgpackField>(elements: Vec<T>) -> Result<crate::SetOf<T>> {
    Ok(crate::SetOf::from_canonical(canonical_set(elements)?))
}

/// A set's elements as read, put in go-cty's order; of elements cty takes for one, the
/// first is kept (as the value decoders read a set).
pub(super) fn canonical_set<T: MsgpackField>(elements: Vec<T>) -> Result<Vec<T>> {
    let in_order = match set_order(elements.iter())? {
        Some(ordered) => {
            ordered.len() == elements.len()
                && ordered
                    .iter()
                    .zip(&elements)
                    .all(|(o, e)| std::ptr::eq(*o, e))
        }
        None => false,
    };
    if in_order {
        return Ok(elements);
    }
    let valued = elements
        .into_iter()
        .map(|e| to_value(&e).map(|v| (v, e)))
        .collect::<Result<Vec<_>>>()?;
    let canonical = crate::value::set::canonicalize_by(valued, |(v, _)| v);
    Ok(canonical.into_iter().map(|(_, e)| e).collect())
}

/// Reads a map's entries, in input order, with the value decoder's checks (NFC keys,
/// no key twice): `insert` gives back the key when the map had it already.
fn read_entries<T: MsgpackField>(
    r: &mut MsgpackReader<'_>,
    depth: usize,
    mut insert: impl FnMut(String, T) -> Option<String>,
) -> Result<()> {
    let n = r.collection("map", true, depth)?;
    for _ in 0..n {
        let key_at = r.offset();
        let k = match plain_text(&mut r.d) {
            Some(k) => k,
            None => {
                let k = decode::key(&mut r.d, "a string map key")?;
                decode::text_of(k)
                    .map_err(|e| e.at_offset(key_at))?
                    .into_owned()
            }
        };
        let v = T::decode_msgpack(r, depth + 1).map_err(|e| e.in_key(&k))?;
        if let Some(k) = insert(k, v) {
            return Err(Error::new(ErrorKind::InvalidValue, "duplicate map key")
                .in_key(&k)
                .at_offset(key_at));
        }
    }
    Ok(())
}

/// Checks a decoded map's values for one concrete type (element types holding
/// `dynamic`), and types its null and unknown `dynamic` values.
pub(super) fn settle_map<'e, T: MsgpackField + 'e>(
    mut entries: Vec<(&'e String, &'e mut T)>,
    at: usize,
) -> Result<()> {
    entries.sort_by(|a, b| a.0.cmp(b.0));
    let names: Vec<String> = entries.iter().map(|(k, _)| (*k).clone()).collect();
    let common = common_type(entries.iter().map(|(_, v)| &**v), |i| {
        PathStep::Key(names[i].clone())
    })
    .map_err(|e| e.at_offset(at))?;
    if let Some(c) = common {
        if T::cty_type() == Type::Dynamic {
            entries
                .into_iter()
                .for_each(|(_, v)| v.type_dynamic_element(&c));
        }
    }
    Ok(())
}

fn write_map<'e, T: MsgpackField + 'e>(
    entries: &[(&'e String, &'e T)],
    out: &mut Vec<u8>,
) -> Result<()> {
    let common = common_type_to_write(entries.iter().map(|(_, v)| *v), |i| {
        PathStep::Key(entries[i].0.clone())
    })?;
    msgpack_write::header(entries.len(), 0x80, 0xde, out);
    for (k, v) in entries {
        write_string(k, out);
        v.encode_element(common.as_ref(), out)
            .map_err(|err| err.in_key(k))?;
    }
    Ok(())
}

fn map_hash_string<'e, T: MsgpackField + 'e>(
    entries: &[(&'e String, &'e T)],
    out: &mut Vec<u8>,
) -> Result<()> {
    out.push(b'{');
    for (k, v) in entries {
        string_hash_string(k, out);
        out.push(b':');
        v.set_hash_string(out)?;
        out.push(b';');
    }
    out.push(b'}');
    Ok(())
}

/// Whether every key is NFC text, so that the Rust order of the keys is the wire order.
pub(super) fn keys_are_nfc<'e>(mut keys: impl Iterator<Item = &'e String>) -> bool {
    keys.all(|k| crate::text::is_nfc(k))
}

/// A map's entries in the order the encoder writes them: by NFC key.
pub(super) fn sorted_entries<'e, T>(
    entries: impl Iterator<Item = (&'e String, &'e T)>,
) -> Vec<(&'e String, &'e T)> {
    let mut v: Vec<_> = entries.collect();
    v.sort_by(|a, b| a.0.cmp(b.0));
    v
}

impl<T: MsgpackField> MsgpackField for BTreeMap<String, T> {
    const HAS_DYNAMIC: bool = T::HAS_DYNAMIC;

    fn decode_msgpack(r: &mut MsgpackReader<'_>, depth: usize) -> Result<Self> {
        let at = r.offset();
        let mut map = BTreeMap::new();
        read_entries(r, depth, |k, v| match map.entry(k) {
            std::collections::btree_map::Entry::Vacant(e) => {
                e.insert(v);
                None
            }
            std::collections::btree_map::Entry::Occupied(e) => Some(e.key().clone()),
        })?;
        if T::HAS_DYNAMIC {
            settle_map(map.iter_mut().collect(), at)?;
        }
        Ok(map)
    }

    fn encode_msgpack(&self, out: &mut Vec<u8>) -> Result<()> {
        if T::HAS_DYNAMIC {
            if !keys_are_nfc(self.keys()) {
                return encode_via_value(self.iter().collect(), out);
            }
            return write_map(&self.iter().collect::<Vec<_>>(), out);
        }
        // Keys in Rust's order are in the wire's while they are NFC; a key that is not
        // sends the map the `Value` way.
        let start = out.len();
        msgpack_write::header(self.len(), 0x80, 0xde, out);
        for (k, v) in self {
            if !write_nfc_str(k, out) {
                out.truncate(start);
                return encode_via_value(self.iter().collect(), out);
            }
            v.encode_msgpack(out).map_err(|err| err.in_key(k))?;
        }
        Ok(())
    }

    fn set_hash_string(&self, out: &mut Vec<u8>) -> Result<()> {
        if keys_are_nfc(self.keys()) {
            return map_hash_string(&self.iter().collect::<Vec<_>>(), out);
        }
        let v = to_value(self)?;
        crate::value::set::hash_string(&v, out);
        Ok(())
    }

    fn concrete_type(&self) -> Result<Type> {
        let entries: Vec<_> = self.iter().collect();
        Ok(
            match common_type(entries.iter().map(|(_, v)| *v), |i| {
                PathStep::Key(entries[i].0.clone())
            })? {
                Some(t) => Type::map(t),
                None => Self::cty_type(),
            },
        )
    }
}

impl<T: MsgpackField, S: BuildHasher + Default> MsgpackField for HashMap<String, T, S> {
    const HAS_DYNAMIC: bool = T::HAS_DYNAMIC;

    fn decode_msgpack(r: &mut MsgpackReader<'_>, depth: usize) -> Result<Self> {
        let at = r.offset();
        let mut map = HashMap::default();
        read_entries(r, depth, |k, v| match map.entry(k) {
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(v);
                None
            }
            std::collections::hash_map::Entry::Occupied(e) => Some(e.key().clone()),
        })?;
        if T::HAS_DYNAMIC {
            settle_map(map.iter_mut().collect(), at)?;
        }
        Ok(map)
    }

    fn encode_msgpack(&self, out: &mut Vec<u8>) -> Result<()> {
        if !keys_are_nfc(self.keys()) {
            return encode_via_value(self.iter().collect(), out);
        }
        write_map(&sorted_entries(self.iter()), out)
    }

    fn set_hash_string(&self, out: &mut Vec<u8>) -> Result<()> {
        if keys_are_nfc(self.keys()) {
            return map_hash_string(&sorted_entries(self.iter()), out);
        }
        let v = to_value(self)?;
        crate::value::set::hash_string(&v, out);
        Ok(())
    }

    fn concrete_type(&self) -> Result<Type> {
        let entries = sorted_entries(self.iter());
        Ok(
            match common_type(entries.iter().map(|(_, v)| *v), |i| {
                PathStep::Key(entries[i].0.clone())
            })? {
                Some(t) => Type::map(t),
                None => Self::cty_type(),
            },
        )
    }
}

/// A map whose keys are not all NFC (two may be one key once normalized): through a
/// [`Value`], as the value encoder has it.
#[cold]
fn encode_via_value<T: MsgpackField>(entries: Vec<(&String, &T)>, out: &mut Vec<u8>) -> Result<()> {
    encode::encode(&map_value(entries)?, &Type::map(T::cty_type()), out)
}

/// A map's entries as a [`Value`] of `T`'s map type, keys in NFC: an error when two
/// keys are one once normalized.
pub(super) fn map_value<T: MsgpackField>(entries: Vec<(&String, &T)>) -> Result<Value> {
    let mut values = BTreeMap::new();
    for (k, v) in entries {
        let key = crate::text::nfc(k).into_owned();
        if values.contains_key(&key) {
            return Err(
                Error::unencodable("two map keys are one once normalized to NFC".into())
                    .in_key(&key),
            );
        }
        values.insert(key, to_value(v)?);
    }
    Ok(Value::map(values))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Text of many scripts (and past the NFC table), short and long enough for every
    /// str header: ASCII, Latin, combining marks, the scripts of the derive bench's
    /// keys, and characters of four bytes.
    fn text() -> impl Strategy<Value = String> {
        (
            prop::collection::vec(crate::text::tests::table_char(), 0..40),
            prop::sample::select(vec![1usize, 1, 1, 8, 300, 2200]),
        )
            .prop_map(|(chars, times)| chars.into_iter().collect::<String>().repeat(times))
    }

    proptest! {
        #![proptest_config(crate::proptest_config(crate::test_cases(2048)))]

        /// The checked write writes exactly the str of the text's NFC when it
        /// takes the text for NFC (then the text is its own NFC), and nothing when it
        /// does not; `write_string` writes the str of the NFC either way.
        #[test]
        fn checked_copy_writes_the_nfc_str(s in text(), lead in prop::collection::vec(any::<u8>(), 0..3)) {
            let normalized: String = crate::text::nfc(&s).into_owned();
            let mut want = lead.clone();
            msgpack_write::str(&normalized, &mut want);
            let mut out = lead.clone();
            if write_nfc_str(&s, &mut out) {
                prop_assert_eq!(&s, &normalized);
                prop_assert_eq!(&out, &want);
            } else {
                prop_assert_eq!(&out, &lead);
            }
            let mut out = lead.clone();
            write_string(&s, &mut out);
            prop_assert_eq!(&out, &want);
        }
    }

    /// Common text of many scripts, starting past ASCII, is taken for NFC by the checked
    /// write; text that is not NFC never is.
    #[test]
    fn checked_copy_takes_common_text() {
        for s in [
            "Zürich",
            "Αθήνα",
            "Москва",
            "תל אביב",
            "القاهرة",
            "मुंबई",
            "東京",
            "서울",
            "😀",
        ] {
            let mut out = Vec::new();
            assert!(write_nfc_str(s, &mut out), "{s}");
            let mut want = Vec::new();
            msgpack_write::str(s, &mut want);
            assert_eq!(out, want, "{s}");
        }
        for s in [
            "\u{1e0b}\u{323}",
            "\u{1100}\u{1161}",
            "\u{30ab}\u{3099}",
            "\u{f900}",
            "\u{212b}",
        ] {
            assert!(!write_nfc_str(s, &mut Vec::new()), "{s:?}");
        }
    }
}

//! MessagePack decoding driven by a type, straight into [`Value`]s.

use crate::error::{Error, ErrorKind, Result};
use crate::implied::{below, Wrappers};
use crate::limits::{MAX_DEPTH, MAX_REFINEMENT_PAYLOAD};
use crate::path::PathStep;
use crate::text;
use crate::token::msgpack_read::{Reader, Token};
use crate::types::{EncodedNames, ObjectType, Type, TypeJsonCache};
use crate::value::conform::{common_type, settle, type_dynamic_elements};
use crate::value::sink::{nulls, Return, Sink};
use crate::value::{collapsed_elements, string, Map, Number, Object, Refinements, Set, Str, Value};

/// A decode in progress: the token reader, and what one decode remembers beyond it (the
/// types of the dynamic wrappers read so far, and how many values it may still make up).
/// It reads as its [`Reader`].
pub(crate) struct Decoder<'a> {
    r: Reader<'a>,
    /// The types of the dynamic values read so far, by their type JSON.
    types: TypeJsonCache<'a>,
    /// How many more values the decoder may make up without input to show for them
    /// ([`MAX_IMPLICIT_VALUES`](crate::limits::MAX_IMPLICIT_VALUES)).
    implicit_budget: usize,
}

impl<'a> Decoder<'a> {
    pub(crate) fn new(input: &'a [u8]) -> Decoder<'a> {
        Decoder {
            r: Reader::new(input),
            types: TypeJsonCache::default(),
            implicit_budget: crate::limits::implicit_value_budget(input.len()),
        }
    }

    /// Accounts for `n` values made up without input (the elements of a collapsed
    /// unknown list): an error once the decode has made too many.
    fn charge_implicit(&mut self, n: u64) -> Result<()> {
        match usize::try_from(n) {
            Ok(n) if n <= self.implicit_budget => {
                self.implicit_budget -= n;
                Ok(())
            }
            _ => Err(crate::limits::implicit_values_error()),
        }
    }
}

impl<'a> std::ops::Deref for Decoder<'a> {
    type Target = Reader<'a>;

    fn deref(&self) -> &Reader<'a> {
        &self.r
    }
}

impl<'a> std::ops::DerefMut for Decoder<'a> {
    fn deref_mut(&mut self) -> &mut Reader<'a> {
        &mut self.r
    }
}

/// The MessagePack extension type of refined unknown values.
const REFINEMENT_EXT: i8 = 12;

/// Decodes one value of type `ty` from `input`; trailing bytes are an error.
pub(crate) fn decode(input: &[u8], ty: &Type) -> Result<Value> {
    let mut r = Decoder::new(input);
    let value = decode_value(&mut r, ty, 0)?;
    if !r.is_empty() {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!(
                "expected end of input, found {} more bytes after the value",
                r.remaining()
            ),
        )
        .at_offset(r.offset()));
    }
    Ok(value)
}

/// Decodes one value of type `ty`.
#[inline(always)]
pub(crate) fn decode_value(r: &mut Decoder<'_>, ty: &Type, depth: usize) -> Result<Value> {
    decode_into(r, ty, depth, Return)
}

/// Decodes one value of type `ty` into `put`. The forms most values take (nil, fixstr
/// strings, positive fixint numbers, bools) are read here without a token; everything
/// else, and every error, by [`decode_token`].
#[inline(always)]
fn decode_into<S: Sink>(r: &mut Decoder<'_>, ty: &Type, depth: usize, put: S) -> Result<S::Output> {
    if depth <= MAX_DEPTH {
        if let Some(b) = r.peek() {
            match (ty, b) {
                (_, 0xc0) => {
                    r.advance(1);
                    return Ok(put.put(Value::Null));
                }
                (Type::String, 0xa0..=0xbf) => {
                    if let Some((window, len)) = short_ascii(r) {
                        return Ok(put.put(Value::String(Str::from_ascii_window(window, len))));
                    }
                    if let Some(bytes) = r.ahead(1, usize::from(b & 0x1f)) {
                        if let Ok(s) = std::str::from_utf8(bytes) {
                            r.advance(1 + bytes.len());
                            return Ok(put.put(Value::String(text::nfc(s).into())));
                        }
                    }
                }
                (Type::String, 0xd9) => {
                    if let Some(s) = r
                        .ahead(1, 1)
                        .and_then(|n| r.ahead(2, usize::from(n[0])))
                        .and_then(|bytes| std::str::from_utf8(bytes).ok())
                    {
                        r.advance(2 + s.len());
                        return Ok(put.put(Value::String(text::nfc(s).into())));
                    }
                }
                (Type::Number, 0x00..=0x7f) => {
                    r.advance(1);
                    return Ok(put.put(Value::Number(Number::from(i64::from(b)))));
                }
                (Type::Number, 0xcc..=0xd3) => {
                    if let Some(i) = sized_integer(r, b) {
                        return Ok(put.put(Value::Number(i)));
                    }
                }
                (Type::Bool, 0xc2 | 0xc3) => {
                    r.advance(1);
                    return Ok(put.put(Value::Bool(b == 0xc3)));
                }
                _ => {}
            }
        }
    }
    decode_token(r, ty, depth, put)
}

/// The number in the 8 to 64-bit integer form marked `b` (0xcc to 0xd3) at the reader's
/// position, as the token path reads it (unsigned forms as `u64`, signed as `i64`), and
/// the reader past it; `None`, reading nothing, when the input ends first.
#[inline(always)]
pub(crate) fn sized_integer(r: &mut Reader<'_>, b: u8) -> Option<Number> {
    let width = 1usize << ((b - 0xcc) % 4);
    let bytes = r.ahead(1, width)?;
    let mut be = [0u8; 8];
    be[8 - width..].copy_from_slice(bytes);
    let unsigned = u64::from_be_bytes(be);
    r.advance(1 + width);
    Some(if b <= 0xcf {
        Number::from(unsigned)
    } else {
        // Sign-extend from the width read.
        let shift = 64 - 8 * width as u32;
        Number::from(((unsigned << shift) as i64) >> shift)
    })
}

/// Reads short ASCII text in a fixstr at the reader's position, giving the fixed-size
/// window of input it starts and its length (for [`Str::from_ascii_window`], called
/// where the text is stored); `None`, reading nothing, for any other item or text, or
/// too little input.
#[inline(always)]
fn short_ascii<'a>(r: &mut Decoder<'a>) -> Option<(&'a [u8; string::INLINE], usize)> {
    let len = match r.peek()? {
        b @ 0xa0..=0xbf => usize::from(b & 0x1f),
        _ => return None,
    };
    let window: &[u8; string::INLINE] = r.ahead(1, string::INLINE)?.try_into().ok()?;
    if len <= string::INLINE && window[..len].is_ascii() {
        r.advance(1 + len);
        return Some((window, len));
    }
    None
}

/// [`decode_value`] by way of a token, for every form.
fn decode_token<S: Sink>(
    r: &mut Decoder<'_>,
    ty: &Type,
    depth: usize,
    put: S,
) -> Result<S::Output> {
    let at = r.offset();
    if depth > MAX_DEPTH {
        return Err(crate::limits::depth_exceeded("value").at_offset(at));
    }
    let token = r.token(expected(ty))?;
    match token {
        Token::Ext(code, payload) => {
            return unknown(r, ty, code, payload, r.offset() - payload.len())
                .map(|v| put.put(v))
                .map_err(|e| e.at_offset(at))
        }
        Token::Nil => return Ok(put.put(Value::Null)),
        _ => {}
    }
    known(r, token, ty, depth, at, put).map_err(|e| e.at_offset(at))
}

/// A value that is neither unknown nor null. Maps, objects, tuples and dynamic values
/// are decoded out of line (`#[inline(never)]`), which keeps the token dispatch small.
fn known<S: Sink>(
    r: &mut Decoder<'_>,
    token: Token<'_>,
    ty: &Type,
    depth: usize,
    at: usize,
    put: S,
) -> Result<S::Output> {
    let value = match ty {
        Type::Bool => match token {
            Token::Bool(b) => Value::Bool(b),
            t => return Err(mismatch(ty, &t)),
        },
        Type::Number => Value::Number(number(&token)?),
        Type::String => match token {
            Token::Str(bytes) | Token::Bin(bytes) => Value::String(string(bytes)?),
            t => return Err(mismatch(ty, &t)),
        },
        Type::List(e) => {
            let mut elements = sequence(r, token, ty, e, depth, at)?;
            settle_elements(&mut elements, e)?;
            Value::List(elements)
        }
        Type::Set(e) => {
            let mut elements = sequence(r, token, ty, e, depth, at)?;
            settle_elements(&mut elements, e)?;
            Value::Set(Set::new(elements.into_vec()))
        }
        Type::Map(e) => return map(r, token, e, depth, at, put),
        Type::Object(o) => return object(r, token, o, depth, at, put),
        Type::Tuple(ts) => return tuple(r, token, ts, depth, at, put),
        Type::Dynamic => return dynamic(r, token, depth, put),
    };
    Ok(put.put(value))
}

pub(crate) fn expected(ty: &Type) -> &'static str {
    match ty {
        Type::Object(_) => "an object",
        Type::Tuple(_) => "a tuple",
        Type::Dynamic => "a dynamic value",
        t => t.kind_name(),
    }
}

pub(crate) fn mismatch(ty: &Type, found: &Token<'_>) -> Error {
    Error::mismatch(ty.kind_name(), found.describe())
}

/// A string's bytes as NFC text; invalid UTF-8 is an error (go-cty passes it through).
fn string(bytes: &[u8]) -> Result<Str> {
    text_of(bytes).map(Str::from)
}

/// A string's bytes as NFC text, borrowed when they are; invalid UTF-8 is an error.
pub(crate) fn text_of(bytes: &[u8]) -> Result<std::borrow::Cow<'_, str>> {
    let s = std::str::from_utf8(bytes).map_err(|e| {
        Error::new(
            ErrorKind::InvalidValue,
            format!("invalid UTF-8 in string at its byte {}", e.valid_up_to()),
        )
    })?;
    Ok(text::nfc(s))
}

pub(crate) fn number(token: &Token<'_>) -> Result<Number> {
    match *token {
        Token::Int(i) => Ok(Number::from(i)),
        Token::UInt(u) => Ok(Number::from(u)),
        Token::Float(f) => Number::from_f64(f)
            .ok_or_else(|| Error::new(ErrorKind::InvalidValue, "NaN is not a valid number")),
        Token::Str(bytes) | Token::Bin(bytes) => {
            let s = std::str::from_utf8(bytes)
                .map_err(|_| Error::new(ErrorKind::InvalidValue, "invalid UTF-8 in number text"))?;
            s.parse().map_err(|e: crate::value::NumberError| {
                let kind = if e.is_limit_exceeded() {
                    ErrorKind::LimitExceeded
                } else {
                    ErrorKind::InvalidValue
                };
                Error::new(kind, e.to_string())
            })
        }
        ref t => Err(mismatch(&Type::Number, t)),
    }
}

fn sequence(
    r: &mut Decoder<'_>,
    token: Token<'_>,
    ty: &Type,
    element: &Type,
    depth: usize,
    at: usize,
) -> Result<Box<[Value]>> {
    let Token::Array(n) = token else {
        return Err(mismatch(ty, &token));
    };
    let n = r.check_count(n, 1, at)?;
    let mut out = nulls(n);
    for (i, slot) in out.iter_mut().enumerate() {
        decode_into(r, element, depth + 1, slot).map_err(|e| e.in_index(i))?;
    }
    Ok(out)
}

/// go-cty cannot even build a list or set whose `dynamic` parts have different types
/// (it panics); this reports it, and types the null and unknown elements of a
/// collection of `dynamic` as go-cty does.
fn settle_elements(elements: &mut [Value], element: &Type) -> Result<()> {
    if element.has_dynamic() {
        let common = common_type(elements.iter(), element, |i| PathStep::Index(i as u64))?;
        type_dynamic_elements(elements.iter_mut(), element, &common);
    }
    Ok(())
}

#[inline(never)]
fn tuple<S: Sink>(
    r: &mut Decoder<'_>,
    token: Token<'_>,
    types: &[Type],
    depth: usize,
    at: usize,
    put: S,
) -> Result<S::Output> {
    let Token::Array(n) = token else {
        return Err(Error::mismatch("tuple", token.describe()));
    };
    if n != types.len() {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!("expected a tuple of {} elements, found {n}", types.len()),
        ));
    }
    r.check_count(n, 1, at)?;
    let mut out = nulls(types.len());
    for (i, (t, slot)) in types.iter().zip(&mut out).enumerate() {
        decode_into(r, t, depth + 1, slot).map_err(|e| e.in_index(i))?;
    }
    Ok(put.put(Value::Tuple(out)))
}

/// A map key or attribute name: str or bin, as go-cty's `DecodeString` accepts.
pub(crate) fn key<'a>(r: &mut Reader<'a>, what: &str) -> Result<&'a [u8]> {
    let at = r.offset();
    match r.token(what)? {
        Token::Str(b) | Token::Bin(b) => Ok(b),
        t => Err(Error::mismatch(what, t.describe()).at_offset(at)),
    }
}

#[inline(never)]
fn map<S: Sink>(
    r: &mut Decoder<'_>,
    token: Token<'_>,
    element: &Type,
    depth: usize,
    at: usize,
    put: S,
) -> Result<S::Output> {
    let Token::Map(n) = token else {
        return Err(Error::mismatch("map", token.describe()));
    };
    let n = r.check_count(n, 2, at)?;
    let mut entries: Vec<(Str, Value)> = (0..n).map(|_| (Str::default(), Value::Null)).collect();
    let first_key_at = r.offset();
    for (k, v) in &mut entries {
        let key_at = r.offset();
        *k = match short_ascii(r) {
            Some((window, len)) => Str::from_ascii_window(window, len),
            None => string(key(r, "a string map key")?).map_err(|e| e.at_offset(key_at))?,
        };
        decode_into(r, element, depth + 1, v).map_err(|e| e.in_key(k))?;
    }
    if !entries.windows(2).all(|w| w[0].0 < w[1].0) {
        // Sort positions rather than entries, to name the repeated key's offset.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| entries[a].0.cmp(&entries[b].0));
        if let Some(w) = order
            .windows(2)
            .find(|w| entries[w[0]].0 == entries[w[1]].0)
        {
            let later = w[0].max(w[1]);
            return Err(Error::new(ErrorKind::InvalidValue, "duplicate map key")
                .in_key(&entries[later].0)
                .at_offset(r.offset_after_items(first_key_at, 2 * later)));
        }
        let mut slots: Vec<Option<(Str, Value)>> = entries.into_iter().map(Some).collect();
        entries = order.iter().filter_map(|&i| slots[i].take()).collect();
    }
    if element.has_dynamic() {
        let common = common_type(entries.iter().map(|(_, v)| v), element, |i| {
            PathStep::Key(entries[i].0.to_string())
        })?;
        type_dynamic_elements(entries.iter_mut().map(|(_, v)| v), element, &common);
    }
    Ok(put.put(Value::Map(Map::from_sorted(entries.into()))))
}

#[inline(never)]
fn object<S: Sink>(
    r: &mut Decoder<'_>,
    token: Token<'_>,
    ty: &ObjectType,
    depth: usize,
    at: usize,
    put: S,
) -> Result<S::Output> {
    let n = object_header(r, token, ty, at, depth)?;
    let names = ty.names().as_slice();
    let types = ty.types();
    let mut keys = AttributeKeys::new(ty);
    let mut values = nulls(n);
    for _ in 0..n {
        let i = keys.next(r)?;
        decode_into(r, &types[i], depth + 1, &mut values[i])
            .map_err(|e| e.in_attribute(&names[i]))?;
    }
    Ok(put.put(Value::Object(Box::new(Object::from_parts(
        ty.names().clone(),
        values,
    )))))
}

/// The header of an object of type `ty`: a map with one entry per attribute, which
/// could all fit in the input. Returns the number of attributes.
pub(crate) fn object_header(
    r: &Reader<'_>,
    token: Token<'_>,
    ty: &ObjectType,
    at: usize,
    depth: usize,
) -> Result<usize> {
    let Token::Map(n) = token else {
        return Err(Error::mismatch("object", token.describe()));
    };
    if n != ty.len() {
        return Err(attribute_count_error(r, n, ty, depth));
    }
    r.check_count(n, 2, at)
}

/// Which attribute each key of an object names, key after key, with the errors for an
/// attribute the type lacks and an attribute given twice: the one reading of object
/// keys, for the value decoder and the serde bridge.
///
/// go-cty writes attributes in name order, so key i is usually name i: each key is
/// first compared, header and all, with the next name as the encoder writes it, and
/// nothing is looked up while they agree. A key in another form (str8, bin) is read as
/// a token; once a key is not the next name, keys are looked up by name.
pub(crate) struct AttributeKeys<'t> {
    ty: &'t ObjectType,
    wire_names: &'t EncodedNames,
    /// The attribute expected next while the keys come in name order.
    next: usize,
    /// Which attributes were given, once the keys left name order.
    seen: Option<Box<[bool]>>,
}

impl<'t> AttributeKeys<'t> {
    #[inline]
    pub(crate) fn new(ty: &'t ObjectType) -> Self {
        AttributeKeys::resume(ty, 0)
    }

    /// The keys of an object whose first `next` keys were its first `next` attributes,
    /// in name order.
    #[inline]
    pub(crate) fn resume(ty: &'t ObjectType, next: usize) -> Self {
        AttributeKeys {
            ty,
            wire_names: ty.msgpack_names(crate::token::msgpack_write::str),
            next,
            seen: None,
        }
    }

    /// Reads the next key (one of the header's count) and gives its attribute's index.
    #[inline(always)]
    pub(crate) fn next(&mut self, r: &mut Reader<'_>) -> Result<usize> {
        if self.seen.is_none() && r.skip_if(self.wire_names.get(self.next)) {
            self.next += 1;
            return Ok(self.next - 1);
        }
        self.next_slow(r)
    }

    #[cold]
    #[inline(never)]
    fn next_slow(&mut self, r: &mut Reader<'_>) -> Result<usize> {
        let names = self.ty.names();
        let key_at = r.offset();
        let k = key(r, "an attribute name")?;
        if self.seen.is_none() {
            if names.as_slice()[self.next].as_bytes() == k {
                self.next += 1;
                return Ok(self.next - 1);
            }
            let mut seen = vec![false; self.ty.len()];
            seen[..self.next].iter_mut().for_each(|b| *b = true);
            self.seen = Some(seen.into());
        }
        let name = String::from_utf8_lossy(k);
        let Some(index) = names.index_of(&name) else {
            return Err(Error::new(ErrorKind::InvalidValue, "unsupported attribute")
                .in_attribute(&name)
                .at_offset(key_at));
        };
        let seen = self.seen.as_mut().map(|s| &mut s[index]);
        if seen.is_some_and(|s| std::mem::replace(s, true)) {
            return Err(Error::new(ErrorKind::InvalidValue, "duplicate attribute")
                .in_attribute(&name)
                .at_offset(key_at));
        }
        Ok(index)
    }
}

/// An object of `n` attributes where `ty` has another number: the message names the
/// attributes missing and those the type does not have (a schema of another version),
/// read from the map's keys, which the reader is at; only the count when the keys
/// cannot be read.
#[cold]
#[inline(never)]
pub(crate) fn attribute_count_error(
    r: &Reader<'_>,
    n: usize,
    ty: &ObjectType,
    depth: usize,
) -> Error {
    let mut message = format!("expected an object with {} attributes, found {n}", ty.len());
    let mut keys = r.rest();
    let mut found = Vec::new();
    for _ in 0..n {
        match (keys.token("an attribute name"), keys.skip(depth + 1)) {
            (Ok(Token::Str(k) | Token::Bin(k)), Ok(())) => found.push(String::from_utf8_lossy(k)),
            _ => return Error::new(ErrorKind::InvalidValue, message),
        }
    }
    let names = ty.names();
    let present: std::collections::HashSet<&str> = found.iter().map(|k| &**k).collect();
    let quoted = |names: Vec<&str>| {
        const SHOWN: usize = 10;
        let mut text: Vec<String> = names.iter().take(SHOWN).map(|n| format!("{n:?}")).collect();
        if names.len() > SHOWN {
            text.push(format!("and {} more", names.len() - SHOWN));
        }
        text.join(", ")
    };
    let missing: Vec<&str> = names
        .as_slice()
        .iter()
        .map(|n| &**n)
        .filter(|n| !present.contains(n))
        .collect();
    let extra: Vec<&str> = found
        .iter()
        .map(|k| &**k)
        .filter(|k| names.index_of(k).is_none())
        .collect();
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!("missing: {}", quoted(missing)));
    }
    if !extra.is_empty() {
        parts.push(format!("not in the type: {}", quoted(extra)));
    }
    if !parts.is_empty() {
        message.push_str(&format!(" ({})", parts.join("; ")));
    }
    Error::new(ErrorKind::InvalidValue, message)
}

#[inline(never)]
fn dynamic<S: Sink>(
    r: &mut Decoder<'_>,
    token: Token<'_>,
    depth: usize,
    put: S,
) -> Result<S::Output> {
    match token {
        Token::Array(2) => {}
        Token::Array(n) => {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                format!(
                "expected a dynamic value as a [type, value] array, found an array of {n} elements"
            ),
            ))
        }
        t => {
            return Err(Error::mismatch(
                "a dynamic value as a [type, value] array",
                t.describe(),
            ))
        }
    }
    let type_at = r.offset();
    let type_json = match r.token("type JSON")? {
        Token::Bin(b) | Token::Str(b) => b,
        t => {
            return Err(
                Error::mismatch("type JSON as binary or string", t.describe()).at_offset(type_at),
            )
        }
    };
    let ty = r.types.parse(type_json).map_err(|e| {
        Error::new(
            e.kind(),
            format!("invalid type JSON in dynamic value: {}", e.message()),
        )
        .at_offset(type_at)
    })?;
    let value = decode_value(r, &ty, depth + 1)?;
    Ok(put.put(match ty {
        Type::Dynamic => value,
        ty if ty.has_dynamic() => {
            let (ty, value) = settle(value, &ty)?;
            Value::typed(ty, value)
        }
        ty => Value::typed(ty, value),
    }))
}

/// An extension at a value position: an unknown, refined when it is extension 12.
fn unknown(
    r: &mut Decoder<'_>,
    ty: &Type,
    code: i8,
    payload: &[u8],
    payload_at: usize,
) -> Result<Value> {
    // Any other extension, and any payload of at most one byte, is a plain unknown (the
    // protocol's rule; go-cty >= 1.13 rejects other codes with longer payloads).
    if payload.len() <= 1 || code != REFINEMENT_EXT {
        return Ok(Value::unknown());
    }
    if payload.len() > MAX_REFINEMENT_PAYLOAD {
        return Err(Error::new(
            ErrorKind::LimitExceeded,
            format!(
                "refinement payload of {} bytes exceeds the limit of {MAX_REFINEMENT_PAYLOAD}",
                payload.len()
            ),
        ));
    }
    // Whatever goes wrong inside a complete payload is a malformed refinement.
    let refinements =
        refinements(payload, payload_at, ty).map_err(|e| e.with_kind(ErrorKind::InvalidValue))?;
    refinements
        .check()
        .map_err(|m| Error::new(ErrorKind::InvalidValue, m))?;
    r.charge_implicit(collapsed_elements(ty, &refinements))?;
    Ok(Value::refined_unknown(ty, refinements))
}

fn refinement_error(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidValue, message)
}

/// Reads the refinement map of an extension-12 payload for a value of type `ty`.
fn refinements(payload: &[u8], payload_at: usize, ty: &Type) -> Result<Refinements> {
    let mut r = Reader::at(payload, payload_at);
    let at = r.offset();
    let n = match r.token("a refinement map")? {
        Token::Map(n) => r.check_count(n, 2, at)?,
        t => {
            return Err(refinement_error(format!(
                "expected a refinement map, found {}",
                t.describe()
            ))
            .at_offset(at))
        }
    };
    let mut out = Refinements::new();
    if *ty == Type::Dynamic {
        // An unknown of type dynamic carries no refinements; go-cty checks only that the
        // payload is a map.
        return Ok(out);
    }
    for _ in 0..n {
        let key_at = r.offset();
        let key = match r.token("a refinement key")? {
            Token::Int(i) => i,
            Token::UInt(u) => i64::try_from(u).unwrap_or(i64::MAX),
            t => {
                return Err(refinement_error(format!(
                    "expected an integer refinement key, found {}",
                    t.describe()
                ))
                .at_offset(key_at))
            }
        };
        let value_at = r.offset();
        let fail = |m: String| refinement_error(m).at_offset(value_at);
        match key {
            1 => match r.token("a bool")? {
                Token::Bool(is_null) => out = out.with_nullness(Some(is_null)),
                t => {
                    return Err(fail(format!(
                        "expected a bool for the null refinement, found {}",
                        t.describe()
                    )))
                }
            },
            2 => {
                if *ty != Type::String {
                    return Err(fail(format!(
                        "string prefix refinement for a {} value",
                        ty.kind_name()
                    )));
                }
                match r.token("a string")? {
                    Token::Str(b) | Token::Bin(b) => {
                        let s = std::str::from_utf8(b).map_err(|_| {
                            fail("invalid UTF-8 in string prefix refinement".into())
                        })?;
                        out = out.with_string_prefix(s);
                    }
                    t => {
                        return Err(fail(format!(
                            "expected a string prefix, found {}",
                            t.describe()
                        )))
                    }
                }
            }
            3 | 4 => {
                if *ty != Type::Number {
                    return Err(fail(format!(
                        "number bound refinement for a {} value",
                        ty.kind_name()
                    )));
                }
                let (bound, inclusive) = number_bound(&mut r).map_err(|e| match e.position() {
                    Some(_) => e,
                    None => e.at_offset(value_at),
                })?;
                out = if key == 3 {
                    out.with_number_lower_bound(bound, inclusive)
                } else {
                    out.with_number_upper_bound(bound, inclusive)
                };
            }
            5 | 6 => {
                if !ty.is_collection() {
                    return Err(fail(format!(
                        "length refinement for a {} value",
                        ty.kind_name()
                    )));
                }
                let len = match r.token("an integer")? {
                    Token::UInt(u) => u,
                    Token::Int(i) if i >= 0 => i as u64,
                    t => {
                        return Err(fail(format!(
                            "expected a non-negative integer length bound, found {}",
                            t.describe()
                        )))
                    }
                };
                out = if key == 5 {
                    out.with_length_lower_bound(len)
                } else {
                    out.with_length_upper_bound(len)
                };
            }
            // Keys this crate does not know are skipped, value and all, as the protocol
            // says (go-cty does not consume their values).
            _ => r.skip(0)?,
        }
    }
    Ok(out)
}

/// A number bound: a `[number, inclusive]` array.
fn number_bound(r: &mut Reader<'_>) -> Result<(Number, bool)> {
    let shape = || refinement_error("expected a number bound as a [number, bool] array");
    match r.token("a [number, bool] array")? {
        Token::Array(2) => {}
        _ => return Err(shape()),
    }
    let at = r.offset();
    let bound = number(&r.token("a number")?).map_err(|e| e.at_offset(at))?;
    match r.token("a bool")? {
        Token::Bool(inclusive) => Ok((bound, inclusive)),
        _ => Err(shape()),
    }
}

/// Infers a type from untyped MessagePack, as go-cty's `msgpack.ImpliedType` does: nil
/// and extensions are `dynamic`, arrays tuples, maps objects (string keys only); binary
/// data is an error. With `wrappers`, a `[type JSON, value]` wrapper is `dynamic` and
/// its path is recorded.
pub(crate) fn implied_type(input: &[u8], wrappers: Option<&mut Wrappers>) -> Result<Type> {
    let mut r = Reader::new(input);
    let ty = implied(&mut r, 0, wrappers)?;
    if !r.is_empty() {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!(
                "expected end of input, found {} more bytes after the value",
                r.remaining()
            ),
        )
        .at_offset(r.offset()));
    }
    Ok(ty)
}

fn implied(r: &mut Reader<'_>, depth: usize, mut wrappers: Option<&mut Wrappers>) -> Result<Type> {
    let at = r.offset();
    if depth > MAX_DEPTH {
        return Err(crate::limits::depth_exceeded("value").at_offset(at));
    }
    let binary = || {
        Error::new(
            ErrorKind::TypeMismatch,
            "cannot imply a type for binary data",
        )
    };
    Ok(match r.token("a value")? {
        Token::Nil | Token::Ext(..) => Type::Dynamic,
        Token::Bool(_) => Type::Bool,
        Token::Int(_) | Token::UInt(_) | Token::Float(_) => Type::Number,
        Token::Str(_) => Type::String,
        Token::Bin(_) => return Err(binary().at_offset(at)),
        Token::Array(n) => {
            let n = r.check_count(n, 1, at)?;
            if let (2, Some(w), Some(0xc4..=0xc6)) = (n, wrappers.as_deref_mut(), r.peek()) {
                // `[type JSON, value]`: binary data is never implied, so this reading
                // changes the meaning of nothing go-cty reads.
                let type_at = r.offset();
                let Token::Bin(type_json) = r.token("type JSON")? else {
                    unreachable!("a bin marker was peeked")
                };
                if Type::from_json_bytes(type_json).is_err() {
                    return Err(binary().at_offset(type_at).in_index(0));
                }
                r.skip(depth + 1).map_err(|e| e.in_index(1))?;
                w.found_here();
                return Ok(Type::Dynamic);
            }
            let mut types = Vec::with_capacity(n);
            for i in 0..n {
                types.push(below(
                    &mut wrappers,
                    || PathStep::Index(i as u64),
                    |w| implied(r, depth + 1, w),
                )?);
            }
            Type::tuple(types)
        }
        Token::Map(n) => {
            let n = r.check_count(n, 2, at)?;
            let mut attrs: Vec<(String, Type)> = Vec::with_capacity(n);
            for _ in 0..n {
                let key_at = r.offset();
                let k = match r.token("an attribute name")? {
                    Token::Str(b) => string(b).map_err(|e| e.at_offset(key_at))?,
                    t => {
                        return Err(Error::mismatch("a string attribute name", t.describe())
                            .at_offset(key_at))
                    }
                };
                let t = below(
                    &mut wrappers,
                    || PathStep::Attribute(k.to_string()),
                    |w| implied(r, depth + 1, w),
                )?;
                attrs.push((String::from(k), t));
            }
            Type::object(attrs)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What one decode of `input` as `ty` gives, through `read`: the value or the
    /// error's text, and where the reader stopped.
    fn outcome(
        input: &[u8],
        ty: &Type,
        read: fn(&mut Decoder<'_>, &Type, usize, Return) -> Result<Value>,
    ) -> (std::result::Result<Value, String>, usize) {
        let mut r = Decoder::new(input);
        let result = read(&mut r, ty, 0, Return).map_err(|e| e.to_string());
        (result, r.offset())
    }

    proptest! {
        #![proptest_config(crate::proptest_config(512))]

        /// The forms `decode_into` reads without a token (str8 text, 8 to 64-bit
        /// integers, and the rest) give what the token path gives: the same value, or
        /// the same error, and the reader at the same place. Bytes of every kind after
        /// the marker (invalid UTF-8, text to normalize, too short input).
        #[test]
        fn forms_read_without_a_token_are_the_token_paths(
            marker in prop_oneof![Just(0xd9u8), 0xccu8..=0xd3, 0x00u8..=0x7f, 0xa0u8..=0xbf, Just(0xc0)],
            len in prop_oneof![0u8..8, any::<u8>()],
            body in prop::collection::vec(prop_oneof![
                0x20u8..0x7f, Just(0xc3), Just(0xa9), Just(0xcc), Just(0x81),
                Just(0xe6), Just(0x9d), Just(0xb1), Just(0xff), any::<u8>(),
            ], 0..300),
            string in any::<bool>(),
        ) {
            let mut input = vec![marker];
            if marker == 0xd9 {
                input.push(len);
            }
            input.extend_from_slice(&body);
            let ty = if string { Type::String } else { Type::Number };
            prop_assert_eq!(
                outcome(&input, &ty, decode_into::<Return>),
                outcome(&input, &ty, decode_token::<Return>)
            );
        }
    }

    /// A schema of another version: the count error names what differs.
    #[test]
    fn attribute_count_errors_name_the_attributes() {
        let ty: Type = "object({a=number,b=number,c=number})".parse().unwrap();
        let message = |bytes: &[u8]| decode(bytes, &ty).unwrap_err().to_string();
        // {a: 1, b: 2}
        assert_eq!(
            message(b"\x82\xa1a\x01\xa1b\x02"),
            r#"expected an object with 3 attributes, found 2 (missing: "c") at byte 0"#
        );
        // {a: 1, b: 2, c: 3, d: [4]}
        assert_eq!(
            message(b"\x84\xa1a\x01\xa1b\x02\xa1c\x03\xa1d\x91\x04"),
            r#"expected an object with 3 attributes, found 4 (not in the type: "d") at byte 0"#
        );
        // {x: 1, a: 2}: both.
        assert_eq!(
            message(b"\x82\xa1x\x01\xa1a\x02"),
            r#"expected an object with 3 attributes, found 2 (missing: "b", "c"; not in the type: "x") at byte 0"#
        );
        // Keys that cannot be read: the count alone.
        assert_eq!(
            message(b"\x82\xa1a\x01\x02\x02"),
            "expected an object with 3 attributes, found 2 at byte 0"
        );
        assert_eq!(
            message(b"\x84\xa1a"),
            "expected an object with 3 attributes, found 4 at byte 0"
        );
        // Many: the first ten, and how many more.
        let names: Vec<String> = (0..15).map(|i| format!("n{i:02}")).collect();
        let ty = Type::object(names.iter().map(|n| (n.as_str(), Type::Number)));
        let err = decode(b"\x80", &ty).unwrap_err();
        assert_eq!(
            err.message(),
            r#"expected an object with 15 attributes, found 0 (missing: "n00", "n01", "n02", "n03", "n04", "n05", "n06", "n07", "n08", "n09", and 5 more)"#
        );
    }
}

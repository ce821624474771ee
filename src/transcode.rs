//! MessagePack to JSON with a type, without a [`Value`](crate::Value) tree in between.
//!
//! [`msgpack_to_json`] gives exactly what [`json::encode`](crate::json::encode) of
//! [`msgpack::decode`](crate::msgpack::decode) gives, byte for byte and error for error,
//! at a fraction of the cost for a large payload: strings, numbers, bools, lists, maps,
//! objects and sets of strings are read and written as they stream past. What has to be
//! seen whole before it can be written (a `dynamic` value, a collection holding one, a
//! set of anything but strings, a tuple) is decoded into a value and encoded from it, at
//! its place. Anything the stream cannot write as the two steps would (an unknown, a set
//! or map out of order, an attribute out of name order, an infinity, an error of any
//! kind) makes the whole payload go through the two steps instead, so their output and
//! their errors are the transcoder's.

use std::borrow::Cow;

use crate::error::Result;
use crate::limits::MAX_DEPTH;
use crate::msgpack::decode::{decode, decode_value, object_header, AttributeKeys, Decoder};
use crate::token::json_write::write_string;
use crate::token::msgpack_read::Token;
use crate::types::{ObjectType, Type};
use crate::value::Number;

/// Transcodes the MessagePack payload `input` of type `ty` to JSON text: the bytes of
/// [`json::encode`](crate::json::encode)`(&`[`msgpack::decode`](crate::msgpack::decode)`(input, ty)?, ty)`,
/// and its error when either step fails.
///
/// ```
/// use ctywire::{transcode, Type};
///
/// let ty: Type = "object({name=string,ports=list(number)})".parse()?;
/// // {"name": "web", "ports": [80, 443]}
/// let msgpack = b"\x82\xa4name\xa3web\xa5ports\x92\x50\xcd\x01\xbb";
/// assert_eq!(
///     transcode::msgpack_to_json(msgpack, &ty)?,
///     br#"{"name":"web","ports":[80,443]}"#
/// );
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn msgpack_to_json(input: &[u8], ty: &Type) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    msgpack_to_json_into(input, ty, &mut out)?;
    Ok(out)
}

/// [`msgpack_to_json`], appending the JSON text to `out` (left as it was on an error).
///
/// ```
/// use ctywire::{transcode, Type};
///
/// let mut out = b"tags: ".to_vec();
/// // {"env": "prod"}
/// transcode::msgpack_to_json_into(b"\x81\xa3env\xa4prod", &Type::map(Type::String), &mut out)?;
/// assert_eq!(out, br#"tags: {"env":"prod"}"#);
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn msgpack_to_json_into(input: &[u8], ty: &Type, out: &mut Vec<u8>) -> Result<()> {
    let start = out.len();
    let mut r = Decoder::new(input);
    if stream(&mut r, ty, 0, out).is_ok() && r.is_empty() {
        return Ok(());
    }
    out.truncate(start);
    let value = decode(input, ty)?;
    crate::json::encode_into(&value, ty, out).inspect_err(|_| out.truncate(start))
}

/// The stream cannot write this payload as the two steps would: they take it over.
struct Stop;

impl From<crate::Error> for Stop {
    fn from(_: crate::Error) -> Stop {
        Stop
    }
}

type Streamed = std::result::Result<(), Stop>;

/// Writes the value of type `ty` at the reader as JSON, `depth` levels down (as the
/// decoder counts them).
fn stream(r: &mut Decoder<'_>, ty: &Type, depth: usize, out: &mut Vec<u8>) -> Streamed {
    if depth > MAX_DEPTH {
        return Err(Stop);
    }
    if r.peek() == Some(0xc0) {
        r.advance(1);
        out.extend_from_slice(b"null");
        return Ok(());
    }
    match ty {
        Type::String => string(r, out).map(drop),
        Type::Number => number(r, out),
        Type::Bool => match r.token("bool")? {
            Token::Bool(b) => {
                out.extend_from_slice(if b { b"true" } else { b"false" });
                Ok(())
            }
            _ => Err(Stop),
        },
        Type::Object(o) => object(r, o, depth, out),
        Type::List(e) if !e.has_dynamic() => list(r, e, depth, out),
        Type::Map(e) if !e.has_dynamic() => map(r, e, depth, out),
        Type::Set(e) if **e == Type::String => string_set(r, out),
        _ => whole(r, ty, depth, out),
    }
}

/// A value that is written only once it has been read whole: decoded at its place and
/// encoded from the value (whose encoding depends only on it and `ty`).
#[inline(never)]
fn whole(r: &mut Decoder<'_>, ty: &Type, depth: usize, out: &mut Vec<u8>) -> Streamed {
    let value = decode_value(r, ty, depth)?;
    crate::json::encode::encode(&value, ty, out)?;
    Ok(())
}

/// A string: its NFC text, quoted. Gives the text's bytes, for the order checks.
#[inline]
fn string<'a>(r: &mut Decoder<'a>, out: &mut Vec<u8>) -> std::result::Result<Cow<'a, [u8]>, Stop> {
    let bytes = match r.peek() {
        Some(b @ 0xa0..=0xbf) => {
            let n = usize::from(b & 0x1f);
            let bytes = r.ahead(1, n).ok_or(Stop)?;
            r.advance(1 + n);
            bytes
        }
        _ => match r.token("string")? {
            Token::Str(bytes) | Token::Bin(bytes) => bytes,
            _ => return Err(Stop),
        },
    };
    // ASCII is valid UTF-8 and NFC already.
    if bytes.is_ascii() {
        write_string(out, bytes);
        return Ok(Cow::Borrowed(bytes));
    }
    let text = crate::msgpack::decode::text_of(bytes)?;
    write_string(out, text.as_bytes());
    Ok(match text {
        Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
        Cow::Owned(s) => Cow::Owned(s.into_bytes()),
    })
}

fn number(r: &mut Decoder<'_>, out: &mut Vec<u8>) -> Streamed {
    if let Some(b @ 0x00..=0x7f) = r.peek() {
        r.advance(1);
        Number::from(i64::from(b)).write_text(out);
        return Ok(());
    }
    let n = crate::msgpack::decode::number(&r.token("number")?)?;
    if n.is_infinite() {
        return Err(Stop);
    }
    n.write_text(out);
    Ok(())
}

/// The length of the array at the reader (checked against the input left, as the decoder
/// checks it).
fn array_len(r: &mut Decoder<'_>) -> std::result::Result<usize, Stop> {
    let at = r.offset();
    match r.token("array")? {
        Token::Array(n) => Ok(r.check_count(n, 1, at)?),
        _ => Err(Stop),
    }
}

fn list(r: &mut Decoder<'_>, element: &Type, depth: usize, out: &mut Vec<u8>) -> Streamed {
    let n = array_len(r)?;
    out.push(b'[');
    for i in 0..n {
        if i > 0 {
            out.push(b',');
        }
        stream(r, element, depth + 1, out)?;
    }
    out.push(b']');
    Ok(())
}

/// A set of strings, when its elements are in go-cty's order with none repeated (as go-cty
/// writes every set): the decoder keeps them as they are.
fn string_set(r: &mut Decoder<'_>, out: &mut Vec<u8>) -> Streamed {
    let n = array_len(r)?;
    out.push(b'[');
    let mut last: Option<Cow<'_, [u8]>> = None;
    for i in 0..n {
        if i > 0 {
            out.push(b',');
        }
        let s = string(r, out)?;
        if last
            .as_ref()
            .is_some_and(|l| !crate::value::set::strings_in_order(l, &s))
        {
            return Err(Stop);
        }
        last = Some(s);
    }
    out.push(b']');
    Ok(())
}

/// A map whose keys come in order with none repeated (as go-cty writes every map).
fn map(r: &mut Decoder<'_>, element: &Type, depth: usize, out: &mut Vec<u8>) -> Streamed {
    let at = r.offset();
    let n = match r.token("map")? {
        Token::Map(n) => r.check_count(n, 2, at)?,
        _ => return Err(Stop),
    };
    out.push(b'{');
    let mut last: Option<Cow<'_, [u8]>> = None;
    for i in 0..n {
        if i > 0 {
            out.push(b',');
        }
        let k = string(r, out)?;
        if last.as_ref().is_some_and(|l| *l >= k) {
            return Err(Stop);
        }
        last = Some(k);
        out.push(b':');
        stream(r, element, depth + 1, out)?;
    }
    out.push(b'}');
    Ok(())
}

/// An object whose attributes come in name order (as go-cty writes every object).
fn object(r: &mut Decoder<'_>, ty: &ObjectType, depth: usize, out: &mut Vec<u8>) -> Streamed {
    let at = r.offset();
    let token = r.token("object")?;
    let n = object_header(r, token, ty, at, depth)?;
    let names = ty.json_names();
    let mut keys = AttributeKeys::new(ty);
    out.push(b'{');
    for (i, t) in ty.types().iter().enumerate().take(n) {
        if keys.next(r)? != i {
            return Err(Stop);
        }
        names.append(i, out);
        stream(r, t, depth + 1, out)?;
    }
    out.push(b'}');
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{json, msgpack, Value};

    /// What the stream alone writes, when it takes the whole payload.
    fn streamed(input: &[u8], ty: &Type) -> Option<Vec<u8>> {
        let mut r = Decoder::new(input);
        let mut out = Vec::new();
        (stream(&mut r, ty, 0, &mut out).is_ok() && r.is_empty()).then_some(out)
    }

    fn instance_type() -> Type {
        "object({ami=string,cpu=number,disks=list(object({size=number,kind=string})),\
         groups=set(string),tags=map(string),extra=any,blocks=set(object({a=string})),\
         user_data=string,spot=number})"
            .parse()
            .unwrap()
    }

    fn instance(i: u32) -> Value {
        Value::object([
            ("ami", Value::from(format!("ami-{i:08x}"))),
            ("cpu", Value::from(1u32 << (i % 6))),
            (
                "disks",
                Value::list([Value::object([
                    ("size", Value::from(8 * i)),
                    ("kind", Value::from("gp3")),
                ])]),
            ),
            (
                "groups",
                Value::set([Value::from("sg-b"), Value::from("sg-a")]),
            ),
            (
                "tags",
                Value::map([
                    ("Name", Value::from("web")),
                    ("Team", Value::from("ïdentité")),
                ]),
            ),
            (
                "extra",
                Value::typed(
                    Type::List(Box::new(Type::Bool)),
                    Value::list([Value::from(true)]),
                ),
            ),
            (
                "blocks",
                Value::set([Value::object([("a", Value::from("x\"<y>\n"))])]),
            ),
            ("user_data", Value::Null),
            ("spot", Value::try_from(f64::from(i) / 7.0).unwrap()),
        ])
    }

    /// Payloads as go-cty writes them (the encoder's bytes) go through the stream, which
    /// writes what the two steps write.
    #[test]
    fn go_cty_payloads_stream() {
        let ty = Type::list(instance_type());
        let value = Value::list((0..20).map(instance));
        let bytes = msgpack::encode(&value, &ty).unwrap();
        let two_steps = json::encode(&msgpack::decode(&bytes, &ty).unwrap(), &ty).unwrap();
        assert_eq!(streamed(&bytes, &ty), Some(two_steps.clone()));
        assert_eq!(msgpack_to_json(&bytes, &ty).unwrap(), two_steps);
    }

    /// What only the two steps can write as they do is left to them: the stream stops.
    #[test]
    fn the_stream_stops_where_the_decoder_would_reorder_or_fail() {
        let strings = Type::set(Type::String);
        let map = Type::map(Type::Number);
        let object: Type = "object({a=number,b=number})".parse().unwrap();
        for (bytes, ty) in [
            // ["b", "a"]: out of order; ["a", "a"]: repeated.
            (&b"\x92\xa1b\xa1a"[..], &strings),
            (b"\x92\xa1a\xa1a", &strings),
            // {"b": 1, "a": 2}; {"a": 1, "a": 2}
            (b"\x82\xa1b\x01\xa1a\x02", &map),
            (b"\x82\xa1a\x01\xa1a\x02", &map),
            // {"b": 1, "a": 2} for object({a, b})
            (b"\x82\xa1b\x01\xa1a\x02", &object),
            // An unknown; a trailing byte; an infinity.
            (b"\xd4\x00\x00", &Type::String),
            (b"\x01\x02", &Type::Number),
            (b"\xcb\x7f\xf0\x00\x00\x00\x00\x00\x00", &Type::Number),
        ] {
            assert_eq!(streamed(bytes, ty), None, "{bytes:02x?}");
            let two_steps = decode(bytes, ty).and_then(|v| crate::json::encode(&v, ty));
            assert_eq!(
                msgpack_to_json(bytes, ty).map_err(|e| e.to_string()),
                two_steps.map_err(|e| e.to_string()),
                "{bytes:02x?}"
            );
        }
    }
}

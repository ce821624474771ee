//! MessagePack encoding of a [`Value`] with a type, byte for byte as go-cty >= 1.14.4.

use unicode_segmentation::UnicodeSegmentation;

use crate::error::{Error, ErrorKind, Result};

use crate::path::PathStep;
use crate::text;
use crate::token::msgpack_write::{bin, header, int, str, uint};
use crate::types::{write_json_cached, ObjectType, Type};
use crate::value::conform::{
    check_homogeneous, concrete_type, for_each_attribute, has_concrete_type, index_step, key_step,
    mismatch, typed_type, wrapper_type,
};
use crate::value::{string, Map, Number, Object, Refinements, Str, Value, WireNumber};

/// Encodes `value` as type `ty`, appending to `out`.
///
/// The common pairs of type and value are handled here, everything else (dynamic
/// positions, typed wrappers, unknowns, tuples, mismatches) by [`encode_other`].
pub(crate) fn encode(value: &Value, ty: &Type, out: &mut Vec<u8>) -> Result<()> {
    match (ty, value) {
        (Type::String, Value::String(s)) => string(s, out),
        (Type::Number, Value::Number(n)) => number(n, out),
        (Type::Bool, Value::Bool(b)) => out.push(if *b { 0xc3 } else { 0xc2 }),
        (Type::Object(o), Value::Object(obj)) => return object(o, obj, out),
        (Type::List(e), Value::List(vs)) => return sequence(e, vs, out, |i, _| index_step(i)),
        (Type::Set(e), Value::Set(s)) => {
            return sequence(e, s.as_slice(), out, |_, v| PathStep::SetElement(v.clone()))
        }
        (Type::Map(e), Value::Map(m)) => return map(e, m, out),
        (_, Value::Null) => out.push(0xc0),
        _ => return encode_other(value, ty, out),
    }
    Ok(())
}

/// The elements of a list or a set (in the set's order); `step` names element `i`, `v`
/// in an error's path.
#[inline(never)]
fn sequence(
    e: &Type,
    vs: &[Value],
    out: &mut Vec<u8>,
    step: impl Fn(usize, &Value) -> PathStep,
) -> Result<()> {
    let common = check_homogeneous(vs.iter(), e, index_step)?;
    header(vs.len(), 0x90, 0xdc, out);
    let start = out.len();
    for (i, v) in vs.iter().enumerate() {
        element(v, e, &common, out).map_err(|err| err.in_step(step(i, v)))?;
        if i + 1 == PROJECT_AFTER {
            reserve_rest(out, start, vs.len());
        }
    }
    Ok(())
}

/// How many elements of a collection are written before [`reserve_rest`].
pub(crate) const PROJECT_AFTER: usize = 16;

/// The most room [`reserve_rest`] asks for at once (beyond it the output grows as usual),
/// so that a collection whose first elements are much larger than the rest cannot make
/// it reserve a huge buffer.
const MAX_PROJECTED: usize = 64 << 20;

/// After the first [`PROJECT_AFTER`] of a collection's `total` elements, written from
/// `start`, makes room for the rest at their average size so far: one allocation
/// rather than a copy of the whole output at every doubling. Only for collections many
/// times that long; if the room cannot be had, the output grows as usual.
#[inline(never)]
pub(crate) fn reserve_rest(out: &mut Vec<u8>, start: usize, total: usize) {
    if total < 4 * PROJECT_AFTER {
        return;
    }
    let rest = ((out.len() - start) / PROJECT_AFTER)
        .saturating_mul(total - PROJECT_AFTER)
        .min(MAX_PROJECTED);
    if rest > out.capacity() - out.len() {
        let _ = out.try_reserve_exact(rest);
    }
}

/// A map's entries, in key order.
#[inline(never)]
fn map(e: &Type, m: &Map, out: &mut Vec<u8>) -> Result<()> {
    let common = check_homogeneous(m.values(), e, |i| key_step(m, i))?;
    header(m.len(), 0x80, 0xde, out);
    for (k, v) in m.entries() {
        str(k, out);
        element(v, e, &common, out).map_err(|err| err.in_key(k))?;
    }
    Ok(())
}

/// The attributes of an object, in the type's name order.
#[inline(never)]
fn object(o: &ObjectType, obj: &Object, out: &mut Vec<u8>) -> Result<()> {
    header(o.len(), 0x80, 0xde, out);
    if obj.names() != o.names() {
        return for_each_attribute(o, obj, |name, v, t| {
            str(name, out);
            encode(v, t, out).map_err(|err| err.in_attribute(name))
        });
    }
    let wire_names = o.msgpack_names(str);
    for (i, (t, v)) in o.types().iter().zip(obj.values()).enumerate() {
        wire_names.append(i, out);
        if simple(v, t, out) {
            continue;
        }
        // A list (of a hand-built value) without `encode`'s jump, whose target changes
        // from one attribute to the next.
        let written = match (t, v) {
            (Type::List(e), Value::List(vs)) => sequence(e, vs, out, |i, _| index_step(i)),
            _ => encode(v, t, out),
        };
        written.map_err(|err| err.in_attribute(&o.names().as_slice()[i]))?;
    }
    Ok(())
}

/// Writes the commonest values, strings, numbers and bools, without a call to [`encode`];
/// `false` for every other value, which the caller passes to `encode`.
#[inline(always)]
fn simple(v: &Value, ty: &Type, out: &mut Vec<u8>) -> bool {
    match (ty, v) {
        (Type::String, Value::String(s)) => string(s, out),
        (Type::Bool, Value::Bool(b)) => out.push(if *b { 0xc3 } else { 0xc2 }),
        (Type::Number, Value::Number(n)) => number(n, out),
        _ => return false,
    }
    true
}

/// A string value: short NFC text (the most common) as a fixstr copied at a fixed size.
#[inline(always)]
pub(crate) fn string(s: &Str, out: &mut Vec<u8>) {
    match s.inline_buffer() {
        Some((buffer, len)) if text::is_nfc_bytes(&buffer[..len]) => {
            out.push(0xa0 | len as u8);
            text::append_short::<{ string::INLINE }>(out, buffer, len);
        }
        _ => str(&text::nfc_bytes(s), out),
    }
}

pub(crate) fn number(n: &Number, out: &mut Vec<u8>) {
    match n.wire() {
        WireNumber::Int(i) => int(i, out),
        WireNumber::Float(f) => {
            out.push(0xcb);
            out.extend_from_slice(&f.to_be_bytes());
        }
        WireNumber::Text(s) => str(s.as_bytes(), out),
    }
}

/// Encodes `value` at a `dynamic` position, appending to `out`: [`encode`] with type
/// `dynamic`, without its jump on the type and value (whose target changes with every
/// value a struct's fields write).
pub(crate) fn encode_dynamic(value: &Value, out: &mut Vec<u8>) -> Result<()> {
    encode_other(value, &Type::Dynamic, out)
}

/// [`encode`] for the less common cases.
#[inline(never)]
fn encode_other(value: &Value, ty: &Type, out: &mut Vec<u8>) -> Result<()> {
    match (ty, value) {
        (Type::Dynamic, Value::Null) => out.push(0xc0),
        (Type::Dynamic, Value::Unknown(_)) => out.extend_from_slice(&UNKNOWN),
        (Type::Dynamic, Value::Typed(t)) => {
            let ty = typed_type(t).map_err(|e| e.with_kind(ErrorKind::Unencodable))?;
            wrapper(&ty, &t.value, out)?;
        }
        (Type::Dynamic, v) => return hand_built(v, out),
        (_, Value::Typed(t)) if t.ty == *ty || typed_type(t).is_ok_and(|c| *c == *ty) => {
            encode(&t.value, ty, out)?
        }
        (_, Value::Unknown(r)) => unknown(r, ty, out),
        (_, Value::Null) => out.push(0xc0),
        (Type::Tuple(ts), Value::Tuple(vs)) => {
            if ts.len() != vs.len() {
                return Err(Error::unencodable(format!(
                    "expected a tuple of {} elements, found {}",
                    ts.len(),
                    vs.len()
                )));
            }
            header(vs.len(), 0x90, 0xdc, out);
            for (i, (v, t)) in vs.iter().zip(ts.iter()).enumerate() {
                encode(v, t, out).map_err(|err| err.in_index(i))?;
            }
        }
        (ty, v) => return Err(Error::new(ErrorKind::Unencodable, mismatch(ty, v))),
    }
    Ok(())
}

/// A collection element (see [`wrapper_type`]).
fn element(v: &Value, ty: &Type, common: &Option<Type>, out: &mut Vec<u8>) -> Result<()> {
    match wrapper_type(v, ty, common) {
        Some(t) => wrapper(t, v, out),
        None if simple(v, ty, out) => Ok(()),
        None => encode(v, ty, out),
    }
}

/// The dynamic wrapper: `[type JSON as bin, value]`.
fn wrapper(ty: &Type, value: &Value, out: &mut Vec<u8>) -> Result<()> {
    out.push(0x92);
    // The type JSON goes straight into `out` behind a bin8 header, which is rewritten
    // in the rare case of a type JSON longer than 255 bytes.
    let at = out.len();
    out.extend_from_slice(&[0xc4, 0]);
    write_json_cached(ty, out);
    let len = out.len() - at - 2;
    if len <= u8::MAX as usize {
        out[at + 1] = len as u8;
    } else {
        let json = out.split_off(at + 2);
        out.truncate(at);
        bin(&json, out);
    }
    encode(value, ty, out)
}

/// How many inferred types [`hand_built`] keeps per thread.
const INFERRED_TYPES: usize = 4;

/// A type [`hand_built`] inferred, with its wrapper's opening bytes (the array header
/// and the type JSON as bin).
type Inferred = std::rc::Rc<(Type, Box<[u8]>)>;

thread_local! {
    /// The types [`hand_built`] inferred last, most recent first.
    static INFERRED: std::cell::RefCell<Vec<Inferred>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// A value built by hand (no type recorded) at a `dynamic` position, in its wrapper.
/// Providers build many values of one shape (one per resource, one per element): the
/// value is first checked against the types inferred last, part by part without
/// building a type (`has_concrete_type`, exact where it answers yes), and only inferred
/// when none fits.
fn hand_built(value: &Value, out: &mut Vec<u8>) -> Result<()> {
    let known = INFERRED.with(|cache| {
        cache.try_borrow().ok().and_then(|cache| {
            cache
                .iter()
                .find(|e| has_concrete_type(value, &Type::Dynamic, &e.0))
                .cloned()
        })
    });
    if let Some(entry) = known {
        out.extend_from_slice(&entry.1);
        // Objects (the commonest) without `encode`'s jump on the type and value.
        if let (Type::Object(o), Value::Object(obj)) = (&entry.0, value) {
            return object(o, obj, out);
        }
        return encode(value, &entry.0, out);
    }
    let ty =
        concrete_type(value, &Type::Dynamic).map_err(|e| e.with_kind(ErrorKind::Unencodable))?;
    wrapper(&ty, value, out)?;
    // The opening bytes as `wrapper` writes them.
    let mut opening = vec![0x92];
    let mut json = Vec::new();
    write_json_cached(&ty, &mut json);
    bin(&json, &mut opening);
    INFERRED.with(|cache| {
        if let Ok(mut cache) = cache.try_borrow_mut() {
            if cache.len() == INFERRED_TYPES {
                cache.pop();
            }
            cache.insert(0, std::rc::Rc::new((ty, opening.into_boxed_slice())));
        }
    });
    Ok(())
}

/// The plain unknown: fixext1, type 0, one zero byte.
pub(crate) const UNKNOWN: [u8; 3] = [0xd4, 0x00, 0x00];

/// An unknown: extension 12 with the refinements that apply to `ty`, or the plain
/// unknown when none do.
pub(crate) fn unknown(r: &Refinements, ty: &Type, out: &mut Vec<u8>) {
    let mut body = Vec::new();
    let mut entries = 0u8;
    if r.is_not_null() {
        body.extend_from_slice(&[0x01, 0xc2]);
        entries += 1;
    }
    match ty {
        Type::Number => {
            for (key, bound) in [
                (0x03, r.number_lower_bound()),
                (0x04, r.number_upper_bound()),
            ] {
                if let Some((n, inclusive)) = bound {
                    body.extend_from_slice(&[key, 0x92]);
                    // Cannot fail: a bound is a number and the type is number.
                    let _ = encode(&Value::Number(n.clone()), &Type::Number, &mut body);
                    body.push(if inclusive { 0xc3 } else { 0xc2 });
                    entries += 1;
                }
            }
        }
        Type::String => {
            if let Some(prefix) = r.string_prefix() {
                body.push(0x02);
                str(wire_prefix(prefix), &mut body);
                entries += 1;
            }
        }
        Type::List(_) | Type::Set(_) | Type::Map(_) => {
            if r.length_lower_bound() != 0 {
                body.push(0x05);
                uint(r.length_lower_bound(), &mut body);
                entries += 1;
            }
            if let Some(max) = r.length_upper_bound() {
                body.push(0x06);
                int(max.min(i64::MAX as u64) as i64, &mut body);
                entries += 1;
            }
        }
        _ => {}
    }
    if entries == 0 || *ty == Type::Dynamic {
        out.extend_from_slice(&UNKNOWN);
        return;
    }
    let len = body.len() + 1;
    match len {
        1 => out.push(0xd4),
        2 => out.push(0xd5),
        4 => out.push(0xd6),
        8 => out.push(0xd7),
        16 => out.push(0xd8),
        0..=255 => out.extend_from_slice(&[0xc7, len as u8]),
        256..=65535 => {
            out.push(0xc8);
            out.extend_from_slice(&(len as u16).to_be_bytes());
        }
        _ => {
            out.push(0xc9);
            out.extend_from_slice(&(len as u32).to_be_bytes());
        }
    }
    out.push(0x0c);
    out.push(0x80 | entries);
    out.extend_from_slice(&body);
}

/// The prefix as go-cty writes it: one longer than 256 bytes is cut to 255 bytes; then
/// a code point the cut split is dropped, or else the last grapheme cluster, which later
/// text could still extend.
fn wire_prefix(prefix: &str) -> &str {
    const CUT: usize = 255;
    if prefix.len() <= 256 {
        return prefix;
    }
    if !prefix.is_char_boundary(CUT) {
        let mut cut = CUT;
        while !prefix.is_char_boundary(cut) {
            cut -= 1;
        }
        return &prefix[..cut];
    }
    let head = &prefix[..CUT];
    let last = head
        .grapheme_indices(true)
        .next_back()
        .map_or(0, |(i, _)| i);
    &head[..last]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Room reserved from the size of a collection's first elements changes nothing in
    /// its bytes, whether the later elements are smaller or larger than those.
    #[test]
    fn reserving_for_the_rest_of_a_collection_keeps_the_bytes() {
        for (first, rest) in [(300, 1), (1, 300)] {
            let strings = (0..100).map(|i| {
                let len = if i < PROJECT_AFTER { first } else { rest };
                Value::from(format!("{}{i}", "x".repeat(len)))
            });
            let strings: Vec<Value> = strings.collect();
            let list = Value::list(strings.clone());
            let set = Value::set(strings);
            for (v, ty) in [
                (list, Type::list(Type::String)),
                (set, Type::set(Type::String)),
            ] {
                let mut out = Vec::new();
                encode(&v, &ty, &mut out).unwrap();
                let mut want = vec![0xdc, 0, 100];
                for e in v.as_slice().unwrap() {
                    str(e.as_str().unwrap(), &mut want);
                }
                assert_eq!(out, want);
            }
        }
    }

    /// The wrapper's bin header fits its type JSON at every length around 255 bytes.
    #[test]
    fn wrapper_type_json_of_any_length() {
        for n in 230..290 {
            let name = "a".repeat(n);
            let ty = Type::object([(name.as_str(), Type::Bool)]);
            let value = Value::typed(
                ty.clone(),
                Value::object([(name.as_str(), Value::from(true))]),
            );
            let mut out = Vec::new();
            encode(&value, &Type::Dynamic, &mut out).unwrap();
            let json = ty.to_json();
            let mut want = vec![0x92];
            bin(json.as_bytes(), &mut want);
            encode(&value, &ty, &mut want).unwrap();
            assert_eq!(out, want, "{n}");
            assert_eq!(crate::msgpack::decode(&out, &Type::Dynamic).unwrap(), value);
        }
    }

    /// A value built by hand at a `dynamic` position is written with its own type
    /// whatever the types inferred before it: each sample after each other sample (and
    /// after the four before it), against the sample written alone, with an empty cache.
    #[test]
    fn hand_built_values_take_their_own_type_whatever_came_before() {
        let obj = |a: Value, b: Value| Value::object([("a", a), ("b", b)]);
        let samples: Vec<Value> = vec![
            Value::from("x"),
            Value::from(1),
            obj(Value::from("s"), Value::list([Value::from(1)])),
            obj(Value::from("s"), Value::list([])),
            obj(Value::from("s"), Value::list([Value::Null])),
            obj(Value::from(2), Value::list([Value::from(1)])),
            obj(Value::Null, Value::list([Value::from("t")])),
            obj(Value::unknown(), Value::list([Value::from(true)])),
            Value::object([("a", Value::from("s"))]),
            Value::object([("a", Value::from("s")), ("c", Value::from("u"))]),
            Value::list([Value::from("a"), Value::Null]),
            Value::list([Value::Null]),
            Value::list(Vec::new()),
            Value::set([Value::from(1), Value::from(2)]),
            Value::map([("k", Value::from("v"))]),
            Value::map([("k", Value::Null)]),
            Value::map::<&str>([]),
            Value::map([("k", Value::list([Value::from(1)])), ("l", Value::list([]))]),
            Value::tuple([Value::from(1), Value::from("x")]),
            Value::tuple([Value::from("x"), Value::from(1)]),
            obj(Value::typed(Type::String, Value::Null), Value::list([])),
            obj(
                Value::typed(Type::list(Type::Dynamic), Value::list([Value::from(1)])),
                Value::Null,
            ),
            Value::list([Value::from(1), Value::from("x")]),
        ];
        let alone = |v: &Value| {
            INFERRED.with(|c| c.borrow_mut().clear());
            let mut out = Vec::new();
            encode(v, &Type::Dynamic, &mut out).map(|()| out)
        };
        let wants: Vec<_> = samples.iter().map(alone).collect();
        for (i, before) in samples.iter().enumerate() {
            for (b, want) in samples.iter().zip(&wants) {
                INFERRED.with(|c| c.borrow_mut().clear());
                for earlier in samples.iter().cycle().skip(i + 1).take(4).chain([before]) {
                    let _ = encode(earlier, &Type::Dynamic, &mut Vec::new());
                }
                let mut out = Vec::new();
                let got = encode(b, &Type::Dynamic, &mut out).map(|()| out);
                assert_eq!(got, *want, "{b:?} after {before:?}");
            }
        }
    }
}

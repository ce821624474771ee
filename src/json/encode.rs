//! JSON encoding of a [`Value`] with a type, byte for byte as go-cty's `json.Marshal`.

use crate::error::{Error, ErrorKind, Result};
use crate::path::PathStep;
use crate::text;
use crate::token::json_write::write_string;
use crate::types::{write_json_cached, Type};
use crate::value::conform::{
    check_homogeneous, concrete_type, for_each_attribute, index_step, key_step, mismatch,
    typed_type, wrapper_type,
};
use crate::value::{Number, Value};

/// Encodes `value` as type `ty`, appending JSON text to `out`.
///
/// The common pairs of type and value are handled here, everything else (unknowns,
/// dynamic positions, typed wrappers, tuples, mismatches) by [`encode_other`].
pub(crate) fn encode(value: &Value, ty: &Type, out: &mut Vec<u8>) -> Result<()> {
    match (ty, value) {
        (Type::String, Value::String(s)) => write_string(out, &text::nfc_bytes(s)),
        (Type::Number, Value::Number(n)) if !n.is_infinite() => n.write_text(out),
        (Type::Bool, Value::Bool(b)) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        (Type::Object(o), Value::Object(obj)) if obj.names() == o.names() => {
            out.push(b'{');
            let names = o.json_names();
            for (i, (t, v)) in o.types().iter().zip(obj.values()).enumerate() {
                names.append(i, out);
                encode(v, t, out).map_err(|err| err.in_attribute(&o.names().as_slice()[i]))?;
            }
            out.push(b'}');
        }
        (Type::List(e), Value::List(vs)) => {
            let common = check_homogeneous(vs.iter(), e, index_step)?;
            out.push(b'[');
            for (i, v) in vs.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                element(v, e, &common, out).map_err(|err| err.in_index(i))?;
            }
            out.push(b']');
        }
        (Type::Set(e), Value::Set(s)) => {
            let common = check_homogeneous(s.iter(), e, index_step)?;
            out.push(b'[');
            for (i, v) in s.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                element(v, e, &common, out)
                    .map_err(|err| err.in_step(PathStep::SetElement(v.clone())))?;
            }
            out.push(b']');
        }
        (Type::Map(e), Value::Map(m)) => {
            let common = check_homogeneous(m.values(), e, |i| key_step(m, i))?;
            out.push(b'{');
            for (i, (k, v)) in m.entries().iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_string(out, k);
                out.push(b':');
                element(v, e, &common, out).map_err(|err| err.in_key(k))?;
            }
            out.push(b'}');
        }
        (_, Value::Null) => out.extend_from_slice(b"null"),
        _ => return encode_other(value, ty, out),
    }
    Ok(())
}

/// [`encode`] for the less common cases, and the errors.
#[inline(never)]
fn encode_other(value: &Value, ty: &Type, out: &mut Vec<u8>) -> Result<()> {
    if value.is_unknown() {
        return Err(unknown_error());
    }
    match (ty, value) {
        (Type::Dynamic, Value::Typed(t)) => {
            let ty = typed_type(t).map_err(|e| e.with_kind(ErrorKind::Unencodable))?;
            wrapper(&ty, &t.value, out)?;
        }
        (Type::Dynamic, v) => {
            let ty = concrete_type(v, &Type::Dynamic)
                .map_err(|e| e.with_kind(ErrorKind::Unencodable))?;
            wrapper(&ty, v, out)?;
        }
        (_, Value::Typed(t)) if t.ty == *ty || typed_type(t).is_ok_and(|c| *c == *ty) => {
            encode(&t.value, ty, out)?
        }
        (Type::Number, Value::Number(_)) => return Err(infinity_error()),
        (Type::Tuple(ts), Value::Tuple(vs)) => {
            if ts.len() != vs.len() {
                return Err(Error::unencodable(format!(
                    "expected a tuple of {} elements, found {}",
                    ts.len(),
                    vs.len()
                )));
            }
            out.push(b'[');
            for (i, (v, t)) in vs.iter().zip(ts.iter()).enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                encode(v, t, out).map_err(|err| err.in_index(i))?;
            }
            out.push(b']');
        }
        (Type::Object(o), Value::Object(obj)) => {
            out.push(b'{');
            let mut first = true;
            for_each_attribute(o, obj, |name, v, t| {
                if !std::mem::take(&mut first) {
                    out.push(b',');
                }
                write_string(out, name);
                out.push(b':');
                encode(v, t, out).map_err(|err| err.in_attribute(name))
            })?;
            out.push(b'}');
        }
        (ty, v) => return Err(Error::new(ErrorKind::Unencodable, mismatch(ty, v))),
    }
    Ok(())
}

/// A collection element (see [`wrapper_type`]).
fn element(v: &Value, ty: &Type, common: &Option<Type>, out: &mut Vec<u8>) -> Result<()> {
    match wrapper_type(v, ty, common) {
        Some(t) => wrapper(t, v, out),
        None => encode(v, ty, out),
    }
}

/// The dynamic wrapper: `{"value":...,"type":...}`, value first.
fn wrapper(ty: &Type, value: &Value, out: &mut Vec<u8>) -> Result<()> {
    if value.is_unknown() {
        return Err(unknown_error());
    }
    out.extend_from_slice(b"{\"value\":");
    encode(value, ty, out)?;
    out.extend_from_slice(b",\"type\":");
    write_json_cached(ty, out);
    out.push(b'}');
    Ok(())
}

/// Writes a string value: its NFC text, quoted.
pub(crate) fn string(s: &str, out: &mut Vec<u8>) {
    write_string(out, text::nfc(s).as_bytes());
}

/// Writes a number value: its text, as go-cty writes it; the infinities cannot be
/// written.
pub(crate) fn number(n: &Number, out: &mut Vec<u8>) -> Result<()> {
    if n.is_infinite() {
        return Err(infinity_error());
    }
    n.write_text(out);
    Ok(())
}

/// The error for an unknown value, which JSON cannot hold.
#[cold]
pub(crate) fn unknown_error() -> Error {
    Error::new(ErrorKind::Unencodable, "value is not known")
}

#[cold]
fn infinity_error() -> Error {
    Error::new(ErrorKind::Unencodable, "cannot serialize infinity as JSON")
}

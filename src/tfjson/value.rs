//! Plain JSON for values, as `show -json` writes them: writing with unknowns left out,
//! sensitivity trees, and reading `after` with its unknown tree.

use crate::error::{Error, ErrorKind, Result};
use crate::json::decode::{number, primitive, with_line_column};
use crate::limits::MAX_DEPTH;
use crate::path::PathStep;
use crate::text;
use crate::token::json_read::{Kind, Reader};
use crate::token::json_write::write_string;
use crate::types::{ObjectType, Type};
use crate::value::conform::{common_type, for_each_attribute, mismatch, type_dynamic_elements};
use crate::value::{Map, Object, Set, Str, Value};

use super::MarkTree;

/// Writes `v` (not itself unknown) as plain JSON of type `ty`.
pub(super) fn write(v: &Value, ty: &Type, out: &mut Vec<u8>) -> Result<()> {
    if let Value::Typed(t) = v {
        if !ty.has_dynamic() && t.ty != *ty {
            return Err(Error::new(ErrorKind::Unencodable, mismatch(ty, v)));
        }
        return write(&t.value, &t.ty, out);
    }
    match (ty, v) {
        (_, Value::Null) => out.extend_from_slice(b"null"),
        (_, Value::Unknown(_)) => out.extend_from_slice(b"null"),
        (Type::Bool | Type::Dynamic, Value::Bool(b)) => {
            out.extend_from_slice(if *b { b"true" } else { b"false" })
        }
        (Type::Number | Type::Dynamic, Value::Number(n)) => {
            if n.is_infinite() {
                return Err(Error::new(
                    ErrorKind::Unencodable,
                    "cannot serialize infinity as JSON",
                ));
            }
            out.extend_from_slice(n.to_string().as_bytes());
        }
        (Type::String | Type::Dynamic, Value::String(s)) => write_string(out, s),
        (Type::List(e), Value::List(vs)) => array(vs.iter().map(|v| (v, &**e)), out)?,
        (Type::Set(e), Value::Set(s)) => array(s.iter().map(|v| (v, &**e)), out)?,
        (Type::Dynamic, Value::List(vs) | Value::Tuple(vs)) => {
            array(vs.iter().map(|v| (v, &Type::Dynamic)), out)?
        }
        (Type::Dynamic, Value::Set(s)) => array(s.iter().map(|v| (v, &Type::Dynamic)), out)?,
        (Type::Tuple(ts), Value::Tuple(vs)) => {
            if ts.len() != vs.len() {
                return Err(Error::new(
                    ErrorKind::Unencodable,
                    format!(
                        "expected a tuple of {} elements, found {}",
                        ts.len(),
                        vs.len()
                    ),
                ));
            }
            array(vs.iter().zip(ts.iter()), out)?
        }
        (Type::Map(e), Value::Map(m)) => members(m.iter().map(|(k, v)| (k, v, &**e)), out)?,
        (Type::Dynamic, Value::Map(m)) => {
            members(m.iter().map(|(k, v)| (k, v, &Type::Dynamic)), out)?
        }
        (Type::Dynamic, Value::Object(o)) => {
            members(o.iter().map(|(k, v)| (k, v, &Type::Dynamic)), out)?
        }
        (Type::Object(o), Value::Object(obj)) => {
            out.push(b'{');
            let mut first = true;
            for_each_attribute(o, obj, |name, v, t| {
                if v.is_unknown() {
                    return Ok(());
                }
                if !std::mem::take(&mut first) {
                    out.push(b',');
                }
                write_string(out, name);
                out.push(b':');
                write(v, t, out).map_err(|e| e.in_attribute(name))
            })?;
            out.push(b'}');
        }
        (ty, v) => return Err(Error::new(ErrorKind::Unencodable, mismatch(ty, v))),
    }
    Ok(())
}

/// An array; unknown elements are `null`.
fn array<'v>(
    elements: impl Iterator<Item = (&'v Value, &'v Type)>,
    out: &mut Vec<u8>,
) -> Result<()> {
    out.push(b'[');
    for (i, (v, t)) in elements.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write(v, t, out).map_err(|e| e.in_index(i))?;
    }
    out.push(b']');
    Ok(())
}

/// An object from map elements or object attributes; unknown ones are left out.
fn members<'v>(
    entries: impl Iterator<Item = (&'v str, &'v Value, &'v Type)>,
    out: &mut Vec<u8>,
) -> Result<()> {
    out.push(b'{');
    let mut first = true;
    for (k, v, t) in entries {
        if v.is_unknown() {
            continue;
        }
        if !std::mem::take(&mut first) {
            out.push(b',');
        }
        write_string(out, k);
        out.push(b':');
        write(v, t, out).map_err(|e| e.in_key(k))?;
    }
    out.push(b'}');
    Ok(())
}

/// The sensitivity tree of `v` at a position of type `ty`; `paths` are the remainders
/// of the sensitive paths that lead here.
pub(super) fn sensitive(v: &Value, ty: &Type, paths: &[&[PathStep]]) -> MarkTree {
    if paths.iter().any(|p| p.is_empty()) {
        return MarkTree::Bool(true);
    }
    let (v, ty) = match v {
        Value::Typed(t) => (t.value.untyped(), &t.ty),
        v => (v, ty),
    };
    let below = |matches: &dyn Fn(&PathStep) -> bool| -> Vec<&[PathStep]> {
        paths
            .iter()
            .filter(|p| matches(&p[0]))
            .map(|p| &p[1..])
            .collect()
    };
    let element = |i: usize| -> &Type {
        match ty {
            Type::List(e) | Type::Set(e) | Type::Map(e) => e,
            Type::Tuple(ts) => ts.get(i).unwrap_or(&Type::Dynamic),
            _ => &Type::Dynamic,
        }
    };
    match v {
        Value::Unknown(_) => match ty {
            Type::List(_) | Type::Set(_) | Type::Tuple(_) => MarkTree::Array(Vec::new()),
            Type::Map(_) | Type::Object(_) => MarkTree::Object(Default::default()),
            _ => MarkTree::Bool(false),
        },
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) | Value::Typed(_) => {
            MarkTree::Bool(false)
        }
        Value::List(vs) | Value::Tuple(vs) => MarkTree::Array(
            vs.iter()
                .enumerate()
                .map(|(i, e)| {
                    let sub = below(&|s| matches!(s, PathStep::Index(j) if *j == i as u64));
                    sensitive(e, element(i), &sub)
                })
                .collect(),
        ),
        Value::Set(s) => {
            let items: Vec<MarkTree> = s
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    let sub = below(&|s| match s {
                        PathStep::Index(j) => *j == i as u64,
                        PathStep::SetElement(x) => crate::value::set::equivalent(x, e),
                        _ => false,
                    });
                    sensitive(e, element(i), &sub)
                })
                .collect();
            if items.iter().any(MarkTree::any) {
                MarkTree::Bool(true)
            } else {
                MarkTree::Array(items)
            }
        }
        Value::Map(m) => super::object_tree(m.iter().map(|(k, e)| {
            let sub = below(&|s| s.name() == Some(k));
            (k, sensitive(e, element(0), &sub))
        })),
        Value::Object(o) => {
            let attr_ty = |name: &str| match ty {
                Type::Object(ot) => ot.attribute(name).unwrap_or(&Type::Dynamic),
                _ => &Type::Dynamic,
            };
            super::object_tree(o.iter().map(|(k, e)| {
                let sub = below(&|s| s.name() == Some(k));
                (k, sensitive(e, attr_ty(k), &sub))
            }))
        }
    }
}

/// Decodes plain JSON `text` of type `ty`, with the unknowns `unknown` marks.
pub(super) fn decode(text: &str, unknown: Option<&MarkTree>, ty: &Type) -> Result<Value> {
    let input = text.as_bytes();
    let mut r = Reader::new(input);
    value(&mut r, ty, unknown, 0)
        .and_then(|v| r.finish().map(|()| v))
        .map_err(|e| with_line_column(e, input))
}

fn shape_error(expected: &str, found: &MarkTree) -> Error {
    let found = match found {
        MarkTree::Bool(_) => "a bool",
        MarkTree::Array(_) => "an array",
        MarkTree::Object(_) => "an object",
    };
    Error::new(
        ErrorKind::InvalidValue,
        format!(
            "the unknown tree does not fit the value: expected {expected} or false, found {found}"
        ),
    )
}

/// The unknown sub-tree of element `i`.
fn index_child(unknown: Option<&MarkTree>, i: usize) -> Result<Option<&MarkTree>> {
    match unknown {
        None | Some(MarkTree::Bool(false)) => Ok(None),
        Some(MarkTree::Array(items)) => Ok(items.get(i)),
        Some(other) => Err(shape_error("an array", other)),
    }
}

/// The unknown sub-tree of attribute or map element `name`.
fn key_child<'t>(unknown: Option<&'t MarkTree>, name: &str) -> Result<Option<&'t MarkTree>> {
    match unknown {
        None | Some(MarkTree::Bool(false)) => Ok(None),
        Some(MarkTree::Object(m)) => Ok(m.get(name)),
        Some(other) => Err(shape_error("an object", other)),
    }
}

/// Checks that the unknown tree has the shape of a JSON value of `kind` here: an array
/// under an array, an object under an object.
fn check_shape(unknown: Option<&MarkTree>, kind: Kind) -> Result<()> {
    match kind {
        Kind::Array => index_child(unknown, 0).map(drop),
        Kind::Object => key_child(unknown, "").map(drop),
        _ => Ok(()),
    }
}

/// The names the unknown tree marks wholly unknown under an object or map.
fn unknown_names(unknown: Option<&MarkTree>) -> impl Iterator<Item = &str> {
    let m = match unknown {
        Some(MarkTree::Object(m)) => Some(m),
        _ => None,
    };
    m.into_iter()
        .flat_map(|m| m.iter())
        .filter(|(_, t)| t.is_true())
        .map(|(k, _)| k.as_str())
}

fn value(r: &mut Reader<'_>, ty: &Type, unknown: Option<&MarkTree>, depth: usize) -> Result<Value> {
    let kind = r.peek_kind()?;
    let at = r.offset();
    if depth > MAX_DEPTH {
        return Err(crate::limits::depth_exceeded("value").at_offset(at));
    }
    if unknown.is_some_and(MarkTree::is_true) {
        r.skip_value()?;
        return Ok(Value::unknown());
    }
    if kind == Kind::Null {
        r.read_null()?;
        return Ok(Value::Null);
    }
    // Checked before the elements, so that a mismatch is reported at this value's path.
    check_shape(unknown, kind)?;
    match (ty, kind) {
        (Type::Bool | Type::Number | Type::String, _) => primitive(r, ty, kind, at),
        (Type::List(e), Kind::Array) => {
            let mut elements = sequence(r, |_| e, unknown, depth)?;
            settle(&mut elements, e);
            Ok(Value::List(elements.into()))
        }
        (Type::Set(e), Kind::Array) => {
            let mut elements = sequence(r, |_| e, unknown, depth)?;
            settle(&mut elements, e);
            Ok(Value::Set(Set::new(elements)))
        }
        (Type::Tuple(ts), Kind::Array) => {
            let elements = sequence(r, |i| ts.get(i).unwrap_or(&Type::Dynamic), unknown, depth)?;
            if elements.len() != ts.len() {
                return Err(Error::new(
                    ErrorKind::InvalidValue,
                    format!(
                        "expected a tuple of {} elements, found {}",
                        ts.len(),
                        elements.len()
                    ),
                )
                .at_offset(at));
            }
            Ok(Value::Tuple(elements.into()))
        }
        (Type::Map(e), Kind::Object) => {
            r.begin_object()?;
            // The elements the unknown tree marks wholly unknown come first, so that an
            // element the JSON also has (a later entry wins in `Map::new`) keeps its value.
            let mut entries: Vec<(Str, Value)> = unknown_names(unknown)
                .map(|k| (k.into(), Value::unknown()))
                .collect();
            while let Some(k) = r.next_key()? {
                let k = text::nfc(&k).into_owned();
                let v = key_child(unknown, &k)
                    .and_then(|u| value(r, e, u, depth + 1))
                    .map_err(|err| err.in_key(&k))?;
                entries.push((k.into(), v));
            }
            let m = Map::new(entries);
            if !e.has_dynamic() {
                return Ok(Value::Map(m));
            }
            let mut entries = m.into_vec();
            settle_entries(&mut entries, e);
            Ok(Value::Map(Map::from_sorted(entries.into())))
        }
        (Type::Object(o), Kind::Object) => object(r, o, unknown, depth),
        (Type::Dynamic, _) => {
            let (t, v) = implied(r, unknown, depth)?;
            Ok(if t == Type::Dynamic {
                v
            } else {
                Value::typed(t, v)
            })
        }
        (ty, kind) => Err(Error::mismatch(
            match ty {
                Type::Object(_) => "object",
                Type::Tuple(_) => "tuple",
                ty => ty.kind_name(),
            },
            kind.described(),
        )
        .at_offset(at)),
    }
}

fn sequence<'t>(
    r: &mut Reader<'_>,
    element: impl Fn(usize) -> &'t Type,
    unknown: Option<&MarkTree>,
    depth: usize,
) -> Result<Vec<Value>> {
    r.begin_array()?;
    let mut out = Vec::new();
    while r.next_element()? {
        let i = out.len();
        let v = index_child(unknown, i)
            .and_then(|u| value(r, element(i), u, depth + 1))
            .map_err(|e| e.in_index(i))?;
        out.push(v);
    }
    Ok(out)
}

/// Gives the null and unknown elements of a collection of `dynamic` the type the other
/// elements share, when they share one (see the module documentation).
fn settle(elements: &mut [Value], element: &Type) {
    if element.has_dynamic() {
        if let Ok(common) = common_type(elements.iter(), element, |i| PathStep::Index(i as u64)) {
            type_dynamic_elements(elements.iter_mut(), element, &common);
        }
    }
}

fn settle_entries(entries: &mut [(Str, Value)], element: &Type) {
    if let Ok(common) = common_type(entries.iter().map(|(_, v)| v), element, |i| {
        PathStep::Index(i as u64)
    }) {
        type_dynamic_elements(entries.iter_mut().map(|(_, v)| v), element, &common);
    }
}

fn object(
    r: &mut Reader<'_>,
    ty: &ObjectType,
    unknown: Option<&MarkTree>,
    depth: usize,
) -> Result<Value> {
    r.begin_object()?;
    let names = ty.names();
    let mut values: Vec<Option<Value>> = vec![None; ty.len()];
    while let Some((k, key_at)) = r.next_key_at()? {
        let k = text::nfc(&k);
        let Some(i) = names.index_of(&k) else {
            return Err(Error::new(ErrorKind::InvalidValue, "unsupported attribute")
                .in_attribute(&k)
                .at_offset(key_at));
        };
        let v = key_child(unknown, &k)
            .and_then(|u| value(r, &ty.types()[i], u, depth + 1))
            .map_err(|e| e.in_attribute(&k))?;
        values[i] = Some(v);
    }
    let mut out = Vec::with_capacity(values.len());
    for (name, v) in names.iter().zip(values) {
        out.push(match v {
            Some(v) => v,
            None => match key_child(unknown, name).map_err(|e| e.in_attribute(name))? {
                Some(t) if t.is_true() => Value::unknown(),
                _ => Value::Null,
            },
        });
    }
    Ok(Value::Object(Box::new(Object::from_parts(
        names.clone(),
        out.into(),
    ))))
}

/// A value at a `dynamic` position: the type its JSON implies, unknowns from the tree.
fn implied(r: &mut Reader<'_>, unknown: Option<&MarkTree>, depth: usize) -> Result<(Type, Value)> {
    let kind = r.peek_kind()?;
    let at = r.offset();
    if depth > MAX_DEPTH {
        return Err(crate::limits::depth_exceeded("value").at_offset(at));
    }
    if unknown.is_some_and(MarkTree::is_true) {
        r.skip_value()?;
        return Ok((Type::Dynamic, Value::unknown()));
    }
    // Checked before the elements, so that a mismatch is reported at this value's path.
    check_shape(unknown, kind)?;
    Ok(match kind {
        Kind::Null => {
            r.read_null()?;
            (Type::Dynamic, Value::Null)
        }
        Kind::Bool => (Type::Bool, Value::Bool(r.read_bool()?)),
        Kind::Number => (
            Type::Number,
            Value::Number(number(r.read_number()?).map_err(|e| e.at_offset(at))?),
        ),
        Kind::String => (
            Type::String,
            Value::String(text::nfc(&r.read_string()?).into()),
        ),
        Kind::Array => {
            r.begin_array()?;
            let mut types = Vec::new();
            let mut values = Vec::new();
            while r.next_element()? {
                let i = values.len();
                let (t, v) = index_child(unknown, i)
                    .and_then(|u| implied(r, u, depth + 1))
                    .map_err(|e| e.in_index(i))?;
                types.push(t);
                values.push(v);
            }
            (Type::tuple(types), Value::Tuple(values.into()))
        }
        Kind::Object => {
            r.begin_object()?;
            let mut attrs: Vec<(String, Type, Value)> = Vec::new();
            while let Some(k) = r.next_key()? {
                let k = text::nfc(&k).into_owned();
                let (t, v) = key_child(unknown, &k)
                    .and_then(|u| implied(r, u, depth + 1))
                    .map_err(|e| e.in_attribute(&k))?;
                attrs.push((k, t, v));
            }
            for k in unknown_names(unknown) {
                if !attrs.iter().any(|(a, _, _)| a == k) {
                    attrs.push((k.to_owned(), Type::Dynamic, Value::unknown()));
                }
            }
            let ty = Type::object(attrs.iter().map(|(k, t, _)| (k.as_str(), t.clone())));
            let value = Value::object(attrs.into_iter().map(|(k, _, v)| (k, v)));
            (ty, value)
        }
    })
}

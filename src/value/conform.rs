//! The concrete type of a value at a position of a given type: the one place where
//! `dynamic` positions get their types, for the encoders (which infer the type of a
//! value built by hand) and the decoders (which check that collections of `dynamic`
//! hold one type).

use crate::error::{Error, Result};
use crate::types::{ObjectType, Type};
use crate::value::{Object, Value};

/// The concrete type of `value` at a position of type `ty`: `ty` itself with every
/// `dynamic` inside replaced by the type the value has there. A null or unknown at a
/// `dynamic` position has type `dynamic`.
///
/// Fails (with a message) when a collection's elements have different concrete types.
pub(crate) fn concrete_type(value: &Value, ty: &Type) -> Result<Type, String> {
    if !ty.has_dynamic() {
        return Ok(ty.clone());
    }
    if let Value::Typed(t) = value {
        return Ok(t.ty.clone());
    }
    match (ty, value) {
        (_, Value::Null | Value::Unknown(_)) => Ok(ty.clone()),
        (Type::Dynamic, v) => infer(v),
        (Type::List(e), Value::List(vs)) => Ok(Type::list(common_type(vs.iter(), e)?)),
        (Type::Set(e), Value::Set(s)) => Ok(Type::set(common_type(s.iter(), e)?)),
        (Type::Map(e), Value::Map(m)) => Ok(Type::map(common_type(m.values(), e)?)),
        (Type::Tuple(ts), Value::Tuple(vs)) if ts.len() == vs.len() => Ok(Type::tuple(
            vs.iter()
                .zip(ts.iter())
                .map(|(v, t)| concrete_type(v, t))
                .collect::<Result<Vec<_>, _>>()?,
        )),
        (Type::Object(o), Value::Object(obj)) => {
            let mut attrs = Vec::with_capacity(o.len());
            for (name, t, _) in o.iter() {
                let v = obj.get(name).unwrap_or(&Value::Null);
                attrs.push((name, concrete_type(v, t)?));
            }
            Ok(Type::object(attrs))
        }
        // A mismatch between value and type: the encoder reports it where it finds it.
        _ => Ok(ty.clone()),
    }
}

/// The type of a value built by hand for a `dynamic` position.
fn infer(value: &Value) -> Result<Type, String> {
    Ok(match value {
        Value::Null | Value::Unknown(_) => Type::Dynamic,
        Value::Bool(_) => Type::Bool,
        Value::Number(_) => Type::Number,
        Value::String(_) => Type::String,
        Value::List(vs) => Type::list(common_type(vs.iter(), &Type::Dynamic)?),
        Value::Set(s) => Type::set(common_type(s.iter(), &Type::Dynamic)?),
        Value::Map(m) => Type::map(common_type(m.values(), &Type::Dynamic)?),
        Value::Tuple(vs) => Type::tuple(vs.iter().map(infer).collect::<Result<Vec<_>, _>>()?),
        Value::Object(o) => Type::object(
            o.iter()
                .map(|(n, v)| infer(v).map(|t| (n, t)))
                .collect::<Result<Vec<_>, _>>()?,
        ),
        Value::Typed(t) => t.ty.clone(),
    })
}

/// The one concrete element type of `elements` at positions of type `element`: the
/// first type that is not plain `dynamic`, which every other element must share (a
/// null or unknown `dynamic` element fits any). Empty collections keep `element`.
pub(crate) fn common_type<'v>(
    elements: impl IntoIterator<Item = &'v Value>,
    element: &Type,
) -> Result<Type, String> {
    if !element.has_dynamic() {
        return Ok(element.clone());
    }
    let mut common: Option<Type> = None;
    for (i, v) in elements.into_iter().enumerate() {
        let t = concrete_type(v, element)?;
        if t == Type::Dynamic {
            continue;
        }
        match &common {
            None => common = Some(t),
            Some(c) if *c == t => {}
            Some(c) => {
                return Err(format!(
                    "collection elements must all have one type: element {i} is {t}, an earlier one is {c}"
                ))
            }
        }
    }
    Ok(common.unwrap_or_else(|| element.clone()))
}

/// "expected list, found string": the message for a value that is not of its type.
pub(crate) fn mismatch(ty: &Type, value: &Value) -> String {
    match value {
        Value::Typed(t) => format!("expected {ty}, found a value of type {}", t.ty),
        v => format!("expected {}, found {}", ty.kind_name(), v.kind_name()),
    }
}

/// A collection whose element type holds `dynamic` must still have one element type.
pub(crate) fn check_homogeneous<'v>(
    elements: impl IntoIterator<Item = &'v Value>,
    element: &Type,
) -> Result<()> {
    if element.has_dynamic() {
        common_type(elements, element).map_err(Error::unencodable)?;
    }
    Ok(())
}

/// Calls `f(name, value, type)` for each attribute of object type `o`, in name order,
/// taking values from `obj`. A missing attribute is null if the type marks it optional
/// and an error otherwise; an attribute the type lacks is an error.
pub(crate) fn for_each_attribute(
    o: &ObjectType,
    obj: &Object,
    mut f: impl FnMut(&str, &Value, &Type) -> Result<()>,
) -> Result<()> {
    if obj.names() == o.names() {
        for ((name, t), v) in o.names().iter().zip(o.types()).zip(obj.values()) {
            f(name, v, t)?;
        }
        return Ok(());
    }
    let mut used = 0;
    for (name, t, optional) in o.iter() {
        match obj.get(name) {
            Some(v) => {
                used += 1;
                f(name, v, t)?;
            }
            None if optional => f(name, &Value::Null, t)?,
            None => {
                return Err(Error::unencodable(format!(
                    "attribute {name:?} is required"
                )))
            }
        }
    }
    if used != obj.len() {
        let extra = obj.names().iter().find(|n| o.attribute(n).is_none());
        return Err(Error::unencodable(format!(
            "unsupported attribute {:?}",
            extra.unwrap_or_default()
        )));
    }
    Ok(())
}

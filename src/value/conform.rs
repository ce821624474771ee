//! The concrete type of a value at a position of a given type: the one place where
//! `dynamic` positions get their types, for the encoders (which infer the type of a
//! value built by hand) and the decoders (which check that collections of `dynamic`
//! hold one type).

use crate::error::{Error, ErrorKind, Result};
use crate::path::PathStep;
use crate::types::{ObjectType, Type};
use std::borrow::Cow;
use std::sync::Arc;

use crate::value::{Map, Object, Set, Typed, Value};

/// The concrete type of `value` at a position of type `ty`: `ty` itself with every
/// `dynamic` inside replaced by the type the value has there. A null or unknown at a
/// `dynamic` position has type `dynamic`.
///
/// Fails when a collection's elements have different concrete types, with the path of
/// the first element that differs.
pub(crate) fn concrete_type(value: &Value, ty: &Type) -> Result<Type> {
    if !ty.has_dynamic() {
        return Ok(ty.clone());
    }
    if let Value::Typed(t) = value {
        return typed_type(t).map(Cow::into_owned);
    }
    match (ty, value) {
        (_, Value::Null | Value::Unknown(_)) => Ok(ty.clone()),
        (Type::Dynamic, v) => infer(v),
        (Type::List(e), Value::List(vs)) => Ok(Type::list(common_type(vs, e, index_step)?)),
        (Type::Set(e), Value::Set(s)) => Ok(Type::set(common_type(s.as_slice(), e, index_step)?)),
        (Type::Map(e), Value::Map(m)) => {
            Ok(Type::map(common_type(m.values(), e, |i| key_step(m, i))?))
        }
        (Type::Tuple(ts), Value::Tuple(vs)) if ts.len() == vs.len() => {
            let mut types = Vec::with_capacity(ts.len());
            for (i, (v, t)) in vs.iter().zip(ts.iter()).enumerate() {
                types.push(concrete_type(v, t).map_err(|e| e.in_index(i))?);
            }
            Ok(Type::tuple(types))
        }
        (Type::Object(o), Value::Object(obj)) => {
            let mut types = Vec::with_capacity(o.len());
            let in_order = obj.names() == o.names();
            for (name, t, _) in o.iter() {
                let v = if in_order {
                    &obj.values()[types.len()]
                } else {
                    obj.get(name).unwrap_or(&Value::Null)
                };
                types.push(concrete_type(v, t).map_err(|e| e.in_attribute(name))?);
            }
            Ok(Type::Object(Arc::new(o.with_types(types.into()))))
        }
        // A mismatch between value and type: the encoder reports it where it finds it.
        _ => Ok(ty.clone()),
    }
}

/// The concrete type of a [`Typed`] value: its recorded type, with any `dynamic`
/// inside replaced by what the value holds there (as go-cty's `Value.Type()` would
/// be).
pub(crate) fn typed_type(t: &Typed) -> Result<Cow<'_, Type>> {
    if t.ty.has_dynamic() {
        concrete_type(&t.value, &t.ty).map(Cow::Owned)
    } else {
        Ok(Cow::Borrowed(&t.ty))
    }
}

/// The path step of element `i` of a list, tuple or set.
pub(crate) fn index_step(i: usize) -> PathStep {
    PathStep::Index(i as u64)
}

/// The path step of element `i` (in key order) of a map.
pub(crate) fn key_step(m: &Map, i: usize) -> PathStep {
    PathStep::Key(
        m.entries()
            .get(i)
            .map(|(k, _)| k.to_string())
            .unwrap_or_default(),
    )
}

/// The type of a value built by hand for a `dynamic` position.
fn infer(value: &Value) -> Result<Type> {
    concrete_type(value, &value_shape(value))
}

/// The type of `value` with `dynamic` wherever its parts decide: what [`infer`] refines.
fn value_shape(value: &Value) -> Type {
    match value {
        Value::Null | Value::Unknown(_) => Type::Dynamic,
        Value::Bool(_) => Type::Bool,
        Value::Number(_) => Type::Number,
        Value::String(_) => Type::String,
        Value::List(_) => Type::list(Type::Dynamic),
        Value::Set(_) => Type::set(Type::Dynamic),
        Value::Map(_) => Type::map(Type::Dynamic),
        Value::Tuple(vs) => Type::tuple(vs.iter().map(|_| Type::Dynamic)),
        Value::Object(o) => Type::object(o.names().iter().map(|n| (n, Type::Dynamic))),
        Value::Typed(t) => t.ty.clone(),
    }
}

/// The one concrete element type of `elements` at positions of type `element`: the
/// first type that is not plain `dynamic`, which every other element must share (a
/// null or unknown `dynamic` element fits any, and takes that type). Empty collections
/// keep `element`. `step` names element `i` in an error's path.
pub(crate) fn common_type<'v>(
    elements: impl IntoIterator<Item = &'v Value>,
    element: &Type,
    step: impl Fn(usize) -> PathStep,
) -> Result<Type> {
    if !element.has_dynamic() {
        return Ok(element.clone());
    }
    let elements: Vec<&Value> = elements.into_iter().collect();
    // Fast path: the first element's concrete type, which every other element is
    // checked to have without building its type. Anything less certain takes the full
    // path below, which gives the same result (or error) as ever.
    if let Some((first, rest)) = elements.split_first() {
        if let Ok(t) = concrete_type(first, element) {
            if t != Type::Dynamic && rest.iter().all(|v| has_concrete_type(v, element, &t)) {
                return Ok(t);
            }
        }
    }
    common_type_full(&elements, element, step)
}

/// [`common_type`] the long way: the concrete type of every element.
fn common_type_full(
    elements: &[&Value],
    element: &Type,
    step: impl Fn(usize) -> PathStep,
) -> Result<Type> {
    let mut common: Option<Type> = None;
    for (i, v) in elements.iter().enumerate() {
        let t = concrete_type(v, element).map_err(|e| e.in_step(step(i)))?;
        if t == Type::Dynamic {
            continue;
        }
        match &common {
            None => common = Some(t),
            Some(c) if *c == t => {}
            Some(c) => return Err(Error::mixed_collection(&t, c).in_step(step(i))),
        }
    }
    Ok(common.unwrap_or_else(|| element.clone()))
}

/// Gives the null and unknown elements of a collection of `dynamic` the collection's
/// concrete element type, as go-cty does when it builds the collection: `[null, "a"]`
/// decoded as `list(dynamic)` holds a null *string*.
pub(crate) fn type_dynamic_elements<'v>(
    elements: impl IntoIterator<Item = &'v mut Value>,
    element: &Type,
    common: &Type,
) {
    if *element != Type::Dynamic || *common == Type::Dynamic {
        return;
    }
    for e in elements {
        if matches!(e, Value::Null | Value::Unknown(_)) {
            let inner = std::mem::replace(e, Value::Null);
            *e = Value::typed(common.clone(), inner);
        }
    }
}

/// A value decoded with a wire type that holds `dynamic` (from a dynamic wrapper), as
/// go-cty holds it: with its concrete type, and without the [`Value::Typed`] wrappers
/// that the concrete type makes redundant. `["list","dynamic"]` holding strings comes
/// back as a `list(string)`.
pub(crate) fn settle(value: Value, wire: &Type) -> Result<(Type, Value)> {
    let ty = concrete_type(&value, wire)?;
    let value = strip(value, wire, &ty);
    Ok((ty, value))
}

fn strip(value: Value, wire: &Type, ty: &Type) -> Value {
    if !wire.has_dynamic() {
        return value;
    }
    let element = |t: &Type| t.element_type().cloned().unwrap_or(Type::Dynamic);
    match (wire, value) {
        (Type::Dynamic, Value::Typed(t)) if *ty != Type::Dynamic => t.value,
        (Type::List(w), Value::List(vs)) => {
            let t = element(ty);
            Value::List(vs.into_vec().into_iter().map(|v| strip(v, w, &t)).collect())
        }
        (Type::Set(w), Value::Set(s)) => {
            let t = element(ty);
            Value::Set(Set::new(
                s.into_vec().into_iter().map(|v| strip(v, w, &t)).collect(),
            ))
        }
        (Type::Map(w), Value::Map(m)) => {
            let t = element(ty);
            Value::Map(Map::from_sorted(
                m.into_vec()
                    .into_iter()
                    .map(|(k, v)| (k, strip(v, w, &t)))
                    .collect(),
            ))
        }
        (Type::Tuple(ws), Value::Tuple(vs)) => match ty {
            Type::Tuple(ts) => Value::Tuple(
                vs.into_vec()
                    .into_iter()
                    .zip(ws.iter().zip(ts.iter()))
                    .map(|(v, (w, t))| strip(v, w, t))
                    .collect(),
            ),
            _ => Value::Tuple(vs),
        },
        (Type::Object(wo), Value::Object(obj)) => match ty {
            Type::Object(to) => {
                let (names, values) = obj.into_parts();
                let values = values
                    .into_vec()
                    .into_iter()
                    .zip(wo.types().iter().zip(to.types()))
                    .map(|(v, (w, t))| strip(v, w, t))
                    .collect();
                Value::Object(Box::new(Object::from_parts(names, values)))
            }
            _ => Value::Object(obj),
        },
        (_, v) => v,
    }
}

/// Whether `concrete_type(value, ty)` is certainly `Ok(expected)`, found without building
/// a type. `false` means "not certain": the caller then computes the type.
pub(crate) fn has_concrete_type(value: &Value, ty: &Type, expected: &Type) -> bool {
    if let Value::Typed(t) = value {
        if !ty.has_dynamic() {
            return ty == expected;
        }
        // A recorded type holding `dynamic` settles to the value's own: not certain.
        return !t.ty.has_dynamic() && t.ty == *expected;
    }
    if let Type::Dynamic = ty {
        return hand_built_has_type(value, expected);
    }
    if !ty.has_dynamic() {
        return ty == expected;
    }
    match (ty, value) {
        (_, Value::Null | Value::Unknown(_)) => ty == expected,
        (Type::List(e), Value::List(vs)) => {
            matches!(expected, Type::List(x) if all_have_concrete_type(vs, e, x))
        }
        (Type::Set(e), Value::Set(s)) => {
            matches!(expected, Type::Set(x) if all_have_concrete_type(s.as_slice(), e, x))
        }
        (Type::Map(e), Value::Map(m)) => {
            matches!(expected, Type::Map(x) if map_has_concrete_type(m, e, x))
        }
        (Type::Tuple(ts), Value::Tuple(vs)) if ts.len() == vs.len() => {
            let Type::Tuple(xs) = expected else {
                return false;
            };
            xs.len() == ts.len()
                && vs
                    .iter()
                    .zip(ts.iter())
                    .zip(xs.iter())
                    .all(|((v, t), x)| has_concrete_type(v, t, x))
        }
        (Type::Object(o), Value::Object(obj)) => {
            // concrete_type builds the object type with `Type::object`: no optionals.
            let Type::Object(x) = expected else {
                return false;
            };
            if x.names() != o.names() || x.has_optional() {
                return false;
            }
            if obj.names() == o.names() {
                return obj
                    .values()
                    .iter()
                    .zip(o.types())
                    .zip(x.types())
                    .all(|((v, t), xt)| has_concrete_type(v, t, xt));
            }
            o.iter().zip(x.types()).all(|((name, t, _), xt)| {
                has_concrete_type(obj.get(name).unwrap_or(&Value::Null), t, xt)
            })
        }
        // A mismatch: concrete_type gives `ty` itself.
        _ => ty == expected,
    }
}

/// [`has_concrete_type`] of a value at a `dynamic` position (not [`Value::Typed`]): the
/// type `infer` makes of it, checked part by part without building it. The parts of one
/// hand-built value come in many kinds one after the other (an object's string, list
/// and number), so the value's kind and the type's are first compared as two small
/// numbers read from tables, not through a jump on either's variant (whose target would
/// change from one part to the next); only objects and lists, the commonest composites,
/// then take a branch of their own.
fn hand_built_has_type(value: &Value, expected: &Type) -> bool {
    let kind = same_kind(value, expected);
    if kind == NO_KIND {
        return false;
    }
    // Null and unknown (of type `dynamic` here), bools, numbers, strings.
    if kind <= KIND_STRING {
        return true;
    }
    if let (Value::Object(obj), Type::Object(x)) = (value, expected) {
        // `infer` builds the object type from the value's names, with no optionals.
        return !x.has_optional()
            && x.names() == obj.names()
            && obj
                .values()
                .iter()
                .zip(x.types())
                .all(|(v, xt)| has_concrete_type(v, &Type::Dynamic, xt));
    }
    if let (Value::List(vs), Type::List(x)) = (value, expected) {
        return all_have_concrete_type(vs, &Type::Dynamic, x);
    }
    hand_built_has_other_type(value, expected)
}

/// [`hand_built_has_type`] of a set, a map or a tuple.
#[inline(never)]
fn hand_built_has_other_type(value: &Value, expected: &Type) -> bool {
    match (value, expected) {
        (Value::Set(s), Type::Set(x)) => all_have_concrete_type(s.as_slice(), &Type::Dynamic, x),
        (Value::Map(m), Type::Map(x)) => map_has_concrete_type(m, &Type::Dynamic, x),
        (Value::Tuple(vs), Type::Tuple(xs)) => {
            xs.len() == vs.len()
                && vs
                    .iter()
                    .zip(xs.iter())
                    .all(|(v, x)| has_concrete_type(v, &Type::Dynamic, x))
        }
        _ => false,
    }
}

/// The last kind [`hand_built_has_type`] settles without looking inside.
const KIND_STRING: u8 = 3;

/// What [`same_kind`] answers for a value and a type of different kinds.
const NO_KIND: u8 = u8::MAX;

/// The kind of `value` when `ty` is of that kind, else [`NO_KIND`]. Not inlined: inlined,
/// the compiler merges the two tables into a jump on the value's variant.
#[inline(never)]
fn same_kind(value: &Value, ty: &Type) -> u8 {
    let kind = value_kind(value);
    if kind == type_kind(ty) {
        kind
    } else {
        NO_KIND
    }
}

/// A value's kind, as [`type_kind`] numbers the type `infer` gives it at a `dynamic`
/// position (null and unknown: `dynamic` itself); a typed value matches no type's kind.
#[inline(always)]
fn value_kind(value: &Value) -> u8 {
    match value {
        Value::Null | Value::Unknown(_) => 0,
        Value::Bool(_) => 1,
        Value::Number(_) => 2,
        Value::String(_) => KIND_STRING,
        Value::List(_) => 4,
        Value::Set(_) => 5,
        Value::Map(_) => 6,
        Value::Object(_) => 7,
        Value::Tuple(_) => 8,
        Value::Typed(_) => 9,
    }
}

/// A type's kind, numbered as [`value_kind`] numbers values.
#[inline(always)]
fn type_kind(ty: &Type) -> u8 {
    match ty {
        Type::Dynamic => 0,
        Type::Bool => 1,
        Type::Number => 2,
        Type::String => KIND_STRING,
        Type::List(_) => 4,
        Type::Set(_) => 5,
        Type::Map(_) => 6,
        Type::Object(_) => 7,
        Type::Tuple(_) => 8,
    }
}

/// Whether the common type of a map's values at positions of type `e` (holding
/// `dynamic`) is certainly `x`.
fn map_has_concrete_type(m: &Map, e: &Type, x: &Type) -> bool {
    if m.is_empty() || *x == Type::Dynamic {
        return m.values().all(|v| has_concrete_type(v, e, x)) && e == x;
    }
    m.values().all(|v| has_concrete_type(v, e, x))
}

/// Whether `common_type(values, e)` is certainly `Ok(x)` (with `e` holding `dynamic`).
fn all_have_concrete_type(values: &[Value], e: &Type, x: &Type) -> bool {
    // Elements of type `dynamic` are passed over; with none of another type, the
    // common type is `e` itself.
    values.iter().all(|v| has_concrete_type(v, e, x))
        && (!(values.is_empty() || *x == Type::Dynamic) || e == x)
}

/// "expected list, found string": the message for a value that is not of its type.
pub(crate) fn mismatch(ty: &Type, value: &Value) -> String {
    match value {
        Value::Typed(t) => format!("expected {ty}, found a value of type {}", t.ty),
        v => format!("expected {}, found {}", ty.kind_name(), v.kind_name()),
    }
}

/// A collection whose element type holds `dynamic` must still have one element type.
/// Returns that type when it differs from `element` (so a collection of `dynamic` can
/// give its null and unknown elements the collection's type), and `None` for element
/// types without `dynamic`.
#[inline]
pub(crate) fn check_homogeneous<'v>(
    elements: impl IntoIterator<Item = &'v Value>,
    element: &Type,
    step: impl Fn(usize) -> PathStep,
) -> Result<Option<Type>> {
    if !element.has_dynamic() {
        return Ok(None);
    }
    common_element_type(elements, element, step)
}

/// [`check_homogeneous`] for element types that hold `dynamic`: out of line, so that
/// the check for all other collections is one test where it is called.
#[inline(never)]
fn common_element_type<'v>(
    elements: impl IntoIterator<Item = &'v Value>,
    element: &Type,
    step: impl Fn(usize) -> PathStep,
) -> Result<Option<Type>> {
    let common =
        common_type(elements, element, step).map_err(|e| e.with_kind(ErrorKind::Unencodable))?;
    Ok((common != *element).then_some(common))
}

/// The type a collection element must be wrapped with when it is written at a
/// `dynamic` position: a null or unknown element of a collection of `dynamic` whose
/// elements have concrete type `common` is a null or unknown of that type, as go-cty
/// holds it (`[null, "a"]` as `list(dynamic)` writes a null *string*).
pub(crate) fn wrapper_type<'t>(
    value: &Value,
    element: &Type,
    common: &'t Option<Type>,
) -> Option<&'t Type> {
    match common {
        Some(c)
            if *element == Type::Dynamic && matches!(value, Value::Null | Value::Unknown(_)) =>
        {
            Some(c)
        }
        _ => None,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path agrees with computing every element's type, on lists whose elements
    /// agree, differ, or hold nulls, unknowns and hand-built values at dynamic positions.
    #[test]
    fn common_type_fast_path_agrees_with_the_full_computation() {
        let str_ty = || Type::String;
        let obj_ty = Type::object([("a", Type::Dynamic), ("b", Type::list(Type::Dynamic))]);
        let typed = |t: Type, v: Value| Value::typed(t, v);
        let obj = |a: Value, b: Value| Value::object([("a", a), ("b", b)]);
        let samples: Vec<Value> = vec![
            Value::Null,
            Value::unknown(),
            Value::from("x"),
            Value::from(1),
            Value::from(true),
            typed(str_ty(), Value::from("y")),
            typed(str_ty(), Value::Null),
            typed(Type::Number, Value::from(2)),
            obj(typed(str_ty(), Value::from("a")), Value::list([])),
            obj(
                typed(str_ty(), Value::from("a")),
                Value::list([typed(Type::Bool, Value::from(true))]),
            ),
            obj(Value::Null, Value::list([typed(Type::Bool, Value::Null)])),
            obj(Value::from("hand-built"), Value::list([Value::from(false)])),
            obj(
                typed(str_ty(), Value::from("a")),
                Value::list([Value::Null, typed(Type::Bool, Value::from(true))]),
            ),
            obj(
                typed(Type::Number, Value::from(1)),
                Value::list([typed(Type::Bool, Value::from(true)), Value::from("z")]),
            ),
            Value::list([typed(str_ty(), Value::from("l"))]),
            Value::map([("k", typed(str_ty(), Value::from("m")))]),
            Value::map::<&str>([]),
            Value::tuple([typed(Type::Number, Value::from(3))]),
        ];
        let element_types = [
            Type::Dynamic,
            obj_ty.clone(),
            Type::list(Type::Dynamic),
            Type::map(Type::Dynamic),
            Type::tuple([Type::Dynamic]),
        ];
        for element in &element_types {
            for a in &samples {
                for b in &samples {
                    for c in &samples {
                        let elements = [a, b, c];
                        assert_eq!(
                            common_type(elements, element, index_step),
                            common_type_full(&elements, element, index_step),
                            "{element:?}: {elements:?}"
                        );
                        let elements = [a, a, b];
                        assert_eq!(
                            common_type(elements, element, index_step),
                            common_type_full(&elements, element, index_step),
                            "{element:?}: {elements:?}"
                        );
                    }
                }
            }
        }
    }
}

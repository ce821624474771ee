//! Which conversions exist, decided from the types alone (go-cty's `getConversion`
//! returning a conversion or nil), and the type a null or unknown takes when converted.

use crate::types::{ObjectType, Type};

use super::unify::unify;

/// How a primitive converts to another primitive: `Some(true)` safely (number and bool
/// to string), `Some(false)` only unsafely (string to number and bool), `None` not at
/// all. A primitive type to itself is `None`, as in go-cty (whose `Convert` never asks).
pub(super) fn primitive(from: &Type, to: &Type) -> Option<bool> {
    match (from, to) {
        (Type::Number | Type::Bool, Type::String) => Some(true),
        (Type::String, Type::Number | Type::Bool) => Some(false),
        _ => None,
    }
}

/// Whether go-cty's `getConversion(from, to, unsafe)` gives a conversion: `from` is the
/// type of the value (no optional attributes), `to` the wanted type.
pub(crate) fn available(from: &Type, to: &Type, unsafe_: bool) -> bool {
    match (from, to) {
        (_, Type::Dynamic) => true,
        (Type::Dynamic, _) => unsafe_,
        _ if from.is_primitive() && to.is_primitive() => {
            primitive(from, to).is_some_and(|safe| safe || unsafe_)
        }
        (Type::Object(i), Type::Object(o)) => object_to_object(i, o, unsafe_),
        (Type::Tuple(i), Type::Tuple(o)) => {
            i.len() == o.len()
                && i.iter()
                    .zip(o.iter())
                    .all(|(i, o)| i == o || available(i, o, unsafe_))
        }
        (Type::List(i) | Type::Set(i), Type::List(o)) => i == o || available(i, o, unsafe_),
        (Type::List(_), Type::Set(_)) if !unsafe_ => false,
        (Type::List(i) | Type::Set(i), Type::Set(o)) => i == o || available(i, o, unsafe_),
        // No shortcut for equal element types: a map of a primitive type to a map of
        // the same type has no conversion (go-cty's Convert answers it before asking).
        (Type::Map(i), Type::Map(o)) => available(i, o, unsafe_),
        (Type::Tuple(ts), Type::List(e) | Type::Set(e)) => {
            sequence_element(ts, e, unsafe_).is_some()
        }
        (Type::Object(o), Type::Map(e)) => map_element(o, e, unsafe_).is_some(),
        (Type::Map(e), Type::Object(o)) => {
            unsafe_
                && o.iter()
                    .all(|(_, t, optional)| t == &**e || optional || available(e, t, true))
        }
        _ => false,
    }
}

fn object_to_object(i: &ObjectType, o: &ObjectType, unsafe_: bool) -> bool {
    o.iter()
        .all(|(name, ot, optional)| match i.attribute(name) {
            None => optional,
            Some(it) => it == ot || available(it, ot, unsafe_),
        })
}

/// The element type a tuple of element types `ts` converts to for a list or set of
/// `element`: `element` itself, or where that is `dynamic` the unification of `ts`;
/// `None` when there is no conversion.
pub(super) fn sequence_element(ts: &[Type], element: &Type, unsafe_: bool) -> Option<Type> {
    if ts.is_empty() {
        return Some(element.clone());
    }
    let element = if *element == Type::Dynamic {
        let unified = unify(ts, unsafe_)?;
        if unified == Type::Dynamic && ts.iter().any(|t| *t != Type::Dynamic) {
            return None;
        }
        unified
    } else {
        element.clone()
    };
    ts.iter()
        .all(|t| *t == element || available(t, &element, unsafe_))
        .then_some(element)
}

/// [`sequence_element`] for an object converted to a map of `element`.
pub(super) fn map_element(o: &ObjectType, element: &Type, unsafe_: bool) -> Option<Type> {
    if o.is_empty() {
        return Some(element.clone());
    }
    let element = if *element == Type::Dynamic {
        unify(o.types(), unsafe_)?
    } else {
        element.clone()
    };
    o.types()
        .iter()
        .all(|t| *t == element || available(t, &element, unsafe_))
        .then_some(element)
}

/// go-cty's `dynamicReplace`: `out` with each `dynamic` replaced by the type `from` has
/// there. The type of a null or unknown of type `from` converted to `out` (which has
/// no optional attributes).
pub(super) fn dynamic_replace(from: &Type, out: &Type) -> Type {
    if *from == Type::Dynamic {
        return out.clone();
    }
    match out {
        Type::Dynamic => from.clone(),
        Type::Bool | Type::Number | Type::String => out.clone(),
        Type::Map(oe) => match from {
            Type::Map(ie) => Type::map(dynamic_replace(ie, oe)),
            Type::Object(o) => Type::map(replace_unified(o.types(), oe)),
            _ => out.clone(),
        },
        Type::Object(oo) => {
            // go-cty builds the attributes from `from` when it is a map or an object
            // (any other `from` has no conversion here).
            let attributes = oo.iter().map(|(name, ot, _)| {
                let t = match from {
                    Type::Map(ie) => dynamic_replace(ie, ot),
                    Type::Object(io) => match io.attribute(name) {
                        Some(it) => dynamic_replace(it, ot),
                        None => ot.clone(),
                    },
                    _ => ot.clone(),
                };
                (name, t)
            });
            Type::object(attributes)
        }
        Type::Set(oe) => match from {
            Type::Set(ie) | Type::List(ie) => Type::set(dynamic_replace(ie, oe)),
            Type::Tuple(ts) => Type::set(replace_unified(ts, oe)),
            _ => out.clone(),
        },
        Type::List(oe) => match from {
            Type::Set(ie) | Type::List(ie) => Type::list(dynamic_replace(ie, oe)),
            Type::Tuple(ts) => Type::list(replace_unified(ts, oe)),
            _ => out.clone(),
        },
        Type::Tuple(os) => match from {
            Type::Tuple(is) if is.len() == os.len() => {
                Type::tuple(is.iter().zip(os.iter()).map(|(i, o)| dynamic_replace(i, o)))
            }
            _ => out.clone(),
        },
    }
}

/// `dynamic_replace` of the unsafe unification of `types` into `out` (`out` itself when
/// they do not unify).
fn replace_unified(types: &[Type], out: &Type) -> Type {
    match unify(types, true) {
        Some(u) => dynamic_replace(&u, out),
        None => out.clone(),
    }
}

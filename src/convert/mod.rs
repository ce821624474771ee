//! Type conversion: go-cty's `convert` package, the rules Terraform applies to every
//! variable, output and attribute value.
//!
//! [`convert`] turns a value of one type into a value of another where go-cty's
//! `convert.Convert` can: a number or bool to a string and back, a list to a set, a tuple
//! to a list, an object to a map or to an object with fewer attributes, and so on.
//! [`conversion`] tells from the types alone whether a conversion exists and whether it
//! is safe; [`unify`] and [`unify_unsafe`] find the type that several types all convert
//! to.
//!
//! ```
//! use ctywire::{convert, Type, Value};
//!
//! // A tuple of a number and a string, as a list of strings.
//! let from = Type::tuple([Type::Number, Type::String]);
//! let to = Type::list(Type::String);
//! let v = convert::convert(&Value::tuple([Value::from(1), Value::from("a")]), &from, &to)?;
//! assert_eq!(v, Value::list([Value::from("1"), Value::from("a")]));
//!
//! // Errors say why, with the path of the value that could not convert.
//! let to = Type::list(Type::Number);
//! let err = convert::convert(&Value::tuple([Value::from(1), Value::from("a")]), &from, &to).unwrap_err();
//! assert_eq!(err.to_string(), "[1]: a number is required");
//! # Ok::<(), ctywire::Error>(())
//! ```
//!
//! # The rules
//!
//! As go-cty 1.16 to 1.18 has them (the vectors in `vectors/convert/` come from running
//! it):
//!
//! - **Primitives.** A number converts to its decimal text (`1.5`, `-0`, `+Inf`; never an
//!   exponent) and a bool to `"true"` or `"false"`: both *safe*. A string converts to a
//!   number if it is number text (`"1e3"`, `".5"`, `"Inf"`; not `" 1"` or `"0x10"`) and
//!   to a bool if it is `"true"`, `"1"`, `"false"` or `"0"`: both *unsafe*, as they can
//!   fail on the value. Numbers and bools do not convert to each other.
//! - **Collections and structures.** A list or set converts to a list (a set's order);
//!   a list to a set only unsafely (duplicates merge); a tuple to a list or set; a map or
//!   an object to a map; a map to an object only unsafely (keys the object lacks are
//!   dropped, a missing required attribute is an error). An object converts to an object
//!   type whose attributes it has, dropping the others; an optional attribute
//!   (`optional(T)`) it lacks becomes null. Elements and attributes convert by the same
//!   rules, recursively.
//! - **`dynamic`.** Anything converts to `dynamic` unchanged. A list, set or map of
//!   `dynamic` takes one element type: a tuple's or object's element types are unified
//!   ([`unify`]) and every element converted to it. A null or unknown of type `dynamic`
//!   converts (unsafely) to any type.
//! - **Nulls and unknowns** convert by their type alone: a null stays null, an unknown
//!   stays unknown, keeping that it is not null; an unknown collection keeps its length
//!   bounds, and one converted from an object or tuple gets its length from the type
//!   (go-cty >= 1.13's refinements). A set holding unknowns converts to an unknown list
//!   (its length is not known).
//! - **Errors** read as go-cty's: where no conversion exists, go-cty's description of the
//!   mismatch (`attribute "a": number required, but have bool`) at the root; where the
//!   value cannot convert, the reason (`a number is required`) at its path, map keys and
//!   object attributes converted to map elements as `["key"]`, elements as `[0]` (set
//!   elements by their position). go-cty's quirks are kept: a tuple whose converted
//!   elements have no common type reports it at its last element (`[2]: cannot find a
//!   common base type for all elements`).
//!
//! [`msgpack::encode`](crate::msgpack::encode) and [`json::encode`](crate::json::encode)
//! convert a value that is not of the type asked for before they write it, as go-cty's
//! `Marshal` does, with the type the value has as built.
//!
//! # Values and types
//!
//! A [`Value`] does not carry its type, so each function takes the type `from` the value
//! has. Where `from` holds `dynamic`, the value's own type there is used (as recorded in
//! a [`Value::Typed`], or inferred): the conversion is go-cty's for the value's concrete
//! type. The result holds a [`Value::Typed`] wherever `to` is `dynamic` (unless the value
//! there is a null or unknown of no type), as the decoders give a value of type `to`, and
//! nowhere else.
//!
//! # Where this differs from go-cty
//!
//! - Where a value could have either of two errors, go-cty reports one picked by Go's
//!   random map order (two missing attributes of a map converted to an object); this
//!   crate reports the first in name order.
//! - Number text beyond [`limits::MAX_NUMBER_TEXT`](crate::limits::MAX_NUMBER_TEXT) is a
//!   [`LimitExceeded`](crate::ErrorKind::LimitExceeded) error rather than a number
//!   rounded to 512 bits; decimals are kept exactly, so one longer than 512 bits converts
//!   to all its digits.
//! - An object value that leaves out an attribute of `from` is read as null there (a
//!   value built by hand; go-cty cannot hold one).
//! - The encoders cannot convert what a [`Value`] does not say: a null, an unknown or an
//!   empty collection has no type, so it is written as it stands where go-cty's
//!   `Marshal` converts it by its type (a null string where a list is wanted is go-cty's
//!   error and this crate's nil).

pub(crate) mod mismatch;
mod rules;
mod unify;
mod value;

use crate::error::{Error, Result};
use crate::types::Type;
use crate::value::conform::{concrete_type, typed_type};
use crate::value::{Map, Object, Set, Value};

use value::Converter;

/// Converts `value`, of type `from`, to type `to` by go-cty's rules (its
/// `convert.Convert`, which allows unsafe conversions). See the [module
/// documentation](self) for the rules.
///
/// # Errors
///
/// When no conversion exists from `from` to `to` ([`TypeMismatch`](crate::ErrorKind::TypeMismatch),
/// at the root, in go-cty's words), when the value cannot convert
/// ([`InvalidValue`](crate::ErrorKind::InvalidValue): `a number is required` at the
/// element's path), and when `value` is not a value of type `from`.
///
/// ```
/// use ctywire::{convert::convert, Type, Value};
///
/// let from = Type::object([("name", Type::String), ("size", Type::String)]);
/// let to = Type::object_with_optional(
///     [("size", Type::Number), ("tags", Type::map(Type::String))],
///     ["tags"],
/// );
/// let config = Value::object([("name", Value::from("web")), ("size", Value::from("10"))]);
/// let v = convert(&config, &from, &to)?;
/// assert_eq!(v, Value::object([("size", Value::from(10)), ("tags", Value::Null)]));
///
/// let err = convert(&Value::from("x"), &Type::String, &Type::list(Type::String)).unwrap_err();
/// assert_eq!(err.to_string(), "list of string required, but have string");
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn convert(value: &Value, from: &Type, to: &Type) -> Result<Value> {
    let from = concrete_type(value, &from.without_optional_attributes())?;
    let (converted, ty) = Converter { unsafe_: true }.convert(value, &from, to)?;
    Ok(dress(converted, &ty, &to.without_optional_attributes()))
}

/// Whether a conversion from `from` to `to` exists, and whether it is safe: go-cty's
/// `GetConversion` (safe) and `GetConversionUnsafe`.
///
/// A safe conversion keeps what the value says (a number to a string, a set to a
/// list); an unsafe one may fail on the value or lose something (a string to a number,
/// a list to a set, which merges equal elements). [`convert`] does both. Equal types (but for optional attributes of
/// `to`) are [`Safety::Safe`], though go-cty's `GetConversion` has no conversion from a
/// primitive type to itself.
///
/// ```
/// use ctywire::convert::{conversion, Safety};
/// use ctywire::Type;
///
/// assert_eq!(conversion(&Type::Number, &Type::String), Some(Safety::Safe));
/// assert_eq!(conversion(&Type::String, &Type::Number), Some(Safety::Unsafe));
/// assert_eq!(conversion(&Type::Bool, &Type::Number), None);
/// let (list, set) = (Type::list(Type::String), Type::set(Type::String));
/// assert_eq!(conversion(&set, &list), Some(Safety::Safe));
/// assert_eq!(conversion(&list, &set), Some(Safety::Unsafe));
/// ```
pub fn conversion(from: &Type, to: &Type) -> Option<Safety> {
    let from = from.without_optional_attributes();
    if from == to.without_optional_attributes() || rules::available(&from, to, false) {
        Some(Safety::Safe)
    } else if rules::available(&from, to, true) {
        Some(Safety::Unsafe)
    } else {
        None
    }
}

/// Whether a conversion can fail on a known value: see [`conversion`].
///
/// ```
/// use ctywire::convert::{conversion, convert, Safety};
/// use ctywire::{Type, Value};
///
/// // Unsafe: the conversion exists, and fails on some values.
/// assert_eq!(conversion(&Type::String, &Type::Bool), Some(Safety::Unsafe));
/// assert_eq!(convert(&Value::from("true"), &Type::String, &Type::Bool)?, Value::from(true));
/// assert!(convert(&Value::from("yes"), &Type::String, &Type::Bool).is_err());
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Safety {
    /// It cannot fail (go-cty's `GetConversion` has it).
    Safe,
    /// It can (only go-cty's `GetConversionUnsafe` has it).
    Unsafe,
}

/// The type that every one of `types` converts to safely, as go-cty's `convert.Unify`
/// chooses it: the most general of them (a string for strings and numbers), or one built
/// from them (a list of the unified element types for lists, a map for objects with
/// different attributes). `None` when there is none, or no types.
///
/// `dynamic` among other types is left out of the choice, except among collections and
/// structures, which then unify to `dynamic`.
///
/// ```
/// use ctywire::convert::unify;
/// use ctywire::Type;
///
/// assert_eq!(unify(&[Type::Number, Type::String]), Some(Type::String));
/// assert_eq!(unify(&[Type::Number, Type::Bool]), None);
/// let objects = [
///     Type::object([("a", Type::String)]),
///     Type::object([("b", Type::Number)]),
/// ];
/// assert_eq!(unify(&objects), Some(Type::map(Type::String)));
/// ```
pub fn unify(types: &[Type]) -> Option<Type> {
    unify::unify(types, false)
}

/// [`unify`] allowing unsafe conversions, as go-cty's `convert.UnifyUnsafe` (which HCL's
/// conditional expression uses): a set and a list of numbers unify to a list of numbers,
/// where [`unify`] finds no type.
///
/// ```
/// use ctywire::convert::{unify, unify_unsafe};
/// use ctywire::Type;
///
/// let types = [Type::set(Type::String), Type::list(Type::Number)];
/// assert_eq!(unify(&types), None);
/// assert_eq!(unify_unsafe(&types), Some(Type::list(Type::Number)));
/// ```
pub fn unify_unsafe(types: &[Type]) -> Option<Type> {
    unify::unify(types, true)
}

/// For the encoders, after `value` failed to encode as `ty` with `failed` (having
/// written from `start` of `out`): `value` converted to `ty` as go-cty's
/// `msgpack.Marshal` and `json.Marshal` convert a value whose type does not conform to
/// the one asked for, and encoded again with `encode` from `start`.
///
/// The value's own type is inferred ([`own_type`]). Where it conforms to `ty` (the
/// encoder failed for another reason: an unknown in JSON), or no conversion exists (the
/// encoder's error, with its path, says more than go-cty's description of the types),
/// the error is `failed`. Out of line, so that the encoders' own paths stay small.
#[cold]
#[inline(never)]
pub(crate) fn encode_converted(
    value: &Value,
    ty: &Type,
    out: &mut Vec<u8>,
    start: usize,
    failed: Error,
    encode: fn(&Value, &Type, &mut Vec<u8>) -> Result<()>,
) -> Result<()> {
    out.truncate(start);
    let Some(own) = own_type(value) else {
        return Err(failed);
    };
    if conforms(&own, ty) || conversion(&own, ty).is_none() {
        return Err(failed);
    }
    encode(&convert(value, &own, ty)?, ty, out)
}

/// The type of `value` as it stands (go-cty's `Value.Type()`): `dynamic` for a null or
/// unknown, which carries no type; a collection's element type is what its elements
/// agree on, each filling in where another says nothing (`[[], ["a"]]` is a list of
/// lists of strings). `None` when elements disagree.
fn own_type(value: &Value) -> Option<Type> {
    Some(match value {
        Value::Null | Value::Unknown(_) => Type::Dynamic,
        Value::Typed(t) => typed_type(t).ok()?.into_owned(),
        Value::Bool(_) => Type::Bool,
        Value::Number(_) => Type::Number,
        Value::String(_) => Type::String,
        Value::List(vs) => Type::list(element_own_type(vs.iter())?),
        Value::Set(s) => Type::set(element_own_type(s.iter())?),
        Value::Map(m) => Type::map(element_own_type(m.values())?),
        Value::Tuple(vs) => Type::tuple(vs.iter().map(own_type).collect::<Option<Vec<_>>>()?),
        Value::Object(o) => Type::object(
            o.names().iter().zip(
                o.values()
                    .iter()
                    .map(own_type)
                    .collect::<Option<Vec<_>>>()?,
            ),
        ),
    })
}

/// The element type the `elements` of a collection agree on.
fn element_own_type<'v>(mut elements: impl Iterator<Item = &'v Value>) -> Option<Type> {
    elements.try_fold(Type::Dynamic, |common, v| join(common, &own_type(v)?))
}

/// The type that says what `a` and `b` both say, where one is `dynamic` the other's:
/// `None` where they disagree.
fn join(a: Type, b: &Type) -> Option<Type> {
    Some(match (a, b) {
        (Type::Dynamic, b) => b.clone(),
        (a, Type::Dynamic) => a,
        (Type::List(x), Type::List(y)) => Type::list(join(*x, y)?),
        (Type::Set(x), Type::Set(y)) => Type::set(join(*x, y)?),
        (Type::Map(x), Type::Map(y)) => Type::map(join(*x, y)?),
        (Type::Tuple(x), Type::Tuple(y)) if x.len() == y.len() => Type::tuple(
            x.iter()
                .zip(y.iter())
                .map(|(x, y)| join(x.clone(), y))
                .collect::<Option<Vec<_>>>()?,
        ),
        (Type::Object(x), Type::Object(y)) if x.names() == y.names() => Type::object(
            x.names().iter().zip(
                x.types()
                    .iter()
                    .zip(y.types())
                    .map(|(x, y)| join(x.clone(), y))
                    .collect::<Option<Vec<_>>>()?,
            ),
        ),
        (a, b) => (a == *b).then_some(a)?,
    })
}

/// go-cty's `TestConformance` for a value's own type `own` (`dynamic` where the value is
/// a null or unknown, which fits any type): whether the value has type `ty` already.
fn conforms(own: &Type, ty: &Type) -> bool {
    match (own, ty) {
        (_, Type::Dynamic) | (Type::Dynamic, _) => true,
        (Type::List(a), Type::List(b))
        | (Type::Set(a), Type::Set(b))
        | (Type::Map(a), Type::Map(b)) => conforms(a, b),
        (Type::Tuple(a), Type::Tuple(b)) => {
            a.len() == b.len() && a.iter().zip(b.iter()).all(|(a, b)| conforms(a, b))
        }
        (Type::Object(a), Type::Object(b)) => {
            a.iter().all(|(name, _, _)| b.attribute(name).is_some())
                && b.iter()
                    .all(|(name, bt, optional)| match a.attribute(name) {
                        Some(at) => conforms(at, bt),
                        None => optional,
                    })
        }
        (a, b) => a == b,
    }
}

/// A converted value of concrete type `ty`, as a value of type `to` (no optional
/// attributes) holds it: wrapped in [`Value::Typed`] where `to` is `dynamic`.
fn dress(value: Value, ty: &Type, to: &Type) -> Value {
    if !to.has_dynamic() {
        return value;
    }
    match (to, value, ty) {
        (Type::Dynamic, value, ty) => {
            if *ty == Type::Dynamic {
                value
            } else {
                Value::typed(ty.clone(), value)
            }
        }
        (Type::List(te), Value::List(vs), Type::List(e)) => {
            Value::List(dress_all(vs.into_vec(), e, te).into())
        }
        (Type::Set(te), Value::Set(s), Type::Set(e)) => {
            Value::Set(Set::new(dress_all(s.into_vec(), e, te)))
        }
        (Type::Map(te), Value::Map(m), Type::Map(e)) => Value::Map(Map::from_sorted(
            m.into_vec()
                .into_iter()
                .map(|(k, v)| (k, dress(v, e, te)))
                .collect(),
        )),
        (Type::Tuple(tos), Value::Tuple(vs), Type::Tuple(ts)) => Value::Tuple(
            vs.into_vec()
                .into_iter()
                .zip(ts.iter().zip(tos.iter()))
                .map(|(v, (t, to))| dress(v, t, to))
                .collect(),
        ),
        (Type::Object(to), Value::Object(obj), Type::Object(o)) => {
            let (names, values) = obj.into_parts();
            let values = values
                .into_vec()
                .into_iter()
                .zip(o.types().iter().zip(to.types()))
                .map(|(v, (t, to))| dress(v, t, to))
                .collect();
            Value::Object(Box::new(Object::from_parts(names, values)))
        }
        (_, value, _) => value,
    }
}

fn dress_all(values: Vec<Value>, ty: &Type, to: &Type) -> Vec<Value> {
    values.into_iter().map(|v| dress(v, ty, to)).collect()
}

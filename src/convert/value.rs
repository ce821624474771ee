//! Conversion of values, go-cty's conversion functions one by one.
//!
//! Every function here takes a value and its *concrete* type (go-cty's `Value.Type()`:
//! `dynamic` only where the value is a null or unknown of no type) and returns the
//! converted value with its concrete type, because go-cty's later steps look at the
//! types the earlier ones produced (element types must all match, elements are unified).
//! The values returned hold no [`Value::Typed`] wrappers; [`super::dress`] adds them
//! where the wanted type is `dynamic`.

use crate::error::{Error, ErrorKind, Result};
use crate::types::{ObjectType, Type};
use crate::value::conform::{concrete_type, mismatch};
use crate::value::{Map, Number, Object, Refinements, Set, Str, Value};

use super::mismatch::{mismatch_message, quoted};
use super::rules::{available, dynamic_replace, map_element, primitive, sequence_element};
use super::unify::unify;

/// A value with its concrete type.
pub(super) type Converted = (Value, Type);

/// Converts with go-cty's safe rules, or with its unsafe ones too.
#[derive(Clone, Copy)]
pub(super) struct Converter {
    pub(super) unsafe_: bool,
}

/// The error for a value whose shape is not its type's.
fn shape(ty: &Type, value: &Value) -> Error {
    Error::new(ErrorKind::TypeMismatch, mismatch(ty, value))
}

/// A conversion that fails on the value (go-cty's `path.NewErrorf`).
fn failed(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidValue, message)
}

/// A conversion that does not exist (go-cty's `MismatchMessage`).
fn impossible(from: &Type, to: &Type) -> Error {
    Error::new(ErrorKind::TypeMismatch, mismatch_message(from, to))
}

/// `value` without the [`Value::Typed`] wrappers around it.
fn bare(value: &Value) -> &Value {
    match value {
        Value::Typed(t) => bare(&t.value),
        v => v,
    }
}

/// A null of type `ty` is recorded without optional attributes (go-cty strips them so
/// that a collection's elements have one type).
fn strip_null(converted: Converted) -> Converted {
    match converted {
        (Value::Null, t) => (Value::Null, t.without_optional_attributes()),
        other => other,
    }
}

/// go-cty's `CanListVal` (and `CanSetVal`, `CanMapVal`): the element type of a
/// collection of elements of `types`, which must all be one type where not `dynamic`.
fn element_type(types: &[Type]) -> Option<Type> {
    let mut common = &Type::Dynamic;
    for t in types {
        if *common == Type::Dynamic {
            common = t;
        } else if *t != Type::Dynamic && t != common {
            return None;
        }
    }
    Some(common.clone())
}

/// The elements and their types, taken apart.
fn split(converted: Vec<Converted>) -> (Vec<Value>, Vec<Type>) {
    converted.into_iter().unzip()
}

impl Converter {
    /// go-cty's `Convert`: `value` (of concrete type `from`) as type `to`; the same value
    /// when `from` is `to` without its optional attributes.
    pub(super) fn convert(self, value: &Value, from: &Type, to: &Type) -> Result<Converted> {
        if *from == to.without_optional_attributes() {
            return identity(value, from);
        }
        if !available(from, to, self.unsafe_) {
            return Err(impossible(from, to));
        }
        self.conversion(value, from, to)
    }

    /// An element converted from `from` to `to`: as it is when the types are equal (go-cty
    /// then has no conversion to apply), else by [`Converter::conversion`].
    fn element(self, value: &Value, from: &Type, to: &Type) -> Result<Converted> {
        if from == to {
            identity(value, from)
        } else {
            self.conversion(value, from, to)
        }
    }

    /// go-cty's `getConversion` wrapper: anything passes to `dynamic`; nulls and
    /// unknowns convert by type alone; known values by the rule for their types.
    fn conversion(self, value: &Value, from: &Type, to: &Type) -> Result<Converted> {
        let value = bare(value);
        if *to == Type::Dynamic {
            return identity(value, from);
        }
        match value {
            Value::Null => Ok((
                Value::Null,
                dynamic_replace(from, &to.without_optional_attributes()),
            )),
            Value::Unknown(r) => {
                let ty = dynamic_replace(from, &to.without_optional_attributes());
                Ok((unknown_result(r, from, &ty), ty))
            }
            _ => self.known(value, from, to),
        }
    }

    /// A known, non-null value (no wrapper) of type `from` as type `to`.
    fn known(self, value: &Value, from: &Type, to: &Type) -> Result<Converted> {
        match (from, to) {
            // go-cty's `dynamicFixup`: only nulls and unknowns have type `dynamic`, but a
            // value built by hand may come here: it converts with its own type.
            (Type::Dynamic, _) => {
                let own = concrete_type(value, &Type::Dynamic)?;
                if own == Type::Dynamic {
                    return Err(shape(from, value));
                }
                self.convert(value, &own, to)
            }
            _ if from.is_primitive() && to.is_primitive() => self.primitive(value, from, to),
            (Type::Object(i), Type::Object(o)) => self.object_to_object(value, from, i, o),
            (Type::Tuple(i), Type::Tuple(o)) => self.tuple_to_tuple(value, from, i, o),
            (Type::List(i) | Type::Set(i), Type::List(o)) => self.to_list(value, from, i, o),
            (Type::List(i) | Type::Set(i), Type::Set(o)) => self.to_set(value, from, i, o),
            (Type::Map(i), Type::Map(o)) => self.map_to_map(value, from, i, o),
            (Type::Tuple(ts), Type::List(o)) => self.tuple_to_list(value, from, ts, o),
            (Type::Tuple(ts), Type::Set(o)) => self.tuple_to_set(value, from, ts, o),
            (Type::Object(i), Type::Map(o)) => self.object_to_map(value, from, i, o),
            (Type::Map(i), Type::Object(o)) => self.map_to_object(value, from, i, o),
            _ => Err(impossible(from, to)),
        }
    }

    fn primitive(self, value: &Value, from: &Type, to: &Type) -> Result<Converted> {
        if primitive(from, to).is_none_or(|safe| !safe && !self.unsafe_) {
            return Err(impossible(from, to));
        }
        let converted = match (value, to) {
            (Value::Number(n), Type::String) => Value::string(n.to_string()),
            (Value::Bool(b), Type::String) => Value::from(if *b { "true" } else { "false" }),
            (Value::String(s), Type::Number) => Value::Number(string_to_number(s)?),
            (Value::String(s), Type::Bool) => Value::Bool(string_to_bool(s)?),
            _ => return Err(shape(from, value)),
        };
        Ok((converted, to.clone()))
    }

    fn object_to_object(
        self,
        value: &Value,
        from: &Type,
        i: &ObjectType,
        o: &ObjectType,
    ) -> Result<Converted> {
        let Value::Object(obj) = value else {
            return Err(shape(from, value));
        };
        check_attributes(i, obj)?;
        let mut values = Vec::with_capacity(o.len());
        let mut types = Vec::with_capacity(o.len());
        for (name, ot, _) in o.iter() {
            let (v, t) = match i.attribute(name) {
                Some(it) => strip_null(
                    self.element(attribute(obj, name), it, ot)
                        .map_err(|e| e.in_attribute(name))?,
                ),
                // An optional attribute `from` lacks (a required one has no conversion).
                None => (Value::Null, ot.without_optional_attributes()),
            };
            values.push(v);
            types.push(t);
        }
        Ok(object(o, values, types))
    }

    fn tuple_to_tuple(
        self,
        value: &Value,
        from: &Type,
        i: &[Type],
        o: &[Type],
    ) -> Result<Converted> {
        let elements = tuple_elements(value, from, i)?;
        let mut values = Vec::with_capacity(o.len());
        let mut types = Vec::with_capacity(o.len());
        for (n, ((v, it), ot)) in elements.iter().zip(i).zip(o).enumerate() {
            let (v, t) = self.element(v, it, ot).map_err(|e| e.in_index(n))?;
            values.push(v);
            types.push(t);
        }
        Ok((Value::Tuple(values.into()), Type::tuple(types)))
    }

    /// A list or set to a list (go-cty's `conversionCollectionToList`).
    fn to_list(self, value: &Value, from: &Type, i: &Type, o: &Type) -> Result<Converted> {
        let elements = sequence(value, from)?;
        if matches!(from, Type::Set(_)) && elements.len() != 1 && !value.is_wholly_known() {
            // The set's length is not known (unknowns may stand for equal values), so
            // neither is the list: go-cty gives an unknown list of the set's element
            // type, whatever `o` is.
            return Ok((Value::unknown(), Type::list(i.clone())));
        }
        let converted = self.elements(elements, i, o)?;
        if converted.is_empty() {
            return Ok((Value::List(Box::new([])), Type::list(empty_element(i, o))));
        }
        let (values, types) = split(converted);
        let element = element_type(&types)
            .ok_or_else(|| failed("element types must all match for conversion to list"))?;
        Ok((Value::List(values.into()), Type::list(element)))
    }

    /// A list or set to a set (go-cty's `conversionCollectionToSet`).
    fn to_set(self, value: &Value, from: &Type, i: &Type, o: &Type) -> Result<Converted> {
        let converted = self.elements(sequence(value, from)?, i, o)?;
        set_of(converted, || empty_element(i, o))
    }

    /// The elements of a list, set or tuple, each converted from `i` to `o`, nulls
    /// stripped of optional attributes; errors name the element's index.
    fn elements(self, elements: &[Value], i: &Type, o: &Type) -> Result<Vec<Converted>> {
        elements
            .iter()
            .enumerate()
            .map(|(n, v)| {
                self.element(v, i, o)
                    .map(strip_null)
                    .map_err(|e| e.in_index(n))
            })
            .collect()
    }

    /// go-cty's `conversionCollectionToMap`.
    fn map_to_map(self, value: &Value, from: &Type, i: &Type, o: &Type) -> Result<Converted> {
        let Value::Map(m) = value else {
            return Err(shape(from, value));
        };
        let mut converted = Vec::with_capacity(m.len());
        for (k, v) in m.entries() {
            converted.push((k.clone(), self.element(v, i, o).map_err(|e| e.in_key(k))?));
        }
        if converted.is_empty() {
            return Ok((Value::Map(Map::default()), Type::map(empty_element(i, o))));
        }
        if o.is_collection() || matches!(o, Type::Object(_)) {
            // go-cty unifies the elements here with its safe rules, whatever `self` is.
            converted = Converter { unsafe_: false }.unify_entries(converted)?;
        }
        map_of(
            converted,
            "element types must all match for conversion to map",
        )
    }

    /// go-cty's `conversionTupleToList`.
    fn tuple_to_list(self, value: &Value, from: &Type, ts: &[Type], o: &Type) -> Result<Converted> {
        let elements = tuple_elements(value, from, ts)?;
        if ts.is_empty() {
            let ty = Type::list(o.without_optional_attributes());
            return Ok((Value::List(Box::new([])), ty));
        }
        let element = sequence_element(ts, o, self.unsafe_).ok_or_else(|| impossible(from, o))?;
        let mut converted = Vec::with_capacity(ts.len());
        for (n, (v, t)) in elements.iter().zip(ts).enumerate() {
            converted.push(self.element(v, t, &element).map_err(|e| e.in_index(n))?);
        }
        // go-cty unifies the converted elements, and reports what goes wrong there at
        // the last element's path (and an element's own error below it).
        let last = ts.len() - 1;
        let converted = self
            .unify_elements(converted)
            .map_err(|e| e.in_index(last))?;
        let (values, types) = split(converted);
        let element = element_type(&types)
            .ok_or_else(|| failed("element types must all match for conversion to list"))?;
        Ok((Value::List(values.into()), Type::list(element)))
    }

    /// go-cty's `conversionTupleToSet`.
    fn tuple_to_set(self, value: &Value, from: &Type, ts: &[Type], o: &Type) -> Result<Converted> {
        let elements = tuple_elements(value, from, ts)?;
        if ts.is_empty() {
            let ty = Type::set(o.without_optional_attributes());
            return Ok((Value::Set(Set::default()), ty));
        }
        let element = sequence_element(ts, o, self.unsafe_).ok_or_else(|| impossible(from, o))?;
        let mut converted = Vec::with_capacity(ts.len());
        for (n, (v, t)) in elements.iter().zip(ts).enumerate() {
            let c = self.element(v, t, &element).map_err(|e| e.in_index(n))?;
            converted.push(strip_null(c));
        }
        set_of(converted, || element.clone())
    }

    /// go-cty's `conversionObjectToMap`.
    fn object_to_map(
        self,
        value: &Value,
        from: &Type,
        i: &ObjectType,
        o: &Type,
    ) -> Result<Converted> {
        let Value::Object(obj) = value else {
            return Err(shape(from, value));
        };
        check_attributes(i, obj)?;
        if i.is_empty() {
            let ty = Type::map(o.without_optional_attributes());
            return Ok((Value::Map(Map::default()), ty));
        }
        let element = map_element(i, o, self.unsafe_).ok_or_else(|| impossible(from, o))?;
        let mut converted = Vec::with_capacity(i.len());
        for (name, t, _) in i.iter() {
            let c = self
                .element(attribute(obj, name), t, &element)
                .map_err(|e| e.in_key(name))?;
            converted.push((Str::from(name), c));
        }
        if element.is_collection() || matches!(element, Type::Object(_)) {
            converted = self.unify_entries(converted)?;
        }
        map_of(
            converted,
            "attribute types must all match for conversion to map",
        )
    }

    /// go-cty's `conversionMapToObject`.
    fn map_to_object(
        self,
        value: &Value,
        from: &Type,
        i: &Type,
        o: &ObjectType,
    ) -> Result<Converted> {
        let Value::Map(m) = value else {
            return Err(shape(from, value));
        };
        let mut found: Vec<Option<Converted>> = vec![None; o.len()];
        for (k, v) in m.iter() {
            let Some(at) = o.names().index_of(k) else {
                continue;
            };
            let ot = &o.types()[at];
            let c = if ot == i {
                identity(v, i)
            } else if available(i, ot, self.unsafe_) {
                self.conversion(v, i, ot)
            } else {
                // Only an optional attribute gets here; present, it cannot convert.
                return Err(failed(format!(
                    "map element type is incompatible with attribute {}: {}",
                    quoted(k),
                    mismatch_message(i, ot)
                )));
            };
            found[at] = Some(strip_null(c.map_err(|e| e.in_key(k))?));
        }
        let mut values = Vec::with_capacity(o.len());
        let mut types = Vec::with_capacity(o.len());
        for ((name, ot, optional), c) in o.iter().zip(found) {
            let (v, t) = match c {
                Some(c) => c,
                // go-cty keeps the optional attributes of this null's type.
                None if optional => (Value::Null, ot.clone()),
                None => {
                    return Err(failed(format!(
                        "map has no element for required attribute {}",
                        quoted(name)
                    )))
                }
            };
            values.push(v);
            types.push(t);
        }
        Ok(object(o, values, types))
    }

    /// go-cty's `conversionUnifyListElements`: the elements converted to their
    /// unification; an element's error names its index.
    fn unify_elements(self, converted: Vec<Converted>) -> Result<Vec<Converted>> {
        let types: Vec<Type> = converted.iter().map(|(_, t)| t.clone()).collect();
        let unified = unify(&types, self.unsafe_)
            .ok_or_else(|| failed("cannot find a common base type for all elements"))?;
        converted
            .into_iter()
            .enumerate()
            .map(|(n, (v, t))| self.to_unified(v, t, &unified).map_err(|e| e.in_index(n)))
            .collect()
    }

    /// go-cty's `conversionUnifyCollectionElements`, for map entries.
    fn unify_entries(self, converted: Vec<(Str, Converted)>) -> Result<Vec<(Str, Converted)>> {
        let types: Vec<Type> = converted.iter().map(|(_, (_, t))| t.clone()).collect();
        let unified = unify(&types, self.unsafe_)
            .ok_or_else(|| failed("cannot find a common base type for all elements"))?;
        converted
            .into_iter()
            .map(|(k, (v, t))| {
                let c = self.to_unified(v, t, &unified).map_err(|e| e.in_key(&k))?;
                Ok((k, c))
            })
            .collect()
    }

    /// A converted element converted again to the unified element type.
    fn to_unified(self, value: Value, ty: Type, unified: &Type) -> Result<Converted> {
        if ty == *unified {
            return Ok((value, ty));
        }
        if !available(&ty, unified, self.unsafe_) {
            // go-cty calls a nil conversion here (a panic); unification makes it
            // unreachable.
            return Err(impossible(&ty, unified));
        }
        self.conversion(&value, &ty, unified)
    }
}

/// `value`, of concrete type `ty`, as this module returns values: checked against the
/// type, and without [`Value::Typed`] wrappers.
pub(super) fn identity(value: &Value, ty: &Type) -> Result<Converted> {
    Ok((copy(value, ty)?, ty.clone()))
}

fn copy(value: &Value, ty: &Type) -> Result<Value> {
    let value = bare(value);
    let copied = match (ty, value) {
        (_, Value::Null | Value::Unknown(_)) => value.clone(),
        (Type::Dynamic, _) => return Err(shape(ty, value)),
        (Type::Bool, Value::Bool(_))
        | (Type::Number, Value::Number(_))
        | (Type::String, Value::String(_)) => value.clone(),
        (Type::List(e), Value::List(vs)) => Value::List(copy_all(vs, e)?),
        (Type::Set(e), Value::Set(s)) => {
            Value::Set(Set::new(copy_all(s.as_slice(), e)?.into_vec()))
        }
        (Type::Map(e), Value::Map(m)) => {
            let mut entries = Vec::with_capacity(m.len());
            for (k, v) in m.entries() {
                entries.push((k.clone(), copy(v, e).map_err(|err| err.in_key(k))?));
            }
            Value::Map(Map::from_sorted(entries.into()))
        }
        (Type::Tuple(ts), Value::Tuple(_)) => {
            let elements = tuple_elements(value, ty, ts)?;
            let mut copied = Vec::with_capacity(ts.len());
            for (n, (v, t)) in elements.iter().zip(ts.iter()).enumerate() {
                copied.push(copy(v, t).map_err(|e| e.in_index(n))?);
            }
            Value::Tuple(copied.into())
        }
        (Type::Object(o), Value::Object(obj)) => {
            check_attributes(o, obj)?;
            let mut copied = Vec::with_capacity(o.len());
            for (name, t, _) in o.iter() {
                copied.push(copy(attribute(obj, name), t).map_err(|e| e.in_attribute(name))?);
            }
            Value::Object(Box::new(Object::from_parts(
                o.names().clone(),
                copied.into(),
            )))
        }
        _ => return Err(shape(ty, value)),
    };
    Ok(copied)
}

fn copy_all(values: &[Value], ty: &Type) -> Result<Box<[Value]>> {
    values
        .iter()
        .enumerate()
        .map(|(n, v)| copy(v, ty).map_err(|e| e.in_index(n)))
        .collect()
}

/// The elements of a list or set value of type `from`.
fn sequence<'v>(value: &'v Value, from: &Type) -> Result<&'v [Value]> {
    match (from, value) {
        (Type::List(_), Value::List(vs)) => Ok(vs),
        (Type::Set(_), Value::Set(s)) => Ok(s.as_slice()),
        _ => Err(shape(from, value)),
    }
}

/// The elements of a tuple value of type `from`, as many as `ts` says.
fn tuple_elements<'v>(value: &'v Value, from: &Type, ts: &[Type]) -> Result<&'v [Value]> {
    match value {
        Value::Tuple(vs) if vs.len() == ts.len() => Ok(vs),
        Value::Tuple(vs) => Err(Error::new(
            ErrorKind::TypeMismatch,
            format!(
                "expected a tuple of {} elements, found {}",
                ts.len(),
                vs.len()
            ),
        )),
        _ => Err(shape(from, value)),
    }
}

/// An object value has no attribute its type lacks; one it leaves out is null.
fn check_attributes(o: &ObjectType, obj: &Object) -> Result<()> {
    if obj.names() == o.names() {
        return Ok(());
    }
    match obj.names().iter().find(|n| o.attribute(n).is_none()) {
        Some(extra) => Err(Error::new(
            ErrorKind::InvalidValue,
            format!("unsupported attribute {extra:?}"),
        )),
        None => Ok(()),
    }
}

/// Attribute `name` of `obj`, null when left out.
fn attribute<'v>(obj: &'v Object, name: &str) -> &'v Value {
    obj.get(name).unwrap_or(&Value::Null)
}

/// An object of type `o`'s attributes with `values` of concrete `types`.
fn object(o: &ObjectType, values: Vec<Value>, types: Vec<Type>) -> Converted {
    let value = Value::Object(Box::new(Object::from_parts(
        o.names().clone(),
        values.into(),
    )));
    let ty = Type::object(o.names().iter().zip(types));
    (value, ty)
}

/// The element type of an empty collection converted from elements of `i` to `o`: the
/// source's where `o` is `dynamic` (go-cty prefers a concrete type).
fn empty_element(i: &Type, o: &Type) -> Type {
    if *o == Type::Dynamic {
        i.clone()
    } else {
        o.without_optional_attributes()
    }
}

/// A set of converted elements; `empty` gives the element type of an empty set.
fn set_of(converted: Vec<Converted>, empty: impl FnOnce() -> Type) -> Result<Converted> {
    if converted.is_empty() {
        return Ok((Value::Set(Set::default()), Type::set(empty())));
    }
    let (values, types) = split(converted);
    let element = element_type(&types)
        .ok_or_else(|| failed("element types must all match for conversion to set"))?;
    Ok((Value::Set(Set::new(values)), Type::set(element)))
}

/// A map of converted entries (in key order); `message` is the error when their types
/// differ.
fn map_of(converted: Vec<(Str, Converted)>, message: &str) -> Result<Converted> {
    let mut entries = Vec::with_capacity(converted.len());
    let mut types = Vec::with_capacity(converted.len());
    for (k, (v, t)) in converted {
        entries.push((k, v));
        types.push(t);
    }
    let element = element_type(&types).ok_or_else(|| failed(message))?;
    Ok((
        Value::Map(Map::from_sorted(entries.into())),
        Type::map(element),
    ))
}

/// go-cty's `ParseNumberVal`, with this crate's limits on number text.
fn string_to_number(s: &str) -> Result<Number> {
    Number::parse(s).map_err(|e| {
        if e.is_limit_exceeded() {
            Error::new(ErrorKind::LimitExceeded, e.to_string())
        } else {
            failed("a number is required")
        }
    })
}

fn string_to_bool(s: &str) -> Result<bool> {
    match s {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(failed(match s.to_lowercase().as_str() {
            "true" => "a bool is required; to convert from string, use lowercase \"true\"",
            "false" => "a bool is required; to convert from string, use lowercase \"false\"",
            _ => "a bool is required",
        })),
    }
}

/// go-cty's `prepareUnknownResult`: the unknown that an unknown of type `from` with
/// refinements `r` becomes as type `to`. Nullness carries over; a collection's length
/// bounds carry over or follow from the source's type; other refinements are dropped.
fn unknown_result(r: &Refinements, from: &Type, to: &Type) -> Value {
    let mut out = Refinements::new();
    // An unknown of type `dynamic` has no refinements in go-cty (a value built by hand
    // may hold some here).
    if r.is_not_null() && *from != Type::Dynamic {
        out = out.not_null();
    }
    let exact = |out: Refinements, n: usize| {
        out.with_length_lower_bound(n as u64)
            .with_length_upper_bound(n as u64)
    };
    out = match (from, to) {
        (Type::Object(o), Type::Map(_)) => exact(out, o.len()),
        (Type::Tuple(ts), Type::List(_)) => exact(out, ts.len()),
        (Type::Tuple(ts), Type::Set(_)) if ts.len() <= 1 => exact(out, ts.len()),
        (Type::Tuple(ts), Type::Set(_)) => out
            .with_length_lower_bound(1)
            .with_length_upper_bound(ts.len() as u64),
        _ if from.is_collection() && to.is_collection() => {
            let lower = match to {
                Type::Set(_) => r.length_lower_bound().min(1),
                _ => r.length_lower_bound(),
            };
            let out = out.with_length_lower_bound(lower);
            match r.length_upper_bound() {
                Some(max) => out.with_length_upper_bound(max),
                None => out,
            }
        }
        _ => out,
    };
    Value::refined_unknown(to, out)
}

//! Values: an untyped tree of null, unknown and known values.
//!
//! A [`Value`] does not carry its type: the type is handed to the codecs, which check the
//! value against it. That lets provider code write `Value::Null` or `Value::unknown()`
//! without spelling a type. Where a type is itself `dynamic`, the value keeps its concrete
//! type beside it ([`Value::Typed`]); a value built by hand for a dynamic position may
//! leave that out and the encoder infers it.

pub(crate) mod conform;
pub(crate) mod equal;
mod go_syntax;
mod number;
pub(crate) mod printable;
mod refine;
pub(crate) mod set;
pub(crate) mod sink;
pub(crate) mod string;
mod walk;

use std::fmt;

pub(crate) use number::WireNumber;
pub use number::{Number, NumberError};
pub(crate) use refine::collapsed_elements;
pub use refine::Refinements;
pub use string::Str;
pub use walk::Visit;

use crate::text;
use crate::types::{AttributeNames, Type};

/// A cty value: null, unknown (with optional [refinements](Refinements)), or known.
///
/// Strings are always NFC; map keys and object attribute names are NFC and kept in
/// bytewise order; sets are deduplicated and kept in go-cty's order. The constructors
/// ([`Value::string`], [`Value::map`], [`Value::object`], [`Value::set`], ...) establish
/// these rules; the encoders re-check what they must.
///
/// ```
/// use ctywire::{Type, Value};
///
/// let v = Value::object([
///     ("name", Value::from("web")),
///     ("tags", Value::map([("env", Value::from("prod"))])),
///     ("ports", Value::list([Value::from(80), Value::from(443)])),
///     ("id", Value::unknown()),
/// ]);
/// assert_eq!(v["tags"]["env"].as_str(), Some("prod"));
/// assert_eq!(v["ports"][1].as_i64(), Some(443));
/// assert!(v["id"].is_unknown());
/// assert!(v["missing"].is_null());
/// ```
///
/// # Equality
///
/// `==` ([`PartialEq`]) compares the trees as they are built: the same variants (so a
/// value and the same value in a [`Typed`] wrapper differ), numbers by cty's equality
/// ([`Number`]'s: `1 == 1.0`), unknowns equal when their refinements are, objects by
/// their attribute names and values (an attribute left out differs from a null one),
/// sets element by element in their order. It needs no type. cty's own equalities
/// take the type: [`Value::cty_equals`] (go-cty's `Equals`, which answers "unknown"
/// where an unknown decides) and [`Value::raw_equals`] (go-cty's `RawEquals`, under
/// which a wrapped and an unwrapped value of the same type are equal); [`diff`](crate::diff())
/// says where two values are not raw-equal.
#[derive(Clone, PartialEq)]
pub enum Value {
    /// A null value (of whatever type the position has).
    Null,
    /// An unknown value, with what is known about it.
    Unknown(Refinements),
    /// A known `bool`.
    Bool(bool),
    /// A known `number`.
    Number(Number),
    /// A known `string` (NFC).
    String(Str),
    /// A known `list`.
    List(Box<[Value]>),
    /// A known `set`.
    Set(Set),
    /// A known `map`.
    Map(Map),
    /// A known `object`.
    Object(Box<Object>),
    /// A known `tuple`.
    Tuple(Box<[Value]>),
    /// A value at a `dynamic` position, with its concrete type. The value inside may be
    /// null or unknown of that type.
    Typed(Box<Typed>),
}

/// A value together with its concrete type: what a `dynamic` position holds on the wire.
///
/// Decoders record the type of every value at a `dynamic` position; for a value built
/// by hand the encoders infer it, and [`Value::typed`] gives it where inference would
/// choose another (a list rather than a tuple, a map rather than an object).
///
/// ```
/// use ctywire::{msgpack, Type, Typed, Value};
///
/// let ty: Type = "object({settings=any})".parse()?;
/// let tags = Value::typed(Type::map(Type::String), Value::map([("env", Value::from("prod"))]));
/// let bytes = msgpack::encode(&Value::object([("settings", tags)]), &ty)?;
/// // The wrapper: [type JSON as binary data, the value].
/// assert_eq!(&bytes[..29], b"\x81\xa8settings\x92\xc4\x10[\"map\",\"string\"]");
///
/// let decoded = msgpack::decode(&bytes, &ty)?;
/// let Value::Typed(typed) = &decoded["settings"] else { panic!("not typed") };
/// let Typed { ty, value } = &**typed;
/// assert_eq!((ty.to_expr().as_str(), value["env"].as_str()), ("map(string)", Some("prod")));
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Typed {
    /// The concrete type (never [`Type::Dynamic`]).
    pub ty: Type,
    /// The value, of type `ty`.
    pub value: Value,
}

/// The attributes of a known object value, in bytewise name order.
///
/// The names are shared: every object decoded with one object type points at that
/// type's [`AttributeNames`].
///
/// ```
/// use ctywire::Value;
///
/// let value = Value::object([("name", Value::from("web")), ("id", Value::unknown())]);
/// let object = value.as_object().unwrap();
/// let names: Vec<&str> = object.iter().map(|(name, _)| name).collect();
/// assert_eq!(names, ["id", "name"]);
/// assert_eq!(object.get("name"), Some(&Value::from("web")));
/// assert_eq!(object.get("tags"), None);
/// ```
#[derive(Clone, PartialEq)]
pub struct Object {
    names: AttributeNames,
    values: Box<[Value]>,
}

/// The elements of a known map value, in bytewise key order, keys unique and NFC.
///
/// ```
/// use ctywire::Value;
///
/// let value = Value::map([("b", Value::from(2)), ("a", Value::from(1)), ("b", Value::from(3))]);
/// let map = value.as_map().unwrap();
/// assert_eq!(map.keys().collect::<Vec<_>>(), ["a", "b"]);
/// assert_eq!(map.get("b").and_then(Value::as_i64), Some(3)); // the last one given
/// ```
#[derive(Clone, PartialEq, Default)]
pub struct Map(Box<[(Str, Value)]>);

/// The elements of a known set value: deduplicated as cty does (unknowns are never equal
/// to anything, so all are kept; one null at most) and in go-cty's iteration order.
#[derive(Clone, PartialEq, Default)]
pub struct Set(Box<[Value]>);

static NULL: Value = Value::Null;

impl Value {
    /// A plain unknown value.
    ///
    /// ```
    /// use ctywire::{msgpack, Type, Value};
    ///
    /// let v = Value::unknown();
    /// assert!(v.is_unknown() && !v.is_null());
    /// assert_eq!(msgpack::encode(&v, &Type::String)?, [0xd4, 0x00, 0x00]);
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn unknown() -> Value {
        Value::Unknown(Refinements::new())
    }

    /// An unknown value of type `ty` with `refinements`, collapsed to a known value where
    /// go-cty collapses it: definitely null gives null; not null with equal inclusive
    /// number bounds gives that number; not null with a length of exactly 0 gives the
    /// empty collection, a list of exactly n gives n unknowns, a set of exactly 1 gives a
    /// set of one unknown.
    ///
    /// ```
    /// use ctywire::{Refinements, Type, Value};
    ///
    /// let r = Refinements::new().not_null().with_length_lower_bound(2).with_length_upper_bound(2);
    /// let v = Value::refined_unknown(&Type::list(Type::String), r);
    /// assert_eq!(v, Value::list([Value::unknown(), Value::unknown()]));
    /// ```
    pub fn refined_unknown(ty: &Type, refinements: Refinements) -> Value {
        refine::collapse(ty, refinements)
    }

    /// A string value, NFC-normalized.
    pub fn string(s: impl AsRef<str>) -> Value {
        Value::String(text::nfc(s.as_ref()).into())
    }

    /// A list value.
    ///
    /// ```
    /// use ctywire::{json, Type, Value};
    ///
    /// let ports = Value::list([Value::from(443), Value::from(80)]);
    /// assert_eq!(ports.len(), Some(2));
    /// assert_eq!(json::encode(&ports, &Type::list(Type::Number))?, b"[443,80]");
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn list(elements: impl IntoIterator<Item = Value>) -> Value {
        Value::List(elements.into_iter().collect())
    }

    /// A tuple value.
    pub fn tuple(elements: impl IntoIterator<Item = Value>) -> Value {
        Value::Tuple(elements.into_iter().collect())
    }

    /// A set value: duplicates dropped and elements put in go-cty's order.
    ///
    /// ```
    /// use ctywire::Value;
    /// let s = Value::set(["b", "a", "b"].map(Value::from));
    /// assert_eq!(s, Value::set([Value::from("a"), Value::from("b")]));
    /// assert_eq!(s[0].as_str(), Some("a"));
    /// ```
    pub fn set(elements: impl IntoIterator<Item = Value>) -> Value {
        Value::Set(Set::new(elements.into_iter().collect()))
    }

    /// A map value: keys NFC-normalized and sorted; a repeated key keeps its last value.
    ///
    /// ```
    /// use ctywire::Value;
    ///
    /// let tags = Value::map([("env", Value::from("prod")), ("Name", Value::from("web"))]);
    /// assert_eq!(tags["env"].as_str(), Some("prod"));
    /// assert_eq!(tags.as_map().unwrap().keys().collect::<Vec<_>>(), ["Name", "env"]);
    /// let empty = Value::map::<&str>([]);
    /// assert_eq!(empty.len(), Some(0));
    /// ```
    pub fn map<K: AsRef<str>>(entries: impl IntoIterator<Item = (K, Value)>) -> Value {
        Value::Map(Map::new(entries))
    }

    /// An object value: names NFC-normalized and sorted; a repeated name keeps its last
    /// value.
    ///
    /// ```
    /// use ctywire::{msgpack, Type, Value};
    ///
    /// let ty: Type = "object({name=string, size=number})".parse()?;
    /// let disk = Value::object([("size", Value::from(10)), ("name", Value::from("d"))]);
    /// assert_eq!(disk["size"].as_i64(), Some(10));
    /// assert_eq!(msgpack::encode(&disk, &ty)?, b"\x82\xa4name\xa1d\xa4size\x0a");
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn object<K: AsRef<str>>(attributes: impl IntoIterator<Item = (K, Value)>) -> Value {
        Value::Object(Box::new(Object::new(attributes)))
    }

    /// A value with its concrete type, for a `dynamic` position.
    pub fn typed(ty: Type, value: Value) -> Value {
        Value::Typed(Box::new(Typed { ty, value }))
    }

    /// This value without a [`Typed`] wrapper.
    pub fn untyped(&self) -> &Value {
        match self {
            Value::Typed(t) => t.value.untyped(),
            v => v,
        }
    }

    /// This value without a [`Typed`] wrapper, to change in place.
    pub(crate) fn untyped_mut(&mut self) -> &mut Value {
        match self {
            Value::Typed(t) => t.value.untyped_mut(),
            v => v,
        }
    }

    /// This object with attribute `name` set to `value`: replaced if the object has it,
    /// added (in name order) if not. A [`Typed`] wrapper is looked through and kept as it
    /// is. Fails for anything but a known object.
    ///
    /// ```
    /// use ctywire::{Type, Value};
    ///
    /// let planned = Value::object([("name", Value::from("web")), ("id", Value::unknown())]);
    /// let state = planned.with_attribute("id", Value::from("i-123"))?;
    /// assert_eq!(state["id"].as_str(), Some("i-123"));
    /// assert_eq!(state["name"].as_str(), Some("web"));
    /// assert!(Value::Null.with_attribute("id", Value::from("x")).is_err());
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn with_attribute(mut self, name: impl AsRef<str>, value: Value) -> crate::Result<Value> {
        match self.untyped_mut() {
            Value::Object(o) => {
                o.insert(name.as_ref(), value);
                Ok(self)
            }
            other => Err(crate::Error::mismatch("object", other.kind_name())),
        }
    }

    /// Removes the map element or object attribute `name` of this known map or object
    /// (looking through a [`Typed`] wrapper); whether it was there.
    pub(crate) fn remove_entry(&mut self, name: &str) -> bool {
        match self.untyped_mut() {
            Value::Object(o) => o.remove(name),
            Value::Map(m) => m.remove(name),
            _ => false,
        }
    }

    /// Whether the value is null.
    pub fn is_null(&self) -> bool {
        matches!(self.untyped(), Value::Null)
    }

    /// Whether the value itself is unknown (not looking inside known collections).
    ///
    /// ```
    /// use ctywire::Value;
    ///
    /// let v = Value::list([Value::unknown()]);
    /// assert!(!v.is_unknown() && v[0].is_unknown());
    /// assert!(!v.is_wholly_known());
    /// ```
    pub fn is_unknown(&self) -> bool {
        matches!(self.untyped(), Value::Unknown(_))
    }

    /// Whether the value is known and contains no unknown anywhere.
    pub fn is_wholly_known(&self) -> bool {
        match self.untyped() {
            Value::Unknown(_) => false,
            Value::List(vs) | Value::Tuple(vs) => vs.iter().all(Value::is_wholly_known),
            Value::Set(s) => s.iter().all(Value::is_wholly_known),
            Value::Map(m) => m.values().all(Value::is_wholly_known),
            Value::Object(o) => o.values().iter().all(Value::is_wholly_known),
            _ => true,
        }
    }

    /// The refinements of an unknown value.
    ///
    /// ```
    /// use ctywire::{Refinements, Value};
    ///
    /// let arn = Value::Unknown(Refinements::new().not_null().with_string_prefix("arn:"));
    /// let r = arn.refinements().unwrap();
    /// assert!(r.is_not_null());
    /// assert_eq!(r.string_prefix(), Some("arn:"));
    /// assert!(Value::from("x").refinements().is_none());
    /// ```
    pub fn refinements(&self) -> Option<&Refinements> {
        match self.untyped() {
            Value::Unknown(r) => Some(r),
            _ => None,
        }
    }

    /// The concrete type recorded for a value at a dynamic position.
    pub fn recorded_type(&self) -> Option<&Type> {
        match self {
            Value::Typed(t) => Some(&t.ty),
            _ => None,
        }
    }

    /// A known bool.
    pub fn as_bool(&self) -> Option<bool> {
        match self.untyped() {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// A known number.
    pub fn as_number(&self) -> Option<&Number> {
        match self.untyped() {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// A known number that is an integer within `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number().and_then(Number::to_i64)
    }

    /// A known number as the nearest `f64`.
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number().map(Number::to_f64)
    }

    /// A known string.
    ///
    /// ```
    /// use ctywire::Value;
    ///
    /// assert_eq!(Value::from("web").as_str(), Some("web"));
    /// assert_eq!(Value::from(1).as_str(), None); // no conversion: see ctywire::convert
    /// assert_eq!(Value::unknown().as_str(), None);
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        match self.untyped() {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The elements of a known list, tuple or set, in order.
    pub fn as_slice(&self) -> Option<&[Value]> {
        match self.untyped() {
            Value::List(vs) | Value::Tuple(vs) => Some(vs),
            Value::Set(s) => Some(s.as_slice()),
            _ => None,
        }
    }

    /// A known map.
    pub fn as_map(&self) -> Option<&Map> {
        match self.untyped() {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// A known object.
    pub fn as_object(&self) -> Option<&Object> {
        match self.untyped() {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The number of elements or attributes of a known collection or structure.
    pub fn len(&self) -> Option<usize> {
        match self.untyped() {
            Value::List(vs) | Value::Tuple(vs) => Some(vs.len()),
            Value::Set(s) => Some(s.len()),
            Value::Map(m) => Some(m.len()),
            Value::Object(o) => Some(o.len()),
            _ => None,
        }
    }

    /// Whether a known collection or structure has no elements or attributes (`None`
    /// for anything else).
    pub fn is_empty(&self) -> Option<bool> {
        self.len().map(|n| n == 0)
    }

    /// An object attribute or map element by name.
    pub fn get(&self, name: &str) -> Option<&Value> {
        match self.untyped() {
            Value::Object(o) => o.get(name),
            Value::Map(m) => m.get(name),
            _ => None,
        }
    }

    /// A list, tuple or set element by position.
    pub fn get_index(&self, index: usize) -> Option<&Value> {
        self.as_slice().and_then(|vs| vs.get(index))
    }

    /// A short description of what this value is, for error messages: `null`, `unknown`,
    /// `string`, `list`, ...
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Unknown(_) => "unknown",
            Value::Bool(_) => "bool",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::List(_) => "list",
            Value::Set(_) => "set",
            Value::Map(_) => "map",
            Value::Object(_) => "object",
            Value::Tuple(_) => "tuple",
            Value::Typed(t) => t.value.kind_name(),
        }
    }
}

impl std::ops::Index<&str> for Value {
    type Output = Value;

    /// An object attribute or map element; [`Value::Null`] when there is none.
    fn index(&self, name: &str) -> &Value {
        self.get(name).unwrap_or(&NULL)
    }
}

impl std::ops::Index<usize> for Value {
    type Output = Value;

    /// A list, tuple or set element; [`Value::Null`] when there is none.
    fn index(&self, index: usize) -> &Value {
        self.get_index(index).unwrap_or(&NULL)
    }
}

impl Object {
    /// Builds an object from `(name, value)` pairs: names NFC-normalized and sorted, a
    /// repeated name keeping its last value.
    pub fn new<K: AsRef<str>>(attributes: impl IntoIterator<Item = (K, Value)>) -> Object {
        let mut pairs: Vec<(Box<str>, Value)> = attributes
            .into_iter()
            .map(|(k, v)| (text::nfc(k.as_ref()).into(), v))
            .collect();
        sort_dedup_last(&mut pairs);
        let (names, values): (Vec<_>, Vec<_>) = pairs.into_iter().unzip();
        Object {
            names: AttributeNames::from_sorted(names),
            values: values.into(),
        }
    }

    /// Builds an object from shared names and one value per name, in the same order.
    pub(crate) fn from_parts(names: AttributeNames, values: Box<[Value]>) -> Object {
        debug_assert_eq!(names.len(), values.len());
        Object { names, values }
    }

    /// The attribute names, in bytewise order.
    pub fn names(&self) -> &AttributeNames {
        &self.names
    }

    /// The names and the values, taken apart.
    pub fn into_parts(self) -> (AttributeNames, Box<[Value]>) {
        (self.names, self.values)
    }

    /// The attribute values, in the order of [`names`](Self::names).
    pub fn values(&self) -> &[Value] {
        &self.values
    }

    /// The number of attributes.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the object has no attributes.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The value of attribute `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.names.index_of(name).map(|i| &self.values[i])
    }

    /// Iterates over `(name, value)` in bytewise name order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &Value)> + Clone + '_ {
        self.names.iter().zip(self.values.iter())
    }

    /// The value of attribute `name`, to change in place.
    pub(crate) fn get_mut(&mut self, name: &str) -> Option<&mut Value> {
        self.names.index_of(name).map(|i| &mut self.values[i])
    }

    /// Sets attribute `name` (NFC-normalized) to `value`, adding it if it is not there.
    pub(crate) fn insert(&mut self, name: &str, value: Value) {
        let name = text::nfc(name);
        if let Some(v) = self.get_mut(&name) {
            *v = value;
            return;
        }
        let attributes = std::mem::take(&mut self.values)
            .into_vec()
            .into_iter()
            .zip(self.names.iter())
            .map(|(v, n)| (n.to_owned(), v))
            .chain([(name.into_owned(), value)]);
        *self = Object::new(attributes.collect::<Vec<_>>());
    }

    /// Removes attribute `name`; whether it was there.
    pub(crate) fn remove(&mut self, name: &str) -> bool {
        let Some(i) = self.names.index_of(name) else {
            return false;
        };
        let mut values = std::mem::take(&mut self.values).into_vec();
        values.remove(i);
        let names = self
            .names
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, n)| n.into());
        self.names = AttributeNames::from_sorted(names.collect());
        self.values = values.into();
        true
    }
}

impl Map {
    /// Builds a map from `(key, value)` pairs: keys NFC-normalized and sorted, a repeated
    /// key keeping its last value.
    pub fn new<K: AsRef<str>>(entries: impl IntoIterator<Item = (K, Value)>) -> Map {
        let mut pairs: Vec<(Str, Value)> = entries
            .into_iter()
            .map(|(k, v)| (text::nfc(k.as_ref()).into(), v))
            .collect();
        sort_dedup_last(&mut pairs);
        Map(pairs.into())
    }

    /// Builds a map from entries already NFC, sorted and unique.
    pub(crate) fn from_sorted(entries: Box<[(Str, Value)]>) -> Map {
        debug_assert!(entries.windows(2).all(|w| w[0].0 < w[1].0));
        Map(entries)
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The entries, in key order.
    pub fn into_vec(self) -> Vec<(Str, Value)> {
        self.0.into_vec()
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The element with key `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.position(key).ok().map(|i| &self.0[i].1)
    }

    /// Iterates over `(key, value)` in bytewise key order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &Value)> + Clone + '_ {
        self.0.iter().map(|(k, v)| (k.as_ref(), v))
    }

    /// Iterates over the keys in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &str> + Clone + '_ {
        self.0.iter().map(|(k, _)| k.as_ref())
    }

    /// Iterates over the values in key order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &Value> + Clone + '_ {
        self.0.iter().map(|(_, v)| v)
    }

    /// The entries, in key order.
    pub fn entries(&self) -> &[(Str, Value)] {
        &self.0
    }

    fn position(&self, key: &str) -> Result<usize, usize> {
        self.0
            .binary_search_by(|(k, _)| k.as_bytes().cmp(key.as_bytes()))
    }

    /// The element with key `key`, to change in place.
    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        let i = self.position(key).ok()?;
        Some(&mut self.0[i].1)
    }

    /// Sets the element with key `key` (NFC-normalized) to `value`, adding it if it is
    /// not there.
    pub(crate) fn insert(&mut self, key: &str, value: Value) {
        let key = text::nfc(key);
        match self.position(&key) {
            Ok(i) => self.0[i].1 = value,
            Err(i) => {
                let mut entries = std::mem::take(&mut self.0).into_vec();
                entries.insert(i, (key.as_ref().into(), value));
                self.0 = entries.into();
            }
        }
    }

    /// Removes the element with key `key`; whether it was there.
    pub(crate) fn remove(&mut self, key: &str) -> bool {
        let Ok(i) = self.position(key) else {
            return false;
        };
        let mut entries = std::mem::take(&mut self.0).into_vec();
        entries.remove(i);
        self.0 = entries.into();
        true
    }
}

impl Set {
    /// Builds a set: duplicates dropped (the first kept) and elements put in go-cty's
    /// order.
    pub fn new(elements: Vec<Value>) -> Set {
        Set(set::canonicalize(elements).into())
    }

    /// The elements in order.
    pub fn as_slice(&self) -> &[Value] {
        &self.0
    }

    /// The elements in order.
    pub fn into_vec(self) -> Vec<Value> {
        self.0.into_vec()
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Iterates over the elements in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Value> {
        self.0.iter()
    }

    /// Whether the set holds `value`, by cty's set rules: an element equal to it by
    /// [`Value::cty_equals`] whose set hash string is the same (so `-0` is not found
    /// where `0` is, as in go-cty). Nothing with an unknown in it is ever found.
    ///
    /// ```
    /// use ctywire::{Number, Value};
    ///
    /// let Value::Set(s) = Value::set([Value::from(0), Value::from("x".len())]) else { unreachable!() };
    /// assert!(s.contains(&Value::from(1)));
    /// assert!(!s.contains(&Value::Number(Number::from_f64(-0.0).unwrap())));
    /// assert!(!s.contains(&Value::unknown()));
    /// ```
    pub fn contains(&self, value: &Value) -> bool {
        self.0.iter().any(|e| set::same_element(e, value))
    }
}

/// Sorts pairs by key bytewise, keeping the last of each run of equal keys.
pub(crate) fn sort_dedup_last<K: Ord>(pairs: &mut Vec<(K, Value)>) {
    if pairs.windows(2).all(|w| w[0].0 < w[1].0) {
        return;
    }
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out: Vec<(K, Value)> = Vec::with_capacity(pairs.len());
    for pair in pairs.drain(..) {
        match out.last_mut() {
            Some(last) if last.0 == pair.0 => *last = pair,
            _ => out.push(pair),
        }
    }
    *pairs = out;
}

impl Default for Value {
    /// [`Value::Null`].
    ///
    /// ```
    /// use ctywire::Value;
    /// assert!(Value::default().is_null());
    /// ```
    fn default() -> Value {
        Value::Null
    }
}

macro_rules! from_number {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(n: $t) -> Value {
                Value::Number(Number::from(n))
            }
        }
    )*};
}
from_number!(i8, i16, i32, i64, u8, u16, u32, u64, usize);

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<Number> for Value {
    fn from(n: Number) -> Value {
        Value::Number(n)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::string(s)
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(text::nfc_owned(s).into())
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    /// `None` is null.
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

impl<T: Into<Value>> From<Vec<T>> for Value {
    /// A list.
    fn from(v: Vec<T>) -> Value {
        Value::List(v.into_iter().map(Into::into).collect())
    }
}

impl TryFrom<f64> for Value {
    type Error = NumberError;

    /// A float64-origin number; NaN is an error.
    fn try_from(f: f64) -> Result<Value, NumberError> {
        Number::try_from(f).map(Value::Number)
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Unknown(r) if r.is_empty() => f.write_str("unknown"),
            Value::Unknown(r) => write!(f, "unknown({})", r.describe().join(", ")),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Number(n) => write!(f, "{n}"),
            Value::String(s) => write!(f, "{s:?}"),
            Value::List(vs) => f.debug_list().entries(vs.iter()).finish(),
            Value::Tuple(vs) => {
                f.write_str("tuple")?;
                f.debug_list().entries(vs.iter()).finish()
            }
            Value::Set(s) => f.debug_set().entries(s.iter()).finish(),
            Value::Map(m) => f.debug_map().entries(m.iter()).finish(),
            Value::Object(o) => fmt::Debug::fmt(o, f),
            Value::Typed(t) => write!(f, "{:?} as {}", t.value, t.ty),
        }
    }
}

impl fmt::Debug for Object {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("object");
        for (n, v) in self.iter() {
            s.field(n, v);
        }
        s.finish()
    }
}

impl fmt::Debug for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl fmt::Debug for Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

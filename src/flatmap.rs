//! The legacy flatmap form of resource state, read into a value of a type.
//!
//! States written by Terraform 0.11 and earlier (and providers on the old SDK since) keep a
//! resource's attributes as one flat map of strings: `"name" = "web"`, a list's length
//! under `"disk.#"` and its elements under `"disk.0.size"`, a map's under `"tags.%"` and
//! `"tags.env"`, a set's elements under arbitrary numeric keys (`"rule.1234.port"`).
//! Terraform sends such a state to `UpgradeResourceState` (and `MoveResourceState`) as
//! `RawState.flatmap`, and the provider reads it with the type of its current schema;
//! [`decode`] is that reading, by Terraform's rules (its `hcl2shim` package):
//!
//! - A primitive is its string converted to the type as go-cty converts a string
//!   (`"true"`, `"1"` and `"12.5"` become `true`, `true` and `12.5`); a missing key is
//!   null.
//! - A list, set or tuple without its `#` count is null; a map without its `%` count is
//!   null; a count of `0` is the empty collection. A list takes exactly `count` elements
//!   (keys beyond are ignored, missing ones are null); a tuple's count must equal its
//!   length; a set takes one element for each distinct key below its prefix, whatever its
//!   count says, except that a count of `1` with no element keys is one element with
//!   every attribute null (the flatmap cannot write an object whose attributes are all
//!   null). A map's keys are the rest of each key below its prefix, dots included.
//! - [`UNKNOWN`] as a value or a count, or as the value of a collection's own key, is an
//!   unknown of the type.
//! - `dynamic` has no flatmap form: a type that holds it is an error.
//!
//! Where Terraform's reader crashes or runs away, this one stops with an error (tested in
//! the conformance suite's flatmap cases): a negative count (Terraform panics making a
//! slice of that length), and counts that ask for more elements than
//! [`MAX_IMPLICIT_VALUES`] beyond the entries given (Terraform makes them all).
//!
//! A `null` flatmap (a `RawState` that has none) is a null object; see
//! [`decode`]'s parameters. Work is linear in the number of entries times the depth of
//! the type (entries are kept sorted, so each collection reads only its own), and the
//! elements a count asks for beyond those the entries spell out are bounded by
//! [`MAX_IMPLICIT_VALUES`].
//!
//! ```
//! use std::collections::HashMap;
//! use ctywire::{flatmap, Type, Value};
//!
//! let ty: Type = "object({name=string, disk=list(object({size=number})), tags=map(string)})".parse()?;
//! let state: HashMap<String, String> = [
//!     ("name", "web"),
//!     ("disk.#", "1"),
//!     ("disk.0.size", "10"),
//!     ("tags.%", "1"),
//!     ("tags.env", "prod"),
//! ]
//! .into_iter()
//! .map(|(k, v)| (k.to_owned(), v.to_owned()))
//! .collect();
//! let value = flatmap::decode(&state, &ty)?;
//! assert_eq!(value["disk"][0]["size"].as_i64(), Some(10));
//! assert_eq!(value["tags"]["env"].as_str(), Some("prod"));
//!
//! let broken: HashMap<String, String> = [("disk.#".to_owned(), "two".to_owned())].into();
//! let err = flatmap::decode(&broken, &ty).unwrap_err();
//! assert_eq!(err.to_string(), r#".disk: invalid count "two" for "disk." in state"#);
//! # Ok::<(), ctywire::Error>(())
//! ```

use std::collections::BTreeMap;
use std::ops::Bound;

use crate::limits::MAX_IMPLICIT_VALUES;
use crate::{convert, Error, ErrorKind, Path, Result, Type, Value};

/// The value that stands for an unknown in a flatmap (the legacy SDK's
/// `UnknownVariableValue`).
pub const UNKNOWN: &str = "74D93920-ED26-11E3-AC10-0800200C9A66";

/// Reads a flatmap state as a value of `ty`, an object type (a resource's schema type).
///
/// `entries` is any map of the flatmap's keys to values (the protocol's
/// `map<string, string>`, a `HashMap` in prost). An empty flatmap is an object whose
/// attributes are all null; for a state with no flatmap at all, use [`Value::Null`].
///
/// # Errors
///
/// [`TypeMismatch`](ErrorKind::TypeMismatch) when `ty` is not an object type or holds
/// `dynamic`; [`InvalidValue`](ErrorKind::InvalidValue), at the attribute's path, for a
/// count that is not an integer, a tuple whose count is not its length, and a string that
/// does not convert to its primitive type;
/// [`LimitExceeded`](ErrorKind::LimitExceeded) when counts ask for more elements than
/// the limit allows.
pub fn decode<K, V, S>(entries: &std::collections::HashMap<K, V, S>, ty: &Type) -> Result<Value>
where
    K: AsRef<str>,
    V: AsRef<str>,
{
    let sorted: BTreeMap<&str, &str> = entries
        .iter()
        .map(|(k, v)| (k.as_ref(), v.as_ref()))
        .collect();
    decode_sorted(&sorted, ty)
}

/// [`decode`] over entries already in a `BTreeMap`.
///
/// # Errors
///
/// As [`decode`].
pub fn decode_sorted(entries: &BTreeMap<&str, &str>, ty: &Type) -> Result<Value> {
    if !matches!(ty, Type::Object(_)) {
        return Err(Error::new(
            ErrorKind::TypeMismatch,
            format!("a flatmap state is read as an object type, not {ty}"),
        ));
    }
    let mut reader = Reader {
        entries,
        budget: MAX_IMPLICIT_VALUES.saturating_add(entries.len()),
    };
    reader.value("", ty, &Path::root())
}

struct Reader<'a> {
    entries: &'a BTreeMap<&'a str, &'a str>,
    /// Elements that counts may still ask for.
    budget: usize,
}

impl<'a> Reader<'a> {
    fn get(&self, key: &str) -> Option<&'a str> {
        self.entries.get(key).copied()
    }

    /// The entries whose keys start with `prefix`, in key order.
    fn below(&self, prefix: &str) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        let prefix = prefix.to_owned();
        self.entries
            .range::<str, _>((Bound::Included(prefix.as_str()), Bound::Unbounded))
            .map(|(k, v)| (*k, *v))
            .take_while(move |(k, _)| k.starts_with(prefix.as_str()))
    }

    fn spend(&mut self, elements: usize, path: &Path) -> Result<()> {
        self.budget = self.budget.checked_sub(elements).ok_or_else(|| {
            Error::new(
                ErrorKind::LimitExceeded,
                format!(
                    "the flatmap's counts ask for more elements than the limit of \
                     {MAX_IMPLICIT_VALUES} (limits::MAX_IMPLICIT_VALUES)"
                ),
            )
            .at(path)
        })?;
        Ok(())
    }

    /// The value of type `ty` stored at `key` (the empty key for the root object).
    fn value(&mut self, key: &str, ty: &Type, path: &Path) -> Result<Value> {
        match ty {
            Type::Bool | Type::Number | Type::String => self.primitive(key, ty, path),
            Type::Object(object) => {
                let prefix = child_prefix(key);
                let mut attributes = Vec::with_capacity(object.len());
                for (name, attribute_ty, _) in object.iter() {
                    let child = format!("{prefix}{name}");
                    let value = self.value(&child, attribute_ty, &path.clone().attribute(name))?;
                    attributes.push((name, value));
                }
                Ok(Value::object(attributes))
            }
            Type::List(element) => self.list(key, element, path),
            Type::Tuple(elements) => self.tuple(key, elements.as_slice(), ty, path),
            Type::Map(element) => self.map(key, element, path),
            Type::Set(element) => self.set(key, element, path),
            Type::Dynamic => Err(Error::new(
                ErrorKind::TypeMismatch,
                "cannot decode dynamic from flatmap",
            )
            .at(path)),
        }
    }

    fn primitive(&mut self, key: &str, ty: &Type, path: &Path) -> Result<Value> {
        match self.get(key) {
            None => Ok(Value::Null),
            Some(UNKNOWN) => Ok(Value::unknown()),
            Some(raw) => convert::convert(&Value::string(raw), &Type::String, ty).map_err(|e| {
                Error::new(
                    ErrorKind::InvalidValue,
                    format!("invalid value for {key:?} in state: {}", e.message()),
                )
                .at(path)
            }),
        }
    }

    /// A collection's count under `key` + `marker`, or the value it stands for when
    /// there is none (null) or it is unknown.
    fn count(&self, key: &str, marker: char, path: &Path) -> Result<Count> {
        if self.get(key.trim_end_matches('.')) == Some(UNKNOWN) {
            return Ok(Count::Unknown);
        }
        let prefix = child_prefix(key);
        match self.get(&format!("{prefix}{marker}")) {
            None => Ok(Count::Null),
            Some(UNKNOWN) => Ok(Count::Unknown),
            Some(text) => match parse_count(text) {
                Some(n) => Ok(Count::Known(n)),
                None => Err(Error::new(
                    ErrorKind::InvalidValue,
                    format!("invalid count {text:?} for {prefix:?} in state"),
                )
                .at(path)),
            },
        }
    }

    fn list(&mut self, key: &str, element: &Type, path: &Path) -> Result<Value> {
        let n = match self.count(key, '#', path)? {
            Count::Known(n) => n,
            other => return Ok(other.value()),
        };
        self.spend(n, path)?;
        let prefix = child_prefix(key);
        let elements = (0..n)
            .map(|i| {
                self.value(
                    &format!("{prefix}{i}"),
                    element,
                    &path.clone().index(i as u64),
                )
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Value::list(elements))
    }

    fn tuple(&mut self, key: &str, elements: &[Type], ty: &Type, path: &Path) -> Result<Value> {
        let n = match self.count(key, '#', path)? {
            Count::Known(n) => n,
            other => return Ok(other.value()),
        };
        if n != elements.len() {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                format!(
                    "wrong number of values for {:?} in state: got {n}, but {ty} needs {}",
                    child_prefix(key),
                    elements.len()
                ),
            )
            .at(path));
        }
        let prefix = child_prefix(key);
        let values = elements
            .iter()
            .enumerate()
            .map(|(i, t)| self.value(&format!("{prefix}{i}"), t, &path.clone().index(i as u64)))
            .collect::<Result<Vec<_>>>()?;
        Ok(Value::tuple(values))
    }

    fn map(&mut self, key: &str, element: &Type, path: &Path) -> Result<Value> {
        if let count @ (Count::Null | Count::Unknown) = self.count(key, '%', path)? {
            return Ok(count.value());
        }
        let prefix = child_prefix(key);
        let keys: Vec<&str> = self
            .below(&prefix)
            .map(|(k, _)| k)
            .filter(|k| k[prefix.len()..] != *"%")
            .collect();
        let mut entries = Vec::with_capacity(keys.len());
        for full in keys {
            let name = &full[prefix.len()..];
            let value = self.value(full, element, &path.clone().key(name))?;
            entries.push((name, value));
        }
        Ok(Value::map(entries))
    }

    fn set(&mut self, key: &str, element: &Type, path: &Path) -> Result<Value> {
        let n = match self.count(key, '#', path)? {
            Count::Known(n) => n,
            other => return Ok(other.value()),
        };
        let prefix = child_prefix(key);
        // One element per distinct key below the prefix, up to its first dot.
        let mut element_keys: Vec<&str> = Vec::new();
        for (full, _) in self.below(&prefix) {
            let rest = &full[prefix.len()..];
            if rest == "#" {
                continue;
            }
            let element_key = match rest.find('.') {
                Some(dot) => &full[..prefix.len() + dot],
                None => full,
            };
            if element_keys.last() != Some(&element_key) {
                element_keys.push(element_key);
            }
        }
        // Keys sort so that "a.1" and "a.1.x" may be apart ("a.1-" sorts between).
        element_keys.sort_unstable();
        element_keys.dedup();
        if element_keys.is_empty() {
            return Ok(if n == 1 {
                Value::set([empty_element(element)])
            } else {
                Value::set([])
            });
        }
        let elements = element_keys
            .into_iter()
            .map(|k| self.value(k, element, path))
            .collect::<Result<Vec<_>>>()?;
        Ok(Value::set(elements))
    }
}

/// What a collection's count says.
enum Count {
    Null,
    Unknown,
    Known(usize),
}

impl Count {
    fn value(&self) -> Value {
        match self {
            Count::Null | Count::Known(_) => Value::Null,
            Count::Unknown => Value::unknown(),
        }
    }
}

/// The prefix of the keys below `key`: `key.`, or nothing at the root.
fn child_prefix(key: &str) -> String {
    if key.is_empty() {
        String::new()
    } else {
        format!("{key}.")
    }
}

/// A count as Go's `strconv.Atoi` reads it (an optional sign, decimal digits), when it
/// is not negative.
fn parse_count(text: &str) -> Option<usize> {
    let digits = text.strip_prefix('+').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The one element of a set whose count is 1 but whose element wrote no keys: an object
/// with every attribute null, an empty collection, or null.
fn empty_element(ty: &Type) -> Value {
    match ty {
        Type::Object(object) => {
            Value::object(object.iter().map(|(name, _, _)| (name, Value::Null)))
        }
        Type::Map(_) => Value::map::<&str>([]),
        Type::List(_) => Value::list([]),
        Type::Set(_) => Value::set([]),
        _ => Value::Null,
    }
}

//! What a value is expected to be: [`Expect`], the comparators of plan and state checks.

use std::collections::BTreeMap;
use std::fmt;

use ctywire::{Number, Value};
use regex::Regex;

/// What a value must be, checked by [`Expect::check`] against a value Terraform wrote in
/// `show -json` (the comparators of terraform-plugin-testing's `knownvalue` package).
///
/// Numbers compare exactly, beyond `f64` (`Expect::number("1e400")`); lists, tuples and
/// sets are the sequences of the JSON documents, maps and objects their objects.
///
/// ```
/// use ctywire::Value;
/// use ctywire_testing::Expect;
///
/// let disk = Value::object([("size", Value::from(10)), ("kind", Value::from("ssd"))]);
/// assert!(Expect::object_partial([("size", Expect::int(10))]).check(&disk).is_ok());
/// let err = Expect::object_partial([("kind", Expect::string("hdd"))]).check(&disk).unwrap_err();
/// assert_eq!(err.to_string(), r#".kind: expected "hdd", found "ssd""#);
/// ```
#[derive(Clone, Debug)]
pub enum Expect {
    /// A string equal to this one.
    String(String),
    /// A string matching this regular expression.
    Regex(Regex),
    /// A number equal to this one, exactly.
    Number(Number),
    /// A bool.
    Bool(bool),
    /// Null.
    Null,
    /// Anything but null.
    NotNull,
    /// A list, tuple or set of exactly these elements, in this order (sets: in any order).
    List(Vec<Expect>),
    /// A list or tuple whose elements at these indexes are as given.
    ListPartial(BTreeMap<usize, Expect>),
    /// A set (or list, or tuple) of exactly these elements, in any order.
    Set(Vec<Expect>),
    /// A set (or list, or tuple) holding, among others, an element for each of these.
    SetPartial(Vec<Expect>),
    /// A list, set, tuple, map or object of this many elements or attributes.
    Size(usize),
    /// A map or object of exactly these keys, each as given.
    Map(BTreeMap<String, Expect>),
    /// A map or object with at least these keys, each as given.
    MapPartial(BTreeMap<String, Expect>),
}

impl Expect {
    /// A string equal to `s`.
    pub fn string(s: impl Into<String>) -> Expect {
        Expect::String(s.into())
    }

    /// A string that `pattern` matches (anywhere: anchor it with `^…$` for the whole).
    ///
    /// # Panics
    ///
    /// When `pattern` is not a regular expression: a mistake in the test itself.
    #[track_caller]
    pub fn regex(pattern: &str) -> Expect {
        match Regex::new(pattern) {
            Ok(re) => Expect::Regex(re),
            Err(e) => panic!("Expect::regex({pattern:?}): {e}"),
        }
    }

    /// A number exactly equal to `text` (any form go-cty reads: `1`, `1.5`, `1e400`).
    ///
    /// # Panics
    ///
    /// When `text` is not a number: a mistake in the test itself.
    #[track_caller]
    pub fn number(text: &str) -> Expect {
        match Number::parse(text) {
            Ok(n) => Expect::Number(n),
            Err(e) => panic!("Expect::number({text:?}): {e}"),
        }
    }

    /// An integer.
    pub fn int(i: i64) -> Expect {
        Expect::Number(Number::from(i))
    }

    /// A bool.
    pub fn bool(b: bool) -> Expect {
        Expect::Bool(b)
    }

    /// Null.
    pub fn null() -> Expect {
        Expect::Null
    }

    /// Anything but null.
    pub fn not_null() -> Expect {
        Expect::NotNull
    }

    /// A list (or tuple) of exactly these elements in this order.
    pub fn list(elements: impl IntoIterator<Item = Expect>) -> Expect {
        Expect::List(elements.into_iter().collect())
    }

    /// A list (or tuple) whose elements at the given indexes are as given.
    pub fn list_partial(elements: impl IntoIterator<Item = (usize, Expect)>) -> Expect {
        Expect::ListPartial(elements.into_iter().collect())
    }

    /// A set of exactly these elements, in any order.
    pub fn set(elements: impl IntoIterator<Item = Expect>) -> Expect {
        Expect::Set(elements.into_iter().collect())
    }

    /// A set holding an element for each of these (each element matched once).
    pub fn set_partial(elements: impl IntoIterator<Item = Expect>) -> Expect {
        Expect::SetPartial(elements.into_iter().collect())
    }

    /// A collection or object of `n` elements or attributes.
    pub fn size(n: usize) -> Expect {
        Expect::Size(n)
    }

    /// A map (or object) of exactly these keys.
    pub fn map<K: Into<String>>(entries: impl IntoIterator<Item = (K, Expect)>) -> Expect {
        Expect::Map(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// A map (or object) with at least these keys.
    pub fn map_partial<K: Into<String>>(entries: impl IntoIterator<Item = (K, Expect)>) -> Expect {
        Expect::MapPartial(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// An object of exactly these attributes (the same check as [`Expect::map`]: the
    /// documents do not tell the two apart).
    pub fn object<K: Into<String>>(attributes: impl IntoIterator<Item = (K, Expect)>) -> Expect {
        Expect::map(attributes)
    }

    /// An object with at least these attributes.
    pub fn object_partial<K: Into<String>>(
        attributes: impl IntoIterator<Item = (K, Expect)>,
    ) -> Expect {
        Expect::map_partial(attributes)
    }

    /// Checks `value`; the error names the path below `value` where it differs.
    pub fn check(&self, value: &Value) -> Result<(), Mismatch> {
        self.check_at(value, &mut String::new())
    }

    fn check_at(&self, value: &Value, at: &mut String) -> Result<(), Mismatch> {
        let value = value.untyped();
        let fail = |at: &String| {
            Err(Mismatch {
                path: at.clone(),
                expected: self.to_string(),
                found: show(value),
            })
        };
        if value.is_unknown() {
            return fail(at);
        }
        match self {
            Expect::String(s) => match value.as_str() {
                Some(v) if v == s => Ok(()),
                _ => fail(at),
            },
            Expect::Regex(re) => match value.as_str() {
                Some(v) if re.is_match(v) => Ok(()),
                _ => fail(at),
            },
            Expect::Number(n) => match value.as_number() {
                Some(v) if v == n => Ok(()),
                _ => fail(at),
            },
            Expect::Bool(b) => match value.as_bool() {
                Some(v) if v == *b => Ok(()),
                _ => fail(at),
            },
            Expect::Null if value.is_null() => Ok(()),
            Expect::NotNull if !value.is_null() => Ok(()),
            Expect::Null | Expect::NotNull => fail(at),
            Expect::Size(n) => match value.len() {
                Some(len) if len == *n => Ok(()),
                _ => fail(at),
            },
            Expect::List(items) => {
                let Some(elements) = sequence(value).filter(|e| e.len() == items.len()) else {
                    return fail(at);
                };
                if matches!(value, Value::Set(_)) {
                    return match_unordered(items, &elements, true).or_else(|()| fail(at));
                }
                for (i, (want, got)) in items.iter().zip(elements).enumerate() {
                    descend(at, &format!("[{i}]"), |at| want.check_at(got, at))?;
                }
                Ok(())
            }
            Expect::ListPartial(items) => {
                let Some(elements) = sequence(value) else {
                    return fail(at);
                };
                for (i, want) in items {
                    let Some(got) = elements.get(*i) else {
                        return fail(at);
                    };
                    descend(at, &format!("[{i}]"), |at| want.check_at(got, at))?;
                }
                Ok(())
            }
            Expect::Set(items) | Expect::SetPartial(items) => {
                let exact = matches!(self, Expect::Set(_));
                match sequence(value) {
                    Some(elements) if !exact || elements.len() == items.len() => {
                        match_unordered(items, &elements, exact).or_else(|()| fail(at))
                    }
                    _ => fail(at),
                }
            }
            Expect::Map(entries) | Expect::MapPartial(entries) => {
                let Some(got) = keyed(value) else {
                    return fail(at);
                };
                if matches!(self, Expect::Map(_))
                    && (got.len() != entries.len() || got.keys().any(|k| !entries.contains_key(*k)))
                {
                    return fail(at);
                }
                for (key, want) in entries {
                    let Some(v) = got.get(key.as_str()) else {
                        return fail(at);
                    };
                    descend(at, &step(key), |at| want.check_at(v, at))?;
                }
                Ok(())
            }
        }
    }
}

/// Checks `f` with `step` appended to the path `at`, and takes it off again.
fn descend(
    at: &mut String,
    step: &str,
    f: impl FnOnce(&mut String) -> Result<(), Mismatch>,
) -> Result<(), Mismatch> {
    let len = at.len();
    at.push_str(step);
    let result = f(at);
    at.truncate(len);
    result
}

/// The path step to a map key or attribute, as Terraform writes paths.
fn step(key: &str) -> String {
    let plain = !key.is_empty()
        && !key.starts_with(|c: char| c.is_ascii_digit())
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if plain {
        format!(".{key}")
    } else {
        format!("[{}]", serde_json::Value::from(key))
    }
}

/// Whether each expectation matches a distinct element (all elements, when `exact`).
fn match_unordered(items: &[Expect], elements: &[&Value], exact: bool) -> Result<(), ()> {
    // Augmenting paths over the bipartite graph of expectations and elements: sets in
    // tests are small, and a greedy match could miss an assignment that exists.
    let fits: Vec<Vec<usize>> = items
        .iter()
        .map(|want| {
            (0..elements.len())
                .filter(|&j| want.check(elements[j]).is_ok())
                .collect()
        })
        .collect();
    let mut owner: Vec<Option<usize>> = vec![None; elements.len()];
    fn augment(
        i: usize,
        fits: &[Vec<usize>],
        owner: &mut [Option<usize>],
        seen: &mut [bool],
    ) -> bool {
        for &j in &fits[i] {
            if !seen[j] {
                seen[j] = true;
                if owner[j].is_none_or(|k| augment(k, fits, owner, seen)) {
                    owner[j] = Some(i);
                    return true;
                }
            }
        }
        false
    }
    for i in 0..items.len() {
        let mut seen = vec![false; elements.len()];
        if !augment(i, &fits, &mut owner, &mut seen) {
            return Err(());
        }
    }
    if exact && owner.iter().any(Option::is_none) {
        return Err(());
    }
    Ok(())
}

fn sequence(value: &Value) -> Option<Vec<&Value>> {
    match value {
        Value::List(items) | Value::Tuple(items) => Some(items.iter().collect()),
        Value::Set(set) => Some(set.iter().collect()),
        _ => None,
    }
}

fn keyed(value: &Value) -> Option<BTreeMap<&str, &Value>> {
    match value {
        Value::Map(map) => Some(map.iter().collect()),
        Value::Object(object) => Some(object.iter().collect()),
        _ => None,
    }
}

/// A value as JSON-like text, for messages.
pub(crate) fn show(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value);
    out
}

fn write_value(out: &mut String, value: &Value) {
    let list = |out: &mut String, items: &mut dyn Iterator<Item = &Value>| {
        out.push('[');
        for (i, v) in items.enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write_value(out, v);
        }
        out.push(']');
    };
    let object = |out: &mut String, items: &mut dyn Iterator<Item = (&str, &Value)>| {
        out.push('{');
        for (i, (k, v)) in items.enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&serde_json::Value::from(k).to_string());
            out.push_str(": ");
            write_value(out, v);
        }
        out.push('}');
    };
    match value.untyped() {
        Value::Null => out.push_str("null"),
        Value::Unknown(_) => out.push_str("(known after apply)"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => out.push_str(&serde_json::Value::from(s.as_str()).to_string()),
        Value::List(items) | Value::Tuple(items) => list(out, &mut items.iter()),
        Value::Set(set) => list(out, &mut set.iter()),
        Value::Map(map) => object(out, &mut map.iter()),
        Value::Object(o) => object(out, &mut o.iter()),
        Value::Typed(t) => write_value(out, &t.value),
    }
}

impl fmt::Display for Expect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join = |f: &mut fmt::Formatter<'_>, items: &[Expect]| {
            items.iter().enumerate().try_for_each(|(i, e)| {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{e}")
            })
        };
        let entries = |f: &mut fmt::Formatter<'_>, items: &BTreeMap<String, Expect>, more: bool| {
            f.write_str("{")?;
            for (i, (k, e)) in items.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{}: {e}", serde_json::Value::from(k.as_str()))?;
            }
            f.write_str(if more { ", ...}" } else { "}" })
        };
        match self {
            Expect::String(s) => write!(f, "{}", serde_json::Value::from(s.as_str())),
            Expect::Regex(re) => write!(f, "a string matching /{re}/"),
            Expect::Number(n) => write!(f, "{n}"),
            Expect::Bool(b) => write!(f, "{b}"),
            Expect::Null => f.write_str("null"),
            Expect::NotNull => f.write_str("a value that is not null"),
            Expect::List(items) => {
                f.write_str("[")?;
                join(f, items)?;
                f.write_str("]")
            }
            Expect::ListPartial(items) => {
                f.write_str("a list with ")?;
                for (i, (index, e)) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "[{index}] = {e}")?;
                }
                Ok(())
            }
            Expect::Set(items) => {
                f.write_str("a set of exactly [")?;
                join(f, items)?;
                f.write_str("]")
            }
            Expect::SetPartial(items) => {
                f.write_str("a set holding [")?;
                join(f, items)?;
                f.write_str("]")
            }
            Expect::Size(n) => write!(f, "{n} elements"),
            Expect::Map(items) => entries(f, items, false),
            Expect::MapPartial(items) => entries(f, items, true),
        }
    }
}

/// Where and how a value differs from what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The path below the value checked (Terraform's form, `""` for the value itself).
    pub path: String,
    /// What was expected there.
    pub expected: String,
    /// What was found there.
    pub found: String,
}

impl Mismatch {
    /// The same mismatch with the values hidden (the value is sensitive).
    pub(crate) fn hide_values(mut self) -> Mismatch {
        self.expected = "(sensitive value)".into();
        self.found = "(sensitive value)".into();
        self
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        write!(f, "expected {}, found {}", self.expected, self.found)
    }
}

impl std::error::Error for Mismatch {}

#[cfg(test)]
mod tests {
    use super::*;
    use ctywire::tfjson::RawJson;

    fn json(text: &str) -> Value {
        RawJson::new(text).unwrap().decode_implied().unwrap()
    }

    #[test]
    fn scalars_pass_on_right_values_and_name_both_on_wrong_ones() {
        assert!(Expect::string("a").check(&json(r#""a""#)).is_ok());
        assert_eq!(
            Expect::string("a")
                .check(&json(r#""b""#))
                .unwrap_err()
                .to_string(),
            r#"expected "a", found "b""#
        );
        assert!(Expect::number("1e400").check(&json("1e400")).is_ok());
        assert!(Expect::number("12345678901234567890123")
            .check(&json("12345678901234567890124"))
            .is_err());
        assert!(Expect::int(3).check(&json("3.0")).is_ok());
        assert!(Expect::bool(true).check(&json("true")).is_ok());
        assert!(Expect::bool(true).check(&json("false")).is_err());
        assert!(Expect::null().check(&json("null")).is_ok());
        assert_eq!(
            Expect::null().check(&json("1")).unwrap_err().to_string(),
            "expected null, found 1"
        );
        assert!(Expect::not_null().check(&json("null")).is_err());
        assert!(Expect::regex("^thing-")
            .check(&json(r#""thing-a""#))
            .is_ok());
        assert_eq!(
            Expect::regex("^x")
                .check(&json(r#""thing-a""#))
                .unwrap_err()
                .to_string(),
            r#"expected a string matching /^x/, found "thing-a""#
        );
        assert!(Expect::string("1").check(&json("1")).is_err());
    }

    #[test]
    fn collections_exact_partial_and_sized() {
        let v =
            json(r#"{"l": [1, 2], "m": {"a": "x", "b": "y"}, "o": {"k": [{"n": 1}, {"n": 2}]}}"#);
        assert!(
            Expect::object_partial([("l", Expect::list([Expect::int(1), Expect::int(2)]))])
                .check(&v)
                .is_ok()
        );
        let err = Expect::object_partial([("l", Expect::list([Expect::int(1), Expect::int(3)]))])
            .check(&v)
            .unwrap_err();
        assert_eq!(err.to_string(), ".l[1]: expected 3, found 2");
        assert!(
            Expect::object_partial([("l", Expect::list_partial([(1, Expect::int(2))]))])
                .check(&v)
                .is_ok()
        );
        assert!(
            Expect::object_partial([("l", Expect::list_partial([(5, Expect::int(2))]))])
                .check(&v)
                .is_err()
        );
        assert!(
            Expect::object_partial([("l", Expect::set([Expect::int(2), Expect::int(1)]))])
                .check(&v)
                .is_ok()
        );
        assert!(
            Expect::object_partial([("l", Expect::set([Expect::int(2)]))])
                .check(&v)
                .is_err()
        );
        assert!(
            Expect::object_partial([("l", Expect::set_partial([Expect::int(2)]))])
                .check(&v)
                .is_ok()
        );
        assert!(Expect::object_partial([(
            "l",
            Expect::set_partial([Expect::int(2), Expect::int(2)])
        )])
        .check(&v)
        .is_err());
        assert!(
            Expect::object_partial([("m", Expect::size(2)), ("l", Expect::size(2))])
                .check(&v)
                .is_ok()
        );
        assert!(Expect::object_partial([("m", Expect::size(3))])
            .check(&v)
            .is_err());
        assert!(Expect::object_partial([(
            "m",
            Expect::map([("a", Expect::string("x")), ("b", Expect::string("y"))])
        )])
        .check(&v)
        .is_ok());
        assert_eq!(
            Expect::object_partial([("m", Expect::map([("a", Expect::string("x"))]))])
                .check(&v)
                .unwrap_err()
                .to_string(),
            r#".m: expected {"a": "x"}, found {"a": "x", "b": "y"}"#
        );
        assert!(
            Expect::object_partial([("m", Expect::map_partial([("a", Expect::string("x"))]))])
                .check(&v)
                .is_ok()
        );
        let err = Expect::object_partial([(
            "o",
            Expect::object([(
                "k",
                Expect::list_partial([(1, Expect::object([("n", Expect::int(3))]))]),
            )]),
        )])
        .check(&v)
        .unwrap_err();
        assert_eq!(err.to_string(), ".o.k[1].n: expected 3, found 2");
    }

    #[test]
    fn unordered_matching_finds_an_assignment_a_greedy_one_misses() {
        // The first expectation fits both elements, the second only the first.
        let v = json(r#"["ab", "a"]"#);
        let items = [Expect::regex("a"), Expect::string("ab")];
        assert!(Expect::set(items).check(&v).is_ok());
    }

    #[test]
    fn keys_that_are_not_names_are_quoted() {
        let v = json(r#"{"a b": 1}"#);
        assert_eq!(
            Expect::map([("a b", Expect::int(2))])
                .check(&v)
                .unwrap_err()
                .path,
            r#"["a b"]"#
        );
    }
}

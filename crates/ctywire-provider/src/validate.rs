//! Validation by declaration: what a configuration's struct declares
//! ([`ctywire::object::Validators`]) and what its Rust types can hold
//! ([`ctywire::object::FieldType::check_value`]), applied to a configuration that may
//! not be wholly known yet. Unknown values are not checked (Terraform validates again
//! once they are known); every refusal is at its attribute's path (a list element by
//! index, a map element by key, a set element by its value); no message prints a
//! configuration value.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use ctywire::object::{FieldType, Invalid, Object, Rule, Validator};
use ctywire::{Path, Value};

use crate::Diagnostic;

/// The summary of every refusal by a declared rule.
const SUMMARY: &str = "Invalid attribute value";

/// What is wrong with `config`, a value of `T`'s type: the values `T`'s fields cannot
/// hold, then the rules `T` declares; what the server answers a `Validate*Config` call
/// with (before it decodes a wholly known configuration into `T`). See the crate
/// documentation for an example.
pub fn check<T: Object + FieldType>(config: &Value) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    if config.is_null() || config.is_unknown() {
        return Vec::new();
    }
    T::check_value(config, &Path::root(), &mut found);
    for validator in &T::validators().0 {
        apply(validator, config, &mut found);
    }
    found
        .into_iter()
        .map(|i| Diagnostic::error(i.summary, i.detail).at(i.path))
        .collect()
}

/// The known objects that hold the attribute `names` ends with, from `value` at `at`
/// (through list, set and map elements).
fn holders<'v>(value: &'v Value, names: &[String], at: Path, out: &mut Vec<(Path, &'v Value)>) {
    let value = value.untyped();
    if value.is_null() || value.is_unknown() {
        return;
    }
    match value {
        Value::List(elements) | Value::Tuple(elements) => {
            for (i, e) in elements.iter().enumerate() {
                holders(e, names, at.clone().index(i as u64), out);
            }
        }
        Value::Set(set) => {
            for e in set.iter() {
                holders(e, names, at.clone().element(e.clone()), out);
            }
        }
        Value::Map(map) => {
            for (k, e) in map.iter() {
                holders(e, names, at.clone().key(k), out);
            }
        }
        Value::Object(_) => match names {
            [] | [_] => out.push((at, value)),
            [first, rest @ ..] => {
                if let Some(inner) = value.get(first) {
                    holders(inner, rest, at.attribute(first.as_str()), out);
                }
            }
        },
        _ => {}
    }
}

fn apply(validator: &Validator, config: &Value, out: &mut Vec<Invalid>) {
    let Some(name) = validator.names.last() else {
        return;
    };
    let mut objects = Vec::new();
    holders(config, &validator.names, Path::root(), &mut objects);
    for (at, object) in objects {
        let value = object.get(name).unwrap_or(&Value::Null);
        let path = at.attribute(name.as_str());
        if let Some(detail) = refuse(&validator.rule, name, value, object) {
            out.push(Invalid::new(path, SUMMARY, detail));
        }
    }
}

/// Whether an attribute is set, when that is known.
fn is_set(value: &Value) -> Option<bool> {
    if value.is_unknown() {
        return None;
    }
    Some(!value.is_null())
}

fn list(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Why `rule` refuses `value` (the attribute `name` of `object`), if it does.
fn refuse(rule: &Rule, name: &str, value: &Value, object: &Value) -> Option<String> {
    let value = value.untyped();
    let sibling = |n: &String| object.get(n).unwrap_or(&Value::Null);
    match rule {
        Rule::ConflictsWith(others) => {
            if is_set(value)? {
                let mut set = Vec::new();
                for other in others {
                    if is_set(sibling(other))? {
                        set.push(other.clone());
                    }
                }
                if !set.is_empty() {
                    return Some(format!(
                        "`{name}` cannot be set together with {}.",
                        list(&set).replace(" or ", " and ")
                    ));
                }
            }
            None
        }
        Rule::AlsoRequires(others) => {
            if is_set(value)? {
                let mut missing = Vec::new();
                for other in others {
                    if !is_set(sibling(other))? {
                        missing.push(other.clone());
                    }
                }
                if !missing.is_empty() {
                    return Some(format!(
                        "`{name}` needs {} set too.",
                        list(&missing).replace(" or ", " and ")
                    ));
                }
            }
            None
        }
        Rule::ExactlyOneOf(others) | Rule::AtLeastOneOf(others) => {
            let mut all = vec![name.to_owned()];
            all.extend(others.iter().cloned());
            let mut count = 0;
            for n in &all {
                if is_set(object.get(n).unwrap_or(&Value::Null))? {
                    count += 1;
                }
            }
            match rule {
                Rule::ExactlyOneOf(_) if count != 1 => Some(format!(
                    "Exactly one of {} must be set; {count} are.",
                    list(&all)
                )),
                Rule::AtLeastOneOf(_) if count == 0 => {
                    Some(format!("At least one of {} must be set.", list(&all)))
                }
                _ => None,
            }
        }
        _ if value.is_null() || !value.is_wholly_known() => None,
        Rule::Length { min, max } => {
            let Value::String(s) = value else { return None };
            let n = s.as_str().chars().count() as u64;
            (min.is_some_and(|m| n < m) || max.is_some_and(|m| n > m)).then(|| {
                format!(
                    "The string's length in characters must be {}.",
                    bounds(min, max)
                )
            })
        }
        Rule::Size { min, max } => {
            let n = value.len()? as u64;
            (min.is_some_and(|m| n < m) || max.is_some_and(|m| n > m))
                .then(|| format!("The number of elements must be {}.", bounds(min, max)))
        }
        Rule::Range { min, max } => {
            let Value::Number(n) = value else { return None };
            let below = min.as_ref().is_some_and(|m| n.cmp_numeric(m).is_lt());
            let above = max.as_ref().is_some_and(|m| n.cmp_numeric(m).is_gt());
            (below || above).then(|| format!("The number must be {}.", bounds(min, max)))
        }
        Rule::Pattern(pattern) => {
            let Value::String(s) = value else { return None };
            (!matches_pattern(pattern, s.as_str()))
                .then(|| format!("The string must match the regular expression {pattern:?}."))
        }
        Rule::OneOf(allowed) => {
            let found = allowed.iter().any(|a| match (a, value) {
                (Value::Number(a), Value::Number(v)) => a.cmp_numeric(v).is_eq(),
                (a, v) => a == v,
            });
            let shown: Vec<String> = allowed.iter().map(show).collect();
            (!found).then(|| format!("The value must be one of {}.", shown.join(", ")))
        }
        Rule::Custom(check) => check(value).err(),
    }
}

/// A declared value as the configuration writes it.
fn show(value: &Value) -> String {
    match value {
        Value::String(s) => format!("{:?}", s.as_str()),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => "a value".to_owned(),
    }
}

fn bounds<T: std::fmt::Display>(min: &Option<T>, max: &Option<T>) -> String {
    match (min, max) {
        (Some(a), Some(b)) => format!("from {a} to {b}"),
        (Some(a), None) => format!("at least {a}"),
        (None, Some(b)) => format!("at most {b}"),
        (None, None) => "anything".to_owned(),
    }
}

/// Whether `text` matches `pattern`, each pattern compiled once.
fn matches_pattern(pattern: &'static str, text: &str) -> bool {
    static COMPILED: OnceLock<Mutex<HashMap<&'static str, Option<regex::Regex>>>> = OnceLock::new();
    let Ok(mut compiled) = COMPILED.get_or_init(Mutex::default).lock() else {
        return true;
    };
    let re = compiled
        .entry(pattern)
        .or_insert_with(|| regex::Regex::new(pattern).ok());
    // The derive checked the pattern's syntax; one the regex crate still refuses (too
    // large) refuses nothing.
    re.as_ref().is_none_or(|re| re.is_match(text))
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use super::*;
    use ctywire::Known;

    #[derive(ctywire::Object)]
    struct Server {
        #[cty(required, length(min = 3, max = 8), regex = "^[a-z-]+$")]
        name: String,
        #[cty(optional, one_of("small", "large"))]
        tier: Option<String>,
        #[cty(optional, range(min = 1, max = 10))]
        count: Option<f64>,
        #[cty(optional, conflicts_with(socket), also_requires(host))]
        port: Option<u16>,
        #[cty(optional, exactly_one_of(host))]
        socket: Option<String>,
        #[cty(optional)]
        host: Option<String>,
        #[cty(optional, size(max = 2), validate = no_admin)]
        tags: Option<BTreeMap<String, String>>,
        #[cty(optional, sensitive, length(min = 12))]
        password: Option<String>,
        #[cty(optional)]
        ports: Option<BTreeSet<u8>>,
        #[cty(computed)]
        id: Known<String>,
        #[cty(block)]
        disk: Vec<Disk>,
    }

    #[derive(ctywire::Object)]
    struct Disk {
        #[cty(required, at_least_one_of(label))]
        size: Option<u16>,
        #[cty(optional)]
        label: Option<String>,
    }

    fn no_admin(tags: &Option<BTreeMap<String, String>>) -> Result<(), String> {
        match tags {
            Some(t) if t.contains_key("admin") => Err("the tag `admin` is reserved".into()),
            _ => Ok(()),
        }
    }

    /// A valid server, with `changes` made.
    fn server(changes: &[(&str, Value)]) -> Value {
        let mut v = Value::object([
            ("name", Value::from("web-a")),
            ("tier", Value::Null),
            ("count", Value::Null),
            ("port", Value::Null),
            ("socket", Value::from("/run/s")),
            ("host", Value::Null),
            ("tags", Value::Null),
            ("password", Value::Null),
            ("ports", Value::Null),
            ("id", Value::Null),
            ("disk", Value::list(Vec::<Value>::new())),
        ]);
        for (name, value) in changes {
            v = v.with_attribute(name, value.clone()).unwrap();
        }
        v
    }

    /// The refusals' paths and details.
    fn refused(changes: &[(&str, Value)]) -> Vec<(String, String)> {
        check::<Server>(&server(changes))
            .into_iter()
            .map(|d| (d.path.to_string(), d.detail))
            .collect()
    }

    fn paths(changes: &[(&str, Value)]) -> Vec<String> {
        refused(changes).into_iter().map(|(p, _)| p).collect()
    }

    #[test]
    fn a_valid_configuration_passes() {
        assert_eq!(refused(&[]), []);
    }

    #[test]
    fn strings_by_length_pattern_and_list() {
        assert_eq!(paths(&[("name", Value::from("ab"))]), [".name"]);
        assert_eq!(paths(&[("name", Value::from("abcdefghi"))]), [".name"]);
        // Characters, not bytes.
        assert_eq!(paths(&[("name", Value::from("ééééé"))]), [".name"]);
        assert_eq!(paths(&[("name", Value::from("Web-A"))]), [".name"]);
        assert_eq!(paths(&[("tier", Value::from("huge"))]), [".tier"]);
        assert_eq!(
            paths(&[("tier", Value::from("large"))]),
            Vec::<String>::new()
        );
        let (_, detail) = &refused(&[("tier", Value::from("huge"))])[0];
        assert_eq!(detail, "The value must be one of \"small\", \"large\".");
    }

    #[test]
    fn numbers_by_range_and_by_their_rust_type() {
        assert_eq!(paths(&[("count", Value::from(11))]), [".count"]);
        assert_eq!(paths(&[("count", Value::from(10))]), Vec::<String>::new());
        let half = Value::from(ctywire::Number::parse("22.5").unwrap());
        let with_port = |port: Value| {
            refused(&[
                ("port", port),
                ("socket", Value::Null),
                ("host", Value::from("h")),
            ])
        };
        let found = with_port(half.clone());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, ".port");
        assert_eq!(
            found[0].1,
            "expected u16 (an integer from 0 to 65535), found a fraction"
        );
        assert_eq!(with_port(Value::from(70000)).len(), 1);
        assert_eq!(with_port(Value::from(-1)).len(), 1);
        assert_eq!(with_port(Value::from(22)), []);
        // The footgun: with another attribute unknown, the struct cannot be
        // decoded, and 22.5 still does not pass.
        let config = server(&[
            ("port", half),
            ("socket", Value::Null),
            ("host", Value::from("h")),
            ("name", Value::unknown()),
        ]);
        let found: Vec<String> = check::<Server>(&config)
            .iter()
            .map(|d| d.path.to_string())
            .collect();
        assert_eq!(found, [".port"]);
    }

    #[test]
    fn elements_are_refused_at_their_paths() {
        let ports = Value::set([Value::from(22), Value::from(300)]);
        assert_eq!(paths(&[("ports", ports)]), [".ports[300]"]);
        let disks = Value::list([
            Value::object([("size", Value::from(1)), ("label", Value::Null)]),
            Value::object([("size", Value::Null), ("label", Value::Null)]),
            Value::object([
                ("size", Value::from(ctywire::Number::parse("1.5").unwrap())),
                ("label", Value::Null),
            ]),
        ]);
        // What a u16 cannot hold first, then the declared rules.
        assert_eq!(
            paths(&[("disk", disks)]),
            [".disk[2].size", ".disk[1].size"]
        );
        let tags = Value::map([
            ("a", Value::from("1")),
            ("b", Value::from("2")),
            ("c", Value::from("3")),
        ]);
        assert_eq!(paths(&[("tags", tags)]), [".tags"]);
        let admin = Value::map([("admin", Value::from("1"))]);
        assert_eq!(
            refused(&[("tags", admin)]),
            [(".tags".to_owned(), "the tag `admin` is reserved".to_owned())]
        );
    }

    #[test]
    fn attributes_by_the_others_set_beside_them() {
        // port conflicts with socket, and needs host.
        let found = paths(&[("port", Value::from(22))]);
        assert_eq!(found, [".port", ".port"]);
        // exactly one of socket and host.
        assert_eq!(paths(&[("socket", Value::Null)]), [".socket"]);
        assert_eq!(paths(&[("host", Value::from("h"))]), [".socket"]);
        assert_eq!(
            paths(&[("socket", Value::Null), ("host", Value::from("h"))]),
            Vec::<String>::new()
        );
        // An unknown one may be either: nothing to say yet.
        assert_eq!(paths(&[("host", Value::unknown())]), Vec::<String>::new());
        assert_eq!(
            paths(&[
                ("port", Value::from(22)),
                ("socket", Value::unknown()),
                ("host", Value::unknown())
            ]),
            Vec::<String>::new()
        );
    }

    #[test]
    fn unknown_values_are_not_checked() {
        for name in ["name", "tier", "count", "tags", "password", "ports"] {
            assert_eq!(
                paths(&[(name, Value::unknown())]),
                Vec::<String>::new(),
                "{name}"
            );
        }
        assert!(check::<Server>(&Value::unknown()).is_empty());
    }

    #[test]
    fn no_message_prints_the_value() {
        let secret = "hunter2";
        let found = check::<Server>(&server(&[("password", Value::from(secret))]));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].path.to_string(), ".password");
        assert!(!format!("{found:?}").contains(secret));
    }
}

//! The change Terraform's plan renderer works on: the values before and after as plain
//! JSON (as `terraform show -json` writes a plan), with trees saying which parts are
//! unknown and which are sensitive, and the paths that force a replacement.

use std::collections::BTreeMap;

use crate::path::{Path, PathStep};
use crate::schema::Attribute;
use crate::types::Type;
use crate::value::Value;

/// A JSON value, numbers as their text (Go's `json.Number`), so that equality is
/// Terraform's `reflect.DeepEqual` of decoded JSON. Hashable, so that the elements of
/// sets and lists are matched up by hashing rather than by comparing every pair.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum J {
    Null,
    Bool(bool),
    Number(String),
    String(String),
    Array(Vec<J>),
    Object(BTreeMap<String, J>),
}

pub(super) static NULL: J = J::Null;
static FALSE: J = J::Bool(false);
static TRUE: J = J::Bool(true);

impl J {
    fn object(&self) -> Option<&BTreeMap<String, J>> {
        match self {
            J::Object(m) => Some(m),
            _ => None,
        }
    }

    fn array(&self) -> Option<&[J]> {
        match self {
            J::Array(a) => Some(a),
            _ => None,
        }
    }

    fn is_null(&self) -> bool {
        matches!(self, J::Null)
    }

    /// Parses JSON text, numbers kept as written; `None` when it is not one JSON value
    /// or nests deeper than [`MAX_DEPTH`](crate::limits::MAX_DEPTH) (the renderer then
    /// shows it as a plain string).
    pub(super) fn parse(text: &str) -> Option<J> {
        let mut r = crate::token::json_read::Reader::new(text.as_bytes());
        let v = read_json(&mut r, 1).ok()?;
        r.finish().ok()?;
        Some(v)
    }
}

/// Reads one JSON value inside `depth - 1` arrays and objects: at most
/// [`MAX_DEPTH`](crate::limits::MAX_DEPTH) of them, as the JSON reader allows.
fn read_json(r: &mut crate::token::json_read::Reader<'_>, depth: usize) -> crate::Result<J> {
    use crate::token::json_read::Kind;
    Ok(match r.peek_kind()? {
        Kind::Null => {
            r.read_null()?;
            J::Null
        }
        Kind::Bool => J::Bool(r.read_bool()?),
        Kind::Number => J::Number(r.read_number()?.to_owned()),
        Kind::String => J::String(r.read_string()?.into_owned()),
        Kind::Array => {
            crate::limits::check_depth(depth, "JSON")?;
            r.begin_array()?;
            let mut items = Vec::new();
            while r.next_element()? {
                items.push(read_json(r, depth + 1)?);
            }
            J::Array(items)
        }
        Kind::Object => {
            crate::limits::check_depth(depth, "JSON")?;
            r.begin_object()?;
            let mut members = BTreeMap::new();
            while let Some(key) = r.next_key()? {
                let key = key.into_owned();
                members.insert(key, read_json(r, depth + 1)?);
            }
            J::Object(members)
        }
    })
}

/// The JSON of a value as jsonplan writes it: unknowns left out (null in a sequence,
/// absent from an object, null for a wholly unknown value), numbers as go-cty's text.
pub(super) fn to_json(value: &Value) -> J {
    match value.untyped() {
        Value::Null | Value::Unknown(_) => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Number(n) => J::Number(n.to_string()),
        Value::String(s) => J::String(s.to_string()),
        Value::List(vs) | Value::Tuple(vs) => J::Array(vs.iter().map(to_json).collect()),
        Value::Set(s) => J::Array(s.iter().map(to_json).collect()),
        Value::Map(m) => J::Object(
            m.iter()
                .filter(|(_, v)| !v.is_unknown())
                .map(|(k, v)| (k.to_owned(), to_json(v)))
                .collect(),
        ),
        Value::Object(o) => J::Object(
            o.iter()
                .filter(|(_, v)| !v.is_unknown())
                .map(|(k, v)| (k.to_owned(), to_json(v)))
                .collect(),
        ),
        Value::Typed(_) => unreachable!("untyped() removes wrappers"),
    }
}

/// jsonplan's `after_unknown`: `true` where the value is unknown; known sequences and
/// structures hold their elements' trees (objects leave out the known ones). A wholly
/// known value is `{}`. An unknown with refinements holds their description instead of
/// `true` (JSON plans have no refinements; this crate shows them).
pub(super) fn unknown_tree(value: &Value) -> J {
    if value.is_wholly_known() {
        return J::Object(BTreeMap::new());
    }
    unknown_as_bool(value)
}

fn unknown_as_bool(value: &Value) -> J {
    match value.untyped() {
        Value::Unknown(r) if r.is_empty() => J::Bool(true),
        Value::Unknown(r) => J::String(r.describe().join(", ")),
        Value::List(vs) | Value::Tuple(vs) => J::Array(vs.iter().map(unknown_as_bool).collect()),
        Value::Set(s) => J::Array(s.iter().map(unknown_as_bool).collect()),
        Value::Map(m) => J::Object(
            m.iter()
                .map(|(k, v)| (k.to_owned(), unknown_as_bool(v)))
                .filter(|(_, t)| *t != J::Bool(false))
                .collect(),
        ),
        Value::Object(o) => J::Object(
            o.iter()
                .map(|(k, v)| (k.to_owned(), unknown_as_bool(v)))
                .filter(|(_, t)| *t != J::Bool(false))
                .collect(),
        ),
        _ => J::Bool(false),
    }
}

/// jsonplan's `before_sensitive` / `after_sensitive` (Terraform's `SensitiveAsBool` of
/// the value marked at `sensitive`): `true` at a sensitive value; known sequences and
/// structures hold their elements' trees (objects leave out the `false` ones).
pub(super) fn sensitive_tree(value: &Value, ty: &Type, sensitive: &[Path]) -> J {
    sensitive_as_bool(value, ty, &mut Vec::new(), sensitive)
}

fn sensitive_as_bool(value: &Value, ty: &Type, path: &mut Vec<PathStep>, sensitive: &[Path]) -> J {
    if sensitive.iter().any(|p| p.steps() == path.as_slice()) {
        return J::Bool(true);
    }
    let (v, ty) = crate::schema::plan::concrete_view(value, ty);
    let element = |i: usize| match &ty {
        Type::Tuple(ts) => ts.get(i).cloned().unwrap_or(Type::Dynamic),
        t => t.element_type().cloned().unwrap_or(Type::Dynamic),
    };
    if v.is_null() {
        return J::Bool(false);
    }
    match (&ty, v) {
        (Type::List(_) | Type::Set(_) | Type::Tuple(_), Value::Unknown(_)) => J::Array(Vec::new()),
        (Type::Map(_) | Type::Object(_), Value::Unknown(_)) => J::Object(BTreeMap::new()),
        (_, Value::List(vs) | Value::Tuple(vs)) => J::Array(
            vs.iter()
                .enumerate()
                .map(|(i, e)| {
                    child(path, PathStep::Index(i as u64), |p| {
                        sensitive_as_bool(e, &element(i), p, sensitive)
                    })
                })
                .collect(),
        ),
        (_, Value::Set(s)) => J::Array(
            s.iter()
                .enumerate()
                .map(|(i, e)| {
                    child(path, PathStep::Index(i as u64), |p| {
                        sensitive_as_bool(e, &element(0), p, sensitive)
                    })
                })
                .collect(),
        ),
        (_, Value::Map(m)) => J::Object(
            m.iter()
                .map(|(k, e)| {
                    let t = child(path, PathStep::Key(k.to_owned()), |p| {
                        sensitive_as_bool(e, &element(0), p, sensitive)
                    });
                    (k.to_owned(), t)
                })
                .filter(|(_, t)| *t != J::Bool(false))
                .collect(),
        ),
        (_, Value::Object(o)) => J::Object(
            o.iter()
                .map(|(k, e)| {
                    let at = ty
                        .as_object()
                        .and_then(|ot| ot.attribute(k))
                        .cloned()
                        .unwrap_or(Type::Dynamic);
                    let t = child(path, PathStep::Attribute(k.to_owned()), |p| {
                        sensitive_as_bool(e, &at, p, sensitive)
                    });
                    (k.to_owned(), t)
                })
                .filter(|(_, t)| *t != J::Bool(false))
                .collect(),
        ),
        _ => J::Bool(false),
    }
}

fn child(path: &mut Vec<PathStep>, step: PathStep, f: impl FnOnce(&mut Vec<PathStep>) -> J) -> J {
    path.push(step);
    let out = f(path);
    path.pop();
    out
}

/// An unknown or sensitive tree: a JSON tree, or (for the value before an unknown
/// block or nested object) "every attribute of this schema", so that they show as
/// computed rather than removed.
#[derive(Clone, Copy)]
pub(super) enum Tree<'a> {
    J(&'a J),
    Attributes(&'a BTreeMap<String, Attribute>),
}

impl<'a> Tree<'a> {
    pub(super) const NULL: Tree<'static> = Tree::J(&NULL);
    pub(super) const FALSE: Tree<'static> = Tree::J(&FALSE);

    /// Whether the tree marks this value (`true`, or for unknowns the description of
    /// their refinements).
    pub(super) fn is_true(self) -> bool {
        matches!(self, Tree::J(J::Bool(true) | J::String(_)))
    }

    /// The description of an unknown's refinements (`not null, prefix "i-"`).
    pub(super) fn refinements(self) -> Option<&'a str> {
        match self {
            Tree::J(J::String(s)) => Some(s),
            _ => None,
        }
    }

    fn key(self, key: &str) -> Tree<'a> {
        match self {
            Tree::J(J::Object(m)) => m.get(key).map_or(Tree::NULL, Tree::J),
            Tree::Attributes(names) if names.contains_key(key) => Tree::J(&TRUE),
            _ => Tree::NULL,
        }
    }

    fn index(self, i: usize) -> Tree<'a> {
        match self {
            Tree::J(J::Array(a)) => a.get(i).map_or(Tree::NULL, Tree::J),
            _ => Tree::NULL,
        }
    }

    fn keys(self) -> Vec<&'a str> {
        match self {
            Tree::J(J::Object(m)) => m.keys().map(String::as_str).collect(),
            Tree::Attributes(names) => names.keys().map(String::as_str).collect(),
            _ => Vec::new(),
        }
    }
}

/// The paths that force a replacement, from where the renderer is (Terraform's
/// `attribute_path.PathMatcher`, without propagation): attribute names and map keys
/// alike match a key, indexes an index.
#[derive(Clone, Default)]
pub(super) struct Matcher<'a> {
    paths: Vec<&'a [PathStep]>,
}

impl<'a> Matcher<'a> {
    pub(super) fn new(paths: &'a [Path]) -> Matcher<'a> {
        Matcher {
            paths: paths.iter().map(|p| p.steps()).collect(),
        }
    }

    /// Whether a path ends here.
    pub(super) fn matches(&self) -> bool {
        self.paths.iter().any(|p| p.is_empty())
    }

    fn key(&self, key: &str) -> Matcher<'a> {
        let paths = self
            .paths
            .iter()
            .filter_map(|p| match p.split_first() {
                Some((PathStep::Attribute(n) | PathStep::Key(n), rest)) if n == key => Some(rest),
                _ => None,
            })
            .collect();
        Matcher { paths }
    }

    fn index(&self, i: usize) -> Matcher<'a> {
        let paths = self
            .paths
            .iter()
            .filter_map(|p| match p.split_first() {
                Some((PathStep::Index(n), rest)) if *n == i as u64 => Some(rest),
                Some((PathStep::Attribute(n) | PathStep::Key(n), rest))
                    if n.parse::<f64>().is_ok_and(|f| f as i64 == i as i64) =>
                {
                    Some(rest)
                }
                _ => None,
            })
            .collect();
        Matcher { paths }
    }
}

/// The members of a JSON object, when a value is one.
type Members<'a> = Option<&'a BTreeMap<String, J>>;

/// One value's change (Terraform's `structured.Change`): before and after (null when
/// absent, with whether they were there at all), what is unknown and sensitive, and what
/// forces a replacement.
#[derive(Clone)]
pub(super) struct Change<'a> {
    pub(super) before: &'a J,
    pub(super) after: &'a J,
    pub(super) before_explicit: bool,
    pub(super) after_explicit: bool,
    pub(super) unknown: Tree<'a>,
    pub(super) before_sensitive: Tree<'a>,
    pub(super) after_sensitive: Tree<'a>,
    pub(super) replace: Matcher<'a>,
    /// The schema uses what the legacy SDK could not (so empty strings are not nulls).
    pub(super) non_legacy: bool,
}

impl<'a> Change<'a> {
    pub(super) fn is_before_sensitive(&self) -> bool {
        self.before_sensitive.is_true()
    }

    pub(super) fn is_after_sensitive(&self) -> bool {
        self.after_sensitive.is_true()
    }

    pub(super) fn is_unknown(&self) -> bool {
        self.unknown.is_true()
    }

    /// Terraform's `CalculateAction`.
    pub(super) fn action(&self) -> super::ChangeAction {
        use super::ChangeAction::*;
        if self.before.is_null()
            && !self.before_explicit
            && (!self.after.is_null() || self.after_explicit)
        {
            return Create;
        }
        if self.after.is_null()
            && !self.after_explicit
            && (!self.before.is_null() || self.before_explicit)
        {
            return Delete;
        }
        if self.before == self.after
            && self.after_explicit == self.before_explicit
            && self.is_after_sensitive() == self.is_before_sensitive()
        {
            return NoOp;
        }
        Update
    }

    /// Terraform's `GetDefaultActionForIteration`: what a collection's own null-ness says,
    /// before its children are compared.
    pub(super) fn default_action(&self) -> super::ChangeAction {
        use super::ChangeAction::*;
        match (self.before.is_null(), self.after.is_null()) {
            (true, true) => NoOp,
            (true, false) => Create,
            (false, true) => Delete,
            (false, false) => NoOp,
        }
    }

    pub(super) fn as_no_op(&self) -> Change<'a> {
        Change {
            after: self.before,
            after_explicit: self.before_explicit,
            unknown: Tree::FALSE,
            after_sensitive: self.before_sensitive,
            ..self.clone()
        }
    }

    pub(super) fn as_delete(&self) -> Change<'a> {
        Change {
            after: &NULL,
            after_explicit: false,
            unknown: Tree::NULL,
            after_sensitive: Tree::NULL,
            ..self.clone()
        }
    }

    pub(super) fn as_create(&self) -> Change<'a> {
        Change {
            before: &NULL,
            before_explicit: false,
            before_sensitive: Tree::NULL,
            ..self.clone()
        }
    }

    /// The change without its sensitivity.
    pub(super) fn unmarked(&self) -> Change<'a> {
        Change {
            before_sensitive: Tree::FALSE,
            after_sensitive: Tree::FALSE,
            ..self.clone()
        }
    }

    /// The change of a map element or object attribute (`ChangeMap.GetChild`).
    pub(super) fn key(&self, key: &str) -> Change<'a> {
        let get = |j: &'a J| j.object().and_then(|m| m.get(key));
        Change {
            before: get(self.before).unwrap_or(&NULL),
            after: get(self.after).unwrap_or(&NULL),
            before_explicit: get(self.before).is_some(),
            after_explicit: get(self.after).is_some(),
            unknown: self.unknown.key(key),
            before_sensitive: self.before_sensitive.key(key),
            after_sensitive: self.after_sensitive.key(key),
            replace: self.replace.key(key),
            non_legacy: self.non_legacy,
        }
    }

    /// The change of an element, at index `b` before and `a` after (out of range:
    /// absent) (`ChangeSlice.GetChild`).
    pub(super) fn index(&self, b: usize, a: usize) -> Change<'a> {
        let get = |j: &'a J, i: usize| j.array().and_then(|s| s.get(i));
        let before = get(self.before, b);
        let most_relevant = if before.is_some() { b } else { a };
        Change {
            before: before.unwrap_or(&NULL),
            after: get(self.after, a).unwrap_or(&NULL),
            before_explicit: before.is_some(),
            after_explicit: get(self.after, a).is_some(),
            unknown: self.unknown.index(a),
            before_sensitive: self.before_sensitive.index(b),
            after_sensitive: self.after_sensitive.index(a),
            replace: self.replace.index(most_relevant),
            non_legacy: self.non_legacy,
        }
    }

    /// The before and after of a map or object, when they are ones.
    pub(super) fn maps(&self) -> (Members<'a>, Members<'a>) {
        (self.before.object(), self.after.object())
    }

    /// The before and after of a sequence, when they are ones.
    pub(super) fn slices(&self) -> (Option<&'a [J]>, Option<&'a [J]>) {
        (self.before.array(), self.after.array())
    }

    /// The keys of before and after (`ExplicitKeys`), in order.
    pub(super) fn explicit_keys(&self) -> Vec<&'a str> {
        let (b, a) = self.maps();
        let mut keys: Vec<&str> = b
            .into_iter()
            .chain(a)
            .flat_map(|m| m.keys().map(String::as_str))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        keys
    }

    /// The keys of before, after and the unknown and sensitive trees (`AllKeys`).
    pub(super) fn all_keys(&self) -> Vec<&'a str> {
        let mut keys = self.explicit_keys();
        keys.extend(self.unknown.keys());
        keys.extend(self.after_sensitive.keys());
        keys.extend(self.before_sensitive.keys());
        keys.sort_unstable();
        keys.dedup();
        keys
    }

    /// The change with `before` and `after` replaced by owned values (a string's JSON).
    pub(super) fn with_values(
        before: &'a J,
        after: &'a J,
        before_explicit: bool,
        after_explicit: bool,
    ) -> Change<'a> {
        Change {
            before,
            after,
            before_explicit,
            after_explicit,
            unknown: Tree::FALSE,
            before_sensitive: Tree::FALSE,
            after_sensitive: Tree::FALSE,
            replace: Matcher::default(),
            non_legacy: true,
        }
    }
}

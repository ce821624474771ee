//! Terraform's JSON plan and state representation: what `terraform show -json` and
//! `tofu show -json` print.
//!
//! In those documents a resource's value is plain JSON (no `{"value":…,"type":…}`
//! wrapper at `dynamic` positions), its unknowns are split out into an `after_unknown`
//! tree and its sensitivity into `before_sensitive` / `after_sensitive` (or
//! `sensitive_values`) trees. This module turns a typed [`Value`] into those three parts
//! and back, exactly as Terraform writes them, and reads whole plan and state documents
//! ([`Plan`], [`State`], [`Document`]) so that a tool can get typed values out of them:
//! resources' values, outputs, identities (typed by the schemas'
//! `resource_identity_schemas`), action invocations' configurations (typed by
//! `action_schemas`). HCP Terraform's redacted plans, whose envelope embeds the provider
//! schemas, read as plans with [`Plan::provider_schemas`] set, so that they type their
//! own values. Terraform's state file itself (`terraform.tfstate`, format version 4),
//! whose attributes are cty JSON or a legacy flatmap, is read by [`StateFile`].
//!
//! ```
//! use ctywire::{tfjson, Path, Type, Value};
//!
//! let ty: Type = "object({id=string, tags=map(string), disk=list(object({size=number, key=string}))})".parse()?;
//! let planned = Value::object([
//!     ("id", Value::unknown()),
//!     ("tags", Value::map([("Name", Value::from("web"))])),
//!     ("disk", Value::list([Value::object([("size", Value::from(10)), ("key", Value::unknown())])])),
//! ]);
//! let sensitive = [Path::root().attribute("disk").at_slice_index(0).attribute("key")];
//!
//! // Value -> "after", "after_unknown", "after_sensitive"
//! let after = tfjson::to_json_value(&planned, &ty)?.unwrap();
//! assert_eq!(after.as_str(), r#"{"disk":[{"size":10}],"tags":{"Name":"web"}}"#);
//! let unknown = tfjson::unknown_tree(&planned);
//! assert_eq!(unknown.to_string(), r#"{"disk":[{"key":true}],"id":true,"tags":{}}"#);
//! let marks = tfjson::sensitive_tree(&sensitive, &planned, &ty);
//! assert_eq!(marks.to_string(), r#"{"disk":[{"key":true}],"tags":{}}"#);
//!
//! // and back
//! let value = tfjson::from_json_value(Some(after.as_str()), Some(&unknown), &ty)?;
//! assert_eq!(value, planned);
//! assert_eq!(tfjson::sensitive_paths(&marks, &ty), sensitive);
//! # Ok::<(), ctywire::Error>(())
//! ```
//!
//! ## The format's rules
//!
//! These follow Terraform's `internal/command/jsonplan` (`omitUnknowns`,
//! `unknownAsBool`, `marshalResourceChange`, `MarshalOutputChanges`,
//! `marshalPlanResources`) and `internal/command/jsonstate` (`SensitiveAsBool`,
//! `marshalAttributeValues`, `MarshalOutputs`):
//!
//! - **Values** ([`to_json_value`]): lists, sets and tuples are arrays, maps and objects
//!   are objects (keys in bytewise order), `dynamic` positions hold their value's plain
//!   JSON. An unknown object attribute or map element is left out; an unknown list, set
//!   or tuple element is written `null` (element order is how it lines up with the
//!   unknown tree); a value that is itself unknown has no JSON at all (`None`), and
//!   Terraform then omits the property (`after`, `values`, an output's `value`).
//! - **Unknown trees** ([`unknown_tree`]): `true` for an unknown value of any type;
//!   `false` for a known primitive or a null; arrays for lists, sets and tuples, with
//!   an entry (even `false`) for each element; objects for maps and objects, with the
//!   `false` entries left out; `[]` and `{}` for empty ones. A resource change whose
//!   `after` is wholly known has `"after_unknown": {}` and an output change `false`
//!   (see [`Change::for_resource`] and [`Change::for_output`]).
//! - **Sensitivity trees** ([`sensitive_tree`]): `true` for a value at a sensitive path
//!   (whatever its type, null and unknown included); `false` for other primitives,
//!   nulls and `dynamic` unknowns; an unknown list, set or tuple gives `[]`, an unknown
//!   map or object `{}`; known collections as for unknown trees, `false` entries left
//!   out of objects only. A set holding a sensitive part anywhere is sensitive as a
//!   whole (cty moves marks from set elements onto the set).
//!
//! ## Trees that do not fit
//!
//! A tree that does not fit its value is an error naming the path, never skipped: an
//! `after_unknown` entry for an attribute the type does not have, a tree deeper than
//! the value, an array longer than its list, a mark inside a null value would each
//! lose an unknown (or a sensitive mark) without a word. [`from_json_value`] checks
//! the unknown tree, [`check_sensitive_tree`] a sensitivity tree, and the typed reads
//! of documents ([`Change::typed_after`], [`Resource::typed_values`], ...) both.
//! What Terraform itself writes fits: `"after_unknown": {}` beside `"after": null` (a
//! deleted object), `[]` and `{}` as the sensitivity of an unknown collection, `false`
//! entries in objects (Terraform 0.12 wrote them; later versions leave them out), and
//! an array of `false` shorter than its set (Terraform 0.12.0-beta2).
//!
//! ## Exact numbers, and the JSON reader
//!
//! Documents are read with this crate's own JSON reader (the one behind [`json::decode`]),
//! not with `serde_json`: numbers keep their exact text, and value sub-trees (`values`,
//! `before`, `after`, outputs' `value`) are kept as [`RawJson`] text and decoded with a
//! type only when asked. The boolean trees are read into [`MarkTree`]s. A document may
//! be UTF-8, with or without a byte-order mark, or UTF-16 with either byte order (what
//! PowerShell's `terraform show -json > plan.json` writes), told by its byte-order mark
//! or by the zero bytes of its first character.
//!
//! ## `dynamic` positions
//!
//! Terraform writes a `dynamic` attribute's value as plain JSON, without its type. Read
//! with a type that has `dynamic` there, the value gets the type go-cty's
//! `json.ImpliedType` gives its JSON (objects are objects, arrays are tuples, `null` is
//! a null of type `dynamic`), with the unknown tree's unknowns at their places (their
//! type is `dynamic`): `{"a":"x"}` with unknown tree `{"b":true}` becomes
//! `object({a=string, b=any})` holding `{a = "x", b = unknown}`. The value is a
//! [`Value::Typed`] holding that type. A list or map lies about such implied types
//! differently than go-cty would (go-cty knew the real element type), so decoding
//! does not insist that a collection of `dynamic` has one element type.
//!
//! [`json::decode`]: crate::json::decode

mod action;
mod fit;
mod plan;
mod read;
mod state;
mod statefile;
mod value;

use std::collections::BTreeMap;
use std::fmt;

pub use crate::address::InstanceKey;
pub use action::{
    ActionInvocation, DeferredActionInvocation, InvokeActionTrigger, LifecycleActionTrigger,
};
pub use plan::{
    Action, Change, ConditionResult, DeferredChange, Importing, Plan, RelevantAttribute,
    ResourceChange,
};
pub use state::{Module, Output, Resource, ResourceMode, State, Values};
pub use statefile::{Instance, StateFile, StateOutput, StateResource};

use crate::error::{Error, ErrorKind, Result};
use crate::path::{Path, PathStep};
use crate::token::json_read::{Kind, Reader};
use crate::types::Type;
use crate::value::Value;

/// The text of one JSON value from a document, kept exactly as written (numbers
/// included), to be decoded with a type when asked.
///
/// ```
/// use ctywire::{tfjson::RawJson, Type};
///
/// let raw = RawJson::new(" {\"size\": 100000000000000000000.5} ")?;
/// assert_eq!(raw.as_str(), "{\"size\": 100000000000000000000.5}");
/// let v = raw.decode(&"object({size=number})".parse()?)?;
/// assert_eq!(v["size"].as_number().unwrap().to_string(), "100000000000000000000.5");
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RawJson(Box<str>);

impl RawJson {
    /// Checks that `text` holds exactly one JSON value (whitespace around it is dropped).
    pub fn new(text: impl AsRef<str>) -> Result<RawJson> {
        let text = text.as_ref();
        let mut r = Reader::new(text.as_bytes());
        let raw = r
            .raw_value()
            .and_then(|raw| r.finish().map(|()| raw))
            .map_err(|e| crate::json::decode::with_line_column(e, text.as_bytes()))?;
        Ok(RawJson(raw_str(raw).into()))
    }

    /// Wraps text already known to be one JSON value.
    pub(crate) fn from_trusted(text: String) -> RawJson {
        RawJson(text.into_boxed_str())
    }

    /// The JSON text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether the text is `null`.
    pub fn is_null(&self) -> bool {
        &*self.0 == "null"
    }

    /// Decodes the value with type `ty`, as Terraform wrote it (plain JSON at `dynamic`
    /// positions): [`from_json_value`] without an unknown tree.
    pub fn decode(&self, ty: &Type) -> Result<Value> {
        from_json_value(Some(&self.0), None, ty)
    }

    /// Decodes the value with the type its JSON implies: objects, tuples, and nulls of
    /// type `dynamic` (see the [module documentation](self)). A non-null value comes
    /// back as a [`Value::Typed`] holding the implied type.
    ///
    /// ```
    /// use ctywire::{tfjson::RawJson, Type};
    /// let v = RawJson::new(r#"{"a": [1, "x"]}"#)?.decode_implied()?;
    /// assert_eq!(v.recorded_type(), Some(&"object({a=tuple([number,string])})".parse::<Type>()?));
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn decode_implied(&self) -> Result<Value> {
        self.decode(&Type::Dynamic)
    }

    /// The value as a `serde_json::Value`. Numbers become `serde_json` numbers, which
    /// (without its `arbitrary_precision` feature) hold only `i64`, `u64` or `f64`, so
    /// digits beyond `f64`'s are lost and a number beyond its range is an error: use
    /// [`decode`](Self::decode) to keep them exact.
    ///
    /// ```
    /// use ctywire::tfjson::RawJson;
    /// assert_eq!(RawJson::new(r#"{"a": [1, "x"]}"#)?.to_serde()?, serde_json::json!({"a": [1, "x"]}));
    /// assert!(RawJson::new("1e400")?.to_serde().is_err());
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn to_serde(&self) -> Result<serde_json::Value> {
        serde_json::from_str(&self.0).map_err(|e| {
            Error::new(ErrorKind::InvalidValue, format!("{e}")).with_position(
                crate::error::Position::LineColumn {
                    line: e.line(),
                    column: e.column(),
                },
            )
        })
    }
}

impl fmt::Display for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RawJson({})", self.0)
    }
}

impl std::str::FromStr for RawJson {
    type Err = Error;

    fn from_str(s: &str) -> Result<RawJson> {
        RawJson::new(s)
    }
}

/// Text of a slice the reader has checked: JSON's structure is ASCII, so a value cut
/// from valid UTF-8 is valid UTF-8.
pub(crate) fn raw_str(raw: &[u8]) -> &str {
    std::str::from_utf8(raw).unwrap_or_default()
}

/// A tree of booleans shaped like a value: `after_unknown`, `before_sensitive`,
/// `after_sensitive`, `sensitive_values`.
///
/// `true` marks a whole value (unknown, or sensitive); arrays stand for lists, sets and
/// tuples, objects for maps and objects. An absent object entry is `false`.
///
/// ```
/// use ctywire::{tfjson::MarkTree, Path};
///
/// let tree: MarkTree = r#"{"disk": [{"key": true}, {}], "tags": {}}"#.parse()?;
/// assert!(tree.is_marked(&Path::parse(".disk[0].key")?));
/// assert!(tree.is_marked(&Path::parse(".disk[0].key.deeper")?));
/// assert!(!tree.is_marked(&Path::parse(".disk[1].key")?));
/// assert_eq!(tree.to_string(), r#"{"disk":[{"key":true},{}],"tags":{}}"#);
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MarkTree {
    /// A leaf: `true` marks the whole value here.
    Bool(bool),
    /// The elements of a list, set or tuple, in order.
    Array(Vec<MarkTree>),
    /// The attributes of an object or elements of a map, by name; `false` ones are
    /// usually left out.
    Object(BTreeMap<String, MarkTree>),
}

impl Default for MarkTree {
    /// `false`: nothing marked.
    fn default() -> MarkTree {
        MarkTree::Bool(false)
    }
}

impl MarkTree {
    /// Parses a tree from JSON text. `null` is read as `false`; numbers and strings are
    /// errors.
    pub fn parse(text: &str) -> Result<MarkTree> {
        let mut r = Reader::new(text.as_bytes());
        read_mark_tree(&mut r, 0)
            .and_then(|t| r.finish().map(|()| t))
            .map_err(|e| crate::json::decode::with_line_column(e, text.as_bytes()))
    }

    /// Whether this is the leaf `true`.
    pub fn is_true(&self) -> bool {
        matches!(self, MarkTree::Bool(true))
    }

    /// Whether any leaf in the tree is `true`.
    pub fn any(&self) -> bool {
        match self {
            MarkTree::Bool(b) => *b,
            MarkTree::Array(items) => items.iter().any(MarkTree::any),
            MarkTree::Object(m) => m.values().any(MarkTree::any),
        }
    }

    /// The sub-tree for one step: an array element for an index step, an object entry
    /// for an attribute or map-key step. A set-element step finds nothing (trees do not
    /// hold set elements' values).
    pub fn get(&self, step: &PathStep) -> Option<&MarkTree> {
        match (self, step) {
            (MarkTree::Array(items), PathStep::Index(i)) => items.get(usize::try_from(*i).ok()?),
            (MarkTree::Object(m), PathStep::Attribute(n) | PathStep::Key(n)) => m.get(n.as_str()),
            _ => None,
        }
    }

    /// The sub-tree at `path`, if the tree goes that deep.
    pub fn at_path(&self, path: &Path) -> Option<&MarkTree> {
        path.steps().iter().try_fold(self, |t, s| t.get(s))
    }

    /// Whether the value at `path` is marked: the tree is `true` there or at any step
    /// on the way (a sensitive object makes every attribute in it sensitive).
    pub fn is_marked(&self, path: &Path) -> bool {
        let mut t = self;
        for step in path.steps() {
            if t.is_true() {
                return true;
            }
            match t.get(step) {
                Some(next) => t = next,
                None => return false,
            }
        }
        t.is_true()
    }

    /// The tree as compact JSON text, keys in bytewise order (as Terraform writes it).
    pub fn to_json(&self) -> String {
        let mut out = Vec::new();
        self.write(&mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    fn write(&self, out: &mut Vec<u8>) {
        match self {
            MarkTree::Bool(true) => out.extend_from_slice(b"true"),
            MarkTree::Bool(false) => out.extend_from_slice(b"false"),
            MarkTree::Array(items) => {
                out.push(b'[');
                for (i, t) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    t.write(out);
                }
                out.push(b']');
            }
            MarkTree::Object(m) => {
                out.push(b'{');
                for (i, (k, t)) in m.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    crate::token::json_write::write_string(out, k);
                    out.push(b':');
                    t.write(out);
                }
                out.push(b'}');
            }
        }
    }

    /// The tree as a `serde_json::Value`.
    pub fn to_serde(&self) -> serde_json::Value {
        match self {
            MarkTree::Bool(b) => serde_json::Value::Bool(*b),
            MarkTree::Array(items) => items.iter().map(MarkTree::to_serde).collect(),
            MarkTree::Object(m) => m
                .iter()
                .map(|(k, t)| (k.clone(), t.to_serde()))
                .collect::<serde_json::Map<_, _>>()
                .into(),
        }
    }
}

impl fmt::Display for MarkTree {
    /// Compact JSON, as [`MarkTree::to_json`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_json())
    }
}

impl std::str::FromStr for MarkTree {
    type Err = Error;

    fn from_str(s: &str) -> Result<MarkTree> {
        MarkTree::parse(s)
    }
}

impl From<bool> for MarkTree {
    fn from(b: bool) -> MarkTree {
        MarkTree::Bool(b)
    }
}

pub(crate) fn read_mark_tree(r: &mut Reader<'_>, depth: usize) -> Result<MarkTree> {
    let kind = r.peek_kind()?;
    let at = r.offset();
    if depth > crate::limits::MAX_DEPTH {
        return Err(crate::limits::depth_exceeded("unknown or sensitivity tree").at_offset(at));
    }
    Ok(match kind {
        Kind::Null => {
            r.read_null()?;
            MarkTree::Bool(false)
        }
        Kind::Bool => MarkTree::Bool(r.read_bool()?),
        Kind::Array => {
            r.begin_array()?;
            let mut items = Vec::new();
            while r.next_element()? {
                let i = items.len();
                items.push(read_mark_tree(r, depth + 1).map_err(|e| e.in_index(i))?);
            }
            MarkTree::Array(items)
        }
        Kind::Object => {
            r.begin_object()?;
            let mut m = BTreeMap::new();
            while let Some(k) = r.next_key()? {
                let t = read_mark_tree(r, depth + 1).map_err(|e| e.in_key(&k))?;
                m.insert(crate::text::nfc(&k).into_owned(), t);
            }
            MarkTree::Object(m)
        }
        Kind::Number | Kind::String => {
            return Err(
                Error::mismatch("a bool, an array or an object", kind.described()).at_offset(at),
            )
        }
    })
}

/// The JSON Terraform writes for `value` of type `ty` in `after`, `values` and outputs'
/// `value`: plain JSON, unknown object attributes and map elements left out, unknown
/// list, set and tuple elements written `null`. `None` when the value itself is
/// unknown.
///
/// A wholly known value gives what Terraform's `ctyjson.Marshal(v, v.Type())` gives:
/// `before`, and state `values`. Infinities cannot be written (an error, as in
/// [`json::encode`](crate::json::encode)), nor can a value that does not conform to
/// `ty`.
///
/// ```
/// use ctywire::{tfjson, Type, Value};
///
/// let ty: Type = "object({ips=list(string), tags=map(string), arn=string})".parse()?;
/// let v = Value::object([
///     ("ips", Value::list([Value::from("10.0.0.1"), Value::unknown()])),
///     ("tags", Value::map([("a", Value::unknown()), ("b", Value::from("x"))])),
///     ("arn", Value::unknown()),
/// ]);
/// let after = tfjson::to_json_value(&v, &ty)?.unwrap();
/// assert_eq!(after.as_str(), r#"{"ips":["10.0.0.1",null],"tags":{"b":"x"}}"#);
/// assert_eq!(tfjson::to_json_value(&Value::unknown(), &ty)?, None);
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn to_json_value(value: &Value, ty: &Type) -> Result<Option<RawJson>> {
    if value.is_unknown() {
        return Ok(None);
    }
    let mut out = Vec::new();
    value::write(value, ty, &mut out)?;
    Ok(Some(RawJson::from_trusted(
        String::from_utf8(out)
            .map_err(|_| Error::new(ErrorKind::Unencodable, "invalid UTF-8 in output"))?,
    )))
}

/// The part of a JSON document `path` names, as `tfjsonpath.Traverse` finds it:
/// attribute and map-key steps look up object members, index steps array elements. A
/// set-element step finds the array element equal to the element's JSON (as
/// [`to_json_value`] writes it).
///
/// ```
/// use ctywire::{tfjson, Path};
///
/// let doc = serde_json::json!({"disk": [{"size": 10}], "tags": {"Name": "web"}});
/// let name = Path::root().attribute("tags").at_map_key("Name");
/// assert_eq!(tfjson::json_at_path(&doc, &name), Some(&"web".into()));
/// assert_eq!(tfjson::json_at_path(&doc, &Path::parse(".disk[0].size")?), Some(&10.into()));
/// assert_eq!(tfjson::json_at_path(&doc, &Path::parse(".disk[1]")?), None);
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn json_at_path<'j>(json: &'j serde_json::Value, path: &Path) -> Option<&'j serde_json::Value> {
    use serde_json::Value as Json;
    let mut at = json;
    for step in path.steps() {
        at = match (step, at) {
            (PathStep::Attribute(n) | PathStep::Key(n), Json::Object(m)) => m.get(n.as_str())?,
            (PathStep::Index(i), Json::Array(a)) => a.get(usize::try_from(*i).ok()?)?,
            (PathStep::SetElement(v), Json::Array(a)) => {
                let text = to_json_value(v, &Type::Dynamic).ok()??;
                let want: Json = serde_json::from_str(text.as_str()).ok()?;
                a.iter().find(|e| **e == want)?
            }
            _ => return None,
        };
    }
    Some(at)
}

/// Terraform's `after_unknown` tree of `value` (its `unknownAsBool`): `true` at unknown
/// values, `false` at known leaves and nulls, `false` entries left out of objects but
/// kept in arrays. See the [module documentation](self) for the rules, and
/// [`Change::for_resource`] for the wholly-known case.
///
/// ```
/// use ctywire::{tfjson, Value};
///
/// let v = Value::object([
///     ("ids", Value::list([Value::from("a"), Value::unknown()])),
///     ("empty", Value::list([])),
///     ("name", Value::from("x")),
/// ]);
/// assert_eq!(tfjson::unknown_tree(&v).to_string(), r#"{"empty":[],"ids":[false,true]}"#);
/// assert_eq!(tfjson::unknown_tree(&Value::unknown()).to_string(), "true");
/// ```
pub fn unknown_tree(value: &Value) -> MarkTree {
    match value.untyped() {
        Value::Unknown(_) => MarkTree::Bool(true),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => MarkTree::Bool(false),
        Value::List(vs) | Value::Tuple(vs) => {
            MarkTree::Array(vs.iter().map(unknown_tree).collect())
        }
        Value::Set(s) => MarkTree::Array(s.iter().map(unknown_tree).collect()),
        Value::Map(m) => object_tree(m.iter().map(|(k, v)| (k, unknown_tree(v)))),
        Value::Object(o) => object_tree(o.iter().map(|(k, v)| (k, unknown_tree(v)))),
        Value::Typed(_) => MarkTree::Bool(false), // `untyped` never returns `Typed`
    }
}

fn object_tree<'k>(entries: impl Iterator<Item = (&'k str, MarkTree)>) -> MarkTree {
    MarkTree::Object(
        entries
            .filter(|(_, t)| *t != MarkTree::Bool(false))
            .map(|(k, t)| (k.to_owned(), t))
            .collect(),
    )
}

/// Terraform's sensitivity tree (`before_sensitive`, `after_sensitive`,
/// `sensitive_values`) for `value` of type `ty` whose parts at `paths` are sensitive:
/// its `SensitiveAsBool` of the value marked with `MarkPaths`.
///
/// A path marks the value it names, null or unknown included; a path that leads
/// through a null, an unknown or a missing element marks nothing. Attribute and
/// map-key steps match each other by name; an index step on a set names an element by
/// its position in the set's order. Anything marked inside a set marks the whole set.
///
/// ```
/// use ctywire::{tfjson, Path, Type, Value};
///
/// let ty: Type = "object({password=string, tags=map(string), ports=set(number), id=string})".parse()?;
/// let v = Value::object([
///     ("password", Value::from("hunter2")),
///     ("tags", Value::map([("a", Value::from("x"))])),
///     ("ports", Value::set([Value::from(80), Value::from(443)])),
///     ("id", Value::unknown()),
/// ]);
/// let tree = tfjson::sensitive_tree(&[Path::root().attribute("password")], &v, &ty);
/// assert_eq!(tree.to_string(), r#"{"password":true,"ports":[false,false],"tags":{}}"#);
/// let tree = tfjson::sensitive_tree(&[Path::root().attribute("ports").at_slice_index(1)], &v, &ty);
/// assert_eq!(tree.to_string(), r#"{"ports":true,"tags":{}}"#);
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn sensitive_tree(paths: &[Path], value: &Value, ty: &Type) -> MarkTree {
    let suffixes: Vec<&[PathStep]> = paths.iter().map(|p| p.steps()).collect();
    value::sensitive(value, ty, &suffixes)
}

/// Decodes the value Terraform split into `after` (plain JSON, `None` when the property
/// is absent) and `after_unknown`, with type `ty`: the reverse of [`to_json_value`] and
/// [`unknown_tree`].
///
/// `true` in the unknown tree makes an unknown (whatever `after` holds there, normally
/// `null` or nothing); object attributes missing from `after` are null unless the tree
/// marks them unknown; map elements the tree marks unknown are added. An absent `after`
/// is an unknown value (Terraform leaves `after` out only when the whole value is
/// unknown). Unknowns carry no refinements: the format has none.
///
/// ```
/// use ctywire::{tfjson, tfjson::MarkTree, Type, Value};
///
/// let ty: Type = "object({ips=list(string), tags=map(string), arn=string, name=string})".parse()?;
/// let unknown: MarkTree = r#"{"arn":true,"ips":[false,true],"tags":{"a":true}}"#.parse()?;
/// let v = tfjson::from_json_value(Some(r#"{"ips":["10.0.0.1",null],"tags":{"b":"x"}}"#), Some(&unknown), &ty)?;
/// assert!(v["arn"].is_unknown());
/// assert!(v["ips"][1].is_unknown());
/// assert!(v["tags"]["a"].is_unknown());
/// assert_eq!(v["tags"]["b"].as_str(), Some("x"));
/// assert!(v["name"].is_null());
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn from_json_value(
    after: Option<&str>,
    after_unknown: Option<&MarkTree>,
    ty: &Type,
) -> Result<Value> {
    match after {
        None => match after_unknown {
            None | Some(MarkTree::Bool(true)) => Ok(Value::unknown()),
            Some(_) => Err(Error::new(
                ErrorKind::InvalidValue,
                "the value is absent but its unknown tree is not `true`",
            )),
        },
        Some(text) => {
            let value = value::decode(text, after_unknown, ty)?;
            if let Some(tree) = after_unknown {
                fit::check(tree, &value, ty, fit::Tree::Unknown)?;
            }
            Ok(value)
        }
    }
}

/// Checks that a sensitivity tree fits `value` of type `ty`: every `true` marks a part
/// of the value, and the tree has the value's shape where it goes into it (see the
/// [module documentation](self#trees-that-do-not-fit)). Errors name the path of the
/// mark.
///
/// ```
/// use ctywire::{tfjson, Type, Value};
///
/// let ty: Type = "object({tags=map(string), ids=list(string)})".parse()?;
/// let v = Value::object([
///     ("tags", Value::map([("a", Value::from("x"))])),
///     ("ids", Value::list([Value::from("i-1")])),
/// ]);
/// tfjson::check_sensitive_tree(&r#"{"tags":{"a":true},"ids":[false]}"#.parse()?, &v, &ty)?;
/// let err = tfjson::check_sensitive_tree(&r#"{"ids":[false,true]}"#.parse()?, &v, &ty).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     ".ids: the sensitivity tree does not fit the value: expected an array of 1 (the list's elements), found an array of 2",
/// );
/// let err = tfjson::check_sensitive_tree(&r#"{"password":true}"#.parse()?, &v, &ty).unwrap_err();
/// assert_eq!(err.to_string(), r#".password: the sensitivity tree does not fit the value: the type has no attribute "password""#);
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn check_sensitive_tree(tree: &MarkTree, value: &Value, ty: &Type) -> Result<()> {
    fit::check(tree, value, ty, fit::Tree::Sensitive)
}

/// The paths of the `true` leaves of a sensitivity tree (or any [`MarkTree`]), in tree
/// order, with steps of the kind `ty` calls for: attribute steps for objects, map-key
/// steps for maps, index steps for lists, tuples and sets (by position).
/// [`sensitive_tree`] of these paths gives the tree back.
///
/// ```
/// use ctywire::{tfjson, Type};
///
/// let ty: Type = "object({tags=map(string), disk=list(object({key=string}))})".parse()?;
/// let tree = r#"{"disk":[{},{"key":true}],"tags":{"secret":true}}"#.parse()?;
/// let paths: Vec<String> = tfjson::sensitive_paths(&tree, &ty).iter().map(|p| p.to_string()).collect();
/// assert_eq!(paths, [".disk[1].key", r#".tags["secret"]"#]);
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn sensitive_paths(tree: &MarkTree, ty: &Type) -> Vec<Path> {
    let mut out = Vec::new();
    let mut at = Vec::new();
    marked_paths(tree, Some(ty), &mut at, &mut out);
    out
}

fn marked_paths(tree: &MarkTree, ty: Option<&Type>, at: &mut Vec<PathStep>, out: &mut Vec<Path>) {
    match tree {
        MarkTree::Bool(true) => out.push(Path::from(at.clone())),
        MarkTree::Bool(false) => {}
        MarkTree::Array(items) => {
            for (i, t) in items.iter().enumerate() {
                let next = match ty {
                    Some(Type::List(e) | Type::Set(e)) => Some(&**e),
                    Some(Type::Tuple(ts)) => ts.get(i),
                    _ => None,
                };
                at.push(PathStep::Index(i as u64));
                marked_paths(t, next, at, out);
                at.pop();
            }
        }
        MarkTree::Object(m) => {
            for (k, t) in m {
                let (step, next) = match ty {
                    Some(Type::Map(e)) => (PathStep::Key(k.clone()), Some(&**e)),
                    Some(Type::Object(o)) => (PathStep::Attribute(k.clone()), o.attribute(k)),
                    _ => (PathStep::Attribute(k.clone()), None),
                };
                at.push(step);
                marked_paths(t, next, at, out);
                at.pop();
            }
        }
    }
}

/// A `show -json` document: a plan or a state.
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub enum Document {
    /// `terraform show -json PLANFILE`
    Plan(Plan),
    /// `terraform show -json` (a state)
    State(State),
}

impl Document {
    /// Reads a plan or a state, telling them apart by their properties (a plan has
    /// `planned_values`, `resource_changes`, `resource_drift`, `output_changes`,
    /// `prior_state`, `action_invocations`, or `plan_format_version` as HCP Terraform's
    /// redacted plans do; anything else is read as a state).
    ///
    /// ```
    /// use ctywire::tfjson::Document;
    ///
    /// let doc = Document::from_json(br#"{"format_version":"1.0","values":{"root_module":{}}}"#)?;
    /// assert!(matches!(doc, Document::State(_)));
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn from_json(input: &[u8]) -> Result<Document> {
        read::document(input, |r| {
            if is_plan(&mut r.clone())? {
                plan::plan(r).map(Document::Plan)
            } else {
                state::state(r).map(Document::State)
            }
        })
    }
}

/// Whether the document at `r` is a plan: it has a property only plans have.
fn is_plan(r: &mut Reader<'_>) -> Result<bool> {
    let mut is_plan = false;
    r.begin_object()?;
    while let Some(k) = r.next_key()? {
        is_plan |= matches!(
            &*k,
            "planned_values"
                | "resource_changes"
                | "output_changes"
                | "prior_state"
                | "resource_drift"
                | "action_invocations"
                | "plan_format_version"
        );
        r.skip_value()?;
    }
    Ok(is_plan)
}

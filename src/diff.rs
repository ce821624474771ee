//! Where two values of one type differ: [`diff`] lists the [`Difference`]s that turn one
//! into the other, each at the least place it can be said, with the values on both
//! sides borrowed from the inputs.

use std::fmt;
use std::ops::ControlFlow;

use crate::error::{Error, ErrorKind, Result};
use crate::path::{Path, PathStep};
use crate::types::Type;
use crate::value::equal::{compare, Differences, Step};
use crate::Value;

/// The changes that turn `old` into `new`, both of type `ty`, depth first in wire order
/// (attributes and map keys in bytewise order, elements by index). Empty exactly when
/// `old.raw_equals(new, ty)`.
///
/// Each change is as deep as it can be: a changed attribute is one change, not one for
/// it and one for each value around it. A value changes as a whole where its parts have
/// no place in the other side:
///
/// - a null or an unknown on either side (and an unknown whose refinements change);
/// - a list or tuple whose length changes (elements are not matched up: that is a
///   renderer's choice);
/// - a set whose elements change (set elements are found by value, so they have no
///   place of their own);
/// - a value at a `dynamic` position whose concrete type changes.
///
/// A map element or object attribute that only one side has is a change with the other
/// side absent (`None`). An attribute that a value built by hand leaves out is read as
/// null where the type has it, as [`Value::raw_equals`] and `value["name"]` read it (so
/// leaving out an attribute and setting it to null are no change), and as absent where
/// the type lacks it. The encoders are stricter: they take a left-out attribute as null
/// only where the type marks it `optional`, and refuse the value otherwise.
///
/// ```
/// use ctywire::{diff, msgpack, Type, Value};
///
/// let ty: Type = "object({name=string, size=number})".parse()?;
/// let full = Value::object([("name", Value::from("web")), ("size", Value::Null)]);
/// let without_size = Value::object([("name", Value::from("web"))]);
/// assert!(diff(&full, &without_size, &ty).is_empty());
/// let sized = Value::object([("name", Value::from("web")), ("size", Value::from(2))]);
/// assert_eq!(diff(&without_size, &sized, &ty)[0].to_string(), "+ .size: null -> 2");
/// // The encoders refuse the value that leaves out `size`, unless it is optional.
/// assert!(msgpack::encode(&without_size, &ty).is_err());
/// let optional_size: Type = "object({name=string, size=optional(number)})".parse()?;
/// assert_eq!(msgpack::encode(&without_size, &optional_size)?, msgpack::encode(&full, &ty)?);
/// # Ok::<(), ctywire::Error>(())
/// ```
///
/// ```
/// use ctywire::{diff, ChangeKind, Type, Value};
///
/// let ty: Type = "object({name=string, tags=map(string), ports=list(number), arn=string})".parse()?;
/// let prior = Value::object([
///     ("name", Value::from("web")),
///     ("tags", Value::map([("env", Value::from("dev")), ("team", Value::from("a"))])),
///     ("ports", Value::list([Value::from(80)])),
///     ("arn", Value::from("arn:1")),
/// ]);
/// let planned = Value::object([
///     ("name", Value::from("web")),
///     ("tags", Value::map([("env", Value::from("prod")), ("owner", Value::from("b"))])),
///     ("ports", Value::list([Value::from(80), Value::from(443)])),
///     ("arn", Value::unknown()),
/// ]);
/// let changes = diff(&prior, &planned, &ty);
/// let shown: Vec<String> = changes.iter().map(|c| c.to_string()).collect();
/// assert_eq!(shown, [
///     r#"~ .arn: "arn:1" -> unknown"#,
///     "~ .ports: [80] -> [80, 443]",
///     r#"~ .tags["env"]: "dev" -> "prod""#,
///     r#"+ .tags["owner"]: "b""#,
///     r#"- .tags["team"]: "a""#,
/// ]);
/// assert_eq!(changes[3].kind(), ChangeKind::Create);
///
/// // The changes turn the prior value into the planned one.
/// let mut patched = prior.clone();
/// for change in &changes {
///     change.apply_to(&mut patched)?;
/// }
/// assert!(patched.raw_equals(&planned, &ty));
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn diff<'a>(old: &'a Value, new: &'a Value, ty: &Type) -> Vec<Difference<'a>> {
    let mut changes = Collected(Vec::new());
    let _ = compare(old, new, ty, &mut changes);
    changes.0
}

/// One place where two values differ, found by [`diff`].
///
/// ```
/// use ctywire::{diff, ChangeKind, ValueState, Type, Value};
///
/// let ty: Type = "object({tags=map(string)})".parse()?;
/// let old = Value::object([("tags", Value::map([("env", Value::from("dev"))]))]);
/// let new = Value::object([("tags", Value::map::<&str>([]))]);
/// let changes = diff(&old, &new, &ty);
/// let change = &changes[0];
/// assert_eq!(change.path.to_string(), r#".tags["env"]"#);
/// assert_eq!(change.ty, Type::String);
/// assert_eq!(change.old, Some(&Value::from("dev")));
/// assert_eq!(change.new, None);
/// assert_eq!((change.kind(), change.new_state()), (ChangeKind::Delete, ValueState::Absent));
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Difference<'a> {
    /// Where: attribute, map-key and index steps.
    pub path: Path,
    /// The type of that position: what the type given to [`diff`] says there, and inside
    /// a value at a `dynamic` position, that value's type. Where a value at a `dynamic`
    /// position changes type, `dynamic` (each value carries its own; see
    /// [`Value::recorded_type`]).
    pub ty: Type,
    /// The value before, as stored (a [`Typed`](crate::Typed) wrapper included); `None`
    /// where it was absent (a new map element).
    pub old: Option<&'a Value>,
    /// The value after, as stored; `None` where it is absent (a removed map element).
    pub new: Option<&'a Value>,
}

/// What a [`Difference`] does, as a plan shows it (`+`, `~`, `-`).
///
/// ```
/// use ctywire::{diff, ChangeKind, Type, Value};
///
/// let ty: Type = "map(string)".parse()?;
/// let old = Value::map([("a", Value::from("1")), ("b", Value::from("2"))]);
/// let new = Value::map([("b", Value::from("3")), ("c", Value::from("4"))]);
/// let kinds: Vec<(String, ChangeKind)> =
///     diff(&old, &new, &ty).iter().map(|c| (c.path.to_string(), c.kind())).collect();
/// assert_eq!(kinds, [
///     (r#"["a"]"#.to_string(), ChangeKind::Delete),
///     (r#"["b"]"#.to_string(), ChangeKind::Update),
///     (r#"["c"]"#.to_string(), ChangeKind::Create),
/// ]);
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChangeKind {
    /// Something absent or null becomes something else (`+`): an added map element, an
    /// attribute set where it was null. Also an element added as null.
    Create,
    /// A value that is not null becomes another one that is not null, known or unknown
    /// (`~`). Also a null that changes type at a `dynamic` position.
    Update,
    /// Something not null becomes null or absent (`-`): a removed map element, an
    /// attribute unset. Also a null element removed.
    Delete,
}

/// What one side of a [`Difference`] holds there.
///
/// ```
/// use ctywire::{diff, Type, Value, ValueState};
///
/// let ty: Type = "object({id=string})".parse()?;
/// let planned = Value::object([("id", Value::unknown())]);
/// let state = Value::object([("id", Value::from("i-1"))]);
/// let change = &diff(&planned, &state, &ty)[0];
/// assert_eq!((change.old_state(), change.new_state()), (ValueState::Unknown, ValueState::Known));
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueState {
    /// Nothing: the map element or attribute is not there.
    Absent,
    /// A null.
    Null,
    /// An unknown.
    Unknown,
    /// A known value that is not null (it may hold unknowns inside).
    Known,
}

impl ValueState {
    fn of(value: Option<&Value>) -> ValueState {
        match value {
            None => ValueState::Absent,
            Some(v) if v.is_null() => ValueState::Null,
            Some(v) if v.is_unknown() => ValueState::Unknown,
            Some(_) => ValueState::Known,
        }
    }
}

impl<'a> Difference<'a> {
    /// What the value was: absent, null, unknown or known.
    pub fn old_state(&self) -> ValueState {
        ValueState::of(self.old)
    }

    /// What the value becomes: absent, null, unknown or known.
    pub fn new_state(&self) -> ValueState {
        ValueState::of(self.new)
    }

    /// Whether this change adds, changes or removes a value.
    ///
    /// ```
    /// use ctywire::{diff, ChangeKind, ValueState, Type, Value};
    ///
    /// let ty = Type::String;
    /// let (null, web, unknown) = (Value::Null, Value::from("web"), Value::unknown());
    /// assert_eq!(diff(&null, &web, &ty)[0].kind(), ChangeKind::Create);
    /// assert_eq!(diff(&web, &unknown, &ty)[0].kind(), ChangeKind::Update);
    /// assert_eq!(diff(&web, &unknown, &ty)[0].new_state(), ValueState::Unknown);
    /// assert_eq!(diff(&web, &null, &ty)[0].kind(), ChangeKind::Delete);
    /// ```
    pub fn kind(&self) -> ChangeKind {
        let present = |s: ValueState| matches!(s, ValueState::Unknown | ValueState::Known);
        match (self.old_state(), self.new_state()) {
            (old, new) if present(old) && present(new) => ChangeKind::Update,
            (old, _) if present(old) => ChangeKind::Delete,
            (_, new) if present(new) => ChangeKind::Create,
            (ValueState::Absent, _) => ChangeKind::Create,
            (_, ValueState::Absent) => ChangeKind::Delete,
            _ => ChangeKind::Update,
        }
    }

    /// Makes this change in `target` (a value of the type the change was found with):
    /// puts a copy of the new value at [`path`](Difference::path), or removes the map
    /// element or attribute there when the new value is absent. Applying every change
    /// of `diff(old, new, ty)` to `old`, in any order, gives a value that
    /// [raw-equals](Value::raw_equals) `new`.
    ///
    /// Fails, naming the step, where the path leads nowhere in `target` (see
    /// [`Value::set_at_path`]).
    ///
    /// ```
    /// use ctywire::{diff, Type, Value};
    ///
    /// let ty: Type = "map(string)".parse()?;
    /// let old = Value::map([("a", Value::from("x")), ("b", Value::from("y"))]);
    /// let new = Value::map([("a", Value::from("z"))]);
    /// let mut v = old.clone();
    /// for change in diff(&old, &new, &ty) {
    ///     change.apply_to(&mut v)?;
    /// }
    /// assert_eq!(v, new);
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn apply_to(&self, target: &mut Value) -> Result<()> {
        match self.new {
            Some(new) => target.set_at_path(&self.path, new.clone()),
            None => target.remove_at_path(&self.path),
        }
    }
}

/// `+ .tags["owner"]: "b"`, `~ .arn: "arn:1" -> unknown`, `- .tags["team"]: "a"`: the
/// kind, the path, and the values in their `Debug` form (`absent` for none).
impl fmt::Display for Difference<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |v: Option<&Value>| v.map_or("absent".to_owned(), |v| format!("{v:?}"));
        match self.kind() {
            ChangeKind::Create if self.old.is_none() => {
                write!(f, "+ {}: {}", self.path, side(self.new))
            }
            ChangeKind::Delete if self.new.is_none() => {
                write!(f, "- {}: {}", self.path, side(self.old))
            }
            kind => {
                let sign = match kind {
                    ChangeKind::Create => '+',
                    ChangeKind::Update => '~',
                    ChangeKind::Delete => '-',
                };
                write!(
                    f,
                    "{sign} {}: {} -> {}",
                    self.path,
                    side(self.old),
                    side(self.new)
                )
            }
        }
    }
}

/// Collects every difference as a [`Difference`].
struct Collected<'a>(Vec<Difference<'a>>);

impl<'a> Differences<'a> for Collected<'a> {
    const EVERY: bool = true;

    fn difference(
        &mut self,
        path: &[Step<'a>],
        ty: &Type,
        old: Option<&'a Value>,
        new: Option<&'a Value>,
    ) -> ControlFlow<()> {
        self.0.push(Difference {
            path: Step::path(path),
            ty: ty.clone(),
            old,
            new,
        });
        ControlFlow::Continue(())
    }
}

impl Value {
    /// Removes the map element or object attribute that `path` names. Fails, naming
    /// the step, where the path leads nowhere (see [`Value::set_at_path`]) or its last
    /// step is not a map key or attribute.
    pub(crate) fn remove_at_path(&mut self, path: &Path) -> Result<()> {
        let Some((last, parent)) = path.steps().split_last() else {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                "the whole value cannot be removed",
            ));
        };
        let parent_path = Path::from(parent.to_vec());
        let at = self.at_path_mut_or_error(&parent_path)?;
        let name = match last {
            PathStep::Attribute(n) | PathStep::Key(n) => n,
            other => {
                return Err(Error::new(
                    ErrorKind::InvalidValue,
                    format!("only a map element or an attribute can be removed, not {other}"),
                )
                .at(&parent_path))
            }
        };
        if at.remove_entry(name) {
            Ok(())
        } else {
            Err(Error::new(ErrorKind::NotFound, "nothing to remove").at(path))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(old: &Value, new: &Value, ty: &str) -> Vec<String> {
        let ty: Type = ty.parse().unwrap();
        diff(old, new, &ty)
            .iter()
            .map(|c| format!("{c} ({})", c.ty))
            .collect()
    }

    #[test]
    fn wholes_and_parts() {
        let s = Value::from;
        // A set changes as a whole; a list of the same length element by element.
        assert_eq!(
            shown(
                &Value::object([
                    ("l", Value::list([s("a"), s("b")])),
                    ("s", Value::set([s("a")]))
                ]),
                &Value::object([
                    ("l", Value::list([s("a"), s("c")])),
                    ("s", Value::set([s("b")]))
                ]),
                "object({l=list(string),s=set(string)})"
            ),
            [
                r#"~ .l[1]: "b" -> "c" (string)"#,
                r#"~ .s: {"a"} -> {"b"} (set(string))"#
            ]
        );
        // A null object becoming known is one change, not one per attribute.
        assert_eq!(
            shown(
                &Value::Null,
                &Value::object([("a", s("x"))]),
                "object({a=string})"
            ),
            [r#"+ : null -> object { a: "x" } (object({a=string}))"#]
        );
    }

    /// At a dynamic position: a change of type is a change of the whole value there;
    /// with the type kept, the parts are compared, wrapped or not.
    #[test]
    fn dynamic_positions() {
        let ty = "object({a=any})";
        let wrapped = |t: Type, v: Value| Value::object([("a", Value::typed(t, v))]);
        let list = || Value::list([Value::from("x"), Value::from("y")]);
        assert_eq!(
            shown(
                &wrapped(Type::list(Type::String), list()),
                &Value::object([("a", Value::list([Value::from("x"), Value::from("z")]))]),
                ty
            ),
            [r#"~ .a[1]: "y" -> "z" (string)"#]
        );
        assert_eq!(
            shown(
                &wrapped(Type::list(Type::String), list()),
                &Value::object([("a", list())]),
                ty
            ),
            Vec::<String>::new()
        );
        assert_eq!(
            shown(
                &wrapped(Type::String, Value::Null),
                &wrapped(Type::Number, Value::Null),
                ty
            ),
            ["~ .a: null as string -> null as number (any)"]
        );
        assert_eq!(
            shown(
                &Value::object([("a", Value::from("1"))]),
                &Value::object([("a", Value::from(1))]),
                ty
            ),
            [r#"~ .a: "1" -> 1 (any)"#]
        );
    }

    #[test]
    fn kinds_and_states() {
        let ty: Type = "map(string)".parse().unwrap();
        let old = Value::map([("a", Value::Null), ("b", Value::from("x"))]);
        let new = Value::map([("b", Value::Null), ("c", Value::Null)]);
        let changes = diff(&old, &new, &ty);
        let got: Vec<_> = changes
            .iter()
            .map(|c| (c.path.to_string(), c.kind(), c.old_state(), c.new_state()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    r#"["a"]"#.to_owned(),
                    ChangeKind::Delete,
                    ValueState::Null,
                    ValueState::Absent
                ),
                (
                    r#"["b"]"#.to_owned(),
                    ChangeKind::Delete,
                    ValueState::Known,
                    ValueState::Null
                ),
                (
                    r#"["c"]"#.to_owned(),
                    ChangeKind::Create,
                    ValueState::Absent,
                    ValueState::Null
                ),
            ]
        );
        let mut patched = old.clone();
        for c in &changes {
            c.apply_to(&mut patched).unwrap();
        }
        assert_eq!(patched, new);
    }

    /// Attributes that a value built by hand leaves out are null if the type has them;
    /// attributes the type lacks are absent on the other side.
    #[test]
    fn missing_attributes() {
        let ty: Type = "object({a=string,b=optional(string)})".parse().unwrap();
        let without_b = Value::object([("a", Value::from("x"))]);
        let null_b = Value::object([("a", Value::from("x")), ("b", Value::Null)]);
        assert!(diff(&without_b, &null_b, &ty).is_empty());
        let with_b = Value::object([("a", Value::from("x")), ("b", Value::from("y"))]);
        let changes = diff(&without_b, &with_b, &ty);
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].to_string(), r#"+ .b: null -> "y""#);
        let mut patched = without_b.clone();
        changes[0].apply_to(&mut patched).unwrap();
        assert_eq!(patched, with_b);

        let extra = Value::object([("a", Value::from("x")), ("z", Value::from(1))]);
        let changes = diff(&extra, &without_b, &ty);
        assert_eq!(changes[0].to_string(), "- .z: 1");
        let mut patched = extra.clone();
        changes[0].apply_to(&mut patched).unwrap();
        assert_eq!(patched, without_b);
    }
}

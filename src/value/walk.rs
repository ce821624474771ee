//! Walking a value: every part of it with its path and type ([`Value::walk`]), rebuilding
//! it bottom up ([`Value::transform`]), and where its unknowns are
//! ([`Value::unknown_paths`]).

use std::borrow::Cow;
use std::convert::Infallible;

use crate::path::{Path, PathStep, StepRef};
use crate::types::Type;
use crate::value::conform::concrete_type;
use crate::value::{Map, Object, Set, Typed, Value};

/// What [`Value::walk`] does after its callback has seen a value.
///
/// ```
/// use ctywire::{Type, Value, Visit};
///
/// // The first string in a list of lists, and nothing after it.
/// let ty: Type = "list(list(string))".parse()?;
/// let v = Value::list([Value::list([]), Value::list([Value::from("a"), Value::from("b")])]);
/// let mut first = None;
/// v.walk(&ty, |path, v, _| match v.as_str() {
///     Some(s) => {
///         first = Some(format!("{path} = {s}"));
///         Visit::Stop
///     }
///     None => Visit::Continue,
/// });
/// assert_eq!(first.as_deref(), Some("[1][0] = a"));
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visit {
    /// Go on, into this value's parts first.
    Continue,
    /// Go on, but not into this value's parts.
    SkipChildren,
    /// Stop the walk.
    Stop,
}

/// The type of the position of every part of a value that does not fit its type.
pub(crate) static DYNAMIC: Type = Type::Dynamic;

impl Value {
    /// Calls `f` with every value in this one (itself first), its path and its type;
    /// `f` tells whether to go into the value's parts, to pass over them, or to stop.
    ///
    /// - The order is depth first and the wire's: object attributes and map elements in
    ///   bytewise name order, list, tuple and set elements in their order (a set's is
    ///   go-cty's). A set element's path step is its index in that order, as
    ///   [`Value::at_path`] takes it.
    /// - The type is that of the position: what `ty` says, and at a `dynamic` position
    ///   the concrete type of the value there, as go-cty's `Value.Type()` gives it (the
    ///   recorded type of a [`Typed`] value, or the type the encoders infer
    ///   for a value built by hand; `dynamic` for a null or an unknown without a recorded
    ///   type). The parts of a value that does not fit its type get the type `dynamic`.
    /// - `f` sees each value as it is stored, a [`Typed`] wrapper included
    ///   ([`Value::untyped`] looks through it); the parts of a wrapped value are those of
    ///   the value inside.
    ///
    /// ```
    /// use ctywire::{Type, Value, Visit};
    ///
    /// let ty: Type = "object({name=string, tags=map(string), secret=object({key=string})})".parse()?;
    /// let v = Value::object([
    ///     ("name", Value::from("web")),
    ///     ("tags", Value::map([("env", Value::from("prod"))])),
    ///     ("secret", Value::object([("key", Value::from("k"))])),
    /// ]);
    /// let mut seen = Vec::new();
    /// v.walk(&ty, |path, value, ty| {
    ///     if path.to_string() == ".secret" {
    ///         return Visit::SkipChildren;
    ///     }
    ///     seen.push(format!("{path} {ty} {value:?}"));
    ///     Visit::Continue
    /// });
    /// assert_eq!(seen[1..], [
    ///     r#".name string "web""#,
    ///     r#".tags map(string) {"env": "prod"}"#,
    ///     r#".tags["env"] string "prod""#,
    /// ]);
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn walk<'v>(&'v self, ty: &Type, mut f: impl FnMut(&Path, &'v Value, &Type) -> Visit) {
        let ty = resolve(self, ty);
        let _ = walk(self, &ty, &mut Cursor::default(), &mut f);
    }

    /// This value rebuilt bottom up: `f` gets each value (its parts already rebuilt),
    /// its path and its type, and returns the value to put in its place; the root comes
    /// last. Sets are put back in go-cty's order and freed of duplicates after their
    /// elements are rebuilt. Paths and types are those [`walk`](Value::walk) gives, for
    /// the value before the transformation.
    ///
    /// ```
    /// use ctywire::{Type, Value};
    ///
    /// // Redact every string under `secrets`.
    /// let ty: Type = "object({name=string, secrets=map(string)})".parse()?;
    /// let v = Value::object([
    ///     ("name", Value::from("web")),
    ///     ("secrets", Value::map([("a", Value::from("x")), ("b", Value::from("y"))])),
    /// ]);
    /// let redacted = v.transform(&ty, |path, value, ty| {
    ///     let in_secrets = path.steps().first().and_then(|s| s.name()) == Some("secrets");
    ///     if in_secrets && *ty == Type::String { Value::from("***") } else { value }
    /// });
    /// assert_eq!(redacted["secrets"]["b"].as_str(), Some("***"));
    /// assert_eq!(redacted["name"].as_str(), Some("web"));
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn transform(self, ty: &Type, mut f: impl FnMut(&Path, Value, &Type) -> Value) -> Value {
        match self.try_transform(ty, |path, v, ty| Ok::<_, Infallible>(f(path, v, ty))) {
            Ok(v) => v,
            Err(never) => match never {},
        }
    }

    /// [`transform`](Value::transform) with a callback that can fail: the first error
    /// stops the transformation and is returned.
    ///
    /// ```
    /// use ctywire::{Error, ErrorKind, Type, Value};
    ///
    /// let ty: Type = "list(number)".parse()?;
    /// let v = Value::list([Value::from(1), Value::from(-2)]);
    /// let err = v.try_transform(&ty, |path, value, _| match value.as_i64() {
    ///     Some(n) if n < 0 => Err(Error::new(ErrorKind::InvalidValue, "must not be negative").at(path)),
    ///     _ => Ok(value),
    /// });
    /// assert_eq!(err.unwrap_err().to_string(), "[1]: must not be negative");
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn try_transform<E>(
        self,
        ty: &Type,
        mut f: impl FnMut(&Path, Value, &Type) -> Result<Value, E>,
    ) -> Result<Value, E> {
        let ty = resolve(&self, ty).into_owned();
        transform(self, &ty, &mut Cursor::default(), &mut f)
    }

    /// The paths of the unknown values in this one, in wire order (an unknown's parts
    /// are not looked into: it has none). A set element's step is its index in the
    /// set's order.
    ///
    /// ```
    /// use ctywire::{Type, Value};
    ///
    /// let ty: Type = "object({id=string, ips=list(string), tags=map(string)})".parse()?;
    /// let v = Value::object([
    ///     ("id", Value::unknown()),
    ///     ("ips", Value::list([Value::from("10.0.0.1"), Value::unknown()])),
    ///     ("tags", Value::map([("a", Value::from("x"))])),
    /// ]);
    /// let paths: Vec<String> = v.unknown_paths(&ty).iter().map(|p| p.to_string()).collect();
    /// assert_eq!(paths, [".id", ".ips[1]"]);
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn unknown_paths(&self, ty: &Type) -> Vec<Path> {
        let mut out = Vec::new();
        self.walk(ty, |path, v, _| {
            if v.is_unknown() {
                out.push(path.clone());
                return Visit::SkipChildren;
            }
            Visit::Continue
        });
        out
    }
}

/// The type of `value` at a position of type `ty`: `ty`, with what the value holds at
/// its `dynamic` positions (`ty` itself for a value that does not fit it).
pub(crate) fn resolve<'t>(value: &Value, ty: &'t Type) -> Cow<'t, Type> {
    if !ty.has_dynamic() {
        return Cow::Borrowed(ty);
    }
    concrete_type(value, ty).map_or(Cow::Borrowed(ty), Cow::Owned)
}

/// The type of a part at a position of type `ty`: what `ty` says, except that a
/// `dynamic` position gets the concrete type of the value there (the type a resolved
/// parent gives is concrete everywhere but at nulls and unknowns, and where a value did
/// not fit).
pub(crate) fn part_type<'t>(value: &Value, ty: &'t Type) -> Cow<'t, Type> {
    if *ty == Type::Dynamic {
        resolve(value, ty)
    } else {
        Cow::Borrowed(ty)
    }
}

/// The type of the elements of a list, set or map of type `ty`.
pub(crate) fn element_type(ty: &Type) -> &Type {
    ty.element_type().unwrap_or(&DYNAMIC)
}

/// The type of element `i` of a tuple of type `ty`.
pub(crate) fn tuple_element_type(ty: &Type, i: usize) -> &Type {
    match ty {
        Type::Tuple(ts) => ts.get(i).unwrap_or(&DYNAMIC),
        _ => &DYNAMIC,
    }
}

/// The type of attribute `name` of an object of type `ty`.
pub(crate) fn attribute_type<'t>(ty: &'t Type, name: &str) -> &'t Type {
    match ty {
        Type::Object(o) => o.attribute(name).unwrap_or(&DYNAMIC),
        _ => &DYNAMIC,
    }
}

/// The types of the attributes of an object value at a position of type `ty`: by
/// index where the object type has the value's names (as decoded objects, which share
/// their type's names, do), by name otherwise.
pub(crate) struct AttributeTypes<'t> {
    ty: &'t Type,
    by_index: Option<&'t [Type]>,
}

impl<'t> AttributeTypes<'t> {
    pub(crate) fn of(ty: &'t Type, object: &Object) -> AttributeTypes<'t> {
        let by_index = match ty {
            Type::Object(o) if o.names() == object.names() => Some(o.types()),
            _ => None,
        };
        AttributeTypes { ty, by_index }
    }

    /// The type of attribute `i`, named `name`.
    pub(crate) fn get(&self, i: usize, name: &str) -> &'t Type {
        match self.by_index {
            Some(types) => &types[i],
            None => attribute_type(self.ty, name),
        }
    }
}

/// Whether the walk goes on.
type Flow = Result<(), ()>;

/// The path of the value being visited, with the name buffers of steps already left
/// kept for the next ones: a walk allocates about as many names as the value is deep,
/// not one per attribute.
#[derive(Default)]
struct Cursor {
    path: Path,
    spare: Vec<String>,
}

impl Cursor {
    fn enter(&mut self, step: StepRef<'_>) {
        let mut named = |name: &str| {
            let mut s = self.spare.pop().unwrap_or_default();
            s.clear();
            s.push_str(name);
            s
        };
        let step = match step {
            StepRef::Attribute(name) => PathStep::Attribute(named(name)),
            StepRef::Key(key) => PathStep::Key(named(key)),
            other => other.to_step(),
        };
        self.path.push(step);
    }

    fn leave(&mut self) {
        if let Some(PathStep::Attribute(s) | PathStep::Key(s)) = self.path.pop() {
            self.spare.push(s);
        }
    }
}

fn walk<'v>(
    v: &'v Value,
    ty: &Type,
    at: &mut Cursor,
    f: &mut impl FnMut(&Path, &'v Value, &Type) -> Visit,
) -> Flow {
    match f(&at.path, v, ty) {
        Visit::Continue => {}
        Visit::SkipChildren => return Ok(()),
        Visit::Stop => return Err(()),
    }
    let mut part = |step: StepRef<'_>, e: &'v Value, t: &Type, at: &mut Cursor| {
        at.enter(step);
        let flow = walk(e, &part_type(e, t), at, f);
        at.leave();
        flow
    };
    match v.untyped() {
        Value::List(vs) => {
            for (i, e) in vs.iter().enumerate() {
                part(StepRef::Index(i), e, element_type(ty), at)?;
            }
        }
        Value::Set(s) => {
            for (i, e) in s.iter().enumerate() {
                part(StepRef::Index(i), e, element_type(ty), at)?;
            }
        }
        Value::Tuple(vs) => {
            for (i, e) in vs.iter().enumerate() {
                part(StepRef::Index(i), e, tuple_element_type(ty, i), at)?;
            }
        }
        Value::Map(m) => {
            for (k, e) in m.iter() {
                part(StepRef::Key(k), e, element_type(ty), at)?;
            }
        }
        Value::Object(o) => {
            let types = AttributeTypes::of(ty, o);
            for (i, (name, e)) in o.iter().enumerate() {
                part(StepRef::Attribute(name), e, types.get(i, name), at)?;
            }
        }
        _ => {}
    }
    Ok(())
}

fn transform<E>(
    v: Value,
    ty: &Type,
    at: &mut Cursor,
    f: &mut impl FnMut(&Path, Value, &Type) -> Result<Value, E>,
) -> Result<Value, E> {
    let rebuilt = transform_parts(v, ty, at, f)?;
    f(&at.path, rebuilt, ty)
}

/// `v` with its parts transformed (the value itself is left to the caller).
fn transform_parts<E>(
    v: Value,
    ty: &Type,
    at: &mut Cursor,
    f: &mut impl FnMut(&Path, Value, &Type) -> Result<Value, E>,
) -> Result<Value, E> {
    let mut part = |step: StepRef<'_>, e: Value, t: &Type, at: &mut Cursor| {
        at.enter(step);
        let t = part_type(&e, t);
        let out = transform(e, &t, at, f);
        at.leave();
        out
    };
    Ok(match v {
        Value::Typed(t) => {
            let Typed {
                ty: recorded,
                value,
            } = *t;
            Value::typed(recorded, transform_parts(value, ty, at, f)?)
        }
        Value::List(vs) => Value::List(
            vs.into_vec()
                .into_iter()
                .enumerate()
                .map(|(i, e)| part(StepRef::Index(i), e, element_type(ty), at))
                .collect::<Result<_, E>>()?,
        ),
        Value::Set(s) => Value::Set(Set::new(
            s.into_vec()
                .into_iter()
                .enumerate()
                .map(|(i, e)| part(StepRef::Index(i), e, element_type(ty), at))
                .collect::<Result<_, E>>()?,
        )),
        Value::Tuple(vs) => Value::Tuple(
            vs.into_vec()
                .into_iter()
                .enumerate()
                .map(|(i, e)| part(StepRef::Index(i), e, tuple_element_type(ty, i), at))
                .collect::<Result<_, E>>()?,
        ),
        Value::Map(m) => Value::Map(Map::from_sorted(
            m.into_vec()
                .into_iter()
                .map(|(k, e)| {
                    let e = part(StepRef::Key(&k), e, element_type(ty), at)?;
                    Ok((k, e))
                })
                .collect::<Result<_, E>>()?,
        )),
        Value::Object(o) => {
            let types = AttributeTypes::of(ty, &o);
            let (names, values) = o.into_parts();
            let values = values
                .into_vec()
                .into_iter()
                .zip(names.iter())
                .enumerate()
                .map(|(i, (e, name))| part(StepRef::Attribute(name), e, types.get(i, name), at))
                .collect::<Result<_, E>>()?;
            Value::Object(Box::new(Object::from_parts(names, values)))
        }
        leaf => leaf,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn visits(v: &Value, ty: &Type) -> Vec<String> {
        let mut out = Vec::new();
        v.walk(ty, |path, v, ty| {
            out.push(format!("{path} {ty} {v:?}"));
            Visit::Continue
        });
        out
    }

    /// At a `dynamic` position the type is the value's own: recorded, inferred, or
    /// `dynamic` for a bare null or unknown; parts of a value that does not fit its
    /// type get `dynamic`.
    #[test]
    fn types_at_dynamic_positions() {
        let ty: Type = "object({a=any, b=list(any), c=string})".parse().unwrap();
        let v = Value::object([
            (
                "a",
                Value::typed(Type::list(Type::Number), Value::list([Value::from(1)])),
            ),
            ("b", Value::list([Value::Null, Value::from("x")])),
            ("c", Value::list([Value::from(true)])),
        ]);
        assert_eq!(
            visits(&v, &ty),
            [
                r#" object({a=list(number),b=list(string),c=string}) object { a: [1] as list(number), b: [null, "x"], c: [true] }"#,
                ".a list(number) [1] as list(number)",
                ".a[0] number 1",
                ".b list(string) [null, \"x\"]",
                ".b[0] string null",
                ".b[1] string \"x\"",
                ".c string [true]",
                ".c[0] bool true",
            ]
        );
        let bare = Value::list([Value::Null, Value::unknown()]);
        assert_eq!(
            visits(&bare, &Type::list(Type::Dynamic)),
            [
                " list(any) [null, unknown]",
                "[0] any null",
                "[1] any unknown"
            ]
        );
    }

    #[test]
    fn skip_and_stop() {
        let ty: Type = "list(list(number))".parse().unwrap();
        let v = Value::list([
            Value::list([Value::from(1), Value::from(2)]),
            Value::list([Value::from(3)]),
        ]);
        let mut seen = Vec::new();
        v.walk(&ty, |path, _, _| {
            seen.push(path.to_string());
            match path.to_string().as_str() {
                "[0]" => Visit::SkipChildren,
                "[1][0]" => Visit::Stop,
                _ => Visit::Continue,
            }
        });
        assert_eq!(seen, ["", "[0]", "[1]", "[1][0]"]);
    }

    /// Set elements are visited by index in go-cty's order; a transformed set is put
    /// back in order and freed of duplicates.
    #[test]
    fn transform_reorders_and_deduplicates_sets() {
        let ty = Type::set(Type::Number);
        let v = Value::set([1, 2, 3].map(Value::from));
        let paths: Vec<String> = {
            let mut out = Vec::new();
            v.walk(&ty, |p, _, _| {
                out.push(p.to_string());
                Visit::Continue
            });
            out
        };
        assert_eq!(paths, ["", "[0]", "[1]", "[2]"]);
        let t = v.transform(&ty, |_, v, _| match v.as_i64() {
            Some(n) => Value::from(10 - n.min(2)),
            None => v,
        });
        assert_eq!(t, Value::set([Value::from(8), Value::from(9)]));
        assert_eq!(t[0].as_i64(), Some(8));
    }

    /// The callback sees the parts rebuilt, then the parent; wrappers are kept.
    #[test]
    fn transform_is_bottom_up_and_keeps_wrappers() {
        let ty = Type::Dynamic;
        let v = Value::typed(
            Type::object([("a", Type::String)]),
            Value::object([("a", Value::from("x"))]),
        );
        let mut order = Vec::new();
        let t = v.transform(&ty, |path, v, ty| {
            order.push(format!("{path} {ty}"));
            match v.as_str() {
                Some(s) => Value::from(s.to_uppercase()),
                None => v,
            }
        });
        assert_eq!(order, [".a string", " object({a=string})"]);
        assert_eq!(
            t,
            Value::typed(
                Type::object([("a", Type::String)]),
                Value::object([("a", Value::from("X"))])
            )
        );
    }

    #[test]
    fn unknown_paths_in_sets_and_maps() {
        let ty: Type = "object({s=set(string), m=map(list(string))})"
            .parse()
            .unwrap();
        let v = Value::object([
            ("s", Value::set([Value::unknown(), Value::from("a")])),
            (
                "m",
                Value::map([("k", Value::list([Value::from("x"), Value::unknown()]))]),
            ),
        ]);
        let paths: Vec<String> = v.unknown_paths(&ty).iter().map(|p| p.to_string()).collect();
        assert_eq!(paths, [r#".m["k"][1]"#, ".s[1]"]);
        assert!(Value::unknown().unknown_paths(&ty)[0].is_empty());
    }
}

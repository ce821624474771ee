//! Typed paths: each derived struct gets a path builder (`Server::path()`) with one
//! method per attribute or block, so a misspelled attribute does not compile, and
//! [`PathExpression`]s that match any list index, map key or set element.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt;
use std::marker::PhantomData;

use crate::path::{Path, PathStep};
use crate::value::{Number, Value};
use crate::Known;
#[cfg(feature = "serde")]
use crate::SetOf;

/// One step of a [`PathExpression`]: a step of a [`Path`], or any element.
#[derive(Clone, Debug, PartialEq)]
pub enum ExpressionStep {
    /// A step of a path: an attribute, an index, a key or a set element.
    Step(PathStep),
    /// Any element of a list, set or map.
    Any,
}

/// A path that may match many: a [`Path`] whose steps may also be "any element"
/// (`.disk[*].kind`). What a typed path builder makes.
///
/// ```
/// use ctywire::object::PathExpression;
/// use ctywire::{Path, Value};
///
/// let kinds = PathExpression::root().attribute("disk").any().attribute("kind");
/// assert_eq!(kinds.to_string(), ".disk[*].kind");
/// assert!(kinds.matches(&Path::root().attribute("disk").index(3).attribute("kind")));
/// assert!(!kinds.matches(&Path::root().attribute("disk").index(3)));
///
/// let value = Value::object([(
///     "disk",
///     Value::list([Value::object([("kind", Value::from("ssd"))]), Value::object([("kind", Value::Null)])]),
/// )]);
/// let found: Vec<String> = kinds.paths_in(&value).iter().map(ToString::to_string).collect();
/// assert_eq!(found, [".disk[0].kind", ".disk[1].kind"]);
/// // As a diagnostic's path, an expression stops at its first "any": the collection.
/// assert_eq!(kinds.to_path(), None);
/// assert_eq!(Path::from(kinds), Path::root().attribute("disk"));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PathExpression(Vec<ExpressionStep>);

impl PathExpression {
    /// The whole value.
    pub fn root() -> PathExpression {
        PathExpression::default()
    }

    fn step(mut self, step: PathStep) -> PathExpression {
        self.0.push(ExpressionStep::Step(step));
        self
    }

    /// The attribute `name` of an object.
    pub fn attribute(self, name: impl Into<String>) -> PathExpression {
        self.step(PathStep::Attribute(name.into()))
    }

    /// The list element at `index`.
    pub fn index(self, index: u64) -> PathExpression {
        self.step(PathStep::Index(index))
    }

    /// The map element at `key`.
    pub fn key(self, key: impl Into<String>) -> PathExpression {
        self.step(PathStep::Key(key.into()))
    }

    /// The set element `element`.
    pub fn element(self, element: Value) -> PathExpression {
        self.step(PathStep::SetElement(element))
    }

    /// Any element of a list, set or map.
    pub fn any(mut self) -> PathExpression {
        self.0.push(ExpressionStep::Any);
        self
    }

    /// The steps.
    pub fn steps(&self) -> &[ExpressionStep] {
        &self.0
    }

    /// The path, when the expression matches one path alone (has no "any").
    pub fn to_path(&self) -> Option<Path> {
        let mut path = Path::root();
        for step in &self.0 {
            match step {
                ExpressionStep::Step(s) => path.push(s.clone()),
                ExpressionStep::Any => return None,
            }
        }
        Some(path)
    }

    /// Whether `path` is one of the paths the expression matches.
    pub fn matches(&self, path: &Path) -> bool {
        self.0.len() == path.len()
            && self.0.iter().zip(path.steps()).all(|(e, p)| match (e, p) {
                (ExpressionStep::Any, PathStep::Attribute(_)) => false,
                (ExpressionStep::Any, _) => true,
                (ExpressionStep::Step(e), p) => e == p,
            })
    }

    /// The paths in `value` the expression matches (lists by index, maps by key, sets
    /// by element), in the value's order; a path through a null or unknown value, or
    /// to an element that is not there, is not in it.
    pub fn paths_in(&self, value: &Value) -> Vec<Path> {
        let mut out = Vec::new();
        walk(&self.0, value, Path::root(), &mut out);
        out
    }
}

/// The path of one step.
fn one(step: PathStep) -> Path {
    let mut path = Path::root();
    path.push(step);
    path
}

fn walk(steps: &[ExpressionStep], value: &Value, at: Path, out: &mut Vec<Path>) {
    let Some((first, rest)) = steps.split_first() else {
        out.push(at);
        return;
    };
    match first {
        ExpressionStep::Step(step) => {
            let mut next = at.clone();
            next.push(step.clone());
            if let Some(inner) = value.at_path(&one(step.clone())) {
                if rest.is_empty() || !(inner.is_null() || inner.is_unknown()) {
                    walk(rest, inner, next, out);
                }
            }
        }
        ExpressionStep::Any => match value.untyped() {
            Value::List(elements) | Value::Tuple(elements) => {
                for (i, e) in elements.iter().enumerate() {
                    walk(rest, e, at.clone().index(i as u64), out);
                }
            }
            Value::Set(set) => {
                for e in set.iter() {
                    walk(rest, e, at.clone().element(e.clone()), out);
                }
            }
            Value::Map(map) => {
                for (k, e) in map.iter() {
                    walk(rest, e, at.clone().key(k), out);
                }
            }
            _ => {}
        },
    }
}

impl fmt::Display for PathExpression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for step in &self.0 {
            match step {
                ExpressionStep::Step(s) => write!(f, "{}", one(s.clone()))?,
                ExpressionStep::Any => f.write_str("[*]")?,
            }
        }
        Ok(())
    }
}

impl From<Path> for PathExpression {
    fn from(path: Path) -> PathExpression {
        PathExpression(
            path.steps()
                .iter()
                .cloned()
                .map(ExpressionStep::Step)
                .collect(),
        )
    }
}

impl From<PathExpression> for Path {
    /// The path up to the expression's first "any": the collection whose elements it
    /// matches (where a diagnostic about them goes when it has no one element).
    fn from(expression: PathExpression) -> Path {
        let mut path = Path::root();
        for step in expression.0 {
            match step {
                ExpressionStep::Step(s) => path.push(s),
                ExpressionStep::Any => break,
            }
        }
        path
    }
}

/// A typed path: what a derived struct's `path()` and its methods return. It is a
/// [`PathExpression`], and a [`Path`] (up to its first "any").
pub trait PathBuilder: Sized {
    /// The builder of the value at `expression`.
    fn from_expression(expression: PathExpression) -> Self;

    /// The expression built so far.
    fn expression(&self) -> &PathExpression;

    /// The expression built so far.
    fn into_expression(self) -> PathExpression;

    /// The path built so far, when it has no "any" ([`PathExpression::to_path`]).
    fn to_path(&self) -> Option<Path> {
        self.expression().to_path()
    }
}

/// A Rust type with typed paths into its values: its [`PathBuilder`]. Every
/// [`FieldType`](super::FieldType) is one; the derive implements it for the struct.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no typed paths",
    note = "typed paths go through the types a #[derive(ctywire::Object)] field may have"
)]
pub trait Addressable {
    /// The builder of paths into a value of this type.
    type Path: PathBuilder;
}

macro_rules! builder {
    ($(#[$doc:meta])* $name:ident $(<$p:ident>)?) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $name $(<$p>)? (PathExpression $(, PhantomData<$p>)?);

        impl $(<$p>)? PathBuilder for $name $(<$p>)? {
            fn from_expression(expression: PathExpression) -> Self {
                $name(expression $(, PhantomData::<$p>)?)
            }
            fn expression(&self) -> &PathExpression {
                &self.0
            }
            fn into_expression(self) -> PathExpression {
                self.0
            }
        }

        impl $(<$p>)? From<$name $(<$p>)?> for PathExpression {
            fn from(builder: $name $(<$p>)?) -> PathExpression {
                builder.0
            }
        }

        impl $(<$p>)? From<$name $(<$p>)?> for Path {
            /// Up to the first "any" ([`PathExpression`]'s conversion).
            fn from(builder: $name $(<$p>)?) -> Path {
                Path::from(builder.0)
            }
        }
    };
}

builder!(
    /// The path to a primitive or `dynamic` value: it goes no further.
    Leaf
);
builder!(
    /// The path to a list: [`index`](ListPath::index) or [`any`](ListPath::any) element.
    ListPath<P>
);
builder!(
    /// The path to a map: [`key`](MapPath::key) or [`any`](MapPath::any) element.
    MapPath<P>
);
builder!(
    /// The path to a set: an [`element`](SetPath::element) by value or [`any`](SetPath::any).
    SetPath<P>
);

impl<P: PathBuilder> ListPath<P> {
    /// The element at `index`.
    pub fn index(self, index: u64) -> P {
        P::from_expression(self.0.index(index))
    }

    /// Any element.
    pub fn any(self) -> P {
        P::from_expression(self.0.any())
    }
}

impl<P: PathBuilder> MapPath<P> {
    /// The element at `key`.
    pub fn key(self, key: impl Into<String>) -> P {
        P::from_expression(self.0.key(key))
    }

    /// Any element.
    pub fn any(self) -> P {
        P::from_expression(self.0.any())
    }
}

impl<P: PathBuilder> SetPath<P> {
    /// The element `element` (a set's elements are named by their values).
    pub fn element(self, element: Value) -> P {
        P::from_expression(self.0.element(element))
    }

    /// Any element.
    pub fn any(self) -> P {
        P::from_expression(self.0.any())
    }
}

macro_rules! leaves {
    ($($t:ty),*) => {$(
        impl Addressable for $t {
            type Path = Leaf;
        }
    )*};
}

leaves!(
    String,
    Box<str>,
    bool,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    f32,
    f64,
    Number,
    Value
);

impl<T: Addressable> Addressable for Vec<T> {
    type Path = ListPath<T::Path>;
}

impl<T: Addressable> Addressable for BTreeSet<T> {
    type Path = SetPath<T::Path>;
}

impl<T: Addressable, S> Addressable for HashSet<T, S> {
    type Path = SetPath<T::Path>;
}

#[cfg(feature = "serde")]
impl<T: Addressable> Addressable for SetOf<T> {
    type Path = SetPath<T::Path>;
}

impl<T: Addressable> Addressable for BTreeMap<String, T> {
    type Path = MapPath<T::Path>;
}

impl<T: Addressable, S> Addressable for HashMap<String, T, S> {
    type Path = MapPath<T::Path>;
}

impl<T: Addressable> Addressable for Option<T> {
    type Path = T::Path;
}

impl<T: Addressable> Addressable for Known<T> {
    type Path = T::Path;
}

impl<T: Addressable + ?Sized> Addressable for Box<T> {
    type Path = T::Path;
}

/// A collection field type's element type: what a field that names its block's nesting
/// (`#[cty(block(set))]` on a `Vec`) gets paths into.
pub trait Elements {
    /// The type of each element.
    type Element;
}

impl<T> Elements for Vec<T> {
    type Element = T;
}

impl<T> Elements for BTreeSet<T> {
    type Element = T;
}

impl<T, S> Elements for HashSet<T, S> {
    type Element = T;
}

#[cfg(feature = "serde")]
impl<T> Elements for SetOf<T> {
    type Element = T;
}

impl<T> Elements for BTreeMap<String, T> {
    type Element = T;
}

impl<T, S> Elements for HashMap<String, T, S> {
    type Element = T;
}

impl<T: Elements> Elements for Option<T> {
    type Element = T::Element;
}

impl<T: Elements> Elements for Known<T> {
    type Element = T::Element;
}

impl<T: Elements + ?Sized> Elements for Box<T> {
    type Element = T::Element;
}

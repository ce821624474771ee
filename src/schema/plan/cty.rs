//! The cty operations the rules are written in, on values typed by their schema:
//! `RawEquals` ([`Value::raw_equals`], and with refinements stripped), and those the
//! rules need in a form of their own: `Walk` with the schema's type at each position and
//! set elements by value (what Terraform's `AttributeByPath` and `Path.Apply` walk),
//! `Length` and value ranges as numbers for messages.

use std::borrow::Cow;
use std::ops::ControlFlow;

use super::Step;
use crate::schema::{Attribute, Block, NestedType};
use crate::types::Type;
use crate::value::{conform, equal, Value};

/// A value as go-cty holds it: without a [`Value::Typed`] wrapper, with its concrete
/// type where the schema's type `ty` is `dynamic` (the recorded type, or the type a
/// value built by hand implies; `dynamic` for an untyped null or unknown).
pub(crate) fn concrete<'a>(value: &'a Value, ty: &Type) -> (&'a Value, Type) {
    match value {
        Value::Typed(t) => {
            let concrete = conform::typed_type(t).map_or_else(|_| t.ty.clone(), Cow::into_owned);
            (t.value.untyped(), concrete)
        }
        Value::Null | Value::Unknown(_) => (value, ty.clone()),
        v if *ty == Type::Dynamic => (
            v,
            conform::concrete_type(v, &Type::Dynamic).unwrap_or(Type::Dynamic),
        ),
        v => (v, ty.clone()),
    }
}

/// The type of element `i` of a list, set, map or tuple of type `ty` (`dynamic` when
/// `ty` does not say).
pub(super) fn element_type(ty: &Type, i: usize) -> Type {
    match ty {
        Type::Tuple(ts) => ts.get(i).cloned().unwrap_or(Type::Dynamic),
        t => t.element_type().cloned().unwrap_or(Type::Dynamic),
    }
}

/// The type of attribute `name` of an object of type `ty`.
pub(super) fn attribute_type(ty: &Type, name: &str) -> Type {
    ty.as_object()
        .and_then(|o| o.attribute(name))
        .cloned()
        .unwrap_or(Type::Dynamic)
}

/// Whether [`raw_equal`] compares the refinements of unknowns (go-cty's `RawEquals`) or
/// not (`RawEquals` after Terraform's `unrefinedValue`, which strips them everywhere).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Refined {
    Compare,
    Ignore,
}

/// go-cty's `RawEquals` of two values at a position of type `ty`
/// ([`Value::raw_equals`]), or, for [`Refined::Ignore`], of the two with their unknowns'
/// refinements stripped.
pub(super) fn raw_equal(a: &Value, b: &Value, ty: &Type, refined: Refined) -> bool {
    match refined {
        Refined::Compare => a.raw_equals(b, ty),
        Refined::Ignore => equal::compare(a, b, ty, &mut UnrefinedDifference).is_continue(),
    }
}

/// A difference that counts unless it is between two unknowns of one type, which
/// Terraform's `unrefinedValue` makes equal.
struct UnrefinedDifference;

impl<'a> equal::Differences<'a> for UnrefinedDifference {
    const EVERY: bool = false;

    fn difference(
        &mut self,
        _: &[equal::Step<'a>],
        ty: &Type,
        old: Option<&'a Value>,
        new: Option<&'a Value>,
    ) -> ControlFlow<()> {
        match (old, new) {
            (Some(o), Some(n))
                if o.is_unknown() && n.is_unknown() && concrete(o, ty).1 == concrete(n, ty).1 =>
            {
                ControlFlow::Continue(())
            }
            _ => ControlFlow::Break(()),
        }
    }
}

/// Whether a value at a position of type `ty` is of a set type (also when null or
/// unknown).
pub(super) fn is_set(value: &Value, ty: &Type) -> bool {
    let (v, t) = concrete(value, ty);
    matches!(v, Value::Set(_)) || matches!(t, Type::Set(_))
}

/// What a [`walk`] callback says to do next.
pub(super) enum Next {
    /// Visit the value's elements or attributes.
    Descend,
    /// Do not look inside this value.
    Skip,
    /// End the walk.
    Stop,
}

/// go-cty's `Walk`: visits `value` (of type `ty`) and then, depth first, every element
/// and attribute of every known value the callback descends into, with its path: object
/// attributes in name order, map entries in key order, list and tuple elements by index,
/// set elements in set order. Returns false when the callback stopped the walk.
pub(super) fn walk<'a>(
    value: &'a Value,
    ty: &Type,
    steps: &mut Vec<Step<'a>>,
    f: &mut impl FnMut(&[Step<'a>], &'a Value, &Type) -> Next,
) -> bool {
    match f(steps, value, ty) {
        Next::Stop => return false,
        Next::Skip => return true,
        Next::Descend => {}
    }
    let (v, ty) = concrete(value, ty);
    let mut each = |step: Step<'a>, child: &'a Value, t: Type, steps: &mut Vec<Step<'a>>| {
        steps.push(step);
        let go_on = walk(child, &t, steps, f);
        steps.pop();
        go_on
    };
    match v {
        Value::Object(o) => o.iter().all(|(name, child)| {
            each(
                Step::Attribute(name),
                child,
                attribute_type(&ty, name),
                steps,
            )
        }),
        Value::Map(m) => {
            let e = element_type(&ty, 0);
            m.iter()
                .all(|(key, child)| each(Step::Key(key), child, e.clone(), steps))
        }
        Value::List(vs) | Value::Tuple(vs) => vs
            .iter()
            .enumerate()
            .all(|(i, child)| each(Step::Index(i), child, element_type(&ty, i), steps)),
        Value::Set(s) => {
            let e = element_type(&ty, 0);
            s.iter()
                .all(|child| each(Step::Element(child), child, e.clone(), steps))
        }
        _ => true,
    }
}

/// go-cty's `Path.Apply`: the value at `steps` in `value` (of type `ty`), and its type;
/// `None` where go-cty fails (a step into a null, a missing attribute, key or index, a
/// step of the wrong kind). A step into an unknown gives an unknown.
pub(super) fn apply<'a>(
    value: &'a Value,
    ty: &Type,
    steps: &[Step<'_>],
) -> Option<(Cow<'a, Value>, Type)> {
    let Some((step, rest)) = steps.split_first() else {
        return Some((Cow::Borrowed(value), ty.clone()));
    };
    let (v, ty) = concrete(value, ty);
    let (child, t) = match (step, v) {
        (_, Value::Null) => return None,
        (Step::Attribute(name), Value::Object(o)) => (o.get(name)?, attribute_type(&ty, name)),
        (Step::Attribute(name), Value::Unknown(_)) if ty.as_object()?.attribute(name).is_some() => {
            return Some((Cow::Owned(Value::unknown()), attribute_type(&ty, name)));
        }
        (Step::Key(key) | Step::KeyAsAttribute(key), Value::Map(m)) => {
            (m.get(key)?, element_type(&ty, 0))
        }
        (Step::Index(i), Value::List(vs) | Value::Tuple(vs)) => {
            (vs.get(*i)?, element_type(&ty, *i))
        }
        (Step::Key(_) | Step::Index(_), Value::Unknown(_)) if ty.element_type().is_some() => {
            return Some((Cow::Owned(Value::unknown()), element_type(&ty, 0)));
        }
        _ => return None,
    };
    apply(child, &t, rest)
}

/// A schema whose values are objects: a block, or a nested attribute type.
#[derive(Clone, Copy)]
pub(super) enum Nested<'s> {
    Block(&'s Block),
    Object(&'s NestedType),
}

impl<'s> Nested<'s> {
    /// The type of one block or nested object.
    pub(super) fn object_type(self) -> Type {
        match self {
            Nested::Block(block) => block.implied_type(),
            Nested::Object(object) => object.object_type(),
        }
    }

    /// Terraform's `AttributeByPath`: the attribute schema a path names, following
    /// attribute steps through nested blocks and nested attribute types and passing over
    /// every other step (indexes, keys, set elements). `None` when the path names no
    /// attribute.
    pub(super) fn attribute_by_path(self, steps: &[Step<'_>]) -> Option<&'s Attribute> {
        let mut at = self;
        for (i, step) in steps.iter().enumerate() {
            let Step::Attribute(name) = step else {
                continue;
            };
            let attributes = match at {
                Nested::Block(block) => &block.attributes,
                Nested::Object(object) => &object.attributes,
            };
            if let Some(attribute) = attributes.get(*name) {
                let rest = &steps[i + 1..];
                return match &attribute.nested_type {
                    _ if rest.is_empty() => Some(attribute),
                    Some(nested) => Nested::Object(nested).attribute_by_path(rest),
                    None => None,
                };
            }
            // In a block, a name that is no attribute must be a nested block type; in a
            // nested attribute type it is passed over.
            if let Nested::Block(block) = at {
                at = Nested::Block(&block.block_types.get(*name)?.block);
            }
        }
        None
    }
}

/// A number that is a length: known, or unknown within inclusive bounds (go-cty's
/// `Length` of an unknown collection, or of a set holding unknowns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Length {
    Known(u64),
    /// Unknown, not null, at least `min` and at most `max` (`None`: go-cty's largest
    /// `int`).
    Within {
        min: u64,
        max: Option<u64>,
    },
}

/// The largest `int` on the 64-bit platforms Terraform runs on: go-cty's "no upper
/// bound" for lengths.
const MAX_INT: u64 = i64::MAX as u64;

impl Length {
    /// go-cty's `Length` of a non-null collection or structure at a position of type
    /// `ty`: a tuple's length is its type's; an unknown's is bounded by its refinements;
    /// a set holding unknowns (anywhere) with more than one element may shrink as they
    /// become known, to as few as one.
    pub(super) fn of(value: &Value, ty: &Type) -> Length {
        let (v, ty) = concrete(value, ty);
        match (v, &ty) {
            (_, Type::Tuple(ts)) => Length::Known(ts.len() as u64),
            (Value::Unknown(r), _) => Length::Within {
                min: r.length_lower_bound(),
                max: r.length_upper_bound(),
            },
            (Value::Set(s), _) if s.len() > 1 && !v.is_wholly_known() => Length::Within {
                min: 1,
                max: Some(s.len() as u64),
            },
            (v, _) => Length::Known(v.len().unwrap_or(0) as u64),
        }
    }

    fn bounds(self) -> (u64, u64) {
        match self {
            Length::Known(n) => (n, n),
            Length::Within { min, max } => (min, max.unwrap_or(MAX_INT)),
        }
    }

    /// Whether `self == other` is known to be false (go-cty's `Equals` of two numbers,
    /// one of them perhaps a refined unknown), or known true (`Some(true)`).
    pub(super) fn equals(self, other: Length) -> Option<bool> {
        match (self, other) {
            (Length::Known(a), Length::Known(b)) => Some(a == b),
            (Length::Within { .. }, Length::Within { .. }) => None,
            (Length::Known(n), unknown) | (unknown, Length::Known(n)) => {
                let (min, max) = unknown.bounds();
                (n < min || n > max).then_some(false)
            }
        }
    }

    /// Whether `other` may lie in the range of `self` (go-cty's `Range().Includes`),
    /// false only when the two ranges are known to be apart.
    pub(super) fn may_include(self, other: Length) -> bool {
        let (min, max) = self.bounds();
        let (omin, omax) = other.bounds();
        !(omax < min || omin > max)
    }

    /// This length as a cty number, as go-cty builds it (for messages): a known length,
    /// or an unknown number refined not null within the bounds.
    pub(super) fn to_value(self) -> Value {
        match self {
            Length::Known(n) => Value::from(n),
            Length::Within { min, max } => Value::Unknown(
                crate::Refinements::new()
                    .not_null()
                    .with_number_lower_bound(crate::Number::from(min), true)
                    .with_number_upper_bound(crate::Number::from(max.unwrap_or(MAX_INT)), true),
            ),
        }
    }
}

/// `value` (at a position of schema type `ty`) with the types that [`Value::Typed`]
/// wrappers record pushed down onto the values inside them that sit where the schema says
/// `dynamic`: a decoded `dynamic` LIST block holds a tuple whose recorded type says what
/// each null inside is, and the rules, which walk the schema, need it there. Borrowed
/// when no wrapper holds a structure.
pub(super) fn with_pushed_types<'v>(value: &'v Value, ty: &Type) -> Cow<'v, Value> {
    if wraps_structure(value) {
        Cow::Owned(push_types(value, ty, None))
    } else {
        Cow::Borrowed(value)
    }
}

fn wraps_structure(value: &Value) -> bool {
    match value {
        Value::Typed(t) => t.value.len().is_some() || wraps_structure(&t.value),
        Value::List(vs) | Value::Tuple(vs) => vs.iter().any(wraps_structure),
        Value::Set(s) => s.iter().any(wraps_structure),
        Value::Map(m) => m.values().any(wraps_structure),
        Value::Object(o) => o.values().iter().any(wraps_structure),
        _ => false,
    }
}

/// [`with_pushed_types`] of a value whose concrete type, when an enclosing wrapper says,
/// is `known`.
fn push_types(value: &Value, schema: &Type, known: Option<&Type>) -> Value {
    if let Value::Typed(t) = value {
        return Value::typed(
            t.ty.clone(),
            push_children(t.value.untyped(), schema, Some(&t.ty)),
        );
    }
    let rebuilt = push_children(value, schema, known);
    match known {
        Some(k) if *schema == Type::Dynamic && *k != Type::Dynamic => {
            Value::typed(k.clone(), rebuilt)
        }
        _ => rebuilt,
    }
}

fn push_children(value: &Value, schema: &Type, known: Option<&Type>) -> Value {
    let element = |i: usize| known.map(|k| element_type(k, i));
    match value {
        Value::List(vs) => Value::list(
            vs.iter()
                .enumerate()
                .map(|(i, v)| push_types(v, &element_type(schema, i), element(i).as_ref())),
        ),
        Value::Tuple(vs) => Value::tuple(
            vs.iter()
                .enumerate()
                .map(|(i, v)| push_types(v, &element_type(schema, i), element(i).as_ref())),
        ),
        Value::Set(s) => Value::set(
            s.iter()
                .map(|v| push_types(v, &element_type(schema, 0), element(0).as_ref())),
        ),
        Value::Map(m) => Value::map(m.iter().map(|(k, v)| {
            (
                k,
                push_types(v, &element_type(schema, 0), element(0).as_ref()),
            )
        })),
        Value::Object(o) => Value::object(o.iter().map(|(name, v)| {
            let k = known.map(|k| attribute_type(k, name));
            (
                name,
                push_types(v, &attribute_type(schema, name), k.as_ref()),
            )
        })),
        v => v.clone(),
    }
}

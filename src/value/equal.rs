//! cty's two equalities: [`Value::cty_equals`] (go-cty's `Value.Equals`, which answers
//! "unknown" where an unknown decides) and [`Value::raw_equals`] (go-cty's
//! `Value.RawEquals`, structural), with the comparison that finds where two values
//! differ, which [`diff`](crate::diff()) reports.

use std::cmp::Ordering;
use std::ops::ControlFlow;

use crate::types::Type;
use crate::value::walk::{
    attribute_type, element_type, part_type, resolve, tuple_element_type, AttributeTypes, DYNAMIC,
};
use crate::value::{set, Map, Object, Refinements, Value, NULL};

impl Value {
    /// go-cty's `Equals` for this value and `other`, both of type `ty`: `Some(true)` or
    /// `Some(false)` where the answer is known, `None` where an unknown decides it.
    ///
    /// - Nulls are equal to each other, whatever their types (at a `dynamic` position),
    ///   and unequal to anything known not to be null: a known value, or an unknown
    ///   refined as not null.
    /// - An unknown is unequal to a known value outside its refinements (a string
    ///   without its prefix, a number outside its bounds, a collection of another
    ///   length) or of a type it cannot have; otherwise the answer is `None`. Two
    ///   unknowns give `None`.
    /// - Known values: numbers by value ([`Number`](crate::Number)'s equality: `1` and
    ///   `1.0` are equal, float64 `0.1` and decimal `0.1` too); values of different
    ///   concrete types (at `dynamic` positions) are unequal; a value equals itself with
    ///   or without its [`Typed`](crate::Typed) wrapper when the types match. Lists,
    ///   tuples, maps and objects compare part by part, the first part that is not
    ///   equal deciding (`false`, or `None` for an unknown). go-cty takes object
    ///   attributes and map elements in Go's map order, which varies from run to run,
    ///   so that where one attribute is unequal and another unknown it may answer either;
    ///   this crate takes them in name order.
    /// - Sets: `None` if either holds an unknown element; otherwise equal when each
    ///   element of one is in the other by the set rules ([`Set::contains`](crate::Set::contains)),
    ///   so that a set holding an element with an unknown inside (a member of nothing)
    ///   is unequal to every set, as in go-cty.
    /// - Where a value holds an unknown whose type is not wholly known (at a `dynamic`
    ///   position), the answer is `None`, unless the two types cannot become the same.
    ///
    /// ```
    /// use ctywire::{Number, Refinements, Type, Value};
    ///
    /// let ty: Type = "object({name=string, size=number})".parse()?;
    /// let a = Value::object([("name", Value::from("web")), ("size", Value::from(1))]);
    /// let b = Value::object([("name", Value::from("web")), ("size", Value::Number("1.0".parse()?))]);
    /// assert_eq!(a.cty_equals(&b, &ty), Some(true));
    ///
    /// let planned = Value::object([("name", Value::from("web")), ("size", Value::unknown())]);
    /// assert_eq!(a.cty_equals(&planned, &ty), None);
    ///
    /// // Refinements decide where they can.
    /// let not_null = Value::Unknown(Refinements::new().not_null());
    /// assert_eq!(Value::Null.cty_equals(&not_null, &Type::String), Some(false));
    /// let arn = Value::Unknown(Refinements::new().with_string_prefix("arn:"));
    /// assert_eq!(Value::from("web").cty_equals(&arn, &Type::String), Some(false));
    ///
    /// // At a dynamic position, with or without the recorded type.
    /// let typed = Value::typed(Type::String, Value::from("web"));
    /// assert_eq!(typed.cty_equals(&Value::from("web"), &Type::Dynamic), Some(true));
    /// assert_eq!(typed.cty_equals(&Value::from(1), &Type::Dynamic), Some(false));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cty_equals(&self, other: &Value, ty: &Type) -> Option<bool> {
        let (ta, tb) = (resolve(self, ty), resolve(other, ty));
        let (a, b) = (self.untyped(), other.untyped());
        if let Some(decided) = decided_without_parts(a, b, &ta, &tb) {
            return decided;
        }
        if !has_known_type(a, &ta) || !has_known_type(b, &tb) {
            // The types may still become the same.
            return (!could_conform(&ta, &tb)).then_some(false);
        }
        if ta != tb {
            return Some(false);
        }
        known_equals(a, b, &ta)
    }

    /// go-cty's `RawEquals`: whether this value and `other`, both of type `ty`, are the
    /// same value. Unlike [`cty_equals`](Value::cty_equals) it never answers "unknown":
    /// two unknowns are equal when their refinements are; a null equals only a null of
    /// the same type; and values at `dynamic` positions must have the same concrete
    /// types. Numbers compare by value; sets element by element in their order; a value
    /// equals itself with or without its [`Typed`](crate::Typed) wrapper when the types
    /// match; a missing optional attribute equals a null one.
    ///
    /// Where `raw_equals` is false, [`diff`](crate::diff()) says where.
    ///
    /// ```
    /// use ctywire::{Refinements, Type, Value};
    ///
    /// let ty = Type::String;
    /// assert!(Value::unknown().raw_equals(&Value::unknown(), &ty));
    /// let not_null = Value::Unknown(Refinements::new().not_null());
    /// assert!(!Value::unknown().raw_equals(&not_null, &ty));
    ///
    /// // Nulls of different types, at a dynamic position.
    /// let null_string = Value::typed(Type::String, Value::Null);
    /// let null_number = Value::typed(Type::Number, Value::Null);
    /// assert!(!null_string.raw_equals(&null_number, &Type::Dynamic));
    /// assert_eq!(null_string.cty_equals(&null_number, &Type::Dynamic), Some(true));
    /// ```
    pub fn raw_equals(&self, other: &Value, ty: &Type) -> bool {
        compare(self, other, ty, &mut FirstDifference).is_continue()
    }
}

/// The answer where nulls, unknowns and refinements decide it (go-cty's checks before
/// it looks at types and parts): `Some(answer)`, or `None` to go on.
fn decided_without_parts(a: &Value, b: &Value, ta: &Type, tb: &Type) -> Option<Option<bool>> {
    if (a.is_null() && definitely_not_null(b)) || (b.is_null() && definitely_not_null(a)) {
        return Some(Some(false));
    }
    match (a, b) {
        (Value::Unknown(_), Value::Unknown(_)) => Some(None),
        (Value::Unknown(r), known) => Some(unknown_equals(r, ta, known, tb)),
        (known, Value::Unknown(r)) => Some(unknown_equals(r, tb, known, ta)),
        (Value::Null, Value::Null) => Some(Some(true)),
        (Value::Null, _) | (_, Value::Null) => Some(Some(false)),
        _ => None,
    }
}

/// Whether an unknown (with `refinements`, of type `ut`) equals the known value `known`
/// (of type `kt`).
fn unknown_equals(refinements: &Refinements, ut: &Type, known: &Value, kt: &Type) -> Option<bool> {
    if outside(refinements, ut, known, kt) {
        return Some(false);
    }
    // A null may equal whatever the unknown turns out to be; so may anything when the
    // unknown's type is not wholly known.
    if known.is_null() || ut.has_dynamic() || kt == ut {
        return None;
    }
    Some(false)
}

/// Whether a value is known not to be null: a known value, or an unknown refined so.
fn definitely_not_null(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Unknown(r) => r.is_not_null(),
        _ => true,
    }
}

/// Whether the known (or null) value `known` of type `kt` is certainly not a value that
/// an unknown of type `ut` with `refinements` can become (go-cty's
/// `ValueRange.Includes` being false).
pub(crate) fn outside(refinements: &Refinements, ut: &Type, known: &Value, kt: &Type) -> bool {
    match (refinements.nullness(), known.is_null()) {
        (Some(true), is_null) => return !is_null,
        (Some(false), true) => return true,
        (None, true) => return false,
        _ => {}
    }
    if !conforms(kt, ut) {
        return true;
    }
    match (ut, known) {
        (Type::String, Value::String(s)) => refinements
            .string_prefix()
            .is_some_and(|p| !s.starts_with(p)),
        (Type::Number, Value::Number(n)) => {
            // A refined unknown number has bounds; where none is given, go-cty's are the
            // infinities, exclusive: such a number is finite. An unrefined one may be
            // anything.
            let infinite = |negative: bool| {
                !refinements.is_empty() && n.is_infinite() && n.is_negative() == negative
            };
            let below = match refinements.number_lower_bound() {
                Some((lo, inclusive)) => {
                    let order = n.cmp_numeric(lo);
                    order.is_lt() || (order.is_eq() && !inclusive)
                }
                None => infinite(true),
            };
            let above = match refinements.number_upper_bound() {
                Some((hi, inclusive)) => {
                    let order = n.cmp_numeric(hi);
                    order.is_gt() || (order.is_eq() && !inclusive)
                }
                None => infinite(false),
            };
            below || above
        }
        (Type::List(_) | Type::Set(_) | Type::Map(_), _) => {
            let Some((shortest, longest)) = length_range(known) else {
                return false;
            };
            longest < refinements.length_lower_bound()
                || refinements
                    .length_upper_bound()
                    .is_some_and(|max| shortest > max)
        }
        _ => false,
    }
}

/// The least and greatest length a known collection can turn out to have: its length,
/// except for a set of more than one element with an unknown inside, whose elements may
/// turn out equal and merge (go-cty's `Value.Length`).
fn length_range(v: &Value) -> Option<(u64, u64)> {
    let n = v.len()? as u64;
    match v {
        Value::Set(s) if n > 1 && !s.iter().all(Value::is_wholly_known) => Some((1, n)),
        _ => Some((n, n)),
    }
}

/// go-cty's `Type.TestConformance`: whether `given` is `want`, where `dynamic` in `want`
/// stands for any type.
pub(crate) fn conforms(given: &Type, want: &Type) -> bool {
    match (given, want) {
        (_, Type::Dynamic) => true,
        (Type::List(g), Type::List(w))
        | (Type::Set(g), Type::Set(w))
        | (Type::Map(g), Type::Map(w)) => conforms(g, w),
        (Type::Tuple(g), Type::Tuple(w)) => {
            g.len() == w.len() && g.iter().zip(w.iter()).all(|(g, w)| conforms(g, w))
        }
        (Type::Object(g), Type::Object(w)) => {
            g.names() == w.names() && g.types().iter().zip(w.types()).all(|(g, w)| conforms(g, w))
        }
        _ => given == want,
    }
}

/// Whether two types, `dynamic` standing for any type in each, may become the same.
fn could_conform(a: &Type, b: &Type) -> bool {
    conforms(a, b) || conforms(b, a)
}

/// go-cty's `HasWhollyKnownType`: whether `v` of type `ty` holds no unknown whose type
/// holds `dynamic`.
fn has_known_type(v: &Value, ty: &Type) -> bool {
    match v.untyped() {
        Value::Unknown(_) => !ty.has_dynamic(),
        Value::List(vs) => vs.iter().all(|e| has_known_type(e, element_type(ty))),
        Value::Set(s) => s.iter().all(|e| has_known_type(e, element_type(ty))),
        Value::Map(m) => m.values().all(|e| has_known_type(e, element_type(ty))),
        Value::Tuple(vs) => vs
            .iter()
            .enumerate()
            .all(|(i, e)| has_known_type(e, tuple_element_type(ty, i))),
        Value::Object(o) => {
            let types = AttributeTypes::of(ty, o);
            o.iter()
                .enumerate()
                .all(|(i, (n, e))| has_known_type(e, types.get(i, n)))
        }
        _ => true,
    }
}

/// [`Value::cty_equals`] of two known, non-null values (without wrappers) of type `ty`.
fn known_equals(a: &Value, b: &Value, ty: &Type) -> Option<bool> {
    match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => Some(x == y),
        (Value::Number(x), Value::Number(y)) => Some(x == y),
        (Value::String(x), Value::String(y)) => Some(x == y),
        (Value::List(x), Value::List(y)) => {
            let t = element_type(ty);
            all_equal(
                x.len() == y.len(),
                x.iter().zip(y.iter()).map(|(a, b)| (a, b, t)),
            )
        }
        (Value::Tuple(x), Value::Tuple(y)) => all_equal(
            x.len() == y.len(),
            x.iter()
                .zip(y.iter())
                .enumerate()
                .map(|(i, (a, b))| (a, b, tuple_element_type(ty, i))),
        ),
        (Value::Map(x), Value::Map(y)) => {
            let t = element_type(ty);
            if x.len() != y.len() {
                return Some(false);
            }
            for (k, a) in x.iter() {
                let Some(b) = y.get(k) else {
                    return Some(false);
                };
                if !part_equals(a, b, t)? {
                    return Some(false);
                }
            }
            Some(true)
        }
        (Value::Object(x), Value::Object(y)) => match ty {
            Type::Object(o) if o.names() == x.names() && o.names() == y.names() => all_equal(
                true,
                x.values()
                    .iter()
                    .zip(y.values())
                    .zip(o.types())
                    .map(|((a, b), t)| (a, b, t)),
            ),
            Type::Object(o) => all_equal(
                true,
                o.iter().map(|(name, t, _)| {
                    (
                        x.get(name).unwrap_or(&NULL),
                        y.get(name).unwrap_or(&NULL),
                        t,
                    )
                }),
            ),
            _ => all_equal(
                x.names() == y.names(),
                x.values()
                    .iter()
                    .zip(y.values())
                    .map(|(a, b)| (a, b, &DYNAMIC)),
            ),
        },
        (Value::Set(x), Value::Set(y)) => {
            if x.iter().chain(y.iter()).any(Value::is_unknown) {
                return None;
            }
            Some(set::same_members(x.as_slice(), y.as_slice()))
        }
        _ => Some(false),
    }
}

/// Whether every pair of parts is equal, the first pair that is not deciding (`false`,
/// or `None` for an unknown); `false` at once unless `shapes_match`.
fn all_equal<'v, 't>(
    shapes_match: bool,
    parts: impl Iterator<Item = (&'v Value, &'v Value, &'t Type)>,
) -> Option<bool> {
    if !shapes_match {
        return Some(false);
    }
    for (a, b, t) in parts {
        if !part_equals(a, b, t)? {
            return Some(false);
        }
    }
    Some(true)
}

/// [`Value::cty_equals`] of two parts at a position of type `ty`, inside values whose
/// types are wholly known and equal: `ty` is then the type of both, unless it is
/// `dynamic` (at a null, or where a value did not fit its type).
fn part_equals(a: &Value, b: &Value, ty: &Type) -> Option<bool> {
    let (ta, tb) = (part_type(a, ty), part_type(b, ty));
    let (a, b) = (a.untyped(), b.untyped());
    if let Some(decided) = decided_without_parts(a, b, &ta, &tb) {
        return decided;
    }
    if !std::ptr::eq(&*ta, &*tb) && ta != tb {
        return Some(false);
    }
    known_equals(a, b, &ta)
}

/// Receives the places where two values differ, as [`compare`] finds them.
pub(crate) trait Differences<'a> {
    /// Whether every difference is wanted: otherwise the comparison only asks whether
    /// there is one, and may compare a set's elements one by one.
    const EVERY: bool;

    /// `old` and `new` differ at `path`, a position of type `ty`; `None` is a value
    /// absent there (a map element or an attribute that only the other has). Break to
    /// stop the comparison.
    fn difference(
        &mut self,
        path: &[Step<'a>],
        ty: &Type,
        old: Option<&'a Value>,
        new: Option<&'a Value>,
    ) -> ControlFlow<()>;
}

pub(crate) use crate::path::StepRef as Step;

/// Stops at the first difference.
pub(crate) struct FirstDifference;

impl<'a> Differences<'a> for FirstDifference {
    const EVERY: bool = false;

    fn difference(
        &mut self,
        _: &[Step<'a>],
        _: &Type,
        _: Option<&'a Value>,
        _: Option<&'a Value>,
    ) -> ControlFlow<()> {
        ControlFlow::Break(())
    }
}

/// Compares `old` and `new` (both of type `ty`) as [`Value::raw_equals`] does, and
/// tells `out` each place where they differ, the least ones: a difference inside a
/// value is reported there, not at the value. A value of another kind, a null or an
/// unknown on either side, a list or tuple of another length, a set with other
/// elements (set elements have no place of their own), and a value at a `dynamic`
/// position whose concrete type changes, differ as a whole; map elements and object
/// attributes that only one side has are reported absent on the other. Breaks where
/// `out` does.
pub(crate) fn compare<'a>(
    old: &'a Value,
    new: &'a Value,
    ty: &Type,
    out: &mut impl Differences<'a>,
) -> ControlFlow<()> {
    let (to, tn) = (resolve(old, ty), resolve(new, ty));
    Comparison {
        steps: Vec::new(),
        out,
    }
    .compare(old, new, ty, &to, &tn)
}

/// A comparison under way: where it is, and who hears of differences.
struct Comparison<'a, 'o, D> {
    steps: Vec<Step<'a>>,
    out: &'o mut D,
}

impl<'a, D: Differences<'a>> Comparison<'a, '_, D> {
    /// Compares `old` and `new` at a position of type `schema`, where their concrete
    /// types are `to` and `tn` (equal to `schema` but at its `dynamic` positions).
    fn compare(
        &mut self,
        old: &'a Value,
        new: &'a Value,
        schema: &Type,
        to: &Type,
        tn: &Type,
    ) -> ControlFlow<()> {
        let mut schema = schema;
        if *schema == Type::Dynamic {
            if !std::ptr::eq(to, tn) && to != tn {
                return self.differ(schema, Some(old), Some(new));
            }
            // Below a dynamic position, the value's own type tells what is where.
            schema = to;
        }
        let same = match (old.untyped(), new.untyped()) {
            (Value::Null, Value::Null) => true,
            (Value::Unknown(x), Value::Unknown(y)) => x == y,
            (Value::Bool(x), Value::Bool(y)) => x == y,
            (Value::Number(x), Value::Number(y)) => x == y,
            (Value::String(x), Value::String(y)) => x == y,
            (Value::List(x), Value::List(y)) if x.len() == y.len() => {
                let types = (element_type(schema), element_type(to), element_type(tn));
                for (i, (a, b)) in x.iter().zip(y.iter()).enumerate() {
                    self.part(Step::Index(i), a, b, types)?;
                }
                true
            }
            (Value::Tuple(x), Value::Tuple(y)) if x.len() == y.len() => {
                for (i, (a, b)) in x.iter().zip(y.iter()).enumerate() {
                    let types = (
                        tuple_element_type(schema, i),
                        tuple_element_type(to, i),
                        tuple_element_type(tn, i),
                    );
                    self.part(Step::Index(i), a, b, types)?;
                }
                true
            }
            (Value::Set(x), Value::Set(y)) if x.len() == y.len() => {
                let types = (element_type(schema), element_type(to), element_type(tn));
                let mut pairs = x.iter().zip(y.iter()).enumerate();
                if D::EVERY {
                    // A set changes as a whole: its elements are found by value.
                    let mut first = Comparison {
                        steps: Vec::new(),
                        out: &mut FirstDifference,
                    };
                    pairs.all(|(i, (a, b))| first.part(Step::Index(i), a, b, types).is_continue())
                } else {
                    for (i, (a, b)) in pairs {
                        self.part(Step::Index(i), a, b, types)?;
                    }
                    true
                }
            }
            (Value::Map(x), Value::Map(y)) => {
                self.maps(x, y, schema, to, tn)?;
                true
            }
            (Value::Object(x), Value::Object(y)) => {
                self.objects(x, y, schema, to, tn)?;
                true
            }
            _ => false,
        };
        if same {
            ControlFlow::Continue(())
        } else {
            self.differ(schema, Some(old), Some(new))
        }
    }

    /// Compares the parts `old` and `new` at the next step, whose types are `schema`,
    /// `to` and `tn` as in [`compare`](Self::compare).
    fn part(
        &mut self,
        step: Step<'a>,
        old: &'a Value,
        new: &'a Value,
        (schema, to, tn): (&Type, &Type, &Type),
    ) -> ControlFlow<()> {
        self.steps.push(step);
        let flow = self.compare(old, new, schema, &part_type(old, to), &part_type(new, tn));
        self.steps.pop();
        flow
    }

    /// A part that only one side has, at the next step.
    fn one_sided(
        &mut self,
        step: Step<'a>,
        ty: &Type,
        old: Option<&'a Value>,
        new: Option<&'a Value>,
    ) -> ControlFlow<()> {
        self.steps.push(step);
        let flow = self.out.difference(&self.steps, ty, old, new);
        self.steps.pop();
        flow
    }

    fn differ(
        &mut self,
        ty: &Type,
        old: Option<&'a Value>,
        new: Option<&'a Value>,
    ) -> ControlFlow<()> {
        self.out.difference(&self.steps, ty, old, new)
    }

    /// Map elements by key: those of both compared, the others absent on one side.
    fn maps(
        &mut self,
        x: &'a Map,
        y: &'a Map,
        schema: &Type,
        to: &Type,
        tn: &Type,
    ) -> ControlFlow<()> {
        let types = (element_type(schema), element_type(to), element_type(tn));
        for entry in merge(x.iter(), y.iter()) {
            match entry {
                (k, Some(a), Some(b)) => self.part(Step::Key(k), a, b, types)?,
                (k, a, b) => self.one_sided(Step::Key(k), types.0, a, b)?,
            }
        }
        ControlFlow::Continue(())
    }

    /// Object attributes by name: an attribute one value lacks is null there if the
    /// type has it (as `raw_equals` reads it; the encoders refuse it unless the type
    /// marks it optional), and absent otherwise.
    fn objects(
        &mut self,
        x: &'a Object,
        y: &'a Object,
        schema: &Type,
        to: &Type,
        tn: &Type,
    ) -> ControlFlow<()> {
        if x.names() == y.names() {
            let (schema, to, tn) = (
                AttributeTypes::of(schema, x),
                AttributeTypes::of(to, x),
                AttributeTypes::of(tn, x),
            );
            for (i, ((name, a), b)) in x.iter().zip(y.values()).enumerate() {
                let types = (schema.get(i, name), to.get(i, name), tn.get(i, name));
                self.part(Step::Attribute(name), a, b, types)?;
            }
            return ControlFlow::Continue(());
        }
        let in_type = |name: &str| {
            schema
                .as_object()
                .is_some_and(|o| o.attribute(name).is_some())
        };
        for (name, a, b) in merge(x.iter(), y.iter()) {
            let types = (
                attribute_type(schema, name),
                attribute_type(to, name),
                attribute_type(tn, name),
            );
            let missing = || in_type(name).then_some(&NULL);
            match (a.or_else(missing), b.or_else(missing)) {
                (Some(a), Some(b)) => self.part(Step::Attribute(name), a, b, types)?,
                (a, b) => self.one_sided(Step::Attribute(name), types.0, a, b)?,
            }
        }
        ControlFlow::Continue(())
    }
}

/// The entries of two sequences sorted by name, merged by name: each name with its
/// value on each side (`None` on the side that lacks it).
fn merge<'a>(
    x: impl Iterator<Item = (&'a str, &'a Value)>,
    y: impl Iterator<Item = (&'a str, &'a Value)>,
) -> impl Iterator<Item = (&'a str, Option<&'a Value>, Option<&'a Value>)> {
    let (mut x, mut y) = (x.peekable(), y.peekable());
    std::iter::from_fn(move || {
        let order = match (x.peek(), y.peek()) {
            (None, None) => return None,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some((a, _)), Some((b, _))) => a.cmp(b),
        };
        Some(match order {
            Ordering::Less => x.next().map(|(n, a)| (n, Some(a), None))?,
            Ordering::Greater => y.next().map(|(n, b)| (n, None, Some(b)))?,
            Ordering::Equal => {
                let (n, a) = x.next()?;
                let (_, b) = y.next()?;
                (n, Some(a), Some(b))
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Number;

    fn t(expr: &str) -> Type {
        expr.parse().unwrap()
    }

    fn n(text: &str) -> Value {
        Value::Number(text.parse().unwrap())
    }

    fn s(text: &str) -> Value {
        Value::from(text)
    }

    fn refined(r: Refinements) -> Value {
        Value::Unknown(r)
    }

    /// go-cty's `Equals` on cases where refinements, nulls, unknowns, dynamic types and
    /// the order of parts decide (go-cty 1.14 and later).
    #[test]
    fn cty_equals_table() {
        let not_null = || Refinements::new().not_null();
        let r#false = Some(false);
        let cases: Vec<(&str, Value, Value, Option<bool>)> = vec![
            ("number", n("1"), n("1.0"), Some(true)),
            (
                "number",
                Value::Number(Number::from_f64(0.1).unwrap()),
                n("0.1"),
                Some(true),
            ),
            (
                "number",
                n("0"),
                Value::Number(Number::from_f64(-0.0).unwrap()),
                Some(true),
            ),
            ("string", Value::Null, Value::Null, Some(true)),
            ("string", Value::Null, s(""), r#false),
            ("string", Value::Null, Value::unknown(), None),
            ("string", Value::Null, refined(not_null()), r#false),
            ("string", refined(not_null()), refined(not_null()), None),
            (
                "string",
                s("arn:1"),
                refined(not_null().with_string_prefix("arn:")),
                None,
            ),
            (
                "string",
                s("web"),
                refined(not_null().with_string_prefix("arn:")),
                r#false,
            ),
            (
                "number",
                n("5"),
                refined(Refinements::new().with_number_lower_bound(Number::from(5), false)),
                r#false,
            ),
            (
                "number",
                n("5"),
                refined(Refinements::new().with_number_lower_bound(Number::from(5), true)),
                None,
            ),
            (
                "number",
                n("7"),
                refined(Refinements::new().with_number_upper_bound(Number::from(6), true)),
                r#false,
            ),
            // A refined unknown number is finite unless a bound says otherwise.
            (
                "number",
                Value::Number(Number::infinity()),
                Value::unknown(),
                None,
            ),
            (
                "number",
                Value::Number(Number::infinity()),
                refined(not_null()),
                r#false,
            ),
            (
                "number",
                Value::Number(Number::infinity()),
                refined(Refinements::new().with_number_upper_bound(Number::infinity(), true)),
                None,
            ),
            (
                "list(string)",
                Value::list([s("a")]),
                refined(Refinements::new().with_length_lower_bound(2)),
                r#false,
            ),
            (
                "list(string)",
                Value::list([s("a")]),
                refined(Refinements::new().with_length_upper_bound(0)),
                r#false,
            ),
            (
                "list(string)",
                Value::list([s("a")]),
                refined(Refinements::new().with_length_lower_bound(1)),
                None,
            ),
            // A set of two elements, one unknown, may turn out to have one.
            (
                "set(string)",
                Value::set([s("a"), Value::unknown()]),
                refined(Refinements::new().with_length_upper_bound(1)),
                None,
            ),
            (
                "set(string)",
                Value::set([s("a"), s("b")]),
                refined(Refinements::new().with_length_upper_bound(1)),
                r#false,
            ),
            (
                "set(string)",
                Value::set([s("a"), Value::unknown()]),
                refined(Refinements::new().with_length_lower_bound(3)),
                r#false,
            ),
            // Lists: the first part that is not equal decides.
            (
                "list(string)",
                Value::list([Value::unknown(), s("a")]),
                Value::list([s("x"), s("b")]),
                None,
            ),
            (
                "list(string)",
                Value::list([s("a"), Value::unknown()]),
                Value::list([s("b"), s("x")]),
                r#false,
            ),
            (
                "list(string)",
                Value::list([s("a")]),
                Value::list([s("a"), s("b")]),
                r#false,
            ),
            // Objects: in name order here (Go's map order in go-cty).
            (
                "object({a=string,b=string})",
                Value::object([("a", Value::unknown()), ("b", s("x"))]),
                Value::object([("a", s("a")), ("b", s("y"))]),
                None,
            ),
            (
                "object({a=string,b=string})",
                Value::object([("a", s("x")), ("b", Value::unknown())]),
                Value::object([("a", s("y")), ("b", s("b"))]),
                r#false,
            ),
            (
                "map(string)",
                Value::map([("a", s("x"))]),
                Value::map([("b", s("x"))]),
                r#false,
            ),
            (
                "map(string)",
                Value::map([("a", s("x"))]),
                Value::map([("a", s("x")), ("b", s("y"))]),
                r#false,
            ),
            // Sets: an unknown element makes the answer unknown; an element with an
            // unknown inside is a member of nothing.
            (
                "set(string)",
                Value::set([s("a"), Value::unknown()]),
                Value::set([s("b")]),
                None,
            ),
            (
                "set(list(string))",
                Value::set([Value::list([Value::unknown()])]),
                Value::set([Value::list([Value::unknown()])]),
                r#false,
            ),
            (
                "set(string)",
                Value::set([s("b"), s("a")]),
                Value::set([s("a"), s("b")]),
                Some(true),
            ),
            (
                "set(number)",
                Value::set([Value::Number(Number::from_f64(-0.0).unwrap())]),
                Value::set([n("0")]),
                r#false,
            ),
            // Dynamic positions.
            (
                "any",
                Value::typed(Type::String, s("a")),
                s("a"),
                Some(true),
            ),
            (
                "any",
                Value::typed(Type::String, Value::Null),
                Value::typed(Type::Number, Value::Null),
                Some(true),
            ),
            ("any", Value::typed(Type::String, s("1")), n("1"), r#false),
            ("any", Value::unknown(), s("a"), None),
            (
                "any",
                Value::typed(Type::String, Value::unknown()),
                n("1"),
                r#false,
            ),
            (
                "any",
                Value::typed(Type::String, Value::unknown()),
                s("1"),
                None,
            ),
            (
                "list(any)",
                Value::list([s("a")]),
                Value::list([n("1")]),
                r#false,
            ),
            // An unknown of a type holding `dynamic` inside: unknown, unless the types
            // cannot become one.
            (
                "object({a=any,b=string})",
                Value::object([("a", Value::unknown()), ("b", s("x"))]),
                Value::object([("a", s("a")), ("b", s("y"))]),
                None,
            ),
            (
                "any",
                Value::tuple([Value::unknown(), s("x")]),
                Value::tuple([s("a"), s("y")]),
                None,
            ),
            (
                "any",
                Value::tuple([Value::unknown(), s("x")]),
                Value::tuple([s("a"), n("2")]),
                r#false,
            ),
            (
                "any",
                Value::tuple([Value::unknown(), s("x")]),
                Value::tuple([s("a"), n("1"), n("2")]),
                r#false,
            ),
        ];
        for (ty, a, b, want) in cases {
            let ty = t(ty);
            assert_eq!(a.cty_equals(&b, &ty), want, "{a:?} == {b:?} as {ty}");
            assert_eq!(b.cty_equals(&a, &ty), want, "{b:?} == {a:?} as {ty}");
        }
    }

    /// go-cty's `RawEquals`: unknowns equal when their refinements are, types matter at
    /// dynamic positions, a missing optional attribute is null.
    #[test]
    fn raw_equals_table() {
        let prefix = |p: &str| Value::Unknown(Refinements::new().with_string_prefix(p));
        let cases: Vec<(&str, Value, Value, bool)> = vec![
            ("string", Value::unknown(), Value::unknown(), true),
            ("string", prefix("a"), prefix("a"), true),
            ("string", prefix("a"), prefix("b"), false),
            ("string", Value::Null, Value::unknown(), false),
            ("number", n("1"), n("1.00"), true),
            (
                "any",
                Value::typed(Type::String, Value::Null),
                Value::Null,
                false,
            ),
            ("any", Value::typed(Type::String, s("a")), s("a"), true),
            (
                "list(any)",
                Value::list([Value::Null, s("a")]),
                Value::list([Value::typed(Type::String, Value::Null), s("a")]),
                true,
            ),
            (
                "object({a=string,b=optional(string)})",
                Value::object([("a", s("x"))]),
                Value::object([("a", s("x")), ("b", Value::Null)]),
                true,
            ),
            (
                "set(string)",
                Value::set([Value::unknown()]),
                Value::set([Value::unknown()]),
                true,
            ),
        ];
        for (ty, a, b, want) in cases {
            let ty = t(ty);
            assert_eq!(a.raw_equals(&b, &ty), want, "{a:?} == {b:?} as {ty}");
            assert_eq!(b.raw_equals(&a, &ty), want, "{b:?} == {a:?} as {ty}");
        }
    }
}

//! Values and types in cty's Go syntax (Go's `%#v`), as Terraform prints them in the
//! messages of its plan and apply checks: `cty.StringVal("a")`,
//! `cty.ObjectVal(map[string]cty.Value{"id":cty.UnknownVal(cty.String)})`.

use std::fmt::Write as _;

use super::conform;
use crate::path::{Path, PathStep};
use crate::types::Type;
use crate::value::{Refinements, Value};

impl Value {
    /// This value, of type `ty`, written as go-cty's `GoString` writes it: the Go
    /// expression that builds the value, which is how Terraform prints values in
    /// "Provider produced invalid plan" and "inconsistent result after apply" messages.
    ///
    /// Numbers follow go-cty: an integer is `cty.NumberIntVal(…)` (written as Go's `%v`
    /// writes the number, so a million is `1e+06`), another number that is exactly a
    /// float64 is `cty.NumberFloatVal(…)`, any other `cty.MustParseNumberVal("…")`. Map
    /// entries and object attributes come in key order, set elements in set order.
    /// Unknowns show their refinements as the calls that make them.
    ///
    /// ```
    /// use ctywire::{Refinements, Type, Value};
    ///
    /// let ty: Type = "object({id=string, ports=list(number), tags=map(string)})".parse()?;
    /// let v = Value::object([
    ///     ("id", Value::Unknown(Refinements::new().not_null())),
    ///     ("ports", Value::list([Value::from(80)])),
    ///     ("tags", Value::Null),
    /// ]);
    /// assert_eq!(
    ///     v.to_go_syntax(&ty),
    ///     r#"cty.ObjectVal(map[string]cty.Value{"id":cty.UnknownVal(cty.String).RefineNotNull(), "ports":cty.ListVal([]cty.Value{cty.NumberIntVal(80)}), "tags":cty.NullVal(cty.Map(cty.String))})"#,
    /// );
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn to_go_syntax(&self, ty: &Type) -> String {
        let mut out = String::new();
        write_value(&mut out, self, ty);
        out
    }
}

impl Type {
    /// This type written as go-cty's `GoString` writes it: `cty.String`,
    /// `cty.List(cty.Number)`, `cty.Object(map[string]cty.Type{"a":cty.Bool})`,
    /// `cty.DynamicPseudoType`.
    ///
    /// ```
    /// use ctywire::Type;
    ///
    /// let ty: Type = "map(object({a=string, b=optional(number)}))".parse()?;
    /// assert_eq!(
    ///     ty.to_go_syntax(),
    ///     r#"cty.Map(cty.ObjectWithOptionalAttrs(map[string]cty.Type{"a":cty.String, "b":cty.Number}, []string{"b"}))"#,
    /// );
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn to_go_syntax(&self) -> String {
        let mut out = String::new();
        write_type(&mut out, self);
        out
    }
}

impl Path {
    /// This path written as Go's `%#v` writes a `cty.Path`, which is how Terraform names
    /// a path in some of its messages (a `RequiresReplace` path that leads nowhere):
    /// `cty.Path{cty.GetAttrStep{Name:"disk"}, cty.IndexStep{Key:cty.NumberIntVal(0)}}`;
    /// the empty path is `cty.Path(nil)`. A map key is a `cty.StringVal`, an index a
    /// `cty.NumberIntVal`, and a set element its value as
    /// [`Value::to_go_syntax`] writes it, of the element type that `ty` (the type of the
    /// value the path starts from) gives it.
    ///
    /// ```
    /// use ctywire::{Path, Type, Value};
    ///
    /// let ty: Type = "object({rule=set(object({port=number})), tags=map(string)})".parse()?;
    /// assert_eq!(
    ///     Path::root().attribute("tags").key("env").to_go_syntax(&ty),
    ///     r#"cty.Path{cty.GetAttrStep{Name:"tags"}, cty.IndexStep{Key:cty.StringVal("env")}}"#,
    /// );
    /// let rule = Path::root().attribute("rule").element(Value::object([("port", Value::Null)]));
    /// assert_eq!(
    ///     rule.to_go_syntax(&ty),
    ///     r#"cty.Path{cty.GetAttrStep{Name:"rule"}, cty.IndexStep{Key:cty.ObjectVal(map[string]cty.Value{"port":cty.NullVal(cty.Number)})}}"#,
    /// );
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn to_go_syntax(&self, ty: &Type) -> String {
        if self.is_empty() {
            return "cty.Path(nil)".to_owned();
        }
        let mut out = String::from("cty.Path{");
        let mut at = Some(ty);
        for (i, step) in self.steps().iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let next = at.and_then(|t| step_type(t, step));
            match step {
                PathStep::Attribute(name) => {
                    out.push_str("cty.GetAttrStep{Name:");
                    quote(&mut out, name);
                    out.push('}');
                }
                PathStep::Key(key) => {
                    out.push_str("cty.IndexStep{Key:cty.StringVal(");
                    quote(&mut out, key);
                    out.push_str(")}");
                }
                PathStep::Index(index) => {
                    out.push_str("cty.IndexStep{Key:");
                    write_number(&mut out, &crate::Number::from(*index));
                    out.push('}');
                }
                PathStep::SetElement(element) => {
                    out.push_str("cty.IndexStep{Key:");
                    // A `dynamic` position (or one the type does not reach) writes the
                    // element's own type.
                    write_value(&mut out, element, next.unwrap_or(&Type::Dynamic));
                    out.push('}');
                }
            }
            at = next;
        }
        out.push('}');
        out
    }
}

/// The type of the part of a value of type `ty` that `step` leads to, when `ty` says.
fn step_type<'t>(ty: &'t Type, step: &PathStep) -> Option<&'t Type> {
    match (ty, step) {
        (Type::Object(o), PathStep::Attribute(n) | PathStep::Key(n)) => o.attribute(n),
        (Type::Map(e), PathStep::Attribute(_) | PathStep::Key(_)) => Some(e),
        (Type::List(e) | Type::Set(e), PathStep::Index(_) | PathStep::SetElement(_)) => Some(e),
        (Type::Tuple(ts), PathStep::Index(i)) => usize::try_from(*i).ok().and_then(|i| ts.get(i)),
        _ => None,
    }
}

fn write_type(out: &mut String, ty: &Type) {
    match ty {
        Type::Bool => out.push_str("cty.Bool"),
        Type::Number => out.push_str("cty.Number"),
        Type::String => out.push_str("cty.String"),
        Type::Dynamic => out.push_str("cty.DynamicPseudoType"),
        Type::List(e) => wrapped(out, "cty.List(", e),
        Type::Set(e) => wrapped(out, "cty.Set(", e),
        Type::Map(e) => wrapped(out, "cty.Map(", e),
        Type::Tuple(ts) if ts.is_empty() => out.push_str("cty.EmptyTuple"),
        Type::Tuple(ts) => {
            out.push_str("cty.Tuple([]cty.Type{");
            for (i, t) in ts.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_type(out, t);
            }
            out.push_str("})");
        }
        Type::Object(o) if o.is_empty() => out.push_str("cty.EmptyObject"),
        Type::Object(o) => {
            let optional: Vec<&str> = o.iter().filter(|a| a.2).map(|a| a.0).collect();
            out.push_str(if optional.is_empty() {
                "cty.Object("
            } else {
                "cty.ObjectWithOptionalAttrs("
            });
            out.push_str("map[string]cty.Type{");
            for (i, (name, t, _)) in o.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                quote(out, name);
                out.push(':');
                write_type(out, t);
            }
            out.push('}');
            if !optional.is_empty() {
                out.push_str(", []string{");
                for (i, name) in optional.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    quote(out, name);
                }
                out.push('}');
            }
            out.push(')');
        }
    }
}

fn wrapped(out: &mut String, open: &str, inner: &Type) {
    out.push_str(open);
    write_type(out, inner);
    out.push(')');
}

fn quote(out: &mut String, s: &str) {
    out.push_str(&crate::text::go_quote(s));
}

fn write_value(out: &mut String, value: &Value, ty: &Type) {
    let (value, ty) = match value {
        Value::Typed(t) => (
            t.value.untyped(),
            conform::typed_type(t)
                .map(|c| c.into_owned())
                .unwrap_or_else(|_| t.ty.clone()),
        ),
        v if *ty == Type::Dynamic => match v {
            Value::Null | Value::Unknown(_) => (v, Type::Dynamic),
            v => (
                v,
                conform::concrete_type(v, &Type::Dynamic).unwrap_or(Type::Dynamic),
            ),
        },
        v => (v, ty.clone()),
    };
    let element = |i: usize| match &ty {
        Type::Tuple(ts) => ts.get(i).cloned().unwrap_or(Type::Dynamic),
        t => t.element_type().cloned().unwrap_or(Type::Dynamic),
    };
    match value {
        Value::Null => wrapped(out, "cty.NullVal(", &ty),
        Value::Unknown(_) if ty == Type::Dynamic => out.push_str("cty.DynamicVal"),
        Value::Unknown(r) => {
            out.push_str("cty.UnknownVal(");
            write_type(out, &ty);
            out.push(')');
            write_refinements(out, r, &ty);
        }
        Value::Bool(true) => out.push_str("cty.True"),
        Value::Bool(false) => out.push_str("cty.False"),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => {
            out.push_str("cty.StringVal(");
            quote(out, s);
            out.push(')');
        }
        Value::List(vs) if vs.is_empty() => wrapped(out, "cty.ListValEmpty(", &element(0)),
        Value::Set(s) if s.is_empty() => wrapped(out, "cty.SetValEmpty(", &element(0)),
        Value::List(vs) => sequence(out, "cty.ListVal(", vs, element),
        Value::Set(s) => sequence(out, "cty.SetVal(", s.as_slice(), element),
        Value::Tuple(vs) if vs.is_empty() => out.push_str("cty.EmptyTupleVal"),
        Value::Tuple(vs) => sequence(out, "cty.TupleVal(", vs, element),
        Value::Map(m) if m.is_empty() => wrapped(out, "cty.MapValEmpty(", &element(0)),
        Value::Map(m) => {
            let e = element(0);
            entries(out, "cty.MapVal(", m.iter().map(|(k, v)| (k, v, e.clone())));
        }
        Value::Object(o) if o.is_empty() => out.push_str("cty.EmptyObjectVal"),
        Value::Object(o) => {
            let attribute = |name: &str| {
                ty.as_object()
                    .and_then(|ot| ot.attribute(name))
                    .cloned()
                    .unwrap_or(Type::Dynamic)
            };
            entries(
                out,
                "cty.ObjectVal(",
                o.iter().map(|(k, v)| (k, v, attribute(k))),
            );
        }
        Value::Typed(_) => unreachable!("unwrapped above"),
    }
}

fn sequence(out: &mut String, open: &str, values: &[Value], element: impl Fn(usize) -> Type) {
    out.push_str(open);
    out.push_str("[]cty.Value{");
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_value(out, v, &element(i));
    }
    out.push_str("})");
}

fn entries<'v>(
    out: &mut String,
    open: &str,
    entries: impl Iterator<Item = (&'v str, &'v Value, Type)>,
) {
    out.push_str(open);
    out.push_str("map[string]cty.Value{");
    for (i, (k, v, t)) in entries.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        quote(out, k);
        out.push(':');
        write_value(out, v, &t);
    }
    out.push_str("})");
}

/// A number as go-cty's `GoString`: `NumberIntVal` for integers, `NumberFloatVal` for
/// other numbers that are exactly a float64 (and the infinities), `MustParseNumberVal`
/// with the plain decimal text for the rest.
fn write_number(out: &mut String, n: &crate::Number) {
    if n.is_integer() {
        let _ = write!(out, "cty.NumberIntVal({})", n.go_text_g());
    } else if n.is_infinite() || n.is_exact_f64() {
        let f = crate::Number::from_f64(n.to_f64());
        let text = f.map(|f| f.go_text_g()).unwrap_or_else(|| n.go_text_g());
        let _ = write!(out, "cty.NumberFloatVal({text})");
    } else {
        out.push_str("cty.MustParseNumberVal(");
        quote(out, &n.to_string());
        out.push(')');
    }
}

/// The refinement calls after `cty.UnknownVal(T)`: `.RefineNotNull()` when that is all,
/// else `.Refine()`, one call per refinement that applies to `ty`, `.NewValue()`.
fn write_refinements(out: &mut String, r: &Refinements, ty: &Type) {
    let mut calls = String::new();
    match r.nullness() {
        Some(false) => calls.push_str(".NotNull()"),
        Some(true) => calls.push_str(".Null()"),
        None => {}
    }
    match ty {
        Type::String => {
            if let Some(p) = r.string_prefix() {
                calls.push_str(".StringPrefixFull(");
                quote(&mut calls, p);
                calls.push(')');
            }
        }
        Type::Number => {
            for (name, bound) in [
                ("NumberLowerBound", r.number_lower_bound()),
                ("NumberUpperBound", r.number_upper_bound()),
            ] {
                if let Some((n, inclusive)) = bound.filter(|(n, _)| !n.is_infinite()) {
                    let _ = write!(calls, ".{name}(");
                    write_number(&mut calls, n);
                    let _ = write!(calls, ", {inclusive})");
                }
            }
        }
        Type::List(_) | Type::Set(_) | Type::Map(_) => {
            if r.length_lower_bound() > 0 {
                let _ = write!(
                    calls,
                    ".CollectionLengthLowerBound({})",
                    r.length_lower_bound()
                );
            }
            if let Some(max) = r.length_upper_bound() {
                let _ = write!(calls, ".CollectionLengthUpperBound({max})");
            }
        }
        _ => {}
    }
    if calls == ".NotNull()" {
        out.push_str(".RefineNotNull()");
    } else if !calls.is_empty() {
        out.push_str(".Refine()");
        out.push_str(&calls);
        out.push_str(".NewValue()");
    }
}

#[cfg(test)]
mod tests {
    use crate::{Number, Refinements, Type, Value};

    fn number(n: Number) -> String {
        Value::Number(n).to_go_syntax(&Type::Number)
    }

    /// Numbers as go-cty's GoString writes them, checked against Go 1.19's `%#v` of
    /// `big.Float` and `float64`.
    #[test]
    fn numbers() {
        let parse = |s: &str| s.parse::<Number>().unwrap();
        let float = |f: f64| Number::from_f64(f).unwrap();
        for (n, want) in [
            (Number::from(5), "cty.NumberIntVal(5)"),
            (Number::from(-3), "cty.NumberIntVal(-3)"),
            (Number::from(999_999), "cty.NumberIntVal(999999)"),
            (Number::from(1_000_000), "cty.NumberIntVal(1e+06)"),
            (Number::from(1_234_567), "cty.NumberIntVal(1.234567e+06)"),
            (
                Number::from(i64::MAX),
                "cty.NumberIntVal(9.223372036854775807e+18)",
            ),
            (parse("123456789012"), "cty.NumberIntVal(1.23456789012e+11)"),
            (float(100.0), "cty.NumberIntVal(100)"),
            // A float64 integer prints its shortest digits, not its exact value.
            (float(1e23), "cty.NumberIntVal(1e+23)"),
            (float(1.5), "cty.NumberFloatVal(1.5)"),
            (float(0.1), "cty.NumberFloatVal(0.1)"),
            (float(1e-5), "cty.NumberFloatVal(1e-05)"),
            (float(1234567.5), "cty.NumberFloatVal(1.2345675e+06)"),
            (parse("0.5"), "cty.NumberFloatVal(0.5)"),
            // A decimal that no float64 equals.
            (parse("0.1"), r#"cty.MustParseNumberVal("0.1")"#),
            (
                parse("12345678.000001"),
                r#"cty.MustParseNumberVal("12345678.000001")"#,
            ),
            (Number::infinity(), "cty.NumberFloatVal(+Inf)"),
            (Number::neg_infinity(), "cty.NumberFloatVal(-Inf)"),
        ] {
            assert_eq!(number(n.clone()), want, "{n}");
        }
    }

    #[test]
    fn nulls_unknowns_and_refinements() {
        let ty: Type = "list(string)".parse().unwrap();
        assert_eq!(
            Value::Null.to_go_syntax(&ty),
            "cty.NullVal(cty.List(cty.String))"
        );
        assert_eq!(
            Value::unknown().to_go_syntax(&ty),
            "cty.UnknownVal(cty.List(cty.String))"
        );
        assert_eq!(
            Value::unknown().to_go_syntax(&Type::Dynamic),
            "cty.DynamicVal"
        );
        assert_eq!(
            Value::Null.to_go_syntax(&Type::Dynamic),
            "cty.NullVal(cty.DynamicPseudoType)"
        );
        let r = Refinements::new()
            .with_length_lower_bound(1)
            .with_length_upper_bound(3);
        assert_eq!(
            Value::Unknown(r).to_go_syntax(&ty),
            "cty.UnknownVal(cty.List(cty.String)).Refine().CollectionLengthLowerBound(1).CollectionLengthUpperBound(3).NewValue()"
        );
        let r = Refinements::new()
            .not_null()
            .with_number_lower_bound(Number::from(0), false);
        assert_eq!(
            Value::Unknown(r).to_go_syntax(&Type::Number),
            "cty.UnknownVal(cty.Number).Refine().NotNull().NumberLowerBound(cty.NumberIntVal(0), false).NewValue()"
        );
        // Bounds that are infinities are not written, as go-cty leaves them out.
        let r = Refinements::new()
            .not_null()
            .with_number_upper_bound(Number::infinity(), true);
        assert_eq!(
            Value::Unknown(r).to_go_syntax(&Type::Number),
            "cty.UnknownVal(cty.Number).RefineNotNull()"
        );
    }

    /// Paths as Go's `%#v` of a `cty.Path`: indexes as `cty.NumberIntVal` (in `%g`
    /// form from a million on), set elements typed by the schema, or by their own type
    /// under `dynamic`; the empty path is a nil slice.
    #[test]
    fn paths() {
        use crate::Path;
        let ty: Type = "object({disk=list(object({size=number})), s=set(number), d=any})"
            .parse()
            .unwrap();
        assert_eq!(Path::root().to_go_syntax(&ty), "cty.Path(nil)");
        assert_eq!(
            Path::root()
                .attribute("disk")
                .index(1_000_000)
                .attribute("size")
                .to_go_syntax(&ty),
            r#"cty.Path{cty.GetAttrStep{Name:"disk"}, cty.IndexStep{Key:cty.NumberIntVal(1e+06)}, cty.GetAttrStep{Name:"size"}}"#
        );
        assert_eq!(
            Path::root()
                .attribute("s")
                .element(Value::Null)
                .to_go_syntax(&ty),
            r#"cty.Path{cty.GetAttrStep{Name:"s"}, cty.IndexStep{Key:cty.NullVal(cty.Number)}}"#
        );
        assert_eq!(
            Path::root()
                .attribute("d")
                .element(Value::from("x"))
                .to_go_syntax(&ty),
            r#"cty.Path{cty.GetAttrStep{Name:"d"}, cty.IndexStep{Key:cty.StringVal("x")}}"#
        );
    }

    #[test]
    fn collections_and_dynamic_values() {
        let ty: Type = "object({a=set(string), b=map(number), c=tuple([bool]), d=any})"
            .parse()
            .unwrap();
        let v = Value::object([
            ("a", Value::set([])),
            ("b", Value::map([("k\"", Value::from(1))])),
            ("c", Value::tuple([Value::from(true)])),
            ("d", Value::list([Value::from("x")])),
        ]);
        assert_eq!(
            v.to_go_syntax(&ty),
            r#"cty.ObjectVal(map[string]cty.Value{"a":cty.SetValEmpty(cty.String), "b":cty.MapVal(map[string]cty.Value{"k\"":cty.NumberIntVal(1)}), "c":cty.TupleVal([]cty.Value{cty.True}), "d":cty.ListVal([]cty.Value{cty.StringVal("x")})})"#
        );
        let typed_null = Value::typed(Type::String, Value::Null);
        assert_eq!(
            typed_null.to_go_syntax(&Type::Dynamic),
            "cty.NullVal(cty.String)"
        );
        assert_eq!(
            Value::object(std::iter::empty::<(&str, Value)>()).to_go_syntax(&Type::empty_object()),
            "cty.EmptyObjectVal"
        );
        assert_eq!(Type::empty_tuple().to_go_syntax(), "cty.EmptyTuple");
    }
}

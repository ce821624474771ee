//! A variable's `type` (a type constraint, with `optional(T, DEFAULT)` defaults) and
//! its `default` (a literal), as HCL's `typeexpr` package and Terraform read them.

use std::collections::BTreeMap;

use super::document::{Node, NodeKind};
use super::syntax::{Expr, Part};
use super::typed::Val;
use crate::text::go_quote;
use crate::types::Type;
use crate::value::Value;

/// The defaults of a type constraint's optional attributes, in a tree that follows the
/// type: HCL's `typeexpr.Defaults`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Defaults {
    ty: Type,
    /// Default values of this object type's optional attributes, converted to their
    /// types.
    values: BTreeMap<String, Val>,
    /// Defaults further down: by attribute name (objects), element index (tuples), or
    /// `""` (the element of a list, set or map).
    children: BTreeMap<String, Defaults>,
}

/// A type constraint read from an expression: the type (optional attributes marked)
/// and its defaults. Errors are HCL's detail texts.
pub(crate) fn type_constraint(expr: &Expr) -> Result<(Type, Option<Defaults>), String> {
    // Terraform's own shorthands, before HCL's reading.
    match keyword(expr) {
        Some("list") => return Ok((Type::list(Type::Dynamic), None)),
        Some("map") => return Ok((Type::map(Type::Dynamic), None)),
        _ => {}
    }
    get_type(expr)
}

/// The name of a one-name reference (HCL's `ExprAsKeyword`).
fn keyword(expr: &Expr) -> Option<&str> {
    match expr {
        Expr::Variable(name) => Some(name),
        _ => None,
    }
}

fn get_type(expr: &Expr) -> Result<(Type, Option<Defaults>), String> {
    if let Some(kw) = keyword(expr) {
        return match kw {
            "bool" => Ok((Type::Bool, None)),
            "string" => Ok((Type::String, None)),
            "number" => Ok((Type::Number, None)),
            "any" => Ok((Type::Dynamic, None)),
            "list" | "map" | "set" => Err(format!(
                "The {kw} type constructor requires one argument specifying the element type."
            )),
            "object" => Err("The object type constructor requires one argument specifying the attribute types and values as a map.".into()),
            "tuple" => Err("The tuple type constructor requires one argument specifying the element types as a list.".into()),
            _ => Err(format!("The keyword {} is not a valid type specification.", go_quote(kw))),
        };
    }
    let Expr::Call(name, args) = expr else {
        return Err("A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).".into());
    };
    match name.as_str() {
        "bool" | "string" | "number" => {
            return Err(format!(
                "Primitive type keyword {} does not expect arguments.",
                go_quote(name)
            ))
        }
        "any" => {
            return Err(format!(
                "Type constraint keyword {} does not expect arguments.",
                go_quote(name)
            ))
        }
        _ => {}
    }
    if args.len() != 1 {
        match name.as_str() {
            "list" | "set" | "map" => {
                return Err(format!(
                    "The {name} type constructor requires one argument specifying the element type."
                ))
            }
            "object" => return Err("The object type constructor requires one argument specifying the attribute types and values as a map.".into()),
            "tuple" => return Err("The tuple type constructor requires one argument specifying the element types as a list.".into()),
            _ => {}
        }
    }
    match name.as_str() {
        "list" | "set" | "map" => {
            let (element, defaults) = get_type(&args[0])?;
            let ty = match name.as_str() {
                "list" => Type::list(element),
                "set" => Type::set(element),
                _ => Type::map(element),
            };
            let defaults = defaults.map(|d| Defaults {
                ty: ty.clone(),
                values: BTreeMap::new(),
                children: BTreeMap::from([(String::new(), d)]),
            });
            Ok((ty, defaults))
        }
        "object" => object_type(&args[0]),
        "tuple" => {
            let Expr::Tuple(elements) = &args[0] else {
                return Err("Tuple type constructor requires a list of element types.".into());
            };
            let mut types = Vec::new();
            let mut children = BTreeMap::new();
            for (i, element) in elements.iter().enumerate() {
                let (ty, defaults) = get_type(element)?;
                types.push(ty);
                if let Some(d) = defaults {
                    children.insert(i.to_string(), d);
                }
            }
            let ty = Type::tuple(types);
            Ok((ty.clone(), structured(ty, BTreeMap::new(), children)))
        }
        "optional" => Err(format!(
            "Keyword {} is valid only as a modifier for object type attributes.",
            go_quote(name)
        )),
        _ => Err(format!(
            "Keyword {} is not a valid type constructor.",
            go_quote(name)
        )),
    }
}

fn object_type(expr: &Expr) -> Result<(Type, Option<Defaults>), String> {
    let Expr::Object(items) = expr else {
        return Err("Object type constructor requires a map whose keys are attribute names and whose values are the corresponding attribute types.".into());
    };
    let mut attributes: Vec<(String, Type)> = Vec::new();
    let mut names = std::collections::BTreeSet::new();
    let mut optional: Vec<String> = Vec::new();
    let mut values = BTreeMap::new();
    let mut children = BTreeMap::new();
    for (key, value) in items {
        let name = match key {
            Expr::Template(t) => match &t.parts[..] {
                [Part::Literal(name)] if !t.unwrap => name.clone(),
                _ => return Err("Object constructor map keys must be attribute names.".into()),
            },
            _ => return Err("Object constructor map keys must be attribute names.".into()),
        };
        if !names.insert(name.clone()) {
            return Err("Object constructor map keys must be unique.".into());
        }
        let mut type_expr = value;
        let mut default = None;
        if let Expr::Call(call, args) = value {
            if call == "optional" {
                match args.len() {
                    0 => return Err("Optional attribute modifier requires the attribute type as its argument.".into()),
                    1 => {}
                    2 => default = Some(literal(&args[1])?),
                    _ => return Err("Optional attribute modifier expects at most two arguments: the attribute type, and a default value.".into()),
                }
                optional.push(name.clone());
                type_expr = &args[0];
            }
        }
        let (ty, child) = get_type(type_expr)?;
        if let Some(default) = default {
            match default.convert(&ty) {
                Ok(v) => {
                    values.insert(name.clone(), Val::new(ty.without_optional_attributes(), v));
                }
                Err(e) => {
                    return Err(format!(
                        "This default value is not compatible with the attribute's type constraint: {e}."
                    ))
                }
            }
        }
        if let Some(child) = child {
            children.insert(name.clone(), child);
        }
        attributes.push((name, ty));
    }
    let ty = Type::object_with_optional(attributes, optional);
    Ok((ty.clone(), structured(ty, values, children)))
}

fn structured(
    ty: Type,
    values: BTreeMap<String, Val>,
    children: BTreeMap<String, Defaults>,
) -> Option<Defaults> {
    (!values.is_empty() || !children.is_empty()).then_some(Defaults {
        ty,
        values,
        children,
    })
}

impl Defaults {
    /// Fills the defaults in `value` where optional attributes are absent or null, at
    /// every depth; the result still needs converting to the constraint type.
    pub(crate) fn apply(&self, value: Val) -> Val {
        if value.value.is_null() || value.value.is_unknown() {
            return value;
        }
        match (&value.ty, value.value.untyped()) {
            (Type::Tuple(types), Value::Tuple(elements)) => {
                let applied = types
                    .iter()
                    .zip(elements.iter())
                    .enumerate()
                    .map(|(i, (t, v))| {
                        self.apply_child(&i.to_string(), Val::new(t.clone(), v.clone()))
                    })
                    .collect();
                Val::tuple(applied)
            }
            (Type::List(e) | Type::Set(e), Value::List(_) | Value::Set(_)) => {
                let items: Vec<Val> = value
                    .value
                    .as_slice()
                    .unwrap_or_default()
                    .iter()
                    .map(|v| self.apply_child("", Val::new((**e).clone(), v.clone())))
                    .collect();
                rebuild_sequence(&value.ty, items)
            }
            (Type::Object(o), Value::Object(object)) => {
                let mut attributes: Vec<(String, Val)> = o
                    .iter()
                    .zip(object.values())
                    .map(|((name, t, _), v)| {
                        (
                            name.to_owned(),
                            self.apply_child(name, Val::new(t.clone(), v.clone())),
                        )
                    })
                    .collect();
                self.fill(&mut attributes);
                Val::object(attributes)
            }
            (Type::Map(e), Value::Map(map)) => {
                let mut entries: Vec<(String, Val)> = map
                    .iter()
                    .map(|(k, v)| {
                        (
                            k.to_owned(),
                            self.apply_child("", Val::new((**e).clone(), v.clone())),
                        )
                    })
                    .collect();
                self.fill(&mut entries);
                let first = entries.first().map(|(_, v)| v.ty.clone());
                if entries.iter().all(|(_, v)| Some(&v.ty) == first.as_ref()) {
                    let element = first.unwrap_or_else(|| (**e).clone());
                    Val::new(
                        Type::map(element),
                        Value::map(entries.into_iter().map(|(k, v)| (k, v.value))),
                    )
                } else {
                    Val::object(entries)
                }
            }
            _ => value,
        }
    }

    /// Puts this object's default values in for attributes that are absent or null.
    fn fill(&self, attributes: &mut Vec<(String, Val)>) {
        for (name, default) in &self.values {
            let default = match self.children.get(name) {
                Some(child) => child.apply(default.clone()),
                None => default.clone(),
            };
            match attributes.iter_mut().find(|(n, _)| n == name) {
                Some((_, v)) if v.value.is_null() => *v = default,
                Some(_) => {}
                None => attributes.push((name.clone(), default)),
            }
        }
    }

    /// The defaults for the child at `key`, applied to `value`: by attribute name for
    /// an object type, by index for a tuple type, `""` for a collection type.
    fn apply_child(&self, key: &str, value: Val) -> Val {
        let child = match &self.ty {
            Type::Object(_) | Type::Tuple(_) => {
                self.children.get(key).or_else(|| self.children.get(""))
            }
            _ => self.children.get(""),
        };
        match child {
            Some(child) => child.apply(value),
            None => value,
        }
    }
}

/// A list or set of `items` again, if they still have one type; a tuple otherwise.
fn rebuild_sequence(ty: &Type, items: Vec<Val>) -> Val {
    let first = items.first().map(|v| v.ty.clone());
    let same = items.iter().all(|v| Some(&v.ty) == first.as_ref());
    match (ty, first) {
        (Type::List(e), None) => Val::new(Type::list((**e).clone()), Value::list([])),
        (Type::Set(e), None) => Val::new(Type::set((**e).clone()), Value::set([])),
        (Type::List(_), Some(element)) if same => Val::new(
            Type::list(element),
            Value::list(items.into_iter().map(|v| v.value)),
        ),
        (Type::Set(_), Some(element)) if same => Val::new(
            Type::set(element),
            Value::set(items.into_iter().map(|v| v.value)),
        ),
        _ => Val::tuple(items),
    }
}

/// A literal expression's value, evaluated with no variables or functions (as HCL
/// evaluates with no context).
pub(crate) fn literal(expr: &Expr) -> Result<Val, String> {
    match expr {
        Expr::Number(text) => number(text),
        Expr::Bool(b) => Ok(Val::known(Type::Bool, Value::Bool(*b))),
        Expr::Null => Ok(Val::null(Type::Dynamic)),
        Expr::Negate(inner) => match &**inner {
            Expr::Number(text) => number(&format!("-{text}")),
            _ => Err("Only a number can be negated in a literal value.".into()),
        },
        Expr::Parenthesized(inner) => literal(inner),
        Expr::Template(t) => {
            let mut text = String::new();
            for part in &t.parts {
                match part {
                    Part::Literal(s) => text.push_str(s),
                    _ => return Err("Variables may not be used here.".into()),
                }
            }
            Ok(Val::string(&text))
        }
        Expr::Tuple(items) => Ok(Val::tuple(
            items.iter().map(literal).collect::<Result<_, _>>()?,
        )),
        Expr::Object(items) => {
            let mut attributes: Vec<(String, Val)> = Vec::new();
            let mut names = std::collections::BTreeSet::new();
            for (k, v) in items {
                let key = literal(k)?;
                let Some(name) = key.value.as_str().map(str::to_owned) else {
                    return Err("Cannot use this expression as an object key.".into());
                };
                if !names.insert(name.clone()) {
                    return Err(format!(
                        "An attribute named {} was already defined.",
                        go_quote(&name)
                    ));
                }
                attributes.push((name, literal(v)?));
            }
            Ok(Val::object(attributes))
        }
        Expr::Variable(_) | Expr::Attribute(..) | Expr::Index(..) => {
            Err("Variables may not be used here.".into())
        }
        Expr::Call(..) => Err("Functions may not be called here.".into()),
        Expr::Other(..) => Err("Only a literal value is allowed here.".into()),
    }
}

fn number(text: &str) -> Result<Val, String> {
    crate::json::decode::number(text)
        .map(|n| Val::known(Type::Number, Value::Number(n)))
        .map_err(|e| e.message().to_owned())
}

/// A JSON value as a literal, as HCL evaluates JSON with no context: strings are
/// plain text, not templates.
pub(crate) fn literal_json(node: &Node) -> Result<Val, String> {
    Ok(match &node.kind {
        NodeKind::Null => Val::null(Type::Dynamic),
        NodeKind::Bool(b) => Val::known(Type::Bool, Value::Bool(*b)),
        NodeKind::Number(text) => number(text)?,
        NodeKind::String(text) => Val::string(text),
        NodeKind::Array(elements) => Val::tuple(
            elements
                .iter()
                .map(literal_json)
                .collect::<Result<_, _>>()?,
        ),
        NodeKind::Object(properties) => {
            let mut attributes: Vec<(String, Val)> = Vec::new();
            let mut names = std::collections::BTreeSet::new();
            for p in properties {
                let name = crate::text::nfc(&p.name).into_owned();
                if !names.insert(name.clone()) {
                    return Err(format!(
                        "An attribute named {} was already defined.",
                        go_quote(&name)
                    ));
                }
                attributes.push((name, literal_json(&p.value)?));
            }
            Val::object(attributes)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::syntax::parse_expression;

    fn constraint(text: &str) -> (Type, Option<Defaults>) {
        type_constraint(&parse_expression(text).unwrap()).unwrap()
    }

    #[test]
    fn constraints() {
        assert_eq!(constraint("string").0, Type::String);
        assert_eq!(constraint("any").0, Type::Dynamic);
        assert_eq!(constraint("list").0, Type::list(Type::Dynamic));
        assert_eq!(constraint("map").0, Type::map(Type::Dynamic));
        assert_eq!(
            constraint("map(object({a=string, b=optional(number)}))")
                .0
                .to_expr(),
            "map(object({a=string,b=optional(number)}))"
        );
        assert_eq!(
            constraint("tuple([string, bool])").0,
            Type::tuple([Type::String, Type::Bool])
        );
        let (ty, defaults) = constraint(r#"object({a=optional(string, "x"), b=number})"#);
        assert_eq!(ty.to_expr(), "object({a=optional(string),b=number})");
        let defaults = defaults.unwrap();
        assert_eq!(defaults.values["a"], Val::string("x"));
        let bad = |t: &str| type_constraint(&parse_expression(t).unwrap()).unwrap_err();
        assert!(bad("strin").contains("not a valid type specification"));
        assert!(bad("list(string, number)").contains("requires one argument"));
        assert!(bad("optional(string)").contains("only as a modifier"));
        assert!(bad(r#"object({a=optional(number, "x")})"#).contains("not compatible"));
    }

    #[test]
    fn defaults_fill_absent_and_null_attributes() {
        let (_, defaults) =
            constraint(r#"object({a=optional(string, "x"), b=optional(bool, true)})"#);
        let given = Val::object(vec![("b".into(), Val::null(Type::Dynamic))]);
        let applied = defaults.unwrap().apply(given);
        assert_eq!(applied.value["a"].as_str(), Some("x"));
        assert_eq!(applied.value["b"].as_bool(), Some(true));
    }

    #[test]
    fn literals() {
        let v = literal(&parse_expression(r#"{a = [1, -2.5, "s"], "b" = null}"#).unwrap()).unwrap();
        assert_eq!(
            v.ty.to_expr(),
            "object({a=tuple([number,number,string]),b=any})"
        );
        assert!(literal(&parse_expression("var.x").unwrap()).is_err());
        assert!(literal(&parse_expression("\"${x}\"").unwrap()).is_err());
    }
}

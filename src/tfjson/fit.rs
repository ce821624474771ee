//! Whether a boolean tree (`after_unknown`, a sensitivity tree) fits the value it
//! describes: every mark lands on a part of the value, and the tree has the value's
//! shape where it goes into it.

use crate::error::{Error, ErrorKind, Result};
use crate::types::Type;
use crate::value::Value;

use super::MarkTree;

/// Which tree is checked: its name in messages, and what its `true` leaves mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tree {
    /// `after_unknown`: `true` marks an unknown value.
    Unknown,
    /// A sensitivity tree: `true` marks a sensitive value, whatever it holds.
    Sensitive,
}

impl Tree {
    fn name(self) -> &'static str {
        match self {
            Tree::Unknown => "the unknown tree",
            Tree::Sensitive => "the sensitivity tree",
        }
    }

    fn error(self, message: String) -> Error {
        Error::new(
            ErrorKind::InvalidValue,
            format!("{} does not fit the value: {message}", self.name()),
        )
    }
}

/// What a tree holds, for messages.
fn described(tree: &MarkTree) -> String {
    match tree {
        MarkTree::Bool(b) => b.to_string(),
        MarkTree::Array(items) if items.is_empty() => "an empty array".to_owned(),
        MarkTree::Array(items) => format!("an array of {}", items.len()),
        MarkTree::Object(m) if m.is_empty() => "an empty object".to_owned(),
        MarkTree::Object(_) => "an object".to_owned(),
    }
}

/// Checks that `tree` fits `value`, a value of type `ty`:
///
/// - `false` fits anything; `true` fits any value of a sensitivity tree, and an unknown
///   value of an unknown tree;
/// - an array fits a known list, set or tuple of as many elements, each fitting its
///   entry; an object fits a known map or object, each entry naming an element of the
///   map or an attribute of the object type and fitting it (`false` entries included);
/// - the empty array and the empty object also fit a null value and an unknown one:
///   Terraform writes `"after_unknown": {}` for a deleted object (`after` is `null`)
///   and `[]` or `{}` as the sensitivity of an unknown collection;
/// - an array that marks nothing may be shorter than a set: Terraform 0.12.0-beta2
///   wrote `[false]` for a set of two strings.
///
/// Anything else would lose a mark (an unknown attribute the type does not have, an
/// element past the end of a list, a mark inside a null) or describe a value of another
/// shape: an error naming the path of the mark, or of the part it does not fit.
pub(super) fn check(tree: &MarkTree, value: &Value, ty: &Type, which: Tree) -> Result<()> {
    let (value, ty) = match value {
        Value::Typed(t) => (&t.value, &t.ty),
        v => (v, ty),
    };
    match tree {
        MarkTree::Bool(false) => Ok(()),
        MarkTree::Bool(true) if which == Tree::Sensitive || value.is_unknown() => Ok(()),
        MarkTree::Bool(true) => Err(which.error(format!(
            "expected false or a tree for a known {}, found true",
            kind(value, ty)
        ))),
        MarkTree::Array(items)
            if items.is_empty() && matches!(value, Value::Null | Value::Unknown(_)) =>
        {
            Ok(())
        }
        MarkTree::Object(m) if m.is_empty() && matches!(value, Value::Null | Value::Unknown(_)) => {
            Ok(())
        }
        MarkTree::Array(items) => {
            let elements: Box<dyn ExactSizeIterator<Item = &Value>> = match value {
                Value::List(vs) | Value::Tuple(vs) => Box::new(vs.iter()),
                Value::Set(s) => Box::new(s.iter()),
                _ => return Err(mismatch(tree, value, ty, which)),
            };
            let element_type = |i: usize| match ty {
                Type::List(e) | Type::Set(e) => &**e,
                Type::Tuple(ts) => ts.get(i).unwrap_or(&Type::Dynamic),
                _ => &Type::Dynamic,
            };
            let len = elements.len();
            // Terraform 0.12.0-beta2 writes shorter arrays of `false` for sets.
            let short_set = matches!(value, Value::Set(_)) && items.len() < len && !tree.any();
            if items.len() != len && !short_set {
                return Err(which.error(format!(
                    "expected an array of {len} (the {}'s elements), found {}",
                    kind(value, ty),
                    described(tree)
                )));
            }
            for (i, (t, v)) in items.iter().zip(elements).enumerate() {
                check(t, v, element_type(i), which).map_err(|e| e.in_index(i))?;
            }
            Ok(())
        }
        MarkTree::Object(entries) => {
            for (name, t) in entries {
                let (v, t_ty) = match (value, ty) {
                    (Value::Map(m), _) => {
                        let element = match ty {
                            Type::Map(e) => &**e,
                            _ => &Type::Dynamic,
                        };
                        match m.get(name) {
                            Some(v) => (v, element),
                            None => {
                                return Err(which
                                    .error("the map has no such element".to_owned())
                                    .in_key(name))
                            }
                        }
                    }
                    (Value::Object(o), _) => {
                        let attribute = match ty {
                            Type::Object(ot) => ot.attribute(name),
                            _ => o.get(name).map(|_| &Type::Dynamic),
                        };
                        match attribute {
                            Some(t_ty) => (o.get(name).unwrap_or(&Value::Null), t_ty),
                            None => {
                                return Err(which
                                    .error(format!("the type has no attribute {name:?}"))
                                    .in_attribute(name))
                            }
                        }
                    }
                    _ => return Err(mismatch(tree, value, ty, which)),
                };
                let step = |e: Error| match value {
                    Value::Map(_) => e.in_key(name),
                    _ => e.in_attribute(name),
                };
                check(t, v, t_ty, which).map_err(step)?;
            }
            Ok(())
        }
    }
}

/// The kind of `value`, for messages: its type's, or `null` / `unknown`.
fn kind(value: &Value, ty: &Type) -> &'static str {
    match (value, ty) {
        (Value::Null, _) => "null",
        (Value::Unknown(_), _) => "unknown",
        (Value::List(_), _) => "list",
        (Value::Set(_), _) => "set",
        (Value::Tuple(_), _) => "tuple",
        (Value::Map(_), _) => "map",
        (Value::Object(_), _) => "object",
        (_, ty) => ty.kind_name(),
    }
}

/// A tree of another shape than the value.
fn mismatch(tree: &MarkTree, value: &Value, ty: &Type, which: Tree) -> Error {
    let kind = kind(value, ty);
    let expected = match value {
        Value::Null => "false, an empty array or an empty object for a null value".to_owned(),
        Value::Unknown(_) => match which {
            Tree::Unknown => "true for an unknown value".to_owned(),
            Tree::Sensitive => {
                "a bool, an empty array or an empty object for an unknown value".to_owned()
            }
        },
        Value::List(_) | Value::Set(_) | Value::Tuple(_) => {
            format!("a bool or an array for a {kind}")
        }
        Value::Map(_) => "a bool or an object for a map".to_owned(),
        Value::Object(_) => "a bool or an object for an object".to_owned(),
        _ => format!("a bool for a {kind}"),
    };
    which.error(format!("expected {expected}, found {}", described(tree)))
}

//! `AttributePath` to and from [`Path`].
//!
//! The protocol's steps are an attribute name, a string key and an integer key. A set
//! element is named by its value, as Terraform names it: a string element by a string
//! key, a whole-number element by an integer key; a path through an element of another
//! type stops before it (Terraform keeps the valid prefix the same way).
//!
//! ```
//! use ctywire::{Path, Type, Value};
//! use ctywire_tfplugin::path::{path_from_proto, path_from_proto_typed, path_to_proto};
//!
//! let path = Path::root().attribute("disk").index(0).attribute("tags").key("env");
//! let proto = path_to_proto(&path);
//! assert_eq!(proto.steps.len(), 4);
//! assert_eq!(path_from_proto(&proto)?, path);
//!
//! // Set elements by value; read back as set elements when the type says so.
//! let labels = Path::root().attribute("labels").element(Value::from("web"));
//! let ty: Type = "object({labels=set(string)})".parse()?;
//! assert_eq!(path_from_proto_typed(&path_to_proto(&labels), &ty)?, labels);
//! # Ok::<(), ctywire::Error>(())
//! ```

use ctywire::{Error, ErrorKind, Path, PathStep, Type, Value};

use crate::tfplugin6::attribute_path::{step::Selector, Step};
use crate::tfplugin6::AttributePath;

/// `path` as an `AttributePath`, up to the first set element that is neither a string
/// nor a whole number.
pub fn path_to_proto(path: &Path) -> AttributePath {
    let mut steps = Vec::with_capacity(path.len());
    for step in path.steps() {
        let selector = match step {
            PathStep::Attribute(name) => Selector::AttributeName(name.clone()),
            PathStep::Key(key) => Selector::ElementKeyString(key.clone()),
            PathStep::Index(i) => match i64::try_from(*i) {
                Ok(i) => Selector::ElementKeyInt(i),
                Err(_) => break,
            },
            PathStep::SetElement(Value::String(s)) => Selector::ElementKeyString(s.to_string()),
            PathStep::SetElement(Value::Number(n)) => match n.to_i64() {
                Some(i) if n.is_integer() => Selector::ElementKeyInt(i),
                _ => break,
            },
            _ => break,
        };
        steps.push(Step {
            selector: Some(selector),
        });
    }
    AttributePath { steps }
}

/// An `AttributePath` as a path: string keys as map keys, integer keys as indexes.
/// A step without a selector, or a negative index, is an error at the path before it.
pub fn path_from_proto(proto: &AttributePath) -> Result<Path, Error> {
    let mut path = Path::root();
    for step in &proto.steps {
        path = match &step.selector {
            Some(Selector::AttributeName(name)) => path.attribute(name.as_str()),
            Some(Selector::ElementKeyString(key)) => path.key(key.as_str()),
            Some(Selector::ElementKeyInt(i)) => match u64::try_from(*i) {
                Ok(i) => path.index(i),
                Err(_) => {
                    return Err(Error::new(
                        ErrorKind::InvalidValue,
                        format!("attribute path: negative index {i}"),
                    )
                    .at(&path))
                }
            },
            None => {
                return Err(Error::new(
                    ErrorKind::InvalidValue,
                    "attribute path: a step without a selector",
                )
                .at(&path))
            }
        };
    }
    Ok(path)
}

/// An `AttributePath` as a path into a value of type `ty`: as [`path_from_proto`], with
/// keys and indexes into a set made set elements (by value), and names on an object
/// made attribute steps.
pub fn path_from_proto_typed(proto: &AttributePath, ty: &Type) -> Result<Path, Error> {
    let untyped = path_from_proto(proto)?;
    let mut path = Path::root();
    let mut at = Some(ty);
    for step in untyped.steps() {
        let (step, next) = match (at, step) {
            (Some(Type::Set(e)), PathStep::Key(k)) => {
                (PathStep::SetElement(Value::from(k.as_str())), Some(&**e))
            }
            (Some(Type::Set(e)), PathStep::Index(i)) => {
                (PathStep::SetElement(Value::from(*i)), Some(&**e))
            }
            (Some(Type::Object(o)), PathStep::Attribute(n) | PathStep::Key(n)) => {
                (PathStep::Attribute(n.clone()), o.attribute(n))
            }
            (Some(Type::Map(e)), PathStep::Attribute(n) | PathStep::Key(n)) => {
                (PathStep::Key(n.clone()), Some(&**e))
            }
            (Some(Type::List(e)), PathStep::Index(_)) => (step.clone(), Some(&**e)),
            (Some(Type::Tuple(ts)), PathStep::Index(i)) => (
                step.clone(),
                usize::try_from(*i).ok().and_then(|i| ts.get(i)),
            ),
            _ => (step.clone(), None),
        };
        path.push(step);
        at = next;
    }
    Ok(path)
}

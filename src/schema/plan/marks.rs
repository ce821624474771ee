//! The paths of the write-only and the sensitive attributes in a value, as Terraform
//! finds them (its schema's `WriteOnlyPaths` and `SensitivePaths`, which walk the value
//! and the schema together), and what Terraform reaches at each (its `Path.Apply`).
//!
//! Terraform's walk has three behaviours a clean rule would not: it takes an attribute
//! of an unknown element of a nested attribute collection as a value (an unknown is not
//! null); it finds an element of a set that holds an unknown anywhere "unknown", and so
//! everything below it; and it cannot take a key of a `dynamic` MAP block (an object,
//! not a map) as a step ("not a map type"). It also fails outright on a null element of
//! a nested attribute collection whose objects hold such attributes: it asks the null
//! element for an attribute.

use super::Step;
use crate::schema::{Attribute, AttributeNesting, Block, BlockNesting, NestedType};
use crate::value::Value;

/// Which attributes are looked for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Flag {
    WriteOnly,
    Sensitive,
}

impl Flag {
    fn on(self, attribute: &Attribute) -> bool {
        match self {
            Flag::WriteOnly => attribute.write_only,
            Flag::Sensitive => attribute.sensitive,
        }
    }

    fn below(self, attribute: &Attribute) -> bool {
        attribute
            .nested_type
            .as_ref()
            .is_some_and(|n| n.attributes.values().any(|a| self.on(a) || self.below(a)))
    }

    fn in_block(self, block: &Block) -> bool {
        block
            .attributes
            .values()
            .any(|a| self.on(a) || self.below(a))
            || block.block_types.values().any(|b| self.in_block(&b.block))
    }
}

/// What Terraform reaches at a path.
#[derive(Clone, Copy, Debug)]
pub(super) enum Reached<'a> {
    /// The value there (null, known or unknown).
    Value(&'a Value),
    /// An unknown: the path goes through an unknown element, or through a set element
    /// that is not wholly known.
    Unknown,
    /// Nothing: step `n` (from 0) takes a key of an object ("at step n: not a map type").
    NotAMap(usize),
}

impl Reached<'_> {
    /// Whether Terraform finds a value (not null) there.
    pub(super) fn is_set(&self) -> bool {
        match self {
            Reached::Value(v) => !v.is_null(),
            Reached::Unknown => true,
            Reached::NotAMap(_) => false,
        }
    }
}

/// Terraform fails on the value: a null element (or, with `unknown_as_null`, an unknown
/// one) of a nested attribute collection, at these steps.
pub(super) struct NullElement<'a>(pub(super) Vec<Step<'a>>);

/// The walk's state below the current steps.
#[derive(Clone, Copy)]
struct Below {
    unknown: bool,
    not_a_map: Option<usize>,
}

struct Walk<'a> {
    flag: Flag,
    unknown_as_null: bool,
    steps: Vec<Step<'a>>,
    found: Vec<(Vec<Step<'a>>, Reached<'a>)>,
}

/// The paths of the attributes `flag` marks in `value`, a value of `block`, each with
/// what Terraform reaches there; or where Terraform fails.
pub(super) fn block_paths<'a>(
    block: &'a Block,
    value: &'a Value,
    flag: Flag,
    unknown_as_null: bool,
) -> Result<Vec<(Vec<Step<'a>>, Reached<'a>)>, NullElement<'a>> {
    let mut w = Walk {
        flag,
        unknown_as_null,
        steps: Vec::new(),
        found: Vec::new(),
    };
    let below = Below {
        unknown: false,
        not_a_map: None,
    };
    w.block(block, value, below)?;
    Ok(w.found)
}

/// Whether `block` or a block inside it has a sensitive attribute (at any depth).
pub(super) fn block_holds_sensitive(block: &Block) -> bool {
    Flag::Sensitive.in_block(block)
}

/// Whether Terraform marks something in `value`, the value of `attribute` (a nested
/// attribute holding sensitive attributes): a sensitive attribute of a known object,
/// whatever its value (null and unknown ones are marked too), not inside an unknown
/// element.
pub(super) fn holds_sensitive(attribute: &Attribute, value: &Value) -> bool {
    let Some(nested) = &attribute.nested_type else {
        return false;
    };
    let mut w = Walk {
        flag: Flag::Sensitive,
        unknown_as_null: false,
        steps: Vec::new(),
        found: Vec::new(),
    };
    let below = Below {
        unknown: false,
        not_a_map: None,
    };
    if w.object(nested, value, below).is_err() {
        return false;
    }
    w.found.iter().any(|(_, r)| matches!(r, Reached::Value(_)))
}

/// Whether printing `value`, a value of `block`, would show something of a sensitive
/// attribute: a sensitive attribute (at any depth) that is neither null nor a plain
/// unknown (a refined unknown tells its prefix or bounds). Unlike Terraform's marks
/// this looks inside every element, known or not: it decides what this crate's
/// messages may print, not what Terraform marks.
pub(super) fn block_reveals_sensitive(block: &Block, value: &Value) -> bool {
    let Some(object) = value.untyped().as_object() else {
        return false;
    };
    let get = |name: &str| object.get(name).unwrap_or(&NULL);
    block
        .attributes
        .iter()
        .any(|(name, a)| attribute_reveals_sensitive(a, get(name)))
        || block.block_types.iter().any(|(name, nested)| {
            let v = get(name);
            match nested.nesting {
                BlockNesting::Single | BlockNesting::Group => {
                    block_reveals_sensitive(&nested.block, v)
                }
                _ => elements_of(v)
                    .iter()
                    .any(|e| block_reveals_sensitive(&nested.block, e)),
            }
        })
}

/// Whether printing `value`, a value of the blocks `nested` (the whole collection, or
/// the one object), would show something of a sensitive attribute.
pub(super) fn blocks_reveal_sensitive(nested: &crate::schema::NestedBlock, value: &Value) -> bool {
    match nested.nesting {
        BlockNesting::Single | BlockNesting::Group => block_reveals_sensitive(&nested.block, value),
        _ => elements_of(value)
            .iter()
            .any(|e| block_reveals_sensitive(&nested.block, e)),
    }
}

/// Whether printing `value`, the value of `attribute`, would show something of a
/// sensitive attribute (the attribute itself, or one nested in it).
pub(super) fn attribute_reveals_sensitive(attribute: &Attribute, value: &Value) -> bool {
    if attribute.sensitive {
        return reveals(value);
    }
    let Some(nested) = &attribute.nested_type else {
        return false;
    };
    let object = |e: &Value| object_reveals_sensitive(nested, e);
    match nested.nesting {
        AttributeNesting::Single => object(value),
        _ => elements_of(value).iter().any(|e| object(e)),
    }
}

/// Whether printing `value`, one object of the nested type `nested`, would show
/// something of a sensitive attribute.
pub(super) fn object_reveals_sensitive(nested: &NestedType, value: &Value) -> bool {
    value.untyped().as_object().is_some_and(|o| {
        nested
            .attributes
            .iter()
            .any(|(name, a)| attribute_reveals_sensitive(a, o.get(name).unwrap_or(&NULL)))
    })
}

/// Whether a value tells anything when printed: not null, and not an unknown without
/// refinements (beyond not being null).
fn reveals(value: &Value) -> bool {
    if value.is_null() {
        return false;
    }
    match value.refinements() {
        Some(r) => {
            r.string_prefix().is_some_and(|p| !p.is_empty())
                || r.number_lower_bound().is_some()
                || r.number_upper_bound().is_some()
                || r.length_lower_bound() > 0
                || r.length_upper_bound().is_some()
        }
        None => true,
    }
}

/// The elements of a known list, set, map, tuple or object (a `dynamic` collection).
fn elements_of(value: &Value) -> Vec<&Value> {
    match value.untyped() {
        Value::List(vs) | Value::Tuple(vs) => vs.iter().collect(),
        Value::Set(s) => s.iter().collect(),
        Value::Map(m) => m.values().collect(),
        Value::Object(o) => o.values().iter().collect(),
        _ => Vec::new(),
    }
}

impl<'a> Walk<'a> {
    fn reached(&self, value: &'a Value, below: Below) -> Reached<'a> {
        if let Some(n) = below.not_a_map {
            Reached::NotAMap(n)
        } else if below.unknown {
            Reached::Unknown
        } else {
            // An unknown attribute of a known object is reached (and marked) too.
            Reached::Value(value)
        }
    }

    fn found(&mut self, step: Step<'a>, value: &'a Value, below: Below) {
        let mut steps = self.steps.clone();
        steps.push(step);
        let reached = self.reached(value, below);
        self.found.push((steps, reached));
    }

    fn within<T>(&mut self, step: Step<'a>, f: impl FnOnce(&mut Self) -> T) -> T {
        self.steps.push(step);
        let out = f(self);
        self.steps.pop();
        out
    }

    fn block(
        &mut self,
        block: &'a Block,
        value: &'a Value,
        below: Below,
    ) -> Result<(), NullElement<'a>> {
        let Some(object) = value.untyped().as_object() else {
            return Ok(());
        };
        let get = |name: &str| object.get(name).unwrap_or(&NULL);
        for (name, attribute) in &block.attributes {
            if self.flag.on(attribute) {
                self.found(Step::Attribute(name), get(name), below);
            }
        }
        for (name, attribute) in &block.attributes {
            if let Some(nested) = attribute.nested_type.as_ref() {
                if self.flag.below(attribute) {
                    self.within(Step::Attribute(name), |w| {
                        w.object(nested, get(name), below)
                    })?;
                }
            }
        }
        for (name, nested) in &block.block_types {
            if !self.flag.in_block(&nested.block) {
                continue;
            }
            let v = get(name);
            if v.is_null() || v.is_unknown() {
                continue;
            }
            self.within(Step::Attribute(name), |w| match nested.nesting {
                BlockNesting::Single | BlockNesting::Group => w.block(&nested.block, v, below),
                _ => w.elements(v, below, &mut |w, e, below| {
                    w.block(&nested.block, e, below)
                }),
            })?;
        }
        Ok(())
    }

    fn object(
        &mut self,
        nested: &'a NestedType,
        value: &'a Value,
        below: Below,
    ) -> Result<(), NullElement<'a>> {
        if value.is_null() || value.is_unknown() {
            return Ok(());
        }
        let relevant: Vec<(&'a String, &'a Attribute)> = nested
            .attributes
            .iter()
            .filter(|(_, a)| self.flag.on(a) || self.flag.below(a))
            .collect();
        if relevant.is_empty() {
            return Ok(());
        }
        let each =
            |w: &mut Self, element: &'a Value, below: Below| -> Result<(), NullElement<'a>> {
                for (name, attribute) in &relevant {
                    let v = if element.is_unknown() {
                        &UNKNOWN
                    } else {
                        element
                            .untyped()
                            .as_object()
                            .and_then(|o| o.get(name))
                            .unwrap_or(&NULL)
                    };
                    if w.flag.on(attribute) {
                        w.found(Step::Attribute(name), v, below);
                    } else if let Some(n) = attribute.nested_type.as_ref() {
                        w.within(Step::Attribute(name), |w| w.object(n, v, below))?;
                    }
                }
                Ok(())
            };
        match nested.nesting {
            AttributeNesting::Single => each(self, value, below),
            _ => self.elements(value, below, &mut |w, e, below| {
                if e.is_null() || (e.is_unknown() && w.unknown_as_null) {
                    return Err(NullElement(w.steps.clone()));
                }
                each(w, e, below)
            }),
        }
    }

    /// Runs `each` on the elements of a list, set, map or object (a `dynamic` MAP
    /// block), with the step Terraform takes to each.
    fn elements(
        &mut self,
        value: &'a Value,
        below: Below,
        each: &mut dyn FnMut(&mut Self, &'a Value, Below) -> Result<(), NullElement<'a>>,
    ) -> Result<(), NullElement<'a>> {
        let unknown = |e: &Value| Below {
            unknown: below.unknown || e.is_unknown(),
            ..below
        };
        match value.untyped() {
            Value::List(vs) | Value::Tuple(vs) => {
                for (i, e) in vs.iter().enumerate() {
                    self.within(Step::Index(i), |w| each(w, e, unknown(e)))?;
                }
            }
            Value::Map(m) => {
                for (k, e) in m.iter() {
                    self.within(Step::Key(k), |w| each(w, e, unknown(e)))?;
                }
            }
            Value::Object(o) => {
                for (k, e) in o.iter() {
                    let at = self.steps.len();
                    let below = Below {
                        not_a_map: below.not_a_map.or(Some(at)),
                        ..unknown(e)
                    };
                    self.within(Step::Key(k), |w| each(w, e, below))?;
                }
            }
            Value::Set(s) => {
                for e in s.iter() {
                    let below = Below {
                        unknown: below.unknown || !e.is_wholly_known(),
                        ..below
                    };
                    self.within(Step::Element(e), |w| each(w, e, below))?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

static NULL: Value = Value::Null;
static UNKNOWN: std::sync::LazyLock<Value> = std::sync::LazyLock::new(Value::unknown);

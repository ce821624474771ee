//! Where a value holds sensitive attributes, by its schema (Terraform's
//! `SensitivePaths`).

use std::collections::BTreeMap;

use super::{attribute_of, Attribute, AttributeNesting, Block, BlockNesting, NestedType};
use crate::path::{Path, PathStep};
use crate::value::Value;

impl Block {
    /// The paths of the sensitive attributes in `value` (a value of this block's
    /// implied type), as Terraform finds them to hide them in its output: every
    /// sensitive attribute of this block (null or not), and those inside the blocks and
    /// nested attribute objects the value holds.
    ///
    /// Paths name object attributes `.name` (also the labels of a dynamic MAP block,
    /// which are attributes of an object), map keys `["key"]`, and elements of lists,
    /// tuples and sets `[i]` by position (for a set, in its order): the form
    /// [`render::Options::sensitive`](crate::render::Options::sensitive) takes.
    ///
    /// ```
    /// use ctywire::render::{render, Options};
    /// use ctywire::schema::{Attribute, Block, BlockNesting, NestedBlock};
    /// use ctywire::{Type, Value};
    ///
    /// let user = Block::new()
    ///     .attribute("name", Attribute::new(Type::String).required())
    ///     .attribute("password", Attribute::new(Type::String).optional().sensitive());
    /// let block = Block::new()
    ///     .attribute("token", Attribute::new(Type::String).optional().sensitive())
    ///     .block_type("user", NestedBlock::new(BlockNesting::List, user));
    /// let value = Value::object([
    ///     ("token", Value::Null),
    ///     ("user", Value::list([Value::object([
    ///         ("name", Value::from("ann")),
    ///         ("password", Value::from("hunter2")),
    ///     ])])),
    /// ]);
    /// let paths: Vec<String> = block.sensitive_paths(&value).iter().map(|p| p.to_string()).collect();
    /// assert_eq!(paths, [".token", ".user[0].password"]);
    ///
    /// let options = Options::new().sensitive(block.sensitive_paths(&value));
    /// let shown = render(&value, &block.implied_type(), &options);
    /// assert!(shown.contains("password = (sensitive value)"));
    /// assert!(!shown.contains("hunter2"));
    /// ```
    pub fn sensitive_paths(&self, value: &Value) -> Vec<Path> {
        let mut found = Vec::new();
        block_paths(self, value, &mut Vec::new(), &mut found);
        found
    }

    /// Whether any attribute in this block or below it is sensitive.
    pub fn contains_sensitive(&self) -> bool {
        self.attributes.values().any(Attribute::contains_sensitive)
            || self
                .block_types
                .values()
                .any(|b| b.block.contains_sensitive())
    }
}

impl Attribute {
    /// Whether this attribute, or one inside its nested type, is sensitive.
    pub fn contains_sensitive(&self) -> bool {
        self.sensitive
            || self
                .nested_type
                .as_ref()
                .is_some_and(|n| n.attributes.values().any(Attribute::contains_sensitive))
    }
}

type Steps = Vec<PathStep>;

/// Runs `f` with `step` pushed on `path`.
fn within(path: &mut Steps, step: PathStep, f: impl FnOnce(&mut Steps)) {
    path.push(step);
    f(path);
    path.pop();
}

/// The elements of a known list, tuple or set, each with its `[i]` step.
fn indexed(value: &Value) -> impl Iterator<Item = (PathStep, &Value)> {
    value
        .as_slice()
        .unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(i, v)| (PathStep::Index(i as u64), v))
}

/// The entries of a known map (`["key"]`) or object (`.name`), each with its step.
fn keyed(value: &Value) -> Vec<(PathStep, &Value)> {
    match value.untyped() {
        Value::Map(m) => m
            .iter()
            .map(|(k, v)| (PathStep::Key(k.to_owned()), v))
            .collect(),
        Value::Object(o) => o
            .iter()
            .map(|(k, v)| (PathStep::Attribute(k.to_owned()), v))
            .collect(),
        _ => Vec::new(),
    }
}

fn block_paths(block: &Block, value: &Value, path: &mut Steps, found: &mut Vec<Path>) {
    attribute_paths(&block.attributes, value, path, found);
    if value.is_null() || value.is_unknown() {
        return;
    }
    for (name, nested) in block.unshadowed_block_types() {
        if !nested.block.contains_sensitive() {
            continue;
        }
        let v = attribute_of(value, name);
        if v.is_null() || v.is_unknown() {
            continue;
        }
        within(
            path,
            PathStep::Attribute(crate::text::nfc(name).into_owned()),
            |path| {
                let items: Vec<(PathStep, &Value)> = match nested.nesting {
                    BlockNesting::Single | BlockNesting::Group => {
                        return block_paths(&nested.block, v, path, found)
                    }
                    BlockNesting::List | BlockNesting::Set => indexed(v).collect(),
                    BlockNesting::Map => keyed(v),
                };
                for (step, item) in items {
                    within(path, step, |path| {
                        block_paths(&nested.block, item, path, found)
                    });
                }
            },
        );
    }
}

/// The sensitive attributes of an object of `attributes` (null or not), and those inside
/// nested attribute objects.
fn attribute_paths(
    attributes: &BTreeMap<String, Attribute>,
    object: &Value,
    path: &mut Steps,
    found: &mut Vec<Path>,
) {
    for (name, attribute) in attributes {
        within(
            path,
            PathStep::Attribute(crate::text::nfc(name).into_owned()),
            |path| {
                if attribute.sensitive {
                    found.push(Path::from(path.clone()));
                } else if let Some(nested) = &attribute.nested_type {
                    if attribute.contains_sensitive() {
                        nested_paths(nested, attribute_of(object, name), path, found);
                    }
                }
            },
        );
    }
}

fn nested_paths(nested: &NestedType, value: &Value, path: &mut Steps, found: &mut Vec<Path>) {
    if value.is_null() || value.is_unknown() {
        return;
    }
    let items: Vec<(PathStep, &Value)> = match nested.nesting {
        AttributeNesting::Single => {
            return attribute_paths(&nested.attributes, value, path, found);
        }
        AttributeNesting::List | AttributeNesting::Set => indexed(value).collect(),
        AttributeNesting::Map => keyed(value),
    };
    for (step, item) in items {
        if item.is_null() || item.is_unknown() {
            continue;
        }
        within(path, step, |path| {
            attribute_paths(&nested.attributes, item, path, found)
        });
    }
}

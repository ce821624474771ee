//! Checks of decoded values against a schema: what a provider wants to know about a
//! configuration, or about a planned or new state, beyond its type.

use std::collections::BTreeMap;
use std::fmt;

use super::{
    attribute_of, Attribute, AttributeNesting, Block, BlockNesting, NestedBlock, NestedType,
};
use crate::path::{Path, StepRef as Step};
use crate::value::Value;

/// One problem found by [`Block::check_config`], [`Block::check_state`] or
/// [`Block::validate`]: where, and what.
///
/// It prints as `<path>: <message>`, or just the message at the root.
///
/// ```
/// use ctywire::schema::Violation;
/// use ctywire::Path;
///
/// let v = Violation::new(Path::root().attribute("disk"), "expected at least 1 block, found 0");
/// assert_eq!(v.to_string(), ".disk: expected at least 1 block, found 0");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Violation {
    /// Where: a path into the value, or for [`Block::validate`] into the schema (block
    /// type and attribute names).
    pub path: Path,
    /// What is wrong.
    pub message: String,
}

impl Violation {
    /// A violation at `path`.
    pub fn new(path: Path, message: impl Into<String>) -> Violation {
        Violation {
            path,
            message: message.into(),
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl Block {
    /// Checks a configuration value (as decoded with [`implied_type`](Block::implied_type))
    /// the way Terraform validates configuration, and lists every problem with its path:
    ///
    /// - a required attribute (or a SINGLE block with `min_items` 1) that is null;
    /// - a computed-only attribute (computed, not optional) that is set;
    /// - a LIST or SET block with fewer than `min_items` or more than `max_items`
    ///   blocks. As in Terraform, the count is not checked while the collection holds an
    ///   unknown anywhere (a `dynamic` block whose `for_each` is unknown, say): the final
    ///   count is not known yet.
    ///
    /// Nested blocks and nested attribute objects are checked inside. Unknown values
    /// are never wrong (whether an unknown turns out null is not known); a GROUP block
    /// equal to its [empty value](Block::empty_value) counts as absent, so the required
    /// attributes inside it are not enforced.
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block, BlockNesting, NestedBlock};
    /// use ctywire::{Type, Value};
    ///
    /// let disk = Block::new().attribute("size", Attribute::new(Type::Number).required());
    /// let block = Block::new()
    ///     .attribute("name", Attribute::new(Type::String).required())
    ///     .attribute("id", Attribute::new(Type::String).computed())
    ///     .block_type("disk", NestedBlock::new(BlockNesting::List, disk).min_items(1).max_items(2));
    ///
    /// let config = Value::object([
    ///     ("name", Value::Null),
    ///     ("id", Value::from("i-123")),
    ///     ("disk", Value::list([Value::object([("size", Value::Null)])])),
    /// ]);
    /// let problems: Vec<String> = block.check_config(&config).iter().map(|v| v.to_string()).collect();
    /// assert_eq!(problems, [
    ///     ".id: computed-only attribute cannot be set in configuration",
    ///     ".name: required attribute is not set",
    ///     ".disk[0].size: required attribute is not set",
    /// ]);
    ///
    /// let config = Value::object([("name", Value::from("web")), ("disk", Value::list([]))]);
    /// assert_eq!(block.check_config(&config)[0].to_string(), ".disk: expected at least 1 block, found 0");
    /// ```
    pub fn check_config(&self, value: &Value) -> Vec<Violation> {
        let mut checker = Checker::new(Mode::Config);
        checker.block(self, value);
        checker.found
    }

    /// Checks a planned or new state value a provider is about to return, for what
    /// Terraform refuses in one, and lists every problem with its path:
    ///
    /// - a LIST, SET, MAP or GROUP block that is null (no blocks is an empty
    ///   collection; a GROUP block is never null);
    /// - a block inside a LIST, SET or MAP block that is itself unknown (its attributes
    ///   may be unknown, the block may not);
    /// - a write-only attribute that is not null.
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block, BlockNesting, NestedBlock};
    /// use ctywire::{Type, Value};
    ///
    /// let rule = Block::new().attribute("port", Attribute::new(Type::Number).required());
    /// let block = Block::new()
    ///     .attribute("password", Attribute::new(Type::String).optional().write_only())
    ///     .block_type("ingress", NestedBlock::new(BlockNesting::Set, rule));
    ///
    /// let planned = Value::object([("password", Value::from("hunter2")), ("ingress", Value::Null)]);
    /// let problems: Vec<String> = block.check_state(&planned).iter().map(|v| v.to_string()).collect();
    /// assert_eq!(problems, [
    ///     ".password: write-only attribute must be null",
    ///     ".ingress: expected an empty set for no blocks, found null",
    /// ]);
    /// ```
    pub fn check_state(&self, value: &Value) -> Vec<Violation> {
        let mut checker = Checker::new(Mode::State);
        checker.block(self, value);
        checker.found
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Config,
    State,
}

/// A walk over a value and its schema, with the path to where it is.
struct Checker<'a> {
    mode: Mode,
    steps: Vec<Step<'a>>,
    found: Vec<Violation>,
}

impl<'a> Checker<'a> {
    fn new(mode: Mode) -> Checker<'a> {
        Checker {
            mode,
            steps: Vec::new(),
            found: Vec::new(),
        }
    }

    fn report(&mut self, message: impl Into<String>) {
        let path = Step::path(&self.steps);
        self.found.push(Violation::new(path, message));
    }

    /// Runs `f` with `step` pushed on the path.
    fn within(&mut self, step: Step<'a>, f: impl FnOnce(&mut Self)) {
        self.steps.push(step);
        f(self);
        self.steps.pop();
    }

    /// Whether a block or nested-type value is a known object to look inside; reports a
    /// value of another shape.
    fn is_object(&mut self, value: &Value) -> bool {
        match value.untyped() {
            Value::Null | Value::Unknown(_) => false,
            Value::Object(_) => true,
            other => {
                self.report(format!("expected an object, found {}", other.kind_name()));
                false
            }
        }
    }

    fn block(&mut self, block: &'a Block, value: &'a Value) {
        if !self.is_object(value) {
            return;
        }
        self.attributes(&block.attributes, value);
        for (name, nested) in block.unshadowed_block_types() {
            let v = attribute_of(value, name);
            self.within(Step::Attribute(name), |c| c.nested_block(nested, v));
        }
    }

    /// The attributes of a known object.
    fn attributes(&mut self, attributes: &'a BTreeMap<String, Attribute>, object: &'a Value) {
        for (name, attribute) in attributes {
            let v = attribute_of(object, name);
            self.within(Step::Attribute(name), |c| c.attribute(attribute, v));
        }
    }

    fn attribute(&mut self, attribute: &'a Attribute, value: &'a Value) {
        match self.mode {
            Mode::Config => {
                if value.is_null() {
                    if attribute.is_required_in_config() {
                        self.report("required attribute is not set");
                    }
                    return;
                }
                if attribute.is_computed_only() {
                    self.report("computed-only attribute cannot be set in configuration");
                    return;
                }
            }
            Mode::State => {
                if attribute.write_only && !value.is_null() {
                    self.report("write-only attribute must be null");
                    return;
                }
            }
        }
        if let Some(nested) = &attribute.nested_type {
            self.nested_type(nested, value);
        }
    }

    fn nested_type(&mut self, nested: &'a NestedType, value: &'a Value) {
        if value.is_null() || value.is_unknown() {
            return;
        }
        let each = |c: &mut Checker<'a>, v: &'a Value| {
            if c.is_object(v) {
                c.attributes(&nested.attributes, v);
            }
        };
        match (nested.nesting, value.untyped()) {
            (AttributeNesting::Single, v) => each(self, v),
            (AttributeNesting::List, Value::List(items)) => {
                for (i, item) in items.iter().enumerate() {
                    self.within(Step::Index(i), |c| each(c, item));
                }
            }
            (AttributeNesting::Set, Value::Set(items)) => {
                for item in items.iter() {
                    self.within(Step::Element(item), |c| each(c, item));
                }
            }
            (AttributeNesting::Map, Value::Map(entries)) => {
                for (key, item) in entries.iter() {
                    self.within(Step::Key(key), |c| each(c, item));
                }
            }
            (nesting, other) => self.report(format!(
                "expected a {}, found {}",
                nesting.as_str(),
                other.kind_name()
            )),
        }
    }

    fn nested_block(&mut self, nested: &'a NestedBlock, value: &'a Value) {
        match nested.nesting {
            BlockNesting::Single => {
                if value.is_null() {
                    if self.mode == Mode::Config && nested.min_items >= 1 {
                        self.report("required block is missing");
                    }
                } else {
                    self.block(&nested.block, value);
                }
            }
            BlockNesting::Group => {
                if value.is_null() {
                    self.report("a group block is never null");
                } else if self.mode == Mode::State || *value != nested.block.empty_value() {
                    self.block(&nested.block, value);
                }
            }
            BlockNesting::List | BlockNesting::Set | BlockNesting::Map => {
                self.block_collection(nested, value);
            }
        }
    }

    /// A LIST, SET or MAP block value.
    fn block_collection(&mut self, nested: &'a NestedBlock, value: &'a Value) {
        let what = match nested.nesting {
            BlockNesting::Set => "set",
            BlockNesting::Map => "map",
            _ => "list",
        };
        if value.is_unknown() {
            return;
        }
        if value.is_null() {
            match self.mode {
                Mode::State => self.report(format!(
                    "expected an empty {what} for no blocks, found null"
                )),
                Mode::Config => self.count(nested, 0),
            }
            return;
        }
        let items: Vec<(Step<'a>, &'a Value)> = match (nested.nesting, value.untyped()) {
            (BlockNesting::List, Value::List(vs) | Value::Tuple(vs)) => vs
                .iter()
                .enumerate()
                .map(|(i, v)| (Step::Index(i), v))
                .collect(),
            (BlockNesting::Set, Value::Set(s)) => s.iter().map(|v| (Step::Element(v), v)).collect(),
            (BlockNesting::Map, Value::Map(m)) => {
                m.iter().map(|(k, v)| (Step::Key(k), v)).collect()
            }
            (BlockNesting::Map, Value::Object(o)) => {
                o.iter().map(|(k, v)| (Step::Key(k), v)).collect()
            }
            (_, other) => {
                self.report(format!(
                    "expected a {what} of blocks, found {}",
                    other.kind_name()
                ));
                return;
            }
        };
        if self.mode == Mode::Config && value.is_wholly_known() {
            self.count(nested, items.len());
        }
        for (step, item) in items {
            self.within(step, |c| {
                if c.mode == Mode::State && item.is_unknown() {
                    c.report(
                        "a block must not be unknown itself; make its attributes unknown instead",
                    );
                } else {
                    c.block(&nested.block, item);
                }
            });
        }
    }

    /// The `min_items` / `max_items` check of a LIST or SET block holding `n` blocks.
    fn count(&mut self, nested: &NestedBlock, n: usize) {
        if !matches!(nested.nesting, BlockNesting::List | BlockNesting::Set) {
            return;
        }
        let n = n as u64;
        if n < nested.min_items {
            self.report(format!(
                "expected at least {}, found {n}",
                blocks(nested.min_items)
            ));
        } else if nested.max_items > 0 && n > nested.max_items {
            self.report(format!(
                "expected at most {}, found {n}",
                blocks(nested.max_items)
            ));
        }
    }
}

/// "1 block", "2 blocks".
fn blocks(n: u64) -> String {
    if n == 1 {
        "1 block".to_owned()
    } else {
        format!("{n} blocks")
    }
}

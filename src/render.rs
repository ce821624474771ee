//! A human rendering of values, in the style of `terraform show` and `terraform plan`.
//!
//! Attributes are aligned on `=`, unknowns read `(known after apply)` as Terraform
//! prints them (their refinements spelled out with [`Options::show_refinements`]),
//! sensitive values read `(sensitive value)` unless asked otherwise, and null attributes are left out, as Terraform leaves them out (unless
//! [`Options::show_null`]).
//!
//! ```
//! use ctywire::render::{render, Options};
//! use ctywire::{Refinements, Type, Value};
//!
//! let ty: Type = "object({id=string, name=string, tags=map(string), ports=list(number)})".parse()?;
//! let value = Value::object([
//!     ("id", Value::Unknown(Refinements::new().not_null().with_string_prefix("i-"))),
//!     ("name", Value::from("web")),
//!     ("tags", Value::map([("Env", Value::from("prod"))])),
//!     ("ports", Value::list([Value::from(80), Value::from(443)])),
//! ]);
//! let options = Options::new().show_refinements(true);
//! assert_eq!(render(&value, &ty, &options), r#"{
//!     id    = (known after apply, not null, prefix "i-")
//!     name  = "web"
//!     ports = [
//!         80,
//!         443,
//!     ]
//!     tags  = {
//!         "Env" = "prod"
//!     }
//! }"#);
//! # Ok::<(), ctywire::Error>(())
//! ```

pub mod diff;

use std::fmt::Write;

use crate::path::{Path, PathStep};
use crate::schema::{Block, BlockNesting};
use crate::types::Type;
use crate::value::{Object, Value};

/// How to render.
///
/// ```
/// use ctywire::render::{render, Options};
/// use ctywire::{Type, Value};
///
/// let ty: Type = "object({id=string, name=string})".parse()?;
/// let value = Value::object([("id", Value::from("i-1")), ("name", Value::Null)]);
/// assert_eq!(render(&value, &ty, &Options::default()), "{\n    id = \"i-1\"\n}");
/// let options = Options::new().show_null(true);
/// assert_eq!(render(&value, &ty, &options), "{\n    id   = \"i-1\"\n    name = null\n}");
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Options {
    /// Show sensitive values instead of `(sensitive value)`.
    pub show_sensitive: bool,
    /// Use ANSI colours.
    pub color: bool,
    /// Show null attributes as `null` instead of leaving them out (absent nested blocks
    /// are left out either way).
    pub show_null: bool,
    /// Paths of sensitive values (from a schema or a plan's sensitivity tree).
    pub sensitive: Vec<Path>,
    /// Spell out what an unknown's refinements say (`(known after apply, not null,
    /// prefix "i-")`); off by default, where an unknown reads `(known after apply)` as
    /// in Terraform's own text.
    pub show_refinements: bool,
}

impl Options {
    /// The default options, Terraform's text: sensitive values hidden, no colour, nulls
    /// left out, unknowns without their refinements.
    pub fn new() -> Options {
        Options::default()
    }

    /// Sets [`show_sensitive`](Self::show_sensitive).
    pub fn show_sensitive(mut self, yes: bool) -> Options {
        self.show_sensitive = yes;
        self
    }

    /// Sets [`color`](Self::color).
    pub fn color(mut self, yes: bool) -> Options {
        self.color = yes;
        self
    }

    /// Sets [`show_null`](Self::show_null).
    pub fn show_null(mut self, yes: bool) -> Options {
        self.show_null = yes;
        self
    }

    /// Sets [`show_refinements`](Self::show_refinements).
    pub fn show_refinements(mut self, yes: bool) -> Options {
        self.show_refinements = yes;
        self
    }

    /// Sets [`sensitive`](Self::sensitive): the paths of sensitive values.
    pub fn sensitive(mut self, paths: impl IntoIterator<Item = Path>) -> Options {
        self.sensitive = paths.into_iter().collect();
        self
    }
}

/// Renders `value` of type `ty`.
///
/// ```
/// use ctywire::render::{render, Options};
/// use ctywire::{Path, Type, Value};
///
/// let ty: Type = "object({user=string, password=string})".parse()?;
/// let value = Value::object([("user", Value::from("ann")), ("password", Value::from("hunter2"))]);
/// let options = Options::new().sensitive([Path::root().attribute("password")]);
/// assert_eq!(render(&value, &ty, &options), "{\n    password = (sensitive value)\n    user     = \"ann\"\n}");
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn render(value: &Value, ty: &Type, options: &Options) -> String {
    let mut r = Renderer {
        out: String::new(),
        options,
        path: Vec::new(),
    };
    r.value(value, ty, 0);
    r.out
}

/// Renders the value of a schema block as `terraform show` does: attributes first,
/// aligned, then each nested block as a block (`name {`, `name "label" {` for MAP
/// blocks), one per element.
///
/// ```
/// use ctywire::render::{render_block, Options};
/// use ctywire::schema::{Attribute, Block, BlockNesting, NestedBlock};
/// use ctywire::{Type, Value};
///
/// let block = Block::new()
///     .attribute("name", Attribute::new(Type::String).required())
///     .block_type("disk", NestedBlock::new(BlockNesting::List, Block::new()
///         .attribute("size", Attribute::new(Type::Number).optional())));
/// let value = Value::object([
///     ("name", Value::from("web")),
///     ("disk", Value::list([
///         Value::object([("size", Value::from(10))]),
///         Value::object([("size", Value::unknown())]),
///     ])),
/// ]);
/// assert_eq!(render_block(&value, &block, &Options::default()), r#"{
///     name = "web"
///
///     disk {
///         size = 10
///     }
///
///     disk {
///         size = (known after apply)
///     }
/// }"#);
/// ```
pub fn render_block(value: &Value, block: &Block, options: &Options) -> String {
    let mut r = Renderer {
        out: String::new(),
        options,
        path: Vec::new(),
    };
    r.block(value, block, 0);
    r.out
}

const INDENT: usize = 4;

/// One line of an object or map: its label, its path step, its value and type.
struct Entry<'v> {
    label: String,
    step: PathStep,
    value: &'v Value,
    ty: Type,
}

struct Renderer<'o> {
    out: String,
    options: &'o Options,
    /// The path to the value being rendered, for sensitivity.
    path: Vec<PathStep>,
}

impl Renderer<'_> {
    fn dim(&mut self, text: &str) {
        if self.options.color {
            let _ = write!(self.out, "\x1b[2m{text}\x1b[0m");
        } else {
            self.out.push_str(text);
        }
    }

    fn is_sensitive(&self) -> bool {
        !self.options.show_sensitive
            && self
                .options
                .sensitive
                .iter()
                .any(|p| p.steps() == self.path.as_slice())
    }

    fn indent(&mut self, depth: usize) {
        self.out.extend(std::iter::repeat_n(' ', depth * INDENT));
    }

    fn value(&mut self, value: &Value, ty: &Type, depth: usize) {
        if self.is_sensitive() {
            return self.dim("(sensitive value)");
        }
        let (value, ty) = match value {
            Value::Typed(t) => (&t.value, &t.ty),
            v => (v, ty),
        };
        match value {
            Value::Null => self.dim("null"),
            Value::Unknown(r) => {
                let mut text = "(known after apply".to_owned();
                if self.options.show_refinements {
                    for phrase in r.describe() {
                        text.push_str(", ");
                        text.push_str(&phrase);
                    }
                }
                text.push(')');
                self.dim(&text);
            }
            Value::Bool(b) => {
                let _ = write!(self.out, "{b}");
            }
            Value::Number(n) => {
                let _ = write!(self.out, "{n}");
            }
            Value::String(s) => self.string(s, depth),
            Value::List(vs) | Value::Tuple(vs) => self.sequence(vs, ty, depth),
            Value::Set(s) => self.sequence(s.as_slice(), ty, depth),
            Value::Map(m) => {
                let element = ty.element_type().cloned().unwrap_or(Type::Dynamic);
                let entries = m
                    .iter()
                    .map(|(k, v)| Entry {
                        label: quote(k),
                        step: PathStep::Key(k.to_owned()),
                        value: v,
                        ty: element.clone(),
                    })
                    .collect();
                self.entries(entries, depth);
            }
            Value::Object(o) => {
                let entries = o
                    .iter()
                    .filter(|(_, v)| self.options.show_null || !v.is_null())
                    .map(|(name, v)| Entry {
                        label: name.to_owned(),
                        step: PathStep::Attribute(name.to_owned()),
                        value: v,
                        ty: ty
                            .as_object()
                            .and_then(|ot| ot.attribute(name))
                            .cloned()
                            .unwrap_or(Type::Dynamic),
                    })
                    .collect();
                self.entries(entries, depth);
            }
            Value::Typed(_) => unreachable!("unwrapped above"),
        }
    }

    fn string(&mut self, s: &str, depth: usize) {
        if s.contains('\n') && !s.contains("EOT") {
            // A heredoc, as Terraform shows multi-line strings.
            self.out.push_str("<<-EOT\n");
            for line in s.strip_suffix('\n').unwrap_or(s).split('\n') {
                self.indent(depth + 1);
                self.out.push_str(line);
                self.out.push('\n');
            }
            self.indent(depth);
            self.out.push_str("EOT");
        } else {
            self.out.push_str(&quote(s));
        }
    }

    fn sequence(&mut self, values: &[Value], ty: &Type, depth: usize) {
        if values.is_empty() {
            return self.out.push_str("[]");
        }
        self.out.push_str("[\n");
        for (i, v) in values.iter().enumerate() {
            let t = match ty {
                Type::Tuple(ts) => ts.get(i).cloned().unwrap_or(Type::Dynamic),
                t => t.element_type().cloned().unwrap_or(Type::Dynamic),
            };
            self.indent(depth + 1);
            self.path.push(PathStep::Index(i as u64));
            self.value(v, &t, depth + 1);
            self.path.pop();
            self.out.push_str(",\n");
        }
        self.indent(depth);
        self.out.push(']');
    }

    fn entries(&mut self, entries: Vec<Entry<'_>>, depth: usize) {
        if entries.is_empty() {
            return self.out.push_str("{}");
        }
        self.out.push_str("{\n");
        self.entry_lines(entries, depth + 1);
        self.indent(depth);
        self.out.push('}');
    }

    /// `label = value` lines at `depth`, aligned on `=`.
    fn entry_lines(&mut self, entries: Vec<Entry<'_>>, depth: usize) {
        let width = entries
            .iter()
            .map(|e| e.label.chars().count())
            .max()
            .unwrap_or(0);
        for e in entries {
            self.indent(depth);
            let _ = write!(self.out, "{:width$} = ", e.label);
            self.path.push(e.step);
            self.value(e.value, &e.ty, depth);
            self.path.pop();
            self.out.push('\n');
        }
    }

    /// A block's value: `{`, its attributes, its nested blocks, `}`.
    fn block(&mut self, value: &Value, block: &Block, depth: usize) {
        match value.untyped() {
            Value::Object(o) => {
                self.out.push_str("{\n");
                self.block_body(o, block, depth + 1);
                self.indent(depth);
                self.out.push('}');
            }
            other => self.value(other, &block.implied_type(), depth),
        }
    }

    fn block_body(&mut self, object: &Object, block: &Block, depth: usize) {
        let entries = block
            .attributes
            .iter()
            .filter_map(|(name, attribute)| {
                let v = object
                    .get(name)
                    .filter(|v| self.options.show_null || !v.is_null())?;
                Some(Entry {
                    label: name.clone(),
                    step: PathStep::Attribute(name.clone()),
                    value: v,
                    ty: attribute.implied_type(),
                })
            })
            .collect();
        self.entry_lines(entries, depth);
        for (name, nested) in &block.block_types {
            let Some(v) = object.get(name) else { continue };
            let absent = v.is_null()
                || (nested.nesting == BlockNesting::Group && *v == nested.empty_value());
            if absent {
                continue;
            }
            self.path.push(PathStep::Attribute(name.clone()));
            if v.is_unknown() {
                self.out.push('\n');
                self.indent(depth);
                let _ = write!(self.out, "{name} ");
                self.value(v, &nested.implied_type(), depth);
                self.out.push('\n');
            } else if let Some(items) = nested.labeled_items(v) {
                for (label, item) in items {
                    self.path.push(PathStep::Key(label.to_owned()));
                    let header = format!("{name} {}", quote(label));
                    self.nested_block(&header, item, &nested.block, depth);
                    self.path.pop();
                }
            } else if let Some(items) = nested.items(v) {
                for (i, item) in items.iter().enumerate() {
                    self.path.push(PathStep::Index(i as u64));
                    self.nested_block(name, item, &nested.block, depth);
                    self.path.pop();
                }
            } else {
                self.nested_block(name, v, &nested.block, depth);
            }
            self.path.pop();
        }
    }

    /// One nested block, after a blank line: `header {`, body, `}`.
    fn nested_block(&mut self, header: &str, value: &Value, block: &Block, depth: usize) {
        self.out.push('\n');
        self.indent(depth);
        let _ = write!(self.out, "{header} ");
        if self.is_sensitive() {
            self.dim("(sensitive value)");
        } else {
            self.block(value, block, depth);
        }
        self.out.push('\n');
    }
}

/// A string as Terraform shows it, quoted and escaped.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    crate::text::write_hcl_quoted(&mut out, s);
    out
}

//! Diffs in the style of `terraform plan`: the change from one value to another, with
//! `+`, `-` and `~`, `old -> new`, nested blocks, `(known after apply)`,
//! `(sensitive value)`, `# forces replacement` and `# (2 unchanged attributes hidden)`.
//!
//! The rendering follows Terraform's plan renderer (its `jsonformat` package) rule for
//! rule: how each change is classified, which unchanged parts are hidden and counted,
//! where `-> null` and `# forces replacement` go, how lists show context around their
//! changes, how multi-line strings become heredocs and strings holding JSON become
//! `jsonencode(...)`, and how sensitive blocks are hidden. The vectors in
//! `vectors/plan/terraform-render.json` are Terraform's own renderer tests.
//!
//! ```
//! use ctywire::render::diff::{render_resource_change, ChangeAction, DiffOptions, ResourceHeading};
//! use ctywire::schema::{Attribute, Block};
//! use ctywire::{Type, Value};
//!
//! let block = Block::new()
//!     .attribute("id", Attribute::new(Type::String).computed())
//!     .attribute("ami", Attribute::new(Type::String).required())
//!     .attribute("size", Attribute::new(Type::Number).optional());
//! let before = Value::object([("id", Value::from("i-1")), ("ami", Value::from("ami-1")), ("size", Value::from(1))]);
//! let after = Value::object([("id", Value::unknown()), ("ami", Value::from("ami-2")), ("size", Value::from(1))]);
//!
//! let options = DiffOptions::new().requires_replace([ctywire::Path::root().attribute("ami")]);
//! let change = ResourceHeading::new("aws_instance.web", ChangeAction::DeleteThenCreate);
//! assert_eq!(render_resource_change(&change, &before, &after, &block, &options), r#"  # aws_instance.web must be replaced
//! -/+ resource "aws_instance" "web" {
//!       ~ ami  = "ami-1" -> "ami-2" # forces replacement
//!       ~ id   = "i-1" -> (known after apply)
//!         ## (1 unchanged attribute hidden)
//!     }"#);
//! ```

mod differ;
mod human;
mod model;
mod plan;

pub use plan::render_plan;

use crate::path::Path;
use crate::schema::Block;
use crate::types::Type;
use crate::value::Value;

use model::{Change, Matcher, Tree};

/// How to render a diff.
///
/// ```
/// use ctywire::render::diff::{render_block_diff, DiffOptions};
/// use ctywire::schema::{Attribute, Block};
/// use ctywire::{Path, Type, Value};
///
/// let block = Block::new()
///     .attribute("size", Attribute::new(Type::Number).optional())
///     .attribute("zone", Attribute::new(Type::String).optional());
/// let before = Value::object([("size", Value::from(1)), ("zone", Value::from("a"))]);
/// let after = Value::object([("size", Value::from(1)), ("zone", Value::from("b"))]);
/// let options = DiffOptions::new().requires_replace([Path::root().attribute("zone")]).show_unchanged(true);
/// assert_eq!(render_block_diff(&before, &after, &block, &options), r#"{
///         size = 1
///       ~ zone = "a" -> "b" # forces replacement
///     }"#);
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct DiffOptions {
    /// Use ANSI colours.
    pub color: bool,
    /// Paths of sensitive values in the value before (beyond what the schema marks
    /// sensitive), as a plan's `before_sensitive` gives them.
    pub before_sensitive: Vec<Path>,
    /// Paths of sensitive values in the value after (beyond the schema's).
    pub after_sensitive: Vec<Path>,
    /// Paths whose change forces the resource to be replaced: they get
    /// `# forces replacement`.
    pub requires_replace: Vec<Path>,
    /// Show unchanged attributes, elements and blocks instead of counting them.
    pub show_unchanged: bool,
    /// Show what unknowns' refinements say (`(known after apply, not null, prefix
    /// "i-")`). Off by default: Terraform 1.15 prints every unknown as
    /// `(known after apply)`, and so does this renderer.
    pub show_refinements: bool,
}

impl DiffOptions {
    /// The default options: no colour, no sensitive paths beyond the schema's, nothing
    /// forcing replacement, unchanged parts counted.
    pub fn new() -> DiffOptions {
        DiffOptions::default()
    }

    /// Sets [`color`](Self::color).
    pub fn color(mut self, yes: bool) -> DiffOptions {
        self.color = yes;
        self
    }

    /// Sets [`before_sensitive`](Self::before_sensitive).
    pub fn before_sensitive(mut self, paths: impl IntoIterator<Item = Path>) -> DiffOptions {
        self.before_sensitive = paths.into_iter().collect();
        self
    }

    /// Sets [`after_sensitive`](Self::after_sensitive).
    pub fn after_sensitive(mut self, paths: impl IntoIterator<Item = Path>) -> DiffOptions {
        self.after_sensitive = paths.into_iter().collect();
        self
    }

    /// Sets [`requires_replace`](Self::requires_replace).
    pub fn requires_replace(mut self, paths: impl IntoIterator<Item = Path>) -> DiffOptions {
        self.requires_replace = paths.into_iter().collect();
        self
    }

    /// Sets [`show_unchanged`](Self::show_unchanged).
    pub fn show_unchanged(mut self, yes: bool) -> DiffOptions {
        self.show_unchanged = yes;
        self
    }

    /// Sets [`show_refinements`](Self::show_refinements).
    pub fn show_refinements(mut self, yes: bool) -> DiffOptions {
        self.show_refinements = yes;
        self
    }
}

/// What a plan does to a resource instance, as `terraform plan` shows it.
///
/// Terraform adds actions from time to time (`forget` came in v1.7), so matches need
/// a `_` arm.
///
/// ```
/// use ctywire::render::diff::ChangeAction;
/// use ctywire::Value;
///
/// let web = Value::object([("name", Value::from("web"))]);
/// let api = Value::object([("name", Value::from("api"))]);
/// assert_eq!(ChangeAction::between(&Value::Null, &web, false), ChangeAction::Create);
/// assert_eq!(ChangeAction::between(&web, &api, false), ChangeAction::Update);
/// assert_eq!(ChangeAction::between(&web, &api, true), ChangeAction::DeleteThenCreate);
/// assert_eq!(ChangeAction::DeleteThenCreate.name(), "delete-then-create");
/// assert_eq!(ChangeAction::from_name("create"), Some(ChangeAction::Create));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChangeAction {
    /// Nothing.
    NoOp,
    /// Create (`+`).
    Create,
    /// Read a data source (`<=`).
    Read,
    /// Update in place (`~`).
    Update,
    /// Destroy (`-`).
    Delete,
    /// Replace, destroying first (`-/+`).
    DeleteThenCreate,
    /// Replace, creating first (`+/-`).
    CreateThenDelete,
    /// Stop managing it without destroying it (`.`).
    Forget,
    /// Replace without destroying the old object (`+/.`).
    CreateThenForget,
}

impl ChangeAction {
    /// The action as this crate's vectors and command line name it: `create`,
    /// `delete-then-create`, ...
    pub fn name(self) -> &'static str {
        match self {
            ChangeAction::NoOp => "no-op",
            ChangeAction::Create => "create",
            ChangeAction::Read => "read",
            ChangeAction::Update => "update",
            ChangeAction::Delete => "delete",
            ChangeAction::DeleteThenCreate => "delete-then-create",
            ChangeAction::CreateThenDelete => "create-then-delete",
            ChangeAction::Forget => "forget",
            ChangeAction::CreateThenForget => "create-then-forget",
        }
    }

    /// The action a [`name`](Self::name) names.
    pub fn from_name(name: &str) -> Option<ChangeAction> {
        use ChangeAction::*;
        [
            NoOp,
            Create,
            Read,
            Update,
            Delete,
            DeleteThenCreate,
            CreateThenDelete,
            Forget,
            CreateThenForget,
        ]
        .into_iter()
        .find(|a| a.name() == name)
    }

    /// The action that takes a resource from `before` to `after`: create from null,
    /// delete to null, nothing when they are equal (cty's equality), a replacement
    /// (destroying first) when `replace` says a change forces one, else an update.
    pub fn between(before: &Value, after: &Value, replace: bool) -> ChangeAction {
        match (before.is_null(), after.is_null()) {
            (true, true) => ChangeAction::NoOp,
            (true, false) => ChangeAction::Create,
            (false, true) => ChangeAction::Delete,
            _ if crate::value::set::equivalent(before, after) => ChangeAction::NoOp,
            _ if replace => ChangeAction::DeleteThenCreate,
            _ => ChangeAction::Update,
        }
    }
}

/// The heading of a resource instance change to render (`# aws_instance.web will be
/// created`): the address, the action and why. (A `show -json` plan's resource change
/// is [`tfjson::ResourceChange`](crate::tfjson::ResourceChange).)
///
/// Build one with [`new`](Self::new) and set `action_reason` or `deposed` on it.
///
/// ```
/// use ctywire::render::diff::{render_resource_change, ChangeAction, DiffOptions, ResourceHeading};
/// use ctywire::schema::{Attribute, Block};
/// use ctywire::{Type, Value};
///
/// let block = Block::new().attribute("id", Attribute::new(Type::String).computed());
/// let mut change = ResourceHeading::new("cloud_instance.old", ChangeAction::Delete);
/// change.action_reason = Some("delete_because_no_resource_config");
/// let before = Value::object([("id", Value::from("i-1"))]);
/// let text = render_resource_change(&change, &before, &Value::Null, &block, &DiffOptions::new());
/// assert_eq!(text.lines().take(3).collect::<Vec<_>>(), [
///     "  # cloud_instance.old will be destroyed",
///     "  # (because cloud_instance.old is not in configuration)",
///     r#"  - resource "cloud_instance" "old" {"#,
/// ]);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ResourceHeading<'a> {
    /// The instance address: `aws_instance.web`, `data.aws_ami.ubuntu`.
    pub address: &'a str,
    /// What the plan does.
    pub action: ChangeAction,
    /// The plan's `action_reason` (`replace_because_tainted`, ...), which adds a note to
    /// the heading.
    pub action_reason: Option<&'a str>,
    /// The deposed key, for a change to a deposed object.
    pub deposed: Option<&'a str>,
    /// The change was found outside Terraform (a plan's `resource_drift`): an update
    /// reads `has changed`, a delete `has been deleted`.
    pub drift: bool,
    /// The address in the previous run, when a `moved` block changed it: a move alone
    /// reads `has moved to`, a move with a change adds `(moved from ...)`.
    pub previous_address: Option<&'a str>,
    /// The import id when the change imports the object (empty for an import by
    /// identity): an import alone reads `will be imported`, an import with a change
    /// adds `(imported from "...")`.
    pub importing: Option<&'a str>,
}

impl<'a> ResourceHeading<'a> {
    /// A change to the resource at `address`, with no reason and not deposed.
    pub fn new(address: &'a str, action: ChangeAction) -> ResourceHeading<'a> {
        ResourceHeading {
            address,
            action,
            action_reason: None,
            deposed: None,
            drift: false,
            previous_address: None,
            importing: None,
        }
    }

    /// The mode, type and name of the resource the address names (a module path and an
    /// instance key are left out).
    fn parts(&self) -> (&'a str, &'a str, &'a str) {
        let (_, mode, type_name, name, _) = self.split();
        (mode, type_name, name)
    }

    /// The module path (`module.m["a"]`, empty in the root module), the mode, type and
    /// name, and the instance key with its brackets (`[1]`, `["a"]`).
    fn split(&self) -> (String, &'a str, &'a str, &'a str, Option<&'a str>) {
        // Split on the dots outside an instance key (`["a.b"]`).
        let mut parts = Vec::new();
        let (mut depth, mut quoted, mut start) = (0, false, 0);
        for (i, c) in self.address.char_indices() {
            match c {
                '"' => quoted = !quoted,
                '[' if !quoted => depth += 1,
                ']' if !quoted => depth -= 1,
                '.' if !quoted && depth == 0 => {
                    parts.push(&self.address[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        parts.push(&self.address[start..]);
        let mut i = 0;
        while parts.get(i) == Some(&"module") {
            i += 2;
        }
        let mode = if parts.get(i) == Some(&"data") {
            i += 1;
            "data"
        } else {
            "resource"
        };
        let module = parts[..i.min(parts.len())].join(".");
        let type_name = parts.get(i).copied().unwrap_or("");
        let full = parts.get(i + 1).copied().unwrap_or("");
        let name = full.split('[').next().unwrap_or(full);
        let key = full.find('[').map(|at| &full[at..]);
        (module, mode, type_name, name, key)
    }

    /// `resource "TYPE" "NAME"` or `data "TYPE" "NAME"`.
    fn header(&self) -> String {
        let (mode, type_name, name) = self.parts();
        format!("{mode} \"{type_name}\" \"{name}\"")
    }

    /// Terraform's comment above a resource change (`# aws_instance.web will be created`).
    fn comment(&self) -> String {
        use ChangeAction::*;
        let address = match self.deposed {
            Some(key) => format!("{} (deposed object {key})", self.address),
            None => self.address.to_owned(),
        };
        let moved = self
            .previous_address
            .filter(|p| !p.is_empty() && *p != self.address);
        let mut out = match self.action {
            Create => format!("[bold]  # {address}[reset] will be created"),
            Read => {
                let mut s = format!("[bold]  # {address}[reset] will be read during apply");
                match self.action_reason {
                    Some("read_because_config_unknown") => s.push_str("\n  # (config refers to values not yet known)"),
                    Some("read_because_dependency_pending") => {
                        s.push_str("\n  # (depends on a resource or a module with changes pending)")
                    }
                    Some("read_because_check_nested") => s.push_str("\n  # (config will be reloaded to verify a check block)"),
                    _ => {}
                }
                s
            }
            Update if self.drift => format!("[bold]  # {address}[reset] has changed"),
            Update => format!("[bold]  # {address}[reset] will be updated in-place"),
            CreateThenDelete | DeleteThenCreate => match self.action_reason {
                Some("replace_because_tainted") => {
                    format!("[bold]  # {address}[reset] is tainted, so must be [bold][red]replaced[reset]")
                }
                Some("replace_by_request") => {
                    format!("[bold]  # {address}[reset] will be [bold][red]replaced[reset], as requested")
                }
                Some("replace_by_triggers") => format!(
                    "[bold]  # {address}[reset] will be [bold][red]replaced[reset] due to changes in replace_triggered_by"
                ),
                _ => format!("[bold]  # {address}[reset] must be [bold][red]replaced[reset]"),
            },
            CreateThenForget => format!(
                "[bold] # {address}[reset] must be replaced, but the existing object will not be destroyed\n # (destroy = false is set in the configuration)"
            ),
            Forget => {
                let mut s = if self.deposed.is_some() {
                    format!("[bold] # {address}[reset] will be removed from Terraform state, but [bold][red]will not be destroyed[reset]\n[bold] # (left over from a partially-failed replacement of this instance)")
                } else {
                    format!("[bold] # {address}[reset] will no longer be managed by Terraform, but [bold][red]will not be destroyed[reset]")
                };
                s.push_str("\n # (destroy = false is set in the configuration)");
                s
            }
            Delete => {
                let mut s = if self.drift {
                    format!("[bold]  # {address}[reset] has been deleted")
                } else {
                    format!("[bold]  # {address}[reset] will be [bold][red]destroyed[reset]")
                };
                let (module, _, type_name, name, key) = self.split();
                let key = key.unwrap_or("");
                let why = match self.action_reason {
                    Some("delete_because_no_resource_config") => format!("{type_name}.{name} is not in configuration"),
                    Some("delete_because_no_move_target") => {
                        format!("{} was moved to {}, which is not in configuration", self.previous_address.unwrap_or(""), self.address)
                    }
                    Some("delete_because_no_module") => format!("{module} is not in configuration"),
                    Some("delete_because_wrong_repetition") => match key.as_bytes().get(1) {
                        None => "resource uses count or for_each".to_owned(),
                        Some(b'"') => "resource does not use for_each".to_owned(),
                        Some(_) => "resource does not use count".to_owned(),
                    },
                    Some("delete_because_count_index") => format!("index {key} is out of range for count"),
                    Some("delete_because_each_key") => format!("key {key} is not in for_each map"),
                    _ => String::new(),
                };
                if !why.is_empty() {
                    s.push_str(&format!("\n  # (because {why})"));
                }
                if self.deposed.is_some() {
                    s.push_str("\n  # (left over from a partially-failed replacement of this instance)");
                }
                s
            }
            NoOp if moved.is_some() => {
                format!("[bold]  # {}[reset] has moved to [bold]{address}[reset]", moved.unwrap_or_default())
            }
            NoOp if self.importing.is_some() => format!("[bold]  # {address}[reset] will be imported"),
            NoOp => format!("{address} has an action the plan renderer doesn't support (this is a bug)"),
        };
        out.push('\n');
        if self.action != NoOp {
            if let Some(from) = moved {
                out.push_str(&format!("  # [reset](moved from {from})\n"));
            }
            if let Some(id) = self.importing.filter(|id| !id.is_empty()) {
                out.push_str(&format!("  # [reset](imported from \"{id}\")\n"));
            }
        }
        out
    }
}

/// The change `before` → `after` of a resource of schema `block`, with its heading, as
/// `terraform plan` prints it (without the trailing newline).
///
/// The sensitive paths are those of `options` and those the schema marks; a
/// `forget` change shows as unchanged, as Terraform shows it. An unknown shows as
/// `(known after apply)`, as Terraform 1.15 prints every unknown; with
/// [`DiffOptions::show_refinements`], followed by what its refinements say.
///
/// ```
/// use ctywire::render::diff::{render_resource_change, ChangeAction, DiffOptions, ResourceHeading};
/// use ctywire::schema::{Attribute, Block};
/// use ctywire::{Refinements, Type, Value};
///
/// let block = Block::new()
///     .attribute("arn", Attribute::new(Type::String).computed())
///     .attribute("name", Attribute::new(Type::String).required())
///     .attribute("token", Attribute::new(Type::String).optional().sensitive());
/// let planned = Value::object([
///     ("arn", Value::Unknown(Refinements::new().not_null().with_string_prefix("arn:"))),
///     ("name", Value::from("web")),
///     ("token", Value::from("s3cr3t")),
/// ]);
/// let change = ResourceHeading::new("cloud_instance.web", ChangeAction::Create);
/// let text = render_resource_change(&change, &Value::Null, &planned, &block, &DiffOptions::new());
/// assert_eq!(text, r#"  # cloud_instance.web will be created
///   + resource "cloud_instance" "web" {
///       + arn   = (known after apply)
///       + name  = "web"
///       + token = (sensitive value)
///     }"#);
/// let options = DiffOptions::new().show_refinements(true);
/// let text = render_resource_change(&change, &Value::Null, &planned, &block, &options);
/// assert!(text.contains(r#"+ arn   = (known after apply, not null, prefix "arn:")"#));
/// ```
pub fn render_resource_change(
    change: &ResourceHeading<'_>,
    before: &Value,
    after: &Value,
    block: &Block,
    options: &DiffOptions,
) -> String {
    let opts = human::Opts {
        color: options.color,
        show_refinements: options.show_refinements,
        ..human::Opts::default()
    };
    let body = render_block_diff_with(
        before,
        after,
        block,
        options,
        change.action == ChangeAction::Forget,
    );
    format!(
        "{}{} {} {}",
        opts.color(&change.comment()),
        opts.color(human::action_symbol(change.action)),
        change.header(),
        body
    )
}

/// The change `before` → `after` of a value of schema `block`: `{`, the changed
/// attributes and blocks with `+`, `-`, `~`, the counts of unchanged ones, `}` (as
/// Terraform renders a resource's body; later lines indented for a first line at the
/// start of a line).
///
/// ```
/// use ctywire::render::diff::{render_block_diff, DiffOptions};
/// use ctywire::schema::{Attribute, Block, BlockNesting, NestedBlock};
/// use ctywire::{Type, Value};
///
/// let disk = Block::new().attribute("size", Attribute::new(Type::Number).required());
/// let block = Block::new()
///     .attribute("name", Attribute::new(Type::String).required())
///     .block_type("disk", NestedBlock::new(BlockNesting::List, disk));
/// let disk = |size: i64| Value::object([("size", Value::from(size))]);
/// let before = Value::object([("name", Value::from("web")), ("disk", Value::list([disk(10)]))]);
/// let after = Value::object([("name", Value::from("web")), ("disk", Value::list([disk(20)]))]);
/// // `name`, like `id` and `tags`, identifies the resource: Terraform shows it unchanged.
/// assert_eq!(render_block_diff(&before, &after, &block, &DiffOptions::new()), r#"{
///         name = "web"
///
///       ~ disk {
///           ~ size = 10 -> 20
///         }
///     }"#);
/// ```
pub fn render_block_diff(
    before: &Value,
    after: &Value,
    block: &Block,
    options: &DiffOptions,
) -> String {
    render_block_diff_with(before, after, block, options, false)
}

fn render_block_diff_with(
    before: &Value,
    after: &Value,
    block: &Block,
    options: &DiffOptions,
    no_op: bool,
) -> String {
    let ty = block.implied_type();
    let mut before_sensitive = options.before_sensitive.clone();
    before_sensitive.extend(block.sensitive_paths(before));
    let mut after_sensitive = options.after_sensitive.clone();
    after_sensitive.extend(block.sensitive_paths(after));
    let trees = Trees::new(before, after, &ty, &before_sensitive, &after_sensitive);
    let mut change = trees.change(&options.requires_replace);
    if no_op {
        change = change.as_no_op();
    }
    let diff = differ::block(&change, block);
    diff.render(0, opts(options))
}

/// The change `before` → `after` of a value of type `ty`, as `terraform plan` renders
/// an attribute's value (`"a" -> "b"`, a `{ ... }` of changed elements, ...).
///
/// ```
/// use ctywire::render::diff::{render_value_diff, DiffOptions};
/// use ctywire::{Type, Value};
///
/// let ty: Type = "map(string)".parse()?;
/// let before = Value::map([("env", Value::from("dev")), ("team", Value::from("web"))]);
/// let after = Value::map([("env", Value::from("prod")), ("team", Value::from("web"))]);
/// assert_eq!(render_value_diff(&before, &after, &ty, &DiffOptions::default()), r#"{
///       ~ "env"  = "dev" -> "prod"
///         ## (1 unchanged element hidden)
///     }"#);
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn render_value_diff(
    before: &Value,
    after: &Value,
    ty: &Type,
    options: &DiffOptions,
) -> String {
    let trees = Trees::new(
        before,
        after,
        ty,
        &options.before_sensitive,
        &options.after_sensitive,
    );
    let change = trees.change(&options.requires_replace);
    differ::of_type(&change, ty).render(0, opts(options))
}

fn opts(options: &DiffOptions) -> human::Opts {
    human::Opts {
        color: options.color,
        show_unchanged_children: options.show_unchanged,
        show_refinements: options.show_refinements,
        ..human::Opts::default()
    }
}

/// The JSON trees of a change, as a JSON plan holds them.
struct Trees {
    before: model::J,
    after: model::J,
    unknown: model::J,
    before_sensitive: model::J,
    after_sensitive: model::J,
}

impl Trees {
    fn new(
        before: &Value,
        after: &Value,
        ty: &Type,
        before_sensitive: &[Path],
        after_sensitive: &[Path],
    ) -> Trees {
        Trees {
            before: model::to_json(before),
            after: model::to_json(after),
            unknown: model::unknown_tree(after),
            before_sensitive: model::sensitive_tree(before, ty, before_sensitive),
            after_sensitive: model::sensitive_tree(after, ty, after_sensitive),
        }
    }

    fn change<'a>(&'a self, requires_replace: &'a [Path]) -> Change<'a> {
        Change {
            before: &self.before,
            after: &self.after,
            before_explicit: false,
            after_explicit: false,
            unknown: Tree::J(&self.unknown),
            before_sensitive: Tree::J(&self.before_sensitive),
            after_sensitive: Tree::J(&self.after_sensitive),
            replace: Matcher::new(requires_replace),
            non_legacy: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::plan::tests::{cases, paths, value};

    /// Terraform's plan renderer tests (`vectors/plan/terraform-render.json`).
    #[test]
    fn terraform_render() {
        let mut failures = Vec::new();
        let cases = cases("terraform-render.json");
        for (c, block, ty) in &cases {
            let before = value(&c["before"], ty);
            let after = value(&c["after"], ty);
            let options = DiffOptions {
                before_sensitive: paths(c.get("before_sensitive")),
                after_sensitive: paths(c.get("after_sensitive")),
                requires_replace: paths(c.get("requires_replace")),
                ..DiffOptions::default()
            };
            let address = if c.get("mode").and_then(|m| m.as_str()) == Some("data") {
                "data.test_instance.example"
            } else {
                "test_instance.example"
            };
            let change = ResourceHeading {
                address,
                action: ChangeAction::from_name(c["action"].as_str().unwrap()).unwrap(),
                action_reason: c.get("action_reason").and_then(|r| r.as_str()),
                deposed: c.get("deposed").and_then(|r| r.as_str()),
                ..ResourceHeading::new(address, ChangeAction::NoOp)
            };
            let got = render_resource_change(&change, &before, &after, block, &options);
            let want = c["output"].as_str().unwrap();
            if got != want {
                failures.push(format!(
                    "{}:\n--- want\n{want}\n--- got\n{got}\n",
                    c["name"]
                ));
            }
        }
        assert!(!cases.is_empty());
        assert!(
            failures.is_empty(),
            "{} of {} render cases failed:\n{}",
            failures.len(),
            cases.len(),
            failures.join("\n")
        );
    }
}

#[cfg(test)]
mod own_tests {
    use super::*;
    use crate::schema::{Attribute, BlockNesting, NestedBlock};
    use crate::Refinements;

    fn block() -> Block {
        Block::new()
            .attribute("id", Attribute::new(Type::String).computed())
            .attribute("size", Attribute::new(Type::Number).optional())
            .block_type(
                "disk",
                NestedBlock::new(
                    BlockNesting::List,
                    Block::new().attribute("size", Attribute::new(Type::Number).optional()),
                ),
            )
    }

    /// Unknowns read `(known after apply)` as Terraform 1.15 prints them; with
    /// `show_refinements`, they show what their refinements say, which Terraform's JSON
    /// plans cannot carry.
    #[test]
    fn refinements_are_shown_when_asked() {
        let after = Value::object([
            (
                "id",
                Value::Unknown(Refinements::new().not_null().with_string_prefix("i-")),
            ),
            ("size", Value::from(1)),
            ("disk", Value::list([])),
        ]);
        let change = ResourceHeading::new("x_thing.a", ChangeAction::Create);
        let out = render_resource_change(
            &change,
            &Value::Null,
            &after,
            &block(),
            &DiffOptions::default(),
        );
        assert_eq!(
            out,
            "  # x_thing.a will be created\n  + resource \"x_thing\" \"a\" {\n      + id   = (known after apply)\n      + size = 1\n    }"
        );
        let out = render_resource_change(
            &change,
            &Value::Null,
            &after,
            &block(),
            &DiffOptions::new().show_refinements(true),
        );
        assert_eq!(
            out,
            "  # x_thing.a will be created\n  + resource \"x_thing\" \"a\" {\n      + id   = (known after apply, not null, prefix \"i-\")\n      + size = 1\n    }"
        );
    }

    #[test]
    fn colour_only_when_asked() {
        let before = Value::object([
            ("id", Value::from("i-1")),
            ("size", Value::from(1)),
            ("disk", Value::list([])),
        ]);
        let after = Value::object([
            ("id", Value::from("i-1")),
            ("size", Value::from(2)),
            ("disk", Value::list([])),
        ]);
        let plain = render_block_diff(&before, &after, &block(), &DiffOptions::default());
        assert!(!plain.contains('\x1b'));
        let options = DiffOptions {
            color: true,
            ..DiffOptions::default()
        };
        let coloured = render_block_diff(&before, &after, &block(), &options);
        assert!(
            coloured.contains("\x1b[33m~\x1b[0m size = 1 \x1b[33m->\x1b[0m 2"),
            "{coloured}"
        );
    }

    #[test]
    fn headers_and_actions() {
        let change = ResourceHeading::new(
            "module.app.data.aws_ami.ubuntu[\"a.b\"]",
            ChangeAction::Read,
        );
        assert_eq!(change.header(), "data \"aws_ami\" \"ubuntu\"");
        let change = ResourceHeading::new("aws_instance.web[0]", ChangeAction::Update);
        assert_eq!(change.header(), "resource \"aws_instance\" \"web\"");
        let a = Value::object([("n", Value::from(1))]);
        let b = Value::object([("n", Value::from(2))]);
        assert_eq!(
            ChangeAction::between(&Value::Null, &a, false),
            ChangeAction::Create
        );
        assert_eq!(
            ChangeAction::between(&a, &Value::Null, false),
            ChangeAction::Delete
        );
        assert_eq!(ChangeAction::between(&a, &a, true), ChangeAction::NoOp);
        assert_eq!(ChangeAction::between(&a, &b, false), ChangeAction::Update);
        assert_eq!(
            ChangeAction::between(&a, &b, true),
            ChangeAction::DeleteThenCreate
        );
        for action in [ChangeAction::Forget, ChangeAction::CreateThenDelete] {
            assert_eq!(ChangeAction::from_name(action.name()), Some(action));
        }
    }

    /// Hostile values: nothing panics, whatever the shape.
    #[test]
    fn values_that_do_not_fit_the_schema() {
        let weird = Value::object([
            ("id", Value::list([Value::from(1)])),
            ("disk", Value::from("x")),
        ]);
        let _ = render_block_diff(&weird, &Value::Null, &block(), &DiffOptions::default());
        let _ = render_block_diff(&Value::from(3), &weird, &block(), &DiffOptions::default());
        let _ = render_value_diff(
            &weird,
            &Value::unknown(),
            &Type::Dynamic,
            &DiffOptions::default(),
        );
    }
}

//! The top level of a configuration: its block types, as Terraform's `configs` package
//! reads them, and what each resource, data source and provider block leaves for its
//! schema once Terraform has taken its meta-arguments.

use std::collections::BTreeMap;

use super::body::{Attribute, Body, BodySchema};
use super::diagnostic::{range_marker, Diag, FileId, Span};
use super::document::{Node, NodeKind};
use super::eval::Globals;
use super::syntax::{self, is_identifier};
use super::typed::Val;
use super::types::{literal_json, type_constraint};
use crate::text::go_quote;
use crate::types::Type;

/// The kinds of resource blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Managed,
    Data,
    Ephemeral,
}

/// A `resource`, `data` or `ephemeral` block.
pub(crate) struct Resource<'d> {
    pub(crate) mode: Mode,
    pub(crate) type_name: String,
    pub(crate) name: String,
    pub(crate) def: Span,
    /// Where its body starts.
    pub(crate) at: Span,
    /// The body without the meta-arguments (and with a `_` block's content merged).
    pub(crate) config: Body<'d>,
    pub(crate) count: Option<Attribute<'d>>,
    pub(crate) for_each: Option<Attribute<'d>>,
}

/// A `provider` block.
pub(crate) struct Provider<'d> {
    pub(crate) name: String,
    pub(crate) alias: Option<String>,
    pub(crate) def: Span,
    /// Where its body starts.
    pub(crate) at: Span,
    pub(crate) config: Body<'d>,
}

/// Something declared at the top level, for listings.
pub(crate) struct Declared {
    pub(crate) kind: &'static str,
    pub(crate) address: String,
    pub(crate) at: Span,
}

/// A configuration's top level.
pub(crate) struct Module<'d> {
    pub(crate) declared: Vec<Declared>,
    pub(crate) resources: Vec<Resource<'d>>,
    pub(crate) providers: Vec<Provider<'d>>,
    pub(crate) globals: Globals<'d>,
}

/// The block types of a configuration file (Terraform's `configFileSchema`).
fn file_schema() -> BodySchema<'static> {
    BodySchema::new()
        .block("terraform", &[])
        .block("required_providers", &[])
        .block("provider", &["name"])
        .block("variable", &["name"])
        .block("locals", &[])
        .block("output", &["name"])
        .block("module", &["name"])
        .block("resource", &["type", "name"])
        .block("data", &["type", "name"])
        .block("ephemeral", &["type", "name"])
        .block("action", &["type", "name"])
        .block("moved", &[])
        .block("removed", &[])
        .block("import", &[])
        .block("check", &["name"])
}

fn terraform_schema() -> BodySchema<'static> {
    BodySchema::new()
        .attribute("required_version", false)
        .attribute("experiments", false)
        .attribute("language", false)
        .block("backend", &["type"])
        .block("cloud", &[])
        .block("required_providers", &[])
        .block("state_store", &["type"])
        .block("provider_meta", &["provider"])
}

/// The meta-arguments of a block: what Terraform takes before the schema sees the rest.
fn meta_schema(mode: Mode) -> BodySchema<'static> {
    let schema = BodySchema::new()
        .attribute("count", false)
        .attribute("for_each", false)
        .attribute("provider", false)
        .attribute("depends_on", false)
        .block("locals", &[])
        .block("lifecycle", &[])
        .block("_", &[]);
    match mode {
        Mode::Managed => schema
            .block("connection", &[])
            .block("provisioner", &["type"]),
        Mode::Data | Mode::Ephemeral => schema,
    }
}

fn lifecycle_schema() -> BodySchema<'static> {
    BodySchema::new()
        .attribute("create_before_destroy", false)
        .attribute("prevent_destroy", false)
        .attribute("ignore_changes", false)
        .attribute("replace_triggered_by", false)
        .attribute("destroy", false)
        .block("precondition", &[])
        .block("postcondition", &[])
        .block("action_trigger", &[])
}

fn provider_schema() -> BodySchema<'static> {
    BodySchema::new()
        .attribute("alias", false)
        .attribute("version", false)
        .attribute("count", false)
        .attribute("depends_on", false)
        .attribute("for_each", false)
        .attribute("source", false)
        .block("_", &[])
        .block("lifecycle", &[])
        .block("locals", &[])
}

fn variable_schema() -> BodySchema<'static> {
    BodySchema::new()
        .attribute("description", false)
        .attribute("default", false)
        .attribute("type", false)
        .attribute("sensitive", false)
        .attribute("ephemeral", false)
        .attribute("nullable", false)
        .attribute("deprecated", false)
        .attribute("const", false)
        .block("validation", &[])
}

const BAD_IDENTIFIER: &str = "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.";

/// Reads the top level of every file: `roots` holds each file's id and document.
pub(crate) fn load<'d>(roots: &'d [(FileId, Node)], diags: &mut Vec<Diag>) -> Module<'d> {
    let mut module = Module {
        declared: Vec::new(),
        resources: Vec::new(),
        providers: Vec::new(),
        globals: Globals::new(BTreeMap::new(), BTreeMap::new()),
    };
    let mut variables: BTreeMap<String, (Val, Span)> = BTreeMap::new();
    let mut locals: BTreeMap<String, (FileId, &'d Node, Span)> = BTreeMap::new();
    for (file, root) in roots {
        let content = Body::new(*file, root).content(&file_schema(), diags);
        for block in content.blocks {
            let label = |i: usize| block.labels.get(i).map_or("", |(l, _)| l.as_str());
            match block.type_name.as_str() {
                "terraform" => {
                    block.body.content(&terraform_schema(), diags);
                    module.declared.push(declared(
                        "terraform",
                        "terraform".into(),
                        body_at(&block),
                    ));
                }
                "required_providers" => diags.push(Diag::new(
                    "Invalid required_providers block",
                    "A \"required_providers\" block must be nested inside a \"terraform\" block.",
                    block.type_span,
                )),
                "provider" => {
                    if let Some(provider) = provider(&block, diags) {
                        let address = match &provider.alias {
                            Some(alias) => format!("provider.{}.{alias}", provider.name),
                            None => format!("provider.{}", provider.name),
                        };
                        if let Some(existing) = module
                            .providers
                            .iter()
                            .find(|p| p.name == provider.name && p.alias == provider.alias)
                        {
                            let detail = match &provider.alias {
                                None => format!("A default (non-aliased) provider configuration for {} was already given at {}. If multiple configurations are required, set the \"alias\" argument for alternative configurations.", go_quote(&provider.name), range_marker(existing.def)),
                                Some(alias) => format!("A provider configuration for {} with alias {} was already given at {}. Each configuration for the same provider must have a distinct alias.", go_quote(&provider.name), go_quote(alias), range_marker(existing.def)),
                            };
                            diags.push(Diag::new(
                                "Duplicate provider configuration",
                                detail,
                                provider.def,
                            ));
                            continue;
                        }
                        module
                            .declared
                            .push(declared("provider", address, provider.at));
                        module.providers.push(provider);
                    }
                }
                "variable" => {
                    let name = label(0).to_owned();
                    let value = variable(&block, diags);
                    if let Some((_, existing)) = variables.get(&name) {
                        diags.push(Diag::new(
                            "Duplicate variable declaration",
                            format!("A variable named {} was already declared at {}. Variable names must be unique within a module.", go_quote(&name), range_marker(*existing)),
                            block.def,
                        ));
                        continue;
                    }
                    module.declared.push(declared(
                        "variable",
                        format!("var.{name}"),
                        body_at(&block),
                    ));
                    variables.insert(name, (value, block.def));
                }
                "locals" => {
                    for attr in block.body.just_attributes(diags) {
                        if !is_identifier(attr.name) {
                            diags.push(Diag::new(
                                "Invalid local value name",
                                BAD_IDENTIFIER,
                                attr.name_span(),
                            ));
                        }
                        let span = Span::new(attr.file, attr.name_at, attr.value.end);
                        if let Some((_, _, existing)) = locals.get(attr.name) {
                            diags.push(Diag::new(
                                "Duplicate local value definition",
                                format!("A local value named {} was already defined at {}. Local value names must be unique within a module.", go_quote(attr.name), range_marker(*existing)),
                                span,
                            ));
                            continue;
                        }
                        module.declared.push(declared(
                            "local",
                            format!("local.{}", attr.name),
                            attr.name_span(),
                        ));
                        locals.insert(attr.name.to_owned(), (attr.file, attr.value, span));
                    }
                }
                kind @ ("resource" | "data" | "ephemeral") => {
                    let mode = match kind {
                        "resource" => Mode::Managed,
                        "data" => Mode::Data,
                        _ => Mode::Ephemeral,
                    };
                    let resource = resource(mode, &block, diags);
                    if let Some(existing) = module.resources.iter().find(|r| {
                        r.mode == mode
                            && r.type_name == resource.type_name
                            && r.name == resource.name
                    }) {
                        let (summary, what) = match mode {
                            Mode::Managed => (
                                format!(
                                    "Duplicate resource {} configuration",
                                    go_quote(&existing.type_name)
                                ),
                                "resource",
                            ),
                            Mode::Data => (
                                format!(
                                    "Duplicate data {} configuration",
                                    go_quote(&existing.type_name)
                                ),
                                "data resource",
                            ),
                            Mode::Ephemeral => (
                                format!(
                                    "Duplicate ephemeral {} configuration",
                                    go_quote(&existing.type_name)
                                ),
                                "ephemeral resource",
                            ),
                        };
                        diags.push(Diag::new(
                            summary,
                            format!("A {} {what} named {} was already declared at {}. Resource names must be unique per type in each module.", existing.type_name, go_quote(&existing.name), range_marker(existing.def)),
                            resource.def,
                        ));
                        continue;
                    }
                    let address = match mode {
                        Mode::Managed => format!("{}.{}", resource.type_name, resource.name),
                        Mode::Data => format!("data.{}.{}", resource.type_name, resource.name),
                        Mode::Ephemeral => {
                            format!("ephemeral.{}.{}", resource.type_name, resource.name)
                        }
                    };
                    module
                        .declared
                        .push(declared(kind_name(mode), address, resource.at));
                    module.resources.push(resource);
                }
                kind => {
                    let address = match block.labels.as_slice() {
                        [] => kind.to_owned(),
                        labels => format!(
                            "{kind}.{}",
                            labels
                                .iter()
                                .map(|(l, _)| l.as_str())
                                .collect::<Vec<_>>()
                                .join(".")
                        ),
                    };
                    let kind = match kind {
                        "output" => "output",
                        "module" => "module",
                        "action" => "action",
                        "moved" => "moved",
                        "removed" => "removed",
                        "import" => "import",
                        _ => "check",
                    };
                    module
                        .declared
                        .push(declared(kind, address, body_at(&block)));
                }
            }
        }
    }
    module.globals = Globals::new(
        variables.into_iter().map(|(n, (v, _))| (n, v)).collect(),
        locals
            .into_iter()
            .map(|(n, (f, node, _))| (n, (f, node)))
            .collect(),
    );
    module
}

/// Where a block's body starts (its object), for listings; HCL's definition range of
/// a block in an array is the array's bracket.
fn body_at(block: &super::body::Block<'_>) -> Span {
    block.body.start_span().unwrap_or(block.def)
}

fn declared(kind: &'static str, address: String, at: Span) -> Declared {
    Declared { kind, address, at }
}

fn kind_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Managed => "resource",
        Mode::Data => "data",
        Mode::Ephemeral => "ephemeral",
    }
}

/// A literal string attribute (read as Terraform reads `alias`: no template).
fn literal_string(attr: &Attribute<'_>, diags: &mut Vec<Diag>) -> Option<String> {
    match &attr.value.kind {
        NodeKind::String(s) => Some(s.to_string()),
        other => {
            let found = match other {
                NodeKind::Null => "null",
                NodeKind::Bool(_) => "bool",
                NodeKind::Number(_) => "number",
                NodeKind::Array(_) => "tuple",
                _ => "object",
            };
            diags.push(Diag::new(
                "Unsuitable value type",
                format!("Unsuitable value: string required, but have {found}"),
                attr.value_span(),
            ));
            None
        }
    }
}

fn provider<'d>(block: &super::body::Block<'d>, diags: &mut Vec<Diag>) -> Option<Provider<'d>> {
    let schema = provider_schema();
    let content = block.body.partial_content(&schema, diags);
    let mut config = block.body.remain(&schema);
    let name = block
        .labels
        .first()
        .map_or(String::new(), |(l, _)| l.clone());
    if !is_identifier(&name) || name.chars().any(|c| c.is_uppercase()) {
        diags.push(Diag::new(
            "Invalid provider local name",
            format!("{} is an invalid provider local name: must contain only lowercase letters, digits, and dashes, and may not use leading or trailing dashes.", go_quote(&name)),
            block.labels.first().map_or(block.def, |(_, s)| *s),
        ));
        return None;
    }
    let mut alias = None;
    if let Some(attr) = content.attribute("alias") {
        alias = literal_string(attr, diags);
        if alias.as_deref().is_some_and(|a| !is_identifier(a)) {
            diags.push(Diag::new(
                "Invalid provider configuration alias",
                format!("An alias must be a valid name. {BAD_IDENTIFIER}"),
                attr.value_span(),
            ));
        }
    }
    for reserved in ["count", "depends_on", "for_each", "source"] {
        if let Some(attr) = content.attribute(reserved) {
            diags.push(Diag::new(
                "Reserved argument name in provider block",
                format!("The provider argument name {} is reserved for use by Terraform in a future version.", go_quote(reserved)),
                attr.name_span(),
            ));
        }
    }
    let mut escape: Option<Span> = None;
    for inner in &content.blocks {
        if inner.type_name == "_" {
            if let Some(first) = escape {
                diags.push(Diag::new(
                    "Duplicate escaping block",
                    format!("The special block type \"_\" can be used to force particular arguments to be interpreted as provider-specific rather than as meta-arguments, but each provider block can have only one such block. The first escaping block was at {}.", range_marker(first)),
                    inner.def,
                ));
                continue;
            }
            escape = Some(inner.def);
            config = config.merge(inner.body.clone());
        } else {
            diags.push(Diag::new(
                "Reserved block type name in provider block",
                format!(
                    "The block type name {} is reserved for use by Terraform in a future version.",
                    go_quote(&inner.type_name)
                ),
                inner.type_span,
            ));
        }
    }
    Some(Provider {
        name,
        alias,
        def: block.def,
        at: body_at(block),
        config,
    })
}

fn resource<'d>(mode: Mode, block: &super::body::Block<'d>, diags: &mut Vec<Diag>) -> Resource<'d> {
    let schema = meta_schema(mode);
    let content = block.body.partial_content(&schema, diags);
    let mut config = block.body.remain(&schema);
    let label = |i: usize| {
        block
            .labels
            .get(i)
            .cloned()
            .unwrap_or_else(|| (String::new(), block.def))
    };
    let ((type_name, type_span), (name, name_span)) = (label(0), label(1));
    let (type_summary, name_summary, what) = match mode {
        Mode::Managed => (
            "Invalid resource type name",
            "Invalid resource name",
            "resource",
        ),
        Mode::Data => (
            "Invalid data source name",
            "Invalid data resource name",
            "data",
        ),
        Mode::Ephemeral => (
            "Invalid ephemeral resource type name",
            "Invalid ephemeral resource name",
            "ephemeral",
        ),
    };
    if !is_identifier(&type_name) {
        diags.push(Diag::new(type_summary, BAD_IDENTIFIER, type_span));
    }
    if !is_identifier(&name) {
        diags.push(Diag::new(name_summary, BAD_IDENTIFIER, name_span));
    }
    let count = content.attribute("count").copied();
    let for_each = content.attribute("for_each").copied();
    if let (Some(_), Some(f)) = (&count, &for_each) {
        diags.push(Diag::new(
            "Invalid combination of \"count\" and \"for_each\"",
            "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.",
            f.name_span(),
        ));
    }
    let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
    for inner in &content.blocks {
        let kind = inner.type_name.as_str();
        match kind {
            "lifecycle" | "connection" | "_" => {
                if let Some(first) = seen.get(kind) {
                    let (summary, detail) = match kind {
                        "lifecycle" => ("Duplicate lifecycle block".to_owned(), format!("This resource already has a lifecycle block at {}.", range_marker(*first))),
                        "connection" => ("Duplicate connection block".to_owned(), format!("This resource already has a connection block at {}.", range_marker(*first))),
                        _ => ("Duplicate escaping block".to_owned(), format!("The special block type \"_\" can be used to force particular arguments to be interpreted as resource-type-specific rather than as meta-arguments, but each {what} block can have only one such block. The first escaping block was at {}.", range_marker(*first))),
                    };
                    diags.push(Diag::new(summary, detail, inner.def));
                    continue;
                }
                seen.insert(kind, inner.def);
                match kind {
                    "lifecycle" => {
                        let lifecycle = inner.body.content(&lifecycle_schema(), diags);
                        if mode != Mode::Managed {
                            for attr in &lifecycle.attributes {
                                diags.push(Diag::new(
                                    "Invalid data resource lifecycle argument",
                                    format!("The lifecycle argument {} is defined only for managed resources (\"resource\" blocks), and is not valid for data resources.", go_quote(attr.name)),
                                    attr.name_span(),
                                ));
                            }
                        }
                    }
                    "_" => config = config.merge(inner.body.clone()),
                    _ => {}
                }
            }
            "provisioner" => {}
            _ => diags.push(Diag::new(
                if mode == Mode::Managed {
                    "Reserved block type name in resource block"
                } else {
                    "Reserved block type name in data block"
                },
                format!(
                    "The block type name {} is reserved for use by Terraform in a future version.",
                    go_quote(kind)
                ),
                inner.type_span,
            )),
        }
    }
    Resource {
        mode,
        type_name,
        name,
        def: block.def,
        at: body_at(block),
        config,
        count,
        for_each,
    }
}

/// A variable's value as a configuration alone gives it: the default (optional
/// attribute defaults applied, converted to the type constraint), or an unknown of
/// the variable's type when there is no default.
fn variable(block: &super::body::Block<'_>, diags: &mut Vec<Diag>) -> Val {
    let content = block.body.content(&variable_schema(), diags);
    if let Some((name, span)) = block.labels.first() {
        if !is_identifier(name) {
            diags.push(Diag::new("Invalid variable name", BAD_IDENTIFIER, *span));
        }
    }
    let mut constraint = Type::Dynamic;
    let mut defaults = None;
    if let Some(attr) = content.attribute("type") {
        let parsed = match &attr.value.kind {
            NodeKind::String(text) => syntax::parse_expression(text)
                .map_err(|e| e.detail)
                .and_then(|expr| type_constraint(&expr)),
            _ => Err("A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).".to_owned()),
        };
        match parsed {
            Ok((ty, d)) => {
                constraint = ty;
                defaults = d;
            }
            Err(detail) => diags.push(Diag::new(
                "Invalid type specification",
                detail,
                attr.value_span(),
            )),
        }
    }
    let ty = constraint.without_optional_attributes();
    let nullable = match content.attribute("nullable").map(|a| &a.value.kind) {
        Some(NodeKind::Bool(b)) => *b,
        _ => true,
    };
    let Some(attr) = content.attribute("default") else {
        return Val::unknown(ty);
    };
    let value = match literal_json(attr.value) {
        Ok(v) => v,
        Err(detail) => {
            diags.push(Diag::new(
                "Invalid default value for variable",
                detail,
                attr.value_span(),
            ));
            return Val::unknown(ty);
        }
    };
    let value = match &defaults {
        Some(d) if !value.value.is_null() => d.apply(value),
        _ => value,
    };
    let value = match value.convert(&constraint) {
        Ok(v) => Val::new(ty, v),
        Err(e) => {
            diags.push(Diag::new(
                "Invalid default value for variable",
                format!("This default value is not compatible with the variable's type constraint: {e}."),
                attr.value_span(),
            ));
            return Val::unknown(ty);
        }
    };
    if !nullable && value.value.is_null() {
        diags.push(Diag::new(
            "Invalid default value for variable",
            "A null default value is not valid when nullable=false.",
            attr.value_span(),
        ));
    }
    value
}

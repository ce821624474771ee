//! `ctywire document` (also `plan`, `state`): the plans and states `terraform show
//! -json` prints, listed like `terraform show`'s summary, or one resource's value shown.

use std::path::PathBuf;

use clap::Args;
use ctywire::render;
use ctywire::schema::{Fallback, ProviderSchemas, Schema, SchemaMatch};
use ctywire::tfjson::{Action, Change, Document, Plan, Resource, ResourceChange, State};
use ctywire::{Path, Type, Value};

use crate::{input, parse_type, write_stdout, Failure, Rendering};

/// The arguments of `document`.
#[derive(Args)]
pub struct DocumentArgs {
    /// The document: what `terraform show -json` (or `tofu show -json`) prints for a
    /// plan file or a state, or an HCP Terraform redacted plan; UTF-8 or UTF-16.
    /// Standard input when absent or `-`.
    file: Option<PathBuf>,
    /// Show the value of the resource instance at this address, e.g.
    /// `module.app.aws_instance.web["a"]`; without it, list the document's resources.
    #[arg(long)]
    address: Option<String>,
    /// With --address: the deposed object with this key instead of the current one.
    #[arg(long, value_name = "KEY", requires = "address")]
    deposed: Option<String>,
    /// A provider schema file (`terraform providers schema -json`) defining the
    /// resource's type. Without it (or --type), a redacted plan's embedded schemas type
    /// its values, and other values are typed by their JSON.
    #[arg(long, value_name = "FILE", conflicts_with = "ty")]
    schema: Option<PathBuf>,
    /// The resource's type, instead of --schema.
    #[arg(long = "type", value_name = "TYPE", value_parser = parse_type)]
    ty: Option<Type>,
    /// With --address in a plan: show the value before the change instead of the
    /// planned value.
    #[arg(long, requires = "address")]
    before: bool,
    #[command(flatten)]
    rendering: Rendering,
}

/// Runs `document`.
pub fn run(args: &DocumentArgs) -> Result<(), Failure> {
    let files: Vec<PathBuf> = args.file.iter().cloned().collect();
    let source = input::read_sources(&files)?.remove(0);
    let name = source.name;
    let document = Document::from_json(&source.bytes).map_err(|e| Failure::value_in(&name, e))?;
    let out = match (&document, &args.address) {
        (Document::Plan(plan), None) => plan_summary(plan),
        (Document::State(state), None) => state_list(state),
        (Document::Plan(plan), Some(address)) => {
            let change = find_change(plan, address, args.deposed.as_deref())
                .map_err(|m| Failure::input(format!("{name}: {m}")))?;
            let schemas = schemas(args, plan.provider_schemas.as_ref())?;
            let typing = typing(args, &name, schemas.as_ref(), |s| change.find_schema(s))?;
            show_change(change, &typing, args, &name)?
        }
        (Document::State(state), Some(address)) => {
            if args.before {
                return Err(Failure::usage("--before needs a plan; this is a state"));
            }
            let resource = find_resource(state, address, args.deposed.as_deref())
                .map_err(|m| Failure::input(format!("{name}: {m}")))?;
            let schemas = schemas(args, None)?;
            let typing = typing(args, &name, schemas.as_ref(), |s| resource.find_schema(s))?;
            show_resource(resource, &typing, &args.rendering, &name)?
        }
    };
    write_stdout(out.as_bytes())
}

/// The schemas that type the document's values: --schema's, or those a redacted plan
/// embeds.
fn schemas(
    args: &DocumentArgs,
    embedded: Option<&ProviderSchemas>,
) -> Result<Option<ProviderSchemas>, Failure> {
    let Some(path) = &args.schema else {
        return Ok(embedded.cloned());
    };
    let in_file = |e: &dyn std::fmt::Display| Failure::input(format!("{}: {e}", path.display()));
    let text = std::fs::read(path).map_err(|e| in_file(&e))?;
    ProviderSchemas::from_json(&text)
        .map(Some)
        .map_err(|e| in_file(&e))
}

/// Where a value's type came from.
struct Typing {
    ty: Type,
    schema: Option<Schema>,
}

/// The type of the resource's values: its schema's implied type (saying so when the
/// document's provider name only led to it by a fallback), --type, or the type the
/// JSON implies (with a note).
fn typing(
    args: &DocumentArgs,
    name: &str,
    schemas: Option<&ProviderSchemas>,
    find: impl FnOnce(&ProviderSchemas) -> ctywire::Result<SchemaMatch<'_>>,
) -> Result<Typing, Failure> {
    if let Some(ty) = &args.ty {
        return Ok(Typing {
            ty: ty.clone(),
            schema: None,
        });
    }
    let Some(schemas) = schemas else {
        eprintln!("note: {name}: no schema given; values typed by their JSON (give --schema for the resource's type)");
        return Ok(Typing {
            ty: Type::Dynamic,
            schema: None,
        });
    };
    let schema_file = match &args.schema {
        Some(path) => path.display().to_string(),
        None => format!("{name} (its embedded provider_schemas)"),
    };
    let found = find(schemas).map_err(|e| Failure::input(format!("{schema_file}: {e}")))?;
    if let Some(fallback) = &found.fallback {
        note_fallback(name, found.provider, fallback);
    }
    Ok(Typing {
        ty: found.schema.implied_type(),
        schema: Some(found.schema.clone()),
    })
}

fn note_fallback(name: &str, provider: &str, fallback: &Fallback) {
    eprintln!("note: {name}: the document's provider is not in the schemas under its own name; took {provider} ({fallback})");
}

/// The change to the resource instance object at `address`: the current object's, or
/// the deposed object's with key `deposed`.
fn find_change<'p>(
    plan: &'p Plan,
    address: &str,
    deposed: Option<&str>,
) -> Result<&'p ResourceChange, String> {
    let found = plan
        .resource_changes
        .iter()
        .find(|c| c.address == address && c.deposed.as_deref() == deposed);
    found.ok_or_else(|| {
        let at: Vec<&ResourceChange> = plan.resource_changes_at(address).collect();
        match deposed {
            Some(key) if !at.is_empty() => format!(
                "no change to a deposed object {key} of {address}; its objects: {}",
                objects(at.iter().map(|c| c.deposed.as_deref()))
            ),
            _ if !at.is_empty() => format!(
                "no change to the current object of {address}, only to deposed objects: {}; give --deposed KEY",
                objects(at.iter().map(|c| c.deposed.as_deref()))
            ),
            _ => {
                let mut known: Vec<&str> =
                    plan.resource_changes.iter().map(|c| c.address.as_str()).collect();
                known.dedup();
                format!(
                    "no resource change at {address}; the plan has: {}",
                    listing(&known)
                )
            }
        }
    })
}

/// The resource instance object at `address` in a state: the current one, or the
/// deposed one with key `deposed`.
fn find_resource<'s>(
    state: &'s State,
    address: &str,
    deposed: Option<&str>,
) -> Result<&'s Resource, String> {
    let resources: Vec<&Resource> = state.values.iter().flat_map(|v| v.resources()).collect();
    let found = resources
        .iter()
        .find(|r| r.address == address && r.deposed_key.as_deref() == deposed);
    found.copied().ok_or_else(|| {
        let at: Vec<&&Resource> = resources.iter().filter(|r| r.address == address).collect();
        match deposed {
            _ if !at.is_empty() => format!(
                "no {} object of {address}; its objects: {}",
                deposed.map_or("current".to_owned(), |k| format!("deposed {k}")),
                objects(at.iter().map(|r| r.deposed_key.as_deref()))
            ),
            _ => {
                let mut known: Vec<&str> = resources.iter().map(|r| r.address.as_str()).collect();
                known.dedup();
                format!(
                    "no resource at {address}; the state has: {}",
                    listing(&known)
                )
            }
        }
    })
}

/// "current, deposed 1a2b3c4d" for a resource instance's objects.
fn objects<'k>(keys: impl Iterator<Item = Option<&'k str>>) -> String {
    let names: Vec<String> = keys
        .map(|k| k.map_or("current".to_owned(), |k| format!("deposed {k}")))
        .collect();
    names.join(", ")
}

fn listing(addresses: &[&str]) -> String {
    if addresses.is_empty() {
        "nothing".to_owned()
    } else {
        addresses.join(", ")
    }
}

/// A heading's description of an object: ` (deposed object KEY)`.
fn deposed_suffix(key: Option<&str>) -> String {
    key.map(|k| format!(" (deposed object {k})"))
        .unwrap_or_default()
}

fn show_change(
    rc: &ResourceChange,
    typing: &Typing,
    args: &DocumentArgs,
    name: &str,
) -> Result<String, Failure> {
    let c: &Change = &rc.change;
    let ty = &typing.ty;
    let (value, sensitive) = if args.before {
        (c.typed_before(ty), c.before_sensitive_paths(ty))
    } else {
        (c.typed_after(ty), c.after_sensitive_paths(ty))
    };
    let value = value.map_err(|e| Failure::value_in(&format!("{name}: {}", rc.address), e))?;
    let actions: Vec<&str> = c.actions.iter().map(Action::as_str).collect();
    let which = if args.before { "before" } else { "planned" };
    let heading = format!(
        "# {}{} ({}), {which} value",
        rc.address,
        deposed_suffix(rc.deposed.as_deref()),
        actions.join(", ")
    );
    Ok(rendered(
        heading,
        &value,
        typing,
        sensitive,
        &args.rendering,
    ))
}

fn show_resource(
    r: &Resource,
    typing: &Typing,
    rendering: &Rendering,
    name: &str,
) -> Result<String, Failure> {
    let value = r
        .typed_values(&typing.ty)
        .map_err(|e| Failure::value_in(&format!("{name}: {}", r.address), e))?;
    let sensitive = r.sensitive_paths(&typing.ty);
    let tainted = if r.tainted { " (tainted)" } else { "" };
    let heading = format!(
        "# {}{}{tainted}",
        r.address,
        deposed_suffix(r.deposed_key.as_deref())
    );
    Ok(rendered(heading, &value, typing, sensitive, rendering))
}

/// A heading and the value rendered below it, sensitive values hidden: those the
/// document marks and those the schema does.
fn rendered(
    heading: String,
    value: &Value,
    typing: &Typing,
    mut sensitive: Vec<Path>,
    rendering: &Rendering,
) -> String {
    if let Some(schema) = &typing.schema {
        sensitive.extend(schema.block.sensitive_paths(value));
    }
    let options = rendering.options().sensitive(sensitive);
    let body = match &typing.schema {
        Some(schema) => render::render_block(value, &schema.block, &options),
        None => render::render(value, &typing.ty, &options),
    };
    format!("{heading}\n{body}\n")
}

/// What a plan will do, as `terraform show PLANFILE` summarises it: one line per
/// change to a resource instance object (no-ops left out), then the counts.
fn plan_summary(plan: &Plan) -> String {
    let mut out = String::new();
    let (mut import, mut add, mut change, mut destroy, mut forget) = (0, 0, 0, 0, 0);
    for rc in &plan.resource_changes {
        let c = &rc.change;
        let has = |a: Action| c.actions.contains(&a);
        let what = if c.is_replace() {
            add += 1;
            destroy += 1;
            "must be replaced"
        } else if has(Action::Create) {
            add += 1;
            "will be created"
        } else if has(Action::Update) {
            change += 1;
            "will be updated in-place"
        } else if has(Action::Delete) {
            destroy += 1;
            "will be destroyed"
        } else if has(Action::Read) {
            "will be read during apply"
        } else if has(Action::Forget) {
            forget += 1;
            "will no longer be managed by Terraform"
        } else if c.importing.is_some() {
            "will be imported"
        } else {
            continue;
        };
        if c.importing.is_some() {
            import += 1;
        }
        out.push_str(&format!(
            "# {}{} {what}\n",
            rc.address,
            deposed_suffix(rc.deposed.as_deref())
        ));
    }
    for d in &plan.deferred_changes {
        out.push_str(&format!(
            "# {} is deferred ({})\n",
            d.resource_change.address, d.reason
        ));
    }
    if out.is_empty() {
        return "No changes.\n".to_owned();
    }
    let mut counts = Vec::new();
    if import > 0 {
        counts.push(format!("{import} to import"));
    }
    counts.push(format!(
        "{add} to add, {change} to change, {destroy} to destroy"
    ));
    if forget > 0 {
        counts.push(format!("{forget} to forget"));
    }
    out.push_str(&format!("\nPlan: {}.\n", counts.join(", ")));
    out
}

/// The resource instance objects of a state, as `terraform state list` lists them,
/// deposed and tainted objects said so.
fn state_list(state: &State) -> String {
    let mut out = String::new();
    for r in state.values.iter().flat_map(|v| v.resources()) {
        let tainted = if r.tainted { " (tainted)" } else { "" };
        out.push_str(&format!(
            "{}{}{tainted}\n",
            r.address,
            deposed_suffix(r.deposed_key.as_deref())
        ));
    }
    if out.is_empty() {
        out.push_str("The state holds no resources.\n");
    }
    out
}

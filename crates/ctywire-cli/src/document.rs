//! `ctywire document` (also `plan`, `state`): the plans and states `terraform show
//! -json` prints, listed like `terraform show`'s summary, or one resource's value shown.

use std::path::PathBuf;

use clap::Args;
use ctywire::render::{self, diff, diff::DiffOptions};
use ctywire::schema::{Fallback, ProviderSchemas, Schema, SchemaMatch};
use ctywire::tfjson::{
    Action, Change, Document, Instance, Plan, Resource, ResourceChange, State, StateFile,
    StateResource,
};
use ctywire::{Path, Type, Value};

use crate::sniff::{self, DocumentKind};
use crate::{get, input, parse_type, write_stdout, Failure, Rendering};

/// The arguments of `document`.
#[derive(Args)]
pub struct DocumentArgs {
    /// The document: what `terraform show -json` (or `tofu show -json`) prints for a
    /// plan file or a state, an HCP Terraform redacted plan, or a state file
    /// (`terraform.tfstate`); UTF-8 or UTF-16.
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
    /// With --address: show only the value at PATH within it (`.tags["Name"]`,
    /// `disk.0.size`), as `ctywire get` does.
    #[arg(
        long,
        value_name = "PATH",
        requires = "address",
        conflicts_with = "diff"
    )]
    get: Option<String>,
    /// Compare the state with the state in OTHER (either form): each resource instance
    /// object changed, added or removed, its change shown as a plan shows it (only the
    /// object at --address when it is given).
    #[arg(long, value_name = "OTHER")]
    diff: Option<PathBuf>,
    #[command(flatten)]
    rendering: Rendering,
}

/// A document read: a plan, or a state of either form.
#[allow(clippy::large_enum_variant)]
enum Loaded {
    Plan(Plan),
    State(States),
}

/// A state: `terraform show -json`'s, or the state file.
enum States {
    Shown(State),
    Filed(StateFile),
}

/// One resource instance object of a state, of either form.
struct StateObject<'s> {
    address: String,
    deposed: Option<&'s str>,
    tainted: bool,
    source: ObjectSource<'s>,
}

enum ObjectSource<'s> {
    Shown(&'s Resource),
    Filed(&'s StateResource, &'s Instance),
}

impl States {
    /// Every resource instance object, in the document's order.
    fn objects(&self) -> Vec<StateObject<'_>> {
        match self {
            States::Shown(state) => state
                .values
                .iter()
                .flat_map(|v| v.resources())
                .map(|r| StateObject {
                    address: r.address.clone(),
                    deposed: r.deposed_key.as_deref(),
                    tainted: r.tainted,
                    source: ObjectSource::Shown(r),
                })
                .collect(),
            States::Filed(file) => file
                .resources
                .iter()
                .flat_map(|r| {
                    r.instances.iter().map(move |i| StateObject {
                        address: r.instance_address(i),
                        deposed: i.deposed.as_deref(),
                        tainted: i.is_tainted(),
                        source: ObjectSource::Filed(r, i),
                    })
                })
                .collect(),
        }
    }
}

/// Reads `bytes` as a plan, a `show -json` state or a state file, told apart by the
/// tool's input sniffing; anything else is refused with what it is.
fn load(bytes: &[u8], name: &str) -> Result<Loaded, Failure> {
    match sniff::document_kind(bytes) {
        DocumentKind::Other(what) => Err(Failure::input(format!("{name}: {what}"))),
        DocumentKind::StateFile => StateFile::from_json(bytes)
            .map(|f| Loaded::State(States::Filed(f)))
            .map_err(|e| Failure::value_in(name, e)),
        DocumentKind::Show => match Document::from_json(bytes) {
            Ok(Document::Plan(plan)) => Ok(Loaded::Plan(plan)),
            Ok(Document::State(state)) => Ok(Loaded::State(States::Shown(state))),
            Err(e) => Err(Failure::value_in(name, e)),
        },
    }
}

/// Runs `document`.
pub fn run(args: &DocumentArgs) -> Result<(), Failure> {
    let files: Vec<PathBuf> = args.file.iter().cloned().collect();
    let source = input::read_sources(&files)?.remove(0);
    let name = source.name;
    let loaded = load(&source.bytes, &name)?;
    drop(source.bytes);
    let out = match (&loaded, &args.address) {
        (Loaded::Plan(_), _) if args.diff.is_some() => {
            return Err(Failure::usage(
                "--diff compares two states; this is a plan (its changes are what it lists)",
            ))
        }
        (Loaded::State(states), _) if args.diff.is_some() => diff_states(states, &name, args)?,
        (Loaded::Plan(plan), None) => plan_summary(plan),
        (Loaded::State(states), None) => state_list(&states.objects()),
        (Loaded::Plan(plan), Some(address)) => {
            let change = find_change(plan, address, args.deposed.as_deref())
                .map_err(|m| Failure::input(format!("{name}: {m}")))?;
            let schemas = schemas(args, plan.provider_schemas.as_ref())?;
            let typing = typing(args, &name, schemas.as_ref(), |s| change.find_schema(s))?;
            show_change(change, typing, args, &name)?.output(args, &name)?
        }
        (Loaded::State(states), Some(address)) => {
            if args.before {
                return Err(Failure::usage("--before needs a plan; this is a state"));
            }
            let objects = states.objects();
            let object = find_object(&objects, address, args.deposed.as_deref())
                .map_err(|m| Failure::input(format!("{name}: {m}")))?;
            let schemas = schemas(args, None)?;
            show_object(object, args, schemas.as_ref(), &name)?.output(args, &name)?
        }
    };
    write_stdout(out.as_bytes())
}

/// A value to show: its heading, the value, how it is typed, and its sensitive paths
/// (the document's; the schema's are added when it is rendered).
struct Shown {
    heading: String,
    value: Value,
    typing: Typing,
    sensitive: Vec<Path>,
}

impl Shown {
    /// The value rendered under its heading, or with --get the value at that path.
    fn output(self, args: &DocumentArgs, name: &str) -> Result<String, Failure> {
        let Some(path) = &args.get else {
            return Ok(rendered(
                self.heading,
                &self.value,
                &self.typing,
                self.sensitive,
                &args.rendering,
            ));
        };
        let path = Path::parse(path)
            .map_err(|e| Failure::usage(format!("invalid path {path:?}: {e}")))?
            .resolve(&self.typing.ty);
        let mut sensitive = self.sensitive;
        if let Some(schema) = &self.typing.schema {
            sensitive.extend(schema.block.sensitive_paths(&self.value));
        }
        let value = self.value.at_path(&path).ok_or_else(|| {
            Failure::input(format!(
                "{name}: {}: no value at {path}",
                self.heading.trim_start_matches("# ")
            ))
        })?;
        let options = args
            .rendering
            .options()
            .sensitive(get::sensitive_within(sensitive, &path));
        let ty = get::type_at(&self.typing.ty, &path);
        Ok(format!("{}\n", render::render(value, &ty, &options)))
    }
}

/// The value of a state's object, typed by --type, by its schema in --schema, or else
/// by its JSON (a state file's legacy flatmap as a map of strings).
fn show_object(
    object: &StateObject<'_>,
    args: &DocumentArgs,
    schemas: Option<&ProviderSchemas>,
    name: &str,
) -> Result<Shown, Failure> {
    let in_object = |e| Failure::value_in(&format!("{name}: {}", object.address), e);
    let (value, typing, sensitive) = match object.source {
        ObjectSource::Shown(r) => {
            let typing = typing(args, name, schemas, |s| r.find_schema(s))?;
            let value = r.typed_values(&typing.ty).map_err(in_object)?;
            let sensitive = r.sensitive_paths(&typing.ty);
            (value, typing, sensitive)
        }
        ObjectSource::Filed(r, i) => {
            let typing = typing(args, name, schemas, |s| r.find_schema(s))?;
            let (value, typing) = match (&typing.schema, &i.attributes, &i.attributes_flat) {
                (Some(schema), _, _) => (i.typed_attributes_with(schema), typing),
                _ if args.ty.is_some() => (i.typed_attributes(&typing.ty), typing),
                (None, Some(json), _) => {
                    let bytes = json.as_str().as_bytes();
                    let ty = ctywire::json::implied_type_reading_wrappers(bytes)
                        .map_err(in_object)?
                        .0;
                    (
                        ctywire::json::decode(bytes, &ty),
                        Typing { ty, schema: None },
                    )
                }
                (None, None, Some(flat)) => {
                    let entries = flat
                        .iter()
                        .map(|(k, v)| (k.as_str(), Value::from(v.as_str())));
                    let ty = Type::Map(Box::new(Type::String));
                    (Ok(Value::map(entries)), Typing { ty, schema: None })
                }
                (None, None, None) => (Ok(Value::Null), typing),
            };
            let value = value.map_err(in_object)?;
            let sensitive = i.sensitive_paths(&typing.ty);
            (value, typing, sensitive)
        }
    };
    let tainted = if object.tainted { " (tainted)" } else { "" };
    Ok(Shown {
        heading: format!(
            "# {}{}{tainted}",
            object.address,
            deposed_suffix(object.deposed)
        ),
        value,
        typing,
        sensitive,
    })
}

/// What changed from one state to another (`--diff OTHER`), object by object: those
/// changed, added and removed, each with the change Terraform's plan rendering shows;
/// only the object at --address when it is given.
fn diff_states(states: &States, name: &str, args: &DocumentArgs) -> Result<String, Failure> {
    let other_path = args.diff.as_ref().expect("--diff");
    let other_name = other_path.display().to_string();
    let bytes =
        std::fs::read(other_path).map_err(|e| Failure::input(format!("{other_name}: {e}")))?;
    let Loaded::State(others) = load(&bytes, &other_name)? else {
        return Err(Failure::input(format!(
            "{other_name}: this is a plan; --diff compares two states"
        )));
    };
    let schemas = schemas(args, None)?;
    let (before, after) = (states.objects(), others.objects());
    let wanted = |o: &&StateObject<'_>| {
        args.address.as_ref().is_none_or(|a| *a == o.address)
            && (args.address.is_none() || o.deposed == args.deposed.as_deref())
    };
    let same =
        |a: &StateObject<'_>, b: &StateObject<'_>| a.address == b.address && a.deposed == b.deposed;
    type Pair<'o, 's> = (Option<&'o StateObject<'s>>, Option<&'o StateObject<'s>>);
    let mut pairs: Vec<Pair<'_, '_>> = Vec::new();
    for b in before.iter().filter(wanted) {
        pairs.push((Some(b), after.iter().find(|a| same(b, a))));
    }
    for a in after.iter().filter(wanted) {
        if !before.iter().any(|b| same(b, a)) {
            pairs.push((None, Some(a)));
        }
    }
    if let (Some(address), true) = (&args.address, pairs.is_empty()) {
        return Err(Failure::input(format!(
            "{name}, {other_name}: neither state has {address}{}",
            deposed_suffix(args.deposed.as_deref())
        )));
    }
    let mut out = String::new();
    for (b, a) in pairs {
        let b = b
            .map(|o| show_object(o, args, schemas.as_ref(), name))
            .transpose()?;
        let a = a
            .map(|o| show_object(o, args, schemas.as_ref(), &other_name))
            .transpose()?;
        let (what, heading) = match (&b, &a) {
            (Some(b), Some(a)) if b.value == a.value && b.sensitive == a.sensitive => continue,
            (Some(b), Some(_)) => ("changed", &b.heading),
            (Some(b), None) => ("removed", &b.heading),
            (None, Some(a)) => ("added", &a.heading),
            (None, None) => continue,
        };
        let typing = match (&a, &b) {
            (Some(s), _) | (None, Some(s)) => &s.typing,
            (None, None) => continue,
        };
        let null = Value::Null;
        let before_value = b.as_ref().map_or(&null, |s| &s.value);
        let after_value = a.as_ref().map_or(&null, |s| &s.value);
        let hidden = |s: &Option<Shown>, v: &Value| -> Vec<Path> {
            if args.rendering.show_sensitive {
                return Vec::new();
            }
            let mut paths = s.as_ref().map(|s| s.sensitive.clone()).unwrap_or_default();
            if let Some(schema) = &typing.schema {
                paths.extend(schema.block.sensitive_paths(v));
            }
            paths
        };
        let options = DiffOptions::new()
            .color(args.rendering.color.enabled())
            .before_sensitive(hidden(&b, before_value))
            .after_sensitive(hidden(&a, after_value));
        let body = match &typing.schema {
            Some(schema) => {
                diff::render_block_diff(before_value, after_value, &schema.block, &options)
            }
            None => diff::render_value_diff(before_value, after_value, &typing.ty, &options),
        };
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!("{heading} {what}\n{body}\n"));
    }
    if out.is_empty() {
        out.push_str("No differences.\n");
    }
    Ok(out)
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
        say!("note: {name}: no schema given; values typed by their JSON (give --schema for the resource's type)");
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
    say!("note: {name}: the document's provider is not in the schemas under its own name; took {provider} ({fallback})");
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
fn find_object<'o, 's>(
    objects: &'o [StateObject<'s>],
    address: &str,
    deposed: Option<&str>,
) -> Result<&'o StateObject<'s>, String> {
    let found = objects
        .iter()
        .find(|o| o.address == address && o.deposed == deposed);
    found.ok_or_else(|| {
        let at: Vec<&StateObject<'_>> = objects.iter().filter(|o| o.address == address).collect();
        match deposed {
            _ if !at.is_empty() => format!(
                "no {} object of {address}; its objects: {}",
                deposed.map_or("current".to_owned(), |k| format!("deposed {k}")),
                self::objects(at.iter().map(|o| o.deposed))
            ),
            _ => {
                let mut known: Vec<&str> = objects.iter().map(|o| o.address.as_str()).collect();
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
    typing: Typing,
    args: &DocumentArgs,
    name: &str,
) -> Result<Shown, Failure> {
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
    Ok(Shown {
        heading,
        value,
        typing,
        sensitive,
    })
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
fn state_list(objects: &[StateObject<'_>]) -> String {
    let mut out = String::new();
    for o in objects {
        let tainted = if o.tainted { " (tainted)" } else { "" };
        out.push_str(&format!(
            "{}{}{tainted}\n",
            o.address,
            deposed_suffix(o.deposed)
        ));
    }
    if out.is_empty() {
        out.push_str("The state holds no resources.\n");
    }
    out
}

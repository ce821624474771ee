//! `ctywire diff`, `check-plan` and `check-apply`: a change rendered as `terraform plan`
//! renders it, and Terraform's checks of what a provider plans and returns.

use std::path::{Path as FsPath, PathBuf};

use clap::Args;
use ctywire::render::diff::{self, ChangeAction, DiffOptions, ResourceHeading};
use ctywire::schema::{Block, Client, Inconsistency};
use ctywire::{Path, Type, Value};

use crate::input::Format;
use crate::input::{self, Source};
use crate::{ColorChoice, Failure, Given, Reading, Rendering, Typing};

/// `ctywire diff A B`.
#[derive(Args)]
pub struct DiffArgs {
    #[command(flatten)]
    typing: Typing,
    #[command(flatten)]
    reading: Reading,
    /// A path whose change forces replacement (`# forces replacement`); may be repeated.
    #[arg(long = "requires-replace", value_name = "PATH")]
    requires_replace: Vec<String>,
    /// A path of a sensitive value (beyond what the schema marks sensitive), hidden in
    /// both values; may be repeated.
    #[arg(long, value_name = "PATH")]
    sensitive: Vec<String>,
    /// The resource address to show in the heading (default: TYPE.this).
    #[arg(long, value_name = "ADDRESS")]
    address: Option<String>,
    /// Show unchanged attributes, elements and blocks instead of counting them.
    #[arg(long)]
    show_unchanged: bool,
    /// Show what unknowns' refinements say (`(known after apply, not null, prefix "i-")`);
    /// without it every unknown reads `(known after apply)`, as Terraform 1.15 prints it.
    #[arg(long)]
    show_refinements: bool,
    /// When to use colour.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// The value before: a payload file; `-` or an empty file is null (a create).
    before: PathBuf,
    /// The value after: a payload file; `-` or an empty file is null (a destroy).
    after: PathBuf,
}

/// `ctywire check-plan`.
#[derive(Args)]
pub struct CheckPlanArgs {
    #[command(flatten)]
    typing: Typing,
    #[command(flatten)]
    reading: Reading,
    /// The prior state: a payload file; `-` or an empty file is null (a create).
    #[arg(long, value_name = "FILE")]
    prior: PathBuf,
    /// The configuration sent in PlanResourceChange.
    #[arg(long, value_name = "FILE")]
    config: PathBuf,
    /// The planned state the provider returned; `-` or an empty file is a null object
    /// (which Terraform rejects where the configuration is not null).
    #[arg(long, value_name = "FILE")]
    planned: PathBuf,
    /// A path the response's RequiresReplace gives (checked as Terraform does: it must
    /// lead somewhere on an update); may be repeated.
    #[arg(long = "requires-replace", value_name = "PATH")]
    requires_replace: Vec<String>,
    #[command(flatten)]
    terraform: TerraformNames,
}

/// Who Terraform names in its messages, and whose rules apply.
#[derive(Args)]
struct TerraformNames {
    /// The client whose rules and wording apply: terraform@1.15 (the newest stable
    /// release), terraform@1.16 or opentofu@1.12.
    #[arg(long, value_name = "CLIENT", default_value = "terraform@1.15")]
    client: Client,
    /// The resource address, as Terraform names it (default: TYPE.this).
    #[arg(long, value_name = "ADDRESS")]
    address: Option<String>,
    /// The provider's source address, as Terraform names it (default: the provider whose
    /// schema it is in the --schema file).
    #[arg(long, value_name = "SOURCE")]
    provider_source: Option<String>,
}

impl TerraformNames {
    fn address(&self, typing: &Typing) -> String {
        self.address.clone().unwrap_or_else(|| {
            let name = typing
                .resource
                .as_deref()
                .or(typing.data_source.as_deref())
                .unwrap_or("resource");
            format!("{}.this", type_name(name))
        })
    }

    fn provider_source(&self, given: &Given) -> String {
        self.provider_source
            .clone()
            .or_else(|| given.provider_source.clone())
            .unwrap_or_else(|| "registry.terraform.io/hashicorp/unknown".to_owned())
    }
}

/// `ctywire proposed-new`.
#[derive(Args)]
pub struct ProposedNewArgs {
    #[command(flatten)]
    typing: Typing,
    #[command(flatten)]
    reading: Reading,
    /// The prior state: a payload file; `-` or an empty file is null (a create).
    #[arg(long, value_name = "FILE")]
    prior: PathBuf,
    /// The configuration (`ctywire config --to msgpack` writes it from a `.tf.json`).
    #[arg(long, value_name = "FILE")]
    config: PathBuf,
    /// Write the payload Terraform sends instead of showing the value.
    #[arg(long, value_enum)]
    to: Option<Format>,
    /// The client whose ProposedNew applies: terraform@1.15 (the newest stable release),
    /// terraform@1.16 or opentofu@1.12.
    #[arg(long, value_name = "CLIENT", default_value = "terraform@1.15")]
    client: Client,
    /// MessagePack output as hex text.
    #[arg(long, requires = "to")]
    hex: bool,
    #[command(flatten)]
    rendering: Rendering,
}

/// `ctywire check-read`.
#[derive(Args)]
pub struct CheckReadArgs {
    #[command(flatten)]
    typing: Typing,
    #[command(flatten)]
    reading: Reading,
    #[command(flatten)]
    terraform: TerraformNames,
    /// The new state ReadResource (or ImportResourceState) returned.
    new: PathBuf,
}

/// `ctywire check-apply`.
#[derive(Args)]
pub struct CheckApplyArgs {
    #[command(flatten)]
    typing: Typing,
    #[command(flatten)]
    reading: Reading,
    /// The planned state: `-` or an empty file is null (a destroy).
    #[arg(long, value_name = "FILE")]
    planned: PathBuf,
    /// The new state the provider returned from ApplyResourceChange.
    #[arg(long = "new", value_name = "FILE")]
    new: PathBuf,
    #[command(flatten)]
    terraform: TerraformNames,
}

/// Reads a payload for a value that may be null: `-` or an empty file.
fn read_value(path: &FsPath, reading: &Reading, ty: &Type) -> Result<Value, Failure> {
    if path.as_os_str() == "-" {
        return Ok(Value::Null);
    }
    let source = input::read_sources(&[path.to_path_buf()])?.remove(0);
    if source.bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Null);
    }
    decode(&source, reading, ty)
}

fn decode(source: &Source, reading: &Reading, ty: &Type) -> Result<Value, Failure> {
    let payload = input::payload(source, reading.input, reading.from)?;
    crate::decode(&payload, ty).map_err(|e| Failure::value_in(&source.name, e))
}

fn parse_paths(texts: &[String], ty: &Type) -> Result<Vec<Path>, Failure> {
    texts
        .iter()
        .map(|t| {
            Path::parse(t)
                .map(|p| p.resolve(ty))
                .map_err(|e| Failure::usage(format!("invalid path {t:?}: {e}")))
        })
        .collect()
}

/// The type and schema given, or a usage failure when there is neither.
fn given(typing: &Typing) -> Result<Given, Failure> {
    typing.resolve()?.ok_or_else(|| {
        Failure::usage("give --type, or --schema with --resource, --data-source or --provider")
    })
}

/// The schema given, for the checks that need one.
fn schema_of(typing: &Typing, command: &str) -> Result<(Given, ctywire::Schema), Failure> {
    let given = given(typing)?;
    let schema = given.schema.clone().ok_or_else(|| {
        Failure::usage(format!(
            "{command} needs the resource's schema: give --schema with --resource, --data-source or --provider"
        ))
    })?;
    Ok((given, schema))
}

pub fn diff(args: &DiffArgs) -> Result<(), Failure> {
    let given = given(&args.typing)?;
    let before = read_value(&args.before, &args.reading, &given.ty)?;
    let after = read_value(&args.after, &args.reading, &given.ty)?;
    let sensitive = parse_paths(&args.sensitive, &given.ty)?;
    let options = DiffOptions::new()
        .color(args.color.enabled())
        .before_sensitive(sensitive.clone())
        .after_sensitive(sensitive)
        .requires_replace(parse_paths(&args.requires_replace, &given.ty)?)
        .show_unchanged(args.show_unchanged)
        .show_refinements(args.show_refinements);
    let replace = !options.requires_replace.is_empty()
        && options
            .requires_replace
            .iter()
            .any(|p| before.at_path(p) != after.at_path(p));
    let action = ChangeAction::between(&before, &after, replace);
    let out = match (&given.schema, &args.typing) {
        (Some(schema), typing) if typing.provider.is_none() => {
            if action == ChangeAction::NoOp {
                "No changes.".to_owned()
            } else {
                let address = match (&args.address, &typing.resource, &typing.data_source) {
                    (Some(a), _, _) => a.clone(),
                    (None, Some(r), _) => format!("{}.this", type_name(r)),
                    (None, None, Some(d)) => format!("data.{}.this", type_name(d)),
                    _ => "this".to_owned(),
                };
                let action = match (action, typing.data_source.is_some()) {
                    (ChangeAction::Create | ChangeAction::Update, true) => ChangeAction::Read,
                    (a, _) => a,
                };
                let change = ResourceHeading::new(&address, action);
                diff::render_resource_change(&change, &before, &after, &schema.block, &options)
            }
        }
        (schema, _) => render_change(
            &before,
            &after,
            &given.ty,
            schema.as_ref().map(|s| &s.block),
            &options,
        ),
    };
    crate::write_stdout(format!("{out}\n").as_bytes())
}

/// The change `before` → `after` without a resource heading: a block's body, with
/// what the schema marks sensitive hidden, when there is a schema block; else a value
/// of type `ty`.
pub fn render_change(
    before: &Value,
    after: &Value,
    ty: &Type,
    block: Option<&Block>,
    options: &DiffOptions,
) -> String {
    match block {
        Some(block) => diff::render_block_diff(before, after, block, options),
        None => diff::render_value_diff(before, after, ty, options),
    }
}

/// The resource type of a `--resource` or `--data-source` name (`PROVIDER:NAME`).
fn type_name(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

pub fn check_plan(args: &CheckPlanArgs) -> Result<(), Failure> {
    let (given, schema) = schema_of(&args.typing, "check-plan")?;
    let prior = read_value(&args.prior, &args.reading, &given.ty)?;
    let config = read_value(&args.config, &args.reading, &given.ty)?;
    let planned = read_value(&args.planned, &args.reading, &given.ty)?;
    let mut found = schema
        .block
        .check_plan_for(args.terraform.client, &prior, &config, &planned);
    if found.is_empty() {
        // Terraform looks at the RequiresReplace paths once the plan itself is valid.
        let paths = parse_paths(&args.requires_replace, &given.ty)?;
        found = schema
            .block
            .check_requires_replace(&prior, &planned, &paths);
    }
    report(
        &found,
        &args.terraform.address(&args.typing),
        &args.terraform.provider_source(&given),
        args.terraform.client,
        "the plan is valid",
        "this plan",
    )
}

pub fn check_apply(args: &CheckApplyArgs) -> Result<(), Failure> {
    let (given, schema) = schema_of(&args.typing, "check-apply")?;
    let planned = read_value(&args.planned, &args.reading, &given.ty)?;
    let new = read_value(&args.new, &args.reading, &given.ty)?;
    let found = schema
        .block
        .check_apply_for(args.terraform.client, &planned, &new);
    report(
        &found,
        &args.terraform.address(&args.typing),
        &args.terraform.provider_source(&given),
        args.terraform.client,
        "the new state is consistent with the plan",
        "this result",
    )
}

pub fn proposed_new(args: &ProposedNewArgs) -> Result<(), Failure> {
    let (given, schema) = schema_of(&args.typing, "proposed-new")?;
    let prior = read_value(&args.prior, &args.reading, &given.ty)?;
    let config = read_value(&args.config, &args.reading, &given.ty)?;
    // A destroy (a null configuration): Terraform does not compute a proposed state but
    // sends a null one (objchange's ProposedNew would give the prior state back).
    let proposed = if config.is_null() {
        Value::Null
    } else {
        // The client's own crash on the input is the answer then.
        schema
            .block
            .try_proposed_new_for(args.client, &prior, &config)
            .map_err(|fails| Failure::input(format!("no proposed new state: {fails}")))?
    };
    let out = match args.to {
        None => {
            let options = args
                .rendering
                .options()
                .sensitive(schema.block.sensitive_paths(&proposed));
            let mut text = ctywire::render::render_block(&proposed, &schema.block, &options);
            text.push('\n');
            text.into_bytes()
        }
        Some(Format::Msgpack) => {
            let bytes = ctywire::msgpack::encode(&proposed, &given.ty).map_err(Failure::value)?;
            if args.hex {
                let mut hex = input::encode_hex(&bytes);
                hex.push('\n');
                hex.into_bytes()
            } else {
                bytes
            }
        }
        Some(Format::Json) => {
            let mut json = ctywire::json::encode(&proposed, &given.ty).map_err(Failure::value)?;
            json.push(b'\n');
            json
        }
    };
    crate::write_stdout(&out)
}

pub fn check_read(args: &CheckReadArgs) -> Result<(), Failure> {
    let (given, schema) = schema_of(&args.typing, "check-read")?;
    let new = read_value(&args.new, &args.reading, &given.ty)?;
    let found = schema.block.check_read_for(args.terraform.client, &new);
    report(
        &found,
        &args.terraform.address(&args.typing),
        &args.terraform.provider_source(&given),
        args.terraform.client,
        "the state is valid",
        "this state",
    )
}

/// Prints each problem as the client reports it (its summary and detail), with this
/// crate's reading of it below, and fails when there are any. The verdict names the
/// client: "`accepted`: Terraform would accept it", "OpenTofu would reject `what`".
fn report(
    found: &[Inconsistency],
    address: &str,
    provider_source: &str,
    client: Client,
    accepted: &str,
    what: &str,
) -> Result<(), Failure> {
    let program = client.program();
    if found.is_empty() {
        return crate::write_stdout(format!("{accepted}: {program} would accept it\n").as_bytes());
    }
    let mut out = String::new();
    for v in found {
        let d = v.diagnostic_for(client, address, provider_source);
        out.push_str(&format!(
            "Error: {}\n\n{}\n\n    {v} [{}]\n\n",
            d.summary, d.detail, v.rule
        ));
    }
    crate::write_stdout(out.as_bytes())?;
    let problems = if found.len() == 1 {
        "problem"
    } else {
        "problems"
    };
    Err(Failure::input(format!(
        "{program} would reject {what}: {} {problems}",
        found.len()
    )))
}

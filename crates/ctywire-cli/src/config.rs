//! `ctywire config`: the value Terraform would send a provider for a block of a
//! `.tf.json` configuration.

use std::path::{Path, PathBuf};

use clap::Args;
use ctywire::config::{Address, Config, Diagnostics};
use ctywire::render::{self, Options};
use ctywire::{json, msgpack, ProviderSchemas};

use crate::input::{self, Format};
use crate::{write_stdout, Failure, Rendering};

/// The arguments of `ctywire config`.
#[derive(Args)]
pub struct ConfigArgs {
    /// Configuration files (`.tf.json`, `.tofu.json`), or directories to read them
    /// from.
    #[arg(required = true, value_name = "FILES")]
    files: Vec<PathBuf>,
    /// A provider schema file, as `terraform providers schema -json` prints it.
    #[arg(long, value_name = "FILE")]
    schema: Option<PathBuf>,
    /// The block: `TYPE.NAME`, `data.TYPE.NAME` (either with an instance key, `[0]` or
    /// `["key"]`), `provider.NAME` or `provider.NAME.ALIAS`. Without it, the blocks
    /// found are listed.
    #[arg(long, requires = "schema")]
    address: Option<String>,
    /// Write the payload Terraform would send, in this format, instead of showing the
    /// value.
    #[arg(long, value_enum, requires = "address")]
    to: Option<Format>,
    /// The value Terraform's validate walk sends (ValidateResourceConfig): input
    /// variables unknown, and what is built on them. Without it, the plan walk's, with
    /// the variables' defaults.
    #[arg(long, requires = "address")]
    validate_walk: bool,
    /// `ADDRESS=FILE`: the value of the resource at ADDRESS (`TYPE.NAME` or
    /// `data.TYPE.NAME`, declared without count or for_each) that references to it
    /// evaluate to, as in Terraform's walks once it is planned or applied: its planned
    /// state (PlanResourceChange's response), unknowns and refinements passed on, or
    /// its new state. A payload file (MessagePack, JSON or hex), typed by the resource's
    /// schema; may be repeated. (Resources declared with count or for_each are not
    /// covered: references to their instances stay unknown, and a value given for one
    /// is not used.)
    #[arg(
        long = "resource-value",
        value_name = "ADDRESS=FILE",
        requires = "address"
    )]
    resource_values: Vec<String>,
    /// MessagePack output as hex text.
    #[arg(long)]
    hex: bool,
    #[command(flatten)]
    rendering: Rendering,
}

/// Runs `ctywire config`.
pub fn run(args: &ConfigArgs) -> Result<(), Failure> {
    let paths = configuration_files(&args.files)?;
    let mut config = Config::read(&paths).map_err(|d| diagnostics(&d))?;
    if args.validate_walk {
        config = config.in_validate_walk();
    }
    let Some(address) = &args.address else {
        return list(&config);
    };
    let address: Address = address
        .parse()
        .map_err(|e: ctywire::Error| Failure::usage(format!("--address: {e}")))?;
    let schema_path = args
        .schema
        .as_ref()
        .ok_or_else(|| Failure::usage("--address needs --schema"))?;
    let in_schema =
        |e: &dyn std::fmt::Display| Failure::input(format!("{}: {e}", schema_path.display()));
    let text = std::fs::read(schema_path).map_err(|e| in_schema(&e))?;
    let schemas = ProviderSchemas::from_json(&text).map_err(|e| in_schema(&e))?;
    for given in &args.resource_values {
        let (resource, value) = resource_value(given, &schemas)?;
        config = config.with_resource_value(&resource, value);
    }
    let value = config
        .value(&address, &schemas)
        .map_err(|d| diagnostics(&d))?;
    let schema = address.schema(&schemas).map_err(|e| in_schema(&e))?;
    let ty = schema.implied_type();
    let mut out = match args.to {
        None => {
            let options: Options = args.rendering.options();
            render::render_block(&value, &schema.block, &options).into_bytes()
        }
        Some(Format::Msgpack) => {
            let bytes = msgpack::encode(&value, &ty).map_err(Failure::value)?;
            if args.hex {
                input::encode_hex(&bytes).into_bytes()
            } else {
                bytes
            }
        }
        Some(Format::Json) => json::encode(&value, &ty).map_err(Failure::value)?,
    };
    if args.to != Some(Format::Msgpack) || args.hex {
        out.push(b'\n');
    }
    write_stdout(&out)
}

/// A `--resource-value ADDRESS=FILE`: the address and the file's value, typed by the
/// resource's schema.
fn resource_value(
    given: &str,
    schemas: &ProviderSchemas,
) -> Result<(Address, ctywire::Value), Failure> {
    let (address, file) = given
        .split_once('=')
        .ok_or_else(|| Failure::usage(format!("--resource-value {given:?}: give ADDRESS=FILE")))?;
    let address: Address = address
        .parse()
        .map_err(|e: ctywire::Error| Failure::usage(format!("--resource-value {address}: {e}")))?;
    if !matches!(
        address,
        Address::Resource { key: None, .. } | Address::DataSource { key: None, .. }
    ) {
        return Err(Failure::usage(format!(
            "--resource-value {address}: give a resource or data source without an instance key"
        )));
    }
    let schema = address
        .schema(schemas)
        .map_err(|e| Failure::input(format!("--resource-value {address}: {e}")))?;
    let source = input::read_sources(&[PathBuf::from(file)])?.remove(0);
    let payload = input::payload(&source, None, None)?;
    let ty = schema.implied_type();
    let value = match payload.format {
        Format::Msgpack => msgpack::decode(&payload.bytes, &ty),
        Format::Json => json::decode(&payload.bytes, &ty),
    }
    .map_err(|e| Failure::value_in(&source.name, e))?;
    Ok((address, value))
}

/// The files to read: each file given, and the `.tf.json` and `.tofu.json` files of
/// each directory given (override files left out, as Terraform reads them apart).
fn configuration_files(given: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    let mut files = Vec::new();
    for path in given {
        if !path.is_dir() {
            files.push(path.clone());
            continue;
        }
        let entries = std::fs::read_dir(path)
            .map_err(|e| Failure::input(format!("{}: {e}", path.display())))?;
        let mut found: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| is_configuration_file(p))
            .collect();
        found.sort();
        if found.is_empty() {
            return Err(Failure::input(format!(
                "{}: no .tf.json or .tofu.json files",
                path.display()
            )));
        }
        files.extend(found);
    }
    Ok(files)
}

fn is_configuration_file(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let stem = name
        .strip_suffix(".tf.json")
        .or_else(|| name.strip_suffix(".tofu.json"));
    stem.is_some_and(|s| s != "override" && !s.ends_with("_override"))
}

/// Lists the blocks declared, one a line: address, then where.
fn list(config: &Config) -> Result<(), Failure> {
    let declarations = config.declarations();
    let width = declarations
        .iter()
        .map(|d| d.address.len())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for d in &declarations {
        out.push_str(&format!(
            "{:<width$}  {}:{}\n",
            d.address, d.location.file, d.location.line
        ));
    }
    write_stdout(out.as_bytes())
}

/// Every diagnostic, one `error:` line each.
fn diagnostics(diags: &Diagnostics) -> Failure {
    Failure::input(
        diags
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\nerror: "),
    )
}

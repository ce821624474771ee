//! `ctywire`: read, convert and check Terraform plugin-protocol values from a shell.

mod capture;
mod document;
mod input;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{ArgGroup, Args, Parser, Subcommand, ValueEnum};
use ctywire::render::{self, Options};
use ctywire::{json, msgpack, ProviderSchemas, Schema, Type, Value};

use input::{Encoding, Format};

#[derive(Parser)]
#[command(
    name = "ctywire",
    version,
    about = "Terraform / OpenTofu plugin-protocol values: decode, show, convert, check",
    long_about = "Terraform / OpenTofu plugin-protocol values: decode, show, convert, check.\n\n\
        Payloads are the DynamicValue bytes a provider and Terraform exchange: MessagePack \
        (or JSON), typed by the provider's schema. Input can be raw bytes, hex or base64, \
        from files or standard input."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Show a payload readably, in the style of `terraform show`.
    ///
    /// Unknown values read `(known after apply)` with their refinements; sensitive
    /// values are hidden unless --show-sensitive. The type comes from --type, or from
    /// --schema with --resource, --data-source or --provider; without either, the
    /// payload is decoded with the type its bytes imply (go-cty's implied-type rules),
    /// and a note says so.
    ///
    /// Examples:
    ///
    ///   ctywire show --type "$(cat examples/instance.type)" examples/instance.hex
    ///
    ///   ctywire show --schema examples/schema/provider.json --resource cloud_instance examples/payloads/cloud_instance.planned.msgpack
    ///
    ///   echo 'gqFhAaFiwA==' | ctywire show --type 'object({a=number,b=string})'
    ///
    ///   ctywire show dump1.msgpack dump2.msgpack
    #[command(verbatim_doc_comment)]
    Show {
        #[command(flatten)]
        typing: Typing,
        #[command(flatten)]
        reading: Reading,
        #[command(flatten)]
        rendering: Rendering,
        /// Input files; standard input when none (or `-`).
        files: Vec<PathBuf>,
    },
    /// Extract the value at one path of a payload.
    ///
    /// PATH is written as Terraform prints paths (`.tags["Name"]`, `.disk[0].size`) or
    /// in tfjsonpath's dotted form (`tags.Name`, `disk.0.size`).
    ///
    /// Examples:
    ///
    ///   ctywire get '.tags["Name"]' --type "$(cat examples/instance.type)" examples/instance.hex
    ///
    ///   ctywire get disk.0 --schema examples/schema/provider.json --resource cloud_instance --to json examples/payloads/cloud_instance.config.msgpack
    #[command(verbatim_doc_comment)]
    Get {
        /// The path of the value to extract.
        path: String,
        #[command(flatten)]
        typing: Typing,
        #[command(flatten)]
        reading: Reading,
        /// How to print the value: rendered as by `show`, or as cty JSON.
        #[arg(long, value_enum, default_value_t = Output::Pretty)]
        to: Output,
        #[command(flatten)]
        rendering: Rendering,
        /// Input files; standard input when none (or `-`).
        files: Vec<PathBuf>,
    },
    /// List or show what a plan or a state holds (`terraform show -json` output).
    ///
    /// Without --address, lists the document's resources: a plan's changes as
    /// `terraform show PLANFILE` summarises them, a state's resource instances as
    /// `terraform state list` does. With --address, shows that resource instance's
    /// value (a plan's planned value, or with --before its value before the change; a
    /// state's value), typed by --schema (a `providers schema -json` file), --type, the
    /// schemas an HCP Terraform redacted plan embeds, or else by its JSON. Unknown
    /// values read `(known after apply)` and sensitive values are hidden, as in `show`.
    /// `plan` and `state` are other names for this command.
    ///
    /// Examples:
    ///
    ///   ctywire document examples/plan/plan.json
    ///
    ///   ctywire plan examples/plan/plan.json --address 'aws_instance.web[0]' --schema examples/plan/schema.json
    ///
    ///   terraform show -json | ctywire state - --address aws_instance.web --deposed 1a2b3c4d
    #[command(verbatim_doc_comment, visible_aliases = ["plan", "state"])]
    Document(document::DocumentArgs),
    /// Show the payloads a provider wrote with TF_LOG_SDK_PROTO_DATA_DIR, call by call.
    ///
    /// terraform-plugin-go writes one file per value a provider receives or returns
    /// (`{UnixMilli}_{RPC}_{Message}_{Field}.msgpack|json|empty`) and per private-data
    /// field. The files are grouped into calls (an RPC's request and response); with
    /// --schema, each call's values are typed by the one resource type (data source,
    /// ephemeral resource, action, function, ...) whose implied type decodes them all,
    /// and a call that more than one type or none fits says so. Bad files are reported
    /// on standard error (exit status 1) and skipped; the rest is shown.
    ///
    /// Example:
    ///
    ///   ctywire capture tests/data/capture --schema examples/schema/provider.json
    #[command(verbatim_doc_comment)]
    Capture(capture::CaptureArgs),
    /// Convert a value between MessagePack and JSON (or re-encode it in one format).
    ///
    /// Reads FILE, or standard input when FILE is absent or `-`, and writes the value to
    /// standard output: raw MessagePack bytes, or hex text with --hex, or JSON text
    /// (text output ends with a newline). Exit status 0 on success, 1 on bad input
    /// (`error: <path>: <message>` on standard error), 2 on bad usage.
    ///
    /// Examples:
    ///
    ///   echo '{"a":"b"}' | ctywire convert --type 'map(string)' --from json --to msgpack --hex
    ///
    ///   echo '92 01 cb3ff8000000000000' | ctywire convert --type '["list","number"]' --from msgpack --to json --hex
    ///
    ///   ctywire convert --type 'object({id=string})' --from msgpack --to msgpack state.bin > canonical.bin
    ///
    ///   ctywire convert --schema schema.json --resource aws_instance --from msgpack --to json plan.bin
    ///
    /// The type is given with --type, or taken from a provider schema file (what
    /// `terraform providers schema -json` prints) with --schema and one of --resource,
    /// --data-source and --provider.
    #[command(verbatim_doc_comment)]
    #[command(group(ArgGroup::new("convert_type").required(true).args(["ty", "schema"])))]
    Convert {
        #[command(flatten)]
        typing: Typing,
        /// The input format.
        #[arg(long, value_enum)]
        from: Format,
        /// The output format.
        #[arg(long, value_enum)]
        to: Format,
        /// MessagePack input and output are hex text (whitespace ignored on input).
        #[arg(long)]
        hex: bool,
        /// The input file; standard input when absent or `-`.
        file: Option<PathBuf>,
    },
    /// Print the type JSON of a type expression, or the type expression of type JSON.
    ///
    /// Examples:
    ///
    ///   ctywire type 'map(object({a=string, b=optional(number)}))'
    ///   ["map",["object",{"a":"string","b":"number"},["b"]]]
    ///
    ///   ctywire type '["list","dynamic"]'
    ///   list(any)
    #[command(verbatim_doc_comment)]
    Type {
        /// A type expression or type JSON.
        #[arg(value_name = "TYPE")]
        text: String,
    },
    /// Work with test-vector files (format: vectors/README.md).
    Vectors {
        #[command(subcommand)]
        command: VectorsCommand,
    },
}

#[derive(Subcommand)]
enum VectorsCommand {
    /// Check vector files: report each failing case with a diff of the bytes.
    ///
    /// Exit status 0 when every case passes, 1 otherwise.
    ///
    /// Example:
    ///
    ///   ctywire vectors check vectors/ctywire/*.json
    #[command(verbatim_doc_comment)]
    Check {
        /// Vector files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// Where the value's type comes from: `--type`, or a schema file and a name in it.
#[derive(Args)]
#[command(group(ArgGroup::new("schema_name").args(["resource", "data_source", "provider"])))]
struct Typing {
    /// The value's type: type JSON (`["list","string"]`) or a type expression
    /// (`list(string)`, `object({a=string, b=optional(number)})`, `any`).
    #[arg(long = "type", value_name = "TYPE", value_parser = parse_type, conflicts_with = "schema")]
    ty: Option<Type>,
    /// A provider schema file, as `terraform providers schema -json` or `tofu providers
    /// schema -json` prints it; the value's type is the implied type of the schema named
    /// by --resource, --data-source or --provider.
    #[arg(long, value_name = "FILE", requires = "schema_name")]
    schema: Option<PathBuf>,
    /// With --schema: the managed resource type NAME (`PROVIDER:NAME` when two providers
    /// define it).
    #[arg(long, value_name = "NAME", requires = "schema", conflicts_with = "ty")]
    resource: Option<String>,
    /// With --schema: the data source NAME (`PROVIDER:NAME` when two providers define it).
    #[arg(
        long = "data-source",
        value_name = "NAME",
        requires = "schema",
        conflicts_with = "ty"
    )]
    data_source: Option<String>,
    /// With --schema: the provider's own configuration; NAME is its address
    /// (`registry.terraform.io/hashicorp/aws`), `hashicorp/aws` or `aws`.
    #[arg(long, value_name = "NAME", requires = "schema", conflicts_with = "ty")]
    provider: Option<String>,
}

/// A type given on the command line, and the schema it comes from when it does.
struct Given {
    ty: Type,
    schema: Option<Schema>,
}

impl Typing {
    /// The type given with `--type`, or the implied type of the schema named in the
    /// `--schema` file; `None` when neither is given. A schema file that cannot be read
    /// or parsed, or a name it does not define, is bad input naming the file.
    fn resolve(&self) -> Result<Option<Given>, Failure> {
        if let Some(ty) = &self.ty {
            return Ok(Some(Given {
                ty: ty.clone(),
                schema: None,
            }));
        }
        let Some(path) = &self.schema else {
            return Ok(None);
        };
        let in_file =
            |e: &dyn std::fmt::Display| Failure::input(format!("{}: {e}", path.display()));
        let text = std::fs::read(path).map_err(|e| in_file(&e))?;
        let schemas = ProviderSchemas::from_json(&text).map_err(|e| in_file(&e))?;
        let schema = match (&self.resource, &self.data_source, &self.provider) {
            (Some(name), _, _) => schemas.resource(name),
            (_, Some(name), _) => schemas.data_source(name),
            (_, _, Some(name)) => schemas.provider(name),
            _ => {
                return Err(Failure::usage(
                    "--schema needs one of --resource, --data-source and --provider",
                ))
            }
        };
        let schema = schema.map_err(|e| in_file(&e))?;
        Ok(Some(Given {
            ty: schema.implied_type(),
            schema: Some(schema.clone()),
        }))
    }
}

/// How to read the payloads.
#[derive(Args)]
struct Reading {
    /// How the payload is written (default: told from the content).
    #[arg(long, value_enum)]
    input: Option<Encoding>,
    /// The payload format (default: told from the content or the file name).
    #[arg(long, value_enum)]
    from: Option<Format>,
}

/// How rendered values look.
#[derive(Args)]
struct Rendering {
    /// Show sensitive values.
    #[arg(long)]
    show_sensitive: bool,
    /// When to use colour.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

impl Rendering {
    fn options(&self) -> Options {
        let color = match self.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        };
        Options {
            show_sensitive: self.show_sensitive,
            color,
            ..Options::default()
        }
    }
}

/// How `get` prints its value.
#[derive(Clone, Copy, ValueEnum)]
enum Output {
    /// As `show` renders values.
    Pretty,
    /// As cty JSON (fails for unknown values).
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum ColorChoice {
    /// Colour when standard output is a terminal and NO_COLOR is unset.
    Auto,
    Always,
    Never,
}

fn parse_type(s: &str) -> Result<Type, String> {
    s.parse::<Type>().map_err(|e| e.to_string())
}

/// A failure: the message for standard error and the exit code.
pub struct Failure {
    message: String,
    code: u8,
}

impl Failure {
    /// Bad input: exit 1.
    pub fn input(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: 1,
        }
    }

    /// Bad usage: exit 2.
    fn usage(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: 2,
        }
    }

    /// A decode or encode error, as `<path>: <message>`.
    fn value(err: ctywire::Error) -> Failure {
        Failure::input(describe(&err))
    }

    /// A decode or encode error in a named input.
    fn value_in(name: &str, err: ctywire::Error) -> Failure {
        Failure::input(format!("{name}: {}", describe(&err)))
    }
}

/// `<path>: <message> at byte N`, with `(root)` for the empty path.
fn describe(err: &ctywire::Error) -> String {
    let path = if err.path().is_empty() {
        "(root)".to_owned()
    } else {
        err.path().to_string()
    };
    let position = match err.position() {
        Some(ctywire::Position::Offset(o)) => format!(" at byte {o}"),
        Some(ctywire::Position::LineColumn { line, column }) => {
            format!(" at line {line} column {column}")
        }
        None => String::new(),
    };
    format!("{path}: {}{position}", err.message())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("error: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}

fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Show {
            typing,
            reading,
            rendering,
            files,
        } => show(&typing, &reading, &rendering, &files),
        Command::Get {
            path,
            typing,
            reading,
            to,
            rendering,
            files,
        } => get(&path, &typing, &reading, to, &rendering, &files),
        Command::Document(args) => document::run(&args),
        Command::Capture(args) => capture::run(&args),
        Command::Convert {
            typing,
            from,
            to,
            hex,
            file,
        } => {
            let given = typing
                .resolve()?
                .ok_or_else(|| Failure::usage("give --type or --schema"))?;
            convert(&given.ty, from, to, hex, file)
        }
        Command::Type { text } => type_command(&text),
        Command::Vectors {
            command: VectorsCommand::Check { files },
        } => vectors_check(&files),
    }
}

fn write_stdout(bytes: &[u8]) -> Result<(), Failure> {
    std::io::stdout()
        .write_all(bytes)
        .map_err(|e| Failure::input(format!("standard output: {e}")))
}

fn decode(payload: &input::Payload, ty: &Type) -> ctywire::Result<Value> {
    match payload.format {
        Format::Msgpack => msgpack::decode(&payload.bytes, ty),
        Format::Json => json::decode(&payload.bytes, ty),
    }
}

/// A payload decoded: its name, value and type, and the schema block it follows.
struct Decoded {
    name: String,
    value: Value,
    ty: Type,
    schema: Option<Schema>,
}

impl Decoded {
    /// Paths the schema marks sensitive.
    fn sensitive_paths(&self) -> Vec<ctywire::Path> {
        self.schema
            .as_ref()
            .map(|s| s.block.sensitive_paths(&self.value))
            .unwrap_or_default()
    }
}

/// Reads and decodes every input, with the given type or the one its bytes imply.
fn decode_all(
    typing: &Typing,
    reading: &Reading,
    files: &[PathBuf],
) -> Result<Vec<Decoded>, Failure> {
    let given = typing.resolve()?;
    let mut out = Vec::new();
    for source in input::read_sources(files)? {
        let payload = input::payload(&source, reading.input, reading.from)?;
        let (ty, schema) = match &given {
            Some(given) => (given.ty.clone(), given.schema.clone()),
            None => {
                let implied = match payload.format {
                    Format::Msgpack => msgpack::implied_type(&payload.bytes),
                    Format::Json => json::implied_type(&payload.bytes),
                }
                .map_err(|e| {
                    Failure::input(format!(
                        "{}: no type given, and none can be implied from the bytes ({}); use --type or --schema",
                        source.name,
                        describe(&e)
                    ))
                })?;
                eprintln!(
                    "note: {}: no type given; decoded with the type its bytes imply: {implied}",
                    source.name
                );
                (implied, None)
            }
        };
        let value = decode(&payload, &ty).map_err(|e| Failure::value_in(&source.name, e))?;
        out.push(Decoded {
            name: source.name,
            value,
            ty,
            schema,
        });
    }
    Ok(out)
}

/// Joins the outputs of several inputs, each under a `# NAME` heading when there are
/// more than one.
fn joined(
    decoded: &[Decoded],
    mut each: impl FnMut(&Decoded) -> Result<String, Failure>,
) -> Result<String, Failure> {
    let mut out = String::new();
    for (i, d) in decoded.iter().enumerate() {
        if decoded.len() > 1 {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&format!("# {}\n", d.name));
        }
        out.push_str(&each(d)?);
        out.push('\n');
    }
    Ok(out)
}

fn show(
    typing: &Typing,
    reading: &Reading,
    rendering: &Rendering,
    files: &[PathBuf],
) -> Result<(), Failure> {
    let decoded = decode_all(typing, reading, files)?;
    let out = joined(&decoded, |d| {
        let options = Options {
            sensitive: d.sensitive_paths(),
            ..rendering.options()
        };
        Ok(match &d.schema {
            Some(schema) => render::render_block(&d.value, &schema.block, &options),
            None => render::render(&d.value, &d.ty, &options),
        })
    })?;
    write_stdout(out.as_bytes())
}

fn get(
    path: &str,
    typing: &Typing,
    reading: &Reading,
    to: Output,
    rendering: &Rendering,
    files: &[PathBuf],
) -> Result<(), Failure> {
    let path = ctywire::Path::parse(path)
        .map_err(|e| Failure::usage(format!("invalid path {path:?}: {e}")))?;
    let decoded = decode_all(typing, reading, files)?;
    let out = joined(&decoded, |d| {
        let path = path.resolve(&d.ty);
        let value = d
            .value
            .at_path(&path)
            .ok_or_else(|| Failure::input(format!("{}: no value at {path}", d.name)))?;
        let ty = type_at(&d.ty, &path);
        match to {
            Output::Json => {
                let text = json::encode(value, &ty).map_err(|e| Failure::value_in(&d.name, e))?;
                Ok(String::from_utf8_lossy(&text).into_owned())
            }
            Output::Pretty => {
                // Sensitive paths below the extracted value, relative to it.
                let sensitive = d
                    .sensitive_paths()
                    .into_iter()
                    .filter(|p| path.is_prefix_of(p))
                    .map(|p| p.steps()[path.len()..].to_vec().into())
                    .collect();
                let options = Options {
                    sensitive,
                    ..rendering.options()
                };
                Ok(render::render(value, &ty, &options))
            }
        }
    })?;
    write_stdout(out.as_bytes())
}

/// The type at `path` within `ty`; `dynamic` where the type does not say (the value
/// then carries its own).
fn type_at(ty: &Type, path: &ctywire::Path) -> Type {
    use ctywire::PathStep;
    let mut ty = ty.clone();
    for step in path.steps() {
        ty = match (&ty, step) {
            (Type::Object(o), PathStep::Attribute(n)) => o.attribute(n).cloned(),
            (Type::Map(e), PathStep::Key(_)) => Some((**e).clone()),
            (Type::List(e) | Type::Set(e), PathStep::Index(_) | PathStep::SetElement(_)) => {
                Some((**e).clone())
            }
            (Type::Tuple(ts), PathStep::Index(i)) => {
                usize::try_from(*i).ok().and_then(|i| ts.get(i).cloned())
            }
            _ => None,
        }
        .unwrap_or(Type::Dynamic);
    }
    ty
}

fn convert(
    ty: &Type,
    from: Format,
    to: Format,
    hex: bool,
    file: Option<PathBuf>,
) -> Result<(), Failure> {
    let files: Vec<PathBuf> = file.into_iter().collect();
    let source = input::read_sources(&files)?.remove(0);
    let encoding = match (from, hex) {
        (Format::Msgpack, true) => Encoding::Hex,
        _ => Encoding::Raw,
    };
    let payload = input::payload(&source, Some(encoding), Some(from))?;
    let value = decode(&payload, ty).map_err(Failure::value)?;
    let mut out = match to {
        Format::Msgpack => {
            let bytes = msgpack::encode(&value, ty).map_err(Failure::value)?;
            if hex {
                input::encode_hex(&bytes).into_bytes()
            } else {
                bytes
            }
        }
        Format::Json => json::encode(&value, ty).map_err(Failure::value)?,
    };
    if matches!(to, Format::Json) || hex {
        out.push(b'\n');
    }
    write_stdout(&out)
}

fn type_command(text: &str) -> Result<(), Failure> {
    let ty: Type = text
        .parse()
        .map_err(|e: ctywire::Error| Failure::input(e.to_string()))?;
    let is_json = text.trim_start().starts_with(['"', '[']);
    let out = if is_json { ty.to_expr() } else { ty.to_json() };
    write_stdout(format!("{out}\n").as_bytes())
}

fn vectors_check(files: &[PathBuf]) -> Result<(), Failure> {
    let mut failed = 0;
    let mut out = String::new();
    for file in files {
        let name = file.display();
        let text =
            std::fs::read_to_string(file).map_err(|e| Failure::input(format!("{name}: {e}")))?;
        let report =
            ctywire::vectors::check(&text).map_err(|e| Failure::input(format!("{name}: {e}")))?;
        for f in &report.failures {
            out.push_str(&format!("FAIL {name}: {}: {}\n", f.case, f.message));
            if let (Some(want), Some(got)) = (&f.expected, &f.actual) {
                out.push_str(&byte_diff(want, got));
            }
        }
        out.push_str(&format!(
            "{name}: {} cases, {} checks, {} skipped, {} failed\n",
            report.cases,
            report.checks,
            report.skipped,
            report.failures.len()
        ));
        failed += report.failures.len();
    }
    write_stdout(out.as_bytes())?;
    if failed > 0 {
        let checks = if failed == 1 { "check" } else { "checks" };
        return Err(Failure::input(format!("{failed} {checks} failed")));
    }
    Ok(())
}

/// The expected and actual bytes in hex, with the first differing byte marked.
fn byte_diff(want: &[u8], got: &[u8]) -> String {
    let first = want
        .iter()
        .zip(got)
        .position(|(a, b)| a != b)
        .unwrap_or(want.len().min(got.len()));
    let line = |label: &str, bytes: &[u8]| {
        let shown: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
        format!("    {label} ({} bytes): {}\n", bytes.len(), shown.join(" "))
    };
    format!(
        "{}{}    first difference at byte {first}\n",
        line("want", want),
        line("got ", got)
    )
}

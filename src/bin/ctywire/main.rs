//! `ctywire`: read, convert and check Terraform plugin-protocol values from a shell.

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
        /// Show sensitive values.
        #[arg(long)]
        show_sensitive: bool,
        /// When to use colour.
        #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
        color: ColorChoice,
        /// Input files; standard input when none (or `-`).
        files: Vec<PathBuf>,
    },
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
            show_sensitive,
            color,
            files,
        } => show(&typing, &reading, show_sensitive, color, &files),
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

fn show(
    typing: &Typing,
    reading: &Reading,
    show_sensitive: bool,
    color: ColorChoice,
    files: &[PathBuf],
) -> Result<(), Failure> {
    let sources = input::read_sources(files)?;
    let color = match color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
        }
    };
    let options = Options {
        show_sensitive,
        color,
        ..Options::default()
    };
    let given = typing.resolve()?;
    let mut out = String::new();
    for (i, source) in sources.iter().enumerate() {
        let payload = input::payload(source, reading.input, reading.from)?;
        let ty = match &given {
            Some(given) => given.ty.clone(),
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
                implied
            }
        };
        let value = decode(&payload, &ty).map_err(|e| Failure::value_in(&source.name, e))?;
        if sources.len() > 1 {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&format!("# {}\n", source.name));
        }
        // A schema says which attributes are sensitive.
        let sensitive = match given.as_ref().and_then(|g| g.schema.as_ref()) {
            Some(schema) => schema.block.sensitive_paths(&value),
            None => Vec::new(),
        };
        let options = Options {
            sensitive,
            ..options.clone()
        };
        match given.as_ref().and_then(|g| g.schema.as_ref()) {
            Some(schema) => out.push_str(&render::render_block(&value, &schema.block, &options)),
            None => out.push_str(&render::render(&value, &ty, &options)),
        }
        out.push('\n');
    }
    write_stdout(out.as_bytes())
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
        return Err(Failure::input(format!("{failed} checks failed")));
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

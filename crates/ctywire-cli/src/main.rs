//! `ctywire`: read, convert and check Terraform plugin-protocol values from a shell.

#![forbid(unsafe_code)]
// The subcommands' doc comments are their --help text, where `aws_instance.web[0]` and
// `${fpath[1]}` are text for the terminal, not links.
#![allow(rustdoc::broken_intra_doc_links)]

/// Writes a line on standard error as `eprintln!` does, but quietly drops it when
/// standard error is gone (`ctywire … 2>&1 | head`): a closed pipe never panics the tool.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::output::to_stderr(::std::format_args!($($arg)*))
    };
}

mod capture;
mod config;
mod document;
mod get;
mod implied;
mod input;
mod manual;
mod output;
mod plan_rules;
mod sniff;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{ArgGroup, Args, Parser, Subcommand, ValueEnum};
use ctywire::render::{self, Options};
use ctywire::{json, msgpack, transcode, ProviderSchemas, Schema, Type, Value};

use input::{Encoding, Format};
use output::{for_each_input, write_stdout};

#[derive(Parser)]
#[command(
    name = "ctywire",
    version,
    about = "Terraform / OpenTofu plugin-protocol values: decode, show, convert, check",
    long_about = "Terraform / OpenTofu plugin-protocol values: decode, show, convert, check.\n\n\
        Payloads are the DynamicValue bytes a provider and Terraform exchange: MessagePack \
        (or JSON), typed by the provider's schema. Input can be raw bytes, hex (also a hex \
        dump), base64 or a string with \\x escapes, from files or standard input."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Show a payload readably, in the style of `terraform show`.
    ///
    /// Unknown values read `(known after apply)`, as Terraform prints them (what their
    /// refinements say with --show-refinements); sensitive values are hidden unless
    /// --show-sensitive. The type comes from --type, or from
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
    /// in tfjsonpath's dotted form (`tags.Name`, `disk.0.size`); `.` is the whole value.
    ///
    /// With --to json, a value that is or holds a sensitive value (by --schema) is
    /// refused unless --show-sensitive, since JSON has no way to hide it; errors name
    /// paths within the whole payload.
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
    /// List or show what a plan or a state holds (`terraform show -json` output, or the
    /// state file `terraform.tfstate`).
    ///
    /// Without --address, lists the document's resources: a plan's changes as
    /// `terraform show PLANFILE` summarises them, a state's resource instances as
    /// `terraform state list` does. With --address, shows that resource instance's
    /// value (a plan's planned value, or with --before its value before the change; a
    /// state's value), or with --get the value at one path of it, typed by --schema (a
    /// `providers schema -json` file), --type, the schemas an HCP Terraform redacted
    /// plan embeds, or else by its JSON. Unknown values read `(known after apply)` and
    /// sensitive values (the schema's and the state's) are hidden, as in `show`. With
    /// --diff OTHER, shows what changed from this state to the other, object by object.
    /// A file that is neither a plan nor a state is refused with what it is and what to
    /// run. `plan` and `state` are other names for this command.
    ///
    /// Examples:
    ///
    ///   ctywire document examples/plan/plan.json
    ///
    ///   ctywire plan examples/plan/plan.json --address 'aws_instance.web[0]' --schema examples/plan/schema.json
    ///
    ///   terraform show -json | ctywire state - --address aws_instance.web --deposed 1a2b3c4d
    ///
    ///   ctywire state terraform.tfstate --schema schema.json --address 'aws_instance.web[0]' --get tags
    ///
    ///   ctywire state old.tfstate --diff terraform.tfstate --schema schema.json
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
    /// on standard error (exit status 1) and skipped; the rest is shown. With --diff,
    /// each call shows the change it makes instead of its files (the states a plan, an
    /// apply or a refresh compares), and a call that makes none says so in one line.
    /// --explain says why each call's files were grouped so; --format json gives the
    /// grouping alone (calls, statuses, reasons, files), for programs.
    ///
    /// Examples:
    ///
    ///   ctywire capture tests/data/capture --schema examples/schema/provider.json
    ///
    ///   ctywire capture tests/data/capture --schema examples/schema/provider.json --diff
    ///
    ///   ctywire capture tests/data/capture --schema examples/schema/provider.json --format json
    #[command(verbatim_doc_comment)]
    Capture(capture::CaptureArgs),
    /// Convert a value between MessagePack and JSON (or re-encode it), or to another type.
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
    ///
    /// With --to-type, the value is converted to that type after it is read, by
    /// go-cty's conversion rules (as Terraform converts variables and attributes), and
    /// written as that type:
    ///
    ///   echo '["a", 1, true]' | ctywire convert --type 'tuple([string, number, bool])' --to-type 'set(string)' --from json --to json
    #[command(verbatim_doc_comment)]
    #[command(group(ArgGroup::new("convert_type").required(true).args(["ty", "schema"])))]
    Convert {
        #[command(flatten)]
        typing: Typing,
        /// Convert the value to this type (type JSON or a type expression) and write it
        /// as this type.
        #[arg(long = "to-type", value_name = "TYPE", value_parser = parse_type)]
        to_type: Option<Type>,
        /// The input format.
        #[arg(long, value_enum)]
        from: Format,
        /// The output format.
        #[arg(long, value_enum)]
        to: Format,
        /// MessagePack output is hex text, and so is MessagePack input unless --input
        /// says otherwise (whitespace ignored on input).
        #[arg(long)]
        hex: bool,
        /// How the input is written (default: the bytes themselves, or hex text with
        /// --hex and --from msgpack).
        #[arg(long, value_enum, value_name = "ENCODING")]
        input: Option<Encoding>,
        /// The input file; standard input when absent or `-`.
        file: Option<PathBuf>,
    },
    /// The value Terraform would send a provider for a block of a `.tf.json`
    /// configuration.
    ///
    /// Reads the configuration files (or the `.tf.json` / `.tofu.json` files of the
    /// directories given) and decodes the block at --address with its schema from
    /// --schema, as Terraform decodes the `config` it sends in ValidateResourceConfig,
    /// PlanResourceChange, ReadDataSource or ConfigureProvider: shown like `show`, or
    /// written as the payload with --to. Without --address, lists the blocks found.
    /// Diagnostics are Terraform's, with file, line and column (exit status 1).
    ///
    /// Examples:
    ///
    ///   ctywire config examples/config/instance.tf.json
    ///
    ///   ctywire config examples/config/instance.tf.json --schema examples/schema/provider.json --address cloud_instance.web
    ///
    ///   ctywire config examples/config --schema examples/schema/provider.json --address provider.cloud.us --to msgpack --hex
    #[command(verbatim_doc_comment)]
    Config(config::ConfigArgs),
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
    /// Show the change from one payload to another, as `terraform plan` shows it.
    ///
    /// With --schema and --resource (or --data-source), the change is shown with its
    /// heading (`# aws_instance.this will be updated in-place`); with --provider, the
    /// body alone; with --type, as an attribute's value. Unknowns read `(known after
    /// apply)` (with their refinements under --show-refinements); sensitive values (the schema's, and --sensitive)
    /// read `(sensitive value)`. A file of `-` or an empty file is null. Colour only on
    /// a terminal.
    ///
    /// Example:
    ///
    ///   ctywire diff --schema examples/schema/provider.json --resource cloud_instance --requires-replace image_id examples/payloads/cloud_instance.planned.msgpack examples/payloads/cloud_instance.state.msgpack
    #[command(verbatim_doc_comment)]
    Diff(plan_rules::DiffArgs),
    /// Check a planned state as Terraform does before it accepts a plan.
    ///
    /// Exit 0 when Terraform (or the --client given) would accept it; 1 with each
    /// problem as it reports it ("Provider produced invalid plan"), its path and rule,
    /// when it would not. A prior of `-` or an empty file is null (a create).
    ///
    /// Example:
    ///
    ///   ctywire check-plan --schema examples/schema/provider.json --resource cloud_instance --prior - --config examples/payloads/cloud_instance.config.msgpack --planned examples/payloads/cloud_instance.planned.msgpack
    #[command(verbatim_doc_comment)]
    CheckPlan(plan_rules::CheckPlanArgs),
    /// Check a new state against its plan as Terraform does after apply.
    ///
    /// Exit 0 when Terraform (or the --client given) would accept it; 1 with each
    /// problem as it reports it (unknowns left, write-only values returned, a non-null
    /// object after a destroy, "Provider produced inconsistent result after apply"), its
    /// path and rule, when it would not. A planned state of `-` or an empty file is null
    /// (a destroy).
    ///
    /// Example:
    ///
    ///   ctywire check-apply --schema examples/schema/provider.json --resource cloud_instance --planned examples/payloads/cloud_instance.planned.msgpack --new examples/payloads/cloud_instance.state.msgpack
    #[command(verbatim_doc_comment)]
    CheckApply(plan_rules::CheckApplyArgs),
    /// The proposed new state Terraform sends to PlanResourceChange.
    ///
    /// From the prior state (`-` or an empty file for a create) and the configuration,
    /// by Terraform's rules (its ProposedNew): shown like `show`, or written as the
    /// payload, byte for byte what Terraform sends, with --to.
    ///
    /// Example:
    ///
    ///   ctywire proposed-new --schema examples/schema/provider.json --resource cloud_instance --prior - --config examples/payloads/cloud_instance.config.msgpack --to msgpack --hex
    #[command(verbatim_doc_comment)]
    ProposedNew(plan_rules::ProposedNewArgs),
    /// Check a state returned by ReadResource (a refresh) or an import as Terraform does.
    ///
    /// Exit 0 when Terraform (or the --client given) would accept it; 1 with each
    /// problem as it reports it (unknown values, write-only values returned) when it
    /// would not.
    ///
    /// Example:
    ///
    ///   ctywire check-read --schema examples/schema/provider.json --resource cloud_instance examples/payloads/cloud_instance.state.msgpack
    #[command(verbatim_doc_comment)]
    CheckRead(plan_rules::CheckReadArgs),
    /// Work with test-vector files (format: vectors/README.md).
    Vectors {
        #[command(subcommand)]
        command: VectorsCommand,
    },
    /// Print a shell completion script.
    ///
    /// Examples:
    ///
    ///   ctywire completions bash > ~/.local/share/bash-completion/completions/ctywire
    ///
    ///   ctywire completions zsh > "${fpath[1]}/_ctywire"
    ///
    ///   ctywire completions fish > ~/.config/fish/completions/ctywire.fish
    #[command(verbatim_doc_comment)]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), or write one page per subcommand into a directory.
    ///
    /// Examples:
    ///
    ///   ctywire man | man -l -
    ///
    ///   ctywire man --dir ~/.local/share/man/man1
    #[command(verbatim_doc_comment)]
    Man {
        /// Write `ctywire.1` and a page for each subcommand (`ctywire-show.1`, …) into
        /// DIR instead.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
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
    /// The address of the provider whose schema it is (`registry.terraform.io/hashicorp/aws`).
    provider_source: Option<String>,
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
                provider_source: None,
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
        let provider_source = schemas.providers.iter().find_map(|(address, p)| {
            let holds = std::ptr::eq(&p.provider, schema)
                || p.resource_schemas.values().any(|s| std::ptr::eq(s, schema))
                || p.data_source_schemas
                    .values()
                    .any(|s| std::ptr::eq(s, schema));
            holds.then(|| address.clone())
        });
        Ok(Some(Given {
            ty: schema.implied_type(),
            schema: Some(schema.clone()),
            provider_source,
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
    /// Write the type each payload is decoded with (given or implied) to FILE, one line
    /// per input, as a type expression: the note on an implied type prints only its
    /// start when it is long.
    #[arg(long, value_name = "FILE")]
    type_out: Option<PathBuf>,
}

impl Reading {
    /// The `--type-out` file, created empty.
    fn type_out(&self) -> Result<Option<implied::TypeOut>, Failure> {
        self.type_out
            .as_deref()
            .map(implied::TypeOut::create)
            .transpose()
    }
}

/// How rendered values look.
#[derive(Args)]
struct Rendering {
    /// Show sensitive values.
    #[arg(long)]
    show_sensitive: bool,
    /// Show null attributes as `null` (left out by default, as Terraform leaves them
    /// out).
    #[arg(long)]
    show_null: bool,
    /// Show what unknowns' refinements say (`(known after apply, not null, prefix
    /// "i-")`); by default an unknown reads `(known after apply)`, as Terraform prints it.
    #[arg(long)]
    show_refinements: bool,
    /// When to use colour.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

impl Rendering {
    fn options(&self) -> Options {
        Options::new()
            .show_sensitive(self.show_sensitive)
            .show_null(self.show_null)
            .show_refinements(self.show_refinements)
            .color(self.color.enabled())
    }
}

/// How `get` prints its value.
#[derive(Clone, Copy, ValueEnum)]
enum Output {
    /// As `show` renders values.
    Pretty,
    /// As cty JSON (fails for unknown values, and for sensitive ones without
    /// --show-sensitive).
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum ColorChoice {
    /// Colour when standard output is a terminal and NO_COLOR is unset.
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to colour standard output.
    fn enabled(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        }
    }
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
        Err(f) => ExitCode::from(f.report()),
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
        } => get::get(&path, &typing, &reading, to, &rendering, &files),
        Command::Document(args) => document::run(&args),
        Command::Capture(args) => capture::run(&args),
        Command::Convert {
            typing,
            to_type,
            from,
            to,
            hex,
            input,
            file,
        } => {
            let given = typing
                .resolve()?
                .ok_or_else(|| Failure::usage("give --type or --schema"))?;
            convert(&given.ty, to_type.as_ref(), from, to, hex, input, file)
        }
        Command::Config(args) => config::run(&args),
        Command::Type { text } => type_command(&text),
        Command::Diff(args) => plan_rules::diff(&args),
        Command::CheckPlan(args) => plan_rules::check_plan(&args),
        Command::CheckApply(args) => plan_rules::check_apply(&args),
        Command::CheckRead(args) => plan_rules::check_read(&args),
        Command::ProposedNew(args) => plan_rules::proposed_new(&args),
        Command::Vectors {
            command: VectorsCommand::Check { files },
        } => vectors_check(&files),
        Command::Completions { shell } => manual::completions(shell),
        Command::Man { dir } => manual::man(dir.as_deref()),
    }
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

/// Decodes one input, with the given type or the one its bytes imply, and writes the
/// type to `type_out`.
fn decode_source(
    source: input::Source,
    given: Option<&Given>,
    reading: &Reading,
    type_out: Option<&mut implied::TypeOut>,
) -> Result<Decoded, Failure> {
    let payload = input::payload(&source, reading.input, reading.from)?;
    let (ty, schema) = match given {
        Some(given) => (given.ty.clone(), given.schema.clone()),
        None => (
            implied::implied_type(&payload, &source.name).map_err(|f| payload.explain(f))?,
            None,
        ),
    };
    if let Some(out) = type_out {
        out.write(&ty)?;
    }
    let value =
        decode(&payload, &ty).map_err(|e| payload.explain(Failure::value_in(&source.name, e)))?;
    Ok(Decoded {
        name: source.name,
        value,
        ty,
        schema,
    })
}

fn show(
    typing: &Typing,
    reading: &Reading,
    rendering: &Rendering,
    files: &[PathBuf],
) -> Result<(), Failure> {
    let given = typing.resolve()?;
    let mut type_out = reading.type_out()?;
    for_each_input(files, |source| {
        let d = decode_source(source, given.as_ref(), reading, type_out.as_mut())?;
        let options = rendering.options().sensitive(d.sensitive_paths());
        let mut out = match &d.schema {
            Some(schema) => render::render_block(&d.value, &schema.block, &options),
            None => render::render(&d.value, &d.ty, &options),
        };
        out.push('\n');
        Ok(out)
    })
}

fn convert(
    ty: &Type,
    to_type: Option<&Type>,
    from: Format,
    to: Format,
    hex: bool,
    encoding: Option<Encoding>,
    file: Option<PathBuf>,
) -> Result<(), Failure> {
    let files: Vec<PathBuf> = file.into_iter().collect();
    let source = input::read_sources(&files)?.remove(0);
    let encoding = match (encoding, from, hex) {
        (Some(encoding), _, _) => encoding,
        (None, Format::Msgpack, true) => Encoding::Hex,
        (None, _, _) => Encoding::Raw,
    };
    let payload = input::payload(&source, Some(encoding), Some(from))?;
    if let (Format::Msgpack, Format::Json, None) = (payload.format, to, to_type) {
        // Straight through, with no value tree (the same bytes); a payload it refuses
        // goes the two steps below, for their errors and hints.
        let mut out = Vec::with_capacity(2 * payload.bytes.len() + 1);
        if transcode::msgpack_to_json_into(&payload.bytes, ty, &mut out).is_ok() {
            out.push(b'\n');
            return write_stdout(&out);
        }
    }
    let mut value = decode(&payload, ty).map_err(|e| payload.explain(Failure::value(e)))?;
    drop(payload);
    let ty = match to_type {
        Some(to_type) => {
            value = ctywire::convert::convert(&value, ty, to_type).map_err(Failure::value)?;
            to_type
        }
        None => ty,
    };
    // The output goes where the input was, whose pages the process has already touched,
    // and is written with one call.
    let mut out = source.bytes;
    out.clear();
    match to {
        Format::Msgpack => {
            msgpack::encode_into(&value, ty, &mut out).map_err(Failure::value)?;
            if hex {
                out = input::encode_hex(&out).into_bytes();
            }
        }
        Format::Json => json::encode_into(&value, ty, &mut out).map_err(Failure::value)?,
    };
    if matches!(to, Format::Json) || hex {
        out.push(b'\n');
    }
    write_stdout(&out)?;
    output::skip_freeing(value);
    Ok(())
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
            ctywire_vectors::check(&text).map_err(|e| Failure::input(format!("{name}: {e}")))?;
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

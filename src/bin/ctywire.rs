//! `ctywire`: read, convert and check Terraform plugin-protocol values from a shell.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use ctywire::{json, msgpack, Type, Value};

#[derive(Parser)]
#[command(
    name = "ctywire",
    version,
    about = "Terraform / OpenTofu plugin-protocol values: decode, convert, check"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Convert a value between MessagePack and JSON (or re-encode it in one format).
    ///
    /// Reads FILE, or standard input when FILE is absent or `-`, and writes the value to
    /// standard output: raw MessagePack bytes, or hex text with --hex, or JSON text
    /// (text output ends with a newline).
    ///
    /// Examples:
    ///
    ///   ctywire convert --type 'map(string)' --from json --to msgpack --hex <<< '{"a":"b"}'
    ///
    ///   ctywire convert --type '["list","number"]' --from msgpack --to json --hex <<< '92 01 cb3ff8000000000000'
    ///
    ///   ctywire convert --type 'object({id=string})' --from msgpack --to msgpack state.bin > canonical.bin
    #[command(verbatim_doc_comment)]
    Convert {
        /// The value's type: type JSON (`["list","string"]`) or a type expression
        /// (`list(string)`, `object({a=string, b=optional(number)})`, `any`).
        #[arg(long = "type", value_name = "TYPE", value_parser = parse_type)]
        ty: Type,
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
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// MessagePack, as Terraform sends it.
    Msgpack,
    /// JSON, the protocol's secondary form.
    Json,
}

fn parse_type(s: &str) -> Result<Type, String> {
    s.parse::<Type>().map_err(|e| e.to_string())
}

/// A failure: the message for standard error and the exit code.
struct Failure {
    message: String,
    code: u8,
}

impl Failure {
    /// Bad input: exit 1.
    fn input(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: 1,
        }
    }

    /// A decode or encode error, as `<path>: <message>`.
    fn value(err: ctywire::Error) -> Failure {
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
        Failure::input(format!("{path}: {}{position}", err.message()))
    }
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
        Command::Convert {
            ty,
            from,
            to,
            hex,
            file,
        } => convert(&ty, from, to, hex, file),
    }
}

fn read_input(file: Option<PathBuf>) -> Result<Vec<u8>, Failure> {
    let mut buf = Vec::new();
    match file {
        Some(path) if path.as_os_str() != "-" => {
            buf = std::fs::read(&path)
                .map_err(|e| Failure::input(format!("{}: {e}", path.display())))?;
        }
        _ => {
            std::io::stdin()
                .read_to_end(&mut buf)
                .map_err(|e| Failure::input(format!("standard input: {e}")))?;
        }
    }
    Ok(buf)
}

fn convert(
    ty: &Type,
    from: Format,
    to: Format,
    hex: bool,
    file: Option<PathBuf>,
) -> Result<(), Failure> {
    let input = read_input(file)?;
    let value: Value = match from {
        Format::Msgpack => {
            let bytes = if hex { decode_hex(&input)? } else { input };
            msgpack::decode(&bytes, ty).map_err(Failure::value)?
        }
        Format::Json => json::decode(&input, ty).map_err(Failure::value)?,
    };
    let mut out = match to {
        Format::Msgpack => {
            let bytes = msgpack::encode(&value, ty).map_err(Failure::value)?;
            if hex {
                encode_hex(&bytes).into_bytes()
            } else {
                bytes
            }
        }
        Format::Json => json::encode(&value, ty).map_err(Failure::value)?,
    };
    if matches!(to, Format::Json) || hex {
        out.push(b'\n');
    }
    std::io::stdout()
        .write_all(&out)
        .map_err(|e| Failure::input(format!("standard output: {e}")))
}

fn decode_hex(text: &[u8]) -> Result<Vec<u8>, Failure> {
    let digits: Vec<u8> = text
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    if digits.len() % 2 != 0 {
        return Err(Failure::input("hex input has an odd number of digits"));
    }
    digits
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| {
            std::str::from_utf8(pair)
                .ok()
                .and_then(|s| u8::from_str_radix(s, 16).ok())
                .ok_or_else(|| Failure::input(format!("invalid hex digits at byte {}", 2 * i)))
        })
        .collect()
}

fn encode_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

//! Payloads without a type: the type their bytes imply, with dynamic wrappers read as
//! such, and the note on standard error that says so, kept short.

use std::io::Write;

use ctywire::{json, msgpack, Path, Type};

use crate::input::{Format, Payload};
use crate::{describe, Failure};

/// How much of an implied type the note prints; `--type-out` writes it whole.
const NOTE_TYPE_CHARS: usize = 400;

/// How many wrapper paths the note names.
const NOTE_PATHS: usize = 5;

/// The type `payload`'s bytes imply, reading dynamic wrappers (go-cty's rules would
/// imply no type there), after a note on standard error that says so.
pub fn implied_type(payload: &Payload, name: &str) -> Result<Type, Failure> {
    let (ty, wrappers) = match payload.format {
        Format::Msgpack => msgpack::implied_type_reading_wrappers(&payload.bytes),
        Format::Json => json::implied_type_reading_wrappers(&payload.bytes),
    }
    .map_err(|e| {
        Failure::input(format!(
            "{name}: no type given, and none can be implied from the bytes ({}); use --type or --schema",
            describe(&e)
        ))
    })?;
    let wrappers = match (wrappers.is_empty(), payload.format) {
        (true, _) => String::new(),
        (false, Format::Msgpack) => format!(
            ", reading the [type, value] arrays at {} as dynamic values",
            some_paths(&wrappers)
        ),
        (false, Format::Json) => format!(
            ", reading the {{\"value\": …, \"type\": …}} objects at {} as dynamic values \
             (give --type if they are objects)",
            some_paths(&wrappers)
        ),
    };
    say!(
        "note: {name}: no type given; decoded with the type its bytes imply{wrappers}: {}",
        elided(&ty.to_expr())
    );
    Ok(ty)
}

/// The first few paths, and how many more.
fn some_paths(paths: &[Path]) -> String {
    let shown: Vec<String> = paths.iter().take(NOTE_PATHS).map(Path::to_string).collect();
    let shown = shown.join(", ");
    match paths.len().saturating_sub(NOTE_PATHS) {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
}

/// `text`, or its start and how long it is when it is too long for a note.
fn elided(text: &str) -> String {
    match text.char_indices().nth(NOTE_TYPE_CHARS) {
        None => text.to_owned(),
        Some((end, _)) => format!(
            "{}… ({} characters in all; --type-out FILE writes it whole)",
            &text[..end],
            text.chars().count()
        ),
    }
}

/// Where `--type-out` writes the type of each input, one line each.
pub struct TypeOut(std::fs::File, String);

impl TypeOut {
    /// Creates (or empties) the file.
    pub fn create(path: &std::path::Path) -> Result<TypeOut, Failure> {
        let name = path.display().to_string();
        std::fs::File::create(path)
            .map(|f| TypeOut(f, name.clone()))
            .map_err(|e| Failure::input(format!("{name}: {e}")))
    }

    /// Writes `ty` as a type expression on a line of its own.
    pub fn write(&mut self, ty: &Type) -> Result<(), Failure> {
        writeln!(self.0, "{}", ty.to_expr()).map_err(|e| Failure::input(format!("{}: {e}", self.1)))
    }
}

//! `Diagnostic`s from this crate's errors and checks, each with its attribute path.
//!
//! A summary, detail or function error longer than [`MAX_TEXT_BYTES`] is cut there
//! (with how long it was), so a diagnostic that quotes a value quotes at most an
//! excerpt of it.
//!
//! ```
//! use ctywire::schema::{Attribute, Block};
//! use ctywire::{Path, Type, Value};
//! use ctywire_tfplugin::diagnostic;
//! use ctywire_tfplugin::tfplugin6::diagnostic::Severity;
//!
//! let block = Block::new().attribute("size", Attribute::new(Type::Number).optional().computed());
//! let planned = Value::object([("size", Value::from(1))]);
//! let applied = Value::object([("size", Value::from(2))]);
//! let found = block.check_apply(&planned, &applied);
//! let d = diagnostic::from_inconsistency(&found[0], "Provider produced inconsistent result after apply");
//! assert_eq!(d.severity, Severity::Error as i32);
//! assert_eq!(d.detail, "was 1, but now 2");
//! assert_eq!(ctywire_tfplugin::path::path_from_proto(d.attribute.as_ref().unwrap())?, Path::root().attribute("size"));
//! # Ok::<(), ctywire::Error>(())
//! ```

use ctywire::schema::{Inconsistency, Violation};
use ctywire::{Error, Path};

use crate::path::path_to_proto;
use crate::tfplugin6::diagnostic::Severity;
use crate::tfplugin6::{Diagnostic, FunctionError};

/// The most bytes of a diagnostic's summary or detail, or a function error's text, kept;
/// the rest is cut and the length said.
pub const MAX_TEXT_BYTES: usize = 4096;

/// `text` cut to at most `max` bytes at a character boundary, saying how long it was
/// where it is cut.
pub(crate) fn excerpt(text: String, max: usize) -> String {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes in all)", &text[..end], text.len())
}

/// An error diagnostic, at `path` when it is not the root.
pub fn error(summary: impl Into<String>, detail: impl Into<String>, path: &Path) -> Diagnostic {
    diagnostic(Severity::Error, summary.into(), detail.into(), path)
}

/// A warning diagnostic, at `path` when it is not the root.
pub fn warning(summary: impl Into<String>, detail: impl Into<String>, path: &Path) -> Diagnostic {
    diagnostic(Severity::Warning, summary.into(), detail.into(), path)
}

/// An error diagnostic for `err` at its path: `summary`, then the error's message (and
/// its byte position, when it has one) as the detail.
///
/// ```
/// use ctywire::{msgpack, Type};
/// let err = msgpack::decode(b"\x81\xa4size\xc3", &"object({size=number})".parse()?).unwrap_err();
/// let d = ctywire_tfplugin::diagnostic::from_error(&err, "Invalid planned state");
/// assert_eq!((d.summary.as_str(), d.detail.as_str()), ("Invalid planned state", "expected number, found bool at byte 6"));
/// assert_eq!(d.attribute.unwrap().steps.len(), 1);
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn from_error(err: &Error, summary: &str) -> Diagnostic {
    let text = err.to_string();
    let path = err.path().to_string();
    // The path goes in the attribute, so the detail is the rest of the text.
    let detail = match text.strip_prefix(&path) {
        Some(rest) if !path.is_empty() => rest.trim_start_matches(": ").to_owned(),
        _ => text,
    };
    error(summary, detail, err.path())
}

/// An error diagnostic for a broken plan or apply rule, at its path; the detail is the
/// rule's message with values as this crate renders them.
pub fn from_inconsistency(inconsistency: &Inconsistency, summary: &str) -> Diagnostic {
    error(summary, inconsistency.message.clone(), &inconsistency.path)
}

/// An error diagnostic for a configuration or state check's violation, at its path.
pub fn from_violation(violation: &Violation, summary: &str) -> Diagnostic {
    error(summary, violation.message.clone(), &violation.path)
}

/// A function's error, for `CallFunction`: `text`, about argument `argument` (counted
/// from 0, variadic arguments each their own) when given.
pub fn function_error(text: impl Into<String>, argument: Option<usize>) -> FunctionError {
    FunctionError {
        text: excerpt(text.into(), MAX_TEXT_BYTES),
        function_argument: argument.and_then(|a| i64::try_from(a).ok()),
    }
}

/// Whether any of `diagnostics` is an error.
pub fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error as i32)
}

fn diagnostic(severity: Severity, summary: String, detail: String, path: &Path) -> Diagnostic {
    Diagnostic {
        severity: severity as i32,
        summary: excerpt(summary, MAX_TEXT_BYTES),
        detail: excerpt(detail, MAX_TEXT_BYTES),
        attribute: (!path.is_empty()).then(|| path_to_proto(path)),
    }
}

/// A call's diagnostics, collected as its handler goes: [`Diagnostics::ok`] turns each
/// step's error into a diagnostic with the error's path and lets the handler go on
/// with what it has.
///
/// ```
/// use ctywire::Type;
/// use ctywire_tfplugin::diagnostic::Diagnostics;
/// use ctywire_tfplugin::{dynamic, tfplugin6::DynamicValue};
///
/// let ty: Type = "object({size=number})".parse()?;
/// let config = DynamicValue { msgpack: Default::default(), json: br#"{"size":true}"#.to_vec().into() };
/// let mut diagnostics = Diagnostics::new();
/// let value = diagnostics.ok(dynamic::decode(Some(&config), &ty), "Invalid configuration");
/// assert!(value.is_none() && diagnostics.has_errors());
/// let list = diagnostics.into_vec();
/// assert_eq!(list[0].attribute.as_ref().unwrap().steps.len(), 1); // .size
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Diagnostics(Vec<Diagnostic>);

impl Diagnostics {
    /// No diagnostics yet.
    pub fn new() -> Diagnostics {
        Diagnostics::default()
    }

    /// `result`'s value, or `None` with its error as a diagnostic headed `summary`.
    pub fn ok<T>(&mut self, result: Result<T, Error>, summary: &str) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(e) => {
                self.0.push(from_error(&e, summary));
                None
            }
        }
    }

    /// Adds a diagnostic.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.0.push(diagnostic);
    }

    /// Whether any of them is an error.
    pub fn has_errors(&self) -> bool {
        has_errors(&self.0)
    }

    /// The diagnostics, for the response.
    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.0
    }
}

#[cfg(test)]
mod bounded {
    use ctywire::schema::check_value_compatible;
    use ctywire::{Path, Type, Value};

    use super::{error, excerpt, from_inconsistency, function_error, MAX_TEXT_BYTES};

    #[test]
    fn texts_are_cut_to_an_excerpt() {
        assert_eq!(excerpt("short".into(), 10), "short");
        assert_eq!(excerpt("aé".into(), 2), "a... (3 bytes in all)");
        let long = "x".repeat(100_000);
        let d = error(long.clone(), long.clone(), &Path::root());
        for text in [&d.summary, &d.detail] {
            assert!(
                text.ends_with("... (100000 bytes in all)"),
                "{}",
                &text[4000..]
            );
            assert!(text.len() < MAX_TEXT_BYTES + 32);
        }
        assert!(function_error(long, None).text.len() < MAX_TEXT_BYTES + 32);
    }

    /// A rule broken by a large value quotes only the start of it.
    #[test]
    fn an_inconsistency_quotes_an_excerpt_of_its_value() {
        let planned = Value::from("a");
        let actual = Value::from("b".repeat(1 << 20));
        let found = check_value_compatible(&planned, &actual, &Type::String);
        let d = from_inconsistency(
            &found[0],
            "Provider produced inconsistent result after apply",
        );
        assert!(
            d.detail.starts_with("was ") && d.detail.contains("bbbb"),
            "{}",
            &d.detail[..100]
        );
        assert!(d.detail.len() < MAX_TEXT_BYTES + 32, "{}", d.detail.len());
    }
}

//! What handlers return when they fail: [`Error`] (one or more diagnostics, each with
//! an attribute path), and [`FunctionError`] for functions.

use std::fmt;

use ctywire::Path;

/// How bad a [`Diagnostic`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// Terraform stops the operation.
    Error,
    /// Terraform shows it and goes on.
    Warning,
}

/// A message for Terraform to show: a summary line, a detail, and the attribute it is
/// about ([`Path::root`] for the whole object).
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The one-line summary.
    pub summary: String,
    /// The longer explanation (may be empty).
    pub detail: String,
    /// The attribute the diagnostic is about.
    pub path: Path,
}

impl Diagnostic {
    /// An error diagnostic about the whole object.
    pub fn error(summary: impl Into<String>, detail: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            summary: summary.into(),
            detail: detail.into(),
            path: Path::root(),
        }
    }

    /// A warning diagnostic about the whole object.
    pub fn warning(summary: impl Into<String>, detail: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(summary, detail)
        }
    }

    /// The same diagnostic about the attribute at `path`: a [`Path`], or a typed path
    /// (`Thing::path().size()`, see [`ctywire::object::PathBuilder`]).
    pub fn at(mut self, path: impl Into<Path>) -> Diagnostic {
        self.path = path.into();
        self
    }

    /// The protocol's message.
    pub(crate) fn to_proto(&self) -> ctywire_tfplugin::tfplugin6::Diagnostic {
        match self.severity {
            Severity::Error => {
                ctywire_tfplugin::diagnostic::error(&*self.summary, &*self.detail, &self.path)
            }
            Severity::Warning => {
                ctywire_tfplugin::diagnostic::warning(&*self.summary, &*self.detail, &self.path)
            }
        }
    }
}

/// Why a handler failed: one or more diagnostics (at least one an error), each with
/// its path. Any error type converts with `?`: its message is the summary, its sources
/// the detail; a [`ctywire::Error`] keeps its attribute path.
///
/// ```
/// use ctywire::Path;
/// use ctywire_provider::Error;
///
/// let e = Error::new("Cannot create server", "the name is taken").at(Path::root().attribute("name"));
/// assert_eq!(e.diagnostics()[0].path.to_string(), ".name");
///
/// // A typed path: a misspelled attribute does not compile.
/// #[derive(ctywire::Object)]
/// struct Server {
///     #[cty(required)]
///     name: String,
///     #[cty(block)]
///     disk: Vec<Disk>,
/// }
/// #[derive(ctywire::Object)]
/// struct Disk {
///     #[cty(required)]
///     size: u32,
/// }
/// let e = Error::new("Disk too small", "at least 10 GB").at(Server::path().disk().index(1).size());
/// assert_eq!(e.diagnostics()[0].path.to_string(), ".disk[1].size");
///
/// fn parse(text: &str) -> Result<u32, Error> {
///     Ok(text.parse::<u32>()?)
/// }
/// assert_eq!(parse("x").unwrap_err().diagnostics()[0].summary, "invalid digit found in string");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    diagnostics: Vec<Diagnostic>,
}

impl Error {
    /// An error about the whole object.
    pub fn new(summary: impl Into<String>, detail: impl Into<String>) -> Error {
        Error {
            diagnostics: vec![Diagnostic::error(summary, detail)],
        }
    }

    /// The error with its (first) diagnostic about the attribute at `path`: a
    /// [`Path`], or a typed path (`Thing::path().size()`; one with an `any()` stops
    /// there, at the collection).
    pub fn at(mut self, path: impl Into<Path>) -> Error {
        if let Some(first) = self.diagnostics.first_mut() {
            first.path = path.into();
        }
        self
    }

    /// The error with one more diagnostic (an error or a warning).
    pub fn and(mut self, diagnostic: Diagnostic) -> Error {
        self.diagnostics.push(diagnostic);
        self
    }

    /// Its diagnostics.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Its diagnostics, by value.
    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.diagnostics
    }

    /// A codec or schema error, at its path, headed `summary`.
    pub(crate) fn value(e: &ctywire::Error, summary: &str) -> Error {
        let proto = ctywire_tfplugin::diagnostic::from_error(e, summary);
        Error::new(summary, proto.detail).at(e.path().clone())
    }
}

impl<E: std::error::Error + 'static> From<E> for Error {
    fn from(e: E) -> Error {
        if let Some(e) = (&e as &dyn std::any::Any).downcast_ref::<ctywire::Error>() {
            return Error::value(e, "Invalid value");
        }
        let mut detail = Vec::new();
        let mut source = e.source();
        while let Some(s) = source {
            detail.push(s.to_string());
            source = s.source();
        }
        Error::new(e.to_string(), detail.join(": "))
    }
}

/// A result of a handler.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Why a function call failed: a message Terraform shows, and the argument it is about
/// (counted from 0) when it is about one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionError {
    /// The message.
    pub text: String,
    /// The argument it is about.
    pub argument: Option<usize>,
}

impl FunctionError {
    /// An error about the call as a whole.
    pub fn new(text: impl Into<String>) -> FunctionError {
        FunctionError {
            text: text.into(),
            argument: None,
        }
    }

    /// The error about argument `index` (counted from 0).
    pub fn argument(mut self, index: usize) -> FunctionError {
        self.argument = Some(index);
        self
    }
}

impl fmt::Display for FunctionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl<E: std::error::Error> From<E> for FunctionError {
    fn from(e: E) -> FunctionError {
        FunctionError::new(e.to_string())
    }
}

//! Errors: what went wrong, where in the value, and where in the input.

use std::fmt;

use crate::path::{Path, PathStep};

/// The error type of every fallible operation in this crate.
///
/// An error has a [kind](ErrorKind), a message in the form "expected X, found Y" where
/// that fits, the [path](Path) of the value being read or written, and, when reading, a
/// [position](Position) in the input: a byte offset for MessagePack, a line and column
/// for JSON.
///
/// ```
/// use ctywire::{msgpack, ErrorKind, Type};
///
/// let ty = Type::object([("size", Type::Number)]);
/// let err = msgpack::decode(&[0x81, 0xa4, b's', b'i', b'z', b'e', 0xc3], &ty).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::TypeMismatch);
/// assert_eq!(err.path().to_string(), ".size");
/// assert_eq!(err.to_string(), ".size: expected number, found bool at byte 6");
/// ```
#[derive(Clone, PartialEq)]
pub struct Error(Box<Inner>);

/// The error's fields, boxed so that `Result<Value, Error>` stays small: decoders
/// recurse, and every frame holds a few of them.
#[derive(Clone, Debug, PartialEq)]
struct Inner {
    kind: ErrorKind,
    message: String,
    path: Path,
    position: Option<Position>,
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

/// What kind of problem an [`Error`] reports.
///
/// More kinds may come, so a `match` needs a `_` arm.
///
/// ```
/// use ctywire::{json, msgpack, ErrorKind, Type};
///
/// let kind = |r: ctywire::Result<ctywire::Value>| r.unwrap_err().kind();
/// assert_eq!(kind(msgpack::decode(b"\x92\x01", &Type::list(Type::Number))), ErrorKind::UnexpectedEof);
/// assert_eq!(kind(json::decode(b"[1,", &Type::list(Type::Number))), ErrorKind::UnexpectedEof);
/// assert_eq!(kind(json::decode(b"[1 2]", &Type::list(Type::Number))), ErrorKind::Syntax);
/// assert_eq!(kind(json::decode(b"[true]", &Type::Bool)), ErrorKind::TypeMismatch);
/// assert_eq!(kind(msgpack::decode(b"\xa1x\x00", &Type::String)), ErrorKind::InvalidValue);
/// let deep = [vec![0x91; 200], vec![0xc0]].concat(); // 200 nested arrays
/// assert_eq!(msgpack::implied_type(&deep).unwrap_err().kind(), ErrorKind::LimitExceeded);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended in the middle of a value.
    UnexpectedEof,
    /// The input is not well-formed MessagePack, JSON, type JSON or type expression.
    Syntax,
    /// The input is well-formed but holds a different kind of value than the type asks
    /// for.
    TypeMismatch,
    /// The input has the right shape but an invalid value: NaN, invalid UTF-8, a
    /// duplicate key, a malformed refinement, an unknown attribute, trailing data.
    InvalidValue,
    /// The input exceeds a decoding limit (see [`limits`](crate::limits)).
    LimitExceeded,
    /// A value cannot be written with the given type or in the chosen format: an unknown
    /// or an infinity in JSON, a value that does not conform to the type.
    Unencodable,
    /// A name looked up in provider schemas (a resource type, data source or provider)
    /// is not there, or names more than one.
    NotFound,
}

/// Where in the input an error was found.
///
/// ```
/// use ctywire::{json, msgpack, Position, Type};
///
/// let err = msgpack::decode(b"\x92\x01\xa1x", &Type::list(Type::Number)).unwrap_err();
/// assert_eq!(err.position(), Some(Position::Offset(2)));
/// let err = json::decode(b"[1,\n \"x\"]", &Type::list(Type::Number)).unwrap_err();
/// assert_eq!(err.position(), Some(Position::LineColumn { line: 2, column: 2 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    /// A byte offset from the start of a MessagePack payload (or other binary input).
    Offset(usize),
    /// A line and column (both from 1, the column counted in bytes) in a text input.
    LineColumn {
        /// Line number, from 1.
        line: usize,
        /// Column in bytes, from 1.
        column: usize,
    },
}

impl Error {
    /// An error of `kind` with `message` at the root path and no position.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error(Box::new(Inner {
            kind,
            message: message.into(),
            path: Path::root(),
            position: None,
        }))
    }

    /// A [`TypeMismatch`](ErrorKind::TypeMismatch): "expected {expected}, found {found}".
    pub(crate) fn mismatch(expected: impl fmt::Display, found: impl fmt::Display) -> Error {
        Error::new(
            ErrorKind::TypeMismatch,
            format!("expected {expected}, found {found}"),
        )
    }

    /// An [`InvalidValue`](ErrorKind::InvalidValue) for a number an integer type of Rust
    /// does not hold (beyond its range, or not an integer), the one wording of the serde
    /// bridge and the typed codec: `expected u8 (an integer from 0 to 255), found 256`.
    #[cold]
    pub(crate) fn integer_range(
        name: &str,
        least: impl fmt::Display,
        greatest: impl fmt::Display,
        found: impl fmt::Display,
    ) -> Error {
        Error::new(
            ErrorKind::InvalidValue,
            format!("expected {name} (an integer from {least} to {greatest}), found {found}"),
        )
    }

    /// An [`InvalidValue`](ErrorKind::InvalidValue) for an element of a collection of
    /// `dynamic` whose concrete type `found` differs from an earlier element's, `earlier`.
    pub(crate) fn mixed_collection(
        found: &impl fmt::Display,
        earlier: &impl fmt::Display,
    ) -> Error {
        Error::new(
            ErrorKind::InvalidValue,
            format!(
                "collection elements must all have one type: this one is {found}, an earlier one is {earlier}"
            ),
        )
    }

    /// An [`Unencodable`](ErrorKind::Unencodable) error.
    pub(crate) fn unencodable(message: String) -> Error {
        Error::new(ErrorKind::Unencodable, message)
    }

    /// An [`UnexpectedEof`](ErrorKind::UnexpectedEof) error.
    pub(crate) fn eof(expected: impl fmt::Display) -> Error {
        Error::new(
            ErrorKind::UnexpectedEof,
            format!("expected {expected}, found end of input"),
        )
    }

    /// What kind of error this is.
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }

    /// The message, without path or position.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The path of the value where the error was found.
    ///
    /// ```
    /// use ctywire::{json, Path, Type};
    ///
    /// let ty: Type = "object({disk=list(object({size=number}))})".parse()?;
    /// let err = json::decode(br#"{"disk": [{"size": 1}, {"size": [2]}]}"#, &ty).unwrap_err();
    /// assert_eq!(err.path(), &Path::root().attribute("disk").index(1).attribute("size"));
    /// assert_eq!(err.message(), "expected number, found array");
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn path(&self) -> &Path {
        &self.0.path
    }

    /// Where in the input the error was found, if it was found while reading.
    pub fn position(&self) -> Option<Position> {
        self.0.position
    }

    /// Sets the position, unless one is set already.
    pub(crate) fn at_position(mut self, position: Position) -> Error {
        self.0.position.get_or_insert(position);
        self
    }

    /// This error with `path` put in front of its path: an error made at the root (as by
    /// [`Error::new`]) gets `path`, and one whose path leads from a part of a value gets
    /// the part's path in front. For code that checks values and reports its own errors.
    ///
    /// ```
    /// use ctywire::{Error, ErrorKind, Path};
    ///
    /// let err = Error::new(ErrorKind::InvalidValue, "expected a port number, found 70000");
    /// let err = err.at(&Path::root().attribute("ports").index(2));
    /// assert_eq!(err.to_string(), ".ports[2]: expected a port number, found 70000");
    /// let err = err.at(&Path::root().attribute("listener"));
    /// assert_eq!(err.path().to_string(), ".listener.ports[2]");
    /// ```
    pub fn at(mut self, path: &Path) -> Error {
        if !path.is_empty() {
            self.0.path = path.join(&self.0.path);
        }
        self
    }

    /// Replaces the kind.
    pub(crate) fn with_kind(mut self, kind: ErrorKind) -> Error {
        self.0.kind = kind;
        self
    }

    /// Replaces the position.
    pub(crate) fn with_position(mut self, position: Position) -> Error {
        self.0.position = Some(position);
        self
    }

    /// Sets the byte offset, unless a position is set already.
    pub(crate) fn at_offset(self, offset: usize) -> Error {
        self.at_position(Position::Offset(offset))
    }

    /// Puts `step` in front of the path: called by each level as the error travels up.
    pub(crate) fn in_step(mut self, step: PathStep) -> Error {
        self.0.path.prepend(step);
        self
    }

    /// [`in_step`](Self::in_step) with an attribute step.
    pub(crate) fn in_attribute(self, name: &str) -> Error {
        self.in_step(PathStep::Attribute(name.to_owned()))
    }

    /// [`in_step`](Self::in_step) with an index step.
    pub(crate) fn in_index(self, index: usize) -> Error {
        self.in_step(PathStep::Index(index as u64))
    }

    /// [`in_step`](Self::in_step) with a map-key step.
    pub(crate) fn in_key(self, key: &str) -> Error {
        self.in_step(PathStep::Key(key.to_owned()))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.0.path.is_empty() {
            write!(f, "{}: ", self.0.path)?;
        }
        f.write_str(&self.0.message)?;
        match self.0.position {
            Some(Position::Offset(o)) => write!(f, " at byte {o}"),
            Some(Position::LineColumn { line, column }) => {
                write!(f, " at line {line} column {column}")
            }
            None => Ok(()),
        }
    }
}

impl std::error::Error for Error {}

/// The result type of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

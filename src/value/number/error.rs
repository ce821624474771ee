//! [`NumberError`]: why text or a float could not become a number.

use super::*;

/// Why text or a float could not become a [`Number`].
///
/// ```
/// use ctywire::Number;
///
/// let err = Number::parse("12,5").unwrap_err();
/// assert_eq!(err.to_string(), r#"invalid number "12,5""#);
/// assert!(!err.is_limit_exceeded());
/// assert!(Number::parse("1e100000").unwrap_err().is_limit_exceeded());
/// assert_eq!(Number::try_from(f64::NAN).unwrap_err().to_string(), "NaN is not a number");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberError {
    kind: ErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum ErrorKind {
    NaN,
    Invalid(String),
    TextTooLong,
    TooLong(String),
    BinaryExponent(String),
}

/// How many bytes of offending text an error message quotes.
const QUOTED_TEXT: usize = 40;

impl NumberError {
    /// Whether the text was refused for its size (longer than [`MAX_NUMBER_TEXT`] bytes,
    /// or a value too long in plain decimal form) rather than for its syntax or NaN.
    pub fn is_limit_exceeded(&self) -> bool {
        matches!(
            self.kind,
            ErrorKind::TextTooLong | ErrorKind::TooLong(_) | ErrorKind::BinaryExponent(_)
        )
    }

    pub(super) fn nan() -> Self {
        NumberError {
            kind: ErrorKind::NaN,
        }
    }

    pub(super) fn invalid(text: &str) -> Self {
        NumberError {
            kind: ErrorKind::Invalid(quoted_prefix(text)),
        }
    }

    pub(super) fn text_too_long() -> Self {
        NumberError {
            kind: ErrorKind::TextTooLong,
        }
    }

    pub(super) fn too_long(text: &str) -> Self {
        NumberError {
            kind: ErrorKind::TooLong(quoted_prefix(text)),
        }
    }

    pub(super) fn binary_exponent(text: &str) -> Self {
        NumberError {
            kind: ErrorKind::BinaryExponent(quoted_prefix(text)),
        }
    }
}

/// The start of `text`, cut on a character boundary, with `...` when cut.
fn quoted_prefix(text: &str) -> String {
    if text.len() <= QUOTED_TEXT {
        return text.to_owned();
    }
    let mut end = QUOTED_TEXT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}

impl fmt::Display for NumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::NaN => f.write_str("NaN is not a number"),
            ErrorKind::Invalid(text) => write!(f, "invalid number {text:?}"),
            ErrorKind::TextTooLong => {
                write!(f, "number text longer than {MAX_NUMBER_TEXT} bytes")
            }
            ErrorKind::TooLong(text) => write!(
                f,
                "number {text:?} is longer than {MAX_NUMBER_TEXT} bytes in plain decimal form"
            ),
            ErrorKind::BinaryExponent(text) => write!(
                f,
                "number {text:?} has a binary exponent beyond the limit of \
                 {MAX_BINARY_EXPONENT} in magnitude"
            ),
        }
    }
}

impl std::error::Error for NumberError {}

/// A number's error as the crate's [`Error`](crate::Error): of kind
/// [`LimitExceeded`](crate::ErrorKind::LimitExceeded) where the text was refused for its
/// size, [`InvalidValue`](crate::ErrorKind::InvalidValue) otherwise.
///
/// ```
/// use ctywire::{ErrorKind, Number};
///
/// let err = ctywire::Error::from(Number::parse("1e100000").unwrap_err());
/// assert_eq!(err.kind(), ErrorKind::LimitExceeded);
/// let err = ctywire::Error::from(Number::parse("12,5").unwrap_err());
/// assert_eq!(err.kind(), ErrorKind::InvalidValue);
/// assert_eq!(err.to_string(), r#"invalid number "12,5""#);
/// ```
impl From<NumberError> for crate::Error {
    fn from(e: NumberError) -> crate::Error {
        let kind = if e.is_limit_exceeded() {
            crate::ErrorKind::LimitExceeded
        } else {
            crate::ErrorKind::InvalidValue
        };
        crate::Error::new(kind, e.to_string())
    }
}

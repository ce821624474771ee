//! A JSON token reader: a cursor over a byte slice that hands out one token at a time.
//!
//! Every JSON decoder in the crate (type JSON, the typed value decoder) drives a
//! [`Reader`] type-first: it asks what kind of value comes next ([`Reader::peek_kind`]),
//! then reads exactly that. No tree is built.
//!
//! The grammar is RFC 8259's, with `encoding/json`'s leniency inside strings: invalid
//! UTF-8 bytes and unpaired surrogate escapes become U+FFFD, as in Go. Raw control
//! characters inside strings are syntax errors, as in Go. Strings are returned exactly as
//! written (no Unicode normalization; the value layer does that).

use std::borrow::Cow;

use crate::error::{Error, ErrorKind, Result};
use crate::limits::MAX_DEPTH;

/// The kind of the next JSON value, as seen from its first byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `null`
    Null,
    /// `true` or `false`
    Bool,
    /// A number literal.
    Number,
    /// A string.
    String,
    /// `[...]`
    Array,
    /// `{...}`
    Object,
}

impl Kind {
    /// The kind with an article, for "expected X, found Y" messages: `null`, `a bool`,
    /// `a number`, `a string`, `an array`, `an object`.
    pub(crate) fn described(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "a bool",
            Kind::Number => "a number",
            Kind::String => "a string",
            Kind::Array => "an array",
            Kind::Object => "an object",
        }
    }
}

/// A cursor over JSON text.
///
/// Containers are read with [`begin_array`](Reader::begin_array) followed by a loop
/// over [`next_element`](Reader::next_element), and [`begin_object`](Reader::begin_object)
/// followed by a loop over [`next_key`](Reader::next_key); each element or member value
/// is read (or [skipped](Reader::skip_value)) between two calls of the loop method. The
/// loop method must be the next call after `begin_array` / `begin_object`.
///
/// ```text
/// reader.begin_array()?;
/// while reader.next_element()? {
///     let s = reader.read_string()?;
/// }
/// reader.begin_object()?;
/// while let Some(key) = reader.next_key()? {
///     reader.skip_value()?;
/// }
/// reader.finish()?;
/// ```
///
/// Every error carries the byte offset of the offending byte; [`line_column`] turns it
/// into a line and column.
#[derive(Clone, Debug)]
pub(crate) struct Reader<'a> {
    input: &'a [u8],
    /// The whole input as text, when it was checked to be UTF-8 up front: then strings
    /// are slices of it and need no check of their own.
    text: Option<&'a str>,
    pos: usize,
    /// Set by `begin_array` / `begin_object`: the next `next_element` / `next_key` is
    /// the container's first, so no `,` is expected before it.
    first: bool,
}

/// What a byte means inside a string: [`PLAIN`] bytes need no attention.
const PLAIN: u8 = 0;
const QUOTE: u8 = 1;
const BACKSLASH: u8 = 2;
const CONTROL: u8 = 3;

static STRING_CLASS: [u8; 256] = {
    let mut table = [PLAIN; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = CONTROL;
        b += 1;
    }
    table[b'"' as usize] = QUOTE;
    table[b'\\' as usize] = BACKSLASH;
    table
};

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of the 8-byte word `w` (little-endian) that may be `"`,
/// `\` or below 0x20. Bytes above a flagged one may be flagged falsely (borrows
/// propagate upwards), but the lowest flagged byte is always a special one, and no
/// special byte goes unflagged.
#[inline]
fn string_special_mask(w: u64) -> u64 {
    let quote = w ^ (ONES * u64::from(b'"'));
    let backslash = w ^ (ONES * u64::from(b'\\'));
    let zero_quote = quote.wrapping_sub(ONES) & !quote;
    let zero_backslash = backslash.wrapping_sub(ONES) & !backslash;
    let control = w.wrapping_sub(ONES * 0x20) & !w;
    (zero_quote | zero_backslash | control) & HIGHS
}

/// The offset of the first byte at or after `i` that is not JSON whitespace.
#[inline]
fn whitespace_end(input: &[u8], i: usize) -> usize {
    match input.get(i) {
        Some(b' ' | b'\n' | b'\r' | b'\t') => whitespace_run_end(input, i),
        _ => i,
    }
}

/// The offset of the first `"`, `\\` or control byte at or after `i` (or of the last
/// few bytes, fewer than eight, when there is none before them), looked for sixteen
/// bytes at a time in long runs.
#[inline]
fn plain_run_end(input: &[u8], mut i: usize) -> usize {
    let word = |chunk: &[u8]| {
        let mut w = [0u8; 8];
        w.copy_from_slice(chunk);
        string_special_mask(u64::from_le_bytes(w))
    };
    while let Some(chunk) = input.get(i..i + 16) {
        let (low, high) = (word(&chunk[..8]), word(&chunk[8..]));
        if low | high != 0 {
            // The lowest flagged byte is exact: skip the plain bytes before it.
            return i + if low != 0 {
                (low.trailing_zeros() / 8) as usize
            } else {
                8 + (high.trailing_zeros() / 8) as usize
            };
        }
        i += 16;
    }
    if let Some(chunk) = input.get(i..i + 8) {
        let mask = word(chunk);
        if mask != 0 {
            return i + (mask.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i
}

/// [`whitespace_end`] of a run of whitespace: runs of spaces (the indentation of
/// pretty-printed JSON) are skipped up to eight bytes at a time.
#[inline(never)]
fn whitespace_run_end(input: &[u8], mut i: usize) -> usize {
    const SPACES: u64 = u64::from_le_bytes(*b"        ");
    loop {
        match input.get(i) {
            Some(b' ') if input.get(i..i + 16) == Some(&[b' '; 16]) => i += 16,
            Some(b' ') => match input.get(i..i + 8) {
                Some(chunk) => {
                    let mut word = [0u8; 8];
                    word.copy_from_slice(chunk);
                    let other = u64::from_le_bytes(word) ^ SPACES;
                    // The spaces before the first other byte: all eight when there is none.
                    i += if other == 0 {
                        8
                    } else {
                        (other.trailing_zeros() / 8) as usize
                    };
                }
                None => i += 1,
            },
            Some(b'\n' | b'\r' | b'\t') => i += 1,
            _ => return i,
        }
    }
}

impl<'a> Reader<'a> {
    /// A reader positioned at the start of `input`.
    pub(crate) fn new(input: &'a [u8]) -> Reader<'a> {
        Reader {
            input,
            text: None,
            pos: 0,
            first: false,
        }
    }

    /// A reader that checks the whole of `input` as UTF-8 once, up front (a fast,
    /// word-at-a-time pass), so that reading a string needs no check of its own. Input
    /// that is not UTF-8 throughout is read as by [`Reader::new`], which reports the
    /// offending string.
    pub(crate) fn new_checked(input: &'a [u8]) -> Reader<'a> {
        Reader {
            text: std::str::from_utf8(input).ok(),
            ..Reader::new(input)
        }
    }

    /// The byte offset of the next unread byte.
    pub(crate) fn offset(&self) -> usize {
        self.pos
    }

    /// Moves to byte `offset` (clamped to the input's length), e.g. to come back to a
    /// value skipped earlier. It should be the start of a value, or whitespace before one.
    pub(crate) fn seek(&mut self, offset: usize) {
        self.pos = offset.min(self.input.len());
        self.first = false;
    }

    /// The whole input.
    #[allow(dead_code)] // for the JSON value decoder
    pub(crate) fn input(&self) -> &'a [u8] {
        self.input
    }

    /// Skips JSON whitespace: space, tab, line feed and carriage return.
    #[inline]
    pub(crate) fn skip_whitespace(&mut self) {
        self.pos = whitespace_end(self.input, self.pos);
    }

    /// Skips whitespace and returns the next byte without consuming it.
    #[inline]
    fn peek_byte(&mut self) -> Option<u8> {
        self.skip_whitespace();
        self.input.get(self.pos).copied()
    }

    /// Skips whitespace and says what kind of value comes next.
    pub(crate) fn peek_kind(&mut self) -> Result<Kind> {
        match self.peek_byte() {
            Some(b'n') => Ok(Kind::Null),
            Some(b't' | b'f') => Ok(Kind::Bool),
            Some(b'-' | b'0'..=b'9') => Ok(Kind::Number),
            Some(b'"') => Ok(Kind::String),
            Some(b'[') => Ok(Kind::Array),
            Some(b'{') => Ok(Kind::Object),
            _ => Err(self.unexpected("a JSON value")),
        }
    }

    /// Whether only whitespace is left.
    pub(crate) fn at_end(&mut self) -> bool {
        self.peek_byte().is_none()
    }

    /// Skips trailing whitespace and fails if anything else is left.
    ///
    /// go-cty ignores data after the first value; this crate refuses it.
    pub(crate) fn finish(&mut self) -> Result<()> {
        if self.at_end() {
            Ok(())
        } else {
            Err(Error::new(
                ErrorKind::InvalidValue,
                format!(
                    "unexpected data after the JSON value: found {}",
                    self.describe_next()
                ),
            )
            .at_offset(self.pos))
        }
    }

    /// Reads `null`.
    pub(crate) fn read_null(&mut self) -> Result<()> {
        self.skip_whitespace();
        self.literal(b"null")
    }

    /// Reads `true` or `false`.
    pub(crate) fn read_bool(&mut self) -> Result<bool> {
        match self.peek_byte() {
            Some(b't') => self.literal(b"true").map(|()| true),
            Some(b'f') => self.literal(b"false").map(|()| false),
            _ => Err(self.unexpected("`true` or `false`")),
        }
    }

    /// Reads the literal `lit` at the current position (whitespace already skipped).
    fn literal(&mut self, lit: &'static [u8]) -> Result<()> {
        let start = self.pos;
        let expected = || format!("`{}`", String::from_utf8_lossy(lit));
        if self.input.get(start) != lit.first() {
            return Err(self.unexpected(&expected()));
        }
        for (i, &want) in lit.iter().enumerate() {
            match self.input.get(start + i) {
                Some(&b) if b == want => {}
                Some(_) => {
                    // Show the whole malformed word, e.g. `nul1` or `tru`.
                    let end = self.input[start..]
                        .iter()
                        .take(24)
                        .position(|b| !b.is_ascii_alphanumeric())
                        .unwrap_or_else(|| (self.input.len() - start).min(24));
                    let word = String::from_utf8_lossy(&self.input[start..start + end]);
                    return Err(
                        syntax(format!("expected {}, found `{word}`", expected())).at_offset(start)
                    );
                }
                None => return Err(Error::eof(expected()).at_offset(start + i)),
            }
        }
        self.pos = start + lit.len();
        Ok(())
    }

    /// Reads a number and returns its exact text, validated against RFC 8259's grammar:
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    pub(crate) fn read_number(&mut self) -> Result<&'a str> {
        self.skip_whitespace();
        let input = self.input;
        let start = self.pos;
        let mut i = start;
        if input.get(i) == Some(&b'-') {
            i += 1;
        }
        match input.get(i) {
            Some(b'0') => {
                i += 1;
                if input.get(i).is_some_and(u8::is_ascii_digit) {
                    return Err(
                        syntax("invalid number: leading zeros are not allowed").at_offset(i)
                    );
                }
            }
            Some(b'1'..=b'9') => i = digits_end(input, i + 1),
            _ if i > start => {
                self.pos = i;
                return Err(self.unexpected("a digit after `-`"));
            }
            _ => return Err(self.unexpected("a number")),
        }
        if input.get(i) == Some(&b'.') {
            i += 1;
            if !input.get(i).is_some_and(u8::is_ascii_digit) {
                self.pos = i;
                return Err(self.unexpected("a digit after the decimal point"));
            }
            i = digits_end(input, i + 1);
        }
        if let Some(b'e' | b'E') = input.get(i) {
            i += 1;
            if let Some(b'+' | b'-') = input.get(i) {
                i += 1;
            }
            if !input.get(i).is_some_and(u8::is_ascii_digit) {
                self.pos = i;
                return Err(self.unexpected("a digit in the exponent"));
            }
            i = digits_end(input, i + 1);
        }
        self.pos = i;
        // The bytes are ASCII by construction, so this cannot fail.
        std::str::from_utf8(&input[start..i]).map_err(|_| syntax("invalid number").at_offset(start))
    }

    /// Reads a string and returns its contents, unescaped.
    ///
    /// Borrows from the input when the string has no escapes. Invalid UTF-8 is an error
    /// (a deliberate difference: Go replaces it with U+FFFD); an unpaired surrogate
    /// escape becomes U+FFFD, as in Go.
    pub(crate) fn read_string(&mut self) -> Result<Cow<'a, str>> {
        let scan = self.scan_string()?;
        let raw = &self.input[scan.start..scan.end];
        // Both ends are next to a `"`, so they are character boundaries of `text`.
        let text = match self.text.and_then(|t| t.get(scan.start..scan.end)) {
            Some(text) => text,
            None => std::str::from_utf8(raw).map_err(|e| {
                Error::new(ErrorKind::InvalidValue, "invalid UTF-8 in string")
                    .at_offset(scan.start + e.valid_up_to())
            })?,
        };
        if scan.escaped {
            Ok(Cow::Owned(unescape(raw)))
        } else {
            Ok(Cow::Borrowed(text))
        }
    }

    /// Validates the string at the current position (after whitespace) and moves past it.
    fn scan_string(&mut self) -> Result<StringScan> {
        if self.peek_byte() != Some(b'"') {
            return Err(self.unexpected("a string"));
        }
        let input = self.input;
        let start = self.pos + 1;
        let mut i = start;
        let mut escaped = false;
        loop {
            // Fast path: sixteen, then eight plain bytes at a time.
            i = plain_run_end(input, i);
            // Byte by byte up to and including the next special byte.
            loop {
                let Some(&b) = input.get(i) else {
                    return Err(Error::eof("`\"` to end the string").at_offset(i));
                };
                match STRING_CLASS[usize::from(b)] {
                    PLAIN => i += 1,
                    QUOTE => {
                        self.pos = i + 1;
                        return Ok(StringScan {
                            start,
                            end: i,
                            escaped,
                        });
                    }
                    BACKSLASH => {
                        escaped = true;
                        i = check_escape(input, i)?;
                        break;
                    }
                    _ => {
                        return Err(syntax(format!(
                            "invalid control character `{}` in string (it must be escaped)",
                            show_char(char::from(b))
                        ))
                        .at_offset(i))
                    }
                }
            }
        }
    }

    /// Reads `[`. Follow with a loop over [`next_element`](Self::next_element).
    pub(crate) fn begin_array(&mut self) -> Result<()> {
        if self.peek_byte() != Some(b'[') {
            return Err(self.unexpected("`[`"));
        }
        self.pos += 1;
        self.first = true;
        Ok(())
    }

    /// Moves to the next array element: returns `true` if one follows (read it next),
    /// `false` after consuming the closing `]`.
    pub(crate) fn next_element(&mut self) -> Result<bool> {
        let b = self.peek_byte();
        if std::mem::take(&mut self.first) {
            if b == Some(b']') {
                self.pos += 1;
                return Ok(false);
            }
            return Ok(true);
        }
        match b {
            Some(b',') => {
                self.pos += 1;
                Ok(true)
            }
            Some(b']') => {
                self.pos += 1;
                Ok(false)
            }
            _ => Err(self.unexpected("`,` or `]`")),
        }
    }

    /// Reads `{`. Follow with a loop over [`next_key`](Self::next_key).
    pub(crate) fn begin_object(&mut self) -> Result<()> {
        if self.peek_byte() != Some(b'{') {
            return Err(self.unexpected("`{`"));
        }
        self.pos += 1;
        self.first = true;
        Ok(())
    }

    /// Moves to the next object member: returns its key, with the `:` after it consumed
    /// (read the value next), or `None` after consuming the closing `}`.
    pub(crate) fn next_key(&mut self) -> Result<Option<Cow<'a, str>>> {
        if let Some((key, _)) = self.plain_key() {
            return Ok(Some(Cow::Borrowed(key)));
        }
        if self.object_member()? {
            let key = self.read_string()?;
            self.colon()?;
            Ok(Some(key))
        } else {
            Ok(None)
        }
    }

    /// Like [`next_key`](Self::next_key) but also returns the key's byte offset (of its
    /// opening quote), for errors that concern the key.
    #[allow(dead_code)] // for the JSON value decoder
    pub(crate) fn next_key_at(&mut self) -> Result<Option<(Cow<'a, str>, usize)>> {
        if let Some((key, at)) = self.plain_key() {
            return Ok(Some((Cow::Borrowed(key), at)));
        }
        if self.object_member()? {
            let offset = self.pos;
            let key = self.read_string()?;
            self.colon()?;
            Ok(Some((key, offset)))
        } else {
            Ok(None)
        }
    }

    /// The next member's key and its offset when it is written the common way, as
    /// `,"key":` (or `"key":` first in its object), whitespace allowed before the key
    /// (as pretty-printers write it): no escapes in the key, its text valid UTF-8. Moves past the `:`;
    /// `None` (having moved nothing) leaves every other case to the general path, errors
    /// included. Most keys of machine-written JSON take this path, which reads each
    /// byte once.
    #[inline(never)]
    pub(crate) fn plain_key(&mut self) -> Option<(&'a str, usize)> {
        let input = self.input;
        let mut at = self.pos;
        if !self.first {
            if input.get(at) != Some(&b',') {
                return None;
            }
            at += 1;
        }
        if input.get(at) != Some(&b'"') {
            at = whitespace_end(input, at);
        }
        let (key, end) = self.plain_string_at(at)?;
        if input.get(end) != Some(&b':') {
            return None;
        }
        self.first = false;
        self.pos = end + 1;
        // The one space pretty-printers write after the `:`.
        if input.get(self.pos) == Some(&b' ') {
            self.pos += 1;
        }
        Some((key, at))
    }

    /// Reads the `}` that ends an object if it comes next (after whitespace, which is
    /// skipped either way): the loop over [`next_key`](Self::next_key) may test for it
    /// first.
    #[inline]
    pub(crate) fn end_object(&mut self) -> bool {
        self.skip_whitespace();
        let end = self.input.get(self.pos) == Some(&b'}');
        if end {
            self.pos += 1;
            self.first = false;
        }
        end
    }

    /// Reads `literal` if the input has it next (after whitespace, which is skipped
    /// either way), byte for byte: for the strings a format spells one way
    /// (`"plain"`), which need no unescaping then.
    #[inline]
    pub(crate) fn eat(&mut self, literal: &[u8]) -> bool {
        self.skip_whitespace();
        let found = self.input.get(self.pos..self.pos + literal.len()) == Some(literal);
        if found {
            self.pos += literal.len();
        }
        found
    }

    /// Reads the next value when it is a string with no escapes (see
    /// [`plain_key`](Self::plain_key)); `None` leaves everything else, errors included,
    /// to the general path ([`read_string`](Self::read_string)), having moved nothing.
    #[inline]
    pub(crate) fn plain_string(&mut self) -> Option<&'a str> {
        let (text, end) = self.plain_string_at(whitespace_end(self.input, self.pos))?;
        self.pos = end;
        Some(text)
    }

    /// The string at `at` (its opening quote) when it has no escapes and is valid
    /// UTF-8, with the offset after its closing quote; `None` otherwise.
    #[inline]
    fn plain_string_at(&self, at: usize) -> Option<(&'a str, usize)> {
        let input = self.input;
        if input.get(at) != Some(&b'"') {
            return None;
        }
        let start = at + 1;
        let mut i = plain_run_end(input, start);
        while input
            .get(i)
            .is_some_and(|&b| STRING_CLASS[usize::from(b)] == PLAIN)
        {
            i += 1;
        }
        if input.get(i) != Some(&b'"') {
            return None;
        }
        let text = match self.text {
            Some(text) => text.get(start..i)?,
            None => std::str::from_utf8(&input[start..i]).ok()?,
        };
        Some((text, i + 1))
    }

    /// Handles what comes before an object member: `true` when a key follows (the reader
    /// is at its opening quote), `false` after consuming `}`.
    fn object_member(&mut self) -> Result<bool> {
        let b = self.peek_byte();
        if std::mem::take(&mut self.first) {
            return match b {
                Some(b'}') => {
                    self.pos += 1;
                    Ok(false)
                }
                Some(b'"') => Ok(true),
                _ => Err(self.unexpected("a string key or `}`")),
            };
        }
        match b {
            Some(b',') => {
                self.pos += 1;
                if self.peek_byte() == Some(b'"') {
                    Ok(true)
                } else {
                    Err(self.unexpected("a string key"))
                }
            }
            Some(b'}') => {
                self.pos += 1;
                Ok(false)
            }
            _ => Err(self.unexpected("`,` or `}`")),
        }
    }

    /// Reads the `:` after an object key.
    fn colon(&mut self) -> Result<()> {
        if self.peek_byte() == Some(b':') {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.unexpected("`:`"))
        }
    }

    /// Validates and skips one whole value of any kind.
    ///
    /// Works without recursion; nesting deeper than [`MAX_DEPTH`] is a
    /// [`LimitExceeded`](ErrorKind::LimitExceeded) error.
    pub(crate) fn skip_value(&mut self) -> Result<()> {
        // One entry per open container: `true` for an object.
        let mut open: Vec<bool> = Vec::new();
        loop {
            match self.peek_kind()? {
                Kind::Null => self.read_null()?,
                Kind::Bool => self.literal_bool()?,
                Kind::Number => {
                    self.read_number()?;
                }
                Kind::String => {
                    self.scan_string()?;
                }
                kind @ (Kind::Array | Kind::Object) => {
                    if open.len() >= MAX_DEPTH {
                        return Err(crate::limits::depth_exceeded("JSON").at_offset(self.pos));
                    }
                    let is_object = kind == Kind::Object;
                    self.pos += 1;
                    self.first = true;
                    open.push(is_object);
                }
            }
            // Move to the next value to read, closing finished containers.
            loop {
                match open.last() {
                    None => return Ok(()),
                    Some(&true) => {
                        if self.object_member()? {
                            self.scan_string()?;
                            self.colon()?;
                            break;
                        }
                    }
                    Some(&false) => {
                        if self.next_element()? {
                            break;
                        }
                    }
                }
                open.pop();
            }
        }
    }

    /// Validates and skips one whole value like [`skip_value`](Self::skip_value), and
    /// returns its text (without surrounding whitespace), e.g. to come back to it later.
    #[allow(dead_code)] // for the JSON value decoder
    pub(crate) fn raw_value(&mut self) -> Result<&'a [u8]> {
        self.skip_whitespace();
        let start = self.pos;
        self.skip_value()?;
        Ok(&self.input[start..self.pos])
    }

    /// Reads `true` or `false` without returning which (for [`skip_value`]).
    fn literal_bool(&mut self) -> Result<()> {
        if self.peek_byte() == Some(b't') {
            self.literal(b"true")
        } else {
            self.literal(b"false")
        }
    }

    /// Skips whitespace and returns a syntax error "expected {expected}, found {next}"
    /// at the next byte, or an end-of-input error if only whitespace is left.
    pub(crate) fn expected(&mut self, expected: &str) -> Error {
        self.skip_whitespace();
        self.unexpected(expected)
    }

    /// A syntax error "expected {expected}, found {next}" at the current position, or an
    /// end-of-input error if the input is exhausted.
    fn unexpected(&self, expected: &str) -> Error {
        if self.pos >= self.input.len() {
            Error::eof(expected).at_offset(self.pos)
        } else {
            syntax(format!(
                "expected {expected}, found {}",
                self.describe_next()
            ))
            .at_offset(self.pos)
        }
    }

    /// A readable description of the character at the current position.
    fn describe_next(&self) -> String {
        describe_at(self.input, self.pos)
    }
}

/// Where [`Reader::scan_string`] found a string's contents.
struct StringScan {
    /// Offset of the first byte after the opening quote.
    start: usize,
    /// Offset of the closing quote.
    end: usize,
    /// Whether the string contains a backslash escape.
    escaped: bool,
}

fn syntax(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::Syntax, message)
}

/// The offset just past the run of ASCII digits starting at `i`.
#[inline]
fn digits_end(input: &[u8], mut i: usize) -> usize {
    while input.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}

/// Validates the escape whose backslash is at `i`; returns the offset after it.
fn check_escape(input: &[u8], i: usize) -> Result<usize> {
    match input.get(i + 1) {
        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(i + 2),
        Some(b'u') => {
            for j in i + 2..i + 6 {
                match input.get(j) {
                    Some(b) if b.is_ascii_hexdigit() => {}
                    Some(_) => {
                        return Err(syntax(format!(
                            "expected a hex digit in a `\\u` escape, found {}",
                            describe_at(input, j)
                        ))
                        .at_offset(j))
                    }
                    None => return Err(Error::eof("a hex digit in a `\\u` escape").at_offset(j)),
                }
            }
            Ok(i + 6)
        }
        Some(_) => {
            let shown = match char_at(input, i + 1) {
                Some(c) => show_char(c),
                None => format!("\\x{:02x}", input[i + 1]),
            };
            Err(syntax(format!("invalid escape `\\{shown}` in string")).at_offset(i))
        }
        None => Err(Error::eof("an escape character after `\\`").at_offset(i + 1)),
    }
}

/// The value of the four hex digits at `input[i..i + 4]`, already validated.
fn hex4(input: &[u8], i: usize) -> u32 {
    input[i..i + 4].iter().fold(0, |acc, &b| {
        let digit = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            b'A'..=b'F' => b - b'A' + 10,
            _ => 0,
        };
        acc * 16 + u32::from(digit)
    })
}

/// Decodes the contents of a string whose escapes were validated by `check_escape`.
/// The offset of the first `\\` in `bytes`, looked for eight bytes at a time.
fn backslash(bytes: &[u8]) -> Option<usize> {
    let chunks = bytes.chunks_exact(8);
    let rest = chunks.remainder();
    for (i, chunk) in chunks.enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word) ^ (ONES * u64::from(b'\\'));
        let zero = x.wrapping_sub(ONES) & !x & HIGHS;
        if zero != 0 {
            return Some(i * 8 + (zero.trailing_zeros() / 8) as usize);
        }
    }
    let at = bytes.len() - rest.len();
    rest.iter().position(|&b| b == b'\\').map(|n| at + n)
}

fn unescape(raw: &[u8]) -> String {
    let mut out: Vec<u8> = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let Some(n) = backslash(&raw[i..]) else {
            out.extend_from_slice(&raw[i..]);
            break;
        };
        out.extend_from_slice(&raw[i..i + n]);
        i += n;
        let simple = match raw.get(i + 1) {
            Some(b'"') => b'"',
            Some(b'\\') => b'\\',
            Some(b'/') => b'/',
            Some(b'b') => 0x08,
            Some(b'f') => 0x0c,
            Some(b'n') => b'\n',
            Some(b'r') => b'\r',
            Some(b't') => b'\t',
            _ => {
                // `\uXXXX`, possibly the first half of a surrogate pair.
                let unit = hex4(raw, i + 2);
                i += 6;
                let c = if (0xD800..0xDC00).contains(&unit) && is_u_escape(raw, i) {
                    let low = hex4(raw, i + 2);
                    if (0xDC00..0xE000).contains(&low) {
                        i += 6;
                        char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                    } else {
                        None
                    }
                } else {
                    char::from_u32(unit)
                };
                let c = c.unwrap_or(char::REPLACEMENT_CHARACTER);
                out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                continue;
            }
        };
        out.push(simple);
        i += 2;
    }
    // The raw text was checked as UTF-8 and escapes produce whole characters.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Whether a `\u` escape starts at `i`.
fn is_u_escape(raw: &[u8], i: usize) -> bool {
    raw.get(i) == Some(&b'\\') && raw.get(i + 1) == Some(&b'u')
}

/// The character starting at `input[i]`, if a valid UTF-8 sequence starts there.
fn char_at(input: &[u8], i: usize) -> Option<char> {
    let rest = input.get(i..)?;
    let len = rest.len().min(4);
    let s = match std::str::from_utf8(&rest[..len]) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&rest[..e.valid_up_to()]).ok()?,
    };
    s.chars().next()
}

/// A readable description of the character at `input[i]`: `` `x` ``, `` `\n` ``,
/// `byte 0xff`, or `end of input`.
pub(crate) fn describe_at(input: &[u8], i: usize) -> String {
    match input.get(i) {
        None => "end of input".to_owned(),
        Some(&b) => match char_at(input, i) {
            Some(c) => format!("`{}`", show_char(c)),
            None => format!("byte 0x{b:02x}"),
        },
    }
}

/// A character as it is shown inside backquotes in a message: printable characters as
/// themselves, others escaped (`\n`, `\u{7f}`).
pub(crate) fn show_char(c: char) -> String {
    if c == ' ' || !(c.is_control() || c.is_whitespace()) {
        c.to_string()
    } else {
        c.escape_debug().to_string()
    }
}

/// The line and column (both from 1, the column counted in bytes) of byte `offset` in
/// `input`. An offset past the end is clamped to the end.
pub(crate) fn line_column(input: &[u8], offset: usize) -> (usize, usize) {
    let before = &input[..offset.min(input.len())];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |n| n + 1);
    (line, before.len() - line_start + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    /// Every key of the object `text`, with its offset, read by `next_key_at` or, when
    /// `slowly`, by the general path alone; then the object's end.
    fn keys(text: &str, checked: bool, slowly: bool) -> Result<Vec<(String, usize)>> {
        let mut r = if checked {
            Reader::new_checked(text.as_bytes())
        } else {
            Reader::new(text.as_bytes())
        };
        r.begin_object()?;
        let mut out = Vec::new();
        loop {
            let key = if slowly {
                match r.object_member()? {
                    true => {
                        let at = r.pos;
                        let key = r.read_string()?.into_owned();
                        r.colon()?;
                        Some((key, at))
                    }
                    false => None,
                }
            } else {
                r.next_key_at()?.map(|(k, at)| (k.into_owned(), at))
            };
            let Some(key) = key else { break };
            out.push(key);
            r.skip_value()?;
        }
        r.finish()?;
        Ok(out)
    }

    #[test]
    fn plain_keys_read_as_the_general_path_reads_them() {
        let cases = [
            r#"{}"#,
            r#"{ }"#,
            r#"{"a":1}"#,
            r#"{"a":1,"bb":[2],"ccc":{"d":3}}"#,
            "{\n  \"a\": 1,\n  \"b\": 2\n}",
            "{\"a\" : 1 , \"b\"\t:2}",
            r#"{"a\"b":1,"c\\":2,"\u00e9":3}"#,
            r#"{"description_kind_and_more":1,"x":"y"}"#,
            r#"{"é":1,"日本語のキー":2}"#,
            r#"{"a":1,,"b":2}"#,
            r#"{"a":1 "b":2}"#,
            r#"{"a" 1}"#,
            r#"{"a":1,}"#,
            r#"{,"a":1}"#,
            r#"{"a"#,
            r#"{"abcdefghijkl"#,
            "{\"a\u{1}\":1}",
            "{\"a\x01\":1}",
        ];
        for text in cases {
            for checked in [true, false] {
                let fast = keys(text, checked, false).map_err(|e| e.to_string());
                let slow = keys(text, checked, true).map_err(|e| e.to_string());
                assert_eq!(fast, slow, "{text:?}, checked: {checked}");
            }
        }
        // Invalid UTF-8 in a key: the same error either way.
        let bad = b"{\"a\xff\":1}";
        let fast = {
            let mut r = Reader::new(bad);
            r.begin_object().unwrap();
            r.next_key_at().map(|k| k.map(|(k, _)| k.into_owned()))
        };
        assert_eq!(
            fast.unwrap_err().to_string(),
            "invalid UTF-8 in string at byte 3"
        );
    }

    #[test]
    fn backslashes_are_found_at_every_offset() {
        for len in 0..40 {
            let plain = vec![b'a'; len];
            assert_eq!(backslash(&plain), None);
            for at in 0..len {
                let mut bytes = plain.clone();
                bytes[at] = b'\\';
                if at + 1 < len {
                    bytes[len - 1] = b'\\';
                }
                assert_eq!(backslash(&bytes), Some(at), "{len} {at}");
            }
        }
        // Strings with escapes everywhere read the same, however long their plain runs.
        for run in 0..20 {
            let text = "x".repeat(run);
            let input = format!("\"{text}\\n{text}\\u00e9{text}\\\\\"");
            assert_eq!(string(&input).unwrap(), format!("{text}\n{text}é{text}\\"));
        }
    }

    #[test]
    fn plain_strings_and_literals() {
        let mut r = Reader::new_checked(br#"  "plain" "esc\"aped" "string" "#);
        assert!(!r.eat(b"\"plai\"n"));
        assert_eq!(r.plain_string(), Some("plain"));
        let at = r.offset();
        assert_eq!(r.plain_string(), None);
        assert_eq!(r.offset(), at, "nothing read");
        assert_eq!(r.read_string().unwrap(), "esc\"aped");
        assert!(r.eat(b"\"string\""));
        assert!(r.at_end());
        // The end of an object, seen past whitespace.
        let mut r = Reader::new(b"{ \n }");
        r.begin_object().unwrap();
        assert!(r.end_object());
        assert!(r.at_end());
        let mut r = Reader::new(br#"{"a":null}"#);
        r.begin_object().unwrap();
        assert!(!r.end_object());
        assert_eq!(r.next_key().unwrap().as_deref(), Some("a"));
        assert!(r.eat(b"null"));
        assert!(r.end_object());
        // Runs of whitespace of every length, spaces eight at a time.
        for n in 0..40 {
            for run in [
                " ".repeat(n),
                format!("\n{}", " ".repeat(n)),
                format!("\t \r\n{}\t", " ".repeat(n)),
            ] {
                let text = format!("{run}1");
                assert_eq!(whitespace_end(text.as_bytes(), 0), run.len(), "{run:?}");
            }
        }
        assert_eq!(whitespace_end(b"  ", 0), 2);
        assert_eq!(whitespace_end(b"", 0), 0);
        assert_eq!(whitespace_end(b"x", 5), 5);
    }

    fn string(input: &str) -> Result<String> {
        let mut r = Reader::new(input.as_bytes());
        let s = r.read_string()?.into_owned();
        assert!(r.at_end(), "string reader stopped early in {input:?}");
        Ok(s)
    }

    fn string_bytes(input: &[u8]) -> Result<String> {
        Reader::new(input).read_string().map(Cow::into_owned)
    }

    fn err(result: Result<impl std::fmt::Debug>) -> (ErrorKind, String, usize) {
        let e = result.expect_err("expected an error");
        let offset = match e.position() {
            Some(crate::Position::Offset(o)) => o,
            other => panic!("no offset in {e:?}: {other:?}"),
        };
        (e.kind(), e.message().to_owned(), offset)
    }

    #[test]
    fn peek_kinds() {
        let cases = [
            ("null", Kind::Null),
            (" true", Kind::Bool),
            ("\n\t\rfalse", Kind::Bool),
            ("-1", Kind::Number),
            ("0", Kind::Number),
            ("9", Kind::Number),
            ("\"x\"", Kind::String),
            ("[", Kind::Array),
            ("{", Kind::Object),
        ];
        for (input, kind) in cases {
            assert_eq!(Reader::new(input.as_bytes()).peek_kind().unwrap(), kind);
        }
    }

    #[test]
    fn peek_kind_errors() {
        assert_eq!(
            err(Reader::new(b"  ").peek_kind()),
            (
                ErrorKind::UnexpectedEof,
                "expected a JSON value, found end of input".into(),
                2
            )
        );
        assert_eq!(
            err(Reader::new(b" x").peek_kind()),
            (
                ErrorKind::Syntax,
                "expected a JSON value, found `x`".into(),
                1
            )
        );
        // Only the four JSON whitespace characters are skipped.
        assert_eq!(
            err(Reader::new(b"\x0c1").peek_kind()).1,
            "expected a JSON value, found `\\u{c}`"
        );
        assert_eq!(
            err(Reader::new(b"\xff").peek_kind()).1,
            "expected a JSON value, found byte 0xff"
        );
        assert_eq!(
            err(Reader::new("é".as_bytes()).peek_kind()).1,
            "expected a JSON value, found `é`"
        );
        assert_eq!(
            err(Reader::new(b"+1").peek_kind()).1,
            "expected a JSON value, found `+`"
        );
    }

    #[test]
    fn literals() {
        assert!(Reader::new(b" true").read_bool().unwrap());
        assert!(!Reader::new(b"false").read_bool().unwrap());
        Reader::new(b"null").read_null().unwrap();
        assert_eq!(
            err(Reader::new(b"nul").read_null()),
            (
                ErrorKind::UnexpectedEof,
                "expected `null`, found end of input".into(),
                3
            )
        );
        assert_eq!(
            err(Reader::new(b"[nulL]").read_null().or_else(|_| {
                let mut r = Reader::new(b"[nulL]");
                r.begin_array()?;
                r.next_element()?;
                r.read_null()
            })),
            (ErrorKind::Syntax, "expected `null`, found `nulL`".into(), 1)
        );
        assert_eq!(
            err(Reader::new(b"tru]").read_bool()),
            (ErrorKind::Syntax, "expected `true`, found `tru`".into(), 0)
        );
        assert_eq!(
            err(Reader::new(b"1").read_bool()),
            (
                ErrorKind::Syntax,
                "expected `true` or `false`, found `1`".into(),
                0
            )
        );
        assert_eq!(
            err(Reader::new(b"true").read_null()).1,
            "expected `null`, found `t`"
        );
    }

    #[test]
    fn numbers() {
        for text in [
            "0",
            "-0",
            "1",
            "-1",
            "10",
            "1.5",
            "0.0001",
            "1e5",
            "1E+5",
            "1e-05",
            "-12.50e0",
            "123456789012345678901234567890",
        ] {
            let mut r = Reader::new(text.as_bytes());
            assert_eq!(r.read_number().unwrap(), text);
            assert!(r.at_end());
        }
        // The number ends where the grammar ends; the rest is for the next token.
        let mut r = Reader::new(b" 12,3");
        assert_eq!(r.read_number().unwrap(), "12");
        assert_eq!(r.offset(), 3);
    }

    #[test]
    fn number_errors() {
        let cases: &[(&str, ErrorKind, &str, usize)] = &[
            (
                "01",
                ErrorKind::Syntax,
                "invalid number: leading zeros are not allowed",
                1,
            ),
            (
                "-01",
                ErrorKind::Syntax,
                "invalid number: leading zeros are not allowed",
                2,
            ),
            (
                "-",
                ErrorKind::UnexpectedEof,
                "expected a digit after `-`, found end of input",
                1,
            ),
            (
                "-x",
                ErrorKind::Syntax,
                "expected a digit after `-`, found `x`",
                1,
            ),
            (
                "1.",
                ErrorKind::UnexpectedEof,
                "expected a digit after the decimal point, found end of input",
                2,
            ),
            (
                "1.e5",
                ErrorKind::Syntax,
                "expected a digit after the decimal point, found `e`",
                2,
            ),
            (
                "1e",
                ErrorKind::UnexpectedEof,
                "expected a digit in the exponent, found end of input",
                2,
            ),
            (
                "1e+",
                ErrorKind::UnexpectedEof,
                "expected a digit in the exponent, found end of input",
                3,
            ),
            (
                "1e+x",
                ErrorKind::Syntax,
                "expected a digit in the exponent, found `x`",
                3,
            ),
            ("+1", ErrorKind::Syntax, "expected a number, found `+`", 0),
            (".5", ErrorKind::Syntax, "expected a number, found `.`", 0),
            (
                "\"1\"",
                ErrorKind::Syntax,
                "expected a number, found `\"`",
                0,
            ),
        ];
        for &(input, kind, message, offset) in cases {
            assert_eq!(
                err(Reader::new(input.as_bytes()).read_number()),
                (kind, message.to_owned(), offset),
                "{input}"
            );
        }
    }

    #[test]
    fn strings_borrow_when_possible() {
        let input = br#""plain ascii text, long enough for the word loop""#;
        assert!(matches!(
            Reader::new(input).read_string().unwrap(),
            Cow::Borrowed("plain ascii text, long enough for the word loop")
        ));
        let input = "\"caf\u{e9} na\u{ef}ve \u{1f600} \u{2028}\"";
        assert!(matches!(
            Reader::new(input.as_bytes()).read_string().unwrap(),
            Cow::Borrowed("caf\u{e9} na\u{ef}ve \u{1f600} \u{2028}")
        ));
        assert!(matches!(
            Reader::new(b"\"a\\nb\"").read_string().unwrap(),
            Cow::Owned(_)
        ));
        assert_eq!(string("\"\"").unwrap(), "");
        // DEL and `/` are ordinary characters.
        assert_eq!(string("\"\x7f/\"").unwrap(), "\x7f/");
    }

    #[test]
    fn escapes() {
        let cases = [
            (r#""\"""#, "\""),
            (r#""\\""#, "\\"),
            (r#""\/""#, "/"),
            (r#""\b\f\n\r\t""#, "\x08\x0c\n\r\t"),
            (r#""\u0041\u00e9\u00E9""#, "A\u{e9}\u{e9}"),
            (r#""\u0000""#, "\0"),
            (r#""\u2028\uFFFF""#, "\u{2028}\u{ffff}"),
            (r#""a\ud83d\ude00b""#, "a\u{1f600}b"),
            (r#""\uD83D\uDE00""#, "\u{1f600}"),
            // Go's leniency: unpaired surrogates become U+FFFD, and a high surrogate
            // followed by a non-low escape leaves that escape to be read on its own.
            (r#""\ud83d""#, "\u{fffd}"),
            (r#""\ude00""#, "\u{fffd}"),
            (r#""\ud83dx""#, "\u{fffd}x"),
            (r#""\ud83d\u0041""#, "\u{fffd}A"),
            (r#""\ud83d\ud83d\ude00""#, "\u{fffd}\u{1f600}"),
            (r#""\ude00\ud83d""#, "\u{fffd}\u{fffd}"),
            (r#""\ud83d\n""#, "\u{fffd}\n"),
            (
                r#""long prefix before an escape \" and after it""#,
                "long prefix before an escape \" and after it",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(string(input).unwrap(), want, "{input}");
        }
    }

    #[test]
    fn invalid_utf8_is_an_error() {
        // A deliberate difference: Go replaces each bad byte with U+FFFD.
        let cases: &[(&[u8], usize)] = &[
            (b"\"\xff\"", 1),
            (b"\"a\xffb\"", 2),
            (b"\"\xe2\x82A\"", 1),
            (b"\"\xed\xa0\x80\"", 1),
            (b"\"\xc0\xaf\"", 1),
            (b"\"\\n\xe2\x82\xac\xe2\"", 6),
            (b"\"a long string with a bad byte \xfe at the end\"", 31),
        ];
        for &(input, offset) in cases {
            let err = string_bytes(input).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidValue, "{input:?}");
            assert_eq!(err.position(), Some(Position::Offset(offset)), "{input:?}");
        }
    }

    #[test]
    fn string_errors() {
        let cases: &[(&[u8], ErrorKind, &str, usize)] = &[
            (
                b"\"abc",
                ErrorKind::UnexpectedEof,
                "expected `\"` to end the string, found end of input",
                4,
            ),
            (
                b"\"0123456789abcdef",
                ErrorKind::UnexpectedEof,
                "expected `\"` to end the string, found end of input",
                17,
            ),
            (
                b"\"a\nb\"",
                ErrorKind::Syntax,
                "invalid control character `\\n` in string (it must be escaped)",
                2,
            ),
            (
                b"\"0123456789\x01\"",
                ErrorKind::Syntax,
                "invalid control character `\\u{1}` in string (it must be escaped)",
                11,
            ),
            (
                b"\"\\q\"",
                ErrorKind::Syntax,
                "invalid escape `\\q` in string",
                1,
            ),
            (
                b"\"\\\n\"",
                ErrorKind::Syntax,
                "invalid escape `\\\\n` in string",
                1,
            ),
            (
                b"\"\\",
                ErrorKind::UnexpectedEof,
                "expected an escape character after `\\`, found end of input",
                2,
            ),
            (
                b"\"\\u12x4\"",
                ErrorKind::Syntax,
                "expected a hex digit in a `\\u` escape, found `x`",
                5,
            ),
            (
                b"\"\\u12",
                ErrorKind::UnexpectedEof,
                "expected a hex digit in a `\\u` escape, found end of input",
                5,
            ),
            (b"x", ErrorKind::Syntax, "expected a string, found `x`", 0),
            (
                b"",
                ErrorKind::UnexpectedEof,
                "expected a string, found end of input",
                0,
            ),
        ];
        for &(input, kind, message, offset) in cases {
            assert_eq!(
                err(Reader::new(input).read_string()),
                (kind, message.to_owned(), offset),
                "{input:?}"
            );
        }
    }

    #[test]
    fn every_escape_position_in_the_word_loop() {
        // Special bytes at every position of an 8-byte word, and strings of every length.
        for len in 0..40 {
            for pos in 0..len {
                let mut s = "x".repeat(len);
                s.replace_range(pos..pos + 1, "\"");
                let json = format!("\"{s}\"");
                let mut r = Reader::new(json.as_bytes());
                assert_eq!(r.read_string().unwrap(), &s[..pos]);
                assert_eq!(r.offset(), pos + 2);

                let mut s = "y".repeat(len);
                s.insert_str(pos, "\\t");
                assert_eq!(string(&format!("\"{s}\"")).unwrap(), s.replace("\\t", "\t"));

                let mut s = "z".repeat(len);
                s.insert(pos, '\u{1}');
                let (_, _, offset) = err(Reader::new(format!("\"{s}\"").as_bytes()).read_string());
                assert_eq!(offset, pos + 1);
            }
        }
    }

    fn collect_array(input: &str) -> Result<Vec<String>> {
        let mut r = Reader::new(input.as_bytes());
        r.begin_array()?;
        let mut out = Vec::new();
        while r.next_element()? {
            out.push(r.read_number()?.to_owned());
        }
        r.finish()?;
        Ok(out)
    }

    #[test]
    fn arrays() {
        assert_eq!(collect_array("[]").unwrap(), Vec::<String>::new());
        assert_eq!(collect_array(" [ ] ").unwrap(), Vec::<String>::new());
        assert_eq!(collect_array("[1]").unwrap(), ["1"]);
        assert_eq!(collect_array("[1, 2 ,3]").unwrap(), ["1", "2", "3"]);
        assert_eq!(collect_array("[\n1,\n2\n]\n").unwrap(), ["1", "2"]);
        let cases: &[(&str, ErrorKind, &str, usize)] = &[
            (
                "[1 2]",
                ErrorKind::Syntax,
                "expected `,` or `]`, found `2`",
                3,
            ),
            ("[1,]", ErrorKind::Syntax, "expected a number, found `]`", 3),
            ("[,1]", ErrorKind::Syntax, "expected a number, found `,`", 1),
            (
                "[1",
                ErrorKind::UnexpectedEof,
                "expected `,` or `]`, found end of input",
                2,
            ),
            (
                "[",
                ErrorKind::UnexpectedEof,
                "expected a number, found end of input",
                1,
            ),
            ("{}", ErrorKind::Syntax, "expected `[`, found `{`", 0),
            (
                "[1] 2",
                ErrorKind::InvalidValue,
                "unexpected data after the JSON value: found `2`",
                4,
            ),
        ];
        for &(input, kind, message, offset) in cases {
            assert_eq!(
                err(collect_array(input)),
                (kind, message.to_owned(), offset),
                "{input}"
            );
        }
    }

    fn collect_object(input: &str) -> Result<Vec<(String, String)>> {
        let mut r = Reader::new(input.as_bytes());
        r.begin_object()?;
        let mut out = Vec::new();
        while let Some(key) = r.next_key()? {
            out.push((key.into_owned(), r.read_string()?.into_owned()));
        }
        r.finish()?;
        Ok(out)
    }

    #[test]
    fn objects() {
        assert!(collect_object("{}").unwrap().is_empty());
        assert!(collect_object(" {\n} ").unwrap().is_empty());
        assert_eq!(
            collect_object(r#"{"a":"x", "b" : "y" }"#).unwrap(),
            [("a".into(), "x".into()), ("b".into(), "y".into())]
        );
        assert_eq!(
            collect_object(r#"{"a\u0041":"x","a":"y","a":"z"}"#).unwrap(),
            [
                ("aA".into(), "x".into()),
                ("a".into(), "y".into()),
                ("a".into(), "z".into())
            ]
        );
        let cases: &[(&str, ErrorKind, &str, usize)] = &[
            (
                r#"{"a" "x"}"#,
                ErrorKind::Syntax,
                "expected `:`, found `\"`",
                5,
            ),
            (r#"{"a"}"#, ErrorKind::Syntax, "expected `:`, found `}`", 4),
            (
                r#"{"a":"x" "b":"y"}"#,
                ErrorKind::Syntax,
                "expected `,` or `}`, found `\"`",
                9,
            ),
            (
                r#"{"a":"x",}"#,
                ErrorKind::Syntax,
                "expected a string key, found `}`",
                9,
            ),
            (
                r#"{a:"x"}"#,
                ErrorKind::Syntax,
                "expected a string key or `}`, found `a`",
                1,
            ),
            (
                r#"{"a":"x""#,
                ErrorKind::UnexpectedEof,
                "expected `,` or `}`, found end of input",
                8,
            ),
            (
                r#"{"a":"#,
                ErrorKind::UnexpectedEof,
                "expected a string, found end of input",
                5,
            ),
            (
                "{",
                ErrorKind::UnexpectedEof,
                "expected a string key or `}`, found end of input",
                1,
            ),
            ("[]", ErrorKind::Syntax, "expected `{`, found `[`", 0),
        ];
        for &(input, kind, message, offset) in cases {
            assert_eq!(
                err(collect_object(input)),
                (kind, message.to_owned(), offset),
                "{input}"
            );
        }
    }

    #[test]
    fn next_key_at_reports_the_key_offset() {
        let mut r = Reader::new(br#"{ "a": 1, "bb" :2}"#);
        r.begin_object().unwrap();
        let (k, at) = r.next_key_at().unwrap().unwrap();
        assert_eq!((k.as_ref(), at), ("a", 2));
        r.skip_value().unwrap();
        let (k, at) = r.next_key_at().unwrap().unwrap();
        assert_eq!((k.as_ref(), at), ("bb", 10));
        r.skip_value().unwrap();
        assert!(r.next_key_at().unwrap().is_none());
    }

    fn skip(input: &[u8]) -> Result<usize> {
        let mut r = Reader::new(input);
        r.skip_value()?;
        Ok(r.offset())
    }

    #[test]
    fn skip_value_skips_whole_values() {
        let cases: &[(&str, usize)] = &[
            ("null,", 4),
            ("true]", 4),
            ("false", 5),
            ("-1.5e3 ", 6),
            (r#""a\"b" "#, 6),
            ("[] 1", 2),
            ("{} 1", 2),
            (r#"[1,[2,[3,{}]],{"a":[true,null]}] x"#, 32),
            (r#"{"a":{"b":{"c":[]}},"d":"e"}"#, 28),
            (" [ 1 , { \"k\" : [ ] } ] ", 22),
        ];
        for &(input, end) in cases {
            assert_eq!(skip(input.as_bytes()).unwrap(), end, "{input}");
        }
        let mut r = Reader::new(b" [ {\"a\" : 1} , 2 ] ");
        r.begin_array().unwrap();
        assert!(r.next_element().unwrap());
        assert_eq!(r.raw_value().unwrap(), b"{\"a\" : 1}");
        assert!(r.next_element().unwrap());
        assert_eq!(r.raw_value().unwrap(), b"2");
        assert!(!r.next_element().unwrap());
        // Coming back to a skipped value.
        let input = br#"{"v": [1, "x"], "t": 0}"#;
        let mut r = Reader::new(input);
        r.begin_object().unwrap();
        assert_eq!(r.next_key().unwrap().unwrap(), "v");
        r.skip_whitespace();
        let at = r.offset();
        r.skip_value().unwrap();
        let mut again = Reader::new(input);
        again.seek(at);
        again.begin_array().unwrap();
        assert!(again.next_element().unwrap());
        assert_eq!(again.read_number().unwrap(), "1");
        again.seek(1000);
        assert_eq!(err(again.peek_kind()).0, ErrorKind::UnexpectedEof);
        // Skipping leaves the reader ready for the next token of the enclosing value.
        let mut r = Reader::new(br#"[{"a":[1,2]},"x"]"#);
        r.begin_array().unwrap();
        assert!(r.next_element().unwrap());
        r.skip_value().unwrap();
        assert!(r.next_element().unwrap());
        assert_eq!(r.read_string().unwrap(), "x");
        assert!(!r.next_element().unwrap());
        r.finish().unwrap();
    }

    #[test]
    fn skip_value_validates() {
        let cases: &[(&str, ErrorKind, usize)] = &[
            ("[1,]", ErrorKind::Syntax, 3),
            ("[1 2]", ErrorKind::Syntax, 3),
            (r#"{"a" 1}"#, ErrorKind::Syntax, 5),
            (r#"{"a":1,}"#, ErrorKind::Syntax, 7),
            (r#"{1:1}"#, ErrorKind::Syntax, 1),
            ("[01]", ErrorKind::Syntax, 2),
            ("[\"\\x\"]", ErrorKind::Syntax, 2),
            ("[nul]", ErrorKind::Syntax, 1),
            ("[[[", ErrorKind::UnexpectedEof, 3),
            (r#"{"a":[{"b":"#, ErrorKind::UnexpectedEof, 11),
            ("", ErrorKind::UnexpectedEof, 0),
            ("}", ErrorKind::Syntax, 0),
        ];
        for &(input, kind, offset) in cases {
            let (k, _, o) = err(skip(input.as_bytes()));
            assert_eq!((k, o), (kind, offset), "{input}");
        }
    }

    #[test]
    fn skip_value_depth_is_bounded() {
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert_eq!(skip(ok.as_bytes()).unwrap(), ok.len());
        let deep = "[".repeat(MAX_DEPTH + 1);
        let (kind, _, offset) = err(skip(deep.as_bytes()));
        assert_eq!((kind, offset), (ErrorKind::LimitExceeded, MAX_DEPTH));
        // Far deeper than any stack could recurse: still an error, not a crash.
        let huge = r#"{"a":["#.repeat(1_000_000);
        assert_eq!(err(skip(huge.as_bytes())).0, ErrorKind::LimitExceeded);
    }

    #[test]
    fn truncated_input_never_panics() {
        let input = br#" {"a": [1, -2.5e+3, true, false, null, "x\u00e9\ud83d\ude00\n", {}], "b": {"c": []}} "#;
        for end in 0..input.len() {
            let _ = skip(&input[..end]);
        }
        assert_eq!(skip(input).unwrap(), input.len() - 1);
    }

    #[test]
    fn line_and_column() {
        let input = b"{\n  \"a\": x\r\n}";
        assert_eq!(line_column(input, 0), (1, 1));
        assert_eq!(line_column(input, 1), (1, 2));
        assert_eq!(line_column(input, 2), (2, 1));
        assert_eq!(line_column(input, 9), (2, 8));
        assert_eq!(line_column(input, 12), (3, 1));
        assert_eq!(line_column(input, 100), (3, 2));
        assert_eq!(line_column(b"", 0), (1, 1));
    }

    #[test]
    fn kind_descriptions() {
        assert_eq!(Kind::Array.described(), "an array");
        assert_eq!(Kind::Null.described(), "null");
    }
}

//! Text rules shared across the crate: Unicode normalization, HCL string quoting, and
//! the short fixed-size copies the encoders write names and strings with.

use crate::value::Str;
use std::borrow::Cow;
use std::fmt::Write;
use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};

/// Returns `s` in Unicode Normalization Form C, borrowing when it already is.
///
/// Fast path: text whose bytes are all below 0xCC holds only code points below U+0300,
/// none of which combine or decompose, so it is already NFC.
#[inline]
pub(crate) fn nfc(s: &str) -> Cow<'_, str> {
    // `is_ascii` checks a word at a time; the byte loop only runs for non-ASCII text.
    if is_nfc_bytes(s.as_bytes()) {
        return Cow::Borrowed(s);
    }
    nfc_slow(s)
}

fn nfc_slow(s: &str) -> Cow<'_, str> {
    match is_nfc_quick(s.chars()) {
        IsNormalized::Yes => Cow::Borrowed(s),
        _ => {
            let normalized: String = s.nfc().collect();
            if normalized == s {
                Cow::Borrowed(s)
            } else {
                Cow::Owned(normalized)
            }
        }
    }
}

/// The window [`append_short`] copies attribute names with.
pub(crate) const WINDOW: usize = 32;

/// Appends `bytes[..len]` to `out`. When `bytes` holds at least `W` bytes and `len` is
/// at most that, this is one fixed-size copy and a truncation, much cheaper than the
/// call to `memcpy` that a copy of unknown length makes (encoders append many short
/// names and strings).
#[inline(always)]
pub(crate) fn append_short<const W: usize>(out: &mut Vec<u8>, bytes: &[u8], len: usize) {
    if len <= W {
        if let Some(Ok(window)) = bytes.get(..W).map(<&[u8; W]>::try_from) {
            let at = out.len();
            out.extend_from_slice(window);
            out.truncate(at + len);
            return;
        }
    }
    out.extend_from_slice(&bytes[..len]);
}

/// Whether UTF-8 `bytes` are NFC because every code point is below U+0300 (which is
/// told from the bytes alone: all below 0xCC).
#[inline(always)]
pub(crate) fn is_nfc_bytes(bytes: &[u8]) -> bool {
    bytes.is_ascii() || bytes.iter().all(|b| *b < 0xCC)
}

/// The bytes of `s` in NFC: its own bytes unless it needs normalizing (never for text
/// of code points below U+0300, told from its bytes without decoding them).
#[inline]
pub(crate) fn nfc_bytes(s: &Str) -> Cow<'_, [u8]> {
    let bytes = s.as_bytes();
    if is_nfc_bytes(bytes) {
        return Cow::Borrowed(bytes);
    }
    match nfc_slow(s.as_str()) {
        Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
        Cow::Owned(s) => Cow::Owned(s.into_bytes()),
    }
}

/// Converts an owned string to NFC, reusing it when it already is.
pub(crate) fn nfc_owned(s: String) -> String {
    match nfc(&s) {
        Cow::Borrowed(_) => s,
        Cow::Owned(n) => n,
    }
}

/// Writes `text` as an HCL quoted string, as Terraform shows strings: `\\`, `\"`, `\n`, `\r`, `\t`, `\uXXXX` for
/// other control characters, and `$${` / `%%{` for the template introducers.
pub(crate) fn write_hcl_quoted(out: &mut String, text: &str) {
    out.push('"');
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.push(c);
                out.push(c);
            }
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

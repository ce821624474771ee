//! Reading payloads: files or standard input, as raw bytes, hex, base64 or an escaped
//! string, holding MessagePack or JSON, perhaps inside a protobuf `DynamicValue`
//! message; each told from the content where that is unambiguous (see [`crate::sniff`]),
//! with a note on standard error where the content overrides what a name says or
//! the reading is not the plain one.

use std::borrow::Cow;
use std::io::{IsTerminal, Read};
use std::path::PathBuf;

use clap::ValueEnum;
use ctywire::{json, msgpack};

use crate::sniff::{self, is_text};
use crate::Failure;

/// How a payload's bytes are written.
#[derive(Clone, Copy, Debug, PartialEq, ValueEnum)]
pub enum Encoding {
    /// The bytes themselves.
    Raw,
    /// Hex text; whitespace, commas and `0x` prefixes are ignored, and an `xxd` or
    /// `hexdump -C` dump is read without its offsets and text column.
    Hex,
    /// Base64 text (standard or URL-safe alphabet, padding optional); whitespace is
    /// ignored.
    Base64,
    /// A string with backslash escapes (`"\x82\xa1a\x01"`), as Go's `%q`, Python and C
    /// write bytes; surrounding quotes are left out.
    Escaped,
}

/// A payload format.
#[derive(Clone, Copy, Debug, PartialEq, ValueEnum)]
pub enum Format {
    /// MessagePack, as Terraform sends it.
    Msgpack,
    /// JSON, the protocol's secondary form.
    Json,
}

/// One input: where it came from and its bytes.
pub struct Source {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Reads each file, or standard input when there are none (or for `-`).
pub fn read_sources(files: &[PathBuf]) -> Result<Vec<Source>, Failure> {
    sources(files).collect()
}

/// Each file, or standard input when there are none (or for `-`), read when the
/// iterator reaches it; a file that cannot be read is a failure naming it.
pub fn sources(files: &[PathBuf]) -> impl Iterator<Item = Result<Source, Failure>> + '_ {
    let stdin = files.is_empty().then_some(()).into_iter();
    stdin.map(|()| read_stdin()).chain(files.iter().map(|path| {
        if path.as_os_str() == "-" {
            return read_stdin();
        }
        let name = path.display().to_string();
        match std::fs::read(path) {
            Ok(bytes) => Ok(Source { name, bytes }),
            Err(e) => Err(Failure::input(format!("{name}: {e}"))),
        }
    }))
}

fn read_stdin() -> Result<Source, Failure> {
    let mut stdin = std::io::stdin().lock();
    if stdin.is_terminal() {
        say!(
            "reading a payload from standard input (MessagePack as hex or base64, or JSON); \
             end it with Ctrl-D, or give a file name"
        );
    }
    let mut bytes = Vec::new();
    stdin
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::input(format!("standard input: {e}")))?;
    Ok(Source {
        name: "standard input".into(),
        bytes,
    })
}

/// A payload ready to decode: the input's own bytes when they are raw, so that a large
/// payload is never copied.
pub struct Payload<'a> {
    pub format: Format,
    pub bytes: Cow<'a, [u8]>,
    /// How the input was written.
    encoding: Encoding,
}

impl Payload<'_> {
    /// `failure`, a decode failure of this payload, with what the bytes look like
    /// instead and the flag that reads them so, when they look like something else.
    pub fn explain(&self, mut failure: Failure) -> Failure {
        if let Some(hint) = sniff::hint(&self.bytes, self.encoding, self.format) {
            failure.message = format!("{}; {hint}", failure.message);
        }
        failure
    }
}

/// Undoes the text encoding and decides the format, each from the content unless
/// forced, and takes the payload out of a protobuf `DynamicValue` message around it.
/// Ambiguous content is an error that names the flag to use.
pub fn payload<'a>(
    source: &'a Source,
    encoding: Option<Encoding>,
    format: Option<Format>,
) -> Result<Payload<'a>, Failure> {
    let name = &source.name;
    let fail = |m: String| Failure::input(format!("{name}: {m}"));
    let text = &source.bytes;
    let forced = encoding.is_some();
    let encoding = match encoding {
        Some(e) => e,
        None => detect_encoding(text, format).map_err(fail)?,
    };
    let undone: Result<Cow<[u8]>, String> = match encoding {
        Encoding::Raw => Ok(Cow::Borrowed(text)),
        Encoding::Hex => sniff::hex_digits(text).and_then(|hex| {
            if let Some(dump) = hex.dump {
                say!("note: {name}: read as {dump} (offsets and text column left out)");
            }
            hex_bytes(&hex.digits).map(Cow::from)
        }),
        Encoding::Base64 => decode_base64(text).map(Cow::from),
        Encoding::Escaped => sniff::unescape(text).map(Cow::from),
    };
    let bytes = undone.map_err(
        |m| match forced.then(|| sniff::encoding_hint(text, encoding)) {
            Some(Some(hint)) => fail(format!("{m}; {hint}")),
            _ => fail(m),
        },
    )?;
    let (bytes, format) = match unwrap_message(&bytes, format) {
        Some((f, inner)) => {
            say!(
                "note: {name}: a protobuf DynamicValue message; read its {} field ({} bytes)",
                f.field(),
                inner.len()
            );
            (inner.to_vec().into(), f)
        }
        None => {
            let format = match format {
                Some(f) => f,
                None => detect_format(&bytes, name).map_err(fail)?,
            };
            (bytes, format)
        }
    };
    Ok(Payload {
        format,
        bytes,
        encoding,
    })
}

/// The payload inside a protobuf `DynamicValue` message, when `bytes` are one (with
/// the field `format` asks for, if given) and are not a payload as they are.
fn unwrap_message(bytes: &[u8], format: Option<Format>) -> Option<(Format, &[u8])> {
    if !matches!(bytes.first(), Some(0x0a | 0x12)) {
        return None;
    }
    let (f, inner) = sniff::dynamic_value_message(bytes)?;
    let as_is = msgpack::check_syntax(bytes).is_ok() || json::check_syntax(bytes).is_ok();
    (format.is_none_or(|want| want == f) && !as_is).then_some((f, inner))
}

impl Format {
    /// The name of the `DynamicValue` field that holds this format.
    fn field(self) -> &'static str {
        match self {
            Format::Msgpack => "msgpack",
            Format::Json => "json",
        }
    }

    /// Whether `bytes` are one well-formed item of this format.
    fn reads(self, bytes: &[u8]) -> bool {
        match self {
            Format::Msgpack => msgpack::check_syntax(bytes).is_ok(),
            Format::Json => json::check_syntax(bytes).is_ok(),
        }
    }

    /// The format's name in prose.
    fn title(self) -> &'static str {
        match self {
            Format::Msgpack => "MessagePack",
            Format::Json => "JSON",
        }
    }

    fn other(self) -> Format {
        match self {
            Format::Msgpack => Format::Json,
            Format::Json => Format::Msgpack,
        }
    }
}

pub fn detect_encoding(text: &[u8], format: Option<Format>) -> Result<Encoding, String> {
    // Text (perhaps not ASCII: Go's %q keeps printable characters) with a `\x` escape.
    let printable = |t: &str| !t.contains(|c: char| c.is_control() && !c.is_whitespace());
    if std::str::from_utf8(text).is_ok_and(printable) && sniff::has_hex_escape(text) {
        return Ok(Encoding::Escaped);
    }
    if !is_text(text) {
        return Ok(Encoding::Raw);
    }
    let is_json = json::check_syntax(text).is_ok();
    let hex = sniff::hex_digits(text)
        .ok()
        .filter(|h| !h.digits.is_empty());
    let is_hex = hex.as_ref().is_some_and(|h| h.digits.len() % 2 == 0);
    match (is_json, is_hex) {
        (true, true) if format != Some(Format::Json) => Err(
            "ambiguous input: it reads as JSON and as hex; say which with --from json or --input hex"
                .into(),
        ),
        (true, _) => Ok(Encoding::Raw),
        (false, true) => Ok(Encoding::Hex),
        (false, false) => match hex {
            Some(h) => Err(format!(
                "expected hex, found an odd number of hex digits ({}): is one missing? \
                 (--input base64 reads the text as base64)",
                h.digits.len()
            )),
            None if decode_base64(text).is_ok_and(|b| !b.is_empty()) => Ok(Encoding::Base64),
            None => Ok(Encoding::Raw),
        },
    }
}

fn detect_format(bytes: &[u8], name: &str) -> Result<Format, String> {
    let by_name = if name.ends_with(".msgpack") {
        Some(Format::Msgpack)
    } else if name.ends_with(".json") {
        Some(Format::Json)
    } else {
        None
    };
    if let Some(named) = by_name {
        // Content of the other format, and not of the named one: read it as what it is.
        let other = named.other();
        if other.reads(bytes) && !named.reads(bytes) {
            say!(
                "note: {name}: the bytes are {}, not {} as the name says; read as {} \
                 (--from {} to insist)",
                other.title(),
                named.title(),
                other.title(),
                named.field()
            );
            return Ok(other);
        }
        return Ok(named);
    }
    let is_json = json::check_syntax(bytes).is_ok();
    let is_msgpack = msgpack::check_syntax(bytes).is_ok();
    match (is_json, is_msgpack) {
        (true, true) => Err(
            "ambiguous input: it reads as JSON and as MessagePack; say which with --from".into(),
        ),
        (true, false) => Ok(Format::Json),
        (false, true) => Ok(Format::Msgpack),
        // Neither: report the errors of the format it looks most like.
        (false, false) => Ok(match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
            Some(b'{' | b'[' | b'"') => Format::Json,
            _ => Format::Msgpack,
        }),
    }
}

/// Hex digits to bytes.
fn hex_bytes(digits: &[u8]) -> Result<Vec<u8>, String> {
    if digits.len() % 2 != 0 {
        return Err(format!(
            "expected hex, found an odd number of hex digits ({})",
            digits.len()
        ));
    }
    let digit = |d: u8| (d as char).to_digit(16);
    digits
        .chunks(2)
        .map(|pair| match (digit(pair[0]), digit(pair[1])) {
            (Some(hi), Some(lo)) => Ok((hi * 16 + lo) as u8),
            _ => Err("invalid hex digit".to_owned()),
        })
        .collect()
}

/// Bytes to hex text.
pub fn encode_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    out
}

/// Base64 text to bytes: the standard and URL-safe alphabets, with or without padding;
/// whitespace is ignored.
pub fn decode_base64(text: &[u8]) -> Result<Vec<u8>, String> {
    let mut chars: Vec<u8> = text
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    while chars.last() == Some(&b'=') {
        chars.pop();
    }
    if chars.len() % 4 == 1 {
        return Err("base64 input has an impossible length".into());
    }
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(chars.len() * 3 / 4);
    for chunk in chars.chunks(4) {
        let mut bits = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            let v = value(c).ok_or_else(|| format!("invalid base64 character {:?}", c as char))?;
            bits |= (v as u32) << (18 - 6 * i);
        }
        let bytes = bits.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips_known_text() {
        assert_eq!(decode_base64(b"aGVsbG8=").unwrap(), b"hello");
        assert_eq!(decode_base64(b"aGVsbG8").unwrap(), b"hello");
        assert_eq!(decode_base64(b"aGVs\nbG8h").unwrap(), b"hello!");
        assert_eq!(decode_base64(b"-_8").unwrap(), [0xfb, 0xff]);
        assert!(decode_base64(b"a").is_err());
        assert!(decode_base64(b"a*==").is_err());
    }

    fn decode_hex(text: &[u8]) -> Result<Vec<u8>, String> {
        hex_bytes(&sniff::hex_digits(text)?.digits)
    }

    /// Each pair must be two hex digits: no sign (`u8::from_str_radix` would read "+f"
    /// as 0x0f), no prefix, no non-ASCII.
    #[test]
    fn hex_input() {
        assert_eq!(decode_hex(b"c0 0A\n ff"), Ok(vec![0xc0, 0x0a, 0xff]));
        assert_eq!(decode_hex(b""), Ok(vec![]));
        for bad in [
            &b"+f"[..],
            b"-1",
            b"0x",
            b"zz",
            b"abc",
            b"\xc3\xa9",
            b"\xef\xbc\x91\xef\xbc\x92",
        ] {
            assert!(decode_hex(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn encodings_are_told_apart() {
        assert_eq!(detect_encoding(b"82 a1 61 01", None), Ok(Encoding::Hex));
        assert_eq!(detect_encoding(b"gqFhAaFiAg==", None), Ok(Encoding::Base64));
        assert_eq!(detect_encoding(br#"{"a": 1}"#, None), Ok(Encoding::Raw));
        assert_eq!(detect_encoding(&[0x82, 0xa1], None), Ok(Encoding::Raw));
        assert_eq!(detect_encoding(b"0x82a16101", None), Ok(Encoding::Hex));
        assert_eq!(
            detect_encoding(br#""\x82\xa1a\x01""#, None),
            Ok(Encoding::Escaped)
        );
        assert_eq!(
            detect_encoding("\\x92\\xa2é".as_bytes(), None),
            Ok(Encoding::Escaped)
        );
        let odd = detect_encoding(b"82a1610", None).unwrap_err();
        assert!(odd.starts_with("expected hex, found an odd number of hex digits (7)"));
        assert!(detect_encoding(b"12", None).is_err());
        assert_eq!(
            detect_encoding(b"12", Some(Format::Json)),
            Ok(Encoding::Raw)
        );
    }

    #[test]
    fn formats_are_told_apart() {
        assert_eq!(
            detect_format(&[0x82, 0xa1, b'a', 1, 0xa1, b'b', 2], "x"),
            Ok(Format::Msgpack)
        );
        assert_eq!(detect_format(br#"{"a":1}"#, "x"), Ok(Format::Json));
        assert_eq!(detect_format(b"1", "dump.msgpack"), Ok(Format::Msgpack));
        assert!(detect_format(b"1", "x").is_err());
    }
}

//! Reading payloads: files or standard input, as raw bytes, hex or base64, holding
//! MessagePack or JSON; each told from the content where that is unambiguous.

use std::io::{IsTerminal, Read};
use std::path::PathBuf;

use clap::ValueEnum;
use ctywire::{json, msgpack};

use crate::Failure;

/// How a payload's bytes are written.
#[derive(Clone, Copy, Debug, PartialEq, ValueEnum)]
pub enum Encoding {
    /// The bytes themselves.
    Raw,
    /// Hex text; whitespace is ignored.
    Hex,
    /// Base64 text (standard or URL-safe alphabet, padding optional); whitespace is
    /// ignored.
    Base64,
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
        eprintln!(
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

/// A payload ready to decode.
pub struct Payload {
    pub format: Format,
    pub bytes: Vec<u8>,
}

/// Undoes the text encoding and decides the format, each from the content unless
/// forced. Ambiguous content is an error that names the flag to use.
pub fn payload(
    source: &Source,
    encoding: Option<Encoding>,
    format: Option<Format>,
) -> Result<Payload, Failure> {
    let fail = |m: String| Failure::input(format!("{}: {m}", source.name));
    let text = &source.bytes;
    let encoding = match encoding {
        Some(e) => e,
        None => detect_encoding(text, format).map_err(fail)?,
    };
    let bytes = match encoding {
        Encoding::Raw => text.clone(),
        Encoding::Hex => decode_hex(text).map_err(fail)?,
        Encoding::Base64 => decode_base64(text).map_err(fail)?,
    };
    let format = match format {
        Some(f) => f,
        None => detect_format(&bytes, &source.name).map_err(fail)?,
    };
    Ok(Payload { format, bytes })
}

fn is_text(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .all(|&b| b.is_ascii_graphic() || b.is_ascii_whitespace())
}

fn detect_encoding(text: &[u8], format: Option<Format>) -> Result<Encoding, String> {
    if !is_text(text) {
        return Ok(Encoding::Raw);
    }
    let is_json = json::check_syntax(text).is_ok();
    let is_hex = decode_hex(text).is_ok_and(|b| !b.is_empty());
    let is_base64 = decode_base64(text).is_ok_and(|b| !b.is_empty());
    match (is_json, is_hex, is_base64) {
        (true, true, _) if format != Some(Format::Json) => Err(
            "ambiguous input: it reads as JSON and as hex; say which with --from json or --input hex"
                .into(),
        ),
        (true, _, _) => Ok(Encoding::Raw),
        (false, true, _) => Ok(Encoding::Hex),
        (false, false, true) => Ok(Encoding::Base64),
        (false, false, false) => Ok(Encoding::Raw),
    }
}

fn detect_format(bytes: &[u8], name: &str) -> Result<Format, String> {
    if name.ends_with(".msgpack") {
        return Ok(Format::Msgpack);
    }
    if name.ends_with(".json") {
        return Ok(Format::Json);
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

/// Hex text to bytes; whitespace is ignored.
pub fn decode_hex(text: &[u8]) -> Result<Vec<u8>, String> {
    let digits: Vec<u8> = text
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    if digits.len() % 2 != 0 {
        return Err("hex input has an odd number of digits".into());
    }
    digits
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| {
            let digit = |d: u8| (d as char).to_digit(16);
            match (digit(pair[0]), digit(pair[1])) {
                (Some(hi), Some(lo)) => Ok((hi * 16 + lo) as u8),
                _ => Err(format!(
                    "invalid hex digit in digits {}..{}",
                    2 * i,
                    2 * i + 2
                )),
            }
        })
        .collect()
}

/// Bytes to hex text.
pub fn encode_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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

//! What an input looks like when it is not plainly what it was taken for: hex in its
//! other spellings (`0x` prefixes, `xxd` and `hexdump -C` dumps), bytes written as a
//! string with `\x` escapes, a protobuf `DynamicValue` message around the payload,
//! when a payload fails to decode, the form it seems to be in and the flag that reads it,
//! and which of Terraform's documents a file is (a `show -json` plan or state, a state
//! file) or, when it is none, what it is and what to run instead.

use ctywire::{json, msgpack};

use crate::input::{Encoding, Format};

/// The hex digits of hex text, and the kind of dump they came from, if any.
pub struct HexDigits {
    pub digits: Vec<u8>,
    /// `Some("an xxd dump")` or `Some("a hexdump -C dump")` when the text was a dump,
    /// whose offsets and text column are left out.
    pub dump: Option<&'static str>,
}

/// The hex digits of `text`: plain hex, hex with `0x` prefixes (`0x82a1`,
/// `0x82, 0xa1`), or a dump by `xxd` or `hexdump -C`. Whitespace and commas between
/// digits are ignored. The error says what is not hex.
pub fn hex_digits(text: &[u8]) -> Result<HexDigits, String> {
    let text = std::str::from_utf8(text).map_err(|_| "hex input is not text".to_owned())?;
    if let Some(hex) = dump_digits(text) {
        return Ok(hex);
    }
    // Token by token, each ending at whitespace or a comma, and each checked as it is
    // reached: text that is not hex (JSON, say) fails at its first byte, without the
    // whole of it split first.
    let separator = |b: u8| b.is_ascii_whitespace() || b == b',';
    let bytes = text.as_bytes();
    let mut digits = Vec::with_capacity(text.len());
    let mut at = 0;
    while at < bytes.len() {
        if separator(bytes[at]) {
            at += 1;
            continue;
        }
        let mut start = at;
        if bytes[at] == b'0' && matches!(bytes.get(at + 1), Some(b'x' | b'X')) {
            start = at + 2;
            if bytes.get(start).is_none_or(|&b| separator(b)) {
                return Err(format!("expected hex digits after {:?}", &text[at..start]));
            }
        }
        let end = start
            + bytes[start..]
                .iter()
                .position(|b| !b.is_ascii_hexdigit())
                .unwrap_or(bytes.len() - start);
        if let Some(bad) = text[end..]
            .chars()
            .next()
            .filter(|_| !separator(bytes[end]))
        {
            return Err(format!(
                "invalid hex digit {bad:?} at digit {}",
                digits.len() + end - start
            ));
        }
        digits.extend_from_slice(&bytes[start..end]);
        at = end;
    }
    Ok(HexDigits { digits, dump: None })
}

/// The digits of an `xxd` dump (`00000000: 82a1 6101  ..a.`) or a `hexdump -C` dump
/// (`00000000  82 a1 61 01  |..a.|`, ending with a line holding the length), when every
/// line is a line of one of them.
fn dump_digits(text: &str) -> Option<HexDigits> {
    // A dump's first line starts with at least four hex digits of offset: anything else
    // is told at once, before the text is cut into lines.
    let first = text.trim_start();
    if first.len() < 4 || !first.as_bytes()[..4].iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    let mut lines = text.lines().filter(|l| !l.trim().is_empty()).peekable();
    let offset_len = lines
        .peek()?
        .find(|c: char| !c.is_ascii_hexdigit())
        .filter(|&n| n >= 4)?;
    let mut digits = Vec::new();
    let mut kind = None;
    while let Some(line) = lines.next() {
        let (offset, rest) = line.split_at_checked(offset_len)?;
        if !offset.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let (this, hex) = if let Some(rest) = rest.strip_prefix(": ") {
            // xxd: the hex groups end at the two spaces before the text column.
            ("an xxd dump", rest.split("  ").next()?)
        } else if let Some(rest) = rest.strip_prefix("  ") {
            // hexdump -C: the hex bytes end at the `|` of the text column.
            let (hex, text) = rest.split_once('|')?;
            text.strip_suffix('|')?;
            ("a hexdump -C dump", hex)
        } else if rest.is_empty() && lines.peek().is_none() && kind == Some("a hexdump -C dump") {
            // hexdump's last line: the length alone.
            break;
        } else {
            return None;
        };
        if kind.is_some_and(|k| k != this) {
            return None;
        }
        kind = Some(this);
        for group in hex.split_ascii_whitespace() {
            if group.len() % 2 != 0 || !group.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            digits.extend_from_slice(group.as_bytes());
        }
    }
    Some(HexDigits { digits, dump: kind })
}

/// Whether `text` holds a `\x` escape (`\x82`): bytes written as a string, as Go's `%q`,
/// Python and C print them. Neither JSON, hex nor base64 can hold one.
pub fn has_hex_escape(text: &[u8]) -> bool {
    text.windows(4)
        .any(|w| w[0] == b'\\' && w[1] == b'x' && w[2..].iter().all(u8::is_ascii_hexdigit))
}

/// The bytes of a string with backslash escapes: `\xHH`, octal `\NNN`, `\uXXXX`,
/// `\UXXXXXXXX`, `\a \b \f \n \r \t \v \\ \" \'`; other characters stand for their
/// UTF-8 bytes. Surrounding whitespace and one pair of quotes (`"…"`, `'…'`, `b'…'`,
/// `b"…"`) are left out.
pub fn unescape(text: &[u8]) -> Result<Vec<u8>, String> {
    let text = text.trim_ascii();
    let text = text
        .strip_prefix(b"b")
        .filter(|t| t.starts_with(b"'") || t.starts_with(b"\""))
        .unwrap_or(text);
    let text = match (text.first(), text.last()) {
        (Some(&q @ (b'"' | b'\'')), Some(&end)) if text.len() >= 2 && end == q => {
            &text[1..text.len() - 1]
        }
        _ => text,
    };
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if text[i] != b'\\' {
            out.push(text[i]);
            i += 1;
            continue;
        }
        let at = i;
        let invalid = || format!("invalid escape at character {at}");
        let escape = *text.get(i + 1).ok_or("a backslash ends the text")?;
        i += 2;
        let simple = match escape {
            b'a' => Some(0x07),
            b'b' => Some(0x08),
            b'f' => Some(0x0c),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'v' => Some(0x0b),
            b'\\' | b'"' | b'\'' => Some(escape),
            _ => None,
        };
        if let Some(byte) = simple {
            out.push(byte);
            continue;
        }
        let (start, len, radix) = match escape {
            b'x' => (i, 2, 16),
            b'u' => (i, 4, 16),
            b'U' => (i, 8, 16),
            // Octal: one to three digits, the first being the escape character.
            b'0'..=b'7' => {
                let len = text[i - 1..]
                    .iter()
                    .take(3)
                    .take_while(|b| (b'0'..=b'7').contains(b))
                    .count();
                (i - 1, len, 8)
            }
            _ => return Err(invalid()),
        };
        let digits = text.get(start..start + len).ok_or_else(invalid)?;
        let value = std::str::from_utf8(digits)
            .ok()
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|d| u32::from_str_radix(d, radix).ok())
            .ok_or_else(invalid)?;
        i = start + len;
        if matches!(escape, b'u' | b'U') {
            let c = char::from_u32(value)
                .ok_or_else(|| format!("invalid code point escape at character {at}"))?;
            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
        } else {
            out.push(
                u8::try_from(value)
                    .map_err(|_| format!("octal escape at character {at} is above 255"))?,
            );
        }
    }
    Ok(out)
}

/// A protobuf `DynamicValue` message (`msgpack = 1`, `json = 2`, both `bytes`): the
/// format and the bytes of the field it holds (MessagePack when it holds both, as
/// Terraform reads it). `None` unless `bytes` is exactly such a message with a field
/// that is not empty.
pub fn dynamic_value_message(bytes: &[u8]) -> Option<(Format, &[u8])> {
    let mut rest = bytes;
    let (mut msgpack, mut json) = (None, None);
    while let Some((&tag, after)) = rest.split_first() {
        let (len, after) = varint(after)?;
        let len = usize::try_from(len).ok()?;
        let field = after.get(..len)?;
        rest = &after[len..];
        match tag {
            0x0a => msgpack = Some(field),
            0x12 => json = Some(field),
            _ => return None,
        }
    }
    match (msgpack, json) {
        (Some(m), _) if !m.is_empty() => Some((Format::Msgpack, m)),
        (_, Some(j)) if !j.is_empty() => Some((Format::Json, j)),
        _ => None,
    }
}

/// A protobuf varint and the bytes after it.
fn varint(bytes: &[u8]) -> Option<(u64, &[u8])> {
    let mut value = 0u64;
    for (i, &b) in bytes.iter().enumerate().take(10) {
        value |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Some((value, &bytes[i + 1..]));
        }
    }
    None
}

/// Whether `bytes` are all printable ASCII or whitespace.
pub fn is_text(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .all(|&b| b.is_ascii_graphic() || b.is_ascii_whitespace())
}

/// When `bytes`, read with `encoding` as `format`, failed to decode: what they look
/// like instead, and the flags that read them so; `None` when they look like nothing
/// else. Called only on failure: it tries every reading.
pub fn hint(bytes: &[u8], encoding: Encoding, format: Format) -> Option<String> {
    if is_text(bytes) {
        if format == Format::Msgpack && json::check_syntax(bytes).is_ok() {
            return Some("the input is JSON text: read it with --from json".into());
        }
        if encoding == Encoding::Raw {
            if let Ok(hex) = hex_digits(bytes) {
                if !hex.digits.is_empty() && hex.digits.len() % 2 == 0 {
                    let what = hex.dump.unwrap_or("hex text");
                    return Some(format!("the input is {what}: read it with --input hex"));
                }
            }
            // Base64 text starts with a character of its alphabet (JSON text, say, is
            // told at once, before the whole input is read as base64).
            let base64_start = bytes
                .iter()
                .find(|b| !b.is_ascii_whitespace())
                .is_some_and(|&b| b.is_ascii_alphanumeric() || b"+-/_".contains(&b));
            if base64_start && crate::input::decode_base64(bytes).is_ok_and(|b| readable(&b)) {
                return Some("the input is base64 text: read it with --input base64".into());
            }
        }
    } else if format == Format::Json && msgpack::check_syntax(bytes).is_ok() {
        return Some("the input is MessagePack: read it with --from msgpack".into());
    }
    if has_hex_escape(bytes) && encoding != Encoding::Escaped {
        return Some("the input is a string with \\x escapes: read it with --input escaped".into());
    }
    None
}

/// When `text` could not be read as the `forced` encoding: how it is written instead,
/// and the flag that reads it so; `None` when that is not clear.
pub fn encoding_hint(text: &[u8], forced: Encoding) -> Option<String> {
    let found = crate::input::detect_encoding(text, None).ok()?;
    let (what, flag) = match found {
        _ if found == forced => return None,
        Encoding::Raw if msgpack::check_syntax(text).is_ok() => ("MessagePack bytes", "raw"),
        Encoding::Raw if json::check_syntax(text).is_ok() => ("JSON text", "raw"),
        Encoding::Raw => return None,
        Encoding::Hex => ("hex text", "hex"),
        Encoding::Base64 if crate::input::decode_base64(text).is_ok_and(|b| readable(&b)) => {
            ("base64 text", "base64")
        }
        Encoding::Base64 => return None,
        Encoding::Escaped => ("a string with \\x escapes", "escaped"),
    };
    Some(format!("the input is {what}: read it with --input {flag}"))
}

/// Whether `bytes` are one well-formed MessagePack or JSON item.
fn readable(bytes: &[u8]) -> bool {
    msgpack::check_syntax(bytes).is_ok() || json::check_syntax(bytes).is_ok()
}

/// What a file given as a plan or a state is.
pub enum DocumentKind {
    /// A `terraform show -json` plan or state (or an HCP Terraform redacted plan), or a
    /// UTF-16 text the library tells apart.
    Show,
    /// Terraform's state file (`terraform.tfstate`).
    StateFile,
    /// Neither: what it looks like, and what to run instead.
    Other(String),
}

/// Which document `bytes` hold, by their first bytes and their top-level properties.
pub fn document_kind(bytes: &[u8]) -> DocumentKind {
    const READ: &str = "this command reads what `terraform show -json` prints (for a plan file \
                        or the state) or a state file (`terraform.tfstate`, `terraform state pull`)";
    let other = |what: &str| DocumentKind::Other(format!("{what}; {READ}"));
    if bytes.starts_with(b"PK\x03\x04") {
        return other(
            "this is a binary plan file (what `terraform plan -out` writes): \
             run `terraform show -json PLANFILE` and give its output",
        );
    }
    // UTF-16 (PowerShell's redirection) and byte-order marks: the library reads them.
    if bytes.starts_with(&[0xef, 0xbb, 0xbf])
        || bytes.starts_with(&[0xff, 0xfe])
        || bytes.starts_with(&[0xfe, 0xff])
        || bytes.get(..2).is_some_and(|b| b.contains(&0))
    {
        return DocumentKind::Show;
    }
    let Ok(top) = serde_json::from_slice::<serde_json::Value>(bytes) else {
        if is_text(bytes) && json::check_syntax(bytes).is_err() {
            if let Ok(hex) = hex_digits(bytes) {
                if !hex.digits.is_empty() && hex.digits.len() % 2 == 0 {
                    return other("this is hex text, a payload: `ctywire show` reads it");
                }
            }
            // JSON with a syntax error: the library's reader says where.
            if bytes.trim_ascii_start().starts_with(b"{") {
                return DocumentKind::Show;
            }
        }
        if msgpack::check_syntax(bytes).is_ok() {
            return other("this is MessagePack, a payload: `ctywire show` reads it");
        }
        return other("this is not JSON");
    };
    let Some(object) = top.as_object() else {
        return other("this is JSON but not an object, a payload: `ctywire show` reads it");
    };
    let has = |key: &str| object.contains_key(key);
    if has("provider_schemas") && !has("plan_format_version") {
        return other(
            "this is a provider schema (`terraform providers schema -json`): \
             give it with --schema, and a plan or a state as FILE",
        );
    }
    if object
        .get("version")
        .is_some_and(serde_json::Value::is_number)
        && [
            "lineage",
            "serial",
            "resources",
            "terraform_version",
            "modules",
        ]
        .iter()
        .any(|k| has(k))
    {
        return DocumentKind::StateFile;
    }
    let show_keys = [
        "format_version",
        "values",
        "planned_values",
        "resource_changes",
        "prior_state",
        "plan_format_version",
    ];
    if show_keys.iter().any(|k| has(k)) {
        return DocumentKind::Show;
    }
    if object.is_empty() {
        return other("this is an empty JSON object (`{}`), not a state or a plan");
    }
    other(
        "this JSON object has none of the properties of a plan or a state (format_version, \
         values; a state file's version, lineage, resources): if it is a value, \
         `ctywire show` reads it",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(text: &str) -> Result<(String, Option<&'static str>), String> {
        hex_digits(text.as_bytes()).map(|h| (String::from_utf8(h.digits).unwrap(), h.dump))
    }

    #[test]
    fn hex_in_its_spellings() {
        assert_eq!(hex("82 a1\n61"), Ok(("82a161".into(), None)));
        assert_eq!(hex("0x82a161"), Ok(("82a161".into(), None)));
        assert_eq!(hex("0x82, 0xA1,0X61"), Ok(("82A161".into(), None)));
        assert!(hex("0x").is_err());
        assert!(hex("0x0x82").is_err());
        assert!(hex("82g1").is_err());
    }

    /// The error names the first character that is not hex and how many digits came
    /// before it; a text that is not hex at all fails at its first character.
    #[test]
    fn hex_errors_name_the_first_character_that_is_not_hex() {
        let error = |text: &str| hex(text).unwrap_err();
        assert_eq!(error("0x"), r#"expected hex digits after "0x""#);
        assert_eq!(error("82, 0X"), r#"expected hex digits after "0X""#);
        assert_eq!(error("0x0x82"), "invalid hex digit 'x' at digit 1");
        assert_eq!(error("82g1"), "invalid hex digit 'g' at digit 2");
        assert_eq!(error("82 a1,\t\u{e9}"), "invalid hex digit 'é' at digit 4");
        assert_eq!(error("0x82,0xa1z"), "invalid hex digit 'z' at digit 4");
        assert_eq!(error("82 a1 é1"), "invalid hex digit 'é' at digit 4");
        assert_eq!(
            error(&"[".repeat(1 << 20)),
            "invalid hex digit '[' at digit 0"
        );
        assert_eq!(error("  \n[1]"), "invalid hex digit '[' at digit 0");
    }

    #[test]
    fn dumps() {
        let xxd = "00000000: 7b22 6122 3a31 2c20 2262 6262 6262 6262  {\"a\":1, \"bbbbbbb\n\
                   00000010: 6520 6162 227d                           e ab\"}\n";
        assert_eq!(
            hex(xxd),
            Ok((
                "7b2261223a312c20226262626262626265206162227d".into(),
                Some("an xxd dump")
            ))
        );
        // One byte to a group (xxd -g1), with hex-looking text.
        assert_eq!(
            hex("00000000: 61 62 20 63  ab c\n"),
            Ok(("61622063".into(), Some("an xxd dump")))
        );
        let hexdump =
            "00000000  7b 22 61 22 3a 31 2c 20  22 62 62 62 62 62 62 62  |{\"a\":1, \"bbbbbbb|\n\
                       00000010  65 20 61 62 22 7d                                 |e ab\"}|\n\
                       00000016\n";
        assert_eq!(
            hex(hexdump),
            Ok((
                "7b2261223a312c20226262626262626265206162227d".into(),
                Some("a hexdump -C dump")
            ))
        );
        // Plain hex in lines is not a dump.
        assert_eq!(hex("82a1 6101\n"), Ok(("82a16101".into(), None)));
        // A line that is not a dump line: not a dump, and not hex.
        assert!(hex("00000000: 82a1  ..\nnot a dump\n").is_err());
    }

    #[test]
    fn escaped_strings() {
        assert_eq!(
            unescape(br#""\x82\xa1a\x01""#),
            Ok(vec![0x82, 0xa1, b'a', 1])
        );
        assert_eq!(
            unescape(br"b'\x82\xa1a\x01'"),
            Ok(vec![0x82, 0xa1, b'a', 1])
        );
        assert_eq!(
            unescape(br"\x82\n\t\\\0\101\u00e9"),
            Ok(vec![0x82, b'\n', b'\t', b'\\', 0, b'A', 0xc3, 0xa9])
        );
        assert!(unescape(br"\x8").is_err());
        assert!(unescape(br"\x+1").is_err());
        assert!(unescape(br"\q").is_err());
        assert!(unescape(br"\777").is_err());
        assert!(unescape(b"\\").is_err());
        assert!(has_hex_escape(br"a\x82"));
        assert!(!has_hex_escape(br"a\x8"));
    }

    #[test]
    fn dynamic_value_messages() {
        // msgpack = 82a16101a162c0 (7 bytes).
        let message = [0x0a, 7, 0x82, 0xa1, b'a', 1, 0xa1, b'b', 0xc0];
        assert_eq!(
            dynamic_value_message(&message),
            Some((Format::Msgpack, &message[2..]))
        );
        let json = [0x12, 2, b'{', b'}'];
        assert_eq!(
            dynamic_value_message(&json),
            Some((Format::Json, &json[2..]))
        );
        assert_eq!(dynamic_value_message(&[0x0a, 8, 0x82]), None);
        assert_eq!(dynamic_value_message(&[0x0a, 0]), None);
        assert_eq!(dynamic_value_message(&[0x1a, 1, 0]), None);
        assert_eq!(dynamic_value_message(b"{}"), None);
    }

    fn kind(bytes: &[u8]) -> String {
        match document_kind(bytes) {
            DocumentKind::Show => "show".into(),
            DocumentKind::StateFile => "state file".into(),
            DocumentKind::Other(what) => what,
        }
    }

    #[test]
    fn documents_are_told_apart() {
        assert_eq!(kind(br#"{"format_version": "1.0"}"#), "show");
        assert_eq!(
            kind(br#"{"plan_format_version": "2.0", "provider_schemas": {}}"#),
            "show"
        );
        assert_eq!(
            kind(br#"{"version": 4, "lineage": "x", "resources": []}"#),
            "state file"
        );
        assert_eq!(kind(br#"{"version": 3, "modules": []}"#), "state file");
        assert_eq!(kind(br#"{"format_version": "1.0", "values": "#), "show");
        assert_eq!(kind(b"\xff\xfe{\0}\0"), "show");
        for (bytes, starts) in [
            (&b"PK\x03\x04\x14\0\x08\0"[..], "this is a binary plan file (what `terraform plan -out` writes): run `terraform show -json PLANFILE`"),
            (b"{}", "this is an empty JSON object (`{}`)"),
            (br#"{"format_version": "1.0", "provider_schemas": {}}"#, "this is a provider schema"),
            (br#"{"id": "i-1", "tags": {}}"#, "this JSON object has none of the properties"),
            (b"[1, 2]", "this is JSON but not an object"),
            (b"82 a1 61 01 a1 62 c0", "this is hex text"),
            (&[0x82, 0xa1, b'a', 1, 0xa1, b'b', 0xc0], "this is MessagePack"),
            (b"hello", "this is not JSON"),
        ] {
            let what = kind(bytes);
            assert!(what.starts_with(starts), "{what}");
            assert!(what.ends_with("or a state file (`terraform.tfstate`, `terraform state pull`)"), "{what}");
        }
    }
}

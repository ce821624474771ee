//! JSON output shared by every JSON writer in the crate: strings quoted exactly as Go's
//! `json.Marshal` quotes them. This is the one place where JSON escaping is decided.

/// What a byte needs when it appears in a string: [`SAFE`] bytes are copied as they are.
const SAFE: u8 = 0;
/// A byte with a short or `\u00XX` escape (controls, `"`, `\`, `<`, `>`, `&`).
const ESCAPE: u8 = 1;
/// 0xE2, the first byte of U+2028 and U+2029, which need a closer look.
const E2: u8 = 2;

static CLASS: [u8; 256] = {
    let mut table = [SAFE; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = ESCAPE;
        b += 1;
    }
    table[b'"' as usize] = ESCAPE;
    table[b'\\' as usize] = ESCAPE;
    table[b'<' as usize] = ESCAPE;
    table[b'>' as usize] = ESCAPE;
    table[b'&' as usize] = ESCAPE;
    table[0xE2] = E2;
    table
};

const HEX: &[u8; 16] = b"0123456789abcdef";

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Whether some byte of the 8-byte word `w` is below 0x20 or one of `"`, `\`, `<`, `>`,
/// `&`, 0xE2. May report a false positive (the caller then looks at each byte), never a
/// false negative.
#[inline]
fn needs_attention(w: u64) -> bool {
    #[inline]
    fn zero_byte(v: u64) -> u64 {
        v.wrapping_sub(ONES) & !v
    }
    let found = w.wrapping_sub(ONES * 0x20) & !w
        | zero_byte(w ^ (ONES * u64::from(b'"')))
        | zero_byte(w ^ (ONES * u64::from(b'\\')))
        | zero_byte(w ^ (ONES * u64::from(b'<')))
        | zero_byte(w ^ (ONES * u64::from(b'>')))
        | zero_byte(w ^ (ONES * u64::from(b'&')))
        | zero_byte(w ^ (ONES * 0xE2));
    found & HIGHS != 0
}

/// Appends `s` as a JSON string, byte for byte as Go (1.22 and later) `json.Marshal`
/// writes it, which is how go-cty writes strings, map keys and attribute names.
///
/// - `"` and `\` are escaped as `\"` and `\\`;
/// - `\n`, `\r`, `\t`, `\b` (U+0008) and `\f` (U+000C) use their short escapes, other
///   characters below U+0020 are written `\u00XX` with lowercase hex digits;
/// - `<`, `>` and `&` are written `\u003c`, `\u003e` and `\u0026` (Go's HTML escaping);
/// - U+2028 and U+2029 are written `\u2028` and `\u2029`;
/// - everything else, including DEL and `/`, is written as its UTF-8 bytes.
pub(crate) fn write_string(out: &mut Vec<u8>, s: &(impl AsRef<[u8]> + ?Sized)) {
    let bytes = s.as_ref();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    // `start..i` is the pending run of bytes that need no escaping.
    let mut start = 0;
    let mut i = 0;
    loop {
        // Fast path: skip eight safe bytes at a time.
        while let Some(chunk) = bytes.get(i..i + 8) {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            if needs_attention(u64::from_le_bytes(word)) {
                break;
            }
            i += 8;
        }
        let Some(&b) = bytes.get(i) else {
            break;
        };
        match CLASS[usize::from(b)] {
            SAFE => {
                i += 1;
                continue;
            }
            E2 => {
                // U+2028 is E2 80 A8, U+2029 is E2 80 A9.
                let separator = bytes.get(i + 1) == Some(&0x80)
                    && matches!(bytes.get(i + 2), Some(0xA8 | 0xA9));
                if !separator {
                    i += 1;
                    continue;
                }
                out.extend_from_slice(&bytes[start..i]);
                out.extend_from_slice(if bytes[i + 2] == 0xA8 {
                    b"\\u2028"
                } else {
                    b"\\u2029"
                });
                i += 3;
            }
            _ => {
                out.extend_from_slice(&bytes[start..i]);
                match b {
                    b'"' => out.extend_from_slice(b"\\\""),
                    b'\\' => out.extend_from_slice(b"\\\\"),
                    b'\n' => out.extend_from_slice(b"\\n"),
                    b'\r' => out.extend_from_slice(b"\\r"),
                    b'\t' => out.extend_from_slice(b"\\t"),
                    0x08 => out.extend_from_slice(b"\\b"),
                    0x0c => out.extend_from_slice(b"\\f"),
                    _ => out.extend_from_slice(&[
                        b'\\',
                        b'u',
                        b'0',
                        b'0',
                        HEX[usize::from(b >> 4)],
                        HEX[usize::from(b & 0xf)],
                    ]),
                }
                i += 1;
            }
        }
        start = i;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quoted(s: &str) -> String {
        let mut out = Vec::new();
        write_string(&mut out, s);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn go_marshal_rules() {
        let cases = [
            ("", r#""""#),
            ("hello", r#""hello""#),
            ("a\"b", r#""a\"b""#),
            ("a\\b", r#""a\\b""#),
            ("\n\r\t", r#""\n\r\t""#),
            // Go 1.22+ short escapes for backspace and form feed.
            ("\x08\x0c", r#""\b\f""#),
            (
                "\0\x01\x07\x0b\x0e\x1a\x1f",
                r#""\u0000\u0001\u0007\u000b\u000e\u001a\u001f""#,
            ),
            (
                "<a href=\"x\">&amp;</a>",
                r#""\u003ca href=\"x\"\u003e\u0026amp;\u003c/a\u003e""#,
            ),
            ("\u{2028}\u{2029}", r#""\u2028\u2029""#),
            ("a\u{2028}b\u{2029}c", r#""a\u2028b\u2029c""#),
            // Other characters that start with 0xE2 are written as they are.
            (
                "\u{2027}\u{202a}\u{20ac}\u{2603}",
                "\"\u{2027}\u{202a}\u{20ac}\u{2603}\"",
            ),
            // DEL, `/`, `'` and non-ASCII are literal.
            ("\x7f/'", "\"\x7f/'\""),
            (
                "caf\u{e9} \u{1f600} \u{fffd}",
                "\"caf\u{e9} \u{1f600} \u{fffd}\"",
            ),
            (
                " !#$%()*+,-.:;=?@[]^_`{|}~",
                "\" !#$%()*+,-.:;=?@[]^_`{|}~\"",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(quoted(input), want, "{input:?}");
        }
    }

    #[test]
    fn every_ascii_byte() {
        for b in 0u8..0x80 {
            let s = char::from(b).to_string();
            let want = match b {
                b'"' => "\\\"".to_owned(),
                b'\\' => "\\\\".to_owned(),
                b'\n' => "\\n".to_owned(),
                b'\r' => "\\r".to_owned(),
                b'\t' => "\\t".to_owned(),
                0x08 => "\\b".to_owned(),
                0x0c => "\\f".to_owned(),
                b'<' | b'>' | b'&' => format!("\\u{:04x}", b),
                0..=0x1f => format!("\\u{:04x}", b),
                _ => s.clone(),
            };
            assert_eq!(quoted(&s), format!("\"{want}\""), "byte {b:#04x}");
        }
    }

    /// A character-by-character statement of the rules, to check the fast paths against.
    fn reference(s: &str) -> String {
        let mut out = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\u{8}' => out.push_str("\\b"),
                '\u{c}' => out.push_str("\\f"),
                '\0'..='\u{1f}' | '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                    out.push_str(&format!("\\u{:04x}", u32::from(c)))
                }
                c => out.push(c),
            }
        }
        out.push('"');
        out
    }

    #[test]
    fn special_characters_at_every_position() {
        let specials = [
            "\"",
            "\\",
            "\n",
            "\u{1}",
            "\u{1f}",
            "<",
            ">",
            "&",
            "\u{2028}",
            "\u{2029}",
            "\u{e9}",
            "\u{20ac}",
            "\u{2027}",
            "\u{1f600}",
            "\u{7f}",
            " ",
        ];
        for len in 0..20 {
            for pos in 0..=len {
                for special in specials {
                    let mut s = "abcdefghijklmnopqrstuvwxyz"[..len].to_owned();
                    s.insert_str(pos, special);
                    assert_eq!(quoted(&s), reference(&s), "{s:?}");
                    let doubled = format!("{s}{special}{s}");
                    assert_eq!(quoted(&doubled), reference(&doubled), "{doubled:?}");
                }
            }
        }
    }

    #[test]
    fn appends_to_existing_output() {
        let mut out = b"[".to_vec();
        write_string(&mut out, "a<b");
        out.push(b',');
        write_string(&mut out, "");
        assert_eq!(out, br#"["a\u003cb","""#);
    }

    #[test]
    fn escapes_at_the_ends_and_in_runs() {
        assert_eq!(quoted("<"), r#""\u003c""#);
        assert_eq!(quoted("<<>>"), r#""\u003c\u003c\u003e\u003e""#);
        assert_eq!(quoted("x\u{2028}"), r#""x\u2028""#);
        assert_eq!(quoted("\u{2029}x"), r#""\u2029x""#);
        assert_eq!(quoted("ab\ncd\"ef"), r#""ab\ncd\"ef""#);
    }
}

//! Text rules shared across the crate: Unicode normalization, HCL string quoting, the
//! short fixed-size copies the encoders write names and strings with, and the text
//! encodings JSON documents come in.

use crate::error::{Error, ErrorKind, Result};
use crate::value::Str;
use std::borrow::Cow;
use std::fmt::Write;
use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};

/// Returns `s` in Unicode Normalization Form C, borrowing when it already is.
///
/// Fast paths: ASCII text, and text made only of code points that NFC leaves as they are
/// wherever they stand ([`is_nfc_by_table`]: most text of most scripts).
#[inline]
pub(crate) fn nfc(s: &str) -> Cow<'_, str> {
    // `is_ascii` checks a word at a time; other text goes to the table at once.
    if s.is_ascii() {
        return Cow::Borrowed(s);
    }
    nfc_slow(s)
}

fn nfc_slow(s: &str) -> Cow<'_, str> {
    if is_nfc_by_table(s) {
        return Cow::Borrowed(s);
    }
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

/// Whether `name` is an HCL identifier, which Terraform writes bare (as an attribute
/// name, a resource name, a type expression's attribute): a letter or `_`, then letters,
/// digits, `_` and `-`.
pub(crate) fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(is_identifier_start) && chars.all(is_identifier_continue)
}

/// Whether an HCL identifier can start with `c`.
pub(crate) fn is_identifier_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

/// Whether an HCL identifier can go on with `c`.
pub(crate) fn is_identifier_continue(c: char) -> bool {
    c == '_' || c == '-' || c.is_alphanumeric()
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

/// Whether `s` is NFC, told without normalizing it: every code point below U+0300, or
/// every one a [starter that stays as it is](is_nfc_by_table) (most text of most
/// scripts). `false` means "not certain": the caller takes the slow path, which
/// normalizes.
#[inline(always)]
pub(crate) fn is_nfc(s: &str) -> bool {
    // Text that starts past ASCII is seldom ASCII: straight to the table, which passes
    // ASCII too, so that such text is scanned once.
    match s.as_bytes().first() {
        Some(&b) if b >= 0x80 => is_nfc_by_table(s),
        _ => s.is_ascii() || is_nfc_by_table(s),
    }
}

/// Code points below this are in [`starters`]' table; beyond it (rare planes), text
/// takes the slow path.
const TABLE_END: u32 = 0x2_0000;

/// The words of [`starters`]' table: one bit per code point below [`TABLE_END`].
const TABLE_WORDS: usize = (TABLE_END / 64) as usize;

/// One bit per code point below [`TABLE_END`]: set where the code point is NFC quick
/// check "Yes" with canonical combining class 0, as the Unicode data of the
/// normalizer the slow path uses says (built from it once, on first use). Text made only
/// of such code points is NFC: Unicode's quick check answers "Yes" for it, and that
/// answer is exact.
fn starters() -> &'static [u64; TABLE_WORDS] {
    static TABLE: std::sync::OnceLock<Box<[u64; TABLE_WORDS]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Box::new([0u64; TABLE_WORDS]);
        for (cp, ch) in (0..TABLE_END).filter_map(|cp| char::from_u32(cp).map(|ch| (cp, ch))) {
            let stays = unicode_normalization::char::canonical_combining_class(ch) == 0
                && is_nfc_quick(std::iter::once(ch)) == IsNormalized::Yes;
            if stays {
                table[(cp / 64) as usize] |= 1 << (cp % 64);
            }
        }
        table
    })
}

/// Whether every code point of `s` is in [`starters`]' table, so that `s` is NFC.
///
/// The UTF-8 is read from its lead bytes (`s` is valid UTF-8), and a code point's word
/// and bit in the table come straight from its bytes: the word from the bits of every
/// byte but the last, the bit from the last byte's six. Bytes below 0xCC (ASCII,
/// continuation bytes, and the lead bytes of U+0080 to U+02FF, all in the table) are
/// passed over one at a time, so ASCII runs and Latin text cost one comparison a byte;
/// a lead byte at or above 0xCC costs one lookup, its continuation bytes then passed
/// over as any other.
fn is_nfc_by_table(s: &str) -> bool {
    let table = starters();
    let mut rest = s.as_bytes();
    loop {
        let (word, bit) = match *rest {
            [] => return true,
            [b, ref tail @ ..] if b < 0xcc => {
                rest = tail;
                continue;
            }
            // U+0300 to U+07FF: the word is the lead byte's five bits.
            [b @ 0xcc..=0xdf, c1, ref tail @ ..] => {
                rest = tail;
                (usize::from(b & 0x1f), c1)
            }
            // U+0800 to U+FFFF: the lead byte's four bits, then the first continuation's six.
            [b @ 0xe0..=0xef, c1, c2, ref tail @ ..] => {
                rest = tail;
                ((usize::from(b & 0x0f) << 6) | usize::from(c1 & 0x3f), c2)
            }
            // U+10000 to U+1FFFF (F0 90..9F): the two middle bytes' six bits each.
            [0xf0, c1 @ 0x90..=0x9f, c2, c3, ref tail @ ..] => {
                rest = tail;
                ((usize::from(c1 & 0x3f) << 6) | usize::from(c2 & 0x3f), c3)
            }
            // Past the table (or not UTF-8, which a `str` never is).
            _ => return false,
        };
        if table[word % TABLE_WORDS] >> (c_bits(bit)) & 1 == 0 {
            return false;
        }
    }
}

/// The six payload bits of a UTF-8 continuation byte.
#[inline(always)]
fn c_bits(b: u8) -> u32 {
    u32::from(b & 0x3f)
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

/// The bytes of a JSON document (a `show -json` plan or state, a `providers schema
/// -json` dump) as UTF-8, whatever Unicode encoding wrote it: a UTF-8 byte-order mark
/// is dropped, and UTF-16 is transcoded. UTF-16 is told by its byte-order mark
/// (`FF FE` little-endian, `FE FF` big-endian, as PowerShell's `>` writes), or, without
/// one, by the zero byte beside the first character (RFC 4627's rule: JSON text starts
/// with an ASCII character). Anything else is returned as it is, unchecked.
///
/// Invalid UTF-16 (an odd number of bytes, an unpaired surrogate) is an error with the
/// byte offset of the offending code unit.
pub(crate) fn utf8_document(input: &[u8]) -> Result<Cow<'_, [u8]>> {
    match input {
        [0xEF, 0xBB, 0xBF, rest @ ..] => Ok(Cow::Borrowed(rest)),
        [0xFF, 0xFE, rest @ ..] => utf16(rest, 2, u16::from_le_bytes).map(Cow::Owned),
        [0xFE, 0xFF, rest @ ..] => utf16(rest, 2, u16::from_be_bytes).map(Cow::Owned),
        [a, 0, ..] if *a != 0 => utf16(input, 0, u16::from_le_bytes).map(Cow::Owned),
        [0, b, ..] if *b != 0 => utf16(input, 0, u16::from_be_bytes).map(Cow::Owned),
        _ => Ok(Cow::Borrowed(input)),
    }
}

/// Transcodes UTF-16 `units` (which start at byte `offset` of the input) to UTF-8.
fn utf16(units: &[u8], offset: usize, unit: fn([u8; 2]) -> u16) -> Result<Vec<u8>> {
    let invalid = |what: &str, at: usize| {
        Error::new(
            ErrorKind::InvalidValue,
            format!("invalid UTF-16 in the document: {what}"),
        )
        .at_offset(offset + at)
    };
    let pairs = units.chunks_exact(2);
    if !pairs.remainder().is_empty() {
        return Err(invalid("an odd number of bytes", units.len() - 1));
    }
    let mut out = String::with_capacity(units.len() / 2);
    let code_units = pairs.map(|p| unit([p[0], p[1]]));
    let mut at = 0;
    for c in char::decode_utf16(code_units) {
        match c {
            Ok(c) => {
                out.push(c);
                at += 2 * c.len_utf16();
            }
            Err(e) => {
                return Err(invalid(
                    &format!("an unpaired surrogate {:#06x}", e.unpaired_surrogate()),
                    at,
                ))
            }
        }
    }
    Ok(out.into_bytes())
}

// ---- Go's `%q` quoting: the one home of the rule ----

/// `s` quoted as Go's `strconv.Quote` (and `%q`) quotes it, as a `String`.
pub(crate) fn go_quote(s: &str) -> String {
    let mut out = Vec::with_capacity(s.len() + 2);
    go_quote_into(s, &mut out);
    String::from_utf8(out).expect("Go's quoting of a string writes UTF-8")
}

/// Go's `strconv.Quote`, appended to `out`: printable characters (Go's
/// `strconv.IsPrint`, by its table in `value/printable.rs`) literal, `\"` and `\\`, the
/// short escapes, and `\x..`, `\u....` or `\U........` for every other character.
pub(crate) fn go_quote_into(s: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    let bytes = s.as_bytes();
    // `start..i` is a run of printable ASCII other than `"` and `\\`, copied as it is.
    let mut start = 0;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if (b' '..=b'~').contains(&b) && b != b'"' && b != b'\\' {
            i += 1;
            continue;
        }
        out.extend_from_slice(&bytes[start..i]);
        // `i` is a character boundary: only ASCII bytes were passed over.
        let c = s[i..].chars().next().unwrap_or(char::REPLACEMENT_CHARACTER);
        go_quote_char(c, out);
        i += c.len_utf8();
        start = i;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// One character of [`go_quote_into`].
fn go_quote_char(c: char, out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    {
        match c {
            '"' | '\\' => {
                out.push(b'\\');
                out.push(c as u8);
            }
            ' '..='~' => out.push(c as u8),
            '\u{7}' => out.extend_from_slice(b"\\a"),
            '\u{8}' => out.extend_from_slice(b"\\b"),
            '\u{c}' => out.extend_from_slice(b"\\f"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\r' => out.extend_from_slice(b"\\r"),
            '\t' => out.extend_from_slice(b"\\t"),
            '\u{b}' => out.extend_from_slice(b"\\v"),
            '\0'..='\u{1f}' | '\u{7f}' => {
                out.extend_from_slice(b"\\x");
                out.push(HEX[(c as usize) >> 4]);
                out.push(HEX[(c as usize) & 0xf]);
            }
            _ if is_printable(c) => {
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
            _ => {
                let (prefix, digits) = if (c as u32) < 0x10000 {
                    (b"\\u", 4)
                } else {
                    (b"\\U", 8)
                };
                out.extend_from_slice(prefix);
                for i in (0..digits).rev() {
                    out.push(HEX[((c as u32) >> (4 * i)) as usize & 0xf]);
                }
            }
        }
    }
}

/// Go's `strconv.IsPrint` for a character past ASCII.
fn is_printable(c: char) -> bool {
    let c = c as u32;
    crate::value::printable::PRINTABLE
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Characters around the table's edges: ASCII, Latin, combining marks (which
    /// compose with what comes before, or reorder), Greek and its singletons, Cyrillic
    /// and its combining marks, Hebrew and Arabic points, Devanagari (nukta, vowel signs
    /// that compose), Hangul syllables and the jamo that compose into them, kana and the
    /// voicing marks that compose with them, CJK and its compatibility ideographs
    /// (which decompose), emoji, and any character at all.
    pub(crate) fn text_char() -> impl Strategy<Value = char> {
        prop_oneof![
            prop::char::range('a', 'z'),
            prop::char::range('\u{c0}', '\u{2ff}'),
            prop::char::range('\u{300}', '\u{36f}'),
            prop::char::range('\u{370}', '\u{3ff}'),
            prop::char::range('\u{400}', '\u{52f}'),
            prop::char::range('\u{590}', '\u{6ff}'),
            prop::char::range('\u{900}', '\u{97f}'),
            prop::char::range('\u{1100}', '\u{11ff}'),
            prop::char::range('\u{1e00}', '\u{1fff}'),
            prop::char::range('\u{2000}', '\u{2bff}'),
            prop::char::range('\u{3040}', '\u{30ff}'),
            prop::char::range('\u{4e00}', '\u{4e40}'),
            prop::char::range('\u{ac00}', '\u{ac40}'),
            prop::char::range('\u{f900}', '\u{faff}'),
            prop::char::range('\u{1f300}', '\u{1f6ff}'),
            any::<char>(),
        ]
    }

    proptest! {
        #![proptest_config(crate::proptest_config(crate::test_cases(4096)))]

        /// The quick NFC check is exact where it answers: text it takes for NFC is what
        /// normalizing gives, and `nfc` gives the normalizer's text whichever path it takes.
        #[test]
        fn quick_nfc_check_agrees_with_normalizing(chars in prop::collection::vec(text_char(), 0..12)) {
            let s: String = chars.into_iter().collect();
            let normalized: String = s.nfc().collect();
            if is_nfc(&s) {
                prop_assert_eq!(&s, &normalized);
            }
            let quick = nfc(&s);
            prop_assert_eq!(quick.as_ref(), normalized.as_str());
        }
    }

    /// Strings of characters from every range the table treats apart: below U+0300
    /// (passed over by their bytes), two-, three- and four-byte sequences in the table,
    /// and past it.
    pub(crate) fn table_char() -> impl Strategy<Value = char> {
        prop_oneof![
            text_char(),
            prop::char::range('\u{7c0}', '\u{800}'),
            prop::char::range('\u{fff0}', '\u{10040}'),
            prop::char::range('\u{1ffc0}', '\u{20040}'),
            prop::char::range('\u{10ff00}', '\u{10ffff}'),
        ]
    }

    proptest! {
        #![proptest_config(crate::proptest_config(crate::test_cases(4096)))]

        /// The table check read from the UTF-8 bytes answers as looking each character
        /// up by its code point does.
        #[test]
        fn table_check_reads_the_bytes_as_characters(chars in prop::collection::vec(table_char(), 0..16)) {
            let s: String = chars.into_iter().collect();
            let table = starters();
            let by_chars = s.chars().all(|c| {
                let cp = u32::from(c);
                cp < TABLE_END && table[(cp / 64) as usize] >> (cp % 64) & 1 == 1
            });
            prop_assert_eq!(is_nfc_by_table(&s), by_chars, "{:?}", s);
        }
    }

    /// Common text of many scripts is taken for NFC without normalizing it; text that
    /// is not NFC never is.
    #[test]
    fn quick_nfc_check_takes_common_text() {
        for s in [
            "équipe",
            "größe",
            "Ελληνικά",
            "владелец",
            "מחלקה",
            "المشروع",
            "परियोजना",
            "プロジェクト",
            "担当者",
            "서울팀",
            "环境",
            "São Paulo",
            "😀",
        ] {
            assert!(is_nfc(s), "{s}");
        }
        for s in [
            "e\u{301}",
            "\u{1100}\u{1161}",
            "\u{30ab}\u{3099}",
            "a\u{323}\u{302}",
            "\u{f900}",
            "\u{387}",
            "\u{212b}",
        ] {
            assert!(!is_nfc(s), "{s:?}");
            assert_ne!(nfc(s), s, "{s:?}");
        }
    }

    #[test]
    fn identifiers() {
        for name in ["web_1-a", "_x", "x", "ñame", "a1"] {
            assert!(is_identifier(name), "{name}");
        }
        for name in ["1x", "-x", "", "a.b", "a b", "a\"b", "tags[0]"] {
            assert!(!is_identifier(name), "{name}");
        }
    }

    #[test]
    fn go_quote_matches_strconv() {
        let table = [
            ("a", r#""a""#),
            ("a\n", r#""a\n""#),
            ("\"\\", r#""\"\\""#),
            ("\u{1}\u{7f}", r#""\x01\x7f""#),
            ("\u{7}\u{8}\u{b}\u{c}\t\r", r#""\a\b\v\f\t\r""#),
            ("é☃", "\"é☃\""),
            ("\u{a0}\u{ad}", r#""\u00a0\u00ad""#),
            // Format characters Go does not print: soft hyphen, zero-width space and
            // joiner, left-to-right mark, byte-order mark.
            ("a\u{ad}b\u{200b}c", r#""a\u00adb\u200bc""#),
            ("\u{200d}\u{200e}\u{feff}", r#""\u200d\u200e\ufeff""#),
            ("\u{85}\u{2028}", r#""\u0085\u2028""#),
            ("\u{e0000}", r#""\U000e0000""#),
            ("\u{1F600}", "\"\u{1F600}\""),
        ];
        for (input, want) in table {
            assert_eq!(go_quote(input), want, "{input:?}");
        }
    }

    fn utf16le(s: &str) -> Vec<u8> {
        s.encode_utf16().flat_map(u16::to_le_bytes).collect()
    }

    fn utf16be(s: &str) -> Vec<u8> {
        s.encode_utf16().flat_map(u16::to_be_bytes).collect()
    }

    #[test]
    fn documents_in_every_unicode_encoding() {
        let text = "{\"a\": \"é😀\"}";
        let with_bom = |bom: &[u8], body: Vec<u8>| [bom, &body].concat();
        for input in [
            text.as_bytes().to_vec(),
            with_bom(&[0xEF, 0xBB, 0xBF], text.as_bytes().to_vec()),
            with_bom(&[0xFF, 0xFE], utf16le(text)),
            with_bom(&[0xFE, 0xFF], utf16be(text)),
            utf16le(text),
            utf16be(text),
        ] {
            assert_eq!(
                utf8_document(&input).unwrap(),
                text.as_bytes(),
                "{input:02x?}"
            );
        }
        // Plain UTF-8 is borrowed, unchecked.
        assert!(matches!(
            utf8_document(b"\xff{"),
            Ok(Cow::Borrowed(b"\xff{"))
        ));
        assert!(matches!(utf8_document(b""), Ok(Cow::Borrowed(b""))));
    }

    #[test]
    fn invalid_utf16_is_an_error_at_its_byte() {
        let odd = [0xFF, 0xFE, b'{', 0, b'}'];
        let e = utf8_document(&odd).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid UTF-16 in the document: an odd number of bytes at byte 4"
        );
        let lone = [&[0xFE, 0xFF, 0, b'['][..], &[0xD8, 0x3D], &[0, b']']].concat();
        let e = utf8_document(&lone).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid UTF-16 in the document: an unpaired surrogate 0xd83d at byte 4"
        );
    }
}

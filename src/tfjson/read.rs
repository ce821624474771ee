//! Walking a `show -json` document with the crate's JSON reader: objects, arrays and
//! the few scalar kinds the documents hold. Value sub-trees are kept as raw text.

use crate::error::{Error, ErrorKind, Result};
use crate::json::decode::with_line_column;
use crate::path::{Path, PathStep};
use crate::text::utf8_document;
use crate::token::json_read::{Kind, Reader};

use super::{raw_str, read_mark_tree, MarkTree, RawJson};

/// Reads a whole document with `f`, then checks nothing follows it; errors get a line
/// and column. The document may be UTF-8 (with or without a byte-order mark) or UTF-16
/// (see [`utf8_document`]); UTF-8 must be valid (Terraform writes invalid bytes as
/// escapes).
pub(super) fn document<T>(input: &[u8], f: impl FnOnce(&mut Reader<'_>) -> Result<T>) -> Result<T> {
    let bytes = utf8_document(input)?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        Error::new(ErrorKind::InvalidValue, "invalid UTF-8 in the document")
            .at_offset(e.valid_up_to())
    })?;
    let mut r = Reader::new(text.as_bytes());
    f(&mut r)
        .and_then(|v| r.finish().map(|()| v))
        .map_err(|e| with_line_column(e, text.as_bytes()))
}

fn expect(r: &mut Reader<'_>, want: Kind, expected: &str) -> Result<()> {
    let kind = r.peek_kind()?;
    if kind == want {
        Ok(())
    } else {
        Err(Error::mismatch(expected, kind.described()).at_offset(r.offset()))
    }
}

/// Calls `f` with each member's key, positioned at its value (which `f` must read or
/// skip). Errors get the key as an attribute step of their path.
pub(super) fn object<'a>(
    r: &mut Reader<'a>,
    mut f: impl FnMut(&str, &mut Reader<'a>) -> Result<()>,
) -> Result<()> {
    expect(r, Kind::Object, "an object")?;
    r.begin_object()?;
    while let Some(k) = r.next_key()? {
        f(&k, r).map_err(|e| e.in_attribute(&k))?;
    }
    Ok(())
}

/// Calls `f` at each element of an array; `null` is an empty array.
pub(super) fn array<'a>(
    r: &mut Reader<'a>,
    mut f: impl FnMut(&mut Reader<'a>) -> Result<()>,
) -> Result<()> {
    if r.peek_kind()? == Kind::Null {
        return r.read_null();
    }
    expect(r, Kind::Array, "an array")?;
    r.begin_array()?;
    let mut i = 0;
    while r.next_element()? {
        f(r).map_err(|e| e.in_index(i))?;
        i += 1;
    }
    Ok(())
}

/// An array read into a vector.
pub(super) fn list<'a, T>(
    r: &mut Reader<'a>,
    mut f: impl FnMut(&mut Reader<'a>) -> Result<T>,
) -> Result<Vec<T>> {
    let mut out = Vec::new();
    array(r, |r| {
        out.push(f(r)?);
        Ok(())
    })?;
    Ok(out)
}

/// `f`'s value, or `None` for `null`.
pub(super) fn optional<'a, T>(
    r: &mut Reader<'a>,
    f: impl FnOnce(&mut Reader<'a>) -> Result<T>,
) -> Result<Option<T>> {
    if r.peek_kind()? == Kind::Null {
        r.read_null()?;
        return Ok(None);
    }
    f(r).map(Some)
}

/// A string.
pub(super) fn string(r: &mut Reader<'_>) -> Result<String> {
    expect(r, Kind::String, "a string")?;
    Ok(r.read_string()?.into_owned())
}

/// A string, or `None` for `null`.
pub(super) fn opt_string(r: &mut Reader<'_>) -> Result<Option<String>> {
    if r.peek_kind()? == Kind::Null {
        r.read_null()?;
        return Ok(None);
    }
    string(r).map(Some)
}

/// A bool; `null` is `false`.
pub(super) fn boolean(r: &mut Reader<'_>) -> Result<bool> {
    if r.peek_kind()? == Kind::Null {
        r.read_null()?;
        return Ok(false);
    }
    expect(r, Kind::Bool, "a bool")?;
    r.read_bool()
}

/// A non-negative integer.
pub(super) fn uint(r: &mut Reader<'_>) -> Result<u64> {
    expect(r, Kind::Number, "a number")?;
    let at = r.offset();
    let text = r.read_number()?;
    text.parse().map_err(|_| {
        Error::new(
            ErrorKind::InvalidValue,
            format!("expected a non-negative integer, found {text}"),
        )
        .at_offset(at)
    })
}

/// One value's text.
pub(super) fn raw(r: &mut Reader<'_>) -> Result<RawJson> {
    let raw = r.raw_value()?;
    Ok(RawJson::from_trusted(raw_str(raw).to_owned()))
}

/// A boolean tree.
pub(super) fn tree(r: &mut Reader<'_>) -> Result<MarkTree> {
    read_mark_tree(r, 0)
}

/// A list of strings.
pub(super) fn strings(r: &mut Reader<'_>) -> Result<Vec<String>> {
    list(r, string)
}

/// A path as Terraform's `encodePath` writes it: an array of steps, each a string
/// (attribute or map key: the format does not say which; read as attributes), a
/// non-negative integer (an index), or another JSON value (a set element's value,
/// read with the type its JSON implies).
pub(super) fn path(r: &mut Reader<'_>) -> Result<Path> {
    let steps = list(r, |r| {
        if r.peek_kind()? == Kind::String {
            return Ok(PathStep::Attribute(r.read_string()?.into_owned()));
        }
        let raw = raw(r)?;
        if let Ok(i) = raw.as_str().parse::<u64>() {
            return Ok(PathStep::Index(i));
        }
        Ok(PathStep::SetElement(raw.decode_implied()?))
    })?;
    Ok(Path::from(steps))
}

/// Checks `format_version`: major version 1 (or 0, from Terraform 0.12 to 0.15), as the format's documentation asks
/// consumers to check.
pub(super) fn format_version(r: &mut Reader<'_>) -> Result<String> {
    let at = r.offset();
    let v = string(r)?;
    if !matches!(v.split('.').next(), Some("0" | "1")) {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!("unsupported format_version {v:?}: this crate reads major versions 0 and 1"),
        )
        .at_offset(at));
    }
    Ok(v)
}

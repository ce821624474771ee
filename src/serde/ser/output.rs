//! Where the serializer writes: MessagePack bytes and JSON text (with the codecs'
//! writers), or [`Value`]s.

use crate::error::{Error, ErrorKind, Result};
use crate::msgpack::encode as mp;
use crate::text;
use crate::token::json_write::write_string;
use crate::token::msgpack_read::Reader;
use crate::token::msgpack_write::{header as write_header, int as write_int, str as write_str};
use crate::types::{ObjectType, Type};
use crate::value::{Map, Number, Object, Set, Str, Value};

/// A list, a set or a tuple.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum SeqKind {
    List,
    Set,
    Tuple,
}

/// An output of the serializer. A compound value is written as a begin, its parts (an
/// element; an attribute name or map key, then its value), each after a separator, and
/// an end. `mark` is where the output stands (bytes written, or values made), which
/// the serializer records at the start of each part of a struct or map, to put the
/// parts in order ([`permute`](Output::permute)) when they did not come in order.
pub(crate) trait Output {
    /// Whether this output writes bytes: a value that needs the whole of itself is then
    /// made as a [`Value`] first.
    const BYTES: bool;

    fn mark(&self) -> usize;
    /// Drops what was written after `mark`.
    fn truncate(&mut self, mark: usize);
    fn null(&mut self);
    fn bool(&mut self, b: bool);
    fn int(&mut self, i: i64);
    fn number(&mut self, n: &Number) -> Result<()>;
    fn string(&mut self, s: &str);
    /// A whole value for a position of type `ty`, written by the codec (which converts
    /// a value of another type, as `msgpack::encode` does).
    fn value(&mut self, v: Value, ty: &Type) -> Result<()>;

    fn begin_sequence(&mut self, len: Option<usize>);
    /// Before part `index` of a compound value.
    fn separator(&mut self, index: usize);
    /// After the first [`PROJECT_AFTER`](mp::PROJECT_AFTER) of a sequence's `total`
    /// elements, written from `start`: room for the rest at their average size, as the
    /// codec's encoder makes it (bytes outputs only).
    #[inline]
    fn reserve_rest(&mut self, _start: usize, _total: usize) {}
    /// Ends a sequence of `count` elements, begun at `start` with `len` announced.
    fn end_sequence(
        &mut self,
        start: usize,
        count: usize,
        len: Option<usize>,
        kind: SeqKind,
    ) -> Result<()>;

    fn begin_object(&mut self, ty: &ObjectType);
    /// The name of attribute `i`.
    fn name(&mut self, ty: &ObjectType, i: usize);
    /// Ends an object whose attributes, all of them, were written in order from `start`.
    fn end_object(&mut self, ty: &ObjectType, start: usize);

    fn begin_map(&mut self, len: Option<usize>);
    /// A map key (or an attribute name of an object at a `dynamic` position), NFC.
    fn key(&mut self, key: &Str);
    /// A string that is NFC already.
    fn nfc_string(&mut self, s: &Str);
    /// Ends a map begun at `start` with `len` announced, whose entries were written in
    /// the order of `keys` (NFC, sorted, unique); `object` for an object value.
    fn end_map(
        &mut self,
        start: usize,
        len: Option<usize>,
        keys: &[Str],
        object: bool,
    ) -> Result<()>;

    /// The starts of the `count` parts of an object written from `start` (each an
    /// attribute name and its value), found by reading them again.
    fn part_starts(&self, start: usize, count: usize) -> Vec<usize>;

    /// Puts the last parts of the output, which start at `parts`, in the order `order`
    /// (positions in `parts`).
    fn permute(&mut self, parts: &[usize], order: &[usize]);
}

/// The error for a sequence or map that gave another number of parts than it said.
fn length_error(len: usize, count: usize) -> Error {
    Error::new(
        ErrorKind::Unencodable,
        format!("the Rust value said it has {len} elements, and gave {count}"),
    )
}

/// Reorders `bytes[parts[0]..]`, in which part k runs from `parts[k]` to the next
/// part's start (less `gap` bytes, the separator) or the end, into `order`, joined by
/// `separator`.
fn permute_bytes(
    bytes: &mut Vec<u8>,
    parts: &[usize],
    order: &[usize],
    gap: usize,
    separator: &[u8],
) {
    let Some(&first) = parts.first() else {
        return;
    };
    let end = bytes.len();
    let bounds = |k: usize| match parts.get(k + 1) {
        Some(&next) => (parts[k], next - gap),
        None => (parts[k], end),
    };
    let mut reordered = Vec::with_capacity(end - first);
    for (n, &k) in order.iter().enumerate() {
        if n > 0 {
            reordered.extend_from_slice(separator);
        }
        let (a, b) = bounds(k);
        reordered.extend_from_slice(&bytes[a..b]);
    }
    bytes.truncate(first);
    bytes.extend_from_slice(&reordered);
}

/// MessagePack, with the codec's writers.
#[derive(Default)]
pub(crate) struct MsgpackOutput(pub(crate) Vec<u8>);

impl MsgpackOutput {
    /// Writes the header of `count` items, announced or not, in front of the items
    /// written from `start`.
    fn header(
        &mut self,
        start: usize,
        count: usize,
        len: Option<usize>,
        fix: u8,
        wide: u8,
    ) -> Result<()> {
        match len {
            Some(len) if len == count => Ok(()),
            Some(len) => Err(length_error(len, count)),
            None => {
                let mut header = Vec::with_capacity(5);
                write_header(count, fix, wide, &mut header);
                self.0.splice(start..start, header);
                Ok(())
            }
        }
    }
}

impl Output for MsgpackOutput {
    const BYTES: bool = true;

    #[inline]
    fn mark(&self) -> usize {
        self.0.len()
    }

    fn truncate(&mut self, mark: usize) {
        self.0.truncate(mark);
    }

    fn null(&mut self) {
        self.0.push(0xc0);
    }

    fn bool(&mut self, b: bool) {
        self.0.push(if b { 0xc3 } else { 0xc2 });
    }

    #[inline]
    fn int(&mut self, i: i64) {
        write_int(i, &mut self.0);
    }

    fn number(&mut self, n: &Number) -> Result<()> {
        mp::number(n, &mut self.0);
        Ok(())
    }

    #[inline]
    fn string(&mut self, s: &str) {
        write_str(text::nfc(s).as_bytes(), &mut self.0);
    }

    fn value(&mut self, v: Value, ty: &Type) -> Result<()> {
        crate::msgpack::encode_into(&v, ty, &mut self.0)
    }

    fn begin_sequence(&mut self, len: Option<usize>) {
        if let Some(n) = len {
            write_header(n, 0x90, 0xdc, &mut self.0);
        }
    }

    #[inline]
    fn separator(&mut self, _: usize) {}

    fn reserve_rest(&mut self, start: usize, total: usize) {
        mp::reserve_rest(&mut self.0, start, total);
    }

    fn end_sequence(
        &mut self,
        start: usize,
        count: usize,
        len: Option<usize>,
        _: SeqKind,
    ) -> Result<()> {
        self.header(start, count, len, 0x90, 0xdc)
    }

    fn begin_object(&mut self, ty: &ObjectType) {
        write_header(ty.len(), 0x80, 0xde, &mut self.0);
    }

    #[inline(always)]
    fn name(&mut self, ty: &ObjectType, i: usize) {
        ty.msgpack_names(write_str).append(i, &mut self.0);
    }

    fn end_object(&mut self, _: &ObjectType, _: usize) {}

    fn begin_map(&mut self, len: Option<usize>) {
        if let Some(n) = len {
            write_header(n, 0x80, 0xde, &mut self.0);
        }
    }

    fn key(&mut self, key: &Str) {
        mp::string(key, &mut self.0);
    }

    fn nfc_string(&mut self, s: &Str) {
        mp::string(s, &mut self.0);
    }

    fn end_map(&mut self, start: usize, len: Option<usize>, keys: &[Str], _: bool) -> Result<()> {
        self.header(start, keys.len(), len, 0x80, 0xde)
    }

    fn part_starts(&self, start: usize, count: usize) -> Vec<usize> {
        let mut r = Reader::at(&self.0[start..], start);
        let mut starts = Vec::with_capacity(count);
        for _ in 0..count {
            starts.push(r.offset());
            // What this serializer wrote reads back.
            let _ = r.skip(0).and_then(|()| r.skip(0));
        }
        starts
    }

    fn permute(&mut self, parts: &[usize], order: &[usize]) {
        permute_bytes(&mut self.0, parts, order, 0, b"");
    }
}

/// JSON, with the codec's writers.
#[derive(Default)]
pub(crate) struct JsonOutput(pub(crate) Vec<u8>);

impl JsonOutput {
    fn count(count: usize, len: Option<usize>) -> Result<()> {
        match len {
            Some(len) if len != count => Err(length_error(len, count)),
            _ => Ok(()),
        }
    }
}

impl Output for JsonOutput {
    const BYTES: bool = true;

    #[inline]
    fn mark(&self) -> usize {
        self.0.len()
    }

    fn truncate(&mut self, mark: usize) {
        self.0.truncate(mark);
    }

    fn null(&mut self) {
        self.0.extend_from_slice(b"null");
    }

    fn bool(&mut self, b: bool) {
        self.0.extend_from_slice(if b { b"true" } else { b"false" });
    }

    fn int(&mut self, i: i64) {
        Number::from(i).write_text(&mut self.0);
    }

    fn number(&mut self, n: &Number) -> Result<()> {
        if n.is_infinite() {
            return Err(Error::new(
                ErrorKind::Unencodable,
                "cannot serialize infinity as JSON",
            ));
        }
        n.write_text(&mut self.0);
        Ok(())
    }

    fn string(&mut self, s: &str) {
        write_string(&mut self.0, text::nfc(s).as_bytes());
    }

    fn value(&mut self, v: Value, ty: &Type) -> Result<()> {
        crate::json::encode_into(&v, ty, &mut self.0)
    }

    fn begin_sequence(&mut self, _: Option<usize>) {
        self.0.push(b'[');
    }

    #[inline]
    fn separator(&mut self, index: usize) {
        if index > 0 {
            self.0.push(b',');
        }
    }

    fn reserve_rest(&mut self, start: usize, total: usize) {
        mp::reserve_rest(&mut self.0, start, total);
    }

    fn end_sequence(
        &mut self,
        _: usize,
        count: usize,
        len: Option<usize>,
        _: SeqKind,
    ) -> Result<()> {
        self.0.push(b']');
        JsonOutput::count(count, len)
    }

    fn begin_object(&mut self, _: &ObjectType) {
        self.0.push(b'{');
    }

    fn name(&mut self, ty: &ObjectType, i: usize) {
        // The encoded names of all but the first start with their `,`.
        let name = ty.json_names().get(i);
        self.0.extend_from_slice(&name[usize::from(i > 0)..]);
    }

    fn end_object(&mut self, _: &ObjectType, _: usize) {
        self.0.push(b'}');
    }

    fn begin_map(&mut self, _: Option<usize>) {
        self.0.push(b'{');
    }

    fn key(&mut self, key: &Str) {
        write_string(&mut self.0, key.as_bytes());
        self.0.push(b':');
    }

    fn nfc_string(&mut self, s: &Str) {
        write_string(&mut self.0, s.as_bytes());
    }

    fn end_map(&mut self, _: usize, len: Option<usize>, keys: &[Str], _: bool) -> Result<()> {
        self.0.push(b'}');
        JsonOutput::count(keys.len(), len)
    }

    fn part_starts(&self, start: usize, count: usize) -> Vec<usize> {
        // `start` follows the object's `{`.
        let mut r = crate::token::json_read::Reader::new(&self.0);
        r.seek(start - 1);
        let mut starts = Vec::with_capacity(count);
        if r.begin_object().is_ok() {
            for _ in 0..count {
                match r.next_key_at() {
                    Ok(Some((_, at))) => starts.push(at),
                    _ => break,
                }
                if r.skip_value().is_err() {
                    break;
                }
            }
        }
        starts
    }

    fn permute(&mut self, parts: &[usize], order: &[usize]) {
        permute_bytes(&mut self.0, parts, order, 1, b",");
    }
}

/// Values: each part is one value on a stack, and a compound value takes its parts off
/// the stack at its end.
#[derive(Default)]
pub(crate) struct ValueOutput {
    stack: Vec<Value>,
}

impl ValueOutput {
    /// The value written.
    pub(crate) fn finish(mut self) -> Value {
        self.stack.pop().unwrap_or(Value::Null)
    }
}

impl Output for ValueOutput {
    const BYTES: bool = false;

    fn mark(&self) -> usize {
        self.stack.len()
    }

    fn truncate(&mut self, mark: usize) {
        self.stack.truncate(mark);
    }

    fn null(&mut self) {
        self.stack.push(Value::Null);
    }

    fn bool(&mut self, b: bool) {
        self.stack.push(Value::Bool(b));
    }

    fn int(&mut self, i: i64) {
        self.stack.push(Value::from(i));
    }

    fn number(&mut self, n: &Number) -> Result<()> {
        self.stack.push(Value::Number(n.clone()));
        Ok(())
    }

    fn string(&mut self, s: &str) {
        self.stack.push(Value::string(s));
    }

    fn value(&mut self, v: Value, _: &Type) -> Result<()> {
        self.stack.push(v);
        Ok(())
    }

    fn begin_sequence(&mut self, _: Option<usize>) {}

    fn separator(&mut self, _: usize) {}

    fn end_sequence(
        &mut self,
        start: usize,
        _: usize,
        _: Option<usize>,
        kind: SeqKind,
    ) -> Result<()> {
        let elements = self.stack.split_off(start);
        self.stack.push(match kind {
            SeqKind::List => Value::List(elements.into()),
            SeqKind::Tuple => Value::Tuple(elements.into()),
            SeqKind::Set => Value::Set(Set::new(elements)),
        });
        Ok(())
    }

    fn begin_object(&mut self, _: &ObjectType) {}

    fn name(&mut self, _: &ObjectType, _: usize) {}

    fn end_object(&mut self, ty: &ObjectType, start: usize) {
        let values = self.stack.split_off(start);
        self.stack.push(Value::Object(Box::new(Object::from_parts(
            ty.names().clone(),
            values.into(),
        ))));
    }

    fn begin_map(&mut self, _: Option<usize>) {}

    fn key(&mut self, _: &Str) {}

    fn nfc_string(&mut self, s: &Str) {
        self.stack.push(Value::String(s.clone()));
    }

    fn end_map(
        &mut self,
        start: usize,
        _: Option<usize>,
        keys: &[Str],
        object: bool,
    ) -> Result<()> {
        let values = self.stack.split_off(start);
        let entries = keys.iter().cloned().zip(values);
        self.stack.push(if object {
            Value::object(entries.map(|(k, v)| (String::from(k), v)))
        } else {
            Value::Map(Map::from_sorted(entries.collect()))
        });
        Ok(())
    }

    fn part_starts(&self, start: usize, count: usize) -> Vec<usize> {
        (start..start + count).collect()
    }

    fn permute(&mut self, parts: &[usize], order: &[usize]) {
        let Some(&first) = parts.first() else {
            return;
        };
        let mut values: Vec<Option<Value>> = self.stack.drain(first..).map(Some).collect();
        self.stack.extend(
            order
                .iter()
                .map(|&k| values[k].take().unwrap_or(Value::Null)),
        );
    }
}

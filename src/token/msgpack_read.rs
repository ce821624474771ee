//! The token layer: a cursor over MessagePack bytes that reads one marker and its
//! header at a time, with every length checked against the bytes that remain.

use rmp::Marker;

use crate::error::{Error, ErrorKind, Result};

/// One MessagePack item header: the marker and what it says about the item.
///
/// Counts are `usize`, a word at an aligned offset like the other payloads: as `u32`s
/// beside the one-byte fields, every copy of a token was read back in pieces wider
/// than they were written, a failed store-to-load forward per token (the instances
/// decode took 6.7 ms instead of 5.8).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Token<'a> {
    Nil,
    Bool(bool),
    /// Any signed-integer form.
    Int(i64),
    /// Any unsigned-integer form.
    UInt(u64),
    /// float32 (widened exactly) or float64.
    Float(f64),
    /// str8/16/32 or fixstr: the raw bytes, not yet checked as UTF-8.
    Str(&'a [u8]),
    /// bin8/16/32.
    Bin(&'a [u8]),
    /// An array header with its element count.
    Array(usize),
    /// A map header with its entry count.
    Map(usize),
    /// An extension: type code and payload.
    Ext(i8, &'a [u8]),
}

impl Token<'_> {
    /// What this token is, for "expected X, found Y" messages.
    pub(crate) fn describe(&self) -> &'static str {
        match self {
            Token::Nil => "nil",
            Token::Bool(_) => "bool",
            Token::Int(_) | Token::UInt(_) => "integer",
            Token::Float(_) => "float",
            Token::Str(_) => "string",
            Token::Bin(_) => "binary",
            Token::Array(_) => "array",
            Token::Map(_) => "map",
            Token::Ext(..) => "extension",
        }
    }
}

/// A cursor over a MessagePack payload.
pub(crate) struct Reader<'a> {
    input: &'a [u8],
    pos: usize,
    /// The offset of `input` within the whole payload, for error positions.
    base: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(input: &'a [u8]) -> Self {
        Reader::at(input, 0)
    }

    /// A reader over `input`, which starts at offset `base` of the whole payload.
    pub(crate) fn at(input: &'a [u8], base: usize) -> Self {
        Reader {
            input,
            pos: 0,
            base,
        }
    }

    /// A reader of the input from this reader's position on, for a second look
    /// (an error message reading ahead).
    pub(crate) fn rest(&self) -> Reader<'a> {
        Reader::at(&self.input[self.pos..], self.offset())
    }

    /// The offset of the next byte in the whole payload.
    pub(crate) fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// The number of bytes not yet read.
    pub(crate) fn remaining(&self) -> usize {
        self.input.len() - self.pos
    }

    /// Whether the input is exhausted.
    pub(crate) fn is_empty(&self) -> bool {
        self.pos >= self.input.len()
    }

    /// The `n` bytes that start `skip` bytes after the current position, if there are.
    #[inline]
    pub(crate) fn ahead(&self, skip: usize, n: usize) -> Option<&'a [u8]> {
        let start = self.pos + skip;
        self.input.get(start..start + n)
    }

    /// Moves `n` bytes on; the caller has seen them with [`Reader::ahead`] or
    /// [`Reader::peek`].
    #[inline]
    pub(crate) fn advance(&mut self, n: usize) {
        self.pos += n;
    }

    /// Moves past `bytes` if the input continues with them.
    #[inline]
    pub(crate) fn skip_if(&mut self, bytes: &[u8]) -> bool {
        let next = self.input.get(self.pos..self.pos + bytes.len());
        if next.is_some_and(|next| equal_bytes(next, bytes)) {
            self.pos += bytes.len();
            true
        } else {
            false
        }
    }

    /// The next marker byte, without consuming it.
    pub(crate) fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        if self.remaining() < n {
            return Err(Error::eof(format_args!("{n} bytes of {what}")).at_offset(self.offset()));
        }
        let bytes = &self.input[self.pos..self.pos + n];
        self.pos += n;
        Ok(bytes)
    }

    fn be<const N: usize>(&mut self, what: &str) -> Result<[u8; N]> {
        let bytes = self.take(N, what)?;
        let mut out = [0; N];
        out.copy_from_slice(bytes);
        Ok(out)
    }

    fn len8(&mut self) -> Result<usize> {
        Ok(self.be::<1>("a length")?[0] as usize)
    }

    fn len16(&mut self) -> Result<usize> {
        Ok(u16::from_be_bytes(self.be("a length")?) as usize)
    }

    fn len32(&mut self) -> Result<usize> {
        Ok(u32::from_be_bytes(self.be("a length")?) as usize)
    }

    /// Reads one token: a marker and its header (and, for strings, binaries and
    /// extensions, their payload). The caller reads array and map contents.
    ///
    /// The one-byte forms that make up most of a payload (positive fixint, fixstr,
    /// fixarray, fixmap) are read here; every other marker by [`Self::token_slow`].
    #[inline]
    pub(crate) fn token(&mut self, expected: &str) -> Result<Token<'a>> {
        if let Some(&byte) = self.input.get(self.pos) {
            match byte {
                0x00..=0x7f => {
                    self.pos += 1;
                    return Ok(Token::Int(i64::from(byte)));
                }
                0xa0..=0xbf => {
                    let n = usize::from(byte & 0x1f);
                    let start = self.pos + 1;
                    if let Some(bytes) = self.input.get(start..start + n) {
                        self.pos = start + n;
                        return Ok(Token::Str(bytes));
                    }
                }
                0x90..=0x9f => {
                    self.pos += 1;
                    return Ok(Token::Array(usize::from(byte & 0x0f)));
                }
                0x80..=0x8f => {
                    self.pos += 1;
                    return Ok(Token::Map(usize::from(byte & 0x0f)));
                }
                _ => {}
            }
        }
        self.token_slow(expected)
    }

    /// [`Self::token`] for every marker, with the errors.
    #[inline(never)]
    fn token_slow(&mut self, expected: &str) -> Result<Token<'a>> {
        let start = self.offset();
        let Some(byte) = self.peek() else {
            return Err(Error::eof(expected).at_offset(start));
        };
        self.pos += 1;
        let token = match Marker::from_u8(byte) {
            Marker::FixPos(n) => Token::Int(n as i64),
            Marker::FixNeg(n) => Token::Int(n as i64),
            Marker::Null => Token::Nil,
            Marker::False => Token::Bool(false),
            Marker::True => Token::Bool(true),
            Marker::U8 => Token::UInt(self.be::<1>("a uint8")?[0] as u64),
            Marker::U16 => Token::UInt(u16::from_be_bytes(self.be("a uint16")?) as u64),
            Marker::U32 => Token::UInt(u32::from_be_bytes(self.be("a uint32")?) as u64),
            Marker::U64 => Token::UInt(u64::from_be_bytes(self.be("a uint64")?)),
            Marker::I8 => Token::Int(i8::from_be_bytes(self.be("an int8")?) as i64),
            Marker::I16 => Token::Int(i16::from_be_bytes(self.be("an int16")?) as i64),
            Marker::I32 => Token::Int(i32::from_be_bytes(self.be("an int32")?) as i64),
            Marker::I64 => Token::Int(i64::from_be_bytes(self.be("an int64")?)),
            Marker::F32 => Token::Float(f32::from_be_bytes(self.be("a float32")?) as f64),
            Marker::F64 => Token::Float(f64::from_be_bytes(self.be("a float64")?)),
            Marker::FixStr(n) => Token::Str(self.take(n as usize, "a string")?),
            Marker::Str8 => {
                let n = self.len8()?;
                Token::Str(self.take(n, "a string")?)
            }
            Marker::Str16 => {
                let n = self.len16()?;
                Token::Str(self.take(n, "a string")?)
            }
            Marker::Str32 => {
                let n = self.len32()?;
                Token::Str(self.take(n, "a string")?)
            }
            Marker::Bin8 => {
                let n = self.len8()?;
                Token::Bin(self.take(n, "binary data")?)
            }
            Marker::Bin16 => {
                let n = self.len16()?;
                Token::Bin(self.take(n, "binary data")?)
            }
            Marker::Bin32 => {
                let n = self.len32()?;
                Token::Bin(self.take(n, "binary data")?)
            }
            Marker::FixArray(n) => Token::Array(usize::from(n)),
            Marker::Array16 => Token::Array(self.len16()?),
            Marker::Array32 => Token::Array(self.len32()?),
            Marker::FixMap(n) => Token::Map(usize::from(n)),
            Marker::Map16 => Token::Map(self.len16()?),
            Marker::Map32 => Token::Map(self.len32()?),
            Marker::FixExt1 => self.ext(1)?,
            Marker::FixExt2 => self.ext(2)?,
            Marker::FixExt4 => self.ext(4)?,
            Marker::FixExt8 => self.ext(8)?,
            Marker::FixExt16 => self.ext(16)?,
            Marker::Ext8 => {
                let n = self.len8()?;
                self.ext(n)?
            }
            Marker::Ext16 => {
                let n = self.len16()?;
                self.ext(n)?
            }
            Marker::Ext32 => {
                let n = self.len32()?;
                self.ext(n)?
            }
            Marker::Reserved => {
                return Err(Error::new(
                    ErrorKind::Syntax,
                    "invalid MessagePack marker 0xc1".to_string(),
                )
                .at_offset(start))
            }
        };
        Ok(token)
    }

    fn ext(&mut self, len: usize) -> Result<Token<'a>> {
        let code = self.be::<1>("an extension type")?[0] as i8;
        Ok(Token::Ext(code, self.take(len, "extension data")?))
    }

    /// Checks that `count` items, each at least `min_size` bytes, could fit in what
    /// remains: a length header can never make a decoder reserve more than the input
    /// could hold.
    pub(crate) fn check_count(&self, count: usize, min_size: usize, at: usize) -> Result<usize> {
        if count.saturating_mul(min_size) > self.remaining() {
            return Err(Error::eof(format_args!(
                "{count} elements, but only {} bytes remain",
                self.remaining()
            ))
            .at_offset(at));
        }
        Ok(count)
    }

    /// A reader of this reader's input from `offset`, an earlier offset of it (with no
    /// dynamic types read yet), to read items again.
    pub(crate) fn rewound(&self, offset: usize) -> Reader<'a> {
        Reader::at(&self.input[offset - self.base..], offset)
    }

    /// The offset reached by skipping `n` whole items from `offset`, an earlier offset
    /// of this reader's input whose items were read before: how an error path finds
    /// an item's offset without the decoder recording every one.
    pub(crate) fn offset_after_items(&self, offset: usize, n: usize) -> usize {
        let mut r = self.rewound(offset);
        for _ in 0..n {
            if r.skip(0).is_err() {
                break;
            }
        }
        r.offset()
    }

    /// Skips one whole item (used for refinement keys this crate does not know).
    pub(crate) fn skip(&mut self, depth: usize) -> Result<()> {
        if depth > crate::limits::MAX_DEPTH {
            return Err(crate::limits::depth_exceeded("value").at_offset(self.offset()));
        }
        let at = self.offset();
        match self.token("a value")? {
            Token::Array(n) => {
                for _ in 0..self.check_count(n, 1, at)? {
                    self.skip(depth + 1)?;
                }
            }
            Token::Map(n) => {
                for _ in 0..self.check_count(n, 2, at)? {
                    self.skip(depth + 1)?;
                    self.skip(depth + 1)?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// Whether `a` and `b` (of one length) are equal, compared a word at a time without a
/// call to `memcmp`: cheaper for the short attribute names that are compared once per
/// attribute of every object.
#[inline(always)]
fn equal_bytes(a: &[u8], b: &[u8]) -> bool {
    debug_assert_eq!(a.len(), b.len());
    let n = a.len();
    let word = |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().unwrap_or([0; 8]));
    let half = |s: &[u8], i: usize| u32::from_le_bytes(s[i..i + 4].try_into().unwrap_or([0; 4]));
    if n < 4 {
        return a.iter().zip(b).all(|(x, y)| x == y);
    }
    if n < 8 {
        return half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4);
    }
    let mut i = 0;
    while i + 8 < n {
        if word(a, i) != word(b, i) {
            return false;
        }
        i += 8;
    }
    // The last word, overlapping the one before when n is not a multiple of 8.
    word(a, n - 8) == word(b, n - 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length up to 40, equal and differing at every position.
    #[test]
    fn equal_bytes_agrees_with_slice_equality() {
        for n in 0..40 {
            let a: Vec<u8> = (0..n as u8).map(|i| i.wrapping_mul(37)).collect();
            assert!(equal_bytes(&a, &a.clone()));
            for i in 0..n {
                let mut b = a.clone();
                b[i] ^= 0x40;
                assert!(!equal_bytes(&a, &b), "length {n}, differing at {i}");
            }
        }
    }
}

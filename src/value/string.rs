//! [`Str`]: the text of a string value, stored inline when short.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

/// The most bytes a [`Str`] holds without a heap allocation.
pub(crate) const INLINE: usize = 22;

/// The text of a string value ([`Value::String`](crate::Value::String)).
///
/// A `Str` is UTF-8 text like a `Box<str>`, but text of up to 22 bytes (identifiers, tag
/// keys and values, addresses, most of what a Terraform state holds) is kept inside the
/// value itself, with no heap allocation. It dereferences to `str`, and compares, orders
/// and hashes as its text does.
///
/// ```
/// use ctywire::{Str, Value};
///
/// let v = Value::from("ami-0123456789abcdef0");
/// let Value::String(s) = &v else { unreachable!() };
/// assert_eq!(s.as_str(), "ami-0123456789abcdef0");
/// assert!(s.starts_with("ami-"));
/// assert_eq!(*s, Str::from("ami-0123456789abcdef0"));
/// ```
#[derive(Clone)]
pub struct Str(Repr);

#[derive(Clone)]
enum Repr {
    /// `len` bytes of UTF-8 at the start of `bytes`; the bytes after them are
    /// unspecified and never read.
    Inline {
        len: u8,
        bytes: [u8; INLINE],
    },
    Heap(Box<str>),
}

impl Str {
    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Heap(s) => s,
            // A `Str` is only ever built from text, so this cannot fail: the check is the
            // price of `unsafe_code = "forbid"`, a few nanoseconds on 22 bytes at most.
            Repr::Inline { .. } => std::str::from_utf8(self.as_bytes())
                .expect("an inline Str holds the bytes of a str"),
        }
    }

    /// The text's UTF-8 bytes, without checking them again.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            Repr::Inline { len, bytes } => &bytes[..usize::from(*len)],
            Repr::Heap(s) => s.as_bytes(),
        }
    }

    /// The ASCII text `window[..len]` stored inline, copied as the whole fixed-size
    /// `window` (the bytes past `len` are never read). The caller has checked that
    /// `len` is at most [`INLINE`] and `window[..len]` is ASCII.
    #[inline(always)]
    pub(crate) fn from_ascii_window(window: &[u8; INLINE], len: usize) -> Str {
        debug_assert!(len <= INLINE && window[..len].is_ascii());
        Str(Repr::Inline {
            len: len as u8,
            bytes: *window,
        })
    }

    /// The bytes of an inline text with the unused rest of its buffer, and its length:
    /// what an encoder copies at a fixed size (see
    /// [`append_short`](crate::text::append_short)).
    #[inline]
    pub(crate) fn inline_buffer(&self) -> Option<(&[u8; INLINE], usize)> {
        match &self.0 {
            Repr::Inline { len, bytes } => Some((bytes, usize::from(*len))),
            Repr::Heap(_) => None,
        }
    }

    /// The text's length in bytes.
    #[inline]
    pub fn len(&self) -> usize {
        self.as_bytes().len()
    }

    /// Whether the text is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl From<&str> for Str {
    #[inline]
    fn from(s: &str) -> Str {
        if s.len() <= INLINE {
            let mut bytes = [0; INLINE];
            bytes[..s.len()].copy_from_slice(s.as_bytes());
            Str(Repr::Inline {
                len: s.len() as u8,
                bytes,
            })
        } else {
            Str(Repr::Heap(s.into()))
        }
    }
}

impl From<Box<str>> for Str {
    fn from(s: Box<str>) -> Str {
        if s.len() <= INLINE {
            Str::from(&*s)
        } else {
            Str(Repr::Heap(s))
        }
    }
}

impl From<String> for Str {
    fn from(s: String) -> Str {
        if s.len() <= INLINE {
            Str::from(s.as_str())
        } else {
            Str(Repr::Heap(s.into_boxed_str()))
        }
    }
}

impl From<Cow<'_, str>> for Str {
    #[inline]
    fn from(s: Cow<'_, str>) -> Str {
        match s {
            Cow::Borrowed(s) => Str::from(s),
            Cow::Owned(s) => Str::from(s),
        }
    }
}

impl From<Str> for String {
    fn from(s: Str) -> String {
        match s.0 {
            Repr::Heap(s) => s.into_string(),
            Repr::Inline { .. } => s.as_str().to_owned(),
        }
    }
}

impl std::ops::Deref for Str {
    type Target = str;

    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Str {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<[u8]> for Str {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl Default for Str {
    fn default() -> Str {
        Str::from("")
    }
}

impl PartialEq for Str {
    #[inline]
    fn eq(&self, other: &Str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for Str {}

impl PartialEq<str> for Str {
    fn eq(&self, other: &str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialEq<&str> for Str {
    fn eq(&self, other: &&str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialOrd for Str {
    fn partial_cmp(&self, other: &Str) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Str {
    /// Bytewise, as `str` orders (and Go orders strings).
    #[inline]
    fn cmp(&self, other: &Str) -> Ordering {
        self.as_bytes().cmp(other.as_bytes())
    }
}

impl Hash for Str {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write(self.as_bytes());
        state.write_u8(0xff);
    }
}

impl fmt::Debug for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_text_behave_alike() {
        for text in [
            "",
            "a",
            "ïdentité",
            &"x".repeat(22),
            &"y".repeat(23),
            &"é".repeat(40),
        ] {
            let s = Str::from(text);
            assert_eq!(s.as_str(), text);
            assert_eq!(s.as_bytes(), text.as_bytes());
            assert_eq!(s.len(), text.len());
            assert_eq!(Str::from(text.to_owned()), s);
            assert_eq!(Str::from(Box::<str>::from(text)), s);
            assert_eq!(String::from(s.clone()), text);
            assert_eq!(format!("{s:?}"), format!("{text:?}"));
        }
        let ordered = ["", "a", &"a".repeat(30), "ab", "abd", &"y".repeat(30), "z"].map(Str::from);
        assert!(ordered.windows(2).all(|w| w[0] < w[1]));
    }

    /// Text copied from a window of input equals the same text built from a `str`,
    /// whatever follows it in the window.
    #[test]
    fn window_text_ignores_the_rest_of_the_window() {
        let window = b"abcdefghijklmnopqrstuv";
        for len in 0..=INLINE {
            let s = Str::from_ascii_window(window, len);
            assert_eq!(s, Str::from(&"abcdefghijklmnopqrstuv"[..len]));
            assert_eq!(s.as_str(), &"abcdefghijklmnopqrstuv"[..len]);
        }
    }

    /// The inline form must not make values bigger.
    #[test]
    fn a_str_keeps_a_value_at_24_bytes() {
        assert_eq!(std::mem::size_of::<Str>(), 24);
        assert_eq!(std::mem::size_of::<crate::Value>(), 24);
    }
}

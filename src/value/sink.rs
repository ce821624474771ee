//! Where a decoder puts each value it decodes.

use crate::value::Value;

/// Where a decoded value goes: returned ([`Return`]), or stored in its slot of a
/// collection's elements (`&mut Value`). A value is built where it is stored: returning
/// it from a function and copying it into a vector costs a failed store-to-load forward
/// (the copy reads it wider than it was written), on every value.
pub(crate) trait Sink {
    /// What the decoding function returns.
    type Output;
    /// Takes the decoded value.
    fn put(self, value: Value) -> Self::Output;
}

/// The [`Sink`] that returns the value.
pub(crate) struct Return;

impl Sink for Return {
    type Output = Value;
    #[inline(always)]
    fn put(self, value: Value) -> Value {
        value
    }
}

impl Sink for &mut Value {
    type Output = ();
    #[inline(always)]
    fn put(self, value: Value) {
        // The slot holds a null (see `nulls`), which owns nothing: there is no drop to
        // run, and skipping it keeps a call out of the loop.
        debug_assert!(matches!(self, Value::Null));
        std::mem::forget(std::mem::replace(self, value));
    }
}

/// `n` nulls, for decoding into.
pub(crate) fn nulls(n: usize) -> Box<[Value]> {
    (0..n).map(|_| Value::Null).collect()
}

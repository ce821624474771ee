//! How a whole [`Value`] crosses serde's interface between the bridge's own
//! (de)serializers and the serde impls of [`Value`], [`Number`](crate::Number) and
//! [`Known`](crate::Known).
//!
//! serde hands data over as primitives, sequences and maps; a cty value is more (an
//! unknown with refinements, a value at a `dynamic` position with its concrete type, a
//! set in go-cty's order, a number that remembers its origin). So those impls name one
//! of the tokens below (`deserialize_newtype_struct(TOKEN, ..)`, `serialize_newtype_struct
//! (VALUE_TOKEN, ..)`), and when the bridge sees the token it hands the value over whole,
//! through a thread-local slot, within that one call:
//!
//! - decoding, the deserializer decodes the value with the codec ([`give`]), then calls
//!   `visit_unit` on the impl's visitor, which [`take`]s it;
//! - encoding, the serializer asks for the value ([`capture`]): the impl's `Serialize`
//!   sees that it is [`wanted`] and [`give`]s a copy, which the serializer writes with
//!   the codec.
//!
//! Any other serde format sees an ordinary newtype and gets the values' plain forms.

use std::cell::{Cell, RefCell};

use crate::error::{Error, ErrorKind, Result};
use crate::value::Value;

/// The name `Value` and `Number` give their newtype when they serialize, and `Value`
/// when it deserializes.
pub(crate) const VALUE_TOKEN: &str = "$ctywire::Value";
/// The name `Number` gives its newtype when it deserializes: a number, not null nor
/// unknown.
pub(crate) const NUMBER_TOKEN: &str = "$ctywire::Number";
/// The name `Known<T>` gives its newtype (inside `deserialize_option`): a value that may
/// be unknown.
pub(crate) const KNOWN_TOKEN: &str = "$ctywire::Known";

thread_local! {
    static SLOT: RefCell<Option<Value>> = const { RefCell::new(None) };
    static WANTED: Cell<bool> = const { Cell::new(false) };
}

/// Puts `value` in the slot, for the visitor called next to [`take`].
pub(crate) fn give(value: Value) {
    SLOT.with(|slot| *slot.borrow_mut() = Some(value));
}

/// Takes the value given by the bridge, if it gave one.
pub(crate) fn take() -> Option<Value> {
    SLOT.with(|slot| slot.borrow_mut().take())
}

/// Whether the bridge's serializer is asking for a value ([`capture`]).
pub(crate) fn wanted() -> bool {
    WANTED.with(Cell::get)
}

/// Runs `serialize` (which serializes the inner part of a `VALUE_TOKEN` newtype) while
/// asking for the value, and returns the value it gave.
pub(crate) fn capture(serialize: impl FnOnce() -> Result<()>) -> Result<Value> {
    take();
    WANTED.with(|w| w.set(true));
    let result = serialize();
    WANTED.with(|w| w.set(false));
    result?;
    take().ok_or_else(|| {
        Error::new(
            ErrorKind::Unencodable,
            format!("a newtype named {VALUE_TOKEN:?} that is not a ctywire value"),
        )
    })
}

//! `RawState` (a stored state or identity as Terraform kept it) to a [`Value`] or the
//! provider's own Rust type, for `UpgradeResourceState`, `UpgradeResourceIdentity` and
//! `MoveResourceState`.
//!
//! A `RawState` is not a `DynamicValue`: Terraform hands over the stored JSON as it is,
//! written with the schema the state was stored with (an earlier version of this
//! resource type's, or another resource type's for a move), or, for states written by
//! Terraform 0.11 and older, the legacy flatmap (`"disk.#" = "2"`, `"tags.%" = "1"`).
//! The provider reads it with the type of that schema: the JSON form with the
//! attributes that type does not have dropped (a state may hold attributes its schema
//! has since removed), the flatmap form by Terraform's rules for flatmaps
//! ([`ctywire::flatmap`]). JSON wins when both are there; neither is a null state.
//!
//! ```
//! use ctywire::{Type, Value};
//! use ctywire_tfplugin::raw_state;
//! use ctywire_tfplugin::tfplugin6::RawState;
//!
//! // The type the state was stored with (here: `size` was a string then).
//! let v0: Type = "object({name=string, size=string})".parse()?;
//! let json = RawState { json: br#"{"name":"a","size":"3","gone":true}"#.to_vec(), ..Default::default() };
//! let state = raw_state::decode(Some(&json), &v0)?;
//! assert_eq!(state, Value::object([("name", Value::from("a")), ("size", Value::from("3"))]));
//!
//! let flatmap = RawState {
//!     flatmap: [("name", "a"), ("size", "3")].iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
//!     ..Default::default()
//! };
//! assert_eq!(raw_state::decode(Some(&flatmap), &v0)?, state);
//!
//! // Typed, through the serde bridge.
//! #[derive(serde::Deserialize, Debug, PartialEq)]
//! struct V0 { name: String, size: Option<String> }
//! let old: V0 = raw_state::decode_as(Some(&json), &v0)?;
//! assert_eq!(old, V0 { name: "a".into(), size: Some("3".into()) });
//!
//! // A value of another type is an error at its path.
//! let wrong = RawState { json: br#"{"name":"a","size":["3"]}"#.to_vec(), ..Default::default() };
//! assert_eq!(raw_state::decode(Some(&wrong), &v0).unwrap_err().path().to_string(), ".size");
//! # Ok::<(), ctywire::Error>(())
//! ```

use std::collections::HashMap;

use ctywire::{flatmap, json, Error, Type, Value};

/// A `RawState` message of either protocol version.
pub trait RawStateMessage {
    /// The JSON form (empty when absent).
    fn json_bytes(&self) -> &[u8];
    /// The legacy flatmap form (empty when absent).
    fn flatmap_entries(&self) -> &HashMap<String, String>;
}

macro_rules! raw_state_message {
    ($module:ident) => {
        impl RawStateMessage for crate::$module::RawState {
            fn json_bytes(&self) -> &[u8] {
                &self.json
            }
            fn flatmap_entries(&self) -> &HashMap<String, String> {
                &self.flatmap
            }
        }
    };
}
raw_state_message!(tfplugin6);
raw_state_message!(tfplugin5);

/// The state `raw` holds, read as a value of `ty` (the type of the schema it was stored
/// with): its JSON with attributes `ty` lacks dropped, else its flatmap, else null.
///
/// # Errors
///
/// The JSON decoder's (a path and a byte offset) or the flatmap reader's (the
/// attribute's path; `ty` must then be an object type without `dynamic`).
pub fn decode<R: RawStateMessage>(raw: Option<&R>, ty: &Type) -> Result<Value, Error> {
    match raw {
        Some(raw) if !raw.json_bytes().is_empty() => {
            let options = json::DecodeOptions::new().ignore_undefined_attributes(true);
            json::decode_with(raw.json_bytes(), ty, &options)
        }
        Some(raw) if !raw.flatmap_entries().is_empty() => {
            flatmap::decode(raw.flatmap_entries(), ty)
        }
        _ => Ok(Value::Null),
    }
}

/// The state `raw` holds as a `T` (see [`decode`] and [`ctywire::serde::from_value`]).
///
/// # Errors
///
/// As [`decode`], and the serde bridge's when the value does not fit `T`.
pub fn decode_as<T, R>(raw: Option<&R>, ty: &Type) -> Result<T, Error>
where
    T: serde::de::DeserializeOwned,
    R: RawStateMessage,
{
    let value = decode(raw, ty)?;
    ctywire::serde::from_value(&value, ty)
}

/// The state `raw` holds as a `T` with ctywire's typed codec (a
/// `#[derive(ctywire::Object)]` struct, or an `Option` of one, whose cty type is the
/// type of the schema the state was stored with): [`decode`] with `T`'s cty type, then
/// [`ctywire::object::from_value`].
///
/// ```
/// use std::collections::BTreeMap;
/// use ctywire_tfplugin::raw_state;
/// use ctywire_tfplugin::tfplugin6::RawState;
///
/// let json = RawState { json: br#"{"env":"dev"}"#.to_vec(), ..Default::default() };
/// let tags: BTreeMap<String, String> = raw_state::decode_object(Some(&json))?;
/// assert_eq!(tags["env"], "dev");
/// // Neither form: a null state.
/// assert_eq!(raw_state::decode_object::<Option<BTreeMap<String, String>>, RawState>(None)?, None);
/// # Ok::<(), ctywire::Error>(())
/// ```
///
/// # Errors
///
/// As [`decode`], and the typed codec's when the value does not fit `T`.
pub fn decode_object<T, R>(raw: Option<&R>) -> Result<T, Error>
where
    T: ctywire::object::MsgpackField,
    R: RawStateMessage,
{
    ctywire::object::from_value(&decode(raw, &T::cty_type())?)
}

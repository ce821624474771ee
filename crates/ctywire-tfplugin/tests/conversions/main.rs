//! The conversions between the protocol's messages and ctywire's model.

mod diagnostic;
mod dynamic;
mod path;
mod raw_state;
mod schema;
mod v5;

//! The crate's integration tests, one binary (each test binary links the library and
//! proptest again): the derived types and schemas, their declarations, their wire forms,
//! the typed codec's agreement with the Value codec, and what must build (`path_names`).
//! What must not build is checked by `crates/ctywire-derive-compile-fail`.

mod codec_properties;
mod declarations;
mod derive;
mod path_names;
mod wire_forms;

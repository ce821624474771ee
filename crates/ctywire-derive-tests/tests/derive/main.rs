//! The crate's integration tests, one binary (each test binary links the library and
//! proptest again): the derived types and schemas, their declarations, their wire forms,
//! the typed codec's agreement with the Value codec, what must build (`path_names`) and
//! what must not.

mod codec_properties;
mod compile_fail;
mod declarations;
mod derive;
mod path_names;
mod wire_forms;

//! The crate's integration tests, one binary (each test binary links the library and
//! proptest again): the derived types and schemas, their declarations, their wire forms,
//! the typed codec's agreement with the Value codec, and what must not build.

mod codec_properties;
mod compile_fail;
mod declarations;
mod derive;
mod wire_forms;

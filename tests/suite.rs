//! The library's integration tests, one binary (each test binary links the library and its
//! test dependencies again, which on a small machine costs more than running them):
//! `behaviour` (the public API rule by rule), `conformance` (ctywire against reference
//! data) and `robustness` (hostile input). Filter by module:
//! `cargo test -p ctywire --test suite conformance::objchange`.

mod behaviour;
mod conformance;
mod robustness;

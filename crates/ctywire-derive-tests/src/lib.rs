//! Nothing: the crate holds the tests of `#[derive(ctywire::Object)]` (the
//! `ctywire-derive` crate) in `tests/derive`, outside the proc-macro crate, whose tests
//! Cargo would build for the host with a second build of the library.

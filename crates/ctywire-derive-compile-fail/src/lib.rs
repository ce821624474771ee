//! Nothing: the crate holds the structs that `#[derive(ctywire::Object)]` must refuse
//! (`tests/compile_fail/*.rs`, each with the compiler's message beside it) and the test
//! that builds them (`tests/cases.rs`).

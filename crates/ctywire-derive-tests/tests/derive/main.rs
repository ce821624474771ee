//! The crate's integration tests, one binary (each test binary links the library and
//! proptest again): the derived types and schemas, their declarations, their wire forms,
//! the typed codec's agreement with the Value codec, and what must build (`path_names`).
//! What must not build is checked by `crates/ctywire-derive-compile-fail`.

mod codec_properties;
mod declarations;
mod derive;
mod path_names;
mod wire_forms;

/// The configuration of a property running `cases` cases, drawn with proptest's
/// XorShift generator: its default, ChaCha, is a dependency built without optimisation
/// in the test profile, and each generated value forks a generator.
fn proptest_config(cases: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases,
        rng_algorithm: proptest::test_runner::RngAlgorithm::XorShift,
        // Failures are kept beside the test's file (`<file>.proptest-regressions`) and
        // replayed first: proptest's default looks for a `lib.rs` above the file, which
        // an integration test has none of.
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
        ..proptest::test_runner::Config::default()
    }
}

//! Behaviour: the public API rule by rule (configurations, the serde bridge), the
//! properties that hold for generated types and values, and checks of the package itself.
//!
//! Each module is one area of the API.

mod capture_fixture;
mod capture_pairing;
mod capture_runs;
mod config;
mod docs;
mod package;
mod plan_properties;
mod properties;
mod sensitive_audit;
mod serde_bridge;
mod transcode;

/// The configuration of a property running `cases` cases, drawn with proptest's
/// XorShift generator: its default, ChaCha, is a dependency built without optimisation
/// in the test profile, and each generated value forks a generator.
pub fn proptest_config(cases: u32) -> proptest::test_runner::Config {
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

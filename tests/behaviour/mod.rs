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

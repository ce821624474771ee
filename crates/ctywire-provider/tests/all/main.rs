//! The framework's tests, one module per subject, in one test binary (each test binary
//! links tokio, tonic and ctywire again). `log_terraform` stays a binary of its own:
//! Terraform runs it as the provider (its `main` serves when re-run), so it has no
//! test harness. Filter by module: `cargo test -p ctywire-provider --test all server::`.
//!
//! Modules without `TF_ACC=1` call the service in-process; `acceptance`,
//! `declarations`, `destroy`, `kinds` and `protocol5` also run Terraform (ctywire-testing) when it
//! is set.
//! `log` sets its subscriber for its own thread alone (`set_default`), so the tests
//! beside it are not logged and do not reach it (the global one it sets wants nothing).

#[macro_use]
mod common;

mod acceptance;
mod declarations;
mod destroy;
mod docs;
mod footguns;
mod intercept;
mod kinds;
mod log;
mod logged;
mod modify_plan;
mod private;
mod protocol5;
mod readme;
mod server;
mod timeouts;
mod validation;

//! The `ctywire` binary, run as a user runs it: from the repository's root, on the
//! bundled examples, with what it prints compared to what it should print.
//!
//! One test binary (linking one per file costs minutes on a small machine); each module
//! covers one command or one concern.

mod capture;
mod common;
mod config;
mod convert;
mod depth;
mod document;
mod plan;
#[cfg(unix)]
mod readme;
mod schema;
mod state_file;
mod usability;

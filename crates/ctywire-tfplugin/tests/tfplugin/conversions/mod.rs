//! The conversions between the protocol's messages and ctywire's model.

mod diagnostic;
mod dynamic;
mod path;
mod raw_state;
mod schema;
mod v5;

/// Says on the terminal that this test skipped, and why: written to the process's
/// standard error past the test harness's capture, so `cargo test` shows it beside the
/// test's `ok` instead of hiding it.
pub fn skipped(why: &str) {
    use std::io::Write;
    let test = std::thread::current().name().unwrap_or("a test").to_owned();
    let _ = writeln!(std::io::stderr().lock(), "{test}: skipped: {why}");
}

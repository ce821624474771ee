//! What the command-line tests share: running the built `ctywire` binary from the
//! repository's root, reading what it printed, the repository's files, and scratch files.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs `ctywire ARGS` from the repository's root with `stdin` as its standard input
/// and without `NO_COLOR` (colour is decided by the flags and the terminal alone).
pub fn ctywire(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ctywire"))
        .args(args)
        .current_dir(repo("."))
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // The binary may exit (on a usage error) before it reads its input.
    let _ = child.stdin.take().expect("stdin is piped").write_all(stdin);
    child
        .wait_with_output()
        .expect("the binary's output is read")
}

/// A path in the repository (the bundled examples, test data and vectors), where the
/// tool runs from: this crate lives two levels below the repository's root.
pub fn repo(path: impl AsRef<Path>) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// Runs `ctywire ARGS` as [`ctywire`] does and checks that it exits 0.
pub fn run_ok(args: &[&str], stdin: &[u8]) -> Output {
    let o = ctywire(args, stdin);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    o
}

/// What `ctywire ARGS` printed on standard output, having exited 0.
pub fn run_stdout(args: &[&str], stdin: &[u8]) -> String {
    stdout(&run_ok(args, stdin))
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("standard output is UTF-8")
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("standard error is UTF-8")
}

/// Writes `contents` to a file named `name` in a directory of this test process's own
/// (tests run in parallel, in threads and in processes) and returns its path.
pub fn temp_file(name: &str, contents: impl AsRef<[u8]>) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("ctywire-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the scratch directory is made");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("the scratch file is written");
    path.to_str().expect("the scratch path is UTF-8").to_owned()
}

/// Says on the terminal that this test skipped, and why: written to the process's
/// standard error past the test harness's capture, so `cargo test` shows it beside the
/// test's `ok` instead of hiding it.
pub fn skipped(why: &str) {
    use std::io::Write;
    let test = std::thread::current().name().unwrap_or("a test").to_owned();
    let _ = writeln!(std::io::stderr().lock(), "{test}: skipped: {why}");
}

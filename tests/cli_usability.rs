//! End-to-end tests of how the `ctywire` tool behaves with people and shells: several
//! inputs, closed pipes, terminals, input that looks like something else, payloads
//! without a type, and its completions and manual.

use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};

fn ctywire(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ctywire"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // The binary may exit (on a usage error) before it reads its input.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn run_ok(args: &[&str], stdin: &[u8]) -> Output {
    let o = ctywire(args, stdin);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    o
}

/// A file under the system's temporary directory, unique to this test process.
fn temp_file(name: &str, contents: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("ctywire-usability-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_str().unwrap().to_owned()
}

#[test]
fn a_bad_input_among_several_is_reported_and_the_others_shown() {
    let good = temp_file("good.hex", b"a3616263");
    let bad = temp_file("bad.hex", b"c3");
    let o = ctywire(
        &["show", "--type", "string", &good, &bad, "no/such/file", "-"],
        b"a26869",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        format!("# {good}\n\"abc\"\n\n# standard input\n\"hi\"\n")
    );
    let err = stderr(&o);
    assert!(
        err.starts_with(&format!(
            "error: {bad}: (root): expected string, found bool at byte 0\nerror: no/such/file: "
        )),
        "{err}"
    );
    assert_eq!(err.lines().count(), 2, "{err}");

    // `get` goes on too.
    let o = ctywire(
        &["get", "a", "--type", "object({a=number})", &bad, "-"],
        br#"{"a":1}"#,
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "# standard input\n1\n");
}

/// `ctywire show … | head`: the reader goes away; the tool stops without a word.
#[test]
fn a_closed_pipe_stops_quietly() {
    // A list of 20,000 strings renders to about 400 KB, more than a pipe holds.
    let mut payload = vec![0xdc, 0x4e, 0x20];
    for _ in 0..20_000 {
        payload.push(0xaa);
        payload.extend_from_slice(b"abcdefghij");
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_ctywire"))
        .args([
            "show",
            "--type",
            "list(string)",
            "--input",
            "raw",
            "--from",
            "msgpack",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&payload).unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    assert_eq!(&first, b"[\n    \"abcdefghi");
    // The pipe is closed when the reader is dropped, above.
    let o = child.wait_with_output().unwrap();
    assert_eq!(stderr(&o), "");
    assert_eq!(o.status.code(), Some(0));
}

/// Standard input on a terminal: a line on standard error says what is awaited. Run
/// under `script`, which gives the tool a terminal; skipped where it is not installed.
#[test]
fn a_terminal_on_standard_input_is_told_what_to_type() {
    let bin = env!("CARGO_BIN_EXE_ctywire");
    let run = |command: String, input: &[u8]| {
        let mut child = match Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
        {
            Ok(child) => child,
            Err(e) => {
                eprintln!("skipped: `script` (util-linux) cannot run: {e}");
                return None;
            }
        };
        child.stdin.take().unwrap().write_all(input).unwrap();
        Some(child.wait_with_output().unwrap())
    };
    let Some(o) = run(format!("{bin} show --type string"), b"\"abc\"\n\x04") else {
        return;
    };
    let out = stdout(&o);
    assert!(
        out.contains("reading a payload from standard input (MessagePack as hex or base64, or JSON); end it with Ctrl-D"),
        "{out}"
    );
    assert!(out.ends_with("\"abc\"\r\n"), "{out:?}");
    // Not a terminal: nothing said.
    let o = run_ok(&["show", "--type", "string"], b"\"abc\"");
    assert_eq!(stderr(&o), "");
}

//! End-to-end tests of the `ctywire` binary's fixed `convert` interface.

use std::io::Write;
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
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn json_to_msgpack_hex() {
    let o = ctywire(
        &[
            "convert",
            "--type",
            "map(string)",
            "--from",
            "json",
            "--to",
            "msgpack",
            "--hex",
        ],
        br#"{"b": "x", "a": "<"}"#,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "82a161a13ca162a178\n");
}

#[test]
fn msgpack_hex_to_json_with_type_json() {
    let o = ctywire(
        &[
            "convert",
            "--type",
            r#"["list","number"]"#,
            "--from",
            "msgpack",
            "--to",
            "json",
            "--hex",
        ],
        b"93 01\n cb3fb999999999999a a3 302e31",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "[1,0.1,0.1]\n");
}

#[test]
fn raw_msgpack_in_and_out() {
    let input = [0x82, 0xa1, b'b', 0x01, 0xa1, b'a', 0x02];
    let o = ctywire(
        &[
            "convert",
            "--type",
            "object({a=number,b=number})",
            "--from",
            "msgpack",
            "--to",
            "msgpack",
        ],
        &input,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(o.stdout, [0x82, 0xa1, b'a', 0x02, 0xa1, b'b', 0x01]);
}

#[test]
fn reads_a_file_argument() {
    let o = ctywire(
        &[
            "convert",
            "--type",
            &std::fs::read_to_string("examples/instance.type").unwrap(),
            "--from",
            "msgpack",
            "--to",
            "json",
            "--hex",
            "examples/instance.hex",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let want = std::fs::read_to_string("examples/instance.json").unwrap();
    let want: serde_json::Value = serde_json::from_str(&want).unwrap();
    let got: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(got, want);
}

#[test]
fn bad_input_exits_1_with_path_and_message() {
    let o = ctywire(
        &[
            "convert",
            "--type",
            "object({tags=map(string)})",
            "--from",
            "json",
            "--to",
            "msgpack",
        ],
        br#"{"tags": {"Name": 5, "x": []}}"#,
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error: .tags[\"x\"]: expected string, found array at line 1 column 27\n"
    );
    let o = ctywire(
        &[
            "convert", "--type", "string", "--from", "msgpack", "--to", "json", "--hex",
        ],
        b"d40000",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "error: (root): value is not known\n");
}

#[test]
fn bad_usage_exits_2() {
    for args in [
        &[
            "convert", "--type", "strin", "--from", "json", "--to", "json",
        ][..],
        &["convert", "--from", "json", "--to", "json"],
        &[
            "convert", "--type", "string", "--from", "yaml", "--to", "json",
        ],
        &["frobnicate"],
    ] {
        let o = ctywire(args, b"");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn missing_file_exits_1() {
    let o = ctywire(
        &[
            "convert",
            "--type",
            "string",
            "--from",
            "json",
            "--to",
            "json",
            "no/such/file",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error: no/such/file: "),
        "{}",
        stderr(&o)
    );
}

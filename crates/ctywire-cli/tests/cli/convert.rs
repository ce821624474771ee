//! End-to-end tests of the `ctywire` binary's fixed `convert` interface.

use crate::common::{ctywire, repo, run_stdout, stderr, stdout};

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
            &std::fs::read_to_string(repo("examples/instance.type")).unwrap(),
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
    let want = std::fs::read_to_string(repo("examples/instance.json")).unwrap();
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

#[test]
fn show_reads_hex_base64_and_raw_alike() {
    let ty = "object({a=number,b=string})";
    let want = "{\n    a = 1\n}\n";
    let hex = run_stdout(&["show", "--type", ty], b"82 a1 61 01 a1 62 c0\n");
    let base64 = run_stdout(&["show", "--type", ty], b"gqFhAaFiwA==\n");
    let raw = run_stdout(
        &["show", "--type", ty],
        &[0x82, 0xa1, b'a', 1, 0xa1, b'b', 0xc0],
    );
    let json = run_stdout(&["show", "--type", ty], br#"{"a": 1, "b": null}"#);
    for out in [hex, base64, raw, json] {
        assert_eq!(out, want);
    }
}

#[test]
fn show_without_a_type_uses_the_implied_type_and_says_so() {
    let o = ctywire(&["show"], b"92 a1 61 c3");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "[\n    \"a\",\n    true,\n]\n");
    assert!(stderr(&o).contains("decoded with the type its bytes imply: tuple([string,bool])"));
}

#[test]
fn show_spells_out_unknowns_and_refinements() {
    // {id: unknown not null with prefix "i-", n: unknown number >= 1}
    let payload = b"82 a2 6964 c7 07 0c 82 01 c2 02 a2 692d a1 6e c7 05 0c 81 03 92 01 c3";
    let args = ["show", "--type", "object({id=string,n=number})"];
    // Terraform's text by default; the refinements spelled out on request.
    assert_eq!(
        run_stdout(&args, payload),
        "{\n    id = (known after apply)\n    n  = (known after apply)\n}\n"
    );
    assert_eq!(
        run_stdout(&[&args[..], &["--show-refinements"]].concat(), payload),
        "{\n    id = (known after apply, not null, prefix \"i-\")\n    n  = (known after apply, at least 1)\n}\n"
    );
}

#[test]
fn show_names_each_file_and_ambiguity_needs_a_flag() {
    let file = std::env::temp_dir().join(format!("ctywire-cli-abc-{}.hex", std::process::id()));
    std::fs::write(&file, "a3616263").unwrap();
    let file = file.to_str().unwrap();
    let out = run_stdout(
        &["show", "--type", "string", "--input", "hex", "-", file],
        b"a26869",
    );
    assert_eq!(
        out,
        format!("# standard input\n\"hi\"\n\n# {file}\n\"abc\"\n")
    );
    let o = ctywire(&["show", "--type", "number"], b"12");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("ambiguous input"), "{}", stderr(&o));
    assert_eq!(
        run_stdout(&["show", "--type", "number", "--from", "json"], b"12"),
        "12\n"
    );
    assert_eq!(
        run_stdout(&["show", "--type", "number", "--input", "hex"], b"12"),
        "18\n"
    );
}

#[test]
fn get_extracts_one_value() {
    let ty = std::fs::read_to_string(repo("examples/instance.type")).unwrap();
    let args =
        |path: &'static str| vec!["get", path, "--type", ty.as_str(), "examples/instance.hex"];
    assert_eq!(run_stdout(&args(r#".tags["Name"]"#), b""), "\"web-1\"\n");
    assert_eq!(
        run_stdout(&args("ebs_block_device.1.volume_size"), b""),
        "0.5\n"
    );
    let mut json = args(".ebs_block_device[0]");
    json.extend(["--to", "json"]);
    assert_eq!(
        run_stdout(&json, b""),
        "{\"device_name\":\"/dev/sdb\",\"encrypted\":true,\"volume_size\":100}\n"
    );
    let o = ctywire(&args(".nope"), b"");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error: examples/instance.hex: no value at .nope\n"
    );
    // `.` (and the empty path) is the whole value.
    let whole = run_stdout(&args("."), b"");
    assert!(whole.starts_with("{\n    ami "), "{whole}");
    assert_eq!(run_stdout(&args(""), b""), whole);
}

#[test]
fn type_prints_both_ways() {
    assert_eq!(
        run_stdout(
            &["type", "map(object({a=string, b=optional(number)}))"],
            b""
        ),
        "[\"map\",[\"object\",{\"a\":\"string\",\"b\":\"number\"},[\"b\"]]]\n"
    );
    assert_eq!(
        run_stdout(&["type", r#"["list","dynamic"]"#], b""),
        "list(any)\n"
    );
    let o = ctywire(&["type", "lst(string)"], b"");
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn vectors_check_reports_failures_with_a_byte_diff() {
    let dir = std::env::temp_dir().join(format!("ctywire-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.json");
    std::fs::write(
        &file,
        r#"{"description": "x", "cases": [
            {"name": "good", "type": "number", "msgpack": "cd0100"},
            {"name": "bad", "type": "number", "input_msgpack": "d10100", "msgpack": "d10100"}
        ]}"#,
    )
    .unwrap();
    let o = ctywire(&["vectors", "check", file.to_str().unwrap()], b"");
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("FAIL "), "{out}");
    assert!(
        out.contains("bad: input_msgpack -> msgpack: bytes differ"),
        "{out}"
    );
    assert!(out.contains("want (3 bytes): d1 01 00"), "{out}");
    assert!(out.contains("got  (3 bytes): cd 01 00"), "{out}");
    assert!(out.contains("first difference at byte 0"), "{out}");
    let good = run_stdout(
        &["vectors", "check", "vectors/go-cty/msgpack-roundtrip.json"],
        b"",
    );
    assert!(
        good.ends_with("64 cases, 196 checks, 0 skipped, 0 failed\n"),
        "{good}"
    );
}

#[test]
fn plan_shows_one_resource() {
    let out = run_stdout(
        &[
            "plan",
            "examples/plan/plan.json",
            "--address",
            "aws_instance.web[0]",
            "--schema",
            "examples/plan/schema.json",
            "--color",
            "never",
        ],
        b"",
    );
    assert!(
        out.starts_with("# aws_instance.web[0] (create), planned value\n{\n"),
        "{out}"
    );
    assert!(
        out.contains("    arn                    = (known after apply)\n"),
        "{out}"
    );
    assert!(
        out.contains("    user_data              = (sensitive value)\n"),
        "{out}"
    );
    assert!(out.contains("\n    root_block_device {\n"), "{out}");
    let o = ctywire(
        &[
            "plan",
            "examples/plan/plan.json",
            "--address",
            "x.y",
            "--schema",
            "examples/plan/schema.json",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no resource change at x.y"));
}

#[test]
fn convert_to_another_type() {
    let o = ctywire(
        &[
            "convert",
            "--type",
            "tuple([string, number, bool, string])",
            "--to-type",
            "set(string)",
            "--from",
            "json",
            "--to",
            "json",
        ],
        br#"["b", 1, true, "b"]"#,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "[\"1\",\"b\",\"true\"]\n");

    // MessagePack in and out, to a type with an optional attribute and a dynamic one.
    let o = ctywire(
        &[
            "convert",
            "--type",
            r#"["map","string"]"#,
            "--to-type",
            "object({port=number, tls=optional(bool), extra=any})",
            "--from",
            "msgpack",
            "--to",
            "msgpack",
            "--hex",
        ],
        // {"port": "443", "extra": "x", "other": "dropped"}
        b"83 a4706f7274 a3343433 a56578747261 a178 a56f74686572 a764726f70706564",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let extra = "a56578747261 92c40822737472696e6722a178";
    let port = "a4706f7274 cd01bb";
    let tls = "a3746c73 c0";
    let want = format!("83 {extra} {port} {tls}\n").replace(' ', "");
    assert_eq!(stdout(&o), want);
}

#[test]
fn convert_to_another_type_fails_with_path() {
    let args = [
        "convert",
        "--type",
        "list(string)",
        "--to-type",
        "list(number)",
        "--from",
        "json",
        "--to",
        "json",
    ];
    let o = ctywire(&args, br#"["1", "x"]"#);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "error: [1]: a number is required\n");

    let mut args = args;
    args[4] = "map(string)";
    let o = ctywire(&args, br#"["1"]"#);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "error: (root): map of string required\n");
    let o = ctywire(
        &[
            "convert",
            "--type",
            "string",
            "--to-type",
            "list(",
            "--from",
            "json",
            "--to",
            "json",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

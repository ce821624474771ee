//! End-to-end tests of how the `ctywire` tool behaves with people and shells: several
//! inputs, closed pipes, terminals, input that looks like something else, payloads
//! without a type, and its completions and manual.

use crate::common::{ctywire, repo, run_ok, stderr, stdout, temp_file};

use std::io::{Read, Write};
use std::process::{Command, Stdio};

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

/// Standard error closed too (`ctywire … 2>&1 | head` after `head` is gone): the error
/// reports of several bad inputs and the notes find no reader, and the tool still ends
/// with its own exit status, never a panic (exit 101).
#[test]
fn a_closed_standard_error_stops_quietly() {
    for args in [
        // Errors: one report per bad input, then exit 1.
        &[
            "show",
            "--type",
            "string",
            "no/such/file",
            "-",
            "no/such/other",
        ][..],
        // A note (no --schema) before the output.
        &["capture", "no/such/directory"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ctywire"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stderr.take());
        drop(child.stdout.take());
        let _ = child.stdin.take().unwrap().write_all(b"c3");
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(1), "{args:?}");
    }
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
                crate::common::skipped(&format!("`script` (util-linux) cannot run: {e}"));
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

/// `{a = 1, b = "x"}` as MessagePack: 82 a1 61 01 a1 62 a1 78.
const AB: &[u8] = &[0x82, 0xa1, b'a', 0x01, 0xa1, b'b', 0xa1, b'x'];
const AB_TYPE: &str = "object({a=number,b=string})";
const AB_SHOWN: &str = "{\n    a = 1\n    b = \"x\"\n}\n";

#[test]
fn hex_in_other_spellings_is_read() {
    let cases: &[(&str, &str)] = &[
        ("82a16101 a162a178", ""),
        ("0x82a16101a162a178\n", ""),
        ("{0x82, 0xa1, 0x61, 0x01, 0xa1, 0x62, 0xa1, 0x78}", ""),
        (
            "00000000: 82a1 6101 a162 a178                      ..a..b.x\n",
            "note: standard input: read as an xxd dump (offsets and text column left out)\n",
        ),
        (
            "00000000  82 a1 61 01 a1 62 a1 78                           |..a..b.x|\n00000008\n",
            "note: standard input: read as a hexdump -C dump (offsets and text column left out)\n",
        ),
        // Go's %q, Python's bytes, C strings.
        (r#""\x82\xa1a\x01\xa1b\xa1x""#, ""),
        (r"b'\x82\xa1a\x01\xa1b\xa1x'", ""),
        (r"\202\241a\001\241b\241x", ""),
    ];
    for (input, note) in cases {
        // The C array's braces are not hex: that one goes through --input hex.
        let mut args = vec!["show", "--type", AB_TYPE];
        if input.starts_with('{') {
            args.extend(["--input", "hex"]);
        }
        if input.starts_with('\\') {
            args.extend(["--input", "escaped"]);
        }
        let o = run_ok(
            &args,
            input
                .trim_start_matches('{')
                .trim_end_matches('}')
                .as_bytes(),
        );
        assert_eq!(stdout(&o), AB_SHOWN, "{input}");
        assert_eq!(stderr(&o), *note, "{input}");
    }
}

#[test]
fn odd_hex_is_not_read_as_base64() {
    let o = ctywire(&["show", "--type", AB_TYPE], b"82a16101a162a17\n");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error: standard input: expected hex, found an odd number of hex digits (15): is one \
         missing? (--input base64 reads the text as base64)\n"
    );
    // Hex digits that are base64 too (d0 01: the number 1), read as base64 when told.
    let o = ctywire(&["show", "--type", "number"], b"0AE");
    assert_eq!(o.status.code(), Some(1));
    let o = run_ok(&["show", "--type", "number", "--input", "base64"], b"0AE");
    assert_eq!(stdout(&o), "1\n");
}

#[test]
fn input_in_another_form_than_the_flags_say_gets_a_hint() {
    let cases: &[(&[&str], &[u8], &str)] = &[
        (
            &["--from", "msgpack"],
            br#"{"a": 1, "b": "x"}"#,
            "the input is JSON text: read it with --from json",
        ),
        (
            &["--input", "raw"],
            b"82a16101a162a178",
            "the input is hex text: read it with --input hex",
        ),
        (
            &["--input", "raw", "--from", "msgpack"],
            b"gqFhAaFioXg=",
            "the input is base64 text: read it with --input base64",
        ),
        (
            &["--from", "json"],
            AB,
            "the input is MessagePack: read it with --from msgpack",
        ),
        (
            &["--input", "raw", "--from", "msgpack"],
            br"\x82\xa1a\x01\xa1b\xa1x",
            "the input is a string with \\x escapes: read it with --input escaped",
        ),
    ];
    for (flags, input, hint) in cases {
        let mut args = vec!["show", "--type", AB_TYPE];
        args.extend_from_slice(flags);
        let o = ctywire(&args, input);
        assert_eq!(o.status.code(), Some(1), "{flags:?}");
        let err = stderr(&o);
        assert!(err.starts_with("error: standard input: (root): "), "{err}");
        assert!(err.ends_with(&format!("; {hint}\n")), "{flags:?}: {err}");
    }
    // convert keeps its `error: <path>: <message>` form.
    let o = ctywire(
        &[
            "convert", "--type", AB_TYPE, "--from", "msgpack", "--to", "json",
        ],
        br#"{"a": 1, "b": "x"}"#,
    );
    assert_eq!(
        stderr(&o),
        "error: (root): expected object, found integer at byte 0; the input is JSON text: \
         read it with --from json\n"
    );
}

/// Input that cannot be read as the --input given (or convert's --hex) says how it is
/// written when that is clear.
#[test]
fn input_not_written_as_the_flag_says_gets_a_hint() {
    let cases: &[(&[&str], &[u8], &str)] = &[
        (
            &["show", "--type", AB_TYPE, "--input", "hex"],
            b"gqFhAaFioXg=",
            "invalid hex digit 'g' at digit 0; the input is base64 text: read it with --input base64",
        ),
        (
            &["show", "--type", AB_TYPE, "--input", "hex"],
            br#"{"a": 1, "b": "x"}"#,
            "invalid hex digit '{' at digit 0; the input is JSON text: read it with --input raw",
        ),
        (
            &["show", "--type", AB_TYPE, "--input", "hex"],
            br"\x82\xa1a\x01\xa1b\xa1x",
            "invalid hex digit '\\\\' at digit 0; the input is a string with \\x escapes: read it with --input escaped",
        ),
        (
            &["convert", "--type", AB_TYPE, "--from", "msgpack", "--to", "json", "--hex"],
            AB,
            "hex input is not text; the input is MessagePack bytes: read it with --input raw",
        ),
        // Nothing clear: no hint.
        (
            &["show", "--type", AB_TYPE, "--input", "hex"],
            b"zzz",
            "invalid hex digit 'z' at digit 0",
        ),
    ];
    for (args, input, message) in cases {
        let o = ctywire(args, input);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert_eq!(
            stderr(&o),
            format!("error: standard input: {message}\n"),
            "{args:?}"
        );
    }
    // Following the hint reads it.
    let o = run_ok(
        &[
            "convert", "--type", AB_TYPE, "--from", "msgpack", "--to", "json", "--hex", "--input",
            "raw",
        ],
        AB,
    );
    assert_eq!(stdout(&o), "{\"a\":1,\"b\":\"x\"}\n");
}

/// convert's hints name flags convert takes, and following them reads the input.
#[test]
fn convert_reads_the_input_as_its_hints_say() {
    let cases: &[(&[u8], &str, &str)] = &[
        (b"82a16101a162a178", "the input is hex text", "hex"),
        (b"gqFhAaFioXg=", "the input is base64 text", "base64"),
        (
            br"\x82\xa1a\x01\xa1b\xa1x",
            "the input is a string with \\x escapes",
            "escaped",
        ),
    ];
    let convert = [
        "convert", "--type", AB_TYPE, "--from", "msgpack", "--to", "json",
    ];
    for (input, what, encoding) in cases {
        let o = ctywire(&convert, input);
        assert_eq!(o.status.code(), Some(1), "{encoding}");
        let hint = format!("; {what}: read it with --input {encoding}\n");
        assert!(stderr(&o).ends_with(&hint), "{encoding}: {}", stderr(&o));
        let mut args = convert.to_vec();
        args.extend(["--input", encoding]);
        let o = run_ok(&args, input);
        assert_eq!(stdout(&o), "{\"a\":1,\"b\":\"x\"}\n", "{encoding}");
    }
    // --hex: hex in and out, unless --input says how the input is written.
    let o = run_ok(
        &[
            "convert", "--type", AB_TYPE, "--from", "msgpack", "--to", "msgpack", "--hex",
        ],
        b"82a16101a162a178",
    );
    assert_eq!(stdout(&o), "82a16101a162a178\n");
    let o = run_ok(
        &[
            "convert", "--type", AB_TYPE, "--from", "msgpack", "--to", "msgpack", "--hex",
            "--input", "base64",
        ],
        b"gqFhAaFioXg=",
    );
    assert_eq!(stdout(&o), "82a16101a162a178\n");
}

#[test]
fn a_file_named_for_one_format_holding_the_other_is_read_as_what_it_holds() {
    let json = temp_file("ab.msgpack", br#"{"a": 1, "b": "x"}"#);
    let o = run_ok(&["show", "--type", AB_TYPE, &json], b"");
    assert_eq!(stdout(&o), AB_SHOWN);
    assert_eq!(
        stderr(&o),
        format!(
            "note: {json}: the bytes are JSON, not MessagePack as the name says; read as JSON \
             (--from msgpack to insist)\n"
        )
    );
    let msgpack = temp_file("ab.json", AB);
    let o = run_ok(&["show", "--type", AB_TYPE, &msgpack], b"");
    assert_eq!(stdout(&o), AB_SHOWN);
    assert!(stderr(&o).contains("the bytes are MessagePack, not JSON as the name says"));
}

#[test]
fn a_protobuf_dynamic_value_message_is_unwrapped() {
    let mut message = vec![0x0a, AB.len() as u8];
    message.extend_from_slice(AB);
    let o = run_ok(&["show", "--type", AB_TYPE], &message);
    assert_eq!(stdout(&o), AB_SHOWN);
    assert_eq!(
        stderr(&o),
        "note: standard input: a protobuf DynamicValue message; read its msgpack field (8 bytes)\n"
    );
    // As hex, and with the JSON field.
    let hex: String = message.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(
        stdout(&run_ok(&["show", "--type", AB_TYPE], hex.as_bytes())),
        AB_SHOWN
    );
    let json = br#"{"a":1,"b":"x"}"#;
    let mut message = vec![0x12, json.len() as u8];
    message.extend_from_slice(json);
    let o = run_ok(&["show", "--type", AB_TYPE], &message);
    assert_eq!(stdout(&o), AB_SHOWN);
    assert!(stderr(&o).contains("read its json field (15 bytes)"));
}

/// Without a type, every example payload shows: `[type, value]` wrappers are read as
/// dynamic values, and the note says where.
#[test]
fn show_without_a_type_reads_dynamic_wrappers() {
    let dir = repo("examples/payloads");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "msgpack" || x == "json"))
        .map(|p| p.to_str().unwrap().to_owned())
        .collect();
    files.sort();
    for file in &files {
        let o = run_ok(&["show", "--color", "never", file], b"");
        assert!(stderr(&o).starts_with(&format!("note: {file}: no type given; ")));
    }
    let o = run_ok(
        &[
            "show",
            "--color",
            "never",
            "examples/payloads/cloud_instance.config.msgpack",
        ],
        b"",
    );
    assert!(
        stderr(&o).starts_with(
            "note: examples/payloads/cloud_instance.config.msgpack: no type given; decoded with \
             the type its bytes imply, reading the [type, value] arrays at .extension, .metadata, \
             .pipeline, .plugin as dynamic values: object({admin_password=string,"
        ),
        "{}",
        stderr(&o)
    );
    let out = stdout(&o);
    assert!(
        out.contains("    metadata           = {\n        cost_center = 1234\n"),
        "{out}"
    );
    let o = run_ok(
        &[
            "get",
            ".metadata.owner",
            "examples/payloads/cloud_instance.config.json",
        ],
        b"",
    );
    assert_eq!(stdout(&o), "\"alice\"\n");
    assert!(stderr(&o).contains(
        "reading the {\"value\": …, \"type\": …} objects at .extension, .metadata, .pipeline, \
         .plugin as dynamic values (give --type if they are objects)"
    ));
}

/// A payload whose implied type is long: the note prints its start, and `--type-out`
/// writes it whole.
#[test]
fn a_long_implied_type_is_elided_in_the_note() {
    // A tuple of 300 objects {aN = N}: a type expression of about 5,000 characters.
    let mut payload = vec![0xdc, 0x01, 0x2c];
    for i in 0..300u16 {
        let name = format!("a{i}");
        payload.extend([0x81, 0xa0 | name.len() as u8]);
        payload.extend_from_slice(name.as_bytes());
        payload.extend([0xcd, (i >> 8) as u8, i as u8]);
    }
    let type_file = temp_file("long.type", b"stale");
    let o = run_ok(
        &["show", "--type-out", &type_file, "--input", "raw"],
        &payload,
    );
    let note = stderr(&o);
    let full = std::fs::read_to_string(&type_file).unwrap();
    let full = full.strip_suffix('\n').unwrap();
    assert!(full.starts_with("tuple([object({a0=number}),object({a1=number}),"));
    assert!(note.starts_with(
        "note: standard input: no type given; decoded with the type its bytes imply: \
         tuple([object({a0=number}),"
    ));
    assert!(
        note.ends_with(&format!(
            "… ({} characters in all; --type-out FILE writes it whole)\n",
            full.len()
        )),
        "{note}"
    );
    assert!(note.len() < 600, "{}", note.len());
    // The written type reads the payload back.
    let o = run_ok(&["show", "--type", full, "--input", "raw"], &payload);
    assert_eq!(stderr(&o), "");
}

/// A payload written for another version of the schema: the error names the attributes
/// that differ.
#[test]
fn a_schema_of_another_version_names_the_attributes_that_differ() {
    let mut schema: serde_json::Value =
        serde_json::from_slice(&std::fs::read(repo("examples/schema/provider.json")).unwrap())
            .unwrap();
    let attributes = schema["provider_schemas"]["registry.terraform.io/example/cloud"]["provider"]
        ["block"]["attributes"]
        .as_object_mut()
        .unwrap();
    attributes.remove("max_retries");
    attributes.insert(
        "timeout".into(),
        serde_json::json!({"type": "number", "optional": true}),
    );
    attributes.insert(
        "zone".into(),
        serde_json::json!({"type": "string", "optional": true}),
    );
    let schema = temp_file("provider-next.json", schema.to_string().as_bytes());
    let o = ctywire(
        &[
            "show",
            "--schema",
            &schema,
            "--provider",
            "cloud",
            "examples/payloads/provider.config.msgpack",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error: examples/payloads/provider.config.msgpack: (root): expected an object with 7 \
         attributes, found 6 (missing: \"timeout\", \"zone\"; not in the type: \"max_retries\") \
         at byte 0\n"
    );
}

const INSTANCE: [&str; 4] = [
    "--schema",
    "examples/schema/provider.json",
    "--resource",
    "cloud_instance",
];

/// `get --to json`: an unknown is reported at its path in the whole payload, and
/// sensitive values are not written unless asked for.
#[test]
fn get_to_json_names_full_paths_and_keeps_secrets() {
    let get = |path: &str, extra: &[&str], file: &str| {
        let mut args = vec!["get", path, "--to", "json"];
        args.extend_from_slice(&INSTANCE);
        args.extend_from_slice(extra);
        args.push(file);
        ctywire(&args, b"")
    };
    let planned = "examples/payloads/cloud_instance.planned.msgpack";
    let o = get(".boot_disk", &[], planned);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        format!("error: {planned}: .boot_disk.type: value is not known\n")
    );
    let config = "examples/payloads/cloud_instance.config.msgpack";
    let o = get(".admin_password", &[], config);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        format!("error: {config}: .admin_password is sensitive; --show-sensitive writes it\n")
    );
    assert!(o.stdout.is_empty());
    let o = get(".volumes", &[], config);
    assert_eq!(
        stderr(&o),
        format!(
            "error: {config}: the value holds sensitive values at .volumes[\"data\"].kms_key_id, \
             .volumes[\"logs\"].kms_key_id; --show-sensitive writes it\n"
        )
    );
    assert_eq!(
        stdout(&get(".admin_password", &["--show-sensitive"], config)),
        "\"hunter2\"\n"
    );
    // Not sensitive: written as before.
    assert_eq!(stdout(&get(".boot_disk.size_gb", &[], planned)), "50\n");
}

/// A value inside a sensitive one is sensitive too, rendered or as JSON.
#[test]
fn get_inside_a_sensitive_value_hides_it() {
    let schema = temp_file(
        "secret-schema.json",
        br#"{"format_version": "1.0", "provider_schemas": {"registry.terraform.io/x/x": {
            "resource_schemas": {"x_secret": {"version": 0, "block": {"attributes": {
                "name": {"type": "string", "optional": true},
                "secret": {"type": ["map", "string"], "optional": true, "sensitive": true}
            }}}}}}}"#,
    );
    let payload = br#"{"name": "a", "secret": {"k": "v"}}"#;
    let run = |extra: &[&str]| {
        let mut args = vec![
            "get",
            ".secret[\"k\"]",
            "--schema",
            &schema,
            "--resource",
            "x_secret",
        ];
        args.extend_from_slice(extra);
        ctywire(&args, payload)
    };
    assert_eq!(stdout(&run(&["--color", "never"])), "(sensitive value)\n");
    let o = run(&["--to", "json"]);
    assert_eq!(
        stderr(&o),
        "error: standard input: .secret[\"k\"] is sensitive; --show-sensitive writes it\n"
    );
    assert_eq!(
        stdout(&run(&["--to", "json", "--show-sensitive"])),
        "\"v\"\n"
    );
}

#[test]
fn show_null_shows_null_attributes() {
    let ty = "object({a=number,b=string})";
    let o = run_ok(
        &["show", "--type", ty, "--show-null"],
        br#"{"a": 1, "b": null}"#,
    );
    assert_eq!(stdout(&o), "{\n    a = 1\n    b = null\n}\n");
    let o = run_ok(&["show", "--type", ty], br#"{"a": 1, "b": null}"#);
    assert_eq!(stdout(&o), "{\n    a = 1\n}\n");
    // Through a schema: null attributes of a block, absent blocks still left out.
    let mut args = vec!["show", "--show-null", "--color", "never"];
    args.extend_from_slice(&INSTANCE);
    args.push("examples/payloads/cloud_instance.empty.msgpack");
    let out = stdout(&run_ok(&args, b""));
    assert!(out.contains("\n    arn                = null\n"), "{out}");
    assert!(
        out.contains("\n    admin_password     = (sensitive value)\n"),
        "{out}"
    );
    assert!(!out.contains("timeouts"), "{out}");
}

#[test]
fn completions_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = stdout(&run_ok(&["completions", shell], b""));
        for word in ["show", "convert", "show-null", "type-out"] {
            assert!(script.contains(word), "{shell}: {word}");
        }
    }
    // bash loads its script and registers the completion; skipped without bash.
    let script = stdout(&run_ok(&["completions", "bash"], b""));
    let file = temp_file("ctywire.bash", script.as_bytes());
    match Command::new("bash")
        .args(["-c", &format!("source {file} && complete -p ctywire")])
        .output()
    {
        Ok(o) => {
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            assert!(String::from_utf8_lossy(&o.stdout).contains("ctywire"));
        }
        Err(e) => crate::common::skipped(&format!("bash cannot run: {e}")),
    }
    let o = ctywire(&["completions", "tcsh"], b"");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn manual_pages() {
    let page = stdout(&run_ok(&["man"], b""));
    assert!(page.contains(".TH ctywire 1"), "{page}");
    assert!(page.contains(".SH SUBCOMMANDS"), "{page}");
    assert!(page.contains("ctywire\\-show(1)"), "{page}");
    // The directory is made when it does not exist.
    let dir = std::env::temp_dir()
        .join(format!("ctywire-man-{}", std::process::id()))
        .join("man1");
    assert!(!dir.exists());
    run_ok(&["man", "--dir", dir.to_str().unwrap()], b"");
    let show = std::fs::read_to_string(dir.join("ctywire-show.1")).unwrap();
    assert!(show.contains(".TH ctywire-show 1"), "{show}");
    assert!(show.contains("\\-\\-show\\-null"), "{show}");
    assert!(dir.join("ctywire-vectors-check.1").exists());
    assert!(dir.join("ctywire.1").exists());
    // Where man is installed, it renders the page.
    if let Ok(o) = Command::new("man")
        .args(["-l", dir.join("ctywire-show.1").to_str().unwrap()])
        .env("MANPAGER", "cat")
        .output()
    {
        if o.status.success() {
            assert!(String::from_utf8_lossy(&o.stdout).contains("--show-sensitive"));
        }
    }
}

//! End-to-end tests of `ctywire capture DIR`: the capture directory in
//! `tests/data/capture` (the example payloads, named as terraform-plugin-go names the
//! files it writes with `TF_LOG_SDK_PROTO_DATA_DIR`), and a copy of it with bad files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const DIR: &str = "tests/data/capture";
const SCHEMA: &str = "examples/schema/provider.json";

fn ctywire(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ctywire"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// The call headings of the output.
fn headings(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.starts_with("# ")).collect()
}

/// The text shown for the file `file`: the lines after its `##` heading.
fn section<'o>(out: &'o str, file: &str) -> &'o str {
    let start = out
        .find(&format!("({file})\n"))
        .unwrap_or_else(|| panic!("{file}: {out}"));
    let rest = &out[start..];
    let rest = &rest[rest.find('\n').unwrap() + 1..];
    let end = rest.find("\n#").map_or(rest.len(), |i| i + 1);
    &rest[..end]
}

#[test]
fn every_call_is_typed_by_the_one_schema_that_fits() {
    let o = ctywire(&["capture", DIR, "--schema", SCHEMA, "--color", "never"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    let out = stdout(&o);
    assert_eq!(
        headings(&out),
        [
            "# ConfigureProvider: provider registry.terraform.io/example/cloud",
            "# ValidateResourceConfig: resource type cloud_instance (registry.terraform.io/example/cloud)",
            "# ValidateResourceConfig: resource type cloud_bucket (registry.terraform.io/example/cloud)",
            "# ReadDataSource: data source cloud_image (registry.terraform.io/example/cloud)",
            "# PlanResourceChange: resource type cloud_instance (registry.terraform.io/example/cloud)",
            "# ApplyResourceChange: resource type cloud_instance (registry.terraform.io/example/cloud)",
            "# ReadResource: resource type cloud_instance (registry.terraform.io/example/cloud)",
            "# CallFunction: function parse_arn (registry.terraform.io/example/cloud)",
            "# UpgradeResourceIdentity: resource identity cloud_instance (registry.terraform.io/example/cloud)",
            "# OpenEphemeralResource: ephemeral resource type cloud_session_token (registry.terraform.io/example/cloud)",
            "# InvokeAction: action cloud_instance_reboot (registry.terraform.io/example/cloud)",
        ]
    );
    // Null, empty and private files.
    assert_eq!(
        section(
            &out,
            "1718000000400_PlanResourceChange_Request_PriorState.msgpack"
        ),
        "null\n"
    );
    assert_eq!(
        section(
            &out,
            "1718000000400_PlanResourceChange_Request_ProviderMeta.empty"
        ),
        "null\n"
    );
    assert_eq!(
        section(
            &out,
            "1718000000400_PlanResourceChange_Request_PriorPrivate.empty"
        ),
        "(no private data)\n"
    );
    assert_eq!(
        section(
            &out,
            "1718000000412_PlanResourceChange_Response_PlannedPrivate"
        ),
        "(private data, 22 bytes) {\"schema_version\":\"1\"}\n"
    );
    // Values rendered as blocks, refinements and sensitivity from the schema; JSON
    // payloads alike.
    let planned = section(
        &out,
        "1718000000412_PlanResourceChange_Response_PlannedState.msgpack",
    );
    assert!(planned.contains("    arn                = (known after apply, not null, prefix \"arn:cloud:instance/\")\n"), "{planned}");
    assert!(
        planned.contains("    user_data          = (sensitive value)\n"),
        "{planned}"
    );
    let refreshed = section(&out, "1718000000806_ReadResource_Response_NewState.json");
    assert_eq!(
        refreshed,
        section(
            &out,
            "1718000000800_ReadResource_Request_CurrentState.msgpack"
        )
    );
    assert_eq!(
        section(&out, "1718000000901_CallFunction_Response_Result.msgpack"),
        "{\n    account  = \"123456789012\"\n    region   = \"eu-west-1\"\n    resource = \"i-0abc\"\n}\n\n"
    );
}

#[test]
fn without_a_schema_values_are_typed_by_their_bytes() {
    let o = ctywire(&["capture", DIR, "--color", "never"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "note: no --schema given; values decoded with the types their bytes imply\n"
    );
    let out = stdout(&o);
    assert_eq!(headings(&out).len(), 11);
    assert!(headings(&out)
        .iter()
        .all(|h| h.ends_with(": values typed by their bytes")));
    assert_eq!(
        section(
            &out,
            "1718000000900_CallFunction_Request_Arguments_0.msgpack"
        ),
        "\"arn:cloud:instance/eu-west-1/123456789012/i-0abc\"\n"
    );
    // Values with dynamic parts read too (their wrappers give those parts' types).
    let planned = section(
        &out,
        "1718000000412_PlanResourceChange_Response_PlannedState.msgpack",
    );
    assert!(
        planned.contains("    arn                = (known after apply)\n"),
        "{planned}"
    );
    assert!(planned.contains("    extension          = ["), "{planned}");
}

/// A copy of the capture directory, with `extra` files added.
fn copy_with(name: &str, extra: &[(&str, &[u8])]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ctywire-capture-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR);
    for entry in std::fs::read_dir(source).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
    }
    for (file, bytes) in extra {
        std::fs::write(dir.join(file), bytes).unwrap();
    }
    dir
}

#[test]
fn bad_files_are_reported_and_the_rest_is_shown() {
    let dir = copy_with(
        "bad",
        &[
            ("notes.txt", b"not a payload"),
            (
                "1718000002000_ReadDataSource_Request_Config.msgpack",
                b"\x82\xa4name",
            ),
            ("1718000002500_ReadResource_Request_Private.empty", b"x"),
            (
                "1718000003000_UpgradeResourceState_Response_UpgradedState.empty",
                b"",
            ),
        ],
    );
    let d = dir.to_str().unwrap();
    let o = ctywire(&["capture", d, "--schema", SCHEMA, "--color", "never"]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let headings = headings(&out);
    assert_eq!(headings.len(), 13, "{headings:?}");
    assert_eq!(
        headings[11],
        "# ReadDataSource: no data source of the schemas decodes every value of the call; data source cloud_image comes nearest, but 1718000002000_ReadDataSource_Request_Config.msgpack: expected an object with 7 attributes, found 2; values typed by their bytes"
    );
    assert_eq!(
        headings[12],
        "# UpgradeResourceState: several types fit (resource type cloud_bucket, resource type cloud_instance); values typed by their bytes"
    );
    assert_eq!(
        section(&out, "1718000002000_ReadDataSource_Request_Config.msgpack"),
        "(not decoded: see the error)\n\n"
    );
    assert_eq!(
        stderr(&o),
        format!(
            "error: {d}/1718000002500_ReadResource_Request_Private.empty: expected an empty file, found 1 bytes\n\
             error: {d}/notes.txt: not a protocol data file name: expected {{UnixMilli}}_{{RPC}}_{{Message}}_{{Field}}[.msgpack|.json|.empty], found \"notes.txt\"\n\
             error: {d}/1718000002000_ReadDataSource_Request_Config.msgpack: .name: expected a value, found end of input at byte 6\n\
             error: 3 files could not be read\n"
        )
    );
}

#[test]
fn bytes_that_imply_no_type_want_a_schema() {
    // Binary data that is not type JSON, where a dynamic value's type would be.
    let dir = copy_with(
        "no-type",
        &[(
            "1718000002000_ReadResource_Request_CurrentState.msgpack",
            b"\x81\xa1a\x92\xc4\x01x\xc0",
        )],
    );
    let d = dir.to_str().unwrap();
    let o = ctywire(&["capture", d, "--color", "never"]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("1718000002000_ReadResource_Request_CurrentState.msgpack: ")
            && err.contains("(the bytes imply no type; --schema would give one)\n"),
        "{err}"
    );
    assert!(err.ends_with("error: 1 file could not be read\n"), "{err}");
}

#[test]
fn a_missing_directory_is_an_error() {
    let o = ctywire(&["capture", "tests/data/no-such-capture"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error: tests/data/no-such-capture: No such file or directory"),
        "{}",
        stderr(&o)
    );
}

//! End-to-end tests of `ctywire capture DIR`: the capture directory in
//! `tests/data/capture` (the example payloads, named as terraform-plugin-go names the
//! files it writes with `TF_LOG_SDK_PROTO_DATA_DIR`), and a copy of it with bad files.

use std::path::PathBuf;

use crate::common::{repo, stderr, stdout};

const DIR: &str = "tests/data/capture";
const SCHEMA: &str = "examples/schema/provider.json";

/// Runs `ctywire ARGS` with nothing on standard input.
fn ctywire(args: &[&str]) -> std::process::Output {
    crate::common::ctywire(args, b"")
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
    // Unknowns as Terraform prints them (their refinements behind --show-refinements).
    assert!(
        planned.contains("    arn                = (known after apply)\n"),
        "{planned}"
    );
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

/// A new directory holding `files`.
fn dir_with(name: &str, files: &[(&str, &[u8])]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ctywire-capture-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (file, bytes) in files {
        std::fs::write(dir.join(file), bytes).unwrap();
    }
    dir
}

/// A copy of the capture directory, with `extra` files added.
fn copy_with(name: &str, extra: &[(&str, &[u8])]) -> PathBuf {
    let dir = dir_with(name, extra);
    let source = repo(DIR);
    for entry in std::fs::read_dir(source).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
    }
    dir
}

/// A bucket of `examples/schema/provider.json`'s `cloud_bucket` in MessagePack: `id`
/// unknown when `None`.
fn bucket(id: Option<&str>, force_destroy: bool, expire_days: i64) -> Vec<u8> {
    use ctywire::{ProviderSchemas, Value};
    let schemas = ProviderSchemas::from_json(&std::fs::read(repo(SCHEMA)).unwrap()).unwrap();
    let ty = schemas.resource("cloud_bucket").unwrap().implied_type();
    let rule = Value::object([
        ("expire_days", Value::from(expire_days)),
        ("prefix", Value::Null),
    ]);
    let value = Value::object([
        ("id", id.map_or(Value::unknown(), Value::from)),
        ("name", Value::from("logs")),
        ("force_destroy", Value::from(force_destroy)),
        ("lifecycle_rule", Value::list([rule])),
    ]);
    ctywire::msgpack::encode(&value, &ty).unwrap()
}

#[test]
fn diff_shows_each_calls_change() {
    let planned = bucket(None, false, 30);
    let new = bucket(Some("b-1"), false, 30);
    let refreshed = bucket(Some("b-1"), true, 90);
    let provider =
        std::fs::read(repo(DIR).join("1718000000100_ConfigureProvider_Request_Config.msgpack"))
            .unwrap();
    let dir = dir_with(
        "diff",
        &[
            (
                "1718000000100_ConfigureProvider_Request_Config.msgpack",
                &provider,
            ),
            (
                "1718000000400_PlanResourceChange_Request_PriorState.msgpack",
                &[0xc0],
            ),
            (
                "1718000000401_PlanResourceChange_Response_PlannedState.msgpack",
                &planned,
            ),
            (
                "1718000000500_ApplyResourceChange_Request_PlannedState.msgpack",
                &planned,
            ),
            (
                "1718000000501_ApplyResourceChange_Response_NewState.msgpack",
                &new,
            ),
            (
                "1718000000600_ReadResource_Request_CurrentState.msgpack",
                &new,
            ),
            ("1718000000601_ReadResource_Response_NewState.msgpack", &new),
            (
                "1718000000700_ReadResource_Request_CurrentState.msgpack",
                &new,
            ),
            (
                "1718000000701_ReadResource_Response_NewState.msgpack",
                &refreshed,
            ),
            (
                "1718000000800_PlanResourceChange_Request_PriorState.msgpack",
                &refreshed,
            ),
        ],
    );
    let d = dir.to_str().unwrap();
    let o = ctywire(&["capture", d, "--schema", SCHEMA, "--diff"]);
    let untyped = ctywire(&["capture", d, "--diff"]);
    let colored = ctywire(&[
        "capture", d, "--schema", SCHEMA, "--diff", "--color", "always",
    ]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    // Not a terminal: no colour unless asked for.
    assert_eq!(
        stdout(&o),
        r#"# ConfigureProvider: provider registry.terraform.io/example/cloud
(no change to show: ConfigureProvider changes no state)

# PlanResourceChange: resource type cloud_bucket (registry.terraform.io/example/cloud)
## Request PriorState (1718000000400_PlanResourceChange_Request_PriorState.msgpack) -> Response PlannedState (1718000000401_PlanResourceChange_Response_PlannedState.msgpack)
{
      + force_destroy = false
      + id            = (known after apply)
      + name          = "logs"

      + lifecycle_rule {
          + expire_days = 30
        }
    }

# ApplyResourceChange: resource type cloud_bucket (registry.terraform.io/example/cloud)
## Request PlannedState (1718000000500_ApplyResourceChange_Request_PlannedState.msgpack) -> Response NewState (1718000000501_ApplyResourceChange_Response_NewState.msgpack)
{
      + id            = "b-1"
        name          = "logs"
        # (1 unchanged attribute hidden)

        # (1 unchanged block hidden)
    }

# ReadResource: resource type cloud_bucket (registry.terraform.io/example/cloud)
## Request CurrentState (1718000000600_ReadResource_Request_CurrentState.msgpack) -> Response NewState (1718000000601_ReadResource_Response_NewState.msgpack)
No changes.

# ReadResource: resource type cloud_bucket (registry.terraform.io/example/cloud)
## Request CurrentState (1718000000700_ReadResource_Request_CurrentState.msgpack) -> Response NewState (1718000000701_ReadResource_Response_NewState.msgpack)
{
      ~ force_destroy = false -> true
        id            = "b-1"
        name          = "logs"

      ~ lifecycle_rule {
          ~ expire_days = 30 -> 90
        }
    }

# PlanResourceChange: resource type cloud_bucket (registry.terraform.io/example/cloud)
(incomplete: no Response PlannedState; no response in the directory fits this request)
(no change to show: the call has no Response PlannedState file)

DIR: 6 calls: 5 complete, 0 ambiguous, 1 incomplete
"#
        .replace("DIR", d)
    );
    // Without a schema, the values' bytes type them.
    assert_eq!(untyped.status.code(), Some(0), "{}", stderr(&untyped));
    let out = stdout(&untyped);
    assert!(
        out.contains(
            "{\n      + force_destroy  = false\n      + id             = (known after apply)\n"
        ),
        "{out}"
    );
    assert!(stdout(&colored).contains("\u{1b}["));
}

#[test]
fn diff_hides_sensitive_values() {
    let o = ctywire(&["capture", DIR, "--schema", SCHEMA, "--diff"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("      + user_data          = (sensitive value)\n"),
        "{out}"
    );
    assert!(!out.contains("#!/bin/sh"), "{out}");
    // Showing them is not offered with --diff.
    let o = ctywire(&["capture", DIR, "--diff", "--show-sensitive"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
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
        "# UpgradeResourceState: only nulls, which fit every type: no type is told"
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
fn an_empty_directory_says_so() {
    let dir = dir_with("empty", &[]);
    let o = ctywire(&["capture", dir.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains(
            ": no files: a provider writes its captures there when TF_LOG_SDK_PROTO_DATA_DIR names"
        ),
        "{}",
        stderr(&o)
    );
}

/// No reason of an incomplete call nests parentheses in the line that shows it.
#[test]
fn incomplete_reasons_nest_no_parentheses() {
    let mut seen = 0;
    for dir in [REAL_PLAN, REAL_APPLY] {
        let o = ctywire(&["capture", dir, "--schema", DEMO_SCHEMA, "--color", "never"]);
        for line in stdout(&o)
            .lines()
            .filter(|l| l.starts_with("(incomplete: "))
        {
            seen += 1;
            let mut depth: i32 = 0;
            let mut deepest = 0;
            for c in line.chars() {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                deepest = deepest.max(depth);
            }
            assert_eq!(deepest, 1, "{line}");
        }
    }
    assert!(seen > 0);
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

/// terraform-plugin-go's tf5server names tfplugin5's ConfigureProvider call `Configure`
/// in the files it writes: its values are the provider's configuration, typed by the
/// provider schema like ConfigureProvider's.
#[test]
fn tfplugin5_configure_is_the_provider_configuration() {
    let config =
        std::fs::read(repo(DIR).join("1718000000100_ConfigureProvider_Request_Config.msgpack"))
            .unwrap();
    let dir = dir_with(
        "tf5-configure",
        &[("1718000000100_Configure_Request_Config.msgpack", &config)],
    );
    let o = ctywire(&[
        "capture",
        dir.to_str().unwrap(),
        "--schema",
        SCHEMA,
        "--color",
        "never",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(
        headings(&out),
        ["# Configure: provider registry.terraform.io/example/cloud"],
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The directories of a real Terraform 1.15.5 plan and apply of twelve `demo_thing`s
/// at the default parallelism (see `tests/data/capture.md`), and the demo's schema.
const REAL_PLAN: &str = "tests/data/capture-real/plan-12";
const REAL_APPLY: &str = "tests/data/capture-real/apply-12";
const DEMO_SCHEMA: &str = "tests/data/capture-real/demo-schema.json";

/// The output's calls: each call's text, from its heading to the next.
fn calls(out: &str) -> Vec<&str> {
    out.split("\n# ")
        .filter(|c| c.starts_with("# ") || !c.is_empty())
        .collect()
}

#[test]
fn every_call_of_real_concurrent_runs_is_paired_or_reported() {
    for (dir, summary) in [
        (
            REAL_PLAN,
            "31 calls: 27 complete, 1 ambiguous, 3 incomplete",
        ),
        (
            REAL_APPLY,
            "36 calls: 29 complete, 2 ambiguous, 4 incomplete, 1 possibly mixed",
        ),
    ] {
        let o = ctywire(&["capture", dir, "--schema", DEMO_SCHEMA, "--color", "never"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let out = stdout(&o);
        assert!(out.ends_with(&format!("\n{dir}: {summary}\n")), "{out}");
        let mut complete = 0;
        for call in calls(&out) {
            let heading = call.lines().next().unwrap();
            let sure = !call.contains("\n(ambiguous: ") && !call.contains("\n(incomplete: ");
            if !sure || !heading.contains("demo_thing") {
                continue;
            }
            complete += 1;
            // Every name a complete call shows is one resource's (each is named for
            // itself: `t00` ... `t11`).
            let names: std::collections::BTreeSet<&str> = call
                .lines()
                .filter_map(|l| l.trim().strip_prefix("name = \""))
                .collect();
            assert!(names.len() <= 1, "{dir}: {call}");
        }
        assert!(complete > 0, "{dir}");
    }
}

#[test]
fn filters_keep_the_calls_of_one_rpc_or_one_resource_type() {
    let plans = ctywire(&[
        "capture",
        REAL_PLAN,
        "--schema",
        DEMO_SCHEMA,
        "--rpc",
        "PlanResourceChange",
    ]);
    assert_eq!(plans.status.code(), Some(0), "{}", stderr(&plans));
    let out = stdout(&plans);
    let shown = headings(&out);
    assert!(!shown.is_empty());
    assert!(
        shown
            .iter()
            .all(|h| h.starts_with("# PlanResourceChange: ")),
        "{shown:?}"
    );
    assert!(
        out.ends_with(&format!(
            "\n{REAL_PLAN}: 31 calls: 27 complete, 1 ambiguous, 3 incomplete ({} shown)\n",
            shown.len()
        )),
        "{out}"
    );

    let buckets = ctywire(&[
        "capture",
        DIR,
        "--schema",
        SCHEMA,
        "--resource",
        "cloud_bucket",
    ]);
    assert_eq!(buckets.status.code(), Some(0), "{}", stderr(&buckets));
    let out = stdout(&buckets);
    assert_eq!(
        headings(&out),
        ["# ValidateResourceConfig: resource type cloud_bucket (registry.terraform.io/example/cloud)"]
    );
    assert!(out.ends_with("(1 shown)\n"), "{out}");

    // --resource needs the schema to know what a call is about.
    let o = ctywire(&["capture", DIR, "--resource", "cloud_bucket"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--schema"), "{}", stderr(&o));
}

#[test]
fn ambiguous_and_incomplete_calls_say_what_could_complete_them() {
    let dir = dir_with(
        "ambiguous",
        &[
            (
                "1718000000200_ReadResource_Request_CurrentState.json",
                b"null",
            ),
            (
                "1718000000201_ReadResource_Request_CurrentState.json",
                b"null",
            ),
            // Drift: no response is its request's state come back.
            (
                "1718000000203_ReadResource_Response_NewState.json",
                b"\"x\"",
            ),
            (
                "1718000000204_ReadResource_Response_NewState.json",
                b"\"x\"",
            ),
            (
                "1718000000300_ApplyResourceChange_Response_NewState.json",
                b"null",
            ),
        ],
    );
    let o = ctywire(&["capture", dir.to_str().unwrap(), "--color", "never"]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let first = calls(&out)[0];
    assert_eq!(
        first,
        "# ReadResource: values typed by their bytes\n\
         (ambiguous: these files are one message of a call; 2 candidates could complete it, none for sure)\n\
         - candidate 1: 1718000000203_ReadResource_Response_NewState.json\n\
         - candidate 2: 1718000000204_ReadResource_Response_NewState.json\n\
         ## Request CurrentState (1718000000200_ReadResource_Request_CurrentState.json)\n\
         null\n"
    );
    assert!(
        out.contains(
            "# ApplyResourceChange: values typed by their bytes\n\
             (incomplete: no Request; no request in the directory fits this response)\n"
        ),
        "{out}"
    );
    assert!(
        out.ends_with(": 5 calls: 0 complete, 4 ambiguous, 1 incomplete\n"),
        "{out}"
    );
}

/// `--format json`: the grouping alone, each call with its status, files and reasons,
/// and the summary the text ends with.
#[test]
fn json_gives_the_grouping() {
    let o = ctywire(&[
        "capture",
        REAL_PLAN,
        "--schema",
        DEMO_SCHEMA,
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let text = ctywire(&["capture", REAL_PLAN, "--schema", DEMO_SCHEMA]);
    let summary = doc["summary"]["text"].as_str().unwrap();
    assert!(
        stdout(&text).ends_with(&format!("{REAL_PLAN}: {summary}\n")),
        "{summary}"
    );
    let calls = doc["calls"].as_array().unwrap();
    assert_eq!(
        calls.len() as u64,
        doc["summary"]["calls"].as_u64().unwrap()
    );
    let count = |status: &str| calls.iter().filter(|c| c["status"] == status).count() as u64;
    assert_eq!(
        count("complete"),
        doc["summary"]["complete"].as_u64().unwrap()
    );
    assert_eq!(
        count("ambiguous"),
        doc["summary"]["ambiguous"].as_u64().unwrap()
    );
    assert_eq!(
        count("incomplete"),
        doc["summary"]["incomplete"].as_u64().unwrap()
    );
    for call in calls {
        assert!(!call["files"].as_array().unwrap().is_empty(), "{call}");
        assert!(!call["explain"].as_array().unwrap().is_empty(), "{call}");
        match call["status"].as_str().unwrap() {
            "ambiguous" => assert!(!call["candidates"].as_array().unwrap().is_empty(), "{call}"),
            "incomplete" => assert!(call["reason"].is_string(), "{call}"),
            "complete" => assert!(call["reason"].is_null(), "{call}"),
            other => panic!("{other}: {call}"),
        }
    }
    // A paired plan names both messages' files.
    assert!(calls.iter().any(|c| {
        let files: Vec<&str> = c["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap())
            .collect();
        c["rpc"] == "PlanResourceChange"
            && c["status"] == "complete"
            && files.iter().any(|f| f.contains("_Request_"))
            && files.iter().any(|f| f.contains("_Response_"))
    }));
    // --diff renders values: it does not mix with json.
    let o = ctywire(&["capture", REAL_PLAN, "--format", "json", "--diff"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// `--explain`: why each call's files were grouped so, under its status.
#[test]
fn explain_says_why() {
    let o = ctywire(&[
        "capture",
        REAL_PLAN,
        "--schema",
        DEMO_SCHEMA,
        "--rpc",
        "PlanResourceChange",
        "--explain",
        "--color",
        "never",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for call in calls(&out) {
        assert!(call.contains("\n- why: "), "{call}");
    }
    assert!(
        out.contains("\n- why: paired: ")
            && out
                .contains("ProposedNewState is the one Terraform makes from PriorState and Config"),
        "{out}"
    );
}

/// `--client` picks whose rules the grouping checks the values by: a plan whose
/// `ProposedNewState` is OpenTofu's (an unknown element of a nested attribute MAP under a
/// key the prior lacks stays unknown; Terraform makes it an object of unknowns) is one
/// complete call under `--client opentofu@1.12`, and a request whose values break
/// Terraform's rules under the default client.
#[test]
fn the_grouping_checks_values_by_the_clients_rules() {
    use ctywire::{ProviderSchemas, Value};
    let schema_json = r#"{"format_version": "1.0", "provider_schemas": {"registry.terraform.io/x/y": {
        "resource_schemas": {"y_thing": {"version": 0, "block": {"attributes": {
            "m": {"optional": true, "nested_type": {"nesting_mode": "map", "attributes": {
                "a": {"type": "string", "optional": true}}}}}}}}}}}"#;
    let schemas = ProviderSchemas::from_json(schema_json.as_bytes()).unwrap();
    let ty = schemas.resource("y_thing").unwrap().implied_type();
    let encode = |v: &Value| ctywire::msgpack::encode(v, &ty).unwrap();
    // {m = {k1 = unknown}}: the configuration, OpenTofu's proposed state and the plan.
    let unknown_element = encode(&Value::object([(
        "m",
        Value::map([("k1", Value::unknown())]),
    )]));
    let schema = crate::common::temp_file("cli-capture-clients-schema.json", schema_json);
    let dir = dir_with(
        "clients",
        &[
            (
                "1718000000400_PlanResourceChange_Request_Config.msgpack",
                &unknown_element,
            ),
            (
                "1718000000400_PlanResourceChange_Request_PriorState.msgpack",
                &[0xc0],
            ),
            (
                "1718000000400_PlanResourceChange_Request_ProposedNewState.msgpack",
                &unknown_element,
            ),
            (
                "1718000000412_PlanResourceChange_Response_PlannedState.msgpack",
                &unknown_element,
            ),
        ],
    );
    let capture = dir.to_str().unwrap();
    let run = |client: &str| {
        let o = ctywire(&[
            "capture",
            capture,
            "--schema",
            &schema,
            "--client",
            client,
            "--explain",
        ]);
        assert_eq!(o.status.code(), Some(0), "{client}: {}", stderr(&o));
        stdout(&o)
    };
    let tofu = run("opentofu@1.12");
    assert!(
        tofu.ends_with(": 1 call: 1 complete, 0 ambiguous, 0 incomplete\n"),
        "{tofu}"
    );
    assert!(!tofu.contains("Terraform"), "{tofu}");
    let terraform = run("terraform@1.15");
    assert!(
        terraform.contains(
            "its values break Terraform's rules for one call's, ProposedNewState is the one \
             Terraform makes from PriorState and Config"
        ),
        "{terraform}"
    );
    assert!(!terraform.contains(": 1 call: 1 complete"), "{terraform}");
}

/// A torn file (two in-place writes of one name overlapped, the later, shorter value
/// over the earlier one's tail) leaves its call incomplete, with what the file holds, in
/// the text, `--explain` and `--format json`; its value is reported as not decoded, with
/// no hint that a schema would type it.
#[test]
fn a_torn_file_leaves_its_call_incomplete() {
    // {"a": "xy"} over {"a": "xyzw"}: a 6-byte value and the other's last 2 bytes.
    let dir = dir_with(
        "torn",
        &[
            (
                "1718000000100_UpgradeResourceState_Response_UpgradedState.msgpack",
                b"\x81\xa1a\xa2xyzw",
            ),
            (
                "1718000000200_UpgradeResourceState_Response_UpgradedState.msgpack",
                b"\x81\xa1a\xa4xyzw",
            ),
            // Cut short: its bytes imply no type, and a schema would not type them either.
            (
                "1718000000300_UpgradeResourceState_Response_UpgradedState.msgpack",
                b"\x81\xa1a\xa4xy",
            ),
        ],
    );
    let d = dir.to_str().unwrap();
    let text = ctywire(&["capture", d, "--explain", "--color", "never"]);
    let json = ctywire(&["capture", d, "--format", "json"]);
    std::fs::remove_dir_all(&dir).unwrap();
    let file = "1718000000100_UpgradeResourceState_Response_UpgradedState.msgpack";
    let reason = format!(
        "{file} holds a 6-byte MessagePack value and 2 bytes after it: two writes of one name \
         overlapped, the later, shorter value over the earlier one's tail, so the file holds \
         two calls' bytes"
    );
    assert_eq!(text.status.code(), Some(1), "{}", stderr(&text));
    let out = stdout(&text);
    assert!(
        out.contains(&format!("(incomplete: {reason})\n"))
            && out.contains(&format!("\n- why: torn: {reason}\n")),
        "{out}"
    );
    assert_eq!(section(&out, file), "(not decoded: see the error)\n\n");
    assert!(
        out.ends_with(": 3 calls: 1 complete, 0 ambiguous, 2 incomplete\n"),
        "{out}"
    );
    assert!(
        stderr(&text).contains(&format!(
            "{file}: (root): expected end of input, found 2 more bytes after the value at byte 6\n"
        )) && !stderr(&text).contains("--schema would give one"),
        "{}",
        stderr(&text)
    );
    assert_eq!(json.status.code(), Some(0), "{}", stderr(&json));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    let call = &doc["calls"][0];
    assert_eq!(call["files"], serde_json::json!([file]));
    assert_eq!(call["status"], "incomplete");
    assert_eq!(call["reason"], reason.as_str());
    assert!(
        call["explain"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!(format!("torn: {reason}"))),
        "{call}"
    );
    assert_eq!(doc["calls"][1]["status"], "complete");
    assert_eq!(doc["calls"][2]["status"], "incomplete");
}

/// `--one-configuration` says the run had one provider configuration: no response
/// written after the next `ConfigureProvider` request answers a request before it, so
/// more calls of a real run are complete (and the fixture's test checks them against
/// the truth log). It needs `--schema`.
#[test]
fn one_configuration_pairs_no_answer_across_a_walk() {
    let dir = "tests/data/capture-real/go-style-24/captures";
    let schema = "tests/data/capture-real/go-style-24/demo-schema.json";
    let summary = |extra: &[&str]| {
        let o = ctywire(&[&["capture", dir, "--schema", schema][..], extra].concat());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o).lines().last().unwrap().to_owned()
    };
    assert_eq!(
        summary(&[]),
        format!("{dir}: 509 calls: 442 complete, 36 ambiguous, 24 incomplete, 7 possibly mixed")
    );
    assert_eq!(
        summary(&["--one-configuration"]),
        format!("{dir}: 504 calls: 444 complete, 17 ambiguous, 35 incomplete, 8 possibly mixed")
    );
    let o = ctywire(&["capture", dir, "--one-configuration"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--schema <FILE>"), "{}", stderr(&o));
}

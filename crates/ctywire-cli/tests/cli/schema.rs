//! End-to-end tests of `ctywire convert --schema FILE --resource|--data-source|--provider
//! NAME` on the example provider schema and its payloads.

use crate::common::{ctywire, repo, stderr, temp_file};

use std::process::Output;

const SCHEMA: &str = "examples/schema/provider.json";

fn read(path: &str) -> Vec<u8> {
    std::fs::read(repo(path)).unwrap()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `convert --schema SCHEMA <selector...> --from FROM --to TO [--hex] FILE`.
fn convert(selector: &[&str], from: &str, to: &str, hex: bool, file: &str) -> Output {
    let mut args = vec!["convert", "--schema", SCHEMA];
    args.extend_from_slice(selector);
    args.extend_from_slice(&["--from", from, "--to", to]);
    if hex {
        args.push("--hex");
    }
    args.push(file);
    ctywire(&args, b"")
}

fn ok(o: &Output) -> Vec<u8> {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    assert!(o.stderr.is_empty());
    o.stdout.clone()
}

#[test]
fn msgpack_to_json_for_each_kind_of_schema() {
    let cases: &[(&[&str], &str)] = &[
        (&["--resource", "cloud_instance"], "cloud_instance.config"),
        (&["--resource", "cloud_instance"], "cloud_instance.state"),
        (&["--resource", "cloud_instance"], "cloud_instance.empty"),
        (&["--resource", "cloud_bucket"], "cloud_bucket.config"),
        (&["--data-source", "cloud_image"], "cloud_image.config"),
        (&["--provider", "cloud"], "provider.config"),
        (&["--provider", "example/cloud"], "provider.config"),
        (
            &["--provider", "registry.terraform.io/example/cloud"],
            "provider.config",
        ),
        (
            &[
                "--resource",
                "registry.terraform.io/example/cloud:cloud_instance",
            ],
            "cloud_instance.config",
        ),
    ];
    for (selector, name) in cases {
        let input = format!("examples/payloads/{name}.msgpack");
        let out = ok(&convert(selector, "msgpack", "json", false, &input));
        let mut expected = read(&format!("examples/payloads/{name}.json"));
        expected.push(b'\n');
        assert_eq!(
            String::from_utf8(out).unwrap(),
            String::from_utf8(expected).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn json_to_msgpack_hex() {
    for (selector, name) in [
        (["--resource", "cloud_instance"], "cloud_instance.config"),
        (["--data-source", "cloud_image"], "cloud_image.config"),
        (["--provider", "cloud"], "provider.config"),
    ] {
        let input = format!("examples/payloads/{name}.json");
        let out = ok(&convert(&selector, "json", "msgpack", true, &input));
        let expected = hex(&read(&format!("examples/payloads/{name}.msgpack")));
        assert_eq!(String::from_utf8(out).unwrap(), expected + "\n", "{name}");
    }
}

#[test]
fn msgpack_with_unknowns_and_refinements_reencodes_unchanged() {
    for name in [
        "cloud_instance.config-unknown",
        "cloud_instance.planned",
        "cloud_instance.planned-refined",
    ] {
        let input = format!("examples/payloads/{name}.msgpack");
        let out = ok(&convert(
            &["--resource", "cloud_instance"],
            "msgpack",
            "msgpack",
            false,
            &input,
        ));
        assert_eq!(hex(&out), hex(&read(&input)), "{name}");
    }
}

#[test]
fn value_errors_keep_the_fixed_format() {
    // A plan holds unknowns, which JSON cannot: exit 1, `error: <path>: <message>`.
    let o = convert(
        &["--resource", "cloud_instance"],
        "msgpack",
        "json",
        false,
        "examples/payloads/cloud_instance.planned.msgpack",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "error: .arn: value is not known\n");
    // A payload of another schema: the path and byte offset of the mismatch.
    let o = convert(
        &["--data-source", "cloud_image"],
        "msgpack",
        "json",
        false,
        "examples/payloads/provider.config.msgpack",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error: (root): expected an object with 7 attributes"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn unknown_names_are_bad_input_naming_the_file() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["--resource", "cloud_instances"],
            r#"no resource type "cloud_instances" in the schemas; did you mean "cloud_instance"?"#,
        ),
        (
            &["--data-source", "cloud_instance"],
            r#"no data source "cloud_instance" in the schemas; data sources: cloud_image"#,
        ),
        (
            &["--provider", "aws"],
            r#"no provider "aws" in the schemas; providers: registry.terraform.io/example/cloud"#,
        ),
        (
            &["--resource", "aws:cloud_instance"],
            r#"no provider "aws" in the schemas; providers: registry.terraform.io/example/cloud"#,
        ),
    ];
    for (selector, message) in cases {
        let o = convert(
            selector,
            "msgpack",
            "json",
            false,
            "examples/payloads/cloud_instance.config.msgpack",
        );
        assert_eq!(o.status.code(), Some(1), "{selector:?}");
        assert_eq!(stderr(&o), format!("error: {SCHEMA}: {message}\n"));
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn bad_schema_files_are_bad_input_with_a_path_into_the_file() {
    let bad = temp_file(
        "cli-schema-bad.json",
        r#"{
  "format_version": "1.0",
  "provider_schemas": {
    "registry.terraform.io/hashicorp/aws": {
      "resource_schemas": {
        "aws_instance": {
          "version": 1,
          "block": {"attributes": {"ami": {"type": "strin", "required": true}}}
        }
      }
    }
  }
}"#,
    );
    let o = ctywire(
        &[
            "convert",
            "--schema",
            &bad,
            "--resource",
            "aws_instance",
            "--from",
            "json",
            "--to",
            "json",
        ],
        b"{}",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        format!(
            "error: {bad}: {}\n",
            concat!(
                r#".provider_schemas["registry.terraform.io/hashicorp/aws"].resource_schemas["aws_instance"]"#,
                r#".block.attributes["ami"].type: invalid primitive type name "strin" at line 8 column 52"#
            )
        )
    );

    // Not JSON, and not there.
    let o = ctywire(
        &[
            "convert",
            "--schema",
            "Cargo.toml",
            "--resource",
            "x",
            "--from",
            "json",
            "--to",
            "json",
        ],
        b"{}",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error: Cargo.toml: "),
        "{}",
        stderr(&o)
    );
    let o = ctywire(
        &[
            "convert",
            "--schema",
            "no/such/file.json",
            "--resource",
            "x",
            "--from",
            "json",
            "--to",
            "json",
        ],
        b"{}",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error: no/such/file.json: "),
        "{}",
        stderr(&o)
    );
}

#[test]
fn names_defined_twice_need_the_provider() {
    let two = temp_file(
        "cli-schema-two.json",
        r#"{"format_version": "1.0", "provider_schemas": {
  "registry.terraform.io/hashicorp/aws": {"resource_schemas": {"aws_instance": {"version": 0, "block": {
    "attributes": {"id": {"type": "string", "computed": true}}}}}},
  "registry.opentofu.org/fork/aws": {"resource_schemas": {"aws_instance": {"version": 0, "block": {
    "attributes": {"id": {"type": "number", "computed": true}}}}}}
}}"#,
    );
    let run = |name: &str| {
        ctywire(
            &[
                "convert",
                "--schema",
                &two,
                "--resource",
                name,
                "--from",
                "json",
                "--to",
                "msgpack",
                "--hex",
            ],
            br#"{"id": 5}"#,
        )
    };
    let o = run("aws_instance");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(r#"is defined by 2 providers (registry.opentofu.org/fork/aws, registry.terraform.io/hashicorp/aws); name one as "PROVIDER:aws_instance""#),
        "{}",
        stderr(&o)
    );
    // The string type reads 5 as "5", the number type as 5.
    let o = run("hashicorp/aws:aws_instance");
    assert_eq!(String::from_utf8(ok(&o)).unwrap(), "81a26964a135\n");
    let o = run("fork/aws:aws_instance");
    assert_eq!(
        String::from_utf8(ok(&o)).unwrap(),
        "81a26964 05\n".replace(' ', "")
    );
}

#[test]
fn usage_errors_exit_2() {
    let cases: &[&[&str]] = &[
        // Neither --type nor --schema.
        &["convert", "--from", "json", "--to", "json"],
        // Both.
        &[
            "convert",
            "--type",
            "string",
            "--schema",
            SCHEMA,
            "--resource",
            "cloud_instance",
            "--from",
            "json",
            "--to",
            "json",
        ],
        // --schema without a name.
        &[
            "convert", "--schema", SCHEMA, "--from", "json", "--to", "json",
        ],
        // Two names.
        &[
            "convert",
            "--schema",
            SCHEMA,
            "--resource",
            "cloud_instance",
            "--provider",
            "cloud",
            "--from",
            "json",
            "--to",
            "json",
        ],
        // A name without --schema, alone or with --type.
        &[
            "convert",
            "--resource",
            "cloud_instance",
            "--from",
            "json",
            "--to",
            "json",
        ],
        &[
            "convert",
            "--type",
            "string",
            "--data-source",
            "cloud_image",
            "--from",
            "json",
            "--to",
            "json",
        ],
    ];
    for args in cases {
        let o = ctywire(args, b"null");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn show_takes_the_schema_and_hides_its_sensitive_attributes() {
    let show = |extra: &[&str], selector: &[&str], file: &str| {
        let mut args = vec!["show", "--color", "never", "--schema", SCHEMA];
        args.extend_from_slice(selector);
        args.extend_from_slice(extra);
        args.push(file);
        String::from_utf8(ok(&ctywire(&args, b""))).unwrap()
    };
    let instance = ["--resource", "cloud_instance"];
    let config = "examples/payloads/cloud_instance.config.msgpack";
    let hidden = show(&[], &instance, config);
    for line in [
        "    admin_password     = (sensitive value)\n",
        "    user_data          = (sensitive value)\n",
        "            kms_key_id = (sensitive value)\n",
    ] {
        assert!(hidden.contains(line), "{line}in\n{hidden}");
    }
    assert!(!hidden.contains("hunter2"));
    // kms_key_id inside the disk block's encryption block is not sensitive.
    assert!(hidden.contains("\n    disk {\n"), "{hidden}");
    assert!(
        hidden.contains(r#"            kms_key_id = "key-1""#),
        "{hidden}"
    );
    let shown = show(&["--show-sensitive"], &instance, config);
    assert!(shown.contains(r#"    admin_password     = "hunter2""#));

    // Refinements of a plan, read through the schema.
    let plain = show(
        &[],
        &instance,
        "examples/payloads/cloud_instance.planned-refined.msgpack",
    );
    assert!(
        plain.contains("    arn                = (known after apply)\n"),
        "{plain}"
    );
    let plan = show(
        &["--show-refinements"],
        &instance,
        "examples/payloads/cloud_instance.planned-refined.msgpack",
    );
    assert!(plan.contains(
        r#"    arn                = (known after apply, not null, prefix "arn:cloud:instance/")"#
    ));

    // The provider's token.
    let provider = show(
        &[],
        &["--provider", "cloud"],
        "examples/payloads/provider.config.msgpack",
    );
    assert!(
        provider.contains("    token       = (sensitive value)\n"),
        "{provider}"
    );

    // A bad name is bad input, as for convert.
    let o = ctywire(
        &[
            "show",
            "--schema",
            SCHEMA,
            "--resource",
            "nope",
            "examples/payloads/provider.config.msgpack",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).starts_with(&format!("error: {SCHEMA}: no resource type \"nope\"")));
}

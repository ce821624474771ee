//! End-to-end tests of `ctywire diff`, `check-plan` and `check-apply`.

use crate::common::{ctywire, stderr, stdout, temp_file};

const EXAMPLE: [&str; 4] = [
    "--schema",
    "examples/schema/provider.json",
    "--resource",
    "cloud_instance",
];
const CONFIG: &str = "examples/payloads/cloud_instance.config.msgpack";
const PLANNED: &str = "examples/payloads/cloud_instance.planned.msgpack";
const STATE: &str = "examples/payloads/cloud_instance.state.msgpack";

/// A small schema: a required name, a computed id, an optional size, a sensitive
/// secret. Written once: the tests run in parallel.
fn schema() -> String {
    static PATH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        temp_file(
            "cli-plan-schema.json",
            r#"{"format_version": "1.0", "provider_schemas": {"registry.terraform.io/x/y": {
            "resource_schemas": {"y_thing": {"version": 0, "block": {"attributes": {
                "name": {"type": "string", "required": true},
                "id": {"type": "string", "computed": true},
                "size": {"type": "number", "optional": true},
                "secret": {"type": "string", "optional": true, "sensitive": true}
            }}}}}}}"#,
        )
    })
    .clone()
}

fn with_schema<'a>(schema: &'a str, args: &[&'a str]) -> Vec<&'a str> {
    let mut out = vec!["--schema", schema, "--resource", "y_thing"];
    out.extend_from_slice(args);
    out
}

#[test]
fn check_plan_accepts_the_example_plan() {
    let mut args = vec!["check-plan"];
    args.extend(EXAMPLE);
    args.extend(["--prior", "-", "--config", CONFIG, "--planned", PLANNED]);
    let o = ctywire(&args, b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "the plan is valid: Terraform would accept it\n");
    assert!(o.stderr.is_empty());
}

#[test]
fn check_plan_lists_each_problem_as_terraform_reports_it() {
    let schema = schema();
    let config = temp_file(
        "cli-plan-config.json",
        r#"{"name": "web", "id": null, "size": null, "secret": "a"}"#,
    );
    let planned = temp_file(
        "cli-plan-planned.json",
        r#"{"name": "Web", "id": "i-1", "size": 10, "secret": "b"}"#,
    );
    let mut args = vec!["check-plan"];
    args.extend(with_schema(
        &schema,
        &["--prior", "-", "--config", &config, "--planned", &planned],
    ));
    args.extend(["--address", "y_thing.web"]);
    let o = ctywire(&args, b"");
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert_eq!(
        stdout(&o),
        r#"Error: Provider produced invalid plan

Provider "registry.terraform.io/x/y" planned an invalid value for y_thing.web.name: planned value cty.StringVal("Web") does not match config value cty.StringVal("web").

This is a bug in the provider, which should be reported in the provider's own issue tracker.

    .name: planned value "Web" does not match config value "web" [config-mismatch]

Error: Provider produced invalid plan

Provider "registry.terraform.io/x/y" planned an invalid value for y_thing.web.secret: sensitive planned value does not match config value.

This is a bug in the provider, which should be reported in the provider's own issue tracker.

    .secret: sensitive planned value does not match config value [config-mismatch]

Error: Provider produced invalid plan

Provider "registry.terraform.io/x/y" planned an invalid value for y_thing.web.size: planned value cty.NumberIntVal(10) for a non-computed attribute.

This is a bug in the provider, which should be reported in the provider's own issue tracker.

    .size: planned value 10 for a non-computed attribute [non-computed-set]

"#
    );
    assert_eq!(
        stderr(&o),
        "error: Terraform would reject this plan: 3 problems\n"
    );
}

#[test]
fn an_empty_prior_file_is_a_create() {
    let schema = schema();
    let empty = temp_file("cli-plan-empty", "\n");
    let config = temp_file(
        "cli-plan-config-ok.json",
        r#"{"name": "web", "id": null, "size": 1, "secret": null}"#,
    );
    // `id` planned unknown: d4 00 00 in hex, written with the rest of the object.
    let planned = temp_file(
        "cli-plan-planned-ok.hex",
        "84 a2 6964 d40000 a4 6e616d65 a3 776562 a6 736563726574 c0 a4 73697a65 01",
    );
    let mut args = vec!["check-plan"];
    args.extend(with_schema(
        &schema,
        &[
            "--prior",
            &empty,
            "--config",
            &config,
            "--planned",
            &planned,
        ],
    ));
    let o = ctywire(&args, b"");
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn check_apply_lists_what_changed_after_apply() {
    let mut args = vec!["check-apply"];
    args.extend(EXAMPLE);
    args.extend([
        "--planned",
        PLANNED,
        "--new",
        STATE,
        "--address",
        "cloud_instance.web",
    ]);
    let o = ctywire(&args, b"");
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains(
        "Error: Provider produced inconsistent result after apply\n\nWhen applying changes to cloud_instance.web, provider \"provider[\\\"registry.terraform.io/example/cloud\\\"]\" produced an unexpected new value: .launch_settings.spot: was cty.True, but now cty.False.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.\n\n    .launch_settings.spot: was true, but now false [changed]\n"
    ), "{out}");
    assert!(
        out.contains(".timeouts: was absent, but now present [appeared]"),
        "{out}"
    );
    assert_eq!(
        stderr(&o),
        "error: Terraform would reject this result: 13 problems\n"
    );
}

#[test]
fn check_apply_accepts_a_consistent_result() {
    let mut args = vec!["check-apply"];
    args.extend(EXAMPLE);
    args.extend(["--planned", STATE, "--new", STATE]);
    let o = ctywire(&args, b"");
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(
        stdout(&o),
        "the new state is consistent with the plan: Terraform would accept it\n"
    );
}

#[test]
fn diff_renders_as_terraform_plan_does() {
    let schema = schema();
    let before = temp_file(
        "cli-plan-before.json",
        r#"{"name": "a", "id": "i-1", "size": 1, "secret": "x"}"#,
    );
    let after = temp_file(
        "cli-plan-after.json",
        r#"{"name": "b", "id": "i-1", "size": 1, "secret": "y"}"#,
    );
    let mut args = vec!["diff"];
    args.extend(with_schema(
        &schema,
        &[
            "--requires-replace",
            "name",
            "--color",
            "never",
            &before,
            &after,
        ],
    ));
    let o = ctywire(&args, b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        r#"  # y_thing.this must be replaced
-/+ resource "y_thing" "this" {
        id     = "i-1"
      ~ name   = "a" -> "b" # forces replacement
      ~ secret = (sensitive value)
        # (1 unchanged attribute hidden)
    }
"#
    );

    let mut args = vec!["diff"];
    args.extend(with_schema(
        &schema,
        &[
            "--color",
            "always",
            "--address",
            "y_thing.main",
            "-",
            &after,
        ],
    ));
    let o = ctywire(&args, b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with(
            "\x1b[1m  # y_thing.main\x1b[0m will be created\n  \x1b[32m+\x1b[0m resource"
        ),
        "{}",
        stdout(&o)
    );

    let mut args = vec!["diff"];
    args.extend(with_schema(&schema, &[&before, &before]));
    assert_eq!(stdout(&ctywire(&args, b"")), "No changes.\n");

    let o = ctywire(
        &[
            "diff",
            "--type",
            "list(number)",
            "--color",
            "never",
            &temp_file("cli-plan-l1.json", "[1,2,3]"),
            &temp_file("cli-plan-l2.json", "[1,5,3]"),
        ],
        b"",
    );
    assert_eq!(
        stdout(&o),
        "[\n        1,\n      ~ 2 -> 5,\n        3,\n    ]\n"
    );
}

#[test]
fn bad_input_and_usage() {
    let schema = schema();
    // A missing file is bad input, named.
    let mut args = vec!["check-apply"];
    args.extend(with_schema(
        &schema,
        &["--planned", "no/such/file", "--new", "-"],
    ));
    let o = ctywire(&args, b"");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error: no/such/file: "),
        "{}",
        stderr(&o)
    );
    // The checks need a schema, not just a type.
    let o = ctywire(
        &[
            "check-plan",
            "--type",
            "object({a=string})",
            "--prior",
            "-",
            "--config",
            "-",
            "--planned",
            "-",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("check-plan needs the resource's schema"),
        "{}",
        stderr(&o)
    );
    // A payload of the wrong type is bad input with its path.
    let wrong = temp_file(
        "cli-plan-wrong.json",
        r#"{"name": 1, "id": null, "size": "x", "secret": null}"#,
    );
    let mut args = vec!["check-plan"];
    args.extend(with_schema(
        &schema,
        &["--prior", "-", "--config", &wrong, "--planned", &wrong],
    ));
    let o = ctywire(&args, b"");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(".size: invalid number"),
        "{}",
        stderr(&o)
    );
    // A path that does not parse is bad usage.
    let mut args = vec!["diff"];
    args.extend(with_schema(
        &schema,
        &["--requires-replace", ".tags[", "-", "-"],
    ));
    assert_eq!(ctywire(&args, b"").status.code(), Some(2));
}

#[test]
fn check_apply_reports_unknowns_left_after_apply_as_terraform_does() {
    let mut args = vec!["check-apply"];
    args.extend(EXAMPLE);
    args.extend([
        "--planned",
        PLANNED,
        "--new",
        PLANNED,
        "--address",
        "cloud_instance.web",
    ]);
    let o = ctywire(&args, b"");
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.starts_with(
        "Error: Provider returned invalid result object after apply\n\nAfter the apply operation, the provider still indicated an unknown value for cloud_instance.web.arn. All values must be known after apply, so this is always a bug in the provider and should be reported in the provider's own repository. Terraform will still save the other known object values in the state.\n\n    .arn: the provider still indicated an unknown value [unknown-after-apply]\n"
    ), "{out}");
    // Terraform stops at unknowns: nothing is compared with the plan.
    assert!(!out.contains("inconsistent result"), "{out}");
}

#[test]
fn check_apply_of_a_destroy_wants_null() {
    let mut args = vec!["check-apply"];
    args.extend(EXAMPLE);
    args.extend([
        "--planned",
        "-",
        "--new",
        STATE,
        "--address",
        "cloud_instance.web",
    ]);
    let o = ctywire(&args, b"");
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("After applying a Delete plan, the provider returned a non-null object for cloud_instance.web."), "{}", stdout(&o));
    let mut args = vec!["check-apply"];
    args.extend(EXAMPLE);
    args.extend(["--planned", "-", "--new", "-"]);
    assert_eq!(ctywire(&args, b"").status.code(), Some(0));
}

#[test]
fn check_read_wants_a_wholly_known_state() {
    let mut args = vec!["check-read"];
    args.extend(EXAMPLE);
    args.extend(["--address", "cloud_instance.web", PLANNED]);
    let o = ctywire(&args, b"");
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.starts_with("Error: Provider produced invalid object\n\nProvider \"registry.terraform.io/example/cloud\" planned an invalid value for cloud_instance.web during refresh: The returned state contains unknown values.\n"), "{out}");
    let mut args = vec!["check-read"];
    args.extend(EXAMPLE);
    args.push(STATE);
    let o = ctywire(&args, b"");
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn proposed_new_of_a_create_is_the_configuration() {
    let config = "examples/payloads/cloud_instance.config.msgpack";
    let mut args = vec!["proposed-new"];
    args.extend(EXAMPLE);
    args.extend(["--prior", "-", "--config", config, "--to", "msgpack"]);
    let o = ctywire(&args, b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        o.stdout,
        std::fs::read(crate::common::repo(config)).unwrap()
    );
}

#[test]
fn proposed_new_keeps_prior_computed_values_and_hides_sensitive_ones() {
    let mut args = vec!["proposed-new"];
    args.extend(EXAMPLE);
    args.extend([
        "--prior",
        STATE,
        "--config",
        "examples/payloads/cloud_instance.config.msgpack",
    ]);
    let o = ctywire(&args, b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains(r#"id                 = "i-0123456789abcdef0""#),
        "{out}"
    );
    assert!(
        out.contains("admin_password     = (sensitive value)"),
        "{out}"
    );
    let hex = {
        let mut args = vec!["proposed-new"];
        args.extend(EXAMPLE);
        args.extend([
            "--prior",
            STATE,
            "--config",
            "examples/payloads/cloud_instance.config.msgpack",
            "--to",
            "msgpack",
            "--hex",
        ]);
        stdout(&ctywire(&args, b""))
    };
    assert!(
        hex.trim_end().bytes().all(|b| b.is_ascii_hexdigit()),
        "{hex}"
    );
}

#[test]
fn check_plan_checks_the_requires_replace_paths() {
    let mut args = vec!["check-plan"];
    args.extend(EXAMPLE);
    args.extend([
        "--prior",
        STATE,
        "--config",
        STATE,
        "--planned",
        STATE,
        "--address",
        "cloud_instance.web",
    ]);
    let ok = [&args[..], &["--requires-replace", ".name"]].concat();
    let o = ctywire(&ok, b"");
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let bad = [&args[..], &["--requires-replace", ".nmae"]].concat();
    let o = ctywire(&bad, b"");
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains(r#"has indicated "requires replacement" on cloud_instance.web for a non-existent attribute path cty.Path{cty.GetAttrStep{Name:"nmae"}}."#), "{}", stdout(&o));
}

/// A provider that plans a null object (`--planned -`): Terraform's first check of a
/// valid plan fails at the root, for a create and for an update.
#[test]
fn check_plan_rejects_a_null_planned_object_as_terraform_does() {
    for prior in ["-", STATE] {
        let mut args = vec!["check-plan"];
        args.extend(EXAMPLE);
        args.extend([
            "--prior",
            prior,
            "--config",
            CONFIG,
            "--planned",
            "-",
            "--address",
            "cloud_instance.web",
        ]);
        let o = ctywire(&args, b"");
        assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
        assert_eq!(
            stdout(&o),
            "Error: Provider produced invalid plan\n\n\
             Provider \"registry.terraform.io/example/cloud\" planned an invalid value for cloud_instance.web: \
             planned for absence but config wants existence.\n\n\
             This is a bug in the provider, which should be reported in the provider's own issue tracker.\n\n    \
             planned for absence but config wants existence [planned-absent]\n\n"
        );
        assert_eq!(
            stderr(&o),
            "error: Terraform would reject this plan: 1 problem\n"
        );
    }
}

/// A planned state of another type than the schema's does not decode, as Terraform's
/// own decoder refuses it: the error names the attribute.
#[test]
fn check_plan_refuses_a_planned_value_of_the_wrong_type() {
    let schema = schema();
    let config = temp_file(
        "cli-plan-config-wrong.json",
        r#"{"name": "web", "id": null, "size": 1, "secret": null}"#,
    );
    let planned = temp_file(
        "cli-plan-planned-wrong.json",
        r#"{"name": "web", "id": null, "size": "big", "secret": null}"#,
    );
    let mut args = vec!["check-plan"];
    args.extend(with_schema(
        &schema,
        &["--prior", "-", "--config", &config, "--planned", &planned],
    ));
    let o = ctywire(&args, b"");
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    assert!(stderr(&o).contains(".size"), "{}", stderr(&o));
}

/// `--client` picks whose rules apply: a null collection of blocks planned for a null
/// configuration is accepted by Terraform 1.15 (the default) and OpenTofu 1.12, refused
/// by Terraform 1.16.
#[test]
fn check_plan_follows_the_client_given() {
    let schema = temp_file(
        "cli-plan-client-schema.json",
        r#"{"format_version": "1.0", "provider_schemas": {"registry.terraform.io/x/y": {
        "resource_schemas": {"y_thing": {"version": 0, "block": {
            "attributes": {"name": {"type": "string", "required": true}},
            "block_types": {"b": {"nesting_mode": "list", "block": {"attributes": {
                "x": {"type": "string", "optional": true}}}}}
        }}}}}}"#,
    );
    let values = temp_file("cli-plan-client-values.json", r#"{"name": "a", "b": null}"#);
    let run = |client: Option<&str>| {
        let mut args = vec!["check-plan"];
        args.extend(with_schema(&schema, &["--prior", "-"]));
        args.extend(["--config", &values, "--planned", &values]);
        if let Some(c) = client {
            args.extend(["--client", c]);
        }
        ctywire(&args, b"")
    };
    for client in [None, Some("terraform@1.15"), Some("opentofu@1.12")] {
        let o = run(client);
        assert_eq!(o.status.code(), Some(0), "{client:?}: {}", stdout(&o));
    }
    let o = run(Some("terraform@1.16"));
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains(
        "attribute representing a list of nested blocks must be empty to indicate no blocks, not null [null-block-collection]"
    ));
    let o = run(Some("terraform@0.12"));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("unknown client \"terraform@0.12\""));
}

/// `proposed-new --client`: an unknown element of a nested attribute map under a key the
/// prior lacks is an object of unknowns for Terraform, the unknown itself for OpenTofu.
#[test]
fn proposed_new_follows_the_client_given() {
    let schema = temp_file(
        "cli-proposed-client-schema.json",
        r#"{"format_version": "1.0", "provider_schemas": {"registry.terraform.io/x/y": {
        "resource_schemas": {"y_thing": {"version": 0, "block": {"attributes": {
            "m": {"optional": true, "nested_type": {"nesting_mode": "map", "attributes": {
                "a": {"type": "string", "optional": true}}}}}}}}}}}"#,
    );
    // {m = {k1 = unknown}} as MessagePack: an unknown is the extension d4 00 00.
    let config = temp_file(
        "cli-proposed-client-config.msgpack",
        [0x81, 0xa1, b'm', 0x81, 0xa2, b'k', b'1', 0xd4, 0, 0],
    );
    let run = |client: &str| {
        let mut args = vec!["proposed-new"];
        args.extend(with_schema(&schema, &["--prior", "-", "--config", &config]));
        args.extend(["--client", client, "--to", "msgpack", "--hex"]);
        let o = ctywire(&args, b"");
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    assert_eq!(run("terraform@1.15"), "81a16d81a26b3181a161d40000\n");
    assert_eq!(run("opentofu@1.12"), "81a16d81a26b31d40000\n");
}

/// A schema with a sensitive attribute inside a nested attribute (`n.s`) and inside a set
/// of blocks (`b.s`), for the tests that no output prints a sensitive value.
fn secret_schema() -> String {
    temp_file(
        "cli-plan-secret-schema.json",
        r#"{"format_version": "1.0", "provider_schemas": {"registry.terraform.io/x/y": {
        "resource_schemas": {"y_thing": {"version": 0, "block": {
            "attributes": {"n": {"optional": true, "nested_type": {"nesting_mode": "single",
                "attributes": {"s": {"type": "string", "optional": true, "sensitive": true},
                               "x": {"type": "string", "optional": true}}}}},
            "block_types": {"b": {"nesting_mode": "set", "block": {"attributes": {
                "s": {"type": "string", "optional": true, "sensitive": true}}}}}
        }}}}}}"#,
    )
}

/// No check prints a sensitive value, whichever client's rules apply: the issue's
/// case (a sensitive attribute changed inside a nested attribute) and a set element of
/// blocks holding one.
#[test]
fn check_apply_and_check_plan_never_print_a_sensitive_value() {
    let schema = secret_schema();
    let planned = temp_file(
        "cli-secret-planned.json",
        r#"{"n": {"s": "hunter2", "x": "1"}, "b": [{"s": "hunter4"}]}"#,
    );
    let new = temp_file(
        "cli-secret-new.json",
        r#"{"n": {"s": "hunter3", "x": "1"}, "b": [{"s": "hunter5"}]}"#,
    );
    let config = temp_file("cli-secret-config.json", r#"{"n": null, "b": []}"#);
    for client in ["terraform@1.15", "terraform@1.16", "opentofu@1.12"] {
        let mut args = vec!["check-apply"];
        args.extend(with_schema(
            &schema,
            &["--planned", &planned, "--new", &new],
        ));
        args.extend(["--client", client]);
        let o = ctywire(&args, b"");
        assert_eq!(o.status.code(), Some(1));
        let out = format!("{}{}", stdout(&o), stderr(&o));
        assert!(
            out.contains(".n: inconsistent values for sensitive attribute"),
            "{out}"
        );
        assert!(
            out.contains(".b: planned set element (sensitive value) does not correlate"),
            "{out}"
        );
        assert!(!out.contains("hunter"), "{client}: {out}");

        let mut args = vec!["check-plan"];
        args.extend(with_schema(&schema, &["--prior", "-", "--config", &config]));
        args.extend(["--planned", &planned, "--client", client]);
        let o = ctywire(&args, b"");
        assert_eq!(o.status.code(), Some(1));
        let out = format!("{}{}", stdout(&o), stderr(&o));
        assert!(
            out.contains(".n: planned value (sensitive value) for a non-computed attribute"),
            "{out}"
        );
        assert!(!out.contains("hunter"), "{client}: {out}");
    }
}

/// `diff` hides a sensitive attribute inside a nested attribute and a set of blocks.
#[test]
fn diff_never_prints_a_sensitive_value() {
    let schema = secret_schema();
    let before = temp_file(
        "cli-secret-before.json",
        r#"{"n": {"s": "hunter2", "x": "1"}, "b": [{"s": "hunter4"}]}"#,
    );
    let after = temp_file(
        "cli-secret-after.json",
        r#"{"n": {"s": "hunter3", "x": "2"}, "b": [{"s": "hunter5"}]}"#,
    );
    let mut args = vec!["diff"];
    args.extend(with_schema(&schema, &[&before, &after]));
    let o = ctywire(&args, b"");
    let out = format!("{}{}", stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("(sensitive value)"), "{out}");
    assert!(!out.contains("hunter"), "{out}");
}

/// A destroy (a null configuration): Terraform sends a null proposed state, not the prior.
#[test]
fn proposed_new_of_a_destroy_is_null() {
    let mut args = vec!["proposed-new"];
    args.extend(EXAMPLE);
    args.extend([
        "--prior", STATE, "--config", "-", "--to", "msgpack", "--hex",
    ]);
    let o = ctywire(&args, b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "c0\n");
}

/// Each plan-rule command names the client whose rules it applied: under
/// `--client opentofu@1.12` the verdicts are OpenTofu's and never say "Terraform would";
/// without `--client` they are Terraform's.
#[test]
fn each_plan_check_names_the_client_in_its_verdict() {
    let schema = temp_file(
        "cli-client-words-schema.json",
        r#"{"format_version": "1.0", "provider_schemas": {"registry.terraform.io/x/y": {
        "resource_schemas": {"y_thing": {"version": 0, "block": {"attributes": {
            "name": {"type": "string", "required": true},
            "id": {"type": "string", "computed": true}}}}}}}}"#,
    );
    let config = temp_file(
        "cli-client-words-config.json",
        r#"{"name": "a", "id": null}"#,
    );
    let good = temp_file(
        "cli-client-words-good.json",
        r#"{"name": "a", "id": "i-1"}"#,
    );
    let bad = temp_file("cli-client-words-bad.json", r#"{"name": "b", "id": "i-1"}"#);
    // {name = "a", id = unknown}: an unknown is the extension d4 00 00.
    let unknown = temp_file(
        "cli-client-words-unknown.msgpack",
        [
            0x82, 0xa4, b'n', b'a', b'm', b'e', 0xa1, b'a', 0xa2, b'i', b'd', 0xd4, 0, 0,
        ],
    );
    let run = |command: &[&str], client: Option<&str>| {
        let mut args = vec![command[0]];
        args.extend(with_schema(&schema, &command[1..]));
        if let Some(c) = client {
            args.extend(["--client", c]);
        }
        let o = ctywire(&args, b"");
        (o.status.code(), format!("{}{}", stdout(&o), stderr(&o)))
    };
    let cases: [(&[&str], &[&str], &str); 3] = [
        (
            &[
                "check-plan",
                "--prior",
                "-",
                "--config",
                &config,
                "--planned",
                &good,
            ],
            &[
                "check-plan",
                "--prior",
                "-",
                "--config",
                &config,
                "--planned",
                &bad,
            ],
            "this plan",
        ),
        (
            &["check-apply", "--planned", &good, "--new", &good],
            &["check-apply", "--planned", &good, "--new", &bad],
            "this result",
        ),
        (
            &["check-read", &good],
            &["check-read", &unknown],
            "this state",
        ),
    ];
    for (accepted, rejected, what) in cases {
        for (client, program) in [
            (Some("opentofu@1.12"), "OpenTofu"),
            (Some("terraform@1.16"), "Terraform"),
            (None, "Terraform"),
        ] {
            let (code, out) = run(accepted, client);
            assert_eq!(code, Some(0), "{accepted:?} {client:?}: {out}");
            assert!(
                out.ends_with(&format!(": {program} would accept it\n")),
                "{out}"
            );
            let (code, out) = run(rejected, client);
            assert_eq!(code, Some(1), "{rejected:?} {client:?}: {out}");
            assert!(
                out.contains(&format!("error: {program} would reject {what}: 1 problem")),
                "{rejected:?} {client:?}: {out}"
            );
            if program == "OpenTofu" {
                assert!(!out.contains("Terraform would"), "{out}");
            }
        }
    }
}

/// `proposed-new`: where the client itself crashes computing ProposedNew (a wholly
/// unknown prior state and a configured block of a LIST block holding `dynamic` types),
/// that crash, named for the client given, is the answer.
#[test]
fn proposed_new_reports_the_clients_own_crash() {
    let schema = temp_file(
        "cli-proposed-crash-schema.json",
        r#"{"format_version": "1.0", "provider_schemas": {"registry.terraform.io/x/y": {
        "resource_schemas": {"y_thing": {"version": 0, "block": {
            "block_types": {"step": {"nesting_mode": "list", "block": {"attributes": {
                "input": {"type": "dynamic", "optional": true}}}}}}}}}}}"#,
    );
    // The prior: a wholly unknown value (d4 00 00).
    let prior = temp_file("cli-proposed-crash-prior.msgpack", [0xd4, 0, 0]);
    let config = temp_file(
        "cli-proposed-crash-config.json",
        r#"{"step": {"value": [{"input": null}],
            "type": ["tuple", [["object", {"input": "dynamic"}]]]}}"#,
    );
    for (client, release) in [
        ("terraform@1.15", "Terraform 1.15.5"),
        ("opentofu@1.12", "OpenTofu 1.12.6"),
    ] {
        let mut args = vec!["proposed-new"];
        args.extend(with_schema(
            &schema,
            &["--prior", &prior, "--config", &config],
        ));
        args.extend(["--client", client]);
        let o = ctywire(&args, b"");
        assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
        assert!(stdout(&o).is_empty(), "{}", stdout(&o));
        let err = stderr(&o);
        assert!(
            err.contains(&format!(".step[0]: {release} fails on this value: ")),
            "{err}"
        );
        assert!(
            err.contains("(it panics: ProposedNew only supports object-typed values)"),
            "{err}"
        );
        if client == "opentofu@1.12" {
            assert!(!err.contains("Terraform"), "{err}");
        }
    }
}

/// The schema of the capture and decode audits: `t_res` with a sensitive attribute at
/// the root and inside a nested attribute.
fn audit_schema() -> String {
    temp_file(
        "cli-audit-schema.json",
        r#"{"format_version": "1.0", "provider_schemas": {"registry.terraform.io/x/t": {
        "resource_schemas": {"t_res": {"version": 0, "block": {"attributes": {
            "root": {"type": "string", "optional": true, "sensitive": true},
            "x": {"type": "string", "optional": true},
            "ns": {"optional": true, "nested_type": {"nesting_mode": "single",
                "attributes": {"s": {"type": "string", "optional": true, "sensitive": true},
                               "x": {"type": "string", "optional": true}}}}}}}}}}}"#,
    )
}

/// The tool's decoding errors never print a value the schema marks sensitive: a secret
/// of the wrong type, broken JSON after a secret, MessagePack of another shape.
#[test]
fn decode_errors_never_print_a_sensitive_value() {
    let schema = audit_schema();
    let inputs: [(&str, Vec<u8>); 5] = [
        (
            "cli-audit-1.json",
            br#"{"root": ["hunter2-1"], "x": "a", "ns": null}"#.to_vec(),
        ),
        (
            "cli-audit-2.json",
            br#"{"root": "hunter2-2", "x": "#.to_vec(),
        ),
        (
            "cli-audit-3.json",
            br#"{"root": null, "x": "a", "ns": {"s": {"hunter2-3": 1}, "x": "b"}}"#.to_vec(),
        ),
        ("cli-audit-4.msgpack", b"\xa9hunter2-4".to_vec()),
        (
            "cli-audit-5.msgpack",
            b"\x83\xa4root\xa9hunter2-5\xa1x\xc3\xa2ns\xc0".to_vec(),
        ),
    ];
    for (name, bytes) in inputs {
        let file = temp_file(name, bytes);
        for command in ["show", "check-read"] {
            let args = [command, "--schema", &schema, "--resource", "t_res", &file];
            let o = ctywire(&args, b"");
            let out = format!("{}{}", stdout(&o), stderr(&o));
            assert_eq!(o.status.code(), Some(1), "{command} {name}: {out}");
            assert!(out.contains(name), "{command} {name}: {out}");
            assert!(!out.contains("hunter"), "{command} {name}: {out}");
        }
    }
}

/// `ctywire capture` (files, `--diff`, `--explain`) never prints a value the schema
/// marks sensitive: plans and applies that change secrets, a response with no request,
/// and files that do not decode.
#[test]
fn capture_never_prints_a_sensitive_value() {
    let schema = audit_schema();
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("ctywire-cli-audit-capture-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the directory");
    let state = |n: u32, x: &str| {
        format!(
            r#"{{"root": "hunter2-{n}", "x": "{x}", "ns": {{"s": "hunter2-{}", "x": "{x}"}}}}"#,
            n + 1
        )
    };
    let files = [
        (
            "1718000000100_PlanResourceChange_Request_Config.json",
            state(10, "a"),
        ),
        (
            "1718000000100_PlanResourceChange_Request_PriorState.json",
            "null".into(),
        ),
        (
            "1718000000100_PlanResourceChange_Request_ProposedNewState.json",
            state(10, "a"),
        ),
        (
            "1718000000100_PlanResourceChange_Request_PriorPrivate.empty",
            String::new(),
        ),
        (
            "1718000000104_PlanResourceChange_Response_PlannedState.json",
            state(20, "a"),
        ),
        (
            "1718000000300_ApplyResourceChange_Request_Config.json",
            state(30, "c"),
        ),
        (
            "1718000000300_ApplyResourceChange_Request_PriorState.json",
            state(40, "c"),
        ),
        (
            "1718000000300_ApplyResourceChange_Request_PlannedState.json",
            state(30, "c"),
        ),
        (
            "1718000000300_ApplyResourceChange_Request_PlannedPrivate.empty",
            String::new(),
        ),
        (
            "1718000000305_ApplyResourceChange_Response_NewState.json",
            state(50, "c"),
        ),
        (
            "1718000000400_ApplyResourceChange_Response_NewState.json",
            state(60, "d"),
        ),
        (
            "1718000000500_ReadResource_Request_CurrentState.json",
            r#"{"root": ["hunter2-70"], "x": "e", "ns": null}"#.into(),
        ),
        (
            "1718000000500_ReadResource_Response_NewState.json",
            r#"{"root": "hunter2-71", "x": "#.into(),
        ),
    ];
    for (name, text) in &files {
        std::fs::write(dir.join(name), text).expect("a file");
    }
    let d = dir.to_str().expect("UTF-8");
    for extra in [&[][..], &["--diff"], &["--explain"]] {
        let mut args = vec!["capture", d, "--schema", &schema, "--color", "never"];
        args.extend_from_slice(extra);
        let o = ctywire(&args, b"");
        let out = format!("{}{}", stdout(&o), stderr(&o));
        assert!(out.contains("ApplyResourceChange"), "{extra:?}: {out}");
        assert!(!out.contains("hunter"), "{extra:?}: {out}");
    }
    std::fs::remove_dir_all(&dir).expect("removed");
}

/// Every plan-rule command, `capture` included, on the capture fixture's values
/// (`tests/data/capture`, the example provider's create, apply and refresh): under
/// `--client opentofu@1.12` no line it writes, on either stream, says "Terraform", and the
/// verdicts and the capture's reasons name OpenTofu; under the default client they name
/// Terraform. Each command runs once on values the client accepts and once on values it
/// rejects (for `capture`, the apply whose new state breaks the plan, with `--explain`).
#[test]
fn no_message_under_opentofu_says_terraform() {
    const D: &str = "tests/data/capture";
    let file = |name: &str| format!("{D}/17180000{name}");
    let prior = file("00400_PlanResourceChange_Request_PriorState.msgpack");
    let config = file("00400_PlanResourceChange_Request_Config.msgpack");
    let planned = file("00412_PlanResourceChange_Response_PlannedState.msgpack");
    let applying = file("00500_ApplyResourceChange_Request_PlannedState.msgpack");
    let new = file("00731_ApplyResourceChange_Response_NewState.msgpack");
    let read = file("00806_ReadResource_Response_NewState.json");
    let plan = ["--prior", &prior, "--config", &config, "--planned"];
    // (command, accepted, rejected, what a verdict or reason says of the rejected one)
    let commands: [(&str, Vec<&str>, Vec<&str>, &str); 4] = [
        (
            "check-plan",
            [&plan[..], &[&planned]].concat(),
            // The new state after apply is no plan for this configuration.
            [&plan[..], &[&new]].concat(),
            "{} would reject this plan: 10 problems",
        ),
        (
            "check-apply",
            vec!["--planned", &read, "--new", &read],
            // The plan's unknowns left after apply, and values changed.
            vec!["--planned", &applying, "--new", &applying],
            "{} would reject this result: 12 problems",
        ),
        (
            "check-read",
            vec![&read],
            // A plan's unknowns are no state.
            vec![&planned],
            "{} would reject this state: 1 problem",
        ),
        // ProposedNew refuses only where the client crashes (see
        // `proposed_new_reports_the_clients_own_crash`): its value here.
        (
            "proposed-new",
            vec!["--prior", &prior, "--config", &config],
            vec![],
            "",
        ),
    ];
    for client in [None, Some("opentofu@1.12")] {
        let program = if client.is_some() {
            "OpenTofu"
        } else {
            "Terraform"
        };
        let run = |command: &str, args: &[&str], schema: &[&str]| {
            let mut all = vec![command];
            all.extend_from_slice(args);
            all.extend_from_slice(schema);
            if let Some(c) = client {
                all.extend(["--client", c]);
            }
            let o = ctywire(&all, b"");
            (o.status.code(), format!("{}{}", stdout(&o), stderr(&o)))
        };
        for (command, accepted, rejected, verdict) in &commands {
            let (code, out) = run(command, accepted, &EXAMPLE);
            assert_eq!(code, Some(0), "{command} {client:?}: {out}");
            if *command != "proposed-new" {
                assert!(
                    out.ends_with(&format!(": {program} would accept it\n")),
                    "{command} {client:?}: {out}"
                );
            }
            let mut outs = vec![out];
            if !rejected.is_empty() {
                let (code, out) = run(command, rejected, &EXAMPLE);
                assert_eq!(code, Some(1), "{command} {client:?}: {out}");
                let said = verdict.replace("{}", program);
                assert!(out.contains(&said), "{command} {client:?}: {out}");
                outs.push(out);
            }
            if client.is_some() {
                for out in &outs {
                    assert!(!out.contains("Terraform"), "{command} {client:?}: {out}");
                }
            }
        }
        // capture: the apply's new state breaks its plan, so the call is paired by the
        // times alone, with the client's rules named in its reason.
        let (code, out) = run(
            "capture",
            &[D, "--explain", "--color", "never"],
            &["--schema", EXAMPLE[1]],
        );
        assert_eq!(code, Some(0), "capture {client:?}: {out}");
        let reason = format!("values break {program}'s rules for it");
        assert!(out.contains(&reason), "capture {client:?}: {out}");
        let bound = format!("whose values {program}'s rules bind");
        assert!(out.contains(&bound), "capture {client:?}: {out}");
        if client.is_some() {
            assert!(!out.contains("Terraform"), "capture {client:?}: {out}");
        }
    }
}

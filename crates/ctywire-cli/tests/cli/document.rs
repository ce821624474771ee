//! End-to-end tests of `ctywire document` (also `plan`, `state`) on the example plan and
//! state documents: listings, one resource's value, deposed objects, standard input,
//! UTF-16, provider-name fallbacks and redacted plans' embedded schemas.

use crate::common::{ctywire, repo, run_stdout, stderr, stdout};

const PLAN: &str = "examples/plan/plan.json";
const STATE: &str = "examples/plan/state.json";
const SCHEMA: &str = "examples/plan/schema.json";

fn read(path: &str) -> Vec<u8> {
    std::fs::read(repo(path)).unwrap()
}

#[test]
fn a_plan_is_listed_as_terraform_show_summarises_it() {
    let want = "\
# data.aws_iam_policy_document.assume will be read during apply
# aws_db_instance.main will be updated in-place
# aws_instance.web[0] will be created
# aws_instance.web[1] will be created
# aws_key_pair.deployer must be replaced
# aws_key_pair.deployer (deposed object 5f3c2a1b) will be destroyed
# random_password.db will be created
# module.apps[\"api\"].kubernetes_manifest.deployment will be created
# module.network.aws_subnet.private[\"a\"] will be created
# module.network.aws_subnet.private[\"b\"] will be created
# module.network.module.endpoints.aws_vpc_endpoint.s3 will be updated in-place

Plan: 7 to add, 2 to change, 2 to destroy.
";
    // `document`, and its other names; a file, `-` and nothing for standard input.
    for args in [
        &["document", PLAN][..],
        &["plan", PLAN],
        &["state", PLAN],
        &["plan", "-"],
        &["plan"],
    ] {
        let stdin = if args.len() == 2 && args[1] == PLAN {
            &b""[..]
        } else {
            &read(PLAN)
        };
        assert_eq!(run_stdout(args, stdin), want, "{args:?}");
    }
    let none = run_stdout(&["plan", "-"], br#"{"format_version": "1.2", "resource_changes": [{"address": "a.b", "change": {"actions": ["no-op"]}}]}"#);
    assert_eq!(none, "No changes.\n");
    let imports = run_stdout(
        &["plan", "-"],
        br#"{"resource_changes": [
          {"address": "a.b", "change": {"actions": ["no-op"], "importing": {"id": "x"}}},
          {"address": "a.c", "change": {"actions": ["update"], "importing": {"id": "y"}}},
          {"address": "a.d", "change": {"actions": ["forget"]}}
        ], "deferred_changes": [{"reason": "provider_config_unknown", "resource_change": {"address": "a.e", "change": {"actions": ["create"]}}}]}"#,
    );
    assert_eq!(
        imports,
        "# a.b will be imported\n# a.c will be updated in-place\n# a.d will no longer be managed by Terraform\n# a.e is deferred (provider_config_unknown)\n\nPlan: 2 to import, 0 to add, 1 to change, 0 to destroy, 1 to forget.\n"
    );
}

#[test]
fn a_state_is_listed_as_terraform_state_list_lists_it() {
    let want = "\
aws_db_instance.main
aws_instance.web[0]
aws_instance.web[1] (tainted)
aws_key_pair.deployer
aws_key_pair.deployer (deposed object 5f3c2a1b)
aws_key_pair.deployer (deposed object 9e8d7c6b)
random_password.db
module.apps[\"api\"].kubernetes_manifest.deployment
module.network.aws_subnet.private[\"a\"]
module.network.aws_subnet.private[\"b\"]
module.network.module.endpoints.aws_vpc_endpoint.s3
";
    assert_eq!(run_stdout(&["state", STATE], b""), want);
    assert_eq!(run_stdout(&["state", "-"], &read(STATE)), want);
    assert_eq!(
        run_stdout(&["state", "-"], br#"{"format_version": "1.0"}"#),
        "The state holds no resources.\n"
    );
}

#[test]
fn one_resource_of_a_plan_or_a_state() {
    let planned = run_stdout(
        &[
            "plan",
            PLAN,
            "--address",
            "aws_instance.web[0]",
            "--schema",
            SCHEMA,
            "--color",
            "never",
        ],
        b"",
    );
    assert!(
        planned.starts_with("# aws_instance.web[0] (create), planned value\n{\n"),
        "{planned}"
    );
    assert!(
        planned.contains("    user_data              = (sensitive value)\n"),
        "{planned}"
    );
    // A state's value, from standard input.
    let state = run_stdout(
        &[
            "state",
            "-",
            "--address",
            "aws_instance.web[1]",
            "--schema",
            SCHEMA,
            "--color",
            "never",
        ],
        &read(STATE),
    );
    assert!(
        state.starts_with("# aws_instance.web[1] (tainted)\n{\n"),
        "{state}"
    );
    assert!(
        state.contains("    user_data              = (sensitive value)\n"),
        "{state}"
    );
    // Deposed objects, in a plan (before their deletion) and in a state.
    let deposed = run_stdout(
        &[
            "plan",
            PLAN,
            "--address",
            "aws_key_pair.deployer",
            "--deposed",
            "5f3c2a1b",
            "--before",
            "--schema",
            SCHEMA,
            "--color",
            "never",
        ],
        b"",
    );
    assert!(
        deposed.starts_with(
            "# aws_key_pair.deployer (deposed object 5f3c2a1b) (delete), before value\n{\n"
        ),
        "{deposed}"
    );
    let deposed = run_stdout(
        &[
            "state",
            STATE,
            "--address",
            "aws_key_pair.deployer",
            "--deposed",
            "9e8d7c6b",
            "--schema",
            SCHEMA,
        ],
        b"",
    );
    assert!(
        deposed.starts_with("# aws_key_pair.deployer (deposed object 9e8d7c6b)\n{\n"),
        "{deposed}"
    );
    // Without a schema, values are typed by their JSON, and a note says so.
    let o = ctywire(&["state", STATE, "--address", "random_password.db"], b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("    length           = 32\n"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("    result           = (sensitive value)\n"),
        "{}",
        stdout(&o)
    );
    assert_eq!(
        stderr(&o),
        "note: examples/plan/state.json: no schema given; values typed by their JSON (give --schema for the resource's type)\n"
    );
    // --type instead of a schema; a type that does not fit is an error with the path.
    let ty =
        "object({bcrypt_hash=string, id=string, keepers=map(string), length=number, lower=bool, \
              min_numeric=number, override_special=string, result=string, special=bool})";
    let typed = run_stdout(
        &[
            "plan",
            PLAN,
            "--address",
            "random_password.db",
            "--type",
            ty,
            "--color",
            "never",
        ],
        b"",
    );
    assert!(
        typed.starts_with("# random_password.db (create), planned value\n{\n"),
        "{typed}"
    );
    assert!(
        typed.contains("    result           = (sensitive value)\n"),
        "{typed}"
    );
    let o = ctywire(
        &[
            "plan",
            PLAN,
            "--address",
            "random_password.db",
            "--type",
            "object({length=number})",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error: examples/plan/plan.json: random_password.db: .keepers: unsupported attribute at line 2 column 11\n"
    );
}

#[test]
fn bad_addresses_and_usage() {
    let fails = |args: &[&str], code: i32, message: &str| {
        let o = ctywire(args, b"");
        assert_eq!(o.status.code(), Some(code), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), format!("{message}\n"), "{args:?}");
    };
    fails(
        &["plan", PLAN, "--address", "x.y"],
        1,
        "error: examples/plan/plan.json: no resource change at x.y; the plan has: data.aws_iam_policy_document.assume, aws_db_instance.main, aws_instance.web[0], aws_instance.web[1], aws_key_pair.deployer, random_password.db, module.apps[\"api\"].kubernetes_manifest.deployment, module.network.aws_subnet.private[\"a\"], module.network.aws_subnet.private[\"b\"], module.network.module.endpoints.aws_vpc_endpoint.s3",
    );
    fails(
        &["plan", PLAN, "--address", "aws_key_pair.deployer", "--deposed", "nope"],
        1,
        "error: examples/plan/plan.json: no change to a deposed object nope of aws_key_pair.deployer; its objects: current, deposed 5f3c2a1b",
    );
    fails(
        &["state", STATE, "--address", "aws_key_pair.deployer", "--deposed", "nope"],
        1,
        "error: examples/plan/state.json: no deposed nope object of aws_key_pair.deployer; its objects: current, deposed 5f3c2a1b, deposed 9e8d7c6b",
    );
    fails(
        &["state", STATE, "--address", "aws_instance.web[7]"],
        1,
        "error: examples/plan/state.json: no resource at aws_instance.web[7]; the state has: aws_db_instance.main, aws_instance.web[0], aws_instance.web[1], aws_key_pair.deployer, random_password.db, module.apps[\"api\"].kubernetes_manifest.deployment, module.network.aws_subnet.private[\"a\"], module.network.aws_subnet.private[\"b\"], module.network.module.endpoints.aws_vpc_endpoint.s3",
    );
    fails(
        &[
            "state",
            STATE,
            "--address",
            "aws_instance.web[0]",
            "--before",
        ],
        2,
        "error: --before needs a plan; this is a state",
    );
    let o = ctywire(&["plan", PLAN, "--deposed", "5f3c2a1b"], b"");
    assert_eq!(o.status.code(), Some(2), "--deposed needs --address");
    let o = ctywire(&["plan", "-"], b"{\"resource_changes\": [1]}");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error: standard input: .resource_changes[0]: expected an object, found a number at line 1 column 23\n"
    );
}

#[test]
fn utf16_documents_provider_fallbacks_and_embedded_schemas() {
    // PowerShell's `terraform show -json > plan.json`: UTF-16 with a byte-order mark.
    let text = String::from_utf8(read(PLAN)).unwrap();
    let utf16: Vec<u8> = std::iter::once(0xFEFF)
        .chain(text.encode_utf16())
        .flat_map(u16::to_le_bytes)
        .collect();
    assert_eq!(
        run_stdout(&["plan", "-"], &utf16),
        run_stdout(&["plan", PLAN], b"")
    );

    // An OpenTofu plan typed by a schema Terraform dumped: the provider is taken under
    // the other host's name, with a note.
    let tofu = text.replace("registry.terraform.io/", "registry.opentofu.org/");
    let o = ctywire(
        &[
            "plan",
            "-",
            "--address",
            "aws_instance.web[0]",
            "--schema",
            SCHEMA,
            "--color",
            "never",
        ],
        tofu.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("    instance_type          = \"t3.micro\"\n"));
    assert_eq!(
        stderr(&o),
        "note: standard input: the document's provider is not in the schemas under its own name; took registry.terraform.io/hashicorp/aws (another registry host)\n"
    );
    // A provider the schemas do not have.
    let other = text.replace(
        "registry.terraform.io/hashicorp/aws",
        "registry.terraform.io/someone/aws",
    );
    let o = ctywire(
        &[
            "plan",
            "-",
            "--address",
            "aws_instance.web[0]",
            "--schema",
            SCHEMA,
        ],
        other.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error: examples/plan/schema.json: no provider \"registry.terraform.io/someone/aws\" in the schemas; providers: "),
        "{}",
        stderr(&o)
    );

    // An HCP Terraform redacted plan types its values with the schemas it embeds.
    let plan: serde_json::Value = serde_json::from_slice(&read(PLAN)).unwrap();
    let schema: serde_json::Value = serde_json::from_slice(&read(SCHEMA)).unwrap();
    let redacted = serde_json::json!({
        "plan_format_version": "1.1",
        "resource_changes": plan["resource_changes"],
        "output_changes": {},
        "provider_schemas": schema["provider_schemas"],
        "provider_format_version": "1.0",
    })
    .to_string();
    let o = ctywire(
        &[
            "plan",
            "-",
            "--address",
            "aws_instance.web[0]",
            "--color",
            "never",
        ],
        redacted.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), planned_web0(), "typed as with --schema");
    assert_eq!(stderr(&o), "");
}

fn planned_web0() -> String {
    run_stdout(
        &[
            "plan",
            PLAN,
            "--address",
            "aws_instance.web[0]",
            "--schema",
            SCHEMA,
            "--color",
            "never",
        ],
        b"",
    )
}

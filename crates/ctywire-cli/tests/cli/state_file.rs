//! `ctywire state` on Terraform's state files (`tests/data/tfstate`, written by Terraform
//! 1.15.5 with the demo provider): listing, one object shown with its schema, `--get`,
//! `--diff` between states of either form, and the refusal of what is neither a plan nor
//! a state.

use crate::common::{ctywire, run_stdout, stderr, temp_file};

const STATE: &str = "tests/data/tfstate/terraform.tfstate";
const UPDATED: &str = "tests/data/tfstate/updated.tfstate";
const SHOWN: &str = "tests/data/tfstate/terraform.show.json";
const LEGACY: &str = "tests/data/tfstate/legacy.tfstate";
const SCHEMA: &str = "tests/data/tfstate/schema.json";

#[test]
fn a_state_file_lists_every_instance() {
    assert_eq!(
        run_stdout(&["state", STATE], b""),
        "data.demo_echo.e\ndemo_thing.counted[0]\ndemo_thing.counted[1]\n\
         demo_thing.each[\"k.2\"]\ndemo_thing.each[\"k1\"]\ndemo_thing.x\nmodule.child.demo_thing.m\n"
    );
    // The same list as its `show -json` form gives.
    assert_eq!(
        run_stdout(&["state", STATE], b""),
        run_stdout(&["state", SHOWN], b"")
    );
    assert_eq!(
        run_stdout(&["state", LEGACY], b""),
        "demo_old_thing.old\ndemo_thing.dep\ndemo_thing.fresh (tainted)\n"
    );
}

#[test]
fn one_object_shown_with_its_schema_sensitive_hidden() {
    let x = run_stdout(
        &[
            "state",
            STATE,
            "--schema",
            SCHEMA,
            "--address",
            "demo_thing.x",
        ],
        b"",
    );
    assert!(x.starts_with("# demo_thing.x\n{\n"), "{x}");
    assert!(x.contains("    secret   = (sensitive value)\n"), "{x}");
    assert!(!x.contains("s3cret"), "{x}");
    // As its `show -json` form shows it.
    assert_eq!(
        x,
        run_stdout(
            &[
                "state",
                SHOWN,
                "--schema",
                SCHEMA,
                "--address",
                "demo_thing.x"
            ],
            b""
        )
    );
    // A flatmap object.
    let old = run_stdout(
        &[
            "state",
            LEGACY,
            "--schema",
            SCHEMA,
            "--address",
            "demo_old_thing.old",
        ],
        b"",
    );
    assert!(old.contains("        \"a.b\" = \"dotted\"\n"), "{old}");
    // --get, exact, and sensitive values still hidden.
    let get = |address: &str, path: &str| {
        run_stdout(
            &[
                "state",
                STATE,
                "--schema",
                SCHEMA,
                "--address",
                address,
                "--get",
                path,
            ],
            b"",
        )
    };
    assert_eq!(
        get("demo_thing.counted[1]", "size"),
        "12345678901234567890.5\n"
    );
    assert_eq!(get("demo_thing.x", "secret"), "(sensitive value)\n");
    assert_eq!(get("demo_thing.x", ".tags[\"env\"]"), "\"dev\"\n");
    let o = ctywire(
        &[
            "state",
            STATE,
            "--schema",
            SCHEMA,
            "--address",
            "demo_thing.x",
            "--get",
            "nope",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error: tests/data/tfstate/terraform.tfstate: demo_thing.x: no value at .nope\n"
    );
    // Without a schema, typed by its JSON; the state's own sensitive paths still hidden.
    let o = ctywire(&["state", STATE, "--address", "demo_thing.x"], b"");
    assert_eq!(o.status.code(), Some(0));
    let out = crate::common::stdout(&o);
    assert!(
        out.contains("(sensitive value)") && !out.contains("s3cret"),
        "{out}"
    );
    // An object at another schema version than the schema's.
    let o = ctywire(
        &[
            "state",
            "tests/data/tfstate/pending-upgrade.tfstate",
            "--schema",
            SCHEMA,
            "--address",
            "demo_thing.old",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("the object is at schema version 0 and the schema at 1"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn two_states_compared() {
    let diff = run_stdout(
        &["state", STATE, "--schema", SCHEMA, "--diff", UPDATED],
        b"",
    );
    let headings: Vec<&str> = diff.lines().filter(|l| l.starts_with('#')).collect();
    assert_eq!(
        headings,
        [
            "# demo_thing.counted[0] changed",
            "# demo_thing.counted[1] changed",
            "# demo_thing.x changed"
        ]
    );
    assert!(
        diff.contains("~ size = 12345678901234567890.5 -> 12345678901234567000\n"),
        "{diff}"
    );
    assert!(!diff.contains("s3cret") && !diff.contains("n3w"), "{diff}");
    // A state file and its own `show -json` form hold the same.
    assert_eq!(
        run_stdout(&["state", STATE, "--schema", SCHEMA, "--diff", SHOWN], b""),
        "No differences.\n"
    );
    let added = run_stdout(
        &[
            "state",
            STATE,
            "--schema",
            SCHEMA,
            "--diff",
            LEGACY,
            "--address",
            "demo_thing.fresh",
        ],
        b"",
    );
    assert!(
        added.starts_with("# demo_thing.fresh (tainted) added\n"),
        "{added}"
    );
    let removed = run_stdout(&["state", LEGACY, "--schema", SCHEMA, "--diff", STATE], b"");
    assert!(
        removed.contains("# demo_old_thing.old removed\n"),
        "{removed}"
    );
    let o = ctywire(&["plan", "examples/plan/plan.json", "--diff", STATE], b"");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn what_is_not_a_plan_or_a_state_is_refused_with_what_to_run() {
    let tail = "; this command reads what `terraform show -json` prints (for a plan file or the state) or a state file (`terraform.tfstate`, `terraform state pull`)\n";
    let plan_file = temp_file("plan.tfplan", b"PK\x03\x04\x14\x00\x08\x00\x08\x00tfplan");
    for (stdin, file, what) in [
        (&b"{}"[..], "-", "this is an empty JSON object (`{}`), not a state or a plan"),
        (b"", SCHEMA, "this is a provider schema (`terraform providers schema -json`): give it with --schema, and a plan or a state as FILE"),
        (b"", "examples/instance.json", "this JSON object has none of the properties of a plan or a state (format_version, values; a state file's version, lineage, resources): if it is a value, `ctywire show` reads it"),
        (b"", "examples/instance.hex", "this is hex text, a payload: `ctywire show` reads it"),
        (b"", &plan_file, "this is a binary plan file (what `terraform plan -out` writes): run `terraform show -json PLANFILE` and give its output"),
    ] {
        let o = ctywire(&["state", file], stdin);
        assert_eq!(o.status.code(), Some(1), "{file}");
        let name = if file == "-" { "standard input" } else { file };
        assert_eq!(stderr(&o), format!("error: {name}: {what}{tail}"));
        assert!(o.stdout.is_empty());
    }
}

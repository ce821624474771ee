//! End-to-end tests of `ctywire config` on the example configurations.

use crate::common::{ctywire, repo, stderr, stdout};

const SCHEMA: &str = "examples/schema/provider.json";

#[test]
fn lists_the_blocks_of_files_and_directories() {
    let o = ctywire(&["config", "examples/config/provider.tf.json"], b"");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "provider.cloud     examples/config/provider.tf.json:4\n\
         provider.cloud.us  examples/config/provider.tf.json:10\n\
         var.token          examples/config/provider.tf.json:19\n"
    );
    let o = ctywire(
        &[
            "config",
            "examples/config/image.tf.json",
            "examples/config/buckets.tf.json",
        ],
        b"",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("data.cloud_image.debian  examples/config/image.tf.json:4\n"));
}

#[test]
fn shows_a_block_like_show() {
    let o = ctywire(
        &[
            "config",
            "examples/config/provider.tf.json",
            "--schema",
            SCHEMA,
            "--address",
            "provider.cloud.us",
            "--color",
            "never",
        ],
        b"",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\n    endpoint = \"https://api.us.example.com\"\n    region   = \"us-east-1\"\n    token    = (known after apply)\n}\n"
    );
}

#[test]
fn writes_the_payload() {
    let o = ctywire(
        &[
            "config",
            "examples/config/buckets.tf.json",
            "--schema",
            SCHEMA,
            "--address",
            r#"cloud_bucket.assets["us"]"#,
            "--to",
            "msgpack",
        ],
        b"",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        o.stdout,
        std::fs::read(repo("examples/config/buckets.assets.us.msgpack")).unwrap()
    );
    let o = ctywire(
        &[
            "config",
            "examples/config/buckets.tf.json",
            "--schema",
            SCHEMA,
            "--address",
            r#"cloud_bucket.assets["us"]"#,
            "--to",
            "json",
        ],
        b"",
    );
    let mut want = std::fs::read(repo("examples/config/buckets.assets.us.json")).unwrap();
    want.push(b'\n');
    assert_eq!(o.stdout, want);
}

#[test]
fn diagnostics_exit_1_and_usage_errors_2() {
    let dir = std::env::temp_dir().join(format!("ctywire-cli-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.tf.json");
    std::fs::write(
        &file,
        r#"{"resource": {"cloud_bucket": {"b": {"nmae": "x"}}}}"#,
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let o = ctywire(
        &[
            "config",
            file,
            "--schema",
            SCHEMA,
            "--address",
            "cloud_bucket.b",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        format!(
            "error: {file}:1,38: Extraneous JSON object property; No argument or block type is named \"nmae\". Did you mean \"name\"?\n\
             error: {file}:1,49: Missing required argument; The argument \"name\" is required, but no definition was found.\n"
        )
    );
    let o = ctywire(&["config", file, "--address", "cloud_bucket.b"], b"");
    assert_eq!(o.status.code(), Some(2), "--address needs --schema");
    let o = ctywire(
        &["config", file, "--schema", SCHEMA, "--address", "bucket"],
        b"",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--address: expected an address like TYPE.NAME"),
        "{}",
        stderr(&o)
    );
    let o = ctywire(
        &[
            "config",
            file,
            "--schema",
            SCHEMA,
            "--address",
            "cloud_bucket.nope",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("Reference to undeclared resource; A managed resource \"cloud_bucket\" \"nope\" has not been declared in the root module."));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_validate_walk_has_the_variables_unknown() {
    let dir =
        std::env::temp_dir().join(format!("ctywire-cli-validate-walk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("main.tf.json"),
        r#"{"variable": {"name": {"default": "logs"}},
            "resource": {"cloud_bucket": {"b": {"name": "bucket-${var.name}"}}}}"#,
    )
    .unwrap();
    let file = dir.join("main.tf.json");
    let file = file.to_str().unwrap();
    let schema = "examples/schema/provider.json";
    let plan = ctywire(
        &[
            "config",
            file,
            "--schema",
            schema,
            "--address",
            "cloud_bucket.b",
        ],
        b"",
    );
    assert!(
        stdout(&plan).contains(r#"name = "bucket-logs""#),
        "{}",
        stdout(&plan)
    );
    let validate = ctywire(
        &[
            "config",
            file,
            "--schema",
            schema,
            "--address",
            "cloud_bucket.b",
            "--validate-walk",
            "--show-refinements",
        ],
        b"",
    );
    assert!(
        stdout(&validate).contains(r#"name = (known after apply, not null, prefix "bucket-")"#),
        "{}{}",
        stdout(&validate),
        stderr(&validate)
    );
}

/// `--resource-value`: references to a resource planned earlier are its planned value,
/// refined unknowns and all, as Terraform sends them in its plan walk.
#[test]
fn references_to_a_planned_resource_take_its_planned_value() {
    let config = crate::common::temp_file(
        "cli-config-planned.tf.json",
        r#"{"resource": {"cloud_bucket": {
            "a": {"name": "a"},
            "b": {"name": "${cloud_bucket.a.id}"},
            "c": {"name": "${cloud_bucket.a.name}-copy"}
        }}}"#,
    );
    // a's plan: `id` unknown, not null, prefix "b-" (FORMAT.md's refinement layout).
    const FORCE_DESTROY: &str = "ad 666f7263655f64657374726f79 c0";
    const LIFECYCLE_RULE: &str = "ae 6c6966656379636c655f72756c65 90";
    const REFINED: &str = "c7070c8201c202a2622d";
    let planned = crate::common::temp_file(
        "cli-config-planned-a.hex",
        format!("84 {FORCE_DESTROY} a2 6964 {REFINED} {LIFECYCLE_RULE} a4 6e616d65 a1 61"),
    );
    let value = format!("cloud_bucket.a={planned}");
    let run = |address: &str, with_value: bool| {
        let mut args = vec![
            "config",
            &config,
            "--schema",
            SCHEMA,
            "--address",
            address,
            "--to",
            "msgpack",
            "--hex",
        ];
        if with_value {
            args.extend(["--resource-value", &value]);
        }
        let o = ctywire(&args, b"");
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o).trim().to_owned()
    };
    let object = |name: &str| {
        format!("84 {FORCE_DESTROY} a2 6964 c0 {LIFECYCLE_RULE} a4 6e616d65 {name}")
            .replace(' ', "")
    };
    assert_eq!(run("cloud_bucket.b", true), object(REFINED));
    // Without it, the reference is a plain unknown string, as before the resource is planned.
    assert_eq!(run("cloud_bucket.b", false), object("d40000"));
    assert_eq!(run("cloud_bucket.c", true), object("a6 612d636f7079"));

    let o = ctywire(
        &[
            "config",
            &config,
            "--schema",
            SCHEMA,
            "--address",
            "cloud_bucket.b",
            "--resource-value",
            "cloud_bucket.a",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("give ADDRESS=FILE"), "{}", stderr(&o));
}

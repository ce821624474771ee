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

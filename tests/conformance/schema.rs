//! Provider schemas against the reference: the example provider's schemas
//! (`examples/schema/provider.json`) and payloads for them (`examples/payloads/`).
//!
//! `vectors/gen/schema/main.go` computed the implied types with HCL's `hcldec` (as
//! Terraform does) and wrote the payloads with Debian's go-cty 1.12.1; its manifest is
//! `vectors/schema/gocty.json`. These tests check, without Go, that this crate's implied
//! types print the same type JSON and that decoding each payload and encoding it again
//! gives go-cty's exact bytes, in MessagePack and JSON and across the two.
//!
//! The one payload go-cty 1.12.1 cannot write, a plan with refined unknowns
//! (`cloud_instance.planned-refined.msgpack`), is this crate's encoder's output: the
//! test builds it from go-cty's plain plan and checks the file against it. Set
//! `CTYWIRE_WRITE_PAYLOADS=1` to rewrite that file.

use std::path::PathBuf;

use ctywire::schema::{BlockNesting, ProviderSchemas, Schema};
use ctywire::{json, msgpack, Number, Refinements, Type, Value};
use serde_json::Value as Json;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn manifest() -> Json {
    serde_json::from_slice(&read("vectors/schema/gocty.json")).expect("valid manifest")
}

fn schemas() -> ProviderSchemas {
    ProviderSchemas::from_json(&read("examples/schema/provider.json")).expect("valid schema file")
}

/// The schema a manifest selector (`provider`, `resource NAME`, `data_source NAME`)
/// names.
fn select<'s>(schemas: &'s ProviderSchemas, selector: &str) -> &'s Schema {
    match selector.split_once(' ') {
        None if selector == "provider" => schemas.provider("example/cloud").unwrap(),
        Some(("resource", name)) => schemas.resource(name).unwrap(),
        Some(("data_source", name)) => schemas.data_source(name).unwrap(),
        _ => panic!("bad selector {selector}"),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn payloads() -> Vec<Json> {
    manifest()["payloads"].as_array().unwrap().clone()
}

fn payload(name: &str) -> (Type, Value, Vec<u8>) {
    let schemas = schemas();
    let entry = payloads()
        .into_iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("no payload {name}"));
    let ty = select(&schemas, entry["schema"].as_str().unwrap()).implied_type();
    let bytes = read(entry["msgpack"].as_str().unwrap());
    let value = msgpack::decode(&bytes, &ty).unwrap();
    (ty, value, bytes)
}

#[test]
fn implied_types_print_the_type_json_hcldec_gives() {
    let schemas = schemas();
    let expected = manifest()["implied_types"].as_object().unwrap().clone();
    assert_eq!(expected.len(), 4);
    for (selector, type_json) in expected {
        let ours = select(&schemas, &selector).implied_type();
        assert_eq!(ours.to_json(), type_json.as_str().unwrap(), "{selector}");
        assert_eq!(Type::from_json(type_json.as_str().unwrap()).unwrap(), ours);
    }
}

#[test]
fn the_dynamic_blocks_of_the_example() {
    let schemas = schemas();
    let block = &schemas.resource("cloud_instance").unwrap().block;
    let ty = block.implied_type();
    let attr = |name: &str| ty.as_object().unwrap().attribute(name).unwrap().clone();
    // A dynamic attribute inside a LIST block, inside a MAP block, and one level down
    // (a LIST block inside a LIST block): all three block types are dynamic.
    for name in ["extension", "plugin", "pipeline"] {
        assert_eq!(attr(name), Type::Dynamic, "{name}");
        assert!(block.block_types[name].is_dynamic(), "{name}");
    }
    // The others keep their collection types; the optional markers of
    // `launch_settings` are gone.
    assert_eq!(attr("disk").to_expr(), "list(object({device_name=string,encryption=object({kms_key_id=string}),size_gb=number,snapshot_id=string,volume_type=string}))");
    assert_eq!(
        attr("launch_settings").to_expr(),
        "object({mode=string,retries=number,spot=bool})"
    );
    assert!(block.attributes["launch_settings"]
        .ty
        .as_ref()
        .unwrap()
        .as_object()
        .unwrap()
        .has_optional());
    assert_eq!(
        attr("monitoring").to_expr(),
        "object({alarm=list(object({name=string,threshold=number})),enabled=bool,interval_seconds=number})"
    );
}

#[test]
fn every_example_schema_is_valid() {
    let schemas = schemas();
    let mut checked = 0;
    for provider in schemas.providers.values() {
        let all = std::iter::once(&provider.provider)
            .chain(provider.resource_schemas.values())
            .chain(provider.data_source_schemas.values());
        for schema in all {
            assert_eq!(schema.block.validate(), vec![]);
            checked += 1;
        }
    }
    assert_eq!(checked, 4);
}

#[test]
fn payloads_reencode_to_go_cty_bytes() {
    let schemas = schemas();
    let mut json_checked = 0;
    let all = payloads();
    assert_eq!(all.len(), 8);
    for entry in all {
        let name = entry["name"].as_str().unwrap();
        let ty = select(&schemas, entry["schema"].as_str().unwrap()).implied_type();
        let bytes = read(entry["msgpack"].as_str().unwrap());

        // msgpack -> value -> msgpack
        let value = msgpack::decode(&bytes, &ty).unwrap_or_else(|e| panic!("{name}: {e}"));
        let again = msgpack::encode(&value, &ty).unwrap();
        assert_eq!(hex(&again), hex(&bytes), "{name}: msgpack re-encoding");

        let Some(json_file) = entry["json"].as_str() else {
            assert!(!value.is_wholly_known(), "{name}: known payloads have JSON");
            continue;
        };
        let text = read(json_file);
        // msgpack -> JSON gives go-cty's JSON.
        let as_json = json::encode(&value, &ty).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&as_json),
            String::from_utf8_lossy(&text),
            "{name}: msgpack to JSON"
        );
        // JSON -> value -> JSON, and JSON -> msgpack gives what go-cty writes after
        // reading the JSON.
        let from_json = json::decode(&text, &ty).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(json::encode(&from_json, &ty).unwrap(), text, "{name}: JSON");
        let expected = entry["msgpack_from_json_hex"]
            .as_str()
            .map_or_else(|| bytes.clone(), unhex);
        assert_eq!(
            hex(&msgpack::encode(&from_json, &ty).unwrap()),
            hex(&expected),
            "{name}: JSON to msgpack"
        );
        json_checked += 1;
    }
    assert_eq!(json_checked, 6);
}

#[test]
fn empty_value_is_terraforms() {
    let schemas = schemas();
    let block = &schemas.resource("cloud_instance").unwrap().block;
    let (ty, decoded, bytes) = payload("cloud_instance.empty");
    let empty = block.empty_value();
    assert_eq!(msgpack::encode(&empty, &ty).unwrap(), bytes);
    assert_eq!(decoded, empty);
    assert_eq!(
        json::encode(&empty, &ty).unwrap(),
        read("examples/payloads/cloud_instance.empty.json")
    );
    // The empty GROUP block inside the configuration is the block's empty value.
    let (_, config, _) = payload("cloud_instance.config");
    assert_eq!(
        config["monitoring"],
        block.block_types["monitoring"].empty_value()
    );
}

#[test]
fn dynamic_block_values_read_as_blocks() {
    let schemas = schemas();
    let block = &schemas.resource("cloud_instance").unwrap().block;
    let (_, config, _) = payload("cloud_instance.config");

    // LIST block with a dynamic attribute: a tuple in the dynamic wrapper.
    let extension = &block.block_types["extension"];
    assert_eq!(
        config["extension"].recorded_type().unwrap().to_json(),
        concat!(
            r#"["tuple",[["object",{"name":"string","settings":"string","version":"string"}],"#,
            r#"["object",{"name":"string","settings":["object",{"retain":"number","schedule":"string"}],"version":"string"}],"#,
            r#"["object",{"name":"string","settings":"dynamic","version":"string"}]]]"#
        )
    );
    let items = extension.items(&config["extension"]).unwrap();
    let names: Vec<&str> = items.iter().map(|b| b["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["agent", "backup", "noop"]);
    assert_eq!(items[0]["settings"].as_str(), Some("default"));
    assert_eq!(items[1]["settings"]["retain"].as_i64(), Some(7));
    assert!(items[2]["settings"].is_null());

    // MAP block with a dynamic attribute: an object keyed by label.
    let plugin = &block.block_types["plugin"];
    let labeled = plugin.labeled_items(&config["plugin"]).unwrap();
    let labels: Vec<&str> = labeled.iter().map(|(l, _)| *l).collect();
    assert_eq!(labels, ["metrics", "tracing"]);
    assert_eq!(labeled[0].1["config"]["port"].as_i64(), Some(9100));
    assert_eq!(labeled[1].1["config"][1].as_str(), Some("zipkin"));

    // A dynamic LIST block inside a dynamic LIST block.
    let pipeline = &block.block_types["pipeline"];
    let stages = pipeline.items(&config["pipeline"]).unwrap();
    let step = &pipeline.block.block_types["step"];
    let steps = step.items(&stages[0]["step"]).unwrap();
    assert_eq!(steps[0]["env"]["CC"].as_str(), Some("gcc"));
    assert!(steps[1]["env"].is_null());

    // Ordinary LIST, SET and MAP blocks.
    assert_eq!(
        block.block_types["disk"]
            .items(&config["disk"])
            .unwrap()
            .len(),
        2
    );
    assert_eq!(block.block_types["ingress"].nesting, BlockNesting::Set);
    assert_eq!(
        block.block_types["ingress"]
            .items(&config["ingress"])
            .unwrap()
            .len(),
        2
    );
    let labels = block.block_types["label"]
        .labeled_items(&config["label"])
        .unwrap();
    assert_eq!(labels[0].0, "env");

    // In a configuration with unknown for_each, the dynamic blocks are unknown.
    let (_, unknown, _) = payload("cloud_instance.config-unknown");
    assert!(unknown["extension"].is_unknown());
    assert!(extension.items(&unknown["extension"]).is_none());
    let stages = pipeline.items(&unknown["pipeline"]).unwrap();
    assert!(stages[0]["step"].is_unknown());
}

fn messages(violations: Vec<ctywire::Violation>) -> Vec<String> {
    violations.iter().map(ToString::to_string).collect()
}

#[test]
fn checks_on_the_example_payloads() {
    let schemas = schemas();
    let block = &schemas.resource("cloud_instance").unwrap().block;
    let none: Vec<String> = vec![];

    let (_, config, _) = payload("cloud_instance.config");
    assert_eq!(messages(block.check_config(&config)), none);
    // The configuration holds the write-only password: fine in config, not in a state.
    assert_eq!(
        messages(block.check_state(&config)),
        [".admin_password: write-only attribute must be null"]
    );

    // Five disks where at most four are allowed, but one of them is not wholly known:
    // the count waits, as in Terraform.
    let (_, config_unknown, _) = payload("cloud_instance.config-unknown");
    assert_eq!(config_unknown["disk"].len(), Some(5));
    assert_eq!(messages(block.check_config(&config_unknown)), none);

    let (_, planned, _) = payload("cloud_instance.planned");
    assert_eq!(messages(block.check_state(&planned)), none);

    let (_, state, _) = payload("cloud_instance.state");
    assert_eq!(messages(block.check_state(&state)), none);
    // A state is not a configuration: it sets computed-only attributes.
    assert_eq!(
        messages(block.check_config(&state)),
        [
            ".arn: computed-only attribute cannot be set in configuration",
            ".id: computed-only attribute cannot be set in configuration",
            r#".network_interfaces[0].public_ip: computed-only attribute cannot be set in configuration"#,
            ".private_ip: computed-only attribute cannot be set in configuration",
            ".tags_all: computed-only attribute cannot be set in configuration",
            r#".volumes["data"].iops: computed-only attribute cannot be set in configuration"#,
            r#".volumes["logs"].iops: computed-only attribute cannot be set in configuration"#,
        ]
    );

    let (_, empty, _) = payload("cloud_instance.empty");
    assert_eq!(
        messages(block.check_config(&empty)),
        [
            ".image_id: required attribute is not set",
            ".name: required attribute is not set",
            ".disk: expected at least 1 block, found 0",
        ]
    );
}

/// `value` with the value at `path` (object attributes and map keys) replaced by `new`.
fn replace(value: &Value, path: &[&str], new: Value) -> Value {
    let Some((first, rest)) = path.split_first() else {
        return new;
    };
    let swap = |k: &str, v: &Value| {
        if k == *first {
            replace(v, rest, new.clone())
        } else {
            v.clone()
        }
    };
    match value {
        Value::Object(o) => Value::object(o.iter().map(|(k, v)| (k, swap(k, v)))),
        Value::Map(m) => Value::map(m.iter().map(|(k, v)| (k, swap(k, v)))),
        other => panic!("cannot step into {other:?} at {first}"),
    }
}

#[test]
fn refined_plan_is_the_plain_plan_plus_refinements() {
    let (ty, planned, go_bytes) = payload("cloud_instance.planned");
    let num = |n: i64| Number::from(n);
    let refinements: [(&[&str], Refinements); 6] = [
        (
            &["arn"],
            Refinements::new()
                .not_null()
                .with_string_prefix("arn:cloud:instance/"),
        ),
        (&["id"], Refinements::new().not_null()),
        (
            &["cpu_count"],
            Refinements::new()
                .not_null()
                .with_number_lower_bound(num(1), true)
                .with_number_upper_bound(num(64), true),
        ),
        (
            &["private_ip"],
            Refinements::new().not_null().with_string_prefix("10.0."),
        ),
        (
            &["tags_all"],
            Refinements::new().not_null().with_length_lower_bound(1),
        ),
        (
            &["volumes", "data", "iops"],
            Refinements::new().with_number_lower_bound(num(100), true),
        ),
    ];
    let mut refined = planned.clone();
    for (path, r) in &refinements {
        assert!(planned_at(&planned, path).is_unknown(), "{path:?}");
        refined = replace(&refined, path, Value::Unknown(r.clone()));
    }
    let ours = msgpack::encode(&refined, &ty).unwrap();

    let file = "examples/payloads/cloud_instance.planned-refined.msgpack";
    if std::env::var_os("CTYWIRE_WRITE_PAYLOADS").is_some() {
        std::fs::write(root().join(file), &ours).unwrap();
    }
    let committed = read(file);
    assert_eq!(hex(&ours), hex(&committed), "{file} is stale");

    // The file decodes to the refined plan and re-encodes to itself.
    let decoded = msgpack::decode(&committed, &ty).unwrap();
    assert_eq!(decoded, refined);
    assert_eq!(msgpack::encode(&decoded, &ty).unwrap(), committed);
    assert_eq!(
        planned_at(&decoded, &["arn"])
            .refinements()
            .unwrap()
            .string_prefix(),
        Some("arn:cloud:instance/")
    );
    // Refinements make it differ from go-cty 1.12.1's plain plan only where they are.
    assert_ne!(committed, go_bytes);
    let mut plain = decoded;
    for (path, _) in &refinements {
        plain = replace(&plain, path, Value::unknown());
    }
    assert_eq!(msgpack::encode(&plain, &ty).unwrap(), go_bytes);
}

fn planned_at<'v>(value: &'v Value, path: &[&str]) -> &'v Value {
    path.iter().fold(value, |v, k| &v[*k])
}

#[test]
fn schema_files_in_utf16_and_with_a_byte_order_mark() {
    let text = read("examples/schema/provider.json");
    let plain = ProviderSchemas::from_json(&text).unwrap();
    let utf16 = |big_endian: bool| -> Vec<u8> {
        let unit = |u: u16| {
            if big_endian {
                u.to_be_bytes()
            } else {
                u.to_le_bytes()
            }
        };
        let text = std::str::from_utf8(&text).unwrap();
        std::iter::once(0xFEFF)
            .chain(text.encode_utf16())
            .flat_map(unit)
            .collect()
    };
    for input in [
        [&b"\xEF\xBB\xBF"[..], &text].concat(),
        utf16(false),
        utf16(true),
    ] {
        assert_eq!(ProviderSchemas::from_json(&input).unwrap(), plain);
    }
}

#[test]
fn damaged_schema_files_are_errors_not_panics() {
    let good = read("examples/schema/provider.json");
    // Truncations fail cleanly (the whole file is one JSON document): every 7th length,
    // and every length near the end.
    let near_end = good.len().saturating_sub(64);
    for end in (0..good.len() - 1).filter(|&n| n % 7 == 0 || n >= near_end) {
        if good[end..].iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        assert!(
            ProviderSchemas::from_json(&good[..end]).is_err(),
            "truncated at {end}"
        );
    }
    // Byte substitutions give an error or a document; never a panic.
    let mut seed: u32 = 0x9e37_79b9;
    for _ in 0..1000 {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        let mut bytes = good.clone();
        let at = seed as usize % bytes.len();
        let replacements = b"{}[]\":,0-9a\\ \x00\xff";
        bytes[at] = replacements[(seed >> 16) as usize % replacements.len()];
        if let Ok(schemas) = ProviderSchemas::from_json(&bytes) {
            for provider in schemas.providers.values() {
                for schema in provider.resource_schemas.values() {
                    let _ = schema.implied_type();
                    let _ = schema.block.validate();
                    let _ = schema.block.empty_value();
                }
            }
        }
    }
}

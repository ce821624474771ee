//! The example configurations of `examples/config/`: each block's payload, byte for byte,
//! against what HCL and go-cty produce for it (`vectors/config/gocty.json`, written by
//! `vectors/gen/schema/config.go`).
//!
//! go-cty 1.12.1 has no refinements. For a value with unknowns, the committed
//! `NAME.msgpack` is this crate's payload (with the refinements Terraform >= 1.6 sends),
//! and removing its refinements must give go-cty's bytes.

use ctywire::config::Config;
use ctywire::{json, msgpack, ProviderSchemas, Value};

struct Case {
    name: String,
    config: String,
    address: String,
    gocty: Vec<u8>,
    json: Option<String>,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string("vectors/config/gocty.json").expect("manifest");
    let manifest: serde_json::Value = serde_json::from_str(&text).expect("manifest is JSON");
    manifest["payloads"]
        .as_array()
        .expect("payloads")
        .iter()
        .map(|p| {
            let field = |k: &str| p[k].as_str().map(str::to_owned);
            Case {
                name: field("name").expect("name"),
                config: field("config").expect("config"),
                address: field("address").expect("address"),
                gocty: unhex(&field("msgpack_hex").expect("msgpack_hex")),
                json: field("json"),
            }
        })
        .collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// `value` with every unknown's refinements removed (what go-cty 1.12.1 holds).
fn unrefined(value: &Value) -> Value {
    match value {
        Value::Unknown(_) => Value::unknown(),
        Value::List(items) => Value::list(items.iter().map(unrefined)),
        Value::Tuple(items) => Value::tuple(items.iter().map(unrefined)),
        Value::Set(set) => Value::set(set.iter().map(unrefined)),
        Value::Map(map) => Value::map(map.iter().map(|(k, v)| (k, unrefined(v)))),
        Value::Object(object) => Value::object(object.iter().map(|(k, v)| (k, unrefined(v)))),
        Value::Typed(typed) => Value::typed(typed.ty.clone(), unrefined(&typed.value)),
        other => other.clone(),
    }
}

#[test]
fn every_example_gives_terraforms_payload() {
    let schemas =
        ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json").unwrap())
            .unwrap();
    let cases = cases();
    assert_eq!(cases.len(), 7);
    for case in cases {
        let config = Config::read([&case.config]).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let address = case.address.parse().unwrap();
        let value = config
            .value(&address, &schemas)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let ty = address.schema(&schemas).unwrap().implied_type();
        let bytes = msgpack::encode(&value, &ty).unwrap();
        let file = format!("examples/config/{}.msgpack", case.name);
        let committed = std::fs::read(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(bytes == committed, "{}: differs from {file}", case.name);
        let plain = msgpack::encode(&unrefined(&value), &ty).unwrap();
        assert!(
            plain == case.gocty,
            "{}: without refinements, differs from go-cty's bytes",
            case.name
        );
        if value.is_wholly_known() {
            assert_eq!(bytes, case.gocty, "{}", case.name);
        }
        match &case.json {
            Some(path) => {
                let want = std::fs::read(path).unwrap();
                assert!(
                    json::encode(&value, &ty).unwrap() == want,
                    "{}: differs from {path}",
                    case.name
                );
            }
            None => assert!(
                !value.is_wholly_known(),
                "{}: a known value has a JSON file",
                case.name
            ),
        }
    }
}

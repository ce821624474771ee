//! DynamicValue <-> Value and typed values, both protocol versions.

use ctywire::{msgpack, Refinements, Type, Value};
use ctywire_tfplugin::dynamic;
use ctywire_tfplugin::{tfplugin5, tfplugin6};

fn thing_type() -> Type {
    "object({name=string, size=number, tags=map(string), extra=any})"
        .parse()
        .unwrap()
}

#[test]
fn values_are_written_as_msgpack_and_read_back() {
    let ty = thing_type();
    let value = Value::object([
        ("extra", Value::typed(Type::Bool, Value::from(true))),
        ("name", Value::from("a")),
        ("size", Value::Unknown(Refinements::new().not_null())),
        ("tags", Value::map([("env", Value::from("prod"))])),
    ]);
    let dv: tfplugin6::DynamicValue = dynamic::encode(&value, &ty).unwrap();
    assert!(dv.json.is_empty());
    assert_eq!(dv.msgpack, msgpack::encode(&value, &ty).unwrap());
    assert_eq!(dynamic::decode(Some(&dv), &ty).unwrap(), value);
    let dv5: tfplugin5::DynamicValue = dynamic::encode(&value, &ty).unwrap();
    assert_eq!(dv5.msgpack, dv.msgpack);
    assert_eq!(dynamic::decode(Some(&dv5), &ty).unwrap(), value);
}

#[test]
fn json_is_read_when_there_is_no_msgpack_and_msgpack_wins_over_json() {
    let ty = Type::object([("name", Type::String)]);
    let json_only = tfplugin6::DynamicValue {
        msgpack: Default::default(),
        json: br#"{"name":"j"}"#.to_vec().into(),
    };
    assert_eq!(
        dynamic::decode(Some(&json_only), &ty).unwrap(),
        Value::object([("name", Value::from("j"))])
    );
    let both = tfplugin6::DynamicValue {
        msgpack: msgpack::encode(&Value::object([("name", Value::from("m"))]), &ty)
            .unwrap()
            .into(),
        json: br#"{"name":"j"}"#.to_vec().into(),
    };
    assert_eq!(
        dynamic::decode(Some(&both), &ty).unwrap(),
        Value::object([("name", Value::from("m"))])
    );
    assert!(
        dynamic::decode(Some(&tfplugin6::DynamicValue::default()), &ty)
            .unwrap()
            .is_null()
    );
    assert!(dynamic::decode::<tfplugin6::DynamicValue>(None, &ty)
        .unwrap()
        .is_null());
}

#[test]
fn wrong_types_and_malformed_bytes_are_errors_with_paths() {
    let ty = thing_type();
    let wrong = tfplugin6::DynamicValue {
        msgpack: msgpack::encode(
            &Value::object([
                ("extra", Value::Null),
                ("name", Value::from("a")),
                ("size", Value::from(true)),
                ("tags", Value::Null),
            ]),
            &"object({name=string, size=bool, tags=map(string), extra=any})"
                .parse()
                .unwrap(),
        )
        .unwrap()
        .into(),
        json: Default::default(),
    };
    let err = dynamic::decode(Some(&wrong), &ty).unwrap_err();
    assert_eq!(err.path().to_string(), ".size");
    let truncated = tfplugin6::DynamicValue {
        msgpack: vec![0x84, 0xa4, b'n'].into(),
        json: Default::default(),
    };
    assert!(dynamic::decode(Some(&truncated), &ty).is_err());
    let bad_json = tfplugin6::DynamicValue {
        msgpack: Default::default(),
        json: br#"{"tags":{"a":[1]}}"#.to_vec().into(),
    };
    let err = dynamic::decode(Some(&bad_json), &ty).unwrap_err();
    assert_eq!(err.path().to_string(), r#".tags["a"]"#);
}

#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
struct Thing {
    name: String,
    size: Option<f64>,
}

#[test]
fn typed_values_through_the_serde_bridge() {
    let ty: Type = "object({name=string, size=number})".parse().unwrap();
    let thing = Thing {
        name: "a".into(),
        size: None,
    };
    let dv: tfplugin6::DynamicValue = dynamic::encode_from(&thing, &ty).unwrap();
    assert_eq!(
        dynamic::decode(Some(&dv), &ty).unwrap(),
        Value::object([("name", Value::from("a")), ("size", Value::Null)])
    );
    let back: Thing = dynamic::decode_as(Some(&dv), &ty).unwrap();
    assert_eq!(back, thing);
    let json = tfplugin6::DynamicValue {
        msgpack: Default::default(),
        json: br#"{"name":"b","size":2}"#.to_vec().into(),
    };
    let from_json: Thing = dynamic::decode_as(Some(&json), &ty).unwrap();
    assert_eq!(
        from_json,
        Thing {
            name: "b".into(),
            size: Some(2.0)
        }
    );
    let absent: Option<Thing> =
        dynamic::decode_as::<_, tfplugin6::DynamicValue>(None, &ty).unwrap();
    assert_eq!(absent, None);
    let wrong = tfplugin6::DynamicValue {
        msgpack: Default::default(),
        json: br#"{"name":"b","size":"big"}"#.to_vec().into(),
    };
    let err = dynamic::decode_as::<Thing, _>(Some(&wrong), &ty).unwrap_err();
    assert_eq!(err.path().to_string(), ".size");
}

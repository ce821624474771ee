//! The implied types that read dynamic wrappers (`msgpack::implied_type_reading_wrappers`,
//! `json::implied_type_reading_wrappers`): on the example payloads, which go-cty's
//! implied-type rules cannot type, against the implied-type vectors, which they must
//! leave alone, and at the edges of what counts as a wrapper.

use ctywire::{json, msgpack, Path, Type};

fn read(path: &str) -> Vec<u8> {
    std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

fn paths(text: &[&str]) -> Vec<Path> {
    text.iter().map(|p| Path::parse(p).unwrap()).collect()
}

/// Every example payload: the type read with wrappers decodes it, and the value
/// encodes back to the same bytes (the refined plan aside: an unknown at a `dynamic`
/// position has no refinements to keep).
#[test]
fn example_payloads_decode_and_reencode() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/payloads");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "msgpack" || x == "json"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 15);
    let mut plain_fails = 0;
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(file).unwrap();
        if name.ends_with(".msgpack") {
            let (ty, wrappers) = msgpack::implied_type_reading_wrappers(&bytes)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let value = msgpack::decode(&bytes, &ty).unwrap_or_else(|e| panic!("{name}: {e}"));
            if !name.contains("refined") {
                assert_eq!(msgpack::encode(&value, &ty).unwrap(), bytes, "{name}");
            }
            plain_fails += usize::from(msgpack::implied_type(&bytes).is_err());
            assert_eq!(wrappers.is_empty(), msgpack::implied_type(&bytes).is_ok());
        } else {
            let (ty, _) = json::implied_type_reading_wrappers(&bytes)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let value = json::decode(&bytes, &ty).unwrap_or_else(|e| panic!("{name}: {e}"));
            let text = json::encode(&value, &ty).unwrap();
            assert_eq!(
                String::from_utf8(text).unwrap(),
                String::from_utf8(bytes).unwrap().trim_end(),
                "{name}"
            );
        }
    }
    // go-cty's rules type none of the payloads with a dynamic attribute.
    assert_eq!(plain_fails, 6);
}

#[test]
fn the_wrappers_of_a_configuration() {
    let bytes = read("examples/payloads/cloud_instance.config.msgpack");
    let (ty, wrappers) = msgpack::implied_type_reading_wrappers(&bytes).unwrap();
    assert_eq!(
        wrappers,
        paths(&[".extension", ".metadata", ".pipeline", ".plugin"])
    );
    for p in &wrappers {
        assert_eq!(
            ty.as_object()
                .unwrap()
                .attribute(p.steps()[0].name().unwrap()),
            Some(&Type::Dynamic)
        );
    }
    // The JSON form has the same wrappers, as objects.
    let text = read("examples/payloads/cloud_instance.config.json");
    let (json_ty, json_wrappers) = json::implied_type_reading_wrappers(&text).unwrap();
    assert_eq!(json_wrappers, wrappers);
    let from_json = json::decode(&text, &json_ty).unwrap();
    let from_msgpack = msgpack::decode(&bytes, &ty).unwrap();
    assert_eq!(from_json["metadata"], from_msgpack["metadata"]);
}

/// Where go-cty's rules imply a type, reading wrappers implies the same one, and where
/// they fail it fails alike, save for wrappers: every implied-type case of the
/// vectors, MessagePack and JSON.
#[test]
fn implied_type_vectors_are_unchanged() {
    let (mut checked, mut read_wrappers) = (0, 0);
    for file in [
        "vectors/go-cty/msgpack-implied-type.json",
        "vectors/go-cty/json-implied-type.json",
        "vectors/go-cty/json-implied-type-errors.json",
        "vectors/go-cty/json-simple-value.json",
        "vectors/ctywire/implied-type.json",
    ] {
        let doc: serde_json::Value = serde_json::from_slice(&read(file)).unwrap();
        for case in doc["cases"].as_array().unwrap() {
            let name = case["name"].as_str().unwrap();
            let (plain, reading) = if let Some(hex) = case["input_msgpack"].as_str() {
                let bytes: Vec<u8> = (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                    .collect();
                (
                    msgpack::implied_type(&bytes),
                    msgpack::implied_type_reading_wrappers(&bytes),
                )
            } else if let Some(text) = case["input_json"].as_str() {
                (
                    json::implied_type(text.as_bytes()),
                    json::implied_type_reading_wrappers(text.as_bytes()),
                )
            } else {
                continue;
            };
            match (plain, reading) {
                (Ok(plain), Ok((ty, wrappers))) => {
                    assert_eq!(ty, plain, "{file}: {name}");
                    assert!(wrappers.is_empty(), "{file}: {name}");
                }
                (Err(plain), Err(reading)) => {
                    assert_eq!(reading.to_string(), plain.to_string(), "{file}: {name}")
                }
                (Err(_), Ok((_, wrappers))) if !wrappers.is_empty() => read_wrappers += 1,
                (plain, reading) => panic!("{file}: {name}: {plain:?} / {reading:?}"),
            }
            checked += 1;
        }
    }
    assert!(checked >= 70, "{checked}");
    // `dynamic-wrapper-cannot-be-typed`: `[bin "string", "x"]`.
    assert_eq!(read_wrappers, 1);
}

#[test]
fn what_is_a_wrapper() {
    let msgpack_type = |bytes: &[u8]| {
        msgpack::implied_type_reading_wrappers(bytes).map(|(t, w)| {
            (
                t.to_expr(),
                w.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
            )
        })
    };
    // [bin "number", 1] in a tuple, and nested in a map.
    assert_eq!(
        msgpack_type(b"\x92\x01\x92\xc4\x08\"number\"\x01").unwrap(),
        ("tuple([number,any])".into(), vec!["[1]".to_owned()])
    );
    assert_eq!(
        msgpack_type(b"\x81\xa1a\x92\xc4\x08\"number\"\x01").unwrap(),
        ("object({a=any})".into(), vec![".a".to_owned()])
    );
    // Binary data that is not type JSON is refused as go-cty refuses it.
    let err = msgpack_type(b"\x92\xc4\x02xx\x01").unwrap_err();
    assert_eq!(
        err.to_string(),
        "[0]: cannot imply a type for binary data at byte 1"
    );
    // Three elements: not a wrapper.
    assert!(msgpack_type(b"\x93\xc4\x08\"number\"\x01\x01").is_err());
    // A string holding type JSON: a tuple, as go-cty implies it.
    assert_eq!(
        msgpack_type(b"\x92\xa6number\x01").unwrap(),
        ("tuple([string,number])".into(), vec![])
    );

    let json_type = |text: &str| {
        json::implied_type_reading_wrappers(text.as_bytes())
            .map(|(t, w)| {
                (
                    t.to_expr(),
                    w.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
                )
            })
            .unwrap()
    };
    let wrapped = |expr: &str, at: &[&str]| {
        (
            expr.to_owned(),
            at.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        )
    };
    assert_eq!(
        json_type(r#"{"type":"number","value":1}"#),
        wrapped("any", &[""])
    );
    assert_eq!(
        json_type(r#"[{"value":"x","type":"string"}]"#),
        wrapped("tuple([any])", &["[0]"])
    );
    // Not wrappers: a value that does not fit the type, a type that is not type JSON,
    // another member, a member missing.
    for text in [
        r#"{"type":"number","value":"x"}"#,
        r#"{"type":"numbr","value":1}"#,
        r#"{"type":"number","value":1,"other":1}"#,
        r#"{"type":"number"}"#,
    ] {
        let (ty, wrappers) = json::implied_type_reading_wrappers(text.as_bytes()).unwrap();
        assert_eq!(ty, json::implied_type(text.as_bytes()).unwrap(), "{text}");
        assert!(wrappers.is_empty(), "{text}");
    }
}

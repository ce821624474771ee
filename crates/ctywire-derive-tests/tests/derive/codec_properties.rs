//! The typed codecs of derived structs (`msgpack::encode_object` / `decode_object`, and
//! `json::encode_object` / `decode_object`) agree with the `Value` codecs byte for byte:
//! on generated structs of every shape (LIST, SET, MAP, SINGLE and GROUP blocks, a
//! nesting the field names, a LIST block holding `dynamic`, sets of objects, `dynamic`
//! fields, optional and computed attributes, unknowns with refinements, protocol-6
//! nested attributes), the typed encoders write what `msgpack::encode` and
//! `json::encode` write for the struct's `Value` (or both refuse it: JSON has no
//! unknowns), and the typed decoders read what `msgpack::decode` and `json::decode`
//! read, converted (`decode_as`, `serde::from_value`); and on hostile input both fail,
//! with the same error where they fail for the same reason.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use ctywire::object::Object;
use ctywire::{
    json, msgpack, serde as cty_serde, ErrorKind, Known, Number, Refinements, Type, Value,
};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// A resource with a field of every kind.
#[derive(ctywire::Object, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Resource {
    #[cty(required)]
    name: String,
    #[cty(optional)]
    size: Option<u32>,
    #[cty(optional)]
    offset: Option<i64>,
    #[cty(optional)]
    small: Option<i8>,
    #[cty(optional)]
    ratio: Option<f64>,
    #[cty(optional)]
    exact: Option<Number>,
    #[cty(optional)]
    enabled: Option<bool>,
    #[cty(computed)]
    id: Known<String>,
    #[cty(computed)]
    port: Known<u16>,
    #[cty(computed)]
    addresses: Known<Vec<Known<String>>>,
    #[cty(optional, computed)]
    tags: Option<BTreeMap<String, String>>,
    #[cty(optional)]
    labels: BTreeSet<String>,
    #[cty(optional)]
    ports: BTreeSet<i32>,
    #[cty(optional)]
    switches: BTreeSet<bool>,
    #[cty(optional)]
    extra: Value,
    #[cty(optional)]
    extras: Option<HashMap<String, Value>>,
    #[cty(nested, optional)]
    endpoint: Option<Endpoint>,
    #[cty(nested, optional)]
    endpoints: BTreeSet<Endpoint>,
    #[cty(block)]
    disk: Vec<Disk>,
    #[cty(block)]
    rule: BTreeSet<Rule>,
    #[cty(block)]
    settings: Option<Settings>,
    #[cty(block)]
    zone: BTreeMap<String, Zone>,
    #[cty(block)]
    group: Settings,
    #[cty(block(set))]
    step: Vec<Endpoint>,
    #[cty(block)]
    stage: Vec<Stage>,
}

#[derive(ctywire::Object, Serialize, Deserialize, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Endpoint {
    #[cty(required)]
    host: String,
    #[cty(optional)]
    port: Option<u16>,
}

#[derive(ctywire::Object, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Disk {
    #[cty(required)]
    size: u64,
    #[cty(computed)]
    volume_id: Known<String>,
    #[cty(block)]
    snapshot: Vec<Snapshot>,
}

#[derive(ctywire::Object, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Snapshot {
    #[cty(optional)]
    label: Option<String>,
}

#[derive(ctywire::Object, Serialize, Deserialize, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Rule {
    #[cty(required)]
    protocol: String,
    #[cty(optional)]
    from_port: Option<i32>,
    #[cty(computed)]
    arn: Known<String>,
    #[cty(optional)]
    cidrs: Vec<String>,
    #[cty(optional)]
    names: BTreeSet<String>,
}

#[derive(ctywire::Object, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Settings {
    #[cty(optional)]
    mode: Option<String>,
    #[cty(optional)]
    level: Option<u8>,
}

#[derive(ctywire::Object, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Zone {
    #[cty(required)]
    weight: u32,
}

/// A LIST block holding `dynamic`: its type is `dynamic`.
#[derive(ctywire::Object, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Stage {
    #[cty(optional)]
    env: Value,
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        "[a-z]{1,6}",
        "[a-zA-Z0-9 ._/-]{0,40}",
        Just("é".to_owned()),
        Just("e\u{301}".to_owned()),
        "\\PC{0,8}",
    ]
}

fn refinements_string() -> impl Strategy<Value = Refinements> {
    (any::<bool>(), proptest::option::of("[a-z]{0,5}")).prop_map(|(nn, prefix)| {
        let mut r = Refinements::new();
        if nn {
            r = r.not_null();
        }
        if let Some(p) = prefix {
            r = r.with_string_prefix(p);
        }
        r
    })
}

fn refinements_number() -> impl Strategy<Value = Refinements> {
    (any::<bool>(), proptest::option::of(0u16..100)).prop_map(|(nn, lower)| {
        let mut r = Refinements::new();
        if nn {
            r = r.not_null();
        }
        if let Some(l) = lower {
            r = r.with_number_lower_bound(Number::from(l), true);
        }
        r
    })
}

fn refinements_list() -> impl Strategy<Value = Refinements> {
    (any::<bool>(), proptest::option::of(0u64..3)).prop_map(|(nn, lower)| {
        let mut r = Refinements::new();
        if nn {
            r = r.not_null();
        }
        if let Some(l) = lower {
            r = r.with_length_lower_bound(l);
        }
        r
    })
}

fn known<T: std::fmt::Debug + Clone + 'static>(
    inner: impl Strategy<Value = T> + 'static,
    refinements: impl Strategy<Value = Refinements> + 'static,
) -> impl Strategy<Value = Known<T>> {
    prop_oneof![
        Just(Known::Null),
        Just(Known::unknown()),
        refinements.prop_map(Known::Unknown),
        inner.prop_map(Known::Known),
    ]
}

fn number() -> impl Strategy<Value = Number> {
    prop_oneof![
        any::<i64>().prop_map(Number::from),
        any::<u64>().prop_map(Number::from),
        any::<f64>()
            .prop_filter("not NaN", |f| !f.is_nan())
            .prop_map(|f| Number::from_f64(f).unwrap()),
        "-?[0-9]{1,25}\\.[0-9]{1,25}".prop_map(|s| s.parse().unwrap()),
    ]
}

/// What a `dynamic` field holds: values of several types, null and unknown.
fn dynamic() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        text().prop_map(Value::from),
        any::<i32>().prop_map(Value::from),
        any::<bool>().prop_map(Value::from),
    ];
    prop_oneof![
        Just(Value::Null),
        Just(Value::unknown()),
        leaf.clone(),
        prop::collection::vec(text(), 0..3)
            .prop_map(|v| Value::list(v.into_iter().map(Value::from))),
        prop::collection::vec(text(), 0..3)
            .prop_map(|v| Value::set(v.into_iter().map(Value::from))),
        (text(), any::<i32>(), any::<bool>()).prop_map(|(s, n, b)| Value::object([
            ("s", Value::from(s)),
            ("n", Value::from(n)),
            ("b", Value::from(b)),
        ])),
        prop::collection::btree_map("[a-c]{1,2}", any::<i16>(), 0..3)
            .prop_map(|m| Value::map(m.into_iter().map(|(k, v)| (k, Value::from(v))))),
    ]
}

fn endpoint() -> impl Strategy<Value = Endpoint> {
    (text(), proptest::option::of(any::<u16>())).prop_map(|(host, port)| Endpoint { host, port })
}

fn rule() -> impl Strategy<Value = Rule> {
    (
        prop_oneof![Just("tcp".to_owned()), Just("udp".to_owned()), text()],
        proptest::option::of(any::<i32>()),
        known(text(), refinements_string()),
        prop::collection::vec(text(), 0..3),
        prop::collection::btree_set(text(), 0..3),
    )
        .prop_map(|(protocol, from_port, arn, cidrs, names)| Rule {
            protocol,
            from_port,
            arn,
            cidrs,
            names,
        })
}

fn settings() -> impl Strategy<Value = Settings> {
    (
        proptest::option::of(text()),
        proptest::option::of(any::<u8>()),
    )
        .prop_map(|(mode, level)| Settings { mode, level })
}

fn disk() -> impl Strategy<Value = Disk> {
    (
        any::<u64>(),
        known(text(), refinements_string()),
        prop::collection::vec(proptest::option::of(text()), 0..3),
    )
        .prop_map(|(size, volume_id, labels)| Disk {
            size,
            volume_id,
            snapshot: labels.into_iter().map(|label| Snapshot { label }).collect(),
        })
}

/// The `dynamic` values of one LIST block: all of one type (go-cty's lists hold one),
/// or null.
fn stages() -> impl Strategy<Value = Vec<Stage>> {
    prop_oneof![
        prop::collection::vec(proptest::option::of(text()), 0..3).prop_map(|v| v
            .into_iter()
            .map(|s| Stage {
                env: s.map_or(Value::Null, Value::from)
            })
            .collect()),
        prop::collection::vec(any::<i32>(), 0..3).prop_map(|v| v
            .into_iter()
            .map(|n| Stage {
                env: Value::from(n)
            })
            .collect()),
    ]
}

prop_compose! {
    fn resource_head()(
        name in text(),
        size in proptest::option::of(any::<u32>()),
        offset in proptest::option::of(any::<i64>()),
        small in proptest::option::of(any::<i8>()),
        ratio in proptest::option::of(any::<f64>().prop_filter("not NaN", |f| !f.is_nan())),
        exact in proptest::option::of(number()),
        enabled in proptest::option::of(any::<bool>()),
        id in known(text(), refinements_string()),
        port in known(any::<u16>(), refinements_number()),
        addresses in known(prop::collection::vec(known(text(), refinements_string()), 0..3), refinements_list()),
        tags in proptest::option::of(prop::collection::btree_map(text(), text(), 0..4)),
        labels in prop::collection::btree_set(text(), 0..5),
        ports in prop::collection::btree_set(any::<i32>(), 0..5),
        switches in prop::collection::btree_set(any::<bool>(), 0..3),
    ) -> Resource {
        Resource {
            name, size, offset, small, ratio, exact, enabled, id, port, addresses, tags,
            labels, ports, switches,
            extra: Value::Null,
            extras: None,
            endpoint: None,
            endpoints: BTreeSet::new(),
            disk: Vec::new(),
            rule: BTreeSet::new(),
            settings: None,
            zone: BTreeMap::new(),
            group: Settings { mode: None, level: None },
            step: Vec::new(),
            stage: Vec::new(),
        }
    }
}

prop_compose! {
    fn resource()(
        head in resource_head(),
        extra in dynamic(),
        extras in proptest::option::of(prop::collection::hash_map(text(), dynamic(), 0..3)),
        endpoint in proptest::option::of(endpoint()),
        endpoints in prop::collection::btree_set(endpoint(), 0..4),
        disk in prop::collection::vec(disk(), 0..3),
        rule in prop::collection::btree_set(rule(), 0..5),
        settings in proptest::option::of(settings()),
        zone in prop::collection::btree_map(text(), any::<u32>().prop_map(|weight| Zone { weight }), 0..3),
        group in settings(),
        step in prop::collection::vec(endpoint(), 0..4),
        stage in stages(),
    ) -> Resource {
        Resource { extra, extras, endpoint, endpoints, disk, rule, settings, zone, group, step, stage, ..head }
    }
}

/// Whether the `Value` codec can write `value` at all (a map of `dynamic` values of
/// different types cannot be: go-cty's maps hold one type).
fn value_of(resource: &Resource, ty: &Type) -> Option<Value> {
    cty_serde::to_value(resource, ty).ok()
}

proptest! {
    #![proptest_config(crate::proptest_config(512))]

    /// Encoding: the typed encoder writes what the `Value` encoder writes, or both fail.
    #[test]
    fn typed_encode_is_the_value_encoding(resource in resource()) {
        let ty = Resource::cty_type();
        let typed = msgpack::encode_object(&resource);
        match value_of(&resource, &ty).map(|v| msgpack::encode(&v, &ty)) {
            Some(Ok(bytes)) => prop_assert_eq!(typed.expect("the typed encoder writes it"), bytes),
            _ => prop_assert!(typed.is_err(), "the typed encoder wrote what the value codec refuses"),
        }
    }

    /// Decoding: the typed decoder reads what `msgpack::decode` reads, converted, and
    /// writes it back as it was.
    #[test]
    fn typed_decode_is_the_value_decoding(resource in resource()) {
        let ty = Resource::cty_type();
        let Ok(bytes) = msgpack::encode_object(&resource) else { return Ok(()) };
        let typed: Resource = msgpack::decode_object(&bytes).expect("the typed decoder reads it");
        let value = msgpack::decode(&bytes, &ty).expect("the value decoder reads it");
        let converted: Resource = cty_serde::from_value(&value, &ty).expect("the value converts");
        prop_assert_eq!(&typed, &converted);
        let bridged: Resource = msgpack::decode_as(&bytes, &ty).expect("the bridge reads it");
        prop_assert_eq!(&typed, &bridged);
        // Two rules that cty keeps apart for their unknown `arn` but that are one Rust
        // value once read (names equal after NFC) are one element of a `BTreeSet`: the
        // documented merge (`SetOf` keeps them); else the bytes come back as they were.
        if typed.rule.len() == resource.rule.len() {
            prop_assert_eq!(msgpack::encode_object(&typed).unwrap(), bytes);
        }
    }

    /// Any input the `Value` decoder refuses, the typed decoder refuses too, with the
    /// same path, and neither panics: generated payloads with bytes changed, cut or
    /// inserted.
    #[test]
    fn hostile_input_is_refused_with_the_path(
        resource in resource(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..4),
    ) {
        let ty = Resource::cty_type();
        let Ok(mut bytes) = msgpack::encode_object(&resource) else { return Ok(()) };
        for (at, byte, how) in edits {
            if bytes.is_empty() {
                break;
            }
            let i = at.index(bytes.len());
            match how {
                0 => bytes[i] = byte,
                1 => bytes.truncate(i),
                _ => bytes.insert(i, byte),
            }
        }
        let typed = msgpack::decode_object::<Resource>(&bytes);
        let value = msgpack::decode(&bytes, &ty);
        match (&typed, &value) {
            (Err(t), Err(v)) => {
                // The Rust type may find another fault first only where it is stricter.
                if t.kind() == v.kind() && t.message() == v.message() {
                    prop_assert_eq!(t.path(), v.path());
                }
            }
            (Ok(_), Err(v)) => prop_assert!(false, "typed decode accepted what decode refuses: {}", v),
            (Err(t), Ok(v)) => {
                // Only where the Rust type cannot hold the value.
                prop_assert!(
                    cty_serde::from_value::<Resource>(v, &ty).is_err(),
                    "typed decode refused what decode_as reads: {}", t
                );
            }
            (Ok(t), Ok(v)) => {
                let converted: Resource = cty_serde::from_value(v, &ty).expect("converts");
                prop_assert_eq!(t, &converted);
            }
        }
    }
}

#[test]
fn deep_nesting_is_a_limit_error_with_a_path() {
    // A dynamic value nested past the limit: lists in a list in `extra`.
    let resource = Resource {
        extra: Value::from("x"),
        ..sample()
    };
    let bytes = msgpack::encode_object(&resource).unwrap();
    let ty = Resource::cty_type();
    // Swap `extra`'s wrapper for one whose type is 200 nested lists, and as many arrays.
    let depth = 200;
    let mut type_json = String::new();
    for _ in 0..depth {
        type_json.push_str("[\"list\",");
    }
    type_json.push_str("\"string\"");
    type_json.push_str(&"]".repeat(depth));
    let mut wrapper = vec![0x92, 0xc5];
    wrapper.extend_from_slice(&(type_json.len() as u16).to_be_bytes());
    wrapper.extend_from_slice(type_json.as_bytes());
    wrapper.extend(std::iter::repeat_n(0x91, depth));
    wrapper.extend_from_slice(b"\xa1x");
    let old = b"\x92\xc4\x08\"string\"\xa1x";
    let at = bytes
        .windows(old.len())
        .position(|w| w == old)
        .expect("extra's wrapper");
    let hostile = [&bytes[..at], &wrapper[..], &bytes[at + old.len()..]].concat();
    let typed = msgpack::decode_object::<Resource>(&hostile).unwrap_err();
    let value = msgpack::decode(&hostile, &ty).unwrap_err();
    assert_eq!(typed.kind(), ErrorKind::LimitExceeded, "{typed}");
    assert_eq!(typed.to_string(), value.to_string());
    assert!(typed.path().to_string().starts_with(".extra"), "{typed}");
}

#[test]
fn huge_lengths_and_truncation_are_errors_with_paths() {
    let ty = Resource::cty_type();
    let bytes = msgpack::encode_object(&sample()).unwrap();
    // Every prefix: an error, the value decoder's, never a panic.
    for n in 0..bytes.len() {
        let typed = msgpack::decode_object::<Resource>(&bytes[..n]).unwrap_err();
        let value = msgpack::decode(&bytes[..n], &ty).unwrap_err();
        assert_eq!(typed.to_string(), value.to_string(), "cut at {n}");
    }
    // `labels` claims 2^32 - 1 elements.
    let labels = b"\xa6labels\x92";
    let at = bytes
        .windows(labels.len())
        .position(|w| w == labels)
        .unwrap()
        + labels.len()
        - 1;
    let hostile = [&bytes[..at], b"\xdd\xff\xff\xff\xff", &bytes[at + 1..]].concat();
    let typed = msgpack::decode_object::<Resource>(&hostile).unwrap_err();
    assert_eq!(typed.path().to_string(), ".labels");
    assert_eq!(
        typed.to_string(),
        msgpack::decode(&hostile, &ty).unwrap_err().to_string()
    );
}

#[test]
fn wrong_types_name_the_path() {
    let ty = Resource::cty_type();
    let mut resource = sample();
    resource.disk = vec![Disk {
        size: 5,
        volume_id: Known::Null,
        snapshot: Vec::new(),
    }];
    let bytes = msgpack::encode_object(&resource).unwrap();
    // `size` of the first disk becomes a string.
    let at = bytes.windows(6).position(|w| w == b"\xa4size\x05").unwrap();
    let mut hostile = bytes.clone();
    hostile[at + 5] = 0xc3;
    let typed = msgpack::decode_object::<Resource>(&hostile).unwrap_err();
    assert_eq!(typed.path().to_string(), ".disk[0].size");
    assert_eq!(
        typed.to_string(),
        msgpack::decode(&hostile, &ty).unwrap_err().to_string()
    );
    // A number out of the field's range: the path and the width.
    hostile[at + 5] = 0xd0;
    hostile.insert(at + 6, 0xff);
    let err = msgpack::decode_object::<Resource>(&hostile).unwrap_err();
    assert_eq!(
        err.to_string(),
        ".disk[0].size: expected u64 (an integer from 0 to 18446744073709551615), found -1 at byte "
            .to_owned() + &(at + 5).to_string()
    );
}

fn sample() -> Resource {
    Resource {
        name: "web".into(),
        size: Some(3),
        offset: None,
        small: Some(-3),
        ratio: Some(0.5),
        exact: None,
        enabled: Some(true),
        id: Known::unknown(),
        port: Known::Known(80),
        addresses: Known::Known(vec![Known::Known("10.0.0.1".into())]),
        tags: Some(BTreeMap::from([("a".into(), "b".into())])),
        labels: BTreeSet::from(["x".into(), "y".into()]),
        ports: BTreeSet::from([443, 80]),
        switches: BTreeSet::new(),
        extra: Value::Null,
        extras: None,
        endpoint: None,
        endpoints: BTreeSet::new(),
        disk: Vec::new(),
        rule: BTreeSet::new(),
        settings: None,
        zone: BTreeMap::new(),
        group: Settings {
            mode: None,
            level: None,
        },
        step: Vec::new(),
        stage: Vec::new(),
    }
}

/// Hosts and ports whose hash strings are prefixes of one another (`"a"` of `"ab"`, `5`
/// of `55`), meet a byte below the quote (`"a b"`, `"a!"`) or need escaping, so that set
/// elements compared attribute by attribute (`cmp_set_hash`) meet every case.
fn clashing_endpoint() -> impl Strategy<Value = Endpoint> {
    let host = prop::sample::select(vec![
        "",
        "a",
        "ab",
        "a b",
        "a!",
        "a\"",
        "a\\",
        "e",
        "f",
        "é",
        "e\u{301}",
        "e\u{301}x",
    ]);
    let port = prop::sample::select(vec![None, Some(5), Some(55), Some(6), Some(50), Some(0)]);
    (host, port).prop_map(|(host, port)| Endpoint {
        host: host.to_owned(),
        port,
    })
}

// ---- JSON ----

/// `value` with its unknowns made null (JSON cannot hold unknowns).
fn known_value(value: &Value) -> Value {
    value.clone().transform(
        &Type::Dynamic,
        |_, v, _| {
            if v.is_unknown() {
                Value::Null
            } else {
                v
            }
        },
    )
}

fn known_of<T: Clone>(k: &Known<T>) -> Known<T> {
    match k {
        Known::Unknown(_) => Known::Null,
        k => k.clone(),
    }
}

/// `resource` with its unknowns made null, which JSON can write.
fn without_unknowns(resource: &Resource) -> Resource {
    let mut r = resource.clone();
    r.id = known_of(&r.id);
    r.port = known_of(&r.port);
    r.addresses = match &r.addresses {
        Known::Known(v) => Known::Known(v.iter().map(known_of).collect()),
        other => known_of(other),
    };
    r.extra = known_value(&r.extra);
    r.extras = r.extras.map(|m| {
        m.into_iter()
            .map(|(k, v)| (k, known_value(&v)))
            .collect::<HashMap<_, _>>()
    });
    r.disk = r
        .disk
        .into_iter()
        .map(|mut d| {
            d.volume_id = known_of(&d.volume_id);
            d
        })
        .collect();
    r.rule = r
        .rule
        .into_iter()
        .map(|mut rule| {
            rule.arn = known_of(&rule.arn);
            rule
        })
        .collect();
    r.stage = r
        .stage
        .into_iter()
        .map(|s| Stage {
            env: known_value(&s.env),
        })
        .collect();
    r
}

/// An error's kind, path, message and position, to compare two errors whole.
fn whole(e: &ctywire::Error) -> (ErrorKind, String, String) {
    (e.kind(), e.path().to_string(), e.to_string())
}

/// Bytes the JSON mutations put in: JSON's own punctuation, digits, letters of its
/// literals, and any byte.
fn json_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        prop::sample::select(b"{}[],:\" \n\\0123456789-.eEntrufals".to_vec()),
        any::<u8>(),
    ]
}

proptest! {
    #![proptest_config(crate::proptest_config(512))]

    /// Sets of objects whose attributes clash: written in go-cty's order, as the `Value`
    /// encoder writes them, whether or not Rust's order agrees.
    #[test]
    fn sets_of_clashing_objects_are_in_go_cty_order(
        endpoints in prop::collection::btree_set(clashing_endpoint(), 0..6),
        step in prop::collection::vec(clashing_endpoint(), 0..6),
    ) {
        let resource = Resource { endpoints, step, ..sample() };
        let ty = Resource::cty_type();
        let typed = msgpack::encode_object(&resource);
        match value_of(&resource, &ty).map(|v| msgpack::encode(&v, &ty)) {
            Some(Ok(bytes)) => prop_assert_eq!(typed.expect("the typed encoder writes it"), bytes),
            _ => prop_assert!(typed.is_err(), "the typed encoder wrote what the value codec refuses"),
        }
    }
}

/// `{"n": <marker> <bytes>}`: an integer in any of MessagePack's forms, minimal or not.
fn integer_payload(marker: u8, bytes: &[u8], keep: usize) -> Vec<u8> {
    let width = match marker {
        0xcc..=0xd3 => 1 << ((marker - 0xcc) % 4),
        _ => 0,
    };
    let mut payload = b"\x81\xa1n".to_vec();
    payload.push(marker);
    payload.extend_from_slice(&bytes[..width.min(keep)]);
    payload
}

/// For each width, a struct of one field `n` of that width and a check that the typed
/// decoder reads a payload into it as the serde bridge reads it: the same value or the
/// same error.
macro_rules! integer_widths {
    ($($width:ident: $name:ident),*) => {
        $(
            #[derive(ctywire::Object, Serialize, Deserialize, Debug, PartialEq)]
            struct $name {
                #[cty(required)]
                n: $width,
            }
        )*

        fn same_integer_in_every_width(payload: &[u8]) -> Result<(), TestCaseError> {
            $(
                let typed = msgpack::decode_object::<$name>(payload);
                let bridge = msgpack::decode_as::<$name>(payload, &$name::cty_type());
                match (typed, bridge) {
                    (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
                    (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
                    (a, b) => prop_assert!(false, "typed {:?}, bridge {:?}", a, b),
                }
            )*
            Ok(())
        }
    };
}

integer_widths!(i8: I8, u8: U8, i16: I16, u32: U32, i64: I64, u64: U64, i128: I128, u128: U128);

proptest! {
    /// Every integer form (fixints, 8 to 64 bits signed and unsigned, wider than the
    /// value needs, or cut short) reads into every width as the serde bridge reads it:
    /// the same value or the same error.
    #[test]
    fn integers_in_every_form_read_as_the_bridge_reads_them(
        marker in prop_oneof![0xccu8..=0xd3, 0x00u8..=0x7f, 0xe0u8..=0xff],
        bytes in prop::array::uniform8(prop_oneof![Just(0u8), Just(0x7f), Just(0x80), Just(0xff), any::<u8>()]),
        keep in prop_oneof![3 => Just(8usize), 1 => 0usize..8],
    ) {
        same_integer_in_every_width(&integer_payload(marker, &bytes, keep))?;
    }
}

proptest! {
    #![proptest_config(crate::proptest_config(512))]

    /// Encoding: the typed JSON encoder writes what `json::encode` writes, or both fail
    /// with the same error (an unknown, which JSON cannot hold, names its path).
    #[test]
    fn typed_json_encode_is_the_value_encoding(resource in resource()) {
        let ty = Resource::cty_type();
        for resource in [without_unknowns(&resource), resource] {
            let typed = json::encode_object(&resource);
            match value_of(&resource, &ty).map(|v| json::encode(&v, &ty)) {
                Some(Ok(text)) => prop_assert_eq!(typed.expect("the typed encoder writes it"), text),
                Some(Err(v)) => {
                    let t = typed.expect_err("the typed encoder wrote what the value codec refuses");
                    prop_assert_eq!(whole(&t), whole(&v));
                }
                None => prop_assert!(typed.is_err(), "the typed encoder wrote what the value codec refuses"),
            }
        }
    }

    /// Decoding: the typed JSON decoder reads what `json::decode` reads, converted, and
    /// writes it back as it was.
    #[test]
    fn typed_json_decode_is_the_value_decoding(resource in resource()) {
        let ty = Resource::cty_type();
        let Ok(text) = json::encode_object(&without_unknowns(&resource)) else { return Ok(()) };
        let typed: Resource = json::decode_object(&text).expect("the typed decoder reads it");
        let value = json::decode(&text, &ty).expect("the value decoder reads it");
        let converted: Resource = cty_serde::from_value(&value, &ty).expect("the value converts");
        prop_assert_eq!(&typed, &converted);
        let bridged: Resource = json::decode_as(&text, &ty).expect("the bridge reads it");
        prop_assert_eq!(&typed, &bridged);
        prop_assert_eq!(json::encode_object(&typed).unwrap(), text);
    }

    /// Any JSON the `Value` decoder refuses, the typed decoder refuses too, with the same
    /// error (kind, path, message, line and column), and neither panics: generated text
    /// with bytes changed, cut or inserted.
    #[test]
    fn hostile_json_is_refused_with_the_path(
        resource in resource(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), json_byte(), 0u8..3), 1..4),
    ) {
        let ty = Resource::cty_type();
        let Ok(mut text) = json::encode_object(&without_unknowns(&resource)) else { return Ok(()) };
        for (at, byte, how) in edits {
            if text.is_empty() {
                break;
            }
            let i = at.index(text.len());
            match how {
                0 => text[i] = byte,
                1 => text.truncate(i),
                _ => text.insert(i, byte),
            }
        }
        let typed = json::decode_object::<Resource>(&text);
        let value = json::decode(&text, &ty);
        match (&typed, &value) {
            (Err(t), Err(v)) => prop_assert_eq!(whole(t), whole(v)),
            (Ok(_), Err(v)) => prop_assert!(false, "typed decode accepted what decode refuses: {}", v),
            (Err(t), Ok(v)) => {
                // Only where the Rust type cannot hold the value.
                prop_assert!(
                    cty_serde::from_value::<Resource>(v, &ty).is_err(),
                    "typed decode refused what decode reads, converted: {}", t
                );
            }
            (Ok(t), Ok(v)) => {
                let converted: Resource = cty_serde::from_value(v, &ty).expect("converts");
                prop_assert_eq!(t, &converted);
            }
        }
    }
}

#[test]
fn json_deep_nesting_in_dynamic_is_the_value_decoders_limit_error() {
    let resource = Resource {
        id: Known::Null,
        extra: Value::from("x"),
        ..sample()
    };
    let text = String::from_utf8(json::encode_object(&resource).unwrap()).unwrap();
    let ty = Resource::cty_type();
    let old = r#""extra":{"value":"x","type":"string"}"#;
    assert!(text.contains(old), "{text}");
    for depth in [10, 200] {
        let type_json = format!(
            "{}\"string\"{}",
            "[\"list\",".repeat(depth),
            "]".repeat(depth)
        );
        let value = format!("{}\"x\"{}", "[".repeat(depth), "]".repeat(depth));
        let hostile = text.replace(
            old,
            &format!(r#""extra":{{"value":{value},"type":{type_json}}}"#),
        );
        let typed = json::decode_object::<Resource>(hostile.as_bytes());
        let value = json::decode(hostile.as_bytes(), &ty);
        match (typed, value) {
            (Ok(t), Ok(v)) => {
                assert_eq!(depth, 10);
                assert_eq!(t, cty_serde::from_value::<Resource>(&v, &ty).unwrap());
            }
            (Err(t), Err(v)) => {
                assert_eq!(depth, 200);
                assert_eq!(t.kind(), ErrorKind::LimitExceeded, "{t}");
                assert_eq!(whole(&t), whole(&v));
                assert!(t.path().to_string().starts_with(".extra"), "{t}");
            }
            (t, v) => panic!("the codecs disagree: {t:?} / {v:?}"),
        }
    }
    // Arrays past the limit where the type ends: the reader's own limit, the same error.
    let hostile = text.replace(old, &format!(r#""extra":{}"#, "[".repeat(100_000)));
    let typed = json::decode_object::<Resource>(hostile.as_bytes()).unwrap_err();
    let value = json::decode(hostile.as_bytes(), &ty).unwrap_err();
    assert_eq!(whole(&typed), whole(&value));
}

#[test]
fn json_truncation_gives_the_value_decoders_errors() {
    let ty = Resource::cty_type();
    let mut resource = sample();
    resource.id = Known::Known("i-1".into());
    resource.extra = Value::list([Value::from(1), Value::from(2)]);
    resource.disk = vec![Disk {
        size: 5,
        volume_id: Known::Null,
        snapshot: vec![Snapshot { label: None }],
    }];
    resource.rule = BTreeSet::from([Rule {
        protocol: "tcp".into(),
        from_port: Some(22),
        arn: Known::Null,
        cidrs: vec!["10.0.0.0/8".into()],
        names: BTreeSet::from(["ssh".into()]),
    }]);
    let text = json::encode_object(&resource).unwrap();
    assert_eq!(
        text,
        json::encode(&cty_serde::to_value(&resource, &ty).unwrap(), &ty).unwrap()
    );
    for n in 0..text.len() {
        let typed = json::decode_object::<Resource>(&text[..n]).unwrap_err();
        let value = json::decode(&text[..n], &ty).unwrap_err();
        assert_eq!(whole(&typed), whole(&value), "cut at {n}");
    }
    let back: Resource = json::decode_object(&text).unwrap();
    assert_eq!(json::encode_object(&back).unwrap(), text);
}

#[test]
fn json_errors_name_the_path_and_position() {
    let ty = Resource::cty_type();
    let mut resource = sample();
    resource.id = Known::Null;
    resource.disk = vec![Disk {
        size: 5,
        volume_id: Known::Null,
        snapshot: Vec::new(),
    }];
    let text = String::from_utf8(json::encode_object(&resource).unwrap()).unwrap();
    let pretty = text.replacen(r#""disk":["#, "\n  \"disk\": [\n    ", 1);
    let cases: [(&str, &str, &str); 5] = [
        // A bool where a number goes: the value decoder's error.
        (
            r#""size":5"#,
            r#""size":true"#,
            ".disk[0].size: expected number, found bool at line 3 column 13",
        ),
        // An attribute the type does not have.
        (
            r#""size":5"#,
            r#""size":5,"sise":6"#,
            ".disk[0].sise: unsupported attribute at line 3 column 15",
        ),
        // A string where a list goes.
        (
            r#""labels":["x","y"]"#,
            r#""labels":"x""#,
            ".labels: expected set, found string at line 3 column ",
        ),
        // A bad dynamic wrapper.
        (
            r#""extra":null"#,
            r#""extra":{"value":1}"#,
            ".extra: missing \"type\" in dynamic value at line 3 column ",
        ),
        // Mixed types in a LIST block holding `dynamic`.
        (
            r#""stage":{"value":[],"type":["list","dynamic"]}"#,
            r#""stage":{"value":[{"env":{"value":1,"type":"number"}},{"env":{"value":"a","type":"string"}}],"type":["list",["object",{"env":"dynamic"}]]}"#,
            ".stage",
        ),
    ];
    for (from, to, want) in cases {
        assert!(pretty.contains(from), "{from} in {pretty}");
        let hostile = pretty.replacen(from, to, 1);
        let typed = json::decode_object::<Resource>(hostile.as_bytes()).unwrap_err();
        let value = json::decode(hostile.as_bytes(), &ty).unwrap_err();
        assert!(typed.to_string().starts_with(want), "{typed}\nwant {want}");
        assert_eq!(whole(&typed), whole(&value));
    }
    // Text after the value.
    let hostile = format!("{pretty}\n x");
    let typed = json::decode_object::<Resource>(hostile.as_bytes()).unwrap_err();
    assert_eq!(
        typed.to_string(),
        "unexpected data after the JSON value: found `x` at line 4 column 2"
    );
    assert_eq!(
        whole(&typed),
        whole(&json::decode(hostile.as_bytes(), &ty).unwrap_err())
    );
}

#[test]
fn json_leniency_is_the_value_decoders() {
    #[derive(ctywire::Object, Serialize, Deserialize, Debug, PartialEq)]
    struct Port {
        #[cty(required)]
        number: u16,
        #[cty(optional)]
        name: Option<String>,
        #[cty(optional)]
        open: Option<bool>,
        #[cty(optional)]
        tags: BTreeMap<String, String>,
        #[cty(computed)]
        id: Known<String>,
    }
    let ty = Port::cty_type();
    let read = |text: &str| {
        let typed = json::decode_object::<Port>(text.as_bytes());
        let value =
            json::decode(text.as_bytes(), &ty).and_then(|v| cty_serde::from_value::<Port>(&v, &ty));
        match (&typed, &value) {
            (Ok(t), Ok(v)) => assert_eq!(t, v, "{text}"),
            (Err(_), Err(_)) => {}
            _ => panic!("{text}: {typed:?} / {value:?}"),
        }
        typed
    };
    // Numbers and bools as strings, strings as numbers and bools, whitespace, any order,
    // attributes left out (null), a repeated attribute and map key (the last one wins),
    // map keys put in NFC.
    let port = read(
        r#" { "open": "1", "number": "443", "name": 80, "tags": {"e\u0301": "x", "b": true, "b": false}, "number": 8080 } "#,
    )
    .unwrap();
    assert_eq!(
        port,
        Port {
            number: 8080,
            name: Some("80".into()),
            open: Some(true),
            tags: BTreeMap::from([("b".into(), "false".into()), ("é".into(), "x".into())]),
            id: Known::Null,
        }
    );
    assert_eq!(read(r#"{"number": 1e3, "tags": {}}"#).unwrap().number, 1000);
    // A repeated attribute or key replaces a value the Rust type cannot hold.
    let port = read(r#"{"number": null, "tags": {"a": null, "a": "x"}, "number": "2"}"#).unwrap();
    assert_eq!((port.number, &port.tags["a"][..]), (2, "x"));
    // And the last value is the one that counts.
    let err = read(r#"{"number": 1, "tags": {}, "number": -1}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        ".number: expected u16 (an integer from 0 to 65535), found -1 at line 1 column 37"
    );
    // A required attribute left out reads as null, which a u16 cannot hold.
    let err = read(r#"{"name": "x", "tags": {}}"#).unwrap_err();
    assert_eq!(err.path().to_string(), ".number");
    assert_eq!(err.kind(), ErrorKind::TypeMismatch);
    // So is a map field left out: it is null, not empty.
    assert_eq!(
        read(r#"{"number": 1}"#).unwrap_err().path().to_string(),
        ".tags"
    );
    for (text, want) in [
        (
            r#"{"number": 1.5, "tags": {}}"#,
            ".number: expected u16 (an integer from 0 to 65535), found 1.5 at line 1 column 12",
        ),
        (
            r#"{"number": "x", "tags": {}}"#,
            ".number: invalid number \"x\" at line 1 column 12",
        ),
        (
            r#"{"number": 1, "open": "yes", "tags": {}}"#,
            ".open: expected a bool or one of the strings \"true\", \"false\", \"1\", \"0\", found string \"yes\" at line 1 column 23",
        ),
        (
            r#"{"number": 1, "tags": {"a": null}}"#,
            ".tags[\"a\"]: expected string, found null (a value that may be null needs Option<T> or ctywire::Known<T>) at line 1 column 29",
        ),
    ] {
        let err = read(text).unwrap_err();
        assert_eq!(err.to_string(), want, "{text}");
    }
}

#[test]
fn json_encode_refuses_what_json_cannot_hold() {
    let ty = Resource::cty_type();
    let mut resource = sample();
    // `sample` plans `id`: unknown.
    let err = json::encode_object(&resource).unwrap_err();
    assert_eq!(err.to_string(), ".id: value is not known");
    assert_eq!(err.kind(), ErrorKind::Unencodable);
    resource.id = Known::Null;
    resource.ratio = Some(f64::INFINITY);
    let err = json::encode_object(&resource).unwrap_err();
    assert_eq!(err.to_string(), ".ratio: cannot serialize infinity as JSON");
    let value = cty_serde::to_value(&resource, &ty).unwrap();
    assert_eq!(whole(&err), whole(&json::encode(&value, &ty).unwrap_err()));
    resource.ratio = None;
    resource.rule = BTreeSet::from([Rule {
        protocol: "tcp".into(),
        from_port: None,
        arn: Known::unknown(),
        cidrs: Vec::new(),
        names: BTreeSet::new(),
    }]);
    let err = json::encode_object(&resource).unwrap_err();
    let value = cty_serde::to_value(&resource, &ty).unwrap();
    assert_eq!(whole(&err), whole(&json::encode(&value, &ty).unwrap_err()));
}

/// The merge the decode property allows: two rules with an unknown `arn` whose names are
/// equal once NFC are two elements to cty and one to a `BTreeSet` once read.
#[test]
fn rules_equal_once_read_merge_in_a_btree_set() {
    let rule = |name: &str| Rule {
        protocol: "udp".into(),
        from_port: None,
        arn: Known::unknown(),
        cidrs: vec![],
        names: BTreeSet::from([name.to_owned()]),
    };
    let resource = Resource {
        rule: BTreeSet::from([rule("é"), rule("e\u{301}")]),
        ..sample()
    };
    let ty = Resource::cty_type();
    let bytes = msgpack::encode_object(&resource).unwrap();
    assert_eq!(
        bytes,
        msgpack::encode(&value_of(&resource, &ty).unwrap(), &ty).unwrap()
    );
    let typed: Resource = msgpack::decode_object(&bytes).unwrap();
    assert_eq!(typed.rule.len(), 1);
}

/// Three attributes of three kinds, for the order in which the decoder meets them.
#[derive(ctywire::Object, Serialize, Deserialize, Debug, PartialEq)]
struct Three {
    #[cty(required)]
    a: u32,
    #[cty(required)]
    b: String,
    #[cty(optional)]
    c: Option<Vec<bool>>,
}

/// The attributes of [`Three`] in the order `order` (indexes into a, b, c; an index
/// given twice is a duplicate attribute), as a MessagePack map.
fn three_in_order(order: &[usize]) -> Vec<u8> {
    let entries: [&[u8]; 3] = [b"\xa1a\x07", b"\xa1b\xa2hi", b"\xa1c\x92\xc3\xc2"];
    let mut payload = vec![0x80 | order.len() as u8];
    for &i in order {
        payload.extend_from_slice(entries[i]);
    }
    payload
}

/// The typed decoder reads the attributes in go-cty's order one after the other and
/// any other order by name: every order of the attributes, and every order with one
/// attribute given twice or left out, reads as the `Value` decoder reads it.
#[test]
fn attributes_in_every_order_read_as_the_value_decoder_reads_them() {
    let ty = Three::cty_type();
    let want = Three {
        a: 7,
        b: "hi".into(),
        c: Some(vec![true, false]),
    };
    let mut orders = Vec::new();
    for x in 0..3 {
        for y in 0..3 {
            orders.push(vec![x, y]);
            for z in 0..3 {
                orders.push(vec![x, y, z]);
            }
        }
    }
    for order in orders {
        let payload = three_in_order(&order);
        let typed = msgpack::decode_object::<Three>(&payload);
        let value = msgpack::decode(&payload, &ty);
        match (typed, value) {
            (Ok(t), Ok(v)) => {
                assert_eq!(t, want, "{order:?}");
                assert_eq!(cty_serde::from_value::<Three>(&v, &ty).unwrap(), want);
            }
            (Err(t), Err(v)) => assert_eq!(whole(&t), whole(&v), "{order:?}"),
            (t, v) => panic!("{order:?}: typed {t:?}, value {v:?}"),
        }
    }
}

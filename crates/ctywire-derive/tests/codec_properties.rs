//! The typed codec of derived structs (`msgpack::encode_object` / `decode_object`) agrees
//! with the `Value` codec byte for byte: on generated structs of every shape (LIST, SET,
//! MAP, SINGLE and GROUP blocks, a nesting the field names, a LIST block holding
//! `dynamic`, sets of objects, `dynamic` fields, optional and computed attributes,
//! unknowns with refinements, protocol-6 nested attributes), the typed encoder writes
//! what `msgpack::encode` writes for the struct's `Value`, and the typed decoder reads
//! what `msgpack::decode` reads, converted (`decode_as`); and on hostile input both fail.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use ctywire::object::Object;
use ctywire::{msgpack, serde as cty_serde, ErrorKind, Known, Number, Refinements, Type, Value};
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
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

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
        prop_assert_eq!(msgpack::encode_object(&typed).unwrap(), bytes);
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

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

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
fn integer_payload(marker: u8, bytes: &[u8]) -> Vec<u8> {
    let width = match marker {
        0xcc..=0xd3 => 1 << ((marker - 0xcc) % 4),
        _ => 0,
    };
    let mut payload = b"\x81\xa1n".to_vec();
    payload.push(marker);
    payload.extend_from_slice(&bytes[..width]);
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
    /// value needs) reads into every width as the serde bridge reads it: the same value
    /// or the same range error.
    #[test]
    fn integers_in_every_form_read_as_the_bridge_reads_them(
        marker in prop_oneof![0xccu8..=0xd3, 0x00u8..=0x7f, 0xe0u8..=0xff],
        bytes in prop::array::uniform8(prop_oneof![Just(0u8), Just(0x7f), Just(0x80), Just(0xff), any::<u8>()]),
    ) {
        same_integer_in_every_width(&integer_payload(marker, &bytes))?;
    }
}

//! Generated, deterministic payloads for the benches, in one place.
//!
//! Each payload is built as a `ctywire::Value` with its `Type` and encoded with ctywire,
//! so the bytes are go-cty's format. A small LCG stands in for a random generator, so
//! every run (and every machine) sees the same bytes.

#![allow(dead_code)] // each bench binary uses a different part

use ctywire::{Type, Value};

/// A 64-bit linear congruential generator (Knuth's MMIX constants).
pub struct Lcg(u64);

impl Lcg {
    pub fn new(seed: u64) -> Lcg {
        Lcg(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 11
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }

    /// `len` lowercase hex digits.
    pub fn hex(&mut self, len: usize) -> String {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        (0..len)
            .map(|_| HEX[self.below(16) as usize] as char)
            .collect()
    }
}

/// Allocates and frees one buffer of just under 32 MiB, as a long-running process that
/// has handled a large message has done. glibc then raises its dynamic mmap threshold to
/// that size and its trim threshold to twice it, and stops returning the memory of a
/// freed tree to the kernel between iterations. (Only a freed mmapped block of at most
/// 32 MiB, glibc's maximum threshold on 64-bit, moves the thresholds: freeing a larger
/// one leaves them as they were.) Without this, whether glibc returns memory depends on
/// which large buffers the process happened to free earlier, and every decoder
/// (ctywire, rmpv, serde_json alike) pays page faults for its whole tree on some runs
/// and not on others: 9.7 against 15.6 ms for the same decode of the instances payload.
pub fn settle_allocator() {
    let buffer = std::hint::black_box(vec![1u8; (32 << 20) - (64 << 10)]);
    drop(buffer);
}

/// A payload: its name, type, value, and the value's msgpack and JSON encodings.
pub struct Payload {
    pub name: &'static str,
    pub ty: Type,
    /// The value as built by hand (objects from `Value::object`).
    pub value: Value,
    /// The value as decoded from `msgpack`: what a provider re-encodes after reading
    /// state, and what the encode benches encode.
    pub decoded: Value,
    pub msgpack: Vec<u8>,
    pub json: Vec<u8>,
}

impl Payload {
    fn new(name: &'static str, ty: Type, value: Value) -> Payload {
        let msgpack = ctywire::msgpack::encode(&value, &ty).expect("payload encodes as msgpack");
        let json = ctywire::json::encode(&value, &ty).expect("payload encodes as JSON");
        let decoded = ctywire::msgpack::decode(&msgpack, &ty).expect("payload decodes");
        assert_eq!(decoded, value, "{name}: the payload round-trips");
        Payload {
            name,
            ty,
            value,
            decoded,
            msgpack,
            json,
        }
    }
}

/// The element type of [`instances`]: an EC2-instance-like resource.
pub fn instance_type() -> Type {
    let disk = Type::object([
        ("device_name", Type::String),
        ("encrypted", Type::Bool),
        ("size", Type::Number),
        ("volume_type", Type::String),
    ]);
    Type::object([
        ("ami", Type::String),
        ("cpu_count", Type::Number),
        ("disks", Type::list(disk)),
        ("id", Type::String),
        ("instance_type", Type::String),
        ("monitoring", Type::Bool),
        ("private_ip", Type::String),
        ("security_groups", Type::set(Type::String)),
        ("spot_price", Type::Number),
        ("tags", Type::map(Type::String)),
        ("user_data", Type::String),
    ])
}

const INSTANCE_TYPES: &[&str] = &[
    "t3.micro",
    "t3.large",
    "m5.large",
    "m5.xlarge",
    "c6i.2xlarge",
];
const ENVIRONMENTS: &[&str] = &["production", "staging", "development"];
const TEAMS: &[&str] = &["platform", "payments", "search", "data", "ïdentité"];
const VOLUME_TYPES: &[&str] = &["gp3", "io2", "st1"];

fn instance(rng: &mut Lcg, i: usize) -> Value {
    let id = format!("i-{}", rng.hex(17));
    let disks = (0..1 + rng.below(2))
        .map(|d| {
            Value::object([
                (
                    "device_name",
                    Value::from(format!("/dev/sd{}", (b'a' + d as u8) as char)),
                ),
                ("encrypted", Value::from(rng.below(2) == 0)),
                ("size", Value::from(8 * (1 + rng.below(64)))),
                ("volume_type", Value::from(rng.pick(VOLUME_TYPES))),
            ])
        })
        .collect::<Vec<_>>();
    let groups = (0..1 + rng.below(3))
        .map(|_| Value::from(format!("sg-{}", rng.hex(8))))
        .collect::<Vec<_>>();
    let mut tags = vec![
        ("Name", Value::from(format!("web-{i:05}"))),
        ("Environment", Value::from(rng.pick(ENVIRONMENTS))),
    ];
    if rng.below(2) == 0 {
        tags.push(("Team", Value::from(rng.pick(TEAMS))));
    }
    let user_data = if rng.below(4) == 0 {
        Value::from("#!/bin/sh\necho \"hi\"\n")
    } else {
        Value::Null
    };
    Value::object([
        ("ami", Value::from(format!("ami-{}", rng.hex(8)))),
        ("cpu_count", Value::from(1u64 << rng.below(6))),
        ("disks", Value::list(disks)),
        ("id", Value::from(id)),
        ("instance_type", Value::from(rng.pick(INSTANCE_TYPES))),
        ("monitoring", Value::from(rng.below(2) == 0)),
        (
            "private_ip",
            Value::from(format!(
                "10.{}.{}.{}",
                rng.below(256),
                rng.below(256),
                rng.below(256)
            )),
        ),
        ("security_groups", Value::set(groups)),
        (
            "spot_price",
            Value::try_from(rng.below(100_000) as f64 / 10_000.0).expect("not NaN"),
        ),
        ("tags", Value::map(tags)),
        ("user_data", user_data),
    ])
}

/// A list of `n` instance-like objects: strings, numbers (integers and float64s), bools,
/// a map of tags, a set of strings, a nested list of objects, a null.
pub fn instances(n: usize) -> Payload {
    let mut rng = Lcg::new(1);
    let value = Value::list((0..n).map(|i| instance(&mut rng, i)));
    Payload::new("list of instances", Type::list(instance_type()), value)
}

/// A set of `n` distinct strings.
pub fn string_set(n: usize) -> Payload {
    let mut rng = Lcg::new(2);
    let value = Value::set((0..n).map(|i| Value::from(format!("subnet-{}-{i}", rng.hex(12)))));
    Payload::new("set of strings", Type::set(Type::String), value)
}

/// The element type of [`object_set`]: a security-group-rule-like object.
pub fn rule_type() -> Type {
    Type::object([
        ("cidr_blocks", Type::list(Type::String)),
        ("description", Type::String),
        ("from_port", Type::Number),
        ("protocol", Type::String),
        ("to_port", Type::Number),
    ])
}

/// A set of `n` distinct objects (ordered by go-cty's hash strings).
pub fn object_set(n: usize) -> Payload {
    let mut rng = Lcg::new(3);
    let value = Value::set((0..n).map(|i| {
        let port = 1024 + rng.below(60_000);
        Value::object([
            (
                "cidr_blocks",
                Value::list((0..1 + rng.below(2)).map(|_| {
                    Value::from(format!("10.{}.{}.0/24", rng.below(256), rng.below(256)))
                })),
            ),
            ("description", Value::from(format!("rule {i}"))),
            ("from_port", Value::from(port)),
            (
                "protocol",
                Value::from(["tcp", "udp"][rng.below(2) as usize]),
            ),
            ("to_port", Value::from(port + rng.below(10))),
        ])
    }));
    Payload::new("set of objects", Type::set(rule_type()), value)
}

/// A deeply dynamic value: `n` objects whose attributes are `dynamic` at two levels, so
/// every one of them is a `[type JSON, value]` wrapper on the wire, holding nested
/// objects, maps, lists and sets.
pub fn dynamic(n: usize) -> Payload {
    let child = Type::object([("key", Type::String), ("value", Type::Dynamic)]);
    let ty = Type::list(Type::object([
        ("attrs", Type::Dynamic),
        ("children", Type::list(child)),
        ("id", Type::String),
    ]));
    let mut rng = Lcg::new(4);
    let attrs_ty = Type::object([
        ("labels", Type::map(Type::String)),
        ("name", Type::String),
        (
            "network",
            Type::object([
                ("ports", Type::list(Type::Number)),
                ("zones", Type::set(Type::String)),
            ]),
        ),
        ("size", Type::Number),
    ]);
    let value = Value::list((0..n).map(|i| {
        let attrs = Value::object([
            (
                "labels",
                Value::map([
                    ("app", Value::from(format!("app-{}", i % 17))),
                    ("tier", Value::from(["web", "db"][rng.below(2) as usize])),
                ]),
            ),
            ("name", Value::from(format!("node-{i}"))),
            (
                "network",
                Value::object([
                    (
                        "ports",
                        Value::list((0..1 + rng.below(3)).map(|p| Value::from(8000 + p))),
                    ),
                    ("zones", Value::set(["a", "b", "c"].map(Value::from))),
                ]),
            ),
            ("size", Value::from(rng.below(1000))),
        ]);
        let children = (0..3).map(|c| {
            Value::object([
                ("key", Value::from(format!("k{c}"))),
                ("value", Value::typed(Type::String, Value::from(rng.hex(6)))),
            ])
        });
        Value::object([
            ("attrs", Value::typed(attrs_ty.clone(), attrs)),
            ("children", Value::list(children)),
            ("id", Value::from(format!("{i:08x}"))),
        ])
    }));
    Payload::new("deeply dynamic", ty, value)
}

/// The element type of [`resources`]: a realistic resource, with a `dynamic` attribute,
/// a set of objects and a map (and strings, numbers, a bool, a set of strings).
pub fn resource_type() -> Type {
    let rule = Type::object([
        ("cidr_block", Type::String),
        ("description", Type::String),
        ("from_port", Type::Number),
        ("protocol", Type::String),
        ("to_port", Type::Number),
    ]);
    Type::object([
        ("arn", Type::String),
        ("cpu_count", Type::Number),
        ("enabled", Type::Bool),
        ("id", Type::String),
        ("ingress", Type::set(rule)),
        ("name", Type::String),
        ("security_groups", Type::set(Type::String)),
        ("settings", Type::Dynamic),
        ("tags", Type::map(Type::String)),
        ("zone", Type::String),
    ])
}

/// The type of [`resources`]' `dynamic` attribute's values (one type: a list holds
/// one).
pub fn resource_settings_type() -> Type {
    Type::object([
        ("image", Type::String),
        ("ports", Type::list(Type::Number)),
        ("replicas", Type::Number),
    ])
}

const ZONES: &[&str] = &["us-east-1a", "us-east-1b", "eu-west-1c"];

fn resource(rng: &mut Lcg, i: usize) -> Value {
    let id = format!("i-{}", rng.hex(17));
    let rules = (0..1 + rng.below(4))
        .map(|r| {
            let port = 1024 + rng.below(60_000);
            Value::object([
                (
                    "cidr_block",
                    Value::from(format!("10.{}.{}.0/24", rng.below(256), rng.below(256))),
                ),
                ("description", Value::from(format!("rule {r} of {i}"))),
                ("from_port", Value::from(port)),
                (
                    "protocol",
                    Value::from(["tcp", "udp"][rng.below(2) as usize]),
                ),
                ("to_port", Value::from(port + rng.below(10))),
            ])
        })
        .collect::<Vec<_>>();
    let groups = (0..1 + rng.below(3))
        .map(|_| Value::from(format!("sg-{}", rng.hex(8))))
        .collect::<Vec<_>>();
    let mut tags = vec![
        ("Name", Value::from(format!("web-{i:05}"))),
        ("Environment", Value::from(rng.pick(ENVIRONMENTS))),
    ];
    if rng.below(2) == 0 {
        tags.push(("Team", Value::from(rng.pick(TEAMS))));
    }
    let settings = Value::typed(
        resource_settings_type(),
        Value::object([
            (
                "image",
                Value::from(format!("registry.example.com/app:{}", rng.hex(7))),
            ),
            (
                "ports",
                Value::list((0..1 + rng.below(3)).map(|_| Value::from(rng.below(65_536)))),
            ),
            ("replicas", Value::from(1 + rng.below(8))),
        ]),
    );
    Value::object([
        (
            "arn",
            Value::from(format!("arn:aws:ec2:us-east-1:123456789012:instance/{id}")),
        ),
        ("cpu_count", Value::from(1u64 << rng.below(6))),
        ("enabled", Value::from(rng.below(2) == 0)),
        ("id", Value::from(id)),
        ("ingress", Value::set(rules)),
        ("name", Value::from(format!("web-{i:05}"))),
        ("security_groups", Value::set(groups)),
        ("settings", settings),
        ("tags", Value::map(tags)),
        ("zone", Value::from(rng.pick(ZONES))),
    ])
}

/// A list of `n` realistic resources ([`resource_type`]): each with a `dynamic`
/// attribute (an object in its wrapper), a set of 1-4 objects, a map of tags and a set
/// of strings. 5,300 of them are 3.3 MB of MessagePack.
pub fn resources(n: usize) -> Payload {
    let mut rng = Lcg::new(4);
    let value = Value::list((0..n).map(|i| resource(&mut rng, i)));
    Payload::new("realistic resources", Type::list(resource_type()), value)
}

/// Label names in the scripts providers meet (Latin with diacritics, Greek, Cyrillic,
/// Hebrew, Arabic, Devanagari, kana, Hangul, CJK), all NFC.
const LABEL_KEYS: &[&str] = &[
    "équipe",
    "größe",
    "propriétaire",
    "Ελληνικά",
    "владелец",
    "проект",
    "מחלקה",
    "المشروع",
    "परियोजना",
    "プロジェクト",
    "担当者",
    "서울팀",
    "环境",
    "成本中心",
];

/// Region names as map keys, NFC.
const REGION_KEYS: &[&str] = &[
    "Zürich",
    "São Paulo",
    "Αθήνα",
    "Москва",
    "תל אביב",
    "القاهرة",
    "मुंबई",
    "東京",
    "大阪",
    "서울",
    "北京",
    "Kraków",
];

const LABEL_VALUES: &[&str] = &["web", "données", "платёжи", "検索", "데이터", "ops"];

/// The element type of [`records`]: a DNS-record-set-like resource whose maps have
/// non-ASCII keys.
pub fn record_type() -> Type {
    Type::object([
        ("labels", Type::map(Type::String)),
        ("name", Type::String),
        ("records", Type::set(Type::String)),
        (
            "routing",
            Type::map(Type::object([
                ("region", Type::String),
                ("weight", Type::Number),
            ])),
        ),
        ("ttl", Type::Number),
    ])
}

fn record(rng: &mut Lcg, i: usize) -> Value {
    let mut labels = std::collections::BTreeMap::new();
    for _ in 0..2 + rng.below(3) {
        labels.insert(rng.pick(LABEL_KEYS), Value::from(rng.pick(LABEL_VALUES)));
    }
    let mut routing = std::collections::BTreeMap::new();
    for _ in 0..1 + rng.below(3) {
        routing.insert(
            rng.pick(REGION_KEYS),
            Value::object([
                ("region", Value::from(format!("r-{}", rng.hex(4)))),
                ("weight", Value::from(rng.below(100))),
            ]),
        );
    }
    let records = (0..1 + rng.below(4))
        .map(|_| {
            Value::from(format!(
                "10.{}.{}.{}",
                rng.below(256),
                rng.below(256),
                rng.below(256)
            ))
        })
        .collect::<Vec<_>>();
    Value::object([
        ("labels", Value::map(labels)),
        ("name", Value::from(format!("svc-{i:05}.example.com"))),
        ("records", Value::set(records)),
        ("routing", Value::map(routing)),
        ("ttl", Value::from([60, 300, 3600][rng.below(3) as usize])),
    ])
}

/// A list of `n` DNS-record-set-like resources ([`record_type`]): a map of 2-4 labels
/// and a map of 1-3 routing objects, all keyed by non-ASCII text (NFC), and a set of
/// 1-4 address strings. 12,000 of them are about 2.6 MB of MessagePack.
pub fn records(n: usize) -> Payload {
    let mut rng = Lcg::new(5);
    let value = Value::list((0..n).map(|i| record(&mut rng, i)));
    Payload::new("records, non-ASCII keys", Type::list(record_type()), value)
}

/// The payloads of the main table, at their documented sizes.
pub fn all() -> Vec<Payload> {
    vec![
        instances(10_000),
        string_set(20_000),
        object_set(10_000),
        dynamic(5_000),
    ]
}

//! `#[derive(ctywire::Object)]`: the schema blocks and types it gives, and values of the
//! derived structs through the codecs.

use std::collections::{BTreeMap, BTreeSet};

use ctywire::object::Object;
use ctywire::schema::{
    Attribute, AttributeNesting, Block, BlockNesting, DescriptionKind, NestedBlock, NestedType,
};
use ctywire::{json, msgpack, Known, Number, Type, Value};
use serde::{Deserialize, Serialize};

/// A thing, kept in Terraform's state only.
#[derive(ctywire::Object, Serialize, Deserialize, Debug, PartialEq)]
struct Thing {
    /// The thing's name; changing it replaces the thing.
    #[cty(required)]
    name: String,
    #[cty(optional)]
    size: Option<Number>,
    #[cty(optional)]
    tags: Option<BTreeMap<String, String>>,
    /// `thing-` and the name.
    #[cty(computed)]
    id: Known<String>,
    #[cty(optional, sensitive)]
    secret: Option<String>,
    #[cty(optional)]
    extra: Value,
    #[cty(optional)]
    labels: Option<BTreeSet<String>>,
    #[cty(nested, optional)]
    endpoint: Option<Endpoint>,
    #[cty(block)]
    disk: Vec<Disk>,
    #[cty(block)]
    network: BTreeSet<Network>,
    #[cty(block)]
    settings: Option<Settings>,
    #[cty(block)]
    rule: BTreeMap<String, Rule>,
    #[cty(block)]
    group: Group,
}

// The nested structs have no doc comments: the hand-written blocks have no descriptions.
#[derive(ctywire::Object, Serialize, Deserialize, Debug, PartialEq)]
struct Endpoint {
    #[cty(required)]
    host: String,
    #[cty(optional)]
    port: Option<u16>,
}

#[derive(ctywire::Object, Serialize, Deserialize, Debug, PartialEq)]
struct Disk {
    #[cty(required)]
    size: u64,
    /// The disk's kind; `standard` when not set.
    #[cty(optional, computed, markdown)]
    kind: Known<String>,
}

#[derive(ctywire::Object, Serialize, Deserialize, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Network {
    #[cty(required)]
    name: String,
}

#[derive(ctywire::Object, Serialize, Deserialize, Debug, PartialEq)]
struct Settings {
    #[cty(optional)]
    mode: Option<String>,
}

#[derive(ctywire::Object, Serialize, Deserialize, Debug, PartialEq)]
struct Rule {
    #[cty(optional)]
    action: Option<String>,
}

#[derive(ctywire::Object, Serialize, Deserialize, Debug, PartialEq)]
struct Group {
    #[cty(optional)]
    note: Option<String>,
}

/// `Thing`'s block written by hand with ctywire's model (as the example provider's
/// `demo_thing` was before it was declared with the derive).
fn hand_written_thing() -> Block {
    let endpoint = NestedType::new(
        AttributeNesting::Single,
        [
            ("host", Attribute::new(Type::String).required()),
            ("port", Attribute::new(Type::Number).optional()),
        ],
    );
    let mut kind = Attribute::new(Type::String)
        .optional()
        .computed()
        .description("The disk's kind; `standard` when not set.");
    kind.description_kind = DescriptionKind::Markdown;
    let disk = Block::new()
        .attribute("size", Attribute::new(Type::Number).required())
        .attribute("kind", kind);
    let optional_string =
        |name| Block::new().attribute(name, Attribute::new(Type::String).optional());
    Block::new()
        .description("A thing, kept in Terraform's state only.")
        .attribute(
            "name",
            Attribute::new(Type::String)
                .required()
                .description("The thing's name; changing it replaces the thing."),
        )
        .attribute("size", Attribute::new(Type::Number).optional())
        .attribute("tags", Attribute::new(Type::map(Type::String)).optional())
        .attribute(
            "id",
            Attribute::new(Type::String)
                .computed()
                .description("`thing-` and the name."),
        )
        .attribute(
            "secret",
            Attribute::new(Type::String).optional().sensitive(),
        )
        .attribute("extra", Attribute::new(Type::Dynamic).optional())
        .attribute("labels", Attribute::new(Type::set(Type::String)).optional())
        .attribute("endpoint", Attribute::nested(endpoint).optional())
        .block_type("disk", NestedBlock::new(BlockNesting::List, disk))
        .block_type(
            "network",
            NestedBlock::new(
                BlockNesting::Set,
                Block::new().attribute("name", Attribute::new(Type::String).required()),
            ),
        )
        .block_type(
            "settings",
            NestedBlock::new(BlockNesting::Single, optional_string("mode")),
        )
        .block_type(
            "rule",
            NestedBlock::new(BlockNesting::Map, optional_string("action")),
        )
        .block_type(
            "group",
            NestedBlock::new(BlockNesting::Group, optional_string("note")),
        )
}

#[test]
fn the_derived_thing_is_the_hand_written_one() {
    let hand_written = hand_written_thing();
    assert_eq!(Thing::schema_block(), hand_written);
    assert_eq!(Thing::cty_type(), hand_written.implied_type());
}

fn thing() -> Thing {
    Thing {
        name: "web".into(),
        size: Some(Number::from(3)),
        tags: Some(BTreeMap::from([("env".into(), "prod".into())])),
        id: Known::unknown(),
        secret: None,
        extra: Value::object([("a", Value::from(true))]),
        labels: Some(BTreeSet::from(["x".into(), "a".into()])),
        endpoint: Some(Endpoint {
            host: "h".into(),
            port: None,
        }),
        disk: vec![
            Disk {
                size: 10,
                kind: Known::from("ssd".to_string()),
            },
            Disk {
                size: 20,
                kind: Known::unknown(),
            },
        ],
        network: BTreeSet::from([Network { name: "b".into() }, Network { name: "a".into() }]),
        settings: None,
        rule: BTreeMap::from([(
            "in".into(),
            Rule {
                action: Some("allow".into()),
            },
        )]),
        group: Group { note: None },
    }
}

#[test]
fn derived_structs_cross_both_codecs_as_their_values_do() {
    let thing = thing();
    let ty = Thing::cty_type();

    let bytes = msgpack::encode_object(&thing).unwrap();
    assert_eq!(bytes, msgpack::encode_from(&thing, &ty).unwrap());
    let value = msgpack::decode(&bytes, &ty).unwrap();
    assert_eq!(msgpack::encode(&value, &ty).unwrap(), bytes);
    let mut back = msgpack::decode_object::<Thing>(&bytes).unwrap();
    assert_eq!(msgpack::encode_object(&back).unwrap(), bytes);
    // A `dynamic` value comes back with the type it came with.
    assert_eq!(back.extra.untyped(), &thing.extra);
    back.extra = thing.extra.clone();
    assert_eq!(back, thing);

    // JSON has no unknowns: the planned `id` and the disk's `kind` are known there.
    let mut known = thing;
    known.id = Known::from("thing-web".to_string());
    known.disk[1].kind = Known::Null;
    let text = json::encode_object(&known).unwrap();
    assert_eq!(
        text,
        json::encode(&json::decode(&text, &ty).unwrap(), &ty).unwrap()
    );
    let mut back = json::decode_object::<Thing>(&text).unwrap();
    assert_eq!(json::encode_object(&back).unwrap(), text);
    assert_eq!(back.extra.untyped(), &known.extra);
    back.extra = known.extra.clone();
    assert_eq!(back, known);
}

#[test]
fn a_payload_that_does_not_match_names_the_path() {
    let ty = Thing::cty_type();
    let value = msgpack::decode(&msgpack::encode_object(&thing()).unwrap(), &ty).unwrap();
    let Value::Object(o) = value else {
        panic!("an object")
    };
    let disk = Value::list([Value::object([
        ("size", Value::from(-1)),
        ("kind", Value::Null),
    ])]);
    let value = Value::object(o.iter().map(|(k, v)| {
        let v = if k == "disk" { disk.clone() } else { v.clone() };
        (k.to_string(), v)
    }));
    let bytes = msgpack::encode(&value, &ty).unwrap();
    let err = msgpack::decode_object::<Thing>(&bytes).unwrap_err();
    assert!(err.to_string().starts_with(".disk[0].size: "), "{err}");
}

// Nesting and items from the field, renames, deprecation, flags.
#[derive(ctywire::Object, Serialize)]
#[cty(deprecated = "Use another.")]
#[allow(dead_code)]
struct Options {
    #[cty(required, rename = "type")]
    kind: String,
    #[cty(optional, write_only, deprecated = "Not used.")]
    #[serde(rename = "pass")]
    password: Option<String>,
    #[cty(computed)]
    r#ref: Known<String>,
    /// Steps, in order.
    #[cty(block(set, min_items = 1, max_items = 3))]
    steps: Vec<Step>,
    #[cty(block(single))]
    one: Step,
    #[cty(nested(map), optional, computed)]
    ports: BTreeMap<String, Step>,
    #[cty(optional)]
    inline: Option<Step>,
    #[cty(optional)]
    grid: Vec<Vec<i32>>,
}

#[derive(ctywire::Object, Serialize)]
#[allow(dead_code)]
struct Step {
    #[cty(optional)]
    env: Value,
}

#[test]
fn options_shape_the_block() {
    let block = Options::schema_block();
    assert!(block.deprecated);
    assert_eq!(block.deprecation_message, "Use another.");
    let step = Block::new().attribute("env", Attribute::new(Type::Dynamic).optional());
    let mut steps_block = step.clone();
    steps_block.description = "Steps, in order.".into();
    let want = Block::new()
        .attribute("type", Attribute::new(Type::String).required())
        .attribute("pass", {
            let mut a = Attribute::new(Type::String).optional().write_only();
            a.deprecated = true;
            a.deprecation_message = "Not used.".into();
            a
        })
        .attribute("ref", Attribute::new(Type::String).computed())
        .attribute(
            "ports",
            Attribute::nested(NestedType::new(
                AttributeNesting::Map,
                step.attributes.clone(),
            ))
            .optional()
            .computed(),
        )
        .attribute(
            "inline",
            Attribute::new(Type::object([("env", Type::Dynamic)])).optional(),
        )
        .attribute(
            "grid",
            Attribute::new(Type::list(Type::list(Type::Number))).optional(),
        )
        .block_type(
            "steps",
            NestedBlock::new(BlockNesting::Set, steps_block)
                .min_items(1)
                .max_items(3),
        )
        .block_type("one", NestedBlock::new(BlockNesting::Single, step));
    let mut want = want;
    want.deprecated = true;
    want.deprecation_message = "Use another.".into();
    assert_eq!(block, want);
    assert_eq!(Options::cty_type(), want.implied_type());
}

#[test]
fn a_list_block_holding_dynamic_is_dynamic() {
    #[derive(ctywire::Object)]
    #[allow(dead_code)]
    struct Pipeline {
        #[cty(block)]
        step: Vec<Step>,
    }
    assert_eq!(
        Pipeline::cty_type(),
        Type::object([("step", Type::Dynamic)])
    );
}

#[derive(ctywire::Object, Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Firewall {
    #[cty(block)]
    rule: ctywire::SetOf<FirewallRule>,
    #[cty(optional)]
    ports: Option<ctywire::SetOf<u16>>,
}

#[derive(ctywire::Object, Serialize, Deserialize, Debug, PartialEq, Clone)]
struct FirewallRule {
    #[cty(required)]
    cidr: String,
    #[cty(computed)]
    id: Known<String>,
}

/// `SetOf` through the typed codec: written in go-cty's order as the value encoder
/// writes the set, and read into that order (without cty's duplicates) from a payload
/// in any order, as the value decoder reads it.
#[test]
fn set_of_through_the_typed_codec_keeps_go_cty_order() {
    let ty = Firewall::cty_type();
    let rule = |cidr: &str, id: Known<String>| FirewallRule {
        cidr: cidr.to_owned(),
        id,
    };
    let firewall = Firewall {
        rule: ctywire::SetOf::new([
            rule("10.0.0.0/8", Known::unknown()),
            rule("0.0.0.0/0", Known::from("r-1".to_owned())),
            rule("10.0.0.0/8", Known::unknown()),
        ])
        .unwrap(),
        ports: Some(ctywire::SetOf::new([8080u16, 22, 443]).unwrap()),
    };
    assert_eq!(firewall.rule.len(), 3);
    let bytes = msgpack::encode_object(&firewall).unwrap();
    let value = msgpack::decode(&bytes, &ty).unwrap();
    assert_eq!(bytes, msgpack::encode(&value, &ty).unwrap());
    assert_eq!(
        msgpack::decode_object::<Firewall>(&bytes).unwrap(),
        firewall
    );

    // A payload whose sets are out of go-cty's order, with a duplicate port.
    let shuffled = Value::object([
        (
            "rule",
            Value::list([
                Value::object([
                    ("cidr", Value::from("0.0.0.0/0")),
                    ("id", Value::from("r-1")),
                ]),
                Value::object([
                    ("cidr", Value::from("10.0.0.0/8")),
                    ("id", Value::from("r-2")),
                ]),
            ]),
        ),
        (
            "ports",
            Value::list([443u16, 22, 443].map(|p| Value::from(Number::from(p)))),
        ),
    ]);
    let list_ty = Type::object([
        ("rule", Type::list(FirewallRule::cty_type())),
        ("ports", Type::list(Type::Number)),
    ]);
    let bytes = msgpack::encode(&shuffled, &list_ty).unwrap();
    let read = msgpack::decode_object::<Firewall>(&bytes).unwrap();
    let expected = msgpack::decode(&bytes, &ty).unwrap();
    assert_eq!(
        msgpack::encode_object(&read).unwrap(),
        msgpack::encode(&expected, &ty).unwrap()
    );
    assert_eq!(read.ports.unwrap().as_slice(), [22, 443]);
}

/// A block with nothing to configure (a provider that takes no configuration).
#[derive(ctywire::Object, Debug, PartialEq)]
struct NothingToConfigure {}

#[test]
fn a_struct_without_fields_is_an_empty_block() {
    let block = NothingToConfigure::schema_block();
    assert_eq!(
        block,
        Block::new().description(
            "A block with nothing to configure (a provider that takes no configuration)."
        )
    );
    assert_eq!(
        NothingToConfigure::cty_type(),
        Type::object(Vec::<(&str, Type)>::new())
    );
    let bytes = msgpack::encode_object(&NothingToConfigure {}).unwrap();
    assert_eq!(bytes, [0x80]);
    assert_eq!(
        msgpack::decode_object::<NothingToConfigure>(&bytes).unwrap(),
        NothingToConfigure {}
    );
    // An attribute the type does not have is the value decoder's error.
    let err = msgpack::decode_object::<NothingToConfigure>(b"\x81\xa1a\xc0").unwrap_err();
    assert_eq!(
        err.to_string(),
        msgpack::decode(b"\x81\xa1a\xc0", &NothingToConfigure::cty_type())
            .unwrap_err()
            .to_string()
    );
}

//! Fields whose wire form is not their Rust type's own (a SET block or nested attribute
//! held in a `Vec`, a LIST one in a `BTreeSet`), and nested LIST, SET and MAP attributes
//! that may be null or unknown: the typed codecs write and read what the `Value` codecs
//! do, byte for byte.

use std::collections::{BTreeMap, BTreeSet};

use ctywire::object::{self, Object};
use ctywire::{msgpack, serde as cty_serde, Known, Number, Refinements, SetOf};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(ctywire::Object, Serialize, Deserialize, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Rule {
    #[cty(required)]
    port: u16,
    #[cty(computed)]
    id: Known<String>,
}

#[derive(ctywire::Object, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Firewall {
    #[cty(block(set))]
    rule: Vec<Rule>,
}

fn fw_unknown() -> Known<String> {
    Known::Unknown(Refinements::new().not_null().with_string_prefix("fw-"))
}

/// A SET block in a `Vec` whose elements' `id` is unknown in every element: the
/// refinements are written, as the `Value` encoder writes them.
#[test]
fn set_block_in_a_vec_keeps_refinements_when_every_element_is_unknown() {
    let fw = Firewall {
        rule: vec![
            Rule {
                port: 22,
                id: fw_unknown(),
            },
            Rule {
                port: 80,
                id: fw_unknown(),
            },
        ],
    };
    let ty = Firewall::cty_type();
    let value = cty_serde::to_value(&fw, &ty).unwrap();
    let want = msgpack::encode(&value, &ty).unwrap();
    assert_eq!(msgpack::encode_object(&fw).unwrap(), want);
}

/// The same field reads a set of two elements holding unknowns, as `SetOf` does.
#[test]
fn set_block_in_a_vec_reads_elements_holding_unknowns() {
    let fw = Firewall {
        rule: vec![
            Rule {
                port: 22,
                id: fw_unknown(),
            },
            Rule {
                port: 80,
                id: Known::Known("fw-1".into()),
            },
        ],
    };
    let bytes = msgpack::encode_object(&fw).unwrap();
    let back: Firewall = msgpack::decode_object(&bytes).unwrap();
    // In go-cty's set order: `<"fw-1";80;>` before `<?;22;>`.
    let mut ordered = fw.rule.clone();
    ordered.reverse();
    assert_eq!(back.rule, ordered);
    assert_eq!(msgpack::encode_object(&back).unwrap(), bytes);
    // As a `SetOf` field reads the same bytes.
    let set_of: FirewallSetOf = msgpack::decode_object(&bytes).unwrap();
    assert_eq!(set_of.rule.iter().cloned().collect::<Vec<_>>(), back.rule);
}

#[derive(ctywire::Object, Debug)]
struct FirewallSetOf {
    #[cty(block)]
    rule: SetOf<Rule>,
}

#[derive(ctywire::Object, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Records {
    #[cty(nested(map), optional)]
    by_name: Option<BTreeMap<String, Rule>>,
    #[cty(nested(list), optional, computed)]
    planned: Known<Vec<Rule>>,
}

/// Optional nested MAP and LIST attributes may be null (and unknown).
#[test]
fn optional_nested_collections_may_be_null() {
    let ty = Records::cty_type();
    for r in [
        Records {
            by_name: None,
            planned: Known::Null,
        },
        Records {
            by_name: Some(BTreeMap::new()),
            planned: Known::unknown(),
        },
    ] {
        let bytes = msgpack::encode_object(&r).unwrap();
        let value = cty_serde::to_value(&r, &ty).unwrap();
        assert_eq!(bytes, msgpack::encode(&value, &ty).unwrap());
        assert_eq!(msgpack::decode_object::<Records>(&bytes).unwrap(), r);
        // And as JSON, where it holds no unknown.
        if !r.planned.is_unknown() {
            let text = ctywire::json::encode_object(&r).unwrap();
            assert_eq!(text, ctywire::json::encode(&value, &ty).unwrap());
            assert_eq!(ctywire::json::decode_object::<Records>(&text).unwrap(), r);
        }
    }
}

// ---- Properties: every field position, every set form, every optional nested form. ----

/// An element of the blocks and nested attributes below: a refined unknown may be in
/// any of its computed attributes.
#[derive(ctywire::Object, Serialize, Deserialize, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Item {
    #[cty(required)]
    k: String,
    #[cty(computed)]
    id: Known<String>,
    #[cty(computed)]
    n: Known<u16>,
    #[cty(computed)]
    names: Known<Vec<Known<String>>>,
}

/// Refined unknowns in every field position; sets with unknown elements in every set
/// form; null (and unknown) in every optional nested form.
#[derive(ctywire::Object, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Shapes {
    #[cty(computed)]
    id: Known<String>,
    #[cty(computed)]
    port: Known<u16>,
    #[cty(computed)]
    names: Known<Vec<Known<String>>>,
    #[cty(optional)]
    tags: BTreeSet<Known<String>>,
    #[cty(optional)]
    ids: SetOf<Known<String>>,
    #[cty(optional, computed)]
    zones: Known<BTreeSet<Known<String>>>,
    #[cty(block)]
    list: Vec<Item>,
    #[cty(block)]
    set: BTreeSet<Item>,
    #[cty(block(set))]
    set_vec: Vec<Item>,
    #[cty(block)]
    set_of: SetOf<Item>,
    #[cty(block)]
    map: BTreeMap<String, Item>,
    #[cty(block)]
    single: Option<Item>,
    #[cty(nested(set), optional)]
    n_set_vec: Option<Vec<Item>>,
    #[cty(nested(set), optional, computed)]
    n_set_known: Known<Vec<Item>>,
    #[cty(nested, optional)]
    n_set: Option<BTreeSet<Item>>,
    #[cty(nested, optional)]
    n_list: Option<Vec<Item>>,
    #[cty(nested, optional, computed)]
    n_list_known: Known<Vec<Item>>,
    #[cty(nested, optional)]
    n_map: Option<BTreeMap<String, Item>>,
    #[cty(nested, optional, computed)]
    n_map_known: Known<BTreeMap<String, Item>>,
    #[cty(nested, optional)]
    n_single: Option<Item>,
    #[cty(nested, optional, computed)]
    n_single_known: Known<Item>,
}

fn refinements() -> impl Strategy<Value = Refinements> {
    (any::<bool>(), proptest::option::of("[a-c]{0,2}")).prop_map(|(not_null, prefix)| {
        let mut r = Refinements::new();
        if not_null {
            r = r.not_null();
        }
        if let Some(p) = prefix {
            r = r.with_string_prefix(p);
        }
        r
    })
}

fn number_refinements() -> impl Strategy<Value = Refinements> {
    (any::<bool>(), proptest::option::of(0u16..9)).prop_map(|(not_null, lower)| {
        let mut r = Refinements::new();
        if not_null {
            r = r.not_null();
        }
        if let Some(l) = lower {
            r = r.with_number_lower_bound(Number::from(l), true);
        }
        r
    })
}

fn length_refinements() -> impl Strategy<Value = Refinements> {
    (any::<bool>(), proptest::option::of(0u64..3)).prop_map(|(not_null, lower)| {
        let mut r = Refinements::new();
        if not_null {
            r = r.not_null();
        }
        if let Some(l) = lower {
            r = r.with_length_lower_bound(l);
        }
        r
    })
}

/// Null, unknown (plain or refined) or known: unknowns often, as a plan has them.
fn known<T: std::fmt::Debug + Clone + 'static>(
    inner: impl Strategy<Value = T> + 'static,
    refinements: impl Strategy<Value = Refinements> + 'static,
) -> impl Strategy<Value = Known<T>> {
    prop_oneof![
        1 => Just(Known::Null),
        1 => Just(Known::unknown()),
        2 => refinements.prop_map(Known::Unknown),
        2 => inner.prop_map(Known::Known),
    ]
}

fn short() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        "[a-c]{1,3}",
        Just("é".to_owned()),
        Just("e\u{301}".to_owned())
    ]
}

fn item() -> impl Strategy<Value = Item> {
    (
        short(),
        known(short(), refinements()),
        known(0u16..4, number_refinements()),
        known(
            prop::collection::vec(known(short(), refinements()), 0..3),
            length_refinements(),
        ),
    )
        .prop_map(|(k, id, n, names)| Item { k, id, n, names })
}

fn items() -> impl Strategy<Value = Vec<Item>> {
    prop::collection::vec(item(), 0..4)
}

fn item_map() -> impl Strategy<Value = BTreeMap<String, Item>> {
    prop::collection::btree_map(short(), item(), 0..3)
}

prop_compose! {
    fn shapes_head()(
        id in known(short(), refinements()),
        port in known(any::<u16>(), number_refinements()),
        names in known(prop::collection::vec(known(short(), refinements()), 0..3), length_refinements()),
        tags in prop::collection::btree_set(known(short(), refinements()), 0..4),
        ids in prop::collection::vec(known(short(), refinements()), 0..4),
        zones in known(prop::collection::btree_set(known(short(), refinements()), 0..3), length_refinements()),
        list in items(),
        set in prop::collection::btree_set(item(), 0..4),
        set_vec in items(),
        set_of in items(),
        map in item_map(),
        single in proptest::option::of(item()),
    ) -> Shapes {
        Shapes {
            id, port, names, tags, ids: SetOf::new(ids).unwrap(), zones, list, set, set_vec,
            set_of: SetOf::new(set_of).unwrap(), map, single,
            n_set_vec: None, n_set_known: Known::Null, n_set: None, n_list: None,
            n_list_known: Known::Null, n_map: None, n_map_known: Known::Null, n_single: None,
            n_single_known: Known::Null,
        }
    }
}

prop_compose! {
    fn shapes()(
        head in shapes_head(),
        n_set_vec in proptest::option::of(items()),
        n_set_known in known(items(), length_refinements()),
        n_set in proptest::option::of(prop::collection::btree_set(item(), 0..3)),
        n_list in proptest::option::of(items()),
        n_list_known in known(items(), length_refinements()),
        n_map in proptest::option::of(item_map()),
        n_map_known in known(item_map(), length_refinements()),
        n_single in proptest::option::of(item()),
        n_single_known in known(item(), refinements()),
    ) -> Shapes {
        Shapes {
            n_set_vec, n_set_known, n_set, n_list, n_list_known, n_map, n_map_known,
            n_single, n_single_known, ..head
        }
    }
}

proptest! {
    #![proptest_config(crate::proptest_config(256))]

    /// The typed encoder writes what the `Value` encoder writes for the struct's value,
    /// byte for byte, or both refuse it.
    #[test]
    fn shapes_encode_as_the_value_codec(shapes in shapes()) {
        let ty = Shapes::cty_type();
        let typed = msgpack::encode_object(&shapes);
        match cty_serde::to_value(&shapes, &ty).map(|v| msgpack::encode(&v, &ty)) {
            Ok(Ok(bytes)) => prop_assert_eq!(typed.expect("the typed encoder writes it"), bytes),
            _ => prop_assert!(typed.is_err(), "the typed encoder wrote what the value codec refuses"),
        }
    }

    /// The typed decoder reads what the `Value` decoder reads, converted, and writes it
    /// back byte for byte.
    #[test]
    fn shapes_decode_as_the_value_codec(shapes in shapes()) {
        let ty = Shapes::cty_type();
        let Ok(bytes) = msgpack::encode_object(&shapes) else { return Ok(()) };
        let typed: Shapes = msgpack::decode_object(&bytes).expect("the typed decoder reads it");
        let value = msgpack::decode(&bytes, &ty).expect("the value decoder reads it");
        let converted: Shapes = cty_serde::from_value(&value, &ty).expect("the value converts");
        prop_assert_eq!(&typed, &converted);
        // A `BTreeSet` holds elements that hold unknowns in Rust's order, which may
        // merge two that cty keeps apart or swap two that tie in go-cty's order (the
        // Rust type decides); other fields come back as they were.
        let unknown_inside = |i: &Item| {
            i.id.is_unknown()
                || i.n.is_unknown()
                || match &i.names {
                    Known::Known(v) => v.iter().any(|n| matches!(n, Known::Unknown(_))),
                    other => matches!(other, Known::Unknown(_)),
                }
        };
        let ties = typed.tags.iter().any(|t| matches!(t, Known::Unknown(_)))
            || typed.set.iter().any(unknown_inside)
            || typed.n_set.iter().flatten().any(unknown_inside)
            || matches!(&typed.zones, Known::Known(z) if z.iter().any(|t| matches!(t, Known::Unknown(_))));
        if !ties {
            prop_assert_eq!(&object::to_value(&typed).unwrap(), &value);
            prop_assert_eq!(msgpack::encode_object(&typed).unwrap(), bytes);
        }
    }
}

// ---- `dynamic` values built by hand ----

/// A resource whose `dynamic` attributes a provider fills by hand.
#[derive(ctywire::Object, Debug, Clone, PartialEq)]
struct Meta {
    #[cty(required)]
    name: String,
    #[cty(optional)]
    metadata: ctywire::Value,
    #[cty(optional)]
    extra: ctywire::Value,
}

/// A value of shape `shape` built by hand, and its type: strings, numbers, objects
/// holding a list (of one or more numbers, or empty), maps, lists of objects, tuples,
/// and null.
fn hand_built(shape: u8) -> BoxedStrategy<(ctywire::Value, ctywire::Type)> {
    use ctywire::{Type, Value};
    match shape {
        0 => short().prop_map(|s| (Value::from(s), Type::String)).boxed(),
        1 => any::<i32>()
            .prop_map(|n| (Value::from(n), Type::Number))
            .boxed(),
        2 | 3 => (
            short(),
            prop::collection::vec(any::<u16>(), if shape == 2 { 1..4 } else { 0..1 }),
            any::<u8>(),
        )
            .prop_map(move |(image, ports, replicas)| {
                let ports_ty = if shape == 2 {
                    Type::Number
                } else {
                    Type::Dynamic
                };
                (
                    Value::object([
                        ("image", Value::from(image)),
                        ("ports", Value::list(ports.into_iter().map(Value::from))),
                        ("replicas", Value::from(replicas)),
                    ]),
                    Type::object([
                        ("image", Type::String),
                        ("ports", Type::list(ports_ty)),
                        ("replicas", Type::Number),
                    ]),
                )
            })
            .boxed(),
        4 => prop::collection::btree_map(short(), short(), 1..3)
            .prop_map(|m| {
                (
                    Value::map(m.into_iter().map(|(k, v)| (k, Value::from(v)))),
                    Type::map(Type::String),
                )
            })
            .boxed(),
        5 => prop::collection::vec(short(), 1..3)
            .prop_map(|v| {
                (
                    Value::list(
                        v.into_iter()
                            .map(|a| Value::object([("a", Value::from(a))])),
                    ),
                    Type::list(Type::object([("a", Type::String)])),
                )
            })
            .boxed(),
        6 => (short(), any::<bool>())
            .prop_map(|(s, b)| {
                (
                    Value::tuple([Value::from(s), Value::from(b)]),
                    Type::tuple([Type::String, Type::Bool]),
                )
            })
            .boxed(),
        _ => Just((Value::Null, Type::Dynamic)).boxed(),
    }
}

/// A value built by hand and its type.
type Typed = (ctywire::Value, ctywire::Type);

/// Elements whose `metadata` and `extra` each keep one shape (a list of objects has one
/// type), the values differing.
fn metas() -> impl Strategy<Value = Vec<(String, Typed, Typed)>> {
    (0u8..8, 0u8..8, 0usize..5).prop_flat_map(|(a, b, n)| {
        prop::collection::vec((short(), hand_built(a), hand_built(b)), n..=n)
    })
}

proptest! {
    #![proptest_config(crate::proptest_config(256))]

    /// `dynamic` values built by hand are written as the same values with their types
    /// recorded (as decoded values hold them), byte for byte, whatever was written before.
    #[test]
    fn hand_built_dynamic_values_are_written_with_their_types(
        first in metas(),
        second in metas(),
    ) {
        for elements in [first, second] {
            let hand: Vec<Meta> = elements
                .iter()
                .map(|(name, (m, _), (e, _))| Meta { name: name.clone(), metadata: m.clone(), extra: e.clone() })
                .collect();
            let typed_value = |(v, t): &(ctywire::Value, ctywire::Type)| {
                if v.is_null() { v.clone() } else { ctywire::Value::typed(t.clone(), v.clone()) }
            };
            let typed: Vec<Meta> = elements
                .iter()
                .map(|(name, m, e)| Meta { name: name.clone(), metadata: typed_value(m), extra: typed_value(e) })
                .collect();
            let want = msgpack::encode_object(&typed).expect("typed values are written");
            prop_assert_eq!(msgpack::encode_object(&hand).expect("hand-built values are written"), want);
        }
    }
}

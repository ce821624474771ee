//! `RawState` to values: JSON typed by the stored schema (attributes it lacks dropped),
//! the legacy flatmap, which form wins, and errors with paths.

use ctywire::{Type, Value};
use ctywire_tfplugin::raw_state;
use ctywire_tfplugin::{tfplugin5, tfplugin6};

fn v0_type() -> Type {
    "object({id=string, name=string, size=string, disks=list(object({size=number}))})"
        .parse()
        .unwrap()
}

fn flatmap(entries: &[(&str, &str)]) -> std::collections::HashMap<String, String> {
    entries
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn expected() -> Value {
    Value::object([
        (
            "disks",
            Value::list([Value::object([("size", Value::from(2))])]),
        ),
        ("id", Value::from("i")),
        ("name", Value::from("a")),
        ("size", Value::Null),
    ])
}

#[test]
fn json_drops_what_the_type_lacks_and_flatmap_reads_the_same() {
    let ty = v0_type();
    let json = tfplugin6::RawState {
        json: br#"{"id":"i","name":"a","disks":[{"size":2,"old":true}],"removed":[1]}"#.to_vec(),
        ..Default::default()
    };
    assert_eq!(raw_state::decode(Some(&json), &ty).unwrap(), expected());
    let flat = tfplugin6::RawState {
        flatmap: flatmap(&[
            ("id", "i"),
            ("name", "a"),
            ("disks.#", "1"),
            ("disks.0.size", "2"),
        ]),
        ..Default::default()
    };
    assert_eq!(raw_state::decode(Some(&flat), &ty).unwrap(), expected());
    // Protocol 5's message reads alike.
    let five = tfplugin5::RawState {
        json: json.json.clone(),
        flatmap: Default::default(),
    };
    assert_eq!(raw_state::decode(Some(&five), &ty).unwrap(), expected());
}

#[test]
fn json_wins_and_neither_is_null() {
    let ty = v0_type();
    let both = tfplugin6::RawState {
        json: br#"{"id":"i","name":"a","disks":[{"size":2}]}"#.to_vec(),
        flatmap: flatmap(&[("name", "from the flatmap")]),
    };
    assert_eq!(raw_state::decode(Some(&both), &ty).unwrap(), expected());
    assert!(
        raw_state::decode(Some(&tfplugin6::RawState::default()), &ty)
            .unwrap()
            .is_null()
    );
    assert!(raw_state::decode::<tfplugin6::RawState>(None, &ty)
        .unwrap()
        .is_null());
}

#[test]
fn errors_name_the_attribute() {
    let ty = v0_type();
    let json = tfplugin6::RawState {
        json: br#"{"name":"a","disks":[{"size":"big"}]}"#.to_vec(),
        ..Default::default()
    };
    let err = raw_state::decode(Some(&json), &ty).unwrap_err();
    assert_eq!(err.path().to_string(), ".disks[0].size", "{err}");
    let broken_count = tfplugin6::RawState {
        flatmap: flatmap(&[("name", "a"), ("disks.#", "x")]),
        ..Default::default()
    };
    let err = raw_state::decode(Some(&broken_count), &ty).unwrap_err();
    assert_eq!(err.path().to_string(), ".disks", "{err}");
    let truncated = tfplugin6::RawState {
        json: br#"{"name":"#.to_vec(),
        ..Default::default()
    };
    assert!(raw_state::decode(Some(&truncated), &ty).is_err());
}

#[test]
fn typed_through_the_serde_bridge() {
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Disk {
        size: f64,
    }
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct V0 {
        name: String,
        size: Option<String>,
        disks: Vec<Disk>,
    }
    let json = tfplugin6::RawState {
        json: br#"{"id":"i","name":"a","disks":[{"size":2}],"gone":1}"#.to_vec(),
        ..Default::default()
    };
    let v0: V0 = raw_state::decode_as(Some(&json), &v0_type()).unwrap();
    assert_eq!(
        v0,
        V0 {
            name: "a".into(),
            size: None,
            disks: vec![Disk { size: 2.0 }]
        }
    );
    let err = raw_state::decode_as::<V0, _>(
        Some(&tfplugin6::RawState {
            json: br#"{"id":"i"}"#.to_vec(),
            ..Default::default()
        }),
        &v0_type(),
    )
    .unwrap_err();
    // A null where the Rust type has no room for one: the first such attribute.
    assert_eq!(err.path().to_string(), ".disks", "{err}");
}

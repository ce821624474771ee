//! What the derive writes besides the schema and the codecs: the declared validators and
//! planning, each field type's value check, and the typed paths.

use std::collections::{BTreeMap, BTreeSet};

use ctywire::object::{FieldType, Invalid, Object, PathBuilder, PathExpression, Rule};
use ctywire::{Known, Number, Path, Value};

#[derive(ctywire::Object)]
struct Server {
    #[cty(required, rename = "server_name", length(max = 10))]
    name: String,
    #[cty(optional)]
    port: Option<u16>,
    #[cty(optional)]
    labels: Option<BTreeMap<String, i8>>,
    #[cty(optional)]
    ports: Option<BTreeSet<u16>>,
    #[cty(computed, prefix = "srv-", not_null)]
    id: Known<String>,
    #[cty(block)]
    disk: Vec<Disk>,
    #[cty(block)]
    network: Option<Network>,
    /// A SET block held in a `Vec`: its paths are a set's.
    #[cty(block(set))]
    rule: Vec<Network>,
}

#[derive(ctywire::Object)]
struct Disk {
    #[cty(optional, computed, default = 10, exactly_one_of(image))]
    size: Known<u32>,
    #[cty(optional)]
    image: Option<String>,
}

#[derive(ctywire::Object)]
struct Network {
    #[cty(required, requires_replace)]
    subnet: String,
}

fn names(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn validators_follow_their_fields_into_blocks_under_their_attribute_names() {
    let v = Server::validators();
    assert_eq!(v.0.len(), 2);
    assert_eq!(names(&v.0[0].names), ["server_name"]);
    assert!(matches!(
        v.0[0].rule,
        Rule::Length {
            min: None,
            max: Some(10)
        }
    ));
    assert_eq!(names(&v.0[1].names), ["disk", "size"]);
    assert!(matches!(&v.0[1].rule, Rule::ExactlyOneOf(o) if o == &["image"]));
}

#[test]
fn planning_declarations_follow_their_fields_through_optional_blocks() {
    let m = Server::plan_modifiers();
    // An `Option` block passes its struct's declarations on.
    assert_eq!(
        m.requires_replace,
        [
            vec!["network".to_owned(), "subnet".into()],
            vec!["rule".to_owned(), "subnet".into()]
        ]
    );
    assert_eq!(m.defaults.len(), 1);
    assert_eq!(names(&m.defaults[0].0), ["disk", "size"]);
    assert_eq!(m.defaults[0].1, Value::from(10));
    assert_eq!(names(&m.refinements[0].0), ["id"]);
    assert_eq!(m.refinements[0].1.string_prefix(), Some("srv-"));
    assert!(m.refinements[0].1.is_not_null());
}

fn check(value: &Value) -> Vec<String> {
    let mut out: Vec<Invalid> = Vec::new();
    Server::check_value(value, &Path::root(), &mut out);
    out.into_iter()
        .map(|i| format!("{} {}", i.path, i.detail))
        .collect()
}

fn server(changes: &[(&str, Value)]) -> Value {
    let mut v = Value::object([
        ("server_name", Value::from("a")),
        ("port", Value::Null),
        ("labels", Value::Null),
        ("ports", Value::Null),
        ("id", Value::unknown()),
        ("disk", Value::list(Vec::<Value>::new())),
        ("network", Value::Null),
        ("rule", Value::set(Vec::<Value>::new())),
    ]);
    for (n, value) in changes {
        v = v.with_attribute(n, value.clone()).unwrap();
    }
    v
}

#[test]
fn each_field_type_checks_its_known_values() {
    let half = Value::from(Number::parse("0.5").unwrap());
    assert_eq!(check(&server(&[])), Vec::<String>::new());
    assert_eq!(
        check(&server(&[("port", half.clone())])),
        [".port expected u16 (an integer from 0 to 65535), found a fraction"]
    );
    assert_eq!(
        check(&server(&[("labels", Value::map([("a", Value::from(1)), ("b", Value::from(200))]))])),
        [".labels[\"b\"] expected i8 (an integer from -128 to 127), found a number out of that range"]
    );
    assert_eq!(
        check(&server(&[("ports", Value::set([Value::from(80), Value::from(-1)]))])),
        [".ports[-1] expected u16 (an integer from 0 to 65535), found a number out of that range"]
    );
    let disks = Value::list([
        Value::object([("size", Value::unknown()), ("image", Value::Null)]),
        Value::object([("size", half), ("image", Value::Null)]),
    ]);
    assert_eq!(
        check(&server(&[("disk", disks)])),
        [".disk[1].size expected u32 (an integer from 0 to 4294967295), found a fraction"]
    );
    // Unknown and null values pass, wherever they are.
    assert_eq!(check(&Value::unknown()), Vec::<String>::new());
    assert_eq!(
        check(&server(&[
            ("port", Value::unknown()),
            ("disk", Value::unknown())
        ])),
        Vec::<String>::new()
    );
}

#[test]
fn typed_paths_name_attributes_by_their_names() {
    let p: Path = Server::path().name().into();
    assert_eq!(p.to_string(), ".server_name");
    let p: Path = Server::path().disk().index(2).size().into();
    assert_eq!(p, Path::root().attribute("disk").index(2).attribute("size"));
    let p: Path = Server::path().labels().key("a").into();
    assert_eq!(p.to_string(), ".labels[\"a\"]");
    let p: Path = Server::path().ports().element(Value::from(80)).into();
    assert_eq!(p.to_string(), ".ports[80]");
    let p: Path = Server::path().network().subnet().into();
    assert_eq!(p.to_string(), ".network.subnet");
    let subnet = Value::object([("subnet", Value::from("a"))]);
    let p: Path = Server::path().rule().element(subnet).subnet().into();
    assert_eq!(p.to_string(), ".rule[...].subnet");
    assert_eq!(
        Server::path().id().to_path(),
        Some(Path::root().attribute("id"))
    );
    let any = Server::path().disk().any().image();
    assert_eq!(any.expression().to_string(), ".disk[*].image");
    assert_eq!(any.to_path(), None);
    assert!(any
        .expression()
        .matches(&Path::root().attribute("disk").index(7).attribute("image")));
    assert!(!any
        .expression()
        .matches(&Path::root().attribute("disk").index(7).attribute("size")));
    let expression: PathExpression = any.into();
    assert_eq!(Path::from(expression), Path::root().attribute("disk"));
}

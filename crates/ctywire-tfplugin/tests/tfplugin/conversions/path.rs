//! AttributePath <-> Path.

use ctywire::{Number, Path, Type, Value};
use ctywire_tfplugin::path::{path_from_proto, path_from_proto_typed, path_to_proto};
use ctywire_tfplugin::tfplugin6::attribute_path::{step::Selector, Step};
use ctywire_tfplugin::tfplugin6::AttributePath;

fn selectors(path: &AttributePath) -> Vec<Selector> {
    path.steps
        .iter()
        .map(|s| s.selector.clone().unwrap())
        .collect()
}

#[test]
fn every_step_kind() {
    let path = Path::root()
        .attribute("disk")
        .index(3)
        .attribute("tags")
        .key("env");
    let proto = path_to_proto(&path);
    assert_eq!(
        selectors(&proto),
        [
            Selector::AttributeName("disk".into()),
            Selector::ElementKeyInt(3),
            Selector::AttributeName("tags".into()),
            Selector::ElementKeyString("env".into()),
        ]
    );
    assert_eq!(path_from_proto(&proto).unwrap(), path);
    assert!(path_to_proto(&Path::root()).steps.is_empty());
}

#[test]
fn set_elements_by_value() {
    let strings = Path::root().attribute("labels").element(Value::from("web"));
    assert_eq!(
        selectors(&path_to_proto(&strings)),
        [
            Selector::AttributeName("labels".into()),
            Selector::ElementKeyString("web".into())
        ]
    );
    let numbers = Path::root().attribute("ports").element(Value::from(443));
    assert_eq!(
        selectors(&path_to_proto(&numbers))[1],
        Selector::ElementKeyInt(443)
    );
    // An element of another kind ends the path, as Terraform keeps the valid prefix.
    let objects = Path::root()
        .attribute("network")
        .element(Value::object([("name", Value::from("a"))]))
        .attribute("name");
    assert_eq!(
        selectors(&path_to_proto(&objects)),
        [Selector::AttributeName("network".into())]
    );
    let fraction = Path::root()
        .attribute("weights")
        .element(Value::Number(Number::from_f64(0.5).unwrap()));
    assert_eq!(path_to_proto(&fraction).steps.len(), 1);

    let ty: Type = "object({labels=set(string), ports=set(number), tags=map(string)})"
        .parse()
        .unwrap();
    assert_eq!(
        path_from_proto_typed(&path_to_proto(&strings), &ty).unwrap(),
        strings
    );
    assert_eq!(
        path_from_proto_typed(&path_to_proto(&numbers), &ty).unwrap(),
        numbers
    );
    let tags = Path::root().attribute("tags").key("env");
    assert_eq!(
        path_from_proto_typed(&path_to_proto(&tags), &ty).unwrap(),
        tags
    );
}

#[test]
fn malformed_paths_are_errors_at_the_step() {
    let proto = AttributePath {
        steps: vec![
            Step {
                selector: Some(Selector::AttributeName("disk".into())),
            },
            Step {
                selector: Some(Selector::ElementKeyInt(-1)),
            },
        ],
    };
    let err = path_from_proto(&proto).unwrap_err();
    assert_eq!(err.path().to_string(), ".disk");
    assert!(err.message().contains("negative index -1"));
    let proto = AttributePath {
        steps: vec![
            Step {
                selector: Some(Selector::AttributeName("a".into())),
            },
            Step { selector: None },
        ],
    };
    assert_eq!(
        path_from_proto(&proto).unwrap_err().path().to_string(),
        ".a"
    );
}

//! Diagnostics from errors, plan and apply inconsistencies and check violations.

use ctywire::schema::{Attribute, Block, Violation};
use ctywire::{msgpack, Path, Type, Value};
use ctywire_tfplugin::diagnostic;
use ctywire_tfplugin::path::path_from_proto;
use ctywire_tfplugin::tfplugin6::diagnostic::Severity;

#[test]
fn from_a_decoding_error_with_its_path() {
    let ty: Type = "object({disk=list(object({size=number}))})"
        .parse()
        .unwrap();
    let json = br#"{"disk":[{"size":true}]}"#;
    let err = ctywire::json::decode(json, &ty).unwrap_err();
    let d = diagnostic::from_error(&err, "Invalid configuration");
    assert_eq!(d.severity, Severity::Error as i32);
    assert_eq!(d.summary, "Invalid configuration");
    assert!(!d.detail.starts_with(".disk"), "{}", d.detail);
    assert!(d.detail.contains("expected number"), "{}", d.detail);
    assert_eq!(
        path_from_proto(d.attribute.as_ref().unwrap()).unwrap(),
        Path::root().attribute("disk").index(0).attribute("size")
    );
    // At the root: no attribute, the whole message.
    let err = msgpack::decode(b"\xc3", &ty).unwrap_err();
    let d = diagnostic::from_error(&err, "Invalid state");
    assert!(d.attribute.is_none());
    assert_eq!(d.detail, err.to_string());
}

#[test]
fn from_a_plan_inconsistency() {
    let block = Block::new().attribute("name", Attribute::new(Type::String).required());
    let config = Value::object([("name", Value::from("a"))]);
    let planned = Value::object([("name", Value::from("b"))]);
    let found = block.check_plan(&Value::Null, &config, &planned);
    assert_eq!(found.len(), 1);
    let d = diagnostic::from_inconsistency(&found[0], "Provider produced invalid plan");
    assert_eq!(d.summary, "Provider produced invalid plan");
    assert_eq!(d.detail, found[0].message);
    assert_eq!(
        path_from_proto(d.attribute.as_ref().unwrap()).unwrap(),
        Path::root().attribute("name")
    );
}

#[test]
fn from_a_violation_warnings_and_function_errors() {
    let v = Violation::new(
        Path::root().attribute("disk"),
        "expected at least 1 block, found 0",
    );
    let d = diagnostic::from_violation(&v, "Missing block");
    assert_eq!(d.detail, "expected at least 1 block, found 0");
    assert_eq!(d.attribute.unwrap().steps.len(), 1);
    let w = diagnostic::warning("Deprecated", "use name", &Path::root().attribute("old"));
    assert_eq!(w.severity, Severity::Warning as i32);
    assert!(!diagnostic::has_errors(std::slice::from_ref(&w)));
    let e = diagnostic::error("Bad", "bad", &Path::root());
    assert!(e.attribute.is_none());
    assert!(diagnostic::has_errors(&[w, e]));
    let f = diagnostic::function_error("not a number", Some(2));
    assert_eq!(
        (f.text.as_str(), f.function_argument),
        ("not a number", Some(2))
    );
    assert_eq!(
        diagnostic::function_error("x", None).function_argument,
        None
    );
}

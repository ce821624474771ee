//! Type conversion against go-cty: every case of `vectors/convert/gocty.json`, which
//! `vectors/gen/convert/main.go` wrote by running go-cty's `convert` package (and its
//! `msgpack.Marshal` and `json.Marshal`, which convert first) over a table of cases.
//!
//! For each case the input is decoded with its type (and again as `dynamic`), converted
//! with [`convert::convert`], and encoded with the wanted type: the bytes (and the JSON
//! text) must be go-cty's, or the error its message and path. [`convert::conversion`]
//! must agree with `GetConversion` and `GetConversionUnsafe`, the encoders with
//! `Marshal`, and [`convert::unify`] and [`convert::unify_unsafe`] with `Unify` and
//! `UnifyUnsafe`.

use std::path::PathBuf;

use ctywire::convert::{self, Safety};
use ctywire::{json, msgpack, Error, Type, Value};
use serde_json::Value as Json;

fn load(name: &str) -> Json {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("vectors/convert")
        .join(name);
    let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_slice(&text).expect("valid JSON")
}

fn ty(json: &Json) -> Type {
    Type::from_json(&json.to_string()).unwrap_or_else(|e| panic!("type {json}: {e}"))
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn text<'j>(case: &'j Json, field: &str) -> Option<&'j str> {
    case.get(field).and_then(Json::as_str)
}

/// Cases whose result is a collection of collections of `dynamic` with an empty element
/// beside a non-empty one (`{"a": ["x"], "b": []}` as `map(list(dynamic))`): go-cty's
/// `Marshal` writes it, but go-cty panics reading those bytes back (`MapVal`: inconsistent
/// element types `list(dynamic)` and `list(string)`), and this crate's encoders refuse to
/// write it (its decoders refuse to read it too, as they do every heterogeneous
/// collection of `dynamic`).
const UNENCODABLE: &[&str] = &["map-to-map-of-list-dynamic"];

/// Cases whose input this crate's encoders refuse as `to` though go-cty's `Marshal`
/// writes it: the value is of type `to` already (so it is not converted), but the
/// encoder infers the type of each element at a `dynamic` position from the element
/// alone, and an empty list there is a list of `dynamic` (`[["a"], []]` as
/// `list(dynamic)`: the two elements seem to differ in type).
const INFERRED_APART: &[&str] = &["list-of-lists-to-list-dynamic"];

/// What a case expects of a conversion: go-cty's result encoded, or its error.
fn check_result(
    case: &Json,
    got: Result<Value, Error>,
    wire: &Type,
    what: &str,
    failures: &mut Vec<String>,
) {
    let name = case["name"].as_str().unwrap_or("?");
    let mut fail = |m: String| failures.push(format!("{name} ({what}): {m}"));
    match (got, text(case, "want"), text(case, "error")) {
        (Ok(v), Some(_), _) if UNENCODABLE.contains(&name) => {
            // go-cty converts, but neither it nor this crate reads back what its
            // encoder writes for the value; this crate's encoders refuse it.
            match msgpack::encode(&v, wire) {
                Err(e)
                    if e.message()
                        .starts_with("collection elements must all have one type") => {}
                other => fail(format!(
                    "expected the encoder to refuse {v:?}, got {other:?}"
                )),
            }
        }
        (Ok(v), Some(want), _) => {
            // The value is as the decoder gives go-cty's bytes for it.
            if let Ok(decoded) = msgpack::decode(&unhex(want), wire) {
                if decoded != v {
                    fail(format!(
                        "converted to {v:?}, but go-cty's bytes decode as {decoded:?}"
                    ));
                }
            }
            match msgpack::encode(&v, wire) {
                Ok(b) if hex(&b) == want => {}
                Ok(b) => fail(format!("msgpack {} != {want} ({v:?})", hex(&b))),
                Err(e) => fail(format!("msgpack encode: {e} ({v:?})")),
            }
            if let Some(want) = text(case, "want_json") {
                match json::encode(&v, wire) {
                    Ok(b) if b == want.as_bytes() => {}
                    Ok(b) => fail(format!("json {} != {want}", String::from_utf8_lossy(&b))),
                    Err(e) => fail(format!("json encode: {e}")),
                }
            }
        }
        (Err(e), _, Some(message)) => {
            let path = text(case, "error_path").unwrap_or("");
            if e.message() != message || e.path().to_string() != path {
                fail(format!(
                    "error {:?} at {:?}, want {message:?} at {path:?}",
                    e.message(),
                    e.path().to_string()
                ));
            }
        }
        (Ok(v), None, Some(message)) => fail(format!("converted to {v:?}, want error {message:?}")),
        (Err(e), Some(_), _) => fail(format!("error {e}")),
        (_, None, None) => fail("case has neither want nor error".to_owned()),
    }
}

/// Cases where go-cty's `Marshal` converts a null, an unknown or an empty collection by
/// its type, which a [`Value`] does not carry: this crate's encoders write them as they
/// stand (a null string where a list is wanted is go-cty's error but is written as nil;
/// an unknown tuple where a list is wanted gets no length refinement; a null number
/// inside a value written as `dynamic` is a null of no type; an empty map of objects
/// lacking an attribute the wanted type requires is written `{}`). Each must hold a
/// null, an unknown or an empty collection, and must really differ (so that this list
/// stays exact).
const UNTYPED_MARSHAL: &[&str] = &[
    "null-string-to-list",
    "null-object-to-optional",
    "null-string-to-dynamic",
    "unknown-string-to-list",
    "unknown-object-to-optional",
    "unknown-string-to-dynamic",
    "object-to-dynamic",
    "refined-string-prefix-to-dynamic",
    "refined-object-not-null-to-optional",
    "refined-empty-object-to-map",
    "refined-empty-object-not-null-to-map",
    "refined-object-to-map",
    "refined-object-not-null-to-map",
    "refined-object-to-map-dynamic",
    "refined-empty-tuple-to-list",
    "refined-empty-tuple-not-null-to-list",
    "refined-tuple-to-list",
    "refined-tuple-not-null-to-list",
    "refined-tuple-not-null-to-list-dynamic",
    "refined-empty-tuple-to-set",
    "refined-empty-tuple-not-null-to-set",
    "refined-one-tuple-to-set",
    "refined-one-tuple-not-null-to-set",
    "refined-tuple-to-set",
    "refined-tuple-not-null-to-set",
    "refined-list-to-set",
    "refined-list-lower-to-set",
    "refined-set-exact-not-null-to-list",
    "refined-list-to-set-dynamic",
    "refined-elements-tuple-to-list-dynamic",
    "object-unknown-attribute-to-map-dynamic",
    "map-empty-to-map-of-optional-object",
    "unknown-map-to-object-optional-map",
    "null-map-to-object-optional-map",
];

/// Whether `v` holds a null, an unknown or an empty collection anywhere.
fn holds_untyped(v: &Value) -> bool {
    if v.is_empty() == Some(true) {
        return true;
    }
    match v.untyped() {
        Value::Null | Value::Unknown(_) => true,
        Value::List(vs) | Value::Tuple(vs) => vs.iter().any(holds_untyped),
        Value::Set(s) => s.iter().any(holds_untyped),
        Value::Map(m) => m.values().any(holds_untyped),
        Value::Object(o) => o.values().iter().any(holds_untyped),
        _ => false,
    }
}

/// What go-cty's `msgpack.Marshal` or `json.Marshal` did with the input and the wanted
/// type, against this crate's encoder: the same bytes, or both an error. Returns whether
/// they agree.
fn marshal_agrees(want: &Json, got: &Result<String, Error>) -> bool {
    match (got, want["out"].as_str(), want["error"].as_str()) {
        (Ok(got), Some(out), _) => got == out,
        (Err(_), None, Some(_)) => true,
        _ => false,
    }
}

#[test]
fn go_cty_conversions() {
    let file = load("gocty.json");
    let cases = file["cases"].as_array().expect("cases");
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let from = ty(&case["from"]);
        let to = ty(&case["to"]);
        let wire = to.without_optional_attributes();
        let value = msgpack::decode(&unhex(text(case, "value").unwrap()), &from)
            .unwrap_or_else(|e| panic!("{name}: decoding the input: {e}"));
        check_result(
            case,
            convert::convert(&value, &from, &to),
            &wire,
            "typed",
            &mut failures,
        );
        let dynamic = msgpack::decode(&unhex(text(case, "value_dynamic").unwrap()), &Type::Dynamic)
            .unwrap_or_else(|e| panic!("{name}: decoding the dynamic input: {e}"));
        check_result(
            case,
            convert::convert(&dynamic, &Type::Dynamic, &to),
            &wire,
            "dynamic",
            &mut failures,
        );

        let marshalled = [
            ("marshal", msgpack::encode(&value, &wire).map(|b| hex(&b))),
            (
                "marshal_json",
                json::encode(&value, &wire).map(|b| String::from_utf8_lossy(&b).into_owned()),
            ),
        ];
        let agree = marshalled
            .iter()
            .all(|(field, got)| marshal_agrees(&case[field], got));
        if UNTYPED_MARSHAL.contains(&name)
            || UNENCODABLE.contains(&name)
            || INFERRED_APART.contains(&name)
        {
            if agree {
                failures.push(format!(
                    "{name}: the encoders now agree with Marshal; take it off the list"
                ));
            }
            if UNTYPED_MARSHAL.contains(&name) && !holds_untyped(&value) {
                failures.push(format!(
                    "{name}: listed as untyped, but holds no null, unknown or empty collection"
                ));
            }
        } else if !agree {
            for (field, got) in &marshalled {
                failures.push(format!("{name} ({field}): {got:?}, want {}", case[field]));
            }
        }

        let expected = if from == wire || case["safe"] == true {
            Some(Safety::Safe)
        } else if case["unsafe"] == true {
            Some(Safety::Unsafe)
        } else {
            None
        };
        let got = convert::conversion(&from, &to);
        if got != expected {
            failures.push(format!("{name}: conversion {got:?}, want {expected:?}"));
        }
    }
    eprintln!("{} conversion cases", cases.len());
    assert!(cases.len() > 300);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn go_cty_unify() {
    let file = load("gocty.json");
    let cases = file["unify"].as_array().expect("unify cases");
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let types: Vec<Type> = case["types"].as_array().unwrap().iter().map(ty).collect();
        let want = |field: &str| (!case[field].is_null()).then(|| ty(&case[field]));
        for (got, field) in [
            (convert::unify(&types), "unify"),
            (convert::unify_unsafe(&types), "unify_unsafe"),
        ] {
            if got != want(field) {
                failures.push(format!("{name}: {field} {got:?}, want {:?}", want(field)));
            }
        }
    }
    assert!(cases.len() > 30);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// go-cty's unsafe unification of objects with maps goes through `map(any)`, so its
/// result can be a type some input has no direct conversion to: here the object's `b`
/// (a list) could only become a `bool` element of `map(bool)` at run time, and fails
/// then. Checked with go-cty 1.12.1 (`UnifyUnsafe` gives `cty.Map(cty.Bool)`,
/// `Unify` gives `cty.Map(cty.DynamicPseudoType)`, `GetConversionUnsafe` gives nil).
#[test]
fn unsafe_unification_of_objects_as_maps_passes_through_dynamic() {
    let types: Vec<Type> = ["object({a=any,b=list(bool)})", "map(bool)"]
        .iter()
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(convert::unify(&types), Some("map(any)".parse().unwrap()));
    assert_eq!(
        convert::unify_unsafe(&types),
        Some("map(bool)".parse().unwrap())
    );
    assert_eq!(
        convert::conversion(&types[0], &"map(bool)".parse().unwrap()),
        None
    );
}

// ---- This crate's own cases: where it departs from go-cty, and what go-cty cannot
// ---- show through its vectors.

/// A number converts to go-cty's `Text('f', -1)`, which writes negative zero as `-0`
/// (the vectors cannot carry it: MessagePack writes -0 as the integer 0).
#[test]
fn negative_zero_to_string() {
    let minus_zero = Value::Number(ctywire::Number::from_f64(-0.0).unwrap());
    let v = convert::convert(&minus_zero, &Type::Number, &Type::String).unwrap();
    assert_eq!(v, Value::from("-0"));
    assert_eq!(
        convert::convert(&v, &Type::String, &Type::Number).unwrap(),
        minus_zero
    );
}

/// Difference: decimals are exact, so number text longer than go-cty's 512 bits (about
/// 154 digits) converts with every digit, both ways.
#[test]
fn long_decimals_keep_every_digit() {
    let text = format!("1.{}1", "0".repeat(300));
    let n = convert::convert(&Value::from(text.as_str()), &Type::String, &Type::Number).unwrap();
    assert_eq!(n.as_number().unwrap().to_string(), text);
    let back = convert::convert(&n, &Type::Number, &Type::String).unwrap();
    assert_eq!(back.as_str(), Some(text.as_str()));
}

/// Difference: number text beyond the limit is a `LimitExceeded` error, not "a number is
/// required" (go-cty rounds it to 512 bits).
#[test]
fn number_text_beyond_the_limit() {
    let long = "1".repeat(ctywire::limits::MAX_NUMBER_TEXT + 1);
    let ty = Type::list(Type::Number);
    let err = convert::convert(
        &Value::list([Value::from(long)]),
        &Type::list(Type::String),
        &ty,
    )
    .unwrap_err();
    assert_eq!(err.kind(), ctywire::ErrorKind::LimitExceeded);
    assert_eq!(err.path().to_string(), "[0]");
}

/// Difference: where go-cty picks one of several errors by Go's map order (two required
/// attributes a map lacks), the first in name order is reported.
#[test]
fn first_missing_attribute_in_name_order() {
    let from = Type::map(Type::String);
    let to = Type::object([("b", Type::String), ("a", Type::String)]);
    let err = convert::convert(&Value::map([("c", Value::from("1"))]), &from, &to).unwrap_err();
    assert_eq!(
        err.message(),
        r#"map has no element for required attribute "a""#
    );
    let from = Type::object([("a", Type::Bool), ("b", Type::Bool)]);
    let value = Value::object([("a", Value::from(true)), ("b", Value::from(false))]);
    let err = convert::convert(
        &value,
        &from,
        &Type::object([("a", Type::Number), ("b", Type::Number)]),
    )
    .unwrap_err();
    assert_eq!(
        err.message(),
        r#"attribute "a": number required, but have bool"#
    );
}

/// A value built by hand that leaves out an attribute of `from` has a null there; one
/// with an attribute `from` lacks, or of another shape than `from`, is an error naming
/// where.
#[test]
fn values_that_are_not_of_their_type() {
    let from = Type::object([("a", Type::String), ("b", Type::Number)]);
    let to = Type::object([("a", Type::String), ("b", Type::String)]);
    let v = convert::convert(&Value::object([("b", Value::from(1))]), &from, &to).unwrap();
    assert_eq!(
        v,
        Value::object([("a", Value::Null), ("b", Value::from("1"))])
    );

    let extra = Value::object([("b", Value::from(1)), ("c", Value::from(true))]);
    let err = convert::convert(&extra, &from, &to).unwrap_err();
    assert_eq!(err.to_string(), r#"unsupported attribute "c""#);

    let list = Type::list(Type::Number);
    let err = convert::convert(
        &Value::list([Value::from(1), Value::from("x")]),
        &list,
        &Type::set(Type::String),
    )
    .unwrap_err();
    assert_eq!(err.kind(), ctywire::ErrorKind::TypeMismatch);
    assert_eq!(err.to_string(), "[1]: expected number, found string");

    let dynamic_list = Type::list(Type::Dynamic);
    let mixed = Value::list([Value::from(1), Value::from("x")]);
    assert!(convert::convert(&mixed, &dynamic_list, &Type::list(Type::String)).is_err());
}

/// The encoders convert what does not conform; where no conversion exists their error is
/// their own, with its path, and a value that conforms keeps its error (an unknown in
/// JSON).
#[test]
fn encoders_convert_first() {
    let set = Type::set(Type::String);
    let list = Value::tuple([Value::from("b"), Value::from(1), Value::from("b")]);
    assert_eq!(
        msgpack::encode(&list, &set).unwrap(),
        msgpack::encode(&Value::set([Value::from("1"), Value::from("b")]), &set).unwrap()
    );

    let ty = Type::object([("tags", Type::map(Type::String))]);
    let v = Value::object([("tags", Value::list([Value::from("a")]))]);
    let err = msgpack::encode(&v, &ty).unwrap_err();
    assert_eq!(err.to_string(), ".tags: expected map, found list");
    assert_eq!(
        json::encode(&v, &ty).unwrap_err().to_string(),
        ".tags: expected map, found list"
    );

    let ty = Type::object([("n", Type::Number)]);
    let err = msgpack::encode(&Value::object([("n", Value::from("x"))]), &ty).unwrap_err();
    assert_eq!(err.to_string(), ".n: a number is required");

    let ty = Type::list(Type::String);
    let err = json::encode(&Value::list([Value::unknown()]), &ty).unwrap_err();
    assert_eq!(err.to_string(), "[0]: value is not known");
    let set_ty = Type::set(Type::String);
    let err = json::encode(&Value::tuple([Value::from(1), Value::unknown()]), &set_ty).unwrap_err();
    assert_eq!(err.to_string(), "[(not yet known)]: value is not known");

    // Appending: what a failed first attempt wrote is gone.
    let mut out = b"prefix".to_vec();
    msgpack::encode_into(&Value::from(7), &Type::String, &mut out).unwrap();
    assert_eq!(out, b"prefix\xa17");
}

//! Hostile input: deep nesting, huge length headers, truncation. Every case is an error,
//! never a panic, a hang or a huge allocation.

use ctywire::{json, msgpack, ErrorKind, Type};

/// A type nested `depth` levels deep: list(list(...(string))).
fn deep_list_type(depth: usize) -> Type {
    (0..depth).fold(Type::String, |t, _| Type::list(t))
}

#[test]
fn deep_msgpack_arrays_are_refused() {
    let bytes = vec![0x91; 100_000];
    let err = msgpack::implied_type(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded, "{err}");
    let ty = deep_list_type(1000);
    let err = msgpack::decode(&bytes, &ty).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded, "{err}");
    let err = msgpack::decode(&bytes, &Type::Dynamic).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::TypeMismatch | ErrorKind::InvalidValue
        ),
        "{err}"
    );
}

#[test]
fn deep_json_arrays_are_refused() {
    let text = "[".repeat(100_000);
    let err = json::implied_type(text.as_bytes()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded, "{err}");
    let ty = deep_list_type(1000);
    let err = json::decode(text.as_bytes(), &ty).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded, "{err}");
}

#[test]
fn nesting_at_the_limit_decodes() {
    let depth = ctywire::limits::MAX_DEPTH;
    let ty = deep_list_type(depth);
    let mut bytes = vec![0x91; depth];
    bytes.push(0xa0);
    let v = msgpack::decode(&bytes, &ty).unwrap();
    assert_eq!(msgpack::encode(&v, &ty).unwrap(), bytes);
    let text = format!("{}\"\"{}", "[".repeat(depth), "]".repeat(depth));
    let v = json::decode(text.as_bytes(), &ty).unwrap();
    assert_eq!(json::encode(&v, &ty).unwrap(), text.as_bytes());
    // One level more is refused in both formats, a string in a list of strings too.
    bytes.insert(0, 0x91);
    let err = msgpack::decode(&bytes, &Type::list(ty.clone())).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded, "{err}");
    let text = format!("[{text}]");
    let err = json::decode(text.as_bytes(), &Type::list(ty)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded, "{err}");
}

#[test]
fn huge_length_headers_do_not_allocate() {
    // Array32 / map32 / str32 / bin32 / ext32 claiming 4 GiB with nothing behind them.
    for bytes in [
        &[0xdd, 0xff, 0xff, 0xff, 0xff][..],
        &[0xdf, 0xff, 0xff, 0xff, 0xff],
        &[0xdb, 0xff, 0xff, 0xff, 0xff],
        &[0xc6, 0xff, 0xff, 0xff, 0xff],
        &[0xc9, 0xff, 0xff, 0xff, 0xff, 0x0c],
    ] {
        for ty in [
            Type::list(Type::String),
            Type::map(Type::String),
            Type::String,
            Type::Dynamic,
        ] {
            let err = msgpack::decode(bytes, &ty).unwrap_err();
            assert!(
                matches!(
                    err.kind(),
                    ErrorKind::UnexpectedEof | ErrorKind::TypeMismatch | ErrorKind::InvalidValue
                ),
                "{bytes:02x?} as {ty}: {err}"
            );
        }
    }
}

/// Decoding and encoding at the depth limit fits in a small thread stack, even in a
/// debug build: 512 KiB, a quarter of a test thread's.
#[test]
fn depth_limit_fits_a_small_stack() {
    std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(|| {
            let depth = ctywire::limits::MAX_DEPTH;
            let ty = deep_list_type(depth);
            let mut bytes = vec![0x91; depth];
            bytes.push(0xa0);
            let v = msgpack::decode(&bytes, &ty).unwrap();
            msgpack::encode(&v, &ty).unwrap();
            msgpack::implied_type(&bytes).unwrap();
            let text = json::encode(&v, &ty).unwrap();
            json::decode(&text, &ty).unwrap();
            json::implied_type(&text).unwrap();
        })
        .unwrap()
        .join()
        .expect("no stack overflow");
}

// ---------------------------------------------------------------------------------------
// Regressions for findings of the hostile-input audit. Each input below took seconds to
// minutes, or gigabytes, before its fix. There are no time bounds here: a return to
// quadratic time shows as a test that runs for minutes. The unit tests next to each fix
// count the work instead.

use ctywire::Value;

fn array32(n: usize) -> Vec<u8> {
    let mut out = vec![0xdd];
    out.extend_from_slice(&(n as u32).to_be_bytes());
    out
}

fn limit_exceeded(result: ctywire::Result<Value>) {
    let err = result.expect_err("expected an error");
    assert_eq!(err.kind(), ErrorKind::LimitExceeded, "{err}");
}

/// Sets of composite elements deduplicate by hash string; every `[unknown]` has the
/// hash string `[?;]`, and comparing each such element with all the others was
/// quadratic (50,000 elements: minutes).
#[test]
fn set_of_elements_holding_unknowns_is_linear() {
    let n = 50_000;
    let mut bytes = array32(n);
    for _ in 0..n {
        bytes.extend_from_slice(&[0x91, 0xd4, 0x00, 0x00]);
    }
    let ty = Type::set(Type::list(Type::String));
    let v = msgpack::decode(&bytes, &ty).unwrap();
    assert_eq!(v.len(), Some(n), "unknowns are never equal: all are kept");
    let again = msgpack::encode(&v, &ty).unwrap();
    assert!(msgpack::decode(&again, &ty).unwrap() == v);
}

/// Numbers are cut to 10 digits in hash strings, so [1.0000000000001] and
/// [1.0000000000002] share one; such runs must not be compared pairwise either, and
/// real duplicates must still go.
#[test]
fn set_of_elements_with_equal_hash_strings_is_linear() {
    let n = 20_000;
    let mut bytes = array32(2 * n);
    for _round in 0..2 {
        for i in 0..n {
            let text = format!("1.{:013}", i + 1);
            bytes.push(0x91);
            bytes.push(0xa0 | text.len() as u8);
            bytes.extend_from_slice(text.as_bytes());
        }
    }
    let ty = Type::set(Type::list(Type::Number));
    let v = msgpack::decode(&bytes, &ty).unwrap();
    assert_eq!(v.len(), Some(n), "the second round duplicates the first");
    let set = v.as_slice().unwrap();
    for text in ["1.0000000000001", "1.0000000000002"] {
        let one = Value::list([Value::Number(text.parse().unwrap())]);
        assert!(set.contains(&one), "{text}");
    }
}

/// A repeated attribute name was dropped by scanning every earlier attribute: an object
/// type of 50,000 attributes took over a minute. The last of a repeated name still wins.
#[test]
fn type_expressions_with_many_attributes_are_linear() {
    let attrs: Vec<String> = (0..50_000).map(|i| format!("a{i}=bool")).collect();
    let text = format!("object({{{}}})", attrs.join(","));
    let ty = Type::parse_expr(&text).unwrap();
    assert_eq!(ty.as_object().unwrap().len(), 50_000);
    let text = format!("object({{{},a7=number}})", attrs.join(","));
    let ty = Type::parse_expr(&text).unwrap();
    let o = ty.as_object().unwrap();
    assert_eq!(o.len(), 50_000);
    assert_eq!(o.attribute("a7"), Some(&Type::Number));
    assert_eq!(o.attribute("a8"), Some(&Type::Bool));
}

/// `1p-4000` is 7 bytes of text but 2,796 exact digits; 1 MB of such numbers took
/// seconds to decode into a set.
#[test]
fn binary_exponents_are_bounded() {
    let limit = ctywire::limits::MAX_BINARY_EXPONENT;
    for text in [
        format!("1p{}", limit + 1),
        format!("1p-{}", limit + 1),
        "3p-4000".into(),
    ] {
        let mut bytes = vec![0xa0 | text.len() as u8];
        bytes.extend_from_slice(text.as_bytes());
        limit_exceeded(msgpack::decode(&bytes, &Type::Number));
        limit_exceeded(json::decode(
            format!("\"{text}\"").as_bytes(),
            &Type::Number,
        ));
    }
    for text in [format!("1p{limit}"), format!("3p-{limit}"), "3p-2".into()] {
        let mut bytes = vec![0xa0 | text.len() as u8];
        bytes.extend_from_slice(text.as_bytes());
        msgpack::decode(&bytes, &Type::Number).unwrap();
    }
}

/// A collection length lower bound at or beyond 2^63 was written back as a negative
/// integer (an `as i64` cast), which no decoder accepts.
#[test]
fn huge_length_lower_bound_round_trips() {
    // Unknown list(string), not null, at least 2^63 elements.
    let bytes = b"\xc7\x0d\x0c\x82\x01\xc2\x05\xcf\x80\x00\x00\x00\x00\x00\x00\x00";
    let ty = Type::list(Type::String);
    let v = msgpack::decode(bytes, &ty).unwrap();
    assert_eq!(v.refinements().unwrap().length_lower_bound(), 1 << 63);
    let again = msgpack::encode(&v, &ty).unwrap();
    assert_eq!(again, bytes);
    assert_eq!(msgpack::decode(&again, &ty).unwrap(), v);
}

/// 18 bytes of refinement (not null, length exactly 65,536) collapse to 65,536
/// unknowns, as in go-cty: 800 of them asked for 1.2 GB.
#[test]
fn collapsed_unknown_lists_are_bounded_in_total() {
    let collapsing = [
        0xc7, 0x0f, 0x0c, 0x83, 0x01, 0xc2, 0x05, 0xce, 0, 1, 0, 0, 0x06, 0xce, 0, 1, 0, 0,
    ];
    let ty = Type::list(Type::list(Type::String));
    // One collapses, whatever else is around it.
    let mut one = vec![0x91];
    one.extend_from_slice(&collapsing);
    let v = msgpack::decode(&one, &ty).unwrap();
    assert_eq!(v[0].len(), Some(1 << 16));
    assert!(v[0][0].is_unknown());
    // Many exhaust the limit on values the input leaves out.
    let mut many = array32(800);
    for _ in 0..800 {
        many.extend_from_slice(&collapsing);
    }
    let err = msgpack::decode(&many, &ty).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded, "{err}");
    assert_eq!(err.path().to_string(), "[16]", "{err}");
}

/// JSON objects may leave attributes out (they become null, as in go-cty): `{}` for an
/// object type of 8,000 attributes, 8,000 times, asked for 1.5 GB.
#[test]
fn json_missing_attributes_are_bounded_in_total() {
    let object_type = |k: usize| {
        let attrs: Vec<String> = (0..k).map(|i| format!("\"a{i}\":\"number\"")).collect();
        format!("[\"object\",{{{}}}]", attrs.join(","))
    };
    let objects = |n: usize| vec!["{}"; n].join(",");
    let text = format!(
        "{{\"type\":[\"list\",{}],\"value\":[{}]}}",
        object_type(8000),
        objects(8000)
    );
    let err = json::decode(text.as_bytes(), &Type::Dynamic).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded, "{err}");
    // Leaving out a few hundred thousand is fine.
    let text = format!(
        "{{\"type\":[\"list\",{}],\"value\":[{}]}}",
        object_type(300),
        objects(1000)
    );
    let v = json::decode(text.as_bytes(), &Type::Dynamic).unwrap();
    assert_eq!(v.len(), Some(1000));
    assert!(v[999]["a299"].is_null());
}

/// `[type JSON as bin32, ...]`: the start of a MessagePack dynamic wrapper.
fn wrapper_start(type_json: &str) -> Vec<u8> {
    let mut out = vec![0x92, 0xc6];
    out.extend_from_slice(&(type_json.len() as u32).to_be_bytes());
    out.extend_from_slice(type_json.as_bytes());
    out
}

/// Whether a tuple type holds `dynamic` was worked out by walking it for every value of
/// that type: with a dynamic wrapper's type list(list(tuple([number × 20,000, dynamic])))
/// and 40,000 inner lists, 1.6 × 10^9 steps (minutes). Tuple types now know it; this
/// takes well under a second even in a debug build.
#[test]
fn dynamic_collections_of_large_types_are_linear() {
    let k = 20_000;
    let n = 40_000;
    let tuple = format!("[\"tuple\",[{}\"dynamic\"]]", "\"number\",".repeat(k));
    for inner in [&[0x90][..], &[0x92, 0xc0, 0xc0], &[0x91, 0xd4, 0x00, 0x00]] {
        let mut bytes = wrapper_start(&format!("[\"list\",[\"list\",{tuple}]]"));
        bytes.extend(array32(n));
        for _ in 0..n {
            bytes.extend_from_slice(inner);
        }
        let v = msgpack::decode(&bytes, &Type::Dynamic).unwrap();
        assert_eq!(v.len(), Some(n));
        let again = msgpack::encode(&v, &Type::Dynamic).unwrap();
        assert!(msgpack::decode(&again, &Type::Dynamic).unwrap() == v);
    }
    // A tuple inside a tuple, with nulls.
    let mut bytes = wrapper_start(&format!("[\"list\",[\"tuple\",[{tuple}]]]"));
    bytes.extend(array32(n));
    for _ in 0..n {
        bytes.extend_from_slice(&[0x91, 0xc0]);
    }
    let v = msgpack::decode(&bytes, &Type::Dynamic).unwrap();
    msgpack::encode(&v, &Type::Dynamic).unwrap();
    json::encode(&v, &Type::Dynamic).unwrap();
    // The same in JSON.
    let text = format!(
        "{{\"type\":[\"list\",[\"list\",{tuple}]],\"value\":[{}]}}",
        vec!["[]"; n].join(",")
    );
    let v = json::decode(text.as_bytes(), &Type::Dynamic).unwrap();
    json::encode(&v, &Type::Dynamic).unwrap();
    // Without `dynamic`, at the top level.
    let ty = Type::from_json(&format!(
        "[\"list\",[\"list\",[\"tuple\",[{}\"bool\"]]]]",
        "\"number\",".repeat(k)
    ))
    .unwrap();
    let mut bytes = array32(n);
    bytes.extend(std::iter::repeat_n(0x90, n));
    let v = msgpack::decode(&bytes, &ty).unwrap();
    assert_eq!(msgpack::encode(&v, &ty).unwrap().len(), n + 3);
}

/// Elements of `dynamic`-holding collections must still have one type, and the error
/// still names them.
#[test]
fn heterogeneous_dynamic_collections_are_still_refused() {
    let cases: &[(&str, &[u8], &str)] = &[
        // list(dynamic): [string "a", number 1]
        (
            "[\"list\",\"dynamic\"]",
            b"\x92\x92\xc4\x08\"string\"\xa1a\x92\xc4\x08\"number\"\x01",
            "[1]",
        ),
        // list(tuple([dynamic])): [[string "a"], [number 1]]
        (
            "[\"list\",[\"tuple\",[\"dynamic\"]]]",
            b"\x92\x91\x92\xc4\x08\"string\"\xa1a\x91\x92\xc4\x08\"number\"\x01",
            "[1]",
        ),
        // list(tuple([dynamic])): [null, [number 1]]: a null tuple has type
        // tuple([dynamic]), the other tuple([number])
        (
            "[\"list\",[\"tuple\",[\"dynamic\"]]]",
            b"\x92\xc0\x91\x92\xc4\x08\"number\"\x01",
            "[1]",
        ),
        // map(list(dynamic)): {"a": [string], "b": [number]}, keys out of order
        (
            "[\"map\",[\"list\",\"dynamic\"]]",
            b"\x82\xa1b\x91\x92\xc4\x08\"number\"\x01\xa1a\x91\x92\xc4\x08\"string\"\xa1a",
            "[\"b\"]",
        ),
    ];
    for (type_json, value, path) in cases {
        let mut bytes = wrapper_start(type_json);
        bytes.extend_from_slice(value);
        let err = msgpack::decode(&bytes, &Type::Dynamic).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidValue, "{type_json}: {err}");
        assert!(
            err.message()
                .starts_with("collection elements must all have one type"),
            "{type_json}: {err}"
        );
        assert_eq!(err.path().to_string(), *path, "{type_json}: {err}");
    }
    // JSON maps keep a repeated key's last value, and only its type counts.
    let w = |ty: &str, v: &str| format!("{{\"value\":{v},\"type\":\"{ty}\"}}");
    let ty = Type::map(Type::Dynamic);
    let ok = format!(
        "{{\"b\":{},\"a\":{},\"a\":{}}}",
        w("number", "1"),
        w("string", "\"x\""),
        w("number", "2")
    );
    let v = json::decode(ok.as_bytes(), &ty).unwrap();
    assert_eq!(v["a"].as_i64(), Some(2));
    let bad = format!(
        "{{\"b\":{},\"a\":{},\"a\":{}}}",
        w("number", "1"),
        w("number", "2"),
        w("string", "\"x\"")
    );
    let err = json::decode(bad.as_bytes(), &ty).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue, "{err}");
    assert_eq!(err.path().to_string(), "[\"b\"]", "{err}");
    // The same for a repeated attribute of an object in a list.
    let ty = Type::list(Type::object([("a", Type::Dynamic)]));
    let ok = format!(
        "[{{\"a\":{}}},{{\"a\":{},\"a\":{}}}]",
        w("number", "1"),
        w("string", "\"x\""),
        w("number", "2")
    );
    json::decode(ok.as_bytes(), &ty).unwrap();
    // The last value is null: of type `dynamic` inside the object, which is then an
    // object({a=dynamic}), not the first element's object({a=number}).
    let bad = format!(
        "[{{\"a\":{}}},{{\"a\":{},\"a\":null}}]",
        w("number", "1"),
        w("number", "2"),
    );
    let err = json::decode(bad.as_bytes(), &ty).unwrap_err();
    assert!(
        err.message()
            .ends_with("this one is object({a=any}), an earlier one is object({a=number})"),
        "{err}"
    );
    let bad = format!(
        "[{{\"a\":{}}},{{\"a\":{},\"a\":{}}}]",
        w("number", "1"),
        w("number", "2"),
        w("string", "\"x\"")
    );
    let err = json::decode(bad.as_bytes(), &ty).unwrap_err();
    assert_eq!(err.path().to_string(), "[1]", "{err}");
    // A repeated attribute's null last value takes back the declared type.
    let ok = format!("[{{\"a\":{},\"a\":null}},{{\"a\":null}}]", w("number", "1"));
    json::decode(ok.as_bytes(), &ty).unwrap();
    // Nulls and unknowns of the dynamic pseudo-type fit any type, and take it.
    let mut bytes = wrapper_start("[\"list\",\"dynamic\"]");
    bytes.extend_from_slice(b"\x93\xc0\x92\xc4\x08\"string\"\xa1a\xd4\x00\x00");
    let v = msgpack::decode(&bytes, &Type::Dynamic).unwrap();
    assert_eq!(v.recorded_type(), Some(&Type::list(Type::String)));
    assert_eq!(v.len(), Some(3));
}

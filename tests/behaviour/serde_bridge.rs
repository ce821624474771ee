//! The serde bridge: what maps to what, errors, `Known<T>`, and equality with the
//! codecs' bytes.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use bigdecimal::BigDecimal;
use ctywire::serde::{from_value, to_value};
use ctywire::{json, msgpack, ErrorKind, Known, Number, Refinements, Type, Value};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

fn ty(expr: &str) -> Type {
    Type::parse_expr(expr).unwrap()
}

/// Decodes `value` (encoded with the codec) through both formats and `from_value` into
/// a `T`, checks that the three agree and that encoding the `T` gives the codec's bytes
/// back, and returns it.
fn through<T>(value: &Value, ty: &Type) -> T
where
    T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug,
{
    let bytes = msgpack::encode(value, ty).unwrap();
    let from_msgpack: T = msgpack::decode_as(&bytes, ty).unwrap();
    let from_value_: T = from_value(value, ty).unwrap();
    assert_eq!(from_msgpack, from_value_);
    assert_eq!(msgpack::encode_from(&from_msgpack, ty).unwrap(), bytes);
    assert_eq!(
        msgpack::encode(&to_value(&from_msgpack, ty).unwrap(), ty).unwrap(),
        bytes
    );
    if value.is_wholly_known() {
        let text = json::encode(value, ty).unwrap();
        let from_json: T = json::decode_as(&text, ty).unwrap();
        assert_eq!(from_json, from_msgpack);
        assert_eq!(json::encode_from(&from_json, ty).unwrap(), text);
    }
    from_msgpack
}

fn msgpack_error<T: DeserializeOwned + std::fmt::Debug>(value: &Value, ty: &Type) -> String {
    let bytes = msgpack::encode(value, ty).unwrap();
    msgpack::decode_as::<T>(&bytes, ty).unwrap_err().to_string()
}

#[test]
fn strings_into_string_cow_and_str() {
    let t = Type::String;
    assert_eq!(through::<String>(&Value::from("café"), &t), "café");
    // Text that is not NFC comes out NFC.
    let bytes = [0xa6, b'c', b'a', b'f', b'e', 0xcc, 0x81];
    assert_eq!(msgpack::decode_as::<String>(&bytes, &t).unwrap(), "café");
    // Borrowed from the input where it allows.
    let bytes = msgpack::encode(&Value::from("web"), &t).unwrap();
    let s: &str = msgpack::decode_as(&bytes, &t).unwrap();
    assert_eq!(s, "web");
    #[derive(Deserialize)]
    struct Named<'a> {
        #[serde(borrow)]
        name: Cow<'a, str>,
    }
    let t2 = ty("object({name=string})");
    let bytes = msgpack::encode(&Value::object([("name", Value::from("web"))]), &t2).unwrap();
    let named: Named = msgpack::decode_as(&bytes, &t2).unwrap();
    assert!(matches!(named.name, Cow::Borrowed("web")));
    let named: Named = json::decode_as(br#"{"name": "w\u0065b"}"#, &t2).unwrap();
    assert!(matches!(named.name, Cow::Owned(_)));
    assert_eq!(named.name, "web");
    // Non-NFC text written from Rust is normalized as the codec normalizes it.
    assert_eq!(
        msgpack::encode_from("cafe\u{301}", &t).unwrap(),
        msgpack::encode(&Value::from("café"), &t).unwrap()
    );
}

#[test]
fn numbers_into_every_width_without_rounding() {
    let n = Type::Number;
    assert_eq!(through::<u8>(&Value::from(255), &n), 255);
    assert_eq!(through::<i8>(&Value::from(-128), &n), -128);
    assert_eq!(through::<u64>(&Value::from(u64::MAX), &n), u64::MAX);
    assert_eq!(through::<i64>(&Value::from(i64::MIN), &n), i64::MIN);
    assert_eq!(through::<i128>(&Value::from(-5), &n), -5);
    assert_eq!(through::<f64>(&Value::try_from(0.1).unwrap(), &n), 0.1);
    assert_eq!(through::<f32>(&Value::try_from(0.5).unwrap(), &n), 0.5);
    let big = Value::Number("1180591620717411303424".parse().unwrap()); // 2^70
    assert_eq!(through::<u128>(&big, &n), 1_180_591_620_717_411_303_424u128);
    // Errors, never rounding.
    assert_eq!(
        msgpack_error::<i64>(&big, &n),
        "expected i64 (an integer from -9223372036854775808 to 9223372036854775807), found 1180591620717411303424 at byte 0"
    );
    assert_eq!(
        msgpack_error::<u32>(&Value::try_from(1.5).unwrap(), &n),
        "expected u32 (an integer from 0 to 4294967295), found 1.5 at byte 0"
    );
    assert_eq!(
        msgpack_error::<u8>(&Value::from(256), &n),
        "expected u8 (an integer from 0 to 255), found 256 at byte 0"
    );
    assert_eq!(
        msgpack_error::<u8>(&Value::from(-1), &n),
        "expected u8 (an integer from 0 to 255), found -1 at byte 0"
    );
    // A float64 that is an integer is one.
    assert_eq!(through::<u16>(&Value::try_from(443.0).unwrap(), &n), 443);
}

/// A derived struct's integer fields, every width: the bounds read, and a number one
/// beyond them or not an integer is an error naming the field's path and the range, in
/// both formats.
#[cfg(feature = "derive")]
#[test]
fn derived_integer_fields_hold_their_range_and_say_it() {
    #[derive(ctywire::Object, Deserialize, Serialize, Debug, PartialEq, Default)]
    struct Widths {
        #[cty(required)]
        a_i8: i8,
        #[cty(required)]
        a_i16: i16,
        #[cty(required)]
        a_i32: i32,
        #[cty(required)]
        a_i64: i64,
        #[cty(required)]
        a_u8: u8,
        #[cty(required)]
        a_u16: u16,
        #[cty(required)]
        a_u32: u32,
        #[cty(required)]
        a_u64: u64,
        #[cty(optional)]
        a_i128: Option<i128>,
        #[cty(optional)]
        a_u128: Option<u128>,
    }
    use ctywire::object::Object;
    let t = Widths::cty_type();
    let zeros = Value::object(
        t.as_object()
            .unwrap()
            .names()
            .iter()
            .map(|name| (name, Value::from(0))),
    );
    let with = |name: &str, n: &str| {
        zeros
            .clone()
            .with_attribute(name, Value::Number(n.parse().unwrap()))
            .unwrap()
    };
    let decode = |v: &Value| {
        let bytes = msgpack::encode(v, &t).unwrap();
        let from_msgpack = msgpack::decode_object::<Widths>(&bytes);
        let from_json = json::decode_object::<Widths>(&json::encode(v, &t).unwrap());
        let via_decode_as = msgpack::decode_as::<Widths>(&bytes, &t);
        assert_eq!(
            from_msgpack
                .as_ref()
                .map_err(|e| (e.path().to_string(), e.message().to_owned())),
            from_json
                .as_ref()
                .map_err(|e| (e.path().to_string(), e.message().to_owned())),
        );
        assert_eq!(
            from_msgpack.as_ref().map_err(ToString::to_string),
            via_decode_as.as_ref().map_err(ToString::to_string),
        );
        from_msgpack
    };
    let cases: [(&str, &str, &str, &str, &str); 10] = [
        ("a_i8", "i8", "-128", "127", "-129"),
        ("a_i16", "i16", "-32768", "32767", "-32769"),
        ("a_i32", "i32", "-2147483648", "2147483647", "-2147483649"),
        (
            "a_i64",
            "i64",
            "-9223372036854775808",
            "9223372036854775807",
            "-9223372036854775809",
        ),
        ("a_u8", "u8", "0", "255", "-1"),
        ("a_u16", "u16", "0", "65535", "-1"),
        ("a_u32", "u32", "0", "4294967295", "-1"),
        ("a_u64", "u64", "0", "18446744073709551615", "-1"),
        (
            "a_i128",
            "i128",
            "-170141183460469231731687303715884105728",
            "170141183460469231731687303715884105727",
            "-170141183460469231731687303715884105729",
        ),
        (
            "a_u128",
            "u128",
            "0",
            "340282366920938463463374607431768211455",
            "-1",
        ),
    ];
    for (field, width, least, greatest, below) in cases {
        for n in [least, greatest] {
            let v = with(field, n);
            let got = decode(&v).unwrap_or_else(|e| panic!("{field} = {n}: {e}"));
            let back = msgpack::encode_object(&got).unwrap();
            assert_eq!(back, msgpack::encode(&v, &t).unwrap(), "{field} = {n}");
        }
        let one_more = {
            // The greatest value plus one: each greatest value ends in a digit below 9.
            let mut digits: Vec<u8> = greatest.bytes().collect();
            let last = digits.len() - 1;
            digits[last] += 1;
            String::from_utf8(digits).unwrap()
        };
        for n in [below, one_more.as_str(), "1.5", "-0.5", "1e-3"] {
            let err = decode(&with(field, n)).unwrap_err();
            assert_eq!(err.path().to_string(), format!(".{field}"), "{field} = {n}");
            assert_eq!(err.kind(), ErrorKind::InvalidValue, "{field} = {n}");
            let found: Number = n.parse().unwrap();
            assert_eq!(
                err.message(),
                format!("expected {width} (an integer from {least} to {greatest}), found {found}"),
                "{field} = {n}"
            );
        }
    }
}

/// Every MessagePack integer form (8 to 64 bits, signed or not, canonical or not) is
/// read into every integer type as the value decoder reads it, fitting or not.
#[test]
fn integers_in_every_wire_form_into_every_width() {
    fn same<T>(bytes: &[u8])
    where
        T: DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        let n = Type::Number;
        let bridge = msgpack::decode_as::<T>(bytes, &n).map_err(|e| e.to_string());
        let via_value = msgpack::decode(bytes, &n)
            .and_then(|v| from_value::<T>(&v, &n))
            .map_err(|e| format!("{e} at byte 0"));
        assert_eq!(bridge, via_value, "{bytes:02x?}");
    }
    let forms: &[&[u8]] = &[
        &[0xcc, 0xff],
        &[0xcd, 0x01, 0x00],
        &[0xce, 0xff, 0xff, 0xff, 0xff],
        &[0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        &[0xcf, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        &[0xcf, 0, 0, 0, 0, 0, 0, 0, 5],
        &[0xd0, 0x80],
        &[0xd0, 0x05],
        &[0xd1, 0xff, 0x7f],
        &[0xd2, 0x80, 0, 0, 0],
        &[0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0],
        &[0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        &[0xd3, 0, 0, 0, 0, 0, 0, 1, 0],
    ];
    for bytes in forms {
        same::<u8>(bytes);
        same::<i8>(bytes);
        same::<u16>(bytes);
        same::<i16>(bytes);
        same::<u32>(bytes);
        same::<i32>(bytes);
        same::<u64>(bytes);
        same::<i64>(bytes);
        same::<u128>(bytes);
        same::<i128>(bytes);
        same::<f64>(bytes);
    }
    // Cut short: the decoder's error, not a fast path's.
    for bytes in [&[0xcd, 0x01][..], &[0xd3, 0, 0, 0][..]] {
        let e = msgpack::decode_as::<u64>(bytes, &Type::Number).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::UnexpectedEof, "{e}");
    }
    assert_eq!(
        msgpack::decode_as::<i16>(&[0xd2, 0x80, 0, 0, 0], &Type::Number)
            .unwrap_err()
            .to_string(),
        "expected i16 (an integer from -32768 to 32767), found -2147483648 at byte 0"
    );
}

#[test]
fn numbers_into_number_and_bigdecimal_exactly() {
    let n = Type::Number;
    // Decimal text stays decimal: written back as the string "0.1", not a float64.
    let decimal = Value::Number("0.1".parse().unwrap());
    let got: Number = through(&decimal, &n);
    assert!(!got.is_float_origin());
    let float = Value::try_from(0.1).unwrap();
    let got: Number = through(&float, &n);
    assert!(got.is_float_origin());
    let long = Value::Number(
        "3.1415926535897932384626433832795028841971693993751"
            .parse()
            .unwrap(),
    );
    let got: BigDecimal = through(&long, &n);
    assert_eq!(
        got.to_string(),
        "3.1415926535897932384626433832795028841971693993751"
    );
    let got: BigDecimal = through(&decimal, &n);
    assert_eq!(got.to_string(), "0.1");
    let got: BigDecimal = through(&Value::from(42), &n);
    assert_eq!(got, BigDecimal::from(42));
    // A number position read as a string gives the number's text.
    assert_eq!(through::<String>(&long, &n).len(), 51);
}

#[test]
fn lists_tuples_and_arrays() {
    let t = ty("list(number)");
    let v = Value::list([1, 2, 3].map(Value::from));
    assert_eq!(through::<Vec<u32>>(&v, &t), [1, 2, 3]);
    assert_eq!(through::<[u8; 3]>(&v, &t), [1, 2, 3]);
    let t = ty("tuple([string, number, bool])");
    let v = Value::tuple([Value::from("a"), Value::from(1), Value::from(true)]);
    assert_eq!(
        through::<(String, u8, bool)>(&v, &t),
        ("a".to_owned(), 1, true)
    );
    // A Rust tuple of another length is an error.
    let bytes = msgpack::encode(
        &Value::list([1, 2, 3].map(Value::from)),
        &ty("list(number)"),
    )
    .unwrap();
    let err = msgpack::decode_as::<(u8, u8)>(&bytes, &ty("list(number)")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the Rust type took fewer elements than there are: 1 left over at byte 0"
    );
    let err = msgpack::encode_from(&("a", 1), &ty("tuple([string, number, bool])")).unwrap_err();
    assert_eq!(err.to_string(), "expected a tuple of 3 elements, found 2");
}

#[test]
fn sets_in_go_cty_order_whatever_the_rust_order() {
    let t = ty("set(string)");
    let v = Value::set(["sg-b", "sg-a", "sg-c"].map(Value::from));
    assert_eq!(through::<Vec<String>>(&v, &t), ["sg-a", "sg-b", "sg-c"]);
    let set: BTreeSet<String> = through(&v, &t);
    assert_eq!(set.len(), 3);
    let set: HashSet<String> = through(&v, &t);
    assert!(set.contains("sg-b"));
    // Any Rust order, duplicates dropped as in a cty set.
    let rust = vec!["sg-c", "sg-a", "sg-b", "sg-a"];
    assert_eq!(
        msgpack::encode_from(&rust, &t).unwrap(),
        msgpack::encode(&v, &t).unwrap()
    );
    // Sets of objects go in go-cty's hash-string order.
    #[derive(Serialize, Deserialize, Debug, PartialEq, Eq, Hash)]
    struct Rule {
        port: u16,
        protocol: String,
    }
    let t = ty("set(object({port=number, protocol=string}))");
    let rules = vec![
        Rule {
            port: 80,
            protocol: "tcp".into(),
        },
        Rule {
            port: 443,
            protocol: "tcp".into(),
        },
        Rule {
            port: 53,
            protocol: "udp".into(),
        },
    ];
    let bytes = msgpack::encode_from(&rules, &t).unwrap();
    let v = msgpack::decode(&bytes, &t).unwrap();
    assert_eq!(
        bytes,
        msgpack::encode(&to_value(&rules, &t).unwrap(), &t).unwrap()
    );
    let back: HashSet<Rule> = through(&v, &t);
    assert_eq!(back.len(), 3);
}

#[test]
fn maps_into_hashmap_btreemap_and_structs() {
    let t = ty("map(string)");
    let v = Value::map([("b", Value::from("2")), ("a", Value::from("1"))]);
    let m: HashMap<String, String> = through(&v, &t);
    assert_eq!(m["a"], "1");
    let m: BTreeMap<String, String> = through(&v, &t);
    assert_eq!(m.keys().collect::<Vec<_>>(), ["a", "b"]);
    // A struct reads a map by key.
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Tags {
        a: String,
        b: String,
    }
    assert_eq!(through::<Tags>(&v, &t).b, "2");
    // Keys equal once normalized are one key twice.
    let m = HashMap::from([("é".to_owned(), "1"), ("e\u{301}".to_owned(), "2")]);
    let err = msgpack::encode_from(&m, &t).unwrap_err();
    assert_eq!(
        err.to_string(),
        "[\"é\"]: key written twice (after NFC normalization)"
    );
    // A duplicate key in the input is an error, as in the decoder.
    let bytes = [0x82, 0xa1, b'a', 0xa1, b'1', 0xa1, b'a', 0xa1, b'2'];
    let err = msgpack::decode_as::<HashMap<String, String>>(&bytes, &t).unwrap_err();
    assert_eq!(err.to_string(), "[\"a\"]: duplicate map key at byte 5");
    assert_eq!(
        msgpack::decode(&bytes, &t).unwrap_err().to_string(),
        err.to_string()
    );
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Renamed {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    count: u32,
    #[serde(skip)]
    cache: Option<String>,
    #[serde(flatten)]
    timeouts: Timeouts,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Timeouts {
    create: Option<String>,
    delete: Option<String>,
}

#[test]
fn serde_attributes_are_honoured() {
    let t = ty("object({type=string, count=number, create=string, delete=string})");
    let v = Value::object([
        ("type", Value::from("ssd")),
        ("count", Value::from(2)),
        ("create", Value::from("10m")),
        ("delete", Value::Null),
    ]);
    let r: Renamed = through(&v, &t);
    assert_eq!(r.kind, "ssd");
    assert_eq!(r.timeouts.create.as_deref(), Some("10m"));
    assert_eq!(r.cache, None);
    // `default`: an attribute that JSON leaves out.
    let r: Renamed = json::decode_as(br#"{"type": "hdd"}"#, &t).unwrap();
    assert_eq!((r.count, r.timeouts.delete), (0, None));
    // `skip_serializing_if`: an attribute the struct leaves out is null.
    #[derive(Serialize)]
    struct Sparse {
        a: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        b: Option<String>,
    }
    let t = ty("object({a=string, b=string})");
    let sparse = Sparse {
        a: "x".into(),
        b: None,
    };
    assert_eq!(
        msgpack::encode_from(&sparse, &t).unwrap(),
        msgpack::encode(
            &Value::object([("a", Value::from("x")), ("b", Value::Null)]),
            &t
        )
        .unwrap()
    );
}

#[test]
fn struct_fields_and_attributes_must_agree() {
    #[derive(Deserialize, Serialize, Debug)]
    #[serde(deny_unknown_fields)]
    struct Strict {
        a: String,
    }
    #[derive(Deserialize, Serialize, Debug)]
    struct Lax {
        a: String,
    }
    #[derive(Deserialize, Serialize, Debug)]
    struct Typo {
        a: String,
        nmae: Option<String>,
    }
    let t = ty("object({a=string, name=string})");
    let v = Value::object([("a", Value::from("x")), ("name", Value::from("y"))]);
    assert_eq!(
        msgpack_error::<Strict>(&v, &t),
        ".name: attribute \"name\" has no field in the struct (fields: [\"a\"]) at byte 5"
    );
    assert_eq!(through_lax(&v, &t).a, "x");
    assert_eq!(
        msgpack_error::<Typo>(&v, &t),
        ".nmae: the struct has this field, but the object type has no such attribute at byte 0"
    );
    let typo = Typo {
        a: "x".into(),
        nmae: None,
    };
    assert_eq!(
        msgpack::encode_from(&typo, &t).unwrap_err().to_string(),
        ".nmae: the struct has this field, but the object type has no such attribute"
    );

    fn through_lax(v: &Value, t: &Type) -> Lax {
        msgpack::decode_as(&msgpack::encode(v, t).unwrap(), t).unwrap()
    }
}

#[test]
fn unknowns_need_known() {
    #[derive(Deserialize, Debug)]
    struct Plain {
        #[allow(dead_code)]
        disk: Vec<Disk>,
    }
    #[derive(Deserialize, Debug)]
    struct Disk {
        #[allow(dead_code)]
        size: Option<u32>,
    }
    let t = ty("object({disk=list(object({size=number}))})");
    let v = Value::object([(
        "disk",
        Value::list([
            Value::object([("size", Value::from(1))]),
            Value::object([("size", Value::unknown())]),
        ]),
    )]);
    let message = msgpack_error::<Plain>(&v, &t);
    assert_eq!(
        message,
        ".disk[1].size: expected a known value, found an unknown one (a value that may be unknown needs ctywire::Known<T>) at byte 20"
    );
    let err = from_value::<Plain>(&v, &t).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TypeMismatch);
    assert_eq!(err.path().to_string(), ".disk[1].size");
}

#[test]
fn known_keeps_refinements_both_ways() {
    let t = Type::String;
    let r = Refinements::new().not_null().with_string_prefix("arn:");
    let v = Value::Unknown(r.clone());
    let k: Known<String> = through(&v, &t);
    assert_eq!(k, Known::Unknown(r));
    assert_eq!(through::<Known<String>>(&Value::Null, &t), Known::Null);
    assert_eq!(
        through::<Known<String>>(&Value::from("x"), &t),
        Known::Known("x".to_owned())
    );
    let t = Type::Number;
    let r = Refinements::new()
        .not_null()
        .with_number_lower_bound(Number::from(1), true)
        .with_number_upper_bound(Number::from(64), false);
    let k: Known<u8> = through(&Value::Unknown(r.clone()), &t);
    assert_eq!(k.refinements(), Some(&r));
    // An unknown list of exactly two elements is a list of two unknowns.
    let t = ty("list(string)");
    let r = Refinements::new()
        .not_null()
        .with_length_lower_bound(2)
        .with_length_upper_bound(2);
    let bytes = msgpack::encode(&Value::Unknown(r), &t).unwrap();
    let k: Known<Vec<Known<String>>> = msgpack::decode_as(&bytes, &t).unwrap();
    assert_eq!(k, Known::Known(vec![Known::unknown(), Known::unknown()]));
    // An unknown that is definitely null is null.
    let r = Refinements::new().with_nullness(Some(true));
    let bytes = [0xc7, 0x03, 0x0c, 0x81, 0x01, 0xc3];
    assert_eq!(
        msgpack::decode_as::<Known<String>>(&bytes, &Type::String).unwrap(),
        Known::Null
    );
    let _ = r;
    // Known<T> in other formats: an Option<T>, and unknowns cannot be written.
    assert_eq!(serde_json::to_string(&Known::Known(5)).unwrap(), "5");
    assert_eq!(serde_json::to_string(&Known::<u8>::Null).unwrap(), "null");
    assert!(serde_json::to_string(&Known::<u8>::unknown()).is_err());
    assert_eq!(
        serde_json::from_str::<Known<u8>>("7").unwrap(),
        Known::Known(7)
    );
    assert_eq!(
        serde_json::from_str::<Known<u8>>("null").unwrap(),
        Known::Null
    );
}

#[test]
fn value_fields_keep_their_concrete_type() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Extension {
        name: String,
        settings: Value,
    }
    let t = ty("object({name=string, settings=any})");
    let settings = Value::typed(
        ty("object({retain=number, schedule=string})"),
        Value::object([
            ("retain", Value::from(7)),
            ("schedule", Value::from("daily")),
        ]),
    );
    let v = Value::object([
        ("name", Value::from("backup")),
        ("settings", settings.clone()),
    ]);
    let e: Extension = through(&v, &t);
    assert_eq!(e.settings, settings);
    // A typed null keeps its type too.
    let v = Value::object([
        ("name", Value::from("x")),
        ("settings", Value::typed(Type::String, Value::Null)),
    ]);
    let e: Extension = through(&v, &t);
    assert_eq!(e.settings.recorded_type(), Some(&Type::String));
    // A Rust value at a dynamic position gets the type the encoder infers.
    #[derive(Serialize)]
    struct Meta {
        owner: String,
        cost: u32,
    }
    let meta = Meta {
        owner: "alice".into(),
        cost: 3,
    };
    let bytes = msgpack::encode_from(&meta, &Type::Dynamic).unwrap();
    let back = msgpack::decode(&bytes, &Type::Dynamic).unwrap();
    assert_eq!(
        back.recorded_type().unwrap().to_expr(),
        "object({cost=number,owner=string})"
    );
    // And reads back from one.
    #[derive(Deserialize)]
    struct MetaBack {
        owner: String,
    }
    let m: MetaBack = msgpack::decode_as(&bytes, &Type::Dynamic).unwrap();
    assert_eq!(m.owner, "alice");
}

#[test]
fn value_and_number_in_other_formats() {
    let v = Value::object([("a", Value::list([Value::from(1), Value::from("x")]))]);
    let text = serde_json::to_string(&v).unwrap();
    assert_eq!(text, r#"{"a":[1,"x"]}"#);
    let back: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        back,
        Value::object([("a", Value::tuple([Value::from(1), Value::from("x")]))])
    );
    let n: Number = serde_json::from_str("12.5").unwrap();
    assert_eq!(n.to_string(), "12.5");
    assert!(serde_json::to_string(&Value::unknown()).is_err());
}

#[test]
fn enums_as_strings_and_single_entry_maps() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "lowercase")]
    enum Mode {
        Fast,
        Slow,
    }
    assert_eq!(
        through::<Mode>(&Value::from("slow"), &Type::String),
        Mode::Slow
    );
    let err = msgpack_error::<Mode>(&Value::from("medium"), &Type::String);
    assert!(err.contains("unknown variant `medium`"), "{err}");
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    enum Source {
        Image(String),
        Snapshot(String),
    }
    let t = ty("map(string)");
    let v = Value::map([("Snapshot", Value::from("snap-1"))]);
    assert_eq!(through::<Source>(&v, &t), Source::Snapshot("snap-1".into()));
}

#[test]
fn nested_blocks_by_nesting_mode() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Resource {
        disk: Vec<Disk>,              // LIST
        ingress: BTreeSet<Rule>,      // SET
        label: BTreeMap<String, Lbl>, // MAP
        timeouts: Option<Timeouts>,   // SINGLE
        monitoring: Monitoring,       // GROUP
    }
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Disk {
        size: u32,
    }
    #[derive(Serialize, Deserialize, Debug, PartialEq, Eq, PartialOrd, Ord)]
    struct Rule {
        port: u16,
    }
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Lbl {
        value: String,
    }
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Monitoring {
        enabled: Option<bool>,
    }
    let t = ty("object({disk=list(object({size=number})), ingress=set(object({port=number})), label=map(object({value=string})), timeouts=object({create=string, delete=string}), monitoring=object({enabled=bool})})");
    let v = Value::object([
        (
            "disk",
            Value::list([Value::object([("size", Value::from(10))])]),
        ),
        (
            "ingress",
            Value::set([443, 80].map(|p| Value::object([("port", Value::from(p))]))),
        ),
        (
            "label",
            Value::map([("env", Value::object([("value", Value::from("prod"))]))]),
        ),
        ("timeouts", Value::Null),
        ("monitoring", Value::object([("enabled", Value::Null)])),
    ]);
    let r: Resource = through(&v, &t);
    assert_eq!(r.ingress.len(), 2);
    assert_eq!(r.label["env"].value, "prod");
}

#[test]
fn errors_carry_paths_and_positions() {
    #[derive(Deserialize, Debug)]
    struct Outer {
        #[allow(dead_code)]
        items: Vec<Inner>,
    }
    #[derive(Deserialize, Debug)]
    struct Inner {
        #[allow(dead_code)]
        size: u8,
    }
    let t = ty("object({items=list(object({size=number}))})");
    let text = b"{\"items\": [\n  {\"size\": 1},\n  {\"size\": \"x\"}\n]}";
    let err = json::decode_as::<Outer>(text, &t).unwrap_err();
    assert_eq!(err.path().to_string(), ".items[1].size");
    assert_eq!(
        err.to_string(),
        ".items[1].size: invalid number \"x\" at line 3 column 12"
    );
    let err = json::decode_as::<Outer>(b"{\"items\": [{\"size\": 300}]}", &t).unwrap_err();
    assert_eq!(
        err.to_string(),
        ".items[0].size: expected u8 (an integer from 0 to 255), found 300 at line 1 column 21"
    );
    let err =
        msgpack::decode_as::<Outer>(&[0x81, 0xa5, b'i', b't', b'e', b'm', b's', 0x91, 0x81], &t)
            .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
    assert_eq!(err.path().to_string(), ".items[0]");
    // Trailing bytes, as in the decoder.
    let err = msgpack::decode_as::<u8>(&[0x01, 0x02], &Type::Number).unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected end of input, found 1 more bytes after the value at byte 1"
    );
}

/// Where `json::decode_as` differs from `json::decode` (the crate docs list both): an
/// attribute given twice is an error, and one left out is left to serde.
#[test]
fn json_attributes_repeated_or_left_out() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct S {
        a: Option<String>,
        b: Known<u8>,
        #[serde(default)]
        c: u8,
    }
    #[derive(Deserialize, Debug)]
    struct Required {
        #[allow(dead_code)]
        a: String,
    }
    let t = ty("object({a=string, b=number, c=number})");
    let text = br#"{"a": "x", "a": "y"}"#;
    assert_eq!(json::decode(text, &t).unwrap()["a"].as_str(), Some("y"));
    let err = json::decode_as::<S>(text, &t).unwrap_err();
    assert_eq!(
        err.to_string(),
        ".a: duplicate attribute (json::decode keeps the last; a struct cannot) at line 1 column 12"
    );
    let s: S = json::decode_as(b"{}", &t).unwrap();
    assert_eq!(
        s,
        S {
            a: None,
            b: Known::Null,
            c: 0
        }
    );
    let t = ty("object({a=string})");
    let err = json::decode_as::<Required>(b"{}", &t).unwrap_err();
    assert_eq!(
        err.to_string(),
        "missing attribute \"a\" at line 1 column 1"
    );
}

/// Where the Rust value is of another type than the position, `encode_from` writes what
/// `msgpack::encode` writes for the equivalent value, which it converts as go-cty's
/// `Marshal` does (a number or a bool where a string is wanted gives its text), and
/// fails where no conversion exists.
#[test]
fn written_values_convert_as_the_encoder_converts() {
    for (rust, value, t) in [
        (serde_json::json!(12), Value::from(12), Type::String),
        (serde_json::json!(true), Value::from(true), Type::String),
        (serde_json::json!("12"), Value::from("12"), Type::Number),
        (serde_json::json!("true"), Value::from("true"), Type::Bool),
    ] {
        assert_eq!(
            msgpack::encode_from(&rust, &t).unwrap(),
            msgpack::encode(&value, &t).unwrap(),
            "{rust} as {t}"
        );
        assert_eq!(
            json::encode_from(&rust, &t).unwrap(),
            json::encode(&value, &t).unwrap(),
            "{rust} as {t}"
        );
    }
    #[derive(Serialize)]
    struct Holder {
        a: Value,
    }
    let t = ty("object({a=string})");
    let holder = Holder { a: Value::from(12) };
    assert_eq!(
        msgpack::encode_from(&holder, &t).unwrap(),
        msgpack::encode(&Value::object([("a", Value::from(12))]), &t).unwrap()
    );
    assert!(msgpack::encode_from("x", &Type::Bool).is_err());
    assert!(msgpack::encode(&Value::from("x"), &Type::Bool).is_err());
}

/// A set holding `[-0]` and `[0]` keeps both, as go-cty does (their hash strings
/// differ), and both are written `[0]`; read back, they are one element. Through the
/// bridge, every step writes what `msgpack::encode` writes for the equivalent value:
/// two elements for the struct holding both, one for the struct read back (so that
/// `encode_from(decode_as(b))` is `b` only where `encode(decode(b))` is).
#[test]
fn negative_zero_in_a_set_written_as_the_encoder_writes_it() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Holder {
        meta: Value,
    }
    let holder_ty = ty("object({meta=any})");
    let set_ty = ty("set(tuple([number]))");
    let zero = |n: f64| Value::tuple([Value::Number(Number::from_f64(n).unwrap())]);
    let set = Value::set([zero(-0.0), zero(0.0)]);
    assert_eq!(set.as_slice().map(<[Value]>::len), Some(2));
    let holder = Holder {
        meta: Value::typed(set_ty.clone(), set.clone()),
    };
    let bytes = msgpack::encode_from(&holder, &holder_ty).unwrap();
    let equivalent = to_value(&holder, &holder_ty).unwrap();
    assert_eq!(bytes, msgpack::encode(&equivalent, &holder_ty).unwrap());
    // `{[0], [0]}` on the wire: the two elements written alike.
    let elements = [0x92, 0x91, 0x00, 0x91, 0x00];
    assert!(bytes.windows(5).any(|w| w == elements), "{bytes:?}");
    assert_eq!(
        msgpack::encode_from(&set, &set_ty).unwrap(),
        msgpack::encode(&set, &set_ty).unwrap()
    );
    // Read back, the two are one.
    let back: Holder = msgpack::decode_as(&bytes, &holder_ty).unwrap();
    let decoded = msgpack::decode(&bytes, &holder_ty).unwrap();
    assert_eq!(from_value::<Holder>(&decoded, &holder_ty).unwrap(), back);
    let again = msgpack::encode_from(&back, &holder_ty).unwrap();
    assert_eq!(again, msgpack::encode(&decoded, &holder_ty).unwrap());
    assert!(
        again.windows(3).any(|w| w == [0x91, 0x91, 0x00]),
        "{again:?}"
    );
}

/// JSON's `-0` is the integer 0 in an integer field, written `0` again; a `Number`
/// keeps it as `-0`, as the value decoder and encoder do.
#[test]
fn json_negative_zero_into_an_integer_is_zero() {
    let n = Type::Number;
    assert_eq!(json::decode_as::<u32>(b"-0", &n).unwrap(), 0);
    assert_eq!(json::encode_from(&0u32, &n).unwrap(), b"0");
    let kept: Number = json::decode_as(b"-0", &n).unwrap();
    assert!(kept.is_negative_zero());
    assert_eq!(json::encode_from(&kept, &n).unwrap(), b"-0");
    assert_eq!(
        json::encode(&json::decode(b"-0", &n).unwrap(), &n).unwrap(),
        b"-0"
    );
}

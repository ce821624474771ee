//! The bodies of ctywire's fuzz targets, one public function per target.
//!
//! Each target in `fuzz_targets/` is one line that calls the function of its name, and
//! the main crate's `tests/fuzz_corpus.rs` includes this file (`#[path]`) to replay the
//! committed corpora through the same functions on stable Rust, with no fuzzing tools.
//! So this file may use only `std` and `ctywire`'s public API.
//!
//! A function returns normally for any input the library handles correctly (an error
//! is a correct answer to bad input) and panics when an invariant breaks.
//!
//! Value targets read a type selector from the first byte of their input:
//!
//! - `0x00..=0x7f`: one of [`types`] (the byte modulo their number);
//! - `0x80..=0xfd`: a type given inline: the next byte is the length of type JSON that
//!   follows it, then the payload (so the fuzzer can vary types too, and corpus seeds
//!   can carry any vector's type);
//! - `0xfe`, `0xff`: the payload's implied type (`implied_type`).

use std::sync::OnceLock;

use ctywire::{json, msgpack, Type, Value};

/// Interesting types for the value targets: every kind, `dynamic` at every kind of
/// position, sets of objects and of collections (whose order and equality are the
/// subtle part), optional attributes, and an instance-like object.
pub fn types() -> &'static [Type] {
    static TYPES: OnceLock<Vec<Type>> = OnceLock::new();
    TYPES.get_or_init(|| {
        [
            "any",
            "bool",
            "number",
            "string",
            "list(string)",
            "list(number)",
            "list(any)",
            "list(list(any))",
            "set(string)",
            "set(number)",
            "set(bool)",
            "set(any)",
            "set(object({a=string,b=number}))",
            "set(object({a=any}))",
            "set(list(string))",
            "set(set(number))",
            "map(string)",
            "map(any)",
            "map(list(number))",
            "object({})",
            "object({a=string,b=number,c=bool})",
            "object({a=list(object({b=any})),c=map(string)})",
            "object({a=string,b=optional(number)})",
            "tuple([])",
            "tuple([string,number,any])",
            "list(tuple([any,any]))",
            "map(object({a=set(string),b=tuple([any])}))",
            "list(object({id=string,tags=map(string),ports=set(number),disks=list(object({size=number,kind=string}))}))",
        ]
        .iter()
        .map(|t| Type::parse_expr(t).expect("fuzz type parses"))
        .collect()
    })
}

/// The type a value target's input selects, and the payload after the selector.
/// `None` for the implied type; no result for inputs too short or an inline type that
/// does not parse.
pub fn select(data: &[u8]) -> Option<(Option<Type>, &[u8])> {
    let (&selector, rest) = data.split_first()?;
    match selector {
        0x00..=0x7f => Some((
            Some(types()[usize::from(selector) % types().len()].clone()),
            rest,
        )),
        0x80..=0xfd => {
            let (&len, rest) = rest.split_first()?;
            let (type_json, payload) = rest.split_at_checked(usize::from(len))?;
            let ty = Type::from_json_bytes(type_json).ok()?;
            Some((Some(ty), payload))
        }
        0xfe | 0xff => Some((None, rest)),
    }
}

/// The selector bytes for `ty` given inline (see [`select`]), if its type JSON fits in
/// 255 bytes: what corpus seeds start with.
pub fn inline_selector(ty: &Type) -> Option<Vec<u8>> {
    let json = ty.to_json();
    let len = u8::try_from(json.len()).ok()?;
    let mut out = vec![0x80, len];
    out.extend_from_slice(json.as_bytes());
    Some(out)
}

/// `msgpack_decode`: decode MessagePack with the selected type (or its implied type).
/// What decodes must encode again in MessagePack; JSON may refuse only unknowns and
/// infinities.
pub fn msgpack_decode(data: &[u8]) {
    let Some((ty, payload)) = select(data) else {
        return;
    };
    let ty = match ty {
        Some(ty) => ty,
        None => match msgpack::implied_type(payload) {
            Ok(ty) => ty,
            Err(_) => return,
        },
    };
    if let Ok(v) = msgpack::decode(payload, &ty) {
        if let Err(e) = msgpack::encode(&v, &ty) {
            panic!("a decoded value does not encode: {e}\nvalue: {v:?}\ntype: {ty}");
        }
        json_encode_or_refuse(&v, &ty);
    }
}

/// `json_decode`: decode JSON with the selected type (or its implied type). What
/// decodes must encode again, in both formats (there are no unknowns in JSON; numbers
/// given as the string "Inf" are infinities, which JSON cannot write).
pub fn json_decode(data: &[u8]) {
    let Some((ty, payload)) = select(data) else {
        return;
    };
    let decoded = match ty {
        Some(ty) => json::decode(payload, &ty).map(|v| (ty, v)),
        None => json::decode_implied(payload),
    };
    if let Ok((ty, v)) = decoded {
        if let Err(e) = msgpack::encode(&v, &ty) {
            panic!("a decoded value does not encode: {e}\nvalue: {v:?}\ntype: {ty}");
        }
        json_encode_or_refuse(&v, &ty);
    }
}

/// `type_json`: parse type JSON. A type that parses prints as type JSON and as a type
/// expression that both parse back to it, and printing is stable.
pub fn type_json(data: &[u8]) {
    if let Ok(ty) = Type::from_json_bytes(data) {
        check_type(&ty);
    }
}

/// `type_expr`: parse a type expression (the input as UTF-8, lossily), and through
/// `FromStr`, which takes type JSON or an expression. A type that parses prints back as
/// both forms, which parse to it.
pub fn type_expr(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(ty) = Type::parse_expr(&text) {
        check_type(&ty);
    }
    if let Ok(ty) = text.parse::<Type>() {
        check_type(&ty);
    }
}

fn check_type(ty: &Type) {
    let json = ty.to_json();
    match Type::from_json(&json) {
        Ok(back) => assert_eq!(&back, ty, "type JSON {json} parses to another type"),
        Err(e) => panic!("type JSON {json} of {ty:?} does not parse: {e}"),
    }
    let expr = ty.to_expr();
    match Type::parse_expr(&expr) {
        Ok(back) => {
            assert_eq!(&back, ty, "type expression {expr} parses to another type");
            assert_eq!(back.to_expr(), expr, "printing {expr} is not stable");
        }
        Err(e) => panic!("type expression {expr} of {json} does not parse: {e}"),
    }
}

/// `roundtrip`: decode -> encode -> decode. The payload is decoded as MessagePack and,
/// separately, as JSON, with the selected type. For each value that decodes:
///
/// - it encodes (MessagePack always; JSON unless it holds an unknown or an infinity),
///   the encoding decodes, and encoding that again gives the same bytes;
/// - the second decode equals the first, except where the first holds a refinement
///   the encoder deliberately narrows (a string prefix over 256 bytes is cut, as by
///   go-cty; a length upper bound past 2^63 - 1 becomes 2^63 - 1);
/// - a value from MessagePack also goes through JSON and back (when JSON can hold it),
///   and one from JSON through MessagePack, and comes back equal. (Except a float64
///   integer of 2^53 or more: JSON has its shortest digits, `9223372036854776000` for
///   2^63, which read back as that decimal, a different number, as in go-cty.)
pub fn roundtrip(data: &[u8]) {
    let Some((Some(ty), payload)) = select(data) else {
        return;
    };
    if let Ok(v) = msgpack::decode(payload, &ty) {
        let again = msgpack_roundtrip(&v, &ty);
        if !narrowed_by_encoding(&v) && !has_negative_zero(&v) {
            assert_eq!(
                again, v,
                "msgpack decode -> encode -> decode changed the value"
            );
        }
        if let Some(from_json) = json_roundtrip(&v, &ty) {
            if !has_long_float_integer(&v) {
                assert_eq!(
                    from_json, v,
                    "msgpack -> value -> JSON -> value changed the value"
                );
            }
        }
    }
    if let Ok(v) = json::decode(payload, &ty) {
        if let Some(again) = json_roundtrip(&v, &ty) {
            assert_eq!(
                again, v,
                "JSON decode -> encode -> decode changed the value"
            );
        }
        let from_msgpack = msgpack_roundtrip(&v, &ty);
        if !has_negative_zero(&v) {
            assert_eq!(
                from_msgpack, v,
                "JSON -> value -> msgpack -> value changed the value"
            );
        }
    }
}

/// Encodes `v` as MessagePack, decodes that, and checks that encoding is then stable;
/// returns the second decode.
fn msgpack_roundtrip(v: &Value, ty: &Type) -> Value {
    let once = msgpack::encode(v, ty)
        .unwrap_or_else(|e| panic!("a decoded value does not encode: {e}\nvalue: {v:?}"));
    let again = msgpack::decode(&once, ty)
        .unwrap_or_else(|e| panic!("its encoding does not decode: {e}\nbytes: {}", hex(&once)));
    let twice = msgpack::encode(&again, ty)
        .unwrap_or_else(|e| panic!("a re-decoded value does not encode: {e}"));
    // A set holding both 0 and -0 keeps both (go-cty hashes them apart) but MessagePack
    // writes -0 as the integer 0, so the re-decoded set has one element: go-cty's
    // behaviour too (vectors/ctywire/sets.json, zero-and-negative-zero-both-kept).
    assert!(
        twice == once || has_negative_zero(v),
        "re-encoding is not stable: {} then {}",
        hex(&once),
        hex(&twice)
    );
    again
}

/// Whether a float64 -0 appears anywhere in `v`.
fn has_negative_zero(v: &Value) -> bool {
    match v.untyped() {
        Value::Number(n) => n.is_negative_zero(),
        Value::List(vs) | Value::Tuple(vs) => vs.iter().any(has_negative_zero),
        Value::Set(s) => s.iter().any(has_negative_zero),
        Value::Map(m) => m.values().any(has_negative_zero),
        Value::Object(o) => o.values().iter().any(has_negative_zero),
        _ => false,
    }
}

/// Encodes `v` as JSON (when JSON can hold it), decodes that, and checks that encoding
/// is then stable; returns the second decode.
fn json_roundtrip(v: &Value, ty: &Type) -> Option<Value> {
    let once = json_encode_or_refuse(v, ty)?;
    let again = json::decode(&once, ty).unwrap_or_else(|e| {
        panic!(
            "its JSON encoding does not decode: {e}\ntext: {}",
            String::from_utf8_lossy(&once)
        )
    });
    let twice = json::encode(&again, ty)
        .unwrap_or_else(|e| panic!("a re-decoded value does not encode as JSON: {e}"));
    assert!(
        twice == once,
        "JSON re-encoding is not stable: {} then {}",
        String::from_utf8_lossy(&once),
        String::from_utf8_lossy(&twice)
    );
    Some(again)
}

/// Encodes a decoded value as JSON: the text, or `None` when the value holds an unknown
/// or an infinity, the only things JSON cannot write.
fn json_encode_or_refuse(v: &Value, ty: &Type) -> Option<Vec<u8>> {
    match json::encode(v, ty) {
        Ok(text) => Some(text),
        Err(e)
            if e.message() == "value is not known"
                || e.message() == "cannot serialize infinity as JSON" =>
        {
            None
        }
        Err(e) => panic!("a decoded value does not encode as JSON: {e}\nvalue: {v:?}"),
    }
}

/// Whether `v` holds a refinement the MessagePack encoder deliberately narrows, so that
/// decoding its encoding gives a different (less refined) value.
fn narrowed_by_encoding(v: &Value) -> bool {
    match v.untyped() {
        Value::Unknown(r) => {
            r.prefix().is_some_and(|p| p.len() > 256)
                || r.length_upper().is_some_and(|n| n > i64::MAX as u64)
        }
        Value::List(vs) | Value::Tuple(vs) => vs.iter().any(narrowed_by_encoding),
        Value::Set(s) => s.iter().any(narrowed_by_encoding),
        Value::Map(m) => m.values().any(narrowed_by_encoding),
        Value::Object(o) => o.values().iter().any(narrowed_by_encoding),
        _ => false,
    }
}

/// Whether `v` holds a number from a float64 that is an integer of 2^53 or more in
/// magnitude, whose JSON text (shortest digits) is another number.
fn has_long_float_integer(v: &Value) -> bool {
    match v.untyped() {
        Value::Number(n) => {
            n.is_float_origin() && n.is_integer() && n.to_f64().abs() >= 2f64.powi(53)
        }
        Value::List(vs) | Value::Tuple(vs) => vs.iter().any(has_long_float_integer),
        Value::Set(s) => s.iter().any(has_long_float_integer),
        Value::Map(m) => m.values().any(has_long_float_integer),
        Value::Object(o) => o.values().iter().any(has_long_float_integer),
        _ => false,
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

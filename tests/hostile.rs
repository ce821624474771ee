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
    bytes.insert(0, 0x91);
    let err = msgpack::decode(&bytes, &Type::list(ty)).unwrap_err();
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

//! `transcode::msgpack_to_json`: byte for byte and error for error what decoding the
//! MessagePack and encoding the value as JSON give, for generated types and values (as
//! go-cty writes them, reordered, and damaged) and for every real payload of the
//! repository under every type it could have.

use std::path::{Path, PathBuf};

use ctywire::schema::ProviderSchemas;
use ctywire::{json, msgpack, transcode, Type};
use proptest::prelude::*;

use super::properties::typed_value;

/// The two steps the transcoder stands for: their JSON text, or their error.
fn two_steps(input: &[u8], ty: &Type) -> Result<Vec<u8>, String> {
    msgpack::decode(input, ty)
        .and_then(|v| json::encode(&v, ty))
        .map_err(|e| e.to_string())
}

fn transcoded(input: &[u8], ty: &Type) -> Result<Vec<u8>, String> {
    transcode::msgpack_to_json(input, ty).map_err(|e| e.to_string())
}

/// Compares the two, with the text of both when they differ.
fn check(input: &[u8], ty: &Type) -> Result<(), TestCaseError> {
    let want = two_steps(input, ty);
    let got = transcoded(input, ty);
    let show = |r: &Result<Vec<u8>, String>| match r {
        Ok(bytes) => String::from_utf8_lossy(bytes).into_owned(),
        Err(e) => format!("error: {e}"),
    };
    prop_assert!(
        got == want,
        "type {ty}, input {input:02x?}\ntranscoded: {}\ntwo steps:  {}",
        show(&got),
        show(&want)
    );
    Ok(())
}

/// The MessagePack item `v` with every map's entries (objects', maps') in reverse
/// order, or every array's elements (lists', sets', tuples', dynamic wrappers').
fn reversed(v: rmpv::Value, maps: bool) -> rmpv::Value {
    match v {
        rmpv::Value::Map(mut entries) => {
            if maps {
                entries.reverse();
            }
            rmpv::Value::Map(
                entries
                    .into_iter()
                    .map(|(k, v)| (k, reversed(v, maps)))
                    .collect(),
            )
        }
        rmpv::Value::Array(mut items) => {
            if !maps {
                items.reverse();
            }
            rmpv::Value::Array(items.into_iter().map(|v| reversed(v, maps)).collect())
        }
        v => v,
    }
}

proptest! {
    #![proptest_config(crate::behaviour::proptest_config(1024))]

    /// What go-cty writes (unknowns and all).
    #[test]
    fn transcoding_is_decoding_then_encoding((ty, value) in typed_value(false)) {
        check(&msgpack::encode(&value, &ty).unwrap(), &ty)?;
    }

    /// Maps and objects with their entries in reverse order, arrays (sets, lists, tuples)
    /// reversed: the decoder sorts, refuses or reads them in its own way.
    #[test]
    fn reordered_payloads((ty, value) in typed_value(false), maps in any::<bool>()) {
        let bytes = msgpack::encode(&value, &ty).unwrap();
        let item = rmpv::decode::read_value(&mut bytes.as_slice()).unwrap();
        let mut reordered = Vec::new();
        rmpv::encode::write_value(&mut reordered, &reversed(item, maps)).unwrap();
        check(&reordered, &ty)?;
    }

    /// Damaged payloads: bytes replaced, the payload cut short or given more.
    #[test]
    fn damaged_payloads(
        (ty, value) in typed_value(true),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..3),
        cut in any::<Option<prop::sample::Index>>(),
        extra in prop::collection::vec(any::<u8>(), 0..2),
    ) {
        let mut bytes = msgpack::encode(&value, &ty).unwrap();
        for (at, byte) in edits {
            let i = at.index(bytes.len());
            bytes[i] = byte;
        }
        if let Some(cut) = cut {
            bytes.truncate(cut.index(bytes.len()));
        }
        bytes.extend(extra);
        check(&bytes, &ty)?;
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `.msgpack` files of `dir`.
fn payloads(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "msgpack"))
        .collect();
    files.sort();
    files
}

/// Every block's type in a schema file: the provider's, and every resource's and data
/// source's.
fn block_types(file: &str) -> Vec<Type> {
    let schemas = ProviderSchemas::from_json(&std::fs::read(root().join(file)).unwrap()).unwrap();
    let mut types = Vec::new();
    for provider in schemas.providers.values() {
        types.push(provider.provider.implied_type());
        for schema in provider
            .resource_schemas
            .values()
            .chain(provider.data_source_schemas.values())
        {
            types.push(schema.implied_type());
        }
    }
    types
}

/// Every payload in `dirs`, under its implied type and every block type of `schema`:
/// the transcoder agrees with the two steps each time, and each payload is written as
/// JSON under at least one type of its schema (so each is typed at least once).
fn check_real_payloads(dirs: &[PathBuf], schema: &str) {
    let types = block_types(schema);
    let mut files = 0;
    for dir in dirs {
        for file in payloads(dir) {
            let bytes = std::fs::read(&file).unwrap();
            let name = file.display();
            // `dynamic` where a `[type JSON, value]` wrapper is.
            let (implied, _) = msgpack::implied_type_reading_wrappers(&bytes)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            check(&bytes, &implied).unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut written = 0;
            for ty in &types {
                check(&bytes, ty).unwrap_or_else(|e| panic!("{name}: {e}"));
                written += usize::from(two_steps(&bytes, ty).is_ok());
            }
            let unknown = msgpack::decode(&bytes, &implied).is_ok_and(|v| !v.is_wholly_known());
            assert!(
                written > 0 || unknown,
                "{name}: no type of {schema} reads it"
            );
            files += 1;
        }
    }
    assert!(files > 0, "no payloads in {dirs:?}");
}

/// The example provider's payloads (go-cty's bytes) and the example configurations'.
#[test]
fn example_payloads() {
    check_real_payloads(
        &[
            root().join("examples/payloads"),
            root().join("examples/config"),
        ],
        "examples/schema/provider.json",
    );
}

/// What Terraform sent the demo provider and what it answered, in real runs.
#[test]
fn captured_payloads() {
    let base = root().join("tests/data/capture-real");
    if !base.is_dir() {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr().lock(),
            "transcode: skipped: the packaged library leaves out tests/data/capture-real"
        );
        return;
    }
    let dirs: Vec<PathBuf> = std::fs::read_dir(&base)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    check_real_payloads(&dirs, "tests/data/capture-real/demo-schema.json");
}

//! The bodies of ctywire's fuzz targets, one public function per target.
//!
//! Each target in `fuzz_targets/` is one line that calls the function of its name, and
//! the main crate's `tests/fuzz_regressions.rs` includes this file (`#[path]`) to replay the
//! committed corpora through the same functions on stable Rust, with no fuzzing tools.
//! So this file may use only `std`, `serde`'s derives and `ctywire`'s public API.
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
//!
//! `diff` reads a type selector (not the implied type), one byte `n`, then two
//! MessagePack payloads: the first `n` bytes and the rest.
//!
//! `schema_json` reads its whole input as a `providers schema -json` document; `config`
//! reads its whole input as a `.tf.json` file, decoded with the example provider's
//! schemas (`examples/schema/provider.json`); `decode_as` a format byte, then a payload
//! of its one type.
//!
//! `plan_rules` reads a schema selector (one of the example provider's schemas), then
//! three MessagePack payloads, each but the last after a two-byte length.
//!
//! `document` reads its whole input as a `show -json` document; `capture` reads up to
//! twelve files of a capture directory, each a one-byte name length, the name, a
//! two-byte little-endian content length and the content.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use ctywire::limits::MAX_DEPTH;
use ctywire::render::{render, render_block, Options};
use ctywire::schema::{Block, BlockNesting, NestedType, ProviderSchema, ProviderSchemas, Schema};
use ctywire::{json, msgpack, ErrorKind, Known, Number, Type, Value, Visit};

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
        None => match msgpack::implied_type_reading_wrappers(payload) {
            Ok((ty, wrappers)) => {
                // Reading wrappers changes nothing go-cty's rules type.
                if let Ok(plain) = msgpack::implied_type(payload) {
                    assert_eq!(plain, ty, "implied types differ");
                    assert!(wrappers.is_empty(), "wrappers where go-cty reads none");
                }
                ty
            }
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
        None => {
            let plain = json::decode_implied(payload);
            if let Ok((ty, wrappers)) = json::implied_type_reading_wrappers(payload) {
                // Without wrappers, go-cty's implied type; with them, a type whose
                // values must encode like any other.
                if wrappers.is_empty() {
                    if let Ok((plain_ty, _)) = &plain {
                        assert_eq!(*plain_ty, ty, "implied types differ");
                    }
                } else if let Ok(v) = json::decode(payload, &ty) {
                    if let Err(e) = msgpack::encode(&v, &ty) {
                        panic!("a decoded value does not encode: {e}\nvalue: {v:?}\ntype: {ty}");
                    }
                    json_encode_or_refuse(&v, &ty);
                }
            }
            plain
        }
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

/// `schema_json`: load a `providers schema -json` document. For a document that loads:
///
/// - each provider is found by its address (`provider`, `find_provider`);
/// - each resource type and data source is found by its name when one provider alone
///   defines it (and not found when several do), and by `ADDRESS:NAME` when the address
///   holds no colon; a name no provider defines is not found;
/// - each schema (the providers' own, the resource types', the data sources') passes
///   [`check_schema`].
///
/// Only the first [`MAX_SCHEMAS_CHECKED`] schemas get these checks, so that one input
/// cannot run for long.
pub fn schema_json(data: &[u8]) {
    let Ok(schemas) = ProviderSchemas::from_json(data) else {
        return;
    };
    let mut budget = MAX_SCHEMAS_CHECKED;
    for (address, provider) in &schemas.providers {
        if budget == 0 {
            return;
        }
        budget -= 1;
        match schemas.find_provider(address) {
            Ok((found, p)) => assert!(
                found == address && std::ptr::eq(p, provider),
                "find_provider({address:?}) finds {found:?}"
            ),
            Err(e) => panic!("find_provider({address:?}) fails: {e}"),
        }
        match schemas.provider(address) {
            Ok(schema) => assert!(
                std::ptr::eq(schema, &provider.provider),
                "provider({address:?}) finds another schema"
            ),
            Err(e) => panic!("provider({address:?}) fails: {e}"),
        }
        check_schema(&provider.provider);
        let kinds: [(Lookup, SchemasOf); 2] = [
            (ProviderSchemas::resource, |p| &p.resource_schemas),
            (ProviderSchemas::data_source, |p| &p.data_source_schemas),
        ];
        for (lookup, schemas_of) in kinds {
            for (name, schema) in schemas_of(provider) {
                if budget == 0 {
                    return;
                }
                budget -= 1;
                let try_missing = MAX_SCHEMAS_CHECKED - budget <= MAX_MISSING_LOOKUPS;
                check_lookups(
                    &schemas,
                    lookup,
                    schemas_of,
                    address,
                    name,
                    schema,
                    try_missing,
                );
                check_schema(schema);
            }
        }
    }
}

/// At most this many schemas of one input (providers' own, resource types and data
/// sources together) get the checks of [`schema_json`]: enough for every seed, and few
/// enough that an input of thousands of tiny schemas stays fast.
pub const MAX_SCHEMAS_CHECKED: usize = 64;

/// At most this many of the first schemas of an input also get a lookup of a name no
/// provider defines, whose error compares that name with every name there is.
const MAX_MISSING_LOOKUPS: usize = 8;

/// `ProviderSchemas::resource` or `ProviderSchemas::data_source`.
type Lookup = for<'a> fn(&'a ProviderSchemas, &str) -> ctywire::Result<&'a Schema>;

/// A provider's resource types or its data sources.
type SchemasOf = fn(&ProviderSchema) -> &BTreeMap<String, Schema>;

/// The lookups of resource type or data source `name`, which provider `address`
/// defines as `schema`; with `try_missing`, also of a name made from it that no
/// provider defines.
fn check_lookups(
    schemas: &ProviderSchemas,
    lookup: Lookup,
    schemas_of: SchemasOf,
    address: &str,
    name: &str,
    schema: &Schema,
    try_missing: bool,
) {
    // A name with a colon is read as PROVIDER:NAME.
    if !name.contains(':') {
        let defined_by = schemas
            .providers
            .values()
            .filter(|p| schemas_of(p).contains_key(name))
            .count();
        match lookup(schemas, name) {
            Ok(found) => assert!(
                defined_by == 1 && std::ptr::eq(found, schema),
                "{name:?} finds another schema (defined by {defined_by} providers)"
            ),
            Err(e) => {
                assert!(defined_by > 1, "{name:?} is not found: {e}");
                assert_eq!(e.kind(), ErrorKind::NotFound, "{name:?}: {e}");
            }
        }
    }
    if !address.contains(':') {
        let qualified = format!("{address}:{name}");
        match lookup(schemas, &qualified) {
            Ok(found) => assert!(
                std::ptr::eq(found, schema),
                "{qualified:?} finds another schema"
            ),
            Err(e) => panic!("{qualified:?} is not found: {e}"),
        }
    }
    // A name no provider defines: the error lists near names, by edit distance over
    // every name, so only short names are tried.
    let missing = format!("{name}_missing");
    if try_missing
        && missing.len() <= 64
        && !missing.contains(':')
        && !schemas
            .providers
            .values()
            .any(|p| schemas_of(p).contains_key(&missing))
    {
        match lookup(schemas, &missing) {
            Ok(_) => panic!("{missing:?} is found, but no provider defines it"),
            Err(e) => assert_eq!(e.kind(), ErrorKind::NotFound, "{missing:?}: {e}"),
        }
    }
}

/// The checks of one schema:
///
/// - its implied type has no optional-attribute markers, and prints as type JSON and as a type expression that parse back to it
///   (or, when it nests deeper than [`MAX_DEPTH`] complex types, that both refuse with
///   `LimitExceeded`);
/// - every block in it, nested ones too, passes [`check_block`];
/// - where attribute and block type names stay distinct once NFC-normalized
///   ([`names_distinct`]): `check_state` finds nothing wrong with the empty value, and
///   `sensitive_paths` of the empty value finds exactly the sensitive attributes of the
///   block and of its GROUP blocks (the only blocks an empty value holds);
/// - `validate`, and `check_config`, `sensitive_paths`, `render` and `render_block` of
///   the empty value, run, and their reports print.
fn check_schema(schema: &Schema) {
    let block = &schema.block;
    let ty = schema.implied_type();
    assert_eq!(
        ty,
        ty.without_optional_attributes(),
        "implied type {ty} has optional-attribute markers"
    );
    if type_depth(&ty) <= MAX_DEPTH {
        check_type(&ty);
    } else {
        let json = Type::from_json(&ty.to_json());
        assert!(
            json.is_err_and(|e| e.kind() == ErrorKind::LimitExceeded),
            "type JSON nesting past the limit does not fail with LimitExceeded"
        );
        let expr = Type::parse_expr(&ty.to_expr());
        assert!(
            expr.is_err_and(|e| e.kind() == ErrorKind::LimitExceeded),
            "a type expression nesting past the limit does not fail with LimitExceeded"
        );
    }
    let mut budget = MAX_BLOCKS_CHECKED;
    check_block(block, &mut budget);

    let empty = block.empty_value();
    if names_distinct(block) {
        let problems = block.check_state(&empty);
        assert!(
            problems.is_empty(),
            "check_state finds problems in the empty value: {}",
            problems
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        );
        assert_eq!(
            block.sensitive_paths(&empty).len(),
            sensitive_in_empty_value(block),
            "sensitive_paths of the empty value"
        );
    }
    for violation in block.validate() {
        let _ = violation.to_string();
    }
    for violation in block.check_config(&empty) {
        let _ = violation.to_string();
    }
    let options = Options::new().sensitive(block.sensitive_paths(&empty));
    let _ = render(&empty, &ty, &options);
    let _ = render_block(&empty, block, &options);
}

/// At most this many blocks of one schema get [`check_block`].
const MAX_BLOCKS_CHECKED: usize = 64;

/// The checks of one block, and (within `budget`) of the blocks nested in it:
///
/// - its implied type is an object type;
/// - its empty value encodes as MessagePack and as JSON under that type, and each
///   encoding decodes back to it and encodes again to the same bytes;
/// - every nested block type is `dynamic` exactly when its implied type is, and its
///   empty value is null (SINGLE), its block's empty value (GROUP), or an empty
///   collection that `items` or `labeled_items` reads;
/// - when its names stay distinct once NFC-normalized (the object type has one
///   attribute per name), each attribute and nested block type with an ASCII name has
///   its own implied type in the object type (an attribute winning over a block type of
///   the same name).
fn check_block(block: &Block, budget: &mut usize) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    let ty = block.implied_type();
    let Some(object) = ty.as_object() else {
        panic!("a block's implied type {ty} is not an object type");
    };
    check_empty_value(&block.empty_value(), &ty);

    for (name, nested) in &block.block_types {
        let nested_ty = nested.implied_type();
        assert_eq!(
            nested.is_dynamic(),
            nested_ty == Type::Dynamic,
            "block type {name:?}: is_dynamic disagrees with its implied type {nested_ty}"
        );
        let nested_empty = nested.empty_value();
        match nested.nesting {
            BlockNesting::Single => assert!(
                nested_empty.is_null(),
                "block type {name:?}: the empty value of a SINGLE block is not null"
            ),
            BlockNesting::Group => assert_eq!(
                nested_empty,
                nested.block.empty_value(),
                "block type {name:?}: the empty value of a GROUP block is not its block's"
            ),
            BlockNesting::List | BlockNesting::Set => assert_eq!(
                nested.items(&nested_empty).map(<[Value]>::len),
                Some(0),
                "block type {name:?}: the empty value does not read as no blocks"
            ),
            BlockNesting::Map => assert_eq!(
                nested.labeled_items(&nested_empty).map(|items| items.len()),
                Some(0),
                "block type {name:?}: the empty value does not read as no blocks"
            ),
        }
    }

    if object.len() == distinct_names(block) {
        for (name, attribute) in &block.attributes {
            if name.is_ascii() {
                assert_eq!(
                    object.attribute(name),
                    Some(&attribute.implied_type()),
                    "attribute {name:?} has another type in the block's type {ty}"
                );
            }
        }
        for (name, nested) in &block.block_types {
            if name.is_ascii() && !block.attributes.contains_key(name) {
                assert_eq!(
                    object.attribute(name),
                    Some(&nested.implied_type()),
                    "block type {name:?} has another type in the block's type {ty}"
                );
            }
        }
    }

    for nested in block.block_types.values() {
        check_block(&nested.block, budget);
    }
}

/// Encodes a block's empty value in both formats, decodes it back, and encodes it
/// again. The loader takes at most [`MAX_DEPTH`] levels of nested blocks, so no empty
/// value it leads to nests deeper than the decoders take.
fn check_empty_value(empty: &Value, ty: &Type) {
    let bytes = msgpack::encode(empty, ty)
        .unwrap_or_else(|e| panic!("an empty value does not encode: {e}\nvalue: {empty:?}"));
    let back = msgpack::decode(&bytes, ty).unwrap_or_else(|e| {
        panic!(
            "an empty value's MessagePack does not decode: {e}\nbytes: {}",
            hex(&bytes)
        )
    });
    assert_eq!(&back, empty, "an empty value changes through MessagePack");
    let again = msgpack::encode(&back, ty)
        .unwrap_or_else(|e| panic!("a decoded empty value does not encode: {e}"));
    assert!(again == bytes, "re-encoding an empty value is not stable");

    let text = json::encode(empty, ty).unwrap_or_else(|e| {
        panic!("an empty value does not encode as JSON: {e}\nvalue: {empty:?}")
    });
    let back = json::decode(&text, ty).unwrap_or_else(|e| {
        panic!(
            "an empty value's JSON does not decode: {e}\ntext: {}",
            String::from_utf8_lossy(&text)
        )
    });
    assert_eq!(&back, empty, "an empty value changes through JSON");
    let again = json::encode(&back, ty)
        .unwrap_or_else(|e| panic!("a decoded empty value does not encode as JSON: {e}"));
    assert!(
        again == text,
        "JSON re-encoding of an empty value is not stable"
    );
}

/// The nesting depth of a type in complex types (collections, objects, tuples): what
/// the type JSON and type expression parsers bound by [`MAX_DEPTH`].
fn type_depth(ty: &Type) -> usize {
    match ty {
        Type::Bool | Type::Number | Type::String | Type::Dynamic => 0,
        Type::List(e) | Type::Set(e) | Type::Map(e) => 1 + type_depth(e),
        Type::Object(o) => 1 + o.types().iter().map(type_depth).max().unwrap_or(0),
        Type::Tuple(ts) => 1 + ts.iter().map(type_depth).max().unwrap_or(0),
    }
}

/// The number of attributes a block's implied type has when no two of its names are
/// the same once NFC-normalized: one per attribute and one per block type, except a
/// block type shadowed by an attribute of the same name.
fn distinct_names(block: &Block) -> usize {
    let shadowed = block
        .block_types
        .keys()
        .filter(|name| block.attributes.contains_key(*name))
        .count();
    block.attributes.len() + block.block_types.len() - shadowed
}

/// Whether the attribute and block type names of `block`, and of every block and
/// nested attribute type in it, stay distinct when NFC-normalized, as the names of
/// object types and values are: whether each implied object type has an attribute per
/// name.
fn names_distinct(block: &Block) -> bool {
    block.implied_type().as_object().map(|o| o.len()) == Some(distinct_names(block))
        && block
            .attributes
            .values()
            .all(|a| a.nested_type.as_ref().is_none_or(nested_names_distinct))
        && block.block_types.values().all(|b| names_distinct(&b.block))
}

fn nested_names_distinct(nested: &NestedType) -> bool {
    let ty = nested.implied_type();
    let object = ty.element_type().unwrap_or(&ty);
    object.as_object().map(|o| o.len()) == Some(nested.attributes.len())
        && nested
            .attributes
            .values()
            .all(|a| a.nested_type.as_ref().is_none_or(nested_names_distinct))
}

/// The number of sensitive attributes `sensitive_paths` finds in a block's empty
/// value: the block's own, and those of its GROUP blocks (the only blocks an empty
/// value holds).
fn sensitive_in_empty_value(block: &Block) -> usize {
    let own = block.attributes.values().filter(|a| a.sensitive).count();
    let groups: usize = block
        .block_types
        .iter()
        .filter(|(name, nested)| {
            nested.nesting == BlockNesting::Group && !block.attributes.contains_key(*name)
        })
        .map(|(_, nested)| sensitive_in_empty_value(&nested.block))
        .sum();
    own + groups
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
///   2^63, which read back as that decimal, a different number, as in go-cty; and a
///   number read as text that is exactly a float64 with more digits than the float64's
///   shortest form, which MessagePack carries as that float64, as in go-cty.)
pub fn roundtrip(data: &[u8]) {
    let Some((Some(ty), payload)) = select(data) else {
        return;
    };
    if let Ok(v) = msgpack::decode(payload, &ty) {
        let again = msgpack_roundtrip(&v, &ty);
        if !narrowed_by_encoding(&v)
            && !has_negative_zero(&v)
            && !has_fraction_longer_than_its_float(&v)
        {
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
        if !has_negative_zero(&v) && !has_fraction_longer_than_its_float(&v) {
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
    // behaviour too (vectors/ctywire/sets.json, zero-and-negative-zero-both-kept). A set
    // holding 1000104010000000.25 and 1000104010000000.2 read as text loses one the same
    // way (see has_fraction_longer_than_its_float).
    assert!(
        twice == once || has_negative_zero(v) || has_fraction_longer_than_its_float(v),
        "re-encoding is not stable: {} then {}",
        hex(&once),
        hex(&twice)
    );
    again
}

/// Whether some number anywhere in `v` satisfies `test`.
fn any_number(v: &Value, test: &impl Fn(&Number) -> bool) -> bool {
    match v.untyped() {
        Value::Number(n) => test(n),
        Value::List(vs) | Value::Tuple(vs) => vs.iter().any(|v| any_number(v, test)),
        Value::Set(s) => s.iter().any(|v| any_number(v, test)),
        Value::Map(m) => m.values().any(|v| any_number(v, test)),
        Value::Object(o) => o.values().iter().any(|v| any_number(v, test)),
        _ => false,
    }
}

/// Whether a float64 -0 appears anywhere in `v`.
fn has_negative_zero(v: &Value) -> bool {
    any_number(v, &Number::is_negative_zero)
}

/// Whether `v` holds a number read as text that is exactly a float64 but prints with
/// more digits than that float64's shortest form: MessagePack carries it as the float64,
/// which reads back as a number that prints, and so compares, otherwise
/// (`1000104010000000.25` comes back as `1000104010000000.2`), as in go-cty
/// (vectors/ctywire/msgpack-numbers.json, decimal-exactly-a-float64-with-more-digits).
fn has_fraction_longer_than_its_float(v: &Value) -> bool {
    any_number(v, &|n| {
        !n.is_float_origin()
            && Number::from_f64(n.to_f64())
                .is_some_and(|f| f.cmp_numeric(n) == std::cmp::Ordering::Equal && f != *n)
    })
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
            r.string_prefix().is_some_and(|p| p.len() > 256)
                || r.length_upper_bound().is_some_and(|n| n > i64::MAX as u64)
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
    any_number(v, &|n| {
        n.is_float_origin() && n.is_integer() && n.to_f64().abs() >= 2f64.powi(53)
    })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// At most this many blocks of one input are decoded.
const MAX_CONFIG_BLOCKS: usize = 16;

/// A `.tf.json` file: reading it never panics; each resource, data source and provider
/// block it declares (the first 16) decodes with the example schemas or fails with
/// diagnostics, and a decoded value is a value of the schema's implied type (it encodes
/// as MessagePack, and as JSON when wholly known).
pub fn config(data: &[u8]) {
    use ctywire::config::{Address, Config};
    let Ok(config) = Config::from_sources([("fuzz.tf.json", data)]) else {
        return;
    };
    let schemas = example_schemas();
    let declarations = config.declarations();
    for d in declarations.iter().take(MAX_CONFIG_BLOCKS) {
        if !matches!(d.kind, "resource" | "data" | "provider") {
            continue;
        }
        let address: Address = d
            .address
            .parse()
            .unwrap_or_else(|e| panic!("listed address {:?} does not parse: {e}", d.address));
        assert_eq!(address.to_string(), d.address, "address prints back");
        let Ok(schema) = address.schema(schemas) else {
            continue;
        };
        let Ok(value) = config.decode(&address, schema) else {
            continue;
        };
        let ty = schema.implied_type();
        if let Err(e) = msgpack::encode(&value, &ty) {
            panic!("{}: the decoded value does not encode: {e}", d.address);
        }
        if value.is_wholly_known() {
            if let Err(e) = json::encode(&value, &ty) {
                if e.kind() != ErrorKind::Unencodable {
                    panic!(
                        "{}: the decoded value does not encode as JSON: {e}",
                        d.address
                    );
                }
            }
        }
    }
}

/// `convert`: two type selectors, `from` then `to` (see [`select`]; an implied `to` is
/// `dynamic`), then a MessagePack payload, decoded with `from` (or its implied type) and
/// converted to `to`:
///
/// - nothing panics: converting, the encoders (which convert what does not conform),
///   `conversion`, `unify` and `unify_unsafe`;
/// - where `from` holds no `dynamic`, converting fails with `TypeMismatch` exactly when
///   `conversion` finds no conversion (otherwise only the value can make it fail);
/// - a converted value encodes as `to` (but for a collection of collections of
///   `dynamic` with an empty element beside a full one, which go-cty cannot read back
///   either), as JSON unless it holds an unknown or an infinity, and converting it from
///   `to` to `to` gives the same bytes;
/// - a type `unify` finds is one both types convert to safely; one `unify_unsafe`
///   finds, one both convert to.
pub fn convert(data: &[u8]) {
    use ctywire::convert::{conversion, convert, unify, unify_unsafe, Safety};

    let Some((from, rest)) = select(data) else {
        return;
    };
    let Some((to, payload)) = select(rest) else {
        return;
    };
    let to = to.unwrap_or(Type::Dynamic);
    let from = match from {
        Some(ty) => ty,
        None => match msgpack::implied_type(payload) {
            Ok(ty) => ty,
            Err(_) => return,
        },
    };
    for (unified, safety) in [
        (unify(&[from.clone(), to.clone()]), Some(Safety::Safe)),
        (unify_unsafe(&[from.clone(), to.clone()]), None),
    ] {
        if let Some(u) = unified {
            for t in [&from, &to] {
                let found = conversion(t, &u);
                assert!(
                    found.is_some() && (safety.is_none() || found == safety),
                    "{from} and {to} unify to {u}, but {t} converts to it: {found:?}"
                );
            }
        }
    }
    let Ok(v) = msgpack::decode(payload, &from) else {
        return;
    };
    let _ = msgpack::encode(&v, &to);
    let _ = json::encode(&v, &to);
    let exists = conversion(&from, &to);
    let converted = convert(&v, &from, &to);
    if !from.has_dynamic() {
        let mismatch = converted
            .as_ref()
            .is_err_and(|e| e.kind() == ErrorKind::TypeMismatch);
        assert_eq!(
            mismatch,
            exists.is_none(),
            "conversion({from}, {to}) is {exists:?}, but converting gives {converted:?}"
        );
    }
    let Ok(c) = converted else {
        return;
    };
    let wire = to.without_optional_attributes();
    let bytes = match msgpack::encode(&c, &wire) {
        Ok(bytes) => bytes,
        Err(e)
            if e.message()
                .starts_with("collection elements must all have one type") =>
        {
            return
        }
        Err(e) => panic!("a converted value does not encode: {e}\nvalue: {c:?}\ntype: {wire}"),
    };
    json_encode_or_refuse(&c, &wire);
    match convert(&c, &wire, &wire) {
        Ok(again) => assert_eq!(
            msgpack::encode(&again, &wire).ok(),
            Some(bytes),
            "converting a value of {wire} to {wire} changed it: {c:?} became {again:?}"
        ),
        Err(e) => panic!("a converted value does not convert to its own type: {e}\nvalue: {c:?}"),
    }
}

/// The example provider's schemas, for [`plan_rules`] and [`config`].
fn example_schemas() -> &'static ProviderSchemas {
    static SCHEMAS: OnceLock<ProviderSchemas> = OnceLock::new();
    SCHEMAS.get_or_init(|| {
        ProviderSchemas::from_json(include_bytes!("../../examples/schema/provider.json"))
            .expect("the example schema loads")
    })
}

/// `plan_rules`: a schema selector byte (one of the example provider's schemas), then
/// three MessagePack payloads of its implied type, each but the last after a two-byte
/// big-endian length; one that does not decode is null. The plan rules and the plan
/// renderer run on them: no panic; a new state equal to its plan is consistent with it;
/// a value compared with itself is an unchanged diff.
pub fn plan_rules(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let schemas = example_schemas();
    let provider = schemas.providers.values().next().expect("one provider");
    let mut all: Vec<&Schema> = vec![&provider.provider];
    all.extend(provider.resource_schemas.values());
    all.extend(provider.data_source_schemas.values());
    let schema = all[selector as usize % all.len()];
    let ty = schema.implied_type();
    let mut parts = Vec::new();
    let mut rest = rest;
    for _ in 0..2 {
        let n = match rest {
            [a, b, ..] => (usize::from(*a) << 8 | usize::from(*b)).min(rest.len() - 2),
            _ => 0,
        };
        let (part, more) = rest.get(2..).unwrap_or_default().split_at(n);
        parts.push(part);
        rest = more;
    }
    parts.push(rest);
    let values: Vec<Value> = parts
        .iter()
        .map(|p| msgpack::decode(p, &ty).unwrap_or(Value::Null))
        .collect();
    let (prior, config, planned) = (&values[0], &values[1], &values[2]);
    let block = &schema.block;
    let proposed = block.proposed_new(prior, config);
    let _ = block.check_plan(prior, config, planned);
    let _ = block.check_plan(prior, config, &proposed);
    let _ = block.check_apply(planned, config);
    let _ = block.check_read(planned);
    let _ = ctywire::schema::check_value_compatible(planned, config, &ty);
    for v in &values {
        let found = block.check_compatible(v, v);
        assert!(
            found.is_empty(),
            "a value is inconsistent with itself: {found:?}"
        );
    }
    use ctywire::render::diff::{
        render_block_diff, render_resource_change, ChangeAction, DiffOptions, ResourceHeading,
    };
    let options = DiffOptions::default();
    let action = ChangeAction::between(prior, planned, false);
    let _ = render_resource_change(
        &ResourceHeading::new("x_y.z", action),
        prior,
        planned,
        block,
        &options,
    );
    if prior.is_wholly_known() && !prior.is_null() {
        let same = render_block_diff(prior, prior, block, &options);
        for line in same.lines() {
            let t = line.trim_start();
            assert!(
                !(t.starts_with("+ ") || t.starts_with("- ") || t.starts_with("~ ")),
                "a value diffed with itself shows a change:\n{same}"
            );
        }
    }
}

/// `diff`: two MessagePack payloads decoded with the selected type, compared.
///
/// - each value equals itself: no changes, `raw_equals`, and `cty_equals` is `true`
///   exactly when it is wholly known (else unknown, or false for a set holding an
///   element with an unknown inside);
/// - `diff(a, b)` is empty exactly when `a.raw_equals(b)`, each change's path leads to
///   its old value in `a` and its new value in `b`, and applying the changes to `a`
///   gives a value that raw-equals `b` and still encodes;
/// - `cty_equals` is symmetric, and true where `raw_equals` is on wholly known values
///   holding no set (go-cty finds set elements by a hash of their text);
/// - `walk` reaches every value of `a` by a path that leads to it, and an identity
///   `transform` gives `a` back; each of `unknown_paths` leads to an unknown.
pub fn diff(data: &[u8]) {
    let Some((Some(ty), payload)) = select(data) else {
        return;
    };
    let Some((&n, rest)) = payload.split_first() else {
        return;
    };
    let Some((first, second)) = rest.split_at_checked(usize::from(n)) else {
        return;
    };
    let (Ok(a), Ok(b)) = (msgpack::decode(first, &ty), msgpack::decode(second, &ty)) else {
        return;
    };
    check_against_itself(&a, &ty);
    check_against_itself(&b, &ty);
    let changes = ctywire::diff(&a, &b, &ty);
    assert_eq!(
        changes.is_empty(),
        a.raw_equals(&b, &ty),
        "diff and raw_equals disagree: {changes:?}"
    );
    let mut patched = a.clone();
    for change in &changes {
        assert!(
            change.old.is_none_or(|old| a
                .at_path(&change.path)
                .is_some_and(|v| std::ptr::eq(v, old))),
            "{change}: the path does not lead to the old value"
        );
        assert!(
            change.new.is_none_or(|new| b
                .at_path(&change.path)
                .is_some_and(|v| std::ptr::eq(v, new))),
            "{change}: the path does not lead to the new value"
        );
        if let Err(e) = change.apply_to(&mut patched) {
            panic!("{change} does not apply: {e}");
        }
    }
    assert!(
        patched.raw_equals(&b, &ty),
        "the changes do not turn a into b: {patched:?}\nchanges: {changes:?}"
    );
    if let Err(e) = msgpack::encode(&patched, &ty) {
        panic!("a value patched by diff does not encode: {e}");
    }
    let equals = a.cty_equals(&b, &ty);
    assert_eq!(equals, b.cty_equals(&a, &ty), "cty_equals is not symmetric");
    if a.is_wholly_known() && b.is_wholly_known() {
        assert!(equals.is_some(), "wholly known values compare as unknown");
        // go-cty finds a set's elements by a hash of their text, so raw-equal sets of
        // numbers can be cty-unequal (a -0 and a 0; vectors/equality, "as read").
        assert!(
            !a.raw_equals(&b, &ty) || equals == Some(true) || holds_set(&a, &ty),
            "raw-equal values are not cty-equal"
        );
    }
}

/// Whether `v` holds a set anywhere.
fn holds_set(v: &Value, ty: &Type) -> bool {
    let mut found = false;
    v.walk(ty, |_, part, _| {
        found |= matches!(part.untyped(), Value::Set(_));
        if found {
            ctywire::Visit::Stop
        } else {
            ctywire::Visit::Continue
        }
    });
    found
}

/// The checks of [`diff`] on one value.
fn check_against_itself(v: &Value, ty: &Type) {
    let changes = ctywire::diff(v, v, ty);
    assert!(
        changes.is_empty(),
        "a value differs from itself: {changes:?}"
    );
    assert!(v.raw_equals(v, ty), "a value is not raw-equal to itself");
    let equals = v.cty_equals(v, ty);
    if v.is_wholly_known() {
        assert_eq!(
            equals,
            Some(true),
            "a wholly known value is not cty-equal to itself"
        );
    } else {
        assert_ne!(
            equals,
            Some(true),
            "a value with an unknown is cty-equal to itself"
        );
    }
    let mut lost = Vec::new();
    v.walk(ty, |path, part, _| {
        if !v
            .at_path(path)
            .is_some_and(|found| std::ptr::eq(found, part))
        {
            lost.push(path.clone());
        }
        Visit::Continue
    });
    assert!(lost.is_empty(), "walk paths that lead elsewhere: {lost:?}");
    assert_eq!(
        &v.clone().transform(ty, |_, part, _| part),
        v,
        "an identity transform changes the value"
    );
    for path in v.unknown_paths(ty) {
        assert!(
            v.at_path(&path).is_some_and(Value::is_unknown),
            "unknown path {path} leads to no unknown"
        );
    }
}

/// The representative struct of `decode_as`: what a provider declares for a resource,
/// with `Known` and `Option` fields, numbers as integers and as `Number`, a map, sets
/// as a `Vec` and a `BTreeSet`, nested structs (a LIST and a SINGLE block), a renamed
/// field, a tuple, and a `dynamic` attribute as a `Value`.
#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
pub struct FuzzResource {
    id: Known<String>,
    name: Option<String>,
    count: Known<u32>,
    ratio: Known<Number>,
    enabled: Option<bool>,
    tags: Known<BTreeMap<String, Known<String>>>,
    ports: Known<Vec<Known<Number>>>,
    groups: Option<BTreeSet<String>>,
    disks: Known<Vec<FuzzDisk>>,
    boot: Known<FuzzBoot>,
    meta: Value,
    pair: Option<(String, Number)>,
}

/// A LIST block of [`FuzzResource`].
#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
pub struct FuzzDisk {
    size: Known<u64>,
    kind: Known<String>,
}

/// A SINGLE block of [`FuzzResource`], with a field renamed from a Rust keyword.
#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
pub struct FuzzBoot {
    size: Known<Number>,
    #[serde(rename = "type")]
    kind: Option<String>,
}

/// The type of `decode_as`'s payloads: a list of [`FuzzResource`].
pub fn fuzz_resource_type() -> &'static Type {
    static TYPE: OnceLock<Type> = OnceLock::new();
    TYPE.get_or_init(|| {
        Type::parse_expr(
            "list(object({id=string, name=string, count=number, ratio=number, enabled=bool, \
             tags=map(string), ports=set(number), groups=set(string), \
             disks=list(object({size=number, kind=string})), \
             boot=object({size=number, type=string}), meta=any, pair=tuple([string, number])}))",
        )
        .expect("the fuzz resource type parses")
    })
}

/// `decode_as`: the first byte picks the format (even: MessagePack, odd: JSON), the
/// rest is a payload of [`fuzz_resource_type`], read into `Vec<FuzzResource>` through
/// the serde bridge. No input panics; and what the bridge reads, the value decoder
/// reads too, and the bridge writes it back exactly as the encoder writes that value
/// (in JSON, but for a `-0` read into an integer field, which is written `0`), bytes
/// that read back to the same structs.
pub fn decode_as(data: &[u8]) {
    let Some((&format, payload)) = data.split_first() else {
        return;
    };
    let ty = fuzz_resource_type();
    if format % 2 == 0 {
        let Ok(structs) = msgpack::decode_as::<Vec<FuzzResource>>(payload, ty) else {
            return;
        };
        let value = match msgpack::decode(payload, ty) {
            Ok(v) => v,
            Err(e) => panic!("the bridge read what the decoder refuses: {e}"),
        };
        let bytes = match msgpack::encode_from(&structs, ty) {
            Ok(b) => b,
            Err(e) => panic!("decoded structs do not encode: {e}\n{structs:?}"),
        };
        let want = msgpack::encode(&value, ty).expect("a decoded value encodes");
        assert_eq!(bytes, want, "encode_from differs from encode\n{structs:?}");
        let again: Vec<FuzzResource> =
            msgpack::decode_as(&bytes, ty).expect("encoded structs decode");
        assert_eq!(again, structs, "structs change through their bytes");
    } else {
        let Ok(structs) = json::decode_as::<Vec<FuzzResource>>(payload, ty) else {
            return;
        };
        let value = match json::decode(payload, ty) {
            Ok(v) => v,
            Err(e) => panic!("the bridge read what the decoder refuses: {e}"),
        };
        let text = match json::encode_from(&structs, ty) {
            Ok(t) => t,
            Err(e) => panic!("decoded structs do not encode: {e}\n{structs:?}"),
        };
        let want = json::encode(&value, ty).expect("a decoded value encodes");
        if text != want {
            // JSON keeps a -0 as `-0`; read into an integer field (`count`, a disk's
            // `size`) it is the integer 0, written `0`: equal by cty's equality, and
            // nothing else may differ. (MessagePack writes a -0 as 0 either way.)
            let back = json::decode(&text, ty).expect("encoded structs decode");
            assert!(
                has_negative_zero(&value) && back.cty_equals(&value, ty) == Some(true),
                "encode_from differs from encode\n{structs:?}\n{}\n{}",
                String::from_utf8_lossy(&text),
                String::from_utf8_lossy(&want)
            );
        }
        let again: Vec<FuzzResource> = json::decode_as(&text, ty).expect("encoded structs decode");
        assert_eq!(again, structs, "structs change through their text");
    }
}

/// The struct of `decode_object`: a derived resource with a field of each kind the
/// typed codec reads (`Known` with refinements, `Option`, integers, `Number`, a map, sets
/// of strings, integers and objects, a `dynamic` `Value`, LIST, SET, SINGLE and MAP
/// blocks, and a LIST block declared a set).
#[cfg(feature = "derive")]
#[derive(ctywire::Object, serde::Serialize, serde::Deserialize, Debug, PartialEq)]
pub struct FuzzObject {
    #[cty(computed)]
    id: Known<String>,
    #[cty(optional)]
    name: Option<String>,
    #[cty(optional, computed)]
    count: Known<u32>,
    #[cty(optional)]
    small: Option<i8>,
    #[cty(optional)]
    exact: Option<Number>,
    #[cty(optional)]
    enabled: Option<bool>,
    #[cty(optional)]
    tags: Option<BTreeMap<String, Known<String>>>,
    #[cty(optional)]
    ports: BTreeSet<i64>,
    #[cty(optional)]
    groups: Option<BTreeSet<String>>,
    #[cty(computed)]
    addresses: Known<Vec<Known<String>>>,
    #[cty(optional)]
    meta: Value,
    #[cty(block)]
    disk: Vec<FuzzObjectDisk>,
    #[cty(block)]
    rule: BTreeSet<FuzzObjectRule>,
    #[cty(block)]
    boot: Option<FuzzObjectDisk>,
    #[cty(block)]
    zone: BTreeMap<String, FuzzObjectDisk>,
    #[cty(block(set))]
    step: Vec<FuzzObjectRule>,
}

/// A block of [`FuzzObject`].
#[cfg(feature = "derive")]
#[derive(ctywire::Object, serde::Serialize, serde::Deserialize, Debug, PartialEq)]
pub struct FuzzObjectDisk {
    #[cty(required)]
    size: u64,
    #[cty(computed)]
    #[serde(rename = "type")]
    kind: Known<String>,
}

/// A SET block of [`FuzzObject`]: a set of objects.
#[cfg(feature = "derive")]
#[derive(
    ctywire::Object, serde::Serialize, serde::Deserialize, Debug, PartialEq, Eq, PartialOrd, Ord,
)]
pub struct FuzzObjectRule {
    #[cty(required)]
    protocol: String,
    #[cty(optional)]
    port: Option<u16>,
    #[cty(optional)]
    cidrs: Vec<String>,
}

/// `decode_object`: the input read as a payload of `list(FuzzObject)` by the typed
/// codecs of `#[derive(ctywire::Object)]`, as MessagePack and as JSON. No input panics.
///
/// MessagePack: what the typed codec reads, the value decoder reads too and the serde
/// bridge reads the same structs; what it refuses, the bridge refuses; the structs write
/// what the value encoder writes for the bridge's value of them, and read back the same;
/// as JSON too, they write what `json::encode` writes (or fail as it fails: unknowns),
/// and read back to the same text.
///
/// JSON: what the value decoder refuses, the typed codec refuses with the same error
/// (kind, path, message, line and column); what it reads, the typed codec reads as the
/// same structs as the value converted (`serde::from_value`), or refuses only where the
/// conversion fails too; the structs write what the value encoder writes for their
/// value, and read back the same.
#[cfg(feature = "derive")]
pub fn decode_object(data: &[u8]) {
    decode_object_msgpack(data);
    decode_object_json(data);
}

#[cfg(feature = "derive")]
fn decode_object_json(data: &[u8]) {
    use ctywire::object::Object;
    let ty = Type::list(FuzzObject::cty_type());
    let typed = json::decode_object::<Vec<FuzzObject>>(data);
    let value = json::decode(data, &ty);
    let structs = match (typed, value) {
        (Err(t), Err(v)) => {
            assert_eq!(
                (t.kind(), t.path(), t.to_string()),
                (v.kind(), v.path(), v.to_string()),
                "the typed JSON codec and the value decoder refuse with different errors"
            );
            return;
        }
        (Ok(t), Err(v)) => {
            panic!("the typed JSON codec read what the value decoder refuses ({v}): {t:?}")
        }
        (Err(t), Ok(v)) => {
            if let Ok(converted) = ctywire::serde::from_value::<Vec<FuzzObject>>(&v, &ty) {
                panic!("the typed JSON codec refused ({t}) what the value decoder reads and converts: {converted:?}");
            }
            return;
        }
        (Ok(t), Ok(v)) => {
            let converted: Vec<FuzzObject> =
                ctywire::serde::from_value(&v, &ty).unwrap_or_else(|e| {
                    panic!("the typed JSON codec read what does not convert ({e}): {t:?}")
                });
            assert_eq!(
                t, converted,
                "the typed JSON codec and the value decoder read different structs"
            );
            t
        }
    };
    let text = match json::encode_object(&structs) {
        Ok(b) => b,
        Err(e) => panic!("structs decoded from JSON do not encode as JSON: {e}\n{structs:?}"),
    };
    let value = ctywire::serde::to_value(&structs, &ty).expect("decoded structs make a value");
    let want = json::encode(&value, &ty).expect("a value decoded from JSON encodes");
    assert_eq!(
        String::from_utf8_lossy(&text),
        String::from_utf8_lossy(&want),
        "json::encode_object differs from json::encode\n{structs:?}"
    );
    let again: Vec<FuzzObject> = json::decode_object(&text).expect("encoded structs decode");
    assert_eq!(again, structs, "structs change through their JSON");
}

#[cfg(feature = "derive")]
fn decode_object_msgpack(data: &[u8]) {
    use ctywire::object::Object;
    let ty = Type::list(FuzzObject::cty_type());
    let typed = msgpack::decode_object::<Vec<FuzzObject>>(data);
    let bridged = msgpack::decode_as::<Vec<FuzzObject>>(data, &ty);
    let structs = match (typed, bridged) {
        (Err(_), Err(_)) => return,
        (Ok(t), Ok(b)) => {
            assert_eq!(
                t, b,
                "the typed codec and the bridge read different structs"
            );
            t
        }
        (Ok(t), Err(e)) => panic!("the typed codec read what the bridge refuses ({e}): {t:?}"),
        (Err(e), Ok(b)) => panic!("the typed codec refused what the bridge reads ({e}): {b:?}"),
    };
    if let Err(e) = msgpack::decode(data, &ty) {
        panic!("the typed codec read what the value decoder refuses: {e}");
    }
    let bytes = match msgpack::encode_object(&structs) {
        Ok(b) => b,
        Err(e) => panic!("decoded structs do not encode: {e}\n{structs:?}"),
    };
    let value = ctywire::serde::to_value(&structs, &ty).expect("decoded structs make a value");
    let want = msgpack::encode(&value, &ty).expect("a decoded value encodes");
    assert_eq!(
        bytes, want,
        "encode_object differs from encode\n{structs:?}"
    );
    let again: Vec<FuzzObject> = msgpack::decode_object(&bytes).expect("encoded structs decode");
    assert_eq!(again, structs, "structs change through their bytes");
    // The same structs as JSON: the text `json::encode` writes for their value (or its
    // error, an unknown's), which the typed JSON codec reads back to the same text.
    match (json::encode_object(&structs), json::encode(&value, &ty)) {
        (Ok(text), Ok(want)) => {
            assert_eq!(
                String::from_utf8_lossy(&text),
                String::from_utf8_lossy(&want),
                "json::encode_object differs from json::encode\n{structs:?}"
            );
            let back: Vec<FuzzObject> = json::decode_object(&text)
                .unwrap_or_else(|e| panic!("written JSON does not read back: {e}"));
            assert_eq!(
                json::encode_object(&back).ok(),
                Some(text),
                "structs change through their JSON"
            );
        }
        (Err(t), Err(w)) => assert_eq!(
            (t.kind(), t.path(), t.to_string()),
            (w.kind(), w.path(), w.to_string()),
            "json::encode_object and json::encode refuse with different errors"
        ),
        (t, w) => panic!(
            "json::encode_object and json::encode disagree: {:?} / {:?}\n{structs:?}",
            t.map(|b| String::from_utf8_lossy(&b).into_owned()),
            w.map(|b| String::from_utf8_lossy(&b).into_owned())
        ),
    }
}

/// At most this many values of one `show -json` document are checked.
const MAX_DOCUMENT_VALUES: usize = 32;

/// A `show -json` document (plan or state, in any of the encodings Terraform's and
/// PowerShell's output takes): reading it never panics; each value read with the type
/// its JSON implies (the first 32: resource changes and drift before and after, output
/// changes, planned values, prior state and state resources) writes back and reads
/// back to the same value, and a sensitivity tree that fits it gives paths whose tree
/// fits it too.
pub fn document(data: &[u8]) {
    use ctywire::tfjson::{self, Change, Document, MarkTree, Module, RawJson};

    fn change(c: &Change) -> [(Option<&RawJson>, Option<&MarkTree>, Option<&MarkTree>); 2] {
        [
            (c.before.as_ref(), None, c.before_sensitive.as_ref()),
            (
                c.after.as_ref(),
                c.after_unknown.as_ref(),
                c.after_sensitive.as_ref(),
            ),
        ]
    }
    fn resources<'d>(
        m: &'d Module,
        out: &mut Vec<(
            Option<&'d RawJson>,
            Option<&'d MarkTree>,
            Option<&'d MarkTree>,
        )>,
    ) {
        for r in &m.resources {
            out.push((r.values.as_ref(), None, r.sensitive_values.as_ref()));
        }
        for child in &m.child_modules {
            resources(child, out);
        }
    }

    let Ok(document) = Document::from_json(data) else {
        return;
    };
    let mut values = Vec::new();
    match &document {
        Document::Plan(plan) => {
            for rc in plan.resource_changes.iter().chain(&plan.resource_drift) {
                values.extend(change(&rc.change));
            }
            for c in plan.output_changes.values() {
                values.extend(change(c));
            }
            if let Some(planned) = &plan.planned_values {
                resources(&planned.root_module, &mut values);
            }
            if let Some(prior) = plan.prior_state.as_ref().and_then(|s| s.values.as_ref()) {
                resources(&prior.root_module, &mut values);
            }
        }
        Document::State(state) => {
            if let Some(v) = &state.values {
                resources(&v.root_module, &mut values);
            }
        }
    }
    let ty = Type::Dynamic;
    for (json, unknown, sensitive) in values.into_iter().take(MAX_DOCUMENT_VALUES) {
        let text = json.map(RawJson::as_str);
        let Ok(value) = tfjson::from_json_value(text, unknown, &ty) else {
            continue;
        };
        let written = match tfjson::to_json_value(&value, &ty) {
            Ok(w) => w,
            Err(e) => panic!("a value read from a document does not write: {e}\n{value:?}"),
        };
        let tree = tfjson::unknown_tree(&value);
        let back = tfjson::from_json_value(written.as_ref().map(RawJson::as_str), Some(&tree), &ty)
            .unwrap_or_else(|e| panic!("a written value does not read back: {e}\n{written:?}"));
        assert!(
            back.raw_equals(&value, &ty),
            "a value changes through its JSON\n{value:?}\n{back:?}"
        );
        if let Some(tree) = sensitive {
            if tfjson::check_sensitive_tree(tree, &value, &ty).is_ok() {
                let paths = tfjson::sensitive_paths(tree, &ty);
                let ours = tfjson::sensitive_tree(&paths, &value, &ty);
                if let Err(e) = tfjson::check_sensitive_tree(&ours, &value, &ty) {
                    panic!("the sensitivity tree made from paths does not fit: {e}\n{ours}");
                }
            }
        }
    }
}

/// At most this many files of one `capture` input.
const MAX_CAPTURE_FILES: usize = 12;

/// A capture directory's files: grouping them never panics and loses no file (each is
/// in one call or is a problem; a call holds files of its own RPC only), and resolving
/// each call with the example provider's schemas never panics, a subject found
/// decoding every value of its call.
pub fn capture(data: &[u8]) {
    use ctywire::capture::{Capture, Resolved, Resolver};

    let mut files = Vec::new();
    let mut rest = data;
    while files.len() < MAX_CAPTURE_FILES {
        let Some((&name_len, after)) = rest.split_first() else {
            break;
        };
        let (name, after) = after.split_at(usize::from(name_len).min(after.len()));
        let (len, after) = match after.split_first_chunk::<2>() {
            Some((len, after)) => (usize::from(u16::from_le_bytes(*len)), after),
            None => (0, after),
        };
        let (bytes, after) = after.split_at(len.min(after.len()));
        files.push((String::from_utf8_lossy(name).into_owned(), bytes.to_vec()));
        rest = after;
    }
    let count = files.len();
    let capture = Capture::from_files(files);
    let held: usize = capture.calls.iter().map(|c| c.payloads.len()).sum();
    assert_eq!(
        held + capture.problems.len(),
        count,
        "files lost or doubled"
    );
    let mut resolver = Resolver::new(example_schemas());
    for call in &capture.calls {
        assert!(
            call.payloads.iter().all(|p| p.name.rpc == call.rpc),
            "a call holds another RPC's file: {call:?}"
        );
        if let Resolved::Found(subject) = resolver.resolve(call) {
            for p in &call.payloads {
                if let Some(ty) = subject.type_of(p) {
                    if let Err(e) = p.decode(&ty) {
                        panic!(
                            "{subject} was found for {} but does not decode it: {e}",
                            p.file
                        );
                    }
                }
            }
        }
        if let Some((before, after)) = call.change() {
            for p in [before, after] {
                if let Ok(ty) = p.implied_type() {
                    let _ = p.decode(&ty);
                }
            }
        }
    }
}

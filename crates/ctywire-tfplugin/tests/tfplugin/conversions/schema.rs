//! Schema <-> protocol 6 messages: every field, every nesting mode, the real-world
//! schema dumps round-tripped, and the errors of malformed messages.

use std::path::PathBuf;

use ctywire::schema::{
    Attribute, AttributeNesting, Block, BlockNesting, DescriptionKind, Function, IdentityAttribute,
    IdentitySchema, NestedBlock, NestedType, Parameter, ProviderSchemas, Schema,
};
use ctywire::Type;
use ctywire_tfplugin::schema::*;
use ctywire_tfplugin::tfplugin6 as pb;
use pb::schema::nested_block::NestingMode as BlockMode;
use pb::schema::object::NestingMode as ObjectMode;

pub fn every_field_schema() -> Schema {
    let mut described = Attribute::new(Type::String).optional().computed();
    described.description = "A **markdown** description.".into();
    described.description_kind = DescriptionKind::Markdown;
    described.deprecated = true;
    described.deprecation_message = "use name".into();
    let mut nested = NestedType::new(
        AttributeNesting::Set,
        [("port", Attribute::new(Type::Number).required())],
    );
    nested.min_items = 1;
    nested.max_items = 3;
    let mut inner = Block::new().attribute("size", Attribute::new(Type::Number).required());
    inner.description = "a disk".into();
    inner.deprecated = true;
    inner.deprecation_message = "disks go".into();
    inner.description_kind = DescriptionKind::Markdown;
    let mut block = Block::new()
        .attribute(
            "secret",
            Attribute::new(Type::String).optional().sensitive(),
        )
        .attribute(
            "password",
            Attribute::new(Type::String).optional().write_only(),
        )
        .attribute("described", described)
        .attribute("tags", Attribute::new(Type::map(Type::String)).optional())
        .attribute("extra", Attribute::new(Type::Dynamic).optional())
        .attribute("ports", Attribute::nested(nested).optional())
        .block_type(
            "list",
            NestedBlock::new(BlockNesting::List, inner.clone())
                .min_items(1)
                .max_items(2),
        )
        .block_type(
            "set",
            NestedBlock::new(BlockNesting::Set, inner.clone().computed()),
        )
        .block_type(
            "single",
            NestedBlock::new(BlockNesting::Single, inner.clone()),
        )
        .block_type("map", NestedBlock::new(BlockNesting::Map, inner.clone()))
        .block_type("group", NestedBlock::new(BlockNesting::Group, inner));
    for nesting in [
        AttributeNesting::Single,
        AttributeNesting::List,
        AttributeNesting::Map,
    ] {
        let n = NestedType::new(nesting, [("x", Attribute::new(Type::Bool).optional())]);
        block = block.attribute(
            format!("nested_{}", nesting.as_str()),
            Attribute::nested(n).computed(),
        );
    }
    block.description = "top".into();
    Schema::new(block).version(7)
}

#[test]
fn every_field_goes_into_the_message() {
    let proto = schema_to_proto(&every_field_schema());
    assert_eq!(proto.version, 7);
    let block = proto.block.as_ref().unwrap();
    assert_eq!(block.description, "top");
    assert_eq!(block.description_kind, pb::StringKind::Plain as i32);
    let names: Vec<&str> = block.attributes.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "described",
            "extra",
            "nested_list",
            "nested_map",
            "nested_single",
            "password",
            "ports",
            "secret",
            "tags"
        ]
    );
    let attr = |name: &str| block.attributes.iter().find(|a| a.name == name).unwrap();
    let d = attr("described");
    assert_eq!(d.r#type, br#""string""#);
    assert!(d.optional && d.computed && !d.required && !d.sensitive && !d.write_only);
    assert!(d.deprecated);
    assert_eq!(d.deprecation_message, "use name");
    assert_eq!(d.description, "A **markdown** description.");
    assert_eq!(d.description_kind, pb::StringKind::Markdown as i32);
    assert!(attr("secret").sensitive);
    assert!(attr("password").write_only);
    assert_eq!(attr("tags").r#type, br#"["map","string"]"#);
    assert_eq!(attr("extra").r#type, br#""dynamic""#);
    let ports = attr("ports");
    assert!(ports.r#type.is_empty());
    let object = ports.nested_type.as_ref().unwrap();
    assert_eq!(object.nesting, ObjectMode::Set as i32);
    #[allow(deprecated)]
    let counts = (object.min_items, object.max_items);
    assert_eq!(counts, (1, 3));
    assert_eq!(object.attributes[0].name, "port");
    assert!(object.attributes[0].required);
    assert_eq!(
        attr("nested_single").nested_type.as_ref().unwrap().nesting,
        ObjectMode::Single as i32
    );
    assert_eq!(
        attr("nested_list").nested_type.as_ref().unwrap().nesting,
        ObjectMode::List as i32
    );
    assert_eq!(
        attr("nested_map").nested_type.as_ref().unwrap().nesting,
        ObjectMode::Map as i32
    );

    let modes: Vec<(&str, i32, i64, i64)> = block
        .block_types
        .iter()
        .map(|b| (b.type_name.as_str(), b.nesting, b.min_items, b.max_items))
        .collect();
    assert_eq!(
        modes,
        [
            ("group", BlockMode::Group as i32, 0, 0),
            ("list", BlockMode::List as i32, 1, 2),
            ("map", BlockMode::Map as i32, 0, 0),
            ("set", BlockMode::Set as i32, 0, 0),
            ("single", BlockMode::Single as i32, 0, 0),
        ]
    );
    let inner = block.block_types[0].block.as_ref().unwrap();
    assert_eq!(inner.description, "a disk");
    assert_eq!(inner.description_kind, pb::StringKind::Markdown as i32);
    assert!(inner.deprecated);
    assert_eq!(inner.deprecation_message, "disks go");
    assert_eq!(inner.attributes[0].name, "size");
    // Protocol 6.11's computed blocks: only the SET block's is.
    let computed: Vec<(&str, bool)> = block
        .block_types
        .iter()
        .map(|b| (b.type_name.as_str(), b.block.as_ref().unwrap().computed))
        .collect();
    assert_eq!(
        computed,
        [
            ("group", false),
            ("list", false),
            ("map", false),
            ("set", true),
            ("single", false)
        ]
    );
    assert!(!block.computed);
}

#[test]
fn every_field_comes_back() {
    let schema = every_field_schema();
    assert_eq!(
        schema_from_proto(&schema_to_proto(&schema)).unwrap(),
        schema
    );
}

#[test]
fn computed_blocks_are_read_from_the_message() {
    let mut proto = schema_to_proto(&every_field_schema());
    let block = proto.block.as_mut().unwrap();
    block.computed = true;
    block.block_types[1].block.as_mut().unwrap().computed = true;
    let schema = schema_from_proto(&proto).unwrap();
    assert!(schema.block.computed);
    assert!(schema.block.block_types["list"].block.computed);
    assert!(schema.block.block_types["set"].block.computed);
    assert!(!schema.block.block_types["map"].block.computed);
}

#[test]
fn malformed_messages_are_errors_with_paths() {
    let mut proto = schema_to_proto(&every_field_schema());
    let block = proto.block.as_mut().unwrap();
    block.block_types[1].block.as_mut().unwrap().attributes[0].r#type = b"[\"list\"".to_vec();
    let err = schema_from_proto(&proto).unwrap_err();
    assert_eq!(err.path().to_string(), ".list.size");

    let mut proto = schema_to_proto(&every_field_schema());
    proto.block.as_mut().unwrap().block_types[0].nesting = 0;
    let err = schema_from_proto(&proto).unwrap_err();
    assert_eq!(err.path().to_string(), ".group");
    assert!(err.message().contains("nesting mode 0"), "{err}");

    let mut proto = schema_to_proto(&every_field_schema());
    proto.block.as_mut().unwrap().block_types[1].max_items = -1;
    assert_eq!(
        schema_from_proto(&proto).unwrap_err().path().to_string(),
        ".list"
    );

    let mut proto = schema_to_proto(&every_field_schema());
    let ports = proto
        .block
        .as_mut()
        .unwrap()
        .attributes
        .iter_mut()
        .find(|a| a.name == "ports")
        .unwrap();
    ports.nested_type.as_mut().unwrap().nesting = 9;
    assert_eq!(
        schema_from_proto(&proto).unwrap_err().path().to_string(),
        ".ports"
    );

    let mut proto = schema_to_proto(&every_field_schema());
    proto.block.as_mut().unwrap().attributes[0].description_kind = 5;
    assert_eq!(
        schema_from_proto(&proto).unwrap_err().path().to_string(),
        ".described"
    );

    let mut proto = schema_to_proto(&every_field_schema());
    let first = proto.block.as_ref().unwrap().attributes[0].clone();
    proto.block.as_mut().unwrap().attributes.push(first);
    assert!(schema_from_proto(&proto)
        .unwrap_err()
        .message()
        .contains("twice"));

    let proto = pb::Schema {
        version: -2,
        block: None,
    };
    assert!(schema_from_proto(&proto).is_err());
}

#[test]
fn identity_schemas_both_ways() {
    let mut identity = IdentitySchema {
        version: 2,
        ..IdentitySchema::default()
    };
    identity.attributes.insert(
        "id".into(),
        IdentityAttribute {
            ty: Type::String,
            description: "the id".into(),
            required_for_import: true,
            optional_for_import: false,
        },
    );
    identity.attributes.insert(
        "region".into(),
        IdentityAttribute {
            ty: Type::list(Type::Number),
            description: String::new(),
            required_for_import: false,
            optional_for_import: true,
        },
    );
    let proto = identity_schema_to_proto(&identity);
    assert_eq!(proto.version, 2);
    let a = &proto.identity_attributes[0];
    assert_eq!(
        (a.name.as_str(), a.r#type.as_slice(), a.description.as_str()),
        ("id", &br#""string""#[..], "the id")
    );
    assert!(a.required_for_import && !a.optional_for_import);
    let b = &proto.identity_attributes[1];
    assert_eq!(b.r#type, br#"["list","number"]"#);
    assert!(!b.required_for_import && b.optional_for_import);
    assert_eq!(identity_schema_from_proto(&proto).unwrap(), identity);

    let mut bad = proto.clone();
    bad.identity_attributes[1].r#type = b"nope".to_vec();
    assert_eq!(
        identity_schema_from_proto(&bad)
            .unwrap_err()
            .path()
            .to_string(),
        ".region"
    );
}

#[test]
fn functions_both_ways() {
    let function = Function {
        summary: "joins".into(),
        description: "Joins *parts*.".into(),
        description_kind: DescriptionKind::Markdown,
        deprecation_message: "use join2".into(),
        return_type: Type::String,
        parameters: vec![
            Parameter::new("separator", Type::String)
                .description("between parts")
                .nullable(),
            Parameter::new("value", Type::Dynamic).allow_unknown_values(),
        ],
        variadic_parameter: Some(Parameter {
            name: "parts".into(),
            description: String::new(),
            description_kind: DescriptionKind::Markdown,
            is_nullable: false,
            allow_unknown_values: true,
            ty: Type::Dynamic,
        }),
    };
    let proto = function_to_proto(&function);
    assert_eq!(proto.summary, "joins");
    assert_eq!(proto.description, "Joins *parts*.");
    assert_eq!(proto.description_kind, pb::StringKind::Markdown as i32);
    assert_eq!(proto.deprecation_message, "use join2");
    assert_eq!(proto.r#return.as_ref().unwrap().r#type, br#""string""#);
    let p = &proto.parameters[0];
    assert_eq!(
        (p.name.as_str(), p.description.as_str()),
        ("separator", "between parts")
    );
    assert!(p.allow_null_value && !p.allow_unknown_values);
    let p = &proto.parameters[1];
    assert!(!p.allow_null_value && p.allow_unknown_values);
    let v = proto.variadic_parameter.as_ref().unwrap();
    assert_eq!(
        (v.name.as_str(), v.r#type.as_slice()),
        ("parts", &br#""dynamic""#[..])
    );
    assert_eq!(v.description_kind, pb::StringKind::Markdown as i32);
    assert!(v.allow_unknown_values);
    assert_eq!(function_from_proto(&proto).unwrap(), function);
    // Read from the message alone.
    let mut only_unknowns = proto.clone();
    only_unknowns.parameters[0].allow_unknown_values = true;
    assert!(function_from_proto(&only_unknowns).unwrap().parameters[0].allow_unknown_values);

    let mut bad = proto.clone();
    bad.parameters[0].r#type = b"{".to_vec();
    assert_eq!(
        function_from_proto(&bad).unwrap_err().path().to_string(),
        ".parameters[0]"
    );
    let mut bad = proto;
    bad.r#return = None;
    assert_eq!(
        function_from_proto(&bad).unwrap_err().path().to_string(),
        ".return"
    );
}

/// The real-world corpus folder, when it is there.
pub fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("CTYWIRE_REALWORLD").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/realworld"),
        PathBuf::from,
    );
    dir.join("pairings.tsv").is_file().then_some(dir)
}

#[test]
fn real_world_schemas_round_trip_through_the_messages() {
    let Some(dir) = corpus() else {
        super::skipped(
            "no real-world corpus (not committed; CTYWIRE_REALWORLD names its directory)",
        );
        return;
    };
    let mut files = Vec::new();
    for sub in ["schemas", "derived"] {
        for entry in std::fs::read_dir(dir.join(sub)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
    }
    files.sort();
    let (mut documents, mut schemas) = (0, 0);
    for file in &files {
        let Ok(doc) = ProviderSchemas::from_json(&std::fs::read(file).unwrap()) else {
            continue; // not a `providers schema -json` document
        };
        documents += 1;
        for (address, provider) in &doc.providers {
            let response = provider_schema_response(provider);
            let back = |s: &pb::Schema| schema_from_proto(s).unwrap();
            let at =
                |kind: &str, name: &str| format!("{}: {address} {kind} {name}", file.display());
            assert_eq!(
                &back(response.provider.as_ref().unwrap()),
                &provider.provider,
                "{}",
                at("provider", "")
            );
            for (kind, ours, theirs) in [
                (
                    "resource",
                    &provider.resource_schemas,
                    &response.resource_schemas,
                ),
                (
                    "data source",
                    &provider.data_source_schemas,
                    &response.data_source_schemas,
                ),
                (
                    "ephemeral",
                    &provider.ephemeral_resource_schemas,
                    &response.ephemeral_resource_schemas,
                ),
                (
                    "list",
                    &provider.list_resource_schemas,
                    &response.list_resource_schemas,
                ),
                (
                    "state store",
                    &provider.state_store_schemas,
                    &response.state_store_schemas,
                ),
            ] {
                assert_eq!(ours.len(), theirs.len());
                for (name, schema) in ours {
                    assert_eq!(&back(&theirs[name]), schema, "{}", at(kind, name));
                    schemas += 1;
                }
            }
            for (name, schema) in &provider.action_schemas {
                let proto = response.action_schemas[name].schema.as_ref().unwrap();
                assert_eq!(&back(proto), schema, "{}", at("action", name));
            }
            for (name, function) in &provider.functions {
                assert_eq!(
                    &function_from_proto(&response.functions[name]).unwrap(),
                    function,
                    "{}",
                    at("function", name)
                );
            }
            let identities = identity_schemas_response(provider);
            for (name, identity) in &provider.resource_identity_schemas {
                let back = identity_schema_from_proto(&identities.identity_schemas[name]).unwrap();
                assert_eq!(&back, identity, "{}", at("identity", name));
            }
        }
    }
    eprintln!("{documents} documents, {schemas} schemas round-tripped");
    assert!(
        documents > 10 && schemas > 1000,
        "{documents} documents, {schemas} schemas"
    );
}

//! Protocol 5's conversions: the same fields as protocol 6's under protocol 5's numbers,
//! and no nested attributes.

use ctywire::schema::{
    DescriptionKind, Function, IdentityAttribute, IdentitySchema, Parameter, ProviderSchemas,
    Schema,
};
use ctywire::{Path, Type, Value};
use ctywire_tfplugin::{diagnostic, tfplugin5 as pb5, tfplugin6 as pb6, v5};

use super::schema::{corpus, every_field_schema};

/// The every-field schema without its nested attributes and computed blocks, which
/// protocol 5 lacks.
fn without_nested_attributes(mut schema: Schema) -> Schema {
    schema
        .block
        .attributes
        .retain(|_, a| a.nested_type.is_none());
    for nested in schema.block.block_types.values_mut() {
        nested.block.computed = false;
    }
    schema
}

#[test]
fn schemas_carry_every_field_of_protocol_6() {
    let schema = without_nested_attributes(every_field_schema());
    let five = v5::schema_to_proto(&schema).unwrap();
    let six = ctywire_tfplugin::schema::schema_to_proto(&schema);
    assert_eq!(five.version, six.version);
    let (b5, b6) = (five.block.as_ref().unwrap(), six.block.as_ref().unwrap());
    assert_eq!(b5.description, b6.description);
    assert_eq!(b5.attributes.len(), b6.attributes.len());
    for (a5, a6) in b5.attributes.iter().zip(&b6.attributes) {
        assert_eq!(
            (
                &a5.name,
                &a5.r#type,
                &a5.description,
                a5.description_kind,
                &a5.deprecation_message
            ),
            (
                &a6.name,
                &a6.r#type,
                &a6.description,
                a6.description_kind,
                &a6.deprecation_message
            )
        );
        assert_eq!(
            (
                a5.required,
                a5.optional,
                a5.computed,
                a5.sensitive,
                a5.deprecated,
                a5.write_only
            ),
            (
                a6.required,
                a6.optional,
                a6.computed,
                a6.sensitive,
                a6.deprecated,
                a6.write_only
            )
        );
    }
    for (n5, n6) in b5.block_types.iter().zip(&b6.block_types) {
        assert_eq!(
            (&n5.type_name, n5.nesting, n5.min_items, n5.max_items),
            (&n6.type_name, n6.nesting, n6.min_items, n6.max_items)
        );
        let (i5, i6) = (n5.block.as_ref().unwrap(), n6.block.as_ref().unwrap());
        assert_eq!(
            (
                &i5.description,
                i5.description_kind,
                i5.deprecated,
                &i5.deprecation_message
            ),
            (
                &i6.description,
                i6.description_kind,
                i6.deprecated,
                &i6.deprecation_message
            )
        );
    }
    assert_eq!(v5::schema_from_proto(&five).unwrap(), schema);
}

#[test]
fn nested_attributes_are_an_error_at_their_path() {
    let err = v5::schema_to_proto(&every_field_schema()).unwrap_err();
    assert_eq!(err.path().to_string(), ".nested_list");
    let mut schemas = ctywire::schema::ProviderSchema::default();
    schemas
        .resource_schemas
        .insert("x_thing".into(), every_field_schema());
    let err = v5::provider_schema_response(&schemas).unwrap_err();
    assert_eq!(err.path().to_string(), ".x_thing.nested_list");
}

#[test]
fn computed_blocks_are_an_error_at_their_path() {
    let mut schema = every_field_schema();
    schema
        .block
        .attributes
        .retain(|_, a| a.nested_type.is_none());
    let err = v5::schema_to_proto(&schema).unwrap_err();
    assert_eq!(err.path().to_string(), ".set", "{err}");
    assert!(err.message().contains("computed blocks"), "{err}");
    let top = Schema::new(ctywire::schema::Block::new().computed());
    assert_eq!(
        v5::schema_to_proto(&top).unwrap_err().path().to_string(),
        ""
    );
}

#[test]
fn identities_functions_paths_and_diagnostics() {
    let mut identity = IdentitySchema {
        version: 3,
        ..IdentitySchema::default()
    };
    identity.attributes.insert(
        "id".into(),
        IdentityAttribute {
            ty: Type::String,
            description: "d".into(),
            required_for_import: true,
            optional_for_import: false,
        },
    );
    let proto = v5::identity_schema_to_proto(&identity);
    assert_eq!(proto.version, 3);
    let a = &proto.identity_attributes[0];
    assert_eq!(
        (
            a.name.as_str(),
            a.r#type.as_slice(),
            a.description.as_str(),
            a.required_for_import
        ),
        ("id", &br#""string""#[..], "d", true)
    );
    assert_eq!(v5::identity_schema_from_proto(&proto).unwrap(), identity);

    let function = Function {
        summary: "s".into(),
        description: "d".into(),
        description_kind: DescriptionKind::Markdown,
        deprecation_message: "m".into(),
        return_type: Type::Number,
        parameters: vec![Parameter {
            name: "p".into(),
            description: String::new(),
            description_kind: DescriptionKind::Plain,
            is_nullable: true,
            allow_unknown_values: true,
            ty: Type::Dynamic,
        }],
        variadic_parameter: None,
    };
    let proto = v5::function_to_proto(&function);
    assert_eq!(
        (proto.summary.as_str(), proto.description_kind),
        ("s", pb5::StringKind::Markdown as i32)
    );
    assert!(proto.parameters[0].allow_null_value && proto.parameters[0].allow_unknown_values);
    assert_eq!(proto.r#return.as_ref().unwrap().r#type, br#""number""#);
    assert_eq!(v5::function_from_proto(&proto).unwrap(), function);

    let path = Path::root()
        .attribute("disk")
        .index(1)
        .attribute("tags")
        .key("a");
    let proto = v5::path_to_proto(&path);
    assert_eq!(proto.steps.len(), 4);
    assert!(matches!(
        proto.steps[1].selector,
        Some(pb5::attribute_path::step::Selector::ElementKeyInt(1))
    ));
    assert_eq!(v5::path_from_proto(&proto).unwrap(), path);
    let labels = Path::root().attribute("labels").element(Value::from("x"));
    let ty: Type = "object({labels=set(string)})".parse().unwrap();
    assert_eq!(
        v5::path_from_proto_typed(&v5::path_to_proto(&labels), &ty).unwrap(),
        labels
    );

    let d6 = diagnostic::error("S", "D", &path);
    let d5 = v5::diagnostic(&d6);
    assert_eq!(
        (d5.severity, d5.summary.as_str(), d5.detail.as_str()),
        (pb6::diagnostic::Severity::Error as i32, "S", "D")
    );
    assert_eq!(
        v5::path_from_proto(d5.attribute.as_ref().unwrap()).unwrap(),
        path
    );
    let err = ctywire::json::decode(br#"{"a":true}"#, &"object({a=number})".parse().unwrap())
        .unwrap_err();
    assert_eq!(
        v5::diagnostic_from_error(&err, "Bad")
            .attribute
            .unwrap()
            .steps
            .len(),
        1
    );
}

#[test]
fn real_world_schemas_without_nested_attributes_round_trip() {
    let Some(dir) = corpus() else {
        super::skipped(
            "no real-world corpus (not committed; CTYWIRE_REALWORLD names its directory)",
        );
        return;
    };
    let mut checked = 0;
    for entry in std::fs::read_dir(dir.join("schemas")).unwrap() {
        let path = entry.unwrap().path();
        let Ok(doc) = ProviderSchemas::from_json(&std::fs::read(&path).unwrap()) else {
            continue;
        };
        for provider in doc.providers.values() {
            for (name, schema) in &provider.resource_schemas {
                match v5::schema_to_proto(schema) {
                    Ok(proto) => {
                        assert_eq!(
                            &v5::schema_from_proto(&proto).unwrap(),
                            schema,
                            "{}: {name}",
                            path.display()
                        );
                        checked += 1;
                    }
                    Err(e) => assert!(e.message().contains("nested attributes"), "{e}"),
                }
            }
        }
    }
    eprintln!("{checked} resource schemas round-tripped through protocol 5");
    assert!(checked > 1000, "{checked}");
}

//! Protocol 5's versions of the conversions, for a provider that serves `tfplugin5`.
//!
//! Protocol 5's `AttributePath`, `Diagnostic`, `Function` and `ResourceIdentitySchema`
//! are protocol 6's field for field, so they are protocol 6's conversions re-encoded;
//! its `Schema` has the same fields under other numbers but no nested attributes and no
//! computed blocks (6.11's `Schema.Block.computed`), so a schema with a nested attribute
//! or a computed block is an error here (at the attribute's or block type's path), not
//! a schema quietly served without them. A protocol 5 schema read back has no computed
//! blocks.
//!
//! ```
//! use ctywire::schema::{Attribute, AttributeNesting, Block, NestedType, Schema};
//! use ctywire::Type;
//! use ctywire_tfplugin::v5;
//!
//! let schema = Schema::new(Block::new().attribute("name", Attribute::new(Type::String).required()));
//! let proto = v5::schema_to_proto(&schema)?;
//! assert_eq!(proto.block.as_ref().unwrap().attributes[0].name, "name");
//! assert_eq!(v5::schema_from_proto(&proto)?, schema);
//!
//! let nested = NestedType::new(AttributeNesting::Single, [("host", Attribute::new(Type::String).optional())]);
//! let schema = Schema::new(Block::new().attribute("endpoint", Attribute::nested(nested).optional()));
//! let err = v5::schema_to_proto(&schema).unwrap_err();
//! assert_eq!(err.path().to_string(), ".endpoint");
//! # Ok::<(), ctywire::Error>(())
//! ```

use ctywire::schema::{Function, IdentitySchema, Inconsistency, ProviderSchema, Schema, Violation};
use ctywire::{Error, ErrorKind, Path, Type};
use prost::Message;

use crate::{tfplugin5 as pb5, tfplugin6 as pb6};

/// A protocol 6 message as the protocol 5 message with the same fields and numbers.
fn recode<A: Message, B: Message + Default>(message: &A) -> B {
    // Both sides are generated from definitions with the same fields and numbers, so
    // the bytes of one are always a valid other (tests compare them field by field).
    B::decode(message.encode_to_vec().as_slice()).unwrap_or_default()
}

/// A schema as a protocol 5 `Schema` message; a nested attribute or a computed block
/// is an error.
pub fn schema_to_proto(schema: &Schema) -> Result<pb5::Schema, Error> {
    let v6 = crate::schema::schema_to_proto(schema);
    Ok(pb5::Schema {
        version: v6.version,
        block: v6
            .block
            .as_ref()
            .map(|b| block_to_v5(b, &Path::root()))
            .transpose()?,
    })
}

/// A protocol 5 `Schema` message as a schema.
pub fn schema_from_proto(proto: &pb5::Schema) -> Result<Schema, Error> {
    crate::schema::schema_from_proto(&pb6::Schema {
        version: proto.version,
        block: proto.block.as_ref().map(block_to_v6),
    })
}

fn block_to_v5(block: &pb6::schema::Block, at: &Path) -> Result<pb5::schema::Block, Error> {
    if block.computed {
        return Err(Error::new(
            ErrorKind::Unencodable,
            "protocol 5 has no computed blocks (Schema.Block.computed)",
        )
        .at(at));
    }
    let mut attributes = Vec::with_capacity(block.attributes.len());
    for a in &block.attributes {
        if a.nested_type.is_some() {
            return Err(Error::new(
                ErrorKind::Unencodable,
                "protocol 5 has no nested attributes (Schema.Object)",
            )
            .at(&at.clone().attribute(a.name.as_str())));
        }
        attributes.push(pb5::schema::Attribute {
            name: a.name.clone(),
            r#type: a.r#type.clone(),
            description: a.description.clone(),
            required: a.required,
            optional: a.optional,
            computed: a.computed,
            sensitive: a.sensitive,
            description_kind: a.description_kind,
            deprecated: a.deprecated,
            write_only: a.write_only,
            deprecation_message: a.deprecation_message.clone(),
        });
    }
    let mut block_types = Vec::with_capacity(block.block_types.len());
    for b in &block.block_types {
        let path = at.clone().attribute(b.type_name.as_str());
        block_types.push(pb5::schema::NestedBlock {
            type_name: b.type_name.clone(),
            block: b
                .block
                .as_ref()
                .map(|b| block_to_v5(b, &path))
                .transpose()?,
            nesting: b.nesting,
            min_items: b.min_items,
            max_items: b.max_items,
        });
    }
    Ok(pb5::schema::Block {
        version: block.version,
        attributes,
        block_types,
        description: block.description.clone(),
        description_kind: block.description_kind,
        deprecated: block.deprecated,
        deprecation_message: block.deprecation_message.clone(),
    })
}

fn block_to_v6(block: &pb5::schema::Block) -> pb6::schema::Block {
    pb6::schema::Block {
        version: block.version,
        attributes: block
            .attributes
            .iter()
            .map(|a| pb6::schema::Attribute {
                name: a.name.clone(),
                r#type: a.r#type.clone(),
                nested_type: None,
                description: a.description.clone(),
                required: a.required,
                optional: a.optional,
                computed: a.computed,
                sensitive: a.sensitive,
                description_kind: a.description_kind,
                deprecated: a.deprecated,
                write_only: a.write_only,
                deprecation_message: a.deprecation_message.clone(),
            })
            .collect(),
        block_types: block
            .block_types
            .iter()
            .map(|b| pb6::schema::NestedBlock {
                type_name: b.type_name.clone(),
                block: b.block.as_ref().map(block_to_v6),
                nesting: b.nesting,
                min_items: b.min_items,
                max_items: b.max_items,
            })
            .collect(),
        description: block.description.clone(),
        description_kind: block.description_kind,
        deprecated: block.deprecated,
        deprecation_message: block.deprecation_message.clone(),
        computed: false,
    }
}

/// A resource identity schema as a protocol 5 `ResourceIdentitySchema` message.
pub fn identity_schema_to_proto(schema: &IdentitySchema) -> pb5::ResourceIdentitySchema {
    recode(&crate::schema::identity_schema_to_proto(schema))
}

/// A protocol 5 `ResourceIdentitySchema` message as a resource identity schema.
pub fn identity_schema_from_proto(
    proto: &pb5::ResourceIdentitySchema,
) -> Result<IdentitySchema, Error> {
    crate::schema::identity_schema_from_proto(&recode(proto))
}

/// A function signature as a protocol 5 `Function` message.
pub fn function_to_proto(function: &Function) -> pb5::Function {
    recode(&crate::schema::function_to_proto(function))
}

/// A protocol 5 `Function` message as a function signature.
pub fn function_from_proto(proto: &pb5::Function) -> Result<Function, Error> {
    crate::schema::function_from_proto(&recode(proto))
}

/// A provider's protocol 5 `GetProviderSchema` response (protocol 5 has no state
/// stores); a nested attribute anywhere is an error.
pub fn provider_schema_response(
    provider: &ProviderSchema,
) -> Result<pb5::get_provider_schema::Response, Error> {
    type Schemas = std::collections::BTreeMap<String, Schema>;
    let schemas = |m: &Schemas| -> Result<std::collections::HashMap<String, pb5::Schema>, Error> {
        m.iter()
            .map(|(name, s)| {
                schema_to_proto(s)
                    .map(|p| (name.clone(), p))
                    .map_err(|e| e.at(&Path::root().attribute(name.as_str())))
            })
            .collect()
    };
    let v6 = crate::schema::provider_schema_response(provider);
    Ok(pb5::get_provider_schema::Response {
        provider: Some(schema_to_proto(&provider.provider)?),
        resource_schemas: schemas(&provider.resource_schemas)?,
        data_source_schemas: schemas(&provider.data_source_schemas)?,
        ephemeral_resource_schemas: schemas(&provider.ephemeral_resource_schemas)?,
        list_resource_schemas: schemas(&provider.list_resource_schemas)?,
        action_schemas: schemas(&provider.action_schemas)?
            .into_iter()
            .map(|(name, schema)| {
                (
                    name,
                    pb5::ActionSchema {
                        schema: Some(schema),
                    },
                )
            })
            .collect(),
        functions: v6
            .functions
            .iter()
            .map(|(name, f)| (name.clone(), recode(f)))
            .collect(),
        diagnostics: Vec::new(),
        provider_meta: None,
        server_capabilities: v6.server_capabilities.as_ref().map(recode),
    })
}

/// `path` as a protocol 5 `AttributePath` (see [`crate::path::path_to_proto`]).
pub fn path_to_proto(path: &Path) -> pb5::AttributePath {
    recode(&crate::path::path_to_proto(path))
}

/// A protocol 5 `AttributePath` as a path (see [`crate::path::path_from_proto`]).
pub fn path_from_proto(proto: &pb5::AttributePath) -> Result<Path, Error> {
    crate::path::path_from_proto(&recode(proto))
}

/// A protocol 5 `AttributePath` as a path into a value of type `ty` (see
/// [`crate::path::path_from_proto_typed`]).
pub fn path_from_proto_typed(proto: &pb5::AttributePath, ty: &Type) -> Result<Path, Error> {
    crate::path::path_from_proto_typed(&recode(proto), ty)
}

/// A protocol 6 diagnostic (from [`crate::diagnostic`]) as protocol 5's.
pub fn diagnostic(diagnostic: &pb6::Diagnostic) -> pb5::Diagnostic {
    recode(diagnostic)
}

/// An error diagnostic for `err` at its path (see [`crate::diagnostic::from_error`]).
pub fn diagnostic_from_error(err: &Error, summary: &str) -> pb5::Diagnostic {
    diagnostic(&crate::diagnostic::from_error(err, summary))
}

/// An error diagnostic for a broken plan or apply rule (see
/// [`crate::diagnostic::from_inconsistency`]).
pub fn diagnostic_from_inconsistency(
    inconsistency: &Inconsistency,
    summary: &str,
) -> pb5::Diagnostic {
    diagnostic(&crate::diagnostic::from_inconsistency(
        inconsistency,
        summary,
    ))
}

/// An error diagnostic for a check's violation (see
/// [`crate::diagnostic::from_violation`]).
pub fn diagnostic_from_violation(violation: &Violation, summary: &str) -> pb5::Diagnostic {
    diagnostic(&crate::diagnostic::from_violation(violation, summary))
}

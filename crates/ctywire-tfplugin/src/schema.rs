//! Schemas: [`ctywire::schema`]'s model to and from protocol 6's `Schema`,
//! `ResourceIdentitySchema` and `Function` messages, and a provider's whole
//! `GetProviderSchema` response from one [`ProviderSchema`].
//!
//! Reading a message checks what the model cannot hold: an invalid nesting mode, a
//! negative item count, an attribute's type that is not type JSON. Errors name where, as
//! a path of attribute and block names (`.disk.size`).
//!
//! ```
//! use ctywire::schema::{Attribute, Block, BlockNesting, NestedBlock, Schema};
//! use ctywire::Type;
//! use ctywire_tfplugin::schema::{schema_from_proto, schema_to_proto};
//!
//! let disk = Block::new().attribute("size", Attribute::new(Type::Number).required());
//! let schema = Schema::new(
//!     Block::new()
//!         .attribute("name", Attribute::new(Type::String).required())
//!         .block_type("disk", NestedBlock::new(BlockNesting::List, disk).max_items(4)),
//! )
//! .version(1);
//! let proto = schema_to_proto(&schema);
//! let block = proto.block.as_ref().unwrap();
//! assert_eq!(block.attributes[0].name, "name");
//! assert_eq!(block.attributes[0].r#type, br#""string""#);
//! assert_eq!(block.block_types[0].max_items, 4);
//! assert_eq!(schema_from_proto(&proto)?, schema);
//! # Ok::<(), ctywire::Error>(())
//! ```

use ctywire::schema::{
    Attribute, AttributeNesting, Block, BlockNesting, DescriptionKind, Function, IdentityAttribute,
    IdentitySchema, NestedBlock, NestedType, Parameter, ProviderSchema, Schema,
};
use ctywire::{Error, ErrorKind, Path, Type};

use crate::tfplugin6 as pb;
use pb::schema::nested_block::NestingMode as BlockMode;
use pb::schema::object::NestingMode as ObjectMode;

/// A schema as a protocol 6 `Schema` message.
pub fn schema_to_proto(schema: &Schema) -> pb::Schema {
    pb::Schema {
        version: i64::try_from(schema.version).unwrap_or(i64::MAX),
        block: Some(block_to_proto(&schema.block)),
    }
}

/// A protocol 6 `Schema` message as a schema. A missing block is an empty block.
pub fn schema_from_proto(proto: &pb::Schema) -> Result<Schema, Error> {
    let block = match &proto.block {
        Some(block) => block_from_proto(block, &Path::root())?,
        None => Block::new(),
    };
    Ok(Schema::new(block).version(count(proto.version, "version", &Path::root())?))
}

/// A block as a `Schema.Block` message (attributes and block types in name order).
pub fn block_to_proto(block: &Block) -> pb::schema::Block {
    pb::schema::Block {
        version: 0,
        attributes: block
            .attributes
            .iter()
            .map(|(name, a)| attribute_to_proto(name, a))
            .collect(),
        block_types: block
            .block_types
            .iter()
            .map(|(name, nested)| pb::schema::NestedBlock {
                type_name: name.clone(),
                block: Some(block_to_proto(&nested.block)),
                nesting: block_nesting_to_proto(nested.nesting) as i32,
                min_items: i64::try_from(nested.min_items).unwrap_or(i64::MAX),
                max_items: i64::try_from(nested.max_items).unwrap_or(i64::MAX),
            })
            .collect(),
        description: block.description.clone(),
        description_kind: kind_to_proto(block.description_kind) as i32,
        deprecated: block.deprecated,
        deprecation_message: block.deprecation_message.clone(),
        computed: block.computed,
    }
}

/// A `Schema.Block` message as a block; `at` is where the block is, for errors.
pub fn block_from_proto(proto: &pb::schema::Block, at: &Path) -> Result<Block, Error> {
    let mut block = Block::new();
    for attribute in &proto.attributes {
        let path = at.clone().attribute(attribute.name.as_str());
        if block.attributes.contains_key(&attribute.name) {
            return Err(invalid("the attribute is declared twice", &path));
        }
        block.attributes.insert(
            attribute.name.clone(),
            attribute_from_proto(attribute, &path)?,
        );
    }
    for nested in &proto.block_types {
        let path = at.clone().attribute(nested.type_name.as_str());
        if block.attributes.contains_key(&nested.type_name)
            || block.block_types.contains_key(&nested.type_name)
        {
            return Err(invalid("the block type's name is declared twice", &path));
        }
        let nesting = match BlockMode::try_from(nested.nesting) {
            Ok(BlockMode::Single) => BlockNesting::Single,
            Ok(BlockMode::List) => BlockNesting::List,
            Ok(BlockMode::Set) => BlockNesting::Set,
            Ok(BlockMode::Map) => BlockNesting::Map,
            Ok(BlockMode::Group) => BlockNesting::Group,
            Ok(BlockMode::Invalid) | Err(_) => {
                return Err(invalid(
                    format!("invalid block nesting mode {}", nested.nesting),
                    &path,
                ))
            }
        };
        let inner = match &nested.block {
            Some(b) => block_from_proto(b, &path)?,
            None => Block::new(),
        };
        let value = NestedBlock::new(nesting, inner)
            .min_items(count(nested.min_items, "min_items", &path)?)
            .max_items(count(nested.max_items, "max_items", &path)?);
        block.block_types.insert(nested.type_name.clone(), value);
    }
    block.description = proto.description.clone();
    block.description_kind = kind_from_proto(proto.description_kind, at)?;
    block.deprecated = proto.deprecated;
    block.deprecation_message = proto.deprecation_message.clone();
    block.computed = proto.computed;
    Ok(block)
}

// The nested type's item counts are deprecated in the protocol but kept by the model
// (a minimum above 0 makes the attribute required), so they travel both ways.
#[allow(deprecated)]
fn attribute_to_proto(name: &str, a: &Attribute) -> pb::schema::Attribute {
    pb::schema::Attribute {
        name: name.to_owned(),
        r#type: a
            .ty
            .as_ref()
            .map(|t| t.to_json().into_bytes())
            .unwrap_or_default(),
        nested_type: a.nested_type.as_ref().map(|n| pb::schema::Object {
            attributes: n
                .attributes
                .iter()
                .map(|(name, a)| attribute_to_proto(name, a))
                .collect(),
            nesting: attribute_nesting_to_proto(n.nesting) as i32,
            min_items: i64::try_from(n.min_items).unwrap_or(i64::MAX),
            max_items: i64::try_from(n.max_items).unwrap_or(i64::MAX),
        }),
        description: a.description.clone(),
        required: a.required,
        optional: a.optional,
        computed: a.computed,
        sensitive: a.sensitive,
        description_kind: kind_to_proto(a.description_kind) as i32,
        deprecated: a.deprecated,
        write_only: a.write_only,
        deprecation_message: a.deprecation_message.clone(),
    }
}

#[allow(deprecated)]
fn attribute_from_proto(proto: &pb::schema::Attribute, at: &Path) -> Result<Attribute, Error> {
    let mut a = Attribute::default();
    if !proto.r#type.is_empty() {
        a.ty = Some(type_from_proto(&proto.r#type, at)?);
    }
    if let Some(object) = &proto.nested_type {
        let nesting = match ObjectMode::try_from(object.nesting) {
            Ok(ObjectMode::Single) => AttributeNesting::Single,
            Ok(ObjectMode::List) => AttributeNesting::List,
            Ok(ObjectMode::Set) => AttributeNesting::Set,
            Ok(ObjectMode::Map) => AttributeNesting::Map,
            Ok(ObjectMode::Invalid) | Err(_) => {
                return Err(invalid(
                    format!("invalid nested attribute nesting mode {}", object.nesting),
                    at,
                ))
            }
        };
        let mut attributes = Vec::with_capacity(object.attributes.len());
        for inner in &object.attributes {
            let path = at.clone().attribute(inner.name.as_str());
            if attributes.iter().any(|(n, _)| n == &inner.name) {
                return Err(invalid("the attribute is declared twice", &path));
            }
            attributes.push((inner.name.clone(), attribute_from_proto(inner, &path)?));
        }
        let mut nested = NestedType::new(nesting, attributes);
        nested.min_items = count(object.min_items, "min_items", at)?;
        nested.max_items = count(object.max_items, "max_items", at)?;
        a.nested_type = Some(nested);
    }
    a.description = proto.description.clone();
    a.description_kind = kind_from_proto(proto.description_kind, at)?;
    a.required = proto.required;
    a.optional = proto.optional;
    a.computed = proto.computed;
    a.sensitive = proto.sensitive;
    a.write_only = proto.write_only;
    a.deprecated = proto.deprecated;
    a.deprecation_message = proto.deprecation_message.clone();
    Ok(a)
}

/// A resource identity schema as a `ResourceIdentitySchema` message.
pub fn identity_schema_to_proto(schema: &IdentitySchema) -> pb::ResourceIdentitySchema {
    pb::ResourceIdentitySchema {
        version: i64::try_from(schema.version).unwrap_or(i64::MAX),
        identity_attributes: schema
            .attributes
            .iter()
            .map(
                |(name, a)| pb::resource_identity_schema::IdentityAttribute {
                    name: name.clone(),
                    r#type: a.ty.to_json().into_bytes(),
                    required_for_import: a.required_for_import,
                    optional_for_import: a.optional_for_import,
                    description: a.description.clone(),
                },
            )
            .collect(),
    }
}

/// A `ResourceIdentitySchema` message as a resource identity schema.
pub fn identity_schema_from_proto(
    proto: &pb::ResourceIdentitySchema,
) -> Result<IdentitySchema, Error> {
    let mut schema = IdentitySchema {
        version: count(proto.version, "version", &Path::root())?,
        ..IdentitySchema::default()
    };
    for a in &proto.identity_attributes {
        let path = Path::root().attribute(a.name.as_str());
        if schema.attributes.contains_key(&a.name) {
            return Err(invalid("the attribute is declared twice", &path));
        }
        let ty = if a.r#type.is_empty() {
            Type::Dynamic
        } else {
            type_from_proto(&a.r#type, &path)?
        };
        schema.attributes.insert(
            a.name.clone(),
            IdentityAttribute {
                ty,
                description: a.description.clone(),
                required_for_import: a.required_for_import,
                optional_for_import: a.optional_for_import,
            },
        );
    }
    Ok(schema)
}

/// A function signature as a `Function` message.
pub fn function_to_proto(function: &Function) -> pb::Function {
    let parameter = |p: &Parameter| pb::function::Parameter {
        name: p.name.clone(),
        r#type: p.ty.to_json().into_bytes(),
        allow_null_value: p.is_nullable,
        allow_unknown_values: p.allow_unknown_values,
        description: p.description.clone(),
        description_kind: kind_to_proto(p.description_kind) as i32,
    };
    pb::Function {
        parameters: function.parameters.iter().map(parameter).collect(),
        variadic_parameter: function.variadic_parameter.as_ref().map(parameter),
        r#return: Some(pb::function::Return {
            r#type: function.return_type.to_json().into_bytes(),
        }),
        summary: function.summary.clone(),
        description: function.description.clone(),
        description_kind: kind_to_proto(function.description_kind) as i32,
        deprecation_message: function.deprecation_message.clone(),
    }
}

/// A `Function` message as a function signature; errors name the parameter
/// (`.parameters[1]`, `.variadic_parameter`, `.return`).
pub fn function_from_proto(proto: &pb::Function) -> Result<Function, Error> {
    let parameter = |p: &pb::function::Parameter, at: &Path| -> Result<Parameter, Error> {
        Ok(Parameter {
            name: p.name.clone(),
            description: p.description.clone(),
            description_kind: kind_from_proto(p.description_kind, at)?,
            is_nullable: p.allow_null_value,
            allow_unknown_values: p.allow_unknown_values,
            ty: type_from_proto(&p.r#type, at)?,
        })
    };
    let parameters = proto
        .parameters
        .iter()
        .enumerate()
        .map(|(i, p)| parameter(p, &Path::root().attribute("parameters").index(i as u64)))
        .collect::<Result<Vec<_>, _>>()?;
    let variadic_parameter = proto
        .variadic_parameter
        .as_ref()
        .map(|p| parameter(p, &Path::root().attribute("variadic_parameter")))
        .transpose()?;
    let return_at = Path::root().attribute("return");
    let return_type = match &proto.r#return {
        Some(r) => type_from_proto(&r.r#type, &return_at)?,
        None => return Err(invalid("the function has no return type", &return_at)),
    };
    Ok(Function {
        summary: proto.summary.clone(),
        description: proto.description.clone(),
        description_kind: kind_from_proto(proto.description_kind, &Path::root())?,
        deprecation_message: proto.deprecation_message.clone(),
        return_type,
        parameters,
        variadic_parameter,
    })
}

/// A provider's `GetProviderSchema` response: every schema and function of `provider`,
/// no diagnostics, and server capabilities all off (set the ones the provider has on the
/// response). Terraform reads the identity schemas from `GetResourceIdentitySchemas`
/// ([`identity_schemas_response`]).
pub fn provider_schema_response(provider: &ProviderSchema) -> pb::get_provider_schema::Response {
    let schemas = |m: &std::collections::BTreeMap<String, Schema>| {
        m.iter()
            .map(|(name, s)| (name.clone(), schema_to_proto(s)))
            .collect()
    };
    pb::get_provider_schema::Response {
        provider: Some(schema_to_proto(&provider.provider)),
        resource_schemas: schemas(&provider.resource_schemas),
        data_source_schemas: schemas(&provider.data_source_schemas),
        ephemeral_resource_schemas: schemas(&provider.ephemeral_resource_schemas),
        list_resource_schemas: schemas(&provider.list_resource_schemas),
        state_store_schemas: schemas(&provider.state_store_schemas),
        action_schemas: provider
            .action_schemas
            .iter()
            .map(|(name, s)| {
                (
                    name.clone(),
                    pb::ActionSchema {
                        schema: Some(schema_to_proto(s)),
                    },
                )
            })
            .collect(),
        functions: provider
            .functions
            .iter()
            .map(|(name, f)| (name.clone(), function_to_proto(f)))
            .collect(),
        diagnostics: Vec::new(),
        provider_meta: None,
        server_capabilities: Some(pb::ServerCapabilities {
            plan_destroy: false,
            get_provider_schema_optional: false,
            move_resource_state: false,
            generate_resource_config: false,
        }),
    }
}

/// A provider's `GetResourceIdentitySchemas` response: `provider`'s identity schemas.
pub fn identity_schemas_response(
    provider: &ProviderSchema,
) -> pb::get_resource_identity_schemas::Response {
    pb::get_resource_identity_schemas::Response {
        identity_schemas: provider
            .resource_identity_schemas
            .iter()
            .map(|(name, s)| (name.clone(), identity_schema_to_proto(s)))
            .collect(),
        diagnostics: Vec::new(),
    }
}

fn block_nesting_to_proto(nesting: BlockNesting) -> BlockMode {
    match nesting {
        BlockNesting::Single => BlockMode::Single,
        BlockNesting::Group => BlockMode::Group,
        BlockNesting::List => BlockMode::List,
        BlockNesting::Set => BlockMode::Set,
        BlockNesting::Map => BlockMode::Map,
    }
}

fn attribute_nesting_to_proto(nesting: AttributeNesting) -> ObjectMode {
    match nesting {
        AttributeNesting::Single => ObjectMode::Single,
        AttributeNesting::List => ObjectMode::List,
        AttributeNesting::Set => ObjectMode::Set,
        AttributeNesting::Map => ObjectMode::Map,
    }
}

fn kind_to_proto(kind: DescriptionKind) -> pb::StringKind {
    match kind {
        DescriptionKind::Plain => pb::StringKind::Plain,
        DescriptionKind::Markdown => pb::StringKind::Markdown,
    }
}

fn kind_from_proto(kind: i32, at: &Path) -> Result<DescriptionKind, Error> {
    match pb::StringKind::try_from(kind) {
        Ok(pb::StringKind::Plain) => Ok(DescriptionKind::Plain),
        Ok(pb::StringKind::Markdown) => Ok(DescriptionKind::Markdown),
        Err(_) => Err(invalid(format!("invalid description kind {kind}"), at)),
    }
}

fn type_from_proto(bytes: &[u8], at: &Path) -> Result<Type, Error> {
    Type::from_json_bytes(bytes).map_err(|e| e.at(at))
}

fn count(n: i64, field: &str, at: &Path) -> Result<u64, Error> {
    u64::try_from(n).map_err(|_| invalid(format!("{field} is negative ({n})"), at))
}

fn invalid(message: impl Into<String>, at: &Path) -> Error {
    Error::new(ErrorKind::InvalidValue, message).at(at)
}

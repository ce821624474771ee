//! The provider's schemas: the resources' and the data source's from their structs
//! (`#[derive(ctywire::Object)]`), the identity's and the function's written with
//! ctywire's model, which the derive does not cover. The protocol's messages
//! (`GetProviderSchema`) are made from them.

use ctywire::object::Object;
use ctywire::schema::{
    DescriptionKind, Function, IdentityAttribute, IdentitySchema, Parameter, ProviderSchema, Schema,
};
use ctywire::{Type, Value};

use crate::old_thing::OldThing;
use crate::thing::Thing;

/// The managed resource's type name.
pub const THING: &str = "demo_thing";
/// The resource type whose objects a `moved` block can move into `demo_thing`s.
pub const OLD_THING: &str = "demo_old_thing";
/// The data source's type name.
pub const ECHO: &str = "demo_echo";
/// The function's name (`provider::demo::concat`).
pub const CONCAT: &str = "concat";

/// `demo_thing`'s schema version: version 0 had `size` as a string ([`OldThing`]'s shape).
pub const THING_VERSION: u64 = 1;

/// The demo provider takes no configuration.
#[derive(ctywire::Object)]
pub struct ProviderConfig {}

// `demo_echo`'s value: the configured `value`, and `result`, which the provider sets to
// it (no doc comment: the block has no description).
#[derive(ctywire::Object, Debug, Clone, PartialEq)]
pub struct Echo {
    #[cty(required)]
    pub value: Value,
    #[cty(computed)]
    pub result: Value,
}

/// Every schema of the provider.
pub fn provider() -> ProviderSchema {
    let mut p = ProviderSchema::default();
    p.provider = Schema::new(ProviderConfig::schema_block());
    p.resource_schemas.insert(THING.into(), thing());
    p.resource_schemas
        .insert(OLD_THING.into(), Schema::new(OldThing::schema_block()));
    p.resource_identity_schemas
        .insert(THING.into(), thing_identity());
    p.data_source_schemas
        .insert(ECHO.into(), Schema::new(Echo::schema_block()));
    p.functions.insert(CONCAT.into(), concat());
    p
}

/// `demo_thing`: a resource whose "cloud" is Terraform's state alone.
pub fn thing() -> Schema {
    Schema::new(Thing::schema_block()).version(THING_VERSION)
}

/// `demo_thing`'s identity: its `id`, which import may give instead of an import id.
#[derive(ctywire::Object, Debug, Clone, PartialEq)]
pub struct ThingIdentity {
    /// `thing-` and the name.
    #[cty(required)]
    pub id: String,
}

/// `demo_thing`'s identity schema, from [`ThingIdentity`]'s block (an identity schema is
/// not a block, which the derive gives): a required attribute is required for import,
/// an optional one optional.
pub fn thing_identity() -> IdentitySchema {
    let mut identity = IdentitySchema::default();
    for (name, attribute) in ThingIdentity::schema_block().attributes {
        let attribute = IdentityAttribute {
            ty: attribute.ty.unwrap_or(Type::Dynamic),
            description: attribute.description,
            required_for_import: attribute.required,
            optional_for_import: attribute.optional,
        };
        identity.attributes.insert(name, attribute);
    }
    identity
}

/// `concat(separator, first, parts...)`: `first` (any value, strings as they are, others
/// as JSON) and the parts, joined by the separator. `first` may be unknown (the result
/// is then unknown too); for the other parameters Terraform waits until the arguments
/// are known.
pub fn concat() -> Function {
    Function {
        summary: "Joins values with a separator".into(),
        description: "Joins the first value (a string as it is, any other value as JSON) and the further strings with the separator.".into(),
        description_kind: DescriptionKind::Plain,
        deprecation_message: String::new(),
        return_type: Type::String,
        parameters: vec![
            Parameter::new("separator", Type::String).description("What goes between the parts."),
            Parameter::new("first", Type::Dynamic)
                .description("The first part: any value, known or not.")
                .allow_unknown_values(),
        ],
        variadic_parameter: Some(
            Parameter::new("parts", Type::String).description("The further parts."),
        ),
    }
}

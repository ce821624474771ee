//! The provider's schemas, written once with ctywire's model: the protocol's messages
//! (`GetProviderSchema`) are made from them.

use ctywire::schema::{
    Attribute, AttributeNesting, Block, BlockNesting, DescriptionKind, Function, IdentityAttribute,
    IdentitySchema, NestedBlock, NestedType, Parameter, ProviderSchema, Schema,
};
use ctywire::Type;

/// The managed resource's type name.
pub const THING: &str = "demo_thing";
/// The resource type whose objects a `moved` block can move into `demo_thing`s.
pub const OLD_THING: &str = "demo_old_thing";
/// The data source's type name.
pub const ECHO: &str = "demo_echo";
/// The function's name (`provider::demo::concat`).
pub const CONCAT: &str = "concat";

/// `demo_thing`'s schema version: version 0 had `size` as a string (see [`thing_v0_type`]).
pub const THING_VERSION: u64 = 1;

/// Every schema of the provider.
pub fn provider() -> ProviderSchema {
    let mut p = ProviderSchema::default();
    p.provider = Schema::new(Block::new().description("The demo provider takes no configuration."));
    p.resource_schemas.insert(THING.into(), thing());
    p.resource_schemas.insert(OLD_THING.into(), old_thing());
    p.resource_identity_schemas
        .insert(THING.into(), thing_identity());
    p.data_source_schemas.insert(ECHO.into(), echo());
    p.functions.insert(CONCAT.into(), concat());
    p
}

/// `demo_thing`: a resource whose "cloud" is Terraform's state alone.
pub fn thing() -> Schema {
    let endpoint = NestedType::new(
        AttributeNesting::Single,
        [
            ("host", Attribute::new(Type::String).required()),
            ("port", Attribute::new(Type::Number).optional()),
        ],
    );
    let mut kind = Attribute::new(Type::String)
        .optional()
        .computed()
        .description("The disk's kind; `standard` when not set.");
    kind.description_kind = DescriptionKind::Markdown;
    let disk = Block::new()
        .attribute("size", Attribute::new(Type::Number).required())
        .attribute("kind", kind);
    let network = Block::new().attribute("name", Attribute::new(Type::String).required());
    let settings = Block::new().attribute("mode", Attribute::new(Type::String).optional());
    let rule = Block::new().attribute("action", Attribute::new(Type::String).optional());
    let group = Block::new().attribute("note", Attribute::new(Type::String).optional());
    let block = Block::new()
        .description("A thing, kept in Terraform's state only.")
        .attribute(
            "name",
            Attribute::new(Type::String)
                .required()
                .description("The thing's name; changing it replaces the thing."),
        )
        .attribute("size", Attribute::new(Type::Number).optional())
        .attribute("tags", Attribute::new(Type::map(Type::String)).optional())
        .attribute(
            "id",
            Attribute::new(Type::String)
                .computed()
                .description("`thing-` and the name."),
        )
        .attribute(
            "secret",
            Attribute::new(Type::String).optional().sensitive(),
        )
        .attribute("extra", Attribute::new(Type::Dynamic).optional())
        .attribute("labels", Attribute::new(Type::set(Type::String)).optional())
        .attribute("endpoint", Attribute::nested(endpoint).optional())
        .block_type("disk", NestedBlock::new(BlockNesting::List, disk))
        .block_type("network", NestedBlock::new(BlockNesting::Set, network))
        .block_type("settings", NestedBlock::new(BlockNesting::Single, settings))
        .block_type("rule", NestedBlock::new(BlockNesting::Map, rule))
        .block_type("group", NestedBlock::new(BlockNesting::Group, group));
    Schema::new(block).version(THING_VERSION)
}

/// `demo_thing`'s identity: its `id`, which import may give instead of an import id.
pub fn thing_identity() -> IdentitySchema {
    let mut identity = IdentitySchema::default();
    identity.attributes.insert(
        "id".into(),
        IdentityAttribute {
            ty: Type::String,
            description: "`thing-` and the name.".into(),
            required_for_import: true,
            optional_for_import: false,
        },
    );
    identity
}

/// The type of `demo_thing`'s state at schema version 0: `size` was a string, and the
/// other attributes and blocks did not exist; `demo_old_thing`'s type.
pub fn thing_v0_type() -> Type {
    old_thing().implied_type()
}

/// `demo_old_thing`: `demo_thing` as it was at schema version 0, kept as a resource type
/// of its own, whose objects a `moved` block moves into `demo_thing`s
/// (`MoveResourceState`).
pub fn old_thing() -> Schema {
    Schema::new(
        Block::new()
            .description("A thing as it was: `size` is a string. Move one into a `demo_thing` with a `moved` block.")
            .attribute("name", Attribute::new(Type::String).required())
            .attribute("size", Attribute::new(Type::String).optional())
            .attribute("tags", Attribute::new(Type::map(Type::String)).optional())
            .attribute(
                "id",
                Attribute::new(Type::String)
                    .computed()
                    .description("`old-` and the name."),
            ),
    )
}

/// `demo_echo`: gives back its input.
pub fn echo() -> Schema {
    Schema::new(
        Block::new()
            .attribute("value", Attribute::new(Type::Dynamic).required())
            .attribute("result", Attribute::new(Type::Dynamic).computed()),
    )
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

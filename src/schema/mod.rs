//! Provider schemas: blocks, attributes and nested blocks, and the value types they
//! imply.
//!
//! A provider describes each resource type, data source and its own configuration with
//! a [`Block`]: [attributes](Attribute) (each with a type, or a protocol-6
//! [nested type](NestedType)) and [nested block types](NestedBlock). Every value that
//! crosses the wire for that resource is encoded with the block's
//! [implied type](Block::implied_type), computed exactly as Terraform computes it.
//!
//! Schemas are usually loaded from the JSON that `terraform providers schema -json` and
//! `tofu providers schema -json` print ([`ProviderSchemas::from_json`]), or built in
//! code:
//!
//! ```
//! use ctywire::schema::{Attribute, Block, BlockNesting, NestedBlock};
//! use ctywire::{msgpack, Type, Value};
//!
//! let block = Block::new()
//!     .attribute("name", Attribute::new(Type::String).required())
//!     .attribute("id", Attribute::new(Type::String).computed())
//!     .block_type(
//!         "disk",
//!         NestedBlock::new(BlockNesting::List, Block::new()
//!             .attribute("size", Attribute::new(Type::Number).required()))
//!         .max_items(4),
//!     );
//! let ty = block.implied_type();
//! assert_eq!(ty.to_expr(), "object({disk=list(object({size=number})),id=string,name=string})");
//!
//! let config = Value::object([
//!     ("name", Value::from("web")),
//!     ("id", Value::Null),
//!     ("disk", Value::list([Value::object([("size", Value::from(20))])])),
//! ]);
//! assert!(block.check_config(&config).is_empty());
//! let bytes = msgpack::encode(&config, &ty)?;
//! assert_eq!(msgpack::decode(&bytes, &ty)?, config);
//! # Ok::<(), ctywire::Error>(())
//! ```
//!
//! The rules, from Terraform's `configschema` package (`FORMAT.md` section 7 at the
//! repository root has them byte by byte):
//!
//! - A block is an object with one attribute per schema attribute and one per nested
//!   block type; if an attribute and a block type share a name, the attribute wins.
//! - An attribute has its type, or the implied type of its nested type: an object of the
//!   nested attributes, as is (SINGLE) or in a list, set or map. Optional-attribute
//!   markers are removed from every wire type.
//! - A SINGLE or GROUP block is its block's object. A SINGLE block is null when absent;
//!   a GROUP block never is: absent, it holds null attributes and empty collections of
//!   blocks ([`Block::empty_value`]).
//! - A LIST block is a list of objects, a SET block a set, a MAP block a map keyed by
//!   label; but a LIST or MAP block whose block type holds `dynamic` anywhere (also in
//!   a deeper LIST or MAP block that became `dynamic` itself) is `dynamic`: its values
//!   arrive as a tuple of objects (LIST) or an object keyed by label (MAP), in
//!   the dynamic wrapper. [`NestedBlock::items`] and [`NestedBlock::labeled_items`] read
//!   both forms.

mod check;
pub(crate) mod json;
mod json_write;
pub mod plan;
mod provider;
mod sections;
mod sensitive;
mod validate;

use std::collections::BTreeMap;

pub use check::Violation;
pub use plan::{
    check_value_compatible, Check, Client, Inconsistency, ProposedNewFails, Rule,
    TerraformDiagnostic, UnknownClient,
};
pub use provider::{
    Fallback, ProviderMatch, ProviderSchema, ProviderSchemas, SchemaKind, SchemaMatch,
};
pub use sections::{Function, IdentityAttribute, IdentitySchema, Parameter};

use crate::types::Type;
use crate::value::Value;

/// How a description is written: plain text or Markdown.
///
/// ```
/// use ctywire::schema::{DescriptionKind, ProviderSchemas};
///
/// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
/// let provider = &schemas.provider("cloud")?.block;
/// let token = &provider.attributes["token"];
/// assert_eq!(token.description, "The API token. Can also be set with `CLOUD_TOKEN`.");
/// assert_eq!(token.description_kind, DescriptionKind::Markdown);
/// assert_eq!(provider.attributes["region"].description_kind, DescriptionKind::Plain);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DescriptionKind {
    /// Plain text (`"plain"` in schema JSON).
    #[default]
    Plain,
    /// Markdown (`"markdown"` in schema JSON).
    Markdown,
}

/// The schema of a resource type, data source or provider configuration: a version and
/// a block.
///
/// ```
/// use ctywire::schema::{Attribute, Block, Schema};
/// use ctywire::Type;
///
/// let schema = Schema::new(Block::new().attribute("id", Attribute::new(Type::String).computed()))
///     .version(1);
/// assert_eq!(schema.version, 1);
/// assert_eq!(schema.implied_type().to_json(), r#"["object",{"id":"string"}]"#);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Schema {
    /// The schema version (resources use it to upgrade old state).
    pub version: u64,
    /// The top-level block.
    pub block: Block,
}

impl Schema {
    /// A schema of version 0 for `block`.
    pub fn new(block: Block) -> Schema {
        Schema { version: 0, block }
    }

    /// This schema with version `version`.
    pub fn version(mut self, version: u64) -> Schema {
        self.version = version;
        self
    }

    /// The implied type of the block: the type of every value sent for this schema.
    ///
    /// ```
    /// use ctywire::schema::ProviderSchemas;
    ///
    /// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
    /// let ty = schemas.resource("cloud_bucket")?.implied_type();
    /// assert_eq!(
    ///     ty.to_expr(),
    ///     "object({force_destroy=bool,id=string,lifecycle_rule=list(object({expire_days=number,prefix=string})),name=string})",
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn implied_type(&self) -> Type {
        self.block.implied_type()
    }
}

/// A block: attributes and nested block types.
///
/// The fields are public, and maps keep names in bytewise order (the order in which
/// values are written). Builder methods make blocks in code:
///
/// ```
/// use ctywire::schema::{Attribute, Block};
/// use ctywire::Type;
///
/// let block = Block::new()
///     .attribute("name", Attribute::new(Type::String).required())
///     .description("A virtual machine.");
/// assert!(block.attributes["name"].required);
/// assert_eq!(block.implied_type().to_expr(), "object({name=string})");
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Block {
    /// The attributes, by name.
    pub attributes: BTreeMap<String, Attribute>,
    /// The nested block types, by name.
    pub block_types: BTreeMap<String, NestedBlock>,
    /// The description (empty when there is none).
    pub description: String,
    /// How the description is written.
    pub description_kind: DescriptionKind,
    /// Whether the block is deprecated.
    pub deprecated: bool,
    /// Why the block is deprecated, and what to use instead (empty when not given).
    pub deprecation_message: String,
    /// The provider may compute the content of blocks of this schema (protocol 6.11's
    /// `Schema.Block.computed`): a nested block type whose block is computed may be left
    /// out of configuration and filled in by the provider. Blocks are optional in
    /// configuration anyway, so the flag changes what a plan may hold, not what
    /// configuration must write.
    ///
    /// Only Terraform 1.16 on reads it (and then announces
    /// `ClientCapabilities.computed_blocks_allowed`); Terraform 1.15 ignores it, as do
    /// ctywire's plan and apply checks, which follow 1.15. `providers schema -json`
    /// never prints it, so schemas read from JSON have it off; protocol 5 has no such
    /// field. [`Block::validate`] applies Terraform's rules for it: every block type
    /// inside a computed block is computed too, a GROUP block cannot be computed, nor
    /// can a block type with `min_items` above 0.
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block, BlockNesting, NestedBlock};
    /// use ctywire::Type;
    ///
    /// let address = Block::new().attribute("ip", Attribute::new(Type::String).computed()).computed();
    /// let block = Block::new().block_type("address", NestedBlock::new(BlockNesting::List, address));
    /// assert!(block.block_types["address"].block.computed);
    /// assert!(block.validate().is_empty());
    /// // The flag does not change the type of the block's values.
    /// assert_eq!(block.implied_type().to_expr(), "object({address=list(object({ip=string}))})");
    /// ```
    pub computed: bool,
}

/// An attribute: a type (or a protocol-6 nested type) and how configuration and the
/// provider may set it.
///
/// Exactly one of `ty` and `nested_type` should be set, and one of `required`,
/// `optional`, `computed` (or `optional` with `computed`); [`Block::validate`] reports
/// an attribute that breaks these rules.
///
/// ```
/// use ctywire::schema::Attribute;
/// use ctywire::Type;
///
/// let password = Attribute::new(Type::String).optional().sensitive().write_only();
/// assert!(password.optional && password.sensitive && password.write_only);
/// assert_eq!(password.implied_type(), Type::String);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Attribute {
    /// The attribute's type (from the schema's type JSON, optional markers and all).
    pub ty: Option<Type>,
    /// The nested attribute type (protocol 6), instead of `ty`.
    pub nested_type: Option<NestedType>,
    /// The description (empty when there is none).
    pub description: String,
    /// How the description is written.
    pub description_kind: DescriptionKind,
    /// Configuration must set the attribute.
    pub required: bool,
    /// Configuration may set the attribute.
    pub optional: bool,
    /// The provider may set the attribute (alone: only the provider sets it).
    pub computed: bool,
    /// The value is sensitive: Terraform hides it in its output.
    pub sensitive: bool,
    /// The value is never stored: it is null in every plan and state.
    pub write_only: bool,
    /// Whether the attribute is deprecated.
    pub deprecated: bool,
    /// Why the attribute is deprecated (empty when not given).
    pub deprecation_message: String,
}

/// A protocol-6 nested attribute type (`Schema.Object`): attributes, nested as one
/// object, a list, a set or a map of them.
///
/// ```
/// use ctywire::schema::{Attribute, AttributeNesting, NestedType};
/// use ctywire::Type;
///
/// let ports = NestedType::new(AttributeNesting::Set, [
///     ("port", Attribute::new(Type::Number).required()),
///     ("protocol", Attribute::new(Type::String).optional().computed()),
/// ]);
/// assert_eq!(ports.implied_type().to_expr(), "set(object({port=number,protocol=string}))");
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct NestedType {
    /// How the objects are nested.
    pub nesting: AttributeNesting,
    /// The attributes of each object, by name.
    pub attributes: BTreeMap<String, Attribute>,
    /// Deprecated in the protocol and ignored by Terraform, except that a value above 0
    /// makes the attribute required in configuration.
    pub min_items: u64,
    /// Deprecated in the protocol and ignored by Terraform.
    pub max_items: u64,
}

/// How a [`NestedType`]'s objects are nested.
///
/// ```
/// use ctywire::schema::{Attribute, AttributeNesting, NestedType, ProviderSchemas};
/// use ctywire::Type;
///
/// let disk = [("size_gb", Attribute::new(Type::Number).required())];
/// let ty = |nesting| NestedType::new(nesting, disk.clone()).implied_type().to_expr();
/// assert_eq!(ty(AttributeNesting::Single), "object({size_gb=number})");
/// assert_eq!(ty(AttributeNesting::List), "list(object({size_gb=number}))");
/// assert_eq!(ty(AttributeNesting::Set), "set(object({size_gb=number}))");
/// assert_eq!(ty(AttributeNesting::Map), "map(object({size_gb=number}))");
///
/// // Unlike a LIST block's, a LIST nested type's objects holding `dynamic` stay a list.
/// let env = [("value", Attribute::new(Type::Dynamic).optional())];
/// let env = NestedType::new(AttributeNesting::List, env);
/// assert_eq!(env.implied_type().to_expr(), "list(object({value=any}))");
///
/// // In schema JSON it is a nested type's `nesting_mode`.
/// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
/// let volumes = &schemas.resource("cloud_instance")?.block.attributes["volumes"];
/// let nesting = volumes.nested_type.as_ref().unwrap().nesting;
/// assert_eq!((nesting, nesting.as_str()), (AttributeNesting::Map, "map"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AttributeNesting {
    /// One object (`"single"`).
    #[default]
    Single,
    /// A list of objects (`"list"`).
    List,
    /// A set of objects (`"set"`).
    Set,
    /// A map of objects (`"map"`).
    Map,
}

/// A nested block type: a block, how its instances are nested, and how many there may
/// be.
///
/// ```
/// use ctywire::schema::{Attribute, Block, BlockNesting, NestedBlock};
/// use ctywire::Type;
///
/// let rule = Block::new().attribute("port", Attribute::new(Type::Number).required());
/// let ingress = NestedBlock::new(BlockNesting::Set, rule).min_items(1);
/// assert_eq!(ingress.implied_type().to_expr(), "set(object({port=number}))");
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct NestedBlock {
    /// How the blocks are nested.
    pub nesting: BlockNesting,
    /// The schema of each block.
    pub block: Block,
    /// The least number of blocks (LIST and SET; 1 makes a SINGLE block required).
    pub min_items: u64,
    /// The greatest number of blocks, 0 meaning no limit (LIST and SET).
    pub max_items: u64,
}

/// How a [`NestedBlock`]'s blocks are nested.
///
/// The nesting decides the type of the block type's value in its parent, and its value
/// when configuration writes no block:
///
/// ```
/// use ctywire::schema::{Attribute, Block, BlockNesting, NestedBlock, ProviderSchemas};
/// use ctywire::{Type, Value};
///
/// let rule = Block::new().attribute("port", Attribute::new(Type::Number).optional());
/// let nested = |nesting| NestedBlock::new(nesting, rule.clone());
/// let ty = |nesting| nested(nesting).implied_type().to_expr();
/// assert_eq!(ty(BlockNesting::Single), "object({port=number})");
/// assert_eq!(ty(BlockNesting::Group), "object({port=number})");
/// assert_eq!(ty(BlockNesting::List), "list(object({port=number}))");
/// assert_eq!(ty(BlockNesting::Set), "set(object({port=number}))");
/// assert_eq!(ty(BlockNesting::Map), "map(object({port=number}))");
///
/// // No block written: a SINGLE block is null, a GROUP block never is.
/// assert!(nested(BlockNesting::Single).empty_value().is_null());
/// assert_eq!(nested(BlockNesting::Group).empty_value(), Value::object([("port", Value::Null)]));
/// assert_eq!(nested(BlockNesting::List).empty_value(), Value::list([]));
///
/// // A LIST or MAP block whose block holds `dynamic` is `dynamic` itself.
/// let step = Block::new().attribute("env", Attribute::new(Type::Dynamic).optional());
/// assert_eq!(NestedBlock::new(BlockNesting::List, step).implied_type(), Type::Dynamic);
///
/// // In schema JSON it is a block type's `nesting_mode`.
/// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
/// let monitoring = &schemas.resource("cloud_instance")?.block.block_types["monitoring"];
/// assert_eq!((monitoring.nesting, monitoring.nesting.as_str()), (BlockNesting::Group, "group"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BlockNesting {
    /// At most one block, null when absent (`"single"`).
    #[default]
    Single,
    /// At most one block, never null: absent, its attributes are null and its nested
    /// collections empty (`"group"`).
    Group,
    /// A list of blocks (`"list"`).
    List,
    /// A set of blocks (`"set"`).
    Set,
    /// A map of blocks keyed by their one label (`"map"`).
    Map,
}

impl AttributeNesting {
    /// The name used in schema JSON: `single`, `list`, `set`, `map`.
    pub fn as_str(self) -> &'static str {
        match self {
            AttributeNesting::Single => "single",
            AttributeNesting::List => "list",
            AttributeNesting::Set => "set",
            AttributeNesting::Map => "map",
        }
    }
}

impl BlockNesting {
    /// The name used in schema JSON: `single`, `group`, `list`, `set`, `map`.
    pub fn as_str(self) -> &'static str {
        match self {
            BlockNesting::Single => "single",
            BlockNesting::Group => "group",
            BlockNesting::List => "list",
            BlockNesting::Set => "set",
            BlockNesting::Map => "map",
        }
    }
}

impl Block {
    /// An empty block.
    pub fn new() -> Block {
        Block::default()
    }

    /// This block with attribute `name` added (or replaced).
    pub fn attribute(mut self, name: impl Into<String>, attribute: Attribute) -> Block {
        self.attributes.insert(name.into(), attribute);
        self
    }

    /// This block with nested block type `name` added (or replaced).
    pub fn block_type(mut self, name: impl Into<String>, block: NestedBlock) -> Block {
        self.block_types.insert(name.into(), block);
        self
    }

    /// This block with a plain-text description.
    pub fn description(mut self, text: impl Into<String>) -> Block {
        self.description = text.into();
        self
    }

    /// This block, computed: the provider may fill in blocks of this schema (see
    /// [`Block::computed`](Block#structfield.computed)).
    pub fn computed(mut self) -> Block {
        self.computed = true;
        self
    }

    /// The type of this block's values, exactly as Terraform computes it (`ImpliedType`):
    /// an object of the attributes' and nested block types' implied types, with no
    /// optional-attribute markers anywhere.
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block, BlockNesting, NestedBlock};
    /// use ctywire::Type;
    ///
    /// // A dynamic attribute inside a LIST block makes the block `dynamic`.
    /// let step = Block::new().attribute("input", Attribute::new(Type::Dynamic).optional());
    /// let block = Block::new()
    ///     .block_type("step", NestedBlock::new(BlockNesting::List, step))
    ///     .attribute("settings", Attribute::new(
    ///         Type::parse_expr("object({retries=optional(number)})")?,
    ///     ).optional());
    /// assert_eq!(
    ///     block.implied_type().to_json(),
    ///     r#"["object",{"settings":["object",{"retries":"number"}],"step":"dynamic"}]"#,
    /// );
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn implied_type(&self) -> Type {
        let attributes = self
            .attributes
            .iter()
            .map(|(name, attribute)| (name.as_str(), attribute.implied_type()));
        let blocks = self
            .unshadowed_block_types()
            .map(|(name, block)| (name.as_str(), block.implied_type()));
        Type::object(attributes.chain(blocks))
    }

    /// Terraform's `EmptyValue` for this block: the value of a block written with no
    /// content. Attributes are null, SINGLE blocks null, LIST, SET and MAP blocks empty
    /// (the empty tuple or object, in the dynamic wrapper, when the block is
    /// `dynamic`), GROUP blocks their own empty value.
    ///
    /// This is the value of an absent GROUP block.
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block, BlockNesting, NestedBlock};
    /// use ctywire::{msgpack, Type};
    ///
    /// let alarm = Block::new().attribute("name", Attribute::new(Type::String).required());
    /// let monitoring = Block::new()
    ///     .attribute("enabled", Attribute::new(Type::Bool).optional())
    ///     .block_type("alarm", NestedBlock::new(BlockNesting::List, alarm));
    /// let block = Block::new().block_type("monitoring", NestedBlock::new(BlockNesting::Group, monitoring));
    ///
    /// let empty = block.empty_value();
    /// assert!(empty["monitoring"]["enabled"].is_null());
    /// assert_eq!(empty["monitoring"]["alarm"].len(), Some(0));
    /// let bytes = msgpack::encode(&empty, &block.implied_type())?;
    /// assert_eq!(bytes, b"\x81\xaamonitoring\x82\xa5alarm\x90\xa7enabled\xc0");
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn empty_value(&self) -> Value {
        let attributes = self
            .attributes
            .keys()
            .map(|name| (name.as_str(), Value::Null));
        let blocks = self
            .unshadowed_block_types()
            .map(|(name, block)| (name.as_str(), block.empty_value()));
        Value::object(attributes.chain(blocks))
    }

    /// The block types that no attribute of the same name hides: where a schema (invalid,
    /// see [`validate`](Block::validate)) has both, the attribute wins, as in Terraform's
    /// implied type.
    pub(crate) fn unshadowed_block_types(&self) -> impl Iterator<Item = (&String, &NestedBlock)> {
        self.block_types
            .iter()
            .filter(|(name, _)| !self.attributes.contains_key(*name))
    }

    /// Whether any attribute in this block or below it (in nested types and nested
    /// blocks) is write-only.
    pub fn contains_write_only(&self) -> bool {
        self.attributes.values().any(Attribute::contains_write_only)
            || self
                .block_types
                .values()
                .any(|b| b.block.contains_write_only())
    }
}

impl Attribute {
    /// An attribute of type `ty`, with no flags set.
    pub fn new(ty: Type) -> Attribute {
        Attribute {
            ty: Some(ty),
            ..Attribute::default()
        }
    }

    /// An attribute with a nested type, with no flags set.
    pub fn nested(nested_type: NestedType) -> Attribute {
        Attribute {
            nested_type: Some(nested_type),
            ..Attribute::default()
        }
    }

    /// This attribute, required.
    pub fn required(mut self) -> Attribute {
        self.required = true;
        self
    }

    /// This attribute, optional.
    pub fn optional(mut self) -> Attribute {
        self.optional = true;
        self
    }

    /// This attribute, computed.
    pub fn computed(mut self) -> Attribute {
        self.computed = true;
        self
    }

    /// This attribute, sensitive.
    pub fn sensitive(mut self) -> Attribute {
        self.sensitive = true;
        self
    }

    /// This attribute, write-only.
    pub fn write_only(mut self) -> Attribute {
        self.write_only = true;
        self
    }

    /// This attribute with a plain-text description.
    pub fn description(mut self, text: impl Into<String>) -> Attribute {
        self.description = text.into();
        self
    }

    /// The type of this attribute's values: the nested type's implied type, or the
    /// type without optional-attribute markers.
    ///
    /// An attribute with neither (an invalid schema, see [`Block::validate`]) has type
    /// `dynamic` here; one with both uses the nested type, as Terraform does.
    ///
    /// ```
    /// use ctywire::schema::{Attribute, AttributeNesting, NestedType};
    /// use ctywire::Type;
    ///
    /// let settings = Attribute::new(Type::parse_expr("object({a=optional(string)})")?);
    /// assert_eq!(settings.implied_type().to_expr(), "object({a=string})");
    ///
    /// let volumes = Attribute::nested(NestedType::new(AttributeNesting::Map, [
    ///     ("size", Attribute::new(Type::Number).required()),
    /// ]));
    /// assert_eq!(volumes.implied_type().to_expr(), "map(object({size=number}))");
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn implied_type(&self) -> Type {
        match (&self.nested_type, &self.ty) {
            (Some(nested), _) => nested.implied_type(),
            (None, Some(ty)) => ty.without_optional_attributes(),
            (None, None) => Type::Dynamic,
        }
    }

    /// Whether configuration cannot set this attribute: computed and not optional.
    pub fn is_computed_only(&self) -> bool {
        self.computed && !self.optional
    }

    /// Whether configuration must set this attribute: required, or (Terraform's rule
    /// for the deprecated field) a nested type with `min_items` above 0.
    pub fn is_required_in_config(&self) -> bool {
        self.required || self.nested_type.as_ref().is_some_and(|n| n.min_items > 0)
    }

    /// Whether this attribute, or one inside its nested type, is write-only.
    pub fn contains_write_only(&self) -> bool {
        self.write_only
            || self
                .nested_type
                .as_ref()
                .is_some_and(NestedType::contains_write_only)
    }
}

impl NestedType {
    /// A nested type with `attributes`, nested as `nesting`.
    pub fn new<N: Into<String>>(
        nesting: AttributeNesting,
        attributes: impl IntoIterator<Item = (N, Attribute)>,
    ) -> NestedType {
        NestedType {
            nesting,
            attributes: attributes.into_iter().map(|(n, a)| (n.into(), a)).collect(),
            min_items: 0,
            max_items: 0,
        }
    }

    /// The implied type (`Object.ImpliedType`): an object of the attributes' implied
    /// types, as is or in a list, set or map. There is no `dynamic` fallback here: a
    /// LIST of objects holding `dynamic` stays a list.
    pub fn implied_type(&self) -> Type {
        let object = self.object_type();
        match self.nesting {
            AttributeNesting::Single => object,
            AttributeNesting::List => Type::list(object),
            AttributeNesting::Set => Type::set(object),
            AttributeNesting::Map => Type::map(object),
        }
    }

    /// The type of one object.
    fn object_type(&self) -> Type {
        Type::object(
            self.attributes
                .iter()
                .map(|(name, attribute)| (name.as_str(), attribute.implied_type())),
        )
    }

    /// Whether any attribute inside is write-only.
    pub fn contains_write_only(&self) -> bool {
        self.attributes.values().any(Attribute::contains_write_only)
    }
}

impl NestedBlock {
    /// A nested block type with no item limits.
    pub fn new(nesting: BlockNesting, block: Block) -> NestedBlock {
        NestedBlock {
            nesting,
            block,
            min_items: 0,
            max_items: 0,
        }
    }

    /// This nested block type with `min_items` set.
    pub fn min_items(mut self, min: u64) -> NestedBlock {
        self.min_items = min;
        self
    }

    /// This nested block type with `max_items` set (0: no limit).
    pub fn max_items(mut self, max: u64) -> NestedBlock {
        self.max_items = max;
        self
    }

    /// The implied type of this block type's value in its parent: the block's object
    /// (SINGLE, GROUP), a list, set or map of them, or `dynamic` for a LIST or MAP block
    /// whose block holds `dynamic` anywhere.
    pub fn implied_type(&self) -> Type {
        let object = self.block.implied_type();
        match self.nesting {
            BlockNesting::Single | BlockNesting::Group => object,
            BlockNesting::Set => Type::set(object),
            BlockNesting::List | BlockNesting::Map if object.has_dynamic() => Type::Dynamic,
            BlockNesting::List => Type::list(object),
            BlockNesting::Map => Type::map(object),
        }
    }

    /// Whether this is a LIST or MAP block whose implied type is `dynamic` (its values
    /// are tuples or objects keyed by label, in the dynamic wrapper).
    pub fn is_dynamic(&self) -> bool {
        matches!(self.nesting, BlockNesting::List | BlockNesting::Map)
            && self.block.implied_type().has_dynamic()
    }

    /// The value of this block type when no block is written: null (SINGLE), the
    /// block's empty value (GROUP), or an empty collection (LIST, SET, MAP; for a
    /// dynamic block the empty tuple or object, with its type recorded).
    pub fn empty_value(&self) -> Value {
        match self.nesting {
            BlockNesting::Single => Value::Null,
            BlockNesting::Group => self.block.empty_value(),
            BlockNesting::Set => Value::set([]),
            BlockNesting::List if self.is_dynamic() => {
                Value::typed(Type::empty_tuple(), Value::tuple([]))
            }
            BlockNesting::List => Value::list([]),
            BlockNesting::Map if self.is_dynamic() => Value::typed(
                Type::empty_object(),
                Value::object(std::iter::empty::<(&str, Value)>()),
            ),
            BlockNesting::Map => Value::map(std::iter::empty::<(&str, Value)>()),
        }
    }

    /// The blocks in a known LIST or SET block value, in order: the elements of a list
    /// or set, or of the tuple a dynamic LIST block holds. `None` for a null or unknown
    /// value, or one of another shape.
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block, BlockNesting, NestedBlock};
    /// use ctywire::{msgpack, Type, Value};
    ///
    /// let step = Block::new().attribute("input", Attribute::new(Type::Dynamic).optional());
    /// let steps = NestedBlock::new(BlockNesting::List, step);
    /// assert_eq!(steps.implied_type(), Type::Dynamic);
    ///
    /// // Two blocks whose `input` have different types: a tuple, not a list.
    /// let value = Value::tuple([
    ///     Value::object([("input", Value::from("a"))]),
    ///     Value::object([("input", Value::from(1))]),
    /// ]);
    /// let bytes = msgpack::encode(&value, &Type::Dynamic)?;
    /// let decoded = msgpack::decode(&bytes, &Type::Dynamic)?;
    /// assert_eq!(
    ///     decoded.recorded_type().unwrap().to_json(),
    ///     r#"["tuple",[["object",{"input":"string"}],["object",{"input":"number"}]]]"#,
    /// );
    /// let items = steps.items(&decoded).unwrap();
    /// assert_eq!(items[1]["input"].as_i64(), Some(1));
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn items<'v>(&self, value: &'v Value) -> Option<&'v [Value]> {
        match self.nesting {
            BlockNesting::List | BlockNesting::Set => value.as_slice(),
            _ => None,
        }
    }

    /// The blocks in a known MAP block value, as `(label, block)` pairs in label order:
    /// the entries of a map, or the attributes of the object a dynamic MAP block holds.
    /// `None` for a null or unknown value, or one of another shape.
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block, BlockNesting, NestedBlock};
    /// use ctywire::{json, Type, Value};
    ///
    /// let plugin = Block::new().attribute("config", Attribute::new(Type::Dynamic).optional());
    /// let plugins = NestedBlock::new(BlockNesting::Map, plugin);
    /// assert!(plugins.is_dynamic());
    ///
    /// let text = br#"{"value": {"metrics": {"config": {"port": 9100}}, "tracing": {"config": null}},
    ///     "type": ["object", {"metrics": ["object", {"config": ["object", {"port": "number"}]}],
    ///                         "tracing": ["object", {"config": "dynamic"}]}]}"#;
    /// let value = json::decode(text, &plugins.implied_type())?;
    /// let blocks = plugins.labeled_items(&value).unwrap();
    /// assert_eq!(blocks[0].0, "metrics");
    /// assert_eq!(blocks[0].1["config"]["port"].as_i64(), Some(9100));
    /// assert!(blocks[1].1["config"].is_null());
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn labeled_items<'v>(&self, value: &'v Value) -> Option<Vec<(&'v str, &'v Value)>> {
        if self.nesting != BlockNesting::Map {
            return None;
        }
        match value.untyped() {
            Value::Map(m) => Some(m.iter().collect()),
            Value::Object(o) => Some(o.iter().collect()),
            _ => None,
        }
    }
}

static NULL: Value = Value::Null;

/// Attribute `name` of `value`, a known object; null when absent (or when `value` is not
/// a known object). The name is looked up as written, then NFC-normalized: object values
/// hold NFC names, as cty's do.
pub(crate) fn attribute_of<'v>(value: &'v Value, name: &str) -> &'v Value {
    let Some(object) = value.as_object() else {
        return &NULL;
    };
    object
        .get(name)
        .or_else(|| object.get(&crate::text::nfc(name)))
        .unwrap_or(&NULL)
}

#[cfg(test)]
mod tests;

//! `.tf.json` configurations: the value Terraform sends a provider for a resource, data
//! source or provider block.
//!
//! What a provider receives as `config` in `ValidateResourceConfig`,
//! `PlanResourceChange`, `ReadDataSource` or `ConfigureProvider` is the block's body
//! decoded with the provider's schema. [`Config`] reads configuration files in HCL's
//! JSON syntax (`.tf.json`, `.tofu.json`) and gives that value for a block, typed by
//! the schema's [implied type](crate::Block::implied_type), ready for
//! [`msgpack::encode`](crate::msgpack::encode):
//!
//! ```
//! use ctywire::config::Config;
//! use ctywire::schema::{Attribute, Block, BlockNesting, NestedBlock, Schema};
//! use ctywire::{msgpack, Type};
//!
//! let main_tf_json = br#"{
//!   "variable": {"env": {"default": "prod"}},
//!   "resource": {"cloud_bucket": {"logs": {
//!     "//": "one bucket for the logs",
//!     "name": "logs-${var.env}",
//!     "count": 1,
//!     "lifecycle_rule": [{"expire_days": 30}]
//!   }}}
//! }"#;
//! let config = Config::from_sources([("main.tf.json", &main_tf_json[..])])?;
//!
//! let schema = Schema::new(Block::new()
//!     .attribute("name", Attribute::new(Type::String).required())
//!     .attribute("id", Attribute::new(Type::String).computed())
//!     .block_type("lifecycle_rule", NestedBlock::new(BlockNesting::List, Block::new()
//!         .attribute("expire_days", Attribute::new(Type::Number).required()))));
//! let value = config.decode(&"cloud_bucket.logs[0]".parse()?, &schema)?;
//! assert_eq!(value["name"].as_str(), Some("logs-prod"));
//! assert!(value["id"].is_null());
//! assert_eq!(value["lifecycle_rule"][0]["expire_days"].as_i64(), Some(30));
//! let payload = msgpack::encode(&value, &schema.implied_type())?;
//! # let _ = payload;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## What is read as Terraform reads it
//!
//! - **Files.** Each file is one JSON document, an object (or an array of objects)
//!   whose properties are the top-level blocks: `resource`, `data`, `ephemeral`,
//!   `provider`, `variable`, `locals`, `output`, `module`, `terraform`, `moved`,
//!   `removed`, `import`, `check`, `action`. A `.tofu.json` file is read instead of the
//!   `.tf.json` file of the same name beside it, as OpenTofu does. Override files
//!   (`override.tf.json`, `*_override.tf.json`) and the native syntax (`.tf`) are
//!   refused with a diagnostic rather than read wrongly.
//! - **Blocks and labels** follow HCL's JSON mapping: one object level per label, then
//!   the body; an array at any level gives several, in order (so a `provider` with
//!   aliases is `{"provider": {"cloud": [{...}, {"alias": "west", ...}]}}`); a `"//"`
//!   property is a comment in a body and only there (in an object *value* it is an
//!   attribute like any other).
//! - **Meta-arguments** (`count`, `for_each`, `provider`, `depends_on`, `lifecycle`,
//!   `connection`, `provisioner`, a `provider` block's `alias` and `version`) are taken
//!   out before the schema sees the body; a `_` block's content is put back in.
//! - **The body** is decoded by the schema: see [`Config::decode`].
//! - **Expressions.** JSON strings are templates; see the module `eval` notes below.
//!
//! ## Expressions: what is known, what is not
//!
//! A JSON value is an expression: `true`, numbers (exact decimals), `null`, arrays
//! (tuples) and objects (whose property names are templates too) as they are, and
//! strings as HCL templates: literal text with `$${` and `%%{` for a literal `${` and
//! `%{`, `${ EXPR }` interpolations, `%{ if }` and `%{ for }` directives, `~` strip
//! markers (which, as HCL reads a string's text line by line, trim whitespace only up to
//! and with the nearest line break). A string that is one interpolation and nothing else gives that
//! expression's value unconverted (`"${var.port}"` is a number).
//!
//! Evaluated to known values: literals; `var.NAME` (the variable's `default`, with the
//! defaults of its `type`'s `optional(T, DEFAULT)` attributes filled in, converted to
//! the type); `local.NAME`; a `dynamic` block's iterator; `count.index`, `each.key`
//! and `each.value` for an address with an instance key; attribute and index steps on
//! those; directives whose condition or collection is known.
//!
//! Unknown, of unknown type: everything that needs more than the configuration —
//! references to resources, data sources, modules, `path`, `terraform` and `self`;
//! function calls; arithmetic, comparison and logical operators; conditionals; `for`
//! and splat expressions; a variable without a default. A template with an unknown
//! part is an unknown string known not to be null, whose known prefix (the text
//! before the first unknown part, at most 128 bytes, without a last character that
//! later text could still change) is a refinement, as HCL's template evaluation gives
//! it: `"arn:aws:s3:::${aws_s3_bucket.b.id}"` is an unknown string starting
//! `arn:aws:s3:::`.
//!
//! Not a choice of this crate but Terraform's timing: `terraform validate` evaluates
//! every variable as unknown; `plan` uses the values given, and the defaults
//! otherwise, which is what this crate assumes. Likewise a reference to a resource is
//! unknown only until Terraform has planned it: from then on it is the resource's
//! planned state (then its new state), which
//! [`Config::with_resource_value`] gives.
//!
//! ## Diagnostics
//!
//! Problems come back as [`Diagnostics`], each with Terraform's (or HCL's) summary and
//! detail, the file, line and column (counted as HCL counts: characters, a tab as two)
//! and byte offset. For a `.tf.json` file an argument the schema lacks is HCL JSON's
//! "Extraneous JSON object property" (`No argument or block type is named "x".`),
//! not the native syntax's "Unsupported argument"; syntax errors in the JSON itself
//! are worded by this crate's JSON reader.
//!
//! ## Not covered
//!
//! - Terraform's `blocktoattr` fixup, which lets a legacy provider's list-of-object
//!   attribute be written as blocks: in JSON it matters only for a `dynamic` block
//!   naming such an attribute, which is reported as an unsupported block type here.
//! - Heredoc templates inside an interpolation (refused with a diagnostic).
//! - Marks: sensitive values are values like others (Terraform removes the marks
//!   before it sends a value).

mod address;
mod body;
mod decode;
mod diagnostic;
mod document;
mod eval;
mod module;
mod syntax;
mod typed;
mod types;

use std::collections::BTreeMap;
use std::path::Path;

pub use address::{Address, InstanceKey};
pub use diagnostic::{Diagnostic, Diagnostics, Location};

use diagnostic::{Diag, FileId, Files, SourceFile, Span};
use document::Node;
use eval::{elements, Scope};
use module::{Mode, Module, Resource};
use typed::Val;

use crate::schema::{ProviderSchemas, Schema};
use crate::types::Type;
use crate::value::Value;

/// Configuration files in HCL's JSON syntax, read and checked at the top level.
///
/// Build one with [`Config::from_sources`] (names and contents) or [`Config::read`]
/// (paths); list what it declares with [`Config::declarations`]; get a block's value
/// with [`Config::decode`] (a schema) or [`Config::value`] (the schema looked up in a
/// `providers schema -json` document).
#[derive(Clone, Debug)]
pub struct Config {
    files: Vec<SourceFile>,
    roots: Vec<(FileId, Node)>,
    /// The schemas references to resources and data sources are typed by; see
    /// [`Config::with_schemas`].
    reference_schemas: Option<ProviderSchemas>,
    /// Whether values are Terraform's validate walk's (variables unknown); see
    /// [`Config::in_validate_walk`].
    validate_walk: bool,
    /// The values of resources already planned or applied, by address
    /// (`demo_thing.x`, `data.demo_echo.e`); see [`Config::with_resource_value`].
    resource_values: BTreeMap<String, Value>,
}

/// The implied type of resource type or data source `type_name` (by `mode`) in `schemas`,
/// for typing references to it.
fn schema_type(schemas: &ProviderSchemas, mode: Mode, type_name: &str) -> Option<Type> {
    schemas
        .providers
        .values()
        .find_map(|p| match mode {
            Mode::Managed => p.resource_schemas.get(type_name),
            Mode::Data => p.data_source_schemas.get(type_name),
            Mode::Ephemeral => None,
        })
        .map(Schema::implied_type)
}

/// A block declared at the top level, as [`Config::declarations`] lists it.
///
/// ```
/// use ctywire::config::Config;
///
/// let config = Config::read(["examples/config/buckets.tf.json"])?;
/// let first = &config.declarations()[0];
/// assert_eq!((first.kind, first.address.as_str()), ("resource", "cloud_bucket.logs"));
/// assert_eq!((first.location.line, first.location.column), (4, 15));
/// assert_eq!(first.location.file, "examples/config/buckets.tf.json");
/// # Ok::<(), ctywire::config::Diagnostics>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Declaration {
    /// The block type: `resource`, `data`, `ephemeral`, `provider`, `variable`,
    /// `local`, `output`, `module`, `terraform`, `moved`, `removed`, `import`,
    /// `check`, `action`.
    pub kind: &'static str,
    /// Its address: `cloud_instance.web`, `data.cloud_image.ubuntu`,
    /// `provider.cloud.west`, `var.region`, `local.tags`, `output.id`, ...
    pub address: String,
    /// Where it is declared.
    pub location: Location,
}

impl Config {
    /// Reads configuration files from `(name, contents)` pairs. Names decide what a
    /// file is: a `.tf.json` or `.tofu.json` name is read; a `.tofu.json` file
    /// replaces the `.tf.json` file of the same name (in the same directory); any
    /// other name is a diagnostic.
    ///
    /// Fails with every problem found in the files' syntax and at their top level
    /// (block structure, variables, duplicate declarations).
    pub fn from_sources<N, B>(
        sources: impl IntoIterator<Item = (N, B)>,
    ) -> Result<Config, Diagnostics>
    where
        N: Into<String>,
        B: Into<Vec<u8>>,
    {
        let sources: Vec<SourceFile> = sources
            .into_iter()
            .map(|(name, text)| SourceFile {
                name: name.into(),
                text: text.into(),
            })
            .collect();
        let mut problems = Vec::new();
        let mut files = Vec::new();
        for source in &sources {
            let name = source.name.as_str();
            let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
            let stem = base
                .strip_suffix(".tf.json")
                .or_else(|| base.strip_suffix(".tofu.json"));
            let problem = match stem {
                None => Some(("Unsupported configuration file", format!("{name} is not a .tf.json or .tofu.json file: this tool reads only the JSON syntax of configuration files."))),
                Some(stem) if stem == "override" || stem.ends_with("_override") => Some(("Unsupported override file", format!("{name} is an override file; override files are merged with Terraform's override rules, which this tool does not apply."))),
                Some(_) => None,
            };
            if let Some((summary, detail)) = problem {
                problems.push(Diagnostic {
                    summary: summary.into(),
                    detail,
                    location: None,
                });
                continue;
            }
            if let Some(tf) = name.strip_suffix(".tf.json") {
                let tofu = format!("{tf}.tofu.json");
                if sources.iter().any(|s| s.name == tofu) {
                    continue;
                }
            }
            files.push(source.clone());
        }
        if !problems.is_empty() {
            return Err(Diagnostics(problems));
        }
        let mut diags = Vec::new();
        let mut roots = Vec::new();
        for (id, file) in files.iter().enumerate() {
            match document::parse(&file.text) {
                Ok(root) => roots.push((id, root)),
                Err(e) => {
                    let at = match e.position() {
                        Some(crate::error::Position::Offset(o)) => o,
                        _ => 0,
                    };
                    diags.push(Diag::new("Invalid JSON", e.message(), Span::at(id, at)));
                }
            }
        }
        let config = Config {
            files,
            roots,
            reference_schemas: None,
            validate_walk: false,
            resource_values: BTreeMap::new(),
        };
        if diags.is_empty() {
            module::load(&config.roots, &mut diags);
        }
        config.finish(diags)?;
        Ok(config)
    }

    /// Reads configuration files from disk; see [`from_sources`](Self::from_sources).
    ///
    /// ```
    /// use ctywire::config::Config;
    ///
    /// let config = Config::read(["examples/config/provider.tf.json"])?;
    /// assert_eq!(config.declarations().len(), 3);
    ///
    /// let err = Config::read(["examples/config/absent.tf.json"]).unwrap_err();
    /// assert!(err.to_string().starts_with("Failed to read file; The configuration file examples/config/absent.tf.json could not be read: "));
    /// # Ok::<(), ctywire::config::Diagnostics>(())
    /// ```
    pub fn read<P: AsRef<Path>>(paths: impl IntoIterator<Item = P>) -> Result<Config, Diagnostics> {
        let mut sources = Vec::new();
        let mut problems = Vec::new();
        for path in paths {
            let path = path.as_ref();
            let name = path.display().to_string();
            match std::fs::read(path) {
                Ok(text) => sources.push((name, text)),
                Err(e) => problems.push(Diagnostic {
                    summary: "Failed to read file".into(),
                    detail: format!("The configuration file {name} could not be read: {e}."),
                    location: None,
                }),
            }
        }
        if !problems.is_empty() {
            return Err(Diagnostics(problems));
        }
        Config::from_sources(sources)
    }

    /// Types references to resources and data sources by their schemas, as Terraform
    /// does ([`value`](Self::value) does this with the schemas it is given): a reference to a resource declared without `count` or `for_each`
    /// (`demo_thing.x`, `data.demo_echo.e`) whose type `schemas` define is an unknown
    /// of the schema's implied type rather than of no type, so `demo_thing.x.id` is an
    /// unknown string. This is what Terraform sends in its validate walk, and in its
    /// plan walk for resources not planned yet.
    ///
    /// ```
    /// use ctywire::config::Config;
    /// use ctywire::schema::{Attribute, Block, ProviderSchema, ProviderSchemas, Schema};
    /// use ctywire::Type;
    ///
    /// let bucket = Schema::new(Block::new()
    ///     .attribute("name", Attribute::new(Type::String).required())
    ///     .attribute("id", Attribute::new(Type::String).computed()));
    /// let mut provider = ProviderSchema::default();
    /// provider.resource_schemas.insert("cloud_bucket".into(), bucket.clone());
    /// let mut schemas = ProviderSchemas::default();
    /// schemas.providers.insert("registry.terraform.io/example/cloud".into(), provider);
    ///
    /// let config = Config::from_sources([("main.tf.json", r#"{"resource": {"cloud_bucket": {
    ///   "logs": {"name": "logs"},
    ///   "copy": {"name": "${cloud_bucket.logs.id}"}
    /// }}}"#)])?;
    /// let copy = "cloud_bucket.copy".parse()?;
    /// // Untyped, the reference is an unknown of no type; typed, an unknown string.
    /// assert!(config.decode(&copy, &bucket)?["name"].is_unknown());
    /// let typed = config.with_schemas(&schemas).decode(&copy, &bucket)?;
    /// assert!(typed["name"].is_unknown());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_schemas(mut self, schemas: &ProviderSchemas) -> Config {
        self.reference_schemas = Some(schemas.clone());
        self
    }

    /// Gives the value of the resource at `address` (declared without `count` or
    /// `for_each`, `TYPE.NAME` or `data.TYPE.NAME`) that references to it evaluate to, as
    /// Terraform's do once it has planned or applied it: in the plan walk, a resource's
    /// planned state (the `PlannedState` its provider returned, unknowns and
    /// refinements and all); during apply, its new state. The value is typed by the
    /// resource's schema, so the schemas must be given too ([`with_schemas`](Self::with_schemas),
    /// or [`value`](Self::value)'s); without them, or for another address, references
    /// stay unknown. A reference passes the value's unknowns on with their refinements
    /// (`"${demo_thing.x.id}"` is the provider's `(known after apply, prefix "thing-")`),
    /// while a template around one keeps only its own literal prefix, as HCL's does
    /// (`"pre-${demo_thing.x.id}"` is an unknown string starting `pre-`).
    ///
    /// Not covered: the instances of a resource declared with `count` or `for_each`.
    /// References to them (`TYPE.NAME[0].id`, `TYPE.NAME["k"].id`, `TYPE.NAME[*].id`)
    /// stay unknown, of no type, where Terraform's are the instance's planned or new
    /// value; a value given for such a resource, for an address with an instance key,
    /// or for a resource not declared or of no known schema makes decoding fail with a
    /// diagnostic ("Resource value not usable") rather than go unused.
    ///
    /// A data source whose configuration holds an unknown is not read during the plan
    /// (Terraform defers it to the apply, and sends no call): its configuration matters
    /// when the values it refers to are known, the resources' new states.
    ///
    /// ```
    /// use ctywire::config::Config;
    /// use ctywire::schema::{Attribute, Block, ProviderSchema, ProviderSchemas, Schema};
    /// use ctywire::{Refinements, Type, Value};
    ///
    /// let bucket = Schema::new(Block::new()
    ///     .attribute("name", Attribute::new(Type::String).required())
    ///     .attribute("id", Attribute::new(Type::String).computed()));
    /// let mut provider = ProviderSchema::default();
    /// provider.resource_schemas.insert("cloud_bucket".into(), bucket.clone());
    /// let mut schemas = ProviderSchemas::default();
    /// schemas.providers.insert("registry.terraform.io/example/cloud".into(), provider);
    ///
    /// let config = Config::from_sources([("main.tf.json", r#"{"resource": {"cloud_bucket": {
    ///   "logs": {"name": "logs"},
    ///   "copy": {"name": "${cloud_bucket.logs.id}"},
    ///   "tmp": {"name": "tmp-${cloud_bucket.logs.id}"}
    /// }}}"#)])?;
    /// let planned = Value::object([
    ///     ("name", Value::from("logs")),
    ///     ("id", Value::Unknown(Refinements::new().not_null().with_string_prefix("b-"))),
    /// ]);
    /// let config = config
    ///     .with_schemas(&schemas)
    ///     .with_resource_value(&"cloud_bucket.logs".parse()?, planned);
    /// let prefix = |v: &Value| v.refinements().and_then(|r| r.string_prefix()).map(str::to_owned);
    /// let copy = config.decode(&"cloud_bucket.copy".parse()?, &bucket)?;
    /// assert_eq!(prefix(&copy["name"]).as_deref(), Some("b-"));
    /// let tmp = config.decode(&"cloud_bucket.tmp".parse()?, &bucket)?;
    /// assert_eq!(prefix(&tmp["name"]).as_deref(), Some("tmp-"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_resource_value(mut self, address: &Address, value: Value) -> Config {
        self.resource_values.insert(address.to_string(), value);
        self
    }

    /// Decodes as Terraform's validate walk (`terraform validate`, and the
    /// `ValidateResourceConfig` calls of every command) sees the configuration: input
    /// variables are unknown (of their type constraint) rather than their defaults, so
    /// the local values and templates built on them are unknown too (a template keeping
    /// its literal prefix), and a `dynamic` block over one is an unknown collection of
    /// blocks. Without it, [`decode`](Self::decode) gives what the plan walk sends with
    /// the variables at their defaults. Instances are the same in both: without an
    /// instance key, `count.index` and `each` are unknown.
    ///
    /// ```
    /// use ctywire::config::Config;
    /// use ctywire::schema::{Attribute, Block, Schema};
    /// use ctywire::Type;
    ///
    /// let config = Config::from_sources([("main.tf.json", r#"{
    ///   "variable": {"env": {"type": "string", "default": "prod"}},
    ///   "resource": {"cloud_bucket": {"logs": {"name": "logs-${var.env}"}}}
    /// }"#)])?;
    /// let schema = Schema::new(Block::new().attribute("name", Attribute::new(Type::String).required()));
    /// let logs = "cloud_bucket.logs".parse()?;
    /// assert_eq!(config.decode(&logs, &schema)?["name"].as_str(), Some("logs-prod"));
    /// let validated = config.in_validate_walk().decode(&logs, &schema)?;
    /// let prefix = validated["name"].refinements().and_then(|r| r.string_prefix());
    /// assert_eq!(prefix, Some("logs-"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn in_validate_walk(mut self) -> Config {
        self.validate_walk = true;
        self
    }

    /// Every block the files declare, in file order, with its address.
    ///
    /// ```
    /// use ctywire::config::Config;
    ///
    /// let config = Config::from_sources([("main.tf.json", r#"{
    ///   "provider": {"cloud": [{"region": "eu"}, {"alias": "us", "region": "us"}]},
    ///   "data": {"cloud_image": {"ubuntu": {"name_regex": "^ubuntu"}}}
    /// }"#)])?;
    /// let listed: Vec<String> = config.declarations().into_iter().map(|d| d.address).collect();
    /// assert_eq!(listed, ["provider.cloud", "provider.cloud.us", "data.cloud_image.ubuntu"]);
    /// # Ok::<(), ctywire::config::Diagnostics>(())
    /// ```
    pub fn declarations(&self) -> Vec<Declaration> {
        let module = module::load(&self.roots, &mut Vec::new());
        let files = Files::new(&self.files);
        module
            .declared
            .into_iter()
            .map(|d| Declaration {
                kind: d.kind,
                address: d.address,
                location: files.location(d.at.file, d.at.start),
            })
            .collect()
    }

    /// The value of the block at `address`, with its schema looked up in `schemas`
    /// (a resource type, data source or provider by name); see [`decode`](Self::decode).
    ///
    /// ```
    /// use ctywire::config::Config;
    /// use ctywire::schema::ProviderSchemas;
    ///
    /// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
    /// let config = Config::read(["examples/config/buckets.tf.json"])?;
    /// let logs = config.value(&"cloud_bucket.logs[1]".parse()?, &schemas)?;
    /// assert_eq!(logs["name"].as_str(), Some("logs-1")); // "logs-${count.index}"
    /// assert_eq!(logs["lifecycle_rule"].len(), Some(2)); // a dynamic block over two keys
    /// assert!(logs["id"].is_null()); // computed: the provider sets it
    ///
    /// let err = config.value(&"cloud_bucket.nope".parse()?, &schemas).unwrap_err();
    /// assert!(err.to_string().starts_with("Reference to undeclared resource; "), "{err}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn value(
        &self,
        address: &Address,
        schemas: &ProviderSchemas,
    ) -> Result<Value, Diagnostics> {
        match address.schema(schemas) {
            Ok(schema) => self.decode_typed(address, schema, Some(schemas)),
            Err(e) => Err(Diagnostics(vec![Diagnostic {
                summary: address.no_schema_summary().into(),
                detail: e.message().to_owned(),
                location: None,
            }])),
        }
    }

    /// The value of the block at `address` decoded with `schema`, as Terraform decodes
    /// it: an object of the schema's [implied type](Schema::implied_type).
    ///
    /// - Attributes the body sets are their expressions' values converted to the
    ///   attribute's type; absent ones are null. A protocol-6 nested attribute is
    ///   converted to its objects' type, in which the optional and computed attributes
    ///   are optional (absent, they are null) and the others required.
    /// - A SINGLE block is its object, null when absent; GROUP likewise, but absent it
    ///   is an object of null attributes and empty block collections. LIST, SET and
    ///   MAP blocks are a list, set or map of objects (a map keyed by the block's
    ///   label: `{"label": {"env": {...}}}`), empty when there are none; a LIST or MAP
    ///   block type holding `dynamic` anywhere is a tuple or an object instead.
    ///   `min_items` / `max_items` are checked (SINGLE: `min_items` 1 makes the block
    ///   required).
    /// - `dynamic` blocks are expanded in place, one block per element of `for_each`;
    ///   when `for_each` is unknown, a LIST, SET or MAP block type's whole value is
    ///   unknown, and a SINGLE or GROUP block's attributes are.
    /// - For an instance address (`TYPE.NAME[0]`, `TYPE.NAME["a"]`) `count.index` or
    ///   `each.key` / `each.value` are that instance's (the key must exist when
    ///   `count` or `for_each` is known); without a key they are unknown, as
    ///   `terraform validate` has them.
    ///
    /// Fails with every diagnostic found: arguments or blocks the schema lacks,
    /// missing required arguments, values that do not convert, too few or too many
    /// blocks, invalid references.
    pub fn decode(&self, address: &Address, schema: &Schema) -> Result<Value, Diagnostics> {
        self.decode_typed(address, schema, None)
    }

    /// [`decode`](Self::decode), with references typed by the schemas of
    /// [`with_schemas`](Self::with_schemas), then by `schemas`.
    fn decode_typed(
        &self,
        address: &Address,
        schema: &Schema,
        schemas: Option<&ProviderSchemas>,
    ) -> Result<Value, Diagnostics> {
        let mut diags = Vec::new();
        let mut module = module::load(&self.roots, &mut diags);
        if self.validate_walk {
            for value in module.globals.variables.values_mut() {
                *value = Val::unknown(value.ty.clone());
            }
        }
        module.globals.resource_types = module
            .resources
            .iter()
            .filter(|r| r.count.is_none() && r.for_each.is_none())
            .filter_map(|r| {
                let prefix = match r.mode {
                    Mode::Managed => "",
                    Mode::Data => "data.",
                    Mode::Ephemeral => return None,
                };
                let ty = [self.reference_schemas.as_ref(), schemas]
                    .into_iter()
                    .flatten()
                    .find_map(|s| schema_type(s, r.mode, &r.type_name))?;
                Some((format!("{prefix}{}.{}", r.type_name, r.name), ty))
            })
            .collect();
        for given in self.resource_values.keys() {
            if !module.globals.resource_types.contains_key(given) {
                diags.push(Diag::nowhere(
                    "Resource value not usable",
                    format!(
                        "A value is given for {given}, but references can take one only for a \
                         resource declared without count or for_each (no instance key) whose \
                         schema is known."
                    ),
                ));
            }
        }
        module.globals.resource_values = self.resource_values.clone();
        let value = match address {
            Address::Resource {
                type_name,
                name,
                key,
            }
            | Address::DataSource {
                type_name,
                name,
                key,
            } => {
                let mode = match address {
                    Address::Resource { .. } => Mode::Managed,
                    _ => Mode::Data,
                };
                let found = module
                    .resources
                    .iter()
                    .find(|r| r.mode == mode && r.type_name == *type_name && r.name == *name);
                match found {
                    Some(resource) => {
                        decode_resource(&module, resource, key.as_ref(), schema, &mut diags)
                    }
                    None => {
                        let what = if mode == Mode::Managed {
                            "managed resource"
                        } else {
                            "data resource"
                        };
                        diags.push(Diag::nowhere(
                            "Reference to undeclared resource",
                            format!(
                                "A {what} {} {} has not been declared in the root module.",
                                crate::text::go_quote(type_name),
                                crate::text::go_quote(name)
                            ),
                        ));
                        Value::Null
                    }
                }
            }
            Address::Provider { name, alias } => {
                let found = module
                    .providers
                    .iter()
                    .find(|p| p.name == *name && p.alias == *alias);
                match found {
                    Some(provider) => decode::decode_body(
                        &provider.config,
                        &schema.block,
                        &Scope::new(&module.globals),
                        false,
                        &mut diags,
                    ),
                    None => {
                        diags.push(Diag::nowhere(
                            "Reference to undeclared provider configuration",
                            format!("There is no provider block for {address}."),
                        ));
                        Value::Null
                    }
                }
            }
        };
        self.finish(diags)?;
        Ok(value)
    }

    /// `Ok` when there are no diagnostics; otherwise all of them, placed in their files.
    fn finish(&self, diags: Vec<Diag>) -> Result<(), Diagnostics> {
        if diags.is_empty() {
            return Ok(());
        }
        let files = Files::new(&self.files);
        Err(Diagnostics(
            diags.into_iter().map(|d| files.place(d)).collect(),
        ))
    }
}

/// A resource's body decoded for one instance: `count` and `each` bound as the
/// instance key (or unknown without one).
fn decode_resource(
    module: &Module<'_>,
    resource: &Resource<'_>,
    key: Option<&InstanceKey>,
    schema: &Schema,
    diags: &mut Vec<Diag>,
) -> Value {
    let base = Scope::new(&module.globals);
    let mut scope = base.clone();
    let unexpected = |diags: &mut Vec<Diag>, detail: String| {
        diags.push(Diag::new(
            "Invalid resource instance key",
            detail,
            resource.def,
        ));
    };
    let address = format!("{}.{}", resource.type_name, resource.name);
    if let Some(count) = &resource.count {
        let n = base.eval_json(count.file, count.value, diags);
        let index = match key {
            None => Val::unknown(Type::Number),
            Some(InstanceKey::String(k)) => {
                unexpected(diags, format!("{address} has \"count\" set: its instances are keyed by number, not by {}.", crate::text::go_quote(k)));
                Val::unknown(Type::Number)
            }
            Some(InstanceKey::Int(i)) => {
                if let Ok(Value::Number(n)) = n.convert(&Type::Number) {
                    if n.to_i64().is_none_or(|n| *i >= n) {
                        unexpected(
                            diags,
                            format!("{address} has count {n}: there is no instance [{i}]."),
                        );
                    }
                }
                Val::known(Type::Number, Value::from(*i))
            }
        };
        scope = scope.with("count", Val::object(vec![("index".into(), index)]));
    } else if let Some(for_each) = &resource.for_each {
        let collection = base.eval_json(for_each.file, for_each.value, diags);
        let (each_key, each_value) = match key {
            None => (Val::unknown(Type::String), Val::unknown(Type::Dynamic)),
            Some(InstanceKey::Int(i)) => {
                unexpected(diags, format!("{address} has \"for_each\" set: its instances are keyed by string, not by [{i}]."));
                (Val::unknown(Type::String), Val::unknown(Type::Dynamic))
            }
            Some(InstanceKey::String(k)) => {
                let element = elements(&collection).and_then(|items| {
                    items
                        .into_iter()
                        .find(|(key, _)| key.value.as_str() == Some(k.as_str()))
                });
                match element {
                    Some((_, value)) => (Val::string(k), value),
                    None if collection.value.is_unknown() => {
                        (Val::string(k), Val::unknown(Type::Dynamic))
                    }
                    None => {
                        unexpected(
                            diags,
                            format!(
                                "{address} has no instance [{}] in its \"for_each\".",
                                crate::text::go_quote(k)
                            ),
                        );
                        (Val::string(k), Val::unknown(Type::Dynamic))
                    }
                }
            }
        };
        scope = scope.with(
            "each",
            Val::object(vec![("key".into(), each_key), ("value".into(), each_value)]),
        );
    } else if let Some(key) = key {
        diags.push(Diag::new(
            "Unexpected resource instance key",
            format!("Because {address} does not have \"count\" or \"for_each\" set, references to it must not include an index key ({key})."),
            resource.def,
        ));
    }
    decode::decode_body(&resource.config, &schema.block, &scope, false, diags)
}

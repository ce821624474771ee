//! A whole `providers schema -json` document, and looking schemas up by name.

use std::collections::BTreeMap;
use std::fmt;

use super::{Function, IdentitySchema, Schema};
use crate::error::{Error, ErrorKind, Result};

/// The schemas of every provider in a configuration: what `terraform providers schema
/// -json` and `tofu providers schema -json` print.
///
/// Look a schema up by name with [`resource`](Self::resource),
/// [`data_source`](Self::data_source) and [`provider`](Self::provider); they search
/// every provider.
///
/// ```
/// use ctywire::schema::ProviderSchemas;
///
/// let doc = br#"{
///   "format_version": "1.0",
///   "provider_schemas": {
///     "registry.terraform.io/example/cloud": {
///       "provider": {"version": 0, "block": {"attributes": {
///         "region": {"type": "string", "optional": true}}}},
///       "resource_schemas": {"cloud_instance": {"version": 1, "block": {"attributes": {
///         "id": {"type": "string", "computed": true},
///         "tags": {"type": ["map", "string"], "optional": true}}}}}
///     }
///   }
/// }"#;
/// let schemas = ProviderSchemas::from_json(doc)?;
/// let instance = schemas.resource("cloud_instance")?;
/// assert_eq!(instance.version, 1);
/// assert_eq!(instance.implied_type().to_expr(), "object({id=string,tags=map(string)})");
/// assert!(schemas.provider("cloud")?.block.attributes.contains_key("region"));
///
/// let err = schemas.resource("cloud_instances").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     r#"no resource type "cloud_instances" in the schemas; did you mean "cloud_instance"?"#,
/// );
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ProviderSchemas {
    /// The document's `format_version` (`"1.0"`).
    pub format_version: String,
    /// The providers, by address (`registry.terraform.io/hashicorp/aws`).
    pub providers: BTreeMap<String, ProviderSchema>,
}

/// One provider's schemas: every section of `providers schema -json`.
///
/// ```
/// use ctywire::schema::ProviderSchemas;
///
/// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
/// let (address, cloud) = schemas.find_provider("cloud")?;
/// assert_eq!(address, "registry.terraform.io/example/cloud");
/// let resources: Vec<&str> = cloud.resource_schemas.keys().map(String::as_str).collect();
/// assert_eq!(resources, ["cloud_bucket", "cloud_instance"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ProviderSchema {
    /// The schema of the provider's own configuration (the `provider` block).
    pub provider: Schema,
    /// The managed resource types, by name.
    pub resource_schemas: BTreeMap<String, Schema>,
    /// The data sources, by name.
    pub data_source_schemas: BTreeMap<String, Schema>,
    /// The ephemeral resource types, by name.
    pub ephemeral_resource_schemas: BTreeMap<String, Schema>,
    /// The list resource types, by name: the schema of a `list` block's `config` (what
    /// Terraform's JSON gives).
    pub list_resource_schemas: BTreeMap<String, Schema>,
    /// The actions, by name (their schemas have no version: it is 0).
    pub action_schemas: BTreeMap<String, Schema>,
    /// The state stores, by name.
    pub state_store_schemas: BTreeMap<String, Schema>,
    /// The identity schemas of managed resource types, by resource type name.
    pub resource_identity_schemas: BTreeMap<String, IdentitySchema>,
    /// The provider-defined functions, by name.
    pub functions: BTreeMap<String, Function>,
}

/// Which section of a provider's schemas a name is looked up in.
///
/// ```
/// use ctywire::schema::{ProviderSchemas, SchemaKind};
///
/// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
/// let token = schemas.schema(SchemaKind::EphemeralResource, "cloud_session_token")?;
/// assert!(token.block.attributes["token"].sensitive);
///
/// // Everything a provider defines, section by section.
/// let (_, cloud) = schemas.find_provider("cloud")?;
/// let defined: Vec<String> = SchemaKind::ALL.into_iter()
///     .flat_map(|kind| kind.schemas(cloud).keys().map(move |name| format!("{} {name}", kind.noun())))
///     .collect();
/// assert_eq!(defined, [
///     "resource type cloud_bucket",
///     "resource type cloud_instance",
///     "data source cloud_image",
///     "ephemeral resource type cloud_session_token",
///     "list resource type cloud_instance",
///     "action cloud_instance_reboot",
/// ]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SchemaKind {
    /// `resource_schemas`: managed resource types.
    Resource,
    /// `data_source_schemas`.
    DataSource,
    /// `ephemeral_resource_schemas`.
    EphemeralResource,
    /// `list_resource_schemas`.
    ListResource,
    /// `action_schemas`.
    Action,
    /// `state_store_schemas`.
    StateStore,
}

impl SchemaKind {
    /// Every kind, in the order of the sections in `providers schema -json`.
    pub const ALL: [SchemaKind; 6] = [
        SchemaKind::Resource,
        SchemaKind::DataSource,
        SchemaKind::EphemeralResource,
        SchemaKind::ListResource,
        SchemaKind::Action,
        SchemaKind::StateStore,
    ];

    /// What the section holds, in messages: `resource type`, `data source`, ...
    pub fn noun(self) -> &'static str {
        match self {
            SchemaKind::Resource => "resource type",
            SchemaKind::DataSource => "data source",
            SchemaKind::EphemeralResource => "ephemeral resource type",
            SchemaKind::ListResource => "list resource type",
            SchemaKind::Action => "action",
            SchemaKind::StateStore => "state store",
        }
    }

    /// The section in `provider`.
    pub fn schemas(self, provider: &ProviderSchema) -> &BTreeMap<String, Schema> {
        (self.section().of)(provider)
    }

    fn section(self) -> Section<Schema> {
        let of: fn(&ProviderSchema) -> &BTreeMap<String, Schema> = match self {
            SchemaKind::Resource => |p| &p.resource_schemas,
            SchemaKind::DataSource => |p| &p.data_source_schemas,
            SchemaKind::EphemeralResource => |p| &p.ephemeral_resource_schemas,
            SchemaKind::ListResource => |p| &p.list_resource_schemas,
            SchemaKind::Action => |p| &p.action_schemas,
            SchemaKind::StateStore => |p| &p.state_store_schemas,
        };
        Section {
            noun: self.noun(),
            of,
        }
    }
}

/// A section of a provider's schemas, for the lookups shared by every section.
struct Section<T> {
    noun: &'static str,
    of: fn(&ProviderSchema) -> &BTreeMap<String, T>,
}

const IDENTITIES: Section<IdentitySchema> = Section {
    noun: "resource identity schema",
    of: |p| &p.resource_identity_schemas,
};

/// A provider of the schemas found for the provider name a `show -json` document (or a
/// capture) gives: see [`ProviderSchemas::match_provider`].
///
/// ```
/// use ctywire::schema::ProviderSchemas;
///
/// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
/// let exact = schemas.match_provider("registry.terraform.io/example/cloud")?;
/// assert!(exact.fallback.is_none());
/// assert!(exact.provider.resource_schemas.contains_key("cloud_instance"));
///
/// // A plan OpenTofu wrote names the provider on OpenTofu's registry.
/// let found = schemas.match_provider("registry.opentofu.org/example/cloud")?;
/// assert_eq!(found.address, "registry.terraform.io/example/cloud");
/// let note = found.fallback.map(|how| format!("taken as {} ({how})", found.address));
/// assert_eq!(note.as_deref(), Some("taken as registry.terraform.io/example/cloud (another registry host)"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct ProviderMatch<'s> {
    /// The provider's address in the schemas.
    pub address: &'s str,
    /// Its schemas.
    pub provider: &'s ProviderSchema,
    /// How the name was matched, when it is not the address itself.
    pub fallback: Option<Fallback>,
}

/// How a provider name that is not an address of the schemas was matched to one, for a
/// note that says which provider was taken.
///
/// Displays as the reasons: `alias "aliased" dropped`, `another registry host`,
/// `by type name alone`, joined with `, `.
///
/// ```
/// use ctywire::schema::ProviderSchemas;
///
/// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
/// // Terraform 0.12 names an aliased provider configuration `TYPE.ALIAS`.
/// let found = schemas.match_provider("cloud.west")?;
/// assert_eq!(found.address, "registry.terraform.io/example/cloud");
/// let fallback = found.fallback.unwrap();
/// assert_eq!(fallback.dropped_alias.as_deref(), Some("west"));
/// assert!(fallback.by_type_name && !fallback.other_host);
/// assert_eq!(fallback.to_string(), r#"alias "west" dropped, by type name alone"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Fallback {
    /// The alias of Terraform 0.12's `TYPE.ALIAS` provider names (`aliased` in
    /// `null.aliased`), dropped.
    pub dropped_alias: Option<String>,
    /// Whether the registry hosts differ: an OpenTofu document's
    /// `registry.opentofu.org/hashicorp/local` in schemas Terraform dumped, keyed
    /// `registry.terraform.io/hashicorp/local`, or the other way round.
    pub other_host: bool,
    /// Whether one of the two names is a type name alone, as Terraform 0.12 writes
    /// them in documents (`aws`) and keys its schemas.
    pub by_type_name: bool,
}

impl fmt::Display for Fallback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut reasons = Vec::new();
        if let Some(alias) = &self.dropped_alias {
            reasons.push(format!("alias {alias:?} dropped"));
        }
        if self.other_host {
            reasons.push("another registry host".to_owned());
        }
        if self.by_type_name {
            reasons.push("by type name alone".to_owned());
        }
        f.write_str(&reasons.join(", "))
    }
}

/// A schema found for a document's resource: the schema, the address of the provider
/// that has it, and how the document's provider name was matched to that address.
///
/// [`ProviderSchemas::find`] and [`ProviderSchemas::find_identity`] give one, and so do
/// the `find_schema` methods of the [`tfjson`](crate::tfjson) documents' resources,
/// changes and action invocations.
///
/// ```
/// use ctywire::schema::{ProviderSchemas, SchemaKind};
/// use ctywire::json;
///
/// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
/// // A state OpenTofu wrote names the provider on OpenTofu's registry.
/// let found = schemas.find(SchemaKind::Resource, "cloud_bucket", Some("registry.opentofu.org/example/cloud"))?;
/// assert_eq!(found.provider, "registry.terraform.io/example/cloud");
/// assert_eq!(found.fallback.as_ref().unwrap().to_string(), "another registry host");
/// let values = br#"{"force_destroy": false, "id": "b-1", "lifecycle_rule": [], "name": "logs"}"#;
/// let bucket = json::decode(values, &found.schema.implied_type())?;
/// assert_eq!(bucket["name"].as_str(), Some("logs"));
///
/// // Identity schemas are found the same way.
/// let identity = schemas.find_identity("cloud_instance", Some("registry.terraform.io/example/cloud"))?;
/// assert!(identity.fallback.is_none());
/// assert!(identity.schema.attributes["id"].required_for_import);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct SchemaMatch<'s, T = Schema> {
    /// The schema.
    pub schema: &'s T,
    /// The address of the provider that defines it.
    pub provider: &'s str,
    /// How the document's provider name was matched, when it is not this address.
    pub fallback: Option<Fallback>,
}

/// A provider name taken apart: `[HOST/]NAMESPACE/TYPE`, or Terraform 0.12's
/// `TYPE[.ALIAS]`.
struct ProviderName<'n> {
    host: Option<&'n str>,
    namespace: Option<&'n str>,
    type_name: &'n str,
    alias: Option<&'n str>,
}

impl<'n> ProviderName<'n> {
    fn parse(name: &'n str) -> ProviderName<'n> {
        let parts: Vec<&str> = name.split('/').collect();
        match parts[..] {
            [host, namespace, type_name] => ProviderName {
                host: Some(host),
                namespace: Some(namespace),
                type_name,
                alias: None,
            },
            [namespace, type_name] => ProviderName {
                host: None,
                namespace: Some(namespace),
                type_name,
                alias: None,
            },
            _ => {
                let (type_name, alias) = match name.split_once('.') {
                    Some((t, a)) if !name.contains('/') => (t, Some(a)),
                    _ => (name, None),
                };
                ProviderName {
                    host: None,
                    namespace: None,
                    type_name,
                    alias,
                }
            }
        }
    }

    /// The registry host of an address (`NAMESPACE/TYPE` is on Terraform's registry);
    /// none for a type name alone.
    fn host(&self) -> Option<&'n str> {
        const DEFAULT_HOST: &str = "registry.terraform.io";
        self.namespace.map(|_| self.host.unwrap_or(DEFAULT_HOST))
    }

    /// Whether `self` and `other` can name the same provider: the same type, and the
    /// same namespace where both give one.
    fn same_provider(&self, other: &ProviderName<'_>) -> bool {
        self.type_name == other.type_name
            && match (self.namespace, other.namespace) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            }
    }

    /// How `self` was matched to `other` (an address of the schemas).
    fn fallback(&self, other: &ProviderName<'_>) -> Fallback {
        Fallback {
            dropped_alias: self.alias.map(str::to_owned),
            other_host: matches!((self.host(), other.host()), (Some(a), Some(b)) if a != b),
            by_type_name: self.namespace.is_none() != other.namespace.is_none(),
        }
    }
}

fn not_found(message: String) -> Error {
    Error::new(ErrorKind::NotFound, message)
}

impl ProviderSchemas {
    /// The schema of managed resource type `name`, searched in every provider.
    ///
    /// When two providers define the name, name the provider too, as
    /// `PROVIDER:NAME` (PROVIDER as [`provider`](Self::provider) takes it:
    /// `aws:aws_instance`, `hashicorp/aws:aws_instance`).
    ///
    /// Fails with [`ErrorKind::NotFound`] when no provider defines the name (the message
    /// lists near names) or more than one does.
    ///
    /// ```
    /// use ctywire::schema::ProviderSchemas;
    ///
    /// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
    /// let bucket = schemas.resource("cloud_bucket")?;
    /// assert_eq!(bucket.block.description, "A storage bucket.");
    /// assert_eq!(schemas.resource("cloud:cloud_bucket")?, bucket);
    /// assert!(schemas.resource("cloud_image").is_err()); // a data source
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resource(&self, name: &str) -> Result<&Schema> {
        self.schema(SchemaKind::Resource, name)
    }

    /// The schema of data source `name`, searched in every provider; see
    /// [`resource`](Self::resource).
    ///
    /// ```
    /// use ctywire::schema::ProviderSchemas;
    ///
    /// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
    /// let image = schemas.data_source("cloud_image")?;
    /// assert!(image.block.attributes["image_id"].computed);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn data_source(&self, name: &str) -> Result<&Schema> {
        self.schema(SchemaKind::DataSource, name)
    }

    /// The schema named `name` in section `kind` of the providers' schemas, searched as
    /// [`resource`](Self::resource) searches.
    ///
    /// ```
    /// use ctywire::schema::{ProviderSchemas, SchemaKind};
    ///
    /// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
    /// let token = schemas.schema(SchemaKind::EphemeralResource, "cloud_session_token")?;
    /// assert!(token.block.attributes["token"].sensitive);
    /// let reboot = schemas.schema(SchemaKind::Action, "cloud_instance_reboot")?;
    /// assert_eq!(reboot.implied_type().to_expr(), "object({instance_id=string})");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn schema(&self, kind: SchemaKind, name: &str) -> Result<&Schema> {
        self.lookup(&kind.section(), name)
    }

    /// The identity schema of managed resource type `name`, searched as
    /// [`resource`](Self::resource) searches.
    pub fn resource_identity(&self, name: &str) -> Result<&IdentitySchema> {
        self.lookup(&IDENTITIES, name)
    }

    /// The schema of a provider's own configuration. `name` is the provider's address
    /// (`registry.terraform.io/hashicorp/aws`), the address without its host
    /// (`hashicorp/aws`), or its type name alone (`aws`).
    ///
    /// Fails with [`ErrorKind::NotFound`] when no provider matches, or more than one.
    ///
    /// ```
    /// use ctywire::schema::ProviderSchemas;
    ///
    /// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
    /// let cloud = schemas.provider("example/cloud")?;
    /// assert_eq!(cloud, schemas.provider("cloud")?);
    /// assert!(cloud.block.attributes.contains_key("region"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn provider(&self, name: &str) -> Result<&Schema> {
        self.find_provider(name).map(|(_, p)| &p.provider)
    }

    /// The provider `name` names (as for [`provider`](Self::provider)), with its
    /// address.
    ///
    /// ```
    /// use ctywire::schema::{ProviderSchema, ProviderSchemas};
    ///
    /// let mut schemas = ProviderSchemas::default();
    /// schemas.providers.insert("registry.terraform.io/hashicorp/aws".into(), ProviderSchema::default());
    /// for name in ["aws", "hashicorp/aws", "registry.terraform.io/hashicorp/aws"] {
    ///     assert_eq!(schemas.find_provider(name)?.0, "registry.terraform.io/hashicorp/aws");
    /// }
    /// assert!(schemas.find_provider("azurerm").is_err());
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn find_provider(&self, name: &str) -> Result<(&str, &ProviderSchema)> {
        if let Some((address, provider)) = self.providers.get_key_value(name) {
            return Ok((address, provider));
        }
        let matches: Vec<(&str, &ProviderSchema)> = self
            .providers
            .iter()
            .filter(|(address, _)| {
                address.ends_with(&format!("/{name}"))
                    && address.matches('/').count() > name.matches('/').count()
            })
            .map(|(a, p)| (a.as_str(), p))
            .collect();
        match matches.as_slice() {
            [one] => Ok(*one),
            [] => Err(self.no_provider(name)),
            many => Err(not_found(format!(
                "provider name {name:?} matches {} providers ({}); give the full address",
                many.len(),
                join(many.iter().map(|(a, _)| *a))
            ))),
        }
    }

    /// The provider a `show -json` document's `provider_name` names, falling back to the
    /// one provider of the schemas it can only mean when the name is not an address of
    /// the schemas; [`ProviderMatch::fallback`] says how, for a note.
    ///
    /// The name and the schemas' addresses are each `[HOST/]NAMESPACE/TYPE` or, as
    /// Terraform 0.12 writes them, a type name alone, with an alias in documents
    /// (`null.aliased`). They can name the same provider when their types are equal and
    /// so are their namespaces where both give one; hosts may differ (OpenTofu writes
    /// `registry.opentofu.org`, Terraform `registry.terraform.io`), aliases are
    /// dropped. When the name is not an address of the schemas, the one address that
    /// can name the same provider is taken; none, or more than one, is an
    /// [`ErrorKind::NotFound`] error.
    ///
    /// ```
    /// use ctywire::schema::{ProviderSchema, ProviderSchemas};
    ///
    /// let mut schemas = ProviderSchemas::default();
    /// for address in ["registry.terraform.io/hashicorp/local", "null"] {
    ///     schemas.providers.insert(address.into(), ProviderSchema::default());
    /// }
    /// let found = schemas.match_provider("registry.opentofu.org/hashicorp/local")?;
    /// assert_eq!(found.address, "registry.terraform.io/hashicorp/local");
    /// assert_eq!(found.fallback.unwrap().to_string(), "another registry host");
    /// let found = schemas.match_provider("null.aliased")?;
    /// assert_eq!(found.address, "null");
    /// assert_eq!(found.fallback.unwrap().to_string(), r#"alias "aliased" dropped"#);
    /// let found = schemas.match_provider("registry.terraform.io/hashicorp/null")?;
    /// assert_eq!((found.address, found.fallback.unwrap().by_type_name), ("null", true));
    /// assert!(schemas.match_provider("registry.terraform.io/hashicorp2/local").is_err());
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn match_provider(&self, name: &str) -> Result<ProviderMatch<'_>> {
        if let Some((address, provider)) = self.providers.get_key_value(name) {
            return Ok(ProviderMatch {
                address,
                provider,
                fallback: None,
            });
        }
        let wanted = ProviderName::parse(name);
        let matches: Vec<(&String, &ProviderSchema)> = self
            .providers
            .iter()
            .filter(|(address, _)| wanted.same_provider(&ProviderName::parse(address)))
            .collect();
        match matches[..] {
            [(address, provider)] => Ok(ProviderMatch {
                address,
                provider,
                fallback: Some(wanted.fallback(&ProviderName::parse(address))),
            }),
            [] => Err(self.no_provider(name)),
            _ => Err(not_found(format!(
                "provider {name:?} may be any of {} providers of the schemas ({})",
                matches.len(),
                join(matches.iter().map(|(a, _)| a.as_str()))
            ))),
        }
    }

    /// The schema of a resource (or data source, ...) of type `type_name` in section
    /// `kind`, from the provider a document names `provider` (see
    /// [`match_provider`](Self::match_provider); every provider is searched when it is
    /// `None`).
    ///
    /// ```
    /// use ctywire::schema::{ProviderSchemas, SchemaKind};
    ///
    /// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
    /// let found = schemas.find(SchemaKind::Resource, "cloud_instance", Some("registry.opentofu.org/example/cloud"))?;
    /// assert_eq!(found.provider, "registry.terraform.io/example/cloud");
    /// assert_eq!(found.fallback.unwrap().to_string(), "another registry host");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn find(
        &self,
        kind: SchemaKind,
        type_name: &str,
        provider: Option<&str>,
    ) -> Result<SchemaMatch<'_>> {
        self.find_in(&kind.section(), type_name, provider)
    }

    /// The identity schema of managed resource type `type_name` from the provider a
    /// document names `provider`, as [`find`](Self::find) finds schemas.
    pub fn find_identity(
        &self,
        type_name: &str,
        provider: Option<&str>,
    ) -> Result<SchemaMatch<'_, IdentitySchema>> {
        self.find_in(&IDENTITIES, type_name, provider)
    }

    fn find_in<T>(
        &self,
        section: &Section<T>,
        type_name: &str,
        provider: Option<&str>,
    ) -> Result<SchemaMatch<'_, T>> {
        let Some(provider) = provider else {
            let (address, schema) = self.search(section, type_name)?;
            return Ok(SchemaMatch {
                schema,
                provider: address,
                fallback: None,
            });
        };
        let found = self.match_provider(provider)?;
        let address = found.address;
        let schemas = (section.of)(found.provider);
        let schema = schemas.get(type_name).ok_or_else(|| {
            let via = match &found.fallback {
                Some(f) => format!(" (taken for {provider:?}: {f})"),
                None => String::new(),
            };
            not_found(format!(
                "provider {address}{via} has no {} {type_name:?}; {}",
                section.noun,
                suggestions(section.noun, type_name, schemas.keys())
            ))
        })?;
        Ok(SchemaMatch {
            schema,
            provider: address,
            fallback: found.fallback,
        })
    }

    fn lookup<T>(&self, section: &Section<T>, name: &str) -> Result<&T> {
        if let Some((provider, short)) = name.split_once(':') {
            let (address, p) = self.find_provider(provider)?;
            return (section.of)(p).get(short).ok_or_else(|| {
                not_found(format!(
                    "provider {address} has no {} {short:?}; {}",
                    section.noun,
                    suggestions(section.noun, short, (section.of)(p).keys())
                ))
            });
        }
        self.search(section, name).map(|(_, schema)| schema)
    }

    /// `name` searched in `section` of every provider.
    fn search<T>(&self, section: &Section<T>, name: &str) -> Result<(&str, &T)> {
        let found: Vec<(&str, &T)> = self
            .providers
            .iter()
            .filter_map(|(address, p)| (section.of)(p).get(name).map(|s| (address.as_str(), s)))
            .collect();
        match found.as_slice() {
            [one] => Ok(*one),
            [] => {
                let all = self.providers.values().flat_map(|p| (section.of)(p).keys());
                Err(not_found(format!(
                    "no {} {name:?} in the schemas; {}",
                    section.noun,
                    suggestions(section.noun, name, all)
                )))
            }
            many => Err(not_found(format!(
                "{} {name:?} is defined by {} providers ({}); name one as \"PROVIDER:{name}\"",
                section.noun,
                many.len(),
                join(many.iter().map(|(a, _)| *a))
            ))),
        }
    }

    fn no_provider(&self, name: &str) -> Error {
        not_found(format!(
            "no provider {name:?} in the schemas; {}",
            listing("providers", self.providers.keys())
        ))
    }
}

/// "did you mean "x"?" when near names exist, else a listing of what there is.
fn suggestions<'a>(noun: &str, name: &str, names: impl Iterator<Item = &'a String>) -> String {
    let names: Vec<&String> = names.collect();
    let mut near: Vec<&str> = names
        .iter()
        .filter(|n| is_near(name, n))
        .map(|n| n.as_str())
        .collect();
    near.sort_unstable();
    near.dedup();
    match near.as_slice() {
        [] => listing(&format!("{noun}s"), names.into_iter()),
        [one] => format!("did you mean {one:?}?"),
        some => format!(
            "did you mean one of {}?",
            some.iter()
                .map(|n| format!("{n:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// "the schemas define no Xs", or "Xs: a, b, c" (at most 10 names).
fn listing<'a>(what: &str, names: impl Iterator<Item = &'a String>) -> String {
    let mut names: Vec<&str> = names.map(String::as_str).collect();
    names.sort_unstable();
    names.dedup();
    if names.is_empty() {
        return format!("the schemas define no {what}");
    }
    const SHOWN: usize = 10;
    let more = names.len().saturating_sub(SHOWN);
    let mut text = format!("{what}: {}", join(names.into_iter().take(SHOWN)));
    if more > 0 {
        text.push_str(&format!(" and {more} more"));
    }
    text
}

fn join<'a>(items: impl Iterator<Item = &'a str>) -> String {
    items.collect::<Vec<_>>().join(", ")
}

/// Whether `candidate` is near enough to `name` to suggest: one contains the other, or
/// they are a few edits apart.
fn is_near(name: &str, candidate: &str) -> bool {
    if name.is_empty() {
        return false;
    }
    if candidate.contains(name) || name.contains(candidate) {
        return true;
    }
    let limit = (name.chars().count() / 4).clamp(1, 3);
    edit_distance(name, candidate) <= limit
}

/// The edit distance between `a` and `b`, in characters: insertions, deletions,
/// substitutions and swaps of two neighbours each count one.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // d[i][j]: the distance between a[..i] and b[..j].
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("abc", "abc"), 0);
        assert_eq!(edit_distance("abc", "abd"), 1);
        assert_eq!(edit_distance("abc", "ab"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("é", "e"), 1);
        assert_eq!(edit_distance("shared", "sharde"), 1);
        assert_eq!(edit_distance("ab", "ba"), 1);
    }

    #[test]
    fn near_names() {
        assert!(is_near("cloud_instanc", "cloud_instance"));
        assert!(is_near("instance", "cloud_instance"));
        assert!(is_near("cloud_instnace", "cloud_instance"));
        assert!(!is_near("bucket", "cloud_instance"));
        assert!(!is_near("", "cloud_instance"));
    }
}

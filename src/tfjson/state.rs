//! The state representation and the values representation it shares with plans.

use std::collections::BTreeMap;
use std::fmt;

use crate::address::InstanceKey;
use crate::error::{Error, ErrorKind, Result};
use crate::path::Path;
use crate::schema::{IdentitySchema, ProviderSchemas, Schema, SchemaKind, SchemaMatch};
use crate::token::json_read::{Kind, Reader};
use crate::types::Type;
use crate::value::Value;

use super::read;
use super::{sensitive_paths, MarkTree, RawJson};

/// A state as `terraform show -json` prints it (also a plan's `prior_state`).
///
/// ```
/// use ctywire::tfjson::State;
///
/// let state = State::from_json(br#"{
///   "format_version": "1.0",
///   "terraform_version": "1.9.5",
///   "values": {
///     "outputs": {"ip": {"sensitive": false, "value": "10.0.0.5", "type": "string"}},
///     "root_module": {
///       "resources": [{
///         "address": "aws_instance.web[0]", "mode": "managed", "type": "aws_instance",
///         "name": "web", "index": 0, "provider_name": "registry.terraform.io/hashicorp/aws",
///         "schema_version": 1, "values": {"id": "i-0abc", "tags": {"Name": "web-0"}},
///         "sensitive_values": {"tags": {}}
///       }]
///     }
///   }
/// }"#)?;
/// let values = state.values.as_ref().unwrap();
/// let web = values.resource("aws_instance.web[0]").unwrap();
/// let v = web.typed_values(&"object({id=string, tags=map(string)})".parse()?)?;
/// assert_eq!(v["tags"]["Name"].as_str(), Some("web-0"));
/// assert_eq!(values.outputs["ip"].typed_value()?.as_str(), Some("10.0.0.5"));
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct State {
    /// `format_version`, e.g. `"1.0"`.
    pub format_version: Option<String>,
    /// `terraform_version`, the version of Terraform (or OpenTofu) that wrote the state.
    pub terraform_version: Option<String>,
    /// `values`: absent for an empty state.
    pub values: Option<Values>,
    /// `checks`, as it was written.
    pub checks: Option<RawJson>,
}

/// A values representation: a state's values, or a plan's `planned_values`.
///
/// ```
/// use ctywire::schema::ProviderSchemas;
/// use ctywire::tfjson::Plan;
///
/// let plan = Plan::from_json(&std::fs::read("examples/plan/plan.json")?)?;
/// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/plan/schema.json")?)?;
/// let planned = plan.planned_values.as_ref().unwrap();
///
/// // Every resource, those of child modules included.
/// let subnets: Vec<&str> = planned.resources()
///     .filter(|r| r.type_name == "aws_subnet")
///     .map(|r| r.address.as_str())
///     .collect();
/// assert_eq!(subnets, [r#"module.network.aws_subnet.private["a"]"#, r#"module.network.aws_subnet.private["b"]"#]);
///
/// let web = planned.resource("aws_instance.web[1]").unwrap();
/// let values = web.typed_values(&web.schema(&schemas)?.implied_type())?;
/// assert_eq!(values["instance_type"].as_str(), Some("t3.micro"));
///
/// // An output not yet known has no value here (the plan's `output_changes` say more).
/// assert!(planned.outputs["web_private_ips"].value.is_none());
/// assert_eq!(
///     planned.outputs["db_endpoint"].typed_value()?.as_str(),
///     Some("main.c9akciq32.us-east-1.rds.amazonaws.com:5432"),
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Values {
    /// The root module's outputs, by name.
    pub outputs: BTreeMap<String, Output>,
    /// The root module, with its child modules inside.
    pub root_module: Module,
}

/// A module in a values representation.
///
/// ```
/// use ctywire::tfjson::State;
///
/// let state = State::from_json(&std::fs::read("examples/plan/state.json")?)?;
/// let root = &state.values.as_ref().unwrap().root_module;
/// let modules: Vec<&str> = root.modules().filter_map(|m| m.address.as_deref()).collect();
/// assert_eq!(modules, [r#"module.apps["api"]"#, "module.network", "module.network.module.endpoints"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Module {
    /// The module's address (`module.network`, `module.apps["api"]`); `None` for the
    /// root module.
    pub address: Option<String>,
    /// The module's resource instances (and, in a state, deposed objects).
    pub resources: Vec<Resource>,
    /// The child modules.
    pub child_modules: Vec<Module>,
}

/// A resource instance object in a values representation.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Resource {
    /// The absolute address, e.g. `module.network.aws_subnet.private["a"]`.
    pub address: String,
    /// `managed` or `data`.
    pub mode: ResourceMode,
    /// The resource type, e.g. `aws_instance` (the document's `type`).
    pub type_name: String,
    /// The resource name.
    pub name: String,
    /// The instance key: a number under `count`, a string under `for_each`.
    pub index: Option<InstanceKey>,
    /// The provider's source address, e.g. `registry.terraform.io/hashicorp/aws`.
    pub provider_name: Option<String>,
    /// The schema version `values` conform to.
    pub schema_version: Option<u64>,
    /// The attribute values, as plain JSON. In `planned_values`, unknown values are
    /// left out or `null`: use the matching [`ResourceChange`](super::ResourceChange)
    /// for them. Absent when the object is null or wholly unknown.
    pub values: Option<RawJson>,
    /// Which values are sensitive.
    pub sensitive_values: Option<MarkTree>,
    /// `depends_on`: addresses relative to the module.
    pub depends_on: Vec<String>,
    /// Whether the object is tainted.
    pub tainted: bool,
    /// For a deposed object in a state, its deposed key (`deposed_key`).
    pub deposed_key: Option<String>,
    /// The version of the identity schema `identity` conforms to.
    pub identity_schema_version: Option<u64>,
    /// The object's identity (Terraform 1.12), as plain JSON: typed by the resource
    /// type's identity schema.
    pub identity: Option<RawJson>,
}

/// A resource mode.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ResourceMode {
    /// `"managed"`: a `resource` block.
    Managed,
    /// `"data"`: a `data` block.
    Data,
    /// Any other mode a later version may add.
    Other(String),
}

impl ResourceMode {
    /// The mode as the document writes it.
    pub fn as_str(&self) -> &str {
        match self {
            ResourceMode::Managed => "managed",
            ResourceMode::Data => "data",
            ResourceMode::Other(s) => s,
        }
    }

    /// The schema of a resource of this mode (a data source's for `data`, a managed
    /// resource type's otherwise) named `type_name`, from the provider a document names
    /// `provider` (every provider is searched when it is `None`); see
    /// [`find_schema`](Self::find_schema).
    pub fn schema<'s>(
        &self,
        schemas: &'s ProviderSchemas,
        type_name: &str,
        provider: Option<&str>,
    ) -> Result<&'s Schema> {
        self.find_schema(schemas, type_name, provider)
            .map(|found| found.schema)
    }

    /// [`schema`](Self::schema), with the address of the provider taken and how the
    /// document's provider name led to it: a name that is not an address of the
    /// schemas falls back to the one provider it can mean (Terraform 0.12's `null.aliased`
    /// and `aws`, another registry host; see [`ProviderSchemas::match_provider`]).
    ///
    /// ```
    /// use ctywire::schema::ProviderSchemas;
    /// use ctywire::tfjson::ResourceMode;
    ///
    /// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/plan/schema.json")?)?;
    /// let found = ResourceMode::Managed.find_schema(&schemas, "aws_instance", Some("aws"))?;
    /// assert_eq!(found.provider, "registry.terraform.io/hashicorp/aws");
    /// assert_eq!(found.fallback.unwrap().to_string(), "by type name alone");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn find_schema<'s>(
        &self,
        schemas: &'s ProviderSchemas,
        type_name: &str,
        provider: Option<&str>,
    ) -> Result<SchemaMatch<'s>> {
        let kind = match self {
            ResourceMode::Data => SchemaKind::DataSource,
            _ => SchemaKind::Resource,
        };
        schemas.find(kind, type_name, provider)
    }

    pub(super) fn from_string(s: String) -> ResourceMode {
        match s.as_str() {
            "managed" => ResourceMode::Managed,
            "data" => ResourceMode::Data,
            _ => ResourceMode::Other(s),
        }
    }
}

impl fmt::Display for ResourceMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An output value in a values representation.
///
/// ```
/// use ctywire::tfjson::State;
///
/// let state = State::from_json(&std::fs::read("examples/plan/state.json")?)?;
/// let outputs = &state.values.as_ref().unwrap().outputs;
/// assert!(outputs["db_password"].sensitive);
/// let ips = outputs["web_private_ips"].typed_value()?;
/// assert_eq!(ips.recorded_type().unwrap().to_expr(), "tuple([string,string])");
/// assert_eq!(ips[1].as_str(), Some("10.0.1.11"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Output {
    /// Whether the output is sensitive (its value is still written).
    pub sensitive: bool,
    /// The value, as plain JSON; absent in `planned_values` when not yet known.
    pub value: Option<RawJson>,
    /// The value's type, when the document gives it (`type`, since Terraform 1.1 in
    /// states and 1.3 in planned values).
    pub ty: Option<Type>,
}

impl State {
    /// Reads a state document (`terraform show -json` of a state).
    ///
    /// ```
    /// use ctywire::tfjson::State;
    ///
    /// let state = State::from_json(&std::fs::read("examples/plan/state.json")?)?;
    /// let values = state.values.as_ref().unwrap();
    /// let db = values.resource("aws_db_instance.main").unwrap();
    /// assert_eq!(db.type_name, "aws_db_instance");
    /// assert!(db.values.is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_json(input: &[u8]) -> Result<State> {
        read::document(input, state)
    }
}

impl std::str::FromStr for State {
    type Err = Error;

    fn from_str(s: &str) -> Result<State> {
        State::from_json(s.as_bytes())
    }
}

impl Values {
    /// Every resource object in every module, depth first: a module's own resources,
    /// then its child modules'.
    pub fn resources(&self) -> impl Iterator<Item = &Resource> + '_ {
        self.root_module.all_resources()
    }

    /// The current (not deposed) object of the resource instance at `address`.
    pub fn resource(&self, address: &str) -> Option<&Resource> {
        self.resources()
            .find(|r| r.address == address && r.deposed_key.is_none())
    }
}

impl Module {
    /// This module and every module inside it, depth first.
    pub fn modules(&self) -> impl Iterator<Item = &Module> + '_ {
        let mut stack = vec![self];
        std::iter::from_fn(move || {
            let m = stack.pop()?;
            stack.extend(m.child_modules.iter().rev());
            Some(m)
        })
    }

    /// The resources of this module and of every module inside it, depth first.
    pub fn all_resources(&self) -> impl Iterator<Item = &Resource> + '_ {
        self.modules().flat_map(|m| m.resources.iter())
    }
}

impl Resource {
    /// The resource's schema in `schemas`, whose implied type types its values.
    ///
    /// ```
    /// use ctywire::schema::ProviderSchemas;
    /// use ctywire::tfjson::State;
    ///
    /// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/plan/schema.json")?)?;
    /// let state = State::from_json(&std::fs::read("examples/plan/state.json")?)?;
    /// let values = state.values.as_ref().unwrap();
    /// let resource = values.resources().find(|r| r.type_name == "aws_instance").unwrap();
    /// let schema = resource.schema(&schemas)?;
    /// let value = resource.typed_values(&schema.implied_type())?;
    /// assert!(value["ami"].as_str().is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn schema<'s>(&self, schemas: &'s ProviderSchemas) -> Result<&'s Schema> {
        self.find_schema(schemas).map(|found| found.schema)
    }

    /// [`schema`](Self::schema), with the provider taken and how the document's
    /// provider name led to it ([`ResourceMode::find_schema`]).
    pub fn find_schema<'s>(&self, schemas: &'s ProviderSchemas) -> Result<SchemaMatch<'s>> {
        self.mode
            .find_schema(schemas, &self.type_name, self.provider_name.as_deref())
    }

    /// The resource type's identity schema in `schemas`, which types `identity`.
    pub fn find_identity_schema<'s>(
        &self,
        schemas: &'s ProviderSchemas,
    ) -> Result<SchemaMatch<'s, IdentitySchema>> {
        schemas.find_identity(&self.type_name, self.provider_name.as_deref())
    }

    /// The identity, decoded with type `ty` (the identity schema's implied type);
    /// `Null` when the document has none.
    ///
    /// ```
    /// use ctywire::tfjson::State;
    ///
    /// let state = State::from_json(br#"{"values": {"root_module": {"resources": [{
    ///   "address": "corner_user.u", "mode": "managed", "type": "corner_user", "name": "u",
    ///   "values": {"email": "a@example.com"}, "identity_schema_version": 1,
    ///   "identity": {"email": "a@example.com"}
    /// }]}}}"#)?;
    /// let user = state.values.as_ref().unwrap().resource("corner_user.u").unwrap();
    /// let identity = user.typed_identity(&"object({email=string})".parse()?)?;
    /// assert_eq!(identity["email"].as_str(), Some("a@example.com"));
    /// assert_eq!(user.identity_schema_version, Some(1));
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn typed_identity(&self, ty: &Type) -> Result<Value> {
        super::plan::typed_identity(self.identity.as_ref(), ty)
    }

    /// The values, decoded with the resource type's type (a schema's implied type).
    /// `Null` when the document has no `values`. `sensitive_values` must fit them
    /// ([`check_sensitive_tree`](super::check_sensitive_tree)).
    pub fn typed_values(&self, ty: &Type) -> Result<Value> {
        let value = match &self.values {
            Some(v) => v.decode(ty)?,
            None => Value::Null,
        };
        checked(value, self.sensitive_values.as_ref(), ty)
    }

    /// The paths of the sensitive values, with steps of the kinds `ty` calls for.
    pub fn sensitive_paths(&self, ty: &Type) -> Vec<Path> {
        self.sensitive_values
            .as_ref()
            .map(|t| sensitive_paths(t, ty))
            .unwrap_or_default()
    }
}

impl Output {
    /// The value, decoded with the document's `type` when it has one, with the type its
    /// JSON implies otherwise, as a [`Value::Typed`] recording that type (a null is
    /// plain [`Value::Null`]); an unknown value when the document has no `value`.
    pub fn typed_value(&self) -> Result<Value> {
        let Some(value) = &self.value else {
            return Ok(Value::unknown());
        };
        match &self.ty {
            Some(ty) => {
                let v = value.decode(ty)?;
                Ok(if v.is_null() || *ty == Type::Dynamic {
                    v
                } else {
                    Value::typed(ty.clone(), v)
                })
            }
            None => value.decode_implied(),
        }
    }
}

pub(super) fn state(r: &mut Reader<'_>) -> Result<State> {
    let mut out = State::default();
    read::object(r, |k, r| {
        match k {
            "format_version" => out.format_version = Some(read::format_version(r)?),
            "terraform_version" => out.terraform_version = read::opt_string(r)?,
            "values" => {
                if r.peek_kind()? == Kind::Null {
                    r.read_null()?;
                } else {
                    out.values = Some(values(r)?);
                }
            }
            "checks" => out.checks = Some(read::raw(r)?),
            _ => r.skip_value()?,
        }
        Ok(())
    })?;
    Ok(out)
}

pub(super) fn values(r: &mut Reader<'_>) -> Result<Values> {
    let mut out = Values::default();
    read::object(r, |k, r| {
        match k {
            "outputs" => {
                if r.peek_kind()? == Kind::Null {
                    return r.read_null();
                }
                read::object(r, |name, r| {
                    out.outputs.insert(name.to_owned(), output(r)?);
                    Ok(())
                })?
            }
            "root_module" => out.root_module = module(r, 0)?,
            _ => r.skip_value()?,
        }
        Ok(())
    })?;
    Ok(out)
}

fn module(r: &mut Reader<'_>, depth: usize) -> Result<Module> {
    if depth > crate::limits::MAX_DEPTH {
        return Err(crate::limits::depth_exceeded("module").at_offset(r.offset()));
    }
    let mut out = Module::default();
    read::object(r, |k, r| {
        match k {
            "address" => out.address = read::opt_string(r)?.filter(|a| !a.is_empty()),
            "resources" => out.resources = read::list(r, resource)?,
            "child_modules" => out.child_modules = read::list(r, |r| module(r, depth + 1))?,
            _ => r.skip_value()?,
        }
        Ok(())
    })?;
    Ok(out)
}

fn resource(r: &mut Reader<'_>) -> Result<Resource> {
    let mut out = Resource {
        address: String::new(),
        mode: ResourceMode::Managed,
        type_name: String::new(),
        name: String::new(),
        index: None,
        provider_name: None,
        schema_version: None,
        values: None,
        sensitive_values: None,
        depends_on: Vec::new(),
        tainted: false,
        deposed_key: None,
        identity_schema_version: None,
        identity: None,
    };
    read::object(r, |k, r| {
        match k {
            "address" => out.address = read::string(r)?,
            "mode" => out.mode = ResourceMode::from_string(read::string(r)?),
            "type" => out.type_name = read::string(r)?,
            "name" => out.name = read::string(r)?,
            "index" => out.index = instance_key(r)?,
            "provider_name" => out.provider_name = read::opt_string(r)?,
            "schema_version" => out.schema_version = Some(read::uint(r)?),
            "values" => out.values = non_null(read::raw(r)?),
            "sensitive_values" => out.sensitive_values = Some(read::tree(r)?),
            "depends_on" => out.depends_on = read::strings(r)?,
            "tainted" => out.tainted = read::boolean(r)?,
            "deposed_key" => out.deposed_key = read::opt_string(r)?,
            "identity_schema_version" => {
                out.identity_schema_version = read::optional(r, read::uint)?
            }
            "identity" => out.identity = non_null(read::raw(r)?),
            _ => r.skip_value()?,
        }
        Ok(())
    })?;
    Ok(out)
}

/// `value`, once its sensitivity tree (if any) is found to fit it.
pub(super) fn checked(value: Value, sensitive: Option<&MarkTree>, ty: &Type) -> Result<Value> {
    if let Some(tree) = sensitive {
        super::check_sensitive_tree(tree, &value, ty)?;
    }
    Ok(value)
}

/// `None` for `null`.
pub(super) fn non_null(raw: RawJson) -> Option<RawJson> {
    (!raw.is_null()).then_some(raw)
}

/// An instance key: a number or a string (`null` is none).
pub(super) fn instance_key(r: &mut Reader<'_>) -> Result<Option<InstanceKey>> {
    let at = r.offset();
    Ok(match r.peek_kind()? {
        Kind::Null => {
            r.read_null()?;
            None
        }
        Kind::String => Some(InstanceKey::String(r.read_string()?.into_owned())),
        Kind::Number => {
            let text = r.read_number()?;
            Some(InstanceKey::Int(text.parse().map_err(|_| {
                Error::new(
                    ErrorKind::InvalidValue,
                    format!("expected an integer index, found {text}"),
                )
                .at_offset(at)
            })?))
        }
        kind => return Err(Error::mismatch("a number or a string", kind.described()).at_offset(at)),
    })
}

fn output(r: &mut Reader<'_>) -> Result<Output> {
    let mut out = Output::default();
    read::object(r, |k, r| {
        match k {
            "sensitive" => out.sensitive = read::boolean(r)?,
            "value" => out.value = Some(read::raw(r)?),
            "type" => {
                let at = r.offset();
                let raw = r.raw_value()?;
                out.ty = Some(Type::from_json_bytes(raw).map_err(|e| {
                    Error::new(e.kind(), format!("invalid type: {}", e.message())).at_offset(at)
                })?);
            }
            _ => r.skip_value()?,
        }
        Ok(())
    })?;
    Ok(out)
}

//! Terraform's state file (`terraform.tfstate`, format version 4): what Terraform
//! 0.12 and later (and OpenTofu) write to disk and to remote backends.

use std::collections::BTreeMap;

use crate::address::InstanceKey;
use crate::error::{Error, ErrorKind, Result};
use crate::path::{Path, PathStep};
use crate::schema::{IdentitySchema, ProviderSchemas, Schema, SchemaMatch};
use crate::token::json_read::{Kind, Reader};
use crate::types::Type;
use crate::value::Value;

use super::read;
use super::state::{instance_key, non_null};
use super::{RawJson, ResourceMode};

/// A state file as Terraform writes it (`terraform.tfstate`, `terraform state pull`):
/// format version 4, which Terraform 0.12 and later and OpenTofu write.
///
/// Unlike `terraform show -json` ([`State`](super::State)), a state file keeps each
/// resource instance's attributes as cty JSON of the resource type's schema at the
/// instance's `schema_version` (`dynamic` attributes wrapped as `{"value":…,"type":…}`),
/// or, for an object not rewritten since Terraform 0.11, as a legacy flatmap
/// (`attributes_flat`, read by [`flatmap`](crate::flatmap)); the sensitive paths are a
/// list of paths, not a tree; and it holds what `show -json` leaves out: the `private`
/// data providers keep, `serial` and `lineage`.
///
/// ```
/// use ctywire::schema::ProviderSchemas;
/// use ctywire::tfjson::StateFile;
///
/// let state = StateFile::from_json(br#"{
///   "version": 4, "terraform_version": "1.15.5", "serial": 3,
///   "lineage": "8d3c1b0e-0000-4000-8000-000000000001",
///   "outputs": {"size": {"value": 100000000000000000000.5, "type": "number"}},
///   "resources": [{
///     "mode": "managed", "type": "cloud_disk", "name": "data",
///     "provider": "provider[\"registry.terraform.io/example/cloud\"]",
///     "instances": [{
///       "index_key": 0, "schema_version": 0,
///       "attributes": {"id": "d-1", "size": 100000000000000000000.5, "key": "k"},
///       "sensitive_attributes": [[{"type": "get_attr", "value": "key"}]]
///     }]
///   }]
/// }"#)?;
/// let (address, instance) = state.instances().next().unwrap();
/// assert_eq!(address, "cloud_disk.data[0]");
/// let value = instance.typed_attributes(&"object({id=string, size=number, key=string})".parse()?)?;
/// assert_eq!(value["size"].as_number().unwrap().to_string(), "100000000000000000000.5");
/// assert_eq!(instance.sensitive_attributes[0].to_string(), ".key");
/// assert_eq!(state.outputs["size"].typed_value()?.as_number().unwrap().to_string(), "100000000000000000000.5");
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct StateFile {
    /// The format version: 4.
    pub version: u64,
    /// The version of Terraform (or OpenTofu) that wrote the file.
    pub terraform_version: Option<String>,
    /// `serial`: incremented on each write.
    pub serial: Option<u64>,
    /// `lineage`: the unique id of this state's history.
    pub lineage: Option<String>,
    /// The root module's output values, by name.
    pub outputs: BTreeMap<String, StateOutput>,
    /// The resources, each with its instances.
    pub resources: Vec<StateResource>,
    /// `check_results`, as written.
    pub check_results: Option<RawJson>,
}

/// An output value in a state file.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct StateOutput {
    /// The value, as JSON of `ty`.
    pub value: RawJson,
    /// The value's type.
    pub ty: Type,
    /// Whether the output is sensitive (its value is still written).
    pub sensitive: bool,
}

/// A resource in a state file, with its instances.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct StateResource {
    /// The module that holds it (`module.network`, `module.apps["api"]`); `None` for
    /// the root module.
    pub module: Option<String>,
    /// `managed` or `data`.
    pub mode: ResourceMode,
    /// The resource type (the file's `type`).
    pub type_name: String,
    /// The resource name.
    pub name: String,
    /// The provider configuration's address, e.g.
    /// `provider["registry.terraform.io/hashicorp/aws"].west`.
    pub provider: String,
    /// `each`: `list` or `map` in files of Terraform 0.12 (later versions leave it out).
    pub each: Option<String>,
    /// The instances.
    pub instances: Vec<Instance>,
}

/// One object of a resource instance in a state file: the current object, or a deposed
/// one.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Instance {
    /// The instance key: a number under `count`, a string under `for_each`.
    pub index_key: Option<InstanceKey>,
    /// For a deposed object, its key (`deposed`).
    pub deposed: Option<String>,
    /// `status`: `tainted`, or `None` for a ready object.
    pub status: Option<String>,
    /// The version of the resource type's schema the attributes conform to.
    pub schema_version: u64,
    /// The attributes as cty JSON (`attributes`).
    pub attributes: Option<RawJson>,
    /// The attributes as a legacy flatmap (`attributes_flat`): keys in their order.
    pub attributes_flat: Option<BTreeMap<String, String>>,
    /// The paths of the sensitive values (`sensitive_attributes`).
    pub sensitive_attributes: Vec<Path>,
    /// The version of the identity schema `identity` conforms to.
    pub identity_schema_version: Option<u64>,
    /// The object's identity (Terraform 1.12) as cty JSON.
    pub identity: Option<RawJson>,
    /// The provider's private data, base64 as written (`private`); see
    /// [`private_bytes`](Self::private_bytes).
    pub private: Option<String>,
    /// `dependencies`: the absolute addresses of the resources this object depends on.
    pub dependencies: Vec<String>,
    /// `create_before_destroy`.
    pub create_before_destroy: bool,
}

impl StateFile {
    /// Reads a state file. Any `version` other than 4 is an error (Terraform 0.11's
    /// version 3 is upgraded by Terraform, not read here), as is a document that is not
    /// a state file at all (an object without `version`: `terraform show -json` output
    /// is read by [`State`](super::State)).
    pub fn from_json(input: &[u8]) -> Result<StateFile> {
        read::document(input, state_file)
    }

    /// Every resource instance object with its absolute address
    /// (`module.network.aws_subnet.private["a"]`, `data.aws_ami.ubuntu`), in the file's
    /// order; deposed objects come with their instance's address.
    pub fn instances(&self) -> impl Iterator<Item = (String, &Instance)> + '_ {
        self.resources
            .iter()
            .flat_map(|r| r.instances.iter().map(move |i| (r.instance_address(i), i)))
    }

    /// The resource and current (not deposed) object of the instance at `address`.
    pub fn instance(&self, address: &str) -> Option<(&StateResource, &Instance)> {
        self.object(address, None)
    }

    /// The resource and object at `address`: the current one, or the deposed one with
    /// key `deposed`.
    pub fn object(
        &self,
        address: &str,
        deposed: Option<&str>,
    ) -> Option<(&StateResource, &Instance)> {
        self.resources.iter().find_map(|r| {
            r.instances
                .iter()
                .find(|i| i.deposed.as_deref() == deposed && r.instance_address(i) == address)
                .map(|i| (r, i))
        })
    }
}

impl std::str::FromStr for StateFile {
    type Err = Error;

    fn from_str(s: &str) -> Result<StateFile> {
        StateFile::from_json(s.as_bytes())
    }
}

impl StateResource {
    /// The resource's address without an instance key: `module.m.data.aws_ami.ubuntu`.
    pub fn address(&self) -> String {
        let mut out = String::new();
        if let Some(module) = &self.module {
            out.push_str(module);
            out.push('.');
        }
        if self.mode == ResourceMode::Data {
            out.push_str("data.");
        }
        out.push_str(&self.type_name);
        out.push('.');
        out.push_str(&self.name);
        out
    }

    /// The address of `instance`, one of this resource's.
    pub fn instance_address(&self, instance: &Instance) -> String {
        let mut out = self.address();
        if let Some(key) = &instance.index_key {
            out.push_str(&key.to_string());
        }
        out
    }

    /// The provider's source address, from the provider configuration's address:
    /// `registry.terraform.io/hashicorp/aws` from
    /// `module.m.provider["registry.terraform.io/hashicorp/aws"].west`, and Terraform
    /// 0.12's `aws` from `provider.aws.west`.
    pub fn provider_source(&self) -> Option<&str> {
        let p = self.provider.as_str();
        if let Some(start) = p.find("provider[\"") {
            let rest = &p[start + "provider[\"".len()..];
            return rest.find("\"]").map(|end| &rest[..end]);
        }
        let start = p.find("provider.")?;
        let rest = &p[start + "provider.".len()..];
        Some(rest.split('.').next().unwrap_or(rest))
    }

    /// The resource's schema in `schemas` (a data source's for `data`), with the
    /// provider taken and how the file's provider led to it
    /// ([`ResourceMode::find_schema`]).
    pub fn find_schema<'s>(&self, schemas: &'s ProviderSchemas) -> Result<SchemaMatch<'s>> {
        self.mode
            .find_schema(schemas, &self.type_name, self.provider_source())
    }

    /// The resource type's identity schema in `schemas`, which types `identity`.
    pub fn find_identity_schema<'s>(
        &self,
        schemas: &'s ProviderSchemas,
    ) -> Result<SchemaMatch<'s, IdentitySchema>> {
        schemas.find_identity(&self.type_name, self.provider_source())
    }
}

impl Instance {
    /// The attributes decoded with `ty` (the implied type of the resource type's
    /// schema): `attributes` as cty JSON, or `attributes_flat` by the flatmap rules
    /// ([`flatmap::decode`](crate::flatmap::decode)); `Null` when the file has neither.
    /// Every sensitive path must lead to a value.
    pub fn typed_attributes(&self, ty: &Type) -> Result<Value> {
        let value = match (&self.attributes, &self.attributes_flat) {
            (Some(json), _) => crate::json::decode(json.as_str().as_bytes(), ty)?,
            (None, Some(flat)) => {
                let sorted: BTreeMap<&str, &str> =
                    flat.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
                crate::flatmap::decode_sorted(&sorted, ty)?
            }
            (None, None) => Value::Null,
        };
        if !value.is_null() {
            for path in self.sensitive_paths(ty) {
                if value.at_path(&path).is_none() {
                    return Err(Error::new(
                        ErrorKind::InvalidValue,
                        format!("sensitive_attributes names {path}, which the value does not have"),
                    ));
                }
            }
        }
        Ok(value)
    }

    /// The attributes decoded with `schema`'s implied type. An object whose
    /// `schema_version` is not the schema's is refused, as `terraform show` refuses it:
    /// its attributes follow an older schema until the provider upgrades them (which a
    /// plan or `terraform apply -refresh-only` has it do).
    pub fn typed_attributes_with(&self, schema: &Schema) -> Result<Value> {
        if self.schema_version != schema.version {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                format!(
                    "the object is at schema version {} and the schema at {}: the provider \
                     upgrades it first (a plan, or terraform apply -refresh-only, does)",
                    self.schema_version, schema.version
                ),
            ));
        }
        self.typed_attributes(&schema.implied_type())
    }

    /// The sensitive paths, with steps of the kinds `ty` calls for (a map's keys as
    /// keys, a set's elements by value where the file says so).
    pub fn sensitive_paths(&self, ty: &Type) -> Vec<Path> {
        self.sensitive_attributes
            .iter()
            .map(|p| p.resolve(ty))
            .collect()
    }

    /// The identity decoded with `ty` (the identity schema's implied type); `Null` when
    /// the file has none.
    pub fn typed_identity(&self, ty: &Type) -> Result<Value> {
        match &self.identity {
            Some(json) => crate::json::decode(json.as_str().as_bytes(), ty),
            None => Ok(Value::Null),
        }
    }

    /// The private data's bytes (base64 decoded); `None` when there is none.
    pub fn private_bytes(&self) -> Result<Option<Vec<u8>>> {
        self.private
            .as_deref()
            .map(|text| {
                decode_base64(text).ok_or_else(|| {
                    Error::new(ErrorKind::InvalidValue, "private is not base64")
                        .in_attribute("private")
                })
            })
            .transpose()
    }

    /// Whether the object is tainted.
    pub fn is_tainted(&self) -> bool {
        self.status.as_deref() == Some("tainted")
    }
}

impl StateOutput {
    /// The value, decoded with its type; a [`Value::Typed`] recording the type unless
    /// null or of type `dynamic`.
    pub fn typed_value(&self) -> Result<Value> {
        let v = crate::json::decode(self.value.as_str().as_bytes(), &self.ty)?;
        Ok(if v.is_null() || self.ty == Type::Dynamic {
            v
        } else {
            Value::typed(self.ty.clone(), v)
        })
    }
}

/// Standard base64 (padding optional).
fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let chars = text.trim_end_matches('=').as_bytes();
    if chars.len() % 4 == 1 {
        return None;
    }
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(chars.len() * 3 / 4);
    for chunk in chars.chunks(4) {
        let mut bits = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            bits |= u32::from(value(c)?) << (18 - 6 * i);
        }
        out.extend_from_slice(&bits.to_be_bytes()[1..chunk.len()]);
    }
    Some(out)
}

fn state_file(r: &mut Reader<'_>) -> Result<StateFile> {
    let mut out = StateFile::default();
    let mut version = None;
    let at = r.offset();
    read::object(r, |k, r| {
        match k {
            "version" => {
                let at = r.offset();
                let v = read::uint(r)?;
                if v != 4 {
                    let why = if v < 4 {
                        "Terraform 0.12 and later upgrade it when they next write it"
                    } else {
                        "a later format than this crate reads"
                    };
                    return Err(Error::new(
                        ErrorKind::InvalidValue,
                        format!(
                            "state file format version {v}: this crate reads version 4 ({why})"
                        ),
                    )
                    .at_offset(at));
                }
                version = Some(v);
            }
            "terraform_version" => out.terraform_version = read::opt_string(r)?,
            "serial" => out.serial = read::optional(r, read::uint)?,
            "lineage" => out.lineage = read::opt_string(r)?,
            "outputs" => {
                if r.peek_kind()? == Kind::Null {
                    return r.read_null();
                }
                read::object(r, |name, r| {
                    out.outputs.insert(name.to_owned(), output(r)?);
                    Ok(())
                })?
            }
            "resources" => out.resources = read::list(r, resource)?,
            "check_results" => out.check_results = non_null(read::raw(r)?),
            _ => r.skip_value()?,
        }
        Ok(())
    })?;
    out.version = version.ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidValue,
            "not a state file: it has no \"version\"",
        )
        .at_offset(at)
    })?;
    Ok(out)
}

fn output(r: &mut Reader<'_>) -> Result<StateOutput> {
    let mut value = None;
    let mut ty = None;
    let mut sensitive = false;
    let at = r.offset();
    read::object(r, |k, r| {
        match k {
            "value" => value = Some(read::raw(r)?),
            "type" => {
                let at = r.offset();
                let raw = r.raw_value()?;
                ty = Some(Type::from_json_bytes(raw).map_err(|e| {
                    Error::new(e.kind(), format!("invalid type: {}", e.message())).at_offset(at)
                })?);
            }
            "sensitive" => sensitive = read::boolean(r)?,
            _ => r.skip_value()?,
        }
        Ok(())
    })?;
    let missing = |what: &str| {
        Error::new(
            ErrorKind::InvalidValue,
            format!("an output needs \"{what}\""),
        )
        .at_offset(at)
    };
    Ok(StateOutput {
        value: value.ok_or_else(|| missing("value"))?,
        ty: ty.ok_or_else(|| missing("type"))?,
        sensitive,
    })
}

fn resource(r: &mut Reader<'_>) -> Result<StateResource> {
    let mut out = StateResource {
        module: None,
        mode: ResourceMode::Managed,
        type_name: String::new(),
        name: String::new(),
        provider: String::new(),
        each: None,
        instances: Vec::new(),
    };
    read::object(r, |k, r| {
        match k {
            "module" => out.module = read::opt_string(r)?.filter(|m| !m.is_empty()),
            "mode" => out.mode = ResourceMode::from_string(read::string(r)?),
            "type" => out.type_name = read::string(r)?,
            "name" => out.name = read::string(r)?,
            "provider" => out.provider = read::string(r)?,
            "each" => out.each = read::opt_string(r)?,
            "instances" => out.instances = read::list(r, instance)?,
            _ => r.skip_value()?,
        }
        Ok(())
    })?;
    Ok(out)
}

fn instance(r: &mut Reader<'_>) -> Result<Instance> {
    let mut out = Instance {
        index_key: None,
        deposed: None,
        status: None,
        schema_version: 0,
        attributes: None,
        attributes_flat: None,
        sensitive_attributes: Vec::new(),
        identity_schema_version: None,
        identity: None,
        private: None,
        dependencies: Vec::new(),
        create_before_destroy: false,
    };
    read::object(r, |k, r| {
        match k {
            "index_key" => out.index_key = instance_key(r)?,
            "deposed" => out.deposed = read::opt_string(r)?.filter(|d| !d.is_empty()),
            "status" => out.status = read::opt_string(r)?.filter(|s| !s.is_empty()),
            "schema_version" => out.schema_version = read::uint(r)?,
            "attributes" => out.attributes = non_null(read::raw(r)?),
            "attributes_flat" => {
                if r.peek_kind()? == Kind::Null {
                    return r.read_null();
                }
                let mut flat = BTreeMap::new();
                read::object(r, |key, r| {
                    flat.insert(key.to_owned(), read::string(r)?);
                    Ok(())
                })?;
                out.attributes_flat = Some(flat);
            }
            "sensitive_attributes" => out.sensitive_attributes = read::list(r, cty_path)?,
            "identity_schema_version" => {
                out.identity_schema_version = read::optional(r, read::uint)?
            }
            "identity" => out.identity = non_null(read::raw(r)?),
            "private" => out.private = read::opt_string(r)?.filter(|p| !p.is_empty()),
            "dependencies" => out.dependencies = read::strings(r)?,
            "create_before_destroy" => out.create_before_destroy = read::boolean(r)?,
            _ => r.skip_value()?,
        }
        Ok(())
    })?;
    Ok(out)
}

/// A path as cty's JSON writes it: an array of steps, `{"type":"get_attr","value":NAME}`
/// or `{"type":"index","value":{"value":KEY,"type":TYPE}}` (a number is a list or tuple
/// index, a string a map key, anything else a set element).
fn cty_path(r: &mut Reader<'_>) -> Result<Path> {
    let steps = read::list(r, |r| {
        let at = r.offset();
        let (mut kind, mut value) = (None, None);
        read::object(r, |k, r| {
            match k {
                "type" => kind = Some(read::string(r)?),
                "value" => value = Some(read::raw(r)?),
                _ => r.skip_value()?,
            }
            Ok(())
        })?;
        let bad = |m: String| Error::new(ErrorKind::InvalidValue, m).at_offset(at);
        let value = value.ok_or_else(|| bad("a path step needs \"value\"".into()))?;
        match kind.as_deref() {
            Some("get_attr") => {
                let name = value.decode(&Type::String)?;
                Ok(PathStep::Attribute(
                    name.as_str().unwrap_or_default().to_owned(),
                ))
            }
            Some("index") => {
                let key = crate::json::decode(value.as_str().as_bytes(), &Type::Dynamic)?;
                let key = match key {
                    Value::Typed(typed) => typed.value,
                    other => other,
                };
                match &key {
                    Value::String(s) => Ok(PathStep::Key(s.to_string())),
                    Value::Number(n) => n
                        .to_u64()
                        .map(PathStep::Index)
                        .ok_or_else(|| bad(format!("invalid index {n} in a path"))),
                    _ => Ok(PathStep::SetElement(key)),
                }
            }
            other => Err(bad(format!(
                "a path step's type is get_attr or index, not {}",
                other.unwrap_or("missing")
            ))),
        }
    })?;
    Ok(Path::from(steps))
}

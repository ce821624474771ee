//! Addresses of the blocks a configuration value is asked for.

use std::fmt;
use std::str::FromStr;

use super::syntax::is_identifier;
pub use crate::address::InstanceKey;
use crate::error::{Error, ErrorKind};
use crate::schema::{ProviderSchemas, Schema};
use crate::text::go_quote;

/// A resource, data source or provider block: what [`Config::value`](super::Config::value)
/// decodes.
///
/// Written as Terraform writes them: `TYPE.NAME` for a managed resource,
/// `data.TYPE.NAME` for a data source, each with an optional instance key (`[0]` under
/// `count`, `["a"]` under `for_each`), and `provider.NAME` or `provider.NAME.ALIAS`.
///
/// ```
/// use ctywire::config::{Address, InstanceKey};
///
/// let a: Address = r#"cloud_instance.web["blue"]"#.parse()?;
/// assert_eq!(a, Address::Resource {
///     type_name: "cloud_instance".into(),
///     name: "web".into(),
///     key: Some(InstanceKey::String("blue".into())),
/// });
/// assert_eq!(a.to_string(), r#"cloud_instance.web["blue"]"#);
/// assert_eq!("provider.cloud.west".parse::<Address>()?.to_string(), "provider.cloud.west");
/// assert!("cloud_instance".parse::<Address>().is_err());
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Address {
    /// A `resource` block (or one of its instances).
    Resource {
        /// The resource type.
        type_name: String,
        /// The resource name.
        name: String,
        /// The instance key, under `count` or `for_each`.
        key: Option<InstanceKey>,
    },
    /// A `data` block (or one of its instances).
    DataSource {
        /// The data source type.
        type_name: String,
        /// The data resource name.
        name: String,
        /// The instance key, under `count` or `for_each`.
        key: Option<InstanceKey>,
    },
    /// A `provider` block.
    Provider {
        /// The provider's local name.
        name: String,
        /// The configuration's alias, if it has one.
        alias: Option<String>,
    },
}

impl Address {
    /// The schema of this block in `schemas`: its resource type's, its data source's or
    /// its provider's.
    ///
    /// Fails with [`ErrorKind::NotFound`] when `schemas` has none of that name (see
    /// [`ProviderSchemas::resource`]).
    ///
    /// ```
    /// use ctywire::config::Address;
    /// use ctywire::schema::ProviderSchemas;
    ///
    /// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
    /// let address: Address = "data.cloud_image.debian".parse()?;
    /// let schema = address.schema(&schemas)?;
    /// assert!(schema.block.attributes.contains_key("name_regex"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn schema<'s>(&self, schemas: &'s ProviderSchemas) -> Result<&'s Schema, Error> {
        match self {
            Address::Resource { type_name, .. } => schemas.resource(type_name),
            Address::DataSource { type_name, .. } => schemas.data_source(type_name),
            Address::Provider { name, .. } => schemas.provider(name),
        }
    }

    /// Terraform's summary of the diagnostic for a block whose schema is not there.
    pub(super) fn no_schema_summary(&self) -> &'static str {
        match self {
            Address::Resource { .. } => "Invalid resource type",
            Address::DataSource { .. } => "Invalid data source",
            Address::Provider { .. } => "Invalid provider",
        }
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Address::Resource {
                type_name, name, ..
            } => write!(f, "{type_name}.{name}")?,
            Address::DataSource {
                type_name, name, ..
            } => write!(f, "data.{type_name}.{name}")?,
            Address::Provider { name, alias } => {
                write!(f, "provider.{name}")?;
                if let Some(alias) = alias {
                    write!(f, ".{alias}")?;
                }
            }
        }
        match self {
            Address::Resource { key: Some(k), .. } | Address::DataSource { key: Some(k), .. } => {
                write!(f, "{k}")
            }
            _ => Ok(()),
        }
    }
}

impl FromStr for Address {
    type Err = Error;

    fn from_str(text: &str) -> Result<Address, Error> {
        let bad = |what: &str| {
            Error::new(
                ErrorKind::Syntax,
                format!(
                    "expected an address like TYPE.NAME, data.TYPE.NAME or provider.NAME[.ALIAS], {what}"
                ),
            )
        };
        let (names, key) = match text.find('[') {
            Some(open) => (&text[..open], Some(instance_key(&text[open..])?)),
            None => (text, None),
        };
        let parts: Vec<&str> = names.split('.').collect();
        if let Some(bad_part) = parts.iter().find(|p| !is_identifier(p)) {
            return Err(bad(&format!(
                "found {} in {}",
                go_quote(bad_part),
                go_quote(text)
            )));
        }
        match parts.as_slice() {
            ["provider", name] if key.is_none() => Ok(Address::Provider {
                name: (*name).to_owned(),
                alias: None,
            }),
            ["provider", name, alias] if key.is_none() => Ok(Address::Provider {
                name: (*name).to_owned(),
                alias: Some((*alias).to_owned()),
            }),
            ["provider", ..] => Err(bad(&format!("found {}", go_quote(text)))),
            ["data", type_name, name] => Ok(Address::DataSource {
                type_name: (*type_name).to_owned(),
                name: (*name).to_owned(),
                key,
            }),
            [type_name, name] if *type_name != "data" => Ok(Address::Resource {
                type_name: (*type_name).to_owned(),
                name: (*name).to_owned(),
                key,
            }),
            _ => Err(bad(&format!("found {}", go_quote(text)))),
        }
    }
}

/// An instance key, `[N]` or `["KEY"]` (a JSON string), and nothing after it.
fn instance_key(text: &str) -> Result<InstanceKey, Error> {
    let bad = || {
        Error::new(
            ErrorKind::Syntax,
            format!(
                "expected an instance key like [0] or [\"key\"], found {}",
                go_quote(text)
            ),
        )
    };
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(bad)?;
    if inner.starts_with('"') {
        let mut r = crate::token::json_read::Reader::new(inner.as_bytes());
        let key = r.read_string().map_err(|_| bad())?.into_owned();
        r.finish().map_err(|_| bad())?;
        return Ok(InstanceKey::String(key));
    }
    if !inner.is_empty() && inner.bytes().all(|b| b.is_ascii_digit()) {
        return inner.parse().map(InstanceKey::Int).map_err(|_| bad());
    }
    Err(bad())
}

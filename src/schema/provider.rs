//! A whole `providers schema -json` document, and looking schemas up by name.

use std::collections::BTreeMap;

use super::Schema;
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

/// One provider's schemas.
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
}

/// What kind of schema a lookup is after.
#[derive(Clone, Copy)]
enum Kind {
    Resource,
    DataSource,
}

impl Kind {
    fn noun(self) -> &'static str {
        match self {
            Kind::Resource => "resource type",
            Kind::DataSource => "data source",
        }
    }

    fn schemas(self, provider: &ProviderSchema) -> &BTreeMap<String, Schema> {
        match self {
            Kind::Resource => &provider.resource_schemas,
            Kind::DataSource => &provider.data_source_schemas,
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
        self.lookup(Kind::Resource, name)
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
        self.lookup(Kind::DataSource, name)
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
            [] => Err(not_found(format!(
                "no provider {name:?} in the schemas; {}",
                listing("providers", self.providers.keys())
            ))),
            many => Err(not_found(format!(
                "provider name {name:?} matches {} providers ({}); give the full address",
                many.len(),
                join(many.iter().map(|(a, _)| *a))
            ))),
        }
    }

    fn lookup(&self, kind: Kind, name: &str) -> Result<&Schema> {
        if let Some((provider, short)) = name.split_once(':') {
            let (address, p) = self.find_provider(provider)?;
            return kind.schemas(p).get(short).ok_or_else(|| {
                not_found(format!(
                    "provider {address} has no {} {short:?}; {}",
                    kind.noun(),
                    suggestions(kind.noun(), short, kind.schemas(p).keys())
                ))
            });
        }
        let found: Vec<(&str, &Schema)> = self
            .providers
            .iter()
            .filter_map(|(address, p)| kind.schemas(p).get(name).map(|s| (address.as_str(), s)))
            .collect();
        match found.as_slice() {
            [(_, schema)] => Ok(schema),
            [] => {
                let all = self.providers.values().flat_map(|p| kind.schemas(p).keys());
                Err(not_found(format!(
                    "no {} {name:?} in the schemas; {}",
                    kind.noun(),
                    suggestions(kind.noun(), name, all)
                )))
            }
            many => Err(not_found(format!(
                "{} {name:?} is defined by {} providers ({}); name one as \"PROVIDER:{name}\"",
                kind.noun(),
                many.len(),
                join(many.iter().map(|(a, _)| *a))
            ))),
        }
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

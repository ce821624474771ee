//! Schemas written as `terraform providers schema -json` writes them, so a provider that
//! declares its schema with this crate can hand the same document to the tool (and
//! [`ProviderSchemas::from_json`] reads it back unchanged).

use std::collections::BTreeMap;

use serde_json::{json, Map, Value as Json};

use super::{
    Attribute, Block, DescriptionKind, Function, IdentitySchema, NestedBlock, NestedType,
    Parameter, ProviderSchema, ProviderSchemas, Schema,
};
use crate::types::Type;

impl ProviderSchemas {
    /// The document `terraform providers schema -json` prints for these schemas
    /// (`format_version` `1.0` when none is set), as compact JSON.
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block, ProviderSchema, ProviderSchemas, Schema};
    /// use ctywire::Type;
    ///
    /// let mut provider = ProviderSchema::default();
    /// let thing = Block::new().attribute("name", Attribute::new(Type::String).required());
    /// provider.resource_schemas.insert("demo_thing".into(), Schema::new(thing).version(1));
    /// let mut schemas = ProviderSchemas::default();
    /// schemas.providers.insert("example.com/ctywire/demo".into(), provider);
    ///
    /// let json = schemas.to_json();
    /// assert!(json.starts_with(br#"{"format_version":"1.0","provider_schemas":{"example.com/ctywire/demo":"#));
    /// let mut read = ProviderSchemas::from_json(&json)?;
    /// read.format_version.clear();
    /// assert_eq!(read, schemas);
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn to_json(&self) -> Vec<u8> {
        let version = if self.format_version.is_empty() {
            "1.0"
        } else {
            &self.format_version
        };
        let providers: Map<String, Json> = self
            .providers
            .iter()
            .map(|(k, p)| (k.clone(), provider(p)))
            .collect();
        let doc = json!({"format_version": version, "provider_schemas": providers});
        serde_json::to_vec(&doc).expect("a JSON value always serializes")
    }
}

fn provider(p: &ProviderSchema) -> Json {
    let mut out = Map::new();
    out.insert("provider".into(), schema(&p.provider));
    let sections = [
        ("resource_schemas", &p.resource_schemas),
        ("data_source_schemas", &p.data_source_schemas),
        ("ephemeral_resource_schemas", &p.ephemeral_resource_schemas),
        ("list_resource_schemas", &p.list_resource_schemas),
        ("action_schemas", &p.action_schemas),
        ("state_store_schemas", &p.state_store_schemas),
    ];
    for (key, schemas) in sections {
        if !schemas.is_empty() {
            out.insert(key.into(), entries(schemas, schema));
        }
    }
    if !p.resource_identity_schemas.is_empty() {
        out.insert(
            "resource_identity_schemas".into(),
            entries(&p.resource_identity_schemas, identity),
        );
    }
    if !p.functions.is_empty() {
        out.insert("functions".into(), entries(&p.functions, function));
    }
    Json::Object(out)
}

fn entries<T>(items: &BTreeMap<String, T>, write: impl Fn(&T) -> Json) -> Json {
    Json::Object(items.iter().map(|(k, v)| (k.clone(), write(v))).collect())
}

fn schema(s: &Schema) -> Json {
    json!({"version": s.version, "block": block(&s.block)})
}

fn block(b: &Block) -> Json {
    let mut out = Map::new();
    if !b.attributes.is_empty() {
        out.insert("attributes".into(), entries(&b.attributes, attribute));
    }
    if !b.block_types.is_empty() {
        out.insert("block_types".into(), entries(&b.block_types, nested_block));
    }
    describe(&mut out, &b.description, b.description_kind);
    flag(&mut out, "deprecated", b.deprecated);
    text(&mut out, "deprecation_message", &b.deprecation_message);
    Json::Object(out)
}

fn attribute(a: &Attribute) -> Json {
    let mut out = Map::new();
    if let Some(ty) = &a.ty {
        out.insert("type".into(), type_json(ty));
    }
    if let Some(nested) = &a.nested_type {
        out.insert("nested_type".into(), nested_type(nested));
    }
    describe(&mut out, &a.description, a.description_kind);
    flag(&mut out, "required", a.required);
    flag(&mut out, "optional", a.optional);
    flag(&mut out, "computed", a.computed);
    flag(&mut out, "sensitive", a.sensitive);
    flag(&mut out, "write_only", a.write_only);
    flag(&mut out, "deprecated", a.deprecated);
    text(&mut out, "deprecation_message", &a.deprecation_message);
    Json::Object(out)
}

fn nested_type(n: &NestedType) -> Json {
    let mut out = Map::new();
    out.insert("attributes".into(), entries(&n.attributes, attribute));
    out.insert("nesting_mode".into(), n.nesting.as_str().into());
    count(&mut out, "min_items", n.min_items);
    count(&mut out, "max_items", n.max_items);
    Json::Object(out)
}

fn nested_block(n: &NestedBlock) -> Json {
    let mut out = Map::new();
    out.insert("nesting_mode".into(), n.nesting.as_str().into());
    out.insert("block".into(), block(&n.block));
    count(&mut out, "min_items", n.min_items);
    count(&mut out, "max_items", n.max_items);
    Json::Object(out)
}

fn identity(s: &IdentitySchema) -> Json {
    let attributes: Map<String, Json> = s
        .attributes
        .iter()
        .map(|(name, a)| {
            let mut out = Map::new();
            out.insert("type".into(), type_json(&a.ty));
            text(&mut out, "description", &a.description);
            flag(&mut out, "required_for_import", a.required_for_import);
            flag(&mut out, "optional_for_import", a.optional_for_import);
            (name.clone(), Json::Object(out))
        })
        .collect();
    json!({"version": s.version, "attributes": attributes})
}

fn function(f: &Function) -> Json {
    let mut out = Map::new();
    text(&mut out, "summary", &f.summary);
    describe(&mut out, &f.description, f.description_kind);
    text(&mut out, "deprecation_message", &f.deprecation_message);
    out.insert("return_type".into(), type_json(&f.return_type));
    if !f.parameters.is_empty() {
        out.insert(
            "parameters".into(),
            f.parameters.iter().map(parameter).collect(),
        );
    }
    if let Some(p) = &f.variadic_parameter {
        out.insert("variadic_parameter".into(), parameter(p));
    }
    Json::Object(out)
}

fn parameter(p: &Parameter) -> Json {
    let mut out = Map::new();
    out.insert("name".into(), p.name.clone().into());
    out.insert("type".into(), type_json(&p.ty));
    describe(&mut out, &p.description, p.description_kind);
    flag(&mut out, "is_nullable", p.is_nullable);
    Json::Object(out)
}

fn type_json(ty: &Type) -> Json {
    serde_json::from_str(&ty.to_json()).expect("type JSON is JSON")
}

/// A description and its kind, as Terraform writes them: both only when there is one.
fn describe(out: &mut Map<String, Json>, description: &str, kind: DescriptionKind) {
    if !description.is_empty() {
        out.insert("description".into(), description.into());
        let kind = match kind {
            DescriptionKind::Plain => "plain",
            DescriptionKind::Markdown => "markdown",
        };
        out.insert("description_kind".into(), kind.into());
    }
}

fn flag(out: &mut Map<String, Json>, key: &str, set: bool) {
    if set {
        out.insert(key.into(), true.into());
    }
}

fn text(out: &mut Map<String, Json>, key: &str, value: &str) {
    if !value.is_empty() {
        out.insert(key.into(), value.into());
    }
}

fn count(out: &mut Map<String, Json>, key: &str, n: u64) {
    if n != 0 {
        out.insert(key.into(), n.into());
    }
}

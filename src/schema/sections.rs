//! The parts of a provider's schemas that are not blocks: resource identity schemas and
//! function signatures.

use std::collections::BTreeMap;

use super::DescriptionKind;
use crate::types::Type;

/// The schema of a managed resource type's identity (`resource_identity_schemas`): the
/// attributes that identify an object of the type to the provider, e.g. for import.
///
/// ```
/// use ctywire::schema::ProviderSchemas;
///
/// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
/// let identity = schemas.resource_identity("cloud_instance")?;
/// assert_eq!(identity.implied_type().to_expr(), "object({id=string,region=string})");
/// assert!(identity.attributes["id"].required_for_import);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IdentitySchema {
    /// The identity schema's version (providers use it to upgrade stored identities).
    pub version: u64,
    /// The attributes, by name.
    pub attributes: BTreeMap<String, IdentityAttribute>,
}

/// One attribute of an [`IdentitySchema`].
///
/// ```
/// use ctywire::schema::ProviderSchemas;
/// use ctywire::Type;
///
/// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
/// let identity = schemas.resource_identity("cloud_instance")?;
/// let id = &identity.attributes["id"];
/// assert_eq!(id.ty, Type::String);
/// assert!(id.required_for_import && !id.optional_for_import);
/// assert!(identity.attributes["region"].optional_for_import);
///
/// // What an `import` block's `identity` must give.
/// let required: Vec<&str> = identity.attributes.iter()
///     .filter(|(_, a)| a.required_for_import)
///     .map(|(name, _)| name.as_str())
///     .collect();
/// assert_eq!(required, ["id"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct IdentityAttribute {
    /// The attribute's type; `dynamic` when the schema gives none.
    pub ty: Type,
    /// The description (empty when there is none).
    pub description: String,
    /// Import must give the attribute.
    pub required_for_import: bool,
    /// Import may give the attribute.
    pub optional_for_import: bool,
}

impl IdentitySchema {
    /// The type of identity values: an object of the attributes' types (optional
    /// attribute markers removed), as Terraform's identity block implies.
    pub fn implied_type(&self) -> Type {
        Type::object(
            self.attributes
                .iter()
                .map(|(name, a)| (name.as_str(), a.ty.without_optional_attributes())),
        )
    }
}

/// A provider-defined function's signature (`functions`).
///
/// ```
/// use ctywire::schema::ProviderSchemas;
///
/// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
/// let (_, provider) = schemas.find_provider("cloud")?;
/// let parse_arn = &provider.functions["parse_arn"];
/// assert_eq!(parse_arn.parameters[0].name, "arn");
/// assert_eq!(parse_arn.return_type.to_expr(), "object({account=string,region=string,resource=string})");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// A short description.
    pub summary: String,
    /// The description (empty when there is none).
    pub description: String,
    /// How the description is written.
    pub description_kind: DescriptionKind,
    /// Why the function is deprecated, and what to use instead (empty when it is not).
    pub deprecation_message: String,
    /// The type of the result (`dynamic` when it depends on the arguments).
    pub return_type: Type,
    /// The positional parameters.
    pub parameters: Vec<Parameter>,
    /// The parameter that takes any further arguments, if the function takes them.
    pub variadic_parameter: Option<Parameter>,
}

/// A parameter of a [`Function`]: a positional one, or the variadic one that takes
/// the arguments after them.
///
/// ```
/// use ctywire::schema::ProviderSchemas;
/// use ctywire::Type;
///
/// let schemas = ProviderSchemas::from_json(br#"{"format_version": "1.0", "provider_schemas": {
///   "registry.terraform.io/example/paths": {"functions": {"join": {
///     "return_type": "string",
///     "parameters": [{"name": "separator", "type": "string"}],
///     "variadic_parameter": {"name": "parts", "type": "string", "is_nullable": true,
///       "description": "The parts to join; null parts are left out."}
///   }}}
/// }}"#)?;
/// let (_, paths) = schemas.find_provider("paths")?;
/// let join = &paths.functions["join"];
/// let separator = &join.parameters[0];
/// assert_eq!((separator.name.as_str(), &separator.ty), ("separator", &Type::String));
/// assert!(!separator.is_nullable);
/// let parts = join.variadic_parameter.as_ref().unwrap();
/// assert!(parts.is_nullable);
/// // Arguments after the positional ones have the variadic parameter's type.
/// assert_eq!(join.argument_type(3), Some(&parts.ty));
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Parameter {
    /// The parameter's name (empty when the signature gives none).
    pub name: String,
    /// The description (empty when there is none).
    pub description: String,
    /// How the description is written.
    pub description_kind: DescriptionKind,
    /// Whether the argument may be null.
    pub is_nullable: bool,
    /// Whether the provider takes arguments that are not wholly known (protocol's
    /// `Function.Parameter.allow_unknown_values`). When off, Terraform does not call the
    /// function while an argument for this parameter holds an unknown (during plan),
    /// and takes the result to be unknown; when on, it calls the function with the
    /// unknown. `providers schema -json` does not print it, so schemas read from JSON
    /// have it off.
    pub allow_unknown_values: bool,
    /// The type every argument for this parameter must conform to.
    pub ty: Type,
}

impl Parameter {
    /// A parameter named `name` of type `ty`, not nullable, taking only known values,
    /// with no description.
    ///
    /// ```
    /// use ctywire::schema::Parameter;
    /// use ctywire::Type;
    ///
    /// let p = Parameter::new("input", Type::Dynamic).nullable().allow_unknown_values();
    /// assert!(p.is_nullable && p.allow_unknown_values);
    /// assert_eq!((p.name.as_str(), &p.ty), ("input", &Type::Dynamic));
    /// ```
    pub fn new(name: impl Into<String>, ty: Type) -> Parameter {
        Parameter {
            name: name.into(),
            description: String::new(),
            description_kind: DescriptionKind::Plain,
            is_nullable: false,
            allow_unknown_values: false,
            ty,
        }
    }

    /// This parameter with a plain-text description.
    pub fn description(mut self, text: impl Into<String>) -> Parameter {
        self.description = text.into();
        self
    }

    /// This parameter, taking null arguments.
    pub fn nullable(mut self) -> Parameter {
        self.is_nullable = true;
        self
    }

    /// This parameter, taking arguments that hold unknowns.
    pub fn allow_unknown_values(mut self) -> Parameter {
        self.allow_unknown_values = true;
        self
    }
}

impl Function {
    /// The type of argument `index` (counted from 0): a positional parameter's, then the
    /// variadic parameter's; `None` past the last parameter of a function without one.
    pub fn argument_type(&self, index: usize) -> Option<&Type> {
        self.parameters
            .get(index)
            .or(self.variadic_parameter.as_ref())
            .map(|p| &p.ty)
    }
}

//! Which schema types a call's values: its subject.

use super::*;

/// What types the values of a call: a schema of the provider's schemas, as
/// [`Resolver::resolve`] finds it.
///
/// ```
/// use ctywire::capture::{Capture, Resolved, Resolver, Subject};
/// use ctywire::schema::{ProviderSchemas, SchemaKind};
/// use ctywire::{msgpack, Type, Value};
///
/// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
/// let image = std::fs::read("examples/payloads/cloud_image.config.msgpack")?;
/// let arn = Value::from("arn:cloud:instance/eu-west-1/123456789012/i-0abc");
/// let capture = Capture::from_files([
///     ("1718000000300_ReadDataSource_Request_Config.msgpack".to_owned(), image.clone()),
///     ("1718000000300_ReadDataSource_Request_ProviderMeta.empty".to_owned(), vec![]),
///     ("1718000000304_ReadDataSource_Response_State.msgpack".to_owned(), image),
///     ("1718000000900_CallFunction_Request_Arguments_0.msgpack".to_owned(), msgpack::encode(&arn, &Type::String)?),
/// ]);
/// let (read, call_function) = (&capture.calls[0], &capture.calls[1]);
/// let mut resolver = Resolver::new(&schemas);
///
/// let Resolved::Found(data_source) = resolver.resolve(read) else { panic!("one data source") };
/// assert!(matches!(data_source, Subject::Schema { kind: SchemaKind::DataSource, name: "cloud_image", .. }));
/// assert_eq!(data_source.to_string(), "data source cloud_image");
/// assert_eq!(data_source.provider(), "registry.terraform.io/example/cloud");
/// let state = read.payload("Response", "State").unwrap();
/// let ty = data_source.type_of(state).unwrap();
/// assert_eq!(ty, data_source.block_schema().unwrap().implied_type());
/// assert_eq!(state.decode(&ty)?["most_recent"].as_bool(), Some(true));
/// // The schemas hold no `provider_meta` schema.
/// assert_eq!(data_source.type_of(read.payload("Request", "ProviderMeta").unwrap()), None);
///
/// // A function's payloads are typed by its parameters and its return type.
/// let Resolved::Found(function) = resolver.resolve(call_function) else { panic!("one function") };
/// assert_eq!(function.to_string(), "function parse_arn");
/// assert_eq!(function.type_of(&call_function.payloads[0]), Some(Type::String));
/// assert!(function.block_schema().is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub enum Subject<'s> {
    /// A provider's own configuration (`ConfigureProvider`, which tfplugin5 captures name
    /// `Configure`, `ValidateProviderConfig`, `PrepareProviderConfig`).
    Provider {
        /// The provider's address.
        provider: &'s str,
        /// Its configuration schema.
        schema: &'s Schema,
    },
    /// A resource type, data source, ephemeral or list resource type, action or state
    /// store.
    Schema {
        /// Which section of the schemas.
        kind: SchemaKind,
        /// Its name.
        name: &'s str,
        /// The provider's address.
        provider: &'s str,
        /// The schema.
        schema: &'s Schema,
    },
    /// A resource type's identity (`UpgradeResourceIdentity`).
    Identity {
        /// The resource type's name.
        name: &'s str,
        /// The provider's address.
        provider: &'s str,
        /// The identity schema.
        schema: &'s IdentitySchema,
    },
    /// A provider-defined function (`CallFunction`).
    Function {
        /// The function's name.
        name: &'s str,
        /// The provider's address.
        provider: &'s str,
        /// Its signature.
        function: &'s Function,
    },
}

impl<'s> Subject<'s> {
    /// The type of a payload of a call about this subject: the schema's implied type,
    /// a function parameter's or its return type. `None` for private data and for
    /// `ProviderMeta` (the provider's `provider_meta` schema, which the schemas do not
    /// hold).
    pub fn type_of(&self, payload: &Payload) -> Option<Type> {
        let field = payload.name.field.as_str();
        if !payload.is_value() || field == "ProviderMeta" {
            return None;
        }
        match self {
            Subject::Function { function, .. } => match field.strip_prefix("Arguments_") {
                Some(i) => function.argument_type(i.parse().ok()?).cloned(),
                None => Some(function.return_type.clone()),
            },
            _ => self.schema_type(),
        }
    }

    /// The implied type of the subject's schema; `None` for a function, whose types
    /// depend on the field.
    fn schema_type(&self) -> Option<Type> {
        match self {
            Subject::Provider { schema, .. } | Subject::Schema { schema, .. } => {
                Some(schema.implied_type())
            }
            Subject::Identity { schema, .. } => Some(schema.implied_type()),
            Subject::Function { .. } => None,
        }
    }

    /// The schema block whose values the payloads are (for rendering them as blocks),
    /// where there is one.
    pub fn block_schema(&self) -> Option<&'s Schema> {
        match self {
            Subject::Provider { schema, .. } | Subject::Schema { schema, .. } => Some(schema),
            _ => None,
        }
    }

    /// The provider's address.
    pub fn provider(&self) -> &'s str {
        match self {
            Subject::Provider { provider, .. }
            | Subject::Schema { provider, .. }
            | Subject::Identity { provider, .. }
            | Subject::Function { provider, .. } => provider,
        }
    }
}

impl fmt::Display for Subject<'_> {
    /// `resource type cloud_instance`, `provider registry.terraform.io/example/cloud`,
    /// `function parse_arn`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Provider { provider, .. } => write!(f, "provider {provider}"),
            Subject::Schema { kind, name, .. } => write!(f, "{} {name}", kind.noun()),
            Subject::Identity { name, .. } => write!(f, "resource identity {name}"),
            Subject::Function { name, .. } => write!(f, "function {name}"),
        }
    }
}

/// What [`Resolver::resolve`] found for a call.
///
/// ```
/// use ctywire::capture::{Capture, Resolved, Resolver};
/// use ctywire::schema::ProviderSchemas;
///
/// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
/// let capture = Capture::from_files([
///     ("1718000000200_ValidateResourceConfig_Request_Config.msgpack".to_owned(),
///      std::fs::read("examples/payloads/cloud_bucket.config.msgpack")?),
///     // Null: a state of any resource type, so it tells none.
///     ("1718000000300_ReadResource_Request_CurrentState.msgpack".to_owned(), vec![0xc0]),
///     ("1718000000400_ReadDataSource_Request_Config.json".to_owned(), br#"{"name":"debian"}"#.to_vec()),
///     ("1718000000500_CloseEphemeralResource_Request_Private".to_owned(), b"lease-42".to_vec()),
/// ]);
/// let mut resolver = Resolver::new(&schemas);
/// let outcomes: Vec<String> = capture.calls.iter().map(|call| match resolver.resolve(call) {
///     Resolved::Found(subject) => format!("{}: {subject}", call.rpc),
///     Resolved::Ambiguous(all) => format!("{}: any of {} schemas", call.rpc, all.len()),
///     Resolved::OnlyNulls => format!("{}: only nulls", call.rpc),
///     Resolved::NotFound(why) => format!("{}: {why}", call.rpc),
///     Resolved::Untyped => format!("{}: no typed values", call.rpc),
/// }).collect();
/// assert_eq!(outcomes, [
///     "ValidateResourceConfig: resource type cloud_bucket",
///     "ReadResource: only nulls",
///     "ReadDataSource: no data source of the schemas decodes every value of the call; \
///      data source cloud_image comes nearest, but \
///      1718000000400_ReadDataSource_Request_Config.json: .name: unsupported attribute",
///     "CloseEphemeralResource: no typed values",
/// ]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub enum Resolved<'s> {
    /// The one subject whose types decode every value of the call.
    Found(Subject<'s>),
    /// Several subjects decode every value (two resource types whose values look
    /// alike).
    Ambiguous(Vec<Subject<'s>>),
    /// Every value of the call is null (a destroy's new state, alone): a null fits
    /// every type, so the values tell none.
    OnlyNulls,
    /// None does; the message says what was tried and, for the subject that decoded
    /// the most values, the first error.
    NotFound(String),
    /// The RPC carries no values a schema types (e.g. `CloseEphemeralResource`), or it
    /// is not an RPC this crate knows.
    Untyped,
}

/// What section of the schemas types an RPC's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Section {
    Provider,
    Schemas(SchemaKind),
    Identities,
    Functions,
}

impl Section {
    /// The section an RPC's values belong to.
    fn of(rpc: &str) -> Option<Section> {
        Some(match rpc {
            "ValidateResourceConfig"
            | "ValidateResourceTypeConfig"
            | "ReadResource"
            | "PlanResourceChange"
            | "ApplyResourceChange"
            | "ImportResourceState"
            | "UpgradeResourceState"
            | "MoveResourceState"
            | "GenerateResourceConfig" => Section::Schemas(SchemaKind::Resource),
            "ValidateDataResourceConfig" | "ValidateDataSourceConfig" | "ReadDataSource" => {
                Section::Schemas(SchemaKind::DataSource)
            }
            "ValidateEphemeralResourceConfig" | "OpenEphemeralResource" => {
                Section::Schemas(SchemaKind::EphemeralResource)
            }
            "ValidateListResourceConfig" | "ListResource" => {
                Section::Schemas(SchemaKind::ListResource)
            }
            "ValidateActionConfig" | "PlanAction" | "InvokeAction" => {
                Section::Schemas(SchemaKind::Action)
            }
            "ValidateStateStoreConfig" | "ConfigureStateStore" => {
                Section::Schemas(SchemaKind::StateStore)
            }
            // terraform-plugin-go's tf5server logs tfplugin5's ConfigureProvider as `Configure`.
            "ConfigureProvider"
            | "Configure"
            | "ValidateProviderConfig"
            | "PrepareProviderConfig" => Section::Provider,
            "UpgradeResourceIdentity" => Section::Identities,
            "CallFunction" => Section::Functions,
            _ => return None,
        })
    }

    /// Every subject of this section in `schemas`.
    fn subjects(self, schemas: &ProviderSchemas) -> Vec<Subject<'_>> {
        let mut out = Vec::new();
        for (provider, p) in &schemas.providers {
            match self {
                Section::Provider => out.push(Subject::Provider {
                    provider,
                    schema: &p.provider,
                }),
                Section::Schemas(kind) => out.extend(kind.schemas(p).iter().map(
                    |(name, schema)| Subject::Schema {
                        kind,
                        name,
                        provider,
                        schema,
                    },
                )),
                Section::Identities => {
                    out.extend(p.resource_identity_schemas.iter().map(|(name, schema)| {
                        Subject::Identity {
                            name,
                            provider,
                            schema,
                        }
                    }))
                }
                Section::Functions => {
                    out.extend(
                        p.functions
                            .iter()
                            .map(|(name, function)| Subject::Function {
                                name,
                                provider,
                                function,
                            }),
                    )
                }
            }
        }
        out
    }
}

/// Finds the schema that types each call's values, among the provider's schemas.
///
/// The implied types of every schema of a section are worked out once, the first time
/// a call needs them: keep one resolver for a whole capture.
///
/// ```
/// use ctywire::capture::{Capture, Resolved, Resolver};
/// use ctywire::schema::ProviderSchemas;
///
/// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
/// let image = std::fs::read("examples/payloads/cloud_image.config.msgpack")?;
/// let capture = Capture::from_files([
///     ("1718000000100_ConfigureProvider_Request_Config.msgpack".to_owned(),
///      std::fs::read("examples/payloads/provider.config.msgpack")?),
///     ("1718000000200_ValidateResourceConfig_Request_Config.msgpack".to_owned(),
///      std::fs::read("examples/payloads/cloud_bucket.config.msgpack")?),
///     ("1718000000300_ReadDataSource_Request_Config.msgpack".to_owned(), image.clone()),
///     ("1718000000300_ReadDataSource_Request_ProviderMeta.empty".to_owned(), vec![]),
///     ("1718000000304_ReadDataSource_Response_State.msgpack".to_owned(), image),
/// ]);
///
/// // Decode every value of every call with the type its schema implies.
/// let mut resolver = Resolver::new(&schemas);
/// let mut decoded = Vec::new();
/// for call in &capture.calls {
///     let Resolved::Found(subject) = resolver.resolve(call) else { continue };
///     for payload in &call.payloads {
///         if let Some(ty) = subject.type_of(payload) {
///             decoded.push((subject.to_string(), payload.name.field.clone(), payload.decode(&ty)?));
///         }
///     }
/// }
/// let typed: Vec<(&str, &str)> = decoded.iter().map(|(s, f, _)| (s.as_str(), f.as_str())).collect();
/// assert_eq!(typed, [
///     ("provider registry.terraform.io/example/cloud", "Config"),
///     ("resource type cloud_bucket", "Config"),
///     ("data source cloud_image", "Config"),
///     ("data source cloud_image", "State"),
/// ]);
/// assert_eq!(decoded[0].2["region"].as_str(), Some("eu-west-1"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Resolver<'s> {
    schemas: &'s ProviderSchemas,
    /// The client whose rules for plans and applies the grouping checks values by.
    pub(super) client: crate::schema::Client,
    /// Each section's subjects with their implied types (`None` for functions, whose
    /// types depend on the field).
    sections: BTreeMap<Section, Vec<(Subject<'s>, Option<Type>)>>,
}

impl<'s> Resolver<'s> {
    /// A resolver over `schemas`.
    pub fn new(schemas: &'s ProviderSchemas) -> Resolver<'s> {
        Resolver::for_client(schemas, crate::schema::Client::default())
    }

    /// A resolver over `schemas` whose grouping checks values by `client`'s rules for
    /// plans and applies (see [`Capture::read_dir_for`]).
    pub fn for_client(schemas: &'s ProviderSchemas, client: crate::schema::Client) -> Resolver<'s> {
        Resolver {
            schemas,
            client,
            sections: BTreeMap::new(),
        }
    }

    /// The one subject (resource type, data source, ...) of the section the call's RPC
    /// belongs to whose types decode every value of the call; see [`Resolved`].
    pub fn resolve(&mut self, call: &Call) -> Resolved<'s> {
        let Some(section) = Section::of(&call.rpc) else {
            return Resolved::Untyped;
        };
        let typed: Vec<&Payload> = call
            .payloads
            .iter()
            .filter(|p| p.is_value() && p.name.field != "ProviderMeta")
            .collect();
        if typed.is_empty() {
            return Resolved::Untyped;
        }
        if typed.iter().all(|p| p.is_null()) {
            return Resolved::OnlyNulls;
        }
        self.fitting(section, &typed)
    }

    /// Every subject of the call's section whose types decode every value of the call,
    /// nulls included (each fits every one): what the grouping checks values against.
    pub(super) fn candidates(&mut self, call: &Call) -> Resolved<'s> {
        let Some(section) = Section::of(&call.rpc) else {
            return Resolved::Untyped;
        };
        let typed: Vec<&Payload> = call
            .payloads
            .iter()
            .filter(|p| p.is_value() && p.name.field != "ProviderMeta")
            .collect();
        if typed.is_empty() {
            return Resolved::Untyped;
        }
        self.fitting(section, &typed)
    }

    /// The subjects of `section` whose types decode every one of `typed`.
    fn fitting(&mut self, section: Section, typed: &[&Payload]) -> Resolved<'s> {
        let schemas = self.schemas;
        let candidates = self.sections.entry(section).or_insert_with(|| {
            let subjects = section.subjects(schemas);
            subjects.into_iter().map(|s| (s, s.schema_type())).collect()
        });
        let mut found = Vec::new();
        // The candidate that decoded the most values before failing, and its error.
        let mut best: Option<(usize, Subject<'s>, &Payload, Error)> = None;
        for (subject, ty) in candidates.iter() {
            let mut decoded = 0;
            let mut failure = None;
            for p in typed {
                let ty = match ty {
                    Some(ty) => Some(ty.clone()),
                    None => subject.type_of(p),
                };
                let result = match ty {
                    Some(ty) => p.decode(&ty).map(drop),
                    None => Err(Error::new(
                        ErrorKind::TypeMismatch,
                        format!("{subject} has no parameter for {}", p.name.field),
                    )),
                };
                match result {
                    Ok(()) => decoded += 1,
                    Err(e) => {
                        failure = Some((*p, e));
                        break;
                    }
                }
            }
            match failure {
                None => found.push(*subject),
                Some((p, e)) => {
                    if best.as_ref().is_none_or(|(n, ..)| decoded > *n) {
                        best = Some((decoded, *subject, p, e));
                    }
                }
            }
        }
        match found.len() {
            1 => Resolved::Found(found[0]),
            0 => {
                Resolved::NotFound(match best {
                    None => format!("the schemas define no {}", section_noun(section)),
                    Some((_, subject, p, e)) => {
                        format!(
                    "no {} of the schemas decodes every value of the call; {subject} comes \
                     nearest, but {}: {}{}",
                    section_noun(section),
                    p.file,
                    if e.path().is_empty() { String::new() } else { format!("{}: ", e.path()) },
                    e.message(),
                )
                    }
                })
            }
            _ => Resolved::Ambiguous(found),
        }
    }
}

/// What a section holds, in messages.
fn section_noun(section: Section) -> &'static str {
    match section {
        Section::Provider => "provider configuration",
        Section::Schemas(kind) => kind.noun(),
        Section::Identities => "resource identity schema",
        Section::Functions => "function",
    }
}

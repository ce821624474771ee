//! The protocol-6 service: each call routed by type name to its resource, data source
//! or function, the values decoded with the struct's type and the results encoded.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, RwLock};

use ctywire::object::{self, FieldType, PlanModifiers};
use ctywire::schema::{Block, Parameter, ProviderSchema, Schema};
use ctywire::{Type, Value};
use ctywire_tfplugin::tfplugin6 as pb;
use ctywire_tfplugin::tfplugin6::provider_server::Provider as Service;
use ctywire_tfplugin::{dynamic, raw_state, Plugin};
use tonic::{Request, Response, Status};

use crate::error::{Diagnostic, Error, FunctionError, Result};
use crate::{Arguments, Context, DataSource, Function, Provider, Resource, StoredState};

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// The provider's data, once configured.
type Data<D> = Arc<RwLock<Option<Arc<D>>>>;

/// A provider and its resources, data sources and functions, served as one plugin.
///
/// ```no_run
/// # use ctywire_provider::{Provider, Result, Server};
/// # #[derive(ctywire::Object)] struct Config {}
/// # struct Example;
/// # impl Provider for Example {
/// #     const TYPE_NAME: &'static str = "example";
/// #     type Config = Config;
/// #     type Data = ();
/// #     async fn configure(&self, _: Config) -> Result<()> { Ok(()) }
/// # }
/// #[tokio::main]
/// async fn main() {
///     Server::new(Example).serve().await
/// }
/// ```
pub struct Server<P: Provider> {
    provider: Arc<P>,
    data: Data<P::Data>,
    resources: BTreeMap<String, Arc<dyn AnyResource<P::Data>>>,
    data_sources: BTreeMap<String, Arc<dyn AnyDataSource<P::Data>>>,
    functions: BTreeMap<String, Arc<dyn AnyFunction>>,
    schemas: ProviderSchema,
}

impl<P: Provider> Clone for Server<P> {
    /// The same provider (its data, once configured, shared).
    fn clone(&self) -> Server<P> {
        Server {
            provider: Arc::clone(&self.provider),
            data: Arc::clone(&self.data),
            resources: self.resources.clone(),
            data_sources: self.data_sources.clone(),
            functions: self.functions.clone(),
            schemas: self.schemas.clone(),
        }
    }
}

impl<P: Provider> Server<P> {
    /// The provider, with no resources, data sources or functions yet.
    pub fn new(provider: P) -> Server<P> {
        let mut schemas = ProviderSchema::default();
        schemas.provider = Schema::new(<P::Config as object::Object>::schema_block());
        Server {
            provider: Arc::new(provider),
            data: Arc::default(),
            resources: BTreeMap::new(),
            data_sources: BTreeMap::new(),
            functions: BTreeMap::new(),
            schemas,
        }
    }

    /// Adds a resource type, `TYPE_NAME_NAME`.
    ///
    /// # Panics
    ///
    /// When the provider has a resource type of that name already.
    pub fn resource<R: Resource<P::Data>>(mut self, resource: R) -> Server<P> {
        let name = format!("{}_{}", P::TYPE_NAME, R::NAME);
        let entry = ResourceEntry::new(resource, &name, P::TYPE_NAME);
        let schema = Schema::new(entry.block.clone()).version(R::VERSION);
        assert!(
            self.schemas
                .resource_schemas
                .insert(name.clone(), schema)
                .is_none(),
            "two resource types named {name}"
        );
        self.resources.insert(name, Arc::new(entry));
        self
    }

    /// Adds a data source type, `TYPE_NAME_NAME`.
    ///
    /// # Panics
    ///
    /// When the provider has a data source type of that name already.
    pub fn data_source<S: DataSource<P::Data>>(mut self, source: S) -> Server<P> {
        let name = format!("{}_{}", P::TYPE_NAME, S::NAME);
        let block = <S::State as object::Object>::schema_block();
        let entry = DataSourceEntry {
            ty: block.implied_type(),
            source,
            name: name.clone(),
        };
        assert!(
            self.schemas
                .data_source_schemas
                .insert(name.clone(), Schema::new(block))
                .is_none(),
            "two data source types named {name}"
        );
        self.data_sources.insert(name, Arc::new(entry));
        self
    }

    /// Adds a function, `provider::TYPE_NAME::NAME`.
    ///
    /// # Panics
    ///
    /// When the provider has a function of that name already.
    pub fn function<F: Function>(mut self, function: F) -> Server<P> {
        let parameters = FunctionEntry::<F>::PARAMETERS_MATCH;
        let definition = ctywire::schema::Function {
            summary: F::SUMMARY.to_owned(),
            description: F::DESCRIPTION.to_owned(),
            description_kind: ctywire::schema::DescriptionKind::Markdown,
            deprecation_message: String::new(),
            return_type: <F::Output as FieldType>::cty_type(),
            parameters: F::PARAMETERS
                .iter()
                .zip(F::Arguments::types())
                .map(|(name, ty)| Parameter::new(*name, ty))
                .collect(),
            variadic_parameter: None,
        };
        debug_assert!(parameters);
        let name = F::NAME.to_owned();
        assert!(
            self.schemas
                .functions
                .insert(name.clone(), definition)
                .is_none(),
            "two functions named {name}"
        );
        self.functions
            .insert(name, Arc::new(FunctionEntry { function }));
        self
    }

    /// Every schema the provider serves.
    pub fn schemas(&self) -> &ProviderSchema {
        &self.schemas
    }

    /// The plugin, for [`ctywire_tfplugin::serve`] or [`ctywire_tfplugin::serve_debug`]:
    /// protocol 6, and protocol 5 too when it can express every schema (no nested
    /// attributes).
    pub fn plugin(self) -> Plugin {
        let plugin = Plugin::new().protocol6(self.clone());
        if ctywire_tfplugin::v5::provider_schema_response(&self.schemas).is_ok() {
            plugin.protocol5(crate::v5::V5(self))
        } else {
            plugin
        }
    }

    /// The provider's documentation pages ([`crate::docs`]), from its schemas.
    pub fn docs(&self) -> crate::docs::Docs {
        crate::docs::Docs::new(P::TYPE_NAME, self.schemas.clone())
    }

    /// Serves the provider to the Terraform that started the process
    /// ([`ctywire_tfplugin::serve`]) until it stops it. Run as `PROVIDER docs ...`
    /// instead (Terraform passes no arguments), it writes or checks its documentation
    /// ([`crate::docs::command`]) and exits.
    pub async fn serve(self) {
        let mut arguments = std::env::args().skip(1);
        if arguments.next().as_deref() == Some("docs") {
            std::process::exit(crate::docs::command(self.docs(), arguments));
        }
        ctywire_tfplugin::serve(self.plugin()).await;
    }

    fn configured(&self, type_name: &str) -> Result<Context<P::Data>> {
        let data = self.data.read().ok().and_then(|d| d.clone());
        match data {
            Some(data) => Ok(Context::new(data, type_name)),
            None => Err(Error::new(
                "Provider not configured",
                format!(
                    "{type_name} needs the provider configured first (ConfigureProvider), and it is not"
                ),
            )),
        }
    }
}

/// Runs `handler` as a task of its own: a panic in it is an error naming `type_name`
/// and `rpc`; warnings the handler left in its context come first in the diagnostics.
async fn run<T: Send + 'static>(
    type_name: &str,
    rpc: &str,
    warnings: Option<Arc<std::sync::Mutex<Vec<Diagnostic>>>>,
    handler: impl Future<Output = Result<T>> + Send + 'static,
) -> (Option<T>, Vec<pb::Diagnostic>) {
    let outcome = match tokio::spawn(handler).await {
        Ok(outcome) => outcome,
        Err(e) => {
            let why = match e.try_into_panic() {
                Ok(payload) => payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic without a message".to_owned()),
                Err(e) => e.to_string(),
            };
            Err(Error::new(
                format!("The provider panicked in {rpc} of {type_name}"),
                format!("{why}\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker."),
            ))
        }
    };
    let mut diagnostics: Vec<pb::Diagnostic> = warnings
        .and_then(|w| {
            w.lock()
                .ok()
                .map(|w| w.iter().map(Diagnostic::to_proto).collect())
        })
        .unwrap_or_default();
    match outcome {
        Ok(value) => (Some(value), diagnostics),
        Err(e) => {
            diagnostics.extend(e.diagnostics().iter().map(Diagnostic::to_proto));
            (None, diagnostics)
        }
    }
}

fn protos(e: Error) -> Vec<pb::Diagnostic> {
    e.diagnostics().iter().map(Diagnostic::to_proto).collect()
}

fn unknown_type(kind: &str, name: &str) -> Vec<pb::Diagnostic> {
    protos(Error::new(
        format!("Unknown {kind}"),
        format!("this provider has no {kind} {name:?}"),
    ))
}

fn encode_value(value: &Value, ty: &Type, summary: &str) -> Result<pb::DynamicValue> {
    dynamic::encode(value, ty).map_err(|e| Error::value(&e, summary))
}

/// The state an import by id starts from: `id` set, every other attribute null.
pub(crate) fn import_by_id<T: object::Object + object::MsgpackField>(
    name: &str,
    id: &str,
) -> Result<T> {
    let ty = <T as object::Object>::cty_type();
    let Some(attributes) = ty.as_object() else {
        return Err(Error::new("Cannot import", "the state is not an object"));
    };
    if attributes.attribute("id") != Some(&Type::String) {
        return Err(Error::new(
            "Cannot import",
            format!("resource {name} has no string attribute `id` for the import id to go in: implement Resource::import"),
        ));
    }
    let value = Value::object(attributes.iter().map(|(n, _, _)| {
        let v = if n == "id" {
            Value::from(id)
        } else {
            Value::Null
        };
        (n.to_owned(), v)
    }));
    object::from_value(&value).map_err(|e| {
        Error::new(
            "Cannot import by id",
            format!(
                "the import sets `id` alone, and {} cannot be null: implement Resource::import for resource {name}",
                e.path()
            ),
        )
        .at(e.path().clone())
    })
}

// ---- resources

/// A resource type, its struct's type erased.
trait AnyResource<D>: Send + Sync + 'static {
    fn validate(&self, config: Option<&pb::DynamicValue>) -> Vec<pb::Diagnostic>;
    fn plan(&self, req: &pb::plan_resource_change::Request) -> pb::plan_resource_change::Response;
    fn apply(
        self: Arc<Self>,
        ctx: Context<D>,
        req: pb::apply_resource_change::Request,
    ) -> BoxFuture<pb::apply_resource_change::Response>;
    fn read(
        self: Arc<Self>,
        ctx: Context<D>,
        req: pb::read_resource::Request,
    ) -> BoxFuture<pb::read_resource::Response>;
    fn import(
        self: Arc<Self>,
        ctx: Context<D>,
        id: String,
    ) -> BoxFuture<pb::import_resource_state::Response>;
    fn upgrade(
        self: Arc<Self>,
        ctx: Option<Context<D>>,
        req: pb::upgrade_resource_state::Request,
    ) -> BoxFuture<pb::upgrade_resource_state::Response>;
}

struct ResourceEntry<R> {
    resource: R,
    name: String,
    /// The provider's type name, for Terraform's wording of a broken plan.
    provider: &'static str,
    block: Block,
    ty: Type,
    modifiers: PlanModifiers,
}

impl<R> ResourceEntry<R> {
    fn new<D: Send + Sync + 'static>(
        resource: R,
        name: &str,
        provider: &'static str,
    ) -> ResourceEntry<R>
    where
        R: Resource<D>,
    {
        let block = <R::State as object::Object>::schema_block();
        ResourceEntry {
            resource,
            name: name.to_owned(),
            provider,
            ty: block.implied_type(),
            modifiers: <R::State as object::Object>::plan_modifiers(),
            block,
        }
    }
}

/// The configuration's problems: of its type (always), and of the struct's fields
/// (when it is wholly known: a fraction for an integer).
fn validate_config<T: object::JsonField + object::MsgpackField>(
    ty: &Type,
    config: Option<&pb::DynamicValue>,
) -> Vec<pb::Diagnostic> {
    let summary = "Invalid configuration";
    match dynamic::decode(config, ty) {
        Err(e) => protos(Error::value(&e, summary)),
        Ok(value) if value.is_wholly_known() && !value.is_null() => {
            match object::from_value::<T>(&value) {
                // A null the struct cannot hold is no fault of the configuration:
                // Terraform checks required attributes itself, and a computed one is
                // null until the provider sets it.
                Err(e) if value.at_path(e.path()).is_some_and(Value::is_null) => Vec::new(),
                // The message alone: the error's byte offset is into a re-encoding.
                Err(e) => protos(Error::new(summary, e.message()).at(e.path().clone())),
                Ok(_) => Vec::new(),
            }
        }
        Ok(_) => Vec::new(),
    }
}

impl<D: Send + Sync + 'static, R: Resource<D>> AnyResource<D> for ResourceEntry<R> {
    fn validate(&self, config: Option<&pb::DynamicValue>) -> Vec<pb::Diagnostic> {
        validate_config::<R::State>(&self.ty, config)
    }

    fn plan(&self, req: &pb::plan_resource_change::Request) -> pb::plan_resource_change::Response {
        let mut response = pb::plan_resource_change::Response {
            planned_private: req.prior_private.clone(),
            ..Default::default()
        };
        let decode = |dv: &Option<pb::DynamicValue>, summary: &str| {
            dynamic::decode(dv.as_ref(), &self.ty).map_err(|e| Error::value(&e, summary))
        };
        let values = decode(&req.prior_state, "Invalid prior state").and_then(|prior| {
            Ok((
                prior,
                decode(&req.config, "Invalid configuration")?,
                decode(&req.proposed_new_state, "Invalid proposed new state")?,
            ))
        });
        let (prior, config, proposed) = match values {
            Ok(values) => values,
            Err(e) => {
                response.diagnostics = protos(e);
                return response;
            }
        };
        let (planned, replace) =
            crate::plan::plan(&self.block, &self.modifiers, &prior, &config, &proposed);
        // The plan is checked as Terraform will check it, in Terraform's words.
        let mut found = self.block.check_plan(&prior, &config, &planned);
        found.extend(
            self.block
                .check_requires_replace(&prior, &planned, &replace),
        );
        for i in &found {
            let d = i.terraform_diagnostic(&self.name, self.provider);
            response.diagnostics.push(
                Diagnostic::error(d.summary, d.detail)
                    .at(i.path.clone())
                    .to_proto(),
            );
        }
        if !found.is_empty() {
            return response;
        }
        match encode_value(&planned, &self.ty, "Invalid plan") {
            Ok(planned) => response.planned_state = Some(planned),
            Err(e) => response.diagnostics = protos(e),
        }
        response.requires_replace = replace
            .iter()
            .map(ctywire_tfplugin::path::path_to_proto)
            .collect();
        response
    }

    fn apply(
        self: Arc<Self>,
        ctx: Context<D>,
        req: pb::apply_resource_change::Request,
    ) -> BoxFuture<pb::apply_resource_change::Response> {
        Box::pin(async move {
            let mut response = pb::apply_resource_change::Response {
                private: req.planned_private.clone(),
                ..Default::default()
            };
            let decode = |dv: &Option<pb::DynamicValue>, summary: &str| {
                dynamic::decode(dv.as_ref(), &self.ty).map_err(|e| Error::value(&e, summary))
            };
            let values = decode(&req.prior_state, "Invalid prior state").and_then(|prior| {
                Ok((prior, decode(&req.planned_state, "Invalid planned state")?))
            });
            let (prior, planned) = match values {
                Ok(values) => values,
                Err(e) => {
                    response.diagnostics = protos(e);
                    response.new_state = req.prior_state;
                    return response;
                }
            };
            let (rpc, on_error) = match (prior.is_null(), planned.is_null()) {
                (_, true) => ("delete", prior.clone()),
                (true, false) => ("create", Value::Null),
                (false, false) => ("update", prior.clone()),
            };
            let warnings = ctx.warnings();
            let this = Arc::clone(&self);
            let (planned_value, prior_value) = (planned.clone(), prior.clone());
            let handler = async move {
                let typed = |v: &Value, summary: &str| {
                    object::from_value::<Option<R::State>>(v).map_err(|e| Error::value(&e, summary))
                };
                let prior = typed(&prior_value, "Invalid prior state")?;
                let planned = typed(&planned_value, "Invalid planned state")?;
                let r = &this.resource;
                let new = match (prior, planned) {
                    (Some(prior), None) => {
                        r.delete(&ctx, prior).await?;
                        None
                    }
                    (None, Some(planned)) => Some(r.create(&ctx, planned).await?),
                    (Some(prior), Some(planned)) => Some(r.update(&ctx, prior, planned).await?),
                    (None, None) => None,
                };
                object::to_value(&new).map_err(|e| Error::value(&e, "Invalid new state"))
            };
            let (new, mut diagnostics) = run(&self.name, rpc, Some(warnings), handler).await;
            let new = match new {
                Some(new) => {
                    for i in self.block.check_apply(&planned, &new) {
                        let d = i.terraform_diagnostic(&self.name, self.provider);
                        diagnostics.push(
                            Diagnostic::error(d.summary, d.detail)
                                .at(i.path.clone())
                                .to_proto(),
                        );
                    }
                    new
                }
                None => on_error,
            };
            match encode_value(&new, &self.ty, "Invalid new state") {
                Ok(state) => response.new_state = Some(state),
                Err(e) => diagnostics.extend(protos(e)),
            }
            response.diagnostics = diagnostics;
            response
        })
    }

    fn read(
        self: Arc<Self>,
        ctx: Context<D>,
        req: pb::read_resource::Request,
    ) -> BoxFuture<pb::read_resource::Response> {
        Box::pin(async move {
            let mut response = pb::read_resource::Response {
                private: req.private.clone(),
                new_state: req.current_state.clone(),
                ..Default::default()
            };
            let warnings = ctx.warnings();
            let this = Arc::clone(&self);
            let current = req.current_state;
            let handler = async move {
                let state: Option<R::State> = dynamic::decode_object(current.as_ref())
                    .map_err(|e| Error::value(&e, "Invalid state"))?;
                let new = match state {
                    Some(state) => this.resource.read(&ctx, state).await?,
                    None => None,
                };
                dynamic::encode_object(&new).map_err(|e| Error::value(&e, "Invalid new state"))
            };
            let (new, diagnostics) = run(&self.name, "read", Some(warnings), handler).await;
            if let Some(new) = new {
                response.new_state = Some(new);
            }
            response.diagnostics = diagnostics;
            response
        })
    }

    fn import(
        self: Arc<Self>,
        ctx: Context<D>,
        id: String,
    ) -> BoxFuture<pb::import_resource_state::Response> {
        Box::pin(async move {
            let warnings = ctx.warnings();
            let this = Arc::clone(&self);
            let handler = async move {
                let state = this.resource.import(&ctx, id).await?;
                dynamic::encode_object(&state)
                    .map_err(|e| Error::value(&e, "Invalid imported state"))
            };
            let (state, diagnostics) = run(&self.name, "import", Some(warnings), handler).await;
            pb::import_resource_state::Response {
                imported_resources: state
                    .map(|state| pb::import_resource_state::ImportedResource {
                        type_name: self.name.clone(),
                        state: Some(state),
                        ..Default::default()
                    })
                    .into_iter()
                    .collect(),
                diagnostics,
                ..Default::default()
            }
        })
    }

    fn upgrade(
        self: Arc<Self>,
        ctx: Option<Context<D>>,
        req: pb::upgrade_resource_state::Request,
    ) -> BoxFuture<pb::upgrade_resource_state::Response> {
        Box::pin(async move {
            let mut response = pb::upgrade_resource_state::Response::default();
            let version = u64::try_from(req.version).unwrap_or(u64::MAX);
            if version == R::VERSION {
                // A current state: read with the current type, as it is.
                let value = raw_state::decode(req.raw_state.as_ref(), &self.ty)
                    .map_err(|e| Error::value(&e, "Invalid stored state"))
                    .and_then(|v| encode_value(&v, &self.ty, "Invalid stored state"));
                match value {
                    Ok(state) => response.upgraded_state = Some(state),
                    Err(e) => response.diagnostics = protos(e),
                }
                return response;
            }
            if version > R::VERSION {
                response.diagnostics = protos(Error::new(
                    "Unsupported state version",
                    format!(
                        "this state of {} was stored with schema version {version}, newer than this provider's ({}): use the provider version that wrote it, or a newer one",
                        self.name,
                        R::VERSION
                    ),
                ));
                return response;
            }
            let Some(ctx) = ctx else {
                response.diagnostics = protos(Error::new(
                    "Provider not configured",
                    format!(
                        "upgrading a state of {} needs the provider configured first",
                        self.name
                    ),
                ));
                return response;
            };
            let warnings = ctx.warnings();
            let this = Arc::clone(&self);
            let stored = StoredState {
                version,
                raw: req.raw_state,
            };
            let handler = async move {
                let state = this.resource.upgrade(&ctx, stored).await?;
                dynamic::encode_object(&state)
                    .map_err(|e| Error::value(&e, "Invalid upgraded state"))
            };
            let (state, diagnostics) = run(&self.name, "upgrade", Some(warnings), handler).await;
            response.upgraded_state = state;
            response.diagnostics = diagnostics;
            response
        })
    }
}

// ---- data sources

trait AnyDataSource<D>: Send + Sync + 'static {
    fn validate(&self, config: Option<&pb::DynamicValue>) -> Vec<pb::Diagnostic>;
    fn read(
        self: Arc<Self>,
        ctx: Context<D>,
        config: Option<pb::DynamicValue>,
    ) -> BoxFuture<pb::read_data_source::Response>;
}

struct DataSourceEntry<S> {
    source: S,
    name: String,
    ty: Type,
}

impl<D: Send + Sync + 'static, S: DataSource<D>> AnyDataSource<D> for DataSourceEntry<S> {
    fn validate(&self, config: Option<&pb::DynamicValue>) -> Vec<pb::Diagnostic> {
        validate_config::<S::State>(&self.ty, config)
    }

    fn read(
        self: Arc<Self>,
        ctx: Context<D>,
        config: Option<pb::DynamicValue>,
    ) -> BoxFuture<pb::read_data_source::Response> {
        Box::pin(async move {
            let warnings = ctx.warnings();
            let this = Arc::clone(&self);
            let handler = async move {
                let config: S::State = dynamic::decode_object(config.as_ref())
                    .map_err(|e| Error::value(&e, "Invalid configuration"))?;
                let state = this.source.read(&ctx, config).await?;
                dynamic::encode_object(&state).map_err(|e| Error::value(&e, "Invalid state"))
            };
            let (state, diagnostics) = run(&self.name, "read", Some(warnings), handler).await;
            pb::read_data_source::Response {
                state,
                diagnostics,
                ..Default::default()
            }
        })
    }
}

// ---- functions

trait AnyFunction: Send + Sync + 'static {
    fn call(
        self: Arc<Self>,
        arguments: Vec<pb::DynamicValue>,
    ) -> BoxFuture<pb::call_function::Response>;
}

struct FunctionEntry<F> {
    function: F,
}

impl<F: Function> FunctionEntry<F> {
    /// One name for each parameter, checked when the program builds.
    const PARAMETERS_MATCH: bool = {
        assert!(
            F::PARAMETERS.len() == <F::Arguments as Arguments>::COUNT,
            "Function::PARAMETERS names each element of Function::Arguments, no more, no fewer"
        );
        true
    };
}

impl<F: Function> AnyFunction for FunctionEntry<F> {
    fn call(
        self: Arc<Self>,
        arguments: Vec<pb::DynamicValue>,
    ) -> BoxFuture<pb::call_function::Response> {
        Box::pin(async move {
            let this = Arc::clone(&self);
            let handler = async move {
                let result: Result<pb::DynamicValue, FunctionError> = async {
                    let arguments = F::Arguments::decode(&arguments)?;
                    let output = this.function.call(arguments).await?;
                    dynamic::encode_object(&output).map_err(|e| FunctionError::new(e.to_string()))
                }
                .await;
                Ok(result)
            };
            let (outcome, diagnostics) = run(F::NAME, "call", None, handler).await;
            let result = match outcome {
                Some(result) => result,
                None => Err(FunctionError::new(
                    diagnostics
                        .iter()
                        .map(|d| format!("{}: {}", d.summary, d.detail))
                        .collect::<Vec<_>>()
                        .join("\n"),
                )),
            };
            match result {
                Ok(value) => pb::call_function::Response {
                    result: Some(value),
                    error: None,
                },
                Err(e) => pb::call_function::Response {
                    result: None,
                    error: Some(ctywire_tfplugin::diagnostic::function_error(
                        e.text, e.argument,
                    )),
                },
            }
        })
    }
}

// ---- the service

pub(crate) fn capabilities() -> pb::ServerCapabilities {
    pb::ServerCapabilities {
        get_provider_schema_optional: false,
        ..Default::default()
    }
}

type Answer<T> = std::result::Result<Response<T>, Status>;

fn answer<T>(message: T) -> Answer<T> {
    Ok(Response::new(message))
}

#[tonic::async_trait]
impl<P: Provider> Service for Server<P> {
    async fn get_metadata(
        &self,
        _: Request<pb::get_metadata::Request>,
    ) -> Answer<pb::get_metadata::Response> {
        answer(pb::get_metadata::Response {
            server_capabilities: Some(capabilities()),
            resources: self
                .resources
                .keys()
                .map(|n| pb::get_metadata::ResourceMetadata {
                    type_name: n.clone(),
                })
                .collect(),
            data_sources: self
                .data_sources
                .keys()
                .map(|n| pb::get_metadata::DataSourceMetadata {
                    type_name: n.clone(),
                })
                .collect(),
            functions: self
                .functions
                .keys()
                .map(|n| pb::get_metadata::FunctionMetadata { name: n.clone() })
                .collect(),
            ..Default::default()
        })
    }

    async fn get_provider_schema(
        &self,
        _: Request<pb::get_provider_schema::Request>,
    ) -> Answer<pb::get_provider_schema::Response> {
        let mut response = ctywire_tfplugin::schema::provider_schema_response(&self.schemas);
        response.server_capabilities = Some(capabilities());
        answer(response)
    }

    async fn get_resource_identity_schemas(
        &self,
        _: Request<pb::get_resource_identity_schemas::Request>,
    ) -> Answer<pb::get_resource_identity_schemas::Response> {
        answer(ctywire_tfplugin::schema::identity_schemas_response(
            &self.schemas,
        ))
    }

    async fn validate_provider_config(
        &self,
        request: Request<pb::validate_provider_config::Request>,
    ) -> Answer<pb::validate_provider_config::Response> {
        let ty = <P::Config as object::Object>::cty_type();
        answer(pb::validate_provider_config::Response {
            diagnostics: validate_config::<P::Config>(&ty, request.get_ref().config.as_ref()),
        })
    }

    async fn configure_provider(
        &self,
        request: Request<pb::configure_provider::Request>,
    ) -> Answer<pb::configure_provider::Response> {
        let config = request.into_inner().config;
        let provider = Arc::clone(&self.provider);
        let handler = async move {
            let config: P::Config = dynamic::decode_object(config.as_ref())
                .map_err(|e| Error::value(&e, "Invalid provider configuration"))?;
            provider.configure(config).await
        };
        let (data, diagnostics) = run(P::TYPE_NAME, "configure", None, handler).await;
        if let (Some(data), Ok(mut slot)) = (data, self.data.write()) {
            *slot = Some(Arc::new(data));
        }
        answer(pb::configure_provider::Response { diagnostics })
    }

    async fn validate_resource_config(
        &self,
        request: Request<pb::validate_resource_config::Request>,
    ) -> Answer<pb::validate_resource_config::Response> {
        let req = request.get_ref();
        let diagnostics = match self.resources.get(&req.type_name) {
            Some(r) => r.validate(req.config.as_ref()),
            None => unknown_type("resource type", &req.type_name),
        };
        answer(pb::validate_resource_config::Response { diagnostics })
    }

    async fn validate_data_resource_config(
        &self,
        request: Request<pb::validate_data_resource_config::Request>,
    ) -> Answer<pb::validate_data_resource_config::Response> {
        let req = request.get_ref();
        let diagnostics = match self.data_sources.get(&req.type_name) {
            Some(s) => s.validate(req.config.as_ref()),
            None => unknown_type("data source", &req.type_name),
        };
        answer(pb::validate_data_resource_config::Response { diagnostics })
    }

    async fn upgrade_resource_state(
        &self,
        request: Request<pb::upgrade_resource_state::Request>,
    ) -> Answer<pb::upgrade_resource_state::Response> {
        let req = request.into_inner();
        let Some(r) = self.resources.get(&req.type_name).cloned() else {
            return answer(pb::upgrade_resource_state::Response {
                diagnostics: unknown_type("resource type", &req.type_name),
                ..Default::default()
            });
        };
        let ctx = self.configured(&req.type_name).ok();
        answer(r.upgrade(ctx, req).await)
    }

    async fn read_resource(
        &self,
        request: Request<pb::read_resource::Request>,
    ) -> Answer<pb::read_resource::Response> {
        let req = request.into_inner();
        let Some(r) = self.resources.get(&req.type_name).cloned() else {
            return answer(pb::read_resource::Response {
                diagnostics: unknown_type("resource type", &req.type_name),
                ..Default::default()
            });
        };
        match self.configured(&req.type_name) {
            Ok(ctx) => answer(r.read(ctx, req).await),
            Err(e) => answer(pb::read_resource::Response {
                diagnostics: protos(e),
                new_state: req.current_state,
                private: req.private,
                ..Default::default()
            }),
        }
    }

    async fn plan_resource_change(
        &self,
        request: Request<pb::plan_resource_change::Request>,
    ) -> Answer<pb::plan_resource_change::Response> {
        let req = request.get_ref();
        match self.resources.get(&req.type_name) {
            Some(r) => answer(r.plan(req)),
            None => answer(pb::plan_resource_change::Response {
                diagnostics: unknown_type("resource type", &req.type_name),
                ..Default::default()
            }),
        }
    }

    async fn apply_resource_change(
        &self,
        request: Request<pb::apply_resource_change::Request>,
    ) -> Answer<pb::apply_resource_change::Response> {
        let req = request.into_inner();
        let Some(r) = self.resources.get(&req.type_name).cloned() else {
            return answer(pb::apply_resource_change::Response {
                diagnostics: unknown_type("resource type", &req.type_name),
                new_state: req.prior_state,
                ..Default::default()
            });
        };
        match self.configured(&req.type_name) {
            Ok(ctx) => answer(r.apply(ctx, req).await),
            Err(e) => answer(pb::apply_resource_change::Response {
                diagnostics: protos(e),
                new_state: req.prior_state,
                ..Default::default()
            }),
        }
    }

    async fn import_resource_state(
        &self,
        request: Request<pb::import_resource_state::Request>,
    ) -> Answer<pb::import_resource_state::Response> {
        let req = request.into_inner();
        let Some(r) = self.resources.get(&req.type_name).cloned() else {
            return answer(pb::import_resource_state::Response {
                diagnostics: unknown_type("resource type", &req.type_name),
                ..Default::default()
            });
        };
        if req.id.is_empty() {
            return answer(pb::import_resource_state::Response {
                diagnostics: protos(Error::new(
                    "Cannot import",
                    format!("{} is imported by id, and the import gave none (an identity alone is not supported)", req.type_name),
                )),
                ..Default::default()
            });
        }
        match self.configured(&req.type_name) {
            Ok(ctx) => answer(r.import(ctx, req.id).await),
            Err(e) => answer(pb::import_resource_state::Response {
                diagnostics: protos(e),
                ..Default::default()
            }),
        }
    }

    async fn move_resource_state(
        &self,
        request: Request<pb::move_resource_state::Request>,
    ) -> Answer<pb::move_resource_state::Response> {
        let req = request.get_ref();
        answer(pb::move_resource_state::Response {
            diagnostics: protos(Error::new(
                "Unsupported move",
                format!(
                    "{} does not take objects of {} moved from another resource type",
                    req.target_type_name, req.source_type_name
                ),
            )),
            ..Default::default()
        })
    }

    async fn upgrade_resource_identity(
        &self,
        request: Request<pb::upgrade_resource_identity::Request>,
    ) -> Answer<pb::upgrade_resource_identity::Response> {
        answer(pb::upgrade_resource_identity::Response {
            diagnostics: protos(Error::new(
                "Unsupported resource identity",
                format!("{} has no resource identity", request.get_ref().type_name),
            )),
            ..Default::default()
        })
    }

    async fn read_data_source(
        &self,
        request: Request<pb::read_data_source::Request>,
    ) -> Answer<pb::read_data_source::Response> {
        let req = request.into_inner();
        let Some(s) = self.data_sources.get(&req.type_name).cloned() else {
            return answer(pb::read_data_source::Response {
                diagnostics: unknown_type("data source", &req.type_name),
                ..Default::default()
            });
        };
        match self.configured(&req.type_name) {
            Ok(ctx) => answer(s.read(ctx, req.config).await),
            Err(e) => answer(pb::read_data_source::Response {
                diagnostics: protos(e),
                ..Default::default()
            }),
        }
    }

    async fn generate_resource_config(
        &self,
        request: Request<pb::generate_resource_config::Request>,
    ) -> Answer<pb::generate_resource_config::Response> {
        answer(pb::generate_resource_config::Response {
            diagnostics: protos(Error::new(
                "Unsupported configuration generation",
                format!(
                    "the provider does not generate configuration for {}",
                    request.get_ref().type_name
                ),
            )),
            ..Default::default()
        })
    }

    async fn validate_ephemeral_resource_config(
        &self,
        request: Request<pb::validate_ephemeral_resource_config::Request>,
    ) -> Answer<pb::validate_ephemeral_resource_config::Response> {
        answer(pb::validate_ephemeral_resource_config::Response {
            diagnostics: unknown_type("ephemeral resource type", &request.get_ref().type_name),
        })
    }

    async fn open_ephemeral_resource(
        &self,
        request: Request<pb::open_ephemeral_resource::Request>,
    ) -> Answer<pb::open_ephemeral_resource::Response> {
        answer(pb::open_ephemeral_resource::Response {
            diagnostics: unknown_type("ephemeral resource type", &request.get_ref().type_name),
            ..Default::default()
        })
    }

    async fn renew_ephemeral_resource(
        &self,
        request: Request<pb::renew_ephemeral_resource::Request>,
    ) -> Answer<pb::renew_ephemeral_resource::Response> {
        answer(pb::renew_ephemeral_resource::Response {
            diagnostics: unknown_type("ephemeral resource type", &request.get_ref().type_name),
            ..Default::default()
        })
    }

    async fn close_ephemeral_resource(
        &self,
        request: Request<pb::close_ephemeral_resource::Request>,
    ) -> Answer<pb::close_ephemeral_resource::Response> {
        answer(pb::close_ephemeral_resource::Response {
            diagnostics: unknown_type("ephemeral resource type", &request.get_ref().type_name),
        })
    }

    async fn validate_list_resource_config(
        &self,
        request: Request<pb::validate_list_resource_config::Request>,
    ) -> Answer<pb::validate_list_resource_config::Response> {
        answer(pb::validate_list_resource_config::Response {
            diagnostics: unknown_type("list resource type", &request.get_ref().type_name),
        })
    }

    async fn validate_action_config(
        &self,
        request: Request<pb::validate_action_config::Request>,
    ) -> Answer<pb::validate_action_config::Response> {
        answer(pb::validate_action_config::Response {
            diagnostics: unknown_type("action", &request.get_ref().type_name),
        })
    }

    async fn plan_action(
        &self,
        request: Request<pb::plan_action::Request>,
    ) -> Answer<pb::plan_action::Response> {
        answer(pb::plan_action::Response {
            diagnostics: unknown_type("action", &request.get_ref().action_type),
            ..Default::default()
        })
    }

    async fn get_functions(
        &self,
        _: Request<pb::get_functions::Request>,
    ) -> Answer<pb::get_functions::Response> {
        answer(pb::get_functions::Response {
            functions: self
                .schemas
                .functions
                .iter()
                .map(|(name, f)| (name.clone(), ctywire_tfplugin::schema::function_to_proto(f)))
                .collect(),
            diagnostics: Vec::new(),
        })
    }

    async fn call_function(
        &self,
        request: Request<pb::call_function::Request>,
    ) -> Answer<pb::call_function::Response> {
        let req = request.into_inner();
        match self.functions.get(&req.name).cloned() {
            Some(f) => answer(f.call(req.arguments).await),
            None => answer(pb::call_function::Response {
                result: None,
                error: Some(ctywire_tfplugin::diagnostic::function_error(
                    format!("this provider has no function {:?}", req.name),
                    None,
                )),
            }),
        }
    }

    async fn stop_provider(
        &self,
        _: Request<pb::stop_provider::Request>,
    ) -> Answer<pb::stop_provider::Response> {
        answer(pb::stop_provider::Response::default())
    }
}

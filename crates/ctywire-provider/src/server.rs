//! The protocol-6 service: each call routed by type name to its resource, data source
//! or function, the values decoded with the struct's type and the results encoded.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, RwLock};

use ctywire::object::{self, FieldType, PlanModifiers};
use ctywire::schema::{Block, ProviderSchema, Schema};
use ctywire::{Type, Value};
use ctywire_tfplugin::tfplugin6 as pb;
use ctywire_tfplugin::tfplugin6::provider_server::Provider as Service;
use ctywire_tfplugin::{dynamic, raw_state, Plugin};
use tokio_util::sync::CancellationToken;
use tonic::{Request, Response, Status};

use crate::action::{ActionEntry, AnyAction};
use crate::ephemeral::{AnyEphemeral, EphemeralEntry};
use crate::error::{Diagnostic, Error, FunctionError, Result};
use crate::identity::{AnyIdentity, IdentityEntry};
use crate::list::{AnyList, ListEntry};
use crate::{
    Action, Arguments, Context, DataSource, EphemeralResource, Function, IdentifiedResource,
    ListResource, Provider, Resource, StoredState,
};

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
    ephemerals: BTreeMap<String, Arc<dyn AnyEphemeral<P::Data>>>,
    lists: BTreeMap<String, Arc<dyn AnyList<P::Data>>>,
    identities: BTreeMap<String, Arc<dyn AnyIdentity<P::Data>>>,
    actions: BTreeMap<String, Arc<dyn AnyAction<P::Data>>>,
    /// Whether a resource type takes objects moved from another.
    moves: bool,
    schemas: ProviderSchema,
    /// The token of the calls running now: StopProvider cancels it and puts a new one
    /// in its place, for the calls that come after.
    stop: Arc<std::sync::Mutex<CancellationToken>>,
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
            ephemerals: self.ephemerals.clone(),
            lists: self.lists.clone(),
            identities: self.identities.clone(),
            actions: self.actions.clone(),
            moves: self.moves,
            schemas: self.schemas.clone(),
            stop: Arc::clone(&self.stop),
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
            ephemerals: BTreeMap::new(),
            lists: BTreeMap::new(),
            identities: BTreeMap::new(),
            actions: BTreeMap::new(),
            moves: false,
            schemas,
            stop: Arc::default(),
        }
    }

    /// Adds a resource type, `TYPE_NAME_NAME`.
    ///
    /// # Panics
    ///
    /// When the provider has a resource type of that name already.
    pub fn resource<R: Resource<P::Data>>(self, resource: R) -> Server<P> {
        self.add_resource(Arc::new(resource))
    }

    fn add_resource<R: Resource<P::Data>>(mut self, resource: Arc<R>) -> Server<P> {
        let name = format!("{}_{}", P::TYPE_NAME, R::NAME);
        self.moves |= !R::MOVES_FROM.is_empty();
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

    /// Adds a resource type with an identity ([`IdentifiedResource`]), `TYPE_NAME_NAME`:
    /// its identity schema is advertised, every state it returns goes with its
    /// identity, and an `import` block may name an object by identity.
    ///
    /// # Panics
    ///
    /// When the provider has a resource type of that name already, or the identity
    /// struct has blocks.
    pub fn resource_with_identity<R: IdentifiedResource<P::Data>>(self, resource: R) -> Server<P> {
        self.add_identified(Arc::new(resource))
    }

    fn add_identified<R: IdentifiedResource<P::Data>>(mut self, resource: Arc<R>) -> Server<P> {
        let name = format!("{}_{}", P::TYPE_NAME, R::NAME);
        self.schemas.resource_identity_schemas.insert(
            name.clone(),
            crate::identity::identity_schema::<R::Identity>(R::IDENTITY_VERSION, &name),
        );
        self.identities.insert(
            name.clone(),
            Arc::new(IdentityEntry {
                resource: Arc::clone(&resource),
                name,
            }),
        );
        self.add_resource(resource)
    }

    /// Adds an ephemeral resource type, `TYPE_NAME_NAME`.
    ///
    /// # Panics
    ///
    /// When the provider has an ephemeral resource type of that name already.
    pub fn ephemeral_resource<E: EphemeralResource<P::Data>>(mut self, resource: E) -> Server<P> {
        let name = format!("{}_{}", P::TYPE_NAME, E::NAME);
        let block = <E::Object as object::Object>::schema_block();
        let entry = EphemeralEntry {
            ty: block.implied_type(),
            resource,
            name: name.clone(),
        };
        assert!(
            self.schemas
                .ephemeral_resource_schemas
                .insert(name.clone(), Schema::new(block))
                .is_none(),
            "two ephemeral resource types named {name}"
        );
        self.ephemerals.insert(name, Arc::new(entry));
        self
    }

    /// Adds a resource type with an identity, as
    /// [`resource_with_identity`](Server::resource_with_identity) does, and its list
    /// resource type for `terraform query` (named as the resource type: `TYPE_NAME_NAME`).
    /// A list resource lists the identities of its resource type, so the two are added
    /// together: a list resource without its resource type cannot be written.
    ///
    /// # Panics
    ///
    /// When the provider has a resource type of that name already, or the identity
    /// struct has blocks.
    pub fn resource_with_list<L: ListResource<P::Data>>(
        self,
        resource: L::Resource,
        lister: L,
    ) -> Server<P> {
        let name = format!(
            "{}_{}",
            P::TYPE_NAME,
            <L::Resource as Resource<P::Data>>::NAME
        );
        let resource = Arc::new(resource);
        let mut server = self.add_identified(Arc::clone(&resource));
        let block = <L::Config as object::Object>::schema_block();
        let entry = ListEntry {
            ty: block.implied_type(),
            lister,
            resource,
            name: name.clone(),
        };
        server
            .schemas
            .list_resource_schemas
            .insert(name.clone(), Schema::new(block));
        server.lists.insert(name, Arc::new(entry));
        server
    }

    /// Adds an action type, `TYPE_NAME_NAME`.
    ///
    /// # Panics
    ///
    /// When the provider has an action type of that name already.
    pub fn action<A: Action<P::Data>>(mut self, action: A) -> Server<P> {
        let name = format!("{}_{}", P::TYPE_NAME, A::NAME);
        let block = <A::Config as object::Object>::schema_block();
        let entry = ActionEntry {
            ty: block.implied_type(),
            action,
            name: name.clone(),
        };
        assert!(
            self.schemas
                .action_schemas
                .insert(name.clone(), Schema::new(block))
                .is_none(),
            "two action types named {name}"
        );
        self.actions.insert(name, Arc::new(entry));
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
        let (positional, variadic_parameter) = F::Arguments::parameters(F::PARAMETERS);
        let definition = F::definition(ctywire::schema::Function {
            summary: F::SUMMARY.to_owned(),
            description: F::DESCRIPTION.to_owned(),
            description_kind: ctywire::schema::DescriptionKind::Markdown,
            deprecation_message: String::new(),
            return_type: <F::Output as FieldType>::cty_type(),
            parameters: positional,
            variadic_parameter,
        });
        debug_assert!(parameters);
        let return_type = definition.return_type.clone();
        let name = F::NAME.to_owned();
        assert!(
            self.schemas
                .functions
                .insert(name.clone(), definition)
                .is_none(),
            "two functions named {name}"
        );
        self.functions.insert(
            name,
            Arc::new(FunctionEntry {
                function,
                return_type,
            }),
        );
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

    /// The plugin serving protocol 5 alone (as terraform-plugin-go's `tf5server`), for
    /// a Terraform or OpenTofu that must speak protocol 5 to it, or the error saying
    /// which schema protocol 5 cannot express (a nested attribute). Terraform picks the
    /// highest protocol both sides offer, so [`plugin`](Server::plugin) is served on 6.
    pub fn plugin_protocol5(self) -> ctywire::Result<Plugin> {
        ctywire_tfplugin::v5::provider_schema_response(&self.schemas)?;
        Ok(Plugin::new().protocol5(crate::v5::V5(self)))
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
        // Terraform reads go-hclog JSON lines on stderr (crate::log).
        if let Some(level) = crate::log::Hclog::level_from_env() {
            crate::log::Hclog::new(level).install();
        }
        ctywire_tfplugin::serve(self.plugin()).await;
    }

    /// [`serve`](Server::serve) on a multi-threaded tokio runtime of its own, for a
    /// provider's `main` that needs no `#[tokio::main]` (nor a tokio dependency):
    /// `fn main() { Server::new(Example).run() }`. A runtime that cannot start ends the
    /// process with status 1, saying why on stderr.
    pub fn run(self) {
        match tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
        {
            Ok(runtime) => runtime.block_on(self.serve()),
            Err(e) => {
                eprintln!("{}: cannot start a tokio runtime: {e}", P::TYPE_NAME);
                std::process::exit(1);
            }
        }
    }

    /// The token of the calls that start now.
    fn stop_token(&self) -> CancellationToken {
        match self.stop.lock() {
            Ok(token) => token.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    fn configured(&self, type_name: &str) -> Result<Context<P::Data>> {
        let data = self.data.read().ok().and_then(|d| d.clone());
        match data {
            Some(data) => Ok(Context::new(
                data,
                type_name,
                // Its own: a timeout cancels one call alone.
                self.stop_token().child_token(),
            )),
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
pub(crate) async fn run<T: Send + 'static>(
    type_name: &str,
    rpc: &str,
    warnings: Option<Arc<std::sync::Mutex<Vec<Diagnostic>>>>,
    handler: impl Future<Output = Result<T>> + Send + 'static,
) -> (Option<T>, Vec<pb::Diagnostic>) {
    // The request's context in every event the handler logs (crate::log).
    let span = tracing::info_span!("handler", tf_type_name = type_name, tf_operation = rpc);
    let outcome = match tokio::spawn(tracing::Instrument::instrument(handler, span)).await {
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

pub(crate) fn protos(e: Error) -> Vec<pb::Diagnostic> {
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

/// ImportResourceState's answer: resource `name`'s imported state (with the identity
/// it was imported by, for an import by identity), if the import succeeded.
pub(crate) fn imported(
    name: &str,
    imported: Option<(pb::DynamicValue, Option<pb::ResourceIdentityData>)>,
    diagnostics: Vec<pb::Diagnostic>,
) -> pb::import_resource_state::Response {
    pb::import_resource_state::Response {
        imported_resources: imported
            .map(
                |(state, identity)| pb::import_resource_state::ImportedResource {
                    type_name: name.to_string(),
                    state: Some(state),
                    identity,
                    ..Default::default()
                },
            )
            .into_iter()
            .collect(),
        diagnostics,
        ..Default::default()
    }
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
    fn plan(
        self: Arc<Self>,
        ctx: Result<Context<D>>,
        req: pb::plan_resource_change::Request,
    ) -> BoxFuture<pb::plan_resource_change::Response>;
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
    fn move_state(
        self: Arc<Self>,
        ctx: Context<D>,
        req: pb::move_resource_state::Request,
    ) -> BoxFuture<(Option<pb::DynamicValue>, Vec<pb::Diagnostic>)>;
}

struct ResourceEntry<R> {
    resource: Arc<R>,
    name: String,
    /// The provider's type name, for Terraform's wording of a broken plan.
    provider: &'static str,
    block: Block,
    ty: Type,
    modifiers: PlanModifiers,
}

impl<R> ResourceEntry<R> {
    fn new<D: Send + Sync + 'static>(
        resource: Arc<R>,
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

/// The configuration's problems: of its type (always), of what the struct's fields
/// can hold and declare (`crate::validate`), and of the struct's codec (when it is
/// wholly known).
pub(crate) fn validate_config<T: object::Object + object::JsonField + object::MsgpackField>(
    ty: &Type,
    config: Option<&pb::DynamicValue>,
) -> Vec<pb::Diagnostic> {
    let summary = "Invalid configuration";
    match dynamic::decode(config, ty) {
        Err(e) => protos(Error::value(&e, summary)),
        Ok(value) => {
            let found = crate::validate::check::<T>(&value);
            if !found.is_empty() {
                return found.iter().map(Diagnostic::to_proto).collect();
            }
            if !value.is_wholly_known() || value.is_null() {
                return Vec::new();
            }
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
    }
}

impl<D: Send + Sync + 'static, R: Resource<D>> AnyResource<D> for ResourceEntry<R> {
    fn validate(&self, config: Option<&pb::DynamicValue>) -> Vec<pb::Diagnostic> {
        let mut found = validate_config::<R::State>(&self.ty, config);
        if self.block.block_types.contains_key("timeouts")
            && let Ok(config) = dynamic::decode(config, &self.ty)
        {
            found.extend(
                crate::timeouts::validate(&config)
                    .iter()
                    .map(Diagnostic::to_proto),
            );
        }
        found
    }

    fn plan(
        self: Arc<Self>,
        ctx: Result<Context<D>>,
        req: pb::plan_resource_change::Request,
    ) -> BoxFuture<pb::plan_resource_change::Response> {
        Box::pin(async move {
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
            let (mut prior, mut config, proposed) = match values {
                Ok(values) => values,
                Err(e) => {
                    response.diagnostics = protos(e);
                    return response;
                }
            };
            // The same bytes decode to the same value: nothing changes.
            let proposed_is_prior =
                req.prior_state.is_some() && req.prior_state == req.proposed_new_state;
            let crate::plan::Planned {
                value: mut planned,
                mut replace,
                mut as_proposed,
            } = match crate::plan::plan(
                &self.block,
                &self.modifiers,
                &prior,
                &config,
                proposed,
                proposed_is_prior,
            ) {
                Ok(plan) => plan,
                Err(e) => {
                    response.diagnostics = protos(Error::value(&e, "Invalid default"));
                    return response;
                }
            };
            // The resource's own edits (Resource::modify_plan), on creates and updates.
            // The values go to the handler's task and come back, uncopied.
            if !planned.is_null() {
                let ctx = match ctx {
                    Ok(ctx) => ctx,
                    Err(e) => {
                        response.diagnostics = protos(e);
                        return response;
                    }
                };
                // Private state set here goes with the plan to apply.
                let ctx = ctx.with_private(req.prior_private.clone());
                let private = ctx.private_slot();
                let warnings = ctx.warnings();
                let this = Arc::clone(&self);
                let mut edited = crate::Plan::<R::State>::new(prior, config, planned, replace);
                let handler = async move {
                    this.resource.modify_plan(&ctx, &mut edited).await?;
                    Ok(edited)
                };
                let (edited, diagnostics) =
                    run(&self.name, "modify_plan", Some(warnings), handler).await;
                response.diagnostics = diagnostics;
                response.planned_private = private.out();
                let Some(edited) = edited else {
                    return response;
                };
                let parts = edited.into_parts();
                (prior, config, planned, replace) =
                    (parts.prior, parts.config, parts.planned, parts.replace);
                as_proposed &= !parts.edited;
                // Write-only values are never planned, whatever modify_plan set.
                planned = crate::plan::null_write_only(&self.block, planned);
            }
            // The plan is checked as every client will check it, in Terraform's words
            // where Terraform refuses it: which client calls cannot be told (in
            // ConfigureProvider's `terraform_version`, OpenTofu 1.12.6 sends `1.13.0`, the
            // release it impersonates, which a real Terraform 1.13.0 sends too).
            let mut found = self.block.check_plan_strictest(&prior, &config, &planned);
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
            // A plan that is the proposed state as Terraform sent it is answered with
            // Terraform's own bytes (MessagePack, as Terraform sends; never where a
            // write-only attribute may have been written to null), not encoded again.
            let proposed = req
                .proposed_new_state
                .filter(|p| as_proposed && p.json.is_empty() && !self.block.contains_write_only());
            match proposed {
                Some(proposed) => response.planned_state = Some(proposed),
                None => match encode_value(&planned, &self.ty, "Invalid plan") {
                    Ok(planned) => response.planned_state = Some(planned),
                    Err(e) => response.diagnostics.extend(protos(e)),
                },
            }
            response.requires_replace = replace
                .iter()
                .map(ctywire_tfplugin::path::path_to_proto)
                .collect();
            response
        })
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
                Ok((
                    prior,
                    decode(&req.planned_state, "Invalid planned state")?,
                    decode(&req.config, "Invalid configuration")?,
                ))
            });
            let (prior, planned, config) = match values {
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
            let ctx = ctx
                .with_private(req.planned_private.clone())
                .with_config(config);
            let private = ctx.private_slot();
            let warnings = ctx.warnings();
            let this = Arc::clone(&self);
            let (planned_value, prior_value) = (planned.clone(), prior.clone());
            let limit = crate::timeouts::limit(
                if rpc == "delete" { &prior } else { &planned },
                rpc,
                &R::TIMEOUTS,
            );
            let bounded = (ctx.token(), ctx.warnings(), self.name.clone());
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
            let handler = async move {
                let (token, diagnostics, name) = bounded;
                crate::timeouts::within(limit?, token, diagnostics, name, rpc, handler).await
            };
            let (new, mut diagnostics) = run(&self.name, rpc, Some(warnings), handler).await;
            response.private = private.out();
            let new = match new {
                Some(new) => {
                    // Write-only values are never stored, whatever the handler returned.
                    let new = crate::plan::null_write_only(&self.block, new);
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
            let ctx = ctx.with_private(req.private.clone());
            let private = ctx.private_slot();
            let warnings = ctx.warnings();
            let this = Arc::clone(&self);
            let limit = if self.block.block_types.contains_key("timeouts") {
                dynamic::decode(req.current_state.as_ref(), &self.ty)
                    .map_err(|e| Error::value(&e, "Invalid state"))
                    .and_then(|v| crate::timeouts::limit(&v, "read", &R::TIMEOUTS))
            } else {
                Ok(R::TIMEOUTS.read)
            };
            let bounded = (ctx.token(), ctx.warnings(), self.name.clone());
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
            let handler = async move {
                let (token, diagnostics, name) = bounded;
                crate::timeouts::within(limit?, token, diagnostics, name, "read", handler).await
            };
            let (new, diagnostics) = run(&self.name, "read", Some(warnings), handler).await;
            response.private = private.out();
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
            imported(&self.name, state.map(|state| (state, None)), diagnostics)
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

    fn move_state(
        self: Arc<Self>,
        ctx: Context<D>,
        req: pb::move_resource_state::Request,
    ) -> BoxFuture<(Option<pb::DynamicValue>, Vec<pb::Diagnostic>)> {
        let name = self.name.clone();
        Box::pin(crate::identity::move_state(
            Arc::clone(&self.resource),
            name,
            ctx,
            req,
        ))
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
    /// The definition's return type, which the result is encoded with.
    return_type: ctywire::Type,
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

impl<F: Function> FunctionEntry<F> {
    /// A result, with the definition's return type: by its typed codec, or as it is
    /// when it is a [`Value`] (an unknown keeps its refinements, which the typed
    /// codec of `dynamic` cannot carry).
    fn encode(&self, output: &F::Output) -> ctywire::Result<pb::DynamicValue> {
        match (output as &dyn std::any::Any).downcast_ref::<Value>() {
            Some(value) => dynamic::encode(value, &self.return_type),
            None => dynamic::encode_object(output),
        }
    }
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
                    this.encode(&output)
                        .map_err(|e| FunctionError::new(e.to_string()))
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

impl<P: Provider> Server<P> {
    /// What the provider can do beyond the protocol's minimum: destroy plans (answered
    /// with a null plan and the prior private state), moves when a resource type takes
    /// them.
    pub(crate) fn capabilities(&self) -> pb::ServerCapabilities {
        pb::ServerCapabilities {
            plan_destroy: true,
            get_provider_schema_optional: false,
            move_resource_state: self.moves,
            ..Default::default()
        }
    }

    /// The identity of `state` for resource type `name`, when it has one (with an
    /// error diagnostic when it cannot be made).
    fn identity_of(
        &self,
        name: &str,
        state: Option<&pb::DynamicValue>,
        diagnostics: &mut Vec<pb::Diagnostic>,
    ) -> Option<pb::ResourceIdentityData> {
        let identity = self.identities.get(name)?;
        // Unconfigured in a move, which Terraform makes before it configures the
        // provider (a panic of `Context::data` there is an error diagnostic).
        let ctx = self
            .configured(name)
            .unwrap_or_else(|_| Context::unconfigured(name, self.stop_token().child_token()));
        match identity.identity_of(&ctx, state) {
            Ok(identity) => identity,
            Err(e) => {
                diagnostics.extend(protos(e));
                None
            }
        }
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
            server_capabilities: Some(self.capabilities()),
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
            ephemeral_resources: self
                .ephemerals
                .keys()
                .map(|n| pb::get_metadata::EphemeralMetadata {
                    type_name: n.clone(),
                })
                .collect(),
            list_resources: self
                .lists
                .keys()
                .map(|n| pb::get_metadata::ListResourceMetadata {
                    type_name: n.clone(),
                })
                .collect(),
            actions: self
                .actions
                .keys()
                .map(|n| pb::get_metadata::ActionMetadata {
                    type_name: n.clone(),
                })
                .collect(),
            ..Default::default()
        })
    }

    async fn get_provider_schema(
        &self,
        _: Request<pb::get_provider_schema::Request>,
    ) -> Answer<pb::get_provider_schema::Response> {
        let mut response = ctywire_tfplugin::schema::provider_schema_response(&self.schemas);
        response.server_capabilities = Some(self.capabilities());
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
            Ok(ctx) => {
                let name = req.type_name.clone();
                let mut response = r.read(ctx, req).await;
                response.new_identity = self.identity_of(
                    &name,
                    response.new_state.as_ref(),
                    &mut response.diagnostics,
                );
                answer(response)
            }
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
        let req = request.into_inner();
        match self.resources.get(&req.type_name).cloned() {
            Some(r) => {
                let ctx = self.configured(&req.type_name);
                // The identity does not change while the object lives; a new object's
                // is known once it is created.
                let identity = self
                    .identities
                    .contains_key(&req.type_name)
                    .then(|| req.prior_identity.clone());
                let mut response = r.plan(ctx, req).await;
                if let Some(identity) = identity {
                    response.planned_identity = identity;
                }
                answer(response)
            }
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
            Ok(ctx) => {
                let name = req.type_name.clone();
                let mut response = r.apply(ctx, req).await;
                response.new_identity = self.identity_of(
                    &name,
                    response.new_state.as_ref(),
                    &mut response.diagnostics,
                );
                answer(response)
            }
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
        let identity = req.identity.and_then(|i| i.identity_data);
        let by_identity = match (identity, self.identities.get(&req.type_name)) {
            (Some(identity), Some(entry)) if req.id.is_empty() => {
                Some((identity, Arc::clone(entry)))
            }
            (_, None) if req.id.is_empty() => {
                return answer(pb::import_resource_state::Response {
                    diagnostics: protos(Error::new(
                        "Cannot import",
                        format!(
                            "{} is imported by id (it has no identity), and the import gave none",
                            req.type_name
                        ),
                    )),
                    ..Default::default()
                });
            }
            _ => None,
        };
        match self.configured(&req.type_name) {
            Ok(ctx) => match by_identity {
                Some((identity, entry)) => answer(entry.import(ctx, Some(identity)).await),
                None => {
                    // Imported by id: each object with its identity, as the state gives it.
                    let mut response = r.import(ctx, req.id).await;
                    for imported in &mut response.imported_resources {
                        if imported.identity.is_none() && imported.state.is_some() {
                            imported.identity = self.identity_of(
                                &imported.type_name,
                                imported.state.as_ref(),
                                &mut response.diagnostics,
                            );
                        }
                    }
                    answer(response)
                }
            },
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
        let req = request.into_inner();
        let name = req.target_type_name.clone();
        // The object's private state moves with it.
        let target_private = req.source_private.clone();
        let Some(r) = self.resources.get(&name).cloned() else {
            return answer(pb::move_resource_state::Response {
                diagnostics: unknown_type("resource type", &name),
                ..Default::default()
            });
        };
        // Terraform moves objects before it configures the provider.
        let ctx = self
            .configured(&name)
            .unwrap_or_else(|_| Context::unconfigured(&name, self.stop_token().child_token()));
        let (target_state, mut diagnostics) = r.move_state(ctx, req).await;
        let target_identity = self.identity_of(&name, target_state.as_ref(), &mut diagnostics);
        answer(pb::move_resource_state::Response {
            target_state,
            diagnostics,
            target_identity,
            target_private,
        })
    }

    async fn upgrade_resource_identity(
        &self,
        request: Request<pb::upgrade_resource_identity::Request>,
    ) -> Answer<pb::upgrade_resource_identity::Response> {
        let req = request.get_ref();
        match self.identities.get(&req.type_name) {
            Some(identity) => answer(identity.upgrade(req)),
            None => answer(pb::upgrade_resource_identity::Response {
                diagnostics: protos(Error::new(
                    "Unsupported resource identity",
                    format!("{} has no resource identity", req.type_name),
                )),
                ..Default::default()
            }),
        }
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
        let req = request.get_ref();
        let diagnostics = match self.ephemerals.get(&req.type_name) {
            Some(e) => e.validate(req.config.as_ref()),
            None => unknown_type("ephemeral resource type", &req.type_name),
        };
        answer(pb::validate_ephemeral_resource_config::Response { diagnostics })
    }

    async fn open_ephemeral_resource(
        &self,
        request: Request<pb::open_ephemeral_resource::Request>,
    ) -> Answer<pb::open_ephemeral_resource::Response> {
        let req = request.into_inner();
        let found = self.ephemerals.get(&req.type_name).cloned();
        match (found, self.configured(&req.type_name)) {
            (Some(e), Ok(ctx)) => answer(e.open(ctx, req.config).await),
            (None, _) => answer(pb::open_ephemeral_resource::Response {
                diagnostics: unknown_type("ephemeral resource type", &req.type_name),
                ..Default::default()
            }),
            (_, Err(e)) => answer(pb::open_ephemeral_resource::Response {
                diagnostics: protos(e),
                ..Default::default()
            }),
        }
    }

    async fn renew_ephemeral_resource(
        &self,
        request: Request<pb::renew_ephemeral_resource::Request>,
    ) -> Answer<pb::renew_ephemeral_resource::Response> {
        let req = request.into_inner();
        let found = self.ephemerals.get(&req.type_name).cloned();
        match (found, self.configured(&req.type_name)) {
            (Some(e), Ok(ctx)) => answer(e.renew(ctx, req.private).await),
            (None, _) => answer(pb::renew_ephemeral_resource::Response {
                diagnostics: unknown_type("ephemeral resource type", &req.type_name),
                ..Default::default()
            }),
            (_, Err(e)) => answer(pb::renew_ephemeral_resource::Response {
                diagnostics: protos(e),
                private: req.private,
                ..Default::default()
            }),
        }
    }

    async fn close_ephemeral_resource(
        &self,
        request: Request<pb::close_ephemeral_resource::Request>,
    ) -> Answer<pb::close_ephemeral_resource::Response> {
        let req = request.into_inner();
        let found = self.ephemerals.get(&req.type_name).cloned();
        match (found, self.configured(&req.type_name)) {
            (Some(e), Ok(ctx)) => answer(e.close(ctx, req.private).await),
            (None, _) => answer(pb::close_ephemeral_resource::Response {
                diagnostics: unknown_type("ephemeral resource type", &req.type_name),
            }),
            (_, Err(e)) => answer(pb::close_ephemeral_resource::Response {
                diagnostics: protos(e),
            }),
        }
    }

    async fn validate_list_resource_config(
        &self,
        request: Request<pb::validate_list_resource_config::Request>,
    ) -> Answer<pb::validate_list_resource_config::Response> {
        let req = request.get_ref();
        let diagnostics = match self.lists.get(&req.type_name) {
            Some(l) => l.validate(req.config.as_ref()),
            None => unknown_type("list resource type", &req.type_name),
        };
        answer(pb::validate_list_resource_config::Response { diagnostics })
    }

    async fn list_resource(
        &self,
        request: Request<pb::list_resource::Request>,
    ) -> Answer<tonic::codegen::BoxStream<pb::list_resource::Event>> {
        let req = request.into_inner();
        let (sender, receiver) = tokio::sync::mpsc::channel(16);
        let found = self.lists.get(&req.type_name).cloned();
        match (found, self.configured(&req.type_name)) {
            (Some(l), Ok(ctx)) => {
                tokio::spawn(l.list(ctx, req, sender));
            }
            (None, _) => {
                let event = crate::list::diagnostics_event(unknown_type(
                    "list resource type",
                    &req.type_name,
                ));
                let _ = sender.try_send(Ok(event));
            }
            (_, Err(e)) => {
                let _ = sender.try_send(Ok(crate::list::diagnostics_event(protos(e))));
            }
        }
        answer(Box::pin(tokio_stream::wrappers::ReceiverStream::new(
            receiver,
        )))
    }

    async fn validate_action_config(
        &self,
        request: Request<pb::validate_action_config::Request>,
    ) -> Answer<pb::validate_action_config::Response> {
        let req = request.get_ref();
        let diagnostics = match self.actions.get(&req.type_name) {
            Some(a) => a.validate(req.config.as_ref()),
            None => unknown_type("action type", &req.type_name),
        };
        answer(pb::validate_action_config::Response { diagnostics })
    }

    async fn plan_action(
        &self,
        request: Request<pb::plan_action::Request>,
    ) -> Answer<pb::plan_action::Response> {
        let req = request.into_inner();
        let diagnostics = match self.actions.get(&req.action_type).cloned() {
            Some(a) => {
                a.plan(self.configured(&req.action_type).ok(), req.config)
                    .await
            }
            None => unknown_type("action type", &req.action_type),
        };
        answer(pb::plan_action::Response {
            diagnostics,
            ..Default::default()
        })
    }

    async fn invoke_action(
        &self,
        request: Request<pb::invoke_action::Request>,
    ) -> Answer<tonic::codegen::BoxStream<pb::invoke_action::Event>> {
        let req = request.into_inner();
        let (sender, receiver) = tokio::sync::mpsc::channel(16);
        let found = self.actions.get(&req.action_type).cloned();
        match (found, self.configured(&req.action_type)) {
            (Some(a), Ok(ctx)) => {
                tokio::spawn(a.invoke(ctx, req.config, sender));
            }
            (None, _) => {
                let diagnostics = unknown_type("action type", &req.action_type);
                let _ = sender.try_send(Ok(crate::action::completed(diagnostics)));
            }
            (_, Err(e)) => {
                let _ = sender.try_send(Ok(crate::action::completed(protos(e))));
            }
        }
        answer(Box::pin(tokio_stream::wrappers::ReceiverStream::new(
            receiver,
        )))
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
        // The calls running now see their token cancelled; none is aborted (a handler
        // stopped between two writes could lose what it made). Calls after this one get
        // a fresh token: Terraform may go on (to save the state, or to destroy).
        let mut token = match self.stop.lock() {
            Ok(token) => token,
            Err(poisoned) => poisoned.into_inner(),
        };
        std::mem::take(&mut *token).cancel();
        answer(pb::stop_provider::Response::default())
    }
}

//! Write a Terraform / OpenTofu provider as typed resources, data sources, functions,
//! ephemeral resources, list resources and actions; `ctywire-provider` serves them over
//! the plugin protocol (protocol 6, and protocol 5 when it can express the schemas, on
//! [`ctywire_tfplugin`]).
//!
//! Each object's data is a `#[derive(ctywire::Object)]` struct, which gives its schema,
//! its cty type and its codec. A provider implements [`Provider`] (its configuration and
//! [`configure`](Provider::configure), which makes the data every handler gets: a
//! client), and one [`Resource`], [`DataSource`] or [`Function`] per type; the
//! [`Server`] routes each call by type name and answers every call Terraform makes:
//!
//! - schemas from the structs (a resource's with its [`Resource::VERSION`]);
//! - validation by declaration ([`validate`]): each known value checked against the
//!   Rust type that holds it (a `u16` attribute refuses `22.5` at its path, even while
//!   other attributes are unknown), and the rules the struct declares
//!   (`#[cty(length(..), regex = "..", one_of(..), range(..), size(..),
//!   conflicts_with(..), exactly_one_of(..), at_least_one_of(..), also_requires(..),
//!   validate = function)]`), unknown values skipped, each refusal at its attribute's
//!   path;
//! - plans without code ([`plan`]): Terraform's proposed new state,
//!   `#[cty(default = ..)]` where the configuration leaves an attribute null, computed
//!   attributes unknown where the resource changes (with their `#[cty(prefix = "..")]`
//!   and `#[cty(not_null)]` refinements), `#[cty(use_state_for_unknown)]` attributes
//!   kept, `#[cty(requires_replace)]` and `#[cty(requires_replace_if = function)]`
//!   attributes replacing; then [`Resource::modify_plan`] on a typed [`Plan`]; checked
//!   with the rules of every client ([`ctywire::schema::Block::check_plan_for`]: which
//!   one calls cannot be told, so a plan passes only where each accepts it) before it
//!   is returned;
//! - typed paths: each struct's `path()` (`Thing::path().disk().any().size()`), for
//!   [`Error::at`], [`Context::warn`] and [`Plan`], so a misspelled attribute does not
//!   compile;
//! - apply as [`create`](Resource::create), [`update`](Resource::update) and
//!   [`delete`](Resource::delete), the new state checked against the plan;
//! - import by id (by default: the `id` attribute set, then [`read`](Resource::read)),
//!   and by identity for an [`IdentifiedResource`], whose identity goes with every state
//!   ([`Server::resource_with_identity`]);
//! - objects moved from other resource types by `moved` blocks
//!   ([`Resource::move_state`]);
//! - ephemeral resources ([`EphemeralResource`]: open, renew, close), list resources for
//!   `terraform query` ([`ListResource`]) and actions ([`Action`]);
//! - functions with typed parameters, the last one possibly [`Variadic`], taking null or
//!   unknown arguments where their types hold them ([`ParameterType`]);
//! - state upgrades through [`upgrade`](Resource::upgrade) (a stored version without
//!   one is an error naming it);
//! - a panic in a handler becomes an error diagnostic naming the type and the call, and
//!   the provider serves on;
//! - below it all, the raw protocol: an [`Intercept`] sees and may change each call's
//!   request and response ([`intercept`]), for what the framework will not do (a test
//!   provider that breaks Terraform's rules on purpose);
//! - documentation pages in the Terraform Registry's layout ([`docs`]): the binary run
//!   as `terraform-provider-NAME docs` writes them, `docs --check` tells whether they
//!   are current.
//!
//! Validation and typed paths on their own:
//!
//! ```
//! use ctywire::Value;
//! use ctywire_provider::validate;
//!
//! #[derive(ctywire::Object)]
//! struct Server {
//!     #[cty(required, length(min = 1, max = 63), regex = "^[a-z0-9-]+$")]
//!     name: String,
//!     #[cty(optional, conflicts_with(socket))]
//!     port: Option<u16>,
//!     #[cty(optional)]
//!     socket: Option<String>,
//!     #[cty(block)]
//!     disk: Vec<Disk>,
//! }
//!
//! #[derive(ctywire::Object)]
//! struct Disk {
//!     #[cty(required, range(min = 1, max = 1024))]
//!     size: u32,
//! }
//!
//! let disk = |size: Value| Value::object([("size", size)]);
//! let config = Value::object([
//!     ("name", Value::unknown()), // not known yet: not checked
//!     ("port", Value::from(22)),
//!     ("socket", Value::from("/run/s")),
//!     ("disk", Value::list([disk(Value::from(10)), disk(Value::from(0))])),
//! ]);
//! let found = validate::check::<Server>(&config);
//! let paths: Vec<String> = found.iter().map(|d| d.path.to_string()).collect();
//! assert_eq!(paths, [".port", ".disk[1].size"]);
//! assert_eq!(found[0].detail, "`port` cannot be set together with `socket`.");
//!
//! // Typed paths name the same attributes; `any()` matches every element.
//! assert_eq!(ctywire::Path::from(Server::path().disk().index(1).size()), found[1].path);
//! let sizes = Server::path().disk().any().size();
//! assert!(ctywire::object::PathBuilder::expression(&sizes).matches(&found[1].path));
//! ```
//!
//! A whole provider:
//!
//! ```no_run
//! use ctywire::Known;
//! use ctywire_provider::{Context, Error, Provider, Resource, Result, Server};
//!
//! /// The provider block.
//! #[derive(ctywire::Object)]
//! struct Config {
//!     /// What ids start with.
//!     #[cty(optional)]
//!     prefix: Option<String>,
//! }
//!
//! struct Example;
//!
//! impl Provider for Example {
//!     const TYPE_NAME: &'static str = "example";
//!     type Config = Config;
//!     type Data = String; // what every handler gets (a client): here, the prefix
//!
//!     async fn configure(&self, config: Config) -> Result<String> {
//!         Ok(config.prefix.unwrap_or_else(|| "x-".into()))
//!     }
//! }
//!
//! /// A thing (kept in Terraform's state alone, the default `read`).
//! #[derive(ctywire::Object)]
//! struct Thing {
//!     /// Its name; a new name replaces the thing.
//!     #[cty(required, requires_replace, length(min = 1, max = 63))]
//!     name: String,
//!     /// From 1 to 100 (refused at validate otherwise).
//!     #[cty(optional, range(min = 1, max = 100))]
//!     size: Option<u16>,
//!     /// `standard` unless set.
//!     #[cty(optional, computed, default = "standard", one_of("standard", "fast"))]
//!     tier: Known<String>,
//!     /// Set at create, then kept.
//!     #[cty(computed, use_state_for_unknown)]
//!     id: Known<String>,
//! }
//!
//! struct Things;
//!
//! impl Resource<String> for Things {
//!     const NAME: &'static str = "thing"; // example_thing
//!     type State = Thing;
//!
//!     async fn create(&self, ctx: &Context<String>, mut thing: Thing) -> Result<Thing> {
//!         if thing.name == "reserved" {
//!             let e = Error::new("Name taken", "the name `reserved` is the provider's");
//!             return Err(e.at(Thing::path().name())); // a typed path
//!         }
//!         thing.id = Known::Known(format!("{}{}", ctx.data(), thing.name));
//!         Ok(thing)
//!     }
//!
//!     async fn update(&self, _: &Context<String>, _prior: Thing, planned: Thing) -> Result<Thing> {
//!         Ok(planned)
//!     }
//!
//!     async fn delete(&self, _: &Context<String>, _thing: Thing) -> Result<()> {
//!         Ok(())
//!     }
//! }
//!
//! #[tokio::main]
//! async fn main() {
//!     Server::new(Example).resource(Things).serve().await
//! }
//! ```

mod action;
mod arguments;
pub mod docs;
mod ephemeral;
mod error;
mod identity;
pub mod intercept;
mod list;
pub mod log;
mod modify;
pub mod plan;
mod private;
mod server;
mod stored;
pub mod timeouts;
mod v5;
pub mod validate;

#[cfg(test)]
mod unconfigured_tests;

use std::future::Future;
use std::sync::{Arc, Mutex};

use ctywire::object::{JsonField, MsgpackField, Object};
use ctywire::Path;
use ctywire_tfplugin::tfplugin6::RawState;

pub use action::{Action, Progress};
pub use arguments::{Arguments, ParameterType, Variadic};
pub use ephemeral::{EphemeralResource, NoPrivate, Opened, Renewed};
pub use error::{Diagnostic, Error, FunctionError, Result, Severity};
pub use identity::{IdentifiedResource, MovedState};
pub use intercept::{Intercept, Intercepted};
pub use list::{ListResource, Listed, Listing, ResourceIdentity, ResourceState};
pub use modify::Plan;
pub use server::Server;

/// A struct that can be an object's data: `#[derive(ctywire::Object)]` gives all of it.
pub trait Model: Object + MsgpackField + JsonField + Send + 'static {}

impl<T: Object + MsgpackField + JsonField + Send + 'static> Model for T {}

/// The provider: its type name, its configuration (the `provider` block) and what
/// configuring it makes.
pub trait Provider: Send + Sync + 'static {
    /// The type name (`example` for `example_thing`, `provider::example::f`).
    const TYPE_NAME: &'static str;

    /// The `provider` block. Attributes left out are null, so they are `Option`s.
    type Config: Model;

    /// What [`configure`](Provider::configure) makes and every resource and data source
    /// handler gets ([`Context::data`]): a client, settings.
    type Data: Send + Sync + 'static;

    /// Configures the provider (Terraform does before any resource or data source call
    /// that needs it).
    fn configure(&self, config: Self::Config) -> impl Future<Output = Result<Self::Data>> + Send;
}

/// What a handler gets besides its values: the provider's data, a place for
/// warnings, and the signal that Terraform asked the provider to stop.
pub struct Context<D> {
    /// None in a move before the provider is configured.
    data: Option<Arc<D>>,
    type_name: String,
    warnings: Arc<Mutex<Vec<Diagnostic>>>,
    stop: tokio_util::sync::CancellationToken,
    private: private::Slot,
    config: Option<Arc<ctywire::Value>>,
}

impl<D> Context<D> {
    pub(crate) fn new(
        data: Arc<D>,
        type_name: &str,
        stop: tokio_util::sync::CancellationToken,
    ) -> Context<D> {
        Context {
            data: Some(data),
            type_name: type_name.to_owned(),
            warnings: Arc::default(),
            stop,
            private: private::Slot::default(),
            config: None,
        }
    }

    /// The same context with the call's configuration (create and update).
    pub(crate) fn with_config(mut self, config: ctywire::Value) -> Context<D> {
        self.config = Some(Arc::new(config));
        self
    }

    /// The configuration of the resource being created or updated, as a `T`: where a
    /// handler reads its write-only attributes (`#[cty(optional, write_only)]`), which
    /// are null in the plan and the state it gets (Terraform never stores them) and
    /// set here as the configuration sets them. `T` is the resource's state struct or
    /// any struct of its schema.
    ///
    /// ```
    /// # use ctywire::Known;
    /// # use ctywire_provider::{Context, Result};
    /// #[derive(ctywire::Object)]
    /// struct Login {
    ///     #[cty(required)]
    ///     user: String,
    ///     /// Sent to the service at create, never stored.
    ///     #[cty(optional, sensitive, write_only)]
    ///     password: Option<String>,
    ///     #[cty(computed)]
    ///     id: Known<String>,
    /// }
    ///
    /// async fn create(ctx: &Context<()>, planned: Login) -> Result<Login> {
    ///     assert!(planned.password.is_none()); // write-only: null in the plan
    ///     let config: Login = ctx.config()?;
    ///     let _password = config.password; // as configured
    ///     Ok(planned)
    /// }
    /// ```
    ///
    /// # Errors
    ///
    /// In a call without a configuration (anything but create and update), or when the
    /// configuration does not fit `T`, at the path where it does not.
    pub fn config<T: MsgpackField>(&self) -> Result<T> {
        let Some(config) = &self.config else {
            return Err(Error::new(
                "No configuration",
                format!(
                    "Context::config reads the configuration of a create or update of {}, and this call has none",
                    self.type_name
                ),
            ));
        };
        ctywire::object::from_value(config).map_err(|e| Error::value(&e, "Invalid configuration"))
    }

    /// Completes when Terraform asks the provider to stop (StopProvider: the user
    /// pressed Ctrl-C). The handler is never dropped for it: it decides what to
    /// finish, what to give up and what to return (an error, or the state of what it
    /// made so far, so that Terraform records it).
    ///
    /// ```
    /// # use ctywire_provider::{Context, Error, Result};
    /// # async fn wait_until_ready(_: &str) {}
    /// async fn create_slowly(ctx: &Context<String>, id: &str) -> Result<()> {
    ///     tokio::select! {
    ///         () = wait_until_ready(id) => Ok(()),
    ///         () = ctx.cancelled() => Err(Error::new("Interrupted", "Terraform asked the provider to stop")),
    ///     }
    /// }
    /// ```
    pub async fn cancelled(&self) {
        self.stop.cancelled().await;
    }

    /// Whether Terraform has asked the provider to stop since this call began (see
    /// [`cancelled`](Context::cancelled)).
    pub fn is_cancelled(&self) -> bool {
        self.stop.is_cancelled()
    }

    pub(crate) fn token(&self) -> tokio_util::sync::CancellationToken {
        self.stop.clone()
    }

    /// The context of a call that Terraform makes before it configures the provider
    /// (a move): without data.
    pub(crate) fn unconfigured(
        type_name: &str,
        stop: tokio_util::sync::CancellationToken,
    ) -> Context<D> {
        Context {
            data: None,
            type_name: type_name.to_owned(),
            warnings: Arc::default(),
            stop,
            private: private::Slot::default(),
            config: None,
        }
    }

    /// What [`Provider::configure`] made.
    ///
    /// # Panics
    ///
    /// Where the provider is not configured yet: Terraform calls
    /// [`Resource::move_state`] (and [`IdentifiedResource::identity`] of the moved
    /// state) while it prepares a plan, before it configures the provider; there, read
    /// [`try_data`](Context::try_data). The framework reports a panic in a handler as
    /// an error diagnostic naming the resource and the call.
    pub fn data(&self) -> &D {
        self.try_data()
            .expect("the provider is not configured yet in this call: use Context::try_data")
    }

    /// What [`Provider::configure`] made, or `None` in a call that Terraform makes
    /// before it configures the provider (a move: see [`data`](Context::data)).
    pub fn try_data(&self) -> Option<&D> {
        self.data.as_deref()
    }

    /// The type name of the resource or data source called (`example_thing`).
    pub fn type_name(&self) -> &str {
        &self.type_name
    }

    /// Adds a warning for Terraform to show, about the attribute at `path`
    /// ([`Path::root`] for the whole object, or a typed path: `Thing::path().size()`).
    pub fn warn(
        &self,
        summary: impl Into<String>,
        detail: impl Into<String>,
        path: impl Into<Path>,
    ) {
        let warning = Diagnostic::warning(summary, detail).at(path);
        if let Ok(mut warnings) = self.warnings.lock() {
            warnings.push(warning);
        }
    }

    pub(crate) fn warnings(&self) -> Arc<Mutex<Vec<Diagnostic>>> {
        Arc::clone(&self.warnings)
    }

    /// The same context (its warnings shared), for a part of the handler that needs its
    /// own.
    pub(crate) fn clone_for_handler(&self) -> Context<D> {
        Context {
            data: self.data.clone(),
            type_name: self.type_name.clone(),
            warnings: Arc::clone(&self.warnings),
            stop: self.stop.clone(),
            private: self.private.clone(),
            config: self.config.clone(),
        }
    }
}

/// A managed resource type: its state struct and the calls that change the real
/// object. Planning needs no code (see the crate documentation); `D` is the
/// provider's [`Provider::Data`].
pub trait Resource<D: Send + Sync + 'static>: Send + Sync + 'static {
    /// The type name after the provider's and `_` (`thing` for `example_thing`).
    const NAME: &'static str;

    /// The schema version; a state stored with an earlier one goes through
    /// [`upgrade`](Resource::upgrade).
    const VERSION: u64 = 0;

    /// The time limits of the operations where the configuration's `timeouts` block
    /// (a field of [`timeouts::Timeouts`]) sets none ([`timeouts`]).
    const TIMEOUTS: timeouts::Defaults = timeouts::Defaults::NONE;

    /// The resource's data: configuration, plan and state.
    type State: Model;

    /// Creates the object `planned` describes and returns its state: every value
    /// `planned` knows kept, the unknown ones (computed) known.
    fn create(
        &self,
        ctx: &Context<D>,
        planned: Self::State,
    ) -> impl Future<Output = Result<Self::State>> + Send;

    /// Edits the plan the framework made (see [`Plan`]) before it is checked with
    /// Terraform's rules and returned: a value the provider can tell before apply, a
    /// replacement no declaration expresses, a warning, private state for the apply
    /// ([`Context::set_private`]: the create or update of this plan reads it with
    /// [`Context::private`]). Called on creates and updates (not on destroys), with
    /// the provider configured. By default the plan stays as it is and the private
    /// state as the prior one was. Write-only attributes are null in the plan whatever
    /// it sets.
    fn modify_plan(
        &self,
        ctx: &Context<D>,
        plan: &mut Plan<Self::State>,
    ) -> impl Future<Output = Result<()>> + Send {
        let _ = (ctx, plan);
        async { Ok(()) }
    }

    /// The object's state now, or `None` when it is gone (Terraform then plans to
    /// create it again). By default the state as it is: for objects that live in
    /// Terraform's state alone.
    fn read(
        &self,
        ctx: &Context<D>,
        state: Self::State,
    ) -> impl Future<Output = Result<Option<Self::State>>> + Send {
        let _ = ctx;
        async move { Ok(Some(state)) }
    }

    /// Changes the object from `prior` to `planned` (never a change that
    /// `requires_replace`: that is a delete and a create) and returns its state.
    fn update(
        &self,
        ctx: &Context<D>,
        prior: Self::State,
        planned: Self::State,
    ) -> impl Future<Output = Result<Self::State>> + Send;

    /// Deletes the object.
    fn delete(
        &self,
        ctx: &Context<D>,
        state: Self::State,
    ) -> impl Future<Output = Result<()>> + Send;

    /// The state of the object an import names by `id`; Terraform then calls
    /// [`read`](Resource::read) with it. By default the state with its `id` attribute
    /// set to `id` and every other attribute null, which needs a struct whose other
    /// fields can be null (`Option`, `Known`, `Vec` of blocks...); otherwise write it.
    fn import(
        &self,
        ctx: &Context<D>,
        id: String,
    ) -> impl Future<Output = Result<Self::State>> + Send {
        let name = ctx.type_name().to_owned();
        async move { server::import_by_id::<Self::State>(&name, &id) }
    }

    /// A state stored with schema version `stored.version()`, older than
    /// [`VERSION`](Resource::VERSION), as a state of the current version. A resource
    /// whose `VERSION` is above 0 writes one for each version it may find; without one,
    /// an old state is an error naming its version, never a state read as if it were
    /// current.
    fn upgrade(
        &self,
        ctx: &Context<D>,
        stored: StoredState,
    ) -> impl Future<Output = Result<Self::State>> + Send {
        let _ = ctx;
        async move {
            Err(Error::new(
                "Unsupported state version",
                format!(
                    "this state was stored with schema version {} of the resource, which is now at version {}, and the provider has no upgrade for it (Resource::upgrade)",
                    stored.version(),
                    Self::VERSION
                ),
            ))
        }
    }

    /// The resource types whose objects a `moved` block may move to this one
    /// (full type names: `other_server`), each through
    /// [`move_state`](Resource::move_state). None by default, and then the provider
    /// does not advertise moves.
    const MOVES_FROM: &'static [&'static str] = &[];

    /// The state of an object that a `moved` block moves from a resource type of
    /// [`MOVES_FROM`](Resource::MOVES_FROM) to this one: read `moved` with the struct
    /// of its [`source_type`](MovedState::source_type) at its
    /// [`version`](MovedState::version). Terraform then calls
    /// [`read`](Resource::read) with it. Terraform moves objects before it configures
    /// the provider: `ctx` may have no data ([`Context::try_data`]).
    fn move_state(
        &self,
        ctx: &Context<D>,
        moved: MovedState,
    ) -> impl Future<Output = Result<Self::State>> + Send {
        let _ = ctx;
        async move {
            Err(Error::new(
                "Unsupported move",
                format!(
                    "the resource has no move_state for objects of {} (Resource::move_state)",
                    moved.source_type()
                ),
            ))
        }
    }
}

/// A state as Terraform stored it, with an earlier schema version: read it with the
/// struct of that version.
pub struct StoredState {
    version: u64,
    raw: Option<RawState>,
}

impl StoredState {
    pub(crate) fn new(version: u64, raw: Option<RawState>) -> StoredState {
        StoredState { version, raw }
    }

    /// The schema version it was stored with.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The state as a `T` (the struct of [`version`](StoredState::version)'s schema):
    /// JSON or the legacy flatmap form, attributes `T` does not have left out. A LIST,
    /// SET, MAP or GROUP block of `T` that the stored state does not have (a block added
    /// since, when `T` is the current struct) reads as no blocks, as Terraform reads it;
    /// an attribute it does not have reads as null.
    ///
    /// # Errors
    ///
    /// When the stored state does not fit `T`, at the path where it does not.
    pub fn decode<T: Object + JsonField>(&self) -> Result<T> {
        let invalid = |e: ctywire::Error| Error::value(&e, "Invalid stored state");
        let value =
            ctywire_tfplugin::raw_state::decode(self.raw.as_ref(), &<T as Object>::cty_type())
                .map_err(invalid)?;
        let value = stored::absent_blocks_empty(value, &T::schema_block());
        ctywire::object::from_value(&value).map_err(invalid)
    }
}

/// A data source type: its struct (configuration and result in one) and how it reads.
pub trait DataSource<D: Send + Sync + 'static>: Send + Sync + 'static {
    /// The type name after the provider's and `_` (`image` for `example_image`).
    const NAME: &'static str;

    /// The data source's data: the configuration in, the result out.
    type State: Model;

    /// Reads the data the wholly known `config` asks for: `config` with its computed
    /// attributes set.
    fn read(
        &self,
        ctx: &Context<D>,
        config: Self::State,
    ) -> impl Future<Output = Result<Self::State>> + Send;
}

/// A provider-defined function (`provider::example::NAME(...)`), with typed parameters.
/// Terraform calls functions before it configures the provider, so they get no
/// provider data.
pub trait Function: Send + Sync + 'static {
    /// The function's name.
    const NAME: &'static str;

    /// A one-line summary.
    const SUMMARY: &'static str = "";

    /// The description (Markdown).
    const DESCRIPTION: &'static str = "";

    /// The parameters' names, one for each element of [`Arguments`](Function::Arguments)
    /// (checked when the server is built).
    const PARAMETERS: &'static [&'static str];

    /// The parameters' types, as a tuple: `(String, u32)`.
    type Arguments: Arguments;

    /// The result.
    type Output: ctywire::object::FieldType + MsgpackField + Send + 'static;

    /// The definition Terraform sees, given the one the constants and types make: by
    /// default that one. A function edits it for what they do not say: parameter
    /// descriptions, a plain-text description, a `dynamic` parameter ([`ctywire::Value`])
    /// that takes unknowns but not null, or the return type of an
    /// [`Output`](Function::Output) of [`ctywire::Value`] (whose type is `dynamic`): a
    /// `string` result that may be an unknown refined as not null. The result is encoded
    /// with the definition's return type, which must hold every value `call` returns.
    fn definition(generated: ctywire::schema::Function) -> ctywire::schema::Function {
        generated
    }

    /// Calls the function with the arguments, known and non-null but where their
    /// [`ParameterType`]s take null or unknown values.
    fn call(
        &self,
        arguments: Self::Arguments,
    ) -> impl Future<Output = Result<Self::Output, FunctionError>> + Send;
}

//! List resources ([`ListResource`]): the objects of a managed resource type that
//! exist, for Terraform 1.14+ `terraform query` (`list` blocks in `.tfquery.hcl` files).

use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;

use ctywire::Type;
use ctywire_tfplugin::dynamic;
use ctywire_tfplugin::tfplugin6 as pb;
use tokio::sync::mpsc;

use crate::error::{Diagnostic, Error, Result};
use crate::identity::{encode_identity, IdentifiedResource};
use crate::{Context, Model, Resource};

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// Lists the objects of a managed resource type with an identity
/// ([`IdentifiedResource`]) that exist, for `terraform query`: a `list` block of the
/// resource type's name gives the [`Config`](ListResource::Config) (its `config`
/// block), and the provider pushes each object it finds to the [`Listing`], with its
/// identity and, when Terraform asks for it, its state. Serve it with
/// [`Server::list_resource`](crate::Server::list_resource).
///
/// ```
/// use ctywire_provider::{Context, IdentifiedResource, ListResource, Listed, Listing, Result};
/// # use ctywire_provider::Resource;
/// # #[derive(ctywire::Object)] struct Thing { #[cty(required)] name: String }
/// # #[derive(ctywire::Object)] struct ThingId { #[cty(required)] name: String }
/// # struct Things;
/// # impl Resource<Vec<String>> for Things {
/// #     const NAME: &'static str = "thing";
/// #     type State = Thing;
/// #     async fn create(&self, _: &Context<Vec<String>>, t: Thing) -> Result<Thing> { Ok(t) }
/// #     async fn update(&self, _: &Context<Vec<String>>, _: Thing, t: Thing) -> Result<Thing> { Ok(t) }
/// #     async fn delete(&self, _: &Context<Vec<String>>, _: Thing) -> Result<()> { Ok(()) }
/// # }
/// # impl IdentifiedResource<Vec<String>> for Things {
/// #     type Identity = ThingId;
/// #     fn identity(&self, t: &Thing) -> ThingId { ThingId { name: t.name.clone() } }
/// # }
///
/// /// The `config` block of `list "example_thing" "..."`.
/// #[derive(ctywire::Object)]
/// struct Filter {
///     #[cty(optional)]
///     prefix: Option<String>,
/// }
///
/// struct ListThings;
///
/// impl ListResource<Vec<String>> for ListThings {
///     type Resource = Things; // lists example_thing
///     type Config = Filter;
///
///     async fn list(
///         &self,
///         ctx: &Context<Vec<String>>, // the provider's data: here, the names that exist
///         filter: Filter,
///         listing: &mut Listing<Thing, ThingId>,
///     ) -> Result<()> {
///         let prefix = filter.prefix.unwrap_or_default();
///         for name in ctx.data().iter().filter(|n| n.starts_with(&prefix)) {
///             let found = Listed::new(name, ThingId { name: name.clone() })
///                 .state(Thing { name: name.clone() });
///             if !listing.push(found).await {
///                 break; // the limit, or Terraform hung up
///             }
///         }
///         Ok(())
///     }
/// }
/// ```
pub trait ListResource<D: Send + Sync + 'static>: Send + Sync + 'static {
    /// The managed resource type whose objects are listed (the `list` block's type).
    type Resource: IdentifiedResource<D>;

    /// The `list` block's `config` block.
    type Config: Model;

    /// Pushes the objects that `config` selects to `listing`, stopping when
    /// [`Listing::push`] returns false.
    fn list(
        &self,
        ctx: &Context<D>,
        config: Self::Config,
        listing: &mut Listing<ResourceState<Self, D>, ResourceIdentity<Self, D>>,
    ) -> impl Future<Output = Result<()>> + Send;
}

/// The state struct of a list resource's resource type.
pub type ResourceState<L, D> = <<L as ListResource<D>>::Resource as Resource<D>>::State;

/// The identity struct of a list resource's resource type.
pub type ResourceIdentity<L, D> =
    <<L as ListResource<D>>::Resource as IdentifiedResource<D>>::Identity;

/// One object a [`ListResource`] found.
#[derive(Debug)]
pub struct Listed<S, I> {
    /// What `terraform query` shows for it.
    pub display_name: String,
    /// Its identity.
    pub identity: I,
    /// Its state, sent when Terraform asks for it (`include_resource = true`).
    pub state: Option<S>,
    /// Warnings about it.
    pub warnings: Vec<Diagnostic>,
}

impl<S, I> Listed<S, I> {
    /// An object shown as `display_name`, named by `identity`.
    pub fn new(display_name: impl Into<String>, identity: I) -> Listed<S, I> {
        Listed {
            display_name: display_name.into(),
            identity,
            state: None,
            warnings: Vec::new(),
        }
    }

    /// Its state, for Terraform to show when it asks for it
    /// ([`Listing::include_resource_object`]).
    #[must_use]
    pub fn state(mut self, state: S) -> Listed<S, I> {
        self.state = Some(state);
        self
    }

    /// A warning about it.
    #[must_use]
    pub fn warn(mut self, summary: impl Into<String>, detail: impl Into<String>) -> Listed<S, I> {
        self.warnings.push(Diagnostic::warning(summary, detail));
        self
    }
}

type Event = std::result::Result<pb::list_resource::Event, tonic::Status>;

/// Where a [`ListResource`] pushes what it finds: each object goes to Terraform as it
/// is pushed.
pub struct Listing<S, I> {
    sender: mpsc::Sender<Event>,
    include_resource_object: bool,
    limit: Option<u64>,
    sent: u64,
    _types: PhantomData<fn(S, I)>,
}

impl<S: Model, I: Model> Listing<S, I> {
    /// Whether Terraform asks for each object's state (`include_resource = true`): a
    /// [`Listed::state`] is sent only then.
    pub fn include_resource_object(&self) -> bool {
        self.include_resource_object
    }

    /// How many objects Terraform takes at most (`limit`), if it says.
    pub fn limit(&self) -> Option<u64> {
        self.limit
    }

    /// Sends `listed` to Terraform. False when no more are wanted (the limit is reached,
    /// or Terraform stopped listening): then stop.
    pub async fn push(&mut self, listed: Listed<S, I>) -> bool {
        if self.limit.is_some_and(|limit| self.sent >= limit) {
            return false;
        }
        let mut diagnostic: Vec<pb::Diagnostic> =
            listed.warnings.iter().map(Diagnostic::to_proto).collect();
        let identity = match encode_identity(&listed.identity) {
            Ok(identity) => Some(identity),
            Err(e) => {
                diagnostic.extend(e.diagnostics().iter().map(Diagnostic::to_proto));
                None
            }
        };
        let resource_object = match (self.include_resource_object, &listed.state) {
            (true, Some(state)) => match dynamic::encode_object(state) {
                Ok(state) => Some(state),
                Err(e) => {
                    diagnostic.extend(crate::server::protos(Error::value(&e, "Invalid state")));
                    None
                }
            },
            _ => None,
        };
        let event = pb::list_resource::Event {
            identity,
            display_name: listed.display_name,
            resource_object,
            diagnostic,
        };
        self.sent += 1;
        self.sender.send(Ok(event)).await.is_ok()
            && self.limit.is_none_or(|limit| self.sent < limit)
    }
}

/// A list resource type, its structs' types erased.
pub(crate) trait AnyList<D>: Send + Sync + 'static {
    fn validate(&self, config: Option<&pb::DynamicValue>) -> Vec<pb::Diagnostic>;
    fn list(
        self: Arc<Self>,
        ctx: Context<D>,
        req: pb::list_resource::Request,
        sender: mpsc::Sender<Event>,
    ) -> BoxFuture<()>;
}

pub(crate) struct ListEntry<L> {
    pub(crate) lister: L,
    pub(crate) name: String,
    pub(crate) ty: Type,
}

/// An event with the diagnostics alone (an error of the listing as a whole).
pub(crate) fn diagnostics_event(diagnostic: Vec<pb::Diagnostic>) -> pb::list_resource::Event {
    pb::list_resource::Event {
        diagnostic,
        ..Default::default()
    }
}

impl<D: Send + Sync + 'static, L: ListResource<D>> AnyList<D> for ListEntry<L> {
    fn validate(&self, config: Option<&pb::DynamicValue>) -> Vec<pb::Diagnostic> {
        crate::server::validate_config::<L::Config>(&self.ty, config)
    }

    fn list(
        self: Arc<Self>,
        ctx: Context<D>,
        req: pb::list_resource::Request,
        sender: mpsc::Sender<Event>,
    ) -> BoxFuture<()> {
        Box::pin(async move {
            let warnings = ctx.warnings();
            let this = Arc::clone(&self);
            let mut listing = Listing {
                sender: sender.clone(),
                include_resource_object: req.include_resource_object,
                limit: u64::try_from(req.limit).ok().filter(|l| *l > 0),
                sent: 0,
                _types: PhantomData,
            };
            let config = req.config;
            let handler = async move {
                let config: L::Config = dynamic::decode_object(config.as_ref())
                    .map_err(|e| Error::value(&e, "Invalid configuration"))?;
                this.lister.list(&ctx, config, &mut listing).await
            };
            let (_, diagnostics) =
                crate::server::run(&self.name, "list", Some(warnings), handler).await;
            if !diagnostics.is_empty() {
                let _ = sender.send(Ok(diagnostics_event(diagnostics))).await;
            }
        })
    }
}

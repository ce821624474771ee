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
/// identity and, when Terraform asks for it, its state. Serve it with its resource
/// type, [`Server::resource_with_list`](crate::Server::resource_with_list).
///
/// Terraform (1.15.5) sends the `config` block as the struct's object, the block's
/// `limit` and whether `include_resource = true`; it shows each result's display name
/// and identity, and `terraform query -generate-config-out=FILE` writes a `resource`
/// block (from the state) and an `import` block by identity for each.
///
/// ```
/// use ctywire_provider::{Context, IdentifiedResource, ListResource, Listing, Result};
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
/// #     fn identity(&self, _: &Context<Vec<String>>, t: &Thing) -> ThingId { ThingId { name: t.name.clone() } }
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
///             // Its identity from Things' IdentifiedResource::identity (or push a
///             // Listed with an identity of its own).
///             if !listing.push_state(name, Thing { name: name.clone() }).await {
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
    /// The resource type's [`IdentifiedResource::identity`], with the context.
    identify: Identify<S, I>,
    _types: PhantomData<fn(S, I)>,
}

type Identify<S, I> = Box<dyn Fn(&S) -> I + Send + Sync>;

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

    /// Sends the object `state` describes, shown as `display_name`, with the identity
    /// the resource type gives it ([`IdentifiedResource::identity`], the one every
    /// state of it goes with) and, when Terraform asks for it, the state. False when no
    /// more are wanted: then stop.
    pub async fn push_state(&mut self, display_name: impl Into<String>, state: S) -> bool {
        let identity = (self.identify)(&state);
        self.push(Listed::new(display_name, identity).state(state))
            .await
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

pub(crate) struct ListEntry<L, R> {
    pub(crate) lister: L,
    /// The resource type listed, for its identities.
    pub(crate) resource: Arc<R>,
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

impl<D: Send + Sync + 'static, L: ListResource<D>> AnyList<D> for ListEntry<L, L::Resource> {
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
            let (resource, identity_ctx) = (Arc::clone(&self.resource), ctx.clone_for_handler());
            let mut listing = Listing {
                sender: sender.clone(),
                include_resource_object: req.include_resource_object,
                limit: u64::try_from(req.limit).ok().filter(|l| *l > 0),
                sent: 0,
                identify: Box::new(move |state| resource.identity(&identity_ctx, state)),
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

/// Protocol 5 serves the object kinds of this crate as protocol 6 does: ephemeral
/// resources, identities, lists (a stream recoded event by event) and variadic
/// functions.
#[cfg(test)]
mod protocol5 {
    use ctywire::object::Object;
    use ctywire::{Known, Value};
    use ctywire_tfplugin::tfplugin5 as pb5;
    use ctywire_tfplugin::tfplugin5::provider_server::Provider as Service5;
    use tokio_stream::StreamExt;
    use tonic::Request;

    use crate::v5::V5;
    use crate::*;

    #[derive(ctywire::Object)]
    struct Config {}

    struct P;

    impl Provider for P {
        const TYPE_NAME: &'static str = "p";
        type Config = Config;
        type Data = ();
        async fn configure(&self, _: Config) -> Result<()> {
            Ok(())
        }
    }

    #[derive(ctywire::Object)]
    struct Thing {
        #[cty(required)]
        name: String,
    }

    #[derive(ctywire::Object)]
    struct ThingId {
        #[cty(required)]
        name: String,
    }

    struct Things;

    impl Resource<()> for Things {
        const NAME: &'static str = "thing";
        type State = Thing;
        async fn create(&self, _: &Context<()>, t: Thing) -> Result<Thing> {
            Ok(t)
        }
        async fn update(&self, _: &Context<()>, _: Thing, t: Thing) -> Result<Thing> {
            Ok(t)
        }
        async fn delete(&self, _: &Context<()>, _: Thing) -> Result<()> {
            Ok(())
        }
    }

    impl IdentifiedResource<()> for Things {
        type Identity = ThingId;
        fn identity(&self, _: &Context<()>, t: &Thing) -> ThingId {
            ThingId {
                name: t.name.clone(),
            }
        }
    }

    #[derive(ctywire::Object)]
    struct Count {
        #[cty(required)]
        n: u8,
    }

    struct ListThings;

    impl ListResource<()> for ListThings {
        type Resource = Things;
        type Config = Count;
        async fn list(
            &self,
            _: &Context<()>,
            count: Count,
            listing: &mut Listing<Thing, ThingId>,
        ) -> Result<()> {
            for i in 0..count.n {
                let name = format!("t{i}");
                let listed = Listed::new(&name, ThingId { name: name.clone() })
                    .state(Thing { name: name.clone() });
                if !listing.push(listed).await {
                    break;
                }
            }
            Err(Error::new("Listing stopped", "after the limit"))
        }
    }

    #[derive(ctywire::Object)]
    struct Secret {
        #[cty(computed)]
        value: Known<String>,
    }

    struct Secrets;

    impl EphemeralResource<()> for Secrets {
        const NAME: &'static str = "secret";
        type Object = Secret;
        type Private = NoPrivate;
        async fn open(&self, _: &Context<()>, _: Secret) -> Result<Opened<Secret, NoPrivate>> {
            Ok(Opened::new(Secret {
                value: Known::Known("s".into()),
            }))
        }
    }

    #[derive(ctywire::Object)]
    struct Say {
        #[cty(required)]
        text: String,
    }

    struct Sayer;

    impl Action<()> for Sayer {
        const NAME: &'static str = "say";
        type Config = Say;
        async fn invoke(&self, _: &Context<()>, say: Say, progress: &mut Progress) -> Result<()> {
            progress.report(say.text).await;
            Err(Error::new("Said", "and failed"))
        }
    }

    struct Join;

    impl Function for Join {
        const NAME: &'static str = "join";
        const PARAMETERS: &'static [&'static str] = &["parts"];
        type Arguments = (Variadic<String>,);
        type Output = String;
        async fn call(&self, (parts,): Self::Arguments) -> Result<String, FunctionError> {
            Ok(parts.0.concat())
        }
    }

    async fn v5() -> V5<P> {
        let s = V5(Server::new(P)
            .resource_with_list(Things, ListThings)
            .ephemeral_resource(Secrets)
            .action(Sayer)
            .function(Join));
        let config = ctywire_tfplugin::dynamic::encode(
            &Value::object(Vec::<(String, Value)>::new()),
            &Config::cty_type(),
        )
        .unwrap();
        s.configure(Request::new(pb5::configure::Request {
            config: Some(config),
            ..Default::default()
        }))
        .await
        .unwrap();
        s
    }

    #[tokio::test]
    async fn lists_stream_on_protocol_5_up_to_the_limit() {
        let s = v5().await;
        let config = ctywire_tfplugin::dynamic::encode(
            &Value::object([("n", Value::from(5))]),
            &Count::cty_type(),
        )
        .unwrap();
        let events: Vec<pb5::list_resource::Event> = s
            .list_resource(Request::new(pb5::list_resource::Request {
                type_name: "p_thing".into(),
                config: Some(config),
                include_resource_object: false,
                limit: 2,
            }))
            .await
            .unwrap()
            .into_inner()
            .map(|e| e.unwrap())
            .collect()
            .await;
        let names: Vec<&str> = events.iter().map(|e| e.display_name.as_str()).collect();
        // Two objects, then the handler's error in an event of its own.
        assert_eq!(names, ["t0", "t1", ""]);
        assert!(events[0].resource_object.is_none());
        let identity = events[1]
            .identity
            .as_ref()
            .and_then(|i| i.identity_data.as_ref());
        let identity: ThingId = ctywire_tfplugin::dynamic::decode_object(identity).unwrap();
        assert_eq!(identity.name, "t1");
        assert_eq!(events[2].diagnostic[0].summary, "Listing stopped");
    }

    #[tokio::test]
    async fn every_kind_is_served_on_protocol_5() {
        let s = v5().await;
        let metadata = s
            .get_metadata(Request::new(pb5::get_metadata::Request {}))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(metadata.ephemeral_resources[0].type_name, "p_secret");
        assert_eq!(metadata.list_resources[0].type_name, "p_thing");
        assert_eq!(metadata.actions[0].type_name, "p_say");
        let config = Value::object([("text", Value::from("hi"))]);
        let events: Vec<pb5::invoke_action::Event> = s
            .invoke_action(Request::new(pb5::invoke_action::Request {
                action_type: "p_say".into(),
                config: Some(ctywire_tfplugin::dynamic::encode(&config, &Say::cty_type()).unwrap()),
                ..Default::default()
            }))
            .await
            .unwrap()
            .into_inner()
            .map(|e| e.unwrap())
            .collect()
            .await;
        use pb5::invoke_action::event::Type;
        match &events[..] {
            [pb5::invoke_action::Event {
                r#type: Some(Type::Progress(p)),
            }, pb5::invoke_action::Event {
                r#type: Some(Type::Completed(c)),
            }] => {
                assert_eq!(p.message, "hi");
                assert_eq!(c.diagnostics[0].summary, "Said");
            }
            other => panic!("{other:?}"),
        }
        let schema = s
            .get_schema(Request::new(pb5::get_provider_schema::Request {}))
            .await
            .unwrap()
            .into_inner();
        assert!(schema.ephemeral_resource_schemas.contains_key("p_secret"));
        assert!(schema.list_resource_schemas.contains_key("p_thing"));
        let variadic = schema.functions["join"]
            .variadic_parameter
            .as_ref()
            .unwrap();
        assert_eq!(variadic.name, "parts");
        let identities = s
            .get_resource_identity_schemas(Request::new(
                pb5::get_resource_identity_schemas::Request {},
            ))
            .await
            .unwrap()
            .into_inner();
        assert!(identities.identity_schemas["p_thing"].identity_attributes[0].required_for_import);
        let opened = s
            .open_ephemeral_resource(Request::new(pb5::open_ephemeral_resource::Request {
                type_name: "p_secret".into(),
                config: Some(
                    ctywire_tfplugin::dynamic::encode(
                        &Value::object([("value", Value::Null)]),
                        &Secret::cty_type(),
                    )
                    .unwrap(),
                ),
                ..Default::default()
            }))
            .await
            .unwrap()
            .into_inner();
        let secret: Secret =
            ctywire_tfplugin::dynamic::decode_object(opened.result.as_ref()).unwrap();
        assert_eq!(secret.value, Known::Known("s".to_owned()));
        let text = |t: &str| {
            ctywire_tfplugin::dynamic::encode(&Value::from(t), &ctywire::Type::String).unwrap()
        };
        let joined = s
            .call_function(Request::new(pb5::call_function::Request {
                name: "join".into(),
                arguments: vec![text("a"), text("b")],
            }))
            .await
            .unwrap()
            .into_inner();
        let joined: String =
            ctywire_tfplugin::dynamic::decode_object(joined.result.as_ref()).unwrap();
        assert_eq!(joined, "ab");
    }
}

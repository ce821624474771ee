//! Resource identity ([`IdentifiedResource`]: the identity schema, the identity of every
//! state Terraform gets, import by identity, identity upgrades) and moves between
//! resource types ([`MovedState`]).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use ctywire::object::{self, JsonField, Object};
use ctywire::schema::{IdentityAttribute, IdentitySchema};
use ctywire::{Type, Value};
use ctywire_tfplugin::tfplugin6 as pb;
use ctywire_tfplugin::tfplugin6::RawState;
use ctywire_tfplugin::{dynamic, raw_state};

use crate::error::{Error, Result};
use crate::{Context, Model, Resource, StoredState};

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// A resource type with an identity: a small, stable object (an id, a region, an
/// account) that names one real object across configurations, which Terraform 1.12+
/// keeps beside the state, an `import` block may give instead of an id, and
/// `terraform query` lists ([`ListResource`](crate::ListResource)). Serve it with
/// [`Server::resource_with_identity`](crate::Server::resource_with_identity).
///
/// The identity is a function of the state ([`identity`](IdentifiedResource::identity)):
/// the framework sends it with every state it returns (create, update, read, import,
/// move). Its schema comes from the struct: a required attribute is required for
/// import, an optional one optional.
///
/// ```no_run
/// use ctywire::Known;
/// use ctywire_provider::{Context, IdentifiedResource, Resource, Result, Server};
/// # use ctywire_provider::Provider;
/// # #[derive(ctywire::Object)] struct Config {}
/// # struct Example;
/// # impl Provider for Example {
/// #     const TYPE_NAME: &'static str = "example";
/// #     type Config = Config;
/// #     type Data = ();
/// #     async fn configure(&self, _: Config) -> Result<()> { Ok(()) }
/// # }
///
/// #[derive(ctywire::Object)]
/// struct Machine {
///     #[cty(required, requires_replace)]
///     name: String,
///     #[cty(computed, use_state_for_unknown)]
///     id: Known<String>,
/// }
///
/// /// What names a machine: its id.
/// #[derive(ctywire::Object)]
/// struct MachineIdentity {
///     #[cty(required)]
///     id: String,
/// }
///
/// struct Machines;
///
/// impl Resource<()> for Machines {
///     const NAME: &'static str = "machine";
///     type State = Machine;
///     async fn create(&self, _: &Context<()>, mut s: Machine) -> Result<Machine> {
///         s.id = Known::Known(format!("srv-{}", s.name));
///         Ok(s)
///     }
///     async fn update(&self, _: &Context<()>, _: Machine, s: Machine) -> Result<Machine> {
///         Ok(s)
///     }
///     async fn delete(&self, _: &Context<()>, _: Machine) -> Result<()> {
///         Ok(())
///     }
/// }
///
/// impl IdentifiedResource<()> for Machines {
///     type Identity = MachineIdentity;
///     fn identity(&self, _: &Context<()>, s: &Machine) -> MachineIdentity {
///         MachineIdentity { id: s.id.as_known().cloned().unwrap_or_default() }
///     }
///
///     // By default the state with `id` set from the identity and the rest null, then
///     // `read`; `name` cannot be null here, so the import finds it.
///     async fn import_identity(&self, _: &Context<()>, identity: MachineIdentity) -> Result<Machine> {
///         let name = identity.id.trim_start_matches("srv-").to_owned();
///         Ok(Machine { name, id: Known::Known(identity.id) })
///     }
/// }
///
/// # async fn serve() {
/// Server::new(Example).resource_with_identity(Machines).serve().await
/// # }
/// ```
pub trait IdentifiedResource<D: Send + Sync + 'static>: Resource<D> {
    /// The identity's data: attributes only.
    type Identity: Model;

    /// The identity schema's version; an identity stored with an earlier one goes
    /// through [`upgrade_identity`](IdentifiedResource::upgrade_identity).
    const IDENTITY_VERSION: u64 = 0;

    /// The identity of the object `state` describes (a state the resource returned:
    /// its computed attributes known), with the provider's data at hand for what the
    /// state does not hold (an account, a region).
    fn identity(&self, ctx: &Context<D>, state: &Self::State) -> Self::Identity;

    /// The state of the object an `import` block names by `identity`; Terraform then
    /// calls [`read`](Resource::read) with it. By default the state with each identity
    /// attribute copied to the state attribute of the same name and every other
    /// attribute null (the fields must then be able to hold null: `Option`, `Known`,
    /// ...); otherwise write it.
    fn import_identity(
        &self,
        ctx: &Context<D>,
        identity: Self::Identity,
    ) -> impl Future<Output = Result<Self::State>> + Send {
        let name = ctx.type_name().to_owned();
        async move { state_from_identity::<Self::State, Self::Identity>(&name, &identity) }
    }

    /// An identity stored with identity schema version `stored.version()`, older than
    /// [`IDENTITY_VERSION`](IdentifiedResource::IDENTITY_VERSION), as an identity of
    /// the current version; without one, an old identity is an error naming its
    /// version.
    ///
    /// # Errors
    ///
    /// When the stored identity cannot be upgraded.
    fn upgrade_identity(&self, stored: StoredState) -> Result<Self::Identity> {
        Err(Error::new(
            "Unsupported identity version",
            format!(
                "this identity was stored with identity schema version {}, the resource's is now at version {}, and the provider has no upgrade for it (IdentifiedResource::upgrade_identity)",
                stored.version(),
                Self::IDENTITY_VERSION
            ),
        ))
    }
}

/// An object a `moved` block moves to a resource type from another
/// ([`Resource::move_state`]): its source type, the schema version it was stored with,
/// and its state, read with the struct of that type and version.
pub struct MovedState {
    source_provider: String,
    source_type: String,
    version: u64,
    raw: Option<RawState>,
    identity_version: u64,
    identity: Option<RawState>,
}

impl MovedState {
    /// The resource type it comes from (`other_server`).
    pub fn source_type(&self) -> &str {
        &self.source_type
    }

    /// The address of the provider it comes from
    /// (`registry.terraform.io/example/other`).
    pub fn source_provider(&self) -> &str {
        &self.source_provider
    }

    /// The source type's schema version it was stored with.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The state as a `T` (the struct of the source type at
    /// [`version`](MovedState::version)): attributes `T` does not have left out.
    ///
    /// # Errors
    ///
    /// When the state does not fit `T`, at the path where it does not.
    pub fn decode<T: Object + JsonField>(&self) -> Result<T> {
        raw_state::decode_object(self.raw.as_ref())
            .map_err(|e| Error::value(&e, "Invalid moved state"))
    }

    /// The source type's identity schema version its identity was stored with.
    pub fn identity_version(&self) -> u64 {
        self.identity_version
    }

    /// Its identity as a `T` (the source type's identity struct at
    /// [`identity_version`](MovedState::identity_version)); `None` when it was stored
    /// without one.
    ///
    /// # Errors
    ///
    /// When the identity does not fit `T`, at the path where it does not.
    pub fn decode_identity<T: Object + JsonField>(&self) -> Result<Option<T>> {
        match &self.identity {
            Some(raw) if !raw.json.is_empty() => raw_state::decode_object(Some(raw))
                .map(Some)
                .map_err(|e| Error::value(&e, "Invalid moved identity")),
            _ => Ok(None),
        }
    }
}

/// The state an import by identity starts from: the identity's attributes in the
/// state's attributes of the same names, every other one null.
fn state_from_identity<T: Object + object::MsgpackField, I: Object + object::MsgpackField>(
    name: &str,
    identity: &I,
) -> Result<T> {
    let identity = object::to_value(identity).map_err(|e| Error::value(&e, "Invalid identity"))?;
    let ty = <T as Object>::cty_type();
    let (Some(attributes), Value::Object(given)) = (ty.as_object(), &identity) else {
        return Err(Error::new(
            "Cannot import",
            "the state or the identity is not an object",
        ));
    };
    for (key, _) in given.iter() {
        if attributes.attribute(key).is_none() {
            return Err(Error::new(
                "Cannot import by identity",
                format!("resource {name} has no attribute `{key}` for the identity's: implement IdentifiedResource::import_identity"),
            ));
        }
    }
    let value = Value::object(attributes.iter().map(|(n, _, _)| {
        let v = given.get(n).cloned().unwrap_or(Value::Null);
        (n.to_owned(), v)
    }));
    object::from_value(&value).map_err(|e| {
        Error::new(
            "Cannot import by identity",
            format!(
                "the import sets the identity's attributes alone, and {} cannot be null: implement IdentifiedResource::import_identity for resource {name}",
                e.path()
            ),
        )
        .at(e.path().clone())
    })
}

/// The identity schema of `I`: its attributes, required or optional for import.
///
/// # Panics
///
/// When `I` has blocks (an identity has attributes only).
pub(crate) fn identity_schema<I: Object>(version: u64, name: &str) -> IdentitySchema {
    let block = I::schema_block();
    assert!(
        block.block_types.is_empty(),
        "the identity of {name} has blocks: an identity has attributes only"
    );
    IdentitySchema {
        version,
        attributes: block
            .attributes
            .iter()
            .map(|(n, a)| {
                let attribute = IdentityAttribute {
                    ty: a.ty.clone().unwrap_or(Type::Dynamic),
                    description: a.description.clone(),
                    required_for_import: a.required,
                    optional_for_import: !a.required,
                };
                (n.clone(), attribute)
            })
            .collect(),
    }
}

/// A resource type's identity, its types erased.
pub(crate) trait AnyIdentity<D>: Send + Sync + 'static {
    /// The identity of a state the resource returned (none for a null state).
    fn identity_of(
        &self,
        ctx: &Context<D>,
        state: Option<&pb::DynamicValue>,
    ) -> Result<Option<pb::ResourceIdentityData>>;
    /// ImportResourceState with an identity.
    fn import(
        self: Arc<Self>,
        ctx: Context<D>,
        identity: Option<pb::DynamicValue>,
    ) -> BoxFuture<pb::import_resource_state::Response>;
    /// UpgradeResourceIdentity.
    fn upgrade(
        &self,
        req: &pb::upgrade_resource_identity::Request,
    ) -> pb::upgrade_resource_identity::Response;
}

pub(crate) struct IdentityEntry<R> {
    pub(crate) resource: Arc<R>,
    pub(crate) name: String,
}

impl<D: Send + Sync + 'static, R: IdentifiedResource<D>> AnyIdentity<D> for IdentityEntry<R> {
    fn identity_of(
        &self,
        ctx: &Context<D>,
        state: Option<&pb::DynamicValue>,
    ) -> Result<Option<pb::ResourceIdentityData>> {
        let state: Option<R::State> =
            dynamic::decode_object(state).map_err(|e| Error::value(&e, "Invalid state"))?;
        let Some(state) = state else {
            return Ok(None);
        };
        let identity = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.resource.identity(ctx, &state)
        }))
        .map_err(|_| {
            Error::new(
                format!("The provider panicked in identity of {}", self.name),
                "This is a bug in the provider, which should be reported in the provider's own issue tracker.",
            )
        })?;
        encode_identity(&identity).map(Some)
    }

    fn import(
        self: Arc<Self>,
        ctx: Context<D>,
        identity: Option<pb::DynamicValue>,
    ) -> BoxFuture<pb::import_resource_state::Response> {
        Box::pin(async move {
            let warnings = ctx.warnings();
            let this = Arc::clone(&self);
            let handler = async move {
                let identity: R::Identity = dynamic::decode_object(identity.as_ref())
                    .map_err(|e| Error::value(&e, "Invalid identity"))?;
                let given = encode_identity(&identity)?;
                let state = this.resource.import_identity(&ctx, identity).await?;
                let state = dynamic::encode_object(&state)
                    .map_err(|e| Error::value(&e, "Invalid imported state"))?;
                Ok((state, given))
            };
            let (imported, diagnostics) =
                crate::server::run(&self.name, "import", Some(warnings), handler).await;
            let imported = imported.map(|(state, identity)| (state, Some(identity)));
            crate::server::imported(&self.name, imported, diagnostics)
        })
    }

    fn upgrade(
        &self,
        req: &pb::upgrade_resource_identity::Request,
    ) -> pb::upgrade_resource_identity::Response {
        let version = u64::try_from(req.version).unwrap_or(u64::MAX);
        let upgraded = if version == R::IDENTITY_VERSION {
            raw_state::decode_object::<R::Identity, _>(req.raw_identity.as_ref())
                .map_err(|e| Error::value(&e, "Invalid stored identity"))
        } else if version > R::IDENTITY_VERSION {
            Err(Error::new(
                "Unsupported identity version",
                format!(
                    "this identity of {} was stored with identity schema version {version}, newer than this provider's ({}): use the provider version that wrote it, or a newer one",
                    self.name,
                    R::IDENTITY_VERSION
                ),
            ))
        } else {
            let stored = StoredState::new(version, req.raw_identity.clone());
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                self.resource.upgrade_identity(stored)
            }))
            .unwrap_or_else(|_| {
                Err(Error::new(
                    format!("The provider panicked in upgrade_identity of {}", self.name),
                    "This is a bug in the provider, which should be reported in the provider's own issue tracker.",
                ))
            })
        };
        match upgraded.and_then(|identity| encode_identity(&identity)) {
            Ok(identity) => pb::upgrade_resource_identity::Response {
                upgraded_identity: Some(identity),
                diagnostics: Vec::new(),
            },
            Err(e) => pb::upgrade_resource_identity::Response {
                upgraded_identity: None,
                diagnostics: crate::server::protos(e),
            },
        }
    }
}

pub(crate) fn encode_identity<I: Model>(identity: &I) -> Result<pb::ResourceIdentityData> {
    let data =
        dynamic::encode_object(identity).map_err(|e| Error::value(&e, "Invalid identity"))?;
    Ok(pb::ResourceIdentityData {
        identity_data: Some(data),
    })
}

/// MoveResourceState for resource `R`, its target.
pub(crate) async fn move_state<D: Send + Sync + 'static, R: Resource<D>>(
    resource: Arc<R>,
    name: String,
    ctx: Context<D>,
    req: pb::move_resource_state::Request,
) -> (Option<pb::DynamicValue>, Vec<pb::Diagnostic>) {
    if !R::MOVES_FROM.contains(&req.source_type_name.as_str()) {
        return (
            None,
            crate::server::protos(Error::new(
                "Unsupported move",
                format!(
                    "{name} does not take objects moved from resource type {} (Resource::MOVES_FROM)",
                    req.source_type_name
                ),
            )),
        );
    }
    let moved = MovedState {
        source_provider: req.source_provider_address,
        source_type: req.source_type_name,
        version: u64::try_from(req.source_schema_version).unwrap_or(u64::MAX),
        raw: req.source_state,
        identity_version: u64::try_from(req.source_identity_schema_version).unwrap_or(u64::MAX),
        identity: req.source_identity,
    };
    let warnings = ctx.warnings();
    let handler = async move {
        let state = resource.move_state(&ctx, moved).await?;
        dynamic::encode_object(&state).map_err(|e| Error::value(&e, "Invalid moved state"))
    };
    crate::server::run(&name, "move_state", Some(warnings), handler).await
}

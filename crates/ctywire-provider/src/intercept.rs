//! The lower level under a [`Server`]: an [`Intercept`] sees each call's raw protocol-6
//! request before the framework handles it, and the framework's raw response after, and
//! may change either (or refuse the call). For what the framework will not do on its
//! own: a test provider that breaks Terraform's rules on purpose, a capture of every
//! message, a delay before an apply.
//!
//! The messages are `ctywire_tfplugin::tfplugin6`'s, handed over as [`Any`]: a hook
//! downcasts to the calls it cares about and lets the others through. The framework's
//! own checks (a plan checked against Terraform's rules, a new state against the plan)
//! run before [`Intercept::response`], so what a hook changes there reaches Terraform
//! unchecked.
//!
//! ```
//! use std::any::Any;
//! use ctywire_provider::{Intercept, Intercepted, Provider, Result, Server};
//! use ctywire_tfplugin::tfplugin6 as pb;
//!
//! # #[derive(ctywire::Object)] struct Config {}
//! # struct Example;
//! # impl Provider for Example {
//! #     const TYPE_NAME: &'static str = "example";
//! #     type Config = Config;
//! #     type Data = ();
//! #     async fn configure(&self, _: Config) -> Result<()> { Ok(()) }
//! # }
//! /// Every plan comes back as a null object, which Terraform refuses.
//! struct NullPlans;
//!
//! impl Intercept for NullPlans {
//!     fn response(&self, _rpc: &'static str, _request: &dyn Any, response: &mut dyn Any) {
//!         if let Some(plan) = response.downcast_mut::<pb::plan_resource_change::Response>() {
//!             plan.planned_state = None;
//!         }
//!     }
//! }
//!
//! let plugin = Intercepted::new(Server::new(Example), NullPlans).plugin();
//! # drop(plugin);
//! ```

use std::any::Any;
use std::future::Future;

use ctywire_tfplugin::tfplugin6 as pb;
use ctywire_tfplugin::tfplugin6::provider_server::Provider as Service;
use ctywire_tfplugin::Plugin;
use tonic::{Request, Response, Status};

use crate::{Provider, Server};

/// What a hook does around each call of an [`Intercepted`] server; both methods do
/// nothing unless written.
///
/// `rpc` names the call as the service's method does (`"plan_resource_change"`); the
/// messages are the call's `tfplugin6` request and response (`pb::plan_resource_change::
/// Request`, `...::Response`). The two streaming calls (`list_resource`,
/// `invoke_action`) pass through untouched.
pub trait Intercept: Send + Sync + 'static {
    /// Before the framework handles `request`: the hook may change it, wait (it is
    /// async), or refuse the call with a [`Status`] that goes to Terraform as it is.
    fn request(
        &self,
        rpc: &'static str,
        request: &mut (dyn Any + Send),
    ) -> impl Future<Output = Result<(), Status>> + Send {
        let _ = (rpc, request);
        async { Ok(()) }
    }

    /// After the framework answered: the hook may change `response`; `request` is the
    /// call's request as the framework got it (after [`Intercept::request`]).
    fn response(&self, rpc: &'static str, request: &dyn Any, response: &mut dyn Any) {
        let _ = (rpc, request, response);
    }
}

/// A [`Server`] whose calls go through an [`Intercept`] (the module's docs).
pub struct Intercepted<P: Provider, I: Intercept> {
    server: Server<P>,
    hook: I,
}

impl<P: Provider, I: Intercept> Intercepted<P, I> {
    /// `server`, each call through `hook`.
    pub fn new(server: Server<P>, hook: I) -> Intercepted<P, I> {
        Intercepted { server, hook }
    }

    /// The server underneath.
    pub fn server(&self) -> &Server<P> {
        &self.server
    }

    /// The hook.
    pub fn hook(&self) -> &I {
        &self.hook
    }

    /// The plugin, for [`ctywire_tfplugin::serve`] or [`ctywire_tfplugin::serve_debug`]:
    /// protocol 6 only (the hook sees protocol 6's messages).
    pub fn plugin(self) -> Plugin {
        Plugin::new().protocol6(self)
    }
}

type Answer<T> = Result<Response<T>, Status>;

macro_rules! intercepted {
    ($($rpc:ident),* $(,)?) => {
        #[tonic::async_trait]
        impl<P: Provider, I: Intercept> Service for Intercepted<P, I> {
            $(
                async fn $rpc(
                    &self,
                    request: Request<pb::$rpc::Request>,
                ) -> Answer<pb::$rpc::Response> {
                    let (metadata, extensions, mut message) = request.into_parts();
                    self.hook.request(stringify!($rpc), &mut message).await?;
                    let kept = message.clone();
                    let request = Request::from_parts(metadata, extensions, message);
                    let (metadata, mut message, extensions) =
                        Service::$rpc(&self.server, request).await?.into_parts();
                    self.hook.response(stringify!($rpc), &kept, &mut message);
                    Ok(Response::from_parts(metadata, message, extensions))
                }
            )*

            async fn list_resource(
                &self,
                request: Request<pb::list_resource::Request>,
            ) -> Answer<tonic::codegen::BoxStream<pb::list_resource::Event>> {
                Service::list_resource(&self.server, request).await
            }

            async fn invoke_action(
                &self,
                request: Request<pb::invoke_action::Request>,
            ) -> Answer<tonic::codegen::BoxStream<pb::invoke_action::Event>> {
                Service::invoke_action(&self.server, request).await
            }
        }
    };
}

intercepted!(
    get_metadata,
    get_provider_schema,
    get_resource_identity_schemas,
    validate_provider_config,
    configure_provider,
    validate_resource_config,
    validate_data_resource_config,
    upgrade_resource_state,
    read_resource,
    plan_resource_change,
    apply_resource_change,
    import_resource_state,
    move_resource_state,
    upgrade_resource_identity,
    read_data_source,
    generate_resource_config,
    validate_ephemeral_resource_config,
    open_ephemeral_resource,
    renew_ephemeral_resource,
    close_ephemeral_resource,
    validate_list_resource_config,
    validate_action_config,
    plan_action,
    get_functions,
    call_function,
    stop_provider,
);

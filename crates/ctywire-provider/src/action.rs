//! Actions ([`Action`]): operations Terraform 1.14+ invokes outside the create, update
//! and delete of a resource (`action` blocks, run by a resource's `action_trigger` or by
//! `terraform apply -invoke`), reporting progress as they go.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use ctywire::Type;
use ctywire_tfplugin::dynamic;
use ctywire_tfplugin::tfplugin6 as pb;
use tokio::sync::mpsc;

use crate::error::{Error, Result};
use crate::{Context, Model};

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// An action type (Terraform 1.14+ `action` blocks): an operation with a configuration
/// (the block's `config`) that Terraform invokes when a resource's `action_trigger`
/// fires or `terraform apply -invoke=action.TYPE.NAME` asks, and that tells Terraform
/// how it goes ([`Progress`]). Serve it with [`Server::action`](crate::Server::action).
///
/// ```
/// use ctywire_provider::{Action, Context, Progress, Result};
///
/// /// The `config` block of `action "example_notify" "..."`.
/// #[derive(ctywire::Object)]
/// struct Notify {
///     #[cty(required)]
///     message: String,
/// }
///
/// struct Notifier;
///
/// impl Action<()> for Notifier {
///     const NAME: &'static str = "notify"; // example_notify
///     type Config = Notify;
///
///     async fn invoke(&self, _: &Context<()>, notify: Notify, progress: &mut Progress) -> Result<()> {
///         progress.report(format!("sending {:?}", notify.message)).await;
///         Ok(())
///     }
/// }
/// ```
pub trait Action<D: Send + Sync + 'static>: Send + Sync + 'static {
    /// The type name after the provider's and `_` (`notify` for `example_notify`).
    const NAME: &'static str;

    /// The action block's `config`.
    type Config: Model;

    /// Checks the wholly known `config` when Terraform plans the action (an error stops
    /// the plan). By default nothing more than the struct's own checks.
    fn plan(
        &self,
        ctx: &Context<D>,
        config: Self::Config,
    ) -> impl Future<Output = Result<()>> + Send {
        let _ = (ctx, config);
        async { Ok(()) }
    }

    /// Does the action, reporting how it goes to `progress`.
    fn invoke(
        &self,
        ctx: &Context<D>,
        config: Self::Config,
        progress: &mut Progress,
    ) -> impl Future<Output = Result<()>> + Send;
}

type Event = std::result::Result<pb::invoke_action::Event, tonic::Status>;

/// Where an [`Action`] reports its progress: each message goes to Terraform, which
/// shows it, as it is reported.
pub struct Progress {
    sender: mpsc::Sender<Event>,
}

impl Progress {
    /// Shows `message` in Terraform's output. False when Terraform stopped listening.
    pub async fn report(&mut self, message: impl Into<String>) -> bool {
        let event = pb::invoke_action::Event {
            r#type: Some(pb::invoke_action::event::Type::Progress(
                pb::invoke_action::event::Progress {
                    message: message.into(),
                },
            )),
        };
        self.sender.send(Ok(event)).await.is_ok()
    }
}

/// An action type, its struct's type erased.
pub(crate) trait AnyAction<D>: Send + Sync + 'static {
    fn validate(&self, config: Option<&pb::DynamicValue>) -> Vec<pb::Diagnostic>;
    fn plan(
        self: Arc<Self>,
        ctx: Option<Context<D>>,
        config: Option<pb::DynamicValue>,
    ) -> BoxFuture<Vec<pb::Diagnostic>>;
    fn invoke(
        self: Arc<Self>,
        ctx: Context<D>,
        config: Option<pb::DynamicValue>,
        sender: mpsc::Sender<Event>,
    ) -> BoxFuture<()>;
}

pub(crate) struct ActionEntry<A> {
    pub(crate) action: A,
    pub(crate) name: String,
    pub(crate) ty: Type,
}

/// The event that ends an invocation, with its diagnostics.
pub(crate) fn completed(diagnostics: Vec<pb::Diagnostic>) -> pb::invoke_action::Event {
    pb::invoke_action::Event {
        r#type: Some(pb::invoke_action::event::Type::Completed(
            pb::invoke_action::event::Completed { diagnostics },
        )),
    }
}

impl<D: Send + Sync + 'static, A: Action<D>> AnyAction<D> for ActionEntry<A> {
    fn validate(&self, config: Option<&pb::DynamicValue>) -> Vec<pb::Diagnostic> {
        crate::server::validate_config::<A::Config>(&self.ty, config)
    }

    fn plan(
        self: Arc<Self>,
        ctx: Option<Context<D>>,
        config: Option<pb::DynamicValue>,
    ) -> BoxFuture<Vec<pb::Diagnostic>> {
        Box::pin(async move {
            let value = match dynamic::decode(config.as_ref(), &self.ty) {
                Ok(value) => value,
                Err(e) => return crate::server::protos(Error::value(&e, "Invalid configuration")),
            };
            // A configuration not yet known, or a provider not yet configured (the
            // action is planned before its resource exists): checked at invoke.
            let Some(ctx) = ctx.filter(|_| value.is_wholly_known()) else {
                return Vec::new();
            };
            let warnings = ctx.warnings();
            let this = Arc::clone(&self);
            let handler = async move {
                let config: A::Config = dynamic::decode_object(config.as_ref())
                    .map_err(|e| Error::value(&e, "Invalid configuration"))?;
                this.action.plan(&ctx, config).await
            };
            crate::server::run(&self.name, "plan", Some(warnings), handler)
                .await
                .1
        })
    }

    fn invoke(
        self: Arc<Self>,
        ctx: Context<D>,
        config: Option<pb::DynamicValue>,
        sender: mpsc::Sender<Event>,
    ) -> BoxFuture<()> {
        Box::pin(async move {
            let warnings = ctx.warnings();
            let this = Arc::clone(&self);
            let mut progress = Progress {
                sender: sender.clone(),
            };
            let handler = async move {
                let config: A::Config = dynamic::decode_object(config.as_ref())
                    .map_err(|e| Error::value(&e, "Invalid configuration"))?;
                this.action.invoke(&ctx, config, &mut progress).await
            };
            let (_, diagnostics) =
                crate::server::run(&self.name, "invoke", Some(warnings), handler).await;
            let _ = sender.send(Ok(completed(diagnostics))).await;
        })
    }
}

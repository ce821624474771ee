//! Ephemeral resources ([`EphemeralResource`]): values opened for one Terraform run,
//! renewed while it lasts and closed at its end, never kept in a plan or a state.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::SystemTime;

use ctywire::msgpack;
use ctywire::Type;
use ctywire_tfplugin::dynamic;
use ctywire_tfplugin::tfplugin6 as pb;

use crate::error::{Error, Result};
use crate::{Context, Model};

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// An ephemeral resource type (Terraform 1.10+ `ephemeral` blocks): a value such as a
/// token or a lease that Terraform opens when it needs it, may renew while the run
/// lasts, and closes at the end of it. Its value can go where Terraform takes ephemeral
/// values (a provider configuration, a write-only attribute, a local, an ephemeral
/// output) and is never written to a plan or a state.
///
/// [`open`](EphemeralResource::open) gets the configuration and returns the value
/// ([`Opened`]): the configuration with its computed attributes set, and a
/// [`Private`](EphemeralResource::Private) value of the provider's own that Terraform
/// hands back to [`renew`](EphemeralResource::renew) and
/// [`close`](EphemeralResource::close) (a lease id).
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use ctywire::Known;
/// use ctywire_provider::{Context, EphemeralResource, Opened, Renewed, Result};
///
/// /// A token for the API, valid for an hour.
/// #[derive(ctywire::Object)]
/// struct Token {
///     #[cty(required)]
///     scope: String,
///     #[cty(computed, sensitive)]
///     token: Known<String>,
/// }
///
/// /// What renew and close get back: the lease.
/// #[derive(ctywire::Object)]
/// struct Lease {
///     #[cty(required)]
///     id: String,
/// }
///
/// struct Tokens;
///
/// impl EphemeralResource<()> for Tokens {
///     const NAME: &'static str = "token"; // example_token
///     type Object = Token;
///     type Private = Lease;
///
///     async fn open(&self, _: &Context<()>, mut t: Token) -> Result<Opened<Token, Lease>> {
///         t.token = Known::Known(format!("tok-{}", t.scope));
///         let lease = Lease { id: "lease-1".into() };
///         Ok(Opened::new(t).private(lease).renew_at(SystemTime::now() + Duration::from_secs(3000)))
///     }
///
///     async fn renew(&self, _: &Context<()>, lease: Option<Lease>) -> Result<Renewed<Lease>> {
///         Ok(Renewed::new().private(lease.unwrap_or(Lease { id: "lease-2".into() })))
///     }
///
///     async fn close(&self, _: &Context<()>, _lease: Option<Lease>) -> Result<()> {
///         Ok(()) // revoke the lease
///     }
/// }
/// ```
pub trait EphemeralResource<D: Send + Sync + 'static>: Send + Sync + 'static {
    /// The type name after the provider's and `_` (`token` for `example_token`).
    const NAME: &'static str;

    /// The ephemeral resource's data: the configuration in, the value out.
    type Object: Model;

    /// What [`open`](EphemeralResource::open) keeps for
    /// [`renew`](EphemeralResource::renew) and [`close`](EphemeralResource::close)
    /// (Terraform holds it, MessagePack-encoded, for the run): [`NoPrivate`] when
    /// there is nothing to keep. A renewal may replace it for the next renewal;
    /// Terraform (1.15.5) gives `close` what `open` kept.
    type Private: Model;

    /// Opens the value the wholly known `config` asks for: `config` with its computed
    /// attributes set.
    fn open(
        &self,
        ctx: &Context<D>,
        config: Self::Object,
    ) -> impl Future<Output = Result<Opened<Self::Object, Self::Private>>> + Send;

    /// Renews the value, at the time [`Opened::renew_at`] (or the last
    /// [`Renewed::renew_at`]) asked for, with what [`open`](EphemeralResource::open)
    /// (or the last renewal) kept. By default nothing is renewed.
    fn renew(
        &self,
        ctx: &Context<D>,
        private: Option<Self::Private>,
    ) -> impl Future<Output = Result<Renewed<Self::Private>>> + Send {
        let _ = (ctx, private);
        async { Ok(Renewed::new()) }
    }

    /// Closes the value at the end of the run (revokes a token, ends a lease), with what
    /// [`open`](EphemeralResource::open) kept (Terraform 1.15.5 does not hand `close` a
    /// renewal's). By default nothing is done.
    fn close(
        &self,
        ctx: &Context<D>,
        private: Option<Self::Private>,
    ) -> impl Future<Output = Result<()>> + Send {
        let _ = (ctx, private);
        async { Ok(()) }
    }
}

/// An ephemeral resource's [`Private`](EphemeralResource::Private) when it keeps
/// nothing.
#[derive(ctywire::Object, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoPrivate {}

/// What [`EphemeralResource::open`] returns: the value, what to keep, and when to renew.
#[derive(Debug)]
pub struct Opened<T, P> {
    /// The value: the configuration with its computed attributes set.
    pub result: T,
    /// What [`renew`](EphemeralResource::renew) and
    /// [`close`](EphemeralResource::close) get back.
    pub private: Option<P>,
    /// When Terraform is to call [`renew`](EphemeralResource::renew), if the run lasts
    /// that long.
    pub renew_at: Option<SystemTime>,
}

impl<T, P> Opened<T, P> {
    /// The value, with nothing kept and no renewal.
    pub fn new(result: T) -> Opened<T, P> {
        Opened {
            result,
            private: None,
            renew_at: None,
        }
    }

    /// Keeps `private` for renew and close.
    #[must_use]
    pub fn private(mut self, private: P) -> Opened<T, P> {
        self.private = Some(private);
        self
    }

    /// Asks for a renewal at `at`.
    #[must_use]
    pub fn renew_at(mut self, at: SystemTime) -> Opened<T, P> {
        self.renew_at = Some(at);
        self
    }
}

/// What [`EphemeralResource::renew`] returns: what to keep now, and when to renew next.
#[derive(Debug)]
pub struct Renewed<P> {
    /// What the next renewal gets back (`None`: what this one got).
    pub private: Option<P>,
    /// When to renew again (`None`: never).
    pub renew_at: Option<SystemTime>,
}

impl<P> Default for Renewed<P> {
    fn default() -> Renewed<P> {
        Renewed {
            private: None,
            renew_at: None,
        }
    }
}

impl<P> Renewed<P> {
    /// No change to what is kept, and no further renewal.
    pub fn new() -> Renewed<P> {
        Renewed::default()
    }

    /// Keeps `private` instead.
    #[must_use]
    pub fn private(mut self, private: P) -> Renewed<P> {
        self.private = Some(private);
        self
    }

    /// Asks for another renewal at `at`.
    #[must_use]
    pub fn renew_at(mut self, at: SystemTime) -> Renewed<P> {
        self.renew_at = Some(at);
        self
    }
}

/// An ephemeral resource type, its structs' types erased.
pub(crate) trait AnyEphemeral<D>: Send + Sync + 'static {
    fn validate(&self, config: Option<&pb::DynamicValue>) -> Vec<pb::Diagnostic>;
    fn open(
        self: Arc<Self>,
        ctx: Context<D>,
        config: Option<pb::DynamicValue>,
    ) -> BoxFuture<pb::open_ephemeral_resource::Response>;
    fn renew(
        self: Arc<Self>,
        ctx: Context<D>,
        private: Option<Vec<u8>>,
    ) -> BoxFuture<pb::renew_ephemeral_resource::Response>;
    fn close(
        self: Arc<Self>,
        ctx: Context<D>,
        private: Option<Vec<u8>>,
    ) -> BoxFuture<pb::close_ephemeral_resource::Response>;
}

pub(crate) struct EphemeralEntry<E> {
    pub(crate) resource: E,
    pub(crate) name: String,
    pub(crate) ty: Type,
}

fn decode_private<P: Model>(private: Option<&[u8]>) -> Result<Option<P>> {
    match private {
        Some(bytes) if !bytes.is_empty() => msgpack::decode_object(bytes)
            .map(Some)
            .map_err(|e| Error::value(&e, "Invalid private data")),
        _ => Ok(None),
    }
}

fn encode_private<P: Model>(private: Option<&P>) -> Result<Option<Vec<u8>>> {
    private
        .map(|p| msgpack::encode_object(p).map_err(|e| Error::value(&e, "Invalid private data")))
        .transpose()
}

impl<D: Send + Sync + 'static, E: EphemeralResource<D>> AnyEphemeral<D> for EphemeralEntry<E> {
    fn validate(&self, config: Option<&pb::DynamicValue>) -> Vec<pb::Diagnostic> {
        crate::server::validate_config::<E::Object>(&self.ty, config)
    }

    fn open(
        self: Arc<Self>,
        ctx: Context<D>,
        config: Option<pb::DynamicValue>,
    ) -> BoxFuture<pb::open_ephemeral_resource::Response> {
        Box::pin(async move {
            let warnings = ctx.warnings();
            let this = Arc::clone(&self);
            let handler = async move {
                let config: E::Object = dynamic::decode_object(config.as_ref())
                    .map_err(|e| Error::value(&e, "Invalid configuration"))?;
                let opened = this.resource.open(&ctx, config).await?;
                let result: pb::DynamicValue = dynamic::encode_object(&opened.result)
                    .map_err(|e| Error::value(&e, "Invalid result"))?;
                let private = encode_private(opened.private.as_ref())?;
                Ok((result, private, opened.renew_at))
            };
            let (opened, diagnostics) =
                crate::server::run(&self.name, "open", Some(warnings), handler).await;
            let (result, private, renew_at) = match opened {
                Some((result, private, renew_at)) => (Some(result), private, renew_at),
                None => (None, None, None),
            };
            pb::open_ephemeral_resource::Response {
                diagnostics,
                renew_at: renew_at.map(prost_types::Timestamp::from),
                result,
                private,
                deferred: None,
            }
        })
    }

    fn renew(
        self: Arc<Self>,
        ctx: Context<D>,
        private: Option<Vec<u8>>,
    ) -> BoxFuture<pb::renew_ephemeral_resource::Response> {
        Box::pin(async move {
            let warnings = ctx.warnings();
            let this = Arc::clone(&self);
            let before = private.clone();
            let handler = async move {
                let private = decode_private::<E::Private>(private.as_deref())?;
                let renewed = this.resource.renew(&ctx, private).await?;
                Ok((encode_private(renewed.private.as_ref())?, renewed.renew_at))
            };
            let (renewed, diagnostics) =
                crate::server::run(&self.name, "renew", Some(warnings), handler).await;
            let (private, renew_at) = renewed.unwrap_or_default();
            pb::renew_ephemeral_resource::Response {
                diagnostics,
                renew_at: renew_at.map(prost_types::Timestamp::from),
                private: private.or(before),
            }
        })
    }

    fn close(
        self: Arc<Self>,
        ctx: Context<D>,
        private: Option<Vec<u8>>,
    ) -> BoxFuture<pb::close_ephemeral_resource::Response> {
        Box::pin(async move {
            let warnings = ctx.warnings();
            let this = Arc::clone(&self);
            let handler = async move {
                let private = decode_private::<E::Private>(private.as_deref())?;
                this.resource.close(&ctx, private).await
            };
            let (_, diagnostics) =
                crate::server::run(&self.name, "close", Some(warnings), handler).await;
            pb::close_ephemeral_resource::Response { diagnostics }
        })
    }
}

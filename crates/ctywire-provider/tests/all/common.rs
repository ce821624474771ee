//! What the tests repeat: a provider with an empty provider block, configuring a server,
//! the requests of a resource's validate, plan, apply, read, import and state upgrade as
//! Terraform makes them, and diagnostics as text.

use ctywire::object::Object;
use ctywire::{Known, Type, Value};
use ctywire_provider::{Context, Provider, Resource, Result, Server};
use ctywire_tfplugin::dynamic;
use ctywire_tfplugin::path::path_from_proto;
use ctywire_tfplugin::tfplugin6::diagnostic::Severity;
use ctywire_tfplugin::tfplugin6::provider_server::Provider as Service;
use ctywire_tfplugin::tfplugin6::*;
use tonic::Request;

/// A provider block with no attributes.
#[derive(ctywire::Object)]
pub struct NoConfig {}

/// `struct $name`, a provider of type name `$type_name` with an empty provider block
/// ([`NoConfig`]) and no data for its resources.
macro_rules! provider {
    ($name:ident, $type_name:literal) => {
        struct $name;

        impl ctywire_provider::Provider for $name {
            const TYPE_NAME: &'static str = $type_name;
            type Config = $crate::common::NoConfig;
            type Data = ();

            async fn configure(&self, _: $crate::common::NoConfig) -> ctywire_provider::Result<()> {
                Ok(())
            }
        }
    };
}

/// A thing: a required name, an optional size and a computed id.
#[derive(ctywire::Object, Clone, Debug, PartialEq)]
pub struct Thing {
    #[cty(required)]
    pub name: String,
    #[cty(optional)]
    pub size: Option<u16>,
    #[cty(computed)]
    pub id: Known<String>,
}

/// The least an author writes of resource `thing` at schema version `VERSION`: create
/// (the id is the prefix it holds and the name), update, delete. No read, import or
/// upgrade.
pub struct Things<const VERSION: u64>(pub &'static str);

impl<const VERSION: u64> Resource<()> for Things<VERSION> {
    const NAME: &'static str = "thing";
    const VERSION: u64 = VERSION;
    type State = Thing;
    async fn create(&self, _: &Context<()>, mut thing: Thing) -> Result<Thing> {
        thing.id = Known::Known(format!("{}{}", self.0, thing.name));
        Ok(thing)
    }
    async fn update(&self, _: &Context<()>, _: Thing, planned: Thing) -> Result<Thing> {
        Ok(planned)
    }
    async fn delete(&self, _: &Context<()>, _: Thing) -> Result<()> {
        Ok(())
    }
}

/// An object with no attributes: an empty provider block.
pub fn empty() -> Value {
    Value::object(Vec::<(&str, Value)>::new())
}

/// `value` of type `ty` as the protocol carries it.
pub fn dv(value: &Value, ty: &Type) -> DynamicValue {
    dynamic::encode(value, ty).unwrap()
}

/// `s` configured with `config` (its provider block), which it must take.
pub async fn configure<P: Provider>(s: &Server<P>, config: &Value) {
    configure_service::<P::Config>(s, config).await;
}

/// The service `s` (a `Server`, or one behind a hook) configured with `config`, of the
/// provider block `C`, which it must take.
pub async fn configure_service<C: Object>(s: &impl Service, config: &Value) {
    let r = s
        .configure_provider(Request::new(configure_provider::Request {
            config: Some(dv(config, &C::cty_type())),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
}

/// `s`'s validation of resource `type_name`'s `config` (none: a request without one).
pub async fn validate(
    s: &impl Service,
    type_name: &str,
    config: Option<DynamicValue>,
) -> validate_resource_config::Response {
    s.validate_resource_config(Request::new(validate_resource_config::Request {
        type_name: type_name.into(),
        config,
        ..Default::default()
    }))
    .await
    .unwrap()
    .into_inner()
}

/// `s`'s read of resource `type_name` (of state `T`) whose state is `state`, with
/// `private` as its private state.
pub async fn read<T: Object>(
    s: &impl Service,
    type_name: &str,
    state: &Value,
    private: &[u8],
) -> read_resource::Response {
    s.read_resource(Request::new(read_resource::Request {
        type_name: type_name.into(),
        current_state: Some(dv(state, &T::cty_type())),
        private: private.to_vec(),
        ..Default::default()
    }))
    .await
    .unwrap()
    .into_inner()
}

/// `s`'s import of resource `type_name` by `id`.
pub async fn import(
    s: &impl Service,
    type_name: &str,
    id: &str,
) -> import_resource_state::Response {
    import_with(
        s,
        import_resource_state::Request {
            type_name: type_name.into(),
            id: id.into(),
            ..Default::default()
        },
    )
    .await
}

/// `s`'s answer to the import `request` (by identity, say).
pub async fn import_with(
    s: &impl Service,
    request: import_resource_state::Request,
) -> import_resource_state::Response {
    s.import_resource_state(Request::new(request))
        .await
        .unwrap()
        .into_inner()
}

/// A stored state (or identity) `json`, as Terraform sends it for an upgrade.
pub fn raw_json(json: &str) -> RawState {
    RawState {
        json: json.as_bytes().to_vec(),
        ..Default::default()
    }
}

/// The upgrade of resource `type_name`'s state `json`, stored at schema `version`.
pub fn upgrade_request(
    type_name: &str,
    version: i64,
    json: &str,
) -> upgrade_resource_state::Request {
    upgrade_resource_state::Request {
        type_name: type_name.into(),
        version,
        raw_state: Some(raw_json(json)),
    }
}

/// `s`'s upgrade of resource `type_name`'s state `json`, stored at schema `version`.
pub async fn upgrade(
    s: &impl Service,
    type_name: &str,
    version: i64,
    json: &str,
) -> upgrade_resource_state::Response {
    s.upgrade_resource_state(Request::new(upgrade_request(type_name, version, json)))
        .await
        .unwrap()
        .into_inner()
}

/// `s`'s plan of resource `type_name` (of state `T`) from `prior` to `config`, with
/// Terraform's proposed new state.
pub async fn plan<T: Object>(
    s: &impl Service,
    type_name: &str,
    prior: &Value,
    config: &Value,
) -> plan_resource_change::Response {
    let ty = T::cty_type();
    let proposed = T::schema_block().proposed_new(prior, config);
    s.plan_resource_change(Request::new(plan_resource_change::Request {
        type_name: type_name.into(),
        prior_state: Some(dv(prior, &ty)),
        proposed_new_state: Some(dv(&proposed, &ty)),
        config: Some(dv(config, &ty)),
        ..Default::default()
    }))
    .await
    .unwrap()
    .into_inner()
}

/// `s`'s apply of resource `type_name` (of state `T`) from `prior` to `planned` (which
/// is the configuration too), with `private` as the plan's private state.
pub async fn apply<T: Object>(
    s: &impl Service,
    type_name: &str,
    prior: &Value,
    planned: &Value,
    private: &[u8],
) -> apply_resource_change::Response {
    let ty = T::cty_type();
    s.apply_resource_change(Request::new(apply_resource_change::Request {
        type_name: type_name.into(),
        prior_state: Some(dv(prior, &ty)),
        planned_state: Some(dv(planned, &ty)),
        config: Some(dv(planned, &ty)),
        planned_private: private.to_vec(),
        ..Default::default()
    }))
    .await
    .unwrap()
    .into_inner()
}

/// Each diagnostic as `severity.path: summary: detail` (the path as Terraform shows
/// it, none for a diagnostic of no attribute).
pub fn texts(diagnostics: &[Diagnostic]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| {
            let at = d
                .attribute
                .as_ref()
                .map(|a| path_from_proto(a).unwrap().to_string())
                .unwrap_or_default();
            let severity = if d.severity == Severity::Error as i32 {
                "error"
            } else {
                "warning"
            };
            format!("{severity}{at}: {}: {}", d.summary, d.detail)
        })
        .collect()
}

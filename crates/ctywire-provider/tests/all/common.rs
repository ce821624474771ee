//! What the tests repeat: a provider with an empty provider block, configuring a server,
//! the requests of a resource's plan and apply as Terraform makes them, and
//! diagnostics as text.

use ctywire::object::Object;
use ctywire::{Type, Value};
use ctywire_provider::{Provider, Server};
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
    let ty = <P::Config as Object>::cty_type();
    let r = s
        .configure_provider(Request::new(configure_provider::Request {
            config: Some(dv(config, &ty)),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
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

//! What the two `plan_round_trip` benches share (this crate's, and ctywire-provider's,
//! which includes this file by path): the payload, the raw protocol handler, and the
//! client that reaches a started plugin over its Unix socket.

use ctywire::{Refinements, Type, Value};
use ctywire_tfplugin::tfplugin6::provider_client::ProviderClient;
use ctywire_tfplugin::tfplugin6::provider_server::Provider;
use ctywire_tfplugin::tfplugin6::{plan_resource_change, DynamicValue};
use ctywire_tfplugin::{dynamic, Started};
use tonic::transport::Channel;
use tonic::{Request, Response, Status};

/// The resource: a list of 20,000 objects (about 3 MB of MessagePack) and a computed id.
pub fn resource_type() -> Type {
    "object({id=string, items=list(object({name=string, size=number, price=number, enabled=bool, tags=map(string), zones=list(string)}))})"
        .parse()
        .unwrap()
}

/// A value of [`resource_type`] with `items` objects and a null id.
pub fn state(items: usize) -> Value {
    let item = |i: usize| {
        Value::object([
            ("enabled", Value::from(i.is_multiple_of(3))),
            (
                "name",
                Value::from(format!("item-{i:06}-{}", "x".repeat(i % 40))),
            ),
            (
                "price",
                Value::Number(ctywire::Number::from_f64(i as f64 * 0.37).unwrap()),
            ),
            ("size", Value::from(i as i64 * 7)),
            (
                "tags",
                Value::map([
                    (
                        "env",
                        Value::from(if i.is_multiple_of(2) { "prod" } else { "dev" }),
                    ),
                    ("owner", Value::from(format!("team-{}", i % 17))),
                    (
                        "cost-center",
                        Value::from(format!("cc-{:05}", i * 13 % 99_991)),
                    ),
                ]),
            ),
            (
                "zones",
                Value::list([
                    Value::from("eu-west-1a"),
                    Value::from(format!("eu-west-1{}", ["b", "c"][i % 2])),
                ]),
            ),
        ])
    };
    Value::object([
        ("id", Value::Null),
        (
            "items",
            Value::list((0..items).map(item).collect::<Vec<_>>()),
        ),
    ])
}

/// The raw handler's plan: decode the three values, mark the computed `id` unknown,
/// encode the planned value.
pub fn plan(
    ty: &Type,
    prior: Option<&DynamicValue>,
    config: Option<&DynamicValue>,
    proposed: Option<&DynamicValue>,
) -> DynamicValue {
    let _prior = dynamic::decode(prior, ty).unwrap();
    let _config = dynamic::decode(config, ty).unwrap();
    let mut planned = dynamic::decode(proposed, ty).unwrap();
    planned
        .set_at_path(
            &ctywire::Path::root().attribute("id"),
            Value::Unknown(Refinements::new().not_null()),
        )
        .unwrap();
    dynamic::encode(&planned, ty).unwrap()
}

/// A raw protocol handler: `PlanResourceChange` answered by [`plan`], whatever the
/// type name.
pub struct Raw {
    /// The resource's type ([`resource_type`]).
    pub ty: Type,
}

#[tonic::async_trait]
impl Provider for Raw {
    async fn plan_resource_change(
        &self,
        request: Request<plan_resource_change::Request>,
    ) -> Result<Response<plan_resource_change::Response>, Status> {
        let req = request.into_inner();
        let planned = plan(
            &self.ty,
            req.prior_state.as_ref(),
            req.config.as_ref(),
            req.proposed_new_state.as_ref(),
        );
        Ok(Response::new(plan_resource_change::Response {
            planned_state: Some(planned),
            ..Default::default()
        }))
    }
}

/// A request to plan `type_name` with `bytes` as prior state, configuration and
/// proposed new state.
pub fn request(type_name: &str, bytes: &DynamicValue) -> plan_resource_change::Request {
    plan_resource_change::Request {
        type_name: type_name.into(),
        prior_state: Some(bytes.clone()),
        proposed_new_state: Some(bytes.clone()),
        config: Some(bytes.clone()),
        ..Default::default()
    }
}

/// A client of the plugin `started` serves, over its Unix socket, with 16 MiB HTTP/2
/// windows (as grpc-go's client grows its windows to the bandwidth-delay product).
pub async fn connect(started: &Started) -> ProviderClient<Channel> {
    let ctywire_tfplugin::PluginAddress::Unix(socket) = started.address.clone() else {
        panic!(
            "the plugin serves on {}, not a Unix socket",
            started.address
        )
    };
    let channel = tonic::transport::Endpoint::try_from("http://plugin")
        .unwrap()
        .initial_connection_window_size(16 << 20)
        .initial_stream_window_size(16 << 20)
        .connect_with_connector(tower::service_fn(move |_| {
            let socket = socket.clone();
            async move {
                let stream = tokio::net::UnixStream::connect(socket).await?;
                Ok::<_, std::io::Error>(hyper_util::rt::TokioIo::new(stream))
            }
        }))
        .await
        .unwrap();
    ProviderClient::new(channel)
        .max_decoding_message_size(usize::MAX)
        .max_encoding_message_size(usize::MAX)
}

//! A PlanResourceChange round trip through the tonic service in-process (client and
//! server in one process, over the plugin's Unix socket, no TLS), against decoding the
//! request's three values and encoding the planned value alone; and the time from
//! starting a plugin to its handshake line (in-process: `Plugin::start`).
//!
//! Run with `cargo bench -p ctywire-tfplugin --bench plan_round_trip`; it prints the
//! medians of repeated runs and their ratio (issue target: at most 1.5x).

use std::time::{Duration, Instant};

use ctywire::{Refinements, Type, Value};
use ctywire_tfplugin::tfplugin6::provider_client::ProviderClient;
use ctywire_tfplugin::tfplugin6::provider_server::Provider;
use ctywire_tfplugin::tfplugin6::{plan_resource_change, DynamicValue};
use ctywire_tfplugin::{dynamic, Plugin, PluginEnv};
use tonic::{Request, Response, Status};

/// The resource: a list of 20,000 objects (about 3 MB of MessagePack) and a computed id.
fn resource_type() -> Type {
    "object({id=string, items=list(object({name=string, size=number, price=number, enabled=bool, tags=map(string), zones=list(string)}))})"
        .parse()
        .unwrap()
}

fn state(items: usize) -> Value {
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

/// The provider's plan: the proposed state with the id unknown.
fn plan(
    ty: &Type,
    prior: &DynamicValue,
    config: &DynamicValue,
    proposed: &DynamicValue,
) -> DynamicValue {
    let _prior = dynamic::decode(Some(prior), ty).unwrap();
    let _config = dynamic::decode(Some(config), ty).unwrap();
    let mut planned = dynamic::decode(Some(proposed), ty).unwrap();
    planned
        .set_at_path(
            &ctywire::Path::root().attribute("id"),
            Value::Unknown(Refinements::new().not_null()),
        )
        .unwrap();
    dynamic::encode(&planned, ty).unwrap()
}

struct Bench {
    ty: Type,
}

#[tonic::async_trait]
impl Provider for Bench {
    async fn plan_resource_change(
        &self,
        request: Request<plan_resource_change::Request>,
    ) -> Result<Response<plan_resource_change::Response>, Status> {
        let req = request.into_inner();
        let planned = plan(
            &self.ty,
            req.prior_state.as_ref().unwrap(),
            req.config.as_ref().unwrap(),
            req.proposed_new_state.as_ref().unwrap(),
        );
        Ok(Response::new(plan_resource_change::Response {
            planned_state: Some(planned),
            ..Default::default()
        }))
    }
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn main() {
    let runs = 31;
    let ty = resource_type();
    let value = state(20_000);
    let bytes: DynamicValue = dynamic::encode(&value, &ty).unwrap();
    println!(
        "payload: {} bytes of MessagePack per value",
        bytes.msgpack.len()
    );

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let (alone, round_trip, ratio, handshake) = runtime.block_on(async {
        let started = Plugin::new()
            .protocol6(Bench { ty: ty.clone() })
            .start(&PluginEnv::terraform(None))
            .await
            .unwrap();
        let ctywire_tfplugin::PluginAddress::Unix(socket) = started.address.clone() else {
            panic!(
                "the plugin serves on {}, not a Unix socket",
                started.address
            )
        };
        // As grpc-go's client grows its windows to the bandwidth-delay product.
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
        let mut client = ProviderClient::new(channel)
            .max_decoding_message_size(usize::MAX)
            .max_encoding_message_size(usize::MAX);
        let request = plan_resource_change::Request {
            type_name: "bench".into(),
            prior_state: Some(bytes.clone()),
            proposed_new_state: Some(bytes.clone()),
            config: Some(bytes.clone()),
            ..Default::default()
        };
        // Each run times both, one after the other, so that a busy machine slows both
        // alike; the ratio is the median of the runs' ratios.
        let (mut alone, mut through, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..runs {
            let start = Instant::now();
            std::hint::black_box(plan(&ty, &bytes, &bytes, &bytes));
            let a = start.elapsed();
            let request = request.clone();
            let start = Instant::now();
            let response = client.plan_resource_change(request).await.unwrap();
            let t = start.elapsed();
            std::hint::black_box(response);
            alone.push(a);
            through.push(t);
            ratios.push(t.as_secs_f64() / a.as_secs_f64());
        }
        ratios.sort_by(f64::total_cmp);
        started.stop();
        started.wait().await.unwrap();

        let mut starts = Vec::with_capacity(runs);
        for _ in 0..runs {
            let start = Instant::now();
            let started = Plugin::new()
                .protocol6(Bench { ty: ty.clone() })
                .start(&PluginEnv::terraform(None))
                .await
                .unwrap();
            starts.push(start.elapsed());
            std::hint::black_box(&started.handshake);
            started.stop();
            started.wait().await.unwrap();
        }
        (
            median(alone),
            median(through),
            ratios[ratios.len() / 2],
            median(starts),
        )
    });

    println!("decode 3 + encode 1, alone:           {alone:?}");
    println!("PlanResourceChange through tonic:     {round_trip:?}");
    println!("ratio (median of the runs' ratios):   {ratio:.2}x (target: at most 1.5x)");
    println!("Plugin::start to handshake line:      {handshake:?} (no TLS)");
}

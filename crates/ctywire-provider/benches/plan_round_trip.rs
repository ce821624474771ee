//! What the framework adds to a `PlanResourceChange`: a resource served by
//! `ctywire_provider::Server` against a raw protocol handler (the handler of
//! `crates/ctywire-tfplugin/benches/plan_round_trip.rs`: decode the three values, mark the
//! computed `id` unknown, encode the plan), on the same 3 MB payloads (prior state,
//! configuration and proposed new state of 20,000 objects each).
//!
//! Two ways each: the service called in-process (the framework's own work, undiluted),
//! and the round trip over the plugin's Unix socket as Terraform makes it (no TLS).
//!
//! Run with `cargo bench -p ctywire-provider --bench plan_round_trip`: criterion's
//! figures, then a summary of medians taken alternately (31 runs each) with the ratio of
//! each pair (the median of the runs' ratios; issue target: at most 1.10x).
//! `CTYWIRE_SUMMARY_ONLY=1` skips criterion.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use ctywire::{Known, Refinements, Type, Value};
use ctywire_provider::{Context, Provider, Resource, Result, Server};
use ctywire_tfplugin::tfplugin6::provider_client::ProviderClient;
use ctywire_tfplugin::tfplugin6::provider_server::Provider as Service;
use ctywire_tfplugin::tfplugin6::{plan_resource_change, DynamicValue};
use ctywire_tfplugin::{dynamic, Plugin, PluginEnv, Started};
use tonic::transport::Channel;
use tonic::{Request, Response, Status};

// ---- the framework's resource: the raw handler's type, declared

/// The provider block (empty).
#[derive(ctywire::Object)]
struct Config {}

struct Bench;

impl Provider for Bench {
    const TYPE_NAME: &'static str = "bench";
    type Config = Config;
    type Data = ();

    async fn configure(&self, _: Config) -> Result<()> {
        Ok(())
    }
}

/// `object({id=string, items=list(object({...}))})`.
#[derive(ctywire::Object)]
#[allow(dead_code)] // Planning works on the values; the handlers below never run.
struct Things {
    #[cty(computed)]
    id: Known<String>,
    #[cty(block)]
    items: Vec<Item>,
}

#[derive(ctywire::Object)]
#[allow(dead_code)]
struct Item {
    #[cty(required)]
    name: String,
    #[cty(required)]
    size: f64,
    #[cty(required)]
    price: f64,
    #[cty(required)]
    enabled: bool,
    #[cty(required)]
    tags: BTreeMap<String, String>,
    #[cty(required)]
    zones: Vec<String>,
}

struct ThingsResource;

impl Resource<()> for ThingsResource {
    const NAME: &'static str = "things";
    type State = Things;

    async fn create(&self, _: &Context<()>, planned: Things) -> Result<Things> {
        Ok(planned)
    }

    async fn update(&self, _: &Context<()>, _: Things, planned: Things) -> Result<Things> {
        Ok(planned)
    }

    async fn delete(&self, _: &Context<()>, _: Things) -> Result<()> {
        Ok(())
    }
}

fn framework() -> Server<Bench> {
    Server::new(Bench).resource(ThingsResource)
}

// ---- the raw handler (as in ctywire-tfplugin's plan_round_trip bench)

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

struct Raw {
    ty: Type,
}

#[tonic::async_trait]
impl Service for Raw {
    async fn plan_resource_change(
        &self,
        request: Request<plan_resource_change::Request>,
    ) -> std::result::Result<Response<plan_resource_change::Response>, Status> {
        let req = request.into_inner();
        let ty = &self.ty;
        let _prior = dynamic::decode(req.prior_state.as_ref(), ty).unwrap();
        let _config = dynamic::decode(req.config.as_ref(), ty).unwrap();
        let mut planned = dynamic::decode(req.proposed_new_state.as_ref(), ty).unwrap();
        planned
            .set_at_path(
                &ctywire::Path::root().attribute("id"),
                Value::Unknown(Refinements::new().not_null()),
            )
            .unwrap();
        Ok(Response::new(plan_resource_change::Response {
            planned_state: Some(dynamic::encode(&planned, ty).unwrap()),
            ..Default::default()
        }))
    }
}

// ---- driving both

fn request(type_name: &str, bytes: &DynamicValue) -> plan_resource_change::Request {
    plan_resource_change::Request {
        type_name: type_name.into(),
        prior_state: Some(bytes.clone()),
        proposed_new_state: Some(bytes.clone()),
        config: Some(bytes.clone()),
        ..Default::default()
    }
}

/// Checks the answer is a plan (so that neither side is timed failing).
fn planned(response: plan_resource_change::Response) -> plan_resource_change::Response {
    assert!(
        response.diagnostics.is_empty() && response.planned_state.is_some(),
        "{:?}",
        response.diagnostics
    );
    response
}

async fn connect(started: &Started) -> ProviderClient<Channel> {
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

struct Fixture {
    runtime: tokio::runtime::Runtime,
    raw: Raw,
    framework: Server<Bench>,
    raw_request: plan_resource_change::Request,
    framework_request: plan_resource_change::Request,
    raw_client: ProviderClient<Channel>,
    framework_client: ProviderClient<Channel>,
    started: Vec<Started>,
}

impl Fixture {
    fn new() -> Fixture {
        let ty = resource_type();
        assert_eq!(
            framework().schemas().resource_schemas["bench_things"].implied_type(),
            ty,
            "the framework's resource has the raw handler's type"
        );
        let bytes: DynamicValue = dynamic::encode(&state(20_000), &ty).unwrap();
        println!(
            "payload: {} bytes of MessagePack per value",
            bytes.msgpack.len()
        );
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        let (started, raw_client, framework_client) = runtime.block_on(async {
            let env = PluginEnv::terraform(None);
            let raw = Plugin::new()
                .protocol6(Raw { ty: ty.clone() })
                .start(&env)
                .await
                .unwrap();
            let framework = framework().plugin().start(&env).await.unwrap();
            let (raw_client, framework_client) = (connect(&raw).await, connect(&framework).await);
            (vec![raw, framework], raw_client, framework_client)
        });
        Fixture {
            runtime,
            raw: Raw { ty },
            framework: framework(),
            raw_request: request("bench", &bytes),
            framework_request: request("bench_things", &bytes),
            raw_client,
            framework_client,
            started,
        }
    }

    fn raw_call(&self) -> plan_resource_change::Response {
        let request = Request::new(self.raw_request.clone());
        let response = self
            .runtime
            .block_on(self.raw.plan_resource_change(request));
        planned(response.unwrap().into_inner())
    }

    fn framework_call(&self) -> plan_resource_change::Response {
        let request = Request::new(self.framework_request.clone());
        let response = self
            .runtime
            .block_on(self.framework.plan_resource_change(request));
        planned(response.unwrap().into_inner())
    }

    fn raw_socket(&mut self) -> plan_resource_change::Response {
        let request = self.raw_request.clone();
        let client = &mut self.raw_client;
        let response = self.runtime.block_on(client.plan_resource_change(request));
        planned(response.unwrap().into_inner())
    }

    fn framework_socket(&mut self) -> plan_resource_change::Response {
        let request = self.framework_request.clone();
        let client = &mut self.framework_client;
        let response = self.runtime.block_on(client.plan_resource_change(request));
        planned(response.unwrap().into_inner())
    }

    fn stop(self) {
        for started in self.started {
            started.stop();
            self.runtime.block_on(started.wait()).unwrap();
        }
    }
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// Each run times the raw handler and the framework one after the other (each after an
/// untimed call of its own), so that a busy machine slows both alike.
fn summary(fixture: &mut Fixture) {
    let runs = 31;
    type Call = fn(&mut Fixture) -> plan_resource_change::Response;
    let pairs: [(&str, Call, Call); 2] = [
        (
            "in-process service call",
            |f| f.raw_call(),
            |f| f.framework_call(),
        ),
        (
            "round trip over the socket",
            Fixture::raw_socket,
            Fixture::framework_socket,
        ),
    ];
    println!("\n| PlanResourceChange, 3 x 3 MB | raw handler | framework | ratio |");
    println!("|---|--:|--:|--:|");
    for (label, raw, framework) in pairs {
        let (mut raws, mut frameworks, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..runs {
            black_box(raw(fixture));
            let start = Instant::now();
            black_box(raw(fixture));
            let r = start.elapsed().as_secs_f64();
            black_box(framework(fixture));
            let start = Instant::now();
            black_box(framework(fixture));
            let f = start.elapsed().as_secs_f64();
            raws.push(r);
            frameworks.push(f);
            ratios.push(f / r);
        }
        println!(
            "| {label} | {:.1} ms | {:.1} ms | {:.3}x |",
            median(raws) * 1e3,
            median(frameworks) * 1e3,
            median(ratios)
        );
    }
}

fn main() {
    let mut fixture = Fixture::new();
    if std::env::var_os("CTYWIRE_SUMMARY_ONLY").is_none() {
        let mut c = Criterion::default()
            .sample_size(20)
            .measurement_time(Duration::from_secs(10))
            .configure_from_args();
        let mut group = c.benchmark_group("plan_resource_change");
        group.bench_function("raw/in-process", |b| b.iter(|| fixture.raw_call()));
        group.bench_function("framework/in-process", |b| {
            b.iter(|| fixture.framework_call())
        });
        group.bench_function("raw/socket", |b| b.iter(|| fixture.raw_socket()));
        group.bench_function("framework/socket", |b| {
            b.iter(|| fixture.framework_socket())
        });
        group.finish();
        c.final_summary();
    }
    summary(&mut fixture);
    fixture.stop();
}

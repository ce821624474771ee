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
//!
//! For callgrind, `CTYWIRE_PROFILE=raw` or `CTYWIRE_PROFILE=framework` only builds the
//! payload and makes `CTYWIRE_PROFILE_CALLS` (default 1) in-process calls of that side
//! on a current-thread runtime: the difference between the counts of 2 calls and of 1
//! is one call's, e.g.
//! `valgrind --tool=callgrind --callgrind-out-file=f2.out target/release/deps/plan_round_trip-*`.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use ctywire::Known;
use ctywire_provider::{Context, Provider, Resource, Result, Server};
use ctywire_tfplugin::tfplugin6::provider_client::ProviderClient;
use ctywire_tfplugin::tfplugin6::provider_server::Provider as Service;
use ctywire_tfplugin::tfplugin6::{configure_provider, plan_resource_change, DynamicValue};
use ctywire_tfplugin::{dynamic, Plugin, PluginEnv, Started};
use tonic::transport::Channel;
use tonic::Request;

/// The payload, the raw handler and the client, as ctywire-tfplugin's bench has them.
#[path = "../../ctywire-tfplugin/benches/support/plan.rs"]
mod shared;
use shared::{connect, request, resource_type, state, Raw};

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

/// The empty provider block's `ConfigureProvider` (a resource plans once it is).
fn configure() -> configure_provider::Request {
    let ty: ctywire::Type = "object({})".parse().unwrap();
    let config = ctywire::Value::object(Vec::<(&str, ctywire::Value)>::new());
    configure_provider::Request {
        config: Some(dynamic::encode(&config, &ty).unwrap()),
        ..Default::default()
    }
}

/// Checks the provider took its configuration.
fn configured(response: configure_provider::Response) {
    assert!(
        response.diagnostics.is_empty(),
        "{:?}",
        response.diagnostics
    );
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
            let (raw_client, mut framework_client) =
                (connect(&raw).await, connect(&framework).await);
            let response = framework_client.configure_provider(configure()).await;
            configured(response.unwrap().into_inner());
            (vec![raw, framework], raw_client, framework_client)
        });
        let served = framework();
        let response = runtime.block_on(served.configure_provider(Request::new(configure())));
        configured(response.unwrap().into_inner());
        Fixture {
            runtime,
            raw: Raw { ty },
            framework: served,
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

/// `calls` in-process calls of `side` (`raw` or `framework`), nothing else.
fn profile(side: &str, calls: usize) {
    let ty = resource_type();
    let bytes: DynamicValue = dynamic::encode(&state(20_000), &ty).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (raw, framework) = (Raw { ty }, framework());
    let response = runtime.block_on(framework.configure_provider(Request::new(configure())));
    configured(response.unwrap().into_inner());
    for _ in 0..calls {
        let response = match side {
            "raw" => {
                runtime.block_on(raw.plan_resource_change(Request::new(request("bench", &bytes))))
            }
            "framework" => runtime.block_on(
                framework.plan_resource_change(Request::new(request("bench_things", &bytes))),
            ),
            _ => panic!("CTYWIRE_PROFILE is raw or framework, not {side:?}"),
        };
        black_box(planned(response.unwrap().into_inner()));
    }
}

fn main() {
    if let Ok(side) = std::env::var("CTYWIRE_PROFILE") {
        let calls = std::env::var("CTYWIRE_PROFILE_CALLS").map_or(1, |n| n.parse().unwrap());
        return profile(&side, calls);
    }
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

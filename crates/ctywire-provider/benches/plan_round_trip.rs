//! What the framework adds to a `PlanResourceChange`: a resource served by
//! `ctywire_provider::Server` against raw protocol handlers, on 3 MB payloads (prior
//! state, configuration and proposed new state of 20,000 objects each), in three cases:
//!
//! - `create`: a null prior state; the configuration leaves the computed `id` null, so
//!   the plan makes it unknown;
//! - `update`: three of the 20,000 objects change a `size`; `id` is unknown again (it is
//!   computed, and the object changes);
//! - `unchanged`: the configuration is the prior state's; the plan is the prior state.
//!
//! The proposed new state is what Terraform sends (`Block::proposed_new`, computed in
//! setup, untimed). Two raw handlers:
//!
//! - `same work` ([`Checked`]): what the framework's plan amounts to for this resource,
//!   written on ctywire's public API: decode the three values,
//!   `Block::mark_computed_unknown` (which compares prior and proposed on an update),
//!   `Block::check_plan` (the plan as Terraform will check it), encode the plan. What
//!   still differs: the framework also looks for defaults, `use_state_for_unknown` and
//!   `requires_replace` declarations (none here), runs `modify_plan` (the default, which
//!   does nothing) as a task of its own, calls `check_requires_replace`, and answers an
//!   unchanged plan with the proposed state's bytes (it knows them to be the prior
//!   state's) where the raw handler compares and encodes;
//! - `minimal` (`Raw`, ctywire-tfplugin's bench handler): decode the three values,
//!   set `id` unknown whatever the case, encode. Less than a correct plan: it marks an
//!   unchanged object's id unknown too, and checks nothing.
//!
//! Two ways each: the service called in-process (the framework's own work, undiluted),
//! and the round trip over the plugin's Unix socket as Terraform makes it (no TLS).
//!
//! Run with `cargo bench -p ctywire-provider --bench plan_round_trip`: criterion's
//! figures, then a summary of medians taken alternately (31 runs each) with the ratio of
//! the framework to the same-work handler (the median of the runs' ratios; issue
//! target: at most 1.10x). `CTYWIRE_SUMMARY_ONLY=1` skips criterion. Setup checks that
//! the framework and the same-work handler plan the same bytes in every case.
//!
//! For callgrind, `CTYWIRE_PROFILE=raw`, `same` or `framework` only builds the payload of
//! `CTYWIRE_PROFILE_CASE` (`create`, `update` or `unchanged`; default `update`) and
//! makes `CTYWIRE_PROFILE_CALLS` (default 1) in-process calls of that side on a
//! current-thread runtime: the difference between the counts of 2 calls and of 1 is
//! one call's, e.g.
//! `valgrind --tool=callgrind --callgrind-out-file=f2.out target/release/deps/plan_round_trip-*`.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use ctywire::object::Object;
use ctywire::schema::Block;
use ctywire::{Known, Refinements};
use ctywire_provider::{Context, Provider, Resource, Result, Server};
use ctywire_tfplugin::tfplugin6::provider_client::ProviderClient;
use ctywire_tfplugin::tfplugin6::provider_server::Provider as Service;
use ctywire_tfplugin::tfplugin6::{configure_provider, plan_resource_change, DynamicValue};
use ctywire_tfplugin::{dynamic, Plugin, PluginEnv, Started};
use tonic::transport::Channel;
use tonic::Request;

/// The payload, the raw handler and the client, as ctywire-tfplugin's bench has them.
#[path = "../../ctywire-tfplugin/benches/support/plan.rs"]
#[allow(dead_code)] // `request`, which this bench builds per case instead
mod shared;
use shared::{connect, resource_type, state, Raw};

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

/// A raw protocol handler doing the framework's work for this resource by hand (see the
/// module's header for what still differs).
struct Checked {
    ty: ctywire::Type,
    block: Block,
}

impl Checked {
    fn new() -> Checked {
        Checked {
            ty: resource_type(),
            block: Things::schema_block(),
        }
    }
}

#[tonic::async_trait]
impl Service for Checked {
    async fn plan_resource_change(
        &self,
        request: Request<plan_resource_change::Request>,
    ) -> std::result::Result<tonic::Response<plan_resource_change::Response>, tonic::Status> {
        let req = request.into_inner();
        let decode = |dv: &Option<DynamicValue>| dynamic::decode(dv.as_ref(), &self.ty).unwrap();
        let prior = decode(&req.prior_state);
        let config = decode(&req.config);
        let proposed = decode(&req.proposed_new_state);
        let planned = self
            .block
            .mark_computed_unknown(&prior, &config, &proposed, |_| Refinements::new());
        let found = self.block.check_plan(&prior, &config, &planned);
        assert!(found.is_empty(), "{found:?}");
        Ok(tonic::Response::new(plan_resource_change::Response {
            planned_state: Some(dynamic::encode(&planned, &self.ty).unwrap()),
            planned_private: req.prior_private,
            ..Default::default()
        }))
    }
}

/// What is planned.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Case {
    Create,
    Update,
    Unchanged,
}

impl Case {
    const ALL: [Case; 3] = [Case::Create, Case::Update, Case::Unchanged];

    fn name(self) -> &'static str {
        match self {
            Case::Create => "create",
            Case::Update => "update",
            Case::Unchanged => "unchanged",
        }
    }

    /// Prior state, configuration and proposed new state, as Terraform sends them.
    fn payload(self) -> [DynamicValue; 3] {
        let ty = resource_type();
        let block = Things::schema_block();
        let config = state(20_000);
        let stored = config
            .clone()
            .with_attribute("id", ctywire::Value::from("things-1"))
            .unwrap();
        let (prior, config) = match self {
            Case::Create => (ctywire::Value::Null, config),
            Case::Unchanged => (stored, config),
            Case::Update => {
                let mut changed = config;
                for i in [10u64, 10_000, 19_990] {
                    let size = ctywire::Path::root()
                        .attribute("items")
                        .index(i)
                        .attribute("size");
                    changed.set_at_path(&size, ctywire::Value::from(1)).unwrap();
                }
                (stored, changed)
            }
        };
        let proposed = block.proposed_new(&prior, &config);
        [prior, config, proposed].map(|v| dynamic::encode(&v, &ty).unwrap())
    }
}

/// A request to plan `type_name` with `payload` (prior, configuration, proposed).
fn plan_request(type_name: &str, payload: &[DynamicValue; 3]) -> plan_resource_change::Request {
    let [prior, config, proposed] = payload.clone();
    plan_resource_change::Request {
        type_name: type_name.into(),
        prior_state: Some(prior),
        config: Some(config),
        proposed_new_state: Some(proposed),
        ..Default::default()
    }
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

/// Checks the answer is a plan (so that no side is timed failing).
fn planned(response: plan_resource_change::Response) -> plan_resource_change::Response {
    assert!(
        response.diagnostics.is_empty() && response.planned_state.is_some(),
        "{:?}",
        response.diagnostics
    );
    response
}

/// The three sides.
#[derive(Clone, Copy)]
enum Side {
    Raw,
    Same,
    Framework,
}

struct Fixture {
    runtime: tokio::runtime::Runtime,
    raw: Raw,
    same: Checked,
    framework: Server<Bench>,
    /// Per case: the raw handlers' request and the framework's.
    requests: Vec<(
        Case,
        plan_resource_change::Request,
        plan_resource_change::Request,
    )>,
    same_client: ProviderClient<Channel>,
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
        let requests: Vec<_> = Case::ALL
            .into_iter()
            .map(|case| {
                let payload = case.payload();
                println!(
                    "{}: {} bytes of MessagePack in prior, configuration and proposed state",
                    case.name(),
                    payload.iter().map(|v| v.msgpack.len()).sum::<usize>()
                );
                (
                    case,
                    plan_request("bench", &payload),
                    plan_request("bench_things", &payload),
                )
            })
            .collect();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        let (started, same_client, framework_client) = runtime.block_on(async {
            let env = PluginEnv::terraform(None);
            let same = Plugin::new()
                .protocol6(Checked::new())
                .start(&env)
                .await
                .unwrap();
            let framework = framework().plugin().start(&env).await.unwrap();
            let (same_client, mut framework_client) =
                (connect(&same).await, connect(&framework).await);
            let response = framework_client.configure_provider(configure()).await;
            configured(response.unwrap().into_inner());
            (vec![same, framework], same_client, framework_client)
        });
        let served = framework();
        let response = runtime.block_on(served.configure_provider(Request::new(configure())));
        configured(response.unwrap().into_inner());
        let fixture = Fixture {
            runtime,
            raw: Raw { ty },
            same: Checked::new(),
            framework: served,
            requests,
            same_client,
            framework_client,
            started,
        };
        for (i, (case, ..)) in fixture.requests.iter().enumerate() {
            let same = fixture.call(Side::Same, i).planned_state;
            let framework = fixture.call(Side::Framework, i).planned_state;
            assert_eq!(same, framework, "{case:?}: both plan the same bytes");
        }
        fixture
    }

    /// An in-process call of `side` with case `i`.
    fn call(&self, side: Side, i: usize) -> plan_resource_change::Response {
        let (_, raw, framework) = &self.requests[i];
        let response = match side {
            Side::Raw => self
                .runtime
                .block_on(self.raw.plan_resource_change(Request::new(raw.clone()))),
            Side::Same => self
                .runtime
                .block_on(self.same.plan_resource_change(Request::new(raw.clone()))),
            Side::Framework => self.runtime.block_on(
                self.framework
                    .plan_resource_change(Request::new(framework.clone())),
            ),
        };
        planned(response.unwrap().into_inner())
    }

    /// A call of `side` (the same-work handler or the framework) over the socket.
    fn socket(&mut self, side: Side, i: usize) -> plan_resource_change::Response {
        let (_, raw, framework) = &self.requests[i];
        let response = match side {
            Side::Framework => self.runtime.block_on(
                self.framework_client
                    .plan_resource_change(framework.clone()),
            ),
            _ => self
                .runtime
                .block_on(self.same_client.plan_resource_change(raw.clone())),
        };
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

/// The time of one call, after an untimed one of its own.
fn timed(mut call: impl FnMut() -> plan_resource_change::Response) -> f64 {
    black_box(call());
    let start = Instant::now();
    black_box(call());
    start.elapsed().as_secs_f64()
}

/// Each run times the sides one after the other (each after an untimed call of its
/// own), so that a busy machine slows them alike.
fn summary(fixture: &mut Fixture) {
    let runs = 31;
    println!("\n| PlanResourceChange, 3 x 3 MB | minimal raw | same-work raw | framework | framework / same work |");
    println!("|---|--:|--:|--:|--:|");
    for i in 0..fixture.requests.len() {
        let case = fixture.requests[i].0.name();
        for socket in [false, true] {
            let mut times = [Vec::new(), Vec::new(), Vec::new()];
            let mut ratios = Vec::new();
            for _ in 0..runs {
                let raw = if socket {
                    f64::NAN
                } else {
                    timed(|| fixture.call(Side::Raw, i))
                };
                let (same, framework) = if socket {
                    (
                        timed(|| fixture.socket(Side::Same, i)),
                        timed(|| fixture.socket(Side::Framework, i)),
                    )
                } else {
                    (
                        timed(|| fixture.call(Side::Same, i)),
                        timed(|| fixture.call(Side::Framework, i)),
                    )
                };
                for (all, t) in times.iter_mut().zip([raw, same, framework]) {
                    all.push(t);
                }
                ratios.push(framework / same);
            }
            let [raw, same, framework] = times.map(median);
            let how = if socket {
                "over the socket"
            } else {
                "in-process"
            };
            let raw = if socket {
                "-".to_string()
            } else {
                format!("{:.1} ms", raw * 1e3)
            };
            println!(
                "| {case}, {how} | {raw} | {:.1} ms | {:.1} ms | {:.3}x |",
                same * 1e3,
                framework * 1e3,
                median(ratios)
            );
        }
    }
}

/// `calls` in-process calls of `side` (`raw`, `same` or `framework`) with `case`,
/// nothing else.
fn profile(side: &str, case: &str, calls: usize) {
    let case = Case::ALL
        .into_iter()
        .find(|c| c.name() == case)
        .unwrap_or_else(|| {
            panic!("CTYWIRE_PROFILE_CASE is create, update or unchanged, not {case:?}")
        });
    let payload = case.payload();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (raw, same, framework) = (
        Raw {
            ty: resource_type(),
        },
        Checked::new(),
        framework(),
    );
    let response = runtime.block_on(framework.configure_provider(Request::new(configure())));
    configured(response.unwrap().into_inner());
    for _ in 0..calls {
        let response = match side {
            "raw" => runtime
                .block_on(raw.plan_resource_change(Request::new(plan_request("bench", &payload)))),
            "same" => runtime
                .block_on(same.plan_resource_change(Request::new(plan_request("bench", &payload)))),
            "framework" => runtime.block_on(
                framework
                    .plan_resource_change(Request::new(plan_request("bench_things", &payload))),
            ),
            _ => panic!("CTYWIRE_PROFILE is raw, same or framework, not {side:?}"),
        };
        black_box(planned(response.unwrap().into_inner()));
    }
}

fn main() {
    if let Ok(side) = std::env::var("CTYWIRE_PROFILE") {
        let case = std::env::var("CTYWIRE_PROFILE_CASE").unwrap_or_else(|_| "update".into());
        let calls = std::env::var("CTYWIRE_PROFILE_CALLS").map_or(1, |n| n.parse().unwrap());
        return profile(&side, &case, calls);
    }
    let mut fixture = Fixture::new();
    if std::env::var_os("CTYWIRE_SUMMARY_ONLY").is_none() {
        let mut c = Criterion::default()
            .sample_size(20)
            .measurement_time(Duration::from_secs(10))
            .configure_from_args();
        let mut group = c.benchmark_group("plan_resource_change");
        for i in 0..fixture.requests.len() {
            let case = fixture.requests[i].0.name();
            group.bench_function(format!("{case}/same-work-raw/in-process"), |b| {
                b.iter(|| fixture.call(Side::Same, i))
            });
            group.bench_function(format!("{case}/framework/in-process"), |b| {
                b.iter(|| fixture.call(Side::Framework, i))
            });
            group.bench_function(format!("{case}/same-work-raw/socket"), |b| {
                b.iter(|| fixture.socket(Side::Same, i))
            });
            group.bench_function(format!("{case}/framework/socket"), |b| {
                b.iter(|| fixture.socket(Side::Framework, i))
            });
        }
        group.finish();
        c.final_summary();
    }
    summary(&mut fixture);
    fixture.stop();
}

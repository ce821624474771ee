//! A PlanResourceChange round trip through the tonic service in-process (client and
//! server in one process, over the plugin's Unix socket, no TLS), against decoding the
//! request's three values and encoding the planned value alone; and the time from
//! starting a plugin to its handshake line (in-process: `Plugin::start`).
//!
//! Run with `cargo bench -p ctywire-tfplugin --bench plan_round_trip`; it prints the
//! medians of repeated runs and their ratio (issue target: at most 1.5x).

use std::time::{Duration, Instant};

use ctywire_tfplugin::tfplugin6::DynamicValue;
use ctywire_tfplugin::{dynamic, Plugin, PluginEnv};

/// The payload, the raw handler and the client (shared with ctywire-provider's bench).
#[path = "support/plan.rs"]
mod shared;
use shared::{connect, plan, request, resource_type, state, Raw};

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
            .protocol6(Raw { ty: ty.clone() })
            .start(&PluginEnv::terraform(None))
            .await
            .unwrap();
        let mut client = connect(&started).await;
        let request = request("bench", &bytes);
        // Each run times both, one after the other, so that a busy machine slows both
        // alike; the ratio is the median of the runs' ratios.
        let (mut alone, mut through, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..runs {
            let start = Instant::now();
            std::hint::black_box(plan(&ty, Some(&bytes), Some(&bytes), Some(&bytes)));
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
                .protocol6(Raw { ty: ty.clone() })
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

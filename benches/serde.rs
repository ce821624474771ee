//! The serde bridge's benches: the 3.3 MB list of 10,000 instances (`payloads.rs`)
//! decoded into `Vec<Instance>` structs by `msgpack::decode_as` and by
//! `rmp_serde::from_slice` (the peer: plain MessagePack into the same structs, checking
//! nothing of cty), and encoded from them by `msgpack::encode_from`; then a summary of
//! medians taken alternately (printed, and written to `target/serde-summary.md`).
//!
//! Run with `cargo bench --bench serde`; `CTYWIRE_SUMMARY_ONLY=1` skips criterion and
//! prints the summary alone; `CTYWIRE_PROFILE=decode_as` (or `rmp_serde`, `encode_from`,
//! `encode`)
//! runs one operation 200 times, for `perf record`. The system allocator; freeing the result is never timed
//! (each iteration's result is freed before the next, as in `codec.rs`).

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, Throughput};
use ctywire::msgpack;
use serde::{Deserialize, Serialize};

#[path = "payloads.rs"]
mod payloads;
#[path = "timing.rs"]
mod timing;

/// An element of the instances payload, as a provider would declare it.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Instance {
    ami: String,
    cpu_count: u32,
    disks: Vec<Disk>,
    id: String,
    instance_type: String,
    monitoring: bool,
    private_ip: String,
    security_groups: Vec<String>,
    spot_price: f64,
    tags: BTreeMap<String, String>,
    user_data: Option<String>,
}

/// An element of [`Instance::disks`].
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Disk {
    device_name: String,
    encrypted: bool,
    size: u32,
    volume_type: String,
}

fn decode_as(bytes: &[u8], ty: &ctywire::Type) -> Vec<Instance> {
    msgpack::decode_as(bytes, ty).expect("decode_as reads the payload")
}

fn rmp_serde(bytes: &[u8]) -> Vec<Instance> {
    rmp_serde::from_slice(bytes).expect("rmp-serde reads the payload")
}

fn timed<O>(b: &mut criterion::Bencher<'_>, mut f: impl FnMut() -> O) {
    b.iter_batched(|| (), |()| f(), BatchSize::PerIteration)
}

fn main() {
    payloads::settle_allocator();
    let p = payloads::instances(10_000);
    let structs = decode_as(&p.msgpack, &p.ty);
    assert_eq!(structs, rmp_serde(&p.msgpack), "both read the same structs");
    assert_eq!(
        msgpack::encode_from(&structs, &p.ty).unwrap(),
        p.msgpack,
        "encode_from writes the payload back"
    );
    if let Ok(op) = std::env::var("CTYWIRE_PROFILE") {
        // One operation in a loop, for `perf record` (CTYWIRE_PROFILE_RUNS times, 200 by
        // default).
        let runs = std::env::var("CTYWIRE_PROFILE_RUNS").map_or(200, |n| n.parse().unwrap_or(200));
        for _ in 0..runs {
            match op.as_str() {
                "decode_as" => drop(black_box(decode_as(&p.msgpack, &p.ty))),
                "rmp_serde" => drop(black_box(rmp_serde(&p.msgpack))),
                "encode_from" => drop(black_box(msgpack::encode_from(&structs, &p.ty))),
                "encode" => drop(black_box(msgpack::encode(&p.decoded, &p.ty))),
                _ => panic!("CTYWIRE_PROFILE: decode_as, rmp_serde, encode_from or encode"),
            }
        }
        return;
    }
    if std::env::var_os("CTYWIRE_SUMMARY_ONLY").is_none() {
        let mut c = Criterion::default().configure_from_args();
        let mut g = c.benchmark_group("serde bridge, list of instances");
        g.throughput(Throughput::Bytes(p.msgpack.len() as u64));
        g.bench_function("msgpack::decode_as", |b| {
            timed(b, || decode_as(black_box(&p.msgpack), &p.ty))
        });
        g.bench_function("rmp_serde::from_slice", |b| {
            timed(b, || rmp_serde(black_box(&p.msgpack)))
        });
        g.bench_function("msgpack::encode_from", |b| {
            timed(b, || {
                msgpack::encode_from(black_box(&structs), &p.ty).unwrap()
            })
        });
        g.bench_function("msgpack::decode (Value)", |b| {
            timed(b, || msgpack::decode(black_box(&p.msgpack), &p.ty).unwrap())
        });
        g.finish();
        c.final_summary();
    }
    summary(&p, &structs);
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Medians of alternating blocks of runs: decode_as against rmp-serde, and encode_from
/// against `msgpack::encode` of the decoded `Value`.
fn summary(p: &payloads::Payload, structs: &[Instance]) {
    const REPS: usize = 100;
    let (bridge, peer) = timing::median_pair(
        REPS,
        || decode_as(&p.msgpack, &p.ty),
        || rmp_serde(&p.msgpack),
    );
    let (encode_from, encode) = timing::median_pair(
        REPS,
        || msgpack::encode_from(structs, &p.ty).unwrap(),
        || msgpack::encode(&p.decoded, &p.ty).unwrap(),
    );
    let mb = p.msgpack.len() as f64 / 1e6;
    let table = format!(
        "| payload | bytes | decode_as ms | rmp_serde::from_slice ms | decode_as / rmp-serde | encode_from ms | encode_from MB/s | msgpack::encode (Value) ms |\n\
         |---|--:|--:|--:|--:|--:|--:|--:|\n\
         | {} | {} | {:.2} | {:.2} | {:.2}x | {:.2} | {:.0} | {:.2} |\n",
        p.name,
        p.msgpack.len(),
        ms(bridge),
        ms(peer),
        bridge.as_secs_f64() / peer.as_secs_f64(),
        ms(encode_from),
        mb / encode_from.as_secs_f64(),
        ms(encode),
    );
    println!("\n{table}");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/serde-summary.md");
    let _ = std::fs::write(path, table);
}

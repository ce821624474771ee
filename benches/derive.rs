//! The typed codec of `#[derive(ctywire::Object)]` structs against rmp-serde into the
//! same structs: `msgpack::decode_object` against `rmp_serde::from_slice`, and
//! `msgpack::encode_object` against `rmp_serde::to_vec_named`, on two payloads of
//! `payloads.rs`:
//!
//! - the plain list of 10,000 instances (3.3 MB): the peer reads and writes the very
//!   structs the derive reads;
//! - the realistic list of 5,300 resources (3.3 MB; a `dynamic` attribute, a set of
//!   objects and a map in each): the peer's struct is the same but for the `dynamic`
//!   field, which plain MessagePack cannot read into a `ctywire::Value`: there it is the
//!   wrapper's two parts, the type JSON as bytes and the object it carries as a struct;
//! - the same resources with their `dynamic` values built by hand (`Value::object`, as a
//!   provider builds one; encode only: the bytes are the realistic payload's);
//! - 12,000 DNS-record-set-like resources (2.6 MB) whose maps have non-ASCII keys (NFC):
//!   a map of labels and a nested MAP attribute of objects keyed by region names.
//!
//! rmp-serde checks nothing of cty (key order, set order and duplicates, NFC, the
//! dynamic wrapper's type); the typed codec checks all of it and writes go-cty's bytes.
//!
//! The same two payloads as JSON (`payloads.rs`'s `json`): the typed JSON codec
//! (`json::decode_object`, `json::encode_object`) against the serde bridge into the same
//! structs (`json::decode_as`, `json::encode_from`) and against serde_json into the same
//! structs (`serde_json::from_slice`, `serde_json::to_vec`; for the realistic payload the
//! `dynamic` field is the wrapper's parts: the object it carries as a struct, the type
//! JSON as a `RawValue`). serde_json, like rmp-serde, checks nothing of cty and writes
//! its own escaping.
//!
//! Run with `cargo bench --bench derive --features derive`; `CTYWIRE_SUMMARY_ONLY=1`
//! skips criterion and prints the summary of medians (taken alternately, 100 runs each;
//! written to `target/derive-summary.md`); `CTYWIRE_PROFILE=decode_object` (or
//! `encode_object`, `rmp_serde`, `rmp_serde_encode`, `json_decode_object`,
//! `json_encode_object`, `json_decode_as`, `json_encode_from`, `serde_json`,
//! `serde_json_encode`; with `CTYWIRE_PAYLOAD=instances`, `resources` (the default),
//! `hand_built` (the encodes only) or `records`) runs one operation 200 times (`CTYWIRE_PROFILE_RUNS`), for
//! `perf record` or callgrind (`--toggle-collect='derive::decode_object*'`: each
//! operation is one function that is never inlined).

use std::collections::{BTreeMap, BTreeSet};
use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, Throughput};
use ctywire::object::{JsonField, MsgpackField, Object};
use ctywire::Value;
use ctywire::{json, msgpack};
use serde::{Deserialize, Serialize};

#[path = "payloads.rs"]
mod payloads;
#[path = "timing.rs"]
mod timing;

/// An element of the instances payload.
#[derive(ctywire::Object, Serialize, Deserialize, Debug, PartialEq)]
struct Instance {
    #[cty(required)]
    ami: String,
    #[cty(optional)]
    cpu_count: u32,
    #[cty(optional)]
    disks: Vec<Disk>,
    #[cty(computed)]
    id: String,
    #[cty(required)]
    instance_type: String,
    #[cty(optional)]
    monitoring: bool,
    #[cty(computed)]
    private_ip: String,
    #[cty(optional)]
    security_groups: BTreeSet<String>,
    #[cty(optional)]
    spot_price: f64,
    #[cty(optional)]
    tags: BTreeMap<String, String>,
    #[cty(optional)]
    user_data: Option<String>,
}

/// An element of [`Instance::disks`].
#[derive(ctywire::Object, Serialize, Deserialize, Debug, PartialEq)]
struct Disk {
    #[cty(required)]
    device_name: String,
    #[cty(optional)]
    encrypted: bool,
    #[cty(required)]
    size: u32,
    #[cty(optional)]
    volume_type: String,
}

/// An element of the realistic payload.
#[derive(ctywire::Object, Serialize, Deserialize, Debug, PartialEq)]
struct Resource {
    #[cty(computed)]
    arn: String,
    #[cty(optional)]
    cpu_count: u32,
    #[cty(optional)]
    enabled: bool,
    #[cty(computed)]
    id: String,
    #[cty(optional)]
    ingress: BTreeSet<Rule>,
    #[cty(required)]
    name: String,
    #[cty(optional)]
    security_groups: BTreeSet<String>,
    #[cty(optional)]
    settings: Value,
    #[cty(optional)]
    tags: BTreeMap<String, String>,
    #[cty(optional)]
    zone: String,
}

/// An element of [`Resource::ingress`].
#[derive(ctywire::Object, Serialize, Deserialize, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Rule {
    #[cty(required)]
    cidr_block: String,
    #[cty(optional)]
    description: String,
    #[cty(required)]
    from_port: u32,
    #[cty(required)]
    protocol: String,
    #[cty(required)]
    to_port: u32,
}

/// An element of the non-ASCII keys payload (`payloads::records`).
#[derive(ctywire::Object, Serialize, Deserialize, Debug, PartialEq)]
struct RecordSet {
    #[cty(optional)]
    labels: BTreeMap<String, String>,
    #[cty(required)]
    name: String,
    #[cty(required)]
    records: BTreeSet<String>,
    #[cty(nested, optional)]
    routing: BTreeMap<String, Target>,
    #[cty(required)]
    ttl: u32,
}

/// An element of [`RecordSet::routing`].
#[derive(ctywire::Object, Serialize, Deserialize, Debug, PartialEq)]
struct Target {
    #[cty(required)]
    region: String,
    #[cty(required)]
    weight: u32,
}

/// [`Resource`] for rmp-serde: the `dynamic` field as the wrapper's parts.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct PeerResource {
    arn: String,
    cpu_count: u32,
    enabled: bool,
    id: String,
    ingress: BTreeSet<Rule>,
    name: String,
    security_groups: BTreeSet<String>,
    settings: (TypeJson, Settings),
    tags: BTreeMap<String, String>,
    zone: String,
}

/// [`Resource`] for serde_json: the `dynamic` field as the wrapper's parts.
#[derive(Serialize, Deserialize, Debug)]
struct JsonPeerResource {
    arn: String,
    cpu_count: u32,
    enabled: bool,
    id: String,
    ingress: BTreeSet<Rule>,
    name: String,
    security_groups: BTreeSet<String>,
    settings: JsonWrapper,
    tags: BTreeMap<String, String>,
    zone: String,
}

/// A dynamic value's JSON wrapper, for serde_json: the value as a struct, the type JSON
/// as it stands.
#[derive(Serialize, Deserialize, Debug)]
struct JsonWrapper {
    value: Settings,
    #[serde(rename = "type")]
    ty: Box<serde_json::value::RawValue>,
}

/// What [`Resource::settings`] holds.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Settings {
    image: String,
    ports: Vec<u32>,
    replicas: u32,
}

/// A dynamic wrapper's type JSON: MessagePack binary data.
#[derive(Debug, PartialEq)]
struct TypeJson(Vec<u8>);

impl Serialize for TypeJson {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for TypeJson {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TypeJson, D::Error> {
        struct Bytes;
        impl serde::de::Visitor<'_> for Bytes {
            type Value = TypeJson;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("binary data")
            }
            fn visit_bytes<E: serde::de::Error>(self, b: &[u8]) -> Result<TypeJson, E> {
                Ok(TypeJson(b.to_vec()))
            }
        }
        d.deserialize_bytes(Bytes)
    }
}

#[inline(never)]
fn decode_object<T: MsgpackField>(bytes: &[u8]) -> Vec<T> {
    msgpack::decode_object(bytes).expect("the typed decoder reads the payload")
}

#[inline(never)]
fn rmp_serde<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Vec<T> {
    rmp_serde::from_slice(bytes).expect("rmp-serde reads the payload")
}

#[inline(never)]
fn encode_object<T: MsgpackField>(structs: &Vec<T>) -> Vec<u8> {
    msgpack::encode_object(structs).expect("the typed encoder writes the structs")
}

#[inline(never)]
fn rmp_serde_encode<T: Serialize>(structs: &[T]) -> Vec<u8> {
    rmp_serde::to_vec_named(structs).expect("rmp-serde writes the structs")
}

#[inline(never)]
fn json_decode_object<T: JsonField>(text: &[u8]) -> Vec<T> {
    json::decode_object(text).expect("the typed JSON decoder reads the payload")
}

#[inline(never)]
fn json_encode_object<T: JsonField>(structs: &Vec<T>) -> Vec<u8> {
    json::encode_object(structs).expect("the typed JSON encoder writes the structs")
}

#[inline(never)]
fn json_decode_as<T: serde::de::DeserializeOwned + Object>(text: &[u8]) -> Vec<T> {
    json::decode_as(text, &ctywire::Type::list(T::cty_type()))
        .expect("the serde bridge reads the payload")
}

#[inline(never)]
fn json_encode_from<T: Serialize + Object>(structs: &[T]) -> Vec<u8> {
    json::encode_from(structs, &ctywire::Type::list(T::cty_type()))
        .expect("the serde bridge writes the structs")
}

#[inline(never)]
fn serde_json<T: serde::de::DeserializeOwned>(text: &[u8]) -> Vec<T> {
    serde_json::from_slice(text).expect("serde_json reads the payload")
}

#[inline(never)]
fn serde_json_encode<T: Serialize>(structs: &[T]) -> Vec<u8> {
    serde_json::to_vec(structs).expect("serde_json writes the structs")
}

fn timed<O>(b: &mut criterion::Bencher<'_>, mut f: impl FnMut() -> O) {
    b.iter_batched(|| (), |()| f(), BatchSize::PerIteration)
}

/// One payload's structs, for the derive and for the peers (rmp-serde's, serde_json's).
struct Case<T, P, J> {
    payload: payloads::Payload,
    structs: Vec<T>,
    peer: Vec<P>,
    json_peer: Vec<J>,
}

fn case<T, P, J>(payload: payloads::Payload) -> Case<T, P, J>
where
    T: JsonField + serde::de::DeserializeOwned + Serialize + Object + PartialEq + std::fmt::Debug,
    P: serde::de::DeserializeOwned,
    J: serde::de::DeserializeOwned,
{
    let structs: Vec<T> = decode_object(&payload.msgpack);
    assert_eq!(
        encode_object(&structs),
        payload.msgpack,
        "the typed encoder writes the payload back"
    );
    let peer: Vec<P> = rmp_serde(&payload.msgpack);
    assert_eq!(
        json_decode_object::<T>(&payload.json),
        structs,
        "the typed JSON decoder reads the same structs"
    );
    assert_eq!(
        json_encode_object(&structs),
        payload.json,
        "the typed JSON encoder writes the payload back"
    );
    assert_eq!(
        json_decode_as::<T>(&payload.json),
        structs,
        "the serde bridge reads the same structs"
    );
    assert_eq!(
        json_encode_from(&structs),
        payload.json,
        "the serde bridge writes the payload back"
    );
    let json_peer: Vec<J> = serde_json(&payload.json);
    Case {
        payload,
        structs,
        peer,
        json_peer,
    }
}

fn main() {
    payloads::settle_allocator();
    let instances: Case<Instance, Instance, Instance> = case(payloads::instances(10_000));
    assert_eq!(
        instances.structs, instances.peer,
        "both read the same structs"
    );
    assert_eq!(
        instances.structs, instances.json_peer,
        "serde_json reads the same structs"
    );
    let resources: Case<Resource, PeerResource, JsonPeerResource> =
        case(payloads::resources(5_300));
    let hand_built = hand_built(&resources);
    let records: Case<RecordSet, RecordSet, RecordSet> = case(payloads::records(12_000));
    assert_eq!(records.structs, records.peer, "both read the same records");
    if let Ok(op) = std::env::var("CTYWIRE_PROFILE") {
        let runs = std::env::var("CTYWIRE_PROFILE_RUNS").map_or(200, |n| n.parse().unwrap_or(200));
        let payload = std::env::var("CTYWIRE_PAYLOAD").unwrap_or_default();
        if payload == "hand_built" || payload == "records" {
            for _ in 0..runs {
                match (op.as_str(), payload.as_str()) {
                    ("encode_object", "hand_built") => drop(black_box(encode_object(&hand_built))),
                    ("rmp_serde_encode", "hand_built") => {
                        drop(black_box(rmp_serde_encode(&resources.peer)))
                    }
                    ("decode_object", _) => drop(black_box(decode_object::<RecordSet>(
                        &records.payload.msgpack,
                    ))),
                    ("rmp_serde", _) => drop(black_box(rmp_serde::<RecordSet>(
                        &records.payload.msgpack,
                    ))),
                    ("encode_object", _) => drop(black_box(encode_object(&records.structs))),
                    ("rmp_serde_encode", _) => drop(black_box(rmp_serde_encode(&records.peer))),
                    _ => panic!(
                        "CTYWIRE_PAYLOAD={payload}: CTYWIRE_PROFILE=decode_object, encode_object, rmp_serde or rmp_serde_encode (hand_built: the encodes)"
                    ),
                }
            }
            return;
        }
        let realistic = payload != "instances";
        for _ in 0..runs {
            match (op.as_str(), realistic) {
                ("decode_object", true) => drop(black_box(decode_object::<Resource>(
                    &resources.payload.msgpack,
                ))),
                ("decode_object", false) => drop(black_box(decode_object::<Instance>(
                    &instances.payload.msgpack,
                ))),
                ("encode_object", true) => drop(black_box(encode_object(&resources.structs))),
                ("encode_object", false) => drop(black_box(encode_object(&instances.structs))),
                ("rmp_serde", true) => drop(black_box(rmp_serde::<PeerResource>(
                    &resources.payload.msgpack,
                ))),
                ("rmp_serde", false) => {
                    drop(black_box(rmp_serde::<Instance>(&instances.payload.msgpack)))
                }
                ("rmp_serde_encode", true) => drop(black_box(rmp_serde_encode(&resources.peer))),
                ("rmp_serde_encode", false) => drop(black_box(rmp_serde_encode(&instances.peer))),
                ("json_decode_object", true) => drop(black_box(json_decode_object::<Resource>(
                    &resources.payload.json,
                ))),
                ("json_decode_object", false) => drop(black_box(
                    json_decode_object::<Instance>(&instances.payload.json),
                )),
                ("json_encode_object", true) => {
                    drop(black_box(json_encode_object(&resources.structs)))
                }
                ("json_encode_object", false) => {
                    drop(black_box(json_encode_object(&instances.structs)))
                }
                ("json_decode_as", true) => drop(black_box(json_decode_as::<Resource>(
                    &resources.payload.json,
                ))),
                ("json_decode_as", false) => drop(black_box(json_decode_as::<Instance>(
                    &instances.payload.json,
                ))),
                ("json_encode_from", true) => drop(black_box(json_encode_from(&resources.structs))),
                ("json_encode_from", false) => {
                    drop(black_box(json_encode_from(&instances.structs)))
                }
                ("serde_json", true) => drop(black_box(serde_json::<JsonPeerResource>(
                    &resources.payload.json,
                ))),
                ("serde_json", false) => {
                    drop(black_box(serde_json::<Instance>(&instances.payload.json)))
                }
                ("serde_json_encode", true) => {
                    drop(black_box(serde_json_encode(&resources.json_peer)))
                }
                ("serde_json_encode", false) => {
                    drop(black_box(serde_json_encode(&instances.json_peer)))
                }
                _ => panic!(
                    "CTYWIRE_PROFILE: decode_object, encode_object, rmp_serde, rmp_serde_encode, json_decode_object, json_encode_object, json_decode_as, json_encode_from, serde_json or serde_json_encode"
                ),
            }
        }
        return;
    }
    if std::env::var_os("CTYWIRE_SUMMARY_ONLY").is_none() {
        let mut c = Criterion::default().configure_from_args();
        bench(&mut c, &instances);
        bench(&mut c, &resources);
        bench(&mut c, &records);
        let mut g = c.benchmark_group("derive, realistic resources, dynamic values built by hand");
        g.throughput(Throughput::Bytes(resources.payload.msgpack.len() as u64));
        g.bench_function("msgpack::encode_object", |b| {
            timed(b, || encode_object(black_box(&hand_built)))
        });
        g.bench_function("rmp_serde::to_vec_named", |b| {
            timed(b, || rmp_serde_encode(black_box(&resources.peer)))
        });
        g.finish();
        c.final_summary();
    }
    let mut table = String::from(
        "| payload | bytes | decode_object ms | rmp_serde::from_slice ms | decode ratio | encode_object ms | rmp_serde::to_vec_named ms | encode ratio |\n\
         |---|--:|--:|--:|--:|--:|--:|--:|\n",
    );
    table.push_str(&summary(&instances));
    table.push_str(&summary(&resources));
    table.push_str(&hand_built_summary(&resources, &hand_built));
    table.push_str(&summary(&records));
    table.push_str(
        "\n| payload | JSON bytes | json::decode_object ms | json::decode_as ms | serde_json::from_slice ms | vs decode_as | vs serde_json | json::encode_object ms | json::encode_from ms | serde_json::to_vec ms | vs encode_from | vs serde_json |\n\
         |---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
    );
    table.push_str(&json_summary(&instances));
    table.push_str(&json_summary(&resources));
    table.push_str(&json_summary(&records));
    println!("\n{table}");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/derive-summary.md");
    let _ = std::fs::write(path, table);
}

/// The realistic resources with each `dynamic` value built by hand, as a provider builds
/// one: `Value::object` of plain values, no type recorded. The typed encoder writes the
/// payload's bytes from them.
fn hand_built(resources: &Case<Resource, PeerResource, JsonPeerResource>) -> Vec<Resource> {
    let mut structs: Vec<Resource> = decode_object(&resources.payload.msgpack);
    for (r, peer) in structs.iter_mut().zip(&resources.peer) {
        let s = &peer.settings.1;
        r.settings = Value::object([
            ("image", Value::from(s.image.as_str())),
            (
                "ports",
                Value::list(s.ports.iter().map(|p| Value::from(*p))),
            ),
            ("replicas", Value::from(s.replicas)),
        ]);
    }
    assert_eq!(
        encode_object(&structs),
        resources.payload.msgpack,
        "the typed encoder writes the hand-built values as the payload"
    );
    structs
}

/// The row of the hand-built `dynamic` values: encode only (the bytes, and so the
/// decode, are the realistic payload's).
fn hand_built_summary(
    resources: &Case<Resource, PeerResource, JsonPeerResource>,
    hand_built: &Vec<Resource>,
) -> String {
    const REPS: usize = 100;
    let (encode, peer_encode) = timing::median_pair(
        REPS,
        || encode_object(hand_built),
        || rmp_serde_encode(&resources.peer),
    );
    format!(
        "| realistic resources, dynamic built by hand | {} | | | | {:.2} | {:.2} | {:.2}x |\n",
        resources.payload.msgpack.len(),
        ms(encode),
        ms(peer_encode),
        encode.as_secs_f64() / peer_encode.as_secs_f64(),
    )
}

fn bench<T, P, J>(c: &mut Criterion, case: &Case<T, P, J>)
where
    T: JsonField + serde::de::DeserializeOwned + Serialize + Object,
    P: serde::de::DeserializeOwned + Serialize,
    J: serde::de::DeserializeOwned + Serialize,
{
    let bytes = &case.payload.msgpack;
    let mut g = c.benchmark_group(format!("derive, {}", case.payload.name));
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("msgpack::decode_object", |b| {
        timed(b, || decode_object::<T>(black_box(bytes)))
    });
    g.bench_function("rmp_serde::from_slice", |b| {
        timed(b, || rmp_serde::<P>(black_box(bytes)))
    });
    g.bench_function("msgpack::encode_object", |b| {
        timed(b, || encode_object(black_box(&case.structs)))
    });
    g.bench_function("rmp_serde::to_vec_named", |b| {
        timed(b, || rmp_serde_encode(black_box(&case.peer)))
    });
    g.finish();
    let text = &case.payload.json;
    let mut g = c.benchmark_group(format!("derive JSON, {}", case.payload.name));
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("json::decode_object", |b| {
        timed(b, || json_decode_object::<T>(black_box(text)))
    });
    g.bench_function("json::decode_as", |b| {
        timed(b, || json_decode_as::<T>(black_box(text)))
    });
    g.bench_function("serde_json::from_slice", |b| {
        timed(b, || serde_json::<J>(black_box(text)))
    });
    g.bench_function("json::encode_object", |b| {
        timed(b, || json_encode_object(black_box(&case.structs)))
    });
    g.bench_function("json::encode_from", |b| {
        timed(b, || json_encode_from(black_box(&case.structs)))
    });
    g.bench_function("serde_json::to_vec", |b| {
        timed(b, || serde_json_encode(black_box(&case.json_peer)))
    });
    g.finish();
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn summary<T, P, J>(case: &Case<T, P, J>) -> String
where
    T: MsgpackField,
    P: serde::de::DeserializeOwned + Serialize,
{
    const REPS: usize = 100;
    let bytes = &case.payload.msgpack;
    let (decode, peer_decode) =
        timing::median_pair(REPS, || decode_object::<T>(bytes), || rmp_serde::<P>(bytes));
    let (encode, peer_encode) = timing::median_pair(
        REPS,
        || encode_object(&case.structs),
        || rmp_serde_encode(&case.peer),
    );
    format!(
        "| {} | {} | {:.2} | {:.2} | {:.2}x | {:.2} | {:.2} | {:.2}x |\n",
        case.payload.name,
        bytes.len(),
        ms(decode),
        ms(peer_decode),
        decode.as_secs_f64() / peer_decode.as_secs_f64(),
        ms(encode),
        ms(peer_encode),
        encode.as_secs_f64() / peer_encode.as_secs_f64(),
    )
}

/// The JSON row: each typed operation timed in alternation with each of its peers.
fn json_summary<T, P, J>(case: &Case<T, P, J>) -> String
where
    T: JsonField + serde::de::DeserializeOwned + Serialize + Object,
    J: serde::de::DeserializeOwned + Serialize,
{
    const REPS: usize = 100;
    let text = &case.payload.json;
    let (decode, bridge_decode) = timing::median_pair(
        REPS,
        || json_decode_object::<T>(text),
        || json_decode_as::<T>(text),
    );
    let (decode_again, peer_decode) = timing::median_pair(
        REPS,
        || json_decode_object::<T>(text),
        || serde_json::<J>(text),
    );
    let (encode, bridge_encode) = timing::median_pair(
        REPS,
        || json_encode_object(&case.structs),
        || json_encode_from(&case.structs),
    );
    let (encode_again, peer_encode) = timing::median_pair(
        REPS,
        || json_encode_object(&case.structs),
        || serde_json_encode(&case.json_peer),
    );
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    format!(
        "| {} | {} | {:.2} | {:.2} | {:.2} | {:.2}x | {:.2}x | {:.2} | {:.2} | {:.2} | {:.2}x | {:.2}x |\n",
        case.payload.name,
        text.len(),
        ms(decode),
        ms(bridge_decode),
        ms(peer_decode),
        ratio(decode, bridge_decode),
        ratio(decode_again, peer_decode),
        ms(encode),
        ms(bridge_encode),
        ms(peer_encode),
        ratio(encode, bridge_encode),
        ratio(encode_again, peer_encode),
    )
}

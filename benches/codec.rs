//! ctywire's codec benches: criterion benches for every payload and codec, then a summary
//! table (median wall time of repeated runs, and peak heap from a counting allocator),
//! printed and written to `target/perf-summary.md`.
//!
//! Run with `cargo bench --bench codec`. Pass criterion's usual arguments after `--`
//! (e.g. a filter); set `CTYWIRE_SUMMARY_ONLY=1` to skip criterion and print the table,
//! or `CTYWIRE_NO_SUMMARY=1` to skip the table.
//!
//! Allocator: the system allocator (glibc malloc on Linux), wrapped by a counter that
//! counts only while a peak is measured (in runs of their own); during timings it adds
//! one relaxed load per allocation and deallocation. Timings of
//! decoders and encoders exclude freeing the result: each iteration's result is freed,
//! untimed, before the next iteration (criterion's `iter_batched` with
//! `BatchSize::PerIteration`; the summary likewise), and the summary times freeing
//! separately.
//! Encoders encode the tree as decoded from the payload (what a provider re-encodes
//! after reading state); `encode (built by hand)` encodes the value as the generator
//! built it with `Value::object` and friends.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput};
use ctywire::{json, msgpack, Value};

mod alloc;
#[path = "payloads.rs"]
mod payloads;
#[path = "timing.rs"]
mod timing;

use payloads::Payload;
use timing::median_pair;

#[global_allocator]
static ALLOC: alloc::Counting = alloc::Counting;

fn rmpv_decode(bytes: &[u8]) -> rmpv::Value {
    rmpv::decode::read_value(&mut &bytes[..]).expect("rmpv reads the payload")
}

fn serde_json_decode(bytes: &[u8]) -> serde_json::Value {
    serde_json::from_slice(bytes).expect("serde_json reads the payload")
}

/// Times `f` once per iteration and frees its result after the timer stops, before the
/// next iteration, so every iteration reuses the memory the last one freed, as a
/// long-running process does. (`iter_with_large_drop` keeps a whole sample's results
/// alive, so every iteration writes fresh pages and pays a page fault per 4 KiB: the
/// instances decode measured 15.5 ms that way against 9 ms here.)
fn timed<O>(b: &mut criterion::Bencher<'_>, mut f: impl FnMut() -> O) {
    b.iter_batched(|| (), |()| f(), BatchSize::PerIteration)
}

fn bench_payload(c: &mut Criterion, p: &Payload) {
    let mut g = c.benchmark_group(p.name);
    g.throughput(Throughput::Bytes(p.msgpack.len() as u64));
    g.bench_function("msgpack decode", |b| {
        timed(b, || msgpack::decode(black_box(&p.msgpack), &p.ty).unwrap())
    });
    g.bench_function("rmpv read_value", |b| {
        timed(b, || rmpv_decode(black_box(&p.msgpack)))
    });
    g.bench_function("msgpack encode", |b| {
        timed(b, || msgpack::encode(black_box(&p.decoded), &p.ty).unwrap())
    });
    g.bench_function("msgpack encode (built by hand)", |b| {
        timed(b, || msgpack::encode(black_box(&p.value), &p.ty).unwrap())
    });
    g.throughput(Throughput::Bytes(p.json.len() as u64));
    g.bench_function("json decode", |b| {
        timed(b, || json::decode(black_box(&p.json), &p.ty).unwrap())
    });
    g.bench_function("serde_json Value", |b| {
        timed(b, || serde_json_decode(black_box(&p.json)))
    });
    g.bench_function("json encode", |b| {
        timed(b, || json::encode(black_box(&p.decoded), &p.ty).unwrap())
    });
    g.finish();
}

const SCALES: [usize; 3] = [1_000, 10_000, 100_000];

/// The set payloads at 1k, 10k and 100k elements.
fn scaled_sets() -> Vec<(usize, Payload)> {
    let mut out = Vec::new();
    for n in SCALES {
        out.push((n, payloads::string_set(n)));
        out.push((n, payloads::object_set(n)));
    }
    out
}

/// The elements of a set payload in a shuffled order, to build the set from.
fn shuffled(p: &Payload) -> Vec<Value> {
    let mut elements = p.value.as_slice().expect("a set").to_vec();
    let mut rng = payloads::Lcg::new(5);
    for i in (1..elements.len()).rev() {
        elements.swap(i, rng.below(i as u64 + 1) as usize);
    }
    elements
}

fn bench_sets(c: &mut Criterion, sets: &[(usize, Payload)]) {
    let mut g = c.benchmark_group("set scaling");
    for (n, p) in sets {
        let kind = if p.name.contains("string") {
            "strings"
        } else {
            "objects"
        };
        g.throughput(Throughput::Elements(*n as u64));
        g.bench_with_input(BenchmarkId::new(format!("{kind} decode"), n), p, |b, p| {
            timed(b, || msgpack::decode(&p.msgpack, &p.ty).unwrap())
        });
        g.bench_with_input(BenchmarkId::new(format!("{kind} encode"), n), p, |b, p| {
            timed(b, || msgpack::encode(&p.decoded, &p.ty).unwrap())
        });
        let elements = shuffled(p);
        g.bench_with_input(
            BenchmarkId::new(format!("{kind} build shuffled"), n),
            &elements,
            |b, elements| {
                b.iter_batched(
                    || elements.clone(),
                    ctywire::Set::new,
                    BatchSize::PerIteration,
                )
            },
        );
    }
    g.finish();
}

// ---------------------------------------------------------------------------------------
// Summary

/// Median wall time of `reps` runs of `f`; each result is dropped outside the timing.
fn median<T>(reps: usize, mut f: impl FnMut() -> T) -> Duration {
    drop(black_box(f())); // warm up
    let mut times: Vec<Duration> = (0..reps)
        .map(|_| {
            let start = Instant::now();
            let out = black_box(f());
            let t = start.elapsed();
            drop(out);
            t
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// Median wall time of dropping the result of `make`, over `reps` runs.
fn median_drop<T>(reps: usize, mut make: impl FnMut() -> T) -> Duration {
    let mut times: Vec<Duration> = (0..reps)
        .map(|_| {
            let out = black_box(make());
            let start = Instant::now();
            drop(out);
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// Peak heap above the starting point while running `f` (its result included).
fn peak<T>(f: impl FnOnce() -> T) -> usize {
    let (out, peak) = alloc::measure(f);
    drop(out);
    peak
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Decimal megabytes per second.
fn mbps(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / 1e6 / d.as_secs_f64()
}

fn mb(bytes: usize) -> f64 {
    bytes as f64 / 1e6
}

fn reps_for(bytes: usize) -> usize {
    // About 25 runs of a 3 MB payload, more for small ones.
    (75_000_000 / bytes.max(1)).clamp(15, 201)
}

fn summary(all: &[Payload], sets: &[(usize, Payload)]) -> String {
    let mut s = String::new();
    let push = |s: &mut String, line: String| {
        s.push_str(&line);
        s.push('\n');
    };
    push(
        &mut s,
        "MessagePack (times are medians; decode excludes freeing the tree, `free` is that; ctywire and rmpv decode in alternating blocks of 5 runs, each block after one untimed run):\n"
            .into(),
    );
    push(&mut s, "| payload | bytes | decode ms | MB/s | free ms | rmpv ms | rmpv free ms | rmpv / ctywire | encode ms | encode MB/s | encode (built by hand) ms | peak heap MB | peak / bytes | rmpv peak MB |".into());
    push(
        &mut s,
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|".into(),
    );
    for p in all {
        let b = &p.msgpack;
        let reps = reps_for(b.len());
        let (dec, rmpv) = median_pair(
            reps,
            || msgpack::decode(b, &p.ty).unwrap(),
            || rmpv_decode(b),
        );
        let free = median_drop(reps, || msgpack::decode(b, &p.ty).unwrap());
        let rmpv_free = median_drop(reps, || rmpv_decode(b));
        let enc = median(reps, || msgpack::encode(&p.decoded, &p.ty).unwrap());
        let enc_hand = median(reps, || msgpack::encode(&p.value, &p.ty).unwrap());
        let heap = peak(|| msgpack::decode(b, &p.ty).unwrap());
        let rmpv_heap = peak(|| rmpv_decode(b));
        push(
            &mut s,
            format!(
                "| {} | {} | {:.2} | {:.0} | {:.2} | {:.2} | {:.2} | {:.1}x | {:.2} | {:.0} | {:.2} | {:.2} | {:.2}x | {:.2} |",
                p.name,
                b.len(),
                ms(dec),
                mbps(b.len(), dec),
                ms(free),
                ms(rmpv),
                ms(rmpv_free),
                rmpv.as_secs_f64() / dec.as_secs_f64(),
                ms(enc),
                mbps(b.len(), enc),
                ms(enc_hand),
                mb(heap),
                heap as f64 / b.len() as f64,
                mb(rmpv_heap),
            ),
        );
    }
    push(
        &mut s,
        "\nJSON (times are medians; decode excludes freeing; ctywire and serde_json decode in alternating blocks of 5 runs, each block after one untimed run):\n".into(),
    );
    push(&mut s, "| payload | bytes | decode ms | MB/s | serde_json::Value ms | serde / ctywire | encode ms | encode MB/s | peak heap MB | peak / bytes | serde_json peak MB | serde peak / ctywire peak |".into());
    push(
        &mut s,
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|".into(),
    );
    for p in all {
        let b = &p.json;
        let reps = reps_for(b.len());
        let (dec, serde) = median_pair(
            reps,
            || json::decode(b, &p.ty).unwrap(),
            || serde_json_decode(b),
        );
        let enc = median(reps, || json::encode(&p.decoded, &p.ty).unwrap());
        let heap = peak(|| json::decode(b, &p.ty).unwrap());
        let serde_heap = peak(|| serde_json_decode(b));
        push(
            &mut s,
            format!(
                "| {} | {} | {:.2} | {:.0} | {:.2} | {:.2}x | {:.2} | {:.0} | {:.2} | {:.2}x | {:.2} | {:.1}x |",
                p.name,
                b.len(),
                ms(dec),
                mbps(b.len(), dec),
                ms(serde),
                serde.as_secs_f64() / dec.as_secs_f64(),
                ms(enc),
                mbps(b.len(), enc),
                mb(heap),
                heap as f64 / b.len() as f64,
                mb(serde_heap),
                serde_heap as f64 / heap as f64,
            ),
        );
    }
    push(
        &mut s,
        "\nSet scaling, MessagePack (ns per element; `/log2 n` divides that by log2 n, flat for n log n growth):\n".into(),
    );
    push(&mut s, "| set | n | bytes | decode ms | ns/elem | encode ms | ns/elem | build from shuffled ms | ns/elem | ns/(elem log2 n) |".into());
    push(&mut s, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|".into());
    for (n, p) in sets {
        let reps = reps_for(p.msgpack.len() * 3);
        let dec = median(reps, || msgpack::decode(&p.msgpack, &p.ty).unwrap());
        let enc = median(reps, || msgpack::encode(&p.decoded, &p.ty).unwrap());
        let elements = shuffled(p);
        let build = {
            let mut times: Vec<Duration> = (0..reps)
                .map(|_| {
                    let e = elements.clone();
                    let start = Instant::now();
                    let set = black_box(ctywire::Set::new(e));
                    let t = start.elapsed();
                    drop(set);
                    t
                })
                .collect();
            times.sort();
            times[times.len() / 2]
        };
        let per = |d: Duration| d.as_secs_f64() * 1e9 / *n as f64;
        push(
            &mut s,
            format!(
                "| {} | {} | {} | {:.2} | {:.0} | {:.2} | {:.0} | {:.2} | {:.0} | {:.1} |",
                p.name,
                n,
                p.msgpack.len(),
                ms(dec),
                per(dec),
                ms(enc),
                per(enc),
                ms(build),
                per(build),
                per(build) / (*n as f64).log2(),
            ),
        );
    }
    s
}

/// Medians of the four decoders on `p` with glibc's thresholds as payload generation
/// left them, then after [`payloads::settle_allocator`] (which stays in effect for the
/// rest of the run).
fn allocator_states(p: &Payload) -> String {
    let mut s = String::from(
        "Allocator state, list of instances (medians; every other figure in this file is taken settled):\n\n| glibc thresholds | msgpack decode ms | rmpv ms | rmpv / ctywire | JSON decode ms | serde_json::Value ms | serde / ctywire |\n|---|--:|--:|--:|--:|--:|--:|\n",
    );
    for settled in [false, true] {
        if settled {
            payloads::settle_allocator();
        }
        let (d, r) = median_pair(
            21,
            || msgpack::decode(&p.msgpack, &p.ty).unwrap(),
            || rmpv_decode(&p.msgpack),
        );
        let (j, v) = median_pair(
            21,
            || json::decode(&p.json, &p.ty).unwrap(),
            || serde_json_decode(&p.json),
        );
        s.push_str(&format!(
            "| {} | {:.2} | {:.2} | {:.1}x | {:.2} | {:.2} | {:.2}x |\n",
            if settled {
                "settled (a 32 MiB block freed at start)"
            } else {
                "as left by payload generation"
            },
            ms(d),
            ms(r),
            r.as_secs_f64() / d.as_secs_f64(),
            ms(j),
            ms(v),
            v.as_secs_f64() / j.as_secs_f64(),
        ));
    }
    s
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!("{cpu}, {cores} cores available")
}

fn main() {
    let all = payloads::all();
    let sets = scaled_sets();
    // The decoders on the instances payload before and after settling the allocator
    // (the state cannot be undone, so the "before" runs come first).
    let states = allocator_states(&all[0]);
    // The summary is measured before criterion runs: criterion's own large allocations
    // change glibc's state (how much freed memory it keeps) for what follows.
    let text = if std::env::var_os("CTYWIRE_NO_SUMMARY").is_none() {
        let table = format!("{}\n{states}", summary(&all, &sets));
        Some(format!(
            "# ctywire perf summary\n\nMachine: {}. Allocator: the system allocator (glibc malloc), wrapped by a counter that counts only in the separate peak-heap runs (peak heap = most bytes requested at once during one decode, the result included). Timings exclude freeing the result (freed untimed before the next run) except the `free` columns, which time only that. MB = 10^6 bytes.\n\n{table}",
            machine()
        ))
    } else {
        None
    };
    if std::env::var_os("CTYWIRE_SUMMARY_ONLY").is_none() {
        let mut c = Criterion::default()
            .sample_size(20)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3))
            .configure_from_args();
        for p in &all {
            bench_payload(&mut c, p);
        }
        bench_sets(&mut c, &sets);
        c.final_summary();
    }
    let Some(text) = text else { return };
    println!("\n{text}");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/perf-summary.md");
    if let Err(e) = std::fs::write(&path, &text) {
        eprintln!("could not write {}: {e}", path.display());
    } else {
        println!("written to {}", path.display());
    }
}

//! A driver for profilers: runs one codec operation on one payload in a loop.
//!
//! ```text
//! cargo bench --bench profile --no-run   # then, with the binary it names:
//! perf record -g target/release/deps/profile-* msgpack-decode instances 200
//! valgrind --tool=callgrind target/release/deps/profile-* json-encode dynamic 3
//! ```
//!
//! Operations: `msgpack-decode`, `msgpack-encode`, `json-decode`, `json-encode`,
//! `msgpack-encode-into` and `json-encode-into` (reusing one output buffer),
//! `rmpv`, `serde-json`, `build-set`, `walk` (visits every value of the tree and writes
//! nothing: the floor under any encoder), `clone` (clones the decoded tree: building it
//! without reading anything, near the floor under any decoder), `value-walk`
//! ([`Value::walk`](ctywire::Value::walk) with a callback that counts), `transform` (an
//! identity [`Value::transform`](ctywire::Value::transform) of a clone), `sizes`. Each run's
//! result is freed, timed apart. Payloads: `instances`, `strings`,
//! `objects`, `dynamic`, and `strings-100k` / `objects-100k`. `schema-read FILE` and
//! `schema-serde FILE` read a `providers schema -json` dump with
//! `ProviderSchemas::from_json` and `serde_json::Value`; `schema-pair FILE` times the
//! two in turn and prints the median ratio of the pairs.
//!
//! `write PAYLOAD` writes the payload's MessagePack to `PAYLOAD.msgpack` and its type
//! JSON to `PAYLOAD.type` in the current directory, for the whole-process comparison of
//! `ctywire convert` with go-cty (`benches/gocty-convert`).

use std::hint::black_box;
use std::time::Instant;

use ctywire::{json, msgpack};

#[path = "payloads.rs"]
mod payloads;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let op = args.first().map_or("sizes", String::as_str);
    let which = args.get(1).map_or("instances", String::as_str);
    let iters: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(100);
    if op == "sizes" {
        for p in payloads::all() {
            println!(
                "{}: msgpack {} bytes, JSON {} bytes",
                p.name,
                p.msgpack.len(),
                p.json.len()
            );
        }
        return;
    }
    if let Some(reader) = op.strip_prefix("schema-") {
        return schema(reader, which, iters);
    }
    let mut p = match which {
        "instances" => payloads::instances(10_000),
        "strings" => payloads::string_set(20_000),
        "objects" => payloads::object_set(10_000),
        "dynamic" => payloads::dynamic(5_000),
        "strings-100k" => payloads::string_set(100_000),
        "objects-100k" => payloads::object_set(100_000),
        other => panic!("unknown payload {other}"),
    };
    if op == "write" {
        for (file, bytes) in [
            (format!("{which}.msgpack"), p.msgpack.clone()),
            (format!("{which}.type"), p.ty.to_json().into_bytes()),
        ] {
            std::fs::write(&file, bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
            eprintln!("wrote {file}");
        }
        return;
    }
    if std::env::var_os("DECODED").is_some() {
        // Encode the tree as decoded (names shared with the type, allocated in order).
        p.value = p.decoded.clone();
    }
    // BALLAST=1 keeps every other payload alive too, as the summary does.
    let _ballast = std::env::var_os("BALLAST").map(|_| {
        let mut all = payloads::all();
        for n in [1_000, 10_000, 100_000] {
            all.push(payloads::string_set(n));
            all.push(payloads::object_set(n));
        }
        all
    });
    if std::env::var_os("UNSETTLED").is_none() {
        payloads::settle_allocator();
    }
    let mut times = Vec::with_capacity(iters);
    let mut frees = Vec::with_capacity(iters);
    let mut buf = Vec::new();
    for _ in 0..iters {
        let start = Instant::now();
        let out: Box<dyn std::any::Any> = match op {
            "msgpack-decode" => Box::new(black_box(msgpack::decode(&p.msgpack, &p.ty).unwrap())),
            "msgpack-encode" => Box::new(black_box(msgpack::encode(&p.value, &p.ty).unwrap())),
            "json-decode" => Box::new(black_box(json::decode(&p.json, &p.ty).unwrap())),
            "msgpack-encode-into" => {
                buf.clear();
                msgpack::encode_into(&p.value, &p.ty, &mut buf).unwrap();
                Box::new(())
            }
            "json-encode-into" => {
                buf.clear();
                json::encode_into(&p.value, &p.ty, &mut buf).unwrap();
                Box::new(())
            }
            "json-encode" => Box::new(black_box(json::encode(&p.value, &p.ty).unwrap())),
            "rmpv" => Box::new(black_box(
                rmpv::decode::read_value(&mut &p.msgpack[..]).unwrap(),
            )),
            "serde-json" => Box::new(black_box(
                serde_json::from_slice::<serde_json::Value>(&p.json).unwrap(),
            )),
            "walk" => Box::new(black_box(walk(&p.value))),
            "clone" => Box::new(black_box(p.decoded.clone())),
            "value-walk" => {
                let mut n = 0usize;
                p.value.walk(&p.ty, |_, _, _| {
                    n += 1;
                    ctywire::Visit::Continue
                });
                Box::new(black_box(n))
            }
            "transform" => Box::new(black_box(p.decoded.clone().transform(&p.ty, |_, v, _| v))),
            "build-set" => {
                let elements = p.value.as_slice().unwrap().iter().rev().cloned().collect();
                Box::new(black_box(ctywire::Set::new(elements)))
            }
            other => panic!("unknown operation {other}"),
        };
        times.push(start.elapsed());
        let start = Instant::now();
        drop(out);
        frees.push(start.elapsed());
    }
    times.sort();
    frees.sort();
    eprintln!(
        "{op} {which}: {iters} runs (freeing timed apart), median {:.3} ms, min {:.3} ms; \
         freeing: median {:.3} ms",
        times[times.len() / 2].as_secs_f64() * 1e3,
        times[0].as_secs_f64() * 1e3,
        frees[frees.len() / 2].as_secs_f64() * 1e3,
    );
}

/// Reads the `providers schema -json` dump at `path` `iters` times with `reader`
/// (`read`: `ProviderSchemas::from_json`; `serde`: `serde_json::Value`), freeing each
/// result untimed.
fn schema(reader: &str, path: &str, iters: usize) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    payloads::settle_allocator();
    if reader == "pair" {
        return schema_pair(&bytes, path, iters);
    }
    let mut times = Vec::with_capacity(iters);
    for _ in 0..iters {
        let start = Instant::now();
        let out: Box<dyn std::any::Any> = match reader {
            "read" => Box::new(black_box(
                ctywire::ProviderSchemas::from_json(&bytes).unwrap(),
            )),
            "serde" => Box::new(black_box(
                serde_json::from_slice::<serde_json::Value>(&bytes).unwrap(),
            )),
            other => panic!("unknown schema reader {other}"),
        };
        times.push(start.elapsed());
        drop(out);
    }
    times.sort();
    eprintln!(
        "schema-{reader} {path}: {iters} runs (freeing not timed), median {:.3} ms, min {:.3} ms",
        times[times.len() / 2].as_secs_f64() * 1e3,
        times[0].as_secs_f64() * 1e3,
    );
}

/// Times the two readers of a schema dump one run each in turn, `iters` pairs, and
/// prints the median of each pair's ratio (serde_json / ctywire): on a shared machine
/// the two runs of a pair see about the same load, which medians taken apart do not.
fn schema_pair(bytes: &[u8], path: &str, iters: usize) {
    let time = |f: &mut dyn FnMut() -> Box<dyn std::any::Any>| {
        let start = Instant::now();
        let out = black_box(f());
        let t = start.elapsed();
        drop(out);
        t
    };
    let mut ours = || -> Box<dyn std::any::Any> {
        Box::new(ctywire::ProviderSchemas::from_json(bytes).unwrap())
    };
    let mut serde = || -> Box<dyn std::any::Any> {
        Box::new(serde_json::from_slice::<serde_json::Value>(bytes).unwrap())
    };
    let (mut a, mut b, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    let block: usize = std::env::var("BLOCK")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let warm: usize = std::env::var("WARM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    for _ in 0..iters {
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        for _ in 0..warm {
            time(&mut ours);
        }
        for _ in 0..block {
            xs.push(time(&mut ours));
        }
        for _ in 0..warm {
            time(&mut serde);
        }
        for _ in 0..block {
            ys.push(time(&mut serde));
        }
        xs.sort();
        ys.sort();
        let (x, y) = (xs[block / 2], ys[block / 2]);
        ratios.push(y.as_secs_f64() / x.as_secs_f64());
        a.push(x);
        b.push(y);
    }
    a.sort();
    b.sort();
    ratios.sort_by(f64::total_cmp);
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    eprintln!(
        "schema-pair {path}: {iters} pairs; ctywire median {:.2} ms (min {:.2}), serde_json median {:.2} ms (min {:.2}); median ratio {:.2}x",
        ms(a[iters / 2]),
        ms(a[0]),
        ms(b[iters / 2]),
        ms(b[0]),
        ratios[iters / 2],
    );
}

/// Visits every value of `v`, adding up the lengths of its strings.
fn walk(v: &ctywire::Value) -> usize {
    use ctywire::Value as V;
    match v {
        V::String(s) => s.len(),
        V::Bool(b) => *b as usize,
        V::Number(_) => 1,
        V::List(_) | V::Set(_) | V::Tuple(_) => v.as_slice().unwrap().iter().map(walk).sum(),
        V::Map(m) => m.entries().iter().map(|(k, v)| k.len() + walk(v)).sum(),
        V::Object(o) => o.values().iter().map(walk).sum(),
        _ => 0,
    }
}

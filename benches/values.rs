//! Benches of working with values: `walk`, `transform`, `unknown_paths`, the two
//! equalities and `diff`, on the instances payload of the codec benches (a list of
//! 10,000 instance-like objects, 3 MB of MessagePack) as decoded, with its MessagePack
//! decode in the same run for scale.
//!
//! Run with `cargo bench --bench values` (criterion's arguments after `--`).
//! Allocator: the system allocator. Results are dropped inside the timing, except for
//! decode and transform, whose values are freed untimed as in the codec benches.

use std::hint::black_box;

use criterion::{BatchSize, Criterion};
use ctywire::{diff, msgpack, Path, Value, Visit};

#[path = "payloads.rs"]
mod payloads;

fn main() {
    let p = payloads::instances(10_000);
    let copy = msgpack::decode(&p.msgpack, &p.ty).expect("decodes");
    // A planned value: a few attributes of a few instances changed, one unknown.
    let mut planned = copy.clone();
    for i in [3u64, 4_000, 9_999] {
        let at = Path::root().index(i);
        let instance = planned.at_path(&at).expect("an instance").clone();
        let name = instance
            .as_object()
            .expect("an object")
            .names()
            .iter()
            .next()
            .unwrap()
            .to_owned();
        planned
            .set_at_path(&at.clone().attribute(name), Value::unknown())
            .expect("set");
    }
    let mut c = Criterion::default().configure_from_args();
    let mut g = c.benchmark_group("values (list of instances)");
    g.bench_function("msgpack decode", |b| {
        b.iter_batched(
            || (),
            |()| msgpack::decode(black_box(&p.msgpack), &p.ty).unwrap(),
            BatchSize::PerIteration,
        )
    });
    g.bench_function("walk", |b| {
        b.iter(|| {
            let mut n = 0usize;
            black_box(&p.decoded).walk(&p.ty, |_, _, _| {
                n += 1;
                Visit::Continue
            });
            n
        })
    });
    g.bench_function("unknown_paths", |b| b.iter(|| planned.unknown_paths(&p.ty)));
    g.bench_function("raw_equals (equal)", |b| {
        b.iter(|| black_box(&p.decoded).raw_equals(&copy, &p.ty))
    });
    g.bench_function("cty_equals (equal)", |b| {
        b.iter(|| black_box(&p.decoded).cty_equals(&copy, &p.ty))
    });
    g.bench_function("diff (3 changes)", |b| {
        b.iter(|| diff(black_box(&p.decoded), &planned, &p.ty).len())
    });
    g.bench_function("transform (identity, from a clone)", |b| {
        b.iter_batched(
            || p.decoded.clone(),
            |v| v.transform(&p.ty, |_, v, _| v),
            BatchSize::PerIteration,
        )
    });
    g.finish();
    c.final_summary();
}

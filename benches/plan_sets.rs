//! `Block::check_apply` on large sets: a resource whose set attribute holds 100,000
//! strings, and one whose set block holds 100,000 blocks, applied as planned (every
//! element kept) and with one element changed (which is reported).
//!
//! Run with `cargo bench --bench plan_sets`. It prints the median of seven runs of each
//! case. Terraform's loop correlates every planned element with every actual one, so
//! these cases would take minutes; matched by hashing, they cost one check per element.

use std::hint::black_box;
use std::time::{Duration, Instant};

use ctywire::schema::{Attribute, Block, BlockNesting, NestedBlock};
use ctywire::{Type, Value};

const SIZE: usize = 100_000;

fn median(mut run: impl FnMut() -> usize) -> (Duration, usize) {
    let mut times = Vec::new();
    let mut found = 0;
    for _ in 0..7 {
        let start = Instant::now();
        found = black_box(run());
        times.push(start.elapsed());
    }
    times.sort();
    (times[times.len() / 2], found)
}

fn main() {
    let strings =
        Block::new().attribute("tags", Attribute::new(Type::set(Type::String)).optional());
    let tags = |changed: Option<usize>| {
        Value::object([(
            "tags",
            Value::set((0..SIZE).map(|i| {
                Value::from(if Some(i) == changed {
                    "changed".to_string()
                } else {
                    format!("tag-{i:06}")
                })
            })),
        )])
    };
    let rule = Block::new()
        .attribute("port", Attribute::new(Type::Number).required())
        .attribute("cidr", Attribute::new(Type::String).required())
        .attribute("id", Attribute::new(Type::String).computed());
    let blocks = Block::new().block_type("rule", NestedBlock::new(BlockNesting::Set, rule));
    let rules = |changed: Option<usize>| {
        Value::object([(
            "rule",
            Value::set((0..SIZE).map(|i| {
                Value::object([
                    ("port", Value::from(i as i64)),
                    (
                        "cidr",
                        Value::from(if Some(i) == changed {
                            "0.0.0.0/0".into()
                        } else {
                            format!("10.{}.{}.0/24", i / 256, i % 256)
                        }),
                    ),
                    ("id", Value::from(format!("r-{i}"))),
                ])
            })),
        )])
    };
    let cases: [(&str, &Block, Value, Value); 4] = [
        ("100,000 strings, kept", &strings, tags(None), tags(None)),
        (
            "100,000 strings, one changed",
            &strings,
            tags(None),
            tags(Some(SIZE / 2)),
        ),
        ("100,000 blocks, kept", &blocks, rules(None), rules(None)),
        (
            "100,000 blocks, one changed",
            &blocks,
            rules(None),
            rules(Some(SIZE / 2)),
        ),
    ];
    println!("| case | check_apply (median of 7) | problems |");
    println!("|---|---|---|");
    for (name, block, planned, actual) in &cases {
        let (time, found) = median(|| block.check_apply(planned, actual).len());
        println!("| {name} | {:.1} ms | {found} |", time.as_secs_f64() * 1e3);
    }
}

//! The worst cases of issue 24's time bounds, each at growing sizes so that the figures
//! show how the time grows:
//!
//! - `string_of_json`: the plan renderer on a string holding JSON nested at the depth
//!   limit (shown as `jsonencode(...)`) and far past it (shown as a plain string), the
//!   two strings differing at the innermost level;
//! - `set`: rendering the change of a set of n strings where one element differs
//!   (elements matched up by hashing);
//! - `list_insert`: rendering a list of n strings with one inserted in the middle (the
//!   longest-common-subsequence pairing, its table bounded);
//! - `operator_chain`: decoding a `.tf.json` block whose attribute is a chain of n
//!   binary operators (read without recursion).
//!
//! Run with `cargo bench --bench depth` (figures in benches/README.md, "Depth and time
//! bounds").

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion};
use ctywire::config::{Address, Config};
use ctywire::limits::MAX_DEPTH;
use ctywire::render::diff::{render_value_diff, DiffOptions};
use ctywire::{ProviderSchemas, Type, Value};

fn nest(open: &str, middle: &str, close: &str, depth: usize) -> String {
    format!("{}{middle}{}", open.repeat(depth), close.repeat(depth))
}

fn string_of_json(c: &mut Criterion) {
    let mut group = c.benchmark_group("string_of_json");
    for depth in [MAX_DEPTH, 5_000, 500_000] {
        let before = nest("[", "1", "]", depth);
        let after = before.replacen('1', "2", 1);
        let (before, after) = (Value::from(before.as_str()), Value::from(after.as_str()));
        group.bench_with_input(BenchmarkId::from_parameter(depth), &depth, |b, _| {
            b.iter(|| {
                render_value_diff(
                    black_box(&before),
                    black_box(&after),
                    &Type::String,
                    &DiffOptions::default(),
                )
            })
        });
    }
    group.finish();
}

fn strings(n: usize, extra: Option<(usize, &str)>) -> Vec<Value> {
    let mut v: Vec<Value> = (0..n)
        .map(|i| Value::from(format!("element-{i}").as_str()))
        .collect();
    if let Some((at, s)) = extra {
        v.insert(at, Value::from(s));
    }
    v
}

fn set(c: &mut Criterion) {
    let mut group = c.benchmark_group("set");
    for n in [1_000, 10_000, 100_000] {
        let before = Value::set(strings(n, None));
        let mut changed = strings(n, None);
        changed[n / 2] = Value::from("changed");
        let after = Value::set(changed);
        let ty = Type::set(Type::String);
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| {
                render_value_diff(
                    black_box(&before),
                    black_box(&after),
                    &ty,
                    &DiffOptions::default(),
                )
            })
        });
    }
    group.finish();
}

fn list_insert(c: &mut Criterion) {
    let mut group = c.benchmark_group("list_insert");
    for n in [1_000, 10_000, 100_000] {
        let before = Value::list(strings(n, None));
        let after = Value::list(strings(n, Some((n / 2, "inserted"))));
        let ty = Type::list(Type::String);
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| {
                render_value_diff(
                    black_box(&before),
                    black_box(&after),
                    &ty,
                    &DiffOptions::default(),
                )
            })
        });
    }
    group.finish();
}

fn operator_chain(c: &mut Criterion) {
    let schemas = std::fs::read("examples/schema/provider.json").expect("the example schema");
    let schemas = ProviderSchemas::from_json(&schemas).expect("the example schema reads");
    let address: Address = "cloud_instance.web".parse().expect("an address");
    let schema = address.schema(&schemas).expect("the resource's schema");
    let mut group = c.benchmark_group("operator_chain");
    for n in [1_000, 10_000, 100_000] {
        let template = format!("${{{}1}}", "1+2*".repeat(n));
        let text = format!(
            "{{\"resource\":{{\"cloud_instance\":{{\"web\":{{\"image_id\":\"i\",\
             \"disk\":[{{\"device_name\":\"d\"}}],\"name\":\"{template}\"}}}}}}}}"
        );
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| {
                let config = Config::from_sources([("main.tf.json", text.as_bytes())])
                    .expect("the configuration reads");
                config.decode(&address, schema).expect("the block decodes")
            })
        });
    }
    group.finish();
}

fn main() {
    let mut c = Criterion::default()
        .configure_from_args()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(10);
    string_of_json(&mut c);
    set(&mut c);
    list_insert(&mut c);
    operator_chain(&mut c);
    c.final_summary();
}

//! Reading `providers schema -json` dumps: `ProviderSchemas::from_json` against
//! `serde_json::from_slice::<serde_json::Value>` on the same bytes, for the 4 MB google,
//! AWS and azurerm dumps of the real-world corpus (not committed: `CTYWIRE_REALWORLD`
//! names its directory, whose `schemas/` holds them).
//!
//! Run with `cargo bench --bench schema`; `CTYWIRE_SUMMARY_ONLY=1` prints the summary
//! table alone (medians of the two readers timed in alternating blocks, as in
//! `benches/codec.rs`), written to `target/schema-summary.md`. Where the corpus is
//! absent, the bench says so and does nothing (the dumps are not committed).
//!
//! Allocator: the system allocator, settled as in `benches/codec.rs` (a block of just
//! under 32 MiB freed at start); freeing a result is not timed.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{BatchSize, Criterion, Throughput};
use ctywire::ProviderSchemas;

#[path = "payloads.rs"]
mod payloads;
#[path = "timing.rs"]
mod timing;

/// The dumps: a name and the file under the corpus's `schemas/`.
const DUMPS: [(&str, &str); 3] = [
    (
        "google",
        "mikespub-org__amplify-python-hcl2__test__provider_schemas__google__schema.json",
    ),
    (
        "aws",
        "terraform-linters__tflint-ruleset-aws__tools__provider-schema__schema.json",
    ),
    (
        "azurerm",
        "mikespub-org__amplify-python-hcl2__test__provider_schemas__azurerm__schema.json",
    ),
];

struct Dump {
    name: &'static str,
    bytes: Vec<u8>,
}

fn dumps() -> Option<Vec<Dump>> {
    let dir = std::env::var_os("CTYWIRE_REALWORLD")
        .map_or_else(
            || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/realworld"),
            PathBuf::from,
        )
        .join("schemas");
    DUMPS
        .iter()
        .map(|(name, file)| {
            let bytes = std::fs::read(dir.join(file)).ok()?;
            Some(Dump { name, bytes })
        })
        .collect()
}

fn ctywire_read(bytes: &[u8]) -> ProviderSchemas {
    ProviderSchemas::from_json(bytes).expect("the dump reads")
}

fn serde_json_read(bytes: &[u8]) -> serde_json::Value {
    serde_json::from_slice(bytes).expect("serde_json reads the dump")
}

fn bench(c: &mut Criterion, dumps: &[Dump]) {
    for d in dumps {
        let mut g = c.benchmark_group(format!("schema {}", d.name));
        g.throughput(Throughput::Bytes(d.bytes.len() as u64));
        g.bench_function("ProviderSchemas::from_json", |b| {
            b.iter_batched(
                || (),
                |()| ctywire_read(black_box(&d.bytes)),
                BatchSize::PerIteration,
            )
        });
        g.bench_function("serde_json Value", |b| {
            b.iter_batched(
                || (),
                |()| serde_json_read(black_box(&d.bytes)),
                BatchSize::PerIteration,
            )
        });
        g.finish();
    }
}

fn summary(dumps: &[Dump]) -> String {
    let mut s = String::from(
        "Reading `providers schema -json` dumps (medians of 25 runs each, in alternating blocks of 5; freeing not timed):\n\n\
         | dump | bytes | ProviderSchemas::from_json ms | MB/s | serde_json::Value ms | serde / ctywire |\n|---|--:|--:|--:|--:|--:|\n",
    );
    for d in dumps {
        let (ours, serde) =
            timing::median_pair(25, || ctywire_read(&d.bytes), || serde_json_read(&d.bytes));
        let ms = |t: Duration| t.as_secs_f64() * 1e3;
        s.push_str(&format!(
            "| {} | {} | {:.2} | {:.0} | {:.2} | {:.2}x |\n",
            d.name,
            d.bytes.len(),
            ms(ours),
            d.bytes.len() as f64 / 1e6 / ours.as_secs_f64(),
            ms(serde),
            serde.as_secs_f64() / ours.as_secs_f64(),
        ));
    }
    s
}

fn main() {
    let Some(dumps) = dumps() else {
        println!(
            "skipped: no real-world corpus (not committed; CTYWIRE_REALWORLD names its directory)"
        );
        return;
    };
    payloads::settle_allocator();
    let text = summary(&dumps);
    if std::env::var_os("CTYWIRE_SUMMARY_ONLY").is_none() {
        let mut c = Criterion::default()
            .sample_size(20)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3))
            .configure_from_args();
        bench(&mut c, &dumps);
        c.final_summary();
    }
    println!("\n{text}");
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/schema-summary.md");
    if let Err(e) = std::fs::write(&path, &text) {
        eprintln!("could not write {}: {e}", path.display());
    }
}

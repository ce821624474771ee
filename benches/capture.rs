//! Grouping a capture directory into calls (issue 34's bound: 10,000 files in under
//! 2 s): the directories the behaviour tests generate in terraform-plugin-go's manner
//! (per-file millisecond stamps, overwrites) at Terraform's default `-parallelism=10`,
//! with the schemas (every value decoded and checked; and told the run had one provider
//! configuration) and without; and a slow writer's
//! (a millisecond a file: the grouping's span is five or six milliseconds, so each
//! file has more neighbours to try).
//!
//! Run with `cargo bench --bench capture` (figures in benches/README.md, "Capture
//! pairing").

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion};
use ctywire::capture::{Capture, Run};
use ctywire::schema::{Client, ProviderSchemas};

#[allow(dead_code)]
#[path = "../tests/behaviour/capture_runs.rs"]
mod capture_runs;

fn pairing(c: &mut Criterion) {
    let schemas = ProviderSchemas::from_json(capture_runs::SCHEMA.as_bytes()).unwrap();
    let mut group = c.benchmark_group("capture_pairing");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    let quick = capture_runs::Life::default();
    let slow = capture_runs::Life {
        slow: true,
        ..quick
    };
    for (writer, resources, life) in [("", 24, quick), ("", 250, quick), ("slow_", 250, slow)] {
        let run = capture_runs::run_life(1, 10, resources, false, life);
        let files = format!("{writer}{}", run.files.len());
        group.bench_with_input(
            BenchmarkId::new("with_schemas", &files),
            &run.files,
            |b, files| {
                b.iter(|| Capture::from_files_with_schemas(black_box(files.clone()), &schemas))
            },
        );
        group.bench_with_input(
            BenchmarkId::new("one_configuration", &files),
            &run.files,
            |b, files| {
                b.iter(|| {
                    Capture::from_files_for_run(
                        black_box(files.clone()),
                        &schemas,
                        Client::default(),
                        Run::of_one_configuration(),
                    )
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("without", files),
            &run.files,
            |b, files| b.iter(|| Capture::from_files(black_box(files.clone()))),
        );
    }
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    pairing(&mut c);
    c.final_summary();
}

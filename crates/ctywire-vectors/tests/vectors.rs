//! Runs every vector file under `vectors/` (format: `vectors/README.md`) through
//! [`ctywire_vectors::check`]: decode and re-encode in each format, cross-encode,
//! errors, type JSON, type expressions and implied types.

use std::path::Path;

fn run_dir(dir: &str) {
    // The vector files are the library's (the repository's `vectors/`).
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../vectors")
        .join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let (mut cases, mut checks, mut skipped) = (0, 0, 0);
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let report =
            ctywire_vectors::check(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let name = file.file_name().unwrap().to_string_lossy();
        cases += report.cases;
        checks += report.checks;
        skipped += report.skipped;
        failures.extend(report.failures.iter().map(|f| {
            format!(
                "{name}:{}: {} {:02x?} {:02x?}",
                f.case, f.message, f.expected, f.actual
            )
        }));
    }
    eprintln!(
        "vectors/{dir}: {} files, {cases} cases, {checks} checks, {skipped} skipped, {} failures",
        files.len(),
        failures.len()
    );
    assert!(checks > 0, "no checks ran");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn go_cty_tables() {
    run_dir("go-cty");
}

#[test]
fn ctywire_cases() {
    run_dir("ctywire");
}

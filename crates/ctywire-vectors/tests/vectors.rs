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

/// `vectors/README.md` counts each file's cases in its table and sums them up ("N cases
/// in all: A from go-cty's tables, B of ctywire's own"): the counts are the files'.
#[test]
fn the_readme_counts_each_files_cases() {
    let vectors = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors");
    let readme = std::fs::read_to_string(vectors.join("README.md")).unwrap();
    let (mut go_cty, mut own, mut rows) = (0, 0, 0);
    for line in readme.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let [_, file, cases, ..] = cells[..] else {
            continue;
        };
        let Some(file) = file
            .strip_prefix('`')
            .and_then(|f| f.strip_suffix(".json`"))
        else {
            continue;
        };
        if !file.starts_with("go-cty/") && !file.starts_with("ctywire/") {
            continue;
        }
        let Ok(stated) = cases.parse::<usize>() else {
            continue;
        };
        let text = std::fs::read_to_string(vectors.join(format!("{file}.json")))
            .unwrap_or_else(|e| panic!("vectors/README.md names {file}.json: {e}"));
        let counted = ctywire_vectors::check(&text).unwrap().cases;
        assert_eq!(stated, counted, "vectors/README.md: {file}.json's cases");
        if file.starts_with("go-cty/") {
            go_cty += counted;
        } else {
            own += counted;
        }
        rows += 1;
    }
    let files = |dir: &str| {
        std::fs::read_dir(vectors.join(dir))
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .path()
                    .extension()
                    .is_some_and(|x| x == "json")
            })
            .count()
    };
    assert_eq!(rows, files("go-cty") + files("ctywire"), "a row per file");
    let total = format!(
        "{} cases in all: {go_cty} from go-cty's tables, {own} of ctywire's own.",
        go_cty + own
    );
    let prose = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        prose.contains(&total),
        "vectors/README.md should say: {total}"
    );
    let all = format!("all {go_cty} cases of go-cty's own test tables");
    assert!(prose.contains(&all), "vectors/README.md should say: {all}");
}

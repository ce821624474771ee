//! The README's command-line examples print what the README shows.
//!
//! Every `console` block of README.md is run: each `$ ` line through `bash` (standard
//! error merged into standard output, as a terminal shows them), in order, in one
//! scratch directory that sees the repository's `examples`, `tests` and `vectors`,
//! with the built `ctywire` first on `PATH`. What it prints must be the lines below the
//! command; a line `...` there stands for any number of lines left out.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A command of a `console` block and the output the README shows for it.
struct Example {
    command: String,
    shown: Vec<String>,
}

/// The blocks of `console` examples of `markdown`, each a list of commands.
fn console_blocks(markdown: &str) -> Vec<Vec<Example>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<Example>> = None;
    for line in markdown.lines() {
        match (&mut current, line) {
            (None, "```console") => current = Some(Vec::new()),
            (Some(_), "```") => blocks.extend(current.take()),
            (Some(block), _) => match line.strip_prefix("$ ") {
                Some(command) => block.push(Example {
                    command: command.to_owned(),
                    shown: Vec::new(),
                }),
                None => block
                    .last_mut()
                    .expect("a console block starts with a command")
                    .shown
                    .push(line.to_owned()),
            },
            (None, _) => {}
        }
    }
    assert!(current.is_none(), "a console block is not closed");
    blocks
}

/// Whether `printed` is what `shown` shows: the same lines, where each `...` line of
/// `shown` stands for any number of lines.
fn matches(shown: &[String], printed: &[&str]) -> bool {
    match shown.split_first() {
        None => printed.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=printed.len()).any(|skip| matches(rest, &printed[skip..]))
        }
        Some((first, rest)) => printed
            .split_first()
            .is_some_and(|(line, after)| line == first && matches(rest, after)),
    }
}

fn found(program: &str) -> bool {
    Command::new("bash")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn command_line_examples_print_what_the_readme_shows() {
    let root = crate::common::repo(".");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let blocks = console_blocks(&readme);
    assert!(blocks.len() >= 10, "{} console blocks", blocks.len());

    let dir =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for sub in ["examples", "tests", "vectors"] {
        let link = dir.join(sub);
        if !link.exists() {
            std::os::unix::fs::symlink(root.join(sub), link).unwrap();
        }
    }
    let bin = Path::new(env!("CARGO_BIN_EXE_ctywire")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );

    let mut ran = 0;
    let mut wrong = Vec::new();
    for block in &blocks {
        // A block using a tool this machine lacks is skipped whole (its commands build
        // on each other).
        if let Some(tool) = ["xxd"]
            .into_iter()
            .find(|tool| block.iter().any(|e| e.command.contains(tool)) && !found(tool))
        {
            crate::common::skipped(&format!(
                "a block: {tool} is not installed: {}",
                block[0].command
            ));
            continue;
        }
        for example in block {
            let output = Command::new("bash")
                .arg("-c")
                .arg(format!("{{ {}\n}} 2>&1", example.command))
                .current_dir(&dir)
                .env("PATH", &path)
                .env("NO_COLOR", "1")
                .output()
                .expect("bash runs");
            let printed = String::from_utf8_lossy(&output.stdout);
            let printed: Vec<&str> = printed.lines().collect();
            ran += 1;
            if !matches(&example.shown, &printed) {
                wrong.push(format!(
                    "$ {}\n--- the README shows:\n{}\n--- it prints:\n{}",
                    example.command,
                    example.shown.join("\n"),
                    printed.join("\n")
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
    assert!(ran >= 30, "{ran} commands ran");
}

#[test]
fn ellipses_stand_for_any_lines() {
    let shown = |lines: &[&str]| lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(matches(&shown(&["a", "b"]), &["a", "b"]));
    assert!(!matches(&shown(&["a", "b"]), &["a", "x", "b"]));
    assert!(!matches(&shown(&["a"]), &["a", "b"]));
    assert!(matches(&shown(&["a", "...", "b"]), &["a", "x", "y", "b"]));
    assert!(matches(&shown(&["a", "    ...", "b"]), &["a", "b"]));
    assert!(matches(&shown(&["...", "b"]), &["x", "b"]));
    assert!(!matches(&shown(&["a", "...", "b"]), &["a", "x"]));
    assert!(matches(&shown(&[]), &[]));
}

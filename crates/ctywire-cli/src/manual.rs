//! `ctywire completions SHELL` and `ctywire man`: shell completion scripts and manual
//! pages, generated from the command-line definitions, so they never drift from them.

use std::path::Path;

use clap::CommandFactory;
use clap_complete::Shell;

use crate::output::write_stdout;
use crate::{Cli, Failure};

/// Writes the completion script for `shell` to standard output.
pub fn completions(shell: Shell) -> Result<(), Failure> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "ctywire", &mut script);
    write_stdout(&script)
}

/// Writes the manual page of `ctywire` to standard output, or, with `dir`, one page for
/// it and one for each subcommand (`ctywire.1`, `ctywire-show.1`, …) into `dir`, made
/// first if it does not exist (as `mkdir -p` would).
pub fn man(dir: Option<&Path>) -> Result<(), Failure> {
    let failed = |e: std::io::Error| {
        let name = dir.map_or("standard output".into(), |d| d.display().to_string());
        Failure::input(format!("{name}: {e}"))
    };
    match dir {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(failed)?;
            clap_mangen::generate_to(Cli::command(), dir).map_err(failed)
        }
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(Cli::command())
                .render(&mut page)
                .map_err(failed)?;
            write_stdout(&page)
        }
    }
}

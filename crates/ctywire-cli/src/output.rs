//! Writing results: standard output that stops quietly when its reader goes away
//! (`ctywire show … | head`), and the loop over several inputs that reports a failing
//! input on standard error and goes on with the next.

use std::io::Write;
use std::path::PathBuf;

use crate::input::{self, Source};
use crate::Failure;

impl Failure {
    /// Standard output was closed by its reader: stop, and say nothing. The exit status
    /// is 0, as for `yes | head`, unless an earlier failure was reported.
    fn closed_output() -> Failure {
        Failure {
            message: String::new(),
            code: 0,
        }
    }

    /// Failures already reported on standard error: exit 1 with nothing more to say.
    fn reported() -> Failure {
        Failure {
            message: String::new(),
            code: 1,
        }
    }

    /// Whether this is [`Failure::closed_output`], which ends a loop over inputs.
    pub fn is_closed_output(&self) -> bool {
        self.code == 0
    }

    /// Reports the failure on standard error (nothing for one already reported or a
    /// closed output) and gives its exit status.
    pub fn report(&self) -> u8 {
        if !self.message.is_empty() {
            say!("error: {}", self.message);
        }
        self.code
    }
}

/// Writes `bytes` to standard output and flushes it. When the reader has closed the
/// pipe, the failure is [`Failure::closed_output`], which callers pass on with `?`.
pub fn write_stdout(bytes: &[u8]) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::BrokenPipe => Failure::closed_output(),
            _ => Failure::input(format!("standard output: {e}")),
        })
}

/// Reads every input in turn (standard input when `files` is empty or for `-`) and
/// writes what `each` makes of it to standard output, under a `# NAME` heading when
/// there are several inputs. An input that cannot be read or that `each` fails on is
/// reported on standard error, and the others go on; the result is then a failure
/// (exit 1) that has been reported. A closed standard output stops the loop.
pub fn for_each_input<O: AsRef<[u8]>>(
    files: &[PathBuf],
    mut each: impl FnMut(Source) -> Result<O, Failure>,
) -> Result<(), Failure> {
    let several = files.len() > 1;
    let mut failed = false;
    let mut written = 0;
    for source in input::sources(files) {
        let result = source.and_then(|source| {
            let heading = format!("# {}\n", source.name);
            each(source).map(|out| (heading, out))
        });
        let written_now = match result {
            Ok((heading, out)) if several => {
                let separator = if written > 0 { "\n" } else { "" };
                let mut text = format!("{separator}{heading}").into_bytes();
                text.extend_from_slice(out.as_ref());
                write_stdout(&text)
            }
            Ok((_, out)) => write_stdout(out.as_ref()),
            Err(f) => Err(f),
        };
        match written_now {
            Ok(()) => written += 1,
            Err(f) if f.is_closed_output() => break,
            Err(f) => {
                f.report();
                failed = true;
            }
        }
    }
    if failed {
        return Err(Failure::reported());
    }
    Ok(())
}

/// Writes one line on standard error, and nothing when standard error is closed (the
/// home of the `say!` macro: no report of the tool's ever panics on a closed pipe).
pub fn to_stderr(line: std::fmt::Arguments) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_fmt(line).and_then(|()| err.write_all(b"\n"));
}

/// Leaves `tree` allocated: the process is about to exit, and freeing a tree of a large
/// payload, allocation by allocation, costs as much as a tenth of the whole run for
/// nothing (the kernel takes the memory back at once).
pub fn skip_freeing<T>(tree: T) {
    std::mem::forget(tree);
}

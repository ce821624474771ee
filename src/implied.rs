//! The walk state of the implied-type functions that read dynamic wrappers
//! ([`msgpack::implied_type_reading_wrappers`](crate::msgpack::implied_type_reading_wrappers),
//! [`json::implied_type_reading_wrappers`](crate::json::implied_type_reading_wrappers)):
//! where the walk is, and the wrappers it has read. go-cty's implied-type functions,
//! which the plain functions follow, walk without it.

use crate::error::Result;
use crate::path::{Path, PathStep};

/// The path of the value being walked, and the paths of the wrappers read so far.
#[derive(Default)]
pub(crate) struct Wrappers {
    at: Vec<PathStep>,
    pub(crate) found: Vec<Path>,
}

impl Wrappers {
    /// Records a wrapper at the current path.
    pub(crate) fn found_here(&mut self) {
        self.found.push(Path::from(self.at.clone()));
    }
}

/// Runs `walk` one step below the current path: with the step pushed onto the path
/// when wrappers are being read (the step is made only then, or for an error), and put
/// in front of the path of an error.
pub(crate) fn below<T>(
    wrappers: &mut Option<&mut Wrappers>,
    step: impl Fn() -> PathStep,
    walk: impl FnOnce(Option<&mut Wrappers>) -> Result<T>,
) -> Result<T> {
    let result = match wrappers {
        Some(w) => {
            w.at.push(step());
            let result = walk(Some(&mut **w));
            w.at.pop();
            result
        }
        None => walk(None),
    };
    result.map_err(|e| e.in_step(step()))
}

//! `ctywire get PATH`: the value at one path of each payload, rendered or as cty JSON.

use std::path::PathBuf;

use ctywire::render;
use ctywire::{json, Path, PathStep, Type};

use crate::output::for_each_input;
use crate::{decode_source, Failure, Output, Reading, Rendering, Typing};

/// How many sensitive paths a refusal names.
const NAMED_PATHS: usize = 3;

pub fn get(
    path: &str,
    typing: &Typing,
    reading: &Reading,
    to: Output,
    rendering: &Rendering,
    files: &[PathBuf],
) -> Result<(), Failure> {
    let path =
        Path::parse(path).map_err(|e| Failure::usage(format!("invalid path {path:?}: {e}")))?;
    let given = typing.resolve()?;
    let mut type_out = reading.type_out()?;
    for_each_input(files, |source| {
        let d = decode_source(source, given.as_ref(), reading, type_out.as_mut())?;
        let path = path.resolve(&d.ty);
        let value = d
            .value
            .at_path(&path)
            .ok_or_else(|| Failure::input(format!("{}: no value at {path}", d.name)))?;
        let ty = type_at(&d.ty, &path);
        let sensitive = sensitive_within(d.sensitive_paths(), &path);
        let mut out = match to {
            Output::Json => {
                if !rendering.show_sensitive && !sensitive.is_empty() {
                    return Err(Failure::input(format!(
                        "{}: {}; --show-sensitive writes it",
                        d.name,
                        sensitive_named(&path, &sensitive)
                    )));
                }
                json::encode(value, &ty).map_err(|e| Failure::value_in(&d.name, e.at(&path)))?
            }
            Output::Pretty => {
                let options = rendering.options().sensitive(sensitive);
                render::render(value, &ty, &options).into_bytes()
            }
        };
        out.push(b'\n');
        Ok(out)
    })
}

/// The sensitive paths (of the whole document) within the value at `path`, relative to
/// it: the root when the value lies inside a sensitive one.
pub fn sensitive_within(sensitive: Vec<Path>, path: &Path) -> Vec<Path> {
    sensitive
        .into_iter()
        .filter_map(|p| {
            if path.is_prefix_of(&p) {
                Some(Path::from(p.steps()[path.len()..].to_vec()))
            } else if p.is_prefix_of(path) {
                Some(Path::root())
            } else {
                None
            }
        })
        .collect()
}

/// "`.a` is sensitive", or "the value holds sensitive values at `.a`, `.b` and 2 more",
/// with the paths in full.
fn sensitive_named(path: &Path, sensitive: &[Path]) -> String {
    if sensitive.iter().any(Path::is_empty) {
        let at = if path.is_empty() {
            "the value".to_owned()
        } else {
            path.to_string()
        };
        return format!("{at} is sensitive");
    }
    let mut named: Vec<String> = sensitive
        .iter()
        .take(NAMED_PATHS)
        .map(|p| path.join(p).to_string())
        .collect();
    if sensitive.len() > NAMED_PATHS {
        named.push(format!("and {} more", sensitive.len() - NAMED_PATHS));
    }
    format!("the value holds sensitive values at {}", named.join(", "))
}

/// The type at `path` within `ty`; `dynamic` where the type does not say (the value
/// then carries its own).
pub fn type_at(ty: &Type, path: &Path) -> Type {
    let mut ty = ty.clone();
    for step in path.steps() {
        ty = match (&ty, step) {
            (Type::Object(o), PathStep::Attribute(n)) => o.attribute(n).cloned(),
            (Type::Map(e), PathStep::Key(_)) => Some((**e).clone()),
            (Type::List(e) | Type::Set(e), PathStep::Index(_) | PathStep::SetElement(_)) => {
                Some((**e).clone())
            }
            (Type::Tuple(ts), PathStep::Index(i)) => {
                usize::try_from(*i).ok().and_then(|i| ts.get(i).cloned())
            }
            _ => None,
        }
        .unwrap_or(Type::Dynamic);
    }
    ty
}

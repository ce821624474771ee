//! Paths into values: attribute names, map keys, list and tuple indexes, set elements.

use std::fmt;

use crate::Value;

/// A path from the root of a value to one of its parts.
///
/// It prints the way Terraform prints paths: `.tags["Name"]`, `.disk[0].size`; the root
/// path prints as the empty string.
///
/// ```
/// use ctywire::Path;
///
/// let path = Path::root("tags").at_map_key("Name");
/// assert_eq!(path.to_string(), r#".tags["Name"]"#);
/// let path = Path::root("disk").at_slice_index(0).attribute("size");
/// assert_eq!(path.to_string(), ".disk[0].size");
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Path {
    steps: Vec<PathStep>,
}

/// One step of a [`Path`].
#[derive(Clone, Debug, PartialEq)]
pub enum PathStep {
    /// An object attribute: `.name`.
    Attribute(String),
    /// A map element: `["key"]`.
    Key(String),
    /// A list or tuple element: `[0]`.
    Index(u64),
    /// A set element, named by its value: `[?]`.
    SetElement(Value),
}

impl Path {
    /// The empty path, which names the whole value.
    pub fn empty() -> Path {
        Path::default()
    }

    /// A path whose first step is the attribute `name` (`tfjsonpath.New`).
    pub fn root(name: impl Into<String>) -> Path {
        Path::empty().attribute(name)
    }

    /// This path followed by the attribute `name`.
    pub fn attribute(mut self, name: impl Into<String>) -> Path {
        self.steps.push(PathStep::Attribute(name.into()));
        self
    }

    /// This path followed by the map key `key` (`tfjsonpath`'s `AtMapKey`).
    pub fn at_map_key(mut self, key: impl Into<String>) -> Path {
        self.steps.push(PathStep::Key(key.into()));
        self
    }

    /// This path followed by the list or tuple index `index` (`tfjsonpath`'s
    /// `AtSliceIndex`).
    pub fn at_slice_index(mut self, index: u64) -> Path {
        self.steps.push(PathStep::Index(index));
        self
    }

    /// This path followed by the set element `element`.
    pub fn at_set_element(mut self, element: Value) -> Path {
        self.steps.push(PathStep::SetElement(element));
        self
    }

    /// This path followed by `step`.
    pub fn push(&mut self, step: PathStep) {
        self.steps.push(step);
    }

    /// Removes the last step.
    pub(crate) fn pop(&mut self) {
        self.steps.pop();
    }

    /// Puts `step` in front of this path (used while an error travels up the value).
    pub(crate) fn prepend(&mut self, step: PathStep) {
        self.steps.insert(0, step);
    }

    /// The steps, from the root.
    pub fn steps(&self) -> &[PathStep] {
        &self.steps
    }

    /// Whether this is the empty (root) path.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The number of steps.
    pub fn len(&self) -> usize {
        self.steps.len()
    }
}

impl From<Vec<PathStep>> for Path {
    fn from(steps: Vec<PathStep>) -> Path {
        Path { steps }
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for step in &self.steps {
            fmt::Display::fmt(step, f)?;
        }
        Ok(())
    }
}

impl fmt::Display for PathStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathStep::Attribute(name) => write!(f, ".{name}"),
            PathStep::Key(key) => write!(f, "[{key:?}]"),
            PathStep::Index(i) => write!(f, "[{i}]"),
            PathStep::SetElement(_) => f.write_str("[?]"),
        }
    }
}

//! Paths into values: attribute names, map keys, list and tuple indexes, set elements.
//!
//! A [`Path`] prints the way Terraform prints paths (`.tags["Name"]`, `.disk[0].size`),
//! parses back from that form or from the dotted form of terraform-plugin-testing's
//! `tfjsonpath` (`tags.Name`, `disk.0.size`), and finds its part of a [`Value`]
//! ([`Value::at_path`]); [`tfjson::json_at_path`](crate::tfjson::json_at_path) finds it
//! in a JSON document.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, ErrorKind, Position};
use crate::types::Type;
use crate::Value;

/// A path from the root of a value to one of its parts.
///
/// It prints the way Terraform prints paths in its diagnostics (its `FormatCtyPath`):
/// `.tags["Name"]`, `.disk[0].size`, map keys quoted as Go's `strconv.Quote` quotes them,
/// indexes from a million on in Go's `%g` form (`[1e+06]`); the root path prints as the
/// empty string. A set element prints by its value as Terraform names it: a string
/// quoted (`.tags["a"]`), a number (`.ports[443]`), `[null]`, `[(not yet known)]`, and
/// `[...]` for anything else (an object: `.rule[...].port`). [`Path::parse`] reads that
/// form back (a set element as a map key or an index), and the dotted form of
/// `tfjsonpath` too.
///
/// Built with [`root`](Path::root), [`attribute`](Path::attribute), [`key`](Path::key),
/// [`index`](Path::index) and [`element`](Path::element), or with the names
/// terraform-plugin-testing's `tfjsonpath` gives them ([`at_map_key`](Path::at_map_key),
/// [`at_slice_index`](Path::at_slice_index), [`at_set_element`](Path::at_set_element));
/// changed in place with [`push`](Path::push) and [`pop`](Path::pop).
///
/// ```
/// use ctywire::Path;
///
/// let path = Path::root().attribute("tags").key("Name");
/// assert_eq!(path.to_string(), r#".tags["Name"]"#);
/// let path = Path::root().attribute("disk").index(0).attribute("size");
/// assert_eq!(path.to_string(), ".disk[0].size");
/// // tfjsonpath's names for the same steps
/// assert_eq!(Path::root().attribute("tags").at_map_key("Name"), Path::root().attribute("tags").key("Name"));
/// assert_eq!(Path::root().attribute("disk").at_slice_index(0), Path::root().attribute("disk").index(0));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Path {
    steps: Vec<PathStep>,
}

/// One step of a [`Path`].
///
/// ```
/// use ctywire::{Path, PathStep, Value};
///
/// let path = Path::parse(r#".disk[0].tags["env"]"#)?;
/// let steps = path.steps();
/// assert_eq!(steps[0], PathStep::Attribute("disk".into()));
/// assert_eq!(steps[1], PathStep::Index(0));
/// assert_eq!(steps[3], PathStep::Key("env".into()));
/// let mut element = Path::root().attribute("ports");
/// element.push(PathStep::SetElement(Value::from(443)));
/// assert_eq!(element.to_string(), ".ports[443]");
/// let rule = Path::root().attribute("rule").element(Value::object([("port", Value::from(22))]));
/// assert_eq!(rule.attribute("port").to_string(), ".rule[...].port");
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum PathStep {
    /// An object attribute: `.name`.
    Attribute(String),
    /// A map element: `["key"]`.
    Key(String),
    /// A list or tuple element: `[0]`.
    Index(u64),
    /// A set element, named by its value: `["a"]`, `[443]`, `[...]` for an object
    /// (as Terraform prints it; see [`Path`]).
    SetElement(Value),
}

impl Path {
    /// The root path, with no steps: it names the whole value. Paths are built from it
    /// (`Path::root().attribute("tags").key("Name")`, as `tfjsonpath.New("tags")
    /// .AtMapKey("Name")`).
    pub fn root() -> Path {
        Path::default()
    }

    /// This path followed by the attribute `name`.
    pub fn attribute(mut self, name: impl Into<String>) -> Path {
        self.steps.push(PathStep::Attribute(name.into()));
        self
    }

    /// This path followed by the map key `key`.
    #[doc(alias = "AtMapKey")]
    pub fn key(mut self, key: impl Into<String>) -> Path {
        self.steps.push(PathStep::Key(key.into()));
        self
    }

    /// This path followed by the list or tuple index `index` (which also names a set
    /// element by its position in the set's order).
    #[doc(alias = "AtSliceIndex")]
    pub fn index(mut self, index: u64) -> Path {
        self.steps.push(PathStep::Index(index));
        self
    }

    /// This path followed by the set element `element`, named by its value.
    pub fn element(mut self, element: Value) -> Path {
        self.steps.push(PathStep::SetElement(element));
        self
    }

    /// [`key`](Path::key), by the name `tfjsonpath` gives it (`AtMapKey`).
    pub fn at_map_key(self, key: impl Into<String>) -> Path {
        self.key(key)
    }

    /// [`index`](Path::index), by the name `tfjsonpath` gives it (`AtSliceIndex`).
    pub fn at_slice_index(self, index: u64) -> Path {
        self.index(index)
    }

    /// [`element`](Path::element), by a name in the style of `tfjsonpath`'s.
    pub fn at_set_element(self, element: Value) -> Path {
        self.element(element)
    }

    /// Adds `step` at the end of this path.
    ///
    /// ```
    /// use ctywire::{Path, PathStep};
    ///
    /// let mut path = Path::root().attribute("disk");
    /// path.push(PathStep::Index(0));
    /// assert_eq!(path.to_string(), ".disk[0]");
    /// assert_eq!(path.pop(), Some(PathStep::Index(0)));
    /// assert_eq!(path, Path::root().attribute("disk"));
    /// ```
    pub fn push(&mut self, step: PathStep) {
        self.steps.push(step);
    }

    /// Removes the last step and returns it (`None` for the empty path).
    pub fn pop(&mut self) -> Option<PathStep> {
        self.steps.pop()
    }

    /// This path followed by the steps of `other`, leaving both as they are.
    ///
    /// ```
    /// use ctywire::Path;
    ///
    /// let disk = Path::root().attribute("disk").index(0);
    /// assert_eq!(disk.join(&Path::root().attribute("size")).to_string(), ".disk[0].size");
    /// assert_eq!(disk.to_string(), ".disk[0]");
    /// ```
    pub fn join(&self, other: &Path) -> Path {
        let mut steps = Vec::with_capacity(self.steps.len() + other.steps.len());
        steps.extend_from_slice(&self.steps);
        steps.extend_from_slice(&other.steps);
        Path { steps }
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

/// A path step borrowed from the values being walked. Checks and comparisons keep a
/// stack of these and make a [`Path`] ([`StepRef::path`]) only when they report
/// something, so a walk that finds nothing copies no names and clones no set elements.
#[derive(Clone, Copy, Debug)]
pub(crate) enum StepRef<'a> {
    Attribute(&'a str),
    Key(&'a str),
    Index(usize),
    Element(&'a Value),
}

impl StepRef<'_> {
    /// The owned step.
    pub(crate) fn to_step(self) -> PathStep {
        match self {
            StepRef::Attribute(name) => PathStep::Attribute(name.to_owned()),
            StepRef::Key(key) => PathStep::Key(key.to_owned()),
            StepRef::Index(i) => PathStep::Index(i as u64),
            StepRef::Element(v) => PathStep::SetElement(v.clone()),
        }
    }

    /// The path of `steps`.
    pub(crate) fn path(steps: &[StepRef<'_>]) -> Path {
        Path::from(steps.iter().map(|s| s.to_step()).collect::<Vec<_>>())
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
            PathStep::Key(key) => {
                let mut quoted = Vec::with_capacity(key.len() + 2);
                crate::text::go_quote_into(key, &mut quoted);
                write!(f, "[{}]", String::from_utf8_lossy(&quoted))
            }
            PathStep::Index(i) => write!(f, "[{}]", crate::Number::from(*i).go_text_g()),
            PathStep::SetElement(element) => write!(f, "[{}]", SetElementText(element)),
        }
    }
}

/// A set element as Terraform's `FormatCtyPath` prints the key of an index step (go-cty
/// names a set element by its value): a string quoted as Go's `strconv.Quote` quotes it,
/// a number as `big.Float.Text('g', -1)` writes it, `null`, `(not yet known)` for an
/// unknown, and `...` for any other value (a bool, an object, a collection).
pub(crate) struct SetElementText<'a>(pub(crate) &'a Value);

impl fmt::Display for SetElementText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.untyped() {
            Value::Null => f.write_str("null"),
            Value::Unknown(_) => f.write_str("(not yet known)"),
            Value::Number(n) => f.write_str(&n.go_text_g()),
            Value::String(s) => f.write_str(&crate::text::go_quote(s)),
            _ => f.write_str("..."),
        }
    }
}

impl PathStep {
    /// The name of an attribute step or the key of a map step.
    pub fn name(&self) -> Option<&str> {
        match self {
            PathStep::Attribute(n) | PathStep::Key(n) => Some(n),
            _ => None,
        }
    }
}

impl Path {
    /// Parses a path in the form Terraform prints (`.tags["Name"]`, `.disk[0].size`,
    /// `["a"]`) or in the dotted form of `tfjsonpath` (`tags.Name`, `disk.0.size`).
    ///
    /// - `.name` (the first dot may be left out) is an attribute; a name made only of
    ///   digits, as in `disk.0`, is an index.
    /// - `[0]` is an index; `["key"]` is a map key, with the escapes of Go's
    ///   `strconv.Quote` (`\"`, `\\`, `\n`, `\t`, `\xNN`, `\uXXXX`, `\UXXXXXXXX`, ...)
    ///   and of JSON and Rust (`\u{1F600}`).
    /// - The empty string and a lone `.` (as `jq` writes it) are the empty path.
    ///
    /// - `[1e+06]`, an index in Go's `%g` form as Terraform prints it, is an index.
    ///
    /// A set element cannot be written by value: `["a"]` reads as a map key and `[443]`
    /// as an index, and `[...]` names no element. Use an index, which
    /// [`Value::at_path`] takes as a position in the set's order.
    ///
    /// ```
    /// use ctywire::Path;
    ///
    /// let p = Path::parse(r#".tags["Name"]"#)?;
    /// assert_eq!(p, Path::root().attribute("tags").at_map_key("Name"));
    /// assert_eq!(Path::parse("disk[0].size")?, Path::root().attribute("disk").at_slice_index(0).attribute("size"));
    /// assert_eq!(Path::parse("disk.0.size")?, Path::parse(".disk[0].size")?);
    /// assert_eq!(Path::parse(r#"["a\"b"]"#)?.to_string(), r#"["a\"b"]"#);
    /// assert!(Path::parse(".tags[").is_err());
    /// assert!(Path::parse(".")?.is_empty());
    /// assert_eq!(Path::parse(".disk[1e+06]")?, Path::root().attribute("disk").index(1_000_000));
    /// assert!(Path::parse(".rule[...]").is_err());
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn parse(text: &str) -> Result<Path, Error> {
        if text == "." {
            return Ok(Path::default());
        }
        PathParser { text, pos: 0 }.path()
    }

    /// The path in the dotted form that terraform-plugin-testing's `tfjsonpath.Path`
    /// prints: steps joined by `.`, names and keys as they are, indexes as numbers
    /// (`tags.Name`, `disk.0.size`). A set element prints as `?`.
    ///
    /// The form is lossy (a name containing `.` cannot be told apart), which is why
    /// [`Display`](fmt::Display) prints Terraform's form.
    ///
    /// ```
    /// use ctywire::Path;
    /// let p = Path::root().attribute("disk").at_slice_index(0).at_map_key("size");
    /// assert_eq!(p.to_tfjsonpath(), "disk.0.size");
    /// ```
    pub fn to_tfjsonpath(&self) -> String {
        let mut out = String::new();
        for (i, step) in self.steps.iter().enumerate() {
            if i > 0 {
                out.push('.');
            }
            match step {
                PathStep::Attribute(n) | PathStep::Key(n) => out.push_str(n),
                PathStep::Index(i) => out.push_str(&i.to_string()),
                PathStep::SetElement(_) => out.push('?'),
            }
        }
        out
    }

    /// This path with each step made the kind the type calls for: a name on an object
    /// type becomes an attribute step, on a map type a map-key step. Paths read from
    /// `tfjsonpath` or from `replace_paths`, which do not tell attributes from map keys,
    /// then print as Terraform prints them. Steps below a `dynamic` position, or that
    /// the type cannot follow, are kept as they are.
    ///
    /// ```
    /// use ctywire::{Path, Type};
    ///
    /// let ty: Type = "object({tags=map(string), disk=list(object({size=number}))})".parse()?;
    /// let p = Path::parse("tags.Name")?.resolve(&ty);
    /// assert_eq!(p.to_string(), r#".tags["Name"]"#);
    /// assert_eq!(Path::parse("disk.0.size")?.resolve(&ty).to_string(), ".disk[0].size");
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn resolve(&self, ty: &Type) -> Path {
        let mut out = Vec::with_capacity(self.steps.len());
        let mut ty = Some(ty);
        for step in &self.steps {
            let (new_step, next) = match (ty, step) {
                (Some(Type::Object(o)), PathStep::Attribute(n) | PathStep::Key(n)) => {
                    (PathStep::Attribute(n.clone()), o.attribute(n))
                }
                (Some(Type::Map(e)), PathStep::Attribute(n) | PathStep::Key(n)) => {
                    (PathStep::Key(n.clone()), Some(&**e))
                }
                (
                    Some(Type::List(e) | Type::Set(e)),
                    PathStep::Index(_) | PathStep::SetElement(_),
                ) => (step.clone(), Some(&**e)),
                (Some(Type::Tuple(ts)), PathStep::Index(i)) => (
                    step.clone(),
                    usize::try_from(*i).ok().and_then(|i| ts.get(i)),
                ),
                _ => (step.clone(), None),
            };
            out.push(new_step);
            ty = next;
        }
        Path { steps: out }
    }

    /// Whether `other` begins with every step of this path (lenient about attribute
    /// and map-key steps, which match each other by name).
    pub fn is_prefix_of(&self, other: &Path) -> bool {
        self.steps.len() <= other.steps.len()
            && self
                .steps
                .iter()
                .zip(&other.steps)
                .all(|(a, b)| a.matches(b))
    }
}

impl PathStep {
    /// Whether two steps name the same part of a value: equal steps, or an attribute and
    /// a map key of the same name (a value at one position is an object or a map, never
    /// both, and JSON does not tell them apart).
    pub(crate) fn matches(&self, other: &PathStep) -> bool {
        match (self, other) {
            (
                PathStep::Attribute(a) | PathStep::Key(a),
                PathStep::Attribute(b) | PathStep::Key(b),
            ) => a == b,
            (PathStep::Index(a), PathStep::Index(b)) => a == b,
            (PathStep::SetElement(a), PathStep::SetElement(b)) => {
                crate::value::set::equivalent(a, b)
            }
            _ => false,
        }
    }
}

impl FromStr for Path {
    type Err = Error;

    /// [`Path::parse`].
    fn from_str(s: &str) -> Result<Path, Error> {
        Path::parse(s)
    }
}

struct PathParser<'a> {
    text: &'a str,
    pos: usize,
}

impl PathParser<'_> {
    fn error(&self, at: usize, message: String) -> Error {
        Error::new(ErrorKind::Syntax, message).with_position(Position::LineColumn {
            line: 1,
            column: at + 1,
        })
    }

    fn found(&self) -> String {
        match self.text[self.pos..].chars().next() {
            None => "end of path".to_owned(),
            Some(c) => format!("{c:?}"),
        }
    }

    fn path(mut self) -> Result<Path, Error> {
        let mut steps = Vec::new();
        let bytes = self.text.as_bytes();
        // The first attribute may come without its dot, as tfjsonpath writes it.
        if bytes.first().is_some_and(|b| !matches!(b, b'.' | b'[')) {
            steps.push(self.name()?);
        }
        while let Some(&b) = bytes.get(self.pos) {
            match b {
                b'.' => {
                    self.pos += 1;
                    steps.push(self.name()?);
                }
                b'[' => {
                    self.pos += 1;
                    steps.push(self.bracket()?);
                }
                _ => {
                    return Err(self.error(
                        self.pos,
                        format!("expected `.` or `[`, found {}", self.found()),
                    ))
                }
            }
        }
        Ok(Path { steps })
    }

    /// A name after `.`: up to the next `.` or `[`. Digits only make an index.
    fn name(&mut self) -> Result<PathStep, Error> {
        let start = self.pos;
        let rest = &self.text[start..];
        let end = rest
            .find(|c: char| matches!(c, '.' | '[' | ']' | '"') || c.is_whitespace())
            .unwrap_or(rest.len());
        let name = &rest[..end];
        if name.is_empty() {
            return Err(self.error(
                start,
                format!("expected an attribute name, found {}", self.found()),
            ));
        }
        self.pos += end;
        if name.bytes().all(|b| b.is_ascii_digit()) {
            return index(name)
                .map(PathStep::Index)
                .ok_or_else(|| self.error(start, format!("index {name} is too large")));
        }
        Ok(PathStep::Attribute(name.to_owned()))
    }

    /// What follows `[`: an index or a quoted key, then `]`.
    fn bracket(&mut self) -> Result<PathStep, Error> {
        let start = self.pos;
        let rest = &self.text[start..];
        let step =
            if rest.starts_with('"') {
                self.pos += 1;
                PathStep::Key(self.quoted()?)
            } else {
                // Digits, or Go's `%g` form that Terraform prints from a million on
                // (`1e+06`, `1.234567e+06`).
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-')))
                    .unwrap_or(rest.len());
                if end == 0 || !rest.starts_with(|c: char| c.is_ascii_digit()) {
                    return Err(self.error(
                        start,
                        format!("expected an index or a quoted key, found {}", self.found()),
                    ));
                }
                self.pos += end;
                PathStep::Index(index(&rest[..end]).ok_or_else(|| {
                    self.error(start, format!("{} is not an index", &rest[..end]))
                })?)
            };
        if self.text.as_bytes().get(self.pos) != Some(&b']') {
            return Err(self.error(self.pos, format!("expected `]`, found {}", self.found())));
        }
        self.pos += 1;
        Ok(step)
    }

    /// A quoted string's contents after the opening `"`, through the closing `"`.
    fn quoted(&mut self) -> Result<String, Error> {
        let mut out = String::new();
        loop {
            let Some(c) = self.text[self.pos..].chars().next() else {
                return Err(self.error(self.pos, "expected `\"`, found end of path".to_owned()));
            };
            let at = self.pos;
            self.pos += c.len_utf8();
            match c {
                '"' => return Ok(out),
                '\\' => {
                    let Some(e) = self.text[self.pos..].chars().next() else {
                        return Err(self
                            .error(self.pos, "expected an escape, found end of path".to_owned()));
                    };
                    self.pos += e.len_utf8();
                    let c = match e {
                        '"' => '"',
                        '\\' => '\\',
                        '\'' => '\'',
                        '/' => '/',
                        'a' => '\u{07}',
                        'b' => '\u{08}',
                        'f' => '\u{0c}',
                        'n' => '\n',
                        'r' => '\r',
                        't' => '\t',
                        'v' => '\u{0b}',
                        '0' => '\0',
                        'x' => self.hex(2, at)?,
                        'U' => self.hex(8, at)?,
                        'u' if self.text[self.pos..].starts_with('{') => {
                            let close = self.text[self.pos..].find('}').ok_or_else(|| {
                                self.error(at, "unterminated `\\u{...}` escape".to_owned())
                            })?;
                            let digits = &self.text[self.pos + 1..self.pos + close];
                            self.pos += close + 1;
                            u32::from_str_radix(digits, 16)
                                .ok()
                                .and_then(char::from_u32)
                                .ok_or_else(|| {
                                    self.error(at, format!("invalid escape `\\u{{{digits}}}`"))
                                })?
                        }
                        'u' => self.utf16(at)?,
                        other => return Err(self.error(at, format!("invalid escape `\\{other}`"))),
                    };
                    out.push(c);
                }
                c => out.push(c),
            }
        }
    }

    fn hex_digits(&mut self, n: usize, at: usize) -> Result<u32, Error> {
        let digits = self.text.get(self.pos..self.pos + n).unwrap_or("");
        let v = (digits.len() == n && digits.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| u32::from_str_radix(digits, 16).ok())
            .flatten()
            .ok_or_else(|| self.error(at, format!("expected {n} hex digits in escape")))?;
        self.pos += n;
        Ok(v)
    }

    fn hex(&mut self, n: usize, at: usize) -> Result<char, Error> {
        let v = self.hex_digits(n, at)?;
        char::from_u32(v)
            .ok_or_else(|| self.error(at, format!("escape names no character: {v:#x}")))
    }

    /// `\uXXXX`, with a following `\uXXXX` for a surrogate pair as JSON writes them.
    fn utf16(&mut self, at: usize) -> Result<char, Error> {
        let hi = self.hex_digits(4, at)?;
        if (0xD800..0xDC00).contains(&hi) && self.text[self.pos..].starts_with("\\u") {
            self.pos += 2;
            let lo = self.hex_digits(4, at)?;
            if (0xDC00..0xE000).contains(&lo) {
                let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                return char::from_u32(c)
                    .ok_or_else(|| self.error(at, "invalid surrogate pair".to_owned()));
            }
        }
        char::from_u32(hi)
            .ok_or_else(|| self.error(at, format!("escape names no character: {hi:#x}")))
    }
}

/// The index that `text` writes: digits, or a whole number in Go's `%g` form
/// (`1e+06`).
fn index(text: &str) -> Option<u64> {
    if text.bytes().all(|b| b.is_ascii_digit()) {
        return text.parse().ok();
    }
    let exponent = text.find('e')?;
    if !text[exponent..].starts_with("e+") {
        return None;
    }
    let n: crate::Number = text.parse().ok()?;
    n.to_u64()
}

impl Value {
    /// The part of this value that `path` names, looking through [`Typed`] wrappers:
    /// an attribute or map-key step finds an object attribute or a map element by name
    /// (either step works on either, as in JSON and `tfjsonpath`); an index step finds a
    /// list or tuple element, or a set element by its position in the set's order; a
    /// set-element step finds the equal element. `None` when the path leads nowhere,
    /// through a null or an unknown.
    ///
    /// [`Typed`]: crate::Typed
    ///
    /// ```
    /// use ctywire::{Path, Value};
    ///
    /// let v = Value::object([
    ///     ("tags", Value::map([("Name", Value::from("web"))])),
    ///     ("disk", Value::list([Value::object([("size", Value::from(10))])])),
    /// ]);
    /// assert_eq!(v.at_path(&Path::parse(r#".tags["Name"]"#)?), Some(&Value::from("web")));
    /// assert_eq!(v.at_path(&Path::root().attribute("disk").at_slice_index(0).at_map_key("size")), Some(&Value::from(10)));
    /// assert_eq!(v.at_path(&Path::parse(".disk[3]")?), None);
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn at_path(&self, path: &Path) -> Option<&Value> {
        let mut at = self;
        for step in path.steps() {
            at = match (step, at.untyped()) {
                (PathStep::Attribute(n) | PathStep::Key(n), v) => v.get(n)?,
                (PathStep::Index(i), v) => v.get_index(usize::try_from(*i).ok()?)?,
                (PathStep::SetElement(e), Value::Set(s)) => {
                    s.iter().find(|x| crate::value::set::equivalent(x, e))?
                }
                _ => return None,
            };
        }
        Some(at)
    }
}

impl Value {
    /// The part of this value that `path` names, to change in place: found as by
    /// [`Value::at_path`], except that no path leads into a set (a set's order and
    /// uniqueness depend on its elements' values; [`Value::set_at_path`] changes one
    /// and puts the set back in order).
    ///
    /// ```
    /// use ctywire::{Path, Value};
    ///
    /// let mut v = Value::object([("disk", Value::list([Value::object([("size", Value::from(10))])]))]);
    /// let path = Path::root().attribute("disk").index(0).attribute("size");
    /// *v.at_path_mut(&path).unwrap() = Value::from(20);
    /// assert_eq!(v.at_path(&path), Some(&Value::from(20)));
    /// assert!(v.at_path_mut(&Path::root().attribute("disk").index(1)).is_none());
    /// ```
    pub fn at_path_mut(&mut self, path: &Path) -> Option<&mut Value> {
        self.at_path_mut_or_error(path).ok()
    }

    /// [`Value::at_path_mut`], with an error naming the step that leads nowhere.
    pub(crate) fn at_path_mut_or_error(&mut self, path: &Path) -> Result<&mut Value, Error> {
        let mut at = self;
        for (done, step) in path.steps().iter().enumerate() {
            let here = || Path::from(path.steps()[..done].to_vec());
            at = match at.untyped_mut() {
                Value::Set(_) => {
                    return Err(Error::new(
                        ErrorKind::InvalidValue,
                        format!("the element {step} of a set cannot be changed in place"),
                    )
                    .at(&here()))
                }
                v => step_mut(v, step).map_err(|e| e.at(&here()))?,
            };
        }
        Ok(at)
    }

    /// Puts `value` at `path` in this value. Every step must lead somewhere, as for
    /// [`Value::at_path`] (looking through [`Typed`](crate::Typed) wrappers), except
    /// the last, which may name a map element or an object attribute that is not there
    /// yet: it is added. A path through a set changes the element and puts the set
    /// back in go-cty's order (dropping the element if it now equals another).
    ///
    /// Fails, changing nothing, where a step leads nowhere: the error's path is that of
    /// the value the step was taken from, and its message names the step.
    ///
    /// ```
    /// use ctywire::{Path, Value};
    ///
    /// let mut v = Value::object([
    ///     ("tags", Value::map([("env", Value::from("dev"))])),
    ///     ("disks", Value::list([Value::object([("size", Value::from(10))])])),
    /// ]);
    /// v.set_at_path(&Path::root().attribute("tags").key("env"), Value::from("prod"))?;
    /// v.set_at_path(&Path::root().attribute("tags").key("owner"), Value::from("me"))?;
    /// assert_eq!(v["tags"], Value::map([("env", Value::from("prod")), ("owner", Value::from("me"))]));
    ///
    /// let err = v.set_at_path(&Path::root().attribute("disks").index(3).attribute("size"), Value::from(1)).unwrap_err();
    /// assert_eq!(err.to_string(), ".disks: no element at index 3 (the list has 1)");
    /// let err = v.set_at_path(&Path::root().attribute("tags").key("env").attribute("x"), Value::from(1)).unwrap_err();
    /// assert_eq!(err.to_string(), r#".tags["env"]: expected an object or a map for step .x, found string"#);
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn set_at_path(&mut self, path: &Path, value: Value) -> Result<(), Error> {
        set_in(self, path.steps(), value)
    }
}

/// Puts `value` at `steps` in `target` (see [`Value::set_at_path`]); an error's path is
/// relative to `target`.
fn set_in(target: &mut Value, steps: &[PathStep], value: Value) -> Result<(), Error> {
    let Some((step, rest)) = steps.split_first() else {
        *target = value;
        return Ok(());
    };
    let inside = |e: Error| e.in_step(step.clone());
    match (step, target.untyped_mut()) {
        (PathStep::Attribute(n) | PathStep::Key(n), Value::Object(o)) if rest.is_empty() => {
            o.insert(n, value);
            Ok(())
        }
        (PathStep::Attribute(n) | PathStep::Key(n), Value::Map(m)) if rest.is_empty() => {
            m.insert(n, value);
            Ok(())
        }
        (PathStep::Index(_) | PathStep::SetElement(_), Value::Set(s)) => {
            let i = set_position(s, step)?;
            let mut elements = std::mem::take(s).into_vec();
            let result = set_in(&mut elements[i], rest, value).map_err(inside);
            *s = crate::Set::new(elements);
            result
        }
        (_, v) => set_in(step_mut(v, step)?, rest, value).map_err(inside),
    }
}

/// The position in set `s` of the element `step` names: by index in the set's order, or
/// by value.
fn set_position(s: &crate::Set, step: &PathStep) -> Result<usize, Error> {
    let found = match step {
        PathStep::Index(i) => usize::try_from(*i).ok().filter(|i| *i < s.len()),
        PathStep::SetElement(e) => s.iter().position(|x| crate::value::set::equivalent(x, e)),
        _ => None,
    };
    found.ok_or_else(|| match step {
        PathStep::Index(i) => Error::new(
            ErrorKind::NotFound,
            format!("no element at index {i} (the set has {})", s.len()),
        ),
        _ => Error::new(ErrorKind::NotFound, "no such set element"),
    })
}

/// The part of `v` (without a wrapper) that `step` names, to change: an object
/// attribute or map element by name, a list or tuple element by index. An error names
/// the step where there is none.
fn step_mut<'v>(v: &'v mut Value, step: &PathStep) -> Result<&'v mut Value, Error> {
    let kind = v.kind_name();
    match (step, v) {
        (PathStep::Attribute(n) | PathStep::Key(n), Value::Object(o)) => o
            .get_mut(n)
            .ok_or_else(|| Error::new(ErrorKind::NotFound, format!("no attribute {n:?}"))),
        (PathStep::Attribute(n) | PathStep::Key(n), Value::Map(m)) => m
            .get_mut(n)
            .ok_or_else(|| Error::new(ErrorKind::NotFound, format!("no element with key {n:?}"))),
        (PathStep::Index(i), Value::List(vs) | Value::Tuple(vs)) => {
            let len = vs.len();
            usize::try_from(*i)
                .ok()
                .and_then(|i| vs.get_mut(i))
                .ok_or_else(|| {
                    Error::new(
                        ErrorKind::NotFound,
                        format!("no element at index {i} (the {kind} has {len})"),
                    )
                })
        }
        (step, _) => {
            let expected = match step {
                PathStep::Attribute(_) | PathStep::Key(_) => "an object or a map",
                PathStep::Index(_) => "a list, a tuple or a set",
                PathStep::SetElement(_) => "a set",
            };
            Err(Error::mismatch(format!("{expected} for step {step}"), kind))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Number, Refinements};

    /// Set elements print as Terraform's `FormatCtyPath` prints an index step's key (the
    /// strings checked against Terraform 1.15's `lang/format.CtyPath` rules: strings
    /// quoted by `strconv.Quote`, numbers by `big.Float.Text('g', -1)`, null and unknown
    /// by name, anything else as `...`).
    #[test]
    fn set_elements_print_as_terraform_names_them() {
        let parse = |s: &str| s.parse::<Number>().unwrap();
        let cases = [
            (Value::from("a"), r#"["a"]"#),
            (Value::from("say \"hi\"\n"), r#"["say \"hi\"\n"]"#),
            (Value::from("é\u{7f}"), r#"["é\x7f"]"#),
            (Value::from(443), "[443]"),
            (Value::from(-3), "[-3]"),
            (Value::from(1_000_000), "[1e+06]"),
            (Value::from(1_234_567), "[1.234567e+06]"),
            (Value::Number(Number::from_f64(1.5).unwrap()), "[1.5]"),
            (Value::Number(Number::from_f64(1e-5).unwrap()), "[1e-05]"),
            (Value::Number(parse("0.1")), "[0.1]"),
            (Value::Number(Number::infinity()), "[+Inf]"),
            (Value::Null, "[null]"),
            (Value::typed(Type::String, Value::Null), "[null]"),
            (Value::unknown(), "[(not yet known)]"),
            (
                Value::Unknown(Refinements::new().not_null()),
                "[(not yet known)]",
            ),
            (Value::from(true), "[...]"),
            (Value::object([("port", Value::from(22))]), "[...]"),
            (Value::list([Value::from("a")]), "[...]"),
            (Value::set([Value::from("a")]), "[...]"),
            (Value::map([("k", Value::from("v"))]), "[...]"),
            (Value::tuple([]), "[...]"),
        ];
        for (element, want) in cases {
            let path = Path::root().attribute("s").element(element.clone());
            assert_eq!(path.to_string(), format!(".s{want}"), "{element:?}");
        }
        let rule = Path::root()
            .attribute("rule")
            .element(Value::object([("cidr", Value::from("10.0.0.0/8"))]))
            .attribute("ports")
            .element(Value::from(22));
        assert_eq!(rule.to_string(), ".rule[...].ports[22]");
    }

    /// Indexes print as Terraform prints a `cty.NumberIntVal` key: Go's `%g`, which
    /// switches to exponent form at a million; that form parses back.
    #[test]
    fn indexes_print_in_go_g_form_and_parse_back() {
        for (index, want) in [
            (0, "[0]"),
            (999_999, "[999999]"),
            (1_000_000, "[1e+06]"),
            (1_234_567, "[1.234567e+06]"),
            (10_000_001, "[1.0000001e+07]"),
            (u64::MAX, "[1.8446744073709551615e+19]"),
        ] {
            let path = Path::root().index(index);
            assert_eq!(path.to_string(), want);
            assert_eq!(Path::parse(want).unwrap(), path, "{want}");
        }
        for bad in ["[1.5e+00]", "[1e-06]", "[1e+20]", "[1x]", "[1.5]"] {
            assert!(Path::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            Path::parse("[1e-06]").unwrap_err().to_string(),
            "1e-06 is not an index at line 1 column 2"
        );
    }

    /// A path through a set changes the element and puts the set back in order,
    /// merging equal elements; `at_path_mut` does not go into sets.
    #[test]
    fn set_at_path_through_sets() {
        let mut v = Value::object([(
            "s",
            Value::set([
                Value::object([("k", Value::from("a"))]),
                Value::object([("k", Value::from("b"))]),
            ]),
        )]);
        let path = Path::root().attribute("s").index(0).attribute("k");
        assert!(v.at_path_mut(&path).is_none());
        v.set_at_path(&path, Value::from("c")).unwrap();
        assert_eq!(v["s"][0]["k"].as_str(), Some("b"));
        assert_eq!(v["s"][1]["k"].as_str(), Some("c"));
        let by_value = Path::root()
            .attribute("s")
            .element(Value::object([("k", Value::from("c"))]));
        v.set_at_path(&by_value.attribute("k"), Value::from("b"))
            .unwrap();
        assert_eq!(v["s"].len(), Some(1));
        let err = v
            .set_at_path(&Path::root().attribute("s").index(5), Value::Null)
            .unwrap_err();
        assert_eq!(err.to_string(), ".s: no element at index 5 (the set has 1)");
        assert_eq!(err.kind(), ErrorKind::NotFound);
    }

    /// Errors name the step that leads nowhere, with the path of the value it was taken
    /// from; nothing is changed.
    #[test]
    fn set_at_path_errors() {
        let original = Value::object([
            ("m", Value::map([("k", Value::list([Value::from(1)]))])),
            ("n", Value::Null),
        ]);
        let cases = [
            (
                Path::root().attribute("x").attribute("y"),
                r#"no attribute "x""#,
            ),
            (
                Path::root().attribute("m").key("z").index(0),
                r#".m: no element with key "z""#,
            ),
            (
                Path::root().attribute("m").key("k").index(1),
                r#".m["k"]: no element at index 1 (the list has 1)"#,
            ),
            (
                Path::root().attribute("n").attribute("a"),
                ".n: expected an object or a map for step .a, found null",
            ),
            (
                Path::root().attribute("m").key("k").key("a"),
                r#".m["k"]: expected an object or a map for step ["a"], found list"#,
            ),
            (
                Path::root().attribute("m").index(0),
                ".m: expected a list, a tuple or a set for step [0], found map",
            ),
        ];
        for (path, want) in cases {
            let mut v = original.clone();
            let err = v.set_at_path(&path, Value::from(2)).unwrap_err();
            assert_eq!(err.to_string(), want, "{path}");
            assert_eq!(v, original);
        }
    }
}

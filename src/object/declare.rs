//! What a derived struct declares beyond its schema: the validation of its attributes
//! ([`Validators`], from `#[cty(length(..))]`, `#[cty(one_of(..))]`, `#[cty(conflicts_with(..))]`
//! and the like), and the check of each value against the Rust type that holds it
//! ([`FieldType::check_value`](super::FieldType::check_value): a `u16` refuses `22.5`).
//! A provider framework applies them to a configuration; see `ctywire-provider`.

use crate::path::Path;
use crate::value::{Number, Value};

/// A configuration value a declaration refuses: where, and why (never the value
/// itself, which may be sensitive).
#[derive(Clone, Debug, PartialEq)]
pub struct Invalid {
    /// The attribute, list element, map element or set element refused.
    pub path: Path,
    /// One line: what is wrong.
    pub summary: String,
    /// What the value must be.
    pub detail: String,
}

impl Invalid {
    /// A refusal at `path`.
    pub fn new(path: Path, summary: impl Into<String>, detail: impl Into<String>) -> Invalid {
        Invalid {
            path,
            summary: summary.into(),
            detail: detail.into(),
        }
    }
}

/// A custom validation (`#[cty(validate = function)]`): gets each known, non-null
/// value of the attribute, and returns what is wrong with it.
pub type CustomCheck = fn(&Value) -> std::result::Result<(), String>;

/// One declared rule.
#[derive(Clone, Debug)]
pub enum Rule {
    /// A string's length in characters (Unicode scalar values, as Terraform's
    /// `length()` counts them), inclusive bounds.
    Length {
        /// The fewest characters.
        min: Option<u64>,
        /// The most characters.
        max: Option<u64>,
    },
    /// A string matching a regular expression (the `regex` crate's syntax), anywhere
    /// in it unless anchored.
    Pattern(&'static str),
    /// One of the values listed.
    OneOf(Vec<Value>),
    /// A number within inclusive bounds.
    Range {
        /// The least.
        min: Option<Number>,
        /// The greatest.
        max: Option<Number>,
    },
    /// A list's, set's or map's number of elements, inclusive bounds.
    Size {
        /// The fewest elements.
        min: Option<u64>,
        /// The most elements.
        max: Option<u64>,
    },
    /// Not set together with any of these attributes of the same object.
    ConflictsWith(Vec<String>),
    /// Exactly one of this attribute and these attributes of the same object set.
    ExactlyOneOf(Vec<String>),
    /// At least one of this attribute and these attributes of the same object set.
    AtLeastOneOf(Vec<String>),
    /// When set, these attributes of the same object set too.
    AlsoRequires(Vec<String>),
    /// A function of the value.
    Custom(CustomCheck),
}

/// A rule on an attribute, named by the names from the struct's block to it (as in
/// [`PlanModifiers`](super::PlanModifiers)).
#[derive(Clone, Debug)]
pub struct Validator {
    /// The attribute's names from the top block, through nested blocks and nested
    /// attributes.
    pub names: Vec<String>,
    /// What the value must be.
    pub rule: Rule,
    /// Whether the attribute is sensitive (its value is then never described).
    pub sensitive: bool,
}

/// The validators a derived struct declares, with those of its nested blocks and
/// nested attributes.
///
/// ```
/// # #[cfg(feature = "derive")] {
/// use ctywire::object::{Object, Rule};
///
/// #[derive(ctywire::Object)]
/// struct Server {
///     #[cty(required, length(min = 1, max = 63))]
///     name: String,
///     #[cty(optional, conflicts_with(socket))]
///     port: Option<u16>,
///     #[cty(optional)]
///     socket: Option<String>,
/// }
///
/// let v = Server::validators();
/// assert_eq!(v.0[0].names, ["name"]);
/// assert!(matches!(v.0[0].rule, Rule::Length { min: Some(1), max: Some(63) }));
/// assert!(matches!(&v.0[1].rule, Rule::ConflictsWith(names) if names == &["socket"]));
/// # }
/// ```
#[derive(Clone, Debug, Default)]
pub struct Validators(pub Vec<Validator>);

impl Validators {
    /// Adds `inner`'s validators, which are those of the nested block or nested
    /// attribute `name`.
    pub fn extend_under(&mut self, name: &str, inner: Validators) {
        self.0.extend(inner.0.into_iter().map(|mut v| {
            v.names.insert(0, name.to_owned());
            v
        }));
    }

    /// Whether nothing is declared.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Each element of a known collection with its path from `at` (list index, map key,
/// set element by value), for [`FieldType::check_value`](super::FieldType::check_value)
/// of collections.
pub fn check_elements(
    value: &Value,
    at: &Path,
    out: &mut Vec<Invalid>,
    check: fn(&Value, &Path, &mut Vec<Invalid>),
) {
    match value.untyped() {
        Value::List(elements) | Value::Tuple(elements) => {
            for (i, element) in elements.iter().enumerate() {
                check(element, &at.clone().index(i as u64), out);
            }
        }
        Value::Set(set) => {
            for element in set.iter() {
                check(element, &at.clone().element(element.clone()), out);
            }
        }
        Value::Map(map) => {
            for (key, element) in map.iter() {
                check(element, &at.clone().key(key), out);
            }
        }
        _ => {}
    }
}

/// Checks an attribute of the object `value` with its type's
/// [`FieldType::check_value`](super::FieldType::check_value), at `at.name`.
pub fn check_attribute(
    value: &Value,
    name: &str,
    at: &Path,
    out: &mut Vec<Invalid>,
    check: fn(&Value, &Path, &mut Vec<Invalid>),
) {
    if let Some(inner) = value.untyped().get(name) {
        check(inner, &at.clone().attribute(name), out);
    }
}

/// Whether the known number `value` is a whole number within `min..=max`; the refusal
/// otherwise, naming the Rust type and never the value.
pub fn check_integer(
    value: &Value,
    at: &Path,
    out: &mut Vec<Invalid>,
    rust: &str,
    min: &str,
    max: &str,
) {
    let Value::Number(n) = value.untyped() else {
        return;
    };
    let bound = |text: &str| Number::parse(text).ok();
    let (Some(lo), Some(hi)) = (bound(min), bound(max)) else {
        return;
    };
    let within = n.cmp_numeric(&lo).is_ge() && n.cmp_numeric(&hi).is_le();
    if n.is_integer() && within {
        return;
    }
    let found = if n.is_integer() {
        "a number out of that range"
    } else {
        "a fraction"
    };
    out.push(Invalid::new(
        at.clone(),
        "Invalid configuration",
        format!("expected {rust} (an integer from {min} to {max}), found {found}"),
    ));
}

/// The kind of a string literal in `#[cty(default = "...")]` or `#[cty(prefix = "...")]`.
#[derive(Debug)]
pub enum StringLiteral {}

/// The kind of a number literal in `#[cty(default = 10)]`.
#[derive(Debug)]
pub enum NumberLiteral {}

/// The kind of a bool literal in `#[cty(default = true)]`.
#[derive(Debug)]
pub enum BoolLiteral {}

/// A field type that a literal of kind `L` is a value of: what the derive checks a
/// `#[cty(default = ...)]` or `#[cty(prefix = ...)]` against, so that a default of the
/// wrong type does not build.
#[diagnostic::on_unimplemented(
    message = "this literal is not a value of the field's type `{Self}` (a {L})",
    label = "the field's type",
    note = "a `default` is a literal of the attribute's type: a string for String, a number for the integers, f32, f64 and Number, true or false for bool; a `prefix` goes on a string"
)]
pub trait TakesLiteral<L> {}

macro_rules! takes {
    ($l:ty => $($t:ty),*) => {$(
        impl TakesLiteral<$l> for $t {}
    )*};
}

takes!(StringLiteral => String, Box<str>);
takes!(NumberLiteral => i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64, Number);
takes!(BoolLiteral => bool);

impl<L, T: TakesLiteral<L>> TakesLiteral<L> for Option<T> {}
impl<L, T: TakesLiteral<L>> TakesLiteral<L> for crate::Known<T> {}
impl<L, T: TakesLiteral<L> + ?Sized> TakesLiteral<L> for Box<T> {}

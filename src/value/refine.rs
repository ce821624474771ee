//! Refinements: what is already known about an unknown value.

use std::fmt;

use crate::types::Type;
use crate::value::{Map, Number, Set, Value};

/// What is known about an [unknown](crate::Value::Unknown) value before it is known:
/// that it will not be null, a prefix of a string, bounds of a number, bounds of a
/// collection's length.
///
/// Terraform (from v1.6) and go-cty (from v1.13) send these as MessagePack extension 12.
/// An unrefined unknown costs one null pointer.
///
/// ```
/// use ctywire::{Refinements, Value};
///
/// let arn = Value::Unknown(Refinements::new().not_null().with_string_prefix("arn:aws:"));
/// assert!(arn.is_unknown());
/// assert_eq!(arn.refinements().unwrap().string_prefix(), Some("arn:aws:"));
/// ```
///
/// Refinements are `Eq`, `Hash` and `Ord` (an order that is total but means nothing, so
/// that a [`Known`](crate::Known) can be a map key).
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Refinements(Option<Box<Known>>);

/// The refinement fields, boxed so that an unrefined unknown is one null pointer.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Known {
    nullness: Option<bool>,
    prefix: Option<Box<str>>,
    lower: Option<(Number, bool)>,
    upper: Option<(Number, bool)>,
    length_lower: Option<u64>,
    length_upper: Option<u64>,
}

impl Refinements {
    /// No refinements: a plain unknown.
    pub fn new() -> Refinements {
        Refinements(None)
    }

    fn known_mut(&mut self) -> &mut Known {
        self.0.get_or_insert_with(Default::default)
    }

    fn get(&self) -> Option<&Known> {
        self.0.as_deref()
    }

    /// The value will not be null.
    pub fn not_null(mut self) -> Refinements {
        self.known_mut().nullness = Some(false);
        self
    }

    /// Sets what is known of nullness: `Some(false)` means definitely not null.
    /// `Some(true)` (definitely null) makes the value collapse to a known null when it
    /// is built with [`Value::refined_unknown`](crate::Value::refined_unknown).
    pub fn with_nullness(mut self, nullness: Option<bool>) -> Refinements {
        self.known_mut().nullness = nullness;
        self.normalize()
    }

    /// A string value will start with `prefix` (which is NFC-normalized).
    pub fn with_string_prefix(mut self, prefix: impl AsRef<str>) -> Refinements {
        let prefix = crate::text::nfc(prefix.as_ref());
        self.known_mut().prefix = (!prefix.is_empty()).then(|| prefix.into());
        self.normalize()
    }

    /// A number will be at least (`inclusive`) or above `bound`.
    pub fn with_number_lower_bound(mut self, bound: Number, inclusive: bool) -> Refinements {
        self.known_mut().lower = Some((bound, inclusive));
        self
    }

    /// A number will be at most (`inclusive`) or below `bound`.
    pub fn with_number_upper_bound(mut self, bound: Number, inclusive: bool) -> Refinements {
        self.known_mut().upper = Some((bound, inclusive));
        self
    }

    /// A collection will have at least `min` elements.
    pub fn with_length_lower_bound(mut self, min: u64) -> Refinements {
        self.known_mut().length_lower = (min != 0).then_some(min);
        self.normalize()
    }

    /// A collection will have at most `max` elements. go-cty's "no upper bound" is the
    /// largest `int`, so `max` from `i64::MAX` up means no bound.
    pub fn with_length_upper_bound(mut self, max: u64) -> Refinements {
        self.known_mut().length_upper = (max < i64::MAX as u64).then_some(max);
        self.normalize()
    }

    /// Drops the box when no field is set, so that equal refinements compare equal.
    fn normalize(self) -> Refinements {
        match self.0 {
            Some(k) if *k == Known::default() => Refinements(None),
            other => Refinements(other),
        }
    }

    /// Whether nothing is known.
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// Whether the value is known not to be null.
    pub fn is_not_null(&self) -> bool {
        self.nullness() == Some(false)
    }

    /// What is known of nullness: `Some(false)` for "definitely not null".
    pub fn nullness(&self) -> Option<bool> {
        self.get().and_then(|k| k.nullness)
    }

    /// The known prefix of a string.
    pub fn string_prefix(&self) -> Option<&str> {
        self.get().and_then(|k| k.prefix.as_deref())
    }

    /// The lower bound of a number and whether it is inclusive.
    pub fn number_lower_bound(&self) -> Option<(&Number, bool)> {
        self.get()
            .and_then(|k| k.lower.as_ref().map(|(n, i)| (n, *i)))
    }

    /// The upper bound of a number and whether it is inclusive.
    pub fn number_upper_bound(&self) -> Option<(&Number, bool)> {
        self.get()
            .and_then(|k| k.upper.as_ref().map(|(n, i)| (n, *i)))
    }

    /// The lower bound of a collection's length (0 when nothing is known).
    pub fn length_lower_bound(&self) -> u64 {
        self.get().and_then(|k| k.length_lower).unwrap_or(0)
    }

    /// The upper bound of a collection's length, if known.
    pub fn length_upper_bound(&self) -> Option<u64> {
        self.get().and_then(|k| k.length_upper)
    }

    /// Checks that the bounds are consistent: lower at most upper.
    pub(crate) fn check(&self) -> Result<(), String> {
        if let Some(max) = self.length_upper_bound() {
            if self.length_lower_bound() > max {
                return Err(format!(
                    "collection length lower bound {} is greater than upper bound {max}",
                    self.length_lower_bound()
                ));
            }
        }
        if let (Some((lo, lo_inc)), Some((hi, hi_inc))) =
            (self.number_lower_bound(), self.number_upper_bound())
        {
            let order = lo.cmp_numeric(hi);
            let empty = order.is_gt() || (order.is_eq() && !(lo_inc && hi_inc));
            if empty {
                return Err(format!(
                    "number lower bound {lo} is greater than upper bound {hi}"
                ));
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Refinements {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Refinements")?;
        f.debug_list().entries(self.describe()).finish()
    }
}

impl Refinements {
    /// Human-readable phrases, in Terraform's style: `not null`, `prefix "arn:"`,
    /// `at least 1`, `at most 3 elements`.
    pub fn describe(&self) -> Vec<String> {
        let mut out = Vec::new();
        match self.nullness() {
            Some(false) => out.push("not null".to_owned()),
            Some(true) => out.push("null".to_owned()),
            None => {}
        }
        if let Some(p) = self.string_prefix() {
            out.push(format!("prefix {p:?}"));
        }
        if let Some((n, inc)) = self.number_lower_bound() {
            out.push(format!(
                "{} {n}",
                if inc { "at least" } else { "greater than" }
            ));
        }
        if let Some((n, inc)) = self.number_upper_bound() {
            out.push(format!("{} {n}", if inc { "at most" } else { "less than" }));
        }
        let min = self.length_lower_bound();
        let elements = |n: u64| if n == 1 { "element" } else { "elements" };
        match self.length_upper_bound() {
            Some(max) if max == min => out.push(format!("exactly {min} {}", elements(min))),
            Some(max) if min > 0 => out.push(format!("{min} to {max} elements")),
            Some(max) => out.push(format!("at most {max} {}", elements(max))),
            None if min > 0 => out.push(format!("at least {min} {}", elements(min))),
            None => {}
        }
        out
    }
}

/// The number of unknown elements [`collapse`] makes for an unknown of type `ty` with
/// `refinements`: n for a list known not to be null with exactly n elements (n at most
/// [`MAX_COLLAPSED_LENGTH`](crate::limits::MAX_COLLAPSED_LENGTH)), else 0.
pub(crate) fn collapsed_elements(ty: &Type, refinements: &Refinements) -> u64 {
    match (ty, refinements.nullness(), refinements.length_upper_bound()) {
        (Type::List(_), Some(false), Some(n))
            if n == refinements.length_lower_bound()
                && n <= crate::limits::MAX_COLLAPSED_LENGTH =>
        {
            n
        }
        _ => 0,
    }
}

/// Builds the unknown value of type `ty` with `refinements`, collapsed to a known value
/// where go-cty collapses it (see [`Value::refined_unknown`]).
pub(crate) fn collapse(ty: &Type, refinements: Refinements) -> Value {
    if ty == &Type::Dynamic {
        // A dynamic unknown cannot carry refinements.
        return Value::unknown();
    }
    match refinements.nullness() {
        Some(true) => return Value::Null,
        Some(false) => {}
        None => return Value::Unknown(refinements),
    }
    let exact_length = match refinements.length_upper_bound() {
        Some(max) if max == refinements.length_lower_bound() => Some(max),
        _ => None,
    };
    match (ty, exact_length) {
        (Type::Number, _) => {
            if let (Some((lo, true)), Some((hi, true))) = (
                refinements.number_lower_bound(),
                refinements.number_upper_bound(),
            ) {
                if lo == hi {
                    return Value::Number(lo.clone());
                }
            }
        }
        (Type::List(_), Some(n)) if n <= crate::limits::MAX_COLLAPSED_LENGTH => {
            return Value::List((0..n).map(|_| Value::unknown()).collect());
        }
        (Type::Set(_), Some(0)) => return Value::Set(Set::default()),
        (Type::Set(_), Some(1)) => return Value::Set(Set::new(vec![Value::unknown()])),
        (Type::Map(_), Some(0)) => return Value::Map(Map::default()),
        _ => {}
    }
    Value::Unknown(refinements)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`collapsed_elements`] counts exactly the elements [`collapse`] makes.
    #[test]
    fn collapsed_elements_counts_what_collapse_makes() {
        let max = crate::limits::MAX_COLLAPSED_LENGTH;
        let types = [
            Type::list(Type::String),
            Type::set(Type::String),
            Type::map(Type::String),
            Type::String,
            Type::Dynamic,
        ];
        for ty in &types {
            for nullness in [None, Some(false), Some(true)] {
                for (lower, upper) in [(0, Some(0)), (2, Some(2)), (1, Some(3)), (3, None)]
                    .into_iter()
                    .chain([(max, Some(max)), (max + 1, Some(max + 1))])
                {
                    let mut r = Refinements::new();
                    if let Some(n) = nullness {
                        r = r.with_nullness(Some(n));
                    }
                    if ty.is_collection() {
                        r = r.with_length_lower_bound(lower);
                        if let Some(u) = upper {
                            r = r.with_length_upper_bound(u);
                        }
                    }
                    let made = match collapse(ty, r.clone()) {
                        Value::List(vs) => vs.len() as u64,
                        _ => 0,
                    };
                    assert_eq!(collapsed_elements(ty, &r), made, "{ty:?} {r:?}");
                }
            }
        }
    }
}

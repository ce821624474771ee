//! [`Known<T>`]: a value that Terraform may leave null or unknown.

use std::fmt;

use crate::value::Refinements;

/// A value that may be null, unknown (with what is known about it), or known: what a
/// struct field is when Terraform may send an unknown there (planned values, the
/// configuration of `PlanResourceChange` and `ValidateResourceConfig`).
///
/// `Option<T>` means null or known: an unknown into an `Option<T>` or a plain `T` is an
/// error that names the path and says to use `Known<T>`. The refinements of an unknown
/// (not null, a string prefix, number and length bounds) survive decoding and encoding.
///
/// Through the bridge (`msgpack::decode_as`, `serde::from_value`, ...) a `Known<T>` is
/// null, an unknown or a `T`. Through any other serde format it reads and writes as an
/// `Option<T>` would (null or the value), and an unknown cannot be written there.
///
/// ```
/// use ctywire::{msgpack, Known, Refinements, Type};
///
/// #[derive(serde::Serialize, serde::Deserialize)]
/// struct Planned {
///     id: Known<String>,
///     name: String,
///     size: Known<u32>,
/// }
///
/// let ty: Type = "object({id=string, name=string, size=number})".parse()?;
/// let planned = Planned {
///     id: Known::Unknown(Refinements::new().not_null()),
///     name: "web".into(),
///     size: Known::Null,
/// };
/// let bytes = msgpack::encode_from(&planned, &ty)?;
/// let back: Planned = msgpack::decode_as(&bytes, &ty)?;
/// assert!(back.id.is_unknown());
/// assert!(back.id.refinements().unwrap().is_not_null());
/// assert_eq!(back.size, Known::Null);
/// assert_eq!(back.size.or_prior(Known::from(8)).unwrap_or(0), 0);
/// # Ok::<(), ctywire::Error>(())
/// ```
///
/// `Known<T>` is `Eq`, `Ord` and `Hash` where `T` is. The order puts null first, then
/// the unknowns, then the known values (as `Option` puts `None` before `Some`): unknowns
/// compare by their refinements (a plain unknown first; otherwise an order that is total
/// but means nothing), known values as `T` compares them.
///
/// ```
/// use ctywire::{Known, Refinements};
///
/// let mut sizes = vec![Known::from(2), Known::unknown(), Known::Null, Known::from(1)];
/// sizes.sort();
/// assert_eq!(sizes, [Known::Null, Known::unknown(), Known::from(1), Known::from(2)]);
/// assert!(Known::<u8>::unknown() < Known::Unknown(Refinements::new().not_null()));
/// ```
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Known<T> {
    /// Null.
    #[default]
    Null,
    /// Unknown, with what is known about it.
    Unknown(Refinements),
    /// Known.
    Known(T),
}

impl<T> Known<T> {
    /// A plain unknown.
    pub fn unknown() -> Known<T> {
        Known::Unknown(Refinements::new())
    }

    /// Whether this is null.
    pub fn is_null(&self) -> bool {
        matches!(self, Known::Null)
    }

    /// Whether this is unknown.
    pub fn is_unknown(&self) -> bool {
        matches!(self, Known::Unknown(_))
    }

    /// Whether this is known (and so not null).
    pub fn is_known(&self) -> bool {
        matches!(self, Known::Known(_))
    }

    /// The known value.
    pub fn as_known(&self) -> Option<&T> {
        match self {
            Known::Known(v) => Some(v),
            _ => None,
        }
    }

    /// The known value, to change it in place.
    pub fn as_known_mut(&mut self) -> Option<&mut T> {
        match self {
            Known::Known(v) => Some(v),
            _ => None,
        }
    }

    /// The known value; `None` for null and unknown.
    pub fn into_known(self) -> Option<T> {
        match self {
            Known::Known(v) => Some(v),
            _ => None,
        }
    }

    /// The refinements of an unknown.
    pub fn refinements(&self) -> Option<&Refinements> {
        match self {
            Known::Unknown(r) => Some(r),
            _ => None,
        }
    }

    /// A `Known` of a reference to the value.
    pub fn as_ref(&self) -> Known<&T> {
        match self {
            Known::Null => Known::Null,
            Known::Unknown(r) => Known::Unknown(r.clone()),
            Known::Known(v) => Known::Known(v),
        }
    }

    /// Applies `f` to a known value; null and unknown (refinements and all) stay.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Known<U> {
        match self {
            Known::Null => Known::Null,
            Known::Unknown(r) => Known::Unknown(r),
            Known::Known(v) => Known::Known(f(v)),
        }
    }

    /// This value, or `prior` where this is unknown and `prior` is known: what a plan
    /// does for a computed attribute whose value does not change once set (Terraform's
    /// "use state for unknown").
    ///
    /// ```
    /// use ctywire::Known;
    /// let planned: Known<String> = Known::unknown();
    /// assert_eq!(planned.or_prior(Known::from("i-1".to_string())), Known::from("i-1".to_string()));
    /// let planned: Known<String> = Known::unknown();
    /// assert!(planned.or_prior(Known::Null).is_unknown());
    /// ```
    pub fn or_prior(self, prior: Known<T>) -> Known<T> {
        match (self, prior) {
            (Known::Unknown(_), prior @ Known::Known(_)) => prior,
            (this, _) => this,
        }
    }

    /// The known value, or `default` for null and unknown.
    pub fn unwrap_or(self, default: T) -> T {
        self.into_known().unwrap_or(default)
    }

    /// The known value, or `f()` for null and unknown.
    pub fn unwrap_or_else(self, f: impl FnOnce() -> T) -> T {
        self.into_known().unwrap_or_else(f)
    }

    /// The known value, or `T::default()` for null and unknown.
    pub fn unwrap_or_default(self) -> T
    where
        T: Default,
    {
        self.into_known().unwrap_or_default()
    }
}

impl<T> From<T> for Known<T> {
    /// A known value.
    fn from(v: T) -> Known<T> {
        Known::Known(v)
    }
}

impl<T> From<Option<T>> for Known<T> {
    /// `None` is null.
    fn from(v: Option<T>) -> Known<T> {
        v.map_or(Known::Null, Known::Known)
    }
}

impl<T: fmt::Debug> fmt::Debug for Known<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Known::Null => f.write_str("Null"),
            Known::Unknown(r) if r.is_empty() => f.write_str("Unknown"),
            Known::Unknown(r) => write!(f, "Unknown({})", r.describe().join(", ")),
            Known::Known(v) => f.debug_tuple("Known").field(v).finish(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};

    fn hash_of<T: Hash>(v: &T) -> u64 {
        let mut h = DefaultHasher::new();
        v.hash(&mut h);
        h.finish()
    }

    fn known() -> impl Strategy<Value = Known<i8>> {
        prop_oneof![
            Just(Known::Null),
            Just(Known::unknown()),
            Just(Known::Unknown(Refinements::new().not_null())),
            Just(Known::Unknown(Refinements::new().with_string_prefix("a"))),
            any::<i8>().prop_map(Known::Known),
        ]
    }

    proptest! {
        #![proptest_config(crate::proptest_config(256))]

        #[test]
        fn order_agrees_with_equality_option_and_hash(a in known(), b in known()) {
            prop_assert_eq!(a.cmp(&b) == std::cmp::Ordering::Equal, a == b);
            if a == b {
                prop_assert_eq!(hash_of(&a), hash_of(&b));
            }
            // Null and known values are ordered as `Option` orders them.
            if !a.is_unknown() && !b.is_unknown() {
                prop_assert_eq!(a.cmp(&b), a.as_known().cmp(&b.as_known()));
            }
            if a.is_null() != b.is_null() {
                prop_assert_eq!(a < b, a.is_null());
            }
            if a.is_known() != b.is_known() {
                prop_assert_eq!(a > b, a.is_known());
            }
        }
    }
}

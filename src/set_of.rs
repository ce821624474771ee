//! [`SetOf<T>`]: a set of Rust values kept as go-cty keeps a set, for the fields of
//! derived structs (and anywhere the serde bridge reads and writes a `set`).

use std::fmt;
use std::marker::PhantomData;

use ::serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use ::serde::ser::{Serialize, Serializer};

use crate::error::Result;
use crate::object::{BlockField, FieldType, Object};
use crate::schema::{AttributeNesting, Block, BlockNesting};
use crate::types::Type;
use crate::value::{set, Value};

/// A set of `T`s with go-cty's order and equality: the elements in the order go-cty
/// iterates the set (and writes it), and no two that cty takes for one element.
///
/// `BTreeSet<T>` and `HashSet<T>` hold a set field too, but by Rust's order and
/// equality: a `BTreeSet` iterates in `T`'s `Ord` order, not the wire's, and merges
/// elements that `T`'s `Ord` calls equal where go-cty keeps both (two rules that differ
/// only by an unknown: `Known<T>`'s unknowns are equal to each other in Rust, never in
/// cty). A `SetOf<T>` keeps what go-cty keeps, in go-cty's order; `==` compares the
/// elements in that order.
///
/// Each element's cty value (through the serde bridge, with `T`'s [`FieldType`])
/// decides its place and whether it equals another, so building a set, inserting and
/// reading one from serde cost a value per element. A set that can't be made (an element
/// that does not fit `T`'s type) is an error. It is a `set(T)` field and, of a derived
/// struct, a SET block or SET nested attribute.
///
/// ```
/// use ctywire::{Known, SetOf};
///
/// let ports = SetOf::new([443u16, 80, 443, 8080])?;
/// assert_eq!(ports.as_slice(), [80, 443, 8080]); // go-cty's order: numbers ascending
///
/// // Unknowns are never equal in cty: both stay, after the known elements.
/// let ids = SetOf::new([Known::unknown(), Known::from("b".to_owned()), Known::unknown()])?;
/// assert_eq!(ids.len(), 3);
/// assert_eq!(ids.as_slice()[0], Known::from("b".to_owned()));
/// # Ok::<(), ctywire::Error>(())
/// ```
///
/// As a SET block of a derived struct (feature `derive`):
///
/// ```
/// # #[cfg(feature = "derive")] {
/// use ctywire::object::Object;
/// use ctywire::schema::BlockNesting;
/// use ctywire::{msgpack, Known, SetOf};
///
/// #[derive(ctywire::Object, serde::Serialize, serde::Deserialize, Debug, PartialEq)]
/// struct Firewall {
///     #[cty(block)]
///     rule: SetOf<Rule>,
/// }
///
/// #[derive(ctywire::Object, serde::Serialize, serde::Deserialize, Debug, PartialEq)]
/// struct Rule {
///     #[cty(required)]
///     port: u16,
///     #[cty(computed)]
///     id: Known<String>,
/// }
///
/// assert_eq!(Firewall::schema_block().block_types["rule"].nesting, BlockNesting::Set);
/// let planned = Firewall {
///     rule: SetOf::new([
///         Rule { port: 22, id: Known::unknown() },
///         Rule { port: 22, id: Known::unknown() },
///     ])?,
/// };
/// assert_eq!(planned.rule.len(), 2); // a BTreeSet would hold one
/// let bytes = msgpack::encode_object(&planned)?;
/// assert_eq!(msgpack::decode_object::<Firewall>(&bytes)?, planned);
/// # }
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SetOf<T> {
    elements: Vec<T>,
}

impl<T> SetOf<T> {
    /// The empty set.
    pub fn empty() -> SetOf<T> {
        SetOf {
            elements: Vec::new(),
        }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.elements.len()
    }

    /// Whether the set has no element.
    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }

    /// The elements, in go-cty's order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.elements.iter()
    }

    /// The elements, in go-cty's order.
    pub fn as_slice(&self) -> &[T] {
        &self.elements
    }

    /// The elements, in go-cty's order.
    pub fn into_vec(self) -> Vec<T> {
        self.elements
    }

    /// A set of `elements` already in go-cty's order, without duplicates (the typed
    /// codec's reader puts them so).
    pub(crate) fn from_canonical(elements: Vec<T>) -> SetOf<T> {
        SetOf { elements }
    }
}

impl<T: Serialize + FieldType> SetOf<T> {
    /// The set of `elements`: put in go-cty's order, and of elements that cty takes for
    /// one, the first kept.
    pub fn new(elements: impl IntoIterator<Item = T>) -> Result<SetOf<T>> {
        let ty = T::cty_type();
        let valued = elements
            .into_iter()
            .map(|e| crate::serde::to_value(&e, &ty).map(|v| (v, e)))
            .collect::<Result<Vec<_>>>()?;
        let elements = set::canonicalize_by(valued, |(v, _)| v)
            .into_iter()
            .map(|(_, e)| e)
            .collect();
        Ok(SetOf { elements })
    }

    /// Adds `element` in its place; `false` (and the set unchanged) when the set already
    /// has it. Computes every element's value: to add many, build the set with
    /// [`SetOf::new`].
    ///
    /// ```
    /// use ctywire::SetOf;
    ///
    /// let mut names = SetOf::new(["b".to_owned()])?;
    /// assert!(names.insert("a".to_owned())?);
    /// assert!(!names.insert("b".to_owned())?);
    /// assert_eq!(names.as_slice(), ["a", "b"]);
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn insert(&mut self, element: T) -> Result<bool> {
        let before = self.elements.len();
        let mut elements = std::mem::take(&mut self.elements);
        elements.push(element);
        match SetOf::new(elements) {
            Ok(set) => {
                *self = set;
                Ok(self.elements.len() > before)
            }
            Err(e) => Err(e),
        }
    }

    /// Whether the set has an element that cty takes for `element` (never, for an
    /// element with an unknown in it).
    pub fn contains(&self, element: &T) -> Result<bool> {
        let ty = T::cty_type();
        let wanted = crate::serde::to_value(element, &ty)?;
        for e in &self.elements {
            if set::same_element(&crate::serde::to_value(e, &ty)?, &wanted) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The cty value of the set, of type `set(T)`.
    pub fn to_value(&self) -> Result<Value> {
        crate::serde::to_value(self, &Type::set(T::cty_type()))
    }
}

impl<T> Default for SetOf<T> {
    fn default() -> SetOf<T> {
        SetOf::empty()
    }
}

impl<T: fmt::Debug> fmt::Debug for SetOf<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(&self.elements).finish()
    }
}

impl<'a, T> IntoIterator for &'a SetOf<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.elements.iter()
    }
}

impl<T> IntoIterator for SetOf<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.elements.into_iter()
    }
}

impl<T: Serialize> Serialize for SetOf<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.collect_seq(&self.elements)
    }
}

/// Reads a sequence and makes it a set ([`SetOf::new`]): in go-cty's order whatever
/// the input's, without duplicates.
impl<'de, T> Deserialize<'de> for SetOf<T>
where
    T: Deserialize<'de> + Serialize + FieldType,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        struct Elements<T>(PhantomData<T>);

        impl<'de, T> Visitor<'de> for Elements<T>
        where
            T: Deserialize<'de> + Serialize + FieldType,
        {
            type Value = SetOf<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a set")
            }

            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<SetOf<T>, A::Error> {
                let mut elements = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                while let Some(e) = seq.next_element()? {
                    elements.push(e);
                }
                SetOf::new(elements).map_err(de::Error::custom)
            }
        }

        deserializer.deserialize_seq(Elements(PhantomData))
    }
}

impl<T: FieldType> FieldType for SetOf<T> {
    fn cty_type() -> Type {
        Type::set(T::cty_type())
    }

    fn check_value(value: &crate::Value, at: &crate::Path, out: &mut Vec<crate::object::Invalid>) {
        crate::object::check_elements(value, at, out, T::check_value);
    }
}

impl<T: Object> BlockField for SetOf<T> {
    const NESTING: BlockNesting = BlockNesting::Set;
    const ATTRIBUTE_NESTING: AttributeNesting = AttributeNesting::Set;
    const HAS_BLOCKS: bool = T::HAS_BLOCKS;

    fn block() -> Block {
        T::schema_block()
    }

    fn plan_modifiers() -> crate::object::PlanModifiers {
        T::plan_modifiers()
    }

    fn validators() -> crate::object::Validators {
        T::validators()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{msgpack, Known, Number};

    /// go-cty's order for each kind of element, with the elements cty takes for one
    /// merged (the first kept), checked against the value codec's sets.
    #[test]
    fn order_and_equality_are_go_cty_s() {
        fn same_as_value_set<T: Serialize + FieldType + fmt::Debug>(elements: Vec<T>) {
            let ty = Type::set(T::cty_type());
            let values: Vec<Value> = elements
                .iter()
                .map(|e| crate::serde::to_value(e, &T::cty_type()).unwrap())
                .collect();
            let want = msgpack::encode(&Value::set(values), &ty).unwrap();
            let set = SetOf::new(elements).unwrap();
            assert_eq!(msgpack::encode_from(&set, &ty).unwrap(), want, "{set:?}");
            assert_eq!(
                set.to_value().unwrap(),
                msgpack::decode(&want, &ty).unwrap()
            );
        }
        same_as_value_set(vec!["b".to_owned(), "a".to_owned(), "b".to_owned()]);
        same_as_value_set(vec![true, false, true]);
        same_as_value_set(vec![
            Number::from(3),
            Number::from_f64(1.5).unwrap(),
            Number::from(3),
        ]);
        same_as_value_set(vec![
            Known::from(2u8),
            Known::unknown(),
            Known::Null,
            Known::unknown(),
            Known::from(1),
        ]);
        same_as_value_set(vec![vec![2u8, 1], vec![1], vec![2, 1]]);
        let set = SetOf::new([
            Known::from(2u8),
            Known::Null,
            Known::unknown(),
            Known::from(1),
        ])
        .unwrap();
        assert_eq!(
            set.as_slice(),
            [
                Known::from(1),
                Known::from(2),
                Known::unknown(),
                Known::Null
            ]
        );
    }

    /// Read from the bridge, a set keeps the decoder's order; read from elsewhere in
    /// another order, it is put in go-cty's; `contains` and `insert` use cty's equality.
    #[test]
    fn reading_inserting_and_looking_up() {
        let ty = Type::set(Type::Number);
        let bytes = msgpack::encode(
            &Value::set([Value::from(10), Value::from(2), Value::unknown()]),
            &ty,
        )
        .unwrap();
        let set: SetOf<Known<i64>> = msgpack::decode_as(&bytes, &ty).unwrap();
        assert_eq!(
            set.as_slice(),
            [Known::from(2), Known::from(10), Known::unknown()]
        );
        let mut set: SetOf<Known<i64>> = crate::serde::from_value(
            &Value::list([Value::from(10), Value::from(2), Value::from(10)]),
            &Type::list(Type::Number),
        )
        .unwrap();
        assert_eq!(set.as_slice(), [Known::from(2), Known::from(10)]);
        assert!(set.contains(&Known::from(10)).unwrap());
        assert!(!set.contains(&Known::unknown()).unwrap());
        assert!(set.insert(Known::unknown()).unwrap());
        assert!(set.insert(Known::unknown()).unwrap());
        assert!(!set.insert(Known::from(2)).unwrap());
        assert_eq!(set.len(), 4);
        assert_eq!(SetOf::<u8>::default(), SetOf::empty());
    }
}

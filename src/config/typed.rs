//! Values with their types, as HCL evaluates them: every value has a concrete type,
//! except a null or unknown whose type is not known yet (`dynamic`).

use crate::types::Type;
use crate::value::conform::settle;
use crate::value::{Refinements, Typed, Value};

/// A value and its type. A value of a concrete type holds no [`Value::Typed`] wrapper
/// at its top; positions of type `dynamic` inside it hold their own concrete type in
/// one, as everywhere in the crate.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Val {
    pub(crate) ty: Type,
    pub(crate) value: Value,
}

impl Val {
    /// `value` of type `ty`; a value wrapped with its concrete type at a `dynamic`
    /// position is unwrapped.
    pub(crate) fn new(ty: Type, value: Value) -> Val {
        match (ty, value) {
            (Type::Dynamic, Value::Typed(typed)) => {
                let Typed { ty, value } = *typed;
                Val::new(ty, value)
            }
            (ty, value) if ty.has_dynamic() && !value.is_null() && !value.is_unknown() => {
                match settle(value.clone(), &ty) {
                    Ok((ty, value)) => Val { ty, value },
                    Err(_) => Val { ty, value },
                }
            }
            (ty, value) => Val { ty, value },
        }
    }

    /// A known value.
    pub(crate) fn known(ty: Type, value: Value) -> Val {
        Val::new(ty, value)
    }

    /// A null of type `ty`.
    pub(crate) fn null(ty: Type) -> Val {
        Val {
            ty,
            value: Value::Null,
        }
    }

    /// A plain unknown of type `ty`.
    pub(crate) fn unknown(ty: Type) -> Val {
        Val {
            ty,
            value: Value::unknown(),
        }
    }

    /// An unknown of type `ty` with refinements.
    pub(crate) fn unknown_refined(ty: Type, refinements: Refinements) -> Val {
        let value = Value::refined_unknown(&ty, refinements);
        Val { ty, value }
    }

    /// A string.
    pub(crate) fn string(s: &str) -> Val {
        Val::known(Type::String, Value::string(s))
    }

    /// A tuple of `elements`.
    pub(crate) fn tuple(elements: Vec<Val>) -> Val {
        let ty = Type::tuple(elements.iter().map(|e| e.ty.clone()));
        let value = Value::tuple(elements.into_iter().map(Val::into_slot_value));
        Val { ty, value }
    }

    /// An object of `attributes` (names unique).
    pub(crate) fn object(attributes: Vec<(String, Val)>) -> Val {
        let ty = Type::object(attributes.iter().map(|(n, v)| (n.as_str(), v.ty.clone())));
        let value = Value::object(
            attributes
                .into_iter()
                .map(|(n, v)| (n, v.into_slot_value())),
        );
        Val { ty, value }
    }

    /// The value as it sits at a position of its own type inside a tuple or object.
    fn into_slot_value(self) -> Value {
        self.value
    }

    /// The value for a position of type `to`; see [`convert`].
    pub(crate) fn convert(&self, to: &Type) -> Result<Value, String> {
        convert(self, to)
    }
}

/// `value` converted to type `to` by cty's conversion rules ([`crate::convert`]).
pub(crate) fn convert(value: &Val, to: &Type) -> Result<Value, String> {
    crate::convert::convert(&value.value, &value.ty, to).map_err(|e| e.to_string())
}

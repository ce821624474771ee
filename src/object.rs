//! Rust types that declare a cty object: [`Object`] (what `#[derive(ctywire::Object)]`
//! implements, feature `derive`) and the traits that give a field its cty type
//! ([`FieldType`]) or its nested block ([`BlockField`]).
//!
//! A derived struct's type is its schema block's implied type (so a LIST block holding
//! `dynamic` is `dynamic`, as Terraform sends it). The derive also implements
//! [`MsgpackField`], the typed MessagePack codec:
//! [`msgpack::decode_object`](crate::msgpack::decode_object) and
//! [`msgpack::encode_object`](crate::msgpack::encode_object) read and write the struct
//! straight from and to bytes, exactly as the `Value` codec reads and writes its type;
//! and [`JsonField`], the typed JSON codec:
//! [`json::decode_object`](crate::json::decode_object) and
//! [`json::encode_object`](crate::json::encode_object) do the same with JSON text.
//! [`from_value`] and [`to_value`] convert between the struct and a [`Value`] of its type
//! with the MessagePack codec.

mod codec;
mod declare;
mod json_codec;
mod paths;

pub use declare::{
    check_attribute, check_elements, check_integer, BoolLiteral, CustomCheck, Invalid,
    NumberLiteral, Rule, StringLiteral, TakesLiteral, Validator, Validators,
};
pub use paths::{
    Addressable, Elements, ExpressionStep, Leaf, ListPath, MapPath, PathBuilder, PathExpression,
    SetPath,
};

pub use json_codec::{
    attribute_left_out, decode_json_via, encode_json_via, json_keys, JsonField, JsonReader,
};

pub use codec::{
    cmp_set_hash_via, concrete_type_via, decode_via, encode_via, in_attribute, missing_attribute,
    set_hash_string_via, wire_type_of, write_object_header, HashScratch, MsgpackField,
    MsgpackReader, Presence,
};

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use crate::error::Result;
use crate::path::Path;
use crate::schema::{AttributeNesting, Block, BlockNesting};
use crate::types::Type;
use crate::value::{Number, Refinements, Value};
use crate::Known;

/// A [`Value`] of `T`'s cty type as a `T` (a derived struct, or any field type of one),
/// read by the typed codec: what [`msgpack::decode_object`](crate::msgpack::decode_object)
/// gives for the value's MessagePack. For values that come as [`Value`]s: a stored state
/// read from JSON or a flatmap, a value a plan helper made.
///
/// ```
/// # #[cfg(feature = "derive")] {
/// use ctywire::{object, Known, Value};
///
/// #[derive(ctywire::Object, Debug, PartialEq)]
/// struct Disk {
///     #[cty(required)]
///     size: u32,
///     #[cty(computed)]
///     id: Known<String>,
/// }
///
/// let value = Value::object([("id", Value::unknown()), ("size", Value::from(10))]);
/// let disk: Disk = object::from_value(&value)?;
/// assert_eq!(disk, Disk { size: 10, id: Known::unknown() });
/// assert_eq!(object::to_value(&disk)?, value);
///
/// // A value that does not fit is an error at its path.
/// let big = Value::object([("id", Value::Null), ("size", Value::from(1_i64 << 40))]);
/// assert_eq!(object::from_value::<Disk>(&big).unwrap_err().path().to_string(), ".size");
/// # }
/// # Ok::<(), ctywire::Error>(())
/// ```
///
/// # Errors
///
/// When the value is not of `T`'s type, or does not fit `T` (a number out of an
/// integer's range, a null or unknown where `T` has no place for one).
pub fn from_value<T: MsgpackField>(value: &Value) -> Result<T> {
    crate::msgpack::decode_object(&crate::msgpack::encode(value, &T::cty_type())?)
}

/// A `T` (a derived struct, or any field type of one) as a [`Value`] of its cty type,
/// written by the typed codec: what [`msgpack::decode`](crate::msgpack::decode) gives for
/// [`msgpack::encode_object`](crate::msgpack::encode_object)'s bytes. For the code that
/// works on [`Value`]s: the plan helpers of [`Block`], Terraform's checks. See
/// [`from_value`] for an example.
///
/// # Errors
///
/// When the typed codec cannot write the value (a `dynamic` field whose value is not of
/// one type, elements of a collection of `dynamic` of different types).
pub fn to_value<T: MsgpackField>(value: &T) -> Result<Value> {
    crate::msgpack::decode(&crate::msgpack::encode_object(value)?, &T::cty_type())
}

/// A Rust type that declares a cty object and the schema block it is the value of:
/// what `#[derive(ctywire::Object)]` implements.
///
/// ```
/// # #[cfg(feature = "derive")] {
/// use ctywire::object::Object;
/// use ctywire::Type;
///
/// /// A disk.
/// #[derive(ctywire::Object)]
/// struct Disk {
///     /// Its size in GB.
///     #[cty(required)]
///     size: u32,
///     #[cty(optional, computed)]
///     kind: Option<String>,
/// }
///
/// assert_eq!(Disk::cty_type(), Type::object([("kind", Type::String), ("size", Type::Number)]));
/// let block = Disk::schema_block();
/// assert_eq!(block.description, "A disk.");
/// assert_eq!(block.attributes["size"].description, "Its size in GB.");
/// assert!(block.attributes["kind"].optional && block.attributes["kind"].computed);
/// # }
/// ```
pub trait Object {
    /// The object type of the values: the schema block's implied type.
    fn cty_type() -> Type {
        Self::schema_block().implied_type()
    }

    /// The schema block the values belong to.
    fn schema_block() -> Block;

    /// Whether the block has nested block types (a protocol-6 nested attribute cannot
    /// hold them; the derive refuses such a field when it builds).
    const HAS_BLOCKS: bool = false;

    /// The planning the struct declares for its attributes and blocks, and those of its
    /// nested blocks and nested attributes (`#[cty(requires_replace)]`,
    /// `#[cty(use_state_for_unknown)]`). None by default.
    fn plan_modifiers() -> PlanModifiers {
        PlanModifiers::default()
    }

    /// The validation the struct declares for its attributes, and that of its nested
    /// blocks and nested attributes (`#[cty(length(..))]`, `#[cty(conflicts_with(..))]`,
    /// ...). None by default.
    fn validators() -> Validators {
        Validators::default()
    }
}

/// A function that decides whether the change of an attribute from its prior value
/// (first) to its planned value (second) forces a replacement
/// (`#[cty(requires_replace_if = function)]`); an unknown planned value is a change
/// without asking.
pub type ReplaceIf = fn(&Value, &Value) -> bool;

/// What a derived struct declares about planning its attributes: which force a
/// replacement when they change, and which keep their prior value where the plan would
/// leave them unknown. Each attribute is named by the names from the struct's block to
/// it, through nested blocks and nested attributes (`["disk", "size"]` is `size` in
/// every `disk` block), so a declaration follows the field it is written on.
///
/// ```
/// # #[cfg(feature = "derive")] {
/// use ctywire::object::Object;
///
/// #[derive(ctywire::Object)]
/// struct Server {
///     #[cty(required, requires_replace)]
///     name: String,
///     #[cty(computed, use_state_for_unknown)]
///     id: ctywire::Known<String>,
///     #[cty(block)]
///     disk: Vec<Disk>,
/// }
///
/// #[derive(ctywire::Object)]
/// struct Disk {
///     #[cty(required, requires_replace)]
///     size: u32,
/// }
///
/// let m = Server::plan_modifiers();
/// assert_eq!(m.requires_replace, [vec!["name".to_string()], vec!["disk".into(), "size".into()]]);
/// assert_eq!(m.use_state_for_unknown, [vec!["id".to_string()]]);
/// # }
/// ```
#[derive(Clone, Debug, Default)]
pub struct PlanModifiers {
    /// The attributes and blocks whose change forces the resource's replacement.
    pub requires_replace: Vec<Vec<String>>,
    /// The attributes whose change forces the resource's replacement when the function
    /// says so (`#[cty(requires_replace_if = function)]`).
    pub requires_replace_if: Vec<(Vec<String>, ReplaceIf)>,
    /// The computed attributes that keep their prior value where the plan leaves them
    /// unknown (and the configuration does not make them unknown).
    pub use_state_for_unknown: Vec<Vec<String>>,
    /// The optional and computed attributes planned with a value where the
    /// configuration leaves them null (`#[cty(default = ...)]`).
    pub defaults: Vec<(Vec<String>, Value)>,
    /// What is known of a computed attribute's value before it is known
    /// (`#[cty(prefix = "srv-")]`, `#[cty(not_null)]`), written into its planned unknown.
    pub refinements: Vec<(Vec<String>, Refinements)>,
}

impl PlanModifiers {
    /// Whether nothing is declared.
    pub fn is_empty(&self) -> bool {
        self.requires_replace.is_empty()
            && self.requires_replace_if.is_empty()
            && self.use_state_for_unknown.is_empty()
            && self.defaults.is_empty()
            && self.refinements.is_empty()
    }

    /// Adds `inner`'s declarations, which are those of the nested block or nested
    /// attribute `name`.
    pub fn extend_under(&mut self, name: &str, inner: PlanModifiers) {
        let under = |names: Vec<String>| {
            let mut out = Vec::with_capacity(names.len() + 1);
            out.push(name.to_owned());
            out.extend(names);
            out
        };
        self.requires_replace
            .extend(inner.requires_replace.into_iter().map(under));
        self.use_state_for_unknown
            .extend(inner.use_state_for_unknown.into_iter().map(under));
        self.requires_replace_if.extend(
            inner
                .requires_replace_if
                .into_iter()
                .map(|(names, f)| (under(names), f)),
        );
        self.defaults.extend(
            inner
                .defaults
                .into_iter()
                .map(|(names, v)| (under(names), v)),
        );
        self.refinements.extend(
            inner
                .refinements
                .into_iter()
                .map(|(names, r)| (under(names), r)),
        );
    }
}

/// A Rust type with a cty type: what a field of a derived [`Object`] may be.
///
/// `String` is `string`; `bool` is `bool`; the integers, `f32`, `f64` and [`Number`] are
/// `number`; [`Value`] is `dynamic`; `Vec<T>` is a list, `BTreeSet<T>`, `HashSet<T>` and
/// [`SetOf<T>`](crate::SetOf) (go-cty's order and equality) a set, `BTreeMap<String, T>` and `HashMap<String, T>` a map of `T`'s type; `Option<T>`,
/// [`Known<T>`] and `Box<T>` are `T`'s type (null, and unknown, are values of every type);
/// a derived struct is its object type.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no cty type",
    label = "not a type ctywire can map to a cty type",
    note = "field types: String, bool, integers, f32, f64, Number, Value, Vec, BTreeSet, HashSet, SetOf, BTreeMap<String, _>, HashMap<String, _>, Option, Known, Box, or a #[derive(ctywire::Object)] struct"
)]
pub trait FieldType {
    /// The cty type of the values.
    fn cty_type() -> Type;

    /// Adds to `out` what this Rust type cannot hold in the known parts of `value` (a
    /// value of [`cty_type`](FieldType::cty_type) at `at`): a fraction or an
    /// out-of-range number for an integer, through collections, `Option`, `Known` and
    /// the fields of a derived struct. Null and unknown values pass: a configuration
    /// is checked before it is wholly known.
    fn check_value(value: &Value, at: &Path, out: &mut Vec<Invalid>) {
        let _ = (value, at, out);
    }
}

/// A field type that can hold a nested block (or a protocol-6 nested attribute): a
/// derived struct (a GROUP block, a SINGLE nested attribute), `Option` of one (SINGLE),
/// `Vec` of one (LIST), `BTreeSet` or `HashSet` of one (SET), `BTreeMap<String, _>` or
/// `HashMap<String, _>` of one (MAP); and `Option`, [`Known`] or `Box` of a collection
/// of them (the collection's nesting, which may then be null, or unknown), as an
/// optional or computed nested attribute is.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot hold a nested block",
    label = "not a block type",
    note = "a block field is a #[derive(ctywire::Object)] struct, or an Option, Vec, BTreeSet, HashSet, SetOf, BTreeMap<String, _> or HashMap<String, _> of one, or an Option or Known of such a collection (a nested attribute that may be null or unknown)"
)]
pub trait BlockField {
    /// The nesting of a block field of this type, when the field does not say.
    const NESTING: BlockNesting;
    /// The nesting of a nested attribute of this type, when the field does not say.
    const ATTRIBUTE_NESTING: AttributeNesting;
    /// Whether the element block has nested block types.
    const HAS_BLOCKS: bool;
    /// The block of each element.
    fn block() -> Block;

    /// The planning the element block declares ([`Object::plan_modifiers`]).
    fn plan_modifiers() -> PlanModifiers {
        PlanModifiers::default()
    }

    /// The validation the element block declares ([`Object::validators`]).
    fn validators() -> Validators {
        Validators::default()
    }
}

macro_rules! field_types {
    ($ty:expr => $($t:ty),*) => {$(
        impl FieldType for $t {
            fn cty_type() -> Type {
                $ty
            }
        }
    )*};
}

field_types!(Type::String => String, Box<str>);
field_types!(Type::Bool => bool);
field_types!(Type::Number => f32, f64, Number);
field_types!(Type::Dynamic => Value);

macro_rules! integer_field_types {
    ($($t:ty),*) => {$(
        impl FieldType for $t {
            fn cty_type() -> Type {
                Type::Number
            }

            fn check_value(value: &Value, at: &Path, out: &mut Vec<Invalid>) {
                check_integer(
                    value,
                    at,
                    out,
                    stringify!($t),
                    &<$t>::MIN.to_string(),
                    &<$t>::MAX.to_string(),
                );
            }
        }
    )*};
}

integer_field_types!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

impl<T: FieldType> FieldType for Vec<T> {
    fn cty_type() -> Type {
        Type::list(T::cty_type())
    }

    fn check_value(value: &Value, at: &Path, out: &mut Vec<Invalid>) {
        check_elements(value, at, out, T::check_value);
    }
}

impl<T: FieldType> FieldType for BTreeSet<T> {
    fn cty_type() -> Type {
        Type::set(T::cty_type())
    }

    fn check_value(value: &Value, at: &Path, out: &mut Vec<Invalid>) {
        check_elements(value, at, out, T::check_value);
    }
}

impl<T: FieldType, S> FieldType for HashSet<T, S> {
    fn cty_type() -> Type {
        Type::set(T::cty_type())
    }

    fn check_value(value: &Value, at: &Path, out: &mut Vec<Invalid>) {
        check_elements(value, at, out, T::check_value);
    }
}

impl<T: FieldType> FieldType for BTreeMap<String, T> {
    fn cty_type() -> Type {
        Type::map(T::cty_type())
    }

    fn check_value(value: &Value, at: &Path, out: &mut Vec<Invalid>) {
        check_elements(value, at, out, T::check_value);
    }
}

impl<T: FieldType, S> FieldType for HashMap<String, T, S> {
    fn cty_type() -> Type {
        Type::map(T::cty_type())
    }

    fn check_value(value: &Value, at: &Path, out: &mut Vec<Invalid>) {
        check_elements(value, at, out, T::check_value);
    }
}

impl<T: FieldType> FieldType for Option<T> {
    fn cty_type() -> Type {
        T::cty_type()
    }

    fn check_value(value: &Value, at: &Path, out: &mut Vec<Invalid>) {
        T::check_value(value, at, out);
    }
}

impl<T: FieldType> FieldType for Known<T> {
    fn cty_type() -> Type {
        T::cty_type()
    }

    fn check_value(value: &Value, at: &Path, out: &mut Vec<Invalid>) {
        T::check_value(value, at, out);
    }
}

impl<T: FieldType + ?Sized> FieldType for Box<T> {
    fn cty_type() -> Type {
        T::cty_type()
    }

    fn check_value(value: &Value, at: &Path, out: &mut Vec<Invalid>) {
        T::check_value(value, at, out);
    }
}

macro_rules! block_fields {
    ($($t:ty => $nesting:ident, $attribute:ident;)*) => {$(
        impl<T: Object> BlockField for $t {
            const NESTING: BlockNesting = BlockNesting::$nesting;
            const ATTRIBUTE_NESTING: AttributeNesting = AttributeNesting::$attribute;
            const HAS_BLOCKS: bool = T::HAS_BLOCKS;
            fn block() -> Block {
                T::schema_block()
            }
            fn plan_modifiers() -> PlanModifiers {
                T::plan_modifiers()
            }
            fn validators() -> Validators {
                T::validators()
            }
        }
    )*};
}

/// The nesting of a block that may be null (in an `Option` or [`Known`]): a struct's
/// is SINGLE, a collection's its own.
const fn nullable(nesting: BlockNesting) -> BlockNesting {
    match nesting {
        BlockNesting::Group => BlockNesting::Single,
        n => n,
    }
}

macro_rules! nullable_block_fields {
    ($($t:ty),*) => {$(
        impl<T: BlockField> BlockField for $t {
            const NESTING: BlockNesting = nullable(T::NESTING);
            const ATTRIBUTE_NESTING: AttributeNesting = T::ATTRIBUTE_NESTING;
            const HAS_BLOCKS: bool = T::HAS_BLOCKS;
            fn block() -> Block {
                T::block()
            }
            fn plan_modifiers() -> PlanModifiers {
                T::plan_modifiers()
            }
            fn validators() -> Validators {
                T::validators()
            }
        }
    )*};
}

nullable_block_fields!(Option<T>, Known<T>);

impl<T: BlockField> BlockField for Box<T> {
    const NESTING: BlockNesting = T::NESTING;
    const ATTRIBUTE_NESTING: AttributeNesting = T::ATTRIBUTE_NESTING;
    const HAS_BLOCKS: bool = T::HAS_BLOCKS;
    fn block() -> Block {
        T::block()
    }
    fn plan_modifiers() -> PlanModifiers {
        T::plan_modifiers()
    }
    fn validators() -> Validators {
        T::validators()
    }
}

block_fields! {
    Vec<T> => List, List;
    BTreeSet<T> => Set, Set;
    HashSet<T> => Set, Set;
    BTreeMap<String, T> => Map, Map;
    HashMap<String, T> => Map, Map;
}

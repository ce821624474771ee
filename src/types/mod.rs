//! Types: the cty type system as the plugin protocol uses it.
//!
//! A [`Type`] is one of the primitive types (`bool`, `number`, `string`), a collection
//! (`list`, `set`, `map`), a structural type (`object`, `tuple`) or the dynamic
//! pseudo-type. Types print and parse as go-cty's type JSON ([`Type::to_json`],
//! [`Type::from_json`]) and as Terraform type expressions ([`Type::to_expr`],
//! [`Type::parse_expr`]).

use std::fmt;
use std::sync::{Arc, OnceLock};

/// A cty type.
///
/// Cloning is cheap: object types are reference-counted, and collection element types are
/// small boxes.
///
/// ```
/// use ctywire::Type;
///
/// let ty = Type::list(Type::object([("name", Type::String), ("size", Type::Number)]));
/// assert_eq!(ty.to_json(), r#"["list",["object",{"name":"string","size":"number"}]]"#);
/// assert_eq!(ty.to_expr(), "list(object({name=string,size=number}))");
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Type {
    /// `bool`
    Bool,
    /// `number`: arbitrary precision, see [`Number`](crate::Number).
    Number,
    /// `string`: Unicode text, always NFC.
    String,
    /// The dynamic pseudo-type (`dynamic` in type JSON, `any` in type expressions): a
    /// placeholder whose values carry their own concrete type on the wire.
    Dynamic,
    /// `list(T)`
    List(Box<Type>),
    /// `set(T)`
    Set(Box<Type>),
    /// `map(T)`
    Map(Box<Type>),
    /// `object({...})`, with attributes in bytewise name order.
    Object(Arc<ObjectType>),
    /// `tuple([...])`
    Tuple(TupleType),
}

/// The element types of a tuple type. Dereferences to `[Type]`.
///
/// Cloning is cheap (the list is reference-counted), and whether some element type holds
/// `dynamic` is worked out once, when the tuple type is built, so that
/// [`Type::has_dynamic`] never walks a long tuple.
///
/// ```
/// use ctywire::Type;
///
/// let Type::Tuple(elements) = Type::tuple([Type::String, Type::Number]) else { unreachable!() };
/// assert_eq!(elements.len(), 2);
/// assert_eq!(elements[1], Type::Number);
/// ```
#[derive(Clone)]
pub struct TupleType {
    elements: Arc<[Type]>,
    /// Whether some element type holds `dynamic`: a function of `elements`.
    has_dynamic: bool,
}

impl TupleType {
    /// The element types, in order.
    pub fn as_slice(&self) -> &[Type] {
        &self.elements
    }
}

impl FromIterator<Type> for TupleType {
    fn from_iter<I: IntoIterator<Item = Type>>(elements: I) -> Self {
        let elements: Arc<[Type]> = elements.into_iter().collect();
        let has_dynamic = elements.iter().any(Type::has_dynamic);
        TupleType {
            elements,
            has_dynamic,
        }
    }
}

impl std::ops::Deref for TupleType {
    type Target = [Type];

    fn deref(&self) -> &[Type] {
        &self.elements
    }
}

impl PartialEq for TupleType {
    /// Equal when the element types are; one shared list compares by pointer.
    fn eq(&self, other: &TupleType) -> bool {
        Arc::ptr_eq(&self.elements, &other.elements) || self.elements == other.elements
    }
}

impl Eq for TupleType {}

impl fmt::Debug for TupleType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.elements.iter()).finish()
    }
}

impl std::hash::Hash for TupleType {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.elements.hash(state);
    }
}

/// The attributes of an object type: names in bytewise order, each with its type and
/// whether it is optional.
///
/// The attribute names are kept as one shared list ([`AttributeNames`]) so that every
/// object value decoded with this type can point at them instead of holding its own
/// copies.
///
/// ```
/// use ctywire::Type;
///
/// let ty: Type = "object({name=string, tags=optional(map(string))})".parse()?;
/// let object = ty.as_object().unwrap();
/// assert_eq!(object.attribute("tags"), Some(&Type::map(Type::String)));
/// assert!(object.is_optional("tags") && !object.is_optional("name"));
/// let listed: Vec<String> = object.iter().map(|(name, ty, optional)| format!("{name}: {ty}{}", if optional { "?" } else { "" })).collect();
/// assert_eq!(listed, ["name: string", "tags: map(string)?"]);
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone)]
pub struct ObjectType {
    names: AttributeNames,
    types: Box<[Type]>,
    optional: Box<[bool]>,
    /// Whether some attribute type holds `dynamic` (a function of `types`, kept so that
    /// [`Type::has_dynamic`] does not walk the attributes).
    has_dynamic: bool,
    /// The names as the MessagePack encoder writes them, made on first use.
    msgpack_names: OnceLock<EncodedNames>,
    /// The names as the JSON encoder writes them (`"a":`, then `,"b":`), made on
    /// first use.
    json_names: OnceLock<EncodedNames>,
}

impl PartialEq for ObjectType {
    fn eq(&self, other: &ObjectType) -> bool {
        self.names == other.names && self.types == other.types && self.optional == other.optional
    }
}

impl Eq for ObjectType {}

impl std::hash::Hash for ObjectType {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.names.hash(state);
        self.types.hash(state);
        self.optional.hash(state);
    }
}

/// A shared, sorted list of attribute names, used by object types and object values.
///
/// Names are NFC-normalized and sorted bytewise (Go's string order), which is the order
/// in which both encoders write attributes. A thin pointer (8 bytes), so that an object
/// value's box is 24 bytes.
///
/// ```
/// use ctywire::{Type, Value};
///
/// let ty = Type::object([("b", Type::String), ("a", Type::String)]);
/// let names = ty.as_object().unwrap().names();
/// assert_eq!(names.iter().collect::<Vec<_>>(), ["a", "b"]);
/// assert_eq!(names.index_of("b"), Some(1));
/// // A value built by hand shares an equal list built recently on the same thread.
/// let value = Value::object([("a", Value::Null), ("b", Value::Null)]);
/// assert_eq!(value.as_object().unwrap().names(), names);
/// ```
#[derive(Clone, Default)]
pub struct AttributeNames(Arc<Box<[Box<str>]>>);

/// How many recently built name lists [`AttributeNames::from_sorted`] remembers per
/// thread.
const RECENT_NAME_LISTS: usize = 16;

/// The name lists built most recently on one thread, replaced round-robin.
#[derive(Default)]
struct RecentNames {
    lists: Vec<AttributeNames>,
    next: usize,
}

thread_local! {
    static RECENT_NAMES: std::cell::RefCell<RecentNames> = std::cell::RefCell::default();
}

impl PartialEq for AttributeNames {
    /// Equal when the lists hold the same names. Lists shared by one object type (as
    /// every decoded object's are) compare by pointer, without reading a name.
    #[inline]
    fn eq(&self, other: &AttributeNames) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }
}

impl Eq for AttributeNames {}

impl std::hash::Hash for AttributeNames {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl AttributeNames {
    /// Builds a name list from names that are already NFC, sorted and free of duplicates.
    ///
    /// When an object type or object value with the same names was built recently on
    /// this thread, its list is shared instead: values built by hand then share their
    /// names with each other and with their type, which saves memory and lets the
    /// encoders match a value's names to its type's by pointer.
    pub(crate) fn from_sorted(names: Vec<Box<str>>) -> Self {
        debug_assert!(names.windows(2).all(|w| w[0] < w[1]));
        RECENT_NAMES.with(|recent| {
            let mut recent = recent.borrow_mut();
            if let Some(hit) = recent.lists.iter().find(|l| **l.0 == *names) {
                return hit.clone();
            }
            let list = AttributeNames(Arc::new(names.into()));
            if recent.lists.len() < RECENT_NAME_LISTS {
                recent.lists.push(list.clone());
            } else {
                let i = recent.next;
                recent.lists[i] = list.clone();
                recent.next = (i + 1) % RECENT_NAME_LISTS;
            }
            list
        })
    }

    /// The names, in order.
    pub fn as_slice(&self) -> &[Box<str>] {
        &self.0
    }

    /// The number of names.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The position of `name`, if present.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.0.binary_search_by(|n| n.as_ref().cmp(name)).ok()
    }

    /// Iterates over the names in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + Clone + '_ {
        self.0.iter().map(|n| n.as_ref())
    }
}

impl fmt::Debug for AttributeNames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl ObjectType {
    /// Builds an object type from `(name, type, optional)` triples.
    ///
    /// Names are NFC-normalized and sorted bytewise; if a name repeats, the last one wins
    /// (as when go-cty reads type JSON).
    pub fn new<N: AsRef<str>>(attributes: impl IntoIterator<Item = (N, Type, bool)>) -> Self {
        let mut attrs: Vec<(Box<str>, Type, bool)> = attributes
            .into_iter()
            .map(|(n, t, o)| (crate::text::nfc(n.as_ref()).into(), t, o))
            .collect();
        // Stable sort, then keep the last of each run of equal names.
        attrs.sort_by(|a, b| a.0.cmp(&b.0));
        let mut deduped: Vec<(Box<str>, Type, bool)> = Vec::with_capacity(attrs.len());
        for attr in attrs {
            match deduped.last_mut() {
                Some(last) if last.0 == attr.0 => *last = attr,
                _ => deduped.push(attr),
            }
        }
        let mut names = Vec::with_capacity(deduped.len());
        let mut types = Vec::with_capacity(deduped.len());
        let mut optional = Vec::with_capacity(deduped.len());
        for (n, t, o) in deduped {
            names.push(n);
            types.push(t);
            optional.push(o);
        }
        let has_dynamic = types.iter().any(Type::has_dynamic);
        ObjectType {
            has_dynamic,
            msgpack_names: OnceLock::new(),
            json_names: OnceLock::new(),
            names: AttributeNames::from_sorted(names),
            types: types.into(),
            optional: optional.into(),
        }
    }

    /// This type's names (shared, not copied) with other attribute types, none optional:
    /// a concrete type of a value of this type.
    pub(crate) fn with_types(&self, types: Box<[Type]>) -> ObjectType {
        debug_assert_eq!(types.len(), self.len());
        ObjectType {
            has_dynamic: types.iter().any(Type::has_dynamic),
            msgpack_names: OnceLock::new(),
            json_names: OnceLock::new(),
            names: self.names.clone(),
            optional: vec![false; types.len()].into(),
            types,
        }
    }

    /// The attribute names, in bytewise order.
    pub fn names(&self) -> &AttributeNames {
        &self.names
    }

    /// The attribute types, in the order of [`names`](Self::names).
    pub fn types(&self) -> &[Type] {
        &self.types
    }

    /// The number of attributes.
    pub fn len(&self) -> usize {
        self.types.len()
    }

    /// Whether the object type has no attributes.
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    /// The type of attribute `name`, if declared.
    pub fn attribute(&self, name: &str) -> Option<&Type> {
        self.names.index_of(name).map(|i| &self.types[i])
    }

    /// Whether attribute `name` is declared optional.
    pub fn is_optional(&self, name: &str) -> bool {
        self.names.index_of(name).is_some_and(|i| self.optional[i])
    }

    /// Iterates over `(name, type, optional)` in bytewise name order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &Type, bool)> + Clone + '_ {
        self.names
            .iter()
            .zip(self.types.iter())
            .zip(self.optional.iter())
            .map(|((n, t), o)| (n, t, *o))
    }

    /// Each attribute name as the MessagePack encoder writes it (header and bytes),
    /// encoded once per type.
    pub(crate) fn msgpack_names(&self, encode: impl Fn(&str, &mut Vec<u8>)) -> &EncodedNames {
        self.msgpack_names.get_or_init(|| {
            EncodedNames::new(self.names.iter().map(|name| {
                let mut out = Vec::new();
                encode(name, &mut out);
                out
            }))
        })
    }

    /// Each attribute name as the JSON encoder writes it before the value (`"a":`, and
    /// `,"b":` for every later one), encoded once per type.
    pub(crate) fn json_names(&self) -> &EncodedNames {
        self.json_names.get_or_init(|| {
            EncodedNames::new(self.names.iter().enumerate().map(|(i, name)| {
                let mut out = Vec::new();
                if i > 0 {
                    out.push(b',');
                }
                crate::token::json_write::write_string(&mut out, name);
                out.push(b':');
                out
            }))
        })
    }

    /// Whether any attribute is optional.
    pub fn has_optional(&self) -> bool {
        self.optional.iter().any(|o| *o)
    }
}

impl fmt::Debug for ObjectType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut m = f.debug_map();
        for (n, t, o) in self.iter() {
            if o {
                m.entry(&n, &format_args!("optional({t:?})"));
            } else {
                m.entry(&n, t);
            }
        }
        m.finish()
    }
}

impl Type {
    /// `list(element)`
    pub fn list(element: Type) -> Type {
        Type::List(Box::new(element))
    }

    /// `set(element)`
    pub fn set(element: Type) -> Type {
        Type::Set(Box::new(element))
    }

    /// `map(element)`
    pub fn map(element: Type) -> Type {
        Type::Map(Box::new(element))
    }

    /// `tuple([elements...])`
    pub fn tuple(elements: impl IntoIterator<Item = Type>) -> Type {
        Type::Tuple(elements.into_iter().collect())
    }

    /// `object({...})` with no optional attributes.
    pub fn object<N: AsRef<str>>(attributes: impl IntoIterator<Item = (N, Type)>) -> Type {
        Type::Object(Arc::new(ObjectType::new(
            attributes.into_iter().map(|(n, t)| (n, t, false)),
        )))
    }

    /// `object({...})` where the attributes named in `optional` are optional.
    ///
    /// ```
    /// use ctywire::Type;
    /// let ty = Type::object_with_optional([("a", Type::String), ("b", Type::Number)], ["b"]);
    /// assert_eq!(ty.to_expr(), "object({a=string,b=optional(number)})");
    /// ```
    pub fn object_with_optional<N: AsRef<str>, O: AsRef<str>>(
        attributes: impl IntoIterator<Item = (N, Type)>,
        optional: impl IntoIterator<Item = O>,
    ) -> Type {
        let optional: Vec<String> = optional
            .into_iter()
            .map(|o| crate::text::nfc(o.as_ref()).into_owned())
            .collect();
        Type::Object(Arc::new(ObjectType::new(attributes.into_iter().map(
            |(n, t)| {
                let is_opt = optional.iter().any(|o| *o == crate::text::nfc(n.as_ref()));
                (n, t, is_opt)
            },
        ))))
    }

    /// The empty object type, `object({})`.
    pub fn empty_object() -> Type {
        Type::object(std::iter::empty::<(&str, Type)>())
    }

    /// The empty tuple type, `tuple([])`.
    pub fn empty_tuple() -> Type {
        Type::tuple([])
    }

    /// Whether this is `bool`, `number` or `string`.
    pub fn is_primitive(&self) -> bool {
        matches!(self, Type::Bool | Type::Number | Type::String)
    }

    /// Whether this is a list, set or map type.
    pub fn is_collection(&self) -> bool {
        matches!(self, Type::List(_) | Type::Set(_) | Type::Map(_))
    }

    /// The element type of a list, set or map type.
    pub fn element_type(&self) -> Option<&Type> {
        match self {
            Type::List(e) | Type::Set(e) | Type::Map(e) => Some(e),
            _ => None,
        }
    }

    /// The object type's attributes, for an object type.
    pub fn as_object(&self) -> Option<&ObjectType> {
        match self {
            Type::Object(o) => Some(o),
            _ => None,
        }
    }

    /// Whether `dynamic` appears anywhere in this type.
    #[inline]
    pub fn has_dynamic(&self) -> bool {
        match self {
            Type::Dynamic => true,
            Type::Bool | Type::Number | Type::String => false,
            Type::List(e) | Type::Set(e) | Type::Map(e) => e.has_dynamic(),
            Type::Object(o) => o.has_dynamic,
            Type::Tuple(es) => es.has_dynamic,
        }
    }

    /// This type with every optional-attribute marker removed, at every depth.
    ///
    /// Wire types never carry optional markers: Terraform strips them before it encodes.
    pub fn without_optional_attributes(&self) -> Type {
        match self {
            Type::Bool | Type::Number | Type::String | Type::Dynamic => self.clone(),
            Type::List(e) => Type::list(e.without_optional_attributes()),
            Type::Set(e) => Type::set(e.without_optional_attributes()),
            Type::Map(e) => Type::map(e.without_optional_attributes()),
            Type::Tuple(es) => Type::tuple(es.iter().map(Type::without_optional_attributes)),
            Type::Object(o) => Type::object(
                o.iter()
                    .map(|(n, t, _)| (n, t.without_optional_attributes())),
            ),
        }
    }

    /// A short name for error messages: `string`, `list`, `object`, ...
    pub fn kind_name(&self) -> &'static str {
        match self {
            Type::Bool => "bool",
            Type::Number => "number",
            Type::String => "string",
            Type::Dynamic => "dynamic",
            Type::List(_) => "list",
            Type::Set(_) => "set",
            Type::Map(_) => "map",
            Type::Object(_) => "object",
            Type::Tuple(_) => "tuple",
        }
    }

    /// The type as go-cty and Terraform name it in messages (cty's `FriendlyName`):
    /// `string`, `list of number`, `map of set of string`, `object`, `tuple`, `dynamic`.
    ///
    /// ```
    /// use ctywire::Type;
    ///
    /// let ty: Type = "map(list(object({a=string})))".parse()?;
    /// assert_eq!(ty.friendly_name(), "map of list of object");
    /// assert_eq!(Type::list(Type::Dynamic).friendly_name(), "list of dynamic");
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn friendly_name(&self) -> String {
        self.friendly(false)
    }

    /// The type as a constraint, as go-cty names it (`FriendlyNameForConstraint`):
    /// `dynamic` is `any type`, and a collection of it `list of any single type`.
    ///
    /// ```
    /// use ctywire::Type;
    ///
    /// assert_eq!(Type::Dynamic.friendly_name_for_constraint(), "any type");
    /// assert_eq!(Type::map(Type::Dynamic).friendly_name_for_constraint(), "map of any single type");
    /// ```
    pub fn friendly_name_for_constraint(&self) -> String {
        self.friendly(true)
    }

    fn friendly(&self, constraint: bool) -> String {
        let collection = |kind: &str, element: &Type| match element {
            Type::Dynamic if constraint => format!("{kind} of any single type"),
            _ => format!("{kind} of {}", element.friendly(constraint)),
        };
        match self {
            Type::Dynamic if constraint => "any type".to_owned(),
            Type::List(e) => collection("list", e),
            Type::Set(e) => collection("set", e),
            Type::Map(e) => collection("map", e),
            _ => self.kind_name().to_owned(),
        }
    }
}

impl fmt::Debug for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_expr())
    }
}

/// Prints the type as a Terraform type expression, e.g. `map(list(string))`.
impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_expr())
    }
}

mod expr;
mod json;

pub(crate) use json::{parse_type, write_json_cached, TypeJsonCache};

/// The attribute names of an object type as an encoder writes them: one buffer holding
/// them all, followed by [`WINDOW`](crate::text::WINDOW) spare bytes, so that
/// each name can be appended with [`append_short`](crate::text::append_short).
#[derive(Clone)]
pub(crate) struct EncodedNames {
    bytes: Box<[u8]>,
    /// Where each name starts in `bytes`, and where the last one ends.
    starts: Box<[usize]>,
}

impl EncodedNames {
    fn new(names: impl Iterator<Item = Vec<u8>>) -> EncodedNames {
        let mut bytes = Vec::new();
        let mut starts = vec![0];
        for name in names {
            bytes.extend_from_slice(&name);
            starts.push(bytes.len());
        }
        bytes.resize(bytes.len() + crate::text::WINDOW, 0);
        EncodedNames {
            bytes: bytes.into(),
            starts: starts.into(),
        }
    }

    /// Name `i` as written.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> &[u8] {
        &self.bytes[self.starts[i]..self.starts[i + 1]]
    }

    /// Appends name `i` to `out`.
    #[inline(always)]
    pub(crate) fn append(&self, i: usize, out: &mut Vec<u8>) {
        let (start, end) = (self.starts[i], self.starts[i + 1]);
        crate::text::append_short::<{ crate::text::WINDOW }>(
            out,
            &self.bytes[start..],
            end - start,
        );
    }
}

//! Type JSON: go-cty's serialization of types (`"string"`, `["list","string"]`,
//! `["object",{"a":"bool"},["a"]]`), as used in the dynamic-value wrapper of both wire
//! formats and in the `type` bytes of a schema attribute.

use std::sync::Arc;

use crate::error::{Error, ErrorKind, Result};
use crate::limits::MAX_DEPTH;
use crate::text::nfc;
use crate::token::json_read::{describe_at, Kind, Reader};
use crate::token::json_write::write_string;
use crate::types::{ObjectType, Type};

impl Type {
    /// The type's JSON form, exactly as go-cty's `Type.MarshalJSON` writes it: compact,
    /// object attributes in bytewise name order with Go's HTML-safe string escaping, and
    /// the list of optional attributes only when there is one.
    ///
    /// ```
    /// use ctywire::Type;
    ///
    /// assert_eq!(Type::String.to_json(), r#""string""#);
    /// assert_eq!(Type::map(Type::Dynamic).to_json(), r#"["map","dynamic"]"#);
    /// assert_eq!(Type::empty_tuple().to_json(), r#"["tuple",[]]"#);
    /// let ty = Type::object_with_optional([("b", Type::Bool), ("a<b", Type::Number)], ["b"]);
    /// assert_eq!(ty.to_json(), r#"["object",{"a\u003cb":"number","b":"bool"},["b"]]"#);
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = Vec::new();
        self.write_json(&mut out);
        // `write_json` writes only ASCII punctuation and the UTF-8 of `str`s.
        String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into())
    }

    /// Appends the type's JSON form (see [`to_json`](Type::to_json)) to `out`.
    ///
    /// ```
    /// use ctywire::Type;
    ///
    /// let mut out = b"type: ".to_vec();
    /// Type::list(Type::Bool).write_json(&mut out);
    /// assert_eq!(out, br#"type: ["list","bool"]"#);
    /// ```
    pub fn write_json(&self, out: &mut Vec<u8>) {
        match self {
            Type::Bool => out.extend_from_slice(b"\"bool\""),
            Type::Number => out.extend_from_slice(b"\"number\""),
            Type::String => out.extend_from_slice(b"\"string\""),
            Type::Dynamic => out.extend_from_slice(b"\"dynamic\""),
            Type::List(e) => {
                out.extend_from_slice(b"[\"list\",");
                e.write_json(out);
                out.push(b']');
            }
            Type::Set(e) => {
                out.extend_from_slice(b"[\"set\",");
                e.write_json(out);
                out.push(b']');
            }
            Type::Map(e) => {
                out.extend_from_slice(b"[\"map\",");
                e.write_json(out);
                out.push(b']');
            }
            Type::Tuple(elements) => {
                out.extend_from_slice(b"[\"tuple\",[");
                for (i, e) in elements.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    e.write_json(out);
                }
                out.extend_from_slice(b"]]");
            }
            Type::Object(object) => {
                out.extend_from_slice(b"[\"object\",{");
                for (i, (name, ty, _)) in object.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    write_string(out, name);
                    out.push(b':');
                    ty.write_json(out);
                }
                out.push(b'}');
                if object.has_optional() {
                    out.extend_from_slice(b",[");
                    let optional = object.iter().filter(|(_, _, optional)| *optional);
                    for (i, (name, _, _)) in optional.enumerate() {
                        if i > 0 {
                            out.push(b',');
                        }
                        write_string(out, name);
                    }
                    out.push(b']');
                }
                out.push(b']');
            }
        }
    }

    /// Parses type JSON, accepting exactly what go-cty's `Type.UnmarshalJSON` accepts.
    ///
    /// - Whitespace is allowed between tokens.
    /// - Primitive names are case-sensitive: `"bool"`, `"number"`, `"string"`,
    ///   `"dynamic"`.
    /// - `["list", T]`, `["set", T]`, `["map", T]`; `["tuple", [T, ...]]`, where
    ///   `["tuple", null]` is the empty tuple; `["object", {"name": T, ...}]`, where
    ///   `["object", null]` is the empty object, optionally followed by an array (or
    ///   `null`) of the names of optional attributes.
    /// - A repeated attribute name: the last one wins. Names are NFC-normalized.
    ///
    /// Unlike go-cty, which ignores trailing data in some cases and panics on an optional
    /// name that is not an attribute, both are errors. Every error carries a byte offset.
    ///
    /// ```
    /// use ctywire::{ErrorKind, Type};
    ///
    /// let ty = Type::from_json(r#"[ "map" , ["object", {"a": "bool"}, ["a"]] ]"#)?;
    /// assert_eq!(ty.to_expr(), "map(object({a=optional(bool)}))");
    ///
    /// let err = Type::from_json(r#"["list","String"]"#).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::Syntax);
    /// assert_eq!(err.to_string(), r#"invalid primitive type name "String" at byte 8"#);
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn from_json(text: &str) -> Result<Type> {
        Type::from_json_bytes(text.as_bytes())
    }

    /// Parses type JSON from bytes, as found in the dynamic-value wrapper of a
    /// MessagePack payload. See [`from_json`](Type::from_json).
    ///
    /// ```
    /// use ctywire::Type;
    ///
    /// assert_eq!(Type::from_json_bytes(b"[\"tuple\",null]")?, Type::empty_tuple());
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn from_json_bytes(bytes: &[u8]) -> Result<Type> {
        let mut reader = Reader::new(bytes);
        let ty = parse_type(&mut reader)?;
        if !reader.at_end() {
            let at = reader.offset();
            return Err(Error::new(
                ErrorKind::InvalidValue,
                format!(
                    "extraneous data after type description: found {}",
                    describe_at(bytes, at)
                ),
            )
            .at_offset(at));
        }
        Ok(ty)
    }
}

/// How many distinct type JSON texts [`TypeJsonCache`] and [`write_json_cached`] keep.
const CACHED_TYPES: usize = 8;

/// The types parsed most recently by one decoder, by their JSON text: the dynamic
/// values of one payload usually repeat a few types, so each text is parsed once and
/// the values share one type (and its attribute names).
#[derive(Default)]
pub(crate) struct TypeJsonCache<'a> {
    entries: Vec<(&'a [u8], Type)>,
    next: usize,
}

impl<'a> TypeJsonCache<'a> {
    /// [`Type::from_json_bytes`], remembered by text. Errors are not remembered.
    pub(crate) fn parse(&mut self, bytes: &'a [u8]) -> Result<Type> {
        if let Some((_, ty)) = self.entries.iter().find(|(b, _)| *b == bytes) {
            return Ok(ty.clone());
        }
        let ty = Type::from_json_bytes(bytes)?;
        if self.entries.len() < CACHED_TYPES {
            self.entries.push((bytes, ty.clone()));
        } else {
            self.entries[self.next] = (bytes, ty.clone());
            self.next = (self.next + 1) % CACHED_TYPES;
        }
        Ok(ty)
    }
}

/// The JSON texts of the structural types written most recently on this thread.
#[derive(Default)]
struct WrittenTypes {
    entries: Vec<(Type, Box<[u8]>)>,
    next: usize,
}

thread_local! {
    static WRITTEN_TYPES: std::cell::RefCell<WrittenTypes> = std::cell::RefCell::default();
}

/// [`Type::write_json`] for the encoders' dynamic wrappers, which write the same few
/// types over and over: the text of a structural type is kept per thread (by type, which
/// compares by pointer when the types are shared) and copied.
pub(crate) fn write_json_cached(ty: &Type, out: &mut Vec<u8>) {
    if ty.is_primitive() || *ty == Type::Dynamic {
        ty.write_json(out);
        return;
    }
    WRITTEN_TYPES.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some((_, text)) = cache.entries.iter().find(|(t, _)| t == ty) {
            out.extend_from_slice(text);
            return;
        }
        let start = out.len();
        ty.write_json(out);
        let entry = (ty.clone(), out[start..].into());
        if cache.entries.len() < CACHED_TYPES {
            cache.entries.push(entry);
        } else {
            let i = cache.next;
            cache.entries[i] = entry;
            cache.next = (i + 1) % CACHED_TYPES;
        }
    })
}

fn syntax(message: impl Into<String>, offset: usize) -> Error {
    Error::new(ErrorKind::Syntax, message).at_offset(offset)
}

/// A complex type whose parts are being read (the parser keeps these on an explicit
/// stack instead of recursing, so that deep nesting costs no call stack).
enum Frame {
    /// `["list", ` (or set or map): waiting for the element type.
    Collection(CollectionKind),
    /// `["tuple", [...`: the element types read so far.
    Tuple(Vec<Type>),
    /// `["object", {...`: the attributes read so far and the name whose type is next.
    Object(Vec<(String, Type)>, String),
}

#[derive(Clone, Copy)]
enum CollectionKind {
    List,
    Set,
    Map,
}

impl CollectionKind {
    fn what(self) -> &'static str {
        match self {
            CollectionKind::List => "a list type",
            CollectionKind::Set => "a set type",
            CollectionKind::Map => "a map type",
        }
    }
}

/// What the start of a type description gave: a whole type, or a frame whose parts come
/// next.
enum Start {
    Done(Type),
    Open(Frame),
}

/// Parses one type. Nesting deeper than [`MAX_DEPTH`] complex types is an error.
pub(crate) fn parse_type(r: &mut Reader<'_>) -> Result<Type> {
    let start = r.offset();
    if let Some(ty) = simple_type(r) {
        return Ok(ty);
    }
    r.seek(start);
    let mut stack: Vec<Frame> = Vec::new();
    loop {
        let mut ty = match start_type(r, stack.len())? {
            Start::Done(ty) => ty,
            Start::Open(frame) => {
                stack.push(frame);
                continue;
            }
        };
        // `ty` is complete: hand it to the enclosing frames, closing those it completes.
        loop {
            match stack.last_mut() {
                None => return Ok(ty),
                Some(Frame::Collection(kind)) => {
                    let kind = *kind;
                    end(r, kind.what(), "2 elements", 2)?;
                    ty = match kind {
                        CollectionKind::List => Type::list(ty),
                        CollectionKind::Set => Type::set(ty),
                        CollectionKind::Map => Type::map(ty),
                    };
                }
                Some(Frame::Tuple(elements)) => {
                    elements.push(ty);
                    if r.next_element()? {
                        break;
                    }
                    let elements = std::mem::take(elements);
                    end(r, "a tuple type", "2 elements", 2)?;
                    ty = Type::tuple(elements);
                }
                Some(Frame::Object(attributes, name)) => {
                    attributes.push((std::mem::take(name), ty));
                    if let Some(next) = r.next_key()? {
                        *name = next.into_owned();
                        break;
                    }
                    ty = finish_object(r, std::mem::take(attributes))?;
                }
            }
            stack.pop();
        }
    }
}

/// The types most attributes of a schema have, read without the general path's
/// bookkeeping: a primitive type, or a list, set or map of one, each name written
/// without escapes. `None` for anything else (or bad input), the reader then at an
/// unspecified place: the caller reads the type again with the general path.
fn simple_type(r: &mut Reader<'_>) -> Option<Type> {
    if r.eat(b"\"string\"") {
        return Some(Type::String);
    }
    if let Some(name) = r.plain_string() {
        return primitive(name);
    }
    if r.peek_kind().ok()? != Kind::Array {
        return None;
    }
    r.begin_array().ok()?;
    let collection: fn(Type) -> Type = match (r.next_element().ok()?, r.plain_string()?) {
        (true, "list") => Type::list,
        (true, "set") => Type::set,
        (true, "map") => Type::map,
        _ => return None,
    };
    if !r.next_element().ok()? {
        return None;
    }
    let element = primitive(r.plain_string()?)?;
    if r.next_element().ok()? {
        return None;
    }
    Some(collection(element))
}

/// Reads the start of a type: a primitive type name, or `[kind, ` up to the first nested
/// type; `depth` is the number of enclosing complex types.
fn start_type(r: &mut Reader<'_>, depth: usize) -> Result<Start> {
    r.skip_whitespace();
    let at = r.offset();
    match r.peek_kind() {
        Ok(Kind::String) => {}
        Ok(Kind::Array) => return start_complex(r, depth),
        Ok(kind) => {
            return Err(syntax(
                format!(
                    "invalid type description: expected a type name or `[`, found {}",
                    kind.described()
                ),
                at,
            ))
        }
        Err(_) => return Err(r.expected("a type")),
    }
    let name = r.read_string()?;
    match primitive(&name) {
        Some(ty) => Ok(Start::Done(ty)),
        None => Err(syntax(format!("invalid primitive type name {name:?}"), at)),
    }
}

/// The primitive type a name in type JSON names.
fn primitive(name: &str) -> Option<Type> {
    Some(match name {
        "bool" => Type::Bool,
        "number" => Type::Number,
        "string" => Type::String,
        "dynamic" => Type::Dynamic,
        _ => return None,
    })
}

/// Reads `[kind, ` and what follows up to the first nested type, the reader being at the
/// `[`.
fn start_complex(r: &mut Reader<'_>, depth: usize) -> Result<Start> {
    if depth >= MAX_DEPTH {
        return Err(crate::limits::depth_exceeded("type").at_offset(r.offset()));
    }
    r.begin_array()?;
    if !r.next_element()? {
        return Err(syntax(
            "invalid complex type description: expected a type kind such as \"list\", \
             found an empty array",
            r.offset() - 1,
        ));
    }
    r.skip_whitespace();
    let at = r.offset();
    match r.peek_kind() {
        Ok(Kind::String) => {}
        Ok(kind) => {
            return Err(syntax(
                format!(
                    "invalid complex type description: expected a type kind such as \"list\", \
                     found {}",
                    kind.described()
                ),
                at,
            ))
        }
        Err(_) => return Err(r.expected("a type kind")),
    }
    let kind = r.read_string()?;
    let collection = match kind.as_ref() {
        "list" => CollectionKind::List,
        "set" => CollectionKind::Set,
        "map" => CollectionKind::Map,
        "tuple" => return start_tuple(r),
        "object" => return start_object(r),
        _ => return Err(syntax(format!("invalid complex type kind `{kind}`"), at)),
    };
    next(r, collection.what(), "2 elements", 1)?;
    Ok(Start::Open(Frame::Collection(collection)))
}

/// Reads the rest of `["tuple", ` up to the first element type.
fn start_tuple(r: &mut Reader<'_>) -> Result<Start> {
    const WHAT: &str = "a tuple type";
    next(r, WHAT, "2 elements", 1)?;
    match r.peek_kind() {
        Ok(Kind::Null) => r.read_null()?,
        Ok(Kind::Array) => {
            r.begin_array()?;
            if r.next_element()? {
                return Ok(Start::Open(Frame::Tuple(Vec::new())));
            }
        }
        _ => return Err(r.expected("an array of element types")),
    }
    end(r, WHAT, "2 elements", 2)?;
    Ok(Start::Done(Type::empty_tuple()))
}

/// Reads the rest of `["object", ` up to the first attribute type.
fn start_object(r: &mut Reader<'_>) -> Result<Start> {
    next(r, "an object type", "2 or 3 elements", 1)?;
    match r.peek_kind() {
        Ok(Kind::Null) => r.read_null()?,
        Ok(Kind::Object) => {
            r.begin_object()?;
            if let Some(name) = r.next_key()? {
                return Ok(Start::Open(Frame::Object(Vec::new(), name.into_owned())));
            }
        }
        _ => return Err(r.expected("an object of attribute types")),
    }
    finish_object(r, Vec::new()).map(Start::Done)
}

/// Reads what follows an object type's attributes (an optional list of optional
/// attribute names, and the closing `]`) and builds the type.
fn finish_object(r: &mut Reader<'_>, attributes: Vec<(String, Type)>) -> Result<Type> {
    const WHAT: &str = "an object type";
    const EXPECTED: &str = "2 or 3 elements";
    // The optional attributes' NFC names, each with the offset where it was written.
    let mut optional: Vec<(String, usize)> = Vec::new();
    if r.next_element()? {
        match r.peek_kind() {
            Ok(Kind::Null) => r.read_null()?,
            Ok(Kind::Array) => {
                r.begin_array()?;
                while r.next_element()? {
                    r.skip_whitespace();
                    let at = r.offset();
                    if r.peek_kind().ok() != Some(Kind::String) {
                        return Err(r.expected("an optional attribute name"));
                    }
                    let name = r.read_string()?;
                    optional.push((nfc(&name).into_owned(), at));
                }
            }
            _ => return Err(r.expected("an array of optional attribute names")),
        }
        end(r, WHAT, EXPECTED, 3)?;
    }
    if optional.is_empty() {
        return Ok(Type::object(attributes));
    }
    let mut declared: Vec<String> = attributes
        .iter()
        .map(|(n, _)| nfc(n).into_owned())
        .collect();
    declared.sort_unstable();
    for (name, at) in &optional {
        if declared.binary_search(name).is_err() {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                format!("optional contains undeclared attribute {name:?}"),
            )
            .at_offset(*at));
        }
    }
    let mut optional: Vec<String> = optional.into_iter().map(|(n, _)| n).collect();
    optional.sort_unstable();
    let attributes = attributes.into_iter().map(|(name, ty)| {
        let is_optional = optional
            .binary_search_by(|o| o.as_str().cmp(&nfc(&name)))
            .is_ok();
        (name, ty, is_optional)
    });
    Ok(Type::Object(Arc::new(ObjectType::new(attributes))))
}

/// Moves to element number `found + 1` of the type description array `what`, which must
/// have `expected` elements: an error if the array ends after `found`.
fn next(r: &mut Reader<'_>, what: &str, expected: &str, found: usize) -> Result<()> {
    if r.next_element()? {
        r.skip_whitespace();
        Ok(())
    } else {
        Err(syntax(
            format!("expected {expected} in {what}, found {found}"),
            r.offset() - 1,
        ))
    }
}

/// Reads the end of the type description array `what` after `found` elements: an error
/// (counting the extra elements) if more follow.
fn end(r: &mut Reader<'_>, what: &str, expected: &str, found: usize) -> Result<()> {
    if !r.next_element()? {
        return Ok(());
    }
    r.skip_whitespace();
    let at = r.offset();
    let mut count = found;
    loop {
        r.skip_value()?;
        count += 1;
        if !r.next_element()? {
            break;
        }
    }
    Err(syntax(
        format!("expected {expected} in {what}, found {count}"),
        at,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    fn obj(attrs: &[(&str, Type)]) -> Type {
        Type::object(attrs.iter().cloned())
    }

    fn err(text: &str) -> (ErrorKind, String, usize) {
        let e = Type::from_json(text).expect_err(text);
        match e.position() {
            Some(Position::Offset(o)) => (e.kind(), e.message().to_owned(), o),
            other => panic!("no offset in {e:?}: {other:?}"),
        }
    }

    /// Every row of wire-format §1.1, printed and parsed back.
    #[test]
    fn grammar_rows() {
        let cases: Vec<(Type, &str)> = vec![
            (Type::String, r#""string""#),
            (Type::Number, r#""number""#),
            (Type::Bool, r#""bool""#),
            (Type::Dynamic, r#""dynamic""#),
            (Type::list(Type::String), r#"["list","string"]"#),
            (Type::set(Type::Number), r#"["set","number"]"#),
            (Type::map(Type::Bool), r#"["map","bool"]"#),
            (
                Type::tuple([Type::Bool, Type::String]),
                r#"["tuple",["bool","string"]]"#,
            ),
            (Type::empty_tuple(), r#"["tuple",[]]"#),
            (
                obj(&[("b", Type::String), ("a", Type::Bool)]),
                r#"["object",{"a":"bool","b":"string"}]"#,
            ),
            (Type::empty_object(), r#"["object",{}]"#),
            (
                Type::object_with_optional(
                    [("a", Type::Bool), ("b", Type::String), ("c", Type::Number)],
                    ["b", "a"],
                ),
                r#"["object",{"a":"bool","b":"string","c":"number"},["a","b"]]"#,
            ),
            (
                obj(&[
                    ("b", Type::String),
                    ("a<b", Type::Number),
                    ("A", Type::Bool),
                ]),
                r#"["object",{"A":"bool","a\u003cb":"number","b":"string"}]"#,
            ),
            (
                Type::object_with_optional(
                    [("x&y", Type::String), ("p>q", Type::Dynamic)],
                    ["x&y", "p>q"],
                ),
                r#"["object",{"p\u003eq":"dynamic","x\u0026y":"string"},["p\u003eq","x\u0026y"]]"#,
            ),
            (
                obj(&[("line\u{2028}sep", Type::String)]),
                r#"["object",{"line\u2028sep":"string"}]"#,
            ),
            (
                Type::list(Type::map(Type::set(Type::tuple([
                    Type::Dynamic,
                    Type::empty_object(),
                ])))),
                r#"["list",["map",["set",["tuple",["dynamic",["object",{}]]]]]]"#,
            ),
        ];
        for (ty, json) in cases {
            assert_eq!(ty.to_json(), json);
            assert_eq!(Type::from_json(json).unwrap(), ty, "{json}");
            let mut out = b"prefix".to_vec();
            ty.write_json(&mut out);
            assert_eq!(&out[6..], json.as_bytes());
        }
    }

    /// The `TestTypeJSONable` cases of `vectors/go-cty-tables.json`.
    #[test]
    fn go_cty_type_jsonable() {
        let cases: Vec<(Type, &str)> = vec![
            (Type::String, "\"string\""),
            (Type::Number, "\"number\""),
            (Type::Bool, "\"bool\""),
            (Type::list(Type::Bool), "[\"list\",\"bool\"]"),
            (Type::map(Type::Bool), "[\"map\",\"bool\"]"),
            (Type::set(Type::Bool), "[\"set\",\"bool\"]"),
            (
                Type::list(Type::map(Type::Bool)),
                "[\"list\",[\"map\",\"bool\"]]",
            ),
            (
                Type::tuple([Type::Bool, Type::String]),
                "[\"tuple\",[\"bool\",\"string\"]]",
            ),
            (
                obj(&[("bool", Type::Bool), ("string", Type::String)]),
                "[\"object\",{\"bool\":\"bool\",\"string\":\"string\"}]",
            ),
            (
                Type::object_with_optional(
                    [("bool", Type::Bool), ("string", Type::String)],
                    ["bool", "string"],
                ),
                "[\"object\",{\"bool\":\"bool\",\"string\":\"string\"},[\"bool\",\"string\"]]",
            ),
            (Type::Dynamic, "\"dynamic\""),
        ];
        assert_eq!(cases.len(), 11);
        for (ty, json) in cases {
            assert_eq!(ty.to_json(), json);
            assert_eq!(Type::from_json(json).unwrap(), ty);
        }
    }

    /// wire-format §1.2: what parsing accepts beyond the canonical form.
    #[test]
    fn lenient_parsing() {
        let cases: Vec<(&str, Type)> = vec![
            (r#"[ "list" , "string" ]"#, Type::list(Type::String)),
            (" \n\t\r\"bool\" \n", Type::Bool),
            (
                "[\"object\" ,\n { \"a\" : \"bool\" , \"b\":[\"list\",\"number\"] } ]",
                obj(&[("a", Type::Bool), ("b", Type::list(Type::Number))]),
            ),
            (r#"["tuple",null]"#, Type::empty_tuple()),
            (r#"["object",null]"#, Type::empty_object()),
            // A null or empty optional list: a plain object.
            (r#"["object",{"a":"bool"},null]"#, obj(&[("a", Type::Bool)])),
            (r#"["object",{"a":"bool"},[]]"#, obj(&[("a", Type::Bool)])),
            // Duplicate attribute keys: the last one wins.
            (
                r#"["object",{"a":"bool","a":"string"}]"#,
                obj(&[("a", Type::String)]),
            ),
            // Names are unescaped and NFC-normalized.
            (
                r#"["object",{"a\u003cb":"bool","cafe\u0301":"string"}]"#,
                obj(&[("a<b", Type::Bool), ("caf\u{e9}", Type::String)]),
            ),
            // Optional names are matched after NFC, and may repeat.
            (
                r#"["object",{"cafe\u0301":"string","x":"bool"},["caf\u00e9","caf\u00e9"]]"#,
                Type::object_with_optional(
                    [("caf\u{e9}", Type::String), ("x", Type::Bool)],
                    ["caf\u{e9}"],
                ),
            ),
        ];
        for (json, ty) in cases {
            assert_eq!(Type::from_json(json).unwrap(), ty, "{json}");
        }
        // Non-canonical input re-encodes canonically.
        assert_eq!(
            Type::from_json(r#"["tuple",null]"#).unwrap().to_json(),
            r#"["tuple",[]]"#
        );
        assert_eq!(
            Type::from_json(r#"["object",{"a":"bool"},[]]"#)
                .unwrap()
                .to_json(),
            r#"["object",{"a":"bool"}]"#
        );
        assert_eq!(
            Type::from_json_bytes(b"[\"set\",\"string\"]").unwrap(),
            Type::set(Type::String)
        );
    }

    #[test]
    fn errors() {
        use ErrorKind::*;
        let cases: &[(&str, ErrorKind, &str, usize)] = &[
            (
                r#""String""#,
                Syntax,
                r#"invalid primitive type name "String""#,
                0,
            ),
            (
                r#""list""#,
                Syntax,
                r#"invalid primitive type name "list""#,
                0,
            ),
            (
                r#"  "any""#,
                Syntax,
                r#"invalid primitive type name "any""#,
                2,
            ),
            (
                r#""bool" "bool""#,
                InvalidValue,
                "extraneous data after type description: found `\"`",
                7,
            ),
            (
                r#"["list","bool"]x"#,
                InvalidValue,
                "extraneous data after type description: found `x`",
                15,
            ),
            (
                r#"["lust","bool"]"#,
                Syntax,
                "invalid complex type kind `lust`",
                1,
            ),
            (
                r#"["List","bool"]"#,
                Syntax,
                "invalid complex type kind `List`",
                1,
            ),
            (
                r#"[["list"],"bool"]"#,
                Syntax,
                "invalid complex type description: expected a type kind such as \"list\", \
                 found an array",
                1,
            ),
            (
                "[]",
                Syntax,
                "invalid complex type description: expected a type kind such as \"list\", \
                 found an empty array",
                1,
            ),
            (
                "{}",
                Syntax,
                "invalid type description: expected a type name or `[`, found an object",
                0,
            ),
            (
                "null",
                Syntax,
                "invalid type description: expected a type name or `[`, found null",
                0,
            ),
            (
                r#"["tuple",[null]]"#,
                Syntax,
                "invalid type description: expected a type name or `[`, found null",
                10,
            ),
            (
                r#"["object",{"a":null}]"#,
                Syntax,
                "invalid type description: expected a type name or `[`, found null",
                15,
            ),
            ("x", Syntax, "expected a type, found `x`", 0),
            ("", UnexpectedEof, "expected a type, found end of input", 0),
            (
                r#"["list"]"#,
                Syntax,
                "expected 2 elements in a list type, found 1",
                7,
            ),
            (
                r#"["map","bool","bool"]"#,
                Syntax,
                "expected 2 elements in a map type, found 3",
                14,
            ),
            (
                r#"["set","bool",1,[2,3]]"#,
                Syntax,
                "expected 2 elements in a set type, found 4",
                14,
            ),
            (
                r#"["tuple"]"#,
                Syntax,
                "expected 2 elements in a tuple type, found 1",
                8,
            ),
            (
                r#"["tuple",[],[]]"#,
                Syntax,
                "expected 2 elements in a tuple type, found 3",
                12,
            ),
            (
                r#"["tuple","bool"]"#,
                Syntax,
                "expected an array of element types, found `\"`",
                9,
            ),
            (
                r#"["object"]"#,
                Syntax,
                "expected 2 or 3 elements in an object type, found 1",
                9,
            ),
            (
                r#"["object",{},[],[]]"#,
                Syntax,
                "expected 2 or 3 elements in an object type, found 4",
                16,
            ),
            (
                r#"["object",[]]"#,
                Syntax,
                "expected an object of attribute types, found `[`",
                10,
            ),
            (
                r#"["object",{},{}]"#,
                Syntax,
                "expected an array of optional attribute names, found `{`",
                13,
            ),
            (
                r#"["object",{"a":"bool"},[1]]"#,
                Syntax,
                "expected an optional attribute name, found `1`",
                24,
            ),
            (
                r#"["object",{"a":"bool"},["b"]]"#,
                InvalidValue,
                r#"optional contains undeclared attribute "b""#,
                24,
            ),
            (
                r#"["object",{"a":"bool"} "b"]"#,
                Syntax,
                "expected `,` or `]`, found `\"`",
                23,
            ),
            (
                r#"["object",{"a" "bool"}]"#,
                Syntax,
                "expected `:`, found `\"`",
                15,
            ),
            (
                r#"["list" "bool"]"#,
                Syntax,
                "expected `,` or `]`, found `\"`",
                8,
            ),
            (
                r#"["list","bool""#,
                UnexpectedEof,
                "expected `,` or `]`, found end of input",
                14,
            ),
            (
                r#"["list","bool",]"#,
                Syntax,
                "expected a JSON value, found `]`",
                15,
            ),
        ];
        for &(json, kind, message, offset) in cases {
            assert_eq!(err(json), (kind, message.to_owned(), offset), "{json}");
        }
    }

    #[test]
    fn nesting_is_bounded() {
        let ok = format!(
            "{}\"string\"{}",
            "[\"list\",".repeat(MAX_DEPTH),
            "]".repeat(MAX_DEPTH)
        );
        let ty = Type::from_json(&ok).unwrap();
        assert_eq!(ty.to_json(), ok);
        let deep = format!(
            "{}\"string\"{}",
            "[\"list\",".repeat(MAX_DEPTH + 1),
            "]".repeat(MAX_DEPTH + 1)
        );
        let (kind, _, offset) = err(&deep);
        assert_eq!((kind, offset), (ErrorKind::LimitExceeded, MAX_DEPTH * 8));
        let deep_objects = r#"["object",{"a":"#.repeat(100_000);
        assert_eq!(err(&deep_objects).0, ErrorKind::LimitExceeded);
        let deep_tuples = r#"["tuple",["#.repeat(100_000);
        assert_eq!(err(&deep_tuples).0, ErrorKind::LimitExceeded);
        // `[[[[...` fails at once: a kind must be a string.
        let brackets = "[".repeat(1_000_000);
        assert_eq!(err(&brackets).0, ErrorKind::Syntax);
    }

    #[test]
    fn truncation_is_an_error_not_a_panic() {
        let types = [
            r#"["object",{"a":"bool","b":["list",["tuple",["string",["map","dynamic"]]]],"c\u003c\ud83d\ude00":["set","number"]},["a","c\u003c\ud83d\ude00"]]"#,
            r#" [ "tuple" , [ "bool" , [ "object" , null ] ] ] "#,
            r#"["object",{"a":"bool"},null]"#,
            r#""dynamic""#,
        ];
        for json in types {
            let full = Type::from_json(json).unwrap();
            let bytes = json.as_bytes();
            for end in 0..bytes.len() {
                if bytes[end..].iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                assert!(
                    Type::from_json_bytes(&bytes[..end]).is_err(),
                    "{:?} parsed",
                    String::from_utf8_lossy(&bytes[..end])
                );
            }
            // Garbage in place of any byte never panics either.
            for i in 0..bytes.len() {
                for b in [b'"', b'[', b']', b'{', b'}', b',', b':', b'\\', b'x', 0xff] {
                    let mut changed = bytes.to_vec();
                    changed[i] = b;
                    let _ = Type::from_json_bytes(&changed);
                }
            }
            assert_eq!(Type::from_json(&full.to_json()).unwrap(), full);
        }
    }
}

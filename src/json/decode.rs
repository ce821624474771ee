//! JSON decoding driven by a type, straight into [`Value`]s, with go-cty's leniency.

use std::borrow::Cow;

use crate::error::{Error, ErrorKind, Position, Result};
use crate::implied::{below, Wrappers};
use crate::limits::MAX_DEPTH;
use crate::path::PathStep;
use crate::text;
use crate::token::json_read::{line_column, Kind, Reader};
use crate::types::{ObjectType, Type, TypeJsonCache};
use crate::value::conform::{common_type, settle, type_dynamic_elements};
use crate::value::sink::{nulls, Return, Sink};
use crate::value::{sort_dedup_last, Map, Number, Object, Set, Str, Value};

/// Options for [`decode_with`](crate::json::decode_with).
///
/// ```
/// use ctywire::json::{self, DecodeOptions};
/// use ctywire::Type;
///
/// // State written by an older schema, which had an attribute since removed.
/// let ty = Type::object([("id", Type::String)]);
/// let options = DecodeOptions::new().ignore_undefined_attributes(true);
/// let value = json::decode_with(br#"{"id": "i-1", "legacy": true}"#, &ty, &options)?;
/// assert_eq!(value, ctywire::Value::object([("id", ctywire::Value::from("i-1"))]));
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct DecodeOptions {
    /// Skip object attributes that the type does not declare, instead of failing. Useful
    /// for `UpgradeResourceState`, whose JSON was written with an older schema.
    pub ignore_undefined_attributes: bool,
}

/// The default options, for decoders that take none.
pub(crate) static DEFAULT_OPTIONS: DecodeOptions = DecodeOptions {
    ignore_undefined_attributes: false,
};

impl DecodeOptions {
    /// The default options: undeclared attributes are an error.
    pub fn new() -> DecodeOptions {
        DecodeOptions::default()
    }

    /// Sets [`ignore_undefined_attributes`](Self::ignore_undefined_attributes).
    pub fn ignore_undefined_attributes(mut self, yes: bool) -> DecodeOptions {
        self.ignore_undefined_attributes = yes;
        self
    }
}

/// Decodes one JSON value of type `ty`; trailing text is an error.
pub(crate) fn decode(input: &[u8], ty: &Type, options: &DecodeOptions) -> Result<Value> {
    let mut d = Decoder::new(input, options);
    let mut r = Reader::new_checked(input);
    d.value(&mut r, ty, 0)
        .and_then(|v| r.finish().map(|()| v))
        .map_err(|e| with_line_column(e, input))
}

/// Turns a byte offset into a line and column.
pub(crate) fn with_line_column(e: Error, input: &[u8]) -> Error {
    match e.position() {
        Some(Position::Offset(o)) => {
            let (line, column) = line_column(input, o);
            e.with_position(Position::LineColumn { line, column })
        }
        _ => e,
    }
}

/// The state of one decode: also what the serde bridge decodes the values it needs
/// whole with.
pub(crate) struct Decoder<'a, 'o> {
    input: &'a [u8],
    options: &'o DecodeOptions,
    /// The types of the dynamic values read so far, by their type JSON.
    types: TypeJsonCache<'a>,
    /// How many more attributes objects may leave out
    /// ([`MAX_IMPLICIT_VALUES`](crate::limits::MAX_IMPLICIT_VALUES)).
    implicit_budget: usize,
    /// The elements of the arrays being read, innermost last: a JSON array does not say
    /// how long it is, so its elements gather here and move into one allocation of the
    /// right size at its end (no growing and shrinking for every array).
    scratch: Vec<Value>,
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Null => "null",
        Kind::Bool => "bool",
        Kind::Number => "number",
        Kind::String => "string",
        Kind::Array => "array",
        Kind::Object => "object",
    }
}

#[cold]
pub(crate) fn mismatch(ty: &Type, kind: Kind, at: usize) -> Error {
    let expected = match ty {
        Type::Dynamic => r#"a dynamic value as {"value": ..., "type": ...}"#,
        Type::Object(_) => "object",
        Type::Tuple(_) => "tuple",
        ty => ty.kind_name(),
    };
    mismatch_named(expected, kind, at)
}

/// "expected `expected`, found `kind`" at `at`: the error of a value of the wrong JSON
/// kind, for the value decoder and the typed codec of derived structs alike.
#[cold]
pub(crate) fn mismatch_named(expected: &str, kind: Kind, at: usize) -> Error {
    Error::mismatch(expected, kind_name(kind)).at_offset(at)
}

/// A bool, number or string, with go-cty's conversions from the other primitive kinds.
#[inline(never)]
pub(crate) fn primitive(r: &mut Reader<'_>, ty: &Type, kind: Kind, at: usize) -> Result<Value> {
    Ok(match (ty, kind) {
        (Type::Bool, _) => Value::Bool(bool_of(r, kind, at)?),
        (Type::Number, _) => {
            Value::Number(number(&number_text(r, kind, at)?).map_err(|e| e.at_offset(at))?)
        }
        (Type::String, Kind::String) => string(r, Return)?,
        (Type::String, _) => Value::String(string_text(r, kind, at)?.as_ref().into()),
        (ty, kind) => return Err(mismatch(ty, kind, at)),
    })
}

/// A value of type `bool` (not null) of JSON kind `kind` at `at`: `true` or `false`, or
/// one of the strings go-cty reads as a bool.
pub(crate) fn bool_of(r: &mut Reader<'_>, kind: Kind, at: usize) -> Result<bool> {
    match kind {
        Kind::Bool => r.read_bool(),
        Kind::String => match &*r.read_string()? {
            "true" | "1" => Ok(true),
            "false" | "0" => Ok(false),
            s => Err(Error::new(
                ErrorKind::InvalidValue,
                format!("expected a bool or one of the strings \"true\", \"false\", \"1\", \"0\", found string {s:?}"),
            )
            .at_offset(at)),
        },
        kind => Err(mismatch_named("bool", kind, at)),
    }
}

/// The text of a value of type `number` (not null) of JSON kind `kind` at `at`: a
/// number literal, or a string (go-cty reads numbers from strings too), for
/// [`number`] to parse.
pub(crate) fn number_text<'a>(r: &mut Reader<'a>, kind: Kind, at: usize) -> Result<Cow<'a, str>> {
    match kind {
        Kind::Number => r.read_number().map(Cow::Borrowed),
        Kind::String => r.read_string(),
        kind => Err(mismatch_named("number", kind, at)),
    }
}

/// The text of a value of type `string` (not null) of JSON kind `kind` at `at`, in
/// NFC: a string, or a number's or bool's text as go-cty converts them.
pub(crate) fn string_text<'a>(r: &mut Reader<'a>, kind: Kind, at: usize) -> Result<Cow<'a, str>> {
    match kind {
        Kind::String => Ok(match r.read_string()? {
            Cow::Borrowed(s) => text::nfc(s),
            Cow::Owned(s) => Cow::Owned(text::nfc_owned(s)),
        }),
        Kind::Number => r.read_number().map(Cow::Borrowed),
        Kind::Bool => Ok(Cow::Borrowed(if r.read_bool()? { "true" } else { "false" })),
        kind => Err(mismatch_named("string", kind, at)),
    }
}

/// A string value, for a JSON string at a position of type `string`.
#[inline(always)]
fn string<S: Sink>(r: &mut Reader<'_>, put: S) -> Result<S::Output> {
    Ok(put.put(Value::String(text::nfc(&r.read_string()?).into())))
}

pub(crate) fn number(text: &str) -> Result<Number> {
    Ok(Number::parse(text)?)
}

impl<'a, 'o> Decoder<'a, 'o> {
    /// A decoder of `input` (what the reader reads).
    pub(crate) fn new(input: &'a [u8], options: &'o DecodeOptions) -> Decoder<'a, 'o> {
        Decoder {
            input,
            options,
            types: TypeJsonCache::default(),
            implicit_budget: crate::limits::implicit_value_budget(input.len()),
            scratch: Vec::new(),
        }
    }

    /// Counts the attributes an object of `n` attributes at `at` leaves out, when
    /// `given` of its members named one (a repeated one counts each time): nulls the
    /// input does not pay for, against [`MAX_IMPLICIT_VALUES`](crate::limits::MAX_IMPLICIT_VALUES).
    pub(crate) fn left_out(&mut self, n: usize, given: usize, at: usize) -> Result<()> {
        let missing = n.saturating_sub(given);
        if missing > 0 {
            if missing > self.implicit_budget {
                return Err(crate::limits::implicit_values_error().at_offset(at));
            }
            self.implicit_budget -= missing;
        }
        Ok(())
    }

    /// How many more values the input may leave out (see [`left_out`](Self::left_out)).
    pub(crate) fn implicit_budget(&self) -> usize {
        self.implicit_budget
    }

    /// Gives back the budget [`implicit_budget`](Self::implicit_budget) reported, for a
    /// value read again from its start.
    pub(crate) fn restore_implicit_budget(&mut self, budget: usize) {
        self.implicit_budget = budget;
    }

    /// Decodes one value of type `ty` at `depth`.
    pub(crate) fn value(&mut self, r: &mut Reader<'a>, ty: &Type, depth: usize) -> Result<Value> {
        self.value_into(r, ty, depth, Return)
    }

    /// Decodes one value of type `ty` into `put`.
    fn value_into<S: Sink>(
        &mut self,
        r: &mut Reader<'a>,
        ty: &Type,
        depth: usize,
        put: S,
    ) -> Result<S::Output> {
        let kind = r.peek_kind()?;
        let at = r.offset();
        if depth > MAX_DEPTH {
            return Err(crate::limits::depth_exceeded("value").at_offset(at));
        }
        if kind == Kind::Null {
            r.read_null()?;
            return Ok(put.put(Value::Null));
        }
        let value = match (ty, kind) {
            // The commonest value of all, read here rather than through `primitive`.
            (Type::String, Kind::String) => return string(r, put),
            (Type::Bool | Type::Number | Type::String, _) => primitive(r, ty, kind, at)?,
            (Type::List(e), Kind::Array) => {
                let mut elements = self.sequence(r, e, depth)?;
                settle_elements(&mut elements, e, at)?;
                Value::List(elements.into())
            }
            (Type::Set(e), Kind::Array) => {
                let mut elements = self.sequence(r, e, depth)?;
                settle_elements(&mut elements, e, at)?;
                Value::Set(Set::new(elements))
            }
            (Type::Map(e), Kind::Object) => self.map(r, e, depth, at)?,
            (Type::Tuple(ts), Kind::Array) => self.tuple(r, ts, depth, at)?,
            (Type::Object(o), Kind::Object) => return self.object(r, o, depth, at, put),
            (Type::Dynamic, Kind::Object) => self.dynamic(r, depth, at)?,
            (ty, kind) => return Err(mismatch(ty, kind, at)),
        };
        Ok(put.put(value))
    }

    fn sequence(&mut self, r: &mut Reader<'a>, element: &Type, depth: usize) -> Result<Vec<Value>> {
        r.begin_array()?;
        let base = self.scratch.len();
        // (Past the depth limit every element is refused, by `value`.)
        let strings = *element == Type::String && depth < MAX_DEPTH;
        while r.next_element()? {
            let i = self.scratch.len() - base;
            // Lists and sets of strings are common and long: their strings are read
            // here rather than through `value`.
            let v = if strings && r.peek_kind() == Ok(Kind::String) {
                string(r, Return)
            } else {
                self.value(r, element, depth + 1)
            };
            match v {
                Ok(v) => self.scratch.push(v),
                Err(e) => {
                    self.scratch.truncate(base);
                    return Err(e.in_index(i));
                }
            }
        }
        if base == 0 {
            // The outermost array being read: it takes the scratch stack's own
            // allocation, shrunk in place, rather than a copy beside it (which would
            // double the peak heap of a payload that is one large array).
            return Ok(std::mem::take(&mut self.scratch));
        }
        Ok(self.scratch.drain(base..).collect())
    }

    fn tuple(
        &mut self,
        r: &mut Reader<'a>,
        types: &[Type],
        depth: usize,
        at: usize,
    ) -> Result<Value> {
        r.begin_array()?;
        let mut out = Vec::with_capacity(types.len());
        while r.next_element()? {
            let i = out.len();
            let Some(t) = types.get(i) else {
                return Err(Error::new(
                    ErrorKind::InvalidValue,
                    format!("expected a tuple of {} elements, found more", types.len()),
                )
                .at_offset(r.offset()));
            };
            out.push(self.value(r, t, depth + 1).map_err(|e| e.in_index(i))?);
        }
        if out.len() != types.len() {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                format!(
                    "expected a tuple of {} elements, found {}",
                    types.len(),
                    out.len()
                ),
            )
            .at_offset(at));
        }
        Ok(Value::Tuple(out.into()))
    }

    fn map(
        &mut self,
        r: &mut Reader<'a>,
        element: &Type,
        depth: usize,
        at: usize,
    ) -> Result<Value> {
        r.begin_object()?;
        let mut entries: Vec<(Str, Value)> = Vec::new();
        while let Some(k) = r.next_key()? {
            let v = self
                .value(r, element, depth + 1)
                .map_err(|e| e.in_key(&k))?;
            entries.push((text::nfc(&k).into(), v));
        }
        // A repeated key keeps its last value, as in go-cty.
        sort_dedup_last(&mut entries);
        if element.has_dynamic() {
            let common = common_type(entries.iter().map(|(_, v)| v), element, |i| {
                PathStep::Key(entries[i].0.to_string())
            })
            .map_err(|e| e.at_offset(at))?;
            type_dynamic_elements(entries.iter_mut().map(|(_, v)| v), element, &common);
        }
        Ok(Value::Map(Map::from_sorted(entries.into())))
    }

    /// An object, its attributes decoded into their slots (out of line, which keeps
    /// `value_into` small).
    #[inline(never)]
    fn object<S: Sink>(
        &mut self,
        r: &mut Reader<'a>,
        ty: &ObjectType,
        depth: usize,
        at: usize,
        put: S,
    ) -> Result<S::Output> {
        r.begin_object()?;
        let names = ty.names();
        let types = ty.types();
        // go-cty writes every attribute, in name order: while the keys are the names in
        // order, values are stored in order with no lookups.
        let mut values = nulls(ty.len());
        // Members that name an attribute (a repeated one counts each time); while they
        // come in order, also the index of the next one.
        let mut given = 0;
        let mut next = r.next_key_at()?;
        while let Some((k, _)) = &next {
            let i = given;
            match names.as_slice().get(i) {
                Some(name) if **name == **k => {}
                _ => break,
            }
            self.value_into(r, &types[i], depth + 1, &mut values[i])
                .map_err(|e| e.in_attribute(k))?;
            given += 1;
            next = r.next_key_at()?;
        }
        while let Some((k, key_at)) = next {
            match names.index_of(&k) {
                Some(i) => {
                    values[i] = self
                        .value(r, &types[i], depth + 1)
                        .map_err(|e| e.in_attribute(&k))?;
                    given += 1;
                }
                None if self.options.ignore_undefined_attributes => r.skip_value()?,
                None => {
                    return Err(Error::new(ErrorKind::InvalidValue, "unsupported attribute")
                        .in_attribute(&k)
                        .at_offset(key_at))
                }
            }
            next = r.next_key_at()?;
        }
        self.left_out(ty.len(), given, at)?;
        Ok(put.put(Value::Object(Box::new(Object::from_parts(
            names.clone(),
            values,
        )))))
    }

    /// `{"value": ..., "type": ...}` in either order. The value may come first, so it is
    /// skipped and decoded once the type is known.
    fn dynamic(&mut self, r: &mut Reader<'a>, depth: usize, at: usize) -> Result<Value> {
        r.begin_object()?;
        let mut ty = None;
        let mut value_at = None;
        while let Some((k, key_at)) = r.next_key_at()? {
            r.peek_kind()?;
            let start = r.offset();
            match &*k {
                "type" => {
                    r.skip_value()?;
                    let text = &self.input[start..r.offset()];
                    ty = Some(self.types.parse(text).map_err(|e| {
                        Error::new(
                            e.kind(),
                            format!("invalid type in dynamic value: {}", e.message()),
                        )
                        .at_offset(start)
                    })?);
                }
                "value" => {
                    r.skip_value()?;
                    value_at = Some(start);
                }
                other => {
                    return Err(Error::new(
                        ErrorKind::InvalidValue,
                        format!(
                        "invalid key {other:?} in dynamic value: expected \"value\" or \"type\""
                    ),
                    )
                    .at_offset(key_at))
                }
            }
        }
        let missing = |what: &str| {
            Error::new(
                ErrorKind::InvalidValue,
                format!("missing {what:?} in dynamic value"),
            )
            .at_offset(at)
        };
        let ty = ty.ok_or_else(|| missing("type"))?;
        let start = value_at.ok_or_else(|| missing("value"))?;
        let mut inner = r.clone();
        inner.seek(start);
        let value = self.value(&mut inner, &ty, depth + 1)?;
        Ok(match ty {
            Type::Dynamic => value,
            ty if ty.has_dynamic() => {
                let (ty, value) = settle(value, &ty).map_err(|e| e.at_offset(start))?;
                Value::typed(ty, value)
            }
            ty => Value::typed(ty, value),
        })
    }
}

/// Checks that a collection of a `dynamic`-holding type has one element type, and
/// types its null and unknown `dynamic` elements as go-cty does.
fn settle_elements(elements: &mut [Value], element: &Type, at: usize) -> Result<()> {
    if element.has_dynamic() {
        let common = common_type(elements.iter(), element, |i| PathStep::Index(i as u64))
            .map_err(|e| e.at_offset(at))?;
        type_dynamic_elements(elements.iter_mut(), element, &common);
    }
    Ok(())
}

/// go-cty's `json.ImpliedType`: null is `dynamic`, arrays tuples, objects objects. A
/// repeated key is an error only when its values' types differ.
/// With `wrappers`, a `{"value": …, "type": …}` object whose type is valid type JSON and
/// whose value decodes with it is `dynamic`, and its path is recorded.
pub(crate) fn implied_type(input: &[u8], wrappers: Option<&mut Wrappers>) -> Result<Type> {
    let mut r = Reader::new(input);
    implied(&mut r, 0, wrappers)
        .and_then(|t| r.finish().map(|()| t))
        .map_err(|e| with_line_column(e, input))
}

fn implied(r: &mut Reader<'_>, depth: usize, mut wrappers: Option<&mut Wrappers>) -> Result<Type> {
    let kind = r.peek_kind()?;
    let at = r.offset();
    if depth > MAX_DEPTH {
        return Err(crate::limits::depth_exceeded("value").at_offset(at));
    }
    Ok(match kind {
        Kind::Null => {
            r.read_null()?;
            Type::Dynamic
        }
        Kind::Bool => {
            r.read_bool()?;
            Type::Bool
        }
        Kind::Number => {
            r.read_number()?;
            Type::Number
        }
        Kind::String => {
            r.read_string()?;
            Type::String
        }
        Kind::Array => {
            r.begin_array()?;
            let mut types = Vec::new();
            while r.next_element()? {
                let i = types.len();
                types.push(below(
                    &mut wrappers,
                    || PathStep::Index(i as u64),
                    |w| implied(r, depth + 1, w),
                )?);
            }
            Type::tuple(types)
        }
        Kind::Object => {
            if let Some(w) = wrappers.as_deref_mut() {
                if let Some(after) = wrapper(r, depth) {
                    *r = after;
                    w.found_here();
                    return Ok(Type::Dynamic);
                }
            }
            r.begin_object()?;
            let mut attrs: std::collections::HashMap<String, Type> = Default::default();
            while let Some((k, key_at)) = r.next_key_at()? {
                let t = below(
                    &mut wrappers,
                    || PathStep::Attribute(k.to_string()),
                    |w| implied(r, depth + 1, w),
                )?;
                match attrs.get(&*k) {
                    Some(prev) if *prev != t => {
                        return Err(Error::new(
                            ErrorKind::InvalidValue,
                            format!(
                                "duplicate {k:?} property in JSON object with a different type"
                            ),
                        )
                        .at_offset(key_at))
                    }
                    Some(_) => {}
                    None => {
                        attrs.insert(k.into_owned(), t);
                    }
                }
            }
            Type::object(attrs)
        }
    })
}

/// The reader past the object at `r`, when it is a dynamic value's wrapper: exactly the
/// members `"type"` and `"value"`, in either order, the type valid type JSON and the
/// value one that decodes with it. `None` for any other object, and for any error,
/// which reading the object as an object then reports.
fn wrapper<'a>(r: &Reader<'a>, depth: usize) -> Option<Reader<'a>> {
    let mut after = r.clone();
    after.begin_object().ok()?;
    let (mut type_json, mut value_at) = (None, None);
    while let Some(k) = after.next_key().ok()? {
        match &*k {
            "type" if type_json.is_none() => type_json = Some(after.raw_value().ok()?),
            "value" if value_at.is_none() => {
                after.skip_whitespace();
                value_at = Some(after.offset());
                after.skip_value().ok()?;
            }
            _ => return None,
        }
    }
    let ty = Type::from_json_bytes(type_json?).ok()?;
    let mut value = r.clone();
    value.seek(value_at?);
    let options = DecodeOptions::default();
    let mut d = Decoder {
        input: r.input(),
        options: &options,
        types: TypeJsonCache::default(),
        implicit_budget: crate::limits::implicit_value_budget(r.input().len()),
        scratch: Vec::new(),
    };
    d.value(&mut value, &ty, depth + 1).ok()?;
    Some(after)
}

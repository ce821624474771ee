//! Terraform type expressions: the syntax of a `variable` block's `type` argument
//! (`list(string)`, `map(object({a=string, b=optional(number)}))`, `any`).

use std::str::FromStr;
use std::sync::Arc;

use crate::error::{Error, ErrorKind, Result};
use crate::limits::MAX_DEPTH;
use crate::text::{is_identifier, is_identifier_continue, is_identifier_start, nfc};
use crate::token::json_read::describe_at;
use crate::types::{ObjectType, Type};

impl Type {
    /// Parses a Terraform type expression, as written in a `variable` block's `type`.
    ///
    /// - `bool`, `number`, `string`, and `any` (the dynamic pseudo-type);
    /// - `list(T)`, `set(T)`, `map(T)`, `tuple([T, ...])`;
    /// - `object({name = T, ...})`: attributes separated by commas and/or newlines, a
    ///   trailing comma allowed; a name is an identifier (letters, digits, `_` and `-`,
    ///   not starting with a digit or `-`) or a double-quoted string; `:` may stand for
    ///   `=` as in HCL;
    /// - `optional(T)` as an object attribute's type marks the attribute optional.
    ///   Default values (`optional(T, default)`) are not supported.
    ///
    /// Whitespace, newlines and comments (`#`, `//`, `/* */`) may appear between tokens.
    /// Keywords are case-sensitive. Errors carry the byte offset of the problem.
    ///
    /// ```
    /// use ctywire::Type;
    ///
    /// let ty = Type::parse_expr(
    ///     "map(object({
    ///         name = string
    ///         size = optional(number)
    ///     }))",
    /// )?;
    /// assert_eq!(ty.to_expr(), "map(object({name=string,size=optional(number)}))");
    /// assert_eq!(
    ///     ty.to_json(),
    ///     r#"["map",["object",{"name":"string","size":"number"},["size"]]]"#
    /// );
    ///
    /// let err = Type::parse_expr("list(strin)").unwrap_err();
    /// assert_eq!(err.to_string(), "unknown type `strin` at byte 5");
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn parse_expr(text: &str) -> Result<Type> {
        let mut parser = Parser { text, pos: 0 };
        let ty = parser.parse_type()?;
        parser.skip_space()?;
        if parser.pos < text.len() {
            return Err(parser.expected("end of the type expression"));
        }
        Ok(ty)
    }

    /// The type as a compact Terraform type expression: `list(string)`, `any`,
    /// `object({a=string,b=optional(number)})`, `tuple([string,number])`. Attribute
    /// names that are not identifiers are quoted.
    ///
    /// ```
    /// use ctywire::Type;
    ///
    /// let ty = Type::object([("name", Type::String), ("a b", Type::list(Type::Dynamic))]);
    /// assert_eq!(ty.to_expr(), r#"object({"a b"=list(any),name=string})"#);
    /// assert_eq!(Type::parse_expr(&ty.to_expr())?, ty);
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn to_expr(&self) -> String {
        let mut out = String::new();
        write_expr(self, &mut out);
        out
    }
}

/// Parses either type JSON (when the first non-whitespace character is `"` or `[`) or a
/// type expression, as the command line's `--type` does.
///
/// ```
/// use ctywire::Type;
///
/// let from_expr: Type = "list(string)".parse()?;
/// let from_json: Type = r#"["list","string"]"#.parse()?;
/// assert_eq!(from_expr, from_json);
/// # Ok::<(), ctywire::Error>(())
/// ```
impl FromStr for Type {
    type Err = Error;

    fn from_str(s: &str) -> Result<Type> {
        match s.trim_start().as_bytes().first() {
            Some(b'"' | b'[') => Type::from_json(s),
            _ => Type::parse_expr(s),
        }
    }
}

fn write_expr(ty: &Type, out: &mut String) {
    match ty {
        Type::Bool => out.push_str("bool"),
        Type::Number => out.push_str("number"),
        Type::String => out.push_str("string"),
        Type::Dynamic => out.push_str("any"),
        Type::List(e) => write_call(out, "list", e),
        Type::Set(e) => write_call(out, "set", e),
        Type::Map(e) => write_call(out, "map", e),
        Type::Tuple(elements) => {
            out.push_str("tuple([");
            for (i, e) in elements.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_expr(e, out);
            }
            out.push_str("])");
        }
        Type::Object(object) => {
            out.push_str("object({");
            for (i, (name, ty, optional)) in object.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if is_identifier(name) {
                    out.push_str(name);
                } else {
                    crate::text::write_hcl_quoted(out, name);
                }
                out.push('=');
                if optional {
                    write_call(out, "optional", ty);
                } else {
                    write_expr(ty, out);
                }
            }
            out.push_str("})");
        }
    }
}

fn write_call(out: &mut String, name: &str, argument: &Type) {
    out.push_str(name);
    out.push('(');
    write_expr(argument, out);
    out.push(')');
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

/// A type constructor whose parts are being read (see [`Parser::parse_type`]).
enum Frame {
    /// `list(`, `set(`, `map(` or `optional(`: waiting for the argument.
    Call(Call),
    /// `tuple([`: the element types read so far.
    Tuple(Vec<Type>),
    /// `object({`: the attributes read so far, and the name of the attribute whose
    /// type is next.
    Object {
        attributes: Vec<(String, Type, bool)>,
        name: String,
    },
}

/// A constructor with a single type argument.
#[derive(Clone, Copy)]
enum Call {
    List,
    Set,
    Map,
    Optional,
}

impl Call {
    fn name(self) -> &'static str {
        match self {
            Call::List => "list",
            Call::Set => "set",
            Call::Map => "map",
            Call::Optional => "optional",
        }
    }
}

/// What the start of a type gave: a whole type, or a frame whose parts come next.
enum Start {
    Done(Type),
    Open(Frame),
}

fn syntax(message: impl Into<String>, offset: usize) -> Error {
    Error::new(ErrorKind::Syntax, message).at_offset(offset)
}

impl<'a> Parser<'a> {
    /// Skips whitespace and comments; returns whether a line break was crossed.
    fn skip_space(&mut self) -> Result<bool> {
        let bytes = self.text.as_bytes();
        let mut newline = false;
        loop {
            match bytes.get(self.pos) {
                Some(b' ' | b'\t' | b'\r') => self.pos += 1,
                Some(b'\n') => {
                    newline = true;
                    self.pos += 1;
                }
                Some(b'#') => self.skip_line_comment(),
                Some(b'/') if bytes.get(self.pos + 1) == Some(&b'/') => self.skip_line_comment(),
                Some(b'/') if bytes.get(self.pos + 1) == Some(&b'*') => {
                    let start = self.pos;
                    match self.text[self.pos + 2..].find("*/") {
                        Some(n) => self.pos += 2 + n + 2,
                        None => return Err(Error::eof("`*/` to end the comment").at_offset(start)),
                    }
                }
                _ => return Ok(newline),
            }
        }
    }

    /// Skips to the end of the line (leaving the line break for `skip_space`).
    fn skip_line_comment(&mut self) {
        self.pos = self.text[self.pos..]
            .find('\n')
            .map_or(self.text.len(), |n| self.pos + n);
    }

    /// The next byte after whitespace and comments.
    fn peek(&mut self) -> Result<Option<u8>> {
        self.skip_space()?;
        Ok(self.text.as_bytes().get(self.pos).copied())
    }

    /// "expected {what}, found {next}" at the current position.
    fn expected(&self, what: &str) -> Error {
        if self.pos >= self.text.len() {
            Error::eof(what).at_offset(self.pos)
        } else {
            syntax(
                format!(
                    "expected {what}, found {}",
                    describe_at(self.text.as_bytes(), self.pos)
                ),
                self.pos,
            )
        }
    }

    /// Consumes `token` (after whitespace), or fails with "expected {what}, found ...".
    fn expect(&mut self, token: u8, what: &str) -> Result<()> {
        if self.peek()? == Some(token) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.expected(what))
        }
    }

    /// Reads an identifier at the current position, if one starts here.
    fn identifier(&mut self) -> Option<&'a str> {
        let rest = &self.text[self.pos..];
        let mut chars = rest.char_indices();
        if !chars.next().is_some_and(|(_, c)| is_identifier_start(c)) {
            return None;
        }
        let len = chars
            .find(|&(_, c)| !is_identifier_continue(c))
            .map_or(rest.len(), |(i, _)| i);
        self.pos += len;
        Some(&rest[..len])
    }

    /// Parses one type. Nested types are kept on an explicit stack instead of recursing,
    /// so that deep nesting costs no call stack; more than [`MAX_DEPTH`] levels is an
    /// error.
    fn parse_type(&mut self) -> Result<Type> {
        let mut stack: Vec<Frame> = Vec::new();
        loop {
            // Only the type of an object attribute may be `optional(...)`.
            let attribute = matches!(stack.last(), Some(Frame::Object { .. }));
            let (mut ty, mut optional) = match self.start_type(stack.len(), attribute)? {
                Start::Done(ty) => (ty, false),
                Start::Open(frame) => {
                    stack.push(frame);
                    continue;
                }
            };
            // `ty` is complete: hand it to the enclosing frames, closing those it completes.
            loop {
                match stack.last_mut() {
                    None => return Ok(ty),
                    Some(Frame::Call(call)) => {
                        let call = *call;
                        self.close_call(call)?;
                        (ty, optional) = match call {
                            Call::List => (Type::list(ty), false),
                            Call::Set => (Type::set(ty), false),
                            Call::Map => (Type::map(ty), false),
                            Call::Optional => (ty, true),
                        };
                    }
                    Some(Frame::Tuple(elements)) => {
                        elements.push(ty);
                        match self.peek()? {
                            Some(b',') => {
                                self.pos += 1;
                                if self.peek()? != Some(b']') {
                                    break;
                                }
                                self.pos += 1;
                            }
                            Some(b']') => self.pos += 1,
                            _ => return Err(self.expected("`,` or `]`")),
                        }
                        let elements = std::mem::take(elements);
                        self.expect(b')', "`)` to close `tuple(`")?;
                        (ty, optional) = (Type::tuple(elements), false);
                    }
                    Some(Frame::Object { attributes, name }) => {
                        // A repeated name keeps its last type, as in Terraform:
                        // `ObjectType::new` keeps the last of equal names, in
                        // O(n log n), where dropping the earlier one here was a scan
                        // per attribute (quadratic in the attribute count).
                        attributes.push((std::mem::take(name), ty, optional));
                        let newline = self.skip_space()?;
                        match self.text.as_bytes().get(self.pos) {
                            Some(b',') => self.pos += 1,
                            Some(b'}') => {}
                            _ if newline => {}
                            _ => {
                                return Err(
                                    self.expected("`,`, a line break or `}` after an attribute")
                                )
                            }
                        }
                        if let Some(next) = self.object_member()? {
                            *name = next;
                            break;
                        }
                        let attributes = std::mem::take(attributes);
                        self.expect(b')', "`)` to close `object(`")?;
                        ty = Type::Object(Arc::new(ObjectType::new(attributes)));
                        optional = false;
                    }
                }
                stack.pop();
            }
        }
    }

    /// Reads the start of a type: a primitive type, or a constructor up to its first
    /// nested type. `depth` is the number of enclosing constructors; `attribute` says
    /// whether this is the type of an object attribute.
    fn start_type(&mut self, depth: usize, attribute: bool) -> Result<Start> {
        self.skip_space()?;
        let at = self.pos;
        let Some(word) = self.identifier() else {
            return Err(self.expected("a type"));
        };
        let call = match word {
            "bool" => return self.primitive(Type::Bool, word),
            "number" => return self.primitive(Type::Number, word),
            "string" => return self.primitive(Type::String, word),
            "any" => return self.primitive(Type::Dynamic, word),
            "list" => Some(Call::List),
            "set" => Some(Call::Set),
            "map" => Some(Call::Map),
            "optional" if attribute => Some(Call::Optional),
            "tuple" | "object" => None,
            "optional" => {
                return Err(syntax(
                    "`optional` is only allowed for object attributes",
                    at,
                ))
            }
            "dynamic" => {
                return Err(syntax(
                    "unknown type `dynamic` (the dynamic pseudo-type is written `any`)",
                    at,
                ))
            }
            _ => return Err(syntax(format!("unknown type `{word}`"), at)),
        };
        if depth >= MAX_DEPTH {
            return Err(crate::limits::depth_exceeded("type").at_offset(at));
        }
        self.expect(b'(', &format!("`(` after `{word}`"))?;
        if let Some(call) = call {
            return Ok(Start::Open(Frame::Call(call)));
        }
        if word == "tuple" {
            self.expect(b'[', "`[` after `tuple(`")?;
            if self.peek()? != Some(b']') {
                return Ok(Start::Open(Frame::Tuple(Vec::new())));
            }
            self.pos += 1;
            self.expect(b')', "`)` to close `tuple(`")?;
            return Ok(Start::Done(Type::empty_tuple()));
        }
        self.expect(b'{', "`{` after `object(`")?;
        if let Some(name) = self.object_member()? {
            return Ok(Start::Open(Frame::Object {
                attributes: Vec::new(),
                name,
            }));
        }
        self.expect(b')', "`)` to close `object(`")?;
        Ok(Start::Done(Type::empty_object()))
    }

    /// Finishes a primitive type: it must not be followed by arguments.
    fn primitive(&mut self, ty: Type, word: &str) -> Result<Start> {
        // Look ahead without consuming: a line break after an attribute's type matters.
        let end = self.pos;
        if self.peek()? == Some(b'(') {
            return Err(syntax(
                format!("`{word}` is a primitive type and takes no arguments"),
                self.pos,
            ));
        }
        self.pos = end;
        Ok(Start::Done(ty))
    }

    /// Reads the `)` that closes `call`'s single argument.
    fn close_call(&mut self, call: Call) -> Result<()> {
        if self.peek()? == Some(b',') {
            let message = match call {
                Call::Optional => "default values in `optional` are not supported".to_owned(),
                _ => format!("`{}` takes exactly one argument", call.name()),
            };
            return Err(syntax(message, self.pos));
        }
        self.expect(b')', &format!("`)` to close `{}(`", call.name()))
    }

    /// Reads the start of an object attribute, `name =`, returning the NFC name; or
    /// consumes `}` and returns `None`.
    fn object_member(&mut self) -> Result<Option<String>> {
        if self.peek()? == Some(b'}') {
            self.pos += 1;
            return Ok(None);
        }
        let name = if self.text.as_bytes().get(self.pos) == Some(&b'"') {
            self.quoted()?
        } else if let Some(name) = self.identifier() {
            name.to_owned()
        } else {
            return Err(self.expected("an attribute name or `}`"));
        };
        let name = nfc(&name).into_owned();
        match self.peek()? {
            Some(b'=' | b':') => self.pos += 1,
            _ => return Err(self.expected(&format!("`=` after attribute name `{name}`"))),
        }
        Ok(Some(name))
    }

    /// Reads a double-quoted attribute name at the current position.
    fn quoted(&mut self) -> Result<String> {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        let mut out = String::new();
        let mut i = start + 1;
        loop {
            let Some(c) = self.text[i..].chars().next() else {
                return Err(Error::eof("`\"` to end the attribute name").at_offset(i));
            };
            match c {
                '"' => {
                    self.pos = i + 1;
                    return Ok(out);
                }
                '\n' => {
                    return Err(syntax(
                        "expected `\"` to end the attribute name, found a line break",
                        i,
                    ))
                }
                '$' | '%' if bytes.get(i + 1) == Some(&b'{') => {
                    return Err(syntax(
                        format!(
                            "template sequences are not allowed in an attribute name \
                             (write `{c}{c}{{` for a literal `{c}{{`)"
                        ),
                        i,
                    ))
                }
                '$' | '%'
                    if bytes.get(i + 1) == Some(&(c as u8)) && bytes.get(i + 2) == Some(&b'{') =>
                {
                    out.push(c);
                    out.push('{');
                    i += 3;
                }
                '\\' => {
                    let (c, len) = self.escape(i)?;
                    out.push(c);
                    i += len;
                }
                c => {
                    out.push(c);
                    i += c.len_utf8();
                }
            }
        }
    }

    /// Decodes the escape whose backslash is at `i`: the character and the escape's
    /// length in bytes.
    fn escape(&self, i: usize) -> Result<(char, usize)> {
        let bytes = self.text.as_bytes();
        let simple = match bytes.get(i + 1) {
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(&u @ (b'u' | b'U')) => {
                let digits = if u == b'u' { 4 } else { 8 };
                let hex = self
                    .text
                    .get(i + 2..i + 2 + digits)
                    .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
                let c = hex
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .and_then(char::from_u32);
                return match c {
                    Some(c) => Ok((c, 2 + digits)),
                    None => Err(syntax(
                        format!(
                            "invalid escape in attribute name: `\\{}` needs {digits} hex \
                             digits naming a Unicode scalar value",
                            char::from(u)
                        ),
                        i,
                    )),
                };
            }
            None => return Err(Error::eof("an escape character after `\\`").at_offset(i + 1)),
            Some(_) => {
                return Err(syntax(
                    format!(
                        "invalid escape in attribute name: `\\` followed by {}",
                        describe_at(bytes, i + 1)
                    ),
                    i,
                ))
            }
        };
        Ok((simple, 2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    fn obj(attrs: &[(&str, Type)]) -> Type {
        Type::object(attrs.iter().cloned())
    }

    fn err(text: &str) -> (ErrorKind, String, usize) {
        let e = Type::parse_expr(text).expect_err(text);
        match e.position() {
            Some(Position::Offset(o)) => (e.kind(), e.message().to_owned(), o),
            other => panic!("no offset in {e:?}: {other:?}"),
        }
    }

    #[test]
    fn doc_example_of_the_type_module() {
        let ty = Type::list(Type::object([
            ("name", Type::String),
            ("size", Type::Number),
        ]));
        assert_eq!(
            ty.to_json(),
            r#"["list",["object",{"name":"string","size":"number"}]]"#
        );
        assert_eq!(ty.to_expr(), "list(object({name=string,size=number}))");
        let ty = Type::object_with_optional([("a", Type::String), ("b", Type::Number)], ["b"]);
        assert_eq!(ty.to_expr(), "object({a=string,b=optional(number)})");
        assert_eq!(format!("{ty}"), "object({a=string,b=optional(number)})");
        assert_eq!(format!("{ty:?}"), "object({a=string,b=optional(number)})");
    }

    #[test]
    fn printing_and_round_trips() {
        let cases: Vec<(Type, &str)> = vec![
            (Type::Bool, "bool"),
            (Type::Number, "number"),
            (Type::String, "string"),
            (Type::Dynamic, "any"),
            (Type::list(Type::String), "list(string)"),
            (Type::set(Type::Number), "set(number)"),
            (Type::map(Type::Dynamic), "map(any)"),
            (Type::empty_tuple(), "tuple([])"),
            (Type::empty_object(), "object({})"),
            (
                Type::tuple([Type::String, Type::Number]),
                "tuple([string,number])",
            ),
            (
                Type::map(Type::object_with_optional(
                    [("a", Type::String), ("b", Type::Number)],
                    ["b"],
                )),
                "map(object({a=string,b=optional(number)}))",
            ),
            (
                obj(&[
                    ("with-dash", Type::Bool),
                    ("_under", Type::Bool),
                    ("caf\u{e9}", Type::Bool),
                    ("x1", Type::Bool),
                ]),
                "object({_under=bool,caf\u{e9}=bool,with-dash=bool,x1=bool})",
            ),
            (
                obj(&[
                    ("", Type::Bool),
                    ("1st", Type::Bool),
                    ("-x", Type::Bool),
                    ("a b", Type::Bool),
                    ("q\"\\\n\r\t\u{1}", Type::Bool),
                    ("${x}%{y}$z", Type::Bool),
                ]),
                r#"object({""=bool,"$${x}%%{y}$z"=bool,"-x"=bool,"1st"=bool,"a b"=bool,"q\"\\\n\r\t\u0001"=bool})"#,
            ),
            (
                Type::list(Type::tuple([
                    Type::set(Type::map(Type::Bool)),
                    Type::object_with_optional(
                        [
                            ("x", Type::list(Type::empty_object())),
                            ("y", Type::tuple([Type::Dynamic])),
                        ],
                        ["x", "y"],
                    ),
                ])),
                "list(tuple([set(map(bool)),object({x=optional(list(object({}))),y=optional(tuple([any]))})]))",
            ),
        ];
        for (ty, expr) in cases {
            assert_eq!(ty.to_expr(), expr);
            assert_eq!(Type::parse_expr(expr).unwrap(), ty, "{expr}");
            assert_eq!(expr.parse::<Type>().unwrap(), ty, "{expr}");
            let json = ty.to_json();
            assert_eq!(json.parse::<Type>().unwrap(), ty, "{json}");
        }
    }

    #[test]
    fn terraform_style_input() {
        let cases: Vec<(&str, Type)> = vec![
            (" list( string ) ", Type::list(Type::String)),
            ("\n\tmap(\n  any\n)\n", Type::map(Type::Dynamic)),
            (
                "tuple([string, number, ])",
                Type::tuple([Type::String, Type::Number]),
            ),
            ("tuple([\n  string,\n  bool\n])", Type::tuple([Type::String, Type::Bool])),
            ("object({ })", Type::empty_object()),
            (
                "object({a = string, b = number,})",
                obj(&[("a", Type::String), ("b", Type::Number)]),
            ),
            (
                "object({\n  a = string\n  b = number\n\n  c = bool,\n  d = any })",
                obj(&[
                    ("a", Type::String),
                    ("b", Type::Number),
                    ("c", Type::Bool),
                    ("d", Type::Dynamic),
                ]),
            ),
            (
                "object({\"a b\" = string, \"c\\u00e9\": bool, \"\\U0001F600\"=number})",
                obj(&[
                    ("a b", Type::String),
                    ("c\u{e9}", Type::Bool),
                    ("\u{1f600}", Type::Number),
                ]),
            ),
            (
                "object({ name = string # the name\n  // a comment\n  size /* inline */ = optional( number ) })",
                Type::object_with_optional([("name", Type::String), ("size", Type::Number)], ["size"]),
            ),
            // Attribute names are NFC-normalized.
            ("object({\"cafe\u{301}\" = bool})", obj(&[("caf\u{e9}", Type::Bool)])),
            // Keywords are fine as attribute names.
            (
                "object({optional = string, list = bool, object = number})",
                obj(&[("optional", Type::String), ("list", Type::Bool), ("object", Type::Number)]),
            ),
        ];
        for (expr, ty) in cases {
            assert_eq!(Type::parse_expr(expr).unwrap(), ty, "{expr}");
        }
    }

    #[test]
    fn from_str_takes_either_form() {
        assert_eq!(
            "  [\"map\", \"bool\"]".parse::<Type>().unwrap(),
            Type::map(Type::Bool)
        );
        assert_eq!("\"dynamic\"".parse::<Type>().unwrap(), Type::Dynamic);
        assert_eq!("any".parse::<Type>().unwrap(), Type::Dynamic);
        assert_eq!(
            "\"any\"".parse::<Type>().unwrap_err().message(),
            "invalid primitive type name \"any\""
        );
        assert_eq!(
            "dynamic".parse::<Type>().unwrap_err().message(),
            "unknown type `dynamic` (the dynamic pseudo-type is written `any`)"
        );
    }

    #[test]
    fn errors() {
        use ErrorKind::*;
        let cases: &[(&str, ErrorKind, &str, usize)] = &[
            ("strin", Syntax, "unknown type `strin`", 0),
            ("list(strin)", Syntax, "unknown type `strin`", 5),
            ("String", Syntax, "unknown type `String`", 0),
            ("", UnexpectedEof, "expected a type, found end of input", 0),
            ("  # only a comment", UnexpectedEof, "expected a type, found end of input", 18),
            ("(string)", Syntax, "expected a type, found `(`", 0),
            ("list", UnexpectedEof, "expected `(` after `list`, found end of input", 4),
            ("list string", Syntax, "expected `(` after `list`, found `s`", 5),
            ("list()", Syntax, "expected a type, found `)`", 5),
            ("list(string", UnexpectedEof, "expected `)` to close `list(`, found end of input", 11),
            ("map(string, number)", Syntax, "`map` takes exactly one argument", 10),
            ("string(x)", Syntax, "`string` is a primitive type and takes no arguments", 6),
            ("string string", Syntax, "expected end of the type expression, found `s`", 7),
            ("list(string))", Syntax, "expected end of the type expression, found `)`", 12),
            ("tuple(string)", Syntax, "expected `[` after `tuple(`, found `s`", 6),
            ("tuple([string number])", Syntax, "expected `,` or `]`, found `n`", 14),
            ("tuple([string,,])", Syntax, "expected a type, found `,`", 14),
            ("object(string)", Syntax, "expected `{` after `object(`, found `s`", 7),
            ("object({a})", Syntax, "expected `=` after attribute name `a`, found `}`", 9),
            ("object({a = })", Syntax, "expected a type, found `}`", 12),
            (
                "object({a = string b = number})",
                Syntax,
                "expected `,`, a line break or `}` after an attribute, found `b`",
                19,
            ),
            ("object({a = string,, b = number})", Syntax, "expected an attribute name or `}`, found `,`", 19),
            ("object({1a = string})", Syntax, "expected an attribute name or `}`, found `1`", 8),
            ("optional(string)", Syntax, "`optional` is only allowed for object attributes", 0),
            ("list(optional(string))", Syntax, "`optional` is only allowed for object attributes", 5),
            (
                "object({a = list(optional(string))})",
                Syntax,
                "`optional` is only allowed for object attributes",
                17,
            ),
            (
                "object({a = optional(optional(string))})",
                Syntax,
                "`optional` is only allowed for object attributes",
                21,
            ),
            (
                "object({a = optional(string, \"x\")})",
                Syntax,
                "default values in `optional` are not supported",
                27,
            ),
            (
                "object({\"a = string})",
                UnexpectedEof,
                "expected `\"` to end the attribute name, found end of input",
                21,
            ),
            (
                "object({\"a\nb\" = string})",
                Syntax,
                "expected `\"` to end the attribute name, found a line break",
                10,
            ),
            (
                "object({\"${a}\" = string})",
                Syntax,
                "template sequences are not allowed in an attribute name (write `$${` for a literal `${`)",
                9,
            ),
            (
                "object({\"\\q\" = string})",
                Syntax,
                "invalid escape in attribute name: `\\` followed by `q`",
                9,
            ),
            (
                "object({\"\\ud800\" = string})",
                Syntax,
                "invalid escape in attribute name: `\\u` needs 4 hex digits naming a Unicode scalar value",
                9,
            ),
            ("list(/* open", UnexpectedEof, "expected `*/` to end the comment, found end of input", 5),
            ("Any", Syntax, "unknown type `Any`", 0),
        ];
        for &(expr, kind, message, offset) in cases {
            assert_eq!(err(expr), (kind, message.to_owned(), offset), "{expr}");
        }
    }

    #[test]
    fn nesting_is_bounded() {
        let ok = format!(
            "{}string{}",
            "list(".repeat(MAX_DEPTH),
            ")".repeat(MAX_DEPTH)
        );
        assert_eq!(Type::parse_expr(&ok).unwrap().to_expr(), ok);
        let deep = format!(
            "{}string{}",
            "list(".repeat(MAX_DEPTH + 1),
            ")".repeat(MAX_DEPTH + 1)
        );
        let (kind, _, offset) = err(&deep);
        assert_eq!((kind, offset), (ErrorKind::LimitExceeded, MAX_DEPTH * 5));
        let deep_objects = "object({a=".repeat(100_000);
        assert_eq!(err(&deep_objects).0, ErrorKind::LimitExceeded);
        let deep_tuples = "tuple([".repeat(100_000);
        assert_eq!(err(&deep_tuples).0, ErrorKind::LimitExceeded);
    }

    #[test]
    fn truncation_is_an_error_not_a_panic() {
        let expr = "object({a=list(tuple([string,number])), \"b \\\" c\"=optional(map(any)) # x\n c\u{e9}=set(bool)})";
        let full = Type::parse_expr(expr).unwrap();
        for (end, _) in expr.char_indices() {
            assert!(
                Type::parse_expr(&expr[..end]).is_err(),
                "{:?} parsed",
                &expr[..end]
            );
        }
        assert_eq!(Type::parse_expr(&full.to_expr()).unwrap(), full);
    }
}

//! HCL's native syntax inside JSON strings: templates (`"web-${var.env}"`) and the
//! expressions in their interpolations.
//!
//! In HCL's JSON syntax a string evaluated as an expression is a *template* in the
//! native syntax: literal text, `${ EXPR }` interpolations, `%{ if }` / `%{ for }`
//! directives, `$${` and `%%{` for a literal `${` and `%{`, and the `~` strip markers
//! that trim the whitespace next to them. JSON escapes were undone when the JSON was
//! read; a template read this way has no backslash escapes of its own (strings quoted
//! inside an interpolation do).
//!
//! The whole expression grammar is parsed, so that a malformed expression is reported
//! as Terraform reports it; [`super::eval`] evaluates what it can.

use crate::text::go_quote;

/// A parsed template.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Template {
    pub(crate) parts: Vec<Part>,
    /// The template is one interpolation and nothing else: its value is that
    /// expression's, unconverted (HCL's "template interpolation unwrapping").
    pub(crate) unwrap: bool,
}

/// A piece of a template.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Part {
    Literal(String),
    /// `${ EXPR }`, with the byte offset of the expression in the template text.
    Interpolation(Expr, usize),
    If {
        condition: Expr,
        then: Vec<Part>,
        otherwise: Vec<Part>,
    },
    For {
        key: Option<String>,
        value: String,
        collection: Expr,
        body: Vec<Part>,
    },
}

/// An expression. What evaluation or a type expression may take apart is spelled out;
/// every other construct (operators, conditionals, `for` and splat expressions) is
/// [`Expr::Other`], parsed for its syntax and kept by kind.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Expr {
    /// A number literal, as written.
    Number(String),
    Bool(bool),
    Null,
    /// A quoted template or heredoc.
    Template(Template),
    /// A variable: `var`, `local`, an iterator name, `count`, ...
    Variable(String),
    /// `EXPR.name`, or the legacy `EXPR.0`.
    Attribute(Box<Expr>, String),
    /// `EXPR[KEY]`
    Index(Box<Expr>, Box<Expr>),
    /// `-EXPR`
    Negate(Box<Expr>),
    /// `[a, b]`
    Tuple(Vec<Expr>),
    /// `{k = v, ...}`: keys are expressions (a bare name is its own text).
    Object(Vec<(Expr, Expr)>),
    /// `( EXPR )`
    Parenthesized(Box<Expr>),
    /// `name(args...)`, the name with its `::` namespaces; not evaluated here, but a
    /// type expression is read from it.
    Call(String, Vec<Expr>),
    /// A construct that is not evaluated here, with the expressions inside it that are
    /// evaluated in the same scope (for their diagnostics): operands, a conditional's
    /// three parts, a splat's or `for`'s collection.
    Other(OtherKind, Vec<Expr>),
}

/// The kinds of [`Expr::Other`], for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OtherKind {
    Operator,
    Conditional,
    For,
    Splat,
}

/// A syntax error: HCL's summary and detail, and the byte offset in the template text.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SyntaxError {
    pub(crate) summary: &'static str,
    pub(crate) detail: String,
    pub(crate) at: usize,
}

type Parsed<T> = Result<T, SyntaxError>;

use crate::limits::MAX_EXPRESSION_DEPTH;

/// Parses `text` as a bare template, as HCL reads a JSON string.
pub(crate) fn parse_template(text: &str) -> Parsed<Template> {
    let mut p = Parser::new(text);
    let template = p.template(End::Eof)?;
    Ok(template)
}

/// Parses `text` as one expression (a variable's `type`, an `iterator`), whitespace
/// around it allowed.
pub(crate) fn parse_expression(text: &str) -> Parsed<Expr> {
    let mut p = Parser::new(text);
    let expr = p.expression()?;
    match p.peek()? {
        Token::Eof => Ok(expr),
        token => Err(p.error_at(
            "Extra characters after expression",
            format!(
                "An expression was successfully parsed, but extra characters were found after it: {}.",
                token.describe()
            ),
            p.token_start,
        )),
    }
}

pub(crate) use crate::text::is_identifier;
use crate::text::{is_identifier_continue, is_identifier_start};

/// How a template ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    /// At the end of the text (a bare template).
    Eof,
    /// At an unescaped `"` (a quoted template inside an expression).
    Quote,
}

/// A lexical token of an expression.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Ident(String),
    Number(String),
    /// Punctuation and operators, including `{`, `}` and `~}`.
    Punct(&'static str),
    /// `"`: a quoted template starts.
    Quote,
    /// `<<` or `<<-`: a heredoc starts.
    Heredoc,
    Newline,
    Eof,
    Invalid(char),
}

impl Token {
    fn describe(&self) -> String {
        match self {
            Token::Ident(name) => format!("name {}", go_quote(name)),
            Token::Number(text) => format!("number {text}"),
            Token::Punct(p) => format!("`{p}`"),
            Token::Quote => "a quoted string".into(),
            Token::Heredoc => "a heredoc".into(),
            Token::Newline => "a newline".into(),
            Token::Eof => "the end of the expression".into(),
            Token::Invalid(c) => format!("character {}", go_quote(&c.to_string())),
        }
    }
}

/// Operators, longest first so that `==` wins over `=`.
const PUNCTUATION: [&str; 33] = [
    "...", "==", "!=", ">=", "<=", "&&", "||", "::", "=>", "~}", "[", "]", "(", ")", "{", "}", ".",
    ",", "*", "/", "%", "+", "-", "=", "<", ">", "!", "?", ":", "~", "^", ";", "&",
];

/// A raw template piece before strip markers and directive nesting are resolved.
enum Raw {
    Literal(String),
    Interpolation(Expr, usize),
    If(Expr),
    Else,
    EndIf,
    For(Option<String>, String, Expr),
    EndFor,
}

struct RawPart {
    raw: Raw,
    /// Where the piece starts, for errors.
    at: usize,
    /// Where it ends.
    end: usize,
    /// `${~` / `%{~`: trim the whitespace at the end of the literal before.
    trim_before: bool,
    /// `~}`: trim the whitespace at the start of the literal after.
    trim_after: bool,
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    /// Where the last peeked token starts.
    token_start: usize,
    /// Whether newlines are tokens (inside an object constructor) or skipped.
    newlines: Vec<bool>,
    depth: usize,
    /// Where the innermost template being read starts.
    template_start: usize,
    /// How many quoted templates are open.
    quoted: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Parser<'a> {
        Parser {
            text,
            pos: 0,
            token_start: 0,
            newlines: vec![false],
            depth: 0,
            template_start: 0,
            quoted: 0,
        }
    }

    fn error_at(&self, summary: &'static str, detail: impl Into<String>, at: usize) -> SyntaxError {
        SyntaxError {
            summary,
            detail: detail.into(),
            at,
        }
    }

    fn enter(&mut self) -> Parsed<()> {
        self.depth += 1;
        if self.depth > MAX_EXPRESSION_DEPTH {
            return Err(self.error_at(
                "Expression too deeply nested",
                format!(
                    "The {}.",
                    crate::limits::nesting_message(
                        "expression",
                        MAX_EXPRESSION_DEPTH,
                        "MAX_EXPRESSION_DEPTH"
                    )
                ),
                self.pos,
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    // ---- templates ----

    /// Reads a template up to `end` (consuming a closing quote).
    fn template(&mut self, end: End) -> Parsed<Template> {
        self.enter()?;
        let start = self.pos;
        let outer_start = std::mem::replace(&mut self.template_start, start);
        if end == End::Quote {
            self.quoted += 1;
        }
        let mut raw: Vec<RawPart> = Vec::new();
        // `%{if}` and `%{for}` directives open and not yet closed: each is a level.
        let mut open_directives = 0usize;
        let mut literal = String::new();
        let mut literal_at = self.pos;
        loop {
            let rest = self.rest();
            let Some(c) = rest.chars().next() else {
                if end == End::Quote {
                    return Err(self.error_at(
                        "Unterminated template string",
                        "No closing marker was found for the string.",
                        start.saturating_sub(1),
                    ));
                }
                break;
            };
            match c {
                '"' if end == End::Quote => {
                    self.pos += 1;
                    break;
                }
                '\\' if end == End::Quote => {
                    let (ch, len) = self.escape()?;
                    literal.push_str(&ch);
                    self.pos += len;
                }
                '\n' | '\r' if end == End::Quote => {
                    return Err(self.error_at(
                        "Invalid multi-line string",
                        "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.",
                        self.pos,
                    ));
                }
                '$' | '%' => {
                    let doubled = if c == '$' { "$${" } else { "%%{" };
                    if rest.starts_with(doubled) {
                        literal.push(c);
                        literal.push('{');
                        self.pos += 3;
                    } else if rest[1..].starts_with('{') {
                        if !literal.is_empty() {
                            raw.push(RawPart {
                                raw: Raw::Literal(std::mem::take(&mut literal)),
                                at: literal_at,
                                end: self.pos,
                                trim_before: false,
                                trim_after: false,
                            });
                        }
                        let at = self.pos;
                        self.pos += 2;
                        let trim_before = self.rest().starts_with('~');
                        if trim_before {
                            self.pos += 1;
                        }
                        let (piece, trim_after) = if c == '$' {
                            self.interpolation()?
                        } else {
                            self.directive()?
                        };
                        match piece {
                            Raw::If(_) | Raw::For(..) => {
                                self.enter()?;
                                open_directives += 1;
                            }
                            Raw::EndIf | Raw::EndFor if open_directives > 0 => {
                                self.leave();
                                open_directives -= 1;
                            }
                            _ => {}
                        }
                        raw.push(RawPart {
                            raw: piece,
                            at,
                            end: self.pos,
                            trim_before,
                            trim_after,
                        });
                        literal_at = self.pos;
                    } else {
                        literal.push(c);
                        self.pos += 1;
                    }
                }
                c => {
                    literal.push(c);
                    self.pos += c.len_utf8();
                }
            }
        }
        if !literal.is_empty() {
            raw.push(RawPart {
                raw: Raw::Literal(literal),
                at: literal_at,
                end: self.pos,
                trim_before: false,
                trim_after: false,
            });
        }
        for _ in 0..open_directives {
            self.leave();
        }
        let unwrap = raw.len() == 1 && matches!(raw[0].raw, Raw::Interpolation(..));
        strip(&mut raw);
        let end_at = self.pos.saturating_sub(usize::from(end == End::Quote));
        let mut pieces = raw.into_iter();
        let (parts, _) = nest(&mut pieces, None, end_at)?;
        if end == End::Quote {
            self.quoted -= 1;
        }
        self.template_start = outer_start;
        self.leave();
        Ok(Template { parts, unwrap })
    }

    /// A backslash escape in a quoted template: the characters it stands for and its
    /// length.
    fn escape(&self) -> Parsed<(String, usize)> {
        let rest = &self.rest()[1..];
        let simple = match rest.chars().next() {
            Some('n') => Some('\n'),
            Some('r') => Some('\r'),
            Some('t') => Some('\t'),
            Some('"') => Some('"'),
            Some('\\') => Some('\\'),
            _ => None,
        };
        if let Some(c) = simple {
            return Ok((c.to_string(), 2));
        }
        let digits = match rest.chars().next() {
            Some('u') => 4,
            Some('U') => 8,
            Some(c) => {
                return Err(self.error_at(
                    "Invalid escape sequence",
                    format!(
                        "The symbol {} is not a valid escape sequence selector.",
                        go_quote(&c.to_string())
                    ),
                    self.pos,
                ))
            }
            None => {
                return Err(self.error_at(
                    "Invalid escape sequence",
                    "Backslash must be followed by an escape sequence selector character.",
                    self.pos,
                ))
            }
        };
        let hex = rest
            .get(1..1 + digits)
            .filter(|h| h.chars().all(|c| c.is_ascii_hexdigit()));
        let Some(hex) = hex else {
            return Err(self.error_at(
                "Invalid escape sequence",
                if digits == 4 {
                    "The \\u escape sequence must be followed by four hexadecimal digits."
                } else {
                    "The \\U escape sequence must be followed by eight hexadecimal digits."
                },
                self.pos,
            ));
        };
        let code = u32::from_str_radix(hex, 16).unwrap_or(u32::MAX);
        match char::from_u32(code) {
            Some(c) => Ok((c.to_string(), 2 + digits)),
            None => Err(self.error_at(
                "Invalid escape sequence",
                format!("Cannot encode character U+{code:04x} in UTF-8."),
                self.pos,
            )),
        }
    }

    /// After `${` (and `~`): the expression and the closing `}` or `~}`.
    fn interpolation(&mut self) -> Parsed<(Raw, bool)> {
        self.peek()?;
        let at = self.token_start;
        let expr = self.expression()?;
        let trim_after = self.close_sequence()?;
        Ok((Raw::Interpolation(expr, at), trim_after))
    }

    /// After `%{` (and `~`): a directive and its closing `}` or `~}`.
    fn directive(&mut self) -> Parsed<(Raw, bool)> {
        let keyword = match self.peek()? {
            Token::Ident(k) => k,
            _ => {
                return Err(self.error_at(
                    "Invalid template directive",
                    "A template directive keyword (\"if\", \"for\", etc) is expected at the beginning of a %{ sequence.",
                    self.token_start,
                ))
            }
        };
        self.next()?;
        let raw = match keyword.as_str() {
            "if" => Raw::If(self.expression()?),
            "else" => Raw::Else,
            "endif" => Raw::EndIf,
            "endfor" => Raw::EndFor,
            "for" => {
                let first =
                    self.for_variable("For directive requires variable name after 'for'.")?;
                let (key, value) = if self.peek()? == Token::Punct(",") {
                    self.next()?;
                    let value = self
                        .for_variable("For directive requires value variable name after comma.")?;
                    (Some(first), value)
                } else {
                    (None, first)
                };
                match self.peek()? {
                    Token::Ident(k) if k == "in" => {
                        self.next()?;
                    }
                    _ => {
                        return Err(self.error_at(
                            "Invalid 'for' directive",
                            "For directive requires 'in' keyword after names.",
                            self.token_start,
                        ))
                    }
                }
                Raw::For(key, value, self.expression()?)
            }
            other => {
                return Err(self.error_at(
                    "Invalid template control keyword",
                    format!(
                        "{} is not a valid template control keyword.",
                        go_quote(other)
                    ),
                    self.token_start,
                ))
            }
        };
        let trim_after = self.close_sequence()?;
        Ok((raw, trim_after))
    }

    fn for_variable(&mut self, detail: &'static str) -> Parsed<String> {
        match self.peek()? {
            Token::Ident(name) => {
                self.next()?;
                Ok(name)
            }
            _ => Err(self.error_at("Invalid 'for' directive", detail, self.token_start)),
        }
    }

    /// The `}` or `~}` that ends an interpolation or directive: whether it was `~}`.
    fn close_sequence(&mut self) -> Parsed<bool> {
        match self.peek()? {
            Token::Punct("}") => {
                self.next()?;
                Ok(false)
            }
            Token::Punct("~}") => {
                self.next()?;
                Ok(true)
            }
            Token::Eof => Err(self.error_at(
                "Unclosed template interpolation sequence",
                "There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression.",
                self.template_start,
            )),
            Token::Quote if self.quoted > 0 => Err(self.error_at(
                "Unclosed template interpolation sequence",
                "There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression.",
                self.template_start,
            )),
            Token::Punct(":") => Err(self.error_at(
                "Extra characters after interpolation expression",
                "Template interpolation doesn't expect a colon at this location. Did you intend this to be a literal sequence to be processed as part of another language? If so, you can escape it by starting with \"$${\" instead of just \"${\".",
                self.token_start,
            )),
            _ => Err(self.error_at(
                "Extra characters after interpolation expression",
                "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".",
                self.token_start,
            )),
        }
    }

    // ---- tokens ----

    /// Where the next token starts: past spaces, tabs, comments and (unless they are
    /// tokens here) newlines.
    fn trivia_end(&self) -> usize {
        let newlines = *self.newlines.last().unwrap_or(&false);
        let mut pos = self.pos;
        loop {
            let rest = &self.text[pos..];
            if let Some(c) = rest.chars().next() {
                if c == ' ' || c == '\t' || (!newlines && (c == '\n' || c == '\r')) {
                    pos += 1;
                    continue;
                }
            }
            if rest.starts_with('#') || rest.starts_with("//") {
                // A line comment ends at the newline, which stays (it may be a token).
                pos += rest.find('\n').unwrap_or(rest.len());
                continue;
            }
            if let Some(comment) = rest.strip_prefix("/*") {
                pos += comment.find("*/").map_or(rest.len(), |e| e + 4);
                continue;
            }
            return pos;
        }
    }

    /// The next token, not consumed; `token_start` is set to where it starts.
    fn peek(&mut self) -> Parsed<Token> {
        self.token_start = self.trivia_end();
        let rest = &self.text[self.token_start..];
        let Some(c) = rest.chars().next() else {
            return Ok(Token::Eof);
        };
        Ok(if c == '\n' || c == '\r' {
            Token::Newline
        } else if c == '"' {
            Token::Quote
        } else if rest.starts_with("<<") {
            Token::Heredoc
        } else if c.is_ascii_digit() {
            Token::Number(number_literal(rest).to_owned())
        } else if is_identifier_start(c) {
            let len = rest
                .char_indices()
                .find(|(_, c)| !is_identifier_continue(*c))
                .map_or(rest.len(), |(i, _)| i);
            Token::Ident(rest[..len].to_owned())
        } else if let Some(p) = PUNCTUATION.iter().find(|p| rest.starts_with(**p)) {
            Token::Punct(p)
        } else {
            Token::Invalid(c)
        })
    }

    /// Consumes the next token.
    fn next(&mut self) -> Parsed<Token> {
        let token = self.peek()?;
        let rest = &self.text[self.token_start..];
        self.pos = self.token_start
            + match &token {
                Token::Ident(s) | Token::Number(s) => s.len(),
                Token::Punct(p) => p.len(),
                Token::Quote => 1,
                Token::Newline if rest.starts_with("\r\n") => 2,
                Token::Newline => 1,
                Token::Eof | Token::Heredoc | Token::Invalid(_) => 0,
            };
        Ok(token)
    }

    fn expect(&mut self, punct: &'static str, summary: &'static str, detail: &str) -> Parsed<()> {
        if self.peek()? == Token::Punct(punct) {
            self.next()?;
            Ok(())
        } else {
            Err(self.error_at(summary, detail, self.token_start))
        }
    }

    // ---- expressions ----

    fn expression(&mut self) -> Parsed<Expr> {
        self.enter()?;
        let condition = self.binary(0)?;
        let expr = if self.peek()? == Token::Punct("?") {
            self.next()?;
            let then = self.expression()?;
            self.expect(
                ":",
                "Missing false expression in conditional",
                "The conditional operator (...?...:...) requires a false expression, delimited by a colon.",
            )?;
            let otherwise = self.expression()?;
            Expr::Other(OtherKind::Conditional, vec![condition, then, otherwise])
        } else {
            condition
        };
        self.leave();
        Ok(expr)
    }

    /// Binary operators by precedence level, lowest first. A chain of operators of one
    /// level (`a + b - c`) is read in a loop into one node with all its operands, so
    /// that its length costs no stack here or in the evaluator (which evaluates the
    /// operands for their diagnostics only).
    fn binary(&mut self, level: usize) -> Parsed<Expr> {
        const LEVELS: [&[&str]; 6] = [
            &["||"],
            &["&&"],
            &["==", "!="],
            &["<", ">", "<=", ">="],
            &["+", "-"],
            &["*", "/", "%"],
        ];
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut operands = vec![self.binary(level + 1)?];
        let result = loop {
            match self.peek()? {
                Token::Punct(p) if LEVELS[level].contains(&p) => {
                    self.next()?;
                    if operands.len() == 1 {
                        // The chain's node is a level of its own.
                        self.enter()?;
                    }
                    match self.binary(level + 1) {
                        Ok(operand) => operands.push(operand),
                        Err(e) => break Err(e),
                    }
                }
                _ => break Ok(()),
            }
        };
        if operands.len() > 1 {
            self.leave();
        }
        result?;
        if operands.len() == 1 {
            if let Some(only) = operands.pop() {
                return Ok(only);
            }
        }
        Ok(Expr::Other(OtherKind::Operator, operands))
    }

    fn unary(&mut self) -> Parsed<Expr> {
        match self.peek()? {
            Token::Punct("-") => {
                self.next()?;
                self.enter()?;
                let operand = self.unary()?;
                self.leave();
                Ok(Expr::Negate(Box::new(operand)))
            }
            Token::Punct("!") => {
                self.next()?;
                self.enter()?;
                let operand = self.unary()?;
                self.leave();
                Ok(Expr::Other(OtherKind::Operator, vec![operand]))
            }
            _ => self.postfix(),
        }
    }

    /// A term and its traversal steps (`.name`, `[key]`, splats): each step is a level
    /// of nesting, since the expression built is as deep as the traversal is long.
    fn postfix(&mut self) -> Parsed<Expr> {
        let expr = self.term()?;
        let mut steps = 0;
        let result = self.steps(expr, &mut steps);
        for _ in 0..steps {
            self.leave();
        }
        result
    }

    /// The traversal steps after `expr`, counting each in `steps` as a level entered.
    fn steps(&mut self, mut expr: Expr, steps: &mut usize) -> Parsed<Expr> {
        loop {
            if matches!(self.peek()?, Token::Punct(".") | Token::Punct("[")) {
                *steps += 1;
                self.enter()?;
            }
            match self.peek()? {
                Token::Punct(".") => {
                    self.next()?;
                    match self.peek()? {
                        Token::Ident(name) | Token::Number(name)
                            if name.chars().all(|c| c.is_ascii_digit())
                                || !name.starts_with(|c: char| c.is_ascii_digit()) =>
                        {
                            self.next()?;
                            expr = match expr {
                                // Steps after a splat apply to each element.
                                splat @ Expr::Other(OtherKind::Splat, _) => splat,
                                base => Expr::Attribute(Box::new(base), name),
                            };
                        }
                        Token::Punct("*") => {
                            self.next()?;
                            expr = Expr::Other(OtherKind::Splat, vec![expr]);
                        }
                        _ => {
                            return Err(self.error_at(
                                "Invalid attribute name",
                                "An attribute name is required after a dot.",
                                self.token_start,
                            ))
                        }
                    }
                }
                Token::Punct("[") => {
                    self.next()?;
                    self.newlines.push(false);
                    if self.peek()? == Token::Punct("*") {
                        self.next()?;
                        self.newlines.pop();
                        self.expect(
                            "]",
                            "Missing close bracket on splat index",
                            "The star for a full splat operator must be immediately followed by a closing bracket (\"]\").",
                        )?;
                        expr = Expr::Other(OtherKind::Splat, vec![expr]);
                        continue;
                    }
                    let key = self.expression()?;
                    self.newlines.pop();
                    self.expect(
                        "]",
                        "Missing close bracket on index",
                        "The index operator must end with a closing bracket (\"]\").",
                    )?;
                    expr = match expr {
                        Expr::Other(OtherKind::Splat, mut inner) => {
                            inner.push(key);
                            Expr::Other(OtherKind::Splat, inner)
                        }
                        base => Expr::Index(Box::new(base), Box::new(key)),
                    };
                }
                _ => return Ok(expr),
            }
        }
    }

    fn term(&mut self) -> Parsed<Expr> {
        let at = self.token_start;
        match self.next()? {
            Token::Number(text) => {
                if text.ends_with(['e', 'E', '+', '-']) {
                    return Err(self.error_at(
                        "Invalid number literal",
                        format!("Failed to recognize the value of this number literal: {text}."),
                        at,
                    ));
                }
                Ok(Expr::Number(text))
            }
            Token::Ident(name) => match name.as_str() {
                "true" => Ok(Expr::Bool(true)),
                "false" => Ok(Expr::Bool(false)),
                "null" => Ok(Expr::Null),
                _ => {
                    let next = self.peek()?;
                    if next == Token::Punct("(") || next == Token::Punct("::") {
                        self.function_call(name)
                    } else {
                        Ok(Expr::Variable(name))
                    }
                }
            },
            Token::Quote => Ok(Expr::Template(self.template(End::Quote)?)),
            Token::Punct("(") => {
                self.newlines.push(false);
                let inner = self.expression()?;
                self.newlines.pop();
                self.expect(
                    ")",
                    "Unbalanced parentheses",
                    "Expected a closing parenthesis to terminate the expression.",
                )?;
                Ok(Expr::Parenthesized(Box::new(inner)))
            }
            Token::Punct("[") => self.tuple(),
            Token::Punct("{") => self.object(),
            Token::Heredoc => Err(self.error_at(
                "Unsupported heredoc template",
                "Heredoc templates inside a JSON string are not read by this tool; write the text as the JSON string itself.",
                at,
            )),
            token => Err(self.error_at(
                "Invalid expression",
                format!("Expected the start of an expression, but found {}.", token.describe()),
                at,
            )),
        }
    }

    /// After a function name: more `::` parts, then the arguments.
    fn function_call(&mut self, mut name: String) -> Parsed<Expr> {
        while self.peek()? == Token::Punct("::") {
            self.next()?;
            match self.next()? {
                Token::Ident(part) => {
                    name.push_str("::");
                    name.push_str(&part);
                }
                _ => {
                    return Err(self.error_at(
                        "Missing function name",
                        "Function scope resolution symbol :: must be followed by a function name in this scope.",
                        self.token_start,
                    ))
                }
            }
        }
        self.expect(
            "(",
            "Missing open parenthesis",
            "Function selector must be followed by an open parenthesis to begin the function call.",
        )?;
        self.newlines.push(false);
        let arguments = self.arguments();
        self.newlines.pop();
        let arguments = arguments?;
        self.expect(
            ")",
            "Unterminated function call",
            "There is no closing parenthesis for this function call.",
        )?;
        Ok(Expr::Call(name, arguments))
    }

    /// Function arguments up to (not including) the closing parenthesis.
    fn arguments(&mut self) -> Parsed<Vec<Expr>> {
        let mut arguments = Vec::new();
        loop {
            if self.peek()? == Token::Punct(")") {
                return Ok(arguments);
            }
            arguments.push(self.expression()?);
            match self.peek()? {
                Token::Punct("...") => {
                    self.next()?;
                    return Ok(arguments);
                }
                Token::Punct(",") => {
                    self.next()?;
                }
                Token::Punct(")") => return Ok(arguments),
                _ => {
                    return Err(self.error_at(
                        "Missing argument separator",
                        "A comma is required to separate each function argument from the next.",
                        self.token_start,
                    ))
                }
            }
        }
    }

    /// After `[`: a tuple, or a `for` expression.
    fn tuple(&mut self) -> Parsed<Expr> {
        self.newlines.push(false);
        let result = self.tuple_items();
        self.newlines.pop();
        result
    }

    fn tuple_items(&mut self) -> Parsed<Expr> {
        if matches!(self.peek()?, Token::Ident(k) if k == "for") {
            self.next()?;
            let collection = self.for_expression("]")?;
            return Ok(Expr::Other(OtherKind::For, vec![collection]));
        }
        let mut items = Vec::new();
        loop {
            if self.peek()? == Token::Punct("]") {
                self.next()?;
                return Ok(Expr::Tuple(items));
            }
            items.push(self.expression()?);
            match self.peek()? {
                Token::Punct(",") => {
                    self.next()?;
                }
                Token::Punct("]") => {}
                _ => {
                    return Err(self.error_at(
                        "Missing item separator",
                        "Expected a comma to mark the beginning of the next item.",
                        self.token_start,
                    ))
                }
            }
        }
    }

    /// After `{`: an object, or a `for` expression.
    fn object(&mut self) -> Parsed<Expr> {
        self.newlines.push(true);
        let result = self.object_items();
        self.newlines.pop();
        result
    }

    fn object_items(&mut self) -> Parsed<Expr> {
        while self.peek()? == Token::Newline {
            self.next()?;
        }
        if matches!(self.peek()?, Token::Ident(k) if k == "for") {
            self.newlines.push(false);
            self.next()?;
            let result = self.for_expression("}");
            self.newlines.pop();
            return Ok(Expr::Other(OtherKind::For, vec![result?]));
        }
        let mut items = Vec::new();
        loop {
            while self.peek()? == Token::Newline {
                self.next()?;
            }
            if self.peek()? == Token::Punct("}") {
                self.next()?;
                return Ok(Expr::Object(items));
            }
            self.newlines.push(false);
            let key = self.expression();
            let key = key.and_then(|key| {
                match self.peek()? {
                    Token::Punct("=") | Token::Punct(":") => {
                        self.next()?;
                    }
                    _ => {
                        return Err(self.error_at(
                            "Missing key/value separator",
                            "Expected an equals sign (\"=\") to mark the beginning of the attribute value.",
                            self.token_start,
                        ))
                    }
                }
                Ok(key)
            });
            let item = key.and_then(|key| Ok((key, self.expression()?)));
            self.newlines.pop();
            let (key, value) = item?;
            // A bare name as a key is that name, not a variable.
            let key = match key {
                Expr::Variable(name) => Expr::Template(Template {
                    parts: vec![Part::Literal(name)],
                    unwrap: false,
                }),
                key => key,
            };
            items.push((key, value));
            match self.peek()? {
                Token::Punct(",") | Token::Newline => {
                    self.next()?;
                }
                Token::Punct("}") => {}
                Token::Eof => {
                    return Err(self.error_at(
                        "Unterminated object constructor expression",
                        "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                        self.token_start,
                    ))
                }
                _ => {
                    return Err(self.error_at(
                        "Missing attribute separator",
                        "Expected a newline or comma to mark the beginning of the next attribute.",
                        self.token_start,
                    ))
                }
            }
        }
    }

    /// After `for`: `[k,] v in COLL : RESULT [=> VALUE] [...] [if COND]` and the close;
    /// returns the collection expression.
    fn for_expression(&mut self, close: &'static str) -> Parsed<Expr> {
        let invalid = |p: &Parser<'_>, detail: &'static str| {
            p.error_at("Invalid 'for' expression", detail, p.token_start)
        };
        if !matches!(self.next()?, Token::Ident(_)) {
            return Err(invalid(
                self,
                "For expression requires variable name after 'for'.",
            ));
        }
        if self.peek()? == Token::Punct(",") {
            self.next()?;
            if !matches!(self.next()?, Token::Ident(_)) {
                return Err(invalid(
                    self,
                    "For expression requires value variable name after comma.",
                ));
            }
        }
        if !matches!(self.next()?, Token::Ident(k) if k == "in") {
            return Err(invalid(
                self,
                "For expression requires the 'in' keyword after its name declarations.",
            ));
        }
        let collection = self.expression()?;
        if self.next()? != Token::Punct(":") {
            return Err(invalid(
                self,
                "For expression requires a colon after the collection expression.",
            ));
        }
        self.expression()?;
        if close == "}" {
            if self.next()? != Token::Punct("=>") {
                return Err(invalid(
                    self,
                    "Key expression is required when building an object.",
                ));
            }
            self.expression()?;
            if self.peek()? == Token::Punct("...") {
                self.next()?;
            }
        }
        if matches!(self.peek()?, Token::Ident(k) if k == "if") {
            self.next()?;
            self.expression()?;
        }
        if self.next()? != Token::Punct(close) {
            return Err(invalid(
                self,
                "Extra characters after the end of the 'for' expression.",
            ));
        }
        Ok(collection)
    }
}

/// The number literal at the start of `rest`: digits, a fraction, an exponent (HCL's
/// `NumberLit`, which may not end with `.`).
fn number_literal(rest: &str) -> &str {
    let bytes = rest.as_bytes();
    let mut i = 0;
    while bytes.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    if bytes.get(i) == Some(&b'.') && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i += 1;
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(bytes.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        if bytes.get(j).is_some_and(u8::is_ascii_digit) {
            i = j;
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
    }
    &rest[..i]
}

/// Applies the strip markers: `${~` / `%{~` trim trailing whitespace from the literal
/// before, `~}` leading whitespace from the literal after.
fn strip(raw: &mut [RawPart]) {
    for i in 0..raw.len() {
        if raw[i].trim_before && i > 0 {
            if let Raw::Literal(text) = &mut raw[i - 1].raw {
                let trimmed = text.trim_end().len();
                text.truncate(trimmed);
            }
        }
        if raw[i].trim_after && i + 1 < raw.len() {
            if let Raw::Literal(text) = &mut raw[i + 1].raw {
                *text = text.trim_start().to_owned();
            }
        }
    }
}

/// An open `if` or `for` directive: which, and where it is (its `%{ ... }`).
type Open = (&'static str, usize, usize);

/// Builds the directive structure of `pieces` up to the end of the template (at byte
/// `end_at`), or, inside an open directive, up to its closing directive: the parts, and
/// for an `if` with an `else` the parts after it. HCL's diagnostics for unbalanced
/// directives.
fn nest(
    pieces: &mut std::vec::IntoIter<RawPart>,
    open: Option<Open>,
    end_at: usize,
) -> Parsed<(Vec<Part>, Vec<Part>)> {
    let mut parts = Vec::new();
    let mut otherwise: Option<Vec<Part>> = None;
    let unexpected = |name: &str, at: usize, detail: String| SyntaxError {
        summary: match name {
            "else" => "Unexpected else directive",
            "endif" => "Unexpected endif directive",
            _ => "Unexpected endfor directive",
        },
        detail,
        at,
    };
    while let Some(piece) = pieces.next() {
        let closing = match piece.raw {
            Raw::Literal(text) => {
                if !text.is_empty() {
                    parts.push(Part::Literal(text));
                }
                continue;
            }
            Raw::Interpolation(expr, at) => {
                parts.push(Part::Interpolation(expr, at));
                continue;
            }
            Raw::If(condition) => {
                let (then, otherwise) = nest(pieces, Some(("if", piece.at, piece.end)), end_at)?;
                parts.push(Part::If {
                    condition,
                    then,
                    otherwise,
                });
                continue;
            }
            Raw::For(key, value, collection) => {
                let (body, _) = nest(pieces, Some(("for", piece.at, piece.end)), end_at)?;
                parts.push(Part::For {
                    key,
                    value,
                    collection,
                    body,
                });
                continue;
            }
            Raw::Else => "else",
            Raw::EndIf => "endif",
            Raw::EndFor => "endfor",
        };
        let Some((kind, start, end)) = open else {
            return Err(unexpected(
                closing,
                piece.at,
                "The control directives within this template are unbalanced.".into(),
            ));
        };
        let range = template_range(start, end);
        match (kind, closing) {
            ("if", "else") if otherwise.is_none() => {
                otherwise = Some(std::mem::take(&mut parts));
            }
            ("if", "else") => {
                return Err(unexpected(
                    "else",
                    piece.at,
                    format!("Already in the else clause for the if started at {range}."),
                ))
            }
            ("if", "endif") => {
                return Ok(match otherwise {
                    Some(then) => (then, parts),
                    None => (parts, Vec::new()),
                });
            }
            ("for", "endfor") => return Ok((parts, Vec::new())),
            ("if", other) => {
                return Err(unexpected(
                    other,
                    piece.at,
                    format!("Expecting an endif directive for the if started at {range}."),
                ))
            }
            (_, other) => {
                return Err(unexpected(
                    other,
                    piece.at,
                    format!("Expecting an endfor directive for the for started at {range}."),
                ))
            }
        }
    }
    match open {
        None => Ok((parts, Vec::new())),
        Some((kind, start, end)) => Err(SyntaxError {
            summary: "Unexpected end of template",
            detail: format!(
                "The {kind} directive at {} is missing its corresponding end{kind} directive.",
                template_range(start, end)
            ),
            at: end_at,
        }),
    }
}

/// A marker for the range `start..end` of the template text, written where HCL puts a
/// range in a message; the evaluator turns it into a file range.
pub(crate) fn template_range(start: usize, end: usize) -> String {
    format!("\u{3}{start}:{end}\u{4}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn literal(s: &str) -> Part {
        Part::Literal(s.into())
    }

    fn var(path: &str) -> Expr {
        let mut names = path.split('.');
        let mut expr = Expr::Variable(names.next().unwrap().into());
        for name in names {
            expr = Expr::Attribute(Box::new(expr), name.into());
        }
        expr
    }

    #[test]
    fn literals_and_escapes() {
        let t = parse_template("plain $ and % and $${x} and %%{y} and $$${z}").unwrap();
        assert_eq!(
            t.parts,
            [literal("plain $ and % and ${x} and %{y} and $${z}")]
        );
        assert!(!t.unwrap);
        assert_eq!(parse_template("").unwrap().parts, []);
        // No backslash escapes in a bare template.
        assert_eq!(parse_template(r"a\nb").unwrap().parts, [literal(r"a\nb")]);
    }

    #[test]
    fn interpolations() {
        let t = parse_template("${var.name}").unwrap();
        assert!(t.unwrap);
        assert_eq!(t.parts, [Part::Interpolation(var("var.name"), 2)]);
        let t = parse_template("${~ local.x ~}").unwrap();
        assert!(t.unwrap);
        let t = parse_template("web-${var.env}-${ local.n[0] }").unwrap();
        assert!(!t.unwrap);
        assert_eq!(
            t.parts,
            [
                literal("web-"),
                Part::Interpolation(var("var.env"), 6),
                literal("-"),
                Part::Interpolation(
                    Expr::Index(Box::new(var("local.n")), Box::new(Expr::Number("0".into()))),
                    18
                ),
            ]
        );
    }

    #[test]
    fn strip_markers() {
        let t = parse_template("a  ${~ x ~}  b").unwrap();
        assert_eq!(
            t.parts,
            [literal("a"), Part::Interpolation(var("x"), 7), literal("b")]
        );
    }

    #[test]
    fn expressions() {
        let e =
            parse_expression(r#"{ a = 1, "b c" = [true, null, "x${y}"], (k) = -2.5e3 }"#).unwrap();
        let Expr::Object(items) = e else { panic!() };
        assert_eq!(items.len(), 3);
        assert_eq!(
            items[2].1,
            Expr::Negate(Box::new(Expr::Number("2.5e3".into())))
        );
        assert_eq!(
            parse_expression("upper(var.x)").unwrap(),
            Expr::Call("upper".into(), vec![var("var.x")])
        );
        assert!(matches!(
            parse_expression("provider::p::f(1, [2]...)").unwrap(),
            Expr::Call(name, args) if name == "provider::p::f" && args.len() == 2
        ));
        assert_eq!(
            parse_expression("a ? b : c").unwrap(),
            Expr::Other(OtherKind::Conditional, vec![var("a"), var("b"), var("c")])
        );
        assert!(matches!(
            parse_expression("a + b * c").unwrap(),
            Expr::Other(OtherKind::Operator, operands) if operands[0] == var("a")
        ));
        assert!(matches!(
            parse_expression("a[*].id").unwrap(),
            Expr::Other(OtherKind::Splat, _)
        ));
        assert_eq!(
            parse_expression("[for x in y : x if x != null]").unwrap(),
            Expr::Other(OtherKind::For, vec![var("y")])
        );
        assert_eq!(
            parse_expression("{for k, v in y : k => v...}").unwrap(),
            Expr::Other(OtherKind::For, vec![var("y")])
        );
        assert_eq!(parse_expression("x.0").unwrap(), var("x.0"));
        let e = parse_expression("{\n a = 1\n b = 2\n}").unwrap();
        assert!(matches!(e, Expr::Object(ref items) if items.len() == 2));
        assert_eq!(parse_expression("# c\n x /* d */").unwrap(), var("x"));
    }

    #[test]
    fn directives() {
        let t = parse_template("a%{ if x }b%{ else }c%{ endif }d%{for k, v in m}${v}%{endfor}")
            .unwrap();
        assert_eq!(t.parts.len(), 4);
        assert!(
            matches!(&t.parts[1], Part::If { then, otherwise, .. } if then == &[literal("b")] && otherwise == &[literal("c")])
        );
        assert!(
            matches!(&t.parts[3], Part::For { key: Some(k), value, .. } if k == "k" && value == "v")
        );
    }

    #[test]
    fn errors() {
        let e = parse_template("a ${ x").unwrap_err();
        assert_eq!(e.summary, "Unclosed template interpolation sequence");
        assert_eq!(e.at, 0);
        let e = parse_template("${ a b }").unwrap_err();
        assert_eq!(e.summary, "Extra characters after interpolation expression");
        let e = parse_template("${ x: y }").unwrap_err();
        assert!(e.detail.contains("colon"));
        let e = parse_template("%{ endif }").unwrap_err();
        assert_eq!(e.summary, "Unexpected endif directive");
        assert_eq!(
            e.detail,
            "The control directives within this template are unbalanced."
        );
        let e = parse_template("%{ if x }a").unwrap_err();
        assert_eq!(e.summary, "Unexpected end of template");
        assert_eq!(
            (e.at, e.detail.as_str()),
            (
                10,
                "The if directive at \u{3}0:9\u{4} is missing its corresponding endif directive."
            )
        );
        let e = parse_template("%{ if x }%{ else }%{ else }").unwrap_err();
        assert_eq!(e.summary, "Unexpected else directive");
        let e = parse_template("%{ for x in y }%{ endif }").unwrap_err();
        assert_eq!(
            e.detail,
            "Expecting an endfor directive for the for started at \u{3}0:15\u{4}."
        );
        assert_eq!(
            parse_template("${ \"a\\q\" }").unwrap_err().summary,
            "Invalid escape sequence"
        );
        assert_eq!(
            parse_template("${ f(1 2) }").unwrap_err().summary,
            "Missing argument separator"
        );
        assert_eq!(
            parse_template("${}").unwrap_err().summary,
            "Invalid expression"
        );
        assert_eq!(
            parse_expression("a b").unwrap_err().summary,
            "Extra characters after expression"
        );
        let deep = "(".repeat(100) + "x" + &")".repeat(100);
        assert_eq!(
            parse_expression(&deep).unwrap_err().summary,
            "Expression too deeply nested"
        );
        assert_eq!(
            parse_template("${ <<EOT\nx\nEOT\n }").unwrap_err().summary,
            "Unsupported heredoc template"
        );
    }

    #[test]
    fn quoted_strings_inside() {
        let e = parse_expression(r#""a\"b\u00e9${x}""#).unwrap();
        let Expr::Template(t) = e else { panic!() };
        assert_eq!(
            t.parts,
            [literal("a\"bé"), Part::Interpolation(var("x"), 13)]
        );
        // A `}` inside a quoted string does not close the interpolation.
        let t = parse_template(r#"${ "}" }!"#).unwrap();
        assert_eq!(t.parts.len(), 2);
    }
}

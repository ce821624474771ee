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
}

mod expression;
mod lexer;
mod template;
#[cfg(test)]
mod tests;

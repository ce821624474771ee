//! Templates: literal text, interpolations, directives and strip markers.

use super::*;

impl<'a> Parser<'a> {
    /// Reads a template up to `end` (consuming a closing quote).
    pub(super) fn template(&mut self, end: End) -> Parsed<Template> {
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
        strip(&mut raw, end != End::Quote);
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
    pub(super) fn escape(&self) -> Parsed<(String, usize)> {
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
    pub(super) fn interpolation(&mut self) -> Parsed<(Raw, bool)> {
        self.peek()?;
        let at = self.token_start;
        let expr = self.expression()?;
        let trim_after = self.close_sequence()?;
        Ok((Raw::Interpolation(expr, at), trim_after))
    }

    /// After `%{` (and `~`): a directive and its closing `}` or `~}`.
    pub(super) fn directive(&mut self) -> Parsed<(Raw, bool)> {
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

    pub(super) fn for_variable(&mut self, detail: &'static str) -> Parsed<String> {
        match self.peek()? {
            Token::Ident(name) => {
                self.next()?;
                Ok(name)
            }
            _ => Err(self.error_at("Invalid 'for' directive", detail, self.token_start)),
        }
    }

    /// The `}` or `~}` that ends an interpolation or directive: whether it was `~}`.
    pub(super) fn close_sequence(&mut self) -> Parsed<bool> {
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
}

/// Applies the strip markers: `${~` / `%{~` trim trailing whitespace from the literal
/// before, `~}` leading whitespace from the literal after. With `by_lines` (a template
/// outside quotes, whose literal text HCL reads line by line, each line with its line
/// break) they trim only the line next to the marker: `${~` the last line of the text
/// before (its line break too, where the text ends with one), `~}` the first line of the
/// text after, up to and with its line break.
pub(super) fn strip(raw: &mut [RawPart], by_lines: bool) {
    for i in 0..raw.len() {
        if raw[i].trim_before && i > 0 {
            if let Raw::Literal(text) = &mut raw[i - 1].raw {
                let start = if by_lines {
                    let before_last = text.strip_suffix('\n').unwrap_or(text);
                    before_last.rfind('\n').map_or(0, |at| at + 1)
                } else {
                    0
                };
                let trimmed = start + text[start..].trim_end().len();
                text.truncate(trimmed);
            }
        }
        if raw[i].trim_after && i + 1 < raw.len() {
            if let Raw::Literal(text) = &mut raw[i + 1].raw {
                let end = if by_lines {
                    text.find('\n').map_or(text.len(), |at| at + 1)
                } else {
                    text.len()
                };
                *text = format!("{}{}", text[..end].trim_start(), &text[end..]);
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
pub(super) fn nest(
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
pub(super) fn template_range(start: usize, end: usize) -> String {
    format!("\u{3}{start}:{end}\u{4}")
}

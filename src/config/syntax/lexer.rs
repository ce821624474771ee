//! The tokens of an expression: names, numbers, punctuation, newlines where they count.

use super::*;

impl<'a> Parser<'a> {
    /// Where the next token starts: past spaces, tabs, comments and (unless they are
    /// tokens here) newlines.
    pub(super) fn trivia_end(&self) -> usize {
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
    pub(super) fn peek(&mut self) -> Parsed<Token> {
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
    pub(super) fn next(&mut self) -> Parsed<Token> {
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

    pub(super) fn expect(
        &mut self,
        punct: &'static str,
        summary: &'static str,
        detail: &str,
    ) -> Parsed<()> {
        if self.peek()? == Token::Punct(punct) {
            self.next()?;
            Ok(())
        } else {
            Err(self.error_at(summary, detail, self.token_start))
        }
    }
}

/// The number literal at the start of `rest`: digits, a fraction, an exponent (HCL's
/// `NumberLit`, which may not end with `.`).
pub(super) fn number_literal(rest: &str) -> &str {
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

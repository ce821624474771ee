//! Expressions: operators by precedence, traversals, calls, collections, `for`.

use super::*;

impl<'a> Parser<'a> {
    pub(super) fn expression(&mut self) -> Parsed<Expr> {
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
    pub(super) fn binary(&mut self, level: usize) -> Parsed<Expr> {
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

    pub(super) fn unary(&mut self) -> Parsed<Expr> {
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
    pub(super) fn postfix(&mut self) -> Parsed<Expr> {
        let expr = self.term()?;
        let mut steps = 0;
        let result = self.steps(expr, &mut steps);
        for _ in 0..steps {
            self.leave();
        }
        result
    }

    /// The traversal steps after `expr`, counting each in `steps` as a level entered.
    pub(super) fn steps(&mut self, mut expr: Expr, steps: &mut usize) -> Parsed<Expr> {
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

    pub(super) fn term(&mut self) -> Parsed<Expr> {
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
    pub(super) fn function_call(&mut self, mut name: String) -> Parsed<Expr> {
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
    pub(super) fn arguments(&mut self) -> Parsed<Vec<Expr>> {
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
    pub(super) fn tuple(&mut self) -> Parsed<Expr> {
        self.newlines.push(false);
        let result = self.tuple_items();
        self.newlines.pop();
        result
    }

    pub(super) fn tuple_items(&mut self) -> Parsed<Expr> {
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
    pub(super) fn object(&mut self) -> Parsed<Expr> {
        self.newlines.push(true);
        let result = self.object_items();
        self.newlines.pop();
        result
    }

    pub(super) fn object_items(&mut self) -> Parsed<Expr> {
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
    pub(super) fn for_expression(&mut self, close: &'static str) -> Parsed<Expr> {
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

//! Evaluating expressions as Terraform does, as far as a configuration alone allows.
//!
//! - JSON values map to HCL values: `true`/`false` are bools, numbers are exact
//!   decimals, `null` is a null of unknown type, arrays are tuples, objects are objects
//!   (their property names are templates too, and a `"//"` property is an attribute
//!   like any other), strings are templates.
//! - A template's literal text is known; an interpolation of `var.NAME` (the variable's
//!   default, converted to its type), `local.NAME` (the local value, evaluated the same
//!   way), a `dynamic` block's iterator, `count.index` / `each.key` / `each.value` of
//!   the instance being decoded, or a literal gives its value; attribute and index
//!   steps apply to those values.
//! - Everything else (references to resources, data sources, modules, `path`,
//!   `terraform`, `self`; function calls; operators; conditionals; `for` and splat
//!   expressions) is unknown, of unknown type: the value Terraform works with while the
//!   expression's inputs are not known. A template with an unknown part is an unknown
//!   string, not null, refined with the literal text before the first unknown part as
//!   its prefix (at most 128 bytes, without a last character that later text could
//!   still change), as HCL does.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;

use unicode_segmentation::UnicodeSegmentation;

use super::diagnostic::{range_marker, Diag, FileId, Span};
use super::document::{Node, NodeKind};
use super::syntax::{self, Expr, Part, Template};
use super::typed::Val;
use crate::limits::{nesting_message, MAX_DEPTH, MAX_EVALUATION_DEPTH, MAX_TEMPLATE_WORK};
use crate::text::go_quote;
use crate::types::Type;
use crate::value::{Number, Refinements, Value};

/// What expressions in a module can refer to: its variables and local values.
pub(crate) struct Globals<'d> {
    /// Each declared variable's value: its default, or an unknown of its type.
    pub(crate) variables: BTreeMap<String, Val>,
    /// Each local value's expression.
    pub(crate) locals: BTreeMap<String, (FileId, &'d Node)>,
    /// The type of each resource a reference can name with a type (`TYPE.NAME`,
    /// `data.TYPE.NAME`): the resources declared without `count` or `for_each` whose
    /// schema the caller gave. A reference to one is an unknown of that type.
    pub(crate) resource_types: BTreeMap<String, Type>,
    /// The values of those resources that the caller gave (planned or applied), by the
    /// same names; a reference to one of them is its value.
    pub(crate) resource_values: BTreeMap<String, Value>,
    /// Local values evaluated so far; `None` while one is being evaluated (a cycle).
    evaluated: RefCell<BTreeMap<String, Option<Val>>>,
    /// Levels of evaluation open now (JSON values, expressions, templates, directives,
    /// through local values too), bounded by [`MAX_EVALUATION_DEPTH`].
    depth: Cell<usize>,
    /// Iterations of template `for` directives and the bytes they wrote, bounded by
    /// [`MAX_TEMPLATE_WORK`].
    work: Cell<usize>,
}

/// One level of evaluation entered; leaving it (dropping) counts it off.
struct Level<'a>(&'a Cell<usize>);

impl Drop for Level<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get().saturating_sub(1));
    }
}

impl<'d> Globals<'d> {
    pub(crate) fn new(
        variables: BTreeMap<String, Val>,
        locals: BTreeMap<String, (FileId, &'d Node)>,
    ) -> Globals<'d> {
        Globals {
            variables,
            locals,
            resource_types: BTreeMap::new(),
            resource_values: BTreeMap::new(),
            evaluated: RefCell::new(BTreeMap::new()),
            depth: Cell::new(0),
            work: Cell::new(0),
        }
    }

    /// Enters one level of evaluation: `None`, after a diagnostic, past
    /// [`MAX_EVALUATION_DEPTH`] (the caller's value is then unknown).
    fn enter(&self, span: Span, diags: &mut Vec<Diag>) -> Option<Level<'_>> {
        let depth = self.depth.get() + 1;
        if depth > MAX_EVALUATION_DEPTH {
            diags.push(Diag::new(
                "Expression too deeply nested",
                format!(
                    "The {}, counting JSON values, expressions, templates and local values referred to.",
                    nesting_message(
                        "evaluation",
                        MAX_EVALUATION_DEPTH,
                        "MAX_EVALUATION_DEPTH"
                    )
                ),
                span,
            ));
            return None;
        }
        self.depth.set(depth);
        Some(Level(&self.depth))
    }

    /// Counts `amount` of template work: `false`, after a diagnostic the first time,
    /// past [`MAX_TEMPLATE_WORK`].
    fn charge(&self, amount: usize, span: Span, diags: &mut Vec<Diag>) -> bool {
        let before = self.work.get();
        let after = before.saturating_add(amount);
        self.work.set(after);
        if after <= MAX_TEMPLATE_WORK {
            return true;
        }
        if before <= MAX_TEMPLATE_WORK {
            diags.push(Diag::new(
                "Template too large",
                format!(
                    "The template's for directives repeat more than the limit of \
                     {MAX_TEMPLATE_WORK} iterations and bytes written (ctywire::limits::MAX_TEMPLATE_WORK)."
                ),
                span,
            ));
        }
        false
    }
}

/// Where an expression is evaluated: the module's globals and the names bound around
/// it (iterators of enclosing `dynamic` blocks, `count`, `each`, template `for`
/// variables), innermost last.
#[derive(Clone)]
pub(crate) struct Scope<'g, 'd> {
    globals: &'g Globals<'d>,
    names: Vec<(String, Val)>,
}

impl<'g, 'd> Scope<'g, 'd> {
    pub(crate) fn new(globals: &'g Globals<'d>) -> Scope<'g, 'd> {
        Scope {
            globals,
            names: Vec::new(),
        }
    }

    /// This scope with `name` bound to `value`.
    pub(crate) fn with(&self, name: &str, value: Val) -> Scope<'g, 'd> {
        let mut scope = self.clone();
        scope.names.push((name.to_owned(), value));
        scope
    }

    fn lookup(&self, name: &str) -> Option<&Val> {
        self.names
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    }

    /// Evaluates a JSON value as an expression (strings are templates).
    pub(crate) fn eval_json(&self, file: FileId, node: &Node, diags: &mut Vec<Diag>) -> Val {
        let span = Span::new(file, node.start, node.end);
        let Some(_level) = self.globals.enter(span, diags) else {
            return Val::unknown(Type::Dynamic);
        };
        match &node.kind {
            NodeKind::Null => Val::null(Type::Dynamic),
            NodeKind::Bool(b) => Val::known(Type::Bool, Value::Bool(*b)),
            NodeKind::Number(text) => number(text, span, diags),
            NodeKind::String(text) => self.eval_string(text, span, diags),
            NodeKind::Array(elements) => {
                let elements: Vec<Val> = elements
                    .iter()
                    .map(|e| self.eval_json(file, e, diags))
                    .collect();
                Val::tuple(elements)
            }
            NodeKind::Object(properties) => {
                let mut attributes: Vec<(String, Val)> = Vec::new();
                // Each name's key span: a map, so that many keys cost no quadratic time.
                let mut spans: BTreeMap<String, Span> = BTreeMap::new();
                let mut known_keys = true;
                for p in properties {
                    let key_span = Span::new(file, p.name_at, p.name_at + p.name.len() + 2);
                    let key = self.eval_string(&p.name, key_span, diags);
                    let value = self.eval_json(file, &p.value, diags);
                    let Some(name) = self.object_key(key, key_span, diags, &mut known_keys) else {
                        continue;
                    };
                    if let Some(first) = spans.get(&name) {
                        diags.push(Diag::new(
                            "Duplicate object attribute",
                            format!(
                                "An attribute named {} was already defined at {}.",
                                go_quote(&name),
                                range_marker(*first),
                            ),
                            key_span,
                        ));
                        continue;
                    }
                    spans.insert(name.clone(), key_span);
                    attributes.push((name, value));
                }
                if known_keys {
                    Val::object(attributes)
                } else {
                    Val::unknown(Type::Dynamic)
                }
            }
        }
    }

    /// An object key's string, or `None` (after a diagnostic, or noting an unknown key).
    fn object_key(
        &self,
        key: Val,
        span: Span,
        diags: &mut Vec<Diag>,
        known_keys: &mut bool,
    ) -> Option<String> {
        let key = match key.convert(&Type::String) {
            Ok(k) => k,
            Err(e) => {
                diags.push(Diag::new(
                    "Invalid object key expression",
                    format!("Cannot use this expression as an object key: {e}."),
                    span,
                ));
                return None;
            }
        };
        match key {
            Value::Null => {
                diags.push(Diag::new(
                    "Invalid object key expression",
                    "Cannot use null value as an object key.",
                    span,
                ));
                None
            }
            Value::String(s) => Some(s.as_str().to_owned()),
            _ => {
                *known_keys = false;
                None
            }
        }
    }

    /// Evaluates a JSON string as a template.
    pub(crate) fn eval_string(&self, text: &str, span: Span, diags: &mut Vec<Diag>) -> Val {
        match syntax::parse_template(text) {
            Ok(template) => self.eval_template(&template, span, diags),
            Err(e) => {
                let detail = file_ranges(&e.detail, span);
                diags.push(Diag::new(e.summary, detail, in_string(span, e.at)));
                Val::unknown(Type::Dynamic)
            }
        }
    }

    /// Evaluates a template: an unwrapped single interpolation gives its value as is;
    /// otherwise a string, unknown (not null, with the known prefix) if a part is.
    pub(crate) fn eval_template(
        &self,
        template: &Template,
        span: Span,
        diags: &mut Vec<Diag>,
    ) -> Val {
        let Some(_level) = self.globals.enter(span, diags) else {
            return Val::unknown(Type::Dynamic);
        };
        if template.unwrap {
            if let [Part::Interpolation(expr, _)] = &template.parts[..] {
                return self.eval_expr(expr, span, diags);
            }
        }
        let mut text = String::new();
        let known = self.render(&template.parts, span, diags, &mut text);
        if known {
            return Val::known(Type::String, Value::string(text));
        }
        let mut refinements = Refinements::new().not_null();
        let prefix = safe_known_prefix(truncate(&text, 128));
        if !prefix.is_empty() {
            refinements = refinements.with_string_prefix(prefix);
        }
        Val::unknown_refined(Type::String, refinements)
    }

    /// Appends the rendering of `parts` to `out`; `false` at the first unknown part
    /// (the rest are still evaluated, for their diagnostics, but not appended).
    fn render(&self, parts: &[Part], span: Span, diags: &mut Vec<Diag>, out: &mut String) -> bool {
        let mut known = true;
        for part in parts {
            let (piece, at) = match part {
                Part::Literal(text) => {
                    if known {
                        out.push_str(text);
                    }
                    continue;
                }
                Part::Interpolation(expr, at) => {
                    (self.eval_expr(expr, span, diags), in_string(span, *at))
                }
                Part::If {
                    condition,
                    then,
                    otherwise,
                } => (
                    self.render_if(condition, then, otherwise, span, diags),
                    span,
                ),
                Part::For {
                    key,
                    value,
                    collection,
                    body,
                } => {
                    let rendered =
                        self.render_for(key.as_deref(), value, collection, body, span, diags);
                    (rendered, span)
                }
            };
            if piece.value.is_null() {
                diags.push(Diag::new(
                    "Invalid template interpolation value",
                    "The expression result is null. Cannot include a null value in a string template.",
                    at,
                ));
                continue;
            }
            if piece.value.is_unknown() {
                known = false;
                continue;
            }
            match piece.convert(&Type::String) {
                Ok(Value::String(s)) => {
                    if known {
                        out.push_str(s.as_str());
                    }
                }
                Ok(_) => known = false,
                Err(e) => diags.push(Diag::new(
                    "Invalid template interpolation value",
                    format!("Cannot include the given value in a string template: {e}."),
                    at,
                )),
            }
        }
        known
    }

    /// A `%{ if }` directive's text: the branch its condition picks, or an unknown
    /// string while the condition is unknown.
    fn render_if(
        &self,
        condition: &Expr,
        then: &[Part],
        otherwise: &[Part],
        span: Span,
        diags: &mut Vec<Diag>,
    ) -> Val {
        let Some(_level) = self.globals.enter(span, diags) else {
            return Val::unknown(Type::String);
        };
        let condition = self.eval_expr(condition, span, diags);
        match condition.convert(&Type::Bool) {
            Ok(Value::Bool(b)) => {
                let branch = if b { then } else { otherwise };
                let mut text = String::new();
                if self.render(branch, span, diags, &mut text) {
                    Val::string(&text)
                } else {
                    Val::unknown(Type::String)
                }
            }
            Ok(Value::Null) => {
                diags.push(Diag::new(
                    "Null condition",
                    "The condition value is null. Conditions must either be true or false.",
                    span,
                ));
                Val::unknown(Type::String)
            }
            Ok(_) => Val::unknown(Type::String),
            Err(e) => {
                diags.push(Diag::new(
                    "Incorrect condition type",
                    format!("The condition expression must be of type bool: {e}."),
                    span,
                ));
                Val::unknown(Type::String)
            }
        }
    }

    /// A `%{ for }` directive's text: its body for each element of a known collection,
    /// or an unknown string.
    fn render_for(
        &self,
        key: Option<&str>,
        value: &str,
        collection: &Expr,
        body: &[Part],
        span: Span,
        diags: &mut Vec<Diag>,
    ) -> Val {
        let Some(_level) = self.globals.enter(span, diags) else {
            return Val::unknown(Type::String);
        };
        let collection = self.eval_expr(collection, span, diags);
        match elements(&collection) {
            Some(items) => {
                let mut text = String::new();
                let mut all_known = true;
                for (k, v) in items {
                    let mut scope = self.with(value, v);
                    if let Some(key) = key {
                        scope = scope.with(key, k);
                    }
                    let before = text.len();
                    all_known &= scope.render(body, span, diags, &mut text);
                    if !self.globals.charge(1 + text.len() - before, span, diags) {
                        return Val::unknown(Type::String);
                    }
                }
                if all_known {
                    Val::string(&text)
                } else {
                    Val::unknown(Type::String)
                }
            }
            None if collection.value.is_unknown() => Val::unknown(Type::String),
            None => {
                diags.push(Diag::new(
                    "Iteration over non-iterable value",
                    format!(
                        "A value of type {} cannot be used as the collection in a 'for' expression.",
                        collection.ty.friendly_name()
                    ),
                    span,
                ));
                Val::unknown(Type::String)
            }
        }
    }

    /// Evaluates an expression of HCL's native syntax.
    pub(crate) fn eval_expr(&self, expr: &Expr, span: Span, diags: &mut Vec<Diag>) -> Val {
        let Some(_level) = self.globals.enter(span, diags) else {
            return Val::unknown(Type::Dynamic);
        };
        match expr {
            Expr::Number(text) => number(text, span, diags),
            Expr::Bool(b) => Val::known(Type::Bool, Value::Bool(*b)),
            Expr::Null => Val::null(Type::Dynamic),
            Expr::Template(t) => self.eval_template(t, span, diags),
            Expr::Parenthesized(inner) => self.eval_expr(inner, span, diags),
            Expr::Tuple(items) => Val::tuple(
                items
                    .iter()
                    .map(|e| self.eval_expr(e, span, diags))
                    .collect(),
            ),
            Expr::Object(items) => {
                let mut attributes: Vec<(String, Val)> = Vec::new();
                let mut names = std::collections::BTreeSet::new();
                let mut known_keys = true;
                for (key, value) in items {
                    let key = self.eval_expr(key, span, diags);
                    let value = self.eval_expr(value, span, diags);
                    if let Some(name) = self.object_key(key, span, diags, &mut known_keys) {
                        if !names.insert(name.clone()) {
                            diags.push(Diag::new(
                                "Duplicate object attribute",
                                format!(
                                    "An attribute named {} was already defined.",
                                    go_quote(&name)
                                ),
                                span,
                            ));
                            continue;
                        }
                        attributes.push((name, value));
                    }
                }
                if known_keys {
                    Val::object(attributes)
                } else {
                    Val::unknown(Type::Dynamic)
                }
            }
            Expr::Negate(inner) => match &**inner {
                Expr::Number(text) => number(&format!("-{text}"), span, diags),
                _ => {
                    let operand = self.eval_expr(inner, span, diags);
                    match (&operand.ty, &operand.value) {
                        (Type::Number, Value::Number(n)) => {
                            number(&format!("-{n}").replace("--", ""), span, diags)
                        }
                        _ => Val::unknown(Type::Number),
                    }
                }
            },
            Expr::Variable(name) => self.variable(name, span, diags),
            Expr::Attribute(base, name) => {
                if let Some(resource) = self.resource_reference(expr) {
                    return resource;
                }
                if let Expr::Variable(root) = &**base {
                    match root.as_str() {
                        "var" if self.lookup("var").is_none() => {
                            return self.input_variable(name, span, diags)
                        }
                        "local" if self.lookup("local").is_none() => {
                            return self.local_value(name, span, diags)
                        }
                        _ => {}
                    }
                }
                if self.is_external_reference(base) {
                    return Val::unknown(Type::Dynamic);
                }
                let base = self.eval_expr(base, span, diags);
                get_attribute(&base, name, span, diags)
            }
            Expr::Index(base, key) => {
                let key = self.eval_expr(key, span, diags);
                if self.is_external_reference(base) {
                    return Val::unknown(Type::Dynamic);
                }
                let base = self.eval_expr(base, span, diags);
                index(&base, &key, span, diags)
            }
            Expr::Call(_, inner) | Expr::Other(_, inner) => {
                for e in inner {
                    self.eval_expr(e, span, diags);
                }
                Val::unknown(Type::Dynamic)
            }
        }
    }

    /// Whether `expr` (the base of an attribute or index step) is, or starts with, a
    /// name that refers outside what this crate evaluates: a resource (`TYPE.NAME`),
    /// `data`, `module`, `path`, `terraform`, `self`, ... The whole reference is then
    /// unknown.
    fn is_external_reference(&self, expr: &Expr) -> bool {
        if self.resource_reference(expr).is_some() {
            return false;
        }
        match expr {
            Expr::Variable(root) => {
                self.lookup(root).is_none()
                    && !matches!(root.as_str(), "var" | "local" | "count" | "each")
            }
            Expr::Attribute(base, _) | Expr::Index(base, _) => self.is_external_reference(base),
            _ => false,
        }
    }

    /// The value of the resource `expr` names (`TYPE.NAME`, `data.TYPE.NAME`), when its
    /// schema is known: the value the caller gave for it (planned or applied), typed by
    /// the schema; otherwise Terraform's value for it while it is not known yet (the
    /// validate walk, and before the resource is planned), an unknown of that type.
    fn resource_reference(&self, expr: &Expr) -> Option<Val> {
        let Expr::Attribute(base, name) = expr else {
            return None;
        };
        let key = match &**base {
            Expr::Variable(type_name) if self.lookup(type_name).is_none() => {
                format!("{type_name}.{name}")
            }
            Expr::Attribute(data, type_name) if matches!(&**data, Expr::Variable(d) if d == "data" && self.lookup("data").is_none()) =>
            {
                format!("data.{type_name}.{name}")
            }
            _ => return None,
        };
        let ty = self.globals.resource_types.get(&key)?;
        Some(match self.globals.resource_values.get(&key) {
            Some(value) => Val::new(ty.clone(), value.clone()),
            None => Val::unknown(ty.clone()),
        })
    }

    /// A bare name: a bound name, or one of Terraform's reference roots.
    fn variable(&self, name: &str, span: Span, diags: &mut Vec<Diag>) -> Val {
        if let Some(value) = self.lookup(name) {
            return value.clone();
        }
        let detail = match name {
            "var" => "A reference to \"var\" must be followed by at least one attribute access, specifying the variable name.".to_owned(),
            "local" => "The \"local\" object cannot be accessed directly. Instead, access one of its attributes.".to_owned(),
            "count" => {
                diags.push(Diag::new(
                    "Reference to \"count\" in non-counted context",
                    "The \"count\" object can only be used in \"module\", \"resource\", and \"data\" blocks, and only when the \"count\" argument is set.",
                    span,
                ));
                return Val::unknown(Type::Dynamic);
            }
            "each" => {
                diags.push(Diag::new(
                    "Reference to \"each\" in context without for_each",
                    "The \"each\" object can be used only in \"module\" or \"resource\" blocks, and only when the \"for_each\" argument is set.",
                    span,
                ));
                return Val::unknown(Type::Dynamic);
            }
            "path" | "terraform" | "self" | "data" | "module" | "ephemeral" | "resource" | "action" | "template" | "iterator" => {
                return Val::unknown(Type::Dynamic);
            }
            _ => format!(
                "A reference to a resource type must be followed by at least one attribute access, specifying the resource name. ({} is not a variable, local value or iterator here.)",
                go_quote(name)
            ),
        };
        diags.push(Diag::new("Invalid reference", detail, span));
        Val::unknown(Type::Dynamic)
    }

    fn input_variable(&self, name: &str, span: Span, diags: &mut Vec<Diag>) -> Val {
        match self.globals.variables.get(name) {
            Some(value) => value.clone(),
            None => {
                diags.push(Diag::new(
                    "Reference to undeclared input variable",
                    format!(
                        "An input variable with the name {} has not been declared. This variable can be declared with a variable {} {{}} block.",
                        go_quote(name),
                        go_quote(name)
                    ),
                    span,
                ));
                Val::unknown(Type::Dynamic)
            }
        }
    }

    fn local_value(&self, name: &str, span: Span, diags: &mut Vec<Diag>) -> Val {
        let Some(&(file, node)) = self.globals.locals.get(name) else {
            diags.push(Diag::new(
                "Reference to undeclared local value",
                format!(
                    "A local value with the name {} has not been declared.",
                    go_quote(name)
                ),
                span,
            ));
            return Val::unknown(Type::Dynamic);
        };
        if let Some(state) = self.globals.evaluated.borrow().get(name) {
            return match state {
                Some(value) => value.clone(),
                None => {
                    diags.push(Diag::new(
                        "Cycle in local values",
                        format!("The local value {} refers to itself, directly or through other local values.", go_quote(name)),
                        span,
                    ));
                    Val::unknown(Type::Dynamic)
                }
            };
        }
        self.globals
            .evaluated
            .borrow_mut()
            .insert(name.to_owned(), None);
        let mut value = Scope::new(self.globals).eval_json(file, node, diags);
        if nested_deeper_than(&value.value, MAX_DEPTH) {
            // Referred to from deep in another local value, it would build one deeper
            // still: each local's value stays within the values' limit.
            diags.push(Diag::new(
                "Local value too deeply nested",
                format!(
                    "The local value {}: its {}.",
                    go_quote(name),
                    nesting_message("value", MAX_DEPTH, "MAX_DEPTH")
                ),
                span,
            ));
            value = Val::unknown(Type::Dynamic);
        }
        self.globals
            .evaluated
            .borrow_mut()
            .insert(name.to_owned(), Some(value.clone()));
        value
    }
}

/// Whether `value` nests more than `limit` levels of collections and structures
/// (looking no deeper than that).
fn nested_deeper_than(value: &Value, limit: usize) -> bool {
    let children: Box<dyn Iterator<Item = &Value>> = match value.untyped() {
        Value::List(vs) | Value::Tuple(vs) => Box::new(vs.iter()),
        Value::Set(s) => Box::new(s.iter()),
        Value::Map(m) => Box::new(m.iter().map(|(_, v)| v)),
        Value::Object(o) => Box::new(o.iter().map(|(_, v)| v)),
        _ => return false,
    };
    let mut children = children.peekable();
    if children.peek().is_none() {
        return false;
    }
    limit == 0 || children.any(|v| nested_deeper_than(v, limit - 1))
}

/// A number literal's value.
fn number(text: &str, span: Span, diags: &mut Vec<Diag>) -> Val {
    match crate::json::decode::number(text) {
        Ok(n) => Val::known(Type::Number, Value::Number(n)),
        Err(e) => {
            diags.push(Diag::new(
                "Invalid number literal",
                e.message().to_owned(),
                span,
            ));
            Val::unknown(Type::Number)
        }
    }
}

/// `base.name`.
pub(crate) fn get_attribute(base: &Val, name: &str, span: Span, diags: &mut Vec<Diag>) -> Val {
    if base.value.is_null() {
        diags.push(Diag::new(
            "Attempt to get attribute from null value",
            "This value is null, so it does not have any attributes.",
            span,
        ));
        return Val::unknown(Type::Dynamic);
    }
    match &base.ty {
        Type::Dynamic => Val::unknown(Type::Dynamic),
        Type::Object(o) => match o.attribute(name) {
            Some(ty) => match &base.value {
                Value::Object(object) => {
                    Val::new(ty.clone(), object.get(name).cloned().unwrap_or(Value::Null))
                }
                _ => Val::unknown(ty.clone()),
            },
            None => {
                diags.push(Diag::new(
                    "Unsupported attribute",
                    format!(
                        "This object does not have an attribute named {}.",
                        go_quote(name)
                    ),
                    span,
                ));
                Val::unknown(Type::Dynamic)
            }
        },
        Type::Map(element) => match &base.value {
            Value::Map(map) => match map.get(name) {
                Some(v) => Val::new((**element).clone(), v.clone()),
                None => {
                    diags.push(Diag::new(
                        "Missing map element",
                        format!(
                            "This map does not have an element with the key {}.",
                            go_quote(name)
                        ),
                        span,
                    ));
                    Val::unknown((**element).clone())
                }
            },
            _ => Val::unknown((**element).clone()),
        },
        // The legacy index syntax, `list.0`.
        Type::List(_) | Type::Tuple(_) if name.bytes().all(|b| b.is_ascii_digit()) => index(
            base,
            &Val::known(
                Type::Number,
                Value::Number(name.parse().unwrap_or_else(|_| Number::zero())),
            ),
            span,
            diags,
        ),
        ty => {
            diags.push(Diag::new(
                "Unsupported attribute",
                format!(
                    "Can't access attributes on a value of type {}.",
                    ty.friendly_name()
                ),
                span,
            ));
            Val::unknown(Type::Dynamic)
        }
    }
}

/// `base[key]`.
pub(crate) fn index(base: &Val, key: &Val, span: Span, diags: &mut Vec<Diag>) -> Val {
    let invalid = |diags: &mut Vec<Diag>, detail: String| {
        diags.push(Diag::new("Invalid index", detail, span));
        Val::unknown(Type::Dynamic)
    };
    if base.value.is_null() {
        return invalid(
            diags,
            "Can't use a null value as an indexed collection.".into(),
        );
    }
    if key.value.is_null() {
        return invalid(diags, "Can't use a null value as an index.".into());
    }
    match &base.ty {
        Type::Dynamic => Val::unknown(Type::Dynamic),
        Type::List(_) | Type::Tuple(_) => {
            let element_type = |i: Option<usize>| match &base.ty {
                Type::List(e) => (**e).clone(),
                Type::Tuple(es) => i.and_then(|i| es.get(i).cloned()).unwrap_or(Type::Dynamic),
                _ => Type::Dynamic,
            };
            let position = match key.convert(&Type::Number) {
                Ok(Value::Number(n)) => n,
                Ok(_) => return Val::unknown(element_type(None)),
                Err(e) => return invalid(diags, format!("The given key does not identify an element in this collection value: {e}.")),
            };
            let Some(i) = position.to_u64().filter(|_| position.is_integer()) else {
                return invalid(diags, "The given key does not identify an element in this collection value.".into());
            };
            let i = usize::try_from(i).unwrap_or(usize::MAX);
            match base.value.as_slice() {
                Some(elements) => match elements.get(i) {
                    Some(v) => Val::new(element_type(Some(i)), v.clone()),
                    None => invalid(diags, "The given key does not identify an element in this collection value.".into()),
                },
                None => Val::unknown(element_type(Some(i))),
            }
        }
        Type::Map(_) | Type::Object(_) => {
            let name = match key.convert(&Type::String) {
                Ok(Value::String(s)) => s.as_str().to_owned(),
                Ok(_) => {
                    return Val::unknown(match &base.ty {
                        Type::Map(e) => (**e).clone(),
                        _ => Type::Dynamic,
                    })
                }
                Err(e) => return invalid(diags, format!("The given key does not identify an element in this collection value: {e}.")),
            };
            if let Type::Object(o) = &base.ty {
                if o.attribute(&name).is_none() {
                    return invalid(diags, format!("The given key does not identify an element in this collection value. (There is no attribute {}.)", go_quote(&name)));
                }
            }
            match (&base.ty, &base.value) {
                (Type::Map(_), Value::Map(m)) if m.get(&name).is_none() => {
                    invalid(diags, "The given key does not identify an element in this collection value.".into())
                }
                _ => get_attribute(base, &name, span, diags),
            }
        }
        Type::Set(_) => invalid(diags, "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set.".into()),
        ty => invalid(diags, format!("This value does not have any indices (it is of type {}).", ty.friendly_name())),
    }
}

/// The elements of a known collection as `(key, value)`: indexes of lists and tuples,
/// keys of maps and attribute names of objects (in their order), the elements
/// themselves for sets. `None` for anything else, or an unknown or null value.
pub(crate) fn elements(collection: &Val) -> Option<Vec<(Val, Val)>> {
    let value = collection.value.untyped();
    match (&collection.ty, value) {
        (Type::List(e), Value::List(items)) => Some(
            items
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    (
                        Val::known(Type::Number, Value::from(i as u64)),
                        Val::new((**e).clone(), v.clone()),
                    )
                })
                .collect(),
        ),
        (Type::Tuple(es), Value::Tuple(items)) => Some(
            items
                .iter()
                .zip(es.iter())
                .enumerate()
                .map(|(i, (v, t))| {
                    (
                        Val::known(Type::Number, Value::from(i as u64)),
                        Val::new(t.clone(), v.clone()),
                    )
                })
                .collect(),
        ),
        (Type::Set(e), Value::Set(items)) => Some(
            items
                .iter()
                .map(|v| {
                    let v = Val::new((**e).clone(), v.clone());
                    (v.clone(), v)
                })
                .collect(),
        ),
        (Type::Map(e), Value::Map(m)) => Some(
            m.iter()
                .map(|(k, v)| {
                    (
                        Val::known(Type::String, Value::string(k)),
                        Val::new((**e).clone(), v.clone()),
                    )
                })
                .collect(),
        ),
        (Type::Object(o), Value::Object(obj)) => Some(
            o.iter()
                .zip(obj.values())
                .map(|((name, ty, _), v)| {
                    (
                        Val::known(Type::String, Value::string(name)),
                        Val::new(ty.clone(), v.clone()),
                    )
                })
                .collect(),
        ),
        _ => None,
    }
}

/// `text` cut to at most `max` bytes, at a character boundary.
fn truncate(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut cut = max;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    &text[..cut]
}

/// go-cty's `ctystrings.SafeKnownPrefix`: the prefix in NFC without its last grapheme
/// cluster, which text after it could still change (a combining accent after a
/// letter), unless that cluster is one of the delimiters go-cty knows cannot combine
/// (`-`, `_`, `:`, `/`, `.`, a space, ...).
pub(crate) fn safe_known_prefix(prefix: &str) -> String {
    let prefix = crate::text::nfc(prefix);
    let Some((last_start, last)) = prefix.grapheme_indices(true).next_back() else {
        return String::new();
    };
    let mut chars = last.chars();
    let delimiter = matches!(
        (chars.next(), chars.next()),
        (
            Some(
                '-' | '_'
                    | ':'
                    | ';'
                    | '/'
                    | '\\'
                    | ','
                    | '.'
                    | '('
                    | ')'
                    | '{'
                    | '}'
                    | '['
                    | ']'
                    | '|'
                    | '?'
                    | '!'
                    | '~'
                    | ' '
                    | '\t'
                    | '@'
                    | '#'
                    | '$'
                    | '%'
                    | '^'
                    | '&'
                    | '*'
                    | '+'
                    | '"'
                    | '\''
            ),
            None
        )
    );
    if delimiter {
        prefix.into_owned()
    } else {
        prefix[..last_start].to_owned()
    }
}

/// The byte `at` of a template read from the JSON string at `span`: HCL reads the
/// template as starting one byte into the string (past its quote), not counting the
/// escapes the JSON reader undid.
fn in_string(span: Span, at: usize) -> Span {
    let at = span.start + 1 + at;
    Span::new(span.file, at, at + 1)
}

/// `detail` with each template range marker of `syntax::template::template_range` made a file
/// range of the JSON string at `span`.
fn file_ranges(detail: &str, span: Span) -> String {
    let mut out = String::with_capacity(detail.len());
    let mut rest = detail;
    while let Some(open) = rest.find('\u{3}') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('\u{4}') else {
            break;
        };
        let mut bounds = after[..close]
            .split(':')
            .filter_map(|n| n.parse::<usize>().ok());
        if let (Some(start), Some(end)) = (bounds.next(), bounds.next()) {
            let first = in_string(span, start);
            out.push_str(&range_marker(Span::new(
                span.file,
                first.start,
                span.start + 1 + end,
            )));
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_prefixes() {
        assert_eq!(safe_known_prefix("test_"), "test_");
        assert_eq!(safe_known_prefix("web-1"), "web-");
        assert_eq!(safe_known_prefix("abc"), "ab");
        assert_eq!(safe_known_prefix("cafe\u{301}"), "caf");
        assert_eq!(safe_known_prefix("a "), "a ");
        assert_eq!(safe_known_prefix(""), "");
        assert_eq!(truncate("ééé", 3), "é");
    }
}

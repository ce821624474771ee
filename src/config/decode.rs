//! A body decoded with a provider schema into the value Terraform sends: HCL's
//! `hcldec` with the spec Terraform's `configschema` builds, after `dynamic` blocks are
//! expanded as HCL's `dynblock` does.
//!
//! - An attribute is its expression's value converted to the attribute's type (the
//!   type with its `optional(...)` markers, or for a protocol-6 nested type the object
//!   type whose optional and computed attributes are optional); absent, it is null.
//! - A SINGLE block is its body's object, null when absent; a GROUP block the same,
//!   but absent it holds null attributes and empty block collections. A LIST block
//!   type is a list of objects, a SET a set, a MAP a map keyed by the block's one
//!   label; a LIST or MAP block type whose block holds `dynamic` anywhere is a tuple or
//!   an object instead, in the dynamic wrapper. No blocks give an empty collection.
//! - `min_items` and `max_items` are checked for LIST and SET, `min_items` 1 for
//!   SINGLE (a required block); a second SINGLE or GROUP block, or two MAP blocks with
//!   one label, is an error.
//! - A `dynamic "TYPE"` block makes one block of TYPE per element of its `for_each`,
//!   in its place among the literal blocks, with its `content` as body and its
//!   iterator (named `iterator`, or TYPE) bound to `{key, value}`. When `for_each` is
//!   unknown, the whole LIST, SET or MAP value is unknown; a SINGLE or GROUP block is
//!   an object whose attributes are unknown.

use super::body::{Block as RawBlock, Body, BodySchema, Content};
use super::diagnostic::{Diag, Span};
use super::document::NodeKind;
use super::eval::{elements, Scope};
use super::syntax::{self, Expr};
use super::typed::Val;
use crate::schema::{Attribute, AttributeNesting, Block, BlockNesting, NestedBlock};
use crate::text::go_quote;
use crate::types::Type;
use crate::value::conform::concrete_type;
use crate::value::Value;

/// One block to decode: its body, the scope its expressions see, and whether it stands
/// for the blocks of a `dynamic` block whose `for_each` is unknown.
#[derive(Clone)]
struct Item<'d, 'g> {
    block: RawBlock<'d>,
    scope: Scope<'g, 'd>,
    unknown: bool,
}

/// Decodes `body` with `schema` in `scope`: an object of the block's implied type.
pub(crate) fn decode_body<'d, 'g>(
    body: &Body<'d>,
    schema: &Block,
    scope: &Scope<'g, 'd>,
    unknown: bool,
    diags: &mut Vec<Diag>,
) -> Value {
    let block_types: Vec<(&String, &NestedBlock)> = schema.unshadowed_block_types().collect();
    let mut body_schema = BodySchema::new();
    for (name, attribute) in &schema.attributes {
        body_schema = body_schema.attribute(name, attribute.required);
    }
    for (name, nested) in &block_types {
        let labels: &[&str] = if nested.nesting == BlockNesting::Map {
            &["key"]
        } else {
            &[]
        };
        body_schema = body_schema.block(name, labels);
    }
    body_schema = body_schema.block("dynamic", &["type"]);
    let content = body.content(&body_schema, diags);
    let items = expand(&content, schema, scope, unknown, diags);

    let mut values: Vec<(&str, Value)> = Vec::new();
    for (name, attribute) in &schema.attributes {
        let value = match content.attribute(name) {
            None => Value::Null,
            Some(attr) => {
                let value = if unknown {
                    Val::unknown(Type::Dynamic)
                } else {
                    scope.eval_json(attr.file, attr.value, diags)
                };
                match value.convert(&spec_type(attribute)) {
                    Ok(v) => v,
                    Err(e) => {
                        diags.push(Diag::new(
                            "Incorrect attribute value type",
                            format!("Inappropriate value for attribute {}: {e}.", go_quote(name)),
                            attr.value_span(),
                        ));
                        Value::unknown()
                    }
                }
            }
        };
        values.push((name, value));
    }
    for (name, nested) in block_types {
        let of_type: Vec<&Item<'d, 'g>> = items
            .iter()
            .filter(|i| i.block.type_name == *name)
            .collect();
        let value = decode_blocks(name, nested, &of_type, &content, diags);
        values.push((name, value));
    }
    Value::object(values)
}

/// The type an attribute's expression is converted to: its type as the schema gives
/// it, optional markers and all; for a nested type, objects whose optional and
/// computed attributes are optional, in a list, set or map as nested.
pub(crate) fn spec_type(attribute: &Attribute) -> Type {
    let Some(nested) = &attribute.nested_type else {
        return attribute.ty.clone().unwrap_or(Type::Dynamic);
    };
    let object = Type::object_with_optional(
        nested
            .attributes
            .iter()
            .map(|(n, a)| (n.as_str(), spec_type(a))),
        nested
            .attributes
            .iter()
            .filter(|(_, a)| a.optional || a.computed)
            .map(|(n, _)| n.as_str()),
    );
    match nested.nesting {
        AttributeNesting::Single => object,
        AttributeNesting::List => Type::list(object),
        AttributeNesting::Set => Type::set(object),
        AttributeNesting::Map => Type::map(object),
    }
}

/// The blocks of `content` with the `dynamic` blocks expanded, in order.
fn expand<'d, 'g>(
    content: &Content<'d>,
    schema: &Block,
    scope: &Scope<'g, 'd>,
    unknown: bool,
    diags: &mut Vec<Diag>,
) -> Vec<Item<'d, 'g>> {
    let mut items = Vec::new();
    for block in &content.blocks {
        if block.type_name != "dynamic" {
            items.push(Item {
                block: block.clone(),
                scope: scope.clone(),
                unknown,
            });
            continue;
        }
        let (type_name, type_span) = (&block.labels[0].0, block.labels[0].1);
        let nested = schema
            .unshadowed_block_types()
            .find(|(n, _)| *n == type_name);
        let Some((type_name, nested)) = nested else {
            diags.push(Diag::new(
                "Unsupported block type",
                format!(
                    "Blocks of type {} are not expected here.",
                    go_quote(type_name)
                ),
                type_span,
            ));
            continue;
        };
        expand_dynamic(
            block, type_name, type_span, nested, scope, unknown, diags, &mut items,
        );
    }
    items
}

/// Expands one `dynamic` block into `items`.
#[allow(clippy::too_many_arguments)]
fn expand_dynamic<'d, 'g>(
    block: &RawBlock<'d>,
    type_name: &str,
    type_span: Span,
    nested: &NestedBlock,
    scope: &Scope<'g, 'd>,
    unknown: bool,
    diags: &mut Vec<Diag>,
    items: &mut Vec<Item<'d, 'g>>,
) {
    let labeled = nested.nesting == BlockNesting::Map;
    let mut spec = BodySchema::new()
        .attribute("for_each", true)
        .attribute("iterator", false)
        .block("content", &[]);
    if labeled {
        spec = spec.attribute("labels", true);
    }
    let before = diags.len();
    let content = block.body.content(&spec, diags);
    if diags.len() > before {
        return;
    }
    let iterator = match content.attribute("iterator") {
        None => type_name.to_owned(),
        Some(attr) => match iterator_name(&attr.value.kind) {
            Some(name) => name,
            None => {
                diags.push(Diag::new(
                    "Invalid dynamic iterator name",
                    "Dynamic iterator must be a single variable name.",
                    attr.value_span(),
                ));
                return;
            }
        },
    };
    let Some(for_each_attr) = content.attribute("for_each") else {
        return;
    };
    let before = diags.len();
    let for_each = scope.eval_json(for_each_attr.file, for_each_attr.value, diags);
    if diags.len() > before {
        return;
    }
    let iterable = matches!(
        for_each.ty,
        Type::List(_) | Type::Set(_) | Type::Map(_) | Type::Tuple(_) | Type::Object(_)
    );
    if !iterable && for_each.ty != Type::Dynamic {
        diags.push(Diag::new(
            "Invalid dynamic for_each value",
            format!(
                "Cannot use a {} value in for_each. An iterable collection is required.",
                for_each.ty.friendly_name()
            ),
            for_each_attr.value_span(),
        ));
        return;
    }
    if for_each.value.is_null() {
        diags.push(Diag::new(
            "Invalid dynamic for_each value",
            "Cannot use a null value in for_each.",
            for_each_attr.value_span(),
        ));
        return;
    }
    let labels = match content.attribute("labels") {
        None => Vec::new(),
        Some(attr) => {
            let NodeKind::Array(labels) = &attr.value.kind else {
                diags.push(Diag::new(
                    "Invalid expression",
                    "A static list expression is required.",
                    attr.value_span(),
                ));
                return;
            };
            if labels.len() != 1 {
                let (summary, at) = if labels.len() > 1 {
                    (
                        "Extraneous dynamic block label",
                        Span::new(attr.file, labels[1].start, labels[1].end),
                    )
                } else {
                    ("Insufficient dynamic block labels", attr.value_span())
                };
                diags.push(Diag::new(
                    summary,
                    format!("Blocks of type {} require 1 label(s).", go_quote(type_name)),
                    at,
                ));
                return;
            }
            labels.iter().map(|l| (attr.file, l)).collect()
        }
    };
    let body = match content.blocks.as_slice() {
        [] => {
            diags.push(Diag {
                summary: "Missing dynamic content block".into(),
                detail: "A dynamic block must have a nested block of type \"content\" to describe the body of each generated block.".into(),
                span: content.missing,
            });
            return;
        }
        [one] => one.body.clone(),
        [_, second, ..] => {
            diags.push(Diag::new(
                "Extraneous dynamic content block",
                "Only one nested content block is allowed for each dynamic block.",
                second.def,
            ));
            return;
        }
    };
    let iterations = match elements(&for_each) {
        Some(elements) => elements.into_iter().map(|(k, v)| (k, v, unknown)).collect(),
        None => vec![(
            Val::unknown(Type::Dynamic),
            Val::unknown(Type::Dynamic),
            true,
        )],
    };
    for (key, value, is_unknown) in iterations {
        let child = scope.with(
            &iterator,
            Val::object(vec![("key".into(), key), ("value".into(), value)]),
        );
        let mut block_labels = Vec::new();
        for &(file, label) in &labels {
            let span = Span::new(file, label.start, label.end);
            let value = child.eval_json(file, label, diags);
            let invalid = |diags: &mut Vec<Diag>, detail: String| {
                diags.push(Diag::new("Invalid dynamic block label", detail, span));
            };
            match value.convert(&Type::String) {
                Ok(Value::String(s)) => block_labels.push((s.as_str().to_owned(), span)),
                Ok(Value::Null) => {
                    invalid(diags, "Cannot use a null value as a dynamic block label.".into())
                }
                Ok(_) => invalid(
                    diags,
                    "This value is not yet known. Dynamic block labels must be immediately-known values.".into(),
                ),
                Err(e) => invalid(
                    diags,
                    format!("Cannot use this value as a dynamic block label: {e}."),
                ),
            }
        }
        if block_labels.len() != labels.len() {
            continue;
        }
        items.push(Item {
            block: RawBlock {
                type_name: type_name.to_owned(),
                labels: block_labels,
                body: body.clone(),
                def: block.def,
                type_span,
            },
            scope: child,
            unknown: is_unknown,
        });
    }
}

/// The name in an `iterator` argument: a JSON string holding one identifier.
fn iterator_name(kind: &NodeKind) -> Option<String> {
    let NodeKind::String(text) = kind else {
        return None;
    };
    match syntax::parse_expression(text) {
        Ok(Expr::Variable(name)) => Some(name),
        _ => None,
    }
}

/// Decodes the blocks of one block type.
fn decode_blocks(
    name: &str,
    nested: &NestedBlock,
    items: &[&Item<'_, '_>],
    parent: &Content<'_>,
    diags: &mut Vec<Diag>,
) -> Value {
    let decode = |item: &Item<'_, '_>, diags: &mut Vec<Diag>| {
        decode_body(
            &item.block.body,
            &nested.block,
            &item.scope,
            item.unknown,
            diags,
        )
    };
    match nested.nesting {
        BlockNesting::Single | BlockNesting::Group => {
            if let [first, second, ..] = items {
                diags.push(Diag::new(
                    format!("Duplicate {name} block"),
                    format!(
                        "Only one block of type {} is allowed. Previous definition was at {}.",
                        go_quote(name),
                        super::diagnostic::range_marker(first.block.def)
                    ),
                    second.block.def,
                ));
            }
            match items.first() {
                Some(item) => decode(item, diags),
                None if nested.nesting == BlockNesting::Group => nested.block.empty_value(),
                None => {
                    if nested.min_items == 1 {
                        diags.push(Diag {
                            summary: format!("Missing {name} block"),
                            detail: format!("A block of type {} is required here.", go_quote(name)),
                            span: parent.missing,
                        });
                    }
                    Value::Null
                }
            }
        }
        BlockNesting::List | BlockNesting::Set => {
            let mut elements = Vec::with_capacity(items.len());
            for item in items {
                let value = decode(item, diags);
                if item.unknown {
                    return Value::unknown();
                }
                elements.push(value);
            }
            let count = elements.len() as u64;
            if count < nested.min_items {
                diags.push(Diag {
                    summary: format!("Insufficient {name} blocks"),
                    detail: format!(
                        "At least {} {} blocks are required.",
                        nested.min_items,
                        go_quote(name)
                    ),
                    span: parent.missing,
                });
            } else if nested.max_items > 0 && count > nested.max_items {
                let extra = items[usize::try_from(nested.max_items).unwrap_or(usize::MAX)];
                diags.push(Diag {
                    summary: format!("Too many {name} blocks"),
                    detail: format!(
                        "No more than {} {} blocks are allowed",
                        nested.max_items,
                        go_quote(name)
                    ),
                    span: extra.block.body.missing_span(),
                });
            }
            match nested.nesting {
                BlockNesting::Set => Value::set(elements),
                _ if nested.is_dynamic() => {
                    let ty = nested.block.implied_type();
                    let types: Vec<Type> = elements
                        .iter()
                        .map(|e| concrete_type(e, &ty).unwrap_or_else(|_| ty.clone()))
                        .collect();
                    Value::typed(Type::tuple(types), Value::tuple(elements))
                }
                _ => Value::list(elements),
            }
        }
        BlockNesting::Map => {
            let mut entries: Vec<(&str, Value)> = Vec::with_capacity(items.len());
            let mut keys = std::collections::BTreeSet::new();
            for item in items {
                if item.unknown {
                    return Value::unknown();
                }
                let value = decode(item, diags);
                let Some((key, _)) = item.block.labels.first() else {
                    continue;
                };
                if !keys.insert(key.as_str()) {
                    diags.push(Diag::new(
                        format!("Duplicate {name} block"),
                        format!(
                            "A block for {name} {} was already defined. The {name} labels must be unique.",
                            go_quote(key)
                        ),
                        item.block.def,
                    ));
                    continue;
                }
                entries.push((key, value));
            }
            if nested.is_dynamic() {
                let ty = nested.block.implied_type();
                let object = Value::object(entries.iter().map(|(k, v)| (*k, v.clone())));
                let object_ty = Type::object(
                    entries
                        .iter()
                        .map(|(k, v)| (*k, concrete_type(v, &ty).unwrap_or_else(|_| ty.clone()))),
                );
                Value::typed(object_ty, object)
            } else {
                Value::map(entries)
            }
        }
    }
}

//! HCL's JSON syntax for bodies: which properties of a JSON object are attributes and
//! which are blocks, told by a schema (the `json` package of HCL, its `spec.md`).
//!
//! - A body is a JSON object, or an array of objects whose properties are visited in
//!   turn. A property named `"//"` is a comment in a body (and only there).
//! - A property the schema names as an attribute is that attribute; the same name twice
//!   is an error.
//! - A property the schema names as a block type holds blocks: one object level per
//!   label (an object, or an array of objects, whose property names are the labels),
//!   then an object (one block), an array of objects (one block each, in order), or
//!   `null` (none).
//! - Any other property is an error when the whole body is read ([`Body::content`]);
//!   [`Body::partial_content`] leaves it for a later reading of the rest
//!   ([`Body::remain`]).

use std::rc::Rc;

use super::diagnostic::{range_marker, Diag, FileId, Span};
use super::document::{Node, NodeKind, Property};
use crate::text::go_quote;

/// What a body may hold: attributes (some required) and block types (with label
/// names).
#[derive(Clone, Debug, Default)]
pub(crate) struct BodySchema<'s> {
    pub(crate) attributes: Vec<(&'s str, bool)>,
    pub(crate) blocks: Vec<(&'s str, &'s [&'s str])>,
}

impl<'s> BodySchema<'s> {
    pub(crate) fn new() -> BodySchema<'s> {
        BodySchema::default()
    }

    pub(crate) fn attribute(mut self, name: &'s str, required: bool) -> BodySchema<'s> {
        self.attributes.push((name, required));
        self
    }

    pub(crate) fn block(mut self, type_name: &'s str, labels: &'s [&'s str]) -> BodySchema<'s> {
        self.blocks.push((type_name, labels));
        self
    }

    fn is_attribute(&self, name: &str) -> bool {
        self.attributes.iter().any(|(n, _)| *n == name)
    }

    fn block_labels(&self, name: &str) -> Option<&'s [&'s str]> {
        self.blocks
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, labels)| *labels)
    }
}

/// A body: one JSON value of one file, with the names an earlier partial reading took
/// hidden; or several merged (a block's `_` escaping block joins its body).
#[derive(Clone, Debug)]
pub(crate) struct Body<'d> {
    parts: Vec<Part<'d>>,
}

#[derive(Clone, Debug)]
struct Part<'d> {
    file: FileId,
    node: &'d Node,
    hidden: Rc<Vec<String>>,
}

/// An attribute found in a body.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Attribute<'d> {
    pub(crate) name: &'d str,
    pub(crate) file: FileId,
    /// The name's opening quote.
    pub(crate) name_at: usize,
    pub(crate) value: &'d Node,
}

impl Attribute<'_> {
    /// The name's range.
    pub(crate) fn name_span(&self) -> Span {
        Span::new(self.file, self.name_at, self.name_at + self.name.len() + 2)
    }

    /// The value's range.
    pub(crate) fn value_span(&self) -> Span {
        Span::new(self.file, self.value.start, self.value.end)
    }
}

/// A block found in a body.
#[derive(Clone, Debug)]
pub(crate) struct Block<'d> {
    pub(crate) type_name: String,
    pub(crate) labels: Vec<(String, Span)>,
    pub(crate) body: Body<'d>,
    /// Where the block is defined: the `{` of its object, or the `[` of the array that
    /// holds it (as HCL reports it).
    pub(crate) def: Span,
    /// The block type's property name.
    pub(crate) type_span: Span,
}

/// What a reading of a body found, with a range to report missing things at.
#[derive(Clone, Debug, Default)]
pub(crate) struct Content<'d> {
    /// The attributes in the order they were written.
    pub(crate) attributes: Vec<Attribute<'d>>,
    /// The blocks in the order they were written.
    pub(crate) blocks: Vec<Block<'d>>,
    /// Where a missing attribute or block is reported: the closing brace of the body's
    /// object (its first part's).
    pub(crate) missing: Option<Span>,
}

impl<'d> Content<'d> {
    pub(crate) fn attribute(&self, name: &str) -> Option<&Attribute<'d>> {
        self.attributes.iter().find(|a| a.name == name)
    }
}

impl<'d> Body<'d> {
    /// The body that `node` of `file` is.
    pub(crate) fn new(file: FileId, node: &'d Node) -> Body<'d> {
        Body {
            parts: vec![Part {
                file,
                node,
                hidden: Rc::new(Vec::new()),
            }],
        }
    }

    /// This body and `other`, merged as HCL's `MergeBodies` does: attributes from both
    /// (one name in both is an error), blocks of this one then the other's.
    pub(crate) fn merge(mut self, other: Body<'d>) -> Body<'d> {
        self.parts.extend(other.parts);
        self
    }

    /// Where the body's first JSON value starts.
    pub(crate) fn start_span(&self) -> Option<Span> {
        self.parts.first().map(|p| Span::at(p.file, p.node.start))
    }

    /// Where a missing item is reported: the closing brace of the first part's object
    /// (the opening bracket of an array).
    pub(crate) fn missing_span(&self) -> Option<Span> {
        self.parts
            .first()
            .map(|p| Span::at(p.file, p.node.close_at()))
    }

    /// Reads the whole body with `schema`: a property the schema does not name is an
    /// error ("Extraneous JSON object property").
    pub(crate) fn content(&self, schema: &BodySchema<'_>, diags: &mut Vec<Diag>) -> Content<'d> {
        self.read(schema, false, diags)
    }

    /// Reads the attributes and blocks `schema` names and leaves the rest.
    pub(crate) fn partial_content(
        &self,
        schema: &BodySchema<'_>,
        diags: &mut Vec<Diag>,
    ) -> Content<'d> {
        self.read(schema, true, diags)
    }

    /// This body with the names in `schema` hidden: what is left after
    /// [`partial_content`](Self::partial_content) with that schema.
    pub(crate) fn remain(&self, schema: &BodySchema<'_>) -> Body<'d> {
        let names = schema
            .attributes
            .iter()
            .map(|(n, _)| *n)
            .chain(schema.blocks.iter().map(|(n, _)| *n));
        Body {
            parts: self
                .parts
                .iter()
                .map(|p| {
                    let mut hidden = (*p.hidden).clone();
                    hidden.extend(names.clone().map(str::to_owned));
                    Part {
                        file: p.file,
                        node: p.node,
                        hidden: Rc::new(hidden),
                    }
                })
                .collect(),
        }
    }

    /// Every property as an attribute, for a body read without a schema (`locals`):
    /// HCL's `JustAttributes`. The body must be one JSON object.
    pub(crate) fn just_attributes(&self, diags: &mut Vec<Diag>) -> Vec<Attribute<'d>> {
        let mut attributes: Vec<Attribute<'d>> = Vec::new();
        // Where each name is in `attributes`: many attributes cost no quadratic time.
        let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for part in &self.parts {
            let NodeKind::Object(properties) = &part.node.kind else {
                diags.push(Diag::new(
                    "Incorrect JSON value type",
                    "A JSON object is required here, setting the arguments for this block.",
                    Span::at(part.file, part.node.start),
                ));
                continue;
            };
            for p in properties {
                if &*p.name == "//" || part.hidden.iter().any(|h| **h == *p.name) {
                    continue;
                }
                let attribute = attribute(part.file, p);
                if let Some(existing) = seen.get(&*p.name).map(|&i| &attributes[i]) {
                    diags.push(Diag::new(
                        "Duplicate attribute definition",
                        format!(
                            "The argument {} was already set at {}.",
                            go_quote(&p.name),
                            range_marker(existing.name_span())
                        ),
                        attribute.name_span(),
                    ));
                    continue;
                }
                seen.insert(&p.name, attributes.len());
                attributes.push(attribute);
            }
        }
        attributes
    }

    fn read(&self, schema: &BodySchema<'_>, partial: bool, diags: &mut Vec<Diag>) -> Content<'d> {
        let merged = self.parts.len() > 1;
        let mut content = Content {
            missing: self.missing_span(),
            ..Content::default()
        };
        let mut extraneous = Vec::new();
        let mut extraneous_names = Vec::new();
        for part in &self.parts {
            let before = content.attributes.len();
            let properties = collect_properties(part.file, part.node, None, diags);
            for p in properties {
                let name = &*p.name;
                if part.hidden.iter().any(|h| h == name) {
                    continue;
                }
                if schema.is_attribute(name) {
                    let attribute = attribute(part.file, p);
                    if let Some(existing) = content.attributes.iter().find(|a| a.name == name) {
                        // Within one JSON object, and across merged bodies.
                        let detail = if content.attributes[before..].iter().any(|a| a.name == name)
                        {
                            format!(
                                "The argument {} was already set at {}.",
                                go_quote(name),
                                range_marker(existing.value_span_from_name())
                            )
                        } else {
                            format!(
                                "Argument {} was already set at {}",
                                go_quote(name),
                                range_marker(existing.name_span())
                            )
                        };
                        diags.push(Diag::new(
                            "Duplicate argument",
                            detail,
                            attribute.name_span(),
                        ));
                        continue;
                    }
                    content.attributes.push(attribute);
                } else if let Some(labels) = schema.block_labels(name) {
                    let type_span = Span::new(part.file, p.name_at, p.name_at + name.len() + 2);
                    unpack_block(
                        part.file,
                        &p.value,
                        name,
                        type_span,
                        labels,
                        &mut Vec::new(),
                        &mut content.blocks,
                        diags,
                    );
                } else if !partial && name != "//" {
                    extraneous.push(Span::new(part.file, p.name_at, p.name_at + name.len() + 2));
                    extraneous_names.push(name);
                }
            }
        }
        for (span, name) in extraneous.into_iter().zip(extraneous_names) {
            let suggestion = suggest(
                name,
                schema
                    .attributes
                    .iter()
                    .map(|(n, _)| *n)
                    .filter(|n| content.attribute(n).is_none())
                    .chain(schema.blocks.iter().map(|(n, _)| *n)),
            );
            diags.push(Diag::new(
                "Extraneous JSON object property",
                format!(
                    "No argument or block type is named {}.{suggestion}",
                    go_quote(name)
                ),
                span,
            ));
        }
        for (name, required) in &schema.attributes {
            if *required && content.attribute(name).is_none() {
                let detail = if merged {
                    format!(
                        "The argument {} is required, but was not set.",
                        go_quote(name)
                    )
                } else {
                    format!(
                        "The argument {} is required, but no definition was found.",
                        go_quote(name)
                    )
                };
                diags.push(Diag {
                    summary: "Missing required argument".into(),
                    detail,
                    span: if merged { None } else { content.missing },
                });
            }
        }
        content
    }
}

impl Attribute<'_> {
    /// The range HCL gives an attribute: from its name to the end of its value.
    fn value_span_from_name(&self) -> Span {
        Span::new(self.file, self.name_at, self.value.end)
    }
}

fn attribute(file: FileId, p: &Property) -> Attribute<'_> {
    Attribute {
        name: &p.name,
        file,
        name_at: p.name_at,
        value: &p.value,
    }
}

/// The properties of a body, or of one label level (`label` names it for errors): an
/// object's, or those of each object of an array in turn; none for `null`.
fn collect_properties<'d>(
    file: FileId,
    node: &'d Node,
    label: Option<&str>,
    diags: &mut Vec<Diag>,
) -> Vec<&'d Property> {
    match &node.kind {
        NodeKind::Null => Vec::new(),
        NodeKind::Object(properties) => properties.iter().collect(),
        NodeKind::Array(elements) => {
            let mut out = Vec::new();
            for element in elements {
                match &element.kind {
                    NodeKind::Object(properties) => out.extend(properties),
                    _ => diags.push(Diag::new(
                        "Incorrect JSON value type",
                        match label {
                            Some(label) => format!(
                                "A JSON object is required here, to specify {label} labels for this block."
                            ),
                            None => "A JSON object is required here, to define arguments and child blocks.".into(),
                        },
                        Span::at(file, element.start),
                    )),
                }
            }
            out
        }
        _ => {
            diags.push(Diag::new(
                "Incorrect JSON value type",
                match label {
                    Some(label) => format!(
                        "Either a JSON object or JSON array of objects is required here, to specify {label} labels for this block."
                    ),
                    None => "Either a JSON object or JSON array of objects is required here, to define arguments and child blocks.".into(),
                },
                Span::at(file, node.start),
            ));
            Vec::new()
        }
    }
}

/// Unpacks the blocks of type `type_name` in `node`: one object level per label left,
/// then the block bodies.
#[allow(clippy::too_many_arguments)]
fn unpack_block<'d>(
    file: FileId,
    node: &'d Node,
    type_name: &str,
    type_span: Span,
    labels_left: &[&str],
    labels: &mut Vec<(String, Span)>,
    blocks: &mut Vec<Block<'d>>,
    diags: &mut Vec<Diag>,
) {
    if let Some((label, rest)) = labels_left.split_first() {
        let properties = collect_properties(file, node, Some(label), diags);
        if properties.is_empty() {
            diags.push(Diag::new(
                "Missing block label",
                format!("At least one object property is required, whose name represents the {type_name} block's {label}."),
                Span::at(file, node.start),
            ));
            return;
        }
        for p in properties {
            labels.push((
                p.name.to_string(),
                Span::new(file, p.name_at, p.name_at + p.name.len() + 2),
            ));
            unpack_block(
                file, &p.value, type_name, type_span, rest, labels, blocks, diags,
            );
            labels.pop();
        }
        return;
    }
    match &node.kind {
        NodeKind::Null => {}
        NodeKind::Object(_) => blocks.push(Block {
            type_name: type_name.to_owned(),
            labels: labels.clone(),
            body: Body::new(file, node),
            def: Span::at(file, node.start),
            type_span,
        }),
        NodeKind::Array(elements) => {
            for element in elements {
                blocks.push(Block {
                    type_name: type_name.to_owned(),
                    labels: labels.clone(),
                    body: Body::new(file, element),
                    def: Span::at(file, node.start),
                    type_span,
                });
            }
        }
        _ => diags.push(Diag::new(
            "Incorrect JSON value type",
            format!("Either a JSON object or a JSON array is required, representing the contents of one or more {} blocks.", go_quote(type_name)),
            Span::at(file, node.start),
        )),
    }
}

/// HCL's " Did you mean "x"?" for the first of `candidates` near `name` (a
/// Levenshtein distance under 3), or nothing.
pub(crate) fn suggest<'a>(name: &str, mut candidates: impl Iterator<Item = &'a str>) -> String {
    match candidates.find(|c| levenshtein(name, c) < 3) {
        Some(candidate) => format!(" Did you mean {}?", go_quote(candidate)),
        None => String::new(),
    }
}

/// The Levenshtein distance between `a` and `b`, in characters.
fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            current[j + 1] = (previous[j] + cost)
                .min(previous[j + 1] + 1)
                .min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

//! A `.tf.json` file read into the tree HCL's JSON syntax needs: properties in order,
//! repeated names kept, the exact text of every number, and the byte offset of every
//! value and property name (for diagnostics).
//!
//! The crate's JSON token reader does the reading; nothing here goes through a generic
//! JSON tree.

use crate::error::Result;
use crate::limits::MAX_DEPTH;
use crate::token::json_read::{Kind, Reader};

/// A JSON value with where it is in its file.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Node {
    pub(crate) kind: NodeKind,
    /// The byte offset of the value's first byte.
    pub(crate) start: usize,
    /// The byte offset just past the value's last byte (past the closing `}` or `]`).
    pub(crate) end: usize,
}

/// What a [`Node`] holds.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum NodeKind {
    Null,
    Bool(bool),
    /// The number exactly as written.
    Number(Box<str>),
    /// The string's contents, unescaped.
    String(Box<str>),
    Array(Vec<Node>),
    /// The properties in the order written, repeated names included.
    Object(Vec<Property>),
}

/// One property of a JSON object.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Property {
    pub(crate) name: Box<str>,
    /// The byte offset of the name's opening quote.
    pub(crate) name_at: usize,
    pub(crate) value: Node,
}

impl Node {
    /// The byte offset of the closing brace of an object or bracket of an array (where
    /// HCL reports a missing argument), else the start.
    pub(crate) fn close_at(&self) -> usize {
        match self.kind {
            NodeKind::Object(_) => self.end.saturating_sub(1),
            _ => self.start,
        }
    }
}

/// Reads one JSON document. Errors carry the byte offset of the problem.
pub(crate) fn parse(input: &[u8]) -> Result<Node> {
    let mut r = Reader::new_checked(input);
    let node = value(&mut r, 0)?;
    r.finish()?;
    Ok(node)
}

fn value(r: &mut Reader<'_>, depth: usize) -> Result<Node> {
    let kind = r.peek_kind()?;
    let start = r.offset();
    let kind = match kind {
        Kind::Null => {
            r.read_null()?;
            NodeKind::Null
        }
        Kind::Bool => NodeKind::Bool(r.read_bool()?),
        Kind::Number => NodeKind::Number(r.read_number()?.into()),
        Kind::String => NodeKind::String(r.read_string()?.into()),
        Kind::Array | Kind::Object if depth >= MAX_DEPTH => {
            return Err(crate::limits::depth_exceeded("JSON").at_offset(start))
        }
        Kind::Array => {
            r.begin_array()?;
            let mut elements = Vec::new();
            while r.next_element()? {
                elements.push(value(r, depth + 1)?);
            }
            NodeKind::Array(elements)
        }
        Kind::Object => {
            r.begin_object()?;
            let mut properties = Vec::new();
            while let Some((name, name_at)) = r.next_key_at()? {
                let name: Box<str> = name.into();
                properties.push(Property {
                    name,
                    name_at,
                    value: value(r, depth + 1)?,
                });
            }
            NodeKind::Object(properties)
        }
    };
    Ok(Node {
        kind,
        start,
        end: r.offset(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_order_repeats_positions_and_number_text() {
        let text = br#"{"b": 1.50, "a": [true, null], "b": "x\u0041"}"#;
        let node = parse(text).unwrap();
        let NodeKind::Object(props) = &node.kind else {
            panic!("not an object")
        };
        let names: Vec<&str> = props.iter().map(|p| &*p.name).collect();
        assert_eq!(names, ["b", "a", "b"]);
        assert_eq!(props[0].name_at, 1);
        assert_eq!(props[0].value.kind, NodeKind::Number("1.50".into()));
        assert_eq!(props[0].value.start, 6);
        assert_eq!(props[2].value.kind, NodeKind::String("xA".into()));
        assert_eq!(node.close_at(), text.len() - 1);
        let NodeKind::Array(elements) = &props[1].value.kind else {
            panic!("not an array")
        };
        assert_eq!(elements[1].kind, NodeKind::Null);
    }

    #[test]
    fn refuses_bad_json_with_an_offset() {
        let err = parse(br#"{"a": [1,]}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "expected a JSON value, found `]` at byte 9"
        );
        assert!(parse(b"{} x").is_err());
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert_eq!(
            parse(deep.as_bytes()).unwrap_err().kind(),
            crate::ErrorKind::LimitExceeded
        );
    }
}

//! The internal-validation rules Terraform applies to a provider's schemas when it
//! loads them (`InternalValidate`).

use std::collections::BTreeMap;

use super::{Attribute, AttributeNesting, Block, BlockNesting, Violation};
use crate::path::{Path, PathStep};

impl Block {
    /// Checks this schema against the rules Terraform applies when it loads a provider's
    /// schemas (`FORMAT.md` section 7.1), and lists every problem, each with the
    /// path of the attribute or block type (`.disk.size`). An empty list means the
    /// schema is valid.
    ///
    /// Attributes:
    /// - one of `required`, `optional`, `computed` must be set; `required` excludes
    ///   both `optional` and `computed`;
    /// - exactly one of a type and a nested type;
    /// - a SET nested type may not contain `dynamic` or write-only attributes;
    /// - a nested type's (deprecated) `min_items` may not exceed a non-zero
    ///   `max_items`, nor be set on a computed attribute (Terraform makes such an
    ///   attribute required in configuration, which contradicts computed).
    ///
    /// Nested block types:
    /// - the name may not also be an attribute's, and must match `^[a-z0-9_]+$`;
    /// - SINGLE: `min_items` equals `max_items`, both 0 or 1;
    /// - GROUP and MAP: `min_items` and `max_items` are 0;
    /// - LIST and SET: `min_items` at most `max_items`, unless `max_items` is 0 (no
    ///   limit);
    /// - SET: the block may not contain `dynamic` or write-only attributes;
    /// - computed blocks (protocol 6.11, [`Block::computed`](Block#structfield.computed);
    ///   Terraform 1.16's rules, 1.15 ignores the flag): every block type inside a
    ///   computed block is computed too; a GROUP block cannot be computed; a computed
    ///   LIST, SET or MAP block cannot have `min_items` above 0.
    ///
    /// Attribute names are not checked, as in Terraform (the check is disabled there
    /// because existing providers break it).
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block, BlockNesting, NestedBlock};
    /// use ctywire::Type;
    ///
    /// let rule = Block::new().attribute("data", Attribute::new(Type::Dynamic).optional());
    /// let block = Block::new()
    ///     .attribute("name", Attribute::new(Type::String).required().computed())
    ///     .attribute("tags", Attribute::default().optional())
    ///     .block_type("Rule", NestedBlock::new(BlockNesting::Set, rule).min_items(2).max_items(1));
    /// let problems: Vec<String> = block.validate().iter().map(|v| v.to_string()).collect();
    /// assert_eq!(problems, [
    ///     ".name: cannot set both computed and required",
    ///     ".tags: either a type or a nested type must be set",
    ///     ".Rule: block type name may contain only lowercase letters, digits and underscores",
    ///     ".Rule: min_items (2) must not be greater than max_items (1) in set mode",
    ///     ".Rule: set blocks may not contain dynamic types",
    /// ]);
    /// ```
    pub fn validate(&self) -> Vec<Violation> {
        let mut found = Vec::new();
        validate_block(self, &mut Path::root(), &mut found);
        found
    }
}

fn is_valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

fn validate_block(block: &Block, path: &mut Path, found: &mut Vec<Violation>) {
    validate_attributes(&block.attributes, path, found);
    for (name, nested) in &block.block_types {
        path.push(PathStep::Attribute(name.clone()));
        let mut report = |message: String| found.push(Violation::new(path.clone(), message));
        if block.attributes.contains_key(name) {
            report("name is both an attribute and a block type".to_owned());
        } else if !is_valid_name(name) {
            report(
                "block type name may contain only lowercase letters, digits and underscores"
                    .to_owned(),
            );
        }
        if block.computed && !nested.block.computed {
            report("block types inside a computed block must be computed too".to_owned());
        }
        let (min, max) = (nested.min_items, nested.max_items);
        let mode = nested.nesting.as_str();
        let computed = nested.block.computed;
        if computed && nested.nesting == BlockNesting::Group {
            report("group blocks cannot be computed".to_owned());
        }
        if computed && min > 0 && nested.nesting != BlockNesting::Single {
            report(format!(
                "a computed block type cannot have min_items ({min})"
            ));
        }
        match nested.nesting {
            BlockNesting::Single => {
                if min != max {
                    report(format!(
                        "min_items ({min}) and max_items ({max}) must match in single mode"
                    ));
                } else if min > 1 {
                    report(format!(
                        "min_items and max_items must be 0 or 1 in single mode, found {min}"
                    ));
                }
            }
            BlockNesting::Group | BlockNesting::Map => {
                if min != 0 || max != 0 {
                    report(format!(
                        "min_items and max_items must be 0 in {mode} mode, found {min} and {max}"
                    ));
                }
            }
            BlockNesting::List | BlockNesting::Set => {
                if max != 0 && min > max {
                    report(format!(
                        "min_items ({min}) must not be greater than max_items ({max}) in {mode} mode"
                    ));
                }
                if nested.nesting == BlockNesting::Set {
                    if nested.block.implied_type().has_dynamic() {
                        report("set blocks may not contain dynamic types".to_owned());
                    }
                    if nested.block.contains_write_only() {
                        report("set blocks may not contain write-only attributes".to_owned());
                    }
                }
            }
        }
        validate_block(&nested.block, path, found);
        path.pop();
    }
}

fn validate_attributes(
    attributes: &BTreeMap<String, Attribute>,
    path: &mut Path,
    found: &mut Vec<Violation>,
) {
    for (name, attribute) in attributes {
        path.push(PathStep::Attribute(name.clone()));
        validate_attribute(attribute, path, found);
        path.pop();
    }
}

fn validate_attribute(attribute: &Attribute, path: &mut Path, found: &mut Vec<Violation>) {
    let mut report = |message: &str| found.push(Violation::new(path.clone(), message));
    let a = attribute;
    if !a.required && !a.optional && !a.computed {
        report("must set required, optional or computed");
    }
    if a.required && a.optional {
        report("cannot set both optional and required");
    }
    if a.required && a.computed {
        report("cannot set both computed and required");
    }
    match (&a.ty, &a.nested_type) {
        (None, None) => report("either a type or a nested type must be set"),
        (Some(_), Some(_)) => report("a type and a nested type cannot both be set"),
        _ => {}
    }
    let Some(nested) = &a.nested_type else {
        return;
    };
    let (min, max) = (nested.min_items, nested.max_items);
    let mode = nested.nesting.as_str();
    if matches!(
        nested.nesting,
        AttributeNesting::List | AttributeNesting::Set
    ) && max != 0
        && min > max
    {
        found.push(Violation::new(
            path.clone(),
            format!("min_items ({min}) must not be greater than max_items ({max}) in {mode} mode"),
        ));
    }
    if a.computed && min > 0 {
        found.push(Violation::new(
            path.clone(),
            "a computed attribute cannot have min_items",
        ));
    }
    if nested.nesting == AttributeNesting::Set {
        if nested.implied_type().has_dynamic() {
            found.push(Violation::new(
                path.clone(),
                "set nested attributes may not contain dynamic types",
            ));
        }
        if nested.contains_write_only() {
            found.push(Violation::new(
                path.clone(),
                "set nested attributes may not contain write-only attributes",
            ));
        }
    }
    validate_attributes(&nested.attributes, path, found);
}

//! Everything Terraform checks in a provider's `PlanResourceChange`,
//! `ApplyResourceChange` and `ReadResource` responses, in Terraform's order: the checks
//! its resource-instance node makes around objchange's (write-only attributes, unknowns
//! left after apply or refresh, a non-null object after a destroy), then objchange's
//! (`valid.rs`, `compatible.rs`), each only when the ones before it passed, as
//! Terraform stops at the first that fails.
//!
//! One check of Terraform's is not here: that the value conforms to the schema's type.
//! A payload decoded with the schema's type conforms by construction, and one that does
//! not decode fails in Terraform's own decoding before any check (as it does here).

use super::{cty, Check, Findings, Inconsistency, Rule, Step};
use crate::schema::{Attribute, AttributeNesting, Block, BlockNesting};
use crate::types::Type;
use crate::value::Value;

/// Terraform's checks of a planned state (its plan walk's, then `AssertPlanValid`).
pub(super) fn check_plan(
    block: &Block,
    prior: &Value,
    config: &Value,
    planned: &Value,
) -> Vec<Inconsistency> {
    let write_only = write_only_values(block, planned, Check::Plan);
    if !write_only.is_empty() {
        return write_only;
    }
    super::valid::check_plan(block, prior, config, planned)
}

/// Terraform's check of a plan's `RequiresReplace` paths: each must lead somewhere in
/// the prior or the planned state (on an update; a create's are ignored).
pub(super) fn check_requires_replace(
    block: &Block,
    prior: &Value,
    planned: &Value,
    paths: &[crate::Path],
) -> Vec<Inconsistency> {
    let mut f = Findings::new(Check::Plan);
    if prior.is_null() {
        return f.found;
    }
    let ty = block.implied_type();
    for path in paths {
        if prior.at_path(path).is_none() && planned.at_path(path).is_none() {
            let go_path = path.to_go_syntax(&ty);
            f.report(Rule::RequiresReplaceNowhere, |_| {
                format!("\"requires replacement\" on a non-existent attribute path {go_path}")
            });
            if let Some(found) = f.found.last_mut() {
                found.path = path.clone();
                found.terraform_message = go_path.clone();
            }
        }
    }
    f.found
}

/// Terraform's checks of a new state after apply.
pub(super) fn check_apply(block: &Block, planned: &Value, new: &Value) -> Vec<Inconsistency> {
    let write_only = write_only_values(block, new, Check::Apply);
    if !write_only.is_empty() {
        return write_only;
    }
    let mut f = Findings::new(Check::Apply);
    unknowns(&mut f, new, &block.implied_type());
    if !f.found.is_empty() {
        return f.found;
    }
    if planned.is_null() {
        // A destroy: objchange is not asked; the object must be gone.
        if !new.is_null() {
            f.report(Rule::NotNullAfterDestroy, |_| {
                "the provider returned a non-null object after a destroy".to_owned()
            });
        }
        return f.found;
    }
    super::compatible::check_apply(block, planned, new, &[])
}

/// Terraform's checks of a refreshed state (`ReadResource`), or of an imported one.
pub(super) fn check_read(block: &Block, new: &Value) -> Vec<Inconsistency> {
    let mut f = Findings::new(Check::Read);
    if let Some(first) = new.unknown_paths(&block.implied_type()).into_iter().next() {
        // Terraform says this once, without a path; the path of the first unknown is
        // this crate's addition.
        f.report(Rule::UnknownAfterRead, |_| {
            "The returned state contains unknown values".to_owned()
        });
        if let Some(found) = f.found.last_mut() {
            found.message =
                format!("the returned state contains unknown values (the first at {first})");
            found.path = first;
        }
        return f.found;
    }
    write_only_values(block, new, Check::Read)
}

/// One problem for each unknown in `value`, outermost first (Terraform's `cty.Walk`).
fn unknowns<'a>(f: &mut Findings<'a>, value: &'a Value, ty: &Type) {
    let (value, ty) = cty::concrete(value, ty);
    match value {
        Value::Unknown(_) => f.report(Rule::UnknownAfterApply, |_| {
            "the provider still indicated an unknown value".to_owned()
        }),
        Value::List(vs) | Value::Tuple(vs) => {
            for (i, v) in vs.iter().enumerate() {
                f.within(Step::Index(i), |f| {
                    unknowns(f, v, &cty::element_type(&ty, i))
                });
            }
        }
        Value::Set(s) => {
            for v in s.iter() {
                f.within(Step::Element(v), |f| {
                    unknowns(f, v, &cty::element_type(&ty, 0))
                });
            }
        }
        Value::Map(m) => {
            for (k, v) in m.iter() {
                f.within(Step::Key(k), |f| unknowns(f, v, &cty::element_type(&ty, 0)));
            }
        }
        Value::Object(o) => {
            for (name, v) in o.iter() {
                f.within(Step::Attribute(name), |f| {
                    unknowns(f, v, &cty::attribute_type(&ty, name));
                });
            }
        }
        _ => {}
    }
}

/// One problem for each write-only attribute in `value` that is not null (Terraform's
/// `ValidateWriteOnlyAttributes`).
fn write_only_values(block: &Block, value: &Value, check: Check) -> Vec<Inconsistency> {
    if !block.contains_write_only() {
        return Vec::new();
    }
    let mut f = Findings::new(check);
    block_write_only(&mut f, block, value);
    f.found
}

fn block_write_only<'a>(f: &mut Findings<'a>, block: &'a Block, value: &'a Value) {
    let Some(object) = value.untyped().as_object() else {
        return;
    };
    for (name, attribute) in &block.attributes {
        if let Some(v) = object.get(name) {
            f.within(Step::Attribute(name), |f| {
                attribute_write_only(f, attribute, v)
            });
        }
    }
    for (name, nested) in &block.block_types {
        let Some(v) = object.get(name) else { continue };
        f.within(Step::Attribute(name), |f| match nested.nesting {
            BlockNesting::Single | BlockNesting::Group => block_write_only(f, &nested.block, v),
            BlockNesting::List | BlockNesting::Set | BlockNesting::Map => {
                elements(f, v, |f, e| block_write_only(f, &nested.block, e));
            }
        });
    }
}

fn attribute_write_only<'a>(f: &mut Findings<'a>, attribute: &'a Attribute, value: &'a Value) {
    if attribute.write_only && !value.is_null() {
        f.report(Rule::WriteOnlyReturned, |_| {
            "the provider returned a value for a write-only attribute".to_owned()
        });
        return;
    }
    let Some(nested) = &attribute.nested_type else {
        return;
    };
    let object = |f: &mut Findings<'a>, v: &'a Value| {
        let Some(o) = v.untyped().as_object() else {
            return;
        };
        for (name, a) in &nested.attributes {
            if let Some(v) = o.get(name) {
                f.within(Step::Attribute(name), |f| attribute_write_only(f, a, v));
            }
        }
    };
    match nested.nesting {
        AttributeNesting::Single => object(f, value),
        _ => elements(f, value, object),
    }
}

/// Runs `each` on every element of a list, set or map, with its step.
fn elements<'a>(
    f: &mut Findings<'a>,
    value: &'a Value,
    each: impl Fn(&mut Findings<'a>, &'a Value),
) {
    match value.untyped() {
        Value::List(vs) | Value::Tuple(vs) => {
            for (i, v) in vs.iter().enumerate() {
                f.within(Step::Index(i), |f| each(f, v));
            }
        }
        Value::Set(s) => {
            for v in s.iter() {
                f.within(Step::Element(v), |f| each(f, v));
            }
        }
        Value::Map(m) => {
            for (k, v) in m.iter() {
                f.within(Step::Key(k), |f| each(f, v));
            }
        }
        Value::Object(o) => {
            for (k, v) in o.iter() {
                f.within(Step::Attribute(k), |f| each(f, v));
            }
        }
        _ => {}
    }
}

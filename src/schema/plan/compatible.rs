//! Whether a new state is a valid result of a plan (Terraform's `AssertObjectCompatible`
//! and `AssertValueCompatible`).

use std::collections::BTreeSet;

use super::cty::{self, Length};
use super::valid::get;
use super::{marks, Check, Client, Findings, Inconsistency, Rule, Step};
use crate::convert::mismatch::mismatch_message;
use crate::path::{Path, PathStep};
use crate::schema::{Block, BlockNesting, NestedBlock};
use crate::text::go_quote;
use crate::types::Type;
use crate::value::equal::{conforms, outside};
use crate::value::{Refinements, Value};

pub(super) fn check_apply(
    block: &Block,
    planned: &Value,
    actual: &Value,
    sensitive: &[Path],
    client: Client,
) -> Vec<Inconsistency> {
    let ty = block.implied_type();
    let planned = cty::with_pushed_types(planned, &ty);
    let actual = cty::with_pushed_types(actual, &ty);
    let mut f = Findings::new(Check::Apply, client);
    object_compatible(&mut f, block, &planned, &actual, sensitive);
    f.found
}

/// Checks a final value against its planned value (Terraform's `AssertValueCompatible`,
/// which [`Block::check_compatible`] applies to each attribute): the types must agree, a known
/// planned value must be kept, an unknown one may become anything its refinements
/// allow, and a set may lose elements but not gain any.
///
/// ```
/// use ctywire::schema::{check_value_compatible, Rule};
/// use ctywire::{Type, Value};
///
/// let ty: Type = "map(string)".parse()?;
/// let planned = Value::map([("Name", Value::from("web"))]);
/// let actual = Value::map([("Name", Value::from("web")), ("Env", Value::from("prod"))]);
/// let found = check_value_compatible(&planned, &actual, &ty);
/// assert_eq!(found[0].rule, Rule::ElementAppeared);
/// assert_eq!(found[0].terraform_text(), r#"new element "Env" has appeared"#);
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn check_value_compatible(planned: &Value, actual: &Value, ty: &Type) -> Vec<Inconsistency> {
    let planned = cty::with_pushed_types(planned, ty);
    let actual = cty::with_pushed_types(actual, ty);
    let mut f = Findings::new(Check::Apply, Client::default());
    value_compatible(&mut f, &planned, &actual, ty);
    f.found
}

/// Whether a check finds nothing (used to correlate set elements).
fn finds_nothing<'a>(client: Client, check: impl FnOnce(&mut Findings<'a>)) -> bool {
    let mut scratch = Findings::new(Check::Apply, client);
    check(&mut scratch);
    scratch.found.is_empty()
}

fn object_compatible<'a>(
    f: &mut Findings<'a>,
    block: &'a Block,
    planned: &'a Value,
    actual: &'a Value,
    sensitive: &[Path],
) {
    let at_root = if f.steps.is_empty() {
        if f.client.is_opentofu() {
            "root object "
        } else {
            "Root object "
        }
    } else {
        ""
    };
    if planned.is_null() && !actual.is_null() {
        f.report(Rule::Appeared, |_| {
            format!("{at_root}was absent, but now present")
        });
        return;
    }
    if actual.is_null() && !planned.is_null() {
        f.report(Rule::Disappeared, |_| {
            format!("{at_root}was present, but now absent")
        });
        return;
    }
    if planned.is_null() {
        return;
    }
    // An unknown placeholder block records its concrete type: each attribute of it is an
    // unknown of that attribute's type (go-cty's `GetAttr`), which the final value's type
    // must conform to, `dynamic` attributes included.
    let placeholder = match planned {
        Value::Typed(t) if planned.is_unknown() => Some(&t.ty),
        _ => None,
    };
    for (name, attribute) in &block.attributes {
        let planned_v = get(planned, name);
        let actual_v = get(actual, name);
        let ty = attribute.implied_type();
        f.within(Step::Attribute(name), |f| {
            let before = f.found.len();
            let recorded = placeholder.map(|t| cty::attribute_type(t, name));
            match recorded.filter(|t| *t != Type::Dynamic) {
                Some(want) => {
                    let (_, given) = cty::concrete(actual_v, &ty);
                    if !conforms(&given, &want) {
                        f.report(Rule::WrongType, |_| {
                            format!(
                                "wrong final value type: {}",
                                mismatch_message(&given, &want)
                            )
                        });
                    }
                }
                None => value_compatible(f, planned_v, actual_v, &ty),
            }
            // Terraform marks the sensitive attributes inside a nested attribute too, and
            // hides whatever differs in an attribute holding a mark.
            // (OpenTofu marks only the attributes themselves, and prints the values of
            // those inside; this crate hides them for every client.)
            let holds = |v: &Value| marks::holds_sensitive(attribute, v);
            if f.found.len() > before
                && (attribute.sensitive
                    || marked(f, sensitive)
                    || holds(planned_v)
                    || holds(actual_v))
            {
                // Terraform hides what differs in a sensitive value.
                f.found.truncate(before);
                f.report(Rule::SensitiveChanged, |_| {
                    "inconsistent values for sensitive attribute".into()
                });
            }
        });
    }
    for (name, nested) in block.unshadowed_block_types() {
        let planned_v = get(planned, name);
        let actual_v = get(actual, name);
        f.within(Step::Attribute(name), |f| {
            nested_block_compatible(f, nested, planned_v, actual_v, sensitive)
        });
    }
}

/// Whether a path in `sensitive` is at or below the current path (a value marked
/// sensitive anywhere inside the attribute).
fn marked(f: &Findings<'_>, sensitive: &[Path]) -> bool {
    if sensitive.is_empty() {
        return false;
    }
    let here: Vec<PathStep> = f.steps.iter().map(|s| s.to_path_step()).collect();
    sensitive.iter().any(|p| p.steps().starts_with(&here))
}

fn nested_block_compatible<'a>(
    f: &mut Findings<'a>,
    nested: &'a NestedBlock,
    planned: &'a Value,
    actual: &'a Value,
    sensitive: &[Path],
) {
    let block = &nested.block;
    let skip = |v: &Value| v.is_unknown() || v.is_null();
    match nested.nesting {
        BlockNesting::Single | BlockNesting::Group => {
            // An unknown placeholder block may have become no block.
            if planned.is_unknown() && actual.is_null() {
                return;
            }
            object_compatible(f, block, planned, actual, sensitive);
        }
        BlockNesting::List => {
            if skip(planned) || skip(actual) {
                return;
            }
            let (planned_e, actual_e) = (
                planned.as_slice().unwrap_or(&[]),
                actual.as_slice().unwrap_or(&[]),
            );
            if planned_e.len() != actual_e.len() {
                let (p, a) = (planned_e.len(), actual_e.len());
                f.report(Rule::BlockCountChanged, |_| {
                    format!("block count changed from {p} to {a}")
                });
                return;
            }
            for (i, (p, a)) in planned_e.iter().zip(actual_e).enumerate() {
                f.within(Step::Index(i), |f| {
                    object_compatible(f, block, p, a, sensitive)
                });
            }
        }
        BlockNesting::Map => {
            let (_, planned_ty) = cty::concrete(planned, &nested.implied_type());
            if let Type::Object(_) = planned_ty {
                // A `dynamic` MAP block: blocks are attributes.
                let planned_keys = object_keys(planned);
                let actual_keys = object_keys(actual);
                for key in &planned_keys {
                    if !actual_keys.contains(key) {
                        f.report(Rule::BlockKeyVanished, |_| {
                            format!("block key {} has vanished", go_quote(key))
                        });
                        continue;
                    }
                    let (p, a) = (get(planned, key), get(actual, key));
                    f.within(Step::Attribute(key), |f| {
                        object_compatible(f, block, p, a, sensitive)
                    });
                }
                // New blocks may appear where the plan held unknown ones.
                if !planned.is_unknown() {
                    for key in actual_keys.iter().filter(|k| !planned_keys.contains(*k)) {
                        f.report(Rule::BlockKeyAppeared, |_| {
                            format!("new block key {} has appeared", go_quote(key))
                        });
                    }
                }
                return;
            }
            if skip(planned) || skip(actual) {
                return;
            }
            let (Some(planned_m), Some(actual_m)) = (planned.as_map(), actual.as_map()) else {
                return;
            };
            if planned_m.len() != actual_m.len() {
                let (p, a) = (planned_m.len(), actual_m.len());
                f.report(Rule::BlockCountChanged, |_| {
                    format!("block count changed from {p} to {a}")
                });
                return;
            }
            for (key, p) in planned_m.iter() {
                if let Some(a) = actual_m.get(key) {
                    f.within(Step::Key(key), |f| {
                        object_compatible(f, block, p, a, sensitive)
                    });
                }
            }
        }
        BlockNesting::Set => {
            if skip(planned) || skip(actual) {
                return;
            }
            let (planned_e, actual_e) = (
                planned.as_slice().unwrap_or(&[]),
                actual.as_slice().unwrap_or(&[]),
            );
            let ty = block.implied_type();
            let client = f.client;
            let before = f.found.len();
            set_values_compatible(f, planned_e, actual_e, &ty, |p, a| {
                finds_nothing(client, |scratch| {
                    object_compatible(scratch, block, p, a, sensitive)
                })
            });
            if marks::block_holds_sensitive(block) {
                let secret: Vec<&Value> = planned_e
                    .iter()
                    .chain(actual_e)
                    .filter(|e| marks::block_has_sensitive_value(block, e))
                    .collect();
                hide_set_elements(&mut f.found[before..], &secret, &ty);
            }
            // Elements may merge once known, so a set may shrink, but never grow.
            if planned_e.len() < actual_e.len() {
                let (p, a) = (planned_e.len(), actual_e.len());
                f.report(Rule::BlockSetGrew, |_| {
                    format!("block set length changed from {p} to {a}")
                });
            }
        }
    }
}

/// The set elements named in `found` without their values where they are among
/// `secret`, the elements holding a sensitive value (Terraform prints them, values
/// included).
fn hide_set_elements(found: &mut [Inconsistency], secret: &[&Value], ty: &Type) {
    for i in found {
        let (which, whom) = match i.rule {
            Rule::PlannedSetElementLost => ("planned", "actual"),
            Rule::ActualSetElementNew => ("actual", "plan"),
            _ => continue,
        };
        let names = |e: &&Value| {
            i.terraform_message
                == format!(
                    "{which} set element {} does not correlate with any element in {whom}",
                    e.to_go_syntax(ty)
                )
        };
        if !secret.iter().any(names) {
            continue;
        }
        let text = format!(
            "{which} set element (sensitive value) does not correlate with any element in {whom}"
        );
        i.terraform_message.clone_from(&text);
        i.message = text;
    }
}

/// The attribute names of an object value, or of the recorded object type of a null or
/// unknown one.
fn object_keys(value: &Value) -> BTreeSet<&str> {
    match value {
        Value::Typed(t) => match t.value.untyped() {
            Value::Object(o) => o.names().iter().collect(),
            _ => {
                t.ty.as_object()
                    .map(|o| o.names().iter().collect())
                    .unwrap_or_default()
            }
        },
        Value::Object(o) => o.names().iter().collect(),
        _ => BTreeSet::new(),
    }
}

/// Terraform's `assertSetValuesCompatible`: each planned element must correlate with
/// some actual element and each actual element with some planned one.
fn set_values_compatible<'a>(
    f: &mut Findings<'_>,
    planned: &'a [Value],
    actual: &'a [Value],
    element: &Type,
    correlate: impl Fn(&'a Value, &'a Value) -> bool,
) {
    let mut planned_ok = vec![false; planned.len()];
    let mut actual_ok = vec![false; actual.len()];
    for (pi, p) in planned.iter().enumerate() {
        for (ai, a) in actual.iter().enumerate() {
            if planned_ok[pi] && actual_ok[ai] {
                continue;
            }
            if correlate(p, a) {
                planned_ok[pi] = true;
                actual_ok[ai] = true;
            }
        }
    }
    let lost: Vec<&Value> = planned
        .iter()
        .zip(&planned_ok)
        .filter(|(_, ok)| !**ok)
        .map(|(v, _)| v)
        .collect();
    for v in &lost {
        f.report(Rule::PlannedSetElementLost, |p| {
            format!(
                "planned set element {} does not correlate with any element in actual",
                p(v, element)
            )
        });
    }
    if !lost.is_empty() {
        return;
    }
    for (v, _) in actual.iter().zip(&actual_ok).filter(|(_, ok)| !**ok) {
        f.report(Rule::ActualSetElementNew, |p| {
            format!(
                "actual set element {} does not correlate with any element in plan",
                p(v, element)
            )
        });
    }
}

fn value_compatible<'a>(f: &mut Findings<'a>, planned: &'a Value, actual: &'a Value, ty: &Type) {
    let (p, pt) = cty::concrete(planned, ty);
    let (a, at) = cty::concrete(actual, ty);
    if pt == Type::Dynamic {
        return;
    }
    if !conforms(&at, &pt) {
        f.report(Rule::WrongType, |_| {
            format!("wrong final value type: {}", mismatch_message(&at, &pt))
        });
        return;
    }
    if let Value::Unknown(r) = p {
        if excluded(r, &pt, a, &at) {
            f.report(Rule::RefinementBroken, |show| {
                format!(
                    "final value {} does not conform to planning placeholder {}",
                    show(actual, ty),
                    show(planned, ty)
                )
            });
        }
        return;
    }
    if a.is_null() {
        if !p.is_null() {
            f.report(Rule::BecameNull, |show| {
                format!("was {}, but now null", show(planned, ty))
            });
        }
        return;
    }
    if p.is_null() {
        f.report(Rule::BecameNonNull, |show| {
            format!("was null, but now {}", show(actual, ty))
        });
        return;
    }
    if a.is_unknown() {
        f.report(Rule::BecameUnknown, |_| "was known, but now unknown".into());
        return;
    }
    match (p, a) {
        (Value::List(ps) | Value::Tuple(ps), Value::List(actual_s) | Value::Tuple(actual_s)) => {
            for (i, pe) in ps.iter().enumerate() {
                let Some(ae) = actual_s.get(i) else {
                    f.report(Rule::ElementVanished, |_| {
                        format!("element {i} has vanished")
                    });
                    continue;
                };
                let t = cty::element_type(&pt, i);
                f.within(Step::Index(i), |f| value_compatible(f, pe, ae, &t));
            }
            for i in ps.len()..actual_s.len() {
                f.report(Rule::ElementAppeared, |_| {
                    format!("new element {i} has appeared")
                });
            }
        }
        (Value::Map(pm), Value::Map(am)) => {
            let t = cty::element_type(&pt, 0);
            for (key, pe) in pm.iter() {
                let Some(ae) = am.get(key) else {
                    f.report(Rule::ElementVanished, |_| {
                        format!("element {} has vanished", go_quote(key))
                    });
                    continue;
                };
                f.within(Step::Key(key), |f| value_compatible(f, pe, ae, &t));
            }
            for key in am.keys().filter(|k| pm.get(k).is_none()) {
                f.report(Rule::ElementAppeared, |_| {
                    format!("new element {} has appeared", go_quote(key))
                });
            }
        }
        (Value::Object(po), Value::Object(_)) => {
            for (name, pe) in po.iter() {
                let t = cty::attribute_type(&pt, name);
                let ae = get(a, name);
                f.within(Step::Attribute(name), |f| value_compatible(f, pe, ae, &t));
            }
        }
        (Value::Set(ps), Value::Set(actual_s)) => {
            let t = cty::element_type(&pt, 0);
            let client = f.client;
            set_values_compatible(f, ps.as_slice(), actual_s.as_slice(), &t, |pe, ae| {
                finds_nothing(client, |scratch| value_compatible(scratch, pe, ae, &t))
            });
            if ps.len() < actual_s.len() {
                let (pl, al) = (ps.len(), actual_s.len());
                f.report(Rule::SetGrew, |_| {
                    format!("length changed from {pl} to {al}")
                });
            }
        }
        (p, a) => {
            if p.cty_equals(a, &pt) != Some(true) {
                f.report(Rule::Changed, |show| {
                    format!("was {}, but now {}", show(planned, ty), show(actual, ty))
                });
            }
        }
    }
}

/// go-cty's `Range().Includes(actual)` is known false: `actual` breaks one of the
/// refinements of the unknown planned value (of type `ty`). A known (or null) final value
/// is checked by [`outside`]; an unknown one only where the ranges of the two are known
/// apart (its length or number bounds against the plan's).
fn excluded(r: &Refinements, ty: &Type, actual: &Value, actual_ty: &Type) -> bool {
    let Value::Unknown(ar) = actual else {
        return outside(r, ty, actual, actual_ty);
    };
    if *actual_ty == Type::Dynamic {
        return false;
    }
    match ty {
        Type::List(_) | Type::Set(_) | Type::Map(_) => {
            let planned = Length::Within {
                min: r.length_lower_bound(),
                max: r.length_upper_bound(),
            };
            !planned.may_include(Length::of(actual, actual_ty))
        }
        // go-cty compares a number with an unknown by their bounds, as if exclusive.
        Type::Number => {
            let below = r
                .number_lower_bound()
                .zip(ar.number_upper_bound())
                .is_some_and(|((min, _), (high, _))| high.cmp_numeric(min).is_lt());
            let above = r
                .number_upper_bound()
                .zip(ar.number_lower_bound())
                .is_some_and(|((max, _), (low, _))| low.cmp_numeric(max).is_gt());
            below || above
        }
        _ => false,
    }
}

//! Whether a new state is a valid result of a plan (Terraform's `AssertObjectCompatible`
//! and `AssertValueCompatible`).

use std::collections::BTreeSet;

use super::cty::{self, Length};
use super::valid::get;
use super::{marks, Check, Client, Findings, Inconsistency, Rule, Rules, Step};
use crate::convert::mismatch::mismatch_message;
use crate::path::{Path, PathStep};
use crate::schema::{Block, BlockNesting, NestedBlock};
use crate::text::go_quote;
use crate::types::Type;
use crate::value::equal::{conforms, outside};
use crate::value::set::{equivalence_hash, equivalent};
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
    f.into_found()
}

/// The length go-cty's `LengthInt` gives a LIST or MAP block's value (a `dynamic` one
/// may be any value): its elements or attributes; `None` where it panics.
fn go_length(value: &Value) -> Option<usize> {
    match value.untyped() {
        Value::List(vs) | Value::Tuple(vs) => Some(vs.len()),
        Value::Set(s) => Some(s.len()),
        Value::Map(m) => Some(m.len()),
        Value::Object(o) => Some(o.len()),
        _ => None,
    }
}

const NOT_A_COLLECTION: &str = "value is not a collection";

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
fn finds_nothing<'a>(rules: Rules, check: impl FnOnce(&mut Findings<'a>)) -> bool {
    let mut scratch = Findings::new(Check::Apply, rules);
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
        if f.rules.wording().is_opentofu() {
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
    // A `dynamic` LIST or MAP block may hold any value as a block; the clients take its
    // attributes.
    let not_object = |v: &Value| !v.is_unknown() && v.untyped().as_object().is_none();
    if (not_object(planned) || not_object(actual))
        && !(block.attributes.is_empty() && block.block_types.is_empty())
    {
        f.client_panics("a block that is not an object", "value is not an object");
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
            // hides whatever differs in an attribute holding a mark. Where no mark is
            // (OpenTofu marks only the attributes themselves; below a `dynamic` MAP block
            // Terraform's marks, placed by map keys, do not reach) the client prints what
            // differs: this crate prints it too where that shows nothing sensitive.
            if f.found.len() <= before {
                return;
            }
            let hide_all = if attribute.sensitive || marked(f, sensitive) {
                true
            } else if f.rules.wording().is_opentofu() || f.unmarked {
                let reveals = |v: &Value| marks::attribute_reveals_sensitive(attribute, v);
                (reveals(planned_v) || reveals(actual_v))
                    && !hide_inside(f, before, attribute, planned_v, actual_v)
            } else {
                let holds = |v: &Value| marks::holds_sensitive(attribute, v);
                holds(planned_v) || holds(actual_v)
            };
            if hide_all {
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

/// Hides the sensitive values in the problems found since `before` inside `attribute`
/// (a nested attribute that holds sensitive attributes, whose values show in
/// `planned` or `actual`): a problem at a plain attribute of the nested objects shows
/// none, and an element of a nested SET is written `(sensitive value)` where it holds
/// one. False when another problem would show one: the caller hides them all.
fn hide_inside(
    f: &mut Findings<'_>,
    before: usize,
    attribute: &crate::schema::Attribute,
    planned: &Value,
    actual: &Value,
) -> bool {
    let depth = f.steps.len();
    let Some(nested) = &attribute.nested_type else {
        return false;
    };
    let mut elements: Vec<&Value> = Vec::new();
    if nested.nesting == crate::schema::AttributeNesting::Set {
        for v in [planned, actual] {
            elements.extend(v.as_slice().unwrap_or(&[]));
        }
    }
    let secret: Vec<&Value> = elements
        .into_iter()
        .filter(|e| marks::object_reveals_sensitive(nested, e))
        .collect();
    let ty = nested.object_type();
    for i in &f.found[before..] {
        let steps = &i.path.steps()[depth..];
        let set_element = steps.is_empty()
            && matches!(
                i.rule,
                Rule::PlannedSetElementLost | Rule::ActualSetElementNew
            );
        // A problem with a whole element prints that element.
        let element = |v: &Value| match steps {
            [PathStep::Index(n)] => usize::try_from(*n)
                .ok()
                .and_then(|n| v.as_slice().and_then(|s| s.get(n)).cloned()),
            [PathStep::Key(k)] => v.as_map().and_then(|m| m.get(k.as_str())).cloned(),
            _ => None,
        };
        let element_shows_nothing = [planned, actual]
            .into_iter()
            .all(|v| element(v).is_some_and(|e| !marks::object_reveals_sensitive(nested, &e)))
            && nested.nesting != crate::schema::AttributeNesting::Single;
        if !set_element && !element_shows_nothing && !plain_inside(attribute, steps) {
            return false;
        }
    }
    hide_set_elements(&mut f.found[before..], &secret, &ty);
    true
}

/// Whether `steps`, below a nested attribute `attribute`, go into one of its nested
/// objects' attributes that is neither sensitive nor nested (a value that cannot hold a
/// sensitive one).
fn plain_inside(attribute: &crate::schema::Attribute, steps: &[PathStep]) -> bool {
    use crate::schema::AttributeNesting;
    let Some(nested) = &attribute.nested_type else {
        return false;
    };
    let name = match (nested.nesting, steps) {
        (AttributeNesting::Single, [PathStep::Attribute(name), ..]) => name,
        (
            _,
            [PathStep::Index(_) | PathStep::Key(_) | PathStep::SetElement(_), PathStep::Attribute(name), ..],
        ) if nested.nesting != AttributeNesting::Single => name,
        _ => return false,
    };
    nested
        .attributes
        .get(name.as_str())
        .is_some_and(|a| !a.sensitive && a.nested_type.is_none())
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
            // A `dynamic` LIST block may hold any value; the clients take its length and
            // index it as a list's.
            let (Some(p), Some(a)) = (go_length(planned), go_length(actual)) else {
                f.client_panics(
                    "a LIST of blocks that is not a collection",
                    NOT_A_COLLECTION,
                );
                return;
            };
            let indexable = matches!(
                actual.untyped(),
                Value::List(_) | Value::Tuple(_) | Value::Map(_)
            );
            if p == a && p > 0 && !indexable {
                f.client_panics(
                    "a LIST of blocks that is not a list",
                    "not a list, map, or tuple type",
                );
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
                    if planned.is_null() || actual.is_null() {
                        // The clients take the block of a null object.
                        f.client_panics(
                            "a block of a null `dynamic` MAP block",
                            "interface conversion: interface {} is nil, not map[string]interface {}",
                        );
                        return;
                    }
                    let (p, a) = (get(planned, key), get(actual, key));
                    let outer = std::mem::replace(&mut f.unmarked, true);
                    f.within(Step::Attribute(key), |f| {
                        object_compatible(f, block, p, a, sensitive)
                    });
                    f.unmarked = outer;
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
            if go_length(planned).is_none() || go_length(actual).is_none() {
                f.client_panics("a MAP of blocks that is not a collection", NOT_A_COLLECTION);
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
            let rules = f.rules;
            let before = f.found.len();
            set_values_compatible(f, planned_e, actual_e, &ty, |p, a| {
                finds_nothing(rules, |scratch| {
                    object_compatible(scratch, block, p, a, sensitive)
                })
            });
            if marks::block_holds_sensitive(block) {
                let secret: Vec<&Value> = planned_e
                    .iter()
                    .chain(actual_e)
                    .filter(|e| marks::block_reveals_sensitive(block, e))
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
///
/// Terraform tries every pair; the answer is only which elements correlate with *some*
/// element of the other side, so equal elements are matched by hashing first (each such
/// pair still checked with `correlate`), and only an element left without an equal
/// partner is compared with the other side's elements, stopping at the first that
/// correlates. A set whose elements were all kept costs one check per element; the
/// pairwise work grows with the number of elements that changed (or hold unknowns)
/// times the set's size.
fn set_values_compatible<'a>(
    f: &mut Findings<'_>,
    planned: &'a [Value],
    actual: &'a [Value],
    element: &Type,
    correlate: impl Fn(&'a Value, &'a Value) -> bool,
) {
    #[cfg(test)]
    let correlate = |p: &'a Value, a: &'a Value| {
        set_matching::CORRELATIONS.with(|c| c.set(c.get() + 1));
        correlate(p, a)
    };
    #[cfg(test)]
    if set_matching::PAIRWISE.with(std::cell::Cell::get) {
        return set_values_compatible_pairwise(f, planned, actual, element, correlate);
    }
    let mut planned_ok = vec![false; planned.len()];
    let mut actual_ok = vec![false; actual.len()];
    // Equal elements first: the actual elements sorted by hash, each planned element
    // looked up among those of its hash.
    let state = std::collections::hash_map::RandomState::new();
    let mut by_hash: Vec<(u64, usize)> = actual
        .iter()
        .enumerate()
        .map(|(i, a)| (equivalence_hash(&state, a), i))
        .collect();
    by_hash.sort_unstable();
    for (pi, p) in planned.iter().enumerate() {
        let h = equivalence_hash(&state, p);
        let from = by_hash.partition_point(|(k, _)| *k < h);
        for &(_, ai) in by_hash[from..].iter().take_while(|(k, _)| *k == h) {
            if equivalent(p, &actual[ai]) && correlate(p, &actual[ai]) {
                planned_ok[pi] = true;
                actual_ok[ai] = true;
                break;
            }
        }
    }
    // What is left, against every element of the other side.
    for (pi, p) in planned.iter().enumerate() {
        if planned_ok[pi] {
            continue;
        }
        if let Some(ai) = actual.iter().position(|a| correlate(p, a)) {
            planned_ok[pi] = true;
            actual_ok[ai] = true;
        }
    }
    if report_lost(f, planned, &planned_ok, element) {
        return;
    }
    for (ai, a) in actual.iter().enumerate() {
        if !actual_ok[ai] && planned.iter().any(|p| correlate(p, a)) {
            actual_ok[ai] = true;
        }
    }
    report_new(f, actual, &actual_ok, element);
}

/// Reports the planned elements that correlate with nothing; whether there were any.
fn report_lost(f: &mut Findings<'_>, planned: &[Value], ok: &[bool], element: &Type) -> bool {
    let mut any = false;
    for (v, _) in planned.iter().zip(ok).filter(|(_, ok)| !**ok) {
        any = true;
        f.report(Rule::PlannedSetElementLost, |p| {
            format!(
                "planned set element {} does not correlate with any element in actual",
                p(v, element)
            )
        });
    }
    any
}

/// Reports the actual elements that correlate with nothing.
fn report_new(f: &mut Findings<'_>, actual: &[Value], ok: &[bool], element: &Type) {
    for (v, _) in actual.iter().zip(ok).filter(|(_, ok)| !**ok) {
        f.report(Rule::ActualSetElementNew, |p| {
            format!(
                "actual set element {} does not correlate with any element in plan",
                p(v, element)
            )
        });
    }
}

/// Terraform's loop over every pair, kept as the reference the matching above is tested
/// against.
#[cfg(test)]
fn set_values_compatible_pairwise<'a>(
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
    if report_lost(f, planned, &planned_ok, element) {
        return;
    }
    report_new(f, actual, &actual_ok, element);
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
            let rules = f.rules;
            set_values_compatible(f, ps.as_slice(), actual_s.as_slice(), &t, |pe, ae| {
                finds_nothing(rules, |scratch| value_compatible(scratch, pe, ae, &t))
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

/// The set matching by hashing against Terraform's pairwise loop.
#[cfg(test)]
mod set_matching {
    use std::cell::Cell;

    use proptest::prelude::*;

    use crate::schema::{Attribute, Block, BlockNesting, NestedBlock};
    use crate::types::Type;
    use crate::value::{Refinements, Value};

    thread_local! {
        /// Makes `set_values_compatible` use the pairwise reference loop.
        pub(super) static PAIRWISE: Cell<bool> = const { Cell::new(false) };
        /// How many times a pair of set elements was correlated.
        pub(super) static CORRELATIONS: Cell<usize> = const { Cell::new(0) };
    }

    /// `check` run with the matching by hashing and with the pairwise loop: the two
    /// answers, and the correlations the first made.
    fn both<T>(check: impl Fn() -> T) -> (T, T, usize) {
        CORRELATIONS.with(|c| c.set(0));
        let hashed = check();
        let made = CORRELATIONS.with(Cell::get);
        PAIRWISE.with(|p| p.set(true));
        let pairwise = check();
        PAIRWISE.with(|p| p.set(false));
        (hashed, pairwise, made)
    }

    fn string() -> impl Strategy<Value = Value> {
        prop_oneof![
            4 => prop::sample::select(vec!["a", "b", "c", "ab"]).prop_map(Value::from),
            1 => Just(Value::Null),
            1 => Just(Value::unknown()),
            1 => Just(Value::refined_unknown(
                &Type::String,
                Refinements::new().not_null().with_string_prefix("a"),
            )),
        ]
    }

    fn number() -> impl Strategy<Value = Value> {
        prop_oneof![
            4 => (0..3i64).prop_map(Value::from),
            1 => Just(Value::Null),
            1 => Just(Value::unknown()),
        ]
    }

    fn object() -> impl Strategy<Value = Value> {
        prop_oneof![
            8 => (string(), number()).prop_map(|(a, b)| Value::object([("a", a), ("b", b)])),
            1 => Just(Value::unknown()),
        ]
    }

    fn rule_block() -> Block {
        let sub = Block::new().attribute("c", Attribute::new(Type::String).optional());
        Block::new()
            .attribute("a", Attribute::new(Type::String).optional().computed())
            .attribute("b", Attribute::new(Type::Number).optional())
            .block_type("sub", NestedBlock::new(BlockNesting::List, sub))
    }

    fn rule() -> impl Strategy<Value = Value> {
        let sub = prop_oneof![
            Just(Value::Null),
            Just(Value::unknown()),
            prop::collection::vec(string(), 0..2)
                .prop_map(|cs| Value::list(cs.into_iter().map(|c| Value::object([("c", c)])))),
        ];
        (string(), number(), sub)
            .prop_map(|(a, b, sub)| Value::object([("a", a), ("b", b), ("sub", sub)]))
    }

    fn set_of<S: Strategy<Value = Value>>(element: S) -> impl Strategy<Value = Value> {
        prop_oneof![
            8 => prop::collection::vec(element, 0..6).prop_map(Value::set),
            1 => Just(Value::Null),
            1 => Just(Value::unknown()),
        ]
    }

    proptest! {
        #![proptest_config(crate::proptest_config(crate::test_cases(2000)))]

        #[test]
        fn strings_match_as_pairwise(p in set_of(string()), a in set_of(string())) {
            let ty = Type::set(Type::String);
            let (hashed, pairwise, _) = both(|| super::check_value_compatible(&p, &a, &ty));
            prop_assert_eq!(hashed, pairwise);
        }

        #[test]
        fn objects_match_as_pairwise(p in set_of(object()), a in set_of(object())) {
            let ty = Type::set(Type::object([("a", Type::String), ("b", Type::Number)]));
            let (hashed, pairwise, _) = both(|| super::check_value_compatible(&p, &a, &ty));
            prop_assert_eq!(hashed, pairwise);
        }

        #[test]
        fn blocks_match_as_pairwise(
            p in prop::collection::vec(rule(), 0..5),
            a in prop::collection::vec(rule(), 0..5),
        ) {
            let block = Block::new().block_type("rule", NestedBlock::new(BlockNesting::Set, rule_block()));
            let planned = Value::object([("rule", Value::set(p))]);
            let actual = Value::object([("rule", Value::set(a))]);
            let (hashed, pairwise, _) = both(|| block.check_apply(&planned, &actual));
            prop_assert_eq!(hashed, pairwise);
        }
    }

    /// Large enough that a check per pair of elements would count `LARGE²/2`, far
    /// past what the tests allow (the counts prove the cost at any size; 100,000
    /// elements took seconds unoptimised and proved nothing more).
    const LARGE: usize = 10_000;

    /// A set of `LARGE` strings, applied as planned, and with one element changed:
    /// one correlation per element where each was kept (Terraform's loop would make
    /// about `LARGE²/2`), and the changed element still reported.
    #[test]
    fn a_large_set_of_strings_costs_a_check_per_element() {
        let ty = Type::set(Type::String);
        let planned = Value::set((0..LARGE).map(|i| Value::from(format!("s-{i}"))));
        CORRELATIONS.with(|c| c.set(0));
        assert!(super::check_value_compatible(&planned, &planned, &ty).is_empty());
        assert_eq!(CORRELATIONS.with(Cell::get), LARGE);

        let actual = Value::set((0..LARGE).map(|i| {
            Value::from(if i == 7 {
                "changed".into()
            } else {
                format!("s-{i}")
            })
        }));
        let found = super::check_value_compatible(&planned, &actual, &ty);
        let texts: Vec<String> = found.iter().map(|i| i.terraform_text()).collect();
        assert_eq!(
            texts,
            [
                r#"planned set element cty.StringVal("s-7") does not correlate with any element in actual"#
            ]
        );
    }

    /// The same for a set of `LARGE` objects, and a set block of `LARGE` blocks, one
    /// of which had an unknown attribute in the plan.
    #[test]
    fn a_large_set_of_objects_costs_a_check_per_element() {
        let object = |i: usize, id: Value| {
            Value::object([("name", Value::from(format!("n-{i}"))), ("id", id)])
        };
        let ty = Type::set(Type::object([("name", Type::String), ("id", Type::Number)]));
        let planned = Value::set((0..LARGE).map(|i| object(i, Value::from(i as i64))));
        CORRELATIONS.with(|c| c.set(0));
        assert!(super::check_value_compatible(&planned, &planned, &ty).is_empty());
        assert_eq!(CORRELATIONS.with(Cell::get), LARGE);

        let block = Block::new().block_type(
            "rule",
            NestedBlock::new(
                BlockNesting::Set,
                Block::new()
                    .attribute("name", Attribute::new(Type::String).required())
                    .attribute("id", Attribute::new(Type::Number).computed()),
            ),
        );
        let id = |i: usize| {
            if i == 3 {
                Value::unknown()
            } else {
                Value::from(i as i64)
            }
        };
        let planned = Value::object([("rule", Value::set((0..LARGE).map(|i| object(i, id(i)))))]);
        let actual = Value::object([(
            "rule",
            Value::set((0..LARGE).map(|i| object(i, Value::from(i as i64)))),
        )]);
        CORRELATIONS.with(|c| c.set(0));
        assert!(block.check_apply(&planned, &actual).is_empty());
        // The element with the unknown is compared with the others until it correlates,
        // and the actual element it became with the planned ones.
        assert!(CORRELATIONS.with(Cell::get) < 4 * LARGE);
    }
}

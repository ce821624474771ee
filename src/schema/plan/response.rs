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

use super::marks::{self, Flag, NullElement, Reached};
use super::{cty, Check, Client, Findings, Inconsistency, Rule, Rules, Step};
use crate::schema::Block;
use crate::types::Type;
use crate::value::Value;

/// Terraform's checks of a planned state (its plan walk's, then `AssertPlanValid`),
/// under one client's rules or the strictest of all.
pub(super) fn check_plan(
    block: &Block,
    prior: &Value,
    config: &Value,
    planned: &Value,
    rules: Rules,
) -> Vec<Inconsistency> {
    let write_only = write_only_values(block, planned, Check::Plan, rules);
    if !write_only.is_empty() {
        return write_only;
    }
    let found = super::valid::check_plan(block, prior, config, planned, rules);
    if !found.is_empty() {
        return found;
    }
    // Terraform marks the sensitive values of a valid plan.
    sensitive_failure(block, planned, Check::Plan, rules, false)
}

/// Terraform's check of a plan's `RequiresReplace` paths: each must lead somewhere in
/// the prior or the planned state (on an update; a create's are ignored).
pub(super) fn check_requires_replace(
    block: &Block,
    prior: &Value,
    planned: &Value,
    paths: &[crate::Path],
) -> Vec<Inconsistency> {
    let mut f = Findings::new(Check::Plan, Client::default());
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
pub(super) fn check_apply(
    block: &Block,
    planned: &Value,
    new: &Value,
    client: Client,
) -> Vec<Inconsistency> {
    let write_only = write_only_values(block, new, Check::Apply, client.into());
    if !write_only.is_empty() {
        return write_only;
    }
    // Terraform marks the sensitive values of the plan and of the result, whose
    // unknowns it has made null, before it reports the unknowns.
    let fails = sensitive_failure(block, planned, Check::Apply, client.into(), false);
    if !fails.is_empty() {
        return fails;
    }
    let fails = sensitive_failure(block, new, Check::Apply, client.into(), true);
    if !fails.is_empty() {
        return fails;
    }
    let mut f = Findings::new(Check::Apply, client);
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
    super::compatible::check_apply(block, planned, new, &[], client)
}

/// Terraform's checks of a refreshed state (`ReadResource`), or of an imported one.
pub(super) fn check_read(block: &Block, new: &Value, client: Client) -> Vec<Inconsistency> {
    let mut f = Findings::new(Check::Read, client);
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
    write_only_values(block, new, Check::Read, client.into())
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

/// Terraform's check of the write-only attributes in `value` (its
/// `ValidateWriteOnlyAttributes`): one problem for each that Terraform finds set, or its
/// refusal of the whole value, or its failure on it. OpenTofu's resource-instance node
/// has no such check in plans and results of apply.
fn write_only_values(
    block: &Block,
    value: &Value,
    check: Check,
    rules: Rules,
) -> Vec<Inconsistency> {
    let mut f = Findings::new(check, rules);
    let checks = rules.any(|client| !client.is_opentofu() || check == Check::Read);
    if !block.contains_write_only() || !checks {
        return f.found;
    }
    let paths = match marks::block_paths(block, value, Flag::WriteOnly, false) {
        Ok(paths) => paths,
        Err(NullElement(steps)) => {
            client_fails(&mut f, steps, NULL_ELEMENT_WRITE_ONLY);
            return f.found;
        }
    };
    if let Some(n) = paths.iter().find_map(|(_, r)| match r {
        Reached::NotAMap(n) => Some(*n),
        _ => None,
    }) {
        f.report(Rule::ClientRefuses, |_| {
            format!("Error validating write-only attributes: at step {n}: not a map type.")
        });
        if let Some(found) = f.found.last_mut() {
            found.message = format!(
                "{} refuses this value: its check of write-only attributes cannot take a key of \
                 a `dynamic` MAP block (step {n}: not a map type)",
                rules.wording().release()
            );
        }
        return f.found;
    }
    for (steps, reached) in paths {
        if reached.is_set() {
            let outer = std::mem::replace(&mut f.steps, steps);
            f.report(Rule::WriteOnlyReturned, |_| {
                "the provider returned a value for a write-only attribute".to_owned()
            });
            f.steps = outer;
        }
    }
    f.found
}

const NULL_ELEMENT_WRITE_ONLY: &str =
    "a null element of a nested attribute collection whose objects hold write-only attributes";
const NULL_ELEMENT_SENSITIVE: &str =
    "a null element of a nested attribute collection whose objects hold sensitive attributes";

/// Reports that the client fails (crashes) on the value, at `steps`, for `why`.
fn client_fails<'a>(f: &mut Findings<'a>, steps: Vec<Step<'a>>, why: &str) {
    let release = f.rules.wording().release();
    let outer = std::mem::replace(&mut f.steps, steps);
    f.report(Rule::ClientFails, |_| {
        format!("{release} fails on this value: {why}")
    });
    f.steps = outer;
}

/// Terraform's failure on a value whose sensitive attributes it marks (its schema's
/// `SensitivePaths`): a null element of a nested attribute collection holding sensitive
/// attributes (with `unknown_as_null`, an unknown one too, as Terraform has made the
/// unknowns of a result of apply null by then). OpenTofu does not fail so.
fn sensitive_failure(
    block: &Block,
    value: &Value,
    check: Check,
    rules: Rules,
    unknown_as_null: bool,
) -> Vec<Inconsistency> {
    let mut f = Findings::new(check, rules);
    if !rules.any(|client| !client.is_opentofu()) {
        return f.found;
    }
    if let Err(NullElement(steps)) =
        marks::block_paths(block, value, Flag::Sensitive, unknown_as_null)
    {
        client_fails(&mut f, steps, NULL_ELEMENT_SENSITIVE);
    }
    f.found
}

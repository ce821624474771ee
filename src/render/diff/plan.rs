//! A whole plan, as `terraform plan` and `terraform show PLANFILE` print it: every
//! resource instance change, the summary line and the changes to outputs.

use std::fmt::Write;

use crate::error::{Error, ErrorKind, Result};
use crate::path::Path;
use crate::schema::ProviderSchemas;
use crate::tfjson::{Action, Change, Plan, ResourceChange};
use crate::types::Type;

use super::{differ, human, ChangeAction, DiffOptions, ResourceHeading, Trees};

/// The action a `show -json` change's `actions` name; `None` for a list no version of
/// Terraform writes.
fn change_action(actions: &[Action]) -> Option<ChangeAction> {
    use Action::*;
    Some(match actions {
        [NoOp] => ChangeAction::NoOp,
        [Create] => ChangeAction::Create,
        [Read] => ChangeAction::Read,
        [Update] => ChangeAction::Update,
        [Delete] => ChangeAction::Delete,
        [Forget] => ChangeAction::Forget,
        [Delete, Create] => ChangeAction::DeleteThenCreate,
        [Create, Delete] => ChangeAction::CreateThenDelete,
        [Create, Forget] => ChangeAction::CreateThenForget,
        _ => return None,
    })
}

/// One resource instance change, with its heading, sensitive values hidden as the plan
/// and the schema mark them.
fn resource_change(
    rc: &ResourceChange,
    action: ChangeAction,
    schemas: &ProviderSchemas,
    options: &DiffOptions,
) -> Result<String> {
    let at = |e: Error| Error::new(e.kind(), format!("{}: {e}", rc.address));
    let block = &rc.schema(schemas).map_err(at)?.block;
    let ty = block.implied_type();
    let c = &rc.change;
    let before = c.typed_before(&ty).map_err(at)?;
    let after = c.typed_after(&ty).map_err(at)?;
    let mut options = options.clone();
    options
        .before_sensitive
        .extend(c.before_sensitive_paths(&ty));
    options.after_sensitive.extend(c.after_sensitive_paths(&ty));
    options
        .requires_replace
        .extend(c.replace_paths.iter().map(|p| p.resolve(&ty)));
    let mut heading = ResourceHeading::new(&rc.address, action);
    heading.action_reason = rc.action_reason.as_deref();
    heading.deposed = rc.deposed.as_deref();
    Ok(super::render_resource_change(
        &heading, &before, &after, block, &options,
    ))
}

/// One output's change, typed by its JSON (the value after's, or the value before's
/// where there is none after): its action and its rendering.
fn output_change(name: &str, c: &Change, options: &DiffOptions) -> Result<(ChangeAction, String)> {
    let at = |e: Error| Error::new(e.kind(), format!("output {name}: {e}"));
    let implied = |raw: Option<&crate::tfjson::RawJson>| -> Result<Option<Type>> {
        match raw {
            Some(raw) if raw.as_str() != "null" => {
                crate::json::implied_type(raw.as_str().as_bytes()).map(Some)
            }
            _ => Ok(None),
        }
    };
    let ty = match implied(c.after.as_ref()).map_err(at)? {
        Some(ty) => ty,
        None => implied(c.before.as_ref())
            .map_err(at)?
            .unwrap_or(Type::Dynamic),
    };
    let before = c.typed_before(&ty).map_err(at)?;
    let after = c.typed_after(&ty).map_err(at)?;
    let mut before_sensitive = options.before_sensitive.clone();
    before_sensitive.extend(c.before_sensitive_paths(&ty));
    let mut after_sensitive = options.after_sensitive.clone();
    after_sensitive.extend(c.after_sensitive_paths(&ty));
    let trees = Trees::new(&before, &after, &ty, &before_sensitive, &after_sensitive);
    let no_replace: [Path; 0] = [];
    let change = trees.change(&no_replace);
    let diff = differ::of_type(&change, &ty);
    Ok((diff.action, diff.render(1, super::opts(options))))
}

/// A whole plan as `terraform plan` prints it after its legend, from `Terraform will
/// perform the following actions:` to the changes to outputs: each resource instance
/// change in Terraform's order (by address, a deposed object after the current one;
/// no-ops left out), then `Plan: N to add, M to change, K to destroy.` (with `to
/// import` and `to forget` where there are any), then `Changes to Outputs:`. A plan
/// without changes is Terraform's `No changes.` line.
///
/// `schemas` type the values (`terraform providers schema -json`; a redacted plan's
/// own [`Plan::provider_schemas`] are used first). Sensitive values, those the plan
/// marks and those the schema does, show as `(sensitive value)`. The drift section
/// (`Objects have changed outside of Terraform`) and the legend are not printed. An
/// error names the resource change or output that could not be typed.
///
/// ```
/// use ctywire::render::diff::{render_plan, DiffOptions};
/// use ctywire::schema::ProviderSchemas;
/// use ctywire::tfjson::Plan;
///
/// let schemas = ProviderSchemas::from_json(br#"{"format_version": "1.0", "provider_schemas": {
///   "registry.terraform.io/example/cloud": {"resource_schemas": {"cloud_db": {"version": 0,
///     "block": {"attributes": {
///       "id": {"type": "string", "computed": true},
///       "name": {"type": "string", "required": true},
///       "password": {"type": "string", "required": true, "sensitive": true}}}}}}}}"#)?;
/// let plan = Plan::from_json(br#"{"format_version": "1.2",
///   "resource_changes": [{"address": "cloud_db.main", "mode": "managed", "type": "cloud_db",
///     "name": "main", "provider_name": "registry.terraform.io/example/cloud",
///     "change": {"actions": ["create"], "before": null,
///       "after": {"name": "main", "password": "hunter2"}, "after_unknown": {"id": true},
///       "before_sensitive": false, "after_sensitive": {"password": true}}}],
///   "output_changes": {"db_id": {"actions": ["create"], "before": null, "after": null,
///     "after_unknown": true, "before_sensitive": false, "after_sensitive": false}}}"#)?;
/// assert_eq!(render_plan(&plan, &schemas, &DiffOptions::new())?, r#"Terraform will perform the following actions:
///
///   ## cloud_db.main will be created
///   + resource "cloud_db" "main" {
///       + id       = (known after apply)
///       + name     = "main"
///       + password = (sensitive value)
///     }
///
/// Plan: 1 to add, 0 to change, 0 to destroy.
///
/// Changes to Outputs:
///   + db_id = (known after apply)
/// "#);
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn render_plan(
    plan: &Plan,
    schemas: &ProviderSchemas,
    options: &DiffOptions,
) -> Result<String> {
    let schemas = plan.provider_schemas.as_ref().unwrap_or(schemas);
    let mut changes: Vec<(&ResourceChange, ChangeAction)> = Vec::new();
    for rc in &plan.resource_changes {
        let action = change_action(&rc.change.actions).ok_or_else(|| {
            let names: Vec<&str> = rc.change.actions.iter().map(Action::as_str).collect();
            Error::new(
                ErrorKind::InvalidValue,
                format!(
                    "{}: the actions {names:?} are no change Terraform renders",
                    rc.address
                ),
            )
        })?;
        if action != ChangeAction::NoOp {
            changes.push((rc, action));
        }
    }
    changes.sort_by(|(a, _), (b, _)| {
        (a.address.as_str(), a.deposed.as_deref()).cmp(&(b.address.as_str(), b.deposed.as_deref()))
    });

    let mut outputs = Vec::new();
    for (name, c) in &plan.output_changes {
        let (action, text) = output_change(name, c, options)?;
        outputs.push((name, action, text));
    }
    let width = outputs
        .iter()
        .map(|(name, _, _)| human::attribute_name(name).len())
        .max()
        .unwrap_or(0);
    let outputs: Vec<String> = outputs
        .into_iter()
        .filter(|(_, action, _)| *action != ChangeAction::NoOp)
        .map(|(name, action, text)| {
            format!(
                "{} {} = {text}",
                super::opts(options).color(human::action_symbol(action)),
                human::padded(&human::attribute_name(name), width)
            )
        })
        .collect();

    if changes.is_empty() && outputs.is_empty() {
        return Ok("No changes. Your infrastructure matches the configuration.\n".to_owned());
    }
    let mut out = String::new();
    let (mut import, mut add, mut change, mut destroy, mut forget) = (0, 0, 0, 0, 0);
    if !changes.is_empty() {
        out.push_str("Terraform will perform the following actions:\n");
        for (rc, action) in &changes {
            out.push('\n');
            out.push_str(&resource_change(rc, *action, schemas, options)?);
            out.push('\n');
            if rc.change.importing.is_some() {
                import += 1;
            }
            match action {
                ChangeAction::Create => add += 1,
                ChangeAction::Update => change += 1,
                ChangeAction::Delete => destroy += 1,
                ChangeAction::DeleteThenCreate | ChangeAction::CreateThenDelete => {
                    add += 1;
                    destroy += 1;
                }
                ChangeAction::Forget => forget += 1,
                ChangeAction::CreateThenForget => {
                    add += 1;
                    forget += 1;
                }
                ChangeAction::Read | ChangeAction::NoOp => {}
            }
        }
        out.push_str("\nPlan: ");
        if import > 0 {
            let _ = write!(out, "{import} to import, ");
        }
        let _ = write!(
            out,
            "{add} to add, {change} to change, {destroy} to destroy"
        );
        if forget > 0 {
            let _ = write!(out, ", {forget} to forget");
        }
        out.push_str(".\n");
    }
    if !outputs.is_empty() {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str("Changes to Outputs:\n");
        for line in outputs {
            out.push_str(&line);
            out.push('\n');
        }
    }
    Ok(out)
}

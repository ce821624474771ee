//! A whole plan, as `terraform plan` and `terraform show PLANFILE` print it: every
//! resource instance change, the summary line and the changes to outputs.

use std::fmt::Write;

use crate::error::{Error, ErrorKind, Result};
use crate::path::Path;
use crate::schema::ProviderSchemas;
use crate::tfjson::{Action, Change, Plan, ResourceChange, ResourceMode};
use crate::types::Type;
use crate::value::Value;

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
/// and the schema mark them. A drifted change (`resource_drift`) is worded as found
/// outside Terraform, and shows only the `relevant` attributes as changed.
fn resource_change(
    rc: &ResourceChange,
    action: ChangeAction,
    drift: Option<&[&Path]>,
    schemas: &ProviderSchemas,
    options: &DiffOptions,
) -> Result<String> {
    let at = |e: Error| Error::new(e.kind(), format!("{}: {e}", rc.address));
    let block = &rc.schema(schemas).map_err(at)?.block;
    let ty = block.implied_type();
    let c = &rc.change;
    let before = c.typed_before(&ty).map_err(at)?;
    let mut after = c.typed_after(&ty).map_err(at)?;
    let mut options = options.clone();
    let before_sensitive = c.before_sensitive_paths(&ty);
    let mut after_sensitive = c.after_sensitive_paths(&ty);
    if let Some(relevant) = drift {
        after = only_relevant(
            &before,
            after,
            block,
            relevant,
            &before_sensitive,
            &mut after_sensitive,
        );
    }
    options.before_sensitive.extend(before_sensitive);
    options.after_sensitive.extend(after_sensitive);
    options
        .requires_replace
        .extend(c.replace_paths.iter().map(|p| p.resolve(&ty)));
    if c.importing.is_some() {
        options.show_unchanged = true;
    }
    let mut heading = ResourceHeading::new(&rc.address, action);
    heading.action_reason = rc.action_reason.as_deref();
    heading.deposed = rc.deposed.as_deref();
    heading.drift = drift.is_some();
    heading.previous_address = rc.previous_address.as_deref();
    heading.importing = c.importing.as_ref().map(|i| i.id.as_deref().unwrap_or(""));
    Ok(super::render_resource_change(
        &heading, &before, &after, block, &options,
    ))
}

/// A drifted object's value after, with each top-level attribute and block that no
/// `relevant` path reaches put back as it was before (and its sensitive paths with
/// it): Terraform shows only the drift that may have affected the plan.
fn only_relevant(
    before: &Value,
    after: Value,
    block: &crate::schema::Block,
    relevant: &[&Path],
    before_sensitive: &[Path],
    after_sensitive: &mut Vec<Path>,
) -> Value {
    if before.is_null() || after.is_null() || before.is_unknown() || after.is_unknown() {
        return after;
    }
    let names = block.attributes.keys().chain(block.block_types.keys());
    let mut after = after;
    for name in names {
        let top = Path::root().attribute(name.as_str());
        if relevant
            .iter()
            .any(|p| p.steps().first() == top.steps().first())
        {
            continue;
        }
        let Some(was) = before.at_path(&top) else {
            continue;
        };
        if let Ok(v) = after.clone().with_attribute(name, was.clone()) {
            after = v;
            after_sensitive.retain(|p| !top.is_prefix_of(p));
            after_sensitive.extend(
                before_sensitive
                    .iter()
                    .filter(|p| top.is_prefix_of(p))
                    .cloned(),
            );
        }
    }
    after
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
    Ok((diff.action, diff.render(0, super::opts(options))))
}

/// A whole plan as `terraform show PLANFILE` prints it, which is also what `terraform
/// plan` prints between its refresh lines and its closing note: the changes found
/// outside Terraform that the plan used (`Objects have changed outside of Terraform`),
/// the legend, each resource instance change in Terraform's order (by address, a
/// deposed object after the current one; no-ops left out but moves and imports), then
/// `Plan: N to add, M to change, K to destroy.` (with `to import` where there are
/// any), then `Changes to Outputs:`. A plan without changes is Terraform's `No
/// changes.` text.
///
/// `schemas` type the values (`terraform providers schema -json`; a redacted plan's
/// own [`Plan::provider_schemas`] are used first). Sensitive values, those the plan
/// marks and those the schema does, show as `(sensitive value)`. An error names the
/// resource change or output that could not be typed.
///
/// The text is Terraform 1.15.5's for every plan of `vectors/plan/terraform-plans/`
/// (creates, updates, both orders of replacement, destroys, every block nesting, sets,
/// maps, sensitive values, unknowns, removed attributes, drift, imports, moves,
/// forgets, outputs, no changes). Where it departs from Terraform's:
///
/// | What | Terraform | here | why | vector |
/// | --- | --- | --- | --- | --- |
/// | a `-refresh-only` plan | the drift with a refresh-only closing note (all of it, used or not) | the drift with a normal plan's note (the drift the plan used) | `show -json` does not record the plan's mode | `refresh-only` |
/// | a `-destroy` plan with nothing to destroy | `No objects need to be destroyed.` | a normal plan's `No changes.` text | the same | `destroy-nothing` |
/// | drift in an attribute the plan did not use | hidden at every level of nested blocks | hidden for top-level attributes and blocks; a block the plan used shows all its drift | simpler; no recorded plan tells them apart | none |
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
/// assert_eq!(render_plan(&plan, &schemas, &DiffOptions::new())?, r#"
/// Terraform used the selected providers to generate the following execution
/// plan. Resource actions are indicated with the following symbols:
///   + create
///
/// Terraform will perform the following actions:
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
    let color = |text: &str| super::opts(options).color(text);

    // The changes Terraform prints: no no-ops but moves and imports, no data source
    // deletions.
    let mut changes: Vec<(&ResourceChange, ChangeAction)> = Vec::new();
    let mut any_change = false;
    for rc in &plan.resource_changes {
        let action = action_of(rc)?;
        let moved = is_moved(rc);
        any_change |= action != ChangeAction::NoOp || moved;
        if action == ChangeAction::NoOp && !moved && rc.change.importing.is_none() {
            continue;
        }
        if action == ChangeAction::Delete && rc.mode != ResourceMode::Managed {
            continue;
        }
        changes.push((rc, action));
    }
    changes.sort_by(|(a, _), (b, _)| {
        (a.address.as_str(), a.deposed.as_deref()).cmp(&(b.address.as_str(), b.deposed.as_deref()))
    });

    let mut outputs = Vec::new();
    for (name, c) in &plan.output_changes {
        let (action, text) = output_change(name, c, options)?;
        any_change |= action != ChangeAction::NoOp;
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
                color(human::action_symbol(action)),
                human::padded(&human::attribute_name(name), width)
            )
        })
        .collect();

    let mut out = String::new();
    let drifted = any_change && drift(plan, schemas, options, &mut out)?;
    let rule = if drifted {
        format!(
            "\n{}\n",
            color(&format!("[dark_gray]{}", "─".repeat(RULE_WIDTH)))
        )
    } else {
        String::new()
    };

    if changes.is_empty() && outputs.is_empty() {
        if plan.errored {
            out.push_str(&rule);
            out.push_str(&color("\n[reset][bold][red]Planning failed.[reset][bold] Terraform encountered an error while generating this plan.[reset]\n\n"));
            return Ok(out);
        }
        out.push_str(&rule);
        out.push_str(&color(
            "\n[reset][bold][green]No changes.[reset][bold] Your infrastructure matches the configuration.[reset]\n\n",
        ));
        out.push_str(if !drifted {
            NO_DIFFERENCES
        } else if plan.applyable {
            ONLY_STATE
        } else {
            REFRESH_ONLY
        });
        return Ok(out);
    }
    out.push_str(&rule);

    let mut counts = Counts::default();
    for (rc, action) in &changes {
        if rc.change.importing.is_some() {
            counts.import += 1;
        }
        counts.count(*action);
    }
    // Terraform prints the legend (and leaves out the note on outputs) when a change
    // does something, even a change it does not count.
    let acting = changes.iter().any(|(_, a)| *a != ChangeAction::NoOp);
    if acting {
        out.push_str(LEGEND);
        for (n, action) in [
            (counts.create, ChangeAction::Create),
            (counts.update, ChangeAction::Update),
            (counts.delete, ChangeAction::Delete),
            (counts.delete_then_create, ChangeAction::DeleteThenCreate),
            (counts.create_then_delete, ChangeAction::CreateThenDelete),
            (counts.read, ChangeAction::Read),
        ] {
            if n > 0 {
                out.push_str(&color(legend_line(action)));
                out.push('\n');
            }
        }
    }

    if !changes.is_empty() {
        out.push_str(if plan.errored {
            "\nTerraform planned the following actions, but then encountered a problem:\n"
        } else {
            "\nTerraform will perform the following actions:\n"
        });
        for (rc, action) in &changes {
            out.push('\n');
            out.push_str(&resource_change(rc, *action, None, schemas, options)?);
            out.push('\n');
        }
        let add = counts.create + counts.delete_then_create + counts.create_then_delete;
        let destroy = counts.delete + counts.delete_then_create + counts.create_then_delete;
        out.push_str(&color("\n[bold]Plan:[reset] "));
        if counts.import > 0 {
            let _ = write!(out, "{} to import, ", counts.import);
        }
        let _ = writeln!(
            out,
            "{add} to add, {} to change, {destroy} to destroy.",
            counts.update
        );
    }
    if !outputs.is_empty() {
        out.push_str("\nChanges to Outputs:\n");
        for line in outputs {
            out.push_str(&line);
            out.push('\n');
        }
        if !acting {
            out.push_str(OUTPUTS_ONLY);
        }
    }
    Ok(out)
}

/// The width Terraform wraps its notes at and draws its rule one short of, when its
/// output is not a terminal.
const RULE_WIDTH: usize = 77;

const LEGEND: &str = "\nTerraform used the selected providers to generate the following execution
plan. Resource actions are indicated with the following symbols:\n";

const NO_DIFFERENCES: &str =
    "Terraform has compared your real infrastructure against your configuration
and found no differences, so no changes are needed.\n";

const ONLY_STATE: &str =
    "Your configuration already matches the changes detected above, so applying
this plan will only update the state to include the changes detected above and
won't change any real infrastructure.\n";

const REFRESH_ONLY: &str =
    "Your configuration already matches the changes detected above. If you'd like
to update the Terraform state to match, create and apply a refresh-only plan.\n";

const OUTPUTS_ONLY: &str =
    "\nYou can apply this plan to save these new output values to the Terraform
state, without changing any real infrastructure.\n";

const DRIFT_HEAD: &str =
    "Terraform detected the following changes made outside of Terraform since the
last \"terraform apply\" which may have affected this plan:\n";

const DRIFT_TAIL: &str =
    "\n\nUnless you have made equivalent changes to your configuration, or ignored the
relevant attributes using ignore_changes, the following plan may include
actions to undo or respond to these changes.\n";

/// A line of the legend: the action's symbol and what it means.
fn legend_line(action: ChangeAction) -> &'static str {
    match action {
        ChangeAction::Create => "  [green]+[reset] create",
        ChangeAction::Update => "  [yellow]~[reset] update in-place",
        ChangeAction::Delete => "  [red]-[reset] destroy",
        ChangeAction::DeleteThenCreate => {
            "[red]-[reset]/[green]+[reset] destroy and then create replacement"
        }
        ChangeAction::CreateThenDelete => {
            "[green]+[reset]/[red]-[reset] create replacement and then destroy"
        }
        ChangeAction::Read => " [cyan]<=[reset] read (data resources)",
        _ => "",
    }
}

/// How many changes of each action the plan holds (Terraform 1.15 neither counts nor
/// lists a `forget`).
#[derive(Default)]
struct Counts {
    import: usize,
    create: usize,
    update: usize,
    delete: usize,
    delete_then_create: usize,
    create_then_delete: usize,
    read: usize,
}

impl Counts {
    fn count(&mut self, action: ChangeAction) {
        match action {
            ChangeAction::Create => self.create += 1,
            ChangeAction::Update => self.update += 1,
            ChangeAction::Delete => self.delete += 1,
            ChangeAction::DeleteThenCreate => self.delete_then_create += 1,
            ChangeAction::CreateThenDelete => self.create_then_delete += 1,
            ChangeAction::Read => self.read += 1,
            _ => {}
        }
    }
}

/// The action of a resource change, or an error naming it.
fn action_of(rc: &ResourceChange) -> Result<ChangeAction> {
    change_action(&rc.change.actions).ok_or_else(|| {
        let names: Vec<&str> = rc.change.actions.iter().map(Action::as_str).collect();
        Error::new(
            ErrorKind::InvalidValue,
            format!(
                "{}: the actions {names:?} are no change Terraform renders",
                rc.address
            ),
        )
    })
}

/// Whether a `moved` block gave the change a new address.
fn is_moved(rc: &ResourceChange) -> bool {
    rc.previous_address
        .as_deref()
        .is_some_and(|p| !p.is_empty() && p != rc.address)
}

/// The section `Objects have changed outside of Terraform`, written into `out` when a
/// drifted object changed an attribute the plan used (`relevant_attributes`); whether
/// it was written.
fn drift(
    plan: &Plan,
    schemas: &ProviderSchemas,
    options: &DiffOptions,
    out: &mut String,
) -> Result<bool> {
    let mut texts = Vec::new();
    for rc in &plan.resource_drift {
        let relevant: Vec<&Path> = plan
            .relevant_attributes
            .iter()
            .filter(|r| r.resource.is_empty() || r.resource == rc.address)
            .map(|r| &r.attribute)
            .collect();
        if relevant.is_empty() {
            continue;
        }
        let action = action_of(rc)?;
        let text = resource_change(rc, action, Some(&relevant), schemas, options)?;
        // Terraform leaves out a drift whose relevant attributes did not change.
        if action == ChangeAction::NoOp || !changed(rc, &relevant, schemas)? {
            continue;
        }
        texts.push(text);
    }
    if texts.is_empty() {
        return Ok(false);
    }
    let color = |text: &str| super::opts(options).color(text);
    out.push_str(&color(
        "\n[bold][cyan]Note:[reset][bold] Objects have changed outside of Terraform\n",
    ));
    out.push('\n');
    out.push_str(DRIFT_HEAD);
    for text in texts {
        out.push('\n');
        out.push_str(&text);
        out.push('\n');
    }
    out.push_str(DRIFT_TAIL);
    Ok(true)
}

/// Whether a drifted object's relevant attributes changed.
fn changed(rc: &ResourceChange, relevant: &[&Path], schemas: &ProviderSchemas) -> Result<bool> {
    let at = |e: Error| Error::new(e.kind(), format!("{}: {e}", rc.address));
    let block = &rc.schema(schemas).map_err(at)?.block;
    let ty = block.implied_type();
    let before = rc.change.typed_before(&ty).map_err(at)?;
    let after = rc.change.typed_after(&ty).map_err(at)?;
    let mut sensitive = Vec::new();
    let after = only_relevant(&before, after, block, relevant, &[], &mut sensitive);
    Ok(before != after)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/vectors/plan/terraform-plans");

    fn read(name: &str) -> String {
        std::fs::read_to_string(format!("{DIR}/{name}"))
            .unwrap_or_else(|e| panic!("{DIR}/{name}: {e}"))
    }

    /// Every plan Terraform 1.15.5 made against the example providers
    /// (`vectors/plan/terraform-plans/`), rendered as `terraform show` printed it.
    #[test]
    fn terraform_plans() {
        let mut schemas = ProviderSchemas::from_json(read("demo.schema.json").as_bytes()).unwrap();
        let trial = ProviderSchemas::from_json(read("trial.schema.json").as_bytes()).unwrap();
        schemas.providers.extend(trial.providers);
        let mut names: Vec<String> = std::fs::read_dir(DIR)
            .unwrap()
            .filter_map(|e| {
                let name = e.unwrap().file_name().into_string().unwrap();
                name.strip_suffix(".plan.json").map(str::to_owned)
            })
            .collect();
        names.sort();
        assert!(names.len() >= 28, "{names:?}");
        let mut failures = Vec::new();
        for name in &names {
            let plan = Plan::from_json(read(&format!("{name}.plan.json")).as_bytes()).unwrap();
            let want = read(&format!("{name}.txt"));
            // `terraform show` printed what `terraform plan` did, after its refresh
            // lines and before its note on the saved plan.
            assert!(
                read(&format!("{name}.plan.txt")).contains(&want),
                "{name}: terraform show's text is not in terraform plan's"
            );
            // A deliberate departure (see `render_plan`'s table): what ctywire prints.
            let ours = std::fs::read_to_string(format!("{DIR}/{name}.ctywire.txt")).ok();
            if let Some(ours) = &ours {
                assert_ne!(ours, &want, "{name}: no departure");
            }
            let want = ours.unwrap_or(want);
            match render_plan(&plan, &schemas, &DiffOptions::new()) {
                Ok(got) if got == want => {}
                Ok(got) => failures.push(format!("{name}:\n--- want\n{want}\n--- got\n{got}")),
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        }
        assert!(
            failures.is_empty(),
            "{} of {} plans differ:\n{}",
            failures.len(),
            names.len(),
            failures.join("\n")
        );
    }
}

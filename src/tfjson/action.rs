//! Action invocations in plans (`action_invocations`, `deferred_action_invocations`):
//! Terraform 1.14's actions, each with its configuration as a value.

use crate::error::{Error, ErrorKind, Result};
use crate::path::Path;
use crate::schema::{ProviderSchemas, SchemaKind, SchemaMatch};
use crate::token::json_read::Reader;
use crate::types::Type;
use crate::value::Value;

use super::state::{checked, non_null};
use super::{from_json_value, read, sensitive_paths, MarkTree, RawJson};

/// An action the plan invokes (`action_invocations`).
///
/// ```
/// use ctywire::tfjson::Plan;
///
/// let plan = Plan::from_json(br#"{"format_version": "1.2", "action_invocations": [{
///   "address": "action.bufo_print.success", "type": "bufo_print", "name": "success",
///   "config_values": {"color": null, "name": "bufo"}, "config_sensitive": {},
///   "config_unknown": {"ratio": true},
///   "provider_name": "registry.terraform.io/austinvalle/bufo",
///   "invoke_action_trigger": {}
/// }]}"#)?;
/// let action = &plan.action_invocations[0];
/// let config = action.typed_config(&"object({color=string,name=string,ratio=number})".parse()?)?;
/// assert!(config["ratio"].is_unknown());
/// assert!(action.invoke_action_trigger.is_some());
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ActionInvocation {
    /// The action's absolute address, e.g. `action.bufo_print.success`.
    pub address: String,
    /// The action type.
    pub type_name: String,
    /// The action's name.
    pub name: String,
    /// What is known of the action's configuration, as plain JSON (unknowns left out).
    pub config_values: Option<RawJson>,
    /// Which parts of the configuration are unknown.
    pub config_unknown: Option<MarkTree>,
    /// Which parts of the configuration are sensitive.
    pub config_sensitive: Option<MarkTree>,
    /// The provider's source address.
    pub provider_name: Option<String>,
    /// Set when a resource's lifecycle triggers the action.
    pub lifecycle_action_trigger: Option<LifecycleActionTrigger>,
    /// Set when the action is invoked directly (`terraform apply -invoke`).
    pub invoke_action_trigger: Option<InvokeActionTrigger>,
}

/// What in a resource's lifecycle triggers an action: an [`ActionInvocation`]'s
/// `lifecycle_action_trigger`, from an `action_trigger` block of the resource.
///
/// ```
/// use ctywire::schema::ProviderSchemas;
/// use ctywire::tfjson::Plan;
///
/// let plan = Plan::from_json(br#"{"format_version": "1.2", "action_invocations": [{
///   "address": "action.cloud_instance_reboot.after_boot", "type": "cloud_instance_reboot",
///   "name": "after_boot", "provider_name": "registry.terraform.io/example/cloud",
///   "config_values": {}, "config_unknown": {"instance_id": true}, "config_sensitive": {},
///   "lifecycle_action_trigger": {
///     "triggering_resource_address": "cloud_instance.web", "action_trigger_event": "AfterCreate",
///     "action_trigger_block_index": 0, "actions_list_index": 0, "on_failure": "fail"
///   }
/// }]}"#)?;
/// let reboot = &plan.action_invocations[0];
/// let trigger = reboot.lifecycle_action_trigger.as_ref().unwrap();
/// assert_eq!(trigger.triggering_resource_address, "cloud_instance.web");
/// assert_eq!(trigger.action_trigger_event, "AfterCreate");
///
/// // The instance is created first: its ID, and so the action's configuration, is unknown.
/// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json")?)?;
/// let ty = reboot.find_schema(&schemas)?.schema.implied_type();
/// assert!(reboot.typed_config(&ty)?["instance_id"].is_unknown());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct LifecycleActionTrigger {
    /// The resource whose lifecycle event triggers the action.
    pub triggering_resource_address: String,
    /// The event, e.g. `AfterCreate`.
    pub action_trigger_event: String,
    /// Which `action_trigger` block of the resource (from 0).
    pub action_trigger_block_index: u64,
    /// Which action of the block's `actions` list (from 0).
    pub actions_list_index: u64,
    /// What happens when the action fails.
    pub on_failure: String,
}

/// A direct invocation of an action (`terraform apply -invoke`): an
/// [`ActionInvocation`]'s `invoke_action_trigger`.
///
/// ```
/// use ctywire::tfjson::Plan;
///
/// let plan = Plan::from_json(br#"{"format_version": "1.2", "action_invocations": [{
///   "address": "action.cloud_instance_reboot.now", "type": "cloud_instance_reboot", "name": "now",
///   "provider_name": "registry.terraform.io/example/cloud",
///   "config_values": {"instance_id": "i-0abc"}, "config_unknown": {}, "config_sensitive": {},
///   "invoke_action_trigger": {"calling_resource_address": "cloud_instance.web"}
/// }]}"#)?;
/// let reboot = &plan.action_invocations[0];
/// assert!(reboot.lifecycle_action_trigger.is_none());
/// let invoked = reboot.invoke_action_trigger.as_ref().unwrap();
/// assert_eq!(invoked.calling_resource_address.as_deref(), Some("cloud_instance.web"));
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct InvokeActionTrigger {
    /// The resource instance that fills the action's caller object, if any.
    pub calling_resource_address: Option<String>,
}

/// An action invocation deferred to a later plan (`deferred_action_invocations`).
///
/// ```
/// use ctywire::tfjson::Plan;
///
/// let plan = Plan::from_json(br#"{"format_version": "1.2", "deferred_action_invocations": [{
///   "reason": "provider_config_unknown",
///   "action_invocation": {
///     "address": "action.cloud_instance_reboot.later", "type": "cloud_instance_reboot",
///     "name": "later", "provider_name": "registry.terraform.io/example/cloud",
///     "invoke_action_trigger": {}
///   }
/// }]}"#)?;
/// let deferred = &plan.deferred_action_invocations[0];
/// assert_eq!(deferred.reason, "provider_config_unknown");
/// let reboot = &deferred.action_invocation;
/// assert_eq!(reboot.address, "action.cloud_instance_reboot.later");
/// // Nothing of its configuration is known yet.
/// assert!(reboot.typed_config(&"object({instance_id=string})".parse()?)?.is_null());
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct DeferredActionInvocation {
    /// Why it was deferred.
    pub reason: String,
    /// The invocation as far as it is known.
    pub action_invocation: ActionInvocation,
}

impl ActionInvocation {
    /// The action's schema in `schemas` (`action_schemas`), whose implied type types
    /// its configuration; see [`ProviderSchemas::find`] for how the provider is found.
    pub fn find_schema<'s>(&self, schemas: &'s ProviderSchemas) -> Result<SchemaMatch<'s>> {
        schemas.find(
            SchemaKind::Action,
            &self.type_name,
            self.provider_name.as_deref(),
        )
    }

    /// The configuration, with its unknowns, decoded with type `ty` (the action
    /// schema's implied type); `Null` when the document has none. `config_unknown`
    /// and `config_sensitive` must fit it.
    pub fn typed_config(&self, ty: &Type) -> Result<Value> {
        let value = match &self.config_values {
            Some(raw) => from_json_value(Some(raw.as_str()), self.config_unknown.as_ref(), ty)?,
            None => Value::Null,
        };
        checked(value, self.config_sensitive.as_ref(), ty)
    }

    /// The paths of the sensitive parts of the configuration.
    pub fn config_sensitive_paths(&self, ty: &Type) -> Vec<Path> {
        self.config_sensitive
            .as_ref()
            .map(|t| sensitive_paths(t, ty))
            .unwrap_or_default()
    }
}

pub(super) fn action_invocation(r: &mut Reader<'_>) -> Result<ActionInvocation> {
    let mut out = ActionInvocation::default();
    read::object(r, |k, r| {
        match k {
            "address" => out.address = read::string(r)?,
            "type" => out.type_name = read::string(r)?,
            "name" => out.name = read::string(r)?,
            "config_values" => out.config_values = non_null(read::raw(r)?),
            "config_unknown" => out.config_unknown = Some(read::tree(r)?),
            "config_sensitive" => out.config_sensitive = Some(read::tree(r)?),
            "provider_name" => out.provider_name = read::opt_string(r)?,
            "lifecycle_action_trigger" => {
                out.lifecycle_action_trigger = read::optional(r, lifecycle_action_trigger)?
            }
            "invoke_action_trigger" => {
                out.invoke_action_trigger = read::optional(r, invoke_action_trigger)?
            }
            _ => r.skip_value()?,
        }
        Ok(())
    })?;
    Ok(out)
}

fn lifecycle_action_trigger(r: &mut Reader<'_>) -> Result<LifecycleActionTrigger> {
    let mut out = LifecycleActionTrigger::default();
    read::object(r, |k, r| {
        match k {
            "triggering_resource_address" => out.triggering_resource_address = read::string(r)?,
            "action_trigger_event" => out.action_trigger_event = read::string(r)?,
            "action_trigger_block_index" => out.action_trigger_block_index = read::uint(r)?,
            "actions_list_index" => out.actions_list_index = read::uint(r)?,
            "on_failure" => out.on_failure = read::string(r)?,
            _ => r.skip_value()?,
        }
        Ok(())
    })?;
    Ok(out)
}

fn invoke_action_trigger(r: &mut Reader<'_>) -> Result<InvokeActionTrigger> {
    let mut out = InvokeActionTrigger::default();
    read::object(r, |k, r| {
        match k {
            "calling_resource_address" => out.calling_resource_address = read::opt_string(r)?,
            _ => r.skip_value()?,
        }
        Ok(())
    })?;
    Ok(out)
}

pub(super) fn deferred_action_invocation(r: &mut Reader<'_>) -> Result<DeferredActionInvocation> {
    let mut reason = String::new();
    let mut invocation = None;
    read::object(r, |k, r| {
        match k {
            "reason" => reason = read::string(r)?,
            "action_invocation" => invocation = Some(action_invocation(r)?),
            _ => r.skip_value()?,
        }
        Ok(())
    })?;
    let action_invocation = invocation.ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidValue,
            "a deferred action invocation without \"action_invocation\"",
        )
    })?;
    Ok(DeferredActionInvocation {
        reason,
        action_invocation,
    })
}

//! The lower level around the provider, apart from it: an [`Intercept`] hook that sees
//! each call's raw protocol-6 messages. It makes applies slow (`DEMO_SLOW_APPLY`), and spoils
//! `demo_thing`'s answers on purpose (`DEMO_MISBEHAVE`), for tests of what Terraform
//! makes of a broken provider: the framework checks its own plans and new states, so
//! a broken answer can only be made after it, here.

use std::any::Any;

use ctywire::object::Object;
use ctywire::{Path, Type, Value};
use ctywire_provider::Intercept;
use ctywire_tfplugin::dynamic;
use ctywire_tfplugin::path::path_to_proto;
use ctywire_tfplugin::tfplugin6::*;
use tonic::Status;

use crate::thing::{Thing, ThingIdentity, THING};

/// Deliberate misbehaviours, for tests of what Terraform makes of a broken provider
/// (`DEMO_MISBEHAVE`), one for each kind of check Terraform makes. Each changes a
/// `demo_thing` answer of the well-behaved provider.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Misbehaviour {
    /// `plan-changes-config`: the plan's `size` is one more than configured.
    PlanChangesConfig,
    /// `plan-drops-set-element`: the plan leaves out the last `network` block.
    PlanDropsSetElement,
    /// `plan-changes-prior`: an update's plan changes `secret` (sensitive, not
    /// computed) from both its configured and its prior value.
    PlanChangesPrior,
    /// `apply-changes-planned`: apply returns a `size` one more than planned.
    ApplyChangesPlanned,
    /// `apply-leaves-unknown`: apply returns the planned state as it is, unknowns and
    /// all (so `disk[0].kind` stays unknown).
    ApplyLeavesUnknown,
    /// `apply-returns-null`: apply returns a null object for a create.
    ApplyReturnsNull,
    /// `apply-wrong-type`: apply returns a state whose `size` is a string.
    ApplyWrongType,
    /// `read-leaves-unknown`: a refresh returns the state with `id` unknown.
    ReadLeavesUnknown,
    /// `plan-replaces-nowhere`: an update's plan says the attribute `nmae` (which does
    /// not exist) requires replacement.
    PlanReplacesNowhere,
    /// `apply-leaves-set-unknown`: apply returns the first `network` block (a SET
    /// block) with its `name` unknown, which Terraform names by the element
    /// (`.network[...].name`).
    ApplyLeavesSetUnknown,
    /// `plan-returns-null`: the plan is a null object (for a create and an update).
    PlanReturnsNull,
    /// `plan-wrong-type`: the planned state's `size` is a string.
    PlanWrongType,
    /// `destroy-returns-object`: a destroy returns the prior state instead of null.
    DestroyReturnsObject,
    /// `apply-changes-secret`: apply returns a `secret` (sensitive) other than planned.
    ApplyChangesSecret,
    /// `plan-unknown-set-element`: the plan adds a wholly unknown `network` block (a
    /// SET block's element), which Terraform names `.network[(not yet known)]`.
    PlanUnknownSetElement,
}

impl Misbehaviour {
    /// Every misbehaviour, by its `DEMO_MISBEHAVE` name.
    pub const ALL: [(&'static str, Misbehaviour); 15] = [
        ("plan-changes-config", Misbehaviour::PlanChangesConfig),
        ("plan-drops-set-element", Misbehaviour::PlanDropsSetElement),
        ("plan-changes-prior", Misbehaviour::PlanChangesPrior),
        ("apply-changes-planned", Misbehaviour::ApplyChangesPlanned),
        ("apply-leaves-unknown", Misbehaviour::ApplyLeavesUnknown),
        ("apply-returns-null", Misbehaviour::ApplyReturnsNull),
        ("apply-wrong-type", Misbehaviour::ApplyWrongType),
        ("read-leaves-unknown", Misbehaviour::ReadLeavesUnknown),
        ("plan-replaces-nowhere", Misbehaviour::PlanReplacesNowhere),
        (
            "apply-leaves-set-unknown",
            Misbehaviour::ApplyLeavesSetUnknown,
        ),
        ("plan-returns-null", Misbehaviour::PlanReturnsNull),
        ("plan-wrong-type", Misbehaviour::PlanWrongType),
        ("destroy-returns-object", Misbehaviour::DestroyReturnsObject),
        ("apply-changes-secret", Misbehaviour::ApplyChangesSecret),
        (
            "plan-unknown-set-element",
            Misbehaviour::PlanUnknownSetElement,
        ),
    ];

    /// The misbehaviour a `DEMO_MISBEHAVE` value names.
    pub fn parse(name: &str) -> Option<Misbehaviour> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|(_, m)| *m)
    }

    /// A plan of a `demo_thing` spoiled as this misbehaviour spoils plans.
    fn spoil_plan(
        self,
        req: &plan_resource_change::Request,
        response: &mut plan_resource_change::Response,
    ) -> Result<(), ctywire::Error> {
        let ty = Thing::cty_type();
        let prior = dynamic::decode(req.prior_state.as_ref(), &ty)?;
        let planned = dynamic::decode(response.planned_state.as_ref(), &ty)?;
        let planned = match self {
            Misbehaviour::PlanChangesConfig => bump_size(planned)?,
            Misbehaviour::PlanDropsSetElement => {
                let mut networks = planned["network"].as_slice().unwrap_or_default().to_vec();
                networks.pop();
                planned.with_attribute("network", Value::set(networks))?
            }
            Misbehaviour::PlanUnknownSetElement => {
                let mut networks = planned["network"].as_slice().unwrap_or_default().to_vec();
                networks.push(Value::unknown());
                planned.with_attribute("network", Value::set(networks))?
            }
            Misbehaviour::PlanChangesPrior if !prior.is_null() => {
                planned.with_attribute("secret", Value::from("changed by the plan"))?
            }
            Misbehaviour::PlanReturnsNull => Value::Null,
            Misbehaviour::PlanReplacesNowhere if !prior.is_null() => {
                let nowhere = Path::root().attribute("nmae");
                response.requires_replace.push(path_to_proto(&nowhere));
                planned
            }
            Misbehaviour::PlanWrongType => {
                response.planned_state = Some(encode_with_string_size(planned, &ty)?);
                return Ok(());
            }
            _ => return Ok(()),
        };
        response.planned_identity = identity(&planned)?;
        response.planned_state = Some(dynamic::encode(&planned, &ty)?);
        Ok(())
    }

    /// An apply of a `demo_thing` spoiled as this misbehaviour spoils applies.
    fn spoil_apply(
        self,
        req: &apply_resource_change::Request,
        response: &mut apply_resource_change::Response,
    ) -> Result<(), ctywire::Error> {
        let ty = Thing::cty_type();
        let planned = dynamic::decode(req.planned_state.as_ref(), &ty)?;
        let new = dynamic::decode(response.new_state.as_ref(), &ty)?;
        let new = match self {
            Misbehaviour::DestroyReturnsObject if planned.is_null() => {
                response.new_state = req.prior_state.clone();
                return Ok(());
            }
            _ if planned.is_null() => return Ok(()),
            Misbehaviour::ApplyLeavesUnknown => planned,
            Misbehaviour::ApplyReturnsNull => Value::Null,
            Misbehaviour::ApplyWrongType => {
                response.new_identity = identity(&planned)?;
                let wrong = planned.with_attribute("id", Value::from("thing-wrong"))?;
                response.new_state = Some(encode_with_string_size(wrong, &ty)?);
                return Ok(());
            }
            Misbehaviour::ApplyChangesPlanned => bump_size(new)?,
            Misbehaviour::ApplyLeavesSetUnknown => first_network_name_unknown(new)?,
            Misbehaviour::ApplyChangesSecret => {
                new.with_attribute("secret", Value::from("changed"))?
            }
            _ => return Ok(()),
        };
        response.new_identity = identity(&new)?;
        response.new_state = Some(dynamic::encode(&new, &ty)?);
        Ok(())
    }

    /// A read of a `demo_thing` spoiled as this misbehaviour spoils reads.
    fn spoil_read(self, response: &mut read_resource::Response) -> Result<(), ctywire::Error> {
        if self != Misbehaviour::ReadLeavesUnknown {
            return Ok(());
        }
        let ty = Thing::cty_type();
        let current = dynamic::decode(response.new_state.as_ref(), &ty)?;
        if !current.is_null() {
            let current = current.with_attribute("id", Value::unknown())?;
            response.new_identity = None;
            response.new_state = Some(dynamic::encode(&current, &ty)?);
        }
        Ok(())
    }
}

/// The identity of a thing whose value is `thing`: none while its id is not known (a
/// null value, a create's plan).
fn identity(thing: &Value) -> Result<Option<ResourceIdentityData>, ctywire::Error> {
    let Some(id) = thing["id"].as_str() else {
        return Ok(None);
    };
    let identity = ThingIdentity { id: id.to_owned() };
    Ok(Some(ResourceIdentityData {
        identity_data: Some(dynamic::encode_object(&identity)?),
    }))
}

/// `value` with its `size` the string `"big"`, encoded with a type in which `size` is a
/// string (what a provider with a wrong idea of the schema would send).
fn encode_with_string_size(value: Value, ty: &Type) -> Result<DynamicValue, ctywire::Error> {
    let wrong = Type::object(
        ty.as_object()
            .map(|o| {
                o.iter()
                    .map(|(n, t, _)| (n, if n == "size" { Type::String } else { t.clone() }))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default(),
    );
    dynamic::encode(&value.with_attribute("size", Value::from("big"))?, &wrong)
}

/// `value` with its `size` one more (or 1 when it has none).
fn bump_size(value: Value) -> Result<Value, ctywire::Error> {
    let size = value["size"].as_i64().map_or(1, |n| n + 1);
    value.with_attribute("size", Value::from(size))
}

/// `value` with the `name` of its first `network` block unknown.
fn first_network_name_unknown(value: Value) -> Result<Value, ctywire::Error> {
    let mut networks = value["network"].as_slice().unwrap_or_default().to_vec();
    if let Some(first) = networks.first_mut() {
        *first = first.clone().with_attribute("name", Value::unknown())?;
    }
    value.with_attribute("network", Value::set(networks))
}

/// How long an apply takes under `DEMO_SLOW_APPLY`.
pub const SLOW_APPLY: std::time::Duration = std::time::Duration::from_secs(3);

/// The hook around the demo provider: a slow apply, a misbehaviour.
pub struct Hook {
    misbehaviour: Option<Misbehaviour>,
    slow_apply: Option<std::path::PathBuf>,
}

impl Hook {
    /// Misbehaving as asked.
    pub fn new(misbehaviour: Option<Misbehaviour>) -> Hook {
        Hook {
            misbehaviour,
            slow_apply: None,
        }
    }

    /// Makes every `ApplyResourceChange` of a `demo_thing` write the file `mark` (for a
    /// test to see that an apply has started), then take [`SLOW_APPLY`] before the
    /// provider sees it (`DEMO_SLOW_APPLY=FILE`).
    pub fn slow_apply(mut self, mark: Option<std::path::PathBuf>) -> Hook {
        self.slow_apply = mark;
        self
    }
}

impl Intercept for Hook {
    async fn request(&self, _: &'static str, request: &mut (dyn Any + Send)) -> Result<(), Status> {
        let request: &dyn Any = request;
        let apply = request.downcast_ref::<apply_resource_change::Request>();
        if let (Some(mark), Some(apply)) = (&self.slow_apply, apply)
            && apply.type_name == THING
        {
            std::fs::write(mark, b"applying\n").map_err(|e| {
                Status::internal(format!("DEMO_SLOW_APPLY {}: {e}", mark.display()))
            })?;
            tokio::time::sleep(SLOW_APPLY).await;
        }
        Ok(())
    }

    fn response(&self, _: &'static str, request: &dyn Any, response: &mut dyn Any) {
        if let Some(m) = self.misbehaviour {
            let spoiled = if let (Some(req), Some(res)) = (
                request.downcast_ref::<plan_resource_change::Request>(),
                response.downcast_mut::<plan_resource_change::Response>(),
            ) {
                (req.type_name == THING).then(|| m.spoil_plan(req, res))
            } else if let (Some(req), Some(res)) = (
                request.downcast_ref::<apply_resource_change::Request>(),
                response.downcast_mut::<apply_resource_change::Response>(),
            ) {
                (req.type_name == THING).then(|| m.spoil_apply(req, res))
            } else if let (Some(req), Some(res)) = (
                request.downcast_ref::<read_resource::Request>(),
                response.downcast_mut::<read_resource::Response>(),
            ) {
                (req.type_name == THING).then(|| m.spoil_read(res))
            } else {
                None
            };
            if let Some(Err(e)) = spoiled {
                eprintln!("DEMO_MISBEHAVE: cannot misbehave: {e}");
            }
        }
    }
}

//! `demo_old_thing`: a resource type whose objects live in Terraform's state only, as
//! `demo_thing`'s do, with the shape `demo_thing` had at schema version 0. Its calls are
//! answered here; the provider hands them over by type name. A `moved` block moves an
//! object of it into a `demo_thing` (the provider's `MoveResourceState`).

use std::collections::BTreeMap;

use ctywire::object::Object;
use ctywire::schema::Block;
use ctywire::{Known, Path, Refinements, Type};
use ctywire_tfplugin::diagnostic::{self, Diagnostics};
use ctywire_tfplugin::path::path_to_proto;
use ctywire_tfplugin::tfplugin6::*;
use ctywire_tfplugin::{dynamic, raw_state};

use crate::schema;

/// What `id` starts with.
pub const ID_PREFIX: &str = "old-";

/// A thing as it was: `size` is a string. Move one into a `demo_thing` with a `moved` block.
#[derive(ctywire::Object, Debug, Clone, PartialEq)]
pub struct OldThing {
    #[cty(required)]
    pub name: String,
    #[cty(optional)]
    pub size: Option<String>,
    #[cty(optional)]
    pub tags: Option<BTreeMap<String, String>>,
    /// `old-` and the name.
    #[cty(computed)]
    pub id: Known<String>,
}

/// `demo_old_thing`'s calls, with its schema block and the type of its values.
pub struct OldThingResource {
    block: Block,
    ty: Type,
}

impl OldThingResource {
    /// The resource type.
    pub fn new() -> OldThingResource {
        OldThingResource {
            block: OldThing::schema_block(),
            ty: OldThing::cty_type(),
        }
    }

    /// `ValidateResourceConfig`: the configuration is of the type, and obeys the schema.
    pub fn validate(
        &self,
        req: &validate_resource_config::Request,
    ) -> validate_resource_config::Response {
        let mut diags = Diagnostics::new();
        if let Some(config) = diags.ok(
            dynamic::decode(req.config.as_ref(), &self.ty),
            "Invalid configuration",
        ) {
            for v in self.block.check_config(&config) {
                diags.push(diagnostic::from_violation(&v, "Invalid configuration"));
            }
        }
        validate_resource_config::Response {
            diagnostics: diags.into_vec(),
        }
    }

    /// `PlanResourceChange`: the proposed new state, with `id` unknown (not null,
    /// starting with `old-`) on create and kept on update; a new name replaces.
    pub fn plan(&self, req: &plan_resource_change::Request) -> plan_resource_change::Response {
        let mut diags = Diagnostics::new();
        let mut decode = |dv: &Option<DynamicValue>, summary| {
            diags.ok(dynamic::decode(dv.as_ref(), &self.ty), summary)
        };
        let prior = decode(&req.prior_state, "Invalid prior state");
        let config = decode(&req.config, "Invalid configuration");
        let proposed = decode(&req.proposed_new_state, "Invalid proposed new state");
        let mut response = plan_resource_change::Response {
            planned_private: req.prior_private.clone(),
            ..Default::default()
        };
        if let (Some(prior), Some(config), Some(proposed)) = (prior, config, proposed) {
            let block = &self.block;
            let id = Path::root().attribute("id");
            let planned = block.mark_computed_unknown(&prior, &config, &proposed, |path| {
                if *path == id {
                    Refinements::new().not_null().with_string_prefix(ID_PREFIX)
                } else {
                    Refinements::new()
                }
            });
            let planned = block.keep_prior(&prior, &planned, |path| *path == id);
            for i in block.check_plan(&prior, &config, &planned) {
                diags.push(diagnostic::from_inconsistency(
                    &i,
                    "Provider produced invalid plan",
                ));
            }
            let name = Path::root().attribute("name");
            response.requires_replace = block
                .requires_replace(&prior, &planned, std::slice::from_ref(&name))
                .iter()
                .map(path_to_proto)
                .collect();
            response.planned_state = diags.ok(dynamic::encode(&planned, &self.ty), "Invalid plan");
        }
        response.diagnostics = diags.into_vec();
        response
    }

    /// `ApplyResourceChange`: the planned state with `id` made from the name; a destroy
    /// leaves null.
    pub fn apply(&self, req: &apply_resource_change::Request) -> apply_resource_change::Response {
        let mut diags = Diagnostics::new();
        let new_state = diags
            .ok(
                dynamic::decode_object(req.planned_state.as_ref()),
                "Invalid planned state",
            )
            .and_then(|planned: Option<OldThing>| {
                let new = planned.map(|old| OldThing {
                    id: Known::Known(format!("{ID_PREFIX}{}", old.name)),
                    ..old
                });
                diags.ok(dynamic::encode_object(&new), "Invalid state")
            });
        apply_resource_change::Response {
            new_state,
            private: req.planned_private.clone(),
            diagnostics: diags.into_vec(),
            ..Default::default()
        }
    }

    /// `ReadResource`: the object is as its state says.
    pub fn read(&self, req: &read_resource::Request) -> read_resource::Response {
        let mut diags = Diagnostics::new();
        let new_state = diags
            .ok(
                dynamic::decode_object(req.current_state.as_ref()),
                "Invalid state",
            )
            .and_then(|old: Option<OldThing>| {
                diags.ok(dynamic::encode_object(&old), "Invalid state")
            });
        read_resource::Response {
            new_state,
            private: req.private.clone(),
            diagnostics: diags.into_vec(),
            ..Default::default()
        }
    }

    /// `UpgradeResourceState`: version 0 is the only version; its stored state, in
    /// either form, is read as it is.
    pub fn upgrade(
        &self,
        req: &upgrade_resource_state::Request,
    ) -> upgrade_resource_state::Response {
        let mut diags = Diagnostics::new();
        let upgraded_state = if req.version == 0 {
            diags
                .ok(
                    raw_state::decode_object(req.raw_state.as_ref()),
                    "Invalid state",
                )
                .and_then(|old: Option<OldThing>| {
                    diags.ok(dynamic::encode_object(&old), "Invalid state")
                })
        } else {
            diags.push(diagnostic::error(
                "Unsupported state version",
                format!(
                    "{} has schema version 0, not {}",
                    schema::OLD_THING,
                    req.version
                ),
                &Path::root(),
            ));
            None
        };
        upgrade_resource_state::Response {
            upgraded_state,
            diagnostics: diags.into_vec(),
        }
    }
}

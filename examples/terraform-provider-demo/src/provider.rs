//! The protocol-6 service: each call decodes its values with the schema's type, runs
//! the value logic, and encodes the result; problems become diagnostics with paths.

use ctywire::object::{self, Object};
use ctywire::schema::{Block, ProviderSchema};
use ctywire::{Error, ErrorKind, Known, Path, Type, Value};
use ctywire_tfplugin::diagnostic::{self, Diagnostics};
use ctywire_tfplugin::dynamic;
use ctywire_tfplugin::path::path_to_proto;
use ctywire_tfplugin::raw_state;
use ctywire_tfplugin::schema::{
    function_to_proto, identity_schemas_response, provider_schema_response,
};
use ctywire_tfplugin::tfplugin6::provider_server::Provider;
use ctywire_tfplugin::tfplugin6::*;
use tonic::{Request, Response, Status};

use crate::old_thing::{OldThing, OldThingResource};
use crate::schema::{self, Echo, ThingIdentity, CONCAT, ECHO, OLD_THING, THING, THING_VERSION};
use crate::thing::{self, Thing};

/// Deliberate misbehaviours, for tests of what Terraform makes of a broken provider
/// (`DEMO_MISBEHAVE`), one for each kind of check Terraform makes. A misbehaving
/// provider does not check its own results.
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

    /// A planned state spoiled as this misbehaviour spoils plans.
    fn spoil_plan(self, prior: &Value, planned: Value) -> Result<Value, Error> {
        match self {
            Misbehaviour::PlanChangesConfig => bump_size(planned),
            Misbehaviour::PlanDropsSetElement => {
                let mut networks = planned["network"].as_slice().unwrap_or_default().to_vec();
                networks.pop();
                planned.with_attribute("network", Value::set(networks))
            }
            Misbehaviour::PlanUnknownSetElement => {
                let mut networks = planned["network"].as_slice().unwrap_or_default().to_vec();
                networks.push(Value::unknown());
                planned.with_attribute("network", Value::set(networks))
            }
            Misbehaviour::PlanChangesPrior if !prior.is_null() => {
                planned.with_attribute("secret", Value::from("changed by the plan"))
            }
            Misbehaviour::PlanReturnsNull => Ok(Value::Null),
            _ => Ok(planned),
        }
    }

    /// What a misbehaving apply makes of the planned thing, before it spoils the result.
    fn apply(self, planned: Thing) -> Option<Thing> {
        match self {
            Misbehaviour::ApplyLeavesUnknown | Misbehaviour::ApplyWrongType => Some(planned),
            Misbehaviour::ApplyReturnsNull => None,
            _ => Some(planned.applied()),
        }
    }

    /// An apply's new state spoiled as this misbehaviour spoils applies: each makes a
    /// value Terraform refuses, which is made on the [`Value`].
    fn spoil_apply(self, new: &Option<Thing>, ty: &Type) -> Result<DynamicValue, Error> {
        let new = object::to_value(new)?;
        let new = match self {
            Misbehaviour::ApplyWrongType => {
                let wrong = new.with_attribute("id", Value::from("thing-wrong"))?;
                return encode_with_string_size(wrong, ty);
            }
            Misbehaviour::ApplyChangesPlanned => bump_size(new)?,
            Misbehaviour::ApplyLeavesSetUnknown => first_network_name_unknown(new)?,
            Misbehaviour::ApplyChangesSecret => {
                new.with_attribute("secret", Value::from("changed"))?
            }
            _ => new,
        };
        dynamic::encode(&new, ty)
    }
}

/// `value` with its `size` the string `"big"`, encoded with a type in which `size` is a
/// string (what a provider with a wrong idea of the schema would send).
fn encode_with_string_size(value: Value, ty: &Type) -> Result<DynamicValue, Error> {
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
fn bump_size(value: Value) -> Result<Value, Error> {
    let size = value["size"].as_i64().map_or(1, |n| n + 1);
    value.with_attribute("size", Value::from(size))
}

/// `value` with the `name` of its first `network` block unknown.
fn first_network_name_unknown(value: Value) -> Result<Value, Error> {
    let mut networks = value["network"].as_slice().unwrap_or_default().to_vec();
    if let Some(first) = networks.first_mut() {
        *first = first.clone().with_attribute("name", Value::unknown())?;
    }
    value.with_attribute("network", Value::set(networks))
}

/// How long an apply takes under `DEMO_SLOW_APPLY`.
pub const SLOW_APPLY: std::time::Duration = std::time::Duration::from_secs(3);

/// The demo provider.
pub struct Demo {
    schemas: ProviderSchema,
    thing: Block,
    thing_type: Type,
    old_thing: OldThingResource,
    misbehaviour: Option<Misbehaviour>,
    slow_apply: Option<std::path::PathBuf>,
}

impl Demo {
    /// The provider, misbehaving as asked (its calls are captured by the
    /// [`Plugin`](ctywire_tfplugin::Plugin) that serves it).
    pub fn new(misbehaviour: Option<Misbehaviour>) -> Demo {
        Demo {
            schemas: schema::provider(),
            thing: Thing::schema_block(),
            thing_type: Thing::cty_type(),
            old_thing: OldThingResource::new(),
            misbehaviour,
            slow_apply: None,
        }
    }

    /// Makes every `ApplyResourceChange` of a `demo_thing` write the file `mark` (for a
    /// test to see that an apply has started), then take [`SLOW_APPLY`] before it
    /// answers (`DEMO_SLOW_APPLY=FILE`).
    pub fn slow_apply(mut self, mark: Option<std::path::PathBuf>) -> Demo {
        self.slow_apply = mark;
        self
    }

    /// The identity of a thing whose `id` is `id`; none while the id is not known (a
    /// null state, a create's plan). Terraform 1.15 accepts an unknown planned identity
    /// but cannot then write the plan as JSON (`show -json` fails with "value is not
    /// known"), so the identity is planned only once it is known.
    fn identity(id: Option<&str>) -> Result<Option<ResourceIdentityData>, Error> {
        let Some(id) = id else { return Ok(None) };
        let identity = ThingIdentity { id: id.to_owned() };
        Ok(Some(ResourceIdentityData {
            identity_data: Some(dynamic::encode_object(&identity)?),
        }))
    }

    /// The id an import asks for: the import id, or the identity's `id`.
    fn import_id(req: &import_resource_state::Request) -> Result<String, Error> {
        if !req.id.is_empty() {
            return Ok(req.id.clone());
        }
        let data = req.identity.as_ref().and_then(|i| i.identity_data.as_ref());
        match dynamic::decode_object::<Option<ThingIdentity>, _>(data)? {
            Some(identity) => Ok(identity.id),
            None => Err(Error::new(
                ErrorKind::InvalidValue,
                "import needs an id or an identity with an id",
            )
            .at(&Path::root().attribute("id"))),
        }
    }

    /// `new`, the new state of an apply of `planned`, checked as Terraform will check it:
    /// the inconsistencies go into `diags`.
    fn checked(
        &self,
        planned: Option<&DynamicValue>,
        new: &Option<Thing>,
        diags: &mut Diagnostics,
    ) -> Result<DynamicValue, Error> {
        let planned = dynamic::decode(planned, &self.thing_type)?;
        for i in self.thing.check_apply(&planned, &object::to_value(new)?) {
            diags.push(diagnostic::from_inconsistency(
                &i,
                "Provider produced inconsistent result after apply",
            ));
        }
        dynamic::encode_object(new)
    }

    fn check_type(&self, type_name: &str, expected: &str) -> Result<(), Status> {
        if type_name == expected {
            Ok(())
        } else {
            Err(Status::invalid_argument(format!(
                "unknown type {type_name:?}"
            )))
        }
    }
}

#[tonic::async_trait]
impl Provider for Demo {
    async fn get_metadata(
        &self,
        _request: Request<get_metadata::Request>,
    ) -> Result<Response<get_metadata::Response>, Status> {
        Ok(Response::new(get_metadata::Response {
            resources: vec![
                get_metadata::ResourceMetadata {
                    type_name: THING.into(),
                },
                get_metadata::ResourceMetadata {
                    type_name: OLD_THING.into(),
                },
            ],
            server_capabilities: Some(server_capabilities()),
            data_sources: vec![get_metadata::DataSourceMetadata {
                type_name: ECHO.into(),
            }],
            functions: vec![get_metadata::FunctionMetadata {
                name: CONCAT.into(),
            }],
            ..Default::default()
        }))
    }

    async fn get_provider_schema(
        &self,
        _request: Request<get_provider_schema::Request>,
    ) -> Result<Response<get_provider_schema::Response>, Status> {
        let mut response = provider_schema_response(&self.schemas);
        response.server_capabilities = Some(server_capabilities());
        Ok(Response::new(response))
    }

    async fn get_resource_identity_schemas(
        &self,
        _request: Request<get_resource_identity_schemas::Request>,
    ) -> Result<Response<get_resource_identity_schemas::Response>, Status> {
        Ok(Response::new(identity_schemas_response(&self.schemas)))
    }

    async fn upgrade_resource_identity(
        &self,
        request: Request<upgrade_resource_identity::Request>,
    ) -> Result<Response<upgrade_resource_identity::Response>, Status> {
        let req = request.into_inner();
        self.check_type(&req.type_name, THING)?;
        let mut diags = Diagnostics::new();
        let raw = req.raw_identity.unwrap_or_default();
        let mut response = upgrade_resource_identity::Response::default();
        if req.version != 0 {
            diags.push(diagnostic::error(
                "Unsupported identity version",
                format!("demo_thing's identity has version 0, not {}", req.version),
                &Path::root(),
            ));
        } else {
            // The stored JSON, attributes the identity no longer has dropped.
            response.upgraded_identity = diags
                .ok(
                    raw_state::decode_object::<ThingIdentity, _>(Some(&raw)),
                    "Invalid identity",
                )
                .and_then(|identity| {
                    diags.ok(Self::identity(Some(&identity.id)), "Invalid identity")
                })
                .flatten();
        }
        response.diagnostics = diags.into_vec();
        Ok(Response::new(response))
    }

    async fn validate_provider_config(
        &self,
        _request: Request<validate_provider_config::Request>,
    ) -> Result<Response<validate_provider_config::Response>, Status> {
        Ok(Response::new(validate_provider_config::Response::default()))
    }

    async fn configure_provider(
        &self,
        _request: Request<configure_provider::Request>,
    ) -> Result<Response<configure_provider::Response>, Status> {
        Ok(Response::new(configure_provider::Response::default()))
    }

    async fn validate_resource_config(
        &self,
        request: Request<validate_resource_config::Request>,
    ) -> Result<Response<validate_resource_config::Response>, Status> {
        let req = request.into_inner();
        if req.type_name == OLD_THING {
            let response = self.old_thing.validate(&req);
            return Ok(Response::new(response));
        }
        self.check_type(&req.type_name, THING)?;
        let mut diags = Diagnostics::new();
        if let Some(config) = diags.ok(
            dynamic::decode(req.config.as_ref(), &self.thing_type),
            "Invalid configuration",
        ) {
            for v in self.thing.check_config(&config) {
                diags.push(diagnostic::from_violation(&v, "Invalid configuration"));
            }
            let size = Path::root().attribute("size");
            if let Some(Value::Number(n)) = config.at_path(&size) {
                if n.is_negative() {
                    diags.push(diagnostic::error(
                        "Invalid size",
                        "size must not be negative",
                        &size,
                    ));
                }
            }
        }
        Ok(Response::new(validate_resource_config::Response {
            diagnostics: diags.into_vec(),
        }))
    }

    async fn validate_data_resource_config(
        &self,
        request: Request<validate_data_resource_config::Request>,
    ) -> Result<Response<validate_data_resource_config::Response>, Status> {
        let req = request.into_inner();
        self.check_type(&req.type_name, ECHO)?;
        let mut diags = Diagnostics::new();
        diags.ok(
            dynamic::decode_object::<Echo, _>(req.config.as_ref()),
            "Invalid configuration",
        );
        Ok(Response::new(validate_data_resource_config::Response {
            diagnostics: diags.into_vec(),
        }))
    }

    async fn upgrade_resource_state(
        &self,
        request: Request<upgrade_resource_state::Request>,
    ) -> Result<Response<upgrade_resource_state::Response>, Status> {
        let req = request.into_inner();
        if req.type_name == OLD_THING {
            let response = self.old_thing.upgrade(&req);
            return Ok(Response::new(response));
        }
        self.check_type(&req.type_name, THING)?;
        let mut diags = Diagnostics::new();
        let raw = req.raw_state.as_ref();
        // Either form of the stored state (JSON, or a legacy flatmap) is read with the
        // type of its version's schema.
        let upgraded = match req.version as u64 {
            0 => diags
                .ok(
                    raw_state::decode_object::<OldThing, _>(raw).and_then(thing::from_v0),
                    "Invalid version 0 state",
                )
                .and_then(|t| diags.ok(dynamic::encode_object(&t), "Invalid upgraded state")),
            THING_VERSION => diags
                .ok(
                    raw_state::decode_object::<Option<Thing>, _>(raw),
                    "Invalid state",
                )
                .and_then(|t| diags.ok(dynamic::encode_object(&t), "Invalid state")),
            other => {
                diags.push(diagnostic::error(
                    "Unsupported state version",
                    format!(
                        "demo_thing upgrades states of versions 0 and {THING_VERSION}, not {other}"
                    ),
                    &Path::root(),
                ));
                None
            }
        };
        let response = upgrade_resource_state::Response {
            upgraded_state: upgraded,
            diagnostics: diags.into_vec(),
        };
        Ok(Response::new(response))
    }

    async fn read_resource(
        &self,
        request: Request<read_resource::Request>,
    ) -> Result<Response<read_resource::Response>, Status> {
        let req = request.into_inner();
        if req.type_name == OLD_THING {
            let response = self.old_thing.read(&req);
            return Ok(Response::new(response));
        }
        self.check_type(&req.type_name, THING)?;
        // The thing lives in the state: reading it finds it as it is.
        let mut diags = Diagnostics::new();
        let mut current: Option<Option<Thing>> = diags.ok(
            dynamic::decode_object(req.current_state.as_ref()),
            "Invalid state",
        );
        if self.misbehaviour == Some(Misbehaviour::ReadLeavesUnknown) {
            current = current.flatten().map(|thing| {
                Some(Thing {
                    id: Known::unknown(),
                    ..thing
                })
            });
        }
        let new_state = current
            .as_ref()
            .and_then(|t| diags.ok(dynamic::encode_object(t), "Invalid state"));
        let new_identity = current.as_ref().and_then(|t| {
            let id = t.as_ref().and_then(Thing::known_id);
            diags.ok(Self::identity(id), "Invalid identity").flatten()
        });
        let response = read_resource::Response {
            new_state,
            new_identity,
            diagnostics: diags.into_vec(),
            private: req.private,
            ..Default::default()
        };
        Ok(Response::new(response))
    }

    async fn plan_resource_change(
        &self,
        request: Request<plan_resource_change::Request>,
    ) -> Result<Response<plan_resource_change::Response>, Status> {
        let req = request.into_inner();
        if req.type_name == OLD_THING {
            let response = self.old_thing.plan(&req);
            return Ok(Response::new(response));
        }
        self.check_type(&req.type_name, THING)?;
        let ty = &self.thing_type;
        let mut diags = Diagnostics::new();
        let mut decode = |dv: &Option<DynamicValue>, summary| {
            diags.ok(dynamic::decode(dv.as_ref(), ty), summary)
        };
        let prior = decode(&req.prior_state, "Invalid prior state");
        let config = decode(&req.config, "Invalid configuration");
        let proposed = decode(&req.proposed_new_state, "Invalid proposed new state");
        let mut response = plan_resource_change::Response {
            planned_private: req.prior_private,
            ..Default::default()
        };
        if let (Some(prior), Some(config), Some(proposed)) = (prior, config, proposed) {
            let (planned, mut replace) = thing::plan(&self.thing, &prior, &config, &proposed);
            let planned = match self.misbehaviour {
                Some(m) => diags
                    .ok(m.spoil_plan(&prior, planned), "Cannot plan")
                    .unwrap_or(Value::Null),
                None => {
                    // The provider checks its own plan as Terraform will.
                    for i in self.thing.check_plan(&prior, &config, &planned) {
                        diags.push(diagnostic::from_inconsistency(
                            &i,
                            "Provider produced invalid plan",
                        ));
                    }
                    planned
                }
            };
            if self.misbehaviour == Some(Misbehaviour::PlanReplacesNowhere) && !prior.is_null() {
                replace.push(Path::root().attribute("nmae"));
            }
            response.requires_replace = replace.iter().map(path_to_proto).collect();
            let encoded = match self.misbehaviour {
                Some(Misbehaviour::PlanWrongType) => encode_with_string_size(planned.clone(), ty),
                _ => dynamic::encode(&planned, ty),
            };
            response.planned_state = diags.ok(encoded, "Invalid plan");
            response.planned_identity = diags
                .ok(Self::identity(planned["id"].as_str()), "Invalid identity")
                .flatten();
        }
        response.diagnostics = diags.into_vec();
        Ok(Response::new(response))
    }

    async fn apply_resource_change(
        &self,
        request: Request<apply_resource_change::Request>,
    ) -> Result<Response<apply_resource_change::Response>, Status> {
        let req = request.into_inner();
        if req.type_name == OLD_THING {
            let response = self.old_thing.apply(&req);
            return Ok(Response::new(response));
        }
        self.check_type(&req.type_name, THING)?;
        if let Some(mark) = &self.slow_apply {
            std::fs::write(mark, b"applying\n").map_err(|e| {
                Status::internal(format!("DEMO_SLOW_APPLY {}: {e}", mark.display()))
            })?;
            tokio::time::sleep(SLOW_APPLY).await;
        }
        let ty = &self.thing_type;
        let mut diags = Diagnostics::new();
        let mut response = apply_resource_change::Response {
            private: req.planned_private.clone(),
            ..Default::default()
        };
        let planned: Option<Option<Thing>> = diags.ok(
            dynamic::decode_object(req.planned_state.as_ref()),
            "Invalid planned state",
        );
        match planned {
            None => {}
            Some(None) if self.misbehaviour == Some(Misbehaviour::DestroyReturnsObject) => {
                response.new_state = req.prior_state.clone();
            }
            // Destroy: the thing goes with its state.
            Some(None) => {
                response.new_state = Some(dynamic::encode_object(&None::<Thing>).map_err(internal)?)
            }
            Some(Some(planned)) => {
                let new = match self.misbehaviour {
                    Some(m) => m.apply(planned),
                    None => Some(planned.applied()),
                };
                let encoded = match self.misbehaviour {
                    Some(m) => m.spoil_apply(&new, ty),
                    None => self.checked(req.planned_state.as_ref(), &new, &mut diags),
                };
                response.new_state = diags.ok(encoded, "Invalid new state");
                let id = new.as_ref().and_then(Thing::known_id);
                response.new_identity = diags.ok(Self::identity(id), "Invalid identity").flatten();
            }
        }
        response.diagnostics = diags.into_vec();
        Ok(Response::new(response))
    }

    async fn import_resource_state(
        &self,
        request: Request<import_resource_state::Request>,
    ) -> Result<Response<import_resource_state::Response>, Status> {
        let req = request.into_inner();
        self.check_type(&req.type_name, THING)?;
        let mut diags = Diagnostics::new();
        let mut response = import_resource_state::Response::default();
        let imported = diags
            .ok(Self::import_id(&req), "Cannot import")
            .and_then(|id| diags.ok(thing::imported(&id), "Cannot import"));
        if let Some(thing) = imported {
            let identity = diags
                .ok(Self::identity(thing.known_id()), "Invalid identity")
                .flatten();
            let encoded = diags.ok(dynamic::encode_object(&thing), "Invalid state");
            response
                .imported_resources
                .push(import_resource_state::ImportedResource {
                    type_name: THING.into(),
                    state: encoded,
                    identity,
                    ..Default::default()
                });
        }
        response.diagnostics = diags.into_vec();
        Ok(Response::new(response))
    }

    async fn read_data_source(
        &self,
        request: Request<read_data_source::Request>,
    ) -> Result<Response<read_data_source::Response>, Status> {
        let req = request.into_inner();
        self.check_type(&req.type_name, ECHO)?;
        let mut diags = Diagnostics::new();
        let echo: Option<Echo> = diags.ok(
            dynamic::decode_object(req.config.as_ref()),
            "Invalid configuration",
        );
        let state = echo.and_then(|e| {
            let echoed = Echo {
                result: e.value.clone(),
                value: e.value,
            };
            diags.ok(dynamic::encode_object(&echoed), "Invalid state")
        });
        let response = read_data_source::Response {
            state,
            diagnostics: diags.into_vec(),
            ..Default::default()
        };
        Ok(Response::new(response))
    }

    async fn get_functions(
        &self,
        _request: Request<get_functions::Request>,
    ) -> Result<Response<get_functions::Response>, Status> {
        Ok(Response::new(get_functions::Response {
            functions: self
                .schemas
                .functions
                .iter()
                .map(|(name, f)| (name.clone(), function_to_proto(f)))
                .collect(),
            diagnostics: Vec::new(),
        }))
    }

    async fn call_function(
        &self,
        request: Request<call_function::Request>,
    ) -> Result<Response<call_function::Response>, Status> {
        let req = request.into_inner();
        if req.name != CONCAT {
            return Ok(Response::new(call_function::Response {
                result: None,
                error: Some(diagnostic::function_error(
                    format!("unknown function {:?}", req.name),
                    None,
                )),
            }));
        }
        let response = match crate::concat::call(&self.schemas.functions[CONCAT], &req.arguments) {
            Ok(result) => call_function::Response {
                result: Some(dynamic::encode(&result, &Type::String).map_err(internal)?),
                error: None,
            },
            Err((argument, e)) => call_function::Response {
                result: None,
                error: Some(diagnostic::function_error(e.to_string(), argument)),
            },
        };
        Ok(Response::new(response))
    }

    /// A `moved` block from a `demo_old_thing` of this provider to a `demo_thing`: the
    /// old object's state (JSON typed by `demo_old_thing`'s schema) as a thing's.
    async fn move_resource_state(
        &self,
        request: Request<move_resource_state::Request>,
    ) -> Result<Response<move_resource_state::Response>, Status> {
        let req = request.into_inner();
        self.check_type(&req.target_type_name, THING)?;
        let mut diags = Diagnostics::new();
        let mut response = move_resource_state::Response {
            target_private: req.source_private.clone(),
            ..Default::default()
        };
        if req.source_type_name != OLD_THING
            || req.source_provider_address != crate::ADDRESS
            || req.source_schema_version != 0
        {
            diags.push(diagnostic::error(
                "Unsupported move",
                format!(
                    "{THING} takes objects of {OLD_THING} (schema version 0) of {}, not of {} (version {}) of {}",
                    crate::ADDRESS,
                    req.source_type_name,
                    req.source_schema_version,
                    req.source_provider_address
                ),
                &Path::root(),
            ));
        } else {
            let moved = diags.ok(
                raw_state::decode_object::<OldThing, _>(req.source_state.as_ref())
                    .and_then(thing::from_v0),
                "Invalid source state",
            );
            if let Some(thing) = moved {
                response.target_identity = diags
                    .ok(Self::identity(thing.known_id()), "Invalid identity")
                    .flatten();
                response.target_state = diags.ok(dynamic::encode_object(&thing), "Invalid state");
            }
        }
        response.diagnostics = diags.into_vec();
        Ok(Response::new(response))
    }

    async fn stop_provider(
        &self,
        _request: Request<stop_provider::Request>,
    ) -> Result<Response<stop_provider::Response>, Status> {
        Ok(Response::new(stop_provider::Response::default()))
    }
}

/// What the provider can do beyond the calls every provider answers: move objects of
/// another resource type into its own (`moved` across types).
fn server_capabilities() -> ServerCapabilities {
    ServerCapabilities {
        move_resource_state: true,
        ..Default::default()
    }
}

fn internal(e: Error) -> Status {
    Status::internal(e.to_string())
}

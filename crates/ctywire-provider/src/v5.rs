//! Protocol 5: the same provider, each call's message recoded to protocol 6's (the two
//! have the same fields, by number, for every call it answers) and answered by the
//! protocol-6 service. The schemas, which differ, are made for protocol 5 directly. Served only when protocol 5 can express every schema (no nested
//! attributes).

use ctywire_tfplugin::tfplugin5 as pb5;
use ctywire_tfplugin::tfplugin5::provider_server::Provider as Service5;
use ctywire_tfplugin::tfplugin6 as pb6;
use ctywire_tfplugin::tfplugin6::provider_server::Provider as Service6;
use prost::Message;
use tonic::{Request, Response, Status};

use crate::{Provider, Server};

/// The provider, served on protocol 5.
pub(crate) struct V5<P: Provider>(pub(crate) Server<P>);

/// A message as the other protocol's message with the same field numbers.
fn recode<A: Message, B: Message + Default>(message: &A) -> Result<B, Status> {
    B::decode(message.encode_to_vec().as_slice())
        .map_err(|e| Status::internal(format!("recoding between protocols 5 and 6: {e}")))
}

type Answer<T> = Result<Response<T>, Status>;

/// Every call whose two protocols' messages have the same fields: recoded both ways.
macro_rules! recoded {
    ($($v5:ident($m5:ident) => $v6:ident($m6:ident);)*) => {
        #[tonic::async_trait]
        impl<P: Provider> Service5 for V5<P> {
            $(
                async fn $v5(&self, request: Request<pb5::$m5::Request>) -> Answer<pb5::$m5::Response> {
                    let request: pb6::$m6::Request = recode(request.get_ref())?;
                    let response = Service6::$v6(&self.0, Request::new(request)).await?;
                    Ok(Response::new(recode(response.get_ref())?))
                }
            )*

            async fn get_schema(
                &self,
                request: Request<pb5::get_provider_schema::Request>,
            ) -> Answer<pb5::get_provider_schema::Response> {
                let _ = request;
                let mut response = ctywire_tfplugin::v5::provider_schema_response(self.0.schemas())
                    .map_err(|e| Status::internal(format!("the schema needs protocol 6: {e}")))?;
                response.server_capabilities = Some(recode(&self.0.capabilities())?);
                Ok(Response::new(response))
            }

            async fn get_metadata(
                &self,
                request: Request<pb5::get_metadata::Request>,
            ) -> Answer<pb5::get_metadata::Response> {
                let request: pb6::get_metadata::Request = recode(request.get_ref())?;
                let response = Service6::get_metadata(&self.0, Request::new(request)).await?.into_inner();
                let actions = response
                    .actions
                    .iter()
                    .map(|a| pb5::get_metadata::ActionMetadata { type_name: a.type_name.clone() })
                    .collect();
                // Field 8 is state stores in protocol 6 (never filled) and actions in 5.
                let response = pb6::get_metadata::Response {
                    actions: Vec::new(),
                    state_stores: Vec::new(),
                    ..response
                };
                let response: pb5::get_metadata::Response = recode(&response)?;
                Ok(Response::new(pb5::get_metadata::Response { actions, ..response }))
            }

            async fn invoke_action(
                &self,
                request: Request<pb5::invoke_action::Request>,
            ) -> Answer<tonic::codegen::BoxStream<pb5::invoke_action::Event>> {
                use tokio_stream::StreamExt;
                let request: pb6::invoke_action::Request = recode(request.get_ref())?;
                let events = Service6::invoke_action(&self.0, Request::new(request))
                    .await?
                    .into_inner()
                    .map(|event| event.and_then(|event| recode::<_, pb5::invoke_action::Event>(&event)));
                Ok(Response::new(Box::pin(events)))
            }

            async fn list_resource(
                &self,
                request: Request<pb5::list_resource::Request>,
            ) -> Answer<tonic::codegen::BoxStream<pb5::list_resource::Event>> {
                use tokio_stream::StreamExt;
                let request: pb6::list_resource::Request = recode(request.get_ref())?;
                let events = Service6::list_resource(&self.0, Request::new(request))
                    .await?
                    .into_inner()
                    .map(|event| event.and_then(|event| recode::<_, pb5::list_resource::Event>(&event)));
                Ok(Response::new(Box::pin(events)))
            }

            async fn prepare_provider_config(
                &self,
                request: Request<pb5::prepare_provider_config::Request>,
            ) -> Answer<pb5::prepare_provider_config::Response> {
                let config = request.get_ref().config.clone();
                let request: pb6::validate_provider_config::Request = recode(request.get_ref())?;
                let response = Service6::validate_provider_config(&self.0, Request::new(request)).await?;
                let response: pb5::prepare_provider_config::Response = recode(response.get_ref())?;
                // Protocol 5 returns the configuration, as it is here.
                Ok(Response::new(pb5::prepare_provider_config::Response {
                    prepared_config: config,
                    ..response
                }))
            }
        }
    };
}

// GetMetadata's messages differ in their fields for actions and state stores: it is
// answered by hand.
recoded! {
    validate_resource_type_config(validate_resource_type_config) => validate_resource_config(validate_resource_config);
    validate_data_source_config(validate_data_source_config) => validate_data_resource_config(validate_data_resource_config);
    upgrade_resource_state(upgrade_resource_state) => upgrade_resource_state(upgrade_resource_state);
    get_resource_identity_schemas(get_resource_identity_schemas) => get_resource_identity_schemas(get_resource_identity_schemas);
    upgrade_resource_identity(upgrade_resource_identity) => upgrade_resource_identity(upgrade_resource_identity);
    configure(configure) => configure_provider(configure_provider);
    read_resource(read_resource) => read_resource(read_resource);
    plan_resource_change(plan_resource_change) => plan_resource_change(plan_resource_change);
    apply_resource_change(apply_resource_change) => apply_resource_change(apply_resource_change);
    import_resource_state(import_resource_state) => import_resource_state(import_resource_state);
    move_resource_state(move_resource_state) => move_resource_state(move_resource_state);
    read_data_source(read_data_source) => read_data_source(read_data_source);
    generate_resource_config(generate_resource_config) => generate_resource_config(generate_resource_config);
    validate_ephemeral_resource_config(validate_ephemeral_resource_config) => validate_ephemeral_resource_config(validate_ephemeral_resource_config);
    open_ephemeral_resource(open_ephemeral_resource) => open_ephemeral_resource(open_ephemeral_resource);
    renew_ephemeral_resource(renew_ephemeral_resource) => renew_ephemeral_resource(renew_ephemeral_resource);
    close_ephemeral_resource(close_ephemeral_resource) => close_ephemeral_resource(close_ephemeral_resource);
    validate_list_resource_config(validate_list_resource_config) => validate_list_resource_config(validate_list_resource_config);
    get_functions(get_functions) => get_functions(get_functions);
    call_function(call_function) => call_function(call_function);
    plan_action(plan_action) => plan_action(plan_action);
    validate_action_config(validate_action_config) => validate_action_config(validate_action_config);
    stop(stop) => stop_provider(stop_provider);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Context, Function, FunctionError, Resource, Result};
    use ctywire::object::Object;
    use ctywire::{msgpack, Known, Value};
    use ctywire_tfplugin::dynamic;

    #[derive(ctywire::Object)]
    struct Config {
        #[cty(optional)]
        prefix: Option<String>,
    }

    struct P;

    impl Provider for P {
        const TYPE_NAME: &'static str = "p";
        type Config = Config;
        type Data = String;
        async fn configure(&self, config: Config) -> Result<String> {
            Ok(config.prefix.unwrap_or_default())
        }
    }

    #[derive(ctywire::Object)]
    struct Thing {
        #[cty(required, requires_replace)]
        name: String,
        #[cty(computed, use_state_for_unknown)]
        id: Known<String>,
    }

    struct Things;

    impl Resource<String> for Things {
        const NAME: &'static str = "thing";
        type State = Thing;
        async fn create(&self, ctx: &Context<String>, mut t: Thing) -> Result<Thing> {
            t.id = Known::Known(format!("{}{}", ctx.data(), t.name));
            Ok(t)
        }
        async fn update(&self, _: &Context<String>, _: Thing, t: Thing) -> Result<Thing> {
            Ok(t)
        }
        async fn delete(&self, _: &Context<String>, _: Thing) -> Result<()> {
            Ok(())
        }
    }

    struct Upper;

    impl Function for Upper {
        const NAME: &'static str = "upper";
        const PARAMETERS: &'static [&'static str] = &["text"];
        type Arguments = (String,);
        type Output = String;
        async fn call(&self, (text,): (String,)) -> Result<String, FunctionError> {
            Ok(text.to_uppercase())
        }
    }

    fn v5() -> V5<P> {
        V5(Server::new(P).resource(Things).function(Upper))
    }

    fn dv(value: &Value, ty: &ctywire::Type) -> pb5::DynamicValue {
        dynamic::encode(value, ty).unwrap()
    }

    #[tokio::test]
    async fn protocol_5_answers_with_the_same_provider() {
        let s = v5();
        let schema = s
            .get_schema(Request::new(pb5::get_provider_schema::Request {}))
            .await
            .unwrap()
            .into_inner();
        let thing = &schema.resource_schemas["p_thing"];
        assert_eq!(thing.block.as_ref().unwrap().attributes.len(), 2);
        assert!(schema.functions.contains_key("upper"));
        let metadata = s
            .get_metadata(Request::new(pb5::get_metadata::Request {}))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(metadata.resources[0].type_name, "p_thing");

        let config = dv(
            &Value::object([("prefix", Value::from("x-"))]),
            &Config::cty_type(),
        );
        let prepared = s
            .prepare_provider_config(Request::new(pb5::prepare_provider_config::Request {
                config: Some(config.clone()),
            }))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(prepared.prepared_config, Some(config.clone()));
        let configured = s
            .configure(Request::new(pb5::configure::Request {
                config: Some(config),
                ..Default::default()
            }))
            .await
            .unwrap()
            .into_inner();
        assert!(configured.diagnostics.is_empty());

        let ty = Thing::cty_type();
        let prior = Value::object([("name", Value::from("a")), ("id", Value::from("x-a"))]);
        let config = Value::object([("name", Value::from("b")), ("id", Value::Null)]);
        let plan = s
            .plan_resource_change(Request::new(pb5::plan_resource_change::Request {
                type_name: "p_thing".into(),
                prior_state: Some(dv(&prior, &ty)),
                proposed_new_state: Some(dv(
                    &Thing::schema_block().proposed_new(&prior, &config),
                    &ty,
                )),
                config: Some(dv(&config, &ty)),
                ..Default::default()
            }))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(plan.requires_replace.len(), 1);
        // The id is kept in this plan; Terraform plans the replacement's create with no
        // prior state, where it is unknown.
        let planned = msgpack::decode(&plan.planned_state.unwrap().msgpack, &ty).unwrap();
        assert_eq!(planned["id"].as_str(), Some("x-a"));
        let planned = Value::object([("name", Value::from("b")), ("id", Value::unknown())]);

        let applied = s
            .apply_resource_change(Request::new(pb5::apply_resource_change::Request {
                type_name: "p_thing".into(),
                prior_state: Some(dv(&Value::Null, &ty)),
                planned_state: Some(dv(&planned, &ty)),
                config: Some(dv(&config, &ty)),
                ..Default::default()
            }))
            .await
            .unwrap()
            .into_inner();
        assert!(applied.diagnostics.is_empty(), "{:?}", applied.diagnostics);
        let new = msgpack::decode(&applied.new_state.unwrap().msgpack, &ty).unwrap();
        assert_eq!(new["id"].as_str(), Some("x-b"));

        // A diagnostic keeps its path through the recoding.
        let unknown = s
            .read_resource(Request::new(pb5::read_resource::Request {
                type_name: "p_nope".into(),
                ..Default::default()
            }))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(unknown.diagnostics[0].summary, "Unknown resource type");

        let called = s
            .call_function(Request::new(pb5::call_function::Request {
                name: "upper".into(),
                arguments: vec![dv(&Value::from("ab"), &ctywire::Type::String)],
            }))
            .await
            .unwrap()
            .into_inner();
        let result: String = dynamic::decode_object(called.result.as_ref()).unwrap();
        assert_eq!(result, "AB");
    }

    #[derive(ctywire::Object)]
    struct Nested {
        #[cty(nested, optional)]
        inner: Option<Config>,
    }

    struct Nests;

    impl Resource<String> for Nests {
        const NAME: &'static str = "nest";
        type State = Nested;
        async fn create(&self, _: &Context<String>, n: Nested) -> Result<Nested> {
            Ok(n)
        }
        async fn update(&self, _: &Context<String>, _: Nested, n: Nested) -> Result<Nested> {
            Ok(n)
        }
        async fn delete(&self, _: &Context<String>, _: Nested) -> Result<()> {
            Ok(())
        }
    }

    #[test]
    fn protocol_5_only_where_it_can_express_the_schemas() {
        assert_eq!(Server::new(P).resource(Things).plugin().versions(), [6, 5]);
        assert_eq!(Server::new(P).resource(Nests).plugin().versions(), [6]);
    }
}

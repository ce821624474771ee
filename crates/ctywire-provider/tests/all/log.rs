//! A handler's `tracing` events become go-hclog JSON lines with the request's context
//! (the type and the operation), at their level.

use std::sync::{Arc, Mutex};

use ctywire::object::Object;
use ctywire::{Known, Value};
use ctywire_provider::log::Hclog;
use ctywire_provider::{Context, Provider, Resource, Result, Server};
use ctywire_tfplugin::dynamic;
use ctywire_tfplugin::tfplugin6::provider_server::Provider as Service;
use ctywire_tfplugin::tfplugin6::*;
use tonic::Request;

#[derive(ctywire::Object)]
struct Config {}

struct Test;

impl Provider for Test {
    const TYPE_NAME: &'static str = "test";
    type Config = Config;
    type Data = ();
    async fn configure(&self, _: Config) -> Result<()> {
        tracing::info!("configured");
        Ok(())
    }
}

#[derive(ctywire::Object)]
struct Thing {
    #[cty(required)]
    name: String,
    #[cty(computed)]
    id: Known<String>,
}

struct Things;

impl Resource<()> for Things {
    const NAME: &'static str = "thing";
    type State = Thing;
    async fn create(&self, _: &Context<()>, mut thing: Thing) -> Result<Thing> {
        tracing::debug!(name = %thing.name, attempt = 1u64, "creating");
        tracing::trace!("too fine to be written");
        thing.id = Known::Known("1".into());
        Ok(thing)
    }
    async fn update(&self, _: &Context<()>, _: Thing, planned: Thing) -> Result<Thing> {
        Ok(planned)
    }
    async fn delete(&self, _: &Context<()>, _: Thing) -> Result<()> {
        Ok(())
    }
}

// A current-thread runtime: the handler's task runs on the thread the subscriber is
// set for.
#[tokio::test(flavor = "current_thread")]
async fn handler_events_are_hclog_lines_with_the_requests_context() {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let _guard = tracing::subscriber::set_default(
        Hclog::new(tracing::Level::DEBUG).writer(Arc::clone(&lines)),
    );
    let s = Server::new(Test).resource(Things);
    let config = dynamic::encode(
        &Value::object(std::iter::empty::<(&str, Value)>()),
        &Config::cty_type(),
    )
    .unwrap();
    s.configure_provider(Request::new(configure_provider::Request {
        config: Some(config),
        ..Default::default()
    }))
    .await
    .unwrap();
    let ty = Thing::cty_type();
    let planned = Value::object([("name", Value::from("a")), ("id", Value::unknown())]);
    let r = s
        .apply_resource_change(Request::new(apply_resource_change::Request {
            type_name: "test_thing".into(),
            prior_state: Some(dynamic::encode(&Value::Null, &ty).unwrap()),
            planned_state: Some(dynamic::encode(&planned, &ty).unwrap()),
            config: Some(dynamic::encode(&planned, &ty).unwrap()),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert!(r.diagnostics.is_empty());
    let written = String::from_utf8(lines.lock().unwrap().clone()).unwrap();
    let lines: Vec<serde_json::Value> = written
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{written}");
    assert_eq!(lines[0]["@message"], "configured");
    assert_eq!(lines[0]["@level"], "info");
    assert_eq!(lines[0]["tf_type_name"], "test");
    assert_eq!(lines[0]["tf_operation"], "configure");
    assert_eq!(lines[1]["@message"], "creating");
    assert_eq!(lines[1]["@level"], "debug");
    assert_eq!(lines[1]["tf_type_name"], "test_thing");
    assert_eq!(lines[1]["tf_operation"], "create");
    assert_eq!(lines[1]["name"], "a");
    assert_eq!(lines[1]["attempt"], 1);
}

//! A handler's `tracing` events become go-hclog JSON lines with the request's context
//! (the type and the operation), at their level.

use std::sync::{Arc, Mutex};

use ctywire::{Known, Value};
use ctywire_provider::log::Hclog;
use ctywire_provider::{Context, Provider, Resource, Result, Server};

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
    crate::common::configure(&s, &crate::common::empty()).await;
    let planned = Value::object([("name", Value::from("a")), ("id", Value::unknown())]);
    let r = crate::common::apply::<Thing>(&s, "test_thing", &Value::Null, &planned, &[]).await;
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

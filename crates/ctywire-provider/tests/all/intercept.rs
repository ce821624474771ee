//! The lower-level hook (`Intercept`): it sees each call's raw request before the
//! framework and the raw response after, changes them past the framework's own checks,
//! and refuses calls; a server without one answers as before.

use std::any::Any;
use std::sync::Mutex;

use crate::common::{Thing, Things};
use ctywire::object::Object;
use ctywire::Value;
use ctywire_provider::{Intercept, Intercepted, Result, Server};
use ctywire_tfplugin::dynamic;
use ctywire_tfplugin::tfplugin6::provider_server::Provider as Service;
use ctywire_tfplugin::tfplugin6::*;
use tonic::{Code, Request, Status};

provider!(Test, "test");

/// Things whose id is `thing-` and the name.
fn things() -> Things<0> {
    Things("thing-")
}

/// Plans one more `size` than configured (an invalid plan, which the framework would
/// refuse), refuses imports, and notes every call with the configured name it saw.
#[derive(Default)]
struct Spoil {
    seen: Mutex<Vec<String>>,
}

impl Intercept for Spoil {
    async fn request(
        &self,
        rpc: &'static str,
        request: &mut (dyn Any + Send),
    ) -> Result<(), Status> {
        self.seen.lock().unwrap().push(rpc.to_owned());
        if request.is::<import_resource_state::Request>() {
            return Err(Status::failed_precondition("no imports here"));
        }
        Ok(())
    }

    fn response(&self, rpc: &'static str, request: &dyn Any, response: &mut dyn Any) {
        let (Some(req), Some(plan)) = (
            request.downcast_ref::<plan_resource_change::Request>(),
            response.downcast_mut::<plan_resource_change::Response>(),
        ) else {
            return;
        };
        assert_eq!(rpc, "plan_resource_change");
        let config = dynamic::decode(req.config.as_ref(), &Thing::cty_type()).unwrap();
        let size = config["size"].as_i64().unwrap() + 1;
        let planned = dynamic::decode(plan.planned_state.as_ref(), &Thing::cty_type()).unwrap();
        let planned = planned.with_attribute("size", Value::from(size)).unwrap();
        plan.planned_state = Some(dynamic::encode(&planned, &Thing::cty_type()).unwrap());
    }
}

fn config() -> DynamicValue {
    let config = Value::object([
        ("name", Value::from("a")),
        ("size", Value::from(2)),
        ("id", Value::Null),
    ]);
    dynamic::encode(&config, &Thing::cty_type()).unwrap()
}

async fn plan<S: Service>(s: &S, config: DynamicValue) -> plan_resource_change::Response {
    let ty = Thing::cty_type();
    let proposed = dynamic::decode(Some(&config), &ty)
        .unwrap()
        .with_attribute("id", Value::unknown())
        .unwrap();
    crate::common::configure_service::<crate::common::NoConfig>(s, &crate::common::empty()).await;
    s.plan_resource_change(Request::new(plan_resource_change::Request {
        type_name: "test_thing".into(),
        prior_state: Some(dynamic::encode(&Value::Null, &ty).unwrap()),
        proposed_new_state: Some(dynamic::encode(&proposed, &ty).unwrap()),
        config: Some(config),
        ..Default::default()
    }))
    .await
    .unwrap()
    .into_inner()
}

fn planned_size(response: &plan_resource_change::Response) -> Value {
    let planned = dynamic::decode(response.planned_state.as_ref(), &Thing::cty_type()).unwrap();
    planned["size"].clone()
}

#[tokio::test]
async fn the_hook_changes_a_response_past_the_framework() {
    // The framework alone plans the configured size.
    let alone = plan(&Server::new(Test).resource(things()), config()).await;
    assert!(alone.diagnostics.is_empty(), "{:?}", alone.diagnostics);
    assert_eq!(planned_size(&alone), Value::from(2));

    // Through the hook, the plan Terraform gets is the spoiled one, unchecked.
    let hooked = Intercepted::new(Server::new(Test).resource(things()), Spoil::default());
    let spoiled = plan(&hooked, config()).await;
    assert!(spoiled.diagnostics.is_empty(), "{:?}", spoiled.diagnostics);
    assert_eq!(planned_size(&spoiled), Value::from(3));
    assert_eq!(
        *hooked_calls(&hooked),
        ["configure_provider", "plan_resource_change"]
    );
}

fn hooked_calls(s: &Intercepted<Test, Spoil>) -> std::sync::MutexGuard<'_, Vec<String>> {
    s.hook().seen.lock().unwrap()
}

#[tokio::test]
async fn the_hook_refuses_a_call_and_passes_the_others() {
    let hooked = Intercepted::new(Server::new(Test).resource(things()), Spoil::default());
    let refused = hooked
        .import_resource_state(Request::new(import_resource_state::Request {
            type_name: "test_thing".into(),
            id: "thing-a".into(),
            ..Default::default()
        }))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(refused.message(), "no imports here");

    // A call the hook leaves alone is the framework's answer.
    let schema = hooked
        .get_provider_schema(Request::new(get_provider_schema::Request {}))
        .await
        .unwrap()
        .into_inner();
    assert!(schema.resource_schemas.contains_key("test_thing"));
    assert_eq!(
        *hooked_calls(&hooked),
        ["import_resource_state", "get_provider_schema"]
    );
}

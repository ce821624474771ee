//! A destroy's plan under real Terraform (acceptance test: `TF_ACC=1`): the framework
//! advertises `plan_destroy`, so Terraform sends PlanResourceChange for a destroy; its
//! request, recorded through `Intercept`, has a null proposed new state and
//! configuration and the applied state as prior. Terraform does not run ProposedNew
//! for a destroy: the library's `Block::proposed_new` (objchange's rule) gives the
//! prior back for a null configuration, so `ctywire proposed-new` answers a destroy
//! with null, as Terraform sends.

use std::any::Any;
use std::sync::{Arc, Mutex};

use crate::common::{Thing, Things};
use ctywire::object::Object;
use ctywire::Value;
use ctywire_provider::{Intercept, Intercepted, Server};
use ctywire_testing::{Step, Test};
use ctywire_tfplugin::dynamic;
use ctywire_tfplugin::tfplugin6::*;

provider!(Gone, "gone");

/// Every plan request Terraform sent and every new state the provider applied.
#[derive(Clone, Default)]
struct Record {
    plans: Arc<Mutex<Vec<plan_resource_change::Request>>>,
    applied: Arc<Mutex<Vec<Value>>>,
}

impl Intercept for Record {
    fn response(&self, _: &'static str, request: &dyn Any, response: &mut dyn Any) {
        if let Some(req) = request.downcast_ref::<plan_resource_change::Request>() {
            self.plans.lock().unwrap().push(req.clone());
        }
        if let Some(r) = response.downcast_mut::<apply_resource_change::Response>() {
            let state = dynamic::decode(r.new_state.as_ref(), &Thing::cty_type()).unwrap();
            self.applied.lock().unwrap().push(state);
        }
    }
}

#[test]
fn terraform_sends_a_destroy_plan_with_null_proposed_and_config() {
    let record = Record::default();
    let hook = record.clone();
    let check = record.clone();
    Test::new("example.com/ctywire/gone", move || {
        Intercepted::new(Server::new(Gone).resource(Things::<0>("thing-")), hook).plugin()
    })
    .step(Step::config(
        "resource \"gone_thing\" \"x\" {\n  name = \"a\"\n  size = 3\n}\n",
    ))
    .check_destroy(move |_| {
        let ty = Thing::cty_type();
        let decode = |v: &Option<DynamicValue>| dynamic::decode(v.as_ref(), &ty).unwrap();
        let plans = check.plans.lock().unwrap();
        let destroy = plans
            .iter()
            .find(|p| decode(&p.config).is_null())
            .ok_or("Terraform sent no destroy plan")?;
        let applied = check.applied.lock().unwrap();
        let created = applied
            .iter()
            .find(|v| !v.is_null())
            .ok_or("nothing applied")?;
        let prior = decode(&destroy.prior_state);
        let proposed = decode(&destroy.proposed_new_state);
        if &prior != created || !proposed.is_null() {
            return Err(format!(
                "destroy plan: prior {prior:?}, proposed {proposed:?}"
            ));
        }
        // objchange's ProposedNew of a null configuration is the prior, not what
        // Terraform sends: the null is the destroy's own rule.
        let objchange = Thing::schema_block().proposed_new(&prior, &Value::Null);
        if objchange != prior {
            return Err(format!(
                "ProposedNew of a null configuration: {objchange:?}"
            ));
        }
        Ok(())
    })
    .run();
}

//! A handler's `tracing` events become go-hclog JSON lines with the request's context
//! (the type and the operation), at their level.

use std::sync::{Arc, Mutex};

use ctywire::Value;
use ctywire_provider::log::Hclog;
use ctywire_provider::Server;

use crate::logged::{Rt, Thing, Things};

// A current-thread runtime: the handler's task runs on the thread the subscriber is
// set for.
#[tokio::test(flavor = "current_thread")]
async fn handler_events_are_hclog_lines_with_the_requests_context() {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let _guard = tracing::subscriber::set_default(
        Hclog::new(tracing::Level::DEBUG).writer(Arc::clone(&lines)),
    );
    let s = Server::new(Rt).resource(Things);
    crate::common::configure(&s, &crate::common::empty()).await;
    let planned = Value::object([("name", Value::from("a")), ("id", Value::unknown())]);
    let r = crate::common::apply::<Thing>(&s, "rt_thing", &Value::Null, &planned, &[]).await;
    assert!(r.diagnostics.is_empty());
    let written = String::from_utf8(lines.lock().unwrap().clone()).unwrap();
    let lines: Vec<serde_json::Value> = written
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{written}");
    assert_eq!(lines[0]["@message"], "configured");
    assert_eq!(lines[0]["@level"], "info");
    assert_eq!(lines[0]["tf_type_name"], "rt");
    assert_eq!(lines[0]["tf_operation"], "configure");
    assert_eq!(lines[1]["@message"], "creating the thing");
    assert_eq!(lines[1]["@level"], "debug");
    assert_eq!(lines[1]["tf_type_name"], "rt_thing");
    assert_eq!(lines[1]["tf_operation"], "create");
    assert_eq!(lines[1]["name"], "a");
    assert_eq!(lines[1]["attempt"], 3);
}

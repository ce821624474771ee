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
    every_thread_asks();
    let _guard = tracing::subscriber::set_default(
        Hclog::new(tracing::Level::DEBUG).writer(Arc::clone(&lines)),
    );
    // Callsites that another test's thread reached first, with no subscriber, were
    // cached as of no interest to anyone: ask again, now that this thread has one.
    tracing::callsite::rebuild_interest_cache();
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

/// tracing caches whether anyone wants a callsite's events, process-wide, from the first
/// thread to reach it. The other tests of this binary run the same handlers on threads
/// without a subscriber, and without a global one that cache says "never", so this
/// test's spans could come out empty when another test reached them first. A global
/// subscriber that wants nothing itself but answers "ask each time" leaves the choice to
/// each thread's own subscriber.
fn every_thread_asks() {
    struct AskEachTime;
    impl tracing::Subscriber for AskEachTime {
        fn register_callsite(
            &self,
            _: &'static tracing::Metadata<'static>,
        ) -> tracing::subscriber::Interest {
            tracing::subscriber::Interest::sometimes()
        }
        fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
            false
        }
        fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
            tracing::span::Id::from_u64(1)
        }
        fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
        fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
        fn event(&self, _: &tracing::Event<'_>) {}
        fn enter(&self, _: &tracing::span::Id) {}
        fn exit(&self, _: &tracing::span::Id) {}
    }
    static SET: std::sync::Once = std::sync::Once::new();
    SET.call_once(|| {
        tracing::subscriber::set_global_default(AskEachTime)
            .expect("no other global subscriber in this test binary");
    });
}

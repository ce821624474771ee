//! Timeouts by declaration: a resource's `timeouts` block bounds its operations, with
//! the resource's defaults; an overrun cancels the handler's context and is an error
//! naming the operation and the duration, and what the handler returns is kept.

use std::time::Duration;

use crate::common::texts;
use ctywire::object::Object;
use ctywire::{Known, Value};
use ctywire_provider::timeouts::{Defaults, Timeouts};
use ctywire_provider::{Context, Resource, Result, Server};
use ctywire_tfplugin::dynamic;
use ctywire_tfplugin::tfplugin6::*;

provider!(Test, "test");

#[derive(ctywire::Object, Debug)]
struct Nap {
    #[cty(required)]
    name: String,
    #[cty(computed)]
    id: Known<String>,
    #[cty(block)]
    timeouts: Option<Timeouts>,
}

/// Sleeps for an hour unless its context is cancelled; then says so in `id`.
struct Naps;

impl Resource<()> for Naps {
    const NAME: &'static str = "nap";
    const TIMEOUTS: Defaults = Defaults::NONE.create(Duration::from_millis(50));
    type State = Nap;

    async fn create(&self, ctx: &Context<()>, mut nap: Nap) -> Result<Nap> {
        tokio::select! {
            () = tokio::time::sleep(Duration::from_secs(3600)) => nap.id = Known::Known("slept".into()),
            () = ctx.cancelled() => nap.id = Known::Known("woken".into()),
        }
        Ok(nap)
    }

    async fn update(&self, _: &Context<()>, _: Nap, planned: Nap) -> Result<Nap> {
        Ok(planned)
    }

    async fn delete(&self, _: &Context<()>, _: Nap) -> Result<()> {
        Ok(())
    }
}

async fn configured() -> Server<Test> {
    let s = Server::new(Test).resource(Naps);
    crate::common::configure(&s, &crate::common::empty()).await;
    s
}

fn nap(create: Option<&str>) -> Value {
    let timeouts = match create {
        None => Value::Null,
        Some(c) => Value::object([
            ("create", Value::from(c)),
            ("read", Value::Null),
            ("update", Value::Null),
            ("delete", Value::Null),
        ]),
    };
    Value::object([
        ("name", Value::from("n")),
        ("id", Value::unknown()),
        ("timeouts", timeouts),
    ])
}

async fn create(s: &Server<Test>, planned: &Value) -> apply_resource_change::Response {
    crate::common::apply::<Nap>(s, "test_nap", &Value::Null, planned, &[]).await
}

#[tokio::test]
async fn the_default_limit_cancels_the_handler_and_keeps_what_it_returns() {
    let s = configured().await;
    let r = tokio::time::timeout(Duration::from_secs(10), create(&s, &nap(None)))
        .await
        .expect("the deadline ended the nap");
    assert_eq!(
        texts(&r.diagnostics),
        ["error: Timeout in create of test_nap: create of test_nap did not finish within its time limit of 0.050s (the resource's `timeouts` block, or its default); the provider asked it to stop"]
    );
    let state = dynamic::decode(r.new_state.as_ref(), &Nap::cty_type()).unwrap();
    assert_eq!(state.get("id"), Some(&Value::from("woken")));
}

#[tokio::test]
async fn the_configurations_block_overrides_the_default() {
    let s = configured().await;
    let started = std::time::Instant::now();
    let r = create(&s, &nap(Some("1s"))).await;
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert!(
        texts(&r.diagnostics)[0].contains("within its time limit of 1s"),
        "{:?}",
        texts(&r.diagnostics)
    );
}

#[tokio::test]
async fn a_bad_duration_is_refused_at_validate_and_at_apply() {
    let s = configured().await;
    let ty = Nap::cty_type();
    let config = dynamic::encode(&nap(Some("10 minutes")), &ty).unwrap();
    let r = crate::common::validate(&s, "test_nap", Some(config)).await;
    assert_eq!(
        texts(&r.diagnostics),
        [
            r#"error.timeouts.create: Invalid timeout: "10 minutes" is not a duration (write it as "30s", "10m" or "1h30m")"#
        ]
    );
    let r = create(&s, &nap(Some("-5s"))).await;
    assert_eq!(
        texts(&r.diagnostics),
        [
            r#"error.timeouts.create: Invalid timeout: "-5s" is negative; a time limit is a positive duration"#
        ]
    );
}

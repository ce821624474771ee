//! Two of the footguns a provider author met on the raw protocol (a `tfplugin6` service
//! written by hand on ctywire-tfplugin), each shown on that path and then on the framework:
//! a handler not written answers "Unimplemented" at run time, and an upgrade that decodes
//! an old state as the current struct loses an attribute without a word.

use ctywire::object::Object;
use ctywire::{msgpack, Known, Value};
use ctywire_provider::{Context, Provider, Resource, Result, Server};
use ctywire_tfplugin::tfplugin6::diagnostic::Severity;
use ctywire_tfplugin::tfplugin6::provider_server::Provider as Service;
use ctywire_tfplugin::tfplugin6::*;
use tonic::{Code, Request};

#[derive(ctywire::Object)]
struct Config {}

struct Audit;

impl Provider for Audit {
    const TYPE_NAME: &'static str = "audit";
    type Config = Config;
    type Data = ();
    async fn configure(&self, _: Config) -> Result<()> {
        Ok(())
    }
}

/// A thing at schema version 1; version 0 called `size` `size_text`.
#[derive(ctywire::Object, Clone, Debug, PartialEq)]
struct Thing {
    #[cty(required)]
    name: String,
    #[cty(optional)]
    size: Option<u16>,
    #[cty(computed)]
    id: Known<String>,
}

/// The least an author writes: create, update, delete. No read, import or upgrade.
struct Things;

impl Resource<()> for Things {
    const NAME: &'static str = "thing";
    const VERSION: u64 = 1;
    type State = Thing;
    async fn create(&self, _: &Context<()>, mut thing: Thing) -> Result<Thing> {
        thing.id = Known::Known(format!("t-{}", thing.name));
        Ok(thing)
    }
    async fn update(&self, _: &Context<()>, _: Thing, planned: Thing) -> Result<Thing> {
        Ok(planned)
    }
    async fn delete(&self, _: &Context<()>, _: Thing) -> Result<()> {
        Ok(())
    }
}

/// The raw path: a service with the calls the author wrote (none of the three here);
/// the others are tonic's default stubs.
struct Raw;

#[tonic::async_trait]
impl Service for Raw {}

async fn configured() -> Server<Audit> {
    let s = Server::new(Audit).resource(Things);
    let r = s
        .configure_provider(Request::new(configure_provider::Request {
            config: Some(
                ctywire_tfplugin::dynamic::encode(
                    &Value::object(std::iter::empty::<(&str, Value)>()),
                    &Config::cty_type(),
                )
                .unwrap(),
            ),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    s
}

fn upgrade_request(version: i64, json: &str) -> upgrade_resource_state::Request {
    upgrade_resource_state::Request {
        type_name: "audit_thing".into(),
        version,
        raw_state: Some(RawState {
            json: json.as_bytes().to_vec(),
            ..Default::default()
        }),
    }
}

const CURRENT: &str = r#"{"name":"a","size":3,"id":"t-a"}"#;
const VERSION_0: &str = r#"{"name":"a","size_text":"7","id":"t-a"}"#;

fn state() -> Value {
    Value::object([
        ("name", Value::from("a")),
        ("size", Value::from(3)),
        ("id", Value::from("t-a")),
    ])
}

/// Every plan after a create asks UpgradeResourceState, every refresh ReadResource, and
/// `terraform import` ImportResourceState: on the raw path, not written is
/// "Unimplemented" (Terraform's "Unsupported plugin method"); the framework answers all
/// three from the declarations.
#[tokio::test]
async fn calls_not_written_are_unimplemented_raw_and_answered_by_the_framework() {
    let ty = Thing::cty_type();
    let raw = Raw
        .upgrade_resource_state(Request::new(upgrade_request(1, CURRENT)))
        .await
        .unwrap_err();
    assert_eq!(raw.code(), Code::Unimplemented, "the footgun is real");
    let raw = Raw
        .read_resource(Request::new(read_resource::Request::default()))
        .await
        .unwrap_err();
    assert_eq!(raw.code(), Code::Unimplemented);
    let raw = Raw
        .import_resource_state(Request::new(import_resource_state::Request::default()))
        .await
        .unwrap_err();
    assert_eq!(raw.code(), Code::Unimplemented);

    let s = configured().await;
    let r = s
        .upgrade_resource_state(Request::new(upgrade_request(1, CURRENT)))
        .await
        .unwrap()
        .into_inner();
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    let upgraded = msgpack::decode(&r.upgraded_state.unwrap().msgpack, &ty).unwrap();
    assert_eq!(upgraded, state());
    let r = s
        .read_resource(Request::new(read_resource::Request {
            type_name: "audit_thing".into(),
            current_state: Some(ctywire_tfplugin::dynamic::encode(&state(), &ty).unwrap()),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    let read = msgpack::decode(&r.new_state.unwrap().msgpack, &ty).unwrap();
    assert_eq!(read, state());
    let r = s
        .import_resource_state(Request::new(import_resource_state::Request {
            type_name: "audit_thing".into(),
            id: "t-a".into(),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    // An answer, not a status: the passthrough import sets `id` alone, and says that a
    // required `name` is what it cannot fill.
    assert!(r.imported_resources.is_empty(), "{r:?}");
    assert_eq!(r.diagnostics.len(), 1, "{:?}", r.diagnostics);
    assert!(
        r.diagnostics[0].detail.contains(".name cannot be null")
            && r.diagnostics[0].detail.contains("Resource::import"),
        "{:?}",
        r.diagnostics
    );
}

/// An upgrade that ignores the stored version (decoding the raw state as the current
/// struct) drops version 0's `size_text` silently; the framework, with no upgrader for
/// version 0, returns no state and an error naming both versions.
#[tokio::test]
async fn an_old_state_without_an_upgrader_is_an_error_not_a_loss() {
    let raw = upgrade_request(0, VERSION_0).raw_state;
    let naive: Thing = ctywire_tfplugin::raw_state::decode_object(raw.as_ref()).unwrap();
    assert_eq!(naive.size, None, "the footgun is real: size_text is gone");

    let s = configured().await;
    let r = s
        .upgrade_resource_state(Request::new(upgrade_request(0, VERSION_0)))
        .await
        .unwrap()
        .into_inner();
    assert!(r.upgraded_state.is_none(), "{r:?}");
    assert_eq!(r.diagnostics.len(), 1, "{:?}", r.diagnostics);
    let d = &r.diagnostics[0];
    assert_eq!(d.severity, Severity::Error as i32);
    assert!(
        d.detail.contains("schema version 0") && d.detail.contains("now at version 1"),
        "{}",
        d.detail
    );
}

/// A `u16` attribute is a `number` to Terraform, so `size = 22.5` is a well-typed
/// configuration: on the raw path it is first refused when the handler decodes it (at
/// apply, where Terraform reports a provider error); the framework refuses it at
/// validate, at `.size`.
#[tokio::test]
async fn a_fraction_for_a_u16_is_refused_at_validate_at_its_path() {
    let ty = Thing::cty_type();
    let config = Value::object([
        ("name", Value::from("a")),
        (
            "size",
            Value::Number(ctywire::Number::parse("22.5").unwrap()),
        ),
        ("id", Value::Null),
    ]);
    // Terraform sends it (the schema says `number`); only the decode refuses it.
    let sent = ctywire_tfplugin::dynamic::encode(&config, &ty).unwrap();
    assert!(ctywire::object::from_value::<Thing>(&config).is_err());

    let s = configured().await;
    let r = s
        .validate_resource_config(Request::new(validate_resource_config::Request {
            type_name: "audit_thing".into(),
            config: Some(sent),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(r.diagnostics.len(), 1, "{:?}", r.diagnostics);
    let d = &r.diagnostics[0];
    assert_eq!(d.severity, Severity::Error as i32);
    let at = ctywire_tfplugin::path::path_from_proto(d.attribute.as_ref().unwrap()).unwrap();
    assert_eq!(at, ctywire::Path::root().attribute("size"));
    assert!(d.detail.contains("found a fraction"), "{}", d.detail);
}

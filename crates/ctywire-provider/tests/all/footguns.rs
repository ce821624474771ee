//! Two of the footguns a provider author met on the raw protocol (a `tfplugin6` service
//! written by hand on ctywire-tfplugin), each shown on that path and then on the framework:
//! a handler not written answers "Unimplemented" at run time, and an upgrade that decodes
//! an old state as the current struct loses an attribute without a word.

use crate::common::{configure, empty, import, read, upgrade, upgrade_request, validate};
use crate::common::{Thing, Things};
use ctywire::object::Object;
use ctywire::{msgpack, Value};
use ctywire_provider::Server;
use ctywire_tfplugin::tfplugin6::diagnostic::Severity;
use ctywire_tfplugin::tfplugin6::provider_server::Provider as Service;
use ctywire_tfplugin::tfplugin6::*;
use tonic::{Code, Request};

provider!(Audit, "audit");

/// The least an author writes (`common::Things`: create, update, delete; no read,
/// import or upgrade) of a thing at schema version 1, whose id is `t-` and its name;
/// version 0 called `size` `size_text`.
fn things() -> Things<1> {
    Things("t-")
}

/// The raw path: a service with the calls the author wrote (none of the three here);
/// the others are tonic's default stubs.
struct Raw;

#[tonic::async_trait]
impl Service for Raw {}

async fn configured() -> Server<Audit> {
    let s = Server::new(Audit).resource(things());
    configure(&s, &empty()).await;
    s
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
        .upgrade_resource_state(Request::new(upgrade_request("audit_thing", 1, CURRENT)))
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
    let r = upgrade(&s, "audit_thing", 1, CURRENT).await;
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    let upgraded = msgpack::decode(&r.upgraded_state.unwrap().msgpack, &ty).unwrap();
    assert_eq!(upgraded, state());
    let r = read::<Thing>(&s, "audit_thing", &state(), &[]).await;
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    let read = msgpack::decode(&r.new_state.unwrap().msgpack, &ty).unwrap();
    assert_eq!(read, state());
    let r = import(&s, "audit_thing", "t-a").await;
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
    let raw = upgrade_request("audit_thing", 0, VERSION_0).raw_state;
    let naive: Thing = ctywire_tfplugin::raw_state::decode_object(raw.as_ref()).unwrap();
    assert_eq!(naive.size, None, "the footgun is real: size_text is gone");

    let s = configured().await;
    let r = upgrade(&s, "audit_thing", 0, VERSION_0).await;
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
    let r = validate(&s, "audit_thing", Some(sent)).await;
    assert_eq!(r.diagnostics.len(), 1, "{:?}", r.diagnostics);
    let d = &r.diagnostics[0];
    assert_eq!(d.severity, Severity::Error as i32);
    let at = ctywire_tfplugin::path::path_from_proto(d.attribute.as_ref().unwrap()).unwrap();
    assert_eq!(at, ctywire::Path::root().attribute("size"));
    assert!(d.detail.contains("found a fraction"), "{}", d.detail);
}

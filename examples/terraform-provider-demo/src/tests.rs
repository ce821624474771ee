//! The provider's calls, made in-process on the service as Terraform makes them.

use ctywire::object::Object;
use ctywire::schema::DescriptionKind;
use ctywire::{msgpack, Path, Type, Value};
use ctywire_tfplugin::dynamic;
use ctywire_tfplugin::path::path_from_proto;
use ctywire_tfplugin::schema::schema_from_proto;
use ctywire_tfplugin::tfplugin6::provider_server::Provider;
use ctywire_tfplugin::tfplugin6::*;
use tonic::Request;

use crate::old_thing::OldThing;
use crate::provider::Echo;
use crate::thing::{Thing, ThingIdentity};
use crate::{Hook, Misbehaviour};

/// The provider's service, as the binary serves it.
type Service = ctywire_provider::Intercepted<crate::Demo, Hook>;

/// The service through `hook`, configured as Terraform configures it first.
async fn configured(hook: Hook) -> Service {
    let service = crate::service(hook);
    let config = dynamic::encode_object(&crate::provider::ProviderConfig {}).unwrap();
    let response = service
        .configure_provider(Request::new(configure_provider::Request {
            config: Some(config),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert!(
        response.diagnostics.is_empty(),
        "{:?}",
        response.diagnostics
    );
    service
}

async fn demo() -> Service {
    configured(Hook::new(None)).await
}

/// `demo_thing`'s schema as its struct declares it, at version 1.
fn thing_schema() -> ctywire::schema::Schema {
    ctywire::schema::Schema::new(Thing::schema_block()).version(1)
}

fn thing_type() -> Type {
    Thing::cty_type()
}

/// A configuration of `demo_thing` as Terraform sends it: every attribute, null where
/// not set, blocks empty.
fn config(name: &str, disks: Vec<Value>) -> Value {
    let json = format!(
        r#"{{"name":"{name}","size":3,"tags":{{"env":"dev"}},"id":null,"secret":"s","extra":{{"value":[1,"a"],"type":["tuple",["number","string"]]}},
            "labels":["b","a"],"endpoint":{{"host":"h","port":null}},"disk":[],"network":[{{"name":"n"}}],
            "settings":null,"rule":{{"r":{{"action":"allow"}}}},"group":{{"note":null}}}}"#
    );
    let mut value = ctywire::json::decode(json.as_bytes(), &thing_type()).unwrap();
    value
        .set_at_path(&Path::root().attribute("disk"), Value::list(disks))
        .unwrap();
    value
}

fn disk(size: i64, kind: Option<&str>) -> Value {
    Value::object([
        ("kind", kind.map_or(Value::Null, Value::from)),
        ("size", Value::from(size)),
    ])
}

fn dv(value: &Value) -> Option<DynamicValue> {
    Some(dynamic::encode(value, &thing_type()).unwrap())
}

fn decode(dv: &Option<DynamicValue>) -> Value {
    dynamic::decode(dv.as_ref(), &thing_type()).unwrap()
}

/// The `id` of an identity.
fn identity_id(identity: &Option<ResourceIdentityData>) -> Value {
    let ty = ThingIdentity::cty_type();
    let data = identity.as_ref().and_then(|i| i.identity_data.as_ref());
    let value = dynamic::decode(data, &ty).unwrap();
    value
        .at_path(&Path::root().attribute("id"))
        .cloned()
        .unwrap()
}

async fn plan(demo: &Service, prior: &Value, config: &Value) -> plan_resource_change::Response {
    let block = thing_schema().block;
    let proposed = block.proposed_new(prior, config);
    demo.plan_resource_change(Request::new(plan_resource_change::Request {
        type_name: "demo_thing".into(),
        prior_state: dv(prior),
        // Terraform sends the identity the state was stored with.
        prior_identity: prior["id"].as_str().map(|id| ResourceIdentityData {
            identity_data: Some(
                dynamic::encode_object(&ThingIdentity { id: id.to_owned() }).unwrap(),
            ),
        }),
        proposed_new_state: dv(&proposed),
        config: dv(config),
        ..Default::default()
    }))
    .await
    .unwrap()
    .into_inner()
}

async fn apply(
    demo: &Service,
    prior: &Value,
    planned: &Value,
    config: &Value,
) -> apply_resource_change::Response {
    demo.apply_resource_change(Request::new(apply_resource_change::Request {
        type_name: "demo_thing".into(),
        prior_state: dv(prior),
        planned_state: dv(planned),
        config: dv(config),
        ..Default::default()
    }))
    .await
    .unwrap()
    .into_inner()
}

#[tokio::test]
async fn the_schema_served_is_the_schema_declared() {
    let response = demo()
        .await
        .get_provider_schema(Request::new(get_provider_schema::Request::default()))
        .await
        .unwrap()
        .into_inner();
    let thing = schema_from_proto(&response.resource_schemas["demo_thing"]).unwrap();
    assert_eq!(thing, thing_schema());
    assert_eq!(thing.version, 1);
    let modes: Vec<&str> = thing
        .block
        .block_types
        .values()
        .map(|b| b.nesting.as_str())
        .collect();
    assert_eq!(modes, ["list", "group", "set", "map", "single"]);
    // Declared by the structs: descriptions from the doc comments (Markdown where
    // marked), the flags, the nested attribute.
    assert_eq!(thing.block, Thing::schema_block());
    assert_eq!(
        thing.block.description,
        "A thing, kept in Terraform's state only."
    );
    let kind = &thing.block.block_types["disk"].block.attributes["kind"];
    assert_eq!(kind.description_kind, DescriptionKind::Markdown);
    assert!(kind.optional && kind.computed);
    assert!(thing.block.attributes["secret"].sensitive);
    assert!(thing.block.attributes["endpoint"].nested_type.is_some());
    let old = schema_from_proto(&response.resource_schemas["demo_old_thing"]).unwrap();
    assert_eq!((old.block, old.version), (OldThing::schema_block(), 0));
    let echo = schema_from_proto(&response.data_source_schemas["demo_echo"]).unwrap();
    assert_eq!(echo.block, Echo::schema_block());
    let concat = &response.functions["concat"];
    assert_eq!(concat.parameters[1].r#type, br#""dynamic""#);
    assert!(concat.variadic_parameter.is_some());
    let identities = demo()
        .await
        .get_resource_identity_schemas(Request::new(
            get_resource_identity_schemas::Request::default(),
        ))
        .await
        .unwrap()
        .into_inner();
    let identity = &identities.identity_schemas["demo_thing"].identity_attributes[0];
    assert_eq!(
        (
            identity.name.as_str(),
            identity.required_for_import,
            identity.description.as_str()
        ),
        ("id", true, "`thing-` and the name.")
    );
}

#[tokio::test]
async fn create_plans_unknowns_refined_and_apply_fills_them() {
    let demo = demo().await;
    let config = config("a", vec![disk(1, None), disk(2, Some("fast"))]);
    let planned = plan(&demo, &Value::Null, &config).await;
    assert!(planned.diagnostics.is_empty(), "{:?}", planned.diagnostics);
    assert!(planned.requires_replace.is_empty());
    let value = decode(&planned.planned_state);
    let Some(Value::Unknown(id)) = value.at_path(&Path::root().attribute("id")) else {
        panic!("id is not unknown: {value:?}");
    };
    assert_eq!(id.string_prefix(), Some("thing-"));
    assert!(id.is_not_null());
    let kind = |v: &Value, i: u64| {
        v.at_path(&Path::root().attribute("disk").index(i).attribute("kind"))
            .cloned()
    };
    assert!(matches!(kind(&value, 0), Some(Value::Unknown(_))));
    assert_eq!(kind(&value, 1), Some(Value::from("fast")));
    let block = thing_schema().block;
    assert!(block.check_plan(&Value::Null, &config, &value).is_empty());
    // No identity is planned while the id is unknown (Terraform 1.15 cannot write a
    // plan with an unknown identity as JSON).
    assert!(planned.planned_identity.is_none());

    let applied = apply(&demo, &Value::Null, &value, &config).await;
    assert!(applied.diagnostics.is_empty(), "{:?}", applied.diagnostics);
    let new = decode(&applied.new_state);
    assert_eq!(
        new.at_path(&Path::root().attribute("id")),
        Some(&Value::from("thing-a"))
    );
    assert_eq!(kind(&new, 0), Some(Value::from("standard")));
    assert_eq!(kind(&new, 1), Some(Value::from("fast")));
    assert!(block.check_apply(&value, &new).is_empty());
    assert_eq!(identity_id(&applied.new_identity), Value::from("thing-a"));
    // The dynamic attribute keeps its type.
    assert_eq!(
        new.at_path(&Path::root().attribute("extra")),
        config.at_path(&Path::root().attribute("extra"))
    );

    // The next plan, from the new state: nothing changes.
    let again = plan(&demo, &new, &config).await;
    assert_eq!(decode(&again.planned_state), new);
    assert!(again.requires_replace.is_empty());
    assert_eq!(identity_id(&again.planned_identity), Value::from("thing-a"));
}

#[tokio::test]
async fn a_new_name_requires_replacement() {
    let demo = demo().await;
    let config_a = config("a", vec![disk(1, None)]);
    let planned = decode(&plan(&demo, &Value::Null, &config_a).await.planned_state);
    let state = decode(
        &apply(&demo, &Value::Null, &planned, &config_a)
            .await
            .new_state,
    );
    let response = plan(&demo, &state, &config("b", vec![disk(1, None)])).await;
    assert_eq!(response.requires_replace.len(), 1);
    assert_eq!(
        path_from_proto(&response.requires_replace[0]).unwrap(),
        Path::root().attribute("name")
    );
}

#[tokio::test]
async fn destroy_leaves_a_null_state() {
    let demo = demo().await;
    let config = config("a", vec![]);
    let planned = decode(&plan(&demo, &Value::Null, &config).await.planned_state);
    let state = decode(
        &apply(&demo, &Value::Null, &planned, &config)
            .await
            .new_state,
    );
    let destroyed = apply(&demo, &state, &Value::Null, &Value::Null).await;
    assert!(decode(&destroyed.new_state).is_null());
    assert!(destroyed.new_identity.is_none());
}

#[tokio::test]
async fn misbehaving_apply_leaves_the_unknowns() {
    let demo = configured(Hook::new(Some(Misbehaviour::ApplyLeavesUnknown))).await;
    let config = config("a", vec![disk(1, None)]);
    let planned = decode(&plan(&demo, &Value::Null, &config).await.planned_state);
    let applied = decode(
        &apply(&demo, &Value::Null, &planned, &config)
            .await
            .new_state,
    );
    assert_eq!(applied, planned);
    assert!(!applied.is_wholly_known());
    assert_eq!(
        Misbehaviour::parse("apply-leaves-unknown"),
        Some(Misbehaviour::ApplyLeavesUnknown)
    );
    assert_eq!(Misbehaviour::parse("other"), None);
    for (name, m) in Misbehaviour::ALL {
        assert_eq!(Misbehaviour::parse(name), Some(m));
    }
}

#[tokio::test]
async fn import_by_id() {
    let import_request = |id: &str, identity: Option<&str>| import_resource_state::Request {
        type_name: "demo_thing".into(),
        id: id.to_owned(),
        identity: identity.map(|id| ResourceIdentityData {
            identity_data: Some(
                dynamic::encode(
                    &Value::object([("id", Value::from(id))]),
                    &ThingIdentity::cty_type(),
                )
                .unwrap(),
            ),
        }),
        ..Default::default()
    };
    let import_by = |request: import_resource_state::Request| async move {
        demo()
            .await
            .import_resource_state(Request::new(request))
            .await
            .unwrap()
            .into_inner()
    };
    let import = |id: &str| import_by(import_request(id, None));
    let response = import("thing-web").await;
    let state = decode(&response.imported_resources[0].state);
    assert_eq!(
        state.at_path(&Path::root().attribute("name")),
        Some(&Value::from("web"))
    );
    assert_eq!(
        state.at_path(&Path::root().attribute("id")),
        Some(&Value::from("thing-web"))
    );
    assert_eq!(
        identity_id(&response.imported_resources[0].identity),
        Value::from("thing-web")
    );
    let bare = import("web").await;
    assert_eq!(decode(&bare.imported_resources[0].state), state);
    // By identity instead of an import id.
    let by_identity = import_by(import_request("", Some("thing-web"))).await;
    assert_eq!(decode(&by_identity.imported_resources[0].state), state);
    let neither = import_by(import_request("", None)).await;
    assert!(neither.imported_resources.is_empty());
    assert_eq!(neither.diagnostics.len(), 1);
    let bad = import("thing-").await;
    assert!(bad.imported_resources.is_empty());
    assert_eq!(bad.diagnostics.len(), 1);
}

async fn upgrade(version: i64, raw: RawState) -> upgrade_resource_state::Response {
    demo()
        .await
        .upgrade_resource_state(Request::new(upgrade_resource_state::Request {
            type_name: "demo_thing".into(),
            version,
            raw_state: Some(raw),
        }))
        .await
        .unwrap()
        .into_inner()
}

fn json_state(json: &str) -> RawState {
    RawState {
        json: json.as_bytes().to_vec(),
        ..Default::default()
    }
}

#[tokio::test]
async fn state_upgrades_from_version_0_and_reads_version_1() {
    let v0 = upgrade(
        0,
        json_state(r#"{"id":"thing-old","name":"old","size":"12","tags":{"a":"b"},"gone":true}"#),
    )
    .await;
    assert!(v0.diagnostics.is_empty(), "{:?}", v0.diagnostics);
    let state = decode(&v0.upgraded_state);
    assert_eq!(
        state.at_path(&Path::root().attribute("size")),
        Some(&Value::from(12))
    );
    assert_eq!(
        state.at_path(&Path::root().attribute("id")),
        Some(&Value::from("thing-old"))
    );
    assert_eq!(
        state.at_path(&Path::root().attribute("disk")),
        Some(&Value::list([]))
    );

    let bad = upgrade(
        0,
        json_state(r#"{"id":"thing-old","name":"old","size":"big"}"#),
    )
    .await;
    assert!(bad.upgraded_state.is_none());
    assert_eq!(
        path_from_proto(bad.diagnostics[0].attribute.as_ref().unwrap()).unwrap(),
        Path::root().attribute("size")
    );

    let current = msgpack::encode(&state, &thing_type()).unwrap();
    let json = ctywire::json::encode(&state, &thing_type()).unwrap();
    let v1 = upgrade(
        1,
        RawState {
            json,
            ..Default::default()
        },
    )
    .await;
    assert_eq!(v1.upgraded_state.unwrap().msgpack, current);

    // The legacy flatmap form of a version 0 state upgrades as its JSON form does.
    let flat = |entries: &[(&str, &str)]| RawState {
        flatmap: entries
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
        ..Default::default()
    };
    let from_flatmap = upgrade(
        0,
        flat(&[
            ("name", "x"),
            ("id", "thing-x"),
            ("size", "3"),
            ("tags.%", "0"),
        ]),
    )
    .await;
    assert!(
        from_flatmap.diagnostics.is_empty(),
        "{:?}",
        from_flatmap.diagnostics
    );
    let upgraded =
        msgpack::decode(&from_flatmap.upgraded_state.unwrap().msgpack, &thing_type()).unwrap();
    assert_eq!(
        (upgraded["name"].as_str(), upgraded["size"].as_i64()),
        (Some("x"), Some(3))
    );
    // A broken count is an error at its attribute.
    let broken = upgrade(0, flat(&[("name", "x"), ("tags.%", "?")])).await;
    assert_eq!(broken.diagnostics.len(), 1);
    assert!(
        format!("{:?}", broken.diagnostics[0]).contains("tags"),
        "{:?}",
        broken.diagnostics
    );
    assert_eq!(upgrade(7, json_state("{}")).await.diagnostics.len(), 1);
}

#[tokio::test]
async fn validation_reports_paths() {
    let mut bad = config("a", vec![]);
    bad.set_at_path(&Path::root().attribute("size"), Value::from(-1))
        .unwrap();
    let response = demo()
        .await
        .validate_resource_config(Request::new(validate_resource_config::Request {
            type_name: "demo_thing".into(),
            config: dv(&bad),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(response.diagnostics.len(), 1);
    assert_eq!(
        path_from_proto(response.diagnostics[0].attribute.as_ref().unwrap()).unwrap(),
        Path::root().attribute("size")
    );
    let wrong = DynamicValue {
        msgpack: Default::default(),
        json: br#"{"name":"a","tags":{"env":["dev"]}}"#.to_vec().into(),
    };
    let response = demo()
        .await
        .validate_resource_config(Request::new(validate_resource_config::Request {
            type_name: "demo_thing".into(),
            config: Some(wrong),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    // A value of the wrong type: an error diagnostic at the attribute.
    assert_eq!(response.diagnostics.len(), 1);
    assert_eq!(
        path_from_proto(response.diagnostics[0].attribute.as_ref().unwrap()).unwrap(),
        Path::root().attribute("tags").key("env")
    );
    assert_eq!(response.diagnostics[0].summary, "Invalid configuration");
    // A type the provider does not have is refused.
    let other = demo()
        .await
        .validate_resource_config(Request::new(validate_resource_config::Request {
            type_name: "demo_other".into(),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(other.diagnostics.len(), 1);
    assert_eq!(other.diagnostics[0].summary, "Unknown resource type");
}

#[tokio::test]
async fn the_data_source_echoes() {
    let ty = Echo::cty_type();
    let config = Value::object([
        ("result", Value::Null),
        (
            "value",
            Value::typed(Type::list(Type::Number), Value::list([Value::from(1)])),
        ),
    ]);
    let response = demo()
        .await
        .read_data_source(Request::new(read_data_source::Request {
            type_name: "demo_echo".into(),
            config: Some(dynamic::encode(&config, &ty).unwrap()),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    let state = dynamic::decode(response.state.as_ref(), &ty).unwrap();
    assert_eq!(
        state.at_path(&Path::root().attribute("result")),
        config.at_path(&Path::root().attribute("value"))
    );
}

#[tokio::test]
async fn the_function_takes_a_dynamic_and_variadic_arguments() {
    let argument = |value: Value, ty: &Type| dynamic::encode::<DynamicValue>(&value, ty).unwrap();
    let call = |arguments: Vec<DynamicValue>| async move {
        demo()
            .await
            .call_function(Request::new(call_function::Request {
                name: "concat".into(),
                arguments,
            }))
            .await
            .unwrap()
            .into_inner()
    };
    let object = Value::typed(
        Type::object([("x", Type::Number)]),
        Value::object([("x", Value::from(1))]),
    );
    let response = call(vec![
        argument(Value::from("-"), &Type::String),
        argument(object, &Type::Dynamic),
        argument(Value::from("p"), &Type::String),
        argument(Value::from("q"), &Type::String),
    ])
    .await;
    assert!(response.error.is_none(), "{:?}", response.error);
    let result = dynamic::decode(response.result.as_ref(), &Type::String).unwrap();
    assert_eq!(result, Value::from(r#"{"x":1}-p-q"#));

    let only = call(vec![
        argument(Value::from(", "), &Type::String),
        argument(Value::typed(Type::String, Value::from("a")), &Type::Dynamic),
    ])
    .await;
    assert_eq!(
        dynamic::decode(only.result.as_ref(), &Type::String).unwrap(),
        Value::from("a")
    );

    let bad = call(vec![
        argument(Value::from("-"), &Type::String),
        argument(Value::typed(Type::String, Value::from("a")), &Type::Dynamic),
        DynamicValue {
            msgpack: vec![0xc3].into(),
            json: Default::default(),
        },
    ])
    .await;
    assert_eq!(bad.error.unwrap().function_argument, Some(2));
    let short = call(vec![argument(Value::from("-"), &Type::String)]).await;
    assert!(short.error.is_some());

    // `first` takes unknowns (the result is then an unknown string, not null); the
    // separator does not, and Terraform never sends one there.
    let unknown = call(vec![
        argument(Value::from("-"), &Type::String),
        argument(Value::unknown(), &Type::Dynamic),
        argument(Value::from("p"), &Type::String),
    ])
    .await;
    assert!(unknown.error.is_none(), "{:?}", unknown.error);
    let result = dynamic::decode(unknown.result.as_ref(), &Type::String).unwrap();
    assert_eq!(
        result,
        Value::Unknown(ctywire::Refinements::new().not_null())
    );
    let unknown_separator = call(vec![
        argument(Value::unknown(), &Type::String),
        argument(Value::typed(Type::String, Value::from("a")), &Type::Dynamic),
    ])
    .await;
    assert_eq!(unknown_separator.error.unwrap().function_argument, Some(0));
}

#[tokio::test]
async fn identities_upgrade_from_their_json() {
    let upgrade = |version: i64, json: &str| {
        let raw_identity = Some(RawState {
            json: json.as_bytes().to_vec(),
            ..Default::default()
        });
        async move {
            demo()
                .await
                .upgrade_resource_identity(Request::new(upgrade_resource_identity::Request {
                    type_name: "demo_thing".into(),
                    version,
                    raw_identity,
                }))
                .await
                .unwrap()
                .into_inner()
        }
    };
    let upgraded = upgrade(0, r#"{"id":"thing-a","old":1}"#).await;
    assert!(
        upgraded.diagnostics.is_empty(),
        "{:?}",
        upgraded.diagnostics
    );
    assert_eq!(
        identity_id(&upgraded.upgraded_identity),
        Value::from("thing-a")
    );
    assert_eq!(upgrade(3, "{}").await.diagnostics.len(), 1);
    assert_eq!(upgrade(0, r#"{"id":1"#).await.diagnostics.len(), 1);
}

#[tokio::test]
async fn old_things_live_in_the_state_too() {
    let demo = demo().await;
    let ty = OldThing::cty_type();
    let old = |v: &Value| Some(dynamic::encode::<DynamicValue>(v, &ty).unwrap());
    let config = Value::object([
        ("id", Value::Null),
        ("name", Value::from("a")),
        ("size", Value::from("3")),
        ("tags", Value::Null),
    ]);
    let planned = demo
        .plan_resource_change(Request::new(plan_resource_change::Request {
            type_name: "demo_old_thing".into(),
            prior_state: old(&Value::Null),
            proposed_new_state: old(&config),
            config: old(&config),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert!(planned.diagnostics.is_empty(), "{:?}", planned.diagnostics);
    let planned = dynamic::decode(planned.planned_state.as_ref(), &ty).unwrap();
    assert_eq!(
        planned["id"],
        Value::Unknown(
            ctywire::Refinements::new()
                .not_null()
                .with_string_prefix("old-")
        )
    );
    let applied = demo
        .apply_resource_change(Request::new(apply_resource_change::Request {
            type_name: "demo_old_thing".into(),
            prior_state: old(&Value::Null),
            planned_state: old(&planned),
            config: old(&config),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    let state = dynamic::decode(applied.new_state.as_ref(), &ty).unwrap();
    assert_eq!(state["id"], Value::from("old-a"));
    assert_eq!(state["size"], Value::from("3"));
}

/// `demo_old_thing` imported by id (the framework's default, which sets `id` alone,
/// cannot fill its required `name`): the state it imports, read back by ReadResource
/// (the default read: the state as it is), is what an apply of the same name makes.
#[tokio::test]
async fn an_old_thing_imports_by_id() {
    let demo = demo().await;
    let ty = OldThing::cty_type();
    let import = |id: &str| {
        demo.import_resource_state(Request::new(import_resource_state::Request {
            type_name: "demo_old_thing".into(),
            id: id.to_owned(),
            ..Default::default()
        }))
    };
    let response = import("old-a").await.unwrap().into_inner();
    assert!(
        response.diagnostics.is_empty(),
        "{:?}",
        response.diagnostics
    );
    let [imported] = &response.imported_resources[..] else {
        panic!("{:?}", response.imported_resources);
    };
    assert_eq!(imported.type_name, "demo_old_thing");
    let state = dynamic::decode(imported.state.as_ref(), &ty).unwrap();
    let expected = Value::object([
        ("id", Value::from("old-a")),
        ("name", Value::from("a")),
        ("size", Value::Null),
        ("tags", Value::Null),
    ]);
    assert_eq!(state, expected);
    let read = demo
        .read_resource(Request::new(read_resource::Request {
            type_name: "demo_old_thing".into(),
            current_state: imported.state.clone(),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
    assert_eq!(
        dynamic::decode(read.new_state.as_ref(), &ty).unwrap(),
        expected
    );
    // An id that is not `old-` and a name: a diagnostic, nothing imported.
    for bad in ["a", "old-", ""] {
        let response = import(bad).await.unwrap().into_inner();
        assert!(response.imported_resources.is_empty(), "{bad:?}");
        assert_eq!(response.diagnostics.len(), 1, "{bad:?}");
    }
}

async fn move_thing(request: move_resource_state::Request) -> move_resource_state::Response {
    demo()
        .await
        .move_resource_state(Request::new(request))
        .await
        .unwrap()
        .into_inner()
}

fn move_request(source_json: &str) -> move_resource_state::Request {
    move_resource_state::Request {
        source_provider_address: "example.com/ctywire/demo".into(),
        source_type_name: "demo_old_thing".into(),
        source_schema_version: 0,
        source_state: Some(json_state(source_json)),
        target_type_name: "demo_thing".into(),
        source_private: b"private".to_vec(),
        ..Default::default()
    }
}

#[tokio::test]
async fn an_old_thing_moves_into_a_thing() {
    let schemas = demo()
        .await
        .get_provider_schema(Request::new(get_provider_schema::Request::default()))
        .await
        .unwrap()
        .into_inner();
    assert!(schemas.server_capabilities.unwrap().move_resource_state);
    assert!(schemas.resource_schemas.contains_key("demo_old_thing"));

    let moved = move_thing(move_request(
        r#"{"id":"old-a","name":"a","size":"3","tags":{"k":"v"},"gone":1}"#,
    ))
    .await;
    assert!(moved.diagnostics.is_empty(), "{:?}", moved.diagnostics);
    let state = decode(&moved.target_state);
    assert_eq!(state["name"], Value::from("a"));
    assert_eq!(state["size"], Value::from(3));
    assert_eq!(state["tags"]["k"], Value::from("v"));
    assert_eq!(state["id"], Value::from("thing-a"));
    assert_eq!(state["disk"], Value::list([]));
    assert_eq!(identity_id(&moved.target_identity), Value::from("thing-a"));
    assert_eq!(moved.target_private, b"private");

    // A source state that is not the old thing's: an error at the attribute.
    for (json, path) in [
        (
            r#"{"name":"a","size":"big"}"#,
            Path::root().attribute("size"),
        ),
        (
            r#"{"name":"a","tags":{"k":[1]}}"#,
            Path::root().attribute("tags").key("k"),
        ),
    ] {
        let bad = move_thing(move_request(json)).await;
        assert!(bad.target_state.is_none());
        assert_eq!(bad.diagnostics.len(), 1, "{json}");
        assert_eq!(
            path_from_proto(bad.diagnostics[0].attribute.as_ref().unwrap()).unwrap(),
            path,
            "{json}"
        );
    }
    // Other sources are refused with a diagnostic; so is a target that is not one of
    // the provider's resource types.
    let mut other = move_request(r#"{"name":"a"}"#);
    other.source_type_name = "other_thing".into();
    let refused = move_thing(other).await;
    assert!(refused.target_state.is_none());
    assert!(refused.diagnostics[0].detail.contains("other_thing"));
    let mut wrong_target = move_request(r#"{"name":"a"}"#);
    wrong_target.target_type_name = "demo_echo".into();
    let wrong = demo()
        .await
        .move_resource_state(Request::new(wrong_target))
        .await
        .unwrap()
        .into_inner();
    assert!(wrong.target_state.is_none());
    assert_eq!(wrong.diagnostics[0].summary, "Unknown resource type");
}

#[tokio::test]
async fn a_move_needs_no_configured_provider() {
    // Terraform moves objects while it prepares a plan, before ConfigureProvider.
    let unconfigured = crate::service(Hook::new(None));
    let moved = unconfigured
        .move_resource_state(Request::new(move_request(
            r#"{"id":"old-a","name":"a","size":"3","tags":null}"#,
        )))
        .await
        .unwrap()
        .into_inner();
    assert!(moved.diagnostics.is_empty(), "{:?}", moved.diagnostics);
    assert_eq!(decode(&moved.target_state)["id"], Value::from("thing-a"));
    assert_eq!(identity_id(&moved.target_identity), Value::from("thing-a"));
}

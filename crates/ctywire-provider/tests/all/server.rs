//! The framework's service, called as Terraform calls it (the protocol's messages, no
//! socket): routing, validation, planning, apply, import, state upgrades, functions, a
//! panicking handler, and an answer for every call a normal run makes.

use crate::common::{dv, empty, import, texts, upgrade};
use ctywire::object::Object;
use ctywire::{msgpack, Known, Path, Value};
use ctywire_provider::{
    Context, DataSource, Error, Function, FunctionError, Provider, Resource, Result, Server,
    StoredState,
};
use ctywire_tfplugin::tfplugin6::provider_server::Provider as Service;
use ctywire_tfplugin::tfplugin6::*;
use ctywire_tfplugin::{dynamic, path::path_from_proto};
use tonic::Request;

#[derive(ctywire::Object)]
struct Config {
    #[cty(optional)]
    greeting: Option<String>,
}

struct Test;

impl Provider for Test {
    const TYPE_NAME: &'static str = "test";
    type Config = Config;
    type Data = String;
    async fn configure(&self, config: Config) -> Result<String> {
        Ok(config.greeting.unwrap_or_else(|| "hello".into()))
    }
}

/// Version 1: `size` is a number (version 0 had `size_text`).
#[derive(ctywire::Object, Clone, Debug, PartialEq)]
struct Thing {
    #[cty(required, requires_replace)]
    name: String,
    #[cty(optional)]
    size: Option<u16>,
    #[cty(computed, use_state_for_unknown)]
    id: Known<String>,
}

#[derive(ctywire::Object)]
struct ThingV0 {
    #[cty(required)]
    name: String,
    #[cty(optional)]
    size_text: Option<String>,
}

/// Creates things; panics on a thing named `panic`; warns on a thing named `warn`.
struct Things {
    upgrades: bool,
}

impl Resource<String> for Things {
    const NAME: &'static str = "thing";
    const VERSION: u64 = 1;
    type State = Thing;

    async fn create(&self, ctx: &Context<String>, mut thing: Thing) -> Result<Thing> {
        match thing.name.as_str() {
            "panic" => panic!("the thing exploded"),
            // Waits for StopProvider, then returns what it made: the handler decides.
            "wait" => {
                ctx.cancelled().await;
                assert!(ctx.is_cancelled());
                thing.id = Known::Known("interrupted".into());
                return Ok(thing);
            }
            "warn" => ctx.warn("Careful", "a warning", Path::root().attribute("name")),
            "fail" => {
                return Err(
                    Error::new("Cannot create", "no room").at(Path::root().attribute("size"))
                )
            }
            _ => {}
        }
        thing.id = Known::Known(format!("{}-{}", ctx.data(), thing.name));
        Ok(thing)
    }

    async fn update(&self, _: &Context<String>, _: Thing, planned: Thing) -> Result<Thing> {
        Ok(planned)
    }

    async fn delete(&self, _: &Context<String>, _: Thing) -> Result<()> {
        Ok(())
    }

    async fn import(&self, _: &Context<String>, id: String) -> Result<Thing> {
        Ok(Thing {
            name: id.trim_start_matches("hello-").to_owned(),
            size: None,
            id: Known::Known(id),
        })
    }

    async fn upgrade(&self, ctx: &Context<String>, stored: StoredState) -> Result<Thing> {
        if !self.upgrades {
            // What a resource without an upgrade gets: the trait's default.
            return Err(Error::new("no upgrader", format!("{}", stored.version())));
        }
        let old: ThingV0 = stored.decode()?;
        let size = old.size_text.map(|t| t.parse::<u16>()).transpose()?;
        Ok(Thing {
            id: Known::Known(format!("{}-{}", ctx.data(), old.name)),
            name: old.name,
            size,
        })
    }
}

/// A resource that writes nothing but the required calls: the defaults of read,
/// import and upgrade.
#[derive(ctywire::Object, Clone, Debug, PartialEq)]
struct Note {
    #[cty(optional)]
    text: Option<String>,
    #[cty(computed)]
    id: Known<String>,
}

struct Notes;

impl Resource<String> for Notes {
    const NAME: &'static str = "note";
    const VERSION: u64 = 2;
    type State = Note;
    async fn create(&self, _: &Context<String>, mut note: Note) -> Result<Note> {
        note.id = Known::Known("n".into());
        Ok(note)
    }
    async fn update(&self, _: &Context<String>, _: Note, planned: Note) -> Result<Note> {
        Ok(planned)
    }
    async fn delete(&self, _: &Context<String>, _: Note) -> Result<()> {
        Ok(())
    }
}

#[derive(ctywire::Object)]
struct Echo {
    #[cty(required)]
    input: String,
    #[cty(computed)]
    output: Known<String>,
}

struct Echoes;

impl DataSource<String> for Echoes {
    const NAME: &'static str = "echo";
    type State = Echo;
    async fn read(&self, ctx: &Context<String>, mut echo: Echo) -> Result<Echo> {
        echo.output = Known::Known(format!("{} {}", ctx.data(), echo.input));
        Ok(echo)
    }
}

/// A data source whose computed attribute is a plain `String`.
#[derive(ctywire::Object)]
struct Plain {
    #[cty(required)]
    input: String,
    #[cty(computed)]
    output: String,
}

struct Plains;

impl DataSource<String> for Plains {
    const NAME: &'static str = "plain";
    type State = Plain;
    async fn read(&self, _: &Context<String>, mut plain: Plain) -> Result<Plain> {
        plain.output = plain.input.clone();
        Ok(plain)
    }
}

struct Repeat;

impl Function for Repeat {
    const NAME: &'static str = "repeat";
    const PARAMETERS: &'static [&'static str] = &["text", "times"];
    type Arguments = (String, u8);
    type Output = String;
    async fn call(&self, (text, times): (String, u8)) -> Result<String, FunctionError> {
        match times {
            0 => Err(FunctionError::new("times must be at least 1").argument(1)),
            13 => panic!("unlucky"),
            n => Ok(text.repeat(usize::from(n))),
        }
    }
}

fn server(upgrades: bool) -> Server<Test> {
    Server::new(Test)
        .resource(Things { upgrades })
        .resource(Notes)
        .data_source(Echoes)
        .data_source(Plains)
        .function(Repeat)
}

fn thing(name: &str, size: Option<i64>, id: Value) -> Value {
    Value::object([
        ("name", Value::from(name)),
        ("size", size.map_or(Value::Null, Value::from)),
        ("id", id),
    ])
}

async fn configured(upgrades: bool) -> Server<Test> {
    let s = server(upgrades);
    let config = Value::object([("greeting", Value::Null)]);
    crate::common::configure(&s, &config).await;
    s
}

async fn apply(
    s: &Server<Test>,
    prior: &Value,
    planned: &Value,
) -> apply_resource_change::Response {
    crate::common::apply::<Thing>(s, "test_thing", prior, planned, &[]).await
}

async fn plan(s: &Server<Test>, prior: &Value, config: &Value) -> plan_resource_change::Response {
    crate::common::plan::<Thing>(s, "test_thing", prior, config).await
}

#[tokio::test]
async fn schemas_come_from_the_structs() {
    let s = server(true);
    let r = s
        .get_provider_schema(Request::new(get_provider_schema::Request {}))
        .await
        .unwrap()
        .into_inner();
    let mut names: Vec<&String> = r.resource_schemas.keys().collect();
    names.sort();
    assert_eq!(names, ["test_note", "test_thing"]);
    assert_eq!(r.resource_schemas["test_thing"].version, 1);
    assert!(r.data_source_schemas.contains_key("test_echo"));
    let f = &r.functions["repeat"];
    assert_eq!(f.parameters.len(), 2);
    assert_eq!(f.parameters[1].name, "times");
    assert_eq!(f.parameters[1].r#type, br#""number""#);
}

#[tokio::test]
async fn validation_decodes_the_struct_when_the_configuration_is_known() {
    let s = server(true);
    let ty = Thing::cty_type();
    let validate = |config: Value| {
        let s = &s;
        let ty = &ty;
        async move {
            let r = crate::common::validate(s, "test_thing", Some(dv(&config, ty))).await;
            texts(&r.diagnostics)
        }
    };
    assert!(validate(thing("a", Some(2), Value::Null)).await.is_empty());
    let fraction = thing("a", None, Value::Null)
        .with_attribute(
            "size",
            Value::Number(ctywire::Number::parse("22.5").unwrap()),
        )
        .unwrap();
    assert_eq!(
        validate(fraction.clone()).await,
        ["error.size: Invalid configuration: expected u16 (an integer from 0 to 65535), found a fraction"]
    );
    // The issue's footgun: with another attribute unknown, the struct cannot be decoded,
    // and 22.5 is still refused at validate, at its path.
    let unknown_name = fraction.with_attribute("name", Value::unknown()).unwrap();
    assert_eq!(
        validate(unknown_name).await,
        ["error.size: Invalid configuration: expected u16 (an integer from 0 to 65535), found a fraction"]
    );
    // The data source's computed `output` is a `Known` (null in a configuration); a
    // plain `String` there could not hold the null, which is not the configuration's
    // fault and not reported.
    let r = s
        .validate_data_resource_config(Request::new(validate_data_resource_config::Request {
            type_name: "test_plain".into(),
            config: Some(dv(
                &Value::object([("input", Value::from("x")), ("output", Value::Null)]),
                &Plain::cty_type(),
            )),
        }))
        .await
        .unwrap()
        .into_inner();
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    // Unknown somewhere: the struct cannot hold it, so the fields are checked one by one.
    let unknown = thing("a", None, Value::Null)
        .with_attribute("name", Value::unknown())
        .unwrap();
    assert!(validate(unknown).await.is_empty());
    // An unknown type name is a diagnostic, not a failed call.
    let r = crate::common::validate(&s, "test_nope", None).await;
    assert_eq!(
        texts(&r.diagnostics),
        [r#"error: Unknown resource type: this provider has no resource type "test_nope""#]
    );
}

#[tokio::test]
async fn plans_without_code() {
    let s = configured(true).await;
    // Create: the id unknown, nothing to replace.
    let config = thing("a", Some(1), Value::Null);
    let r = plan(&s, &Value::Null, &config).await;
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    let planned = msgpack::decode(&r.planned_state.unwrap().msgpack, &Thing::cty_type()).unwrap();
    assert!(planned["id"].is_unknown());
    // Update: the id kept; a new name replaces.
    let prior = thing("a", Some(1), Value::from("hello-a"));
    let r = plan(&s, &prior, &thing("a", Some(2), Value::Null)).await;
    let planned = msgpack::decode(&r.planned_state.unwrap().msgpack, &Thing::cty_type()).unwrap();
    assert_eq!(planned["id"].as_str(), Some("hello-a"));
    assert!(r.requires_replace.is_empty());
    let r = plan(&s, &prior, &thing("b", Some(1), Value::Null)).await;
    let replace: Vec<Path> = r
        .requires_replace
        .iter()
        .map(|p| path_from_proto(p).unwrap())
        .collect();
    assert_eq!(replace, [Path::root().attribute("name")]);
}

#[tokio::test]
async fn apply_creates_updates_and_deletes() {
    let s = configured(true).await;
    let planned = thing("a", Some(1), Value::unknown());
    let r = apply(&s, &Value::Null, &planned).await;
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    let new = msgpack::decode(&r.new_state.unwrap().msgpack, &Thing::cty_type()).unwrap();
    assert_eq!(new, thing("a", Some(1), Value::from("hello-a")));
    let r = apply(&s, &new, &Value::Null).await;
    assert!(r.diagnostics.is_empty());
    assert!(
        msgpack::decode(&r.new_state.unwrap().msgpack, &Thing::cty_type())
            .unwrap()
            .is_null()
    );
    // An error keeps its path; a failed create leaves no object.
    let r = apply(&s, &Value::Null, &thing("fail", None, Value::unknown())).await;
    assert_eq!(
        texts(&r.diagnostics),
        ["error.size: Cannot create: no room"]
    );
    assert!(
        msgpack::decode(&r.new_state.unwrap().msgpack, &Thing::cty_type())
            .unwrap()
            .is_null()
    );
    // Warnings come with the result.
    let r = apply(&s, &Value::Null, &thing("warn", None, Value::unknown())).await;
    assert_eq!(texts(&r.diagnostics), ["warning.name: Careful: a warning"]);
}

#[tokio::test]
async fn a_panic_is_a_diagnostic_and_the_provider_serves_on() {
    let s = configured(true).await;
    let r = apply(&s, &Value::Null, &thing("panic", None, Value::unknown())).await;
    let said = texts(&r.diagnostics);
    assert_eq!(said.len(), 1);
    assert!(
        said[0].starts_with(
            "error: The provider panicked in create of test_thing: the thing exploded"
        ),
        "{said:?}"
    );
    let r = apply(&s, &Value::Null, &thing("a", None, Value::unknown())).await;
    assert!(r.diagnostics.is_empty());
    // In a function too.
    let r = call(&s, "x", 13).await;
    assert!(r
        .error
        .unwrap()
        .text
        .contains("The provider panicked in call of repeat"));
}

/// StopProvider answers at once and cancels the token of the calls in flight; the
/// handler returns what it chooses (here a state, which Terraform records), and the
/// calls after the stop get a fresh token.
#[tokio::test]
async fn stop_provider_cancels_the_calls_in_flight() {
    use std::time::Duration;
    let s = configured(true).await;
    let waiting = {
        let s = s.clone();
        tokio::spawn(async move {
            apply(&s, &Value::Null, &thing("wait", None, Value::unknown())).await
        })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        !waiting.is_finished(),
        "the handler returned before the stop"
    );
    let stopped = tokio::time::timeout(
        Duration::from_millis(500),
        s.stop_provider(Request::new(stop_provider::Request {})),
    )
    .await
    .expect("StopProvider answers at once")
    .unwrap()
    .into_inner();
    assert!(stopped.error.is_empty());
    let r = tokio::time::timeout(Duration::from_secs(5), waiting)
        .await
        .expect("the handler saw the stop")
        .unwrap();
    assert!(r.diagnostics.is_empty(), "{:?}", texts(&r.diagnostics));
    let state = dynamic::decode(r.new_state.as_ref(), &Thing::cty_type()).unwrap();
    assert_eq!(state, thing("wait", None, Value::from("interrupted")));
    // A call after the stop is not cancelled already.
    let later = {
        let s = s.clone();
        tokio::spawn(async move {
            apply(&s, &Value::Null, &thing("wait", None, Value::unknown())).await
        })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        !later.is_finished(),
        "a call after the stop began cancelled"
    );
    s.stop_provider(Request::new(stop_provider::Request {}))
        .await
        .unwrap();
    let r = tokio::time::timeout(Duration::from_secs(5), later)
        .await
        .unwrap()
        .unwrap();
    assert!(r.diagnostics.is_empty());
}

#[tokio::test]
async fn calls_before_configure_are_refused_plainly() {
    let s = server(true);
    let r = apply(&s, &Value::Null, &thing("a", None, Value::unknown())).await;
    assert_eq!(
        texts(&r.diagnostics),
        ["error: Provider not configured: test_thing needs the provider configured first (ConfigureProvider), and it is not"]
    );
}

#[tokio::test]
async fn state_upgrades_go_through_the_upgrader_or_fail_by_name() {
    let s = configured(true).await;
    let ty = Thing::cty_type();
    // The current version passes as it is.
    let r = upgrade(&s, "test_thing", 1, r#"{"name":"a","size":3,"id":"x"}"#).await;
    assert_eq!(
        msgpack::decode(&r.upgraded_state.unwrap().msgpack, &ty).unwrap(),
        thing("a", Some(3), Value::from("x"))
    );
    // Version 0, typed.
    let r = upgrade(&s, "test_thing", 0, r#"{"name":"a","size_text":"7"}"#).await;
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    assert_eq!(
        msgpack::decode(&r.upgraded_state.unwrap().msgpack, &ty).unwrap(),
        thing("a", Some(7), Value::from("hello-a"))
    );
    // A newer version than the provider's.
    let r = upgrade(&s, "test_thing", 2, r#"{"name":"a"}"#).await;
    assert!(texts(&r.diagnostics)[0]
        .contains("stored with schema version 2, newer than this provider's (1)"));
    // No upgrader written (Notes is at version 2): an error naming the version, no state.
    let r = upgrade(&s, "test_note", 1, r#"{"text":"t","id":"n"}"#).await;
    assert!(r.upgraded_state.is_none());
    assert_eq!(
        texts(&r.diagnostics),
        ["error: Unsupported state version: this state was stored with schema version 1 of the resource, which is now at version 2, and the provider has no upgrade for it (Resource::upgrade)"]
    );
}

#[tokio::test]
async fn import_by_id() {
    let s = configured(true).await;
    // Passthrough by default: the id alone, then read.
    let r = import(&s, "test_note", "n-1").await;
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    let state = r.imported_resources[0].state.clone().unwrap();
    assert_eq!(r.imported_resources[0].type_name, "test_note");
    let value = msgpack::decode(&state.msgpack, &Note::cty_type()).unwrap();
    assert_eq!(
        value,
        Value::object([("text", Value::Null), ("id", Value::from("n-1"))])
    );
    let read = crate::common::read::<Note>(&s, "test_note", &value, &[]).await;
    assert_eq!(read.new_state, Some(state));
    // Written by the resource.
    let r = import(&s, "test_thing", "hello-b").await;
    let value = msgpack::decode(
        &r.imported_resources[0].state.clone().unwrap().msgpack,
        &Thing::cty_type(),
    )
    .unwrap();
    assert_eq!(value, thing("b", None, Value::from("hello-b")));
}

#[derive(ctywire::Object)]
struct Named {
    #[cty(required)]
    name: String,
    #[cty(computed)]
    id: Known<String>,
}

#[test]
fn passthrough_import_says_what_it_cannot_fill() {
    struct Names;
    impl Resource<()> for Names {
        const NAME: &'static str = "named";
        type State = Named;
        async fn create(&self, _: &Context<()>, n: Named) -> Result<Named> {
            Ok(n)
        }
        async fn update(&self, _: &Context<()>, _: Named, n: Named) -> Result<Named> {
            Ok(n)
        }
        async fn delete(&self, _: &Context<()>, _: Named) -> Result<()> {
            Ok(())
        }
    }
    // The default import of a struct whose `name` cannot be null.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let response = runtime.block_on(async {
        provider!(P, "p");
        let s = Server::new(P).resource(Names);
        crate::common::configure(&s, &empty()).await;
        import(&s, "p_named", "x").await
    });
    assert!(response.imported_resources.is_empty());
    assert_eq!(
        texts(&response.diagnostics),
        ["error.name: Cannot import by id: the import sets `id` alone, and .name cannot be null: implement Resource::import for resource p_named"]
    );
}

#[tokio::test]
async fn data_sources_read_with_the_provider_data() {
    let s = configured(true).await;
    let config = Value::object([("input", Value::from("world")), ("output", Value::Null)]);
    let r = s
        .read_data_source(Request::new(read_data_source::Request {
            type_name: "test_echo".into(),
            config: Some(dv(&config, &Echo::cty_type())),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    let state = msgpack::decode(&r.state.unwrap().msgpack, &Echo::cty_type()).unwrap();
    assert_eq!(state["output"].as_str(), Some("hello world"));
}

async fn call(s: &Server<Test>, text: &str, times: i64) -> call_function::Response {
    s.call_function(Request::new(call_function::Request {
        name: "repeat".into(),
        arguments: vec![
            dv(&Value::from(text), &ctywire::Type::String),
            dv(&Value::from(times), &ctywire::Type::Number),
        ],
    }))
    .await
    .unwrap()
    .into_inner()
}

#[tokio::test]
async fn functions_take_typed_arguments() {
    let s = server(true);
    let r = call(&s, "ab", 3).await;
    assert_eq!(
        dynamic::decode_object::<String, _>(r.result.as_ref()).unwrap(),
        "ababab"
    );
    let e = call(&s, "ab", 0).await.error.unwrap();
    assert_eq!(
        (e.text.as_str(), e.function_argument),
        ("times must be at least 1", Some(1))
    );
    // 300 does not fit a u8: an error about that argument.
    let e = call(&s, "ab", 300).await.error.unwrap();
    assert_eq!(e.function_argument, Some(1));
}

/// Every call a plan, apply, import or refresh makes is answered (never
/// "Unimplemented"), whatever the provider wrote.
#[tokio::test]
async fn every_call_of_a_normal_run_is_answered() {
    let s = server(true);
    s.get_metadata(Request::new(get_metadata::Request {}))
        .await
        .unwrap();
    s.get_resource_identity_schemas(Request::new(get_resource_identity_schemas::Request {}))
        .await
        .unwrap();
    s.validate_provider_config(Request::new(validate_provider_config::Request::default()))
        .await
        .unwrap();
    s.get_functions(Request::new(get_functions::Request {}))
        .await
        .unwrap();
    s.stop_provider(Request::new(stop_provider::Request {}))
        .await
        .unwrap();
    let r = configured(true)
        .await
        .move_resource_state(Request::new(move_resource_state::Request {
            source_type_name: "test_other".into(),
            target_type_name: "test_thing".into(),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(r.diagnostics[0].summary, "Unsupported move");
    let r = s
        .upgrade_resource_identity(Request::new(upgrade_resource_identity::Request::default()))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(r.diagnostics[0].summary, "Unsupported resource identity");
    s.validate_ephemeral_resource_config(Request::new(Default::default()))
        .await
        .unwrap();
    s.open_ephemeral_resource(Request::new(Default::default()))
        .await
        .unwrap();
    s.renew_ephemeral_resource(Request::new(Default::default()))
        .await
        .unwrap();
    s.close_ephemeral_resource(Request::new(Default::default()))
        .await
        .unwrap();
    s.validate_list_resource_config(Request::new(Default::default()))
        .await
        .unwrap();
    s.generate_resource_config(Request::new(Default::default()))
        .await
        .unwrap();
    s.validate_action_config(Request::new(Default::default()))
        .await
        .unwrap();
    s.plan_action(Request::new(Default::default()))
        .await
        .unwrap();
}

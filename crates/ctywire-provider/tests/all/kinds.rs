//! The object kinds beyond resources, data sources and plain functions, under the real
//! Terraform (acceptance tests: `TF_ACC=1`, Terraform found as ctywire-testing's README
//! says): an ephemeral resource configuring a provider (opened, renewed, closed),
//! resource identity (stored, upgraded, imported by identity through `import` blocks and
//! ctywire-testing's import steps), a `moved` block across resource types, a list
//! resource through `terraform query` (and the configuration it generates), an action
//! (a trigger and `apply -invoke`), and variadic, nullable and unknown-taking function
//! parameters; then the same provider called as Terraform calls it, without Terraform.
//!
//! One small provider, `kinds`, served in the test process: its "cloud" is a map in
//! memory, with a log of the calls that change it, which the tests read.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use ctywire::Known;
use ctywire_provider::{
    Action, Context, EphemeralResource, Error, Function, FunctionError, IdentifiedResource,
    ListResource, Listing, MovedState, Opened, Progress, Provider, Renewed, Resource, Result,
    Server, StoredState, Variadic,
};
use ctywire_testing::{Expect, StateCheck, Step, Terraform, Test, Workspace};

// ---- the provider

#[derive(Clone, Debug, PartialEq)]
struct Stored {
    name: String,
    size: Option<u16>,
    token: String,
}

#[derive(Default)]
struct Cloud {
    things: BTreeMap<String, Stored>,
    log: Vec<String>,
    next: u32,
}

type Shared = Arc<Mutex<Cloud>>;

fn lock(cloud: &Shared) -> std::sync::MutexGuard<'_, Cloud> {
    cloud
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[derive(ctywire::Object)]
struct Config {
    #[cty(optional, sensitive)]
    token: Option<String>,
}

struct Api {
    cloud: Shared,
    token: String,
}

struct Kinds {
    cloud: Shared,
}

impl Provider for Kinds {
    const TYPE_NAME: &'static str = "kinds";
    type Config = Config;
    type Data = Api;

    async fn configure(&self, config: Config) -> Result<Api> {
        Ok(Api {
            cloud: Arc::clone(&self.cloud),
            token: config.token.unwrap_or_default(),
        })
    }
}

/// A thing: the provider's token when it was created is kept in `token`.
#[derive(ctywire::Object, Clone, Debug)]
struct Thing {
    #[cty(required, requires_replace)]
    name: Option<String>,
    #[cty(optional)]
    size: Option<u16>,
    #[cty(computed, use_state_for_unknown)]
    id: Known<String>,
    #[cty(computed, use_state_for_unknown)]
    token: Known<String>,
}

#[derive(ctywire::Object)]
struct ThingIdentity {
    #[cty(required)]
    id: String,
}

/// The identity at version 0.
#[derive(ctywire::Object)]
struct ThingIdentityV0 {
    #[cty(required)]
    thing_id: String,
}

fn thing(id: &str, stored: &Stored) -> Thing {
    Thing {
        name: Some(stored.name.clone()),
        size: stored.size,
        id: Known::Known(id.to_owned()),
        token: Known::Known(stored.token.clone()),
    }
}

fn create(api: &Api, name: &str, size: Option<u16>) -> (String, Stored) {
    let mut cloud = lock(&api.cloud);
    cloud.next += 1;
    let id = format!("t-{}", cloud.next);
    let stored = Stored {
        name: name.to_owned(),
        size,
        token: api.token.clone(),
    };
    cloud.log.push(format!("create {id}"));
    cloud.things.insert(id.clone(), stored.clone());
    (id, stored)
}

struct Things;

impl Resource<Api> for Things {
    const NAME: &'static str = "thing";
    type State = Thing;

    const MOVES_FROM: &'static [&'static str] = &["kinds_other"];

    async fn create(&self, ctx: &Context<Api>, planned: Thing) -> Result<Thing> {
        if planned.name.as_deref() == Some("slow") {
            tokio::time::sleep(Duration::from_secs(4)).await;
        }
        let (id, stored) = create(
            ctx.data(),
            planned.name.as_deref().unwrap_or(""),
            planned.size,
        );
        Ok(thing(&id, &stored))
    }

    async fn read(&self, ctx: &Context<Api>, state: Thing) -> Result<Option<Thing>> {
        let id = state.id.as_known().cloned().unwrap_or_default();
        Ok(lock(&ctx.data().cloud)
            .things
            .get(&id)
            .map(|s| thing(&id, s)))
    }

    async fn update(&self, ctx: &Context<Api>, _: Thing, planned: Thing) -> Result<Thing> {
        let id = planned.id.as_known().cloned().unwrap_or_default();
        let mut cloud = lock(&ctx.data().cloud);
        let stored = cloud
            .things
            .get_mut(&id)
            .ok_or_else(|| Error::new("No such thing", id.clone()))?;
        stored.size = planned.size;
        Ok(planned)
    }

    async fn delete(&self, ctx: &Context<Api>, state: Thing) -> Result<()> {
        let id = state.id.as_known().cloned().unwrap_or_default();
        let mut cloud = lock(&ctx.data().cloud);
        cloud.log.push(format!("delete {id}"));
        cloud.things.remove(&id);
        Ok(())
    }

    async fn move_state(&self, _: &Context<Api>, moved: MovedState) -> Result<Thing> {
        let other: Other = moved.decode()?;
        // kinds_other has no identity.
        if moved.decode_identity::<ThingIdentity>()?.is_some() || moved.version() != 0 {
            return Err(Error::new("Unexpected move", "an identity, or a version"));
        }
        Ok(Thing {
            name: Some(other.label),
            size: None,
            id: other.id,
            token: Known::Null,
        })
    }
}

impl IdentifiedResource<Api> for Things {
    type Identity = ThingIdentity;
    const IDENTITY_VERSION: u64 = 1;

    fn upgrade_identity(&self, stored: StoredState) -> Result<ThingIdentity> {
        let v0: ThingIdentityV0 = stored.decode()?;
        Ok(ThingIdentity { id: v0.thing_id })
    }

    fn identity(&self, _: &Context<Api>, state: &Thing) -> ThingIdentity {
        assert!(
            state.name.as_deref() != Some("no identity"),
            "no identity for it"
        );
        ThingIdentity {
            id: state.id.as_known().cloned().unwrap_or_default(),
        }
    }
}

/// Another resource type, whose objects `moved` blocks move to `kinds_thing`.
#[derive(ctywire::Object)]
struct Other {
    #[cty(required, requires_replace)]
    label: String,
    #[cty(computed, use_state_for_unknown)]
    id: Known<String>,
}

struct Others;

impl Resource<Api> for Others {
    const NAME: &'static str = "other";
    type State = Other;

    async fn create(&self, ctx: &Context<Api>, mut planned: Other) -> Result<Other> {
        let (id, _) = create(ctx.data(), &planned.label, None);
        planned.id = Known::Known(id);
        Ok(planned)
    }

    async fn update(&self, _: &Context<Api>, _: Other, planned: Other) -> Result<Other> {
        Ok(planned)
    }

    async fn delete(&self, ctx: &Context<Api>, state: Other) -> Result<()> {
        let id = state.id.as_known().cloned().unwrap_or_default();
        lock(&ctx.data().cloud).things.remove(&id);
        Ok(())
    }
}

/// An ephemeral token for a scope.
#[derive(ctywire::Object)]
struct Token {
    #[cty(required)]
    scope: String,
    /// Minutes.
    #[cty(optional)]
    ttl: Option<u16>,
    #[cty(computed, sensitive)]
    value: Known<String>,
}

#[derive(ctywire::Object)]
struct Lease {
    #[cty(required)]
    id: String,
}

struct Tokens;

impl EphemeralResource<Api> for Tokens {
    const NAME: &'static str = "token";
    type Object = Token;
    type Private = Lease;

    async fn open(&self, ctx: &Context<Api>, mut token: Token) -> Result<Opened<Token, Lease>> {
        lock(&ctx.data().cloud)
            .log
            .push(format!("open {}", token.scope));
        let lease = Lease {
            id: format!("lease-{}", token.scope),
        };
        token.value = Known::Known(format!("secret-{}", token.scope));
        // A token of the scope `short` is renewed within the run.
        let lasts = if token.scope == "short" { 1 } else { 3600 };
        let renew_at = SystemTime::now() + Duration::from_secs(lasts);
        Ok(Opened::new(token).private(lease).renew_at(renew_at))
    }

    async fn renew(&self, ctx: &Context<Api>, lease: Option<Lease>) -> Result<Renewed<Lease>> {
        let id = lease.map_or_else(|| "none".to_owned(), |l| l.id);
        lock(&ctx.data().cloud).log.push(format!("renew {id}"));
        Ok(Renewed::new().private(Lease {
            id: format!("{id}+"),
        }))
    }

    async fn close(&self, ctx: &Context<Api>, lease: Option<Lease>) -> Result<()> {
        let id = lease.map_or_else(|| "none".to_owned(), |l| l.id);
        lock(&ctx.data().cloud).log.push(format!("close {id}"));
        Ok(())
    }
}

/// `list "kinds_thing"`'s `config` block.
#[derive(ctywire::Object)]
struct Filter {
    #[cty(optional)]
    prefix: Option<String>,
}

struct ListThings;

impl ListResource<Api> for ListThings {
    type Resource = Things;
    type Config = Filter;

    async fn list(
        &self,
        ctx: &Context<Api>,
        filter: Filter,
        listing: &mut Listing<Thing, ThingIdentity>,
    ) -> Result<()> {
        let prefix = filter.prefix.unwrap_or_default();
        let found: Vec<(String, Stored)> = lock(&ctx.data().cloud)
            .things
            .iter()
            .filter(|(_, s)| s.name.starts_with(&prefix))
            .map(|(id, s)| (id.clone(), s.clone()))
            .collect();
        for (id, stored) in found {
            // The identity from the resource type's IdentifiedResource::identity.
            if !listing
                .push_state(format!("thing {}", stored.name), thing(&id, &stored))
                .await
            {
                break;
            }
        }
        Ok(())
    }
}

/// `action "kinds_notify"`'s `config` block.
#[derive(ctywire::Object)]
struct Notify {
    #[cty(required)]
    message: String,
}

struct Notifier;

impl Action<Api> for Notifier {
    const NAME: &'static str = "notify";
    type Config = Notify;

    async fn invoke(
        &self,
        ctx: &Context<Api>,
        notify: Notify,
        progress: &mut Progress,
    ) -> Result<()> {
        if notify.message == "fail" {
            return Err(Error::new("Cannot notify", "the message is fail"));
        }
        lock(&ctx.data().cloud)
            .log
            .push(format!("notify {}", notify.message));
        progress
            .report(format!("notified {}", notify.message))
            .await;
        Ok(())
    }
}

/// `join(separator, parts...)`.
struct Join;

impl Function for Join {
    const NAME: &'static str = "join";
    const PARAMETERS: &'static [&'static str] = &["separator", "parts"];
    type Arguments = (String, Variadic<String>);
    type Output = String;

    async fn call(&self, (separator, parts): Self::Arguments) -> Result<String, FunctionError> {
        Ok(parts.0.join(&separator))
    }
}

/// `sum(numbers...)` of bytes.
struct Sum;

impl Function for Sum {
    const NAME: &'static str = "sum";
    const PARAMETERS: &'static [&'static str] = &["numbers"];
    type Arguments = (Variadic<u8>,);
    type Output = u32;

    async fn call(&self, (numbers,): Self::Arguments) -> Result<u32, FunctionError> {
        Ok(numbers.0.iter().map(|n| u32::from(*n)).sum())
    }
}

/// `or_default(value, default)`: a null `value` is allowed.
struct OrDefault;

impl Function for OrDefault {
    const NAME: &'static str = "or_default";
    const PARAMETERS: &'static [&'static str] = &["value", "default"];
    type Arguments = (Option<String>, String);
    type Output = String;

    async fn call(&self, (value, default): Self::Arguments) -> Result<String, FunctionError> {
        Ok(value.unwrap_or(default))
    }
}

/// `count(values)`: the length of a list, known during plan while elements are not
/// (the parameter takes unknown values).
struct Count;

impl Function for Count {
    const NAME: &'static str = "count";
    const PARAMETERS: &'static [&'static str] = &["values"];
    type Arguments = (Known<Vec<Known<String>>>,);
    type Output = Known<u32>;

    async fn call(&self, (values,): Self::Arguments) -> Result<Known<u32>, FunctionError> {
        Ok(match values {
            Known::Known(values) => Known::Known(u32::try_from(values.len())?),
            _ => Known::unknown(),
        })
    }
}

fn server(cloud: &Shared) -> Server<Kinds> {
    Server::new(Kinds {
        cloud: Arc::clone(cloud),
    })
    .resource_with_list(Things, ListThings)
    .resource(Others)
    .ephemeral_resource(Tokens)
    .action(Notifier)
    .function(Join)
    .function(Sum)
    .function(OrDefault)
    .function(Count)
}

const ADDRESS: &str = "example.com/ctywire/kinds";

/// A workspace with a fresh `kinds` provider, and its cloud; `None` without `TF_ACC`.
fn workspace() -> Option<(Workspace, Shared)> {
    let terraform = Terraform::for_acceptance()?;
    let cloud = Shared::default();
    let served = Arc::clone(&cloud);
    let ws = Workspace::in_process(&terraform, ADDRESS, move || server(&served).plugin())
        .unwrap_or_else(|e| panic!("{e}"));
    Some((ws, cloud))
}

/// Terraform's output as words: without its box drawing and line wrapping.
fn words(text: &str) -> String {
    text.replace(['│', '╷', '╵'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The values of resource `address` in the state (`show -json`).
fn values(ws: &Workspace, address: &str) -> serde_json::Value {
    let show = ws.terraform(&["show", "-json"]);
    show.success();
    show.json()["values"]["root_module"]["resources"]
        .as_array()
        .and_then(|rs| rs.iter().find(|r| r["address"] == address).cloned())
        .map(|r| r["values"].clone())
        .unwrap_or(serde_json::Value::Null)
}

// ---- the tests

#[test]
fn an_ephemeral_token_configures_a_provider_and_is_closed() {
    let Some((ws, cloud)) = workspace() else {
        return;
    };
    ws.configure(
        r#"
provider "kinds" {
  alias = "opener"
}

ephemeral "kinds_token" "t" {
  provider = kinds.opener
  scope    = "deploy"
}

provider "kinds" {
  token = ephemeral.kinds_token.t.value
}

resource "kinds_thing" "x" {
  name = "a"
}
"#,
    );
    ws.terraform(&["apply", "-auto-approve", "-input=false", "-no-color"])
        .success();
    // The token reached the provider's configuration, and was never stored by Terraform.
    assert_eq!(values(&ws, "kinds_thing.x")["token"], "secret-deploy");
    let state = std::fs::read_to_string(ws.config_dir().join("terraform.tfstate")).unwrap();
    assert_eq!(state.matches("secret-deploy").count(), 1, "{state}");
    assert!(!state.contains("lease-deploy"), "{state}");
    // Opened and closed, in the plan and in the apply, with the lease open kept.
    let log = lock(&cloud).log.clone();
    let opened = log.iter().filter(|l| *l == "open deploy").count();
    let closed = log.iter().filter(|l| *l == "close lease-deploy").count();
    assert!(opened >= 2 && closed == opened, "{log:?}");

    // A configuration the ephemeral resource's struct refuses, at its path.
    ws.configure(
        r#"
ephemeral "kinds_token" "t" {
  scope = "deploy"
  ttl   = 1.5
}
"#,
    );
    let run = ws.terraform(&["validate", "-no-color"]);
    run.expect_status(1);
    let said = words(&run.stderr);
    assert!(said.contains("Error: Invalid configuration"), "{said}");
    assert!(said.contains("ttl = 1.5"), "{said}");
    assert!(
        said.contains("expected u16 (an integer from 0 to 65535), found a fraction"),
        "{said}"
    );
}

#[test]
fn import_by_identity_with_ctywire_testing() {
    let cloud = Shared::default();
    let served = Arc::clone(&cloud);
    Test::new(ADDRESS, move || server(&served).plugin())
        .step(
            Step::config("resource \"kinds_thing\" \"x\" {\n  name = \"a\"\n  size = 3\n}\n")
                .state_check(StateCheck::known_value(
                    "kinds_thing.x",
                    "id",
                    Expect::string("t-1"),
                )),
        )
        // By the identity the state holds for it.
        .step(
            Step::import("kinds_thing.x")
                .import_by_identity()
                .import_state_verify()
                .state_check(StateCheck::known_value(
                    "kinds_thing.x",
                    "size",
                    Expect::int(3),
                )),
        )
        // By id: the identity comes with the state read after it.
        .step(
            Step::import("kinds_thing.x")
                .import_state_verify()
                .state_check(StateCheck::custom(|state| {
                    let r = state
                        .values
                        .as_ref()
                        .and_then(|v| v.resource("kinds_thing.x"));
                    match r.and_then(|r| r.identity.as_ref()).map(|i| i.as_str()) {
                        Some(r#"{"id":"t-1"}"#) => Ok(()),
                        other => Err(format!("identity after import by id: {other:?}")),
                    }
                })),
        )
        // By an identity given as in an `import` block.
        .step(
            Step::import("kinds_thing.x")
                .import_identity(serde_json::json!({"id": "t-1"}))
                .import_state_verify(),
        )
        // An identity that names nothing.
        .step(
            Step::import("kinds_thing.x")
                .import_identity(serde_json::json!({"id": "t-9"}))
                .expect_error("Cannot import non-existent remote object"),
        )
        .run();
}

#[test]
fn identity_is_stored_and_an_import_block_takes_it() {
    let Some((ws, _cloud)) = workspace() else {
        return;
    };
    ws.configure(r#"resource "kinds_thing" "x" { name = "a" }"#);
    ws.terraform(&["apply", "-auto-approve", "-input=false", "-no-color"])
        .success();
    let show = ws.terraform(&["show", "-json"]);
    show.success();
    let resource = show.json()["values"]["root_module"]["resources"][0].clone();
    assert_eq!(
        resource["identity"],
        serde_json::json!({"id": "t-1"}),
        "{resource}"
    );
    assert_eq!(resource["identity_schema_version"], 1, "{resource}");
    // The identity schema as Terraform reads it.
    let schema = ws.terraform(&["providers", "schema", "-json"]);
    schema.success();
    let schemas = schema.json();
    let provider = schemas["provider_schemas"]
        .as_object()
        .and_then(|p| p.values().next().cloned())
        .unwrap();
    assert_eq!(
        provider["resource_identity_schemas"]["kinds_thing"]["attributes"]["id"],
        serde_json::json!({"type": "string", "required_for_import": true}),
        "{provider}"
    );
    // An empty re-plan (identity kept by plan and read).
    ws.terraform(&["plan", "-detailed-exitcode", "-input=false", "-no-color"])
        .success();

    // An identity stored at version 0 is upgraded (UpgradeResourceIdentity).
    let path = ws.config_dir().join("terraform.tfstate");
    let mut state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let instance = &mut state["resources"][0]["instances"][0];
    instance["identity"] = serde_json::json!({"thing_id": "t-1"});
    instance["identity_schema_version"] = serde_json::json!(0);
    std::fs::write(&path, state.to_string()).unwrap();
    ws.terraform(&[
        "apply",
        "-refresh-only",
        "-auto-approve",
        "-input=false",
        "-no-color",
    ])
    .success();
    let show = ws.terraform(&["show", "-json"]);
    show.success();
    let resource = show.json()["values"]["root_module"]["resources"][0].clone();
    assert_eq!(
        resource["identity"],
        serde_json::json!({"id": "t-1"}),
        "{resource}"
    );
    assert_eq!(resource["identity_schema_version"], 1, "{resource}");

    // A second address for the same object, imported by an identity in HCL.
    ws.configure(
        r#"
resource "kinds_thing" "x" { name = "a" }
resource "kinds_thing" "y" { name = "a" }
import {
  to       = kinds_thing.y
  identity = { id = "t-1" }
}
"#,
    );
    let plan = ws.terraform(&["plan", "-input=false", "-no-color"]);
    plan.success();
    assert!(
        words(&plan.stdout).contains("Plan: 1 to import, 0 to add, 0 to change, 0 to destroy."),
        "{}",
        plan.stdout
    );
}

#[test]
fn a_moved_block_moves_an_object_across_resource_types() {
    let Some((ws, cloud)) = workspace() else {
        return;
    };
    ws.configure(r#"resource "kinds_other" "x" { label = "m" }"#);
    ws.terraform(&["apply", "-auto-approve", "-input=false", "-no-color"])
        .success();
    let id = values(&ws, "kinds_other.x")["id"].clone();
    assert_eq!(id, "t-1");

    ws.configure(
        r#"
resource "kinds_thing" "x" { name = "m" }
moved {
  from = kinds_other.x
  to   = kinds_thing.x
}
"#,
    );
    let apply = ws.terraform(&["apply", "-auto-approve", "-input=false", "-no-color"]);
    apply.success();
    let said = words(&apply.stdout);
    assert!(
        said.contains("kinds_other.x has moved to kinds_thing.x"),
        "{said}"
    );
    assert!(said.contains("0 added, 0 changed, 0 destroyed"), "{said}");
    let thing = values(&ws, "kinds_thing.x");
    assert_eq!(thing["id"], id, "{thing}");
    assert_eq!(thing["name"], "m", "{thing}");
    // The same object: nothing created or deleted since the first apply.
    assert_eq!(lock(&cloud).log, ["create t-1"]);
    ws.terraform(&["plan", "-detailed-exitcode", "-input=false", "-no-color"])
        .success();

    // A resource type that takes no moves says so.
    ws.configure(
        r#"
resource "kinds_other" "y" { label = "m" }
moved {
  from = kinds_thing.x
  to   = kinds_other.y
}
"#,
    );
    let plan = ws.terraform(&["plan", "-input=false", "-no-color"]);
    plan.expect_status(1);
    let said = words(&plan.stderr);
    assert!(
        said.contains("kinds_other does not take objects moved from resource type kinds_thing"),
        "{said}"
    );
}

#[test]
fn a_list_resource_answers_terraform_query() {
    let Some((ws, _cloud)) = workspace() else {
        return;
    };
    ws.configure(
        r#"
resource "kinds_thing" "apple" { name = "apple" }
resource "kinds_thing" "avocado" {
  name = "avocado"
  size = 2
}
resource "kinds_thing" "banana" { name = "banana" }
"#,
    );
    ws.terraform(&["apply", "-auto-approve", "-input=false", "-no-color"])
        .success();
    std::fs::write(
        ws.config_dir().join("things.tfquery.hcl"),
        r#"
list "kinds_thing" "a" {
  provider         = kinds
  include_resource = true
  config {
    prefix = "a"
  }
}

list "kinds_thing" "one" {
  provider = kinds
  limit    = 1
}
"#,
    )
    .unwrap();
    let query = ws.terraform(&["query", "-no-color"]);
    query.success();
    let said = words(&query.stdout);
    assert!(said.contains("thing apple"), "{said}");
    assert!(said.contains("thing avocado"), "{said}");

    let query = ws.terraform(&["query", "-json", "-no-color"]);
    query.success();
    let events: Vec<serde_json::Value> = query
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let found = |address: &str| -> Vec<serde_json::Value> {
        events
            .iter()
            .filter(|e| e["type"] == "list_resource_found")
            .map(|e| e["list_resource_found"].clone())
            .filter(|f| f["address"] == address)
            .collect()
    };
    // The things named a..., each with its identity and (asked for) its state.
    let mut a = found("list.kinds_thing.a");
    a.sort_by_key(|f| f["display_name"].to_string());
    let names: Vec<&str> = a
        .iter()
        .map(|f| f["display_name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["thing apple", "thing avocado"], "{}", query.stdout);
    let avocado = &a[1];
    assert_eq!(avocado["resource_object"]["size"], 2, "{}", query.stdout);
    let id = avocado["resource_object"]["id"].clone();
    assert_eq!(avocado["identity"], serde_json::json!({ "id": id }));
    // At most `limit`, and no state unless asked for.
    let one = found("list.kinds_thing.one");
    assert_eq!(one.len(), 1, "{}", query.stdout);
    assert!(one[0]["resource_object"].is_null(), "{}", query.stdout);

    // What a query found, as configuration and import blocks by identity.
    ws.terraform(&["query", "-no-color", "-generate-config-out=found.tf"])
        .success();
    let found = std::fs::read_to_string(ws.config_dir().join("found.tf")).unwrap();
    let found = words(&found);
    assert_eq!(found.matches("import {").count(), 3, "{found}");
    assert!(found.contains(r#"name = "avocado" size = 2"#), "{found}");
    assert!(found.contains("identity = { id = "), "{found}");
    // Planned, each is an import by identity of an object already there, unchanged.
    let plan = ws.terraform(&["plan", "-input=false", "-no-color"]);
    plan.success();
    assert!(
        words(&plan.stdout).contains("Plan: 3 to import, 0 to add, 0 to change, 0 to destroy."),
        "{}",
        plan.stdout
    );
}

#[test]
fn variadic_nullable_and_unknown_taking_functions() {
    let Some((ws, _cloud)) = workspace() else {
        return;
    };
    ws.configure(
        r#"
resource "kinds_thing" "x" { name = "a" }
output "joined" { value = provider::kinds::join("-", "a", "b", "c") }
output "joined_none" { value = provider::kinds::join("-") }
output "spread" { value = provider::kinds::join("+", ["x", "y"]...) }
output "sum" { value = provider::kinds::sum(1, 2, 3) }
output "or_default" { value = provider::kinds::or_default(null, "d") }
output "count" { value = provider::kinds::count([kinds_thing.x.id, "b"]) }
"#,
    );
    let plan = ws.terraform(&["plan", "-input=false", "-no-color"]);
    plan.success();
    // Called during plan with the unknown id: 2, where a function that does not take
    // unknowns would give "(known after apply)".
    assert!(
        words(&plan.stdout).contains("+ count = 2"),
        "{}",
        plan.stdout
    );
    ws.terraform(&["apply", "-auto-approve", "-input=false", "-no-color"])
        .success();
    let outputs = ws.terraform(&["output", "-json"]);
    outputs.success();
    let outputs = outputs.json();
    assert_eq!(outputs["joined"]["value"], "a-b-c");
    assert_eq!(outputs["joined_none"]["value"], "");
    assert_eq!(outputs["spread"]["value"], "x+y");
    assert_eq!(outputs["sum"]["value"], 6);
    assert_eq!(outputs["or_default"]["value"], "d");
    assert_eq!(outputs["count"]["value"], 2);

    // An argument out of a parameter's range: an error about that argument.
    ws.configure(r#"output "sum" { value = provider::kinds::sum(1, 2, 300) }"#);
    let plan = ws.terraform(&["plan", "-input=false", "-no-color"]);
    plan.expect_status(1);
    let said = words(&plan.stderr);
    assert!(
        said.contains(r#"Invalid value for "numbers" parameter: argument 3: expected u8 (an integer from 0 to 255), found 300"#),
        "{said}"
    );
    // A null where the parameter takes none: Terraform refuses it itself.
    ws.configure(r#"output "j" { value = provider::kinds::join(null, "a") }"#);
    let plan = ws.terraform(&["plan", "-input=false", "-no-color"]);
    plan.expect_status(1);
    let said = words(&plan.stderr);
    assert!(said.contains("separator"), "{said}");
}

// ---- the same provider called as Terraform calls it, without Terraform

mod service {
    use super::*;
    use ctywire::object::Object;
    use ctywire::Value;
    use ctywire_tfplugin::dynamic;
    use ctywire_tfplugin::tfplugin6::provider_server::Provider as Service;
    use ctywire_tfplugin::tfplugin6::*;
    use tonic::Request;

    use crate::common::{dv, import_with, raw_json};

    async fn configured(cloud: &Shared) -> Server<Kinds> {
        let s = server(cloud);
        let config = Value::object([("token", Value::from("tok"))]);
        crate::common::configure(&s, &config).await;
        s
    }

    async fn call(
        s: &Server<Kinds>,
        name: &str,
        arguments: Vec<DynamicValue>,
    ) -> call_function::Response {
        s.call_function(Request::new(call_function::Request {
            name: name.into(),
            arguments,
        }))
        .await
        .unwrap()
        .into_inner()
    }

    #[tokio::test]
    async fn function_parameters_say_what_their_types_take() {
        let s = server(&Shared::default());
        let functions = s
            .get_functions(Request::new(get_functions::Request {}))
            .await
            .unwrap()
            .into_inner()
            .functions;
        let join = &functions["join"];
        let flags = |p: &function::Parameter| {
            (
                p.name.clone(),
                String::from_utf8(p.r#type.clone()).unwrap(),
                p.allow_null_value,
                p.allow_unknown_values,
            )
        };
        assert_eq!(
            join.parameters.iter().map(flags).collect::<Vec<_>>(),
            [("separator".into(), r#""string""#.into(), false, false)]
        );
        assert_eq!(
            join.variadic_parameter.as_ref().map(flags),
            Some(("parts".into(), r#""string""#.into(), false, false))
        );
        let sum = &functions["sum"];
        assert!(sum.parameters.is_empty());
        assert_eq!(
            sum.variadic_parameter.as_ref().map(flags),
            Some(("numbers".into(), r#""number""#.into(), false, false))
        );
        let or_default = &functions["or_default"];
        assert_eq!(
            or_default.parameters.iter().map(flags).collect::<Vec<_>>(),
            [
                ("value".into(), r#""string""#.into(), true, false),
                ("default".into(), r#""string""#.into(), false, false)
            ]
        );
        assert!(or_default.variadic_parameter.is_none());
        // Known<...> holds null and unknown values.
        let count = &functions["count"];
        assert_eq!(
            count.parameters.iter().map(flags).collect::<Vec<_>>(),
            [("values".into(), r#"["list","string"]"#.into(), true, true)]
        );
    }

    #[tokio::test]
    async fn variadic_arguments_are_checked_each_at_its_position() {
        let s = server(&Shared::default());
        let n = |i: i64| dv(&Value::from(i), &ctywire::Type::Number);
        let text = |t: &str| dv(&Value::from(t), &ctywire::Type::String);
        let r = call(&s, "sum", vec![n(1), n(2), n(3)]).await;
        assert_eq!(
            dynamic::decode_object::<u32, _>(r.result.as_ref()).unwrap(),
            6
        );
        let r = call(&s, "sum", vec![]).await;
        assert_eq!(
            dynamic::decode_object::<u32, _>(r.result.as_ref()).unwrap(),
            0
        );
        let e = call(&s, "sum", vec![n(1), n(2), n(300)])
            .await
            .error
            .unwrap();
        assert_eq!(
            (e.text.as_str(), e.function_argument),
            (
                "argument 3: expected u8 (an integer from 0 to 255), found 300",
                Some(2)
            )
        );
        let r = call(&s, "join", vec![text("-"), text("a"), text("b")]).await;
        assert_eq!(
            dynamic::decode_object::<String, _>(r.result.as_ref()).unwrap(),
            "a-b"
        );
        // The positional parameters are not optional.
        let e = call(&s, "join", vec![]).await.error.unwrap();
        assert_eq!(e.text, "expected at least 1 arguments, got 0");
        let e = call(&s, "or_default", vec![text("a")]).await.error.unwrap();
        assert_eq!(e.text, "expected 2 arguments, got 1");
        // A null where the type takes one; an unknown where the type takes one.
        let r = call(
            &s,
            "or_default",
            vec![dv(&Value::Null, &ctywire::Type::String), text("d")],
        )
        .await;
        assert_eq!(
            dynamic::decode_object::<String, _>(r.result.as_ref()).unwrap(),
            "d"
        );
        let list = ctywire::Type::list(ctywire::Type::String);
        let r = call(&s, "count", vec![dv(&Value::unknown(), &list)]).await;
        let result = dynamic::decode(r.result.as_ref(), &ctywire::Type::Number).unwrap();
        assert!(result.is_unknown(), "{result:?}");
    }

    #[tokio::test]
    async fn only_what_the_provider_has_is_advertised() {
        let s = server(&Shared::default());
        let metadata = s
            .get_metadata(Request::new(get_metadata::Request {}))
            .await
            .unwrap()
            .into_inner();
        let ephemeral: Vec<String> = metadata
            .ephemeral_resources
            .into_iter()
            .map(|e| e.type_name)
            .collect();
        assert_eq!(ephemeral, ["kinds_token"]);
        let lists: Vec<String> = metadata
            .list_resources
            .into_iter()
            .map(|e| e.type_name)
            .collect();
        assert_eq!(lists, ["kinds_thing"]);
        let actions: Vec<String> = metadata.actions.into_iter().map(|e| e.type_name).collect();
        assert_eq!(actions, ["kinds_notify"]);
        assert!(metadata.server_capabilities.unwrap().move_resource_state);
        let schema = s
            .get_provider_schema(Request::new(get_provider_schema::Request {}))
            .await
            .unwrap()
            .into_inner();
        assert!(schema
            .ephemeral_resource_schemas
            .contains_key("kinds_token"));
        assert!(schema.list_resource_schemas.contains_key("kinds_thing"));
        assert!(schema.action_schemas.contains_key("kinds_notify"));
        let identities = s
            .get_resource_identity_schemas(Request::new(get_resource_identity_schemas::Request {}))
            .await
            .unwrap()
            .into_inner()
            .identity_schemas;
        let thing = &identities["kinds_thing"];
        assert_eq!(thing.version, 1);
        assert_eq!(thing.identity_attributes.len(), 1);
        let id = &thing.identity_attributes[0];
        assert!(id.name == "id" && id.required_for_import && !id.optional_for_import);
        assert_eq!(id.r#type, br#""string""#);

        // A provider without them advertises none of them.
        let plain = Server::new(Kinds {
            cloud: Shared::default(),
        })
        .resource(Others);
        let metadata = plain
            .get_metadata(Request::new(get_metadata::Request {}))
            .await
            .unwrap()
            .into_inner();
        assert!(metadata.ephemeral_resources.is_empty() && metadata.list_resources.is_empty());
        assert!(metadata.actions.is_empty());
        assert!(!metadata.server_capabilities.unwrap().move_resource_state);
        let identities = plain
            .get_resource_identity_schemas(Request::new(get_resource_identity_schemas::Request {}))
            .await
            .unwrap()
            .into_inner();
        assert!(identities.identity_schemas.is_empty());
    }

    #[tokio::test]
    async fn an_ephemeral_resource_keeps_its_private_data_through_renew_and_close() {
        let cloud = Shared::default();
        let s = configured(&cloud).await;
        let config = Value::object([
            ("scope", Value::from("ci")),
            ("ttl", Value::Null),
            ("value", Value::Null),
        ]);
        let opened = s
            .open_ephemeral_resource(Request::new(open_ephemeral_resource::Request {
                type_name: "kinds_token".into(),
                config: Some(dv(&config, &Token::cty_type())),
                ..Default::default()
            }))
            .await
            .unwrap()
            .into_inner();
        assert!(opened.diagnostics.is_empty(), "{:?}", opened.diagnostics);
        let result = dynamic::decode(opened.result.as_ref(), &Token::cty_type()).unwrap();
        assert_eq!(result["value"].as_str(), Some("secret-ci"));
        let renew_at = opened.renew_at.unwrap();
        let now = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        assert!((3500..=3700).contains(&(renew_at.seconds - i64::try_from(now).unwrap())));
        let renewed = s
            .renew_ephemeral_resource(Request::new(renew_ephemeral_resource::Request {
                type_name: "kinds_token".into(),
                private: opened.private,
            }))
            .await
            .unwrap()
            .into_inner();
        assert!(renewed.diagnostics.is_empty(), "{:?}", renewed.diagnostics);
        assert!(renewed.renew_at.is_none());
        let closed = s
            .close_ephemeral_resource(Request::new(close_ephemeral_resource::Request {
                type_name: "kinds_token".into(),
                private: renewed.private,
            }))
            .await
            .unwrap()
            .into_inner();
        assert!(closed.diagnostics.is_empty(), "{:?}", closed.diagnostics);
        assert_eq!(
            lock(&cloud).log,
            ["open ci", "renew lease-ci", "close lease-ci+"]
        );
        // Private data that is not the provider's: an error, not a panic.
        let closed = s
            .close_ephemeral_resource(Request::new(close_ephemeral_resource::Request {
                type_name: "kinds_token".into(),
                private: Some(vec![0xc1]),
            }))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(closed.diagnostics[0].summary, "Invalid private data");
    }

    async fn upgrade(
        s: &Server<Kinds>,
        version: i64,
        json: &str,
    ) -> upgrade_resource_identity::Response {
        s.upgrade_resource_identity(Request::new(upgrade_resource_identity::Request {
            type_name: "kinds_thing".into(),
            version,
            raw_identity: Some(raw_json(json)),
        }))
        .await
        .unwrap()
        .into_inner()
    }

    #[tokio::test]
    async fn identities_are_upgraded_from_their_stored_version() {
        let s = server(&Shared::default());
        let id_of = |r: &upgrade_resource_identity::Response| {
            let data = r
                .upgraded_identity
                .as_ref()
                .and_then(|i| i.identity_data.as_ref());
            dynamic::decode_object::<ThingIdentity, _>(data)
                .map(|i| i.id)
                .ok()
        };
        // The current version as it is; version 0 through upgrade_identity.
        let r = upgrade(&s, 1, r#"{"id": "t-7"}"#).await;
        assert_eq!(id_of(&r).as_deref(), Some("t-7"));
        let r = upgrade(&s, 0, r#"{"thing_id": "t-7"}"#).await;
        assert_eq!(id_of(&r).as_deref(), Some("t-7"), "{:?}", r.diagnostics);
        // A newer version, and a stored identity that is not of its version's shape.
        let r = upgrade(&s, 2, r#"{"id": "t-7"}"#).await;
        assert_eq!(r.diagnostics[0].summary, "Unsupported identity version");
        let r = upgrade(&s, 0, r#"{"id": "t-7"}"#).await;
        assert!(r.upgraded_identity.is_none());
        assert_eq!(r.diagnostics[0].summary, "Invalid stored state");
    }

    async fn create_thing(s: &Server<Kinds>, name: &str) -> apply_resource_change::Response {
        let planned = Value::object([
            ("name", Value::from(name)),
            ("size", Value::Null),
            ("id", Value::unknown()),
            ("token", Value::unknown()),
        ]);
        crate::common::apply::<Thing>(s, "kinds_thing", &Value::Null, &planned, &[]).await
    }

    #[tokio::test]
    async fn the_identity_goes_with_the_new_state_and_a_panic_in_it_is_a_diagnostic() {
        let s = configured(&Shared::default()).await;
        let r = create_thing(&s, "a").await;
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        let identity = r
            .new_identity
            .as_ref()
            .and_then(|i| i.identity_data.as_ref());
        let identity: ThingIdentity = dynamic::decode_object(identity).unwrap();
        assert_eq!(identity.id, "t-1");
        let r = create_thing(&s, "no identity").await;
        assert!(r.new_identity.is_none());
        assert_eq!(
            r.diagnostics[0].summary,
            "The provider panicked in identity of kinds_thing"
        );
    }

    #[tokio::test]
    async fn import_by_identity_reads_the_given_identity() {
        let cloud = Shared::default();
        let s = configured(&cloud).await;
        let identity = |id: &str| ResourceIdentityData {
            identity_data: Some(dv(
                &Value::object([("id", Value::from(id))]),
                &ThingIdentity::cty_type(),
            )),
        };
        let r = import_with(
            &s,
            import_resource_state::Request {
                type_name: "kinds_thing".into(),
                identity: Some(identity("t-5")),
                ..Default::default()
            },
        )
        .await;
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        let imported = &r.imported_resources[0];
        assert_eq!(imported.identity, Some(identity("t-5")));
        let state = dynamic::decode(imported.state.as_ref(), &Thing::cty_type()).unwrap();
        assert_eq!(state["id"].as_str(), Some("t-5"));
        assert!(state["name"].is_null());
        // An identity that is not the identity's type: an error, with its path.
        let r = import_with(
            &s,
            import_resource_state::Request {
                type_name: "kinds_thing".into(),
                identity: Some(ResourceIdentityData {
                    identity_data: Some(DynamicValue {
                        json: br#"{"id": 5, "other": true}"#.to_vec().into(),
                        ..Default::default()
                    }),
                }),
                ..Default::default()
            },
        )
        .await;
        assert!(r.imported_resources.is_empty());
        assert_eq!(r.diagnostics[0].summary, "Invalid identity");
        // A resource type without an identity wants an id.
        let r = import_with(
            &s,
            import_resource_state::Request {
                type_name: "kinds_other".into(),
                identity: Some(identity("t-5")),
                ..Default::default()
            },
        )
        .await;
        assert_eq!(
            r.diagnostics[0].detail,
            "kinds_other is imported by id (it has no identity), and the import gave none"
        );
    }
}

#[test]
fn an_action_runs_on_its_trigger_and_on_invoke() {
    let Some((ws, cloud)) = workspace() else {
        return;
    };
    let config = |message: &str| {
        format!(
            r#"
action "kinds_notify" "hello" {{
  config {{
    message = "{message}"
  }}
}}

resource "kinds_thing" "x" {{
  name = "a"
  lifecycle {{
    action_trigger {{
      events  = [after_create]
      actions = [action.kinds_notify.hello]
    }}
  }}
}}
"#
        )
    };
    ws.configure(&config("hi"));
    let apply = ws.terraform(&["apply", "-auto-approve", "-input=false", "-no-color"]);
    apply.success();
    assert!(
        words(&apply.stdout).contains("notified hi"),
        "{}",
        apply.stdout
    );
    assert_eq!(lock(&cloud).log, ["create t-1", "notify hi"]);

    let invoke = ws.terraform(&[
        "apply",
        "-invoke=action.kinds_notify.hello",
        "-auto-approve",
        "-input=false",
        "-no-color",
    ]);
    invoke.success();
    assert_eq!(lock(&cloud).log, ["create t-1", "notify hi", "notify hi"]);

    // An action that fails: its error, as Terraform shows it.
    ws.configure(&config("fail"));
    let invoke = ws.terraform(&[
        "apply",
        "-invoke=action.kinds_notify.hello",
        "-auto-approve",
        "-input=false",
        "-no-color",
    ]);
    invoke.expect_status(1);
    let said = words(&invoke.stderr);
    assert!(said.contains("Cannot notify"), "{said}");
    assert!(said.contains("the message is fail"), "{said}");
}

#[test]
fn an_ephemeral_token_is_renewed_while_the_run_lasts() {
    let Some((ws, cloud)) = workspace() else {
        return;
    };
    ws.configure(
        r#"
provider "kinds" {
  alias = "opener"
}

ephemeral "kinds_token" "t" {
  provider = kinds.opener
  scope    = "short"
}

provider "kinds" {
  token = ephemeral.kinds_token.t.value
}

resource "kinds_thing" "x" {
  name = "slow"
}
"#,
    );
    ws.terraform(&["apply", "-auto-approve", "-input=false", "-no-color"])
        .success();
    let log = lock(&cloud).log.clone();
    // Renewed with what open kept; Terraform 1.15.5 then closes with what open kept too
    // (not what the renewal returned, which only a next renewal would get).
    let renewed = log.iter().position(|l| l == "renew lease-short");
    let closed = log.iter().rposition(|l| l == "close lease-short");
    assert!(renewed.is_some() && closed > renewed, "{log:?}");
    assert!(!log.iter().any(|l| l == "close lease-short+"), "{log:?}");
}

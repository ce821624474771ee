//! Validation by declaration in each call that validates: ValidateProviderConfig,
//! ValidateResourceConfig, ValidateDataResourceConfig, ValidateEphemeralResourceConfig
//! and ValidateListResourceConfig, each refusal a diagnostic at its attribute's path (as
//! Terraform's AttributePath), never a failed call.

use ctywire::object::Object;
use ctywire::{Known, Value};
use ctywire_provider::{
    Context, DataSource, EphemeralResource, IdentifiedResource, ListResource, Listing, NoPrivate,
    Opened, Provider, Resource, ResourceIdentity, ResourceState, Result, Server,
};
use ctywire_tfplugin::dynamic;
use ctywire_tfplugin::path::path_from_proto;
use ctywire_tfplugin::tfplugin6::provider_server::Provider as Service;
use ctywire_tfplugin::tfplugin6::*;
use tonic::Request;

#[derive(ctywire::Object)]
struct Config {
    #[cty(optional, regex = "^https://")]
    endpoint: Option<String>,
}

struct P;

impl Provider for P {
    const TYPE_NAME: &'static str = "v";
    type Config = Config;
    type Data = ();

    async fn configure(&self, _: Config) -> Result<()> {
        Ok(())
    }
}

#[derive(ctywire::Object)]
struct Rule {
    #[cty(required, size(min = 1))]
    ports: std::collections::BTreeSet<u16>,
    #[cty(computed)]
    id: Known<String>,
}

struct Rules;

impl Resource<()> for Rules {
    const NAME: &'static str = "rule";
    type State = Rule;

    async fn create(&self, _: &Context<()>, r: Rule) -> Result<Rule> {
        Ok(r)
    }

    async fn update(&self, _: &Context<()>, _: Rule, r: Rule) -> Result<Rule> {
        Ok(r)
    }

    async fn delete(&self, _: &Context<()>, _: Rule) -> Result<()> {
        Ok(())
    }
}

#[derive(ctywire::Object)]
struct Lookup {
    #[cty(optional, at_least_one_of(id))]
    name: Option<String>,
    #[cty(optional, computed)]
    id: Known<String>,
}

struct Lookups;

impl DataSource<()> for Lookups {
    const NAME: &'static str = "lookup";
    type State = Lookup;

    async fn read(&self, _: &Context<()>, l: Lookup) -> Result<Lookup> {
        Ok(l)
    }
}

#[derive(ctywire::Object)]
struct RuleId {
    #[cty(required)]
    id: String,
}

impl IdentifiedResource<()> for Rules {
    type Identity = RuleId;

    fn identity(&self, _: &Context<()>, state: &Rule) -> RuleId {
        RuleId {
            id: format!("{:?}", state.id),
        }
    }
}

#[derive(ctywire::Object)]
struct RuleFilter {
    #[cty(optional, range(min = 1, max = 100))]
    limit_per_page: Option<u32>,
}

struct ListRules;

impl ListResource<()> for ListRules {
    type Resource = Rules;
    type Config = RuleFilter;

    async fn list(
        &self,
        _: &Context<()>,
        _: RuleFilter,
        _: &mut Listing<ResourceState<Self, ()>, ResourceIdentity<Self, ()>>,
    ) -> Result<()> {
        Ok(())
    }
}

#[derive(ctywire::Object)]
struct Token {
    #[cty(required, length(min = 3), one_of("read", "write"))]
    scope: String,
    #[cty(computed, sensitive)]
    value: Known<String>,
}

struct Tokens;

impl EphemeralResource<()> for Tokens {
    const NAME: &'static str = "token";
    type Object = Token;
    type Private = NoPrivate;

    async fn open(&self, _: &Context<()>, token: Token) -> Result<Opened<Token, NoPrivate>> {
        Ok(Opened::new(token))
    }
}

fn server() -> Server<P> {
    Server::new(P)
        .resource_with_list(Rules, ListRules)
        .data_source(Lookups)
        .ephemeral_resource(Tokens)
}

fn dv<T: Object>(value: &Value) -> DynamicValue {
    dynamic::encode(value, &T::cty_type()).unwrap()
}

/// Each diagnostic as `path: detail`.
fn said(diagnostics: &[Diagnostic]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| {
            let at = path_from_proto(d.attribute.as_ref().unwrap()).unwrap();
            format!("{at}: {}", d.detail)
        })
        .collect()
}

#[tokio::test]
async fn the_provider_block_is_validated() {
    let s = server();
    let validate = |endpoint: Value| {
        let s = &s;
        async move {
            let config = Value::object([("endpoint", endpoint)]);
            let r = s
                .validate_provider_config(Request::new(validate_provider_config::Request {
                    config: Some(dv::<Config>(&config)),
                }))
                .await
                .unwrap()
                .into_inner();
            said(&r.diagnostics)
        }
    };
    assert_eq!(
        validate(Value::from("http://x")).await,
        [".endpoint: The string must match the regular expression \"^https://\"."]
    );
    assert!(validate(Value::from("https://x")).await.is_empty());
    assert!(validate(Value::unknown()).await.is_empty());
}

#[tokio::test]
async fn resources_and_data_sources_are_validated() {
    let s = server();
    let rule = |ports: Value| Value::object([("ports", ports), ("id", Value::Null)]);
    let validate = |config: Value| {
        let s = &s;
        async move {
            let r = crate::common::validate(s, "v_rule", Some(dv::<Rule>(&config))).await;
            said(&r.diagnostics)
        }
    };
    assert_eq!(
        validate(rule(Value::set(Vec::<Value>::new()))).await,
        [".ports: The number of elements must be at least 1."]
    );
    // A set element is addressed by its value, as Terraform addresses it.
    assert_eq!(
        validate(rule(Value::set([Value::from(22), Value::from(70000)]))).await,
        [".ports[70000]: expected u16 (an integer from 0 to 65535), found a number out of that range"]
    );
    let r = s
        .validate_data_resource_config(Request::new(validate_data_resource_config::Request {
            type_name: "v_lookup".into(),
            config: Some(dv::<Lookup>(&Value::object([
                ("name", Value::Null),
                ("id", Value::Null),
            ]))),
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        said(&r.diagnostics),
        [".name: At least one of `name` or `id` must be set."]
    );
}

/// Ephemeral resources and list resources' `config` blocks take the same declarations.
#[tokio::test]
async fn ephemeral_and_list_configurations_are_validated() {
    let s = server();
    let token = Value::object([("scope", Value::from("admin")), ("value", Value::Null)]);
    let r = s
        .validate_ephemeral_resource_config(Request::new(
            validate_ephemeral_resource_config::Request {
                type_name: "v_token".into(),
                config: Some(dv::<Token>(&token)),
            },
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(said(&r.diagnostics).len(), 1, "{:?}", r.diagnostics);
    assert!(
        said(&r.diagnostics)[0].starts_with(".scope: "),
        "{:?}",
        r.diagnostics
    );
    let list = |limit: Value| {
        let s = &s;
        async move {
            let config = Value::object([("limit_per_page", limit)]);
            let r = s
                .validate_list_resource_config(Request::new(
                    validate_list_resource_config::Request {
                        type_name: "v_rule".into(),
                        config: Some(dv::<RuleFilter>(&config)),
                        ..Default::default()
                    },
                ))
                .await
                .unwrap()
                .into_inner();
            said(&r.diagnostics)
        }
    };
    let found = list(Value::from(500)).await;
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with(".limit_per_page: "), "{found:?}");
    assert!(list(Value::from(50)).await.is_empty());
    assert!(list(Value::unknown()).await.is_empty());
}

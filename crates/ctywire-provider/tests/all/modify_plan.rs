//! `Resource::modify_plan` through the service: it sees the default plan as the struct,
//! its edits and replacements are returned, its warnings shown, and an edit Terraform
//! would refuse is refused first, in Terraform's words.

use ctywire::object::Object;
use ctywire::{msgpack, Known, Path, Value};
use ctywire_provider::{Context, Error, Plan, Resource, Result, Server};
use ctywire_tfplugin::path::path_from_proto;
use ctywire_tfplugin::tfplugin6::provider_server::Provider as Service;
use ctywire_tfplugin::tfplugin6::*;

provider!(P, "m");

#[derive(ctywire::Object)]
struct Volume {
    #[cty(required)]
    name: String,
    #[cty(optional)]
    size: Option<u32>,
    #[cty(computed)]
    label: Known<String>,
}

struct Volumes;

impl Resource<()> for Volumes {
    const NAME: &'static str = "volume";
    type State = Volume;

    async fn modify_plan(&self, ctx: &Context<()>, plan: &mut Plan<Volume>) -> Result<()> {
        let mut planned = plan.planned()?;
        match planned.name.as_str() {
            // Known at plan time.
            "labelled" => planned.label = Known::Known(format!("vol-{}", planned.name)),
            // Changes what the configuration says: Terraform would refuse it.
            "rude" => planned.size = Some(99),
            "fail" => return Err(Error::new("No", "refused").at(Volume::path().name())),
            _ => {}
        }
        if let (Some(Some(prior)), Some(size)) = (plan.prior()?.map(|p| p.size), planned.size)
            && size < prior
        {
            plan.requires_replace(Volume::path().size());
            ctx.warn(
                "Shrinking",
                "a smaller volume is a new volume",
                Volume::path().size(),
            );
        }
        plan.set_planned(&planned)
    }

    async fn create(&self, _: &Context<()>, v: Volume) -> Result<Volume> {
        Ok(v)
    }

    async fn update(&self, _: &Context<()>, _: Volume, v: Volume) -> Result<Volume> {
        Ok(v)
    }

    async fn delete(&self, _: &Context<()>, _: Volume) -> Result<()> {
        Ok(())
    }
}

async fn configured() -> Server<P> {
    let s = Server::new(P).resource(Volumes);
    crate::common::configure(&s, &crate::common::empty()).await;
    s
}

fn volume(name: &str, size: i64, label: Value) -> Value {
    Value::object([
        ("name", Value::from(name)),
        ("size", Value::from(size)),
        ("label", label),
    ])
}

async fn plan(s: &Server<P>, prior: &Value, config: &Value) -> plan_resource_change::Response {
    crate::common::plan::<Volume>(s, "m_volume", prior, config).await
}

fn planned(r: &plan_resource_change::Response) -> Value {
    msgpack::decode(
        &r.planned_state.as_ref().unwrap().msgpack,
        &Volume::cty_type(),
    )
    .unwrap()
}

fn said(r: &plan_resource_change::Response) -> Vec<String> {
    r.diagnostics
        .iter()
        .map(|d| {
            let at = d
                .attribute
                .as_ref()
                .map(|a| path_from_proto(a).unwrap().to_string());
            format!("{}: {}: {}", at.unwrap_or_default(), d.summary, d.detail)
        })
        .collect()
}

#[tokio::test]
async fn edits_are_planned() {
    let s = configured().await;
    let r = plan(&s, &Value::Null, &volume("labelled", 1, Value::Null)).await;
    assert!(r.diagnostics.is_empty(), "{:?}", said(&r));
    assert_eq!(planned(&r)["label"].as_str(), Some("vol-labelled"));
    // Without an edit, the default plan: the computed label unknown.
    let r = plan(&s, &Value::Null, &volume("plain", 1, Value::Null)).await;
    assert!(planned(&r)["label"].is_unknown());
}

#[tokio::test]
async fn replacements_and_warnings_are_returned() {
    let s = configured().await;
    let prior = volume("a", 10, Value::from("x"));
    let r = plan(&s, &prior, &volume("a", 5, Value::Null)).await;
    let replace: Vec<Path> = r
        .requires_replace
        .iter()
        .map(|p| path_from_proto(p).unwrap())
        .collect();
    assert_eq!(replace, [Path::root().attribute("size")]);
    assert_eq!(
        said(&r),
        [".size: Shrinking: a smaller volume is a new volume"]
    );
    let r = plan(&s, &prior, &volume("a", 20, Value::Null)).await;
    assert!(r.requires_replace.is_empty() && r.diagnostics.is_empty());
}

#[tokio::test]
async fn a_plan_terraform_would_refuse_is_refused_first() {
    let s = configured().await;
    let r = plan(&s, &Value::Null, &volume("rude", 1, Value::Null)).await;
    assert!(r.planned_state.is_none());
    let text = said(&r);
    assert_eq!(text.len(), 1, "{text:?}");
    assert!(
        text[0].starts_with(".size: Provider produced invalid plan:"),
        "{text:?}"
    );
    let r = plan(&s, &Value::Null, &volume("fail", 1, Value::Null)).await;
    assert_eq!(said(&r), [".name: No: refused"]);
    assert!(r.planned_state.is_none());
}

#[tokio::test]
async fn a_destroy_plans_null_without_modify_plan() {
    let s = configured().await;
    // "fail" would make modify_plan refuse: it is not called for a destroy.
    let prior = volume("fail", 10, Value::from("x"));
    let ty = Volume::cty_type();
    let dv = |v: &Value| crate::common::dv(v, &ty);
    let r = Service::plan_resource_change(
        &s,
        tonic::Request::new(plan_resource_change::Request {
            type_name: "m_volume".into(),
            prior_state: Some(dv(&prior)),
            proposed_new_state: Some(dv(&Value::Null)),
            config: Some(dv(&Value::Null)),
            prior_private: b"{\"k\":1}".to_vec(),
            ..Default::default()
        }),
    )
    .await
    .unwrap()
    .into_inner();
    assert!(r.diagnostics.is_empty(), "{:?}", said(&r));
    assert!(planned(&r).is_null());
    assert!(r.requires_replace.is_empty());
    assert_eq!(r.planned_private, b"{\"k\":1}");
    // Terraform sends destroy plans only to a provider that asks for them.
    let metadata = Service::get_metadata(&s, tonic::Request::new(get_metadata::Request {}))
        .await
        .unwrap()
        .into_inner();
    assert!(metadata.server_capabilities.unwrap().plan_destroy);
}

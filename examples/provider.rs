//! A provider's resource, declared once: structs with `#[derive(ctywire::Object)]` give
//! the schema Terraform reads (`providers schema -json`), the cty type and the codecs;
//! the plan helpers driven by that schema do what every provider writes by hand.
//!
//! The resource is `cloud_server` of a provider `registry.terraform.io/example/cloud`.
//! This program plays both sides: Terraform (the configuration, the proposed new state,
//! the checks Terraform makes of each response) and the provider (`GetProviderSchema`,
//! `ValidateResourceConfig`, `PlanResourceChange`, `ApplyResourceChange`), from
//! MessagePack bytes to MessagePack bytes. It creates a server, updates it, and plans a
//! rename, which replaces it.
//!
//! Run it with `cargo run --example provider --features derive`.

use std::collections::BTreeMap;

use ctywire::object::Object;
use ctywire::render::{render_block, Options};
use ctywire::schema::{Block, ProviderSchema, ProviderSchemas, Schema};
use ctywire::{msgpack, Known, Number, Path, PathStep, Refinements, SetOf, Value};
use serde::{Deserialize, Serialize};

/// A virtual server.
#[derive(ctywire::Object, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Server {
    /// The server's name; changing it replaces the server.
    #[cty(required)]
    name: String,
    /// The machine size: `small` when left out.
    #[cty(optional, computed)]
    size: Known<String>,
    /// Processors, 1 to 64; the provider picks when left out.
    #[cty(optional, computed)]
    cpu_count: Known<u8>,
    #[cty(optional)]
    tags: Option<BTreeMap<String, String>>,
    /// The administrator's password.
    #[cty(optional, sensitive)]
    admin_password: Option<String>,
    /// Set by the provider when it creates the server.
    #[cty(computed)]
    id: Known<String>,
    /// `arn:cloud:server/` and the id.
    #[cty(computed)]
    arn: Known<String>,
    /// Changes on every update.
    #[cty(computed)]
    etag: Known<String>,
    /// Disks, in order (a LIST block).
    #[cty(block)]
    disk: Vec<Disk>,
    /// Firewall rules (a SET block: no order, no duplicates). A `SetOf` keeps go-cty's
    /// order and equality, where a `BTreeSet` would merge two rules that differ only by
    /// an unknown `id`.
    #[cty(block)]
    rule: SetOf<Rule>,
}

#[derive(ctywire::Object, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Disk {
    #[cty(required)]
    size_gb: u32,
    /// `ssd` when left out. A Rust keyword as an attribute name: serde's rename.
    #[serde(rename = "type")]
    #[cty(optional, computed)]
    kind: Known<String>,
    /// The device the disk is attached as, assigned at create.
    #[cty(computed)]
    device: Known<String>,
}

#[derive(ctywire::Object, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Rule {
    #[cty(required)]
    port: u16,
    /// Where from; anywhere when left out.
    #[cty(optional)]
    cidr: Option<String>,
    #[cty(computed)]
    id: Known<String>,
}

const PROVIDER: &str = "registry.terraform.io/example/cloud";
const RESOURCE: &str = "cloud_server";

// ---------------------------------------------------------------- the provider

/// `GetProviderSchema`: the schemas, from the structs.
fn provider_schemas() -> ProviderSchemas {
    let mut provider = ProviderSchema::default();
    provider
        .resource_schemas
        .insert(RESOURCE.into(), Schema::new(Server::schema_block()));
    let mut schemas = ProviderSchemas::default();
    schemas.providers.insert(PROVIDER.into(), provider);
    schemas
}

/// `ValidateResourceConfig`: a rule's `cidr` must be a CIDR block. A problem in a set
/// element is reported at the element, named by its value as Terraform names it.
fn validate_resource_config(config: &[u8]) -> Result<Vec<String>, ctywire::Error> {
    let server: Server = msgpack::decode_object(config)?;
    let mut problems = Vec::new();
    for rule in &server.rule {
        if rule.cidr.as_deref().is_some_and(|c| !c.contains('/')) {
            let element = ctywire::object::to_value(rule)?;
            let path = Path::root()
                .attribute("rule")
                .element(element)
                .attribute("cidr");
            problems.push(format!("{path}: not a CIDR block"));
        }
    }
    Ok(problems)
}

/// `PlanResourceChange`: Terraform's proposed new state, with the computed attributes
/// the configuration leaves out unknown (refined where the provider knows something),
/// the values that never change once set kept from the prior state, the defaults filled
/// in; and the paths whose change replaces the server.
fn plan_resource_change(
    block: &Block,
    prior: &[u8],
    config: &[u8],
    proposed: &[u8],
) -> Result<(Vec<u8>, Vec<Path>), ctywire::Error> {
    let ty = Server::cty_type();
    let prior = msgpack::decode(prior, &ty)?;
    let config = msgpack::decode(config, &ty)?;
    let proposed = msgpack::decode(proposed, &ty)?;

    let planned = block.mark_computed_unknown(&prior, &config, &proposed, |path| {
        let not_null = Refinements::new().not_null();
        match path.to_string().as_str() {
            ".id" => not_null,
            ".arn" => not_null.with_string_prefix("arn:cloud:server/"),
            ".cpu_count" => not_null
                .with_number_lower_bound(Number::from(1), true)
                .with_number_upper_bound(Number::from(64), true),
            _ => Refinements::new(),
        }
    });
    // terraform-plugin-framework's UseStateForUnknown: the id, the arn and each disk's
    // device stay what they are.
    let planned = block.keep_prior(&prior, &planned, |path| {
        let steps = path.steps();
        matches!(path.to_string().as_str(), ".id" | ".arn")
            || (steps.first() == Some(&PathStep::Attribute("disk".into()))
                && steps.last() == Some(&PathStep::Attribute("device".into())))
    });
    let mut defaults = vec![(Path::root().attribute("size"), Value::from("small"))];
    for i in 0..config["disk"].len().unwrap_or(0) {
        let kind = Path::root()
            .attribute("disk")
            .index(i as u64)
            .attribute("type");
        defaults.push((kind, Value::from("ssd")));
    }
    let planned = block.apply_defaults(&config, &planned, &defaults)?;
    let replace = block.requires_replace(&prior, &planned, &[Path::root().attribute("name")]);
    Ok((msgpack::encode(&planned, &ty)?, replace))
}

/// `ApplyResourceChange`: the planned state with every unknown made known, as the
/// cloud's API would answer.
fn apply_resource_change(planned: &[u8], prior: &[u8]) -> Result<Vec<u8>, ctywire::Error> {
    let mut server: Server = msgpack::decode_object(planned)?;
    // The prior state is null on a create.
    let prior: Option<Server> = msgpack::decode_as(prior, &Server::cty_type())?;
    let generation = prior
        .and_then(|p| p.etag.into_known())
        .and_then(|etag| etag.strip_prefix('v')?.parse::<u32>().ok())
        .map_or(1, |g| g + 1);
    let id = server
        .id
        .as_known()
        .cloned()
        .unwrap_or_else(|| format!("srv-{}", server.name));
    server.arn = Known::Known(format!("arn:cloud:server/{id}"));
    server.id = Known::Known(id);
    server.etag = Known::Known(format!("v{generation}"));
    if server.cpu_count.is_unknown() {
        server.cpu_count = Known::Known(2);
    }
    for (i, disk) in server.disk.iter_mut().enumerate() {
        if disk.device.is_unknown() {
            disk.device = Known::Known(format!("/dev/sd{}", char::from(b'b' + i as u8)));
        }
    }
    // A set's elements change by being replaced: each rule gets its id.
    server.rule = SetOf::new(
        std::mem::take(&mut server.rule)
            .into_iter()
            .map(|mut rule| {
                let from = rule.cidr.as_deref().unwrap_or("anywhere");
                rule.id = Known::Known(format!("rule-{}-{from}", rule.port));
                rule
            }),
    )?;
    msgpack::encode_object(&server)
}

// ---------------------------------------------------------------- Terraform's side

/// One plan (and apply, when asked) as Terraform runs them, with Terraform's checks of
/// both answers: the new state (the prior one when not applied) and the paths that
/// replace the server.
fn plan_and_apply(
    block: &Block,
    prior: &[u8],
    config: &Server,
    apply: bool,
) -> Result<(Vec<u8>, Vec<String>), Box<dyn std::error::Error>> {
    let ty = Server::cty_type();
    let config_bytes = msgpack::encode_object(config)?;
    let problems = validate_resource_config(&config_bytes)?;
    assert!(problems.is_empty(), "{problems:?}");
    let prior_value = msgpack::decode(prior, &ty)?;
    let config_value = msgpack::decode(&config_bytes, &ty)?;
    let proposed = block.proposed_new(&prior_value, &config_value);
    let proposed = msgpack::encode(&proposed, &ty)?;

    let (planned_bytes, replace) = plan_resource_change(block, prior, &config_bytes, &proposed)?;
    let planned = msgpack::decode(&planned_bytes, &ty)?;
    // What Terraform checks of a plan: nothing to complain about.
    let found = block.check_plan(&prior_value, &config_value, &planned);
    assert!(found.is_empty(), "{found:?}");
    let replace: Vec<String> = replace.iter().map(ToString::to_string).collect();
    println!(
        "## planned ({} bytes), replace: {replace:?}",
        planned_bytes.len()
    );
    let options = Options::new().sensitive(block.sensitive_paths(&planned));
    println!("{}", render_block(&planned, block, &options));
    if !apply {
        return Ok((prior.to_vec(), replace));
    }

    let new_bytes = apply_resource_change(&planned_bytes, prior)?;
    let new = msgpack::decode(&new_bytes, &ty)?;
    // What Terraform checks after apply: all known, and what was planned kept.
    let found = block.check_apply(&planned, &new);
    assert!(found.is_empty(), "{found:?}");
    println!("## applied ({} bytes)", new_bytes.len());
    println!("{}", render_block(&new, block, &options));
    Ok((new_bytes, replace))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // GetProviderSchema: what `terraform providers schema -json` prints.
    let schemas = provider_schemas();
    let json = schemas.to_json();
    println!(
        "## providers schema -json\n{}\n",
        String::from_utf8_lossy(&json)
    );
    let read = ProviderSchemas::from_json(&json)?;
    let block = &read.resource(RESOURCE)?.block;
    assert_eq!(*block, Server::schema_block());

    let mut config = Server {
        name: "web-1".into(),
        size: Known::Null,
        cpu_count: Known::Null,
        tags: Some(BTreeMap::from([("env".into(), "prod".into())])),
        admin_password: Some("correct horse".into()),
        id: Known::Null,
        arn: Known::Null,
        etag: Known::Null,
        disk: vec![Disk {
            size_gb: 100,
            kind: Known::Null,
            device: Known::Null,
        }],
        rule: SetOf::new([
            Rule {
                port: 443,
                cidr: None,
                id: Known::Null,
            },
            Rule {
                port: 22,
                cidr: Some("10.0.0.0/8".into()),
                id: Known::Null,
            },
        ])?,
    };

    // A configuration the provider refuses: the problem named at the set element.
    let mut wrong = config.clone();
    wrong.rule.insert(Rule {
        port: 80,
        cidr: Some("10.0.0.1".into()),
        id: Known::Null,
    })?;
    let problems = validate_resource_config(&msgpack::encode_object(&wrong)?)?;
    println!("## ValidateResourceConfig of a wrong configuration\n{problems:?}\n");
    assert_eq!(problems, [".rule[...].cidr: not a CIDR block"]);

    let null_state = msgpack::encode(&Value::Null, &Server::cty_type())?;
    println!("# create");
    let (state, _) = plan_and_apply(block, &null_state, &config, true)?;

    println!("# update: more processors, a second disk");
    config.cpu_count = Known::Known(4);
    config.disk.push(Disk {
        size_gb: 20,
        kind: Known::Known("hdd".into()),
        device: Known::Null,
    });
    let (state, replace) = plan_and_apply(block, &state, &config, true)?;
    assert!(replace.is_empty());
    let server: Server = msgpack::decode_object(&state)?;
    assert_eq!(server.id, Known::Known("srv-web-1".into()));
    assert_eq!(server.etag, Known::Known("v2".into()));
    assert_eq!(server.disk[0].device, Known::Known("/dev/sdb".into()));
    assert_eq!(server.disk[1].device, Known::Known("/dev/sdc".into()));

    println!("# a rename: planned, not applied (it replaces the server)");
    config.name = "web-2".into();
    let (_, replace) = plan_and_apply(block, &state, &config, false)?;
    assert_eq!(replace, [".name"]);
    Ok(())
}

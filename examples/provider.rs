//! A provider's PlanResourceChange, on ctywire alone: the resource's structs, with
//! `Known<T>` where Terraform may send an unknown, from MessagePack bytes to MessagePack
//! bytes.
//!
//! The resource is `cloud_instance` of the example provider (`examples/schema/`). The
//! plan keeps what the configuration says, keeps the prior state's values of the
//! computed attributes that never change once set (`id`, `arn`), and leaves the others
//! unknown, refined where the provider knows something already: `id` is not null, `arn`
//! starts with `arn:cloud:instance/`.
//!
//! Run it with `cargo run --example provider`; it plans the update of the instance in
//! `examples/payloads/cloud_instance.state.msgpack` to the configuration in
//! `cloud_instance.config.msgpack`, then the creation of a new one, and prints both
//! planned values as `ctywire show` would.

use std::collections::BTreeMap;

use ctywire::render::{render_block, Options};
use ctywire::{msgpack, Known, Number, ProviderSchemas, Refinements, Type, Value};
use serde::{Deserialize, Serialize};

/// The resource's attributes and blocks, one field each (serde's `rename` for names
/// that are Rust keywords). `Known<T>` where a value may be unknown in a plan; `Value`
/// for the `dynamic` attribute and the blocks whose type holds `dynamic`, which keep
/// their concrete types that way.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Instance {
    admin_password: Known<String>,
    arn: Known<String>,
    boot_disk: Known<BootDisk>,
    cpu_count: Known<u32>,
    hostname: Known<String>,
    id: Known<String>,
    image_id: Known<String>,
    instance_type: Known<String>,
    launch_settings: Known<LaunchSettings>,
    metadata: Value,
    name: Known<String>,
    network_interfaces: Known<Vec<NetworkInterface>>,
    ports: Known<Vec<Port>>,
    private_ip: Known<String>,
    security_group_ids: Known<Vec<String>>,
    tags: Known<BTreeMap<String, Known<String>>>,
    tags_all: Known<BTreeMap<String, Known<String>>>,
    user_data: Known<String>,
    volumes: Known<BTreeMap<String, Volume>>,
    // Blocks: LIST, SET and MAP blocks are collections (never null); a SINGLE block
    // may be null; a GROUP block is always there.
    disk: Known<Vec<Disk>>,
    extension: Value,
    ingress: Known<Vec<Ingress>>,
    label: Known<BTreeMap<String, Label>>,
    monitoring: Monitoring,
    pipeline: Value,
    plugin: Value,
    timeouts: Known<Timeouts>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct BootDisk {
    encrypted: Known<bool>,
    size_gb: Known<u32>,
    #[serde(rename = "type")]
    kind: Known<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct LaunchSettings {
    mode: Known<String>,
    retries: Known<u8>,
    spot: Known<bool>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct NetworkInterface {
    private_ip: Known<String>,
    public_ip: Known<String>,
    subnet_id: Known<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Port {
    port: Known<u16>,
    protocol: Known<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Volume {
    iops: Known<i64>,
    kms_key_id: Known<String>,
    size_gb: Known<u32>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Disk {
    device_name: Known<String>,
    size_gb: Known<u32>,
    snapshot_id: Known<String>,
    volume_type: Known<String>,
    encryption: Known<Encryption>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Encryption {
    kms_key_id: Known<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Ingress {
    cidr_blocks: Known<Vec<Known<String>>>,
    description: Known<String>,
    from_port: Known<u16>,
    protocol: Known<String>,
    to_port: Known<u16>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Label {
    propagate: Known<bool>,
    value: Known<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Monitoring {
    enabled: Known<bool>,
    interval_seconds: Known<u32>,
    alarm: Known<Vec<Alarm>>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Alarm {
    name: Known<String>,
    // A `Number`, not an `f64`: the state holds "0.95" as decimal text, which an `f64`
    // would write back as a float64.
    threshold: Known<Number>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Timeouts {
    create: Known<String>,
    delete: Known<String>,
}

/// PlanResourceChange's value logic: the proposed new state (here, simply the
/// configuration) with the computed attributes filled in from the prior state or left
/// unknown.
fn plan(config: Instance, prior: Option<&Instance>) -> Instance {
    let prior = |f: fn(&Instance) -> &Known<String>| prior.map_or(Known::Null, |p| f(p).clone());
    // A computed attribute the configuration leaves out is unknown until apply.
    let computed = |v: Known<String>| if v.is_null() { Known::unknown() } else { v };
    Instance {
        // Never changes once set: the prior value, or unknown, refined.
        id: Known::Unknown(Refinements::new().not_null()).or_prior(prior(|p| &p.id)),
        arn: Known::Unknown(
            Refinements::new()
                .not_null()
                .with_string_prefix("arn:cloud:instance/"),
        )
        .or_prior(prior(|p| &p.arn)),
        private_ip: Known::unknown().or_prior(prior(|p| &p.private_ip)),
        instance_type: computed(config.instance_type.clone()),
        // Optional and computed: the provider picks a count between 1 and 64.
        cpu_count: match config.cpu_count {
            Known::Null => Known::Unknown(
                Refinements::new()
                    .not_null()
                    .with_number_lower_bound(Number::from(1), true)
                    .with_number_upper_bound(Number::from(64), true),
            ),
            given => given,
        },
        // Write-only: never in a plan.
        admin_password: Known::Null,
        tags_all: config.tags.clone(),
        ..config
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
    let schemas =
        ProviderSchemas::from_json(&std::fs::read(format!("{dir}/schema/provider.json"))?)?;
    let block = &schemas.resource("cloud_instance")?.block;
    let ty: Type = block.implied_type();

    let config_bytes = std::fs::read(format!("{dir}/payloads/cloud_instance.config.msgpack"))?;
    let prior_bytes = std::fs::read(format!("{dir}/payloads/cloud_instance.state.msgpack"))?;

    // Bytes in: straight into the structs, no Value tree in between.
    let config: Instance = msgpack::decode_as(&config_bytes, &ty)?;
    let prior: Instance = msgpack::decode_as(&prior_bytes, &ty)?;
    // Decoded structs write back exactly the bytes they came from.
    assert_eq!(msgpack::encode_from(&prior, &ty)?, prior_bytes);

    for (what, prior) in [("update", Some(&prior)), ("create", None)] {
        let planned = plan(config.clone(), prior);
        // Bytes out: what PlanResourceChange returns.
        let planned_bytes = msgpack::encode_from(&planned, &ty)?;
        let value = msgpack::decode(&planned_bytes, &ty)?;
        assert_eq!(value["id"].is_unknown(), prior.is_none());
        println!("# {what}: {} bytes of planned state", planned_bytes.len());
        let options = Options::new().sensitive(block.sensitive_paths(&value));
        println!("{}", render_block(&value, block, &options));
    }
    Ok(())
}

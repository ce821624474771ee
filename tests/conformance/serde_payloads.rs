//! The serde bridge on the example provider's payloads (`examples/payloads/`, written by
//! go-cty): decoded into a provider's structs and encoded from them, every payload comes
//! back byte for byte, in MessagePack and in JSON, and agrees with the value decoder.

use std::collections::BTreeMap;

use ctywire::serde::{from_value, to_value};
use ctywire::{json, msgpack, Known, Number, ProviderSchemas, Type, Value};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// `cloud_instance`, with `Known` wherever a configuration or a plan may hold an
/// unknown, `Number` for numbers (which keeps decimal text and float64s apart, as the
/// bytes do), and `Value` for what is `dynamic`.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Instance {
    admin_password: Known<String>,
    arn: Known<String>,
    boot_disk: Known<BootDisk>,
    cpu_count: Known<Number>,
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
    security_group_ids: Known<Vec<Known<String>>>,
    tags: Known<BTreeMap<String, Known<String>>>,
    tags_all: Known<BTreeMap<String, Known<String>>>,
    user_data: Known<String>,
    volumes: Known<BTreeMap<String, Known<Volume>>>,
    disk: Known<Vec<Known<Disk>>>,
    extension: Value,
    ingress: Known<Vec<Known<Ingress>>>,
    label: Known<BTreeMap<String, Known<Label>>>,
    monitoring: Known<Monitoring>,
    pipeline: Value,
    plugin: Value,
    timeouts: Known<Timeouts>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct BootDisk {
    encrypted: Known<bool>,
    size_gb: Known<Number>,
    #[serde(rename = "type")]
    kind: Known<String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct LaunchSettings {
    mode: Known<String>,
    retries: Known<Number>,
    spot: Known<bool>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct NetworkInterface {
    private_ip: Known<String>,
    public_ip: Known<String>,
    subnet_id: Known<String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Port {
    port: Known<Number>,
    protocol: Known<String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Volume {
    iops: Known<Number>,
    kms_key_id: Known<String>,
    size_gb: Known<Number>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Disk {
    device_name: Known<String>,
    encryption: Known<Encryption>,
    size_gb: Known<Number>,
    snapshot_id: Known<String>,
    volume_type: Known<String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Encryption {
    kms_key_id: Known<String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Ingress {
    cidr_blocks: Known<Vec<Known<String>>>,
    description: Known<String>,
    from_port: Known<Number>,
    protocol: Known<String>,
    to_port: Known<Number>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Label {
    propagate: Known<bool>,
    value: Known<String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Monitoring {
    alarm: Known<Vec<Known<Alarm>>>,
    enabled: Known<bool>,
    interval_seconds: Known<Number>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Alarm {
    name: Known<String>,
    threshold: Known<Number>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Timeouts {
    create: Known<String>,
    delete: Known<String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Bucket {
    force_destroy: Option<bool>,
    id: Known<String>,
    name: String,
    lifecycle_rule: Vec<LifecycleRule>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct LifecycleRule {
    expire_days: Option<u32>,
    prefix: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Image {
    architectures: Option<Vec<String>>,
    id: Known<String>,
    image_id: Known<String>,
    most_recent: Option<bool>,
    name_regex: Option<String>,
    tags: Option<BTreeMap<String, String>>,
    filter: Vec<Filter>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Eq, Hash)]
struct Filter {
    name: String,
    values: Vec<String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct ProviderConfig {
    endpoint: Option<String>,
    max_retries: Option<u8>,
    region: Option<String>,
    token: Option<String>,
    assume_role: Vec<AssumeRole>,
    default_tags: Option<DefaultTags>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct AssumeRole {
    external_id: Option<String>,
    role_arn: Option<String>,
    session_name: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct DefaultTags {
    tags: Option<BTreeMap<String, String>>,
}

fn dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

fn schemas() -> ProviderSchemas {
    let text = std::fs::read(dir().join("schema/provider.json")).unwrap();
    ProviderSchemas::from_json(&text).unwrap()
}

/// Checks one payload file (and its JSON twin, when there is one) into and out of `T`.
fn check<T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug>(name: &str, ty: &Type) {
    let path = dir().join("payloads").join(format!("{name}.msgpack"));
    let bytes = std::fs::read(&path).unwrap();
    let decoded: T = msgpack::decode_as(&bytes, ty).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(msgpack::encode_from(&decoded, ty).unwrap(), bytes, "{name}");
    let value = msgpack::decode(&bytes, ty).unwrap();
    assert_eq!(to_value(&decoded, ty).unwrap(), value, "{name}");
    assert_eq!(from_value::<T>(&value, ty).unwrap(), decoded, "{name}");
    let json_path = path.with_extension("json");
    if let Ok(text) = std::fs::read(&json_path) {
        let from_json: T = json::decode_as(&text, ty).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(from_json, decoded, "{name}");
        assert_eq!(
            json::encode_from(&from_json, ty).unwrap(),
            text,
            "{name}.json"
        );
    }
}

#[test]
fn cloud_instance_payloads() {
    let schemas = schemas();
    let ty = schemas
        .resource("cloud_instance")
        .unwrap()
        .block
        .implied_type();
    for name in [
        "config",
        "config-unknown",
        "planned",
        "planned-refined",
        "state",
        "empty",
    ] {
        check::<Instance>(&format!("cloud_instance.{name}"), &ty);
    }
}

#[test]
fn other_payloads() {
    let schemas = schemas();
    let ty = schemas
        .resource("cloud_bucket")
        .unwrap()
        .block
        .implied_type();
    check::<Bucket>("cloud_bucket.config", &ty);
    let ty = schemas
        .data_source("cloud_image")
        .unwrap()
        .block
        .implied_type();
    check::<Image>("cloud_image.config", &ty);
    let ty = schemas.provider("cloud").unwrap().block.implied_type();
    check::<ProviderConfig>("provider.config", &ty);
}

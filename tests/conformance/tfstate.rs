//! Terraform's state files (format version 4), as Terraform 1.15.5 wrote them with the
//! demo provider (`tests/data/tfstate/README.md`): every instance read with the provider's
//! schema and written back in `show -json`'s representation is what `terraform show
//! -json` printed for it (values, sensitivity, identity, outputs), the legacy flatmap
//! form included; and the file's own parts (private data, status, dependencies, exact
//! numbers, sensitive paths) read as written.

use std::path::PathBuf;

use ctywire::schema::ProviderSchemas;
use ctywire::tfjson::{self, InstanceKey, State, StateFile};
use ctywire::{ErrorKind, Path, Type};
use serde_json::Value as Json;

fn data(name: &str) -> Vec<u8> {
    let full = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/tfstate")
        .join(name);
    std::fs::read(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

fn schemas() -> ProviderSchemas {
    ProviderSchemas::from_json(&data("schema.json")).unwrap()
}

fn json(text: &str) -> Json {
    serde_json::from_str(text).unwrap()
}

/// Each instance of `file`, typed by the schema and written as `show -json` writes
/// values, against `show`'s resource of the same address; returns how many matched,
/// and how many of them had an identity.
fn matches_show(file: &str, show: &str) -> (usize, usize) {
    let schemas = schemas();
    let state = StateFile::from_json(&data(file)).unwrap();
    let shown = State::from_json(&data(show)).unwrap();
    let values = shown.values.as_ref().unwrap();
    let mut matched = 0;
    let mut identities = 0;
    for resource in &state.resources {
        let found = resource.find_schema(&schemas).unwrap();
        let ty = found.schema.implied_type();
        for instance in &resource.instances {
            let address = resource.instance_address(instance);
            let expected = values
                .resource(&address)
                .unwrap_or_else(|| panic!("{file}: {address} is not in {show}"));
            assert_eq!(expected.mode, resource.mode, "{address}");
            assert_eq!(expected.index, instance.index_key, "{address}");
            assert_eq!(expected.tainted, instance.is_tainted(), "{address}");
            assert_eq!(expected.schema_version, Some(instance.schema_version));
            let value = instance.typed_attributes_with(found.schema).unwrap();
            let written = tfjson::to_json_value(&value, &ty).unwrap().unwrap();
            assert_eq!(
                json(written.as_str()),
                json(expected.values.as_ref().unwrap().as_str()),
                "{file}: {address}"
            );
            let sensitive = instance.sensitive_paths(&ty);
            assert_eq!(
                tfjson::sensitive_tree(&sensitive, &value, &ty),
                *expected.sensitive_values.as_ref().unwrap(),
                "{file}: {address}"
            );
            if let Ok(identity) = resource.find_identity_schema(&schemas) {
                let ity = identity.schema.implied_type();
                assert_eq!(
                    instance.typed_identity(&ity).unwrap(),
                    expected.typed_identity(&ity).unwrap(),
                    "{address}"
                );
                identities += usize::from(instance.identity.is_some());
            }
            matched += 1;
        }
    }
    for (name, output) in &state.outputs {
        let expected = &values.outputs[name];
        assert_eq!(output.sensitive, expected.sensitive, "output {name}");
        assert_eq!(
            output.typed_value().unwrap(),
            expected.typed_value().unwrap(),
            "output {name}"
        );
    }
    assert_eq!(state.outputs.len(), values.outputs.len());
    assert_eq!(values.resources().count(), matched);
    (matched, identities)
}

#[test]
fn every_instance_reads_as_terraform_shows_it() {
    assert_eq!(
        matches_show("terraform.tfstate", "terraform.show.json"),
        (7, 6)
    );
}

#[test]
fn flatmap_instances_read_as_terraform_shows_them() {
    assert_eq!(matches_show("legacy.tfstate", "legacy.show.json"), (3, 2));
    let state = StateFile::from_json(&data("legacy.tfstate")).unwrap();
    let (_, old) = state.instance("demo_old_thing.old").unwrap();
    assert!(old.attributes.is_none());
    assert_eq!(old.attributes_flat.as_ref().unwrap()["tags.a.b"], "dotted");
}

#[test]
fn the_files_own_parts_read_as_written() {
    let state = StateFile::from_json(&data("terraform.tfstate")).unwrap();
    assert_eq!(state.version, 4);
    assert_eq!(state.terraform_version.as_deref(), Some("1.15.5"));
    assert_eq!(state.serial, Some(8));
    assert_eq!(
        state.lineage.as_deref(),
        Some("ce3262db-b642-0cbf-b0ab-2ef6b0326ec3")
    );
    let addresses: Vec<String> = state.instances().map(|(a, _)| a).collect();
    assert_eq!(
        addresses,
        [
            "data.demo_echo.e",
            "demo_thing.counted[0]",
            "demo_thing.counted[1]",
            r#"demo_thing.each["k.2"]"#,
            r#"demo_thing.each["k1"]"#,
            "demo_thing.x",
            "module.child.demo_thing.m",
        ]
    );
    let (resource, counted) = state.instance("demo_thing.counted[1]").unwrap();
    assert_eq!(resource.provider_source(), Some("example.com/ctywire/demo"));
    assert_eq!(counted.index_key, Some(InstanceKey::Int(1)));
    let schemas = schemas();
    let schema = resource.find_schema(&schemas).unwrap().schema;
    let value = counted.typed_attributes_with(schema).unwrap();
    // Exact, not the nearest float64.
    assert_eq!(
        value["size"].as_number().unwrap().to_string(),
        "12345678901234567890.5"
    );
    assert_eq!(
        counted.sensitive_attributes,
        [Path::root().attribute("secret")]
    );
    let sizes = state.outputs["sizes"].typed_value().unwrap();
    assert_eq!(
        sizes[1].as_number().unwrap().to_string(),
        "12345678901234567890.5"
    );
    assert!(state.outputs["secret"].sensitive);

    // `dynamic` attributes keep the type the file records.
    let (_, x) = state.instance("demo_thing.x").unwrap();
    let x = x.typed_attributes_with(schema).unwrap();
    assert_eq!(
        x["extra"].recorded_type(),
        Some(
            &"object({k=tuple([number,number]), on=bool})"
                .parse::<Type>()
                .unwrap()
        )
    );

    let legacy = StateFile::from_json(&data("legacy.tfstate")).unwrap();
    let (_, old) = legacy.instance("demo_old_thing.old").unwrap();
    assert_eq!(
        old.private_bytes().unwrap().as_deref(),
        Some(&br#"{"schema_version":"0"}"#[..])
    );
    let (_, fresh) = legacy.instance("demo_thing.fresh").unwrap();
    assert!(fresh.is_tainted());
    assert_eq!(fresh.private_bytes().unwrap(), None);
    let (_, dep) = legacy.instance("demo_thing.dep").unwrap();
    assert_eq!(dep.dependencies, ["demo_thing.fresh"]);
}

#[test]
fn an_object_at_another_schema_version_is_refused() {
    let state = StateFile::from_json(&data("pending-upgrade.tfstate")).unwrap();
    let (resource, old) = state.instance("demo_thing.old").unwrap();
    let schemas = schemas();
    let schema = resource.find_schema(&schemas).unwrap().schema;
    let err = old.typed_attributes_with(schema).unwrap_err();
    assert_eq!(
        err.message(),
        "the object is at schema version 0 and the schema at 1: the provider upgrades it \
         first (a plan, or terraform apply -refresh-only, does)"
    );
}

#[test]
fn paths_steps_and_versions() {
    let file = |instance: &str| {
        format!(
            r#"{{"version": 4, "resources": [{{"mode": "managed", "type": "t", "name": "n",
              "provider": "module.m.provider[\"registry.terraform.io/hashicorp/aws\"].west",
              "module": "module.m", "instances": [{instance}]}}]}}"#
        )
    };
    let state = StateFile::from_json(
        file(
            r#"{"schema_version": 0, "deposed": "00aa11bb", "index_key": "k",
               "attributes": {"tags": {"a": "x"}, "disk": [{"key": "k"}], "ids": ["p"]},
               "sensitive_attributes": [
                 [{"type": "get_attr", "value": "tags"}, {"type": "index", "value": {"value": "a", "type": "string"}}],
                 [{"type": "get_attr", "value": "disk"}, {"type": "index", "value": {"value": 0, "type": "number"}}, {"type": "get_attr", "value": "key"}]
               ]}"#,
        )
        .as_bytes(),
    )
    .unwrap();
    let resource = &state.resources[0];
    assert_eq!(
        resource.provider_source(),
        Some("registry.terraform.io/hashicorp/aws")
    );
    let (address, instance) = state.instances().next().unwrap();
    assert_eq!(address, r#"module.m.t.n["k"]"#);
    assert!(state.instance(&address).is_none(), "only a deposed object");
    assert!(state.object(&address, Some("00aa11bb")).is_some());
    let ty: Type = "object({tags=map(string), disk=list(object({key=string})), ids=set(string)})"
        .parse()
        .unwrap();
    let paths: Vec<String> = instance
        .sensitive_paths(&ty)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(paths, [r#".tags["a"]"#, ".disk[0].key"]);
    assert!(instance.typed_attributes(&ty).is_ok());

    // A sensitive path the value does not have is an error, not a mark lost.
    let ty: Type = "object({tags=map(string), disk=list(object({key=string})), ids=set(string)})"
        .parse()
        .unwrap();
    let missing = StateFile::from_json(
        file(r#"{"schema_version": 0, "attributes": {"tags": {}, "disk": [], "ids": null},
                 "sensitive_attributes": [[{"type": "get_attr", "value": "disk"}, {"type": "index", "value": {"value": 0, "type": "number"}}]]}"#)
        .as_bytes(),
    )
    .unwrap();
    let err = missing.resources[0].instances[0]
        .typed_attributes(&ty)
        .unwrap_err();
    assert!(err.message().contains(".disk[0]"), "{err}");

    // Terraform 0.12's provider addresses.
    let legacy = StateFile::from_json(
        br#"{"version": 4, "resources": [{"mode": "data", "type": "aws_ami", "name": "u",
             "provider": "provider.aws.west", "instances": []}]}"#,
    )
    .unwrap();
    assert_eq!(legacy.resources[0].provider_source(), Some("aws"));
    assert_eq!(legacy.resources[0].address(), "data.aws_ami.u");

    // Not a version 4 state file.
    for (text, message) in [
        (&b"{}"[..], "not a state file: it has no \"version\""),
        (
            br#"{"version": 3, "modules": []}"#,
            "state file format version 3: this crate reads version 4 (Terraform 0.12 and later upgrade it when they next write it)",
        ),
        (
            br#"{"format_version": "1.0", "values": {}}"#,
            "not a state file: it has no \"version\"",
        ),
    ] {
        let err = StateFile::from_json(text).unwrap_err();
        assert_eq!(err.message(), message);
        assert_eq!(err.kind(), ErrorKind::InvalidValue);
    }
    // A broken private field and a bad path step.
    let bad =
        StateFile::from_json(file(r#"{"schema_version": 0, "private": "*"}"#).as_bytes()).unwrap();
    assert!(bad.resources[0].instances[0].private_bytes().is_err());
    assert!(StateFile::from_json(
        file(r#"{"schema_version": 0, "sensitive_attributes": [[{"type": "nope", "value": 1}]]}"#)
            .as_bytes()
    )
    .is_err());
}

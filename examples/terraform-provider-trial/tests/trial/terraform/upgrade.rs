//! The trial provider's state upgrade under the real Terraform (1.15.5): a `trial_server`
//! stored at schema version 0 (an id without its `srv-` prefix) is upgraded by
//! UpgradeResourceState with `-refresh=false`, so no read can mend it: the id in the
//! state Terraform then writes is the upgrader's.

use super::harness;

use serde_json::json;

#[test]
fn a_version_0_server_is_upgraded_without_a_refresh() {
    let Some(ws) = harness::workspace() else {
        return;
    };
    let cloud = ws.path().join("cloud");
    let source = "example.com/ctywire/trial";
    let state = json!({
        "version": 4,
        "terraform_version": "1.15.5",
        "serial": 1,
        "lineage": "00000000-0000-0000-0000-000000000000",
        "outputs": {},
        "resources": [{
            "mode": "managed",
            "type": "trial_server",
            "name": "x",
            "provider": format!("provider[\"{source}\"]"),
            "instances": [{"schema_version": 0, "attributes": {
                "name": "b", "size": 10, "tags": null, "id": "b",
                "disk": [], "network": null
            }}]
        }]
    });
    std::fs::write(ws.config_dir().join("terraform.tfstate"), state.to_string()).unwrap();
    ws.configure_json(&json!({
        "provider": {"trial": {"directory": cloud.display().to_string()}},
        "resource": {"trial_server": {"x": {"name": "b", "size": 10}}},
        "output": {"id": {"value": "${trial_server.x.id}"}}
    }));
    // The upgraded object matches the configuration: only the new output changes.
    let run = ws.terraform(&["plan", "-no-color", "-refresh=false", "-detailed-exitcode"]);
    let said = format!("{}\n{}", run.stdout, run.stderr);
    assert!(
        said.contains("No changes") || said.contains("Changes to Outputs"),
        "{said}"
    );
    assert!(!said.contains("must be replaced"), "{said}");
    assert!(said.contains(r#"id = "srv-b""#), "{said}");
    ws.terraform(&["apply", "-no-color", "-refresh=false", "-auto-approve"])
        .success();
    let show = ws.terraform(&["show", "-json"]);
    show.success();
    let doc = show.json();
    let server = &doc["values"]["root_module"]["resources"][0];
    assert_eq!(server["address"], json!("trial_server.x"), "{doc}");
    assert_eq!(server["values"]["id"], json!("srv-b"), "{doc}");
    assert_eq!(server["values"]["size"], json!(10), "{doc}");
    assert_eq!(
        doc["values"]["outputs"]["id"]["value"],
        json!("srv-b"),
        "{doc}"
    );
}

//! The trial provider under the real Terraform (1.15.5): validate, plan, apply, an empty
//! re-plan (also with the SET block's elements in another order), an in-place update, a
//! replacement, import, the data source, the function, and destroy, with the provider's
//! "cloud" (a directory of JSON files) checked at each step. See `harness.rs` for how Terraform runs here.

#[allow(dead_code)]
mod harness;
mod upgrade;

use ctywire_testing::Workspace;
use serde_json::{json, Value as Json};

/// A server `name` of `size`, two disks (one without a kind), a network, two peers (a
/// SET block), metadata of an object type (a dynamic attribute) and a password (a
/// sensitive one), the data source reading it back, and the function's output.
fn config(cloud: &std::path::Path, name: &str, size: Json) -> Json {
    json!({
        "provider": {"trial": {"directory": cloud.display().to_string()}},
        "resource": {"trial_server": {"x": {
            "name": name,
            "size": size,
            "tags": {"env": "dev"},
            "disk": [{"size": 10}, {"size": 20, "kind": "ssd"}],
            "network": {"subnet": "10.0.0.0/24"},
            "peer": [{"subnet": "10.1.0.0/24"}, {"subnet": "10.2.0.0/24"}],
            "metadata": {"owner": "ops", "replicas": 3},
            "password": "hunter2"
        }}},
        "data": {"trial_server": {"x": {"name": "${trial_server.x.name}"}}},
        "output": {
            "slug": {"value": "${provider::trial::slug(\"Hello, World!\")}"},
            "looked_up": {"value": "${data.trial_server.x.id}"},
            "looked_up_size": {"value": "${data.trial_server.x.size}"}
        }
    })
}

/// The state's `trial_server.x` values, from `show -json`.
fn server(ws: &Workspace) -> Json {
    let show = ws.terraform(&["show", "-json"]);
    show.success();
    let doc = show.json();
    let resources = doc["values"]["root_module"]["resources"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    resources
        .into_iter()
        .find(|r| r["address"] == "trial_server.x")
        .map(|r| r["values"].clone())
        .unwrap_or(Json::Null)
}

/// The outputs, by name.
fn outputs(ws: &Workspace) -> Json {
    let run = ws.terraform(&["output", "-json"]);
    run.success();
    run.json()
}

/// The ids of the servers in the cloud directory.
fn cloud_ids(cloud: &std::path::Path) -> Vec<String> {
    let mut ids: Vec<String> = std::fs::read_dir(cloud)
        .map(|d| {
            d.map(|e| {
                e.unwrap()
                    .file_name()
                    .to_string_lossy()
                    .trim_end_matches(".json")
                    .to_owned()
            })
            .collect()
        })
        .unwrap_or_default();
    ids.sort();
    ids
}

/// Terraform's output as words: without its box drawing and line wrapping.
fn words(text: &str) -> String {
    text.replace(['│', '╷', '╵'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_trial_provider_under_terraform() {
    let Some(ws) = harness::workspace() else {
        return;
    };
    let cloud = ws.path().join("cloud");

    // validate: a fraction for a u16 attribute is refused at its path, before any plan.
    ws.configure_json(&config(&cloud, "a", json!(22.5)));
    let run = ws.terraform(&["validate", "-no-color"]);
    run.expect_status(1);
    let said = words(&run.stderr);

    assert!(said.contains("Error: Invalid configuration"), "{said}");
    assert!(said.contains(r#""size": 22.5,"#), "{said}");
    assert!(
        said.contains("expected u16 (an integer from 0 to 65535), found a fraction"),
        "{said}"
    );

    ws.configure_json(&config(&cloud, "a", json!(2)));
    ws.terraform(&["validate", "-no-color"]).success();

    // plan: a create, with the id known after apply.
    let run = ws.terraform(&["plan", "-no-color", "-detailed-exitcode"]);
    run.expect_status(2);
    assert!(
        run.stdout.contains("trial_server.x will be created"),
        "{}",
        run.stdout
    );
    let resource_plan = run.stdout.split("# trial_server.x").nth(1).unwrap();
    assert!(
        resource_plan
            .lines()
            .any(|l| l.trim_start().starts_with("+ id ") && l.ends_with("= (known after apply)")),
        "{}",
        run.stdout
    );
    // The sensitive password is not shown; the dynamic metadata is, with its type's
    // attributes.
    assert!(
        resource_plan.lines().any(
            |l| l.trim_start().starts_with("+ password ") && l.ends_with("= (sensitive value)")
        ),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("hunter2"), "{}", run.stdout);
    assert!(
        words(&run.stdout).contains(r#"+ owner = "ops""#),
        "{}",
        run.stdout
    );

    // apply: the server is in the cloud, with its computed values.
    ws.terraform(&["apply", "-auto-approve", "-no-color"])
        .success();
    assert_eq!(cloud_ids(&cloud), ["srv-a"]);
    let x = server(&ws);
    assert_eq!(x["id"], "srv-a");
    assert_eq!(x["disk"][0]["kind"], "standard");
    assert_eq!(x["disk"][1]["kind"], "ssd");
    assert_eq!(x["network"]["subnet"], "10.0.0.0/24");
    let mut peers: Vec<_> = x["peer"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["subnet"].clone())
        .collect();
    peers.sort_by_key(Json::to_string);
    assert_eq!(peers, [json!("10.1.0.0/24"), json!("10.2.0.0/24")]);
    assert_eq!(x["metadata"], json!({"owner": "ops", "replicas": 3}));
    assert_eq!(x["password"], "hunter2");
    let show = ws.terraform(&["show", "-json"]);
    let shown = show.json();
    let resources = shown["values"]["root_module"]["resources"].as_array();
    let state = resources
        .unwrap()
        .iter()
        .find(|r| r["address"] == "trial_server.x");
    assert_eq!(
        state.unwrap()["sensitive_values"]["password"],
        true,
        "{shown}"
    );
    let out = outputs(&ws);
    assert_eq!(out["slug"]["value"], "hello--world");
    assert_eq!(out["looked_up"]["value"], "srv-a");
    assert_eq!(out["looked_up_size"]["value"], 2);

    // An empty re-plan: nothing changes, also with the peers (a set) in another order.
    let run = ws.terraform(&["plan", "-no-color", "-detailed-exitcode"]);
    run.expect_status(0);
    let mut reordered = config(&cloud, "a", json!(2));
    reordered["resource"]["trial_server"]["x"]["peer"] =
        json!([{"subnet": "10.2.0.0/24"}, {"subnet": "10.1.0.0/24"}]);
    ws.configure_json(&reordered);
    let run = ws.terraform(&["plan", "-no-color", "-detailed-exitcode"]);
    run.expect_status(0);

    // A new type for the dynamic metadata is an update in place.
    reordered["resource"]["trial_server"]["x"]["metadata"] = json!("ops");
    ws.configure_json(&reordered);
    let run = ws.terraform(&["plan", "-no-color", "-detailed-exitcode"]);
    run.expect_status(2);
    assert!(
        run.stdout
            .contains("trial_server.x will be updated in-place"),
        "{}",
        run.stdout
    );

    // update in place: the id and the disks' kinds stay known in the plan
    // (use_state_for_unknown).
    ws.configure_json(&config(&cloud, "a", json!(4)));
    let run = ws.terraform(&["plan", "-no-color", "-detailed-exitcode"]);
    run.expect_status(2);
    assert!(
        run.stdout
            .contains("trial_server.x will be updated in-place"),
        "{}",
        run.stdout
    );

    assert!(
        words(&run.stdout).contains("~ size = 2 -> 4"),
        "{}",
        run.stdout
    );
    let resource_plan = run.stdout.split("# trial_server.x").nth(1).unwrap();
    assert!(
        !resource_plan
            .split("Plan:")
            .next()
            .unwrap()
            .contains("known after apply"),
        "{}",
        run.stdout
    );
    ws.terraform(&["apply", "-auto-approve", "-no-color"])
        .success();
    assert_eq!(server(&ws)["size"], 4);
    assert_eq!(outputs(&ws)["looked_up_size"]["value"], 4);
    ws.terraform(&["plan", "-no-color", "-detailed-exitcode"])
        .expect_status(0);

    // replace: a new name forces a new server.
    ws.configure_json(&config(&cloud, "b", json!(4)));
    let run = ws.terraform(&["plan", "-no-color", "-detailed-exitcode"]);
    run.expect_status(2);
    assert!(
        run.stdout.contains("trial_server.x must be replaced"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("# forces replacement"),
        "{}",
        run.stdout
    );
    ws.terraform(&["apply", "-auto-approve", "-no-color"])
        .success();
    assert_eq!(cloud_ids(&cloud), ["srv-b"]);
    assert_eq!(server(&ws)["id"], "srv-b");

    // A server deleted behind Terraform's back is planned anew (read returns None).
    std::fs::rename(cloud.join("srv-b.json"), ws.path().join("srv-b.json")).unwrap();
    let run = ws.terraform(&["plan", "-no-color", "-detailed-exitcode"]);
    run.expect_status(2);
    assert!(
        run.stdout.contains("trial_server.x will be created"),
        "{}",
        run.stdout
    );
    std::fs::rename(ws.path().join("srv-b.json"), cloud.join("srv-b.json")).unwrap();

    // import: forgotten by Terraform, then imported by id; the state is as it was.
    let before = server(&ws);
    ws.terraform(&["state", "rm", "trial_server.x"]).success();
    let run = ws.terraform(&["import", "-no-color", "trial_server.x", "srv-b"]);
    run.success();
    assert_eq!(server(&ws), before);
    ws.terraform(&["plan", "-no-color", "-detailed-exitcode"])
        .expect_status(0);
    let run = ws.terraform(&["import", "-no-color", "trial_server.y", "srv-nope"]);
    run.expect_status(1);

    // destroy: the cloud is empty.
    ws.terraform(&["destroy", "-auto-approve", "-no-color"])
        .success();
    assert!(cloud_ids(&cloud).is_empty());
}

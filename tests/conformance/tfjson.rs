//! `show -json` documents: realistic plan and state documents (written by
//! `tests/data/tfjson/gen.py`, a second implementation of Terraform's rules) read into
//! typed values and written back, plus the value representation's rules one by one.

use std::collections::BTreeMap;
use std::path::PathBuf;

use ctywire::tfjson::{
    self, Action, Change, Document, InstanceKey, MarkTree, Plan, RawJson, ResourceMode, State,
};
use ctywire::{Path, PathStep, Type, Value};
use serde_json::Value as Json;

fn repo_file(path: &str) -> Vec<u8> {
    let full = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

fn plan() -> Plan {
    Plan::from_json(&repo_file("examples/plan/plan.json")).expect("the plan reads")
}

fn state() -> State {
    State::from_json(&repo_file("examples/plan/state.json")).expect("the state reads")
}

/// Each resource type's implied type, by `TYPE` or `data.TYPE`.
fn types() -> BTreeMap<String, Type> {
    let json: Json = serde_json::from_slice(&repo_file("tests/data/tfjson/types.json")).unwrap();
    json.as_object()
        .unwrap()
        .iter()
        .map(|(k, t)| (k.clone(), Type::from_json(&t.to_string()).unwrap()))
        .collect()
}

fn type_of(types: &BTreeMap<String, Type>, mode: &ResourceMode, type_name: &str) -> Type {
    let key = match mode {
        ResourceMode::Data => format!("data.{type_name}"),
        _ => type_name.to_owned(),
    };
    types
        .get(&key)
        .unwrap_or_else(|| panic!("no type for {key}"))
        .clone()
}

fn json(raw: &RawJson) -> Json {
    serde_json::from_str(raw.as_str()).unwrap()
}

fn opt_json(raw: Option<&RawJson>) -> Option<Json> {
    raw.map(json)
}

fn tree_json(t: Option<&MarkTree>) -> Option<Json> {
    t.map(MarkTree::to_serde)
}

// ---------------------------------------------------------------------------
// The plan document

#[test]
fn plan_document_structure() {
    let plan = plan();
    assert_eq!(plan.format_version.as_deref(), Some("1.2"));
    assert_eq!(plan.terraform_version.as_deref(), Some("1.9.5"));
    assert!(plan.applyable && plan.complete && !plan.errored);
    assert_eq!(plan.timestamp.as_deref(), Some("2024-06-12T09:30:00Z"));
    assert_eq!(plan.resource_changes.len(), 11);

    // count and for_each instances
    let web0 = plan.resource_change("aws_instance.web[0]").unwrap();
    assert_eq!(web0.index, Some(InstanceKey::Int(0)));
    assert_eq!(web0.mode, ResourceMode::Managed);
    assert_eq!(web0.type_name, "aws_instance");
    assert_eq!(web0.name, "web");
    assert_eq!(
        web0.provider_name.as_deref(),
        Some("registry.terraform.io/hashicorp/aws")
    );
    assert_eq!(web0.change.actions, [Action::Create]);
    let subnet = plan
        .resource_change(r#"module.network.aws_subnet.private["b"]"#)
        .unwrap();
    assert_eq!(subnet.index, Some(InstanceKey::String("b".into())));
    assert_eq!(subnet.index.as_ref().unwrap().to_string(), r#"["b"]"#);
    assert_eq!(subnet.module_address.as_deref(), Some("module.network"));

    // a data source read during apply
    let policy = plan
        .resource_change("data.aws_iam_policy_document.assume")
        .unwrap();
    assert_eq!(policy.mode, ResourceMode::Data);
    assert_eq!(policy.change.actions, [Action::Read]);
    assert_eq!(
        policy.action_reason.as_deref(),
        Some("read_because_dependency_pending")
    );

    // a replacement, and a deposed object of the same instance
    let key = plan.resource_change("aws_key_pair.deployer").unwrap();
    assert!(key.change.is_replace());
    assert_eq!(key.change.actions, [Action::Create, Action::Delete]);
    assert_eq!(
        key.change.replace_paths,
        [Path::root().attribute("public_key")]
    );
    let all: Vec<_> = plan.resource_changes_at("aws_key_pair.deployer").collect();
    assert_eq!(all.len(), 2);
    let deposed = all.iter().find(|c| c.deposed.is_some()).unwrap();
    assert_eq!(deposed.deposed.as_deref(), Some("5f3c2a1b"));
    assert_eq!(deposed.change.actions, [Action::Delete]);
    assert!(deposed.change.after.as_ref().unwrap().is_null());

    // a resource in a module instance of a for_each module, and in a nested module
    let manifest = plan
        .resource_change(r#"module.apps["api"].kubernetes_manifest.deployment"#)
        .unwrap();
    assert_eq!(
        manifest.module_address.as_deref(),
        Some(r#"module.apps["api"]"#)
    );
    let endpoint = plan
        .resource_change("module.network.module.endpoints.aws_vpc_endpoint.s3")
        .unwrap();
    assert_eq!(endpoint.change.actions, [Action::Update]);

    // variables keep their numbers exact
    let budget = plan.variables["max_budget"].decode(&Type::Number).unwrap();
    assert_eq!(
        budget.as_number().unwrap().to_string(),
        "12345678901234567890.125"
    );
    assert_eq!(plan.variables["instance_count"].as_str(), "2");

    // relevant attributes
    assert_eq!(plan.relevant_attributes.len(), 2);
    assert_eq!(
        plan.relevant_attributes[1].attribute,
        Path::root().attribute("tags").attribute("Name")
    );
    assert!(plan.configuration.is_some());
}

#[test]
fn plan_module_trees_flatten() {
    let plan = plan();
    let planned = plan.planned_values.as_ref().unwrap();
    let modules: Vec<Option<&str>> = planned
        .root_module
        .modules()
        .map(|m| m.address.as_deref())
        .collect();
    assert_eq!(
        modules,
        [
            None,
            Some(r#"module.apps["api"]"#),
            Some("module.network"),
            Some("module.network.module.endpoints")
        ]
    );
    let addresses: Vec<&str> = planned.resources().map(|r| r.address.as_str()).collect();
    assert_eq!(
        addresses,
        [
            "aws_db_instance.main",
            "aws_instance.web[0]",
            "aws_instance.web[1]",
            "aws_key_pair.deployer",
            "data.aws_iam_policy_document.assume",
            "random_password.db",
            r#"module.apps["api"].kubernetes_manifest.deployment"#,
            r#"module.network.aws_subnet.private["a"]"#,
            r#"module.network.aws_subnet.private["b"]"#,
            "module.network.module.endpoints.aws_vpc_endpoint.s3",
        ]
    );
    // The prior state has a resourceless module between the root and a nested one,
    // and a deposed object beside the current one.
    let prior = plan.prior_state.as_ref().unwrap().values.as_ref().unwrap();
    let network = &prior.root_module.child_modules[0];
    assert_eq!(network.address.as_deref(), Some("module.network"));
    assert!(network.resources.is_empty());
    assert_eq!(
        network.child_modules[0].address.as_deref(),
        Some("module.network.module.endpoints")
    );
    let keys: Vec<_> = prior
        .resources()
        .filter(|r| r.address == "aws_key_pair.deployer")
        .map(|r| r.deposed_key.as_deref())
        .collect();
    assert_eq!(keys, [None, Some("5f3c2a1b")]);
    assert_eq!(
        prior.resource("aws_key_pair.deployer").unwrap().deposed_key,
        None
    );
}

/// Every resource change, read into typed values and sensitive paths, gives the
/// document's `before`, `after`, `after_unknown` and sensitivity trees back.
#[test]
fn resource_changes_round_trip() {
    let plan = plan();
    let types = types();
    for rc in &plan.resource_changes {
        let ty = type_of(&types, &rc.mode, &rc.type_name);
        let c = &rc.change;
        let before = c.before.as_ref().map(|_| c.typed_before(&ty).unwrap());
        let after = c
            .after_unknown
            .as_ref()
            .map(|_| c.typed_after(&ty).unwrap());
        let again = Change::for_resource(
            c.actions.clone(),
            before.as_ref(),
            after.as_ref(),
            &ty,
            &c.before_sensitive_paths(&ty),
            &c.after_sensitive_paths(&ty),
        )
        .unwrap();
        let what = format!("{} {:?}", rc.address, rc.deposed);
        assert_eq!(
            opt_json(again.before.as_ref()),
            opt_json(c.before.as_ref()),
            "{what}: before"
        );
        assert_eq!(
            opt_json(again.after.as_ref()),
            opt_json(c.after.as_ref()),
            "{what}: after"
        );
        assert_eq!(
            tree_json(again.after_unknown.as_ref()),
            tree_json(c.after_unknown.as_ref()),
            "{what}: after_unknown"
        );
        assert_eq!(
            tree_json(again.before_sensitive.as_ref()),
            tree_json(c.before_sensitive.as_ref()),
            "{what}: before_sensitive"
        );
        assert_eq!(
            tree_json(again.after_sensitive.as_ref()),
            tree_json(c.after_sensitive.as_ref()),
            "{what}: after_sensitive"
        );
    }
}

/// `planned_values` says what the changes say: its values are the known part of each
/// change's `after`, its sensitivity the change's.
#[test]
fn planned_values_agree_with_changes() {
    let plan = plan();
    let types = types();
    let planned = plan.planned_values.as_ref().unwrap();
    for r in planned.resources() {
        let ty = type_of(&types, &r.mode, &r.type_name);
        let rc = plan.resource_change(&r.address).unwrap();
        let after = rc.change.typed_after(&ty).unwrap();
        let values = tfjson::to_json_value(&after, &ty).unwrap();
        assert_eq!(
            opt_json(values.as_ref()),
            opt_json(r.values.as_ref()),
            "{}",
            r.address
        );
        let marks = tfjson::sensitive_tree(&r.sensitive_paths(&ty), &after, &ty);
        assert_eq!(
            Some(marks.to_serde()),
            tree_json(r.sensitive_values.as_ref())
        );
        assert_eq!(
            r.sensitive_values, rc.change.after_sensitive,
            "{}",
            r.address
        );
    }
    // Deleted and deposed objects are not planned values.
    assert_eq!(planned.resources().count(), 10);
}

#[test]
fn typed_after_has_unknowns_and_sensitive_paths_in_nested_blocks() {
    let plan = plan();
    let types = types();
    let ty = &types["aws_instance"];
    let change = &plan.resource_change("aws_instance.web[1]").unwrap().change;
    let after = change.typed_after(ty).unwrap();

    let at = |p: &str| after.at_path(&Path::parse(p).unwrap()).unwrap();
    assert!(at(".id").is_unknown());
    assert!(at(".root_block_device[0].volume_id").is_unknown());
    assert_eq!(at(".root_block_device[0].volume_size").as_i64(), Some(20));
    assert!(at(".ebs_block_device[0].volume_id").is_unknown());
    assert_eq!(at(r#".tags["Name"]"#).as_str(), Some("web-1"));
    let groups = at(".vpc_security_group_ids");
    assert_eq!(groups[0].as_str(), Some("sg-0123456789abcdef0"));
    assert!(groups[1].is_unknown());
    assert!(at(".user_data").as_str().unwrap().contains("<&>"));

    let sensitive: Vec<String> = change
        .after_sensitive_paths(ty)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        sensitive,
        [".root_block_device[0].kms_key_id", ".user_data"]
    );

    // The database: an update whose nested block turns unknown, with a sensitive
    // attribute inside it, before and after.
    let db = &plan.resource_change("aws_db_instance.main").unwrap().change;
    let ty = &types["aws_db_instance"];
    let before = db.typed_before(ty).unwrap();
    let after = db.typed_after(ty).unwrap();
    let secret = Path::parse(".master_user_secret[0].secret_arn").unwrap();
    assert!(before
        .at_path(&secret)
        .unwrap()
        .as_str()
        .unwrap()
        .starts_with("arn:"));
    assert!(after.at_path(&secret).unwrap().is_unknown());
    assert!(db.after_sensitive.as_ref().unwrap().is_marked(&secret));
    assert!(db.before_sensitive.as_ref().unwrap().is_marked(&secret));
    assert!(db
        .after_sensitive_paths(ty)
        .contains(&Path::root().attribute("password")));
    assert_eq!(after["allocated_storage"].as_i64(), Some(200));

    // A wholly unknown output has no `after` at all.
    let out = &plan.output_changes["db_password"];
    assert!(out.after.is_none());
    assert!(out.typed_after(&Type::String).unwrap().is_unknown());
}

#[test]
fn dynamic_attributes_are_typed_from_their_json() {
    let plan = plan();
    let types = types();
    let ty = &types["kubernetes_manifest"];
    let rc = plan
        .resource_change(r#"module.apps["api"].kubernetes_manifest.deployment"#)
        .unwrap();
    let after = rc.change.typed_after(ty).unwrap();
    let manifest = &after["manifest"];
    assert_eq!(
        manifest.recorded_type().unwrap().to_expr(),
        "object({apiVersion=string,kind=string,metadata=object({name=string,namespace=string}),\
spec=object({replicas=number,selector=object({matchLabels=object({app=string})}),\
template=object({metadata=object({labels=object({app=string})}),spec=object({containers=tuple([\
object({image=string,name=string,ports=tuple([object({containerPort=number})])})])})})})})"
    );
    // Unknowns inside a dynamic value are unknowns of type `dynamic`, at their places.
    let object = &after["object"];
    let ty = object.recorded_type().unwrap();
    let uid = Path::parse(".metadata.uid").unwrap();
    assert!(object.at_path(&uid).unwrap().is_unknown());
    assert!(object["status"].is_unknown());
    assert_eq!(
        ty.as_object().unwrap().attribute("status"),
        Some(&Type::Dynamic)
    );
    assert!(object
        .at_path(&Path::parse(".spec.template.spec.containers[0].ports[0].protocol").unwrap())
        .unwrap()
        .is_unknown());
    // tfjsonpath-style paths reach into it, and into the document's JSON.
    let path = Path::root()
        .attribute("spec")
        .at_map_key("template")
        .at_map_key("spec")
        .at_map_key("containers")
        .at_slice_index(0)
        .at_map_key("image");
    assert_eq!(
        manifest.at_path(&path).unwrap().as_str(),
        Some("registry.example.com/api:1.42.0")
    );
    let doc = json(rc.change.after.as_ref().unwrap());
    let full = Path::root()
        .attribute("manifest")
        .at_map_key("spec")
        .at_map_key("replicas");
    assert_eq!(tfjson::json_at_path(&doc, &full), Some(&Json::from(3)));
    assert_eq!(full.to_tfjsonpath(), "manifest.spec.replicas");
}

#[test]
fn output_changes_round_trip() {
    let plan = plan();
    for (name, c) in &plan.output_changes {
        let before = c
            .before
            .as_ref()
            .map(|_| c.typed_before(&Type::Dynamic).unwrap());
        let after = c.typed_after(&Type::Dynamic).unwrap();
        let sensitive = c.after_sensitive.as_ref().is_some_and(MarkTree::is_true);
        let again = Change::for_output(c.actions.clone(), before.as_ref(), Some(&after), sensitive)
            .unwrap();
        assert_eq!(
            opt_json(again.before.as_ref()),
            opt_json(c.before.as_ref()),
            "{name}"
        );
        assert_eq!(
            opt_json(again.after.as_ref()),
            opt_json(c.after.as_ref()),
            "{name}"
        );
        assert_eq!(again.after_unknown, c.after_unknown, "{name}");
        assert_eq!(again.before_sensitive, c.before_sensitive, "{name}");
        assert_eq!(again.after_sensitive, c.after_sensitive, "{name}");
    }
    let ips = plan.output_changes["web_private_ips"]
        .typed_after(&Type::Dynamic)
        .unwrap();
    assert!(ips[0].is_unknown() && ips[1].is_unknown());
    let subnets = plan.output_changes["subnet_ids"]
        .typed_after(&Type::Dynamic)
        .unwrap();
    assert!(subnets["a"].is_unknown());

    let outputs = &plan.planned_values.as_ref().unwrap().outputs;
    assert!(outputs["db_password"].sensitive);
    assert!(outputs["db_password"].value.is_none());
    assert!(outputs["db_password"].typed_value().unwrap().is_unknown());
    let budget = outputs["max_budget"].typed_value().unwrap();
    assert_eq!(budget.recorded_type(), Some(&Type::Number));
    assert_eq!(
        budget.as_number().unwrap().to_string(),
        "12345678901234567890.125"
    );
}

// ---------------------------------------------------------------------------
// The state document

#[test]
fn state_document_round_trips() {
    let state = state();
    let types = types();
    let values = state.values.as_ref().unwrap();
    let mut seen = 0;
    for r in values.resources() {
        let ty = type_of(&types, &r.mode, &r.type_name);
        let v = r.typed_values(&ty).unwrap();
        assert!(v.is_wholly_known(), "{}", r.address);
        let again = tfjson::to_json_value(&v, &ty).unwrap();
        assert_eq!(
            opt_json(again.as_ref()),
            opt_json(r.values.as_ref()),
            "{}",
            r.address
        );
        let marks = tfjson::sensitive_tree(&r.sensitive_paths(&ty), &v, &ty);
        assert_eq!(Some(&marks), r.sensitive_values.as_ref(), "{}", r.address);
        seen += 1;
    }
    assert_eq!(seen, 11);

    let web1 = values.resource("aws_instance.web[1]").unwrap();
    assert!(web1.tainted);
    assert_eq!(web1.depends_on, ["aws_key_pair.deployer"]);
    assert_eq!(web1.schema_version, Some(1));
    let deposed: Vec<_> = values
        .resources()
        .filter_map(|r| r.deposed_key.as_deref())
        .collect();
    assert_eq!(deposed, ["5f3c2a1b", "9e8d7c6b"]);

    let password = values.resource("random_password.db").unwrap();
    let ty = &types["random_password"];
    let paths = password.sensitive_paths(ty);
    assert_eq!(
        paths,
        [
            Path::root().attribute("bcrypt_hash"),
            Path::root().attribute("result")
        ]
    );
    let v = password.typed_values(ty).unwrap();
    assert_eq!(v["length"].as_i64(), Some(32));
    assert_eq!(
        v.at_path(&Path::parse(r#"keepers["rotation"]"#).unwrap())
            .unwrap()
            .as_str(),
        Some("2024-06")
    );

    // Outputs carry their types.
    for (name, o) in &values.outputs {
        let v = o.typed_value().unwrap();
        assert_eq!(v.recorded_type(), o.ty.as_ref(), "{name}");
        let again = tfjson::to_json_value(&v, &Type::Dynamic).unwrap();
        assert_eq!(
            opt_json(again.as_ref()),
            opt_json(o.value.as_ref()),
            "{name}"
        );
    }
    assert!(values.outputs["db_password"].sensitive);
    let ips = values.outputs["web_private_ips"].typed_value().unwrap();
    assert_eq!(
        ips.recorded_type().unwrap().to_expr(),
        "tuple([string,string])"
    );
}

#[test]
fn prior_state_round_trips() {
    let plan = plan();
    let types = types();
    let prior = plan.prior_state.as_ref().unwrap().values.as_ref().unwrap();
    for r in prior.resources() {
        let ty = type_of(&types, &r.mode, &r.type_name);
        let v = r.typed_values(&ty).unwrap();
        let again = tfjson::to_json_value(&v, &ty).unwrap();
        assert_eq!(
            opt_json(again.as_ref()),
            opt_json(r.values.as_ref()),
            "{}",
            r.address
        );
        let marks = tfjson::sensitive_tree(&r.sensitive_paths(&ty), &v, &ty);
        assert_eq!(Some(&marks), r.sensitive_values.as_ref(), "{}", r.address);
        // The prior state's values are the changes' `before`.
        let rc = plan
            .resource_changes_at(&r.address)
            .find(|c| c.deposed == r.deposed_key)
            .unwrap();
        assert_eq!(rc.change.typed_before(&ty).unwrap(), v, "{}", r.address);
    }
}

#[test]
fn documents_tell_plans_from_states() {
    assert!(matches!(
        Document::from_json(&repo_file("examples/plan/plan.json")).unwrap(),
        Document::Plan(_)
    ));
    assert!(matches!(
        Document::from_json(&repo_file("examples/plan/state.json")).unwrap(),
        Document::State(_)
    ));
    let empty: State = r#"{"format_version":"1.0"}"#.parse().unwrap();
    assert!(empty.values.is_none());
}

/// The example schema file (for the CLI) implies the types the tests use.
#[test]
fn example_schema_implies_the_types() {
    fn implied(block: &Json) -> Json {
        let mut attrs = serde_json::Map::new();
        for (name, a) in block["attributes"].as_object().into_iter().flatten() {
            attrs.insert(name.clone(), a["type"].clone());
        }
        for (name, b) in block["block_types"].as_object().into_iter().flatten() {
            let inner = implied(&b["block"]);
            let t = match b["nesting_mode"].as_str().unwrap() {
                "single" | "group" => inner,
                mode => serde_json::json!([mode, inner]),
            };
            attrs.insert(name.clone(), t);
        }
        serde_json::json!(["object", attrs])
    }
    let schema: Json = serde_json::from_slice(&repo_file("examples/plan/schema.json")).unwrap();
    let types = types();
    let mut n = 0;
    for p in schema["provider_schemas"].as_object().unwrap().values() {
        for (kind, prefix) in [("resource_schemas", ""), ("data_source_schemas", "data.")] {
            for (name, s) in p[kind].as_object().into_iter().flatten() {
                let want = Type::from_json(&implied(&s["block"]).to_string()).unwrap();
                assert_eq!(types[&format!("{prefix}{name}")], want, "{name}");
                n += 1;
            }
        }
    }
    assert_eq!(n, types.len());
}

// ---------------------------------------------------------------------------
// The value representation's rules

fn ty(expr: &str) -> Type {
    expr.parse().unwrap()
}

fn after_json(v: &Value, t: &Type) -> Option<String> {
    tfjson::to_json_value(v, t)
        .unwrap()
        .map(|r| r.as_str().to_owned())
}

#[test]
fn after_rules() {
    let unk = Value::unknown;
    let cases: Vec<(&str, Value, Option<&str>)> = vec![
        ("string", unk(), None),
        ("string", Value::Null, Some("null")),
        (
            "list(string)",
            Value::list([unk(), Value::from("a")]),
            Some(r#"[null,"a"]"#),
        ),
        (
            "set(string)",
            Value::set([Value::from("a"), unk()]),
            Some(r#"["a",null]"#),
        ),
        (
            "tuple([string,number])",
            Value::tuple([unk(), Value::from(1)]),
            Some("[null,1]"),
        ),
        (
            "map(string)",
            Value::map([("a", unk()), ("b", Value::from("x"))]),
            Some(r#"{"b":"x"}"#),
        ),
        (
            "object({a=string,b=string})",
            Value::object([("a", unk()), ("b", Value::Null)]),
            Some(r#"{"b":null}"#),
        ),
        ("list(string)", Value::list([]), Some("[]")),
        ("map(string)", Value::map::<&str>([]), Some("{}")),
        // dynamic positions hold plain JSON
        (
            "object({d=any})",
            Value::object([("d", Value::list([Value::from(1)]))]),
            Some(r#"{"d":[1]}"#),
        ),
        (
            "any",
            Value::typed(ty("map(string)"), Value::map([("k", Value::from("<v>"))])),
            Some(r#"{"k":"\u003cv\u003e"}"#),
        ),
        (
            "list(object({a=string}))",
            Value::list([Value::object([("a", unk())])]),
            Some("[{}]"),
        ),
    ];
    for (t, v, want) in cases {
        assert_eq!(after_json(&v, &ty(t)).as_deref(), want, "{t} {v:?}");
    }
    // errors: a value of the wrong type, an infinity
    assert!(tfjson::to_json_value(&Value::from("x"), &Type::Number).is_err());
    let inf = Value::Number(ctywire::Number::infinity());
    let err = tfjson::to_json_value(&Value::list([inf]), &ty("list(number)")).unwrap_err();
    assert_eq!(err.path().to_string(), "[0]");
}

#[test]
fn unknown_tree_rules() {
    let unk = Value::unknown;
    let cases: Vec<(Value, &str)> = vec![
        (unk(), "true"),
        (Value::Null, "false"),
        (Value::from(1), "false"),
        (Value::list([]), "[]"),
        (Value::set([Value::from("a"), unk()]), "[false,true]"),
        (Value::map::<&str>([]), "{}"),
        (Value::object::<&str>([]), "{}"),
        (
            Value::object([
                ("a", Value::Null),
                ("b", Value::map([("k", Value::from("v"))])),
            ]),
            r#"{"b":{}}"#,
        ),
        (Value::typed(ty("list(string)"), unk()), "true"),
        (
            Value::tuple([Value::list([unk()]), Value::Null]),
            "[[true],false]",
        ),
    ];
    for (v, want) in cases {
        assert_eq!(tfjson::unknown_tree(&v).to_string(), want, "{v:?}");
    }
}

#[test]
fn sensitive_tree_rules() {
    let unk = Value::unknown;
    let p = |s: &str| Path::parse(s).unwrap();
    let t = ty("object({s=string, l=list(string), m=map(string), o=object({x=string}), st=set(object({k=string})), d=any})");
    let v = Value::object([
        ("s", Value::Null),
        ("l", unk()),
        ("m", unk()),
        ("o", Value::object([("x", Value::from("1"))])),
        (
            "st",
            Value::set([
                Value::object([("k", Value::from("a"))]),
                Value::object([("k", Value::from("b"))]),
            ]),
        ),
        ("d", unk()),
    ]);
    let cases: Vec<(Vec<Path>, &str)> = vec![
        // unknown collections give empty trees; a dynamic unknown gives false
        (vec![], r#"{"l":[],"m":{},"o":{},"st":[{},{}]}"#),
        // a null can be sensitive; so can an unknown; a whole object
        (
            vec![p(".s"), p(".l"), p(".o")],
            r#"{"l":true,"m":{},"o":true,"s":true,"st":[{},{}]}"#,
        ),
        // a path below an unknown marks nothing
        (
            vec![p(".l[0]"), p(".m[\"k\"]")],
            r#"{"l":[],"m":{},"o":{},"st":[{},{}]}"#,
        ),
        // anything sensitive inside a set makes the set sensitive
        (vec![p(".st[1].k")], r#"{"l":[],"m":{},"o":{},"st":true}"#),
        // a missing attribute marks nothing; key steps match attributes
        (
            vec![p(".o.y"), p(r#".o["x"]"#)],
            r#"{"l":[],"m":{},"o":{"x":true},"st":[{},{}]}"#,
        ),
    ];
    for (paths, want) in cases {
        assert_eq!(
            tfjson::sensitive_tree(&paths, &v, &t).to_string(),
            want,
            "{paths:?}"
        );
    }
    // An unknown with a recorded type at a dynamic position gives its kind's tree.
    let typed = Value::typed(ty("map(string)"), unk());
    assert_eq!(
        tfjson::sensitive_tree(&[], &typed, &Type::Dynamic).to_string(),
        "{}"
    );
    // Lists keep false entries; sets by element value
    let l = Value::list([Value::from("a"), Value::from("b")]);
    assert_eq!(
        tfjson::sensitive_tree(&[p("[1]")], &l, &ty("list(string)")).to_string(),
        "[false,true]"
    );
    let s = Value::set([Value::from("a"), Value::from("b")]);
    let by_value = Path::root().at_set_element(Value::from("a"));
    assert_eq!(
        tfjson::sensitive_tree(&[by_value], &s, &ty("set(string)")).to_string(),
        "true"
    );
}

#[test]
fn reading_after_rules() {
    let tree = |s: &str| MarkTree::parse(s).unwrap();
    let read = |after: Option<&str>, unknown: Option<&str>, t: &str| {
        tfjson::from_json_value(after, unknown.map(tree).as_ref(), &ty(t))
    };
    // map elements only in the unknown tree come back as unknowns
    let v = read(Some(r#"{"b":"x"}"#), Some(r#"{"a":true}"#), "map(string)").unwrap();
    assert_eq!(
        v,
        Value::map([("a", Value::unknown()), ("b", Value::from("x"))])
    );
    // sets keep their unknown elements
    let v = read(Some(r#"["a",null]"#), Some("[false,true]"), "set(string)").unwrap();
    assert_eq!(v.len(), Some(2));
    assert!(v[1].is_unknown());
    // tuple positions
    let v = read(
        Some("[null,1]"),
        Some("[true,false]"),
        "tuple([string,number])",
    )
    .unwrap();
    assert!(v[0].is_unknown() && v[1].as_i64() == Some(1));
    // an absent `after` is unknown; with a structured tree it is an error
    assert!(read(None, Some("true"), "string").unwrap().is_unknown());
    assert!(read(None, None, "string").unwrap().is_unknown());
    assert!(read(None, Some("{}"), "object({a=string})").is_err());
    // a wholly known value's unknown tree may be `{}` or absent
    let v = read(
        Some(r#"{"a":"x"}"#),
        Some("{}"),
        "object({a=string,b=string})",
    )
    .unwrap();
    assert!(v["b"].is_null());
    // a tree that does not fit the value is an error with the value's path
    let err = read(
        Some(r#"{"a":["x"]}"#),
        Some(r#"{"a":{"k":true}}"#),
        "object({a=list(string)})",
    )
    .unwrap_err();
    assert_eq!(err.path().to_string(), ".a");
    // an attribute the type lacks is an error with line and column
    let err = read(Some("{\n  \"zz\": 1}"), None, "object({a=string})").unwrap_err();
    assert_eq!(
        err.to_string(),
        ".zz: unsupported attribute at line 2 column 3"
    );
    // numbers stay exact
    let v = read(Some("[0.1, 1e400]"), None, "list(number)").unwrap();
    assert_eq!(v[0].as_number().unwrap().to_string(), "0.1");
    assert_eq!(
        v[1].as_number().unwrap().to_string(),
        format!("1{}", "0".repeat(400))
    );
    // dynamic lists settle null elements to the common type
    let v = read(Some(r#"["a",null]"#), None, "list(any)").unwrap();
    assert_eq!(v[1].recorded_type(), Some(&Type::String));
}

#[test]
fn identities_actions_conditions_and_embedded_schemas() {
    let schemas =
        ctywire::ProviderSchemas::from_json(&repo_file("examples/schema/provider.json")).unwrap();
    let plan = Plan::from_json(
        br#"{
      "format_version": "1.2",
      "resource_changes": [{
        "address": "cloud_instance.web", "mode": "managed", "type": "cloud_instance", "name": "web",
        "provider_name": "registry.terraform.io/example/cloud",
        "change": {
          "actions": ["no-op"], "before": null, "after": null, "after_unknown": {},
          "importing": {"identity": {"id": "i-1", "region": null}},
          "before_identity": {"id": "i-1", "region": "eu"}, "after_identity": {"id": "i-1", "region": "eu"}
        }
      }],
      "action_invocations": [{
        "address": "action.cloud_instance_reboot.now", "type": "cloud_instance_reboot", "name": "now",
        "config_values": {}, "config_unknown": {"instance_id": true}, "config_sensitive": {},
        "provider_name": "registry.terraform.io/example/cloud",
        "lifecycle_action_trigger": {
          "triggering_resource_address": "cloud_instance.web", "action_trigger_event": "AfterCreate",
          "action_trigger_block_index": 0, "actions_list_index": 1, "on_failure": "fail"
        }
      }],
      "deferred_action_invocations": [{"reason": "provider_config_unknown", "action_invocation": {
        "address": "action.cloud_instance_reboot.later", "type": "cloud_instance_reboot", "name": "later",
        "invoke_action_trigger": {"calling_resource_address": "cloud_instance.web"}
      }}],
      "condition_results": [
        {"address": "cloud_instance.web", "condition_type": "ResourcePostcondition", "result": false, "unknown": true},
        {"address": "output.id", "condition_type": "OutputPrecondition", "result": false, "unknown": false, "error_message": "no"}
      ]
    }"#,
    )
    .unwrap();
    // Identities, typed by the identity schema.
    let rc = &plan.resource_changes[0];
    let identity = rc
        .find_identity_schema(&schemas)
        .unwrap()
        .schema
        .implied_type();
    let after = rc.change.typed_after_identity(&identity).unwrap();
    assert_eq!(after["region"].as_str(), Some("eu"));
    assert_eq!(rc.change.typed_before_identity(&identity).unwrap(), after);
    let importing = rc.change.importing.as_ref().unwrap();
    assert!(importing.id.is_none() && !importing.unknown);
    assert!(importing
        .identity
        .as_ref()
        .unwrap()
        .decode(&identity)
        .unwrap()["region"]
        .is_null());
    assert!(rc
        .change
        .typed_after(&schemas.resource("cloud_instance").unwrap().implied_type())
        .unwrap()
        .is_null());
    // Actions, typed by the action schema.
    let action = &plan.action_invocations[0];
    let ty = action.find_schema(&schemas).unwrap().schema.implied_type();
    assert!(action.typed_config(&ty).unwrap()["instance_id"].is_unknown());
    assert!(action.config_sensitive_paths(&ty).is_empty());
    let trigger = action.lifecycle_action_trigger.as_ref().unwrap();
    assert_eq!(
        (
            trigger.action_trigger_event.as_str(),
            trigger.actions_list_index,
            trigger.on_failure.as_str()
        ),
        ("AfterCreate", 1, "fail")
    );
    let deferred = &plan.deferred_action_invocations[0];
    assert_eq!(deferred.reason, "provider_config_unknown");
    let invoked = deferred
        .action_invocation
        .invoke_action_trigger
        .as_ref()
        .unwrap();
    assert_eq!(
        invoked.calling_resource_address.as_deref(),
        Some("cloud_instance.web")
    );
    assert!(deferred
        .action_invocation
        .typed_config(&ty)
        .unwrap()
        .is_null());
    // Condition results (Terraform 1.2).
    let c = &plan.condition_results;
    assert_eq!(
        (c[0].condition_type.as_str(), c[0].unknown),
        ("ResourcePostcondition", true)
    );
    assert_eq!(c[1].error_message.as_deref(), Some("no"));
    assert!(matches!(
        Document::from_json(br#"{"action_invocations": []}"#).unwrap(),
        Document::Plan(_)
    ));

    // A state's identities.
    let state = State::from_json(
        br#"{"format_version": "1.0", "values": {"root_module": {"resources": [{
        "address": "cloud_instance.web", "mode": "managed", "type": "cloud_instance", "name": "web",
        "provider_name": "registry.opentofu.org/example/cloud", "values": null,
        "identity_schema_version": 0, "identity": {"id": "i-1", "region": "eu"}}]}}}"#,
    )
    .unwrap();
    let r = state
        .values
        .as_ref()
        .unwrap()
        .resource("cloud_instance.web")
        .unwrap();
    let found = r.find_identity_schema(&schemas).unwrap();
    assert!(found.fallback.unwrap().other_host);
    assert_eq!(
        r.typed_identity(&found.schema.implied_type()).unwrap()["id"].as_str(),
        Some("i-1")
    );
    assert_eq!(
        r.typed_identity(&ty).unwrap_err().to_string(),
        ".id: unsupported attribute at line 1 column 2"
    );

    // HCP Terraform's redacted plans embed the schemas that type them.
    let schema_text = String::from_utf8(repo_file("examples/schema/provider.json")).unwrap();
    let providers = &schema_text
        [schema_text.find("\"provider_schemas\"").unwrap()..schema_text.rfind('}').unwrap()];
    let redacted = format!(
        r#"{{"plan_format_version": "1.1", "resource_drift": [], "resource_changes": [{{
          "address": "cloud_bucket.logs", "mode": "managed", "type": "cloud_bucket", "name": "logs",
          "provider_name": "registry.terraform.io/example/cloud",
          "change": {{"actions": ["create"], "before": null, "after": {{"name": "logs"}},
                     "after_unknown": {{"id": true}}, "before_sensitive": false, "after_sensitive": {{}}}}
        }}], "relevant_attributes": [], "output_changes": {{}}, {providers}, "provider_format_version": "1.0"}}"#
    );
    let Document::Plan(plan) = Document::from_json(redacted.as_bytes()).unwrap() else {
        panic!("a redacted plan is a plan")
    };
    assert_eq!(plan.format_version.as_deref(), Some("1.1"));
    let embedded = plan.provider_schemas.as_ref().unwrap();
    assert_eq!(embedded.format_version, "1.0");
    assert_eq!(embedded.providers, schemas.providers);
    let rc = &plan.resource_changes[0];
    let ty = rc.schema(embedded).unwrap().implied_type();
    let after = rc.change.typed_after(&ty).unwrap();
    assert!(after["id"].is_unknown());
    // Errors inside the embedded schemas name their path in the plan.
    let err = Plan::from_json(br#"{"plan_format_version": "1.1", "provider_schemas": {"p": {"resource_schemas": {"r": {"block": {"attributes": {"a": {"type": "strin"}}}}}}}}"#).unwrap_err();
    assert_eq!(
        err.path().to_string(),
        r#".provider_schemas["p"].resource_schemas["r"].block.attributes["a"].type"#
    );
}

#[test]
fn trees_that_do_not_fit_the_value_are_errors() {
    let tree = |s: &str| MarkTree::parse(s).unwrap();
    let read = |after: &str, unknown: &str, t: &str| {
        tfjson::from_json_value(Some(after), Some(&tree(unknown)), &ty(t))
            .map_err(|e| e.to_string())
    };
    let t = "object({id=string, ids=list(string), ports=set(number), tags=map(string), disk=object({size=number})})";
    let known = r#"{"id":"x","ids":["a"],"ports":[80,443],"tags":{"k":"v"},"disk":{"size":1}}"#;
    // Each of these would lose an unknown (or say a value has another shape).
    for (unknown, error) in [
        (
            r#"{"arn":true}"#,
            r#".arn: the unknown tree does not fit the value: the type has no attribute "arn""#,
        ),
        (
            r#"{"disk":{"size":{"deeper":true}}}"#,
            ".disk.size: the unknown tree does not fit the value: expected a bool for a number, found an object",
        ),
        (
            r#"{"ids":[false,true]}"#,
            ".ids: the unknown tree does not fit the value: expected an array of 1 (the list's elements), found an array of 2",
        ),
        (
            r#"{"ports":[true]}"#,
            ".ports: the unknown tree does not fit the value: expected an array of 2 (the set's elements), found an array of 1",
        ),
        (
            r#"{"id":[]}"#,
            ".id: the unknown tree does not fit the value: expected a bool for a string, found an empty array",
        ),
        (
            r#"{"disk":{"weight":false}}"#,
            r#".disk.weight: the unknown tree does not fit the value: the type has no attribute "weight""#,
        ),
    ] {
        assert_eq!(read(known, unknown, t), Err(error.to_owned()), "{unknown}");
    }
    // A mark inside a null value.
    assert_eq!(
        read("null", r#"{"logging_config":[{"bucket":true}]}"#, t),
        Err("the unknown tree does not fit the value: expected false, an empty array or an empty object for a null value, found an object".to_owned())
    );
    assert_eq!(
        read(r#"{"disk":null}"#, r#"{"disk":{"size":true}}"#, t),
        Err(".disk: the unknown tree does not fit the value: expected false, an empty array or an empty object for a null value, found an object".to_owned())
    );
    // What Terraform writes fits: `{}` for a deleted object, `false` entries (0.12),
    // arrays of `false` shorter than a set (0.12.0-beta2), map elements the tree adds.
    assert!(read("null", "{}", t).is_ok());
    assert!(read(
        known,
        r#"{"id":false,"disk":{"size":false},"tags":{"k":false}}"#,
        t
    )
    .is_ok());
    assert!(read(known, r#"{"ports":[false]}"#, t).is_ok());
    let v = read(known, r#"{"tags":{"new":true}}"#, t).unwrap();
    assert!(v["tags"]["new"].is_unknown());

    // Sensitivity trees are checked where values are typed.
    let plan = |change: &str| {
        let doc = format!(r#"{{"resource_changes":[{{"address":"a.b","change":{change}}}]}}"#);
        Plan::from_json(doc.as_bytes())
            .unwrap()
            .resource_changes
            .remove(0)
            .change
    };
    let ty = ty("object({id=string, tags=map(string)})");
    let c = plan(
        r#"{"before":{"id":"x","tags":{}},"before_sensitive":{"tags":{"secret":true}},"after":null,"after_unknown":{},"after_sensitive":false}"#,
    );
    assert_eq!(
        c.typed_before(&ty).unwrap_err().to_string(),
        r#".tags["secret"]: the sensitivity tree does not fit the value: the map has no such element"#
    );
    assert!(c.typed_after(&ty).unwrap().is_null());
    let c = plan(
        r#"{"after":{"id":"x"},"after_unknown":{"tags":true},"after_sensitive":{"tags":[],"password":true}}"#,
    );
    assert_eq!(
        c.typed_after(&ty).unwrap_err().to_string(),
        r#".password: the sensitivity tree does not fit the value: the type has no attribute "password""#
    );
    // An unknown collection's sensitivity is `[]` or `{}`.
    let c =
        plan(r#"{"after":{"id":"x"},"after_unknown":{"tags":true},"after_sensitive":{"tags":{}}}"#);
    assert!(c.typed_after(&ty).unwrap()["tags"].is_unknown());
    let state = State::from_json(
        br#"{"values":{"root_module":{"resources":[{"address":"a.b","values":{"id":"x"},"sensitive_values":{"id":[true]}}]}}}"#,
    )
    .unwrap();
    let r = state.values.as_ref().unwrap().resource("a.b").unwrap();
    assert_eq!(
        r.typed_values(&ty).unwrap_err().to_string(),
        ".id: the sensitivity tree does not fit the value: expected a bool for a string, found an array of 1"
    );
}

#[test]
fn documents_report_bad_input() {
    let err = Plan::from_json(br#"{"format_version":"2.0"}"#).unwrap_err();
    assert!(
        err.to_string().contains("unsupported format_version"),
        "{err}"
    );
    let err = Plan::from_json(b"{\"resource_changes\": [{\"address\": 1}]}").unwrap_err();
    assert_eq!(
        err.to_string(),
        ".resource_changes[0].address: expected a string, found a number at line 1 column 35"
    );
    let err =
        State::from_json(br#"{"values":{"root_module":{"resources":[{"sensitive_values":"x"}]}}}"#)
            .unwrap_err();
    assert_eq!(
        err.path().to_string(),
        ".values.root_module.resources[0].sensitive_values"
    );
    assert!(State::from_json(b"{} x").is_err());
    assert!(State::from_json(b"\xff").is_err());
    // Replace paths: names, indexes, set elements' values.
    let c = Plan::from_json(br#"{"resource_changes":[{"address":"a.b","change":{"replace_paths":[["rule",{"port":443},"cidr"],["ips",0],["n",1.5]]}}]}"#).unwrap();
    let paths: Vec<String> = c.resource_changes[0]
        .change
        .replace_paths
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(paths, [".rule[...].cidr", ".ips[0]", ".n[1.5]"]);
    // Deep module nesting is an error, not a stack overflow.
    let deep = format!(
        r#"{{"values":{{"root_module":{}{{}}{}}}}}"#,
        r#"{"child_modules":["#.repeat(5000),
        "]}".repeat(5000)
    );
    let err = State::from_json(deep.as_bytes()).unwrap_err();
    assert_eq!(err.kind(), ctywire::ErrorKind::LimitExceeded, "{err}");
    let shallow = deep
        .replace(&r#"{"child_modules":["#.repeat(4990), "")
        .replace(&"]}".repeat(4990), "");
    let s = State::from_json(shallow.as_bytes()).unwrap();
    assert_eq!(s.values.unwrap().root_module.modules().count(), 11);
    // Properties a later version adds are skipped.
    let s = State::from_json(
        br#"{"format_version":"1.5","values":{"root_module":{},"extra":[1]},"new":{}}"#,
    )
    .unwrap();
    assert!(s.values.is_some());
}

/// `text` in UTF-16, little- or big-endian, after a byte-order mark when `bom`.
fn utf16(text: &[u8], big_endian: bool, bom: bool) -> Vec<u8> {
    let text = std::str::from_utf8(text).unwrap();
    let unit = |u: u16| {
        if big_endian {
            u.to_be_bytes()
        } else {
            u.to_le_bytes()
        }
    };
    let bom = bom.then_some(0xFEFF);
    bom.into_iter()
        .chain(text.encode_utf16())
        .flat_map(unit)
        .collect()
}

#[test]
fn documents_in_utf16_and_with_a_byte_order_mark() {
    // PowerShell's `terraform show -json > plan.json` writes UTF-16 with a byte-order
    // mark; some editors add a UTF-8 one.
    for file in ["examples/plan/plan.json", "examples/plan/state.json"] {
        let text = repo_file(file);
        let plain = Document::from_json(&text).unwrap();
        for (name, input) in [
            ("UTF-8 with BOM", [&b"\xEF\xBB\xBF"[..], &text].concat()),
            ("UTF-16LE with BOM", utf16(&text, false, true)),
            ("UTF-16BE with BOM", utf16(&text, true, true)),
            ("UTF-16LE", utf16(&text, false, false)),
            ("UTF-16BE", utf16(&text, true, false)),
        ] {
            let doc = Document::from_json(&input).unwrap_or_else(|e| panic!("{file}, {name}: {e}"));
            assert!(doc == plain, "{file}, {name}");
        }
    }
    // Errors give the line and column in the text, whatever its encoding.
    let bad = utf16(b"{\n  \"values\": 1}", false, true);
    let err = State::from_json(&bad).unwrap_err();
    assert_eq!(
        err.to_string(),
        ".values: expected an object, found a number at line 2 column 13"
    );
    let err = State::from_json(&[0xFF, 0xFE, b'{', 0, 0x00, 0xDC, b'}', 0]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid UTF-16 in the document: an unpaired surrogate 0xdc00 at byte 4"
    );
    // Plain UTF-8 must be valid.
    let err = State::from_json(b"{\"a\": \"\xff\"}").unwrap_err();
    assert_eq!(err.to_string(), "invalid UTF-8 in the document at byte 7");
}

// ---------------------------------------------------------------------------
// Paths

#[test]
fn paths_print_and_parse() {
    let cases: Vec<(Path, &str, &str)> = vec![
        (Path::root(), "", ""),
        (
            Path::root().attribute("tags").at_map_key("Name"),
            r#".tags["Name"]"#,
            "tags.Name",
        ),
        (
            Path::root()
                .attribute("disk")
                .at_slice_index(0)
                .attribute("size"),
            ".disk[0].size",
            "disk.0.size",
        ),
        (Path::root().at_map_key("a"), r#"["a"]"#, "a"),
        (Path::root().at_slice_index(3), "[3]", "3"),
        (
            Path::root()
                .attribute("m")
                .at_map_key("q\"\\\n\t\u{7}é\u{a0}"),
            r#".m["q\"\\\n\t\aé\u00a0"]"#,
            "m.q\"\\\n\t\u{7}é\u{a0}",
        ),
        (
            Path::root().attribute("m").at_map_key("a.b[0]"),
            r#".m["a.b[0]"]"#,
            "m.a.b[0]",
        ),
    ];
    for (path, printed, dotted) in cases {
        assert_eq!(path.to_string(), printed);
        assert_eq!(path.to_tfjsonpath(), dotted);
        assert_eq!(Path::parse(printed).unwrap(), path, "{printed}");
    }
    // the tfjsonpath form and the bare first name parse too
    assert_eq!(
        Path::parse("disk.0.size").unwrap(),
        Path::root()
            .attribute("disk")
            .at_slice_index(0)
            .attribute("size")
    );
    assert_eq!(
        Path::parse("tags[\"x\"]").unwrap(),
        Path::root().attribute("tags").at_map_key("x")
    );
    // other escapes: JSON's and Rust's
    assert_eq!(
        Path::parse(r#"["\ud83d\ude00\u{1F600}\x41\U0001F600"]"#).unwrap(),
        Path::root().at_map_key("😀😀A😀")
    );
    // A lone `.` is the empty path, as jq writes it (see `Path::parse`).
    assert!(Path::parse(".").unwrap().is_empty());
    for bad in [
        "a..b",
        "[",
        "[x]",
        "[\"a\"",
        "[0",
        ".a]",
        "[\"\\q\"]",
        "a b",
        "[99999999999999999999999]",
    ] {
        let err = Path::parse(bad).unwrap_err();
        assert_eq!(err.kind(), ctywire::ErrorKind::Syntax, "{bad}");
    }
    assert_eq!(
        Path::parse("a..b").unwrap_err().to_string(),
        "expected an attribute name, found '.' at line 1 column 3"
    );
}

#[test]
fn paths_find_values() {
    let v = Value::object([
        ("ports", Value::set([Value::from(443), Value::from(80)])),
        (
            "t",
            Value::typed(
                ty("tuple([string,map(number)])"),
                Value::tuple([Value::from("x"), Value::map([("k", Value::from(1))])]),
            ),
        ),
        ("n", Value::Null),
    ]);
    let at = |p: Path| v.at_path(&p);
    assert_eq!(
        at(Path::root().attribute("ports").at_slice_index(0)),
        Some(&Value::from(80))
    );
    assert_eq!(
        at(Path::root()
            .attribute("ports")
            .at_set_element(Value::from(443))),
        Some(&Value::from(443))
    );
    assert_eq!(
        at(Path::root()
            .attribute("ports")
            .at_set_element(Value::from(1))),
        None
    );
    assert_eq!(
        at(Path::root().attribute("t").at_slice_index(1).attribute("k")),
        Some(&Value::from(1))
    );
    assert_eq!(at(Path::root().attribute("n").attribute("x")), None);
    assert_eq!(at(Path::root().attribute("t").attribute("x")), None);
    assert_eq!(at(Path::root()), Some(&v));

    let doc: Json = serde_json::json!({"ports": [80, 443], "t": ["x", {"k": 1}]});
    assert_eq!(
        tfjson::json_at_path(
            &doc,
            &Path::root()
                .attribute("ports")
                .at_set_element(Value::from(443))
        ),
        Some(&Json::from(443))
    );
    assert_eq!(
        tfjson::json_at_path(
            &doc,
            &Path::root()
                .attribute("t")
                .at_slice_index(1)
                .at_map_key("k")
        ),
        Some(&Json::from(1))
    );
    assert_eq!(
        tfjson::json_at_path(&doc, &Path::root().attribute("t").at_map_key("k")),
        None
    );

    // resolving step kinds with a type
    let t =
        ty("object({ports=set(number), t=tuple([string,map(number)]), o=map(object({a=string}))})");
    let p = Path::parse("o.k.a").unwrap().resolve(&t);
    assert_eq!(
        p.steps(),
        [
            PathStep::Attribute("o".into()),
            PathStep::Key("k".into()),
            PathStep::Attribute("a".into())
        ]
    );
    assert_eq!(
        Path::parse("t.1.key").unwrap().resolve(&t).to_string(),
        r#".t[1]["key"]"#
    );
    assert!(Path::root().attribute("o").is_prefix_of(&p));
    assert!(!p.is_prefix_of(&Path::root().attribute("o")));
}

#[test]
fn mark_trees() {
    let t: MarkTree = r#"{"a":[true,{"b":true}],"c":null}"#.parse().unwrap();
    assert_eq!(t.to_string(), r#"{"a":[true,{"b":true}],"c":false}"#);
    assert!(t.is_marked(&Path::parse(".a[0].anything").unwrap()));
    assert!(t.is_marked(&Path::parse(".a[1].b").unwrap()));
    assert!(!t.is_marked(&Path::parse(".a[1].c").unwrap()));
    assert!(!t.is_marked(&Path::parse(".a[2]").unwrap()));
    assert_eq!(
        t.at_path(&Path::parse(".a[1]").unwrap())
            .unwrap()
            .to_string(),
        r#"{"b":true}"#
    );
    assert!(t.any());
    assert!(MarkTree::parse("1").is_err());
    assert!(MarkTree::parse(r#"{"a":"x"}"#).is_err());
    assert_eq!(MarkTree::default(), MarkTree::Bool(false));
}

/// With the provider schema file, every resource of the example documents finds its
/// schema by mode, type and provider, and its values come back typed.
#[test]
fn provider_schema_types_every_resource() {
    use ctywire::schema::ProviderSchemas;
    let schemas =
        ProviderSchemas::from_json(&std::fs::read("examples/plan/schema.json").unwrap()).unwrap();
    let state =
        ctywire::tfjson::State::from_json(&std::fs::read("examples/plan/state.json").unwrap())
            .unwrap();
    let mut typed = 0;
    for resource in state.values.as_ref().unwrap().resources() {
        let schema = resource
            .schema(&schemas)
            .unwrap_or_else(|e| panic!("{}: {e}", resource.address));
        let value = resource.typed_values(&schema.implied_type()).unwrap();
        assert!(value.as_object().is_some(), "{}", resource.address);
        typed += 1;
    }
    let plan = ctywire::tfjson::Plan::from_json(&std::fs::read("examples/plan/plan.json").unwrap())
        .unwrap();
    for change in &plan.resource_changes {
        let ty = change.schema(&schemas).unwrap().implied_type();
        change.change.typed_before(&ty).unwrap();
        change.change.typed_after(&ty).unwrap();
        typed += 1;
    }
    assert!(typed > 10, "{typed}");
}

//! Every plan check and state check on documents as `terraform show -json` writes them:
//! each passes on a right value and fails on a wrong one with a message that names the
//! instance, the path and both values (never a sensitive one).

use ctywire::tfjson::{Plan, State};
use ctywire_testing::{Expect, PlanCheck, ResourceAction, StateCheck, Track};

fn plan(changes: &str) -> Plan {
    Plan::from_json(
        format!(r#"{{"format_version": "1.2", "resource_changes": [{changes}]}}"#).as_bytes(),
    )
    .unwrap()
}

fn change(address: &str, actions: &str, after: &str, unknown: &str, sensitive: &str) -> String {
    let (ty, name) = address.split_once('.').unwrap();
    format!(
        r#"{{"address": "{address}", "mode": "managed", "type": "{ty}", "name": "{name}",
            "change": {{"actions": {actions}, "before": null, "after": {after},
                        "after_unknown": {unknown}, "after_sensitive": {sensitive}}}}}"#
    )
}

fn state(resources: &str, outputs: &str) -> State {
    State::from_json(
        format!(r#"{{"format_version": "1.0", "values": {{"outputs": {{{outputs}}}, "root_module": {{"resources": [{resources}]}}}}}}"#)
            .as_bytes(),
    )
    .unwrap()
}

fn resource(address: &str, values: &str, sensitive: &str) -> String {
    let (ty, name) = address.split_once('.').unwrap();
    format!(
        r#"{{"address": "{address}", "mode": "managed", "type": "{ty}", "name": "{name}",
            "values": {values}, "sensitive_values": {sensitive}}}"#
    )
}

#[test]
fn empty_and_non_empty_plans() {
    let noop = plan(&change("t.a", r#"["no-op"]"#, "{}", "{}", "{}"));
    let create = plan(&change("t.a", r#"["create"]"#, "{}", "{}", "{}"));
    assert_eq!(PlanCheck::empty().check(&noop), Ok(()));
    assert_eq!(
        PlanCheck::empty().check(&create).unwrap_err(),
        "expected an empty plan, found: t.a: create"
    );
    assert_eq!(PlanCheck::non_empty().check(&create), Ok(()));
    assert_eq!(
        PlanCheck::non_empty().check(&noop).unwrap_err(),
        "expected a plan with changes, found an empty one"
    );
}

#[test]
fn resource_actions() {
    use ResourceAction::*;
    let cases = [
        (r#"["no-op"]"#, NoOp),
        (r#"["create"]"#, Create),
        (r#"["read"]"#, Read),
        (r#"["update"]"#, Update),
        (r#"["delete"]"#, Destroy),
        (r#"["delete", "create"]"#, DestroyBeforeCreate),
        (r#"["create", "delete"]"#, CreateBeforeDestroy),
    ];
    for (actions, action) in cases {
        let p = plan(&change("t.a", actions, "{}", "{}", "{}"));
        assert_eq!(
            PlanCheck::resource_action("t.a", action).check(&p),
            Ok(()),
            "{actions}"
        );
        let replace = matches!(action, DestroyBeforeCreate | CreateBeforeDestroy);
        assert_eq!(
            PlanCheck::resource_action("t.a", Replace).check(&p).is_ok(),
            replace,
            "{actions}"
        );
        let other = if action == Create { Update } else { Create };
        let err = PlanCheck::resource_action("t.a", other)
            .check(&p)
            .unwrap_err();
        assert!(
            err.starts_with(&format!("t.a: expected {other:?}, found [")),
            "{err}"
        );
    }
    let p = plan(&change("t.a", r#"["create"]"#, "{}", "{}", "{}"));
    assert_eq!(
        PlanCheck::resource_action("t.b", Create)
            .check(&p)
            .unwrap_err(),
        "t.b: not in the plan (expected Create)"
    );
}

#[test]
fn planned_values_unknown_sensitive_and_known() {
    let p = plan(&change(
        "t.a",
        r#"["create"]"#,
        r#"{"name": "a", "secret": "hunter2", "disk": [{"size": 1}, {}], "big": 123456789012345678901234567890}"#,
        r#"{"id": true, "disk": [{}, {"size": true}]}"#,
        r#"{"secret": true}"#,
    ));
    assert_eq!(PlanCheck::unknown_value("t.a", "id").check(&p), Ok(()));
    assert_eq!(
        PlanCheck::unknown_value("t.a", "disk.1.size").check(&p),
        Ok(())
    );
    assert_eq!(
        PlanCheck::unknown_value("t.a", ".disk[0].size")
            .check(&p)
            .unwrap_err(),
        "t.a at .disk[0].size: expected an unknown value, found 1"
    );
    assert_eq!(
        PlanCheck::unknown_value("t.a", "secret")
            .check(&p)
            .unwrap_err(),
        "t.a at .secret: expected an unknown value, found (sensitive value)"
    );
    assert_eq!(
        PlanCheck::sensitive_value("t.a", "secret").check(&p),
        Ok(())
    );
    assert_eq!(
        PlanCheck::sensitive_value("t.a", "name")
            .check(&p)
            .unwrap_err(),
        "t.a at .name: expected a sensitive value, found one that is not"
    );
    assert_eq!(
        PlanCheck::known_value("t.a", "name", Expect::string("a")).check(&p),
        Ok(())
    );
    assert_eq!(
        PlanCheck::known_value(
            "t.a",
            "big",
            Expect::number("123456789012345678901234567890")
        )
        .check(&p),
        Ok(())
    );
    assert_eq!(
        PlanCheck::known_value("t.a", "big", Expect::number("123456789012345678901234567891"))
            .check(&p)
            .unwrap_err(),
        "t.a at .big: expected 123456789012345678901234567891, found 123456789012345678901234567890"
    );
    assert_eq!(
        PlanCheck::known_value("t.a", "name", Expect::string("b"))
            .check(&p)
            .unwrap_err(),
        r#"t.a at .name: expected "b", found "a""#
    );
    let err = PlanCheck::known_value("t.a", "secret", Expect::string("x"))
        .check(&p)
        .unwrap_err();
    assert_eq!(
        err,
        "t.a at .secret: expected (sensitive value), found (sensitive value)"
    );
    assert_eq!(
        PlanCheck::known_value("t.a", "id", Expect::not_null())
            .check(&p)
            .unwrap_err(),
        "t.a at .id: expected a value that is not null, found (known after apply)"
    );
    assert_eq!(
        PlanCheck::known_value("t.a", "nothing", Expect::null())
            .check(&p)
            .unwrap_err(),
        "t.a: no value at .nothing"
    );
}

#[test]
fn state_values_outputs_and_presence() {
    let s = state(
        &resource(
            "t.a",
            r#"{"id": "a-1", "tags": {"env": "dev"}, "ports": [80, 443], "secret": "hunter2", "ok": true}"#,
            r#"{"secret": true}"#,
        ),
        r#""url": {"value": "https://a", "sensitive": false}, "token": {"value": "hunter2", "sensitive": true}"#,
    );
    let known = |path, expect| StateCheck::known_value("t.a", path, expect).check(&s);
    assert_eq!(
        known("tags", Expect::map([("env", Expect::string("dev"))])),
        Ok(())
    );
    assert_eq!(
        known("tags", Expect::map([("env", Expect::string("prod"))])).unwrap_err(),
        r#"t.a at .tags.env: expected "prod", found "dev""#
    );
    assert_eq!(
        known("ports", Expect::set([Expect::int(443), Expect::int(80)])),
        Ok(())
    );
    assert_eq!(known("ports", Expect::size(2)), Ok(()));
    assert_eq!(
        known("ports", Expect::size(3)).unwrap_err(),
        "t.a at .ports: expected 3 elements, found [80, 443]"
    );
    assert_eq!(known("ok", Expect::bool(true)), Ok(()));
    assert_eq!(
        known("ok", Expect::null()).unwrap_err(),
        "t.a at .ok: expected null, found true"
    );
    let err = known("secret", Expect::regex("^x")).unwrap_err();
    assert!(!err.contains("hunter2"), "{err}");
    assert_eq!(
        StateCheck::known_value("t.b", "id", Expect::not_null())
            .check(&s)
            .unwrap_err(),
        "t.b: not in the state"
    );
    assert_eq!(
        StateCheck::known_output("url", Expect::regex("^https://")).check(&s),
        Ok(())
    );
    let err = StateCheck::known_output("token", Expect::string("x"))
        .check(&s)
        .unwrap_err();
    assert_eq!(
        err,
        "output.token: expected (sensitive value), found (sensitive value)"
    );
    assert_eq!(
        StateCheck::known_output("url", Expect::string("x"))
            .check(&s)
            .unwrap_err(),
        r#"output.url: expected "x", found "https://a""#
    );
    assert_eq!(StateCheck::resource_exists("t.a", true).check(&s), Ok(()));
    assert_eq!(
        StateCheck::resource_exists("t.a", false)
            .check(&s)
            .unwrap_err(),
        "t.a: still in the state"
    );
    assert_eq!(
        StateCheck::resource_exists("t.b", true)
            .check(&s)
            .unwrap_err(),
        "t.b: not in the state"
    );
}

#[test]
fn values_across_steps_and_between_resources() {
    let step = |id: &str, other: &str| {
        state(
            &[
                resource("t.a", &format!(r#"{{"id": "{id}"}}"#), "{}"),
                resource("t.b", &format!(r#"{{"id": "{other}"}}"#), "{}"),
            ]
            .join(","),
            "",
        )
    };
    let unchanged = Track::unchanged();
    let check = StateCheck::track(&unchanged, "t.a", "id");
    assert_eq!(check.check(&step("1", "x")), Ok(()));
    assert_eq!(check.check(&step("1", "y")), Ok(()));
    assert_eq!(
        check.check(&step("2", "y")).unwrap_err(),
        r#"t.a at .id: expected the value unchanged since t.a at .id ("1"), found "2""#
    );
    let changing = Track::changing();
    let check = StateCheck::track(&changing, "t.a", "id");
    assert_eq!(check.check(&step("1", "x")), Ok(()));
    assert_eq!(check.check(&step("2", "x")), Ok(()));
    assert_eq!(
        check.check(&step("2", "x")).unwrap_err(),
        r#"t.a at .id: expected a change, found the same value as before ("2")"#
    );
    let differ = StateCheck::compare_pair("t.a", "id", "t.b", "id", false);
    assert_eq!(differ.check(&step("1", "2")), Ok(()));
    assert_eq!(
        differ.check(&step("1", "1")).unwrap_err(),
        r#"t.a at .id ("1") and t.b at .id ("1"): expected them to differ"#
    );
    let same = StateCheck::compare_pair("t.a", "id", "t.b", "id", true);
    assert_eq!(same.check(&step("1", "1")), Ok(()));
    assert!(same.check(&step("1", "2")).is_err());
}

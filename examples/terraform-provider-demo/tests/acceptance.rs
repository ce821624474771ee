//! The demo provider's acceptance tests on ctywire-testing: the provider served in this
//! process, real Terraform driving it (run with `TF_ACC=1`; see ctywire-testing for how
//! Terraform is found).

use ctywire_testing::{
    Expect, PlanCheck, ResourceAction, StateCheck, Step, Terraform, Test, Track, Workspace,
};
use terraform_provider_demo::{plugin, ADDRESS};

/// The test that ctywire-testing's README shows, with this provider for `my_provider`
/// (`readme_test_is_this_file_s` keeps the two the same).
#[rustfmt::skip]
mod readme {
    mod my_provider {
        pub use terraform_provider_demo::plugin;
    }
    // BEGIN README
    use ctywire_testing::{Expect, PlanCheck, ResourceAction, StateCheck, Step, Test, Track};

    fn thing(size: u32) -> String {
        format!("resource \"demo_thing\" \"x\" {{\n  name = \"a\"\n  size = {size}\n}}\n")
    }

    #[test]
    fn thing_lifecycle() {
        let id = Track::unchanged();
        Test::new("example.com/ctywire/demo", my_provider::plugin)
            .step(
                Step::config(thing(2))
                    .plan_check(PlanCheck::resource_action("demo_thing.x", ResourceAction::Create))
                    .plan_check(PlanCheck::unknown_value("demo_thing.x", "id"))
                    .state_check(StateCheck::known_value("demo_thing.x", "id", Expect::regex("^thing-")))
                    .state_check(StateCheck::track(&id, "demo_thing.x", "id")),
            )
            .step(
                Step::config(thing(3))
                    .plan_check(PlanCheck::resource_action("demo_thing.x", ResourceAction::Update))
                    .state_check(StateCheck::track(&id, "demo_thing.x", "id")),
            )
            .step(Step::import("demo_thing.x").import_state_verify().import_state_verify_ignore(["size"]))
            .step(
                Step::config(r#"resource "demo_thing" "x" { nmae = "a" }"#)
                    .expect_error(r#"An argument named "nmae" is not expected here"#),
            )
            .run();
    }
    // END README
}

/// ctywire-testing's README shows the test above, line for line, and it is complete in
/// under 40 lines.
#[test]
fn readme_test_is_this_file_s() {
    let readme = include_str!("../../../crates/ctywire-testing/README.md");
    let start = readme.find("```rust,ignore\n").unwrap() + "```rust,ignore\n".len();
    let shown = &readme[start..start + readme[start..].find("```").unwrap()];
    let this = include_str!("acceptance.rs");
    let ours = &this[this.find("// BEGIN README\n").unwrap() + "// BEGIN README\n".len()
        ..this.find("    // END README").unwrap()];
    let ours: String = ours
        .lines()
        .map(|l| l.strip_prefix("    ").unwrap_or(l).to_owned() + "\n")
        .collect();
    assert_eq!(shown, ours);
    assert!(
        shown.lines().count() < 40,
        "{} lines",
        shown.lines().count()
    );
}

fn thing(name: &str, size: u32) -> String {
    format!(
        r#"
resource "demo_thing" "x" {{
  name   = "{name}"
  size   = {size}
  tags   = {{ env = "dev" }}
  secret = "s3cret"
  labels = ["b", "a", "b"]
  disk {{
    size = 1
  }}
  disk {{
    size = 2
    kind = "ssd"
  }}
}}
"#
    )
}

#[test]
fn a_thing_is_created_updated_replaced_refreshed_and_imported() {
    let id = Track::unchanged();
    Test::new(ADDRESS, plugin)
        .step(
            Step::config(thing("a", 2))
                .plan_check(PlanCheck::resource_action(
                    "demo_thing.x",
                    ResourceAction::Create,
                ))
                .plan_check(PlanCheck::unknown_value("demo_thing.x", "id"))
                .plan_check(PlanCheck::sensitive_value("demo_thing.x", "secret"))
                .plan_check(PlanCheck::known_value(
                    "demo_thing.x",
                    "labels",
                    Expect::set([Expect::string("a"), Expect::string("b")]),
                ))
                .state_check(StateCheck::known_value(
                    "demo_thing.x",
                    "id",
                    Expect::string("thing-a"),
                ))
                .state_check(StateCheck::known_value(
                    "demo_thing.x",
                    "disk",
                    Expect::list([
                        Expect::object([
                            ("size", Expect::int(1)),
                            ("kind", Expect::string("standard")),
                        ]),
                        Expect::object([("size", Expect::int(2)), ("kind", Expect::string("ssd"))]),
                    ]),
                ))
                .state_check(StateCheck::track(&id, "demo_thing.x", "id")),
        )
        .step(
            Step::config(thing("a", 3))
                .plan_check(PlanCheck::resource_action(
                    "demo_thing.x",
                    ResourceAction::Update,
                ))
                .plan_check(PlanCheck::known_value(
                    "demo_thing.x",
                    "size",
                    Expect::int(3),
                ))
                .state_check(StateCheck::track(&id, "demo_thing.x", "id")),
        )
        .step(Step::refresh().state_check(StateCheck::known_value(
            "demo_thing.x",
            "size",
            Expect::int(3),
        )))
        // The demo's import reads the object by its id, which keeps only the name.
        .step(
            Step::import("demo_thing.x")
                .import_state_verify()
                .import_state_verify_ignore(["disk", "labels", "secret", "size", "tags"]),
        )
        .step(
            Step::import("demo_thing.x")
                .import_id("thing-a")
                .state_check(StateCheck::known_value(
                    "demo_thing.x",
                    "name",
                    Expect::string("a"),
                )),
        )
        .step(
            Step::config(thing("b", 3))
                .plan_check(PlanCheck::resource_action(
                    "demo_thing.x",
                    ResourceAction::Replace,
                ))
                .state_check(StateCheck::known_value(
                    "demo_thing.x",
                    "id",
                    Expect::string("thing-b"),
                )),
        )
        .check_destroy(
            |state| match state.values.as_ref().map(|v| v.resources().count()) {
                None | Some(0) => Ok(()),
                Some(n) => Err(format!("{n} resources left")),
            },
        )
        .run();
}

#[test]
fn a_misspelled_argument_is_terraform_s_error() {
    Test::new(ADDRESS, plugin)
        .step(
            Step::config(r#"resource "demo_thing" "x" { nmae = "a" }"#)
                .expect_error(r#"An argument named "nmae" is not expected here"#),
        )
        .run();
}

#[test]
fn a_plan_only_step_sees_the_plan_and_the_function() {
    Test::new(ADDRESS, plugin)
        .step(
            Step::config(
                r#"output "joined" { value = provider::demo::concat("-", "a", "b") }
resource "demo_thing" "x" { name = "p" }"#,
            )
            .plan_only()
            .expect_non_empty_plan()
            .plan_check(PlanCheck::non_empty())
            .plan_check(PlanCheck::resource_action(
                "demo_thing.x",
                ResourceAction::Create,
            )),
        )
        .run();
}

#[test]
fn outputs_are_checked_in_the_state() {
    Test::new(ADDRESS, plugin)
        .step(
            Step::config(
                r#"output "joined" { value = provider::demo::concat("-", "a", "b", "c") }"#,
            )
            .state_check(StateCheck::known_output("joined", Expect::string("a-b-c"))),
        )
        .run();
}

/// A wrong expectation fails the test with the step, the path and both values, and never
/// shows a sensitive value.
#[test]
fn wrong_expectations_fail_naming_the_path_and_both_values() {
    let Some(terraform) = Terraform::for_acceptance() else {
        return;
    };
    let fails = |step: Step| {
        let err = Test::new(ADDRESS, plugin)
            .step(step)
            .run_with(&terraform)
            .expect_err("a wrong expectation passed");
        // The failure keeps its working directory, which this test does not need.
        let kept = err.rsplit("working directory kept: ").next().unwrap();
        std::fs::remove_dir_all(kept.trim()).unwrap();
        err
    };
    let config = thing("a", 2);
    let err = fails(Step::config(&config).state_check(StateCheck::known_value(
        "demo_thing.x",
        "disk[1].kind",
        Expect::string("hdd"),
    )));
    assert!(
        err.starts_with("step 1 of 1 failed: state check: demo_thing.x at .disk[1].kind: expected \"hdd\", found \"ssd\""),
        "{err}"
    );
    let err = fails(Step::config(&config).state_check(StateCheck::known_value(
        "demo_thing.x",
        "secret",
        Expect::string("x"),
    )));
    assert!(
        err.contains(
            "demo_thing.x at .secret: expected (sensitive value), found (sensitive value)"
        ),
        "{err}"
    );
    let line = err.lines().next().unwrap();
    assert!(!line.contains("s3cret"), "{err}");
    let err = fails(Step::config(&config).plan_check(PlanCheck::resource_action(
        "demo_thing.x",
        ResourceAction::Update,
    )));
    assert!(
        err.contains("plan check: demo_thing.x: expected Update, found [create]"),
        "{err}"
    );
    assert!(err.contains("--- the plan"), "{err}");
    let err = fails(Step::config(&config).plan_check(PlanCheck::known_value(
        "demo_thing.x",
        "id",
        Expect::not_null(),
    )));
    assert!(
        err.contains(
            "demo_thing.x at .id: expected a value that is not null, found (known after apply)"
        ),
        "{err}"
    );
    let err = fails(Step::config(&config).expect_error("no such error"));
    assert!(
        err.contains("expected an error matching /no such error/, but the step succeeded"),
        "{err}"
    );
}

/// A step for a later Terraform is skipped (it would fail if it ran); a destroy step
/// leaves nothing; a failing `check_destroy` fails the test.
#[test]
fn version_conditions_destroy_steps_and_check_destroy() {
    let Some(terraform) = Terraform::for_acceptance() else {
        return;
    };
    Test::new(ADDRESS, plugin)
        .step(
            Step::config(thing("a", 2))
                .min_terraform(ctywire_testing::Version::new(99, 0, 0))
                .expect_error("this step never runs"),
        )
        .step(
            Step::config(thing("a", 2))
                .state_check(StateCheck::resource_exists("demo_thing.x", true)),
        )
        .step(
            Step::config(thing("a", 2))
                .destroy()
                .plan_check(PlanCheck::resource_action(
                    "demo_thing.x",
                    ResourceAction::Destroy,
                ))
                .state_check(StateCheck::resource_exists("demo_thing.x", false)),
        )
        .run_with(&terraform)
        .unwrap();
    let err = Test::new(ADDRESS, plugin)
        .step(Step::config(thing("a", 2)))
        .check_destroy(|_| Err("the thing is still there".into()))
        .run_with(&terraform)
        .unwrap_err();
    assert!(
        err.starts_with("check_destroy: the thing is still there"),
        "{err}"
    );
    let kept = err.rsplit("working directory kept: ").next().unwrap();
    std::fs::remove_dir_all(kept.trim()).unwrap();
}

/// A failing step's whole report under real Terraform: the step and how many there are,
/// the check, the resource, the path, both values, the plan exactly as `terraform show`
/// prints the step's saved plan (its secret hidden), the configuration and the kept
/// working directory.
#[test]
fn a_failing_step_s_report_shows_terraform_s_plan_text() {
    let Some(terraform) = Terraform::for_acceptance() else {
        return;
    };
    let err = Test::new(ADDRESS, plugin)
        .step(Step::config(thing("a", 2)))
        .step(
            Step::config(thing("a", 3))
                .plan_check(PlanCheck::resource_action(
                    "demo_thing.x",
                    ResourceAction::Replace,
                ))
                .plan_check(PlanCheck::known_value(
                    "demo_thing.x",
                    "size",
                    Expect::number("4"),
                )),
        )
        .run_with(&terraform)
        .expect_err("a wrong plan check passed");
    let (report, kept) = err.split_once("\n\nworking directory kept: ").unwrap();
    let kept = std::path::PathBuf::from(kept.trim());
    let (report, captures) = report
        .split_once("\n\nthe provider's calls: ctywire capture ")
        .unwrap();
    assert_eq!(std::path::Path::new(captures), kept.join("captures"));
    let (head, rest) = report.split_once("\n--- the plan\n").unwrap();
    assert_eq!(
        head,
        "step 2 of 2 failed: plan check: demo_thing.x: expected Replace, found [update]\n\
         plan check: demo_thing.x at .size: expected 4, found 3"
    );
    let (plan, config) = rest.split_once("\n\n--- configuration\n").unwrap();
    assert_eq!(config, thing("a", 3).trim_end());
    // The plan the step saved, shown by Terraform itself with the provider attached again.
    let ws = Workspace::in_process(&terraform, ADDRESS, plugin).unwrap();
    let show = ws.terraform_in(&kept.join("work"), &["show", "-no-color", "tfplan"]);
    assert_eq!(plan, show.success().stdout.trim_matches('\n'));
    assert!(plan.contains("  ~ size   = 2 -> 3\n"), "{plan}");
    assert!(
        plan.ends_with("Plan: 0 to add, 1 to change, 0 to destroy."),
        "{plan}"
    );
    assert!(
        !plan.contains("s3cret") && !head.contains("s3cret"),
        "{plan}"
    );
    std::fs::remove_dir_all(kept).unwrap();
}

/// The in-process provider's calls are captured into the test's working directory,
/// kept on failure, in files that `ctywire capture` pairs into whole calls, each typed
/// by the provider's schema; a test without captures writes none.
#[test]
fn an_in_process_provider_s_captures_are_kept_and_paired() {
    use ctywire::capture::{Capture, Resolved, Resolver, Status};
    let Some(terraform) = Terraform::for_acceptance() else {
        return;
    };
    let failing = || {
        Step::config(thing("a", 3)).plan_check(PlanCheck::resource_action(
            "demo_thing.x",
            ResourceAction::Create,
        ))
    };
    let err = Test::new(ADDRESS, plugin)
        .step(Step::config(thing("a", 2)))
        .step(failing())
        .run_with(&terraform)
        .expect_err("a wrong plan check passed");
    let kept = std::path::PathBuf::from(
        err.rsplit("working directory kept: ")
            .next()
            .unwrap()
            .trim(),
    );
    let capture = Capture::read_dir(&kept.join("captures")).unwrap();
    assert!(capture.problems.is_empty(), "{:#?}", capture.problems);
    let schemas = ctywire::schema::ProviderSchemas::from_json(
        terraform_provider_demo::schema_json().as_bytes(),
    )
    .unwrap();
    let mut resolver = Resolver::new(&schemas);
    let mut rpcs = std::collections::BTreeMap::<&str, usize>::new();
    for call in &capture.calls {
        assert_eq!(
            call.status,
            Status::Complete,
            "{} {:?}",
            call.rpc,
            call.explain
        );
        match resolver.resolve(call) {
            Resolved::Found(_) | Resolved::OnlyNulls | Resolved::Untyped => {}
            other => panic!("{}: {other:?}", call.rpc),
        }
        *rpcs.entry(call.rpc.as_str()).or_default() += 1;
    }
    // Step 1: plan, apply, the plan after it (with a refresh); step 2: a refresh and the
    // plan that failed its check.
    assert_eq!(rpcs.get("ApplyResourceChange"), Some(&1), "{rpcs:?}");
    assert!(rpcs.get("PlanResourceChange") >= Some(&3), "{rpcs:?}");
    assert!(rpcs.get("ReadResource") >= Some(&2), "{rpcs:?}");
    std::fs::remove_dir_all(&kept).unwrap();

    let err = Test::new(ADDRESS, plugin)
        .captures(false)
        .step(
            Step::config(thing("a", 3)).plan_check(PlanCheck::resource_action(
                "demo_thing.x",
                ResourceAction::Update,
            )),
        )
        .run_with(&terraform)
        .expect_err("a wrong plan check passed");
    assert!(!err.contains("ctywire capture"), "{err}");
    let kept = std::path::PathBuf::from(
        err.rsplit("working directory kept: ")
            .next()
            .unwrap()
            .trim(),
    );
    assert_eq!(std::fs::read_dir(kept.join("captures")).unwrap().count(), 0);
    std::fs::remove_dir_all(&kept).unwrap();
}

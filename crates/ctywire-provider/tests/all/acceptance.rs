//! The framework at run time under real Terraform (run with `TF_ACC=1`; see
//! ctywire-testing): a panicking handler is a diagnostic naming the resource and the
//! call while the run and the provider go on, and Ctrl-C (SIGINT to Terraform's process
//! group) reaches a slow create as StopProvider, through its context. Write-only
//! attributes: null in the plan and the state, their configured values read by create
//! and update; private state set in modify_plan reaches the apply.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ctywire::Known;
use ctywire_provider::{Context, Resource, Result, Server};
use ctywire_testing::{Expect, PlanCheck, StateCheck, Step, Terraform, Test, Workspace};

const ADDRESS: &str = "example.com/test/rt";

provider!(Rt, "rt");

#[derive(ctywire::Object)]
struct Thing {
    #[cty(required)]
    name: String,
    #[cty(computed)]
    id: Known<String>,
}

/// Panics on a thing named `panic`; waits for Ctrl-C on a thing named `wait` (after
/// creating the file `mark` names), then returns its state with id `stopped`.
struct Things {
    mark: Option<std::path::PathBuf>,
    saw_stop: Arc<AtomicBool>,
}

impl Resource<()> for Things {
    const NAME: &'static str = "thing";
    type State = Thing;

    async fn create(&self, ctx: &Context<()>, mut thing: Thing) -> Result<Thing> {
        match thing.name.as_str() {
            "panic" => panic!("the thing exploded"),
            "wait" => {
                if let Some(mark) = &self.mark {
                    std::fs::write(mark, b"creating").expect("mark");
                }
                tokio::select! {
                    () = ctx.cancelled() => self.saw_stop.store(true, Ordering::SeqCst),
                    () = tokio::time::sleep(Duration::from_secs(120)) => {}
                }
                thing.id = Known::Known("stopped".into());
            }
            name => thing.id = Known::Known(format!("id-{name}")),
        }
        Ok(thing)
    }

    async fn update(&self, _: &Context<()>, _: Thing, planned: Thing) -> Result<Thing> {
        Ok(planned)
    }

    async fn delete(&self, _: &Context<()>, _: Thing) -> Result<()> {
        Ok(())
    }
}

/// A login whose password is write-only: create and update record what they read of
/// it (from the configuration) and what modify_plan left them in the private state.
#[derive(ctywire::Object)]
struct Login {
    #[cty(required)]
    user: String,
    #[cty(optional, sensitive, write_only)]
    password: Option<String>,
    /// What create or update read of the password.
    #[cty(computed)]
    seen: Known<String>,
    /// What modify_plan wrote in the private state for the apply.
    #[cty(computed)]
    note: Known<String>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Note {
    planned_for: String,
}

struct Logins;

impl Logins {
    fn record(ctx: &Context<()>, mut planned: Login) -> Result<Login> {
        let config: Login = ctx.config()?;
        planned.seen = Known::Known(config.password.unwrap_or_else(|| "none".into()));
        let note: Option<Note> = ctx.private()?;
        planned.note = Known::Known(note.map_or_else(|| "none".into(), |n| n.planned_for));
        Ok(planned)
    }
}

impl Resource<()> for Logins {
    const NAME: &'static str = "login";
    type State = Login;

    async fn modify_plan(
        &self,
        ctx: &Context<()>,
        plan: &mut ctywire_provider::Plan<Login>,
    ) -> Result<()> {
        let user = plan.config()?.user;
        ctx.set_private(&Note { planned_for: user })
    }

    async fn create(&self, ctx: &Context<()>, planned: Login) -> Result<Login> {
        assert!(planned.password.is_none(), "a write-only value in the plan");
        Logins::record(ctx, planned)
    }

    async fn update(&self, ctx: &Context<()>, _: Login, planned: Login) -> Result<Login> {
        Logins::record(ctx, planned)
    }

    async fn delete(&self, _: &Context<()>, _: Login) -> Result<()> {
        Ok(())
    }
}

fn plugin(mark: Option<std::path::PathBuf>, saw_stop: Arc<AtomicBool>) -> ctywire_tfplugin::Plugin {
    Server::new(Rt)
        .resource(Things { mark, saw_stop })
        .resource(Logins)
        .plugin()
}

/// A write-only password: Terraform accepts the plan and the state (null there), and
/// create and update read the configured value; what modify_plan set as private state
/// is what the apply reads.
#[test]
fn write_only_values_reach_the_apply_and_plans_carry_private_state() {
    let login = |user: &str, password: &str| {
        format!(
            r#"resource "rt_login" "x" {{
  user     = "{user}"
  password = "{password}"
}}"#
        )
    };
    let state =
        |attribute: &str, expect: Expect| StateCheck::known_value("rt_login.x", attribute, expect);
    Test::new(ADDRESS, || plugin(None, Arc::default()))
        .step(
            Step::config(login("a", "s3cret"))
                .state_check(state("password", Expect::null()))
                .state_check(state("seen", Expect::string("s3cret")))
                .state_check(state("note", Expect::string("a"))),
        )
        .step(
            Step::config(login("b", "n3w"))
                .state_check(state("password", Expect::null()))
                .state_check(state("seen", Expect::string("n3w")))
                .state_check(state("note", Expect::string("b"))),
        )
        .run();
}

/// A create that panics fails with a diagnostic naming the resource and the call; the
/// other resource of the same run is created, and the provider serves the next step.
#[test]
fn a_panicking_create_is_a_diagnostic_and_the_run_goes_on() {
    Test::new(ADDRESS, || plugin(None, Arc::default()))
        .step(
            Step::config(
                r#"
resource "rt_thing" "bad" { name = "panic" }
resource "rt_thing" "good" { name = "good" }
"#,
            )
            .expect_error("The provider panicked in create of rt_thing.*the thing exploded"),
        )
        .step(
            Step::config(r#"resource "rt_thing" "good" { name = "good" }"#)
                .plan_check(PlanCheck::empty())
                .state_check(StateCheck::known_value(
                    "rt_thing.good",
                    "id",
                    Expect::string("id-good"),
                )),
        )
        .run();
}

/// Ctrl-C while a create waits on `ctx.cancelled()`: Terraform asks the provider to
/// stop, the handler sees it and returns, and its object is in the state.
#[test]
fn ctrl_c_cancels_a_slow_create_through_its_context() {
    use std::os::unix::process::CommandExt;
    let Some(terraform) = Terraform::for_acceptance() else {
        return;
    };
    let marks = tempfile_dir();
    let mark = marks.join("creating");
    let saw_stop = Arc::new(AtomicBool::new(false));
    let ws = {
        let (mark, saw_stop) = (mark.clone(), Arc::clone(&saw_stop));
        Workspace::in_process(&terraform, ADDRESS, move || plugin(Some(mark), saw_stop))
            .unwrap_or_else(|e| panic!("{e}"))
    };
    ws.configure(r#"resource "rt_thing" "x" { name = "wait" }"#);
    let child = ws
        .command(&["apply", "-no-color", "-auto-approve", "-input=false"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("running Terraform");
    let deadline = Instant::now() + Duration::from_secs(120);
    while !mark.exists() {
        assert!(Instant::now() < deadline, "no create started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let started = Instant::now();
    let kill = std::process::Command::new("kill")
        .args(["-INT", "--", &format!("-{}", child.id())])
        .status()
        .expect("kill");
    assert!(kill.success());
    let out = child.wait_with_output().expect("terraform");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        saw_stop.load(Ordering::SeqCst),
        "the handler did not see the stop\n{stdout}\n{stderr}"
    );
    // Well before the handler's own two minutes.
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
    assert!(
        stdout.contains("Interrupt received.")
            && stdout.contains("rt_thing.x: Creation complete after"),
        "{stdout}\n{stderr}"
    );
    let state = ws.terraform(&["state", "show", "-no-color", "rt_thing.x"]);
    state.success();
    assert!(
        state.describe().contains(r#""stopped""#),
        "{}",
        state.describe()
    );
    let _ = std::fs::remove_dir_all(&marks);
}

fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ctywire-provider-acc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

//! Acceptance tests for Terraform providers written in Rust: a [`Test`] of [`Step`]s that
//! real Terraform runs against the provider, with checks of each step's plan
//! ([`PlanCheck`]) and of the state it leaves ([`StateCheck`]), values compared with
//! [`Expect`] at tfjson paths. It follows terraform-plugin-testing's conventions:
//!
//! - Acceptance tests run only when `TF_ACC` is set (to anything but `0`). Unset, each
//!   test reports itself skipped on the terminal and returns.
//! - With `TF_ACC` set, Terraform is found by [`Terraform::find`]; a test with no
//!   Terraform fails with what to install, never passes silently.
//! - Each test gets a working directory of its own (tests run in parallel under `cargo
//!   test`), kept on failure; after the last step the test destroys what it created and
//!   runs [`Test::check_destroy`].
//!
//! The provider runs in the test process ([`Test::new`]: served on a runtime of its own and
//! attached through `TF_REATTACH_PROVIDERS`, so no binary is built and breakpoints work),
//! or as a built binary through `dev_overrides` ([`Test::binary`]).
//!
//! ```no_run
//! use ctywire_testing::{Expect, PlanCheck, ResourceAction, StateCheck, Step, Test};
//! # fn my_provider() -> ctywire_tfplugin::Plugin { unimplemented!() }
//!
//! #[test]
//! fn thing_is_created_then_renamed() {
//!     Test::new("example.com/acme/demo", my_provider)
//!         .step(
//!             Step::config(r#"resource "demo_thing" "x" { name = "a" }"#)
//!                 .plan_check(PlanCheck::resource_action("demo_thing.x", ResourceAction::Create))
//!                 .state_check(StateCheck::known_value("demo_thing.x", "id", Expect::regex("^thing-"))),
//!         )
//!         .step(
//!             Step::config(r#"resource "demo_thing" "x" { name = "b" }"#)
//!                 .plan_check(PlanCheck::resource_action("demo_thing.x", ResourceAction::Replace)),
//!         )
//!         .step(Step::import("demo_thing.x").import_state_verify())
//!         .run();
//! }
//! ```

mod check;
mod expect;
mod provider;
mod step;
mod terraform;
mod workspace;

pub use check::{PlanCheck, ResourceAction, StateCheck, Track};
pub use expect::{Expect, Mismatch};
pub use step::Step;
pub use terraform::{NotFound, Run, Terraform, Version, INSTALL_HINT};
pub use workspace::Workspace;

use std::io::Write;
use std::path::{Path, PathBuf};

use ctywire::render::diff::{render_plan, DiffOptions};
use ctywire::schema::ProviderSchemas;
use ctywire::tfjson::{Plan, State};
use ctywire_tfplugin::Plugin;

use provider::Source;
use step::{Config, ImportId, Kind};

/// Whether acceptance tests run: `TF_ACC` set to anything but empty or `0`.
pub fn acceptance_enabled() -> bool {
    std::env::var("TF_ACC").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// What [`Test::check_destroy`] runs on the state after the final destroy.
type DestroyFn = dyn Fn(&State) -> Result<(), String>;
type DestroyCheck = Box<DestroyFn>;

/// An acceptance test: a provider, the steps Terraform runs with it, and the check after
/// the final destroy (terraform-plugin-testing's `resource.Test`). See the
/// [crate documentation](crate) for an example.
pub struct Test {
    address: String,
    source: Source,
    steps: Vec<Step>,
    check_destroy: Option<DestroyCheck>,
    captures: bool,
}

impl std::fmt::Debug for Test {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Test")
            .field("address", &self.address)
            .field("steps", &self.steps.len())
            .finish()
    }
}

impl Test {
    /// A test of the provider `make` returns, served in this process under the source
    /// `address` (`example.com/acme/demo`; its last part is the provider's type name).
    pub fn new(address: &str, make: impl FnOnce() -> Plugin + Send + 'static) -> Test {
        Test::with_source(address, Source::InProcess(Box::new(make)))
    }

    /// A test of a built provider binary (`terraform-provider-NAME`, e.g.
    /// `env!("CARGO_BIN_EXE_terraform-provider-demo")` in the provider's own tests),
    /// installed by `dev_overrides` under the source `address`. Its captures
    /// (`TF_LOG_SDK_PROTO_DATA_DIR`) go to the working directory's `captures/`.
    pub fn binary(address: &str, path: impl Into<PathBuf>) -> Test {
        Test::with_source(address, Source::Binary(path.into()))
    }

    fn with_source(address: &str, source: Source) -> Test {
        Test {
            address: address.to_owned(),
            source,
            steps: Vec::new(),
            check_destroy: None,
            captures: true,
        }
    }

    /// Adds a step.
    pub fn step(mut self, step: Step) -> Test {
        self.steps.push(step);
        self
    }

    /// Adds steps.
    pub fn steps(mut self, steps: impl IntoIterator<Item = Step>) -> Test {
        self.steps.extend(steps);
        self
    }

    /// Whether the provider's calls are captured (on by default): every request and
    /// response the provider handles, written to the working directory's `captures/`
    /// in the files `ctywire capture DIR` reads (an in-process provider through
    /// [`Plugin::capture`], a binary through `TF_LOG_SDK_PROTO_DATA_DIR`). A failed
    /// test keeps them with its working directory and names them in its report.
    pub fn captures(mut self, yes: bool) -> Test {
        self.captures = yes;
        self
    }

    /// Checks the state after the test's final destroy (e.g. that the remote objects are
    /// gone: the state is empty by then).
    pub fn check_destroy(mut self, check: impl Fn(&State) -> Result<(), String> + 'static) -> Test {
        self.check_destroy = Some(Box::new(check));
        self
    }

    /// Runs the test: skipped (with a line on the terminal) unless `TF_ACC` is set.
    ///
    /// # Panics
    ///
    /// On a failing step or check, with the step, its configuration, Terraform's output
    /// and the kept working directory; with `TF_ACC` set and no Terraform, with what to
    /// install.
    #[track_caller]
    pub fn run(self) {
        let Some(terraform) = Terraform::for_acceptance() else {
            return;
        };
        if let Err(failure) = self.run_with(&terraform) {
            panic!("{failure}");
        }
    }

    /// Runs the test with `terraform`, whatever `TF_ACC` says; the error is the failure
    /// report [`Test::run`] panics with.
    pub fn run_with(self, terraform: &Terraform) -> Result<(), String> {
        let ws = Workspace::new(terraform, &self.address, self.source, self.captures)?;
        let captures = self.captures;
        let mut runner = Runner {
            dir: ws.config_dir(),
            ws: &ws,
            config: None,
        };
        match runner.run(self.steps, self.check_destroy.as_deref()) {
            Ok(()) => Ok(()),
            Err(report) => {
                let kept = ws.keep();
                let captures = if captures {
                    format!(
                        "\n\nthe provider's calls: ctywire capture {}",
                        kept.join("captures").display()
                    )
                } else {
                    String::new()
                };
                Err(format!(
                    "{report}{captures}\n\nworking directory kept: {}",
                    kept.display()
                ))
            }
        }
    }
}

impl Terraform {
    /// The gate of an acceptance test of your own: `None` (the test reported skipped on
    /// the terminal) unless `TF_ACC` is set; then the Terraform [`Terraform::find`]
    /// finds, looked for once per process.
    ///
    /// # Panics
    ///
    /// With `TF_ACC` set and no Terraform found, with what to install.
    #[track_caller]
    pub fn for_acceptance() -> Option<Terraform> {
        // Found once per test process: every test of a run uses the same Terraform.
        static FOUND: std::sync::OnceLock<Terraform> = std::sync::OnceLock::new();
        if !acceptance_enabled() {
            skipped("set TF_ACC=1 to run acceptance tests");
            return None;
        }
        if let Some(found) = FOUND.get() {
            return Some(found.clone());
        }
        let found = Terraform::find().unwrap_or_else(|e| panic!("{e}"));
        Some(FOUND.get_or_init(|| found).clone())
    }
}

/// Tells the terminal that a test was skipped: written to the process's stderr directly,
/// so the test harness's output capture does not swallow it.
fn skipped(why: &str) {
    let name = std::thread::current()
        .name()
        .unwrap_or("acceptance test")
        .to_owned();
    let _ = writeln!(std::io::stderr().lock(), "{name}: skipped: {why}");
}

/// The state of one test's run.
struct Runner<'w> {
    ws: &'w Workspace,
    /// Where Terraform runs: the workspace's configuration directory.
    dir: PathBuf,
    /// The configuration of the latest step that gave one.
    config: Option<Config>,
}

impl Runner<'_> {
    fn run(&mut self, steps: Vec<Step>, check_destroy: Option<&DestroyFn>) -> Result<(), String> {
        let count = steps.len();
        let mut last_good = None;
        for (i, step) in steps.into_iter().enumerate() {
            let number = i + 1;
            if let Some(min) = step
                .min_version
                .filter(|&v| self.ws.terraform_cli().version() < v)
            {
                skipped(&format!(
                    "step {number} of {count} needs Terraform {min}, this is {}",
                    self.ws.terraform_cli().version()
                ));
                continue;
            }
            if let Some(config) = &step.config {
                self.config = Some(config.clone());
            }
            let Some(config) = self.config.clone() else {
                return Err(format!(
                    "step {number} of {count}: no configuration (give the first step one)"
                ));
            };
            self.ws.write_config(&config)?;
            self.step(&step).map_err(|why| {
                format!(
                    "step {number} of {count} failed: {why}\n\n--- configuration\n{}",
                    config_text(&config)
                )
            })?;
            if step.expect_error.is_none() {
                last_good = Some(config);
            }
        }
        // The final destroy, with the last configuration that worked, of whatever the
        // state holds; then the check that it left nothing.
        let state = self.state(&self.dir.clone())?;
        let holds_something = state
            .values
            .as_ref()
            .is_some_and(|v| v.resources().next().is_some());
        if let (true, Some(config)) = (holds_something, &last_good) {
            self.ws.write_config(config)?;
            let run = self.ws.terraform(&[
                "apply",
                "-destroy",
                "-auto-approve",
                "-input=false",
                "-no-color",
            ]);
            if !run.is_success() {
                return Err(format!("the final destroy failed\n{}", run.describe()));
            }
        }
        if let Some(check) = check_destroy {
            let state = self.state(&self.dir.clone())?;
            check(&state).map_err(|why| format!("check_destroy: {why}"))?;
        }
        Ok(())
    }

    fn step(&mut self, step: &Step) -> Result<(), String> {
        let outcome = match &step.kind {
            Kind::Apply | Kind::PlanOnly | Kind::Destroy => self.plan_and_apply(step),
            Kind::Refresh => self.refresh(step),
            Kind::Import(_) => self.import(step),
        };
        match (&step.expect_error, outcome) {
            (_, Outcome::Failed(why)) => Err(why),
            (None, Outcome::Done) => Ok(()),
            (None, Outcome::TerraformError(run)) => Err(run.describe()),
            (Some(re), Outcome::TerraformError(run)) => {
                let said = words(&run.stderr);
                if re.is_match(&said) || re.is_match(&run.stderr) {
                    Ok(())
                } else {
                    Err(format!(
                        "expected an error matching /{re}/, got another one\n{}",
                        run.describe()
                    ))
                }
            }
            (Some(re), Outcome::Done) => Err(format!(
                "expected an error matching /{re}/, but the step succeeded"
            )),
        }
    }

    /// A configuration step: plan, checks, apply, state checks, a second plan.
    fn plan_and_apply(&mut self, step: &Step) -> Outcome {
        let destroy = step.kind == Kind::Destroy;
        let mut plan_args = vec!["plan", "-out=tfplan", "-input=false", "-no-color"];
        if destroy {
            plan_args.push("-destroy");
        }
        let (plan, run) = match self.plan(&plan_args) {
            Ok(pair) => pair,
            Err(outcome) => return outcome,
        };
        if let Err(why) = run_plan_checks("plan check", &step.plan_checks, &plan) {
            return Outcome::Failed(self.with_plan(why, &plan, &run));
        }
        if step.kind == Kind::PlanOnly {
            if !step.expect_non_empty_plan
                && let Err(why) = PlanCheck::empty().check(&plan)
            {
                return Outcome::Failed(self.with_plan(
                    format!("a plan-only step: {why}"),
                    &plan,
                    &run,
                ));
            }
            return Outcome::Done;
        }
        let apply = self
            .ws
            .terraform(&["apply", "-input=false", "-no-color", "tfplan"]);
        if !apply.is_success() {
            return Outcome::TerraformError(apply);
        }
        if let Err(why) = self.state_checks(step) {
            return Outcome::Failed(why);
        }
        if destroy {
            return Outcome::Done;
        }
        let (plan, run) = match self.plan(&["plan", "-out=tfplan", "-input=false", "-no-color"]) {
            Ok(pair) => pair,
            Err(outcome) => return outcome,
        };
        if let Err(why) =
            run_plan_checks("post-apply plan check", &step.post_apply_plan_checks, &plan)
        {
            return Outcome::Failed(self.with_plan(why, &plan, &run));
        }
        if !step.expect_non_empty_plan
            && let Err(why) = PlanCheck::empty().check(&plan)
        {
            return Outcome::Failed(self.with_plan(
                format!("after applying this step, the plan was not empty: {why}"),
                &plan,
                &run,
            ));
        }
        Outcome::Done
    }

    /// `why`, then the plan as `terraform show` prints it, rendered by ctywire from
    /// `show -json` of the plan and the provider schemas (sensitive values hidden as
    /// Terraform hides them); Terraform's own plan text where it cannot be rendered,
    /// saying why.
    fn with_plan(&self, why: String, plan: &Plan, run: &Run) -> String {
        let schemas = self.ws.terraform(&["providers", "schema", "-json"]);
        let rendered = if schemas.is_success() {
            ProviderSchemas::from_json(schemas.stdout.as_bytes())
                .and_then(|schemas| render_plan(plan, &schemas, &DiffOptions::new()))
                .map_err(|e| e.to_string())
        } else {
            Err(format!(
                "providers schema -json failed: {}",
                schemas.stderr.trim_end()
            ))
        };
        match rendered {
            Ok(text) => format!(
                "{why}\n--- the plan\n{}",
                text.trim_start_matches('\n').trim_end()
            ),
            Err(e) => format!(
                "{why}\n--- the plan (Terraform's text: ctywire could not render it: {e})\n{}",
                run.stdout.trim_end()
            ),
        }
    }

    /// Runs a plan command, then `show -json` of its plan.
    fn plan(&self, args: &[&str]) -> Result<(Plan, Run), Outcome> {
        let run = self.ws.terraform(args);
        if !run.is_success() {
            return Err(Outcome::TerraformError(run));
        }
        let show = self.ws.terraform(&["show", "-json", "tfplan"]);
        if !show.is_success() {
            return Err(Outcome::Failed(show.describe()));
        }
        let plan = Plan::from_json(show.stdout.as_bytes())
            .map_err(|e| Outcome::Failed(format!("Terraform's plan JSON: {e}")))?;
        Ok((plan, run))
    }

    fn state(&self, dir: &Path) -> Result<State, String> {
        let show = self.ws.terraform_in(dir, &["show", "-json"]);
        if !show.is_success() {
            return Err(show.describe());
        }
        State::from_json(show.stdout.as_bytes()).map_err(|e| format!("Terraform's state JSON: {e}"))
    }

    fn state_checks(&self, step: &Step) -> Result<(), String> {
        self.state_checks_in(&self.dir, step).map(|_| ())
    }

    fn state_checks_in(&self, dir: &Path, step: &Step) -> Result<State, String> {
        let state = self.state(dir)?;
        let failures: Vec<String> = step
            .state_checks
            .iter()
            .filter_map(|c| c.check(&state).err())
            .collect();
        if failures.is_empty() {
            Ok(state)
        } else {
            Err(format!("state check: {}", failures.join("\nstate check: ")))
        }
    }

    fn refresh(&mut self, step: &Step) -> Outcome {
        let run = self.ws.terraform(&[
            "apply",
            "-refresh-only",
            "-auto-approve",
            "-input=false",
            "-no-color",
        ]);
        if !run.is_success() {
            return Outcome::TerraformError(run);
        }
        match self.state_checks(step) {
            Ok(()) => Outcome::Done,
            Err(why) => Outcome::Failed(why),
        }
    }

    /// An import step: the same configuration in a fresh directory, the object imported
    /// there, its state checked and compared with the test's.
    fn import(&mut self, step: &Step) -> Outcome {
        let Kind::Import(import) = &step.kind else {
            unreachable!("import() runs import steps");
        };
        let fail = Outcome::Failed;
        let import_dir = self.dir.with_file_name(format!("import-{}", unique()));
        if let Err(e) = std::fs::create_dir_all(&import_dir) {
            return fail(format!("cannot make {}: {e}", import_dir.display()));
        }
        if let Err(e) = copy_config(&self.dir, &import_dir) {
            return fail(e);
        }
        let current = match self.state(&self.dir.clone()) {
            Ok(s) => s,
            Err(why) => return fail(why),
        };
        let identity = match &import.id {
            ImportId::Id(_) | ImportId::FromState => None,
            ImportId::Identity(identity) => Some(identity.clone()),
            ImportId::IdentityFromState => match identity_from_state(&current, &import.address) {
                Ok(identity) => Some(identity),
                Err(why) => return fail(why),
            },
        };
        let run = if let Some(identity) = identity {
            // An `import` block, applied for the instance alone.
            let block = import_block(&import.address, &identity);
            if let Err(e) = std::fs::write(import_dir.join("ctywire_testing_import.tf"), block) {
                return fail(format!("cannot write the import block: {e}"));
            }
            let target = format!("-target={}", import.address);
            self.ws.terraform_in(
                &import_dir,
                &[
                    "apply",
                    "-auto-approve",
                    "-input=false",
                    "-no-color",
                    &target,
                ],
            )
        } else {
            let id = match &import.id {
                ImportId::Id(id) => id.clone(),
                _ => match id_from_state(&current, &import.address) {
                    Ok(id) => id,
                    Err(why) => return fail(why),
                },
            };
            self.ws.terraform_in(
                &import_dir,
                &["import", "-input=false", "-no-color", &import.address, &id],
            )
        };
        if !run.is_success() {
            return Outcome::TerraformError(run);
        }
        let imported = match self.state_checks_in(&import_dir, step) {
            Ok(state) => state,
            Err(why) => return fail(why),
        };
        if import.verify
            && let Err(why) = verify_import(&current, &imported, &import.address, &import.ignore)
        {
            return fail(why);
        }
        let _ = std::fs::remove_dir_all(&import_dir);
        Outcome::Done
    }
}

/// How a step ended.
enum Outcome {
    /// As it should.
    Done,
    /// Terraform failed (which an `expect_error` step wants).
    TerraformError(Run),
    /// A check failed, or the harness could not go on.
    Failed(String),
}

fn run_plan_checks(what: &str, checks: &[PlanCheck], plan: &Plan) -> Result<(), String> {
    let failures: Vec<String> = checks.iter().filter_map(|c| c.check(plan).err()).collect();
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("{what}: {}", failures.join(&format!("\n{what}: "))))
    }
}

/// Terraform's diagnostics as plain words: box drawing gone, lines joined.
fn words(text: &str) -> String {
    text.replace(['│', '╷', '╵'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn unique() -> String {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed).to_string()
}

fn config_text(config: &Config) -> String {
    match config {
        Config::Hcl(text) => text.trim_end().to_owned(),
        Config::Json(json) => serde_json::to_string_pretty(json).unwrap_or_default(),
    }
}

/// Replaces the configuration files in `dir` with `config` and the provider's
/// `required_providers` entry.
pub(crate) fn write_config(
    dir: &Path,
    config: &Config,
    type_name: &str,
    address: &str,
) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".tf") || name.ends_with(".tf.json") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    let write = |name: &str, text: String| {
        std::fs::write(dir.join(name), text).map_err(|e| format!("cannot write {name}: {e}"))
    };
    let entry = serde_json::json!({"source": address});
    match config {
        Config::Hcl(text) => {
            let providers = serde_json::json!({
                "terraform": {"required_providers": {type_name: entry}}
            });
            write("provider_under_test.tf.json", providers.to_string())?;
            write("main.tf", text.clone())
        }
        // In the document itself, so that the file reads alone (as ctywire's `Config`
        // reads it).
        Config::Json(json) => {
            let mut json = json.clone();
            json["terraform"]["required_providers"][type_name] = entry;
            write(
                "main.tf.json",
                serde_json::to_string_pretty(&json).unwrap_or_default(),
            )
        }
    }
}

fn copy_config(from: &Path, to: &Path) -> Result<(), String> {
    let entries =
        std::fs::read_dir(from).map_err(|e| format!("cannot read {}: {e}", from.display()))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".tf") || name.ends_with(".tf.json") {
            std::fs::copy(entry.path(), to.join(&name))
                .map_err(|e| format!("cannot copy {name}: {e}"))?;
        }
    }
    Ok(())
}

fn id_from_state(state: &State, address: &str) -> Result<String, String> {
    let resource = check::find_resource(state, address).ok_or_else(|| {
        format!(
            "import: {address} is not in the state, so it has no id to import by (give import_id)"
        )
    })?;
    let values = resource
        .values
        .as_ref()
        .and_then(|v| v.decode_implied().ok())
        .unwrap_or(ctywire::Value::Null);
    values
        .at_path(&ctywire::Path::root().attribute("id"))
        .and_then(|v| v.untyped().as_str().map(str::to_owned))
        .ok_or_else(|| {
            format!("import: {address} has no string `id` attribute to import by (give import_id)")
        })
}

/// The identity the state holds for the instance at `address`, as a JSON object.
fn identity_from_state(state: &State, address: &str) -> Result<serde_json::Value, String> {
    let resource = check::find_resource(state, address).ok_or_else(|| {
        format!("import: {address} is not in the state, so it has no identity to import by (give import_identity)")
    })?;
    resource
        .identity
        .as_ref()
        .and_then(|i| serde_json::from_str::<serde_json::Value>(i.as_str()).ok())
        .filter(serde_json::Value::is_object)
        .ok_or_else(|| {
            format!("import: {address} has no identity in the state (its resource type has no identity schema, or Terraform is older than 1.12): give import_identity")
        })
}

/// An `import` block bringing the object `identity` names to `address`. A JSON object
/// is an HCL object expression once its strings cannot start a template sequence.
fn import_block(address: &str, identity: &serde_json::Value) -> String {
    let expression = identity
        .to_string()
        .replace("${", "$${")
        .replace("%{", "%%{");
    format!("import {{\n  to       = {address}\n  identity = {expression}\n}}\n")
}

/// The imported instance's attributes equal the test state's, but for `ignore`d ones.
fn verify_import(
    current: &State,
    imported: &State,
    address: &str,
    ignore: &[String],
) -> Result<(), String> {
    let values = |state: &State,
                  which: &str|
     -> Result<(ctywire::Value, Option<ctywire::tfjson::MarkTree>), String> {
        let r = check::find_resource(state, address)
            .ok_or_else(|| format!("import_state_verify: {address} is not in the {which} state"))?;
        let v = r
            .values
            .as_ref()
            .map(|v| v.decode_implied())
            .transpose()
            .map_err(|e| e.to_string())?
            .unwrap_or(ctywire::Value::Null);
        Ok((v, r.sensitive_values.clone()))
    };
    let (before, sensitive) = values(current, "test's")?;
    let (after, _) = values(imported, "imported")?;
    let mut differences = Vec::new();
    let names = |v: &ctywire::Value| -> Vec<String> {
        match v.untyped() {
            ctywire::Value::Object(o) => o.iter().map(|(k, _)| k.to_owned()).collect(),
            _ => Vec::new(),
        }
    };
    let mut all = names(&before);
    all.extend(names(&after));
    all.sort();
    all.dedup();
    for name in all.iter().filter(|n| !ignore.contains(n)) {
        let at = ctywire::Path::root().attribute(name.as_str());
        let (a, b) = (before.at_path(&at), after.at_path(&at));
        let same = match (a, b) {
            (Some(a), Some(b)) => a.raw_equals(b, &ctywire::Type::Dynamic),
            (None, None) => true,
            _ => false,
        };
        if !same {
            let hidden = sensitive.as_ref().is_some_and(|t| t.is_marked(&at));
            let show = |v: Option<&ctywire::Value>| match v {
                _ if hidden => "(sensitive value)".to_owned(),
                Some(v) => expect::show(v),
                None => "nothing".to_owned(),
            };
            differences.push(format!("  {name}: state {}, imported {}", show(a), show(b)));
        }
    }
    if differences.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "import_state_verify: {address} imported differs from the state (ignore attributes with import_state_verify_ignore):\n{}",
            differences.join("\n")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_identity_becomes_an_import_block() {
        let identity = serde_json::json!({"id": "a${b}%{c}", "n": 1, "tags": ["x"]});
        assert_eq!(
            import_block("demo_thing.x", &identity),
            "import {\n  to       = demo_thing.x\n  identity = {\"id\":\"a$${b}%%{c}\",\"n\":1,\"tags\":[\"x\"]}\n}\n"
        );
    }

    #[test]
    fn the_identity_to_import_by_comes_from_the_state() {
        let state = State::from_json(
            br#"{"format_version": "1.0", "values": {"root_module": {"resources": [
                {"address": "demo_thing.x", "mode": "managed", "type": "demo_thing", "name": "x",
                 "values": {"id": "t-1"}, "identity": {"id": "t-1"}, "identity_schema_version": 0},
                {"address": "demo_thing.y", "mode": "managed", "type": "demo_thing", "name": "y",
                 "values": {"id": "t-2"}}
            ]}}}"#,
        )
        .unwrap();
        assert_eq!(
            identity_from_state(&state, "demo_thing.x").unwrap(),
            serde_json::json!({"id": "t-1"})
        );
        let e = identity_from_state(&state, "demo_thing.y").unwrap_err();
        assert!(
            e.contains("demo_thing.y has no identity in the state"),
            "{e}"
        );
        let e = identity_from_state(&state, "demo_thing.z").unwrap_err();
        assert!(e.contains("demo_thing.z is not in the state"), "{e}");
    }

    #[test]
    fn terraform_diagnostics_become_words() {
        let stderr = "╷\n│ Error: Unsupported argument\n│\n│ An argument named \"nmae\" is not\n│ expected here.\n╵\n";
        assert_eq!(
            words(stderr),
            r#"Error: Unsupported argument An argument named "nmae" is not expected here."#
        );
    }
}

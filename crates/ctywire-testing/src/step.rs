//! One step of an acceptance test: [`Step`].

use regex::Regex;

use crate::check::{PlanCheck, StateCheck};
use crate::terraform::Version;

/// A configuration for Terraform: HCL text, or a `.tf.json` document.
#[derive(Clone, Debug)]
pub(crate) enum Config {
    Hcl(String),
    Json(serde_json::Value),
}

/// What a step asks Terraform to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Plan and apply the configuration, then plan again.
    Apply,
    /// Plan only.
    PlanOnly,
    /// Plan and apply a destroy.
    Destroy,
    /// `apply -refresh-only`.
    Refresh,
    /// Import into a fresh working directory.
    Import(Import),
}

/// How an import step names the object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Import {
    pub address: String,
    pub id: ImportId,
    pub verify: bool,
    pub ignore: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ImportId {
    /// The `id` attribute of the instance in the state so far.
    FromState,
    /// This ID.
    Id(String),
    /// The identity the state so far holds for the instance, in an `import` block.
    IdentityFromState,
    /// This identity (an object), in an `import` block.
    Identity(serde_json::Value),
}

/// One step of a [`Test`](crate::Test): a configuration and what Terraform does with it,
/// with the checks of its plan and of the state it leaves (terraform-plugin-testing's
/// `TestStep`).
///
/// ```
/// use ctywire_testing::{Expect, PlanCheck, ResourceAction, StateCheck, Step};
///
/// let create = Step::config(r#"resource "demo_thing" "x" { name = "a" }"#)
///     .plan_check(PlanCheck::resource_action("demo_thing.x", ResourceAction::Create))
///     .plan_check(PlanCheck::unknown_value("demo_thing.x", "id"))
///     .state_check(StateCheck::known_value("demo_thing.x", "name", Expect::string("a")));
/// let bad = Step::config(r#"resource "demo_thing" "x" { nmae = "a" }"#)
///     .expect_error(r#"An argument named "nmae" is not expected here"#);
/// let import = Step::import("demo_thing.x").import_state_verify();
/// let by_identity = Step::import("demo_thing.x").import_by_identity().import_state_verify();
/// # let _ = (create, bad, import, by_identity);
/// ```
#[derive(Debug)]
pub struct Step {
    pub(crate) config: Option<Config>,
    pub(crate) kind: Kind,
    pub(crate) expect_error: Option<Regex>,
    pub(crate) expect_non_empty_plan: bool,
    pub(crate) min_version: Option<Version>,
    pub(crate) plan_checks: Vec<PlanCheck>,
    pub(crate) post_apply_plan_checks: Vec<PlanCheck>,
    pub(crate) state_checks: Vec<StateCheck>,
}

impl Step {
    fn new(config: Option<Config>, kind: Kind) -> Step {
        Step {
            config,
            kind,
            expect_error: None,
            expect_non_empty_plan: false,
            min_version: None,
            plan_checks: Vec::new(),
            post_apply_plan_checks: Vec::new(),
            state_checks: Vec::new(),
        }
    }

    /// Plans and applies `hcl` (Terraform's native syntax), then plans again and expects
    /// no changes. The test adds the `required_providers` entry of the provider under
    /// test in a file of its own: leave it out of `hcl`.
    pub fn config(hcl: impl Into<String>) -> Step {
        Step::new(Some(Config::Hcl(hcl.into())), Kind::Apply)
    }

    /// The same as [`Step::config`], with a `.tf.json` document.
    pub fn config_json(json: serde_json::Value) -> Step {
        Step::new(Some(Config::Json(json)), Kind::Apply)
    }

    /// Refreshes the state (`apply -refresh-only`) with the configuration of the step
    /// before.
    pub fn refresh() -> Step {
        Step::new(None, Kind::Refresh)
    }

    /// Imports the instance at `address` into a fresh working directory with the
    /// configuration of the step before (`terraform import`), by the `id` attribute the
    /// state so far holds for it unless [`Step::import_id`] gives another. The state checks see the imported
    /// state; the test's own state is left as it was.
    pub fn import(address: &str) -> Step {
        Step::new(
            None,
            Kind::Import(Import {
                address: address.to_owned(),
                id: ImportId::FromState,
                verify: false,
                ignore: Vec::new(),
            }),
        )
    }

    /// The configuration of this step (for [`Step::refresh`] and [`Step::import`], which
    /// otherwise keep the one before).
    pub fn with_config(mut self, hcl: impl Into<String>) -> Step {
        self.config = Some(Config::Hcl(hcl.into()));
        self
    }

    /// Plans only: no apply, and the plan must be empty unless
    /// [`Step::expect_non_empty_plan`].
    pub fn plan_only(mut self) -> Step {
        self.kind = match self.kind {
            Kind::Apply => Kind::PlanOnly,
            other => panic!("plan_only() applies to a configuration step, not to {other:?}"),
        };
        self
    }

    /// Plans and applies a destroy of the configuration.
    pub fn destroy(mut self) -> Step {
        self.kind = match self.kind {
            Kind::Apply => Kind::Destroy,
            other => panic!("destroy() applies to a configuration step, not to {other:?}"),
        };
        self
    }

    /// The step must fail, with Terraform's diagnostics matching `pattern` (matched
    /// against the error output with its box drawing removed and its lines joined, so a
    /// message wrapped over lines still matches).
    ///
    /// # Panics
    ///
    /// When `pattern` is not a regular expression.
    #[track_caller]
    pub fn expect_error(mut self, pattern: &str) -> Step {
        self.expect_error =
            Some(Regex::new(pattern).unwrap_or_else(|e| panic!("expect_error({pattern:?}): {e}")));
        self
    }

    /// The plan after the apply (or a plan-only step's plan) may have changes.
    pub fn expect_non_empty_plan(mut self) -> Step {
        self.expect_non_empty_plan = true;
        self
    }

    /// Runs the step only with Terraform `version` or later; below it, the step is
    /// reported skipped.
    pub fn min_terraform(mut self, version: Version) -> Step {
        self.min_version = Some(version);
        self
    }

    /// Checks the step's plan before it is applied.
    pub fn plan_check(mut self, check: PlanCheck) -> Step {
        self.plan_checks.push(check);
        self
    }

    /// Checks the plan made after the step's apply.
    pub fn post_apply_plan_check(mut self, check: PlanCheck) -> Step {
        self.post_apply_plan_checks.push(check);
        self
    }

    /// Checks the state the step leaves.
    pub fn state_check(mut self, check: StateCheck) -> Step {
        self.state_checks.push(check);
        self
    }

    /// The ID an import step imports by.
    pub fn import_id(mut self, id: &str) -> Step {
        self.import_mut("import_id").id = ImportId::Id(id.to_owned());
        self
    }

    /// Imports by the resource identity (Terraform 1.12+) that the state so far holds
    /// for the instance, instead of an ID: an `import` block with `identity = {...}`,
    /// applied for that instance alone (`-target`).
    pub fn import_by_identity(mut self) -> Step {
        self.import_mut("import_by_identity").id = ImportId::IdentityFromState;
        self
    }

    /// Imports by this resource identity (a JSON object of the identity's attributes),
    /// as [`Step::import_by_identity`] does with the state's.
    ///
    /// # Panics
    ///
    /// When `identity` is not a JSON object.
    #[track_caller]
    pub fn import_identity(mut self, identity: serde_json::Value) -> Step {
        assert!(
            identity.is_object(),
            "import_identity({identity}): an identity is an object of its attributes"
        );
        self.import_mut("import_identity").id = ImportId::Identity(identity);
        self
    }

    /// After an import, the imported instance's attributes must equal the ones the test's
    /// state holds for it, but for `ignore`d top-level attributes.
    pub fn import_state_verify(mut self) -> Step {
        self.import_mut("import_state_verify").verify = true;
        self
    }

    /// Top-level attributes [`Step::import_state_verify`] does not compare.
    pub fn import_state_verify_ignore<S: Into<String>>(
        mut self,
        attributes: impl IntoIterator<Item = S>,
    ) -> Step {
        self.import_mut("import_state_verify_ignore")
            .ignore
            .extend(attributes.into_iter().map(Into::into));
        self
    }

    #[track_caller]
    fn import_mut(&mut self, what: &str) -> &mut Import {
        match &mut self.kind {
            Kind::Import(import) => import,
            other => panic!("{what}() applies to a Step::import, not to {other:?}"),
        }
    }
}

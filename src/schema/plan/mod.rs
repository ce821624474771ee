//! Terraform's rules for what a provider may plan and what it may return after apply
//! (Terraform's `objchange` package): the proposed new state Terraform sends to
//! `PlanResourceChange` ([`Block::proposed_new`]), whether a planned state is a valid
//! plan ([`Block::check_plan`], "Provider produced invalid plan"), and whether a new
//! state is a valid result of applying a plan ([`Block::check_apply`], "Provider
//! produced inconsistent result after apply"; also "inconsistent final plan").
//!
//! ```
//! use ctywire::schema::{Attribute, Block};
//! use ctywire::{Type, Value};
//!
//! let block = Block::new()
//!     .attribute("name", Attribute::new(Type::String).required())
//!     .attribute("id", Attribute::new(Type::String).computed());
//! let config = Value::object([("name", Value::from("web")), ("id", Value::Null)]);
//!
//! // Creating: no prior state.
//! let proposed = block.proposed_new(&Value::Null, &config);
//! assert_eq!(proposed, config);
//!
//! // A provider that changes a configured value plans wrongly.
//! let planned = Value::object([("name", Value::from("Web")), ("id", Value::unknown())]);
//! let found = block.check_plan(&Value::Null, &config, &planned);
//! assert_eq!(found[0].to_string(), r#".name: planned value "Web" does not match config value "web""#);
//! assert_eq!(
//!     found[0].terraform_text(),
//!     r#".name: planned value cty.StringVal("Web") does not match config value cty.StringVal("web")"#,
//! );
//!
//! // After apply, every known planned value must be kept.
//! let actual = Value::object([("name", Value::from("web")), ("id", Value::from("i-1"))]);
//! let planned = Value::object([("name", Value::from("web")), ("id", Value::unknown())]);
//! assert!(block.check_apply(&planned, &actual).is_empty());
//! ```
//!
//! Terraform checks each response in its resource-instance node (its
//! `NodeAbstractResourceInstance`), in this order, and stops at the first check that
//! fails:
//!
//! | Response | Terraform's check | Where in Terraform | Rules here |
//! | --- | --- | --- | --- |
//! | PlanResourceChange | write-only attributes are null | `plan`, `ValidateWriteOnlyAttributes` | [`Rule::WriteOnlyReturned`] |
//! | PlanResourceChange | the planned value conforms to the schema | `plan`, `TestConformance` | (a payload of another type does not decode¹) |
//! | PlanResourceChange | a planned null object only for a null configuration | `objchange.AssertPlanValid` (its first check, at the root) | [`Rule::PlannedAbsent`] (path `""`: "planned for absence but config wants existence") |
//! | PlanResourceChange | the plan is valid | `objchange.AssertPlanValid` | [`Rule::PlannedAbsent`] to [`Rule::MapKeyNotInPlan`] |
//! | PlanResourceChange | `RequiresReplace` paths exist (an update) | `getRequiredReplaces` | [`Rule::RequiresReplaceNowhere`] ([`Block::check_requires_replace`]) |
//! | ApplyResourceChange | the new value conforms to the schema | `apply`, `TestConformance` | (a payload of another type does not decode¹) |
//! | ApplyResourceChange | write-only attributes are null | `apply`, `ValidateWriteOnlyAttributes` | [`Rule::WriteOnlyReturned`] |
//! | ApplyResourceChange | no unknown is left | `apply`, `IsWhollyKnown` | [`Rule::UnknownAfterApply`] |
//! | ApplyResourceChange | the new value keeps the plan (not after a destroy) | `objchange.AssertObjectCompatible` | [`Rule::Appeared`] to [`Rule::ActualSetElementNew`] |
//! | ApplyResourceChange | a null object only after a destroy | `apply` (after `AssertObjectCompatible`, which always reports it first) | [`Rule::Disappeared`] (path `""`: "Root object was present, but now absent") |
//! | ApplyResourceChange | a destroy returns null | `apply` | [`Rule::NotNullAfterDestroy`] |
//! | ReadResource, ImportResourceState | the state is wholly known | `refresh` | [`Rule::UnknownAfterRead`] |
//! | ReadResource, ImportResourceState | the state conforms to the schema | `refresh`, `TestConformance` | (a payload of another type does not decode¹) |
//! | ReadResource, ImportResourceState | write-only attributes are null | `refresh`, `ValidateWriteOnlyAttributes` | [`Rule::WriteOnlyReturned`] |
//!
//! [`Inconsistency::terraform_diagnostic`] gives the error Terraform prints for each.
//!
//! ¹ Terraform's conformance tests never fail for a provider over the plugin protocol:
//! Terraform decodes each payload with the schema's type (its gRPC client's
//! `decodeDynamicValue`), so a value of another type fails there, before any check, and
//! Terraform prints go-cty's decoding error as the summary (`["size"]: number is
//! required`). This crate's decoders refuse the same payloads at the same path, in their
//! own words. The end-to-end suite's `DEMO_MISBEHAVE=plan-wrong-type` and
//! `apply-wrong-type` show both.
//!
//! `vectors/plan/ctywire-responses.json` holds a case for each check with Terraform's
//! diagnostic word for word; the end-to-end suite
//! (`examples/terraform-provider-demo/tests/terraform`) runs a provider that breaks each
//! rule class under a real Terraform 1.15.5 and checks that Terraform's errors are these.
//!
//! Each [`Inconsistency`] carries the [`Rule`] it breaks, its path, and the message
//! twice: word for word as the client writes it (values in cty's Go syntax, paths as
//! Terraform prints them), and with values rendered as this crate renders them.
//!
//! # Clients
//!
//! The rules and wording are those of a [`Client`]: Terraform 1.15 (its 1.15.5 release,
//! the default: the newest stable release, and the one the end-to-end suite runs),
//! Terraform 1.16 (1.16.0-rc2; the tables in `vectors/plan/terraform-*.json` are its
//! own) or OpenTofu 1.12 (1.12.6). The functions without a client use the default; the
//! `_for` functions ([`Block::check_plan_for`], ...) take one. Where they differ:
//!
//! | Where | Terraform 1.15 | Terraform 1.16 | OpenTofu 1.12 |
//! | --- | --- | --- | --- |
//! | Plan: a null LIST, SET or MAP of blocks | accepted where the configuration is null too; else [`Rule::NullBlockCollection`] after the unknown checks | [`Rule::NullBlockCollection`] first, whatever the configuration | as Terraform 1.15 |
//! | Plan: a null GROUP block | [`Rule::PlannedAbsent`] (accepted for a null configuration) | [`Rule::NullBlockCollection`] | as Terraform 1.15 |
//! | Plan: an unknown block ([`Rule::UnknownBlock`]) | "attribute representing nested block must not be unknown itself; ..." | "planned unknown value for non-computed block" | as Terraform 1.15 |
//! | Plan: a write-only attribute | [`Rule::WriteOnlyReturned`] where not null; [`Rule::WriteOnlyNotNull`] | the same | no write-only check: null is accepted, anything else is checked as any attribute |
//! | Apply: write-only attributes | [`Rule::WriteOnlyReturned`] | the same | no check |
//! | Apply: a null result | "Root object was present, but now absent" | the same | "root object was present, but now absent" |
//! | Apply: the detail of an unknown left ([`Rule::UnknownAfterApply`]) and of a destroy's non-null result ([`Rule::NotNullAfterDestroy`]) ([`Inconsistency::diagnostic_for`]) | "Terraform will still save ..." | the same | "OpenTofu will still save ..." |
//! | Apply: a difference inside a nested attribute holding sensitive attributes | [`Rule::SensitiveChanged`] at the nested attribute where Terraform's mark reaches (a sensitive attribute of a known object, null and unknown ones too; not below a `dynamic` MAP block, whose keys its marks cannot name: there it prints what differs) | the same | prints what differs (here too, where that shows no sensitive value; else [`Rule::SensitiveChanged`], see below) |
//! | ProposedNew: an element of a MAP (of blocks or a nested attribute) under a key the prior lacks (or with a null or unknown prior) | computed from a null prior (an unknown one where the whole prior is unknown): an unknown element becomes an object of unknowns | the same | the configured element as it is |
//! | Terraform's own failures ([`Rule::ClientFails`], [`Rule::ClientRefuses`]) | see below | the same | only the crashes inside objchange (see below) |
//! | Plan: a null element of a nested attribute LIST or MAP (planned or configured) | its attributes compared as null | the same | [`Rule::ClientFails`] (it crashes) |
//!
//! Terraform's write-only check walks the value as its schema's `WriteOnlyPaths` does: an
//! attribute of an unknown element of a nested attribute collection, or anything below a
//! set element that holds an unknown, counts as a value; a `dynamic` MAP block (an
//! object) on the way refuses the whole value ([`Rule::ClientRefuses`], "Error validating
//! write-only attributes: at step N: not a map type."). Terraform crashes
//! ([`Rule::ClientFails`]: "Terraform 1.15.5 fails on this value: ...") on a null element
//! of a nested attribute collection whose objects hold write-only attributes (in a plan
//! or a result) or sensitive ones (in a valid plan, the plan of an apply, or a result,
//! whose unknowns it has made null by then).
//!
//! Every client crashes inside objchange on values of a shape it assumes away, and the
//! verdict is then that crash alone ([`Rule::ClientFails`], "... fails on this value:
//! WHAT (it panics: GO'S PANIC)"): a MAP of blocks planned where the configuration's is
//! null ("value is null"; a null LIST counts as no blocks), and after apply a `dynamic`
//! LIST or MAP block whose value is not a collection ("value is not a collection"), a
//! `dynamic` LIST block that is an object ("not a list, map, or tuple type"), a block
//! of a null `dynamic` MAP block ("interface conversion: ...") and a block that is not
//! an object ("value is not an object"). OpenTofu's plan check also crashes on a null
//! element, planned or configured, of a nested attribute LIST or MAP ("interface
//! conversion: ..."; Terraform compares its attributes as null).
//!
//! Deliberate departures from every client: no message prints a value that the schema
//! marks sensitive. Where a client prints a value that holds a sensitive attribute
//! (not null, and not an unknown without refinements), these functions write
//! `(sensitive value)` in its place: a nested attribute's planned value
//! ([`Rule::NonComputedSet`]), a set element of blocks ([`Rule::PlannedSetElementLost`],
//! [`Rule::ActualSetElementNew`]) and the blocks planned for an unknown `dynamic` block
//! ([`Rule::UnknownDynamicBlockChanged`]); a value that shows nothing of one (a null,
//! a plain unknown) is printed as the client prints it. Where a client prints what
//! differs inside a nested attribute that holds a sensitive attribute (OpenTofu;
//! Terraform below a `dynamic` MAP block), a problem at a plain attribute of its
//! objects or with an element that shows no sensitive value is printed as the client
//! prints it, an element of a nested SET that shows one is written `(sensitive value)`,
//! and any other problem makes the whole attribute's report a sensitive attribute's
//! ([`Rule::SensitiveChanged`]).
//!
//! Every client crashes in ProposedNew where a wholly unknown prior state (outside its
//! contract: the prior state is always known) meets a configured block of a LIST block
//! holding `dynamic` types: [`Block::try_proposed_new_for`] gives that crash as its
//! error ([`ProposedNewFails`]), [`Block::proposed_new_for`] the value computed past it.
//! Where a client would crash in a way not named above, these functions report what
//! they find, treat a null collection of blocks as empty and skip what cannot be
//! compared; they never panic. `tests/conformance/objchange.rs` compares every client
//! on 10,000 recorded cases and lists every remaining difference with its reason.

mod client;
mod compatible;
mod cty;
mod marks;
mod proposed;
mod provider;
mod response;
mod valid;

use std::fmt::{self, Write as _};

use crate::path::{Path, PathStep};
use crate::schema::Block;
use crate::text::go_quote;
use crate::types::Type;
use crate::value::Value;

use client::Rules;
pub use client::{Client, UnknownClient};
pub use compatible::check_value_compatible;
pub(crate) use cty::concrete as concrete_view;

/// The client itself fails (crashes) computing the proposed new state
/// ([`Block::try_proposed_new_for`]): where, and the verdict in words ("Terraform 1.15.5
/// fails on this value: ... (it panics: ...)"). It prints as `<path>: <message>`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ProposedNewFails {
    /// The client that fails.
    pub client: Client,
    /// Where in the configuration it fails.
    pub path: Path,
    /// The path as Terraform prints it.
    pub terraform_path: String,
    /// The verdict: what in the value the client cannot take, and its panic.
    pub message: String,
}

impl fmt::Display for ProposedNewFails {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.terraform_path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.terraform_path, self.message)
        }
    }
}

impl std::error::Error for ProposedNewFails {}

/// One way a planned or new state breaks Terraform's rules: where, which rule, and
/// Terraform's message.
///
/// It prints as `<path>: <message>` with values as this crate renders them;
/// [`terraform_text`](Inconsistency::terraform_text) gives Terraform's own wording.
///
/// ```
/// use ctywire::schema::{Attribute, Block, Rule};
/// use ctywire::{Path, Value};
///
/// let block = Block::new().attribute("size", Attribute::new(ctywire::Type::Number).optional());
/// let planned = Value::object([("size", Value::from(10))]);
/// let new = Value::object([("size", Value::from(20))]);
/// let found = block.check_apply(&planned, &new);
/// assert_eq!(found.len(), 1);
/// assert_eq!((found[0].rule, &found[0].path), (Rule::Changed, &Path::root().attribute("size")));
/// assert_eq!(found[0].to_string(), ".size: was 10, but now 20");
/// assert_eq!(found[0].terraform_text(), ".size: was cty.NumberIntVal(10), but now cty.NumberIntVal(20)");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Inconsistency {
    /// The rule broken.
    pub rule: Rule,
    /// The check that found it: Terraform's words around the message depend on it.
    pub check: Check,
    /// Where, in the value checked (set elements by value).
    pub path: Path,
    /// The path as Terraform prints it (its `tfdiags.FormatCtyPath`): set elements by
    /// their value (`["a"]`, `[...]` for other than strings and numbers), and the keys
    /// of a map nested attribute as attributes (`.key`), as Terraform names them there.
    pub terraform_path: String,
    /// Terraform's message, word for word, values in cty's Go syntax
    /// ([`Value::to_go_syntax`]).
    pub terraform_message: String,
    /// The same message with values as this crate renders them (`"a"`, `42`,
    /// `(known after apply)`).
    pub message: String,
}

impl Inconsistency {
    /// Terraform's text for this problem, as its error output and its own tests print
    /// it (`tfdiags.FormatError`): `<terraform_path>: <terraform_message>`, or just the
    /// message at the root.
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block};
    /// use ctywire::{Type, Value};
    ///
    /// let block = Block::new().attribute("tags", Attribute::new(Type::set(Type::String)).optional());
    /// let planned = Value::object([("tags", Value::set([Value::from("a")]))]);
    /// let new = Value::object([("tags", Value::set([Value::from("b")]))]);
    /// let texts: Vec<String> = block.check_apply(&planned, &new).iter().map(|i| i.terraform_text()).collect();
    /// assert_eq!(texts, [r#".tags: planned set element cty.StringVal("a") does not correlate with any element in actual"#]);
    /// ```
    pub fn terraform_text(&self) -> String {
        if self.terraform_path.is_empty() {
            self.terraform_message.clone()
        } else {
            format!("{}: {}", self.terraform_path, self.terraform_message)
        }
    }
}

impl fmt::Display for Inconsistency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// Which of Terraform's checks found an [`Inconsistency`]: of a planned state, of a new
/// state after apply, or of a refreshed (or imported) state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Check {
    /// `PlanResourceChange`'s planned state ([`Block::check_plan`]).
    Plan,
    /// `ApplyResourceChange`'s new state ([`Block::check_apply`],
    /// [`Block::check_compatible`]).
    Apply,
    /// `ReadResource`'s new state ([`Block::check_read`]).
    Read,
}

/// A diagnostic as Terraform writes it: its summary line and its detail, word for word
/// (before Terraform wraps the detail to the terminal's width).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TerraformDiagnostic {
    /// The summary (`Provider produced invalid plan`).
    pub summary: String,
    /// The detail, paragraphs separated by a blank line.
    pub detail: String,
}

impl Inconsistency {
    /// The error Terraform reports for this problem in resource `address`
    /// (`demo_thing.web`) of the provider whose source address is `provider`
    /// (`registry.terraform.io/hashicorp/aws`), configured in the root module without
    /// an alias.
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block};
    /// use ctywire::{Type, Value};
    ///
    /// let block = Block::new().attribute("kind", Attribute::new(Type::String).computed());
    /// let planned = Value::object([("kind", Value::unknown())]);
    /// let found = block.check_apply(&planned, &planned);
    /// let d = found[0].terraform_diagnostic("demo_thing.x", "example.com/ctywire/demo");
    /// assert_eq!(d.summary, "Provider returned invalid result object after apply");
    /// assert!(d.detail.starts_with(
    ///     "After the apply operation, the provider still indicated an unknown value for demo_thing.x.kind."
    /// ));
    /// ```
    pub fn terraform_diagnostic(&self, address: &str, provider: &str) -> TerraformDiagnostic {
        self.diagnostic_for(Client::default(), address, provider)
    }

    /// [`terraform_diagnostic`](Inconsistency::terraform_diagnostic) as `client` writes
    /// it: the details that name the program name it (OpenTofu: "OpenTofu will still
    /// save the other known object values in the state.").
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block, Client};
    /// use ctywire::{Type, Value};
    ///
    /// let block = Block::new().attribute("kind", Attribute::new(Type::String).computed());
    /// let planned = Value::object([("kind", Value::unknown())]);
    /// let found = block.check_apply_for(Client::OpenTofu1_12, &planned, &planned);
    /// let d = found[0].diagnostic_for(Client::OpenTofu1_12, "demo_thing.x", "example.com/ctywire/demo");
    /// assert!(d.detail.ends_with("OpenTofu will still save the other known object values in the state."));
    /// ```
    pub fn diagnostic_for(
        &self,
        client: Client,
        address: &str,
        provider: &str,
    ) -> TerraformDiagnostic {
        const BUG: &str = "This is a bug in the provider, which should be reported in the provider's own issue tracker.";
        let at = format!("{address}{}", self.terraform_path);
        let source = go_quote(provider);
        let config = go_quote(&format!("provider[{source}]"));
        let diagnostic = |summary: &str, detail: String| TerraformDiagnostic {
            summary: summary.to_owned(),
            detail,
        };
        match (self.rule, self.check) {
            (Rule::ClientFails, _) => diagnostic(
                "The client crashed",
                format!(
                    "{} (for {address}). The client panics here: there is no diagnostic, only \
                     its crash report.",
                    self.terraform_message
                ),
            ),
            (Rule::ClientRefuses, check) => diagnostic(
                match check {
                    Check::Plan => "Provider produced invalid plan",
                    Check::Apply | Check::Read => "Provider produced invalid object",
                },
                self.terraform_message.clone(),
            ),
            (Rule::WriteOnlyReturned, check) => {
                let (summary, when) = match check {
                    Check::Plan => ("Provider produced invalid plan", "during planning"),
                    Check::Apply => ("Provider produced invalid object", "after apply"),
                    Check::Read => ("Provider produced invalid object", "during refresh"),
                };
                diagnostic(
                    summary,
                    format!(
                        "Provider {config} returned a value for the write-only attribute \"{at}\" {when}. \
                         Write-only attributes cannot be read back from the provider. {BUG}"
                    ),
                )
            }
            (Rule::UnknownAfterApply, _) => diagnostic(
                "Provider returned invalid result object after apply",
                format!(
                    "After the apply operation, the provider still indicated an unknown value for {at}. \
                     All values must be known after apply, so this is always a bug in the provider and \
                     should be reported in the provider's own repository. {} will still save the \
                     other known object values in the state.",
                    client.program()
                ),
            ),
            (Rule::NotNullAfterDestroy, _) => diagnostic(
                "Provider returned invalid result object after apply",
                format!(
                    "After applying a Delete plan, the provider returned a non-null object for {address}. \
                     Destroying should always produce a null value, so this is always a bug in the \
                     provider and should be reported in the provider's own repository. {} will \
                     still save this errant object in the state for debugging and recovery.",
                    client.program()
                ),
            ),
            (Rule::RequiresReplaceNowhere, _) => diagnostic(
                "Provider produced invalid plan",
                format!(
                    "Provider {source} has indicated \"requires replacement\" on {address} for a \
                     non-existent attribute path {}.\n\n{BUG}",
                    self.terraform_message
                ),
            ),
            (Rule::UnknownAfterRead, _) => diagnostic(
                "Provider produced invalid object",
                format!(
                    "Provider {source} planned an invalid value for {address} during refresh: {}.\n\n{BUG}",
                    self.terraform_message
                ),
            ),
            (_, Check::Plan) => diagnostic(
                "Provider produced invalid plan",
                format!(
                    "Provider {source} planned an invalid value for {at}: {}.\n\n{BUG}",
                    self.terraform_message
                ),
            ),
            (_, Check::Apply | Check::Read) => diagnostic(
                "Provider produced inconsistent result after apply",
                format!(
                    "When applying changes to {address}, provider {config} produced an unexpected new \
                     value: {}.\n\n{BUG}",
                    self.terraform_text()
                ),
            ),
        }
    }
}

/// The rules of Terraform's plan and apply checks, one per message. Each variant's
/// documentation quotes Terraform's message (`%#v` is a value in cty's Go syntax).
///
/// Terraform's rules change between versions, so a `match` needs a `_` arm.
///
/// ```
/// use ctywire::schema::Rule;
///
/// assert_eq!(Rule::ConfigMismatch.name(), "config-mismatch");
/// assert_eq!(Rule::RefinementBroken.to_string(), "refinement-broken");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rule {
    // ---- check_plan (AssertPlanValid)
    /// "planned for absence but config wants existence": a block or nested object the
    /// configuration sets is null in the plan.
    PlannedAbsent,
    /// "planned for existence but config wants absence": a block or nested object the
    /// configuration leaves null is set in the plan.
    PlannedPresent,
    /// "attribute representing a list|set|map|group of nested blocks must be empty to
    /// indicate no blocks, not null".
    NullBlockCollection,
    /// "planned value %#v for unknown dynamic block": the configuration's block is
    /// unknown (a `dynamic` block over an unknown `for_each`), the plan changed it.
    UnknownDynamicBlockChanged,
    /// "planned unknown value for non-computed block" (Terraform 1.16; Terraform 1.15 and
    /// OpenTofu 1.12: "attribute representing nested block must not be unknown itself;
    /// set nested attribute values to unknown instead").
    UnknownBlock,
    /// "block count in plan (%d) disagrees with count in config (%d)".
    BlockCount,
    /// "element representing nested block must not be unknown itself; set nested
    /// attribute values to unknown instead".
    UnknownBlockElement,
    /// "block key %q from plan is not present in config".
    BlockKeyNotInConfig,
    /// "block key %q from config is not present in plan".
    BlockKeyNotInPlan,
    /// "planned value for write-only attribute is not null".
    WriteOnlyNotNull,
    /// "planned value %#v for a non-computed attribute" (or "sensitive planned value
    /// for a non-computed attribute"): the configuration leaves it null, the provider
    /// may not set it.
    NonComputedSet,
    /// "planned value %#v does not match config value %#v" (or "sensitive planned
    /// value does not match config value"), with no prior value to fall back on.
    ConfigMismatch,
    /// "planned value %#v does not match config value %#v nor prior value %#v" (or
    /// "sensitive planned value does not match config value nor prior value").
    ConfigAndPriorMismatch,
    /// "planned unknown for configured value": a nested attribute object the
    /// configuration sets is wholly unknown in the plan.
    UnknownNestedObject,
    /// "count in plan (%#v) disagrees with count in config (%#v)", for nested
    /// attribute lists, maps and sets.
    NestedCount,
    /// "map key %q from plan is not present in config".
    MapKeyNotInConfig,
    /// "map key %q from config is not present in plan".
    MapKeyNotInPlan,
    // ---- check_apply (AssertObjectCompatible, AssertValueCompatible)
    /// "was absent, but now present" ("Root object was absent, but now present" for the
    /// whole object).
    Appeared,
    /// "was present, but now absent" ("Root object was present, but now absent").
    Disappeared,
    /// "inconsistent values for sensitive attribute": any other apply rule, broken in a
    /// sensitive attribute (Terraform hides the details).
    SensitiveChanged,
    /// "block count changed from %d to %d".
    BlockCountChanged,
    /// "block key %q has vanished".
    BlockKeyVanished,
    /// "new block key %q has appeared".
    BlockKeyAppeared,
    /// "block set length changed from %d to %d".
    BlockSetGrew,
    /// "wrong final value type: %s".
    WrongType,
    /// "final value %#v does not conform to planning placeholder %#v": an unknown's
    /// refinements (not null, prefix, bounds, length) do not hold for its final value.
    RefinementBroken,
    /// "was %#v, but now null".
    BecameNull,
    /// "was null, but now %#v".
    BecameNonNull,
    /// "was known, but now unknown".
    BecameUnknown,
    /// "was %#v, but now %#v".
    Changed,
    /// "element %s has vanished".
    ElementVanished,
    /// "new element %s has appeared".
    ElementAppeared,
    /// "length changed from %d to %d": a set has more elements than planned.
    SetGrew,
    /// "planned set element %#v does not correlate with any element in actual".
    PlannedSetElementLost,
    /// "actual set element %#v does not correlate with any element in plan".
    ActualSetElementNew,
    // ---- the checks around objchange's (Terraform's resource-instance node)
    /// "Provider %q returned a value for the write-only attribute ... during planning /
    /// after apply / during refresh": a write-only attribute must always be null in
    /// what a provider returns.
    WriteOnlyReturned,
    /// "After the apply operation, the provider still indicated an unknown value for
    /// %s": one for each unknown left in a new state.
    UnknownAfterApply,
    /// "After applying a Delete plan, the provider returned a non-null object".
    NotNullAfterDestroy,
    /// "The returned state contains unknown values": a refreshed state must be wholly
    /// known.
    UnknownAfterRead,
    /// "has indicated \"requires replacement\" on %s for a non-existent attribute path
    /// %#v": a plan's `RequiresReplace` path leads nowhere in the prior or the planned
    /// state.
    RequiresReplaceNowhere,
    // ---- the client's own failures
    /// The client itself fails (crashes) on this value, where a clean rule would decide:
    /// Terraform asks a null element of a nested attribute collection for an attribute
    /// when it looks for the write-only or sensitive attributes inside (and, after
    /// apply, an unknown one, which it has made null by then); every client panics
    /// inside objchange on values of a shape it assumes away (see the module's
    /// documentation). It is then the only problem reported.
    ClientFails,
    /// The client refuses the value with an error of its own that no rule of the
    /// protocol asks for: Terraform's check of write-only attributes cannot step into a
    /// `dynamic` MAP block ("Error validating write-only attributes: at step %d: not a
    /// map type.").
    ClientRefuses,
}

impl Rule {
    /// A stable name for the rule, in kebab case (`config-mismatch`).
    pub fn name(self) -> &'static str {
        match self {
            Rule::PlannedAbsent => "planned-absent",
            Rule::PlannedPresent => "planned-present",
            Rule::NullBlockCollection => "null-block-collection",
            Rule::UnknownDynamicBlockChanged => "unknown-dynamic-block-changed",
            Rule::UnknownBlock => "unknown-block",
            Rule::BlockCount => "block-count",
            Rule::UnknownBlockElement => "unknown-block-element",
            Rule::BlockKeyNotInConfig => "block-key-not-in-config",
            Rule::BlockKeyNotInPlan => "block-key-not-in-plan",
            Rule::WriteOnlyNotNull => "write-only-not-null",
            Rule::NonComputedSet => "non-computed-set",
            Rule::ConfigMismatch => "config-mismatch",
            Rule::ConfigAndPriorMismatch => "config-and-prior-mismatch",
            Rule::UnknownNestedObject => "unknown-nested-object",
            Rule::NestedCount => "nested-count",
            Rule::MapKeyNotInConfig => "map-key-not-in-config",
            Rule::MapKeyNotInPlan => "map-key-not-in-plan",
            Rule::Appeared => "appeared",
            Rule::Disappeared => "disappeared",
            Rule::SensitiveChanged => "sensitive-changed",
            Rule::BlockCountChanged => "block-count-changed",
            Rule::BlockKeyVanished => "block-key-vanished",
            Rule::BlockKeyAppeared => "block-key-appeared",
            Rule::BlockSetGrew => "block-set-grew",
            Rule::WrongType => "wrong-type",
            Rule::RefinementBroken => "refinement-broken",
            Rule::BecameNull => "became-null",
            Rule::BecameNonNull => "became-non-null",
            Rule::BecameUnknown => "became-unknown",
            Rule::Changed => "changed",
            Rule::ElementVanished => "element-vanished",
            Rule::ElementAppeared => "element-appeared",
            Rule::SetGrew => "set-grew",
            Rule::PlannedSetElementLost => "planned-set-element-lost",
            Rule::ActualSetElementNew => "actual-set-element-new",
            Rule::WriteOnlyReturned => "write-only-returned",
            Rule::UnknownAfterApply => "unknown-after-apply",
            Rule::NotNullAfterDestroy => "not-null-after-destroy",
            Rule::UnknownAfterRead => "unknown-after-read",
            Rule::RequiresReplaceNowhere => "requires-replace-nowhere",
            Rule::ClientFails => "client-fails",
            Rule::ClientRefuses => "client-refuses",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A step of the path a check is at, borrowed; it becomes a [`PathStep`] and
/// Terraform's text only when a problem is reported.
#[derive(Clone, Copy)]
enum Step<'a> {
    /// An object attribute (also a label of a `dynamic` MAP block): `.name`.
    Attribute(&'a str),
    /// A map key: `["key"]`.
    Key(&'a str),
    /// A map key that Terraform names as an attribute (`.key`): the keys of a MAP nested
    /// attribute in its plan check.
    KeyAsAttribute(&'a str),
    /// A list or tuple index: `[0]`.
    Index(usize),
    /// A set element, by value.
    Element(&'a Value),
}

impl Step<'_> {
    fn to_path_step(self) -> PathStep {
        match self {
            Step::Attribute(name) => PathStep::Attribute(name.to_owned()),
            Step::Key(key) | Step::KeyAsAttribute(key) => PathStep::Key(key.to_owned()),
            Step::Index(i) => PathStep::Index(i as u64),
            Step::Element(v) => PathStep::SetElement(v.clone()),
        }
    }

    /// The step as Terraform's `FormatCtyPath` prints it.
    fn write_terraform(self, out: &mut String) {
        match self {
            Step::Attribute(name) | Step::KeyAsAttribute(name) => {
                out.push('.');
                out.push_str(name);
            }
            Step::Key(key) => {
                out.push('[');
                out.push_str(&go_quote(key));
                out.push(']');
            }
            Step::Index(i) => {
                let _ = write!(out, "{}", PathStep::Index(i as u64));
            }
            Step::Element(v) => {
                let _ = write!(out, "[{}]", crate::path::SetElementText(v));
            }
        }
    }
}

/// The problems a check has found, and the path it is at.
struct Findings<'a> {
    check: Check,
    rules: Rules,
    steps: Vec<Step<'a>>,
    found: Vec<Inconsistency>,
    /// Below a `dynamic` MAP block (an object): Terraform's sensitive marks, placed by
    /// map keys, do not reach here.
    unmarked: bool,
}

impl<'a> Findings<'a> {
    fn new(check: Check, rules: impl Into<Rules>) -> Findings<'a> {
        Findings {
            check,
            rules: rules.into(),
            steps: Vec::new(),
            found: Vec::new(),
            unmarked: false,
        }
    }

    /// Reports `rule` at the current path, with the message written by `message`, which
    /// is called twice: with a printer of cty's Go syntax (Terraform's wording) and with
    /// this crate's rendering.
    fn report(&mut self, rule: Rule, message: impl Fn(&dyn Fn(&Value, &Type) -> String) -> String) {
        let mut terraform_path = String::new();
        for step in &self.steps {
            step.write_terraform(&mut terraform_path);
        }
        let path = Path::from(
            self.steps
                .iter()
                .map(|s| s.to_path_step())
                .collect::<Vec<_>>(),
        );
        self.found.push(Inconsistency {
            rule,
            check: self.check,
            path,
            terraform_path,
            terraform_message: message(&|v: &Value, t: &Type| v.to_go_syntax(t)),
            message: message(&inline),
        });
    }

    /// Reports that the client crashes inside objchange here: `why` says what in the
    /// value it cannot take, `panic` is Go's panic message.
    fn client_panics(&mut self, why: &str, panic: &str) {
        let release = self.rules.wording().release();
        self.report(Rule::ClientFails, |_| {
            format!("{release} fails on this value: {why} (it panics: {panic})")
        });
    }

    /// The problems found, or only the client's crash where it crashes: nothing else
    /// is reported then.
    fn into_found(self) -> Vec<Inconsistency> {
        match self.found.iter().position(|i| i.rule == Rule::ClientFails) {
            Some(at) => vec![self.found[at].clone()],
            None => self.found,
        }
    }

    /// Runs `f` with `step` pushed on the path.
    fn within(&mut self, step: Step<'a>, f: impl FnOnce(&mut Self)) {
        self.steps.push(step);
        f(self);
        self.steps.pop();
    }
}

/// A value on one line, as this crate renders values (`"a"`, `42`, `null`,
/// `(known after apply, not null)`, `["a", "b"]`, `{ id = "x" }`), for messages.
fn inline(value: &Value, ty: &Type) -> String {
    let mut out = String::new();
    write_inline(&mut out, value, ty);
    out
}

fn write_inline(out: &mut String, value: &Value, ty: &Type) {
    let (value, ty) = cty::concrete(value, ty);
    let element = |i: usize| cty::element_type(&ty, i);
    match value {
        Value::Null => out.push_str("null"),
        Value::Unknown(r) => {
            out.push_str("(known after apply");
            for phrase in r.describe() {
                out.push_str(", ");
                out.push_str(&phrase);
            }
            out.push(')');
        }
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => out.push_str(&crate::render::quote(s)),
        Value::List(vs) | Value::Tuple(vs) => inline_sequence(out, vs, element),
        Value::Set(s) => inline_sequence(out, s.as_slice(), element),
        Value::Map(m) => {
            let e = element(0);
            inline_entries(
                out,
                m.iter()
                    .map(|(k, v)| (crate::render::quote(k), v, e.clone())),
            );
        }
        Value::Object(o) => inline_entries(
            out,
            o.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.to_owned(), v, cty::attribute_type(&ty, k))),
        ),
        Value::Typed(_) => unreachable!("concrete() unwraps"),
    }
}

fn inline_sequence(out: &mut String, values: &[Value], element: impl Fn(usize) -> Type) {
    out.push('[');
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_inline(out, v, &element(i));
    }
    out.push(']');
}

fn inline_entries<'v>(out: &mut String, entries: impl Iterator<Item = (String, &'v Value, Type)>) {
    let mut any = false;
    for (label, v, t) in entries {
        out.push_str(if any { ", " } else { "{ " });
        any = true;
        out.push_str(&label);
        out.push_str(" = ");
        write_inline(out, v, &t);
    }
    out.push_str(if any { " }" } else { "{}" });
}

impl Block {
    /// The proposed new state Terraform sends to the provider's `PlanResourceChange`
    /// (Terraform's `ProposedNew`), from the prior state (null when creating) and the
    /// configuration:
    ///
    /// - an attribute the configuration sets comes from the configuration; a computed
    ///   attribute the configuration leaves null keeps its prior value (null when
    ///   there is none), except that an optional nested attribute whose prior value
    ///   holds a non-computed attribute must have come from configuration, so it
    ///   becomes null;
    /// - nested blocks and nested attribute objects are matched with their prior
    ///   selves by nesting mode: LIST by index, MAP by key, SINGLE and GROUP as they
    ///   are, SET by finding, for each configured element, the first unused prior
    ///   element that could have come from it (equal, or differing only in computed
    ///   attributes the configuration leaves null);
    /// - a null or unknown configuration block stays as it is.
    ///
    /// For a null configuration (a destroy) this gives the prior state back, as
    /// objchange's function does; Terraform itself does not call it then, and sends a
    /// null proposed state (as `ctywire proposed-new` prints).
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block, BlockNesting, NestedBlock};
    /// use ctywire::{Type, Value};
    ///
    /// let rule = Block::new()
    ///     .attribute("port", Attribute::new(Type::Number).required())
    ///     .attribute("id", Attribute::new(Type::String).computed());
    /// let block = Block::new()
    ///     .attribute("name", Attribute::new(Type::String).optional().computed())
    ///     .block_type("rule", NestedBlock::new(BlockNesting::Set, rule));
    ///
    /// let prior = Value::object([
    ///     ("name", Value::from("web-1")),
    ///     ("rule", Value::set([
    ///         Value::object([("port", Value::from(80)), ("id", Value::from("r-80"))]),
    ///         Value::object([("port", Value::from(443)), ("id", Value::from("r-443"))]),
    ///     ])),
    /// ]);
    /// let config = Value::object([
    ///     ("name", Value::Null),
    ///     ("rule", Value::set([Value::object([("port", Value::from(443)), ("id", Value::Null)])])),
    /// ]);
    /// let proposed = block.proposed_new(&prior, &config);
    /// assert_eq!(proposed["name"].as_str(), Some("web-1"));
    /// assert_eq!(proposed["rule"][0]["id"].as_str(), Some("r-443"));
    /// ```
    pub fn proposed_new(&self, prior: &Value, config: &Value) -> Value {
        self.proposed_new_for(Client::default(), prior, config)
    }

    /// [`proposed_new`](Block::proposed_new) as `client` computes it. Where the client
    /// crashes on the input ([`try_proposed_new_for`](Block::try_proposed_new_for)
    /// says where), this gives the value computed past the crash, as if the client took
    /// the input.
    pub fn proposed_new_for(&self, client: Client, prior: &Value, config: &Value) -> Value {
        let mode = proposed::Mode {
            client,
            crashes: false,
        };
        match proposed::proposed(self, prior, config, mode) {
            Ok(value) => value,
            // Not reached: without `crashes`, nothing fails.
            Err(_) => prior.clone(),
        }
    }

    /// [`proposed_new_for`](Block::proposed_new_for), or the client's own failure where
    /// the client crashes computing it: every client panics when a wholly unknown prior
    /// state (outside ProposedNew's contract: Terraform always knows the prior state)
    /// meets a configured block of a LIST block holding `dynamic` types.
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block, BlockNesting, Client, NestedBlock};
    /// use ctywire::{Type, Value};
    ///
    /// let step = Block::new().attribute("input", Attribute::new(Type::Dynamic).optional());
    /// let block = Block::new().block_type("step", NestedBlock::new(BlockNesting::List, step));
    /// let config = Value::object([(
    ///     "step",
    ///     Value::tuple([Value::object([("input", Value::from("x"))])]),
    /// )]);
    ///
    /// let fails = block
    ///     .try_proposed_new_for(Client::Terraform1_15, &Value::unknown(), &config)
    ///     .unwrap_err();
    /// assert_eq!(fails.terraform_path, ".step[0]");
    /// assert!(fails.message.starts_with("Terraform 1.15.5 fails on this value: "));
    /// assert!(fails.message.ends_with("(it panics: ProposedNew only supports object-typed values)"));
    ///
    /// // A known prior state is what Terraform sends, and it takes that.
    /// let proposed = block.try_proposed_new_for(Client::Terraform1_15, &Value::Null, &config)?;
    /// assert_eq!(proposed, config);
    /// # Ok::<(), ctywire::schema::ProposedNewFails>(())
    /// ```
    pub fn try_proposed_new_for(
        &self,
        client: Client,
        prior: &Value,
        config: &Value,
    ) -> Result<Value, ProposedNewFails> {
        let mode = proposed::Mode {
            client,
            crashes: true,
        };
        proposed::proposed(self, prior, config, mode).map_err(|crash| {
            let path = Path::from(crash.steps.into_iter().rev().collect::<Vec<_>>());
            ProposedNewFails {
                client,
                terraform_path: path.to_string(),
                path,
                message: format!(
                    "{} fails on this value: {} (it panics: {})",
                    client.release(),
                    crash.why,
                    crash.panic
                ),
            }
        })
    }

    /// Checks a planned state returned by `PlanResourceChange` against the prior state
    /// (null when creating) and the configuration, as Terraform does before it accepts
    /// a plan ("Provider produced invalid plan"): write-only attributes must be null,
    /// then Terraform's `AssertPlanValid`. Lists what Terraform reports; empty when
    /// Terraform would accept the plan.
    ///
    /// The provider may change only what the configuration leaves null, and only for
    /// computed attributes (with an unknown where the value is not known yet); it may
    /// also return the prior value in place of a configured one (a "diff suppression").
    /// Blocks must keep the configuration's count and keys, and neither a block nor a
    /// collection of blocks may be null or unknown where the configuration has it. A
    /// null planned state for a non-null configuration is [`Rule::PlannedAbsent`] at
    /// the root, for a create and an update alike, as Terraform reports it.
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block, Rule};
    /// use ctywire::{Type, Value};
    ///
    /// let block = Block::new()
    ///     .attribute("size", Attribute::new(Type::Number).optional())
    ///     .attribute("zone", Attribute::new(Type::String).optional().computed());
    /// let config = Value::object([("size", Value::Null), ("zone", Value::Null)]);
    /// let planned = Value::object([("size", Value::from(10)), ("zone", Value::unknown())]);
    ///
    /// let found = block.check_plan(&Value::Null, &config, &planned);
    /// assert_eq!(found.len(), 1);
    /// assert_eq!(found[0].rule, Rule::NonComputedSet);
    /// assert_eq!(found[0].terraform_text(), ".size: planned value cty.NumberIntVal(10) for a non-computed attribute");
    /// ```
    pub fn check_plan(&self, prior: &Value, config: &Value, planned: &Value) -> Vec<Inconsistency> {
        self.check_plan_for(Client::default(), prior, config, planned)
    }

    /// [`check_plan`](Block::check_plan) with `client`'s rules and wording.
    pub fn check_plan_for(
        &self,
        client: Client,
        prior: &Value,
        config: &Value,
        planned: &Value,
    ) -> Vec<Inconsistency> {
        response::check_plan(self, prior, config, planned, client.into())
    }

    /// [`check_plan`](Block::check_plan) under every client's rules, for a provider that
    /// cannot tell which client calls it: the problems of the first client in
    /// [`Client::ALL`] that refuses the plan, in its wording; empty when every client
    /// accepts it. An accepted plan costs one check: a walk that applies, wherever the
    /// clients' rules differ, the rule of the client that refuses (where they cannot
    /// differ, in a block with no nested blocks, no nested attributes and no write-only
    /// attributes, the default client's check). Only a plan it refuses is checked again
    /// client by client, for the first refusing client's problems.
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block, BlockNesting, NestedBlock, Rule};
    /// use ctywire::{Type, Value};
    ///
    /// // A null LIST of blocks for a null configuration: only Terraform 1.16 refuses it.
    /// let block = Block::new().block_type(
    ///     "disk",
    ///     NestedBlock::new(BlockNesting::List, Block::new().attribute("size", Attribute::new(Type::Number).optional())),
    /// );
    /// let null_disks = Value::object([("disk", Value::Null)]);
    /// assert!(block.check_plan(&Value::Null, &null_disks, &null_disks).is_empty());
    /// let found = block.check_plan_strictest(&Value::Null, &null_disks, &null_disks);
    /// assert_eq!(found[0].rule, Rule::NullBlockCollection);
    /// ```
    pub fn check_plan_strictest(
        &self,
        prior: &Value,
        config: &Value,
        planned: &Value,
    ) -> Vec<Inconsistency> {
        let clients_agree = self.block_types.is_empty()
            && self
                .attributes
                .values()
                .all(|a| a.nested_type.is_none() && !a.write_only);
        if clients_agree {
            return self.check_plan(prior, config, planned);
        }
        if response::check_plan(self, prior, config, planned, Rules::Strictest).is_empty() {
            return Vec::new();
        }
        Client::ALL
            .into_iter()
            .map(|client| self.check_plan_for(client, prior, config, planned))
            .find(|found| !found.is_empty())
            .unwrap_or_default()
    }

    /// Checks a new state returned by `ApplyResourceChange` against the planned state
    /// (null for a destroy) as Terraform does after apply, in its order, stopping where
    /// it stops: write-only attributes must be null ([`Rule::WriteOnlyReturned`]); no
    /// unknown may be left ([`Rule::UnknownAfterApply`], one for each); a destroy must
    /// return null ([`Rule::NotNullAfterDestroy`]); anything else must be compatible with
    /// the plan ([`check_compatible`](Block::check_compatible)). Lists what Terraform
    /// reports; empty when it would accept the result.
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block, Rule};
    /// use ctywire::{Type, Value};
    ///
    /// let block = Block::new()
    ///     .attribute("name", Attribute::new(Type::String).required())
    ///     .attribute("kind", Attribute::new(Type::String).optional().computed());
    /// let planned = Value::object([("name", Value::from("a")), ("kind", Value::unknown())]);
    ///
    /// // The provider left `kind` unknown: Terraform stops there.
    /// let found = block.check_apply(&planned, &planned);
    /// assert_eq!((found.len(), found[0].rule), (1, Rule::UnknownAfterApply));
    /// assert_eq!(found[0].to_string(), ".kind: the provider still indicated an unknown value");
    ///
    /// let renamed = Value::object([("name", Value::from("b")), ("kind", Value::from("x"))]);
    /// assert_eq!(block.check_apply(&planned, &renamed)[0].rule, Rule::Changed);
    /// ```
    pub fn check_apply(&self, planned: &Value, new: &Value) -> Vec<Inconsistency> {
        self.check_apply_for(Client::default(), planned, new)
    }

    /// [`check_apply`](Block::check_apply) with `client`'s rules and wording.
    pub fn check_apply_for(
        &self,
        client: Client,
        planned: &Value,
        new: &Value,
    ) -> Vec<Inconsistency> {
        response::check_apply(self, planned, new, client)
    }

    /// Checks a new state returned by `ReadResource` (or `ImportResourceState`) as
    /// Terraform does after a refresh: it must be wholly known
    /// ([`Rule::UnknownAfterRead`], reported once, at the first unknown), and its
    /// write-only attributes null. A null state (the object is gone) is accepted.
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block, Rule};
    /// use ctywire::{Type, Value};
    ///
    /// let block = Block::new().attribute("id", Attribute::new(Type::String).computed());
    /// let read = Value::object([("id", Value::unknown())]);
    /// let found = block.check_read(&read);
    /// assert_eq!(found[0].rule, Rule::UnknownAfterRead);
    /// let d = found[0].terraform_diagnostic("demo_thing.x", "example.com/ctywire/demo");
    /// assert!(d.detail.starts_with(
    ///     "Provider \"example.com/ctywire/demo\" planned an invalid value for demo_thing.x during refresh: The returned state contains unknown values."
    /// ));
    /// assert!(block.check_read(&Value::Null).is_empty());
    /// ```
    pub fn check_read(&self, new: &Value) -> Vec<Inconsistency> {
        self.check_read_for(Client::default(), new)
    }

    /// [`check_read`](Block::check_read) with `client`'s rules and wording.
    pub fn check_read_for(&self, client: Client, new: &Value) -> Vec<Inconsistency> {
        response::check_read(self, new, client)
    }

    /// Checks the `RequiresReplace` paths a `PlanResourceChange` response gives, as
    /// Terraform does: on an update (a non-null prior state), each must lead somewhere in
    /// the prior or the planned state ([`Rule::RequiresReplaceNowhere`]).
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block, Rule};
    /// use ctywire::{Path, Type, Value};
    ///
    /// let block = Block::new().attribute("name", Attribute::new(Type::String).required());
    /// let state = Value::object([("name", Value::from("a"))]);
    /// let paths = [Path::root().attribute("name"), Path::root().attribute("nmae")];
    /// let found = block.check_requires_replace(&state, &state, &paths);
    /// assert_eq!(found.len(), 1);
    /// assert_eq!(found[0].rule, Rule::RequiresReplaceNowhere);
    /// let d = found[0].terraform_diagnostic("demo_thing.x", "example.com/ctywire/demo");
    /// assert!(d.detail.starts_with(
    ///     r#"Provider "example.com/ctywire/demo" has indicated "requires replacement" on demo_thing.x for a non-existent attribute path cty.Path{cty.GetAttrStep{Name:"nmae"}}."#
    /// ));
    /// ```
    pub fn check_requires_replace(
        &self,
        prior: &Value,
        planned: &Value,
        paths: &[Path],
    ) -> Vec<Inconsistency> {
        response::check_requires_replace(self, prior, planned, paths)
    }

    /// Checks that a new state keeps what was planned (Terraform's
    /// `AssertObjectCompatible`: "Provider produced inconsistent result after apply",
    /// and "inconsistent final plan" when it compares two plans). Lists every problem;
    /// empty when the two are compatible. [`check_apply`](Block::check_apply) runs this
    /// after Terraform's other checks of an apply.
    ///
    /// Every known planned value must be kept exactly (numbers by value); an unknown
    /// may become anything its type and refinements allow (not null, a string prefix,
    /// number bounds, a collection length); blocks keep their count and keys; a set may
    /// lose elements (unknowns that turn out equal merge) but not gain any, and each
    /// planned element must correlate with a final one. Problems inside a sensitive
    /// attribute are reported as one [`Rule::SensitiveChanged`], without values.
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block, Rule};
    /// use ctywire::{Refinements, Type, Value};
    ///
    /// let block = Block::new()
    ///     .attribute("arn", Attribute::new(Type::String).computed())
    ///     .attribute("name", Attribute::new(Type::String).required());
    /// let planned = Value::object([
    ///     ("arn", Value::Unknown(Refinements::new().not_null().with_string_prefix("arn:"))),
    ///     ("name", Value::from("web")),
    /// ]);
    /// let actual = Value::object([("arn", Value::from("urn:x")), ("name", Value::from("web"))]);
    ///
    /// let found = block.check_compatible(&planned, &actual);
    /// assert_eq!(found[0].rule, Rule::RefinementBroken);
    /// assert_eq!(
    ///     found[0].to_string(),
    ///     r#".arn: final value "urn:x" does not conform to planning placeholder (known after apply, not null, prefix "arn:")"#,
    /// );
    /// ```
    pub fn check_compatible(&self, planned: &Value, actual: &Value) -> Vec<Inconsistency> {
        self.check_compatible_for(Client::default(), planned, actual)
    }

    /// [`check_compatible`](Block::check_compatible) with `client`'s rules and wording.
    pub fn check_compatible_for(
        &self,
        client: Client,
        planned: &Value,
        actual: &Value,
    ) -> Vec<Inconsistency> {
        compatible::check_apply(self, planned, actual, &[], client)
    }

    /// [`check_compatible`](Block::check_compatible), also treating as sensitive the
    /// values at `sensitive` paths and below (Terraform's sensitive marks, which come from
    /// sensitive variables and outputs rather than from the schema).
    pub fn check_compatible_sensitive(
        &self,
        planned: &Value,
        actual: &Value,
        sensitive: &[Path],
    ) -> Vec<Inconsistency> {
        compatible::check_apply(self, planned, actual, sensitive, Client::default())
    }
}

#[cfg(test)]
mod strictest_tests;
#[cfg(test)]
pub(crate) mod tests;

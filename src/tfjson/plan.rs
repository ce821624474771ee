//! The plan representation: planned values, resource changes, output changes, the
//! prior state.

use std::collections::BTreeMap;
use std::fmt;

use crate::error::{Error, Result};
use crate::path::Path;
use crate::schema::{IdentitySchema, ProviderSchemas, Schema, SchemaMatch};
use crate::token::json_read::{Kind, Reader};
use crate::types::Type;
use crate::value::Value;

use super::action::{self, ActionInvocation, DeferredActionInvocation};
use super::state::checked;
use super::state::{instance_key, non_null, state, values};
use super::{
    from_json_value, read, sensitive_paths, sensitive_tree, to_json_value, unknown_tree,
    InstanceKey, MarkTree, RawJson, ResourceMode, State, Values,
};

/// A plan as `terraform show -json PLANFILE` prints it.
///
/// ```
/// use ctywire::tfjson::Plan;
///
/// let plan = Plan::from_json(br#"{
///   "format_version": "1.2",
///   "resource_changes": [{
///     "address": "aws_instance.web", "mode": "managed", "type": "aws_instance", "name": "web",
///     "provider_name": "registry.terraform.io/hashicorp/aws",
///     "change": {
///       "actions": ["create"], "before": null,
///       "after": {"ami": "ami-0c55b159", "tags": {"Name": "web"}},
///       "after_unknown": {"id": true, "tags": {}},
///       "before_sensitive": false, "after_sensitive": {"tags": {}}
///     }
///   }],
///   "applyable": true, "complete": true, "errored": false
/// }"#)?;
/// let ty = "object({ami=string, id=string, tags=map(string)})".parse()?;
/// let after = plan.resource_change("aws_instance.web").unwrap().change.typed_after(&ty)?;
/// assert!(after["id"].is_unknown());
/// assert_eq!(after["ami"].as_str(), Some("ami-0c55b159"));
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Plan {
    /// `format_version`, e.g. `"1.2"`.
    pub format_version: Option<String>,
    /// `terraform_version`.
    pub terraform_version: Option<String>,
    /// Input variables' values (`variables.NAME.value`), as plain JSON.
    pub variables: BTreeMap<String, RawJson>,
    /// `planned_values`: what is known of the outcome (unknown values left out).
    pub planned_values: Option<Values>,
    /// `resource_drift`: changes found outside Terraform since the last run.
    pub resource_drift: Vec<ResourceChange>,
    /// `resource_changes`: one per resource instance object, deposed ones included.
    pub resource_changes: Vec<ResourceChange>,
    /// `deferred_changes`.
    pub deferred_changes: Vec<DeferredChange>,
    /// `output_changes`: the root module's outputs, by name.
    pub output_changes: BTreeMap<String, Change>,
    /// `prior_state`.
    pub prior_state: Option<State>,
    /// `configuration`, as it was written.
    pub configuration: Option<RawJson>,
    /// `relevant_attributes`.
    pub relevant_attributes: Vec<RelevantAttribute>,
    /// `checks`, as it was written.
    pub checks: Option<RawJson>,
    /// `action_invocations`: the actions the plan invokes (Terraform 1.14).
    pub action_invocations: Vec<ActionInvocation>,
    /// `deferred_action_invocations`.
    pub deferred_action_invocations: Vec<DeferredActionInvocation>,
    /// `condition_results`: the preconditions' and postconditions' results, as
    /// Terraform 1.2 wrote them (later versions write `checks`).
    pub condition_results: Vec<ConditionResult>,
    /// The provider schemas an HCP Terraform redacted plan embeds (`provider_schemas`,
    /// with `provider_format_version` as their format version); they type the plan's
    /// own values. `None` for a plan `show -json` printed.
    pub provider_schemas: Option<ProviderSchemas>,
    /// `timestamp`.
    pub timestamp: Option<String>,
    /// `applyable`.
    pub applyable: bool,
    /// `complete`.
    pub complete: bool,
    /// `errored`.
    pub errored: bool,
}

/// A planned change to one resource instance object (`resource_changes`,
/// `resource_drift`).
///
/// ```
/// use ctywire::schema::ProviderSchemas;
/// use ctywire::tfjson::{Action, Plan};
///
/// let plan = Plan::from_json(&std::fs::read("examples/plan/plan.json")?)?;
/// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/plan/schema.json")?)?;
/// let rc = plan.resource_change("aws_key_pair.deployer").unwrap();
/// assert_eq!(rc.change.actions, [Action::Create, Action::Delete]);
/// assert_eq!(rc.action_reason.as_deref(), Some("replace_because_cannot_update"));
/// let ty = rc.schema(&schemas)?.implied_type();
/// let (before, after) = (rc.change.typed_before(&ty)?, rc.change.typed_after(&ty)?);
/// assert!(after["id"].is_unknown() && !before["id"].is_unknown());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ResourceChange {
    /// The absolute address, e.g. `module.network.aws_subnet.private["a"]`.
    pub address: String,
    /// The address in the previous run, when a `moved` block changed it.
    pub previous_address: Option<String>,
    /// The module part of the address (`module.network`); `None` in the root module.
    pub module_address: Option<String>,
    /// `managed` or `data`.
    pub mode: ResourceMode,
    /// The resource type (the document's `type`).
    pub type_name: String,
    /// The resource name.
    pub name: String,
    /// The instance key.
    pub index: Option<InstanceKey>,
    /// Whether the instance key is not yet known (`index_unknown`, deferred changes).
    pub index_unknown: bool,
    /// The deposed key when the change is to a deposed object.
    pub deposed: Option<String>,
    /// The provider's source address.
    pub provider_name: Option<String>,
    /// The change.
    pub change: Change,
    /// `action_reason`, e.g. `replace_because_cannot_update`.
    pub action_reason: Option<String>,
}

/// A change representation: the actions and the values before and after.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Change {
    /// The actions: `["create"]`, `["delete", "create"]`, ...
    pub actions: Vec<Action>,
    /// The value before, as plain JSON (`null` for a create).
    pub before: Option<RawJson>,
    /// What is known of the value after, as plain JSON; absent when it is wholly
    /// unknown.
    pub after: Option<RawJson>,
    /// Which parts of the value after are unknown.
    pub after_unknown: Option<MarkTree>,
    /// Which parts of the value before are sensitive.
    pub before_sensitive: Option<MarkTree>,
    /// Which parts of the value after are sensitive.
    pub after_sensitive: Option<MarkTree>,
    /// The paths that force a replacement (`replace_paths`). The format writes
    /// attributes and map keys alike as strings; they are read as attribute steps
    /// ([`Path::resolve`] fixes them with a type). Integers are index steps; any other
    /// step is a set element's value, read with the type its JSON implies.
    pub replace_paths: Vec<Path>,
    /// `importing`: set when the change imports the object.
    pub importing: Option<Importing>,
    /// `generated_config`.
    pub generated_config: Option<String>,
    /// `before_identity`, as it was written.
    pub before_identity: Option<RawJson>,
    /// `after_identity`, as it was written.
    pub after_identity: Option<RawJson>,
}

/// What a change imports (`importing`): set on the change of a resource an `import`
/// block brings under management.
///
/// ```
/// use ctywire::tfjson::Plan;
///
/// let plan = Plan::from_json(br#"{"format_version": "1.2", "resource_changes": [
///   {"address": "aws_s3_bucket.logs", "mode": "managed", "type": "aws_s3_bucket", "name": "logs",
///    "change": {"actions": ["no-op"], "before": {"bucket": "acme-logs"}, "after": {"bucket": "acme-logs"},
///               "importing": {"id": "acme-logs"}}},
///   {"address": "cloud_instance.web", "mode": "managed", "type": "cloud_instance", "name": "web",
///    "change": {"actions": ["no-op"], "before": null, "after": null,
///               "importing": {"identity": {"id": "i-0abc", "region": "eu-west-1"}}}},
///   {"address": "aws_instance.app", "mode": "managed", "type": "aws_instance", "name": "app",
///    "change": {"actions": ["no-op"], "before": null, "after": null,
///               "importing": {"unknown": true}}}
/// ]}"#)?;
/// let importing = |address| plan.resource_change(address).unwrap().change.importing.as_ref().unwrap();
///
/// assert_eq!(importing("aws_s3_bucket.logs").id.as_deref(), Some("acme-logs"));
/// // Terraform 1.12: an identity instead of an ID, typed by the identity schema.
/// let identity_type = "object({id=string, region=string})".parse()?;
/// let identity = importing("cloud_instance.web").typed_identity(&identity_type)?;
/// assert_eq!(identity["region"].as_str(), Some("eu-west-1"));
/// assert!(importing("aws_s3_bucket.logs").typed_identity(&identity_type)?.is_null());
/// // An import whose ID is not known until apply.
/// let app = importing("aws_instance.app");
/// assert!(app.unknown && app.id.is_none());
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Importing {
    /// The import ID, when the import gives one.
    pub id: Option<String>,
    /// Whether the import ID or identity is not yet known.
    pub unknown: bool,
    /// The identity the import gives instead of an ID, as plain JSON (typed by the
    /// resource type's identity schema).
    pub identity: Option<RawJson>,
}

impl Importing {
    /// The identity, decoded with type `ty` (the resource type's identity schema's
    /// implied type); `Null` when the import gives an ID instead.
    pub fn typed_identity(&self, ty: &Type) -> Result<Value> {
        typed_identity(self.identity.as_ref(), ty)
    }
}

/// A precondition's or postcondition's result (`condition_results`, Terraform 1.2).
///
/// ```
/// use ctywire::tfjson::Plan;
///
/// let plan = Plan::from_json(br#"{"format_version": "1.1", "condition_results": [
///   {"address": "output.api_url", "condition_type": "OutputPrecondition", "result": false,
///    "unknown": false, "error_message": "The API URL must use HTTPS."},
///   {"address": "aws_instance.web", "condition_type": "ResourcePostcondition", "result": false,
///    "unknown": true},
///   {"address": "data.aws_ami.ubuntu", "condition_type": "ResourcePrecondition", "result": true,
///    "unknown": false}
/// ]}"#)?;
/// let failed: Vec<String> = plan.condition_results.iter()
///     .filter(|c| !c.result && !c.unknown)
///     .map(|c| format!("{}: {}", c.address, c.error_message.as_deref().unwrap_or("")))
///     .collect();
/// assert_eq!(failed, ["output.api_url: The API URL must use HTTPS."]);
/// let pending = plan.condition_results.iter().filter(|c| c.unknown).count();
/// assert_eq!(pending, 1);
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ConditionResult {
    /// The address of the object the condition belongs to (`aws_instance.web`,
    /// `output.id`).
    pub address: String,
    /// `ResourcePrecondition`, `ResourcePostcondition` or `OutputPrecondition`.
    pub condition_type: String,
    /// Whether the condition held (`false` when it is not yet known).
    pub result: bool,
    /// Whether the result is not yet known.
    pub unknown: bool,
    /// The error message, when the condition failed.
    pub error_message: Option<String>,
}

/// One action of a change.
///
/// ```
/// use ctywire::tfjson::{Action, Plan};
///
/// let plan = Plan::from_json(&std::fs::read("examples/plan/plan.json")?)?;
/// // A replacement, the new object created before the old one is destroyed.
/// let deployer = &plan.resource_change("aws_key_pair.deployer").unwrap().change;
/// assert_eq!(deployer.actions, [Action::Create, Action::Delete]);
/// assert!(deployer.is_replace());
///
/// let updates: Vec<&str> = plan.resource_changes.iter()
///     .filter(|rc| rc.change.actions == [Action::Update])
///     .map(|rc| rc.address.as_str())
///     .collect();
/// assert_eq!(updates, ["aws_db_instance.main", "module.network.module.endpoints.aws_vpc_endpoint.s3"]);
///
/// // As the document writes them; an action a later version adds keeps its name.
/// assert_eq!(Action::from_name("no-op"), Action::NoOp);
/// assert_eq!(Action::Delete.to_string(), "delete");
/// assert_eq!(Action::from_name("merge"), Action::Other("merge".into()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `"no-op"`
    NoOp,
    /// `"create"`
    Create,
    /// `"read"`
    Read,
    /// `"update"`
    Update,
    /// `"delete"`
    Delete,
    /// `"forget"`
    Forget,
    /// An action a later version may add.
    Other(String),
}

impl Action {
    /// The action as the document writes it.
    pub fn as_str(&self) -> &str {
        match self {
            Action::NoOp => "no-op",
            Action::Create => "create",
            Action::Read => "read",
            Action::Update => "update",
            Action::Delete => "delete",
            Action::Forget => "forget",
            Action::Other(s) => s,
        }
    }

    /// The action a document's string names.
    pub fn from_name(name: &str) -> Action {
        match name {
            "no-op" => Action::NoOp,
            "create" => Action::Create,
            "read" => Action::Read,
            "update" => Action::Update,
            "delete" => Action::Delete,
            "forget" => Action::Forget,
            other => Action::Other(other.to_owned()),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A deferred change (`deferred_changes`): a change Terraform could not plan yet
/// (with `-allow-deferral`), left for a later plan.
///
/// ```
/// use ctywire::tfjson::{Action, Plan};
///
/// let plan = Plan::from_json(br#"{"format_version": "1.2", "deferred_changes": [{
///   "reason": "provider_config_unknown",
///   "resource_change": {
///     "address": "kubernetes_namespace.apps", "mode": "managed", "type": "kubernetes_namespace",
///     "name": "apps", "provider_name": "registry.terraform.io/hashicorp/kubernetes",
///     "change": {"actions": ["create"], "before": null,
///                "after": {"metadata": [{"name": "apps"}]}, "after_unknown": {"id": true}}
///   }
/// }], "applyable": true, "complete": false}"#)?;
/// assert!(!plan.complete); // another plan and apply are needed
/// let deferred = &plan.deferred_changes[0];
/// assert_eq!(deferred.reason, "provider_config_unknown");
/// let change = &deferred.resource_change;
/// assert_eq!((change.address.as_str(), &change.change.actions[..]), ("kubernetes_namespace.apps", &[Action::Create][..]));
/// let after = change.change.typed_after(&"object({id=string, metadata=list(object({name=string}))})".parse()?)?;
/// assert!(after["id"].is_unknown());
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct DeferredChange {
    /// Why it was deferred, e.g. `instance_count_unknown`.
    pub reason: String,
    /// The change as far as it is known.
    pub resource_change: ResourceChange,
}

/// A value that contributed to the plan (`relevant_attributes`): a resource attribute,
/// usually one that changed outside Terraform and that the configuration refers to.
///
/// ```
/// use ctywire::tfjson::Plan;
///
/// let plan = Plan::from_json(&std::fs::read("examples/plan/plan.json")?)?;
/// let relevant: Vec<String> = plan.relevant_attributes.iter()
///     .map(|r| format!("{}{}", r.resource, r.attribute))
///     .collect();
/// assert_eq!(relevant, ["aws_security_group.web.id", "module.network.aws_vpc.main.tags.Name"]);
///
/// // The document writes map keys as attribute names; a type tells them apart.
/// let tags = &plan.relevant_attributes[1].attribute;
/// let vpc = "object({id=string, tags=map(string)})".parse()?;
/// assert_eq!(tags.resolve(&vpc).to_string(), r#".tags["Name"]"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct RelevantAttribute {
    /// The resource's address.
    pub resource: String,
    /// The attribute's path (string steps read as attributes).
    pub attribute: Path,
}

impl Plan {
    /// Reads a plan document (`terraform show -json PLANFILE`).
    ///
    /// ```
    /// use ctywire::tfjson::Plan;
    ///
    /// let plan = Plan::from_json(&std::fs::read("examples/plan/plan.json")?)?;
    /// assert_eq!(plan.resource_changes.len(), 11);
    /// assert!(plan.prior_state.is_some());
    /// let err = Plan::from_json(b"{\"resource_changes\": {}}").unwrap_err();
    /// assert_eq!(err.to_string(), ".resource_changes: expected an array, found an object at line 1 column 22");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_json(input: &[u8]) -> Result<Plan> {
        read::document(input, plan)
    }

    /// The change to the current (not deposed) object of the resource instance at
    /// `address`.
    ///
    /// ```
    /// use ctywire::tfjson::{Action, Plan};
    ///
    /// let plan = Plan::from_json(&std::fs::read("examples/plan/plan.json")?)?;
    /// let change = plan.resource_change(r#"module.network.aws_subnet.private["a"]"#).unwrap();
    /// assert_eq!(change.change.actions, [Action::Create]);
    /// assert!(plan.resource_change("aws_instance.nope").is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resource_change(&self, address: &str) -> Option<&ResourceChange> {
        self.resource_changes
            .iter()
            .find(|c| c.address == address && c.deposed.is_none())
    }

    /// Every change to objects of the resource instance at `address`: the current
    /// object's and the deposed objects'.
    pub fn resource_changes_at<'p>(
        &'p self,
        address: &'p str,
    ) -> impl Iterator<Item = &'p ResourceChange> + 'p {
        self.resource_changes
            .iter()
            .filter(move |c| c.address == address)
    }
}

impl std::str::FromStr for Plan {
    type Err = Error;

    fn from_str(s: &str) -> Result<Plan> {
        Plan::from_json(s.as_bytes())
    }
}

impl ResourceChange {
    /// The resource's schema in `schemas`, whose implied type types the change's
    /// values.
    pub fn schema<'s>(&self, schemas: &'s ProviderSchemas) -> Result<&'s Schema> {
        self.find_schema(schemas).map(|found| found.schema)
    }

    /// [`schema`](Self::schema), with the provider taken and how the document's
    /// provider name led to it ([`ResourceMode::find_schema`]).
    pub fn find_schema<'s>(&self, schemas: &'s ProviderSchemas) -> Result<SchemaMatch<'s>> {
        self.mode
            .find_schema(schemas, &self.type_name, self.provider_name.as_deref())
    }

    /// The resource type's identity schema in `schemas`, which types the change's
    /// identities.
    pub fn find_identity_schema<'s>(
        &self,
        schemas: &'s ProviderSchemas,
    ) -> Result<SchemaMatch<'s, IdentitySchema>> {
        schemas.find_identity(&self.type_name, self.provider_name.as_deref())
    }
}

impl Change {
    /// Whether the actions replace the object (`["delete", "create"]` or
    /// `["create", "delete"]`).
    pub fn is_replace(&self) -> bool {
        self.actions.contains(&Action::Create) && self.actions.contains(&Action::Delete)
    }

    /// The value before, decoded with type `ty`; `Null` when the document has none.
    /// `before_sensitive` must fit it ([`check_sensitive_tree`](super::check_sensitive_tree)).
    pub fn typed_before(&self, ty: &Type) -> Result<Value> {
        let value = match &self.before {
            Some(b) => b.decode(ty)?,
            None => Value::Null,
        };
        checked(value, self.before_sensitive.as_ref(), ty)
    }

    /// The value after, with its unknowns, decoded with type `ty` (see
    /// [`from_json_value`]). `after_unknown` and `after_sensitive` must fit it.
    ///
    /// ```
    /// use ctywire::schema::ProviderSchemas;
    /// use ctywire::tfjson::Plan;
    ///
    /// let plan = Plan::from_json(&std::fs::read("examples/plan/plan.json")?)?;
    /// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/plan/schema.json")?)?;
    /// let rc = plan.resource_change("aws_db_instance.main").unwrap();
    /// let after = rc.change.typed_after(&rc.schema(&schemas)?.implied_type())?;
    /// assert_eq!(after["allocated_storage"].as_i64(), Some(200));
    /// assert!(after["master_user_secret"][0]["secret_arn"].is_unknown());
    /// assert!(!after["master_user_secret"][0]["kms_key_id"].is_unknown());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn typed_after(&self, ty: &Type) -> Result<Value> {
        let value = from_json_value(
            self.after.as_ref().map(RawJson::as_str),
            self.after_unknown.as_ref(),
            ty,
        )?;
        checked(value, self.after_sensitive.as_ref(), ty)
    }

    /// The identity before (`before_identity`), decoded with type `ty` (the resource
    /// type's identity schema's implied type); `Null` when the document has none.
    pub fn typed_before_identity(&self, ty: &Type) -> Result<Value> {
        typed_identity(self.before_identity.as_ref(), ty)
    }

    /// The identity after (`after_identity`), decoded with type `ty`; `Null` when the
    /// document has none.
    pub fn typed_after_identity(&self, ty: &Type) -> Result<Value> {
        typed_identity(self.after_identity.as_ref(), ty)
    }

    /// The paths of the sensitive parts of the value before.
    pub fn before_sensitive_paths(&self, ty: &Type) -> Vec<Path> {
        self.before_sensitive
            .as_ref()
            .map(|t| sensitive_paths(t, ty))
            .unwrap_or_default()
    }

    /// The paths of the sensitive parts of the value after.
    ///
    /// ```
    /// use ctywire::schema::ProviderSchemas;
    /// use ctywire::tfjson::Plan;
    ///
    /// let plan = Plan::from_json(&std::fs::read("examples/plan/plan.json")?)?;
    /// let schemas = ProviderSchemas::from_json(&std::fs::read("examples/plan/schema.json")?)?;
    /// let rc = plan.resource_change("aws_db_instance.main").unwrap();
    /// let ty = rc.schema(&schemas)?.implied_type();
    /// let paths: Vec<String> = rc.change.after_sensitive_paths(&ty).iter().map(|p| p.to_string()).collect();
    /// assert_eq!(paths, [".master_user_secret[0].secret_arn", ".password"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn after_sensitive_paths(&self, ty: &Type) -> Vec<Path> {
        self.after_sensitive
            .as_ref()
            .map(|t| sensitive_paths(t, ty))
            .unwrap_or_default()
    }

    /// The change Terraform writes for a resource instance object of type `ty`
    /// (`marshalResourceChange`): `before` and `after` as plain JSON (`after` absent
    /// when wholly unknown), `after_unknown` `{}` when `after` is wholly known and the
    /// unknown tree otherwise, each sensitivity tree present when its value is. `None`
    /// for `before` or `after` leaves that side out entirely.
    ///
    /// ```
    /// use ctywire::{tfjson::{Action, Change}, Path, Type, Value};
    ///
    /// let ty: Type = "object({id=string, password=string})".parse()?;
    /// let after = Value::object([("id", Value::unknown()), ("password", Value::from("x"))]);
    /// let c = Change::for_resource(vec![Action::Create], Some(&Value::Null), Some(&after), &ty, &[], &[Path::root().attribute("password")])?;
    /// assert_eq!(c.before.unwrap().as_str(), "null");
    /// assert_eq!(c.after.unwrap().as_str(), r#"{"password":"x"}"#);
    /// assert_eq!(c.after_unknown.unwrap().to_string(), r#"{"id":true}"#);
    /// assert_eq!(c.before_sensitive.unwrap().to_string(), "false");
    /// assert_eq!(c.after_sensitive.unwrap().to_string(), r#"{"password":true}"#);
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn for_resource(
        actions: Vec<Action>,
        before: Option<&Value>,
        after: Option<&Value>,
        ty: &Type,
        before_sensitive: &[Path],
        after_sensitive: &[Path],
    ) -> Result<Change> {
        let mut c = Change {
            actions,
            ..Change::default()
        };
        if let Some(b) = before {
            c.before = to_json_value(b, ty)?;
            c.before_sensitive = Some(sensitive_tree(before_sensitive, b, ty));
        }
        if let Some(a) = after {
            c.after = to_json_value(a, ty)?;
            c.after_unknown = Some(if a.is_wholly_known() {
                MarkTree::Object(BTreeMap::new())
            } else {
                unknown_tree(a)
            });
            c.after_sensitive = Some(sensitive_tree(after_sensitive, a, ty));
        }
        Ok(c)
    }

    /// The change Terraform writes for a root module output (`MarshalOutputChanges`):
    /// values as for [`for_resource`](Self::for_resource) (an output's type is its
    /// value's, so values are written as at a `dynamic` position), `after_unknown`
    /// `false` when `after` is wholly known, and both sensitivity trees the single bool
    /// `sensitive`.
    ///
    /// ```
    /// use ctywire::{tfjson::{Action, Change}, Value};
    ///
    /// let after = Value::list([Value::from("a"), Value::unknown()]);
    /// let c = Change::for_output(vec![Action::Create], Some(&Value::Null), Some(&after), false)?;
    /// assert_eq!(c.after.unwrap().as_str(), r#"["a",null]"#);
    /// assert_eq!(c.after_unknown.unwrap().to_string(), "[false,true]");
    /// assert_eq!(c.after_sensitive.unwrap().to_string(), "false");
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn for_output(
        actions: Vec<Action>,
        before: Option<&Value>,
        after: Option<&Value>,
        sensitive: bool,
    ) -> Result<Change> {
        let mut c = Change {
            actions,
            before_sensitive: Some(MarkTree::Bool(sensitive)),
            after_sensitive: Some(MarkTree::Bool(sensitive)),
            ..Change::default()
        };
        if let Some(b) = before {
            c.before = to_json_value(b, &Type::Dynamic)?;
        }
        if let Some(a) = after {
            c.after = to_json_value(a, &Type::Dynamic)?;
            c.after_unknown = Some(if a.is_wholly_known() {
                MarkTree::Bool(false)
            } else {
                unknown_tree(a)
            });
        }
        Ok(c)
    }
}

pub(super) fn plan(r: &mut Reader<'_>) -> Result<Plan> {
    let mut out = Plan::default();
    read::object(r, |k, r| {
        match k {
            "format_version" => out.format_version = Some(read::format_version(r)?),
            "terraform_version" => out.terraform_version = read::opt_string(r)?,
            "variables" => {
                if r.peek_kind()? == Kind::Null {
                    return r.read_null();
                }
                read::object(r, |name, r| {
                    let mut value = None;
                    read::object(r, |k, r| {
                        if k == "value" {
                            value = Some(read::raw(r)?);
                        } else {
                            r.skip_value()?;
                        }
                        Ok(())
                    })?;
                    if let Some(v) = value {
                        out.variables.insert(name.to_owned(), v);
                    }
                    Ok(())
                })?
            }
            "planned_values" => out.planned_values = Some(values(r)?),
            "resource_drift" => out.resource_drift = read::list(r, resource_change)?,
            "resource_changes" => out.resource_changes = read::list(r, resource_change)?,
            "deferred_changes" => out.deferred_changes = read::list(r, deferred_change)?,
            "output_changes" => {
                if r.peek_kind()? == Kind::Null {
                    return r.read_null();
                }
                read::object(r, |name, r| {
                    out.output_changes.insert(name.to_owned(), change(r)?);
                    Ok(())
                })?
            }
            "prior_state" => {
                if r.peek_kind()? == Kind::Null {
                    r.read_null()?;
                } else {
                    out.prior_state = Some(state(r)?);
                }
            }
            "configuration" => out.configuration = Some(read::raw(r)?),
            "relevant_attributes" => out.relevant_attributes = read::list(r, relevant_attribute)?,
            "checks" => out.checks = Some(read::raw(r)?),
            "action_invocations" => {
                out.action_invocations = read::list(r, action::action_invocation)?
            }
            "deferred_action_invocations" => {
                out.deferred_action_invocations = read::list(r, action::deferred_action_invocation)?
            }
            "condition_results" => out.condition_results = read::list(r, condition_result)?,
            // HCP Terraform's redacted plans: their own envelope, schemas embedded.
            "plan_format_version" => out.format_version = Some(read::format_version(r)?),
            "provider_schemas" => {
                let providers = crate::schema::json::provider_schemas(r)?;
                out.provider_schemas
                    .get_or_insert_with(Default::default)
                    .providers = providers;
            }
            "provider_format_version" => {
                let version = read::format_version(r)?;
                out.provider_schemas
                    .get_or_insert_with(Default::default)
                    .format_version = version;
            }
            "timestamp" => out.timestamp = read::opt_string(r)?,
            "applyable" => out.applyable = read::boolean(r)?,
            "complete" => out.complete = read::boolean(r)?,
            "errored" => out.errored = read::boolean(r)?,
            _ => r.skip_value()?,
        }
        Ok(())
    })?;
    Ok(out)
}

fn resource_change(r: &mut Reader<'_>) -> Result<ResourceChange> {
    let mut out = ResourceChange {
        address: String::new(),
        previous_address: None,
        module_address: None,
        mode: ResourceMode::Managed,
        type_name: String::new(),
        name: String::new(),
        index: None,
        index_unknown: false,
        deposed: None,
        provider_name: None,
        change: Change::default(),
        action_reason: None,
    };
    read::object(r, |k, r| {
        match k {
            "address" => out.address = read::string(r)?,
            "previous_address" => out.previous_address = read::opt_string(r)?,
            "module_address" => out.module_address = read::opt_string(r)?,
            "mode" => {
                out.mode = match read::string(r)?.as_str() {
                    "managed" => ResourceMode::Managed,
                    "data" => ResourceMode::Data,
                    other => ResourceMode::Other(other.to_owned()),
                }
            }
            "type" => out.type_name = read::string(r)?,
            "name" => out.name = read::string(r)?,
            "index" => out.index = instance_key(r)?,
            "index_unknown" => out.index_unknown = read::boolean(r)?,
            "deposed" => out.deposed = read::opt_string(r)?,
            "provider_name" => out.provider_name = read::opt_string(r)?,
            "change" => out.change = change(r)?,
            "action_reason" => out.action_reason = read::opt_string(r)?,
            _ => r.skip_value()?,
        }
        Ok(())
    })?;
    Ok(out)
}

fn change(r: &mut Reader<'_>) -> Result<Change> {
    let mut out = Change::default();
    read::object(r, |k, r| {
        match k {
            "actions" => {
                out.actions = read::list(r, |r| read::string(r).map(|s| Action::from_name(&s)))?
            }
            "before" => out.before = Some(read::raw(r)?),
            "after" => out.after = Some(read::raw(r)?),
            "after_unknown" => out.after_unknown = Some(read::tree(r)?),
            "before_sensitive" => out.before_sensitive = Some(read::tree(r)?),
            "after_sensitive" => out.after_sensitive = Some(read::tree(r)?),
            "replace_paths" => out.replace_paths = read::list(r, read::path)?,
            "importing" => out.importing = read::optional(r, importing)?,
            "generated_config" => out.generated_config = read::opt_string(r)?,
            "before_identity" => out.before_identity = non_null(read::raw(r)?),
            "after_identity" => out.after_identity = non_null(read::raw(r)?),
            _ => r.skip_value()?,
        }
        Ok(())
    })?;
    Ok(out)
}

fn importing(r: &mut Reader<'_>) -> Result<Importing> {
    let mut out = Importing::default();
    read::object(r, |k, r| {
        match k {
            "id" => out.id = read::opt_string(r)?,
            "unknown" => out.unknown = read::boolean(r)?,
            "identity" => out.identity = non_null(read::raw(r)?),
            _ => r.skip_value()?,
        }
        Ok(())
    })?;
    Ok(out)
}

fn condition_result(r: &mut Reader<'_>) -> Result<ConditionResult> {
    let mut out = ConditionResult::default();
    read::object(r, |k, r| {
        match k {
            "address" => out.address = read::string(r)?,
            "condition_type" => out.condition_type = read::string(r)?,
            "result" => out.result = read::boolean(r)?,
            "unknown" => out.unknown = read::boolean(r)?,
            "error_message" => out.error_message = read::opt_string(r)?,
            _ => r.skip_value()?,
        }
        Ok(())
    })?;
    Ok(out)
}

/// An identity, decoded with type `ty`; `Null` when absent.
pub(super) fn typed_identity(identity: Option<&RawJson>, ty: &Type) -> Result<Value> {
    match identity {
        Some(raw) => raw.decode(ty),
        None => Ok(Value::Null),
    }
}

fn deferred_change(r: &mut Reader<'_>) -> Result<DeferredChange> {
    let mut reason = String::new();
    let mut rc = None;
    read::object(r, |k, r| {
        match k {
            "reason" => reason = read::string(r)?,
            "resource_change" => rc = Some(resource_change(r)?),
            _ => r.skip_value()?,
        }
        Ok(())
    })?;
    let resource_change = rc.ok_or_else(|| {
        Error::new(
            crate::error::ErrorKind::InvalidValue,
            "a deferred change without \"resource_change\"",
        )
    })?;
    Ok(DeferredChange {
        reason,
        resource_change,
    })
}

fn relevant_attribute(r: &mut Reader<'_>) -> Result<RelevantAttribute> {
    let mut resource = String::new();
    let mut attribute = Path::root();
    read::object(r, |k, r| {
        match k {
            "resource" => resource = read::string(r)?,
            "attribute" => attribute = read::path(r)?,
            _ => r.skip_value()?,
        }
        Ok(())
    })?;
    Ok(RelevantAttribute {
        resource,
        attribute,
    })
}

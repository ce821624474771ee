//! Checks of a step's plan and of the state after it: [`PlanCheck`], [`StateCheck`],
//! and values tracked across steps ([`Track`]).

use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

use ctywire::tfjson::{Action, Plan, RawJson, State};
use ctywire::{Path, Type, Value};

use crate::expect::{show, Expect};

/// A path into a resource's value, in Terraform's form (`.disk[0].size`,
/// `tags["Name"]`) or terraform-plugin-testing's dotted one (`disk.0.size`).
///
/// # Panics
///
/// When `text` is not a path: a mistake in the test itself.
#[track_caller]
fn path(text: &str) -> Path {
    Path::parse(text).unwrap_or_else(|e| panic!("{text:?} is not a path: {e}"))
}

/// A value of a document, decoded exactly (numbers beyond `f64` kept).
fn decode(raw: &RawJson) -> Result<Value, String> {
    raw.decode_implied()
        .map_err(|e| format!("unreadable value in Terraform's JSON: {e}"))
}

type PlanFn = Box<dyn Fn(&Plan) -> Result<(), String>>;

/// A check of a plan, as `terraform show -json` prints it (terraform-plugin-testing's
/// `plancheck`). Give it to [`Step::plan_check`](crate::Step::plan_check) (before apply)
/// or [`Step::post_apply_plan_check`](crate::Step::post_apply_plan_check).
///
/// ```
/// use ctywire::tfjson::Plan;
/// use ctywire_testing::{Expect, PlanCheck, ResourceAction};
///
/// let plan = Plan::from_json(br#"{"format_version": "1.2", "resource_changes": [
///   {"address": "demo_thing.x", "mode": "managed", "type": "demo_thing", "name": "x",
///    "change": {"actions": ["create"], "before": null,
///               "after": {"name": "a", "secret": "s"}, "after_unknown": {"id": true},
///               "after_sensitive": {"secret": true}}}]}"#)?;
/// PlanCheck::resource_action("demo_thing.x", ResourceAction::Create).check(&plan)?;
/// PlanCheck::unknown_value("demo_thing.x", "id").check(&plan)?;
/// PlanCheck::sensitive_value("demo_thing.x", "secret").check(&plan)?;
/// PlanCheck::known_value("demo_thing.x", "name", Expect::string("a")).check(&plan)?;
/// let err = PlanCheck::known_value("demo_thing.x", "secret", Expect::string("t")).check(&plan).unwrap_err();
/// assert_eq!(err, "demo_thing.x at .secret: expected (sensitive value), found (sensitive value)");
/// assert_eq!(PlanCheck::empty().check(&plan).unwrap_err(), "expected an empty plan, found: demo_thing.x: create");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct PlanCheck {
    check: PlanFn,
}

impl fmt::Debug for PlanCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PlanCheck")
    }
}

/// What a plan does to one resource instance (terraform-plugin-testing's
/// `plancheck.ResourceActionType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResourceAction {
    /// Nothing.
    NoOp,
    /// Create.
    Create,
    /// Read (a data source read during apply).
    Read,
    /// Update in place.
    Update,
    /// Destroy.
    Destroy,
    /// Replace, in either order.
    Replace,
    /// Replace: destroy first, then create.
    DestroyBeforeCreate,
    /// Replace: create first, then destroy.
    CreateBeforeDestroy,
}

impl ResourceAction {
    fn matches(self, actions: &[Action]) -> bool {
        use Action::{Create, Delete};
        match self {
            ResourceAction::NoOp => actions == [Action::NoOp],
            ResourceAction::Create => actions == [Create],
            ResourceAction::Read => actions == [Action::Read],
            ResourceAction::Update => actions == [Action::Update],
            ResourceAction::Destroy => actions == [Delete],
            ResourceAction::Replace => actions == [Delete, Create] || actions == [Create, Delete],
            ResourceAction::DestroyBeforeCreate => actions == [Delete, Create],
            ResourceAction::CreateBeforeDestroy => actions == [Create, Delete],
        }
    }
}

fn actions_text(actions: &[Action]) -> String {
    actions
        .iter()
        .map(Action::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether a change changes nothing (what `ExpectEmptyPlan` accepts).
fn is_no_op(actions: &[Action]) -> bool {
    actions.iter().all(|a| *a == Action::NoOp)
}

impl PlanCheck {
    /// A check of your own: `Err` with the message to show.
    pub fn custom(check: impl Fn(&Plan) -> Result<(), String> + 'static) -> PlanCheck {
        PlanCheck {
            check: Box::new(check),
        }
    }

    /// Runs the check.
    pub fn check(&self, plan: &Plan) -> Result<(), String> {
        (self.check)(plan)
    }

    /// No resource instance and no output changes.
    pub fn empty() -> PlanCheck {
        PlanCheck::custom(|plan| {
            let changes: Vec<String> = plan
                .resource_changes
                .iter()
                .filter(|rc| !is_no_op(&rc.change.actions))
                .map(|rc| format!("{}: {}", rc.address, actions_text(&rc.change.actions)))
                .chain(
                    plan.output_changes
                        .iter()
                        .filter(|(_, c)| !is_no_op(&c.actions))
                        .map(|(name, c)| format!("output.{name}: {}", actions_text(&c.actions))),
                )
                .collect();
            if changes.is_empty() {
                Ok(())
            } else {
                Err(format!(
                    "expected an empty plan, found: {}",
                    changes.join("; ")
                ))
            }
        })
    }

    /// Some resource instance or output changes.
    pub fn non_empty() -> PlanCheck {
        PlanCheck::custom(|plan| match PlanCheck::empty().check(plan) {
            Ok(()) => Err("expected a plan with changes, found an empty one".into()),
            Err(_) => Ok(()),
        })
    }

    /// The plan does `action` to the instance at `address`.
    pub fn resource_action(address: &str, action: ResourceAction) -> PlanCheck {
        let address = address.to_owned();
        PlanCheck::custom(move |plan| {
            let rc = plan
                .resource_change(&address)
                .ok_or_else(|| format!("{address}: not in the plan (expected {action:?})"))?;
            if action.matches(&rc.change.actions) {
                Ok(())
            } else {
                Err(format!(
                    "{address}: expected {action:?}, found [{}]",
                    actions_text(&rc.change.actions)
                ))
            }
        })
    }

    /// The planned value at `path` of the instance at `address` is unknown.
    #[track_caller]
    pub fn unknown_value(address: &str, path_text: &str) -> PlanCheck {
        let (address, at) = (address.to_owned(), path(path_text));
        PlanCheck::custom(move |plan| {
            let change = &change_of(plan, &address)?;
            if change
                .after_unknown
                .as_ref()
                .is_some_and(|t| t.is_marked(&at))
            {
                return Ok(());
            }
            let found = match change.after.as_ref().map(decode).transpose()? {
                Some(after)
                    if !change
                        .after_sensitive
                        .as_ref()
                        .is_some_and(|t| t.is_marked(&at)) =>
                {
                    after.at_path(&at).map_or("nothing".into(), show)
                }
                Some(_) => "(sensitive value)".into(),
                None => "nothing".into(),
            };
            Err(format!(
                "{address} at {at}: expected an unknown value, found {found}"
            ))
        })
    }

    /// The planned value at `path` of the instance at `address` is sensitive.
    #[track_caller]
    pub fn sensitive_value(address: &str, path_text: &str) -> PlanCheck {
        let (address, at) = (address.to_owned(), path(path_text));
        PlanCheck::custom(move |plan| {
            let change = change_of(plan, &address)?;
            if change
                .after_sensitive
                .as_ref()
                .is_some_and(|t| t.is_marked(&at))
            {
                Ok(())
            } else {
                Err(format!(
                    "{address} at {at}: expected a sensitive value, found one that is not"
                ))
            }
        })
    }

    /// The planned value at `path` of the instance at `address` is known and as expected.
    #[track_caller]
    pub fn known_value(address: &str, path_text: &str, expect: Expect) -> PlanCheck {
        let (address, at) = (address.to_owned(), path(path_text));
        PlanCheck::custom(move |plan| {
            let change = change_of(plan, &address)?;
            let sensitive = change
                .after_sensitive
                .as_ref()
                .is_some_and(|t| t.is_marked(&at));
            if change
                .after_unknown
                .as_ref()
                .is_some_and(|t| t.is_marked(&at))
            {
                let wanted = if sensitive {
                    "(sensitive value)".into()
                } else {
                    expect.to_string()
                };
                return Err(format!(
                    "{address} at {at}: expected {wanted}, found (known after apply)"
                ));
            }
            let after = change
                .after
                .as_ref()
                .map(decode)
                .transpose()?
                .unwrap_or(Value::Null);
            check_at(&address, &at, &after, &expect, sensitive)
        })
    }
}

fn change_of(plan: &Plan, address: &str) -> Result<ctywire::tfjson::Change, String> {
    plan.resource_change(address)
        .map(|rc| rc.change.clone())
        .ok_or_else(|| format!("{address}: not in the plan"))
}

/// Checks the part of `value` at `at` against `expect`; values hidden when `sensitive`.
fn check_at(
    address: &str,
    at: &Path,
    value: &Value,
    expect: &Expect,
    sensitive: bool,
) -> Result<(), String> {
    let Some(part) = value.at_path(at) else {
        return Err(format!("{address}: no value at {at}"));
    };
    expect.check(part).map_err(|m| {
        let m = if sensitive { m.hide_values() } else { m };
        let mut full = if at.is_empty() {
            address.to_owned()
        } else {
            format!("{address} at {at}")
        };
        if !m.path.is_empty() {
            full.push_str(&m.path);
        }
        format!("{full}: expected {}, found {}", m.expected, m.found)
    })
}

type StateFn = Box<dyn Fn(&State) -> Result<(), String>>;

/// A check of the state after a step, as `terraform show -json` prints it
/// (terraform-plugin-testing's `statecheck`).
///
/// ```
/// use ctywire::tfjson::State;
/// use ctywire_testing::{Expect, StateCheck};
///
/// let state = State::from_json(br#"{"format_version": "1.0", "values": {"root_module": {"resources": [
///   {"address": "demo_thing.x", "mode": "managed", "type": "demo_thing", "name": "x",
///    "values": {"id": "thing-a", "size": 12345678901234567890123, "disk": [{"size": 1}]},
///    "sensitive_values": {}}]}}}"#)?;
/// StateCheck::known_value("demo_thing.x", "id", Expect::regex("^thing-")).check(&state)?;
/// StateCheck::known_value("demo_thing.x", "size", Expect::number("12345678901234567890123")).check(&state)?;
/// let err = StateCheck::known_value("demo_thing.x", "disk", Expect::list([Expect::object([("size", Expect::int(2))])]))
///     .check(&state).unwrap_err();
/// assert_eq!(err, "demo_thing.x at .disk[0].size: expected 2, found 1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct StateCheck {
    check: StateFn,
}

impl fmt::Debug for StateCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("StateCheck")
    }
}

/// The current object of the resource instance at `address` in a state.
pub(crate) fn find_resource<'s>(
    state: &'s State,
    address: &str,
) -> Option<&'s ctywire::tfjson::Resource> {
    state.values.as_ref().and_then(|v| v.resource(address))
}

/// The value of the resource instance at `address` in a state, with whether `at` is
/// sensitive there.
fn state_value(state: &State, address: &str, at: &Path) -> Result<(Value, bool), String> {
    let resource =
        find_resource(state, address).ok_or_else(|| format!("{address}: not in the state"))?;
    let value = resource
        .values
        .as_ref()
        .map(decode)
        .transpose()?
        .unwrap_or(Value::Null);
    let sensitive = resource
        .sensitive_values
        .as_ref()
        .is_some_and(|t| t.is_marked(at));
    Ok((value, sensitive))
}

impl StateCheck {
    /// A check of your own: `Err` with the message to show.
    pub fn custom(check: impl Fn(&State) -> Result<(), String> + 'static) -> StateCheck {
        StateCheck {
            check: Box::new(check),
        }
    }

    /// Runs the check.
    pub fn check(&self, state: &State) -> Result<(), String> {
        (self.check)(state)
    }

    /// The value at `path` of the instance at `address` is as expected (`""` or `"."`
    /// for the whole object).
    #[track_caller]
    pub fn known_value(address: &str, path_text: &str, expect: Expect) -> StateCheck {
        let (address, at) = (address.to_owned(), path(path_text));
        StateCheck::custom(move |state| {
            let (value, sensitive) = state_value(state, &address, &at)?;
            check_at(&address, &at, &value, &expect, sensitive)
        })
    }

    /// The root module's output `name` is as expected.
    pub fn known_output(name: &str, expect: Expect) -> StateCheck {
        let name = name.to_owned();
        StateCheck::custom(move |state| {
            let output = state
                .values
                .as_ref()
                .and_then(|v| v.outputs.get(&name))
                .ok_or_else(|| format!("output.{name}: not in the state"))?;
            let value = output
                .value
                .as_ref()
                .map(decode)
                .transpose()?
                .unwrap_or(Value::Null);
            check_at(
                &format!("output.{name}"),
                &Path::root(),
                &value,
                &expect,
                output.sensitive,
            )
        })
    }

    /// The instance at `address` is in the state (`exists`) or not.
    pub fn resource_exists(address: &str, exists: bool) -> StateCheck {
        let address = address.to_owned();
        StateCheck::custom(
            move |state| match (find_resource(state, &address).is_some(), exists) {
                (true, true) | (false, false) => Ok(()),
                (false, true) => Err(format!("{address}: not in the state")),
                (true, false) => Err(format!("{address}: still in the state")),
            },
        )
    }

    /// Records the value at `path` of the instance at `address` in `track`, and checks
    /// it against the values recorded by earlier steps by the track's rule.
    #[track_caller]
    pub fn track(track: &Track, address: &str, path_text: &str) -> StateCheck {
        let (track, address, at) = (track.clone(), address.to_owned(), path(path_text));
        StateCheck::custom(move |state| {
            let (value, sensitive) = state_value(state, &address, &at)?;
            let value = value
                .at_path(&at)
                .cloned()
                .ok_or_else(|| format!("{address}: no value at {at}"))?;
            track.add(format!("{address} at {at}"), value, sensitive)
        })
    }

    /// The values at `path_a` of `address_a` and at `path_b` of `address_b` are the
    /// same (`same`) or differ.
    #[track_caller]
    pub fn compare_pair(
        address_a: &str,
        path_a: &str,
        address_b: &str,
        path_b: &str,
        same: bool,
    ) -> StateCheck {
        let a = (address_a.to_owned(), path(path_a));
        let b = (address_b.to_owned(), path(path_b));
        StateCheck::custom(move |state| {
            let side = |(address, at): &(String, Path)| -> Result<(Value, bool), String> {
                let (value, sensitive) = state_value(state, address, at)?;
                let value = value
                    .at_path(at)
                    .cloned()
                    .ok_or_else(|| format!("{address}: no value at {at}"))?;
                Ok((value, sensitive))
            };
            let ((va, sa), (vb, sb)) = (side(&a)?, side(&b)?);
            if va.raw_equals(&vb, &Type::Dynamic) == same {
                return Ok(());
            }
            let shown = |v: &Value, s: bool| {
                if s {
                    "(sensitive value)".into()
                } else {
                    show(v)
                }
            };
            Err(format!(
                "{} at {} ({}) and {} at {} ({}): expected them {}",
                a.0,
                a.1,
                shown(&va, sa),
                b.0,
                b.1,
                shown(&vb, sb),
                if same { "equal" } else { "to differ" }
            ))
        })
    }
}

/// A value followed across steps (terraform-plugin-testing's `statecheck.CompareValue`):
/// each [`StateCheck::track`] records the value it finds and checks it against the
/// earlier ones.
///
/// ```
/// use ctywire_testing::Track;
/// let id = Track::unchanged(); // the same in every step that records it
/// let name = Track::changing(); // different from the step before, every time
/// # let _ = (id, name);
/// ```
#[derive(Clone, Debug)]
pub struct Track {
    same: bool,
    seen: Rc<RefCell<Vec<(String, Value, bool)>>>,
}

impl Track {
    /// Every value recorded equals the first.
    pub fn unchanged() -> Track {
        Track {
            same: true,
            seen: Rc::default(),
        }
    }

    /// Every value recorded differs from the one recorded before it.
    pub fn changing() -> Track {
        Track {
            same: false,
            seen: Rc::default(),
        }
    }

    fn add(&self, place: String, value: Value, sensitive: bool) -> Result<(), String> {
        let mut seen = self.seen.borrow_mut();
        let result = match seen.last() {
            Some((_, previous, was_sensitive))
                if previous.raw_equals(&value, &Type::Dynamic) != self.same =>
            {
                let shown = |v: &Value, s: bool| {
                    if s {
                        "(sensitive value)".into()
                    } else {
                        show(v)
                    }
                };
                let (first, _, first_sensitive) = &seen[0];
                Err(if self.same {
                    format!(
                        "{place}: expected the value unchanged since {first} ({}), found {}",
                        shown(&seen[0].1, *first_sensitive),
                        shown(&value, sensitive)
                    )
                } else {
                    format!(
                        "{place}: expected a change, found the same value as before ({})",
                        shown(previous, *was_sensitive || sensitive)
                    )
                })
            }
            _ => Ok(()),
        };
        seen.push((place, value, sensitive));
        result
    }
}

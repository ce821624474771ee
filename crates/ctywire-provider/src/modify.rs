//! The plan a resource's [`modify_plan`](crate::Resource::modify_plan) sees and edits:
//! [`Plan`].

use std::marker::PhantomData;

use ctywire::object::{self, MsgpackField};
use ctywire::{Path, Value};

use crate::{Error, Result};

/// A resource's plan, after the default plan (defaults, unknowns, kept state,
/// replacements) and before it is checked with Terraform's rules: the prior state, the
/// configuration and the planned state, as the struct `T` or value by value, and the
/// paths whose change forces a replacement.
///
/// The configuration and the plan may hold unknown values: reading one as `T` needs a
/// [`Known`](ctywire::Known) field wherever it may be unknown, and is an error naming
/// the attribute otherwise; [`planned_value`](Plan::planned_value) and
/// [`config_value`](Plan::config_value) read any one value.
pub struct Plan<T> {
    prior: Value,
    config: Value,
    planned: Value,
    replace: Vec<Path>,
    /// Whether the planned state was written (so the framework encodes it again).
    edited: bool,
    state: PhantomData<fn() -> T>,
}

impl<T: MsgpackField> Plan<T> {
    pub(crate) fn new(prior: Value, config: Value, planned: Value, replace: Vec<Path>) -> Plan<T> {
        Plan {
            prior,
            config,
            planned,
            replace,
            edited: false,
            state: PhantomData,
        }
    }

    /// The values back (without copies of the prior state and configuration, which
    /// the handler's task took), and whether the planned state was written.
    pub(crate) fn into_parts(self) -> Parts {
        Parts {
            prior: self.prior,
            config: self.config,
            planned: self.planned,
            replace: self.replace,
            edited: self.edited,
        }
    }

    /// Whether the plan creates the object (there is no prior state).
    pub fn is_create(&self) -> bool {
        self.prior.is_null()
    }

    /// The prior state (`None` on a create).
    ///
    /// # Errors
    ///
    /// When the state does not fit `T`, at the path where it does not.
    pub fn prior(&self) -> Result<Option<T>> {
        typed(&self.prior, "prior state")
    }

    /// The configuration as `T`.
    ///
    /// # Errors
    ///
    /// Where the configuration is unknown and `T`'s field cannot hold an unknown (use
    /// [`Known`](ctywire::Known), or [`config_value`](Plan::config_value)).
    pub fn config(&self) -> Result<T> {
        typed(&self.config, "configuration")
    }

    /// The planned state as `T`.
    ///
    /// # Errors
    ///
    /// Where the plan is unknown (a computed attribute) and `T`'s field cannot hold an
    /// unknown (use [`Known`](ctywire::Known), or [`planned_value`](Plan::planned_value)).
    pub fn planned(&self) -> Result<T> {
        typed(&self.planned, "plan")
    }

    /// Replaces the planned state.
    ///
    /// # Errors
    ///
    /// When `T`'s typed codec cannot write it.
    pub fn set_planned(&mut self, planned: &T) -> Result<()> {
        self.planned = object::to_value(planned).map_err(|e| Error::value(&e, "Invalid plan"))?;
        self.edited = true;
        Ok(())
    }

    /// The configuration's value at `path` (a [`Path`] or a typed path:
    /// `Thing::path().size()`), if the configuration has one there.
    pub fn config_value(&self, path: impl Into<Path>) -> Option<&Value> {
        self.config.at_path(&path.into())
    }

    /// The prior state's value at `path`, if there is one.
    pub fn prior_value(&self, path: impl Into<Path>) -> Option<&Value> {
        self.prior.at_path(&path.into())
    }

    /// The planned value at `path`, if the plan has one there.
    pub fn planned_value(&self, path: impl Into<Path>) -> Option<&Value> {
        self.planned.at_path(&path.into())
    }

    /// Sets the planned value at `path` (an unknown with its refinements, a value the
    /// provider knows).
    ///
    /// # Errors
    ///
    /// When the plan has no value at `path`.
    pub fn set_planned_value(&mut self, path: impl Into<Path>, value: Value) -> Result<()> {
        let path = path.into();
        self.edited = true;
        self.planned
            .set_at_path(&path, value)
            .map_err(|e| Error::value(&e, "Invalid plan"))
    }

    /// Makes a change at `path` force the resource's replacement.
    pub fn requires_replace(&mut self, path: impl Into<Path>) {
        let path = path.into();
        if !self.replace.contains(&path) {
            self.replace.push(path);
        }
    }

    /// The paths whose change forces the replacement.
    pub fn replaced(&self) -> &[Path] {
        &self.replace
    }
}

/// A [`Plan`] taken apart.
pub(crate) struct Parts {
    pub(crate) prior: Value,
    pub(crate) config: Value,
    pub(crate) planned: Value,
    pub(crate) replace: Vec<Path>,
    pub(crate) edited: bool,
}

/// `value` as a `U`, an unknown the type cannot hold named with the fix.
fn typed<U: MsgpackField>(value: &Value, what: &str) -> Result<U> {
    object::from_value(value).map_err(|e| {
        if value.at_path(e.path()).is_some_and(Value::is_unknown) {
            Error::new(
                "Unknown value in a typed plan",
                format!(
                    "modify_plan read the {what} as its struct, and {} is unknown there, which the field cannot hold: make the field a ctywire::Known, or read the value with Plan::{}_value",
                    e.path(),
                    if what == "plan" { "planned" } else { "config" }
                ),
            )
            .at(e.path().clone())
        } else {
            Error::value(&e, "Invalid plan")
        }
    })
}

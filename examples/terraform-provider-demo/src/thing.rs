//! `demo_thing`'s value logic: plan, apply, import and state upgrade. The "cloud" is
//! Terraform's state: apply makes `id` from the name and gives disks their default kind.

use std::collections::BTreeMap;

use ctywire::schema::Block;
use ctywire::{Error, ErrorKind, Known, Number, Path, PathStep, Refinements, Value};
use serde::{Deserialize, Serialize};

use crate::schema::thing_v0_type;

/// What `id` starts with.
pub const ID_PREFIX: &str = "thing-";

/// The kind a disk gets when its configuration leaves it out.
pub const DEFAULT_DISK_KIND: &str = "standard";

/// A thing's state (and its planned state, where `id` and a disk's `kind` may be
/// unknown), one field per attribute and block.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Thing {
    pub name: String,
    pub size: Option<Number>,
    pub tags: Option<BTreeMap<String, String>>,
    pub id: Known<String>,
    pub secret: Option<String>,
    /// `dynamic`: the value keeps its concrete type.
    pub extra: Value,
    pub labels: Option<Vec<String>>,
    pub endpoint: Option<Endpoint>,
    pub disk: Vec<Disk>,
    pub network: Vec<Network>,
    pub settings: Option<Settings>,
    pub rule: BTreeMap<String, Rule>,
    pub group: Group,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Endpoint {
    pub host: String,
    pub port: Option<Number>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Disk {
    pub size: Number,
    pub kind: Known<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Network {
    pub name: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Settings {
    pub mode: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Rule {
    pub action: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Group {
    pub note: Option<String>,
}

impl Thing {
    /// A thing with `name` and nothing else set, as import and upgrade begin.
    pub fn named(name: &str) -> Thing {
        Thing {
            name: name.to_owned(),
            size: None,
            tags: None,
            id: Known::Known(format!("{ID_PREFIX}{name}")),
            secret: None,
            extra: Value::Null,
            labels: None,
            endpoint: None,
            disk: Vec::new(),
            network: Vec::new(),
            settings: None,
            rule: BTreeMap::new(),
            group: Group { note: None },
        }
    }

    /// The thing as apply leaves it: `id` from the name, disks without a kind given the
    /// default.
    pub fn applied(mut self) -> Thing {
        self.id = Known::Known(format!("{ID_PREFIX}{}", self.name));
        for disk in &mut self.disk {
            if !matches!(disk.kind, Known::Known(_)) {
                disk.kind = Known::Known(DEFAULT_DISK_KIND.to_owned());
            }
        }
        self
    }
}

/// The planned state: Terraform's proposed new state, with what only apply knows
/// unknown (the schema's helpers do it): on create `id` (not null, starting with
/// `thing-`) and the kind of each disk that has none (not null); on update the id and
/// the disks' kinds stay as they were. Returns the planned value and whether the change
/// needs a replacement (`name` changed).
pub fn plan(block: &Block, prior: &Value, config: &Value, proposed: &Value) -> (Value, bool) {
    let id = Path::root().attribute("id");
    let is_kind = |path: &Path| path.steps().last() == Some(&PathStep::Attribute("kind".into()));
    let planned = block.mark_computed_unknown(prior, config, proposed, |path| {
        if *path == id {
            Refinements::new().not_null().with_string_prefix(ID_PREFIX)
        } else if is_kind(path) {
            Refinements::new().not_null()
        } else {
            Refinements::new()
        }
    });
    let planned = block.keep_prior(prior, &planned, |path| *path == id || is_kind(path));
    let replace = !block
        .requires_replace(prior, &planned, &[Path::root().attribute("name")])
        .is_empty();
    (planned, replace)
}

/// The state a thing imported by `id` has: the name is the id without its `thing-`
/// prefix (or the whole id).
pub fn imported(id: &str) -> Result<Thing, Error> {
    let name = id.strip_prefix(ID_PREFIX).unwrap_or(id);
    if name.is_empty() {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!("cannot import {id:?}: expected an id \"{ID_PREFIX}NAME\" or a name"),
        ));
    }
    Ok(Thing::named(name))
}

/// A version-0 state (a value of [`thing_v0_type`], `demo_old_thing`'s type) as a
/// current one: `size` parsed as a number, the id made anew from the name.
pub fn from_v0(value: &Value) -> Result<Thing, Error> {
    #[derive(Deserialize)]
    struct V0 {
        name: String,
        size: Option<String>,
        tags: Option<BTreeMap<String, String>>,
    }
    let v0: V0 = ctywire::serde::from_value(value, &thing_v0_type())?;
    let mut thing = Thing::named(&v0.name);
    thing.tags = v0.tags;
    thing.size = match v0.size {
        None => None,
        Some(text) => Some(Number::parse(text.trim()).map_err(|_| {
            Error::new(
                ErrorKind::InvalidValue,
                format!("version 0 size {text:?} is not a number"),
            )
            .at(&Path::root().attribute("size"))
        })?),
    };
    Ok(thing)
}

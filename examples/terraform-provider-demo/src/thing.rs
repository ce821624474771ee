//! `demo_thing`'s value logic: plan, apply, import and state upgrade. The "cloud" is
//! Terraform's state: apply makes `id` from the name and gives disks their default kind.

use std::collections::BTreeMap;

use ctywire::{json, Error, ErrorKind, Known, Number, Path, Refinements, Type, Value};
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
/// unknown: on create `id` (not null, starting with `thing-`), and the kind of each disk
/// that has none (not null). Returns the planned value and whether the change needs a
/// replacement (`name` changed).
pub fn plan(prior: &Value, proposed: &Value) -> Result<(Value, bool), Error> {
    if proposed.is_null() {
        return Ok((Value::Null, false));
    }
    let mut planned = proposed.clone();
    let id = Path::root().attribute("id");
    if prior.is_null() {
        let refined = Refinements::new().not_null().with_string_prefix(ID_PREFIX);
        planned.set_at_path(&id, Value::refined_unknown(&Type::String, refined))?;
    }
    let disks = Path::root().attribute("disk");
    let count = match planned.at_path(&disks) {
        Some(Value::List(items)) => items.len(),
        _ => 0,
    };
    for i in 0..count {
        let kind = disks.clone().index(i as u64).attribute("kind");
        if planned.at_path(&kind).is_some_and(Value::is_null) {
            planned.set_at_path(&kind, Value::Unknown(Refinements::new().not_null()))?;
        }
    }
    let name = Path::root().attribute("name");
    let replace = !prior.is_null() && prior.at_path(&name) != planned.at_path(&name);
    Ok((planned, replace))
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

/// A version-0 state's JSON (`size` a string) as the current state.
pub fn upgrade_v0(raw: &[u8]) -> Result<Thing, Error> {
    #[derive(Deserialize)]
    struct V0 {
        name: String,
        size: Option<String>,
        tags: Option<BTreeMap<String, String>>,
    }
    let options = json::DecodeOptions::new().ignore_undefined_attributes(true);
    let value = json::decode_with(raw, &thing_v0_type(), &options)?;
    let v0: V0 = ctywire::serde::from_value(&value, &thing_v0_type())?;
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
